/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The tracing data of a recording: what perf.data's TRACING_DATA feature
 * (and, in pipe mode, PERF_RECORD_HEADER_TRACING_DATA) holds so that a
 * reader can decode tracepoint samples without the recording machine's
 * tracefs: the byte order and long size of that machine, its ring buffer
 * headers, the format file of every recorded tracepoint, and the kernel's
 * printk formats and saved command lines.
 *
 * The parser is a pure function of the bytes: sizes are read in the byte
 * order the data declares, every length is checked against what is left,
 * and a malformed blob is -EBADMSG.  Blobs of version 0.5, without saved
 * command lines, are read, and so are blobs that end right after the
 * tracepoint formats or after any later section.  Bytes after the last
 * section (pipe mode pads the record to 8 bytes) are ignored.
 *
 * Formats are looked up by tracepoint id (attr.config of a
 * PERF_TYPE_TRACEPOINT event, the "ID:" line of its format file) and
 * parsed with libtraceevent on first use, with the recording machine's
 * long size, byte order and printk formats.
 */
#ifndef PERFEV_TRACING_DATA_H
#define PERFEV_TRACING_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <perfev/core.h>
#include <perfev/tracefs.h>

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_tracing_data;

/*
 * Parse @len bytes of tracing data (copied: @buf may go away afterwards).
 * Errors: -EINVAL (NULL @buf with a non-zero @len, NULL @out), -EBADMSG
 * (no "\x17\x08\x44tracing" magic, a version that is not "N.N", an
 * endianness byte other than 0 or 1, a long size other than 4 or 8, a size
 * or count running past the end, a system name without its NUL, a section
 * cut short), -ENOMEM.
 */
PERFEV_API int perfev_tracing_data_parse(const void *buf, size_t len,
					 struct perfev_tracing_data **out);
/* Free the data and every format looked up from it (NULL is fine). */
PERFEV_API void perfev_tracing_data_free(struct perfev_tracing_data *td);

/* The version string, "0.6" or "0.5". */
PERFEV_API const char *perfev_tracing_data_version(const struct perfev_tracing_data *td);
/* The recording machine's byte order: true for big endian. */
PERFEV_API bool perfev_tracing_data_big_endian(const struct perfev_tracing_data *td);
/* sizeof(long) on the recording machine: 4 or 8. */
PERFEV_API unsigned int perfev_tracing_data_long_size(const struct perfev_tracing_data *td);
PERFEV_API uint32_t perfev_tracing_data_page_size(const struct perfev_tracing_data *td);

/* One format file of the data: the ftrace ones first (system "ftrace"), then the tracepoints. */
struct perfev_tracing_event {
	const char *system; /* NUL-terminated */
	const char *format; /* the format file's text, @format_len bytes, not NUL-terminated */
	size_t format_len;
	uint64_t id; /* the number on its "ID:" line; 0 when it has none */
};

PERFEV_API size_t perfev_tracing_data_event_count(const struct perfev_tracing_data *td);
/* Event @idx into *@out (pointers valid until the data is freed); -ENOENT past the end. */
PERFEV_API int perfev_tracing_data_event(const struct perfev_tracing_data *td, size_t idx,
					 struct perfev_tracing_event *out);

enum perfev_tracing_section {
	PERFEV_TRACING_HEADER_PAGE,    /* events/header_page */
	PERFEV_TRACING_HEADER_EVENT,   /* events/header_event */
	PERFEV_TRACING_KALLSYMS,       /* /proc/kallsyms (perf writes it empty) */
	PERFEV_TRACING_PRINTK,	       /* printk_formats */
	PERFEV_TRACING_SAVED_CMDLINES, /* saved_cmdlines (version 0.6) */
};

/*
 * The text of a section (not NUL-terminated; valid until the data is
 * freed).  Returns 0, -ENOENT when the blob ends before the section,
 * -EINVAL for an unknown @which or NULL pointers.
 */
PERFEV_API int perfev_tracing_data_section(const struct perfev_tracing_data *td,
					   enum perfev_tracing_section which, const char **text,
					   size_t *len);

/*
 * The parsed format of tracepoint @id, owned by @td.  The first event with
 * that id is used; it is parsed once, with the recording machine's long
 * size, byte order and printk formats (perfev_tp_format_print() reads raw
 * data in that byte order).  Errors: -EINVAL, -ENOENT (no event has
 * @id), -EBADMSG (its format file does not parse), -ENOMEM.  Not thread
 * safe: the first lookup of an id stores its result in @td.
 */
PERFEV_API int perfev_tracing_data_format(struct perfev_tracing_data *td, uint64_t id,
					  const struct perfev_tp_format **out);

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_TRACING_DATA_H */
