/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tracepoints: enumeration, ids and formats from tracefs.
 *
 * tracefs is found at /sys/kernel/tracing, or /sys/kernel/debug/tracing
 * on systems that only mount debugfs.  The library never mounts anything;
 * when neither is present perfev_tracefs_open() returns -ENOENT and
 * callers can tell the user to run `mount -t tracefs nodev
 * /sys/kernel/tracing`.
 */
#ifndef PERFEV_TRACEFS_H
#define PERFEV_TRACEFS_H

#include <stdbool.h>
#include <stdint.h>
#include <perfev/core.h>

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_tracefs;

struct perfev_tracefs_opts {
	size_t sz;
	/*
	 * Directory holding "events/".  When NULL, @sysfs_root is used to
	 * find "kernel/tracing" then "kernel/debug/tracing".
	 */
	const char *path;
	const char *sysfs_root; /* default "/sys" */
};

/*
 * Locate tracefs.  Errors: -ENOENT (not mounted), -EACCES (not readable),
 * -EINVAL, -ENOMEM.  Enumeration is lazy: nothing is read until asked.
 */
PERFEV_API int perfev_tracefs_open(const struct perfev_tracefs_opts *opts,
				   struct perfev_tracefs **out);
PERFEV_API void perfev_tracefs_free(struct perfev_tracefs *tfs);

/* The directory in use (holding events/). */
PERFEV_API const char *perfev_tracefs_path(const struct perfev_tracefs *tfs);

/*
 * Call @fn for every tracepoint whose system matches @sys_glob and name
 * matches @name_glob (fnmatch(3) patterns; NULL matches everything), in
 * sorted order.  A non-zero return from @fn stops the walk and is
 * returned.  Returns the number of tracepoints visited otherwise.
 */
typedef int (*perfev_tracepoint_fn)(const char *sys, const char *name, void *ctx);
PERFEV_API int perfev_tracefs_foreach(struct perfev_tracefs *tfs, const char *sys_glob,
				      const char *name_glob, perfev_tracepoint_fn fn, void *ctx);

/*
 * attr.config for PERF_TYPE_TRACEPOINT: the content of events/SYS/NAME/id.
 * Errors: -ENOENT (no such tracepoint), -EACCES, -EBADMSG.
 */
PERFEV_API int perfev_tracefs_id(struct perfev_tracefs *tfs, const char *sys, const char *name,
				 uint64_t *id);

/* One field of a tracepoint's record, as the format file describes it. */
struct perfev_tp_field {
	const char *name;
	const char *type;    /* C type as written in the format file */
	unsigned int offset; /* byte offset in the raw record */
	unsigned int size;   /* bytes */
	bool is_signed;
	bool is_common;	       /* common_type, common_pid, ... */
	bool is_dynamic;       /* __data_loc: offset/length pair */
	unsigned int arraylen; /* fixed array element count, 0 when not an array */
};

struct perfev_tp_format; /* a parsed format file */

/*
 * Read and parse events/SYS/NAME/format (parsed with libtraceevent).
 * Errors: -ENOENT, -EACCES, -EBADMSG, -ENOMEM.
 */
PERFEV_API int perfev_tracefs_format(struct perfev_tracefs *tfs, const char *sys, const char *name,
				     struct perfev_tp_format **out);

/*
 * Parse the text of a format file.  Pure: works on files from any machine;
 * raw data is read as this machine's (byte order, long size), see
 * perfev_tracing_data_format() for another's.  The print fmt is parsed
 * too when its syntax is the kernel's (for perfev_tp_format_print());
 * otherwise only the fields are.  Errors: -EBADMSG, -ENOMEM, -EINVAL.
 * libtraceevent's parser keeps state in globals: do not parse formats
 * from two threads at once.
 */
PERFEV_API int perfev_tp_format_parse(const char *sys, const char *text, size_t len,
				      struct perfev_tp_format **out);
PERFEV_API void perfev_tp_format_free(struct perfev_tp_format *fmt);
PERFEV_API uint64_t perfev_tp_format_id(const struct perfev_tp_format *fmt);
PERFEV_API const char *perfev_tp_format_name(const struct perfev_tp_format *fmt);
PERFEV_API const char *perfev_tp_format_system(const struct perfev_tp_format *fmt);
/* "print fmt:" text, or NULL. */
PERFEV_API const char *perfev_tp_format_print_fmt(const struct perfev_tp_format *fmt);
PERFEV_API size_t perfev_tp_format_field_count(const struct perfev_tp_format *fmt);
PERFEV_API const struct perfev_tp_field *perfev_tp_format_field(const struct perfev_tp_format *fmt,
								size_t idx);

/*
 * Print the raw data of one record of this tracepoint (a sample's
 * PERF_SAMPLE_RAW bytes, @raw_size of them, any alignment) as its "print
 * fmt" says, with libtraceevent and no plugins: the text perf script shows
 * after the event name, e.g. "prev_comm=sh prev_pid=1 prev_prio=120
 * prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120".  A
 * print fmt libtraceevent cannot parse (or that names unknown fields)
 * prints "[FAILED TO PARSE]" and the fields, as perf does.  Addresses
 * print as hex: %pS finds no kernel symbols here.
 *
 * Before anything is printed the data is checked against the layout:
 * every field inside @raw_size bytes, every __data_loc/__rel_loc array
 * inside, common_type equal to the format's id, the lengths the print fmt
 * computes (__print_hex, __print_array, array indexes) inside, no
 * division by zero, printf widths below 4096.
 *
 * Like snprintf(), at most @len - 1 bytes and a NUL go to @buf (NULL when
 * @len is 0) and the return value is the whole length.  Errors: -EINVAL,
 * -EBADMSG (the data does not fit the format), -EOPNOTSUPP (a print fmt
 * whose reads cannot be checked: helper functions, addresses used as lengths,
 * binary printk records), -ENOMEM, -EOVERFLOW.
 *
 * Not thread safe on one format: libtraceevent caches while printing.
 */
PERFEV_API int perfev_tp_format_print(const struct perfev_tp_format *fmt, const void *raw,
				      size_t raw_size, char *buf, size_t len);

enum perfev_tp_value_type {
	PERFEV_TP_VALUE_INT,	/* a signed field of 1, 2, 4 or 8 bytes: @i */
	PERFEV_TP_VALUE_UINT,	/* an unsigned one (pointers too): @u */
	PERFEV_TP_VALUE_STRING, /* a char array, fixed or __data_loc: @str, @len */
	PERFEV_TP_VALUE_ARRAY,	/* any other array, or a field of another size: @data */
};

/* The value of one field in a record; pointers point into the caller's raw data. */
struct perfev_tp_value {
	const struct perfev_tp_field *field;
	enum perfev_tp_value_type type;
	int64_t i;	  /* INT (and UINT, converted) */
	uint64_t u;	  /* UINT (and INT, converted) */
	const char *str;  /* STRING: @len bytes up to the first NUL; not NUL-terminated */
	const void *data; /* ARRAY: @len elements of @elem_size bytes */
	size_t len;
	unsigned int elem_size; /* 1, 2, 4 or 8 */
	bool elem_signed;
	bool big_endian; /* the elements' byte order */
};

/*
 * Decode field @idx (as perfev_tp_format_field() counts them) of a record.
 * Errors: -EINVAL (NULL pointers, @idx past the fields), -EBADMSG (the
 * field, or the dynamic array it points to, lies outside @raw_size bytes).
 */
PERFEV_API int perfev_tp_format_value(const struct perfev_tp_format *fmt, size_t idx,
				      const void *raw, size_t raw_size, struct perfev_tp_value *v);
/* Element @i of an ARRAY value, sign-extended when elem_signed; -EINVAL otherwise. */
PERFEV_API int perfev_tp_value_elem(const struct perfev_tp_value *v, size_t i, uint64_t *out);

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_TRACEFS_H */
