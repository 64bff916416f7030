/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Sample filters: which of a source's samples (perfev/source.h) a tool
 * shows, as Linux perf script and perf report choose them with --time,
 * -C/--cpu, --pid, --tid, -c/--comms and -S/--symbols.
 *
 * A filter starts empty (every sample passes); each list set narrows it,
 * and a sample passes when it passes every list set.  The time parser
 * is a pure function of its string and the recording's first and last
 * sample times (the SAMPLE_TIME feature), usable alone.
 *
 * A filter is not thread-safe: use it from one thread at a time.
 */
#ifndef PERFEV_FILTER_H
#define PERFEV_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <perfev/core.h>
#include <perfev/source.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A span of time in ns, both ends included; 0: that end is open. */
struct perfev_time_range {
	uint64_t start, end;
};

/*
 * The most ranges @str can describe: one more than its commas.
 */
PERFEV_API size_t perfev_time_ranges_max(const char *str);

/*
 * Parse a time filter as perf 6.1's --time does (util/time-utils.c):
 *
 *   "START,STOP"      seconds with at most 9 decimals ("10.5,11"); either
 *                     may be empty (",11", "10.5,") for an open end;
 *   "A,B C,D ..."     several such ranges, separated by spaces, in
 *                     ascending order without overlap;
 *   "10%/2"           the second slice of 10% of the span from @first
 *                     to @last (the recording's first and last sample
 *                     times); "10%/2,10%/3" several slices;
 *   "0%-10%"          a range in percents; "0%-10%,30%-40%" several;
 *   "25%"             the first 25%.
 *
 * A percent range ends 1 ns before its end point unless that is @last.
 * Up to @max ranges go to @out (perfev_time_ranges_max(@str) is always
 * enough).  No I/O (a copy of @str is made to split it).  Returns the
 * number of ranges; -EINVAL for a string perf refuses (a STOP before its
 * START, ranges that overlap, a percent above 100, more ranges than
 * @max, seconds past 64 bits of nanoseconds...); -ENODATA for a percent
 * form when @first and @last are both 0 (a recording without
 * SAMPLE_TIME); -ENOMEM.
 */
PERFEV_API int perfev_time_ranges_parse(const char *str, uint64_t first, uint64_t last,
					struct perfev_time_range *out, size_t max);

/*
 * Whether @time falls outside @n ranges, as perf skips samples: never a
 * time of 0 (a sample without one); one range skips what is before its
 * start or after its end (0: open); several keep what is in any of them.
 */
PERFEV_API bool perfev_time_ranges_skip(const struct perfev_time_range *r, size_t n, uint64_t time);

struct perfev_filter;

/* An empty filter: every sample passes.  Errors: -EINVAL (NULL), -ENOMEM. */
PERFEV_API int perfev_filter_new(struct perfev_filter **out);
/* Free it (NULL is fine). */
PERFEV_API void perfev_filter_free(struct perfev_filter *f);

/*
 * Keep the samples in the time ranges of @str (perfev_time_ranges_parse()).
 * Errors: as perfev_time_ranges_parse(), -ENOMEM.
 */
PERFEV_API int perfev_filter_set_time(struct perfev_filter *f, const char *str, uint64_t first,
				      uint64_t last);
/*
 * Keep the samples of the CPUs of a list ("0-3,8"; perfev_cpulist_parse()).
 * The caller checks that the events sample their CPU, as perf refuses -C
 * otherwise.  Errors: -EINVAL (not a CPU list), -ENOMEM.
 */
PERFEV_API int perfev_filter_set_cpus(struct perfev_filter *f, const char *list);
/*
 * Keep the samples of the processes (or threads) of a comma list of
 * numbers ("42,43"); several calls add to the list.  Errors: -EINVAL
 * (not a number), -ENOMEM.
 */
PERFEV_API int perfev_filter_add_pids(struct perfev_filter *f, const char *list);
PERFEV_API int perfev_filter_add_tids(struct perfev_filter *f, const char *list);
/*
 * Keep the samples of threads whose command name, when sampled, is in a
 * comma list; several calls add to the list.  Errors: -EINVAL (no name),
 * -ENOMEM.
 */
PERFEV_API int perfev_filter_add_comms(struct perfev_filter *f, const char *list);
/*
 * Keep the samples whose address is in a function of a comma list of
 * names; several calls add to the list.  Errors: -EINVAL (no name),
 * -ENOMEM.
 */
PERFEV_API int perfev_filter_add_symbols(struct perfev_filter *f, const char *list);
/*
 * Keep the samples whose address is in an object of a comma list: its
 * path, its file name ("libc.so.6") or its name ("[kernel.kallsyms]");
 * several calls add to the list.  Errors: -EINVAL (no name), -ENOMEM.
 */
PERFEV_API int perfev_filter_add_dsos(struct perfev_filter *f, const char *list);

/*
 * Whether the sample @ev, the one perfev_source_next() last handed out
 * of @src, passes @f (its address resolved through @src only when a
 * symbol list is set).  Other records always pass.  Returns 1 (keep),
 * 0 (skip), or -ENOMEM.
 */
PERFEV_API int perfev_filter_sample(const struct perfev_filter *f, struct perfev_source *src,
				    const struct perfev_source_event *ev);

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_FILTER_H */
