/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The sampling ring buffer of an event: the metadata page and 2^n data
 * pages mapped from its file descriptor, read record by record without
 * ever trusting a size the kernel (or a corrupt buffer) wrote.
 *
 * Two ways of reading:
 *
 *  - normal mode (the default): the mapping is writable, the reader
 *    publishes how far it has read in data_tail and the kernel never
 *    overwrites unread data: it counts what it had to drop and emits a
 *    PERF_RECORD_LOST instead.  Read with perfev_ring_begin() /
 *    perfev_ring_next() / perfev_ring_end().
 *
 *  - overwrite mode (a flight recorder): the event is opened with
 *    write_backward and the mapping is read-only, the kernel keeps
 *    writing over the oldest data, and perfev_ring_snapshot() pauses
 *    the output, walks the newest records back to the oldest still
 *    complete, and resumes.
 *
 * The AUX area (hardware traces) is mapped after the data area with
 * perfev_ring_opts.aux_pages and read as raw bytes.
 *
 * A ring can also be laid over memory (perfev_ring_from_mem()): a copy
 * of a mapped ring, or a synthetic one in a test.
 */
#ifndef PERFEV_RING_H
#define PERFEV_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include <perfev/core.h>

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_ring;

struct perfev_ring_opts {
	size_t sz;
	/* Data pages: a power of two; 0 means 128 (512 KiB with 4 KiB pages). */
	size_t data_pages;
	/*
	 * Overwrite mode: map read-only so the kernel overwrites old data.
	 * The event must have been opened with write_backward.
	 */
	bool overwrite;
	/* AUX area pages (a power of two), 0 for none. */
	size_t aux_pages;
	/* The AUX area is read-only (the PMU overwrites it: snapshot mode). */
	bool aux_overwrite;
};

/*
 * Map the ring of event @fd.  Errors: -EINVAL (bad sizes, an AUX area
 * with overwrite: its geometry cannot be written into the read-only
 * metadata page), -EPERM (more than perf_event_mlock_kb for an
 * unprivileged user), -ENOMEM, -EOPNOTSUPP (AUX on a PMU without it),
 * and the errors of mmap(2).  Whether an overwrite ring's event has
 * write_backward is not visible here: perfev_ring_snapshot() tells.
 */
PERFEV_API int perfev_ring_map(int fd, const struct perfev_ring_opts *opts,
			       struct perfev_ring **out);

/*
 * A ring over @len bytes at @base laid out as a mapping is: one metadata
 * page of @page_size bytes, then the data area (data_offset and
 * data_size from the page when set, else the rest up to any AUX area),
 * then the AUX area at aux_offset/aux_size.  Nothing is copied: @base
 * must outlive the ring.  Errors: -EINVAL, -EBADMSG (offsets or sizes
 * outside @len, data size not a power of two, a data offset that is not
 * a multiple of 8).
 */
PERFEV_API int perfev_ring_from_mem(void *base, size_t len, size_t page_size, bool overwrite,
				    struct perfev_ring **out);

/* Unmap (or forget the memory of) the ring. */
PERFEV_API void perfev_ring_free(struct perfev_ring *r);

/* The event's descriptor, -1 for a ring over memory. */
PERFEV_API int perfev_ring_fd(const struct perfev_ring *r);
/* The metadata page (self-monitoring fields, data_head, aux_head, ...). */
PERFEV_API const struct perf_event_mmap_page *perfev_ring_page(const struct perfev_ring *r);
/* Bytes of the data area. */
PERFEV_API size_t perfev_ring_data_size(const struct perfev_ring *r);

/*
 * Send the records of event @fd (same CPU, or same task) to @r instead of
 * a ring of its own: PERF_EVENT_IOC_SET_OUTPUT.
 */
PERFEV_API int perfev_ring_set_output(const struct perfev_ring *r, int fd);

/* ---- normal mode ---------------------------------------------------------- */

/*
 * Start a read: take a snapshot of how much the kernel has written.
 * Returns the number of unread bytes (0 when empty), -EINVAL in
 * overwrite mode, or -EBADMSG when the kernel's head is behind the
 * reader's tail or more than a buffer ahead (a corrupt ring).
 */
PERFEV_API int64_t perfev_ring_begin(struct perfev_ring *r);

/*
 * The next record of the snapshot into *@rec, contiguous even when it
 * wraps around the end of the buffer (then it is copied to a buffer
 * owned by the ring).  *@rec is valid until the next call.  Returns 1
 * with a record, 0 at the end of the snapshot, -EBADMSG for a record
 * whose size is smaller than its header, not a multiple of 8 or past
 * what was written (the rest of the snapshot is then skipped).
 */
PERFEV_API int perfev_ring_next(struct perfev_ring *r, const struct perf_event_header **rec);

/*
 * Give the bytes read so far back to the kernel (data_tail).  Records
 * returned by perfev_ring_next() must not be used after this.
 */
PERFEV_API void perfev_ring_end(struct perfev_ring *r);

/* Whether the kernel has written anything past the reader's tail. */
PERFEV_API bool perfev_ring_pending(const struct perfev_ring *r);

/* ---- overwrite mode ------------------------------------------------------- */

typedef int (*perfev_ring_record_fn)(const struct perf_event_header *rec, void *ctx);

/*
 * Pause the output (PERF_EVENT_IOC_PAUSE_OUTPUT), call @fn on every
 * complete record in the buffer from the oldest to the newest, resume.
 * A non-zero return of @fn stops the walk and is returned.  Returns the
 * number of records otherwise.  Each call returns only the records
 * written since the previous one.  Errors: -EINVAL (not overwrite mode),
 * -EBADMSG (data_head not a multiple of 8, or above the previous
 * snapshot's: the event was not opened with write_backward), -ENOMEM,
 * and the errors of the ioctl.
 */
PERFEV_API int perfev_ring_snapshot(struct perfev_ring *r, perfev_ring_record_fn fn, void *ctx);

/* ---- AUX area ------------------------------------------------------------- */

/* Bytes of the AUX area, 0 when it is not mapped. */
PERFEV_API size_t perfev_ring_aux_size(const struct perfev_ring *r);

/*
 * The unread AUX bytes between aux_tail and aux_head, as at most two
 * pieces (the second when the data wraps; NULL/0 otherwise).  Returns
 * the total, 0 when there is nothing new, -EINVAL without an AUX area,
 * -EBADMSG when the head is more than the area ahead of the tail.
 */
PERFEV_API int64_t perfev_ring_aux_peek(struct perfev_ring *r, const void **p1, size_t *n1,
					const void **p2, size_t *n2);
/*
 * Hand @n bytes of AUX data back to the PMU (aux_tail).  Errors: -EINVAL
 * (no AUX area, @n more than is unread), -EBADMSG (as for peek).
 */
PERFEV_API int perfev_ring_aux_consume(struct perfev_ring *r, uint64_t n);

/* ---- waiting on many rings ------------------------------------------------ */

struct perfev_poller;

/* An epoll set.  Errors: -ENOMEM, -EMFILE. */
PERFEV_API int perfev_poller_new(struct perfev_poller **out);
PERFEV_API void perfev_poller_free(struct perfev_poller *p);
/*
 * Wake up when @fd is readable (a ring past its wakeup_events or
 * wakeup_watermark, a pidfd whose process exited, any descriptor) and
 * report @data.
 */
PERFEV_API int perfev_poller_add(struct perfev_poller *p, int fd, void *data);
PERFEV_API int perfev_poller_del(struct perfev_poller *p, int fd);

struct perfev_poll_event {
	void *data;
	bool hangup; /* POLLHUP: for an event, its task has exited */
};

/*
 * Wait up to @timeout_ms (-1: forever) for descriptors to become ready.
 * Returns how many of @out are filled, 0 on timeout, -EINTR when a
 * signal arrived first.
 */
PERFEV_API int perfev_poller_wait(struct perfev_poller *p, struct perfev_poll_event *out,
				  size_t max, int timeout_ms);

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_RING_H */
