/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one growable array of the tree: a pointer, a count and a capacity,
 * grown by doubling with overflow-checked sizes.  Declare one with
 * PERFEV__ARRAY(type) or keep the three fields in a struct of your own;
 * perfev__grow() works on any such triple.  And the one arena, for many
 * small pieces that stay put and are freed together.  Shared by the
 * library and the tool, as the hash map is.
 */
#ifndef PERFEV_ARRAY_H
#define PERFEV_ARRAY_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Ensures room for @need elements of @elsize bytes in *@arrp.  0 or -ENOMEM. */
int perfev__grow(void *arrp, size_t *cap, size_t need, size_t elsize);
/*
 * Appends @count elements of @elsize bytes from @src to *@arrp, which
 * holds *@n of them in room for *@cap.  0 or -ENOMEM (the array unchanged).
 */
int perfev__append(void *arrp, size_t *n, size_t *cap, const void *src, size_t count,
		   size_t elsize);

#define PERFEV__ARRAY(type)                                                                        \
	struct {                                                                                   \
		type *v;                                                                           \
		size_t n, cap;                                                                     \
	}

/* A pointer to a new zeroed element at the end of @a, or NULL: out of memory. */
#define perfev__array_push(a)                                                                      \
	(perfev__grow(&(a)->v, &(a)->cap, (a)->n + 1, sizeof(*(a)->v))                             \
	     ? NULL                                                                                \
	     : (__typeof__((a)->v))memset(&(a)->v[(a)->n++], 0, sizeof(*(a)->v)))

/* Append @count elements from @src to @a: 0 or -ENOMEM. */
#define perfev__array_append(a, src, count)                                                        \
	perfev__append(&(a)->v, &(a)->n, &(a)->cap, (src), (count), sizeof(*(a)->v))

#define perfev__array_release(a)                                                                   \
	do {                                                                                       \
		free((a)->v);                                                                      \
		(a)->v = NULL;                                                                     \
		(a)->n = (a)->cap = 0;                                                             \
	} while (0)

/*
 * An arena: pieces carved from blocks that grow from 4 KiB to 1 MiB
 * (a larger piece gets a block of its own), zeroed, never moved, freed
 * all at once by perfev__arena_release().  Zero-initialised is empty.
 */
struct perfev__arena {
	char *cur;	  /* the free end of the current block */
	size_t left;	  /* bytes free there */
	size_t next_size; /* the size of the next block */
	PERFEV__ARRAY(void *) blocks;
};

/*
 * @size zeroed bytes aligned to @align (a power of two, at most 16), or
 * NULL: out of memory.
 */
void *perfev__arena_alloc(struct perfev__arena *a, size_t size, size_t align);
void perfev__arena_release(struct perfev__arena *a);

#endif /* PERFEV_ARRAY_H */
