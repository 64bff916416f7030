// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Name tables of the generic events: hardware, software, tool events and
 * the hardware cache matrix, with every spelling Linux perf accepts.
 */
#include <errno.h>
#include <stdio.h>
#include <strings.h>
#include "common/internal.h"
#include "event/parse.h"

static const struct perfev_symbol symbols[] = {
    {"cpu-cycles", "cycles", PERFEV_KIND_HARDWARE, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
     "CPU cycles (frequency scaling changes their duration)"},
    {"instructions", NULL, PERFEV_KIND_HARDWARE, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
     "retired instructions"},
    {"cache-references", NULL, PERFEV_KIND_HARDWARE, PERF_TYPE_HARDWARE,
     PERF_COUNT_HW_CACHE_REFERENCES, "cache accesses, usually the last level cache"},
    {"cache-misses", NULL, PERFEV_KIND_HARDWARE, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES,
     "cache misses, usually the last level cache"},
    {"branch-instructions", "branches", PERFEV_KIND_HARDWARE, PERF_TYPE_HARDWARE,
     PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "retired branch instructions"},
    {"branch-misses", NULL, PERFEV_KIND_HARDWARE, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES,
     "mispredicted branch instructions"},
    {"bus-cycles", NULL, PERFEV_KIND_HARDWARE, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES,
     "bus cycles"},
    {"stalled-cycles-frontend", "idle-cycles-frontend", PERFEV_KIND_HARDWARE, PERF_TYPE_HARDWARE,
     PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, "cycles stalled in the instruction issue stage"},
    {"stalled-cycles-backend", "idle-cycles-backend", PERFEV_KIND_HARDWARE, PERF_TYPE_HARDWARE,
     PERF_COUNT_HW_STALLED_CYCLES_BACKEND, "cycles stalled in the instruction retire stage"},
    {"ref-cycles", NULL, PERFEV_KIND_HARDWARE, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES,
     "reference cycles, unaffected by frequency scaling"},

    {"cpu-clock", NULL, PERFEV_KIND_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
     "per-CPU high resolution timer (ns)"},
    {"task-clock", NULL, PERFEV_KIND_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK,
     "time the task ran on a CPU (ns)"},
    {"page-faults", "faults", PERFEV_KIND_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS,
     "page faults"},
    {"context-switches", "cs", PERFEV_KIND_SOFTWARE, PERF_TYPE_SOFTWARE,
     PERF_COUNT_SW_CONTEXT_SWITCHES, "context switches"},
    {"cpu-migrations", "migrations", PERFEV_KIND_SOFTWARE, PERF_TYPE_SOFTWARE,
     PERF_COUNT_SW_CPU_MIGRATIONS, "moves of the task to another CPU"},
    {"minor-faults", NULL, PERFEV_KIND_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN,
     "page faults served without disk I/O"},
    {"major-faults", NULL, PERFEV_KIND_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ,
     "page faults that needed disk I/O"},
    {"alignment-faults", NULL, PERFEV_KIND_SOFTWARE, PERF_TYPE_SOFTWARE,
     PERF_COUNT_SW_ALIGNMENT_FAULTS, "unaligned accesses fixed up by the kernel"},
    {"emulation-faults", NULL, PERFEV_KIND_SOFTWARE, PERF_TYPE_SOFTWARE,
     PERF_COUNT_SW_EMULATION_FAULTS, "instructions emulated by the kernel"},
    {"dummy", NULL, PERFEV_KIND_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY,
     "counts nothing; carries side-band records"},
    {"bpf-output", NULL, PERFEV_KIND_SOFTWARE, PERF_TYPE_SOFTWARE, PERFEV_COUNT_SW_BPF_OUTPUT,
     "output channel of BPF programs"},
    {"cgroup-switches", NULL, PERFEV_KIND_SOFTWARE, PERF_TYPE_SOFTWARE,
     PERFEV_COUNT_SW_CGROUP_SWITCHES, "switches to a task in another cgroup"},

    {"duration_time", NULL, PERFEV_KIND_TOOL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY,
     "wall-clock time of the measurement (ns)"},
    {"user_time", NULL, PERFEV_KIND_TOOL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY,
     "user CPU time of the measured command (ns)"},
    {"system_time", NULL, PERFEV_KIND_TOOL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY,
     "system CPU time of the measured command (ns)"},
};

size_t perfev_symbol_count(void)
{
	return PERFEV__ARRAY_SIZE(symbols);
}

const struct perfev_symbol *perfev_symbol_get(size_t idx)
{
	return idx < PERFEV__ARRAY_SIZE(symbols) ? &symbols[idx] : NULL;
}

/* Generic names are case-sensitive in perf's lexer: "CS" is not "cs". */
const struct perfev_symbol *perfev__symbol_lookup(const char *name, size_t len,
						  enum perfev_tool_event *tool)
{
	size_t i;

	for (i = 0; i < PERFEV__ARRAY_SIZE(symbols); i++) {
		const struct perfev_symbol *s = &symbols[i];

		if ((strlen(s->name) == len && !memcmp(s->name, name, len)) ||
		    (s->alias && strlen(s->alias) == len && !memcmp(s->alias, name, len))) {
			if (tool) {
				*tool = PERFEV_TOOL_NONE;
				if (s->kind == PERFEV_KIND_TOOL)
					*tool = (enum perfev_tool_event)(
					    i - (PERFEV__ARRAY_SIZE(symbols) - 3) + 1);
			}
			return s;
		}
	}
	return NULL;
}

/* ---- hardware cache events --------------------------------------------- */

#define MAX_ALIASES 8

static const char *const cache_names[PERF_COUNT_HW_CACHE_MAX][MAX_ALIASES] = {
    [PERF_COUNT_HW_CACHE_L1D] = {"L1-dcache", "l1-d", "l1d", "L1-data"},
    [PERF_COUNT_HW_CACHE_L1I] = {"L1-icache", "l1-i", "l1i", "L1-instruction"},
    [PERF_COUNT_HW_CACHE_LL] = {"LLC", "L2"},
    [PERF_COUNT_HW_CACHE_DTLB] = {"dTLB", "d-tlb", "Data-TLB"},
    [PERF_COUNT_HW_CACHE_ITLB] = {"iTLB", "i-tlb", "Instruction-TLB"},
    /* "branches" is the hardware event: perf never reads it as a cache. */
    [PERF_COUNT_HW_CACHE_BPU] = {"branch", "bpu", "btb", "bpc"},
    [PERF_COUNT_HW_CACHE_NODE] = {"node"},
};

static const char *const cache_ops[PERF_COUNT_HW_CACHE_OP_MAX][MAX_ALIASES] = {
    [PERF_COUNT_HW_CACHE_OP_READ] = {"load", "loads", "read"},
    [PERF_COUNT_HW_CACHE_OP_WRITE] = {"store", "stores", "write"},
    [PERF_COUNT_HW_CACHE_OP_PREFETCH] = {"prefetch", "prefetches", "speculative-read",
					 "speculative-load"},
};

static const char *const cache_results[PERF_COUNT_HW_CACHE_RESULT_MAX][MAX_ALIASES] = {
    [PERF_COUNT_HW_CACHE_RESULT_ACCESS] = {"refs", "Reference", "ops", "access"},
    [PERF_COUNT_HW_CACHE_RESULT_MISS] = {"misses", "miss"},
};

#define OPB(op) (1U << PERF_COUNT_HW_CACHE_OP_##op)
/* Which operations each cache supports; others are refused as perf does. */
static const unsigned int cache_valid_ops[PERF_COUNT_HW_CACHE_MAX] = {
    [PERF_COUNT_HW_CACHE_L1D] = OPB(READ) | OPB(WRITE) | OPB(PREFETCH),
    [PERF_COUNT_HW_CACHE_L1I] = OPB(READ) | OPB(PREFETCH),
    [PERF_COUNT_HW_CACHE_LL] = OPB(READ) | OPB(WRITE) | OPB(PREFETCH),
    [PERF_COUNT_HW_CACHE_DTLB] = OPB(READ) | OPB(WRITE) | OPB(PREFETCH),
    [PERF_COUNT_HW_CACHE_ITLB] = OPB(READ),
    [PERF_COUNT_HW_CACHE_BPU] = OPB(READ),
    [PERF_COUNT_HW_CACHE_NODE] = OPB(READ) | OPB(WRITE) | OPB(PREFETCH),
};

bool perfev__cache_op_valid(unsigned int cache, unsigned int op)
{
	return cache < PERF_COUNT_HW_CACHE_MAX && (cache_valid_ops[cache] >> op & 1);
}

/* Exact, case-sensitive match of one part against a table row set. */
static int match_part(const char *const table[][MAX_ALIASES], size_t rows, const char *s,
		      size_t len)
{
	size_t i, j;

	for (i = 0; i < rows; i++)
		for (j = 0; j < MAX_ALIASES && table[i][j]; j++)
			if (strlen(table[i][j]) == len && !memcmp(table[i][j], s, len))
				return (int)i;
	return -1;
}

int perfev__cache_type(const char *s, size_t len)
{
	return match_part(cache_names, PERF_COUNT_HW_CACHE_MAX, s, len);
}

int perfev__cache_op(const char *s, size_t len)
{
	return match_part(cache_ops, PERF_COUNT_HW_CACHE_OP_MAX, s, len);
}

int perfev__cache_result(const char *s, size_t len)
{
	return match_part(cache_results, PERF_COUNT_HW_CACHE_RESULT_MAX, s, len);
}

const char *perfev__cache_name(unsigned int cache)
{
	return cache < PERF_COUNT_HW_CACHE_MAX ? cache_names[cache][0] : NULL;
}

int perfev_cache_event_get(size_t idx, char *buf, size_t len, uint64_t *config)
{
	unsigned int c, op, res;
	size_t n = 0;

	for (c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++)
		for (op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			if (!perfev__cache_op_valid(c, op))
				continue;
			for (res = 0; res < PERF_COUNT_HW_CACHE_RESULT_MAX; res++) {
				int w;

				if (n++ != idx)
					continue;
				/* perf's canonical names: "LLC-loads", "LLC-load-misses". */
				if (res == PERF_COUNT_HW_CACHE_RESULT_ACCESS)
					w = snprintf(buf, len, "%s-%s", cache_names[c][0],
						     cache_ops[op][1]);
				else
					w = snprintf(buf, len, "%s-%s-%s", cache_names[c][0],
						     cache_ops[op][0], cache_results[res][0]);
				if (config)
					*config = c | (op << 8) | (res << 16);
				return w;
			}
		}
	return -ENOENT;
}

const char *perfev_event_kind_name(enum perfev_event_kind kind)
{
	switch (kind) {
	case PERFEV_KIND_HARDWARE:
		return "hardware";
	case PERFEV_KIND_SOFTWARE:
		return "software";
	case PERFEV_KIND_TRACEPOINT:
		return "tracepoint";
	case PERFEV_KIND_CACHE:
		return "cache";
	case PERFEV_KIND_RAW:
		return "raw";
	case PERFEV_KIND_BREAKPOINT:
		return "breakpoint";
	case PERFEV_KIND_PMU:
		return "pmu";
	case PERFEV_KIND_TOOL:
		return "tool";
	}
	return NULL;
}
