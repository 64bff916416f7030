// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The profile's tables: interned strings, frames and stacks, each found
 * again through the hash map.  A frame or stack is looked up by putting
 * it past the end of its array and asking the map for that index: the
 * map hashes and compares it like the ones already there.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "perfev-cli.h"
#include "profile.h"

void profile_init(struct profile *p)
{
	memset(p, 0, sizeof(*p));
}

void profile_release(struct profile *p)
{
	free(p->stacks);
	free(p->frames);
	free(p->events);
	free(p->build_ids);
	free(p->times);
	perfev__hashmap_release(&p->frame_idx);
	perfev__hashmap_release(&p->stack_idx);
	perfev__intern_release(&p->strs);
	perfev__arena_release(&p->mem);
	memset(p, 0, sizeof(*p));
}

int profile_set_build_id(struct profile *p, const char *dso, const void *id, size_t len)
{
	struct profile_build_id *b;
	const unsigned char *u = id;

	if (!p || !dso || !id || !len || len > 20)
		return -EINVAL;
	dso = profile_intern(p, dso);
	if (!dso || perfev__grow(&p->build_ids, &p->cap_build_ids, p->nbuild_ids + 1,
				 sizeof(*p->build_ids)))
		return -ENOMEM;
	b = &p->build_ids[p->nbuild_ids++];
	b->dso = dso;
	for (size_t i = 0; i < len; i++)
		snprintf(b->hex + 2 * i, 3, "%02x", u[i]);
	return 0;
}

const char *profile_build_id(const struct profile *p, const char *dso)
{
	for (size_t i = 0; dso && i < p->nbuild_ids; i++)
		if (!strcmp(p->build_ids[i].dso, dso))
			return p->build_ids[i].hex;
	return NULL;
}

const char *profile_intern(struct profile *p, const char *s)
{
	if (!s)
		return NULL;
	s = perfev__intern_str(&p->strs, s);
	if (!s)
		cli_die("out of memory");
	return s;
}

int profile_index(struct perfev__intern *t, const void *key, size_t len, uint32_t *out)
{
	size_t i;
	int err = perfev__intern_bytes(t, key, len, &i);

	if (err < 0)
		return err;
	if (i >= UINT32_MAX)
		return -E2BIG;
	*out = (uint32_t)i;
	return 0;
}

/* Interned strings compare by pointer, so a frame hashes by its pointers. */
static uint64_t frame_hash(uint64_t key, void *ctx)
{
	const struct profile_frame *f = &((const struct profile *)ctx)->frames[key];
	uint64_t h = 0;

	h = perfev__hash_combine(h, (uintptr_t)f->sym);
	h = perfev__hash_combine(h, (uintptr_t)f->dso);
	h = perfev__hash_combine(h, f->addr);
	h = perfev__hash_combine(h, f->offset);
	h = perfev__hash_combine(h, f->ip);
	h = perfev__hash_combine(h, (uintptr_t)f->file);
	h = perfev__hash_combine(h, (uint64_t)f->line << 24 | (uint64_t)f->sampled_only << 18 |
					(uint64_t)f->unwound_inline << 17 |
					(uint64_t)f->inlined << 16 | (unsigned char)f->level);
	return perfev__hash_u64(h);
}

static bool frame_equal(uint64_t x, uint64_t y, void *ctx)
{
	const struct profile *p = ctx;
	const struct profile_frame *a = &p->frames[x], *b = &p->frames[y];

	return a->sym == b->sym && a->dso == b->dso && a->addr == b->addr &&
	       a->offset == b->offset && a->ip == b->ip && a->file == b->file &&
	       a->line == b->line && a->inlined == b->inlined &&
	       a->unwound_inline == b->unwound_inline && a->sampled_only == b->sampled_only &&
	       a->level == b->level;
}

static uint64_t stack_hash(uint64_t key, void *ctx)
{
	const struct profile_stack *s = &((const struct profile *)ctx)->stacks[key];
	uint64_t h = 0;
	uint32_t i;

	h = perfev__hash_combine(h, (uint64_t)s->ev << 32 | (uint32_t)s->cpu);
	h = perfev__hash_combine(h, (uintptr_t)s->comm);
	h = perfev__hash_combine(h, (uint64_t)s->pid << 32 | s->tid);
	h = perfev__hash_combine(h, s->tags.tag ^ s->tags.ins_lat << 40);
	h = perfev__hash_combine(h, s->tags.data_src ^ (uint64_t)s->tags.daddr << 48);
	for (i = 0; i + 1 < s->nframes; i += 2)
		h = perfev__hash_combine(h, (uint64_t)s->frames[i] << 32 | s->frames[i + 1]);
	if (i < s->nframes)
		h = perfev__hash_combine(h, s->frames[i]);
	return perfev__hash_u64(h ^ s->nframes);
}

static bool stack_equal(uint64_t x, uint64_t y, void *ctx)
{
	const struct profile *p = ctx;
	const struct profile_stack *a = &p->stacks[x], *b = &p->stacks[y];

	return a->ev == b->ev && a->comm == b->comm && a->pid == b->pid && a->tid == b->tid &&
	       a->cpu == b->cpu && a->tags.tag == b->tags.tag &&
	       a->tags.ins_lat == b->tags.ins_lat && a->tags.data_src == b->tags.data_src &&
	       a->tags.daddr == b->tags.daddr && a->nframes == b->nframes &&
	       !memcmp(a->frames, b->frames, a->nframes * sizeof(*a->frames));
}

uint32_t profile_frame_add(struct profile *p, const struct profile_frame *f)
{
	struct perfev__hashmap_entry *e;
	struct profile_frame *k;
	bool added;

	cli_grow(&p->frames, &p->cap_frames, p->nframes + 1, sizeof(*p->frames));
	k = &p->frames[p->nframes];
	*k = *f;
	k->sym = profile_intern(p, f->sym);
	k->dso = profile_intern(p, f->dso ? f->dso : "[unknown]");
	k->file = profile_intern(p, f->file);
	/* Set at each call: the profile may have been moved since the last. */
	p->frame_idx.hash = frame_hash;
	p->frame_idx.equal = frame_equal;
	p->frame_idx.ctx = p;
	e = perfev__hashmap_upsert(&p->frame_idx, p->nframes, &added);
	if (!e)
		cli_die("out of memory");
	if (!added)
		return (uint32_t)e->key;
	return (uint32_t)p->nframes++;
}

uint32_t profile_event_add(struct profile *p, const char *name)
{
	struct profile_event *e;

	name = profile_intern(p, name);
	cli_grow(&p->events, &p->cap_events, p->nevents + 1, sizeof(*p->events));
	e = &p->events[p->nevents];
	memset(e, 0, sizeof(*e));
	e->name = name;
	return (uint32_t)p->nevents++;
}

void profile_add(struct profile *p, uint32_t ev, const char *comm, uint32_t pid, uint32_t tid,
		 const uint32_t *frames, uint32_t n, uint64_t period)
{
	profile_add_on_cpu(p, ev, comm, pid, tid, -1, frames, n, period);
}

void profile_add_on_cpu(struct profile *p, uint32_t ev, const char *comm, uint32_t pid,
			uint32_t tid, int32_t cpu, const uint32_t *frames, uint32_t n,
			uint64_t period)
{
	profile_add_tagged(p, ev, comm, pid, tid, cpu, NULL, frames, n, period);
}

uint32_t profile_add_tagged(struct profile *p, uint32_t ev, const char *comm, uint32_t pid,
			    uint32_t tid, int32_t cpu, const struct profile_tags *tags,
			    const uint32_t *frames, uint32_t n, uint64_t period)
{
	struct perfev__hashmap_entry *e;
	struct profile_stack *s;
	bool added;

	comm = profile_intern(p, comm);
	cli_grow(&p->stacks, &p->cap_stacks, p->nstacks + 1, sizeof(*p->stacks));
	s = &p->stacks[p->nstacks];
	memset(s, 0, sizeof(*s));
	s->ev = ev;
	s->comm = comm;
	s->pid = pid;
	s->tid = tid;
	s->cpu = cpu;
	if (tags)
		s->tags = *tags;
	s->nframes = n;
	s->frames = (uint32_t *)frames; /* the caller's, until it is added */
	p->stack_idx.hash = stack_hash;
	p->stack_idx.equal = stack_equal;
	p->stack_idx.ctx = p;
	e = perfev__hashmap_upsert(&p->stack_idx, p->nstacks, &added);
	if (!e)
		cli_die("out of memory");
	if (!added) {
		s = &p->stacks[e->key];
		s->period += period;
		s->samples++;
		return (uint32_t)e->key;
	}
	s->frames = perfev__arena_alloc(&p->mem, (n ? n : 1) * sizeof(*frames), sizeof(*frames));
	if (!s->frames)
		cli_die("out of memory");
	if (n)
		memcpy(s->frames, frames, n * sizeof(*frames));
	s->period = period;
	s->samples = 1;
	return (uint32_t)p->nstacks++;
}

static int cmp_time_slice(const void *a, const void *b, void *ctx)
{
	const struct profile_time *x = a, *y = b;
	uint64_t slice = *(const uint64_t *)ctx, sx = x->time / slice, sy = y->time / slice;

	if (x->stack != y->stack)
		return x->stack < y->stack ? -1 : 1;
	if (sx != sy)
		return sx < sy ? -1 : 1;
	return x->time < y->time ? -1 : x->time > y->time;
}

/*
 * The times of each stack merged by slice, the slices longer until half the room is free
 * or one slice holds every time: then the next merge waits for twice as many entries (as
 * many as the stacks at most), so that merging stays a small share of the work.
 */
static void merge_times(struct profile *p)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	size_t i, n;

	for (i = 0; i < p->ntimes; i++) {
		lo = p->times[i].time < lo ? p->times[i].time : lo;
		hi = p->times[i].time > hi ? p->times[i].time : hi;
	}
	if (!p->time_slice)
		p->time_slice = hi > lo ? (hi - lo) / 4096 + 1 : 1;
	do {
		qsort_r(p->times, p->ntimes, sizeof(*p->times), cmp_time_slice, &p->time_slice);
		for (i = 1, n = 1; i < p->ntimes; i++) {
			struct profile_time *last = &p->times[n - 1], *t = &p->times[i];

			if (t->stack == last->stack &&
			    t->time / p->time_slice == last->time / p->time_slice) {
				last->period += t->period;
				last->samples += t->samples;
			} else {
				p->times[n++] = *t;
			}
		}
		p->ntimes = n;
		if (n <= PROFILE_TIMES_MAX / 2 || p->time_slice > hi / 2)
			break;
		p->time_slice *= 2;
	} while (true);
	p->times_limit = n > PROFILE_TIMES_MAX / 2 ? 2 * n : PROFILE_TIMES_MAX;
}

void profile_add_time(struct profile *p, uint32_t stack, uint64_t time, uint64_t period)
{
	struct profile_time *t;

	if (!p->timed)
		return;
	if (p->ntimes >= (p->times_limit ? p->times_limit : PROFILE_TIMES_MAX))
		merge_times(p);
	cli_grow(&p->times, &p->cap_times, p->ntimes + 1, sizeof(*p->times));
	t = &p->times[p->ntimes++];
	t->time = time;
	t->period = period;
	t->stack = stack;
	t->samples = 1;
}

void profile_keep(struct profile *p, bool (*keep)(const struct profile_stack *s, void *ctx),
		  void *ctx)
{
	uint32_t *to = NULL;
	size_t i, n = 0;
	bool added;

	if (p->ntimes) {
		to = malloc(p->nstacks * sizeof(*to));
		if (!to)
			cli_die("out of memory");
	}
	for (i = 0; i < p->nstacks; i++) {
		bool k = keep(&p->stacks[i], ctx);

		if (to)
			to[i] = k ? (uint32_t)n : UINT32_MAX;
		if (k)
			p->stacks[n++] = p->stacks[i];
	}
	if (n == p->nstacks) {
		free(to);
		return;
	}
	p->nstacks = n;
	/* The times of the stacks kept, their stacks where they are now. */
	for (i = 0, n = 0; to && i < p->ntimes; i++)
		if (to[p->times[i].stack] != UINT32_MAX) {
			p->times[n] = p->times[i];
			p->times[n++].stack = to[p->times[i].stack];
		}
	if (to)
		p->ntimes = n;
	free(to);
	n = p->nstacks;
	/* The stacks moved: indexed again where they are now. */
	perfev__hashmap_clear(&p->stack_idx);
	p->stack_idx.hash = stack_hash;
	p->stack_idx.equal = stack_equal;
	p->stack_idx.ctx = p;
	for (i = 0; i < n; i++)
		if (!perfev__hashmap_upsert(&p->stack_idx, i, &added))
			cli_die("out of memory");
}

uint32_t profile_stack_first(const struct profile *p, const struct profile_stack *s)
{
	return s->nframes > 1 && p->frames[s->frames[0]].sampled_only;
}

const char *profile_frame_name(const struct profile_frame *f)
{
	return f->sym ? f->sym : "[unknown]";
}

const char *profile_short_dso(const char *dso)
{
	const char *b;

	if (!dso)
		return "[unknown]";
	if (dso[0] == '[')
		return dso;
	b = strrchr(dso, '/');
	return b && b[1] ? b + 1 : dso;
}
