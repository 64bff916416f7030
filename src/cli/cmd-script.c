// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev script: print the records of a perf.data file (file or pipe
 * mode) as Linux perf script does, as JSON lines, or as a raw dump.
 *
 * The library's source (perfev/source.h) hands the records out in time
 * order, perf's ordered-events rule, with the threads and maps they build
 * up; the printers resolve each sample's frames through it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include "options.h"
#include "perfev-cli.h"
#include "script.h"

static const char *const script_usage[] = {
    "perfev script [-i FILE] [-F FIELDS] [-G] [--header] [--show-mmap-events]\n"
    "                     [--show-task-events] [--show-switch-events]\n"
    "                     [--show-namespace-events] [--no-demangle]\n"
    "                     [--kallsyms FILE] [--time START,STOP] [-C CPUS] [--pid PIDS]\n"
    "                     [--tid TIDS] [-c COMMS] [-S SYMBOLS] [--dsos DSOS]\n"
    "                     [--per-event-dump]",
    "perfev script -j [-i FILE] [--header] [-F +srcline,+insn] [the sample filters]",
    "perfev script -D [-i FILE]",
    NULL,
};

/* ---- fields ------------------------------------------------------------- */

static const struct {
	const char *name;
	unsigned int bit;
} field_names[] = {
    {"comm", SF_COMM},
    {"tid", SF_TID},
    {"pid", SF_PID},
    {"time", SF_TIME},
    {"cpu", SF_CPU},
    {"event", SF_EVENT},
    {"ip", SF_IP},
    {"sym", SF_SYM},
    {"dso", SF_DSO},
    {"period", SF_PERIOD},
    {"addr", SF_ADDR},
    {"callchain", SF_CALLCHAIN},
    {"trace", SF_TRACE},
    {"symoff", SF_SYMOFF},
    {"data_src", SF_DATA_SRC},
    {"weight", SF_WEIGHT},
    {"ins_lat", SF_INS_LAT},
    {"iregs", SF_IREGS},
    {"uregs", SF_UREGS},
    {"brstack", SF_BRSTACK},
    {"brstacksym", SF_BRSTACKSYM},
    {"phys_addr", SF_PHYS_ADDR},
    {"cgroup", SF_CGROUP},
    {"srcline", SF_SRCLINE},
    {"insn", SF_INSN},
};

#define FIELD_LIST                                                                                 \
	"comm, tid, pid, time, cpu, event, ip, sym, symoff, dso, period, addr, callchain, trace, " \
	"data_src, weight, ins_lat, iregs, uregs, brstack, brstacksym, phys_addr, cgroup, "        \
	"srcline, insn"

#define DEFAULT_FIELDS                                                                             \
	(SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVENT | SF_IP | SF_SYM | SF_SYMOFF | SF_DSO |    \
	 SF_PERIOD)

/* perf script's defaults per event type. */
static void default_fields(struct script *s)
{
	int t;

	for (t = 0; t < OT_MAX; t++)
		s->fields[t] = DEFAULT_FIELDS;
	s->fields[OT_TRACEPOINT] = SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVENT | SF_TRACE;
	/* perf's raw events show what memory events sample, when they do. */
	s->fields[OT_RAW] |= SF_ADDR | SF_DATA_SRC | SF_WEIGHT | SF_INS_LAT | SF_PHYS_ADDR;
}

/*
 * -F comm,tid,...: the same list for every event type.  As in perf, a
 * list whose items all start with + or - edits the defaults instead.
 */
static void parse_fields(struct script *s, const char *spec, const struct option *opts)
{
	char *copy = strdup(spec), *tok, *save = NULL;
	unsigned int set = 0, add = 0, del = 0;
	bool modify = false, plain = false;
	size_t k;
	int t;

	if (!copy)
		cli_die("out of memory");
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char sign = 0;

		if (*tok == '+' || *tok == '-')
			sign = *tok++;
		for (k = 0; k < sizeof(field_names) / sizeof(field_names[0]); k++)
			if (!strcmp(tok, field_names[k].name))
				break;
		if (k == sizeof(field_names) / sizeof(field_names[0]))
			usage_error(script_usage, opts,
				    "unknown field '%s' in -F (fields: " FIELD_LIST ")", tok);
		if (sign)
			modify = true;
		else
			plain = true;
		if (sign == '-')
			del |= field_names[k].bit;
		else if (sign == '+')
			add |= field_names[k].bit;
		else
			set |= field_names[k].bit;
	}
	free(copy);
	if (modify && plain)
		usage_error(script_usage, opts,
			    "cannot mix fields with and without +/- in -F '%s' (either list the "
			    "fields, or edit the default with +field,-field)",
			    spec);
	if (!modify && !plain)
		usage_error(script_usage, opts, "no field in -F '%s'", spec);
	for (t = 0; t < OT_MAX; t++) {
		s->fields[t] = modify ? (s->fields[t] | add) & ~del : set;
		/* Fields named must exist in the samples, as perf checks. */
		s->user_fields[t] = modify ? add : set;
		s->user_set[t] = true;
	}
}

/* ---- events ------------------------------------------------------------- */

enum script_out_type script_out_type(uint32_t attr_type)
{
	switch (attr_type) {
	case PERF_TYPE_HARDWARE:
		return OT_HARDWARE;
	case PERF_TYPE_SOFTWARE:
		return OT_SOFTWARE;
	case PERF_TYPE_TRACEPOINT:
		return OT_TRACEPOINT;
	case PERF_TYPE_HW_CACHE:
		return OT_HW_CACHE;
	case PERF_TYPE_RAW:
		return OT_RAW;
	case PERF_TYPE_BREAKPOINT:
		return OT_BREAKPOINT;
	default:
		return OT_OTHER;
	}
}

const char *script_event_name(struct script *s, size_t idx)
{
	const char *name = perfev_source_attr_name(s->src, idx);

	if (!name)
		cli_die("out of memory");
	return name;
}

const char *script_comm(struct script *s, uint32_t tid, char *buf, size_t len)
{
	const char *comm = perfev_machine_comm(s->m, tid);

	if (comm)
		return comm;
	snprintf(buf, len, ":%d", (int)tid);
	return buf;
}

/* --per-event-dump: INPUT.EVENT.dump, as perf names it, for each event. */
static int open_dump(struct script *s, size_t idx)
{
	struct script_event *e = &s->ev[idx];
	char *path;

	if (asprintf(&path, "%s.%s.dump", s->input, script_event_name(s, idx)) < 0)
		cli_die("out of memory");
	e->dump_out = calloc(1, sizeof(*e->dump_out));
	if (!e->dump_out)
		cli_die("out of memory");
	if (cli_output_open(e->dump_out, path, NULL, 0666, CLI_OUT_STDIO)) {
		free(e->dump_out);
		e->dump_out = NULL;
		free(path);
		return -1;
	}
	e->dump = e->dump_out->f;
	return 0;
}

/* Close the dumps, saying what each holds as perf does; 1 when one could not be written. */
static int close_dumps(struct script *s)
{
	int status = 0;
	size_t i;

	for (i = 0; i < s->nev; i++) {
		struct script_event *e = &s->ev[i];
		struct stat st;
		off_t size = 0;

		if (!e->dump_out)
			continue;
		/* The size written, as perf tells it. */
		fflush(e->dump);
		if (!fstat(e->dump_out->fd, &st))
			size = st.st_size;
		if (cli_output_close(e->dump_out))
			status = 1;
		else
			printf("[ perf script: Wrote %.3f MB %s (%" PRIu64 " samples) ]\n",
			       size / 1024.0 / 1024.0, e->dump_out->path, e->nr_dumped);
		free((char *)e->dump_out->path);
		free(e->dump_out);
		e->dump_out = NULL;
	}
	return status;
}

/*
 * perf reads instructions only from recordings of this machine's kind:
 * a stream, or a file whose ARCH is this machine's (an i386 one on x86_64).
 */
static bool native_arch(const struct script *s)
{
	struct utsname u;

	if (!s->r || perfev_data_is_pipe(s->r))
		return true;
	if (!s->arch[0] || uname(&u))
		return false;
	return !strcmp(s->arch, u.machine) ||
	       (!strcmp(u.machine, "x86_64") && !strcmp(s->arch, "i386"));
}

/* Grow the per-event state to the source's events (pipe mode adds them as they come). */
static int sync_events(struct script *s)
{
	size_t n = perfev_source_attr_count(s->src), i;

	if (n <= s->nev)
		return 0;
	s->ev = realloc(s->ev, n * sizeof(*s->ev));
	if (!s->ev)
		cli_die("out of memory");
	memset(&s->ev[s->nev], 0, (n - s->nev) * sizeof(*s->ev));
	for (i = s->nev; s->per_event_dump && i < n; i++)
		if (open_dump(s, i))
			return -1;
	s->nev = n;
	if (s->json || s->dump)
		return 0;
	for (i = 0; i < n; i++)
		if (!s->ev[i].checked && script_check_fields(s, i))
			return -1;
	return 0;
}

static void handle(struct script *s, const struct perfev_source_event *ev)
{
	if (s->dump)
		script_dump_record(s, ev, ev->rec, ev->decode_err);
	else if (s->json)
		script_json_record(s, ev, ev->rec);
	else
		script_print_record(s, ev, ev->rec);
}

static int run(struct script *s)
{
	const struct perfev_source_event *ev;
	bool header_done = !s->header && !s->header_only;
	int err, status = 0;

	if (sync_events(s))
		return 1;
	while ((err = perfev_source_next(s->src, &ev)) > 0) {
		/* A reader that went away (SIGPIPE ignored), or a full disk: cli_finish() tells. */
		if (ferror(stdout))
			break;
		if (sync_events(s)) {
			status = 1;
			goto out;
		}
		if (!header_done) {
			script_print_header(s);
			header_done = true;
			if (s->header_only)
				return 0;
		}
		/* FINISHED_ROUND is shown in JSON only, as the dump shows every record. */
		if (ev->type == PERFEV_RECORD_FINISHED_ROUND && !s->json && !s->dump)
			continue;
		/* The dump shows every record; the filters choose samples. */
		if (!s->dump && !input_keep(&s->in, ev))
			continue;
		handle(s, ev);
	}
	if (!header_done)
		script_print_header(s);
	if (err == -ENOMEM)
		cli_die("out of memory");
	if (err < 0)
		status = input_fail(&s->in, err);
out:
	if (!s->dump && !s->header_only)
		input_warn_end(&s->in, &s->failed);
	return status || s->failed;
}

int cmd_script(int argc, const char **argv)
{
	struct script s;
	const char *fields = NULL;
	struct opt_list pids = {0}, tids = {0}, comms = {0}, syms = {0}, dsos = {0};
	struct input_filter_opts fo = {
	    .pids = &pids, .tids = &tids, .comms = &comms, .syms = &syms, .dsos = &dsos};
	int status;

	memset(&s, 0, sizeof(s));
	perfev__hashmap_init(&s.dwarf_dsos, NULL, NULL, NULL);
	perfev__hashmap_init(&s.insn_files, NULL, NULL, NULL);
	{
		const struct option opts[] = {
		    OPT_STR('i', "input", &s.input, "FILE",
			    "the perf.data file to read (default: perf.data; -: standard input)"),
		    OPT_STR(
			'F', "fields", &fields, "FIELDS",
			"the fields to print: comm,tid,pid,time,cpu,event,ip,sym,symoff,dso,"
			"period,addr,callchain,trace,data_src,weight,ins_lat,iregs,uregs,brstack,"
			"brstacksym,phys_addr,cgroup,srcline,insn (or +field,-field to edit the "
			"default)"),
		    OPT_FLAG('G', "hide-call-graph", &s.hide_callchain,
			     "print the sample ip instead of the callchain"),
		    OPT_FLAG('j', "json", &s.json, "print every record as one line of JSON"),
		    OPT_FLAG('D', "dump-raw-trace", &s.dump,
			     "dump every record in file order: bytes and decoded fields"),
		    OPT_FLAG(0, "header", &s.header, "print the file's header features first"),
		    OPT_FLAG(0, "header-only", &s.header_only,
			     "print the file's header features only"),
		    OPT_FLAG('I', "show-info", &s.show_info,
			     "with --header: CPU and NUMA topology, caches and memory in full"),
		    OPT_FLAG(0, "show-mmap-events", &s.show_mmap, "print MMAP and MMAP2 records"),
		    OPT_FLAG(0, "show-task-events", &s.show_task,
			     "print COMM, FORK and EXIT records"),
		    OPT_FLAG(0, "show-switch-events", &s.show_switch,
			     "print context switch records"),
		    OPT_FLAG(0, "show-namespace-events", &s.show_namespaces,
			     "print NAMESPACES records"),
		    OPT_FLAG(0, "no-demangle", &s.no_demangle,
			     "print symbol names as the files spell them"),
		    OPT_STR('k', "kallsyms", &s.kallsyms, "FILE",
			    "the recording's kernel symbols (its machine's /proc/kallsyms)"),
		    OPT_FLAG(0, "per-event-dump", &s.per_event_dump,
			     "print each event's samples to INPUT.EVENT.dump"),
		    OPT_HEADING("which samples (also with -j)"),
		    OPT_STR(0, "time", &fo.time, "START,STOP",
			    "only samples in this time span (seconds; 'A,B C,D' several; "
			    "10%/2, 0%-10%: percents of the recording)"),
		    OPT_STR('C', "cpu", &fo.cpus, "CPUS",
			    "only samples on these CPUs (e.g. 0-3,8)"),
		    OPT_MULTI(0, "pid", &pids, "PIDS", "only these processes (comma list)"),
		    OPT_MULTI(0, "tid", &tids, "TIDS", "only these threads (comma list)"),
		    OPT_MULTI('c', "comms", &comms, "COMMS", "only these commands (comma list)"),
		    OPT_MULTI('S', "symbols", &syms, "SYMBOLS",
			      "only samples in these functions (comma list)"),
		    OPT_MULTI(0, "dsos", &dsos, "DSOS",
			      "only samples in these objects (comma list of paths or file names)"),
		    OPT_STR(0, "symfs", &s.symfs, "DIR",
			    "look every file up under DIR (the recording's files copied there)"),
		    OPT_STR(0, "archive", &s.archive, "ARCHIVE",
			    "the recording's files from ARCHIVE (perfev archive's, or perf's)"),
		    OPT_TERMINATOR,
		};

		if (parse_options(argc, argv, opts, script_usage, 0))
			usage_error(script_usage, opts, "unexpected argument '%s'", argv[0]);
		if (s.json && s.dump)
			usage_error(script_usage, opts, "-j and -D cannot be used together");
		if (s.per_event_dump && (s.json || s.dump))
			usage_error(
			    script_usage, opts,
			    "--per-event-dump writes perf script's text: not with -j or -D");
		default_fields(&s);
		if (fields)
			parse_fields(&s, fields, opts);
	}
	{
		struct input_opts io = {.path = s.input,
					.kallsyms = s.kallsyms,
					.symfs = s.symfs,
					.archive = s.archive,
					.no_demangle = s.no_demangle,
					.raw = s.dump,
					.whole_reads = s.json};

		if (input_open(&s.in, &io))
			return 1;
	}
	status = input_filter(&s.in, &fo);
	opt_list_release(&pids);
	opt_list_release(&tids);
	opt_list_release(&comms);
	opt_list_release(&syms);
	opt_list_release(&dsos);
	if (status) {
		input_close(&s.in);
		return status;
	}
	s.input = s.in.path;
	s.src = s.in.src;
	s.m = perfev_source_machine(s.src);
	s.r = perfev_source_data(s.src);
	/* Register names are the recording machine's. */
	if (!s.r || perfev_data_feature_string(s.r, PERFEV_FEAT_ARCH, s.arch, sizeof(s.arch)) < 0)
		s.arch[0] = 0;
	s.native = native_arch(&s);
	status = run(&s);
	if (close_dumps(&s))
		status = 1;
	script_trace_release(&s);
	input_close(&s.in);
	perfev__hashmap_release(&s.dwarf_dsos);
	script_insn_release(&s);
	free(s.chain.v);
	free(s.ev);
	return status;
}
