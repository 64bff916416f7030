/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Decoding what read(2) returns from a counting event, for every
 * read_format combination (perf_event_open(2), "Reading results"):
 *
 *   !PERF_FORMAT_GROUP:  value [time_enabled] [time_running] [id] [lost]
 *    PERF_FORMAT_GROUP:  nr [time_enabled] [time_running]
 *                        nr x { value [id] [lost] }
 *
 * Pure functions over bytes: usable on data from files and other machines.
 */
#ifndef PERFEV_READING_H
#define PERFEV_READING_H

#include <stdint.h>
#include <perfev/abi.h>
#include <perfev/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One counter of a reading. */
struct perfev_value {
	uint64_t value;
	uint64_t id;   /* PERF_FORMAT_ID, else 0 */
	uint64_t lost; /* PERF_FORMAT_LOST, else 0 */
};

struct perfev_reading {
	size_t sz;		     /* sizeof(struct perfev_reading), set by the caller */
	uint64_t read_format;	     /* the format decoded */
	uint64_t time_enabled;	     /* PERF_FORMAT_TOTAL_TIME_ENABLED, else 0 */
	uint64_t time_running;	     /* PERF_FORMAT_TOTAL_TIME_RUNNING, else 0 */
	uint32_t nr;		     /* values decoded (1 unless PERF_FORMAT_GROUP) */
	uint32_t max;		     /* capacity of @values, set by the caller */
	struct perfev_value *values; /* caller's array of @max entries */
};

/*
 * Bytes read(2) returns for @read_format and @nr counters (@nr is 1
 * without PERF_FORMAT_GROUP).  Returns 0 for unknown read_format bits.
 */
PERFEV_API size_t perfev_read_size(uint64_t read_format, size_t nr);

/*
 * Decode @len bytes read from an event opened with @read_format.
 *
 * Errors: -EINVAL (unknown read_format bits, bad @out), -EBADMSG (@len is
 * not what @read_format and the group's nr imply), -ENOSPC (more counters
 * than out->max: out->nr says how many are needed, nothing else is set).
 */
PERFEV_API int perfev_read_decode(uint64_t read_format, const void *buf, size_t len,
				  struct perfev_reading *out);

/*
 * The count estimated for the whole enabled time when the counter ran
 * only part of it (multiplexing): value * enabled / running, computed
 * without overflow and rounded to nearest.  Returns @value when
 * running == enabled, and 0 when running is 0 (never counted).
 */
PERFEV_API uint64_t perfev_scale(uint64_t value, uint64_t enabled, uint64_t running);

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_READING_H */
