// SPDX-License-Identifier: LGPL-2.1-or-later
/* perfev diff's significance test: the two-proportion z statistic and its marks on known values. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "harness.h"
/* The CLI's statistic is pure arithmetic: built here on its own. */
#include "../../src/cli/diff-sig.c"

static const struct {
	uint64_t a, n1, b, n2;
	int err;
	double z; /* computed by hand: (b/n2 - a/n1) / sqrt(p(1-p)(1/n1 + 1/n2)), p pooled */
	const char *mark;
} cases[] = {
    /* 60% then 40% of 100 samples: z = -0.2 / sqrt(0.25 * 0.02) */
    {60, 100, 40, 100, 0, -2.8284271247, "**"},
    /* 45% then 56%: a change sampling noise explains at 5% */
    {45, 100, 56, 100, 0, 1.5557127062, ""},
    /* the same share of profiles of different sizes */
    {30, 100, 60, 200, 0, 0.0, ""},
    {500, 1000, 550, 1000, 0, 2.2388683142, "*"},
    {400, 1000, 480, 1000, 0, 3.6037498508, "***"},
    /* a hot function that lost most of its share, and one that moved a little */
    {2280, 4000, 564, 4000, 0, -40.0812287158, "***"},
    {1200, 4000, 1150, 4000, 0, -1.2273172627, ""},
    /* too few expected in the entry (2.5 of 100), or out of it (2 of 100): no test */
    {2, 100, 3, 100, -EDOM, 0, NULL},
    {99, 100, 97, 100, -EDOM, 0, NULL},
    /* an empty profile, and counts past the totals */
    {0, 0, 10, 100, -EDOM, 0, NULL},
    {10, 100, 0, 0, -EDOM, 0, NULL},
    {101, 100, 10, 100, -EDOM, 0, NULL},
};

TEST(diff_sig_known_values)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double z = 12345;
		int err = diff_sig_z(cases[i].a, cases[i].n1, cases[i].b, cases[i].n2, &z);

		EXPECT(err == cases[i].err, "case %zu: error %d, expected %d", i, err,
		       cases[i].err);
		if (err || cases[i].err)
			continue;
		EXPECT(fabs(z - cases[i].z) < 1e-8, "case %zu: z = %.10f, expected %.10f", i, z,
		       cases[i].z);
		EXPECT(!strcmp(diff_sig_mark(z), cases[i].mark),
		       "case %zu: mark '%s', expected '%s'", i, diff_sig_mark(z), cases[i].mark);
	}
}

/* The marks' bounds are the standard normal's two-sided 5%, 1% and 0.1% points. */
TEST(diff_sig_mark_bounds)
{
	CHECK(!strcmp(diff_sig_mark(1.9599), ""));
	CHECK(!strcmp(diff_sig_mark(1.9600), "*"));
	CHECK(!strcmp(diff_sig_mark(-1.9600), "*"));
	CHECK(!strcmp(diff_sig_mark(2.5757), "*"));
	CHECK(!strcmp(diff_sig_mark(-2.5758), "**"));
	CHECK(!strcmp(diff_sig_mark(3.2904), "**"));
	CHECK(!strcmp(diff_sig_mark(3.2905), "***"));
	CHECK(!strcmp(diff_sig_mark(-1e9), "***"));
	CHECK(!strcmp(diff_sig_mark(0), ""));
}

/* Symmetric: swapping the files flips the sign, not the size. */
TEST(diff_sig_symmetric)
{
	double z1, z2;

	CHECK_INT(diff_sig_z(123, 1000, 171, 1300, &z1), 0);
	CHECK_INT(diff_sig_z(171, 1300, 123, 1000, &z2), 0);
	CHECK(fabs(z1 + z2) < 1e-12);
}
