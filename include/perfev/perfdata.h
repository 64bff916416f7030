/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * perf.data files, read and written in Linux perf's format:
 *
 *   file mode: the PERFILE2 header, the attrs with their ids, the data
 *   section of records, and the feature sections named by the header's
 *   feature bitmap (hostname, osrelease, cmdline, event_desc, ...);
 *
 *   pipe mode: a short header, then attrs (PERF_RECORD_HEADER_ATTR) and
 *   features (PERF_RECORD_HEADER_FEATURE) inline among the records, so a
 *   recording can be streamed.
 *
 * Readers pass on record types and skip feature bits they do not know
 * (simpleperf and newer perf add their own) and report a corrupt file as
 * -EBADMSG; they never read out of bounds.  The in-memory reader is a pure
 * function of the bytes.
 *
 * Only files in this host's byte order are read.  Multi-byte fields in
 * records and features may be unaligned (pipe-mode records are not padded
 * to 8 bytes): read them with memcpy() or perfev_u64_at().
 */
#ifndef PERFEV_PERFDATA_H
#define PERFEV_PERFDATA_H

#include <stdbool.h>
#include <stdint.h>
#include <perfev/abi.h>
#include <perfev/core.h>
#include <perfev/record.h>
#include <perfev/tracefs.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Feature section ids (perf's HEADER_* numbering). */
enum perfev_data_feature {
	PERFEV_FEAT_TRACING_DATA = 1,
	PERFEV_FEAT_BUILD_ID = 2,
	PERFEV_FEAT_HOSTNAME = 3,
	PERFEV_FEAT_OSRELEASE = 4,
	PERFEV_FEAT_VERSION = 5,
	PERFEV_FEAT_ARCH = 6,
	PERFEV_FEAT_NRCPUS = 7,
	PERFEV_FEAT_CPUDESC = 8,
	PERFEV_FEAT_CPUID = 9,
	PERFEV_FEAT_TOTAL_MEM = 10,
	PERFEV_FEAT_CMDLINE = 11,
	PERFEV_FEAT_EVENT_DESC = 12,
	PERFEV_FEAT_CPU_TOPOLOGY = 13,
	PERFEV_FEAT_NUMA_TOPOLOGY = 14,
	PERFEV_FEAT_BRANCH_STACK = 15,
	PERFEV_FEAT_PMU_MAPPINGS = 16,
	PERFEV_FEAT_GROUP_DESC = 17,
	PERFEV_FEAT_AUXTRACE = 18,
	PERFEV_FEAT_STAT = 19,
	PERFEV_FEAT_CACHE = 20,
	PERFEV_FEAT_SAMPLE_TIME = 21,
	PERFEV_FEAT_MEM_TOPOLOGY = 22,
	PERFEV_FEAT_CLOCKID = 23,
	PERFEV_FEAT_DIR_FORMAT = 24,
	PERFEV_FEAT_BPF_PROG_INFO = 25,
	PERFEV_FEAT_BPF_BTF = 26,
	PERFEV_FEAT_COMPRESSED = 27,
	PERFEV_FEAT_CPU_PMU_CAPS = 28,
	PERFEV_FEAT_CLOCK_DATA = 29,
	PERFEV_FEAT_HYBRID_TOPOLOGY = 30,
	PERFEV_FEAT_PMU_CAPS = 31,
	PERFEV_FEAT_MAX = 256,
};

/* ---- reading ------------------------------------------------------------- */

struct perfev_data_reader;

/*
 * One event of the recording.  @attr is a zero-filled copy at least
 * sizeof(struct perf_event_attr) (and PERFEV_ATTR_SIZE_MAX) bytes long,
 * holding the attr->size bytes the file stored (an attr of size 0, the
 * first ABI, reads as 64).  Owned by the reader, valid until it is closed.
 */
struct perfev_data_attr {
	const struct perf_event_attr *attr; /* as stored (attr->size bytes are valid) */
	const uint64_t *ids;		    /* the kernel ids of its file descriptors */
	size_t nids;
	const char *name; /* from EVENT_DESC or PERF_RECORD_EVENT_UPDATE, or NULL */
	struct perfev_sample_layout layout;
};

/*
 * One record of the data section (or of the stream, in pipe mode).
 *
 * @attr is found as perf finds it: with one event, every kernel record
 * belongs to it; with several, by the id perfev_record_id() reads with the
 * first event's layout (records without an id, or with id 0 as perf's
 * synthesized ones have, belong to the first event).  NULL for perf's own
 * record types (>= 64) and for ids no event has.
 *
 * PERF_RECORD_AUXTRACE is followed by AUX data that its size does not
 * cover: @payload points at it (@payload_size bytes); NULL otherwise.
 */
struct perfev_data_record {
	uint32_t type;
	uint16_t misc;
	uint16_t size;
	const void *bytes;		     /* the whole record, header included */
	const struct perfev_data_attr *attr; /* the event it belongs to, or NULL */
	uint64_t offset;		     /* where it starts in the file or stream */
	const void *payload;		     /* data after the record (AUXTRACE), or NULL */
	uint64_t payload_size;
};

struct perfev_data_open_opts {
	size_t sz;
};

/*
 * Open a perf.data file (file or pipe mode, detected); "-" reads standard
 * input.  A regular file is mapped whole (it must not be truncated while
 * open); a pipe-mode stream is read record by record; a file-mode header
 * on a stream that cannot be mapped makes the reader read it all first.
 * A directory is perf's directory format (perf record --threads): its
 * header file "data" (which must say DIR_FORMAT), then the records of
 * every data.N in the order of N, each file mapped; a record's offset is
 * within its own file.
 *
 * Errors: -ENOENT, -EACCES (open), -EISDIR (a directory without "data"),
 * -ELOOP (a file of the directory is a symbolic link), -E2BIG (more than
 * 4096 data.N files), -EBADMSG (not a perf.data file or
 * corrupt: a section or string outside the file, a count the bytes cannot
 * hold), -EPROTO (a version this library cannot read: PERFILE1, the other
 * byte order, an event whose sample_type has bits perfev_sample_layout_init()
 * does not know), -ENOMEM, read(2)/mmap(2) errors.
 */
PERFEV_API int perfev_data_open(const char *path, const struct perfev_data_open_opts *opts,
				struct perfev_data_reader **out);
/* The same from an open descriptor (not closed by the reader); -EBADF when negative. */
PERFEV_API int perfev_data_open_fd(int fd, const struct perfev_data_open_opts *opts,
				   struct perfev_data_reader **out);
/*
 * The same from bytes in memory (not copied: they must outlive the
 * reader; records and features point into them).  Any alignment.
 * -EINVAL for a NULL @buf with a non-zero @len.
 */
PERFEV_API int perfev_data_open_mem(const void *buf, size_t len,
				    const struct perfev_data_open_opts *opts,
				    struct perfev_data_reader **out);
PERFEV_API void perfev_data_close(struct perfev_data_reader *r);

PERFEV_API bool perfev_data_is_pipe(const struct perfev_data_reader *r);

/*
 * Where a file-mode file's data section is (its header's offset and
 * size; the feature sections follow it), as perf report --header shows
 * them.  Either out-pointer may be NULL.  Errors: -ENOENT (pipe mode: a
 * stream has no sections), -EINVAL (NULL @r).
 */
PERFEV_API int perfev_data_section(const struct perfev_data_reader *r, uint64_t *offset,
				   uint64_t *size);

/*
 * Events of the recording.  In pipe mode the list grows as
 * PERF_RECORD_HEADER_ATTR records are read.
 */
PERFEV_API size_t perfev_data_attr_count(const struct perfev_data_reader *r);
PERFEV_API const struct perfev_data_attr *perfev_data_attr(const struct perfev_data_reader *r,
							   size_t idx);
PERFEV_API const struct perfev_data_attr *perfev_data_attr_by_id(const struct perfev_data_reader *r,
								 uint64_t id);

/*
 * The next record, of any type (callers skip the types they do not
 * handle).  Returns 1 with @rec set, 0 at the end, or a negative errno
 * (-EBADMSG for a corrupt record, one running past the data or the stream;
 * -EPROTO for an attr as in perfev_data_open(); read errors).  The reader
 * stops at the first error and returns it again.  The record's bytes stay
 * valid until the next call (until perfev_data_close() for memory and
 * mapped files).
 *
 * Header records are consumed and not returned, wherever they appear:
 * PERF_RECORD_HEADER_ATTR (adds an event), PERF_RECORD_HEADER_FEATURE
 * (sets a feature; an empty one, perf's end marker, is ignored) and
 * PERF_RECORD_HEADER_TRACING_DATA (the u32-sized data after it becomes the
 * TRACING_DATA feature).  Other perf records are returned (a stream's
 * PERF_RECORD_HEADER_BUILD_ID among them); PERF_RECORD_EVENT_UPDATE is,
 * and an event without a name takes the one it carries.
 *
 * PERF_RECORD_COMPRESSED (perf record -z) is returned as it is, then
 * the records its payload decompresses to (zstd, one stream across the
 * file), each with the offset of the COMPRESSED record, as perf report
 * -D shows them.  Those records are valid until the next call only
 * (perfev_data_record_decompressed() tells them apart).  A payload that
 * is not zstd, or a file that ends inside a decompressed record, is
 * -EBADMSG; one past the cap below is -EFBIG (both logged with the
 * offset).  A record that carries data after it (AUXTRACE) or another
 * COMPRESSED record inside a payload is -EBADMSG.
 */
PERFEV_API int perfev_data_next(struct perfev_data_reader *r, struct perfev_data_record *rec);

/*
 * The cap on decompression, against a small file that expands without
 * end: one COMPRESSED record may decompress to at most this many bytes
 * (perf's own reader takes at most the ring size written in the
 * COMPRESSED feature, 516 KiB by default; a 64 KiB record of perf's
 * holds a few MiB at most); past it perfev_data_next() returns -EFBIG
 * after the records before it.  The reader decompresses a record 1 MiB
 * at a time as its records are taken, so its memory stays bounded
 * however much one expands and however many there are; the ratio
 * of a whole file is not capped (perf's --call-graph dwarf recordings
 * compress 200 times and more).  See PERFEV_SOURCE_HOLD_MAX for what a
 * source holds.
 */
#define PERFEV_DATA_DECOMP_RECORD_MAX (64ULL << 20)

/* Whether the record perfev_data_next() returned last came out of a PERF_RECORD_COMPRESSED. */
PERFEV_API bool perfev_data_record_decompressed(const struct perfev_data_reader *r);

/*
 * The raw bytes of feature section @feat (unaligned; valid until the
 * reader is closed).  Returns 0, -ENOENT when the file does not have it,
 * -EINVAL for @feat outside 0..PERFEV_FEAT_MAX-1.  In pipe mode, features
 * arrive with the stream; a feature sent twice reads as the last one.
 */
PERFEV_API int perfev_data_feature(const struct perfev_data_reader *r, int feat, const void **data,
				   size_t *len);
/*
 * A string feature (HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID)
 * into @buf; CMDLINE joined with spaces.  Like snprintf(), the result is
 * truncated to @len - 1 bytes and NUL-terminated, and the return value is
 * the whole length (@buf may be NULL when @len is 0).  Errors: -ENOENT,
 * -EBADMSG (a length past the section, a string without its NUL),
 * -EINVAL (not a string feature), -EOVERFLOW (longer than INT_MAX).
 */
PERFEV_API int perfev_data_feature_string(const struct perfev_data_reader *r, int feat, char *buf,
					  size_t len);
/*
 * Value @idx of a numeric feature: NRCPUS (0: CPUs available, 1: CPUs
 * online), TOTAL_MEM (0: kB), SAMPLE_TIME (0: first, 1: last sample time,
 * ns), CLOCKID (0: the resolution of the clock of -k, ns).  Errors:
 * -ENOENT, -EBADMSG (too short), -EINVAL (another feature or @idx).
 */
PERFEV_API int perfev_data_feature_u64(const struct perfev_data_reader *r, int feat,
				       unsigned int idx, uint64_t *val);

/*
 * The clock of a recording made with attr.use_clockid (perf record -k):
 * the CLOCKID feature (the clock's resolution) and CLOCK_DATA (one moment
 * read on the wall clock and on the clock, so that sample times can be
 * placed in the day).
 */
struct perfev_data_clock {
	int32_t clockid;
	uint64_t res_ns;     /* clock_getres(2) of the clock, in ns */
	uint64_t tod_ns;     /* the moment on the wall clock (gettimeofday), ns since the epoch */
	uint64_t clockid_ns; /* the same moment on the clock, ns */
};

/*
 * The clock of a recording, from its CLOCK_DATA feature (version 1) and
 * its CLOCKID feature (res_ns 0 without one).  Errors: -ENOENT (no
 * CLOCK_DATA: no -k), -EBADMSG (too short), -EPROTO (another version),
 * -EINVAL.
 */
PERFEV_API int perfev_data_clock(const struct perfev_data_reader *r, struct perfev_data_clock *out);

/* One group of the recording's events, from the GROUP_DESC feature. */
struct perfev_data_group {
	const char *name;    /* NULL for an anonymous group; valid until the reader is closed */
	uint32_t leader;     /* the leader's index among the events (perfev_data_attr()) */
	uint32_t nr_members; /* the leader and the nr_members - 1 events after it */
};

/*
 * Group @idx (from 0) of the GROUP_DESC feature, which perf record
 * writes for event groups ("{a,b}", "{a,b}:S"); groups of one event are
 * not listed.  The indexes are the file's: check them against
 * perfev_data_attr_count() before use.  Errors: -ENOENT (no such
 * feature), -ERANGE (@idx is past the last group), -EBADMSG (a name or
 * number past the section, a group of no event), -EINVAL.
 */
PERFEV_API int perfev_data_group(const struct perfev_data_reader *r, size_t idx,
				 struct perfev_data_group *out);

/* ---- writing ------------------------------------------------------------- */

struct perfev_data_writer;

struct perfev_data_write_opts {
	size_t sz;
	bool pipe; /* write pipe mode (for "-" and streams) */
	int fd;	   /* write here instead of @path when @path is NULL (not closed) */
	/*
	 * 0: records as given.  1 to 22: the zstd level of perf record -z:
	 * the kernel's records (types below 64) are staged and written as
	 * PERF_RECORD_COMPRESSED, a batch of up to 512 KiB at a time (a
	 * batch also ends before each of perf's own records, such as
	 * FINISHED_ROUND, which stay as they are), one zstd stream for the
	 * file, with the COMPRESSED feature perf needs to read it.
	 */
	int compress_level;
};

/*
 * Create @path (mode 0600, truncated, never through a symbolic link; "-"
 * is standard output and implies pipe mode) or use opts->fd.  File mode
 * seeks back to rewrite the header, so its descriptor must be seekable,
 * at offset 0 and not O_APPEND.
 * Output is buffered; nothing is complete before perfev_data_finish().
 *
 * Errors: open(2) errors (-ELOOP: @path is a symbolic link), -EINVAL (no
 * path and no opts->fd, a bad opts, a compress_level outside 0..22, a
 * file-mode descriptor not at offset 0 or in append mode), -ESPIPE (file
 * mode on a pipe), -ENOMEM.
 */
PERFEV_API int perfev_data_create(const char *path, const struct perfev_data_write_opts *opts,
				  struct perfev_data_writer **out);

/*
 * Declare an event with its name and the ids of its file descriptors,
 * before records of it are written (@attr, @name and @ids are copied).
 * attr->size bytes are read (64 when 0).  An attr larger than 128 bytes
 * whose tail is zero is stored as 128 bytes, the most perf 6.2 and older
 * accept; all attrs of a file share one size, the largest.  A NULL @name
 * is written as the generic event's name (cpu-clock, ...) or
 * "type=T,config=C".  Pipe mode writes PERF_RECORD_HEADER_ATTR at once,
 * and a PERF_RECORD_EVENT_UPDATE with the name when there are ids, which
 * is how perf names events in a stream.
 *
 * Errors: -EINVAL (attr->size between 1 and 63 or above 4096, @nids
 * without @ids, a name over 4095 bytes, after perfev_data_finish()), -EMSGSIZE (pipe mode: more
 * ids than a record holds), -ENOMEM, write errors in pipe mode.
 */
PERFEV_API int perfev_data_add_attr(struct perfev_data_writer *w,
				    const struct perf_event_attr *attr, const char *name,
				    const uint64_t *ids, size_t nids);

/*
 * Set a feature section's bytes (copied), to be written at the end (or,
 * in pipe mode, as PERF_RECORD_HEADER_FEATURE; there, as perf sends
 * them, TRACING_DATA goes as PERF_RECORD_HEADER_TRACING_DATA, BUILD_ID
 * as one PERF_RECORD_HEADER_BUILD_ID per build-id record, and AUXTRACE,
 * an index of file offsets, is dropped; perf 6.1's report refuses
 * feature ids above 32 in a stream).  A stream starts as perf's: the
 * features set before the first record are held and sent at that record
 * (or at perfev_data_finish()), after the attrs, feature records first,
 * then the tracing data and the build ids; later ones are sent at once.
 * Setting EVENT_DESC or SAMPLE_TIME replaces the generated ones.
 * Errors: -EINVAL (@feat outside 1..PERFEV_FEAT_MAX-1, after finish, a
 * pipe-mode BUILD_ID that is not a list of records), -EMSGSIZE (pipe
 * mode: larger than a record holds), -ENOMEM, write errors in pipe mode.
 */
PERFEV_API int perfev_data_set_feature(struct perfev_data_writer *w, int feat, const void *data,
				       size_t len);

/*
 * Write the CLOCKID and CLOCK_DATA features from @c, as perf record -k
 * writes them.  Errors: as perfev_data_set_feature().
 */
PERFEV_API int perfev_data_set_clock(struct perfev_data_writer *w,
				     const struct perfev_data_clock *c);

/*
 * Write the GROUP_DESC feature from @n groups (name NULL for an
 * anonymous group), each a leader and the nr_members - 1 attrs added
 * after it, as perf record writes it for "{a,b}" and "{a,b}:S", so that
 * perf report and perfev report show the members side by side.  Call it
 * after the attrs are added.  Errors: -EINVAL (a group of fewer than two
 * events, past the attrs added, or not after the group before it), as
 * perfev_data_set_feature().
 */
PERFEV_API int perfev_data_set_groups(struct perfev_data_writer *w,
				      const struct perfev_data_group *groups, size_t n);

/*
 * Fill the features perf report reads from this machine: hostname,
 * osrelease, version ("perfev <version>"), arch, nrcpus, cpudesc, cpuid
 * (x86: "GenuineIntel,6,85,4"; arm64: the MIDR), total_mem, and cmdline
 * from @argv (NULL-terminated; NULL: none).  What this machine does not
 * tell (no /proc/cpuinfo model name...) is left out.  EVENT_DESC and
 * SAMPLE_TIME are written at perfev_data_finish() from the attrs and the
 * records.  Errors: as perfev_data_set_feature().
 */
PERFEV_API int perfev_data_set_host_features(struct perfev_data_writer *w, char *const *argv);

/*
 * Append records (complete, header included, any number; AUXTRACE with
 * its data after it).  Samples' times are noted for SAMPLE_TIME.
 * Errors: -EINVAL (a size below 8 or past @len; a header record type,
 * which add_attr/set_feature write; after finish), write errors (-ENOSPC,
 * -EPIPE...), which stick: every later call returns the first one.
 */
PERFEV_API int perfev_data_write(struct perfev_data_writer *w, const void *records, size_t len);

/*
 * Complete the file: attrs, event_desc, feature sections, the header with
 * the sizes (pipe mode: EVENT_DESC and SAMPLE_TIME as feature records,
 * then everything buffered).  After this the file is valid;
 * perfev_data_write() may not be called any more.  Calling it again
 * returns the first result.  Errors: write errors.  After a write error
 * (here or earlier: a full disk), a regular file in file mode is still
 * completed where the attrs reached it: it is cut after the last whole
 * record written, the features are written after it if they fit (else
 * left out), and the header describes those records; the error is
 * returned all the same.
 */
PERFEV_API int perfev_data_finish(struct perfev_data_writer *w);
/* Free the writer (finishing it first if needed; errors are then lost). */
PERFEV_API void perfev_data_writer_free(struct perfev_data_writer *w);

/*
 * The TRACING_DATA feature perf needs to read tracepoint samples: the
 * ring buffer headers of @tfs, the format of each tracepoint in @tps
 * ("system:name", @n of them; duplicates are written once) and the
 * kernel's printk formats, in perf's layout (version 0.6).  *@out is
 * malloc()ed.  Errors: -EINVAL, -ENOENT (no such tracepoint), -ENOMEM,
 * read errors.
 */
PERFEV_API int perfev_data_tracing_data(struct perfev_tracefs *tfs, const char *const *tps,
					size_t n, void **out, size_t *len);

/*
 * Bytes written so far, buffered ones included (not records staged for
 * compression): the file's size once finished.
 */
PERFEV_API uint64_t perfev_data_written(const struct perfev_data_writer *w);

/*
 * A compressing writer's bytes: of the records it was given to compress
 * (@plain) and of the PERF_RECORD_COMPRESSED it wrote for them (@packed);
 * exact after perfev_data_finish().  -ENOENT when it does not compress,
 * -EINVAL.
 */
PERFEV_API int perfev_data_compression(const struct perfev_data_writer *w, uint64_t *plain,
				       uint64_t *packed);

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_PERFDATA_H */
