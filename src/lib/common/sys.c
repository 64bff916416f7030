// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perf_event_open(2) with attr size negotiation.
 *
 * The library fills attrs up to PERFEV_ATTR_SIZE_MAX bytes.  An older
 * kernel refuses sizes it does not know with E2BIG when the unknown tail
 * is not zero, and writes back the size it supports.  Bytes the kernel
 * does not know can only be dropped if they are zero, so that is the only
 * case we retry; otherwise the caller learns which field is at fault.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "common/internal.h"
#include <perfev/sys.h>

#define LOCAL_ATTR_BUF 512
#define MAX_ATTR_SIZE  65536

/* 0: the kernel took our full size so far.  Shared by all threads. */
static _Atomic unsigned int kernel_attr_size;
static _Thread_local unsigned int last_e2big, last_e2big_sent;

unsigned int perfev_sys_attr_size(void)
{
	return atomic_load_explicit(&kernel_attr_size, memory_order_relaxed);
}

unsigned int perfev__last_e2big_size(unsigned int *sent)
{
	*sent = last_e2big_sent;
	return last_e2big;
}

static bool tail_zero(const unsigned char *p, size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to; i++)
		if (p[i])
			return false;
	return true;
}

static int raw_open(void *attr, pid_t pid, int cpu, int group_fd, unsigned long flags)
{
	long fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);

	return fd < 0 ? -errno : (int)fd;
}

int perfev_sys_open(const struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		    unsigned long flags)
{
	unsigned char local[LOCAL_ATTR_BUF], *buf = local;
	struct perf_event_attr *a;
	unsigned int size, known;
	int fd;

	last_e2big = last_e2big_sent = 0;
	if (!attr)
		return raw_open(NULL, pid, cpu, group_fd, flags & ~PERFEV_OPEN_NO_CLOEXEC);
	size = attr->size ? attr->size : PERFEV_ATTR_SIZE_MAX;
	if (size > MAX_ATTR_SIZE)
		return -E2BIG;
	if (size > sizeof(local)) {
		buf = malloc(size);
		if (!buf)
			return -ENOMEM;
	}
	memcpy(buf, attr, size);
	a = (struct perf_event_attr *)buf;

	if (flags & PERFEV_OPEN_NO_CLOEXEC)
		flags &= ~PERFEV_OPEN_NO_CLOEXEC;
	else
		flags |= PERF_FLAG_FD_CLOEXEC;

	/* Skip a failing call when we already know the kernel's size. */
	known = atomic_load_explicit(&kernel_attr_size, memory_order_relaxed);
	if (known && known < size && tail_zero(buf, known, size))
		size = known;
	a->size = size;

	fd = raw_open(a, pid, cpu, group_fd, flags);
	if (fd == -E2BIG) {
		unsigned int want = a->size;

		last_e2big = want;
		last_e2big_sent = size;
		if (want >= PERF_ATTR_SIZE_VER0 && want < size && tail_zero(buf, want, size)) {
			atomic_store_explicit(&kernel_attr_size, want, memory_order_relaxed);
			pr_debug("kernel supports %u-byte perf_event_attr, retrying", want);
			a->size = want;
			fd = raw_open(a, pid, cpu, group_fd, flags);
			/* Refused again, for its size (written back) or for another cause. */
			if (fd == -E2BIG) {
				last_e2big_sent = want;
				last_e2big = a->size;
			}
		}
	}
	if (buf != local)
		free(buf);
	return fd;
}
