// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Sampling ring buffers: mapping, reading records in normal and
 * overwrite (write_backward) mode, the AUX area, and epoll sets.
 *
 * The protocol with the kernel (kernel/events/ring_buffer.c):
 *
 *   kernel (perf_output_begin/put_handle)   reader
 *   read data_tail                          load data_head
 *   smp_mb()              (A) ........ (D)  acquire: pairs with B
 *   write records                           read records
 *   smp_wmb()             (B) ........ (C)  release: pairs with A
 *   store data_head                         store data_tail
 *
 * The acquire load of data_head makes every record byte the kernel wrote
 * before publishing that head visible to us; the release store of
 * data_tail makes sure we are done reading before the kernel can see the
 * space as free and write over it.  The AUX area uses aux_head/aux_tail
 * the same way.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <perfev/ring.h>
#include "common/internal.h"

struct perfev_ring {
	int fd;
	bool mapped;	/* munmap at free (else memory owned by the caller) */
	bool overwrite; /* write_backward ring, read with snapshots */
	void *base;
	size_t map_len;
	struct perf_event_mmap_page *page;
	unsigned char *data;
	uint64_t size; /* power of two */
	uint64_t tail; /* normal: the reader's tail; overwrite: head at the last snapshot */
	uint64_t head; /* head of the current read */
	uint64_t pos;  /* next record to return */
	unsigned char *aux;
	uint64_t aux_size;
	uint64_t aux_tail;
	bool aux_mapped, aux_overwrite;
	unsigned char *scratch; /* wrapped records are made contiguous here */
	size_t scratch_len;
};

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static struct perfev_ring *ring_alloc(int fd, bool overwrite)
{
	struct perfev_ring *r = calloc(1, sizeof(*r));

	if (r) {
		r->fd = fd;
		r->overwrite = overwrite;
	}
	return r;
}

static int map_aux(struct perfev_ring *r, const struct perfev_ring_opts *opts, size_t ps)
{
	size_t pages = PERFEV__OPT(opts, aux_pages, 0);
	bool ro = PERFEV__OPT(opts, aux_overwrite, false);
	void *p;

	if (!pages)
		return 0;
	if (!pow2(pages) || pages > SIZE_MAX / ps)
		return -EINVAL;
	/* The kernel takes the AUX geometry from the metadata page. */
	r->page->aux_offset = r->map_len;
	r->page->aux_size = pages * ps;
	p = mmap(NULL, pages * ps, PROT_READ | (ro ? 0 : PROT_WRITE), MAP_SHARED, r->fd,
		 (off_t)r->map_len);
	if (p == MAP_FAILED)
		return -errno;
	r->aux = p;
	r->aux_size = pages * ps;
	r->aux_mapped = true;
	r->aux_overwrite = ro;
	r->aux_tail = r->page->aux_tail;
	return 0;
}

int perfev_ring_map(int fd, const struct perfev_ring_opts *opts, struct perfev_ring **out)
{
	size_t ps = (size_t)sysconf(_SC_PAGESIZE);
	size_t pages = PERFEV__OPT(opts, data_pages, 0) ?: 128;
	bool ow = PERFEV__OPT(opts, overwrite, false);
	struct perfev_ring *r;
	void *base;
	int err;

	if (!out || fd < 0 || !perfev__opts_ok(opts, opts ? opts->sz : 0, sizeof(*opts)))
		return -EINVAL;
	if (!pow2(pages) || pages > (SIZE_MAX / ps) - 1)
		return -EINVAL;
	/*
	 * The AUX geometry has to be written into the metadata page, which an
	 * overwrite ring maps read-only: the store would fault.
	 */
	if (ow && PERFEV__OPT(opts, aux_pages, 0))
		return -EINVAL;
	r = ring_alloc(fd, ow);
	if (!r)
		return -ENOMEM;
	r->map_len = (pages + 1) * ps;
	/* Read-only tells the kernel nobody moves data_tail: it overwrites. */
	base = mmap(NULL, r->map_len, PROT_READ | (ow ? 0 : PROT_WRITE), MAP_SHARED, fd, 0);
	if (base == MAP_FAILED) {
		err = -errno;
		free(r);
		return err;
	}
	r->base = base;
	r->mapped = true;
	r->page = base;
	r->data = (unsigned char *)base + ps;
	r->size = (uint64_t)pages * ps;
	r->tail = ow ? 0 : r->page->data_tail;
	/* Nothing read yet: perfev_ring_end() before a begin keeps the tail. */
	r->head = r->pos = r->tail;
	err = map_aux(r, opts, ps);
	if (err) {
		perfev_ring_free(r);
		return err;
	}
	*out = r;
	return 0;
}

int perfev_ring_from_mem(void *base, size_t len, size_t page_size, bool overwrite,
			 struct perfev_ring **out)
{
	struct perf_event_mmap_page *pg = base;
	uint64_t off, size, aoff, asize;
	struct perfev_ring *r;

	if (!base || !out || !pow2(page_size) || page_size < sizeof(*pg) || len < page_size)
		return -EINVAL;
	aoff = pg->aux_offset;
	asize = pg->aux_size;
	off = pg->data_offset ?: page_size;
	size = pg->data_size;
	if (!size && off <= len)
		size = asize && aoff > off ? aoff - off : len - off;
	/* Records start 8-aligned in the data area; so must the area. */
	if (off < page_size || off > len || (off & 7) || size > len - off || !pow2(size) ||
	    size < 8)
		return -EBADMSG;
	if (asize && (aoff < off + size || aoff > len || asize > len - aoff))
		return -EBADMSG;
	r = ring_alloc(-1, overwrite);
	if (!r)
		return -ENOMEM;
	r->base = base;
	r->map_len = len;
	r->page = pg;
	r->data = (unsigned char *)base + off;
	r->size = size;
	r->tail = overwrite ? 0 : pg->data_tail;
	r->head = r->pos = r->tail;
	if (asize) {
		r->aux = (unsigned char *)base + aoff;
		r->aux_size = asize;
		r->aux_tail = pg->aux_tail;
	}
	*out = r;
	return 0;
}

void perfev_ring_free(struct perfev_ring *r)
{
	if (!r)
		return;
	if (r->aux_mapped)
		munmap(r->aux, r->aux_size);
	if (r->mapped)
		munmap(r->base, r->map_len);
	free(r->scratch);
	free(r);
}

int perfev_ring_fd(const struct perfev_ring *r)
{
	return r ? r->fd : -1;
}

const struct perf_event_mmap_page *perfev_ring_page(const struct perfev_ring *r)
{
	return r ? r->page : NULL;
}

size_t perfev_ring_data_size(const struct perfev_ring *r)
{
	return r ? (size_t)r->size : 0;
}

int perfev_ring_set_output(const struct perfev_ring *r, int fd)
{
	if (!r || r->fd < 0 || fd < 0)
		return -EINVAL;
	return ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, r->fd) ? -errno : 0;
}

/* Pairs with the kernel's smp_wmb() (B) before it stores data_head. */
static uint64_t load_head(const struct perfev_ring *r)
{
	return __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
}

int64_t perfev_ring_begin(struct perfev_ring *r)
{
	uint64_t head;

	if (!r || r->overwrite)
		return -EINVAL;
	head = load_head(r);
	/* The kernel never runs more than a buffer ahead of the tail it read. */
	if (head - r->tail > r->size || (r->tail & 7)) {
		r->head = r->pos = r->tail;
		return -EBADMSG;
	}
	r->head = head;
	r->pos = r->tail;
	return (int64_t)(head - r->tail);
}

/* Copy @len bytes from ring position @pos, wrapping at the end. */
static void copy_out(const struct perfev_ring *r, uint64_t pos, void *dst, size_t len)
{
	size_t off = (size_t)(pos & (r->size - 1));
	size_t first = len < r->size - off ? len : (size_t)(r->size - off);

	memcpy(dst, r->data + off, first);
	memcpy((unsigned char *)dst + first, r->data, len - first);
}

/*
 * The record at @pos with at most @room bytes to its limit, contiguous:
 * in place, or copied to the scratch buffer when it wraps.  NULL when the
 * header is not a plausible record.
 */
static const struct perf_event_header *record_at(struct perfev_ring *r, uint64_t pos, uint64_t room)
{
	struct perf_event_header h;
	size_t off = (size_t)(pos & (r->size - 1));

	if (room < sizeof(h))
		return NULL;
	/* One copy of the header: the size checked is the size used. */
	copy_out(r, pos, &h, sizeof(h));
	if (h.size < sizeof(h) || (h.size & 7) || h.size > room)
		return NULL;
	if (off + h.size <= r->size)
		return (const struct perf_event_header *)(r->data + off);
	if (h.size > r->scratch_len) {
		void *p = realloc(r->scratch, 65536);

		if (!p)
			return NULL;
		r->scratch = p;
		r->scratch_len = 65536;
	}
	copy_out(r, pos, r->scratch, h.size);
	/* The header as checked, whatever the buffer holds now. */
	memcpy(r->scratch, &h, sizeof(h));
	return (const struct perf_event_header *)r->scratch;
}

int perfev_ring_next(struct perfev_ring *r, const struct perf_event_header **rec)
{
	const struct perf_event_header *h;

	if (!r || !rec || r->overwrite)
		return -EINVAL;
	if (r->pos == r->head)
		return 0;
	h = record_at(r, r->pos, r->head - r->pos);
	if (!h) {
		/* Nothing after a bad size can be framed: drop the rest. */
		r->pos = r->head;
		return -EBADMSG;
	}
	r->pos += h->size;
	*rec = h;
	return 1;
}

void perfev_ring_end(struct perfev_ring *r)
{
	if (!r || r->overwrite)
		return;
	r->tail = r->pos;
	/* Pairs with the kernel's smp_mb() (A) after it reads data_tail. */
	__atomic_store_n(&r->page->data_tail, r->tail, __ATOMIC_RELEASE);
}

bool perfev_ring_pending(const struct perfev_ring *r)
{
	return r && load_head(r) != r->tail;
}

static int pause_output(const struct perfev_ring *r, unsigned long on)
{
	if (r->fd < 0)
		return 0;
	return ioctl(r->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, on) ? -errno : 0;
}

/*
 * With write_backward the kernel writes each record below the previous
 * one: data_head counts down from 0, the newest record starts at head and
 * older ones follow it.  The records since the last snapshot are those
 * between head and that snapshot's head, as far as one buffer reaches;
 * a record crossing that limit has been partly overwritten.
 */
int perfev_ring_snapshot(struct perfev_ring *r, perfev_ring_record_fn fn, void *ctx)
{
	uint64_t head, limit, done = 0, *offs = NULL;
	size_t n = 0, cap = 0;
	int ret, perr;

	if (!r || !fn || !r->overwrite)
		return -EINVAL;
	ret = pause_output(r, 1);
	if (ret)
		return ret;
	head = load_head(r);
	/*
	 * Records are 8-aligned, and a write_backward head only moves down
	 * from the last snapshot's: anything else is not such a ring (a
	 * forward one mapped read-only, or corrupt memory) and walking it
	 * would return misframed or misaligned records.
	 */
	if ((head & 7) || (int64_t)(r->tail - head) < 0) {
		ret = -EBADMSG;
		goto out;
	}
	limit = r->tail - head;
	if (limit > r->size)
		limit = r->size;
	while (done < limit) {
		const struct perf_event_header *h = record_at(r, head + done, limit - done);

		if (!h)
			break;
		if (perfev__grow(&offs, &cap, n + 1, sizeof(*offs))) {
			ret = -ENOMEM;
			goto out;
		}
		offs[n++] = head + done;
		done += h->size;
	}
	/* Oldest first. */
	ret = (int)n;
	while (n--) {
		const struct perf_event_header *h = record_at(r, offs[n], limit - (offs[n] - head));
		int cb = h ? fn(h, ctx) : 0;

		if (cb) {
			ret = cb;
			break;
		}
	}
	r->tail = head;
out:
	free(offs);
	perr = pause_output(r, 0);
	return ret < 0 || !perr ? ret : perr;
}

size_t perfev_ring_aux_size(const struct perfev_ring *r)
{
	return r ? (size_t)r->aux_size : 0;
}

int64_t perfev_ring_aux_peek(struct perfev_ring *r, const void **p1, size_t *n1, const void **p2,
			     size_t *n2)
{
	uint64_t head, avail, off, first;

	if (!r || !r->aux_size || !p1 || !n1 || !p2 || !n2)
		return -EINVAL;
	*p1 = *p2 = NULL;
	*n1 = *n2 = 0;
	/* Pairs with the PMU driver's barrier before it publishes aux_head. */
	head = __atomic_load_n(&r->page->aux_head, __ATOMIC_ACQUIRE);
	avail = head - r->aux_tail;
	if (avail > r->aux_size) {
		/* An overwriting PMU keeps the newest area's worth. */
		if (!r->aux_overwrite)
			return -EBADMSG;
		r->aux_tail = head - r->aux_size;
		avail = r->aux_size;
	}
	if (!avail)
		return 0;
	off = r->aux_tail % r->aux_size;
	first = avail < r->aux_size - off ? avail : r->aux_size - off;
	*p1 = r->aux + off;
	*n1 = (size_t)first;
	if (first < avail) {
		*p2 = r->aux;
		*n2 = (size_t)(avail - first);
	}
	return (int64_t)avail;
}

int perfev_ring_aux_consume(struct perfev_ring *r, uint64_t n)
{
	uint64_t head, avail;

	if (!r || !r->aux_size)
		return -EINVAL;
	/* Pairs with the PMU driver's barrier before it publishes aux_head. */
	head = __atomic_load_n(&r->page->aux_head, __ATOMIC_ACQUIRE);
	avail = head - r->aux_tail;
	/*
	 * A head behind the tail makes the difference huge: without this
	 * check any @n would pass and move the tail past the head.
	 */
	if (avail > r->aux_size && !r->aux_overwrite)
		return -EBADMSG;
	if (n > avail)
		return -EINVAL;
	r->aux_tail += n;
	/* Read-only areas have no tail to publish: the PMU overwrites. */
	if (!r->aux_overwrite)
		__atomic_store_n(&r->page->aux_tail, r->aux_tail, __ATOMIC_RELEASE);
	return 0;
}

/* ---- epoll ---------------------------------------------------------------- */

struct perfev_poller {
	int epfd;
};

int perfev_poller_new(struct perfev_poller **out)
{
	struct perfev_poller *p;

	if (!out)
		return -EINVAL;
	p = malloc(sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (p->epfd < 0) {
		int err = -errno;

		free(p);
		return err;
	}
	*out = p;
	return 0;
}

void perfev_poller_free(struct perfev_poller *p)
{
	if (!p)
		return;
	close(p->epfd);
	free(p);
}

int perfev_poller_add(struct perfev_poller *p, int fd, void *data)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = data};

	if (!p || fd < 0)
		return -EINVAL;
	return epoll_ctl(p->epfd, EPOLL_CTL_ADD, fd, &ev) ? -errno : 0;
}

int perfev_poller_del(struct perfev_poller *p, int fd)
{
	if (!p || fd < 0)
		return -EINVAL;
	return epoll_ctl(p->epfd, EPOLL_CTL_DEL, fd, NULL) ? -errno : 0;
}

int perfev_poller_wait(struct perfev_poller *p, struct perfev_poll_event *out, size_t max,
		       int timeout_ms)
{
	struct epoll_event evs[64];
	int n, i;

	if (!p || !out || !max)
		return -EINVAL;
	n = epoll_wait(p->epfd, evs, max < 64 ? (int)max : 64, timeout_ms);
	if (n < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		out[i].data = evs[i].data.ptr;
		out[i].hangup = !!(evs[i].events & (EPOLLHUP | EPOLLERR));
	}
	return n;
}
