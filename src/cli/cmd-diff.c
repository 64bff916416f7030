// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev diff: two or more perf.data files compared entry by entry, as
 * perf diff prints them (the baseline's share, then each new file's
 * delta, ratio or weighted difference), with a mark where a change is
 * more than sampling noise, and a differential flame graph (--html).
 *
 * Each file is read by the library's source (perfev/source.h), the way
 * perfev report reads one: its samples' sampled functions (and with
 * --html their call chains) resolved by the source's machine, summed per
 * distinct stack into one profile that holds every file (diff.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <perfev/perfev.h>
#include "common/array.h"
#include "diff.h"
#include "input.h"
#include "options.h"
#include "output/output.h"
#include "perfev-cli.h"

static const char *const diff_usage[] = {
    "perfev diff [<options>] [BASELINE.data [NEW.data...]]",
    NULL,
};

/* What reading one file keeps. */
struct reader {
	struct diff *d;
	uint32_t file, ev0; /* the profile's first event of this file */
	bool chains;	    /* whole call chains (--html), not the sampled function alone */
	uint32_t *frame_of; /* per frame id of the source's machine: profile frame + 1 */
	size_t cap;
	uint32_t *stack;
	size_t nstack, cap_stack;
};

/* A frame's level as perf shows it, by its PERF_RECORD_MISC_* cpumode. */
static const char levels[8] = {'.', 'k', '.', 'H', 'g', 'u', '.', '.'};

/* The profile frame of @fr: the function (its start), or the address nothing resolved. */
static uint32_t frame_of(struct reader *r, const struct perfev_frame *fr)
{
	struct profile_frame pf = {0};
	uint32_t idx;

	if (fr->id < r->cap && r->frame_of[fr->id])
		return r->frame_of[fr->id] - 1;
	pf.level = levels[fr->cpumode & 7];
	pf.dso = fr->dso ? fr->dso : "[unknown]";
	pf.addr = fr->dso && pf.level == 'k' ? fr->ip : fr->addr;
	pf.sym = fr->sym;
	if (fr->sym)
		pf.addr -= fr->sym_off;
	else
		pf.ip = fr->ip;
	idx = profile_frame_add(&r->d->prof, &pf);
	if (fr->id >= r->cap) {
		size_t old = r->cap;

		cli_grow(&r->frame_of, &r->cap, (size_t)fr->id + 1, sizeof(*r->frame_of));
		memset(r->frame_of + old, 0, (r->cap - old) * sizeof(*r->frame_of));
	}
	r->frame_of[fr->id] = idx + 1;
	return idx;
}

static void on_sample(struct reader *r, struct perfev_source *src,
		      const struct perfev_source_event *ev)
{
	struct diff *d = r->d;
	const struct perfev_sample *smp = &ev->rec->u.sample;
	const struct perfev_frame *f = NULL;
	uint32_t e = r->ev0 + (uint32_t)ev->attr_idx;
	uint64_t period = ev->period;
	size_t i, n = 0;
	int err = 0;

	if (ev->attr_idx >= perfev_source_attr_count(src) || e >= d->prof.nevents)
		return;
	/* A frequency without PERF_SAMPLE_PERIOD says nothing of the period: one per sample. */
	if (!(smp->present & (PERF_SAMPLE_READ | PERF_SAMPLE_PERIOD)) && ev->attr->attr->freq)
		period = 1;
	if (ev->attr->attr->sample_type & PERF_SAMPLE_CALLCHAIN)
		d->have_callchains = true;
	if (r->chains)
		err = perfev_source_frames(src, ev, PERFEV_FRAMES_CHAIN, &f, &n);
	if (!err && !n)
		err = perfev_source_frames(src, ev, 0, &f, &n);
	if (!err && !n)
		err = perfev_machine_resolve(perfev_source_machine(src), ev->pid, ev->cpumode,
					     smp->ip, 0, &f, &n);
	if (err)
		cli_die("out of memory");
	r->nstack = 0;
	for (i = 0; i < n; i++) {
		cli_grow(&r->stack, &r->cap_stack, r->nstack + 1, sizeof(*r->stack));
		r->stack[r->nstack++] = frame_of(r, &f[i]);
	}
	d->prof.events[e].samples++;
	d->prof.events[e].period += period;
	profile_add_on_cpu(&d->prof, e, ev->comm, ev->pid, ev->tid,
			   d->want[DK_CPU] && (smp->present & PERF_SAMPLE_CPU) ? (int32_t)smp->cpu
									       : -1,
			   r->stack, (uint32_t)r->nstack, period);
}

/* Read file @k of the diff into its profile; 0, or 1 after saying why not. */
static int read_file(struct diff *d, uint32_t k, const struct input_opts *base,
		     const struct input_filter_opts *fo, bool chains)
{
	struct input_opts io = *base;
	struct input in;
	struct reader r = {.d = d, .file = k, .ev0 = (uint32_t)d->prof.nevents, .chains = chains};
	const struct perfev_source_event *ev;
	const struct perfev_data_reader *rd;
	size_t i, nev;
	bool failed = false;
	int err, status;

	io.path = d->paths[k];
	if (access(io.path, F_OK) && errno == ENOENT) {
		cli_error(
		    "cannot open %s '%s': no such file%s", k ? "the file" : "the baseline", io.path,
		    k || d->nfiles > 2 ? ""
		    : strcmp(io.path, "perf.data.old")
			? ""
			: " (give both files: perfev diff BASELINE.data NEW.data; perf.data.old "
			  "is the perf.data a later perf record moved aside)");
		return 1;
	}
	status = input_open(&in, &io);
	if (!status)
		status = input_filter(&in, fo);
	if (status) {
		if (in.src)
			input_close(&in);
		return status;
	}
	rd = perfev_source_data(in.src);
	if (perfev_data_is_pipe(rd)) {
		cli_error("cannot compare '%s': it is a stream (perf record -o -); write the "
			  "recording to a file",
			  io.path);
		input_close(&in);
		return 1;
	}
	/* Every event of the file, in its order: perf diff's sections follow the baseline's. */
	nev = perfev_source_attr_count(in.src);
	for (i = 0; i < nev; i++) {
		const char *name = perfev_source_attr_name(in.src, i);
		const struct perfev_data_attr *a = perfev_data_attr(rd, i);

		if (!name)
			cli_die("out of memory");
		profile_event_add(&d->prof, name);
		cli_grow(&d->evs, &d->cap_evs, d->prof.nevents, sizeof(*d->evs));
		d->evs[d->prof.nevents - 1].file = k;
		d->evs[d->prof.nevents - 1].type = a ? a->attr->type : 0;
		d->evs[d->prof.nevents - 1].config = a ? a->attr->config : 0;
	}
	while ((err = perfev_source_next(in.src, &ev)) > 0) {
		if (ev->kind == PERFEV_SOURCE_SAMPLE && input_keep(&in, ev))
			on_sample(&r, in.src, ev);
		else if (ev->type == PERF_RECORD_COMM && ev->rec &&
			 (d->want[DK_PID] || d->want[DK_COMM]))
			/* perf's pid and comm columns: each thread's command at the end */
			if (perfev__hashmap_set(
				&d->comms, (uint64_t)k << 32 | ev->rec->u.comm.tid,
				perfev__ptr_key(profile_intern(&d->prof, ev->rec->u.comm.comm)),
				NULL, NULL) < 0)
				cli_die("out of memory");
	}
	if (err == -ENOMEM)
		cli_die("out of memory");
	if (err < 0)
		status = input_fail(&in, err);
	input_warn_end(&in, &failed);
	if (!k) {
		struct perfev_source_stats st = {.sz = sizeof(st)};

		perfev_source_stats(in.src, &st);
		d->prof.meta.lost = st.lost_samples;
		d->prof.meta.input = profile_intern(&d->prof, io.path);
	}
	input_close(&in);
	free(r.frame_of);
	free(r.stack);
	return status || failed;
}

static void split(const struct opt_list *l, struct diff_names *out)
{
	int i;

	out->on = l->n > 0;
	for (i = 0; i < l->n; i++) {
		const char *p = l->items[i];

		for (; *p; p += strcspn(p, ","), p += *p == ',') {
			size_t len = strcspn(p, ",");

			if (!len)
				continue;
			cli_grow(&out->v, &out->cap, out->n + 1, sizeof(*out->v));
			out->v[out->n] = strndup(p, len);
			if (!out->v[out->n++])
				cli_die("out of memory");
		}
	}
}

static void names_release(struct diff_names *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->v[i]);
	free(f->v);
}

/* -s: perf's key names, a prefix of one taken as it (case aside), as perf does. */
static void parse_keys(struct diff *d, const char *spec, const struct option *opts)
{
	static const struct {
		const char *name;
		int key;
	} names[] = {
	    {"pid", DK_PID},	{"comm", DK_COMM}, {"dso", DK_DSO},
	    {"symbol", DK_SYM}, {"cpu", DK_CPU},
	};
	const char *p = spec;
	size_t len, i;

	d->nkeys = 0;
	for (; *p; p += len, p += *p == ',') {
		len = strcspn(p, ",");
		for (i = 0; len && i < sizeof(names) / sizeof(names[0]); i++)
			if (strlen(names[i].name) >= len && !strncasecmp(p, names[i].name, len))
				break;
		if (!len)
			continue;
		if (i == sizeof(names) / sizeof(names[0]))
			usage_error(diff_usage, opts,
				    "cannot sort by '%.*s': perfev diff knows comm, pid, dso, sym "
				    "and cpu",
				    (int)len, p);
		if (!d->want[names[i].key]) {
			d->keys[d->nkeys++] = (enum diff_key)names[i].key;
			d->want[names[i].key] = true;
		}
	}
	if (!d->nkeys)
		usage_error(diff_usage, opts, "--sort needs at least one key");
}

/* -c delta|delta-abs|ratio|wdiff:W1,W2 */
static void parse_compute(struct diff *d, const char *s, const struct option *opts)
{
	long long w1, w2;
	int end = 0;

	if (!strcmp(s, "delta"))
		d->compute = DC_DELTA;
	else if (!strcmp(s, "delta-abs"))
		d->compute = DC_DELTA_ABS;
	else if (!strcmp(s, "ratio"))
		d->compute = DC_RATIO;
	else if (!strncmp(s, "wdiff", 5)) {
		if (sscanf(s, "wdiff:%lld,%lld%n", &w1, &w2, &end) != 2 || s[end])
			usage_error(diff_usage, opts,
				    "-c wdiff takes its weights as wdiff:W1,W2 (two integers), not "
				    "'%s'",
				    s);
		d->compute = DC_WDIFF;
		d->w1 = w1;
		d->w2 = w2;
	} else if (!strcmp(s, "cycles"))
		usage_error(diff_usage, opts,
			    "cannot compute 'cycles': it needs branch stacks' cycles (LBR), not "
			    "supported yet");
	else
		usage_error(diff_usage, opts,
			    "-c takes delta, delta-abs, ratio or wdiff:W1,W2, not '%s'", s);
}

/* The HTML page of the baseline's first event with samples against the new file's. */
static int write_html(struct diff *d, const char *path)
{
	struct cli_output out;
	uint32_t b, c = 0;
	int err;

	for (b = 0; b < d->prof.nevents && !d->evs[b].file; b++) {
		if (!d->prof.events[b].samples)
			continue;
		for (c = b + 1; c < d->prof.nevents; c++)
			if (d->evs[c].file == 1 && d->evs[c].type == d->evs[b].type &&
			    d->evs[c].config == d->evs[b].config)
				break;
		if (c < d->prof.nevents)
			break;
	}
	if (b == d->prof.nevents || d->evs[b].file) {
		cli_error("cannot write the HTML output '%s': no event of '%s' has samples in both "
			  "'%s' and '%s'",
			  path, d->paths[0], d->paths[0], d->paths[1]);
		return 1;
	}
	if (!d->have_callchains)
		cli_error("warning: '%s' and '%s' have no call chains (record with -g): the flame "
			  "graph shows the sampled functions alone",
			  d->paths[0], d->paths[1]);
	if (!strcmp(path, "-")) {
		err = diff_write_html(d, b, c, stdout);
		if (err)
			cli_error("cannot write the HTML output '-': %s", perfev_strerror(err));
		return err ? 1 : 0;
	}
	if (cli_output_open(&out, path, "HTML", 0666, CLI_OUT_STDIO))
		return 1;
	err = diff_write_html(d, b, c, out.f);
	if (err && !out.err) {
		cli_error("cannot write the HTML output '%s': %s", path, perfev_strerror(err));
		cli_output_discard(&out);
		return 1;
	}
	return cli_output_close(&out) ? 1 : 0;
}

int cmd_diff(int argc, const char **argv)
{
	static const char *defaults[] = {"perf.data.old", "perf.data"};
	struct diff d;
	struct opt_list comms = {0}, dsos = {0}, syms = {0}, pids = {0}, tids = {0};
	struct input_opts io = {0};
	struct input_filter_opts fo = {0};
	const char *sort = "dso,sym", *compute = "delta-abs", *percentage = NULL, *html = NULL;
	bool stdio = false, force = false, no_sig = false;
	int order = 1, nargs, status = 0;
	uint32_t k;

	memset(&d, 0, sizeof(d));
	profile_init(&d.prof);
	{
		const struct option opts[] = {
		    OPT_STR('s', "sort", &sort, "KEYS",
			    "what entries are made of and matched by: comm, pid, dso, sym, cpu "
			    "(default dso,sym)"),
		    OPT_STR('c', "compute", &compute, "HOW",
			    "each new file's column: delta (the change of share), delta-abs (the "
			    "same, sorted by its size; the default), ratio (new/old period) or "
			    "wdiff:W1,W2 (new*W2 - old*W1)"),
		    OPT_FLAG('p', "period", &d.show_period, "the periods too"),
		    OPT_FLAG('F', "formula", &d.show_formula, "how each value is computed"),
		    OPT_FLAG('b', "baseline-only", &d.baseline_only,
			     "only entries of the baseline found in a new file"),
		    OPT_STR(0, "percentage", &percentage, "HOW",
			    "shares of what the filters leave (relative) or of all (absolute, the "
			    "default)"),
		    OPT_NUM('o', "order", &order, "N", "sort by the column of file N (1)"),
		    OPT_STR('t', "field-separator", &d.sep, "SEP",
			    "columns separated by SEP, no spaces added"),
		    OPT_FLAG('q', "quiet", &d.quiet, "the entries alone, no headers or warnings"),
		    OPT_FLAG(0, "stdio", &stdio, "the text table (the only interface)"),
		    OPT_FLAG('f', "force", &force,
			     "accepted for perf's sake: files are not owner-checked"),
		    OPT_FLAG(0, "no-significance", &no_sig,
			     "no Sig column: perf diff's table exactly"),
		    OPT_HEADING("Filters (hidden entries still count in the totals)"),
		    OPT_MULTI('C', "comms", &comms, "COMMS", "only these commands (comma list)"),
		    OPT_MULTI('d', "dsos", &dsos, "DSOS", "only these shared objects (comma list)"),
		    OPT_MULTI('S', "symbols", &syms, "SYMS", "only these symbols (comma list)"),
		    OPT_MULTI(0, "pid", &pids, "PIDS", "only these processes (comma list)"),
		    OPT_MULTI(0, "tid", &tids, "TIDS", "only these threads (comma list)"),
		    OPT_STR(0, "cpu", &fo.cpus, "CPUS",
			    "only samples on these CPUs (dropped from the totals too)"),
		    OPT_STR(0, "time", &fo.time, "START,STOP",
			    "only samples in this time span (dropped from the totals too)"),
		    OPT_HEADING("Symbols"),
		    OPT_STR(0, "kallsyms", &io.kallsyms, "FILE",
			    "the recordings' kernel symbols (their machine's /proc/kallsyms)"),
		    OPT_STR(0, "symfs", &io.symfs, "DIR", "look every file up under DIR"),
		    OPT_HEADING("Beyond perf"),
		    OPT_STR(
			0, "html", &html, "FILE",
			"the report page of the first two files in its diff view (-g recordings)"),
		    OPT_TERMINATOR,
		};

		nargs = parse_options(argc, argv, opts, diff_usage, 0);
		parse_keys(&d, sort, opts);
		parse_compute(&d, compute, opts);
		if (percentage && strcmp(percentage, "relative") && strcmp(percentage, "absolute"))
			usage_error(diff_usage, opts,
				    "--percentage takes relative or absolute, not '%s'",
				    percentage);
		/* perf diff's default, unlike perf report's */
		d.absolute = !percentage || !strcmp(percentage, "absolute");
		if (d.sep && !*d.sep)
			usage_error(diff_usage, opts, "-t needs a separator");
		if (d.sep && strchr(d.sep, '.'))
			usage_error(diff_usage, opts,
				    "-t cannot be '%s': '.' is reserved (perf's rule)", d.sep);
		if (nargs > 0) {
			d.paths = argv;
			d.nfiles = (uint32_t)nargs;
		} else {
			d.paths = defaults;
			d.nfiles = 2;
		}
		/* perf diff NEW.data: the baseline is perf.data.old. */
		if (nargs == 1) {
			defaults[1] = argv[0];
			d.paths = defaults;
			d.nfiles = 2;
		}
		if (order < 0 || (uint32_t)order >= d.nfiles)
			usage_error(
			    diff_usage, opts,
			    "-o takes a file's number from 0 to %u (the baseline is 0), not %d",
			    d.nfiles - 1, order);
		d.order = (uint32_t)order;
	}
	d.sig = !no_sig;
	split(&comms, &d.fcomm);
	split(&dsos, &d.fdso);
	split(&syms, &d.fsym);
	split(&pids, &d.fpid);
	split(&tids, &d.ftid);
	for (k = 0; k < d.nfiles && !status; k++)
		status = read_file(&d, k, &io, &fo, html != NULL);
	if (!status) {
		if (!html || stdio)
			diff_table_print(&d);
		if (html)
			status = write_html(&d, html);
	}
	names_release(&d.fcomm);
	names_release(&d.fdso);
	names_release(&d.fsym);
	names_release(&d.fpid);
	names_release(&d.ftid);
	opt_list_release(&comms);
	opt_list_release(&dsos);
	opt_list_release(&syms);
	opt_list_release(&pids);
	opt_list_release(&tids);
	free(d.evs);
	perfev__hashmap_release(&d.comms);
	profile_release(&d.prof);
	return status;
}
