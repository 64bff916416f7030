/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tracepoint formats, between the objects that parse them (tp-format.c),
 * check raw data against them (tp-format-check.c) and find them in
 * tracing data (tracing-data.c).  Hidden, never part of the ABI.
 */
#ifndef PERFEV_TP_FORMAT_INTERNAL_H
#define PERFEV_TP_FORMAT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <perfev/tracefs.h>

struct tep_event;
struct tep_format_field;

/* The machine a format file comes from. */
struct perfev__tp_env {
	unsigned int long_size; /* 4 or 8; 0: this machine's */
	bool big_endian;	/* byte order of the raw data */
	const char *printk;	/* printk_formats text (@printk_len bytes), or NULL */
	size_t printk_len;
};

/* perfev_tp_format_parse() for a format of the machine @env describes (NULL: this one). */
int perfev__tp_format_parse_env(const char *sys, const char *text, size_t len,
				const struct perfev__tp_env *env, struct perfev_tp_format **out);

/*
 * Before libtraceevent parses a print fmt: every field it names (REC->x,
 * __get_str(x) and the other __get_ helpers) exists in @ev, and brackets
 * nest at most a few levels deep.  libtraceevent dereferences NULL on
 * unknown names and recurses once per bracket and operator.
 */
bool perfev__tp_print_fmt_ok(struct tep_event *ev, const char *pf, size_t len);

/*
 * Before libtraceevent prints @ev's data: @data holds @size bytes followed
 * by at least PERFEV__TP_PAD zero bytes.  0 when every read printing does
 * stays inside @size bytes (the padding only ends strings and covers the
 * two-byte family read of a sockaddr), no division by zero happens and
 * printf widths are small; -EBADMSG when the data does not fit the
 * layout; -EOPNOTSUPP when the print fmt does something whose reads
 * cannot be bounded here.
 */
#define PERFEV__TP_PAD 16
int perfev__tp_check_data(struct tep_event *ev, const unsigned char *data, size_t size,
			  unsigned int long_size, bool big_endian);

/*
 * Where a dynamic field's bytes are, as libtraceevent computes it:
 * @start and @len in @data.  -EBADMSG when outside @size bytes.
 */
int perfev__tp_dyn_range(const struct tep_format_field *f, const unsigned char *data, size_t size,
			 bool big_endian, uint64_t *start, uint64_t *len);

/* An unsigned number of @n bytes (1, 2, 4 or 8; 0 otherwise) in the data's byte order. */
uint64_t perfev__tp_read_num(const unsigned char *p, unsigned int n, bool big_endian);

#endif /* PERFEV_TP_FORMAT_INTERNAL_H */
