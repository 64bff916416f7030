// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Two hot functions whose shares the arguments set, for perfev diff's
 * tests and bench: a run of `diff-workload 3 1` spends three quarters
 * of its time in hot_a, `diff-workload 1 3` three quarters in hot_b,
 * so two recordings show a real shift; two runs with the same arguments
 * show none.  Built with frame pointers, so that `record -g` unwinds
 * every frame.
 *
 *   diff-workload A B [MILLISECONDS]     A:B the shares, about 600 ms in all
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Not inlined, nor cloned under another name: the profiles name these functions. */
#define NOINLINE static __attribute__((noipa))

static unsigned long spin(unsigned long n, unsigned long x)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		/* Keep the compiler from folding the loop away. */
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

NOINLINE unsigned long hot_a(unsigned long n, unsigned long x)
{
	return spin(n, x) ^ 1;
}

NOINLINE unsigned long hot_b(unsigned long n, unsigned long x)
{
	return spin(n, x) ^ 2;
}

NOINLINE unsigned long warm_c(unsigned long n, unsigned long x)
{
	return spin(n, x) ^ 3;
}

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	unsigned long a = argc > 1 ? strtoul(argv[1], NULL, 0) : 1;
	unsigned long b = argc > 2 ? strtoul(argv[2], NULL, 0) : 1;
	double ms = argc > 3 ? strtod(argv[3], NULL) : 600, start = now_ms();
	unsigned long x = 1, unit = 20000;

	/* Rounds of fixed work in the set proportions, until the CPU time is spent. */
	while (now_ms() - start < ms) {
		x = hot_a(a * unit, x);
		x = hot_b(b * unit, x);
		x = warm_c(unit / 4, x);
	}
	printf("diff-workload: %lu:%lu, result %#lx\n", a, b, x);
	return 0;
}
