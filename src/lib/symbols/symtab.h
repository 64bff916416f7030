/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Symbol tables the symbolizer builds: one per ELF file (elfsyms.c), the
 * ranking of symbols that share an address (shared with kallsyms.c),
 * demangling (demangle.c) and JIT maps (jitmap.c).  Hidden, never ABI.
 */
#ifndef PERFEV_SYMTAB_H
#define PERFEV_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <elfutils/libdwfl.h>
#include <perfev/symbols.h>

/* What decides which of several symbols at one address names it. */
struct perfev__symrank {
	const char *name;
	uint64_t size; /* the symbol's own size, 0 when it has none */
	bool weak, global;
};

/*
 * True when @b should stand for the address rather than @a: a non-zero
 * size, then not weak, then global, then fewer leading underscores, then
 * the longer name.  Ties keep @a.
 */
bool perfev__sym_better(const struct perfev__symrank *a, const struct perfev__symrank *b);

/* ---- elfsyms.c: the symbols of one libdwfl module ---- */

struct perfev__elfsyms;

/*
 * Read every function and object symbol of @mod (its .symtab, or .dynsym
 * when stripped, or the debug file's) into a table sorted by ELF address
 * (the module's addresses less @bias), with a NAME@plt symbol for each
 * PLT entry.  @demangle: names are shown demangled, with parameters when
 * @params.  Errors: -ENOMEM.
 */
int perfev__elfsyms_build(Dwfl_Module *mod, uint64_t bias, bool demangle, bool params,
			  struct perfev__elfsyms **out);
void perfev__elfsyms_free(struct perfev__elfsyms *t);
size_t perfev__elfsyms_count(const struct perfev__elfsyms *t);
/* The symbol holding ELF address @vaddr; sets all of *out but addr.  -ENOENT when none. */
int perfev__elfsyms_find(struct perfev__elfsyms *t, uint64_t vaddr, struct perfev_sym *out);

/* ---- demangle.c ---- */

/*
 * @name demangled (C++ or Rust), with the parameters of functions when
 * @params; malloc'd; NULL when it is not a mangled name or on ENOMEM.
 */
char *perfev__demangle(const char *name, bool params);

/* ---- jitmap.c: /tmp/perf-PID.map ---- */

struct perfev__jitmap;

/*
 * Parse the text of a JIT map ("START SIZE NAME" lines, START and SIZE in
 * hex, NAME to the end of the line).  Pure.  Lines that do not parse are
 * skipped.  Errors: -EINVAL, -EBADMSG (the bytes hold a NUL: not a text
 * file), -ENOMEM.
 */
int perfev__jitmap_parse(const char *text, size_t len, struct perfev__jitmap **out);
void perfev__jitmap_free(struct perfev__jitmap *m);
size_t perfev__jitmap_count(const struct perfev__jitmap *m);
/* The entry holding @ip; sets all of *out.  -ENOENT when none. */
int perfev__jitmap_find(const struct perfev__jitmap *m, uint64_t ip, struct perfev_sym *out);

/* The JIT maps of several processes, each read once from DIR/perf-PID.map. */
struct perfev__jitmaps;

/* @dir: NULL is /tmp; @procfs_root: where the processes are (NULL: /proc). */
int perfev__jitmaps_new(const char *dir, const char *procfs_root, struct perfev__jitmaps **out);
void perfev__jitmaps_free(struct perfev__jitmaps *c);
/*
 * Errors: -ENODATA (no map for @pid), -EPERM (a map not read: a link,
 * not a regular file, another user's or too large; said through the
 * log), -ENOENT (no entry holds @ip), -ENOMEM.
 */
int perfev__jitmaps_find(struct perfev__jitmaps *c, pid_t pid, uint64_t ip, struct perfev_sym *out);
/*
 * Process @pid has exited: its map is set aside, the names it gave still
 * valid, until perfev__jitmaps_release(); a process that gets the pid
 * again has its own map read.  Returns whether @pid had one (read or
 * tried).
 */
bool perfev__jitmaps_retire(struct perfev__jitmaps *c, pid_t pid);
/* Free the maps set aside: the names they gave are no longer used. */
void perfev__jitmaps_release(struct perfev__jitmaps *c);

#endif /* PERFEV_SYMTAB_H */
