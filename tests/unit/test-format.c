// SPDX-License-Identifier: LGPL-2.1-or-later
/* sysfs format fields and CPU lists: perfev_format_parse/apply/extract, perfev_cpulist_parse. */
#include <errno.h>
#include <stdlib.h>
#include <perfev/perfev.h>
#include "harness.h"

static int parse(const char *s, struct perfev_format *f)
{
	memset(f, 0, sizeof(*f));
	return perfev_format_parse(s, strlen(s), f);
}

static const struct {
	const char *text;
	unsigned int word;
	uint64_t mask;
	unsigned int nbits;
} good_formats[] = {
    {"config:0", 0, 0x1, 1},
    {"config:21", 0, 1ULL << 21, 1},
    {"config:63", 0, 1ULL << 63, 1},
    {"config:0-7", 0, 0xff, 8},
    {"config:8-15", 0, 0xff00, 8},
    {"config:24-31", 0, 0xff000000, 8},
    {"config:32-63", 0, 0xffffffff00000000ULL, 32},
    {"config:0-63", 0, ~0ULL, 64},
    {"config:5-5", 0, 0x20, 1},
    {"config:0-7,32-35", 0, 0xf000000ffULL, 12},
    {"config:32-35,0-7", 0, 0xf000000ffULL, 12},
    {"config1:1,6-10,44", 1, 0x2 | 0x7c0 | (1ULL << 44), 7},
    {"config1:0-15", 1, 0xffff, 16},
    {"config2:0-23", 2, 0xffffff, 24},
    {"config3:0-7", 3, 0xff, 8},
    {"config3:63", 3, 1ULL << 63, 1},
    {"config:0,1,2,3", 0, 0xf, 4},
    {"config:62-63,0-1", 0, 0xc000000000000003ULL, 4},
    /* Leading zeros are still decimal. */
    {"config:007-009", 0, 0x380, 3},
    /* Trailing whitespace is ignored, as sysfs files end in a newline. */
    {"config:0-7\n", 0, 0xff, 8},
    {"config:0-7,32-35\n", 0, 0xf000000ffULL, 12},
    {"config1:3 \t\r\n\n", 1, 0x8, 1},
};

TEST(format_parse_valid)
{
	size_t i;

	for (i = 0; i < sizeof(good_formats) / sizeof(good_formats[0]); i++) {
		struct perfev_format f;
		int err = parse(good_formats[i].text, &f);

		EXPECT(err == 0, "'%s': %d", good_formats[i].text, err);
		if (err)
			continue;
		EXPECT(f.word == good_formats[i].word, "'%s': word %u, expected %u",
		       good_formats[i].text, f.word, good_formats[i].word);
		EXPECT(f.mask == good_formats[i].mask,
		       "'%s': mask %#" PRIx64 ", expected %#" PRIx64, good_formats[i].text, f.mask,
		       good_formats[i].mask);
		EXPECT(f.nbits == good_formats[i].nbits, "'%s': nbits %u, expected %u",
		       good_formats[i].text, f.nbits, good_formats[i].nbits);
	}
}

static const char *const bad_formats[] = {
    "",
    "\n",
    "garbage",
    "config",
    "config:",
    "config0-7", /* missing colon */
    "config 0-7",
    "config=0-7",
    "config4:0", /* unknown word */
    "config9:0-3",
    "config0:1",
    "Config:1",
    "CONFIG:1",
    "conf:1",
    "configx:1",
    "config:64", /* bit 64 does not exist */
    "config:0-64",
    "config:63-64",
    "config:100",
    "config:7-0", /* reversed */
    "config:1-0",
    "config:0-7,4-5", /* overlap */
    "config:0-7,7",
    "config:3,3",
    "config:0-63,0",
    "config:32-35,0-7,33",
    "config:0-",
    "config:-1",
    "config:-",
    "config:1,",
    "config:,1",
    "config:1,,2",
    "config:1--2",
    "config:1-2-3",
    "config: 1", /* leading whitespace is not trimmed */
    " config:1",
    "config:1 ,2",
    "config:0x3",
    "config:a",
    "config:1a",
    "config:1;2",
    "config:99999999999999", /* huge numbers */
    "config:18446744073709551616",
    "config:1-99999999999999999999",
    "config:4294967296",
    "config:1:2",
    "config1:",
    "config3:64",
    "config2:0-7,garbage",
};

TEST(format_parse_invalid)
{
	size_t i;

	for (i = 0; i < sizeof(bad_formats) / sizeof(bad_formats[0]); i++) {
		struct perfev_format f;
		int err = parse(bad_formats[i], &f);

		EXPECT(err == -EBADMSG, "'%s': %d, expected -EBADMSG", bad_formats[i], err);
	}
}

TEST(format_parse_bounded)
{
	struct perfev_format f = {0};
	const char text[] = "config:0-7junk";
	char unterminated[10];

	/* Only text[0..len) is read. */
	CHECK_INT(perfev_format_parse(text, 10, &f), 0);
	CHECK_U64(f.mask, 0xff);
	CHECK_INT(perfev_format_parse(text, 9, &f), -EBADMSG);
	CHECK_INT(perfev_format_parse(text, 8, &f), 0);
	CHECK_U64(f.mask, 0x1);
	CHECK_INT(perfev_format_parse(text, 7, &f), -EBADMSG);
	CHECK_INT(perfev_format_parse(text, 0, &f), -EBADMSG);
	CHECK_INT(perfev_format_parse(text, 11, &f), -EBADMSG);
	/* No NUL terminator at all: must not read past the 10 bytes (ASan). */
	memcpy(unterminated, "config2:63", 10);
	CHECK_INT(perfev_format_parse(unterminated, sizeof(unterminated), &f), 0);
	CHECK_INT(f.word, 2);
	CHECK_U64(f.mask, 1ULL << 63);
}

TEST(format_parse_keeps_name)
{
	struct perfev_format f = {.name = "sentinel"};

	CHECK_INT(perfev_format_parse("config1:4-5", 11, &f), 0);
	CHECK_STR(f.name, "sentinel");
	CHECK_INT(f.word, 1);
	CHECK_U64(f.mask, 0x30);
	CHECK_INT(f.nbits, 2);
	CHECK(perfev_format_parse(NULL, 4, &f) < 0);
	CHECK(perfev_format_parse("config:1", 8, NULL) < 0);
}

/* Independent reference: the mask of a list of (lo, hi) ranges. */
static uint64_t ranges_mask(const unsigned int (*r)[2], size_t n)
{
	uint64_t m = 0;
	size_t i;
	unsigned int b;

	for (i = 0; i < n; i++)
		for (b = r[i][0]; b <= r[i][1]; b++)
			m |= 1ULL << b;
	return m;
}

/* Reference spread: value bit k goes to the k-th lowest set bit of the mask. */
static uint64_t ref_spread(uint64_t mask, uint64_t value)
{
	uint64_t out = 0;
	unsigned int b, k = 0;

	for (b = 0; b < 64; b++) {
		if (!(mask >> b & 1))
			continue;
		if (value >> k & 1)
			out |= 1ULL << b;
		k++;
	}
	return out;
}

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

TEST(format_random_ranges)
{
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	int iter;

	for (iter = 0; iter < 2000; iter++) {
		unsigned int r[8][2];
		size_t n = 0, i;
		char text[256];
		size_t pos;
		unsigned int bit = (unsigned int)(xorshift(&seed) % 8);
		unsigned int word = (unsigned int)(xorshift(&seed) % 4);
		struct perfev_format f;
		uint64_t mask, word_in, word_out, v, maxv;

		/* Non-overlapping ascending ranges with random gaps. */
		while (n < 8 && bit < 64) {
			unsigned int len = (unsigned int)(xorshift(&seed) % 12);
			unsigned int hi = bit + len > 63 ? 63 : bit + len;

			r[n][0] = bit;
			r[n][1] = hi;
			n++;
			bit = hi + 1 + (unsigned int)(xorshift(&seed) % 6);
		}
		/* Write them in a shuffled order: order must not matter. */
		for (i = n; i > 1; i--) {
			size_t j = xorshift(&seed) % i;
			unsigned int t0 = r[i - 1][0], t1 = r[i - 1][1];

			r[i - 1][0] = r[j][0];
			r[i - 1][1] = r[j][1];
			r[j][0] = t0;
			r[j][1] = t1;
		}
		pos = (size_t)snprintf(text, sizeof(text), "config%s:",
				       word ? (word == 1   ? "1"
					       : word == 2 ? "2"
							   : "3")
					    : "");
		for (i = 0; i < n; i++) {
			if (r[i][0] == r[i][1] && xorshift(&seed) & 1)
				pos += (size_t)snprintf(text + pos, sizeof(text) - pos, "%s%u",
							i ? "," : "", r[i][0]);
			else
				pos += (size_t)snprintf(text + pos, sizeof(text) - pos, "%s%u-%u",
							i ? "," : "", r[i][0], r[i][1]);
		}
		mask = ranges_mask((const unsigned int(*)[2])r, n);
		CHECK_INT(parse(text, &f), 0);
		EXPECT(f.word == word, "'%s': word %u", text, f.word);
		EXPECT(f.mask == mask, "'%s': mask %#" PRIx64 ", expected %#" PRIx64, text, f.mask,
		       mask);
		EXPECT(f.nbits == (unsigned int)__builtin_popcountll(mask), "'%s': nbits %u", text,
		       f.nbits);
		if (harness_done())
			return;

		maxv = f.nbits == 64 ? ~0ULL : (1ULL << f.nbits) - 1;
		v = xorshift(&seed) & maxv;
		word_in = xorshift(&seed);
		word_out = word_in;
		CHECK_INT(perfev_format_apply(&f, v, &word_out), 0);
		/* Bits outside the field are kept, bits inside carry the value. */
		EXPECT(word_out == ((word_in & ~mask) | ref_spread(mask, v)),
		       "'%s': apply %#" PRIx64 " to %#" PRIx64 " gave %#" PRIx64, text, v, word_in,
		       word_out);
		EXPECT(perfev_format_extract(&f, word_out) == v,
		       "'%s': extract %#" PRIx64 " from %#" PRIx64 " gave %#" PRIx64, text, v,
		       word_out, perfev_format_extract(&f, word_out));
		EXPECT(perfev_format_apply(&f, maxv, &word_out) == 0, "'%s': max value refused",
		       text);
		EXPECT(perfev_format_extract(&f, word_out) == maxv, "'%s': max value lost", text);
		if (f.nbits < 64) {
			word_out = word_in;
			EXPECT(perfev_format_apply(&f, maxv + 1, &word_out) == -ERANGE,
			       "'%s': value %#" PRIx64 " accepted", text, maxv + 1);
			EXPECT(word_out == word_in, "'%s': word changed on -ERANGE", text);
		}
		if (harness_done())
			return;
	}
}

TEST(format_apply_split_range)
{
	struct perfev_format f;
	uint64_t w = 0;

	CHECK_INT(parse("config:0-7,32-35", &f), 0);
	CHECK_INT(perfev_format_apply(&f, 0xabc, &w), 0);
	CHECK_U64(w, 0xa000000bcULL);
	CHECK_U64(perfev_format_extract(&f, w), 0xabc);
	/* Other bits of the word survive; the field's old bits are cleared. */
	w = ~0ULL;
	CHECK_INT(perfev_format_apply(&f, 0x123, &w), 0);
	CHECK_U64(w, 0xfffffff1ffffff23ULL);
	CHECK_U64(perfev_format_extract(&f, w), 0x123);
	CHECK_INT(perfev_format_apply(&f, 0, &w), 0);
	CHECK_U64(w, ~0xf000000ffULL);
	CHECK_U64(perfev_format_extract(&f, w), 0);
	/* Extract ignores bits outside the mask. */
	CHECK_U64(perfev_format_extract(&f, 0xffffff00ULL), 0);
	CHECK_U64(perfev_format_extract(&f, 0x100000080ULL), 0x180);
}

TEST(format_apply_range_error)
{
	struct perfev_format f;
	uint64_t w = 0x5555aaaa5555aaaaULL;

	CHECK_INT(parse("config:0-7,32-35", &f), 0);
	CHECK_INT(perfev_format_apply(&f, 0x1000, &w), -ERANGE);
	CHECK_U64(w, 0x5555aaaa5555aaaaULL);
	CHECK_INT(perfev_format_apply(&f, ~0ULL, &w), -ERANGE);
	CHECK_U64(w, 0x5555aaaa5555aaaaULL);
	CHECK_INT(perfev_format_apply(&f, 0xfff, &w), 0);

	CHECK_INT(parse("config1:5", &f), 0);
	w = 0;
	CHECK_INT(perfev_format_apply(&f, 2, &w), -ERANGE);
	CHECK_U64(w, 0);
	CHECK_INT(perfev_format_apply(&f, 1, &w), 0);
	CHECK_U64(w, 0x20);

	CHECK_INT(parse("config:32-63", &f), 0);
	w = 7;
	CHECK_INT(perfev_format_apply(&f, 1ULL << 32, &w), -ERANGE);
	CHECK_U64(w, 7);
	CHECK_INT(perfev_format_apply(&f, 0xffffffff, &w), 0);
	CHECK_U64(w, 0xffffffff00000007ULL);
}

TEST(format_full_width)
{
	static const uint64_t values[] = {
	    0, 1, 0x8000000000000000ULL, ~0ULL, 0x0123456789abcdefULL, 0xfedcba9876543210ULL};
	struct perfev_format f;
	size_t i;

	CHECK_INT(parse("config:0-63", &f), 0);
	CHECK_INT(f.nbits, 64);
	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		uint64_t w = 0x1111;

		CHECK_INT(perfev_format_apply(&f, values[i], &w), 0);
		CHECK_U64(w, values[i]);
		CHECK_U64(perfev_format_extract(&f, w), values[i]);
	}
	/* All 64 bits listed one by one, in reverse. */
	{
		char text[400];
		size_t pos = (size_t)snprintf(text, sizeof(text), "config3:");
		int b;

		for (b = 63; b >= 0; b--)
			pos += (size_t)snprintf(text + pos, sizeof(text) - pos, "%s%d",
						b == 63 ? "" : ",", b);
		CHECK_INT(parse(text, &f), 0);
		CHECK_INT(f.word, 3);
		CHECK_U64(f.mask, ~0ULL);
		CHECK_INT(f.nbits, 64);
	}
	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		uint64_t w = 0;

		CHECK_INT(perfev_format_apply(&f, values[i], &w), 0);
		CHECK_U64(perfev_format_extract(&f, w), values[i]);
	}
}

TEST(format_high_bit_field)
{
	struct perfev_format f;
	uint64_t w = 0;

	/* Bits 62-63: exercises the top of the word without the full-width shortcut. */
	CHECK_INT(parse("config2:62-63", &f), 0);
	CHECK_INT(perfev_format_apply(&f, 3, &w), 0);
	CHECK_U64(w, 0xc000000000000000ULL);
	CHECK_U64(perfev_format_extract(&f, w), 3);
	CHECK_INT(perfev_format_apply(&f, 4, &w), -ERANGE);
	CHECK_INT(parse("config:1-63", &f), 0);
	CHECK_INT(f.nbits, 63);
	w = 1;
	CHECK_INT(perfev_format_apply(&f, (1ULL << 63) - 1, &w), 0);
	CHECK_U64(w, ~0ULL);
	CHECK_INT(perfev_format_apply(&f, 1ULL << 63, &w), -ERANGE);
	CHECK_U64(w, ~0ULL);
}

/* ---- CPU lists ------------------------------------------------------- */

static int cpus_of(const char *s, int *cpus, size_t max)
{
	return perfev_cpulist_parse(s, strlen(s), cpus, max);
}

TEST(cpulist_valid)
{
	static const struct {
		const char *text;
		int n;
		int cpus[12];
	} cases[] = {
	    {"0", 1, {0}},
	    {"7", 1, {7}},
	    {"0-3", 4, {0, 1, 2, 3}},
	    {"0-3\n", 4, {0, 1, 2, 3}},
	    {"0-3,8,10-11", 7, {0, 1, 2, 3, 8, 10, 11}},
	    {"0-3,8,10-11\n", 7, {0, 1, 2, 3, 8, 10, 11}},
	    {"5-5", 1, {5}},
	    {"1,3,5,7", 4, {1, 3, 5, 7}},
	    {"62-65", 4, {62, 63, 64, 65}},
	    {"1023", 1, {1023}},
	    {"0-1,4-5,8-9", 6, {0, 1, 4, 5, 8, 9}},
	};
	size_t i;
	int j;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int cpus[16];
		int n;

		memset(cpus, 0xff, sizeof(cpus));
		n = cpus_of(cases[i].text, cpus, 16);
		EXPECT(n == cases[i].n, "'%s': %d cpus, expected %d", cases[i].text, n, cases[i].n);
		for (j = 0; n == cases[i].n && j < n; j++)
			EXPECT(cpus[j] == cases[i].cpus[j], "'%s': cpu[%d] %d, expected %d",
			       cases[i].text, j, cpus[j], cases[i].cpus[j]);
		EXPECT(n < 0 || n >= 16 || cpus[n] == -1, "'%s': wrote past the list",
		       cases[i].text);
	}
}

TEST(cpulist_empty)
{
	int cpus[2] = {-1, -1};

	CHECK_INT(cpus_of("", cpus, 2), 0);
	CHECK_INT(cpus_of("\n", cpus, 2), 0);
	CHECK_INT(cpus_of("  \n", cpus, 2), 0);
	CHECK_INT(cpus[0], -1);
	CHECK_INT(perfev_cpulist_parse("0-3", 0, cpus, 2), 0);
}

TEST(cpulist_truncated)
{
	int cpus[8];
	int i;

	memset(cpus, 0xff, sizeof(cpus));
	/* The full count is returned, only @max entries are stored. */
	CHECK_INT(cpus_of("0-3,8,10-11", cpus, 2), 7);
	CHECK_INT(cpus[0], 0);
	CHECK_INT(cpus[1], 1);
	for (i = 2; i < 8; i++)
		CHECK_INT(cpus[i], -1);
	CHECK_INT(cpus_of("4,6,8", cpus, 0), 3);
	CHECK_INT(cpus[0], 0);
	CHECK_INT(cpus_of("0-1023", NULL, 0), 1024);
	CHECK_INT(cpus_of("0-1023", cpus, 8), 1024);
	CHECK_INT(cpus[7], 7);
	/* Bounded by len, not the NUL. */
	CHECK_INT(perfev_cpulist_parse("0-3,9", 3, cpus, 8), 4);
	CHECK_INT(perfev_cpulist_parse("0-3,9", 4, cpus, 8), -EBADMSG);
	CHECK_INT(perfev_cpulist_parse("12", 1, cpus, 8), 1);
	CHECK_INT(cpus[0], 1);
}

TEST(cpulist_invalid)
{
	static const char *const bad[] = {
	    "a",	 "-",	    "-1",   "0-",    "3-1",	   "1,",
	    ",1",	 "1,,2",    "1--2", "1-2-3", "0x1",	   "1 2",
	    " 1",	 "1;2",	    "1.5",  "0-3,a", "9999999999", "0-99999999999",
	    "0-2000000", "2000000",
	};
	int cpus[4];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int n = cpus_of(bad[i], cpus, 4);

		EXPECT(n == -EBADMSG, "'%s': %d, expected -EBADMSG", bad[i], n);
	}
	CHECK(perfev_cpulist_parse(NULL, 3, cpus, 4) < 0);
}

/*
 * pmu.h: "@cpus (up to @max entries, ascending)".  The kernel's own lists
 * are sorted, but a list from elsewhere may not be: the result must then
 * be ascending and free of repeats (the kernel reads such a list as a
 * set, bitmap_parselist()), or the list refused with -EBADMSG.
 */
TEST(cpulist_unsorted)
{
	static const struct {
		const char *text;
		int n;
		int cpus[8];
	} cases[] = {
	    {"8,0-3", 5, {0, 1, 2, 3, 8}},
	    {"3,1", 2, {1, 3}},
	    {"1,1", 1, {1}},
	    {"0-3,2-5", 6, {0, 1, 2, 3, 4, 5}},
	};
	size_t i;
	int j;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int cpus[16], n;
		bool ok;

		memset(cpus, 0xff, sizeof(cpus));
		n = cpus_of(cases[i].text, cpus, 16);
		if (n == -EBADMSG)
			continue;
		ok = n == cases[i].n;
		for (j = 0; ok && j < n; j++)
			ok = cpus[j] == cases[i].cpus[j];
		EXPECT(ok, "'%s': %d cpus [%d,%d,%d,%d,%d,%d], expected %d ascending (or -EBADMSG)",
		       cases[i].text, n, cpus[0], cpus[1], cpus[2], cpus[3], cpus[4], cpus[5],
		       cases[i].n);
	}
}
