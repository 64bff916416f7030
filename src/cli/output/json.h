/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A small streaming JSON writer: always produces one valid document,
 * numbers as numbers, strings escaped per RFC 8259.
 */
#ifndef PERFEV_CLI_JSON_H
#define PERFEV_CLI_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json {
	FILE *f;
	int depth;
	bool first[JSON_MAX_DEPTH];
	bool after_key;
};

void json_init(struct json *j, FILE *f);
void json_obj_begin(struct json *j);
void json_obj_end(struct json *j);
void json_arr_begin(struct json *j);
void json_arr_end(struct json *j);
void json_key(struct json *j, const char *key);
void json_str(struct json *j, const char *s);
void json_strn(struct json *j, const char *s, size_t n);
void json_u64(struct json *j, uint64_t v);
void json_i64(struct json *j, int64_t v);
void json_double(struct json *j, double v);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
/*
 * @n bytes of @s as a JSON string: escaped per RFC 8259, bytes that are
 * not UTF-8 as U+FFFD; with @script_safe also inert inside an HTML
 * <script> element ('<', '>', '&', U+2028 and U+2029 escaped).
 */
void json_write_string(FILE *f, const char *s, size_t n, bool script_safe);
/* Finish the document with a newline. */
void json_end(struct json *j);

/* Shorthands for "key": value members. */
void json_kstr(struct json *j, const char *key, const char *s); /* NULL writes null */
void json_ku64(struct json *j, const char *key, uint64_t v);
void json_ki64(struct json *j, const char *key, int64_t v);
void json_kbool(struct json *j, const char *key, bool v);

#endif /* PERFEV_CLI_JSON_H */
