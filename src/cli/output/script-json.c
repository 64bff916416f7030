// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev script -j: every record as one JSON object on one line, with
 * every field the decoder yields (numbers as numbers), plus what perfev
 * resolved from the other records and the binaries: the event name, the
 * comm, the dso and the symbol.  Written by json.c in its lines style.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "perfev-cli.h"
#include "output/data-src.h"
#include "output/json.h"
#include "script.h"

/* ---- records ------------------------------------------------------------ */

static void hex_string(struct json *w, const char *key, const void *buf, size_t len)
{
	json_key(w, key);
	json_hex(w, buf, len);
}

static void u64_array(struct json *w, const char *key, const void *base, uint64_t n)
{
	uint64_t i;

	json_key(w, key);
	json_arr_begin(w);
	for (i = 0; i < n; i++)
		json_u64(w, perfev_u64_at(base, i));
	json_arr_end(w);
}

static const char *cpumode_name(unsigned int cpumode)
{
	static const char *const names[] = {"unknown",	    "kernel",	  "user",     "hypervisor",
					    "guest_kernel", "guest_user", "unknown6", "unknown7"};

	return names[cpumode & 7];
}

static void sample_id(struct json *w, const struct perfev_sample_id *sid)
{
	if (!sid->present)
		return;
	json_key(w, "sid");
	json_obj_begin(w);
	if (sid->present & PERF_SAMPLE_TID) {
		json_ki64(w, "pid", (int32_t)sid->pid);
		json_ki64(w, "tid", (int32_t)sid->tid);
	}
	if (sid->present & PERF_SAMPLE_TIME)
		json_ku64(w, "time", sid->time);
	if (sid->present & PERF_SAMPLE_ID)
		json_ku64(w, "id", sid->id);
	if (sid->present & PERF_SAMPLE_STREAM_ID)
		json_ku64(w, "stream_id", sid->stream_id);
	if (sid->present & PERF_SAMPLE_CPU)
		json_ku64(w, "cpu", sid->cpu);
	if (sid->present & PERF_SAMPLE_IDENTIFIER)
		json_ku64(w, "identifier", sid->identifier);
	json_obj_end(w);
}

static void read_values(struct json *w, const struct perfev_sample_layout *layout,
			const struct perfev_sample *smp)
{
	uint64_t i, value, id, lost;

	json_key(w, "read");
	json_obj_begin(w);
	if (layout->read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		json_ku64(w, "time_enabled", smp->read.time_enabled);
	if (layout->read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		json_ku64(w, "time_running", smp->read.time_running);
	json_key(w, "values");
	json_arr_begin(w);
	for (i = 0; i < smp->read.nr; i++) {
		if (perfev_sample_read_value(layout, smp, i, &value, &id, &lost))
			break;
		json_obj_begin(w);
		json_ku64(w, "value", value);
		if (layout->read_format & PERF_FORMAT_ID)
			json_ku64(w, "id", id);
		if (layout->read_format & PERFEV_FORMAT_LOST)
			json_ku64(w, "lost", lost);
		json_obj_end(w);
	}
	json_arr_end(w);
	json_obj_end(w);
}

/* A branch address's object and function: "from_dso", "from_sym", "from_symoff". */
static void branch_end(struct script *s, struct json *w, const char *side, uint32_t pid,
		       uint64_t addr)
{
	const struct perfev_frame *f;
	char key[16];
	size_t n;

	/* perf looks a branch address up by the address, whatever the sample's mode. */
	if (perfev_machine_resolve(s->m, pid, PERF_RECORD_MISC_CPUMODE_UNKNOWN, addr, 0, &f, &n) ||
	    !n)
		cli_die("out of memory");
	f = &f[n - 1];
	snprintf(key, sizeof(key), "%s_dso", side);
	json_kstr(w, key, f->dso);
	snprintf(key, sizeof(key), "%s_sym", side);
	json_kstr(w, key, f->sym);
	if (f->sym) {
		snprintf(key, sizeof(key), "%s_symoff", side);
		json_ku64(w, key, f->sym_off);
	}
}

static void branches(struct script *s, struct json *w, const struct perfev_sample_layout *layout,
		     const struct perfev_sample *smp)
{
	const unsigned char *p = smp->branches;
	uint64_t i;

	if (layout->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
		json_ku64(w, "branch_hw_idx", smp->branch_hw_idx);
	json_key(w, "branches");
	json_arr_begin(w);
	for (i = 0; i < smp->branch_nr; i++) {
		struct perfev_branch_entry e;

		memcpy(&e, p + i * sizeof(e), sizeof(e));
		json_obj_begin(w);
		json_ku64(w, "from", e.from);
		json_ku64(w, "to", e.to);
		json_ku64(w, "flags", e.flags);
		/* struct perf_branch_entry's bit-fields, in the kernel's order. */
		json_kbool(w, "mispred", e.flags & 1);
		json_kbool(w, "predicted", e.flags >> 1 & 1);
		json_kbool(w, "in_tx", e.flags >> 2 & 1);
		json_kbool(w, "abort", e.flags >> 3 & 1);
		json_ku64(w, "cycles", e.flags >> 4 & 0xffff);
		json_ku64(w, "type", e.flags >> 20 & 0xf);
		json_ku64(w, "spec", e.flags >> 24 & 0x3);
		json_ku64(w, "new_type", e.flags >> 26 & 0xf);
		json_kstr(w, "type_name",
			  perfev_branch_entry_type_name(e.flags >> 20 & 0xf, e.flags >> 26 & 0xf));
		/* brstacksym's names. */
		branch_end(s, w, "from", smp->pid, e.from);
		branch_end(s, w, "to", smp->pid, e.to);
		json_obj_end(w);
	}
	json_arr_end(w);
}

static void regs(struct script *s, struct json *w, const char *key, uint64_t abi, const void *v,
		 uint32_t count, uint64_t mask)
{
	const unsigned char *p = v;
	unsigned int bit;

	json_key(w, key);
	json_obj_begin(w);
	json_ku64(w, "abi", abi);
	if (abi) {
		u64_array(w, "values", v, count);
		/* The same by name, as perf script's iregs and uregs show them. */
		json_key(w, "named");
		json_obj_begin(w);
		for (bit = 0; bit < 64 && count; bit++) {
			const char *name;
			char unknown[16];
			uint64_t val;

			if (!(mask & (1ULL << bit)))
				continue;
			memcpy(&val, p, sizeof(val));
			p += sizeof(val);
			count--;
			name = perfev_reg_name(s->arch[0] ? s->arch : NULL, bit);
			if (!name) {
				snprintf(unknown, sizeof(unknown), "bit%u", bit);
				name = unknown;
			}
			json_ku64(w, name, val);
		}
		json_obj_end(w);
	}
	json_obj_end(w);
}

static void data_src(struct json *w, uint64_t v)
{
	struct perfev_data_src d;

	char text[512];

	perfev_data_src_decode(v, &d);
	json_ku64(w, "data_src", v);
	data_src_text(v, text, sizeof(text));
	json_kstr(w, "data_src_text", text);
	json_key(w, "data_src_fields");
	json_obj_begin(w);
	json_ku64(w, "mem_op", d.mem_op);
	json_ku64(w, "mem_lvl", d.mem_lvl);
	json_ku64(w, "mem_snoop", d.mem_snoop);
	json_ku64(w, "mem_lock", d.mem_lock);
	json_ku64(w, "mem_dtlb", d.mem_dtlb);
	json_ku64(w, "mem_lvl_num", d.mem_lvl_num);
	json_ku64(w, "mem_remote", d.mem_remote);
	json_ku64(w, "mem_snoopx", d.mem_snoopx);
	json_ku64(w, "mem_blk", d.mem_blk);
	json_ku64(w, "mem_hops", d.mem_hops);
	json_obj_end(w);
}

/* A string of at most @len bytes that need not end with a NUL (a char array's padding). */
static void counted_string(struct json *w, const char *key, const char *str, size_t len)
{
	json_key(w, key);
	json_strn(w, str, strnlen(str, len));
}

/* "dso", "sym" (null when unresolved) and "symoff" (with a sym) of @addr seen in @cpumode. */
static void addr_syms(struct script *s, struct json *w, uint32_t pid, unsigned int cpumode,
		      uint64_t addr)
{
	const struct perfev_frame *f;
	size_t n;

	if (perfev_machine_resolve(s->m, pid, cpumode, addr, 0, &f, &n) || !n)
		cli_die("out of memory");
	json_kstr(w, "dso", f->dso);
	if (!f->sym) {
		json_kstr(w, "sym", NULL);
		return;
	}
	json_kstr(w, "sym", f->sym);
	json_ku64(w, "symoff", f->sym_off);
}

/* The cpumode of the frames after a context marker; guest frames find no map. */
static unsigned int marker_cpumode(uint64_t marker)
{
	switch (marker) {
	case PERF_CONTEXT_HV:
		return PERF_RECORD_MISC_HYPERVISOR;
	case PERF_CONTEXT_KERNEL:
		return PERF_RECORD_MISC_KERNEL;
	case PERF_CONTEXT_USER:
		return PERF_RECORD_MISC_USER;
	case PERF_CONTEXT_GUEST_USER:
		return PERF_RECORD_MISC_GUEST_USER;
	default:
		return PERF_RECORD_MISC_GUEST_KERNEL;
	}
}

/* One frame: its "ip", "cpumode", dso and symbol, and whether it was unwound. */
static void frame(struct json *w, const struct perfev_frame *f)
{
	json_obj_begin(w);
	json_ku64(w, "ip", f->ip);
	json_kstr(w, "cpumode", cpumode_name(f->cpumode));
	json_kstr(w, "dso", f->dso);
	json_kstr(w, "sym", f->sym);
	if (f->sym)
		json_ku64(w, "symoff", f->sym_off);
	if (f->flags & PERFEV_FRAME_UNWOUND)
		json_kbool(w, "unwound", true);
	json_obj_end(w);
}

/*
 * The callchain's frames, context markers left out: each with its "ip",
 * the "cpumode" the markers before it set, and its dso and symbol.  A
 * sample with a copy of its user stack (--call-graph dwarf): its chain's
 * kernel part, then the user frames unwound from the copy ("unwound").
 */
static void frames(struct script *s, struct json *w, const struct perfev_source_event *sr,
		   const struct perfev_sample *smp)
{
	unsigned int cpumode = PERF_RECORD_MISC_USER;
	const struct perfev_frame *f;
	uint64_t i;
	size_t n;
	int err;

	json_key(w, "frames");
	json_arr_begin(w);
	if ((smp->present & PERF_SAMPLE_STACK_USER) && (smp->present & PERF_SAMPLE_REGS_USER)) {
		err = perfev_source_frames(s->src, sr, PERFEV_FRAMES_CHAIN, &f, &n);
		if (err == -ENOMEM)
			cli_die("out of memory");
		for (i = 0; !err && i < n; i++)
			frame(w, &f[i]);
		json_arr_end(w);
		return;
	}
	for (i = 0; i < smp->callchain_nr; i++) {
		uint64_t ip = perfev_u64_at(smp->callchain, i);

		if (ip >= PERF_CONTEXT_MAX) {
			cpumode = marker_cpumode(ip);
			continue;
		}
		json_obj_begin(w);
		json_ku64(w, "ip", ip);
		json_kstr(w, "cpumode", cpumode_name(cpumode));
		addr_syms(s, w, smp->pid, cpumode, ip);
		json_obj_end(w);
	}
	json_arr_end(w);
}

/*
 * A tracepoint's payload decoded with its format: "trace", the text perf
 * script prints, and "fields", each field of the event (not the common_
 * ones) by name: numbers as numbers, char arrays as strings, other arrays
 * as arrays of numbers.  Nothing when there is no format; a field outside
 * the record is null.
 */
static void trace_fields(struct script *s, struct json *w, size_t idx,
			 const struct perfev_sample *smp)
{
	const struct perfev_tp_format *fmt = script_tp_format(s, idx);
	const char *text;
	size_t i, k, n;

	if (!fmt)
		return;
	text = script_trace_text(s, idx, smp);
	if (text)
		json_kstr(w, "trace", text);
	json_key(w, "fields");
	json_obj_begin(w);
	n = perfev_tp_format_field_count(fmt);
	for (i = 0; i < n; i++) {
		const struct perfev_tp_field *f = perfev_tp_format_field(fmt, i);
		struct perfev_tp_value v;
		uint64_t e;

		if (f->is_common)
			continue;
		if (perfev_tp_format_value(fmt, i, smp->raw, smp->raw_size, &v)) {
			json_kstr(w, f->name, NULL);
			continue;
		}
		switch (v.type) {
		case PERFEV_TP_VALUE_INT:
			json_ki64(w, f->name, v.i);
			break;
		case PERFEV_TP_VALUE_UINT:
			json_ku64(w, f->name, v.u);
			break;
		case PERFEV_TP_VALUE_STRING:
			counted_string(w, f->name, v.str, v.len);
			break;
		case PERFEV_TP_VALUE_ARRAY:
			json_key(w, f->name);
			json_arr_begin(w);
			for (k = 0; k < v.len && !perfev_tp_value_elem(&v, k, &e); k++) {
				if (v.elem_signed)
					json_i64(w, (int64_t)e);
				else
					json_u64(w, e);
			}
			json_arr_end(w);
			break;
		}
	}
	json_obj_end(w);
}

/*
 * What -F srcline and -F insn add, asked for with -j: the sample
 * address's source line and instruction bytes (looked up only then).
 */
static void ip_extras(struct script *s, struct json *w, const struct perfev_source_event *sr,
		      const struct perfev_sample *smp)
{
	unsigned int asked = s->user_fields[script_out_type(sr->attr->attr->type)];
	const struct perfev_frame *f;
	unsigned char insn[16];
	size_t n;
	int len;

	if (asked & SF_SRCLINE) {
		if (perfev_machine_resolve(s->m, smp->pid, sr->cpumode, smp->ip,
					   PERFEV_FRAMES_SRCLINE, &f, &n) ||
		    !n)
			cli_die("out of memory");
		json_kstr(w, "srcline_file", f[n - 1].file);
		if (f[n - 1].file)
			json_ku64(w, "srcline_line", f[n - 1].line);
	}
	if (asked & SF_INSN) {
		len = script_insn(s, smp->pid, smp->ip, insn);
		if (len)
			hex_string(w, "insn", insn, (size_t)len);
		else
			json_kstr(w, "insn", NULL);
	}
}

static void sample(struct script *s, struct json *w, const struct perfev_source_event *sr,
		   const struct perfev_record *rec)
{
	const struct perfev_sample_layout *layout = &sr->attr->layout;
	const struct perfev_sample *smp = &rec->u.sample;
	uint64_t t = smp->present;

	json_kstr(w, "event", script_event_name(s, sr->attr_idx));
	if (t & PERF_SAMPLE_IDENTIFIER)
		json_ku64(w, "identifier", smp->identifier);
	if (t & PERF_SAMPLE_IP) {
		json_ku64(w, "ip", smp->ip);
		addr_syms(s, w, smp->pid, rec->misc & PERF_RECORD_MISC_CPUMODE_MASK, smp->ip);
	}
	if (t & PERF_SAMPLE_TID) {
		json_ki64(w, "pid", (int32_t)smp->pid);
		json_ki64(w, "tid", (int32_t)smp->tid);
		json_kstr(w, "comm", sr->comm);
	}
	if (t & PERF_SAMPLE_TIME)
		json_ku64(w, "time", smp->time);
	if (t & PERF_SAMPLE_ADDR)
		json_ku64(w, "addr", smp->addr);
	if (t & PERF_SAMPLE_ID)
		json_ku64(w, "id", smp->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		json_ku64(w, "stream_id", smp->stream_id);
	if (t & PERF_SAMPLE_CPU)
		json_ku64(w, "cpu", smp->cpu);
	if (t & PERF_SAMPLE_PERIOD)
		json_ku64(w, "period", smp->period);
	if (t & PERF_SAMPLE_READ)
		read_values(w, layout, smp);
	if (t & PERF_SAMPLE_CALLCHAIN) {
		u64_array(w, "callchain", smp->callchain, smp->callchain_nr);
		frames(s, w, sr, smp);
	}
	if (t & PERF_SAMPLE_RAW) {
		json_ku64(w, "raw_size", smp->raw_size);
		hex_string(w, "raw", smp->raw, smp->raw_size);
		trace_fields(s, w, sr->attr_idx, smp);
	}
	if (t & PERF_SAMPLE_BRANCH_STACK)
		branches(s, w, layout, smp);
	if (t & PERF_SAMPLE_REGS_USER)
		regs(s, w, "regs_user", smp->regs_user_abi, smp->regs_user, layout->regs_user_count,
		     sr->attr->attr->sample_regs_user);
	if (t & PERF_SAMPLE_STACK_USER) {
		json_ku64(w, "stack_user_size", smp->stack_user_size);
		json_ku64(w, "stack_user_dyn_size", smp->stack_user_dyn_size);
	}
	if (t & PERF_SAMPLE_WEIGHT)
		json_ku64(w, "weight", smp->weight);
	if (t & PERFEV_SAMPLE_WEIGHT_STRUCT) {
		json_ku64(w, "weight", smp->weight_struct.var1_dw);
		json_ku64(w, "ins_lat", smp->weight_struct.var2_w);
		json_ku64(w, "retire_lat", smp->weight_struct.var3_w);
	}
	if (t & PERF_SAMPLE_DATA_SRC)
		data_src(w, smp->data_src);
	if (t & PERF_SAMPLE_TRANSACTION)
		json_ku64(w, "transaction", smp->transaction);
	if (t & PERF_SAMPLE_REGS_INTR)
		regs(s, w, "regs_intr", smp->regs_intr_abi, smp->regs_intr, layout->regs_intr_count,
		     sr->attr->attr->sample_regs_intr);
	if (t & PERF_SAMPLE_PHYS_ADDR)
		json_ku64(w, "phys_addr", smp->phys_addr);
	if (t & PERF_SAMPLE_CGROUP) {
		json_ku64(w, "cgroup", smp->cgroup);
		json_kstr(w, "cgroup_path", perfev_machine_cgroup(s->m, smp->cgroup));
	}
	if (t & PERF_SAMPLE_IP)
		ip_extras(s, w, sr, smp);
	if (t & PERFEV_SAMPLE_DATA_PAGE_SIZE)
		json_ku64(w, "data_page_size", smp->data_page_size);
	if (t & PERFEV_SAMPLE_CODE_PAGE_SIZE)
		json_ku64(w, "code_page_size", smp->code_page_size);
	if (t & PERF_SAMPLE_AUX)
		json_ku64(w, "aux_size", smp->aux_size);
}

static void mmap_fields(struct json *w, uint32_t pid, uint32_t tid, uint64_t addr, uint64_t len,
			uint64_t pgoff)
{
	json_ki64(w, "pid", (int32_t)pid);
	json_ki64(w, "tid", (int32_t)tid);
	json_ku64(w, "addr", addr);
	json_ku64(w, "len", len);
	json_ku64(w, "pgoff", pgoff);
}

/* perf stat record's records: their fields by the names of perf's structures. */
static void stat_record(struct json *w, const struct perfev_record *rec)
{
	const typeof(rec->u) *u = &rec->u;
	uint64_t i;

	switch (rec->type) {
	case PERFEV_RECORD_STAT:
		json_ku64(w, "id", u->stat.id);
		json_ki64(w, "cpu", (int32_t)u->stat.cpu);
		json_ku64(w, "thread", u->stat.thread);
		json_ku64(w, "val", u->stat.val);
		json_ku64(w, "ena", u->stat.ena);
		json_ku64(w, "run", u->stat.run);
		break;
	case PERFEV_RECORD_STAT_ROUND:
		json_kstr(w, "round",
			  u->stat_round.type == PERFEV_STAT_ROUND_FINAL ? "FINAL" : "INTERVAL");
		json_ku64(w, "time", u->stat_round.time);
		break;
	case PERFEV_RECORD_STAT_CONFIG:
		json_key(w, "config");
		json_obj_begin(w);
		for (i = 0; i < u->stat_config.nr; i++) {
			static const char *const tags[] = {"aggr_mode", "interval", "scale",
							   "aggr_level"};
			uint64_t tag = perfev_u64_at(u->stat_config.data, 2 * i);
			char other_tag[32];

			snprintf(other_tag, sizeof(other_tag), "tag_%" PRIu64, tag);
			json_ku64(w, tag < 4 ? tags[tag] : other_tag,
				  perfev_u64_at(u->stat_config.data, 2 * i + 1));
		}
		json_obj_end(w);
		break;
	case PERFEV_RECORD_THREAD_MAP:
		json_key(w, "threads");
		json_arr_begin(w);
		for (i = 0; i < u->thread_map.nr; i++) {
			const char *comm = (const char *)u->thread_map.entries + 24 * i + 8;

			json_obj_begin(w);
			json_ki64(w, "pid", (int64_t)perfev_u64_at(u->thread_map.entries, 3 * i));
			json_key(w, "comm");
			json_strn(w, comm, strnlen(comm, 16));
			json_obj_end(w);
		}
		json_arr_end(w);
		break;
	case PERFEV_RECORD_CPU_MAP:
	case PERFEV_RECORD_EVENT_UPDATE: {
		int n = perfev_cpu_map_cpus(rec, NULL, 0), *cpus = NULL, k;

		if (rec->type == PERFEV_RECORD_EVENT_UPDATE) {
			json_ku64(w, "id", u->event_update.id);
			if (u->event_update.type == PERFEV_EVENT_UPDATE_UNIT)
				json_kstr(w, "unit", u->event_update.str);
			else if (u->event_update.type == PERFEV_EVENT_UPDATE_NAME)
				json_kstr(w, "name", u->event_update.str);
			else if (u->event_update.type == PERFEV_EVENT_UPDATE_SCALE) {
				json_key(w, "scale");
				json_double(w, u->event_update.scale);
			}
			if (u->event_update.type != PERFEV_EVENT_UPDATE_CPUS)
				break;
		}
		if (n >= 0)
			cpus = calloc((size_t)n + 1, sizeof(*cpus));
		if (cpus)
			perfev_cpu_map_cpus(rec, cpus, (size_t)n);
		json_key(w, "cpus");
		json_arr_begin(w);
		for (k = 0; cpus && k < n; k++)
			json_i64(w, cpus[k]);
		json_arr_end(w);
		free(cpus);
		break;
	}
	default:
		break;
	}
}

static void other(struct json *w, const struct perfev_source_event *sr,
		  const struct perfev_record *rec)
{
	const typeof(rec->u) *u = &rec->u;

	switch (rec->type) {
	case PERF_RECORD_MMAP:
		mmap_fields(w, u->mmap.pid, u->mmap.tid, u->mmap.addr, u->mmap.len, u->mmap.pgoff);
		json_kstr(w, "filename", u->mmap.filename);
		break;
	case PERF_RECORD_MMAP2:
		mmap_fields(w, u->mmap2.pid, u->mmap2.tid, u->mmap2.addr, u->mmap2.len,
			    u->mmap2.pgoff);
		if (u->mmap2.has_build_id) {
			hex_string(w, "build_id", u->mmap2.build_id,
				   u->mmap2.build_id_size <= sizeof(u->mmap2.build_id)
				       ? u->mmap2.build_id_size
				       : sizeof(u->mmap2.build_id));
		} else {
			json_ku64(w, "maj", u->mmap2.maj);
			json_ku64(w, "min", u->mmap2.min);
			json_ku64(w, "ino", u->mmap2.ino);
			json_ku64(w, "ino_generation", u->mmap2.ino_generation);
		}
		json_ku64(w, "prot", u->mmap2.prot);
		json_ku64(w, "flags", u->mmap2.flags);
		json_kstr(w, "filename", u->mmap2.filename);
		break;
	case PERF_RECORD_LOST:
		json_ku64(w, "id", u->lost.id);
		json_ku64(w, "lost", u->lost.lost);
		break;
	case PERF_RECORD_COMM:
		json_ki64(w, "pid", (int32_t)u->comm.pid);
		json_ki64(w, "tid", (int32_t)u->comm.tid);
		json_kbool(w, "exec", u->comm.exec);
		json_kstr(w, "comm", u->comm.comm);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		json_ki64(w, "pid", (int32_t)u->fork.pid);
		json_ki64(w, "ppid", (int32_t)u->fork.ppid);
		json_ki64(w, "tid", (int32_t)u->fork.tid);
		json_ki64(w, "ptid", (int32_t)u->fork.ptid);
		json_ku64(w, "time", u->fork.time);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		json_ku64(w, "time", u->throttle.time);
		json_ku64(w, "id", u->throttle.id);
		json_ku64(w, "stream_id", u->throttle.stream_id);
		break;
	case PERF_RECORD_READ: {
		static const struct perfev_sample_layout none;

		json_ki64(w, "pid", (int32_t)u->read.pid);
		json_ki64(w, "tid", (int32_t)u->read.tid);
		/* The values follow the read_format of the record's event. */
		read_values(w, sr->attr ? &sr->attr->layout : &none, &u->read.values);
		break;
	}
	case PERF_RECORD_AUX:
		json_ku64(w, "aux_offset", u->aux.aux_offset);
		json_ku64(w, "aux_size", u->aux.aux_size);
		json_ku64(w, "flags", u->aux.flags);
		break;
	case PERF_RECORD_ITRACE_START:
		json_ki64(w, "pid", (int32_t)u->itrace_start.pid);
		json_ki64(w, "tid", (int32_t)u->itrace_start.tid);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		json_ku64(w, "lost", u->lost_samples.lost);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		json_kbool(w, "out", u->context_switch.out);
		json_kbool(w, "preempt", u->context_switch.preempt);
		if (rec->type == PERF_RECORD_SWITCH_CPU_WIDE) {
			json_ki64(w, "next_prev_pid", (int32_t)u->context_switch.next_prev_pid);
			json_ki64(w, "next_prev_tid", (int32_t)u->context_switch.next_prev_tid);
		}
		break;
	case PERF_RECORD_NAMESPACES: {
		uint64_t i;

		json_ki64(w, "pid", (int32_t)u->namespaces.pid);
		json_ki64(w, "tid", (int32_t)u->namespaces.tid);
		json_key(w, "link_info");
		json_arr_begin(w);
		for (i = 0; i < u->namespaces.nr; i++) {
			json_obj_begin(w);
			json_ku64(w, "dev", perfev_u64_at(u->namespaces.link_info, 2 * i));
			json_ku64(w, "ino", perfev_u64_at(u->namespaces.link_info, 2 * i + 1));
			json_obj_end(w);
		}
		json_arr_end(w);
		break;
	}
	case PERF_RECORD_KSYMBOL:
		json_ku64(w, "addr", u->ksymbol.addr);
		json_ku64(w, "len", u->ksymbol.len);
		json_ku64(w, "ksym_type", u->ksymbol.ksym_type);
		json_ku64(w, "flags", u->ksymbol.flags);
		json_kstr(w, "name", u->ksymbol.name);
		break;
	case PERF_RECORD_BPF_EVENT:
		json_ku64(w, "bpf_type", u->bpf_event.type);
		json_ku64(w, "flags", u->bpf_event.flags);
		json_ku64(w, "id", u->bpf_event.id);
		hex_string(w, "tag", u->bpf_event.tag, sizeof(u->bpf_event.tag));
		break;
	case PERF_RECORD_CGROUP:
		json_ku64(w, "id", u->cgroup.id);
		json_kstr(w, "path", u->cgroup.path);
		break;
	case PERFEV_RECORD_TEXT_POKE:
		json_ku64(w, "addr", u->text_poke.addr);
		hex_string(w, "old_bytes", u->text_poke.bytes, u->text_poke.old_len);
		hex_string(w, "new_bytes",
			   (const unsigned char *)u->text_poke.bytes + u->text_poke.old_len,
			   u->text_poke.new_len);
		break;
	case PERFEV_RECORD_AUX_OUTPUT_HW_ID:
		json_ku64(w, "hw_id", u->aux_output_hw_id.hw_id);
		break;
	default:
		break;
	}
}

void script_json_record(struct script *s, const struct perfev_source_event *sr,
			const struct perfev_record *rec)
{
	struct json w;
	const char *name = perfev_record_type_name(rec->type);

	json_init_flags(&w, stdout, JSON_LINES);
	json_obj_begin(&w);
	json_ku64(&w, "offset", sr->offset);
	if (name)
		json_kstr(&w, "type", name);
	else
		json_ku64(&w, "type", rec->type);
	json_ku64(&w, "type_id", rec->type);
	json_ku64(&w, "misc", rec->misc);
	json_kstr(&w, "cpumode", cpumode_name(rec->misc & PERF_RECORD_MISC_CPUMODE_MASK));
	json_ku64(&w, "size", rec->size);
	if (rec->type == PERF_RECORD_SAMPLE) {
		sample(s, &w, sr, rec);
	} else if (rec->type < PERFEV_RECORD_HEADER_ATTR) {
		other(&w, sr, rec);
		sample_id(&w, &rec->sid);
	} else {
		stat_record(&w, rec);
	}
	json_obj_end(&w);
}
