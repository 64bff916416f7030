// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev report: the samples of a perf.data file summed by command,
 * thread, shared object, symbol, source line or CPU, as perf report
 * --stdio prints them, with call graphs, and the same profile exported
 * as collapsed stacks, speedscope, pprof or a one-file HTML flame graph.
 *
 * The file is read by the library's source (perfev/source.h: records in
 * time order, threads and maps rebuilt).  Each sample becomes a stack of
 * frames (its call chain, or its address alone) resolved by the source's
 * machine, and goes into a profile (profile.h); the table (report-hist.c,
 * report-graph.c) and the exports are made from the profile.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <perfev/perfev.h>
#include "common/array.h"
#include "input.h"
#include "options.h"
#include "output/output.h"
#include "perfev-cli.h"
#include "report.h"

static const char *const report_usage[] = {
    "perfev report [<options>]",
    NULL,
};

struct builder {
	struct report *r;
	struct input in;
	struct perfev_source *src; /* in.src */
	/* Per frame id of the source's machine: its profile frame + 1, 0: not made yet. */
	struct frame_cache {
		uint32_t *v;
		size_t cap;
	} prof_of, sampled_of; /* sampled_of: as a sampled_only frame */
	uint32_t *frames;      /* the current sample's stack, as profile frames */
	size_t nframes, cap;
	uint64_t seq;	  /* the record whose stack and command those are */
	const char *comm; /* interned */
	uint32_t *ev_of;  /* source's event index -> profile event, UINT32_MAX: not yet */
	size_t nev_of;
	bool meta_done;
	bool skip_samples; /* --header-only on a stream: read it for its features alone */
	/* The file's event groups (GROUP_DESC), by the source's event indexes. */
	struct bgroup {
		uint32_t leader, n;
		const char *name; /* interned, NULL: anonymous */
	} * groups;
	size_t ngroups;
	bool force_group;  /* --group: a file without groups is one group of all its events */
	bool no_group;	   /* --no-group: the same group, shown event by event (perf's) */
	bool leaf_only;	   /* nothing shows callers: the sampled address is all a sample is */
	bool perf_inlines; /* unwound addresses as perf report shows them (see profile_frame) */
	/* progress on a terminal */
	bool progress;
	off_t size;
	uint64_t nsamples;
	struct timespec last;
};

/* Split the comma lists of a repeatable option into names. */
static void split(const struct opt_list *l, struct names *out)
{
	int i;

	out->on = l->n > 0;
	for (i = 0; i < l->n; i++) {
		const char *p = l->items[i];

		while (*p) {
			size_t len = strcspn(p, ",");
			char **v;

			if (len) {
				v = realloc(out->v, (out->n + 1) * sizeof(*v));
				if (!v || !(v[out->n] = strndup(p, len)))
					cli_die("out of memory");
				out->v = v;
				out->n++;
			}
			p += len;
			if (*p == ',')
				p++;
		}
	}
}

static void names_release(struct names *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->v[i]);
	free(f->v);
}

/* --tid, --pid: thread or process ids, each a number. */
static void parse_ids(uint32_t **ids, size_t *n, const struct opt_list *l, const char *opt,
		      const struct option *opts)
{
	struct names t = {0};
	size_t i;

	split(l, &t);
	*ids = calloc(t.n ? t.n : 1, sizeof(**ids));
	if (!*ids)
		cli_die("out of memory");
	for (i = 0; i < t.n; i++) {
		unsigned long long v;

		if (opt_parse_unsigned(t.v[i], UINT32_MAX, &v, NULL))
			usage_error(report_usage, opts, "%s takes ids, not '%s'", opt, t.v[i]);
		(*ids)[(*n)++] = (uint32_t)v;
	}
	names_release(&t);
}

static char level_of(unsigned int cpumode)
{
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:
		return 'k';
	case PERF_RECORD_MISC_HYPERVISOR:
		return 'H';
	case PERF_RECORD_MISC_GUEST_KERNEL:
		return 'g';
	case PERF_RECORD_MISC_GUEST_USER:
		return 'u';
	default:
		return '.';
	}
}

static void push_index(struct builder *b, uint32_t frame)
{
	if (b->nframes == b->cap &&
	    perfev__grow(&b->frames, &b->cap, b->nframes + 1, sizeof(*b->frames)))
		cli_die("out of memory");
	b->frames[b->nframes++] = frame;
}

/*
 * The build ids the recording saw of the objects of the profile's
 * frames, which the pprof export puts in its mappings.
 */
static void note_build_ids(struct profile *p, const struct perfev_machine *m)
{
	struct perfev__intern seen;

	perfev__intern_init(&seen);
	for (size_t i = 0; i < p->nframes; i++) {
		const char *dso = p->frames[i].dso;
		unsigned char id[20];
		size_t k;
		int n;

		/* The dsos are interned: one look-up per pointer. */
		if (!dso || perfev__intern_bytes(&seen, &dso, sizeof(dso), &k) <= 0)
			continue;
		n = perfev_machine_build_id(m, dso, id, sizeof(id));
		if (n > 0)
			(void)profile_set_build_id(p, dso, id, (size_t)n);
	}
	perfev__intern_release(&seen);
}

/*
 * The profile frame of frame @i of @f (@n frames) of process @pid, made
 * once per resolution (the machine gives equal resolutions one id) and
 * role (@sampled_only).  An inlined frame takes after the function it
 * was inlined into, the next frame of its address that is not inlined;
 * an unwound address may have none (perf's inlined frames of DWARF call
 * chains), and then a symbol.
 */
static uint32_t profile_frame(struct builder *b, const struct perfev_frame *f, size_t i, size_t n,
			      uint32_t pid, bool sampled_only)
{
	const struct perfev_frame *fr = &f[i], *outer = fr;
	struct frame_cache *c = sampled_only ? &b->sampled_of : &b->prof_of;
	struct profile_frame pf = {0};
	bool symtab;
	char jit[64];
	uint32_t idx;
	size_t k;

	if (fr->id < c->cap && c->v[fr->id])
		return c->v[fr->id] - 1;
	for (k = i; k < n && f[k].ip == fr->ip && (f[k].flags & PERFEV_FRAME_INLINED); k++)
		;
	if (k < n && f[k].ip == fr->ip)
		outer = &f[k];
	pf.level = level_of(fr->cpumode);
	pf.dso = fr->dso ? fr->dso : "[unknown]";
	/* Executable anonymous memory is a JIT's, named as perf names it. */
	if (fr->dso && (fr->flags & PERFEV_FRAME_ANON) && !strncmp(fr->dso, "/tmp/perf-", 10)) {
		snprintf(jit, sizeof(jit), "[JIT] tid %" PRIu32, pid);
		pf.dso = jit;
	}
	pf.addr = fr->dso && pf.level == 'k' ? fr->ip : fr->addr;
	pf.sampled_only = sampled_only;
	/* perf's inlined functions of an unwound address: entries named by DWARF, at the symbol's.
	 */
	if (b->perf_inlines && (fr->flags & PERFEV_FRAME_UNWOUND) &&
	    (fr->flags & PERFEV_FRAME_INLINED)) {
		pf.unwound_inline = true;
		outer = fr;
	}
	/* A symbol of the symbol table, not a name DWARF gave an address none covers. */
	symtab = outer->sym && !(outer->flags & PERFEV_FRAME_DWARF_NAME);
	if (outer == fr && (fr->flags & PERFEV_FRAME_INLINED))
		symtab = true;
	if (!symtab)
		pf.ip = fr->ip;
	pf.file = fr->file;
	pf.line = fr->line;
	if ((fr->flags & PERFEV_FRAME_INLINED) && !pf.unwound_inline) {
		pf.sym = fr->sym;
		pf.inlined = true;
	} else if (symtab) {
		pf.sym = fr->sym;
		pf.offset = fr->sym_off;
		/* Without lines, one frame per function: its address is the function's. */
		if (!b->r->lines) {
			pf.addr -= pf.offset;
			pf.offset = 0;
		}
	} else {
		pf.sym = fr->sym;
	}
	idx = profile_frame_add(&b->r->prof, &pf);
	if (fr->id >= c->cap) {
		size_t old = c->cap;

		if (perfev__grow(&c->v, &c->cap, (size_t)fr->id + 1, sizeof(*c->v)))
			cli_die("out of memory");
		memset(c->v + old, 0, (c->cap - old) * sizeof(*c->v));
	}
	c->v[fr->id] = idx + 1;
	return idx;
}

/* Put the sampled function's frame @sampled ahead of the sample's frames. */
static void insert_sampled(struct builder *b, uint32_t sampled)
{
	push_index(b, sampled);
	memmove(b->frames + 1, b->frames, (b->nframes - 1) * sizeof(*b->frames));
	b->frames[0] = sampled;
}

/* The frames of a sample: its call chain as perf reads it, or its address. */
static void sample_frames(struct builder *b, const struct perfev_source_event *ev)
{
	unsigned int flags = b->r->lines ? PERFEV_FRAMES_SRCLINE | PERFEV_FRAMES_INLINE : 0;
	struct perfev_machine *m = perfev_source_machine(b->src);
	const struct perfev_frame *f = NULL;
	size_t i, n = 0;
	const struct perfev_sample *smp;
	uint64_t leaf_ip;
	int err = 0;

	b->nframes = 0;
	if (!b->leaf_only)
		err =
		    perfev_source_frames(b->src, ev,
					 flags | PERFEV_FRAMES_CHAIN |
					     (b->perf_inlines ? PERFEV_FRAMES_UNWOUND_INLINES : 0),
					 &f, &n);
	/* A chain perf drops (an unknown context) leaves the sampled address. */
	if (!err && !n)
		err = perfev_source_frames(b->src, ev, flags, &f, &n);
	/* Not even that (no PERF_SAMPLE_IP): the address 0, unresolved. */
	if (!err && !n)
		err = perfev_machine_resolve(m, ev->pid, ev->cpumode, ev->rec->u.sample.ip, flags,
					     &f, &n);
	if (err)
		cli_die("out of memory");
	for (i = 0; i < n; i++)
		push_index(b, profile_frame(b, f, i, n, ev->pid, false));
	/*
	 * A chain that does not start at the sampled address (perf record
	 * --off-cpu's samples: the address is the task's user one, the
	 * chain starts in the scheduler): as perf, the address names the
	 * sample's line, the chain its call graph.
	 */
	smp = &ev->rec->u.sample;
	if (n && !b->leaf_only && (smp->present & PERF_SAMPLE_IP) && smp->ip != f[0].ip) {
		if (perfev_source_frames(b->src, ev, flags, &f, &n))
			cli_die("out of memory");
		if (n) {
			insert_sampled(b, profile_frame(b, f, n - 1, n, ev->pid, true));
			return;
		}
	}
	/*
	 * An unwound sampled address in an inlined function: the chain names
	 * DWARF's functions there, the sampled function is the symbol's,
	 * ahead of them.
	 */
	if (b->perf_inlines && n && (f[0].flags & PERFEV_FRAME_UNWOUND) &&
	    (f[0].flags & PERFEV_FRAME_INLINED)) {
		leaf_ip = f[0].ip;
		if (perfev_machine_resolve(m, ev->pid, ev->cpumode, leaf_ip, flags, &f, &n) || !n)
			cli_die("out of memory");
		insert_sampled(b, profile_frame(b, f, n - 1, n, ev->pid, true));
	}
}

static const char *meta_string(struct builder *b, int feat)
{
	char buf[4096];

	if (perfev_data_feature_string(perfev_source_data(b->src), feat, buf, sizeof(buf)) < 0)
		return NULL;
	return profile_intern(&b->r->prof, buf);
}

/*
 * The file's event groups, as perf reads GROUP_DESC: each leader with the
 * events after it.  Groups that overlap, run past the events or come out
 * of order are not used, and said once.
 */
static void read_groups(struct builder *b)
{
	const struct perfev_data_reader *rd = perfev_source_data(b->src);
	struct perfev_data_group g;
	size_t nattrs = perfev_data_attr_count(rd), i, end = 0;
	int err = 0;

	for (i = 0; (err = perfev_data_group(rd, i, &g)) == 0; i++) {
		struct bgroup *v;

		if (g.leader < end || g.nr_members > nattrs || g.leader > nattrs - g.nr_members) {
			err = -EBADMSG;
			break;
		}
		v = realloc(b->groups, (b->ngroups + 1) * sizeof(*v));
		if (!v)
			cli_die("out of memory");
		b->groups = v;
		v[b->ngroups].leader = g.leader;
		v[b->ngroups].n = g.nr_members;
		v[b->ngroups++].name = profile_intern(&b->r->prof, g.name);
		end = g.leader + g.nr_members;
	}
	if (err != -ENOENT && err != -ERANGE) {
		cli_error(
		    "warning: the event groups of '%s' (its GROUP_DESC section) do not fit its "
		    "events; each event is shown on its own",
		    b->in.path);
		b->ngroups = 0;
	}
}

static void read_meta(struct builder *b)
{
	struct profile_meta *m = &b->r->prof.meta;
	uint64_t v;

	b->meta_done = true;
	m->hostname = meta_string(b, PERFEV_FEAT_HOSTNAME);
	m->os_release = meta_string(b, PERFEV_FEAT_OSRELEASE);
	m->arch = meta_string(b, PERFEV_FEAT_ARCH);
	m->cpu_desc = meta_string(b, PERFEV_FEAT_CPUDESC);
	m->perf_version = meta_string(b, PERFEV_FEAT_VERSION);
	m->cmdline = meta_string(b, PERFEV_FEAT_CMDLINE);
	m->input = profile_intern(&b->r->prof, b->in.path);
	if (!perfev_data_feature_u64(perfev_source_data(b->src), PERFEV_FEAT_NRCPUS, 1, &v))
		m->nr_cpus = (uint32_t)v;
	read_groups(b);
}

/* "reading perf.data: 45%" on a terminal, at most ten times a second. */
static void progress(struct builder *b, const struct perfev_source_event *ev)
{
	struct timespec now;
	double ms;

	if (!b->progress || (++b->nsamples & 4095))
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (double)(now.tv_sec - b->last.tv_sec) * 1e3 +
	     (double)(now.tv_nsec - b->last.tv_nsec) / 1e6;
	if (ms < 100)
		return;
	b->last = now;
	fprintf(stderr, "\rperfev report: reading %s: %3d%% (%" PRIu64 " samples)",
		b->r->prof.meta.input, (int)(100.0 * (double)ev->offset / (double)b->size),
		b->nsamples);
}

static const char *event_name(struct builder *b, size_t idx)
{
	const char *name = perfev_source_attr_name(b->src, idx);

	if (!name)
		cli_die("out of memory");
	return name;
}

/*
 * The profile's event for the reader's event @idx: events in the file's
 * order, whichever samples come first, and the rest of its group with it
 * (all events when --group makes them one), so that the profile's events
 * are the reader's.
 */
static uint32_t event_of(struct builder *b, size_t idx)
{
	size_t nev = perfev_source_attr_count(b->src), i, last = idx;

	for (i = 0; i < b->ngroups; i++)
		if (idx >= b->groups[i].leader && idx - b->groups[i].leader < b->groups[i].n)
			last = b->groups[i].leader + b->groups[i].n - 1;
	if ((b->force_group || b->no_group) && !b->ngroups && nev)
		last = nev - 1;
	if (last >= nev)
		last = idx;
	if (last >= b->nev_of) {
		uint32_t *n = realloc(b->ev_of, (last + 1) * sizeof(*n));

		if (!n)
			cli_die("out of memory");
		memset(n + b->nev_of, 0xff, (last + 1 - b->nev_of) * sizeof(*n));
		b->ev_of = n;
		b->nev_of = last + 1;
	}
	if (b->ev_of[idx] == UINT32_MAX)
		for (i = 0; i <= last; i++)
			if (b->ev_of[i] == UINT32_MAX)
				b->ev_of[i] = profile_event_add(&b->r->prof, event_name(b, i));
	return b->ev_of[idx];
}

/* The sample's CPU when lines are kept apart by it, else -1. */
static int32_t sample_cpu(const struct report *r, const struct perfev_sample *smp)
{
	return (r->want[SK_CPU] || r->cpu_labels) && (smp->present & PERF_SAMPLE_CPU)
		   ? (int32_t)smp->cpu
		   : -1;
}

/* perf's data source of a sample without one: every field "not available". */
#define DATA_SRC_NONE                                                                              \
	((uint64_t)PERF_MEM_OP_NA << PERF_MEM_OP_SHIFT |                                           \
	 (uint64_t)PERF_MEM_LVL_NA << PERF_MEM_LVL_SHIFT |                                         \
	 (uint64_t)PERF_MEM_SNOOP_NA << PERF_MEM_SNOOP_SHIFT |                                     \
	 (uint64_t)PERF_MEM_LOCK_NA << PERF_MEM_LOCK_SHIFT |                                       \
	 (uint64_t)PERF_MEM_TLB_NA << PERF_MEM_TLB_SHIFT |                                         \
	 (uint64_t)PERF_MEM_LVLNUM_NA << PERF_MEM_LVLNUM_SHIFT)

/* The profile frame of a branch's (or a data) address. */
static uint32_t branch_frame(struct builder *b, const struct perfev_source_event *ev, uint64_t ip)
{
	struct perfev_machine *m = perfev_source_machine(b->src);
	const struct perfev_frame *f;
	size_t n = 0;

	/* As perf, whichever space holds the address, not the sample's. */
	if (perfev_machine_resolve(m, ev->pid,
				   ip >> 63 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER, ip,
				   0, &f, &n) ||
	    !n)
		cli_die("out of memory");
	return profile_frame(b, f, 0, n, ev->pid, false);
}

/*
 * Branch mode: each entry of the sample's branch stack is a line's
 * sample of period 1 (perf's), its source and target a stack of two
 * frames, its cycles the stack's tag.
 */
static void add_branches(struct builder *b, const struct perfev_source_event *ev)
{
	struct report *r = b->r;
	const struct perfev_sample *smp = &ev->rec->u.sample;
	uint32_t e = event_of(b, ev->attr_idx), fr[2], st;
	const char *comm = profile_intern(&r->prof, ev->comm);
	struct profile_tags t = {0};
	uint64_t i;

	report_note_comm(r, smp->tid, comm);
	for (i = 0; i < smp->branch_nr; i++) {
		uint64_t from = perfev_u64_at(smp->branches, i * 3);
		uint64_t to = perfev_u64_at(smp->branches, i * 3 + 1);
		uint64_t flags = perfev_u64_at(smp->branches, i * 3 + 2);

		fr[0] = branch_frame(b, ev, from);
		fr[1] = branch_frame(b, ev, to);
		r->prof.events[e].samples++;
		r->prof.events[e].period++;
		t.tag = (flags >> 4) & 0xffff;
		st = profile_add_tagged(&r->prof, e, comm, smp->pid, smp->tid, sample_cpu(r, smp),
					&t, fr, 2, 1);
		if (smp->present & PERF_SAMPLE_TIME)
			profile_add_time(&r->prof, st, smp->time, 1);
	}
}

/*
 * Add a sample (one member of a group's, when it read its group) to its
 * event; its stack and command are looked up once per record.
 */
static void add_sample(struct builder *b, const struct perfev_source_event *ev)
{
	struct report *r = b->r;
	const struct perfev_sample *smp = &ev->rec->u.sample;
	uint32_t e = event_of(b, ev->attr_idx);
	uint64_t period = ev->period, weight;
	struct profile_tags t = {0};
	uint32_t st;
	int k;

	/* A frequency without PERF_SAMPLE_PERIOD says nothing of the period: one per sample. */
	if (!(smp->present & (PERF_SAMPLE_READ | PERF_SAMPLE_PERIOD)) && ev->attr->attr->freq)
		period = 1;
	/* perf's weight of a sample: PERF_SAMPLE_WEIGHT's, or the first of WEIGHT_STRUCT's. */
	weight = (smp->present & PERF_SAMPLE_WEIGHT_STRUCT) ? smp->weight_struct.var1_dw
		 : (smp->present & PERF_SAMPLE_WEIGHT)	    ? smp->weight
							    : 0;
	/* --mem-mode: the weight is the period (at least 1), as perf's memory report. */
	if (r->mem_mode)
		period = weight ? weight : 1;
	r->prof.events[e].samples++;
	r->prof.events[e].period += period;
	if (ev->seq != b->seq) {
		b->seq = ev->seq;
		sample_frames(b, ev);
		b->comm = profile_intern(&r->prof, ev->comm);
		report_note_comm(r, smp->tid, b->comm);
	}
	if (r->want[SK_WEIGHT] || r->want[SK_LOCAL_WEIGHT])
		t.tag = weight;
	if (r->want[SK_LOCAL_INS_LAT] && (smp->present & PERF_SAMPLE_WEIGHT_STRUCT))
		t.ins_lat = smp->weight_struct.var2_w;
	for (k = SK_MEM; k <= SK_BLOCKED; k++)
		if (r->want[k])
			t.data_src =
			    (smp->present & PERF_SAMPLE_DATA_SRC) ? smp->data_src : DATA_SRC_NONE;
	if ((r->want[SK_SYM_DADDR] || r->want[SK_DSO_DADDR]) && (smp->present & PERF_SAMPLE_ADDR))
		t.daddr = branch_frame(b, ev, smp->addr) + 1;
	st = profile_add_tagged(&r->prof, e, b->comm, smp->pid, smp->tid, sample_cpu(r, smp), &t,
				b->frames, (uint32_t)b->nframes, period);
	if (smp->present & PERF_SAMPLE_TIME)
		profile_add_time(&r->prof, st, smp->time, period);
}

static void on_sample(struct builder *b, const struct perfev_source_event *ev)
{
	struct report *r = b->r;
	const struct perfev_sample *smp = &ev->rec->u.sample;

	if (!b->meta_done)
		read_meta(b);
	progress(b, ev);
	if (ev->attr->attr->sample_type & PERF_SAMPLE_CALLCHAIN)
		r->have_callchains = true;
	if (smp->present & PERF_SAMPLE_TIME) {
		if (!r->prof.meta.time_first || smp->time < r->prof.meta.time_first)
			r->prof.meta.time_first = smp->time;
		if (smp->time > r->prof.meta.time_last)
			r->prof.meta.time_last = smp->time;
	}
	if (r->branch_mode)
		add_branches(b, ev);
	else
		add_sample(b, ev);
}

/* -T: a thread's count at its exit, its first value as perf reads it. */
static void on_read(struct builder *b, const struct perfev_source_event *ev)
{
	const struct perfev_record *rec = ev->rec;
	uint64_t v;

	if (perfev_sample_read_value(&ev->attr->layout, &rec->u.read.values, 0, &v, NULL, NULL))
		return;
	report_threads_add(b->r, rec->u.read.pid, rec->u.read.tid, ev->attr_idx,
			   event_name(b, ev->attr_idx), v);
}

/* Read the whole file into the profile.  The exit status: a file cut short still gives one. */
static int read_all(struct builder *b)
{
	struct perfev_source_stats st = {.sz = sizeof(st)};
	const struct perfev_source_event *ev;
	bool failed = false;
	int err, status = 0;

	while ((err = perfev_source_next(b->src, &ev)) > 0) {
		if (ev->kind == PERFEV_SOURCE_SAMPLE && !b->skip_samples && input_keep(&b->in, ev))
			on_sample(b, ev);
		else if (ev->type == PERF_RECORD_READ && b->r->show_threads && ev->rec && ev->attr)
			on_read(b, ev);
	}
	if (err == -ENOMEM)
		cli_die("out of memory");
	if (err < 0)
		status = input_fail(&b->in, err);
	input_warn_end(&b->in, &failed);
	perfev_source_stats(b->src, &st);
	b->r->prof.meta.lost = st.lost_samples;
	return status || failed;
}

static const struct {
	const char *name;
} sort_names[SK_MAX] = {
    [SK_COMM] = {"comm"},
    [SK_PID] = {"pid"},
    [SK_DSO] = {"dso"},
    [SK_SYM] = {"sym"},
    [SK_SRCLINE] = {"srcline"},
    [SK_CPU] = {"cpu"},
    [SK_PERIOD] = {"period"},
    [SK_WEIGHT] = {"weight"},
    [SK_LOCAL_WEIGHT] = {"local_weight"},
    [SK_DSO_FROM] = {"dso_from"},
    [SK_DSO_TO] = {"dso_to"},
    [SK_SYM_FROM] = {"symbol_from"},
    [SK_SYM_TO] = {"symbol_to"},
    [SK_CYCLES] = {"cycles"},
    [SK_LOCAL_INS_LAT] = {"local_ins_lat"},
    [SK_MEM] = {"mem"},
    [SK_SNOOP] = {"snoop"},
    [SK_TLB] = {"tlb"},
    [SK_LOCKED] = {"locked"},
    [SK_BLOCKED] = {"blocked"},
    [SK_SYM_DADDR] = {"symbol_daddr"},
    [SK_DSO_DADDR] = {"dso_daddr"},
    [SK_IPC_NULL] = {"ipc_null"},
};

/* What a name of perf's sort keys and fields is here: a key, or one of these. */
enum { NK_UNSUPPORTED = -1, NK_DROP = -2, NK_SAMPLE = -3, NK_OVERHEAD = -4 };

/*
 * perf 6.1's sort keys and fields in the order it matches them: the
 * first whose name starts with the one given (case aside) is taken, so
 * "sym" is "symbol".  Those without a key here are refused by name.
 */
static const struct {
	const char *name;
	int key;
} perf_keys[] = {
    {"pid", SK_PID},
    {"comm", SK_COMM},
    {"dso", SK_DSO},
    {"symbol", SK_SYM},
    {"parent", NK_UNSUPPORTED},
    {"cpu", SK_CPU},
    {"socket", NK_UNSUPPORTED},
    {"srcline", SK_SRCLINE},
    {"srcfile", NK_UNSUPPORTED},
    {"local_weight", SK_LOCAL_WEIGHT},
    {"weight", SK_WEIGHT},
    {"transaction", NK_UNSUPPORTED},
    {"trace", NK_UNSUPPORTED},
    {"symbol_size", NK_UNSUPPORTED},
    {"dso_size", NK_UNSUPPORTED},
    {"cgroup", NK_UNSUPPORTED},
    {"cgroup_id", NK_UNSUPPORTED},
    {"ipc_null", SK_IPC_NULL},
    {"time", NK_UNSUPPORTED},
    {"code_page_size", NK_UNSUPPORTED},
    {"local_ins_lat", SK_LOCAL_INS_LAT},
    {"ins_lat", NK_UNSUPPORTED},
    /* perf 6.1 drops the pipeline stage keys outside powerpc. */
    {"local_p_stage_cyc", NK_DROP},
    {"p_stage_cyc", NK_DROP},
    {"addr", NK_UNSUPPORTED},
    {"overhead", NK_OVERHEAD},
    {"overhead_sys", NK_UNSUPPORTED},
    {"overhead_us", NK_UNSUPPORTED},
    {"overhead_guest_sys", NK_UNSUPPORTED},
    {"overhead_guest_us", NK_UNSUPPORTED},
    {"overhead_children", NK_OVERHEAD},
    {"sample", NK_SAMPLE},
    {"period", SK_PERIOD},
    {"dso_from", SK_DSO_FROM},
    {"dso_to", SK_DSO_TO},
    {"symbol_from", SK_SYM_FROM},
    {"symbol_to", SK_SYM_TO},
    {"mispredict", NK_UNSUPPORTED},
    {"in_tx", NK_UNSUPPORTED},
    {"abort", NK_UNSUPPORTED},
    {"cycles", SK_CYCLES},
    {"srcline_from", NK_UNSUPPORTED},
    {"srcline_to", NK_UNSUPPORTED},
    {"ipc_lbr", NK_UNSUPPORTED},
    {"addr_from", NK_UNSUPPORTED},
    {"addr_to", NK_UNSUPPORTED},
    {"symbol_daddr", SK_SYM_DADDR},
    {"dso_daddr", SK_DSO_DADDR},
    {"locked", SK_LOCKED},
    {"tlb", SK_TLB},
    {"mem", SK_MEM},
    {"snoop", SK_SNOOP},
    {"dcacheline", NK_UNSUPPORTED},
    {"symbol_iaddr", NK_UNSUPPORTED},
    {"phys_daddr", NK_UNSUPPORTED},
    {"data_page_size", NK_UNSUPPORTED},
    {"blocked", SK_BLOCKED},
};

/* The entry of perf_keys[] that @len bytes at @p name, or -1. */
static int perf_key(const char *p, size_t len)
{
	size_t i;

	for (i = 0; len && i < sizeof(perf_keys) / sizeof(perf_keys[0]); i++)
		if (strlen(perf_keys[i].name) >= len && !strncasecmp(p, perf_keys[i].name, len))
			return (int)i;
	return -1;
}

/* --sort and -F: sort keys; with @fields also "overhead", "overhead_children" and "sample". */
static void parse_keys(struct report *r, const char *spec, bool fields, const struct option *opts)
{
	const char *p = spec;

	r->nkeys = 0;
	memset(r->want, 0, sizeof(r->want));
	while (*p) {
		size_t len = strcspn(p, ",");
		int i = perf_key(p, len), k = i < 0 ? NK_UNSUPPORTED : perf_keys[i].key;

		if (k == NK_DROP || (fields && k == NK_OVERHEAD)) {
			/* nothing: overhead is always shown */
		} else if (fields && k == NK_SAMPLE) {
			r->show_nr = true;
		} else if (i >= 0 && k < 0) {
			usage_error(report_usage, opts,
				    "cannot sort by '%.*s' (perf's '%s'): not "
				    "supported yet",
				    (int)len, p, perf_keys[i].name);
		} else if (k < 0) {
			usage_error(
			    report_usage, opts,
			    "unknown %s '%.*s' (known: comm, pid, dso, sym, srcline, cpu, period, "
			    "weight, "
			    "local_weight, local_ins_lat; with branch stacks dso_from, dso_to, "
			    "symbol_from, symbol_to, cycles; with --mem-mode mem, snoop, tlb, "
			    "locked, "
			    "blocked, symbol_daddr, dso_daddr%s)",
			    fields ? "field" : "sort key", (int)len, p,
			    fields ? ", overhead, overhead_children, sample" : "");
		} else if (!r->want[k] && r->nkeys < SK_MAX) {
			r->keys[r->nkeys++] = (enum sort_key)k;
			r->want[k] = true;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	if (!r->nkeys)
		usage_error(report_usage, opts, "%s needs at least one key",
			    fields ? "-F" : "--sort");
}

/*
 * -g: [graph|fractal|flat|folded|none][,THRESHOLD][,caller|callee], the
 * parts in any order as perf takes them.
 */
static void parse_graph(struct report *r, const char *spec, bool *order_set,
			const struct option *opts)
{
	const char *p = spec;

	while (*p) {
		size_t len = strcspn(p, ",");
		char word[64], *end;
		double v;

		snprintf(word, sizeof(word), "%.*s", (int)(len < 63 ? len : 63), p);
		if (!strcmp(word, "graph"))
			r->graph = GM_GRAPH;
		else if (!strcmp(word, "fractal"))
			r->graph = GM_FRACTAL;
		else if (!strcmp(word, "flat"))
			r->graph = GM_FLAT;
		else if (!strcmp(word, "folded"))
			r->graph = GM_FOLDED;
		else if (!strcmp(word, "none"))
			r->graph = GM_NONE;
		else if (!strcmp(word, "caller") || !strcmp(word, "callee")) {
			r->caller = word[5] == 'r';
			*order_set = true;
		} else if (!strcmp(word, "function") || !strcmp(word, "percent")) {
			/* perf's defaults, the only ones here */
		} else if (v = strtod(word, &end), end != word && !*end && v >= 0 && v <= 100) {
			r->graph_limit = v;
		} else {
			usage_error(report_usage, opts,
				    "-g takes graph, fractal, flat, folded or none, a threshold "
				    "percentage and caller or callee, not '%s'",
				    word);
		}
		p += len;
		if (*p == ',')
			p++;
	}
}

static bool stack_listed(const struct profile_stack *s, void *r)
{
	return report_stack_listed(r, s);
}

/*
 * Write one export to @path ("-": standard output).  A failure is said
 * and gives status 1; the other exports are written all the same.
 */
static int write_export(struct report *r, const char *path, const char *what, size_t ev,
			int (*fn)(const struct profile *, size_t, FILE *))
{
	struct cli_output out;
	int err;

	if (!path)
		return 0;
	if (!strcmp(path, "-")) {
		err = fn(&r->prof, ev, stdout);
		if (err)
			cli_error("cannot write the %s output '-': %s", what, perfev_strerror(err));
		return err ? 1 : 0;
	}
	if (cli_output_open(&out, path, what, 0666, CLI_OUT_STDIO))
		return 1;
	err = fn(&r->prof, ev, out.f);
	if (err && !out.err) {
		/* Not a write error: the file is not put in place. */
		cli_error("cannot write the %s output '%s': %s", what, path, perfev_strerror(err));
		cli_output_discard(&out);
		return 1;
	}
	return cli_output_close(&out) ? 1 : 0;
}

/* --event: the index of the event named @name, or the error that lists those there are. */
static size_t export_event_index(const struct profile *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nevents; i++)
		if (!strcmp(p->events[i].name, name))
			return i;
	fprintf(stderr,
		"%s: cannot export event '%s': the file has no such event (it has:", cli_prog,
		name);
	for (i = 0; i < p->nevents; i++)
		fprintf(stderr, "%s '%s'", i ? "," : "", p->events[i].name);
	fputs(")\n", stderr);
	exit(2);
}

/*
 * Each profile event's group: the file's, or with --group one of all
 * events when the file has none.  The group view shows a group's events
 * together unless --no-group (perf's default, and --group's only effect
 * on a file that has groups).
 */
static void set_groups(struct report *r, const struct builder *b, bool no_group)
{
	size_t nev = r->prof.nevents, i, m;
	struct bgroup all = {0, (uint32_t)nev, NULL};
	const struct bgroup *g = b->groups;
	size_t ng = b->ngroups;

	if (!nev)
		return;
	r->groups = calloc(nev, sizeof(*r->groups));
	if (!r->groups)
		cli_die("out of memory");
	for (i = 0; i < nev; i++) {
		r->groups[i].leader = (uint32_t)i;
		r->groups[i].n = 1;
	}
	/*
	 * perf forces one group on a file without any when told either way:
	 * with --no-group its events keep their sections, the first titled
	 * as a group's leader ("of events").
	 */
	if (!ng && (b->force_group || b->no_group)) {
		g = &all;
		ng = 1;
	}
	for (i = 0; i < ng; i++) {
		/* The profile has a group's events from the leader on: those it made. */
		uint32_t n = g[i].leader >= nev		  ? 0
			     : g[i].n < nev - g[i].leader ? g[i].n
							  : (uint32_t)(nev - g[i].leader);

		for (m = 0; m < n; m++) {
			r->groups[g[i].leader + m].leader = g[i].leader;
			r->groups[g[i].leader + m].idx = (uint32_t)m;
		}
		if (n > 1) {
			r->groups[g[i].leader].n = n;
			r->groups[g[i].leader].name = g[i].name;
			r->groups[g[i].leader].forced = g == &all;
			r->group_view = !no_group;
		}
	}
}

/* Set the keys of @spec (perf's default order of a mode), as --sort would. */
static void default_keys(struct report *r, const char *spec)
{
	const char *p = spec;
	size_t k, len;

	memset(r->want, 0, sizeof(r->want));
	r->nkeys = 0;
	for (; *p; p += len + (p[len] == ',')) {
		len = strcspn(p, ",");
		for (k = 0; k < SK_MAX; k++)
			if (strlen(sort_names[k].name) == len &&
			    !strncmp(p, sort_names[k].name, len))
				break;
		if (k < SK_MAX && !r->want[k]) {
			r->keys[r->nkeys++] = (enum sort_key)k;
			r->want[k] = true;
		}
	}
	r->graph_skips_sym = false;
}

/*
 * perf's modes.  Branch mode: a line per branch of the samples' branch
 * stacks, for a file with the BRANCH_STACK feature (perf record -b
 * writes it) or with -b.  Memory mode (--mem-mode): the samples'
 * weights as their periods, the data source's columns.  Each sorted by
 * its own keys unless told otherwise (@sorted).  Returns 0, 1 (a mode
 * the file's samples cannot give) or 2 (a mode's keys outside it),
 * after saying why.
 */
static int setup_modes(struct report *r, const struct builder *b, bool branch, bool no_branch,
		       bool mem, const char *sorted)
{
	static const char mem_order[] = "local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,"
					"tlb,locked,blocked,local_ins_lat,local_p_stage_cyc";
	const struct perfev_data_reader *rd = perfev_source_data(b->src);
	uint64_t types = 0;
	size_t i;
	int k;

	for (i = 0; i < perfev_data_attr_count(rd); i++)
		types |= perfev_data_attr(rd, i)->attr->sample_type;
	if (branch && !(types & PERF_SAMPLE_BRANCH_STACK)) {
		cli_error("cannot report branches of '%s': its samples have no branch stacks "
			  "(record them with perf record -b or -j)",
			  b->in.path);
		return 1;
	}
	if (mem && !(types & PERF_SAMPLE_DATA_SRC)) {
		cli_error("cannot report memory accesses of '%s': its samples have no data "
			  "source (record them with perf mem record or perf record -d)",
			  b->in.path);
		return 1;
	}
	/* As perf, memory mode wins over the branch mode a file's feature asks for. */
	r->mem_mode = mem;
	r->branch_mode = branch || (!no_branch && !mem &&
				    !perfev_data_feature(rd, PERFEV_FEAT_BRANCH_STACK, NULL, NULL));
	r->sort_order = sorted ? sorted : mem_order;
	if (r->branch_mode && !sorted)
		default_keys(r, "comm,dso_from,symbol_from,symbol_to,cycles");
	if (r->mem_mode && !sorted)
		default_keys(r, mem_order);
	/*
	 * perf 6.1 adds its IPC column to an order that names a "symbol..."
	 * key (with branch stacks it adds another, and crashes).
	 */
	if (sorted && strstr(sorted, "symbol") && !r->branch_mode && r->nkeys < SK_MAX &&
	    !r->want[SK_IPC_NULL]) {
		r->keys[r->nkeys++] = SK_IPC_NULL;
		r->want[SK_IPC_NULL] = true;
		if (asprintf(&r->sort_order_buf, "%s,ipc_null", sorted) < 0)
			cli_die("out of memory");
		r->sort_order = r->sort_order_buf;
	}
	for (k = 0; k < r->nkeys; k++) {
		enum sort_key key = r->keys[k];
		const char *mode = NULL;

		if (key >= SK_DSO_FROM && key <= SK_CYCLES && !r->branch_mode)
			mode = "--branch-stack (-b), for files recorded with branch stacks";
		else if (key >= SK_MEM && key <= SK_DSO_DADDR && !r->mem_mode)
			mode = "--mem-mode";
		if (mode) {
			cli_error("cannot sort by '%s' here: it is a key of %s",
				  sort_names[key].name, mode);
			return 2;
		}
	}
	return 0;
}

static void report_release(struct report *r)
{
	report_hist_release(r);
	profile_release(&r->prof);
	names_release(&r->fcomm);
	names_release(&r->fdso);
	names_release(&r->fsym);
	free(r->ftid);
	free(r->fpid);
	free(r->groups);
	free(r->sort_order_buf);
	free(r->frame_origin);
	report_threads_release(r);
}

/*
 * -v: where the symbols of each frame's file came from, asked of the
 * symbolizer while the recording is open ('k' the kernel's kallsyms).
 */
static void frame_origins(struct report *r, struct perfev_source *src)
{
	struct perfev_symbolizer *sz = perfev_machine_symbolizer(perfev_source_machine(src));
	size_t i;

	r->frame_origin = calloc(r->prof.nframes + 1, 1);
	if (!r->frame_origin)
		cli_die("out of memory");
	for (i = 0; i < r->prof.nframes; i++) {
		const struct profile_frame *f = &r->prof.frames[i];
		int o = f->level == 'k' ? 'k'
			: f->dso && sz	? perfev_symbolizer_origin(sz, f->dso)
					: -1;

		r->frame_origin[i] = o > 0 ? (char)o : '!';
	}
}

int cmd_report(int argc, const char **argv)
{
	struct report r;
	struct builder b;
	struct opt_list comms = {0}, dsos = {0}, syms = {0}, tids = {0}, pids = {0};
	struct input_opts io = {0};
	struct input_filter_opts fo = {0};
	static const char default_sort[] = "comm,dso,sym";
	const char *sort = default_sort, *fields = NULL, *limit = NULL, *graph = NULL;
	const char *folded = NULL, *speedscope = NULL, *pprof = NULL, *html = NULL;
	const char *export_event = NULL;
	size_t export_ev = SIZE_MAX;
	bool stdio = false, children = false, no_children = false, inverted = false;
	bool inline_frames = false, no_inline = false, order_set = false;
	bool header = false, header_only = false, branch_stack = false, no_branch_stack = false;
	bool mem_mode = false, show_info = false;
	struct stat st;
	int status;

	memset(&r, 0, sizeof(r));
	memset(&b, 0, sizeof(b));
	profile_init(&r.prof);
	r.graph = GM_GRAPH;
	r.graph_limit = 0.5;
	{
		const struct option opts[] = {
		    OPT_STR('i', "input", &io.path, "FILE",
			    "the perf.data file to read (default: perf.data; -: standard input)"),
		    OPT_FLAG(0, "stdio", &stdio,
			     "the text table (the default; with an export, print it too)"),
		    OPT_STR('s', "sort", &sort, "KEYS",
			    "what to sum samples by: comm, pid, dso, sym, srcline, cpu, period, "
			    "weight, local_weight, local_ins_lat; branch stacks: dso_from, dso_to, "
			    "symbol_from, symbol_to, cycles; --mem-mode: mem, snoop, tlb, locked, "
			    "blocked, symbol_daddr, dso_daddr (default comm,dso,sym)"),
		    OPT_STR('F', "fields", &fields, "FIELDS",
			    "the columns: overhead, sample and sort keys"),
		    OPT_STR(0, "percent-limit", &limit, "PERCENT",
			    "hide the lines (and graph branches) below this percentage"),
		    OPT_FLAG('n', "show-nr-samples", &r.show_nr, "a column with the sample count"),
		    OPT_FLAG(
			'v', "verbose", &r.verbose,
			"whole paths, and each symbol's first address and where its table came "
			"from"),
		    OPT_FLAG(0, "show-total-period", &r.show_period,
			     "a column with the period (the sum of the samples' periods)"),
		    OPT_FLAG('T', "threads", &r.show_threads,
			     "after the report, each thread's counts at its exit (perf record -s)"),
		    OPT_FLAG(
			'b', "branch-stack", &branch_stack,
			"a line per branch of the samples' branch stacks (the default for files "
			"recorded with them)"),
		    OPT_FLAG(0, "no-branch-stack", &no_branch_stack,
			     "the samples themselves, not their branch stacks"),
		    OPT_FLAG(0, "mem-mode", &mem_mode,
			     "memory accesses: weights as periods, data sources and addresses "
			     "(perf mem's report)"),
		    OPT_FLAG(0, "header", &header, "the file's header before the report"),
		    OPT_FLAG(0, "header-only", &header_only, "the file's header only"),
		    OPT_FLAG('I', "show-info", &show_info,
			     "with --header: CPU and NUMA topology, caches and memory in full"),
		    OPT_MULTI('c', "comms", &comms, "COMMS", "only these commands (comma list)"),
		    OPT_MULTI('d', "dsos", &dsos, "DSOS", "only these shared objects (comma list)"),
		    OPT_MULTI('S', "symbols", &syms, "SYMS", "only these symbols (comma list)"),
		    OPT_MULTI(0, "tid", &tids, "TIDS", "only these threads (comma list)"),
		    OPT_MULTI(0, "pid", &pids, "PIDS", "only these processes (comma list)"),
		    OPT_STR(0, "time", &fo.time, "START,STOP",
			    "only samples in this time span (seconds; 'A,B C,D' several; "
			    "10%/2, 0%-10%: percents of the recording)"),
		    OPT_STR('C', "cpu", &fo.cpus, "CPUS",
			    "only samples on these CPUs (e.g. 0-3,8)"),
		    OPT_FLAG(
			0, "children", &children,
			"add callees' samples to their callers (the default with call chains)"),
		    OPT_FLAG(0, "no-children", &no_children, "self overhead only"),
		    OPT_STR('g', "call-graph", &graph, "MODE[,LIMIT][,ORDER]",
			    "call graphs: graph, fractal, flat, folded or none; LIMIT percent "
			    "(0.5); caller or callee"),
		    OPT_FLAG('G', "inverted", &inverted,
			     "call graphs from the callers (-g caller)"),
		    OPT_FLAG(0, "inline", &inline_frames,
			     "inlined functions in call graphs (reads source lines; without it, "
			     "those of DWARF-unwound addresses only, as perf)"),
		    OPT_FLAG(0, "no-inline", &no_inline, "no inlined functions in call graphs"),
		    OPT_FLAG(0, "no-demangle", &io.no_demangle,
			     "C++ and Rust names as the files spell them"),
		    OPT_STR('k', "kallsyms", &io.kallsyms, "FILE",
			    "the recording's kernel symbols (its machine's /proc/kallsyms)"),
		    OPT_STR(0, "symfs", &io.symfs, "DIR",
			    "look every file up under DIR (the recording's files copied there)"),
		    OPT_STR(0, "archive", &io.archive, "ARCHIVE",
			    "the recording's files from ARCHIVE (perfev archive's, or perf's)"),
		    OPT_FLAG(0, "group", &b.force_group,
			     "a group's events side by side (the default; a file without groups "
			     "is one group)"),
		    OPT_FLAG(0, "no-group", &b.no_group, "each event of a group on its own"),
		    OPT_HEADING("Exports (FILE - is standard output)"),
		    OPT_STR(0, "folded", &folded, "FILE", "collapsed stacks, one line per stack"),
		    OPT_STR(0, "speedscope", &speedscope, "FILE", "speedscope's JSON format"),
		    OPT_STR(0, "pprof", &pprof, "FILE", "pprof's gzipped protobuf"),
		    OPT_STR(
			0, "html", &html, "FILE",
			"one HTML file: flame graph, timeline, sandwich and source, top functions"),
		    OPT_STR(0, "event", &export_event, "NAME",
			    "the event the exports show (the first, or all in HTML, without it)"),
		    OPT_TERMINATOR,
		};

		if (parse_options(argc, argv, opts, report_usage, 0))
			usage_error(report_usage, opts, "unexpected argument '%s'", argv[0]);
		if (children && no_children)
			usage_error(report_usage, opts, "--children and --no-children disagree");
		if (inline_frames && no_inline)
			usage_error(report_usage, opts, "--inline and --no-inline disagree");
		if (b.force_group && b.no_group)
			usage_error(report_usage, opts, "--group and --no-group disagree");
		if (branch_stack && no_branch_stack)
			usage_error(report_usage, opts,
				    "--branch-stack and --no-branch-stack disagree");
		parse_keys(&r, fields ? fields : sort, fields != NULL, opts);
		r.graph_skips_sym = !fields && !strncmp(sort, "sym", 3);
		split(&comms, &r.fcomm);
		split(&dsos, &r.fdso);
		split(&syms, &r.fsym);
		parse_ids(&r.ftid, &r.nftid, &tids, "--tid", opts);
		parse_ids(&r.fpid, &r.nfpid, &pids, "--pid", opts);
		if (limit) {
			char *end;

			r.percent_limit = strtod(limit, &end);
			if (end == limit || *end ||
			    !(r.percent_limit >= 0 && r.percent_limit <= 100))
				usage_error(report_usage, opts,
					    "--percent-limit takes a percentage from 0 to 100, not "
					    "'%s'",
					    limit);
			/* As perf, it hides call graph branches too, unless -g says otherwise. */
			r.graph_limit = r.percent_limit;
		}
		if (graph)
			parse_graph(&r, graph, &order_set, opts);
		if (inverted) {
			r.caller = true;
			order_set = true;
		}
	}
	/* Source lines are read when shown: the srcline key, inlined frames, the exports that carry
	 * them. */
	r.inline_frames = inline_frames;
	r.cpu_labels = pprof != NULL;
	/* The page's timeline: when each sample was taken. */
	r.prof.timed = html != NULL;
	r.lines = r.want[SK_SRCLINE] || inline_frames || pprof || html || speedscope;
	b.r = &r;
	/* perf report's inlined entries of DWARF call chains, in the text report alone. */
	b.perf_inlines = !no_inline && !r.lines && !folded;
	b.leaf_only =
	    no_children && r.graph == GM_NONE && !folded && !speedscope && !pprof && !html;
	b.progress = isatty(STDERR_FILENO) && io.path && strcmp(io.path, "-") &&
		     !stat(io.path, &st) && st.st_size > (16 << 20);
	b.size = b.progress ? st.st_size : 0;
	clock_gettime(CLOCK_MONOTONIC, &b.last);
	/* A file cut short still gets the report of what it has, and a failure status. */
	status = input_open(&b.in, &io);
	/* --time and -C drop samples (the total too); the other filters hide lines. */
	if (!status)
		status = input_filter(&b.in, &fo);
	r.time_str = fo.time;
	if (!status) {
		b.src = b.in.src;
		bool pipe = perfev_data_is_pipe(perfev_source_data(b.src));

		status = setup_modes(&r, &b, branch_stack, no_branch_stack, mem_mode,
				     fields		    ? fields
				     : sort != default_sort ? sort
							    : NULL);
		if (status) {
			input_close(&b.in);
			report_release(&r);
			return status;
		}
		/* A file's header is known at once; a stream's features come with its records. */
		r.header_shown = header || header_only;
		if (r.header_shown && !pipe)
			input_print_header(&b.in, NULL, show_info);
		b.skip_samples = header_only;
		if (!header_only || pipe)
			status = read_all(&b);
		if (r.header_shown && pipe)
			input_print_header(&b.in, NULL, show_info);
	}
	if (header_only) {
		input_close(&b.in);
		report_release(&r);
		return status;
	}
	if (r.verbose)
		frame_origins(&r, b.src);
	if (pprof && b.src)
		note_build_ids(&r.prof, perfev_source_machine(b.src));
	/* A profile without samples still says what it counts (pprof's readers want types). */
	if (pprof && b.src && !r.prof.nevents && perfev_source_attr_count(b.src))
		event_of(&b, 0);
	/* The profile holds copies of what it needs: the symbols' memory goes now. */
	input_close(&b.in);
	b.src = NULL;
	if (b.progress && b.nsamples >= 4096)
		fprintf(stderr, "\r\033[K");
	/* As perf: callers' overhead by default when there are call chains. */
	r.children = r.have_callchains && !no_children;
	set_groups(&r, &b, b.no_group);
	if (!order_set)
		r.caller = r.children;
	if (!status || r.prof.nevents) {
		bool table = stdio || !(folded || speedscope || pprof || html);

		/* The exports alone need the table's labels and filters, not its call graphs. */
		if (!table)
			r.graph = GM_NONE;
		report_hist_build(&r);
		if (table)
			report_hist_print(&r);
		if (export_event)
			export_ev = export_event_index(&r.prof, export_event);
		/* The exports hold the stacks the filters let through (--time and -C's already). */
		profile_keep(&r.prof, stack_listed, &r);
		status |= write_export(&r, folded, "folded", export_ev, profile_write_folded);
		status |=
		    write_export(&r, speedscope, "speedscope", export_ev, profile_write_speedscope);
		status |= write_export(&r, pprof, "pprof", export_ev, profile_write_pprof);
		status |= write_export(&r, html, "HTML", export_ev, profile_write_html);
	}
	free(b.frames);
	free(b.ev_of);
	free(b.groups);
	free(b.prof_of.v);
	free(b.sampled_of.v);
	report_release(&r);
	opt_list_release(&comms);
	opt_list_release(&dsos);
	opt_list_release(&syms);
	opt_list_release(&tids);
	opt_list_release(&pids);
	return status;
}
