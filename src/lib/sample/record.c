// SPDX-License-Identifier: LGPL-2.1-or-later
/* Decoding ring-buffer and perf.data records: layouts, every record type, every sample field. */
#include <errno.h>
#include <limits.h>
#include "common/internal.h"
#include "sample/record-internal.h"
#include <perfev/record.h>

int perfev_sample_layout_init(struct perfev_sample_layout *layout,
			      const struct perf_event_attr *attr)
{
	struct perfev_sample_layout l = {0};
	uint64_t t;
	int pos;

	if (!layout || !attr)
		return -EINVAL;
	t = attr->sample_type;
	if ((t & ~PERFEV__SAMPLE_KNOWN) || (attr->read_format & ~PERFEV__FORMAT_KNOWN))
		return -EINVAL;
	l.sample_type = t;
	l.read_format = attr->read_format;
	l.branch_sample_type = attr->branch_sample_type;
	l.regs_user_count = (uint32_t)__builtin_popcountll(attr->sample_regs_user);
	l.regs_intr_count = (uint32_t)__builtin_popcountll(attr->sample_regs_intr);
	l.sample_id_all = attr->sample_id_all;
	l.id_trailer_size = perfev__trailer_size(t);

	/* perf's evsel id_pos: IDENTIFIER comes first; ID after IP, TID, TIME, ADDR. */
	if (t & PERF_SAMPLE_IDENTIFIER) {
		l.id_pos = 0;
	} else if (t & PERF_SAMPLE_ID) {
		l.id_pos = !!(t & PERF_SAMPLE_IP) + !!(t & PERF_SAMPLE_TID) +
			   !!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ADDR);
	} else {
		l.id_pos = -1;
	}
	/* perf's is_pos: IDENTIFIER ends the trailer; ID has STREAM_ID and CPU after it. */
	if (t & PERF_SAMPLE_IDENTIFIER) {
		pos = 1;
	} else if (t & PERF_SAMPLE_ID) {
		pos = 1 + !!(t & PERF_SAMPLE_STREAM_ID) + !!(t & PERF_SAMPLE_CPU);
	} else {
		pos = -1;
	}
	l.id_pos_from_end = pos;
	*layout = l;
	return 0;
}

/* ---- a bounded reader over one record ------------------------------------------ */

struct rd {
	const unsigned char *p;
	size_t pos; /* next byte */
	size_t end; /* first byte not to read: the record's end, or its trailer's start */
};

static bool rd_take(struct rd *r, size_t n, const void **ptr)
{
	if (n > r->end - r->pos)
		return false;
	if (ptr)
		*ptr = r->p + r->pos;
	r->pos += n;
	return true;
}

/* @n elements of @size bytes each, the product checked for overflow. */
static bool rd_array(struct rd *r, uint64_t n, size_t size, const void **ptr)
{
	uint64_t bytes;

	if (__builtin_mul_overflow(n, (uint64_t)size, &bytes) || bytes > r->end - r->pos)
		return false;
	return rd_take(r, (size_t)bytes, ptr);
}

static bool rd_u64(struct rd *r, uint64_t *v)
{
	const void *q;

	if (!rd_take(r, 8, &q))
		return false;
	memcpy(v, q, 8);
	return true;
}

static bool rd_u32(struct rd *r, uint32_t *v)
{
	const void *q;

	if (!rd_take(r, 4, &q))
		return false;
	memcpy(v, q, 4);
	return true;
}

static bool rd_u16(struct rd *r, uint16_t *v)
{
	const void *q;

	if (!rd_take(r, 2, &q))
		return false;
	memcpy(v, q, 2);
	return true;
}

static bool rd_u8(struct rd *r, uint8_t *v)
{
	const void *q;

	if (!rd_take(r, 1, &q))
		return false;
	*v = *(const uint8_t *)q;
	return true;
}

/* A string ending with a NUL before r->end; it takes the rest of the body. */
static bool rd_str(struct rd *r, const char **s)
{
	if (r->pos >= r->end || !memchr(r->p + r->pos, 0, r->end - r->pos))
		return false;
	*s = (const char *)(r->p + r->pos);
	r->pos = r->end;
	return true;
}

/* Read a u64 when @bit is in @t. */
static bool rd_opt64(struct rd *r, uint64_t t, uint64_t bit, uint64_t *v)
{
	return !(t & bit) || rd_u64(r, v);
}

/* ---- samples ------------------------------------------------------------------- */

/* A read_format block, for PERF_SAMPLE_READ and PERF_RECORD_READ. */
static bool rd_read_format(struct rd *r, uint64_t rf, struct perfev_sample *s)
{
	uint64_t per = perfev__read_per_value(rf), value;

	if (rf & PERF_FORMAT_GROUP) {
		if (!rd_u64(r, &s->read.nr) ||
		    !rd_opt64(r, rf, PERF_FORMAT_TOTAL_TIME_ENABLED, &s->read.time_enabled) ||
		    !rd_opt64(r, rf, PERF_FORMAT_TOTAL_TIME_RUNNING, &s->read.time_running))
			return false;
		/* per <= 3, so per * 8 cannot overflow; nr * that is checked. */
		return rd_array(r, s->read.nr, (size_t)per * 8, &s->read.values);
	}
	s->read.nr = 1;
	s->read.values = r->p + r->pos;
	return rd_u64(r, &value) &&
	       rd_opt64(r, rf, PERF_FORMAT_TOTAL_TIME_ENABLED, &s->read.time_enabled) &&
	       rd_opt64(r, rf, PERF_FORMAT_TOTAL_TIME_RUNNING, &s->read.time_running) &&
	       rd_take(r, (size_t)(per - 1) * 8, NULL);
}

/* abi, then @count registers when abi is not PERF_SAMPLE_REGS_ABI_NONE. */
static bool rd_regs(struct rd *r, uint32_t count, uint64_t *abi, const void **regs)
{
	if (!rd_u64(r, abi))
		return false;
	return !*abi || rd_array(r, count, 8, regs);
}

static int decode_sample(const struct perfev_sample_layout *l, struct rd *r,
			 struct perfev_sample *s)
{
	uint64_t t = l->sample_type;

	s->present = t;
	if (!rd_opt64(r, t, PERF_SAMPLE_IDENTIFIER, &s->identifier) ||
	    !rd_opt64(r, t, PERF_SAMPLE_IP, &s->ip))
		return -EBADMSG;
	if ((t & PERF_SAMPLE_TID) && (!rd_u32(r, &s->pid) || !rd_u32(r, &s->tid)))
		return -EBADMSG;
	if (!rd_opt64(r, t, PERF_SAMPLE_TIME, &s->time) ||
	    !rd_opt64(r, t, PERF_SAMPLE_ADDR, &s->addr) ||
	    !rd_opt64(r, t, PERF_SAMPLE_ID, &s->id) ||
	    !rd_opt64(r, t, PERF_SAMPLE_STREAM_ID, &s->stream_id))
		return -EBADMSG;
	if ((t & PERF_SAMPLE_CPU) && (!rd_u32(r, &s->cpu) || !rd_u32(r, &s->res)))
		return -EBADMSG;
	if (!rd_opt64(r, t, PERF_SAMPLE_PERIOD, &s->period))
		return -EBADMSG;
	if ((t & PERF_SAMPLE_READ) && !rd_read_format(r, l->read_format, s))
		return -EBADMSG;
	if ((t & PERF_SAMPLE_CALLCHAIN) &&
	    (!rd_u64(r, &s->callchain_nr) || !rd_array(r, s->callchain_nr, 8, &s->callchain)))
		return -EBADMSG;
	if (t & PERF_SAMPLE_RAW) {
		/* The u32 size and the data together are padded to 8 bytes. */
		if (!rd_u32(r, &s->raw_size) || !rd_take(r, s->raw_size, &s->raw) ||
		    !rd_take(r, (8 - ((4 + (uint64_t)s->raw_size) & 7)) & 7, NULL))
			return -EBADMSG;
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		if (!rd_u64(r, &s->branch_nr))
			return -EBADMSG;
		if ((l->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) &&
		    !rd_u64(r, &s->branch_hw_idx))
			return -EBADMSG;
		if (!rd_array(r, s->branch_nr, sizeof(struct perfev_branch_entry), &s->branches))
			return -EBADMSG;
		if ((l->branch_sample_type & PERFEV_SAMPLE_BRANCH_COUNTERS) &&
		    !rd_array(r, s->branch_nr, 8, &s->branch_counters))
			return -EBADMSG;
	}
	if ((t & PERF_SAMPLE_REGS_USER) &&
	    !rd_regs(r, l->regs_user_count, &s->regs_user_abi, &s->regs_user))
		return -EBADMSG;
	if (t & PERF_SAMPLE_STACK_USER) {
		/* dyn_size is left out when the dump is empty. */
		if (!rd_u64(r, &s->stack_user_size) ||
		    !rd_array(r, s->stack_user_size, 1, &s->stack_user) ||
		    (s->stack_user_size && !rd_u64(r, &s->stack_user_dyn_size)))
			return -EBADMSG;
	}
	if (t & PERFEV__WEIGHT_BITS) {
		/* One u64 for either bit; the split is the union's, on both endiannesses. */
		if (!rd_u64(r, &s->weight))
			return -EBADMSG;
		s->weight_struct.var1_dw = (uint32_t)s->weight;
		s->weight_struct.var2_w = (uint16_t)(s->weight >> 32);
		s->weight_struct.var3_w = (uint16_t)(s->weight >> 48);
	}
	if (!rd_opt64(r, t, PERF_SAMPLE_DATA_SRC, &s->data_src) ||
	    !rd_opt64(r, t, PERF_SAMPLE_TRANSACTION, &s->transaction))
		return -EBADMSG;
	if ((t & PERF_SAMPLE_REGS_INTR) &&
	    !rd_regs(r, l->regs_intr_count, &s->regs_intr_abi, &s->regs_intr))
		return -EBADMSG;
	if (!rd_opt64(r, t, PERF_SAMPLE_PHYS_ADDR, &s->phys_addr) ||
	    !rd_opt64(r, t, PERF_SAMPLE_CGROUP, &s->cgroup) ||
	    !rd_opt64(r, t, PERFEV_SAMPLE_DATA_PAGE_SIZE, &s->data_page_size) ||
	    !rd_opt64(r, t, PERFEV_SAMPLE_CODE_PAGE_SIZE, &s->code_page_size))
		return -EBADMSG;
	if ((t & PERF_SAMPLE_AUX) &&
	    (!rd_u64(r, &s->aux_size) || !rd_array(r, s->aux_size, 1, &s->aux)))
		return -EBADMSG;
	return 0;
}

/* A sample's identity, in the form of a trailer, so callers find it in one place. */
static void sample_sid(const struct perfev_sample *s, struct perfev_sample_id *sid)
{
	sid->present = s->present & PERFEV__SID_BITS;
	sid->pid = s->pid;
	sid->tid = s->tid;
	sid->time = s->time;
	sid->id = s->id;
	sid->stream_id = s->stream_id;
	sid->cpu = s->cpu;
	sid->res = s->res;
	sid->identifier = s->identifier;
}

int perfev_sample_read_value(const struct perfev_sample_layout *layout,
			     const struct perfev_sample *s, uint64_t i, uint64_t *value,
			     uint64_t *id, uint64_t *lost)
{
	uint64_t rf, per, at;

	if (!layout || !s || !s->read.values || (layout->read_format & ~PERFEV__FORMAT_KNOWN))
		return -EINVAL;
	if (i >= s->read.nr)
		return -ERANGE;
	rf = layout->read_format;
	per = perfev__read_per_value(rf);
	if (rf & PERF_FORMAT_GROUP) {
		at = i * per; /* < nr * per, which the decoder checked */
		if (value)
			*value = perfev_u64_at(s->read.values, at);
		at++;
	} else {
		if (value)
			*value = perfev_u64_at(s->read.values, 0);
		at = 1U + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		     !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	}
	if (id)
		*id = rf & PERF_FORMAT_ID ? perfev_u64_at(s->read.values, at) : 0;
	at += !!(rf & PERF_FORMAT_ID);
	if (lost)
		*lost = rf & PERFEV_FORMAT_LOST ? perfev_u64_at(s->read.values, at) : 0;
	return 0;
}

void perfev_data_src_decode(uint64_t v, struct perfev_data_src *out)
{
	if (!out)
		return;
	/* Shifts and widths of union perf_mem_data_src (the same on both endiannesses). */
	out->mem_op = (unsigned int)(v & 0x1f);
	out->mem_lvl = (unsigned int)(v >> 5 & 0x3fff);
	out->mem_snoop = (unsigned int)(v >> 19 & 0x1f);
	out->mem_lock = (unsigned int)(v >> 24 & 0x3);
	out->mem_dtlb = (unsigned int)(v >> 26 & 0x7f);
	out->mem_lvl_num = (unsigned int)(v >> 33 & 0xf);
	out->mem_remote = (unsigned int)(v >> 37 & 0x1);
	out->mem_snoopx = (unsigned int)(v >> 38 & 0x3);
	out->mem_blk = (unsigned int)(v >> 40 & 0x7);
	out->mem_hops = (unsigned int)(v >> 43 & 0x7);
}

/* ---- other records ------------------------------------------------------------- */

/* The sample_id trailer at the end of a record of @size bytes; sets where the body ends. */
static int decode_trailer(const struct perfev_sample_layout *l, const unsigned char *p, size_t size,
			  struct perfev_sample_id *sid, size_t *body_end)
{
	uint64_t t = l->sample_type;
	size_t tsize = perfev__trailer_size(t);
	struct rd r;

	*body_end = size;
	if (!l->sample_id_all)
		return 0;
	if (tsize > size - sizeof(struct perf_event_header))
		return -EBADMSG;
	r = (struct rd){.p = p, .pos = size - tsize, .end = size};
	*body_end = r.pos;
	sid->present = t & PERFEV__SID_BITS;
	/* Checked as a whole above; each read checks again all the same. */
	if ((t & PERF_SAMPLE_TID) && (!rd_u32(&r, &sid->pid) || !rd_u32(&r, &sid->tid)))
		return -EBADMSG;
	if (!rd_opt64(&r, t, PERF_SAMPLE_TIME, &sid->time) ||
	    !rd_opt64(&r, t, PERF_SAMPLE_ID, &sid->id) ||
	    !rd_opt64(&r, t, PERF_SAMPLE_STREAM_ID, &sid->stream_id))
		return -EBADMSG;
	if ((t & PERF_SAMPLE_CPU) && (!rd_u32(&r, &sid->cpu) || !rd_u32(&r, &sid->res)))
		return -EBADMSG;
	if (!rd_opt64(&r, t, PERF_SAMPLE_IDENTIFIER, &sid->identifier))
		return -EBADMSG;
	return 0;
}

/* pid, tid, addr, len, pgoff: the start of MMAP and MMAP2. */
static bool rd_mmap_head(struct rd *r, uint32_t *pid, uint32_t *tid, uint64_t *addr, uint64_t *len,
			 uint64_t *pgoff)
{
	return rd_u32(r, pid) && rd_u32(r, tid) && rd_u64(r, addr) && rd_u64(r, len) &&
	       rd_u64(r, pgoff);
}

static int decode_mmap2(struct rd *r, unsigned int flags, struct perfev_record *out)
{
	typeof(out->u.mmap2) *m = &out->u.mmap2;
	const void *bid;
	uint8_t res1;
	uint16_t res2;

	if (!rd_mmap_head(r, &m->pid, &m->tid, &m->addr, &m->len, &m->pgoff))
		return -EBADMSG;
	/* The kernel's stale bit (see record-internal.h): device and inode follow. */
	if (flags & PERFEV__DECODE_NO_BUILD_ID)
		out->misc &= (uint16_t)~PERFEV_RECORD_MISC_MMAP_BUILD_ID;
	m->has_build_id = out->misc & PERFEV_RECORD_MISC_MMAP_BUILD_ID;
	if (m->has_build_id) {
		if (!rd_u8(r, &m->build_id_size) || !rd_u8(r, &res1) || !rd_u16(r, &res2) ||
		    !rd_take(r, sizeof(m->build_id), &bid))
			return -EBADMSG;
		if (m->build_id_size > sizeof(m->build_id))
			return -EBADMSG;
		memcpy(m->build_id, bid, sizeof(m->build_id));
	} else {
		if (!rd_u32(r, &m->maj) || !rd_u32(r, &m->min) || !rd_u64(r, &m->ino) ||
		    !rd_u64(r, &m->ino_generation))
			return -EBADMSG;
	}
	if (!rd_u32(r, &m->prot) || !rd_u32(r, &m->flags) || !rd_str(r, &m->filename))
		return -EBADMSG;
	return 0;
}

/* The body of a kernel record other than SAMPLE, between the header and r->end. */
static int decode_body(const struct perfev_sample_layout *l, struct rd *r, unsigned int flags,
		       struct perfev_record *out)
{
	const void *tag;
	bool ok;

	switch (out->type) {
	case PERF_RECORD_MMAP:
		ok = rd_mmap_head(r, &out->u.mmap.pid, &out->u.mmap.tid, &out->u.mmap.addr,
				  &out->u.mmap.len, &out->u.mmap.pgoff) &&
		     rd_str(r, &out->u.mmap.filename);
		break;
	case PERF_RECORD_MMAP2:
		return decode_mmap2(r, flags, out);
	case PERF_RECORD_LOST:
		ok = rd_u64(r, &out->u.lost.id) && rd_u64(r, &out->u.lost.lost);
		break;
	case PERF_RECORD_COMM:
		out->u.comm.exec = out->misc & PERF_RECORD_MISC_COMM_EXEC;
		ok = rd_u32(r, &out->u.comm.pid) && rd_u32(r, &out->u.comm.tid) &&
		     rd_str(r, &out->u.comm.comm);
		break;
	case PERF_RECORD_EXIT:
	case PERF_RECORD_FORK:
		ok = rd_u32(r, &out->u.fork.pid) && rd_u32(r, &out->u.fork.ppid) &&
		     rd_u32(r, &out->u.fork.tid) && rd_u32(r, &out->u.fork.ptid) &&
		     rd_u64(r, &out->u.fork.time);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		ok = rd_u64(r, &out->u.throttle.time) && rd_u64(r, &out->u.throttle.id) &&
		     rd_u64(r, &out->u.throttle.stream_id);
		break;
	case PERF_RECORD_READ:
		ok = rd_u32(r, &out->u.read.pid) && rd_u32(r, &out->u.read.tid) &&
		     rd_read_format(r, l->read_format, &out->u.read.values);
		break;
	case PERF_RECORD_AUX:
		ok = rd_u64(r, &out->u.aux.aux_offset) && rd_u64(r, &out->u.aux.aux_size) &&
		     rd_u64(r, &out->u.aux.flags);
		break;
	case PERF_RECORD_ITRACE_START:
		ok = rd_u32(r, &out->u.itrace_start.pid) && rd_u32(r, &out->u.itrace_start.tid);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		ok = rd_u64(r, &out->u.lost_samples.lost);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		out->u.context_switch.out = out->misc & PERF_RECORD_MISC_SWITCH_OUT;
		out->u.context_switch.preempt = out->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT;
		ok = out->type == PERF_RECORD_SWITCH ||
		     (rd_u32(r, &out->u.context_switch.next_prev_pid) &&
		      rd_u32(r, &out->u.context_switch.next_prev_tid));
		break;
	case PERF_RECORD_NAMESPACES:
		ok = rd_u32(r, &out->u.namespaces.pid) && rd_u32(r, &out->u.namespaces.tid) &&
		     rd_u64(r, &out->u.namespaces.nr) &&
		     rd_array(r, out->u.namespaces.nr, 16, &out->u.namespaces.link_info);
		break;
	case PERF_RECORD_KSYMBOL:
		ok = rd_u64(r, &out->u.ksymbol.addr) && rd_u32(r, &out->u.ksymbol.len) &&
		     rd_u16(r, &out->u.ksymbol.ksym_type) && rd_u16(r, &out->u.ksymbol.flags) &&
		     rd_str(r, &out->u.ksymbol.name);
		break;
	case PERF_RECORD_BPF_EVENT:
		ok = rd_u16(r, &out->u.bpf_event.type) && rd_u16(r, &out->u.bpf_event.flags) &&
		     rd_u32(r, &out->u.bpf_event.id) &&
		     rd_take(r, sizeof(out->u.bpf_event.tag), &tag);
		if (ok)
			memcpy(out->u.bpf_event.tag, tag, sizeof(out->u.bpf_event.tag));
		break;
	case PERF_RECORD_CGROUP:
		ok = rd_u64(r, &out->u.cgroup.id) && rd_str(r, &out->u.cgroup.path);
		break;
	case PERFEV_RECORD_TEXT_POKE:
		ok = rd_u64(r, &out->u.text_poke.addr) && rd_u16(r, &out->u.text_poke.old_len) &&
		     rd_u16(r, &out->u.text_poke.new_len) &&
		     rd_take(r, (size_t)out->u.text_poke.old_len + out->u.text_poke.new_len,
			     &out->u.text_poke.bytes);
		break;
	case PERFEV_RECORD_AUX_OUTPUT_HW_ID:
		ok = rd_u64(r, &out->u.aux_output_hw_id.hw_id);
		break;
	default:
		ok = true;
		break;
	}
	return ok ? 0 : -EBADMSG;
}

/* The rest of the record as bytes (may be none). */
static void rd_rest(struct rd *r, const void **data, uint32_t *size)
{
	*size = (uint32_t)(r->end - r->pos);
	*data = r->p + r->pos;
	r->pos = r->end;
}

/* perf stat record's types; returns 1 for a type that is not one of them. */
static int decode_stat_records(struct rd *r, struct perfev_record *out)
{
	typeof(out->u) *u = &out->u;
	bool ok;

	switch (out->type) {
	case PERFEV_RECORD_STAT:
		ok = rd_u64(r, &u->stat.id) && rd_u32(r, &u->stat.cpu) &&
		     rd_u32(r, &u->stat.thread) && rd_u64(r, &u->stat.val) &&
		     rd_u64(r, &u->stat.ena) && rd_u64(r, &u->stat.run);
		break;
	case PERFEV_RECORD_STAT_ROUND:
		ok = rd_u64(r, &u->stat_round.type) && rd_u64(r, &u->stat_round.time);
		break;
	case PERFEV_RECORD_STAT_CONFIG:
		ok = rd_u64(r, &u->stat_config.nr) &&
		     rd_array(r, u->stat_config.nr, 16, &u->stat_config.data);
		break;
	case PERFEV_RECORD_THREAD_MAP:
		ok = rd_u64(r, &u->thread_map.nr) &&
		     rd_array(r, u->thread_map.nr, 24, &u->thread_map.entries);
		break;
	case PERFEV_RECORD_CPU_MAP:
		ok = rd_u16(r, &u->cpu_map.type);
		if (ok)
			u->cpu_map.data = r->p + r->pos;
		u->cpu_map.data_size = ok ? (uint32_t)(r->end - r->pos) : 0;
		if (ok && u->cpu_map.type == PERFEV_CPU_MAP_CPUS)
			ok = rd_u16(r, &u->cpu_map.nr) &&
			     rd_array(r, u->cpu_map.nr, 2, &u->cpu_map.cpus);
		break;
	case PERFEV_RECORD_EVENT_UPDATE:
		ok = rd_u64(r, &u->event_update.type) && rd_u64(r, &u->event_update.id);
		if (!ok)
			break;
		if (u->event_update.type == PERFEV_EVENT_UPDATE_UNIT ||
		    u->event_update.type == PERFEV_EVENT_UPDATE_NAME) {
			ok = rd_str(r, &u->event_update.str);
		} else if (u->event_update.type == PERFEV_EVENT_UPDATE_SCALE) {
			const void *q;

			ok = rd_take(r, 8, &q);
			if (ok)
				memcpy(&u->event_update.scale, q, 8);
		} else {
			rd_rest(r, &u->event_update.data, &u->event_update.data_size);
		}
		break;
	default:
		return 1;
	}
	return ok ? 0 : -EBADMSG;
}

/* One CPU found in a map: stored while there is room, always counted. */
static void cpu_put(int *cpus, size_t max, size_t *n, int cpu)
{
	if (*n < max)
		cpus[*n] = cpu;
	(*n)++;
}

/*
 * A perf_record_cpu_map_data from its type on (@len bytes): a list of
 * u16 CPUs, a mask of 32- or 64-bit words (perf 6.1's packed layouts), or
 * a range with an "any CPU" flag.
 */
/* A cpu map's bytes after its u16 @type. */
static int cpu_map_read(uint16_t type, const unsigned char *p, size_t len, int *cpus, size_t max)
{
	struct rd r = {.p = p, .end = len};
	uint16_t nr, long_size, lo, hi;
	uint8_t any, pad8;
	uint32_t pad32;
	const void *arr;
	size_t n = 0, i;
	unsigned int b;

	switch (type) {
	case PERFEV_CPU_MAP_CPUS:
		if (!rd_u16(&r, &nr) || !rd_array(&r, nr, 2, &arr))
			return -EBADMSG;
		for (i = 0; i < nr; i++) {
			int16_t c;

			memcpy(&c, (const unsigned char *)arr + 2 * i, 2);
			cpu_put(cpus, max, &n, c);
		}
		break;
	case PERFEV_CPU_MAP_MASK:
		if (!rd_u16(&r, &nr) || !rd_u16(&r, &long_size) ||
		    (long_size != 4 && long_size != 8) || (long_size == 8 && !rd_u32(&r, &pad32)) ||
		    !rd_array(&r, nr, long_size, &arr))
			return -EBADMSG;
		for (i = 0; i < nr; i++) {
			uint64_t w = 0;

			memcpy(&w, (const unsigned char *)arr + i * long_size, long_size);
			for (b = 0; b < 8u * long_size; b++)
				if (w >> b & 1)
					cpu_put(cpus, max, &n, (int)(i * 8u * long_size + b));
		}
		break;
	case PERFEV_CPU_MAP_RANGE:
		if (!rd_u8(&r, &any) || !rd_u8(&r, &pad8) || !rd_u16(&r, &lo) || !rd_u16(&r, &hi) ||
		    lo > hi)
			return -EBADMSG;
		if (any)
			cpu_put(cpus, max, &n, -1);
		for (i = lo; i <= hi; i++)
			cpu_put(cpus, max, &n, (int)i);
		break;
	default:
		return -EBADMSG;
	}
	return n > INT_MAX ? -EOVERFLOW : (int)n;
}

int perfev_cpu_map_cpus(const struct perfev_record *rec, int *cpus, size_t max)
{
	const unsigned char *p;
	size_t len;
	uint16_t type;

	if (!rec || (!cpus && max))
		return -EINVAL;
	if (rec->type == PERFEV_RECORD_CPU_MAP && rec->u.cpu_map.data)
		return cpu_map_read(rec->u.cpu_map.type, rec->u.cpu_map.data,
				    rec->u.cpu_map.data_size, cpus, max);
	if (rec->type != PERFEV_RECORD_EVENT_UPDATE ||
	    rec->u.event_update.type != PERFEV_EVENT_UPDATE_CPUS || !rec->u.event_update.data)
		return -EINVAL;
	/* An EVENT_UPDATE's map starts with its type. */
	p = rec->u.event_update.data;
	len = rec->u.event_update.data_size;
	if (len < 2)
		return -EBADMSG;
	memcpy(&type, p, 2);
	return cpu_map_read(type, p + 2, len - 2, cpus, max);
}

int perfev__record_decode_flags(const struct perfev_sample_layout *layout, const void *buf,
				size_t len, unsigned int flags, struct perfev_record *out)
{
	struct perf_event_header h;
	struct rd r;
	size_t body_end;
	int ret;

	if (!out || !perfev__layout_ok(layout) || (!buf && len))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (len < sizeof(h))
		return -EBADMSG;
	memcpy(&h, buf, sizeof(h));
	if (h.size < sizeof(h) || h.size > len)
		return -EBADMSG;
	out->type = h.type;
	out->misc = h.misc;
	out->size = h.size;
	out->bytes = buf;
	r = (struct rd){.p = buf, .pos = sizeof(h), .end = h.size};

	if (h.type == PERF_RECORD_SAMPLE) {
		ret = decode_sample(layout, &r, &out->u.sample);
		if (!ret)
			sample_sid(&out->u.sample, &out->sid);
		return ret;
	}
	if (!perfev__record_has_trailer(h.type)) {
		ret = decode_stat_records(&r, out);
		/* perf's other types and newer kernels': the caller skips them. */
		return ret > 0 ? 0 : ret;
	}
	ret = decode_trailer(layout, buf, h.size, &out->sid, &body_end);
	if (ret)
		return ret;
	r.end = body_end;
	return decode_body(layout, &r, flags, out);
}

int perfev_record_decode(const struct perfev_sample_layout *layout, const void *buf, size_t len,
			 struct perfev_record *out)
{
	return perfev__record_decode_flags(layout, buf, len, 0, out);
}

int perfev_record_id(const struct perfev_sample_layout *layout, const void *buf, size_t len,
		     uint64_t *id)
{
	struct perf_event_header h;
	size_t words;

	if (!layout || !id || (!buf && len))
		return -EINVAL;
	if (len < sizeof(h))
		return -EBADMSG;
	memcpy(&h, buf, sizeof(h));
	if (h.size < sizeof(h) || h.size > len)
		return -EBADMSG;
	words = (h.size - sizeof(h)) / 8;
	if (h.type == PERF_RECORD_SAMPLE) {
		if (layout->id_pos < 0)
			return -ENOENT;
		if ((size_t)layout->id_pos >= words)
			return -EBADMSG;
		*id = perfev_u64_at((const unsigned char *)buf + sizeof(h), (size_t)layout->id_pos);
		return 0;
	}
	if (!perfev__record_has_trailer(h.type) || !layout->sample_id_all ||
	    layout->id_pos_from_end < 1)
		return -ENOENT;
	/* Counted in u64s back from the record's end, where decoding reads the trailer. */
	if ((size_t)layout->id_pos_from_end * 8 > h.size - sizeof(h))
		return -EBADMSG;
	memcpy(id, (const unsigned char *)buf + h.size - (size_t)layout->id_pos_from_end * 8, 8);
	return 0;
}

static const char *const type_names[] = {
    [PERF_RECORD_MMAP] = "MMAP",
    [PERF_RECORD_LOST] = "LOST",
    [PERF_RECORD_COMM] = "COMM",
    [PERF_RECORD_EXIT] = "EXIT",
    [PERF_RECORD_THROTTLE] = "THROTTLE",
    [PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
    [PERF_RECORD_FORK] = "FORK",
    [PERF_RECORD_READ] = "READ",
    [PERF_RECORD_SAMPLE] = "SAMPLE",
    [PERF_RECORD_MMAP2] = "MMAP2",
    [PERF_RECORD_AUX] = "AUX",
    [PERF_RECORD_ITRACE_START] = "ITRACE_START",
    [PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
    [PERF_RECORD_SWITCH] = "SWITCH",
    [PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
    [PERF_RECORD_NAMESPACES] = "NAMESPACES",
    [PERF_RECORD_KSYMBOL] = "KSYMBOL",
    [PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
    [PERF_RECORD_CGROUP] = "CGROUP",
    [PERFEV_RECORD_TEXT_POKE] = "TEXT_POKE",
    [PERFEV_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
    /* perf's names (tools/perf/util/event.c), not the PERF_RECORD_HEADER_ macro names. */
    [PERFEV_RECORD_HEADER_ATTR] = "ATTR",
    [PERFEV_RECORD_HEADER_EVENT_TYPE] = "EVENT_TYPE",
    [PERFEV_RECORD_HEADER_TRACING_DATA] = "TRACING_DATA",
    [PERFEV_RECORD_HEADER_BUILD_ID] = "BUILD_ID",
    [PERFEV_RECORD_FINISHED_ROUND] = "FINISHED_ROUND",
    [PERFEV_RECORD_ID_INDEX] = "ID_INDEX",
    [PERFEV_RECORD_AUXTRACE_INFO] = "AUXTRACE_INFO",
    [PERFEV_RECORD_AUXTRACE] = "AUXTRACE",
    [PERFEV_RECORD_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
    [PERFEV_RECORD_THREAD_MAP] = "THREAD_MAP",
    [PERFEV_RECORD_CPU_MAP] = "CPU_MAP",
    [PERFEV_RECORD_STAT_CONFIG] = "STAT_CONFIG",
    [PERFEV_RECORD_STAT] = "STAT",
    [PERFEV_RECORD_STAT_ROUND] = "STAT_ROUND",
    [PERFEV_RECORD_EVENT_UPDATE] = "EVENT_UPDATE",
    [PERFEV_RECORD_TIME_CONV] = "TIME_CONV",
    [PERFEV_RECORD_HEADER_FEATURE] = "FEATURE",
    [PERFEV_RECORD_COMPRESSED] = "COMPRESSED",
    [PERFEV_RECORD_FINISHED_INIT] = "FINISHED_INIT",
};

const char *perfev_record_type_name(uint32_t type)
{
	return type < PERFEV__ARRAY_SIZE(type_names) ? type_names[type] : NULL;
}
