// SPDX-License-Identifier: LGPL-2.1-or-later
/* Counting sessions on real software counters: every target kind, groups, fallbacks, errors. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <perfev/perfev.h>
#include "harness.h"

#define NOBODY	    65534
#define TOUCH_ARG   "--perfev-test-touch-pages"
#define TOUCH_PAGES 4096
#define MAX_CPUS    1024
#define CPU_DIR	    "/sys/devices/system/cpu"
/* Twelve hardware counters: more than any PMU schedules at once. */
#define HW_EVENTS                                                                                  \
	"cycles,instructions,branches,branch-misses,cache-references,cache-misses,cycles:u,"       \
	"instructions:u,branches:u,branch-misses:u,cache-references:u,cache-misses:u"

/* Skip the case for want of @feature, saying why, and leave it. */
#define SKIP(feature, ...)                                                                         \
	do {                                                                                       \
		harness_skip(feature, __VA_ARGS__);                                                \
		return;                                                                            \
	} while (0)

#define NOTE(s, ev) (perfev_session_event_note(s, ev) ?: "(null)")

/* ---- helpers ---------------------------------------------------------------- */

static bool root(void)
{
	return geteuid() == 0;
}

/*
 * The COMMAND cases' program that touches memory: this test itself,
 * re-executed with TOUCH_ARG, touches argv[2] pages and exits before the
 * harness starts.
 */
__attribute__((constructor)) static void touch_command(int argc, char **argv, char **envp)
{
	if (argc == 3 && !strcmp(argv[1], TOUCH_ARG)) {
		test_touch_fresh_pages((size_t)atoi(argv[2]));
		_exit(0);
	}
}

/* The integer in @path, or @def when it cannot be read. */
static int read_int(const char *path, int def)
{
	char text[64], *end;
	long v;

	if (test_read_text(path, text, sizeof(text)) <= 0)
		return def;
	v = strtol(text, &end, 10);
	return end == text ? def : (int)v;
}

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* 0 when @a opens on this thread, else the negative errno. */
static int probe(struct perf_event_attr *a)
{
	int fd;

	a->size = sizeof(*a);
	a->disabled = 1;
	fd = perfev_sys_open(a, 0, -1, -1, 0);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* 0 when the generic hardware event @config opens here, else the negative errno. */
static int hw_probe(uint64_t config)
{
	struct perf_event_attr a = {.type = PERF_TYPE_HARDWARE, .config = config};

	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return probe(&a);
}

/* The attr.type of the msr PMU, or -1 when there is none. */
static int msr_type(void)
{
	return read_int("/sys/bus/event_source/devices/msr/type", -1);
}

/* ---- sessions ---------------------------------------------------------------- */

static struct perfev_pmus *pmus;

__attribute__((destructor)) static void free_pmus(void)
{
	perfev_pmus_free(pmus);
}

static const struct perfev_target self_target = {.sz = sizeof(self_target),
						 .kind = PERFEV_TARGET_SELF};

static struct perfev_session *session_at(const char *events, const struct perfev_session_opts *o,
					 int line)
{
	struct perfev_parse_opts po = {.sz = sizeof(po)};
	struct perfev_parse_error pe = {.sz = sizeof(pe)};
	struct perfev_session *s = NULL;
	struct perfev_evspec *spec;
	int ret;

	if (!pmus && perfev_pmus_load(NULL, &pmus)) {
		harness_fail(__FILE__, line, "cannot load the PMU database");
		return NULL;
	}
	po.pmus = pmus;
	ret = perfev_evspec_parse(events, &po, &spec, &pe);
	if (ret) {
		harness_fail(__FILE__, line, "cannot parse '%s': %s", events, pe.message);
		return NULL;
	}
	ret = perfev_session_new(spec, o, &s);
	perfev_evspec_free(spec);
	if (ret)
		harness_fail(__FILE__, line, "perfev_session_new('%s'): %s", events,
			     strerrorname_np(-ret));
	return ret ? NULL : s;
}

/*
 * Open @s on @t.  Software events must open here: "not permitted" skips,
 * anything else fails the case.
 */
static bool open_at(struct perfev_session *s, const struct perfev_target *t, int line)
{
	struct perfev_session_error e = {.sz = sizeof(e)};
	int ret = perfev_session_open(s, t, &e);

	if (!ret)
		return true;
	if (ret == -EACCES || ret == -EPERM)
		harness_skip("perf-permission", "cannot open: %s: %s (not permitted here)",
			     strerrorname_np(-ret), e.message);
	else
		harness_fail(__FILE__, line, "perfev_session_open: %s: %s", strerrorname_np(-ret),
			     e.message);
	return false;
}

/* A session for @events, or NULL after failing the case. */
#define SESSION(events, opts) session_at(events, opts, __LINE__)
#define OPEN(s, t)	      open_at(s, t, __LINE__)

/* A session for @events opened on this thread, or NULL after deciding the case. */
static struct perfev_session *self_at(const char *events, const struct perfev_session_opts *o,
				      int line)
{
	struct perfev_session *s = session_at(events, o, line);

	if (s && !open_at(s, &self_target, line)) {
		perfev_session_free(s);
		s = NULL;
	}
	return s;
}

#define SELF(events, opts) self_at(events, opts, __LINE__)

/* The return of opening a fresh session for @events on @t, @e filled. */
static int try_open(const char *events, const struct perfev_target *t,
		    struct perfev_session_error *e)
{
	struct perfev_session *s = SESSION(events, NULL);
	int ret;

	memset(e, 0, sizeof(*e));
	e->sz = sizeof(*e);
	if (!s)
		return INT_MIN;
	ret = perfev_session_open(s, t, e);
	perfev_session_free(s);
	return ret;
}

/* Start, take @pages page faults and some CPU time, read; false after failing. */
static bool start_work_read(struct perfev_session *s, size_t pages, int line)
{
	int ret = perfev_session_start(s);

	test_touch_fresh_pages(pages);
	test_burn();
	if (!ret)
		ret = perfev_session_read(s);
	if (ret)
		harness_fail(__FILE__, line, "start or read: %s", strerrorname_np(-ret));
	return !ret;
}

#define WORK(s, pages) start_work_read(s, pages, __LINE__)

static struct perfev_count count_at(const struct perfev_session *s, size_t ev,
				    enum perfev_aggr aggr, size_t unit, int line)
{
	struct perfev_count c;
	int ret = perfev_session_count(s, ev, aggr, unit, &c);

	if (ret) {
		memset(&c, 0, sizeof(c));
		harness_fail(__FILE__, line, "perfev_session_count(ev %zu, aggr %d, unit %zu): %s",
			     ev, (int)aggr, unit, strerrorname_np(-ret));
	}
	return c;
}

#define COUNT(s, ev, aggr, unit) count_at(s, ev, aggr, unit, __LINE__)
#define TOTAL(s, ev)		 COUNT(s, ev, PERFEV_AGGR_GLOBAL, 0)

/* ---- busy children ------------------------------------------------------------ */

struct busy {
	pid_t pid;
	pid_t tids[3];
	int n;
};

static int busy_report_fd = -1;

static void *busy_thread(void *arg)
{
	pid_t tid = gettid();

	if (write(busy_report_fd, &tid, sizeof(tid)) != (ssize_t)sizeof(tid))
		_exit(1);
	for (;;) {
		test_touch_fresh_pages(8);
		test_burn();
	}
	return arg;
}

/*
 * Fork a child of @n threads (its main one included, n <= 3) that spin
 * and take page faults; returns once every thread exists, their ids in
 * @b->tids.  The child dies with the test.
 */
static bool busy_start(int n, struct busy *b)
{
	size_t want = (size_t)n * sizeof(pid_t), got = 0;
	pthread_t t;
	ssize_t r;
	int p[2], i;

	memset(b, 0, sizeof(*b));
	if (pipe2(p, O_CLOEXEC) || (b->pid = fork()) < 0) {
		harness_fail(__FILE__, __LINE__, "pipe or fork: %s", strerror(errno));
		return false;
	}
	if (!b->pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		busy_report_fd = p[1];
		for (i = 1; i < n; i++)
			if (pthread_create(&t, NULL, busy_thread, NULL))
				_exit(1);
		busy_thread(NULL);
	}
	close(p[1]);
	while (got < want && (r = read(p[0], (char *)b->tids + got, want - got)) > 0)
		got += (size_t)r;
	close(p[0]);
	b->n = n;
	if (got != want)
		harness_fail(__FILE__, __LINE__, "the busy child did not report its %d threads", n);
	return got == want;
}

static void busy_stop(struct busy *b)
{
	if (b->pid > 0) {
		kill(b->pid, SIGKILL);
		waitpid(b->pid, NULL, 0);
	}
	b->pid = 0;
}

static bool has_tid(const pid_t *tids, int n, pid_t tid)
{
	while (n-- > 0)
		if (tids[n] == tid)
			return true;
	return false;
}

/* ---- SELF ------------------------------------------------------------------- */

TEST(self_counts_page_faults_of_fresh_pages)
{
	struct perfev_session *s = SELF("page-faults,task-clock", NULL);
	struct perfev_count before, after, t;
	struct perfev_unit u;
	const size_t n = 512;

	if (!s)
		return;
	if (!WORK(s, 0))
		goto out;
	before = TOTAL(s, 0);
	test_touch_fresh_pages(n);
	test_burn();
	CHECK_INT(perfev_session_read(s), 0);
	after = TOTAL(s, 0);
	t = TOTAL(s, 1);
	EXPECT(after.raw >= before.raw + n, "page faults grew by %" PRIu64 ", touched %zu pages",
	       after.raw - before.raw, n);
	EXPECT(after.instances == 1 && after.scaled == after.raw,
	       "%u instances, scaled %" PRIu64 " raw %" PRIu64, after.instances, after.scaled,
	       after.raw);
	EXPECT(t.raw > 0 && t.enabled > 0 && t.running > 0, "task-clock %" PRIu64, t.raw);
	/* The one thread unit is this thread, named by its id. */
	CHECK_INT(perfev_session_units(s, PERFEV_AGGR_THREAD, &u, 1), 1);
	EXPECT(u.tid == gettid(), "THREAD unit tid %d, this thread is %d", (int)u.tid,
	       (int)gettid());
	EXPECT(u.cpu == -1 && u.core == -1 && u.socket == -1 && u.node == -1,
	       "THREAD unit has cpu %d core %d socket %d node %d", u.cpu, u.core, u.socket, u.node);
out:
	perfev_session_free(s);
}

/* ---- PID -------------------------------------------------------------------- */

/* @spec on every thread of the busy child @b. */
static void pid_case(const char *spec, const struct busy *b)
{
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_PID, .pid = b->pid};
	struct perfev_session *s = SESSION(spec, NULL);
	struct perfev_unit u[8];
	uint64_t sum_tc = 0, sum_pf = 0;
	struct perfev_count tc, pf;
	int n, i;

	if (!s || !OPEN(s, &t))
		goto out;
	CHECK_INT(perfev_session_start(s), 0);
	usleep(200 * 1000);
	CHECK_INT(perfev_session_read(s), 0);
	n = perfev_session_units(s, PERFEV_AGGR_THREAD, u, 8);
	CHECK_INT(n, b->n);
	for (i = 0; i < n; i++) {
		EXPECT(has_tid(b->tids, b->n, u[i].tid),
		       "%s: unit %d: tid %d is not a thread of %d", spec, i, (int)u[i].tid,
		       (int)b->pid);
		EXPECT(i == 0 || u[i - 1].tid < u[i].tid, "THREAD units out of order");
		tc = COUNT(s, 0, PERFEV_AGGR_THREAD, (size_t)i);
		pf = COUNT(s, 1, PERFEV_AGGR_THREAD, (size_t)i);
		EXPECT(tc.raw > 0 && pf.raw > 0 && tc.instances == 1,
		       "%s: thread %d: task-clock %" PRIu64 ", page-faults %" PRIu64 " over %u",
		       spec, (int)u[i].tid, tc.raw, pf.raw, tc.instances);
		/* A group is read in one read(2): its members share their times. */
		if (spec[0] == '{')
			EXPECT(tc.enabled == pf.enabled && tc.running == pf.running,
			       "%s: thread %d: members read at different times", spec,
			       (int)u[i].tid);
		sum_tc += tc.raw;
		sum_pf += pf.raw;
	}
	tc = TOTAL(s, 0);
	pf = TOTAL(s, 1);
	EXPECT(tc.raw == sum_tc && pf.raw == sum_pf && tc.instances == (unsigned int)b->n,
	       "%s: totals %" PRIu64 ", %" PRIu64 " over %u; threads sum to %" PRIu64 ", %" PRIu64,
	       spec, tc.raw, pf.raw, tc.instances, sum_tc, sum_pf);
	EXPECT(perfev_session_units(s, PERFEV_AGGR_CPU, NULL, 0) == -EINVAL,
	       "CPU units of a PID target");
out:
	perfev_session_free(s);
}

/* Threads made before the attach are all instances, alone or in a group. */
TEST(pid_counts_every_thread_of_a_process)
{
	struct busy b;

	if (busy_start(3, &b)) {
		pid_case("task-clock,page-faults", &b);
		if (!harness_done())
			pid_case("{task-clock,page-faults}", &b);
	}
	busy_stop(&b);
}

/* ---- THREADS ------------------------------------------------------------------ */

struct spinner {
	pthread_t thread;
	volatile pid_t tid;
	volatile int stop;
};

static void *spin(void *arg)
{
	struct spinner *sp = arg;

	sp->tid = gettid();
	while (!sp->stop)
		test_burn();
	return NULL;
}

static void threads_case(const pid_t *tids)
{
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_THREADS};
	struct perfev_session *s = SESSION("task-clock", NULL);
	struct perfev_unit u[4];
	struct perfev_count c;
	int i;

	t.tids = tids;
	t.ntids = 2;
	if (!s || !OPEN(s, &t))
		goto out;
	EXPECT(!perfev_session_event_attr(s, 0)->inherit, "threads listed one by one inherit");
	CHECK_INT(perfev_session_start(s), 0);
	usleep(100 * 1000);
	CHECK_INT(perfev_session_read(s), 0);
	CHECK_INT(perfev_session_units(s, PERFEV_AGGR_THREAD, u, 4), 2);
	EXPECT(u[0].tid != u[1].tid, "both units are thread %d", (int)u[0].tid);
	for (i = 0; i < 2; i++) {
		EXPECT(has_tid(tids, 2, u[i].tid), "unit tid %d was not asked for", (int)u[i].tid);
		c = COUNT(s, 0, PERFEV_AGGR_THREAD, (size_t)i);
		EXPECT(c.raw > 0 && c.instances == 1, "thread %d: task-clock %" PRIu64 " over %u",
		       (int)u[i].tid, c.raw, c.instances);
	}
out:
	perfev_session_free(s);
}

TEST(threads_counts_the_given_tids)
{
	struct spinner sp[2];
	pid_t tids[2];
	int i, started = 0;

	memset(sp, 0, sizeof(sp));
	while (started < 2 && !pthread_create(&sp[started].thread, NULL, spin, &sp[started]))
		started++;
	if (started == 2) {
		while (!sp[0].tid || !sp[1].tid)
			usleep(1000);
		tids[0] = sp[0].tid;
		tids[1] = sp[1].tid;
		threads_case(tids);
	} else {
		harness_fail(__FILE__, __LINE__, "pthread_create failed");
	}
	for (i = 0; i < started; i++) {
		sp[i].stop = 1;
		pthread_join(sp[i].thread, NULL);
	}
}

/* ---- COMMAND ------------------------------------------------------------------ */

struct run {
	int status;
	uint64_t page_faults;
	uint64_t before_start; /* count plus enabled time before start */
};

/* Count page-faults,task-clock of @argv from exec to exit. */
static bool run_command(char *const *argv, const struct perfev_session_opts *o, struct run *r)
{
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_COMMAND, .argv = argv};
	struct perfev_session *s = SESSION("page-faults,task-clock", o);
	struct perfev_count c;
	pid_t child = 0;
	int ret = -1;

	if (!s || !OPEN(s, &t))
		goto out;
	child = perfev_session_child(s);
	if (child <= 0 || kill(child, 0))
		goto out;
	/* Held before exec: nothing counted yet, however long we wait. */
	usleep(20 * 1000);
	if ((ret = perfev_session_read(s)))
		goto out;
	c = TOTAL(s, 0);
	r->before_start = c.raw + c.enabled;
	if ((ret = perfev_session_start(s)))
		goto out;
	ret = waitpid(child, &r->status, 0) == child ? perfev_session_read(s) : -errno;
	r->page_faults = TOTAL(s, 0).raw;
out:
	if (ret && !harness_done())
		harness_fail(__FILE__, __LINE__, "%s (child %d): %s", argv[0], (int)child,
			     strerrorname_np(-ret));
	perfev_session_free(s);
	return !harness_done();
}

TEST(command_counts_from_exec_and_returns_its_status)
{
	char sh[] = "sh", dash_c[] = "-c", exit3_text[] = "exit 3", true_path[] = "/bin/true";
	char exe[PATH_MAX], touch[] = TOUCH_ARG, pages[16];
	char *exit3[] = {sh, dash_c, exit3_text, NULL};
	char *truecmd[] = {true_path, NULL};
	char *toucher[] = {exe, touch, pages, NULL};
	struct run a, b, c;
	ssize_t n;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	CHECK(n > 0);
	exe[n] = '\0';
	snprintf(pages, sizeof(pages), "%d", TOUCH_PAGES);
	if (!run_command(exit3, NULL, &a) || !run_command(truecmd, NULL, &b) ||
	    !run_command(toucher, NULL, &c))
		return;
	EXPECT(WIFEXITED(a.status) && WEXITSTATUS(a.status) == 3, "sh -c 'exit 3': status %#x",
	       a.status);
	EXPECT(WIFEXITED(b.status) && WEXITSTATUS(b.status) == 0, "true: status %#x", b.status);
	EXPECT(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0, "toucher: status %#x", c.status);
	EXPECT(a.before_start == 0, "counted before exec");
	EXPECT(a.page_faults > 0 && b.page_faults > 0,
	       "exec takes page faults: %" PRIu64 ", %" PRIu64, a.page_faults, b.page_faults);
	EXPECT(c.page_faults >= TOUCH_PAGES, "toucher: %" PRIu64 " page faults for %d pages",
	       c.page_faults, TOUCH_PAGES);
	EXPECT(a.page_faults < TOUCH_PAGES && a.page_faults < c.page_faults,
	       "exit only: %" PRIu64 " page faults, toucher %" PRIu64, a.page_faults,
	       c.page_faults);
}

/* A session for @events on the program @path, forked and held before exec; or NULL. */
static struct perfev_session *held_at(const char *events, const char *path, pid_t *child, int line)
{
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_COMMAND};
	struct perfev_session *s = session_at(events, NULL, line);
	char prog[PATH_MAX];
	char *argv[] = {prog, NULL};

	snprintf(prog, sizeof(prog), "%s", path);
	t.argv = argv;
	if (s && !open_at(s, &t, line)) {
		perfev_session_free(s);
		s = NULL;
	}
	*child = perfev_session_child(s);
	if (s && *child <= 0)
		harness_fail(__FILE__, line, "%s: no child held", path);
	if (harness_done()) {
		perfev_session_free(s);
		return NULL;
	}
	return s;
}

#define HELD(events, path, child) held_at(events, path, child, __LINE__)

TEST(command_armed_for_exec_unless_manual_enable)
{
	struct perfev_session_opts o = {.sz = sizeof(o), .manual_enable = true};
	char true_path[] = "/bin/true";
	char *argv[] = {true_path, NULL};
	struct perfev_session *s;
	const struct perf_event_attr *a;
	struct run r;
	pid_t child;

	if (!(s = HELD("page-faults,task-clock", "/bin/true", &child)))
		return;
	a = perfev_session_event_attr(s, 0);
	EXPECT(a->disabled && a->enable_on_exec, "default: disabled %d enable_on_exec %d",
	       (int)a->disabled, (int)a->enable_on_exec);
	perfev_session_free(s);
	/* Not armed: nothing is counted until the caller enables, which it never does. */
	if (!run_command(argv, &o, &r))
		return;
	EXPECT(r.page_faults == 0, "manual_enable counted %" PRIu64 " page faults unasked",
	       r.page_faults);
}

/* A command whose exec fails with @want: start returns it and no zombie is left. */
static void exec_fails(const char *path, int want)
{
	struct perfev_session *s;
	pid_t child;
	int ret;

	if (!(s = HELD("task-clock", path, &child)))
		return;
	ret = perfev_session_start(s);
	EXPECT(ret == want, "start of %s: %d, expected %d", path, ret, want);
	errno = 0;
	EXPECT(waitpid(child, NULL, WNOHANG) == -1 && errno == ECHILD,
	       "%s: child %d left behind (errno %s)", path, (int)child, strerrorname_np(errno));
	perfev_session_free(s);
}

TEST(command_exec_failure_fails_at_start_and_is_reaped)
{
	char path[64];
	int fd;

	exec_fails("/nonexistent/perfev-no-such-program", -ENOENT);
	snprintf(path, sizeof(path), "/tmp/perfev-test-noexec-%d", (int)getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	CHECK(fd >= 0);
	close(fd);
	exec_fails(path, -EACCES);
	unlink(path);
}

TEST(free_kills_and_reaps_an_unstarted_command)
{
	struct perfev_session *s;
	struct perfev_unit u;
	pid_t child;

	if (!(s = HELD("task-clock", "/bin/true", &child)))
		return;
	EXPECT(perfev_session_units(s, PERFEV_AGGR_THREAD, &u, 1) == 1 && u.tid == child,
	       "the command's thread unit is not its pid %d", (int)child);
	perfev_session_free(s);
	errno = 0;
	EXPECT(waitpid(child, NULL, WNOHANG) == -1 && errno == ECHILD,
	       "held child %d not reaped (errno %s)", (int)child, strerrorname_np(errno));
}

/* A command that died while held: start reports it, the caller lives (no SIGPIPE). */
TEST(start_after_the_held_child_died)
{
	struct perfev_session *s;
	pid_t helper, child;
	siginfo_t si;
	int status;

	if (!(s = HELD("task-clock", "/bin/true", &child)))
		return;
	/* Dead but not reaped: its pid stays its own for the library to reap. */
	kill(child, SIGKILL);
	waitid(P_PID, (id_t)child, &si, WEXITED | WNOWAIT);
	/* Started in a helper process: a SIGPIPE would end the whole test run. */
	helper = fork();
	if (!helper)
		_exit(perfev_session_start(s) < 0 ? 0 : 1);
	perfev_session_free(s);
	CHECK(helper > 0);
	CHECK_INT(waitpid(helper, &status, 0), helper);
	EXPECT(!WIFSIGNALED(status), "perfev_session_start killed the caller: %s",
	       WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "");
	EXPECT(!WIFEXITED(status) || !WEXITSTATUS(status), "start of a dead command succeeded");
}

/* ---- CPUS --------------------------------------------------------------------- */

/* The online CPUs as sysfs places them; returns how many. */
static int sysfs_cpus(struct perfev_unit *out, int max)
{
	char text[4096], path[PATH_MAX], *p;
	struct dirent *de;
	int n = 0;
	long c, hi;
	DIR *d;

	if (test_read_text(CPU_DIR "/online", text, sizeof(text)) <= 0)
		return -1;
	for (p = text; *p && *p != '\n'; p += *p == ',') {
		c = hi = strtol(p, &p, 10);
		if (*p == '-')
			hi = strtol(p + 1, &p, 10);
		for (; c <= hi && n < max; c++, n++) {
			struct perfev_unit *u = &out[n];

			u->cpu = (int)c;
			u->tid = -1;
			snprintf(path, sizeof(path), CPU_DIR "/cpu%ld/topology/core_id", c);
			u->core = read_int(path, -1);
			snprintf(path, sizeof(path), CPU_DIR "/cpu%ld/topology/die_id", c);
			u->die = read_int(path, 0);
			snprintf(path, sizeof(path), CPU_DIR "/cpu%ld/topology/physical_package_id",
				 c);
			u->socket = read_int(path, -1);
			u->node = -1;
			snprintf(path, sizeof(path), CPU_DIR "/cpu%ld", c);
			d = opendir(path);
			while (d && (de = readdir(d)))
				if (!strncmp(de->d_name, "node", 4) && de->d_name[4] >= '0' &&
				    de->d_name[4] <= '9')
					u->node = atoi(de->d_name + 4);
			if (d)
				closedir(d);
		}
	}
	return n;
}

/* Whether @u is the unit of the CPU @c (as sysfs_cpus() gives it) at level @a. */
static bool unit_is(const struct perfev_unit *u, const struct perfev_unit *c, enum perfev_aggr a)
{
	bool socket = u->socket == c->socket, die = socket && u->die == c->die;

	switch (a) {
	case PERFEV_AGGR_CPU:
		return die && u->core == c->core && u->cpu == c->cpu && u->node == c->node;
	case PERFEV_AGGR_CORE:
		return die && u->core == c->core && u->cpu == -1;
	case PERFEV_AGGR_DIE:
		return die && u->core == -1;
	case PERFEV_AGGR_SOCKET:
		return socket && u->die == -1;
	case PERFEV_AGGR_NODE:
		return u->node == c->node && u->socket == -1;
	default:
		return false;
	}
}

/* The units of @a against sysfs, their counts summing to the total. */
static void check_level(struct perfev_session *s, enum perfev_aggr a, const char *name,
			const struct perfev_unit *cpus, int ncpus)
{
	struct perfev_unit u[MAX_CPUS];
	struct perfev_count total = TOTAL(s, 0), c;
	uint64_t raw = 0, enabled = 0;
	unsigned int inst = 0;
	int n, i, k, want = 0;

	/* One unit per CPU whose unit no earlier CPU shares. */
	for (i = 0; i < ncpus; i++) {
		struct perfev_unit mine = cpus[i];

		mine.cpu = a == PERFEV_AGGR_CPU ? mine.cpu : -1;
		mine.core = a <= PERFEV_AGGR_CORE ? mine.core : -1;
		mine.die = a <= PERFEV_AGGR_DIE ? mine.die : -1;
		mine.socket = a <= PERFEV_AGGR_SOCKET ? mine.socket : -1;
		mine.node = a == PERFEV_AGGR_CPU || a == PERFEV_AGGR_NODE ? mine.node : -1;
		for (k = 0; k < i && !unit_is(&mine, &cpus[k], a); k++)
			;
		want += k == i;
	}
	n = perfev_session_units(s, a, u, MAX_CPUS);
	EXPECT(n == want, "%s: %d units, sysfs has %d", name, n, want);
	for (i = 0; i < n && i < MAX_CPUS; i++) {
		for (k = 0; k < ncpus && !unit_is(&u[i], &cpus[k], a); k++)
			;
		EXPECT(k < ncpus && u[i].tid == -1,
		       "%s unit %d (cpu %d core %d die %d socket %d node %d tid %d) not in sysfs",
		       name, i, u[i].cpu, u[i].core, u[i].die, u[i].socket, u[i].node,
		       (int)u[i].tid);
		c = COUNT(s, 0, a, (size_t)i);
		raw += c.raw;
		enabled += c.enabled;
		inst += c.instances;
	}
	EXPECT(raw == total.raw && enabled == total.enabled && inst == total.instances,
	       "%s: units sum to %" PRIu64 "/%" PRIu64 "/%u, total %" PRIu64 "/%" PRIu64 "/%u",
	       name, raw, enabled, inst, total.raw, total.enabled, total.instances);
}

TEST(cpus_all_online_units_match_sysfs)
{
	static struct perfev_unit cpus[MAX_CPUS];
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_CPUS};
	struct perfev_session *s;
	struct perfev_count c;
	int n = sysfs_cpus(cpus, MAX_CPUS);

	CHECK(n > 0);
	s = SESSION("cpu-clock,context-switches", NULL);
	if (!s || !OPEN(s, &t))
		goto out;
	EXPECT(!perfev_session_event_attr(s, 0)->inherit, "system-wide counters inherit");
	if (!WORK(s, 0))
		goto out;
	c = TOTAL(s, 0);
	EXPECT(c.raw > 0 && c.instances == (unsigned int)n, "cpu-clock %" PRIu64 " over %u of %d",
	       c.raw, c.instances, n);
	check_level(s, PERFEV_AGGR_CPU, "cpu", cpus, n);
	check_level(s, PERFEV_AGGR_CORE, "core", cpus, n);
	check_level(s, PERFEV_AGGR_DIE, "die", cpus, n);
	check_level(s, PERFEV_AGGR_SOCKET, "socket", cpus, n);
	check_level(s, PERFEV_AGGR_NODE, "node", cpus, n);
	EXPECT(perfev_session_units(s, PERFEV_AGGR_THREAD, NULL, 0) == -EINVAL,
	       "THREAD units of a CPU target");
out:
	perfev_session_free(s);
}

TEST(cpus_list_counts_only_those_cpus)
{
	static struct perfev_unit cpus[MAX_CPUS];
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_CPUS};
	const int list[] = {0};
	struct perfev_session *s;
	struct perfev_count c, c0;
	struct perfev_unit u[4];
	int n = sysfs_cpus(cpus, MAX_CPUS);

	CHECK(n > 0 && cpus[0].cpu == 0);
	t.cpus = list;
	t.ncpus = 1;
	s = SESSION("cpu-clock", NULL);
	if (!s || !OPEN(s, &t) || !WORK(s, 0))
		goto out;
	CHECK_INT(perfev_session_units(s, PERFEV_AGGR_CPU, u, 4), 1);
	EXPECT(unit_is(&u[0], &cpus[0], PERFEV_AGGR_CPU), "unit: cpu %d core %d socket %d node %d",
	       u[0].cpu, u[0].core, u[0].socket, u[0].node);
	c = TOTAL(s, 0);
	c0 = COUNT(s, 0, PERFEV_AGGR_CPU, 0);
	EXPECT(c.instances == 1 && c.raw > 0 && c.raw == c0.raw, "total %" PRIu64 " cpu0 %" PRIu64,
	       c.raw, c0.raw);
	EXPECT(perfev_session_units(s, PERFEV_AGGR_SOCKET, u, 4) == 1, "one socket for one CPU");
out:
	perfev_session_free(s);
}

TEST(cpus_list_with_a_missing_cpu_is_an_error)
{
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_CPUS};
	struct perfev_session_error e = {.sz = sizeof(e)};
	const int list[] = {MAX_CPUS * 64};
	struct perfev_session *s = SESSION("cpu-clock", NULL);
	int ret;

	if (!s)
		return;
	t.cpus = list;
	t.ncpus = 1;
	ret = perfev_session_open(s, &t, &e);
	/* A bad target, not an event this machine cannot count. */
	EXPECT(ret < 0, "open on cpu %d: %d, event state %d, note \"%s\"", list[0], ret,
	       (int)perfev_session_event_state(s, 0), NOTE(s, 0));
	perfev_session_free(s);
}

/* ---- CGROUP ------------------------------------------------------------------- */

/* The cgroup v2 mount point, from mountinfo. */
static bool cgroup2_mount(char *buf, size_t len)
{
	char line[4096], mnt[PATH_MAX];
	bool found = false;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	while (f && !found && fgets(line, sizeof(line), f)) {
		const char *sep = strstr(line, " - ");

		if (sep && !strncmp(sep, " - cgroup2 ", 11) &&
		    sscanf(line, "%*s %*s %*s %*s %4095s", mnt) == 1 && !strchr(mnt, '\\')) {
			snprintf(buf, len, "%s", mnt);
			found = true;
		}
	}
	if (f)
		fclose(f);
	return found;
}

/* Make cgroup @dir below the v2 mount; false after skipping or failing the case. */
static bool cgroup_make(char *dir, size_t len, const char *suffix)
{
	char mnt[PATH_MAX];

	if (!root() || !cgroup2_mount(mnt, sizeof(mnt))) {
		harness_skip(root() ? "cgroup2" : "root", "%s",
			     root() ? "cgroup v2 is not mounted" : "creating cgroups needs root");
		return false;
	}
	snprintf(dir, len, "%s/perfev-test-%d%s", mnt, (int)getpid(), suffix);
	if (!mkdir(dir, 0755))
		return true;
	if (errno == EACCES || errno == EPERM || errno == EROFS)
		harness_skip("cgroup2", "cannot create %s: %s (not writable here)", dir,
			     strerrorname_np(errno));
	else
		harness_fail(__FILE__, __LINE__, "mkdir %s: %s", dir, strerror(errno));
	return false;
}

static void cgroup_remove(const char *dir)
{
	int i;

	/* A killed task leaves its cgroup a moment after it is reaped. */
	for (i = 0; i < 200; i++) {
		if (!rmdir(dir) || errno == ENOENT)
			return;
		if (errno != EBUSY)
			break;
		usleep(10 * 1000);
	}
	harness_fail(__FILE__, __LINE__, "cannot remove cgroup %s: %s", dir, strerror(errno));
}

static void cgroup_case(const char *dir, const char *empty, const struct busy *b)
{
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_CGROUP, .cgroup = dir};
	struct perfev_target te = {.sz = sizeof(te), .kind = PERFEV_TARGET_CGROUP, .cgroup = empty};
	struct perfev_session *s = SESSION("task-clock", NULL), *se = SESSION("task-clock", NULL);
	char path[PATH_MAX + 128], pid[32];
	struct perfev_count c1, c2, ce;
	uint64_t sum = 0;
	int ret, n, i;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(pid, sizeof(pid), "%d\n", (int)b->pid);
	ret = write_text(path, pid);
	if (ret == -EACCES || ret == -EPERM || ret == -EOPNOTSUPP)
		harness_skip("cgroup2", "cannot move pid %d into %s: %s", (int)b->pid, dir,
			     strerrorname_np(-ret));
	else
		EXPECT(ret == 0, "moving pid %d into %s: %s", (int)b->pid, dir,
		       strerrorname_np(-ret));
	if (ret || !s || !se || !OPEN(s, &t) || !OPEN(se, &te))
		goto out;
	CHECK_INT(perfev_session_start(s), 0);
	CHECK_INT(perfev_session_start(se), 0);
	usleep(100 * 1000);
	CHECK_INT(perfev_session_read(s), 0);
	c1 = TOTAL(s, 0);
	usleep(100 * 1000);
	CHECK_INT(perfev_session_read(s), 0);
	CHECK_INT(perfev_session_read(se), 0);
	c2 = TOTAL(s, 0);
	ce = TOTAL(se, 0);
	EXPECT(c1.raw > 0 && c2.raw > c1.raw, "busy cgroup: %" PRIu64 " then %" PRIu64, c1.raw,
	       c2.raw);
	EXPECT(ce.raw == 0, "an empty cgroup counted %" PRIu64, ce.raw);
	n = perfev_session_units(s, PERFEV_AGGR_CPU, NULL, 0);
	EXPECT(n > 0 && (unsigned int)n == c2.instances, "%d CPU units, %u instances", n,
	       c2.instances);
	for (i = 0; i < n; i++)
		sum += COUNT(s, 0, PERFEV_AGGR_CPU, (size_t)i).raw;
	EXPECT(sum == c2.raw, "per-CPU sum %" PRIu64 " != total %" PRIu64, sum, c2.raw);
out:
	perfev_session_free(s);
	perfev_session_free(se);
}

TEST(cgroup_counts_its_tasks)
{
	char dir[PATH_MAX + 64], empty[PATH_MAX + 64];
	struct busy b = {0};

	if (!cgroup_make(dir, sizeof(dir), ""))
		return;
	if (cgroup_make(empty, sizeof(empty), "-empty")) {
		if (busy_start(1, &b))
			cgroup_case(dir, empty, &b);
		busy_stop(&b);
		cgroup_remove(empty);
	}
	cgroup_remove(dir);
}

/* "absolute or below the cgroup mount": the v2 mount, wherever it is. */
TEST(cgroup_relative_path_is_below_the_cgroup_mount)
{
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_CGROUP};
	struct perfev_session_error e;
	char dir[PATH_MAX + 64];
	int ret;

	if (!cgroup_make(dir, sizeof(dir), "-rel"))
		return;
	t.cgroup = strrchr(dir, '/') + 1;
	ret = try_open("task-clock", &t, &e);
	EXPECT(ret == 0, "cgroup '%s' (made as %s): %s: %s", t.cgroup, dir, strerrorname_np(-ret),
	       e.message);
	cgroup_remove(dir);
}

TEST(cgroup_errors_name_the_cgroup)
{
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_CGROUP};
	char name[64], abs[PATH_MAX + 64], mnt[PATH_MAX], plain[64];
	const char *names[3] = {name, abs, plain};
	struct perfev_session_error e;
	int i, ret;

	snprintf(name, sizeof(name), "perfev-no-such-cgroup-%d", (int)getpid());
	if (!cgroup2_mount(mnt, sizeof(mnt)))
		snprintf(mnt, sizeof(mnt), "/sys/fs/cgroup");
	snprintf(abs, sizeof(abs), "%s/%s", mnt, name);
	/* A directory that is not a cgroup fails too (with what the kernel says). */
	snprintf(plain, sizeof(plain), "/tmp/perfev-test-notcg-%d", (int)getpid());
	CHECK(!mkdir(plain, 0755) || errno == EEXIST);
	for (i = 0; i < 3; i++) {
		t.cgroup = names[i];
		ret = try_open("task-clock", &t, &e);
		EXPECT(i == 2 ? ret < 0 : ret == -ENOENT && e.err == -ENOENT, "cgroup %s: %d",
		       names[i], ret);
		EXPECT(strstr(e.message, names[i]), "message \"%s\" does not name %s", e.message,
		       names[i]);
	}
	rmdir(plain);
}

/* ---- groups ------------------------------------------------------------------- */

TEST(group_members_share_one_read)
{
	struct perfev_session *s = SELF("{task-clock,page-faults,context-switches}", NULL);
	const struct perf_event_attr *a;
	struct perfev_count c[3];
	size_t i;

	if (!s)
		return;
	for (i = 0; i < 3; i++) {
		a = perfev_session_event_attr(s, i);
		EXPECT(!!a->disabled == !i && !!(a->read_format & PERF_FORMAT_GROUP) == !i,
		       "event %zu: disabled %d, read_format %#llx", i, (int)a->disabled,
		       (unsigned long long)a->read_format);
	}
	usleep(1000);
	if (!WORK(s, 64))
		goto out;
	for (i = 0; i < 3; i++)
		c[i] = TOTAL(s, i);
	EXPECT(c[0].raw > 0 && c[1].raw >= 64, "task-clock %" PRIu64 ", page-faults %" PRIu64,
	       c[0].raw, c[1].raw);
	for (i = 1; i < 3; i++)
		EXPECT(c[i].enabled == c[0].enabled && c[i].running == c[0].running,
		       "member %zu: enabled/running %" PRIu64 "/%" PRIu64 ", leader %" PRIu64
		       "/%" PRIu64,
		       i, c[i].enabled, c[i].running, c[0].enabled, c[0].running);
out:
	perfev_session_free(s);
}

TEST(no_group_opens_members_alone)
{
	struct perfev_session_opts o = {.sz = sizeof(o), .no_group = true};
	struct perfev_session *s = SELF("{task-clock,page-faults,context-switches}", &o);
	const struct perf_event_attr *a;
	struct perfev_count c;
	size_t i;

	if (!s)
		return;
	for (i = 0; i < 3; i++) {
		a = perfev_session_event_attr(s, i);
		EXPECT(a->disabled && !(a->read_format & PERF_FORMAT_GROUP),
		       "event %zu: disabled %d, read_format %#llx", i, (int)a->disabled,
		       (unsigned long long)a->read_format);
	}
	if (!WORK(s, 64))
		goto out;
	usleep(1000);
	CHECK_INT(perfev_session_read(s), 0);
	for (i = 0; i < 3; i++) {
		c = TOTAL(s, i);
		EXPECT(c.raw > 0 && c.instances == 1, "event %zu: %" PRIu64 " over %u", i, c.raw,
		       c.instances);
	}
out:
	perfev_session_free(s);
}

/* The header sets no limit on group size; perf reads any group. */
TEST(large_group_reads)
{
	char spec[2048] = "{";
	struct perfev_session *s;
	int i, ret;

	for (i = 0; i < 70; i++)
		strcat(spec, i ? ",page-faults" : "page-faults");
	strcat(spec, "}");
	s = SELF(spec, NULL);
	if (!s)
		return;
	CHECK_INT(perfev_session_start(s), 0);
	test_touch_fresh_pages(16);
	ret = perfev_session_read(s);
	EXPECT(ret == 0, "read of a 70-event group: %s", strerrorname_np(-ret));
	if (!ret)
		EXPECT(TOTAL(s, 69).raw >= 16, "last member: %" PRIu64 " page faults",
		       TOTAL(s, 69).raw);
	perfev_session_free(s);
}

/* ---- fallbacks ---------------------------------------------------------------- */

struct nobody_report {
	int ret, state, exclude_kernel;
	uint64_t raw;
	char note[512], message[512];
};

/* In a child that became nobody: open @s on itself, count a little, report. */
static void nobody_child(struct perfev_session *s, int fd)
{
	struct perfev_session_error e = {.sz = sizeof(e)};
	struct nobody_report r = {.ret = INT_MIN};
	struct perfev_count c;
	gid_t g = NOBODY;

	if (setgroups(1, &g) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		goto report;
	r.ret = perfev_session_open(s, &self_target, &e);
	snprintf(r.message, sizeof(r.message), "%s", e.message);
	if (r.ret)
		goto report;
	r.state = (int)perfev_session_event_state(s, 0);
	r.exclude_kernel = perfev_session_event_attr(s, 0)->exclude_kernel;
	snprintf(r.note, sizeof(r.note), "%s", NOTE(s, 0));
	if (!perfev_session_start(s)) {
		test_burn();
		if (!perfev_session_read(s) &&
		    !perfev_session_count(s, 0, PERFEV_AGGR_GLOBAL, 0, &c))
			r.raw = c.raw;
	}
report:
	_exit(write(fd, &r, sizeof(r)) != (ssize_t)sizeof(r));
}

/* Run nobody_child(); false after skipping or failing the case. */
static bool as_nobody(const char *events, const struct perfev_session_opts *o,
		      struct nobody_report *r)
{
	struct perfev_session *s;
	int p[2], pv = read_int("/proc/sys/kernel/perf_event_paranoid", INT_MIN);
	ssize_t n = -1;
	pid_t pid;

	if (!root() || pv != 2) {
		harness_skip(root() ? "paranoid-2" : "root",
			     "%s (perf_event_paranoid %d; the user-only fallback needs 2: kernel "
			     "counting refused, user counting allowed)",
			     root() ? "wrong paranoia" : "becoming nobody needs root", pv);
		return false;
	}
	s = SESSION(events, o);
	if (!s)
		return false;
	if (!pipe2(p, O_CLOEXEC)) {
		pid = fork();
		if (!pid)
			nobody_child(s, p[1]);
		close(p[1]);
		if (pid > 0) {
			n = read(p[0], r, sizeof(*r));
			waitpid(pid, NULL, 0);
		}
		close(p[0]);
	}
	perfev_session_free(s);
	if (n != (ssize_t)sizeof(*r) || r->ret == INT_MIN)
		harness_fail(__FILE__, __LINE__, "the child did not become uid/gid %d and report",
			     NOBODY);
	return !harness_done();
}

TEST(fallback_user_only_as_nobody)
{
	struct nobody_report r;

	if (!as_nobody("task-clock", NULL, &r))
		return;
	CHECK_INT(r.ret, 0);
	EXPECT(r.state == PERFEV_EVENT_OPEN, "state %d", r.state);
	EXPECT(r.exclude_kernel, "the attr still counts the kernel");
	EXPECT(strstr(r.note, "asked 'task-clock', got 'task-clock:u'"), "note \"%s\"", r.note);
	EXPECT(r.raw > 0, "task-clock:u counted nothing");
}

TEST(no_fallback_as_nobody_fails_naming_paranoid)
{
	struct perfev_session_opts o = {.sz = sizeof(o), .no_fallback = true};
	struct nobody_report r;

	if (!as_nobody("task-clock", &o, &r))
		return;
	EXPECT(r.ret == -EACCES, "open: %d", r.ret);
	EXPECT(strstr(r.message, "perf_event_paranoid"), "message \"%s\"", r.message);
}

TEST(fallback_cycles_to_cpu_clock)
{
	struct perfev_session *s;
	const struct perf_event_attr *a;

	if (!hw_probe(PERF_COUNT_HW_CPU_CYCLES))
		SKIP("no-hw-pmu", "this machine has a hardware PMU: cycles opens");
	s = SELF("cycles", NULL);
	if (!s)
		return;
	a = perfev_session_event_attr(s, 0);
	EXPECT(perfev_session_event_state(s, 0) == PERFEV_EVENT_OPEN, "cycles is not counted");
	EXPECT(a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_CPU_CLOCK,
	       "opened type %u config %llu", a->type, (unsigned long long)a->config);
	EXPECT(strstr(NOTE(s, 0), "asked 'cycles', got 'cpu-clock'"), "note \"%s\"", NOTE(s, 0));
	if (WORK(s, 0))
		EXPECT(TOTAL(s, 0).raw > 0, "cpu-clock in place of cycles counted nothing");
	perfev_session_free(s);
}

TEST(fallback_msr_drops_exclude_guest)
{
	struct perf_event_attr a = {.exclude_guest = 1};
	struct perfev_session *s;
	int type = msr_type();

	if (type < 0)
		SKIP("msr", "no msr PMU here");
	a.type = (uint32_t)type;
	if (!probe(&a))
		SKIP("msr", "the msr PMU accepts exclude_guest here: nothing to drop");
	s = SELF("msr/tsc/", NULL);
	if (!s)
		return;
	EXPECT(perfev_session_event_state(s, 0) == PERFEV_EVENT_OPEN, "msr/tsc/ not counted");
	EXPECT(!perfev_session_event_attr(s, 0)->exclude_guest, "exclude_guest still set");
	EXPECT(strstr(NOTE(s, 0), "exclude_guest"), "note \"%s\"", NOTE(s, 0));
	if (WORK(s, 0))
		EXPECT(TOTAL(s, 0).raw > 0, "msr/tsc/ counted nothing");
	perfev_session_free(s);
}

/* Unsupported 'instructions' alone, as a member and as a leader: the rest counts. */
TEST(unsupported_event_others_still_count)
{
	static const struct {
		const char *spec;
		size_t bad; /* 'instructions'; page-faults is always last */
	} cases[] = {
	    {"task-clock,instructions,page-faults", 1},
	    {"{task-clock,instructions,page-faults}", 1},
	    {"{instructions,task-clock,page-faults}", 0},
	};
	struct perfev_session *s;
	struct perfev_count c;
	size_t k, i;

	if (!hw_probe(PERF_COUNT_HW_INSTRUCTIONS))
		SKIP("no-hw-pmu", "this machine counts instructions");
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		if (!(s = SELF(cases[k].spec, NULL)))
			return;
		for (i = 0; i < 3 && (i || WORK(s, 64)); i++) {
			c = TOTAL(s, i);
			if (i == cases[k].bad)
				EXPECT(perfev_session_event_state(s, i) ==
					       PERFEV_EVENT_UNSUPPORTED &&
					   perfev_session_event_note(s, i) && !c.instances,
				       "%s: instructions: state %d, note %s, %u instances",
				       cases[k].spec, (int)perfev_session_event_state(s, i),
				       NOTE(s, i), c.instances);
			else
				EXPECT(perfev_session_event_state(s, i) == PERFEV_EVENT_OPEN &&
					   c.raw >= (i == 2 ? 64 : 1) && c.instances == 1,
				       "%s: %s: %" PRIu64 " over %u", cases[k].spec,
				       perfev_session_event_name(s, i), c.raw, c.instances);
		}
		if (cases[k].bad == 0)
			EXPECT(strstr(NOTE(s, 1), "outside its group"), "member note \"%s\"",
			       NOTE(s, 1));
		perfev_session_free(s);
	}
}

/* Weak group: the kernel refuses msr/tsc/u as a member; it is split off. */
TEST(weak_group_split_when_a_member_is_refused)
{
	struct perf_event_attr a = {.exclude_kernel = 1, .exclude_hv = 1};
	struct perfev_session *s;
	int type = msr_type();
	bool alone;

	if (type < 0)
		SKIP("msr", "no msr PMU here");
	/* Whether msr/tsc/u opens on its own here, after the split. */
	a.type = (uint32_t)type;
	alone = !probe(&a);
	s = SELF("{task-clock,msr/tsc/u}:W", NULL);
	if (!s)
		return;
	EXPECT(strstr(NOTE(s, 0), "split"), "leader note \"%s\"", NOTE(s, 0));
	EXPECT(!(perfev_session_event_attr(s, 0)->read_format & PERF_FORMAT_GROUP),
	       "the split leader still reads a group");
	EXPECT(perfev_session_event_state(s, 1) ==
		   (alone ? PERFEV_EVENT_OPEN : PERFEV_EVENT_UNSUPPORTED),
	       "msr/tsc/u alone %s, state %d", alone ? "opens" : "is refused",
	       (int)perfev_session_event_state(s, 1));
	if (WORK(s, 0)) {
		EXPECT(TOTAL(s, 0).raw > 0, "task-clock counted nothing after the split");
		EXPECT(!alone || TOTAL(s, 1).raw > 0, "msr/tsc/u counted nothing after the split");
	}
	perfev_session_free(s);
}

/*
 * Weak group whose member opens alone.  The kernel refuses a member only
 * inside a group when the group cannot be scheduled together (hardware
 * counters), or for a pinned/exclusive member or a different clock, which
 * the event language does not allow on a member.
 */
TEST(weak_group_member_opens_alone_after_split)
{
	struct perfev_session *s;
	size_t i;
	int hw = hw_probe(PERF_COUNT_HW_CPU_CYCLES);

	if (hw)
		SKIP("hw-pmu",
		     "no event here is refused only inside a group: that needs a hardware PMU "
		     "(cycles: %s); pinned, exclusive or clockid members are not expressible",
		     strerrorname_np(-hw));
	s = SELF("{" HW_EVENTS "}:W", NULL);
	if (!s)
		return;
	EXPECT(strstr(NOTE(s, 0), "split"), "leader note \"%s\"", NOTE(s, 0));
	for (i = 0; i < perfev_session_event_count(s); i++)
		EXPECT(perfev_session_event_state(s, i) == PERFEV_EVENT_OPEN ||
			   hw_probe(perfev_session_event_attr(s, i)->config) != 0,
		       "%s does not open after the split", perfev_session_event_name(s, i));
	perfev_session_free(s);
}

/* ---- enable, disable, reset ---------------------------------------------------- */

TEST(disable_stops_enable_resumes_reset_zeroes)
{
	struct perfev_session *s = SELF("page-faults,task-clock", NULL);
	struct perfev_count pf1, tc1, pf2, tc2;

	if (!s || !WORK(s, 64))
		goto out;
	CHECK_INT(perfev_session_disable(s), 0);
	CHECK_INT(perfev_session_read(s), 0);
	pf1 = TOTAL(s, 0);
	tc1 = TOTAL(s, 1);
	test_touch_fresh_pages(64);
	test_burn();
	CHECK_INT(perfev_session_read(s), 0);
	pf2 = TOTAL(s, 0);
	tc2 = TOTAL(s, 1);
	EXPECT(pf1.raw >= 64 && tc1.raw > 0, "before disable: %" PRIu64 " faults, %" PRIu64 " ns",
	       pf1.raw, tc1.raw);
	EXPECT(pf2.raw == pf1.raw && tc2.raw == tc1.raw,
	       "counted while disabled: faults %" PRIu64 " -> %" PRIu64 ", ns %" PRIu64
	       " -> %" PRIu64,
	       pf1.raw, pf2.raw, tc1.raw, tc2.raw);
	CHECK_INT(perfev_session_enable(s), 0);
	test_touch_fresh_pages(64);
	CHECK_INT(perfev_session_read(s), 0);
	EXPECT(TOTAL(s, 0).raw >= pf2.raw + 64, "not counting again after enable");
	CHECK_INT(perfev_session_disable(s), 0);
	CHECK_INT(perfev_session_reset(s), 0);
	CHECK_INT(perfev_session_read(s), 0);
	EXPECT(TOTAL(s, 0).raw == 0 && TOTAL(s, 1).raw == 0, "after reset: %" PRIu64 ", %" PRIu64,
	       TOTAL(s, 0).raw, TOTAL(s, 1).raw);
out:
	perfev_session_free(s);
}

TEST(enable_now_counts_from_open)
{
	struct perfev_session_opts o = {.sz = sizeof(o), .enable_now = true};
	struct perfev_session *s = SELF("page-faults", &o);

	if (!s)
		return;
	EXPECT(!perfev_session_event_attr(s, 0)->disabled, "enable_now leader opened disabled");
	test_touch_fresh_pages(64);
	CHECK_INT(perfev_session_read(s), 0);
	EXPECT(TOTAL(s, 0).raw >= 64, "enable_now: %" PRIu64 " faults before start",
	       TOTAL(s, 0).raw);
	EXPECT(perfev_session_start(s) == 0, "start after enable_now");
	perfev_session_free(s);
}

/* ---- errors ------------------------------------------------------------------- */

TEST(pid_that_does_not_exist_is_esrch)
{
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_PID};
	struct perfev_session_error e;
	char num[16];
	int ret;

	/* A child just reaped: its pid is free. */
	t.pid = fork();
	if (!t.pid)
		_exit(0);
	CHECK(t.pid > 0);
	waitpid(t.pid, NULL, 0);
	ret = try_open("task-clock", &t, &e);
	snprintf(num, sizeof(num), "%d", (int)t.pid);
	EXPECT(ret == -ESRCH && e.err == -ESRCH, "pid %d: %d", (int)t.pid, ret);
	EXPECT(strstr(e.message, "no such process") && strstr(e.message, num), "message \"%s\"",
	       e.message);
}

TEST(target_errors_are_einval)
{
	const pid_t tid = gettid();
	const struct {
		const char *what;
		struct perfev_target t;
	} cases[] = {
	    {"THREADS without tids", {.sz = sizeof(struct perfev_target), .kind = 2}},
	    {"THREADS with ntids 0", {.sz = sizeof(struct perfev_target), .kind = 2, .tids = &tid}},
	    {"COMMAND without argv", {.sz = sizeof(struct perfev_target), .kind = 3}},
	    {"PID -5", {.sz = sizeof(struct perfev_target), .kind = 1, .pid = -5}},
	    {"kind 99", {.sz = sizeof(struct perfev_target), .kind = 99}},
	};
	struct perfev_session_error e;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ret = try_open("task-clock", &cases[i].t, &e);
		EXPECT(ret == -EINVAL && e.err == -EINVAL && e.message[0],
		       "%s: %d, err %d, message \"%s\"", cases[i].what, ret, e.err, e.message);
	}
}

TEST(open_twice_and_calls_before_open_are_einval)
{
	struct perfev_session *s = SESSION("task-clock", NULL);

	if (!s)
		return;
	EXPECT(perfev_session_start(s) == -EINVAL, "start before open");
	EXPECT(perfev_session_read(s) == -EINVAL, "read before open");
	EXPECT(perfev_session_units(s, PERFEV_AGGR_GLOBAL, NULL, 0) == -EINVAL,
	       "units before open");
	if (OPEN(s, &self_target))
		EXPECT(perfev_session_open(s, &self_target, NULL) == -EINVAL, "second open");
	perfev_session_free(s);
}

TEST(count_errors_are_einval)
{
	struct perfev_session *s = SELF("task-clock,page-faults", NULL);
	struct perfev_event_info info = {.sz = sizeof(info)};
	struct perfev_count c;
	int level;

	if (!s)
		return;
	CHECK_INT(perfev_session_read(s), 0);
	/* CPU, CORE, DIE, SOCKET, NODE on a task target, which counts on any CPU. */
	for (level = PERFEV_AGGR_CPU; level <= PERFEV_AGGR_NODE; level++)
		EXPECT(perfev_session_count(s, 0, level, 0, &c) == -EINVAL &&
			   perfev_session_units(s, level, NULL, 0) == -EINVAL,
		       "level %d on a task target", level);
	EXPECT(perfev_session_count(s, 2, PERFEV_AGGR_GLOBAL, 0, &c) == -EINVAL, "event 2 of 2");
	EXPECT(perfev_session_count(s, SIZE_MAX, PERFEV_AGGR_GLOBAL, 0, &c) == -EINVAL,
	       "event SIZE_MAX");
	EXPECT(perfev_session_count(s, 0, PERFEV_AGGR_GLOBAL, 1, &c) == -EINVAL, "unit 1 of 1");
	EXPECT(perfev_session_count(s, 0, PERFEV_AGGR_GLOBAL, 0, NULL) == -EINVAL, "NULL out");
	EXPECT(perfev_session_count(s, 0, (enum perfev_aggr)99, 0, &c) == -EINVAL, "level 99");
	EXPECT(perfev_session_event_info(s, 2, &info) == -EINVAL, "info of event 2 of 2");
	EXPECT(!perfev_session_event_name(s, 2) && !perfev_session_event_attr(s, 2) &&
		   !perfev_session_event_note(s, 2),
	       "accessors of event 2 of 2");
	CHECK_INT(perfev_session_event_info(s, 1, &info), 0);
	EXPECT(info.name && !strcmp(info.name, "page-faults"), "event 1 is '%s'",
	       info.name ?: "(null)");
	perfev_session_free(s);
}

/* Call number @which of the session API with a NULL session: 0 when it refuses it. */
static int null_call(int which)
{
	struct perfev_count c;

	switch (which) {
	case 0:
		return perfev_session_open(NULL, &self_target, NULL) != -EINVAL;
	case 1:
		return perfev_session_start(NULL) != -EINVAL ||
		       perfev_session_read(NULL) != -EINVAL;
	case 2:
		return perfev_session_enable(NULL) != -EINVAL || perfev_session_child(NULL) != 0 ||
		       perfev_session_event_count(NULL) != 0;
	case 3:
		return perfev_session_units(NULL, PERFEV_AGGR_GLOBAL, NULL, 0) != -EINVAL;
	case 4:
		return perfev_session_count(NULL, 0, PERFEV_AGGR_GLOBAL, 0, &c) != -EINVAL;
	}
	perfev_session_free(NULL);
	return 0;
}

/* The NULL-session entry points, each in a child in case it crashes. */
TEST(null_session_is_einval)
{
	static const char *const names[] = {
	    "perfev_session_open",  "perfev_session_start/read", "perfev_session_enable/child",
	    "perfev_session_units", "perfev_session_count",	 "perfev_session_free",
	};
	int i, status;
	pid_t pid;

	for (i = 0; i < 6; i++) {
		pid = fork();
		CHECK(pid >= 0);
		if (!pid)
			_exit(null_call(i));
		CHECK_INT(waitpid(pid, &status, 0), pid);
		if (WIFSIGNALED(status))
			harness_fail(__FILE__, __LINE__, "%s(NULL, ...) crashed: %s", names[i],
				     strsignal(WTERMSIG(status)));
		else
			EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			       "%s(NULL, ...) did not return -EINVAL", names[i]);
	}
}

TEST(struct_sizes_are_checked)
{
	struct {
		struct perfev_session_opts o;
		uint64_t tail;
	} big = {.o.sz = sizeof(big), .tail = 1};
	struct {
		struct perfev_target t;
		uint64_t tail;
	} bigt = {.t.sz = sizeof(bigt), .t.kind = PERFEV_TARGET_SELF, .tail = 1};
	struct perfev_session_error e = {.sz = sizeof(e)};
	struct perfev_session *s = NULL;
	struct perfev_evspec *spec;

	CHECK_INT(perfev_evspec_parse("task-clock", NULL, &spec, NULL), 0);
	EXPECT(perfev_session_new(spec, &big.o, &s) == -EINVAL, "unknown non-zero opts tail");
	big.tail = 0;
	EXPECT(perfev_session_new(spec, &big.o, &s) == 0, "zero opts tail");
	perfev_evspec_free(spec);
	if (!s)
		return;
	EXPECT(perfev_session_open(s, &bigt.t, &e) == -EINVAL, "unknown non-zero target tail");
	e.sz = sizeof(e) - 1;
	EXPECT(perfev_session_open(s, &self_target, &e) == -EINVAL, "err->sz too small");
	e.sz = 0;
	EXPECT(perfev_session_open(s, &self_target, &e) == -EINVAL, "err->sz 0");
	perfev_session_free(s);
}

/* A target from an older caller ends before no_inherit: it must read as false. */
TEST(short_target_struct_reads_defaults)
{
	struct perfev_target t = {.sz = offsetof(struct perfev_target, no_inherit)};
	struct perfev_session *s = SESSION("task-clock", NULL);

	t.kind = PERFEV_TARGET_SELF;
	t.no_inherit = true; /* beyond sz: not the caller's */
	if (s && OPEN(s, &t))
		EXPECT(perfev_session_event_attr(s, 0)->inherit,
		       "a field beyond target->sz was read: no_inherit applied");
	perfev_session_free(s);
}

/* ---- multiplexing ------------------------------------------------------------- */

TEST(multiplexing_scales_counts)
{
	struct perfev_session *s;
	struct perfev_count c;
	bool mux = false;
	size_t i;
	int hw = hw_probe(PERF_COUNT_HW_CPU_CYCLES), k;

	if (hw)
		SKIP("hw-pmu",
		     "software events never compete for counters, so multiplexing needs a "
		     "hardware PMU (cycles: %s)",
		     strerrorname_np(-hw));
	s = SELF(HW_EVENTS, NULL);
	if (!s)
		return;
	CHECK_INT(perfev_session_start(s), 0);
	for (k = 0; k < 50; k++)
		test_burn();
	CHECK_INT(perfev_session_read(s), 0);
	for (i = 0; i < perfev_session_event_count(s); i++) {
		c = TOTAL(s, i);
		if (perfev_session_event_state(s, i) != PERFEV_EVENT_OPEN ||
		    c.running >= c.enabled || !c.running || !c.raw)
			continue;
		mux = true;
		EXPECT(c.scaled > c.raw, "%s: scaled %" PRIu64 " <= raw %" PRIu64,
		       perfev_session_event_name(s, i), c.scaled, c.raw);
	}
	EXPECT(mux, "12 hardware counters and none multiplexed");
	perfev_session_free(s);
}
