// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev record: sample a command, processes, threads or CPUs into a
 * perf.data file that perf reads, with perf record's flags.
 *
 * One ring buffer per CPU takes every event of that CPU (SET_OUTPUT),
 * or with --per-thread one per thread every event of that thread;
 * a single epoll set waits on the rings, the signals (signalfd) and the
 * process measured (pidfd), so the end of the command or a Ctrl-C is
 * noticed at once and the file is always completed.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "options.h"
#include "output/output.h"
#include "output/attr-print.h"
#include "record.h"
#include "sampling.h"
#include "target.h"

static const char *const record_usage[] = {
    "perfev record [options] [--] <command> [<args>]",
    "perfev record [options] -p PID | -t TID | -a | -C CPUS [-- <command>]",
    NULL,
};

#define DEFAULT_FREQ 4000

struct rec_opts {
	struct opt_list events, call_graphs;
	const char *pids, *tids, *cpu_list, *output, *freq, *mmap_pages;
	bool all_cpus, no_inherit, callchain, timestamp, sample_cpu, data_addr, raw;
	bool switch_events, overwrite, quiet;
	bool phys_data, unwind;
	/* perf's attr options */
	const char *branch_filter, *user_regs, *intr_regs, *clockid, *delay, *compress;
	const char *aux_sample, *snapshot;
	bool branch_any, weight, data_page_size, code_page_size, sample_identifier, period;
	bool no_samples, inherit_stat, all_user, all_kernel, group, per_thread, namespaces;
	bool timestamp_filename, tail_synthesize;
	bool off_cpu;
	/* perf's output and run options */
	bool strict_freq, inherit, no_buildid, no_buildid_cache, buildid_all, verbose, all_cgroups;
	const char *synth, *max_size, *mmap_flush, *switch_output, *threads;
	int switch_max_files;
	uint64_t switch_bytes;	 /* --switch-output=SIZE */
	double switch_secs;	 /* --switch-output=TIME */
	bool switch_signal;	 /* --switch-output (SIGUSR2) */
	unsigned int synth_mask; /* SYNTH_* */
	uint64_t max_bytes, flush_bytes;
	/* --push */
	const char *push, *push_labels, *push_app, *push_window, *push_spool, *push_spool_size;
	uint64_t branch_type, regs_user, regs_intr; /* as parsed */
	int clock, delay_ms;			    /* clock: -1 none */
	int zlevel;				    /* -z: the zstd level, 0 none */
	struct perfev_data_clock clock_ref;	    /* -k: the file's reference time */
	uint64_t count;
	/* -g and --call-graph: for the events without a call-graph= term */
	enum perfev_callgraph cg_mode;
	uint32_t cg_stack; /* dwarf: user stack bytes per sample, 0 the default */
};

/* A ring shared by every event of one CPU, or with --per-thread of one thread. */
struct rec_ring {
	struct perfev_ring *r;
	int cpu;
	pid_t tid; /* --per-thread: its thread (cpu -1); else -1 */
};

/* An event descriptor watched for the end of its task (POLLHUP). */
struct rec_fd {
	int fd;
	struct rec_ring *ring; /* the ring it owns, or NULL */
	bool hung_up;
};

struct rec {
	const struct rec_opts *o;
	struct cli_env *env;
	struct perfev_evspec *spec;
	struct perfev_session *s;
	struct cli_target ct;
	struct perfev_data_writer *w;
	struct cli_output out; /* the file, or the stream of -o - */
	const char *path;
	struct rec_ring *rings;
	size_t nrings;
	struct rec_fd *fds;
	size_t nfds, nhup;
	struct perfev_poller *poller;
	struct perfev_sample_layout layout; /* of the first event: finds ids */
	uint64_t freq;			    /* asked sampling frequency, 0 with -c */
	size_t data_pages;

	/* id of each open file descriptor -> event index */
	struct id_map {
		uint64_t id;
		size_t ev;
	} * ids;
	size_t nids;

	uint64_t *ev_samples;
	uint64_t samples, lost, lost_samples, throttles, records, rounds_written;
	bool wrote_in_round;
	int werr;    /* first write error */
	bool failed; /* the recording stopped on an error, the file completed */
	int sigfd;
	pid_t child;
	int child_status;
	bool child_done;
	bool want_build_ids;   /* the kernel puts build ids in MMAP2 records */
	struct rec_unwind *uw; /* --unwind */
	struct rec_offcpu *oc; /* --off-cpu */
	size_t offcpu_ev;      /* --off-cpu: the sched_switch event */
	struct build_ids build_ids;
	uint64_t bytes; /* the files of --switch-output before this one */
	bool in_loop;	/* reading at a wakeup: --mmap-flush applies */

	/* --switch-output */
	const char **argv; /* the command line, for each file's cmdline */
	int argc;
	double next_switch; /* when the time mode switches next */
	bool want_switch;
	unsigned int nswitches;
	char **dumped; /* the files written, oldest first (--switch-max-files) */
	size_t ndumped, dumped_cap;
	struct rec_push *push; /* --push: where each file goes */
};

/* --synth: what is described of the tasks that exist before the recording. */
enum { SYNTH_TASK = 1, SYNTH_MMAP = 2, SYNTH_CGROUP = 4, SYNTH_ALL = 7 };

/* ---- options ------------------------------------------------------------- */

static uint64_t max_sample_rate(const struct cli_env *env)
{
	return cli_max_sample_rate(env);
}

static uint64_t parse_freq(const char *s, const struct cli_env *env, const struct option *opts)
{
	return cli_parse_freq(s, env, record_usage, opts);
}

/*
 * The default ring: perf's 512 KiB per CPU is what an unprivileged user may
 * lock (perf_event_mlock_kb), but at the highest rates a reader that is
 * scheduled late loses samples with it.  Root is not held to that limit:
 * give each CPU 4 MiB, less on big machines so that all rings together stay
 * within 64 MiB, never under 512 KiB.
 */
static size_t default_pages(void)
{
	size_t ps = (size_t)sysconf(_SC_PAGESIZE);
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t bytes = 512 << 10, pages = 1;

	if (geteuid() == 0) {
		bytes = ((size_t)64 << 20) / (size_t)(ncpus > 0 ? ncpus : 1);
		if (bytes > (4 << 20))
			bytes = 4 << 20;
		if (bytes < (512 << 10))
			bytes = 512 << 10;
	}
	while (pages * 2 * ps <= bytes)
		pages *= 2;
	return pages;
}

/* A ring's size in words: "512 KiB", "1 GiB" (ring sizes are powers of two). */
static const char *ring_size(char *buf, size_t len, uint64_t bytes)
{
	static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
	size_t u = 0;

	while (u + 1 < sizeof(units) / sizeof(units[0]) && bytes >= 1024 && !(bytes % 1024)) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, "%" PRIu64 " %s", bytes, units[u]);
	return buf;
}

/*
 * The most data pages the kernel maps in one ring.  It keeps the list of a
 * ring's pages in one allocation of at most 2^MAX_PAGE_ORDER pages
 * (rb_alloc()), so with 4 KiB pages and the usual order 10 a ring holds at
 * most 2^18 pages, 1 GiB.  /proc/buddyinfo has one column per order.  The
 * architectures that build rings with vmalloc (arm, mips, loongarch, sparc,
 * sh) have no such bound: only the memory limits them.
 */
static uint64_t ring_max_pages(const char *procfs_root, size_t ps)
{
	uint64_t max = (1ULL << 40) / ps; /* 1 TiB where the kernel sets no bound */
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__) || defined(__powerpc__) ||    \
    defined(__s390__) || defined(__riscv)
	char path[4096], line[512], *p, *e;
	int orders = 0, shift = 0, n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/buddyinfo", procfs_root ? procfs_root : "/proc");
	f = fopen(path, "re");
	if (!f)
		return max;
	p = fgets(line, sizeof(line), f) ? strstr(line, "zone") : NULL;
	fclose(f);
	/* "Node 0, zone   Normal   5227   3407 ...": a count per order after the zone's name. */
	if (!p || sscanf(p, "zone %*s%n", &n) || !n)
		return max;
	for (p += n; strtoull(p, &e, 10), e != p; p = e)
		orders++;
	while ((1UL << shift) < ps)
		shift++;
	/* The list and the ring's header within 2^(PAGE_SHIFT + MAX_PAGE_ORDER) bytes. */
	if (orders >= 1 && shift + orders - 1 < 64 &&
	    ((1ULL << (shift + orders - 1)) - 1) / sizeof(void *) < max)
		max = ((1ULL << (shift + orders - 1)) - 1) / sizeof(void *);
	while (max & (max - 1))
		max &= max - 1;
#else
	(void)procfs_root;
#endif
	return max;
}

/*
 * -m: pages (a power of two) or a size with B/K/M/G, rounded up to pages;
 * past what the kernel maps in one ring, the limit is said first, before
 * the power of two.
 */
/*
 * A number with an optional unit B, K, M or G (perf's sizes): *@v is the
 * number of bytes with a unit, the bare number without (*@unit false).
 * -EINVAL for anything else, -ERANGE past 64 bits.
 */
static int parse_size(const char *s, uint64_t *v, bool *unit)
{
	unsigned long long n, mul = 0;
	const char *end;
	int err = opt_parse_unsigned(s, UINT64_MAX, &n, &end);

	if (err == -EINVAL)
		return err;
	*unit = *end != 0;
	if (*end) {
		switch (end[0] | 0x20) {
		case 'b':
			mul = 1;
			break;
		case 'k':
			mul = 1ULL << 10;
			break;
		case 'm':
			mul = 1ULL << 20;
			break;
		case 'g':
			mul = 1ULL << 30;
			break;
		}
		if (!mul || end[1])
			return -EINVAL;
	}
	if (err || (mul && n > UINT64_MAX / mul))
		return -ERANGE;
	*v = mul ? n * mul : n;
	return 0;
}

static size_t parse_pages(const char *s, const struct cli_env *env, const struct option *opts)
{
	size_t ps = (size_t)sysconf(_SC_PAGESIZE);
	uint64_t max = ring_max_pages(env->procfs_root, ps), pages, v;
	char size[32];
	bool unit;
	int err = parse_size(s, &v, &unit);

	if (err == -EINVAL || (!err && !v))
		usage_error(record_usage, opts,
			    "-m expects pages (a power of two) or a size like 4M, not '%s'", s);
	if (err || (unit && v > max * ps) || (!unit && v > max))
		usage_error(record_usage, opts,
			    "-m %s: over the limit: the kernel maps at most %" PRIu64
			    " pages (%s) per CPU",
			    s, max, ring_size(size, sizeof(size), max * ps));
	if (unit) {
		v = (v + ps - 1) / ps;
		for (pages = 1; pages < v; pages <<= 1)
			;
		return (size_t)pages;
	}
	if (v & (v - 1))
		usage_error(record_usage, opts,
			    "-m %s: the number of pages must be a power of two (or give a size "
			    "like 512K)",
			    s);
	return (size_t)v;
}

/* --max-size and --mmap-flush: a byte count (a bare number is bytes too). */
static uint64_t parse_bytes(const char *s, const char *what, const struct option *opts)
{
	uint64_t v;
	bool unit;

	if (parse_size(s, &v, &unit) || !v)
		usage_error(
		    record_usage, opts,
		    "%s expects a size in bytes, with B, K, M or G if wanted (4M), not '%s'", what,
		    s);
	return v;
}

/* --switch-output[=signal|SIZE|TIME]: perf's units, B/K/M/G and s/m/h/d. */
static void parse_switch_output(struct rec_opts *o, const struct option *opts)
{
	const char *s = o->switch_output;
	struct stat st;
	unsigned long long v;
	const char *end;
	bool unit;

	if (!*s || !strcmp(s, "signal")) {
		o->switch_signal = true;
	} else if (!parse_size(s, &o->switch_bytes, &unit) && unit && o->switch_bytes) {
		/* a size */
	} else if (!opt_parse_unsigned(s, UINT32_MAX, &v, &end) && v && end[0] && !end[1] &&
		   strchr("smhd", end[0])) {
		o->switch_secs = (double)v * (end[0] == 's'   ? 1
					      : end[0] == 'm' ? 60
					      : end[0] == 'h' ? 3600
							      : 86400);
	} else {
		usage_error(record_usage, opts,
			    "--switch-output expects signal, a size (100M) or a time (30s, 5m, 1h, "
			    "1d), not '%s'",
			    s);
	}
	if (o->switch_max_files < 0)
		usage_error(record_usage, opts, "--switch-max-files expects a count, not %d",
			    o->switch_max_files);
	if (o->output && !strcmp(o->output, "-"))
		usage_error(record_usage, opts, "--switch-output writes files: not with -o -");
	if (o->output && !stat(o->output, &st) && !S_ISREG(st.st_mode))
		usage_error(record_usage, opts,
			    "--switch-output writes a series of files: '%s' is not a regular file",
			    o->output);
	if (o->overwrite && !o->switch_signal)
		usage_error(
		    record_usage, opts,
		    "--overwrite writes on SIGUSR2 only: --switch-output=signal goes with it");
	if (o->unwind)
		usage_error(record_usage, opts, "--switch-output does not go with --unwind yet");
	/* Every file is named by its time, the last one too, as perf does. */
	o->timestamp_filename = true;
}

/* --synth: no, all, task, mmap, cgroup (a list adds them up). */
static unsigned int parse_synth(const char *s, const struct option *opts)
{
	unsigned int m = 0;
	char *copy = strdup(s), *save = NULL, *t;

	if (!copy)
		cli_die("out of memory");
	if (!*s || strstr(s, ",,") || *s == ',' || s[strlen(s) - 1] == ',')
		usage_error(record_usage, opts,
			    "--synth: an empty item in '%s' (no, all, task, mmap or cgroup)", s);
	for (t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (!strcmp(t, "no"))
			m = 0;
		else if (!strcmp(t, "all"))
			m = SYNTH_ALL;
		else if (!strcmp(t, "task"))
			m |= SYNTH_TASK;
		else if (!strcmp(t, "mmap"))
			m |=
			    SYNTH_TASK | SYNTH_MMAP; /* maps belong to tasks: perf describes both */
		else if (!strcmp(t, "cgroup"))
			m |= SYNTH_CGROUP;
		else
			usage_error(record_usage, opts,
				    "--synth: unknown '%s' (no, all, task, mmap or cgroup)", t);
	}
	free(copy);
	return m;
}

/* ---- event setup -------------------------------------------------------- */

static bool is_tracepoint(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_TRACEPOINT;
}

/* Applied by the session to every event before it is opened. */
static int configure(struct perf_event_attr *a, size_t ev, void *ctx)
{
	struct rec *rc = ctx;
	const struct rec_opts *o = rc->o;
	struct perfev_event_info info = {.sz = sizeof(info)}, lead = {.sz = sizeof(lead)};
	size_t nev = perfev_evspec_count(rc->spec);
	bool leader_sampling, is_leader;

	if (perfev_evspec_info(rc->spec, ev, &info) ||
	    perfev_evspec_info(rc->spec, (size_t)info.leader, &lead))
		return -EINVAL;
	is_leader = info.leader == (int)ev;
	leader_sampling = (lead.flags & PERFEV_EVF_SAMPLE_READ) && lead.group_size > 1;

	a->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	/* The string's time=0 drops the timestamps, as in perf. */
	if ((info.terms_set & PERFEV_TERM_TIME) && !(info.attr->sample_type & PERF_SAMPLE_TIME))
		a->sample_type &= ~(uint64_t)PERF_SAMPLE_TIME;
	if (nev > 1)
		a->sample_type |= PERF_SAMPLE_IDENTIFIER;
	/*
	 * The string's call-graph= or max-stack= replaces -g and --call-graph
	 * for the event (the parser set its bits); with dwarf perf also samples
	 * data addresses.  Its stack-size= alone sizes the dump of --call-graph
	 * dwarf.
	 */
	if (info.terms_set & (PERFEV_TERM_CALLGRAPH | PERFEV_TERM_MAX_STACK)) {
		if (info.callgraph == PERFEV_CALLGRAPH_DWARF) {
			a->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
			a->mmap_data |= ev == 0;
		}
	} else if (o->cg_mode != PERFEV_CALLGRAPH_DEFAULT) {
		int err = perfev_attr_set_callgraph(
		    a, o->cg_mode,
		    info.terms_set & PERFEV_TERM_STACK_SIZE ? info.stack_size : o->cg_stack);

		if (err)
			return err;
	}
	if (o->sample_cpu || o->all_cpus || o->cpu_list || is_tracepoint(a) || o->raw)
		a->sample_type |= PERF_SAMPLE_CPU;
	if (is_tracepoint(a) || o->raw)
		a->sample_type |= PERF_SAMPLE_RAW;
	if (o->data_addr) {
		a->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
		a->mmap_data |= ev == 0;
	}
	if (o->phys_data)
		a->sample_type |= PERF_SAMPLE_PHYS_ADDR;
	if (o->all_cgroups)
		a->sample_type |= PERF_SAMPLE_CGROUP;
	if (o->branch_type) {
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = o->branch_type;
	}
	if (o->weight)
		a->sample_type |= PERFEV_SAMPLE_WEIGHT_STRUCT;
	if (o->data_page_size)
		a->sample_type |= PERF_SAMPLE_DATA_PAGE_SIZE;
	if (o->code_page_size)
		a->sample_type |= PERF_SAMPLE_CODE_PAGE_SIZE;
	if (o->sample_identifier)
		a->sample_type |= PERF_SAMPLE_IDENTIFIER;
	if (o->regs_user) {
		a->sample_type |= PERF_SAMPLE_REGS_USER;
		a->sample_regs_user |= o->regs_user;
	}
	if (o->regs_intr) {
		a->sample_type |= PERF_SAMPLE_REGS_INTR;
		a->sample_regs_intr = o->regs_intr;
	}
	if (o->clock >= 0) {
		a->use_clockid = 1;
		a->clockid = o->clock;
	}
	if (o->inherit_stat)
		a->inherit_stat = 1;
	/* As perf: the one level asked for, whatever the event's modifiers said. */
	cli_attr_levels(a, o->all_user, o->all_kernel);
	/* The string's inherit or no-inherit overrides the target's choice. */
	if (info.terms_set & PERFEV_TERM_INHERIT)
		a->inherit = info.attr->inherit;
	a->read_format =
	    PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	a->sample_id_all = 1;
	a->write_backward = o->overwrite;
	/*
	 * Wake the reader when a quarter of the ring is full rather than the
	 * kernel's half: more room left for bursts while it drains.
	 */
	if (!o->overwrite) {
		a->watermark = 1;
		a->wakeup_watermark =
		    (uint32_t)(rc->data_pages * (size_t)sysconf(_SC_PAGESIZE) / 4);
	}

	/*
	 * How often: the string's own period= or freq=, else -c, -F, or the
	 * event's own period (every hit of a tracepoint or a breakpoint).
	 */
	cli_attr_set_rate(a, &info, o->count, o->freq != NULL, rc->freq);
	/* As perf: each sample carries its period when it varies, and always for tracepoints. */
	if (a->freq || is_tracepoint(a) || o->period)
		a->sample_type |= PERF_SAMPLE_PERIOD;
	else
		a->sample_type &= ~(uint64_t)PERF_SAMPLE_PERIOD;
	if (leader_sampling) {
		/* :S: the leader's samples read the whole group; members only count. */
		a->sample_type |= PERF_SAMPLE_READ;
		if (is_leader) {
			a->read_format |= PERF_FORMAT_GROUP;
		} else {
			a->freq = 0;
			a->sample_period = 0;
		}
		/* The kernel cannot read the group of an inherited sample. */
		a->inherit = 0;
	}
	/* -n: the events count, nothing is sampled. */
	if (o->no_samples)
		a->sample_period = 0;
	/* --per-thread: one task per ring, nothing to put in time order (perf drops the times). */
	if (o->per_thread) {
		a->inherit = 0;
		if (!o->timestamp)
			a->sample_type &= ~(uint64_t)PERF_SAMPLE_TIME;
	}
	/*
	 * -D: the events wait, disabled, for the delay to pass; a dummy event
	 * added last follows the command's exec and mappings meanwhile, or
	 * those of the processes or CPUs from the start.
	 */
	if (o->delay_ms > 0 && ev + 1 == nev) {
		a->sample_type = (a->sample_type & PERF_SAMPLE_CPU) | PERF_SAMPLE_IP |
				 PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_IDENTIFIER;
		a->freq = 0;
		a->sample_period = 1;
		a->read_format = PERF_FORMAT_ID;
		a->exclude_user = a->exclude_kernel = a->exclude_hv = 0;
		a->exclude_guest = 0;
		if (rc->ct.t.kind != PERFEV_TARGET_COMMAND)
			a->disabled = 0;
	} else if (o->delay_ms > 0) {
		a->disabled = 1;
		a->enable_on_exec = 0;
	}
	/* The first event (the dummy of -D) also reports what samples need to be understood. */
	if (o->delay_ms > 0 ? ev + 1 == nev : ev == 0) {
		a->mmap = a->mmap2 = a->comm = a->comm_exec = a->task = 1;
		a->ksymbol = 1;
		a->build_id = rc->want_build_ids;
		a->context_switch = o->switch_events || o->off_cpu;
		a->namespaces = o->namespaces;
		a->cgroup = o->all_cgroups;
		a->mmap_data |= o->data_addr;
	}
	if (o->off_cpu && ev == rc->offcpu_ev)
		return rec_offcpu_configure(a, !o->all_user);
	return 0;
}

static const char *event_name(struct rec *rc, size_t ev)
{
	return cli_sampled_event_name(rc->s, ev);
}

static void fail_open(struct rec *rc, const struct perfev_session_error *e)
{
	cli_sampling_open_failed(rc->spec, e, "record");
}

static void open_events(struct rec *rc)
{
	struct perfev_session_opts so = {.sz = sizeof(so)};
	struct perfev_session_error se = {.sz = sizeof(se)};
	size_t i, n, usable = 0;
	int err;

	so.sysfs_root = rc->env->sysfs_root;
	so.procfs_root = rc->env->procfs_root;
	so.open_flags = PERF_FLAG_FD_CLOEXEC;
	so.sampling = true;
	/* --per-thread: each thread on cpu -1, with a ring of its own, as perf. */
	so.task_per_cpu = !rc->o->per_thread;
	so.configure = configure;
	so.configure_ctx = rc;
	/* -D on processes or CPUs: the dummy runs from the open, the rest after the delay. */
	so.manual_enable = rc->o->delay_ms > 0 && rc->ct.t.kind != PERFEV_TARGET_COMMAND;
	err = perfev_session_new(rc->spec, &so, &rc->s);
	if (err)
		cli_die("cannot set up recording: %s", perfev_strerror(err));
	err = perfev_session_open(rc->s, &rc->ct.t, &se);
	if (err)
		fail_open(rc, &se);
	n = perfev_session_event_count(rc->s);
	for (i = 0; i < n; i++) {
		const char *note = perfev_session_event_note(rc->s, i);
		bool ok = perfev_session_event_state(rc->s, i) == PERFEV_EVENT_OPEN;

		if (ok)
			usable++;
		if (!ok)
			cli_error("cannot record '%s' here: %s",
				  perfev_session_event_name(rc->s, i),
				  note ? note : "not supported");
		else if (note && !rc->o->quiet)
			cli_error("%s", note);
	}
	if (!usable)
		exit(1);
}

/* ---- rings ----------------------------------------------------------------- */

/*
 * Why a ring could not be mapped.  The kernel refuses (EPERM) a ring past
 * the locked memory of an unprivileged user: perf_event_mlock_kb per CPU
 * for all of the user's rings, then the process's RLIMIT_MEMLOCK.  Root
 * (CAP_IPC_LOCK) is not held to it; ENOMEM is memory that ran out.
 */
/* -v: each event as opened, as perf -vv shows it. */
static void show_attrs(struct rec *rc)
{
	size_t i, n = perfev_session_event_count(rc->s);

	for (i = 0; i < n; i++) {
		if (perfev_session_event_state(rc->s, i) != PERFEV_EVENT_OPEN)
			continue;
		fprintf(stderr, "event '%s':\n", event_name(rc, i));
		attr_print_fields(stderr, perfev_session_event_attr(rc->s, i), "  ", false);
	}
}

static void ring_map_failed(const struct rec *rc, int cpu, pid_t tid, int err)
{
	size_t ps = (size_t)sysconf(_SC_PAGESIZE);
	struct perfev_knobs k = {.sz = sizeof(k)};
	struct rlimit rl = {0};
	char size[32], mlock[32], rlim[32] = "unlimited", who[48];

	ring_size(size, sizeof(size), (uint64_t)rc->data_pages * ps);
	if (tid >= 0)
		snprintf(who, sizeof(who), "thread %d", (int)tid);
	else
		snprintf(who, sizeof(who), "cpu %d", cpu);
	if (err == -ENOMEM)
		cli_die("cannot map a %s ring buffer for %s: out of memory: try -m with fewer "
			"pages",
			size, who);
	if (err != -EPERM)
		cli_die("cannot map the %s ring buffer for %s: %s", size, who,
			perfev_strerror(err));
	if (!getrlimit(RLIMIT_MEMLOCK, &rl) && rl.rlim_cur != RLIM_INFINITY)
		ring_size(rlim, sizeof(rlim), (uint64_t)rl.rlim_cur);
	if (!perfev_knobs_read(rc->env->procfs_root, &k) && k.mlock_kb >= 0)
		ring_size(mlock, sizeof(mlock), (uint64_t)k.mlock_kb * 1024);
	else
		snprintf(mlock, sizeof(mlock), "its value");
	cli_die("cannot map a %s ring buffer for %s: over the limit of locked memory "
		"without CAP_IPC_LOCK, perf_event_mlock_kb (%s per CPU, for all of the user's "
		"rings) and then RLIMIT_MEMLOCK (%s): %s",
		size, who, mlock, rlim,
		geteuid()
		    ? "try -m with fewer pages, raise kernel.perf_event_mlock_kb, or run "
		      "as root"
		    : "try -m with fewer pages, or give perfev CAP_IPC_LOCK (root without it, "
		      "as in a container, is held to the limit)");
}

static void map_rings(struct rec *rc)
{
	struct perfev_ring_opts ro = {.sz = sizeof(ro)};
	size_t ninst = perfev_session_instance_count(rc->s),
	       nev = perfev_session_event_count(rc->s);
	size_t inst, ev, k;

	ro.data_pages = rc->data_pages;
	ro.overwrite = rc->o->overwrite;
	rc->rings = calloc(ninst ? ninst : 1, sizeof(*rc->rings));
	rc->fds = calloc(ninst * nev + 1, sizeof(*rc->fds));
	if (!rc->rings || !rc->fds)
		cli_die("out of memory");
	for (inst = 0; inst < ninst; inst++) {
		int cpu;
		pid_t tid;

		perfev_session_instance(rc->s, inst, &cpu, &tid);
		/* The kernel shares a ring of cpu -1 only within one task. */
		if (!rc->o->per_thread)
			tid = -1;
		for (ev = 0; ev < nev; ev++) {
			int fd = perfev_session_fd(rc->s, ev, inst), err;

			if (fd < 0)
				continue;
			rc->fds[rc->nfds++].fd = fd;
			for (k = 0;
			     k < rc->nrings && (rc->rings[k].cpu != cpu || rc->rings[k].tid != tid);
			     k++)
				;
			if (k < rc->nrings) {
				err = perfev_ring_set_output(rc->rings[k].r, fd);
				if (err)
					cli_die("cannot share the ring buffer of %s %d: %s",
						tid >= 0 ? "thread" : "cpu",
						tid >= 0 ? (int)tid : cpu, perfev_strerror(err));
				continue;
			}
			err = perfev_ring_map(fd, &ro, &rc->rings[k].r);
			if (err)
				ring_map_failed(rc, cpu, tid, err);
			rc->rings[k].cpu = cpu;
			rc->rings[k].tid = tid;
			rc->fds[rc->nfds - 1].ring = &rc->rings[k];
			rc->nrings++;
		}
	}
}

/* A write error: the file and its disk named. */
static void __attribute__((noreturn)) die_write(struct rec *rc, int err)
{
	cli_output_fail(&rc->out, err, NULL);
	exit(1);
}

/* Tracepoint samples are only readable with the formats of their events. */
static void add_tracing_data(struct rec *rc)
{
	size_t nev = perfev_session_event_count(rc->s), ev, n = 0;
	const char **tps = calloc(nev + 1, sizeof(*tps));
	char **names = calloc(nev + 1, sizeof(*names));
	void *data = NULL;
	size_t len = 0;
	int err;

	if (!tps || !names)
		cli_die("out of memory");
	for (ev = 0; ev < nev; ev++) {
		struct perfev_event_info info = {.sz = sizeof(info)};

		if (perfev_session_event_state(rc->s, ev) != PERFEV_EVENT_OPEN ||
		    perfev_session_event_info(rc->s, ev, &info) || !info.tp_system || !info.tp_name)
			continue;
		if (asprintf(&names[n], "%s:%s", info.tp_system, info.tp_name) < 0)
			cli_die("out of memory");
		tps[n] = names[n];
		n++;
	}
	if (n) {
		err = perfev_data_tracing_data(rc->env->tracefs_handle, tps, n, &data, &len);
		if (err)
			cli_die("cannot read the tracepoint formats: %s", perfev_strerror(err));
		err = perfev_data_set_feature(rc->w, PERFEV_FEAT_TRACING_DATA, data, len);
		if (err)
			die_write(rc, err);
	}
	while (n--)
		free(names[n]);
	free(names);
	free(tps);
	free(data);
}

static int cmp_id(const void *a, const void *b)
{
	const struct id_map *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* Declare each event with its ids to the file, and remember which id is whose. */
/*
 * GROUP_DESC, as perf writes it: each group of two events or more whose
 * events were all opened (those that were not have no attr in the file),
 * by the indexes of its attrs, so that reports show the members side by side.
 */
static void add_groups(struct rec *rc)
{
	size_t nev = perfev_session_event_count(rc->s), ev, k, ngroups = 0;
	struct perfev_data_group *groups = calloc(nev + 1, sizeof(*groups));
	uint32_t attr_idx = 0;
	int err;

	if (!groups)
		cli_die("out of memory");
	for (ev = 0; ev < nev; ev++) {
		struct perfev_event_info info = {.sz = sizeof(info)};
		bool all_open = true;

		if (perfev_session_event_state(rc->s, ev) != PERFEV_EVENT_OPEN)
			continue;
		if (!perfev_session_event_info(rc->s, ev, &info) && info.leader == (int)ev &&
		    info.group_size > 1 && ev + (size_t)info.group_size <= nev) {
			for (k = ev; k < ev + (size_t)info.group_size; k++)
				all_open &=
				    perfev_session_event_state(rc->s, k) == PERFEV_EVENT_OPEN;
			if (all_open)
				groups[ngroups++] = (struct perfev_data_group){
				    .name = info.group_name,
				    .leader = attr_idx,
				    .nr_members = (uint32_t)info.group_size,
				};
		}
		attr_idx++;
	}
	err = ngroups ? perfev_data_set_groups(rc->w, groups, ngroups) : 0;
	free(groups);
	if (err)
		die_write(rc, err);
}

/* --off-cpu: the offcpu-time event, declared after those recorded. */
static void add_offcpu(struct rec *rc)
{
	int err;

	/* Its samples carry an id no event of the recording has. */
	if (!rc->oc)
		rec_offcpu_start(rc->s, rc->offcpu_ev, rc->ids[rc->nids - 1].id + 1,
				 rc->o->switch_events, &rc->oc);
	err = rec_offcpu_add_attr(rc->oc, rc->w, rc->uw);
	if (err)
		die_write(rc, err);
}

static void add_attrs(struct rec *rc)
{
	size_t nev = perfev_session_event_count(rc->s), ev;
	size_t ninst = perfev_session_instance_count(rc->s);
	uint64_t *ids = calloc(ninst ? ninst : 1, sizeof(*ids));
	bool again = rc->ids != NULL; /* a later file of --switch-output: the attrs only */

	if (!again) {
		rc->ids = calloc(nev * ninst + 1, sizeof(*rc->ids));
		rc->ev_samples = calloc(nev + 1, sizeof(*rc->ev_samples));
	}
	if (!ids || !rc->ids || !rc->ev_samples)
		cli_die("out of memory");
	for (ev = 0; ev < nev; ev++) {
		const struct perf_event_attr *a = perfev_session_event_attr(rc->s, ev);
		int n = 0, err, i;

		if (perfev_session_event_state(rc->s, ev) != PERFEV_EVENT_OPEN)
			continue;
		n = perfev_session_event_ids(rc->s, ev, ids, ninst);
		if (n < 0)
			cli_die("cannot read the id of '%s': %s", event_name(rc, ev),
				perfev_strerror(n));
		for (i = 0; i < n && !again; i++) {
			rc->ids[rc->nids].id = ids[i];
			rc->ids[rc->nids++].ev = ev;
		}
		/* --off-cpu: its samples become offcpu-time's, which the file declares instead. */
		if (rc->o->off_cpu && ev == rc->offcpu_ev)
			continue;
		err = perfev_data_add_attr(rc->w, a, event_name(rc, ev), ids, (size_t)n);
		if (err)
			die_write(rc, err);
		if (rc->uw &&
		    (err = rec_unwind_add_event(rc->uw, a, event_name(rc, ev), ids, (size_t)n)))
			cli_die("cannot unwind the samples of '%s': %s", event_name(rc, ev),
				perfev_strerror(err));
	}
	free(ids);
	if (!again)
		qsort(rc->ids, rc->nids, sizeof(*rc->ids), cmp_id);
	if (rc->o->off_cpu)
		add_offcpu(rc);
	add_groups(rc);
	if (again)
		return;
	if (perfev_sample_layout_init(&rc->layout, perfev_session_event_attr(rc->s, 0)))
		cli_die("cannot decode the samples of '%s'", event_name(rc, 0));
}

static size_t event_of(struct rec *rc, const struct perf_event_header *h)
{
	struct id_map key = {0}, *m;

	if (perfev_session_event_count(rc->s) == 1 ||
	    perfev_record_id(&rc->layout, h, h->size, &key.id))
		return 0;
	m = bsearch(&key, rc->ids, rc->nids, sizeof(*rc->ids), cmp_id);
	return m ? m->ev : 0;
}

static void write_bytes(struct rec *rc, const void *p, size_t n)
{
	int err;

	if (rc->werr)
		return;
	err = perfev_data_write(rc->w, p, n);
	if (err)
		rc->werr = err;
	else
		rc->wrote_in_round = true;
}

/*
 * --max-size, after each read of the rings: what reached the files
 * (compressed with -z).  As perf, the session then stops and what the
 * rings still hold is written.
 */
static bool size_reached(struct rec *rc)
{
	uint64_t total = rc->bytes + perfev_data_written(rc->w);

	if (!rc->o->max_bytes || total < rc->o->max_bytes)
		return false;
	if (!rc->o->quiet)
		cli_error("size limit reached (%" PRIu64 " KB): stopping", total / 1024);
	return true;
}

/* --off-cpu: a sample of offcpu-time, written as the rings' records are. */
static void put_offcpu(const void *rec, size_t len, void *arg)
{
	struct rec *rc = arg;

	rc->samples++;
	rc->records++;
	if (rc->uw) {
		int err = rec_unwind_feed(rc->uw, rec, len);

		if (err && !rc->werr)
			rc->werr = err;
		return;
	}
	write_bytes(rc, rec, len);
}

/* Count and write one record of a ring. */
static int take(const struct perf_event_header *h, void *ctx)
{
	struct rec *rc = ctx;
	uint64_t fixed[1024]; /* an MMAP2 with a path up to PATH_MAX */

	if (rc->oc && rec_offcpu_take(rc->oc, event_of(rc, h), h))
		return 0;
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		rc->samples++;
		rc->ev_samples[event_of(rc, h)]++;
		break;
	case PERF_RECORD_LOST:
		/* header, id, lost */
		if (h->size >= 24)
			rc->lost += perfev_u64_at(h, 2);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (h->size >= 16)
			rc->lost_samples += perfev_u64_at(h, 1);
		break;
	case PERF_RECORD_THROTTLE:
		rc->throttles++;
		break;
	case PERF_RECORD_MMAP2:
		if (rc->want_build_ids)
			build_ids_note(&rc->build_ids, &rc->layout, h);
		else
			/* So that readers trusting the bit (perf) read the file right. */
			h = build_ids_clear_stale(h, fixed, sizeof(fixed));
		break;
	}
	rc->records++;
	if (rc->uw) {
		int err = rec_unwind_feed(rc->uw, h, h->size);

		if (err && !rc->werr)
			rc->werr = err;
		return 0;
	}
	write_bytes(rc, h, h->size);
	return 0;
}

static void drain(struct rec *rc, struct rec_ring *rr)
{
	const struct perf_event_header *h;
	int64_t n = perfev_ring_begin(rr->r);
	int ret;

	if (n >= 0 && rc->in_loop && (uint64_t)n < rc->o->flush_bytes) {
		/* --mmap-flush: too little to read at this wakeup; the end reads it all. */
		perfev_ring_end(rr->r);
		return;
	}
	if (n < 0) {
		cli_error("the ring buffer of cpu %d is corrupt: its records are dropped", rr->cpu);
		perfev_ring_end(rr->r);
		return;
	}
	while ((ret = perfev_ring_next(rr->r, &h)) > 0)
		take(h, rc);
	if (ret < 0)
		cli_error("a record of cpu %d has an impossible size: the rest of that read is "
			  "dropped",
			  rr->cpu);
	perfev_ring_end(rr->r);
}

static void drain_rings(void *arg);

/* perf sorts by time what comes between two of these. */
static void end_round(struct rec *rc)
{
	struct perf_event_header h = {.type = PERFEV_RECORD_FINISHED_ROUND, .size = sizeof(h)};

	if (rc->oc) {
		int err = rec_offcpu_round(rc->oc, put_offcpu, rc);

		if (err && !rc->werr)
			rc->werr = err;
	}
	if (rc->uw) {
		int err = rec_unwind_pump(rc->uw, false, drain_rings, rc);

		if (err && !rc->werr)
			rc->werr = err;
		return;
	}
	if (!rc->wrote_in_round)
		return;
	write_bytes(rc, &h, sizeof(h));
	rc->wrote_in_round = false;
	rc->rounds_written++;
}

/* Read the rings without ending a round: synthesized records have no time. */
static void drain_rings(void *arg)
{
	struct rec *rc = arg;
	size_t i;

	if (rc->o->overwrite)
		return;
	for (i = 0; i < rc->nrings; i++)
		drain(rc, &rc->rings[i]);
}

static void drain_all(struct rec *rc)
{
	drain_rings(rc);
	end_round(rc);
}

/* --overwrite: what the rings hold now, oldest first. */
static void dump_snapshot(struct rec *rc)
{
	uint64_t before = rc->records;
	size_t i;

	for (i = 0; i < rc->nrings; i++) {
		int ret = perfev_ring_snapshot(rc->rings[i].r, take, rc);

		if (ret < 0)
			cli_error("cannot read the ring buffer of cpu %d: %s", rc->rings[i].cpu,
				  perfev_strerror(ret));
	}
	end_round(rc);
	if (!rc->o->quiet)
		cli_error("wrote the last %" PRIu64 " records of the ring buffers",
			  rc->records - before);
}

/* ---- the run -------------------------------------------------------------- */

static bool kernel_samples_possible(struct rec *rc)
{
	return cli_kernel_samples_possible(rc->s);
}

static void synthesize(struct rec *rc)
{
	struct synth_ctx sc = {.layout = &rc->layout, .w = rc->w, .uw = rc->uw};

	/* System-wide, the events already run: a ring must not fill meanwhile. */
	sc.between = drain_rings;
	sc.between_arg = rc;

	sc.procfs_root = rc->env->procfs_root ?: "/proc";
	sc.data_maps = rc->o->data_addr;
	sc.no_maps = !(rc->o->synth_mask & SYNTH_MMAP);
	sc.namespaces = rc->o->namespaces;
	if (rc->want_build_ids)
		sc.build_ids = &rc->build_ids;
	/* Before the tasks, as perf: a sample's cgroup id is named by these. */
	if (rc->o->all_cgroups && (rc->o->synth_mask & SYNTH_CGROUP))
		synth_cgroups(&sc);
	/* The kernel's map whatever --synth says, as perf. */
	if (kernel_samples_possible(rc))
		synth_kernel(&sc);
	/* --synth=no or cgroup alone: nothing of the tasks. */
	switch (rc->o->synth_mask & SYNTH_TASK ? (int)rc->ct.t.kind : -1) {
	case PERFEV_TARGET_PID:
		synth_process(&sc, rc->ct.t.pid);
		break;
	case PERFEV_TARGET_THREADS:
		synth_threads(&sc, rc->ct.t.tids, rc->ct.t.ntids);
		break;
	case PERFEV_TARGET_CPUS:
	case PERFEV_TARGET_CGROUP:
		synth_all_processes(&sc);
		break;
	case PERFEV_TARGET_COMMAND:
		/* A command reports its own exec and mappings, but not again in a new file. */
		if (rc->nswitches && rc->child && !rc->child_done)
			synth_process(&sc, rc->child);
		else
			synth_command(&sc, rc->child);
		break;
	default:
		break;
	}
	if (sc.err && !rc->werr)
		rc->werr = sc.err;
	if (sc.records)
		rc->wrote_in_round = true;
}

static pid_t spawn(char *const *argv, const sigset_t *orig)
{
	pid_t pid = fork();

	if (pid == 0) {
		sigprocmask(SIG_SETMASK, orig, NULL);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: cannot run '%s': %s\n", cli_prog, argv[0],
			cli_exec_error(errno));
		_exit(127);
	}
	return pid;
}

static void reap(struct rec *rc, int flags)
{
	int status;
	pid_t p;

	if (!rc->child || rc->child_done)
		return;
	do
		p = waitpid(rc->child, &status, flags);
	while (p < 0 && errno == EINTR);
	if (p == rc->child) {
		rc->child_status = status;
		rc->child_done = true;
	}
}

static void switch_output(struct rec *rc);
static double now_s(void);

/* How long a wait for the rings may last: forever, unless an option needs a look. */
static int poll_timeout(const struct rec *rc)
{
	double left;

	if (rc->o->switch_secs) {
		left = rc->next_switch - now_s();
		left = left < 0 ? 0 : left * 1000 + 1;
		return rc->o->max_bytes && left > 100 ? 100 : (int)left;
	}
	/* --max-size and --switch-output=SIZE: the rings are read every 100 ms to see the size. */
	return rc->o->max_bytes || rc->o->switch_bytes ? 100 : -1;
}

static bool switch_due(struct rec *rc)
{
	if (rc->o->switch_bytes && perfev_data_written(rc->w) >= rc->o->switch_bytes)
		return true;
	if (rc->o->switch_secs && now_s() >= rc->next_switch)
		return true;
	return rc->want_switch;
}

enum { TAG_SIGNAL = 1, TAG_PIDFD = 2 };
static char tags[3];

/* Until the command ends, the process exits, or a signal says stop. */
static void loop(struct rec *rc)
{
	struct perfev_poll_event evs[64];
	bool stop = false, ready;
	int i, n;

	while (!stop && !rc->werr) {
		ready = false;
		n = perfev_poller_wait(rc->poller, evs, 64, poll_timeout(rc));
		ready = n == 0;
		if (n == -EINTR)
			continue;
		if (n < 0) {
			/* What was recorded until now is still written to the file. */
			cli_error("cannot wait for samples: %s", perfev_strerror(n));
			rc->failed = true;
			break;
		}
		for (i = 0; i < n; i++) {
			void *d = evs[i].data;

			if (d == &tags[TAG_SIGNAL]) {
				struct signalfd_siginfo si;

				while (read(rc->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
					if (si.ssi_signo == SIGCHLD) {
						reap(rc, WNOHANG);
						stop |= rc->child_done;
					} else if (si.ssi_signo == SIGUSR2) {
						if (rc->o->overwrite)
							dump_snapshot(rc);
						rc->want_switch |= rc->o->switch_signal;
					} else {
						stop = true;
					}
				}
			} else if (d == &tags[TAG_PIDFD]) {
				stop = true;
			} else {
				struct rec_fd *f = d;

				/*
				 * Any of a shared ring's descriptors may be the one
				 * that says it is ready: the kernel tells it once, to
				 * the first it is asked for (the ring's poll state is
				 * taken by that poll), and that may be an event that
				 * writes into another's ring.
				 */
				ready = true;
				if (evs[i].hangup && !f->hung_up) {
					/* Its task has exited: it has nothing more to say. */
					f->hung_up = true;
					perfev_poller_del(rc->poller, f->fd);
					rc->nhup++;
				}
			}
		}
		/*
		 * A ring that woke us: every ring is read, then the round ends.  A
		 * round of some rings only would let the records another one
		 * holds (the exec's COMM and MMAP2, with few samples of its CPU)
		 * come after later ones of the first: perf's sort by rounds then
		 * meets samples before the process and maps they belong to.
		 */
		rc->in_loop = true;
		if (ready && !rc->o->overwrite)
			drain_all(rc);
		else if (!rc->o->overwrite)
			end_round(rc);
		rc->in_loop = false;
		stop |= size_reached(rc);
		if (!stop && switch_due(rc))
			switch_output(rc);
		/* Threads given with -t: done when every one of them has exited. */
		if (rc->ct.t.kind == PERFEV_TARGET_THREADS && rc->nhup == rc->nfds)
			stop = true;
	}
}

/* ---- the end -------------------------------------------------------------- */

static void print_size(FILE *f, uint64_t bytes)
{
	if (bytes >= 10ULL << 20)
		fprintf(f, "%.1f MiB", (double)bytes / (1 << 20));
	else
		fprintf(f, "%.1f KiB", (double)bytes / 1024);
}

/*
 * Samples per second of the time each event ran: what the kernel
 * actually delivered, which it lowers (perf_event_max_sample_rate,
 * throttling) when sampling costs too much.
 */
static void report_rates(struct rec *rc, uint64_t max_rate_before)
{
	size_t ev, n = perfev_session_event_count(rc->s);
	uint64_t max_rate_after = max_sample_rate(rc->env);
	bool low = false;

	/* A flight recorder drops old samples on purpose: no rate to judge. */
	if (rc->o->overwrite || perfev_session_read(rc->s))
		return;
	for (ev = 0; ev < n; ev++) {
		const struct perf_event_attr *a = perfev_session_event_attr(rc->s, ev);
		struct perfev_count c = {0};
		double secs, rate;

		if (perfev_session_event_state(rc->s, ev) != PERFEV_EVENT_OPEN || !a->freq ||
		    perfev_session_count(rc->s, ev, PERFEV_AGGR_GLOBAL, 0, &c) || !c.running)
			continue;
		secs = (double)c.running / 1e9;
		rate = (double)rc->ev_samples[ev] / secs;
		if (!rc->o->quiet)
			fprintf(stderr,
				"[ perfev record: '%s': %" PRIu64 " samples in %.3f s of running "
				"time: %.0f Hz (asked %" PRIu64 " Hz) ]\n",
				event_name(rc, ev), rc->ev_samples[ev], secs, rate,
				(uint64_t)a->sample_freq);
		/* Short runs end between two samples: judge only with enough of them. */
		if (secs >= 0.05 && rc->ev_samples[ev] >= 20 && rate < 0.9 * (double)a->sample_freq)
			low = true;
	}
	if (max_rate_after && max_rate_before && max_rate_after < max_rate_before)
		cli_error("warning: the kernel lowered perf_event_max_sample_rate from %" PRIu64
			  " to %" PRIu64 " Hz during the recording: sampling took too long "
			  "(see perf_cpu_time_max_percent)",
			  max_rate_before, max_rate_after);
	if (rc->o->quiet)
		return;
	if (rc->throttles)
		cli_error("warning: the kernel throttled sampling %" PRIu64
			  " times: the effective rate is lower than asked",
			  rc->throttles);
	else if (low && !rc->lost && !rc->lost_samples)
		cli_error("warning: fewer samples than the frequency asked: the kernel could not "
			  "keep up (or the time ran was mostly in short slices)");
}

/* --unwind: how the stacks unwound, and what was kept as recorded. */
static void unwind_summary(struct rec *rc)
{
	struct rec_unwind_stats st;
	uint64_t early = 0;
	int i;

	rec_unwind_stats(rc->uw, &st);
	fprintf(stderr, "[ perfev record: %" PRIu64 " stacks unwound (%.1f frames each)",
		st.unwound, st.unwound ? (double)st.frames / (double)st.unwound : 0.0);
	for (i = 0; i < PERFEV_UNWIND_NR_STOPS; i++)
		early += i == PERFEV_UNWIND_END ? 0 : st.stopped[i];
	if (early) {
		const char *sep = "";

		fprintf(stderr, ", %" PRIu64 " stopped early:", early);
		for (i = 0; i < PERFEV_UNWIND_NR_STOPS; i++) {
			if (i == PERFEV_UNWIND_END || !st.stopped[i])
				continue;
			fprintf(stderr, "%s %" PRIu64 " %s", sep, st.stopped[i],
				perfev_unwind_stop_name((enum perfev_unwind_stop)i));
			sep = ",";
		}
	}
	fputs(" ]\n", stderr);
	if (st.kept_raw)
		cli_error(
		    "warning: the unwinder fell behind: %" PRIu64 " samples were written "
		    "with their stack copies, which perf and perfev unwind when they read them",
		    st.kept_raw);
	if (st.failed)
		cli_error("warning: %" PRIu64 " samples could not be stored unwound and were "
			  "written as recorded",
			  st.failed);
}

static void summary(struct rec *rc, double secs)
{
	uint64_t plain, packed;
	FILE *f = stderr;

	if (rc->o->quiet)
		return;
	if (rc->nswitches) {
		fprintf(f, "[ perfev record: %" PRIu64 " samples written to %u files (",
			rc->samples, rc->nswitches + 1);
		print_size(f, rc->bytes + perfev_data_written(rc->w));
	} else {
		fprintf(f, "[ perfev record: %" PRIu64 " samples written to '%s' (", rc->samples,
			rc->path);
		print_size(f, perfev_data_written(rc->w));
		if (!perfev_data_compression(rc->w, &plain, &packed) && packed)
			fprintf(f, ", records compressed %.1f times",
				(double)plain / (double)packed);
	}
	fprintf(f, ") in %.3f s; %" PRIu64 " lost, %" PRIu64 " throttled ]\n", secs,
		rc->lost + rc->lost_samples, rc->throttles);
	if (rc->lost)
		cli_error("warning: %" PRIu64 " samples were lost because the ring buffer was "
			  "full: use a larger -m or a lower -F",
			  rc->lost);
	if (rc->uw)
		unwind_summary(rc);
	if (rc->oc)
		rec_offcpu_summary(rc->oc, f);
}

/* The file could not be written to the end (a full disk): say what is left of it. */
static void __attribute__((noreturn)) fail_finish(struct rec *rc, int err)
{
	struct perfev_data_reader *r;
	bool kept = strcmp(rc->path, "-") && !perfev_data_open_fd(rc->out.fd, NULL, &r);

	if (kept)
		perfev_data_close(r);
	cli_output_fail(
	    &rc->out, err,
	    kept ? "the records written before it are kept, and perf and perfev read them" : NULL);
	perfev_data_writer_free(rc->w);
	/* A file no one can read is not put in place. */
	if (kept)
		cli_output_close(&rc->out);
	else
		cli_output_discard(&rc->out);
	exit(1);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void null_stdout(void)
{
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
		cli_die("cannot set the command's standard output aside: %s",
			perfev_strerror(-errno));
	close(fd);
}

/* Whether descriptors @a and @b write to the same regular file. */
static bool same_file(int a, int b)
{
	struct stat sa, sb;

	return !fstat(a, &sa) && !fstat(b, &sb) && S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

static void create_output(struct rec *rc, const char **argv, int argc)
{
	struct perfev_data_write_opts wo = {.sz = sizeof(wo)};
	char **cmdline;
	int err, i;

	rc->path = rc->o->output ? rc->o->output : "perf.data";
	if (!strcmp(rc->path, "-")) {
		/*
		 * The stream is standard output: it moves to a descriptor of its
		 * own, and standard output becomes standard error before the
		 * command is started, as perf does, so that what the command
		 * prints never enters the stream.
		 */
		memset(&rc->out, 0, sizeof(rc->out));
		rc->out.path = rc->path;
		rc->out.fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
		if (rc->out.fd < 0)
			cli_die("cannot write to standard output: %s", perfev_strerror(-errno));
		/* No standard error: the command's output goes nowhere. */
		if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			null_stdout();
		wo.pipe = true;
	} else if (cli_output_open(&rc->out, rc->path, NULL, 0600,
				   CLI_OUT_KEEP_OLD | CLI_OUT_SEEKABLE)) {
		exit(1);
	} else if (same_file(rc->out.fd, STDOUT_FILENO)) {
		/* "-o /dev/stdout >x.data": what the command prints must not enter the file either.
		 */
		if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			null_stdout();
	}
	wo.fd = rc->out.fd;
	wo.compress_level = rc->o->zlevel;
	err = perfev_data_create(NULL, &wo, &rc->w);
	if (err)
		die_write(rc, err);
	cmdline = calloc((size_t)argc + 2, sizeof(*cmdline));
	if (!cmdline)
		cli_die("out of memory");
	cmdline[0] = (char *)"perfev";
	for (i = 0; i < argc; i++)
		cmdline[i + 1] = (char *)argv[i];
	err = perfev_data_set_host_features(rc->w, cmdline);
	free(cmdline);
	/* -k: where sample times are in the day, as perf's header says. */
	if (!err && rc->o->clock >= 0)
		err = perfev_data_set_clock(rc->w, &rc->o->clock_ref);
	if (err)
		die_write(rc, err);
}

static void parse_events(struct rec *rc, const struct rec_opts *o)
{
	struct perfev_parse_opts pa = {.sz = sizeof(pa)};
	int i;

	pa.pmus = rc->env->pmus;
	pa.tracefs = rc->env->tracefs_handle;
	pa.tracefs_error = rc->env->tracefs_error;
	if (perfev_evspec_new(&rc->spec))
		cli_die("out of memory");
	if (o->group && o->events.n > 0) {
		/* --group: every event of the command line in one group, as {e1,e2,...}. */
		struct perfev_parse_error pe = {.sz = sizeof(pe)};
		char *all = cli_events_grouped(&o->events);

		if (perfev_evspec_add(rc->spec, all, &pa, &pe)) {
			cli_parse_error(all, &pe);
			exit(1);
		}
		free(all);
	}
	for (i = 0; !(o->group && o->events.n) && i < (o->events.n ? o->events.n : 1); i++) {
		struct perfev_parse_error pe = {.sz = sizeof(pe)};
		/* perf's default: cycles at the best precision, cpu-clock without hardware. */
		const char *str = o->events.n ? o->events.items[i] : "cycles:P";

		if (perfev_evspec_add(rc->spec, str, &pa, &pe)) {
			cli_parse_error(str, &pe);
			exit(1);
		}
	}
	if (o->off_cpu)
		rc->offcpu_ev = rec_offcpu_add_event(rc->spec, &pa);
	if (o->delay_ms > 0) {
		struct perfev_parse_error pe = {.sz = sizeof(pe)};

		if (perfev_evspec_add(rc->spec, "dummy", &pa, &pe)) {
			cli_parse_error("dummy", &pe);
			exit(1);
		}
	}
	/* All events of a CPU share one ring, so they share its mode. */
	for (i = 0; i < (int)perfev_evspec_count(rc->spec); i++) {
		struct perfev_event_info info = {.sz = sizeof(info)};

		if (!perfev_evspec_info(rc->spec, (size_t)i, &info) &&
		    (info.terms_set & PERFEV_TERM_OVERWRITE) &&
		    info.attr->write_backward != o->overwrite)
			cli_die("'%s': %s (the events of a recording share each CPU's ring "
				"buffer, and so its mode)",
				info.name,
				o->overwrite ? "the no-overwrite term contradicts --overwrite"
					     : "the overwrite term needs --overwrite");
	}
}

/*
 * --call-graph fp, dwarf[,SIZE] or lbr.  SIZE: the user stack bytes each
 * sample copies, decimal or 0x hex, rounded up to a multiple of 8 as perf
 * does.  As in perf, dwarf also samples data addresses (-d), even where a
 * later --call-graph changes the mode.
 */
static void parse_call_graph(struct rec_opts *o, const char *s, const struct option *opts)
{
	cli_parse_call_graph(s, &o->cg_mode, &o->cg_stack, record_usage, opts);
	if (o->cg_mode == PERFEV_CALLGRAPH_DWARF)
		o->data_addr = true;
}

/* Is there a PMU that traces into an AUX area (what --aux-sample and -S need)? */
static const char *aux_pmu(void)
{
	static const char *const names[] = {"intel_pt", "intel_bts", "cs_etm", "arm_spe_0"};
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s", names[i]);
		if (!access(path, F_OK))
			return names[i];
	}
	return NULL;
}

/* Does the -j list name privilege levels (u, k, hv) only? */
static bool levels_only(const char *s)
{
	while (*s) {
		size_t n = strcspn(s, ",");

		if (!((n == 1 && (*s == 'u' || *s == 'U' || *s == 'k' || *s == 'K')) ||
		      (n == 2 && !strncasecmp(s, "hv", 2))))
			return false;
		s += n + (s[n] == ',');
	}
	return true;
}

static void check_attr_options(struct rec_opts *o, const struct option *opts)
{
	const char *bad;
	size_t bad_len;
	unsigned long long v;

	if (o->branch_any && o->branch_filter)
		usage_error(record_usage, opts, "give -b or -j, not both (-b is -j any)");
	if (o->branch_any)
		o->branch_type = PERF_SAMPLE_BRANCH_ANY;
	if (o->branch_filter && perfev_branch_type_parse(o->branch_filter, &o->branch_type))
		usage_error(record_usage, opts,
			    "unknown branch filter in -j %s: give a comma list of u, k, hv, any, "
			    "any_call, any_ret, ind_call, ind_jmp, call, cond, abort_tx, in_tx, "
			    "no_tx, save_type, stack, priv",
			    o->branch_filter);
	/* perf's -j (not its branch_type= term): levels alone are any branch, without them. */
	if (o->branch_filter && levels_only(o->branch_filter))
		o->branch_type = PERF_SAMPLE_BRANCH_ANY;
	for (int intr = 0; intr < 2; intr++) {
		const char *s = intr ? o->intr_regs : o->user_regs;

		if (!s)
			continue;
		if (!strcmp(s, "?")) {
			rec_regs_list(stdout, intr);
			exit(cli_finish(0));
		}
		if (rec_regs_mask(s, intr, intr ? &o->regs_intr : &o->regs_user, &bad, &bad_len)) {
			fprintf(stderr, "%s: unknown register '%.*s' in --%s-regs; ", cli_prog,
				(int)bad_len, bad, intr ? "intr" : "user");
			rec_regs_list(stderr, intr);
			exit(2);
		}
	}
	o->clock = -1;
	if (o->clockid && perfev_clockid_parse(o->clockid, &o->clock))
		usage_error(record_usage, opts,
			    "unknown clock '%s' for -k: monotonic, monotonic_raw, realtime, "
			    "boottime, tai (or CLOCK_..., or a number)",
			    o->clockid);
	if (o->clock >= 0 && rec_clock_ref(o->clock, &o->clock_ref))
		usage_error(record_usage, opts,
			    "cannot use clock %d of -k '%s': this kernel has no such clock (give "
			    "monotonic, monotonic_raw, realtime, boottime or tai)",
			    o->clock, o->clockid);
	if (o->delay) {
		if (!strcmp(o->delay, "-1"))
			usage_error(record_usage, opts,
				    "-D -1 starts disabled until a control command enables the "
				    "events, and perfev record has no control channel: give a "
				    "delay in milliseconds");
		if (opt_parse_unsigned(o->delay, INT_MAX, &v, NULL))
			usage_error(
			    record_usage, opts,
			    "-D expects milliseconds, 0 to %d (or -1, which perfev refuses), "
			    "not '%s'",
			    INT_MAX, o->delay);
		o->delay_ms = (int)v;
	}
	if (o->all_user && o->all_kernel)
		usage_error(record_usage, opts, "give --all-user or --all-kernel, not both");
	if (o->compress) {
		/* perf clamps a level out of range (and reads "abc" as 1): refused here. */
		if (!*o->compress)
			o->zlevel = 1;
		else if (opt_parse_unsigned(o->compress, 22, &v, NULL) || !v)
			usage_error(record_usage, opts,
				    "-z/--compression-level expects a zstd level from 1 to 22, "
				    "not '%s'",
				    o->compress);
		else
			o->zlevel = (int)v;
	}
	if (o->aux_sample || o->snapshot) {
		const char *pmu = aux_pmu();

		if (!pmu)
			cli_die("%s needs a PMU that traces into an AUX area (intel_pt, "
				"intel_bts, cs_etm, arm_spe), and this machine has none",
				o->aux_sample ? "--aux-sample" : "-S/--snapshot");
		cli_die("%s: perfev does not drive %s's AUX area yet",
			o->aux_sample ? "--aux-sample" : "-S/--snapshot", pmu);
	}
}

/* ---- -D ------------------------------------------------------------------- */

struct delay {
	struct perfev_session *s;
	int ms;
	pthread_t thread;
	bool running;
};

static void *delay_enable(void *arg)
{
	struct delay *d = arg;
	struct timespec ts = {d->ms / 1000, (long)(d->ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	perfev_session_enable(d->s);
	return NULL;
}

static void delay_start(struct delay *d, struct perfev_session *s, int ms)
{
	d->s = s;
	d->ms = ms;
	d->running = !pthread_create(&d->thread, NULL, delay_enable, d);
	if (!d->running)
		perfev_session_enable(s);
}

/* The recording ends: a delay still running never enables. */
static void delay_stop(struct delay *d)
{
	if (!d->running)
		return;
	pthread_cancel(d->thread);
	pthread_join(d->thread, NULL);
	d->running = false;
}

/* --timestamp-filename: perf's name for the file, FILE.YYYYmmddHHMMSScc, at the end. */
/* The file's new name (to free), NULL when it stays where it is. */
static char *rename_timestamped(struct rec *rc)
{
	struct timespec ts, pause = {.tv_nsec = 2000000};
	struct tm tm;
	char stamp[32], *to = NULL;
	int tries = 0, err;

	struct stat st;

	if (!strcmp(rc->path, "-"))
		return NULL;
	/* A device or a FIFO written in place keeps its name (never rename /dev/null). */
	if (lstat(rc->path, &st) || !S_ISREG(st.st_mode)) {
		cli_error("'%s' is not a regular file: not renamed with its time", rc->path);
		return NULL;
	}
	do {
		/*
		 * Two files of --switch-output in one hundredth of a second would
		 * have one name: never replace a file, wait for the next name.
		 */
		if (tries)
			nanosleep(&pause, NULL);
		free(to);
		clock_gettime(CLOCK_REALTIME, &ts);
		localtime_r(&ts.tv_sec, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%d%H%M%S", &tm);
		if (asprintf(&to, "%s.%s%02ld", rc->path, stamp, ts.tv_nsec / 10000000L) < 0)
			cli_die("out of memory");
		err = renameat2(AT_FDCWD, rc->path, AT_FDCWD, to, RENAME_NOREPLACE) ? errno : 0;
		/* A filesystem without RENAME_NOREPLACE: the name is checked first instead. */
		if (err == EINVAL && access(to, F_OK) && errno == ENOENT)
			err = rename(rc->path, to) ? errno : 0;
		else if (err == EINVAL)
			err = EEXIST;
	} while (err == EEXIST && ++tries < 100);
	if (err) {
		cli_error("cannot rename '%s' to '%s': %s (the recording stays in '%s')", rc->path,
			  to, strerror(err), rc->path);
		free(to);
		return NULL;
	}
	if (!rc->o->quiet && !rc->o->push)
		fprintf(stderr, "[ perfev record: Dump %s ]\n", to);
	return to;
}

/* --switch-max-files: the oldest files go once there are more. */
static void note_dumped(struct rec *rc, char *name)
{
	size_t max = (size_t)rc->o->switch_max_files;

	if (!name)
		return;
	if (perfev__grow(&rc->dumped, &rc->dumped_cap, rc->ndumped + 1, sizeof(*rc->dumped)))
		cli_die("out of memory");
	rc->dumped[rc->ndumped++] = name;
	while (max && rc->ndumped > max) {
		if (unlink(rc->dumped[0]) && errno != ENOENT)
			cli_error("cannot remove '%s': %s", rc->dumped[0], strerror(errno));
		free(rc->dumped[0]);
		memmove(rc->dumped, rc->dumped + 1, --rc->ndumped * sizeof(*rc->dumped));
	}
}

/* A file is complete under its time's name: kept (--switch-output), or pushed (--push). */
static void window_done(struct rec *rc)
{
	char *name = rename_timestamped(rc);

	if (!rc->push) {
		note_dumped(rc, name);
		return;
	}
	rec_push_window(rc->push, name);
	free(name);
}

/*
 * --switch-output: the file is completed and renamed with its time, and
 * the recording goes on in a new one that describes the tasks again.
 */
static void switch_output(struct rec *rc)
{
	int err;

	rc->want_switch = false;
	drain_all(rc);
	err = rc->werr
		  ?: rc->o->no_buildid
		     ? 0
		     : build_ids_write(&rc->build_ids, rc->w, kernel_samples_possible(rc));
	err = perfev_data_finish(rc->w) ?: err;
	if (err)
		fail_finish(rc, err);
	rc->bytes += perfev_data_written(rc->w);
	perfev_data_writer_free(rc->w);
	rc->w = NULL;
	if (cli_output_close(&rc->out))
		exit(1);
	window_done(rc);

	create_output(rc, rc->argv, rc->argc);
	add_attrs(rc);
	add_tracing_data(rc);
	rc->nswitches++;
	synthesize(rc);
	end_round(rc);
	if (rc->o->switch_secs)
		rc->next_switch = now_s() + rc->o->switch_secs;
}

/* --push: windows of --window seconds, cut as --switch-output=TIME cuts files. */
static void check_push(struct rec_opts *o, const struct option *opts)
{
	unsigned long long v;
	const char *end;

	if (o->switch_output)
		usage_error(record_usage, opts,
			    "--push cuts its own windows: not with --switch-output");
	if (o->output && !strcmp(o->output, "-"))
		usage_error(record_usage, opts, "--push records windows into files: not with -o -");
	if (o->overwrite || o->unwind)
		usage_error(record_usage, opts, "--push does not go with %s",
			    o->overwrite ? "--overwrite" : "--unwind");
	if (opt_parse_unsigned(o->push_window ? o->push_window : "10", 86400, &v, &end) || !v ||
	    (*end && strcmp(end, "s")))
		usage_error(record_usage, opts,
			    "--window expects whole seconds from 1 to 86400, not '%s'",
			    o->push_window);
	o->switch_secs = (double)v;
	o->timestamp_filename = true;
}

static void check_options(struct rec_opts *o, const struct option *opts)
{
	if (o->count > INT64_MAX)
		usage_error(record_usage, opts,
			    "-c %" PRIu64 " is past the largest period, 2^63 - 1 events", o->count);
	if (o->count && o->freq)
		usage_error(record_usage, opts, "give -c (a period) or -F (a frequency), not both");
	if (o->callchain)
		o->cg_mode = PERFEV_CALLGRAPH_FP;
	/* The last --call-graph wins, whatever -g says. */
	for (int i = 0; i < o->call_graphs.n; i++)
		parse_call_graph(o, o->call_graphs.items[i], opts);
	if (o->unwind && o->cg_mode != PERFEV_CALLGRAPH_DWARF)
		usage_error(record_usage, opts,
			    "--unwind unwinds the stacks --call-graph dwarf copies: give both");
	check_attr_options(o, opts);
	if (o->inherit && o->no_inherit)
		usage_error(record_usage, opts, "give --inherit or -i/--no-inherit, not both");
	o->synth_mask = o->synth ? parse_synth(o->synth, opts) : SYNTH_ALL;
	if (o->max_size)
		o->max_bytes = parse_bytes(o->max_size, "--max-size", opts);
	if (o->mmap_flush)
		o->flush_bytes = parse_bytes(o->mmap_flush, "--mmap-flush", opts);
	if (o->threads)
		usage_error(
		    record_usage, opts,
		    "--threads: perfev record reads every ring from one thread and writes one "
		    "file, which perf reads; it has no parallel mode (perfev script and report "
		    "read the directories of perf's)");
	if (o->off_cpu && (o->overwrite || o->no_samples))
		usage_error(record_usage, opts, "%s", rec_offcpu_conflict(o->overwrite));
	/* --off-cpu times the waits: --per-thread keeps the sample times. */
	o->timestamp |= o->off_cpu;
	if (o->push)
		check_push(o, opts);
	else if (o->push_labels || o->push_app || o->push_window || o->push_spool ||
		 o->push_spool_size)
		usage_error(
		    record_usage, opts,
		    "--labels, --app, --window, --spool and --spool-size go with --push URL");
	if (o->switch_output)
		parse_switch_output(o, opts);
	else if (o->switch_max_files)
		usage_error(record_usage, opts, "--switch-max-files goes with --switch-output");
}

static void setup_signals(struct rec *rc, sigset_t *orig)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (!cli_hup_ignored())
		sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, orig);
	rc->sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (rc->sigfd < 0)
		cli_die("cannot watch signals: %s", perfev_strerror(-errno));
	/* A reader of "-o -" that goes away is a write error, not a silent death. */
	signal(SIGPIPE, SIG_IGN);
}

/* More descriptors than the default 1024 for many threads times CPUs. */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static void watch(struct rec *rc)
{
	size_t i;
	int err = perfev_poller_new(&rc->poller);

	if (err)
		cli_die("cannot wait for samples: %s", perfev_strerror(err));
	perfev_poller_add(rc->poller, rc->sigfd, &tags[TAG_SIGNAL]);
	/*
	 * Every event: the owners of rings for their data (overwrite rings
	 * are read on demand, but still watched), all of them for the end
	 * of their task.
	 */
	for (i = 0; i < rc->nfds; i++)
		perfev_poller_add(rc->poller, rc->fds[i].fd, &rc->fds[i]);
	if (rc->ct.t.kind == PERFEV_TARGET_PID) {
		int fd = cli_pidfd(rc->ct.t.pid);

		if (fd >= 0)
			perfev_poller_add(rc->poller, fd, &tags[TAG_PIDFD]);
	}
}

static void release(struct rec *rc)
{
	size_t i;

	for (i = 0; i < rc->nrings; i++)
		perfev_ring_free(rc->rings[i].r);
	free(rc->rings);
	free(rc->fds);
	perfev_poller_free(rc->poller);
	perfev_session_free(rc->s);
	perfev_evspec_free(rc->spec);
	rec_unwind_free(rc->uw);
	rec_offcpu_free(rc->oc);
	free(rc->ids);
	free(rc->ev_samples);
	build_ids_release(&rc->build_ids);
	close(rc->sigfd);
}

int cmd_record(int argc, const char **argv)
{
	struct rec_opts o = {0};
	const struct option opts[] = {
	    OPT_MULTI('e', "event", &o.events, "EVENT", "event(s) to sample (repeatable)"),
	    OPT_STR('F', "freq", &o.freq, "HZ", "samples per second of each event ('max')"),
	    OPT_U64('c', "count", &o.count, "N", "one sample every N events"),
	    OPT_FLAG('g', NULL, &o.callchain, "record call chains (frame pointers)"),
	    OPT_MULTI(0, "call-graph", &o.call_graphs, "MODE",
		      "record call chains: fp, or dwarf[,SIZE] (user stack copies)"),
	    OPT_HEADING("target"),
	    OPT_STR('p', "pid", &o.pids, "PID[,PID]", "sample existing process(es)"),
	    OPT_STR('t', "tid", &o.tids, "TID[,TID]", "sample existing thread(s)"),
	    OPT_FLAG('a', "all-cpus", &o.all_cpus, "sample everything on every CPU"),
	    OPT_STR('C', "cpu", &o.cpu_list, "CPUS", "sample everything on these CPUs (0-3,8)"),
	    OPT_FLAG('i', "no-inherit", &o.no_inherit, "do not follow child tasks"),
	    OPT_FLAG(0, "inherit", &o.inherit, "follow child tasks (the default)"),
	    OPT_HEADING("sample contents"),
	    OPT_FLAG('T', "timestamp", &o.timestamp, "sample times (unless time=0)"),
	    OPT_FLAG(0, "sample-cpu", &o.sample_cpu, "the CPU of each sample"),
	    OPT_FLAG('d', "data", &o.data_addr, "the data address and source of each sample"),
	    OPT_FLAG(0, "phys-data", &o.phys_data, "the physical data address of each sample"),
	    OPT_FLAG('R', "raw-samples", &o.raw, "the raw data of tracepoint samples"),
	    OPT_FLAG(0, "switch-events", &o.switch_events, "record context switches"),
	    OPT_FLAG(0, "off-cpu", &o.off_cpu,
		     "also how long threads wait off the CPU, and in which stack (offcpu-time)"),
	    OPT_FLAG('b', "branch-any", &o.branch_any,
		     "the taken branches of each sample (-j any)"),
	    OPT_STR('j', "branch-filter", &o.branch_filter, "FILTERS",
		    "the branches to sample: any,any_call,any_ret,ind_call,call,cond,u,k,..."),
	    OPT_FLAG('W', "weight", &o.weight, "the weight (cost) of each sample"),
	    OPT_FLAG(0, "data-page-size", &o.data_page_size,
		     "the page size of each sample's data address"),
	    OPT_FLAG(0, "code-page-size", &o.code_page_size,
		     "the page size of each sample's instruction"),
	    OPT_FLAG(0, "sample-identifier", &o.sample_identifier,
		     "the event id first in each sample, even with one event"),
	    OPT_FLAG('P', "period", &o.period, "the period of each sample, even with -c"),
	    OPT_STR_OPT(0, "user-regs", &o.user_regs, "REGS",
			"user registers of each sample (names, '?' lists them)"),
	    OPT_STR_OPT(0, "intr-regs", &o.intr_regs, "REGS",
			"registers at the interrupt of each sample ('?' lists them)"),
	    OPT_STR('k', "clockid", &o.clockid, "CLOCK",
		    "sample times from CLOCK: monotonic, monotonic_raw, realtime, boottime, tai"),
	    OPT_FLAG(0, "namespaces", &o.namespaces,
		     "record the namespaces of the tasks (NAMESPACES records)"),
	    OPT_FLAG(0, "all-cgroups", &o.all_cgroups,
		     "the cgroup of each sample, and the cgroups' names"),
	    OPT_HEADING("events"),
	    OPT_FLAG(0, "all-user", &o.all_user, "sample user space only, whatever the modifiers"),
	    OPT_FLAG(0, "all-kernel", &o.all_kernel,
		     "sample the kernel only, whatever the modifiers"),
	    OPT_FLAG(0, "group", &o.group, "put the events in one group"),
	    OPT_FLAG('n', "no-samples", &o.no_samples, "count only, take no samples"),
	    OPT_FLAG('s', "stat", &o.inherit_stat, "counts of each thread (inherit_stat)"),
	    OPT_STR('D', "delay", &o.delay, "MS",
		    "start sampling MS milliseconds after the command (or the start)"),
	    OPT_FLAG(0, "per-thread", &o.per_thread,
		     "a ring per thread, no inheritance, no sample times (as perf)"),
	    OPT_STR_OPT(0, "aux-sample", &o.aux_sample, "SIZE",
			"AUX area data in samples (refused: no AUX tracing yet)"),
	    OPT_STR_OPT('S', "snapshot", &o.snapshot, "SIZE",
			"AUX area snapshots (refused: no AUX tracing yet)"),
	    OPT_HEADING("output"),
	    OPT_STR('o', "output", &o.output, "FILE",
		    "write FILE (default perf.data; - is a pipe)"),
	    OPT_STR('m', "mmap-pages", &o.mmap_pages, "PAGES", "ring buffer per CPU (or 4M, ...)"),
	    OPT_FLAG(
		0, "overwrite", &o.overwrite,
		"flight recorder: keep the last ring's worth, write it on SIGUSR2 and at the end"),
	    OPT_FLAG(
		0, "unwind", &o.unwind,
		"with --call-graph dwarf: unwind while recording, store call chains, not stacks"),
	    OPT_FLAG(0, "timestamp-filename", &o.timestamp_filename,
		     "name the file FILE.YYYYmmddHHMMSScc at the end"),
	    OPT_FLAG(0, "tail-synthesize", &o.tail_synthesize,
		     "describe existing tasks and maps at the end rather than at the start"),
	    OPT_STR_OPT('z', "compression-level", &o.compress, "N",
			"compress the records with zstd at level N (1-22, default 1)"),
	    OPT_STR_OPT(
		0, "switch-output", &o.switch_output, "WHEN",
		"a new file on SIGUSR2 (signal, the default), past a SIZE (1G) or a TIME (30s, "
		"5m)"),
	    OPT_NUM(0, "switch-max-files", &o.switch_max_files, "N",
		    "with --switch-output: keep the newest N files"),
	    OPT_STR(0, "push", &o.push, "URL",
		    "continuous mode: each --window's pprof profile POSTed to URL/ingest "
		    "(Pyroscope's API; http:// only)"),
	    OPT_STR(0, "labels", &o.push_labels, "K=V,...", "with --push: the profiles' labels"),
	    OPT_STR(0, "app", &o.push_app, "NAME",
		    "with --push: the application name (default: the command's, or perfev)"),
	    OPT_STR(0, "window", &o.push_window, "SECS", "with --push: seconds per profile (10)"),
	    OPT_STR(0, "spool", &o.push_spool, "DIR",
		    "with --push: where profiles wait until pushed (OUTPUT.spool)"),
	    OPT_STR(0, "spool-size", &o.push_spool_size, "BYTES",
		    "with --push: the spool's bound, oldest dropped beyond it (64M)"),
	    OPT_STR(0, "max-size", &o.max_size, "SIZE",
		    "stop once the file holds SIZE bytes (B, K, M, G)"),
	    OPT_STR(0, "mmap-flush", &o.mmap_flush, "SIZE",
		    "read a ring at a wakeup only when it holds SIZE bytes"),
	    OPT_STR(0, "synth", &o.synth, "WHAT",
		    "what to describe of what exists: all, task, mmap, cgroup or no"),
	    OPT_FLAG('B', "no-buildid", &o.no_buildid, "no build ids in the file"),
	    OPT_FLAG('N', "no-buildid-cache", &o.no_buildid_cache,
		     "accepted for perf's command lines: perfev record never fills the cache"),
	    OPT_FLAG(0, "buildid-all", &o.buildid_all,
		     "the build id of every mapped file (perfev's default)"),
	    OPT_FLAG(0, "strict-freq", &o.strict_freq,
		     "fail rather than lower -F to perf_event_max_sample_rate"),
	    OPT_FLAG('v', "verbose", &o.verbose, "show the perf_event_attr of each event opened"),
	    OPT_STR_OPT(0, "threads", &o.threads, "SPEC",
			"refused: perf's parallel mode; one perfev thread reads every ring"),
	    OPT_FLAG('q', "quiet", &o.quiet, "no summary"),
	    OPT_TERMINATOR,
	};
	struct cli_target_args ta = {0};
	struct rec rc = {.o = &o, .sigfd = -1};
	struct delay delay = {0};
	struct cli_env env;
	sigset_t orig;
	uint64_t max_before;
	double t0;
	int nargs, err, status = 0;
	const char **orig_argv;

	/* The command line as given, for the file's cmdline section: options are consumed below. */
	orig_argv = calloc((size_t)argc + 1, sizeof(*orig_argv));
	if (!orig_argv)
		cli_die("out of memory");
	memcpy(orig_argv, argv, (size_t)argc * sizeof(*argv));
	nargs = parse_options(argc, argv, opts, record_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	ta.pids = o.pids;
	ta.tids = o.tids;
	ta.cpu_list = o.cpu_list;
	ta.all_cpus = o.all_cpus;
	ta.no_inherit = o.no_inherit;
	ta.cmd = nargs ? (char **)argv : NULL;
	check_options(&o, opts);
	cli_target_setup(&rc.ct, &ta, record_usage, opts);
	/* As perf 6.1: -a and -C record per CPU whatever --per-thread says. */
	if (o.per_thread && rc.ct.t.kind != PERFEV_TARGET_COMMAND &&
	    rc.ct.t.kind != PERFEV_TARGET_PID && rc.ct.t.kind != PERFEV_TARGET_THREADS) {
		o.per_thread = false;
		if (!o.quiet)
			cli_error("note: --per-thread maps the rings of tasks; with -a or -C the "
				  "rings stay per CPU, as in perf");
	}

	cli_env_init(&env);
	cli_env_open(&env, true);
	rc.env = &env;
	rc.data_pages = o.mmap_pages ? parse_pages(o.mmap_pages, &env, opts) : default_pages();
	/* As perf: a ring is read at a quarter of its size at the most, or it would overflow. */
	if (o.flush_bytes > (uint64_t)rc.data_pages * (uint64_t)sysconf(_SC_PAGESIZE) / 4)
		o.flush_bytes = (uint64_t)rc.data_pages * (uint64_t)sysconf(_SC_PAGESIZE) / 4;
	max_before = max_sample_rate(&env);
	rc.freq = o.count ? 0 : o.freq ? parse_freq(o.freq, &env, opts) : DEFAULT_FREQ;
	if (rc.freq && max_before && rc.freq > max_before && o.strict_freq)
		cli_die("cannot sample at -F %" PRIu64 ": perf_event_max_sample_rate is %" PRIu64
			" Hz (lower -F, or raise kernel.perf_event_max_sample_rate)",
			rc.freq, max_before);
	if (rc.freq && max_before && rc.freq > max_before) {
		cli_error("-F %" PRIu64 " is above perf_event_max_sample_rate: sampling at %" PRIu64
			  " Hz (raise kernel.perf_event_max_sample_rate for more)",
			  rc.freq, max_before);
		rc.freq = max_before;
	}
	if (o.push) {
		const char *out = o.output ? o.output : "perf.data";
		struct rec_push_opts po = {
		    .url = o.push,
		    .labels = o.push_labels,
		    .app = o.push_app			    ? o.push_app
			   : nargs && strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1
			   : nargs			    ? argv[0]
							    : "perfev",
		    .spool_size = parse_bytes(o.push_spool_size ? o.push_spool_size : "64M",
					      "--spool-size", opts),
		    .freq = rc.freq,
		    .quiet = o.quiet,
		};
		char *spool = NULL;

		if (!o.push_spool && asprintf(&spool, "%s.spool", out) < 0)
			cli_die("out of memory");
		po.spool = o.push_spool ? o.push_spool : spool;
		rc.push = rec_push_new(&po, record_usage, opts);
		free(spool);
	}
	parse_events(&rc, &o);
	rc.want_build_ids = !o.no_buildid && build_ids_supported();
	raise_fd_limit();
	rc.argv = orig_argv;
	rc.argc = argc;
	create_output(&rc, orig_argv, argc);
	open_events(&rc);
	if (o.verbose)
		show_attrs(&rc);
	map_rings(&rc);
	if (o.unwind && (err = rec_unwind_new(rc.w, &rc.uw)))
		cli_die("cannot unwind while recording: %s", perfev_strerror(err));
	add_attrs(&rc);
	add_tracing_data(&rc);
	setup_signals(&rc, &orig);
	rc.child = perfev_session_child(rc.s);
	/*
	 * Watched before anything is sampled: a wakeup the kernel sends before
	 * the descriptors are in the poller can be missed, and a ring that
	 * fills in the meantime (a few large samples, as with --call-graph
	 * dwarf) would then never wake the reader again.
	 */
	watch(&rc);

	t0 = now_s();
	rc.next_switch = t0 + o.switch_secs;
	if (rc.ct.t.kind == PERFEV_TARGET_COMMAND) {
		if ((kernel_samples_possible(&rc) || o.namespaces) && !o.tail_synthesize)
			synthesize(&rc);
		err = perfev_session_start(rc.s);
		if (!err && o.delay_ms > 0)
			delay_start(&delay, rc.s, o.delay_ms);
		if (err) {
			/* The file is still complete, as perf leaves it. */
			perfev_data_finish(rc.w);
			cli_output_close(&rc.out);
			cli_die("cannot run '%s': %s", rc.ct.t.argv[0], cli_exec_error(err));
		}
	} else {
		err = perfev_session_start(rc.s);
		if (err)
			cli_die("cannot start recording: %s", perfev_strerror(err));
		if (o.delay_ms > 0)
			delay_start(&delay, rc.s, o.delay_ms);
		if (!o.tail_synthesize)
			synthesize(&rc);
		if (rc.ct.workload)
			rc.child = spawn(rc.ct.workload, &orig);
	}
	/* It may have ended before the signal was blocked. */
	reap(&rc, WNOHANG);
	if (!rc.child_done)
		loop(&rc);

	delay_stop(&delay);
	perfev_session_disable(rc.s);
	if (rc.o->overwrite)
		dump_snapshot(&rc);
	else
		drain_all(&rc);
	if (rc.oc && (err = rec_offcpu_finish(rc.oc, put_offcpu, &rc)) && !rc.werr)
		rc.werr = err;
	/* --tail-synthesize: what the tasks and maps are now, after their samples. */
	if (o.tail_synthesize && !rc.werr &&
	    (rc.ct.t.kind != PERFEV_TARGET_COMMAND || kernel_samples_possible(&rc) ||
	     o.namespaces)) {
		synthesize(&rc);
		if (!rc.o->overwrite)
			end_round(&rc);
	}
	if (rc.child && !rc.child_done) {
		/* Stopped by a signal while the command runs: end it, as perf does. */
		kill(rc.child, SIGTERM);
		reap(&rc, 0);
	}
	if (rc.uw && !rc.werr) {
		/* The last records, whatever their time. */
		err = rec_unwind_pump(rc.uw, true, NULL, NULL);
		if (err)
			rc.werr = err;
	}
	err = rc.werr
		  ?: o.no_buildid
		     ? 0
		     : build_ids_write(&rc.build_ids, rc.w, kernel_samples_possible(&rc));
	/* After a write error too: the file is completed for the records that reached it. */
	err = perfev_data_finish(rc.w) ?: err;
	if (err)
		fail_finish(&rc, err);
	summary(&rc, now_s() - t0);
	if (rc.child)
		status = cli_exit_status(rc.child_done ? rc.child_status : -1,
					 rc.ct.t.argv ?: rc.ct.workload);
	perfev_data_writer_free(rc.w);
	rc.w = NULL;
	if (cli_output_close(&rc.out) || rc.failed)
		status = 1;
	/* Once the file is in place under its name (output.c writes a new one aside). */
	else if (o.timestamp_filename)
		window_done(&rc);
	while (rc.ndumped)
		free(rc.dumped[--rc.ndumped]);
	free(rc.dumped);
	report_rates(&rc, max_before);
	rec_push_free(rc.push);
	release(&rc);
	cli_target_release(&rc.ct);
	cli_env_release(&env);
	opt_list_release(&o.events);
	opt_list_release(&o.call_graphs);
	free(orig_argv);
	return status;
}
