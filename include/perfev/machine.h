/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The machine: what the records of a recording say about the system it
 * ran on, kept up to date record by record, and the addresses of samples
 * resolved against it, as Linux perf's machine, thread and map code do.
 *
 *   threads   named by COMM, inherited by FORK (a new process copies its
 *             parent's maps, a new thread shares them), kept after EXIT
 *             (samples taken while a thread exits still carry its name);
 *   maps      per process from MMAP and MMAP2 (a new map cuts what it
 *             overlaps out of the older ones), the kernel's from its MMAP
 *             record ("[kernel.kallsyms]_text", where KASLR put it),
 *             modules' ("[nf_tables]") and BPF programs' (KSYMBOL);
 *   symbols   through a symbolizer the machine owns (perfev/symbols.h),
 *             made at the first lookup and told the recording's build ids:
 *             kernel, modules, files, the vDSO, JIT maps (/tmp/perf-PID.map);
 *   frames    an address, or a sample's whole call chain, as resolved
 *             frames (struct perfev_frame), on request with source lines
 *             and inlined functions; samples with user registers and
 *             stack (perf record --call-graph dwarf) have their user
 *             frames unwound through the DWARF call frame information.
 *
 * A machine is fed decoded records (perfev_machine_process()) in time
 * order: by a perfev_source (perfev/source.h), which reads perf.data
 * files and orders live records, or directly by the caller.
 *
 * A machine is not thread-safe: use it from one thread at a time.
 */
#ifndef PERFEV_MACHINE_H
#define PERFEV_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <perfev/abi.h>
#include <perfev/core.h>
#include <perfev/record.h>
#include <perfev/symbols.h>

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_machine;

struct perfev_machine_opts {
	size_t sz; /* sizeof(struct perfev_machine_opts) */
	/*
	 * The options of the symbolizer the machine makes at its first
	 * lookup (copied, strings included; NULL: the defaults).
	 * no_demangle also keeps the names of inlined functions as DWARF
	 * spells them.
	 */
	const struct perfev_symbolizer_opts *symbolizer;
	/* Entries of a call chain kept, markers not counted; 0: 127 (perf's default). */
	unsigned int max_stack;
};

/*
 * Make an empty machine: no threads but the idle one (tid 0, "swapper",
 * as perf names it), no maps.  Errors: -EINVAL (a bad opts or symbolizer
 * opts: a non-zero unknown tail), -ENOMEM.
 */
PERFEV_API int perfev_machine_new(const struct perfev_machine_opts *opts,
				  struct perfev_machine **out);
/* Free the machine, its symbolizer and every string it handed out (NULL is fine). */
PERFEV_API void perfev_machine_free(struct perfev_machine *m);

/*
 * Update the threads and maps from @rec: COMM (exec flushes the
 * process's unwinding state), FORK, EXIT, MMAP, MMAP2 (with a build id:
 * told to the symbolizer as perfev_machine_set_build_id()) and KSYMBOL;
 * other types are ignored.  Records must come in time order.  Returns 0
 * or -ENOMEM (the machine stays usable, without what @rec said), -EINVAL.
 */
PERFEV_API int perfev_machine_process(struct perfev_machine *m, const struct perfev_record *rec);

/*
 * The build id the recording saw for file @path (absolute) or for the
 * kernel ("[kernel.kallsyms]"), from perf's BUILD_ID feature or
 * HEADER_BUILD_ID records, so that a file rebuilt since is not read for
 * its symbols (see perfev_symbolizer_set_build_id()).  The kernel's must
 * be told before the first kernel address is resolved.  Other paths and
 * lengths outside 1..20 are ignored.  Returns 0, -EINVAL or -ENOMEM.
 */
PERFEV_API int perfev_machine_set_build_id(struct perfev_machine *m, const char *path,
					   const void *id, size_t len);

/*
 * The build id the recording saw for file @path or for the kernel
 * ("[kernel.kallsyms]"), as perfev_machine_set_build_id() or an MMAP2
 * record told it: copied to @id (@size bytes of room).  Returns its
 * length, 0 when none is known, -ENOSPC (@size too small), -EINVAL.
 */
PERFEV_API int perfev_machine_build_id(const struct perfev_machine *m, const char *path, void *id,
				       size_t size);

/*
 * The command name of thread @tid, from the COMM or FORK records seen so
 * far ("swapper" for 0), or NULL when none named it (perf shows ":TID").
 * Valid until the thread is renamed or the machine freed.
 */
PERFEV_API const char *perfev_machine_comm(const struct perfev_machine *m, uint32_t tid);

/*
 * Forget thread @tid of process @pid, and when @tid is the process's
 * main thread (@pid == @tid) the process's maps and unwinding state too:
 * the memory a long live session keeps for tasks that have exited.  The
 * machine itself keeps exited threads (see PERF_RECORD_EXIT above), as
 * samples may still name them; call this once the samples before the
 * task's EXIT record are handled (perfev_source_next() hands the EXIT
 * out after them).  Strings of that thread (its comm) become invalid;
 * a later sample of @tid shows no comm, of @pid no maps.  Frames
 * resolved before stay valid; the process's JIT map (perf-PID.map) is
 * read again should another process get @pid, and its own names go at
 * the next perfev_machine_forget_frames().  Returns 0; -ENOENT when no
 * thread @tid of @pid is known; -EINVAL (NULL, @tid 0: the idle thread
 * stays).
 */
PERFEV_API int perfev_machine_retire(struct perfev_machine *m, uint32_t pid, uint32_t tid);
/* How many threads the machine holds (the idle one included); 0 for NULL. */
PERFEV_API size_t perfev_machine_thread_count(const struct perfev_machine *m);

/*
 * The frames resolved so far and kept for the next lookups of the same
 * addresses (perfev_machine_resolve(), perfev_machine_sample_frames()):
 * each process's own, as its maps start where ASLR put them, so a long
 * live session that sees many processes gathers them without end.
 */
PERFEV_API size_t perfev_machine_frame_count(const struct perfev_machine *m);
/*
 * Forget them all, returning how many: the frames handed out before and
 * their ids become invalid, and ids start over from 0 (a caller that
 * keeps tables indexed by frame id must drop them); the strings frames
 * pointed to stay valid, but for the names from the JIT maps of the
 * processes retired (perfev_machine_retire()), which go now.  Later
 * lookups resolve again.  0 for NULL.
 */
PERFEV_API size_t perfev_machine_forget_frames(struct perfev_machine *m);

/*
 * The path of cgroup @id (PERF_SAMPLE_CGROUP's value) from the
 * PERF_RECORD_CGROUP records seen so far ("/system.slice/x.service"), or
 * NULL when none named it.  Valid as long as the machine.
 */
PERFEV_API const char *perfev_machine_cgroup(const struct perfev_machine *m, uint64_t id);

/*
 * The machine's symbolizer, made now if not yet (told the build ids and
 * the kernel's place known so far), for lookups of the caller's own.
 * NULL when it cannot be made (why is said once through the log).
 * Owned by the machine.
 */
PERFEV_API struct perfev_symbolizer *perfev_machine_symbolizer(struct perfev_machine *m);

/* ---- frames ------------------------------------------------------------------- */

/* Flags of perfev_machine_resolve(), perfev_machine_sample_frames(), perfev_source_frames(). */
/* A sample's call chain, not its address alone (see perfev_machine_sample_frames()). */
#define PERFEV_FRAMES_CHAIN (1U << 0)
/* Maps only: no symbol lookup (the symbolizer is not made for it). */
#define PERFEV_FRAMES_NO_SYMBOLS (1U << 1)
/* Source file and line of each frame in a file with DWARF line tables. */
#define PERFEV_FRAMES_SRCLINE (1U << 2)
/* The functions inlined at each address, each as a frame of its own before its caller. */
#define PERFEV_FRAMES_INLINE (1U << 3)
/*
 * User frames unwound from a sample's stack copy as perf script shows
 * them (perf's append_inlines): each address as the functions DWARF names
 * there, innermost first, the outermost included; those named otherwise
 * than the symbol there are marked PERFEV_FRAME_INLINED, so that an
 * address may give inlined frames only.  Other frames are not changed.
 */
#define PERFEV_FRAMES_UNWOUND_INLINES (1U << 4)

/* perfev_frame.flags */
#define PERFEV_FRAME_KERNEL	(1U << 0) /* a kernel address (kernel, module, BPF program) */
#define PERFEV_FRAME_ANON	(1U << 1) /* in anonymous memory (JIT code, [stack], [heap]) */
#define PERFEV_FRAME_INLINED	(1U << 2) /* a function inlined into the next frame */
#define PERFEV_FRAME_DWARF_NAME (1U << 3) /* @sym named by DWARF: no symbol covers @ip */
#define PERFEV_FRAME_UNWOUND	(1U << 4) /* found by unwinding the sample's user stack */

/*
 * One resolved frame.  Strings are owned by the machine and live as long
 * as it does.
 */
struct perfev_frame {
	uint64_t ip;   /* the address as the process saw it */
	uint64_t addr; /* in its object, as perf script prints it: ip - map start + file
			  offset for files and modules, else ip */
	/*
	 * The object: a file's path, "[kernel.kallsyms]", a module's
	 * "[name]", a BPF program's name, "[vdso]", "[stack]", "//anon",
	 * "/tmp/perf-PID.map" for executable anonymous memory; NULL: in no map.
	 */
	const char *dso;
	const char *sym; /* the function (demangled unless asked not to); NULL: unknown */
	/*
	 * @ip's offset from the start of the symbol it is in (for an inlined
	 * function too, as perf shows it); 0 for a DWARF name.
	 */
	uint64_t sym_off;
	const char *file; /* PERFEV_FRAMES_SRCLINE: the source file, NULL: unknown */
	uint32_t line;	  /* its line, 0: unknown */
	/*
	 * The same number for the same resolution (address, map, process
	 * for anonymous memory, flags), different ones otherwise, from 0 up
	 * and dense: for tables of the caller's own indexed by frame.
	 */
	uint32_t id;
	uint16_t cpumode; /* PERF_RECORD_MISC_KERNEL, _USER, ...: the context it was found in */
	uint16_t flags;	  /* PERFEV_FRAME_* */
};

/*
 * The frames of address @addr of process @pid seen in @cpumode
 * (PERF_RECORD_MISC_KERNEL or _USER; _CPUMODE_UNKNOWN picks by the
 * address, as perf does for data addresses; hypervisor and guest modes
 * find no map): the function there, with PERFEV_FRAMES_INLINE the
 * functions inlined there before it (innermost first).  *@frames is
 * owned by the machine, valid until its next call.  Errors: -EINVAL,
 * -ENOMEM.  An address in no map or of no symbol is a frame all the same
 * (dso or sym NULL); a symbolizer that cannot be made leaves every sym
 * NULL (said once through the log).
 */
PERFEV_API int perfev_machine_resolve(struct perfev_machine *m, uint32_t pid, unsigned int cpumode,
				      uint64_t addr, unsigned int flags,
				      const struct perfev_frame **frames, size_t *n);

/*
 * The frames of sample @rec (a decoded PERF_RECORD_SAMPLE of event
 * @attr), the sampled one first.  Without PERFEV_FRAMES_CHAIN: its ip
 * (none without PERF_SAMPLE_IP).  With it: its call chain as perf reads
 * it: PERF_CONTEXT_* markers set the mode of the entries after them
 * (user before any), at most max_stack entries, and none at all when a
 * marker is unknown (perf drops such a chain: callers may then ask for
 * the ip alone).  A sample with user registers and stack
 * (PERF_SAMPLE_REGS_USER and PERF_SAMPLE_STACK_USER, perf record
 * --call-graph dwarf) has the kernel part of its call chain followed by
 * the user frames unwound from its stack copy through the files' DWARF
 * call frame information (PERFEV_FRAME_UNWOUND; its ip alone when none
 * could be, for a user-mode sample; with PERFEV_FRAMES_UNWOUND_INLINES
 * as perf script shows them); a sample without either is its ip.  A
 * sample unwound when it was recorded (perfev record --unwind: its
 * registers the ABI word NONE alone, its stack copy empty, its user
 * frames in the chain after PERF_CONTEXT_USER) is its chain as it is.
 * Return addresses are looked up one byte earlier for their source line
 * (the call instruction).  *@frames as for perfev_machine_resolve().
 * Errors: -EINVAL (not a sample), -ENOMEM.
 */
PERFEV_API int perfev_machine_sample_frames(struct perfev_machine *m,
					    const struct perf_event_attr *attr,
					    const struct perfev_record *rec, unsigned int flags,
					    const struct perfev_frame **frames, size_t *n);

/* ---- unwinding statistics ----------------------------------------------------- */

/* Why the unwinding of a user stack stopped. */
enum perfev_unwind_stop {
	PERFEV_UNWIND_END,	 /* the call frame information says there is no caller */
	PERFEV_UNWIND_NO_REGS,	 /* no user registers (a kernel thread), or an ABI not unwound */
	PERFEV_UNWIND_NO_CFI,	 /* a pc whose file has no call frame information for it */
	PERFEV_UNWIND_SHORT,	 /* a read past the end of the stack copy */
	PERFEV_UNWIND_UNMAPPED,	 /* a pc in no map */
	PERFEV_UNWIND_MAX_DEPTH, /* max_stack frames were found */
	PERFEV_UNWIND_ERROR,	 /* anything else */
	PERFEV_UNWIND_NR_STOPS,
};

/* Short lowercase text of @stop ("no cfi", "stack copy too short"...); NULL when unknown. */
PERFEV_API const char *perfev_unwind_stop_name(enum perfev_unwind_stop stop);

struct perfev_unwind_stats {
	size_t sz;	  /* sizeof(struct perfev_unwind_stats) */
	uint64_t samples; /* samples whose user stack was unwound (each call that did) */
	uint64_t frames;  /* user frames found in all */
	/*
	 * Samples whose outermost frame is a thread's first: _start, clone,
	 * clone3, start_thread.  Frames asked for with PERFEV_FRAMES_NO_SYMBOLS
	 * name no function: those samples count under their stop reason.
	 */
	uint64_t root;
	/* The others (samples - root), by why the unwind stopped.  Stays the last member. */
	uint64_t stopped[PERFEV_UNWIND_NR_STOPS];
};

/*
 * The unwinding done so far by perfev_machine_sample_frames() into @out
 * (out->sz set by the caller: the members it holds are filled).  Errors:
 * -EINVAL (NULL, out->sz too small for @samples).
 */
PERFEV_API int perfev_machine_unwind_stats(const struct perfev_machine *m,
					   struct perfev_unwind_stats *out);

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_MACHINE_H */
