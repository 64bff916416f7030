/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* perfev stat: what the measuring side hands to the printing side. */
#ifndef PERFEV_CLI_STAT_H
#define PERFEV_CLI_STAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <perfev/perfev.h>

/* One event, one aggregation unit, one run (or interval). */
struct stat_value {
	uint64_t raw, enabled, running, scaled;
	bool valid; /* a reading exists (the unit had an open counter) */
};

struct stat_event {
	char *name;
	uint32_t type; /* after fallbacks */
	uint64_t config;
	int leader; /* group leader's index (itself when alone) */
	bool supported;
	enum perfev_tool_event tool;
	double scale; /* sysfs .scale */
	char *unit;   /* sysfs .unit, "msec" for clocks, "ns" for tools */
	char *note;   /* fallbacks or why unsupported */
	bool implied; /* from the default list or -d, not asked for with -e */
};

enum stat_format { STAT_TEXT, STAT_CSV, STAT_JSON };

/* A metric of -M (stat-metrics.c). */
enum stat_metric_kind {
	STAT_METRIC_RATIO,	 /* factor * numerator / denominator */
	STAT_METRIC_PER_CLOCK,	 /* factor * numerator / CPU clock (ns) */
	STAT_METRIC_PER_ELAPSED, /* CPU clock / wall time */
};

struct stat_metric_def {
	const char *name; /* perf's name */
	const char *desc;
	const char *events; /* what -M counts for it (the CPU clock added for the clock kinds) */
	enum stat_metric_kind kind;
	uint32_t ntype; /* numerator */
	uint64_t nconfig;
	uint32_t dtype; /* denominator of a ratio */
	uint64_t dconfig;
	double factor;
	const char *unit;
	bool hardware; /* its events need a hardware PMU */
};

extern const struct stat_metric_def stat_metric_defs[];
extern const size_t stat_metric_count;
const struct stat_metric_def *stat_metric_find(const char *name);
struct stat_data;
/* Add the metrics named in @list (commas between) to @d; the first unknown name, or NULL. */
const char *stat_metrics_parse(struct stat_data *d, const char *list);

struct stat_data {
	/* What was measured. */
	size_t nev;
	struct stat_event *ev;
	enum perfev_aggr aggr;
	size_t nunits;
	struct perfev_unit *units;
	const char *target_desc; /* "'true'", "process 123", "system wide" */
	char *const *argv;	 /* the command, or NULL */
	size_t nasked;		 /* events of -e or the default list; -d's follow them */
	bool implied_defaults;	 /* no -e: the default list */
	bool hide_idle_units;	 /* -a --per-thread: only the threads that counted something */
	const struct stat_metric_def **metrics; /* -M, shown after the events */
	size_t nmetrics;
	bool no_pmu; /* -M's hardware metrics were not counted: no hardware PMU */

	/* Results: [run][event][unit]. */
	size_t nruns, cap_runs;
	struct stat_value *v;
	double *elapsed_ns;
	double *user_ns, *sys_ns; /* per run; NaN when unknown */
	int exit_status;	  /* of the last run's command, -1 when none */
	int term_signal;	  /* the signal that killed it, 0 when none */

	/* How to print. */
	enum stat_format format;
	const char *sep;
	bool no_scale;
	bool big_num;	     /* text: counts with the locale's thousands separators */
	bool quiet;	     /* --quiet: nothing printed */
	bool interval_clear; /* -I --interval-clear: the screen cleared before each interval */
	bool table;	     /* per-run table with -r */
	FILE *out;
};

static inline struct stat_value *stat_at(const struct stat_data *d, size_t run, size_t ev,
					 size_t unit)
{
	return &d->v[(run * d->nev + ev) * d->nunits + unit];
}

/* stat-print.c */
void stat_print(const struct stat_data *d);
/* Interval mode: one block (text/CSV) or one array element (JSON) per interval. */
void stat_print_interval_begin(const struct stat_data *d);
void stat_print_interval(const struct stat_data *d, double t_s, bool first);
void stat_print_interval_end(const struct stat_data *d);
/* "( +-  1.23% )" helpers, exposed for tests: mean, sample stddev, 95% CI half-width. */
void stat_summary(const double *x, size_t n, double *mean, double *stddev, double *ci95);

/* stat-record.c: perfev stat record's perf.data file. */
struct stat_rec;
/* Create @path for the run of `perfev stat @argv...` (exits on failure). */
struct stat_rec *stat_record_create(const char *path, int argc, const char **argv);
/* The attrs with their ids, units and scales, thread and CPU maps, the configuration. */
void stat_record_events(struct stat_rec *r, const struct perfev_session *s,
			const struct stat_data *d, int interval_ms);
/* The session's counts as last read, per event and descriptor. */
void stat_record_counts(struct stat_rec *r, const struct perfev_session *s);
void stat_record_round(struct stat_rec *r, bool final, uint64_t time_ns);
void stat_record_finish(struct stat_rec *r);
/* perf's enum aggr_mode as perfev's aggregation. */
enum perfev_aggr stat_aggr_from_perf(uint64_t mode);

/* stat-report.c: perfev stat report. */
int stat_report(int argc, const char **argv);

#endif /* PERFEV_CLI_STAT_H */
