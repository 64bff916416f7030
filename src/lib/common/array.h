/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one growable array of the tree: a pointer, a count and a capacity,
 * grown by doubling with overflow-checked sizes.  Declare one with
 * PERFEV__ARRAY(type) or keep the three fields in a struct of your own;
 * perfev__grow() works on any such triple.  Shared by the library and the
 * tool, as the hash map is.
 */
#ifndef PERFEV_ARRAY_H
#define PERFEV_ARRAY_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Ensures room for @need elements of @elsize bytes in *@arrp.  0 or -ENOMEM. */
int perfev__grow(void *arrp, size_t *cap, size_t need, size_t elsize);

#define PERFEV__ARRAY(type)                                                                \
	struct {                                                                           \
		type *v;                                                                   \
		size_t n, cap;                                                             \
	}

/* A pointer to a new zeroed element at the end of @a, or NULL: out of memory. */
#define perfev__array_push(a)                                                              \
	(perfev__grow(&(a)->v, &(a)->cap, (a)->n + 1, sizeof(*(a)->v))                      \
		 ? NULL                                                                    \
		 : (__typeof__((a)->v))memset(&(a)->v[(a)->n++], 0, sizeof(*(a)->v)))

#define perfev__array_release(a)                                                           \
	do {                                                                               \
		free((a)->v);                                                              \
		(a)->v = NULL;                                                             \
		(a)->n = (a)->cap = 0;                                                     \
	} while (0)

#endif /* PERFEV_ARRAY_H */
