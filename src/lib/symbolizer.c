// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The symbolizer: a cache of ELF files opened with elfutils' libdwfl (one
 * Dwfl per file, its debug file found by build id or .gnu_debuglink) and
 * the kernel's symbols from kallsyms, loaded at the first kernel lookup.
 */
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <elfutils/libdwfl.h>
#include <perfev/symbols.h>
#include "internal.h"

struct dso {
	char *path;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	GElf_Addr bias;
	int err; /* why it cannot be read, or 0 */
	/* The PT_LOAD segments: file offset -> ELF address. */
	struct seg {
		uint64_t off, filesz, vaddr;
	} * segs;
	size_t nsegs;
};

struct perfev_symbolizer {
	char *procfs_root;
	struct perfev_kallsyms *ksyms;
	int kerr; /* why kallsyms could not be loaded, or 0 */
	bool kloaded;
	/* Files by path: open addressing, a power of two. */
	struct dso **dsos;
	size_t ndsos, cap;
};

static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
};

int perfev_symbolizer_new(const struct perfev_symbolizer_opts *opts, struct perfev_symbolizer **out)
{
	struct perfev_symbolizer *s;
	const char *root;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!perfev__opts_ok(opts, opts ? opts->sz : 0, sizeof(*opts)))
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	root = PERFEV__OPT(opts, procfs_root, NULL);
	if (root && !(s->procfs_root = strdup(root))) {
		free(s);
		return -ENOMEM;
	}
	*out = s;
	return 0;
}

static void dso_free(struct dso *d)
{
	if (!d)
		return;
	if (d->dwfl)
		dwfl_end(d->dwfl);
	free(d->segs);
	free(d->path);
	free(d);
}

void perfev_symbolizer_free(struct perfev_symbolizer *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->cap; i++)
		dso_free(s->dsos[i]);
	free(s->dsos);
	perfev_kallsyms_free(s->ksyms);
	free(s->procfs_root);
	free(s);
}

static uint64_t hash_str(const char *p)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	return h;
}

/* The slot of @path: its dso, or the empty slot where it goes. */
static struct dso **slot(struct perfev_symbolizer *s, const char *path)
{
	size_t i = (size_t)hash_str(path) & (s->cap - 1);

	while (s->dsos[i] && strcmp(s->dsos[i]->path, path))
		i = (i + 1) & (s->cap - 1);
	return &s->dsos[i];
}

static int grow_table(struct perfev_symbolizer *s)
{
	struct dso **old = s->dsos;
	size_t oldcap = s->cap, i;

	s->cap = oldcap ? oldcap * 2 : 64;
	s->dsos = calloc(s->cap, sizeof(*s->dsos));
	if (!s->dsos) {
		s->dsos = old;
		s->cap = oldcap;
		return -ENOMEM;
	}
	for (i = 0; i < oldcap; i++)
		if (old[i])
			*slot(s, old[i]->path) = old[i];
	free(old);
	return 0;
}

/* Report the file to its own Dwfl and note its loaded segments. */
static void dso_open(struct dso *d)
{
	size_t nph, i, cap = 0;
	const char *base;
	Elf *elf;

	d->dwfl = dwfl_begin(&callbacks);
	if (!d->dwfl) {
		d->err = -ENOMEM;
		return;
	}
	base = strrchr(d->path, '/');
	base = base ? base + 1 : d->path;
	dwfl_report_begin(d->dwfl);
	d->mod = dwfl_report_elf(d->dwfl, base, d->path, -1, 0, false);
	dwfl_report_end(d->dwfl, NULL, NULL);
	elf = d->mod ? dwfl_module_getelf(d->mod, &d->bias) : NULL;
	if (!elf || elf_getphdrnum(elf, &nph)) {
		d->err = -ENODATA;
		return;
	}
	for (i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (perfev__grow(&d->segs, &cap, d->nsegs + 1, sizeof(*d->segs))) {
			d->err = -ENOMEM;
			return;
		}
		d->segs[d->nsegs].off = ph.p_offset;
		d->segs[d->nsegs].filesz = ph.p_filesz;
		d->segs[d->nsegs].vaddr = ph.p_vaddr;
		d->nsegs++;
	}
}

static struct dso *dso_get(struct perfev_symbolizer *s, const char *path)
{
	struct dso **sl, *d;

	if ((s->ndsos + 1) * 2 > s->cap && grow_table(s))
		return NULL;
	sl = slot(s, path);
	if (*sl)
		return *sl;
	d = calloc(1, sizeof(*d));
	if (!d || !(d->path = strdup(path))) {
		free(d);
		return NULL;
	}
	dso_open(d);
	*sl = d;
	s->ndsos++;
	return d;
}

int perfev_symbolize_user(struct perfev_symbolizer *s, const char *path, uint64_t map_start,
			  uint64_t pgoff, uint64_t ip, struct perfev_sym *out)
{
	uint64_t off, vaddr = 0;
	GElf_Off symoff = 0;
	GElf_Sym sym;
	const char *name;
	struct dso *d;
	size_t i;
	bool found = false;

	if (!s || !path || !out || ip < map_start)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	d = dso_get(s, path);
	if (!d)
		return -ENOMEM;
	if (d->err)
		return d->err;
	off = ip - map_start + pgoff;
	for (i = 0; i < d->nsegs; i++) {
		const struct seg *g = &d->segs[i];

		if (off >= g->off && off - g->off < g->filesz) {
			vaddr = off - g->off + g->vaddr;
			found = true;
			break;
		}
	}
	if (!found)
		return -ERANGE;
	out->addr = vaddr;
	name = dwfl_module_addrinfo(d->mod, vaddr + d->bias, &symoff, &sym, NULL, NULL, NULL);
	if (!name || !*name)
		return -ENOENT;
	out->name = name;
	out->start = vaddr - symoff;
	out->size = sym.st_size;
	return 0;
}

int perfev_symbolize_kernel(struct perfev_symbolizer *s, uint64_t ip, struct perfev_sym *out,
			    const char **module)
{
	struct perfev_ksym k;
	int err;

	if (!s || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->addr = ip;
	if (module)
		*module = NULL;
	if (!s->kloaded) {
		s->kloaded = true;
		s->kerr = perfev_kallsyms_load(s->procfs_root, &s->ksyms);
	}
	if (s->kerr)
		return s->kerr;
	err = perfev_kallsyms_find(s->ksyms, ip, &k);
	if (err)
		return err;
	out->name = k.name;
	out->start = k.start;
	out->size = k.size;
	if (module)
		*module = k.module;
	return 0;
}
