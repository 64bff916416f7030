// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev script: print the records of a perf.data file (file or pipe
 * mode) as Linux perf script does, as JSON lines, or as a raw dump.
 *
 * Records are delivered in time order the way perf's ordered-events queue
 * does it: records with a timestamp wait in a queue; at each
 * FINISHED_ROUND those up to the newest timestamp of the round before are
 * sorted and delivered; records without a timestamp go out at once.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
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

/* perf's modifier suffix (":u", ":k", ":ppp", ":H"...) for a name made from the attr. */
static void add_modifiers(char *buf, size_t len, const struct perf_event_attr *a)
{
	bool colon = false, guest_default = false;
	size_t n = strlen(buf);
	int i;

#define MOD(cond, c)                                                                               \
	do {                                                                                       \
		if ((cond) && n + 3 < len) {                                                       \
			if (!colon)                                                                \
				buf[n++] = ':';                                                    \
			colon = true;                                                              \
			buf[n++] = (c);                                                            \
		}                                                                                  \
	} while (0)
	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		MOD(!a->exclude_kernel, 'k');
		MOD(!a->exclude_user, 'u');
		MOD(!a->exclude_hv, 'h');
		guest_default = true;
	}
	for (i = 0; i < (int)a->precise_ip; i++)
		MOD(1, 'p');
	if (a->exclude_host || a->exclude_guest == guest_default) {
		MOD(!a->exclude_host, 'H');
		MOD(!a->exclude_guest, 'G');
	}
#undef MOD
	buf[n] = '\0';
}

/* A name for an event the file does not name (no EVENT_DESC feature). */
static char *make_name(const struct perf_event_attr *a)
{
	char buf[256];
	size_t i;

	snprintf(buf, sizeof(buf), "%u:%#llx", a->type, (unsigned long long)a->config);
	switch (a->type) {
	case PERF_TYPE_HARDWARE:
	case PERF_TYPE_SOFTWARE:
		for (i = 0; i < perfev_symbol_count(); i++) {
			const struct perfev_symbol *sym = perfev_symbol_get(i);

			if (sym->type == a->type && sym->config == a->config) {
				snprintf(buf, sizeof(buf), "%s", sym->name);
				break;
			}
		}
		break;
	case PERF_TYPE_HW_CACHE: {
		char name[128];
		uint64_t config;
		int n;

		for (i = 0; (n = perfev_cache_event_get(i, name, sizeof(name), &config)) >= 0; i++)
			if (config == a->config) {
				snprintf(buf, sizeof(buf), "%s", name);
				break;
			}
		break;
	}
	case PERF_TYPE_TRACEPOINT:
		snprintf(buf, sizeof(buf), "tracepoint:%llu", (unsigned long long)a->config);
		break;
	case PERF_TYPE_RAW:
		snprintf(buf, sizeof(buf), "raw 0x%llx", (unsigned long long)a->config);
		break;
	case PERF_TYPE_BREAKPOINT:
		snprintf(buf, sizeof(buf), "mem:0x%llx:%s%s%s", (unsigned long long)a->bp_addr,
			 a->bp_type & HW_BREAKPOINT_R ? "r" : "",
			 a->bp_type & HW_BREAKPOINT_W ? "w" : "",
			 a->bp_type & HW_BREAKPOINT_X ? "x" : "");
		break;
	default:
		break;
	}
	if (a->type != PERF_TYPE_TRACEPOINT)
		add_modifiers(buf, sizeof(buf), a);
	return strdup(buf);
}

const char *script_event_name(struct script *s, size_t idx)
{
	const struct perfev_data_attr *a;

	if (idx >= s->nev)
		return "[unknown]";
	if (!s->ev[idx].name) {
		a = perfev_data_attr(s->r, idx);
		s->ev[idx].name = a->name ? strdup(a->name) : make_name(a->attr);
		if (!s->ev[idx].name)
			cli_die("out of memory");
	}
	return s->ev[idx].name;
}

/* Grow the per-event state to the reader's events (pipe mode adds them as they come). */
static int sync_events(struct script *s)
{
	size_t n = perfev_data_attr_count(s->r), i;

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

size_t script_attr_index(struct script *s, const struct perfev_data_attr *a)
{
	static size_t hint;
	size_t i, n = perfev_data_attr_count(s->r);

	if (hint < n && perfev_data_attr(s->r, hint) == a)
		return hint;
	for (i = 0; i < n; i++)
		if (perfev_data_attr(s->r, i) == a)
			return hint = i;
	return SIZE_MAX;
}

/* The value last read for @id, and remember @value. */
static uint64_t swap_last(struct script *s, uint64_t id, uint64_t value)
{
	uint64_t old;
	size_t i;

	for (i = 0; i < s->nlast; i++)
		if (s->last[i].id == id)
			break;
	if (i == s->nlast) {
		if (s->nlast == s->cap_last) {
			s->cap_last = s->cap_last ? s->cap_last * 2 : 16;
			s->last = realloc(s->last, s->cap_last * sizeof(*s->last));
			if (!s->last)
				cli_die("out of memory");
		}
		s->last[s->nlast].id = id;
		s->last[s->nlast++].value = 0;
	}
	old = s->last[i].value;
	s->last[i].value = value;
	return old;
}

void script_sample_reads(struct script *s, const struct script_rec *sr,
			 const struct perfev_record *rec,
			 void (*fn)(struct script *s, size_t idx, uint64_t period, void *ctx),
			 void *ctx)
{
	const struct perfev_sample *smp = &rec->u.sample;
	uint64_t i, value, id, lost, period;

	for (i = 0; i < smp->read.nr; i++) {
		const struct perfev_data_attr *a;

		if (perfev_sample_read_value(&sr->attr->layout, smp, i, &value, &id, &lost))
			break;
		a = (sr->attr->attr->read_format & PERF_FORMAT_ID)
			? perfev_data_attr_by_id(s->r, id)
			: NULL;
		if (!a) {
			s->nr_unknown_id++;
			continue;
		}
		period = value - swap_last(s, id, value);
		if (period)
			fn(s, script_attr_index(s, a), period, ctx);
	}
}

/* ---- library messages --------------------------------------------------- */

static char lib_msg[512];

static void on_log(enum perfev_log_level level, const char *msg, void *ctx)
{
	/* A warning is said at once (a JIT map not read, ...); an error explains a failure. */
	if (level == PERFEV_LOG_WARN)
		cli_error("warning: %s", msg);
	else if (level < PERFEV_LOG_WARN)
		snprintf(lib_msg, sizeof(lib_msg), "%s", msg);
}

/* " (what the library said)" after a failure, or "". */
static const char *lib_detail(char *buf, size_t len)
{
	if (!lib_msg[0])
		return "";
	snprintf(buf, len, " (%s)", lib_msg);
	return buf;
}

/* ---- the ordered queue -------------------------------------------------- */

struct qent {
	uint64_t time, seq;
	struct script_rec sr;
	unsigned char bytes[];
};

struct queue {
	struct qent **v;
	size_t n, cap;
	uint64_t seq;
	uint64_t max_time, next_flush;
};

static const struct perfev_sample_layout *layout_of(const struct script_rec *sr)
{
	static struct perfev_sample_layout none;

	return sr->attr ? &sr->attr->layout : &none;
}

static void deliver(struct script *s, const struct script_rec *sr)
{
	struct perfev_record rec;
	int err;

	err = perfev_record_decode(layout_of(sr), sr->bytes, sr->size, &rec);
	if (err) {
		/* Checked when the record was read; this only guards against surprises. */
		s->nr_bad++;
		return;
	}
	/* As perf, a COMM or FORK is shown with the name it gives. */
	script_machine_process(&s->m, &rec);
	if (rec.type == PERF_RECORD_MMAP2 && rec.u.mmap2.has_build_id)
		script_note_build_id(s, rec.u.mmap2.filename, rec.u.mmap2.build_id,
				     rec.u.mmap2.build_id_size);
	if (s->sink)
		s->sink(s, sr, &rec);
	else if (s->json)
		script_json_record(s, sr, &rec);
	else
		script_print_record(s, sr, &rec);
}

static int qcmp(const void *a, const void *b)
{
	const struct qent *x = *(const struct qent *const *)a, *y = *(const struct qent *const *)b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Deliver the queued records with a time up to @limit, oldest first. */
static void queue_flush(struct script *s, struct queue *q, uint64_t limit)
{
	size_t i, done = 0;

	if (!q->n)
		return;
	qsort(q->v, q->n, sizeof(*q->v), qcmp);
	for (i = 0; i < q->n && q->v[i]->time <= limit; i++) {
		q->v[i]->sr.attr = q->v[i]->sr.attr_idx == SIZE_MAX
				       ? NULL
				       : perfev_data_attr(s->r, q->v[i]->sr.attr_idx);
		deliver(s, &q->v[i]->sr);
		free(q->v[i]);
		done++;
	}
	memmove(q->v, q->v + done, (q->n - done) * sizeof(*q->v));
	q->n -= done;
}

static void queue_add(struct queue *q, const struct script_rec *sr, uint64_t time)
{
	struct qent *e = malloc(sizeof(*e) + sr->size);

	if (!e)
		cli_die("out of memory");
	if (q->n == q->cap) {
		q->cap = q->cap ? q->cap * 2 : 1024;
		q->v = realloc(q->v, q->cap * sizeof(*q->v));
		if (!q->v)
			cli_die("out of memory");
	}
	e->time = time;
	e->seq = q->seq++;
	e->sr = *sr;
	memcpy(e->bytes, sr->bytes, sr->size);
	/* The reader's attr pointers may move as pipe mode adds events: keep the index. */
	e->sr.bytes = e->bytes;
	e->sr.attr = NULL;
	q->v[q->n++] = e;
	if (time > q->max_time)
		q->max_time = time;
}

static void queue_release(struct queue *q)
{
	size_t i;

	for (i = 0; i < q->n; i++)
		free(q->v[i]);
	free(q->v);
}

/* The record's timestamp as perf's queue sees it; 0 when it has none. */
static uint64_t record_time(const struct perfev_record *rec)
{
	if (rec->type == PERF_RECORD_SAMPLE)
		return (rec->u.sample.present & PERF_SAMPLE_TIME) ? rec->u.sample.time : 0;
	if (rec->type >= PERFEV_RECORD_HEADER_ATTR)
		return 0;
	return (rec->sid.present & PERF_SAMPLE_TIME) ? rec->sid.time : 0;
}

/* ---- reading ------------------------------------------------------------ */

/* Does @path start like a perf.data file?  Only to word the error; a pipe cannot be peeked. */
static bool is_perf_data(const char *path)
{
	char magic[8];
	FILE *f;
	bool yes;

	if (!strcmp(path, "-"))
		return false;
	f = fopen(path, "rb");
	if (!f)
		return false;
	yes = fread(magic, 1, sizeof(magic), f) == sizeof(magic) &&
	      (!memcmp(magic, "PERFILE2", 8) || !memcmp(magic, "2ELIFREP", 8));
	fclose(f);
	return yes;
}

static int open_error(const char *path, int err)
{
	char d[600];

	switch (err) {
	case -ENOENT:
		cli_error("cannot read '%s': no such file (record one with 'perfev record')", path);
		break;
	case -EACCES:
	case -EPERM:
		cli_error("cannot read '%s': permission denied (run as its owner or root)", path);
		break;
	case -EISDIR:
		cli_error("cannot read '%s': it is a directory (perf's directory format, from "
			  "'perf record --threads', is not supported)",
			  path);
		break;
	case -EPROTO:
		cli_error(
		    "cannot read '%s': a perf.data file perfev cannot read: PERFILE1, written "
		    "on a host of the other byte order, or with sample_type bits it does not "
		    "know%s",
		    path, lib_detail(d, sizeof(d)));
		break;
	case -EBADMSG:
		if (is_perf_data(path))
			cli_error("cannot read '%s': the file is damaged or truncated%s (was 'perf "
				  "record' interrupted before it finished the file?)",
				  path, lib_detail(d, sizeof(d)));
		else
			cli_error("cannot read '%s': not a perf.data file (it does not start with "
				  "PERFILE2)%s",
				  path, lib_detail(d, sizeof(d)));
		break;
	default:
		cli_error("cannot read '%s': %s%s", path, perfev_strerror(err),
			  lib_detail(d, sizeof(d)));
	}
	return 1;
}

static void warn_end(struct script *s)
{
	if (s->nr_compressed) {
		/* Their samples are missing from the output: that is a failure. */
		cli_error(
		    "cannot read '%s': it has %llu compressed records (perf record -z), which "
		    "perfev cannot decompress yet (decompress the file with 'perf inject -i "
		    "IN -o OUT')",
		    s->input, (unsigned long long)s->nr_compressed);
		s->failed = true;
	}
	if (s->nr_unknown_id)
		cli_error("warning: %llu samples belong to no event of the file header and were "
			  "skipped",
			  (unsigned long long)s->nr_unknown_id);
	if (s->nr_bad)
		cli_error("warning: %llu records could not be decoded and were skipped",
			  (unsigned long long)s->nr_bad);
	if (s->nr_lost)
		cli_error("warning: the recording lost %llu records (LOST records: the ring buffer "
			  "filled up; record with a larger -m or a lower frequency)",
			  (unsigned long long)s->nr_lost);
}

static int run(struct script *s)
{
	struct queue q = {0};
	struct perfev_data_record dr;
	bool header_done = !s->header && !s->header_only;
	uint64_t last_end = 0;
	char d[600];
	int err, status = 0;

	if (sync_events(s))
		return 1;
	while ((err = perfev_data_next(s->r, &dr)) > 0) {
		struct script_rec sr = {.type = dr.type,
					.misc = dr.misc,
					.size = dr.size,
					.bytes = dr.bytes,
					.attr = dr.attr,
					.offset = dr.offset};
		struct perfev_record rec;
		uint64_t t;

		/* A reader that went away (SIGPIPE ignored), or a full disk: cli_finish() tells. */
		if (ferror(stdout))
			break;
		last_end = dr.offset + dr.size;
		if (sync_events(s)) {
			status = 1;
			goto out;
		}
		if (!header_done) {
			script_print_header(s);
			header_done = true;
			if (s->header_only)
				goto out;
		}
		/* Records of no known event: samples cannot be decoded, the others share a trailer.
		 */
		if (!sr.attr && sr.type != PERF_RECORD_SAMPLE && s->nev)
			sr.attr = perfev_data_attr(s->r, 0);
		sr.attr_idx = sr.attr ? script_attr_index(s, sr.attr) : SIZE_MAX;
		if (sr.type == PERF_RECORD_SAMPLE && !sr.attr) {
			s->nr_unknown_id++;
			if (s->dump)
				script_dump_record(s, &sr, NULL, -ENOENT);
			continue;
		}
		err = perfev_record_decode(layout_of(&sr), sr.bytes, sr.size, &rec);
		if (s->dump) {
			script_dump_record(s, &sr, err ? NULL : &rec, err);
			if (err)
				goto corrupt;
			continue;
		}
		if (err)
			goto corrupt;
		if (rec.type == PERF_RECORD_LOST)
			s->nr_lost += rec.u.lost.lost;
		if (rec.type == PERFEV_RECORD_COMPRESSED)
			s->nr_compressed++;
		if (rec.type == PERFEV_RECORD_FINISHED_ROUND) {
			queue_flush(s, &q, q.next_flush);
			q.next_flush = q.max_time;
			if (s->json)
				deliver(s, &sr);
			continue;
		}
		t = record_time(&rec);
		if (!t || t == UINT64_MAX)
			deliver(s, &sr);
		else
			queue_add(&q, &sr, t);
		continue;
	corrupt:
		queue_flush(s, &q, UINT64_MAX);
		cli_error("cannot read '%s': the %s record at offset %#llx (%u bytes) is corrupt: "
			  "%s (its fields do not fit its size and its event's sample_type)",
			  s->input,
			  perfev_record_type_name(sr.type) ? perfev_record_type_name(sr.type)
							   : "unknown",
			  (unsigned long long)sr.offset, sr.size, perfev_strerror(err));
		status = 1;
		goto out;
	}
	queue_flush(s, &q, UINT64_MAX);
	if (!header_done)
		script_print_header(s);
	if (err == -EBADMSG && last_end) {
		cli_error("cannot read '%s': corrupt or truncated record after offset %#llx, where "
			  "the last good record ends%s; the records before it are shown",
			  s->input, (unsigned long long)last_end, lib_detail(d, sizeof(d)));
		status = 1;
	} else if (err == -EBADMSG) {
		cli_error("cannot read '%s': corrupt or truncated record before the first event "
			  "record%s",
			  s->input, lib_detail(d, sizeof(d)));
		status = 1;
	} else if (err == -EPROTO) {
		cli_error("cannot read '%s': an event after offset %#llx has sample_type bits "
			  "perfev does not know%s",
			  s->input, (unsigned long long)last_end, lib_detail(d, sizeof(d)));
		status = 1;
	} else if (err < 0) {
		cli_error("cannot read '%s': %s%s", s->input, perfev_strerror(err),
			  lib_detail(d, sizeof(d)));
		status = 1;
	}
out:
	if (!s->dump && !s->header_only)
		warn_end(s);
	queue_release(&q);
	return status || s->failed;
}

int cmd_script(int argc, const char **argv)
{
	struct script s;
	const char *fields = NULL;

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
		    OPT_FLAG(0, "show-mmap-events", &s.show_mmap, "print MMAP and MMAP2 records"),
		    OPT_FLAG(0, "show-task-events", &s.show_task,
			     "print COMM, FORK and EXIT records"),
		    OPT_FLAG(0, "show-switch-events", &s.show_switch,
			     "print context switch records"),
		    OPT_FLAG(0, "no-demangle", &s.no_demangle,
			     "print symbol names as the files spell them"),
		    OPT_STR(0, "kallsyms", &s.kallsyms, "FILE",
			    "the recording's kernel symbols (its machine's /proc/kallsyms)"),
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
	return script_read_file(&s);
}

int script_read_file(struct script *s)
{
	struct perfev_data_open_opts oo = {.sz = sizeof(oo)};
	struct stat st;
	int err, status;
	size_t i;

	/* As perf: with no -i, a pipe on standard input is read rather than perf.data. */
	if (!s->input)
		s->input = !fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode) ? "-" : "perf.data";
	if (script_check_kallsyms(s->kallsyms))
		return 1;

	perfev_set_log(on_log, PERFEV_LOG_WARN, NULL);
	script_machine_init(&s->m);
	err = perfev_data_open(s->input, &oo, &s->r);
	if (err) {
		status = open_error(s->input, err);
		goto out;
	}
	status = run(s);
out:
	perfev_set_log(NULL, PERFEV_LOG_ERROR, NULL);
	script_trace_release(s);
	script_sym_release(s);
	perfev_data_close(s->r);
	s->r = NULL;
	script_machine_release(&s->m);
	for (i = 0; i < s->nev; i++)
		free(s->ev[i].name);
	free(s->ev);
	free(s->last);
	s->ev = NULL;
	s->last = NULL;
	return status;
}
