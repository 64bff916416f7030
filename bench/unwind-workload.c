// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A CPU-bound program whose call chains test a stack unwinder: it spends
 * its time in
 *   - a chain of calls six functions deep down to a leaf loop;
 *   - qsort() with a comparison callback, so that the callback's callers
 *     are libc's sorting functions, built without frame pointers;
 *   - a function that recurses 20 levels deep, with a frame at each level;
 *   - libm (sin, exp, log1p) and libc's string functions (memcpy, strlen),
 *     leaf code in shared libraries that keeps no frame pointer.
 * Every function of its own is kept out of line and uncloned (noipa), and
 * no call is in tail position, so each one has a frame of its own.
 *
 * The Makefile builds it twice: unwind-workload-fp with frame pointers
 * and unwind-workload-nofp without (-fomit-frame-pointer), where only the
 * CFI (.eh_frame) describes the frames.
 *
 *   unwind-workload [MILLISECONDS]     CPU time to run, default 500
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NOIPA __attribute__((noipa))

#define SORT_N	   2048
#define RECURSE_N  20
#define STRING_LEN 4096
#define COPY_BYTES (64 * 1024)

static volatile unsigned long sink;
static volatile double fsink;
static unsigned long rng_state = 88172645463325252UL;

static unsigned long rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* ---- a chain of calls ---------------------------------------------------- */

NOIPA static unsigned long chain_leaf(unsigned long x)
{
	int i;

	for (i = 0; i < 60000; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		x ^= x >> 29;
	}
	return x;
}

NOIPA static unsigned long chain5(unsigned long x)
{
	return chain_leaf(x + 5) ^ x;
}

NOIPA static unsigned long chain4(unsigned long x)
{
	return chain5(x + 4) ^ x;
}

NOIPA static unsigned long chain3(unsigned long x)
{
	return chain4(x + 3) ^ x;
}

NOIPA static unsigned long chain2(unsigned long x)
{
	return chain3(x + 2) ^ x;
}

NOIPA static unsigned long chain1(unsigned long x)
{
	return chain2(x + 1) ^ x;
}

NOIPA static void run_chain(void)
{
	sink = chain1(rng()) + 1;
}

/* ---- qsort with a callback ---------------------------------------------- */

NOIPA static int cmp_keys(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return (x > y) - (x < y);
}

NOIPA static void run_sort(void)
{
	static unsigned int keys[SORT_N];
	size_t i;

	for (i = 0; i < SORT_N; i++)
		keys[i] = (unsigned int)rng();
	qsort(keys, SORT_N, sizeof(keys[0]), cmp_keys);
	sink = keys[0] + keys[SORT_N - 1];
}

/* ---- recursion ------------------------------------------------------------ */

NOIPA static unsigned long recurse(int depth, unsigned long x)
{
	/* Used after the call: the frame outlives it, the call cannot become a loop. */
	volatile unsigned long local[4] = {x, x ^ (unsigned long)depth, x * 3, x + 7};
	unsigned long r;
	int i;

	if (depth == 0) {
		r = x;
		for (i = 0; i < 60000; i++)
			r = (r ^ local[i & 3]) * 0x9e3779b97f4a7c15UL + (r >> 31);
		return r;
	}
	r = recurse(depth - 1, local[1] * 31 + 1);
	return r ^ local[2] ^ local[3];
}

NOIPA static void run_recurse(void)
{
	sink = recurse(RECURSE_N, rng()) + 1;
}

/* ---- libm and the string functions ------------------------------------ */

NOIPA static double math_loop(double x)
{
	double acc = 0;
	int i;

	for (i = 0; i < 6000; i++) {
		acc += sin(x) * exp(-x) + log1p(x);
		x += 0.001;
	}
	return acc;
}

NOIPA static size_t string_loop(char *dst, const char *src, size_t len)
{
	size_t n = 0;
	int i;

	for (i = 0; i < 40; i++) {
		memcpy(dst, src, len);
		dst[len - 1 - (size_t)i] = 0;
		n += strlen(dst) + strlen(src);
	}
	return n;
}

NOIPA static void run_libs(void)
{
	static char src[COPY_BYTES], dst[COPY_BYTES];

	if (!src[0]) {
		memset(src, 'a', sizeof(src) - 1);
		src[STRING_LEN] = 0;
	}
	fsink = math_loop((double)(rng() % 1000) / 1000.0) + 1;
	sink = string_loop(dst, src, sizeof(src) - 64 + (rng() & 63)) + 1;
}

/* ---- the rounds ------------------------------------------------------------- */

NOIPA static unsigned long one_round(unsigned long round)
{
	run_chain();
	run_sort();
	run_recurse();
	run_libs();
	return round + 1;
}

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? strtod(argv[1], NULL) : 500;
	unsigned long rounds = 0;

	do
		rounds = one_round(rounds);
	while (cpu_ms() < ms);
	printf("%lu rounds\n", rounds);
	return 0;
}
