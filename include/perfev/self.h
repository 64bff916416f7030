/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Self-monitoring: counters on the calling thread read from user space,
 * for measuring code regions inside a program.
 *
 * A perfev_self is one group of events (from an event string) opened
 * once on the calling thread and left running.  A snapshot reads every
 * counter and the group's enabled/running times; a region is the
 * difference of two snapshots, so measuring a region costs two reads
 * and no ioctl.  Regions may be nested and repeated, and named regions
 * accumulate totals.
 *
 * Two read paths exist (perf_event_open(2), "The mmap layout"):
 *
 *   - the system call: one read(2) of the whole group;
 *   - user space: the first page of each event is mapped, and the count
 *     is its offset plus the hardware counter read with rdpmc under the
 *     page's seqlock, with enabled/running times extrapolated from the
 *     TSC.  Only when the page says so (cap_user_rdpmc and a non-zero
 *     index, and cap_user_time so the times are current); otherwise that
 *     snapshot falls back to read(2).
 *
 * PERFEV_READ_AUTO times both when the group is opened and keeps the
 * faster: rdpmc is 5-10x faster than read(2) on bare metal but traps
 * (and is slower) in many virtual machines.
 *
 * Thread safety: a perfev_self belongs to the thread that opened it (the
 * counters count that thread); each thread opens its own.
 */
#ifndef PERFEV_SELF_H
#define PERFEV_SELF_H

#include <stdbool.h>
#include <stdint.h>
#include <perfev/core.h>
#include <perfev/event.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PERFEV_SELF_MAX 32 /* events in one self-monitoring group */

struct perfev_self;
struct perfev_pmus;

enum perfev_read_path {
	PERFEV_READ_AUTO = 0,	 /* measured at open: the faster path that works */
	PERFEV_READ_SYSCALL = 1, /* read(2) of the group */
	PERFEV_READ_RDPMC = 2,	 /* the mmap page and rdpmc, read(2) when unusable */
};

struct perfev_self_opts {
	size_t sz;
	enum perfev_read_path path;
	const struct perfev_pmus *pmus; /* PMU events in the string; NULL: generic only */
	int clockid;			/* with use_clockid: the clock of timestamps; 0: none */
	bool use_clockid;
};

/* A consistent reading of the whole group. */
struct perfev_snapshot {
	uint64_t time_enabled; /* ns the group was enabled */
	uint64_t time_running; /* ns it was on the PMU */
	uint32_t nr;	       /* events */
	uint32_t path;	       /* PERFEV_READ_SYSCALL or PERFEV_READ_RDPMC: how it was read */
	uint64_t value[PERFEV_SELF_MAX];
};

/* One event between two snapshots. */
struct perfev_delta {
	uint64_t raw;	  /* counted */
	uint64_t enabled; /* ns enabled */
	uint64_t running; /* ns counting */
	double scaled;	  /* raw * enabled / running: the estimate for the whole span */
	bool partial;	  /* the event was not counting the whole time (multiplexed) */
};

/*
 * Open the events of @events as one group on the calling thread, running
 * from now on.  Where kernel counting is not permitted, events fall back
 * to user space only (see perfev_self_note()).  Up to PERFEV_SELF_MAX
 * events; tool events are refused.
 *
 * Errors: -EINVAL (syntax, too many events, a forced path that cannot
 * work here: -EOPNOTSUPP for RDPMC without rdpmc), the parse errors of
 * perfev_evspec_parse() (with @perr filled), and perf_event_open(2)
 * errors of an event the machine cannot count.
 */
PERFEV_API int perfev_self_open(const char *events, const struct perfev_self_opts *opts,
				struct perfev_self **out, struct perfev_parse_error *perr);
PERFEV_API void perfev_self_close(struct perfev_self *s);

PERFEV_API size_t perfev_self_count(const struct perfev_self *s);
PERFEV_API const char *perfev_self_name(const struct perfev_self *s, size_t idx);
/* What the kernel made of event @idx ("asked X, got Y"), or NULL. */
PERFEV_API const char *perfev_self_note(const struct perfev_self *s, size_t idx);
/* The file descriptor of event @idx (to use with control.h or signal.h). */
PERFEV_API int perfev_self_fd(const struct perfev_self *s, size_t idx);
/* The path snapshots use (AUTO resolved to what it chose). */
PERFEV_API enum perfev_read_path perfev_self_path(const struct perfev_self *s);

/*
 * Read every counter.  Errors: -EINVAL, and read(2) errors.  Cheap:
 * meant to be called around the code being measured.
 */
PERFEV_API int perfev_self_snapshot(struct perfev_self *s, struct perfev_snapshot *snap);

/* Event @idx between @before and @after.  Errors: -EINVAL. */
PERFEV_API int perfev_self_delta(const struct perfev_self *s, const struct perfev_snapshot *before,
				 const struct perfev_snapshot *after, size_t idx,
				 struct perfev_delta *out);

/* ---- named regions ----------------------------------------------------- */

/* The id of region @name, registered on first use; -ENOSPC past 256 regions. */
PERFEV_API int perfev_self_region(struct perfev_self *s, const char *name);
/*
 * Enter and leave region @id: a snapshot each, the difference added to
 * the region's totals.  Regions nest (up to 64 deep: -ENOSPC beyond) and
 * must be left in reverse order: -EINVAL otherwise.
 */
PERFEV_API int perfev_self_enter(struct perfev_self *s, int id);
PERFEV_API int perfev_self_leave(struct perfev_self *s, int id);

struct perfev_region_stats {
	size_t sz;
	const char *name;
	uint64_t calls;	  /* times left */
	uint64_t partial; /* calls during which some event was not counting all along */
	uint64_t enabled; /* ns, summed */
	uint64_t running; /* ns of the group leader, summed */
	uint32_t nr;	  /* events */
	uint64_t raw[PERFEV_SELF_MAX];
	double scaled[PERFEV_SELF_MAX]; /* sum of each call's scaled estimate */
};

PERFEV_API int perfev_self_region_count(const struct perfev_self *s);
PERFEV_API int perfev_self_region_stats(const struct perfev_self *s, int id,
					struct perfev_region_stats *out);

/* ---- time ------------------------------------------------------------------ */

/*
 * The conversion between the CPU's time stamp counter and perf time
 * (sample timestamps), as the mmap page publishes it when
 * cap_user_time_zero is set.
 */
struct perfev_time_conv {
	size_t sz;
	uint64_t time_zero;
	uint32_t time_mult;
	uint16_t time_shift;
	bool time_short; /* cap_user_time_short: the counter wraps */
	uint64_t time_cycles;
	uint64_t time_mask;
};

/* Errors: -EOPNOTSUPP (the kernel does not publish it here), -EINVAL. */
PERFEV_API int perfev_self_time_conv(const struct perfev_self *s, struct perfev_time_conv *out);
PERFEV_API uint64_t perfev_tsc_to_perf_time(const struct perfev_time_conv *c, uint64_t cycles);
PERFEV_API uint64_t perfev_perf_time_to_tsc(const struct perfev_time_conv *c, uint64_t ns);
/*
 * CLOCK_MONOTONIC minus perf time, in ns, estimated from pairs of
 * rdtsc/clock_gettime readings (the closest pair wins).  Errors:
 * -EOPNOTSUPP without a time conversion or a TSC.
 */
PERFEV_API int perfev_self_monotonic_offset(const struct perfev_self *s, int64_t *offset_ns);

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_SELF_H */
