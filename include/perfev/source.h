/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A source of resolved samples: the records of a perf.data file (file
 * or pipe mode, from a path, a descriptor or memory) or of live rings,
 * put in time order, fed to a machine (perfev/machine.h), and handed out
 * one at a time as samples with their thread, event and period, their
 * frames resolved on request, and the other records as they are.
 *
 * Time order follows perf's ordered-events rule.  In a file, records
 * that carry a timestamp wait; at each PERF_RECORD_FINISHED_ROUND those
 * up to the newest timestamp of the round before go out, oldest first
 * (a round's records may be older than the last round's newest, never
 * older than the one before: each CPU's ring is drained once per round);
 * records without a timestamp go out when read, and everything at the
 * end.  A live source, fed records of several rings in whatever order
 * they were drained, hands out those older than the newest timestamp
 * fed minus a window (perfev_source_opts.window_ns), and everything once
 * perfev_source_finish() says the input ended.  Records of equal time go
 * out in the order they came.
 *
 * A sample that read its group's counters (PERF_SAMPLE_READ, perf's :S
 * groups sampled by their leader) stands for one sample per member whose
 * count increased since its last read, with the increase as its period,
 * as perf report and perf script show it.
 *
 * Nothing is printed: counts of what was skipped are in
 * perfev_source_stats(); the machine's messages go through the log.
 * A source is not thread-safe: use it from one thread at a time.
 */
#ifndef PERFEV_SOURCE_H
#define PERFEV_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <perfev/abi.h>
#include <perfev/core.h>
#include <perfev/machine.h>
#include <perfev/perfdata.h>
#include <perfev/record.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A file source holds the records of a round until the round ends; those
 * it must copy (a stream's, and those decompressed from
 * PERF_RECORD_COMPRESSED) take at most 8 MiB and twice the bytes of the
 * input read so far, and never more than this many bytes, queue entries
 * included: past it the oldest go out early (counted in out_of_order if
 * a later record turns out older), so that a file without rounds, or a
 * decompression bomb, cannot fill the memory.  perf's rounds hold a ring
 * read of every CPU.
 */
#define PERFEV_SOURCE_HOLD_MAX (256ULL << 20)

struct perfev_source;

struct perfev_source_opts {
	size_t sz; /* sizeof(struct perfev_source_opts) */
	/* The options of the machine the source makes (copied; NULL: defaults). */
	const struct perfev_machine_opts *machine;
	/* Live sources: how long a record waits for older ones of other rings; 0: 1 s. */
	uint64_t window_ns;
	/*
	 * Every record as read, in file order (perf script -D): not
	 * ordered, not fed to the machine, READ values not split; a record
	 * that does not decode, or a sample of no known event, is handed
	 * out with perfev_source_event.decode_err set (a record that does
	 * not decode then ends the source with that error).
	 */
	bool raw;
	/* A sample with READ values is handed out once, as recorded, with its own period. */
	bool whole_reads;
};

/*
 * Open a perf.data file ("-": standard input), as perfev_data_open().
 * The BUILD_ID feature's ids are told to the machine.  Errors: those of
 * perfev_data_open(), -EINVAL (bad opts).
 */
PERFEV_API int perfev_source_open(const char *path, const struct perfev_source_opts *opts,
				  struct perfev_source **out);
/* The same from a descriptor (not closed), as perfev_data_open_fd(). */
PERFEV_API int perfev_source_open_fd(int fd, const struct perfev_source_opts *opts,
				     struct perfev_source **out);
/* The same from bytes in memory (not copied: they must outlive the source). */
PERFEV_API int perfev_source_open_mem(const void *buf, size_t len,
				      const struct perfev_source_opts *opts,
				      struct perfev_source **out);
/*
 * A live source: no events until perfev_source_add_attr(), no records
 * until perfev_source_feed().  Errors: -EINVAL, -ENOMEM.
 */
PERFEV_API int perfev_source_new_live(const struct perfev_source_opts *opts,
				      struct perfev_source **out);
/* Free the source, its reader and its machine (NULL is fine). */
PERFEV_API void perfev_source_free(struct perfev_source *src);

/*
 * A live source's event: its attr (attr->size bytes, 64 when 0, copied),
 * its name (NULL: made from the attr) and the kernel ids of its file
 * descriptors (PERF_EVENT_IOC_ID), by which records are attributed as
 * perf does: the only event, else by the id the first event's layout
 * locates, the first event for records without one.  Returns its index.
 * Errors: -EINVAL (a file source, an attr the decoder cannot lay out),
 * -EEXIST (an id another event has), -ENOMEM.
 */
PERFEV_API int perfev_source_add_attr(struct perfev_source *src, const struct perf_event_attr *attr,
				      const char *name, const uint64_t *ids, size_t nids);
/*
 * Feed a live source whole records (@len bytes, any number, as a ring
 * hands them out; copied).  Records of no event (samples whose id no
 * event has) are counted in unknown_id and dropped.  Returns 0; -EBADMSG
 * when a record is cut short or does not decode (counted in bad; the
 * records before it are kept, those after it dropped); -EINVAL (a file
 * source, after perfev_source_finish()); -ENOMEM.
 */
PERFEV_API int perfev_source_feed(struct perfev_source *src, const void *buf, size_t len);
/* The live input ended: every record fed may go out.  -EINVAL for a file source. */
PERFEV_API int perfev_source_finish(struct perfev_source *src);

enum perfev_source_kind {
	PERFEV_SOURCE_SAMPLE = 1, /* a sample of a known event: the sample fields are set */
	PERFEV_SOURCE_RECORD = 2, /* any other record (and, raw, a sample that did not decode) */
};

/*
 * What perfev_source_next() hands out.  Owned by the source; it and what
 * it points to are valid until the next call of perfev_source_next().
 */
struct perfev_source_event {
	enum perfev_source_kind kind;
	const struct perfev_record *rec; /* decoded; NULL when @decode_err */
	int decode_err; /* raw sources: -EBADMSG (corrupt), -ENOENT (a sample of no event) */
	/* The record as read. */
	uint32_t type;
	uint16_t misc;
	uint16_t size;
	const void *bytes;
	uint64_t offset; /* in the file or stream (live: 0) */
	uint64_t seq;	 /* the record's number; the samples split from one record share it */
	/* Its event: index and description; SIZE_MAX and NULL for none. */
	size_t attr_idx;
	const struct perfev_data_attr *attr;
	/*
	 * Samples: the event's name (perfev_source_attr_name()); NULL for
	 * other records (a stream may name its events after its first records).
	 */
	const char *name;
	/* Samples: */
	const char *comm; /* the thread's command name, or ":TID" */
	uint32_t pid, tid, cpu;
	uint64_t time;
	/*
	 * The sample's period: PERF_SAMPLE_PERIOD's, else the attr's
	 * sample_period (its frequency for freq events, as perf);
	 * split READ values: the increase of that member's count.
	 */
	uint64_t period;
	unsigned int cpumode; /* rec->misc & PERF_RECORD_MISC_CPUMODE_MASK */
};

/*
 * The next sample or record in time order.  Returns 1 with *@ev set; 0
 * at the end (a live source: nothing more can go out now); or an error:
 * those of perfev_data_next() (-EBADMSG for a record cut short, -EPROTO,
 * read errors), -EBADMSG for a record read whole that does not decode
 * (err_in_record in the stats), -ENOMEM.  The records read before an
 * input error are all handed out before it is returned (not so after
 * -ENOMEM); from then on it is returned again.
 */
PERFEV_API int perfev_source_next(struct perfev_source *src, const struct perfev_source_event **ev);

/*
 * The frames of sample @ev (the one perfev_source_next() last handed
 * out) with @flags, as perfev_machine_sample_frames().  The samples split
 * from one record share their frames, resolved (and unwound) once per
 * @flags.  *@frames is owned by the source, valid until the next call of
 * either function.  Errors: -EINVAL (not a sample, not the last one
 * handed out), -ENOMEM.
 */
PERFEV_API int perfev_source_frames(struct perfev_source *src, const struct perfev_source_event *ev,
				    unsigned int flags, const struct perfev_frame **frames,
				    size_t *n);

/* The source's machine (threads, maps, symbols, unwinding statistics). */
PERFEV_API struct perfev_machine *perfev_source_machine(struct perfev_source *src);
/* The file's reader, for its features and groups; NULL for a live source. */
PERFEV_API const struct perfev_data_reader *perfev_source_data(const struct perfev_source *src);

/* The events (in pipe mode their list grows as the stream brings them). */
PERFEV_API size_t perfev_source_attr_count(const struct perfev_source *src);
/* Event @idx, NULL past the end.  Valid as long as the source. */
PERFEV_API const struct perfev_data_attr *perfev_source_attr(const struct perfev_source *src,
							     size_t idx);
/*
 * Event @idx's name: the file's, or made from its attr as perf names
 * events ("cpu-clock", "cycles:u", "raw 0x1234", "mem:0x1000:rw").
 * "[unknown]" past the end; NULL only when out of memory.  Valid as long
 * as the source.
 */
PERFEV_API const char *perfev_source_attr_name(struct perfev_source *src, size_t idx);

/* What a source read, skipped and failed on. */
struct perfev_source_stats {
	size_t sz;	       /* sizeof(struct perfev_source_stats) */
	uint64_t records;      /* records read (or fed) */
	uint64_t samples;      /* samples handed out, each member of a split one */
	uint64_t lost;	       /* records the kernel lost: the sum of PERF_RECORD_LOST */
	uint64_t lost_samples; /* samples the kernel lost: the sum of PERF_RECORD_LOST_SAMPLES */
	uint64_t unknown_id;   /* samples and READ values of no known event: skipped */
	uint64_t bad;	       /* records that did not decode when handed out: skipped */
	uint64_t compressed;   /* PERF_RECORD_COMPRESSED read (their records are handed out) */
	uint64_t good_end;     /* the offset where the last record read whole ends */
	int err;	       /* the error perfev_source_next() returns, 0: none */
	bool err_in_record;    /* @err is about a record read whole that does not decode: */
	uint32_t err_type;     /* its type, */
	uint32_t err_size;     /* its size */
	uint64_t err_offset;   /* and where it starts */
	/*
	 * Records handed out after a later one (by time): the file's rounds
	 * did not hold them back, or a live record came later than the
	 * window.  Samples may then come before the COMM or MMAP they need.
	 */
	uint64_t out_of_order;
};

/* Fill @out (out->sz set by the caller).  Errors: -EINVAL (NULL, out->sz too small). */
PERFEV_API int perfev_source_stats(const struct perfev_source *src,
				   struct perfev_source_stats *out);

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_SOURCE_H */
