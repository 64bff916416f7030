/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Symbols: the function a sampled address is in.
 *
 * Kernel addresses are looked up in /proc/kallsyms, parsed by a pure
 * function (perfev_kallsyms_parse()) and loaded once, at the first kernel
 * lookup.  As perf, text, weak, data and bss symbols are kept, each ends
 * where the next line's begins, and of several symbols at one address the
 * last line wins (the others would be empty).  Module symbols carry their
 * module's name.
 *
 * User-space addresses are looked up in the mapped file's symbol table,
 * read once with elfutils (libdwfl) at the file's first lookup: its
 * .symtab, or .dynsym when stripped, or those of its separate debug file
 * found by build id or .gnu_debuglink (under /usr/lib/debug).  The table
 * is perf's: function, object and text-label symbols; of several at one
 * address the one with a size wins, then the non-weak, then the global,
 * then the one with fewer leading underscores, then the longer name;
 * symbols without a size end where the next one starts.  C++ and Rust
 * names are demangled as perf shows them, without parameters
 * (perfev_symbolizer_opts.no_demangle and .demangle_params change it).
 * Entries of the PLT are named NAME@plt.
 * A sampled address becomes a file offset (ip - map start + map pgoff),
 * then an address of the ELF file through the PT_LOAD segment holding
 * that offset, so position-independent executables and shared libraries
 * resolve wherever they were loaded.
 *
 * Addresses in anonymous memory may be JIT-compiled code, named by the
 * JIT in DIR/perf-PID.map (DIR defaults to /tmp).  The mapping "[vdso]"
 * is read from this process's own vDSO, the same as the recording's when
 * the recording was made on this machine and kernel.
 *
 * A symbolizer is not thread-safe: use one per thread or lock around it.
 */
#ifndef PERFEV_SYMBOLS_H
#define PERFEV_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
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

/*
 * The running kernel's build id, the GNU build-id note of
 * SYSFS_ROOT/kernel/notes (NULL root: /sys), into @id (@len bytes at
 * most).  Returns its length (20 for a SHA-1 id).  Errors: those of
 * open(2) (-ENOENT also when the notes hold no build id), -ERANGE (@len
 * is too small), -EINVAL.
 */
PERFEV_API int perfev_kernel_build_id(const char *sysfs_root, void *id, size_t len);

/* ---- the symbolizer --------------------------------------------------------- */

struct perfev_symbolizer;

/* A step of a fetch from debuginfod servers (perfev_symbolizer_opts.debuginfod_fn). */
enum perfev_debuginfod_step {
	PERFEV_DEBUGINFOD_PROGRESS, /* bytes are coming: done of total (total <= 0: unknown) */
	PERFEV_DEBUGINFOD_FETCHED,  /* the file came; path: its copy in the client's cache */
	PERFEV_DEBUGINFOD_CACHED,   /* found in the client's cache, nothing downloaded; path */
	PERFEV_DEBUGINFOD_FAILED,   /* the servers could not be reached (err); none asked again */
};

struct perfev_debuginfod_event {
	enum perfev_debuginfod_step step;
	const char *file;     /* the file whose debug info (or itself) is looked for */
	bool executable;      /* the file itself, missing here, rather than its debug info */
	const char *build_id; /* its build id, lowercase hex */
	const char *urls;     /* DEBUGINFOD_URLS */
	const char *url;      /* the server answering, when known; else NULL */
	const char *path;     /* FETCHED, CACHED: the debug file */
	long done, total;     /* PROGRESS, FETCHED: bytes */
	int err;	      /* FAILED: -errno (-ETIMEDOUT: nothing came in the time allowed) */
};

/*
 * Called from the thread that looks symbols up, during the lookup that
 * needs the file; valid for the call only.
 */
typedef void (*perfev_debuginfod_fn)(const struct perfev_debuginfod_event *ev, void *ctx);

struct perfev_symbolizer_opts {
	size_t sz;		 /* sizeof(struct perfev_symbolizer_opts) */
	const char *procfs_root; /* where kallsyms is read; NULL: /proc */
	const char *jitmap_dir;	 /* where perf-PID.map files are read; NULL: /tmp */
	const char *buildid_dir; /* perf's build-id cache; NULL: $HOME/.debug */
	bool no_demangle;	 /* show C++ and Rust names as the files hold them */
	bool demangle_params;	 /* demangled C++ names with their parameters (perf report -v) */
	/*
	 * A directory where copies are kept between runs (created 0700
	 * with its parents; NULL: none).  The text of kallsyms: the kernel
	 * takes tens of milliseconds to write /proc/kallsyms; the copy is
	 * used while the boot and the loaded modules are the same (boot_id
	 * and PROCFS_ROOT/modules unchanged), else read again and replaced;
	 * hidden (all-zero) addresses are never kept.  Debug files whose
	 * DWARF is compressed, inflated once into debug/BUILD-ID.debug:
	 * libdw inflates every section of a debug file it opens.  Used only
	 * when the directory is this user's alone, not a symbolic link, and
	 * no one else may write to any directory above it (a link on the
	 * way followed only when root or this user made it); each is
	 * checked from the root down before anything is made in it, and a
	 * refusal is said through the log (PERFEV_LOG_WARN).  A path with
	 * ':' is not used.
	 */
	const char *cache_dir;
	/* Where the running kernel's build id is read (kernel/notes); NULL: /sys. */
	const char *sysfs_root;
	/*
	 * A kallsyms file to read the kernel's symbols from instead of
	 * PROCFS_ROOT/kallsyms: one saved on the machine and boot of the
	 * recording (perf report --kallsyms).  It is taken to be the
	 * recording's kernel, whatever its build id; NULL: none.
	 */
	const char *kallsyms;
	/*
	 * A directory that holds the recording's files (perf report
	 * --symfs): each mapped file and the distribution's debug files
	 * (/usr/lib/debug) are looked up under it alone, as DIR/PATH, the
	 * build-id cache is DIR/.debug unless buildid_dir names one, and
	 * the kernel has no symbols unless kallsyms names a file (perf's
	 * rules); the vDSO is still this process's.  NULL: the files where
	 * the recording saw them.
	 */
	const char *symfs;
	/*
	 * Debug files from debuginfod servers: when DEBUGINFOD_URLS names
	 * any and no local debug file is found for a file with a build id
	 * (perf's build-id cache, /usr/lib/debug, .gnu_debuglink), or no
	 * copy of the file itself when it is missing (or another build)
	 * here, the servers are asked by build id through libdebuginfod, loaded at
	 * the first such miss (never without servers), its cache
	 * DEBUGINFOD_CACHE_PATH, else ~/.cache/debuginfod_client.  The
	 * fetch gives up when no byte has come for debuginfod_timeout
	 * seconds (0: DEBUGINFOD_TIMEOUT, else 10); after a failure to
	 * reach the servers (down, no answer) none is asked again.
	 * debuginfod_fn (NULL: none) is told of each step.
	 */
	perfev_debuginfod_fn debuginfod_fn;
	void *debuginfod_ctx;
	unsigned int debuginfod_timeout;
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
 * could be read, even with no symbol (-ENOENT).  The path "[vdso]" is the
 * vDSO, as perfev_symbolize_vdso().  Errors: -EINVAL, -ENOENT (no symbol
 * there), -ENODATA (the file cannot be opened or is not ELF), -ERANGE (no
 * loaded segment holds that offset), -ESTALE (the file is not the build
 * the recording saw, see perfev_symbolizer_set_build_id()), -ENOMEM.
 */
PERFEV_API int perfev_symbolize_user(struct perfev_symbolizer *s, const char *path,
				     uint64_t map_start, uint64_t pgoff, uint64_t ip,
				     struct perfev_sym *out);
/*
 * The symbol of @ip in the vDSO mapped at @map_start (file offset
 * @pgoff, 0 for the vDSO), read from this process's own vDSO image
 * (getauxval(AT_SYSINFO_EHDR)).  Errors: those of perfev_symbolize_user();
 * -ENODATA when this process has no vDSO.
 */
PERFEV_API int perfev_symbolize_vdso(struct perfev_symbolizer *s, uint64_t map_start,
				     uint64_t pgoff, uint64_t ip, struct perfev_sym *out);
/*
 * The JIT-compiled function of @ip in process @pid, from the map the JIT
 * wrote to DIR/perf-PID.map (read once per process, at its first lookup;
 * lines that do not parse are skipped).  out->start and out->size are
 * those of the map's line; of several lines at one address the last one
 * counts.  Anyone may write to /tmp: the map is read only when it is a
 * regular file (opened without following a link or blocking), owned by
 * root, the caller's user or the owner of the process while it runs,
 * and at most 256 MiB.  Errors: -EINVAL, -ENODATA (no map for @pid, or
 * not a text file), -EPERM (a map not read for one of those reasons,
 * said once through the log at PERFEV_LOG_WARN), -ENOENT (no line holds
 * @ip), -ENOMEM.
 */
PERFEV_API int perfev_symbolize_jit(struct perfev_symbolizer *s, pid_t pid, uint64_t ip,
				    struct perfev_sym *out);
/*
 * Tell the build id (@len bytes; zero padding past 20 bytes ignored) the
 * recording saw for file @path, from its MMAP2 records or its build-id
 * feature.  When the file at @path has another build id, lookups use a
 * copy with this one from perf's build-id cache
 * (BUILDID_DIR/.build-id/XX/REST/elf, .../vdso or .../REST itself) or the
 * debug files (/usr/lib/debug/.build-id/XX/REST.debug), and fail with
 * -ESTALE when there is none, so a rebuilt binary is never read for
 * another's symbols.  May be told before or after the file's first lookup.
 *
 * The path "[kernel.kallsyms]" names the kernel (perf's build-id record
 * of it).  When the running kernel has another build id (or none can be
 * read), PROCFS_ROOT/kallsyms is not read: the kallsyms perf's build-id
 * cache keeps of that kernel (BUILDID_DIR/[kernel.kallsyms]/HEX/kallsyms)
 * is, or kernel lookups fail with -ESTALE, so another kernel's or boot's
 * symbols never name a sample; perfev_symbolizer_opts.kallsyms overrides
 * the check.  The kernel's id counts when told before its first lookup.
 * Errors: -EINVAL (@len 0 or over 64), -ENOMEM.
 */
PERFEV_API int perfev_symbolizer_set_build_id(struct perfev_symbolizer *s, const char *path,
					      const void *id, size_t len);
/*
 * Where the recording saw the kernel: the address @addr of its function
 * @name, from perf's kernel MMAP record ("[kernel.kallsyms]_text" at
 * pgoff: _text's address).  A kernel that KASLR placed elsewhere at
 * another boot has its symbols there moved by the difference from the
 * address kallsyms gives @name, as perf relocates them; modules' symbols
 * are taken as they are.  A kallsyms without @name (hidden addresses, or
 * another kernel's) resolves no kernel address: lookups fail with
 * -ENODATA, as perf resolves none.  @addr 0 (an address kptr_restrict hid
 * from the recording) tells nothing.  Errors: -EINVAL, -ENOMEM.
 */
PERFEV_API int perfev_symbolizer_set_kernel_ref(struct perfev_symbolizer *s, const char *name,
						uint64_t addr);
/*
 * The kernel symbol of @ip (kallsyms loaded at the first call: see
 * perfev_symbolizer_set_build_id() for which); *module is the module's
 * name or NULL; out->start is in the recording's addresses.  Errors:
 * -EINVAL, -ENOENT, -ESTALE (the running kernel is not the recording's
 * and no kallsyms of it was found), -ENODATA (see
 * perfev_symbolizer_set_kernel_ref()), and the errors of
 * perfev_kallsyms_load().
 */
PERFEV_API int perfev_symbolize_kernel(struct perfev_symbolizer *s, uint64_t ip,
				       struct perfev_sym *out, const char **module);

/* perfev_demangle() flags: show a function's parameters (and its template's return type). */
#define PERFEV_DEMANGLE_PARAMS (1U << 0)

/*
 * Demangle a C++ (Itanium ABI) or Rust (legacy or v0) symbol name into
 * @buf (@len bytes, NUL-terminated, cut short when too small) as perf
 * shows it: without parameters unless PERFEV_DEMANGLE_PARAMS is in
 * @flags, without Rust's hash.  Returns the length of the whole demangled
 * name, as snprintf().  Errors: -EINVAL (also unknown @flags), -EBADMSG
 * (not a mangled name, or a malformed one).
 */
PERFEV_API int perfev_demangle(const char *name, unsigned int flags, char *buf, size_t len);

/* ---- source lines ---------------------------------------------------------- */

struct perfev_srcline {
	/* The source file, NULL when unknown; valid until the symbolizer is freed. */
	const char *file;
	uint32_t line; /* 0 when unknown */
	/*
	 * The function the line is in: an inlined function's name, or the
	 * symbol's; its linkage (mangled) name when DWARF has one; NULL when
	 * unknown (as in the padding between functions).  Valid as @file.
	 */
	const char *func;
};

/*
 * The source lines of @ip, an address in a mapping of file @path as for
 * perfev_symbolize_user(), from the file's DWARF line table (or its
 * separate debug file's), looked up in-process and cached per file.
 * out[0] is the innermost: the line of @ip itself, in the function the
 * compiler inlined there if any; each next entry is the call site in the
 * function that one was inlined into; the last is in the real function.
 * Returns how many entries were set (at most @max: the innermost ones),
 * 0 when the file has no line for @ip.  Errors: those of
 * perfev_symbolize_user() but -ENOENT; -EINVAL also for a NULL @out or a
 * zero @max.  Not thread-safe, as the symbolizer.
 */
PERFEV_API int perfev_symbolize_lines(struct perfev_symbolizer *s, const char *path,
				      uint64_t map_start, uint64_t pgoff, uint64_t ip,
				      struct perfev_srcline *out, size_t max);

/*
 * Whether file @path, mapped as for perfev_symbolize_lines(), has DWARF
 * debug information (its own or a separate debug file's): where it does,
 * an address without a line is one the compiler left undescribed; where
 * it does not, no address has one.  Returns 1 or 0.  Errors: those of
 * perfev_symbolize_user() but -ENOENT.  Not thread-safe.
 */
PERFEV_API int perfev_symbolize_has_dwarf(struct perfev_symbolizer *s, const char *path,
					  uint64_t map_start, uint64_t pgoff, uint64_t ip);

/*
 * Where the symbols of file @path came from, as perf's report -v marks it
 * (one letter): 'd' the file's own table, 'b' a debug file found by build
 * id (/usr/lib/debug/.build-id), 'l' one found through .gnu_debuglink,
 * 'D' one kept in the cache directory (inflated DWARF), '!' none (the
 * file cannot be read).  -ENOENT when no address of @path was looked up
 * yet.  Not thread-safe.
 */
PERFEV_API int perfev_symbolizer_origin(struct perfev_symbolizer *s, const char *path);

/* ---- symbols by name -------------------------------------------------------- */

/* A symbol found by its name in an ELF file (perfev_elf_symbol_find()). */
struct perfev_elf_symbol {
	uint64_t vaddr; /* its value: an address of the file, before any load bias */
	uint64_t size;	/* 0 when the table gives none */
	bool func;	/* a function (STT_FUNC or STT_GNU_IFUNC); else data */
	bool dynsym;	/* found in .dynsym (the file has no .symtab, or not there) */
};

/*
 * The defined function or data symbol named @name (exactly, no
 * demangling; a versioned name "NAME@VERSION" of .dynsym matches NAME)
 * in ELF file @path: from .symtab, else from .dynsym.  Errors: -EINVAL,
 * -ENODATA (not an ELF file), -ENOENT (no such symbol in a file with a
 * .symtab), -ENOKEY (no such symbol and the file has no .symtab: it is
 * stripped, only its exported names are known), -EOPNOTSUPP (a
 * thread-local symbol: it has an address per thread), and the errors of
 * open(2).
 */
PERFEV_API int perfev_elf_symbol_find(const char *path, const char *name,
				      struct perfev_elf_symbol *out);

/*
 * The load bias of ELF file @path in a process where one of its mappings
 * (a line of /proc/PID/maps) starts at @map_start with file offset
 * @map_pgoff: what to add to an address of the file (a symbol's vaddr)
 * to get the address in that process.  0 for an executable linked at a
 * fixed address; where a position-independent executable or a shared
 * library was loaded otherwise.  Found from the PT_LOAD segment that
 * maps @map_pgoff.  Errors: -EINVAL, -ENODATA (not an ELF file), -ERANGE
 * (no loaded segment maps that offset), and the errors of open(2).
 */
PERFEV_API int perfev_elf_load_bias(const char *path, uint64_t map_start, uint64_t map_pgoff,
				    uint64_t *bias);

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_SYMBOLS_H */
