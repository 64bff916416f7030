// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev diff's significance marks: is an entry's share of the samples
 * in the new profile different from its share in the baseline by more
 * than sampling noise would make it?  Each sample lands in the entry or
 * not, so the entry's count in a profile is binomial; the two shares are
 * compared by the two-proportion z-test with the pooled proportion.
 * Pure arithmetic, so that the unit test can build it alone.
 */
#include <errno.h>
#include <math.h>
#include "diff.h"

int diff_sig_z(uint64_t a, uint64_t n1, uint64_t b, uint64_t n2, double *z)
{
	double p1, p2, p, se, x1 = (double)n1, x2 = (double)n2;

	if (!n1 || !n2 || a > n1 || b > n2)
		return -EDOM;
	p = (double)(a + b) / (x1 + x2);
	/* The normal approximation holds with enough expected in and out of the entry. */
	if (p * x1 < DIFF_SIG_MIN || p * x2 < DIFF_SIG_MIN || (1 - p) * x1 < DIFF_SIG_MIN ||
	    (1 - p) * x2 < DIFF_SIG_MIN)
		return -EDOM;
	p1 = (double)a / x1;
	p2 = (double)b / x2;
	se = sqrt(p * (1 - p) * (1 / x1 + 1 / x2));
	*z = (p2 - p1) / se;
	return 0;
}

const char *diff_sig_mark(double z)
{
	double m = z < 0 ? -z : z;

	/* The standard normal's two-sided critical values. */
	if (m >= 3.2905)
		return "***";
	if (m >= 2.5758)
		return "**";
	if (m >= 1.9600)
		return "*";
	return "";
}
