// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev script -D (every record, bytes and fields, as perf report -D
 * shows them) and --header (the file's features, as perf script --header).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "perfev-cli.h"
#include "output/json.h"
#include "script.h"

void script_hexdump(FILE *f, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	size_t i, j;

	for (i = 0; i < len; i += 16) {
		fprintf(f, ".  %04zx: ", i);
		for (j = 0; j < 16; j++) {
			if (i + j < len)
				fprintf(f, " %02x", p[i + j]);
			else
				fputs("   ", f);
		}
		fputs("  ", f);
		for (j = 0; j < 16; j++)
			fputc(i + j < len ? (isprint(p[i + j]) ? p[i + j] : '.') : ' ', f);
		fputc('\n', f);
	}
}

static void fprint_read(FILE *f, const struct perfev_sample_layout *layout,
			const struct perfev_sample *smp)
{
	uint64_t rf = layout->read_format, i, value, id, lost;

	fprintf(f, "... sample_read:\n");
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		fprintf(f, "...... time enabled %016" PRIx64 "\n", smp->read.time_enabled);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		fprintf(f, "...... time running %016" PRIx64 "\n", smp->read.time_running);
	if (rf & PERF_FORMAT_GROUP)
		fprintf(f, ".... group nr %" PRIu64 "\n", smp->read.nr);
	for (i = 0; i < smp->read.nr; i++) {
		if (perfev_sample_read_value(layout, smp, i, &value, &id, &lost))
			break;
		fprintf(f, "..... id %016" PRIx64 ", value %016" PRIx64, id, value);
		if (rf & PERFEV_FORMAT_LOST)
			fprintf(f, ", lost %" PRIu64, lost);
		fputc('\n', f);
	}
}

/* perf's dump_sample. */
static void fprint_sample(FILE *f, const struct perfev_data_attr *a,
			  const struct perfev_record *rec)
{
	const struct perfev_sample_layout *layout = &a->layout;
	const struct perfev_sample *smp = &rec->u.sample;
	uint64_t t = smp->present, i;
	/* Without PERIOD, perf's samples carry the attr's fixed period. */
	uint64_t period = (t & PERF_SAMPLE_PERIOD) ? smp->period : a->attr->sample_period;

	fprintf(f, "(IP, 0x%x): %d/%d: %#" PRIx64 " period: %" PRIu64 " addr: %#" PRIx64 "\n",
		rec->misc, (int)smp->pid, (int)smp->tid, smp->ip, period, smp->addr);
	if (t & PERF_SAMPLE_CALLCHAIN) {
		fprintf(f, "... FP chain: nr:%" PRIu64 "\n", smp->callchain_nr);
		for (i = 0; i < smp->callchain_nr; i++)
			fprintf(f, "..... %2" PRIu64 ": %016" PRIx64 "\n", i,
				perfev_u64_at(smp->callchain, i));
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		fprintf(f, "... branch stack: nr:%" PRIu64 "\n", smp->branch_nr);
		for (i = 0; i < smp->branch_nr; i++) {
			struct perfev_branch_entry e;

			memcpy(&e, (const unsigned char *)smp->branches + i * sizeof(e), sizeof(e));
			fprintf(f,
				"..... %2" PRIu64 ": %016" PRIx64 " -> %016" PRIx64
				" %u cycles %s%s%s%s type %u\n",
				i, e.from, e.to, (unsigned int)(e.flags >> 4 & 0xffff),
				e.flags & 1 ? "M" : " ", e.flags & 2 ? "P" : " ",
				e.flags & 8 ? "A" : " ", e.flags & 4 ? "T" : " ",
				(unsigned int)(e.flags >> 20 & 0xf));
		}
	}
	if (t & PERF_SAMPLE_REGS_USER) {
		fprintf(f, "... user regs: abi %" PRIu64 ", %u registers\n", smp->regs_user_abi,
			smp->regs_user_abi ? layout->regs_user_count : 0);
		for (i = 0; smp->regs_user_abi && i < layout->regs_user_count; i++)
			fprintf(f, ".... %2" PRIu64 " 0x%" PRIx64 "\n", i,
				perfev_u64_at(smp->regs_user, i));
	}
	if (t & PERF_SAMPLE_REGS_INTR) {
		fprintf(f, "... intr regs: abi %" PRIu64 ", %u registers\n", smp->regs_intr_abi,
			smp->regs_intr_abi ? layout->regs_intr_count : 0);
		for (i = 0; smp->regs_intr_abi && i < layout->regs_intr_count; i++)
			fprintf(f, ".... %2" PRIu64 " 0x%" PRIx64 "\n", i,
				perfev_u64_at(smp->regs_intr, i));
	}
	if (t & PERF_SAMPLE_STACK_USER)
		fprintf(f, "... ustack: size %" PRIu64 ", dyn_size %" PRIu64 "\n",
			smp->stack_user_size, smp->stack_user_dyn_size);
	if (t & PERF_SAMPLE_WEIGHT)
		fprintf(f, "... weight: %" PRIu64 "\n", smp->weight);
	if (t & PERFEV_SAMPLE_WEIGHT_STRUCT)
		fprintf(f, "... weight: %u,0x%x,0x%x\n", smp->weight_struct.var1_dw,
			smp->weight_struct.var2_w, smp->weight_struct.var3_w);
	if (t & PERF_SAMPLE_DATA_SRC)
		fprintf(f, " . data_src: 0x%" PRIx64 "\n", smp->data_src);
	if (t & PERF_SAMPLE_PHYS_ADDR)
		fprintf(f, " .. phys_addr: 0x%" PRIx64 "\n", smp->phys_addr);
	if (t & PERFEV_SAMPLE_DATA_PAGE_SIZE)
		fprintf(f, " .. data page size: %" PRIu64 "\n", smp->data_page_size);
	if (t & PERFEV_SAMPLE_CODE_PAGE_SIZE)
		fprintf(f, " .. code page size: %" PRIu64 "\n", smp->code_page_size);
	if (t & PERF_SAMPLE_TRANSACTION)
		fprintf(f, "... transaction: %" PRIx64 "\n", smp->transaction);
	if (t & PERF_SAMPLE_READ)
		fprint_read(f, layout, smp);
	if (t & PERF_SAMPLE_RAW)
		fprintf(f, "... raw: size %u\n", smp->raw_size);
	if (t & PERF_SAMPLE_AUX)
		fprintf(f, "... aux: size %" PRIu64 "\n", smp->aux_size);
}

/* A CPU list as perf prints one: ranges a-b, commas between. */
static void fprint_cpus(FILE *f, const int *cpus, int n)
{
	int i, j;

	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && cpus[j] == cpus[j - 1] + 1 && cpus[i] >= 0; j++)
			;
		fprintf(f, "%s%d", i ? "," : "", cpus[i]);
		if (j - i > 1)
			fprintf(f, "-%d", cpus[j - 1]);
	}
}

static void fprint_cpu_map(FILE *f, const struct perfev_record *rec)
{
	int n = perfev_cpu_map_cpus(rec, NULL, 0), *cpus;

	if (n < 0 || !(cpus = calloc((size_t)n + 1, sizeof(*cpus)))) {
		fprintf(f, "(%s)", n < 0 ? perfev_strerror(n) : "out of memory");
		return;
	}
	perfev_cpu_map_cpus(rec, cpus, (size_t)n);
	fprint_cpus(f, cpus, n);
	free(cpus);
}

/* perf stat record's records, in perf's words; false for other types. */
static bool fprint_stat_record(FILE *f, const struct perfev_record *rec)
{
	const typeof(rec->u) *u = &rec->u;
	uint64_t i, aggr = 0, scale = 0, interval = 0;

	switch (rec->type) {
	case PERFEV_RECORD_STAT:
		fprintf(f, "\n... id %" PRIu64 ", cpu %d, thread %u\n", u->stat.id, (int)u->stat.cpu,
			u->stat.thread);
		fprintf(f, "... value %" PRIu64 ", enabled %" PRIu64 ", running %" PRIu64 "\n",
			u->stat.val, u->stat.ena, u->stat.run);
		return true;
	case PERFEV_RECORD_STAT_ROUND:
		fprintf(f, "\n... time %" PRIu64 ", type %s\n", u->stat_round.time,
			u->stat_round.type == PERFEV_STAT_ROUND_FINAL ? "FINAL" : "INTERVAL");
		return true;
	case PERFEV_RECORD_STAT_CONFIG:
		for (i = 0; i < u->stat_config.nr; i++) {
			uint64_t tag = perfev_u64_at(u->stat_config.data, 2 * i);
			uint64_t val = perfev_u64_at(u->stat_config.data, 2 * i + 1);

			if (tag == PERFEV_STAT_CONFIG_AGGR_MODE)
				aggr = val;
			else if (tag == PERFEV_STAT_CONFIG_SCALE)
				scale = val;
			else if (tag == PERFEV_STAT_CONFIG_INTERVAL)
				interval = val;
		}
		fprintf(f, "\n... aggr_mode %" PRIu64 "\n... scale     %" PRIu64
			   "\n... interval  %" PRIu64 "\n",
			aggr, scale, interval);
		return true;
	case PERFEV_RECORD_THREAD_MAP:
		fprintf(f, " nr: %" PRIu64 " thread%s: ", u->thread_map.nr,
			u->thread_map.nr == 1 ? "" : "s");
		for (i = 0; i < u->thread_map.nr; i++)
			fprintf(f, "%s%d", i ? "," : "",
				(int)perfev_u64_at(u->thread_map.entries, 3 * i));
		fputc('\n', f);
		return true;
	case PERFEV_RECORD_CPU_MAP:
		fputs(": ", f);
		fprint_cpu_map(f, rec);
		fputc('\n', f);
		return true;
	case PERFEV_RECORD_EVENT_UPDATE:
		fprintf(f, "\n... id:    %" PRIu64 "\n", u->event_update.id);
		if (u->event_update.type == PERFEV_EVENT_UPDATE_UNIT)
			fprintf(f, "... unit:  %s\n", u->event_update.str);
		else if (u->event_update.type == PERFEV_EVENT_UPDATE_SCALE)
			fprintf(f, "... scale: %f\n", u->event_update.scale);
		else if (u->event_update.type == PERFEV_EVENT_UPDATE_NAME)
			fprintf(f, "... name:  %s\n", u->event_update.str);
		else if (u->event_update.type == PERFEV_EVENT_UPDATE_CPUS) {
			fputs("... cpus:  ", f);
			fprint_cpu_map(f, rec);
			fputc('\n', f);
		}
		return true;
	default:
		return false;
	}
}

/* NAMESPACES: each namespace's device and inode, four to a line, as perf prints them. */
static void fprint_namespaces(FILE *f, const struct perfev_record *rec)
{
	static const char *const names[] = {"net", "uts", "ipc", "pid", "user", "mnt", "cgroup"};
	const typeof(rec->u.namespaces) *ns = &rec->u.namespaces;
	uint64_t i;

	fprintf(f, " %d/%d - nr_namespaces: %" PRIu64 "\n\t\t[", (int)ns->pid, (int)ns->tid,
		ns->nr);
	for (i = 0; i < ns->nr; i++) {
		if (i && !(i % 4))
			fputs("\n\t\t ", f);
		fprintf(f, "%" PRIu64 "/%s: %" PRIu64 "/%#" PRIx64 "%s", i,
			i < sizeof(names) / sizeof(names[0]) ? names[i] : "UNKNOWN",
			perfev_u64_at(ns->link_info, 2 * i),
			perfev_u64_at(ns->link_info, 2 * i + 1), i + 1 < ns->nr ? ", " : "]\n");
	}
	if (!ns->nr)
		fputs("]\n", f);
}

/* perf_event__fprintf: the name and the fields of a record that is not a sample. */
void script_fprint_event(FILE *f, const struct perfev_record *rec)
{
	const char *name = perfev_record_type_name(rec->type);
	const typeof(rec->u) *u = &rec->u;

	if (name)
		fprintf(f, "PERF_RECORD_%s", name);
	else
		fprintf(f, "PERF_RECORD_%u", rec->type);
	if (fprint_stat_record(f, rec))
		return;
	switch (rec->type) {
	case PERF_RECORD_MMAP:
		fprintf(f, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %s\n",
			(int)u->mmap.pid, (int)u->mmap.tid, u->mmap.addr, u->mmap.len,
			u->mmap.pgoff, (rec->misc & PERF_RECORD_MISC_MMAP_DATA) ? 'r' : 'x',
			u->mmap.filename);
		break;
	case PERF_RECORD_MMAP2: {
		char prot[5];

		prot[0] = u->mmap2.prot & PROT_READ ? 'r' : '-';
		prot[1] = u->mmap2.prot & PROT_WRITE ? 'w' : '-';
		prot[2] = u->mmap2.prot & PROT_EXEC ? 'x' : '-';
		prot[3] = u->mmap2.flags & MAP_SHARED ? 's' : 'p';
		prot[4] = '\0';
		fprintf(f, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, (int)u->mmap2.pid,
			(int)u->mmap2.tid, u->mmap2.addr, u->mmap2.len, u->mmap2.pgoff);
		if (u->mmap2.has_build_id) {
			unsigned int i, n = u->mmap2.build_id_size;

			fputs(" <", f);
			for (i = 0; i < n && i < sizeof(u->mmap2.build_id); i++)
				fprintf(f, "%02x", u->mmap2.build_id[i]);
			fputc('>', f);
		} else {
			fprintf(f, " %02x:%02x %" PRIu64 " %" PRIu64, u->mmap2.maj, u->mmap2.min,
				u->mmap2.ino, u->mmap2.ino_generation);
		}
		fprintf(f, "]: %s %s\n", prot, u->mmap2.filename);
		break;
	}
	case PERF_RECORD_COMM:
		fprintf(f, "%s: %s:%d/%d\n", u->comm.exec ? " exec" : "", u->comm.comm,
			(int)u->comm.pid, (int)u->comm.tid);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		fprintf(f, "(%d:%d):(%d:%d)\n", (int)u->fork.pid, (int)u->fork.tid,
			(int)u->fork.ppid, (int)u->fork.ptid);
		break;
	case PERF_RECORD_LOST:
		fprintf(f, " lost %" PRIu64 "\n", u->lost.lost);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		fprintf(f, " lost %" PRIu64 "\n", u->lost_samples.lost);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		fprintf(f, ": time %" PRIu64 " id %" PRIu64 " stream_id %" PRIu64 "\n",
			u->throttle.time, u->throttle.id, u->throttle.stream_id);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		const char *in_out = !u->context_switch.out	  ? "IN         "
				     : !u->context_switch.preempt ? "OUT        "
								  : "OUT preempt";

		if (rec->type == PERF_RECORD_SWITCH)
			fprintf(f, " %s\n", in_out);
		else
			fprintf(f, " %s  %s pid/tid: %5d/%-5d\n", in_out,
				u->context_switch.out ? "next" : "prev",
				(int)u->context_switch.next_prev_pid,
				(int)u->context_switch.next_prev_tid);
		break;
	}
	case PERF_RECORD_AUX:
		fprintf(f, " offset: %#" PRIx64 " size: %#" PRIx64 " flags: %#" PRIx64 "\n",
			u->aux.aux_offset, u->aux.aux_size, u->aux.flags);
		break;
	case PERF_RECORD_ITRACE_START:
		fprintf(f, " pid: %u tid: %u\n", u->itrace_start.pid, u->itrace_start.tid);
		break;
	case PERF_RECORD_NAMESPACES:
		fprint_namespaces(f, rec);
		break;
	case PERF_RECORD_KSYMBOL:
		fprintf(f, " addr %" PRIx64 " len %u type %u flags 0x%x name %s\n", u->ksymbol.addr,
			u->ksymbol.len, u->ksymbol.ksym_type, u->ksymbol.flags, u->ksymbol.name);
		break;
	case PERF_RECORD_BPF_EVENT:
		fprintf(f, " type %u, flags %u, id %u\n", u->bpf_event.type, u->bpf_event.flags,
			u->bpf_event.id);
		break;
	case PERF_RECORD_CGROUP:
		fprintf(f, " cgroup: %" PRIu64 " %s\n", u->cgroup.id, u->cgroup.path);
		break;
	case PERFEV_RECORD_TEXT_POKE:
		fprintf(f, " %" PRIx64 " old len %u new len %u\n", u->text_poke.addr,
			u->text_poke.old_len, u->text_poke.new_len);
		break;
	case PERFEV_RECORD_AUX_OUTPUT_HW_ID:
		fprintf(f, " hw_id: %#" PRIx64 "\n", u->aux_output_hw_id.hw_id);
		break;
	default:
		fputc('\n', f);
	}
}

void script_dump_record(struct script *s, const struct perfev_source_event *sr,
			const struct perfev_record *rec, int decode_err)
{
	const struct perf_event_attr *attr = sr->attr ? sr->attr->attr : NULL;
	uint64_t t = attr ? attr->sample_type : 0;

	printf("\n%#" PRIx64 "@%s [%#x]: event: %u\n", sr->offset, s->input, sr->size, sr->type);
	printf(".\n. ... raw event: size %u bytes\n", sr->size);
	script_hexdump(stdout, sr->bytes, sr->size);
	putchar('\n');
	if (!rec) {
		printf("%#" PRIx64 " [%#x]: %s record: %s\n", sr->offset, sr->size,
		       perfev_record_type_name(sr->type) ? perfev_record_type_name(sr->type)
							 : "unknown",
		       decode_err == -ENOENT ? "its id belongs to no event of the file"
					     : perfev_strerror(decode_err));
		return;
	}
	/* The cpu and time perf prints first (evlist__print_tstamp). */
	if (rec->type == PERF_RECORD_SAMPLE) {
		if (t & PERF_SAMPLE_CPU)
			printf("%u ", rec->u.sample.cpu);
		if (t & PERF_SAMPLE_TIME)
			printf("%" PRIu64 " ", rec->u.sample.time);
	} else if (!attr || !attr->sample_id_all) {
		fputs("-1 -1 ", stdout);
	} else if (rec->type >= PERFEV_RECORD_HEADER_ATTR) {
		if (t & PERF_SAMPLE_CPU)
			fputs("0 ", stdout);
		if (t & PERF_SAMPLE_TIME)
			fputs("0 ", stdout);
	} else {
		if (t & PERF_SAMPLE_CPU)
			printf("%u ", rec->sid.cpu);
		if (t & PERF_SAMPLE_TIME)
			printf("%" PRIu64 " ", rec->sid.time);
	}
	printf("%#" PRIx64 " [%#x]: ", sr->offset, sr->size);
	if (rec->type == PERF_RECORD_SAMPLE) {
		fputs("PERF_RECORD_SAMPLE", stdout);
		fprint_sample(stdout, sr->attr, rec);
	} else {
		script_fprint_event(stdout, rec);
	}
}

/* ---- --header ------------------------------------------------------------ */

static uint32_t u32_at(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

struct hdr_event_ctx {
	struct json *w;
	bool any;
};

static void attr_value(char *buf, size_t len, const struct perfev_attr_field *fl)
{
	switch (fl->fmt) {
	case PERFEV_ATTR_FMT_HEX:
		snprintf(buf, len, "%#llx", (unsigned long long)fl->value);
		break;
	case PERFEV_ATTR_FMT_SIGNED:
		snprintf(buf, len, "%d", (int)(int32_t)fl->value);
		break;
	case PERFEV_ATTR_FMT_FLAGS:
		if (!strcmp(fl->key, "sample_type"))
			perfev_sample_type_str(fl->value, buf, len);
		else if (!strcmp(fl->key, "read_format"))
			perfev_read_format_str(fl->value, buf, len);
		else
			perfev_branch_type_str(fl->value, buf, len);
		break;
	default:
		snprintf(buf, len, "%llu", (unsigned long long)fl->value);
	}
}

/* perf_event_attr__fprintf: the fields that are not zero. */
static int text_attr_field(const struct perfev_attr_field *fl, void *ctx)
{
	char buf[256];

	if (!fl->value)
		return 0;
	attr_value(buf, sizeof(buf), fl);
	printf(", %s = %s", fl->name, buf);
	return 0;
}

static int json_attr_field(const struct perfev_attr_field *fl, void *ctx)
{
	struct hdr_event_ctx *c = ctx;

	if (fl->fmt == PERFEV_ATTR_FMT_SIGNED)
		json_ki64(c->w, fl->key, (int32_t)fl->value);
	else
		json_ku64(c->w, fl->key, fl->value);
	return 0;
}

static void header_string(struct script *s, struct json *w, int feat, const char *label,
			  const char *key)
{
	char buf[4096];

	if (perfev_data_feature_string(s->r, feat, buf, sizeof(buf)) < 0)
		return;
	if (w)
		json_kstr(w, key, buf);
	else
		printf("# %s : %s\n", label, buf);
}

static void header_pmu_mappings(struct script *s, struct json *w)
{
	const unsigned char *p;
	const void *data;
	size_t len, off = 4;
	uint32_t n, i;

	if (perfev_data_feature(s->r, PERFEV_FEAT_PMU_MAPPINGS, &data, &len) || len < 4)
		return;
	p = data;
	n = u32_at(p);
	if (w) {
		json_key(w, "pmu_mappings");
		json_obj_begin(w);
	} else {
		printf("# pmu mappings:");
	}
	for (i = 0; i < n && off + 8 <= len; i++) {
		uint32_t type = u32_at(p + off), slen = u32_at(p + off + 4);
		char name[256];

		off += 8;
		if (slen > len - off)
			break;
		snprintf(name, sizeof(name), "%.*s", (int)slen, (const char *)p + off);
		off += slen;
		if (w)
			json_ku64(w, name, type);
		else
			printf("%s %s = %u", i ? "," : "", name, type);
	}
	if (w)
		json_obj_end(w);
	else
		putchar('\n');
}

static void header_events(struct script *s, struct json *w)
{
	struct hdr_event_ctx c = {.w = w};
	size_t i, k, n = perfev_data_attr_count(s->r);

	if (w) {
		json_key(w, "events");
		json_arr_begin(w);
	}
	for (i = 0; i < n; i++) {
		const struct perfev_data_attr *a = perfev_data_attr(s->r, i);

		if (w) {
			json_obj_begin(w);
			json_kstr(w, "name", script_event_name(s, i));
			json_key(w, "ids");
			json_arr_begin(w);
			for (k = 0; k < a->nids; k++)
				json_u64(w, a->ids[k]);
			json_arr_end(w);
			json_key(w, "attr");
			json_obj_begin(w);
			perfev_attr_foreach(a->attr, json_attr_field, &c);
			json_obj_end(w);
			json_obj_end(w);
			continue;
		}
		printf("# event : name = %s", script_event_name(s, i));
		if (a->nids) {
			printf(", id = {");
			for (k = 0; k < a->nids; k++)
				printf("%s %" PRIu64, k ? "," : "", a->ids[k]);
			printf(" }");
		}
		perfev_attr_foreach(a->attr, text_attr_field, &c);
		putchar('\n');
	}
	if (w)
		json_arr_end(w);
}

/* COMPRESSED (perf record -z): u32 version, type (1: zstd), level, ratio, mmap_len. */
static void header_compressed(struct script *s, struct json *w)
{
	uint32_t f[5];
	const void *p;
	size_t len;

	if (perfev_data_feature(s->r, PERFEV_FEAT_COMPRESSED, &p, &len) || len < sizeof(f))
		return;
	memcpy(f, p, sizeof(f));
	if (w) {
		json_key(w, "compressed");
		json_obj_begin(w);
		json_kstr(w, "type", f[1] == 1 ? "zstd" : "unknown");
		json_ku64(w, "level", f[2]);
		json_ku64(w, "ratio", f[3]);
		json_obj_end(w);
	} else {
		printf("# compressed : %s, level = %u, ratio = %u\n",
		       f[1] == 1 ? "Zstd" : "Unknown", f[2], f[3]);
	}
}

/* -k's clock: perf's CLOCKID and CLOCK_DATA lines. */
static void header_clock(struct script *s, struct json *w)
{
	struct perfev_data_clock c;
	const char *name;
	char date[64] = "<error>";
	time_t sec;
	struct tm tm;

	if (perfev_data_clock(s->r, &c))
		return;
	name = perfev_clockid_name(c.clockid) ?: "(not found)";
	if (w) {
		json_key(w, "clock");
		json_obj_begin(w);
		json_ki64(w, "clockid", c.clockid);
		json_kstr(w, "name", name);
		json_ku64(w, "res_ns", c.res_ns);
		json_ku64(w, "tod_ns", c.tod_ns);
		json_ku64(w, "clockid_ns", c.clockid_ns);
		json_obj_end(w);
		return;
	}
	/* perf multiplies the resolution in ns by 1000 and calls it MHz: 1 ns is "1000 MHz". */
	if (c.res_ns)
		printf("# clockid frequency: %" PRIu64 " MHz\n", c.res_ns * 1000);
	sec = (time_t)(c.tod_ns / 1000000000ULL);
	if (localtime_r(&sec, &tm))
		strftime(date, sizeof(date), "%F %T", &tm);
	printf("# clockid: %s (%d)\n", name, (int)c.clockid);
	printf("# reference time: %s.%06d = %" PRIu64 ".%06d (TOD) = %" PRIu64 ".%09d (%s)\n", date,
	       (int)(c.tod_ns % 1000000000 / 1000), c.tod_ns / 1000000000,
	       (int)(c.tod_ns % 1000000000 / 1000), c.clockid_ns / 1000000000,
	       (int)(c.clockid_ns % 1000000000), name);
}

/* perf script --header's block, or with -j one {"header": {...}} line. */
void script_print_header(struct script *s)
{
	uint64_t avail, online, mem, first, last;
	struct json jw, *w = NULL;
	struct stat st;
	int ret;

	if (s->json) {
		w = &jw;
		json_init_flags(w, stdout, JSON_LINES);
		json_obj_begin(w);
		json_key(w, "header");
		json_obj_begin(w);
		json_kbool(w, "pipe", perfev_data_is_pipe(s->r));
	} else {
		printf("# ========\n");
	}
	/* The file's modification time, as perf shows it. */
	ret = strcmp(s->input, "-") ? stat(s->input, &st) : fstat(STDIN_FILENO, &st);
	if (!ret && S_ISREG(st.st_mode)) {
		char buf[64];
		struct tm tm;

		if (localtime_r(&st.st_mtime, &tm) &&
		    strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S %Y", &tm)) {
			if (w)
				json_ki64(w, "captured_on", (int64_t)st.st_mtime);
			else
				printf("# captured on    : %s\n", buf);
		}
	}
	header_string(s, w, PERFEV_FEAT_HOSTNAME, "hostname", "hostname");
	header_string(s, w, PERFEV_FEAT_OSRELEASE, "os release", "os_release");
	header_string(s, w, PERFEV_FEAT_VERSION, "perf version", "perf_version");
	header_string(s, w, PERFEV_FEAT_ARCH, "arch", "arch");
	if (!perfev_data_feature_u64(s->r, PERFEV_FEAT_NRCPUS, 0, &avail) &&
	    !perfev_data_feature_u64(s->r, PERFEV_FEAT_NRCPUS, 1, &online)) {
		if (w) {
			json_ku64(w, "nrcpus_online", online);
			json_ku64(w, "nrcpus_avail", avail);
		} else {
			printf("# nrcpus online : %" PRIu64 "\n# nrcpus avail : %" PRIu64 "\n",
			       online, avail);
		}
	}
	header_string(s, w, PERFEV_FEAT_CPUDESC, "cpudesc", "cpudesc");
	header_string(s, w, PERFEV_FEAT_CPUID, "cpuid", "cpuid");
	if (!perfev_data_feature_u64(s->r, PERFEV_FEAT_TOTAL_MEM, 0, &mem)) {
		if (w)
			json_ku64(w, "total_mem_kb", mem);
		else
			printf("# total memory : %" PRIu64 " kB\n", mem);
	}
	header_string(s, w, PERFEV_FEAT_CMDLINE, "cmdline", "cmdline");
	header_events(s, w);
	header_pmu_mappings(s, w);
	if (!perfev_data_feature_u64(s->r, PERFEV_FEAT_SAMPLE_TIME, 0, &first) &&
	    !perfev_data_feature_u64(s->r, PERFEV_FEAT_SAMPLE_TIME, 1, &last)) {
		if (w) {
			json_ku64(w, "first_sample_time", first);
			json_ku64(w, "last_sample_time", last);
		} else {
			printf("# time of first sample : ");
			script_fprint_time(stdout, first, 0);
			printf("\n# time of last sample : ");
			script_fprint_time(stdout, last, 0);
			printf("\n# sample duration : %10.3f ms\n",
			       last >= first ? (double)(last - first) / 1e6 : 0.0);
		}
	}
	header_compressed(s, w);
	header_clock(s, w);
	if (w) {
		json_obj_end(w);
		json_obj_end(w);
	} else {
		printf("# ========\n#\n");
	}
}
