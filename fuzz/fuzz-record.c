// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer harness: record decoding under a fuzzed layout, then encode and decode again. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/record.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Input: 8 bytes of layout, then one record.
 *   [0..3] sample_type, the low 25 bits (IP .. WEIGHT_STRUCT)
 *   [4]    read_format, the low 5 bits
 *   [5]    bit 0 sample_id_all, bit 1 BRANCH_HW_INDEX, bit 2 BRANCH_COUNTERS
 *   [6]    registers in sample_regs_user (mod 65)
 *   [7]    registers in sample_regs_intr (mod 65)
 */
#define PREFIX 8

static uint64_t regs_mask(uint8_t n)
{
	n %= 65;
	return n ? ~0ULL >> (64 - n) : 0;
}

/* A decoded string must lie, with its NUL, inside the record. */
static void check_str(const struct perfev_record *r, const char *s)
{
	const char *lo = r->bytes, *hi = lo + r->size;

	if (!s || s < lo || s >= hi || !memchr(s, 0, (size_t)(hi - s)))
		abort();
}

/* Arrays of @n bytes: equal contents (both NULL or both set when @n is 0 is not checked). */
static void same_bytes(const void *a, const void *b, uint64_t n)
{
	if (n && (!a || !b || memcmp(a, b, (size_t)n)))
		abort();
}

static void same_read(const struct perfev_sample_layout *l, const struct perfev_sample *a,
		      const struct perfev_sample *b)
{
	uint64_t i, va, vb, ia, ib, la, lb;

	if (a->read.nr != b->read.nr || a->read.time_enabled != b->read.time_enabled ||
	    a->read.time_running != b->read.time_running)
		abort();
	for (i = 0; i < a->read.nr; i++) {
		if (perfev_sample_read_value(l, a, i, &va, &ia, &la) ||
		    perfev_sample_read_value(l, b, i, &vb, &ib, &lb))
			abort();
		if (va != vb || ia != ib || la != lb)
			abort();
	}
	if (perfev_sample_read_value(l, a, a->read.nr, &va, NULL, NULL) != -ERANGE)
		abort();
}

static void same_sample(const struct perfev_sample_layout *l, const struct perfev_sample *a,
			const struct perfev_sample *b)
{
	uint64_t t = l->sample_type;

	if (a->present != b->present || a->identifier != b->identifier || a->ip != b->ip ||
	    a->pid != b->pid || a->tid != b->tid || a->time != b->time || a->addr != b->addr ||
	    a->id != b->id || a->stream_id != b->stream_id || a->cpu != b->cpu ||
	    a->res != b->res || a->period != b->period)
		abort();
	if (t & PERF_SAMPLE_READ)
		same_read(l, a, b);
	if (a->callchain_nr != b->callchain_nr || a->raw_size != b->raw_size ||
	    a->branch_nr != b->branch_nr || a->branch_hw_idx != b->branch_hw_idx ||
	    a->regs_user_abi != b->regs_user_abi || a->stack_user_size != b->stack_user_size ||
	    a->stack_user_dyn_size != b->stack_user_dyn_size || a->weight != b->weight ||
	    memcmp(&a->weight_struct, &b->weight_struct, sizeof(a->weight_struct)) ||
	    a->data_src != b->data_src || a->transaction != b->transaction ||
	    a->regs_intr_abi != b->regs_intr_abi || a->phys_addr != b->phys_addr ||
	    a->cgroup != b->cgroup || a->data_page_size != b->data_page_size ||
	    a->code_page_size != b->code_page_size || a->aux_size != b->aux_size)
		abort();
	same_bytes(a->callchain, b->callchain, a->callchain_nr * 8);
	same_bytes(a->raw, b->raw, a->raw_size);
	same_bytes(a->branches, b->branches, a->branch_nr * sizeof(struct perfev_branch_entry));
	if (l->branch_sample_type & PERFEV_SAMPLE_BRANCH_COUNTERS)
		same_bytes(a->branch_counters, b->branch_counters, a->branch_nr * 8);
	if (a->regs_user_abi)
		same_bytes(a->regs_user, b->regs_user, (uint64_t)l->regs_user_count * 8);
	same_bytes(a->stack_user, b->stack_user, a->stack_user_size);
	if (a->regs_intr_abi)
		same_bytes(a->regs_intr, b->regs_intr, (uint64_t)l->regs_intr_count * 8);
	same_bytes(a->aux, b->aux, a->aux_size);
}

/* Two decodings of the same record, field by field. */
static void same_record(const struct perfev_sample_layout *l, const struct perfev_record *a,
			const struct perfev_record *b)
{
	const typeof(a->u) *x = &a->u, *y = &b->u;

	if (a->type != b->type || a->misc != b->misc || memcmp(&a->sid, &b->sid, sizeof(a->sid)))
		abort();
	switch (a->type) {
	case PERF_RECORD_SAMPLE:
		same_sample(l, &x->sample, &y->sample);
		break;
	case PERF_RECORD_MMAP:
		if (x->mmap.pid != y->mmap.pid || x->mmap.tid != y->mmap.tid ||
		    x->mmap.addr != y->mmap.addr || x->mmap.len != y->mmap.len ||
		    x->mmap.pgoff != y->mmap.pgoff || strcmp(x->mmap.filename, y->mmap.filename))
			abort();
		break;
	case PERF_RECORD_MMAP2:
		if (x->mmap2.pid != y->mmap2.pid || x->mmap2.tid != y->mmap2.tid ||
		    x->mmap2.addr != y->mmap2.addr || x->mmap2.len != y->mmap2.len ||
		    x->mmap2.pgoff != y->mmap2.pgoff ||
		    x->mmap2.has_build_id != y->mmap2.has_build_id ||
		    x->mmap2.maj != y->mmap2.maj || x->mmap2.min != y->mmap2.min ||
		    x->mmap2.ino != y->mmap2.ino ||
		    x->mmap2.ino_generation != y->mmap2.ino_generation ||
		    x->mmap2.build_id_size != y->mmap2.build_id_size ||
		    memcmp(x->mmap2.build_id, y->mmap2.build_id, sizeof(x->mmap2.build_id)) ||
		    x->mmap2.prot != y->mmap2.prot || x->mmap2.flags != y->mmap2.flags ||
		    strcmp(x->mmap2.filename, y->mmap2.filename))
			abort();
		break;
	case PERF_RECORD_COMM:
		if (x->comm.pid != y->comm.pid || x->comm.tid != y->comm.tid ||
		    x->comm.exec != y->comm.exec || strcmp(x->comm.comm, y->comm.comm))
			abort();
		break;
	case PERF_RECORD_READ:
		if (x->read.pid != y->read.pid || x->read.tid != y->read.tid)
			abort();
		same_read(l, &x->read.values, &y->read.values);
		break;
	case PERF_RECORD_NAMESPACES:
		if (x->namespaces.pid != y->namespaces.pid ||
		    x->namespaces.tid != y->namespaces.tid || x->namespaces.nr != y->namespaces.nr)
			abort();
		same_bytes(x->namespaces.link_info, y->namespaces.link_info, x->namespaces.nr * 16);
		break;
	case PERF_RECORD_KSYMBOL:
		if (x->ksymbol.addr != y->ksymbol.addr || x->ksymbol.len != y->ksymbol.len ||
		    x->ksymbol.ksym_type != y->ksymbol.ksym_type ||
		    x->ksymbol.flags != y->ksymbol.flags ||
		    strcmp(x->ksymbol.name, y->ksymbol.name))
			abort();
		break;
	case PERF_RECORD_CGROUP:
		if (x->cgroup.id != y->cgroup.id || strcmp(x->cgroup.path, y->cgroup.path))
			abort();
		break;
	case PERFEV_RECORD_TEXT_POKE:
		if (x->text_poke.addr != y->text_poke.addr ||
		    x->text_poke.old_len != y->text_poke.old_len ||
		    x->text_poke.new_len != y->text_poke.new_len)
			abort();
		same_bytes(x->text_poke.bytes, y->text_poke.bytes,
			   (uint64_t)x->text_poke.old_len + x->text_poke.new_len);
		break;
	case PERFEV_RECORD_STAT_CONFIG:
		if (x->stat_config.nr != y->stat_config.nr)
			abort();
		same_bytes(x->stat_config.data, y->stat_config.data, 16 * x->stat_config.nr);
		break;
	case PERFEV_RECORD_THREAD_MAP:
		if (x->thread_map.nr != y->thread_map.nr)
			abort();
		same_bytes(x->thread_map.entries, y->thread_map.entries, 24 * x->thread_map.nr);
		break;
	case PERFEV_RECORD_CPU_MAP:
		if (x->cpu_map.type != y->cpu_map.type || x->cpu_map.nr != y->cpu_map.nr)
			abort();
		same_bytes(x->cpu_map.cpus, y->cpu_map.cpus, 2 * (uint64_t)x->cpu_map.nr);
		break;
	case PERFEV_RECORD_EVENT_UPDATE:
		if (x->event_update.type != y->event_update.type ||
		    x->event_update.id != y->event_update.id ||
		    memcmp(&x->event_update.scale, &y->event_update.scale, sizeof(double)) ||
		    !x->event_update.str != !y->event_update.str ||
		    (x->event_update.str && strcmp(x->event_update.str, y->event_update.str)) ||
		    y->event_update.data_size < x->event_update.data_size)
			abort();
		/* The map's bytes again, then the padding to 8 bytes. */
		same_bytes(x->event_update.data, y->event_update.data, x->event_update.data_size);
		break;
	default:
		/* The other members hold no pointers: compare them whole. */
		if (memcmp(x, y, sizeof(*x)))
			abort();
		break;
	}
}

/* What a successful decode promises about pointers and sizes. */
static void check_decoded(const struct perfev_sample_layout *l, const struct perfev_record *r,
			  const uint8_t *rec, size_t len)
{
	struct perfev_data_src ds;

	if (r->bytes != rec || r->size < 8 || r->size > len)
		abort();
	switch (r->type) {
	case PERF_RECORD_MMAP:
		check_str(r, r->u.mmap.filename);
		break;
	case PERF_RECORD_MMAP2:
		check_str(r, r->u.mmap2.filename);
		if (r->u.mmap2.build_id_size > 20)
			abort();
		break;
	case PERF_RECORD_COMM:
		check_str(r, r->u.comm.comm);
		break;
	case PERF_RECORD_KSYMBOL:
		check_str(r, r->u.ksymbol.name);
		break;
	case PERF_RECORD_CGROUP:
		check_str(r, r->u.cgroup.path);
		break;
	case PERFEV_RECORD_EVENT_UPDATE:
		if (r->u.event_update.type == PERFEV_EVENT_UPDATE_UNIT ||
		    r->u.event_update.type == PERFEV_EVENT_UPDATE_NAME)
			check_str(r, r->u.event_update.str);
		/* A CPUS update holds a map. */
		__attribute__((fallthrough));
	case PERFEV_RECORD_CPU_MAP: {
		int cpus[8], n = perfev_cpu_map_cpus(r, cpus, 8);

		if (n < 0 && n != -EBADMSG &&
		    !(n == -EINVAL && r->type == PERFEV_RECORD_EVENT_UPDATE &&
		      r->u.event_update.type != PERFEV_EVENT_UPDATE_CPUS))
			abort();
		break;
	}
	case PERF_RECORD_SAMPLE:
		perfev_data_src_decode(r->u.sample.data_src, &ds);
		if (ds.mem_op > 0x1f || ds.mem_hops > 7)
			abort();
		break;
	default:
		break;
	}
	if (!perfev_record_type_name(r->type) && r->type >= 1 && r->type <= 21)
		abort();
}

static uint8_t out1[65536 + 64], out2[65536 + 64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_event_attr attr;
	struct perfev_sample_layout l;
	struct perfev_record r, r2;
	const uint8_t *rec;
	size_t len;
	uint64_t id;
	int ret, n, n2;

	if (size < PREFIX)
		return 0;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.sample_type =
	    (data[0] | (uint64_t)data[1] << 8 | (uint64_t)data[2] << 16 | (uint64_t)data[3] << 24) &
	    ((1ULL << 25) - 1);
	attr.read_format = data[4] & 0x1f;
	attr.sample_id_all = data[5] & 1;
	attr.branch_sample_type = (data[5] & 2 ? PERF_SAMPLE_BRANCH_HW_INDEX : 0) |
				  (data[5] & 4 ? PERFEV_SAMPLE_BRANCH_COUNTERS : 0);
	attr.sample_regs_user = regs_mask(data[6]);
	attr.sample_regs_intr = regs_mask(data[7]);
	if (perfev_sample_layout_init(&l, &attr))
		abort();
	rec = data + PREFIX;
	len = size - PREFIX;

	ret = perfev_record_id(&l, rec, len, &id);
	if (ret != 0 && ret != -ENOENT && ret != -EBADMSG)
		abort();
	ret = perfev_record_decode(&l, rec, len, &r);
	if (ret == -EBADMSG)
		return 0;
	if (ret)
		abort();
	check_decoded(&l, &r, rec, len);

	n = perfev_record_encode(&l, &r, out1, sizeof(out1));
	/* Of perf stat record's maps only lists of CPUs are encoded. */
	if (r.type == PERFEV_RECORD_CPU_MAP && r.u.cpu_map.type != PERFEV_CPU_MAP_CPUS) {
		if (n != -EINVAL)
			abort();
		return 0;
	}
	if (r.type != PERF_RECORD_SAMPLE && (r.type < 1 || r.type > 21) &&
	    (r.type < PERFEV_RECORD_THREAD_MAP || r.type > PERFEV_RECORD_EVENT_UPDATE)) {
		/* Types decoded only by their header cannot be encoded. */
		if (n != -EINVAL)
			abort();
		return 0;
	}
	/* Padding strings and the record to 8 bytes may add up to 7 bytes. */
	if (n == -EMSGSIZE && r.size > 0xffff - 7)
		return 0;
	if (n < 8 || n % 8 || (size_t)n > (size_t)r.size + 7)
		abort();
	if (perfev_record_encode(&l, &r, out2, (size_t)n - 1) != -ENOSPC)
		abort();

	ret = perfev_record_decode(&l, out1, (size_t)n, &r2);
	if (ret)
		abort();
	check_decoded(&l, &r2, out1, (size_t)n);
	same_record(&l, &r, &r2);
	/* The encoding is canonical: a second round gives the same bytes. */
	n2 = perfev_record_encode(&l, &r2, out2, sizeof(out2));
	if (n2 != n || memcmp(out1, out2, (size_t)n))
		abort();
	return 0;
}
