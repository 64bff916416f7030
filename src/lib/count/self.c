// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Self-monitoring groups: counters on the calling thread, read with one
 * read(2) or from user space through the mmap page, and named regions.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "count/mmap-page.h"
#include "count/session-internal.h"
#include <perfev/self.h>

#define MAX_DEPTH   64
#define MAX_REGIONS 256

struct region {
	char *name;
	struct perfev_region_stats st;
};

struct perfev_self {
	struct perfev_session *sess;
	size_t n;
	int fd[PERFEV_SELF_MAX];
	void *page[PERFEV_SELF_MAX];
	size_t page_size;
	uint64_t read_format;
	size_t read_len;
	enum perfev_read_path path;
	pid_t tid;
	struct perfev_snapshot stack[MAX_DEPTH];
	int stack_id[MAX_DEPTH];
	int depth;
	struct region region[MAX_REGIONS];
	int nregions;
	uint64_t buf[3 + 3 * PERFEV_SELF_MAX];
};

static _Thread_local pid_t my_tid;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

/* A forked child is another task: forget the thread id cached in the parent. */
static void forget_tid(void)
{
	my_tid = 0;
}

static void register_atfork(void)
{
	pthread_atfork(NULL, NULL, forget_tid);
}

static pid_t current_tid(void)
{
	if (!my_tid)
		my_tid = gettid();
	return my_tid;
}

static int read_syscall(struct perfev_self *s, struct perfev_snapshot *snap)
{
	struct perfev_value vals[PERFEV_SELF_MAX];
	struct perfev_reading r = {.sz = sizeof(r), .max = PERFEV_SELF_MAX, .values = vals};
	ssize_t got;
	size_t i;
	int err;

	do
		got = read(s->fd[0], s->buf, s->read_len);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return -errno;
	err = perfev_read_decode(s->read_format, s->buf, (size_t)got, &r);
	if (err)
		return err;
	if (r.nr != s->n)
		return -EBADMSG;
	snap->time_enabled = r.time_enabled;
	snap->time_running = r.time_running;
	snap->nr = (uint32_t)s->n;
	snap->path = PERFEV_READ_SYSCALL;
	for (i = 0; i < s->n; i++)
		snap->value[i] = vals[i].value;
	return 0;
}

/* Every page in turn; -EAGAIN as soon as one cannot be read from user space. */
static int read_rdpmc(struct perfev_self *s, struct perfev_snapshot *snap)
{
	struct perfev__page_value v;
	size_t i;
	int err;

	if (!perfev__hw_reader || current_tid() != s->tid)
		return -EAGAIN;
	for (i = 0; i < s->n; i++) {
		err = perfev__page_read(s->page[i], perfev__hw_reader, &v);
		if (err)
			return err;
		snap->value[i] = v.count;
		/* The group is scheduled as one: the leader's times are everyone's. */
		if (!i) {
			snap->time_enabled = v.enabled;
			snap->time_running = v.running;
		}
	}
	snap->nr = (uint32_t)s->n;
	snap->path = PERFEV_READ_RDPMC;
	return 0;
}

int perfev_self_snapshot(struct perfev_self *s, struct perfev_snapshot *snap)
{
	if (!s || !snap)
		return -EINVAL;
	if (s->path == PERFEV_READ_RDPMC && !read_rdpmc(s, snap))
		return 0;
	return read_syscall(s, snap);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Median cost in ns of one snapshot by @fn, over a few batches. */
static double cost(struct perfev_self *s, int (*fn)(struct perfev_self *, struct perfev_snapshot *))
{
	struct perfev_snapshot snap;
	double t[5], x;
	int b, i, j;

	for (b = 0; b < 5; b++) {
		double t0 = now_ns();

		for (i = 0; i < 32; i++)
			if (fn(s, &snap))
				return 1e18;
		t[b] = (now_ns() - t0) / 32;
	}
	for (i = 1; i < 5; i++)
		for (j = i; j > 0 && t[j - 1] > t[j]; j--) {
			x = t[j];
			t[j] = t[j - 1];
			t[j - 1] = x;
		}
	return t[2];
}

/* One group of all events, whatever groups the string had. */
static void single_group(struct perfev_evspec *spec)
{
	size_t i;

	for (i = 0; i < spec->n; i++) {
		spec->ev[i].leader = 0;
		spec->ev[i].group_size = 0;
	}
	spec->ev[0].group_size = (int)spec->n;
}

/* Report a failure through the caller's parse error, when there is one. */
static int fail_parse(struct perfev_parse_error *perr, int code, size_t off, const char *msg)
{
	if (perr && perr->sz >= sizeof(*perr)) {
		perr->err = code;
		perr->offset = off;
		perr->length = 0;
		snprintf(perr->message, sizeof(perr->message), "%.*s",
			 (int)sizeof(perr->message) - 1, msg);
		perr->hint[0] = '\0';
	}
	return code;
}

int perfev_self_open(const char *events, const struct perfev_self_opts *opts,
		     struct perfev_self **out, struct perfev_parse_error *perr)
{
	struct perfev_parse_opts pa = {.sz = sizeof(pa)};
	struct perfev_session_opts so = {.sz = sizeof(so), .enable_now = true, .keep_period = true};
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_SELF, .no_inherit = true};
	struct perfev_session_error se = {.sz = sizeof(se)};
	enum perfev_read_path want;
	struct perfev_evspec *spec;
	struct perfev_self *s;
	size_t i;
	int err;

	if (!events || !out || !perfev__opts_ok(opts, opts ? opts->sz : 0, sizeof(*opts)))
		return -EINVAL;
	pthread_once(&atfork_once, register_atfork);
	want = PERFEV__OPT(opts, path, PERFEV_READ_AUTO);
	if (want > PERFEV_READ_RDPMC)
		return -EINVAL;
	pa.pmus = PERFEV__OPT(opts, pmus, NULL);
	err = perfev_evspec_parse(events, &pa, &spec, perr);
	if (err)
		return err;
	if (!spec->n || spec->n > PERFEV_SELF_MAX) {
		perfev_evspec_free(spec);
		return fail_parse(perr, -EINVAL, 0, "a self-monitoring group holds 1 to 32 events");
	}
	for (i = 0; i < spec->n; i++) {
		if (spec->ev[i].kind == PERFEV_KIND_TOOL) {
			size_t off = spec->ev[i].offset;
			int e =
			    fail_parse(perr, -EINVAL, off,
				       "tool events (duration_time, user_time, system_time) are "
				       "measured by a tool, not the kernel: they cannot be read "
				       "in-process");

			perfev_evspec_free(spec);
			return e;
		}
		if (PERFEV__OPT(opts, use_clockid, false)) {
			spec->ev[i].a.attr.use_clockid = 1;
			spec->ev[i].a.attr.clockid = PERFEV__OPT(opts, clockid, 0);
		}
	}
	single_group(spec);
	s = calloc(1, sizeof(*s));
	if (!s) {
		perfev_evspec_free(spec);
		return -ENOMEM;
	}
	s->n = spec->n;
	s->tid = current_tid();
	s->page_size = (size_t)sysconf(_SC_PAGESIZE);
	for (i = 0; i < PERFEV_SELF_MAX; i++) {
		s->fd[i] = -1;
		s->page[i] = MAP_FAILED;
	}
	err = perfev_session_new(spec, &so, &s->sess);
	perfev_evspec_free(spec);
	if (!err)
		err = perfev_session_open(s->sess, &t, &se);
	if (err) {
		if (se.message[0])
			fail_parse(perr, err, 0, se.message);
		perfev_self_close(s);
		return err;
	}
	for (i = 0; i < s->n; i++) {
		struct sess_event *e = &s->sess->ev[i];

		if (e->state != PERFEV_EVENT_OPEN || !e->fds || e->fds[0] < 0) {
			/* The kernel's own answer: -ENOENT (no such event), -EINVAL, ... */
			err = fail_parse(perr, e->open_err ? e->open_err : -EOPNOTSUPP,
					 s->sess->spec->ev[i].offset,
					 e->note ? e->note : "this event cannot be counted here");
			perfev_self_close(s);
			return err;
		}
		s->fd[i] = e->fds[0];
		/* Only the first page: the control page, no ring buffer. */
		s->page[i] = mmap(NULL, s->page_size, PROT_READ, MAP_SHARED, s->fd[i], 0);
	}
	s->read_format = s->sess->ev[0].a.attr.read_format;
	s->read_len = perfev_read_size(s->read_format, s->n);

	/* Which path: user space only where every page allows it, and only if faster. */
	s->path = PERFEV_READ_RDPMC;
	{
		struct perfev_snapshot snap;
		bool user_ok = true;

		for (i = 0; i < s->n; i++)
			if (s->page[i] == MAP_FAILED)
				user_ok = false;
		if (user_ok)
			user_ok = !read_rdpmc(s, &snap);
		if (want == PERFEV_READ_RDPMC && !user_ok) {
			fail_parse(perr, -EOPNOTSUPP, 0,
				   "the counters cannot be read from user space here (no rdpmc on "
				   "the mmap page: no hardware PMU, or rdpmc disabled in "
				   "/sys/bus/event_source/devices/cpu/rdpmc)");
			perfev_self_close(s);
			return -EOPNOTSUPP;
		}
		if (!user_ok || want == PERFEV_READ_SYSCALL)
			s->path = PERFEV_READ_SYSCALL;
		else if (want == PERFEV_READ_AUTO && cost(s, read_syscall) < cost(s, read_rdpmc))
			s->path = PERFEV_READ_SYSCALL;
	}
	*out = s;
	return 0;
}

void perfev_self_close(struct perfev_self *s)
{
	int i;
	size_t k;

	if (!s)
		return;
	for (k = 0; k < PERFEV_SELF_MAX; k++)
		if (s->page[k] && s->page[k] != MAP_FAILED)
			munmap(s->page[k], s->page_size);
	for (i = 0; i < s->nregions; i++)
		free(s->region[i].name);
	perfev_session_free(s->sess);
	free(s);
}

size_t perfev_self_count(const struct perfev_self *s)
{
	return s ? s->n : 0;
}

const char *perfev_self_name(const struct perfev_self *s, size_t idx)
{
	return s && idx < s->n ? perfev_session_event_name(s->sess, idx) : NULL;
}

const char *perfev_self_note(const struct perfev_self *s, size_t idx)
{
	return s && idx < s->n ? perfev_session_event_note(s->sess, idx) : NULL;
}

int perfev_self_fd(const struct perfev_self *s, size_t idx)
{
	return s && idx < s->n ? s->fd[idx] : -EINVAL;
}

enum perfev_read_path perfev_self_path(const struct perfev_self *s)
{
	return s ? s->path : PERFEV_READ_SYSCALL;
}

int perfev_self_delta(const struct perfev_self *s, const struct perfev_snapshot *a,
		      const struct perfev_snapshot *b, size_t idx, struct perfev_delta *out)
{
	if (!s || !a || !b || !out || idx >= s->n || a->nr != s->n || b->nr != s->n)
		return -EINVAL;
	out->raw = b->value[idx] - a->value[idx];
	out->enabled = b->time_enabled - a->time_enabled;
	out->running = b->time_running - a->time_running;
	out->partial = out->running < out->enabled;
	if (!out->partial)
		out->scaled = (double)out->raw;
	else
		out->scaled = out->running
				  ? (double)out->raw * (double)out->enabled / (double)out->running
				  : 0.0;
	return 0;
}

/* ---- regions --------------------------------------------------------------- */

int perfev_self_region(struct perfev_self *s, const char *name)
{
	int i;

	if (!s || !name)
		return -EINVAL;
	for (i = 0; i < s->nregions; i++)
		if (!strcmp(s->region[i].name, name))
			return i;
	if (s->nregions == MAX_REGIONS)
		return -ENOSPC;
	s->region[i].name = strdup(name);
	if (!s->region[i].name)
		return -ENOMEM;
	s->region[i].st.name = s->region[i].name;
	s->region[i].st.nr = (uint32_t)s->n;
	return s->nregions++;
}

int perfev_self_enter(struct perfev_self *s, int id)
{
	int err;

	if (!s || id < 0 || id >= s->nregions)
		return -EINVAL;
	if (s->depth == MAX_DEPTH)
		return -ENOSPC;
	err = perfev_self_snapshot(s, &s->stack[s->depth]);
	if (err)
		return err;
	s->stack_id[s->depth++] = id;
	return 0;
}

int perfev_self_leave(struct perfev_self *s, int id)
{
	struct perfev_snapshot now;
	struct perfev_region_stats *st;
	bool partial = false;
	size_t i;
	int err;

	err = s ? perfev_self_snapshot(s, &now) : -EINVAL;
	if (err)
		return err;
	if (!s->depth || s->stack_id[s->depth - 1] != id)
		return -EINVAL;
	s->depth--;
	st = &s->region[id].st;
	for (i = 0; i < s->n; i++) {
		struct perfev_delta d;

		perfev_self_delta(s, &s->stack[s->depth], &now, i, &d);
		st->raw[i] += d.raw;
		st->scaled[i] += d.scaled;
		partial |= d.partial;
		if (!i) {
			st->enabled += d.enabled;
			st->running += d.running;
		}
	}
	st->calls++;
	st->partial += partial;
	return 0;
}

int perfev_self_region_count(const struct perfev_self *s)
{
	return s ? s->nregions : -EINVAL;
}

int perfev_self_region_stats(const struct perfev_self *s, int id, struct perfev_region_stats *out)
{
	struct perfev_region_stats st;

	if (!s || id < 0 || id >= s->nregions ||
	    !perfev__out_ok(out, out ? out->sz : 0, sizeof(out->sz)))
		return -EINVAL;
	st = s->region[id].st;
	st.sz = out->sz;
	memcpy(out, &st, out->sz < sizeof(st) ? out->sz : sizeof(st));
	return 0;
}

/* ---- time ------------------------------------------------------------------ */

int perfev_self_time_conv(const struct perfev_self *s, struct perfev_time_conv *out)
{
	const volatile struct perf_event_mmap_page *pg;
	struct perfev_time_conv c = {.sz = sizeof(c)};
	uint32_t seq;

	if (!s || !perfev__out_ok(out, out ? out->sz : 0, sizeof(out->sz)))
		return -EINVAL;
	if (s->page[0] == MAP_FAILED)
		return -EOPNOTSUPP;
	pg = s->page[0];
	do {
		/* Pairs with the kernel's updates of the page under lock. */
		seq = __atomic_load_n(&pg->lock, __ATOMIC_ACQUIRE);
		if (!pg->cap_user_time_zero)
			return -EOPNOTSUPP;
		c.time_zero = pg->time_zero;
		c.time_mult = pg->time_mult;
		c.time_shift = pg->time_shift;
		c.time_short = pg->cap_user_time_short;
		c.time_cycles = pg->time_cycles;
		c.time_mask = pg->time_mask;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		/* An odd lock: the kernel was in the middle of an update. */
	} while (__atomic_load_n(&pg->lock, __ATOMIC_RELAXED) != seq || (seq & 1));
	c.sz = out->sz;
	memcpy(out, &c, out->sz < sizeof(c) ? out->sz : sizeof(c));
	return 0;
}

uint64_t perfev_tsc_to_perf_time(const struct perfev_time_conv *c, uint64_t cyc)
{
	if (c->time_short)
		cyc = c->time_cycles + ((cyc - c->time_cycles) & c->time_mask);
	return c->time_zero + perfev__cyc_to_ns(cyc, c->time_mult, c->time_shift);
}

uint64_t perfev_perf_time_to_tsc(const struct perfev_time_conv *c, uint64_t ns)
{
	uint64_t t = ns - c->time_zero, quot, rem;

	if (!c->time_mult)
		return 0;
	quot = t / c->time_mult;
	rem = t % c->time_mult;
	return (quot << c->time_shift) + (rem << c->time_shift) / c->time_mult;
}

int perfev_self_monotonic_offset(const struct perfev_self *s, int64_t *offset_ns)
{
	struct perfev_time_conv c = {.sz = sizeof(c)};
	double best = 1e18;
	int i, err;

	if (!offset_ns)
		return -EINVAL;
	err = perfev_self_time_conv(s, &c);
	if (err)
		return err;
	if (!perfev__hw_reader)
		return -EOPNOTSUPP;
	for (i = 0; i < 16; i++) {
		double t1 = now_ns(), t2;
		uint64_t cyc = perfev__hw_reader->rdtsc(NULL);

		t2 = now_ns();
		/* The pair read closest together bounds the error best. */
		if (t2 - t1 < best) {
			best = t2 - t1;
			*offset_ns =
			    (int64_t)((t1 + t2) / 2) - (int64_t)perfev_tsc_to_perf_time(&c, cyc);
		}
	}
	return 0;
}
