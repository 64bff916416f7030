// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Terms: pmu/key=value,.../ -- the generic config terms (period, freq,
 * call-graph, ...), PMU format fields and sysfs event aliases.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <perfev/attr.h>
#include "event/parse-internal.h"

/* ---- terms ------------------------------------------------------------------ */

enum cterm {
	CT_NONE,
	CT_CONFIG,
	CT_CONFIG1,
	CT_CONFIG2,
	CT_CONFIG3,
	CT_NAME,
	CT_PERIOD,
	CT_FREQ,
	CT_BRANCH_TYPE,
	CT_TIME,
	CT_CALLGRAPH,
	CT_STACK_SIZE,
	CT_MAX_STACK,
	CT_NR,
	CT_INHERIT,
	CT_NO_INHERIT,
	CT_OVERWRITE,
	CT_NO_OVERWRITE,
	CT_DRIVER_CONFIG,
	CT_PERCORE,
	CT_AUX_OUTPUT,
	CT_AUX_SAMPLE_SIZE,
	CT_METRIC_ID,
};

static const struct {
	const char *name;
	enum cterm id;
	bool string;	 /* value is a string */
	bool pmu_only;	 /* meaningless on generic events */
	bool tracepoint; /* taken on tracepoints (perf's config_term_tracepoint()) */
} cterms[] = {
    {"config", CT_CONFIG, false, false, false},
    {"config1", CT_CONFIG1, false, false, false},
    {"config2", CT_CONFIG2, false, false, false},
    {"config3", CT_CONFIG3, false, false, false},
    {"name", CT_NAME, true, false, false},
    {"period", CT_PERIOD, false, false, false},
    {"freq", CT_FREQ, false, false, false},
    {"branch_type", CT_BRANCH_TYPE, true, false, false},
    {"time", CT_TIME, false, false, false},
    {"call-graph", CT_CALLGRAPH, true, false, true},
    {"stack-size", CT_STACK_SIZE, false, false, true},
    {"max-stack", CT_MAX_STACK, false, false, true},
    {"nr", CT_NR, false, false, true},
    {"inherit", CT_INHERIT, false, false, true},
    {"no-inherit", CT_NO_INHERIT, false, false, true},
    {"overwrite", CT_OVERWRITE, false, false, true},
    {"no-overwrite", CT_NO_OVERWRITE, false, false, true},
    {"driver-config", CT_DRIVER_CONFIG, true, true, false},
    {"percore", CT_PERCORE, false, false, false},
    {"aux-output", CT_AUX_OUTPUT, false, false, true},
    {"aux-sample-size", CT_AUX_SAMPLE_SIZE, false, false, true},
    {"metric-id", CT_METRIC_ID, true, false, false},
};

static int cterm_find(const char *k, size_t n)
{
	size_t i;

	for (i = 0; i < PERFEV__ARRAY_SIZE(cterms); i++)
		if (strlen(cterms[i].name) == n && !memcmp(cterms[i].name, k, n))
			return (int)i;
	return -1;
}

static bool is_key_char(char c)
{
	return is_alpha(c) || is_digit(c) || c == '_' || c == '-' || c == '.';
}

static bool is_value_char(char c)
{
	return c && c != ',' && c != '/' && c != '\'' && !is_space(c);
}

/*
 * What perf's lexer takes between quotes: a name of letters, digits and
 * _*?-,.[]:=! not starting with a digit, '-', ',', '.', ':', '=' or '!'
 * (so "name='a,b'" and "name='x:y'" work), or a number.
 */
static bool quoted_value_ok(const char *s, size_t n)
{
	uint64_t v;
	size_t i;

	if (perfev__parse_number(s, n, &v) == 0)
		return true;
	if (!n || !(is_alpha(s[0]) || strchr("_*?[]", s[0])))
		return false;
	for (i = 1; i < n; i++)
		if (!(is_alpha(s[i]) || is_digit(s[i]) || strchr("_*?-,.[]:=!", s[i])))
			return false;
	return true;
}

/*
 * Split "k=v,k2,..." (from the user's string or a sysfs alias) into
 * terms.  @base is the offset errors point at for alias text.
 */
static int split_terms(struct parser *p, const char *s, size_t n, size_t base, bool from_alias,
		       struct term *out, size_t *cnt)
{
	size_t i = 0;

	while (i < n) {
		struct term *t;
		size_t ks = i;

		while (i < n && is_space(s[i]))
			i++;
		ks = i;
		while (i < n && is_key_char(s[i]))
			i++;
		if (i == ks)
			return perfev__parse_fail(p, -EINVAL, from_alias ? base : base + i, 1, NULL,
						  from_alias ? "malformed sysfs event description"
							     : "expected a term name");
		if (*cnt >= MAX_TERMS)
			return perfev__parse_fail(p, -EINVAL, from_alias ? base : base + ks, i - ks,
						  NULL, "too many terms (at most %d)", MAX_TERMS);
		t = &out[(*cnt)++];
		memset(t, 0, sizeof(*t));
		t->key = s + ks;
		t->klen = i - ks;
		t->from_alias = from_alias;
		t->off = from_alias ? base : base + ks;
		if (i < n && s[i] == '=' && i + 1 < n && s[i + 1] == '\'') {
			size_t vs = i + 2;

			for (i = vs; i < n && s[i] != '\''; i++)
				;
			if (i == n)
				return perfev__parse_fail(p, -EINVAL,
							  from_alias ? base : base + vs - 1, 1,
							  NULL, "missing closing quote");
			if (!quoted_value_ok(s + vs, i - vs))
				return perfev__parse_fail(
				    p, -EINVAL, from_alias ? base : base + vs - 1, i - vs + 2,
				    "a quoted value is a number, or a name of letters, digits and "
				    "_*?-,.[]:=! that starts with a letter, _*?[ or ]",
				    "invalid quoted value for '%.*s'", (int)t->klen, t->key);
			t->val = s + vs;
			t->vlen = i++ - vs;
		} else if (i < n && s[i] == '=') {
			size_t vs = ++i;

			while (i < n && is_value_char(s[i]))
				i++;
			if (i == vs)
				return perfev__parse_fail(p, -EINVAL, from_alias ? base : base + vs,
							  0, NULL, "missing value after '%.*s='",
							  (int)t->klen, t->key);
			t->val = s + vs;
			t->vlen = i - vs;
		}
		t->span = from_alias ? 0 : i - ks;
		while (i < n && is_space(s[i]))
			i++;
		if (i < n) {
			if (s[i] != ',')
				return perfev__parse_fail(
				    p, -EINVAL, from_alias ? base : base + i, 1, NULL,
				    "expected ',' or '/' after term '%.*s'", (int)t->klen, t->key);
			i++;
			if (i == n)
				return perfev__parse_fail(p, -EINVAL, from_alias ? base : base + i,
							  0, NULL, "expected a term after ','");
		}
	}
	return 0;
}

/* Read '/' terms '/' at p->pos. */
int perfev__scan_terms(struct parser *p, struct term *terms, size_t *n, size_t *start)
{
	size_t s;

	p->pos++; /* '/' */
	s = p->pos;
	/* A quoted value may hold ',' or ':', never the closing '/'. */
	while (p->pos < p->len && p->s[p->pos] != '/') {
		if (p->s[p->pos] == '\'') {
			const char *q = memchr(p->s + p->pos + 1, '\'', p->len - p->pos - 1);

			if (!q)
				return perfev__parse_fail(p, -EINVAL, p->pos, 1, NULL,
							  "missing closing quote");
			p->pos = (size_t)(q - p->s);
		}
		p->pos++;
	}
	if (p->pos == p->len)
		return perfev__parse_fail(p, -EINVAL, s - 1, 1,
					  "terms are written pmu/term=value,.../",
					  "missing closing '/'");
	*start = s;
	*n = 0;
	if (split_terms(p, p->s + s, p->pos - s, s, false, terms, n))
		return p->errcode;
	p->pos++; /* '/' */
	return 0;
}

static int term_number(struct parser *p, const struct term *t, uint64_t *v)
{
	int err;

	if (!t->val) {
		*v = 1;
		return 0;
	}
	err = perfev__parse_number(t->val, t->vlen, v);
	if (err == -ERANGE)
		return perfev__parse_fail(p, -ERANGE, t->off, t->span, NULL,
					  "value of '%.*s' does not fit in 64 bits", (int)t->klen,
					  t->key);
	if (err)
		return perfev__parse_fail(p, -EINVAL, t->off, t->span,
					  "numbers are decimal or 0x-prefixed hex",
					  "expected a number for '%.*s', got '%.*s'", (int)t->klen,
					  t->key, (int)t->vlen, t->val);
	return 0;
}

/*
 * The user registers sampled for DWARF unwinding: all general ones, as
 * perf's PERF_REGS_MASK (x86_64 leaves out DS, ES, FS and GS, which a
 * 64-bit kernel refuses).
 */
#if defined(__x86_64__)
#define DWARF_REGS_MASK 0xff0fffULL
#elif defined(__i386__)
#define DWARF_REGS_MASK 0xffffULL
#elif defined(__aarch64__)
#define DWARF_REGS_MASK ((1ULL << 33) - 1)
#else
#define DWARF_REGS_MASK 0ULL
#endif

int perfev__callgraph_stack_size(uint64_t size, uint32_t *out)
{
	if (!size) {
		*out = PERFEV_STACK_USER_DEFAULT;
		return 0;
	}
	/* Rounded up as perf does: the kernel copies whole words. */
	if (size > PERFEV_STACK_USER_MAX)
		return -ERANGE;
	*out = (uint32_t)((size + 7) & ~7ULL);
	return 0;
}

void perfev__apply_callgraph(struct perf_event_attr *a, enum perfev_callgraph mode,
			     uint32_t stack_size)
{
	if (mode == PERFEV_CALLGRAPH_DEFAULT)
		return;
	if (mode != PERFEV_CALLGRAPH_LBR) {
		a->sample_type &= ~(uint64_t)(PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
					      PERF_SAMPLE_STACK_USER);
		a->exclude_callchain_user = 0;
		a->sample_regs_user = 0;
		a->sample_stack_user = 0;
	}
	switch (mode) {
	case PERFEV_CALLGRAPH_DEFAULT:
		break;
	case PERFEV_CALLGRAPH_NONE:
		a->sample_max_stack = 0;
		break;
	case PERFEV_CALLGRAPH_FP:
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		break;
	case PERFEV_CALLGRAPH_DWARF:
		/* The user part of the stack is unwound from the dump, not by the kernel. */
		a->sample_type |=
		    PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->exclude_callchain_user = 1;
		a->sample_regs_user = DWARF_REGS_MASK;
		a->sample_stack_user = stack_size ? stack_size : PERFEV_STACK_USER_DEFAULT;
		break;
	case PERFEV_CALLGRAPH_LBR:
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
					PERF_SAMPLE_BRANCH_NO_CYCLES | PERF_SAMPLE_BRANCH_NO_FLAGS |
					PERF_SAMPLE_BRANCH_HW_INDEX;
		break;
	}
}

int perfev_attr_set_callgraph(struct perf_event_attr *attr, enum perfev_callgraph mode,
			      uint32_t stack_size)
{
	uint32_t size = 0;
	int err;

	if (!attr)
		return -EINVAL;
	switch (mode) {
	case PERFEV_CALLGRAPH_DWARF:
		if (!DWARF_REGS_MASK)
			return -EOPNOTSUPP;
		err = perfev__callgraph_stack_size(stack_size, &size);
		if (err)
			return err;
		break;
	case PERFEV_CALLGRAPH_DEFAULT:
	case PERFEV_CALLGRAPH_NONE:
	case PERFEV_CALLGRAPH_FP:
	case PERFEV_CALLGRAPH_LBR:
		break;
	default:
		return -EINVAL;
	}
	perfev__apply_callgraph(attr, mode, size);
	return 0;
}

/* Apply config term @idx; @raw, when set, is the config of a raw term ("r1a"). */
static int apply_cterm(struct parser *p, struct perfev__event *ev, const struct term *t, int idx,
		       bool pmu_event, const uint64_t *raw)
{
	struct perf_event_attr *a = &ev->a.attr;
	uint64_t v = raw ? *raw : 0;

	if (cterms[idx].pmu_only && !pmu_event)
		return perfev__parse_fail(p, -ENOENT, t->off, t->klen,
					  "it is passed to a PMU driver: pmu/...,"
					  "driver-config=.../",
					  "'%s' only applies to PMU events", cterms[idx].name);

	if (raw) {
		if (t->val)
			return perfev__parse_fail(
			    p, -EINVAL, t->off, t->span, "a raw term is the config alone: pmu/r1a/",
			    "raw term '%.*s' takes no value", (int)t->klen, t->key);
	} else if (cterms[idx].string) {
		if (!t->val)
			return perfev__parse_fail(p, -EINVAL, t->off, t->span, NULL,
						  "'%s' needs a value (%s=...)", cterms[idx].name,
						  cterms[idx].name);
	} else if (term_number(p, t, &v)) {
		/* Like perf, a numeric term without a value means 1. */
		return p->errcode;
	}

	switch (cterms[idx].id) {
	case CT_NONE:
		break;
	case CT_CONFIG:
		a->config = v;
		break;
	case CT_CONFIG1:
		a->config1 = v;
		break;
	case CT_CONFIG2:
		a->config2 = v;
		break;
	case CT_CONFIG3:
		perfev__attr_set_config3(&ev->a, v);
		break;
	case CT_NAME:
		/* Like perf, the first name= wins. */
		if (ev->terms_set & PERFEV_TERM_NAME)
			return 0;
		ev->terms_set |= PERFEV_TERM_NAME;
		return perfev__set_str(p, &ev->name, t->val, t->vlen);
	case CT_PERIOD:
		a->sample_period = v;
		a->freq = 0;
		ev->terms_set = (ev->terms_set | PERFEV_TERM_PERIOD) & ~PERFEV_TERM_FREQ;
		break;
	case CT_FREQ:
		a->sample_freq = v;
		a->freq = 1;
		ev->terms_set = (ev->terms_set | PERFEV_TERM_FREQ) & ~PERFEV_TERM_PERIOD;
		break;
	case CT_BRANCH_TYPE: {
		uint64_t bt = 0;
		char buf[128];

		if (t->vlen == 2 && !memcmp(t->val, "no", 2)) {
			a->sample_type &= ~(uint64_t)PERF_SAMPLE_BRANCH_STACK;
			a->branch_sample_type = 0;
			ev->terms_set |= PERFEV_TERM_BRANCH_TYPE;
			break;
		}
		/* Values cannot hold ',', so several filters are joined with '|'. */
		snprintf(buf, sizeof(buf), "%.*s", (int)t->vlen, t->val);
		for (char *c = buf; *c; c++)
			if (*c == '|')
				*c = ',';
		if (t->vlen >= sizeof(buf) || perfev_branch_type_parse(buf, &bt))
			return perfev__parse_fail(
			    p, -EINVAL, t->off, t->span,
			    "branch types: any, any_call, any_ret, ind_call, ind_jmp, call, "
			    "cond, call_stack, abort_tx, in_tx, no_tx, save_type, u, k, hv",
			    "invalid branch type '%.*s'", (int)t->vlen, t->val);
		a->branch_sample_type = bt;
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		ev->terms_set |= PERFEV_TERM_BRANCH_TYPE;
		break;
	}
	case CT_TIME:
		if (v > 1)
			return perfev__parse_fail(p, -EINVAL, t->off, t->span, NULL,
						  "'time' expects 0 or 1");
		if (v)
			a->sample_type |= PERF_SAMPLE_TIME;
		else
			a->sample_type &= ~(uint64_t)PERF_SAMPLE_TIME;
		ev->terms_set |= PERFEV_TERM_TIME;
		break;
	case CT_CALLGRAPH: {
		static const struct {
			const char *n;
			enum perfev_callgraph m;
		} modes[] = {{"fp", PERFEV_CALLGRAPH_FP},
			     {"dwarf", PERFEV_CALLGRAPH_DWARF},
			     {"lbr", PERFEV_CALLGRAPH_LBR},
			     {"no", PERFEV_CALLGRAPH_NONE}};
		size_t i;

		for (i = 0; i < PERFEV__ARRAY_SIZE(modes); i++)
			if (strlen(modes[i].n) == t->vlen && !memcmp(modes[i].n, t->val, t->vlen))
				break;
		if (i == PERFEV__ARRAY_SIZE(modes))
			return perfev__parse_fail(
			    p, -EINVAL, t->off, t->span, "call-graph is fp, dwarf, lbr or no",
			    "invalid call-graph mode '%.*s'", (int)t->vlen, t->val);
		ev->callgraph = modes[i].m;
		ev->terms_set |= PERFEV_TERM_CALLGRAPH;
		perfev__apply_callgraph(a, ev->callgraph, ev->stack_size);
		break;
	}
	case CT_STACK_SIZE: {
		uint32_t size;

		/* Rounded up to a multiple of 8 as perf does; 0 is the default size. */
		if (perfev__callgraph_stack_size(v, &size))
			return perfev__parse_fail(p, -ERANGE, t->off, t->span,
						  "the kernel copies at most 65528 bytes of stack",
						  "stack-size %llu is too large",
						  (unsigned long long)v);
		ev->stack_size = v ? size : 0;
		ev->terms_set |= PERFEV_TERM_STACK_SIZE;
		/* The size of the user stack dump: nothing without call-graph=dwarf, as in perf. */
		if (ev->callgraph == PERFEV_CALLGRAPH_DWARF)
			a->sample_stack_user = size;
		break;
	}
	case CT_MAX_STACK:
		if (v > UINT16_MAX)
			return perfev__parse_fail(p, -ERANGE, t->off, t->span, NULL,
						  "max-stack %llu is above 65535",
						  (unsigned long long)v);
		ev->terms_set |= PERFEV_TERM_MAX_STACK;
		/* As in perf, a depth asks for call chains: fp unless call-graph= says otherwise.
		 */
		if (!(ev->terms_set & PERFEV_TERM_CALLGRAPH)) {
			ev->callgraph = PERFEV_CALLGRAPH_FP;
			perfev__apply_callgraph(a, ev->callgraph, ev->stack_size);
		}
		if (ev->callgraph != PERFEV_CALLGRAPH_NONE)
			a->sample_max_stack = (uint16_t)v;
		break;
	case CT_NR:
		if (v > UINT32_MAX)
			return perfev__parse_fail(p, -ERANGE, t->off, t->span, NULL,
						  "nr is too large");
		ev->max_events = (uint32_t)v;
		ev->terms_set |= PERFEV_TERM_NR;
		break;
	case CT_INHERIT:
	case CT_NO_INHERIT:
		a->inherit = (cterms[idx].id == CT_INHERIT) == (v != 0);
		ev->terms_set |= PERFEV_TERM_INHERIT;
		break;
	case CT_OVERWRITE:
	case CT_NO_OVERWRITE:
		a->write_backward = (cterms[idx].id == CT_OVERWRITE) == (v != 0);
		ev->terms_set |= PERFEV_TERM_OVERWRITE;
		break;
	case CT_DRIVER_CONFIG:
		ev->terms_set |= PERFEV_TERM_DRIVER_CONFIG;
		return perfev__set_str(p, &ev->driver_config, t->val, t->vlen);
	case CT_PERCORE:
		if (v > 1)
			return perfev__parse_fail(p, -EINVAL, t->off, t->span, NULL,
						  "'percore' expects 0 or 1");
		if (v)
			ev->flags |= PERFEV_EVF_PERCORE;
		else
			ev->flags &= ~PERFEV_EVF_PERCORE;
		break;
	case CT_AUX_OUTPUT:
		a->aux_output = v != 0;
		ev->terms_set |= PERFEV_TERM_AUX_OUTPUT;
		break;
	case CT_AUX_SAMPLE_SIZE:
		if (v > UINT32_MAX)
			return perfev__parse_fail(p, -ERANGE, t->off, t->span, NULL,
						  "aux-sample-size is above 4 GiB");
		a->aux_sample_size = (uint32_t)v;
		if (v)
			a->sample_type |= PERF_SAMPLE_AUX;
		else
			a->sample_type &= ~(uint64_t)PERF_SAMPLE_AUX;
		ev->terms_set |= PERFEV_TERM_AUX_SAMPLE_SIZE;
		break;
	case CT_METRIC_ID:
		ev->terms_set |= PERFEV_TERM_METRIC_ID;
		return perfev__set_str(p, &ev->metric_id, t->val, t->vlen);
	}
	return 0;
}

static uint64_t get_word(const struct perfev__event *ev, unsigned int w)
{
	switch (w) {
	case 0:
		return ev->a.attr.config;
	case 1:
		return ev->a.attr.config1;
	case 2:
		return ev->a.attr.config2;
	default:
		return perfev__attr_config3(&ev->a);
	}
}

static void set_word(struct perfev__event *ev, unsigned int w, uint64_t v)
{
	switch (w) {
	case 0:
		ev->a.attr.config = v;
		break;
	case 1:
		ev->a.attr.config1 = v;
		break;
	case 2:
		ev->a.attr.config2 = v;
		break;
	default:
		perfev__attr_set_config3(&ev->a, v);
		break;
	}
}

/* Offer the names a term could have been. */
static void term_hint(const struct perfev_pmu *pmu, const struct term *t, char *hint, size_t len)
{
	struct perfev__suggest sg;
	size_t i, n;

	/* perf's --call-graph dwarf,SIZE written as a term. */
	for (i = 0; i < t->klen && t->key[i] >= '0' && t->key[i] <= '9'; i++)
		;
	if (i && i == t->klen && !t->val) {
		snprintf(hint, len,
			 "a stack copy's size is a term of its own: "
			 "call-graph=dwarf,stack-size=%.*s",
			 (int)t->klen, t->key);
		return;
	}
	perfev__suggest_init(&sg, t->key, t->klen);
	for (i = 0; i < PERFEV__ARRAY_SIZE(cterms); i++)
		perfev__suggest_add(&sg, cterms[i].name);
	if (pmu) {
		n = perfev_pmu_format_count(pmu);
		for (i = 0; i < n; i++)
			perfev__suggest_add(&sg, perfev_pmu_format(pmu, i)->name);
		n = perfev_pmu_alias_count(pmu);
		for (i = 0; i < n; i++)
			perfev__suggest_add(&sg, perfev_pmu_alias(pmu, i)->name);
	}
	perfev__suggest_hint(&sg, hint, len);
	if (!hint[0] && pmu && perfev_pmu_format_count(pmu)) {
		size_t pos = 0;

		perfev__bprintf(hint, len, &pos, "format terms of '%s':", perfev_pmu_name(pmu));
		n = perfev_pmu_format_count(pmu);
		for (i = 0; i < n; i++)
			perfev__bprintf(hint, len, &pos, " %s", perfev_pmu_format(pmu, i)->name);
	}
}

/*
 * A tracepoint takes only the terms perf 6.1 takes on one (sampling
 * settings); others, config and name included, are refused, as perf does.
 */
static int tracepoint_term(struct parser *p, const struct term *t, int ci, const char *what)
{
	struct perfev__suggest sg;
	char hint[192];
	size_t i, pos = 0;
	const char *sep = " ";

	perfev__suggest_init(&sg, t->key, t->klen);
	for (i = 0; i < PERFEV__ARRAY_SIZE(cterms); i++)
		if (cterms[i].tracepoint)
			perfev__suggest_add(&sg, cterms[i].name);
	perfev__suggest_hint(&sg, hint, sizeof(hint));
	if (!hint[0] || ci >= 0) {
		perfev__bprintf(hint, sizeof(hint), &pos, "tracepoints take");
		for (i = 0; i < PERFEV__ARRAY_SIZE(cterms); i++) {
			if (!cterms[i].tracepoint)
				continue;
			perfev__bprintf(hint, sizeof(hint), &pos, "%s%s", sep, cterms[i].name);
			sep = ", ";
		}
	}
	if (ci >= 0)
		return perfev__parse_fail(p, -EINVAL, t->off, t->klen, hint,
					  "term '%s' does not apply to tracepoint '%s'",
					  cterms[ci].name, what);
	return perfev__parse_fail(p, -ENOENT, t->off, t->klen, hint,
				  "unknown term '%.*s' for tracepoint '%s'", (int)t->klen, t->key,
				  what);
}

/* "event=NAME" where NAME is neither a number nor one of the PMU's events. */
static int not_an_event(struct parser *p, const struct perfev_pmu *pmu, const struct term *t)
{
	struct perfev__suggest sg;
	char hint[192];
	size_t i, n = perfev_pmu_alias_count(pmu);

	perfev__suggest_init(&sg, t->val, t->vlen);
	for (i = 0; i < n; i++)
		perfev__suggest_add(&sg, perfev_pmu_alias(pmu, i)->name);
	perfev__suggest_hint(&sg, hint, sizeof(hint));
	if (!hint[0])
		snprintf(hint, sizeof(hint),
			 "give a number, or one of the events 'perfev list pmu' shows for '%s'",
			 perfev_pmu_name(pmu));
	return perfev__parse_fail(p, -EINVAL, t->off, t->span, hint,
				  "'%.*s' is neither a number nor an event of '%s'", (int)t->vlen,
				  t->val, perfev_pmu_name(pmu));
}

static void required_clear(struct required *r, const char *k, size_t n)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->klen[i] == n && !memcmp(r->key[i], k, n)) {
			r->key[i] = r->key[r->n - 1];
			r->klen[i] = r->klen[r->n - 1];
			r->n--;
			return;
		}
}

int perfev__apply_alias(struct parser *p, struct perfev__event *ev, const struct perfev_pmu *pmu,
			const struct perfev_alias *al, size_t off, size_t span,
			struct required *req, int depth)
{
	struct term sub[MAX_TERMS];
	size_t n = 0;

	if (split_terms(p, al->terms, strlen(al->terms), off, true, sub, &n))
		return p->errcode;
	if (perfev__apply_terms(p, ev, pmu, sub, n, perfev_pmu_name(pmu), req, depth + 1))
		return p->errcode;
	ev->scale = al->scale;
	if (al->unit && perfev__set_str(p, &ev->unit, al->unit, strlen(al->unit)))
		return p->errcode;
	if (al->per_pkg)
		ev->flags |= PERFEV_EVF_PER_PKG;
	if (al->snapshot)
		ev->flags |= PERFEV_EVF_SNAPSHOT;
	req->off = off;
	req->span = span;
	req->alias = al->name;
	return 0;
}

int perfev__apply_terms(struct parser *p, struct perfev__event *ev, const struct perfev_pmu *pmu,
			const struct term *terms, size_t n, const char *what, struct required *req,
			int depth)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct term *t = &terms[i];
		const struct perfev_format *fmt = NULL;
		const struct perfev_alias *al = NULL;
		char key[128], hint[192];
		int ci = cterm_find(t->key, t->klen);
		uint64_t raw;

		if (ev->kind == PERFEV_KIND_TRACEPOINT && ev->tp_system &&
		    (ci < 0 || !cterms[ci].tracepoint))
			return tracepoint_term(p, t, ci, what);
		if (ci >= 0) {
			if (apply_cterm(p, ev, t, ci, pmu != NULL, NULL))
				return p->errcode;
			continue;
		}
		/* "r1a" or "r0x1a" is config=0x1a, before any format or alias of that name. */
		if (perfev__parse_raw(t->key, t->klen, true, &raw)) {
			if (apply_cterm(p, ev, t, cterm_find("config", 6), pmu != NULL, &raw))
				return p->errcode;
			continue;
		}
		snprintf(key, sizeof(key), "%.*s", (int)t->klen, t->key);
		/* As in perf, "event=NAME" (the key in any case) names one of the PMU's events. */
		if (pmu && depth == 0 && t->val && t->klen == 5 &&
		    !strncasecmp(t->key, "event", 5) &&
		    perfev__parse_number(t->val, t->vlen, &raw) == -EINVAL) {
			char name[128];

			snprintf(name, sizeof(name), "%.*s", (int)t->vlen, t->val);
			al = perfev_pmu_alias_find(pmu, name);
			if (!al && perfev_pmu_format_find(pmu, key))
				return not_an_event(p, pmu, t);
		}
		if (pmu && !al)
			fmt = perfev_pmu_format_find(pmu, key);
		if (fmt) {
			uint64_t v, word;

			if (t->from_alias && t->vlen == 1 && t->val[0] == '?') {
				/* sysfs marks parameters the user must supply with '?'. */
				if (req->n < PERFEV__ARRAY_SIZE(req->key)) {
					req->key[req->n] = t->key;
					req->klen[req->n++] = t->klen;
				}
				continue;
			}
			if (term_number(p, t, &v))
				return p->errcode;
			word = get_word(ev, fmt->word);
			if (perfev_format_apply(fmt, v, &word)) {
				snprintf(hint, sizeof(hint), "'%s' has %u bits: at most 0x%llx",
					 key, fmt->nbits,
					 fmt->nbits >= 64 ? ~0ULL : (1ULL << fmt->nbits) - 1);
				return perfev__parse_fail(p, -ERANGE, t->off, t->span, hint,
							  "value 0x%llx too big for '%s'",
							  (unsigned long long)v, key);
			}
			set_word(ev, fmt->word, word);
			required_clear(req, t->key, t->klen);
			continue;
		}
		if (pmu && depth == 0 && !al) {
			al = perfev_pmu_alias_find(pmu, key);
			if (al && t->val)
				return perfev__parse_fail(p, -EINVAL, t->off, t->span, NULL,
							  "event '%s' takes no value", al->name);
		}
		if (al) {
			if (req->alias)
				return perfev__parse_fail(
				    p, -EINVAL, t->off, t->span, NULL,
				    "only one sysfs event per PMU event ('%s' and '%s')",
				    req->alias, al->name);
			if (perfev__apply_alias(p, ev, pmu, al, t->off, t->span, req, depth))
				return p->errcode;
			continue;
		}
		if (t->from_alias)
			return perfev__parse_fail(p, -EINVAL, t->off, 0, NULL,
						  "sysfs event of '%s' uses unknown term '%s'",
						  what, key);
		term_hint(pmu, t, hint, sizeof(hint));
		return perfev__parse_fail(p, -ENOENT, t->off, t->klen, hint,
					  "unknown term '%s' for '%s'", key, what);
	}
	return 0;
}

int perfev__check_required(struct parser *p, const struct required *r)
{
	if (!r->n)
		return 0;
	return perfev__parse_fail(p, -EINVAL, r->off, r->span, NULL,
				  "event '%s' needs a value for '%.*s' (add %.*s=N to its terms)",
				  r->alias, (int)r->klen[0], r->key[0], (int)r->klen[0], r->key[0]);
}
