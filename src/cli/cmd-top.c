// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev top: a live profile of the system, of processes, threads or a
 * command, with perf top's flags.
 *
 * The events are opened as perfev record opens them (a session in
 * sampling mode, one ring per CPU); the rings are read every 100 ms
 * into a live perfev_source, which puts the records in time order and
 * keeps the machine (threads, maps, symbols) up to date; each sample is
 * resolved there and summed by the sort keys (top-hist.c).  Every -d
 * seconds the table is shown, full screen (output/top-tui.c) or as a
 * snapshot on stdout (--stdio, or when stdout is not a terminal), then
 * decayed by perf top's 7/8, or zeroed with -z.  Threads are retired
 * from the machine once their EXIT record is passed (processes with
 * their maps and JIT maps), and the table keeps a bounded number of
 * lines, so that a long run holds its memory.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "options.h"
#include "record.h"
#include "sampling.h"
#include "target.h"
#include "top.h"

static const char *const top_usage[] = {
    "perfev top [options]",
    "perfev top [options] -p PID | -t TID | -C CPUS",
    "perfev top [options] -- <command> [<args>]",
    NULL,
};

#define DEFAULT_FREQ   4000
#define DEFAULT_DELAY  2.0
#define READ_EVERY_MS  100
#define HIST_MAX_LINES 20000 /* lines the table keeps between refreshes */
#define SOURCE_WINDOW  (250ULL * 1000 * 1000)
/* Resolved frames the machine keeps for later lookups, at most (about 64 bytes each). */
#define FRAMES_MAX (64U << 10)

struct top_opts {
	struct opt_list events, call_graphs;
	const char *pids, *tids, *cpu_list, *freq, *mmap_pages, *sort, *delay, *entries;
	bool all_cpus, no_inherit, callchain, hide_kernel, hide_user, zero, stdio, show_samples;
	bool verbose;
	uint64_t count;
	enum perfev_callgraph cg_mode;
	uint32_t cg_stack;
};

struct top_ring {
	struct perfev_ring *r;
	int cpu;
};

struct top {
	const struct top_opts *o;
	struct cli_env *env;
	struct perfev_evspec *spec;
	struct perfev_session *s;
	struct cli_target ct;
	struct top_ring *rings;
	size_t nrings;
	struct perfev_sample_layout layout; /* of the first event: for synthesized records */
	struct perfev_source *src;
	struct top_hist hist;
	struct top_filter filter;
	struct top_status st;
	struct top_tui *tui;
	uint64_t freq;
	size_t data_pages;
	char events[256], target[96];
	int sigfd, pidfd;
	pid_t child;
	bool child_done, paused, stop;
	int child_status;
	/* Since the last refresh. */
	uint64_t interval_samples, interval_kernel;
	double interval_start;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- options ------------------------------------------------------------- */

static double parse_delay(const char *s, const struct option *opts)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(d) || d < 0.1 || d > 3600)
		usage_error(top_usage, opts,
			    "-d expects the seconds between refreshes (0.1 to 3600), not '%s'", s);
	return d;
}

static size_t parse_pages(const char *s, const struct option *opts)
{
	unsigned long long v;

	if (opt_parse_unsigned(s, 1ULL << 20, &v, NULL) || !v || (v & (v - 1)))
		usage_error(top_usage, opts,
			    "-m expects a number of pages that is a power of two, not '%s'", s);
	return (size_t)v;
}

/* ---- events and rings ---------------------------------------------------- */

static void parse_events(struct top *t)
{
	struct perfev_parse_opts pa = {.sz = sizeof(pa)};
	int i;

	pa.pmus = t->env->pmus;
	pa.tracefs = t->env->tracefs_handle;
	pa.tracefs_error = t->env->tracefs_error;
	if (perfev_evspec_new(&t->spec))
		cli_die("out of memory");
	for (i = 0; i < (t->o->events.n ? t->o->events.n : 1); i++) {
		struct perfev_parse_error pe = {.sz = sizeof(pe)};
		/* perf top's default: cycles at the best precision, cpu-clock without hardware. */
		const char *str = t->o->events.n ? t->o->events.items[i] : "cycles:P";

		if (perfev_evspec_add(t->spec, str, &pa, &pe)) {
			cli_parse_error(str, &pe);
			exit(1);
		}
	}
}

/* Applied by the session to every event before it is opened. */
static int configure(struct perf_event_attr *a, size_t ev, void *ctx)
{
	struct top *t = ctx;
	const struct top_opts *o = t->o;
	struct perfev_event_info info = {.sz = sizeof(info)};

	if (perfev_evspec_info(t->spec, ev, &info))
		return -EINVAL;
	a->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
	if (perfev_evspec_count(t->spec) > 1)
		a->sample_type |= PERF_SAMPLE_IDENTIFIER;
	/* The string's call-graph= wins over -g and --call-graph, as in record. */
	if (!(info.terms_set & (PERFEV_TERM_CALLGRAPH | PERFEV_TERM_MAX_STACK)) &&
	    o->cg_mode != PERFEV_CALLGRAPH_DEFAULT) {
		int err = perfev_attr_set_callgraph(a, o->cg_mode, o->cg_stack);

		if (err)
			return err;
	}
	cli_attr_set_rate(a, &info, o->count, o->freq != NULL, t->freq);
	if (a->freq || a->type == PERF_TYPE_TRACEPOINT)
		a->sample_type |= PERF_SAMPLE_PERIOD;
	a->read_format = PERF_FORMAT_ID;
	a->sample_id_all = 1;
	/* The rings are read on a timer, not woken per sample. */
	a->watermark = 1;
	a->wakeup_watermark = (uint32_t)(t->data_pages * (size_t)sysconf(_SC_PAGESIZE) / 2);
	/* The first event reports what samples need to be understood. */
	if (ev == 0) {
		a->mmap = a->mmap2 = a->comm = a->comm_exec = a->task = 1;
		a->ksymbol = 1;
	}
	return 0;
}

static void open_events(struct top *t)
{
	struct perfev_session_opts so = {.sz = sizeof(so)};
	struct perfev_session_error se = {.sz = sizeof(se)};
	size_t i, n, usable = 0, off = 0;
	int err;

	so.sysfs_root = t->env->sysfs_root;
	so.procfs_root = t->env->procfs_root;
	so.open_flags = PERF_FLAG_FD_CLOEXEC;
	so.sampling = true;
	so.task_per_cpu = true;
	so.configure = configure;
	so.configure_ctx = t;
	err = perfev_session_new(t->spec, &so, &t->s);
	if (err)
		cli_die("cannot set up the events: %s", perfev_strerror(err));
	err = perfev_session_open(t->s, &t->ct.t, &se);
	if (err)
		cli_sampling_open_failed(t->spec, &se, "sample");
	n = perfev_session_event_count(t->s);
	for (i = 0; i < n; i++) {
		const char *note = perfev_session_event_note(t->s, i);

		if (perfev_session_event_state(t->s, i) != PERFEV_EVENT_OPEN) {
			cli_error("cannot sample '%s' here: %s", perfev_session_event_name(t->s, i),
				  note ? note : "not supported");
			continue;
		}
		if (note && t->o->verbose)
			cli_error("%s", note);
		usable++;
		if (off < sizeof(t->events))
			off += (size_t)snprintf(t->events + off, sizeof(t->events) - off, "%s%s",
						off ? "," : "", cli_sampled_event_name(t->s, i));
	}
	if (!usable)
		exit(1);
	if (perfev_session_event_state(t->s, 0) != PERFEV_EVENT_OPEN)
		cli_die("cannot follow the tasks: the first event could not be opened");
}

/* One ring per CPU; the CPU's other events write into it (SET_OUTPUT). */
static void map_rings(struct top *t)
{
	struct perfev_ring_opts ro = {.sz = sizeof(ro)};
	size_t ninst = perfev_session_instance_count(t->s), nev = perfev_session_event_count(t->s);
	size_t inst, ev, k;

	ro.data_pages = t->data_pages;
	t->rings = calloc(ninst ? ninst : 1, sizeof(*t->rings));
	if (!t->rings)
		cli_die("out of memory");
	for (inst = 0; inst < ninst; inst++) {
		int cpu, fd, err;
		pid_t tid;

		perfev_session_instance(t->s, inst, &cpu, &tid);
		for (ev = 0; ev < nev; ev++) {
			if ((fd = perfev_session_fd(t->s, ev, inst)) < 0)
				continue;
			for (k = 0; k < t->nrings && t->rings[k].cpu != cpu; k++)
				;
			if (k < t->nrings) {
				err = perfev_ring_set_output(t->rings[k].r, fd);
				if (err)
					cli_die("cannot share the ring buffer of cpu %d: %s", cpu,
						perfev_strerror(err));
				continue;
			}
			err = perfev_ring_map(fd, &ro, &t->rings[k].r);
			if (err)
				cli_die("cannot map a ring buffer of %zu pages for cpu %d: %s%s",
					t->data_pages, cpu, perfev_strerror(err),
					err == -EPERM ? " (over the locked memory limit: try -m "
							"with fewer pages)"
						      : "");
			t->rings[k].cpu = cpu;
			t->nrings++;
		}
	}
}

/* The live source, told every event and the kernel ids of its descriptors. */
static void make_source(struct top *t)
{
	struct perfev_source_opts so = {.sz = sizeof(so)};
	size_t ninst = perfev_session_instance_count(t->s), nev = perfev_session_event_count(t->s);
	uint64_t *ids = calloc(ninst ? ninst : 1, sizeof(*ids));
	size_t ev;
	int err;

	if (!ids)
		cli_die("out of memory");
	so.window_ns = SOURCE_WINDOW;
	err = perfev_source_new_live(&so, &t->src);
	if (err)
		cli_die("cannot follow the samples: %s", perfev_strerror(err));
	for (ev = 0; ev < nev; ev++) {
		int n;

		if (perfev_session_event_state(t->s, ev) != PERFEV_EVENT_OPEN)
			continue;
		n = perfev_session_event_ids(t->s, ev, ids, ninst);
		if (n < 0 || (err = perfev_source_add_attr(
				  t->src, perfev_session_event_attr(t->s, ev),
				  cli_sampled_event_name(t->s, ev), ids, (size_t)n)) < 0)
			cli_die("cannot follow the samples of '%s': %s",
				cli_sampled_event_name(t->s, ev), perfev_strerror(n < 0 ? n : err));
	}
	free(ids);
	if (perfev_sample_layout_init(&t->layout, perfev_session_event_attr(t->s, 0)))
		cli_die("cannot decode the samples of '%s'", cli_sampled_event_name(t->s, 0));
}

/* ---- reading ------------------------------------------------------------- */

static int feed(void *arg, const void *rec, size_t len)
{
	struct top *t = arg;
	int err = perfev_source_feed(t->src, rec, len);

	/* A record that does not decode is counted by the source and dropped. */
	return err == -EBADMSG ? 0 : err;
}

static void drain(struct top *t)
{
	const struct perf_event_header *h;
	size_t i;
	int ret;

	for (i = 0; i < t->nrings; i++) {
		struct perfev_ring *r = t->rings[i].r;

		if (perfev_ring_begin(r) < 0) {
			perfev_ring_end(r);
			continue;
		}
		while ((ret = perfev_ring_next(r, &h)) > 0) {
			switch (h->type) {
			case PERF_RECORD_LOST:
				/* header, id, lost */
				if (h->size >= 24)
					t->st.lost += perfev_u64_at(h, 2);
				continue;
			case PERF_RECORD_LOST_SAMPLES:
				if (h->size >= 16)
					t->st.lost_samples += perfev_u64_at(h, 1);
				continue;
			case PERF_RECORD_THROTTLE:
				t->st.throttled++;
				continue;
			case PERF_RECORD_UNTHROTTLE:
				continue;
			}
			if (feed(t, h, h->size) == -ENOMEM)
				cli_die("out of memory");
		}
		perfev_ring_end(r);
	}
}

static void drain_cb(void *arg)
{
	drain(arg);
}

/* What ran before the events: its threads and maps, as record describes them. */
static void synthesize(struct top *t)
{
	struct synth_ctx sc = {.layout = &t->layout, .feed = feed, .feed_arg = t};

	sc.between = drain_cb;
	sc.between_arg = t;
	sc.procfs_root = t->env->procfs_root ?: "/proc";
	if (cli_kernel_samples_possible(t->s))
		synth_kernel(&sc);
	switch (t->ct.t.kind) {
	case PERFEV_TARGET_PID:
		synth_process(&sc, t->ct.t.pid);
		break;
	case PERFEV_TARGET_THREADS:
		synth_threads(&sc, t->ct.t.tids, t->ct.t.ntids);
		break;
	case PERFEV_TARGET_CPUS:
	case PERFEV_TARGET_CGROUP:
		synth_all_processes(&sc);
		break;
	default:
		break; /* a command: the kernel reports its exec and mappings */
	}
	if (sc.err == -ENOMEM)
		cli_die("out of memory");
}

static void account(struct top *t, const struct perfev_source_event *ev)
{
	unsigned int flags = t->st.callchains ? PERFEV_FRAMES_CHAIN : 0;
	struct top_sample s = {0};
	const struct perfev_frame *f;
	size_t n = 0, i;
	int err;

	t->interval_samples++;
	s.kernel =
	    ev->cpumode == PERF_RECORD_MISC_KERNEL || ev->cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	t->interval_kernel += s.kernel;
	if (t->paused)
		return;
	/* Periods of several events are not of one unit: then each sample weighs the same. */
	s.period = ev->period && perfev_source_attr_count(t->src) == 1 ? ev->period : 1;
	if ((s.kernel && t->o->hide_kernel) || (!s.kernel && t->o->hide_user)) {
		top_hist_add_hidden(&t->hist, s.period);
		return;
	}
	err = perfev_source_frames(t->src, ev, flags, &f, &n);
	if (err == -ENOMEM)
		cli_die("out of memory");
	if (flags && !err && !n)
		/* A chain perf would drop: the address alone. */
		err = perfev_source_frames(t->src, ev, 0, &f, &n);
	s.comm = ev->comm;
	s.pid = ev->pid;
	if (!err && n) {
		s.dso = f[0].dso;
		s.sym = f[0].sym;
		s.addr = f[0].ip;
		for (i = 1; i < n && s.ncallers < TOP_CHAIN_DEPTH; i++)
			s.callers[s.ncallers++] = f[i].sym ? f[i].sym : f[i].dso;
		/* A chain of the sampled function alone still says it has no callers. */
	}
	top_hist_add(&t->hist, &s);
}

/* Hand what may go out now to the table; tasks that ended leave the machine. */
static void process(struct top *t)
{
	const struct perfev_source_event *ev;
	int ret;

	while ((ret = perfev_source_next(t->src, &ev)) == 1) {
		if (ev->kind == PERFEV_SOURCE_SAMPLE)
			account(t, ev);
		else if (ev->type == PERF_RECORD_EXIT && ev->rec)
			perfev_machine_retire(perfev_source_machine(t->src), ev->rec->u.fork.pid,
					      ev->rec->u.fork.tid);
	}
	if (ret == -ENOMEM)
		cli_die("out of memory");
}

/* ---- the run ------------------------------------------------------------- */

static void describe_target(struct top *t)
{
	switch (t->ct.t.kind) {
	case PERFEV_TARGET_PID:
		snprintf(t->target, sizeof(t->target), "pid %d", (int)t->ct.t.pid);
		break;
	case PERFEV_TARGET_THREADS:
		snprintf(t->target, sizeof(t->target), "%s %s", t->o->pids ? "pids" : "tids",
			 t->o->pids ? t->o->pids : t->o->tids);
		break;
	case PERFEV_TARGET_COMMAND:
		snprintf(t->target, sizeof(t->target), "command '%s'", t->ct.t.argv[0]);
		break;
	default:
		if (t->o->cpu_list)
			snprintf(t->target, sizeof(t->target), "cpus %s", t->o->cpu_list);
		else
			snprintf(t->target, sizeof(t->target), "all, %zu CPU%s", t->nrings,
				 t->nrings == 1 ? "" : "s");
		break;
	}
}

static void setup_signals(struct top *t)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (!cli_hup_ignored())
		sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGWINCH);
	sigprocmask(SIG_BLOCK, &set, NULL);
	t->sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (t->sigfd < 0)
		cli_die("cannot watch signals: %s", perfev_strerror(-errno));
	signal(SIGPIPE, SIG_IGN);
}

static void reap(struct top *t)
{
	int status;

	if (t->child && !t->child_done && waitpid(t->child, &status, WNOHANG) == t->child) {
		t->child_status = status;
		t->child_done = true;
	}
}

static void read_signals(struct top *t)
{
	struct signalfd_siginfo si;

	while (read(t->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGCHLD) {
			reap(t);
			t->stop |= t->child_done;
		} else if (si.ssi_signo == SIGWINCH) {
			if (t->tui)
				top_tui_resize(t->tui);
		} else {
			t->stop = true;
		}
	}
}

static int term_width(void)
{
	struct winsize ws;

	return !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col ? ws.ws_col : 0;
}

static void show(struct top *t)
{
	if (t->tui) {
		top_hist_sort(&t->hist, &t->filter);
		top_tui_draw(t->tui, &t->hist, &t->st);
	} else {
		top_hist_sort(&t->hist, &t->filter);
		top_print_stdio(stdout, &t->hist, &t->st, term_width());
		if (ferror(stdout))
			t->stop = true; /* the reader went away */
	}
}

/* Every -d seconds: the rate of the last interval, the table, then decay or zero. */
static void refresh(struct top *t)
{
	double now = now_s(), secs = now - t->interval_start;

	t->st.rate = secs > 0 ? (double)t->interval_samples / secs : 0;
	t->st.kernel_share = t->interval_samples
				 ? 100.0 * (double)t->interval_kernel / (double)t->interval_samples
				 : 0;
	t->interval_samples = t->interval_kernel = 0;
	t->interval_start = now;
	t->st.paused = t->paused;
	if (t->paused && !t->tui)
		return;
	t->st.refreshes++;
	show(t);
	if (t->paused)
		return;
	if (t->o->zero)
		top_hist_zero(&t->hist);
	else
		top_hist_decay(&t->hist);
	/*
	 * Every process has its own frames (ASLR puts its maps elsewhere): past
	 * the cap they are forgotten, and resolved again as samples come.  The
	 * table keeps its own copies of the names.
	 */
	if (perfev_machine_frame_count(perfev_source_machine(t->src)) > FRAMES_MAX)
		perfev_machine_forget_frames(perfev_source_machine(t->src));
	/* The keys select among the lines that are left. */
	top_hist_sort(&t->hist, &t->filter);
}

static void keys(struct top *t)
{
	switch (top_tui_keys(t->tui, &t->hist, &t->filter)) {
	case TOP_QUIT:
		t->stop = true;
		break;
	case TOP_PAUSE:
		t->paused = !t->paused;
		t->st.paused = t->paused;
		show(t);
		break;
	case TOP_ZERO:
		top_hist_zero(&t->hist);
		show(t);
		break;
	case TOP_RESORT:
	case TOP_REDRAW:
		show(t);
		break;
	default:
		break;
	}
}

static void loop(struct top *t, double delay)
{
	double next = now_s() + delay;

	t->interval_start = now_s();
	while (!t->stop) {
		struct pollfd p[3];
		nfds_t np = 0;
		double left = next - now_s();
		int ms = left <= 0 ? 0 : (int)(left * 1000) + 1;

		if (ms > READ_EVERY_MS)
			ms = READ_EVERY_MS;
		p[np++] = (struct pollfd){.fd = t->sigfd, .events = POLLIN};
		if (t->tui)
			p[np++] = (struct pollfd){.fd = top_tui_fd(t->tui), .events = POLLIN};
		if (t->pidfd >= 0)
			p[np++] = (struct pollfd){.fd = t->pidfd, .events = POLLIN};
		if (poll(p, np, ms) < 0 && errno != EINTR)
			cli_die("cannot wait for samples: %s", perfev_strerror(-errno));
		if (p[0].revents)
			read_signals(t);
		if (t->tui && p[1].revents)
			keys(t);
		if (t->pidfd >= 0 && p[np - 1].revents)
			t->stop = true; /* the process measured has exited */
		drain(t);
		process(t);
		if (!t->stop && now_s() >= next) {
			refresh(t);
			next += delay;
			if (next < now_s())
				next = now_s() + delay;
		}
	}
}

static struct top_tui *tui_to_close;

static void close_tui_at_exit(void)
{
	top_tui_close(tui_to_close);
}

static void release(struct top *t)
{
	size_t i;

	for (i = 0; i < t->nrings; i++)
		perfev_ring_free(t->rings[i].r);
	free(t->rings);
	perfev_source_free(t->src);
	perfev_session_free(t->s);
	perfev_evspec_free(t->spec);
	top_hist_release(&t->hist);
	if (t->pidfd >= 0)
		close(t->pidfd);
	close(t->sigfd);
}

int cmd_top(int argc, const char **argv)
{
	struct top_opts o = {0};
	const struct option opts[] = {
	    OPT_MULTI('e', "event", &o.events, "EVENT", "event(s) to sample (repeatable)"),
	    OPT_STR('F', "freq", &o.freq, "HZ", "samples per second of each event ('max')"),
	    OPT_U64('c', "count", &o.count, "N", "one sample every N events"),
	    OPT_FLAG('g', NULL, &o.callchain, "sample call chains (frame pointers), show callers"),
	    OPT_MULTI(0, "call-graph", &o.call_graphs, "MODE",
		      "sample call chains: fp, or dwarf[,SIZE] (user stack copies)"),
	    OPT_HEADING("target"),
	    OPT_FLAG('a', "all-cpus", &o.all_cpus, "the whole system (the default)"),
	    OPT_STR('p', "pid", &o.pids, "PID[,PID]", "existing process(es)"),
	    OPT_STR('t', "tid", &o.tids, "TID[,TID]", "existing thread(s)"),
	    OPT_STR('C', "cpu", &o.cpu_list, "CPUS", "everything on these CPUs (0-3,8)"),
	    OPT_FLAG('i', "no-inherit", &o.no_inherit, "do not follow child tasks"),
	    OPT_HEADING("display"),
	    OPT_STR('d', "delay", &o.delay, "SECS", "seconds between refreshes (default 2)"),
	    OPT_STR('s', "sort", &o.sort, "KEYS",
		    "sort by comm, pid, dso, sym, comma separated (default dso,sym)"),
	    OPT_STR('E', "entries", &o.entries, "N", "show this many lines at most"),
	    OPT_FLAG('K', "hide_kernel_symbols", &o.hide_kernel, "hide kernel symbols"),
	    OPT_FLAG('U', "hide_user_symbols", &o.hide_user, "hide user symbols"),
	    OPT_FLAG('z', "zero", &o.zero, "zero the table at each refresh rather than decay it"),
	    OPT_FLAG('n', "show-nr-samples", &o.show_samples, "a column with the samples"),
	    OPT_FLAG(0, "stdio", &o.stdio,
		     "a snapshot on stdout at each refresh (the default when not a terminal)"),
	    OPT_HEADING("other"),
	    OPT_STR('m', "mmap-pages", &o.mmap_pages, "PAGES", "ring buffer pages per CPU"),
	    OPT_FLAG('v', "verbose", &o.verbose,
		     "say which fallbacks were taken, and at the end what memory holds"),
	    OPT_TERMINATOR,
	};
	struct cli_target_args ta = {0};
	struct top t = {.o = &o, .sigfd = -1, .pidfd = -1};
	struct cli_env env;
	double delay;
	int nargs, err, i, status = 0;

	nargs = parse_options(argc, argv, opts, top_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	for (i = 0; i < o.call_graphs.n; i++)
		cli_parse_call_graph(o.call_graphs.items[i], &o.cg_mode, &o.cg_stack, top_usage,
				     opts);
	if (o.callchain && o.cg_mode == PERFEV_CALLGRAPH_DEFAULT)
		o.cg_mode = PERFEV_CALLGRAPH_FP;
	if (o.count > INT64_MAX)
		usage_error(top_usage, opts,
			    "-c %" PRIu64 " is past the largest period, 2^63 - 1 events", o.count);
	if (o.count && o.freq)
		usage_error(top_usage, opts, "give -c or -F, not both");
	if (o.hide_kernel && o.hide_user)
		usage_error(top_usage, opts, "-K and -U together would hide everything");
	delay = o.delay ? parse_delay(o.delay, opts) : DEFAULT_DELAY;
	top_hist_init(&t.hist, HIST_MAX_LINES);
	if (o.sort) {
		const char *bad;

		if (top_hist_set_sort(&t.hist, o.sort, &bad))
			usage_error(top_usage, opts,
				    "unknown sort key '%.*s' in '%s' (keys: comm, pid, dso, sym; "
				    "at most %d)",
				    (int)strcspn(bad, ","), bad, o.sort, TOP_MAX_KEYS);
	}
	if (o.entries) {
		unsigned long long v;

		if (opt_parse_unsigned(o.entries, 1000000, &v, NULL) || !v)
			usage_error(top_usage, opts, "-E expects a number of lines, not '%s'",
				    o.entries);
		t.st.entries = (size_t)v;
	}
	ta.pids = o.pids;
	ta.tids = o.tids;
	ta.cpu_list = o.cpu_list;
	ta.no_inherit = o.no_inherit;
	ta.cmd = nargs ? (char **)argv : NULL;
	/* perf top's default: the whole system. */
	ta.all_cpus = o.all_cpus || (!nargs && !o.pids && !o.tids && !o.cpu_list);
	if (nargs && cli_target_count(&ta))
		usage_error(top_usage, opts, "give a command or -p, -t, -a or -C, not both");
	cli_target_setup(&t.ct, &ta, top_usage, opts);

	cli_env_init(&env);
	cli_env_open(&env, o.events.n > 0);
	t.env = &env;
	t.freq = o.count  ? 0
		 : o.freq ? cli_parse_freq(o.freq, &env, top_usage, opts)
			  : DEFAULT_FREQ;
	t.data_pages = o.mmap_pages ? parse_pages(o.mmap_pages, opts)
		       : o.cg_mode == PERFEV_CALLGRAPH_DWARF && !geteuid() ? 1024
									   : 128;
	parse_events(&t);
	open_events(&t);
	map_rings(&t);
	make_source(&t);
	setup_signals(&t);
	describe_target(&t);
	t.st.event = t.events;
	t.st.target = t.target;
	t.st.freq = t.freq;
	t.st.ncpus = (unsigned int)t.nrings;
	t.st.zero = o.zero;
	t.st.show_samples = o.show_samples;
	t.st.callchains = o.cg_mode != PERFEV_CALLGRAPH_DEFAULT;
	t.st.filter = &t.filter;
	t.st.hide_kernel = o.hide_kernel;
	t.st.hide_user = o.hide_user;

	if (t.ct.t.kind == PERFEV_TARGET_COMMAND) {
		synthesize(&t);
		err = perfev_session_start(t.s);
		if (err)
			cli_die("cannot run '%s': %s", t.ct.t.argv[0], cli_exec_error(err));
		t.child = perfev_session_child(t.s);
	} else {
		err = perfev_session_start(t.s);
		if (err)
			cli_die("cannot start sampling: %s", perfev_strerror(err));
		synthesize(&t);
		if (t.ct.t.kind == PERFEV_TARGET_PID)
			t.pidfd = cli_pidfd(t.ct.t.pid);
	}
	if (!o.stdio && isatty(STDOUT_FILENO)) {
		if (top_tui_open(&t.tui))
			cli_error("note: cannot set up the terminal for the full-screen "
				  "interface (TERM='%s'): printing snapshots as --stdio does",
				  getenv("TERM") ? getenv("TERM") : "");
		tui_to_close = t.tui;
		atexit(close_tui_at_exit);
	}
	reap(&t);
	t.stop = t.child_done;
	if (t.tui) {
		top_hist_sort(&t.hist, &t.filter);
		top_tui_draw(t.tui, &t.hist, &t.st);
	}
	loop(&t, delay);

	perfev_session_disable(t.s);
	top_tui_close(t.tui);
	tui_to_close = NULL;
	if (t.child && !t.child_done) {
		/* Stopped while the command runs: end it, as record does. */
		kill(t.child, SIGTERM);
		waitpid(t.child, &t.child_status, 0);
		t.child_done = true;
	}
	/* A command that ended: its last samples, as a last snapshot in text. */
	if (t.child && !t.tui) {
		drain(&t);
		perfev_source_finish(t.src);
		process(&t);
		refresh(&t);
	}
	if (t.child)
		status = cli_exit_status(t.child_status, t.ct.t.argv);
	/* -v: what a long run holds (tasks that exited are retired, the table capped). */
	if (o.verbose) {
		struct perfev_source_stats ss = {.sz = sizeof(ss)};

		perfev_source_stats(t.src, &ss);
		cli_error("note: at the end the machine held %zu threads and %zu frames, the table "
			  "%zu lines; "
			  "%" PRIu64 " records read, %" PRIu64 " out of time order, %" PRIu64
			  " that did not decode",
			  perfev_machine_thread_count(perfev_source_machine(t.src)),
			  perfev_machine_frame_count(perfev_source_machine(t.src)),
			  perfev__hashmap_size(&t.hist.map), ss.records, ss.out_of_order, ss.bad);
	}
	release(&t);
	cli_target_release(&t.ct);
	cli_env_release(&env);
	opt_list_release(&o.events);
	opt_list_release(&o.call_graphs);
	return status;
}
