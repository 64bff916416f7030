// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev script: the symbol of an address, for the text and JSON output.
 * Every lookup goes through script_symbolize(), so each kind of map is
 * resolved in one place.  The symbolizer is created at the first lookup,
 * and kallsyms is read by the library at the first kernel lookup: a file
 * whose samples print no symbol costs neither.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <perfev/perfev.h>
#include <perfev/symbols.h>
#include "perfev-cli.h"
#include "script.h"

/* Each file's build id in the BUILD_ID feature (perf's build-id records), told to @symz. */
static void feature_build_ids(struct script *s, struct perfev_symbolizer *symz)
{
	const unsigned char *p;
	const void *data;
	size_t len, off;

	if (perfev_data_feature(s->r, PERFEV_FEAT_BUILD_ID, &data, &len))
		return;
	p = data;
	/*
	 * Each: a header (type, misc, size), a pid, 20 id bytes, their count
	 * (when misc has bit 15; else 20), padding, the file's name.
	 */
	for (off = 0; len - off >= 8 + 4 + 24 + 1;) {
		uint16_t misc, size;
		size_t idlen, n, i;
		const char *name;

		memcpy(&misc, p + off + 4, sizeof(misc));
		memcpy(&size, p + off + 6, sizeof(size));
		if (size < 8 + 4 + 24 + 1 || size > len - off)
			return;
		idlen = (misc & (1U << 15)) && p[off + 12 + 20] ? p[off + 12 + 20] : 20;
		if (idlen > 20)
			idlen = 20;
		name = (const char *)p + off + 36;
		n = strnlen(name, size - 36U);
		if (n < size - 36U && !strcmp(name, "[kernel.kallsyms]")) {
			/* The kernel: its kallsyms is read only when it is the one running. */
			for (i = 0; i < idlen; i++)
				snprintf(s->kernel_id + 2 * i, 3, "%02x", p[off + 12 + i]);
			(void)perfev_symbolizer_set_build_id(symz, name, p + off + 12, idlen);
		} else if (n < size - 36U && name[0] == '/') {
			(void)perfev_symbolizer_set_build_id(symz, name, p + off + 12, idlen);
		}
		off += size;
	}
}

struct perfev_symbolizer *script_symbolizer(struct script *s)
{
	struct perfev_symbolizer_opts opts = {.sz = sizeof(opts)};
	const char *cache;
	char dir[4096];
	int n;
	size_t i;
	int err;

	if (s->symz || s->symz_err)
		return s->symz;
	/*
	 * kallsyms and inflated debug files kept between runs: the kernel
	 * takes tens of milliseconds to write kallsyms, libdw as long to
	 * inflate libc's DWARF.
	 */
	cache = getenv("XDG_CACHE_HOME");
	n = -1;
	if (cache && cache[0] == '/')
		n = snprintf(dir, sizeof(dir), "%s/perfev", cache);
	else if ((cache = getenv("HOME")) && cache[0] == '/')
		n = snprintf(dir, sizeof(dir), "%s/.cache/perfev", cache);
	/* A path cut short would name another directory: then no cache. */
	if (n < 0 || (size_t)n >= sizeof(dir))
		dir[0] = '\0';
	opts.cache_dir = dir[0] ? dir : NULL;
	opts.no_demangle = s->no_demangle;
	opts.kallsyms = s->kallsyms;
	err = perfev_symbolizer_new(&opts, &s->symz);
	if (err) {
		/* Said once: every symbol is then [unknown], the rest of the output holds. */
		s->symz_err = err;
		cli_error("warning: cannot set up symbol lookups: %s; symbols are shown as "
			  "[unknown]",
			  perfev_strerror(err));
		return NULL;
	}
	if (s->r)
		feature_build_ids(s, s->symz);
	for (i = 0; i < s->nbids; i++)
		(void)perfev_symbolizer_set_build_id(s->symz, s->bids[i].path, s->bids[i].id,
						     s->bids[i].len);
	return s->symz;
}

void script_note_build_id(struct script *s, const char *path, const uint8_t *id, size_t len)
{
	struct script_build_id *v;

	if (!len || len > sizeof(v->id) || path[0] != '/')
		return;
	if (s->symz) {
		(void)perfev_symbolizer_set_build_id(s->symz, path, id, len);
		return;
	}
	if (s->symz_err)
		return;
	v = realloc(s->bids, (s->nbids + 1) * sizeof(*v));
	if (!v)
		cli_die("out of memory");
	s->bids = v;
	v += s->nbids;
	v->path = strdup(path);
	if (!v->path)
		cli_die("out of memory");
	memcpy(v->id, id, len);
	v->len = (uint8_t)len;
	s->nbids++;
}

/* Why kernel addresses stay unresolved, said once (perf says it too). */
static void warn_kernel(struct script *s, int err)
{
	if (s->kernel_warned)
		return;
	s->kernel_warned = true;
	if (err == -ESTALE)
		cli_error(
		    "warning: kernel symbols are not shown: the recording's kernel (build id "
		    "%s) is not the one running, and perf's build-id cache has no kallsyms of "
		    "it (give the recording machine's /proc/kallsyms with --kallsyms FILE)",
		    s->kernel_id);
	else
		cli_error("warning: kernel symbols are not shown: the kallsyms read (%s) has no "
			  "'%s', by which the recording placed the kernel (its addresses hidden by "
			  "kptr_restrict, or another kernel's symbols?)",
			  s->kallsyms ? s->kallsyms : "this machine's, or perf's build-id cache's",
			  s->m.kernel_ref);
}

int script_check_kallsyms(const char *path)
{
	struct stat st;
	int fd;

	if (!path)
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		cli_error("cannot read the kallsyms file '%s': %s (save /proc/kallsyms of the "
			  "recording's machine and boot to a file)",
			  path, fd < 0 ? perfev_strerror(-errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return 1;
	}
	close(fd);
	return 0;
}

int script_symbolize(struct script *s, uint32_t pid, const struct script_map *map,
		     unsigned int cpumode, uint64_t addr, struct script_sym *out)
{
	struct perfev_symbolizer *symz;
	struct perfev_sym sym;
	const char *module;
	bool kernel;
	int err;

	out->name = NULL;
	out->off = 0;
	if (!map)
		return -ENOENT;
	kernel = cpumode == PERF_RECORD_MISC_KERNEL ||
		 (cpumode == PERF_RECORD_MISC_CPUMODE_UNKNOWN && addr >= s->m.kernel_start);
	if (kernel && map->identity && map->dso[0] != '[') {
		/* A BPF program or trampoline (KSYMBOL): perf names its symbol after the map. */
		out->name = map->dso;
		out->off = addr - map->start;
		return 0;
	}
	/* [stack], [heap] and the like: no symbols. */
	if (!kernel && !map->identity && map->dso[0] != '/' && strcmp(map->dso, "[vdso]"))
		return -ENOENT;
	symz = script_symbolizer(s);
	if (!symz)
		return s->symz_err;
	if (kernel && s->m.kernel_ref && s->kref_told != s->m.kernel_ref_addr &&
	    !perfev_symbolizer_set_kernel_ref(symz, s->m.kernel_ref, s->m.kernel_ref_addr))
		s->kref_told = s->m.kernel_ref_addr;
	if (kernel)
		err = perfev_symbolize_kernel(symz, addr, &sym, &module);
	else if (map->identity) /* anonymous memory: code a JIT may have named */
		err = perfev_symbolize_jit(symz, (pid_t)pid, addr, &sym);
	else if (!strcmp(map->dso, "[vdso]"))
		err = perfev_symbolize_vdso(symz, map->start, map->pgoff, addr, &sym);
	else
		err = perfev_symbolize_user(symz, map->dso, map->start, map->pgoff, addr, &sym);
	if (kernel && (err == -ESTALE || err == -ENODATA))
		warn_kernel(s, err);
	if (err)
		return err;
	if (!sym.name)
		return -ENOENT;
	out->name = sym.name;
	out->off = sym.addr - sym.start;
	return 0;
}

void script_sym_release(struct script *s)
{
	size_t i;

	for (i = 0; i < s->nbids; i++)
		free(s->bids[i].path);
	free(s->bids);
	s->bids = NULL;
	s->nbids = 0;
	perfev_symbolizer_free(s->symz);
	s->symz = NULL;
	s->symz_err = 0;
}
