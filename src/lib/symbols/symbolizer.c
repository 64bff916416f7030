// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The symbolizer: a cache of ELF files opened with elfutils' libdwfl (one
 * Dwfl per file, its debug file found by build id or .gnu_debuglink), each
 * with its symbol table (elfsyms.c) built at the first lookup; the
 * kernel's symbols from kallsyms, loaded at the first kernel lookup; JIT
 * maps (jitmap.c); this process's own vDSO image standing for "[vdso]".
 *
 * A file whose build id differs from the one the recording saw is never
 * read for symbols: a copy with the right id is looked for in perf's
 * build-id cache and under /usr/lib/debug, else lookups fail with
 * -ESTALE.  Files are opened at their first lookup, so the build ids of
 * a recording can be told before any.  The same holds for the kernel:
 * kallsyms is read only when the running kernel is the recording's (or
 * from perf's build-id cache, or the file the caller names), and its
 * symbols are moved to where KASLR placed the recording's kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <perfev/symbols.h>
#include "common/internal.h"
#include "symbols/symbolizer-internal.h"
#include "symbols/symtab.h"

/* Longest build id told: SHA-1 ids are 20 bytes, records pad them to 24. */
#define BUILD_ID_MAX 64
/* The path standing for the kernel's vDSO. */
#define VDSO_PATH "[vdso]"
/* The name perf's build-id records give the kernel. */
#define KERNEL_PATH "[kernel.kallsyms]"

struct dso {
	char *path;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	GElf_Addr bias;
	int err; /* why it cannot be read, or 0 */
	bool opened;
	struct perfev_symbolizer *owner;
	/* The build id the recording saw for the file; want_len 0: not told. */
	uint8_t want_id[BUILD_ID_MAX];
	size_t want_len;
	struct perfev__elfsyms *syms; /* built at the first symbol lookup */
	int syms_err;
	struct dso *next_retired;
	/* The PT_LOAD segments: file offset -> ELF address. */
	struct seg {
		uint64_t off, filesz, memsz, vaddr;
	} * segs;
	size_t nsegs;
};

struct perfev_symbolizer {
	char *procfs_root;
	char *cache_dir; /* kallsyms and inflated debug files kept between runs, or NULL */
	int cache_fd;	 /* it, open; -1 when none */
	/* libdwfl's: the cache's inflated debug files searched first */
	Dwfl_Callbacks callbacks;
	char *debuginfo_path;
	struct perfev_kallsyms *ksyms;
	int kerr; /* why kallsyms could not be loaded, or 0 */
	bool kloaded;
	char *sysfs_root;    /* where the running kernel's build id is read */
	char *kallsyms_path; /* the caller's kallsyms, or NULL */
	/* The recording's kernel: its build id (0 long: not told), where it saw a function. */
	uint8_t kernel_id[BUILD_ID_MAX];
	size_t kernel_id_len;
	char *kref_name;
	uint64_t kref_addr;
	uint64_t kdelta; /* kallsyms' addresses minus the recording's, for the kernel itself */
	int kref_err;	 /* -ENODATA: kallsyms has no kref_name */
	bool kref_done;	 /* kdelta and kref_err are those of kref_name and this kallsyms */
	/* Files by path: the key is the dso's path, the value the dso. */
	struct perfev__hashmap dsos;
	void *lines; /* srcline.c's cache of source lines, NULL until the first lookup */
	/*
	 * Files opened before their build id was told: kept until the end,
	 * since their libdwfl modules may be cached (srcline.c).
	 */
	struct dso *retired;
	bool demangle, demangle_params;
	char *jitmap_dir, *buildid_dir;
	char *symfs; /* opts.symfs, or NULL */
	struct perfev__jitmaps *jit;
	/* debuginfod: the client, made at the first file with no local debug file */
	struct perfev__debuginfod *dbgd;
	int dbgd_err; /* why none could be made, or 0 */
	perfev_debuginfod_fn dbgd_fn;
	void *dbgd_ctx;
	unsigned int dbgd_timeout;
};

/*
 * The debug file perf's build-id cache keeps beside a file's copy
 * (.build-id/XX/REST/debug, as perf buildid-cache and perfev archive
 * store it): its descriptor, or -1.
 */
static int cached_debug(const struct perfev_symbolizer *s, Dwfl_Module *mod, char **name)
{
	const unsigned char *id;
	GElf_Addr vaddr;
	char path[4096], hex[2 * 64 + 1];
	int len = dwfl_module_build_id(mod, &id, &vaddr), fd, i;

	if (!s->buildid_dir || len < 2 || len > 64)
		return -1;
	for (i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	if (snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s/debug", s->buildid_dir, hex,
		     hex + 2) >= (int)sizeof(path))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && !(*name = strdup(path))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/*
 * Whether libdwfl looks for the debug file of @mod's own file (its
 * .gnu_debuglink, or none), rather than for the dwz file
 * (.gnu_debugaltlink) its debug file refers to.
 */
static bool is_main_debug(Dwfl_Module *mod, const char *debuglink_file)
{
	GElf_Addr bias;
	GElf_Word crc;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	const char *link = elf ? dwelf_elf_gnu_debuglink(elf, &crc) : NULL;

	return link ? debuglink_file && !strcmp(link, debuglink_file) : !debuglink_file;
}

/* The symbolizer's debuginfod client, made at its first use; NULL when none can be. */
static struct perfev__debuginfod *dbgd_client(struct perfev_symbolizer *s)
{
	if (!s->dbgd && !s->dbgd_err)
		s->dbgd_err =
		    perfev__debuginfod_new(s->dbgd_fn, s->dbgd_ctx, s->dbgd_timeout, &s->dbgd);
	if (s->dbgd_err == -ENOENT || s->dbgd_err == -ENOTSUP) {
		pr_warn("cannot fetch debug files from the debuginfod servers of DEBUGINFOD_URLS: "
			"%s (install libdebuginfod1)",
			s->dbgd_err == -ENOENT ? "libdebuginfod.so.1 is not installed"
					       : "libdebuginfod.so.1 lacks functions perfev uses");
		s->dbgd_err = -EALREADY; /* said once */
	}
	return s->dbgd;
}

/* The debug file of @mod from the debuginfod servers: its descriptor, or -errno. */
static int fetch_debuginfo(struct perfev_symbolizer *s, Dwfl_Module *mod, const char *file_name,
			   char **debuginfo_file_name)
{
	const unsigned char *id;
	GElf_Addr vaddr;
	int len = dwfl_module_build_id(mod, &id, &vaddr), fd;

	if (len <= 0 || !dbgd_client(s))
		return -1;
	fd = perfev__debuginfod_find(s->dbgd, file_name ? file_name : "", false, id, (size_t)len,
				     debuginfo_file_name);
	/* libdwfl: a negative return, errno 0 for "not found". */
	if (fd < 0) {
		errno = 0;
		return -1;
	}
	return fd;
}

/*
 * libdwfl's search for a file's debug file, then its inflated copy in the
 * cache directory when its DWARF is compressed.  The module's user data
 * is its symbolizer.
 */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	struct perfev_symbolizer *s = *userdata;
	const unsigned char *id;
	GElf_Addr vaddr;
	int fd, len;

	/* A copy in the cache that does not hold up goes before the search meets it. */
	if (s && s->cache_fd >= 0 && (len = dwfl_module_build_id(mod, &id, &vaddr)) > 0)
		perfev__debug_check(s->cache_fd, id, (size_t)len);
	fd = perfev__find_debuginfo_local(mod, userdata, modname, base, file_name, debuglink_file,
					  debuglink_crc, debuginfo_file_name);
	if (fd < 0 && s)
		fd = cached_debug(s, mod, debuginfo_file_name);
	if (fd < 0 && s && perfev__debuginfod_wanted()) {
		if (is_main_debug(mod, debuglink_file))
			fd = fetch_debuginfo(s, mod, file_name, debuginfo_file_name);
		else /* a dwz file the debug file refers to: elfutils' own client asks */
			fd = dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
							  debuglink_file, debuglink_crc,
							  debuginfo_file_name);
	}
	if (fd < 0 || !s || s->cache_fd < 0)
		return fd;
	len = dwfl_module_build_id(mod, &id, &vaddr);
	if (len <= 0)
		return fd;
	perfev__debug_keep_inflated(fd, *debuginfo_file_name, s->cache_dir, s->cache_fd, id,
				    (size_t)len);
	return fd;
}

/* Whether @dir holds a build-id cache's .build-id directory. */
static bool is_buildid_cache(const char *dir)
{
	char path[4096];

	return snprintf(path, sizeof(path), "%s/.build-id", dir) < (int)sizeof(path) &&
	       !access(path, F_OK);
}

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
	s->cache_fd = -1;
	perfev__hashmap_init(&s->dsos, perfev__hash_str_key, perfev__equal_str_key, NULL);
	s->demangle = !PERFEV__OPT(opts, no_demangle, false);
	s->demangle_params = PERFEV__OPT(opts, demangle_params, false);
	root = PERFEV__OPT(opts, procfs_root, NULL);
	if (root && !(s->procfs_root = strdup(root)))
		goto nomem;
	root = PERFEV__OPT(opts, jitmap_dir, NULL);
	if (root && !(s->jitmap_dir = strdup(root)))
		goto nomem;
	root = PERFEV__OPT(opts, sysfs_root, NULL);
	if (root && !(s->sysfs_root = strdup(root)))
		goto nomem;
	root = PERFEV__OPT(opts, kallsyms, NULL);
	if (root && !(s->kallsyms_path = strdup(root)))
		goto nomem;
	root = PERFEV__OPT(opts, symfs, NULL);
	if (root && *root && !(s->symfs = strdup(root)))
		goto nomem;
	s->dbgd_fn = PERFEV__OPT(opts, debuginfod_fn, NULL);
	s->dbgd_ctx = PERFEV__OPT(opts, debuginfod_ctx, NULL);
	s->dbgd_timeout = PERFEV__OPT(opts, debuginfod_timeout, 0U);
	s->callbacks.find_elf = dwfl_build_id_find_elf;
	s->callbacks.find_debuginfo = find_debuginfo;
	s->callbacks.section_address = dwfl_offline_section_address;
	root = PERFEV__OPT(opts, cache_dir, NULL);
	/* A cache only where nobody else can write: else none, and why in the log. */
	if (root && !strchr(root, ':')) {
		char why[4200];

		s->cache_fd = perfev__private_dir(root, why, sizeof(why));
		if (s->cache_fd < 0 && why[0])
			pr_warn("not keeping symbols between runs in '%s': %s", root, why);
		if (s->cache_fd < 0)
			s->cache_fd = -1;
	}
	if (s->cache_fd >= 0 && !(s->cache_dir = strdup(root)))
		goto nomem;
	/*
	 * libdwfl's default search (the file's directory, .debug,
	 * /usr/lib/debug), the cache's first.
	 */
	if (s->cache_dir || s->symfs) {
		if (asprintf(&s->debuginfo_path, "%s%s:.debug:%s/usr/lib/debug",
			     s->cache_dir ? s->cache_dir : "", s->cache_dir ? "/debug:" : "",
			     s->symfs ? s->symfs : "") < 0) {
			s->debuginfo_path = NULL;
			goto nomem;
		}
		s->callbacks.debuginfo_path = &s->debuginfo_path;
	}
	root = PERFEV__OPT(opts, buildid_dir, NULL);
	/*
	 * As perf's --symfs: the build-id cache is DIR/.debug, not this
	 * user's; or DIR itself when it is one (an archive extracted there).
	 */
	if (!root && s->symfs) {
		if (asprintf(&s->buildid_dir, "%s%s", s->symfs,
			     is_buildid_cache(s->symfs) ? "" : "/.debug") < 0) {
			s->buildid_dir = NULL;
			goto nomem;
		}
	} else if (!root && getenv("HOME")) {
		if (asprintf(&s->buildid_dir, "%s/.debug", getenv("HOME")) < 0) {
			s->buildid_dir = NULL;
			goto nomem;
		}
	} else if (root && !(s->buildid_dir = strdup(root))) {
		goto nomem;
	}
	*out = s;
	return 0;
nomem:
	perfev_symbolizer_free(s);
	return -ENOMEM;
}

static void dso_free(struct dso *d)
{
	if (!d)
		return;
	perfev__elfsyms_free(d->syms);
	if (d->dwfl)
		dwfl_end(d->dwfl);
	free(d->segs);
	free(d->path);
	free(d);
}

void perfev_symbolizer_free(struct perfev_symbolizer *s)
{
	struct perfev__hashmap_entry *e;

	if (!s)
		return;
	perfev__srcline_cache_free(s->lines);
	perfev__hashmap_for_each(&s->dsos, e)
		dso_free(perfev__key_ptr(e->value));
	perfev__hashmap_release(&s->dsos);
	while (s->retired) {
		struct dso *d = s->retired;

		s->retired = d->next_retired;
		dso_free(d);
	}
	perfev__jitmaps_free(s->jit);
	perfev__debuginfod_free(s->dbgd);
	free(s->jitmap_dir);
	free(s->buildid_dir);
	perfev_kallsyms_free(s->ksyms);
	free(s->sysfs_root);
	free(s->kallsyms_path);
	free(s->kref_name);
	free(s->procfs_root);
	free(s->cache_dir);
	if (s->cache_fd >= 0)
		close(s->cache_fd);
	free(s->debuginfo_path);
	free(s->symfs);
	free(s);
}

void **perfev__symbolizer_lines(struct perfev_symbolizer *s)
{
	return &s->lines;
}

/* Report @file (@fd instead when >= 0, then consumed) to a fresh Dwfl; note its loaded segments. */
static int dso_report(struct dso *d, const char *file, int fd)
{
	size_t nph, i, cap = 0;
	const char *base;
	Elf *elf;

	d->dwfl = dwfl_begin(&d->owner->callbacks);
	if (!d->dwfl) {
		if (fd >= 0)
			close(fd);
		return -ENOMEM;
	}
	base = strrchr(d->path, '/');
	base = base ? base + 1 : d->path;
	dwfl_report_begin(d->dwfl);
	d->mod = dwfl_report_elf(d->dwfl, base, file, fd, 0, false);
	if (!d->mod && fd >= 0)
		close(fd);
	if (d->mod) {
		void **ud;

		if (dwfl_module_info(d->mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL))
			*ud = d->owner;
	}
	dwfl_report_end(d->dwfl, NULL, NULL);
	elf = d->mod ? dwfl_module_getelf(d->mod, &d->bias) : NULL;
	if (!elf || elf_getphdrnum(elf, &nph))
		return -ENODATA;
	for (i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (perfev__grow(&d->segs, &cap, d->nsegs + 1, sizeof(*d->segs)))
			return -ENOMEM;
		d->segs[d->nsegs].off = ph.p_offset;
		d->segs[d->nsegs].filesz = ph.p_filesz;
		d->segs[d->nsegs].memsz = ph.p_memsz;
		d->segs[d->nsegs].vaddr = ph.p_vaddr;
		d->nsegs++;
	}
	return 0;
}

static void dso_close(struct dso *d)
{
	if (d->dwfl)
		dwfl_end(d->dwfl);
	d->dwfl = NULL;
	d->mod = NULL;
	d->bias = 0;
	free(d->segs);
	d->segs = NULL;
	d->nsegs = 0;
}

static bool id_matches(const struct dso *d)
{
	const unsigned char *bits;
	GElf_Addr va;
	int n = d->mod ? dwfl_module_build_id(d->mod, &bits, &va) : -1;

	return n > 0 && (size_t)n == d->want_len && !memcmp(bits, d->want_id, (size_t)n);
}

/* Bigger than any vDSO: a header claiming more is not trusted. */
#define VDSO_MAX (1U << 20)

/*
 * This process's vDSO image, copied into a memory file for libdwfl.  The
 * image is a whole ELF file: its section headers are inside it.
 */
static int vdso_fd(void)
{
	const ElfW(Ehdr) *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	const ElfW(Phdr) * ph;
	const char *p;
	size_t size, done, i;
	int fd;

	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_phoff > VDSO_MAX ||
	    eh->e_shoff > VDSO_MAX)
		return -ENODATA;
	size = (size_t)eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	ph = (const void *)((const char *)eh + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_offset + ph[i].p_filesz > size)
			size = ph[i].p_offset + ph[i].p_filesz;
	if (size > VDSO_MAX)
		return -ENODATA;
	fd = memfd_create("perfev-vdso", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (p = (const char *)eh, done = 0; done < size;) {
		ssize_t n = write(fd, p + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int err = n < 0 ? -errno : -EIO;

			close(fd);
			return err;
		}
		done += (size_t)n;
	}
	return fd;
}

/* Build id @id (@len bytes) in lowercase hex, as perf names it, into @hex (2 * @len + 1 bytes). */
static void hex_id(const uint8_t *id, size_t len, char *hex)
{
	size_t i;

	hex[0] = '\0';
	for (i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
}

/*
 * The @k-th place a copy of the file with the build id the recording saw
 * may be: perf's build-id cache (.build-id/XX/REST a directory holding
 * "elf", or "vdso", or in its older layout the file itself), then the
 * distribution's debug files.  False past the last.
 */
static bool copy_path(const struct perfev_symbolizer *s, const struct dso *d, int k, char *buf,
		      size_t len)
{
	static const char *const cached[] = {"/elf", "/vdso", ""};
	char hex[2 * BUILD_ID_MAX + 1];
	size_t pos = 0;

	hex_id(d->want_id, d->want_len, hex);
	buf[0] = '\0';
	if (k < 3) {
		if (!s->buildid_dir)
			return true; /* an empty path: tried and failed */
		perfev__bprintf(buf, len, &pos, "%s/.build-id/%.2s/%s%s", s->buildid_dir, hex,
				hex + 2, cached[k]);
	} else if (k == 3) {
		perfev__bprintf(buf, len, &pos, "%s/usr/lib/debug/.build-id/%.2s/%s.debug",
				s->symfs ? s->symfs : "", hex, hex + 2);
	} else {
		return false;
	}
	/* A path cut short must not name another file. */
	if (pos + 1 >= len)
		buf[0] = '\0';
	return true;
}

/* The file the recording saw, from the debuginfod servers: whether it was reported to @d. */
static bool fetch_file(struct perfev_symbolizer *s, struct dso *d)
{
	char *path = NULL;
	int fd;

	if (!perfev__debuginfod_wanted() || !dbgd_client(s))
		return false;
	fd = perfev__debuginfod_find(s->dbgd, d->path, true, d->want_id, d->want_len, &path);
	if (fd < 0)
		return false;
	dso_close(d);
	if (!dso_report(d, path, fd) && id_matches(d)) {
		d->err = 0;
		free(path);
		return true;
	}
	free(path);
	return false;
}

static void dso_open(struct perfev_symbolizer *s, struct dso *d)
{
	char alt[4096];
	int k, fd;

	d->opened = true;
	d->owner = s;
	if (!strcmp(d->path, VDSO_PATH)) {
		fd = vdso_fd();
		d->err = fd < 0 ? fd : dso_report(d, VDSO_PATH, fd);
	} else if (s->symfs) {
		/* perf's --symfs: the file under the directory, and nowhere else. */
		if (snprintf(alt, sizeof(alt), "%s%s", s->symfs, d->path) >= (int)sizeof(alt))
			d->err = -ENAMETOOLONG;
		else
			d->err = dso_report(d, alt, -1);
	} else {
		d->err = dso_report(d, d->path, -1);
	}
	if (!d->want_len || d->err == -ENOMEM || (!d->err && id_matches(d)))
		return;
	/* Not the file the recording saw: a copy of that one, or nothing. */
	for (k = 0; copy_path(s, d, k, alt, sizeof(alt)); k++) {
		if (!alt[0] || access(alt, R_OK))
			continue;
		dso_close(d);
		if (!dso_report(d, alt, -1) && id_matches(d)) {
			d->err = 0;
			return;
		}
	}
	if (fetch_file(s, d))
		return;
	dso_close(d);
	/* A file that is there but another build; a missing one stays -ENODATA. */
	if (!d->err)
		d->err = -ESTALE;
}

static struct dso *dso_get(struct perfev_symbolizer *s, const char *path)
{
	struct perfev__hashmap_entry *e;
	struct dso *d;
	bool added;

	e = perfev__hashmap_upsert(&s->dsos, perfev__ptr_key(path), &added);
	if (!e)
		return NULL;
	if (!added)
		return perfev__key_ptr(e->value);
	d = calloc(1, sizeof(*d));
	if (!d || !(d->path = strdup(path))) {
		free(d);
		perfev__hashmap_delete(&s->dsos, perfev__ptr_key(path), NULL, NULL);
		return NULL;
	}
	/* The key becomes the dso's own copy of the path: the caller's goes away. */
	e->key = perfev__ptr_key(d->path);
	e->value = perfev__ptr_key(d);
	return d;
}

/* The file of @path, open, and the ELF address of @ip in it. */
static int dso_vaddr(struct perfev_symbolizer *s, const char *path, uint64_t map_start,
		     uint64_t pgoff, uint64_t ip, struct dso **dsop, uint64_t *vaddr)
{
	struct dso *d;
	uint64_t off;
	size_t i;

	if (!s || !path || ip < map_start)
		return -EINVAL;
	d = dso_get(s, path);
	if (!d)
		return -ENOMEM;
	if (!d->opened)
		dso_open(s, d);
	if (d->err)
		return d->err;
	off = ip - map_start + pgoff;
	/*
	 * The bytes of the file first; then a segment's memory past them
	 * (.bss in the last page the file maps, where a data address of -d
	 * can be: perf finds its objects there too).
	 */
	for (int pass = 0; pass < 2; pass++) {
		for (i = 0; i < d->nsegs; i++) {
			const struct seg *g = &d->segs[i];

			if (off >= g->off && off - g->off < (pass ? g->memsz : g->filesz)) {
				*vaddr = off - g->off + g->vaddr;
				*dsop = d;
				return 0;
			}
		}
	}
	return -ERANGE;
}

int perfev__symbolizer_module(struct perfev_symbolizer *s, const char *path, uint64_t map_start,
			      uint64_t pgoff, uint64_t ip, Dwfl_Module **mod, uint64_t *vaddr,
			      uint64_t *bias)
{
	struct dso *d;
	int err = dso_vaddr(s, path, map_start, pgoff, ip, &d, vaddr);

	if (err)
		return err;
	*mod = d->mod;
	*bias = d->bias;
	return 0;
}

int perfev_symbolize_user(struct perfev_symbolizer *s, const char *path, uint64_t map_start,
			  uint64_t pgoff, uint64_t ip, struct perfev_sym *out)
{
	uint64_t vaddr;
	struct dso *d;
	int err;

	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	err = dso_vaddr(s, path, map_start, pgoff, ip, &d, &vaddr);
	if (err)
		return err;
	out->addr = vaddr;
	if (!d->syms && !d->syms_err)
		d->syms_err = perfev__elfsyms_build(d->mod, d->bias, s->demangle,
						    s->demangle_params, &d->syms);
	if (d->syms_err)
		return d->syms_err;
	return perfev__elfsyms_find(d->syms, vaddr, out);
}

int perfev_symbolize_vdso(struct perfev_symbolizer *s, uint64_t map_start, uint64_t pgoff,
			  uint64_t ip, struct perfev_sym *out)
{
	return perfev_symbolize_user(s, VDSO_PATH, map_start, pgoff, ip, out);
}

int perfev_symbolize_jit(struct perfev_symbolizer *s, pid_t pid, uint64_t ip,
			 struct perfev_sym *out)
{
	int err;

	if (!s || !out || pid < 0)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->addr = ip;
	if (!s->jit) {
		err = perfev__jitmaps_new(s->jitmap_dir, s->procfs_root, &s->jit);
		if (err)
			return err;
	}
	return perfev__jitmaps_find(s->jit, pid, ip, out);
}

bool perfev__symbolizer_jit_retire(struct perfev_symbolizer *s, pid_t pid)
{
	return s && perfev__jitmaps_retire(s->jit, pid);
}

void perfev__symbolizer_jit_release(struct perfev_symbolizer *s)
{
	if (s)
		perfev__jitmaps_release(s->jit);
}

int perfev_symbolizer_set_build_id(struct perfev_symbolizer *s, const char *path, const void *id,
				   size_t len)
{
	const uint8_t *b = id;
	struct dso *d, *old;

	if (!s || !path || !*path || !id || !len || len > BUILD_ID_MAX)
		return -EINVAL;
	/* Records pad the 20 bytes of a SHA-1 id with zeros. */
	while (len > 20 && !b[len - 1])
		len--;
	if (!strcmp(path, KERNEL_PATH)) {
		memcpy(s->kernel_id, b, len);
		s->kernel_id_len = len;
		return 0;
	}
	d = dso_get(s, path);
	if (!d)
		return -ENOMEM;
	if (d->want_len == len && !memcmp(d->want_id, b, len))
		return 0;
	if (d->opened) {
		/* Opened under another expectation: open again, keep the old one alive. */
		char *keep = d->path;

		old = malloc(sizeof(*old));
		if (!old)
			return -ENOMEM;
		*old = *d;
		old->path = NULL;
		old->next_retired = s->retired;
		s->retired = old;
		memset(d, 0, sizeof(*d));
		d->path = keep;
	}
	memcpy(d->want_id, b, len);
	d->want_len = len;
	return 0;
}

/*
 * The kernel's symbols: the caller's kallsyms; else, when the recording's
 * kernel is not the running one, the kallsyms perf's build-id cache keeps
 * of it or none (-ESTALE); else this machine's (through the cache
 * directory when there is one).
 */
static int load_kernel(struct perfev_symbolizer *s)
{
	uint8_t running[BUILD_ID_MAX];
	char hex[2 * BUILD_ID_MAX + 1], path[4096];
	int n;

	if (s->kallsyms_path)
		return perfev__kallsyms_load_file(s->kallsyms_path, &s->ksyms);
	/*
	 * As perf: with a symfs, no kallsyms of this machine's unless named;
	 * the one its build-id cache keeps of the recording's kernel, if any.
	 */
	if (s->symfs && !s->kernel_id_len)
		return -ENOENT;
	if (s->symfs) {
		hex_id(s->kernel_id, s->kernel_id_len, hex);
		if (!s->buildid_dir ||
		    perfev__path(path, sizeof(path), s->buildid_dir, "/" KERNEL_PATH "/%s/kallsyms",
				 hex) ||
		    perfev__kallsyms_load_file(path, &s->ksyms))
			return -ENOENT;
		return 0;
	}
	if (s->kernel_id_len) {
		n = perfev_kernel_build_id(s->sysfs_root, running, sizeof(running));
		if (n <= 0 || (size_t)n != s->kernel_id_len ||
		    memcmp(running, s->kernel_id, s->kernel_id_len)) {
			hex_id(s->kernel_id, s->kernel_id_len, hex);
			if (!s->buildid_dir ||
			    perfev__path(path, sizeof(path), s->buildid_dir,
					 "/" KERNEL_PATH "/%s/kallsyms", hex) ||
			    perfev__kallsyms_load_file(path, &s->ksyms))
				return -ESTALE;
			return 0;
		}
	}
	return s->cache_fd >= 0
		   ? perfev__kallsyms_load_cached(s->procfs_root, s->cache_fd, &s->ksyms)
		   : perfev_kallsyms_load(s->procfs_root, &s->ksyms);
}

int perfev_symbolizer_set_kernel_ref(struct perfev_symbolizer *s, const char *name, uint64_t addr)
{
	char *copy;

	if (!s || !name || !*name)
		return -EINVAL;
	if (!addr)
		return 0;
	copy = strdup(name);
	if (!copy)
		return -ENOMEM;
	free(s->kref_name);
	s->kref_name = copy;
	s->kref_addr = addr;
	s->kref_done = false;
	return 0;
}

int perfev_symbolize_kernel(struct perfev_symbolizer *s, uint64_t ip, struct perfev_sym *out,
			    const char **module)
{
	struct perfev_ksym k;
	uint64_t at;
	int err;

	if (!s || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->addr = ip;
	if (module)
		*module = NULL;
	if (!s->kloaded) {
		s->kloaded = true;
		s->kerr = load_kernel(s);
	}
	if (s->kerr)
		return s->kerr;
	if (!s->kref_done) {
		uint64_t there = 0;

		s->kref_done = true;
		s->kdelta = 0;
		s->kref_err = 0;
		if (s->kref_name && perfev__kallsyms_addr(s->ksyms, s->kref_name, &there))
			s->kref_err = -ENODATA;
		else if (s->kref_name)
			s->kdelta = there - s->kref_addr;
	}
	if (s->kref_err)
		return s->kref_err;
	/* The kernel itself where kallsyms has it; a module's symbol as it is (as perf). */
	at = ip + s->kdelta;
	err = perfev_kallsyms_find(s->ksyms, at, &k);
	if (s->kdelta && (err || k.module)) {
		at = ip;
		err = perfev_kallsyms_find(s->ksyms, at, &k);
		if (!err && !k.module)
			err = -ENOENT;
	}
	if (err)
		return err;
	out->name = k.name;
	out->start = k.start - (at - ip);
	out->size = k.size;
	if (module)
		*module = k.module;
	return 0;
}

/* Whether @elf has a symbol table of its own (.symtab, not only .dynsym). */
static bool has_symtab(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			return true;
	return false;
}

int perfev_symbolizer_origin(struct perfev_symbolizer *s, const char *path)
{
	const char *debug = NULL;
	struct dso *d;
	GElf_Addr bias;
	uint64_t v;
	Elf *elf;

	if (!s || !path)
		return -EINVAL;
	if (!perfev__hashmap_find(&s->dsos, perfev__ptr_key(path), &v))
		return -ENOENT;
	d = perfev__key_ptr(v);
	if (!d->opened)
		return -ENOENT;
	if (d->err || !d->mod)
		return '!';
	elf = dwfl_module_getelf(d->mod, &bias);
	if (elf && has_symtab(elf))
		return 'd';
	/* A stripped file: where libdwfl found the debug file whose table was read. */
	dwfl_module_info(d->mod, NULL, NULL, NULL, NULL, NULL, NULL, &debug);
	if (!debug)
		return 'd';
	if (s->cache_dir && !strncmp(debug, s->cache_dir, strlen(s->cache_dir)))
		return 'D';
	if (strstr(debug, "/.build-id/"))
		return 'b';
	return 'l';
}
