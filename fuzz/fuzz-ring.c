// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer harness: a ring buffer over fuzzed memory, read in normal or overwrite mode, decoded.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/record.h>
#include <perfev/ring.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Input: 24 bytes of geometry, then the bytes of the data area and of the
 * AUX area (zeros where the input ends).
 *   [0]      bits 0-2 data size 8 << n, bit 3 overwrite, bit 4 AUX area,
 *            bits 5-6 the sample layout (layouts[] below)
 *   [1..8]   normal: data_tail (the reader's tail); overwrite: data_head
 *   [9..12]  normal: data_head - data_tail (signed)
 *   [13..14] the head's move before a second read (signed; overwrite: down)
 *   [15]     bits 0-2 AUX size 8 << n
 *   [16..19] aux_tail
 *   [20..21] aux_head - aux_tail (signed)
 *   [22..23] bytes to consume from the AUX area
 */
#define PREFIX	   24
#define PAGE_SIZE  2048 /* the smallest power of two that holds the metadata page */
#define MAX_RECORD 65535

static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static const struct {
	uint64_t sample_type, read_format;
	bool sample_id_all;
} layouts[4] = {
    {PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD, 0, false},
    {PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
	 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD,
     0, true},
    {PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
	 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN |
	 PERF_SAMPLE_RAW,
     PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED, true},
    {(1ULL << 25) - 1, 0x1f, true},
};

struct ctx {
	struct perfev_sample_layout layout;
	const unsigned char *lo, *hi; /* the data area */
	uint64_t ring_size;
	size_t records;
};

/* What every record handed out must be, and its decoding must not overrun it. */
static void check_record(struct ctx *c, const struct perf_event_header *h)
{
	const unsigned char *p = (const unsigned char *)h;
	struct perfev_record r;
	uint64_t id;
	int ret;

	if (h->size < sizeof(*h) || h->size % 8 || h->size > c->ring_size)
		abort();
	/* In place, inside the data area, or a copy elsewhere. */
	if (p >= c->lo && p < c->hi && (size_t)(c->hi - p) < h->size)
		abort();
	ret = perfev_record_decode(&c->layout, h, h->size, &r);
	if (ret && ret != -EBADMSG)
		abort();
	if (!ret && (r.bytes != h || r.size != h->size))
		abort();
	ret = perfev_record_id(&c->layout, h, h->size, &id);
	if (ret && ret != -ENOENT && ret != -EBADMSG)
		abort();
	c->records++;
}

static int on_record(const struct perf_event_header *h, void *arg)
{
	check_record(arg, h);
	return 0;
}

/* One normal-mode read of everything published; the tail must land where it was read to. */
static void read_normal(struct ctx *c, struct perfev_ring *r, struct perf_event_mmap_page *pg)
{
	const struct perf_event_header *h;
	uint64_t tail = pg->data_tail, used = 0;
	int64_t n = perfev_ring_begin(r);
	size_t calls = 0;
	int ret;

	if (n == -EBADMSG) {
		if (perfev_ring_next(r, &h) != 0)
			abort();
		perfev_ring_end(r);
		if (pg->data_tail != tail)
			abort();
		return;
	}
	if (n < 0 || (uint64_t)n > c->ring_size)
		abort();
	while ((ret = perfev_ring_next(r, &h)) == 1) {
		check_record(c, h);
		used += h->size;
		if (used > (uint64_t)n || ++calls > c->ring_size / 8)
			abort();
	}
	if (ret == -EBADMSG) {
		/* The rest is skipped. */
		if (perfev_ring_next(r, &h) != 0)
			abort();
		used = (uint64_t)n;
	} else if (ret != 0 || used != (uint64_t)n) {
		abort();
	}
	perfev_ring_end(r);
	if (pg->data_tail != tail + used)
		abort();
}

static void read_snapshot(struct ctx *c, struct perfev_ring *r)
{
	int ret;

	c->records = 0;
	ret = perfev_ring_snapshot(r, on_record, c);
	if (ret == -EBADMSG && !c->records)
		return;
	if (ret < 0 || (size_t)ret != c->records || c->records > c->ring_size / 8)
		abort();
}

static volatile unsigned int sink;

static void read_aux(struct perfev_ring *r, struct perf_event_mmap_page *pg,
		     const unsigned char *aux, uint64_t aux_size, uint64_t consume)
{
	const void *p1, *p2;
	size_t n1, n2, i;
	uint64_t tail = pg->aux_tail;
	int64_t n = perfev_ring_aux_peek(r, &p1, &n1, &p2, &n2);
	int ret;

	if (n == -EBADMSG)
		return;
	if (n < 0 || (uint64_t)n > aux_size || n1 + n2 != (uint64_t)n)
		abort();
	if (n1 &&
	    ((const unsigned char *)p1 < aux || (const unsigned char *)p1 + n1 > aux + aux_size))
		abort();
	if (n2 && p2 != aux)
		abort();
	/* Touch every byte: ASan checks the pieces lie inside the allocation. */
	for (i = 0; i < n1; i++)
		sink += ((const unsigned char *)p1)[i];
	for (i = 0; i < n2; i++)
		sink += ((const unsigned char *)p2)[i];
	ret = perfev_ring_aux_consume(r, consume);
	if (consume <= (uint64_t)n ? ret != 0 || pg->aux_tail != tail + consume
				   : ret != -EINVAL || pg->aux_tail != tail)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_event_attr attr;
	struct perf_event_mmap_page *pg;
	uint64_t dsize, asize = 0, start;
	struct perfev_ring *r = NULL;
	const void *p1, *p2;
	unsigned char *mem;
	size_t n1, n2;
	struct ctx c;
	bool ow;
	size_t len, rest;
	int ret, k;

	if (size < PREFIX)
		return 0;
	dsize = 8ULL << (data[0] & 7);
	ow = data[0] & 8;
	if (data[0] & 16)
		asize = 8ULL << (data[15] & 7);
	k = data[0] >> 5 & 3;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.sample_type = layouts[k].sample_type;
	attr.read_format = layouts[k].read_format;
	attr.sample_id_all = layouts[k].sample_id_all;
	attr.sample_regs_user = 0xf;
	attr.sample_regs_intr = 0x3;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_HW_INDEX;
	memset(&c, 0, sizeof(c));
	if (perfev_sample_layout_init(&c.layout, &attr))
		abort();

	/* Exactly the mapping's size: a read past the last area is an ASan error. */
	len = PAGE_SIZE + dsize + asize;
	mem = malloc(len);
	if (!mem)
		return 0;
	memset(mem, 0, len);
	rest = size - PREFIX < dsize + asize ? size - PREFIX : dsize + asize;
	memcpy(mem + PAGE_SIZE, data + PREFIX, rest);
	pg = (struct perf_event_mmap_page *)mem;
	start = le(data + 1, 8);
	if (ow) {
		pg->data_head = start;
	} else {
		pg->data_tail = start;
		pg->data_head = start + (uint64_t)(int64_t)(int32_t)le(data + 9, 4);
	}
	if (asize) {
		pg->aux_offset = PAGE_SIZE + dsize;
		pg->aux_size = asize;
		pg->aux_tail = le(data + 16, 4);
		pg->aux_head = pg->aux_tail + (uint64_t)(int64_t)(int16_t)le(data + 20, 2);
	}
	ret = perfev_ring_from_mem(mem, len, PAGE_SIZE, ow, &r);
	if (ret || perfev_ring_data_size(r) != dsize || perfev_ring_aux_size(r) != asize)
		abort();
	c.lo = mem + PAGE_SIZE;
	c.hi = c.lo + dsize;
	c.ring_size = dsize;

	if (ow) {
		read_snapshot(&c, r);
		/* The kernel writes on (down) and a second snapshot takes what is new. */
		pg->data_head -= (uint64_t)(int64_t)(int16_t)le(data + 13, 2);
		read_snapshot(&c, r);
		if (perfev_ring_begin(r) != -EINVAL)
			abort();
	} else {
		read_normal(&c, r, pg);
		pg->data_head += (uint64_t)(int64_t)(int16_t)le(data + 13, 2);
		read_normal(&c, r, pg);
		if (perfev_ring_snapshot(r, on_record, &c) != -EINVAL)
			abort();
	}
	if (asize)
		read_aux(r, pg, mem + PAGE_SIZE + dsize, asize, le(data + 22, 2));
	else if (perfev_ring_aux_peek(r, &p1, &n1, &p2, &n2) != -EINVAL)
		abort();
	perfev_ring_free(r);
	free(mem);
	return 0;
}
