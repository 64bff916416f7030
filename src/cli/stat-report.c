// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev stat report: the counts of a perf stat record (or perfev stat
 * record) file shown as perfev stat shows a run: the final counts, or
 * with -I in the recording, one block per interval (the counts of the
 * STAT records are since the start: each interval shows the increase).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "input.h"
#include "options.h"
#include "perfev-cli.h"
#include "stat.h"

static const char *const report_usage[] = {
    "perfev stat report [-i FILE] [-M METRIC] [-x SEP | -j]",
    NULL,
};

/* The latest counts of one descriptor (event, CPU, thread), since the start. */
struct inst_count {
	uint64_t val, ena, run;
	bool seen;
};

struct report {
	struct stat_data *d;
	bool scale; /* STAT_CONFIG: scale for multiplexing */
	uint64_t interval_ms;
	int *cpus; /* the CPU map */
	size_t ncpus;
	pid_t *threads; /* the thread map */
	size_t nthreads;
	struct inst_count *inst; /* [event][cpu][thread] */
	struct stat_value *prev; /* [event][unit]: the sums of the interval before */
	double prev_time_ns;
	size_t rounds;
};

static void read_maps(struct report *rp, const struct perfev_record *r)
{
	size_t i;
	int n;

	if (r->type == PERFEV_RECORD_THREAD_MAP) {
		free(rp->threads);
		rp->nthreads = (size_t)r->u.thread_map.nr;
		rp->threads = calloc(rp->nthreads + 1, sizeof(*rp->threads));
		if (!rp->threads)
			cli_die("out of memory");
		for (i = 0; i < rp->nthreads; i++)
			rp->threads[i] = (pid_t)perfev_u64_at(r->u.thread_map.entries, i * 3);
		return;
	}
	n = perfev_cpu_map_cpus(r, NULL, 0);
	if (n < 0)
		cli_die("cannot read the file's CPU map: %s", perfev_strerror(n));
	free(rp->cpus);
	rp->ncpus = (size_t)n;
	rp->cpus = calloc(rp->ncpus + 1, sizeof(*rp->cpus));
	if (!rp->cpus)
		cli_die("out of memory");
	perfev_cpu_map_cpus(r, rp->cpus, rp->ncpus);
}

/* The units the recorded aggregation shows, once the maps are known. */
static void make_units(struct report *rp)
{
	struct stat_data *d = rp->d;
	size_t i, n;

	if (d->units)
		return;
	if (!rp->ncpus || !rp->nthreads)
		cli_die("cannot read the counts: the file has no CPU or thread map before them");
	if (d->aggr == PERFEV_AGGR_THREAD && rp->threads[0] == -1)
		d->aggr = PERFEV_AGGR_GLOBAL;
	if (d->aggr == PERFEV_AGGR_CPU && rp->cpus[0] == -1)
		d->aggr = PERFEV_AGGR_GLOBAL;
	/* Per socket, die, core or node needs the recording machine's topology: the total. */
	if (d->aggr != PERFEV_AGGR_THREAD && d->aggr != PERFEV_AGGR_CPU)
		d->aggr = PERFEV_AGGR_GLOBAL;
	n = d->aggr == PERFEV_AGGR_THREAD ? rp->nthreads
	    : d->aggr == PERFEV_AGGR_CPU  ? rp->ncpus
					  : 1;
	d->nunits = n;
	d->units = calloc(n, sizeof(*d->units));
	d->v = calloc(d->nev * n + 1, sizeof(*d->v));
	rp->prev = calloc(d->nev * n + 1, sizeof(*rp->prev));
	rp->inst = calloc(d->nev * rp->ncpus * rp->nthreads + 1, sizeof(*rp->inst));
	if (!d->units || !d->v || !rp->prev || !rp->inst)
		cli_die("out of memory");
	for (i = 0; i < n; i++) {
		d->units[i] = (struct perfev_unit){-1, -1, -1, -1, -1, -1};
		if (d->aggr == PERFEV_AGGR_THREAD)
			d->units[i].tid = rp->threads[i];
		else if (d->aggr == PERFEV_AGGR_CPU)
			d->units[i].cpu = rp->cpus[i];
	}
}

static int event_of(const struct perfev_data_reader *r, uint64_t id)
{
	const struct perfev_data_attr *a = perfev_data_attr_by_id(r, id);
	size_t i;

	for (i = 0; a && i < perfev_data_attr_count(r); i++)
		if (perfev_data_attr(r, i) == a)
			return (int)i;
	return -1;
}

static void read_stat(struct report *rp, const struct perfev_data_reader *r,
		      const struct perfev_record *rec)
{
	struct stat_data *d = rp->d;
	int ev = event_of(r, rec->u.stat.id);
	size_t c;
	struct inst_count *ic;

	make_units(rp);
	for (c = 0; c < rp->ncpus && rp->cpus[c] != (int)rec->u.stat.cpu; c++)
		;
	if (ev < 0 || c == rp->ncpus || rec->u.stat.thread >= rp->nthreads) {
		cli_error(
		    "warning: a count of an unknown event, CPU or thread (id %llu) is left out",
		    (unsigned long long)rec->u.stat.id);
		return;
	}
	ic = &rp->inst[((size_t)ev * rp->ncpus + c) * rp->nthreads + rec->u.stat.thread];
	*ic = (struct inst_count){rec->u.stat.val, rec->u.stat.ena, rec->u.stat.run, true};
	d->ev[ev].supported = true;
}

/* The counts since the start summed per unit into run 0, minus the interval before. */
static void sum_units(struct report *rp, bool delta)
{
	struct stat_data *d = rp->d;
	size_t ev, c, t;

	memset(d->v, 0, d->nev * d->nunits * sizeof(*d->v));
	for (ev = 0; ev < d->nev; ev++)
		for (c = 0; c < rp->ncpus; c++)
			for (t = 0; t < rp->nthreads; t++) {
				const struct inst_count *ic =
				    &rp->inst[(ev * rp->ncpus + c) * rp->nthreads + t];
				size_t u = d->aggr == PERFEV_AGGR_THREAD ? t
					   : d->aggr == PERFEV_AGGR_CPU	 ? c
									 : 0;
				struct stat_value *v = stat_at(d, 0, ev, u);

				if (!ic->seen)
					continue;
				v->valid = true;
				v->raw += ic->val;
				v->enabled += ic->ena;
				v->running += ic->run;
			}
	for (ev = 0; ev < d->nev * d->nunits; ev++) {
		struct stat_value *v = &d->v[ev], cur = *v;

		if (delta) {
			v->raw -= rp->prev[ev].raw;
			v->enabled -= rp->prev[ev].enabled;
			v->running -= rp->prev[ev].running;
		}
		v->scaled = rp->scale ? perfev_scale(v->raw, v->enabled, v->running) : v->raw;
		rp->prev[ev] = cur;
	}
}

static void round_end(struct report *rp, const struct perfev_record *rec)
{
	struct stat_data *d = rp->d;
	double t = (double)rec->u.stat_round.time;

	make_units(rp);
	if (rec->u.stat_round.type == PERFEV_STAT_ROUND_FINAL || !rp->interval_ms) {
		sum_units(rp, false);
		d->elapsed_ns[0] = t;
		d->nruns = 1;
		return;
	}
	sum_units(rp, true);
	d->elapsed_ns[0] = t - rp->prev_time_ns;
	d->nruns = 1;
	if (!rp->rounds)
		stat_print_interval_begin(d);
	stat_print_interval(d, t / 1e9, !rp->rounds);
	rp->prev_time_ns = t;
	rp->rounds++;
}

/* The events of the file, as the run that recorded them described them. */
static void describe_events(struct stat_data *d, const struct perfev_data_reader *r)
{
	size_t i;

	d->nev = perfev_data_attr_count(r);
	d->ev = calloc(d->nev + 1, sizeof(*d->ev));
	if (!d->ev)
		cli_die("out of memory");
	for (i = 0; i < d->nev; i++) {
		const struct perfev_data_attr *a = perfev_data_attr(r, i);
		char buf[64];

		snprintf(buf, sizeof(buf), "type=%u,config=%#llx", a->attr->type,
			 (unsigned long long)a->attr->config);
		d->ev[i].name = strdup(a->name ? a->name : buf);
		d->ev[i].type = a->attr->type;
		d->ev[i].config = a->attr->config;
		d->ev[i].leader = (int)i;
		d->ev[i].scale = 1.0;
		if (!d->ev[i].name)
			cli_die("out of memory");
	}
}

/* EVENT_UPDATE: the unit and scale of a PMU event (clocks keep perfev's msec). */
static void read_update(struct stat_data *d, const struct perfev_data_reader *r,
			const struct perfev_record *rec)
{
	int ev = event_of(r, rec->u.event_update.id);
	struct stat_event *e;

	if (ev < 0)
		return;
	e = &d->ev[ev];
	if (e->type == PERF_TYPE_SOFTWARE &&
	    (e->config == PERF_COUNT_SW_TASK_CLOCK || e->config == PERF_COUNT_SW_CPU_CLOCK))
		return;
	if (rec->u.event_update.type == PERFEV_EVENT_UPDATE_SCALE && rec->u.event_update.scale)
		e->scale = rec->u.event_update.scale;
	if (rec->u.event_update.type == PERFEV_EVENT_UPDATE_UNIT && rec->u.event_update.str[0]) {
		free(e->unit);
		e->unit = strdup(rec->u.event_update.str);
	}
}

static void read_config(struct report *rp, const struct perfev_record *rec)
{
	uint64_t i;

	for (i = 0; i < rec->u.stat_config.nr; i++) {
		uint64_t tag = perfev_u64_at(rec->u.stat_config.data, 2 * i);
		uint64_t val = perfev_u64_at(rec->u.stat_config.data, 2 * i + 1);

		if (tag == PERFEV_STAT_CONFIG_AGGR_MODE)
			rp->d->aggr = stat_aggr_from_perf(val);
		else if (tag == PERFEV_STAT_CONFIG_INTERVAL)
			rp->interval_ms = val;
		else if (tag == PERFEV_STAT_CONFIG_SCALE)
			rp->scale = val != 0;
	}
}

static void free_report(struct report *rp, char *desc)
{
	struct stat_data *d = rp->d;
	size_t i;

	for (i = 0; i < d->nev; i++) {
		free(d->ev[i].name);
		free(d->ev[i].unit);
	}
	free(d->ev);
	free(d->units);
	free(d->v);
	free(rp->cpus);
	free(rp->threads);
	free(rp->inst);
	free(rp->prev);
	free(desc);
}

int stat_report(int argc, const char **argv)
{
	const char *input = "perf.data", *sep = NULL;
	struct opt_list metrics = {0};
	bool json = false;
	const struct option opts[] = {
	    OPT_STR('i', "input", &input, "FILE", "the perf.data file (default perf.data)"),
	    OPT_MULTI('M', "metrics", &metrics, "METRICS",
		      "derived metrics of the recorded counts (perfev list metric)"),
	    OPT_STR('x', "field-separator", &sep, "SEP", "CSV output (RFC 4180) with SEP"),
	    OPT_FLAG('j', "json", &json, "one JSON document"),
	    OPT_TERMINATOR,
	};
	double elapsed = NAN, user = NAN, sys = NAN;
	struct stat_data d = {.exit_status = -1,
			      .elapsed_ns = &elapsed,
			      .user_ns = &user,
			      .sys_ns = &sys,
			      .cap_runs = 1};
	struct report rp = {.d = &d, .scale = true};
	struct perfev_sample_layout layout;
	struct perf_event_attr none = {.size = sizeof(none)};
	struct perfev_data_reader *r;
	struct perfev_data_record dr;
	char cmdline[4096], *desc;
	const void *feat;
	size_t feat_len;
	int err;

	if (parse_options(argc, argv, opts, report_usage, 0))
		usage_error(report_usage, opts, "perfev stat report takes no command");
	if (sep && json)
		usage_error(report_usage, opts, "choose -x or -j, not both");
	for (err = 0; err < metrics.n; err++) {
		const char *bad = stat_metrics_parse(&d, metrics.items[err]);

		if (bad)
			usage_error(report_usage, opts,
				    "cannot find metric '%s': 'perfev list metric' lists those "
				    "perfev derives",
				    bad);
	}
	err = perfev_data_open(input, NULL, &r);
	if (err)
		exit(input_open_error(input, err));
	if (perfev_data_feature(r, PERFEV_FEAT_STAT, &feat, &feat_len))
		cli_die("cannot show '%s' as counts: it was not written by stat record (no STAT "
			"feature); read it with perfev report",
			input);
	perfev_sample_layout_init(&layout, &none);
	describe_events(&d, r);
	d.format = json ? STAT_JSON : sep ? STAT_CSV : STAT_TEXT;
	d.sep = sep ? sep : ",";
	d.out = stderr;
	if (perfev_data_feature_string(r, PERFEV_FEAT_CMDLINE, cmdline, sizeof(cmdline)) < 0)
		snprintf(cmdline, sizeof(cmdline), "%s", input);
	desc = malloc(strlen(cmdline) + 3);
	if (!desc)
		cli_die("out of memory");
	sprintf(desc, "'%s'", cmdline);
	d.target_desc = desc;
	while ((err = perfev_data_next(r, &dr)) > 0) {
		struct perfev_record rec;

		if (dr.type < PERFEV_RECORD_THREAD_MAP || dr.type > PERFEV_RECORD_EVENT_UPDATE)
			continue;
		if ((err = perfev_record_decode(&layout, dr.bytes, dr.size, &rec)) < 0)
			break;
		switch (dr.type) {
		case PERFEV_RECORD_THREAD_MAP:
		case PERFEV_RECORD_CPU_MAP:
			read_maps(&rp, &rec);
			break;
		case PERFEV_RECORD_STAT_CONFIG:
			read_config(&rp, &rec);
			break;
		case PERFEV_RECORD_EVENT_UPDATE:
			read_update(&d, r, &rec);
			break;
		case PERFEV_RECORD_STAT:
			read_stat(&rp, r, &rec);
			break;
		case PERFEV_RECORD_STAT_ROUND:
			round_end(&rp, &rec);
			break;
		}
	}
	if (err < 0)
		cli_die("cannot read '%s': %s", input, perfev_strerror(err));
	if (rp.rounds)
		stat_print_interval_end(&d);
	else if (d.nruns)
		stat_print(&d);
	else
		cli_die("cannot show '%s': it holds no counts (no STAT_ROUND record)", input);
	perfev_data_close(r);
	free_report(&rp, desc);
	opt_list_release(&metrics);
	free(d.metrics);
	return fflush(stderr) || ferror(stderr) ? 1 : 0;
}
