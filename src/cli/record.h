/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared pieces of perfev record. */
#ifndef PERFEV_CLI_RECORD_H
#define PERFEV_CLI_RECORD_H

#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>
#include "common/hashmap.h"
#include <perfev/machine.h>
#include "perfev-cli.h"

struct rec_unwind;

/* Where synthesized records go: the recording's first event layout and its writer. */
struct synth_ctx {
	const struct perfev_sample_layout *layout;
	struct perfev_data_writer *w;
	struct rec_unwind *uw; /* --unwind: records go there instead, in time order */
	/* Or, when set, each record is handed to this (perfev top's live source); 0 or -errno. */
	int (*feed)(void *arg, const void *rec, size_t len);
	void *feed_arg;
	const char *procfs_root;
	bool data_maps;		     /* -d: non-executable mappings too */
	bool no_maps;		     /* --synth=task: threads only */
	bool namespaces;	     /* --namespaces: NAMESPACES of each thread */
	struct build_ids *build_ids; /* the executable files' build ids noted here; NULL: not */
	uint64_t records;
	int err; /* first write error */
	/*
	 * Called between two processes while every process is described, so
	 * that the rings, already enabled, are read meanwhile; or NULL.
	 */
	void (*between)(void *arg);
	void *between_arg;
};

/*
 * Describe process @pid as it is now: COMM of each thread, MMAP2 of its
 * executable mappings (every mapping with data_maps), FORK for each
 * thread but the first, NAMESPACES of each thread with namespaces.  A
 * process that exits meanwhile is skipped.
 */
void synth_process(struct synth_ctx *sc, pid_t pid);
/* --namespaces: a NAMESPACES record of thread @tid of process @pid (nothing without it). */
void synth_namespaces(struct synth_ctx *sc, pid_t pid, pid_t tid);
/*
 * The command, forked and not yet run: with namespaces, its COMM and
 * NAMESPACES (the kernel reports its exec and mappings itself).
 */
void synth_command(struct synth_ctx *sc, pid_t pid);
/* Every process on the machine (system-wide recording). */
void synth_all_processes(struct synth_ctx *sc);
/* The process each thread of @tids belongs to, once each. */
void synth_threads(struct synth_ctx *sc, const pid_t *tids, size_t n);
/*
 * The kernel's text as an MMAP of "[kernel.kallsyms]_text" where perf
 * looks for it, from the first _text or _stext in /proc/kallsyms (read
 * only up to there).  Nothing when the addresses are hidden.
 */
void synth_kernel(struct synth_ctx *sc);
/*
 * --all-cgroups: a CGROUP record (kernel id, path from the hierarchy's
 * root) for every cgroup of the hierarchy perf names samples' cgroups
 * from: cgroup v1's perf_event controller, else cgroup2.
 */
void synth_cgroups(struct synth_ctx *sc);

/*
 * Build ids of the files mapped during the recording, for perf's
 * BUILD_ID section: the kernel puts them in MMAP2 records when the
 * tracking event asks (attr.build_id, Linux 5.12).
 */
struct build_ids {
	/* Per file, in the order seen: its id's length (a byte), the id, the file's name. */
	struct perfev__intern files;
	/* The files of the maps described from /proc (device and inode), each read once. */
	struct perfev__intern inodes;
};

/* Whether this kernel accepts attr.build_id (one probe of a dummy event). */
bool build_ids_supported(void);
/*
 * The MMAP2 record @h of an event without attr.build_id as the file keeps
 * it: without the build-id bit Linux leaves on it while another event on
 * the system asks for build ids (device and inode are in place), copied
 * into @buf (@size bytes); @h itself when the bit is clear or @h too big.
 */
const struct perf_event_header *build_ids_clear_stale(const struct perf_event_header *h, void *buf,
						      size_t size);
/* Note the build id of an MMAP2 record that carries one (others are ignored). */
void build_ids_note(struct build_ids *b, const struct perfev_sample_layout *layout,
		    const struct perf_event_header *h);
/*
 * Note the build id of executable file @filename mapped before the
 * recording (described from /proc/PID/maps at @map_files, that map's
 * /proc/PID/map_files entry: the very file mapped): read from the file,
 * once per device and inode @dev, @ino; nothing when the file there is
 * not that one or has no build id.  The kernel reports build ids only
 * for the maps made while the events run.
 */
void build_ids_note_file(struct build_ids *b, const char *map_files, const char *filename,
			 uint64_t dev, uint64_t ino);
/*
 * Set the BUILD_ID section: one perf build-id record per file noted, and
 * the kernel's own (from /sys/kernel/notes) when @kernel.  0 or -errno.
 */
int build_ids_write(struct build_ids *b, struct perfev_data_writer *w, bool kernel);
void build_ids_release(struct build_ids *b);

/*
 * --unwind (record-unwind.c): the records of the recording through a
 * live source, its samples' user stacks unwound and stored as call
 * chains, everything written in time order.
 */
struct rec_unwind_stats {
	uint64_t unwound;  /* samples stored with their unwound chain */
	uint64_t frames;   /* user frames stored in all */
	uint64_t kept_raw; /* samples written with their stack: the unwinder was behind */
	uint64_t failed;   /* samples that could not be re-encoded: written as recorded */
	uint64_t bad;	   /* records the source could not decode: dropped */
	uint64_t stopped[PERFEV_UNWIND_NR_STOPS];
};

int rec_unwind_new(struct perfev_data_writer *w, struct rec_unwind **out);
void rec_unwind_free(struct rec_unwind *u);
int rec_unwind_add_event(struct rec_unwind *u, const struct perf_event_attr *attr, const char *name,
			 const uint64_t *ids, size_t n);
/* A record of a ring or a synthesized one; copied. */
int rec_unwind_feed(struct rec_unwind *u, const void *rec, size_t len);
/*
 * Write what may go out now (everything when @end), unwinding the
 * samples; @drain (with @arg) is called every few records so the rings
 * are read meanwhile.  Returns 0 or the first error (a write error).
 */
int rec_unwind_pump(struct rec_unwind *u, bool end, void (*drain)(void *), void *arg);
void rec_unwind_stats(struct rec_unwind *u, struct rec_unwind_stats *out);

/*
 * record-attr.c: perf's spellings of the attr options.  A name not known
 * returns -1 with *@bad and *@bad_len on it.
 *
 */
/* --user-regs / --intr-regs: register names (comma list) as a mask; "" is perf's default set. */
int rec_regs_mask(const char *s, bool intr, uint64_t *out, const char **bad, size_t *bad_len);
void rec_regs_list(FILE *f, bool intr);
/*
 * -k: the resolution of clock @clockid and one moment on the wall clock
 * and on it, for the CLOCKID and CLOCK_DATA features.  0, or -errno
 * (-EINVAL: no such clock here).
 */
int rec_clock_ref(int clockid, struct perfev_data_clock *out);

/*
 * --off-cpu (record-offcpu.c): the sched_switch tracepoint's samples and
 * the context-switch records turned into samples of an "offcpu-time"
 * event, one per wait, its period the nanoseconds waited.
 */
#define REC_OFFCPU_TRACEPOINT "sched:sched_switch"
#define REC_OFFCPU_EVENT      "offcpu-time"

struct rec_offcpu;
/* Where each offcpu-time sample goes (a record of @len bytes, to copy). */
typedef void (*rec_offcpu_emit_fn)(const void *rec, size_t len, void *arg);

/* Add the sched_switch event to @spec; its index.  Exits with the reason where it cannot. */
size_t rec_offcpu_add_event(struct perfev_evspec *spec, const struct perfev_parse_opts *pa);
/* Why --off-cpu does not go with --overwrite (or else -n). */
const char *rec_offcpu_conflict(bool overwrite);
/* The attr of the sched_switch event, after the options set it. 0 or -errno. */
int rec_offcpu_configure(struct perf_event_attr *a, bool kernel_chain);
/*
 * After the events of @s are open: @sw_ev the sched_switch event, @id
 * the id the offcpu-time samples carry (one no event of the recording
 * has), and whether the context-switch records are written too
 * (--switch-events).  Exits with the reason where it cannot.
 */
void rec_offcpu_start(struct perfev_session *s, size_t sw_ev, uint64_t id, bool keep_switches,
		      struct rec_offcpu **out);
void rec_offcpu_free(struct rec_offcpu *oc);
/* Declare the offcpu-time event to the file (and to --unwind's writer). */
int rec_offcpu_add_attr(struct rec_offcpu *oc, struct perfev_data_writer *w, struct rec_unwind *uw);
/*
 * A record of a ring, of event @ev: noted when it matters.  True when it
 * is not to be written (a sched_switch sample; a context switch without
 * --switch-events).
 */
bool rec_offcpu_take(struct rec_offcpu *oc, size_t ev, const struct perf_event_header *h);
/* The end of a round: the waits that ended before the last round go to @emit. 0 or -ENOMEM. */
int rec_offcpu_round(struct rec_offcpu *oc, rec_offcpu_emit_fn emit, void *arg);
/* The end of the recording: every wait, those not over counted to the last time seen. */
int rec_offcpu_finish(struct rec_offcpu *oc, rec_offcpu_emit_fn emit, void *arg);
/* -q aside: how many waits, how long in all. */
void rec_offcpu_summary(const struct rec_offcpu *oc, FILE *f);

/* perfev record --push (record-push.c). */
struct option;
struct rec_push;
struct rec_push_opts {
	const char *url, *labels, *app;
	const char *spool;   /* the directory windows wait in until pushed */
	uint64_t spool_size; /* its bound in bytes */
	uint64_t freq;	     /* the sampling frequency, 0 with -c */
	bool quiet;
};
/* Check the URL and labels (usage errors exit 2) and make the spool directory. */
struct rec_push *rec_push_new(const struct rec_push_opts *po, const char *const *usage,
			      const struct option *opts);
/*
 * A window ends: its recording @data (or NULL) becomes a pprof profile
 * in the spool (the file removed), then the spool is pushed, by a worker
 * process while the recording goes on.
 */
void rec_push_window(struct rec_push *pu, const char *data);
/* Push what the spool holds, oldest first, until a push fails; trim it to its size. */
void rec_push_flush(struct rec_push *pu);
/* Wait for the worker, make and push the windows left, and free @pu. */
void rec_push_free(struct rec_push *pu);

#endif /* PERFEV_CLI_RECORD_H */
