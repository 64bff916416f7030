// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev stat output: perf's familiar text layout, RFC 4180 CSV (-x) and
 * one JSON document (-j), with derived metrics, multiplexing shown as
 * "% running", and run-to-run statistics for -r.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "output/json.h"
#include "stat.h"

/* ---- statistics --------------------------------------------------------- */

/* Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom. */
static const double t95[] = {
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

void stat_summary(const double *x, size_t n, double *mean, double *stddev, double *ci95)
{
	double m = 0, ss = 0, t;
	size_t i;

	for (i = 0; i < n; i++)
		m += x[i];
	m = n ? m / (double)n : 0;
	for (i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	*mean = m;
	*stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	t = n < 2 ? 0 : n - 1 <= 30 ? t95[n - 2] : 1.960;
	*ci95 = n > 1 ? t * *stddev / sqrt((double)n) : 0;
}

/* ---- aggregated values over runs ---------------------------------------- */

struct agg {
	bool supported, counted, valid;
	double value; /* mean over runs, scaled (unless --no-scale) and sysfs-scaled */
	double stddev, ci95;
	uint64_t enabled, running; /* sums over runs */
	double pct_running;
};

static double value_of(const struct stat_data *d, const struct stat_value *v,
		       const struct stat_event *e)
{
	double x = (double)(d->no_scale ? v->raw : v->scaled);

	return x * (e->scale ? e->scale : 1.0);
}

static struct agg aggregate(const struct stat_data *d, size_t ev, size_t unit)
{
	const struct stat_event *e = &d->ev[ev];
	struct agg a = {.supported = e->supported};
	double *xs = calloc(d->nruns ? d->nruns : 1, sizeof(*xs));
	size_t r, n = 0;

	if (!xs)
		abort();
	for (r = 0; r < d->nruns; r++) {
		const struct stat_value *v = stat_at(d, r, ev, unit);

		if (!v->valid)
			continue;
		a.valid = true;
		a.enabled += v->enabled;
		a.running += v->running;
		xs[n++] = value_of(d, v, e);
	}
	stat_summary(xs, n, &a.value, &a.stddev, &a.ci95);
	free(xs);
	/* Times per run, like the counts. */
	if (n) {
		a.enabled /= n;
		a.running /= n;
	}
	/* Tool events have no kernel times: always counted. */
	a.counted = e->tool ? a.valid : a.running > 0;
	a.pct_running = a.enabled ? 100.0 * (double)a.running / (double)a.enabled : 0;
	return a;
}

/* ---- metrics -------------------------------------------------------------- */

#define HW(c)		PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c
#define SW(c)		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c
#define CACHE_MISS(c)	PERF_TYPE_HW_CACHE, (PERF_COUNT_HW_CACHE_##c | 1ULL << 16)
#define CACHE_ACCESS(c) PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_##c

struct metric {
	uint32_t type;
	uint64_t config;
	uint32_t dtype; /* the denominator event */
	uint64_t dconfig;
	double factor;
	const char *unit;
};

/* Ratios of two counted events, as perf names them. */
static const struct metric metrics[] = {
    {HW(INSTRUCTIONS), HW(CPU_CYCLES), 1, "insn per cycle"},
    {HW(BRANCH_MISSES), HW(BRANCH_INSTRUCTIONS), 100, "% of all branches"},
    {HW(CACHE_MISSES), HW(CACHE_REFERENCES), 100, "% of all cache refs"},
    {HW(STALLED_CYCLES_FRONTEND), HW(CPU_CYCLES), 100, "% frontend cycles idle"},
    {HW(STALLED_CYCLES_BACKEND), HW(CPU_CYCLES), 100, "% backend cycles idle"},
    {CACHE_MISS(L1D), CACHE_ACCESS(L1D), 100, "% of all L1-dcache accesses"},
    {CACHE_MISS(L1I), CACHE_ACCESS(L1I), 100, "% of all L1-icache accesses"},
    {CACHE_MISS(LL), CACHE_ACCESS(LL), 100, "% of all LL-cache accesses"},
    {CACHE_MISS(DTLB), CACHE_ACCESS(DTLB), 100, "% of all dTLB cache accesses"},
    {CACHE_MISS(ITLB), CACHE_ACCESS(ITLB), 100, "% of all iTLB cache accesses"},
    {CACHE_MISS(BPU), CACHE_ACCESS(BPU), 100, "% of all branch cache accesses"},
};

struct metric_out {
	bool have;
	double value;
	const char *unit;
	char unit_buf[32];
	bool comparable; /* inputs counted in the same time slices */
};

static bool is_event(const struct stat_event *e, uint32_t type, uint64_t config)
{
	return e->supported && e->type == type && (e->config & 0xffffffffffULL) == config;
}

/* An event with this type/config, preferring @ev's own group. */
static int find_event(const struct stat_data *d, size_t ev, uint32_t type, uint64_t config)
{
	int found = -1;
	size_t i;

	for (i = 0; i < d->nev; i++) {
		if (!is_event(&d->ev[i], type, config))
			continue;
		if (d->ev[i].leader == d->ev[ev].leader)
			return (int)i;
		if (found < 0)
			found = (int)i;
	}
	return found;
}

/*
 * A ratio of two estimates taken in different time slices can be far
 * off: only trust it within a group or without multiplexing.
 */
static bool comparable(const struct stat_data *d, size_t x, size_t y, const struct agg *ax,
		       const struct agg *ay)
{
	return d->ev[x].leader == d->ev[y].leader ||
	       (ax->running == ax->enabled && ay->running == ay->enabled);
}

static bool is_clock(const struct stat_event *e)
{
	return is_event(e, SW(TASK_CLOCK)) || is_event(e, SW(CPU_CLOCK));
}

static void metric(const struct stat_data *d, size_t ev, size_t unit, const struct agg *a,
		   double elapsed, struct metric_out *m)
{
	const struct stat_event *e = &d->ev[ev];
	size_t k;
	int o;

	memset(m, 0, sizeof(*m));
	m->comparable = true;
	if (!a->counted)
		return;
	if (is_clock(e)) {
		if (elapsed > 0) {
			m->have = true;
			m->value = a->value / elapsed;
			m->unit = "CPUs utilized";
		}
		return;
	}
	if (is_event(e, HW(CPU_CYCLES))) {
		o = find_event(d, ev, SW(TASK_CLOCK));
		if (o < 0)
			o = find_event(d, ev, SW(CPU_CLOCK));
		if (o >= 0) {
			struct agg b = aggregate(d, (size_t)o, unit);

			if (b.counted && b.value > 0) {
				m->have = true;
				m->value = a->value / b.value;
				m->unit = "GHz";
			}
		}
		return;
	}
	for (k = 0; k < sizeof(metrics) / sizeof(metrics[0]); k++) {
		const struct metric *mt = &metrics[k];
		struct agg b;

		if (!is_event(e, mt->type, mt->config))
			continue;
		o = find_event(d, ev, mt->dtype, mt->dconfig);
		if (o < 0)
			break;
		b = aggregate(d, (size_t)o, unit);
		if (!b.counted || b.value <= 0)
			break;
		m->have = true;
		m->value = mt->factor * a->value / b.value;
		m->unit = mt->unit;
		m->comparable = comparable(d, ev, (size_t)o, a, &b);
		return;
	}
	/* Anything else: its rate per second of CPU time, as perf shows. */
	o = find_event(d, ev, SW(TASK_CLOCK));
	if (o < 0)
		o = find_event(d, ev, SW(CPU_CLOCK));
	if (o >= 0 && !e->tool) {
		struct agg b = aggregate(d, (size_t)o, unit);
		double rate;

		if (!b.counted || b.value <= 0)
			return;
		rate = a->value / (b.value / 1e9);
		m->have = true;
		if (rate >= 1e9) {
			m->value = rate / 1e9;
			m->unit = "G/sec";
		} else if (rate >= 1e6) {
			m->value = rate / 1e6;
			m->unit = "M/sec";
		} else if (rate >= 1e3) {
			m->value = rate / 1e3;
			m->unit = "K/sec";
		} else {
			m->value = rate;
			m->unit = "/sec";
		}
	}
}

/* ---- named metrics (-M) ----------------------------------------------------- */

enum named_state { NM_VALUE, NM_NOT_SUPPORTED, NM_NOT_COUNTED, NM_NOT_COMPARABLE };

/* The CPU clock counted: task-clock, else cpu-clock. */
static int clock_event(const struct stat_data *d)
{
	size_t i;

	for (i = 0; i < d->nev; i++)
		if (is_clock(&d->ev[i]))
			return (int)i;
	return -1;
}

/* Any event of this type and config, supported or not (for <not supported>). */
static bool asked_for(const struct stat_data *d, uint32_t type, uint64_t config)
{
	size_t i;

	for (i = 0; i < d->nev; i++)
		if (d->ev[i].type == type && (d->ev[i].config & 0xffffffffffULL) == config)
			return true;
	return false;
}

/* Metric @md for unit @u, with the default metrics' rule for inputs multiplexed apart. */
static enum named_state named_metric(const struct stat_data *d, const struct stat_metric_def *md,
				     size_t u, double elapsed, double *value)
{
	int n, o;
	struct agg a, b;

	if (md->hardware && d->no_pmu)
		return NM_NOT_SUPPORTED;
	n = md->kind == STAT_METRIC_PER_ELAPSED ? clock_event(d)
						: find_event(d, 0, md->ntype, md->nconfig);
	if (n < 0)
		return asked_for(d, md->ntype, md->nconfig) ? NM_NOT_SUPPORTED : NM_NOT_COUNTED;
	a = aggregate(d, (size_t)n, u);
	if (md->kind == STAT_METRIC_PER_ELAPSED) {
		if (!a.counted || elapsed <= 0)
			return NM_NOT_COUNTED;
		*value = a.value / elapsed;
		return NM_VALUE;
	}
	o = md->kind == STAT_METRIC_RATIO ? find_event(d, (size_t)n, md->dtype, md->dconfig)
					  : clock_event(d);
	if (o < 0)
		return md->kind == STAT_METRIC_RATIO && asked_for(d, md->dtype, md->dconfig)
			   ? NM_NOT_SUPPORTED
			   : NM_NOT_COUNTED;
	b = aggregate(d, (size_t)o, u);
	if (!a.counted || !b.counted || b.value <= 0)
		return NM_NOT_COUNTED;
	if (!comparable(d, (size_t)n, (size_t)o, &a, &b))
		return NM_NOT_COMPARABLE;
	*value = md->factor * a.value / b.value;
	return NM_VALUE;
}

static const char *const named_words[] = {NULL, "<not supported>", "<not counted>",
					  "<not comparable>"};

/* -M's lines: the value where the counts are, the metric's name where an event's is. */
static void text_metrics(const struct stat_data *d, size_t u, double elapsed, const char *prefix)
{
	size_t k;

	for (k = 0; k < d->nmetrics; k++) {
		const struct stat_metric_def *md = d->metrics[k];
		double v = 0;
		enum named_state st = named_metric(d, md, u, elapsed, &v);

		fputs(prefix, d->out);
		if (st == NM_VALUE)
			fprintf(d->out, "%18.3f      %-32s # %s\n", v, md->name, md->unit);
		else if (st == NM_NOT_COMPARABLE)
			fprintf(d->out, "%18s      %-32s # %s (multiplexed apart)\n",
				named_words[st], md->name, md->unit);
		else
			fprintf(d->out, "%18s      %s\n", named_words[st], md->name);
	}
}

/* ---- unit labels ----------------------------------------------------------- */

static void unit_label(const struct stat_data *d, size_t u, char *buf, size_t len)
{
	const struct perfev_unit *un = &d->units[u];

	switch (d->aggr) {
	case PERFEV_AGGR_GLOBAL:
		buf[0] = '\0';
		break;
	case PERFEV_AGGR_THREAD:
		snprintf(buf, len, "%d", (int)un->tid);
		break;
	case PERFEV_AGGR_CPU:
		snprintf(buf, len, "CPU%d", un->cpu);
		break;
	case PERFEV_AGGR_CORE:
		snprintf(buf, len, "S%d-D%d-C%d", un->socket, un->die, un->core);
		break;
	case PERFEV_AGGR_DIE:
		snprintf(buf, len, "S%d-D%d", un->socket, un->die);
		break;
	case PERFEV_AGGR_SOCKET:
		snprintf(buf, len, "S%d", un->socket);
		break;
	case PERFEV_AGGR_NODE:
		snprintf(buf, len, "N%d", un->node);
		break;
	}
}

static const char *aggr_name(enum perfev_aggr a)
{
	static const char *const names[] = {"global", "thread", "cpu", "core",
					    "die",    "socket", "node"};

	return (size_t)a < sizeof(names) / sizeof(names[0]) ? names[a] : "global";
}

/* Whether the notes of unsupported events blame a missing PMU. */
static bool have_pmu_note(const struct stat_data *d)
{
	size_t ev;

	for (ev = 0; ev < d->nev; ev++)
		if (d->ev[ev].implied && !d->ev[ev].supported && d->ev[ev].note &&
		    strstr(d->ev[ev].note, "no hardware PMU"))
			return true;
	return false;
}

/* No event of unit @u counted anything (a thread that never ran). */
static bool idle_unit(const struct stat_data *d, size_t u)
{
	size_t ev;

	for (ev = 0; ev < d->nev; ev++) {
		struct agg a = aggregate(d, ev, u);

		if (a.counted && a.value)
			return false;
	}
	return true;
}

/* ---- text ------------------------------------------------------------------- */

static bool clock_like(const struct stat_event *e)
{
	return is_clock(e) || e->tool;
}

static double mean_of(const double *x, size_t n)
{
	double m, sd, ci;

	stat_summary(x, n, &m, &sd, &ci);
	return m;
}

/* @big: the locale's thousands separators (perf's -B, its default). */
static void text_value(FILE *f, const struct stat_event *e, const struct agg *a, bool big)
{
	if (!e->supported) {
		fprintf(f, "%18s      ", "<not supported>");
		return;
	}
	if (!a->counted) {
		fprintf(f, "%18s      ", "<not counted>");
		return;
	}
	if (clock_like(e)) {
		fprintf(f, big ? "%'18.2f msec " : "%18.2f msec ", a->value / 1e6);
		return;
	}
	if (e->scale != 1.0 && e->scale)
		fprintf(f, "%18.2f %-5s", a->value, e->unit ? e->unit : "");
	else
		fprintf(f, big ? "%'18.0f      " : "%18.0f      ", a->value);
}

static void text_line(const struct stat_data *d, size_t ev, size_t u, double elapsed,
		      const char *prefix)
{
	const struct stat_event *e = &d->ev[ev];
	struct agg a = aggregate(d, ev, u);
	struct metric_out m;
	FILE *f = d->out;

	if (!a.valid && e->supported && !e->tool)
		return;
	metric(d, ev, u, &a, elapsed, &m);
	fputs(prefix, f);
	text_value(f, e, &a, d->big_num);
	fprintf(f, "%-32s", e->name);
	/* perf's formats: "  25.00% of all branches", but "  25.000 % of all cache refs". */
	if (m.have && m.comparable && m.unit[0] == '%' && strcmp(m.unit, "% of all cache refs"))
		fprintf(f, " # %7.2f%%%s", m.value, m.unit + 1);
	else if (m.have && m.comparable && !strcmp(m.unit, "insn per cycle"))
		fprintf(f, " # %7.2f  %s", m.value, m.unit);
	else if (m.have && m.comparable)
		fprintf(f, " # %8.3f %s", m.value, m.unit);
	else if (m.have)
		fprintf(f, " # %8s %s (not comparable: multiplexed apart)", "", m.unit);
	if (d->nruns > 1 && a.counted && a.value)
		fprintf(f, "  ( +- %5.2f%% )", 100.0 * a.ci95 / fabs(a.value));
	if (a.counted && !e->tool && a.running < a.enabled)
		fprintf(f, "  (%.2f%%)", a.pct_running);
	fputc('\n', f);
}

/*
 * The notes: fallbacks, and why an event asked for with -e is not
 * supported.  The unsupported events perfev added itself (the default
 * list, -d) share one line: their <not supported> says the rest, as perf
 * says nothing more.
 */
static void print_notes(const struct stat_data *d)
{
	size_t ev, n = 0, implied = 0;
	FILE *f = d->out;

	for (ev = 0; ev < d->nev; ev++) {
		const struct stat_event *e = &d->ev[ev];

		if (!e->note)
			continue;
		if (e->implied && !e->supported) {
			implied++;
			continue;
		}
		fprintf(f, "  note: %s: %s\n", e->name, e->note);
		n++;
	}
	for (ev = 0; ev < d->nmetrics; ev++)
		if (d->metrics[ev]->hardware && d->no_pmu) {
			fprintf(f,
				"  note: metric %s: its events (%s) need a hardware PMU, and this "
				"machine has none\n",
				d->metrics[ev]->name, d->metrics[ev]->events);
			n++;
		}
	if (implied) {
		fprintf(f,
			"  note: %zu of the events perfev adds (the defaults, -d) cannot be "
			"counted here%s\n",
			implied,
			have_pmu_note(d) ? ": there is no hardware PMU on this machine" : "");
		n++;
	}
	if (n)
		fputc('\n', f);
}

static void print_text(const struct stat_data *d)
{
	double mean_el, sd, ci;
	size_t ev, u, r, n = d->nruns;
	FILE *f = d->out;

	stat_summary(d->elapsed_ns, n, &mean_el, &sd, &ci);
	fprintf(f, "\n Performance counter stats for %s", d->target_desc);
	if (d->nruns > 1)
		fprintf(f, " (%zu runs; +- is the 95%% confidence interval of the mean)", d->nruns);
	fprintf(f, ":\n\n");
	for (u = 0; u < d->nunits; u++) {
		char label[64], prefix[80];

		if (d->hide_idle_units && idle_unit(d, u))
			continue;

		unit_label(d, u, label, sizeof(label));
		if (label[0])
			snprintf(prefix, sizeof(prefix), "%-12s ", label);
		else
			prefix[0] = '\0';
		for (ev = 0; ev < d->nev; ev++)
			text_line(d, ev, u, mean_el, prefix);
		text_metrics(d, u, mean_el, prefix);
		if (d->nunits > 1 && u + 1 < d->nunits)
			fputc('\n', f);
	}
	/* -n counts nothing: the time comes right after the title. */
	if (d->nev)
		fputc('\n', f);
	print_notes(d);
	if (d->table && d->nruns > 1) {
		fprintf(f, " %4s  %16s  %s\n", "run", "seconds", "delta from mean");
		for (r = 0; r < d->nruns; r++)
			fprintf(f, " %4zu  %16.9f  %+15.9f\n", r + 1, d->elapsed_ns[r] / 1e9,
				(d->elapsed_ns[r] - mean_el) / 1e9);
		fputc('\n', f);
	}
	fprintf(f, " %17.9f", mean_el / 1e9);
	if (d->nruns > 1)
		fprintf(f, " +- %.9f", ci / 1e9);
	fprintf(f, " seconds time elapsed");
	if (d->nruns > 1 && mean_el)
		fprintf(f, "  ( +- %5.2f%% )", 100.0 * ci / mean_el);
	fputc('\n', f);
	if (!isnan(d->user_ns[0])) {
		fprintf(f, "\n %17.9f seconds user\n", mean_of(d->user_ns, n) / 1e9);
		fprintf(f, " %17.9f seconds sys\n", mean_of(d->sys_ns, n) / 1e9);
	}
	fputc('\n', f);
}

/* ---- CSV (RFC 4180) ---------------------------------------------------------- */

static void csv_field(const struct stat_data *d, const char *s, bool first)
{
	FILE *f = d->out;
	const char *p;

	if (!first)
		fputs(d->sep, f);
	/* Quote when any character of the separator occurs, so no split is ambiguous. */
	if (!strpbrk(s, "\"\r\n") && !strpbrk(s, d->sep)) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (p = s; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

static void csv_num(const struct stat_data *d, int precision, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.*f", precision, v);
	csv_field(d, buf, false);
}

static void csv_g(const struct stat_data *d, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.6g", v);
	csv_field(d, buf, false);
}

/*
 * Columns: [time,] [unit,] value, unit, event, runtime_ns, pct_running,
 * metric_value, metric_unit[, stddev, ci95]  (the last two with -r).
 */
static void csv_line(const struct stat_data *d, size_t ev, size_t u, double elapsed,
		     const char *time_col)
{
	const struct stat_event *e = &d->ev[ev];
	struct agg a = aggregate(d, ev, u);
	struct metric_out m;
	char label[64], val[64];
	bool first = true;

	if (!a.valid && e->supported && !e->tool)
		return;
	metric(d, ev, u, &a, elapsed, &m);
	if (time_col) {
		csv_field(d, time_col, first);
		first = false;
	}
	unit_label(d, u, label, sizeof(label));
	if (label[0]) {
		csv_field(d, label, first);
		first = false;
	}
	if (!e->supported)
		snprintf(val, sizeof(val), "<not supported>");
	else if (!a.counted)
		snprintf(val, sizeof(val), "<not counted>");
	else if (clock_like(e))
		snprintf(val, sizeof(val), "%.2f", a.value / 1e6);
	else if (e->scale != 1.0 && e->scale)
		snprintf(val, sizeof(val), "%.6g", a.value);
	else
		snprintf(val, sizeof(val), "%.0f", a.value);
	csv_field(d, val, first);
	csv_field(d, clock_like(e) ? "msec" : e->unit ? e->unit : "", false);
	csv_field(d, e->name, false);
	csv_num(d, 0, (double)a.running);
	csv_num(d, 2, a.enabled ? a.pct_running : 0);
	if (m.have && m.comparable) {
		csv_g(d, m.value);
		csv_field(d, m.unit, false);
	} else {
		csv_field(d, "", false);
		csv_field(d, m.have ? "not comparable: multiplexed apart" : "", false);
	}
	if (d->nruns > 1) {
		csv_g(d, clock_like(e) ? a.stddev / 1e6 : a.stddev);
		csv_g(d, clock_like(e) ? a.ci95 / 1e6 : a.ci95);
	}
	fputc('\n', d->out);
}

/* -M's rows: the metric's value, its name in the event column, its unit in the metric's. */
static void csv_metrics(const struct stat_data *d, size_t u, double elapsed, const char *time_col)
{
	size_t k;

	for (k = 0; k < d->nmetrics; k++) {
		const struct stat_metric_def *md = d->metrics[k];
		double v = 0;
		enum named_state st = named_metric(d, md, u, elapsed, &v);
		char label[64], val[64];
		bool first = true;

		if (time_col) {
			csv_field(d, time_col, first);
			first = false;
		}
		unit_label(d, u, label, sizeof(label));
		if (label[0]) {
			csv_field(d, label, first);
			first = false;
		}
		if (st == NM_VALUE)
			snprintf(val, sizeof(val), "%.6g", v);
		else
			snprintf(val, sizeof(val), "%s", named_words[st]);
		csv_field(d, val, first);
		csv_field(d, "", false);
		csv_field(d, md->name, false);
		csv_field(d, "", false);
		csv_field(d, "", false);
		csv_field(d, "", false);
		csv_field(d, md->unit, false);
		fputc('\n', d->out);
	}
}

/* ---- JSON --------------------------------------------------------------------- */

static void json_unit(struct json *j, const struct stat_data *d, size_t u)
{
	const struct perfev_unit *un = &d->units[u];

	json_obj_begin(j);
	if (un->socket >= 0)
		json_ki64(j, "socket", un->socket);
	if (un->die >= 0)
		json_ki64(j, "die", un->die);
	if (un->core >= 0)
		json_ki64(j, "core", un->core);
	if (un->cpu >= 0)
		json_ki64(j, "cpu", un->cpu);
	if (un->node >= 0)
		json_ki64(j, "node", un->node);
	if (un->tid >= 0)
		json_ki64(j, "tid", un->tid);
	json_obj_end(j);
}

static void json_events(struct json *j, const struct stat_data *d, double elapsed)
{
	size_t ev, u, r;

	json_key(j, "events");
	json_arr_begin(j);
	for (ev = 0; ev < d->nev; ev++) {
		const struct stat_event *e = &d->ev[ev];

		json_obj_begin(j);
		json_kstr(j, "event", e->name);
		json_kbool(j, "supported", e->supported);
		json_kstr(j, "unit", clock_like(e) ? "msec" : e->unit);
		json_kstr(j, "note", e->note);
		json_key(j, "counts");
		json_arr_begin(j);
		for (u = 0; u < d->nunits; u++) {
			struct agg a = aggregate(d, ev, u);
			struct metric_out m;
			double shown = clock_like(e) ? a.value / 1e6 : a.value;

			metric(d, ev, u, &a, elapsed, &m);
			json_obj_begin(j);
			if (d->aggr != PERFEV_AGGR_GLOBAL) {
				json_key(j, aggr_name(d->aggr));
				json_unit(j, d, u);
			}
			json_kbool(j, "counted", a.counted);
			json_key(j, "value");
			if (a.counted)
				json_double(j, shown);
			else
				json_null(j);
			json_ku64(j, "time_enabled_ns", a.enabled);
			json_ku64(j, "time_running_ns", a.running);
			json_key(j, "percent_running");
			json_double(j, a.enabled ? a.pct_running : 0);
			json_key(j, "metric");
			if (m.have) {
				json_obj_begin(j);
				json_key(j, "value");
				json_double(j, m.value);
				json_kstr(j, "unit", m.unit);
				json_kbool(j, "comparable", m.comparable);
				json_obj_end(j);
			} else {
				json_null(j);
			}
			if (d->nruns > 1) {
				json_key(j, "stddev");
				json_double(j, clock_like(e) ? a.stddev / 1e6 : a.stddev);
				json_key(j, "ci95");
				json_double(j, clock_like(e) ? a.ci95 / 1e6 : a.ci95);
				json_key(j, "runs");
				json_arr_begin(j);
				for (r = 0; r < d->nruns; r++) {
					const struct stat_value *v = stat_at(d, r, ev, u);
					double x = value_of(d, v, e);

					if (!v->valid)
						json_null(j);
					else
						json_double(j, clock_like(e) ? x / 1e6 : x);
				}
				json_arr_end(j);
			}
			json_obj_end(j);
		}
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* -M: each metric's value per unit, null with the reason where there is none. */
static void json_metrics(struct json *j, const struct stat_data *d, double elapsed)
{
	static const char *const why[] = {NULL, "not supported", "not counted",
					  "not comparable: multiplexed apart"};
	size_t k, u;

	if (!d->nmetrics)
		return;
	json_key(j, "metrics");
	json_arr_begin(j);
	for (k = 0; k < d->nmetrics; k++) {
		const struct stat_metric_def *md = d->metrics[k];

		json_obj_begin(j);
		json_kstr(j, "metric", md->name);
		json_kstr(j, "unit", md->unit);
		json_key(j, "values");
		json_arr_begin(j);
		for (u = 0; u < d->nunits; u++) {
			double v = 0;
			enum named_state st = named_metric(d, md, u, elapsed, &v);

			json_obj_begin(j);
			if (d->aggr != PERFEV_AGGR_GLOBAL) {
				json_key(j, aggr_name(d->aggr));
				json_unit(j, d, u);
			}
			json_key(j, "value");
			if (st == NM_VALUE)
				json_double(j, v);
			else
				json_null(j);
			json_kstr(j, "why_none", why[st]);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void json_header(struct json *j, const struct stat_data *d)
{
	size_t i;

	json_obj_begin(j);
	json_key(j, "command");
	if (d->argv) {
		json_arr_begin(j);
		for (i = 0; d->argv[i]; i++)
			json_str(j, d->argv[i]);
		json_arr_end(j);
	} else {
		json_null(j);
	}
	json_kstr(j, "target", d->target_desc);
	json_kstr(j, "aggregation", aggr_name(d->aggr));
}

static void print_json(const struct stat_data *d)
{
	double mean_el, sd, ci;
	size_t n = d->nruns;
	struct json j;

	stat_summary(d->elapsed_ns, n, &mean_el, &sd, &ci);
	json_init(&j, d->out);
	json_header(&j, d);
	json_ku64(&j, "runs", d->nruns);
	json_key(&j, "elapsed_s");
	json_double(&j, mean_el / 1e9);
	if (d->nruns > 1) {
		json_key(&j, "elapsed_ci95_s");
		json_double(&j, ci / 1e9);
	}
	json_key(&j, "user_s");
	json_double(&j, isnan(d->user_ns[0]) ? NAN : mean_of(d->user_ns, n) / 1e9);
	json_key(&j, "system_s");
	json_double(&j, isnan(d->sys_ns[0]) ? NAN : mean_of(d->sys_ns, n) / 1e9);
	json_key(&j, "exit_status");
	if (d->exit_status >= 0)
		json_i64(&j, d->exit_status);
	else
		json_null(&j);
	json_key(&j, "signal");
	if (d->term_signal)
		json_i64(&j, d->term_signal);
	else
		json_null(&j);
	json_events(&j, d, mean_el);
	json_metrics(&j, d, mean_el);
	json_obj_end(&j);
	json_end(&j);
}

void stat_print(const struct stat_data *d)
{
	size_t ev, u;
	double mean_el, sd, ci;

	switch (d->format) {
	case STAT_TEXT:
		print_text(d);
		break;
	case STAT_JSON:
		print_json(d);
		break;
	case STAT_CSV:
		stat_summary(d->elapsed_ns, d->nruns, &mean_el, &sd, &ci);
		for (u = 0; u < d->nunits; u++) {
			for (ev = 0; ev < d->nev; ev++)
				csv_line(d, ev, u, mean_el, NULL);
			csv_metrics(d, u, mean_el, NULL);
		}
		break;
	}
}

/* ---- intervals ------------------------------------------------------------------ */

static struct json interval_json;

void stat_print_interval_begin(const struct stat_data *d)
{
	if (d->format != STAT_JSON) {
		if (d->format == STAT_TEXT)
			fprintf(d->out, "#%14s %s%18s      %s\n", "time",
				d->aggr == PERFEV_AGGR_GLOBAL ? "" : "unit         ", "counts",
				"event");
		return;
	}
	json_init(&interval_json, d->out);
	json_header(&interval_json, d);
	json_key(&interval_json, "intervals");
	json_arr_begin(&interval_json);
}

void stat_print_interval(const struct stat_data *d, double t_s, bool first)
{
	size_t ev, u;
	double span = d->elapsed_ns[0];

	(void)first;
	if (d->format == STAT_JSON) {
		json_obj_begin(&interval_json);
		json_key(&interval_json, "time_s");
		json_double(&interval_json, t_s);
		json_events(&interval_json, d, span);
		json_metrics(&interval_json, d, span);
		json_obj_end(&interval_json);
		return;
	}
	for (u = 0; u < d->nunits; u++) {
		char t[32], label[64], prefix[112];

		snprintf(t, sizeof(t), "%.9f", t_s);
		unit_label(d, u, label, sizeof(label));
		snprintf(prefix, sizeof(prefix), "%15s %s%s", t, label, label[0] ? "       " : "");
		for (ev = 0; ev < d->nev; ev++) {
			if (d->format == STAT_CSV)
				csv_line(d, ev, u, span, t);
			else
				text_line(d, ev, u, span, prefix);
		}
		if (d->format == STAT_CSV)
			csv_metrics(d, u, span, t);
		else
			text_metrics(d, u, span, prefix);
	}
}

void stat_print_interval_end(const struct stat_data *d)
{
	if (d->format != STAT_JSON)
		return;
	json_arr_end(&interval_json);
	json_key(&interval_json, "exit_status");
	if (d->exit_status >= 0)
		json_i64(&interval_json, d->exit_status);
	else
		json_null(&interval_json);
	json_key(&interval_json, "signal");
	if (d->term_signal)
		json_i64(&interval_json, d->term_signal);
	else
		json_null(&interval_json);
	json_obj_end(&interval_json);
	json_end(&interval_json);
}
