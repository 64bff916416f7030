// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The lines of perfev report: the profile's stacks summed by the sort
 * keys.  A stack's sampled function gets the period as its self
 * overhead; with --children every function on the stack (each once, even
 * when recursion repeats it) gets it as its children overhead, as perf
 * report does when samples have call chains.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "perfev-cli.h"
#include "report.h"

static const struct {
	const char *name, *header;
} key_names[SK_MAX] = {
    [SK_COMM] = {"comm", "Command"},
    [SK_PID] = {"pid", "    Pid:Command"}, /* perf's, as perf diff's */
    [SK_DSO] = {"dso", "Shared Object"},
    [SK_SYM] = {"sym", "Symbol"},
    [SK_SRCLINE] = {"srcline", "Source:Line"},
    [SK_CPU] = {"cpu", "CPU"},
    [SK_PERIOD] = {"period", "Period"},
    [SK_WEIGHT] = {"weight", "Weight"},
    [SK_LOCAL_WEIGHT] = {"local_weight", "Local Weight"},
    [SK_DSO_FROM] = {"dso_from", "Source Shared Object"},
    [SK_DSO_TO] = {"dso_to", "Target Shared Object"},
    [SK_SYM_FROM] = {"symbol_from", "Source Symbol"},
    [SK_SYM_TO] = {"symbol_to", "Target Symbol"},
    [SK_CYCLES] = {"cycles", "Basic Block Cycles"},
    [SK_LOCAL_INS_LAT] = {"local_ins_lat", "Local INSTR Latency"},
    [SK_MEM] = {"mem", "Memory access"},
    [SK_SNOOP] = {"snoop", "Snoop"},
    [SK_TLB] = {"tlb", "TLB access"},
    [SK_LOCKED] = {"locked", "Locked"},
    [SK_BLOCKED] = {"blocked", "Blocked"},
    [SK_SYM_DADDR] = {"symbol_daddr", "Data Symbol"},
    [SK_DSO_DADDR] = {"dso_daddr", "Data Object"},
    [SK_IPC_NULL] = {"ipc_null", "IPC   [IPC Coverage]"},
};

const char *report_frame_label(const struct profile_frame *f, char *buf, size_t len)
{
	if (f->sym && !f->inlined && !f->unwound_inline)
		return f->sym;
	if (f->sym) {
		snprintf(buf, len, "%s (inlined)", f->sym);
		return buf;
	}
	snprintf(buf, len, "%#" PRIx64, f->ip);
	return buf;
}

bool report_listed(const struct names *f, const char *s)
{
	size_t i;

	if (!f->on)
		return true;
	for (i = 0; s && i < f->n; i++)
		if (!strcmp(f->v[i], s))
			return true;
	return false;
}

static bool id_listed(const uint32_t *ids, size_t n, uint32_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return !n;
}

bool report_stack_listed(const struct report *r, const struct profile_stack *s)
{
	const struct profile_frame *f;
	uint32_t i = 0, fi;

	if (!report_listed(&r->fcomm, s->comm) || !id_listed(r->ftid, r->nftid, s->tid) ||
	    !id_listed(r->fpid, r->nfpid, s->pid))
		return false;
	if (!r->fdso.on && !r->fsym.on)
		return true;
	/* The sampled function: a branch's target, else the stack's first frame not inlined. */
	if (r->branch_mode)
		i = s->nframes == 2;
	while (i + 1 < s->nframes && r->prof.frames[s->frames[i]].inlined)
		i++;
	if (i >= s->nframes)
		return false;
	fi = s->frames[i];
	f = &r->prof.frames[fi];
	return report_listed(&r->fdso, r->short_dso[fi]) &&
	       report_listed(&r->fsym, f->unwound_inline ? r->labels[fi] : f->sym);
}

/* The event whose lines event @ev's samples go to: its group's leader in the group view. */
static uint32_t line_event(const struct report *r, uint32_t ev)
{
	return r->group_view && r->groups ? r->groups[ev].leader : ev;
}

/* Event @ev's place among the sums of its lines. */
static uint32_t member(const struct report *r, uint32_t ev)
{
	return r->group_view && r->groups ? r->groups[ev].idx : 0;
}

/* How many events share the lines of event @ev (a leader's, in the group view). */
static uint32_t members(const struct report *r, uint32_t ev)
{
	return r->group_view && r->groups ? r->groups[ev].n : 1;
}

static uint64_t hkey_hash(uint64_t key, void *ctx)
{
	const struct hkey *k = perfev__key_ptr(key);
	uint64_t h = perfev__hash_combine((uint64_t)k->ev << 32 | k->tid, (uint32_t)k->cpu);

	h = perfev__hash_combine(h, (uintptr_t)k->comm);
	h = perfev__hash_combine(h, (uintptr_t)k->dso);
	h = perfev__hash_combine(h, (uintptr_t)k->sym);
	h = perfev__hash_combine(h, (uintptr_t)k->srcline);
	h = perfev__hash_combine(h, (uintptr_t)k->sym_path);
	h = perfev__hash_combine(h, k->sym_start);
	h = perfev__hash_combine(h, k->tag);
	h = perfev__hash_combine(h, (uintptr_t)k->from_dso);
	h = perfev__hash_combine(h, (uintptr_t)k->from_sym);
	h = perfev__hash_combine(h, (uintptr_t)k->from_path);
	h = perfev__hash_combine(h, k->from_addr ^ k->from_start);
	h = perfev__hash_combine(h, k->ins_lat ^ k->data_src);
	h = perfev__hash_combine(h, (uintptr_t)k->d_dso ^ (uintptr_t)k->d_sym);
	h = perfev__hash_combine(h, k->d_addr ^ k->d_start ^ (uintptr_t)k->d_path);
	return perfev__hash_u64(perfev__hash_combine(h, k->addr));
}

static bool hkey_equal(uint64_t x, uint64_t y, void *ctx)
{
	const struct hkey *a = perfev__key_ptr(x), *b = perfev__key_ptr(y);

	return a->ev == b->ev && a->tid == b->tid && a->cpu == b->cpu && a->comm == b->comm &&
	       a->dso == b->dso && a->sym == b->sym && a->srcline == b->srcline &&
	       a->sym_path == b->sym_path && a->sym_start == b->sym_start && a->addr == b->addr &&
	       a->tag == b->tag && a->from_dso == b->from_dso && a->from_sym == b->from_sym &&
	       a->from_path == b->from_path && a->from_addr == b->from_addr &&
	       a->from_start == b->from_start && a->ins_lat == b->ins_lat &&
	       a->data_src == b->data_src && a->d_dso == b->d_dso && a->d_sym == b->d_sym &&
	       a->d_path == b->d_path && a->d_addr == b->d_addr && a->d_start == b->d_start;
}

/*
 * The line @e stands for (only the sort keys' fields count; its strings
 * interned, so compared as pointers), added when new.  As perf, the
 * level is not part of a symbol: the first sample's is shown.
 */
static struct hent *entry(struct report *r, const struct hent *e)
{
	struct perfev__hashmap_entry *slot;
	struct hkey k = {0};
	struct hent *h;
	size_t n;
	int i;
	bool added, want_sym;

	k.ev = e->ev;
	/* A thread is one line, whatever it was called: perf shows its last command. */
	k.comm = r->want[SK_COMM] ? e->comm : NULL;
	k.tid = r->want[SK_PID] ? e->tid : 0;
	/* perf compares the symbols of its IPC column too. */
	want_sym = r->want[SK_SYM] || r->want[SK_SYM_TO] || r->want[SK_IPC_NULL];
	k.dso = r->want[SK_DSO] || r->want[SK_DSO_TO] ? e->dso : NULL;
	k.sym = want_sym ? e->sym : NULL;
	/* Functions of one name in two files, or two static ones in one, stay apart. */
	k.sym_path = want_sym && e->sym ? e->path : NULL;
	k.sym_start = want_sym && e->sym ? e->sym_start : 0;
	k.addr = want_sym && !e->sym ? e->addr : 0;
	/* A branch's tag is its cycles; its weight is 1 whatever they are (perf's). */
	k.tag = r->want[SK_CYCLES] ||
			(!r->branch_mode && (r->want[SK_WEIGHT] || r->want[SK_LOCAL_WEIGHT]))
		    ? e->tag
		    : 0;
	k.from_dso = r->want[SK_DSO_FROM] ? e->from.dso : NULL;
	k.from_sym = r->want[SK_SYM_FROM] ? e->from.sym : NULL;
	k.from_path = r->want[SK_SYM_FROM] && e->from.sym ? e->from.path : NULL;
	k.from_start = r->want[SK_SYM_FROM] && e->from.sym ? e->from.sym_start : 0;
	k.from_addr = r->want[SK_SYM_FROM] && !e->from.sym ? e->from.addr : 0;
	k.ins_lat = r->want[SK_LOCAL_INS_LAT] ? e->ins_lat : 0;
	for (i = SK_MEM; i <= SK_BLOCKED; i++)
		if (r->want[i])
			k.data_src |= report_mem_key((enum sort_key)i, e->data_src);
	k.d_sym = r->want[SK_SYM_DADDR] ? e->daddr.sym : NULL;
	k.d_path = r->want[SK_SYM_DADDR] && e->daddr.sym ? e->daddr.path : NULL;
	k.d_start = r->want[SK_SYM_DADDR] && e->daddr.sym ? e->daddr.sym_start : 0;
	k.d_addr = r->want[SK_SYM_DADDR] && !e->daddr.sym ? e->daddr.addr : 0;
	k.d_dso = r->want[SK_DSO_DADDR] ? e->daddr.dso : NULL;
	k.srcline = r->want[SK_SRCLINE] ? e->srcline : NULL;
	k.cpu = r->want[SK_CPU] ? e->cpu : 0;
	r->ents.hash = hkey_hash;
	r->ents.equal = hkey_equal;
	slot = perfev__hashmap_upsert(&r->ents, perfev__ptr_key(&k), &added);
	if (!slot)
		cli_die("out of memory");
	if (!added)
		return perfev__key_ptr(slot->value);
	n = members(r, e->ev);
	h = malloc(sizeof(*h) + n * sizeof(h->sum[0]));
	if (!h)
		cli_die("out of memory");
	*h = *e;
	h->key = k;
	memset(h->sum, 0, n * sizeof(h->sum[0]));
	h->seq = (uint32_t)(perfev__hashmap_size(&r->ents) - 1);
	memset(&h->graph, 0, sizeof(h->graph));
	/* The key becomes the line's own copy of it. */
	slot->key = perfev__ptr_key(&h->key);
	slot->value = perfev__ptr_key(h);
	return h;
}

/*
 * The source line perf shows for frame @first of @s: "file.c:12" from the
 * innermost line at that address; for a file without a line there, "??:0"
 * (or "name@plt+off" in a PLT); where no file could be read (the kernel
 * without vmlinux) "symbol+offset"; with no symbol "object[address]".
 */
static const char *srcline_of(struct report *r, const struct profile_stack *s, uint32_t first)
{
	const struct profile_frame *f = &r->prof.frames[s->frames[first]];
	const char **memo = &r->srclines[s->frames[first]];
	size_t n = f->sym ? strlen(f->sym) : 0;
	char buf[4096];

	if (*memo)
		return *memo;
	if (f->file) {
		const char *b = strrchr(f->file, '/');

		snprintf(buf, sizeof(buf), "%s:%" PRIu32, b ? b + 1 : f->file, f->line);
	} else if (!f->sym) {
		snprintf(buf, sizeof(buf), "%s[%" PRIx64 "]", profile_short_dso(f->dso), f->addr);
	} else if (f->level == '.' && f->dso[0] == '/' &&
		   (n < 4 || strcmp(f->sym + n - 4, "@plt"))) {
		snprintf(buf, sizeof(buf), "??:0");
	} else {
		snprintf(buf, sizeof(buf), "%s+%" PRIu64, f->sym, f->offset);
	}
	return *memo = profile_intern(&r->prof, buf);
}

static bool unmapped(const struct profile_frame *f)
{
	return f->dso[0] == '[' && !strcmp(f->dso, "[unknown]");
}

/*
 * The level perf shows for frame @i of @s outside every map: that of the
 * frame it met before, walking the chain from the sampled function up
 * (callee order) or from the outermost down (caller order), else the
 * sample's own.
 */
static char unmapped_level(const struct report *r, const struct profile_stack *s, uint32_t i,
			   uint32_t leaf)
{
	const struct profile_frame *f;
	uint32_t j;

	if (r->caller) {
		for (j = i + 1; j < s->nframes; j++) {
			f = &r->prof.frames[s->frames[j]];
			if (!f->inlined && !unmapped(f))
				return f->level;
		}
	} else {
		for (j = i; j-- > leaf;) {
			f = &r->prof.frames[s->frames[j]];
			if (!f->inlined && !unmapped(f))
				return f->level;
		}
	}
	return r->prof.frames[s->frames[leaf]].level;
}

/* @out: frame @fi, a data address (its object's short name, its symbol or address). */
static void set_hfrom(const struct report *r, struct hfrom *out, uint32_t fi)
{
	const struct profile_frame *f = &r->prof.frames[fi];

	out->dso = r->short_dso[fi];
	out->level = f->level;
	out->sym = f->sym;
	out->path = f->dso;
	out->sym_start = f->addr - f->offset;
	out->addr = f->sym ? f->addr : f->ip;
}

/* What a line takes from its stack besides its frames: the CPU and the tags. */
static void stack_fields(const struct report *r, const struct profile_stack *s, struct hent *e)
{
	e->cpu = s->cpu;
	e->tag = s->tags.tag;
	e->ins_lat = s->tags.ins_lat;
	e->data_src = s->tags.data_src;
	if (s->tags.daddr)
		set_hfrom(r, &e->daddr, s->tags.daddr - 1);
}

static struct hent *frame_entry(struct report *r, const struct profile_stack *s, uint32_t i,
				uint32_t first, uint32_t leaf, bool self)
{
	const struct profile_frame *f = &r->prof.frames[s->frames[i]];
	struct hent e = {0};

	e.ev = line_event(r, s->ev);
	e.comm = s->comm;
	e.tid = s->tid;
	e.dso = r->short_dso[s->frames[i]];
	/* As perf, a caller outside every map is shown at the sampled address's level. */
	e.level = unmapped(f) && !self ? unmapped_level(r, s, i, leaf) : f->level;
	/* perf's inlined entries are symbols of their own, "name (inlined)". */
	e.sym = f->unwound_inline ? r->labels[s->frames[i]] : f->sym;
	e.unwound_inline = f->unwound_inline;
	e.origin = r->frame_origin ? r->frame_origin[s->frames[i]] : 0;
	e.path = f->dso;
	e.sym_start = f->addr - f->offset;
	/* perf's quirk: an unresolved caller is named by its address in the process, not the file.
	 */
	e.addr = f->sym || self ? f->addr : f->ip;
	stack_fields(r, s, &e);
	if (r->want[SK_SRCLINE])
		e.srcline = srcline_of(r, s, first);
	if (!report_listed(&r->fcomm, e.comm) || !report_listed(&r->fdso, e.dso) ||
	    !report_listed(&r->fsym, e.sym) || !id_listed(r->ftid, r->nftid, e.tid) ||
	    !id_listed(r->fpid, r->nfpid, s->pid))
		return NULL;
	return entry(r, &e);
}

/* The names of the graph path of a line, outermost first. */
struct path {
	struct gstep *v;
	size_t n, cap;
};

static void path_push(struct path *p, const char *name, uint32_t dso_ord, uint64_t addr,
		      bool inlined)
{
	cli_grow(&p->v, &p->cap, p->n + 1, sizeof(*p->v));
	p->v[p->n].name = name;
	p->v[p->n].dso_ord = dso_ord;
	p->v[p->n].inlined = inlined;
	p->v[p->n++].addr = addr;
}

/*
 * The graph path of frames [@from, @to] of @s (indexes, leaf first):
 * with callers first from @to down to @from, else from @from up.
 */
static void graph_path(struct report *r, const struct profile_stack *s, uint32_t from, uint32_t to,
		       struct path *p)
{
	uint32_t k;

	p->n = 0;
	for (k = 0; k <= to - from; k++) {
		uint32_t i = r->caller ? to - k : from + k;
		const struct profile_frame *f = &r->prof.frames[s->frames[i]];

		if ((f->inlined && !r->inline_frames) || f->sampled_only)
			continue;
		/* Without graphs only the path's length counts (perf's depth order). */
		if (r->graph == GM_NONE) {
			p->n++;
			continue;
		}
		/*
		 * Inlined functions are told apart by name (their address is the
		 * sample's, or perf's inlined entries' the symbol's they are in).
		 */
		path_push(p, r->labels[s->frames[i]], r->dso_ord[s->frames[i]],
			  f->inlined || f->unwound_inline ? 0
			  : f->sym			  ? f->addr - f->offset
							  : f->ip,
			  f->inlined || f->unwound_inline);
	}
}

/* What one stack adds up: the lines it has touched, each once. */
struct touch {
	struct hent **seen;
	size_t nseen, cap;
	struct path path;
	struct real {
		uint32_t i, first;
	} * real;
	size_t cap_real;
};

/*
 * Add stack @s to the line of its frame @i (@first: that frame's
 * innermost inlined frame, @leaf: the sampled function's frame), as the
 * sampled function (@self) or as a caller.
 */
static void touch(struct report *r, const struct profile_stack *s, uint32_t i, uint32_t first,
		  uint32_t leaf, bool self, struct touch *t)
{
	struct hsum *sum;
	struct hent *h;
	size_t k;

	h = frame_entry(r, s, i, first, leaf, self);
	if (!h)
		return;
	for (k = 0; k < t->nseen && t->seen[k] != h; k++)
		;
	if (k < t->nseen)
		return; /* recursion: once per stack */
	cli_grow(&t->seen, &t->cap, t->nseen + 1, sizeof(*t->seen));
	t->seen[t->nseen++] = h;
	sum = &h->sum[member(r, s->ev)];
	if (self) {
		sum->self += s->period;
		sum->samples += s->samples;
	}
	if (r->children)
		sum->children += s->period;
	/* As perf, a group's line shows the call graph of its leader's samples. */
	if (!r->have_callchains || member(r, s->ev))
		return;
	/*
	 * The sampled function's line shows whole stacks; a caller's line,
	 * with children, the paths from it to the sampled one (or from it up
	 * to the outermost with -g callee).
	 */
	if (self)
		graph_path(r, s, 0, s->nframes - 1, &t->path);
	else if (r->caller)
		graph_path(r, s, 0, i, &t->path);
	else
		graph_path(r, s, i, s->nframes - 1, &t->path);
	if (t->path.n > h->max_depth)
		h->max_depth = (uint32_t)t->path.n;
	if (r->graph != GM_NONE)
		graph_add(&r->graph_mem, &h->graph, t->path.v, t->path.n, s->period);
}

/* Branch mode: a stack is a branch, its source then its target (cmd-report.c). */
static void add_branch(struct report *r, const struct profile_stack *s)
{
	const struct profile_frame *from, *to;
	struct hent e = {0}, *h;
	struct hsum *sum;

	if (s->nframes != 2)
		return;
	from = &r->prof.frames[s->frames[0]];
	to = &r->prof.frames[s->frames[1]];
	e.ev = line_event(r, s->ev);
	e.comm = s->comm;
	e.tid = s->tid;
	stack_fields(r, s, &e);
	e.dso = r->short_dso[s->frames[1]];
	e.level = to->level;
	e.sym = to->sym;
	e.path = to->dso;
	e.sym_start = to->addr - to->offset;
	e.addr = to->addr;
	e.from.dso = r->short_dso[s->frames[0]];
	e.from.level = from->level;
	e.from.sym = from->sym;
	e.from.path = from->dso;
	e.from.sym_start = from->addr - from->offset;
	e.from.addr = from->addr;
	if (!report_listed(&r->fcomm, e.comm) || !report_listed(&r->fdso, e.dso) ||
	    !report_listed(&r->fsym, e.sym) || !id_listed(r->ftid, r->nftid, e.tid) ||
	    !id_listed(r->fpid, r->nfpid, s->pid))
		return;
	h = entry(r, &e);
	sum = &h->sum[member(r, s->ev)];
	sum->self += s->period;
	sum->samples += s->samples;
}

static void add_stack(struct report *r, const struct profile_stack *s, struct touch *t)
{
	uint32_t i, first = 0, n = 0, leaf;

	/* The functions of the stack (not inlined), each with its innermost inlined frame. */
	cli_grow(&t->real, &t->cap_real, s->nframes, sizeof(*t->real));
	for (i = 0; i < s->nframes; i++) {
		if (r->prof.frames[s->frames[i]].inlined)
			continue;
		t->real[n].i = i;
		t->real[n++].first = first;
		first = i + 1;
	}
	if (!n)
		return;
	t->nseen = 0;
	leaf = t->real[0].i;
	touch(r, s, leaf, t->real[0].first, leaf, true, t);
	if (!r->children)
		return;
	/* As perf, an unresolved sampled address is also a caller line of its own. */
	if (!r->prof.frames[s->frames[leaf]].sym)
		touch(r, s, leaf, t->real[0].first, leaf, false, t);
	/*
	 * The callers in the order perf walks the chain: from the outermost
	 * with caller graphs, else from the sampled one up; where recursion
	 * repeats a function, the first met counts, with its path.
	 */
	for (i = 1; i < n; i++) {
		uint32_t k = r->caller ? n - i : i;

		touch(r, s, t->real[k].i, t->real[k].first, leaf, false, t);
	}
}

/*
 * Per frame, once: its name in call graphs, and its object's rank as
 * perf meets objects (the kernel first, then in the order frames name them).
 */
static void prepare_frames(struct report *r)
{
	struct perfev__hashmap seen = {0}; /* an object's interned name -> its rank */
	struct perfev__hashmap_entry *e;
	size_t i;
	bool added;

	r->dso_ord = calloc(r->prof.nframes ? r->prof.nframes : 1, sizeof(*r->dso_ord));
	r->labels = calloc(r->prof.nframes ? r->prof.nframes : 1, sizeof(*r->labels));
	r->short_dso = calloc(r->prof.nframes ? r->prof.nframes : 1, sizeof(*r->short_dso));
	r->srclines = calloc(r->prof.nframes ? r->prof.nframes : 1, sizeof(*r->srclines));
	if (!r->dso_ord || !r->labels || !r->short_dso || !r->srclines)
		cli_die("out of memory");
	/* Nothing mapped ranks below everything (perf compares its objects' addresses). */
	if (perfev__hashmap_add(&seen, perfev__ptr_key(profile_intern(&r->prof, "[unknown]")), 0) ||
	    perfev__hashmap_add(&seen,
				perfev__ptr_key(profile_intern(&r->prof, "[kernel.kallsyms]")), 1))
		cli_die("out of memory");
	for (i = 0; i < r->prof.nframes; i++) {
		const char *d = r->prof.frames[i].dso;
		char buf[4096];

		r->labels[i] = profile_intern(
		    &r->prof, report_frame_label(&r->prof.frames[i], buf, sizeof(buf)));
		r->short_dso[i] = profile_intern(&r->prof, r->verbose ? d : profile_short_dso(d));
		e = perfev__hashmap_upsert(&seen, perfev__ptr_key(d), &added);
		if (!e)
			cli_die("out of memory");
		if (added)
			e->value = perfev__hashmap_size(&seen) - 1;
		r->dso_ord[i] = (uint32_t)e->value;
	}
	perfev__hashmap_release(&seen);
}

void report_hist_build(struct report *r)
{
	struct touch t = {0};
	size_t i;

	prepare_frames(r);
	for (i = 0; i < r->prof.nstacks; i++) {
		if (r->branch_mode)
			add_branch(r, &r->prof.stacks[i]);
		else
			add_stack(r, &r->prof.stacks[i], &t);
	}
	free(t.seen);
	free(t.path.v);
	free(t.real);
}

void report_hist_release(struct report *r)
{
	struct perfev__hashmap_entry *e;

	perfev__arena_release(&r->graph_mem);
	perfev__hashmap_for_each(&r->ents, e)
		free(perfev__key_ptr(e->value));
	perfev__hashmap_release(&r->ents);
	perfev__hashmap_release(&r->tcomms);
	free(r->dso_ord);
	r->dso_ord = NULL;
	free(r->labels);
	r->labels = NULL;
	free(r->short_dso);
	r->short_dso = NULL;
	free(r->srclines);
	r->srclines = NULL;
}

void report_note_comm(struct report *r, uint32_t tid, const char *comm)
{
	if (perfev__hashmap_set(&r->tcomms, tid, perfev__ptr_key(comm), NULL, NULL) < 0)
		cli_die("out of memory");
}

/* The last command thread @tid had, or NULL. */
static const char *last_comm(const struct report *r, uint32_t tid)
{
	uint64_t comm;

	return perfev__hashmap_find(&r->tcomms, tid, &comm) ? perfev__key_ptr(comm) : NULL;
}

static void sym_text(char *buf, size_t len, char level, const char *sym, uint64_t addr)
{
	if (sym)
		snprintf(buf, len, "[%c] %s", level, sym);
	else
		snprintf(buf, len, "[%c] %#.16" PRIx64, level, addr);
}

/* A line's samples' weight, each (its samples are of one weight); a branch's is 1 (perf 6.1's). */
static uint64_t weight_of(const struct report *r, const struct hent *h)
{
	return r->branch_mode ? 1 : h->tag;
}

/* The text of one column of @h. */
static void column(const struct report *r, const struct hent *h, enum sort_key k, char *buf,
		   size_t len)
{
	const char *last;

	switch (k) {
	case SK_COMM:
		snprintf(buf, len, "%s", h->comm);
		break;
	case SK_PID:
		last = last_comm(r, h->tid);
		snprintf(buf, len, "%7" PRIu32 ":%s", h->tid, last ? last : h->comm);
		break;
	case SK_DSO:
		snprintf(buf, len, "%s", h->dso);
		break;
	case SK_SYM:
	case SK_SYM_TO:
		if (r->verbose) {
			/* perf -v: the address of the line's first sample, the symbols' origin. */
			int n = snprintf(buf, len, "%-#18" PRIx64 " %c ", h->addr,
					 h->origin ? h->origin : '!');

			if (n > 0 && (size_t)n < len)
				sym_text(buf + n, len - (size_t)n, h->level, h->sym, h->addr);
			break;
		}
		sym_text(buf, len, h->level, h->sym, h->addr);
		break;
	case SK_SYM_FROM:
		sym_text(buf, len, h->from.level, h->from.sym, h->from.addr);
		break;
	case SK_DSO_TO:
		snprintf(buf, len, "%s", h->dso);
		break;
	case SK_DSO_FROM:
		snprintf(buf, len, "%s", h->from.dso);
		break;
	case SK_LOCAL_WEIGHT:
		snprintf(buf, len, "%" PRIu64, weight_of(r, h));
		break;
	case SK_WEIGHT:
		snprintf(buf, len, "%" PRIu64, weight_of(r, h) * h->sum[0].samples);
		break;
	case SK_LOCAL_INS_LAT:
		snprintf(buf, len, "%" PRIu64, h->ins_lat);
		break;
	case SK_MEM:
	case SK_SNOOP:
	case SK_TLB:
	case SK_LOCKED:
	case SK_BLOCKED:
		report_mem_text(k, h->data_src, buf, len);
		break;
	case SK_SYM_DADDR:
		sym_text(buf, len, h->level, h->daddr.sym, h->daddr.addr);
		break;
	case SK_DSO_DADDR:
		snprintf(buf, len, "%s", h->daddr.dso ? h->daddr.dso : "[unknown]");
		break;
	case SK_IPC_NULL:
		snprintf(buf, len, "%-5s %2s", "-", "-");
		break;
	case SK_CYCLES:
		/* perf's, a short */
		if (h->tag)
			snprintf(buf, len, "%hd", (short)h->tag);
		else
			snprintf(buf, len, "-");
		break;
	case SK_SRCLINE:
		snprintf(buf, len, "%s", h->srcline ? h->srcline : "??:0");
		break;
	case SK_CPU:
		snprintf(buf, len, "%3.3d", (int)h->cpu);
		break;
	default:
		buf[0] = '\0';
	}
}

/* qsort has no context: what the lines sort by */
static bool g_children, g_caller;
static const struct report *g_report;

/* Lines equal in overhead: as perf, by the sort keys, names in ascending order. */
static int cmp_keys(const struct hent *x, const struct hent *y)
{
	int k, c = 0;

	for (k = 0; k < g_report->nkeys && !c; k++) {
		switch (g_report->keys[k]) {
		case SK_COMM:
			c = strcmp(x->comm, y->comm);
			break;
		case SK_PID:
			c = x->tid < y->tid ? -1 : x->tid > y->tid;
			break;
		case SK_DSO:
			c = strcmp(x->dso, y->dso);
			break;
		case SK_SYM:
		case SK_SYM_TO:
			/* Resolved before unresolved; two unresolved stay as they came. */
			c = x->sym && y->sym ? strcmp(x->sym, y->sym)
					     : (x->sym == NULL) - (y->sym == NULL);
			break;
		case SK_SYM_FROM:
			c = x->from.sym && y->from.sym
				? strcmp(x->from.sym, y->from.sym)
				: (x->from.sym == NULL) - (y->from.sym == NULL);
			break;
		case SK_DSO_TO:
			c = strcmp(x->dso, y->dso);
			break;
		case SK_DSO_FROM:
			c = strcmp(x->from.dso, y->from.dso);
			break;
		case SK_WEIGHT:
		case SK_LOCAL_WEIGHT:
		case SK_CYCLES:
			/* perf's: the larger first */
			c = x->tag > y->tag ? -1 : x->tag < y->tag;
			break;
		case SK_SRCLINE:
			c = strcmp(x->srcline ? x->srcline : "", y->srcline ? y->srcline : "");
			break;
		case SK_CPU:
			c = x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
			break;
		default:
			break;
		}
	}
	return c;
}

static int cmp_hent(const void *a, const void *b)
{
	const struct hent *x = *(const struct hent *const *)a, *y = *(const struct hent *const *)b;
	uint64_t vx = g_children ? x->sum[0].children : x->sum[0].self;
	uint64_t vy = g_children ? y->sum[0].children : y->sum[0].self;
	uint32_t m, n;
	int c;

	if (x->ev != y->ev)
		return x->ev < y->ev ? -1 : 1;
	if (vx != vy)
		return vx > vy ? -1 : 1;
	/*
	 * As perf: of lines equal with children, callers first (perf only
	 * orders a thread's lines so, which is no order to sort by).
	 */
	if (g_children && x->max_depth != y->max_depth)
		return (x->max_depth > y->max_depth) == g_caller ? -1 : 1;
	/* Then the self overhead: the leader's, then each member's in turn. */
	n = members(g_report, x->ev);
	for (m = g_children ? 0 : 1; m < n; m++)
		if (x->sum[m].self != y->sum[m].self)
			return x->sum[m].self > y->sum[m].self ? -1 : 1;
	c = cmp_keys(x, y);
	if (c)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* perf's sample count: 1234 as "1K", with a unit letter or a space. */
static void print_samples(uint64_t n, bool plural)
{
	const char *units = " KMG";
	int u = 0;

	while (n > 1000 && u < 3) {
		n /= 1000;
		u++;
	}
	printf("# Samples: %" PRIu64 "%c of event%s '", n, units[u], plural ? "s" : "");
}

/*
 * The section's title: the event's name, or its group's as perf writes
 * it ("anon group { a, b }"; the names alone for a group --group made).
 */
static void print_title(const struct report *r, size_t ev, uint32_t n)
{
	const struct egroup *g = r->groups ? &r->groups[ev] : NULL;
	uint64_t samples = 0, period = 0;
	uint32_t m;

	for (m = 0; m < n; m++) {
		samples += r->prof.events[ev + m].samples;
		period += r->prof.events[ev + m].period;
	}
	/* perf says "events" for a group's leader, in the group view or not. */
	print_samples(samples, g && g->n > 1);
	if (n > 1 && !g->forced)
		printf("%s { ", g->name ? g->name : "anon group");
	for (m = 0; m < n; m++)
		printf("%s%s", m ? ", " : "", r->prof.events[ev + m].name);
	if (n > 1 && !g->forced)
		printf(" }");
	putchar('\'');
	if (r->time_str)
		printf(" (time slices: %s)", r->time_str);
	/* --mem-mode's periods are the samples' weights. */
	if (r->mem_mode)
		printf("\n# Total weight : %" PRIu64 "\n# Sort order   : %s\n#\n", period,
		       r->sort_order);
	else
		printf("\n# Event count (approx.): %" PRIu64 "\n#\n", period);
}

/*
 * The width perf gives a column's values of @len: at least 12 for the
 * weights; the data source's are fixed whatever the text (longer text
 * runs over), the data address's at least an address's.
 */
static size_t col_width(enum sort_key k, size_t len)
{
	static const size_t fixed[SK_MAX] = {
	    [SK_MEM] = 24, [SK_SNOOP] = 12, [SK_TLB] = 22, [SK_LOCKED] = 6, [SK_BLOCKED] = 10,
	};

	if (fixed[k])
		return fixed[k];
	if ((k == SK_WEIGHT || k == SK_LOCAL_WEIGHT) && len < 12)
		return 12;
	if (k == SK_LOCAL_INS_LAT && len < 13)
		return 13;
	if (k == SK_SYM_DADDR && len < 22)
		return 22;
	if (k == SK_DSO_DADDR && len < 16)
		return 16;
	return len;
}

/* "# " and a column header right-aligned over its width, or dots over it. */
static void print_head(const char *sep, const char *name, size_t width, bool dots)
{
	size_t i;

	printf("%s", sep);
	if (!dots) {
		printf("%*s", (int)width, name);
		return;
	}
	for (i = 0; i < width; i++)
		putchar('.');
}

/* A column of numbers, one per member of the line's group: samples or period. */
static void print_counts(const struct hsum *sum, uint32_t n, bool period)
{
	uint32_t m;

	printf("  ");
	if (n == 1)
		printf("%12" PRIu64, period ? sum->self : sum->samples);
	else
		for (m = 0; m < n; m++)
			printf(" %11" PRIu64, period ? sum[m].self : sum[m].samples);
}

/*
 * One event's section, or one group's with a column per member (perf's
 * group view): each member's share is of its own event count.
 */
static void print_event(struct report *r, size_t ev, struct hent **v, size_t nv)
{
	size_t width[SK_MAX] = {0}, i;
	uint32_t n = members(r, (uint32_t)ev), m;
	/* perf's columns: 8 wide per event (12 for samples), at least the header's */
	size_t pct_w = n * 8, nr_w = n * 12 > 12 ? n * 12 : 12;
	char buf[4096];
	int k, line;

	for (k = 0; k < r->nkeys; k++)
		width[k] = strlen(key_names[r->keys[k]].header);
	/*
	 * As perf, the widths fit every line, those under --percent-limit
	 * too; but a command's width is that of its thread's last command,
	 * and longer ones are cut to it.
	 */
	for (i = 0; i < nv; i++) {
		for (k = 0; k < r->nkeys; k++) {
			const char *last = last_comm(r, v[i]->tid);
			size_t len;

			if (r->keys[k] == SK_PERIOD)
				continue;

			column(r, v[i], r->keys[k], buf, sizeof(buf));
			len = r->keys[k] == SK_COMM && last ? strlen(last)
			      : r->keys[k] == SK_CPU	    ? 3 /* perf's, even for "-001" */
							    : strlen(buf);
			len = col_width(r->keys[k], len);
			/* perf's width is the name's: " (inlined)" runs over it. */
			if (r->keys[k] == SK_SYM && v[i]->unwound_inline)
				len -= strlen(" (inlined)");
			if (len > width[k])
				width[k] = len;
		}
	}
	print_title(r, ev, n);
	for (line = 0; line < 2; line++) {
		print_head("# ", r->children ? "Children" : "Overhead", pct_w, line);
		if (r->children)
			print_head("  ", "Self", pct_w, line);
		if (r->show_nr)
			print_head("  ", "Samples", nr_w, line);
		if (r->show_period)
			print_head("  ", "Period", nr_w, line);
		for (k = 0; k < r->nkeys; k++) {
			if (r->keys[k] == SK_PERIOD)
				print_head("  ", "Period", nr_w, line);
			else if (line)
				print_head("  ", NULL, width[k], true);
			else
				printf("  %-*s", (int)width[k], key_names[r->keys[k]].header);
		}
		putchar('\n');
	}
	printf("#\n");
	for (i = 0; i < nv; i++) {
		const struct hsum *sum = v[i]->sum;

		/* As perf, the limit is the leader's share. */
		if (report_pct(r->children ? sum->children : sum->self, r->prof.events[ev].period) <
		    r->percent_limit)
			continue;
		printf("  ");
		if (r->children) {
			for (m = 0; m < n; m++)
				printf("%7.2f%%",
				       report_pct(sum[m].children, r->prof.events[ev + m].period));
			printf("  ");
		}
		for (m = 0; m < n; m++)
			printf("%7.2f%%", report_pct(sum[m].self, r->prof.events[ev + m].period));
		if (r->show_nr)
			print_counts(sum, n, false);
		if (r->show_period)
			print_counts(sum, n, true);
		for (k = 0; k < r->nkeys; k++) {
			if (r->keys[k] == SK_PERIOD) {
				print_counts(sum, n, true);
				continue;
			}
			column(r, v[i], r->keys[k], buf, sizeof(buf));
			/* perf pads every column but a symbol at the end. */
			if (k == r->nkeys - 1 &&
			    (r->keys[k] == SK_SYM || r->keys[k] == SK_SYM_FROM ||
			     r->keys[k] == SK_SYM_TO))
				printf("  %s", buf);
			else if (r->keys[k] == SK_COMM)
				printf("  %-*.*s", (int)width[k], (int)width[k], buf);
			else
				printf("  %-*s", (int)width[k], buf);
		}
		putchar('\n');
		if (r->graph != GM_NONE && r->have_callchains)
			graph_print(r, &v[i]->graph, r->prof.events[ev].period);
	}
	printf("\n\n");
}

void report_hist_print(struct report *r)
{
	struct perfev__hashmap_entry *e;
	struct hent **v;
	size_t i, j, nv = 0, ev;

	v = malloc((perfev__hashmap_size(&r->ents) + 1) * sizeof(*v));
	if (!v)
		cli_die("out of memory");
	perfev__hashmap_for_each(&r->ents, e)
		v[nv++] = perfev__key_ptr(e->value);
	g_children = r->children;
	g_caller = r->caller;
	g_report = r;
	qsort(v, nv, sizeof(*v), cmp_hent);
	/* --header printed the header where perf's hint would be. */
	if (!r->header_shown)
		printf("# To display the perf.data header info, please use --header/--header-only "
		       "options.\n#\n");
	printf("#\n# Total Lost Samples: %" PRIu64 "\n#\n", r->prof.meta.lost);
	for (ev = 0, i = 0; ev < r->prof.nevents; ev++) {
		for (j = i; j < nv && v[j]->ev == ev; j++)
			;
		/* As perf, only events with samples, and a group only if its leader has some. */
		if (r->prof.events[ev].samples && line_event(r, (uint32_t)ev) == ev)
			print_event(r, ev, v + i, j - i);
		i = j;
	}
	if (r->show_threads)
		report_threads_print(r);
	free(v);
}
