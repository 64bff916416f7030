// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev list: every event this machine offers, grouped as perf list
 * groups them, optionally filtered, as text or one JSON document.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "output/json.h"
#include "options.h"
#include "perfev-cli.h"
#include "stat.h"

static const char *const list_usage[] = {
    "perfev list [-j] [-d] [hw|sw|cache|tool|raw|pmu|tracepoint|metric|GLOB...]",
    NULL,
};

enum section {
	S_HW = 1 << 0,
	S_SW = 1 << 1,
	S_TOOL = 1 << 2,
	S_CACHE = 1 << 3,
	S_RAW = 1 << 4,
	S_PMU = 1 << 5,
	S_TP = 1 << 6,
	S_ALL = 0x7f,
	S_METRIC = 1 << 7, /* only when asked for */
};

struct lister {
	bool json, details;
	unsigned int sections;
	const char **globs;
	int nglobs;
	struct json j;
	int hw_state; /* 1 supported, 0 not, -1 unknown */
	int cache_state;
	size_t shown;
	const char *section_open; /* text: heading printed for the current section? */
};

static const struct {
	const char *word;
	unsigned int sections;
} keywords[] = {
    {"hw", S_HW},	   {"hardware", S_HW},	      {"sw", S_SW},	{"software", S_SW},
    {"cache", S_CACHE},	   {"hwcache", S_CACHE},      {"tool", S_TOOL}, {"raw", S_RAW},
    {"pmu", S_PMU},	   {"tracepoint", S_TP},      {"tp", S_TP},	{"metric", S_METRIC},
    {"metrics", S_METRIC}, {"metricgroup", S_METRIC},
};

static const struct {
	const char *form;
	const char *desc;
} syntax[] = {
    {"rNNN", "raw PMU event: config in hex (see the CPU vendor's manual)"},
    {"pmu/term=value,.../[modifiers]", "PMU event by sysfs format terms or alias"},
    {"event/term=value,.../", "terms on any event: config, config1, config2, config3, "
			      "name, period, freq, call-graph, stack-size, max-stack, inherit, "
			      "no-inherit, overwrite, no-overwrite, branch_type, time, percore"},
    {"mem:<addr>[/len][:access]", "hardware breakpoint; access r, w, x (default rw)"},
    {"sys:name", "tracepoint; * and ? globs match several"},
    {"{event,event,...}[:modifiers]", "group: scheduled together on the PMU"},
};

static const struct {
	char letter;
	const char *meaning;
} modifiers[] = {
    {'u', "count user space"},
    {'k', "count the kernel"},
    {'h', "count the hypervisor"},
    {'I', "do not count when idle"},
    {'G', "count in guests"},
    {'H', "count in the host"},
    {'p', "precise: p constant skid, pp asked zero skid, ppp zero skid"},
    {'P', "highest precise level the PMU accepts"},
    {'S', "read all group counts in each sample (leader sampling)"},
    {'D', "pin the event (group) to the PMU"},
    {'W', "weak group: split it when it cannot be scheduled"},
    {'e', "exclusive: the group is alone on the PMU"},
    {'b', "count with BPF"},
    {'R', "retire latency"},
};

static bool matches(const struct lister *l, const char *name, const char *alias)
{
	int i;

	if (!l->nglobs)
		return true;
	for (i = 0; i < l->nglobs; i++) {
		const char *g = l->globs[i];
		bool glob = strpbrk(g, "*?[") != NULL;

		if (glob ? !fnmatch(g, name, FNM_CASEFOLD) : strcasestr(name, g) != NULL)
			return true;
		if (alias &&
		    (glob ? !fnmatch(g, alias, FNM_CASEFOLD) : strcasestr(alias, g) != NULL))
			return true;
	}
	return false;
}

static void heading(struct lister *l, const char *title)
{
	if (l->json || l->section_open == title)
		return;
	printf("%s%s:\n", l->shown ? "\n" : "", title);
	l->section_open = title;
}

static void text_line(struct lister *l, const char *title, const char *name, const char *alias,
		      const char *kind, const char *desc, int supported)
{
	char left[160];

	heading(l, title);
	if (alias)
		snprintf(left, sizeof(left), "%s OR %s", name, alias);
	else
		snprintf(left, sizeof(left), "%s", name);
	printf("  %-48s [%s%s]\n", left, kind, supported == 0 ? ", not supported here" : "");
	if (l->details && desc)
		printf("      %s\n", desc);
	l->shown++;
}

static void json_event(struct lister *l, const char *name, const char *alias, const char *kind,
		       const char *pmu, int64_t type, int64_t config, const char *encoding,
		       const char *desc, const char *unit, int supported)
{
	struct json *j = &l->j;

	json_obj_begin(j);
	json_kstr(j, "name", name);
	json_key(j, "aliases");
	json_arr_begin(j);
	if (alias)
		json_str(j, alias);
	json_arr_end(j);
	json_kstr(j, "kind", kind);
	json_kstr(j, "pmu", pmu);
	json_key(j, "type");
	if (type >= 0)
		json_i64(j, type);
	else
		json_null(j);
	json_key(j, "config");
	if (config >= 0)
		json_i64(j, config);
	else
		json_null(j);
	json_kstr(j, "encoding", encoding);
	json_kstr(j, "description", desc);
	json_kstr(j, "unit", unit);
	json_key(j, "supported");
	if (supported < 0)
		json_null(j);
	else
		json_bool(j, supported);
	json_obj_end(j);
	l->shown++;
}

/* The metrics perfev stat -M derives (stat-metrics.c); JSON: the "metrics" array. */
static void list_metrics(struct lister *l)
{
	size_t i;

	if (l->json) {
		json_key(&l->j, "metrics");
		json_arr_begin(&l->j);
	}
	for (i = 0; i < stat_metric_count; i++) {
		const struct stat_metric_def *m = &stat_metric_defs[i];
		int supported = m->hardware ? l->hw_state : 1;

		if (!matches(l, m->name, NULL))
			continue;
		if (!l->json) {
			text_line(l, "metrics", m->name, NULL, m->desc, NULL, supported);
			if (l->details)
				printf("      events: %s%s\n", m->events[0] ? m->events : "",
				       m->kind == STAT_METRIC_RATIO ? ""
				       : m->events[0]		    ? " and the CPU clock"
								    : "the CPU clock");
			continue;
		}
		json_obj_begin(&l->j);
		json_kstr(&l->j, "name", m->name);
		json_kstr(&l->j, "description", m->desc);
		json_kstr(&l->j, "events", m->events);
		json_kstr(&l->j, "unit", m->unit);
		json_key(&l->j, "supported");
		if (supported < 0)
			json_null(&l->j);
		else
			json_bool(&l->j, supported);
		json_obj_end(&l->j);
		l->shown++;
	}
	if (l->json)
		json_arr_end(&l->j);
}

static void list_symbols(struct lister *l, enum perfev_event_kind kind, const char *title,
			 const char *label, int supported)
{
	size_t i;

	for (i = 0; i < perfev_symbol_count(); i++) {
		const struct perfev_symbol *s = perfev_symbol_get(i);
		char enc[64];

		if (s->kind != kind || !matches(l, s->name, s->alias))
			continue;
		snprintf(enc, sizeof(enc), "type=%u,config=%#llx", s->type,
			 (unsigned long long)s->config);
		if (l->json)
			json_event(l, s->name, s->alias, perfev_event_kind_name(kind), NULL,
				   s->type, (int64_t)s->config, enc, s->desc,
				   kind == PERFEV_KIND_TOOL ? "ns" : NULL, supported);
		else
			text_line(l, title, s->name, s->alias, label, s->desc, supported);
	}
}

static void list_cache(struct lister *l)
{
	char name[64], enc[64];
	uint64_t cfg;
	size_t i;

	for (i = 0; perfev_cache_event_get(i, name, sizeof(name), &cfg) >= 0; i++) {
		if (!matches(l, name, NULL))
			continue;
		snprintf(enc, sizeof(enc), "type=3,config=%#llx", (unsigned long long)cfg);
		if (l->json)
			json_event(l, name, NULL, "cache", NULL, PERF_TYPE_HW_CACHE, (int64_t)cfg,
				   enc, NULL, NULL, l->cache_state);
		else
			text_line(l, "hardware cache events", name, NULL, "Hardware cache event",
				  NULL, l->cache_state);
	}
}

static void list_raw(struct lister *l)
{
	size_t i;

	for (i = 0; i < sizeof(syntax) / sizeof(syntax[0]); i++) {
		if (l->nglobs && !matches(l, syntax[i].form, NULL))
			continue;
		if (l->json) {
			json_obj_begin(&l->j);
			json_kstr(&l->j, "form", syntax[i].form);
			json_kstr(&l->j, "description", syntax[i].desc);
			json_obj_end(&l->j);
		} else {
			heading(l, "syntax");
			printf("  %-48s %s\n", syntax[i].form, syntax[i].desc);
			l->shown++;
		}
	}
}

static void list_pmu_events(struct lister *l, const struct perfev_pmus *pmus)
{
	size_t i, k, np = perfev_pmus_count(pmus);

	for (i = 0; i < np; i++) {
		const struct perfev_pmu *pmu = perfev_pmus_get(pmus, i);
		size_t na = perfev_pmu_alias_count(pmu);

		for (k = 0; k < na; k++) {
			const struct perfev_alias *a = perfev_pmu_alias(pmu, k);
			char name[512], enc[1024];

			snprintf(name, sizeof(name), "%s/%s/", perfev_pmu_name(pmu), a->name);
			if (!matches(l, name, NULL))
				continue;
			snprintf(enc, sizeof(enc), "%s/%s/", perfev_pmu_name(pmu), a->terms);
			if (l->json) {
				json_event(l, name, a->name, "pmu", perfev_pmu_name(pmu),
					   perfev_pmu_type(pmu), -1, enc, NULL, a->unit, -1);
			} else {
				text_line(l, "kernel PMU events", name, NULL, "Kernel PMU event",
					  NULL, -1);
				if (l->details)
					printf("      %s%s%s\n", enc, a->unit ? "  unit: " : "",
					       a->unit ? a->unit : "");
			}
		}
	}
}

static void json_pmus(struct lister *l, const struct perfev_pmus *pmus)
{
	struct json *j = &l->j;
	size_t i, k, np = perfev_pmus_count(pmus);

	json_key(j, "pmus");
	json_arr_begin(j);
	for (i = 0; i < np; i++) {
		const struct perfev_pmu *pmu = perfev_pmus_get(pmus, i);

		if (!matches(l, perfev_pmu_name(pmu), NULL) &&
		    !(l->sections == S_PMU && !l->nglobs))
			continue;
		json_obj_begin(j);
		json_kstr(j, "name", perfev_pmu_name(pmu));
		json_ku64(j, "type", perfev_pmu_type(pmu));
		json_kstr(j, "cpumask", perfev_pmu_cpumask(pmu));
		json_key(j, "rdpmc");
		if (perfev_pmu_rdpmc(pmu) >= 0)
			json_i64(j, perfev_pmu_rdpmc(pmu));
		else
			json_null(j);
		json_key(j, "mux_interval_ms");
		if (perfev_pmu_mux_interval_ms(pmu) >= 0)
			json_i64(j, perfev_pmu_mux_interval_ms(pmu));
		else
			json_null(j);
		json_key(j, "formats");
		json_arr_begin(j);
		for (k = 0; k < perfev_pmu_format_count(pmu); k++) {
			const struct perfev_format *f = perfev_pmu_format(pmu, k);
			static const char *const words[] = {"config", "config1", "config2",
							    "config3"};

			json_obj_begin(j);
			json_kstr(j, "name", f->name);
			json_kstr(j, "field", words[f->word & 3]);
			json_ku64(j, "mask", f->mask);
			json_ku64(j, "bits", f->nbits);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_key(j, "caps");
		json_obj_begin(j);
		for (k = 0; k < perfev_pmu_cap_count(pmu); k++)
			json_kstr(j, perfev_pmu_cap(pmu, k)->name, perfev_pmu_cap(pmu, k)->value);
		json_obj_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void text_pmus(struct lister *l, const struct perfev_pmus *pmus)
{
	size_t i, k, np = perfev_pmus_count(pmus);

	for (i = 0; i < np; i++) {
		const struct perfev_pmu *pmu = perfev_pmus_get(pmus, i);

		if (l->nglobs && !matches(l, perfev_pmu_name(pmu), NULL))
			continue;
		heading(l, "PMUs (name, type, format terms)");
		printf("  %-20s type %-4u", perfev_pmu_name(pmu), perfev_pmu_type(pmu));
		for (k = 0; k < perfev_pmu_format_count(pmu); k++) {
			const struct perfev_format *f = perfev_pmu_format(pmu, k);

			printf(" %s(config%.0u:%#llx)", f->name, f->word,
			       (unsigned long long)f->mask);
		}
		putchar('\n');
		if (l->details) {
			if (perfev_pmu_cpumask(pmu))
				printf("      cpumask: %s\n", perfev_pmu_cpumask(pmu));
			if (perfev_pmu_rdpmc(pmu) >= 0)
				printf("      rdpmc: %d\n", perfev_pmu_rdpmc(pmu));
			for (k = 0; k < perfev_pmu_cap_count(pmu); k++)
				printf("      caps/%s: %s\n", perfev_pmu_cap(pmu, k)->name,
				       perfev_pmu_cap(pmu, k)->value);
		}
		l->shown++;
	}
}

struct tp_ctx {
	struct lister *l;
};

static int tp_cb(const char *sys, const char *name, void *ctx)
{
	struct lister *l = ((struct tp_ctx *)ctx)->l;
	char full[512];

	snprintf(full, sizeof(full), "%s:%s", sys, name);
	if (!matches(l, full, NULL))
		return 0;
	if (l->json)
		json_event(l, full, NULL, "tracepoint", "tracepoint", PERF_TYPE_TRACEPOINT, -1,
			   full, NULL, NULL, -1);
	else
		text_line(l, "tracepoints", full, NULL, "Tracepoint event", NULL, -1);
	return 0;
}

int cmd_list(int argc, const char **argv)
{
	struct lister l = {.hw_state = -1, .cache_state = -1};
	const struct option opts[] = {
	    OPT_FLAG('j', "json", &l.json, "print one JSON document"),
	    OPT_FLAG('d', "details", &l.details, "show descriptions, encodings and PMU details"),
	    OPT_TERMINATOR,
	};
	struct perfev_pmus *pmus;
	struct perfev_tracefs *tfs;
	struct cli_env env;
	struct tp_ctx tc = {&l};
	int nargs, i, tfs_err, status = 0;
	const char **globs;

	nargs = parse_options(argc, argv, opts, list_usage, 0);
	globs = calloc((size_t)nargs + 1, sizeof(*globs));
	if (!globs)
		cli_die("out of memory");
	for (i = 0; i < nargs; i++) {
		size_t k;

		for (k = 0; k < sizeof(keywords) / sizeof(keywords[0]); k++)
			if (!strcmp(argv[i], keywords[k].word))
				break;
		if (k < sizeof(keywords) / sizeof(keywords[0]))
			l.sections |= keywords[k].sections;
		else
			globs[l.nglobs++] = argv[i];
	}
	l.globs = globs;
	if (!l.sections)
		l.sections = S_ALL;

	cli_env_init(&env);
	cli_env_open(&env, l.sections & S_TP);
	pmus = env.pmus;
	tfs = env.tracefs_handle;
	tfs_err = env.tracefs_error;
	if (!env.sysfs_root) {
		if (l.sections & (S_HW | S_METRIC))
			l.hw_state = cli_can_count(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
		if (l.sections & S_CACHE)
			l.cache_state = cli_can_count(PERF_TYPE_HW_CACHE, 0);
	}

	if (l.json) {
		json_init(&l.j, stdout);
		json_obj_begin(&l.j);
		json_key(&l.j, "events");
		json_arr_begin(&l.j);
	}
	if (l.sections & S_HW)
		list_symbols(&l, PERFEV_KIND_HARDWARE, "hardware events", "Hardware event",
			     l.hw_state);
	if (l.sections & S_SW)
		list_symbols(&l, PERFEV_KIND_SOFTWARE, "software events", "Software event", 1);
	if (l.sections & S_TOOL)
		list_symbols(&l, PERFEV_KIND_TOOL, "tool events", "Tool event", 1);
	if (l.sections & S_CACHE)
		list_cache(&l);
	if (l.sections & S_PMU)
		list_pmu_events(&l, pmus);
	if ((l.sections & S_TP) && !tfs_err)
		perfev_tracefs_foreach(tfs, NULL, NULL, tp_cb, &tc);
	if ((l.sections & S_METRIC) && !l.json)
		list_metrics(&l);
	if (l.json) {
		json_arr_end(&l.j);
		if (l.sections & S_METRIC)
			list_metrics(&l);
		if (l.sections & S_PMU)
			json_pmus(&l, pmus);
		if (l.sections & S_RAW) {
			json_key(&l.j, "syntax");
			json_arr_begin(&l.j);
			list_raw(&l);
			json_arr_end(&l.j);
			json_key(&l.j, "modifiers");
			json_obj_begin(&l.j);
			for (i = 0; i < (int)(sizeof(modifiers) / sizeof(modifiers[0])); i++) {
				char k[2] = {modifiers[i].letter, 0};

				json_kstr(&l.j, k, modifiers[i].meaning);
			}
			json_obj_end(&l.j);
		}
		if (l.sections & S_TP) {
			json_key(&l.j, "tracefs");
			json_obj_begin(&l.j);
			json_kstr(&l.j, "path", tfs_err ? NULL : perfev_tracefs_path(tfs));
			json_kstr(&l.j, "error", tfs_err ? perfev_strerror(tfs_err) : NULL);
			json_obj_end(&l.j);
		}
		json_obj_end(&l.j);
		json_end(&l.j);
	} else {
		if (l.sections & S_PMU)
			text_pmus(&l, pmus);
		if (l.sections & S_RAW) {
			list_raw(&l);
			if (!l.nglobs) {
				printf("\nmodifiers (event:mods):\n");
				for (i = 0; i < (int)(sizeof(modifiers) / sizeof(modifiers[0]));
				     i++)
					printf("  %c  %s\n", modifiers[i].letter,
					       modifiers[i].meaning);
			}
		}
		if ((l.sections & S_TP) && tfs_err && l.sections == S_TP) {
			cli_error("cannot list tracepoints: tracefs is %s (%s)",
				  tfs_err == -EACCES ? "not readable by this user" : "not mounted",
				  tfs_err == -EACCES
				      ? "run as root"
				      : "mount -t tracefs nodev /sys/kernel/tracing");
			status = 1;
		} else if ((l.sections & S_TP) && tfs_err)
			printf("\ntracepoints: not listed, tracefs is %s\n",
			       tfs_err == -EACCES ? "not readable by this user (run as root)"
						  : "not mounted (mount -t tracefs nodev "
						    "/sys/kernel/tracing)");
	}
	/* Like grep: a filter that matches nothing is a failure. */
	if (!l.shown && l.nglobs) {
		cli_error("no event matches '%s'", l.globs[0]);
		status = 1;
	}
	free(globs);
	cli_env_release(&env);
	return status;
}
