/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Counting sessions: the events of an evspec opened on a target (this
 * thread, a process, threads, a command started for the purpose, CPUs,
 * a cgroup), with groups kept intact, read and aggregated.
 *
 * A session opens one file descriptor per event and per "instance" of
 * the target: per thread for task targets (cpu -1), per CPU for CPU and
 * cgroup targets (pid -1 or the cgroup).  Each event is opened in
 * counting mode: read_format TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING | ID
 * (| GROUP for the leader of a group, | LOST where the kernel has it), no
 * sampling period, leaders disabled until enabled (or until exec for a
 * command).
 *
 * When the kernel refuses an event the session tries what perf does and
 * reports it as "asked X, got Y": a lower precise level, no
 * exclude_guest, cpu-clock instead of cycles without a hardware PMU,
 * user-space only when kernel counting is not permitted, and weak groups
 * (:W) split into single events.  Events the machine cannot count at all
 * are kept as "not supported" rather than failing the session.
 */
#ifndef PERFEV_SESSION_H
#define PERFEV_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <perfev/core.h>
#include <perfev/event.h>

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_session;

enum perfev_target_kind {
	PERFEV_TARGET_SELF = 0,	   /* the calling thread */
	PERFEV_TARGET_PID = 1,	   /* every thread of process @pid */
	PERFEV_TARGET_THREADS = 2, /* the threads @tids */
	PERFEV_TARGET_COMMAND = 3, /* a program the session starts: @argv */
	PERFEV_TARGET_CPUS = 4,	   /* everything running on @cpus: system-wide */
	PERFEV_TARGET_CGROUP = 5,  /* tasks of cgroup @cgroup, on @cpus */
};

struct perfev_target {
	size_t sz;
	enum perfev_target_kind kind;
	pid_t pid;	   /* PID */
	const pid_t *tids; /* THREADS */
	size_t ntids;
	const int *cpus; /* CPUS, CGROUP: NULL means every online CPU */
	size_t ncpus;
	const char *cgroup; /* CGROUP: path, absolute or below the cgroup mount */
	char *const *argv;  /* COMMAND: program and arguments (searched in PATH) */
	bool no_inherit;    /* task targets: do not follow new children and threads */
};

struct perfev_session_opts {
	size_t sz;
	const char *sysfs_root;	  /* topology and PMU lookups; default "/sys" */
	const char *procfs_root;  /* threads of a process, knobs; default "/proc" */
	unsigned long open_flags; /* extra flags: PERF_FLAG_FD_NO_GROUP, PERF_FLAG_FD_OUTPUT */
	bool no_fallback;	  /* report a refused event instead of adapting it */
	bool no_group;		  /* open every event on its own, ignoring {} groups */
	bool enable_now;	  /* non-command targets: enable at open instead of at start */
	/*
	 * Keep the sample period or frequency of events that set one with a
	 * period= or freq= term (for overflow signals); others still count.
	 */
	bool keep_period;
	/*
	 * The caller enables the counters (perfev_session_enable()) when it
	 * wants, e.g. after a start-up delay: perfev_session_start() only
	 * releases a command, without arming its counters for exec.
	 */
	bool manual_enable;
	/*
	 * Sampling: the sample settings of each event (period or frequency,
	 * sample_type, read_format, wakeups, ...) are kept as the evspec and
	 * @configure leave them instead of being replaced by the counting
	 * setup.  Leaders still start disabled (or enable on exec) and
	 * inherit follows the target.
	 */
	bool sampling;
	/*
	 * Task targets: open every thread once per online CPU instead of
	 * once on cpu -1.  The kernel refuses to map the ring of an
	 * inherited event on cpu -1, so sampling a command or a process
	 * with its future children needs this.
	 */
	bool task_per_cpu;
	/*
	 * Called on each event's attr after the session's setup and before
	 * the first open (fallbacks may still change it).  A negative return
	 * fails perfev_session_open() with it.
	 */
	int (*configure)(struct perf_event_attr *attr, size_t ev, void *ctx);
	void *configure_ctx;
};

/* Why a session could not open. */
struct perfev_session_error {
	size_t sz;
	int err;   /* negative errno */
	int event; /* index of the event, or -1 */
	int cpu;   /* the failing instance */
	pid_t pid;
	char message[512]; /* perfev_diagnose() text, or what failed */
};

/*
 * A session for the events of @spec (copied: @spec may be freed after).
 * Errors: -EINVAL, -ENOMEM.
 */
PERFEV_API int perfev_session_new(const struct perfev_evspec *spec,
				  const struct perfev_session_opts *opts,
				  struct perfev_session **out);

/*
 * Close every event; a command that was never started is killed and
 * reaped, a started one is left alone (wait for it first).
 */
PERFEV_API void perfev_session_free(struct perfev_session *s);

/*
 * Open every event on @target.  For PERFEV_TARGET_COMMAND the program is
 * forked and held before exec until perfev_session_start(); its counters
 * start at exec, so nothing of the session's own work is counted.
 *
 * Returns 0 when every event is open or known to be unsupported here.
 * Errors (with @err filled when given): -ESRCH (no such process), -EACCES
 * and -EPERM (not permitted even after falling back), -ENOENT (no such
 * cgroup), -EMFILE, -ENOMEM, -EINVAL (bad target), and others from
 * perf_event_open(2).
 */
PERFEV_API int perfev_session_open(struct perfev_session *s, const struct perfev_target *target,
				   struct perfev_session_error *err);

/*
 * Start measuring: release the command to exec (its counters were armed
 * with enable_on_exec), or enable the counters of other targets.
 * Errors from exec are returned here: -ENOENT (program not found),
 * -EACCES (not executable), ...
 */
PERFEV_API int perfev_session_start(struct perfev_session *s);

/* The command's pid, or 0 when the target is not a command. */
PERFEV_API pid_t perfev_session_child(const struct perfev_session *s);

/* Group-wise enable, disable or zero every counter (ioctl on each leader). */
PERFEV_API int perfev_session_enable(struct perfev_session *s);
PERFEV_API int perfev_session_disable(struct perfev_session *s);
PERFEV_API int perfev_session_reset(struct perfev_session *s);

/* Read every counter now (one read(2) per group and instance). */
PERFEV_API int perfev_session_read(struct perfev_session *s);

/* ---- instances ---------------------------------------------------------- */

/*
 * An event is opened once per instance: a (CPU, thread) pair, CPU -1 for
 * a task followed on any CPU, thread -1 for everything on a CPU.
 */
PERFEV_API size_t perfev_session_instance_count(const struct perfev_session *s);
/* CPU and thread of instance @inst (either pointer may be NULL).  Errors: -EINVAL. */
PERFEV_API int perfev_session_instance(const struct perfev_session *s, size_t inst, int *cpu,
				       pid_t *tid);
/*
 * The descriptor of event @ev on instance @inst (owned by the session),
 * -1 when it is not open there (unsupported, thread gone), -EINVAL for
 * bad indices.
 */
PERFEV_API int perfev_session_fd(const struct perfev_session *s, size_t ev, size_t inst);
/*
 * The kernel ids (PERF_EVENT_IOC_ID) of event @ev on each instance where
 * it is open, into @ids (up to @max).  Returns how many there are.
 */
PERFEV_API int perfev_session_event_ids(const struct perfev_session *s, size_t ev, uint64_t *ids,
					size_t max);

/* ---- results ------------------------------------------------------------ */

enum perfev_event_state {
	PERFEV_EVENT_OPEN = 0,	      /* counting */
	PERFEV_EVENT_UNSUPPORTED = 1, /* the kernel cannot count it here */
};

PERFEV_API size_t perfev_session_event_count(const struct perfev_session *s);
PERFEV_API enum perfev_event_state perfev_session_event_state(const struct perfev_session *s,
							      size_t ev);
/* The event's name as parsed. */
PERFEV_API const char *perfev_session_event_name(const struct perfev_session *s, size_t ev);
/* The attr finally opened (after fallbacks). */
PERFEV_API const struct perf_event_attr *perfev_session_event_attr(const struct perfev_session *s,
								   size_t ev);
/* The evspec description of the event (name, flags, scale, unit, ...). */
PERFEV_API int perfev_session_event_info(const struct perfev_session *s, size_t ev,
					 struct perfev_event_info *info);
/*
 * What happened to the event, for the user: "asked cycles, got
 * cpu-clock: no hardware PMU", or why it is unsupported; NULL if nothing.
 */
PERFEV_API const char *perfev_session_event_note(const struct perfev_session *s, size_t ev);

/* How counts are grouped. */
enum perfev_aggr {
	PERFEV_AGGR_GLOBAL = 0, /* one total */
	PERFEV_AGGR_THREAD = 1, /* per monitored thread */
	PERFEV_AGGR_CPU = 2,	/* per CPU */
	PERFEV_AGGR_CORE = 3,	/* per physical core (SMT siblings summed) */
	PERFEV_AGGR_DIE = 4,
	PERFEV_AGGR_SOCKET = 5,
	PERFEV_AGGR_NODE = 6, /* per NUMA node */
};

/* One aggregation unit; fields that do not apply are -1. */
struct perfev_unit {
	int socket;
	int die;
	int core;
	int cpu;
	int node;
	pid_t tid;
};

/*
 * The units of level @aggr, in order, into @units (up to @max).  Returns
 * how many there are.  CPU-based levels need instances on CPUs (-EINVAL
 * for task targets counted on any CPU, unless task_per_cpu); THREAD
 * needs a task target.
 */
PERFEV_API int perfev_session_units(const struct perfev_session *s, enum perfev_aggr aggr,
				    struct perfev_unit *units, size_t max);

struct perfev_count {
	uint64_t raw;		/* sum of the counts */
	uint64_t enabled;	/* sum of time enabled (ns) */
	uint64_t running;	/* sum of time running (ns) */
	uint64_t lost;		/* PERF_FORMAT_LOST, summed */
	uint64_t scaled;	/* raw scaled to the enabled time (multiplexing) */
	unsigned int instances; /* file descriptors summed */
};

/*
 * The count of event @ev for unit @unit of level @aggr, as of the last
 * perfev_session_read().  Raw counts, enabled and running times are
 * summed over the unit's instances, then scaled.  Errors: -EINVAL.
 */
PERFEV_API int perfev_session_count(const struct perfev_session *s, size_t ev,
				    enum perfev_aggr aggr, size_t unit, struct perfev_count *out);

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_SESSION_H */
