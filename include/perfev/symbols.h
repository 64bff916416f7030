/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Symbols: the function a sampled address is in.
 *
 * Kernel addresses are looked up in /proc/kallsyms, parsed by a pure
 * function (perfev_kallsyms_parse()) and loaded once, at the first kernel
 * lookup.  As perf, text, weak, data and bss symbols are kept, each ends
 * where the next begins, and of several symbols at one address the global
 * one wins (then the one with fewer leading underscores, then the longer
 * name).  Module symbols carry their module's name.
 *
 * User-space addresses are looked up in the mapped file with elfutils
 * (libdwfl): its .symtab, or .dynsym when stripped, or those of its
 * separate debug file found by build id or .gnu_debuglink (under
 * /usr/lib/debug).  A sampled address becomes a file offset (ip - map
 * start + map pgoff), then an address of the ELF file through the
 * PT_LOAD segment holding that offset, so position-independent
 * executables and shared libraries resolve wherever they were loaded.
 * Each file is opened once per symbolizer.
 */
#ifndef PERFEV_SYMBOLS_H
#define PERFEV_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>
#include <perfev/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- kernel symbols --------------------------------------------------------- */

struct perfev_kallsyms;

struct perfev_ksym {
	const char *name;
	const char *module; /* NULL for the kernel itself */
	uint64_t start;
	uint64_t size; /* up to the next symbol; 0 for the last one */
};

/*
 * Parse the text of /proc/kallsyms ("ADDRESS TYPE NAME [MODULE]" lines).
 * Pure: @text may come from any machine.  Lines that do not parse are
 * skipped.  All-zero addresses (kallsyms read without permission) give
 * a table with no symbols.  Errors: -EINVAL, -ENOMEM.
 */
PERFEV_API int perfev_kallsyms_parse(const char *text, size_t len, struct perfev_kallsyms **out);
/* Read and parse PROCFS_ROOT/kallsyms (NULL: /proc).  Errors: those of open(2), -ENOMEM. */
PERFEV_API int perfev_kallsyms_load(const char *procfs_root, struct perfev_kallsyms **out);
PERFEV_API void perfev_kallsyms_free(struct perfev_kallsyms *k);
/* How many symbols were kept. */
PERFEV_API size_t perfev_kallsyms_count(const struct perfev_kallsyms *k);
/*
 * The symbol @addr is in: the last one starting at or before it, if
 * @addr is before the next one's start.  -ENOENT when none, -EINVAL.
 */
PERFEV_API int perfev_kallsyms_find(const struct perfev_kallsyms *k, uint64_t addr,
				    struct perfev_ksym *out);

/* ---- the symbolizer --------------------------------------------------------- */

struct perfev_symbolizer;

struct perfev_symbolizer_opts {
	size_t sz;		 /* sizeof(struct perfev_symbolizer_opts) */
	const char *procfs_root; /* where kallsyms is read; NULL: /proc */
};

struct perfev_sym {
	const char *name; /* valid until the symbolizer is freed */
	uint64_t start;	  /* the symbol's address, in the file's (or kernel's) addresses */
	uint64_t size;
	uint64_t addr; /* the address looked up, in the same addresses */
};

PERFEV_API int perfev_symbolizer_new(const struct perfev_symbolizer_opts *opts,
				     struct perfev_symbolizer **out);
PERFEV_API void perfev_symbolizer_free(struct perfev_symbolizer *s);

/*
 * The symbol of @ip, an address in a mapping of file @path that starts at
 * @map_start with file offset @pgoff.  out->addr is set whenever the file
 * could be read, even with no symbol (-ENOENT).  Errors: -EINVAL, -ENOENT
 * (no symbol there), -ENODATA (the file cannot be opened or is not ELF),
 * -ERANGE (no loaded segment holds that offset), -ENOMEM.
 */
PERFEV_API int perfev_symbolize_user(struct perfev_symbolizer *s, const char *path,
				     uint64_t map_start, uint64_t pgoff, uint64_t ip,
				     struct perfev_sym *out);
/*
 * The kernel symbol of @ip (kallsyms loaded at the first call); *module is
 * the module's name or NULL.  Errors: -EINVAL, -ENOENT, and the errors of
 * perfev_kallsyms_load().
 */
PERFEV_API int perfev_symbolize_kernel(struct perfev_symbolizer *s, uint64_t ip,
				       struct perfev_sym *out, const char **module);

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_SYMBOLS_H */
