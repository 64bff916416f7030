/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Building perf.data files and records by hand, for the perf.data unit tests. */
#ifndef PERFEV_TEST_PERFDATA_SYNTH_H
#define PERFEV_TEST_PERFDATA_SYNTH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/perfdata.h>

#define ST_CLOCK (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)
#define ST_MULTI (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME)

/* ---- building files by hand ---------------------------------------------------------- */

struct buf {
	unsigned char *p;
	size_t len, cap;
};

static inline void b_put(struct buf *b, const void *d, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 256;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	if (n)
		memcpy(b->p + b->len, d, n);
	b->len += n;
}

static inline void b_zero(struct buf *b, size_t n)
{
	static const unsigned char z[256];

	while (n) {
		size_t k = n < sizeof(z) ? n : sizeof(z);

		b_put(b, z, k);
		n -= k;
	}
}

static inline void b_u16(struct buf *b, uint16_t v)
{
	b_put(b, &v, 2);
}

static inline void b_u32(struct buf *b, uint32_t v)
{
	b_put(b, &v, 4);
}

static inline void b_u64(struct buf *b, uint64_t v)
{
	b_put(b, &v, 8);
}

static inline void set_u32(struct buf *b, size_t off, uint32_t v)
{
	memcpy(b->p + off, &v, 4);
}

static inline void set_u64(struct buf *b, size_t off, uint64_t v)
{
	memcpy(b->p + off, &v, 8);
}

static inline uint64_t get_u64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* perf's header string: u32 length with the NUL, padded to 64. */
static inline void b_string(struct buf *b, const char *s)
{
	size_t n = strlen(s) + 1, padded = (n + 63) / 64 * 64;

	b_u32(b, (uint32_t)padded);
	b_put(b, s, n);
	b_zero(b, padded - n);
}

static inline void b_header(struct buf *b, uint32_t type, uint16_t misc, size_t size)
{
	b_u32(b, type);
	b_u16(b, misc);
	b_u16(b, (uint16_t)size);
}

static inline void clock_attr(struct perf_event_attr *a, uint64_t sample_type)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_SOFTWARE;
	a->size = sizeof(*a);
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	a->sample_period = 100000;
	a->sample_type = sample_type;
	a->sample_id_all = 1;
	a->comm = 1;
	a->mmap = 1;
}

/* PERF_RECORD_COMM with a TID|TIME trailer, and CPU (as 0) with @cpu. */
static inline void rec_comm_trailer(struct buf *b, uint32_t pid, const char *comm, uint64_t time,
				    bool cpu)
{
	size_t n = (strlen(comm) + 1 + 7) / 8 * 8;

	b_header(b, PERF_RECORD_COMM, 0, 8 + 8 + n + 16 + (cpu ? 8 : 0));
	b_u32(b, pid);
	b_u32(b, pid);
	b_put(b, comm, strlen(comm) + 1);
	b_zero(b, n - strlen(comm) - 1);
	b_u32(b, pid);
	b_u32(b, pid);
	b_u64(b, time);
	if (cpu)
		b_u64(b, 0);
}

/* PERF_RECORD_COMM with the TID|TIME trailer of ST_CLOCK. */
static inline void rec_comm(struct buf *b, uint32_t pid, const char *comm, uint64_t time)
{
	rec_comm_trailer(b, pid, comm, time, false);
}

/* A sample of ST_CLOCK. */
static inline void rec_sample(struct buf *b, uint64_t ip, uint32_t tid, uint64_t time,
			      uint64_t period)
{
	b_header(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 8 + 32);
	b_u64(b, ip);
	b_u32(b, tid);
	b_u32(b, tid);
	b_u64(b, time);
	b_u64(b, period);
}

/* A sample of ST_MULTI, and a non-sample record with its trailer (pid, time, identifier). */
static inline void rec_sample_id(struct buf *b, uint64_t id, uint64_t ip, uint32_t tid,
				 uint64_t time)
{
	b_header(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 8 + 32);
	b_u64(b, id);
	b_u64(b, ip);
	b_u32(b, tid);
	b_u32(b, tid);
	b_u64(b, time);
}

static inline void rec_exit_id(struct buf *b, uint64_t id, uint32_t pid, uint64_t time)
{
	b_header(b, PERF_RECORD_EXIT, 0, 8 + 24 + 24);
	b_u32(b, pid);
	b_u32(b, 1);
	b_u32(b, pid);
	b_u32(b, 1);
	b_u64(b, time);
	b_u32(b, pid);
	b_u32(b, pid);
	b_u64(b, time);
	b_u64(b, id);
}

struct feat {
	int id;
	const void *data;
	size_t len;
};

struct fspec {
	const struct perf_event_attr *attrs; /* read as @slot bytes each */
	int nattrs;
	uint32_t slot; /* 0: sizeof(struct perf_event_attr) */
	const uint64_t *ids;
	size_t nids_each;
	const struct buf *data;
	const struct feat *feats; /* ascending ids */
	int nfeats;
};

/* Where mkfile() put things, to corrupt them. */
struct flayout {
	size_t ids, attrs, data, table, feats;
};

/* header | ids | attrs | data | feature table | features */
static inline void mkfile(struct buf *out, const struct fspec *s, struct flayout *lay)
{
	uint32_t slot = s->slot ? s->slot : sizeof(struct perf_event_attr);
	uint64_t bitmap[4] = {0};
	size_t off;
	int i;

	out->len = 0;
	b_zero(out, 104);
	lay->ids = out->len;
	if (s->nids_each)
		b_put(out, s->ids, (size_t)s->nattrs * s->nids_each * 8);
	lay->attrs = out->len;
	for (i = 0; i < s->nattrs; i++) {
		size_t n =
		    slot < sizeof(struct perf_event_attr) ? slot : sizeof(struct perf_event_attr);

		b_put(out, &s->attrs[i], n);
		b_zero(out, slot - n);
		b_u64(out, lay->ids + (size_t)i * s->nids_each * 8);
		b_u64(out, s->nids_each * 8);
	}
	lay->data = out->len;
	if (s->data)
		b_put(out, s->data->p, s->data->len);
	lay->table = out->len;
	off = out->len + (size_t)s->nfeats * 16;
	for (i = 0; i < s->nfeats; i++) {
		b_u64(out, off);
		b_u64(out, s->feats[i].len);
		off += s->feats[i].len;
		bitmap[s->feats[i].id / 64] |= 1ULL << (s->feats[i].id % 64);
	}
	lay->feats = out->len;
	for (i = 0; i < s->nfeats; i++)
		b_put(out, s->feats[i].data, s->feats[i].len);
	set_u64(out, 0, 0x32454c4946524550ULL);
	set_u64(out, 8, 104);
	set_u64(out, 16, slot + 16);
	set_u64(out, 24, lay->attrs);
	set_u64(out, 32, (uint64_t)s->nattrs * (slot + 16));
	set_u64(out, 40, lay->data);
	set_u64(out, 48, s->data ? s->data->len : 0);
	memcpy(out->p + 72, bitmap, sizeof(bitmap));
}

/* One cpu-clock attr with ids 7 and 8, a COMM and three samples. */
static inline void basic_data(struct buf *data)
{
	data->len = 0;
	rec_comm(data, 42, "work", 1000);
	rec_sample(data, 0x401000, 42, 2000, 100000);
	rec_sample(data, 0x401008, 42, 3000, 100000);
	rec_sample(data, 0x401010, 42, 4000, 100000);
}

/* Open @len bytes from an exact-size heap copy, so that ASan sees any read past them. */
static inline int open_copy(const void *p, size_t len, void **copy, struct perfev_data_reader **r)
{
	*copy = malloc(len ? len : 1);
	if (!*copy)
		abort();
	memcpy(*copy, p, len);
	return perfev_data_open_mem(*copy, len, NULL, r);
}

/* Read every record and every feature; returns what the last perfev_data_next() said. */
static inline int drain(struct perfev_data_reader *r, size_t *count)
{
	struct perfev_data_record rec;
	char s[256];
	uint64_t v;
	int ret, f;

	*count = 0;
	while ((ret = perfev_data_next(r, &rec)) == 1)
		(*count)++;
	for (f = 0; f < PERFEV_FEAT_MAX; f++) {
		perfev_data_feature_string(r, f, s, sizeof(s));
		perfev_data_feature_u64(r, f, 0, &v);
		perfev_data_feature_u64(r, f, 1, &v);
	}
	return ret;
}

#endif /* PERFEV_TEST_PERFDATA_SYNTH_H */
