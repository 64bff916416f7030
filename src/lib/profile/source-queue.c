// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The ordered-events queue: a binary min-heap by (time, arrival), so a
 * record goes in and the oldest comes out in O(log n), whatever the
 * number of records a round holds.
 */
#include <errno.h>
#include <stdlib.h>
#include "common/array.h"
#include "profile/source-internal.h"

static bool before(const struct src_qent *a, const struct src_qent *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	return a->seq < b->seq;
}

int perfev__queue_push(struct src_queue *q, const struct src_qent *e)
{
	size_t i;

	if (perfev__grow(&q->v, &q->cap, q->n + 1, sizeof(*q->v)))
		return -ENOMEM;
	/* Sift up: the parents later than @e move down into the hole. */
	for (i = q->n++; i > 0 && before(e, &q->v[(i - 1) / 2]); i = (i - 1) / 2)
		q->v[i] = q->v[(i - 1) / 2];
	q->v[i] = *e;
	return 0;
}

void perfev__queue_pop(struct src_queue *q, struct src_qent *out)
{
	struct src_qent last;
	size_t i = 0, c;

	*out = q->v[0];
	last = q->v[--q->n];
	/* Sift the last one down from the root: the earlier child moves up. */
	for (; (c = 2 * i + 1) < q->n; i = c) {
		if (c + 1 < q->n && before(&q->v[c + 1], &q->v[c]))
			c++;
		if (!before(&q->v[c], &last))
			break;
		q->v[i] = q->v[c];
	}
	if (q->n)
		q->v[i] = last;
}

void perfev__queue_release(struct src_queue *q)
{
	size_t i;

	for (i = 0; i < q->n; i++)
		if (q->v[i].copy)
			free((void *)q->v[i].bytes);
	perfev__array_release(q);
}
