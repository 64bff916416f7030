// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev annotate's workload: a hot loop of its own (work, with a branch
 * and a division so that several instructions take samples) and one in
 * libm (sin and cos), built with -g by tests/cli/test-annotate.sh.
 */
#include <math.h>

/* Another value, another build id: the stripped and missing binaries are builds of their own. */
#ifndef LOOPS
#define LOOPS 20
#endif

static volatile double sink;
static volatile int N = 15000000;

__attribute__((noinline)) double work(int n)
{
	double s = 0;

	for (int i = 0; i < n; i++) {
		if (i & 1)
			s += i * 0.5;
		else
			s -= i / 3.0;
	}
	return s;
}

__attribute__((noinline)) double trig(int n)
{
	double s = 0;

	for (int i = 1; i < n; i++)
		s += sin(i) * cos(i);
	return s;
}

int main(void)
{
	for (int k = 0; k < LOOPS; k++) {
		sink = work(N);
		sink = trig(N / 10);
	}
	return 0;
}
