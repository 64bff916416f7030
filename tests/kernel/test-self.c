// SPDX-License-Identifier: LGPL-2.1-or-later
/* Self-monitoring groups on real software events: snapshots, read paths, regions, threads, time. */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <perfev/perfev.h>
#include "harness.h"

#define EVENTS	  "task-clock,page-faults,context-switches"
#define TC	  0 /* the indexes of EVENTS */
#define PF	  1
#define CS	  2
#define NOBODY	  65534
#define NTHREADS  4
#define MAX_DEPTH 64 /* the limits self.h documents */
#define MAX_REGS  256

/* ---- helpers -------------------------------------------------------------------- */

static bool root(void)
{
	return geteuid() == 0;
}

/*
 * perfev_self_open(), deciding the case when it fails.  Software events
 * open everywhere perf_event_open(2) is allowed: "not permitted" skips
 * with the library's message, anything else fails.
 */
static struct perfev_self *self_at(const char *events, const struct perfev_self_opts *o, int line)
{
	struct perfev_parse_error pe = {.sz = sizeof(pe)};
	struct perfev_self *s = NULL;
	int ret = perfev_self_open(events, o, &s, &pe);

	if (!ret)
		return s;
	if (ret == -EACCES || ret == -EPERM)
		harness_skip("perf-permission",
			     "perfev_self_open('%.80s'): %s: %s (not permitted here)", events,
			     strerrorname_np(-ret), pe.message);
	else
		harness_fail(__FILE__, line, "perfev_self_open('%.80s'): %s: %s", events,
			     strerrorname_np(-ret), pe.message);
	return NULL;
}

#define SELF(events, opts) self_at(events, opts, __LINE__)

static struct perfev_delta delta_at(const struct perfev_self *s, const struct perfev_snapshot *a,
				    const struct perfev_snapshot *b, size_t idx, int line)
{
	struct perfev_delta d;
	int ret = perfev_self_delta(s, a, b, idx, &d);

	if (ret) {
		memset(&d, 0, sizeof(d));
		harness_fail(__FILE__, line, "perfev_self_delta(%zu): %d", idx, ret);
	}
	return d;
}

#define DELTA(s, a, b, idx) delta_at(s, a, b, idx, __LINE__)

/* What the kernel publishes on the first page of event @fd. */
struct page_caps {
	bool mapped, rdpmc, time, time_zero;
	uint32_t index;
};

static struct page_caps page_caps(int fd)
{
	struct page_caps c = {0};
	long size = sysconf(_SC_PAGESIZE);
	const volatile struct perf_event_mmap_page *pg;
	void *p = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		return c;
	pg = p;
	c.mapped = true;
	c.rdpmc = pg->cap_user_rdpmc;
	c.time = pg->cap_user_time;
	c.time_zero = pg->cap_user_time_zero;
	c.index = pg->index;
	munmap(p, (size_t)size);
	return c;
}

/* A group read(2) of @fd decoded: the read_format is ENABLED|RUNNING|ID|GROUP [|LOST]. */
static int read_group(int fd, struct perfev_reading *r)
{
	static const uint64_t base = PERF_FORMAT_TOTAL_TIME_ENABLED |
				     PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID |
				     PERF_FORMAT_GROUP;
	uint64_t buf[128];
	ssize_t got;
	int ret;

	got = read(fd, buf, sizeof(buf));
	if (got < 0)
		return -errno;
	ret = perfev_read_decode(base | PERFEV_FORMAT_LOST, buf, (size_t)got, r);
	if (ret == -EBADMSG)
		ret = perfev_read_decode(base, buf, (size_t)got, r);
	return ret;
}

static void fill_stack(void)
{
	volatile char pad[64 * 1024];

	memset((char *)pad, 1, sizeof(pad));
}

/* ---- opening and snapshots ------------------------------------------------------ */

TEST(open_names_fds_path)
{
	struct perfev_self *s = SELF(EVENTS, NULL);
	struct page_caps caps;
	size_t i;

	if (!s)
		return;
	CHECK_INT(perfev_self_count(s), 3);
	CHECK_STR(perfev_self_name(s, TC), "task-clock");
	CHECK_STR(perfev_self_name(s, PF), "page-faults");
	CHECK_STR(perfev_self_name(s, CS), "context-switches");
	CHECK(perfev_self_name(s, 3) == NULL);
	CHECK(perfev_self_note(s, 3) == NULL);
	CHECK_INT(perfev_self_fd(s, 3), -EINVAL);
	for (i = 0; i < 3; i++) {
		int fd = perfev_self_fd(s, i);

		CHECK(fd >= 0 && fcntl(fd, F_GETFD) >= 0);
		if (root())
			EXPECT(perfev_self_note(s, i) == NULL, "note on '%s' as root: %s",
			       perfev_self_name(s, i), perfev_self_note(s, i));
	}
	/* Software events never have a hardware counter to read: read(2) it is. */
	caps = page_caps(perfev_self_fd(s, 0));
	CHECK(caps.mapped);
	EXPECT(!caps.rdpmc || !caps.index, "software event page with rdpmc index %u", caps.index);
	CHECK_INT(perfev_self_path(s), PERFEV_READ_SYSCALL);
	perfev_self_close(s);

	/* The NULL object. */
	CHECK_INT(perfev_self_count(NULL), 0);
	CHECK(perfev_self_name(NULL, 0) == NULL);
	CHECK_INT(perfev_self_fd(NULL, 0), -EINVAL);
	perfev_self_close(NULL);
}

TEST(open_bad_arguments)
{
	struct perfev_self_opts o = {.sz = sizeof(o)};
	struct perfev_parse_error pe = {.sz = sizeof(pe)};
	struct perfev_snapshot snap;
	struct perfev_self *s = NULL;
	struct {
		struct perfev_self_opts o;
		uint64_t future;
	} big = {.o = {.sz = sizeof(big)}, .future = 1};

	CHECK_INT(perfev_self_open(NULL, NULL, &s, NULL), -EINVAL);
	CHECK_INT(perfev_self_open("task-clock", NULL, NULL, NULL), -EINVAL);
	o.path = (enum perfev_read_path)3;
	CHECK_INT(perfev_self_open("task-clock", &o, &s, NULL), -EINVAL);
	/* A newer caller's field this library does not know. */
	CHECK_INT(perfev_self_open("task-clock", &big.o, &s, NULL), -EINVAL);
	/* A syntax error is the parser's, with its offset. */
	CHECK(perfev_self_open("task-clock,,", NULL, &s, &pe) < 0);
	CHECK(pe.message[0] != '\0');
	CHECK_INT(perfev_self_snapshot(NULL, &snap), -EINVAL);
	CHECK(s == NULL);
}

TEST(snapshot_counts_page_faults)
{
	struct perfev_snapshot a, b;
	struct perfev_delta tc, pf;
	struct perfev_self *s = SELF(EVENTS, NULL);
	const size_t n = 64;

	if (!s)
		return;
	CHECK_INT(perfev_self_snapshot(s, &a), 0);
	CHECK(test_touch_fresh_pages(n));
	test_burn();
	CHECK_INT(perfev_self_snapshot(s, &b), 0);
	CHECK_INT(a.nr, 3);
	CHECK_INT(a.path, PERFEV_READ_SYSCALL);
	CHECK_INT(b.path, PERFEV_READ_SYSCALL);
	pf = DELTA(s, &a, &b, PF);
	tc = DELTA(s, &a, &b, TC);
	EXPECT(pf.raw >= n, "touched %zu fresh pages, page-faults delta %llu", n,
	       (unsigned long long)pf.raw);
	EXPECT(tc.raw > 0, "task-clock did not move over test_burn()");
	EXPECT(tc.enabled > 0 && tc.running == tc.enabled, "enabled %llu running %llu",
	       (unsigned long long)tc.enabled, (unsigned long long)tc.running);
	EXPECT(!pf.partial && !tc.partial, "software events partial: %d %d", pf.partial,
	       tc.partial);
	EXPECT(pf.scaled == (double)pf.raw, "scaled %f for raw %llu", pf.scaled,
	       (unsigned long long)pf.raw);
	/* Bad arguments. */
	CHECK_INT(perfev_self_delta(s, &a, &b, 3, &pf), -EINVAL);
	CHECK_INT(perfev_self_delta(s, &a, &b, 0, NULL), -EINVAL);
	b.nr = 2;
	CHECK_INT(perfev_self_delta(s, &a, &b, 0, &pf), -EINVAL);
	perfev_self_close(s);
}

/* A snapshot and a read(2) of the leader right after it tell the same story. */
TEST(snapshot_agrees_with_read)
{
	struct perfev_value vals[8];
	struct perfev_reading r = {.sz = sizeof(r), .max = 8, .values = vals};
	struct perfev_snapshot snap;
	struct perfev_self *s = SELF(EVENTS, NULL);
	int i;

	if (!s)
		return;
	fill_stack();
	for (i = 0; i < 5; i++) {
		size_t k;

		test_touch_fresh_pages(8);
		CHECK_INT(perfev_self_snapshot(s, &snap), 0);
		CHECK_INT(read_group(perfev_self_fd(s, 0), &r), 0);
		CHECK_INT(r.nr, 3);
		for (k = 0; k < 3; k++)
			EXPECT(vals[k].value >= snap.value[k],
			       "round %d: %s went back from %llu (snapshot) to %llu (read)", i,
			       perfev_self_name(s, k), (unsigned long long)snap.value[k],
			       (unsigned long long)vals[k].value);
		EXPECT(vals[PF].value == snap.value[PF],
		       "round %d: page-faults %llu in the snapshot, %llu in read(2) right after", i,
		       (unsigned long long)snap.value[PF], (unsigned long long)vals[PF].value);
		EXPECT(r.time_enabled >= snap.time_enabled && r.time_running >= snap.time_running,
		       "round %d: times went back", i);
	}
	perfev_self_close(s);
}

TEST(forced_syscall_path)
{
	struct perfev_self_opts o = {.sz = sizeof(o), .path = PERFEV_READ_SYSCALL};
	struct perfev_snapshot a, b;
	struct perfev_self *s = SELF("page-faults,task-clock", &o);

	if (!s)
		return;
	CHECK_INT(perfev_self_path(s), PERFEV_READ_SYSCALL);
	CHECK_INT(perfev_self_snapshot(s, &a), 0);
	test_touch_fresh_pages(16);
	CHECK_INT(perfev_self_snapshot(s, &b), 0);
	CHECK_INT(b.path, PERFEV_READ_SYSCALL);
	CHECK(DELTA(s, &a, &b, 0).raw >= 16);
	perfev_self_close(s);
}

/* The user-space path: refused with a reason where the pages do not allow it. */
TEST(forced_rdpmc_path)
{
	struct perfev_self_opts o = {.sz = sizeof(o), .path = PERFEV_READ_RDPMC};
	struct perfev_parse_error pe = {.sz = sizeof(pe)};
	struct perfev_snapshot snap;
	struct perfev_self *s = NULL;
	int ret;

	/* Software events have no hardware counter on any machine. */
	ret = perfev_self_open("task-clock,page-faults", &o, &s, &pe);
	CHECK_INT(ret, -EOPNOTSUPP);
	CHECK(s == NULL);
	CHECK_CONTAINS(pe.message, "user space");
	CHECK_INT(pe.err, -EOPNOTSUPP);

	/* A hardware counter, where there is one. */
	memset(&pe, 0, sizeof(pe));
	pe.sz = sizeof(pe);
	ret = perfev_self_open("instructions:u", &o, &s, &pe);
	if (ret == -ENOENT || ret == -EOPNOTSUPP || ret == -EACCES || ret == -EPERM) {
		harness_skip("rdpmc", "rdpmc of 'instructions:u': %s: %s", strerrorname_np(-ret),
			     pe.message);
		return;
	}
	CHECK_INT(ret, 0);
	CHECK_INT(perfev_self_path(s), PERFEV_READ_RDPMC);
	CHECK_INT(perfev_self_snapshot(s, &snap), 0);
	CHECK_INT(snap.path, PERFEV_READ_RDPMC);
	{
		uint64_t buf[8];
		ssize_t got;

		CHECK_INT(perfev_self_snapshot(s, &snap), 0);
		got = read(perfev_self_fd(s, 0), buf, sizeof(buf));
		CHECK(got >= 8);
		/* Between the two: the rest of the snapshot and the read(2) entry, user only. */
		EXPECT(buf[0] >= snap.value[0] && buf[0] - snap.value[0] < 10000,
		       "rdpmc %llu, read(2) %llu", (unsigned long long)snap.value[0],
		       (unsigned long long)buf[0]);
	}
	perfev_self_close(s);
}

/* ---- regions ---------------------------------------------------------------------- */

static struct perfev_region_stats stats_at(const struct perfev_self *s, int id, int line)
{
	struct perfev_region_stats st = {.sz = sizeof(st)};
	int ret = perfev_self_region_stats(s, id, &st);

	if (ret)
		harness_fail(__FILE__, line, "perfev_self_region_stats(%d): %d", id, ret);
	return st;
}

#define STATS(s, id) stats_at(s, id, __LINE__)

TEST(regions_nested)
{
	struct perfev_region_stats o, in;
	struct perfev_self *s = SELF(EVENTS, NULL);
	int outer, inner;

	if (!s)
		return;
	outer = perfev_self_region(s, "outer");
	inner = perfev_self_region(s, "inner");
	CHECK(outer >= 0 && inner >= 0 && outer != inner);
	CHECK_INT(perfev_self_region(s, "outer"), outer);
	CHECK_INT(perfev_self_region_count(s), 2);

	CHECK_INT(perfev_self_enter(s, outer), 0);
	test_touch_fresh_pages(16);
	CHECK_INT(perfev_self_enter(s, inner), 0);
	test_touch_fresh_pages(32);
	test_burn();
	CHECK_INT(perfev_self_leave(s, inner), 0);
	test_touch_fresh_pages(8);
	CHECK_INT(perfev_self_leave(s, outer), 0);

	o = STATS(s, outer);
	in = STATS(s, inner);
	CHECK_STR(o.name, "outer");
	CHECK_STR(in.name, "inner");
	CHECK_INT(o.calls, 1);
	CHECK_INT(in.calls, 1);
	CHECK_INT(o.nr, 3);
	CHECK_INT(o.partial + in.partial, 0);
	EXPECT(in.raw[PF] >= 32, "inner page-faults %llu", (unsigned long long)in.raw[PF]);
	EXPECT(o.raw[PF] >= in.raw[PF] + 16 + 8, "outer page-faults %llu, inner %llu",
	       (unsigned long long)o.raw[PF], (unsigned long long)in.raw[PF]);
	EXPECT(o.raw[TC] >= in.raw[TC] && in.raw[TC] > 0, "task-clock outer %llu inner %llu",
	       (unsigned long long)o.raw[TC], (unsigned long long)in.raw[TC]);
	EXPECT(o.enabled >= in.enabled && in.enabled > 0 && o.running == o.enabled,
	       "outer enabled %llu running %llu, inner enabled %llu", (unsigned long long)o.enabled,
	       (unsigned long long)o.running, (unsigned long long)in.enabled);
	EXPECT(o.scaled[PF] == (double)o.raw[PF], "scaled %f raw %llu", o.scaled[PF],
	       (unsigned long long)o.raw[PF]);
	perfev_self_close(s);
}

TEST(regions_accumulate)
{
	struct perfev_snapshot a, b;
	struct perfev_region_stats st;
	struct perfev_self *s = SELF(EVENTS, NULL);
	int id, i;

	if (!s)
		return;
	id = perfev_self_region(s, "loop");
	CHECK(id >= 0);
	CHECK_INT(perfev_self_snapshot(s, &a), 0);
	for (i = 0; i < 5; i++) {
		CHECK_INT(perfev_self_enter(s, id), 0);
		test_touch_fresh_pages(10);
		CHECK_INT(perfev_self_leave(s, id), 0);
		test_touch_fresh_pages(10); /* between calls: not the region's */
		st = STATS(s, id);
		CHECK_INT(st.calls, i + 1);
		EXPECT(st.raw[PF] >= (uint64_t)(i + 1) * 10, "after %d calls: %llu page faults",
		       i + 1, (unsigned long long)st.raw[PF]);
	}
	CHECK_INT(perfev_self_snapshot(s, &b), 0);
	/* The sum holds the calls and not what ran between them. */
	EXPECT(st.raw[PF] + 50 <= DELTA(s, &a, &b, PF).raw,
	       "region %llu page faults, the whole loop %llu", (unsigned long long)st.raw[PF],
	       (unsigned long long)DELTA(s, &a, &b, PF).raw);
	EXPECT(st.raw[PF] < 50 + 5 * 8, "5 calls of 10 fresh pages: %llu page faults",
	       (unsigned long long)st.raw[PF]);
	perfev_self_close(s);
}

TEST(regions_misuse)
{
	struct perfev_region_stats st = {.sz = sizeof(st)};
	struct perfev_self *s = SELF("page-faults", NULL);
	int a, b;

	if (!s)
		return;
	a = perfev_self_region(s, "a");
	b = perfev_self_region(s, "b");
	CHECK(a >= 0 && b >= 0);
	CHECK_INT(perfev_self_region(s, NULL), -EINVAL);
	CHECK_INT(perfev_self_region(NULL, "x"), -EINVAL);
	/* Unknown ids. */
	CHECK_INT(perfev_self_enter(s, 2), -EINVAL);
	CHECK_INT(perfev_self_enter(s, -1), -EINVAL);
	CHECK_INT(perfev_self_enter(NULL, a), -EINVAL);
	CHECK_INT(perfev_self_region_stats(s, 2, &st), -EINVAL);
	CHECK_INT(perfev_self_region_stats(s, -1, &st), -EINVAL);
	/* Leaving what was not entered. */
	CHECK_INT(perfev_self_leave(s, a), -EINVAL);
	CHECK_INT(perfev_self_leave(NULL, a), -EINVAL);
	/* Out of order: refused, and the stack is left as it was. */
	CHECK_INT(perfev_self_enter(s, a), 0);
	CHECK_INT(perfev_self_enter(s, b), 0);
	CHECK_INT(perfev_self_leave(s, a), -EINVAL);
	CHECK_INT(perfev_self_leave(s, 7), -EINVAL);
	CHECK_INT(perfev_self_leave(s, b), 0);
	CHECK_INT(perfev_self_leave(s, a), 0);
	CHECK_INT(perfev_self_leave(s, a), -EINVAL);
	st = STATS(s, a);
	CHECK_INT(st.calls, 1);
	st = STATS(s, b);
	CHECK_INT(st.calls, 1);
	perfev_self_close(s);
}

TEST(regions_depth_limit)
{
	struct perfev_self *s = SELF("page-faults", NULL);
	int id, i;

	if (!s)
		return;
	id = perfev_self_region(s, "deep");
	for (i = 0; i < MAX_DEPTH; i++)
		CHECK_INT(perfev_self_enter(s, id), 0);
	CHECK_INT(perfev_self_enter(s, id), -ENOSPC);
	for (i = 0; i < MAX_DEPTH; i++)
		CHECK_INT(perfev_self_leave(s, id), 0);
	CHECK_INT(perfev_self_leave(s, id), -EINVAL);
	CHECK_INT(STATS(s, id).calls, MAX_DEPTH);
	/* Room again once left. */
	CHECK_INT(perfev_self_enter(s, id), 0);
	CHECK_INT(perfev_self_leave(s, id), 0);
	perfev_self_close(s);
}

TEST(regions_count_limit)
{
	struct perfev_self *s = SELF("page-faults", NULL);
	char name[32];
	int i;

	if (!s)
		return;
	for (i = 0; i < MAX_REGS; i++) {
		snprintf(name, sizeof(name), "region-%d", i);
		CHECK_INT(perfev_self_region(s, name), i);
	}
	CHECK_INT(perfev_self_region(s, "one-too-many"), -ENOSPC);
	CHECK_INT(perfev_self_region_count(s), MAX_REGS);
	/* Known names still resolve, and the last one works. */
	CHECK_INT(perfev_self_region(s, "region-7"), 7);
	CHECK_INT(perfev_self_enter(s, MAX_REGS - 1), 0);
	CHECK_INT(perfev_self_leave(s, MAX_REGS - 1), 0);
	CHECK_STR(STATS(s, MAX_REGS - 1).name, "region-255");
	CHECK_INT(perfev_self_region_count(NULL), -EINVAL);
	perfev_self_close(s);
}

/* An older caller's smaller struct is filled up to its sz and no further. */
TEST(region_stats_small_struct)
{
	struct perfev_region_stats st;
	struct perfev_self *s = SELF(EVENTS, NULL);
	const size_t small = offsetof(struct perfev_region_stats, nr);
	const unsigned char *p = (const unsigned char *)&st;
	size_t i;
	int id;

	if (!s)
		return;
	id = perfev_self_region(s, "r");
	CHECK_INT(perfev_self_enter(s, id), 0);
	test_touch_fresh_pages(4);
	CHECK_INT(perfev_self_leave(s, id), 0);

	memset(&st, 0x5a, sizeof(st));
	st.sz = small;
	CHECK_INT(perfev_self_region_stats(s, id, &st), 0);
	CHECK_INT(st.sz, small);
	CHECK_STR(st.name, "r");
	CHECK_INT(st.calls, 1);
	CHECK_INT(st.partial, 0);
	CHECK(st.enabled > 0 && st.running > 0);
	for (i = small; i < sizeof(st); i++)
		if (p[i] != 0x5a)
			break;
	EXPECT(i == sizeof(st), "byte %zu beyond sz %zu was written", i, small);

	/* Just the sz field: nothing else to fill, still fine. */
	memset(&st, 0x5a, sizeof(st));
	st.sz = sizeof(st.sz);
	CHECK_INT(perfev_self_region_stats(s, id, &st), 0);
	CHECK(st.name == (const char *)0x5a5a5a5a5a5a5a5aULL);
	/* Too small to say its size, or no struct at all. */
	st.sz = 4;
	CHECK_INT(perfev_self_region_stats(s, id, &st), -EINVAL);
	CHECK_INT(perfev_self_region_stats(s, id, NULL), -EINVAL);
	perfev_self_close(s);
}

/* ---- threads -------------------------------------------------------------------- */

struct worker {
	pthread_barrier_t *bar;
	size_t pages;
	int ret;
	uint64_t faults;
	char why[256];
};

/* Each thread counts itself: its own page faults, none of the others'. */
static void *worker_main(void *arg)
{
	struct perfev_parse_error pe = {.sz = sizeof(pe)};
	struct worker *w = arg;
	struct perfev_snapshot a, b;
	struct perfev_delta d;
	struct perfev_self *s = NULL;

	w->ret = perfev_self_open(EVENTS, NULL, &s, &pe);
	snprintf(w->why, sizeof(w->why), "%s", pe.message);
	pthread_barrier_wait(w->bar);
	if (w->ret)
		return NULL;
	w->ret = perfev_self_snapshot(s, &a);
	pthread_barrier_wait(w->bar); /* everybody touches pages at once */
	test_touch_fresh_pages(w->pages);
	if (!w->ret)
		w->ret = perfev_self_snapshot(s, &b);
	if (!w->ret)
		w->ret = perfev_self_delta(s, &a, &b, PF, &d);
	w->faults = d.raw;
	perfev_self_close(s);
	return NULL;
}

TEST(per_thread_groups)
{
	struct worker w[NTHREADS];
	pthread_t t[NTHREADS];
	pthread_barrier_t bar;
	int i;

	CHECK_INT(pthread_barrier_init(&bar, NULL, NTHREADS), 0);
	for (i = 0; i < NTHREADS; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].bar = &bar;
		w[i].pages = (size_t)(i + 1) * 100;
		CHECK_INT(pthread_create(&t[i], NULL, worker_main, &w[i]), 0);
	}
	for (i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&bar);
	for (i = 0; i < NTHREADS; i++) {
		if (w[i].ret == -EACCES || w[i].ret == -EPERM) {
			harness_skip("perf-permission", "thread %d: %s", i, w[i].why);
			return;
		}
		EXPECT(w[i].ret == 0, "thread %d: %d (%s)", i, w[i].ret, w[i].why);
		/* The others touched at least 100 pages more or less: that would show. */
		EXPECT(w[i].faults >= w[i].pages && w[i].faults < w[i].pages + 50,
		       "thread %d touched %zu pages, counted %llu page faults", i, w[i].pages,
		       (unsigned long long)w[i].faults);
	}
}

struct foreign {
	struct perfev_self *s;
	int ret;
	struct perfev_snapshot b, c;
};

static void *foreign_main(void *arg)
{
	struct foreign *f = arg;

	f->ret = perfev_self_snapshot(f->s, &f->b);
	test_touch_fresh_pages(100);
	if (!f->ret)
		f->ret = perfev_self_snapshot(f->s, &f->c);
	return NULL;
}

/* A group read from a thread that does not own it: read(2), and the owner's counts. */
TEST(snapshot_from_another_thread)
{
	struct foreign f = {0};
	struct perfev_snapshot a, d;
	pthread_t t;

	f.s = SELF(EVENTS, NULL);
	if (!f.s)
		return;
	CHECK_INT(perfev_self_snapshot(f.s, &a), 0);
	CHECK_INT(pthread_create(&t, NULL, foreign_main, &f), 0);
	pthread_join(t, NULL);
	CHECK_INT(f.ret, 0);
	CHECK_INT(f.b.path, PERFEV_READ_SYSCALL);
	CHECK_INT(f.c.path, PERFEV_READ_SYSCALL);
	CHECK_INT(f.b.nr, 3);
	EXPECT(f.b.value[PF] >= a.value[PF], "went back");
	/* The 100 faults were the other thread's: not counted here. */
	EXPECT(DELTA(f.s, &f.b, &f.c, PF).raw < 100,
	       "the owner's page-faults grew by %llu while another thread touched 100 pages",
	       (unsigned long long)DELTA(f.s, &f.b, &f.c, PF).raw);
	CHECK_INT(perfev_self_snapshot(f.s, &d), 0);
	CHECK(d.value[PF] >= f.c.value[PF]);
	perfev_self_close(f.s);
}

/* ---- what cannot be a self-monitoring group ------------------------------------- */

TEST(tool_events_refused)
{
	static const char *const strings[] = {"task-clock,duration_time", "user_time",
					      "{page-faults,system_time}"};
	size_t i;

	for (i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
		struct perfev_parse_error pe = {.sz = sizeof(pe)};
		struct perfev_self *s = NULL;
		int ret = perfev_self_open(strings[i], NULL, &s, &pe);

		EXPECT(ret == -EINVAL, "'%s': %d", strings[i], ret);
		EXPECT(s == NULL, "'%s': object returned on failure", strings[i]);
		EXPECT(strstr(pe.message, "tool events"), "'%s': message \"%s\"", strings[i],
		       pe.message);
		EXPECT(pe.err == -EINVAL, "'%s': pe.err %d", strings[i], pe.err);
	}
	/* The offset points at the tool event. */
	{
		struct perfev_parse_error pe = {.sz = sizeof(pe)};
		struct perfev_self *s = NULL;

		CHECK_INT(perfev_self_open("task-clock,duration_time", NULL, &s, &pe), -EINVAL);
		CHECK_INT(pe.offset, strlen("task-clock,"));
	}
}

TEST(at_most_32_events)
{
	struct perfev_parse_error pe = {.sz = sizeof(pe)};
	struct perfev_snapshot a, b;
	struct perfev_self *s = NULL;
	char events[33 * 16] = "";
	int i, ret;

	for (i = 0; i < 33; i++)
		strcat(events, i ? ",page-faults" : "page-faults");
	ret = perfev_self_open(events, NULL, &s, &pe);
	CHECK_INT(ret, -EINVAL);
	CHECK_CONTAINS(pe.message, "32");
	/* 32 is fine, all in one group. */
	*strrchr(events, ',') = '\0';
	s = SELF(events, NULL);
	if (!s)
		return;
	CHECK_INT(perfev_self_count(s), 32);
	CHECK_INT(perfev_self_snapshot(s, &a), 0);
	test_touch_fresh_pages(10);
	CHECK_INT(perfev_self_snapshot(s, &b), 0);
	CHECK_INT(b.nr, 32);
	for (i = 0; i < 32; i++)
		EXPECT(DELTA(s, &a, &b, (size_t)i).raw >= 10, "event %d", i);
	/* The members agree with each other: one group, scheduled as one. */
	EXPECT(DELTA(s, &a, &b, 0).raw == DELTA(s, &a, &b, 31).raw, "first %llu, last %llu",
	       (unsigned long long)DELTA(s, &a, &b, 0).raw,
	       (unsigned long long)DELTA(s, &a, &b, 31).raw);
	perfev_self_close(s);
	/* Nothing at all is no group either. */
	CHECK(perfev_self_open("", NULL, &s, NULL) < 0);
}

TEST(use_clockid)
{
	struct perfev_self_opts o = {
	    .sz = sizeof(o), .use_clockid = true, .clockid = CLOCK_MONOTONIC};
	struct perfev_parse_error pe = {.sz = sizeof(pe)};
	struct perfev_snapshot a, b;
	struct perfev_self *s = SELF("page-faults,task-clock", &o);
	int ret;

	if (!s)
		return;
	CHECK_INT(perfev_self_snapshot(s, &a), 0);
	test_touch_fresh_pages(4);
	CHECK_INT(perfev_self_snapshot(s, &b), 0);
	CHECK(DELTA(s, &a, &b, 0).raw >= 4);
	perfev_self_close(s);

	/* A clock the kernel does not know is an invalid argument, not "unsupported". */
	o.clockid = 12345;
	s = NULL;
	ret = perfev_self_open("page-faults", &o, &s, &pe);
	EXPECT(ret == -EINVAL, "clockid 12345: %d (%s)", ret, pe.message);
	EXPECT(s == NULL, "object returned on failure");
	perfev_self_close(s);
}

/*
 * self.h: the fd of an event is "to use with control.h or signal.h".  A
 * period in the string should then make overflows that signal.h delivers.
 */
static volatile sig_atomic_t self_hups;

static void on_self_overflow(const struct perfev_signal_info *info)
{
	if (info->code == POLL_HUP)
		self_hups++;
}

TEST(self_fd_overflow_signals)
{
	struct perfev_self *s = SELF("page-faults/period=16/", NULL);
	int fd, ret, i;

	if (!s)
		return;
	fd = perfev_self_fd(s, 0);
	self_hups = 0;
	CHECK_INT(perfev_signal_attach(fd, SIGRTMIN + 6, on_self_overflow, NULL), 0);
	ret = perfev_ioc_refresh(fd, 1);
	EXPECT(ret == 0,
	       "refresh of the self group's 'page-faults/period=16/': %d (the group's events are "
	       "opened without their sample period, so they never overflow)",
	       ret);
	test_touch_fresh_pages(64);
	for (i = 0; i < 1000 && !self_hups && !ret; i++)
		usleep(1000);
	EXPECT(self_hups == 1 || ret, "%d POLL_HUP after refresh 1 and 64 faults", (int)self_hups);
	CHECK_INT(perfev_signal_detach(fd), 0);
	perfev_self_close(s);
}

/* ---- time ----------------------------------------------------------------------- */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

#if defined(__x86_64__) || defined(__i386__)
static uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}
#endif

TEST(time_conv)
{
	struct perfev_time_conv c = {.sz = sizeof(c)};
	struct perfev_self *s = SELF("task-clock", NULL);
	struct page_caps caps;
	int64_t off;
	int ret;

	if (!s)
		return;
	CHECK_INT(perfev_self_time_conv(s, NULL), -EINVAL);
	CHECK_INT(perfev_self_time_conv(NULL, &c), -EINVAL);
	CHECK_INT(perfev_self_monotonic_offset(s, NULL), -EINVAL);
	caps = page_caps(perfev_self_fd(s, 0));
	ret = perfev_self_time_conv(s, &c);
	if (!caps.time_zero) {
		/* The page says nothing: neither does the library. */
		CHECK_INT(ret, -EOPNOTSUPP);
		CHECK_INT(perfev_self_monotonic_offset(s, &off), -EOPNOTSUPP);
		perfev_self_close(s);
		harness_skip("tsc-time",
			     "the mmap page of 'task-clock' has cap_user_time_zero=0 "
			     "(cap_user_time=%d): no TSC conversion published here "
			     "(paravirtual sched_clock, or an unstable TSC)",
			     caps.time);
		return;
	}
	CHECK_INT(ret, 0);
	CHECK(c.time_mult != 0);
#if defined(__x86_64__) || defined(__i386__)
	{
		uint64_t cyc, perf_ns, back, m0, m1;
		int i;

		CHECK_INT(perfev_self_monotonic_offset(s, &off), 0);
		for (i = 0; i < 5; i++) {
			m0 = mono_ns();
			cyc = rdtsc();
			m1 = mono_ns();
			perf_ns = perfev_tsc_to_perf_time(&c, cyc);
			/* perf time plus the offset is CLOCK_MONOTONIC (to well within 1 ms). */
			EXPECT((int64_t)(perf_ns + (uint64_t)off) > (int64_t)m0 - 1000000 &&
				   (int64_t)(perf_ns + (uint64_t)off) < (int64_t)m1 + 1000000,
			       "tsc %llu -> perf %llu + offset %lld, monotonic %llu..%llu",
			       (unsigned long long)cyc, (unsigned long long)perf_ns, (long long)off,
			       (unsigned long long)m0, (unsigned long long)m1);
			back = perfev_perf_time_to_tsc(&c, perf_ns);
			EXPECT(back <= cyc && cyc - back < 16, "tsc %llu -> %llu",
			       (unsigned long long)cyc, (unsigned long long)back);
		}
	}
#endif
	perfev_self_close(s);
}

/* ---- without privileges ---------------------------------------------------------- */

struct unpriv_result {
	int ret;
	int snap;
	uint64_t faults;
	char note[400];
	char msg[200];
};

static void unpriv_child(int fd)
{
	struct unpriv_result r = {0};
	struct perfev_parse_error pe = {.sz = sizeof(pe)};
	struct perfev_snapshot a, b;
	struct perfev_self *s = NULL;

	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		_exit(3);
	r.ret = perfev_self_open("task-clock,page-faults", NULL, &s, &pe);
	snprintf(r.msg, sizeof(r.msg), "%s", pe.message);
	if (!r.ret) {
		snprintf(r.note, sizeof(r.note), "%s", perfev_self_note(s, 0) ?: "(null)");
		r.snap = perfev_self_snapshot(s, &a);
		test_touch_fresh_pages(20);
		if (!r.snap)
			r.snap = perfev_self_snapshot(s, &b);
		if (!r.snap)
			r.faults = b.value[1] - a.value[1];
	}
	if (write(fd, &r, sizeof(r)) != (ssize_t)sizeof(r))
		_exit(4);
	_exit(0);
}

TEST(unprivileged_falls_back_to_user)
{
	struct unpriv_result r;
	int p[2], status, paranoid;
	char text[32];
	pid_t pid;

	if (!root()) {
		harness_skip("root", "needs root to become user %d", NOBODY);
		return;
	}
	paranoid = test_read_text("/proc/sys/kernel/perf_event_paranoid", text, sizeof(text)) > 0
		       ? atoi(text)
		       : 2;
	if (paranoid > 2) {
		harness_skip("perf-permission",
			     "perf_event_paranoid=%d forbids unprivileged users any counting",
			     paranoid);
		return;
	}
	CHECK(!pipe2(p, O_CLOEXEC));
	pid = fork();
	CHECK(pid >= 0);
	if (!pid) {
		close(p[0]);
		unpriv_child(p[1]);
	}
	close(p[1]);
	memset(&r, 0, sizeof(r));
	CHECK_INT(read(p[0], &r, sizeof(r)), sizeof(r));
	close(p[0]);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_INT(r.ret, 0);
	CHECK_INT(r.snap, 0);
	if (paranoid >= 2) {
		/* Kernel counting is not permitted: the library dropped it and said so. */
		EXPECT(strstr(r.note, "got 'task-clock:u'") && strstr(r.note, "paranoid"),
		       "note: %s", r.note);
	}
	EXPECT(r.faults >= 20, "user-only page-faults counted %llu for 20 fresh pages",
	       (unsigned long long)r.faults);
}
