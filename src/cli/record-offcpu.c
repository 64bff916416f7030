// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev record --off-cpu: how long each thread waited off the CPU, and
 * in which stack, without BPF.
 *
 * The sched:sched_switch tracepoint is sampled with call chains: it fires
 * in the thread that leaves the CPU, so its sample holds the stack the
 * thread blocks in.  The context-switch records of the tracking event
 * (attr.context_switch) say whether that switch was a preemption (the
 * thread still runnable: not a wait) and when the thread runs again.
 * Each wait becomes one sample of an "offcpu-time" event (a software
 * BPF_OUTPUT event, as perf names and types it) whose period is the
 * nanoseconds waited, with the stack of the switch out.
 *
 * The rings of several CPUs are read one after another, so a thread's
 * switch in (on one CPU) can be read before its switch out (on another).
 * The records that matter are queued and handled in time order at the end
 * of each round, up to the latest time of the round before, as perf sorts
 * rounds: the samples written then are in order for perf's sort too.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "common/array.h"
#include "record.h"

/* What the offcpu-time samples carry (perf's OFFCPU_SAMPLE_TYPES but the cgroup). */
#define OFFCPU_SAMPLE_TYPE                                                                         \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |            \
	 PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

enum { Q_OUT_SAMPLE, Q_OUT, Q_IN, Q_EXIT, Q_FORK };

/* A record that matters, queued until its round is handled. */
struct offcpu_q {
	uint64_t time, seq;
	uint32_t tid;
	uint8_t kind;
	bool preempt;
	void *rec; /* Q_OUT_SAMPLE: a copy of the sched_switch sample */
};

/* A thread seen leaving the CPU, or gone. */
struct offcpu_wait {
	void *rec;	/* its last sched_switch sample */
	uint64_t since; /* when it left */
	bool blocked;	/* the switch out was not a preemption */
	bool dead;	/* it exited: its last switch out is no wait */
};

struct rec_offcpu {
	struct perfev_sample_layout *layouts; /* of each event of the session */
	size_t nev, sw_ev;
	struct perf_event_attr attr; /* offcpu-time */
	struct perfev_sample_layout out;
	uint64_t id;
	bool keep_switches;
	PERFEV__ARRAY(struct offcpu_q) q;
	uint64_t seq;
	struct perfev__hashmap waits; /* tid -> struct offcpu_wait * */
	uint64_t max_time, limit;     /* the latest time seen; that at the round before */
	unsigned char buf[65536];     /* one encoded sample */
	uint64_t samples, waited_ns;
	int err;
};

int rec_offcpu_configure(struct perf_event_attr *a, bool kernel_chain)
{
	int err = 0;

	/* Every switch, whatever -c or -F say. */
	a->freq = 0;
	a->sample_period = 1;
	/* The stack is what the event is for: without -g, frame-pointer chains. */
	if (!(a->sample_type & PERF_SAMPLE_CALLCHAIN))
		err = perfev_attr_set_callgraph(a, PERFEV_CALLGRAPH_FP, 0);
	/* Only the stack and the ids are used: no raw data (it would need more privilege). */
	a->sample_type &=
	    ~(uint64_t)(PERF_SAMPLE_RAW | PERF_SAMPLE_READ | PERF_SAMPLE_BRANCH_STACK);
	a->branch_sample_type = 0;
	/* The tracepoint fires in the kernel: --all-user keeps the user part of the stack. */
	a->exclude_kernel = 0;
	a->exclude_callchain_kernel = !kernel_chain;
	return err;
}

size_t rec_offcpu_add_event(struct perfev_evspec *spec, const struct perfev_parse_opts *pa)
{
	struct perfev_parse_error pe = {.sz = sizeof(pe)};

	if (perfev_evspec_add(spec, REC_OFFCPU_TRACEPOINT, pa, &pe)) {
		if (pe.err == -EACCES || pe.err == -EPERM)
			cli_die("cannot record --off-cpu: %s: not permitted (the scheduler's "
				"tracepoints are root's here: run as root)",
				pe.message);
		cli_die("cannot record --off-cpu: %s (it needs tracefs, mounted with 'mount -t "
			"tracefs nodev /sys/kernel/tracing', and the scheduler's tracepoints)",
			pe.message);
	}
	return perfev_evspec_count(spec) - 1;
}

const char *rec_offcpu_conflict(bool overwrite)
{
	return overwrite ? "--off-cpu follows every wait from its start: not with --overwrite, "
			   "which keeps the last records only"
			 : "--off-cpu samples the scheduler's switches: not with -n/--no-samples";
}

static int rec_offcpu_new(const struct perf_event_attr *const *attrs, size_t nev, size_t sw_ev,
			  uint64_t id, bool keep_switches, struct rec_offcpu **out)
{
	struct rec_offcpu *oc = calloc(1, sizeof(*oc));
	const struct perf_event_attr *sw = attrs[sw_ev];
	size_t i;

	if (!oc)
		return -ENOMEM;
	oc->layouts = calloc(nev, sizeof(*oc->layouts));
	if (!oc->layouts) {
		free(oc);
		return -ENOMEM;
	}
	for (i = 0; i < nev; i++)
		if (attrs[i] && perfev_sample_layout_init(&oc->layouts[i], attrs[i])) {
			rec_offcpu_free(oc);
			return -EINVAL;
		}
	oc->nev = nev;
	oc->sw_ev = sw_ev;
	oc->id = id;
	oc->keep_switches = keep_switches;
	perfev__hashmap_init(&oc->waits, perfev__hash_int_key, NULL, NULL);

	/* perf's offcpu-time: a software BPF output event, one sample per wait. */
	oc->attr.type = PERF_TYPE_SOFTWARE;
	oc->attr.size = sizeof(oc->attr);
	oc->attr.config = PERF_COUNT_SW_BPF_OUTPUT;
	oc->attr.sample_period = 1;
	oc->attr.sample_type = OFFCPU_SAMPLE_TYPE;
	/* --call-graph dwarf: the user stack copy goes along, for report to unwind. */
	oc->attr.sample_type |= sw->sample_type & (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER);
	oc->attr.sample_regs_user = sw->sample_regs_user;
	oc->attr.sample_stack_user = sw->sample_stack_user;
	oc->attr.exclude_callchain_user = sw->exclude_callchain_user;
	oc->attr.exclude_callchain_kernel = sw->exclude_callchain_kernel;
	oc->attr.sample_max_stack = sw->sample_max_stack;
	oc->attr.read_format = PERF_FORMAT_ID;
	oc->attr.sample_id_all = 1;
	oc->attr.disabled = 1;
	oc->attr.use_clockid = sw->use_clockid;
	oc->attr.clockid = sw->clockid;
	if (perfev_sample_layout_init(&oc->out, &oc->attr)) {
		rec_offcpu_free(oc);
		return -EINVAL;
	}
	*out = oc;
	return 0;
}

void rec_offcpu_start(struct perfev_session *s, size_t sw_ev, uint64_t id, bool keep_switches,
		      struct rec_offcpu **out)
{
	size_t nev = perfev_session_event_count(s), ev;
	const struct perf_event_attr **attrs;
	int err;

	if (perfev_session_event_state(s, sw_ev) != PERFEV_EVENT_OPEN)
		cli_die("cannot record --off-cpu: the tracepoint '%s' could not be opened",
			REC_OFFCPU_TRACEPOINT);
	attrs = calloc(nev, sizeof(*attrs));
	if (!attrs)
		cli_die("out of memory");
	for (ev = 0; ev < nev; ev++)
		if (perfev_session_event_state(s, ev) == PERFEV_EVENT_OPEN)
			attrs[ev] = perfev_session_event_attr(s, ev);
	err = rec_offcpu_new(attrs, nev, sw_ev, id, keep_switches, out);
	free(attrs);
	if (err)
		cli_die("cannot record --off-cpu: %s", perfev_strerror(err));
}

void rec_offcpu_free(struct rec_offcpu *oc)
{
	struct perfev__hashmap_entry *e;
	size_t i;

	if (!oc)
		return;
	perfev__hashmap_for_each(&oc->waits, e) {
		struct offcpu_wait *w = perfev__key_ptr(e->value);

		free(w->rec);
		free(w);
	}
	perfev__hashmap_release(&oc->waits);
	for (i = 0; i < oc->q.n; i++)
		free(oc->q.v[i].rec);
	perfev__array_release(&oc->q);
	free(oc->layouts);
	free(oc);
}

int rec_offcpu_add_attr(struct rec_offcpu *oc, struct perfev_data_writer *w, struct rec_unwind *uw)
{
	int err = perfev_data_add_attr(w, &oc->attr, REC_OFFCPU_EVENT, &oc->id, 1);

	if (!err && uw)
		err = rec_unwind_add_event(uw, &oc->attr, REC_OFFCPU_EVENT, &oc->id, 1);
	return err;
}

static int queue(struct rec_offcpu *oc, uint8_t kind, uint32_t tid, uint64_t time, bool preempt,
		 const struct perf_event_header *h)
{
	struct offcpu_q *q;

	if (!tid) /* the idle task never waits */
		return 0;
	q = perfev__array_push(&oc->q);
	if (!q)
		return -ENOMEM;
	q->time = time;
	q->seq = oc->seq++;
	q->tid = tid;
	q->kind = kind;
	q->preempt = preempt;
	if (h) {
		q->rec = malloc(h->size);
		if (!q->rec) {
			oc->q.n--;
			return -ENOMEM;
		}
		memcpy(q->rec, h, h->size);
	}
	return 0;
}

bool rec_offcpu_take(struct rec_offcpu *oc, size_t ev, const struct perf_event_header *h)
{
	struct perfev_record r;
	bool consumed = false;
	int err = 0;

	if (ev >= oc->nev || perfev_record_decode(&oc->layouts[ev], h, h->size, &r))
		return false;
	if ((r.sid.present & PERF_SAMPLE_TIME) && r.sid.time > oc->max_time)
		oc->max_time = r.sid.time;
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		if (ev != oc->sw_ev)
			break;
		err = queue(oc, Q_OUT_SAMPLE, r.u.sample.tid, r.u.sample.time, false, h);
		consumed = true;
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		/* The trailer's task is the one switching: out, or in. */
		err = queue(oc, r.u.context_switch.out ? Q_OUT : Q_IN, r.sid.tid, r.sid.time,
			    r.u.context_switch.preempt, NULL);
		consumed = !oc->keep_switches;
		break;
	case PERF_RECORD_EXIT:
		err = queue(oc, Q_EXIT, r.u.fork.tid, r.sid.time, false, NULL);
		break;
	case PERF_RECORD_FORK:
		err = queue(oc, Q_FORK, r.u.fork.tid, r.sid.time, false, NULL);
		break;
	}
	if (err && !oc->err)
		oc->err = err;
	return consumed;
}

static int cmp_q(const void *a, const void *b)
{
	const struct offcpu_q *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static struct offcpu_wait *wait_of(struct rec_offcpu *oc, uint32_t tid, bool add)
{
	struct perfev__hashmap_entry *e;
	struct offcpu_wait *w;
	bool added;

	if (!add) {
		e = perfev__hashmap_entry(&oc->waits, tid);
		return e ? perfev__key_ptr(e->value) : NULL;
	}
	e = perfev__hashmap_upsert(&oc->waits, tid, &added);
	if (!e)
		return NULL;
	if (!added)
		return perfev__key_ptr(e->value);
	w = calloc(1, sizeof(*w));
	if (!w) {
		perfev__hashmap_delete(&oc->waits, tid, NULL, NULL);
		return NULL;
	}
	e->value = perfev__ptr_key(w);
	return w;
}

static void forget(struct rec_offcpu *oc, uint32_t tid)
{
	uint64_t v;

	if (perfev__hashmap_delete(&oc->waits, tid, NULL, &v)) {
		struct offcpu_wait *w = perfev__key_ptr(v);

		free(w->rec);
		free(w);
	}
}

/*
 * The wait of @w ends at @until: one offcpu-time sample, the stack of
 * its switch out, the time it ran again, the nanoseconds as its period.
 * perf's sample address is the first user frame: the same here, the
 * kernel's frames kept in the chain before it.
 */
static void put_wait(struct rec_offcpu *oc, struct offcpu_wait *w, uint64_t until,
		     rec_offcpu_emit_fn emit, void *arg)
{
	const struct perfev_sample_layout *l = &oc->layouts[oc->sw_ev];
	const struct perf_event_header *h = w->rec;
	struct perfev_record r;
	uint64_t i, ctx = 0;
	int len;

	if (perfev_record_decode(l, h, h->size, &r))
		return;
	r.u.sample.identifier = r.u.sample.id = oc->id;
	r.u.sample.period = until - w->since;
	r.u.sample.time = until;
	for (i = 0; i < r.u.sample.callchain_nr; i++) {
		uint64_t a = perfev_u64_at(r.u.sample.callchain, i);

		if (a >= PERF_CONTEXT_MAX) {
			ctx = a;
		} else if (ctx == PERF_CONTEXT_USER) {
			r.u.sample.ip = a;
			r.misc = (uint16_t)((r.misc & ~PERF_RECORD_MISC_CPUMODE_MASK) |
					    PERF_RECORD_MISC_USER);
			break;
		}
	}
	len = perfev_record_encode(&oc->out, &r, oc->buf, sizeof(oc->buf));
	if (len < 0)
		return;
	oc->samples++;
	oc->waited_ns += until - w->since;
	emit(oc->buf, (size_t)len, arg);
}

static void handle(struct rec_offcpu *oc, struct offcpu_q *q, rec_offcpu_emit_fn emit, void *arg)
{
	struct offcpu_wait *w = wait_of(oc, q->tid, q->kind == Q_OUT_SAMPLE || q->kind == Q_EXIT);

	if (!w) {
		if ((q->kind == Q_OUT_SAMPLE || q->kind == Q_EXIT) && !oc->err)
			oc->err = -ENOMEM;
		return;
	}
	switch (q->kind) {
	case Q_OUT_SAMPLE:
		/* The switch out of a thread that exited is its last: no wait. */
		if (w->dead)
			break;
		free(w->rec);
		w->rec = q->rec;
		q->rec = NULL;
		w->since = q->time;
		w->blocked = false;
		break;
	case Q_OUT:
		/* Preempted, it stays runnable: waiting for a CPU is not a wait here (as perf). */
		if (q->preempt || w->dead || !w->rec)
			forget(oc, q->tid);
		else
			w->blocked = true;
		break;
	case Q_IN:
		if (w->blocked && w->rec && q->time >= w->since)
			put_wait(oc, w, q->time, emit, arg);
		forget(oc, q->tid);
		break;
	case Q_EXIT:
		free(w->rec);
		w->rec = NULL;
		w->blocked = false;
		w->dead = true;
		break;
	case Q_FORK:
		/* A new thread that has the number of one gone. */
		forget(oc, q->tid);
		break;
	}
}

/* Handle the queued records up to @limit, in time order. */
static void handle_upto(struct rec_offcpu *oc, uint64_t limit, rec_offcpu_emit_fn emit, void *arg)
{
	size_t i, n;

	if (!oc->q.n)
		return;
	qsort(oc->q.v, oc->q.n, sizeof(*oc->q.v), cmp_q);
	for (n = 0; n < oc->q.n && oc->q.v[n].time <= limit; n++)
		handle(oc, &oc->q.v[n], emit, arg);
	for (i = 0; i < n; i++)
		free(oc->q.v[i].rec);
	memmove(oc->q.v, oc->q.v + n, (oc->q.n - n) * sizeof(*oc->q.v));
	oc->q.n -= n;
}

int rec_offcpu_round(struct rec_offcpu *oc, rec_offcpu_emit_fn emit, void *arg)
{
	handle_upto(oc, oc->limit, emit, arg);
	oc->limit = oc->max_time;
	return oc->err;
}

int rec_offcpu_finish(struct rec_offcpu *oc, rec_offcpu_emit_fn emit, void *arg)
{
	struct perfev__hashmap_entry *e;

	handle_upto(oc, UINT64_MAX, emit, arg);
	/* Still waiting when the recording ends: counted to its end, as perf does. */
	perfev__hashmap_for_each(&oc->waits, e) {
		struct offcpu_wait *w = perfev__key_ptr(e->value);

		if (w->blocked && w->rec && oc->max_time >= w->since)
			put_wait(oc, w, oc->max_time, emit, arg);
		w->blocked = false;
	}
	return oc->err;
}

void rec_offcpu_summary(const struct rec_offcpu *oc, FILE *f)
{
	fprintf(f, "[ perfev record: off-cpu: %" PRIu64 " waits, %.3f s off the CPU in all ]\n",
		oc->samples, (double)oc->waited_ns / 1e9);
}
