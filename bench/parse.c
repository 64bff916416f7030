// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Event-parser throughput: parse every event string of a file (default
 * tests/data/events.txt, first column) many times and report the median
 * cost per string.  Prints one machine-readable line:
 *
 *   bench=parse strings=N iterations=K ns_per_string=X
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <perfev/perfev.h>

#define MAX_STRINGS 4096
#define ROUNDS	    15

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	const char *file = argc > 1 ? argv[1] : "tests/data/events.txt";
	struct perfev_pmus_opts po = {.sz = sizeof(po), .sysfs_root = "tests/data/sysfs"};
	struct perfev_parse_opts pa = {.sz = sizeof(pa)};
	static char *strings[MAX_STRINGS];
	struct perfev_pmus *pmus;
	double rounds[ROUNDS];
	char line[4096];
	size_t n = 0, i;
	int r, iters = 200;
	FILE *f = fopen(file, "r");

	if (!f) {
		perror(file);
		return 1;
	}
	while (n < MAX_STRINGS && fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t');

		if (line[0] == '#' || !tab)
			continue;
		*tab = '\0';
		strings[n++] = strdup(line);
	}
	fclose(f);
	if (perfev_pmus_load(&po, &pmus))
		return 1;
	pa.pmus = pmus;
	for (r = 0; r < ROUNDS; r++) {
		double t0 = now_ns();

		for (int k = 0; k < iters; k++)
			for (i = 0; i < n; i++) {
				struct perfev_evspec *spec;

				if (!perfev_evspec_parse(strings[i], &pa, &spec, NULL))
					perfev_evspec_free(spec);
			}
		rounds[r] = (now_ns() - t0) / ((double)iters * (double)n);
	}
	qsort(rounds, ROUNDS, sizeof(rounds[0]), cmp_double);
	printf("bench=parse strings=%zu iterations=%d ns_per_string=%.0f\n", n, iters * ROUNDS,
	       rounds[ROUNDS / 2]);
	for (i = 0; i < n; i++)
		free(strings[i]);
	perfev_pmus_free(pmus);
	return 0;
}
