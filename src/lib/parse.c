// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The event-string parser: a hand-written recursive descent over perf's
 * event syntax.
 *
 *   list     := item { ',' item }
 *   item     := [NAME] '{' event { ',' event } '}' [':' MODS] | event
 *   event    := 'mem:' ADDR ['/' LEN] [':' ACCESS] [terms] [':' MODS]
 *             | WORD terms [[':'] MODS]           pmu/terms/ or cycles/terms/
 *             | SYS ':' NAME [terms] [':' MODS]   tracepoint
 *             | WORD [':' MODS]                   generic, cache, raw, alias
 *   terms    := '/' [term { ',' term }] '/'
 *   term     := KEY ['=' VALUE]
 *
 * Parsing is pure: the only inputs besides the string are the PMU
 * database and the tracefs handle, both read-only.  Every error carries
 * the byte offset and length of the offending token.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <unistd.h>
#include "internal.h"
#include "parse.h"
#include <perfev/attr.h>

#define MAX_TERMS 64
#define MAX_MODS 15 /* perf refuses modifier strings longer than "ukhGHpppPSDIWeb" */

struct term {
	const char *key;
	size_t klen;
	const char *val; /* NULL when the term has no '=' */
	size_t vlen;
	size_t off;      /* where to point errors at, in the user's string */
	size_t span;
	bool from_alias;
};

struct parser {
	const char *s;
	size_t len, pos;
	const struct perfev_pmus *pmus;
	struct perfev_tracefs *tracefs;
	int tracefs_error;
	struct perfev_evspec st; /* events parsed so far, committed on success */
	struct perfev_parse_error *err;
	int errcode;
};

static int fail(struct parser *p, int code, size_t off, size_t span, const char *hint,
		const char *fmt, ...) PERFEV__PRINTF(6, 7);

static int fail(struct parser *p, int code, size_t off, size_t span, const char *hint,
		const char *fmt, ...)
{
	struct perfev_parse_error *e = p->err;
	va_list ap;

	if (p->errcode)
		return p->errcode;
	p->errcode = code;
	if (!e)
		return code;
	e->err = code;
	e->offset = off > p->len ? p->len : off;
	e->length = span;
	va_start(ap, fmt);
	vsnprintf(e->message, sizeof(e->message), fmt, ap);
	va_end(ap);
	snprintf(e->hint, sizeof(e->hint), "%s", hint ? hint : "");
	return code;
}

static int nomem(struct parser *p)
{
	return fail(p, -ENOMEM, p->pos, 0, NULL, "out of memory");
}

/* ---- lexical helpers ---------------------------------------------------- */

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_word_char(char c)
{
	return is_alpha(c) || is_digit(c) || c == '_' || c == '-' || c == '.' || c == '*' ||
	       c == '?' || c == '[' || c == ']' || c == '!';
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

static char peek(const struct parser *p)
{
	return p->pos < p->len ? p->s[p->pos] : '\0';
}

static void skip_space(struct parser *p)
{
	while (p->pos < p->len && is_space(p->s[p->pos]))
		p->pos++;
}

static size_t scan_word(struct parser *p)
{
	size_t start = p->pos;

	while (p->pos < p->len && is_word_char(p->s[p->pos]))
		p->pos++;
	return p->pos - start;
}

static bool has_glob(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] == '*' || s[i] == '?' || s[i] == '[')
			return true;
	return false;
}

/* perf's numbers: 0x-prefixed hex, otherwise decimal (no octal). */
static int parse_number(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;
	unsigned int base = 10;

	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == n)
		return -EINVAL;
	for (; i < n; i++) {
		unsigned int d;
		char c = s[i];

		if (is_digit(c))
			d = (unsigned int)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned int)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned int)(c - 'A' + 10);
		else
			return -EINVAL;
		if (v > (UINT64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

/* ---- events under construction ----------------------------------------- */

static struct perfev__event *new_event(struct parser *p, enum perfev_event_kind kind,
				       uint32_t type, uint64_t config)
{
	struct perfev__event *ev;

	if (perfev__grow(&p->st.ev, &p->st.cap, p->st.n + 1, sizeof(*p->st.ev))) {
		nomem(p);
		return NULL;
	}
	ev = &p->st.ev[p->st.n++];
	memset(ev, 0, sizeof(*ev));
	ev->kind = kind;
	ev->a.attr.type = type;
	ev->a.attr.size = PERFEV__ATTR_BUF;
	ev->a.attr.config = config;
	/*
	 * perf counts only the host by default (it is not "perf kvm"): every
	 * new event starts with exclude_guest set.  Modifiers may change it.
	 */
	ev->a.attr.exclude_guest = 1;
	ev->scale = 1.0;
	ev->leader = (int)(p->st.n - 1);
	return ev;
}

static int set_str(struct parser *p, char **dst, const char *s, size_t n)
{
	char *d = perfev__strndup(s, n);

	if (!d)
		return nomem(p);
	free(*dst);
	*dst = d;
	return 0;
}

/* ---- modifiers ------------------------------------------------------------ */

struct mods {
	size_t off, len; /* the letters, without the ':' */
};

static const char valid_mods[] = "ukhGHIpPSDWebR";

/*
 * Scan modifier letters at p->pos.  perf refuses unknown letters, any
 * letter but 'p' twice, and strings longer than 15.
 */
static int scan_mods(struct parser *p, struct mods *m)
{
	size_t i, j;

	m->off = p->pos;
	while (p->pos < p->len && is_alpha(p->s[p->pos]))
		p->pos++;
	m->len = p->pos - m->off;
	for (i = 0; i < m->len; i++) {
		char c = p->s[m->off + i];

		if (!strchr(valid_mods, c))
			return fail(p, -EINVAL, m->off + i, 1,
				    "modifiers: u k h (user, kernel, hypervisor), G H (guest, host), "
				    "I (not idle), p pp ppp P (precise), S D W e b R",
				    "unknown modifier '%c'", c);
		for (j = 0; j < i && c != 'p'; j++)
			if (p->s[m->off + j] == c)
				return fail(p, -EINVAL, m->off + i, 1, NULL,
					    "modifier '%c' given twice", c);
	}
	if (m->len > MAX_MODS)
		return fail(p, -EINVAL, m->off, m->len, NULL,
			    "too many modifiers (at most %d letters)", MAX_MODS);
	return 0;
}

/*
 * Apply modifiers the way perf 6.x does.  For an event's own modifiers
 * (@add false) the exclude state starts from zero, so ":k" clears the
 * default exclude_guest and ":S" does too; for group modifiers (@add
 * true) it starts from what the member already has.  The first of u/k/h
 * excludes everything and then re-includes the named levels; u and p
 * imply exclude_guest unless G or H were given.
 */
static int apply_mods(struct parser *p, struct perfev__event *ev, const struct mods *m, bool add,
		      bool is_leader)
{
	struct perf_event_attr *a = &ev->a.attr;
	bool eu = 0, ek = 0, eh = 0, eH = 0, eG = 0, eI = 0, pinned = 0, exclusive = 0;
	bool exclude_gh = 0, exclude;
	unsigned int precise = 0, flags = 0;
	size_t i;

	if (add) {
		eu = a->exclude_user;
		ek = a->exclude_kernel;
		eh = a->exclude_hv;
		eH = a->exclude_host;
		eG = a->exclude_guest;
		eI = a->exclude_idle;
		precise = a->precise_ip;
		pinned = a->pinned;
		exclusive = a->exclusive;
		exclude_gh = ev->flags & PERFEV_EVF_GUEST_HOST_SET;
	}
	exclude = eu || ek || eh;

	for (i = 0; i < m->len; i++) {
		switch (p->s[m->off + i]) {
		case 'u':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			if (!exclude_gh)
				eG = 1;
			eu = 0;
			break;
		case 'k':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			ek = 0;
			break;
		case 'h':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			eh = 0;
			break;
		case 'G':
			if (!exclude_gh)
				exclude_gh = eG = eH = 1;
			eG = 0;
			break;
		case 'H':
			if (!exclude_gh)
				exclude_gh = eG = eH = 1;
			eH = 0;
			break;
		case 'I':
			eI = 1;
			break;
		case 'p':
			precise++;
			/* Precise sampling needs the host-only setting. */
			if (!exclude_gh)
				eG = 1;
			break;
		case 'P':
			flags |= PERFEV_EVF_PRECISE_MAX;
			break;
		case 'S':
			flags |= PERFEV_EVF_SAMPLE_READ;
			break;
		case 'D':
			pinned = 1;
			break;
		case 'e':
			exclusive = 1;
			break;
		case 'W':
			flags |= PERFEV_EVF_WEAK_GROUP;
			break;
		case 'b':
			flags |= PERFEV_EVF_BPF_COUNTER;
			break;
		case 'R':
			flags |= PERFEV_EVF_RETIRE_LAT;
			break;
		}
	}
	if (precise > 3)
		return fail(p, -EINVAL, m->off, m->len, "use at most 'ppp' (precise_ip is 0..3)",
			    "too many 'p' modifiers");

	a->exclude_user = eu;
	a->exclude_kernel = ek;
	a->exclude_hv = eh;
	a->exclude_host = eH;
	a->exclude_guest = eG;
	a->exclude_idle = eI;
	a->precise_ip = precise & 3;
	ev->flags |= flags;
	if (exclude_gh)
		ev->flags |= PERFEV_EVF_GUEST_HOST_SET;
	else
		ev->flags &= ~PERFEV_EVF_GUEST_HOST_SET;
	if (is_leader) {
		a->pinned = pinned;
		a->exclusive = exclusive;
	}
	return 0;
}

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
	bool string;   /* value is a string */
	bool pmu_only; /* meaningless on generic events */
} cterms[] = {
	{ "config", CT_CONFIG, false, false },
	{ "config1", CT_CONFIG1, false, false },
	{ "config2", CT_CONFIG2, false, false },
	{ "config3", CT_CONFIG3, false, false },
	{ "name", CT_NAME, true, false },
	{ "period", CT_PERIOD, false, false },
	{ "freq", CT_FREQ, false, false },
	{ "branch_type", CT_BRANCH_TYPE, true, false },
	{ "time", CT_TIME, false, false },
	{ "call-graph", CT_CALLGRAPH, true, false },
	{ "stack-size", CT_STACK_SIZE, false, false },
	{ "max-stack", CT_MAX_STACK, false, false },
	{ "nr", CT_NR, false, false },
	{ "inherit", CT_INHERIT, false, false },
	{ "no-inherit", CT_NO_INHERIT, false, false },
	{ "overwrite", CT_OVERWRITE, false, false },
	{ "no-overwrite", CT_NO_OVERWRITE, false, false },
	{ "driver-config", CT_DRIVER_CONFIG, true, true },
	{ "percore", CT_PERCORE, false, false },
	{ "aux-output", CT_AUX_OUTPUT, false, false },
	{ "aux-sample-size", CT_AUX_SAMPLE_SIZE, false, false },
	{ "metric-id", CT_METRIC_ID, true, false },
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
	return c && c != ',' && c != '/' && !is_space(c);
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
			return fail(p, -EINVAL, from_alias ? base : base + i, 1, NULL,
				    from_alias ? "malformed sysfs event description"
					       : "expected a term name");
		if (*cnt >= MAX_TERMS)
			return fail(p, -EINVAL, from_alias ? base : base + ks, i - ks, NULL,
				    "too many terms (at most %d)", MAX_TERMS);
		t = &out[(*cnt)++];
		memset(t, 0, sizeof(*t));
		t->key = s + ks;
		t->klen = i - ks;
		t->from_alias = from_alias;
		t->off = from_alias ? base : base + ks;
		if (i < n && s[i] == '=') {
			size_t vs = ++i;

			while (i < n && is_value_char(s[i]))
				i++;
			if (i == vs)
				return fail(p, -EINVAL, from_alias ? base : base + vs, 0, NULL,
					    "missing value after '%.*s='", (int)t->klen, t->key);
			t->val = s + vs;
			t->vlen = i - vs;
		}
		t->span = from_alias ? 0 : i - ks;
		while (i < n && is_space(s[i]))
			i++;
		if (i < n) {
			if (s[i] != ',')
				return fail(p, -EINVAL, from_alias ? base : base + i, 1, NULL,
					    "expected ',' or '/' after term '%.*s'", (int)t->klen,
					    t->key);
			i++;
			if (i == n)
				return fail(p, -EINVAL, from_alias ? base : base + i, 0, NULL,
					    "expected a term after ','");
		}
	}
	return 0;
}

/* Read '/' terms '/' at p->pos. */
static int scan_terms(struct parser *p, struct term *terms, size_t *n, size_t *start)
{
	size_t s;

	p->pos++; /* '/' */
	s = p->pos;
	while (p->pos < p->len && p->s[p->pos] != '/')
		p->pos++;
	if (p->pos == p->len)
		return fail(p, -EINVAL, s - 1, 1, "terms are written pmu/term=value,.../",
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
	err = parse_number(t->val, t->vlen, v);
	if (err == -ERANGE)
		return fail(p, -ERANGE, t->off, t->span, NULL,
			    "value of '%.*s' does not fit in 64 bits", (int)t->klen, t->key);
	if (err)
		return fail(p, -EINVAL, t->off, t->span, "numbers are decimal or 0x-prefixed hex",
			    "expected a number for '%.*s', got '%.*s'", (int)t->klen, t->key,
			    (int)t->vlen, t->val);
	return 0;
}

/* Default user registers sampled for DWARF unwinding: all general ones. */
#if defined(__x86_64__)
#define DWARF_REGS_MASK 0xff0fffULL
#elif defined(__aarch64__)
#define DWARF_REGS_MASK ((1ULL << 33) - 1)
#elif defined(__i386__)
#define DWARF_REGS_MASK 0xff0fffULL
#else
#define DWARF_REGS_MASK 0ULL
#endif
#define DEFAULT_DWARF_STACK 8192

void perfev__apply_callgraph(struct perf_event_attr *a, enum perfev_callgraph mode,
			     uint32_t stack_size)
{
	switch (mode) {
	case PERFEV_CALLGRAPH_DEFAULT:
		break;
	case PERFEV_CALLGRAPH_NONE:
		a->sample_type &= ~(uint64_t)(PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
					      PERF_SAMPLE_STACK_USER);
		a->exclude_callchain_user = 0;
		a->sample_regs_user = 0;
		a->sample_stack_user = 0;
		break;
	case PERFEV_CALLGRAPH_FP:
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		break;
	case PERFEV_CALLGRAPH_DWARF:
		/* The user part of the stack is unwound from the dump, not by the kernel. */
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
				  PERF_SAMPLE_STACK_USER;
		a->exclude_callchain_user = 1;
		a->sample_regs_user = DWARF_REGS_MASK;
		a->sample_stack_user = stack_size ? stack_size : DEFAULT_DWARF_STACK;
		break;
	case PERFEV_CALLGRAPH_LBR:
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
					PERF_SAMPLE_BRANCH_NO_CYCLES | PERF_SAMPLE_BRANCH_NO_FLAGS |
					PERF_SAMPLE_BRANCH_HW_INDEX;
		break;
	}
}

static int apply_cterm(struct parser *p, struct perfev__event *ev, const struct term *t, int idx,
		       bool pmu_event)
{
	struct perf_event_attr *a = &ev->a.attr;
	uint64_t v = 0;

	if (cterms[idx].pmu_only && !pmu_event)
		return fail(p, -ENOENT, t->off, t->klen, "it is passed to a PMU driver: pmu/...,"
			    "driver-config=.../", "'%s' only applies to PMU events", cterms[idx].name);

	if (cterms[idx].string) {
		if (!t->val)
			return fail(p, -EINVAL, t->off, t->span, NULL, "'%s' needs a value (%s=...)",
				    cterms[idx].name, cterms[idx].name);
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
		return set_str(p, &ev->name, t->val, t->vlen);
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
			return fail(p, -EINVAL, t->off, t->span,
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
			return fail(p, -EINVAL, t->off, t->span, NULL, "'time' expects 0 or 1");
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
		} modes[] = { { "fp", PERFEV_CALLGRAPH_FP },
			      { "dwarf", PERFEV_CALLGRAPH_DWARF },
			      { "lbr", PERFEV_CALLGRAPH_LBR },
			      { "no", PERFEV_CALLGRAPH_NONE } };
		size_t i;

		for (i = 0; i < PERFEV__ARRAY_SIZE(modes); i++)
			if (strlen(modes[i].n) == t->vlen && !memcmp(modes[i].n, t->val, t->vlen))
				break;
		if (i == PERFEV__ARRAY_SIZE(modes))
			return fail(p, -EINVAL, t->off, t->span, "call-graph is fp, dwarf, lbr or no",
				    "invalid call-graph mode '%.*s'", (int)t->vlen, t->val);
		ev->callgraph = modes[i].m;
		ev->terms_set |= PERFEV_TERM_CALLGRAPH;
		perfev__apply_callgraph(a, ev->callgraph, ev->stack_size);
		break;
	}
	case CT_STACK_SIZE:
		if (v > UINT16_MAX - 7 || (v & 7))
			return fail(p, -ERANGE, t->off, t->span,
				    "the kernel takes a multiple of 8 below 65536",
				    "invalid stack-size %llu", (unsigned long long)v);
		ev->stack_size = (uint32_t)v;
		ev->terms_set |= PERFEV_TERM_STACK_SIZE;
		a->sample_stack_user = (uint32_t)v;
		break;
	case CT_MAX_STACK:
		if (v > UINT16_MAX)
			return fail(p, -ERANGE, t->off, t->span, NULL,
				    "max-stack %llu is above 65535", (unsigned long long)v);
		a->sample_max_stack = (uint16_t)v;
		ev->terms_set |= PERFEV_TERM_MAX_STACK;
		break;
	case CT_NR:
		if (v > UINT32_MAX)
			return fail(p, -ERANGE, t->off, t->span, NULL, "nr is too large");
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
		return set_str(p, &ev->driver_config, t->val, t->vlen);
	case CT_PERCORE:
		if (v > 1)
			return fail(p, -EINVAL, t->off, t->span, NULL, "'percore' expects 0 or 1");
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
			return fail(p, -ERANGE, t->off, t->span, NULL,
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
		return set_str(p, &ev->metric_id, t->val, t->vlen);
	}
	return 0;
}

static uint64_t get_word(const struct perfev__event *ev, unsigned int w)
{
	switch (w) {
	case 0: return ev->a.attr.config;
	case 1: return ev->a.attr.config1;
	case 2: return ev->a.attr.config2;
	default: return perfev__attr_config3(&ev->a);
	}
}

static void set_word(struct perfev__event *ev, unsigned int w, uint64_t v)
{
	switch (w) {
	case 0: ev->a.attr.config = v; break;
	case 1: ev->a.attr.config1 = v; break;
	case 2: ev->a.attr.config2 = v; break;
	default: perfev__attr_set_config3(&ev->a, v); break;
	}
}

/* Offer the names a term could have been. */
static void term_hint(const struct perfev_pmu *pmu, const struct term *t, char *hint, size_t len)
{
	struct perfev__suggest sg;
	size_t i, n;

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

struct required {
	const char *key[8];
	size_t klen[8];
	size_t n;
	size_t off, span;
	const char *alias;
};

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

static int apply_terms(struct parser *p, struct perfev__event *ev, const struct perfev_pmu *pmu,
		       const struct term *terms, size_t n, const char *what, struct required *req,
		       int depth);

static int apply_alias(struct parser *p, struct perfev__event *ev, const struct perfev_pmu *pmu,
		       const struct perfev_alias *al, size_t off, size_t span, struct required *req,
		       int depth)
{
	struct term sub[MAX_TERMS];
	size_t n = 0;

	if (split_terms(p, al->terms, strlen(al->terms), off, true, sub, &n))
		return p->errcode;
	if (apply_terms(p, ev, pmu, sub, n, perfev_pmu_name(pmu), req, depth + 1))
		return p->errcode;
	ev->scale = al->scale;
	if (al->unit && set_str(p, &ev->unit, al->unit, strlen(al->unit)))
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

static int apply_terms(struct parser *p, struct perfev__event *ev, const struct perfev_pmu *pmu,
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

		if (ci >= 0) {
			if (apply_cterm(p, ev, t, ci, pmu != NULL))
				return p->errcode;
			continue;
		}
		snprintf(key, sizeof(key), "%.*s", (int)t->klen, t->key);
		if (pmu)
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
				snprintf(hint, sizeof(hint), "'%s' has %u bits: at most 0x%llx", key,
					 fmt->nbits,
					 fmt->nbits >= 64 ? ~0ULL : (1ULL << fmt->nbits) - 1);
				return fail(p, -ERANGE, t->off, t->span, hint,
					    "value 0x%llx too big for '%s'", (unsigned long long)v,
					    key);
			}
			set_word(ev, fmt->word, word);
			required_clear(req, t->key, t->klen);
			continue;
		}
		if (pmu && depth == 0)
			al = perfev_pmu_alias_find(pmu, key);
		if (al) {
			if (req->alias)
				return fail(p, -EINVAL, t->off, t->span, NULL,
					    "only one sysfs event per PMU event ('%s' and '%s')",
					    req->alias, al->name);
			if (t->val)
				return fail(p, -EINVAL, t->off, t->span, NULL,
					    "event '%s' takes no value", al->name);
			if (apply_alias(p, ev, pmu, al, t->off, t->span, req, depth))
				return p->errcode;
			continue;
		}
		if (t->from_alias)
			return fail(p, -EINVAL, t->off, 0, NULL,
				    "sysfs event of '%s' uses unknown term '%s'", what, key);
		term_hint(pmu, t, hint, sizeof(hint));
		return fail(p, -ENOENT, t->off, t->klen, hint, "unknown term '%s' for '%s'", key,
			    what);
	}
	return 0;
}

static int check_required(struct parser *p, const struct required *r)
{
	if (!r->n)
		return 0;
	return fail(p, -EINVAL, r->off, r->span, NULL,
		    "event '%s' needs a value for '%.*s' (add %.*s=N to its terms)", r->alias,
		    (int)r->klen[0], r->key[0], (int)r->klen[0], r->key[0]);
}

/* ---- resolving names --------------------------------------------------- */

static bool parse_raw(const char *w, size_t n, uint64_t *config)
{
	uint64_t v = 0;
	size_t i;

	if (n < 2 || w[0] != 'r' || n > 17)
		return false;
	for (i = 1; i < n; i++) {
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
								k == 0 ? "load" : k == 1 ? "store"
											 : "prefetch");
				return fail(p, -EINVAL, off + ps, i - ps, hint,
					    "cache '%s' has no '%.*s' operation",
					    perfev__cache_name((unsigned int)cache), (int)(i - ps),
					    w + ps);
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
static size_t match_pmus(struct parser *p, const char *w, size_t n,
			 const struct perfev_pmu **out, size_t max)
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
	case PERF_TYPE_HARDWARE: return PERFEV_KIND_HARDWARE;
	case PERF_TYPE_SOFTWARE: return PERFEV_KIND_SOFTWARE;
	case PERF_TYPE_TRACEPOINT: return PERFEV_KIND_TRACEPOINT;
	case PERF_TYPE_HW_CACHE: return PERFEV_KIND_CACHE;
	case PERF_TYPE_BREAKPOINT: return PERFEV_KIND_BREAKPOINT;
	default: return PERFEV_KIND_PMU;
	}
}

/* Generic names: hardware, software, tool, raw and cache.  1: made, 0: not one. */
static int make_generic(struct parser *p, const char *w, size_t n, size_t off)
{
	const struct perfev_symbol *sym;
	enum perfev_tool_event tool;
	struct perfev__event *ev;
	uint64_t cfg = 0;
	int r;

	sym = perfev__symbol_lookup(w, n, &tool);
	if (sym) {
		ev = new_event(p, sym->kind, sym->type, sym->config);
		if (!ev)
			return p->errcode;
		if (sym->kind == PERFEV_KIND_SOFTWARE &&
		    set_str(p, &ev->pmu, "software", strlen("software")))
			return p->errcode;
		ev->tool = tool;
		if (tool && set_str(p, &ev->unit, "ns", 2))
			return p->errcode;
		return 1;
	}
	if (parse_raw(w, n, &cfg)) {
		if (!new_event(p, PERFEV_KIND_RAW, PERF_TYPE_RAW, cfg))
			return p->errcode;
		return 1;
	}
	r = parse_cache(p, w, n, off, &cfg);
	if (r <= 0)
		return r;
	if (!new_event(p, PERFEV_KIND_CACHE, PERF_TYPE_HW_CACHE, cfg))
		return p->errcode;
	return 1;
}

static struct perfev__event *new_pmu_event(struct parser *p, const struct perfev_pmu *pmu)
{
	struct perfev__event *ev;
	uint32_t type = perfev_pmu_type(pmu);

	ev = new_event(p, kind_of_type(type), type, 0);
	if (ev && set_str(p, &ev->pmu, perfev_pmu_name(pmu), strlen(perfev_pmu_name(pmu))))
		return NULL;
	return ev;
}

/* A bare name that is a sysfs alias of one or more PMUs ("tsc" = msr/tsc/). */
static int make_alias_events(struct parser *p, const char *w, size_t n, size_t off)
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
		struct required req = { 0 };
		struct perfev__event *ev;

		if (!al)
			continue;
		ev = new_pmu_event(p, pmu);
		if (!ev || apply_alias(p, ev, pmu, al, off, n, &req, 0) || check_required(p, &req))
			return p->errcode;
		made++;
	}
	return made ? 1 : 0;
}

static int unknown_event(struct parser *p, const char *w, size_t n, size_t off)
{
	char hint[192];

	event_hint(p, w, n, hint, sizeof(hint));
	return fail(p, -ENOENT, off, n, hint, "unknown event '%.*s'", (int)n, w);
}

/* Modifiers after an event: ":mods", or letters right after a closing '/'. */
static int event_mods(struct parser *p, bool after_slash, struct mods *m, bool *have)
{
	*have = false;
	if (peek(p) == ':') {
		p->pos++;
		skip_space(p);
		if (scan_mods(p, m))
			return p->errcode;
		/* perf accepts "cs:" and treats it as plain "cs". */
		*have = m->len > 0;
	} else if (after_slash && is_alpha(peek(p))) {
		*have = true;
		if (scan_mods(p, m))
			return p->errcode;
	}
	if (peek(p) == ':')
		return fail(p, -EINVAL, p->pos, 1, "modifiers are written once: 'event:ukp'",
			    "unexpected ':'");
	return 0;
}

/* Set offsets, names and event modifiers of the events one definition made. */
static int finish_events(struct parser *p, size_t first, size_t start, const struct mods *m,
			 bool have_mods)
{
	size_t i, end = p->pos;

	while (end > start && is_space(p->s[end - 1]))
		end--;
	for (i = first; i < p->st.n; i++) {
		struct perfev__event *ev = &p->st.ev[i];

		ev->offset = start;
		ev->length = end - start;
		if (have_mods && apply_mods(p, ev, m, false, true))
			return p->errcode;
		if (!ev->name && set_str(p, &ev->name, p->s + start, end - start))
			return p->errcode;
	}
	return 0;
}

struct tp_walk {
	struct parser *p;
	size_t off, span;
	int err;
};

static int add_tracepoint(struct parser *p, const char *sys, const char *name, size_t off,
			  size_t span)
{
	struct perfev__event *ev;
	uint64_t id;
	int err;

	err = perfev_tracefs_id(p->tracefs, sys, name, &id);
	if (err == -EACCES || err == -EPERM)
		return fail(p, -EACCES, off, span,
			    "tracefs is readable by root only; run as root or adjust its permissions",
			    "cannot read the id of tracepoint '%s:%s': permission denied", sys, name);
	if (err)
		return err;
	ev = new_event(p, PERFEV_KIND_TRACEPOINT, PERF_TYPE_TRACEPOINT, id);
	if (!ev)
		return p->errcode;
	/* Every hit of a tracepoint is a sample. */
	ev->a.attr.sample_period = 1;
	if (set_str(p, &ev->tp_system, sys, strlen(sys)) ||
	    set_str(p, &ev->tp_name, name, strlen(name)) ||
	    set_str(p, &ev->pmu, "tracepoint", strlen("tracepoint")))
		return p->errcode;
	return 0;
}

static int tp_walk_cb(const char *sys, const char *name, void *ctx)
{
	struct tp_walk *w = ctx;
	int err = add_tracepoint(w->p, sys, name, w->off, w->span);

	/* Glob matches that vanished or lack an id (ftrace internals) are skipped. */
	if (err == -ENOENT || err == -EBADMSG) {
		w->p->errcode = 0;
		return 0;
	}
	if (err) {
		w->err = err;
		return 1;
	}
	return 0;
}

struct tp_hint {
	struct perfev__suggest *sg;
	char buf[256];
	bool systems;
};

static int tp_hint_cb(const char *sys, const char *name, void *ctx)
{
	struct tp_hint *h = ctx;

	if (h->systems) {
		perfev__suggest_add(h->sg, sys);
	} else {
		snprintf(h->buf, sizeof(h->buf), "%s:%s", sys, name);
		perfev__suggest_add(h->sg, h->buf);
	}
	return 0;
}

static bool tp_system_exists(struct parser *p, const char *sys)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/events/%s", perfev_tracefs_path(p->tracefs), sys);
	return access(path, F_OK) == 0;
}

static bool all_mod_letters(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strchr(valid_mods, s[i]))
			return false;
	return n > 0;
}

static int cmp_tp_id(const void *a, const void *b)
{
	uint64_t x = ((const struct perfev__event *)a)->a.attr.config;
	uint64_t y = ((const struct perfev__event *)b)->a.attr.config;

	return x < y ? -1 : x > y;
}

static int parse_tracepoint(struct parser *p, const char *w, size_t wlen, size_t start)
{
	char sys[256], name[256], hint[192];
	size_t nstart, nlen;

	p->pos++; /* ':' */
	nstart = p->pos;
	nlen = scan_word(p);
	if (!nlen)
		return fail(p, -EINVAL, p->pos, 1, NULL, "expected a tracepoint name after '%.*s:'",
			    (int)wlen, w);
	if (wlen >= sizeof(sys) || nlen >= sizeof(name))
		return fail(p, -EINVAL, start, p->pos - start, NULL, "tracepoint name too long");
	memcpy(sys, w, wlen);
	sys[wlen] = '\0';
	memcpy(name, p->s + nstart, nlen);
	name[nlen] = '\0';

	/* "cyclez:u" is a misspelt event with a modifier, not a tracepoint. */
	if (all_mod_letters(name, nlen) && !has_glob(sys, wlen) &&
	    (!p->tracefs || !tp_system_exists(p, sys))) {
		p->pos = nstart - 1;
		return unknown_event(p, w, wlen, start);
	}
	if (!p->tracefs && (p->tracefs_error == -EACCES || p->tracefs_error == -EPERM))
		return fail(p, -EACCES, start, p->pos - start,
			    "run as root, or make /sys/kernel/tracing readable",
			    "cannot use tracepoint '%s:%s': tracefs is not readable by this user",
			    sys, name);
	if (!p->tracefs)
		return fail(p, -ENOENT, start, p->pos - start,
			    "mount it with 'mount -t tracefs nodev /sys/kernel/tracing' (as root)",
			    "cannot use tracepoint '%s:%s': tracefs is not mounted", sys, name);

	if (has_glob(sys, wlen) || has_glob(name, nlen)) {
		struct tp_walk tw = { p, start, p->pos - start, 0 };
		size_t before = p->st.n;
		int r = perfev_tracefs_foreach(p->tracefs, sys, name, tp_walk_cb, &tw);

		if (tw.err)
			return p->errcode ? p->errcode : tw.err;
		if (r < 0)
			return fail(p, r, start, p->pos - start, NULL,
				    "cannot list tracepoints: %s", perfev_strerror(r));
		if (p->st.n == before)
			return fail(p, -ENOENT, start, p->pos - start,
				    "'perfev list tracepoint' shows them",
				    "no tracepoint matches '%s:%s'", sys, name);
		/*
		 * Expand in id order, which is the order the kernel registered
		 * them and the order perf (reading tracefs unsorted) uses.
		 */
		qsort(p->st.ev + before, p->st.n - before, sizeof(*p->st.ev), cmp_tp_id);
		for (size_t i = before; i < p->st.n; i++)
			p->st.ev[i].leader = (int)i;
		return 0;
	}

	int err = add_tracepoint(p, sys, name, start, p->pos - start);

	if (err == -ENOENT) {
		struct perfev__suggest sg;
		struct tp_hint th = { .sg = &sg };
		bool sys_ok = tp_system_exists(p, sys);

		if (sys_ok) {
			char full[520];

			snprintf(full, sizeof(full), "%s:%s", sys, name);
			perfev__suggest_init(&sg, full, strlen(full));
			perfev_tracefs_foreach(p->tracefs, sys, NULL, tp_hint_cb, &th);
			perfev__suggest_hint(&sg, hint, sizeof(hint));
			return fail(p, -ENOENT, nstart, nlen, hint,
				    "unknown tracepoint '%s' in system '%s'", name, sys);
		}
		perfev__suggest_init(&sg, sys, wlen);
		th.systems = true;
		perfev_tracefs_foreach(p->tracefs, NULL, "*_*", tp_hint_cb, &th);
		perfev__suggest_hint(&sg, hint, sizeof(hint));
		if (!hint[0])
			snprintf(hint, sizeof(hint), "'perfev list tracepoint' shows them");
		return fail(p, -ENOENT, start, wlen, hint,
			    "unknown event or tracepoint system '%s'", sys);
	}
	if (err && !p->errcode)
		return fail(p, err, start, p->pos - start, NULL, "cannot use tracepoint '%s:%s': %s",
			    sys, name, perfev_strerror(err));
	return err;
}

static int parse_mem(struct parser *p, size_t start)
{
	struct perfev__event *ev;
	struct term terms[MAX_TERMS];
	size_t nterms = 0, tstart = 0, as;
	uint64_t addr, len = 0;
	unsigned int bp_type = 0;
	bool after_slash = false, have_mods;
	struct required req = { 0 };
	struct mods m;

	p->pos += 4; /* "mem:" */
	as = p->pos;
	while (p->pos < p->len && (is_digit(peek(p)) || is_alpha(peek(p))))
		p->pos++;
	if (parse_number(p->s + as, p->pos - as, &addr))
		return fail(p, -EINVAL, as, p->pos - as, "write it as mem:0xADDR[/LEN][:rwx]",
			    "expected an address after 'mem:'");
	if (peek(p) == '/' && p->pos + 1 < p->len && is_digit(p->s[p->pos + 1])) {
		size_t ls = ++p->pos;

		while (p->pos < p->len && (is_digit(peek(p)) || is_alpha(peek(p))))
			p->pos++;
		if (parse_number(p->s + ls, p->pos - ls, &len))
			return fail(p, -EINVAL, ls, p->pos - ls, NULL,
				    "expected a breakpoint length in bytes");
	}
	if (peek(p) == ':' && p->pos + 1 < p->len && strchr("rwx", p->s[p->pos + 1])) {
		p->pos++;
		while (p->pos < p->len && strchr("rwx", peek(p)) && peek(p)) {
			unsigned int bit = peek(p) == 'r' ? HW_BREAKPOINT_R
					   : peek(p) == 'w' ? HW_BREAKPOINT_W
							    : HW_BREAKPOINT_X;

			if (bp_type & bit)
				return fail(p, -EINVAL, p->pos, 1, NULL,
					    "breakpoint access '%c' given twice", peek(p));
			bp_type |= bit;
			p->pos++;
		}
		if (is_alpha(peek(p)))
			return fail(p, -EINVAL, p->pos, 1,
				    "access is r, w and/or x; event modifiers follow another ':'",
				    "unknown breakpoint access '%c'", peek(p));
	}
	if (peek(p) == '/') {
		if (scan_terms(p, terms, &nterms, &tstart))
			return p->errcode;
		after_slash = true;
	}

	ev = new_event(p, PERFEV_KIND_BREAKPOINT, PERF_TYPE_BREAKPOINT, 0);
	if (!ev)
		return p->errcode;
	if (!bp_type)
		bp_type = HW_BREAKPOINT_R | HW_BREAKPOINT_W;
	/* perf's defaults: a long for execute breakpoints, 4 bytes for data. */
	if (!len)
		len = bp_type == HW_BREAKPOINT_X ? sizeof(long) : HW_BREAKPOINT_LEN_4;
	ev->a.attr.bp_type = bp_type;
	ev->a.attr.bp_addr = addr;
	ev->a.attr.bp_len = len;
	ev->a.attr.sample_period = 1;
	if (set_str(p, &ev->pmu, "breakpoint", strlen("breakpoint")))
		return p->errcode;
	if (nterms && apply_terms(p, ev, NULL, terms, nterms, "mem:", &req, 0))
		return p->errcode;
	if (event_mods(p, after_slash, &m, &have_mods))
		return p->errcode;
	return finish_events(p, p->st.n - 1, start, &m, have_mods);
}

static int parse_event(struct parser *p)
{
	struct term terms[MAX_TERMS];
	size_t start, wlen, first = p->st.n, nterms = 0, tstart = 0;
	bool have_mods = false, after_slash = false, tracepoint = false;
	struct mods m = { 0 };
	size_t suffix;
	const char *w;
	int r;

	skip_space(p);
	start = p->pos;
	if (p->len - p->pos >= 4 && !memcmp(p->s + p->pos, "mem:", 4))
		return parse_mem(p, start);
	wlen = scan_word(p);
	w = p->s + start;
	if (!wlen) {
		if (p->pos == p->len)
			return fail(p, -EINVAL, p->pos, 0, NULL, "expected an event name");
		return fail(p, -EINVAL, p->pos, 1, NULL, "expected an event name, got '%c'",
			    peek(p));
	}

	if (peek(p) == '/') {
		const struct perfev_pmu *pmus[256];
		size_t np, i;

		if (scan_terms(p, terms, &nterms, &tstart))
			return p->errcode;
		after_slash = true;
		np = match_pmus(p, w, wlen, pmus, PERFEV__ARRAY_SIZE(pmus));
		for (i = 0; i < np; i++) {
			struct required req = { 0 };
			struct perfev__event *ev = new_pmu_event(p, pmus[i]);

			if (!ev || apply_terms(p, ev, pmus[i], terms, nterms, perfev_pmu_name(pmus[i]),
					       &req, 0) ||
			    check_required(p, &req))
				return p->errcode;
		}
		if (!np) {
			char what[256];
			struct required req = { 0 };
			size_t before = p->st.n, e;

			r = make_generic(p, w, wlen, start);
			if (!r) {
				/* A sysfs alias with terms: "tsc/name=t/" is msr/tsc,name=t/. */
				r = make_alias_events(p, w, wlen, start);
				for (e = before; r > 0 && e < p->st.n; e++) {
					const struct perfev_pmu *pmu =
						perfev_pmus_find(p->pmus, p->st.ev[e].pmu);
					struct required areq = { .alias = "" };

					if (apply_terms(p, &p->st.ev[e], pmu, terms, nterms,
							p->st.ev[e].pmu, &areq, 0))
						return p->errcode;
				}
				if (r > 0)
					goto mods;
			}
			if (r < 0)
				return r;
			if (!r) {
				char hint[192];
				struct perfev__suggest sg;
				size_t k, n = p->pmus ? perfev_pmus_count(p->pmus) : 0;

				perfev__suggest_init(&sg, w, wlen);
				for (k = 0; k < n; k++)
					perfev__suggest_add(&sg,
							    perfev_pmu_name(perfev_pmus_get(p->pmus, k)));
				perfev__suggest_hint(&sg, hint, sizeof(hint));
				if (!hint[0])
					snprintf(hint, sizeof(hint),
						 "PMUs are listed in /sys/bus/event_source/devices");
				return fail(p, -ENOENT, start, wlen, hint,
					    "unknown PMU '%.*s' (or no kernel support for it)",
					    (int)wlen, w);
			}
			snprintf(what, sizeof(what), "%.*s", (int)wlen, w);
			if (apply_terms(p, &p->st.ev[p->st.n - 1], NULL, terms, nterms, what, &req, 0))
				return p->errcode;
		}
	} else {
		r = make_generic(p, w, wlen, start);
		if (r < 0)
			return r;
		if (!r)
			r = make_alias_events(p, w, wlen, start);
		if (r < 0)
			return r;
		if (!r) {
			if (peek(p) != ':')
				return unknown_event(p, w, wlen, start);
			if (parse_tracepoint(p, w, wlen, start))
				return p->errcode;
			tracepoint = true;
			if (peek(p) == '/') {
				char what[256];
				struct required req = { 0 };
				size_t i;

				if (scan_terms(p, terms, &nterms, &tstart))
					return p->errcode;
				after_slash = true;
				snprintf(what, sizeof(what), "%.*s", (int)(tstart - 1 - start), w);
				for (i = first; i < p->st.n; i++)
					if (apply_terms(p, &p->st.ev[i], NULL, terms, nterms, what, &req,
							0))
						return p->errcode;
			}
		}
	}
mods:
	suffix = p->pos;
	skip_space(p);
	if (event_mods(p, after_slash, &m, &have_mods))
		return p->errcode;
	if (tracepoint && has_glob(w, p->s + suffix - w)) {
		/* Name each expansion of a glob after the tracepoint it became. */
		size_t i;

		for (i = first; i < p->st.n; i++) {
			struct perfev__event *ev = &p->st.ev[i];
			char *n;

			if (ev->name)
				continue;
			if (asprintf(&n, "%s:%s%.*s", ev->tp_system, ev->tp_name,
				     (int)(p->pos - suffix), p->s + suffix) < 0)
				return nomem(p);
			ev->name = n;
		}
	}
	return finish_events(p, first, start, &m, have_mods);
}

static int parse_group(struct parser *p)
{
	size_t start = p->pos, first = p->st.n, gname_len, i;
	const char *gname = p->s + p->pos;
	struct mods m = { 0 };

	gname_len = scan_word(p);
	skip_space(p);
	p->pos++; /* '{' */
	for (;;) {
		skip_space(p);
		if (peek(p) == '{')
			return fail(p, -EINVAL, p->pos, 1, NULL, "groups cannot be nested");
		if (peek(p) == '}')
			return fail(p, -EINVAL, p->pos, 1, NULL,
				    p->st.n == first ? "empty group" : "expected an event before '}'");
		if (parse_event(p))
			return p->errcode;
		skip_space(p);
		if (peek(p) == ',') {
			p->pos++;
			continue;
		}
		if (peek(p) == '}') {
			p->pos++;
			break;
		}
		if (p->pos == p->len)
			return fail(p, -EINVAL, start, 1, NULL, "missing '}' to close this group");
		return fail(p, -EINVAL, p->pos, 1, NULL, "expected ',' or '}' in group, got '%c'",
			    peek(p));
	}
	/* pinned and exclusive describe how a whole group is scheduled. */
	for (i = first + 1; i < p->st.n; i++) {
		struct perfev__event *ev = &p->st.ev[i];

		if (ev->a.attr.pinned || ev->a.attr.exclusive)
			return fail(p, -EINVAL, ev->offset, ev->length,
				    "put it on the group instead: {...}:D or {...}:e",
				    "modifier '%c' only applies to a group leader",
				    ev->a.attr.pinned ? 'D' : 'e');
	}
	skip_space(p);
	if (peek(p) == ':') {
		p->pos++;
		skip_space(p);
		if (scan_mods(p, &m))
			return p->errcode;
		if (!m.len)
			return fail(p, -EINVAL, m.off, 0, NULL, "expected modifiers after ':'");
		for (i = first; i < p->st.n; i++)
			if (apply_mods(p, &p->st.ev[i], &m, true, i == first))
				return p->errcode;
	}
	for (i = first; i < p->st.n; i++) {
		struct perfev__event *ev = &p->st.ev[i];

		ev->leader = (int)first;
		ev->group_size = i == first ? (int)(p->st.n - first) : 0;
		if (gname_len && set_str(p, &ev->group_name, gname, gname_len))
			return p->errcode;
	}
	return 0;
}

/* Does a group start here ("{" or "name{")? */
static bool at_group(const struct parser *p)
{
	size_t i = p->pos;

	while (i < p->len && is_word_char(p->s[i]))
		i++;
	while (i < p->len && is_space(p->s[i]))
		i++;
	return i < p->len && p->s[i] == '{';
}

static int parse_list(struct parser *p)
{
	skip_space(p);
	if (p->pos == p->len)
		return fail(p, -EINVAL, 0, 0, "give an event such as 'cycles' or 'task-clock'",
			    "empty event list");
	for (;;) {
		skip_space(p);
		if (at_group(p) ? parse_group(p) : parse_event(p))
			return p->errcode;
		skip_space(p);
		if (p->pos == p->len)
			return 0;
		if (peek(p) == ',') {
			p->pos++;
			skip_space(p);
			if (p->pos == p->len)
				return fail(p, -EINVAL, p->pos, 0, NULL, "expected an event after ','");
			continue;
		}
		if (peek(p) == '}')
			return fail(p, -EINVAL, p->pos, 1, NULL, "'}' without a matching '{'");
		return fail(p, -EINVAL, p->pos, 1, "separate events with ','",
			    "unexpected '%c' after event", peek(p));
	}
}

int perfev_evspec_add(struct perfev_evspec *spec, const char *str,
		      const struct perfev_parse_opts *opts, struct perfev_parse_error *err)
{
	struct parser p = { 0 };
	size_t i;
	int ret;

	if (err) {
		if (err->sz < sizeof(*err))
			return -EINVAL;
		memset((char *)err + sizeof(err->sz), 0, sizeof(*err) - sizeof(err->sz));
	}
	if (!spec || !str || !perfev__opts_ok(opts, opts ? opts->sz : 0, sizeof(*opts)))
		return -EINVAL;
	p.s = str;
	p.len = strlen(str);
	p.err = err;
	if (opts) {
		p.pmus = opts->pmus;
		p.tracefs = opts->tracefs;
		p.tracefs_error = opts->tracefs_error;
	}
	ret = parse_list(&p);
	if (!ret)
		ret = perfev__evspec_take(spec, &p.st);
	for (i = 0; i < p.st.n; i++)
		perfev__event_release(&p.st.ev[i]);
	free(p.st.ev);
	if (ret && err && !err->err) {
		err->err = ret;
		snprintf(err->message, sizeof(err->message), "%s", perfev_strerror(ret));
	}
	return ret;
}

int perfev_evspec_parse(const char *str, const struct perfev_parse_opts *opts,
			struct perfev_evspec **out, struct perfev_parse_error *err)
{
	struct perfev_evspec *spec;
	int ret;

	if (!out)
		return -EINVAL;
	ret = perfev_evspec_new(&spec);
	if (ret)
		return ret;
	ret = perfev_evspec_add(spec, str, opts, err);
	if (ret) {
		perfev_evspec_free(spec);
		return ret;
	}
	*out = spec;
	return 0;
}
