/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one hash map of the tree: open addressing with linear probing over
 * (key, value) pairs of 64-bit integers, the hash and equality given by
 * the caller.  A key is an integer (an address, a pid, an index) or a
 * pointer to the caller's key object turned into an integer
 * (perfev__ptr_key()), compared by the caller's @equal.  Deletion shifts
 * the following entries back, so there are no tombstones and lookups stay
 * short after many deletions.
 *
 * The library and the tool share it: it is hidden in the shared library,
 * and the tool reaches it through the static library it links.
 */
#ifndef PERFEV_HASHMAP_H
#define PERFEV_HASHMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/array.h"

typedef uint64_t (*perfev__hash_fn)(uint64_t key, void *ctx);
/* NULL: keys are equal when their integers are. */
typedef bool (*perfev__equal_fn)(uint64_t a, uint64_t b, void *ctx);

struct perfev__hashmap_entry {
	uint64_t key;
	uint64_t value;
	uint64_t hash; /* 0: the slot is free (hashes are stored with the top bit set) */
};

struct perfev__hashmap {
	perfev__hash_fn hash;
	perfev__equal_fn equal;
	void *ctx;
	struct perfev__hashmap_entry *v;
	size_t cap; /* 0 or a power of two */
	size_t n;
};

#define PERFEV__HASHMAP_INIT(h, e, c)                                                              \
	{                                                                                          \
		.hash = (h), .equal = (e), .ctx = (c)                                              \
	}

void perfev__hashmap_init(struct perfev__hashmap *m, perfev__hash_fn hash, perfev__equal_fn equal,
			  void *ctx);
/* Frees the table, not what the keys and values point to. */
void perfev__hashmap_release(struct perfev__hashmap *m);
void perfev__hashmap_clear(struct perfev__hashmap *m);

static inline size_t perfev__hashmap_size(const struct perfev__hashmap *m)
{
	return m->n;
}

/* The entry of @key, or NULL.  Valid until the map is next changed. */
struct perfev__hashmap_entry *perfev__hashmap_entry(const struct perfev__hashmap *m, uint64_t key);
/* Sets *@value (when @value is not NULL) and returns true when @key is present. */
bool perfev__hashmap_find(const struct perfev__hashmap *m, uint64_t key, uint64_t *value);
/*
 * Insert @key with @value.  Returns 0, -EEXIST when @key is present (the
 * map unchanged) or -ENOMEM.
 */
int perfev__hashmap_add(struct perfev__hashmap *m, uint64_t key, uint64_t value);
/*
 * Insert or replace.  On a replace, the old key and value go to @old_key
 * and @old_value when not NULL (for the caller to free) and 1 is returned;
 * 0 on an insert; -ENOMEM.
 */
int perfev__hashmap_set(struct perfev__hashmap *m, uint64_t key, uint64_t value, uint64_t *old_key,
			uint64_t *old_value);
/*
 * The entry of @key, inserted with value 0 when absent (*@added then
 * true): one probe for "find or add".  NULL: out of memory.
 */
struct perfev__hashmap_entry *perfev__hashmap_upsert(struct perfev__hashmap *m, uint64_t key,
						     bool *added);
/* Remove @key; its key and value go to @old_key/@old_value.  False: absent. */
bool perfev__hashmap_delete(struct perfev__hashmap *m, uint64_t key, uint64_t *old_key,
			    uint64_t *old_value);

/* Every entry, in no particular order; the map must not change meanwhile. */
#define perfev__hashmap_for_each(m, e)                                                             \
	for ((e) = (m)->v; (m)->v && (e) < (m)->v + (m)->cap; (e)++)                               \
		if ((e)->hash)

/* Hashes for the usual keys; perfev__hash_u64() is splitmix64's finalizer. */
static inline uint64_t perfev__hash_u64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/*
 * A key of several fields: fold each into @h (0 to start), then finish
 * with perfev__hash_u64().
 */
static inline uint64_t perfev__hash_combine(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
	return h ^ h >> 32;
}

uint64_t perfev__hash_bytes(const void *p, size_t len);
uint64_t perfev__hash_str(const char *s);

/* A hash and an equality for keys that are NUL-terminated strings. */
uint64_t perfev__hash_str_key(uint64_t key, void *ctx);
bool perfev__equal_str_key(uint64_t a, uint64_t b, void *ctx);
/* perfev__hash_u64 as a perfev__hash_fn, for integer keys. */
uint64_t perfev__hash_int_key(uint64_t key, void *ctx);

static inline uint64_t perfev__ptr_key(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

static inline void *perfev__key_ptr(uint64_t k)
{
	return (void *)(uintptr_t)k;
}

/*
 * The one interner, built on the map: byte strings kept once each.  Each
 * has a copy that stays put as long as the interner (a NUL after it, so
 * the copy of a C string is a C string) and an index, dense from 0 in
 * the order the strings were first seen: equal strings are one pointer
 * and one number.  Keys need not be text: a run of integers interns as
 * well.  Zero-initialised is empty; it may be moved between calls.
 */
struct perfev__interned {
	const char *p;
	size_t len;
};

struct perfev__intern {
	struct perfev__hashmap map; /* key: an index into @v, hashed and compared by its bytes */
	PERFEV__ARRAY(struct perfev__interned) v;
	struct perfev__arena mem; /* the copies */
};

void perfev__intern_init(struct perfev__intern *t);
void perfev__intern_release(struct perfev__intern *t);

/*
 * The index of the @len bytes at @p into *@idx, copied in when new.
 * Returns 1 when added, 0 when already there, -ENOMEM.
 */
int perfev__intern_bytes(struct perfev__intern *t, const void *p, size_t len, size_t *idx);
/* The copy of C string @s (NULL: out of memory). */
const char *perfev__intern_str(struct perfev__intern *t, const char *s);

static inline size_t perfev__intern_count(const struct perfev__intern *t)
{
	return t->v.n;
}

/* The copy of the string of index @i, NUL-terminated. */
static inline const char *perfev__intern_at(const struct perfev__intern *t, size_t i)
{
	return t->v.v[i].p;
}

#endif /* PERFEV_HASHMAP_H */
