// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev stat: count events for a command, processes, threads, CPUs or
 * a cgroup, with perf stat's flags and output.
 */
#include <dirent.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "options.h"
#include "output/attr-print.h"
#include "output/output.h"
#include "perfev-cli.h"
#include "stat.h"
#include "target.h"

static const char *const stat_usage[] = {
    "perfev stat [options] [--] <command> [<args>]",
    "perfev stat [options] -p PID | -t TID | -a | -C CPUS [-- <command>]",
    "perfev stat record [-o FILE] [options] ...   (counts into a perf.data file)",
    "perfev stat report [-i FILE]",
    NULL,
};

struct stat_opts {
	struct opt_list events, metrics;
	const char *pids, *tids, *cpu_list, *cgroup, *output, *sep;
	bool all_cpus, no_aggr, per_thread, per_core, per_die, per_socket, per_node;
	bool json, no_scale, table, no_inherit, group, all_user, all_kernel;
	int repeat, interval_ms, interval_count, delay_ms, detailed;
	/* perf's run and output options */
	const char *pre, *post;
	bool big_num, no_big_num, null_run, sync, quiet, verbose, interval_clear, no_merge;
	int timeout_ms;
};

static volatile sig_atomic_t stop_signal;
/* --timeout: the time ran out (SIGALRM), the command is ended with SIGTERM. */
static volatile sig_atomic_t timed_out;

static void on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
}

/*
 * SIGTERM and SIGHUP end perfev at once, as they end perf: the command is
 * sent the same signal and not waited for.  Ctrl-C (SIGINT) reaches the
 * command from the terminal, which decides when the measurement ends.
 */
static bool terminating(void)
{
	return stop_signal == SIGTERM || stop_signal == SIGHUP;
}

static void on_signal(int sig)
{
	/* A SIGINT after a SIGTERM does not turn it back into a wait. */
	if (!terminating())
		stop_signal = sig;
}

/* Nothing to do: SIGCHLD only has to interrupt sigsuspend(). */
static void on_child(int sig)
{
	(void)sig;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ---- the default event list --------------------------------------------- */

static bool have_hardware(void)
{
	/* Unknown (not permitted) counts as present: the fallbacks will tell. */
	return cli_can_count(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES) != 0;
}

static bool pmu_has(struct perfev_pmus *pmus, const char *pmu, const char *alias)
{
	const struct perfev_pmu *p = perfev_pmus_find(pmus, pmu);

	return p && perfev_pmu_alias_find(p, alias);
}

/*
 * perf stat's defaults; hardware events only where there is hardware to
 * count them.  A CPU target counts cpu-clock, as perf: task-clock counts
 * only while a task runs, which on a CPU says less than its wall clock.
 */
static void default_events(struct cli_env *env, bool cpu_target, char *buf, size_t len)
{
	snprintf(buf, len, "%s,context-switches,cpu-migrations,page-faults",
		 cpu_target ? "cpu-clock" : "task-clock");
	if (!have_hardware())
		return;
	strncat(buf, ",cycles", len - strlen(buf) - 1);
	if (pmu_has(env->pmus, "cpu", "stalled-cycles-frontend"))
		strncat(buf, ",stalled-cycles-frontend", len - strlen(buf) - 1);
	if (pmu_has(env->pmus, "cpu", "stalled-cycles-backend"))
		strncat(buf, ",stalled-cycles-backend", len - strlen(buf) - 1);
	strncat(buf, ",instructions,branches,branch-misses", len - strlen(buf) - 1);
}

/* -d, -dd, -ddd: perf's detailed sets, each level adding to the one before. */
static const char *const detailed_sets[] = {
    "L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses",
    "L1-icache-loads,L1-icache-load-misses,dTLB-loads,dTLB-load-misses,iTLB-loads,"
    "iTLB-load-misses",
    "L1-dcache-prefetches,L1-dcache-prefetch-misses",
};

/*
 * perf stat's attr choices on top of the session's counting setup:
 * sample_type IDENTIFIER as perf's; --all-user and --all-kernel set the
 * one level asked for, whatever the modifiers said; a CPU target inherits
 * (nothing to inherit on a CPU, but the attr is then perf's).
 */
static int configure(struct perf_event_attr *a, size_t ev, void *ctx)
{
	const struct stat_opts *o = ctx;

	(void)ev;
	/* Nothing is sampled; perf stat asks for it all the same. */
	a->sample_type = PERF_SAMPLE_IDENTIFIER;
	if ((o->all_cpus || o->cpu_list || o->cgroup) && !o->no_inherit && !o->per_thread)
		a->inherit = 1;
	cli_attr_levels(a, o->all_user, o->all_kernel);
	return 0;
}

/* @ev is one of the -e strings. */
static bool asked(const struct stat_opts *o, const char *ev)
{
	int i;

	for (i = 0; i < o->events.n; i++)
		if (!strcmp(o->events.items[i], ev))
			return true;
	return false;
}

/*
 * -M: the events the metrics need, each ratio's two as a weak group
 * (perf's default: the kernel schedules them together when it can), each
 * event list once, none that -e counts already.  Without a hardware PMU the hardware events of a
 * metric are not counted at all (cycles would fall back to cpu-clock and make a ratio of nonsense):
 * the metric says <not supported>.
 */
static void add_metric_events(struct perfev_evspec *spec, const struct stat_opts *o,
			      struct stat_data *d, const struct perfev_parse_opts *pa)
{
	const char *clock = o->all_cpus || o->cpu_list || o->cgroup ? "cpu-clock" : "task-clock";
	const char **added = NULL;
	size_t nadded = 0, cap = 0, k;
	bool have_clock = false;

	d->no_pmu = !have_hardware();
	for (k = 0; k < d->nmetrics; k++) {
		const struct stat_metric_def *md = d->metrics[k];
		struct perfev_parse_error pe = {.sz = sizeof(pe)};
		size_t j;

		have_clock |= md->kind != STAT_METRIC_RATIO && !(md->hardware && d->no_pmu);
		for (j = 0; j < nadded && strcmp(added[j], md->events); j++)
			;
		if (j < nadded || !md->events[0] || (md->hardware && d->no_pmu) ||
		    asked(o, md->events))
			continue;
		cli_grow(&added, &cap, nadded + 1, sizeof(*added));
		added[nadded++] = md->events;
		if (perfev_evspec_add(spec, md->events, pa, &pe))
			cli_die("cannot set up the events of metric '%s': %s", md->name,
				pe.message);
	}
	free(added);
	if (have_clock && !asked(o, clock)) {
		struct perfev_parse_error pe = {.sz = sizeof(pe)};

		if (perfev_evspec_add(spec, clock, pa, &pe))
			cli_die("cannot set up %s for the metrics: %s", clock, pe.message);
	}
}

/* -p, -t or a command, and -a --per-thread's threads: not counted per CPU. */
static bool task_target(const struct cli_target *ct)
{
	return ct->t.kind != PERFEV_TARGET_CPUS && ct->t.kind != PERFEV_TARGET_CGROUP;
}

/* ---- one measurement ------------------------------------------------------- */

struct run_ctx {
	const struct stat_opts *o;
	struct perfev_evspec *spec;
	struct cli_target ct;
	struct stat_data *d;
	struct cli_env *env;
	bool default_set;
	struct stat_rec *rec; /* stat record's file, or NULL */
};

static void ensure_run(struct stat_data *d)
{
	size_t cells = d->nev * d->nunits, cap = d->cap_runs;
	size_t vcap = cap * cells, ucap = cap, scap = cap;

	if (d->nruns < d->cap_runs)
		return;
	/* elapsed_ns sets the capacity in runs; the other per-run arrays follow it. */
	cli_grow(&d->elapsed_ns, &cap, d->nruns + 1, sizeof(*d->elapsed_ns));
	if (cells && cap > SIZE_MAX / cells)
		cli_die("out of memory");
	cli_grow(&d->v, &vcap, cap * cells, sizeof(*d->v));
	cli_grow(&d->user_ns, &ucap, cap, sizeof(*d->user_ns));
	cli_grow(&d->sys_ns, &scap, cap, sizeof(*d->sys_ns));
	d->cap_runs = cap;
}

/* Describe events and units once, from the first session. */
static void describe(struct stat_data *d, struct perfev_session *s)
{
	size_t i;
	int n;

	d->nev = perfev_session_event_count(s);
	d->ev = calloc(d->nev ? d->nev : 1, sizeof(*d->ev));
	if (!d->ev)
		cli_die("out of memory");
	for (i = 0; i < d->nev; i++) {
		struct perfev_event_info info = {.sz = sizeof(info)};
		const struct perf_event_attr *a = perfev_session_event_attr(s, i);
		const char *note = perfev_session_event_note(s, i);

		perfev_session_event_info(s, i, &info);
		/* A fallback changed the event itself (cycles -> cpu-clock): show what was counted.
		 */
		if (info.attr->type == PERF_TYPE_HARDWARE && a->type == PERF_TYPE_SOFTWARE &&
		    a->config == PERF_COUNT_SW_CPU_CLOCK)
			d->ev[i].name = strdup("cpu-clock");
		else
			d->ev[i].name = strdup(info.name);
		d->ev[i].type = a->type;
		d->ev[i].config = a->config;
		d->ev[i].leader = info.leader;
		d->ev[i].supported = perfev_session_event_state(s, i) == PERFEV_EVENT_OPEN;
		d->ev[i].tool = info.tool;
		d->ev[i].scale = info.scale;
		d->ev[i].unit = info.unit ? strdup(info.unit) : NULL;
		d->ev[i].note = note ? strdup(note) : NULL;
		d->ev[i].implied = i >= d->nasked || d->implied_defaults;
	}
	n = perfev_session_units(s, d->aggr, NULL, 0);
	if (n < 0)
		cli_die("cannot aggregate counts that way: %s", perfev_strerror(n));
	d->nunits = (size_t)n;
	d->units = calloc(d->nunits ? d->nunits : 1, sizeof(*d->units));
	if (!d->units)
		cli_die("out of memory");
	perfev_session_units(s, d->aggr, d->units, d->nunits);
}

/* Copy the session's current counts (minus @prev when given) into run @run. */
static void collect(struct stat_data *d, struct perfev_session *s, size_t run, double elapsed,
		    double user, double sys, struct perfev_count *prev)
{
	size_t ev, u;

	for (ev = 0; ev < d->nev; ev++)
		for (u = 0; u < d->nunits; u++) {
			struct stat_value *v = stat_at(d, run, ev, u);
			struct perfev_count c = {0};

			memset(v, 0, sizeof(*v));
			if (d->ev[ev].tool) {
				double x = d->ev[ev].tool == PERFEV_TOOL_DURATION_TIME ? elapsed
					   : d->ev[ev].tool == PERFEV_TOOL_USER_TIME   ? user
										       : sys;

				v->valid = !isnan(x);
				v->raw = v->scaled = isnan(x) ? 0 : (uint64_t)x;
				continue;
			}
			if (!d->ev[ev].supported || perfev_session_count(s, ev, d->aggr, u, &c))
				continue;
			v->valid = c.instances > 0;
			if (prev) {
				struct perfev_count *p = &prev[ev * d->nunits + u];
				struct perfev_count cur = c;

				c.raw -= p->raw;
				c.enabled -= p->enabled;
				c.running -= p->running;
				c.scaled = perfev_scale(c.raw, c.enabled, c.running);
				*p = cur;
			}
			v->raw = c.raw;
			v->enabled = c.enabled;
			v->running = c.running;
			v->scaled = c.scaled;
		}
}

static void fail_open(const struct perfev_session_error *e, const struct run_ctx *rc)
{
	const char *ev =
	    e->event >= 0
		? rc->d->ev && (size_t)e->event < rc->d->nev ? rc->d->ev[e->event].name : NULL
		: NULL;
	struct perfev_event_info info = {.sz = sizeof(info)};

	if (!ev && e->event >= 0 && !perfev_evspec_info(rc->spec, (size_t)e->event, &info))
		ev = info.name;
	if (ev && e->pid > 0)
		cli_die("cannot count '%s' on pid %d: %s", ev, (int)e->pid, e->message);
	if (ev && e->cpu >= 0)
		cli_die("cannot count '%s' on cpu %d: %s", ev, e->cpu, e->message);
	if (ev)
		cli_die("cannot count '%s': %s", ev, e->message);
	cli_die("cannot start counting: %s", e->message);
}

static pid_t spawn(char *const *argv)
{
	pid_t pid = fork();

	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "%s: cannot run '%s': %s\n", cli_prog, argv[0],
			cli_exec_error(errno));
		_exit(127);
	}
	return pid;
}

static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) && errno == EINTR && !stop_signal)
		;
}

/*
 * The signals that end a wait, blocked from the check of stop_signal to
 * the sleep that lets them in (sigsuspend(), ppoll()), so that none
 * arriving in between is missed.
 */
static void block_stop_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGALRM);
	sigprocmask(SIG_BLOCK, &set, old);
}

/*
 * Wait for @pid through Ctrl-C (the command gets it too and decides); on
 * SIGTERM or SIGHUP pass the signal on and stop waiting.  Returns the wait
 * status, or -1 when the command was left running (or cannot be waited for).
 */
static int wait_child(pid_t pid, struct rusage *ru)
{
	sigset_t old;
	int status = -1;
	pid_t r;

	block_stop_signals(&old);
	for (;;) {
		r = wait4(pid, &status, WNOHANG, ru);
		if (r == pid || (r < 0 && errno != EINTR)) {
			status = r == pid ? status : -1;
			break;
		}
		if (terminating()) {
			kill(pid, stop_signal);
			status = -1;
			break;
		}
		if (timed_out == 1) {
			/* As perf: the command is ended and its counts printed; perfev exits 0. */
			kill(pid, SIGTERM);
			timed_out = 2;
		}
		sigsuspend(&old);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return status;
}

/* Until the process exits or a signal arrives (for -p without a command). */
static void wait_process_or_signal(pid_t pid)
{
	int fd = pid > 0 ? cli_pidfd(pid) : -1;
	struct timespec tick = {0, 100 * 1000000L};
	sigset_t old;

	block_stop_signals(&old);
	while (!stop_signal && !timed_out) {
		struct pollfd p = {fd, POLLIN, 0};

		if (fd >= 0) {
			if (ppoll(&p, 1, NULL, &old) > 0)
				break;
		} else if (pid > 0 && kill(pid, 0) && errno == ESRCH) {
			break;
		} else {
			ppoll(NULL, 0, pid > 0 ? &tick : NULL, &old);
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd >= 0)
		close(fd);
}

/* -v: each event as opened, as perf -vv shows it, and why one was not. */
static void show_attrs(struct perfev_session *s)
{
	size_t i, n = perfev_session_event_count(s);

	for (i = 0; i < n; i++) {
		const char *name = perfev_session_event_name(s, i);

		if (perfev_session_event_state(s, i) != PERFEV_EVENT_OPEN) {
			fprintf(stderr, "event '%s': not counted: %s\n", name,
				perfev_session_event_note(s, i));
			continue;
		}
		fprintf(stderr, "event '%s':\n", name);
		attr_print_fields(stderr, perfev_session_event_attr(s, i), "  ", false);
	}
}

static struct perfev_session *open_session(struct run_ctx *rc)
{
	struct perfev_session_opts so = {.sz = sizeof(so)};
	struct perfev_session_error se = {.sz = sizeof(se)};
	struct perfev_session *s;
	int err;

	so.sysfs_root = rc->env->sysfs_root;
	so.procfs_root = rc->env->procfs_root;
	so.manual_enable = rc->o->delay_ms > 0;
	so.configure = configure;
	so.configure_ctx = (void *)rc->o;
	err = perfev_session_new(rc->spec, &so, &s);
	if (err)
		cli_die("cannot set up counting: %s", perfev_strerror(err));
	err = perfev_session_open(s, &rc->ct.t, &se);
	if (err) {
		perfev_session_free(s);
		fail_open(&se, rc);
	}
	if (rc->o->verbose)
		show_attrs(s);
	return s;
}

/*
 * The session would not start: a command that could not be run, or, for
 * -a, -C, -G, -p and -t, counters the kernel would not enable (a security
 * module can refuse it); a command given with those has not run yet.
 */
static void fail_start(const struct run_ctx *rc, struct perfev_session *s, int err)
{
	perfev_session_free(s);
	if (rc->ct.t.kind == PERFEV_TARGET_COMMAND)
		cli_die("cannot run '%s': %s", rc->ct.t.argv[0], cli_exec_error(err));
	cli_die("cannot start counting on %s: the kernel would not enable the counters: %s%s",
		rc->d->target_desc, perfev_strerror(err),
		err == -EACCES || err == -EPERM
		    ? " (a security module such as SELinux refuses PERF_EVENT_IOC_ENABLE here)"
		    : "");
}

/* Nothing counted at all: say why and stop before running anything. */
static void check_countable(struct perfev_session *s)
{
	size_t i, n = perfev_session_event_count(s);
	struct perfev_event_info info = {.sz = sizeof(info)};

	for (i = 0; i < n; i++) {
		perfev_session_event_info(s, i, &info);
		if (info.tool || perfev_session_event_state(s, i) == PERFEV_EVENT_OPEN)
			return;
	}
	for (i = 0; i < n; i++)
		cli_error("cannot count '%s' here: %s", perfev_session_event_name(s, i),
			  perfev_session_event_note(s, i));
	perfev_session_free(s);
	exit(1);
}

static double tv_ns(struct timeval tv)
{
	return (double)tv.tv_sec * 1e9 + (double)tv.tv_usec * 1e3;
}

/* -n: the command's time alone, no counter opened. */
static int measure_null(struct run_ctx *rc, size_t run)
{
	struct stat_data *d = rc->d;
	struct rusage ru = {0};
	double t0 = now_ns(), t1;
	pid_t work = spawn(rc->ct.t.argv);
	int status = work > 0 ? wait_child(work, &ru) : -1;

	if (work < 0)
		cli_die("cannot run '%s': %s", rc->ct.t.argv[0], perfev_strerror(-errno));
	t1 = now_ns();
	ensure_run(d);
	d->elapsed_ns[run] = t1 - t0;
	d->user_ns[run] = status >= 0 ? tv_ns(ru.ru_utime) : NAN;
	d->sys_ns[run] = status >= 0 ? tv_ns(ru.ru_stime) : NAN;
	d->nruns = run + 1;
	return status;
}

/* --pre and --post: a shell command around each run, not counted; a failure stops perfev. */
static bool run_hook(const char *cmd, const char *opt)
{
	int st;

	if (!cmd)
		return true;
	fflush(NULL);
	st = system(cmd);
	if (st == -1) {
		cli_error("cannot run the %s command '%s': %s", opt, cmd, perfev_strerror(-errno));
		return false;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		cli_error("the %s command '%s' failed (%s %d): no more runs", opt, cmd,
			  WIFEXITED(st) ? "exit status" : "signal",
			  WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
		return false;
	}
	return true;
}

/* One complete measurement; returns the command's wait status (or 0). */
static int measure(struct run_ctx *rc, size_t run)
{
	struct stat_data *d = rc->d;
	const struct stat_opts *o = rc->o;
	struct perfev_session *s = open_session(rc);
	struct rusage ru = {0};
	double t0, t1;
	int status = 0, err;
	pid_t child = perfev_session_child(s), work = 0;
	bool ru_known;

	check_countable(s);
	if (!d->ev) {
		describe(d, s);
		if (rc->rec)
			stat_record_events(rc->rec, s, d, 0);
	}
	t0 = now_ns();
	err = perfev_session_start(s);
	if (err)
		fail_start(rc, s, err);
	if (rc->ct.workload)
		work = spawn(rc->ct.workload);
	if (o->delay_ms > 0) {
		sleep_ms(o->delay_ms);
		perfev_session_enable(s);
		/* The measurement, and what metrics divide by, starts now. */
		t0 = now_ns();
	}
	if (child)
		status = wait_child(child, &ru);
	else if (work)
		status = wait_child(work, &ru);
	else
		wait_process_or_signal(rc->ct.t.kind == PERFEV_TARGET_PID ? rc->ct.t.pid : 0);
	t1 = now_ns();
	err = perfev_session_read(s);
	if (err)
		cli_error("cannot read the counters: %s", perfev_strerror(err));
	if (rc->rec) {
		stat_record_counts(rc->rec, s);
		stat_record_round(rc->rec, true, (uint64_t)(t1 - t0));
	}
	ensure_run(d);
	d->elapsed_ns[run] = t1 - t0;
	/*
	 * Not known for a command left running (SIGTERM, SIGHUP); not shown
	 * for a CPU target, as perf: the times are the command's, the counts
	 * everyone's.
	 */
	ru_known = (child || work) && status >= 0 && task_target(&rc->ct);
	d->user_ns[run] = ru_known ? tv_ns(ru.ru_utime) : NAN;
	d->sys_ns[run] = ru_known ? tv_ns(ru.ru_stime) : NAN;
	collect(d, s, run, t1 - t0, d->user_ns[run], d->sys_ns[run], NULL);
	d->nruns = run + 1;
	perfev_session_free(s);
	return status;
}

/* -I: print the counts of every interval until the end. */
static int measure_intervals(struct run_ctx *rc)
{
	struct stat_data *d = rc->d;
	const struct stat_opts *o = rc->o;
	struct perfev_session *s = open_session(rc);
	struct perfev_count *prev;
	pid_t child = perfev_session_child(s), work = 0, waited;
	int status = 0, n = 0, pfd = -1, err;
	double t0, last, next;
	struct rusage ru = {0};
	bool done = false;

	check_countable(s);
	describe(d, s);
	if (rc->rec)
		stat_record_events(rc->rec, s, d, o->interval_ms);
	prev = calloc(d->nev * d->nunits + 1, sizeof(*prev));
	if (!prev)
		cli_die("out of memory");
	d->nruns = 1;
	ensure_run(d);
	t0 = last = now_ns();
	err = perfev_session_start(s);
	if (err)
		fail_start(rc, s, err);
	/* Only once the command runs, so a failure leaves no half document. */
	if (!o->quiet)
		stat_print_interval_begin(d);
	if (rc->ct.workload)
		work = spawn(rc->ct.workload);
	waited = child				      ? child
		 : work				      ? work
		 : rc->ct.t.kind == PERFEV_TARGET_PID ? rc->ct.t.pid
						      : 0;
	if (waited > 0)
		pfd = cli_pidfd(waited);
	if (o->delay_ms > 0) {
		sleep_ms(o->delay_ms);
		perfev_session_enable(s);
	}
	next = t0 + o->interval_ms * 1e6;
	while (!done) {
		double now = now_ns();
		int timeout = next > now ? (int)((next - now) / 1e6) + 1 : 0;
		struct pollfd p = {pfd, POLLIN, 0};

		if (pfd >= 0 ? poll(&p, 1, timeout) > 0 : (poll(NULL, 0, timeout), false))
			done = true;
		if (stop_signal)
			done = true;
		now = now_ns();
		if (!done && now < next)
			continue;
		perfev_session_read(s);
		if (rc->rec) {
			stat_record_counts(rc->rec, s);
			stat_record_round(rc->rec, false, (uint64_t)(now - t0));
		}
		d->elapsed_ns[0] = now - last;
		d->user_ns[0] = d->sys_ns[0] = NAN;
		collect(d, s, 0, now - last, NAN, NAN, prev);
		if (o->interval_clear && d->format == STAT_TEXT)
			fputs("\033[H\033[2J", d->out);
		if (!o->quiet)
			stat_print_interval(d, (now - t0) / 1e9, n == 0);
		last = now;
		next += o->interval_ms * 1e6;
		if (o->interval_count && ++n >= o->interval_count)
			done = true;
	}
	if (pfd >= 0)
		close(pfd);
	if ((child || work) && (waited = child ? child : work)) {
		if (o->interval_count && !stop_signal) {
			/* The count ran out first: the command is still running; let it finish. */
		}
		status = wait_child(waited, &ru);
	}
	d->exit_status =
	    (child || work) && status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	d->term_signal =
	    (child || work) && status >= 0 && WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	if (!o->quiet)
		stat_print_interval_end(d);
	free(prev);
	perfev_session_free(s);
	return status;
}

/* ---- the command ----------------------------------------------------------- */

/* --timeout: SIGALRM once the time is out (ends the wait for the command or the targets). */
static void start_timeout(const struct stat_opts *o)
{
	struct itimerval it = {0};

	if (!o->timeout_ms)
		return;
	timed_out = 0;
	it.it_value.tv_sec = o->timeout_ms / 1000;
	it.it_value.tv_usec = (o->timeout_ms % 1000) * 1000;
	setitimer(ITIMER_REAL, &it, NULL);
}

/* The run ended before the time: no SIGALRM later, in the middle of the report's writes. */
static void stop_timeout(const struct stat_opts *o)
{
	struct itimerval off = {0};

	if (o->timeout_ms)
		setitimer(ITIMER_REAL, &off, NULL);
}

static void free_data(struct stat_data *d)
{
	size_t i;

	for (i = 0; i < d->nev; i++) {
		free(d->ev[i].name);
		free(d->ev[i].unit);
		free(d->ev[i].note);
	}
	free(d->ev);
	free(d->units);
	free(d->v);
	free(d->elapsed_ns);
	free(d->user_ns);
	free(d->sys_ns);
}

static char *describe_target(const struct stat_opts *o, char *const *argv)
{
	char *s = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		cli_die("out of memory");
	if (o->pids)
		fprintf(f, "process id '%s'", o->pids);
	else if (o->tids)
		fprintf(f, "thread id '%s'", o->tids);
	else if (o->cgroup)
		fprintf(f, "cgroup '%s'", o->cgroup);
	else if (o->cpu_list)
		fprintf(f, "CPU(s) %s", o->cpu_list);
	else if (o->all_cpus)
		fprintf(f, "'system wide'");
	else {
		fputc('\'', f);
		for (i = 0; argv && argv[i]; i++)
			fprintf(f, "%s%s", i ? " " : "", argv[i]);
		fputc('\'', f);
	}
	fclose(f);
	return s;
}

int cmd_stat(int argc, const char **argv)
{
	struct stat_opts o = {.repeat = 1, .delay_ms = 0};
	const struct option opts[] = {
	    OPT_MULTI('e', "event", &o.events, "EVENT", "event(s) to count (repeatable)"),
	    OPT_STR('p', "pid", &o.pids, "PID[,PID]", "count existing process(es), all threads"),
	    OPT_STR('t', "tid", &o.tids, "TID[,TID]", "count existing thread(s)"),
	    OPT_FLAG('a', "all-cpus", &o.all_cpus, "count everything on every CPU"),
	    OPT_STR('C', "cpu", &o.cpu_list, "CPUS", "count everything on these CPUs (0-3,8)"),
	    OPT_STR('G', "cgroup", &o.cgroup, "CGROUP", "count only tasks of this cgroup"),
	    OPT_FLAG('i', "no-inherit", &o.no_inherit, "do not count child tasks"),
	    OPT_HEADING("events"),
	    OPT_COUNTED('d', "detailed", &o.detailed,
			"add cache events: -d L1d and LLC, -dd L1i and TLBs, -ddd prefetches"),
	    OPT_MULTI('M', "metrics", &o.metrics, "METRICS",
		      "derived metrics and their events (perfev list metric)"),
	    OPT_FLAG(0, "group", &o.group, "count the -e events as one group"),
	    OPT_FLAG(0, "all-user", &o.all_user, "count user space only, whatever the modifiers"),
	    OPT_FLAG(0, "all-kernel", &o.all_kernel,
		     "count the kernel only, whatever the modifiers"),
	    OPT_HEADING("aggregation"),
	    OPT_FLAG('A', "no-aggr", &o.no_aggr, "one line per CPU (or per thread)"),
	    OPT_FLAG(0, "per-thread", &o.per_thread, "one line per thread"),
	    OPT_FLAG(0, "per-core", &o.per_core, "one line per physical core"),
	    OPT_FLAG(0, "per-die", &o.per_die, "one line per die"),
	    OPT_FLAG(0, "per-socket", &o.per_socket, "one line per socket"),
	    OPT_FLAG(0, "per-node", &o.per_node, "one line per NUMA node"),
	    OPT_HEADING("runs"),
	    OPT_NUM('r', "repeat", &o.repeat, "N", "run the command N times: mean, spread, 95% CI"),
	    OPT_FLAG(0, "table", &o.table, "with -r: the elapsed time of every run"),
	    OPT_NUM('I', "interval-print", &o.interval_ms, "MS", "print counts every MS ms"),
	    OPT_NUM(0, "interval-count", &o.interval_count, "N", "with -I: stop after N intervals"),
	    OPT_NUM('D', "delay", &o.delay_ms, "MS", "start counting MS ms after the command"),
	    OPT_HEADING("output"),
	    OPT_STR('x', "field-separator", &o.sep, "SEP", "CSV output (RFC 4180) with SEP"),
	    OPT_FLAG('j', "json", &o.json, "one JSON document"),
	    OPT_STR('o', "output", &o.output, "FILE",
		    "write to FILE instead of stderr (stat record: the perf.data file)"),
	    OPT_FLAG(0, "no-scale", &o.no_scale, "raw counts, not scaled for multiplexing"),
	    OPT_FLAG(0, "no-merge", &o.no_merge,
		     "accepted for perf's command lines: perfev shows each PMU's event apart"),
	    OPT_FLAG('B', "big-num", &o.big_num,
		     "counts with the locale's thousands separators (the default for text)"),
	    OPT_FLAG(0, "no-big-num", &o.no_big_num, "counts without thousands separators"),
	    OPT_FLAG(0, "interval-clear", &o.interval_clear, "with -I: clear the screen first"),
	    OPT_FLAG(0, "quiet", &o.quiet, "print no counts (for stat record)"),
	    OPT_FLAG('v', "verbose", &o.verbose, "show the perf_event_attr of each event opened"),
	    OPT_HEADING("the command"),
	    OPT_FLAG('n', "null", &o.null_run, "time the command, open no counter"),
	    OPT_FLAG('S', "sync", &o.sync, "call sync() before each run"),
	    OPT_STR(0, "pre", &o.pre, "CMD", "run CMD (a shell command) before each run"),
	    OPT_STR(0, "post", &o.post, "CMD", "run CMD after each run"),
	    OPT_NUM(0, "timeout", &o.timeout_ms, "MS",
		    "end the command (SIGTERM) and print the counts after MS ms"),
	    OPT_TERMINATOR,
	};
	struct perfev_parse_opts pa = {.sz = sizeof(pa)};
	struct stat_data d = {.exit_status = -1};
	struct run_ctx rc = {.o = &o, .d = &d};
	struct sigaction sa;
	struct cli_env env;
	char defaults[256], *desc;
	char **cmd;
	int nargs, i, status = 0;
	bool recording = false, hook_failed = false;
	const char **rec_argv = NULL;
	int rec_argc = 0;
	struct cli_target_args ta = {0};
	struct cli_output out;

	if (argc > 1 && !strcmp(argv[1], "report"))
		return stat_report(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "record")) {
		/* As perf stat record: the counts also go into a perf.data file, named by -o. */
		recording = true;
		argc--;
		argv++;
		/* The command line for the file, before parsing reuses argv. */
		rec_argv = malloc(((size_t)argc + 1) * sizeof(*rec_argv));
		if (!rec_argv)
			cli_die("out of memory");
		memcpy(rec_argv, argv, ((size_t)argc + 1) * sizeof(*rec_argv));
		rec_argc = argc;
	}
	nargs = parse_options(argc, argv, opts, stat_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	cmd = nargs ? (char **)argv : NULL;
	ta.pids = o.pids;
	ta.tids = o.tids;
	ta.cpu_list = o.cpu_list;
	ta.cgroup = o.cgroup;
	ta.all_cpus = o.all_cpus;
	ta.all_threads = o.per_thread;
	ta.no_inherit = o.no_inherit;
	ta.cmd = cmd;
	if (o.repeat < 1)
		usage_error(stat_usage, opts, "-r expects a positive number of runs, not %d",
			    o.repeat);
	if (o.repeat > 1 && !cmd)
		usage_error(stat_usage, opts, "-r needs a command to repeat");
	if (o.interval_ms < 0 || (o.interval_ms && o.interval_ms < 10))
		usage_error(stat_usage, opts, "-I expects at least 10 ms, not %d", o.interval_ms);
	if (o.interval_ms && o.repeat > 1)
		usage_error(stat_usage, opts, "-I and -r cannot be used together");
	if (o.interval_count && !o.interval_ms)
		usage_error(stat_usage, opts, "--interval-count needs -I");
	if (o.interval_count < 0 || o.delay_ms < 0)
		usage_error(stat_usage, opts, "--interval-count and -D expect positive numbers");
	if (o.sep && o.json)
		usage_error(stat_usage, opts, "choose -x or -j, not both");
	if (o.sep && (!*o.sep || strpbrk(o.sep, "\"\r\n")))
		usage_error(stat_usage, opts,
			    "invalid separator for -x: use a character such as ','");
	if (o.table && o.repeat < 2)
		usage_error(stat_usage, opts, "--table needs -r with at least 2 runs");
	if (recording && o.repeat > 1)
		usage_error(stat_usage, opts, "stat record keeps one run: -r is not for it");
	if (o.all_user && o.all_kernel)
		usage_error(stat_usage, opts, "choose --all-user or --all-kernel, not both");
	if (o.group && !o.events.n)
		usage_error(stat_usage, opts, "--group needs events to group: give them with -e");
	if (o.detailed > 3)
		usage_error(stat_usage, opts, "-d goes up to -ddd, not %d levels", o.detailed);
	if (o.big_num && o.no_big_num)
		usage_error(stat_usage, opts, "choose -B or --no-big-num, not both");
	if (o.null_run &&
	    (!cmd || o.interval_ms || o.events.n || o.metrics.n || o.detailed || recording))
		usage_error(stat_usage, opts,
			    "-n times a command without counters: give a command, and no -e, -M, "
			    "-d, -I or stat record");
	if (o.timeout_ms < 0 || (o.timeout_ms && o.timeout_ms < 10))
		usage_error(stat_usage, opts, "--timeout expects at least 10 ms, not %d",
			    o.timeout_ms);
	if (o.timeout_ms && o.interval_ms)
		usage_error(stat_usage, opts, "--timeout and -I cannot be used together (as perf)");
	if (o.interval_clear && !o.interval_ms)
		usage_error(stat_usage, opts, "--interval-clear needs -I");
	if (o.table && (o.sep || o.json))
		usage_error(stat_usage, opts,
			    "--table is for the text report; -x and -j give every run already");

	/* What and where. */
	cli_target_setup(&rc.ct, &ta, stat_usage, opts);
	d.argv = cmd;

	{
		bool task = task_target(&rc.ct);
		int levels =
		    o.no_aggr + o.per_thread + o.per_core + o.per_die + o.per_socket + o.per_node;

		if (levels > 1)
			usage_error(stat_usage, opts, "give only one way to aggregate");
		if (task && (o.per_core || o.per_die || o.per_socket || o.per_node))
			usage_error(stat_usage, opts,
				    "--per-core/--per-die/--per-socket/--per-node need -a or -C");
		/* perf's rule: a task target, or every thread of the system with -a. */
		if (o.per_thread && ((!o.pids && !o.tids && !o.all_cpus) || o.cpu_list || o.cgroup))
			usage_error(stat_usage, opts,
				    "--per-thread counts threads: give -p, -t or -a (every thread "
				    "of the system), not a command alone, -C or -G");
		d.aggr = o.per_thread || (o.no_aggr && task) ? PERFEV_AGGR_THREAD
			 : o.no_aggr			     ? PERFEV_AGGR_CPU
			 : o.per_core			     ? PERFEV_AGGR_CORE
			 : o.per_die			     ? PERFEV_AGGR_DIE
			 : o.per_socket			     ? PERFEV_AGGR_SOCKET
			 : o.per_node			     ? PERFEV_AGGR_NODE
							     : PERFEV_AGGR_GLOBAL;
	}

	cli_env_init(&env);
	cli_env_open(&env, true);
	rc.env = &env;
	pa.pmus = env.pmus;
	pa.tracefs = env.tracefs_handle;
	pa.tracefs_error = env.tracefs_error;
	if (perfev_evspec_new(&rc.spec))
		cli_die("out of memory");
	for (i = 0; i < o.metrics.n; i++) {
		const char *bad = stat_metrics_parse(&d, o.metrics.items[i]);

		if (bad)
			usage_error(stat_usage, opts,
				    "cannot find metric '%s': 'perfev list metric' lists those "
				    "perfev derives",
				    bad);
	}
	if (!o.events.n && !d.nmetrics && !o.null_run) {
		struct perfev_parse_error pe = {.sz = sizeof(pe)};

		default_events(&env, o.all_cpus || o.cpu_list || o.cgroup, defaults,
			       sizeof(defaults));
		rc.default_set = true;
		d.implied_defaults = true;
		if (perfev_evspec_add(rc.spec, defaults, &pa, &pe))
			cli_die("cannot set up the default events: %s", pe.message);
	}
	if (o.group) {
		struct perfev_parse_error pe = {.sz = sizeof(pe)};
		char *all = cli_events_grouped(&o.events);

		if (perfev_evspec_add(rc.spec, all, &pa, &pe)) {
			cli_parse_error(all, &pe);
			exit(1);
		}
		free(all);
	}
	for (i = 0; !o.group && i < o.events.n; i++) {
		struct perfev_parse_error pe = {.sz = sizeof(pe)};

		if (perfev_evspec_add(rc.spec, o.events.items[i], &pa, &pe)) {
			cli_parse_error(o.events.items[i], &pe);
			exit(1);
		}
	}

	d.nasked = perfev_evspec_count(rc.spec);
	add_metric_events(rc.spec, &o, &d, &pa);
	if (!perfev_evspec_count(rc.spec) && d.nmetrics)
		cli_die("cannot count the metrics of -M here: their events need a hardware PMU, "
			"and this machine has none (perfev list metric says which are supported)");
	d.hide_idle_units = o.per_thread && o.all_cpus;
	for (i = 0; i < o.detailed; i++) {
		struct perfev_parse_error pe = {.sz = sizeof(pe)};

		if (perfev_evspec_add(rc.spec, detailed_sets[i], &pa, &pe))
			cli_die("cannot set up the events of -d: %s", pe.message);
	}

	d.format = o.json ? STAT_JSON : o.sep ? STAT_CSV : STAT_TEXT;
	d.sep = o.sep ? o.sep : ",";
	d.no_scale = o.no_scale;
	/* perf's big numbers: the locale's grouping of digits, for text only. */
	d.big_num = d.format == STAT_TEXT && !o.no_big_num;
	if (d.big_num)
		setlocale(LC_NUMERIC, "");
	d.quiet = o.quiet;
	d.interval_clear = o.interval_clear;
	d.table = o.table;
	d.out = stderr;
	if (recording) {
		rc.rec = stat_record_create(o.output ? o.output : "perf.data", rec_argc, rec_argv);
	} else if (o.output) {
		if (cli_output_open(&out, o.output, NULL, 0666, CLI_OUT_STDIO))
			exit(1);
		d.out = out.f;
	}
	desc = describe_target(&o, cmd);
	d.target_desc = desc;

	/* Ctrl-C ends the measurement and prints what was counted so far. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (!cli_hup_ignored())
		sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_handler = on_child;
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);

	if (o.interval_ms) {
		status = measure_intervals(&rc);
	} else {
		for (i = 0; i < o.repeat && !stop_signal; i++) {
			/* A failing hook ends the runs; those measured are still printed. */
			if (!run_hook(o.pre, "--pre")) {
				hook_failed = true;
				break;
			}
			if (o.sync)
				sync();
			start_timeout(&o);
			status =
			    o.null_run ? measure_null(&rc, (size_t)i) : measure(&rc, (size_t)i);
			stop_timeout(&o);
			/* Ended by --timeout: a normal end, as perf sees it. */
			if (timed_out == 2 && status >= 0 && WIFSIGNALED(status) &&
			    WTERMSIG(status) == SIGTERM)
				status = 0;
			timed_out = 0;
			if (!run_hook(o.post, "--post")) {
				hook_failed = true;
				break;
			}
		}
		if (cmd && status >= 0)
			d.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
		d.term_signal = cmd && status >= 0 && WIFSIGNALED(status) ? WTERMSIG(status) : 0;
		if (!o.quiet && d.nruns)
			stat_print(&d);
	}
	if (rc.rec)
		stat_record_finish(rc.rec);
	if (d.out != stderr && cli_output_close(&out))
		exit(1);
	else if (d.out == stderr && (fflush(stderr) || ferror(stderr)))
		exit(1); /* nowhere left to say so */

	status = hook_failed ? 1 : cmd ? cli_exit_status(status, cmd) : 0;
	free(rec_argv);
	free(desc);
	free_data(&d);
	perfev_evspec_free(rc.spec);
	cli_env_release(&env);
	cli_target_release(&rc.ct);
	opt_list_release(&o.events);
	opt_list_release(&o.metrics);
	free(d.metrics);
	if (terminating()) {
		/* Ended by SIGTERM or SIGHUP: end by it, as perf does (status 128 + N). */
		int sig = stop_signal;

		cli_finish(0);
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return status;
}
