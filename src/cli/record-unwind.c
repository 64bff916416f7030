// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev record --call-graph dwarf --unwind: the user stacks unwound while
 * recording, each sample stored with its whole call chain instead of the
 * registers and the stack copy (a few hundred bytes instead of ~8 KiB).
 *
 * The records of the rings go through a live source (time order, the
 * threads and maps of the processes, the unwinder); what comes out is
 * written in time order.  A sample unwound keeps its event's layout: its
 * PERF_SAMPLE_REGS_USER is the ABI word NONE alone and its
 * PERF_SAMPLE_STACK_USER a size of 0 (how the kernel itself says that
 * nothing was captured), and its call chain ends with PERF_CONTEXT_USER
 * and the unwound frames, so perf and perfev read an ordinary chain and
 * neither unwinds it again.  When the unwinder falls behind (more than a
 * bound of records waiting), samples are written as recorded, stack copy
 * and all, and counted: perf and perfev unwind those when they read the
 * file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <perfev/perfev.h>
#include <perfev/source.h>
#include "common/array.h"
#include "record.h"

/* Records waiting in the source beyond this: samples go out raw until half of it. */
#define MAX_BACKLOG (256ULL << 20)
/* Events handed out between two reads of the rings. */
#define DRAIN_EVERY 64

struct rec_unwind {
	struct perfev_source *src;
	struct perfev_data_writer *w;
	uint64_t backlog; /* bytes fed and not yet handed out */
	bool behind;
	bool wrote;
	struct rec_unwind_stats st;
	PERFEV__ARRAY(uint64_t) chain;
	PERFEV__ARRAY(unsigned char) buf;
	int err; /* the first error */
};

int rec_unwind_new(struct perfev_data_writer *w, struct rec_unwind **out)
{
	struct perfev_source_opts so = {.sz = sizeof(so), .whole_reads = true};
	struct rec_unwind *u = calloc(1, sizeof(*u));
	int err;

	if (!u)
		return -ENOMEM;
	err = perfev_source_new_live(&so, &u->src);
	if (err) {
		free(u);
		return err;
	}
	u->w = w;
	*out = u;
	return 0;
}

void rec_unwind_free(struct rec_unwind *u)
{
	if (!u)
		return;
	perfev_source_free(u->src);
	perfev__array_release(&u->chain);
	perfev__array_release(&u->buf);
	free(u);
}

int rec_unwind_add_event(struct rec_unwind *u, const struct perf_event_attr *attr, const char *name,
			 const uint64_t *ids, size_t n)
{
	int err = perfev_source_add_attr(u->src, attr, name, ids, n);

	return err < 0 ? err : 0;
}

int rec_unwind_feed(struct rec_unwind *u, const void *rec, size_t len)
{
	int err = perfev_source_feed(u->src, rec, len);

	if (err == -EBADMSG) {
		u->st.bad++;
		return 0;
	}
	if (!err)
		u->backlog += len;
	return err;
}

static int write_out(struct rec_unwind *u, const void *p, size_t n)
{
	int err = perfev_data_write(u->w, p, n);

	if (err && !u->err)
		u->err = err;
	u->wrote = true;
	return err;
}

/* Does @ev carry a user stack to unwind? */
static bool has_stack(const struct perfev_source_event *ev)
{
	const struct perfev_sample *s = &ev->rec->u.sample;
	uint64_t need = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;

	return (s->present & need) == need && s->regs_user_abi && s->stack_user_size;
}

/* Sample @ev written with its unwound chain; 1: it could not be, write it as it is. */
static int write_unwound(struct rec_unwind *u, const struct perfev_source_event *ev)
{
	const struct perfev_frame *frames;
	struct perfev_record rec = *ev->rec;
	struct perfev_sample *s = &rec.u.sample;
	size_t n, i, nuser = 0, need;
	uint64_t *slot;
	int err;

	err = perfev_source_frames(u->src, ev, PERFEV_FRAMES_CHAIN | PERFEV_FRAMES_NO_SYMBOLS,
				   &frames, &n);
	if (err)
		return err == -ENOMEM ? err : 1;
	/* The recorded chain (the kernel's part) as it is, then the unwound user frames. */
	if (perfev__grow(&u->chain.v, &u->chain.cap, s->callchain_nr + 1, sizeof(*u->chain.v)))
		return -ENOMEM;
	/* Copied, not read in place: the decoder does not promise aligned fields. */
	memcpy(u->chain.v, s->callchain, s->callchain_nr * sizeof(*u->chain.v));
	u->chain.n = s->callchain_nr;
	for (i = 0; i < n; i++)
		nuser += !!(frames[i].flags & PERFEV_FRAME_UNWOUND);
	if (nuser) {
		if (!(slot = perfev__array_push(&u->chain)))
			return -ENOMEM;
		*slot = PERF_CONTEXT_USER;
		for (i = 0; i < n; i++) {
			if (!(frames[i].flags & PERFEV_FRAME_UNWOUND))
				continue;
			if (!(slot = perfev__array_push(&u->chain)))
				return -ENOMEM;
			*slot = frames[i].ip;
		}
	}
	s->callchain = u->chain.v;
	s->callchain_nr = u->chain.n;
	s->regs_user_abi = PERF_SAMPLE_REGS_ABI_NONE;
	s->regs_user = NULL;
	s->stack_user_size = 0;
	s->stack_user = NULL;
	s->stack_user_dyn_size = 0;
	need = (size_t)ev->size + 8 * (u->chain.n + 1);
	if (perfev__grow(&u->buf.v, &u->buf.cap, need, 1))
		return -ENOMEM;
	err = perfev_record_encode(&ev->attr->layout, &rec, u->buf.v, u->buf.cap);
	if (err < 0)
		return 1;
	u->st.unwound++;
	u->st.frames += nuser;
	write_out(u, u->buf.v, (size_t)err);
	return 0;
}

int rec_unwind_pump(struct rec_unwind *u, bool end, void (*drain)(void *), void *arg)
{
	const struct perfev_source_event *ev;
	unsigned int k = 0;
	int err;

	if (end && (err = perfev_source_finish(u->src)))
		return err;
	while ((err = perfev_source_next(u->src, &ev)) > 0) {
		u->backlog = u->backlog > ev->size ? u->backlog - ev->size : 0;
		if (u->behind && u->backlog < MAX_BACKLOG / 2)
			u->behind = false;
		else if (!u->behind && u->backlog > MAX_BACKLOG)
			u->behind = true;
		if (ev->kind == PERFEV_SOURCE_SAMPLE && ev->rec && has_stack(ev)) {
			if (u->behind) {
				u->st.kept_raw++;
			} else {
				err = write_unwound(u, ev);
				if (err < 0)
					return err;
				if (!err)
					goto next;
				u->st.failed++;
			}
		}
		write_out(u, ev->bytes, ev->size);
	next:
		/* Keep the rings from filling while the unwinder works. */
		if (drain && !end && ++k % DRAIN_EVERY == 0)
			drain(arg);
	}
	if (u->wrote) {
		struct perf_event_header h = {.type = PERFEV_RECORD_FINISHED_ROUND,
					      .size = sizeof(h)};

		write_out(u, &h, sizeof(h));
		u->wrote = false;
	}
	return err < 0 ? err : u->err;
}

void rec_unwind_stats(struct rec_unwind *u, struct rec_unwind_stats *out)
{
	struct perfev_unwind_stats us = {.sz = sizeof(us)};

	*out = u->st;
	/* Frames are asked for without symbols here: every stack counts under its stop reason. */
	if (!perfev_machine_unwind_stats(perfev_source_machine(u->src), &us))
		memcpy(out->stopped, us.stopped, sizeof(out->stopped));
}
