// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A busy loop with a name no other code has, for perfev top's test and
 * bench: perfev_top_hot_spin() burns the CPU, called from
 * perfev_top_spin_caller() (not a tail call, so frame-pointer chains
 * show the caller).
 *
 *   top-spin [SECONDS]     how long to spin, default 30
 */
#include <stdlib.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

static volatile unsigned long sink;

/* Global, so that their names stay as written in the symbol table. */
void perfev_top_hot_spin(void);
void perfev_top_spin_caller(void);

NOINLINE void perfev_top_hot_spin(void)
{
	unsigned long i;

	for (i = 0; i < 1000000; i++)
		sink += i;
}

NOINLINE void perfev_top_spin_caller(void)
{
	perfev_top_hot_spin();
	sink++; /* keeps the call a call */
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 30, end = now() + secs;

	while (now() < end)
		perfev_top_spin_caller();
	return 0;
}
