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
 *             | NUM ':' NUM [terms] [[':'] MODS]  attr type and config
 *             | WORD [':' MODS]                   generic, cache, raw, alias
 *   terms    := '/' [term { ',' term }] '/'
 *   term     := KEY ['=' VALUE]
 *
 * Parsing is pure: the only inputs besides the string are the PMU
 * database and the tracefs handle, both read-only.  Every error carries
 * the byte offset and length of the offending token.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <unistd.h>
#include "event/parse-internal.h"
#include <perfev/attr.h>

int perfev__parse_fail(struct parser *p, int code, size_t off, size_t span, const char *hint,
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

int perfev__parse_nomem(struct parser *p)
{
	return perfev__parse_fail(p, -ENOMEM, p->pos, 0, NULL, "out of memory");
}

/* perf's numbers: 0x-prefixed hex, otherwise decimal (no octal). */
int perfev__parse_number(const char *s, size_t n, uint64_t *out)
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

struct perfev__event *perfev__new_event(struct parser *p, enum perfev_event_kind kind,
					uint32_t type, uint64_t config)
{
	struct perfev__event *ev;

	if (perfev__grow(&p->st.ev, &p->st.cap, p->st.n + 1, sizeof(*p->st.ev))) {
		perfev__parse_nomem(p);
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

int perfev__set_str(struct parser *p, char **dst, const char *s, size_t n)
{
	char *d = perfev__strndup(s, n);

	if (!d)
		return perfev__parse_nomem(p);
	free(*dst);
	*dst = d;
	return 0;
}

/* Modifiers after an event: ":mods", or letters right after a closing '/'. */
static int event_mods(struct parser *p, bool after_slash, struct mods *m, bool *have)
{
	*have = false;
	if (peek(p) == ':') {
		p->pos++;
		skip_space(p);
		if (perfev__scan_mods(p, m))
			return p->errcode;
		/* perf accepts "cs:" and treats it as plain "cs". */
		*have = m->len > 0;
	} else if (after_slash && is_alpha(peek(p))) {
		*have = true;
		if (perfev__scan_mods(p, m))
			return p->errcode;
	}
	if (peek(p) == ':')
		return perfev__parse_fail(p, -EINVAL, p->pos, 1,
					  "modifiers are written once: 'event:ukp'",
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
		if (have_mods && perfev__apply_mods(p, ev, m, false, true))
			return p->errcode;
		if (!ev->name && perfev__set_str(p, &ev->name, p->s + start, end - start))
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
		return perfev__parse_fail(
		    p, -EACCES, off, span,
		    "tracefs is readable by root only; run as root or adjust its permissions",
		    "cannot read the id of tracepoint '%s:%s': permission denied", sys, name);
	if (err)
		return err;
	ev = perfev__new_event(p, PERFEV_KIND_TRACEPOINT, PERF_TYPE_TRACEPOINT, id);
	if (!ev)
		return p->errcode;
	/* Every hit of a tracepoint is a sample. */
	ev->a.attr.sample_period = 1;
	if (perfev__set_str(p, &ev->tp_system, sys, strlen(sys)) ||
	    perfev__set_str(p, &ev->tp_name, name, strlen(name)) ||
	    perfev__set_str(p, &ev->pmu, "tracepoint", strlen("tracepoint")))
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
		if (!strchr(perfev__valid_mods, s[i]))
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
		return perfev__parse_fail(p, -EINVAL, p->pos, 1, NULL,
					  "expected a tracepoint name after '%.*s:'", (int)wlen, w);
	if (wlen >= sizeof(sys) || nlen >= sizeof(name))
		return perfev__parse_fail(p, -EINVAL, start, p->pos - start, NULL,
					  "tracepoint name too long");
	memcpy(sys, w, wlen);
	sys[wlen] = '\0';
	memcpy(name, p->s + nstart, nlen);
	name[nlen] = '\0';

	/* "cyclez:u" is a misspelt event with a modifier, not a tracepoint. */
	if (all_mod_letters(name, nlen) && !has_glob(sys, wlen) &&
	    (!p->tracefs || !tp_system_exists(p, sys))) {
		p->pos = nstart - 1;
		return perfev__unknown_event(p, w, wlen, start);
	}
	if (!p->tracefs && (p->tracefs_error == -EACCES || p->tracefs_error == -EPERM))
		return perfev__parse_fail(
		    p, -EACCES, start, p->pos - start,
		    "run as root, or make /sys/kernel/tracing readable",
		    "cannot use tracepoint '%s:%s': tracefs is not readable by this user", sys,
		    name);
	if (!p->tracefs)
		return perfev__parse_fail(
		    p, -ENOENT, start, p->pos - start,
		    "mount it with 'mount -t tracefs nodev /sys/kernel/tracing' (as root)",
		    "cannot use tracepoint '%s:%s': tracefs is not mounted", sys, name);

	if (has_glob(sys, wlen) || has_glob(name, nlen)) {
		struct tp_walk tw = {p, start, p->pos - start, 0};
		size_t before = p->st.n;
		int r = perfev_tracefs_foreach(p->tracefs, sys, name, tp_walk_cb, &tw);

		if (tw.err)
			return p->errcode ? p->errcode : tw.err;
		if (r < 0)
			return perfev__parse_fail(p, r, start, p->pos - start, NULL,
						  "cannot list tracepoints: %s",
						  perfev_strerror(r));
		if (p->st.n == before)
			return perfev__parse_fail(p, -ENOENT, start, p->pos - start,
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
		struct tp_hint th = {.sg = &sg};
		bool sys_ok = tp_system_exists(p, sys);

		if (sys_ok) {
			char full[520];

			snprintf(full, sizeof(full), "%s:%s", sys, name);
			perfev__suggest_init(&sg, full, strlen(full));
			perfev_tracefs_foreach(p->tracefs, sys, NULL, tp_hint_cb, &th);
			perfev__suggest_hint(&sg, hint, sizeof(hint));
			return perfev__parse_fail(p, -ENOENT, nstart, nlen, hint,
						  "unknown tracepoint '%s' in system '%s'", name,
						  sys);
		}
		perfev__suggest_init(&sg, sys, wlen);
		th.systems = true;
		perfev_tracefs_foreach(p->tracefs, NULL, "*_*", tp_hint_cb, &th);
		perfev__suggest_hint(&sg, hint, sizeof(hint));
		if (!hint[0])
			snprintf(hint, sizeof(hint), "'perfev list tracepoint' shows them");
		return perfev__parse_fail(p, -ENOENT, start, wlen, hint,
					  "unknown event or tracepoint system '%s'", sys);
	}
	if (err && !p->errcode)
		return perfev__parse_fail(p, err, start, p->pos - start, NULL,
					  "cannot use tracepoint '%s:%s': %s", sys, name,
					  perfev_strerror(err));
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
	struct required req = {0};
	struct mods m;

	p->pos += 4; /* "mem:" */
	as = p->pos;
	while (p->pos < p->len && (is_digit(peek(p)) || is_alpha(peek(p))))
		p->pos++;
	if (perfev__parse_number(p->s + as, p->pos - as, &addr))
		return perfev__parse_fail(p, -EINVAL, as, p->pos - as,
					  "write it as mem:0xADDR[/LEN][:rwx]",
					  "expected an address after 'mem:'");
	if (peek(p) == '/' && p->pos + 1 < p->len && is_digit(p->s[p->pos + 1])) {
		size_t ls = ++p->pos;

		while (p->pos < p->len && (is_digit(peek(p)) || is_alpha(peek(p))))
			p->pos++;
		if (perfev__parse_number(p->s + ls, p->pos - ls, &len))
			return perfev__parse_fail(p, -EINVAL, ls, p->pos - ls, NULL,
						  "expected a breakpoint length in bytes");
	}
	if (peek(p) == ':' && p->pos + 1 < p->len && strchr("rwx", p->s[p->pos + 1])) {
		p->pos++;
		while (p->pos < p->len && strchr("rwx", peek(p)) && peek(p)) {
			unsigned int bit = peek(p) == 'r'   ? HW_BREAKPOINT_R
					   : peek(p) == 'w' ? HW_BREAKPOINT_W
							    : HW_BREAKPOINT_X;

			if (bp_type & bit)
				return perfev__parse_fail(p, -EINVAL, p->pos, 1, NULL,
							  "breakpoint access '%c' given twice",
							  peek(p));
			bp_type |= bit;
			p->pos++;
		}
		if (is_alpha(peek(p)))
			return perfev__parse_fail(
			    p, -EINVAL, p->pos, 1,
			    "access is r, w and/or x; event modifiers follow another ':'",
			    "unknown breakpoint access '%c'", peek(p));
	}
	if (peek(p) == '/') {
		if (perfev__scan_terms(p, terms, &nterms, &tstart))
			return p->errcode;
		after_slash = true;
	}

	ev = perfev__new_event(p, PERFEV_KIND_BREAKPOINT, PERF_TYPE_BREAKPOINT, 0);
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
	if (perfev__set_str(p, &ev->pmu, "breakpoint", strlen("breakpoint")))
		return p->errcode;
	if (nterms && perfev__apply_terms(p, ev, NULL, terms, nterms, "mem:", &req, 0))
		return p->errcode;
	if (event_mods(p, after_slash, &m, &have_mods))
		return p->errcode;
	return finish_events(p, p->st.n - 1, start, &m, have_mods);
}

/* The end of a number at @i: 0x-prefixed hex or decimal, as perf's lexer reads it. */
static size_t number_end(const struct parser *p, size_t i)
{
	if (i + 1 < p->len && p->s[i] == '0' && (p->s[i + 1] == 'x' || p->s[i + 1] == 'X')) {
		for (i += 2; i < p->len && isxdigit((unsigned char)p->s[i]); i++)
			;
		return i;
	}
	while (i < p->len && is_digit(p->s[i]))
		i++;
	return i;
}

/*
 * "TYPE:CONFIG" with p->pos on the ':'.  Modifiers may follow the config
 * directly ("1:1u"), as they follow a closing '/'.
 */
static int parse_numeric(struct parser *p, size_t start, size_t tlen, uint64_t type, int terr,
			 bool *after_slash)
{
	struct term terms[MAX_TERMS];
	size_t cs, nterms = 0, tstart = 0;
	struct perfev__event *ev;
	struct required req = {0};
	uint64_t config;
	int err;

	p->pos++; /* ':' */
	skip_space(p);
	cs = p->pos;
	p->pos = number_end(p, cs);
	err = perfev__parse_number(p->s + cs, p->pos - cs, &config);
	if (err == -ERANGE)
		return perfev__parse_fail(p, -ERANGE, cs, p->pos - cs, NULL,
					  "config %.*s does not fit in 64 bits", (int)(p->pos - cs),
					  p->s + cs);
	if (err)
		return perfev__parse_fail(p, -EINVAL, cs, p->pos > cs ? p->pos - cs : 1,
					  "a numeric event is TYPE:CONFIG, e.g. 1:0 for cpu-clock",
					  "expected a config number after '%.*s:'", (int)tlen,
					  p->s + start);
	if (terr || type > UINT32_MAX)
		return perfev__parse_fail(
		    p, -ERANGE, start, tlen, "perf_event_attr.type is 32 bits wide",
		    "event type %.*s does not fit in 32 bits", (int)tlen, p->s + start);
	ev = perfev__new_numeric_event(p, (uint32_t)type, config);
	if (!ev)
		return p->errcode;
	if (peek(p) == '/') {
		char what[64];

		if (perfev__scan_terms(p, terms, &nterms, &tstart))
			return p->errcode;
		snprintf(what, sizeof(what), "%.*s", (int)(tstart - 1 - start), p->s + start);
		if (perfev__apply_terms(p, &p->st.ev[p->st.n - 1], NULL, terms, nterms, what, &req,
					0))
			return p->errcode;
	}
	*after_slash = true;
	return 0;
}

/* The first character at or after @i that is not a blank ('\0' at the end). */
static char next_nonblank(const struct parser *p, size_t i)
{
	while (i < p->len && is_space(p->s[i]))
		i++;
	return i < p->len ? p->s[i] : '\0';
}

static int parse_event(struct parser *p)
{
	struct term terms[MAX_TERMS];
	size_t start, wlen, first = p->st.n, nterms = 0, tstart = 0;
	bool have_mods = false, after_slash = false, tracepoint = false;
	struct mods m = {0};
	size_t suffix;
	uint64_t type = 0;
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
			return perfev__parse_fail(p, -EINVAL, p->pos, 0, NULL,
						  "expected an event name");
		return perfev__parse_fail(p, -EINVAL, p->pos, 1, NULL,
					  "expected an event name, got '%c'", peek(p));
	}

	r = perfev__parse_number(w, wlen, &type);
	if (r != -EINVAL && next_nonblank(p, p->pos) == ':') {
		skip_space(p);
		if (parse_numeric(p, start, wlen, type, r, &after_slash))
			return p->errcode;
		goto mods;
	}
	if (peek(p) == '/') {
		const struct perfev_pmu *pmus[256];
		size_t np, i;

		if (perfev__scan_terms(p, terms, &nterms, &tstart))
			return p->errcode;
		after_slash = true;
		np = perfev__match_pmus(p, w, wlen, pmus, PERFEV__ARRAY_SIZE(pmus));
		for (i = 0; i < np; i++) {
			struct required req = {0};
			struct perfev__event *ev = perfev__new_pmu_event(p, pmus[i]);

			if (!ev ||
			    perfev__apply_terms(p, ev, pmus[i], terms, nterms,
						perfev_pmu_name(pmus[i]), &req, 0) ||
			    perfev__check_required(p, &req))
				return p->errcode;
		}
		if (!np) {
			char what[256];
			struct required req = {0};
			size_t before = p->st.n, e;

			r = perfev__make_generic(p, w, wlen, start);
			if (!r) {
				/* A sysfs alias with terms: "tsc/name=t/" is msr/tsc,name=t/. */
				r = perfev__make_alias_events(p, w, wlen, start);
				for (e = before; r > 0 && e < p->st.n; e++) {
					const struct perfev_pmu *pmu =
					    perfev_pmus_find(p->pmus, p->st.ev[e].pmu);
					struct required areq = {.alias = ""};

					if (perfev__apply_terms(p, &p->st.ev[e], pmu, terms, nterms,
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
					perfev__suggest_add(
					    &sg, perfev_pmu_name(perfev_pmus_get(p->pmus, k)));
				perfev__suggest_hint(&sg, hint, sizeof(hint));
				if (!hint[0])
					snprintf(
					    hint, sizeof(hint),
					    "PMUs are listed in /sys/bus/event_source/devices");
				return perfev__parse_fail(
				    p, -ENOENT, start, wlen, hint,
				    "unknown PMU '%.*s' (or no kernel support for it)", (int)wlen,
				    w);
			}
			snprintf(what, sizeof(what), "%.*s", (int)wlen, w);
			if (perfev__apply_terms(p, &p->st.ev[p->st.n - 1], NULL, terms, nterms,
						what, &req, 0))
				return p->errcode;
		}
	} else {
		r = perfev__make_generic(p, w, wlen, start);
		if (r < 0)
			return r;
		if (!r)
			r = perfev__make_alias_events(p, w, wlen, start);
		if (r < 0)
			return r;
		if (!r) {
			if (peek(p) != ':')
				return perfev__unknown_event(p, w, wlen, start);
			if (parse_tracepoint(p, w, wlen, start))
				return p->errcode;
			tracepoint = true;
			if (peek(p) == '/') {
				char what[256];
				struct required req = {0};
				size_t i;

				if (perfev__scan_terms(p, terms, &nterms, &tstart))
					return p->errcode;
				after_slash = true;
				snprintf(what, sizeof(what), "%.*s", (int)(tstart - 1 - start), w);
				for (i = first; i < p->st.n; i++)
					if (perfev__apply_terms(p, &p->st.ev[i], NULL, terms,
								nterms, what, &req, 0))
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
				return perfev__parse_nomem(p);
			ev->name = n;
		}
	}
	return finish_events(p, first, start, &m, have_mods);
}

static int parse_group(struct parser *p)
{
	size_t start = p->pos, first = p->st.n, gname_len, i;
	const char *gname = p->s + p->pos;
	struct mods m = {0};

	gname_len = scan_word(p);
	skip_space(p);
	p->pos++; /* '{' */
	for (;;) {
		skip_space(p);
		if (peek(p) == '{')
			return perfev__parse_fail(p, -EINVAL, p->pos, 1, NULL,
						  "groups cannot be nested");
		if (peek(p) == '}')
			return perfev__parse_fail(
			    p, -EINVAL, p->pos, 1, NULL,
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
			return perfev__parse_fail(p, -EINVAL, start, 1, NULL,
						  "missing '}' to close this group");
		return perfev__parse_fail(p, -EINVAL, p->pos, 1, NULL,
					  "expected ',' or '}' in group, got '%c'", peek(p));
	}
	/* pinned and exclusive describe how a whole group is scheduled. */
	for (i = first + 1; i < p->st.n; i++) {
		struct perfev__event *ev = &p->st.ev[i];

		if (ev->a.attr.pinned || ev->a.attr.exclusive)
			return perfev__parse_fail(p, -EINVAL, ev->offset, ev->length,
						  "put it on the group instead: {...}:D or {...}:e",
						  "modifier '%c' only applies to a group leader",
						  ev->a.attr.pinned ? 'D' : 'e');
	}
	skip_space(p);
	if (peek(p) == ':') {
		p->pos++;
		skip_space(p);
		if (perfev__scan_mods(p, &m))
			return p->errcode;
		if (!m.len)
			return perfev__parse_fail(p, -EINVAL, m.off, 0, NULL,
						  "expected modifiers after ':'");
		for (i = first; i < p->st.n; i++)
			if (perfev__apply_mods(p, &p->st.ev[i], &m, true, i == first))
				return p->errcode;
	}
	for (i = first; i < p->st.n; i++) {
		struct perfev__event *ev = &p->st.ev[i];

		ev->leader = (int)first;
		ev->group_size = i == first ? (int)(p->st.n - first) : 0;
		if (gname_len && perfev__set_str(p, &ev->group_name, gname, gname_len))
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
	return next_nonblank(p, i) == '{';
}

static int parse_list(struct parser *p)
{
	skip_space(p);
	if (p->pos == p->len)
		return perfev__parse_fail(p, -EINVAL, 0, 0,
					  "give an event such as 'cycles' or 'task-clock'",
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
				return perfev__parse_fail(p, -EINVAL, p->pos, 0, NULL,
							  "expected an event after ','");
			continue;
		}
		if (peek(p) == '}')
			return perfev__parse_fail(p, -EINVAL, p->pos, 1, NULL,
						  "'}' without a matching '{'");
		return perfev__parse_fail(p, -EINVAL, p->pos, 1, "separate events with ','",
					  "unexpected '%c' after event", peek(p));
	}
}

int perfev_evspec_add(struct perfev_evspec *spec, const char *str,
		      const struct perfev_parse_opts *opts, struct perfev_parse_error *err)
{
	struct parser p = {0};
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
		p.pmus = PERFEV__OPT(opts, pmus, NULL);
		p.tracefs = PERFEV__OPT(opts, tracefs, NULL);
		p.tracefs_error = PERFEV__OPT(opts, tracefs_error, 0);
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
