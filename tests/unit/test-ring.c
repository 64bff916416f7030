// SPDX-License-Identifier: LGPL-2.1-or-later
/* Ring buffers over synthetic memory: framing, wrap, bad sizes, tails, snapshots, the AUX area. */
#include <perfev/ring.h>
#include "record-synth.h"

/* ---- a fake mapping and a fake kernel writing into it ------------------------------ */

#define PAGE 4096

/*
 * One metadata page, the data area, then the AUX area, in a block of
 * exactly that size: a read past the last area is an ASan error.
 */
struct fake {
	unsigned char *mem;
	size_t len;
	struct perf_event_mmap_page *pg;
	unsigned char *data;
	uint64_t size;
	unsigned char *aux;
	uint64_t aux_size;
	uint64_t whead; /* where the fake kernel writes next */
	bool overwrite;
	struct perfev_ring *r;
};

/* Build the ring again over the same memory, as its page now says. */
static bool fake_reopen(struct fake *f)
{
	int ret;

	perfev_ring_free(f->r);
	f->r = NULL;
	ret = perfev_ring_from_mem(f->mem, f->len, PAGE, f->overwrite, &f->r);
	if (ret)
		harness_fail(__FILE__, __LINE__, "perfev_ring_from_mem: %d", ret);
	return !ret;
}

/*
 * Lay out @size data bytes and @aux_size AUX bytes, the reader's tail and
 * the writer's head at @start, and build the ring; false after failing.
 */
static bool fake_init(struct fake *f, uint64_t size, uint64_t aux_size, uint64_t start,
		      bool overwrite)
{
	void *mem;
	int ret;

	memset(f, 0, sizeof(*f));
	f->len = PAGE + size + aux_size;
	if (posix_memalign(&mem, 64, f->len))
		abort();
	/* Not zeros: a record read from the wrong place shows. */
	memset(mem, 0xee, f->len);
	memset(mem, 0, PAGE);
	f->mem = mem;
	f->pg = mem;
	f->data = f->mem + PAGE;
	f->size = size;
	if (aux_size) {
		f->aux = f->data + size;
		f->aux_size = aux_size;
		f->pg->aux_offset = PAGE + size;
		f->pg->aux_size = aux_size;
	}
	f->whead = start;
	f->overwrite = overwrite;
	f->pg->data_head = start;
	f->pg->data_tail = overwrite ? 0 : start;
	ret = perfev_ring_from_mem(f->mem, f->len, PAGE, overwrite, &f->r);
	if (ret) {
		harness_fail(__FILE__, __LINE__, "perfev_ring_from_mem: %d", ret);
		free(f->mem);
		f->mem = NULL;
		return false;
	}
	return true;
}

static void fake_free(struct fake *f)
{
	perfev_ring_free(f->r);
	free(f->mem);
	memset(f, 0, sizeof(*f));
}

/* @n bytes at ring position @pos, wrapping at the end of the data area. */
static void fake_store(struct fake *f, uint64_t pos, const void *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		f->data[(pos + i) & (f->size - 1)] = ((const uint8_t *)p)[i];
}

/* As the kernel writes forward: at the head, then the head moves past. */
static void fwd_put(struct fake *f, const void *rec, size_t n)
{
	fake_store(f, f->whead, rec, n);
	f->whead += n;
	f->pg->data_head = f->whead;
}

/*
 * As the kernel writes a write_backward ring: the head moves down by the
 * record's size and the record is laid out forward from there.
 */
static void bwd_put(struct fake *f, const void *rec, size_t n)
{
	f->whead -= n;
	fake_store(f, f->whead, rec, n);
	f->pg->data_head = f->whead;
}

/* Whether a record of @n bytes at @pos crosses the end of the data area. */
static bool wraps(const struct fake *f, uint64_t pos, size_t n)
{
	return (pos & (f->size - 1)) + n > f->size;
}

/* A record of @size bytes, its payload derived from @seed, in @buf. */
static void mkrec(uint8_t *buf, uint32_t type, uint16_t size, uint8_t seed)
{
	struct perf_event_header h = {.type = type, .misc = seed, .size = size};
	size_t i;

	memcpy(buf, &h, sizeof(h));
	for (i = sizeof(h); i < size; i++)
		buf[i] = (uint8_t)(seed * 31 + i * 7);
}

/* A header claiming @size bytes (possibly nonsense). */
static void mkhdr(uint8_t *buf, uint16_t size)
{
	struct perf_event_header h = {.type = PERF_RECORD_LOST, .size = size};

	memcpy(buf, &h, sizeof(h));
}

static uint8_t recbuf[16][65536];

/* Read the ring's next record and compare it with @want (@n bytes); false after failing. */
static bool next_is(struct fake *f, const uint8_t *want, size_t n, int line)
{
	const struct perf_event_header *h = NULL;
	int ret = perfev_ring_next(f->r, &h);

	if (ret != 1 || !h) {
		harness_fail(__FILE__, line, "perfev_ring_next: %d, expected a record of %zu bytes",
			     ret, n);
		return false;
	}
	if (h->size != n || memcmp(h, want, n)) {
		harness_fail(__FILE__, line, "record of %u bytes differs from the %zu written",
			     h->size, n);
		return false;
	}
	return true;
}

#define NEXT_IS(f, want, n) CHECK(next_is(f, want, n, __LINE__))

/* ---- normal mode --------------------------------------------------------------- */

TEST(records_in_order)
{
	static const uint16_t sizes[] = {16, 24, 8, 64, 40, 256, 1000, 8, 504};
	const size_t n = sizeof(sizes) / sizeof(sizes[0]);
	const struct perf_event_header *h;
	uint64_t total = 0, off = 0;
	struct fake f;
	size_t i;

	CHECK(fake_init(&f, 4096, 0, 0, false));
	CHECK_INT(perfev_ring_fd(f.r), -1);
	CHECK(perfev_ring_page(f.r) == f.pg);
	CHECK_INT(perfev_ring_data_size(f.r), 4096);
	CHECK_INT(perfev_ring_aux_size(f.r), 0);
	CHECK(!perfev_ring_pending(f.r));
	CHECK_INT(perfev_ring_begin(f.r), 0);
	CHECK_INT(perfev_ring_next(f.r, &h), 0);
	for (i = 0; i < n; i++) {
		mkrec(recbuf[i], PERF_RECORD_MMAP + (uint32_t)i, sizes[i], (uint8_t)i);
		fwd_put(&f, recbuf[i], sizes[i]);
		total += sizes[i];
	}
	CHECK(perfev_ring_pending(f.r));
	CHECK_INT(perfev_ring_begin(f.r), total);
	for (i = 0; i < n; i++) {
		/* Records that do not wrap are returned in place. */
		CHECK_INT(perfev_ring_next(f.r, &h), 1);
		CHECK(h == (const void *)(f.data + off));
		CHECK_INT(h->size, sizes[i]);
		CHECK(!memcmp(h, recbuf[i], sizes[i]));
		off += sizes[i];
	}
	CHECK_INT(perfev_ring_next(f.r, &h), 0);
	CHECK_INT(perfev_ring_next(f.r, &h), 0);
	/* Nothing is given back before perfev_ring_end(). */
	CHECK_U64(f.pg->data_tail, 0);
	perfev_ring_end(f.r);
	CHECK_U64(f.pg->data_tail, total);
	CHECK(!perfev_ring_pending(f.r));
	CHECK_INT(perfev_ring_begin(f.r), 0);
	fake_free(&f);
}

/* Records crossing the end of the data area, from several starts (one across 2^64). */
TEST(wrapped_record_whole)
{
	static const uint64_t starts[] = {5 * 4096 - 40, (uint64_t)0 - 40, 4096 - 8};
	static const uint16_t sizes[] = {16, 64, 32, 4096 - 128, 8};
	const size_t n = sizeof(sizes) / sizeof(sizes[0]);
	size_t k, i;

	for (k = 0; k < sizeof(starts) / sizeof(starts[0]); k++) {
		const struct perf_event_header *h;
		uint64_t pos = starts[k], total = 0;
		size_t nwrap = 0;
		struct fake f;

		CHECK(fake_init(&f, 4096, 0, starts[k], false));
		for (i = 0; i < n; i++) {
			mkrec(recbuf[i], PERF_RECORD_MMAP, sizes[i], (uint8_t)(i + 10 * k));
			nwrap += wraps(&f, f.whead, sizes[i]);
			fwd_put(&f, recbuf[i], sizes[i]);
			total += sizes[i];
		}
		/* The fixture: one record does cross the end. */
		CHECK_INT(nwrap, 1);
		CHECK_INT(perfev_ring_begin(f.r), total);
		for (i = 0; i < n; i++) {
			CHECK_INT(perfev_ring_next(f.r, &h), 1);
			CHECK_INT(h->size, sizes[i]);
			CHECK(!memcmp(h, recbuf[i], sizes[i]));
			/* A wrapped record is a contiguous copy, the others are in place. */
			if (wraps(&f, pos, sizes[i]))
				CHECK((const uint8_t *)h < f.mem ||
				      (const uint8_t *)h >= f.mem + f.len);
			else
				CHECK((const uint8_t *)h == f.data + (pos & (f.size - 1)));
			pos += sizes[i];
		}
		CHECK_INT(perfev_ring_next(f.r, &h), 0);
		perfev_ring_end(f.r);
		CHECK_U64(f.pg->data_tail, pos);
		CHECK_U64(f.pg->data_tail, starts[k] + total);
		fake_free(&f);
	}
}

/* The largest record a header can describe, wrapped; later another wrapped one. */
TEST(wrapped_record_largest)
{
	const uint64_t size = 128 * 1024, start = size - 24;
	const struct perf_event_header *h;
	struct fake f;

	CHECK(fake_init(&f, size, 0, start, false));
	mkrec(recbuf[0], PERF_RECORD_SAMPLE, 65528, 1);
	mkrec(recbuf[1], PERF_RECORD_SAMPLE, 16, 2);
	mkrec(recbuf[2], PERF_RECORD_SAMPLE, 65528, 3);
	mkrec(recbuf[3], PERF_RECORD_SAMPLE, 40, 4);
	CHECK(wraps(&f, f.whead, 65528));
	fwd_put(&f, recbuf[0], 65528);
	fwd_put(&f, recbuf[1], 16);
	CHECK_INT(perfev_ring_begin(f.r), 65544);
	NEXT_IS(&f, recbuf[0], 65528);
	NEXT_IS(&f, recbuf[1], 16);
	CHECK_INT(perfev_ring_next(f.r, &h), 0);
	perfev_ring_end(f.r);
	CHECK_U64(f.pg->data_tail, start + 65544);

	/* Up to 24 bytes before the end again, then 40 bytes across it. */
	fwd_put(&f, recbuf[2], 65528);
	CHECK(wraps(&f, f.whead, 40));
	fwd_put(&f, recbuf[3], 40);
	CHECK_INT(perfev_ring_begin(f.r), 65568);
	NEXT_IS(&f, recbuf[2], 65528);
	NEXT_IS(&f, recbuf[3], 40);
	CHECK_INT(perfev_ring_next(f.r, &h), 0);
	perfev_ring_end(f.r);
	CHECK_U64(f.pg->data_tail, f.whead);
	fake_free(&f);
}

/*
 * Headers that cannot be framed, at the very end of the data area (and of
 * the allocation): a reader trusting them would read past it.  Each
 * follows a good record that must still be returned.
 */
TEST(bad_record_sizes)
{
	static const struct {
		uint16_t size;	/* what the header claims */
		uint64_t avail; /* bytes the head is ahead of the bad record */
	} cases[] = {
	    {0, 64},	{4, 64},     {7, 64},	  {12, 64}, {20, 64}, {72, 64},
	    {504, 496}, {65528, 64}, {65535, 64}, {16, 8},  {8, 4},   {0, 8},
	};
	const uint64_t size = 512, start = 512 - 24;
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct perf_event_header *h;
		uint8_t hdr[8];
		struct fake f;
		uint64_t head;
		int ret;

		CHECK(fake_init(&f, size, 0, start, false));
		mkrec(recbuf[0], PERF_RECORD_COMM, 16, 9);
		fwd_put(&f, recbuf[0], 16);
		mkhdr(hdr, cases[k].size);
		fake_store(&f, f.whead, hdr, sizeof(hdr));
		head = f.whead + cases[k].avail;
		f.pg->data_head = head;
		CHECK_INT(perfev_ring_begin(f.r), head - start);
		NEXT_IS(&f, recbuf[0], 16);
		ret = perfev_ring_next(f.r, &h);
		if (ret != -EBADMSG) {
			harness_fail(__FILE__, __LINE__,
				     "header size %u with %" PRIu64 " bytes left: %d, not -EBADMSG",
				     cases[k].size, cases[k].avail, ret);
			fake_free(&f);
			return;
		}
		/* The rest of the read cannot be framed: it is skipped, not retried. */
		CHECK_INT(perfev_ring_next(f.r, &h), 0);
		perfev_ring_end(f.r);
		CHECK_U64(f.pg->data_tail, head);
		/* Kernel heads are 8-aligned: a tail moved to another one is corrupt. */
		CHECK_INT(perfev_ring_begin(f.r), head & 7 ? -EBADMSG : 0);
		fake_free(&f);
	}
}

TEST(tail_exact)
{
	const struct perf_event_header *h;
	struct fake f;

	CHECK(fake_init(&f, 256, 0, 0, false));
	mkrec(recbuf[0], PERF_RECORD_SAMPLE, 16, 1);
	mkrec(recbuf[1], PERF_RECORD_SAMPLE, 32, 2);
	mkrec(recbuf[2], PERF_RECORD_SAMPLE, 48, 3);
	mkrec(recbuf[3], PERF_RECORD_SAMPLE, 24, 4);
	fwd_put(&f, recbuf[0], 16);
	fwd_put(&f, recbuf[1], 32);
	fwd_put(&f, recbuf[2], 48);

	/* begin + end without reading gives nothing back. */
	CHECK_INT(perfev_ring_begin(f.r), 96);
	perfev_ring_end(f.r);
	CHECK_U64(f.pg->data_tail, 0);

	/* One record read: the tail moves past it and no further. */
	CHECK_INT(perfev_ring_begin(f.r), 96);
	NEXT_IS(&f, recbuf[0], 16);
	perfev_ring_end(f.r);
	CHECK_U64(f.pg->data_tail, 16);

	/* A record arriving during a read waits for the next one. */
	CHECK_INT(perfev_ring_begin(f.r), 80);
	fwd_put(&f, recbuf[3], 24);
	NEXT_IS(&f, recbuf[1], 32);
	NEXT_IS(&f, recbuf[2], 48);
	CHECK_INT(perfev_ring_next(f.r, &h), 0);
	perfev_ring_end(f.r);
	CHECK_U64(f.pg->data_tail, 96);
	CHECK(perfev_ring_pending(f.r));
	CHECK_INT(perfev_ring_begin(f.r), 24);
	NEXT_IS(&f, recbuf[3], 24);
	perfev_ring_end(f.r);
	CHECK_U64(f.pg->data_tail, 120);
	fake_free(&f);

	/* A ring laid over memory already read up to 512: an early end keeps that. */
	CHECK(fake_init(&f, 256, 0, 512, false));
	perfev_ring_end(f.r);
	CHECK_U64(f.pg->data_tail, 512);
	CHECK_INT(perfev_ring_next(f.r, &h), 0);
	perfev_ring_end(f.r);
	CHECK_U64(f.pg->data_tail, 512);
	CHECK_INT(perfev_ring_begin(f.r), 0);
	fake_free(&f);
}

TEST(head_out_of_range)
{
	static const struct {
		uint64_t tail, head;
	} bad[] = {
	    {64, 32},		     /* behind the tail */
	    {64, 0},		     /* behind, to zero */
	    {0, 4096 + 8},	     /* more than a buffer ahead */
	    {0, UINT64_MAX},	     /* far ahead, or one byte behind */
	    {(uint64_t)0 - 8, 4096}, /* across 2^64, more than a buffer */
	    {4, 4},		     /* a tail that is not 8-aligned */
	};
	const struct perf_event_header *h;
	struct fake f;
	size_t k, i;

	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		int64_t ret;

		CHECK(fake_init(&f, 4096, 0, bad[k].tail, false));
		f.pg->data_head = bad[k].head;
		ret = perfev_ring_begin(f.r);
		if (ret != -EBADMSG) {
			harness_fail(__FILE__, __LINE__,
				     "tail %#" PRIx64 " head %#" PRIx64 ": %" PRId64
				     ", not -EBADMSG",
				     bad[k].tail, bad[k].head, ret);
			fake_free(&f);
			return;
		}
		CHECK_INT(perfev_ring_next(f.r, &h), 0);
		perfev_ring_end(f.r);
		CHECK_U64(f.pg->data_tail, bad[k].tail);
		fake_free(&f);
	}

	/* Exactly a buffer ahead is a full ring, read whole. */
	CHECK(fake_init(&f, 4096, 0, (uint64_t)0 - 2048, false));
	for (i = 0; i < 4096 / 64; i++) {
		mkrec(recbuf[0], PERF_RECORD_SAMPLE, 64, (uint8_t)i);
		fwd_put(&f, recbuf[0], 64);
	}
	CHECK_INT(perfev_ring_begin(f.r), 4096);
	for (i = 0; i < 4096 / 64; i++) {
		mkrec(recbuf[0], PERF_RECORD_SAMPLE, 64, (uint8_t)i);
		NEXT_IS(&f, recbuf[0], 64);
	}
	CHECK_INT(perfev_ring_next(f.r, &h), 0);
	perfev_ring_end(f.r);
	CHECK_U64(f.pg->data_tail, 2048);
	fake_free(&f);
}

static int count_records(const struct perf_event_header *h, void *ctx)
{
	(*(int *)ctx)++;
	return 0;
}

TEST(wrong_mode_and_null)
{
	const struct perf_event_header *h;
	struct fake f;
	int n = 0;

	CHECK(fake_init(&f, 256, 0, 0, true));
	CHECK_INT(perfev_ring_begin(f.r), -EINVAL);
	CHECK_INT(perfev_ring_next(f.r, &h), -EINVAL);
	perfev_ring_end(f.r); /* nothing to give back in overwrite mode */
	CHECK_U64(f.pg->data_tail, 0);
	CHECK_INT(perfev_ring_snapshot(f.r, NULL, &n), -EINVAL);
	/* A ring over memory has no event to redirect into it. */
	CHECK_INT(perfev_ring_set_output(f.r, 0), -EINVAL);
	fake_free(&f);

	CHECK(fake_init(&f, 256, 0, 0, false));
	CHECK_INT(perfev_ring_snapshot(f.r, count_records, &n), -EINVAL);
	CHECK_INT(n, 0);
	CHECK_INT(perfev_ring_next(f.r, NULL), -EINVAL);
	fake_free(&f);

	CHECK_INT(perfev_ring_begin(NULL), -EINVAL);
	CHECK_INT(perfev_ring_next(NULL, &h), -EINVAL);
	CHECK_INT(perfev_ring_snapshot(NULL, count_records, &n), -EINVAL);
	CHECK_INT(perfev_ring_set_output(NULL, 0), -EINVAL);
	CHECK(!perfev_ring_pending(NULL));
	CHECK(!perfev_ring_page(NULL));
	CHECK_INT(perfev_ring_fd(NULL), -1);
	CHECK_INT(perfev_ring_data_size(NULL), 0);
	perfev_ring_end(NULL);
	perfev_ring_free(NULL);
}

/* ---- geometry -------------------------------------------------------------------- */

/*
 * perfev_ring_from_mem() over @len bytes whose page has the given fields;
 * the data size found in *@got.  -1000: a ring with the wrong AUX size.
 */
static int geometry(size_t len, size_t page_size, uint64_t data_offset, uint64_t data_size,
		    uint64_t aux_offset, uint64_t aux_size, size_t *got)
{
	size_t alloc =
	    len < sizeof(struct perf_event_mmap_page) ? sizeof(struct perf_event_mmap_page) : len;
	struct perf_event_mmap_page *pg;
	struct perfev_ring *r = NULL;
	void *mem;
	int ret;

	if (posix_memalign(&mem, 64, alloc))
		abort();
	memset(mem, 0, alloc);
	pg = mem;
	pg->data_offset = data_offset;
	pg->data_size = data_size;
	pg->aux_offset = aux_offset;
	pg->aux_size = aux_size;
	ret = perfev_ring_from_mem(mem, len, page_size, false, &r);
	if (!ret) {
		*got = perfev_ring_data_size(r);
		if (perfev_ring_aux_size(r) != aux_size)
			ret = -1000;
		perfev_ring_free(r);
	}
	free(mem);
	return ret;
}

TEST(from_mem_geometry)
{
	static const struct {
		size_t len, page;
		uint64_t doff, dsize, aoff, asize;
		int ret;
		size_t size;
	} cases[] = {
	    /* The rest of the block, the page's own fields, up to the AUX area. */
	    {PAGE + 8192, PAGE, 0, 0, 0, 0, 0, 8192},
	    {PAGE + 8192, PAGE, PAGE, 4096, 0, 0, 0, 4096},
	    {PAGE + 8192 + 4096, PAGE, 0, 0, PAGE + 8192, 4096, 0, 8192},
	    {PAGE + 8192, PAGE, 0, 0, PAGE + 4096, 4096, 0, 4096},
	    {2 * PAGE + 4096, PAGE, 2 * PAGE, 0, 0, 0, 0, 4096},
	    {2048 + 8, 2048, 0, 0, 0, 0, 0, 8},
	    /* The page size: not a power of two, smaller than the page structure, the block. */
	    {PAGE + 4096, 3000, 0, 0, 0, 0, -EINVAL, 0},
	    {1024 + 1024, 1024, 0, 0, 0, 0, -EINVAL, 0},
	    {PAGE - 8, PAGE, 0, 0, 0, 0, -EINVAL, 0},
	    /* Data sizes: zero, not a power of two, below a header, past the block. */
	    {PAGE, PAGE, 0, 0, 0, 0, -EBADMSG, 0},
	    {PAGE + 6000, PAGE, 0, 0, 0, 0, -EBADMSG, 0},
	    {PAGE + 8192, PAGE, 0, 3000, 0, 0, -EBADMSG, 0},
	    {PAGE + 8192, PAGE, 0, 4, 0, 0, -EBADMSG, 0},
	    {PAGE + 8192, PAGE, 0, 16384, 0, 0, -EBADMSG, 0},
	    {PAGE + 8192, PAGE, PAGE + 4096, 8192, 0, 0, -EBADMSG, 0},
	    /* Data offsets: inside the metadata page, past the block, misaligned. */
	    {PAGE + 8192, PAGE, 512, 4096, 0, 0, -EBADMSG, 0},
	    {PAGE + 8192, PAGE, PAGE + 8200, 0, 0, 0, -EBADMSG, 0},
	    {PAGE + 8192, PAGE, UINT64_MAX - 7, 8, 0, 0, -EBADMSG, 0},
	    {PAGE + 8192, PAGE, PAGE + 4, 4096, 0, 0, -EBADMSG, 0},
	    /* AUX areas over the data, past the block, of a size wrapping around 2^64. */
	    {PAGE + 8192, PAGE, PAGE, 4096, PAGE + 2048, 4096, -EBADMSG, 0},
	    {PAGE + 8192, PAGE, PAGE, 4096, PAGE + 4096, 8192, -EBADMSG, 0},
	    {PAGE + 8192, PAGE, PAGE, 4096, PAGE + 8192 + 8, 8, -EBADMSG, 0},
	    {PAGE + 8192, PAGE, PAGE, 4096, PAGE + 4096, UINT64_MAX, -EBADMSG, 0},
	};
	struct perfev_ring *r = NULL;
	size_t k, got;
	int ret;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		got = 0;
		ret = geometry(cases[k].len, cases[k].page, cases[k].doff, cases[k].dsize,
			       cases[k].aoff, cases[k].asize, &got);
		EXPECT(ret == cases[k].ret, "case %zu: %d, expected %d", k, ret, cases[k].ret);
		EXPECT(ret || got == cases[k].size, "case %zu: data size %zu, expected %zu", k, got,
		       cases[k].size);
	}
	CHECK_INT(perfev_ring_from_mem(NULL, PAGE * 2, PAGE, false, &r), -EINVAL);
	CHECK(!r);
	CHECK_INT(perfev_ring_from_mem(recbuf[0], PAGE * 2, PAGE, false, NULL), -EINVAL);
}

/* ---- overwrite mode --------------------------------------------------------------- */

/* What a snapshot delivered: copies of the records, in the order of the calls. */
struct seen {
	size_t n;
	uint16_t size[64];
	uint8_t bytes[64][512];
	size_t stop_at; /* return 7 from this call (1-based); 0: never */
};

static int collect(const struct perf_event_header *h, void *ctx)
{
	struct seen *s = ctx;

	if (s->n < 64) {
		s->size[s->n] = h->size;
		memcpy(s->bytes[s->n], h, h->size < 512 ? h->size : 512);
	}
	s->n++;
	return s->stop_at && s->n == s->stop_at ? 7 : 0;
}

static struct seen seen;

/* Snapshot @f and compare with @n records of recbuf[] from @first, of @sizes[first..]. */
static bool snapshot_is(struct fake *f, size_t first, size_t n, const uint16_t *sizes, int line)
{
	size_t i;
	int ret;

	memset(&seen, 0, sizeof(seen));
	ret = perfev_ring_snapshot(f->r, collect, &seen);
	if (ret != (int)n || seen.n != n) {
		harness_fail(__FILE__, line, "snapshot: %d records (%zu calls), expected %zu", ret,
			     seen.n, n);
		return false;
	}
	for (i = 0; i < n; i++) {
		if (seen.size[i] != sizes[first + i] ||
		    memcmp(seen.bytes[i], recbuf[first + i], sizes[first + i])) {
			harness_fail(__FILE__, line,
				     "snapshot record %zu (%u bytes) is not the %u written", i,
				     seen.size[i], sizes[first + i]);
			return false;
		}
	}
	return true;
}

#define SNAPSHOT_IS(f, first, n, sizes) CHECK(snapshot_is(f, first, n, sizes, __LINE__))

TEST(snapshot_backward)
{
	/* 0-2, then 3-4, then 5-15 (528 bytes: more than the ring), then 16, then 17-18. */
	static const uint16_t sizes[19] = {16, 24, 32, 40, 48, 24, 40, 56, 72, 24,
					   40, 56, 72, 24, 40, 80, 16, 8,  32};
	size_t i, kept = 0, nwrap = 0;
	uint64_t sum = 0;
	struct fake f;

	for (i = 0; i < 16; i++)
		mkrec(recbuf[i], PERF_RECORD_SAMPLE, sizes[i], (uint8_t)i);
	CHECK(fake_init(&f, 512, 0, 0, true));
	/* Nothing written since the mapping. */
	SNAPSHOT_IS(&f, 0, 0, sizes);

	for (i = 0; i < 3; i++)
		bwd_put(&f, recbuf[i], sizes[i]);
	CHECK_U64(f.pg->data_head, (uint64_t)0 - 72);
	/* Oldest first. */
	SNAPSHOT_IS(&f, 0, 3, sizes);
	/* Nothing new since: nothing again. */
	SNAPSHOT_IS(&f, 0, 0, sizes);

	bwd_put(&f, recbuf[3], sizes[3]);
	bwd_put(&f, recbuf[4], sizes[4]);
	SNAPSHOT_IS(&f, 3, 2, sizes);

	/*
	 * More than the ring holds: the records that are still whole, counted
	 * from the newest, are what a snapshot can return; the one before
	 * them has its end overwritten by the newest.
	 */
	for (i = 5; i < 16; i++) {
		nwrap += wraps(&f, f.whead - sizes[i], sizes[i]);
		bwd_put(&f, recbuf[i], sizes[i]);
	}
	for (i = 16; i-- > 5 && sum + sizes[i] <= f.size;) {
		sum += sizes[i];
		kept++;
	}
	CHECK_INT(kept, 10); /* the fixture overflows the ring */
	CHECK(nwrap >= 1);   /* and a record crosses its end */
	SNAPSHOT_IS(&f, 16 - kept, kept, sizes);

	/* After an overflow, still only what is new. */
	mkrec(recbuf[0], PERF_RECORD_SAMPLE, sizes[16], 16);
	bwd_put(&f, recbuf[0], sizes[16]);
	CHECK(snapshot_is(&f, 0, 1, sizes + 16, __LINE__));

	/* A non-zero return stops the walk and is returned. */
	mkrec(recbuf[0], PERF_RECORD_SAMPLE, sizes[17], 17);
	mkrec(recbuf[1], PERF_RECORD_SAMPLE, sizes[18], 18);
	bwd_put(&f, recbuf[0], sizes[17]);
	bwd_put(&f, recbuf[1], sizes[18]);
	memset(&seen, 0, sizeof(seen));
	seen.stop_at = 1;
	CHECK_INT(perfev_ring_snapshot(f.r, collect, &seen), 7);
	CHECK_INT(seen.n, 1);
	CHECK_INT(seen.size[0], sizes[17]);
	CHECK(!memcmp(seen.bytes[0], recbuf[0], sizes[17]));
	fake_free(&f);
}

/* Exactly a ring's worth: every record is whole and returned. */
TEST(snapshot_full_ring)
{
	static const uint16_t sizes[8] = {64, 64, 64, 64, 64, 64, 64, 64};
	struct fake f;
	size_t i;

	CHECK(fake_init(&f, 512, 0, 0, true));
	for (i = 0; i < 8; i++) {
		mkrec(recbuf[i], PERF_RECORD_MMAP2, 64, (uint8_t)(i + 100));
		bwd_put(&f, recbuf[i], 64);
	}
	SNAPSHOT_IS(&f, 0, 8, sizes);
	fake_free(&f);
}

/* A bad header in a snapshot: the newer records are returned, nothing read past the ring. */
TEST(snapshot_bad_records)
{
	static const uint16_t bad_sizes[] = {0, 4, 12, 600, 65528};
	static const uint16_t sizes[2] = {16, 24};
	size_t k;

	for (k = 0; k < sizeof(bad_sizes) / sizeof(bad_sizes[0]); k++) {
		uint8_t hdr[16] = {0};
		struct fake f;

		CHECK(fake_init(&f, 512, 0, 0, true));
		mkrec(recbuf[0], PERF_RECORD_SAMPLE, 16, 1);
		bwd_put(&f, recbuf[0], 16);
		mkhdr(hdr, bad_sizes[k]);
		bwd_put(&f, hdr, sizeof(hdr));
		mkrec(recbuf[0], PERF_RECORD_SAMPLE, 16, 2);
		mkrec(recbuf[1], PERF_RECORD_SAMPLE, 24, 3);
		bwd_put(&f, recbuf[0], 16);
		bwd_put(&f, recbuf[1], 24);
		if (!snapshot_is(&f, 0, 2, sizes, __LINE__)) {
			harness_fail(__FILE__, __LINE__, "with a header of size %u", bad_sizes[k]);
			fake_free(&f);
			return;
		}
		fake_free(&f);
	}
}

TEST(snapshot_bad_head)
{
	static const uint64_t heads[] = {64, 8, (uint64_t)0 - 12, (uint64_t)0 - 4, 1};
	static const uint16_t sizes[1] = {32};
	struct fake f;
	size_t k;

	for (k = 0; k < sizeof(heads) / sizeof(heads[0]); k++) {
		int ret;

		CHECK(fake_init(&f, 512, 0, 0, true));
		f.pg->data_head = heads[k];
		memset(&seen, 0, sizeof(seen));
		ret = perfev_ring_snapshot(f.r, collect, &seen);
		EXPECT(ret == -EBADMSG, "head %#" PRIx64 ": %d", heads[k], ret);
		EXPECT(seen.n == 0, "head %#" PRIx64 ": %zu records", heads[k], seen.n);
		fake_free(&f);
	}

	/* A head that moved up after a good snapshot. */
	CHECK(fake_init(&f, 512, 0, 0, true));
	mkrec(recbuf[0], PERF_RECORD_SAMPLE, 32, 1);
	bwd_put(&f, recbuf[0], 32);
	SNAPSHOT_IS(&f, 0, 1, sizes);
	f.pg->data_head += 16;
	memset(&seen, 0, sizeof(seen));
	CHECK_INT(perfev_ring_snapshot(f.r, collect, &seen), -EBADMSG);
	CHECK_INT(seen.n, 0);
	fake_free(&f);
}

/* ---- AUX area -------------------------------------------------------------------- */

/* The byte a fake PMU writes at AUX position @pos. */
static uint8_t aux_byte(uint64_t pos)
{
	return (uint8_t)(pos * 13 + 5);
}

/* Write @n bytes into the AUX area from position @pos, wrapping. */
static void aux_fill(struct fake *f, uint64_t pos, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		f->aux[(pos + i) % f->aux_size] = aux_byte(pos + i);
}

/* Whether the two pieces start with the bytes of positions [@pos, @pos + @n). */
static bool aux_match(uint64_t pos, const void *p1, size_t n1, const void *p2, size_t n2, size_t n)
{
	size_t i;

	if (n1 + n2 < n || (n1 && !p1) || (n2 && !p2))
		return false;
	for (i = 0; i < n; i++) {
		uint8_t b = i < n1 ? ((const uint8_t *)p1)[i] : ((const uint8_t *)p2)[i - n1];

		if (b != aux_byte(pos + i))
			return false;
	}
	return true;
}

TEST(aux_peek_consume)
{
	const void *p1, *p2;
	size_t n1, n2;
	struct fake f;

	CHECK(fake_init(&f, 256, 256, 0, false));
	CHECK_INT(perfev_ring_aux_size(f.r), 256);
	CHECK_INT(perfev_ring_data_size(f.r), 256);
	p1 = p2 = f.mem;
	n1 = n2 = 1;
	CHECK_INT(perfev_ring_aux_peek(f.r, &p1, &n1, &p2, &n2), 0);
	CHECK(!p1 && !p2 && !n1 && !n2);

	aux_fill(&f, 0, 100);
	f.pg->aux_head = 100;
	CHECK_INT(perfev_ring_aux_peek(f.r, &p1, &n1, &p2, &n2), 100);
	CHECK(p1 == f.aux && n1 == 100 && !p2 && !n2);
	CHECK(aux_match(0, p1, n1, p2, n2, 100));
	/* Peeking takes nothing. */
	CHECK_INT(perfev_ring_aux_peek(f.r, &p1, &n1, &p2, &n2), 100);
	CHECK_U64(f.pg->aux_tail, 0);

	CHECK_INT(perfev_ring_aux_consume(f.r, 60), 0);
	CHECK_U64(f.pg->aux_tail, 60);
	CHECK_INT(perfev_ring_aux_peek(f.r, &p1, &n1, &p2, &n2), 40);
	CHECK(p1 == f.aux + 60 && n1 == 40 && !p2 && !n2);
	CHECK(aux_match(60, p1, n1, p2, n2, 40));
	/* No more than there is. */
	CHECK_INT(perfev_ring_aux_consume(f.r, 41), -EINVAL);
	CHECK_U64(f.pg->aux_tail, 60);
	CHECK_INT(perfev_ring_aux_consume(f.r, 40), 0);
	CHECK_U64(f.pg->aux_tail, 100);
	CHECK_INT(perfev_ring_aux_peek(f.r, &p1, &n1, &p2, &n2), 0);

	/* Across the end: two pieces. */
	aux_fill(&f, 100, 230);
	f.pg->aux_head = 330;
	CHECK_INT(perfev_ring_aux_peek(f.r, &p1, &n1, &p2, &n2), 230);
	CHECK(p1 == f.aux + 100 && n1 == 156 && p2 == f.aux && n2 == 74);
	CHECK(aux_match(100, p1, n1, p2, n2, 230));
	CHECK_INT(perfev_ring_aux_consume(f.r, 230), 0);
	CHECK_U64(f.pg->aux_tail, 330);

	/* A full area is fine; one byte more, or a head behind the tail, is not. */
	aux_fill(&f, 330, 256);
	f.pg->aux_head = 330 + 256;
	CHECK_INT(perfev_ring_aux_peek(f.r, &p1, &n1, &p2, &n2), 256);
	CHECK(p1 == f.aux + 74 && n1 == 182 && p2 == f.aux && n2 == 74);
	CHECK(aux_match(330, p1, n1, p2, n2, 256));
	f.pg->aux_head = 330 + 257;
	CHECK_INT(perfev_ring_aux_peek(f.r, &p1, &n1, &p2, &n2), -EBADMSG);
	CHECK_INT(perfev_ring_aux_consume(f.r, 1), -EBADMSG);
	f.pg->aux_head = 329;
	CHECK_INT(perfev_ring_aux_peek(f.r, &p1, &n1, &p2, &n2), -EBADMSG);
	CHECK_INT(perfev_ring_aux_consume(f.r, 1), -EBADMSG);
	CHECK_U64(f.pg->aux_tail, 330);

	CHECK_INT(perfev_ring_aux_peek(f.r, NULL, &n1, &p2, &n2), -EINVAL);
	CHECK_INT(perfev_ring_aux_peek(NULL, &p1, &n1, &p2, &n2), -EINVAL);
	CHECK_INT(perfev_ring_aux_consume(NULL, 0), -EINVAL);

	/* Positions across 2^64 (a ring laid over a copy taken there). */
	f.pg->aux_tail = (uint64_t)0 - 50;
	f.pg->aux_head = 50;
	aux_fill(&f, (uint64_t)0 - 50, 100);
	CHECK(fake_reopen(&f));
	CHECK_INT(perfev_ring_aux_peek(f.r, &p1, &n1, &p2, &n2), 100);
	CHECK(p1 == f.aux + 206 && n1 == 50 && p2 == f.aux && n2 == 50);
	CHECK(aux_match((uint64_t)0 - 50, p1, n1, p2, n2, 100));
	CHECK_INT(perfev_ring_aux_consume(f.r, 100), 0);
	CHECK_U64(f.pg->aux_tail, 50);
	fake_free(&f);

	/* No AUX area. */
	CHECK(fake_init(&f, 256, 0, 0, false));
	CHECK_INT(perfev_ring_aux_size(f.r), 0);
	CHECK_INT(perfev_ring_aux_peek(f.r, &p1, &n1, &p2, &n2), -EINVAL);
	CHECK_INT(perfev_ring_aux_consume(f.r, 0), -EINVAL);
	fake_free(&f);
}

/* ---- records through a ring, decoded ----------------------------------------------- */

#define ST_SID (SID_BITS | PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD)

static void put_aux_record(struct fake *f, const struct perfev_sample_layout *l, uint64_t off,
			   uint64_t size, uint64_t flags)
{
	static struct bld b;

	begin(&b, PERF_RECORD_AUX, 0);
	put64(&b, off);
	put64(&b, size);
	put64(&b, flags);
	synth_trailer(&b, l);
	finish(&b);
	fwd_put(f, b.b, b.n);
}

/* The next record is the AUX record written by put_aux_record(); its data is in the area. */
static bool check_aux_record(struct fake *f, const struct perfev_sample_layout *l, uint64_t off,
			     uint64_t size, uint64_t flags)
{
	const struct perf_event_header *h;
	struct perfev_record rec;
	const void *p1, *p2;
	size_t n1, n2;

	EQ(perfev_ring_next(f->r, &h), 1);
	EQ(perfev_record_decode(l, h, h->size, &rec), 0);
	EQ(rec.type, PERF_RECORD_AUX);
	EQ(rec.misc, 0);
	EQ(rec.size, 32 + l->id_trailer_size);
	EQ(rec.bytes == (const void *)h, 1);
	EQ(rec.u.aux.aux_offset, off);
	EQ(rec.u.aux.aux_size, size);
	EQ(rec.u.aux.flags, flags);
	if (!check_sid(l, &rec.sid))
		return false;
	/* The data it announces starts at the AUX tail. */
	EQ(f->pg->aux_tail, off);
	EQ(perfev_ring_aux_peek(f->r, &p1, &n1, &p2, &n2) >= (int64_t)size, 1);
	EQ(aux_match(off, p1, n1, p2, n2, (size_t)size), 1);
	EQ(perfev_ring_aux_consume(f->r, size), 0);
	return true;
}

TEST(aux_and_itrace_records)
{
	const struct perf_event_header *h;
	struct perfev_sample_layout l;
	struct perfev_record rec;
	static struct bld b;
	struct fake f;
	uint64_t pos;

	cur_case = "aux_and_itrace_records";
	layout_for(&l, ST_SID, 0, true);
	CHECK_INT(l.id_trailer_size, 48);
	/* ITRACE_START (64 bytes with its trailer) straddles the end of the data area. */
	CHECK(fake_init(&f, 256, 256, 256 - 16, false));
	begin(&b, PERF_RECORD_ITRACE_START, 0);
	put32(&b, 60);
	put32(&b, 61);
	synth_trailer(&b, &l);
	finish(&b);
	CHECK_INT(b.n, 64);
	CHECK(wraps(&f, f.whead, b.n));
	fwd_put(&f, b.b, b.n);
	aux_fill(&f, 0, 248);
	f.pg->aux_head = 248;
	pos = f.whead;
	put_aux_record(&f, &l, 0, 48, PERF_AUX_FLAG_TRUNCATED);
	put_aux_record(&f, &l, 48, 200, PERF_AUX_FLAG_OVERWRITE | PERF_AUX_FLAG_PARTIAL);
	CHECK_INT(perfev_ring_begin(f.r), 64 + 80 + 80);

	CHECK_INT(perfev_ring_next(f.r, &h), 1);
	CHECK_INT(perfev_record_decode(&l, h, h->size, &rec), 0);
	CHECK_INT(rec.type, PERF_RECORD_ITRACE_START);
	CHECK_INT(rec.misc, 0);
	CHECK_INT(rec.size, 64);
	CHECK(rec.bytes == (const void *)h);
	CHECK_INT(rec.u.itrace_start.pid, 60);
	CHECK_INT(rec.u.itrace_start.tid, 61);
	CHECK(check_sid(&l, &rec.sid));
	CHECK(check_aux_record(&f, &l, 0, 48, PERF_AUX_FLAG_TRUNCATED));
	CHECK(check_aux_record(&f, &l, 48, 200, PERF_AUX_FLAG_OVERWRITE | PERF_AUX_FLAG_PARTIAL));
	CHECK_INT(perfev_ring_next(f.r, &h), 0);
	perfev_ring_end(f.r);
	CHECK_U64(f.pg->data_tail, pos + 160);
	CHECK_U64(f.pg->aux_tail, 248);

	/* More AUX data, across the end of the area, announced by a record across the end of the
	 * data. */
	aux_fill(&f, 248, 64);
	f.pg->aux_head = 248 + 64;
	CHECK(wraps(&f, f.whead, 80));
	put_aux_record(&f, &l, 248, 64, 0);
	CHECK_INT(perfev_ring_begin(f.r), 80);
	CHECK(check_aux_record(&f, &l, 248, 64, 0));
	CHECK_INT(perfev_ring_next(f.r, &h), 0);
	perfev_ring_end(f.r);
	CHECK_U64(f.pg->aux_tail, 312);
	CHECK_U64(f.pg->data_tail, pos + 240);
	fake_free(&f);
}
