/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * DWARF unwinding of user stacks copied into samples (PERF_SAMPLE_REGS_USER
 * and PERF_SAMPLE_STACK_USER), through elfutils' libdwfl.  Hidden: the
 * machine (threads and maps) is its only user; the public face is the
 * machine's resolved call chains.
 *
 * One Dwfl per address space, its modules reported from the space's maps
 * and kept while the space's generation does not change, so each ELF
 * file's CFI (.eh_frame, .debug_frame, separate debug files) is read once
 * per process, not once per sample.
 */
#ifndef PERFEV_UNWIND_H
#define PERFEV_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One mapping of an address space, as MMAP/MMAP2 records describe it. */
struct perfev__unwind_map {
	uint64_t start, end;	 /* [start, end) */
	uint64_t pgoff;		 /* file offset of @start */
	const char *path;	 /* the file; NULL, "//anon", "[vdso]", "[stack]"...: no file */
	const uint8_t *build_id; /* NULL: unknown */
	size_t build_id_size;
};

/* An address space: the maps of one process at one moment. */
struct perfev__unwind_space {
	const void *key;     /* identity of the process for the cache (the machine's object) */
	uint64_t generation; /* changes whenever @maps change; a new one re-reports the modules */
	const struct perfev__unwind_map *maps; /* sorted by start, not overlapping */
	size_t nmaps;
};

/* The user registers of a sample, as the kernel wrote them. */
struct perfev__unwind_regs {
	uint64_t abi;	      /* PERF_SAMPLE_REGS_ABI_*; NONE: no registers (a kernel thread) */
	uint64_t mask;	      /* the attr's sample_regs_user */
	const uint64_t *regs; /* one value per bit of @mask, lowest bit first */
};

/* Why an unwind stopped. */
enum perfev__unwind_stop {
	PERFEV__UNWIND_END,	  /* the CFI says there is no caller (the outermost frame) */
	PERFEV__UNWIND_NO_REGS,	  /* no user registers, or an ABI not unwound (32-bit) */
	PERFEV__UNWIND_NO_CFI,	  /* a pc whose file has no CFI for it, or no file */
	PERFEV__UNWIND_SHORT,	  /* a read past the end of the stack copy */
	PERFEV__UNWIND_UNMAPPED,  /* a pc in no map */
	PERFEV__UNWIND_MAX_DEPTH, /* @max frames were found */
	PERFEV__UNWIND_ERROR,	  /* anything else libdwfl reports */
	PERFEV__UNWIND_NR_STOPS,
};

/*
 * An unwinder keeps one libdwfl session per space (at most a few hundred:
 * the least recently used goes first) and reads each file's program
 * headers once.  Files are mapped privately while a session uses them,
 * without a descriptor left open.  Not thread-safe: one per thread.
 */
struct perfev__unwinder;

int perfev__unwinder_new(struct perfev__unwinder **out);
void perfev__unwinder_free(struct perfev__unwinder *u);
/*
 * Forget the cached state of the space @key (its process exited or
 * exec'd).  Must be called before the object @key points to is freed, so
 * that another space at the same address is not taken for it.
 */
void perfev__unwinder_forget(struct perfev__unwinder *u, const void *key);

/* What an unwinder has done so far, for tests and measurements. */
struct perfev__unwind_stats {
	uint64_t unwinds;	/* calls of perfev__unwind() that walked a stack */
	uint64_t libdwfl_walks; /* of those, walked by libdwfl's dwfl_getthread_frames() */
	uint64_t rules;		/* CFI rows read into the rule cache */
	uint64_t reports;	/* module reports: a space's first unwind or a new generation */
	uint64_t modules;	/* modules reported for the first time in their session */
	uint64_t elf_maps;	/* ELF files mapped for a session (CFI read from them) */
	uint64_t files;		/* distinct files whose headers were read */
};

void perfev__unwinder_stats(const struct perfev__unwinder *u, struct perfev__unwind_stats *out);
/*
 * Walk every sample with libdwfl (dwfl_getthread_frames()), not with the
 * rules cached from its CFI rows: the reference the cached walk is tested
 * against (same frames, same stop).
 */
void perfev__unwinder_set_libdwfl_only(struct perfev__unwinder *u, bool on);

/*
 * Unwind thread @tid of @space from @regs over @stack (the bytes the kernel
 * copied from the user stack pointer up; @stack_size is the dyn_size, the
 * part that holds data).  Writes up to @max pcs to @ips, innermost first:
 * the first is the sample's user pc, each caller's is its return address
 * minus one (the call instruction, as perf stores them), and sets *@n and
 * *@stop.  Returns 0 (even when the unwind stopped early: see *@stop), or
 * -ENOMEM, -EINVAL.  Never reads memory outside @stack and the mapped files
 * (of those, only bytes of segments that are not writable).
 *
 * The frames found before a stop are kept: an unwind that stops SHORT
 * still gives the innermost callers.  Where no CFI covers a pc, libdwfl
 * follows the frame pointer (rbp) instead; a walk that finds nothing
 * there stops for the reason of the frame without CFI (NO_CFI, or
 * UNMAPPED for a pc in no map).  Only x86_64 samples of 64-bit processes
 * are unwound (elsewhere: NO_REGS).
 */
int perfev__unwind(struct perfev__unwinder *u, const struct perfev__unwind_space *space,
		   uint32_t pid, uint32_t tid, const struct perfev__unwind_regs *regs,
		   const void *stack, size_t stack_size, uint64_t *ips, size_t max, size_t *n,
		   enum perfev__unwind_stop *stop);

/* Short lowercase text of a stop reason ("no cfi", "stack copy too short"...). */
const char *perfev__unwind_stop_name(enum perfev__unwind_stop stop);

#endif /* PERFEV_UNWIND_H */
