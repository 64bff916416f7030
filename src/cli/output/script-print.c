// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev script: the text output, column for column as perf script 6.1
 * prints it (builtin-script.c: perf_sample__fprintf_start, process_event,
 * sample__fprintf_sym and sample__fprintf_callchain).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "perfev-cli.h"
#include "script.h"

static const struct {
	unsigned int field;
	uint64_t bit;
	const char *name, *bit_name, *hint;
} needs[] = {
    {SF_IP, PERF_SAMPLE_IP, "ip", "IP", "the event was recorded without sample addresses"},
    {SF_ADDR, PERF_SAMPLE_ADDR, "addr", "ADDR", "record with -d to sample data addresses"},
    {SF_TID | SF_PID, PERF_SAMPLE_TID, "tid' or 'pid", "TID",
     "the event was recorded without thread ids"},
    {SF_TIME, PERF_SAMPLE_TIME, "time", "TIME", "record with -T to sample timestamps"},
    {SF_CPU, PERF_SAMPLE_CPU, "cpu", "CPU", "record with --sample-cpu or -a to sample CPUs"},
    {SF_WEIGHT, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, "weight", "WEIGHT",
     "record with -W to sample weights"},
    {SF_INS_LAT, PERF_SAMPLE_WEIGHT_STRUCT, "ins_lat", "WEIGHT_STRUCT",
     "only memory events of some PMUs sample instruction latencies"},
    {SF_DATA_SRC, PERF_SAMPLE_DATA_SRC, "data_src", "DATA_SRC",
     "record a memory event, as perf mem record does"},
    {SF_PHYS_ADDR, PERF_SAMPLE_PHYS_ADDR, "phys_addr", "PHYS_ADDR",
     "record with --phys-data to sample physical addresses"},
    {SF_IREGS, PERF_SAMPLE_REGS_INTR, "iregs", "REGS_INTR",
     "record with --intr-regs to sample registers"},
    {SF_UREGS, PERF_SAMPLE_REGS_USER, "uregs", "REGS_USER",
     "record with --user-regs to sample registers"},
    {SF_CGROUP, PERF_SAMPLE_CGROUP, "cgroup", "CGROUP",
     "record with --all-cgroups to sample cgroups"},
};

/*
 * Check the fields against the event's sample_type, as perf's
 * evsel__check_attr: a field asked for with -F that the samples lack is an
 * error; a default field is dropped for the whole event type.
 */
int script_check_fields(struct script *s, size_t idx)
{
	const struct perfev_data_attr *a = perfev_data_attr(s->r, idx);
	const struct perf_event_attr *attr = a->attr;
	enum script_out_type ot = script_out_type(attr->type);
	size_t k;

	s->ev[idx].checked = true;
	if (attr->type == PERF_TYPE_SOFTWARE && attr->config == PERF_COUNT_SW_DUMMY)
		return 0;
	/* Tracepoints recorded with -g show their callchains even by default. */
	if (ot == OT_TRACEPOINT && !s->user_set[ot] && !s->hide_callchain &&
	    (attr->sample_type & PERF_SAMPLE_CALLCHAIN))
		s->fields[ot] |= SF_IP | SF_SYM | SF_SYMOFF | SF_DSO;
	for (k = 0; k < sizeof(needs) / sizeof(needs[0]); k++) {
		if (!(s->fields[ot] & needs[k].field) || (attr->sample_type & needs[k].bit))
			continue;
		if (s->user_fields[ot] & needs[k].field) {
			cli_error("cannot print '%s' for event '%s': its samples have no %s (%s)",
				  needs[k].name, script_event_name(s, idx), needs[k].bit_name,
				  needs[k].hint);
			return -1;
		}
		s->fields[ot] &= ~needs[k].field;
	}
	if ((s->fields[ot] & (SF_SYM | SF_DSO)) &&
	    !(attr->sample_type & (PERF_SAMPLE_IP | PERF_SAMPLE_ADDR))) {
		if (s->user_fields[ot] & (SF_SYM | SF_DSO)) {
			cli_error("cannot print 'sym' or 'dso' for event '%s': its samples have "
				  "neither IP nor ADDR to look up",
				  script_event_name(s, idx));
			return -1;
		}
		s->fields[ot] &= ~(SF_SYM | SF_SYMOFF | SF_DSO);
	}
	/* Source lines are of addresses: perf refuses them without ip. */
	if ((s->fields[ot] & SF_SRCLINE) && !(s->fields[ot] & SF_IP)) {
		if (s->user_fields[ot] & SF_SRCLINE) {
			cli_error(
			    "cannot print 'srcline' for event '%s' without 'ip' (add ip to -F, "
			    "or remove srcline)",
			    script_event_name(s, idx));
			return -1;
		}
		s->fields[ot] &= ~SF_SRCLINE;
	}
	/* The offset is printed after the symbol's name: perf refuses one without the other. */
	if ((s->fields[ot] & SF_SYMOFF) && !(s->fields[ot] & SF_SYM)) {
		if (s->user_set[ot]) {
			cli_error("cannot print 'symoff' for event '%s' without 'sym' (add sym to "
				  "-F, or remove symoff)",
				  script_event_name(s, idx));
			return -1;
		}
		s->fields[ot] &= ~SF_SYMOFF;
	}
	return 0;
}

void script_fprint_time(FILE *f, uint64_t ns, int width)
{
	char buf[48];

	/* Microseconds, truncated, as perf's timestamp__scnprintf_usec. */
	snprintf(buf, sizeof(buf), "%" PRIu64 ".%06" PRIu64, ns / 1000000000,
		 ns % 1000000000 / 1000);
	fprintf(f, "%*s", width, buf);
}

/* comm, pid/tid, [cpu] and time: the start of every line (perf_sample__fprintf_start). */
static void print_start(FILE *o, struct script *s, unsigned int fields, bool callchain_comm,
			const char *comm, uint32_t pid, uint32_t tid, uint32_t cpu, uint64_t time)
{
	if (fields & SF_COMM) {
		/* perf does not pad the comm of events that print callchains. */
		if (callchain_comm)
			fprintf(o, "%s ", comm);
		else
			fprintf(o, "%16s ", comm);
	}
	if ((fields & SF_PID) && (fields & SF_TID))
		fprintf(o, "%5d/%-5d ", (int)pid, (int)tid);
	else if (fields & SF_PID)
		fprintf(o, "%5d ", (int)pid);
	else if (fields & SF_TID)
		fprintf(o, "%5d ", (int)tid);
	if (fields & SF_CPU)
		fprintf(o, "[%03u] ", cpu);
	if (fields & SF_TIME) {
		script_fprint_time(o, time, 12);
		fputs(": ", o);
	}
}

/*
 * " name", " name+0x1f" with symoff, or " [unknown]" (never with an
 * offset), and " (dso)": what perf prints after an address.
 */
static void print_sym_dso(FILE *o, struct script *s, unsigned int fields,
			  const struct perfev_frame *f)
{
	if (fields & SF_SYM) {
		if (!f->sym)
			fputs(" [unknown]", o);
		else if (fields & SF_SYMOFF)
			fprintf(o, " %s+0x%" PRIx64, f->sym, f->sym_off);
		else
			fprintf(o, " %s", f->sym);
	}
	/* An inlined function (of a DWARF call chain) is marked as such, as perf does. */
	if ((fields & SF_DSO) && !(f->flags & PERFEV_FRAME_INLINED))
		fprintf(o, " (%s)", f->dso ? f->dso : "[unknown]");
	if (fields & SF_SRCLINE)
		script_print_srcline(s, o, f);
	if (f->flags & PERFEV_FRAME_INLINED)
		fputs(" (inlined)", o);
}

/* Symbols are looked up only when printed, source lines likewise. */
static unsigned int frame_flags(unsigned int fields)
{
	return ((fields & (SF_SYM | SF_SRCLINE)) ? 0 : PERFEV_FRAMES_NO_SYMBOLS) |
	       ((fields & SF_SRCLINE) ? PERFEV_FRAMES_SRCLINE : 0);
}

/* The source line of @f's address itself, set in @f. */
static void line_at(struct script *s, uint32_t pid, struct perfev_frame *f)
{
	const struct perfev_frame *r;
	size_t n;
	int err;

	err = perfev_machine_resolve(s->m, pid, f->cpumode, f->ip, PERFEV_FRAMES_SRCLINE, &r, &n);
	if (err == -ENOMEM)
		cli_die("out of memory");
	f->file = !err && n ? r[n - 1].file : NULL;
	f->line = !err && n ? r[n - 1].line : 0;
}

/* The sample's frames: its address, or with PERFEV_FRAMES_CHAIN its call chain as perf reads it. */
static void sample_frames(struct script *s, const struct perfev_source_event *sr,
			  unsigned int flags, const struct perfev_frame **f, size_t *n)
{
	int err = perfev_source_frames(s->src, sr, flags, f, n);

	if (err == -ENOMEM)
		cli_die("out of memory");
	if (err)
		*n = 0;
}

/* The callchain, one frame per line. */
static void print_callchain(FILE *o, struct script *s, unsigned int fields,
			    const struct perfev_source_event *sr)
{
	const struct perfev_frame *f;
	size_t i, n;

	/* DWARF call chains show the functions inlined at each address, as perf's do. */
	sample_frames(s, sr,
		      PERFEV_FRAMES_CHAIN | PERFEV_FRAMES_UNWOUND_INLINES | frame_flags(fields), &f,
		      &n);
	if (fields & SF_SRCLINE) {
		/* The lines are looked up again below, which reuses the source's frames. */
		cli_grow(&s->chain.v, &s->chain.cap, n, sizeof(*f));
		if (n)
			memcpy(s->chain.v, f, n * sizeof(*f));
		f = s->chain.v;
	}
	for (i = 0; i < n; i++) {
		struct perfev_frame fr = f[i];

		/* perf shows a frame's address within its file, like addr2line wants it. */
		fprintf(o, "\t%16" PRIx64, fr.addr);
		/*
		 * perf's line of a caller is that of its return address, not of
		 * the call before it (an inlined frame has its own already).
		 */
		if ((fields & SF_SRCLINE) && !(fr.flags & PERFEV_FRAME_INLINED))
			line_at(s, sr->rec->u.sample.pid, &fr);
		print_sym_dso(o, s, fields, &fr);
		fputc('\n', o);
	}
}

/* The data address; for page faults with its dso, as perf_sample__fprintf_addr. */
static void print_addr(FILE *o, struct script *s, unsigned int fields,
		       const struct perf_event_attr *attr, const struct perfev_sample *smp,
		       unsigned int cpumode)
{
	const struct perfev_frame *f;
	size_t n;

	fprintf(o, "%16" PRIx64, smp->addr);
	if (attr->type != PERF_TYPE_SOFTWARE || (attr->config != PERF_COUNT_SW_PAGE_FAULTS &&
						 attr->config != PERF_COUNT_SW_PAGE_FAULTS_MIN &&
						 attr->config != PERF_COUNT_SW_PAGE_FAULTS_MAJ))
		return;
	/* perf picks kernel or user maps by the address, not by the sample's mode. */
	if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_USER)
		cpumode = PERF_RECORD_MISC_CPUMODE_UNKNOWN;
	if (perfev_machine_resolve(s->m, smp->pid, cpumode, smp->addr, frame_flags(fields), &f,
				   &n) ||
	    !n)
		cli_die("out of memory");
	/* Data symbols too: perf keeps a file's objects with its functions. */
	print_sym_dso(o, s, fields & ~SF_SRCLINE, &f[n - 1]);
}

/*
 * The tracepoint payload as its format prints it (perf's
 * event_format__fprintf); the raw bytes when there is no format or the
 * data does not fit it.
 */
static void print_trace(FILE *o, struct script *s, size_t idx, const struct perfev_sample *smp)
{
	const char *text = script_trace_text(s, idx, smp);
	const unsigned char *p = smp->raw;
	uint32_t i;

	if (text) {
		fputs(text, o);
		return;
	}
	fprintf(o, "raw_size=%u raw=", smp->raw_size);
	for (i = 0; i < smp->raw_size; i++)
		fprintf(o, "%02x", p[i]);
}

static int max_name_len(struct script *s)
{
	size_t i;
	int w = 0;

	for (i = 0; i < s->nev; i++) {
		int n = (int)strlen(script_event_name(s, i));

		if (n > w)
			w = n;
	}
	return w;
}

static void print_sample(struct script *s, const struct perfev_source_event *sr, size_t idx,
			 const struct perfev_record *rec, const struct perfev_sample *smp,
			 uint64_t period)
{
	unsigned int cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	const struct perf_event_attr *attr;
	bool show_callchain;
	unsigned int fields;
	FILE *o;

	if (idx >= s->nev)
		return;
	/* --per-event-dump: each event's samples to its own file. */
	o = s->ev[idx].dump ? s->ev[idx].dump : stdout;
	s->ev[idx].nr_dumped++;
	attr = perfev_data_attr(s->r, idx)->attr;
	fields = s->fields[script_out_type(attr->type)];
	show_callchain = (attr->sample_type & PERF_SAMPLE_CALLCHAIN) && !s->hide_callchain &&
			 (fields & (SF_IP | SF_CALLCHAIN));
	if (!s->name_width)
		s->name_width = max_name_len(s);
	print_start(o, s, fields, show_callchain && (fields & SF_IP), sr->comm, smp->pid, smp->tid,
		    smp->cpu, smp->time);
	if (fields & SF_PERIOD)
		fprintf(o, "%10" PRIu64 " ", period);
	if (fields & SF_EVENT)
		fprintf(o, "%*s: ", s->name_width, script_event_name(s, idx));
	if ((fields & SF_TRACE) && (smp->present & PERF_SAMPLE_RAW))
		print_trace(o, s, idx, smp);
	if ((fields & SF_ADDR) && (smp->present & PERF_SAMPLE_ADDR))
		print_addr(o, s, fields, attr, smp, cpumode);
	if ((fields & SF_DATA_SRC) && (smp->present & PERF_SAMPLE_DATA_SRC))
		script_print_data_src(s, o, smp->data_src);
	/* With WEIGHT_STRUCT, perf's weight is its first 32 bits, ins_lat the next 16. */
	if ((fields & SF_WEIGHT) && (smp->present & PERF_SAMPLE_WEIGHT_STRUCT))
		fprintf(o, "%16" PRIu32, smp->weight_struct.var1_dw);
	else if ((fields & SF_WEIGHT) && (smp->present & PERF_SAMPLE_WEIGHT))
		fprintf(o, "%16" PRIu64, smp->weight);
	if ((fields & SF_INS_LAT) && (smp->present & PERF_SAMPLE_WEIGHT_STRUCT))
		fprintf(o, "%16" PRIu16, smp->weight_struct.var2_w);
	if (show_callchain) {
		fputc('\n', o);
		print_callchain(o, s, fields, sr);
	} else if ((fields & SF_IP) && (smp->present & PERF_SAMPLE_IP)) {
		const struct perfev_frame *f;
		size_t n;

		fprintf(o, " %16" PRIx64, smp->ip);
		sample_frames(s, sr, frame_flags(fields), &f, &n);
		if (n)
			print_sym_dso(o, s, fields, &f[0]);
	}
	if (fields & SF_IREGS)
		script_print_regs(s, o, smp->regs_intr_abi, smp->regs_intr, attr->sample_regs_intr);
	if (fields & SF_UREGS)
		script_print_regs(s, o, smp->regs_user_abi, smp->regs_user, attr->sample_regs_user);
	if ((fields & (SF_BRSTACK | SF_BRSTACKSYM)) && (smp->present & PERF_SAMPLE_BRANCH_STACK))
		script_print_brstack(s, o, fields, smp, !(fields & SF_BRSTACK));
	/*
	 * A BPF output event's data, as perf prints it by default: a line break
	 * alone where there is none (record --off-cpu's offcpu-time); perfev
	 * prints no dump of the bytes there are.
	 */
	if (attr->type == PERF_TYPE_SOFTWARE && attr->config == PERF_COUNT_SW_BPF_OUTPUT &&
	    !s->user_set[OT_SOFTWARE] && !smp->raw_size)
		fputc('\n', o);
	if ((fields & SF_INSN) && (smp->present & PERF_SAMPLE_IP))
		script_print_insn(s, o, smp->pid, smp->ip);
	if ((fields & SF_PHYS_ADDR) && (smp->present & PERF_SAMPLE_PHYS_ADDR))
		fprintf(o, "%16" PRIx64, smp->phys_addr);
	if ((fields & SF_CGROUP) && (smp->present & PERF_SAMPLE_CGROUP)) {
		const char *cg = perfev_machine_cgroup(s->m, smp->cgroup);

		fprintf(o, " %s", cg ? cg : "unknown");
	}
	fputc('\n', o);
}

static void print_event_line(struct script *s, const struct perfev_source_event *sr,
			     const struct perfev_record *rec, uint32_t pid, uint32_t tid,
			     uint64_t time)
{
	const struct perf_event_attr *attr = sr->attr ? sr->attr->attr : NULL;
	uint32_t cpu = 0;
	FILE *o = stdout;
	char buf[32];

	/* Without sample_id_all, perf shows the record's own thread and time. */
	if (attr && attr->sample_id_all) {
		pid = rec->sid.pid;
		tid = rec->sid.tid;
		time = rec->sid.time;
		cpu = rec->sid.cpu;
	}
	if (attr) {
		unsigned int fields = s->fields[script_out_type(attr->type)];
		bool cc = (fields & SF_IP) && (attr->sample_type & PERF_SAMPLE_CALLCHAIN) &&
			  !s->hide_callchain;
		/* The comm is the record's thread's, the ids those of its trailer. */
		uint32_t own = tid;

		switch (rec->type) {
		case PERF_RECORD_COMM:
			own = rec->u.comm.tid;
			break;
		case PERF_RECORD_FORK:
		case PERF_RECORD_EXIT:
			own = rec->u.fork.tid;
			break;
		case PERF_RECORD_MMAP:
			own = rec->u.mmap.tid;
			break;
		case PERF_RECORD_MMAP2:
			own = rec->u.mmap2.tid;
			break;
		case PERF_RECORD_NAMESPACES:
			own = rec->u.namespaces.tid;
			break;
		default:
			break;
		}
		print_start(o, s, fields, cc, script_comm(s, own, buf, sizeof(buf)), pid, tid, cpu,
			    time);
	}
	script_fprint_event(stdout, rec);
}

void script_print_record(struct script *s, const struct perfev_source_event *sr,
			 const struct perfev_record *rec)
{
	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		/* A group's READ values come one member at a time, with its period. */
		if (sr->kind == PERFEV_SOURCE_SAMPLE)
			print_sample(s, sr, sr->attr_idx, rec, &rec->u.sample, sr->period);
		break;
	case PERF_RECORD_MMAP:
		if (s->show_mmap)
			print_event_line(s, sr, rec, rec->u.mmap.pid, rec->u.mmap.tid, 0);
		break;
	case PERF_RECORD_MMAP2:
		if (s->show_mmap)
			print_event_line(s, sr, rec, rec->u.mmap2.pid, rec->u.mmap2.tid, 0);
		break;
	case PERF_RECORD_COMM:
		if (s->show_task)
			print_event_line(s, sr, rec, rec->u.comm.pid, rec->u.comm.tid, 0);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (s->show_task)
			print_event_line(s, sr, rec, rec->u.fork.pid, rec->u.fork.tid,
					 rec->u.fork.time);
		break;
	case PERF_RECORD_NAMESPACES:
		if (s->show_namespaces)
			print_event_line(s, sr, rec, rec->u.namespaces.pid, rec->u.namespaces.tid,
					 0);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (s->show_switch)
			print_event_line(s, sr, rec, rec->sid.pid, rec->sid.tid, rec->sid.time);
		break;
	default:
		break;
	}
}
