// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The cost of reading counters from inside a program, for a group of 1
 * event (task-clock) and of 4 (task-clock, page-faults, context-switches,
 * cpu-migrations) opened with perfev_self_open():
 *
 *   read-single    read(2) of one event's fd (one counter, no group format)
 *   read-group     read(2) of the leader's fd (the whole group)
 *   rdpmc-page     perfev__page_read() with the real rdpmc/rdtsc over every
 *                  event's mmap page (the user-space path without the library
 *                  around it); n/a when the pages do not allow it
 *   snapshot-auto  perfev_self_snapshot() with PERFEV_READ_AUTO, and the path
 *                  it chose
 *   rdpmc-insn     the rdpmc instruction alone, only when a counter is mapped
 *                  (cap_user_rdpmc and a non-zero index): without one it faults
 *
 * Each in ns (CLOCK_MONOTONIC) and TSC cycles per read: the median of 31
 * batches of 1000 reads, after one batch of warm-up.  Prints a table and
 * machine-readable lines:
 *
 *   bench=readcost events=N method=M ns=X cycles=Y [path=P]
 *   bench=readcost events=N method=M ns=n/a cycles=n/a reason=R
 *   bench=readcost events=N auto_vs_fastest=R
 *
 * where auto_vs_fastest is snapshot-auto divided by the fastest usable
 * method that reads the whole group without the library (read-group or
 * rdpmc-page), in ns.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <perfev/perfev.h>
#include "count/mmap-page.h"

#define BATCHES 31
#define ITERS	1000
#define MAX_EV	4

enum method { READ_SINGLE, READ_GROUP, RDPMC_PAGE, SNAPSHOT_AUTO, RDPMC_INSN, NMETHODS };

static const char *const method_name[NMETHODS] = {"read-single", "read-group", "rdpmc-page",
						  "snapshot-auto", "rdpmc-insn"};

struct bench {
	struct perfev_self *s;
	size_t n;
	const volatile struct perf_event_mmap_page *pg[MAX_EV];
	long page_size;
	uint64_t buf[64];
	uint32_t counter; /* rdpmc-insn: the mapped hardware counter */
};

struct result {
	bool usable;
	double ns, cycles;
	char why[160]; /* n/a: the reason; otherwise a note */
	char tag[48];  /* n/a: the reason as one token */
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static uint64_t tsc(void)
{
	return perfev__hw_reader ? perfev__hw_reader->rdtsc(NULL) : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One read by @m; 0 or a negative errno. */
static int read_once(struct bench *b, enum method m)
{
	struct perfev__page_value v;
	struct perfev_snapshot snap;
	size_t i;
	int err;

	switch (m) {
	case READ_SINGLE:
		return read(perfev_self_fd(b->s, b->n - 1), b->buf, sizeof(b->buf)) > 0 ? 0
											: -errno;
	case READ_GROUP:
		return read(perfev_self_fd(b->s, 0), b->buf, sizeof(b->buf)) > 0 ? 0 : -errno;
	case RDPMC_PAGE:
		for (i = 0; i < b->n; i++) {
			err = perfev__page_read(b->pg[i], perfev__hw_reader, &v);
			if (err)
				return err;
		}
		return 0;
	case SNAPSHOT_AUTO:
		return perfev_self_snapshot(b->s, &snap);
	case RDPMC_INSN:
		b->buf[0] = perfev__hw_reader->rdpmc(b->counter, NULL);
		return 0;
	default:
		return -EINVAL;
	}
}

static void measure(struct bench *b, enum method m, struct result *r)
{
	double ns[BATCHES], cyc[BATCHES];
	int k, i;

	for (k = -1; k < BATCHES; k++) {
		double t0 = now_ns();
		uint64_t c0 = tsc(), c1;

		for (i = 0; i < ITERS; i++)
			if (read_once(b, m)) {
				r->usable = false;
				snprintf(r->why, sizeof(r->why), "failed: %s",
					 perfev_strerror(read_once(b, m)));
				snprintf(r->tag, sizeof(r->tag), "failed");
				return;
			}
		c1 = tsc();
		if (k >= 0) {
			ns[k] = (now_ns() - t0) / ITERS;
			cyc[k] = (double)(c1 - c0) / ITERS;
		}
	}
	qsort(ns, BATCHES, sizeof(ns[0]), cmp_double);
	qsort(cyc, BATCHES, sizeof(cyc[0]), cmp_double);
	r->usable = true;
	r->ns = ns[BATCHES / 2];
	r->cycles = cyc[BATCHES / 2];
}

/* Whether the user-space read can work, and why not. */
static bool user_space_ok(struct bench *b, struct result *r)
{
	struct perfev__page_value v;
	size_t i;

	if (!perfev__hw_reader) {
		snprintf(r->why, sizeof(r->why), "no rdpmc/rdtsc on this architecture");
		snprintf(r->tag, sizeof(r->tag), "no-x86");
		return false;
	}
	for (i = 0; i < b->n; i++) {
		if (!b->pg[i]) {
			snprintf(r->why, sizeof(r->why), "the mmap page of '%s' cannot be mapped",
				 perfev_self_name(b->s, i));
			snprintf(r->tag, sizeof(r->tag), "no-mmap");
			return false;
		}
		if (!b->pg[i]->cap_user_rdpmc || !b->pg[i]->cap_user_time ||
		    perfev__page_read(b->pg[i], perfev__hw_reader, &v)) {
			snprintf(r->why, sizeof(r->why),
				 "'%s' page: cap_user_rdpmc=%u cap_user_time=%u index=%u",
				 perfev_self_name(b->s, i), (unsigned)b->pg[i]->cap_user_rdpmc,
				 (unsigned)b->pg[i]->cap_user_time, (unsigned)b->pg[i]->index);
			snprintf(r->tag, sizeof(r->tag), "%s",
				 !b->pg[i]->cap_user_rdpmc  ? "no-cap_user_rdpmc"
				 : !b->pg[i]->cap_user_time ? "no-cap_user_time"
							    : "page-read-failed");
			return false;
		}
	}
	return true;
}

/* The first event whose page maps a hardware counter, for the bare instruction. */
static bool counter_mapped(struct bench *b, struct result *r)
{
	size_t i;

	if (!perfev__hw_reader) {
		snprintf(r->why, sizeof(r->why), "no rdpmc on this architecture");
		snprintf(r->tag, sizeof(r->tag), "no-x86");
		return false;
	}
	for (i = 0; i < b->n; i++)
		if (b->pg[i] && b->pg[i]->cap_user_rdpmc && b->pg[i]->index) {
			b->counter = b->pg[i]->index - 1;
			return true;
		}
	snprintf(r->why, sizeof(r->why),
		 "no counter mapped (cap_user_rdpmc=0 or index 0 on every page): rdpmc would "
		 "fault");
	snprintf(r->tag, sizeof(r->tag), "no-counter-mapped");
	return false;
}

static const char *path_name(enum perfev_read_path p)
{
	return p == PERFEV_READ_RDPMC ? "rdpmc" : "syscall";
}

static int run(const char *events)
{
	struct perfev_parse_error pe = {.sz = sizeof(pe)};
	struct result res[NMETHODS];
	struct bench b = {0};
	double fastest = 0;
	size_t i;
	int m, err;

	err = perfev_self_open(events, NULL, &b.s, &pe);
	if (err) {
		fprintf(stderr, "readcost: cannot open '%s': %s\n", events,
			pe.message[0] ? pe.message : perfev_strerror(err));
		return 1;
	}
	b.n = perfev_self_count(b.s);
	b.page_size = sysconf(_SC_PAGESIZE);
	for (i = 0; i < b.n && i < MAX_EV; i++) {
		void *p = mmap(NULL, (size_t)b.page_size, PROT_READ, MAP_SHARED,
			       perfev_self_fd(b.s, i), 0);

		b.pg[i] = p == MAP_FAILED ? NULL : p;
	}
	memset(res, 0, sizeof(res));
	for (m = 0; m < NMETHODS; m++) {
		struct result *r = &res[m];

		if (m == RDPMC_PAGE && !user_space_ok(&b, r))
			continue;
		if (m == RDPMC_INSN && !counter_mapped(&b, r))
			continue;
		measure(&b, (enum method)m, r);
		if (m == READ_SINGLE)
			snprintf(r->why, sizeof(r->why), "'%s' alone",
				 perfev_self_name(b.s, b.n - 1));
		else if (m == READ_GROUP)
			snprintf(r->why, sizeof(r->why), "%zu counter%s", b.n, b.n == 1 ? "" : "s");
		else if (m == SNAPSHOT_AUTO)
			snprintf(r->why, sizeof(r->why), "chose %s",
				 path_name(perfev_self_path(b.s)));
	}

	printf("\n%s (%zu event%s):\n", events, b.n, b.n == 1 ? "" : "s");
	printf("  %-14s %10s %10s  %s\n", "method", "ns", "cycles", "note");
	for (m = 0; m < NMETHODS; m++) {
		const struct result *r = &res[m];

		if (r->usable)
			printf("  %-14s %10.1f %10.0f  %s\n", method_name[m], r->ns, r->cycles,
			       r->why);
		else
			printf("  %-14s %10s %10s  %s\n", method_name[m], "n/a", "n/a", r->why);
	}
	for (m = 0; m < NMETHODS; m++) {
		const struct result *r = &res[m];

		if (!r->usable)
			printf("bench=readcost events=%zu method=%s ns=n/a cycles=n/a reason=%s\n",
			       b.n, method_name[m], r->tag);
		else if (m == SNAPSHOT_AUTO)
			printf("bench=readcost events=%zu method=%s ns=%.1f cycles=%.0f path=%s\n",
			       b.n, method_name[m], r->ns, r->cycles,
			       path_name(perfev_self_path(b.s)));
		else
			printf("bench=readcost events=%zu method=%s ns=%.1f cycles=%.0f\n", b.n,
			       method_name[m], r->ns, r->cycles);
	}
	/* The ways to get the whole group without the library's snapshot around them. */
	if (res[READ_GROUP].usable)
		fastest = res[READ_GROUP].ns;
	if (res[RDPMC_PAGE].usable && (!fastest || res[RDPMC_PAGE].ns < fastest))
		fastest = res[RDPMC_PAGE].ns;
	if (res[SNAPSHOT_AUTO].usable && fastest > 0)
		printf("bench=readcost events=%zu auto_vs_fastest=%.2f\n", b.n,
		       res[SNAPSHOT_AUTO].ns / fastest);
	for (i = 0; i < b.n && i < MAX_EV; i++)
		if (b.pg[i])
			munmap((void *)b.pg[i], (size_t)b.page_size);
	perfev_self_close(b.s);
	return 0;
}

int main(void)
{
	int ret;

	printf("readcost: one read of a self-monitoring group; median of %d batches of %d, "
	       "ns and TSC cycles per read\n",
	       BATCHES, ITERS);
	ret = run("task-clock");
	if (!ret)
		ret = run("task-clock,page-faults,context-switches,cpu-migrations");
	if (fflush(stdout) || ferror(stdout)) {
		perror("readcost: stdout");
		return 1;
	}
	return ret;
}
