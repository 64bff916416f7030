/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The tool's one JSON writer: streams one valid document (or, in the
 * lines style, one document per line), numbers as numbers (64-bit
 * integers exact, doubles that read back the same, NaN and infinities as
 * null), strings escaped per RFC 8259 with bytes that are not UTF-8 as
 * U+FFFD.
 */
#ifndef PERFEV_CLI_JSON_H
#define PERFEV_CLI_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

enum json_flags {
	/* No blank between tokens; without it, two-space indentation and json_end(). */
	JSON_COMPACT = 1 << 0,
	/* Compact, and each finished top-level value ends its line (JSON Lines). */
	JSON_LINES = 1 << 1 | JSON_COMPACT,
	/* Strings also inert inside an HTML <script> element (see json_write_string). */
	JSON_SCRIPT_SAFE = 1 << 2,
};

struct json {
	FILE *f;
	unsigned int flags;
	int depth;
	bool first[JSON_MAX_DEPTH];
	bool after_key;
	bool line_break; /* json_break() was called */
};

/* Indented output. */
void json_init(struct json *j, FILE *f);
/* Output as @flags (enum json_flags) say. */
void json_init_flags(struct json *j, FILE *f, unsigned int flags);
void json_obj_begin(struct json *j);
void json_obj_end(struct json *j);
void json_arr_begin(struct json *j);
void json_arr_end(struct json *j);
void json_key(struct json *j, const char *key);
void json_str(struct json *j, const char *s); /* NULL writes null */
void json_strn(struct json *j, const char *s, size_t n);
/* @n bytes as a string of lowercase hex digits, two per byte. */
void json_hex(struct json *j, const void *p, size_t n);
void json_u64(struct json *j, uint64_t v);
void json_i64(struct json *j, int64_t v);
void json_double(struct json *j, double v);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
/*
 * A line break before the next value or key, in compact output too
 * (JSON allows blanks there): keeps the lines of a long document short.
 */
void json_break(struct json *j);
/*
 * @n bytes of @s as a JSON string: escaped per RFC 8259, bytes that are
 * not UTF-8 as U+FFFD; with @script_safe also inert inside an HTML
 * <script> element ('<', '>', '&', U+2028 and U+2029 escaped).
 */
void json_write_string(FILE *f, const char *s, size_t n, bool script_safe);
/*
 * @s (@n bytes) with every byte that is not part of a UTF-8 sequence
 * replaced by U+FFFD, as json_write_string() writes it, NUL-terminated:
 * for the other formats whose strings must be UTF-8 (pprof's protobuf).
 * NULL when @s already is UTF-8, or when out of memory (*@err -ENOMEM).
 */
char *json_utf8_fix(const char *s, size_t n, int *err);
/* Finish an indented document with a newline (compact ones: nothing). */
void json_end(struct json *j);

/* Shorthands for "key": value members. */
void json_kstr(struct json *j, const char *key, const char *s); /* NULL writes null */
void json_ku64(struct json *j, const char *key, uint64_t v);
void json_ki64(struct json *j, const char *key, int64_t v);
void json_kbool(struct json *j, const char *key, bool v);

#endif /* PERFEV_CLI_JSON_H */
