// SPDX-License-Identifier: LGPL-2.1-or-later
/* Streaming JSON output: indented by two spaces, or compact with one document per line. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "output/json.h"

void json_init_flags(struct json *j, FILE *f, unsigned int flags)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->flags = flags;
	j->first[0] = true;
}

void json_init(struct json *j, FILE *f)
{
	json_init_flags(j, f, 0);
}

static bool compact(const struct json *j)
{
	return j->flags & JSON_COMPACT;
}

static void indent(struct json *j)
{
	int i;

	if (compact(j))
		return;
	fputc('\n', j->f);
	for (i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* Separator and indentation before a value or key. */
static void pre(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->depth > 0) {
		if (!j->first[j->depth])
			fputc(',', j->f);
		indent(j);
	}
	if (j->line_break) {
		fputc('\n', j->f);
		j->line_break = false;
	}
	j->first[j->depth] = false;
}

void json_break(struct json *j)
{
	j->line_break = true;
}

static void open_(struct json *j, char c)
{
	pre(j);
	fputc(c, j->f);
	if (j->depth < JSON_MAX_DEPTH - 1)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_(struct json *j, char c)
{
	bool empty = j->first[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (!empty)
		indent(j);
	fputc(c, j->f);
	/* In JSON Lines, a finished top-level value ends its line. */
	if ((j->flags & JSON_LINES) == JSON_LINES && !j->depth) {
		fputc('\n', j->f);
		j->first[0] = true;
	}
}

void json_obj_begin(struct json *j)
{
	open_(j, '{');
}

void json_obj_end(struct json *j)
{
	close_(j, '}');
}

void json_arr_begin(struct json *j)
{
	open_(j, '[');
}

void json_arr_end(struct json *j)
{
	close_(j, ']');
}

/* Length of the valid UTF-8 sequence at @p (at most @n bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (p[0] < 0x80)
		return 1;
	if ((p[0] & 0xe0) == 0xc0)
		len = 2, cp = p[0] & 0x1f;
	else if ((p[0] & 0xf0) == 0xe0)
		len = 3, cp = p[0] & 0x0f;
	else if ((p[0] & 0xf8) == 0xf0)
		len = 4, cp = p[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	/* Overlong forms, surrogates and values past U+10FFFF are not UTF-8. */
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp < 0xe000) || cp > 0x10ffff)
		return 0;
	return len;
}

/* Bytes written as they are: printable ASCII but the quote, the backslash and, for scripts, <>&. */
static bool plain(unsigned char c, bool script_safe)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\' &&
	       !(script_safe && (c == '<' || c == '>' || c == '&'));
}

void json_write_string(FILE *f, const char *str, size_t n, bool script_safe)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, run, len;

	fputc('"', f);
	while (i < n) {
		unsigned char c = s[i];

		for (run = i; run < n && plain(s[run], script_safe); run++)
			;
		if (run > i) {
			fwrite(s + i, 1, run - i, f);
			i = run;
			continue;
		}
		if (c == '"' || c == '\\') {
			fputc('\\', f);
			fputc(c, f);
		} else if (c == '\n') {
			fputs("\\n", f);
		} else if (c == '\t') {
			fputs("\\t", f);
		} else if (c < 0x80) {
			/* The other controls, DEL, and <>& for scripts. */
			fprintf(f, "\\u%04x", c);
		} else {
			len = utf8_len(s + i, n - i);
			if (!len) {
				/* Paths and comms are bytes; JSON text must be UTF-8. */
				fputs("\\ufffd", f);
				i++;
				continue;
			}
			/* U+2028 and U+2029 end lines in older JavaScript. */
			if (script_safe && len == 3 && c == 0xe2 && s[i + 1] == 0x80 &&
			    (s[i + 2] == 0xa8 || s[i + 2] == 0xa9))
				fprintf(f, "\\u%04x", 0x2000 + s[i + 2] - 0x80);
			else
				fwrite(s + i, 1, len, f);
			i += len;
			continue;
		}
		i++;
	}
	fputc('"', f);
}

char *json_utf8_fix(const char *s, size_t n, int *err)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i, len, k = 0;
	char *out;

	*err = 0;
	for (i = 0; i < n && (len = utf8_len(u + i, n - i)); i += len)
		;
	if (i == n)
		return NULL;
	/* Each bad byte grows to the three of U+FFFD at most. */
	out = malloc(3 * n + 1);
	if (!out) {
		*err = -ENOMEM;
		return NULL;
	}
	for (i = 0; i < n; i += len) {
		len = utf8_len(u + i, n - i);
		if (!len) {
			memcpy(out + k, "\xef\xbf\xbd", 3);
			k += 3;
			len = 1;
			continue;
		}
		memcpy(out + k, s + i, len);
		k += len;
	}
	out[k] = '\0';
	return out;
}

static void put_string(struct json *j, const char *s, size_t n)
{
	json_write_string(j->f, s, n, j->flags & JSON_SCRIPT_SAFE);
}

void json_key(struct json *j, const char *key)
{
	pre(j);
	put_string(j, key, strlen(key));
	fputs(compact(j) ? ":" : ": ", j->f);
	j->after_key = true;
}

void json_str(struct json *j, const char *s)
{
	if (!s) {
		json_null(j);
		return;
	}
	json_strn(j, s, strlen(s));
}

void json_strn(struct json *j, const char *s, size_t n)
{
	pre(j);
	put_string(j, s, n);
}

void json_hex(struct json *j, const void *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *b = p;
	char buf[256];
	size_t i, k = 0;

	pre(j);
	fputc('"', j->f);
	for (i = 0; i < n; i++) {
		if (k == sizeof(buf)) {
			fwrite(buf, 1, k, j->f);
			k = 0;
		}
		buf[k++] = digits[b[i] >> 4];
		buf[k++] = digits[b[i] & 15];
	}
	fwrite(buf, 1, k, j->f);
	fputc('"', j->f);
}

void json_u64(struct json *j, uint64_t v)
{
	pre(j);
	fprintf(j->f, "%" PRIu64, v);
}

void json_i64(struct json *j, int64_t v)
{
	pre(j);
	fprintf(j->f, "%" PRId64, v);
}

void json_double(struct json *j, double v)
{
	pre(j);
	/* JSON has no NaN or infinity. */
	if (isnan(v) || isinf(v)) {
		fputs("null", j->f);
	} else {
		char buf[32];

		/* The shortest of %.15g and %.17g that reads back as the same double. */
		snprintf(buf, sizeof(buf), "%.15g", v);
		if (strtod(buf, NULL) != v)
			snprintf(buf, sizeof(buf), "%.17g", v);
		fputs(buf, j->f);
	}
}

void json_bool(struct json *j, bool v)
{
	pre(j);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j)
{
	pre(j);
	fputs("null", j->f);
}

void json_end(struct json *j)
{
	if (!compact(j))
		fputc('\n', j->f);
}

void json_kstr(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_str(j, s);
}

void json_ku64(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	json_u64(j, v);
}

void json_ki64(struct json *j, const char *key, int64_t v)
{
	json_key(j, key);
	json_i64(j, v);
}

void json_kbool(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	json_bool(j, v);
}
