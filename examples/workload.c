// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A small, deterministic workload for demos and measurements: a fixed
 * number of loop iterations of integer work plus touching fresh pages,
 * so instruction counts repeat exactly and page faults are predictable.
 *
 *   workload [ITERATIONS] [PAGES]     defaults 20000000 and 256
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static unsigned long spin(unsigned long n)
{
	unsigned long x = 1, i;

	for (i = 0; i < n; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		/* Keep the compiler from folding the loop away. */
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

static void touch(size_t pages)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, pages * (size_t)psz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t i;

	if (p == MAP_FAILED) {
		perror("workload: mmap");
		exit(1);
	}
	for (i = 0; i < pages; i++)
		p[i * (size_t)psz] = (char)i;
	munmap(p, pages * (size_t)psz);
}

int main(int argc, char **argv)
{
	unsigned long iters = argc > 1 ? strtoul(argv[1], NULL, 0) : 20000000UL;
	size_t pages = argc > 2 ? strtoul(argv[2], NULL, 0) : 256;
	unsigned long r;

	touch(pages);
	r = spin(iters);
	printf("workload: %lu iterations, %zu pages, result %#lx\n", iters, pages, r);
	return 0;
}
