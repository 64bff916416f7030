/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal interface of the event parser, split by concern:
 * parse.c (grammar and entry points), parse-mods.c (modifiers),
 * parse-terms.c (pmu/term=value/ terms and sysfs aliases),
 * parse-resolve.c (what a name means: generic, raw, cache, PMU alias).
 */
#ifndef PERFEV_PARSE_INTERNAL_H
#define PERFEV_PARSE_INTERNAL_H

#include "common/internal.h"
#include "event/parse.h"

#define MAX_TERMS 64
#define MAX_MODS  15 /* perf refuses modifier strings longer than "ukhGHpppPSDIWeb" */

struct term {
	const char *key;
	size_t klen;
	const char *val; /* NULL when the term has no '=' */
	size_t vlen;
	size_t off; /* where to point errors at, in the user's string */
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

struct mods {
	size_t off, len; /* the letters, without the ':' */
};

/* Format terms that a sysfs alias leaves to the user ("umask=?"). */
struct required {
	const char *key[8];
	size_t klen[8];
	size_t n;
	size_t off, span;
	const char *alias;
};

/* ---- lexical helpers ---------------------------------------------------- */

static inline bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline bool is_word_char(char c)
{
	return is_alpha(c) || is_digit(c) || c == '_' || c == '-' || c == '.' || c == '*' ||
	       c == '?' || c == '[' || c == ']' || c == '!';
}

static inline bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

static inline char peek(const struct parser *p)
{
	return p->pos < p->len ? p->s[p->pos] : '\0';
}

static inline void skip_space(struct parser *p)
{
	while (p->pos < p->len && is_space(p->s[p->pos]))
		p->pos++;
}

static inline size_t scan_word(struct parser *p)
{
	size_t start = p->pos;

	while (p->pos < p->len && is_word_char(p->s[p->pos]))
		p->pos++;
	return p->pos - start;
}

static inline bool has_glob(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] == '*' || s[i] == '?' || s[i] == '[')
			return true;
	return false;
}

/* parse.c */
int perfev__parse_fail(struct parser *p, int code, size_t off, size_t span, const char *hint,
		       const char *fmt, ...) PERFEV__PRINTF(6, 7);
int perfev__parse_nomem(struct parser *p);
int perfev__parse_number(const char *s, size_t n, uint64_t *out);
struct perfev__event *perfev__new_event(struct parser *p, enum perfev_event_kind kind,
					uint32_t type, uint64_t config);
int perfev__set_str(struct parser *p, char **dst, const char *s, size_t n);

/* parse-mods.c */
extern const char perfev__valid_mods[];
int perfev__scan_mods(struct parser *p, struct mods *m);
int perfev__apply_mods(struct parser *p, struct perfev__event *ev, const struct mods *m, bool add,
		       bool is_leader);

/* parse-terms.c */
int perfev__scan_terms(struct parser *p, struct term *terms, size_t *n, size_t *start);
int perfev__apply_terms(struct parser *p, struct perfev__event *ev, const struct perfev_pmu *pmu,
			const struct term *terms, size_t n, const char *what, struct required *req,
			int depth);
int perfev__apply_alias(struct parser *p, struct perfev__event *ev, const struct perfev_pmu *pmu,
			const struct perfev_alias *al, size_t off, size_t span,
			struct required *req, int depth);
int perfev__check_required(struct parser *p, const struct required *r);

/* parse-resolve.c */
bool perfev__parse_raw(const char *w, size_t n, bool allow_0x, uint64_t *config);
int perfev__make_generic(struct parser *p, const char *w, size_t n, size_t off);
int perfev__make_alias_events(struct parser *p, const char *w, size_t n, size_t off);
int perfev__unknown_event(struct parser *p, const char *w, size_t n, size_t off);
size_t perfev__match_pmus(struct parser *p, const char *w, size_t n, const struct perfev_pmu **out,
			  size_t max);
struct perfev__event *perfev__new_pmu_event(struct parser *p, const struct perfev_pmu *pmu);
struct perfev__event *perfev__new_numeric_event(struct parser *p, uint32_t type, uint64_t config);

#endif /* PERFEV_PARSE_INTERNAL_H */
