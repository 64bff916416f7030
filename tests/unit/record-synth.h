/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The record tests' own synthesizer: bytes written from perf_event_open(2)
 * and <linux/perf_event.h>, never by perfev_record_encode(), which is
 * checked against them.  Shared by test-record.c (samples, layouts, ids)
 * and test-record-types.c (the other record types, malformed input).
 */
#ifndef PERFEV_TEST_RECORD_SYNTH_H
#define PERFEV_TEST_RECORD_SYNTH_H

#include <errno.h>
#include <stdlib.h>
#include <perfev/record.h>
#include "harness.h"

#define SAMPLE_ALL ((1ULL << 25) - 1) /* IP .. WEIGHT_STRUCT */
#define SID_BITS                                                                                   \
	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |             \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)
#define RF_ALL		0x1fULL
#define BRANCH_COUNTERS (1ULL << 19)
#define MISC_BUILD_ID	(1U << 14)
#define MAX_REC		8192

static const char *cur_case = "";

#define EQ(a, b)                                                                                   \
	do {                                                                                       \
		uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                                   \
		if (a_ != b_) {                                                                    \
			harness_fail(__FILE__, __LINE__,                                           \
				     "%s: %s == %#" PRIx64 ", expected %#" PRIx64, cur_case, #a,   \
				     a_, b_);                                                      \
			return false;                                                              \
		}                                                                                  \
	} while (0)

#define MEMEQ(p, q, n)                                                                             \
	do {                                                                                       \
		const void *p_ = (p);                                                              \
		size_t n_ = (n);                                                                   \
		if (n_ && (!p_ || memcmp(p_, (q), n_))) {                                          \
			harness_fail(__FILE__, __LINE__, "%s: %s differs from %s (%zu bytes)",     \
				     cur_case, #p, #q, n_);                                        \
			return false;                                                              \
		}                                                                                  \
	} while (0)

#define STREQ(p, q)                                                                                \
	do {                                                                                       \
		if (!(p) || strcmp((p), (q))) {                                                    \
			harness_fail(__FILE__, __LINE__, "%s: %s == \"%s\", expected \"%s\"",      \
				     cur_case, #p, (p) ? (p) : "(null)", (q));                     \
			return false;                                                              \
		}                                                                                  \
	} while (0)

/* ---- a byte builder --------------------------------------------------------------- */

struct bld {
	uint8_t b[MAX_REC];
	size_t n;
};

static inline void put(struct bld *b, const void *p, size_t n)
{
	if (b->n + n > sizeof(b->b))
		abort(); /* a bug in this test, not in the library */
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

static inline void put64(struct bld *b, uint64_t v)
{
	put(b, &v, 8);
}

static inline void put32(struct bld *b, uint32_t v)
{
	put(b, &v, 4);
}

static inline void put16(struct bld *b, uint16_t v)
{
	put(b, &v, 2);
}

static inline void put8(struct bld *b, uint8_t v)
{
	put(b, &v, 1);
}

static inline void pad8(struct bld *b)
{
	while (b->n % 8)
		put8(b, 0);
}

/* A string with its NUL and zero padding, as the kernel writes names. */
static inline void putstr(struct bld *b, const char *s)
{
	put(b, s, strlen(s) + 1);
	pad8(b);
}

static inline void begin(struct bld *b, uint32_t type, uint16_t misc)
{
	b->n = 0;
	put32(b, type);
	put16(b, misc);
	put16(b, 0);
}

static inline void finish(struct bld *b)
{
	uint16_t size = (uint16_t)b->n;

	memcpy(b->b + 6, &size, 2);
}

static inline uint64_t rd64(const void *p, size_t i)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)p + i * 8, 8);
	return v;
}

/* ---- decoding from an exact-size heap copy, so ASan sees any over-read ------------ */

static inline int decode_exact(const struct perfev_sample_layout *l, const void *bytes, size_t len,
			       struct perfev_record *r, void **copy)
{
	*copy = malloc(len ? len : 1);
	if (!*copy)
		abort();
	memcpy(*copy, bytes, len);
	return perfev_record_decode(l, *copy, len, r);
}

/*
 * Every shorter view of @rec: with the original header (size > len) and
 * with the header's size cut to the view.  A cut record decodes only when
 * it keeps at least @min bytes; anything shorter is -EBADMSG.
 */
static inline bool check_truncations(const struct perfev_sample_layout *l, const uint8_t *rec,
				     size_t size, size_t min)
{
	struct perfev_record r;
	uint64_t id;
	size_t k;
	int ret;

	for (k = 0; k < size; k++) {
		uint8_t *copy = malloc(k ? k : 1);

		if (!copy)
			abort();
		memcpy(copy, rec, k);
		ret = perfev_record_decode(l, copy, k, &r);
		if (ret != -EBADMSG) {
			harness_fail(__FILE__, __LINE__, "%s: %zu of %zu bytes: %d", cur_case, k,
				     size, ret);
			free(copy);
			return false;
		}
		ret = perfev_record_id(l, copy, k, &id);
		if (ret != -EBADMSG) {
			harness_fail(__FILE__, __LINE__, "%s: id of %zu of %zu bytes: %d", cur_case,
				     k, size, ret);
			free(copy);
			return false;
		}
		if (k >= 8) {
			uint16_t sz = (uint16_t)k;

			memcpy(copy + 6, &sz, 2);
			ret = perfev_record_decode(l, copy, k, &r);
			if (ret != (k >= min ? 0 : -EBADMSG)) {
				harness_fail(__FILE__, __LINE__,
					     "%s: cut to %zu of %zu bytes (min %zu): %d", cur_case,
					     k, size, min, ret);
				free(copy);
				return false;
			}
			(void)perfev_record_id(l, copy, k, &id);
		}
		free(copy);
	}
	return true;
}

/* encode(decode(x)) == x, byte for byte, and -ENOSPC for every buffer too small. */
static inline bool check_reencode(const struct perfev_sample_layout *l,
				  const struct perfev_record *r, const uint8_t *want, size_t size)
{
	static uint8_t out[65536];
	int ret;

	memset(out, 0xa5, sizeof(out));
	ret = perfev_record_encode(l, r, out, sizeof(out));
	EQ(ret, size);
	MEMEQ(out, want, size);
	EQ(perfev_record_encode(l, r, out, size - 1), -ENOSPC);
	if (size > 8)
		EQ(perfev_record_encode(l, r, out, 8), -ENOSPC);
	EQ(perfev_record_encode(l, r, NULL, 0), -ENOSPC);
	return true;
}

/* ---- samples ---------------------------------------------------------------------- */

/* What a sample holds, and the options that shape its variable parts. */
struct truth {
	uint64_t st, rf, bst;
	uint32_t nregs_user, nregs_intr;

	uint64_t identifier, ip;
	uint32_t pid, tid;
	uint64_t time, addr, id, stream_id;
	uint32_t cpu, res;
	uint64_t period;
	uint64_t read_nr, enabled, running, rv[4][3]; /* value, id, lost */
	uint64_t cc_nr, cc[16];
	uint32_t raw_size;
	uint8_t raw[64];
	uint64_t br_nr, hw_idx, br[4][3], br_cnt[4];
	uint64_t ru_abi, ru[64];
	uint64_t su_size, su_dyn;
	uint8_t su[256];
	uint64_t weight, data_src, transaction;
	uint64_t ri_abi, ri[64];
	uint64_t phys, cgroup, dps, cps;
	uint64_t aux_size;
	uint8_t aux[64];
};

/* Distinct values everywhere, so a field read from the wrong slot shows. */
static inline void truth_init(struct truth *t, uint64_t st)
{
	size_t i, k;

	memset(t, 0, sizeof(*t));
	t->st = st;
	t->nregs_user = 5;
	t->nregs_intr = 3;
	t->identifier = 0x1d1d1d1d00000001ULL;
	t->ip = 0xffffffff81000010ULL;
	t->pid = 4242;
	t->tid = 4243;
	t->time = 0x0000123456789abcULL;
	t->addr = 0x00007fffdeadbee0ULL;
	t->id = 0x1d00000000000077ULL;
	t->stream_id = 0x5e00000000000088ULL;
	t->cpu = 13;
	t->res = 0;
	t->period = 100003;
	t->read_nr = 3;
	t->enabled = 0xe0000000000000e1ULL;
	t->running = 0x7000000000000071ULL;
	for (i = 0; i < 4; i++)
		for (k = 0; k < 3; k++)
			t->rv[i][k] = 0x1000000000000000ULL * (k + 1) + i * 0x10 + k;
	/* A kernel part, then a user part, as perf_callchain() lays them out. */
	t->cc_nr = 7;
	t->cc[0] = (uint64_t)PERF_CONTEXT_KERNEL;
	t->cc[1] = 0xffffffff81234567ULL;
	t->cc[2] = 0xffffffff81000abcULL;
	t->cc[3] = (uint64_t)PERF_CONTEXT_USER;
	t->cc[4] = 0x0000555555555123ULL;
	t->cc[5] = 0x00007ffff7a00456ULL;
	t->cc[6] = 0x0000555555554789ULL;
	t->raw_size = 13;
	for (i = 0; i < sizeof(t->raw); i++)
		t->raw[i] = (uint8_t)(0x30 + i);
	t->br_nr = 3;
	t->hw_idx = 0x1f;
	for (i = 0; i < 4; i++) {
		t->br[i][0] = 0x400000 + i * 0x100;
		t->br[i][1] = 0x500000 + i * 0x100;
		t->br[i][2] = 0x3ULL | (i + 1) << 4; /* mispred, predicted, cycles */
		t->br_cnt[i] = 0xc0 + i;
	}
	t->ru_abi = PERF_SAMPLE_REGS_ABI_64;
	for (i = 0; i < 64; i++) {
		t->ru[i] = 0xa000 + i;
		t->ri[i] = 0xb000 + i;
	}
	t->su_size = 64;
	t->su_dyn = 40;
	for (i = 0; i < sizeof(t->su); i++)
		t->su[i] = (uint8_t)(0x80 ^ i);
	/* var1_dw, var2_w, var3_w: 0x11223344, 0x5566, 0x7788. */
	t->weight = 0x7788556611223344ULL;
	t->data_src = 0x2cULL << 0 | 0x42ULL << 5;
	t->transaction = 0x0000000500000006ULL;
	t->ri_abi = PERF_SAMPLE_REGS_ABI_64;
	t->phys = 0x00000001deadb000ULL;
	t->cgroup = 0xc9c9;
	t->dps = 4096;
	t->cps = 2 << 20;
	t->aux_size = 24;
	for (i = 0; i < sizeof(t->aux); i++)
		t->aux[i] = (uint8_t)(0xf0 - i);
}

static inline void synth_read(struct bld *b, const struct truth *t)
{
	uint64_t i, nr = t->rf & PERF_FORMAT_GROUP ? t->read_nr : 1;

	if (t->rf & PERF_FORMAT_GROUP) {
		put64(b, nr);
		if (t->rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			put64(b, t->enabled);
		if (t->rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			put64(b, t->running);
		for (i = 0; i < nr; i++) {
			put64(b, t->rv[i][0]);
			if (t->rf & PERF_FORMAT_ID)
				put64(b, t->rv[i][1]);
			if (t->rf & PERF_FORMAT_LOST)
				put64(b, t->rv[i][2]);
		}
		return;
	}
	put64(b, t->rv[0][0]);
	if (t->rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		put64(b, t->enabled);
	if (t->rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		put64(b, t->running);
	if (t->rf & PERF_FORMAT_ID)
		put64(b, t->rv[0][1]);
	if (t->rf & PERF_FORMAT_LOST)
		put64(b, t->rv[0][2]);
}

/* The sample record of perf_event_open(2), field by field in its documented order. */
static inline void synth_sample(struct bld *b, const struct truth *t)
{
	uint64_t st = t->st, i;

	begin(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	if (st & PERF_SAMPLE_IDENTIFIER)
		put64(b, t->identifier);
	if (st & PERF_SAMPLE_IP)
		put64(b, t->ip);
	if (st & PERF_SAMPLE_TID) {
		put32(b, t->pid);
		put32(b, t->tid);
	}
	if (st & PERF_SAMPLE_TIME)
		put64(b, t->time);
	if (st & PERF_SAMPLE_ADDR)
		put64(b, t->addr);
	if (st & PERF_SAMPLE_ID)
		put64(b, t->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		put64(b, t->stream_id);
	if (st & PERF_SAMPLE_CPU) {
		put32(b, t->cpu);
		put32(b, t->res);
	}
	if (st & PERF_SAMPLE_PERIOD)
		put64(b, t->period);
	if (st & PERF_SAMPLE_READ)
		synth_read(b, t);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		put64(b, t->cc_nr);
		put(b, t->cc, t->cc_nr * 8);
	}
	if (st & PERF_SAMPLE_RAW) {
		put32(b, t->raw_size);
		put(b, t->raw, t->raw_size);
		pad8(b); /* u32 size + data, padded to 8 together */
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		put64(b, t->br_nr);
		if (t->bst & PERF_SAMPLE_BRANCH_HW_INDEX)
			put64(b, t->hw_idx);
		for (i = 0; i < t->br_nr; i++)
			put(b, t->br[i], 24);
		if (t->bst & BRANCH_COUNTERS)
			put(b, t->br_cnt, t->br_nr * 8);
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		put64(b, t->ru_abi);
		if (t->ru_abi)
			put(b, t->ru, t->nregs_user * 8);
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		put64(b, t->su_size);
		put(b, t->su, t->su_size);
		if (t->su_size)
			put64(b, t->su_dyn);
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		put64(b, t->weight);
	if (st & PERF_SAMPLE_DATA_SRC)
		put64(b, t->data_src);
	if (st & PERF_SAMPLE_TRANSACTION)
		put64(b, t->transaction);
	if (st & PERF_SAMPLE_REGS_INTR) {
		put64(b, t->ri_abi);
		if (t->ri_abi)
			put(b, t->ri, t->nregs_intr * 8);
	}
	if (st & PERF_SAMPLE_PHYS_ADDR)
		put64(b, t->phys);
	if (st & PERF_SAMPLE_CGROUP)
		put64(b, t->cgroup);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		put64(b, t->dps);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		put64(b, t->cps);
	if (st & PERF_SAMPLE_AUX) {
		put64(b, t->aux_size);
		put(b, t->aux, t->aux_size);
	}
	finish(b);
}

static inline bool layout_of(const struct truth *t, struct perfev_sample_layout *l, bool sid_all)
{
	struct perf_event_attr attr = {.size = sizeof(attr)};

	attr.sample_type = t->st;
	attr.read_format = t->rf;
	attr.branch_sample_type = t->bst;
	/* Masks with the right number of bits, not all starting at bit 0. */
	attr.sample_regs_user = t->nregs_user >= 62 ? ~0ULL >> (64 - t->nregs_user)
						    : ((1ULL << t->nregs_user) - 1) << 2;
	attr.sample_regs_intr = t->nregs_intr ? ~0ULL >> (64 - t->nregs_intr) : 0;
	attr.sample_id_all = sid_all;
	EQ(perfev_sample_layout_init(l, &attr), 0);
	EQ(l->regs_user_count, t->nregs_user);
	EQ(l->regs_intr_count, t->nregs_intr);
	return true;
}

static inline bool check_read(const struct perfev_sample_layout *l, const struct perfev_sample *s,
			      const struct truth *t)
{
	uint64_t nr = t->rf & PERF_FORMAT_GROUP ? t->read_nr : 1, i, v, id, lost;

	EQ(s->read.nr, nr);
	EQ(s->read.time_enabled, t->rf & PERF_FORMAT_TOTAL_TIME_ENABLED ? t->enabled : 0);
	EQ(s->read.time_running, t->rf & PERF_FORMAT_TOTAL_TIME_RUNNING ? t->running : 0);
	for (i = 0; i < nr; i++) {
		EQ(perfev_sample_read_value(l, s, i, &v, &id, &lost), 0);
		EQ(v, t->rv[i][0]);
		EQ(id, t->rf & PERF_FORMAT_ID ? t->rv[i][1] : 0);
		EQ(lost, t->rf & PERF_FORMAT_LOST ? t->rv[i][2] : 0);
	}
	EQ(perfev_sample_read_value(l, s, nr, &v, &id, &lost), -ERANGE);
	EQ(perfev_sample_read_value(l, s, 0, NULL, NULL, NULL), nr ? 0 : -ERANGE);
	return true;
}

/* ---- the sample_id trailer of other records --------------------------------------- */

static const struct perfev_sample_id sid_truth = {
    .pid = 0x101,
    .tid = 0x102,
    .time = 0x0000777766665555ULL,
    .id = 0x1d00000000000abcULL,
    .stream_id = 0x5e00000000000def,
    .cpu = 3,
    .res = 0,
    .identifier = 0x1d1d00000000000fULL,
};

/* The sample_id trailer, in the order of perf_event.h's struct sample_id. */
static inline void synth_trailer(struct bld *b, const struct perfev_sample_layout *l)
{
	uint64_t st = l->sample_type;

	if (!l->sample_id_all)
		return;
	if (st & PERF_SAMPLE_TID) {
		put32(b, sid_truth.pid);
		put32(b, sid_truth.tid);
	}
	if (st & PERF_SAMPLE_TIME)
		put64(b, sid_truth.time);
	if (st & PERF_SAMPLE_ID)
		put64(b, sid_truth.id);
	if (st & PERF_SAMPLE_STREAM_ID)
		put64(b, sid_truth.stream_id);
	if (st & PERF_SAMPLE_CPU) {
		put32(b, sid_truth.cpu);
		put32(b, sid_truth.res);
	}
	if (st & PERF_SAMPLE_IDENTIFIER)
		put64(b, sid_truth.identifier);
}

static inline bool check_sid(const struct perfev_sample_layout *l,
			     const struct perfev_sample_id *sid)
{
	uint64_t st = l->sample_id_all ? l->sample_type : 0;

	EQ(sid->present, st & SID_BITS);
	EQ(sid->pid, st & PERF_SAMPLE_TID ? sid_truth.pid : 0);
	EQ(sid->tid, st & PERF_SAMPLE_TID ? sid_truth.tid : 0);
	EQ(sid->time, st & PERF_SAMPLE_TIME ? sid_truth.time : 0);
	EQ(sid->id, st & PERF_SAMPLE_ID ? sid_truth.id : 0);
	EQ(sid->stream_id, st & PERF_SAMPLE_STREAM_ID ? sid_truth.stream_id : 0);
	EQ(sid->cpu, st & PERF_SAMPLE_CPU ? sid_truth.cpu : 0);
	EQ(sid->identifier, st & PERF_SAMPLE_IDENTIFIER ? sid_truth.identifier : 0);
	return true;
}

/* ---- short cases ------------------------------------------------------------------ */

static inline int decode_bld(const struct perfev_sample_layout *l, const struct bld *b)
{
	struct perfev_record r;
	void *copy;
	int ret = decode_exact(l, b->b, b->n, &r, &copy);

	free(copy);
	return ret;
}

static inline void layout_for(struct perfev_sample_layout *l, uint64_t st, uint64_t rf,
			      bool sid_all)
{
	struct perf_event_attr attr = {.size = sizeof(attr)};

	attr.sample_type = st;
	attr.read_format = rf;
	attr.sample_id_all = sid_all;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_HW_INDEX;
	attr.sample_regs_user = 0xff;
	if (perfev_sample_layout_init(l, &attr))
		abort();
}

#endif /* PERFEV_TEST_RECORD_SYNTH_H */
