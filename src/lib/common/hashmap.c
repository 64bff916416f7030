// SPDX-License-Identifier: LGPL-2.1-or-later
/* The one hash map (open addressing, linear probing, backward-shift deletion) and the interner. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "common/hashmap.h"
#include "common/internal.h"

#define HASH_USED (1ULL << 63)

void perfev__hashmap_init(struct perfev__hashmap *m, perfev__hash_fn hash, perfev__equal_fn equal,
			  void *ctx)
{
	memset(m, 0, sizeof(*m));
	m->hash = hash;
	m->equal = equal;
	m->ctx = ctx;
}

void perfev__hashmap_release(struct perfev__hashmap *m)
{
	free(m->v);
	m->v = NULL;
	m->cap = m->n = 0;
}

void perfev__hashmap_clear(struct perfev__hashmap *m)
{
	if (m->v)
		memset(m->v, 0, m->cap * sizeof(*m->v));
	m->n = 0;
}

static uint64_t hash_of(const struct perfev__hashmap *m, uint64_t key)
{
	return (m->hash ? m->hash(key, m->ctx) : perfev__hash_u64(key)) | HASH_USED;
}

static bool same(const struct perfev__hashmap *m, const struct perfev__hashmap_entry *e,
		 uint64_t key, uint64_t h)
{
	if (e->hash != h)
		return false;
	return m->equal ? m->equal(e->key, key, m->ctx) : e->key == key;
}

/* The slot of @key, or the free slot where it would go. */
static struct perfev__hashmap_entry *probe(const struct perfev__hashmap *m, uint64_t key,
					   uint64_t h)
{
	size_t mask = m->cap - 1, i = (size_t)h & mask;

	for (;; i = (i + 1) & mask) {
		struct perfev__hashmap_entry *e = &m->v[i];

		if (!e->hash || same(m, e, key, h))
			return e;
	}
}

static int rehash(struct perfev__hashmap *m, size_t cap)
{
	struct perfev__hashmap_entry *old = m->v, *e;
	size_t ocap = m->cap, i;

	m->v = calloc(cap, sizeof(*m->v));
	if (!m->v) {
		m->v = old;
		return -ENOMEM;
	}
	m->cap = cap;
	for (i = 0; i < ocap; i++) {
		if (!old[i].hash)
			continue;
		for (e = &m->v[(size_t)old[i].hash & (cap - 1)]; e->hash;
		     e = &m->v[(size_t)(e - m->v + 1) & (cap - 1)])
			;
		*e = old[i];
	}
	free(old);
	return 0;
}

/* Room for one more entry: the load stays at most 3/4. */
static int reserve(struct perfev__hashmap *m)
{
	size_t cap;

	if (m->cap && (m->n + 1) * 4 <= m->cap * 3)
		return 0;
	cap = m->cap ? m->cap * 2 : 16;
	if (cap < m->cap || cap > SIZE_MAX / sizeof(*m->v))
		return -ENOMEM;
	return rehash(m, cap);
}

struct perfev__hashmap_entry *perfev__hashmap_entry(const struct perfev__hashmap *m, uint64_t key)
{
	struct perfev__hashmap_entry *e;

	if (!m->n)
		return NULL;
	e = probe(m, key, hash_of(m, key));
	return e->hash ? e : NULL;
}

bool perfev__hashmap_find(const struct perfev__hashmap *m, uint64_t key, uint64_t *value)
{
	struct perfev__hashmap_entry *e = perfev__hashmap_entry(m, key);

	if (e && value)
		*value = e->value;
	return e;
}

struct perfev__hashmap_entry *perfev__hashmap_upsert(struct perfev__hashmap *m, uint64_t key,
						     bool *added)
{
	uint64_t h = hash_of(m, key);
	struct perfev__hashmap_entry *e;

	if (m->n) {
		e = probe(m, key, h);
		if (e->hash) {
			*added = false;
			return e;
		}
	}
	if (reserve(m))
		return NULL;
	e = probe(m, key, h);
	e->key = key;
	e->value = 0;
	e->hash = h;
	m->n++;
	*added = true;
	return e;
}

int perfev__hashmap_add(struct perfev__hashmap *m, uint64_t key, uint64_t value)
{
	struct perfev__hashmap_entry *e;
	bool added;

	e = perfev__hashmap_upsert(m, key, &added);
	if (!e)
		return -ENOMEM;
	if (!added)
		return -EEXIST;
	e->value = value;
	return 0;
}

int perfev__hashmap_set(struct perfev__hashmap *m, uint64_t key, uint64_t value, uint64_t *old_key,
			uint64_t *old_value)
{
	struct perfev__hashmap_entry *e;
	bool added;

	e = perfev__hashmap_upsert(m, key, &added);
	if (!e)
		return -ENOMEM;
	if (!added) {
		if (old_key)
			*old_key = e->key;
		if (old_value)
			*old_value = e->value;
	}
	e->key = key;
	e->value = value;
	return !added;
}

bool perfev__hashmap_delete(struct perfev__hashmap *m, uint64_t key, uint64_t *old_key,
			    uint64_t *old_value)
{
	struct perfev__hashmap_entry *e = perfev__hashmap_entry(m, key);
	size_t mask = m->cap - 1, i, j;

	if (!e)
		return false;
	if (old_key)
		*old_key = e->key;
	if (old_value)
		*old_value = e->value;
	/* Backward shift: move up each later entry of the run that may sit in the hole. */
	i = (size_t)(e - m->v);
	for (j = (i + 1) & mask; m->v[j].hash; j = (j + 1) & mask) {
		size_t home = (size_t)m->v[j].hash & mask;

		/* The entry at j stays when its home lies cyclically in (i, j]. */
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		m->v[i] = m->v[j];
		i = j;
	}
	memset(&m->v[i], 0, sizeof(m->v[i]));
	m->n--;
	return true;
}

/* Eight bytes at a time through the fold, the length first, then the finalizer. */
uint64_t perfev__hash_bytes(const void *p, size_t len)
{
	const unsigned char *b = p;
	uint64_t h = perfev__hash_combine(0, len), w;

	for (; len >= 8; b += 8, len -= 8) {
		memcpy(&w, b, 8);
		h = perfev__hash_combine(h, w);
	}
	if (len) {
		/* The last bytes, little-endian, without a call to memcpy(). */
		for (w = 0; len--;)
			w = w << 8 | b[len];
		h = perfev__hash_combine(h, w);
	}
	return perfev__hash_u64(h);
}

uint64_t perfev__hash_str(const char *s)
{
	return perfev__hash_bytes(s, strlen(s));
}

uint64_t perfev__hash_str_key(uint64_t key, void *ctx)
{
	return perfev__hash_str(perfev__key_ptr(key));
}

bool perfev__equal_str_key(uint64_t a, uint64_t b, void *ctx)
{
	return !strcmp(perfev__key_ptr(a), perfev__key_ptr(b));
}

uint64_t perfev__hash_int_key(uint64_t key, void *ctx)
{
	return perfev__hash_u64(key);
}

/* ---- the interner ------------------------------------------------------------ */

static uint64_t interned_hash(uint64_t key, void *ctx)
{
	const struct perfev__intern *t = ctx;

	return perfev__hash_bytes(t->v.v[key].p, t->v.v[key].len);
}

static bool interned_equal(uint64_t a, uint64_t b, void *ctx)
{
	const struct perfev__intern *t = ctx;
	const struct perfev__interned *x = &t->v.v[a], *y = &t->v.v[b];

	return x->len == y->len && !memcmp(x->p, y->p, x->len);
}

void perfev__intern_init(struct perfev__intern *t)
{
	memset(t, 0, sizeof(*t));
}

void perfev__intern_release(struct perfev__intern *t)
{
	perfev__hashmap_release(&t->map);
	perfev__array_release(&t->v);
	perfev__arena_release(&t->mem);
}

/*
 * The candidate goes in the slot past the last string, so that the map
 * hashes and compares it as one of its own: one probe finds or adds it.
 */
int perfev__intern_bytes(struct perfev__intern *t, const void *p, size_t len, size_t *idx)
{
	struct perfev__hashmap_entry *e;
	size_t n = t->v.n;
	bool added;
	char *copy;

	if (perfev__grow(&t->v.v, &t->v.cap, n + 1, sizeof(*t->v.v)))
		return -ENOMEM;
	/* Set at each call, not at init: the interner may have been moved since. */
	t->map.hash = interned_hash;
	t->map.equal = interned_equal;
	t->map.ctx = t;
	t->v.v[n].p = p;
	t->v.v[n].len = len;
	e = perfev__hashmap_upsert(&t->map, n, &added);
	if (!e)
		return -ENOMEM;
	if (!added) {
		*idx = (size_t)e->key;
		return 0;
	}
	copy = len < SIZE_MAX ? perfev__arena_alloc(&t->mem, len + 1, 1) : NULL;
	if (!copy) {
		perfev__hashmap_delete(&t->map, n, NULL, NULL);
		return -ENOMEM;
	}
	if (len)
		memcpy(copy, p, len);
	copy[len] = '\0';
	t->v.v[n].p = copy;
	t->v.n++;
	*idx = n;
	return 1;
}

const char *perfev__intern_str(struct perfev__intern *t, const char *s)
{
	size_t i;

	if (perfev__intern_bytes(t, s, strlen(s), &i) < 0)
		return NULL;
	return t->v.v[i].p;
}
