// SPDX-License-Identifier: LGPL-2.1-or-later
/* The mmap-page read protocol on synthetic pages with fake rdpmc/rdtsc, and TSC <-> perf time. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <perfev/perfev.h>
#include "count/mmap-page.h"
#include "harness.h"

/* ---- a fake CPU ---------------------------------------------------------------- */

struct fake {
	struct perf_event_mmap_page *pg; /* the page the hooks may rewrite */
	uint64_t pmc, tsc;		 /* what rdpmc and rdtsc return */
	uint32_t counter;		 /* the counter rdpmc was last asked for */
	int rdpmc_calls, rdtsc_calls;
	void (*on_rdtsc)(struct fake *f); /* called inside rdtsc, before it returns */
	void (*on_rdpmc)(struct fake *f);
};

static uint64_t fake_rdpmc(uint32_t counter, void *ctx)
{
	struct fake *f = ctx;

	f->counter = counter;
	f->rdpmc_calls++;
	if (f->on_rdpmc)
		f->on_rdpmc(f);
	return f->pmc;
}

static uint64_t fake_rdtsc(void *ctx)
{
	struct fake *f = ctx;

	f->rdtsc_calls++;
	if (f->on_rdtsc)
		f->on_rdtsc(f);
	return f->tsc;
}

static struct perfev__page_reader reader_of(struct fake *f)
{
	struct perfev__page_reader r = {fake_rdpmc, fake_rdtsc, f};

	return r;
}

/* A page whose counter is on the PMU as hardware counter 3 (index 4), times usable. */
static void page_init(struct perf_event_mmap_page *pg, struct fake *f)
{
	memset(pg, 0, sizeof(*pg));
	memset(f, 0, sizeof(*f));
	f->pg = pg;
	pg->lock = 10;
	pg->cap_bit0_is_deprecated = 1;
	pg->cap_user_rdpmc = 1;
	pg->cap_user_time = 1;
	pg->index = 4;
	pg->pmc_width = 48;
	pg->time_enabled = 5000;
	pg->time_running = 5000;
	pg->time_mult = 1 << 10;
	pg->time_shift = 10; /* 1 ns per cycle */
}

/*
 * The manual's conversion (perf_event_open(2), "time_shift, time_mult,
 * time_offset"), written out again here: quot * mult + ((rem * mult) >> shift).
 */
static uint64_t manual_ns(uint64_t cyc, uint32_t mult, uint16_t shift)
{
	uint64_t quot = cyc >> shift;
	uint64_t rem = cyc & (((uint64_t)1 << shift) - 1);

	return quot * mult + ((rem * mult) >> shift);
}

/* The same quantity exactly: floor(cyc * mult / 2^shift), in 128 bits. */
static uint64_t exact_ns(uint64_t cyc, uint32_t mult, uint16_t shift)
{
	return (uint64_t)(((unsigned __int128)cyc * mult) >> shift);
}

/* ---- counts ---------------------------------------------------------------------- */

static const struct {
	uint16_t width;
	int64_t offset;
	uint64_t raw; /* what rdpmc returns */
	uint64_t count;
} counts[] = {
    {48, 1000, 0x1234, 1000 + 0x1234},
    /* -16 in 48 bits */
    {48, 1000, 0xfffffffffff0ULL, 984},
    /* bits above the width are not the counter's */
    {48, 1000, 0xabcd000000001234ULL, 1000 + 0x1234},
    /* a negative offset (the usual case) and a positive counter */
    {48, -(1LL << 47) + 5000, (1ULL << 47) - 1000, 4000},
    /* the most negative 48-bit value */
    {48, 1LL << 47, 0x800000000000ULL, 0},
    /* -1 in 40 bits */
    {40, 10, 0xffffffffffULL, 9},
    /* the largest positive 40-bit value */
    {40, 5, 0x7fffffffffULL, 5 + 0x7fffffffffULL},
    /* a negative 40-bit value with bits 40-47 set above it */
    {40, 1LL << 39, 0xff8000000000ULL, 0},
    {40, -3, 0x0000000100ULL, 253},
    {64, 7, 0xffffffffffffffffULL, 6},
    {64, 0, 0x8000000000000000ULL, 0x8000000000000000ULL},
    {64, -100, 1000, 900},
};

TEST(count_is_offset_plus_sign_extended_pmc)
{
	struct perf_event_mmap_page pg;
	struct fake f;
	size_t i;

	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		struct perfev__page_value v;
		struct perfev__page_reader r;
		int ret;

		page_init(&pg, &f);
		r = reader_of(&f);
		pg.pmc_width = counts[i].width;
		pg.offset = counts[i].offset;
		f.pmc = counts[i].raw;
		memset(&v, 0xa5, sizeof(v));
		ret = perfev__page_read(&pg, &r, &v);
		EXPECT(ret == 0, "case %zu: %d", i, ret);
		EXPECT(v.count == counts[i].count,
		       "case %zu: width %u offset %lld pmc %#llx: count %#llx, expected %#llx", i,
		       counts[i].width, (long long)counts[i].offset,
		       (unsigned long long)counts[i].raw, (unsigned long long)v.count,
		       (unsigned long long)counts[i].count);
		EXPECT(f.rdpmc_calls == 1 && f.counter == 3,
		       "case %zu: rdpmc called %d times for counter %u; expected once, counter "
		       "index - 1 = 3",
		       i, f.rdpmc_calls, f.counter);
		EXPECT(v.on_pmu, "case %zu: on_pmu false with index 4", i);
	}
}

/* Multiplexed out: index 0.  The count is the offset, running stands still. */
TEST(index_zero_is_offset_and_running_stays)
{
	struct perf_event_mmap_page pg;
	struct perfev__page_value v;
	struct perfev__page_reader r;
	struct fake f;

	page_init(&pg, &f);
	r = reader_of(&f);
	pg.index = 0;
	pg.offset = 123456;
	pg.time_enabled = 1000;
	pg.time_running = 400;
	pg.time_offset = 50;
	f.tsc = 700; /* 1 ns per cycle: 750 ns since the page was written */
	f.pmc = 999;
	CHECK_INT(perfev__page_read(&pg, &r, &v), 0);
	CHECK_U64(v.count, 123456);
	CHECK_U64(v.enabled, 1000 + 750);
	CHECK_U64(v.running, 400);
	CHECK(!v.on_pmu);
	CHECK_INT(f.rdpmc_calls, 0);
	CHECK_INT(f.rdtsc_calls, 1);

	/* Back on the PMU, both times move. */
	pg.index = 1;
	CHECK_INT(perfev__page_read(&pg, &r, &v), 0);
	CHECK_U64(v.count, 123456 + 999);
	CHECK_U64(v.enabled, 1000 + 750);
	CHECK_U64(v.running, 400 + 750);
	CHECK(v.on_pmu);
	CHECK_INT(f.counter, 0);
}

/* ---- time ---------------------------------------------------------------------- */

static const struct {
	uint32_t mult;
	uint16_t shift;
	uint64_t cyc;
} convs[] = {
    {1 << 10, 10, 123456789},
    {715827883, 31, 3000000007ULL},	   /* a 3 GHz TSC: a third of a ns per cycle */
    {715827883, 31, (1ULL << 40) + 12345}, /* cyc * mult overflows 64 bits */
    {715827883, 31, (1ULL << 31) - 1},	   /* everything in the remainder */
    {3355443200U, 32, 987654321987ULL},	   /* 0.78125 ns per cycle, shift 32 */
    {5, 0, 1000},			   /* no shift: no remainder */
    {1, 1, 3},				   /* half a ns per cycle: rounds down */
    {0x9a3c2b1d, 24, 0x123456789abULL},
};

TEST(cyc_to_ns_is_the_manual_formula)
{
	size_t i;

	/* A value worked out by hand: 3000000007 cycles at 3 GHz. */
	CHECK_U64(perfev__cyc_to_ns(3000000007ULL, 715827883, 31), 1000000002);
	CHECK_U64(perfev__cyc_to_ns((1ULL << 40) + 12345, 715827883, 31), 366503880211ULL);
	for (i = 0; i < sizeof(convs) / sizeof(convs[0]); i++) {
		uint64_t got = perfev__cyc_to_ns(convs[i].cyc, convs[i].mult, convs[i].shift);

		EXPECT(got == manual_ns(convs[i].cyc, convs[i].mult, convs[i].shift),
		       "case %zu: %llu, the manual says %llu", i, (unsigned long long)got,
		       (unsigned long long)manual_ns(convs[i].cyc, convs[i].mult, convs[i].shift));
		EXPECT(got == exact_ns(convs[i].cyc, convs[i].mult, convs[i].shift),
		       "case %zu: %llu, exactly %llu", i, (unsigned long long)got,
		       (unsigned long long)exact_ns(convs[i].cyc, convs[i].mult, convs[i].shift));
	}
}

TEST(times_extrapolated_with_mult_shift)
{
	struct perf_event_mmap_page pg;
	struct fake f;
	size_t i;

	for (i = 0; i < sizeof(convs) / sizeof(convs[0]); i++) {
		struct perfev__page_value v;
		struct perfev__page_reader r;
		uint64_t delta;

		page_init(&pg, &f);
		r = reader_of(&f);
		pg.time_enabled = 1000000;
		pg.time_running = 600000;
		/* time_offset is usually "negative": minus the ns of the TSC at the last update. */
		pg.time_offset = (uint64_t) - (int64_t)(i * 1000 + 17);
		pg.time_mult = convs[i].mult;
		pg.time_shift = convs[i].shift;
		f.tsc = convs[i].cyc;
		delta = pg.time_offset + manual_ns(convs[i].cyc, convs[i].mult, convs[i].shift);
		CHECK_INT(perfev__page_read(&pg, &r, &v), 0);
		EXPECT(v.enabled == 1000000 + delta, "case %zu: enabled %llu, expected %llu", i,
		       (unsigned long long)v.enabled, (unsigned long long)(1000000 + delta));
		EXPECT(v.running == 600000 + delta, "case %zu: running %llu, expected %llu", i,
		       (unsigned long long)v.running, (unsigned long long)(600000 + delta));
	}
}

/* A TSC narrower than 64 bits: cyc = time_cycles + ((cyc - time_cycles) & time_mask). */
TEST(short_time_counter_wraps)
{
	struct perf_event_mmap_page pg;
	struct perfev__page_value v;
	struct perfev__page_reader r;
	struct fake f;
	uint64_t cyc;

	page_init(&pg, &f);
	r = reader_of(&f);
	pg.cap_user_time_short = 1;
	pg.time_cycles = 0xffffff00ULL; /* the 32-bit counter at the last update */
	pg.time_mask = 0xffffffffULL;
	pg.time_mult = 715827883;
	pg.time_shift = 31;
	pg.time_offset = (uint64_t)-1431655680LL;
	f.tsc = 0x100; /* it wrapped since: 0x200 cycles later */
	cyc = 0xffffff00ULL + ((0x100 - 0xffffff00ULL) & 0xffffffffULL);
	CHECK_U64(cyc, 0x100000100ULL);
	CHECK_INT(perfev__page_read(&pg, &r, &v), 0);
	CHECK_U64(v.enabled, 5000 + pg.time_offset + manual_ns(cyc, 715827883, 31));
	CHECK_U64(v.running, 5000 + pg.time_offset + manual_ns(cyc, 715827883, 31));

	/* Without the capability bit the same fields are ignored. */
	pg.cap_user_time_short = 0;
	f.tsc = 0x100;
	CHECK_INT(perfev__page_read(&pg, &r, &v), 0);
	CHECK_U64(v.enabled, 5000 + pg.time_offset + manual_ns(0x100, 715827883, 31));
}

TEST(unusable_pages_give_eagain)
{
	struct perf_event_mmap_page pg;
	struct perfev__page_value v;
	struct perfev__page_reader r, no_pmc;
	struct fake f;

	/* No rdpmc: the offset is only the count as of the last switch. */
	page_init(&pg, &f);
	r = reader_of(&f);
	pg.cap_user_rdpmc = 0;
	CHECK_INT(perfev__page_read(&pg, &r, &v), -EAGAIN);
	CHECK_INT(f.rdpmc_calls, 0);
	/* ... also when the counter is not on the PMU. */
	pg.index = 0;
	CHECK_INT(perfev__page_read(&pg, &r, &v), -EAGAIN);

	/* No time conversion: the times cannot be brought up to date. */
	page_init(&pg, &f);
	r = reader_of(&f);
	pg.cap_user_time = 0;
	CHECK_INT(perfev__page_read(&pg, &r, &v), -EAGAIN);
	CHECK_INT(f.rdtsc_calls, 0);

	/* What a software event's page looks like on Linux 6.18: no capability. */
	page_init(&pg, &f);
	r = reader_of(&f);
	pg.cap_user_rdpmc = 0;
	pg.cap_user_time = 0;
	pg.index = 0;
	pg.pmc_width = 0;
	CHECK_INT(perfev__page_read(&pg, &r, &v), -EAGAIN);

	/* No reader, or a counter on the PMU and nothing to read it with. */
	page_init(&pg, &f);
	CHECK_INT(perfev__page_read(&pg, NULL, &v), -EAGAIN);
	no_pmc = reader_of(&f);
	no_pmc.rdpmc = NULL;
	CHECK_INT(perfev__page_read(&pg, &no_pmc, &v), -EAGAIN);
	/* ... which is fine while it is multiplexed out. */
	pg.index = 0;
	CHECK_INT(perfev__page_read(&pg, &no_pmc, &v), 0);
	CHECK_U64(v.count, 0);
}

/* ---- the seqlock ------------------------------------------------------------------ */

/*
 * The kernel updating the page while we read it, in two steps: the first
 * rdtsc finds lock made odd (an update began after our first load), the
 * second finds every field rewritten and lock even again.
 */
static void update_in_two_steps(struct fake *f)
{
	if (f->rdtsc_calls == 1) {
		f->pg->lock++;		       /* 11: the kernel is writing */
		f->pg->time_enabled = 9999999; /* half-written */
	} else if (f->rdtsc_calls == 2) {
		f->pg->time_enabled = 20000;
		f->pg->time_running = 20000;
		f->pg->offset = 777000;
		f->pg->index = 2;
		f->pmc = 5;
		f->tsc = 100;
		f->pg->lock++; /* 12: done */
	}
}

TEST(seqlock_retries_until_consistent)
{
	struct perf_event_mmap_page pg;
	struct perfev__page_value v;
	struct perfev__page_reader r;
	struct fake f;

	page_init(&pg, &f);
	r = reader_of(&f);
	pg.offset = 1000;
	f.pmc = 1;
	f.tsc = 50;
	f.on_rdtsc = update_in_two_steps;
	CHECK_INT(perfev__page_read(&pg, &r, &v), 0);
	/* Three passes: changed under us, odd, then a clean one. */
	CHECK_INT(f.rdtsc_calls, 3);
	CHECK_U64(v.count, 777000 + 5);
	CHECK_U64(v.enabled, 20000 + 100);
	CHECK_U64(v.running, 20000 + 100);
	CHECK_INT(f.counter, 1);
}

/* The same, the update noticed by rdpmc: the last thing read before the lock check. */
static void update_at_rdpmc(struct fake *f)
{
	if (f->rdpmc_calls == 1) {
		f->pg->lock += 2;
		f->pg->offset = -50;
		f->pg->time_enabled = 7000;
		f->pmc = 0xffffffffffffULL; /* -1 */
	}
}

TEST(seqlock_change_seen_at_rdpmc)
{
	struct perf_event_mmap_page pg;
	struct perfev__page_value v;
	struct perfev__page_reader r;
	struct fake f;

	page_init(&pg, &f);
	r = reader_of(&f);
	pg.offset = 1000;
	f.pmc = 1;
	f.on_rdpmc = update_at_rdpmc;
	CHECK_INT(perfev__page_read(&pg, &r, &v), 0);
	CHECK_INT(f.rdpmc_calls, 2);
	CHECK_U64(v.count, (uint64_t)-51);
	CHECK_U64(v.enabled, 7000);
}

/*
 * A lock odd when first read that does not move during the pass: only
 * its oddness says the kernel is mid-update.  The update completes during
 * the second pass (so that one is retried too), the third is clean.
 */
static void finish_update(struct fake *f)
{
	if (f->rdtsc_calls == 2) {
		f->pg->offset = 42;
		f->pg->lock++;
	}
}

TEST(seqlock_odd_lock_is_not_trusted)
{
	struct perf_event_mmap_page pg;
	struct perfev__page_value v;
	struct perfev__page_reader r;
	struct fake f;

	page_init(&pg, &f);
	r = reader_of(&f);
	pg.lock = 7;
	pg.offset = 1;
	f.on_rdtsc = finish_update;
	CHECK_INT(perfev__page_read(&pg, &r, &v), 0);
	CHECK_INT(f.rdtsc_calls, 3);
	CHECK_U64(v.count, 42);
}

/* A read that never returns would hang the runner: fail it instead. */
static void on_alarm(int sig)
{
	static const char msg[] = "FAIL seqlock_gives_up: perfev__page_read() still retrying "
				  "after 10 s\n";

	(void)sig;
	if (write(1, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(1);
}

static void never_settles(struct fake *f)
{
	f->pg->lock += 2;
}

TEST(seqlock_gives_up)
{
	struct perf_event_mmap_page pg;
	struct perfev__page_value v;
	struct perfev__page_reader r;
	struct fake f;

	signal(SIGALRM, on_alarm);
	alarm(10);
	/* A writer that died mid-update: lock stays odd. */
	page_init(&pg, &f);
	r = reader_of(&f);
	pg.lock = 13;
	CHECK_INT(perfev__page_read(&pg, &r, &v), -EAGAIN);
	EXPECT(f.rdtsc_calls > 1 && f.rdtsc_calls <= 100000,
	       "%d passes before giving up on an odd lock", f.rdtsc_calls);

	/* A lock that changes on every pass. */
	page_init(&pg, &f);
	r = reader_of(&f);
	f.on_rdtsc = never_settles;
	CHECK_INT(perfev__page_read(&pg, &r, &v), -EAGAIN);
	EXPECT(f.rdtsc_calls > 1 && f.rdtsc_calls <= 100000,
	       "%d passes before giving up on a moving lock", f.rdtsc_calls);
	alarm(0);
	signal(SIGALRM, SIG_DFL);
}

/* ---- TSC <-> perf time ------------------------------------------------------------ */

/* perf_event_open(2), time_zero: the two directions, written out independently. */
static uint64_t manual_to_perf(const struct perfev_time_conv *c, uint64_t cyc)
{
	if (c->time_short)
		cyc = c->time_cycles + ((cyc - c->time_cycles) & c->time_mask);
	return c->time_zero + manual_ns(cyc, c->time_mult, c->time_shift);
}

static uint64_t manual_to_tsc(const struct perfev_time_conv *c, uint64_t ns)
{
	uint64_t t = ns - c->time_zero;
	uint64_t quot = t / c->time_mult, rem = t % c->time_mult;

	return (quot << c->time_shift) + (rem << c->time_shift) / c->time_mult;
}

static const uint64_t tsc_values[] = {
    0, 1, 2999, 3000000007ULL, 0x123456789abULL, (1ULL << 40) + 12345, 0x7fffffffffULL};

TEST(tsc_perf_time_round_trip)
{
	struct perfev_time_conv c = {.sz = sizeof(c)};
	size_t i, k;

	for (k = 0; k < sizeof(convs) / sizeof(convs[0]); k++) {
		/* 2^shift / mult cycles per ns, rounded up: what one ns of rounding is worth. */
		uint64_t slack = ((1ULL << convs[k].shift) + convs[k].mult - 1) / convs[k].mult;

		c.time_zero = 1000000000ULL * (k + 1) + 17;
		c.time_mult = convs[k].mult;
		c.time_shift = convs[k].shift;
		for (i = 0; i < sizeof(tsc_values) / sizeof(tsc_values[0]); i++) {
			uint64_t cyc = tsc_values[i];
			uint64_t ns = perfev_tsc_to_perf_time(&c, cyc);
			uint64_t back = perfev_perf_time_to_tsc(&c, ns);

			EXPECT(ns == manual_to_perf(&c, cyc),
			       "conv %zu cyc %#llx: %llu, manual %llu", k, (unsigned long long)cyc,
			       (unsigned long long)ns, (unsigned long long)manual_to_perf(&c, cyc));
			EXPECT(back == manual_to_tsc(&c, ns),
			       "conv %zu ns %llu: %#llx, manual %#llx", k, (unsigned long long)ns,
			       (unsigned long long)back, (unsigned long long)manual_to_tsc(&c, ns));
			/* Both directions round down: back to at most one ns worth of cycles. */
			EXPECT(back <= cyc && cyc - back <= slack,
			       "conv %zu: cyc %#llx -> %llu ns -> cyc %#llx", k,
			       (unsigned long long)cyc, (unsigned long long)ns,
			       (unsigned long long)back);
			/* perf time -> TSC -> perf time loses less than a ns plus one cycle. */
			back = perfev_tsc_to_perf_time(&c, perfev_perf_time_to_tsc(&c, ns + 5));
			EXPECT(back <= ns + 5 &&
				   ns + 5 - back <= 1 + ((uint64_t)convs[k].mult >> convs[k].shift),
			       "conv %zu: %llu ns -> tsc -> %llu ns", k,
			       (unsigned long long)(ns + 5), (unsigned long long)back);
		}
	}
	/* A value by hand: time_zero + 1 s at 3 GHz. */
	c.time_zero = 500;
	c.time_mult = 715827883;
	c.time_shift = 31;
	CHECK_U64(perfev_tsc_to_perf_time(&c, 3000000007ULL), 500 + 1000000002ULL);
	CHECK_U64(perfev_perf_time_to_tsc(&c, 500 + 1000000002ULL), 3000000004ULL);
	/* A conversion with no multiplier is not a conversion. */
	c.time_mult = 0;
	CHECK_U64(perfev_perf_time_to_tsc(&c, 12345), 0);
}

TEST(tsc_perf_time_short_counter)
{
	struct perfev_time_conv c = {.sz = sizeof(c)};
	uint64_t ns, wrapped, back;

	c.time_zero = 1000;
	c.time_mult = 1 << 10;
	c.time_shift = 10; /* 1 ns per cycle, for readable numbers */
	c.time_short = true;
	c.time_cycles = 0xfffff000ULL; /* a 32-bit counter near its wrap */
	c.time_mask = 0xffffffffULL;

	/* Before the wrap: as if it were 64 bits wide. */
	CHECK_U64(perfev_tsc_to_perf_time(&c, 0xfffff800ULL), 1000 + 0xfffff800ULL);
	/* After it: 0x10 read means 0x1000 + 0x10 cycles past time_cycles. */
	wrapped = 0x10;
	ns = perfev_tsc_to_perf_time(&c, wrapped);
	CHECK_U64(ns, manual_to_perf(&c, wrapped));
	CHECK_U64(ns, 1000 + 0x100000010ULL);
	/*
	 * Back: the manual's formula (and perf's perf_time_to_tsc()) gives the
	 * unwrapped cycle count; the counter itself reads it masked.
	 */
	back = perfev_perf_time_to_tsc(&c, ns);
	CHECK_U64(back, manual_to_tsc(&c, ns));
	CHECK_U64(back & c.time_mask, wrapped);
	CHECK_U64(perfev_tsc_to_perf_time(&c, back), ns);
	/* Bits of the raw value above the mask do not count. */
	CHECK_U64(perfev_tsc_to_perf_time(&c, 0xabcd00000010ULL), ns);
}

/* The real reader exists where the instructions do; rdtsc alone is always safe to run. */
TEST(hw_reader)
{
#if defined(__x86_64__) || defined(__i386__)
	uint64_t a, b;

	CHECK(perfev__hw_reader && perfev__hw_reader->rdtsc && perfev__hw_reader->rdpmc);
	a = perfev__hw_reader->rdtsc(perfev__hw_reader->ctx);
	b = perfev__hw_reader->rdtsc(perfev__hw_reader->ctx);
	CHECK(a != 0 && b >= a);
#else
	CHECK(perfev__hw_reader == NULL);
#endif
}
