// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Counting sessions: open the events of an evspec on a target in
 * counting mode, adapt refused events the way perf does, start, read.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "count/session-internal.h"
#include <perfev/control.h>
#include <perfev/diag.h>
#include <perfev/knobs.h>
#include <perfev/sys.h>

int perfev__sess_fail(struct perfev_session_error *err, int code, int event, int cpu, pid_t pid,
		      const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	err->err = code;
	err->event = event;
	err->cpu = cpu;
	err->pid = pid;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return code;
}

/* Whether the kernel knows PERF_FORMAT_LOST (Linux 6.0): probed once. */
static int lost_supported(void)
{
	static int cached = -1;
	struct perf_event_attr a;
	int fd;

	if (cached >= 0)
		return cached;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.read_format = PERFEV_FORMAT_LOST;
	fd = perfev_sys_open(&a, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
	cached = fd >= 0 || fd == -EACCES || fd == -EPERM;
	return cached;
}

int perfev_session_new(const struct perfev_evspec *spec, const struct perfev_session_opts *opts,
		       struct perfev_session **out)
{
	struct perfev_session *s;
	size_t i;
	int err;

	if (!spec || !out || !perfev__opts_ok(opts, opts ? opts->sz : 0, sizeof(*opts)))
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->cgroup_fd = s->go_fd = s->err_fd = -1;
	if (opts)
		memcpy(&s->opts, opts, opts->sz < sizeof(s->opts) ? opts->sz : sizeof(s->opts));
	s->opts.sz = sizeof(s->opts);
	s->sysfs_root = strdup(PERFEV__OPT(opts, sysfs_root, NULL) ?: "/sys");
	s->procfs_root = strdup(PERFEV__OPT(opts, procfs_root, NULL) ?: "/proc");
	err = perfev__evspec_dup(spec, &s->spec);
	if (err || !s->sysfs_root || !s->procfs_root)
		goto fail;
	s->nev = s->spec->n;
	s->ev = calloc(s->nev ? s->nev : 1, sizeof(*s->ev));
	if (!s->ev)
		goto fail;
	for (i = 0; i < s->nev; i++) {
		const struct perfev__event *pe = &s->spec->ev[i];
		struct sess_event *e = &s->ev[i];

		e->a = pe->a;
		e->leader = s->opts.no_group ? (int)i : pe->leader;
		e->group_size = e->leader == (int)i ? 1 : 0;
		e->tool = pe->kind == PERFEV_KIND_TOOL;
		if (e->leader != (int)i)
			s->ev[e->leader].group_size++;
	}
	*out = s;
	return 0;
fail:
	perfev_session_free(s);
	return err ? err : -ENOMEM;
}

static void close_event(struct perfev_session *s, struct sess_event *e)
{
	size_t i;

	for (i = 0; e->fds && i < sess_ninst(s); i++)
		if (e->fds[i] >= 0) {
			close(e->fds[i]);
			e->fds[i] = -1;
		}
}

void perfev_session_free(struct perfev_session *s)
{
	size_t i;

	if (!s)
		return;
	perfev__sess_kill_command(s);
	for (i = 0; i < s->nev && s->ev; i++) {
		close_event(s, &s->ev[i]);
		free(s->ev[i].fds);
		free(s->ev[i].counts);
		free(s->ev[i].note);
	}
	if (s->cgroup_fd >= 0)
		close(s->cgroup_fd);
	free(s->ev);
	perfev_evspec_free(s->spec);
	perfev_topology_free(s->topo);
	free(s->cpus);
	free(s->tids);
	free(s->scratch);
	free(s->sysfs_root);
	free(s->procfs_root);
	free(s);
}

static void add_note(struct sess_event *e, const char *fmt, ...) PERFEV__PRINTF(2, 3);

static void add_note(struct sess_event *e, const char *fmt, ...)
{
	char buf[512], *n;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (e->note && asprintf(&n, "%s; %s", e->note, buf) >= 0) {
		free(e->note);
		e->note = n;
	} else if (!e->note) {
		e->note = strdup(buf);
	}
}

static const char *ev_name(const struct perfev_session *s, size_t i)
{
	return s->spec->ev[i].name;
}

/*
 * What every event gets: leaders start disabled even with enable_now (a
 * member added to a group that is already running may count nothing
 * until the group is next scheduled in, so the group is enabled once it
 * is complete), commands arm them for exec, inherit follows the target.
 */
static void common_attr(struct perfev_session *s, size_t i)
{
	struct sess_event *e = &s->ev[i];
	struct perf_event_attr *a = &e->a.attr;
	bool leader = e->leader == (int)i;

	a->disabled = leader;
	a->enable_on_exec = leader && s->kind == PERFEV_TARGET_COMMAND && !s->opts.manual_enable;
	a->inherit = s->inherit && s->kind != PERFEV_TARGET_CPUS && s->kind != PERFEV_TARGET_CGROUP;
	if (s->spec->ev[i].flags & PERFEV_EVF_PRECISE_MAX)
		a->precise_ip = 3;
}

/* Counting setup: what perf stat passes, whatever the string asked for sampling. */
static void counting_attr(struct perfev_session *s, size_t i)
{
	struct sess_event *e = &s->ev[i];
	struct perf_event_attr *a = &e->a.attr;
	bool leader = e->leader == (int)i;

	common_attr(s, i);
	a->read_format =
	    PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
	if (leader && e->group_size > 1)
		a->read_format |= PERF_FORMAT_GROUP;
	if (lost_supported())
		a->read_format |= PERFEV_FORMAT_LOST;
	/* Counting, unless the caller keeps the string's period for overflow signals. */
	if (!(s->opts.keep_period &&
	      (s->spec->ev[i].terms_set & (PERFEV_TERM_PERIOD | PERFEV_TERM_FREQ)))) {
		a->sample_period = 0;
		a->freq = 0;
	}
	a->sample_type = 0;
}

static bool is_cycles(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_HARDWARE &&
	       (a->config & 0xffffffff) == PERF_COUNT_HW_CPU_CYCLES;
}

/*
 * Change @i's attr the way perf does when the kernel refuses it with
 * @err, and say so.  Returns true when there is something new to try.
 */
static bool fall_back(struct perfev_session *s, size_t i, int err)
{
	struct sess_event *e = &s->ev[i];
	struct perf_event_attr *a = &e->a.attr;
	const char *name = ev_name(s, i);

	if ((err == -EACCES || err == -EPERM) && !a->exclude_kernel &&
	    s->kind != PERFEV_TARGET_CPUS && s->kind != PERFEV_TARGET_CGROUP) {
		struct perfev_knobs k = {.sz = sizeof(k)};

		perfev_knobs_read(s->procfs_root, &k);
		a->exclude_kernel = 1;
		a->exclude_hv = 1;
		add_note(e,
			 "asked '%s', got '%s:u': kernel counting is not permitted "
			 "(perf_event_paranoid=%d)",
			 name, name, k.paranoid);
		return true;
	}
	if ((err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV || err == -ENXIO) &&
	    is_cycles(a)) {
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_CPU_CLOCK;
		a->precise_ip = 0;
		add_note(e,
			 "asked '%s', got 'cpu-clock': this machine has no hardware cycle counter",
			 name);
		return true;
	}
	if ((err == -EOPNOTSUPP || err == -EINVAL) && a->precise_ip) {
		unsigned int asked = a->precise_ip;

		a->precise_ip--;
		/* :P asks for the best level there is: stepping down is the point. */
		if (!(s->spec->ev[i].flags & PERFEV_EVF_PRECISE_MAX))
			add_note(e, "asked precise_ip=%u for '%s', got %u", asked, name,
				 a->precise_ip);
		return true;
	}
	/* Software, tracepoint and breakpoint events always accept exclude_guest. */
	if ((err == -EINVAL || err == -EOPNOTSUPP) && (a->exclude_guest || a->exclude_host) &&
	    a->type != PERF_TYPE_SOFTWARE && a->type != PERF_TYPE_TRACEPOINT &&
	    a->type != PERF_TYPE_BREAKPOINT) {
		a->exclude_guest = 0;
		a->exclude_host = 0;
		add_note(e,
			 "asked '%s' with exclude_guest, got it without: the PMU cannot tell "
			 "guest from host",
			 name);
		return true;
	}
	return false;
}

static bool unsupported_errno(int err)
{
	/* What perf stat shows as <not supported> rather than failing the run. */
	return err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV || err == -ENXIO ||
	       err == -EINVAL || err == -ENOSYS;
}

static int open_one(struct perfev_session *s, size_t i, size_t inst, int group_fd)
{
	struct sess_event *e = &s->ev[i];
	int cpu = s->cpus[inst / s->ntids];
	pid_t pid = s->tids[inst % s->ntids];
	unsigned long flags = s->opts.open_flags;
	int fd;

	if (s->cgroup_fd >= 0) {
		pid = s->cgroup_fd;
		flags |= PERF_FLAG_PID_CGROUP;
	}
	for (;;) {
		fd = perfev_sys_open(&e->a.attr, pid, cpu, group_fd, flags);
		if (fd >= 0 || s->opts.no_fallback || !fall_back(s, i, fd))
			return fd;
	}
}

static void diagnose(struct perfev_session *s, size_t i, size_t inst, int group_fd, int fd,
		     char *buf, size_t len)
{
	struct perfev_diag_ctx dc = {.sz = sizeof(dc)};

	if (fd == -EBADF && s->cgroup_fd >= 0) {
		snprintf(buf, len, "bad file descriptor: '%.300s' is not a cgroup directory",
			 s->cgroup_path);
		return;
	}

	dc.pid = s->cgroup_fd >= 0 ? s->cgroup_fd : s->tids[inst % s->ntids];
	dc.cpu = s->cpus[inst / s->ntids];
	dc.group_fd = group_fd;
	dc.flags = s->opts.open_flags | (s->cgroup_fd >= 0 ? PERF_FLAG_PID_CGROUP : 0);
	dc.procfs_root = s->procfs_root;
	dc.sysfs_root = s->sysfs_root;
	perfev_diagnose(fd, &s->ev[i].a.attr, &dc, buf, len);
}

/* Make @i and the rest of its group stand alone (weak group split, lost leader). */
static void ungroup(struct perfev_session *s, size_t leader)
{
	size_t k;

	for (k = 0; k < s->nev; k++) {
		struct sess_event *e = &s->ev[k];

		if (e->leader != (int)leader)
			continue;
		close_event(s, e);
		e->done = false;
		e->leader = (int)k;
		e->group_size = 1;
		e->a.attr.read_format &= ~(uint64_t)PERF_FORMAT_GROUP;
		e->a.attr.disabled = s->ev[leader].a.attr.disabled;
		e->a.attr.enable_on_exec = s->ev[leader].a.attr.enable_on_exec;
	}
}

enum { OPENED, SKIPPED, REGROUPED };

/* Open event @i on every instance. */
static int open_event(struct perfev_session *s, size_t i, struct perfev_session_error *err)
{
	struct sess_event *e = &s->ev[i];
	size_t n = sess_ninst(s), inst, opened = 0;
	int last = 0;

	for (inst = 0; inst < n; inst++) {
		int group_fd = e->leader == (int)i ? -1 : s->ev[e->leader].fds[inst];
		int fd;

		e->fds[inst] = -1;
		if (e->leader != (int)i && group_fd < 0)
			continue;
		fd = open_one(s, i, inst, group_fd);
		if (fd >= 0) {
			e->fds[inst] = fd;
			opened++;
			continue;
		}
		last = fd;
		/* A thread may exit while we attach: count the others. */
		if (fd == -ESRCH &&
		    (s->kind == PERFEV_TARGET_PID || s->kind == PERFEV_TARGET_THREADS))
			continue;
		if (e->leader != (int)i && (s->spec->ev[e->leader].flags & PERFEV_EVF_WEAK_GROUP) &&
		    (fd == -EINVAL || fd == -ENOSPC || fd == -EOPNOTSUPP || fd == -ENOENT)) {
			add_note(&s->ev[e->leader],
				 "weak group led by '%s' split: '%s' cannot be scheduled with it",
				 ev_name(s, (size_t)e->leader), ev_name(s, i));
			ungroup(s, (size_t)e->leader);
			return REGROUPED;
		}
		if (unsupported_errno(fd)) {
			char why[400];

			diagnose(s, i, inst, group_fd, fd, why, sizeof(why));
			close_event(s, e);
			e->state = PERFEV_EVENT_UNSUPPORTED;
			e->open_err = fd;
			add_note(e, "%s", why);
			if (e->leader == (int)i && e->group_size > 1) {
				size_t k;

				ungroup(s, i);
				for (k = i + 1; k < s->nev; k++)
					if (s->spec->ev[k].leader == (int)i && !s->opts.no_group)
						add_note(&s->ev[k],
							 "counted outside its group: "
							 "leader '%s' is not supported",
							 ev_name(s, i));
			}
			return SKIPPED;
		}
		{
			char why[400];
			pid_t pid = s->cgroup_fd >= 0 ? -1 : s->tids[inst % s->ntids];

			diagnose(s, i, inst, group_fd, fd, why, sizeof(why));
			return perfev__sess_fail(err, fd, (int)i, s->cpus[inst / s->ntids], pid,
						 "%s", why);
		}
	}
	if (!opened && last == -ESRCH)
		return perfev__sess_fail(err, -ESRCH, (int)i, -1, -1,
					 "no such process: every thread exited");
	return OPENED;
}

int perfev_session_open(struct perfev_session *s, const struct perfev_target *target,
			struct perfev_session_error *err)
{
	struct perfev_target tc = {0}, *t = &tc;
	size_t i, n;
	int ret;

	if (err) {
		if (err->sz < sizeof(*err))
			return -EINVAL;
		memset((char *)err + sizeof(err->sz), 0, sizeof(*err) - sizeof(err->sz));
		err->event = -1;
		err->cpu = -1;
	}
	if (!s || !target || s->opened || !perfev__opts_ok(target, target->sz, sizeof(*target)))
		return -EINVAL;
	/* Fields beyond the caller's (older, shorter) struct read as zero. */
	memcpy(&tc, target, target->sz < sizeof(tc) ? target->sz : sizeof(tc));
	s->opened = true;
	ret = perfev__sess_resolve_target(s, t, err);
	if (ret)
		return ret;
	n = sess_ninst(s);
	for (i = 0; i < s->nev; i++) {
		s->ev[i].fds = malloc(n * sizeof(int));
		s->ev[i].counts = calloc(n, sizeof(struct sess_count));
		if (!s->ev[i].fds || !s->ev[i].counts)
			return -ENOMEM;
		memset(s->ev[i].fds, 0xff, n * sizeof(int));
	}
	for (i = 0; i < s->nev; i++) {
		if (s->opts.sampling)
			common_attr(s, i);
		else
			counting_attr(s, i);
		if (s->opts.configure && !s->ev[i].tool &&
		    (ret = s->opts.configure(&s->ev[i].a.attr, i, s->opts.configure_ctx)) < 0)
			return perfev__sess_fail(err, ret, (int)i, -1, -1,
						 "cannot set up event '%s': %s", ev_name(s, i),
						 perfev_strerror(ret));
	}
again:
	for (i = 0; i < s->nev; i++) {
		struct sess_event *e = &s->ev[i];

		if (e->tool || e->done || e->state == PERFEV_EVENT_UNSUPPORTED)
			continue;
		/* Members are opened after their leader, which comes first in the list. */
		ret = open_event(s, i, err);
		if (ret < 0)
			return ret;
		if (ret == REGROUPED)
			goto again;
		e->done = true;
	}
	if (s->opts.enable_now && s->kind != PERFEV_TARGET_COMMAND)
		return perfev_session_enable(s);
	return 0;
}

pid_t perfev_session_child(const struct perfev_session *s)
{
	return s && s->kind == PERFEV_TARGET_COMMAND ? s->child : 0;
}

static int for_each_leader(struct perfev_session *s, int (*op)(int fd, bool group))
{
	size_t i, inst;
	int ret = 0, r;

	for (i = 0; i < s->nev; i++) {
		struct sess_event *e = &s->ev[i];

		if (e->leader != (int)i || !e->fds)
			continue;
		for (inst = 0; inst < sess_ninst(s); inst++)
			if (e->fds[inst] >= 0 && (r = op(e->fds[inst], true)) && !ret)
				ret = r;
	}
	return ret;
}

int perfev_session_enable(struct perfev_session *s)
{
	return s ? for_each_leader(s, perfev_ioc_enable) : -EINVAL;
}

int perfev_session_disable(struct perfev_session *s)
{
	return s ? for_each_leader(s, perfev_ioc_disable) : -EINVAL;
}

int perfev_session_reset(struct perfev_session *s)
{
	return s ? for_each_leader(s, perfev_ioc_reset) : -EINVAL;
}

int perfev_session_start(struct perfev_session *s)
{
	if (!s || !s->opened)
		return -EINVAL;
	if (s->kind == PERFEV_TARGET_COMMAND)
		return s->started ? -EINVAL : perfev__sess_release_command(s);
	s->started = true;
	return s->opts.enable_now || s->opts.manual_enable ? 0 : perfev_session_enable(s);
}

static int read_fd(struct perfev_session *s, int fd, uint64_t rf, struct perfev_reading *r)
{
	size_t len = perfev_read_size(rf, r->max);
	ssize_t n;

	if (len > s->scratch_len) {
		void *p = realloc(s->scratch, len);

		if (!p)
			return -ENOMEM;
		s->scratch = p;
		s->scratch_len = len;
	}
	do
		n = read(fd, s->scratch, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return perfev_read_decode(rf, s->scratch, (size_t)n, r);
}

int perfev_session_read(struct perfev_session *s)
{
	struct perfev_value *vals;
	size_t i, inst, k, m, nm, *members;
	int ret = 0;

	if (!s || !s->opened)
		return -EINVAL;
	vals = calloc(s->nev ? s->nev : 1, sizeof(*vals));
	members = calloc(s->nev ? s->nev : 1, sizeof(*members));
	if (!vals || !members) {
		free(vals);
		free(members);
		return -ENOMEM;
	}
	for (i = 0; i < s->nev && !ret; i++) {
		struct sess_event *e = &s->ev[i];
		uint64_t rf = e->a.attr.read_format;

		if (e->leader != (int)i || !e->fds)
			continue;
		for (inst = 0; inst < sess_ninst(s) && !ret; inst++) {
			struct perfev_reading r = {.sz = sizeof(r), .values = vals};

			if (e->fds[inst] < 0)
				continue;
			r.max = (rf & PERF_FORMAT_GROUP) ? (uint32_t)e->group_size : 1;
			ret = read_fd(s, e->fds[inst], rf, &r);
			if (ret)
				break;
			/* Group members come back in the order they were opened. */
			nm = 0;
			for (m = i; m < s->nev; m++)
				if (s->ev[m].leader == (int)i && s->ev[m].fds &&
				    s->ev[m].fds[inst] >= 0)
					members[nm++] = m;
			for (k = 0; k < r.nr && k < nm; k++) {
				struct sess_count *c = &s->ev[members[k]].counts[inst];

				c->value = vals[k].value;
				c->id = vals[k].id;
				c->lost = vals[k].lost;
				c->enabled = r.time_enabled;
				c->running = r.time_running;
			}
		}
	}
	free(vals);
	free(members);
	return ret;
}

size_t perfev_session_instance_count(const struct perfev_session *s)
{
	return s && s->opened && s->cpus && s->tids ? sess_ninst(s) : 0;
}

int perfev_session_instance(const struct perfev_session *s, size_t inst, int *cpu, pid_t *tid)
{
	if (inst >= perfev_session_instance_count(s))
		return -EINVAL;
	if (cpu)
		*cpu = s->cpus[inst / s->ntids];
	if (tid)
		*tid = s->tids[inst % s->ntids];
	return 0;
}

int perfev_session_fd(const struct perfev_session *s, size_t ev, size_t inst)
{
	if (!s || ev >= s->nev || inst >= perfev_session_instance_count(s))
		return -EINVAL;
	return s->ev[ev].fds ? s->ev[ev].fds[inst] : -1;
}

int perfev_session_event_ids(const struct perfev_session *s, size_t ev, uint64_t *ids, size_t max)
{
	size_t inst, n = 0;

	if (!s || ev >= s->nev || (!ids && max))
		return -EINVAL;
	for (inst = 0; inst < perfev_session_instance_count(s); inst++) {
		uint64_t id;
		int fd = s->ev[ev].fds ? s->ev[ev].fds[inst] : -1;

		if (fd < 0)
			continue;
		if (ioctl(fd, PERF_EVENT_IOC_ID, &id))
			return -errno;
		if (n < max)
			ids[n] = id;
		n++;
	}
	return (int)n;
}

size_t perfev_session_event_count(const struct perfev_session *s)
{
	return s ? s->nev : 0;
}

enum perfev_event_state perfev_session_event_state(const struct perfev_session *s, size_t ev)
{
	return s && ev < s->nev ? s->ev[ev].state : PERFEV_EVENT_UNSUPPORTED;
}

const char *perfev_session_event_name(const struct perfev_session *s, size_t ev)
{
	return s && ev < s->nev ? ev_name(s, ev) : NULL;
}

const struct perf_event_attr *perfev_session_event_attr(const struct perfev_session *s, size_t ev)
{
	return s && ev < s->nev ? &s->ev[ev].a.attr : NULL;
}

int perfev_session_event_info(const struct perfev_session *s, size_t ev,
			      struct perfev_event_info *info)
{
	if (!s)
		return -EINVAL;
	return perfev_evspec_info(s->spec, ev, info);
}

const char *perfev_session_event_note(const struct perfev_session *s, size_t ev)
{
	return s && ev < s->nev ? s->ev[ev].note : NULL;
}
