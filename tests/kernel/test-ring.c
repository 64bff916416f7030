// SPDX-License-Identifier: LGPL-2.1-or-later
/* Ring buffers of real software events: records, SET_OUTPUT, write_backward snapshots, polling. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <perfev/control.h>
#include <perfev/record.h>
#include <perfev/ring.h>
#include <perfev/sys.h>
#include "harness.h"

#define ST_FAULT (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR)
#define MAX_RECS 4096

/* ---- helpers ---------------------------------------------------------------- */

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

/*
 * A software event on user space only, so that an unprivileged user may
 * open it with perf_event_paranoid up to 2.
 */
static void sw_attr(struct perf_event_attr *a, uint64_t config, uint64_t period, uint64_t st)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = config;
	a->sample_period = period;
	a->sample_type = st;
	a->sample_id_all = 1;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	a->disabled = 1;
}

/* Open on @pid (0: this thread), or decide the case (skip or fail) and return -1. */
static int open_at(const struct perf_event_attr *a, pid_t pid, const char *what, int line)
{
	int fd = perfev_sys_open(a, pid, -1, -1, 0);

	if (fd >= 0)
		return fd;
	harness_skip_errno(what, fd, what, __FILE__, line);
	return -1;
}

#define OPEN(a, pid, what) open_at(a, pid, what, __LINE__)

/* Map @pages data pages of @fd, or decide the case and return NULL. */
static struct perfev_ring *map_at(int fd, size_t pages, bool overwrite, int line)
{
	struct perfev_ring_opts o = {.sz = sizeof(o), .data_pages = pages, .overwrite = overwrite};
	struct perfev_ring *r = NULL;
	int ret = perfev_ring_map(fd, &o, &r);

	if (ret) {
		/* -EPERM: more than perf_event_mlock_kb for this user. */
		harness_skip_errno("ring-mmap", ret, "perfev_ring_map", __FILE__, line);
		return NULL;
	}
	return r;
}

#define MAP(fd, pages, ow) map_at(fd, pages, ow, __LINE__)

static uint64_t id_of(int fd)
{
	uint64_t id = 0;

	if (perfev_ioc_id(fd, &id))
		return 0;
	return id;
}

/* What tests keep of a record. */
struct rec {
	uint32_t type;
	uint16_t misc;
	uint32_t pid, tid;
	uint64_t time, addr, id, period;
	char text[PATH_MAX]; /* the file name of MMAP, the name of COMM */
	uint64_t mmap_addr, mmap_len, mmap_pgoff;
	uint32_t sid_pid, sid_tid;
	uint64_t sid_id;
};

struct recs {
	size_t n;
	struct rec r[MAX_RECS];
	bool bad; /* a record did not decode */
};

static struct recs got;

static void keep(struct recs *rs, const struct perfev_sample_layout *l,
		 const struct perf_event_header *h)
{
	struct perfev_record d;
	struct rec *k;

	if (perfev_record_decode(l, h, h->size, &d)) {
		rs->bad = true;
		return;
	}
	if (rs->n == MAX_RECS)
		return;
	k = &rs->r[rs->n++];
	memset(k, 0, sizeof(*k));
	k->type = d.type;
	k->misc = d.misc;
	k->sid_pid = d.sid.pid;
	k->sid_tid = d.sid.tid;
	k->sid_id = d.sid.identifier;
	switch (d.type) {
	case PERF_RECORD_SAMPLE:
		k->pid = d.u.sample.pid;
		k->tid = d.u.sample.tid;
		k->time = d.u.sample.time;
		k->addr = d.u.sample.addr;
		k->id = d.u.sample.identifier;
		k->period = d.u.sample.period;
		break;
	case PERF_RECORD_MMAP:
		k->pid = d.u.mmap.pid;
		k->tid = d.u.mmap.tid;
		k->mmap_addr = d.u.mmap.addr;
		k->mmap_len = d.u.mmap.len;
		k->mmap_pgoff = d.u.mmap.pgoff;
		snprintf(k->text, sizeof(k->text), "%s", d.u.mmap.filename);
		break;
	case PERF_RECORD_COMM:
		k->pid = d.u.comm.pid;
		k->tid = d.u.comm.tid;
		snprintf(k->text, sizeof(k->text), "%s", d.u.comm.comm);
		break;
	default:
		break;
	}
}

/* Read everything @r holds into @rs (appended); false after failing the case. */
static bool drain_at(struct perfev_ring *r, const struct perfev_sample_layout *l, struct recs *rs,
		     int line)
{
	const struct perf_event_header *h;
	int64_t n = perfev_ring_begin(r);
	int ret;

	if (n < 0) {
		harness_fail(__FILE__, line, "perfev_ring_begin: %s", strerrorname_np((int)-n));
		return false;
	}
	while ((ret = perfev_ring_next(r, &h)) == 1)
		keep(rs, l, h);
	perfev_ring_end(r);
	if (ret) {
		harness_fail(__FILE__, line, "perfev_ring_next: %s", strerrorname_np(-ret));
		return false;
	}
	if (rs->bad) {
		harness_fail(__FILE__, line, "a record does not decode");
		return false;
	}
	return true;
}

#define DRAIN(r, l, rs) CHECK(drain_at(r, l, rs, __LINE__))

/* @n fresh anonymous pages, written in order: one page fault each, at its first byte. */
static char *touch_region(size_t n)
{
	size_t ps = page_size(), i;
	char *p = mmap(NULL, n * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	/* Huge pages (of any size) would take many pages in one fault. */
	madvise(p, n * ps, MADV_NOHUGEPAGE);
	for (i = 0; i < n; i++)
		((volatile char *)p)[i * ps] = 1;
	return p;
}

/* Index of the page of @addr in the @n-page region at @base, or -1. */
static long page_in(const char *base, size_t n, uint64_t addr)
{
	uint64_t b = (uint64_t)(uintptr_t)base;

	if (addr < b || addr >= b + n * page_size())
		return -1;
	return (long)((addr - b) / page_size());
}

/* ---- cases ------------------------------------------------------------------ */

TEST(map_sizes)
{
	struct perfev_ring_opts o = {.sz = sizeof(o)};
	struct perf_event_attr a;
	struct perfev_ring *r = NULL;
	int fd;

	sw_attr(&a, PERF_COUNT_SW_DUMMY, 0, 0);
	fd = OPEN(&a, 0, "dummy event");
	if (fd < 0)
		return;
	/* 1 + 2^n pages: data page counts that are not a power of two never reach mmap. */
	o.data_pages = 3;
	EXPECT(perfev_ring_map(fd, &o, &r) == -EINVAL && !r, "3 data pages");
	o.data_pages = 6;
	EXPECT(perfev_ring_map(fd, &o, &r) == -EINVAL && !r, "6 data pages");
	EXPECT(perfev_ring_map(-1, NULL, &r) == -EINVAL && !r, "fd -1");
	EXPECT(perfev_ring_map(fd, NULL, NULL) == -EINVAL, "NULL out");
	/* Overwrite rings cannot carry an AUX area: its geometry goes in the read-only page. */
	o.data_pages = 1;
	o.overwrite = true;
	o.aux_pages = 1;
	EXPECT(perfev_ring_map(fd, &o, &r) == -EINVAL && !r, "overwrite with AUX");
	/* A software event has no AUX area. */
	o.overwrite = false;
	EXPECT(perfev_ring_map(fd, &o, &r) == -EOPNOTSUPP && !r, "AUX on a software event");
	/* The default size. */
	if (!(r = MAP(fd, 0, false))) {
		close(fd);
		return;
	}
	EXPECT(perfev_ring_data_size(r) == 128 * page_size(), "default size %zu",
	       perfev_ring_data_size(r));
	EXPECT(perfev_ring_fd(r) == fd, "fd %d", perfev_ring_fd(r));
	EXPECT(perfev_ring_aux_size(r) == 0, "an AUX area");
	EXPECT(perfev_ring_page(r)->data_size == 0 ||
		   perfev_ring_page(r)->data_size == perfev_ring_data_size(r),
	       "data_size %llu", (unsigned long long)perfev_ring_page(r)->data_size);
	perfev_ring_free(r);
	r = MAP(fd, 2, false);
	EXPECT(r && perfev_ring_data_size(r) == 2 * page_size(), "2 data pages");
	perfev_ring_free(r);
	close(fd);
}

/* MMAP and COMM records of this thread: a file mapped, the thread renamed. */
TEST(tracking_records)
{
	struct perfev_sample_layout l;
	struct perf_event_attr a;
	struct perfev_ring *r;
	char tmpl[] = "/tmp/perfev-ring-XXXXXX", path[PATH_MAX], old[16] = "";
	size_t ps = page_size(), i;
	bool saw_mmap = false, saw_comm = false;
	uint64_t id;
	void *map;
	int fd, file;

	sw_attr(&a, PERF_COUNT_SW_DUMMY, 0,
		PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_IDENTIFIER);
	a.mmap = 1;
	a.mmap_data = 1; /* the file is mapped for reading, not executing */
	a.comm = 1;
	a.task = 1;
	a.disabled = 0;
	CHECK(!perfev_sample_layout_init(&l, &a));
	fd = OPEN(&a, 0, "dummy event with mmap and comm");
	if (fd < 0)
		return;
	id = id_of(fd);
	CHECK(id != 0);
	if (!(r = MAP(fd, 8, false))) {
		close(fd);
		return;
	}
	file = mkstemp(tmpl);
	CHECK(file >= 0);
	CHECK(ftruncate(file, (off_t)(3 * ps)) == 0);
	CHECK(realpath(tmpl, path));
	map = mmap(NULL, 2 * ps, PROT_READ, MAP_PRIVATE, file, (off_t)ps);
	CHECK(map != MAP_FAILED);
	prctl(PR_GET_NAME, old);
	CHECK(prctl(PR_SET_NAME, "perfev-ring-t") == 0);
	prctl(PR_SET_NAME, old);

	got.n = 0;
	got.bad = false;
	DRAIN(r, &l, &got);
	for (i = 0; i < got.n; i++) {
		const struct rec *k = &got.r[i];

		if (k->type == PERF_RECORD_MMAP && !strcmp(k->text, path)) {
			saw_mmap = true;
			EXPECT(k->pid == (uint32_t)getpid() && k->tid == (uint32_t)gettid(),
			       "mmap pid %u tid %u", k->pid, k->tid);
			EXPECT(k->mmap_addr == (uint64_t)(uintptr_t)map, "mmap addr %#" PRIx64,
			       k->mmap_addr);
			EXPECT(k->mmap_len == 2 * ps, "mmap len %" PRIu64, k->mmap_len);
			EXPECT(k->mmap_pgoff == ps, "mmap pgoff %" PRIu64, k->mmap_pgoff);
			EXPECT(k->misc & PERF_RECORD_MISC_MMAP_DATA, "misc %#x", k->misc);
			EXPECT((k->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER,
			       "mmap misc %#x", k->misc);
		}
		if (k->type == PERF_RECORD_COMM && !strcmp(k->text, "perfev-ring-t")) {
			saw_comm = true;
			EXPECT(k->pid == (uint32_t)getpid() && k->tid == (uint32_t)gettid(),
			       "comm pid %u tid %u", k->pid, k->tid);
			EXPECT(!(k->misc & PERF_RECORD_MISC_COMM_EXEC), "comm misc %#x", k->misc);
		}
		/* Every record of this event carries its sample_id trailer. */
		EXPECT(k->sid_id == id,
		       "record type %u: identifier %#" PRIx64 ", expected %#" PRIx64, k->type,
		       k->sid_id, id);
		EXPECT(k->sid_pid == (uint32_t)getpid() && k->sid_tid == (uint32_t)gettid(),
		       "record type %u: trailer pid %u tid %u", k->type, k->sid_pid, k->sid_tid);
	}
	EXPECT(saw_mmap, "no MMAP record of %s among %zu records", path, got.n);
	EXPECT(saw_comm, "no COMM record among %zu records", got.n);
	munmap(map, 2 * ps);
	close(file);
	unlink(tmpl);
	perfev_ring_free(r);
	close(fd);
}

/* task-clock samples of this thread, read while they are written. */
TEST(samples_of_self)
{
	const uint64_t period = 200000; /* ns of task time */
	struct perfev_sample_layout l;
	struct perf_event_attr a;
	struct perfev_ring *r;
	size_t i, samples = 0, rounds;
	uint64_t id, last = 0;
	int fd;

	sw_attr(&a, PERF_COUNT_SW_TASK_CLOCK, period,
		PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		    PERF_SAMPLE_PERIOD);
	CHECK(!perfev_sample_layout_init(&l, &a));
	fd = OPEN(&a, 0, "task-clock sampling");
	if (fd < 0)
		return;
	id = id_of(fd);
	if (!(r = MAP(fd, 8, false))) {
		close(fd);
		return;
	}
	CHECK(!perfev_ioc_enable(fd, false));
	got.n = 0;
	got.bad = false;
	/* Burn CPU until 20 samples came out, reading as they arrive. */
	for (rounds = 0; rounds < 5000 && samples < 20; rounds++) {
		size_t from = got.n;

		test_burn();
		DRAIN(r, &l, &got);
		for (i = from; i < got.n; i++)
			samples += got.r[i].type == PERF_RECORD_SAMPLE;
	}
	CHECK(!perfev_ioc_disable(fd, false));
	CHECK(samples >= 20);
	for (i = 0; i < got.n; i++) {
		const struct rec *k = &got.r[i];

		if (k->type != PERF_RECORD_SAMPLE)
			continue;
		EXPECT(k->pid == (uint32_t)getpid() && k->tid == (uint32_t)gettid(),
		       "sample pid %u tid %u", k->pid, k->tid);
		EXPECT(k->id == id, "sample identifier %#" PRIx64, k->id);
		EXPECT(k->period == period, "sample period %" PRIu64, k->period);
		EXPECT((k->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER,
		       "sample misc %#x", k->misc);
		EXPECT(k->time >= last, "time %" PRIu64 " before %" PRIu64, k->time, last);
		last = k->time;
	}
	perfev_ring_free(r);
	close(fd);
}

/*
 * Two events, one ring: PERF_EVENT_IOC_SET_OUTPUT, records told apart by
 * their identifier.  Two kinds of fault count the same faults; two events
 * of one kind would not do: on the kernel this was written on (6.18) the
 * events hit by one software event share its sample data, and both
 * events' samples carry the ids of one of them.
 */
TEST(set_output)
{
	struct perfev_sample_layout l;
	struct perf_event_attr a;
	struct perfev_ring *r;
	size_t i, from_a = 0, from_b = 0, n = 32;
	uint64_t ida, idb;
	int fda, fdb, fdc;
	char *p;

	sw_attr(&a, PERF_COUNT_SW_PAGE_FAULTS, 1, ST_FAULT);
	CHECK(!perfev_sample_layout_init(&l, &a));
	fda = OPEN(&a, 0, "page-faults sampling");
	if (fda < 0)
		return;
	a.config = PERF_COUNT_SW_PAGE_FAULTS_MIN;
	fdb = OPEN(&a, 0, "minor-faults sampling");
	if (fdb < 0) {
		close(fda);
		return;
	}
	ida = id_of(fda);
	idb = id_of(fdb);
	CHECK(ida && idb && ida != idb);
	if (!(r = MAP(fda, 16, false))) {
		close(fda);
		close(fdb);
		return;
	}
	CHECK_INT(perfev_ring_set_output(r, fdb), 0);
	/* The kernel refuses to mix a write_backward event into a forward ring. */
	a.write_backward = 1;
	fdc = OPEN(&a, 0, "page-faults sampling, write_backward");
	if (fdc >= 0) {
		EXPECT(perfev_ring_set_output(r, fdc) == -EINVAL,
		       "write_backward into a forward ring");
		close(fdc);
	}
	if (harness_done()) {
		perfev_ring_free(r);
		close(fdb);
		close(fda);
		return;
	}

	CHECK(!perfev_ioc_enable(fda, false) && !perfev_ioc_enable(fdb, false));
	p = touch_region(n);
	CHECK(!perfev_ioc_disable(fda, false) && !perfev_ioc_disable(fdb, false));
	CHECK(p);
	got.n = 0;
	got.bad = false;
	DRAIN(r, &l, &got);
	for (i = 0; i < got.n; i++) {
		const struct rec *k = &got.r[i];

		if (k->type != PERF_RECORD_SAMPLE)
			continue;
		EXPECT(k->id == ida || k->id == idb, "identifier %#" PRIx64, k->id);
		if (page_in(p, n, k->addr) < 0)
			continue;
		from_a += k->id == ida;
		from_b += k->id == idb;
	}
	/* Both events saw every fault of the region, in the one ring. */
	EXPECT(from_a == n && from_b == n, "%zu and %zu samples, expected %zu each", from_a, from_b,
	       n);
	munmap(p, n * page_size());
	perfev_ring_free(r);
	close(fdb);
	close(fda);
}

static struct recs snap;
static struct perfev_sample_layout snap_layout;

static int take(const struct perf_event_header *h, void *ctx)
{
	keep(ctx, &snap_layout, h);
	return 0;
}

/* Check the region's samples in @rs: pages @first..@last in order, nothing else from it. */
static bool region_run(const struct recs *rs, const char *p, size_t n, long first, long last,
		       int line)
{
	long want = first;
	size_t i;

	for (i = 0; i < rs->n; i++) {
		long pg = rs->r[i].type == PERF_RECORD_SAMPLE ? page_in(p, n, rs->r[i].addr) : -1;

		if (pg < 0)
			continue;
		if (first < 0 || pg != want) {
			harness_fail(__FILE__, line,
				     "sample %zu of the snapshot is page %ld, expected %ld", i, pg,
				     want);
			return false;
		}
		want++;
	}
	if (first >= 0 && want != last + 1) {
		harness_fail(__FILE__, line, "the snapshot ends at page %ld, expected %ld",
			     want - 1, last);
		return false;
	}
	return true;
}

/* A flight recorder: write_backward, PAUSE_OUTPUT, the newest records oldest first. */
TEST(write_backward_snapshot)
{
	const size_t n = 1024, n2 = 5, ps = page_size();
	struct perf_event_attr a;
	struct perfev_ring *r;
	long first = -1;
	uint64_t id, last = 0;
	char *p, *p2;
	size_t i;
	int fd, ret;

	sw_attr(&a, PERF_COUNT_SW_PAGE_FAULTS, 1, ST_FAULT);
	a.write_backward = 1;
	CHECK(!perfev_sample_layout_init(&snap_layout, &a));
	fd = OPEN(&a, 0, "page-faults sampling, write_backward");
	if (fd < 0)
		return;
	id = id_of(fd);
	if (!(r = MAP(fd, 1, true))) {
		close(fd);
		return;
	}
	CHECK(!perfev_ioc_enable(fd, false));
	/* Far more faults than one page of records holds. */
	p = touch_region(n);
	CHECK(p);
	snap.n = 0;
	snap.bad = false;
	ret = perfev_ring_snapshot(r, take, &snap);
	CHECK(!snap.bad);
	CHECK_INT(ret, snap.n);
	CHECK(snap.n > 0 && snap.n * 40 <= ps);
	for (i = 0; i < snap.n; i++) {
		const struct rec *k = &snap.r[i];

		EXPECT(k->type == PERF_RECORD_SAMPLE, "record type %u", k->type);
		EXPECT(k->id == id, "identifier %#" PRIx64, k->id);
		EXPECT(k->pid == (uint32_t)getpid() && k->tid == (uint32_t)gettid(),
		       "pid %u tid %u", k->pid, k->tid);
		/* Oldest first. */
		EXPECT(k->time >= last, "time %" PRIu64 " before %" PRIu64, k->time, last);
		last = k->time;
		if (first < 0)
			first = page_in(p, n, k->addr);
	}
	/* The newest: a run of the region's last pages, its first ones overwritten. */
	CHECK(first > 0);
	CHECK(region_run(&snap, p, n, first, (long)n - 1, __LINE__));

	/* Only what came since the last snapshot. */
	p2 = touch_region(n2);
	CHECK(p2);
	snap.n = 0;
	ret = perfev_ring_snapshot(r, take, &snap);
	CHECK(!snap.bad);
	CHECK_INT(ret, snap.n);
	CHECK(region_run(&snap, p2, n2, 0, (long)n2 - 1, __LINE__));
	CHECK(region_run(&snap, p, n, -1, -1, __LINE__));
	CHECK(!perfev_ioc_disable(fd, false));
	/* Reading normal-mode style is refused. */
	CHECK_INT(perfev_ring_begin(r), -EINVAL);
	munmap(p, n * ps);
	munmap(p2, n2 * ps);
	perfev_ring_free(r);
	close(fd);

	/* Read-only but not write_backward: the kernel overwrites forward, which snapshots refuse.
	 */
	a.write_backward = 0;
	fd = OPEN(&a, 0, "page-faults sampling");
	if (fd < 0)
		return;
	if (!(r = MAP(fd, 1, true))) {
		close(fd);
		return;
	}
	CHECK(!perfev_ioc_enable(fd, false));
	p = touch_region(8);
	CHECK(!perfev_ioc_disable(fd, false));
	CHECK(p);
	snap.n = 0;
	CHECK_INT(perfev_ring_snapshot(r, take, &snap), -EBADMSG);
	CHECK_INT(snap.n, 0);
	munmap(p, 8 * page_size());
	perfev_ring_free(r);
	close(fd);
}

/* POLLIN after wakeup_events samples, or wakeup_watermark bytes, and not before. */
TEST(poller_wakeup)
{
	static const struct {
		bool watermark;
		uint32_t value;	      /* samples, or bytes */
		size_t before, after; /* faults before the check that nothing is ready, then more */
	} cases[] = {
	    {false, 32, 4, 64},
	    {true, 2048, 4, 100},
	};
	struct perfev_sample_layout l;
	struct perfev_poll_event ev[4];
	struct perfev_poller *pl;
	struct perf_event_attr a;
	size_t k, i, in_region;
	int tag;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct perfev_ring *r;
		char *p, *q;
		int fd, ret;

		sw_attr(&a, PERF_COUNT_SW_PAGE_FAULTS, 1, ST_FAULT);
		a.watermark = cases[k].watermark;
		a.wakeup_events = cases[k].value; /* a union with wakeup_watermark */
		CHECK(!perfev_sample_layout_init(&l, &a));
		fd = OPEN(&a, 0, "page-faults sampling");
		if (fd < 0)
			return;
		if (!(r = MAP(fd, 8, false))) {
			close(fd);
			return;
		}
		CHECK_INT(perfev_poller_new(&pl), 0);
		CHECK_INT(perfev_poller_add(pl, fd, &tag), 0);
		CHECK_INT(perfev_poller_add(pl, fd, &tag), -EEXIST);
		CHECK(!perfev_ioc_enable(fd, false));
		p = touch_region(cases[k].before);
		CHECK(p);
		EXPECT(perfev_poller_wait(pl, ev, 4, 0) == 0, "case %zu: ready after %zu samples",
		       k, cases[k].before);
		q = touch_region(cases[k].after);
		CHECK(q);
		ret = perfev_poller_wait(pl, ev, 4, 10000);
		CHECK(!perfev_ioc_disable(fd, false));
		CHECK_INT(ret, 1);
		CHECK(ev[0].data == &tag);
		CHECK(!ev[0].hangup);
		got.n = 0;
		got.bad = false;
		DRAIN(r, &l, &got);
		for (i = in_region = 0; i < got.n; i++)
			in_region += got.r[i].type == PERF_RECORD_SAMPLE &&
				     (page_in(p, cases[k].before, got.r[i].addr) >= 0 ||
				      page_in(q, cases[k].after, got.r[i].addr) >= 0);
		EXPECT(in_region == cases[k].before + cases[k].after, "case %zu: %zu samples", k,
		       in_region);
		CHECK_INT(perfev_poller_del(pl, fd), 0);
		CHECK_INT(perfev_poller_del(pl, fd), -ENOENT);
		perfev_poller_free(pl);
		munmap(p, cases[k].before * page_size());
		munmap(q, cases[k].after * page_size());
		perfev_ring_free(r);
		close(fd);
	}
}

/* POLLHUP when the task of an event exits. */
TEST(poller_hangup)
{
	struct perfev_poll_event ev[4];
	struct perfev_poller *pl;
	struct perf_event_attr a;
	struct perfev_ring *r;
	int go[2], fd, ret, status, tag;
	pid_t child;
	char c;

	CHECK_INT(perfev_poller_new(&pl), 0);
	CHECK_INT(perfev_poller_wait(pl, ev, 4, 0), 0);
	CHECK_INT(perfev_poller_wait(pl, ev, 0, 0), -EINVAL);
	CHECK_INT(perfev_poller_add(pl, -1, &tag), -EINVAL);
	CHECK(pipe2(go, O_CLOEXEC) == 0);
	child = fork();
	CHECK(child >= 0);
	if (!child) {
		/* Wait for the parent's word (or its death), then exit. */
		close(go[1]);
		_exit(read(go[0], &c, 1) < 0);
	}
	close(go[0]);
	sw_attr(&a, PERF_COUNT_SW_TASK_CLOCK, 0, 0);
	a.disabled = 0;
	fd = OPEN(&a, child, "task-clock on a child");
	if (fd < 0 || !(r = MAP(fd, 1, false))) {
		close(go[1]);
		waitpid(child, NULL, 0);
		if (fd >= 0)
			close(fd);
		perfev_poller_free(pl);
		return;
	}
	CHECK_INT(perfev_poller_add(pl, fd, &tag), 0);
	/* Alive: nothing to report. */
	CHECK_INT(perfev_poller_wait(pl, ev, 4, 0), 0);
	close(go[1]);
	ret = perfev_poller_wait(pl, ev, 4, 10000);
	CHECK(waitpid(child, &status, 0) == child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_INT(ret, 1);
	CHECK(ev[0].data == &tag);
	CHECK(ev[0].hangup);
	perfev_poller_free(pl);
	perfev_ring_free(r);
	close(fd);
}
