/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the source's files share: the queue that puts records in time order, event names. */
#ifndef PERFEV_SOURCE_INTERNAL_H
#define PERFEV_SOURCE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <perfev/abi.h>

/* A record waiting for its turn. */
struct src_qent {
	uint64_t time, seq; /* the order: by time, then as they came */
	const void *bytes;  /* the record */
	uint64_t offset;    /* in the file */
	uint32_t idx;	    /* its event, UINT32_MAX: none */
	uint32_t type;
	uint16_t size;
	bool copy;    /* @bytes are the queue's (malloc()ed), not the reader's */
	bool untimed; /* no timestamp: goes out at once (live sources) */
	bool guessed; /* @idx is the first event: the record names none known */
};

/* A binary min-heap of records. */
struct src_queue {
	struct src_qent *v;
	size_t n, cap;
};

/* Add @e (0 or -ENOMEM), look at the oldest, take it out. */
int perfev__queue_push(struct src_queue *q, const struct src_qent *e);
static inline const struct src_qent *perfev__queue_top(const struct src_queue *q)
{
	return q->n ? &q->v[0] : NULL;
}
void perfev__queue_pop(struct src_queue *q, struct src_qent *out);
/* Free the copies still queued and the heap. */
void perfev__queue_release(struct src_queue *q);

/* attr-name.c: perf's name for an event the recording does not name (malloc()ed). */
char *perfev__attr_name(const struct perf_event_attr *a);

#endif /* PERFEV_SOURCE_INTERNAL_H */
