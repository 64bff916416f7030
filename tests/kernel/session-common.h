/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the counting-session kernel tests. */
#ifndef PERFEV_TEST_SESSION_COMMON_H
#define PERFEV_TEST_SESSION_COMMON_H

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

static __attribute__((unused)) bool root(void)
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
static __attribute__((unused)) int read_int(const char *path, int def)
{
	char text[64], *end;
	long v;

	if (test_read_text(path, text, sizeof(text)) <= 0)
		return def;
	v = strtol(text, &end, 10);
	return end == text ? def : (int)v;
}

static __attribute__((unused)) int write_text(const char *path, const char *text)
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
static __attribute__((unused)) int probe(struct perf_event_attr *a)
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
static __attribute__((unused)) int hw_probe(uint64_t config)
{
	struct perf_event_attr a = {.type = PERF_TYPE_HARDWARE, .config = config};

	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return probe(&a);
}

/* The attr.type of the msr PMU, or -1 when there is none. */
static __attribute__((unused)) int msr_type(void)
{
	return read_int("/sys/bus/event_source/devices/msr/type", -1);
}

/* ---- sessions ---------------------------------------------------------------- */

static __attribute__((unused)) struct perfev_pmus *pmus;

__attribute__((destructor)) static void free_pmus(void)
{
	perfev_pmus_free(pmus);
}

static const struct perfev_target self_target = {.sz = sizeof(self_target),
						 .kind = PERFEV_TARGET_SELF};

static __attribute__((unused)) struct perfev_session *
session_at(const char *events, const struct perfev_session_opts *o, int line)
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
static __attribute__((unused)) bool open_at(struct perfev_session *s, const struct perfev_target *t,
					    int line)
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
static __attribute__((unused)) struct perfev_session *
self_at(const char *events, const struct perfev_session_opts *o, int line)
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
static __attribute__((unused)) int try_open(const char *events, const struct perfev_target *t,
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
static __attribute__((unused)) bool start_work_read(struct perfev_session *s, size_t pages,
						    int line)
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

static __attribute__((unused)) struct perfev_count
count_at(const struct perfev_session *s, size_t ev, enum perfev_aggr aggr, size_t unit, int line)
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

static __attribute__((unused)) int busy_report_fd = -1;

static __attribute__((unused)) void *busy_thread(void *arg)
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
static __attribute__((unused)) bool busy_start(int n, struct busy *b)
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

static __attribute__((unused)) void busy_stop(struct busy *b)
{
	if (b->pid > 0) {
		kill(b->pid, SIGKILL);
		waitpid(b->pid, NULL, 0);
	}
	b->pid = 0;
}

static __attribute__((unused)) bool has_tid(const pid_t *tids, int n, pid_t tid)
{
	while (n-- > 0)
		if (tids[n] == tid)
			return true;
	return false;
}

/* ---- SELF ------------------------------------------------------------------- */

#endif /* PERFEV_TEST_SESSION_COMMON_H */
