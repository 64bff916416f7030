// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Two hot functions whose shares the arguments set, for perfev diff's
 * tests and bench: a run of `diff-workload 3 1` spends about three
 * quarters of its time in hot_a, `diff-workload 1 3` in hot_b (and one
 * seventeenth in warm_c), so two recordings show a real shift; two runs
 * with the same arguments differ by sampling noise alone.  Built with frame pointers, so that
 * `record -g` unwinds every frame.
 *
 *   diff-workload A B [MILLISECONDS]     A:B the shares, about 600 ms in all
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Not inlined, nor cloned under another name: the profiles name these functions. */
#define NOINLINE static __attribute__((noipa))

/*
 * A value kept on the stack: the functions have a frame of their own,
 * so that their frame pointer chains name their caller (gcc leaves it
 * out of leaf functions that need no stack, -fno-omit-frame-pointer or
 * not).
 */
#define SPIN(n, x)                                                                                 \
	do {                                                                                       \
		volatile unsigned long keep_ = (x);                                                \
		unsigned long i_;                                                                  \
		for (i_ = 0; i_ < (n); i_++) {                                                     \
			(x) = (x)*6364136223846793005UL + 1442695040888963407UL;                   \
			/* Keep the compiler from folding the loop away. */                        \
			__asm__ volatile("" : "+r"(x));                                            \
		}                                                                                  \
		(x) ^= keep_;                                                                      \
	} while (0)

NOINLINE unsigned long hot_a(unsigned long n, unsigned long x)
{
	SPIN(n, x);
	return x ^ 1;
}

NOINLINE unsigned long hot_b(unsigned long n, unsigned long x)
{
	SPIN(n, x);
	return x ^ 2;
}

NOINLINE unsigned long warm_c(unsigned long n, unsigned long x)
{
	SPIN(n, x);
	return x ^ 3;
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
	unsigned long x = 1, rng = 88172645463325252UL, unit = 2000, i;

	if (!a && !b)
		a = 1;
	/*
	 * Short calls (a few microseconds) in a random order of the set
	 * proportions, with warm_c as one call in 17: whatever instant a
	 * sample is taken, the function running is a draw from those
	 * shares.  A fixed round would line up with a fixed sampling period
	 * and bias the profile.
	 */
	while (now_ms() - start < ms) {
		for (i = 0; i < 1024; i++) {
			rng ^= rng << 13;
			rng ^= rng >> 7;
			rng ^= rng << 17;
			if (rng % 17 == 0)
				x = warm_c(unit, x);
			else if ((rng >> 8) % (a + b) < a)
				x = hot_a(unit, x);
			else
				x = hot_b(unit, x);
		}
	}
	printf("diff-workload: %lu:%lu, result %#lx\n", a, b, x);
	return 0;
}
