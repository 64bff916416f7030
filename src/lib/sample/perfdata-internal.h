/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The perf.data layout shared by the reader and the writer, and their hidden helpers. */
#ifndef PERFEV_PERFDATA_INTERNAL_H
#define PERFEV_PERFDATA_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <string.h>
#include <perfev/perfdata.h>
#include "common/array.h"
#include "common/hashmap.h"

/* "PERFILE2" read as a little-endian u64, and as written by a big-endian host. */
#define PERFEV__PD_MAGIC	 0x32454c4946524550ULL
#define PERFEV__PD_MAGIC_SWAPPED 0x50455246494c4532ULL
/* The first version's magic ("PERFFILE"), never read by this library. */
#define PERFEV__PD_MAGIC1 "PERFFILE"

/*
 * The file header (struct perf_file_header): magic, size, attr_size, the
 * attrs, data and event_types sections, then the feature bitmap.  The
 * first format had no bitmap and was 72 bytes long.
 */
#define PERFEV__PD_HDR_SIZE	   104
#define PERFEV__PD_HDR_SIZE_OLD	   72
#define PERFEV__PD_PIPE_HDR_SIZE   16
#define PERFEV__PD_OFF_ATTR_SIZE   16
#define PERFEV__PD_OFF_ATTRS	   24
#define PERFEV__PD_OFF_DATA	   40
#define PERFEV__PD_OFF_EVENT_TYPES 56
#define PERFEV__PD_OFF_FEATURES	   72
#define PERFEV__PD_SECTION_SIZE	   16 /* struct perf_file_section: u64 offset, size */

/* Strings in feature sections are padded to this (perf's NAME_ALIGN). */
#define PERFEV__PD_NAME_ALIGN 64

/* The smallest attr (PERF_ATTR_SIZE_VER0) and the largest one accepted at all (a page). */
#define PERFEV__PD_ATTR_MIN 64
#define PERFEV__PD_ATTR_MAX 4096

/* Room for any attr this library knows, whatever the installed header says. */
#define PERFEV__PD_ATTR_BUF                                                                        \
	(sizeof(struct perf_event_attr) > PERFEV_ATTR_SIZE_MAX ? sizeof(struct perf_event_attr)    \
							       : PERFEV_ATTR_SIZE_MAX)

/* Kernel record types end here; perf's own start. */
#define PERFEV__PD_USER_TYPE_START 64

/* PERF_RECORD_EVENT_UPDATE's type for an event name (perf's PERF_EVENT_UPDATE__NAME). */
#define PERFEV__PD_EVENT_UPDATE_NAME 2
/* Bytes of PERF_RECORD_EVENT_UPDATE before its payload: header, u64 type, u64 id. */
#define PERFEV__PD_EVENT_UPDATE_HDR 24

static inline uint16_t perfev__pd_u16(const void *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t perfev__pd_u32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint64_t perfev__pd_u64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline void perfev__pd_put32(void *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

static inline void perfev__pd_put64(void *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

static inline uint64_t perfev__pd_align8(uint64_t v)
{
	return (v + 7) & ~7ULL;
}

/*
 * The u64 index, counted after the record header, of TIME in a sample of
 * @sample_type, or -1.  Fields before it: IDENTIFIER, IP, TID.
 */
static inline int perfev__pd_time_pos(uint64_t sample_type)
{
	if (!(sample_type & PERF_SAMPLE_TIME))
		return -1;
	return !!(sample_type & PERF_SAMPLE_IDENTIFIER) + !!(sample_type & PERF_SAMPLE_IP) +
	       !!(sample_type & PERF_SAMPLE_TID);
}

/*
 * The u64 index of the event id in a sample of @sample_type, or -1:
 * IDENTIFIER first, else ID after IP, TID, TIME and ADDR.
 */
static inline int perfev__pd_sample_id_pos(uint64_t sample_type)
{
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(sample_type & PERF_SAMPLE_ID))
		return -1;
	return !!(sample_type & PERF_SAMPLE_IP) + !!(sample_type & PERF_SAMPLE_TID) +
	       !!(sample_type & PERF_SAMPLE_TIME) + !!(sample_type & PERF_SAMPLE_ADDR);
}

/*
 * The reader's and the writer's id table maps an event id to its event's
 * index; the first event to claim an id keeps it.
 */
static inline int perfev__pd_id_add(struct perfev__hashmap *ids, uint64_t id, size_t idx)
{
	int ret = perfev__hashmap_add(ids, id, idx);

	return ret == -EEXIST ? 0 : ret;
}

/* A growable byte buffer for building feature sections. */
struct bytes {
	unsigned char *p;
	size_t len, cap;
};

static inline int bytes_put(struct bytes *b, const void *data, size_t n)
{
	return perfev__append(&b->p, &b->len, &b->cap, data, n, 1);
}

static inline int bytes_zero(struct bytes *b, size_t n)
{
	static const unsigned char zero[64];
	int ret = 0;

	while (n && !ret) {
		size_t k = n < sizeof(zero) ? n : sizeof(zero);

		ret = bytes_put(b, zero, k);
		n -= k;
	}
	return ret;
}

static inline int bytes_u32(struct bytes *b, uint32_t v)
{
	return bytes_put(b, &v, sizeof(v));
}

/* A perf_header_string: u32 length with the NUL, padded to 64, then the bytes. */
static inline int bytes_string(struct bytes *b, const char *s)
{
	size_t n = strlen(s) + 1;
	size_t padded =
	    (n + PERFEV__PD_NAME_ALIGN - 1) / PERFEV__PD_NAME_ALIGN * PERFEV__PD_NAME_ALIGN;
	int ret;

	if (padded > UINT32_MAX)
		return -EINVAL;
	ret = bytes_u32(b, (uint32_t)padded);
	if (!ret)
		ret = bytes_put(b, s, n);
	if (!ret)
		ret = bytes_zero(b, padded - n);
	return ret;
}

/* The host's topology features (perfdata-host.c): CPU_TOPOLOGY, NUMA_TOPOLOGY, PMU_MAPPINGS, CACHE,
 * MEM_TOPOLOGY. */
int perfev__data_set_topology(struct perfev_data_writer *w, const char *sysfs_root);

/*
 * PERF_RECORD_COMPRESSED (perfdata-compressed.c).  The reader's side:
 * feed it each record's payload (kept by the caller until next returns
 * 0), take the whole records out; a record cut at the end waits for the
 * next payload.  The payload is decompressed a window at a time as
 * records are taken.  Errors of feed and next: -EBADMSG (not a zstd
 * stream, a record shorter than its header), -EFBIG (past the cap of
 * perfev/perfdata.h), -ENOMEM, each logged.  A record handed out is
 * valid until the next call.
 */
struct perfev__unzip;
int perfev__unzip_new(struct perfev__unzip **out);
void perfev__unzip_free(struct perfev__unzip *z);
int perfev__unzip_feed(struct perfev__unzip *z, const void *payload, size_t n, uint64_t offset);
int perfev__unzip_next(struct perfev__unzip *z, const unsigned char **rec);
/* At the end of the data: -EBADMSG (logged) when a record or a block is cut short. */
int perfev__unzip_end(const struct perfev__unzip *z, uint64_t offset);
/*
 * The cap feed applies, PERFEV_DATA_DECOMP_RECORD_MAX.  Only lowered by
 * fuzz/fuzz-compressed.c, so that a bomb reaches it in a few hundred
 * KiB rather than 64 MiB (thousands of inputs a second, not tens).
 */
extern uint64_t perfev__unzip_cap;
/*
 * The largest zstd window a frame may ask for, as a log2; 0 is zstd's
 * own limit (2^27, what perf record -z 22 writes).  zstd allocates the
 * window a frame declares (unless the frame states a smaller content
 * size) whether or not the frame fills it; only lowered by
 * fuzz/fuzz-compressed.c, where under ASan each window of 8 MiB costs
 * more than the rest of the input.
 */
extern int perfev__unzip_window_log_max;

/*
 * The writer's side: records staged (room first, then add) and
 * compressed a batch at a time by flush, which hands each
 * PERF_RECORD_COMPRESSED to @emit.  A batch is at most this many bytes,
 * the mmap_len written in the COMPRESSED feature.
 */
#define PERFEV__ZIP_BATCH     (512U * 1024)
#define PERFEV__ZIP_LEVEL_MAX 22 /* zstd's, and perf's -z range: 1..22 */
/* The COMPRESSED feature: u32 version, type (1: zstd), level, ratio, mmap_len. */
#define PERFEV__PD_COMP_FEAT_SIZE 20
#define PERFEV__PD_COMP_ZSTD	  1
struct perfev__zip;
int perfev__zip_new(int level, struct perfev__zip **out);
void perfev__zip_free(struct perfev__zip *z);
bool perfev__zip_room(const struct perfev__zip *z, size_t n);
void perfev__zip_add(struct perfev__zip *z, const void *p, size_t n);
int perfev__zip_flush(struct perfev__zip *z, int (*emit)(void *ctx, const void *p, size_t n),
		      void *ctx);
void perfev__zip_counts(const struct perfev__zip *z, uint64_t *plain, uint64_t *packed);

#endif /* PERFEV_PERFDATA_INTERNAL_H */
