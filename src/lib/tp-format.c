// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tracepoint format files: the layout of a tracepoint's raw record.
 * Pure: works on the text of a format file from any machine.  The layout
 * is checked here first, then libtraceevent reads the fields.
 */
#include <errno.h>
#include <stdlib.h>
#include <event-parse.h>
#include "internal.h"
#include <perfev/tracefs.h>

struct perfev_tp_format {
	struct tep_handle *tep;
	struct tep_event *event;
	struct perfev_tp_field *fields;
	size_t nfields;
	char *print_fmt;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_';
}

/* "[N]" or "[]" ending t[0..n), N made of identifier characters. */
static bool ends_with_dim(const char *t, size_t n, size_t *base)
{
	size_t k;

	if (!n || t[n - 1] != ']')
		return false;
	for (k = n - 1; k > 0 && ident_char(t[k - 1]); k--)
		;
	if (!k || t[k - 1] != '[')
		return false;
	*base = k - 1;
	return true;
}

/*
 * One token of a field declaration.  Type words are identifiers and
 * stars ("const", "char", "*const", "void*"); the name is an identifier,
 * with an array size if it is an array.  A type followed by "[]" only
 * comes after __data_loc/__rel_loc ("__data_loc char[] msg").
 */
static bool decl_token_ok(const char *t, size_t n, bool is_name, bool dynamic)
{
	size_t k, base = n;

	if ((is_name || dynamic) && ends_with_dim(t, n, &base))
		n = base;
	if (!n)
		return false;
	if (is_name && is_digit(t[0]))
		return false;
	for (k = 0; k < n; k++)
		if (!ident_char(t[k]) && (is_name || t[k] != '*'))
			return false;
	return true;
}

/* The declaration of a field, as the kernel writes it: "TYPE... NAME[DIM]". */
static bool decl_ok(const char *d, size_t n)
{
	size_t i = 0, ntok = 0, prev = 0, prevlen = 0;
	bool dynamic = false;

	while (i < n) {
		size_t st;

		while (i < n && d[i] == ' ')
			i++;
		if (i == n)
			break;
		st = i;
		while (i < n && d[i] != ' ')
			i++;
		if (!ntok && !dynamic &&
		    ((i - st == 10 && !memcmp(d + st, "__data_loc", 10)) ||
		     (i - st == 9 && !memcmp(d + st, "__rel_loc", 9)))) {
			dynamic = true;
			continue;
		}
		/* The token before this one was a type word. */
		if (ntok && !decl_token_ok(d + prev, prevlen, false, dynamic))
			return false;
		prev = st;
		prevlen = i - st;
		ntok++;
	}
	return ntok >= 2 && decl_token_ok(d + prev, prevlen, true, dynamic);
}

static bool starts(const char *t, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && !memcmp(t, prefix, k);
}

/* "field:DECL;<ws>offset:N;<ws>size:N;<ws>signed:N;" with DECL's brackets balanced. */
static bool field_line_ok(const char *t, size_t n)
{
	bool have_offset = false, have_size = false;
	size_t i = 6;

	if (!starts(t, n, "field:"))
		return false;
	while (i < n && t[i] != ';')
		i++;
	if (i == n || !decl_ok(t + 6, i - 6))
		return false;
	i++;
	while (i < n) {
		size_t ks, ke, vs;

		while (i < n && is_blank(t[i]))
			i++;
		if (i == n)
			break;
		ks = i;
		while (i < n && t[i] >= 'a' && t[i] <= 'z')
			i++;
		if (i == n || t[i] != ':' || i == ks)
			return false;
		ke = i++;
		vs = i;
		while (i < n && is_digit(t[i]))
			i++;
		if (i == vs || i == n || t[i] != ';')
			return false;
		i++;
		if (ke - ks == 6 && !memcmp(t + ks, "offset", 6))
			have_offset = true;
		else if (ke - ks == 4 && !memcmp(t + ks, "size", 4))
			have_size = true;
	}
	return have_offset && have_size;
}

/*
 * Check "name:", "ID:", "format:", the field lines and the closing
 * "print fmt:" line.  Counts the fields, finds where the print format
 * starts (@body: the bytes before it) and what it says.
 */
static int check_layout(const char *s, size_t len, size_t *nfields, size_t *body, const char **pf,
			size_t *pflen)
{
	enum { NAME, ID, FORMAT, FIELDS } st = NAME;
	size_t i = 0;

	*nfields = 0;
	*body = len;
	*pf = NULL;
	*pflen = 0;
	while (i < len) {
		size_t e = i, ws = 0, tn;
		const char *t;

		while (e < len && s[e] != '\n')
			e++;
		while (i + ws < e && is_blank(s[i + ws]))
			ws++;
		t = s + i + ws;
		tn = e - i - ws;
		switch (st) {
		case NAME:
			if (!starts(t, tn, "name:") || tn == 5)
				return -EBADMSG;
			st = ID;
			break;
		case ID: {
			size_t k = 3, d;

			if (!starts(t, tn, "ID:"))
				return -EBADMSG;
			while (k < tn && is_blank(t[k]))
				k++;
			d = k;
			while (k < tn && is_digit(t[k]))
				k++;
			if (k == d || k != tn)
				return -EBADMSG;
			st = FORMAT;
			break;
		}
		case FORMAT:
			if (tn != 7 || !starts(t, tn, "format:"))
				return -EBADMSG;
			st = FIELDS;
			break;
		case FIELDS:
			if (!tn)
				break;
			if (starts(t, tn, "print fmt:")) {
				size_t k = 10, end = len;

				while (i + ws + k < len && is_blank(t[k]))
					k++;
				while (end > i + ws + k &&
				       (s[end - 1] == '\n' || is_blank(s[end - 1])))
					end--;
				*body = i;
				*pf = t + k;
				*pflen = end - (i + ws + k);
				return *nfields ? 0 : -EBADMSG;
			}
			if (!field_line_ok(t, tn))
				return -EBADMSG;
			(*nfields)++;
			break;
		}
		i = e < len ? e + 1 : e;
	}
	/* The kernel always ends with "print fmt:"; without it the text was cut short. */
	return -EBADMSG;
}

static int add_fields(struct perfev_tp_format *f, struct tep_format_field *list, bool common)
{
	struct tep_format_field *fl;
	size_t cap = f->nfields;

	for (fl = list; fl; fl = fl->next) {
		struct perfev_tp_field *d;

		if (perfev__grow(&f->fields, &cap, f->nfields + 1, sizeof(*f->fields)))
			return -ENOMEM;
		d = &f->fields[f->nfields++];
		d->name = fl->name;
		d->type = fl->type;
		d->offset = fl->offset < 0 ? 0 : (unsigned int)fl->offset;
		d->size = fl->size < 0 ? 0 : (unsigned int)fl->size;
		d->is_signed = fl->flags & TEP_FIELD_IS_SIGNED;
		d->is_dynamic = fl->flags & TEP_FIELD_IS_DYNAMIC;
		d->arraylen = (fl->flags & TEP_FIELD_IS_ARRAY) && !d->is_dynamic ? fl->arraylen : 0;
		d->is_common = common;
	}
	return 0;
}

int perfev_tp_format_parse(const char *sys, const char *text, size_t len,
			   struct perfev_tp_format **out)
{
	struct perfev_tp_format *f;
	enum tep_errno terr;
	size_t nfields, body, pflen;
	const char *pf;
	int err;

	if (!sys || !text || !out)
		return -EINVAL;
	err = check_layout(text, len, &nfields, &body, &pf, &pflen);
	if (err)
		return err;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->tep = tep_alloc();
	if (!f->tep) {
		free(f);
		return -ENOMEM;
	}
	tep_set_flag(f->tep, TEP_DISABLE_SYS_PLUGINS);
	/*
	 * Only the header and fields go to libtraceevent: the layout is all
	 * this needs, and its print-format parser trusts its input (it
	 * dereferences NULL on a print fmt naming an unknown field).  The
	 * event is then flagged as failed for lack of a print fmt, so the
	 * field count is what tells a complete parse.
	 */
	terr = tep_parse_format(f->tep, &f->event, text, body, sys);
	if (terr || !f->event || !f->event->name ||
	    (size_t)f->event->format.nr_common + (size_t)f->event->format.nr_fields != nfields) {
		perfev_tp_format_free(f);
		return -EBADMSG;
	}
	if (pf) {
		f->print_fmt = perfev__strndup(pf, pflen);
		if (!f->print_fmt) {
			perfev_tp_format_free(f);
			return -ENOMEM;
		}
	}
	err = add_fields(f, f->event->format.common_fields, true);
	if (!err)
		err = add_fields(f, f->event->format.fields, false);
	if (err) {
		perfev_tp_format_free(f);
		return err;
	}
	*out = f;
	return 0;
}

void perfev_tp_format_free(struct perfev_tp_format *f)
{
	if (!f)
		return;
	free(f->fields);
	free(f->print_fmt);
	if (f->tep)
		tep_free(f->tep);
	free(f);
}

uint64_t perfev_tp_format_id(const struct perfev_tp_format *f)
{
	return f->event->id < 0 ? 0 : (uint64_t)f->event->id;
}

const char *perfev_tp_format_name(const struct perfev_tp_format *f)
{
	return f->event->name;
}

const char *perfev_tp_format_system(const struct perfev_tp_format *f)
{
	return f->event->system;
}

const char *perfev_tp_format_print_fmt(const struct perfev_tp_format *f)
{
	return f->print_fmt;
}

size_t perfev_tp_format_field_count(const struct perfev_tp_format *f)
{
	return f->nfields;
}

const struct perfev_tp_field *perfev_tp_format_field(const struct perfev_tp_format *f, size_t idx)
{
	return idx < f->nfields ? &f->fields[idx] : NULL;
}
