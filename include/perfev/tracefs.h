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
 * Parse the text of a format file.  Pure: works on files from any machine.
 * Errors: -EBADMSG, -ENOMEM.
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

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_TRACEFS_H */
