/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the record decoder (record.c) and encoder (record-encode.c) share. */
#ifndef PERFEV_RECORD_INTERNAL_H
#define PERFEV_RECORD_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <perfev/record.h>

/* Every sample_type bit up to PERF_SAMPLE_WEIGHT_STRUCT, the newest (Linux 5.12). */
#define PERFEV__SAMPLE_KNOWN ((PERFEV_SAMPLE_WEIGHT_STRUCT << 1) - 1)
#define PERFEV__FORMAT_KNOWN                                                                       \
	((uint64_t)(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |              \
		    PERF_FORMAT_ID | PERF_FORMAT_GROUP | PERFEV_FORMAT_LOST))
/* The sample_id trailer's fields. */
#define PERFEV__SID_BITS                                                                           \
	((uint64_t)(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |  \
		    PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER))
#define PERFEV__WEIGHT_BITS ((uint64_t)PERF_SAMPLE_WEIGHT | PERFEV_SAMPLE_WEIGHT_STRUCT)
/* The largest record: header.size is a u16. */
#define PERFEV__RECORD_MAX 0xffff

/* Kernel record types other than SAMPLE: they carry the trailer with sample_id_all. */
static inline bool perfev__record_has_trailer(uint32_t type)
{
	return type >= PERF_RECORD_MMAP && type <= PERFEV_RECORD_AUX_OUTPUT_HW_ID &&
	       type != PERF_RECORD_SAMPLE;
}

/* Bytes of the sample_id trailer for @sample_type: one u64 per field present. */
static inline uint32_t perfev__trailer_size(uint64_t sample_type)
{
	return 8 * (uint32_t)__builtin_popcountll(sample_type & PERFEV__SID_BITS);
}

/* u64 words of one READ value: value, [id], [lost]. */
static inline uint64_t perfev__read_per_value(uint64_t read_format)
{
	return 1U + !!(read_format & PERF_FORMAT_ID) + !!(read_format & PERFEV_FORMAT_LOST);
}

/* The layout bits a decoder or encoder cannot work without knowing. */
static inline bool perfev__layout_ok(const struct perfev_sample_layout *l)
{
	return l && !(l->sample_type & ~PERFEV__SAMPLE_KNOWN) &&
	       !(l->read_format & ~PERFEV__FORMAT_KNOWN);
}

/*
 * The record's event did not set attr.build_id: an MMAP2's build-id bit is
 * stale.  Linux writes one MMAP2 record to every event that asked for
 * mmap records; while some event on the system sets build_id, it ORs
 * PERF_RECORD_MISC_MMAP_BUILD_ID into that shared header's misc and never
 * clears it (kernel/events/core.c, perf_event_mmap_output() restores only
 * size and type), so an event that did not ask gets the bit with the
 * device and inode fields in place.  With this flag the union is read as
 * maj/min/ino/ino_generation and the bit is cleared in @out->misc.
 */
#define PERFEV__DECODE_NO_BUILD_ID 1U

/* perfev_record_decode() with PERFEV__DECODE_* @flags. */
int perfev__record_decode_flags(const struct perfev_sample_layout *layout, const void *buf,
				size_t len, unsigned int flags, struct perfev_record *out);

#endif /* PERFEV_RECORD_INTERNAL_H */
