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
 * Each in ns (CLOCK_MONOTONIC) and TSC cycles per read over 31 batches of
 * 1000 reads, after one round of warm-up.  The methods take turns, a
 * batch each (A B C A B C ..., not all of A then all of B), so that a
 * change of the machine's load or clock over the run falls on every
 * method alike; the median is the figure, the min and max the spread.
 * Prints a table and machine-readable lines:
 *
 *   bench=readcost events=N method=M ns=X ns_min=A ns_max=B cycles=Y [path=P]
 *   bench=readcost events=N method=M ns=n/a cycles=n/a reason=R
 *   bench=readcost events=N auto_vs_fastest=R p10=P p90=Q min=A max=B fastest=M
 *
 * where auto_vs_fastest is snapshot-auto divided by the fastest usable
 * method that reads the whole group without the library (read-group or
 * rdpmc-page, the lower median), in ns: the median of the ratios of the
 * two's batches in the same round, their 10th and 90th percentiles, min
 * and max.
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
	double ns, cycles;	  /* medians */
	double ns_min, ns_max;	  /* the spread of the batches */
	double ns_batch[BATCHES]; /* each round's, in the order run */
	double cyc_batch[BATCHES];
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

/* The median, min and max of @n values (sorted in a copy), and the 10th and 90th percentiles. */
static void spread(const double *v, size_t n, double *med, double *min, double *max, double *p10,
		   double *p90)
{
	double s[BATCHES];

	memcpy(s, v, n * sizeof(s[0]));
	qsort(s, n, sizeof(s[0]), cmp_double);
	*med = s[n / 2];
	*min = s[0];
	*max = s[n - 1];
	*p10 = s[n / 10];
	*p90 = s[n - 1 - n / 10];
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

/* One batch of @m into round @k (-1: warm-up); false, with the reason, when a read fails. */
static bool batch(struct bench *b, enum method m, int k, struct result *r)
{
	double t0 = now_ns();
	uint64_t c0 = tsc(), c1;
	int i, err;

	for (i = 0; i < ITERS; i++) {
		err = read_once(b, m);
		if (err) {
			r->usable = false;
			snprintf(r->why, sizeof(r->why), "failed: %s", perfev_strerror(err));
			snprintf(r->tag, sizeof(r->tag), "failed");
			return false;
		}
	}
	c1 = tsc();
	if (k >= 0) {
		r->ns_batch[k] = (now_ns() - t0) / ITERS;
		r->cyc_batch[k] = (double)(c1 - c0) / ITERS;
	}
	return true;
}

/* Every usable method, a batch each in turn, round after round. */
static void measure(struct bench *b, struct result *res)
{
	double x;
	int k, m;

	for (k = -1; k < BATCHES; k++)
		for (m = 0; m < NMETHODS; m++)
			if (res[m].usable)
				batch(b, (enum method)m, k, &res[m]);
	for (m = 0; m < NMETHODS; m++) {
		struct result *r = &res[m];

		if (!r->usable)
			continue;
		spread(r->ns_batch, BATCHES, &r->ns, &r->ns_min, &r->ns_max, &x, &x);
		spread(r->cyc_batch, BATCHES, &r->cycles, &x, &x, &x, &x);
	}
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
	int fastest = -1;
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

		r->usable = !(m == RDPMC_PAGE && !user_space_ok(&b, r)) &&
			    !(m == RDPMC_INSN && !counter_mapped(&b, r));
		if (m == READ_SINGLE)
			snprintf(r->why, sizeof(r->why), "'%s' alone",
				 perfev_self_name(b.s, b.n - 1));
		else if (m == READ_GROUP)
			snprintf(r->why, sizeof(r->why), "%zu counter%s", b.n, b.n == 1 ? "" : "s");
		else if (m == SNAPSHOT_AUTO)
			snprintf(r->why, sizeof(r->why), "chose %s",
				 path_name(perfev_self_path(b.s)));
	}
	measure(&b, res);

	printf("\n%s (%zu event%s):\n", events, b.n, b.n == 1 ? "" : "s");
	printf("  %-14s %10s %21s %10s  %s\n", "method", "ns", "(min-max)", "cycles", "note");
	for (m = 0; m < NMETHODS; m++) {
		const struct result *r = &res[m];
		char range[32];

		snprintf(range, sizeof(range), "(%.1f-%.1f)", r->ns_min, r->ns_max);
		if (r->usable)
			printf("  %-14s %10.1f %21s %10.0f  %s\n", method_name[m], r->ns, range,
			       r->cycles, r->why);
		else
			printf("  %-14s %10s %21s %10s  %s\n", method_name[m], "n/a", "", "n/a",
			       r->why);
	}
	for (m = 0; m < NMETHODS; m++) {
		const struct result *r = &res[m];

		if (!r->usable)
			printf("bench=readcost events=%zu method=%s ns=n/a cycles=n/a reason=%s\n",
			       b.n, method_name[m], r->tag);
		else
			printf(
			    "bench=readcost events=%zu method=%s ns=%.1f ns_min=%.1f ns_max=%.1f "
			    "cycles=%.0f%s%s\n",
			    b.n, method_name[m], r->ns, r->ns_min, r->ns_max, r->cycles,
			    m == SNAPSHOT_AUTO ? " path=" : "",
			    m == SNAPSHOT_AUTO ? path_name(perfev_self_path(b.s)) : "");
	}
	/* The ways to get the whole group without the library's snapshot around them. */
	if (res[READ_GROUP].usable)
		fastest = READ_GROUP;
	if (res[RDPMC_PAGE].usable && (fastest < 0 || res[RDPMC_PAGE].ns < res[fastest].ns))
		fastest = RDPMC_PAGE;
	if (res[SNAPSHOT_AUTO].usable && fastest >= 0) {
		double ratio[BATCHES], med, lo, hi, p10, p90;
		int k;

		/* Round by round: both batches ran next to each other, under the same load. */
		for (k = 0; k < BATCHES; k++)
			ratio[k] = res[SNAPSHOT_AUTO].ns_batch[k] / res[fastest].ns_batch[k];
		spread(ratio, BATCHES, &med, &lo, &hi, &p10, &p90);
		printf("  snapshot-auto / %s: %.2f (10-90%%: %.2f-%.2f, min %.2f, max %.2f, %d "
		       "rounds)\n",
		       method_name[fastest], med, p10, p90, lo, hi, BATCHES);
		printf("bench=readcost events=%zu auto_vs_fastest=%.2f p10=%.2f p90=%.2f min=%.2f "
		       "max=%.2f fastest=%s\n",
		       b.n, med, p10, p90, lo, hi, method_name[fastest]);
	} else {
		printf("bench=readcost events=%zu auto_vs_fastest=n/a reason=%s\n", b.n,
		       res[SNAPSHOT_AUTO].usable ? "no-group-read" : res[SNAPSHOT_AUTO].tag);
	}
	for (i = 0; i < b.n && i < MAX_EV; i++)
		if (b.pg[i])
			munmap((void *)b.pg[i], (size_t)b.page_size);
	perfev_self_close(b.s);
	return 0;
}

int main(void)
{
	int ret;

	printf("readcost: one read of a self-monitoring group; the methods interleaved, a batch "
	       "of %d each per round, %d rounds; median (min-max) ns and TSC cycles per read\n",
	       ITERS, BATCHES);
	ret = run("task-clock");
	if (!ret)
		ret = run("task-clock,page-faults,context-switches,cpu-migrations");
	if (fflush(stdout) || ferror(stdout)) {
		perror("readcost: stdout");
		return 1;
	}
	return ret;
}
