// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The source: records of a perf.data file, or fed from live rings, put
 * in time order by the queue (source-queue.c), fed to the machine and
 * handed out one at a time; samples that read their group's counters
 * split into one sample per member.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/source.h>
#include "common/internal.h"
#include "profile/machine-internal.h"
#include "profile/source-internal.h"
#include "sample/record-internal.h"

#define NONE UINT32_MAX
/* A live record waits this long for older ones of other rings, by default. */
#define DEFAULT_WINDOW 1000000000ULL

/* One event of the recording. */
struct src_attr {
	const struct perfev_data_attr *da; /* the reader's, or @own */
	char *name;			   /* made at the first call for it */
	struct perfev_data_attr own;	   /* a live source's */
};

enum src_state {
	ST_READING,
	ST_DRAINING, /* the input ended (or failed): every record queued may go out */
	ST_DONE,     /* nothing more: @err (or 0) from now on */
};

struct perfev_source {
	struct perfev_data_reader *r; /* NULL: live */
	struct perfev_machine *m;
	bool raw, whole_reads, pipe;
	bool transient; /* the record read last is valid until the next read (decompressed) */
	uint64_t held;	/* bytes of the copies queued, with their entries */
	uint64_t window;

	PERFEV__ARRAY(struct src_attr *) attrs;
	struct perfev__hashmap by_ptr; /* the reader's attr -> index */
	struct perfev__hashmap by_id;  /* kernel id -> index */
	struct perfev__hashmap last;   /* id -> the value last read (PERF_SAMPLE_READ) */
	const void *bid_feat;	       /* the BUILD_ID feature told to the machine */

	/* Time order. */
	struct src_queue q;
	uint64_t qseq;
	uint64_t max_time;   /* the newest timestamp read */
	uint64_t last_time;  /* the newest timestamp handed out */
	uint64_t next_flush; /* the newest of the round before the last FINISHED_ROUND */
	uint64_t limit;	     /* the flush going on delivers records up to this time */
	bool flushing;
	bool barrier; /* a FINISHED_ROUND to hand out once its flush is done */
	struct src_qent barrier_ent;
	enum src_state state;
	bool finished; /* live: perfev_source_finish() was called */
	int err;

	/* What was handed out last. */
	struct src_qent cur; /* its record (freed at the next) */
	struct perfev_record rec;
	struct perfev_source_event ev;
	uint64_t rec_seq;
	bool splitting; /* handing out the READ values of @rec */
	uint64_t split_i;
	char comm[32];

	/* The frames of the last sample, per flags. */
	PERFEV__ARRAY(struct perfev_frame) frames;
	uint64_t frames_seq;
	unsigned int frames_flags;
	bool frames_valid;

	struct perfev_source_stats st;
};

/* ---- events ----------------------------------------------------------------------- */

size_t perfev_source_attr_count(const struct perfev_source *src)
{
	return src ? src->attrs.n : 0;
}

const struct perfev_data_attr *perfev_source_attr(const struct perfev_source *src, size_t idx)
{
	return src && idx < src->attrs.n ? src->attrs.v[idx]->da : NULL;
}

const char *perfev_source_attr_name(struct perfev_source *src, size_t idx)
{
	struct src_attr *a;

	if (!src || idx >= src->attrs.n)
		return "[unknown]";
	a = src->attrs.v[idx];
	if (!a->name)
		a->name = a->da->name ? strdup(a->da->name) : perfev__attr_name(a->da->attr);
	return a->name;
}

static const struct perfev_sample_layout *layout_of(const struct perfev_source *src, uint32_t idx)
{
	static const struct perfev_sample_layout none;

	return idx == NONE ? &none : &src->attrs.v[idx]->da->layout;
}

/*
 * Whether the MMAP2 record @e may trust its build-id bit: only when its
 * event set attr.build_id (the kernel leaves the bit on the records of
 * the others, see record-internal.h).  A record of no known event (one a
 * tool synthesized with a zero id) trusts it when some event set it.
 */
static unsigned int decode_flags(const struct perfev_source *src, const struct src_qent *e)
{
	size_t i;

	if (e->type != PERF_RECORD_MMAP2 || e->idx == NONE)
		return 0;
	if (!e->guessed)
		return src->attrs.v[e->idx]->da->attr->build_id ? 0 : PERFEV__DECODE_NO_BUILD_ID;
	for (i = 0; i < src->attrs.n; i++)
		if (src->attrs.v[i]->da->attr->build_id)
			return 0;
	return PERFEV__DECODE_NO_BUILD_ID;
}

static int decode(const struct perfev_source *src, const struct src_qent *e,
		  struct perfev_record *out)
{
	return perfev__record_decode_flags(layout_of(src, e->idx), e->bytes, e->size,
					   decode_flags(src, e), out);
}

/* Note the ids of event @idx; an id two events claim stays the first's. */
static int add_ids(struct perfev_source *src, uint32_t idx)
{
	const struct perfev_data_attr *da = src->attrs.v[idx]->da;
	size_t i;
	int err;

	for (i = 0; i < da->nids; i++) {
		err = perfev__hashmap_add(&src->by_id, da->ids[i], idx);
		if (err && err != -EEXIST)
			return err;
	}
	return 0;
}

/* The reader's events not seen yet (pipe mode brings them with the stream). */
static int sync_attrs(struct perfev_source *src)
{
	size_t n = perfev_data_attr_count(src->r);
	struct src_attr **slot, *a;

	while (src->attrs.n < n) {
		a = calloc(1, sizeof(*a));
		slot = a ? perfev__array_push(&src->attrs) : NULL;
		if (!slot) {
			free(a);
			return -ENOMEM;
		}
		*slot = a;
		a->da = perfev_data_attr(src->r, src->attrs.n - 1);
		if (perfev__hashmap_add(&src->by_ptr, perfev__ptr_key(a->da), src->attrs.n - 1) ||
		    add_ids(src, (uint32_t)(src->attrs.n - 1)))
			return -ENOMEM;
	}
	return 0;
}

int perfev_source_add_attr(struct perfev_source *src, const struct perf_event_attr *attr,
			   const char *name, const uint64_t *ids, size_t nids)
{
	struct perf_event_attr *copy = NULL;
	struct src_attr *a, **slot;
	uint64_t *idcopy = NULL;
	uint32_t size;
	size_t i;
	int err;

	if (!src || src->r || !attr || (nids && !ids) || src->attrs.n >= NONE)
		return -EINVAL;
	size = attr->size ? attr->size : PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || size > 4096)
		return -EINVAL;
	for (i = 0; i < nids; i++)
		if (perfev__hashmap_find(&src->by_id, ids[i], NULL))
			return -EEXIST;
	a = calloc(1, sizeof(*a));
	/* Zero-filled past what the caller's size holds, as the reader's copies. */
	copy = calloc(1, size > PERFEV_ATTR_SIZE_MAX ? size : PERFEV_ATTR_SIZE_MAX);
	idcopy = calloc(nids ? nids : 1, sizeof(*idcopy));
	if (!a || !copy || !idcopy || (name && !(a->name = strdup(name)))) {
		err = -ENOMEM;
		goto fail;
	}
	memcpy(copy, attr, size);
	copy->size = size;
	if (nids)
		memcpy(idcopy, ids, nids * sizeof(*ids));
	err = perfev_sample_layout_init(&a->own.layout, copy);
	if (err)
		goto fail;
	a->own.attr = copy;
	a->own.ids = idcopy;
	a->own.nids = nids;
	a->own.name = a->name;
	a->da = &a->own;
	slot = perfev__array_push(&src->attrs);
	if (!slot) {
		err = -ENOMEM;
		goto fail;
	}
	*slot = a;
	err = add_ids(src, (uint32_t)(src->attrs.n - 1));
	if (err) {
		src->attrs.n--;
		goto fail;
	}
	return (int)(src->attrs.n - 1);
fail:
	free(copy);
	free(idcopy);
	if (a)
		free(a->name);
	free(a);
	return err;
}

static void free_attr(struct src_attr *a)
{
	if (a->da == &a->own) {
		free((void *)a->own.attr);
		free((void *)a->own.ids);
	}
	free(a->name);
	free(a);
}

/*
 * The event of a live record, as the reader finds a file's: the only
 * event, the first for records without an id (or id 0, as perf's
 * synthesized ones have), else by the id the first event's layout locates.
 */
static uint32_t live_attr(struct perfev_source *src, const void *bytes, uint32_t type,
			  uint16_t size)
{
	const struct perfev_data_attr *first;
	uint64_t id, v;

	if (!src->attrs.n || type >= PERFEV_RECORD_HEADER_ATTR)
		return NONE;
	first = src->attrs.v[0]->da;
	if (src->attrs.n == 1 || (type != PERF_RECORD_SAMPLE && !first->layout.sample_id_all))
		return 0;
	if (perfev_record_id(&first->layout, bytes, size, &id))
		return NONE;
	if (!id)
		return 0;
	return perfev__hashmap_find(&src->by_id, id, &v) ? (uint32_t)v : NONE;
}

/* ---- build ids -------------------------------------------------------------------- */

/*
 * perf's build-id record (the BUILD_ID feature is a list of them, a
 * stream sends each as PERF_RECORD_HEADER_BUILD_ID): a header, a pid, 20
 * id bytes, their count (when misc has bit 15; else 20), padding, the
 * file's name.  Told to the machine; its size, or 0 when malformed.
 */
static size_t tell_build_id(struct perfev_source *src, const unsigned char *p, size_t len)
{
	uint16_t misc, size;
	size_t idlen, n;
	const char *name;

	if (len < 8 + 4 + 24 + 1)
		return 0;
	memcpy(&misc, p + 4, sizeof(misc));
	memcpy(&size, p + 6, sizeof(size));
	if (size < 8 + 4 + 24 + 1 || size > len)
		return 0;
	idlen = (misc & (1U << 15)) && p[12 + 20] ? p[12 + 20] : 20;
	if (idlen > 20)
		idlen = 20;
	name = (const char *)p + 36;
	n = strnlen(name, size - 36U);
	if (n < size - 36U)
		(void)perfev_machine_set_build_id(src->m, name, p + 12, idlen);
	return size;
}

/* The BUILD_ID feature, told again when the stream sends a new one. */
static void feature_build_ids(struct perfev_source *src)
{
	const unsigned char *p;
	const void *data;
	size_t len, off, n;

	if (perfev_data_feature(src->r, PERFEV_FEAT_BUILD_ID, &data, &len) || data == src->bid_feat)
		return;
	src->bid_feat = data;
	p = data;
	for (off = 0; off < len && (n = tell_build_id(src, p + off, len - off)); off += n)
		;
}

/* ---- handing out ------------------------------------------------------------------ */

/* The record's timestamp as perf's queue sees it; 0 when it has none. */
static uint64_t record_time(const struct perfev_record *rec)
{
	if (rec->type == PERF_RECORD_SAMPLE)
		return (rec->u.sample.present & PERF_SAMPLE_TIME) ? rec->u.sample.time : 0;
	if (rec->type >= PERFEV_RECORD_HEADER_ATTR)
		return 0;
	return (rec->sid.present & PERF_SAMPLE_TIME) ? rec->sid.time : 0;
}

static void release_cur(struct perfev_source *src)
{
	if (src->cur.copy)
		free((void *)src->cur.bytes);
	src->cur.copy = false;
	src->cur.bytes = NULL;
}

/* The event of record @src->cur, decoded into @src->rec, before what is sample-specific. */
static void fill_record(struct perfev_source *src, uint32_t idx)
{
	struct perfev_source_event *ev = &src->ev;
	const struct perfev_record *rec = &src->rec;

	memset(ev, 0, sizeof(*ev));
	ev->kind = PERFEV_SOURCE_RECORD;
	ev->rec = rec;
	ev->type = src->cur.type;
	ev->misc = rec->misc;
	ev->size = src->cur.size;
	ev->bytes = src->cur.bytes;
	ev->offset = src->cur.offset;
	ev->seq = src->rec_seq;
	ev->attr_idx = idx == NONE ? SIZE_MAX : idx;
	ev->attr = idx == NONE ? NULL : src->attrs.v[idx]->da;
	ev->cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	if (rec->sid.present & PERF_SAMPLE_TID) {
		ev->pid = rec->sid.pid;
		ev->tid = rec->sid.tid;
	}
	if (rec->sid.present & PERF_SAMPLE_TIME)
		ev->time = rec->sid.time;
	if (rec->sid.present & PERF_SAMPLE_CPU)
		ev->cpu = rec->sid.cpu;
}

/* The sample fields, for event @idx with @period. */
static int fill_sample(struct perfev_source *src, uint32_t idx, uint64_t period)
{
	struct perfev_source_event *ev = &src->ev;
	const struct perfev_sample *smp = &src->rec.u.sample;
	const char *comm;

	ev->kind = PERFEV_SOURCE_SAMPLE;
	ev->attr_idx = idx;
	ev->attr = src->attrs.v[idx]->da;
	ev->name = perfev_source_attr_name(src, idx);
	if (!ev->name)
		return -ENOMEM;
	ev->pid = smp->pid;
	ev->tid = smp->tid;
	ev->cpu = smp->cpu;
	ev->time = smp->time;
	ev->period = period;
	comm = perfev_machine_comm(src->m, smp->tid);
	if (!comm) {
		snprintf(src->comm, sizeof(src->comm), ":%d", (int)smp->tid);
		comm = src->comm;
	}
	ev->comm = comm;
	src->st.samples++;
	return 1;
}

/*
 * The next READ value of the current sample whose count increased, as
 * a sample of its own event with the increase as its period (perf's
 * deliver_sample_group and deliver_sample_value): 1, or 0 when none is
 * left.  Values of no known event are counted in unknown_id.
 */
static int next_split(struct perfev_source *src)
{
	const struct perfev_sample *smp = &src->rec.u.sample;
	/* The values are laid out as the record's own event reads them. */
	const struct perfev_data_attr *da = src->attrs.v[src->cur.idx]->da;
	struct perfev__hashmap_entry *e;
	uint64_t value, id, lost, period, v;
	bool added;

	while (src->split_i < smp->read.nr) {
		if (perfev_sample_read_value(&da->layout, smp, src->split_i++, &value, &id, &lost))
			break;
		if (!(da->attr->read_format & PERF_FORMAT_ID) ||
		    !perfev__hashmap_find(&src->by_id, id, &v)) {
			src->st.unknown_id++;
			continue;
		}
		e = perfev__hashmap_upsert(&src->last, id, &added);
		if (!e)
			return -ENOMEM;
		period = value - e->value;
		e->value = value;
		if (period)
			return fill_sample(src, (uint32_t)v, period);
	}
	src->splitting = false;
	return 0;
}

/*
 * Hand out queued record @e (its bytes now the source's to free): the
 * machine learns from it, a sample gets its thread and period.  1 with
 * @src->ev set, 0 when it makes no event, or -ENOMEM.
 */
static int deliver(struct perfev_source *src, const struct src_qent *e, bool decoded)
{
	const struct perfev_sample *smp = &src->rec.u.sample;
	const struct perfev_data_attr *da;
	int err;

	release_cur(src);
	src->cur = *e;
	src->frames_valid = false;
	if (!decoded && decode(src, e, &src->rec)) {
		/* Checked when the record was read; this only guards against surprises. */
		src->st.bad++;
		return 0;
	}
	src->rec_seq++;
	if (e->time && e->time < src->last_time)
		src->st.out_of_order++;
	else if (e->time)
		src->last_time = e->time;
	fill_record(src, e->idx);
	if (!src->raw) {
		/* As perf, a COMM or FORK is shown with the name it gives. */
		err = perfev_machine_process(src->m, &src->rec);
		if (err)
			return err;
		if (e->type == PERFEV_RECORD_HEADER_BUILD_ID)
			(void)tell_build_id(src, e->bytes, e->size);
	}
	if (e->type != PERF_RECORD_SAMPLE || e->idx == NONE)
		return 1;
	da = src->ev.attr;
	if ((smp->present & PERF_SAMPLE_READ) && !src->whole_reads && !src->raw) {
		src->splitting = true;
		src->split_i = 0;
		return next_split(src);
	}
	return fill_sample(src, e->idx,
			   (smp->present & PERF_SAMPLE_PERIOD) ? smp->period
							       : da->attr->sample_period);
}

/* Hand out a record as read (raw sources), decoded or with why it is not. */
static int deliver_raw(struct perfev_source *src, const struct src_qent *e, int decode_err)
{
	if (!decode_err)
		return deliver(src, e, true);
	release_cur(src);
	src->cur = *e;
	src->frames_valid = false;
	src->rec_seq++;
	memset(&src->rec, 0, sizeof(src->rec));
	fill_record(src, e->idx);
	src->ev.rec = NULL;
	src->ev.decode_err = decode_err;
	memcpy(&src->ev.misc, (const unsigned char *)e->bytes + 4, sizeof(src->ev.misc));
	src->ev.cpumode = src->ev.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	return 1;
}

/* Stop reading: what is queued goes out, then @err (0: the end). */
static void drain(struct perfev_source *src, int err)
{
	src->state = ST_DRAINING;
	src->err = err;
	src->st.err = err;
}

/* A record read whole that does not decode ends the source. */
static void corrupt(struct perfev_source *src, const struct src_qent *e, int err)
{
	drain(src, err);
	src->st.err_in_record = true;
	src->st.err_type = e->type;
	src->st.err_size = e->size;
	src->st.err_offset = e->offset;
}

static int queue(struct perfev_source *src, struct src_qent *e, uint64_t t)
{
	int err;

	e->time = t;
	e->seq = src->qseq++;
	if (!e->copy && (src->pipe || src->transient)) {
		/* A stream's record, or a decompressed one, is valid until the next one is read. */
		void *copy = malloc(e->size);

		if (!copy)
			return -ENOMEM;
		memcpy(copy, e->bytes, e->size);
		e->bytes = copy;
		e->copy = true;
	}
	err = perfev__queue_push(&src->q, e);
	if (err) {
		if (e->copy)
			free((void *)e->bytes);
		return err;
	}
	if (e->copy)
		src->held += e->size + sizeof(*e);
	if (t > src->max_time)
		src->max_time = t;
	return 0;
}

/* Count what the statistics keep of a record read. */
static void count(struct perfev_source *src, const struct perfev_record *rec)
{
	if (rec->type == PERF_RECORD_LOST)
		src->st.lost += rec->u.lost.lost;
	else if (rec->type == PERF_RECORD_LOST_SAMPLES)
		src->st.lost_samples += rec->u.lost_samples.lost;
	else if (rec->type == PERFEV_RECORD_COMPRESSED)
		src->st.compressed++;
}

/*
 * Read the next record of a file: 1 when it makes an event at once, 0
 * when it waits in the queue (or makes none), <0 on a fatal error.
 */
static int read_one(struct perfev_source *src)
{
	struct perfev_data_record dr;
	struct src_qent e = {0};
	uint64_t v, t;
	int ret;

	ret = perfev_data_next(src->r, &dr);
	if (ret <= 0) {
		drain(src, ret);
		return 0;
	}
	src->st.records++;
	src->transient = perfev_data_record_decompressed(src->r);
	/* A decompressed record has its COMPRESSED record's offset, which ends later. */
	if (!src->transient)
		src->st.good_end = dr.offset + dr.size;
	if (sync_attrs(src))
		return -ENOMEM;
	feature_build_ids(src);
	e.bytes = dr.bytes;
	e.size = dr.size;
	e.type = dr.type;
	e.offset = dr.offset;
	e.idx = NONE;
	if (dr.attr && perfev__hashmap_find(&src->by_ptr, perfev__ptr_key(dr.attr), &v))
		e.idx = (uint32_t)v;
	/* Records of no known event: samples cannot be decoded, the others share a trailer. */
	else if (dr.type != PERF_RECORD_SAMPLE && src->attrs.n) {
		e.idx = 0;
		e.guessed = true;
	}
	if (dr.type == PERF_RECORD_SAMPLE && e.idx == NONE) {
		src->st.unknown_id++;
		return src->raw ? deliver_raw(src, &e, -ENOENT) : 0;
	}
	ret = decode(src, &e, &src->rec);
	if (src->raw) {
		if (ret)
			corrupt(src, &e, ret);
		return deliver_raw(src, &e, ret);
	}
	if (ret) {
		corrupt(src, &e, ret);
		return 0;
	}
	count(src, &src->rec);
	if (dr.type == PERFEV_RECORD_FINISHED_ROUND) {
		/* The records up to the round before's newest cannot be preceded any more. */
		src->limit = src->next_flush;
		src->flushing = true;
		src->next_flush = src->max_time;
		src->barrier = true;
		src->barrier_ent = e;
		return 0;
	}
	t = record_time(&src->rec);
	if (!t || t == UINT64_MAX)
		return deliver(src, &e, true);
	ret = queue(src, &e, t);
	return ret;
}

/*
 * The record that goes out after this one was read a round ago and has
 * left the caches since: its first bytes (header, registers and the top
 * of a stack copy, what unwinding reads) are asked for now, so that they
 * arrive while this one is handled.
 */
#define PREFETCH_BYTES 2048

static void prefetch_next(const struct perfev_source *src)
{
	const struct src_qent *top = perfev__queue_top(&src->q);
	size_t k, n;

	if (!top)
		return;
	n = top->size < PREFETCH_BYTES ? top->size : PREFETCH_BYTES;
	for (k = 0; k < n; k += 64)
		__builtin_prefetch((const char *)top->bytes + k);
}

/*
 * What the queue may hold in copies: 8 MiB and twice the input read so far, up to
 * PERFEV_SOURCE_HOLD_MAX.  A few KiB of COMPRESSED records that expand to millions of
 * records (a bomb) then cost megabytes, not the cap; a stream's copies are never more
 * than what it gave, and a real -z round (a ring read of every CPU, compressed about ten
 * times) fits once the rounds before it are read.
 */
#define HOLD_BASE (8ULL << 20)

static uint64_t hold_max(const struct perfev_source *src)
{
	uint64_t max = HOLD_BASE + 2 * src->st.good_end;

	return max < PERFEV_SOURCE_HOLD_MAX ? max : PERFEV_SOURCE_HOLD_MAX;
}

/* May the oldest queued record go out now? */
static bool ready(struct perfev_source *src, const struct src_qent *top)
{
	if (src->state != ST_READING || src->finished)
		return true;
	if (!src->r)
		return top->untimed ||
		       (src->max_time > src->window && top->time < src->max_time - src->window);
	/* Copies past the cap go out early, oldest first, rather than fill the memory. */
	return (src->flushing && top->time <= src->limit) || src->held > hold_max(src);
}

int perfev_source_next(struct perfev_source *src, const struct perfev_source_event **out)
{
	const struct src_qent *top;
	struct src_qent e;
	int ret;

	if (!src || !out)
		return -EINVAL;
	*out = &src->ev;
	for (;;) {
		if (src->state == ST_DONE) {
			ret = src->err;
			break;
		}
		if (src->splitting) {
			ret = next_split(src);
			if (ret < 0)
				goto fail;
			if (ret)
				return ret;
			continue;
		}
		top = perfev__queue_top(&src->q);
		if (top && ready(src, top)) {
			perfev__queue_pop(&src->q, &e);
			if (e.copy)
				src->held -= e.size + sizeof(e);
			prefetch_next(src);
			ret = deliver(src, &e, false);
			if (ret < 0)
				goto fail;
			if (ret)
				return ret;
			continue;
		}
		/* The flush is done: what comes next waits for the next round. */
		src->flushing = false;
		if (src->barrier) {
			src->barrier = false;
			ret = deliver(src, &src->barrier_ent, false);
			if (ret < 0)
				goto fail;
			if (ret)
				return ret;
			continue;
		}
		if (src->state != ST_READING) {
			src->state = ST_DONE;
			continue;
		}
		if (!src->r) {
			ret = 0;
			break;
		}
		ret = read_one(src);
		if (ret < 0)
			goto fail;
		if (ret)
			return ret;
	}
	goto out;
fail:
	/* Out of memory: the source cannot go on, and says so from now on. */
	src->state = ST_DONE;
	src->err = ret;
	src->st.err = ret;
out:
	/* Nothing handed out: the last event is over. */
	release_cur(src);
	memset(&src->ev, 0, sizeof(src->ev));
	src->frames_valid = false;
	return ret;
}

int perfev_source_frames(struct perfev_source *src, const struct perfev_source_event *ev,
			 unsigned int flags, const struct perfev_frame **frames, size_t *n)
{
	struct perfev_machine *m;
	const struct perfev_frame *f;
	struct perfev_frame *v;
	size_t cnt, cap;
	int err;

	if (!src || ev != &src->ev || ev->kind != PERFEV_SOURCE_SAMPLE || !ev->rec || !frames || !n)
		return -EINVAL;
	if (!src->frames_valid || src->frames_seq != ev->seq || src->frames_flags != flags) {
		/*
		 * The machine writes into the source's array, lent for the
		 * call: the frames are the source's to keep, without a copy.
		 */
		m = src->m;
		v = m->out.v;
		cap = m->out.cap;
		m->out.v = src->frames.v;
		m->out.cap = src->frames.cap;
		err = perfev_machine_sample_frames(m, ev->attr->attr, ev->rec, flags, &f, &cnt);
		src->frames.v = m->out.v;
		src->frames.cap = m->out.cap;
		src->frames.n = err ? 0 : cnt;
		m->out.v = v;
		m->out.cap = cap;
		m->out.n = 0;
		src->frames_valid = !err;
		if (err)
			return err;
		src->frames_seq = ev->seq;
		src->frames_flags = flags;
	}
	*frames = src->frames.v;
	*n = src->frames.n;
	return 0;
}

/* ---- live input ------------------------------------------------------------------- */

int perfev_source_feed(struct perfev_source *src, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	struct perfev_record rec;
	struct src_qent e;
	uint16_t size;
	uint32_t type;
	uint64_t t;
	size_t off;
	int err;

	if (!src || src->r || src->finished || (!buf && len))
		return -EINVAL;
	for (off = 0; off < len; off += size) {
		if (len - off < 8)
			goto bad;
		memcpy(&type, p + off, sizeof(type));
		memcpy(&size, p + off + 6, sizeof(size));
		if (size < 8 || size > len - off)
			goto bad;
		memset(&e, 0, sizeof(e));
		e.bytes = p + off;
		e.size = size;
		e.type = type;
		e.idx = live_attr(src, e.bytes, type, size);
		if (e.idx == NONE && type != PERF_RECORD_SAMPLE && src->attrs.n) {
			e.idx = 0;
			e.guessed = true;
		}
		if (type == PERF_RECORD_SAMPLE && e.idx == NONE) {
			src->st.unknown_id++;
			continue;
		}
		/* The record handed out last may still be in use: decoded apart. */
		if (decode(src, &e, &rec))
			goto bad;
		src->st.records++;
		count(src, &rec);
		t = record_time(&rec);
		e.untimed = !t || t == UINT64_MAX;
		e.bytes = malloc(size);
		if (!e.bytes)
			return -ENOMEM;
		memcpy((void *)e.bytes, p + off, size);
		e.copy = true;
		err = queue(src, &e, e.untimed ? 0 : t);
		if (err)
			return err;
	}
	return 0;
bad:
	src->st.bad++;
	return -EBADMSG;
}

int perfev_source_finish(struct perfev_source *src)
{
	if (!src || src->r)
		return -EINVAL;
	src->finished = true;
	return 0;
}

/* ---- the source ------------------------------------------------------------------- */

struct perfev_machine *perfev_source_machine(struct perfev_source *src)
{
	return src ? src->m : NULL;
}

const struct perfev_data_reader *perfev_source_data(const struct perfev_source *src)
{
	return src ? src->r : NULL;
}

int perfev_source_stats(const struct perfev_source *src, struct perfev_source_stats *out)
{
	size_t sz;

	if (!src ||
	    !perfev__out_ok(out, out ? out->sz : 0,
			    offsetof(struct perfev_source_stats, records) + sizeof(out->records)))
		return -EINVAL;
	sz = out->sz < sizeof(*out) ? out->sz : sizeof(*out);
	memcpy((char *)out + sizeof(out->sz), (const char *)&src->st + sizeof(out->sz),
	       sz - sizeof(out->sz));
	return 0;
}

static int source_new(const struct perfev_source_opts *opts, struct perfev_source **out)
{
	struct perfev_source *src;
	int err;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!perfev__opts_ok(opts, opts ? opts->sz : 0, sizeof(*opts)))
		return -EINVAL;
	src = calloc(1, sizeof(*src));
	if (!src)
		return -ENOMEM;
	src->raw = PERFEV__OPT(opts, raw, false);
	src->whole_reads = PERFEV__OPT(opts, whole_reads, false);
	src->window = PERFEV__OPT(opts, window_ns, 0ULL);
	if (!src->window)
		src->window = DEFAULT_WINDOW;
	src->st.sz = sizeof(src->st);
	perfev__hashmap_init(&src->by_ptr, NULL, NULL, NULL);
	perfev__hashmap_init(&src->by_id, NULL, NULL, NULL);
	perfev__hashmap_init(&src->last, NULL, NULL, NULL);
	err = perfev_machine_new(PERFEV__OPT(opts, machine, NULL), &src->m);
	if (err) {
		free(src);
		return err;
	}
	*out = src;
	return 0;
}

/* A file source around reader @r (owned from now on). */
static int file_source(struct perfev_data_reader *r, const struct perfev_source_opts *opts, int err,
		       struct perfev_source **out)
{
	struct perfev_source *src;

	if (err)
		return err;
	err = source_new(opts, &src);
	if (err) {
		perfev_data_close(r);
		return err;
	}
	src->r = r;
	src->pipe = perfev_data_is_pipe(r);
	err = sync_attrs(src);
	if (err) {
		perfev_source_free(src);
		return err;
	}
	feature_build_ids(src);
	*out = src;
	return 0;
}

int perfev_source_open(const char *path, const struct perfev_source_opts *opts,
		       struct perfev_source **out)
{
	struct perfev_data_reader *r = NULL;
	int err;

	if (!out || !path || !perfev__opts_ok(opts, opts ? opts->sz : 0, sizeof(*opts)))
		return -EINVAL;
	err = perfev_data_open(path, NULL, &r);

	return file_source(r, opts, err, out);
}

int perfev_source_open_fd(int fd, const struct perfev_source_opts *opts, struct perfev_source **out)
{
	struct perfev_data_reader *r = NULL;
	int err;

	if (!out || !perfev__opts_ok(opts, opts ? opts->sz : 0, sizeof(*opts)))
		return -EINVAL;
	err = perfev_data_open_fd(fd, NULL, &r);

	return file_source(r, opts, err, out);
}

int perfev_source_open_mem(const void *buf, size_t len, const struct perfev_source_opts *opts,
			   struct perfev_source **out)
{
	struct perfev_data_reader *r = NULL;
	int err;

	if (!out || !perfev__opts_ok(opts, opts ? opts->sz : 0, sizeof(*opts)))
		return -EINVAL;
	err = perfev_data_open_mem(buf, len, NULL, &r);

	return file_source(r, opts, err, out);
}

int perfev_source_new_live(const struct perfev_source_opts *opts, struct perfev_source **out)
{
	return source_new(opts, out);
}

void perfev_source_free(struct perfev_source *src)
{
	size_t i;

	if (!src)
		return;
	release_cur(src);
	perfev__queue_release(&src->q);
	for (i = 0; i < src->attrs.n; i++)
		free_attr(src->attrs.v[i]);
	perfev__array_release(&src->attrs);
	perfev__array_release(&src->frames);
	perfev__hashmap_release(&src->by_ptr);
	perfev__hashmap_release(&src->by_id);
	perfev__hashmap_release(&src->last);
	perfev_machine_free(src->m);
	perfev_data_close(src->r);
	free(src);
}
