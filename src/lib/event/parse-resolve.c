// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What a name means: a generic hardware/software/tool event, a raw
 * rNNNN config, a hardware cache triple, or a sysfs PMU event alias;
 * and the "did you mean" hints when it is none of them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fnmatch.h>
#include "event/parse-internal.h"

/* ---- resolving names --------------------------------------------------- */

/*
 * "rHEX": 1 to 16 hex digits after a lower-case 'r'.  Inside terms perf
 * also takes "r0xHEX" (@allow_0x); as an event name that is an error.
 */
bool perfev__parse_raw(const char *w, size_t n, bool allow_0x, uint64_t *config)
{
	uint64_t v = 0;
	size_t i = 1;

	if (allow_0x && n > 3 && w[0] == 'r' && w[1] == '0' && w[2] == 'x')
		i = 3;
	if (n < i + 1 || w[0] != 'r' || n > i + 16)
		return false;
	for (; i < n; i++) {
		char c = w[i];
		unsigned int d;

		if (is_digit(c))
			d = (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned int)(c - 'A' + 10);
		else
			return false;
		v = v << 4 | d;
	}
	*config = v;
	return true;
}

/* Match one op/result part at w[*i] (followed by '-' or the end). */
static int cache_part(const char *w, size_t n, size_t *i, int *op, int *res)
{
	size_t end;

	/* Parts may contain '-' ("speculative-read"): try the longest first. */
	for (end = n; end > *i; end--) {
		if (end < n && w[end] != '-')
			continue;
		*op = perfev__cache_op(w + *i, end - *i);
		*res = perfev__cache_result(w + *i, end - *i);
		if (*op >= 0 || *res >= 0) {
			*i = end;
			return 0;
		}
	}
	return -1;
}

/*
 * "L1-dcache-load-misses": cache [-op|result [-op|result]].  Returns 1 if
 * the word is a cache event, 0 if not, or an error for an invalid
 * combination.
 */
static int parse_cache(struct parser *p, const char *w, size_t n, size_t off, uint64_t *config)
{
	size_t clen;
	int cache = -1;

	for (clen = n; clen > 0; clen--) {
		if (clen < n && w[clen] != '-')
			continue;
		cache = perfev__cache_type(w, clen);
		if (cache >= 0)
			break;
	}
	if (cache < 0)
		return 0;

	int op = -1, res = -1, parts = 0;
	size_t i = clen;

	while (i < n) {
		int pop, pres;
		size_t ps;

		if (w[i] != '-' || parts == 2)
			return 0;
		ps = ++i;
		if (cache_part(w, n, &i, &pop, &pres))
			return 0;
		parts++;
		/*
		 * Like perf: a part counts as the operation if none is set yet,
		 * else as the result; a part that fits neither slot is ignored.
		 */
		if (op < 0 && pop >= 0) {
			if (!perfev__cache_op_valid((unsigned int)cache, (unsigned int)pop)) {
				char hint[128];
				size_t pos = 0;
				unsigned int k;

				perfev__bprintf(hint, sizeof(hint), &pos, "'%s' supports:",
						perfev__cache_name((unsigned int)cache));
				for (k = 0; k < PERF_COUNT_HW_CACHE_OP_MAX; k++)
					if (perfev__cache_op_valid((unsigned int)cache, k))
						perfev__bprintf(hint, sizeof(hint), &pos, " %s",
								k == 0	 ? "load"
								: k == 1 ? "store"
									 : "prefetch");
				return perfev__parse_fail(p, -EINVAL, off + ps, i - ps, hint,
							  "cache '%s' has no '%.*s' operation",
							  perfev__cache_name((unsigned int)cache),
							  (int)(i - ps), w + ps);
			}
			op = pop;
		} else if (res < 0 && pres >= 0) {
			res = pres;
		}
	}
	if (op < 0)
		op = PERF_COUNT_HW_CACHE_OP_READ;
	if (res < 0)
		res = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	*config = (uint64_t)cache | (uint64_t)op << 8 | (uint64_t)res << 16;
	return 1;
}

/* Collect every known event name close to @w into a hint. */
static void event_hint(struct parser *p, const char *w, size_t n, char *hint, size_t len)
{
	struct perfev__suggest sg;
	char buf[64];
	size_t i, j, np;
	uint64_t cfg;

	perfev__suggest_init(&sg, w, n);
	for (i = 0; i < perfev_symbol_count(); i++) {
		perfev__suggest_add(&sg, perfev_symbol_get(i)->name);
		if (perfev_symbol_get(i)->alias)
			perfev__suggest_add(&sg, perfev_symbol_get(i)->alias);
	}
	for (i = 0; perfev_cache_event_get(i, buf, sizeof(buf), &cfg) >= 0; i++)
		perfev__suggest_add(&sg, buf);
	if (p->pmus) {
		np = perfev_pmus_count(p->pmus);
		for (i = 0; i < np; i++) {
			const struct perfev_pmu *pmu = perfev_pmus_get(p->pmus, i);
			size_t na = perfev_pmu_alias_count(pmu);

			perfev__suggest_add(&sg, perfev_pmu_name(pmu));
			for (j = 0; j < na; j++)
				perfev__suggest_add(&sg, perfev_pmu_alias(pmu, j)->name);
		}
	}
	perfev__suggest_hint(&sg, hint, len);
	if (!hint[0])
		snprintf(hint, len, "'perfev list' shows the events of this machine");
}

/* PMUs a name refers to: exact, glob, or the numbered instances of uncore PMUs. */
size_t perfev__match_pmus(struct parser *p, const char *w, size_t n, const struct perfev_pmu **out,
			  size_t max)
{
	char name[256];
	size_t i, cnt = 0, np;
	const struct perfev_pmu *pmu;

	if (!p->pmus || n >= sizeof(name))
		return 0;
	memcpy(name, w, n);
	name[n] = '\0';
	pmu = perfev_pmus_find(p->pmus, name);
	if (pmu) {
		out[0] = pmu;
		return 1;
	}
	np = perfev_pmus_count(p->pmus);
	for (i = 0; i < np && cnt < max; i++) {
		const char *pn;
		size_t k;

		pmu = perfev_pmus_get(p->pmus, i);
		pn = perfev_pmu_name(pmu);
		if (has_glob(w, n)) {
			if (fnmatch(name, pn, 0))
				continue;
		} else {
			/* "uncore_imc" names uncore_imc_0, uncore_imc_1, ... */
			if (strncmp(pn, name, n) || pn[n] != '_' || !pn[n + 1])
				continue;
			for (k = n + 1; pn[k] && is_digit(pn[k]); k++)
				;
			if (pn[k])
				continue;
		}
		out[cnt++] = pmu;
	}
	return cnt;
}

static enum perfev_event_kind kind_of_type(uint32_t type)
{
	switch (type) {
	case PERF_TYPE_HARDWARE:
		return PERFEV_KIND_HARDWARE;
	case PERF_TYPE_SOFTWARE:
		return PERFEV_KIND_SOFTWARE;
	case PERF_TYPE_TRACEPOINT:
		return PERFEV_KIND_TRACEPOINT;
	case PERF_TYPE_HW_CACHE:
		return PERFEV_KIND_CACHE;
	case PERF_TYPE_BREAKPOINT:
		return PERFEV_KIND_BREAKPOINT;
	default:
		return PERFEV_KIND_PMU;
	}
}

/* Generic names: hardware, software, tool, raw and cache.  1: made, 0: not one. */
int perfev__make_generic(struct parser *p, const char *w, size_t n, size_t off)
{
	const struct perfev_symbol *sym;
	enum perfev_tool_event tool;
	struct perfev__event *ev;
	uint64_t cfg = 0;
	int r;

	sym = perfev__symbol_lookup(w, n, &tool);
	if (sym) {
		ev = perfev__new_event(p, sym->kind, sym->type, sym->config);
		if (!ev)
			return p->errcode;
		if (sym->kind == PERFEV_KIND_SOFTWARE &&
		    perfev__set_str(p, &ev->pmu, "software", strlen("software")))
			return p->errcode;
		ev->tool = tool;
		if (tool && perfev__set_str(p, &ev->unit, "ns", 2))
			return p->errcode;
		return 1;
	}
	if (perfev__parse_raw(w, n, false, &cfg)) {
		if (!perfev__new_event(p, PERFEV_KIND_RAW, PERF_TYPE_RAW, cfg))
			return p->errcode;
		return 1;
	}
	r = parse_cache(p, w, n, off, &cfg);
	if (r <= 0)
		return r;
	if (!perfev__new_event(p, PERFEV_KIND_CACHE, PERF_TYPE_HW_CACHE, cfg))
		return p->errcode;
	return 1;
}

/*
 * "TYPE:CONFIG": an attr type and config given as numbers, opened as
 * they are (an unknown type fails at the kernel, as in perf).  The PMU
 * of that type, when sysfs has one, names it.
 */
struct perfev__event *perfev__new_numeric_event(struct parser *p, uint32_t type, uint64_t config)
{
	const struct perfev_pmu *pmu = p->pmus ? perfev_pmus_find_type(p->pmus, type) : NULL;
	struct perfev__event *ev;

	ev = perfev__new_event(p, type == PERF_TYPE_RAW ? PERFEV_KIND_RAW : kind_of_type(type),
			       type, config);
	if (ev && pmu &&
	    perfev__set_str(p, &ev->pmu, perfev_pmu_name(pmu), strlen(perfev_pmu_name(pmu))))
		return NULL;
	return ev;
}

struct perfev__event *perfev__new_pmu_event(struct parser *p, const struct perfev_pmu *pmu)
{
	struct perfev__event *ev;
	uint32_t type = perfev_pmu_type(pmu);

	ev = perfev__new_event(p, kind_of_type(type), type, 0);
	if (ev && perfev__set_str(p, &ev->pmu, perfev_pmu_name(pmu), strlen(perfev_pmu_name(pmu))))
		return NULL;
	return ev;
}

/* A bare name that is a sysfs alias of one or more PMUs ("tsc" = msr/tsc/). */
int perfev__make_alias_events(struct parser *p, const char *w, size_t n, size_t off)
{
	char name[256];
	size_t i, np, made = 0;

	if (!p->pmus || n >= sizeof(name))
		return 0;
	memcpy(name, w, n);
	name[n] = '\0';
	np = perfev_pmus_count(p->pmus);
	for (i = 0; i < np; i++) {
		const struct perfev_pmu *pmu = perfev_pmus_get(p->pmus, i);
		const struct perfev_alias *al = perfev_pmu_alias_find(pmu, name);
		struct required req = {0};
		struct perfev__event *ev;

		if (!al)
			continue;
		ev = perfev__new_pmu_event(p, pmu);
		if (!ev || perfev__apply_alias(p, ev, pmu, al, off, n, &req, 0) ||
		    perfev__check_required(p, &req))
			return p->errcode;
		made++;
	}
	return made ? 1 : 0;
}

int perfev__unknown_event(struct parser *p, const char *w, size_t n, size_t off)
{
	char hint[192];
	const struct perfev_pmu *pmus[1];

	if (perfev__match_pmus(p, w, n, pmus, 1)) {
		const struct perfev_alias *al =
		    perfev_pmu_alias_count(pmus[0]) ? perfev_pmu_alias(pmus[0], 0) : NULL;

		if (al)
			snprintf(hint, sizeof(hint), "name one of its events, e.g. %.*s/%s/",
				 (int)n, w, al->name);
		else
			snprintf(hint, sizeof(hint), "give its terms, e.g. %.*s/config=N/", (int)n,
				 w);
		return perfev__parse_fail(p, -ENOENT, off, n, hint, "'%.*s' is a PMU, not an event",
					  (int)n, w);
	}

	event_hint(p, w, n, hint, sizeof(hint));
	return perfev__parse_fail(p, -ENOENT, off, n, hint, "unknown event '%.*s'", (int)n, w);
}
