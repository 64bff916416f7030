/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the symbolizer's files share (symbolizer.c, srcline.c). */
#ifndef PERFEV_SYMBOLIZER_INTERNAL_H
#define PERFEV_SYMBOLIZER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdwfl.h>
#include <perfev/symbols.h>

/*
 * The libdwfl module of the file @path (opened once per symbolizer) and
 * the ELF address @ip has in it, for a mapping of the file at @map_start
 * with file offset @pgoff; @bias is the module's load bias (add it to an
 * ELF address before asking libdwfl).  Errors: as perfev_symbolize_user().
 */
int perfev__symbolizer_module(struct perfev_symbolizer *s, const char *path, uint64_t map_start,
			      uint64_t pgoff, uint64_t ip, Dwfl_Module **mod, uint64_t *vaddr,
			      uint64_t *bias);

/*
 * Process @pid has exited: its JIT map is set aside (the names it gave
 * stay valid) until perfev__symbolizer_jit_release(), and read again for
 * a new process with its pid.  Returns whether @pid had one.
 */
bool perfev__symbolizer_jit_retire(struct perfev_symbolizer *s, pid_t pid);
/* Free the JIT maps set aside: no name they gave is in use any more. */
void perfev__symbolizer_jit_release(struct perfev_symbolizer *s);

/*
 * The slot where srcline.c keeps its cache of source lines in @s (NULL
 * until the first lookup); perfev_symbolizer_free() frees it with
 * perfev__srcline_cache_free(), which accepts NULL.
 */
void **perfev__symbolizer_lines(struct perfev_symbolizer *s);
void perfev__srcline_cache_free(void *cache);

/*
 * perfev_kallsyms_load(), through a copy of the text kept in @cache_dir
 * while the boot and the loaded modules stay the same (kallsyms.c).
 */
int perfev__kallsyms_load_cached(const char *procfs_root, int cache_fd,
				 struct perfev_kallsyms **out);
/* perfev_kallsyms_load() of the kallsyms text in file @path. */
int perfev__kallsyms_load_file(const char *path, struct perfev_kallsyms **out);
/*
 * The address of @name, a function of the kernel itself (not a module's;
 * also one another symbol at its address hides).  0, or -ENOENT.
 */
int perfev__kallsyms_addr(const struct perfev_kallsyms *k, const char *name, uint64_t *addr);

/*
 * When the debug file @name open on @fd (build id @build_id) has
 * compressed sections and is not in @cache_dir (open on @cache_fd),
 * write its inflated copy to CACHE_DIR/debug/.build-id/XX/REST.debug
 * (made beside and renamed, synced, never through a symlink), where
 * libdwfl finds it before the original from then on (debugcache.c).
 * Failures are left unsaid: the original serves.
 */
void perfev__debug_keep_inflated(int fd, const char *name, const char *cache_dir, int cache_fd,
				 const void *build_id, size_t id_len);
/* Whether @name is a file under @cache_dir. */
bool perfev__debug_in_cache(const char *name, const char *cache_dir);
/*
 * Remove the cache's copy of the debug file of @build_id when it does not
 * hold up (not that build id, no sections, still compressed, a link): a
 * copy cut short must not hide the system's file from libdwfl's search.
 */
void perfev__debug_check(int cache_fd, const void *build_id, size_t id_len);

/*
 * libdwfl's find_debuginfo callback for the files of a profile: its
 * standard search, except that debuginfod is asked only when
 * DEBUGINFOD_URLS names a server.  libdw loads libdebuginfod (and curl,
 * TLS, Kerberos: some thirty libraries) on a module's first miss, which
 * cost a report of a DWARF recording a fifth of its time for nothing to
 * ask.  Without servers: the build-id directories of the callbacks'
 * debuginfo_path, then the .gnu_debuglink places (debugcache.c).
 */
int perfev__find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			   const char *file_name, const char *debuglink_file,
			   GElf_Word debuglink_crc, char **debuginfo_file_name);

/* perfev__find_debuginfo() without ever asking debuginfod servers. */
int perfev__find_debuginfo_local(Dwfl_Module *mod, void **userdata, const char *modname,
				 Dwarf_Addr base, const char *file_name, const char *debuglink_file,
				 GElf_Word debuglink_crc, char **debuginfo_file_name);

/*
 * A client of the debuginfod servers of DEBUGINFOD_URLS (debuginfod.c):
 * see perfev_symbolizer_opts.debuginfod_fn.  _new fails with -ENOENT
 * when DEBUGINFOD_URLS names none or libdebuginfod is not installed
 * (-ENOTSUP: not the one the headers describe).
 */
struct perfev__debuginfod;
bool perfev__debuginfod_wanted(void);
int perfev__debuginfod_new(perfev_debuginfod_fn fn, void *ctx, unsigned int timeout,
			   struct perfev__debuginfod **out);
void perfev__debuginfod_free(struct perfev__debuginfod *d);
/*
 * The debug file (@executable: the file itself) of build id @id (@len
 * bytes) of @file from the servers: its descriptor, and in *@path its
 * name in the client's cache (to free); or -ENOENT (none has it), or
 * why the servers could not be reached (-ETIMEDOUT: nothing came in
 * time), which every later call returns at once.
 */
int perfev__debuginfod_find(struct perfev__debuginfod *d, const char *file, bool executable,
			    const unsigned char *id, size_t len, char **path);

#endif /* PERFEV_SYMBOLIZER_INTERNAL_H */
