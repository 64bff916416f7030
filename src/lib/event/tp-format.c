// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tracepoint format files: the layout of a tracepoint's raw record, and
 * its raw data printed and decoded with it.  Pure: works on the text of a
 * format file from any machine.  The layout is checked here first, then
 * libtraceevent reads the fields; the print fmt goes to libtraceevent only
 * once the fields it names are known to exist, and raw data only once
 * tp-format-check.c has walked every read printing it will do.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <event-parse.h>
#include <trace-seq.h>
#include "common/internal.h"
#include "event/tp-format-internal.h"
#include <perfev/tracefs.h>

struct perfev_tp_format {
	struct tep_handle *tep;
	struct tep_event *event;
	struct perfev_tp_field *fields;
	struct tep_format_field **tfields; /* libtraceevent's view of fields[i] */
	size_t nfields;
	char *print_fmt;
	unsigned int long_size;
	bool big_endian;
	uint64_t id;
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
	size_t cap = f->nfields, tcap = f->nfields;

	for (fl = list; fl; fl = fl->next) {
		struct perfev_tp_field *d;

		if (perfev__grow(&f->fields, &cap, f->nfields + 1, sizeof(*f->fields)) ||
		    perfev__grow(&f->tfields, &tcap, f->nfields + 1, sizeof(*f->tfields)))
			return -ENOMEM;
		f->tfields[f->nfields] = fl;
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

static bool host_big_endian(void)
{
	const uint16_t one = 1;

	return *(const unsigned char *)&one == 0;
}

/*
 * printk_formats, "ADDR : "text"" per line: the strings that %s of a
 * pointer field prints when the pointer is one of them.  Entries too
 * short to be a string are left out: libtraceevent strips a quote and a
 * "\n" from each, reading before the start of shorter ones.
 */
static void add_printk(struct tep_handle *tep, const char *text, size_t len)
{
	size_t i = 0;

	while (i < len) {
		size_t e = i, colon = i, st;
		char addr[32], *fmt;

		while (e < len && text[e] != '\n')
			e++;
		while (colon < e && text[colon] != ':')
			colon++;
		/* One character (the blank) after the colon, then the string. */
		st = colon + 2;
		if (colon < e && colon > i && colon - i < sizeof(addr) && st <= e) {
			memcpy(addr, text + i, colon - i);
			addr[colon - i] = '\0';
			fmt = perfev__strndup(text + st, e - st);
			if (fmt && strlen(fmt) >= 3 + (size_t)(fmt[0] == '"'))
				tep_register_print_string(tep, fmt, strtoull(addr, NULL, 16));
			free(fmt);
		}
		i = e + 1;
	}
}

/*
 * A libtraceevent handle holding @len bytes of @text as its one event, and
 * the event, when it has the @nfields fields the layout check counted.
 */
static int parse_tep(const char *sys, const char *text, size_t len, size_t nfields,
		     const struct perfev_tp_format *f, struct tep_handle **tepp,
		     struct tep_event **evp)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *ev = NULL;
	enum tep_errno terr;

	if (!tep)
		return -ENOMEM;
	tep_set_flag(tep, TEP_DISABLE_SYS_PLUGINS);
	tep_set_long_size(tep, (int)f->long_size);
	tep_set_file_bigendian(tep, f->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, host_big_endian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	terr = tep_parse_format(tep, &ev, text, len, sys);
	if (terr || !ev || !ev->name ||
	    (size_t)ev->format.nr_common + (size_t)ev->format.nr_fields != nfields) {
		tep_free(tep);
		return -EBADMSG;
	}
	*tepp = tep;
	*evp = ev;
	return 0;
}

int perfev__tp_format_parse_env(const char *sys, const char *text, size_t len,
				const struct perfev__tp_env *env, struct perfev_tp_format **out)
{
	struct perfev_tp_format *f;
	size_t nfields, body, pflen;
	const char *pf;
	int err;

	if (!sys || !text || !out)
		return -EINVAL;
	if (env && env->long_size != 0 && env->long_size != 4 && env->long_size != 8)
		return -EINVAL;
	err = check_layout(text, len, &nfields, &body, &pf, &pflen);
	if (err)
		return err;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->long_size = env && env->long_size ? env->long_size : (unsigned int)sizeof(long);
	f->big_endian = env ? env->big_endian : host_big_endian();
	/*
	 * The header and fields go to libtraceevent first: its print-format
	 * parser trusts its input (it dereferences NULL on a print fmt
	 * naming an unknown field, and recurses once per bracket and
	 * operator).  Without a print fmt the event is flagged as failed,
	 * so the field count is what tells a complete parse.
	 */
	err = parse_tep(sys, text, body, nfields, f, &f->tep, &f->event);
	if (err) {
		free(f);
		return err;
	}
	/*
	 * Then, when the print fmt names only fields that exist, the whole
	 * text, for printing.  A print fmt libtraceevent cannot parse leaves
	 * the event flagged as failed: printing shows its fields, as perf
	 * does ("[FAILED TO PARSE]").
	 */
	if (pf && perfev__tp_print_fmt_ok(f->event, pf, pflen)) {
		struct tep_handle *tep;
		struct tep_event *ev;

		if (!parse_tep(sys, text, len, nfields, f, &tep, &ev)) {
			tep_free(f->tep);
			f->tep = tep;
			f->event = ev;
		}
	}
	if (env && env->printk)
		add_printk(f->tep, env->printk, env->printk_len);
	f->id = f->event->id < 0 ? 0 : (uint64_t)f->event->id;
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

int perfev_tp_format_parse(const char *sys, const char *text, size_t len,
			   struct perfev_tp_format **out)
{
	return perfev__tp_format_parse_env(sys, text, len, NULL, out);
}

void perfev_tp_format_free(struct perfev_tp_format *f)
{
	if (!f)
		return;
	free(f->fields);
	free(f->tfields);
	free(f->print_fmt);
	if (f->tep)
		tep_free(f->tep);
	free(f);
}

uint64_t perfev_tp_format_id(const struct perfev_tp_format *f)
{
	return f->id;
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

/* ---- raw data ------------------------------------------------------------ */

int perfev_tp_format_print(const struct perfev_tp_format *f, const void *raw, size_t raw_size,
			   char *buf, size_t len)
{
	_Alignas(16) unsigned char stack[512];
	unsigned char *data = stack;
	struct tep_format_field *type;
	struct tep_record rec;
	struct trace_seq s;
	int err = 0;

	if (!f || (!raw && raw_size) || (!buf && len))
		return -EINVAL;
	if (raw_size > INT_MAX - PERFEV__TP_PAD)
		return -EBADMSG;
	/*
	 * An aligned copy, with zero bytes after it: they end strings that
	 * the data does not end, where libtraceevent prints up to a NUL.
	 */
	if (raw_size + PERFEV__TP_PAD > sizeof(stack)) {
		data = malloc(raw_size + PERFEV__TP_PAD);
		if (!data)
			return -ENOMEM;
	}
	if (raw_size)
		memcpy(data, raw, raw_size);
	memset(data + raw_size, 0, PERFEV__TP_PAD);
	/* libtraceevent picks the format by the record's common_type: it must be this one. */
	type = tep_find_common_field(f->event, "common_type");
	if (!type || type->offset < 0 || type->size < 0 ||
	    (uint64_t)type->offset + (uint64_t)type->size > raw_size ||
	    perfev__tp_read_num(data + type->offset, (unsigned int)type->size, f->big_endian) !=
		f->id) {
		err = -EBADMSG;
		goto out;
	}
	err = perfev__tp_check_data(f->event, data, raw_size, f->long_size, f->big_endian);
	if (err)
		goto out;
	memset(&rec, 0, sizeof(rec));
	rec.data = data;
	rec.size = (int)raw_size;
	trace_seq_init(&s);
	tep_print_event(f->tep, &s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	if (s.state != TRACE_SEQ__GOOD || !s.buffer) {
		err = -ENOMEM;
	} else if (s.len > INT_MAX) {
		err = -EOVERFLOW;
	} else {
		if (len) {
			size_t n = s.len < len - 1 ? s.len : len - 1;

			memcpy(buf, s.buffer, n);
			buf[n] = '\0';
		}
		err = (int)s.len;
	}
	trace_seq_destroy(&s);
out:
	if (data != stack)
		free(data);
	return err;
}

/* Is @type, without "__data_loc", "const" and its array size, "char"? */
static bool char_type(const char *type)
{
	size_t n;

	if (!type)
		return false;
	if (!strncmp(type, "__data_loc ", 11))
		type += 11;
	else if (!strncmp(type, "__rel_loc ", 10))
		type += 10;
	if (!strncmp(type, "const ", 6))
		type += 6;
	n = strcspn(type, "[");
	while (n && type[n - 1] == ' ')
		n--;
	return n == 4 && !memcmp(type, "char", 4);
}

int perfev_tp_format_value(const struct perfev_tp_format *f, size_t idx, const void *raw,
			   size_t raw_size, struct perfev_tp_value *v)
{
	const unsigned char *p = raw;
	const struct perfev_tp_field *fl;
	const struct tep_format_field *tf;
	uint64_t start, bytes, es;

	if (!f || !v || (!raw && raw_size) || idx >= f->nfields)
		return -EINVAL;
	fl = &f->fields[idx];
	tf = f->tfields[idx];
	memset(v, 0, sizeof(*v));
	v->field = fl;
	v->big_endian = f->big_endian;
	if ((uint64_t)fl->offset + fl->size > raw_size)
		return -EBADMSG;
	if (fl->is_dynamic) {
		if (perfev__tp_dyn_range(tf, p, raw_size, f->big_endian, &start, &bytes))
			return -EBADMSG;
		es = tf->elementsize;
	} else if (fl->arraylen || (tf->flags & TEP_FIELD_IS_ARRAY)) {
		start = fl->offset;
		bytes = fl->size;
		es = fl->arraylen ? fl->size / fl->arraylen : 1;
	} else if (fl->size == 1 || fl->size == 2 || fl->size == 4 || fl->size == 8) {
		uint64_t u = perfev__tp_read_num(p + fl->offset, fl->size, f->big_endian);
		unsigned int bits = fl->size * 8;

		if (fl->is_signed && bits < 64 && (u >> (bits - 1) & 1))
			u |= ~0ULL << bits;
		v->type = fl->is_signed ? PERFEV_TP_VALUE_INT : PERFEV_TP_VALUE_UINT;
		v->u = u;
		v->i = (int64_t)u;
		return 0;
	} else {
		/* A struct or an odd size: its bytes. */
		start = fl->offset;
		bytes = fl->size;
		es = 1;
	}
	if (char_type(fl->type)) {
		v->type = PERFEV_TP_VALUE_STRING;
		v->str = (const char *)p + start;
		v->len = strnlen(v->str, bytes);
		return 0;
	}
	if (es != 1 && es != 2 && es != 4 && es != 8)
		es = 1;
	v->type = PERFEV_TP_VALUE_ARRAY;
	v->data = p + start;
	v->len = bytes / es;
	v->elem_size = (unsigned int)es;
	v->elem_signed = fl->is_signed;
	return 0;
}

int perfev_tp_value_elem(const struct perfev_tp_value *v, size_t i, uint64_t *out)
{
	unsigned int bits;
	uint64_t u;

	if (!v || !out || v->type != PERFEV_TP_VALUE_ARRAY || i >= v->len)
		return -EINVAL;
	u = perfev__tp_read_num((const unsigned char *)v->data + i * v->elem_size, v->elem_size,
				v->big_endian);
	bits = v->elem_size * 8;
	if (v->elem_signed && bits < 64 && (u >> (bits - 1) & 1))
		u |= ~0ULL << bits;
	*out = u;
	return 0;
}
