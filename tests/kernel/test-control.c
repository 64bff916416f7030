// SPDX-License-Identifier: LGPL-2.1-or-later
/* The PERF_EVENT_IOC_* and prctl() controls on real software, tracepoint and breakpoint events. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <perfev/perfev.h>
#include "harness.h"

#define RING_PAGES  8 /* data pages after the control page: a power of two */
#define MAX_SAMPLES 4096

/* ---- helpers ---------------------------------------------------------------- */

/* Kernel-side counting (tracepoints, context switches) needs privileges. */
static bool root(void)
{
	return geteuid() == 0;
}

static void sw_attr(struct perf_event_attr *a, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = config;
	a->exclude_kernel = !root();
	a->exclude_hv = 1;
}

/* Open on the calling thread, or decide the case (skip or fail) and return -1. */
static int open_or_decide(struct perf_event_attr *a, pid_t pid, int cpu, int group_fd,
			  const char *what)
{
	int fd = perfev_sys_open(a, pid, cpu, group_fd, 0);

	if (fd >= 0)
		return fd;
	if (!harness_skip_errno(what, fd, what, __FILE__, __LINE__))
		harness_fail(__FILE__, __LINE__, "%s: %d", what, fd);
	return -1;
}

static int open_sw(uint64_t config, bool disabled, int group_fd, const char *what)
{
	struct perf_event_attr a;

	sw_attr(&a, config);
	a.disabled = disabled;
	return open_or_decide(&a, 0, -1, group_fd, what);
}

/* The count of a counter opened with read_format 0, or UINT64_MAX on error. */
static uint64_t count(int fd)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		return UINT64_MAX;
	return v;
}

static double thread_cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void close_fds(int *fds, int n)
{
	while (n-- > 0)
		if (fds[n] >= 0)
			close(fds[n]);
}

/* ---- a minimal ring reader --------------------------------------------------- */

struct ring {
	struct perf_event_mmap_page *pg;
	unsigned char *data;
	uint64_t size;
	size_t len;
};

static int ring_map(int fd, struct ring *r)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p;

	r->len = (size_t)(1 + RING_PAGES) * (size_t)page;
	p = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	r->pg = p;
	r->data = (unsigned char *)p + (r->pg->data_offset ? r->pg->data_offset : (size_t)page);
	r->size = r->pg->data_size ? r->pg->data_size : (uint64_t)RING_PAGES * (uint64_t)page;
	return 0;
}

static void ring_unmap(struct ring *r)
{
	if (r->pg)
		munmap(r->pg, r->len);
	r->pg = NULL;
}

static uint64_t ring_head(const struct ring *r)
{
	/* Pairs with the kernel's smp_store_release() of data_head in perf_output_put_handle(). */
	return __atomic_load_n(&r->pg->data_head, __ATOMIC_ACQUIRE);
}

/* What a drain collected: the first u64 of each sample, and the other records. */
struct samples {
	uint64_t first[MAX_SAMPLES];
	size_t n, other;
	bool malformed;
};

/* Read every record between tail and head (copying wrapped ones) and free the space. */
static void ring_drain(struct ring *r, struct samples *s)
{
	uint64_t head = ring_head(r), tail = r->pg->data_tail;
	union {
		struct perf_event_header h;
		uint64_t u[512];
	} rec;

	while (tail < head) {
		uint64_t off = tail % r->size, i;
		unsigned char *dst = (unsigned char *)&rec;

		for (i = 0; i < sizeof(rec.h); i++)
			dst[i] = r->data[(off + i) % r->size];
		if (rec.h.size < sizeof(rec.h) || rec.h.size > sizeof(rec) ||
		    rec.h.size > head - tail) {
			s->malformed = true;
			tail = head;
			break;
		}
		for (i = 0; i < rec.h.size; i++)
			dst[i] = r->data[(off + i) % r->size];
		if (rec.h.type == PERF_RECORD_SAMPLE && rec.h.size >= 16 && s->n < MAX_SAMPLES)
			s->first[s->n++] = rec.u[1];
		else
			s->other++;
		tail += rec.h.size;
	}
	/* Pairs with the kernel's read of data_tail in perf_output_begin(): we are done with it. */
	__atomic_store_n(&r->pg->data_tail, tail, __ATOMIC_RELEASE);
}

static size_t samples_with(const struct samples *s, uint64_t first)
{
	size_t i, n = 0;

	for (i = 0; i < s->n; i++)
		n += s->first[i] == first;
	return n;
}

/* A software sampler writing @sample_type records every @period events. */
static int open_sampler(uint64_t config, uint64_t period, uint64_t sample_type, pid_t pid, int cpu,
			const char *what)
{
	struct perf_event_attr a;

	sw_attr(&a, config);
	a.sample_period = period;
	a.sample_type = sample_type;
	a.disabled = 1;
	a.wakeup_events = 1;
	return open_or_decide(&a, pid, cpu, -1, what);
}

static int open_pf_sampler(uint64_t period, uint64_t sample_type, pid_t pid, int cpu,
			   const char *what)
{
	return open_sampler(PERF_COUNT_SW_PAGE_FAULTS, period, sample_type, pid, cpu, what);
}

/* ---- enable, disable, reset --------------------------------------------------- */

TEST(enable_disable_reset)
{
	uint64_t a, b;
	int fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, true, -1, "task-clock");

	if (fd < 0)
		return;
	test_burn();
	EXPECT(count(fd) == 0, "opened disabled, counted %llu", (unsigned long long)count(fd));
	CHECK_INT(perfev_ioc_enable(fd, false), 0);
	test_burn();
	a = count(fd);
	EXPECT(a > 0 && a != UINT64_MAX, "enabled: %llu", (unsigned long long)a);
	CHECK_INT(perfev_ioc_disable(fd, false), 0);
	a = count(fd);
	test_burn();
	b = count(fd);
	EXPECT(a == b, "disabled, yet went from %llu to %llu", (unsigned long long)a,
	       (unsigned long long)b);
	CHECK_INT(perfev_ioc_reset(fd, false), 0);
	EXPECT(count(fd) == 0, "reset while disabled: %llu", (unsigned long long)count(fd));
	CHECK_INT(perfev_ioc_enable(fd, false), 0);
	test_burn();
	a = count(fd);
	EXPECT(a > 0, "re-enabled: %llu", (unsigned long long)a);
	/* Reset while running: starts again from zero, below what was counted. */
	CHECK_INT(perfev_ioc_reset(fd, false), 0);
	b = count(fd);
	EXPECT(b < a, "reset while running: %llu, before %llu", (unsigned long long)b,
	       (unsigned long long)a);
	/* Enable and disable are idempotent. */
	CHECK_INT(perfev_ioc_enable(fd, false), 0);
	CHECK_INT(perfev_ioc_disable(fd, false), 0);
	CHECK_INT(perfev_ioc_disable(fd, false), 0);
	close(fd);
}

#define GROUP_NR 3

static void group_counts(const int *fds, uint64_t *v)
{
	int i;

	for (i = 0; i < GROUP_NR; i++)
		v[i] = count(fds[i]);
}

/* Fresh page faults: every member has something to count. */
static void group_work(void)
{
	test_touch_fresh_pages(32);
}

/*
 * The members are all events of the one "software" PMU.  On Linux 6.18 a
 * member enabled while its group is running starts counting only when the
 * group is next scheduled in if its PMU differs from the leader's (as
 * task-clock's and cpu-clock's do from page-faults'), which would hide
 * what the flag does.
 */
TEST(group_flag)
{
	static const uint64_t configs[GROUP_NR] = {
	    PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_PAGE_FAULTS_MIN, PERF_COUNT_SW_PAGE_FAULTS};
	uint64_t a[GROUP_NR], b[GROUP_NR];
	int fds[GROUP_NR] = {-1, -1, -1}, i;

	for (i = 0; i < GROUP_NR; i++) {
		fds[i] = open_sw(configs[i], true, i ? fds[0] : -1, "software group");
		if (fds[i] < 0) {
			close_fds(fds, i);
			return;
		}
	}

	/* Without the flag only the leader is enabled: its siblings stay off. */
	CHECK_INT(perfev_ioc_enable(fds[0], false), 0);
	group_work();
	group_counts(fds, a);
	EXPECT(a[0] > 0, "leader enabled alone did not count");
	EXPECT(a[1] == 0 && a[2] == 0, "siblings counted %llu and %llu without being enabled",
	       (unsigned long long)a[1], (unsigned long long)a[2]);

	/* With it, the whole group. */
	CHECK_INT(perfev_ioc_enable(fds[0], true), 0);
	group_work();
	group_counts(fds, b);
	for (i = 0; i < GROUP_NR; i++)
		EXPECT(b[i] > a[i], "member %d did not count after the group enable (%llu)", i,
		       (unsigned long long)b[i]);

	/* Group disable stops everyone... */
	CHECK_INT(perfev_ioc_disable(fds[0], true), 0);
	group_counts(fds, a);
	group_work();
	group_counts(fds, b);
	for (i = 0; i < GROUP_NR; i++)
		EXPECT(a[i] == b[i], "member %d counted while the group was disabled", i);

	/* ...and leaves the siblings off when the leader alone comes back. */
	CHECK_INT(perfev_ioc_enable(fds[0], false), 0);
	group_work();
	group_counts(fds, b);
	EXPECT(b[0] > a[0], "leader did not count once re-enabled");
	EXPECT(b[1] == a[1] && b[2] == a[2], "siblings counted after a group disable");

	/* The flag on a sibling's fd applies to its whole group. */
	CHECK_INT(perfev_ioc_disable(fds[2], true), 0);
	group_counts(fds, a);
	group_work();
	group_counts(fds, b);
	EXPECT(a[0] == b[0], "group disable through a sibling left the leader counting");
	CHECK_INT(perfev_ioc_enable(fds[1], true), 0);
	group_work();
	group_counts(fds, b);
	for (i = 0; i < GROUP_NR; i++)
		EXPECT(b[i] > a[i], "member %d idle after a group enable through a sibling", i);
	CHECK_INT(perfev_ioc_disable(fds[0], true), 0);

	/* Reset without the flag zeroes the leader only; with it, every member. */
	CHECK_INT(perfev_ioc_reset(fds[0], false), 0);
	group_counts(fds, a);
	EXPECT(a[0] == 0, "leader %llu after its reset", (unsigned long long)a[0]);
	EXPECT(a[1] > 0 && a[2] > 0, "siblings reset without the group flag");
	CHECK_INT(perfev_ioc_reset(fds[0], true), 0);
	group_counts(fds, a);
	for (i = 0; i < GROUP_NR; i++)
		EXPECT(a[i] == 0, "member %d is %llu after the group reset", i,
		       (unsigned long long)a[i]);
	close_fds(fds, GROUP_NR);
}

/* ---- refresh ---------------------------------------------------------------- */

static volatile sig_atomic_t sig_in, sig_hup, sig_other, sig_fd;

static void on_overflow(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (si->si_code == POLL_IN)
		sig_in++;
	else if (si->si_code == POLL_HUP)
		sig_hup++;
	else
		sig_other++;
	sig_fd = si->si_fd;
}

/* Overflows of @fd signal this thread with a queued real-time signal. */
static bool signal_on_overflow(int fd)
{
	struct f_owner_ex owner = {.type = F_OWNER_TID, .pid = gettid()};
	struct sigaction sa;
	int sig = SIGRTMIN + 1;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_overflow;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	EXPECT(!sigaction(sig, &sa, NULL), "sigaction: %s", strerror(errno));
	EXPECT(!fcntl(fd, F_SETFL, O_ASYNC | O_NONBLOCK), "O_ASYNC: %s", strerror(errno));
	EXPECT(!fcntl(fd, F_SETSIG, sig), "F_SETSIG: %s", strerror(errno));
	EXPECT(!fcntl(fd, F_SETOWN_EX, &owner), "F_SETOWN_EX: %s", strerror(errno));
	sig_in = sig_hup = sig_other = 0;
	sig_fd = -1;
	return !harness_done();
}

/* Run on the CPU until @hups POLL_HUP signals arrived; 3 s of CPU time bound the wait. */
static void burn_until_hup(int hups)
{
	double end = thread_cpu_seconds() + 3.0;

	while (sig_hup < hups && thread_cpu_seconds() < end)
		test_burn();
}

static int open_clock_sampler(uint64_t period, const char *what)
{
	struct perf_event_attr a;

	sw_attr(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.sample_period = period;
	a.disabled = 1;
	a.wakeup_events = 1;
	return open_or_decide(&a, 0, -1, -1, what);
}

TEST(refresh_counts_overflows_then_hup)
{
	uint64_t a, b;
	int fd = open_clock_sampler(1000000, "task-clock sampling every 1 ms");

	if (fd < 0 || !signal_on_overflow(fd)) {
		if (fd >= 0)
			close(fd);
		return;
	}
	/* Opened disabled: no overflow, no signal. */
	test_burn();
	EXPECT(sig_in + sig_hup == 0, "signals before refresh");

	/* Two overflows allowed: one POLL_IN, then POLL_HUP and the event stops. */
	CHECK_INT(perfev_ioc_refresh(fd, 2), 0);
	burn_until_hup(1);
	EXPECT(sig_in == 1 && sig_hup == 1 && sig_other == 0,
	       "refresh 2: %d POLL_IN, %d POLL_HUP, %d other; expected 1, 1, 0", (int)sig_in,
	       (int)sig_hup, (int)sig_other);
	EXPECT(sig_fd == fd, "signal for fd %d, expected %d", (int)sig_fd, fd);
	a = count(fd);
	test_burn();
	test_burn();
	b = count(fd);
	EXPECT(a == b, "still counting after POLL_HUP: %llu then %llu", (unsigned long long)a,
	       (unsigned long long)b);
	EXPECT(sig_in == 1 && sig_hup == 1, "signals after POLL_HUP: %d POLL_IN, %d POLL_HUP",
	       (int)sig_in, (int)sig_hup);

	/* Three more: two POLL_IN, one POLL_HUP. */
	sig_in = sig_hup = 0;
	CHECK_INT(perfev_ioc_refresh(fd, 3), 0);
	burn_until_hup(1);
	EXPECT(sig_in == 2 && sig_hup == 1, "refresh 3: %d POLL_IN, %d POLL_HUP; expected 2, 1",
	       (int)sig_in, (int)sig_hup);
	close(fd);
	signal(SIGRTMIN + 1, SIG_DFL);
}

TEST(refresh_refused)
{
	int counter, fd;

	/* Not a sampling event. */
	counter = open_sw(PERF_COUNT_SW_TASK_CLOCK, true, -1, "task-clock");
	if (counter < 0)
		return;
	EXPECT(perfev_ioc_refresh(counter, 1) == -EINVAL, "refresh of a counter: %d",
	       perfev_ioc_refresh(counter, 1));
	close(counter);

	/* The header: "@count 0 is refused by the kernel". */
	fd = open_clock_sampler(1000000, "task-clock sampling");
	if (fd < 0)
		return;
	EXPECT(perfev_ioc_refresh(fd, 0) == -EINVAL, "refresh(fd, 0): %d, expected %d",
	       perfev_ioc_refresh(fd, 0), -EINVAL);
	/* No overflow count is negative either. */
	EXPECT(perfev_ioc_refresh(fd, -1) == -EINVAL, "refresh(fd, -1): %d, expected %d",
	       perfev_ioc_refresh(fd, -1), -EINVAL);
	close(fd);
}

/* ---- period ----------------------------------------------------------------- */

/*
 * A page-fault sampler with PERF_SAMPLE_READ records its count at each
 * overflow, so consecutive samples differ by exactly the period.
 */
TEST(period_changes_sample_spacing)
{
	struct samples *s = calloc(1, sizeof(*s));
	struct ring r = {0};
	size_t i, steady = 0;
	int fd, err;

	CHECK(s);
	fd = open_pf_sampler(8, PERF_SAMPLE_READ, 0, -1, "page-fault sampler");
	if (fd < 0)
		goto out;
	err = ring_map(fd, &r);
	if (err) {
		SKIP_ERRNO("perf-mmap", err, "mmap of the ring");
		goto out;
	}
	CHECK_INT(perfev_ioc_enable(fd, false), 0);
	test_touch_fresh_pages(256);
	ring_drain(&r, s);
	EXPECT(!s->malformed, "malformed record");
	EXPECT(s->n >= 256 / 8, "%zu samples for 256 faults every 8", s->n);
	for (i = 1; i < s->n; i++)
		EXPECT(s->first[i] - s->first[i - 1] == 8, "period 8: samples %zu..%zu %llu apart",
		       i - 1, i, (unsigned long long)(s->first[i] - s->first[i - 1]));

	CHECK_INT(perfev_ioc_period(fd, 32), 0);
	memset(s, 0, sizeof(*s));
	test_touch_fresh_pages(512);
	ring_drain(&r, s);
	/* The first overflows after the switch finish the old period; then 32 apart. */
	for (i = 3; i < s->n; i++) {
		EXPECT(s->first[i] - s->first[i - 1] == 32,
		       "period 32: samples %zu..%zu %llu apart", i - 1, i,
		       (unsigned long long)(s->first[i] - s->first[i - 1]));
		steady++;
	}
	EXPECT(steady >= 512 / 32 - 4, "%zu samples 32 apart after 512 faults", steady);
out:
	ring_unmap(&r);
	if (fd >= 0)
		close(fd);
	free(s);
}

TEST(period_refused)
{
	struct perf_event_attr a;
	long long max_rate = -1;
	FILE *f;
	int fd, counter;

	fd = open_clock_sampler(1000000, "task-clock sampling");
	if (fd < 0)
		return;
	EXPECT(perfev_ioc_period(fd, 2000000) == 0, "period 2 ms refused");
	EXPECT(perfev_ioc_period(fd, 0) == -EINVAL, "period 0: %d", perfev_ioc_period(fd, 0));
	EXPECT(perfev_ioc_period(fd, 1ULL << 63) == -EINVAL, "period 2^63: %d",
	       perfev_ioc_period(fd, 1ULL << 63));
	close(fd);

	counter = open_sw(PERF_COUNT_SW_TASK_CLOCK, true, -1, "task-clock");
	if (counter < 0)
		return;
	EXPECT(perfev_ioc_period(counter, 1000) == -EINVAL, "period of a counter: %d",
	       perfev_ioc_period(counter, 1000));
	close(counter);

	/* A frequency event takes a frequency, bounded by perf_event_max_sample_rate. */
	f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "re");
	if (f) {
		if (fscanf(f, "%lld", &max_rate) != 1)
			max_rate = -1;
		fclose(f);
	}
	/* Not cpu-clock: the kernel turns its frequency into a period at open. */
	sw_attr(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.freq = 1;
	a.sample_freq = 100;
	a.disabled = 1;
	fd = open_or_decide(&a, 0, -1, -1, "page-faults at 100 Hz");
	if (fd < 0)
		return;
	EXPECT(perfev_ioc_period(fd, 200) == 0, "frequency 200 Hz refused");
	if (max_rate > 0)
		EXPECT(perfev_ioc_period(fd, (uint64_t)max_rate + 1) == -EINVAL,
		       "frequency above perf_event_max_sample_rate (%lld): %d", max_rate,
		       perfev_ioc_period(fd, (uint64_t)max_rate + 1));
	close(fd);
}

/* ---- set_output ------------------------------------------------------------- */

TEST(set_output)
{
	const uint64_t st = PERF_SAMPLE_IDENTIFIER;
	struct samples *s = calloc(1, sizeof(*s));
	int a = -1, b = -1, c = -1, d = -1, err, pipefd[2] = {-1, -1};
	uint64_t ida = 0, idb = 0;
	struct ring r = {0};
	pid_t child = -1;

	CHECK(s);
	/*
	 * Two different events: on Linux 6.18 two software events of the same
	 * kind sampling the same fault share one sample's data, so the second
	 * sample carries the first event's id.
	 */
	a = open_pf_sampler(1, st, 0, -1, "page-fault sampler");
	b = a < 0
		? -1
		: open_sampler(PERF_COUNT_SW_PAGE_FAULTS_MIN, 1, st, 0, -1, "minor-fault sampler");
	if (a < 0 || b < 0)
		goto out;
	err = ring_map(a, &r);
	if (err) {
		SKIP_ERRNO("perf-mmap", err, "mmap of the ring");
		goto out;
	}
	EXPECT(perfev_ioc_id(a, &ida) == 0 && perfev_ioc_id(b, &idb) == 0 && ida != idb, "ids");
	CHECK_INT(perfev_ioc_set_output(b, a), 0);
	CHECK_INT(perfev_ioc_enable(a, false), 0);
	CHECK_INT(perfev_ioc_enable(b, false), 0);
	test_touch_fresh_pages(32);
	ring_drain(&r, s);
	EXPECT(!s->malformed, "malformed record");
	EXPECT(samples_with(s, ida) >= 32, "%zu samples of the ring's own event",
	       samples_with(s, ida));
	EXPECT(samples_with(s, idb) >= 32, "%zu samples of the redirected event",
	       samples_with(s, idb));
	EXPECT(samples_with(s, ida) + samples_with(s, idb) == s->n, "samples of unknown ids");

	/* -1 stops the redirection: the second event's records go nowhere. */
	err = perfev_ioc_set_output(b, -1);
	EXPECT(err == 0, "set_output(fd, -1): %d, expected 0", err);
	/* Records written before the ioctl (its own page faults) are still in the ring. */
	ring_drain(&r, s);
	memset(s, 0, sizeof(*s));
	test_touch_fresh_pages(32);
	ring_drain(&r, s);
	EXPECT(samples_with(s, ida) >= 32, "%zu samples of the ring's own event",
	       samples_with(s, ida));
	if (!err)
		EXPECT(samples_with(s, idb) == 0, "%zu samples after set_output(-1)",
		       samples_with(s, idb));

	/* Into itself, from another CPU, from another task: EINVAL. */
	EXPECT(perfev_ioc_set_output(a, a) == -EINVAL, "set_output to itself: %d",
	       perfev_ioc_set_output(a, a));
	c = open_pf_sampler(1, st, 0, 0, "page-fault sampler on cpu 0");
	if (c < 0)
		goto out;
	EXPECT(perfev_ioc_set_output(c, a) == -EINVAL, "cpu 0 event into a cpu -1 ring: %d",
	       perfev_ioc_set_output(c, a));
	CHECK(pipe(pipefd) == 0);
	child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		char ch;

		close(pipefd[1]);
		_exit(read(pipefd[0], &ch, 1) < 0);
	}
	close(pipefd[0]);
	pipefd[0] = -1;
	d = open_pf_sampler(1, st, child, -1, "page-fault sampler on a child");
	if (d < 0)
		goto out;
	EXPECT(perfev_ioc_set_output(d, a) == -EINVAL, "another task's event into our ring: %d",
	       perfev_ioc_set_output(d, a));
out:
	ring_unmap(&r);
	close_fds((int[]){a, b, c, d, pipefd[0], pipefd[1]}, 6);
	if (child > 0)
		waitpid(child, NULL, 0);
	free(s);
}

/* ---- set_filter ------------------------------------------------------------- */

/* The id of tracepoint sys:name, or skips the case and returns false. */
static bool tracepoint_id(const char *sys, const char *name, uint64_t *id)
{
	struct perfev_tracefs *tfs;
	int err;

	err = perfev_tracefs_open(NULL, &tfs);
	if (err) {
		harness_skip("tracefs", "tracefs: %s%s", strerrorname_np(-err),
			     err == -ENOENT ? " (mount -t tracefs nodev /sys/kernel/tracing)"
					    : " (not readable by this user)");
		return false;
	}
	err = perfev_tracefs_id(tfs, sys, name, id);
	perfev_tracefs_free(tfs);
	if (err) {
		harness_skip("tracefs", "tracepoint %s:%s: %s", sys, name, strerrorname_np(-err));
		return false;
	}
	return true;
}

static int open_tracepoint(uint64_t id, const char *what)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = id;
	a.disabled = 1;
	return open_or_decide(&a, 0, -1, -1, what);
}

/* Context switches of this thread counted through @fd's current filter. */
static uint64_t switches_through_filter(int fd)
{
	int i;

	perfev_ioc_reset(fd, false);
	perfev_ioc_enable(fd, false);
	for (i = 0; i < 5; i++)
		usleep(200);
	perfev_ioc_disable(fd, false);
	return count(fd);
}

/* The filter is taken on a fresh event: the kernel gives an event one filter only (EEXIST). */
static int filter_on_fresh(uint64_t tp, const char *filter, int *fd)
{
	*fd = open_tracepoint(tp, "sched:sched_switch");
	if (*fd < 0)
		return INT_MIN;
	return perfev_ioc_set_filter(*fd, filter);
}

TEST(set_filter)
{
	static const char *const bad[] = {"prev_pid ==", "no_such_field == 1", "prev_pid ~ 1 2"};
	char filter[64];
	uint64_t tp, n;
	size_t i;
	int fd, counter, err;

	if (!tracepoint_id("sched", "sched_switch", &tp))
		return;
	fd = open_tracepoint(tp, "sched:sched_switch");
	if (fd < 0)
		return;
	n = switches_through_filter(fd);
	EXPECT(n >= 5, "%llu switches unfiltered after 5 sleeps", (unsigned long long)n);
	close(fd);

	/* Our thread is always prev when it sleeps: prev_pid 0 lets none through... */
	err = filter_on_fresh(tp, "prev_pid == 0", &fd);
	if (err == INT_MIN)
		return;
	EXPECT(err == 0, "filter \"prev_pid == 0\": %d", err);
	n = switches_through_filter(fd);
	EXPECT(n == 0, "%llu of our switches passed \"prev_pid == 0\"", (unsigned long long)n);
	/* ...and a second filter on the same event is refused. */
	EXPECT(perfev_ioc_set_filter(fd, "prev_pid == 1") == -EEXIST, "second filter: %d",
	       perfev_ioc_set_filter(fd, "prev_pid == 1"));
	close(fd);

	/* ...while our own tid lets every one through. */
	snprintf(filter, sizeof(filter), "prev_pid == %d", (int)gettid());
	err = filter_on_fresh(tp, filter, &fd);
	if (err == INT_MIN)
		return;
	EXPECT(err == 0, "filter \"%s\": %d", filter, err);
	n = switches_through_filter(fd);
	EXPECT(n >= 5, "%llu switches passed \"%s\"", (unsigned long long)n, filter);
	close(fd);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err = filter_on_fresh(tp, bad[i], &fd);
		if (err == INT_MIN)
			return;
		EXPECT(err == -EINVAL, "filter \"%s\": %d, expected %d", bad[i], err, -EINVAL);
		close(fd);
	}
	err = filter_on_fresh(tp, NULL, &fd);
	if (err == INT_MIN)
		return;
	EXPECT(err == -EINVAL, "NULL filter: %d", err);
	close(fd);

	/* Only tracepoints (and address filters) take filters. */
	counter = open_sw(PERF_COUNT_SW_TASK_CLOCK, true, -1, "task-clock");
	if (counter < 0)
		return;
	EXPECT(perfev_ioc_set_filter(counter, "prev_pid == 0") == -EINVAL,
	       "filter on task-clock: %d", perfev_ioc_set_filter(counter, "prev_pid == 0"));
	close(counter);
}

/* ---- id --------------------------------------------------------------------- */

TEST(id_matches_read_format_id)
{
	struct perf_event_attr a;
	uint64_t id = 0, id2 = 0, buf[2];
	int fd, fd2;

	sw_attr(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.read_format = PERF_FORMAT_ID;
	fd = open_or_decide(&a, 0, -1, -1, "task-clock");
	if (fd < 0)
		return;
	fd2 = open_or_decide(&a, 0, -1, -1, "task-clock");
	if (fd2 < 0) {
		close(fd);
		return;
	}
	CHECK_INT(perfev_ioc_id(fd, &id), 0);
	CHECK_INT(read(fd, buf, sizeof(buf)), sizeof(buf));
	CHECK_U64(id, buf[1]);
	CHECK_INT(perfev_ioc_id(fd2, &id2), 0);
	CHECK(id2 != id);
	CHECK_INT(perfev_ioc_id(fd, NULL), -EINVAL);
	close(fd2);
	close(fd);
}

/* ---- set_bpf, query_bpf ------------------------------------------------------ */

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	long r = syscall(SYS_bpf, cmd, attr, sizeof(*attr));

	return r < 0 ? -errno : r;
}

/* "r0 = 0; exit" as a tracepoint program, or a negative errno. */
static int load_bpf_prog(void)
{
	struct bpf_insn insns[2];
	union bpf_attr attr;
	char log[256] = "";

	memset(insns, 0, sizeof(insns));
	insns[0].code = BPF_ALU64 | BPF_MOV | BPF_K;
	insns[0].dst_reg = BPF_REG_0;
	insns[0].imm = 0;
	insns[1].code = BPF_JMP | BPF_EXIT;
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_TRACEPOINT;
	attr.insns = (uint64_t)(uintptr_t)insns;
	attr.insn_cnt = 2;
	attr.license = (uint64_t)(uintptr_t) "GPL";
	attr.log_buf = (uint64_t)(uintptr_t)log;
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	return (int)sys_bpf(BPF_PROG_LOAD, &attr);
}

static uint32_t bpf_prog_id(int prog_fd)
{
	struct bpf_prog_info info;
	union bpf_attr attr;

	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (uint32_t)prog_fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uint64_t)(uintptr_t)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr) < 0)
		return 0;
	return info.id;
}

TEST(set_bpf_and_query)
{
	uint32_t ids[8], prog_id, big[128];
	int prog, prog2 = -1, fd = -1, counter = -1, n;
	uint64_t tp;

	/* A tracepoint nothing else attaches programs to, so the list is ours alone. */
	if (!tracepoint_id("sched", "sched_process_hang", &tp))
		return;
	prog = load_bpf_prog();
	if (prog < 0) {
		if (prog == -EPERM || prog == -ENOSYS || prog == -EACCES)
			harness_skip("bpf", "BPF_PROG_LOAD: %s", strerrorname_np(-prog));
		else
			harness_fail(__FILE__, __LINE__, "BPF_PROG_LOAD: %s",
				     strerrorname_np(-prog));
		return;
	}
	prog_id = bpf_prog_id(prog);
	EXPECT(prog_id != 0, "BPF_OBJ_GET_INFO_BY_FD gave no id");
	fd = open_tracepoint(tp, "sched:sched_process_hang");
	if (fd < 0)
		goto out;

	n = perfev_ioc_query_bpf(fd, ids, 8);
	if (n == -EPERM) {
		harness_skip("bpf", "PERF_EVENT_IOC_QUERY_BPF: EPERM");
		goto out;
	}
	EXPECT(n == 0, "query before attaching: %d", n);
	CHECK_INT(perfev_ioc_set_bpf(fd, prog), 0);
	memset(ids, 0, sizeof(ids));
	n = perfev_ioc_query_bpf(fd, ids, 8);
	EXPECT(n == 1 && ids[0] == prog_id, "query: %d programs, first %u; expected 1, %u", n,
	       ids[0], prog_id);
	/* max 0: just the count. */
	EXPECT(perfev_ioc_query_bpf(fd, NULL, 0) == 1, "query with max 0: %d",
	       perfev_ioc_query_bpf(fd, NULL, 0));
	EXPECT(perfev_ioc_query_bpf(fd, ids, 0) == 1, "query with ids and max 0: %d",
	       perfev_ioc_query_bpf(fd, ids, 0));
	/* A generous array is fine too: "returns how many are attached". */
	memset(big, 0, sizeof(big));
	n = perfev_ioc_query_bpf(fd, big, 128);
	EXPECT(n == 1 && big[0] == prog_id, "query with max 128: %d (%s), expected 1", n,
	       n < 0 ? strerrorname_np(-n) : "count");
	EXPECT(perfev_ioc_query_bpf(fd, NULL, 4) == -EINVAL, "NULL ids with max 4");

	/* One program per event. */
	prog2 = load_bpf_prog();
	if (prog2 >= 0)
		EXPECT(perfev_ioc_set_bpf(fd, prog2) == -EEXIST, "a second program: %d",
		       perfev_ioc_set_bpf(fd, prog2));
	/* Not a program, not a tracepoint. */
	EXPECT(perfev_ioc_set_bpf(fd, -1) == -EBADF, "prog fd -1: %d", perfev_ioc_set_bpf(fd, -1));
	counter = open_sw(PERF_COUNT_SW_TASK_CLOCK, true, -1, "task-clock");
	if (counter >= 0) {
		EXPECT(perfev_ioc_set_bpf(counter, prog) == -EINVAL,
		       "tracepoint program on task-clock: %d", perfev_ioc_set_bpf(counter, prog));
		EXPECT(perfev_ioc_query_bpf(counter, ids, 8) == -EINVAL, "query on task-clock: %d",
		       perfev_ioc_query_bpf(counter, ids, 8));
	}
out:
	close_fds((int[]){counter, fd, prog2, prog}, 4);
}

/* ---- pause_output ----------------------------------------------------------- */

TEST(pause_output)
{
	struct ring r = {0};
	uint64_t h0, h1, h2;
	int fd, err, counter;

	fd = open_pf_sampler(1, PERF_SAMPLE_IP, 0, -1, "page-fault sampler");
	if (fd < 0)
		return;
	/* No ring yet: nothing to pause. */
	EXPECT(perfev_ioc_pause_output(fd, true) == -EINVAL, "pause without a ring: %d",
	       perfev_ioc_pause_output(fd, true));
	err = ring_map(fd, &r);
	if (err) {
		close(fd);
		SKIP_ERRNO("perf-mmap", err, "mmap of the ring");
		return;
	}
	CHECK_INT(perfev_ioc_enable(fd, false), 0);
	test_touch_fresh_pages(16);
	h0 = ring_head(&r);
	EXPECT(h0 > 0, "no records after 16 page faults");

	CHECK_INT(perfev_ioc_pause_output(fd, true), 0);
	h1 = ring_head(&r);
	test_touch_fresh_pages(16);
	EXPECT(ring_head(&r) == h1, "head moved from %llu to %llu while paused",
	       (unsigned long long)h1, (unsigned long long)ring_head(&r));

	CHECK_INT(perfev_ioc_pause_output(fd, false), 0);
	test_touch_fresh_pages(16);
	h2 = ring_head(&r);
	EXPECT(h2 >= h1 + 16 * 8, "head moved by %llu after resuming",
	       (unsigned long long)(h2 - h1));
	ring_unmap(&r);
	close(fd);

	counter = open_sw(PERF_COUNT_SW_TASK_CLOCK, true, -1, "task-clock");
	if (counter < 0)
		return;
	EXPECT(perfev_ioc_pause_output(counter, false) == -EINVAL, "resume on a counter: %d",
	       perfev_ioc_pause_output(counter, false));
	close(counter);
}

/* ---- modify_attributes ------------------------------------------------------ */

static volatile uint64_t var_a __attribute__((aligned(8)));
static volatile uint64_t var_b __attribute__((aligned(8)));

static void write_n(volatile uint64_t *p, int n)
{
	int i;

	for (i = 0; i < n; i++)
		*p = (uint64_t)i;
}

TEST(modify_breakpoint_address)
{
	struct perf_event_attr a, m;
	const char *why;
	uint64_t c0, c1;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_BREAKPOINT;
	a.bp_type = HW_BREAKPOINT_W;
	a.bp_addr = (uint64_t)(uintptr_t)&var_a;
	a.bp_len = HW_BREAKPOINT_LEN_8;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = open_or_decide(&a, 0, -1, -1, "write breakpoint");
	if (fd < 0)
		return;
	/* Only breakpoint fields may change, never the type. */
	m = a;
	m.type = PERF_TYPE_SOFTWARE;
	EXPECT(perfev_ioc_modify_attributes(fd, &m) == -EINVAL, "type change: %d",
	       perfev_ioc_modify_attributes(fd, &m));
	CHECK_INT(perfev_ioc_modify_attributes(fd, NULL), -EINVAL);
	if (!test_breakpoints_fire(&why)) {
		close(fd);
		harness_skip("breakpoints", "%s", why);
		return;
	}
	write_n(&var_a, 10);
	write_n(&var_b, 10);
	c0 = count(fd);
	EXPECT(c0 == 10, "10 writes to A, 10 to B: breakpoint on A counted %llu",
	       (unsigned long long)c0);

	m = a;
	m.bp_addr = (uint64_t)(uintptr_t)&var_b;
	CHECK_INT(perfev_ioc_modify_attributes(fd, &m), 0);
	write_n(&var_b, 7);
	write_n(&var_a, 5);
	c1 = count(fd);
	EXPECT(c1 - c0 == 7, "moved to B; 7 writes to B, 5 to A: counted %llu",
	       (unsigned long long)(c1 - c0));

	close(fd);
}

/* Other events cannot be modified (task-clock and cpu-clock give EINVAL on 6.18). */
TEST(modify_other_events_refused)
{
	struct perf_event_attr m;
	int counter;

	counter = open_sw(PERF_COUNT_SW_PAGE_FAULTS, true, -1, "page-faults");
	if (counter < 0)
		return;
	sw_attr(&m, PERF_COUNT_SW_PAGE_FAULTS);
	EXPECT(perfev_ioc_modify_attributes(counter, &m) == -EOPNOTSUPP, "modify page-faults: %d",
	       perfev_ioc_modify_attributes(counter, &m));
	close(counter);
}

/* ---- prctl ------------------------------------------------------------------ */

TEST(prctl_disable_enable)
{
	uint64_t a, b, c;
	int fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, false, -1, "task-clock");

	if (fd < 0)
		return;
	test_burn();
	CHECK_INT(perfev_prctl_disable(), 0);
	a = count(fd);
	EXPECT(a > 0, "counted nothing before prctl");
	test_burn();
	b = count(fd);
	EXPECT(a == b, "counted %llu while disabled by prctl", (unsigned long long)(b - a));
	CHECK_INT(perfev_prctl_enable(), 0);
	test_burn();
	c = count(fd);
	EXPECT(c > b, "did not count after prctl enable");
	close(fd);
}

/* ---- bad file descriptors --------------------------------------------------- */

static void expect_all_fail(int fd, int err, const char *what)
{
	struct perf_event_attr a;
	uint32_t ids[4];
	uint64_t id;

	sw_attr(&a, PERF_COUNT_SW_TASK_CLOCK);
	EXPECT(perfev_ioc_enable(fd, false) == err, "%s: enable", what);
	EXPECT(perfev_ioc_enable(fd, true) == err, "%s: group enable", what);
	EXPECT(perfev_ioc_disable(fd, false) == err, "%s: disable", what);
	EXPECT(perfev_ioc_disable(fd, true) == err, "%s: group disable", what);
	EXPECT(perfev_ioc_reset(fd, false) == err, "%s: reset", what);
	EXPECT(perfev_ioc_reset(fd, true) == err, "%s: group reset", what);
	EXPECT(perfev_ioc_refresh(fd, 1) == err, "%s: refresh", what);
	EXPECT(perfev_ioc_period(fd, 1000) == err, "%s: period", what);
	EXPECT(perfev_ioc_set_output(fd, -1) == err, "%s: set_output", what);
	EXPECT(perfev_ioc_set_filter(fd, "prev_pid == 0") == err, "%s: set_filter", what);
	EXPECT(perfev_ioc_id(fd, &id) == err, "%s: id", what);
	EXPECT(perfev_ioc_set_bpf(fd, 0) == err, "%s: set_bpf", what);
	EXPECT(perfev_ioc_pause_output(fd, true) == err, "%s: pause_output", what);
	EXPECT(perfev_ioc_query_bpf(fd, ids, 4) == err, "%s: query_bpf", what);
	EXPECT(perfev_ioc_query_bpf(fd, NULL, 0) == err, "%s: query_bpf count", what);
	EXPECT(perfev_ioc_modify_attributes(fd, &a) == err, "%s: modify_attributes", what);
}

TEST(bad_fds)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC), closed;
	struct perf_event_attr a;
	int ev;

	CHECK(fd >= 0);
	sw_attr(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.sample_period = 1;
	a.disabled = 1;
	ev = open_or_decide(&a, 0, -1, -1, "page-fault sampler");
	closed = dup(fd);
	CHECK(closed >= 0);
	close(closed);
	expect_all_fail(-1, -EBADF, "fd -1");
	expect_all_fail(closed, -EBADF, "closed fd");
	/* Not a perf event: the ioctls are unknown to it. */
	expect_all_fail(fd, -ENOTTY, "/dev/null");

	/* A bad target for set_output is EBADF too, and so is a non-perf one. */
	if (ev >= 0) {
		EXPECT(perfev_ioc_set_output(ev, closed) == -EBADF, "set_output to a closed fd: %d",
		       perfev_ioc_set_output(ev, closed));
		EXPECT(perfev_ioc_set_output(ev, fd) == -EBADF, "set_output to /dev/null: %d",
		       perfev_ioc_set_output(ev, fd));
		close(ev);
	}
	close(fd);
}
