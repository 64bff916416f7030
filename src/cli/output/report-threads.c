// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev report -T: the counts the kernel wrote at each inherited
 * thread's exit (PERF_RECORD_READ, recordings with inherit_stat: perf
 * record -s), one line per thread and a column per event, after the
 * report, as perf report -T prints them.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "common/array.h"
#include "perfev-cli.h"
#include "report.h"

/* The index of @v among the first @n of @keys, appended when new. */
static size_t find_or_add(uint64_t **keys, size_t *n, size_t *cap, uint64_t v)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if ((*keys)[i] == v)
			return i;
	cli_grow(keys, cap, *n + 1, sizeof(**keys));
	(*keys)[*n] = v;
	return (*n)++;
}

void report_threads_add(struct report *r, uint32_t pid, uint32_t tid, size_t ev, const char *name,
			uint64_t value)
{
	struct report_threads *t = &r->threads;
	size_t nt = t->nthreads, nc = t->ncounters, ti, ci, i;

	ti = find_or_add(&t->thread, &t->nthreads, &t->cap_threads, (uint64_t)pid << 32 | tid);
	ci = find_or_add(&t->counter, &t->ncounters, &t->cap_counters, ev);
	if (ci == nc) {
		cli_grow(&t->names, &t->cap_names, t->ncounters, sizeof(*t->names));
		t->names[ci] = profile_intern(&r->prof, name);
	}
	/* The values, thread by thread, each with a column per counter: grown in both. */
	if (ti == nt || ci == nc) {
		uint64_t *v = calloc(t->nthreads * t->ncounters, sizeof(*v));

		if (!v)
			cli_die("out of memory");
		for (i = 0; i < nt * nc; i++)
			v[i / nc * t->ncounters + i % nc] = t->value[i];
		free(t->value);
		t->value = v;
	}
	t->value[ti * t->ncounters + ci] += value;
}

static int width_u64(uint64_t v)
{
	return snprintf(NULL, 0, "%" PRIu64, v);
}

void report_threads_print(const struct report *r)
{
	const struct report_threads *t = &r->threads;
	int pidw = 3, tidw = 3, *cw, w;
	size_t i, j;

	cw = calloc(t->ncounters ? t->ncounters : 1, sizeof(*cw));
	if (!cw)
		cli_die("out of memory");
	for (j = 0; j < t->ncounters; j++)
		cw[j] = (int)strlen(t->names[j]);
	for (i = 0; i < t->nthreads; i++) {
		w = snprintf(NULL, 0, "%d", (int)(t->thread[i] >> 32));
		pidw = w > pidw ? w : pidw;
		w = snprintf(NULL, 0, "%d", (int)(uint32_t)t->thread[i]);
		tidw = w > tidw ? w : tidw;
		for (j = 0; j < t->ncounters; j++) {
			w = width_u64(t->value[i * t->ncounters + j]);
			cw[j] = w > cw[j] ? w : cw[j];
		}
	}
	printf("# %*s  %*s", pidw, "PID", tidw, "TID");
	for (j = 0; j < t->ncounters; j++)
		printf("  %*s", cw[j], t->names[j]);
	putchar('\n');
	for (i = 0; i < t->nthreads; i++) {
		printf("  %*d  %*d", pidw, (int)(t->thread[i] >> 32), tidw,
		       (int)(uint32_t)t->thread[i]);
		for (j = 0; j < t->ncounters; j++)
			printf("  %*" PRIu64, cw[j], t->value[i * t->ncounters + j]);
		putchar('\n');
	}
	free(cw);
}

void report_threads_release(struct report *r)
{
	free(r->threads.thread);
	free(r->threads.counter);
	free(r->threads.names);
	free(r->threads.value);
	memset(&r->threads, 0, sizeof(r->threads));
}
