// SPDX-License-Identifier: LGPL-2.1-or-later
/* Sample filters: perf's --time grammar (perfev_time_ranges_parse) and perfev_filter over a source.
 */
#include <errno.h>
#include <stdlib.h>
#include <perfev/perfev.h>
#include "harness.h"
#include "unit/perfdata-synth.h"

#define S 1000000000ULL

static int parse(const char *str, uint64_t first, uint64_t last, struct perfev_time_range *r)
{
	size_t max = perfev_time_ranges_max(str);

	if (max > 8)
		abort();
	return perfev_time_ranges_parse(str, first, last, r, max);
}

TEST(time_start_stop)
{
	static const struct {
		const char *str;
		uint64_t start, end;
	} cases[] = {
	    {"10,11", 10 * S, 11 * S},
	    {"10.5,11.000000001", 10 * S + 500000000, 11 * S + 1},
	    {",11", 0, 11 * S},
	    {"10,", 10 * S, 0},
	    {",", 0, 0},
	    {"10.,11", 10 * S, 11 * S},
	    {"1.123456789,2", S + 123456789, 2 * S},
	};
	struct perfev_time_range r[8];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK_INT(parse(cases[i].str, 0, 0, r), 1);
		CHECK_U64(r[0].start, cases[i].start);
		CHECK_U64(r[0].end, cases[i].end);
	}
}

TEST(time_several_ranges)
{
	struct perfev_time_range r[8];

	CHECK_INT(parse("1,2 3,4", 0, 0, r), 2);
	CHECK_U64(r[0].start, 1 * S);
	CHECK_U64(r[0].end, 2 * S);
	CHECK_U64(r[1].start, 3 * S);
	CHECK_U64(r[1].end, 4 * S);
	/* Spaces after a comma are skipped; the end of a range stops at a space. */
	CHECK_INT(parse("1, 2  3,4 5.5,6", 0, 0, r), 3);
	CHECK_U64(r[2].start, 5 * S + 500000000);
	CHECK_U64(r[2].end, 6 * S);
	/* An open start after the first range. */
	CHECK_INT(parse("1,2 ,4", 0, 0, r), -EINVAL);
}

TEST(time_refused)
{
	static const char *const bad[] = {
	    "",		      /* no comma */
	    "10",	      /* no comma */
	    "11,10",	      /* stop before start */
	    "1.1234567891,2", /* 10 decimals */
	    "1x,2",
	    "1,2x",
	    "1,2 ",	  /* the last range ends at its stop */
	    "3,4 1,2",	  /* out of order */
	    "1,3 2,4",	  /* overlap */
	    "1,2,3",	  /* a comma inside the stop */
	    "10%x",	  /* a percent not last */
	    "0%-10%,50%", /* a piece without its dash */
	    "101%",
	    "0%-101%",
	    "20%-10%",
	    "10%/11",
	    "10%/0",
	    "0%/1",
	    "10%/2x",
	    "%/1",
	    "x%-10%",
	};
	struct perfev_time_range r[8];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT(parse(bad[i], S, 2 * S, r) == -EINVAL, "'%s' was taken", bad[i]);
	/* Not enough room. */
	CHECK_INT(perfev_time_ranges_parse("1,2 3,4", 0, 0, r, 1), -EINVAL);
	CHECK_INT(perfev_time_ranges_parse(NULL, 0, 0, r, 1), -EINVAL);
}

TEST(time_percent)
{
	struct perfev_time_range r[8];
	const uint64_t first = 100 * S, last = 110 * S;

	/* The second 10% slice: ends 1 ns before 20%. */
	CHECK_INT(parse("10%/2", first, last, r), 1);
	CHECK_U64(r[0].start, first + S);
	CHECK_U64(r[0].end, first + 2 * S - 1);
	/* The last slice keeps the last sample. */
	CHECK_INT(parse("10%/10", first, last, r), 1);
	CHECK_U64(r[0].start, first + 9 * S);
	CHECK_U64(r[0].end, last);
	CHECK_INT(parse("10%/2,10%/3", first, last, r), 2);
	CHECK_U64(r[1].start, first + 2 * S);
	CHECK_U64(r[1].end, first + 3 * S - 1);
	CHECK_INT(parse("0%-10%,30%-40%", first, last, r), 2);
	CHECK_U64(r[0].start, first);
	CHECK_U64(r[0].end, first + S - 1);
	CHECK_U64(r[1].start, first + 3 * S);
	CHECK_U64(r[1].end, first + 4 * S - 1);
	CHECK_INT(parse("0%-100%", first, last, r), 1);
	CHECK_U64(r[0].start, first);
	CHECK_U64(r[0].end, last);
	/* One percent alone: the first slice of that size. */
	CHECK_INT(parse("25%", first, last, r), 1);
	CHECK_U64(r[0].start, first);
	CHECK_U64(r[0].end, first + 2 * S + 500000000 - 1);
	/* Fractions round to the nearest ns. */
	CHECK_INT(parse("33.3%/1", 0, 1000, r), 1);
	CHECK_U64(r[0].end, 332);
	/* An empty piece is an open range, as perf reads it. */
	CHECK_INT(parse(",0%-10%", first, last, r), 2);
	CHECK_U64(r[0].start, 0);
	CHECK_U64(r[0].end, 0);
	/* Percents need the recording's first and last sample times. */
	CHECK_INT(parse("10%/2", 0, 0, r), -ENODATA);
}

TEST(time_skip)
{
	const struct perfev_time_range one = {10, 20}, open_end = {10, 0};
	const struct perfev_time_range two[] = {{10, 20}, {30, 0}};

	CHECK(!perfev_time_ranges_skip(&one, 1, 0)); /* no time: kept */
	CHECK(perfev_time_ranges_skip(&one, 1, 9));
	CHECK(!perfev_time_ranges_skip(&one, 1, 10));
	CHECK(!perfev_time_ranges_skip(&one, 1, 20));
	CHECK(perfev_time_ranges_skip(&one, 1, 21));
	CHECK(!perfev_time_ranges_skip(&open_end, 1, 1000));
	CHECK(perfev_time_ranges_skip(two, 2, 25));
	CHECK(!perfev_time_ranges_skip(two, 2, 15));
	CHECK(!perfev_time_ranges_skip(two, 2, 1000));
	CHECK(!perfev_time_ranges_skip(NULL, 0, 5));
}

/* Samples of ST_CLOCK plus CPU: ip, pid = tid, time, cpu, period. */
#define ST_CPU                                                                                     \
	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

static void rec_sample_cpu(struct buf *b, uint64_t ip, uint32_t tid, uint64_t time, uint32_t cpu)
{
	b_header(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 8 + 40);
	b_u64(b, ip);
	b_u32(b, tid);
	b_u32(b, tid);
	b_u64(b, time);
	b_u32(b, cpu);
	b_u32(b, 0);
	b_u64(b, 1);
}

/* The times of the samples of a small file that pass @f, as a bit mask by sample. */
static unsigned int kept(struct perfev_filter *f)
{
	struct perf_event_attr a;
	struct buf data = {0}, file = {0};
	struct perfev_source *src;
	const struct perfev_source_event *ev;
	struct flayout lay;
	unsigned int mask = 0, i = 0;
	int ret;

	clock_attr(&a, ST_CPU);
	rec_comm_trailer(&data, 42, "work", 1, true);
	rec_comm_trailer(&data, 43, "other", 1, true);
	rec_sample_cpu(&data, 0x401000, 42, 1 * S, 0);
	rec_sample_cpu(&data, 0x401000, 43, 2 * S, 1);
	rec_sample_cpu(&data, 0x401000, 42, 3 * S, 2);
	rec_sample_cpu(&data, 0x401000, 43, 4 * S, 3);
	{
		struct fspec spec = {.attrs = &a, .nattrs = 1, .data = &data};

		mkfile(&file, &spec, &lay);
	}
	if (perfev_source_open_mem(file.p, file.len, NULL, &src))
		abort();
	while ((ret = perfev_source_next(src, &ev)) > 0) {
		if (ev->kind != PERFEV_SOURCE_SAMPLE)
			continue;
		if (perfev_filter_sample(f, src, ev) == 1)
			mask |= 1U << i;
		i++;
	}
	EXPECT(ret == 0 && i == 4, "read %u samples, then %d", i, ret);
	perfev_source_free(src);
	free(data.p);
	free(file.p);
	return mask;
}

TEST(filter_sample)
{
	struct perfev_filter *f;

	CHECK_INT(perfev_filter_new(&f), 0);
	CHECK_INT(kept(f), 0xf);
	CHECK_INT(perfev_filter_set_time(f, "2,3", 0, 0), 0);
	CHECK_INT(kept(f), 0x6);
	CHECK_INT(perfev_filter_set_cpus(f, "2-3"), 0);
	CHECK_INT(kept(f), 0x4);
	CHECK_INT(perfev_filter_set_time(f, ",", 0, 0), 0);
	CHECK_INT(kept(f), 0xc);
	CHECK_INT(perfev_filter_add_comms(f, "other"), 0);
	CHECK_INT(kept(f), 0x8);
	perfev_filter_free(f);

	CHECK_INT(perfev_filter_new(&f), 0);
	CHECK_INT(perfev_filter_add_pids(f, "42"), 0);
	CHECK_INT(kept(f), 0x5);
	CHECK_INT(perfev_filter_add_tids(f, "43,44"), 0);
	CHECK_INT(kept(f), 0);
	perfev_filter_free(f);

	CHECK_INT(perfev_filter_new(&f), 0);
	/* No map: the address has no symbol, so a symbol list keeps nothing. */
	CHECK_INT(perfev_filter_add_symbols(f, "main"), 0);
	CHECK_INT(kept(f), 0);
	CHECK_INT(perfev_filter_add_pids(f, "x"), -EINVAL);
	CHECK_INT(perfev_filter_add_tids(f, "1,"), -EINVAL);
	CHECK_INT(perfev_filter_set_cpus(f, "1-"), -EINVAL);
	CHECK_INT(perfev_filter_set_time(f, "3,2", 0, 0), -EINVAL);
	CHECK_INT(perfev_filter_add_comms(f, ","), -EINVAL);
	perfev_filter_free(f);

	/* No map either: no object, so an object list keeps nothing. */
	CHECK_INT(perfev_filter_new(&f), 0);
	CHECK_INT(perfev_filter_add_dsos(f, "libc.so.6,[kernel.kallsyms]"), 0);
	CHECK_INT(kept(f), 0);
	CHECK_INT(perfev_filter_add_dsos(f, ""), -EINVAL);
	perfev_filter_free(f);
	perfev_filter_free(NULL);
}
