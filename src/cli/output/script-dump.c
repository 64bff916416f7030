// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev script -D (every record, bytes and fields, as perf report -D
 * shows them) and --header (data-header.c's, or in one line of JSON).
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
		fprintf(f, "\n... id %" PRIu64 ", cpu %d, thread %u\n", u->stat.id,
			(int)u->stat.cpu, u->stat.thread);
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
		fprintf(f,
			"\n... aggr_mode %" PRIu64 "\n... scale     %" PRIu64
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

/* perf script --header's block, or with -j one {"header": {...}} line. */
void script_print_header(struct script *s)
{
	struct json jw, *w = NULL;

	if (s->json) {
		w = &jw;
		json_init_flags(w, stdout, JSON_LINES);
		json_obj_begin(w);
		json_key(w, "header");
		json_obj_begin(w);
	}
	input_print_header(&s->in, w, s->show_info);
	if (w) {
		json_obj_end(w);
		json_obj_end(w);
	}
}
