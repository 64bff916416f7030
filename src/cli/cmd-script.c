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
#include <stdlib.h>
#include <string.h>
#include "options.h"
#include "perfev-cli.h"
#include "script.h"

static const char *const script_usage[] = {
    "perfev script [-i FILE] [-F FIELDS] [-G] [--header] [--show-mmap-events]\n"
    "                     [--show-task-events] [--show-switch-events] [--no-demangle]\n"
    "                     [--kallsyms FILE]",
    "perfev script -j [-i FILE] [--header]",
    "perfev script -D [-i FILE]",
    NULL,
};

/* ---- fields ------------------------------------------------------------- */

static const struct {
	const char *name;
	unsigned int bit;
} field_names[] = {
    {"comm", SF_COMM},	 {"tid", SF_TID},	{"pid", SF_PID},   {"time", SF_TIME},
    {"cpu", SF_CPU},	 {"event", SF_EVENT},	{"ip", SF_IP},	   {"sym", SF_SYM},
    {"dso", SF_DSO},	 {"period", SF_PERIOD}, {"addr", SF_ADDR}, {"callchain", SF_CALLCHAIN},
    {"trace", SF_TRACE}, {"symoff", SF_SYMOFF},
};

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
	s->fields[OT_RAW] |= SF_ADDR;
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
				    "unknown field '%s' in -F (fields: comm, tid, pid, time, cpu, "
				    "event, ip, sym, symoff, dso, period, addr, callchain, trace)",
				    tok);
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
	int status;

	memset(&s, 0, sizeof(s));
	{
		const struct option opts[] = {
		    OPT_STR('i', "input", &s.input, "FILE",
			    "the perf.data file to read (default: perf.data; -: standard input)"),
		    OPT_STR('F', "fields", &fields, "FIELDS",
			    "the fields to print: comm,tid,pid,time,cpu,event,ip,sym,symoff,dso,"
			    "period,addr,callchain,trace (or +field,-field to edit the default)"),
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
		    OPT_FLAG(0, "no-demangle", &s.no_demangle,
			     "print symbol names as the files spell them"),
		    OPT_STR(0, "kallsyms", &s.kallsyms, "FILE",
			    "the recording's kernel symbols (its machine's /proc/kallsyms)"),
		    OPT_STR(0, "symfs", &s.symfs, "DIR",
			    "look every file up under DIR (the recording's files copied there)"),
		    OPT_TERMINATOR,
		};

		if (parse_options(argc, argv, opts, script_usage, 0))
			usage_error(script_usage, opts, "unexpected argument '%s'", argv[0]);
		if (s.json && s.dump)
			usage_error(script_usage, opts, "-j and -D cannot be used together");
		default_fields(&s);
		if (fields)
			parse_fields(&s, fields, opts);
	}
	{
		struct input_opts io = {.path = s.input,
					.kallsyms = s.kallsyms,
					.symfs = s.symfs,
					.no_demangle = s.no_demangle,
					.raw = s.dump,
					.whole_reads = s.json};

		if (input_open(&s.in, &io))
			return 1;
	}
	s.input = s.in.path;
	s.src = s.in.src;
	s.m = perfev_source_machine(s.src);
	s.r = perfev_source_data(s.src);
	status = run(&s);
	script_trace_release(&s);
	input_close(&s.in);
	free(s.ev);
	return status;
}
