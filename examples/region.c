// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Measure named regions of a program from inside it: a self-monitoring
 * group on this thread, a region "round" (allocate, fill, sort) with a
 * region "sort" nested in it, each entered ROUNDS times.
 *
 *   region [EVENTS]        default: task-clock,page-faults,context-switches
 */
#include <stdio.h>
#include <stdlib.h>
#include <perfev/perfev.h>

#define ROUNDS 8
#define N      (1 << 18) /* doubles per round: 2 MiB of fresh memory */

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void print_region(const struct perfev_self *self, int id)
{
	struct perfev_region_stats st = {.sz = sizeof(st)};
	size_t i;

	if (perfev_self_region_stats(self, id, &st))
		return;
	printf("%s: %llu calls, %llu partial (multiplexed)\n", st.name,
	       (unsigned long long)st.calls, (unsigned long long)st.partial);
	for (i = 0; i < st.nr; i++)
		printf("  %16.0f  %-20s %14.0f per call\n", st.scaled[i], perfev_self_name(self, i),
		       st.calls ? st.scaled[i] / (double)st.calls : 0.0);
}

int main(int argc, char **argv)
{
	const char *events = argc > 1 ? argv[1] : "task-clock,page-faults,context-switches";
	struct perfev_parse_error pe = {.sz = sizeof(pe)};
	struct perfev_self *self;
	int round, sort, r, err;
	size_t i;

	err = perfev_self_open(events, NULL, &self, &pe);
	if (err) {
		fprintf(stderr, "region: cannot count '%s': %s\n", events,
			pe.message[0] ? pe.message : perfev_strerror(err));
		return 1;
	}
	for (i = 0; i < perfev_self_count(self); i++)
		if (perfev_self_note(self, i))
			fprintf(stderr, "region: %s\n", perfev_self_note(self, i));
	round = perfev_self_region(self, "round");
	sort = perfev_self_region(self, "sort");

	for (r = 0; r < ROUNDS; r++) {
		double *v;

		perfev_self_enter(self, round);
		v = malloc(N * sizeof(*v)); /* large: fresh pages, one fault each */
		if (!v)
			return 1;
		for (i = 0; i < N; i++)
			v[i] = (double)((i * 2654435761u) % 1000003);
		perfev_self_enter(self, sort);
		qsort(v, N, sizeof(*v), cmp);
		perfev_self_leave(self, sort);
		free(v);
		perfev_self_leave(self, round);
	}

	printf("read path: %s\n",
	       perfev_self_path(self) == PERFEV_READ_RDPMC ? "rdpmc (user space)" : "read(2)");
	print_region(self, round);
	print_region(self, sort);
	perfev_self_close(self);
	return 0;
}
