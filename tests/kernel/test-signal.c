// SPDX-License-Identifier: LGPL-2.1-or-later
/* Overflow signals and sigtrap for real: software events, breakpoints, threads, exec. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <perfev/perfev.h>
#include "harness.h"

#define PERIOD	   16 /* page faults per overflow */
#define EXEC_ARG   "--perfev-test-exec-touch"
#define EXEC_PAGES 64

/*
 * The program run after exec in remove_on_exec: this test itself, which
 * touches EXEC_PAGES fresh pages and exits before the harness starts.
 */
__attribute__((constructor)) static void exec_touch(int argc, char **argv, char **envp)
{
	(void)envp;
	if (argc == 2 && !strcmp(argv[1], EXEC_ARG)) {
		test_touch_fresh_pages(EXEC_PAGES);
		_exit(0);
	}
}

/* ---- helpers -------------------------------------------------------------------- */

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
static int open_at(struct perf_event_attr *a, pid_t pid, const char *what, int line)
{
	int fd = perfev_sys_open(a, pid, -1, -1, 0);

	if (fd >= 0)
		return fd;
	harness_skip_errno(what, fd, what, __FILE__, line);
	return -1;
}

/* A page-fault sampler, disabled: PERIOD faults per overflow. */
static int open_sampler(const char *what, int line)
{
	struct perf_event_attr a;

	sw_attr(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.sample_period = PERIOD;
	a.disabled = 1;
	return open_at(&a, 0, what, line);
}

#define SAMPLER(what) open_sampler(what, __LINE__)

/* The count of an event opened with read_format 0, or UINT64_MAX. */
static uint64_t count(int fd)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		return UINT64_MAX;
	return v;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ---- overflow signals ------------------------------------------------------------- */

static int ctx_token;
static volatile sig_atomic_t n_in, n_hup, n_other, n_bad_ctx, last_fd, last_signo, wrong_tid;
static volatile pid_t want_tid;

static void on_overflow(const struct perfev_signal_info *info)
{
	if (info->code == POLL_IN)
		n_in++;
	else if (info->code == POLL_HUP)
		n_hup++;
	else
		n_other++;
	if (info->ctx != &ctx_token)
		n_bad_ctx++;
	last_fd = info->fd;
	last_signo = info->signo;
	if (want_tid && gettid() != want_tid)
		wrong_tid++;
}

static void reset_counts(void)
{
	n_in = n_hup = n_other = n_bad_ctx = wrong_tid = 0;
	last_fd = last_signo = -1;
	want_tid = 0;
}

/* Wait up to a second for @hups POLL_HUP (the signal may trail the last fault a little). */
static void wait_hup(int hups)
{
	int i;

	for (i = 0; i < 1000 && n_hup < hups; i++)
		sleep_ms(1);
}

/*
 * PERF_EVENT_IOC_REFRESH 3 allows three overflows: the first two send
 * POLL_IN, the third POLL_HUP and disables the event (kernel
 * __perf_event_overflow(): event_limit reaching zero sets pending_kill
 * to POLL_HUP).  Each is one queued real-time signal.
 */
TEST(overflow_refresh_in_then_hup)
{
	struct f_owner_ex owner;
	uint64_t a, b;
	int fd = SAMPLER("page-fault sampling"), sig = SIGRTMIN;

	if (fd < 0)
		return;
	reset_counts();
	CHECK_INT(perfev_signal_attach(fd, sig, on_overflow, &ctx_token), 0);
	CHECK(fcntl(fd, F_GETFL) & O_ASYNC);
	CHECK_INT(fcntl(fd, F_GETSIG), sig);
	CHECK_INT(fcntl(fd, F_GETOWN_EX, &owner), 0);
	CHECK_INT(owner.type, F_OWNER_TID);
	CHECK_INT(owner.pid, gettid());

	/* Disabled: no overflow. */
	test_touch_fresh_pages(4 * PERIOD);
	CHECK_INT(n_in + n_hup + n_other, 0);

	CHECK_INT(perfev_ioc_refresh(fd, 3), 0);
	test_touch_fresh_pages(10 * PERIOD);
	wait_hup(1);
	EXPECT(n_in == 2 && n_hup == 1 && n_other == 0,
	       "refresh 3: %d POLL_IN, %d POLL_HUP, %d other; expected 2, 1, 0", (int)n_in,
	       (int)n_hup, (int)n_other);
	EXPECT(last_fd == fd, "si_fd %d, expected the event %d", (int)last_fd, fd);
	EXPECT(last_signo == sig, "signo %d, expected %d", (int)last_signo, sig);
	EXPECT(n_bad_ctx == 0, "ctx not passed through");

	/* Disabled after POLL_HUP: it counted exactly the three periods. */
	a = count(fd);
	EXPECT(a == 3 * PERIOD, "count %llu after three overflows of %d", (unsigned long long)a,
	       PERIOD);
	test_touch_fresh_pages(4 * PERIOD);
	b = count(fd);
	EXPECT(a == b, "still counting after POLL_HUP: %llu then %llu", (unsigned long long)a,
	       (unsigned long long)b);
	EXPECT(n_in == 2 && n_hup == 1, "signals after POLL_HUP: %d POLL_IN, %d POLL_HUP",
	       (int)n_in, (int)n_hup);

	/* Refresh 1: POLL_HUP alone. */
	reset_counts();
	CHECK_INT(perfev_ioc_refresh(fd, 1), 0);
	test_touch_fresh_pages(4 * PERIOD);
	wait_hup(1);
	EXPECT(n_in == 0 && n_hup == 1, "refresh 1: %d POLL_IN, %d POLL_HUP; expected 0, 1",
	       (int)n_in, (int)n_hup);
	CHECK_INT(perfev_signal_detach(fd), 0);
	close(fd);
}

/* A plain enabled sampler signals every overflow with POLL_IN, and SIGIO by default. */
TEST(overflow_every_period_sigio_default)
{
	uint64_t c;
	int fd = SAMPLER("page-fault sampling");

	if (fd < 0)
		return;
	reset_counts();
	CHECK_INT(perfev_signal_attach(fd, 0, on_overflow, &ctx_token), 0);
	CHECK_INT(fcntl(fd, F_GETSIG), SIGIO);
	CHECK_INT(perfev_ioc_enable(fd, false), 0);
	test_touch_fresh_pages(8 * PERIOD);
	CHECK_INT(perfev_ioc_disable(fd, false), 0);
	c = count(fd);
	sleep_ms(20);
	EXPECT(n_hup == 0 && n_other == 0, "%d POLL_HUP, %d other", (int)n_hup, (int)n_other);
	/* SIGIO is not queued: overflows close together may merge into one signal. */
	EXPECT(n_in >= 1 && (uint64_t)n_in <= c / PERIOD,
	       "%d POLL_IN signals for %llu page faults (%llu overflows)", (int)n_in,
	       (unsigned long long)c, (unsigned long long)(c / PERIOD));
	EXPECT(last_signo == SIGIO, "signo %d, expected SIGIO", (int)last_signo);
	CHECK_INT(perfev_signal_detach(fd), 0);
	close(fd);
}

struct attacher {
	int fd, sig, ret;
	pid_t tid;
	pthread_barrier_t bar;
	volatile bool done;
};

static void *attacher_main(void *arg)
{
	struct attacher *t = arg;

	t->tid = gettid();
	want_tid = t->tid;
	t->ret = perfev_signal_attach(t->fd, t->sig, on_overflow, &ctx_token);
	pthread_barrier_wait(&t->bar);
	while (!t->done)
		sleep_ms(1);
	return NULL;
}

/* The event counts the main thread; the thread that attached gets the signals. */
TEST(overflow_goes_to_attaching_thread)
{
	struct attacher t = {.sig = SIGRTMIN + 1};
	pthread_t th;
	int fd = SAMPLER("page-fault sampling");

	if (fd < 0)
		return;
	reset_counts();
	t.fd = fd;
	CHECK_INT(pthread_barrier_init(&t.bar, NULL, 2), 0);
	CHECK_INT(pthread_create(&th, NULL, attacher_main, &t), 0);
	pthread_barrier_wait(&t.bar);
	if (t.ret) {
		t.done = true;
		pthread_join(th, NULL);
		CHECK_INT(t.ret, 0);
	}
	CHECK(t.tid != gettid());
	CHECK_INT(perfev_ioc_refresh(fd, 3), 0);
	test_touch_fresh_pages(10 * PERIOD);
	wait_hup(1);
	t.done = true;
	pthread_join(th, NULL);
	pthread_barrier_destroy(&t.bar);
	EXPECT(n_in == 2 && n_hup == 1, "%d POLL_IN, %d POLL_HUP; expected 2, 1", (int)n_in,
	       (int)n_hup);
	EXPECT(wrong_tid == 0, "%d signals handled on a thread other than the attaching one %d",
	       (int)wrong_tid, (int)t.tid);
	CHECK_INT(perfev_signal_detach(fd), 0);
	close(fd);
}

TEST(detach_stops_delivery)
{
	uint64_t c;
	int fd = SAMPLER("page-fault sampling");

	if (fd < 0)
		return;
	reset_counts();
	CHECK_INT(perfev_signal_attach(fd, SIGRTMIN + 2, on_overflow, &ctx_token), 0);
	CHECK_INT(perfev_signal_detach(fd), 0);
	CHECK(!(fcntl(fd, F_GETFL) & O_ASYNC));
	CHECK_INT(perfev_ioc_refresh(fd, 2), 0);
	test_touch_fresh_pages(6 * PERIOD);
	sleep_ms(20);
	c = count(fd);
	/* The event is still open and overflowed; only the signals are gone. */
	EXPECT(c == 2 * PERIOD, "count %llu, expected two periods", (unsigned long long)c);
	EXPECT(n_in + n_hup + n_other == 0, "%d signals after detach",
	       (int)(n_in + n_hup + n_other));

	/* Unknown descriptors. */
	CHECK_INT(perfev_signal_detach(fd), -ENOENT);
	CHECK_INT(perfev_signal_detach(12345), -ENOENT);
	EXPECT(perfev_signal_detach(-1) == -ENOENT, "detach(-1): %d, expected -ENOENT",
	       perfev_signal_detach(-1));

	/* Attached again, it signals again. */
	reset_counts();
	CHECK_INT(perfev_signal_attach(fd, SIGRTMIN + 2, on_overflow, &ctx_token), 0);
	CHECK_INT(perfev_ioc_refresh(fd, 1), 0);
	test_touch_fresh_pages(4 * PERIOD);
	wait_hup(1);
	EXPECT(n_hup == 1, "%d POLL_HUP after attaching again", (int)n_hup);
	CHECK_INT(perfev_signal_detach(fd), 0);
	close(fd);
}

TEST(attach_twice_busy)
{
	int fd = SAMPLER("page-fault sampling");

	if (fd < 0)
		return;
	CHECK_INT(perfev_signal_attach(fd, SIGRTMIN + 2, on_overflow, NULL), 0);
	CHECK_INT(perfev_signal_attach(fd, SIGRTMIN + 2, on_overflow, NULL), -EBUSY);
	CHECK_INT(perfev_signal_attach(fd, SIGRTMIN + 3, on_overflow, NULL), -EBUSY);
	CHECK_INT(perfev_signal_detach(fd), 0);
	CHECK_INT(perfev_signal_attach(fd, SIGRTMIN + 3, on_overflow, NULL), 0);
	CHECK_INT(perfev_signal_detach(fd), 0);
	close(fd);
}

static volatile sig_atomic_t foreign_calls;

static void foreign(int sig)
{
	(void)sig;
	foreign_calls++;
}

TEST(foreign_handler_busy)
{
	struct sigaction sa, cur;
	int fd = SAMPLER("page-fault sampling"), sig = SIGRTMIN + 4;

	if (fd < 0)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = foreign;
	sigemptyset(&sa.sa_mask);
	CHECK_INT(sigaction(sig, &sa, NULL), 0);
	CHECK_INT(perfev_signal_attach(fd, sig, on_overflow, NULL), -EBUSY);
	/* Left alone. */
	CHECK_INT(sigaction(sig, NULL, &cur), 0);
	CHECK(cur.sa_handler == foreign);
	CHECK(!(fcntl(fd, F_GETFL) & O_ASYNC));
	/* Nothing kept either: once the signal is free, the fd attaches. */
	signal(sig, SIG_DFL);
	CHECK_INT(perfev_signal_attach(fd, sig, on_overflow, NULL), 0);
	CHECK_INT(perfev_signal_detach(fd), 0);
	close(fd);
}

/*
 * The header: -EBUSY when @signo has a handler not installed by this
 * library; also when that handler replaced the library's after an
 * earlier attach (the callbacks would never run).
 */
TEST(foreign_handler_installed_later)
{
	struct sigaction sa, cur;
	int fd = SAMPLER("page-fault sampling"), sig = SIGRTMIN + 5, ret;

	if (fd < 0)
		return;
	CHECK_INT(perfev_signal_attach(fd, sig, on_overflow, NULL), 0);
	CHECK_INT(perfev_signal_detach(fd), 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = foreign;
	sigemptyset(&sa.sa_mask);
	CHECK_INT(sigaction(sig, &sa, NULL), 0);
	ret = perfev_signal_attach(fd, sig, on_overflow, NULL);
	CHECK_INT(sigaction(sig, NULL, &cur), 0);
	EXPECT(ret == -EBUSY,
	       "attach with a foreign handler installed after the library's: %d, "
	       "expected -EBUSY (the handler is %s)",
	       ret, cur.sa_handler == foreign ? "still the foreign one" : "the library's");
	if (!ret)
		perfev_signal_detach(fd);
	signal(sig, SIG_DFL);
	close(fd);
}

TEST(attach_bad_arguments)
{
	int fd = SAMPLER("page-fault sampling"), closed;

	if (fd < 0)
		return;
	CHECK_INT(perfev_signal_attach(-1, SIGRTMIN, on_overflow, NULL), -EINVAL);
	CHECK_INT(perfev_signal_attach(fd, SIGRTMIN, NULL, NULL), -EINVAL);
	CHECK_INT(perfev_signal_attach(fd, -1, on_overflow, NULL), -EINVAL);
	CHECK_INT(perfev_signal_attach(fd, SIGKILL, on_overflow, NULL), -EINVAL);
	CHECK_INT(perfev_signal_attach(fd, SIGSTOP, on_overflow, NULL), -EINVAL);
	CHECK_INT(perfev_signal_attach(fd, 65, on_overflow, NULL), -EINVAL);
	/* A closed descriptor: fcntl's error, and no slot kept for that number. */
	closed = fd;
	close(fd);
	CHECK_INT(perfev_signal_attach(closed, SIGRTMIN, on_overflow, NULL), -EBADF);
	fd = SAMPLER("page-fault sampling");
	if (fd < 0)
		return;
	CHECK_INT(fd, closed); /* the lowest free number again */
	CHECK_INT(perfev_signal_attach(fd, SIGRTMIN, on_overflow, NULL), 0);
	CHECK_INT(perfev_signal_detach(fd), 0);
	close(fd);
}

/* ---- sigtrap ------------------------------------------------------------------------ */

static volatile uint64_t watched __attribute__((aligned(8)));
static int trap_token;
static volatile sig_atomic_t traps, trap_bad;
static uint64_t trap_data;
static uint32_t trap_type;
static void *volatile trap_addr;

static void on_trap(const struct perfev_signal_info *info)
{
	traps++;
	trap_data = info->sig_data;
	trap_type = info->type;
	trap_addr = info->addr;
	if (info->signo != SIGTRAP || info->code != PERFEV_TRAP_PERF || info->fd != -1 ||
	    info->ctx != &trap_token)
		trap_bad++;
}

static void reset_traps(void)
{
	traps = trap_bad = 0;
	trap_data = 0;
	trap_type = 0;
	trap_addr = NULL;
}

static void bp_attr(struct perf_event_attr *a, volatile void *addr)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_BREAKPOINT;
	a->bp_type = HW_BREAKPOINT_W;
	a->bp_addr = (uint64_t)(uintptr_t)addr;
	a->bp_len = HW_BREAKPOINT_LEN_8;
	a->sample_period = 1;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
}

TEST(attr_set_sigtrap)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	perfev_attr_set_sigtrap(&a, 0xfeedfacecafebeefULL);
	CHECK_INT(a.sigtrap, 1);
	CHECK_INT(a.remove_on_exec, 1);
	CHECK_U64(a.sig_data, 0xfeedfacecafebeefULL);
	perfev_attr_set_sigtrap(NULL, 1);
}

TEST(sigtrap_breakpoint_each_write)
{
	struct perf_event_attr a;
	const char *why;
	int fd, i;

	bp_attr(&a, &watched);
	perfev_attr_set_sigtrap(&a, 0x1234);
	fd = open_at(&a, 0, "sigtrap write breakpoint", __LINE__);
	if (fd < 0)
		return;
	if (!test_breakpoints_fire(&why)) {
		close(fd);
		harness_skip("breakpoints", "%s", why);
		return;
	}
	reset_traps();
	CHECK_INT(perfev_sigtrap_handler(on_trap, &trap_token), 0);
	for (i = 0; i < 5; i++) {
		watched = (uint64_t)i;
		/* Synchronous: the handler ran before the next statement. */
		EXPECT(traps == i + 1, "write %d: %d traps", i + 1, (int)traps);
	}
	(void)watched; /* a read does not trigger a write breakpoint */
	EXPECT(traps == 5, "%d traps after a read", (int)traps);
	EXPECT(trap_data == 0x1234, "sig_data %#llx", (unsigned long long)trap_data);
	EXPECT(trap_type == PERF_TYPE_BREAKPOINT, "type %u", trap_type);
	EXPECT(trap_addr == (void *)&watched, "addr %p, the variable is at %p", trap_addr,
	       (void *)&watched);
	EXPECT(trap_bad == 0, "signo/code/fd/ctx wrong in %d traps", (int)trap_bad);
	EXPECT(count(fd) == 5, "breakpoint counted %llu", (unsigned long long)count(fd));
	close(fd);
	watched = 99;
	EXPECT(traps == 5, "a trap after close");
	CHECK_INT(perfev_sigtrap_handler(NULL, NULL), 0);
}

/* A software event traps too: page faults, with the faulting address. */
TEST(sigtrap_page_faults)
{
	struct perf_event_attr a;
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p;
	int fd, i;

	sw_attr(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.exclude_kernel = 1;
	a.sample_period = 1;
	a.disabled = 1;
	perfev_attr_set_sigtrap(&a, 0xabcdef);
	fd = open_at(&a, 0, "sigtrap on page-faults", __LINE__);
	if (fd < 0)
		return;
	p = mmap(NULL, 8 * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		 0);
	CHECK(p != MAP_FAILED);
	reset_traps();
	CHECK_INT(perfev_sigtrap_handler(on_trap, &trap_token), 0);
	CHECK_INT(perfev_ioc_enable(fd, false), 0);
	for (i = 0; i < 8; i++) {
		p[i * page] = 1;
		EXPECT(traps == i + 1 && trap_addr == (void *)(p + i * page),
		       "touch %d: %d traps, last at %p, the page is %p", i + 1, (int)traps,
		       trap_addr, (void *)(p + i * page));
	}
	CHECK_INT(perfev_ioc_disable(fd, false), 0);
	EXPECT(trap_data == 0xabcdef, "sig_data %#llx", (unsigned long long)trap_data);
	EXPECT(trap_type == PERF_TYPE_SOFTWARE, "type %u", trap_type);
	EXPECT(trap_bad == 0, "signo/code/fd/ctx wrong in %d traps", (int)trap_bad);
	munmap((void *)p, 8 * (size_t)page);
	close(fd);
	CHECK_INT(perfev_sigtrap_handler(NULL, NULL), 0);
}

TEST(sigtrap_needs_remove_on_exec)
{
	struct perf_event_attr a;
	int fd;

	bp_attr(&a, &watched);
	a.sigtrap = 1;
	a.sig_data = 1;
	fd = perfev_sys_open(&a, 0, -1, -1, 0);
	EXPECT(fd == -EINVAL, "sigtrap without remove_on_exec: %d, expected -EINVAL", fd);
	if (fd >= 0)
		close(fd);
}

/*
 * After exec a remove_on_exec event is gone.  The parent opens a sigtrap
 * page-fault event (every fault traps) on a child that then execs this
 * test, which touches pages: were the event still there, the first fault
 * of the new program would kill it with SIGTRAP, the handler being reset
 * by exec.  A plain page-fault counter on the child shows the faults did
 * happen.
 */
static void child_trap(int sig)
{
	(void)sig;
}

TEST(remove_on_exec)
{
	struct perf_event_attr a;
	struct sigaction sa;
	int ready[2], go[2], fd_trap, fd_count, status;
	uint64_t after, faults;
	char byte = 0;
	pid_t pid;

	if (!root()) {
		harness_skip("root", "sigtrap on another process needs CAP_KILL and ptrace rights");
		return;
	}
	CHECK(!pipe2(ready, O_CLOEXEC) && !pipe2(go, O_CLOEXEC));
	pid = fork();
	CHECK(pid >= 0);
	if (!pid) {
		static char name[] = "test-signal", arg[] = EXEC_ARG;
		char *argv[] = {name, arg, NULL};

		/* Faults before exec (copy-on-write after fork) trap too: catch them. */
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = child_trap;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGTRAP, &sa, NULL);
		if (write(ready[1], &byte, 1) != 1 || read(go[0], &byte, 1) != 1)
			_exit(3);
		execv("/proc/self/exe", argv);
		_exit(4);
	}
	close(ready[1]);
	close(go[0]);
	fd_trap = fd_count = -1;
	if (read(ready[0], &byte, 1) == 1) {
		sw_attr(&a, PERF_COUNT_SW_PAGE_FAULTS);
		a.exclude_kernel = 1;
		a.sample_period = 1;
		perfev_attr_set_sigtrap(&a, 7);
		fd_trap = open_at(&a, pid, "sigtrap page-faults on a child", __LINE__);
		sw_attr(&a, PERF_COUNT_SW_PAGE_FAULTS);
		a.exclude_kernel = 1;
		if (fd_trap >= 0)
			fd_count = open_at(&a, pid, "page-faults on a child", __LINE__);
	} else {
		harness_fail(__FILE__, __LINE__, "the child did not get ready");
	}
	close(ready[0]);
	if (fd_trap < 0 || fd_count < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		if (fd_trap >= 0)
			close(fd_trap);
		close(go[1]);
		return;
	}
	CHECK_INT(write(go[1], &byte, 1), 1);
	close(go[1]);
	CHECK(waitpid(pid, &status, 0) == pid);
	after = count(fd_trap);
	faults = count(fd_count);
	EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "the exec'ed child: wait status %#x%s", status,
	       WIFSIGNALED(status) && WTERMSIG(status) == SIGTRAP
		   ? " (killed by SIGTRAP: the event survived exec)"
		   : "");
	EXPECT(faults != UINT64_MAX && faults >= EXEC_PAGES,
	       "the child took %llu user page faults, expected at least %d",
	       (unsigned long long)faults, EXEC_PAGES);
	/* The removed event stopped counting at exec: it saw only the faults before. */
	EXPECT(after != UINT64_MAX && after < faults - EXEC_PAGES,
	       "the sigtrap event counted %llu of the child's %llu faults",
	       (unsigned long long)after, (unsigned long long)faults);
	close(fd_trap);
	close(fd_count);
}

/* ---- other SIGTRAPs --------------------------------------------------------------- */

static volatile sig_atomic_t prev_calls, prev_code;

static void prev_action(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	prev_calls++;
	prev_code = si->si_code;
}

static void prev_plain(int sig)
{
	(void)sig;
	prev_calls++;
}

TEST(other_sigtraps_reach_previous_handler)
{
	struct sigaction sa, cur;
	struct perf_event_attr a;
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p;
	int fd;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = prev_action;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	CHECK_INT(sigaction(SIGTRAP, &sa, NULL), 0);
	prev_calls = 0;
	reset_traps();
	CHECK_INT(perfev_sigtrap_handler(on_trap, &trap_token), 0);
	/* Installing twice keeps the first previous handler. */
	CHECK_INT(perfev_sigtrap_handler(on_trap, &trap_token), 0);

	raise(SIGTRAP);
	EXPECT(prev_calls == 1 && traps == 0, "raise: previous handler %d calls, perf %d",
	       (int)prev_calls, (int)traps);
	EXPECT(prev_code == SI_TKILL, "si_code %d, expected SI_TKILL", (int)prev_code);

	/* A perf trap (here a page fault, which every machine has) goes to the library's function
	 * only. */
	sw_attr(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.exclude_kernel = 1;
	a.sample_period = 1;
	a.disabled = 1;
	perfev_attr_set_sigtrap(&a, 5);
	fd = open_at(&a, 0, "sigtrap on page-faults", __LINE__);
	if (fd >= 0) {
		p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
		CHECK(p != MAP_FAILED);
		CHECK_INT(perfev_ioc_enable(fd, false), 0);
		p[0] = 1;
		CHECK_INT(perfev_ioc_disable(fd, false), 0);
		EXPECT(traps == 1 && prev_calls == 1, "page fault: perf %d, previous %d",
		       (int)traps, (int)prev_calls);
		munmap((void *)p, (size_t)page);
		close(fd);
	}

	/* NULL puts the previous handler back. */
	CHECK_INT(perfev_sigtrap_handler(NULL, NULL), 0);
	CHECK_INT(sigaction(SIGTRAP, NULL, &cur), 0);
	CHECK(cur.sa_sigaction == prev_action);
	raise(SIGTRAP);
	EXPECT(prev_calls == 2 && traps <= 1, "after restore: previous %d, perf %d",
	       (int)prev_calls, (int)traps);
	CHECK_INT(perfev_sigtrap_handler(NULL, NULL), 0);

	/* A previous handler without SA_SIGINFO is called too. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = prev_plain;
	sigemptyset(&sa.sa_mask);
	CHECK_INT(sigaction(SIGTRAP, &sa, NULL), 0);
	CHECK_INT(perfev_sigtrap_handler(on_trap, &trap_token), 0);
	raise(SIGTRAP);
	EXPECT(prev_calls == 3, "plain previous handler: %d calls", (int)prev_calls);
	CHECK_INT(perfev_sigtrap_handler(NULL, NULL), 0);
	CHECK_INT(sigaction(SIGTRAP, NULL, &cur), 0);
	CHECK(cur.sa_handler == prev_plain);
	signal(SIGTRAP, SIG_DFL);

	/* An ignored SIGTRAP stays ignored for others. */
	signal(SIGTRAP, SIG_IGN);
	CHECK_INT(perfev_sigtrap_handler(on_trap, &trap_token), 0);
	raise(SIGTRAP);
	CHECK_INT(perfev_sigtrap_handler(NULL, NULL), 0);
	CHECK_INT(sigaction(SIGTRAP, NULL, &cur), 0);
	CHECK(cur.sa_handler == SIG_IGN);
	signal(SIGTRAP, SIG_DFL);
}
