// SPDX-License-Identifier: LGPL-2.1-or-later
/* "Did you mean": perfev__edit_distance and the perfev__suggest_* helpers. */
#include <errno.h>
#include <stdlib.h>
#include <perfev/perfev.h>
#include "common/internal.h"
#include "event/parse.h"
#include "harness.h"

static unsigned int dist(const char *a, const char *b)
{
	return perfev__edit_distance(a, strlen(a), b, strlen(b));
}

/* Reference: optimal string alignment distance, case-insensitive, written plainly. */
static unsigned int ref_dist(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b), i, j;
	unsigned int d[40][40];

	for (i = 0; i <= n; i++)
		d[i][0] = (unsigned int)i;
	for (j = 0; j <= m; j++)
		d[0][j] = (unsigned int)j;
	for (i = 1; i <= n; i++) {
		for (j = 1; j <= m; j++) {
			int ca = a[i - 1] | 0x20, cb = b[j - 1] | 0x20;
			unsigned int best = d[i - 1][j] + 1;

			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + (ca != cb) < best)
				best = d[i - 1][j - 1] + (ca != cb);
			if (i > 1 && j > 1 && ca == (b[j - 2] | 0x20) && (a[i - 2] | 0x20) == cb &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[n][m];
}

TEST(edit_distance_basics)
{
	static const struct {
		const char *a, *b;
		unsigned int d;
	} cases[] = {
	    {"", "", 0},
	    {"cycles", "cycles", 0},
	    {"", "abc", 3},
	    {"abc", "", 3},
	    {"cycles", "cycle", 1},  /* delete */
	    {"cycle", "cycles", 1},  /* insert */
	    {"cycles", "cyclez", 1}, /* substitute */
	    {"cycles", "cylces", 1}, /* transpose */
	    {"ab", "ba", 1},
	    {"abc", "bac", 1},
	    {"abcd", "badc", 2},
	    {"CYCLES", "cycles", 0}, /* case-insensitive */
	    {"Task-Clock", "task-clock", 0},
	    {"CS", "cs", 0},
	    {"instuctions", "instructions", 1},
	    {"task-clok", "task-clock", 1},
	    {"kitten", "sitting", 3},
	    {"ca", "abc", 3}, /* OSA, not full Damerau: 3 */
	    {"abc", "xyz", 3},
	    {"a", "b", 1},
	    {"sched", "schd", 1},
	    {"L1-dcache-lods", "L1-dcache-loads", 1},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned int d = dist(cases[i].a, cases[i].b);

		EXPECT(d == cases[i].d, "d('%s', '%s') = %u, expected %u", cases[i].a, cases[i].b,
		       d, cases[i].d);
		EXPECT(dist(cases[i].b, cases[i].a) == d, "d('%s', '%s') not symmetric", cases[i].a,
		       cases[i].b);
	}
}

TEST(edit_distance_bounded_by_len)
{
	const char text[] = "cyclesXYZ";

	/* Only @n / @m bytes are compared. */
	CHECK_INT(perfev__edit_distance(text, 6, "cycles", 6), 0);
	CHECK_INT(perfev__edit_distance(text, 9, "cycles", 6), 3);
	CHECK_INT(perfev__edit_distance("cycles", 0, "cycles", 6), 6);
	CHECK_INT(perfev__edit_distance("", 0, "", 0), 0);
}

TEST(edit_distance_too_long)
{
	char a[200], b[200];

	memset(a, 'a', sizeof(a));
	memset(b, 'a', sizeof(b));
	/* 64 characters are compared... */
	CHECK_INT(perfev__edit_distance(a, 64, b, 64), 0);
	CHECK_INT(perfev__edit_distance(a, 64, b, 63), 1);
	/* ...longer words compare as far apart, without reading past them. */
	CHECK_U64(perfev__edit_distance(a, 65, b, 65), ~0U);
	CHECK_U64(perfev__edit_distance(a, 65, b, 3), ~0U);
	CHECK_U64(perfev__edit_distance(a, 3, b, 65), ~0U);
	CHECK_U64(perfev__edit_distance(a, sizeof(a), b, sizeof(b)), ~0U);
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

/* @n letters of @alphabet (of @len) into @w, and its NUL. */
static void random_word(uint64_t *seed, char *w, size_t n, const char *alphabet, size_t len)
{
	for (size_t i = 0; i < n; i++)
		w[i] = alphabet[xorshift(seed) % len];
	w[n] = '\0';
}

TEST(edit_distance_random)
{
	static const char alphabet[] = "abcABC-_";
	uint64_t seed = 12345;
	int iter;

	for (iter = 0; iter < 5000; iter++) {
		char a[16], b[16];
		size_t na = xorshift(&seed) % 12, nb = xorshift(&seed) % 12;
		unsigned int d, r;

		random_word(&seed, a, na, alphabet, 8);
		random_word(&seed, b, nb, alphabet, 8);
		d = dist(a, b);
		r = ref_dist(a, b);
		EXPECT(d == r, "d('%s', '%s') = %u, reference %u", a, b, d, r);
		EXPECT(d == dist(b, a), "d('%s', '%s') not symmetric", a, b);
		EXPECT(d <= (na > nb ? na : nb), "d('%s', '%s') = %u above the longer length", a, b,
		       d);
		if (harness_done())
			return;
	}
}

/* Run the suggester over @cands for @word and return the hint. */
static const char *suggest(const char *word, const char *const *cands, size_t n)
{
	static char hint[192];
	struct perfev__suggest sg;
	size_t i;

	perfev__suggest_init(&sg, word, strlen(word));
	for (i = 0; i < n; i++)
		perfev__suggest_add(&sg, cands[i]);
	perfev__suggest_hint(&sg, hint, sizeof(hint));
	return hint;
}

#define SUGGEST(word, ...)                                                                         \
	suggest(word, (const char *const[]){__VA_ARGS__},                                          \
		sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))

TEST(suggest_one)
{
	CHECK_STR(SUGGEST("cyclez", "cycles", "instructions", "task-clock"),
		  "did you mean 'cycles'?");
	CHECK_STR(SUGGEST("instuctions", "cycles", "instructions"), "did you mean 'instructions'?");
	CHECK_STR(SUGGEST("CS", "cs", "faults"), "did you mean 'cs'?");
	CHECK_STR(SUGGEST("schd", "sched", "irq", "timer"), "did you mean 'sched'?");
	/* The closest wins over farther candidates seen earlier. */
	CHECK_STR(SUGGEST("cyclesx", "cycle", "cycles"), "did you mean 'cycles'?");
	CHECK_STR(SUGGEST("cyclesxx", "cyclesxxyy", "cycles", "cyclesx"),
		  "did you mean 'cyclesx'?");
}

TEST(suggest_two_and_three)
{
	CHECK_STR(SUGGEST("faultz", "faults", "cycles", "faulty"),
		  "did you mean 'faults' or 'faulty'?");
	CHECK_STR(SUGGEST("abcdefgh", "abcdefgX", "abcdefgY", "abcdefgZ"),
		  "did you mean 'abcdefgX', 'abcdefgY' or 'abcdefgZ'?");
	/* At most three. */
	CHECK_STR(SUGGEST("abcdefgh", "abcdefgA", "abcdefgB", "abcdefgC", "abcdefgD"),
		  "did you mean 'abcdefgA', 'abcdefgB' or 'abcdefgC'?");
}

TEST(suggest_no_duplicates)
{
	/* "cycles" is offered by several tables. */
	CHECK_STR(SUGGEST("cyclez", "cycles", "cycles", "cycles"), "did you mean 'cycles'?");
	CHECK_STR(SUGGEST("cyclez", "cycles", "cyclex", "cycles", "cyclex"),
		  "did you mean 'cycles' or 'cyclex'?");
	/* A candidate that contains another is not a duplicate of it. */
	CHECK_STR(SUGGEST("abcdefgh", "bcdefgh", "abcdefgh2"),
		  "did you mean 'bcdefgh' or 'abcdefgh2'?");
	CHECK_STR(SUGGEST("abcdefgh", "abcdefgh2", "bcdefgh"),
		  "did you mean 'abcdefgh2' or 'bcdefgh'?");
	CHECK_STR(SUGGEST("xcdefgh", "cdefgh", "bcdefgh", "cdefgh"),
		  "did you mean 'cdefgh' or 'bcdefgh'?");
}

TEST(suggest_nothing)
{
	/* The word itself, exactly, is not a suggestion. */
	CHECK_STR(SUGGEST("cycles", "cycles"), "");
	CHECK_STR(SUGGEST("cycles"), "");
	CHECK_STR(SUGGEST("cycles", ""), "");
	CHECK_STR(SUGGEST("instructions", "cycles", "task-clock", "faults"), "");
	CHECK_STR(SUGGEST("xyz", "cycles", "instructions"), "");
}

/*
 * How far a candidate may be: "plausibly a typo".  A two-letter word with
 * both letters wrong, or a four-letter word with two edits, is a different
 * word, not a typo ("zz" is not a misspelt "cs").
 */
TEST(suggest_threshold)
{
	static const struct {
		const char *word, *cand, *hint;
	} cases[] = {
	    /* Short words (up to 4 letters): one edit. */
	    {"cz", "cs", "did you mean 'cs'?"},
	    {"zz", "cs", ""},
	    {"ab", "cs", ""},
	    {"abcd", "abxy", ""},
	    {"cyc", "tsc", ""},
	    /* Up to 8 letters: two edits. */
	    {"cyclesqq", "cycles", "did you mean 'cycles'?"},
	    {"abcdefgh", "abcdexyz", ""},
	    /* Longer: three edits. */
	    {"instructio", "instructions", "did you mean 'instructions'?"},
	    {"instrxxtions", "instructions", "did you mean 'instructions'?"},
	    {"instrxxxons", "instructions", ""},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *h = SUGGEST(cases[i].word, cases[i].cand);

		EXPECT(!strcmp(h, cases[i].hint),
		       "'%s' with candidate '%s' (distance %u): \"%s\", expected \"%s\"",
		       cases[i].word, cases[i].cand, dist(cases[i].word, cases[i].cand), h,
		       cases[i].hint);
	}
}

/*
 * The suggester stops measuring a candidate once it is sure to be too far:
 * it must take exactly those within the threshold, transpositions included.
 */
TEST(suggest_random_threshold)
{
	static const char alphabet[] = "abAB-";
	uint64_t seed = 4242;
	int iter;

	for (iter = 0; iter < 20000; iter++) {
		char a[16], b[16];
		size_t na = 1 + xorshift(&seed) % 11, nb = 1 + xorshift(&seed) % 11, i;
		unsigned int r, limit;
		bool taken;

		random_word(&seed, a, na, alphabet, 5);
		/* Mostly a few edits of @a, so that many are near the threshold. */
		memcpy(b, a, na + 1);
		if (xorshift(&seed) % 4) {
			for (i = xorshift(&seed) % 5; i > 0 && na > 1; i--) {
				size_t k = xorshift(&seed) % (na - 1);
				char t = b[k];

				b[k] = b[k + 1];
				b[k + 1] = t;
				if (xorshift(&seed) % 3 == 0)
					b[k] = alphabet[xorshift(&seed) % 5];
			}
		} else {
			random_word(&seed, b, nb, alphabet, 5);
		}
		r = ref_dist(a, b);
		limit = na <= 4 ? 1 : na <= 8 ? 2 : 3;
		taken = SUGGEST(a, b)[0] != '\0';
		/* The word itself is no suggestion; another case of it is. */
		EXPECT(taken == (strcmp(a, b) && r <= limit),
		       "'%s' with candidate '%s' (distance %u, limit %u): %s", a, b, r, limit,
		       taken ? "offered" : "not offered");
		if (harness_done())
			return;
	}
}

TEST(suggest_hint_truncated)
{
	struct perfev__suggest sg;
	char small[16];

	perfev__suggest_init(&sg, "cache-mises", strlen("cache-mises"));
	perfev__suggest_add(&sg, "cache-misses");
	perfev__suggest_add(&sg, "cache-missed");
	memset(small, 'x', sizeof(small));
	perfev__suggest_hint(&sg, small, sizeof(small));
	CHECK_INT(strlen(small), sizeof(small) - 1);
	CHECK(!strncmp(small, "did you mean 'c", sizeof(small) - 1));
	/* Long candidates do not overflow the internal list either. */
	{
		char word[65], c[3][65];
		int i;

		memset(word, 'w', 64);
		word[64] = '\0';
		for (i = 0; i < 3; i++) {
			memcpy(c[i], word, 65);
			c[i][i] = 'a';
		}
		perfev__suggest_init(&sg, word, 64);
		for (i = 0; i < 3; i++)
			perfev__suggest_add(&sg, c[i]);
		perfev__suggest_hint(&sg, small, sizeof(small));
		CHECK(!strncmp(small, "did you mean '", 14));
		CHECK(sg.nout >= 1);
	}
}

/* The hint as the parser gives it for a misspelt event. */
TEST(suggest_through_parser)
{
	static const struct {
		const char *event, *hint;
	} cases[] = {
	    {"cyclez", "did you mean 'cycles'?"},
	    {"instuctions", "did you mean 'instructions'?"},
	    {"task-clok", "did you mean 'task-clock'?"},
	    {"CS", "did you mean 'cs'?"},
	    /* Nothing close: no "did you mean". */
	    {"zz", NULL},
	    {"qqqqqqqqqqqqq", NULL},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct perfev_parse_error pe = {.sz = sizeof(pe)};
		struct perfev_evspec *spec = NULL;
		int err = perfev_evspec_parse(cases[i].event, NULL, &spec, &pe);

		EXPECT(err == -ENOENT, "'%s': %d", cases[i].event, err);
		if (cases[i].hint)
			EXPECT(!strcmp(pe.hint, cases[i].hint),
			       "'%s': hint \"%s\", expected \"%s\"", cases[i].event, pe.hint,
			       cases[i].hint);
		else
			EXPECT(!strstr(pe.hint, "did you mean"), "'%s': hint \"%s\"",
			       cases[i].event, pe.hint);
		perfev_evspec_free(spec);
	}
}
