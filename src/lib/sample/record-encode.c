// SPDX-License-Identifier: LGPL-2.1-or-later
/* Encoding records as the kernel writes them: the inverse of perfev_record_decode(). */
#include <errno.h>
#include "common/internal.h"
#include "sample/record-internal.h"
#include <perfev/record.h>

/*
 * A writer that keeps counting past the end of the caller's buffer, so
 * the size a record needs is known even when it does not fit, and that
 * stops at the largest size a record header can express.
 */
struct wr {
	unsigned char *p;
	size_t len;
	size_t pos;
	int err; /* -EINVAL or -EMSGSIZE, the first met */
};

static void wr_fail(struct wr *w, int err)
{
	if (!w->err)
		w->err = err;
}

static void wr_put(struct wr *w, const void *src, size_t n)
{
	if (w->err || !n)
		return;
	if (n > PERFEV__RECORD_MAX - w->pos) {
		wr_fail(w, -EMSGSIZE);
		return;
	}
	if (n <= w->len && w->pos <= w->len - n) {
		if (src)
			memcpy(w->p + w->pos, src, n);
		else
			memset(w->p + w->pos, 0, n);
	}
	w->pos += n;
}

/* @n elements of @size bytes from @src, which may be NULL only when @n is 0. */
static void wr_array(struct wr *w, uint64_t n, size_t size, const void *src)
{
	uint64_t bytes;

	if (!n)
		return;
	if (!src) {
		wr_fail(w, -EINVAL);
		return;
	}
	if (__builtin_mul_overflow(n, (uint64_t)size, &bytes) || bytes > PERFEV__RECORD_MAX) {
		wr_fail(w, -EMSGSIZE);
		return;
	}
	wr_put(w, src, (size_t)bytes);
}

static void wr_u64(struct wr *w, uint64_t v)
{
	wr_put(w, &v, 8);
}

static void wr_u32(struct wr *w, uint32_t v)
{
	wr_put(w, &v, 4);
}

static void wr_u16(struct wr *w, uint16_t v)
{
	wr_put(w, &v, 2);
}

static void wr_u8(struct wr *w, uint8_t v)
{
	wr_put(w, &v, 1);
}

static void wr_opt64(struct wr *w, uint64_t t, uint64_t bit, uint64_t v)
{
	if (t & bit)
		wr_u64(w, v);
}

/* Zeros up to the next multiple of 8 bytes from the record's start. */
static void wr_pad8(struct wr *w)
{
	wr_put(w, NULL, (8 - (w->pos & 7)) & 7);
}

/* A string with its NUL, padded with zeros to 8 bytes as the kernel does. */
static void wr_str(struct wr *w, const char *s)
{
	if (!s) {
		wr_fail(w, -EINVAL);
		return;
	}
	wr_put(w, s, strnlen(s, PERFEV__RECORD_MAX) + 1);
	wr_pad8(w);
}

/* ---- samples ------------------------------------------------------------------- */

static void wr_read_format(struct wr *w, const struct perfev_sample_layout *l,
			   const struct perfev_sample *s)
{
	uint64_t rf = l->read_format, value = 0, id = 0, lost = 0;

	if (rf & PERF_FORMAT_GROUP) {
		wr_u64(w, s->read.nr);
		wr_opt64(w, rf, PERF_FORMAT_TOTAL_TIME_ENABLED, s->read.time_enabled);
		wr_opt64(w, rf, PERF_FORMAT_TOTAL_TIME_RUNNING, s->read.time_running);
		wr_array(w, s->read.nr, (size_t)perfev__read_per_value(rf) * 8, s->read.values);
		return;
	}
	/* A single value: no nr, and id and lost come after the times. */
	if (s->read.nr != 1 || perfev_sample_read_value(l, s, 0, &value, &id, &lost)) {
		wr_fail(w, -EINVAL);
		return;
	}
	wr_u64(w, value);
	wr_opt64(w, rf, PERF_FORMAT_TOTAL_TIME_ENABLED, s->read.time_enabled);
	wr_opt64(w, rf, PERF_FORMAT_TOTAL_TIME_RUNNING, s->read.time_running);
	wr_opt64(w, rf, PERF_FORMAT_ID, id);
	wr_opt64(w, rf, PERFEV_FORMAT_LOST, lost);
}

static void wr_regs(struct wr *w, uint32_t count, uint64_t abi, const void *regs)
{
	wr_u64(w, abi);
	if (abi)
		wr_array(w, count, 8, regs);
}

static void encode_sample(struct wr *w, const struct perfev_sample_layout *l,
			  const struct perfev_sample *s)
{
	uint64_t t = l->sample_type, weight;

	wr_opt64(w, t, PERF_SAMPLE_IDENTIFIER, s->identifier);
	wr_opt64(w, t, PERF_SAMPLE_IP, s->ip);
	if (t & PERF_SAMPLE_TID) {
		wr_u32(w, s->pid);
		wr_u32(w, s->tid);
	}
	wr_opt64(w, t, PERF_SAMPLE_TIME, s->time);
	wr_opt64(w, t, PERF_SAMPLE_ADDR, s->addr);
	wr_opt64(w, t, PERF_SAMPLE_ID, s->id);
	wr_opt64(w, t, PERF_SAMPLE_STREAM_ID, s->stream_id);
	if (t & PERF_SAMPLE_CPU) {
		wr_u32(w, s->cpu);
		wr_u32(w, s->res);
	}
	wr_opt64(w, t, PERF_SAMPLE_PERIOD, s->period);
	if (t & PERF_SAMPLE_READ)
		wr_read_format(w, l, s);
	if (t & PERF_SAMPLE_CALLCHAIN) {
		wr_u64(w, s->callchain_nr);
		wr_array(w, s->callchain_nr, 8, s->callchain);
	}
	if (t & PERF_SAMPLE_RAW) {
		wr_u32(w, s->raw_size);
		wr_array(w, s->raw_size, 1, s->raw);
		wr_pad8(w); /* the header ends 8-aligned, so this pads size and data together */
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		wr_u64(w, s->branch_nr);
		if (l->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			wr_u64(w, s->branch_hw_idx);
		wr_array(w, s->branch_nr, sizeof(struct perfev_branch_entry), s->branches);
		if (l->branch_sample_type & PERFEV_SAMPLE_BRANCH_COUNTERS)
			wr_array(w, s->branch_nr, 8, s->branch_counters);
	}
	if (t & PERF_SAMPLE_REGS_USER)
		wr_regs(w, l->regs_user_count, s->regs_user_abi, s->regs_user);
	if (t & PERF_SAMPLE_STACK_USER) {
		wr_u64(w, s->stack_user_size);
		wr_array(w, s->stack_user_size, 1, s->stack_user);
		if (s->stack_user_size)
			wr_u64(w, s->stack_user_dyn_size);
	}
	if (t & PERFEV__WEIGHT_BITS) {
		weight = s->weight;
		if (t & PERFEV_SAMPLE_WEIGHT_STRUCT)
			weight = s->weight_struct.var1_dw |
				 (uint64_t)s->weight_struct.var2_w << 32 |
				 (uint64_t)s->weight_struct.var3_w << 48;
		wr_u64(w, weight);
	}
	wr_opt64(w, t, PERF_SAMPLE_DATA_SRC, s->data_src);
	wr_opt64(w, t, PERF_SAMPLE_TRANSACTION, s->transaction);
	if (t & PERF_SAMPLE_REGS_INTR)
		wr_regs(w, l->regs_intr_count, s->regs_intr_abi, s->regs_intr);
	wr_opt64(w, t, PERF_SAMPLE_PHYS_ADDR, s->phys_addr);
	wr_opt64(w, t, PERF_SAMPLE_CGROUP, s->cgroup);
	wr_opt64(w, t, PERFEV_SAMPLE_DATA_PAGE_SIZE, s->data_page_size);
	wr_opt64(w, t, PERFEV_SAMPLE_CODE_PAGE_SIZE, s->code_page_size);
	if (t & PERF_SAMPLE_AUX) {
		wr_u64(w, s->aux_size);
		wr_array(w, s->aux_size, 1, s->aux);
	}
	wr_pad8(w);
}

/* ---- other records ------------------------------------------------------------- */

static void encode_trailer(struct wr *w, uint64_t t, const struct perfev_sample_id *sid)
{
	if (t & PERF_SAMPLE_TID) {
		wr_u32(w, sid->pid);
		wr_u32(w, sid->tid);
	}
	wr_opt64(w, t, PERF_SAMPLE_TIME, sid->time);
	wr_opt64(w, t, PERF_SAMPLE_ID, sid->id);
	wr_opt64(w, t, PERF_SAMPLE_STREAM_ID, sid->stream_id);
	if (t & PERF_SAMPLE_CPU) {
		wr_u32(w, sid->cpu);
		wr_u32(w, sid->res);
	}
	wr_opt64(w, t, PERF_SAMPLE_IDENTIFIER, sid->identifier);
}

static void wr_mmap_head(struct wr *w, uint32_t pid, uint32_t tid, uint64_t addr, uint64_t len,
			 uint64_t pgoff)
{
	wr_u32(w, pid);
	wr_u32(w, tid);
	wr_u64(w, addr);
	wr_u64(w, len);
	wr_u64(w, pgoff);
}

static void encode_mmap2(struct wr *w, const struct perfev_record *rec)
{
	const typeof(rec->u.mmap2) *m = &rec->u.mmap2;

	wr_mmap_head(w, m->pid, m->tid, m->addr, m->len, m->pgoff);
	if (m->has_build_id) {
		if (m->build_id_size > sizeof(m->build_id))
			wr_fail(w, -EINVAL);
		wr_u8(w, m->build_id_size);
		wr_put(w, NULL, 3); /* __reserved_1, __reserved_2 */
		wr_put(w, m->build_id, sizeof(m->build_id));
	} else {
		wr_u32(w, m->maj);
		wr_u32(w, m->min);
		wr_u64(w, m->ino);
		wr_u64(w, m->ino_generation);
	}
	wr_u32(w, m->prot);
	wr_u32(w, m->flags);
	wr_str(w, m->filename);
}

/* Bodies of the kernel's other record types; returns false for a type it does not know. */
static bool encode_body(struct wr *w, const struct perfev_sample_layout *l,
			const struct perfev_record *rec)
{
	const typeof(rec->u) *u = &rec->u;

	switch (rec->type) {
	case PERF_RECORD_MMAP:
		wr_mmap_head(w, u->mmap.pid, u->mmap.tid, u->mmap.addr, u->mmap.len, u->mmap.pgoff);
		wr_str(w, u->mmap.filename);
		break;
	case PERF_RECORD_MMAP2:
		encode_mmap2(w, rec);
		break;
	case PERF_RECORD_LOST:
		wr_u64(w, u->lost.id);
		wr_u64(w, u->lost.lost);
		break;
	case PERF_RECORD_COMM:
		wr_u32(w, u->comm.pid);
		wr_u32(w, u->comm.tid);
		wr_str(w, u->comm.comm);
		break;
	case PERF_RECORD_EXIT:
	case PERF_RECORD_FORK:
		wr_u32(w, u->fork.pid);
		wr_u32(w, u->fork.ppid);
		wr_u32(w, u->fork.tid);
		wr_u32(w, u->fork.ptid);
		wr_u64(w, u->fork.time);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		wr_u64(w, u->throttle.time);
		wr_u64(w, u->throttle.id);
		wr_u64(w, u->throttle.stream_id);
		break;
	case PERF_RECORD_READ:
		wr_u32(w, u->read.pid);
		wr_u32(w, u->read.tid);
		wr_read_format(w, l, &u->read.values);
		break;
	case PERF_RECORD_AUX:
		wr_u64(w, u->aux.aux_offset);
		wr_u64(w, u->aux.aux_size);
		wr_u64(w, u->aux.flags);
		break;
	case PERF_RECORD_ITRACE_START:
		wr_u32(w, u->itrace_start.pid);
		wr_u32(w, u->itrace_start.tid);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		wr_u64(w, u->lost_samples.lost);
		break;
	case PERF_RECORD_SWITCH:
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		wr_u32(w, u->context_switch.next_prev_pid);
		wr_u32(w, u->context_switch.next_prev_tid);
		break;
	case PERF_RECORD_NAMESPACES:
		wr_u32(w, u->namespaces.pid);
		wr_u32(w, u->namespaces.tid);
		wr_u64(w, u->namespaces.nr);
		wr_array(w, u->namespaces.nr, 16, u->namespaces.link_info);
		break;
	case PERF_RECORD_KSYMBOL:
		wr_u64(w, u->ksymbol.addr);
		wr_u32(w, u->ksymbol.len);
		wr_u16(w, u->ksymbol.ksym_type);
		wr_u16(w, u->ksymbol.flags);
		wr_str(w, u->ksymbol.name);
		break;
	case PERF_RECORD_BPF_EVENT:
		wr_u16(w, u->bpf_event.type);
		wr_u16(w, u->bpf_event.flags);
		wr_u32(w, u->bpf_event.id);
		wr_put(w, u->bpf_event.tag, sizeof(u->bpf_event.tag));
		break;
	case PERF_RECORD_CGROUP:
		wr_u64(w, u->cgroup.id);
		wr_str(w, u->cgroup.path);
		break;
	case PERFEV_RECORD_TEXT_POKE:
		wr_u64(w, u->text_poke.addr);
		wr_u16(w, u->text_poke.old_len);
		wr_u16(w, u->text_poke.new_len);
		wr_array(w, (uint64_t)u->text_poke.old_len + u->text_poke.new_len, 1,
			 u->text_poke.bytes);
		wr_pad8(w);
		break;
	case PERFEV_RECORD_AUX_OUTPUT_HW_ID:
		wr_u64(w, u->aux_output_hw_id.hw_id);
		break;
	default:
		return false;
	}
	return true;
}

/* perf stat record's types (no trailer); returns false for other types. */
static bool encode_stat_records(struct wr *w, const struct perfev_record *rec)
{
	const typeof(rec->u) *u = &rec->u;

	switch (rec->type) {
	case PERFEV_RECORD_STAT:
		wr_u64(w, u->stat.id);
		wr_u32(w, u->stat.cpu);
		wr_u32(w, u->stat.thread);
		wr_u64(w, u->stat.val);
		wr_u64(w, u->stat.ena);
		wr_u64(w, u->stat.run);
		break;
	case PERFEV_RECORD_STAT_ROUND:
		wr_u64(w, u->stat_round.type);
		wr_u64(w, u->stat_round.time);
		break;
	case PERFEV_RECORD_STAT_CONFIG:
		wr_u64(w, u->stat_config.nr);
		wr_array(w, u->stat_config.nr, 16, u->stat_config.data);
		break;
	case PERFEV_RECORD_THREAD_MAP:
		wr_u64(w, u->thread_map.nr);
		wr_array(w, u->thread_map.nr, 24, u->thread_map.entries);
		break;
	case PERFEV_RECORD_CPU_MAP:
		/* Only the list of CPUs: perf reads it for any map. */
		if (u->cpu_map.type != PERFEV_CPU_MAP_CPUS)
			wr_fail(w, -EINVAL);
		wr_u16(w, u->cpu_map.type);
		wr_u16(w, u->cpu_map.nr);
		wr_array(w, u->cpu_map.nr, 2, u->cpu_map.cpus);
		wr_pad8(w);
		break;
	case PERFEV_RECORD_EVENT_UPDATE:
		wr_u64(w, u->event_update.type);
		wr_u64(w, u->event_update.id);
		if (u->event_update.type == PERFEV_EVENT_UPDATE_UNIT ||
		    u->event_update.type == PERFEV_EVENT_UPDATE_NAME) {
			wr_str(w, u->event_update.str);
		} else if (u->event_update.type == PERFEV_EVENT_UPDATE_SCALE) {
			wr_put(w, &u->event_update.scale, 8);
		} else {
			wr_array(w, u->event_update.data_size, 1, u->event_update.data);
			wr_pad8(w);
		}
		break;
	default:
		return false;
	}
	return true;
}

/* misc with the bits @rec's union also carries taken from the union. */
static uint16_t encode_misc(const struct perfev_record *rec)
{
	uint16_t misc = rec->misc;

#define SET_BIT(cond, bit) misc = (uint16_t)((cond) ? misc | (bit) : misc & ~(bit))
	switch (rec->type) {
	case PERF_RECORD_COMM:
		SET_BIT(rec->u.comm.exec, PERF_RECORD_MISC_COMM_EXEC);
		break;
	case PERF_RECORD_MMAP2:
		SET_BIT(rec->u.mmap2.has_build_id, PERFEV_RECORD_MISC_MMAP_BUILD_ID);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		SET_BIT(rec->u.context_switch.out, PERF_RECORD_MISC_SWITCH_OUT);
		SET_BIT(rec->u.context_switch.preempt, PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
		break;
	default:
		break;
	}
#undef SET_BIT
	return misc;
}

int perfev_record_encode(const struct perfev_sample_layout *layout, const struct perfev_record *rec,
			 void *buf, size_t len)
{
	struct wr w = {.p = buf, .len = buf ? len : 0};
	struct perf_event_header h;

	if (!perfev__layout_ok(layout) || !rec)
		return -EINVAL;
	wr_put(&w, NULL, sizeof(h)); /* filled in once the size is known */
	if (rec->type == PERF_RECORD_SAMPLE) {
		encode_sample(&w, layout, &rec->u.sample);
	} else if (!perfev__record_has_trailer(rec->type)) {
		if (!encode_stat_records(&w, rec))
			return -EINVAL;
	} else {
		if (!encode_body(&w, layout, rec))
			return -EINVAL;
		if (layout->sample_id_all)
			encode_trailer(&w, layout->sample_type, &rec->sid);
	}
	if (w.err)
		return w.err;
	if (w.pos > w.len)
		return -ENOSPC;
	h = (struct perf_event_header){
	    .type = rec->type, .misc = encode_misc(rec), .size = (uint16_t)w.pos};
	memcpy(buf, &h, sizeof(h));
	return (int)w.pos;
}
