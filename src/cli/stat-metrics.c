// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The metrics perfev stat derives itself, by name, for -M and for
 * perfev list metric: each a ratio of two generic events, an event per
 * second of CPU clock, or the clock per second of wall time.  The names
 * are perf's (its common metrics: insn_per_cycle, branch_miss_rate, ...;
 * IPC and CPI as perf's Intel tables name them).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "perfev-cli.h"
#include "stat.h"

#define HW(c)	      PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c
#define SW(c)	      PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c
#define CACHE(c, res) PERF_TYPE_HW_CACHE, (PERF_COUNT_HW_CACHE_##c | (uint64_t)(res) << 16)
#define NONE	      0, 0

const struct stat_metric_def stat_metric_defs[] = {
    {"CPUs_utilized", "Average CPU utilization: CPU clock over wall time", "",
     STAT_METRIC_PER_ELAPSED, NONE, NONE, 1, "CPUs", false},
    {"cs_per_second", "Context switches per CPU second", "context-switches", STAT_METRIC_PER_CLOCK,
     SW(CONTEXT_SWITCHES), NONE, 1e9, "cs/sec", false},
    {"migrations_per_second", "Process migrations to a new CPU per CPU second", "cpu-migrations",
     STAT_METRIC_PER_CLOCK, SW(CPU_MIGRATIONS), NONE, 1e9, "migrations/sec", false},
    {"page_faults_per_second", "Page faults per CPU second", "page-faults", STAT_METRIC_PER_CLOCK,
     SW(PAGE_FAULTS), NONE, 1e9, "faults/sec", false},
    {"insn_per_cycle", "Instructions per cycle", "{instructions,cycles}:W", STAT_METRIC_RATIO,
     HW(INSTRUCTIONS), HW(CPU_CYCLES), 1, "insn per cycle", true},
    {"IPC", "Instructions per cycle (insn_per_cycle)", "{instructions,cycles}:W", STAT_METRIC_RATIO,
     HW(INSTRUCTIONS), HW(CPU_CYCLES), 1, "insn per cycle", true},
    {"CPI", "Cycles per instruction", "{instructions,cycles}:W", STAT_METRIC_RATIO, HW(CPU_CYCLES),
     HW(INSTRUCTIONS), 1, "cycles per insn", true},
    {"frontend_cycles_idle", "Frontend stalls per cycle", "{stalled-cycles-frontend,cycles}:W",
     STAT_METRIC_RATIO, HW(STALLED_CYCLES_FRONTEND), HW(CPU_CYCLES), 100, "% frontend cycles idle",
     true},
    {"backend_cycles_idle", "Backend stalls per cycle", "{stalled-cycles-backend,cycles}:W",
     STAT_METRIC_RATIO, HW(STALLED_CYCLES_BACKEND), HW(CPU_CYCLES), 100, "% backend cycles idle",
     true},
    {"cycles_frequency", "Cycles per CPU second", "cycles", STAT_METRIC_PER_CLOCK, HW(CPU_CYCLES),
     NONE, 1, "GHz", true},
    {"branch_frequency", "Branches per CPU second", "branches", STAT_METRIC_PER_CLOCK,
     HW(BRANCH_INSTRUCTIONS), NONE, 1e3, "M/sec", true},
    {"branch_miss_rate", "Branch miss rate", "{branch-misses,branches}:W", STAT_METRIC_RATIO,
     HW(BRANCH_MISSES), HW(BRANCH_INSTRUCTIONS), 100, "% of all branches", true},
    {"cache_miss_rate", "Cache misses per cache reference", "{cache-misses,cache-references}:W",
     STAT_METRIC_RATIO, HW(CACHE_MISSES), HW(CACHE_REFERENCES), 100, "% of all cache refs", true},
    {"l1d_miss_rate", "L1 data cache load misses per load",
     "{L1-dcache-load-misses,L1-dcache-loads}:W", STAT_METRIC_RATIO, CACHE(L1D, 1), CACHE(L1D, 0),
     100, "% of all L1-dcache accesses", true},
    {"llc_miss_rate", "Last level cache load misses per load", "{LLC-load-misses,LLC-loads}:W",
     STAT_METRIC_RATIO, CACHE(LL, 1), CACHE(LL, 0), 100, "% of all LL-cache accesses", true},
    {"l1i_miss_rate", "L1 instruction cache load misses per load",
     "{L1-icache-load-misses,L1-icache-loads}:W", STAT_METRIC_RATIO, CACHE(L1I, 1), CACHE(L1I, 0),
     100, "% of all L1-icache accesses", true},
    {"dtlb_miss_rate", "Data TLB load misses per load", "{dTLB-load-misses,dTLB-loads}:W",
     STAT_METRIC_RATIO, CACHE(DTLB, 1), CACHE(DTLB, 0), 100, "% of all dTLB cache accesses", true},
    {"itlb_miss_rate", "Instruction TLB load misses per load", "{iTLB-load-misses,iTLB-loads}:W",
     STAT_METRIC_RATIO, CACHE(ITLB, 1), CACHE(ITLB, 0), 100, "% of all iTLB cache accesses", true},
};

const size_t stat_metric_count = sizeof(stat_metric_defs) / sizeof(stat_metric_defs[0]);

/* perf matches metric names without regard to case. */
const struct stat_metric_def *stat_metric_find(const char *name)
{
	size_t i;

	for (i = 0; i < stat_metric_count; i++)
		if (!strcasecmp(stat_metric_defs[i].name, name))
			return &stat_metric_defs[i];
	return NULL;
}

const char *stat_metrics_parse(struct stat_data *d, const char *list)
{
	static char bad[128];
	char *copy = strdup(list), *save = NULL, *name;
	size_t cap = d->nmetrics;

	if (!copy)
		cli_die("out of memory");
	/* An empty name is no metric: said as one not found (perf: "Cannot find metric"). */
	if (!*list || *list == ',' || list[strlen(list) - 1] == ',' || strstr(list, ",,")) {
		snprintf(bad, sizeof(bad), "%s", list);
		free(copy);
		return bad;
	}
	for (name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		const struct stat_metric_def *md = stat_metric_find(name);

		if (!md) {
			snprintf(bad, sizeof(bad), "%s", name);
			free(copy);
			return bad;
		}
		cli_grow(&d->metrics, &cap, d->nmetrics + 1, sizeof(*d->metrics));
		d->metrics[d->nmetrics++] = md;
	}
	free(copy);
	return NULL;
}
