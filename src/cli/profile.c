// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The profile's tables: interned strings, frames and stacks, each found
 * again through an open-addressing index of 32-bit positions.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "perfev-cli.h"
#include "profile.h"

#define NONE UINT32_MAX

uint64_t profile_fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--)
		h = (h ^ *c++) * 1099511628211ULL;
	return h;
}

static void *grow_array(void *v, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 64;

	if (need <= *cap)
		return v;
	while (n < need)
		n *= 2;
	v = realloc(v, n * size);
	if (!v)
		cli_die("out of memory");
	*cap = n;
	return v;
}

void profile_init(struct profile *p)
{
	memset(p, 0, sizeof(*p));
}

void profile_release(struct profile *p)
{
	size_t i;

	for (i = 0; i < p->nstacks; i++)
		free(p->stacks[i].frames);
	free(p->stacks);
	free(p->frames);
	free(p->events);
	free(p->frame_idx);
	free(p->stack_idx);
	for (i = 0; i < p->cap_strs; i++)
		free(p->strs[i]);
	free(p->strs);
	memset(p, 0, sizeof(*p));
}

const char *profile_intern(struct profile *p, const char *s)
{
	size_t j;

	if (!s)
		return NULL;
	if ((p->nstrs + 1) * 2 > p->cap_strs) {
		char **old = p->strs;
		size_t oldcap = p->cap_strs, i;

		p->cap_strs = oldcap ? oldcap * 2 : 256;
		p->strs = calloc(p->cap_strs, sizeof(*p->strs));
		if (!p->strs)
			cli_die("out of memory");
		for (i = 0; i < oldcap; i++) {
			if (!old[i])
				continue;
			j = (size_t)profile_fnv(PROFILE_FNV0, old[i], strlen(old[i])) &
			    (p->cap_strs - 1);
			while (p->strs[j])
				j = (j + 1) & (p->cap_strs - 1);
			p->strs[j] = old[i];
		}
		free(old);
	}
	j = (size_t)profile_fnv(PROFILE_FNV0, s, strlen(s)) & (p->cap_strs - 1);
	while (p->strs[j] && strcmp(p->strs[j], s))
		j = (j + 1) & (p->cap_strs - 1);
	if (!p->strs[j]) {
		p->strs[j] = strdup(s);
		if (!p->strs[j])
			cli_die("out of memory");
		p->nstrs++;
	}
	return p->strs[j];
}

/* Interned strings compare by pointer, so a frame hashes by its pointers. */
static uint64_t frame_hash(const struct profile_frame *f)
{
	uint64_t h = PROFILE_FNV0;

	h = profile_fnv(h, &f->sym, sizeof(f->sym));
	h = profile_fnv(h, &f->dso, sizeof(f->dso));
	h = profile_fnv(h, &f->addr, sizeof(f->addr));
	h = profile_fnv(h, &f->offset, sizeof(f->offset));
	h = profile_fnv(h, &f->ip, sizeof(f->ip));
	h = profile_fnv(h, &f->file, sizeof(f->file));
	h = profile_fnv(h, &f->line, sizeof(f->line));
	h = profile_fnv(h, &f->inlined, sizeof(f->inlined));
	return profile_fnv(h, &f->level, sizeof(f->level));
}

static bool frame_eq(const struct profile_frame *a, const struct profile_frame *b)
{
	return a->sym == b->sym && a->dso == b->dso && a->addr == b->addr &&
	       a->offset == b->offset && a->ip == b->ip && a->file == b->file &&
	       a->line == b->line && a->inlined == b->inlined && a->level == b->level;
}

static uint64_t stack_hash(uint32_t ev, const char *comm, uint32_t pid, uint32_t tid, int32_t cpu,
			   const uint32_t *frames, uint32_t n)
{
	uint64_t h = PROFILE_FNV0;

	h = profile_fnv(h, &ev, sizeof(ev));
	h = profile_fnv(h, &cpu, sizeof(cpu));
	h = profile_fnv(h, &comm, sizeof(comm));
	h = profile_fnv(h, &pid, sizeof(pid));
	h = profile_fnv(h, &tid, sizeof(tid));
	return profile_fnv(h, frames, n * sizeof(*frames));
}

/* Rebuild index @idx (capacity *@cap, doubled) over @n elements hashed by @hash_of. */
static void reindex(uint32_t **idx, size_t *cap, size_t n, const struct profile *p,
		    uint64_t (*hash_of)(const struct profile *, uint32_t))
{
	size_t i;

	free(*idx);
	*cap = *cap ? *cap * 2 : 1024;
	*idx = malloc(*cap * sizeof(**idx));
	if (!*idx)
		cli_die("out of memory");
	memset(*idx, 0xff, *cap * sizeof(**idx));
	for (i = 0; i < n; i++) {
		size_t j = (size_t)hash_of(p, (uint32_t)i) & (*cap - 1);

		while ((*idx)[j] != NONE)
			j = (j + 1) & (*cap - 1);
		(*idx)[j] = (uint32_t)i;
	}
}

static uint64_t frame_hash_at(const struct profile *p, uint32_t i)
{
	return frame_hash(&p->frames[i]);
}

static uint64_t stack_hash_at(const struct profile *p, uint32_t i)
{
	const struct profile_stack *s = &p->stacks[i];

	return stack_hash(s->ev, s->comm, s->pid, s->tid, s->cpu, s->frames, s->nframes);
}

uint32_t profile_frame_add(struct profile *p, const struct profile_frame *f)
{
	struct profile_frame k = *f;
	size_t j;

	k.sym = profile_intern(p, f->sym);
	k.dso = profile_intern(p, f->dso ? f->dso : "[unknown]");
	k.file = profile_intern(p, f->file);
	if ((p->nframes + 1) * 2 > p->cap_frame_idx)
		reindex(&p->frame_idx, &p->cap_frame_idx, p->nframes, p, frame_hash_at);
	j = (size_t)frame_hash(&k) & (p->cap_frame_idx - 1);
	while (p->frame_idx[j] != NONE) {
		if (frame_eq(&p->frames[p->frame_idx[j]], &k))
			return p->frame_idx[j];
		j = (j + 1) & (p->cap_frame_idx - 1);
	}
	p->frames = grow_array(p->frames, &p->cap_frames, p->nframes + 1, sizeof(*p->frames));
	p->frames[p->nframes] = k;
	p->frame_idx[j] = (uint32_t)p->nframes;
	return (uint32_t)p->nframes++;
}

uint32_t profile_event_add(struct profile *p, const char *name)
{
	name = profile_intern(p, name);
	p->events = grow_array(p->events, &p->cap_events, p->nevents + 1, sizeof(*p->events));
	memset(&p->events[p->nevents], 0, sizeof(*p->events));
	p->events[p->nevents].name = name;
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
	struct profile_stack *s;
	size_t j;

	comm = profile_intern(p, comm);
	if ((p->nstacks + 1) * 2 > p->cap_stack_idx)
		reindex(&p->stack_idx, &p->cap_stack_idx, p->nstacks, p, stack_hash_at);
	j = (size_t)stack_hash(ev, comm, pid, tid, cpu, frames, n) & (p->cap_stack_idx - 1);
	while (p->stack_idx[j] != NONE) {
		s = &p->stacks[p->stack_idx[j]];
		if (s->ev == ev && s->comm == comm && s->pid == pid && s->tid == tid &&
		    s->cpu == cpu && s->nframes == n &&
		    !memcmp(s->frames, frames, n * sizeof(*frames))) {
			s->period += period;
			s->samples++;
			return;
		}
		j = (j + 1) & (p->cap_stack_idx - 1);
	}
	p->stacks = grow_array(p->stacks, &p->cap_stacks, p->nstacks + 1, sizeof(*p->stacks));
	s = &p->stacks[p->nstacks];
	memset(s, 0, sizeof(*s));
	s->ev = ev;
	s->comm = comm;
	s->pid = pid;
	s->tid = tid;
	s->cpu = cpu;
	s->nframes = n;
	s->frames = malloc((n ? n : 1) * sizeof(*frames));
	if (!s->frames)
		cli_die("out of memory");
	if (n)
		memcpy(s->frames, frames, n * sizeof(*frames));
	s->period = period;
	s->samples = 1;
	p->stack_idx[j] = (uint32_t)p->nstacks++;
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
