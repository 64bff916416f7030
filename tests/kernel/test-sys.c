// SPDX-License-Identifier: LGPL-2.1-or-later
/* perfev_sys_open() on the real kernel: attr size negotiation, attr left untouched, FD_CLOEXEC. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <perfev/perfev.h>
#include "harness.h"

#define BIG_ATTR 8192 /* more than a page: the kernel refuses it with E2BIG */

/* task-clock on the calling thread, user space only so paranoid 2 allows it. */
static void task_clock(void *buf, unsigned int size)
{
	struct perf_event_attr *a = buf;

	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_TASK_CLOCK;
	a->size = size;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
}

static int raw_open(void *attr, pid_t pid, int cpu, int group_fd, unsigned long flags)
{
	long fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);

	return fd < 0 ? -errno : (int)fd;
}

/*
 * The kernel's own attr size, read without the library: an oversized
 * attr is refused with E2BIG and the kernel writes its size into it.
 */
static unsigned int kernel_attr_size(void)
{
	unsigned char *buf = calloc(1, BIG_ATTR);
	unsigned int size = 0;
	int fd;

	if (!buf)
		return 0;
	task_clock(buf, BIG_ATTR);
	fd = raw_open(buf, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0)
		close(fd);
	else if (fd == -E2BIG)
		size = ((struct perf_event_attr *)buf)->size;
	free(buf);
	return size;
}

static void diagnose(int err, const struct perf_event_attr *a, char *msg, size_t len)
{
	struct perfev_diag_ctx ctx = {.sz = sizeof(ctx), .pid = 0, .cpu = -1, .group_fd = -1};

	if (perfev_diagnose(err, a, &ctx, msg, len) < 0)
		snprintf(msg, len, "(perfev_diagnose failed)");
}

/* Must stay the first case: it checks the state before any negotiation. */
TEST(negotiates_oversized_attr)
{
	unsigned char *buf = calloc(1, BIG_ATTR), *copy = malloc(BIG_ATTR);
	unsigned int ksize, got;
	int fd;

	CHECK(buf && copy);
	CHECK_INT(perfev_sys_attr_size(), 0);
	task_clock(buf, BIG_ATTR);
	memcpy(copy, buf, BIG_ATTR);

	fd = perfev_sys_open((struct perf_event_attr *)buf, 0, -1, -1, 0);
	EXPECT(!memcmp(buf, copy, BIG_ATTR), "perfev_sys_open modified the caller's attr");
	EXPECT(((struct perf_event_attr *)buf)->size == BIG_ATTR, "attr.size became %u",
	       ((struct perf_event_attr *)buf)->size);
	free(buf);
	free(copy);
	SKIP_ERRNO("task-clock", fd, "perf_event_open(task-clock, size 8192)");
	close(fd);

	got = perfev_sys_attr_size();
	ksize = kernel_attr_size();
	CHECK(ksize >= PERF_ATTR_SIZE_VER0);
	CHECK_INT(got, ksize);
	CHECK_INT(got % 8, 0);

	/* The kernel takes exactly that size from a raw call. */
	buf = calloc(1, got);
	CHECK(buf);
	task_clock(buf, got);
	fd = raw_open(buf, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	free(buf);
	CHECK(fd >= 0);
	close(fd);
}

TEST(rejects_unknown_nonzero_byte)
{
	unsigned int ksize = kernel_attr_size(), off, size;
	unsigned char *buf, *copy;
	char msg[512], want[32];
	int fd;

	CHECK(ksize >= PERF_ATTR_SIZE_VER0);
	/* Byte 150 is beyond every attr known so far; stay beyond a newer kernel's. */
	off = ksize <= 150 ? 150 : ksize + 14;
	size = off + 50;
	buf = calloc(1, size);
	copy = malloc(size);
	CHECK(buf && copy);
	task_clock(buf, size);
	buf[off] = 1;
	memcpy(copy, buf, size);

	fd = perfev_sys_open((struct perf_event_attr *)buf, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
	EXPECT(!memcmp(buf, copy, size), "perfev_sys_open modified the caller's attr");
	diagnose(fd, (struct perf_event_attr *)buf, msg, sizeof(msg));
	free(buf);
	free(copy);
	CHECK_INT(fd, -E2BIG);
	snprintf(want, sizeof(want), "byte %u", off);
	CHECK(!strncmp(msg, "attr size not accepted: ", 24));
	CHECK_CONTAINS(msg, want);
	/* The refused byte does not teach the library a new size. */
	CHECK(perfev_sys_attr_size() == 0 || perfev_sys_attr_size() == ksize);
}

TEST(rejects_size_below_ver0)
{
	struct perf_event_attr a, copy;
	char msg[512];
	int fd;

	memset(&a, 0, sizeof(a));
	task_clock(&a, 32);
	copy = a;
	fd = perfev_sys_open(&a, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
	EXPECT(!memcmp(&a, &copy, sizeof(a)), "perfev_sys_open modified the caller's attr");
	CHECK_INT(fd, -E2BIG);
	diagnose(fd, &a, msg, sizeof(msg));
	CHECK(!strncmp(msg, "attr size not accepted: ", 24));
	CHECK_CONTAINS(msg, "attr.size 32");
	CHECK_CONTAINS(msg, "64");
}

TEST(attr_never_modified)
{
	struct perf_event_attr a, copy;
	int fd;

	/* A successful open at the header's size. */
	memset(&a, 0, sizeof(a));
	task_clock(&a, sizeof(a));
	copy = a;
	fd = perfev_sys_open(&a, 0, -1, -1, 0);
	SKIP_ERRNO("task-clock", fd, "perf_event_open(task-clock)");
	close(fd);
	CHECK(!memcmp(&a, &copy, sizeof(a)));

	/* A failed one (cpu -1 with pid -1 is EINVAL). */
	fd = perfev_sys_open(&a, -1, -1, -1, 0);
	if (fd >= 0)
		close(fd);
	CHECK_INT(fd, -EINVAL);
	CHECK(!memcmp(&a, &copy, sizeof(a)));
}

static bool cloexec(int fd)
{
	int f = fcntl(fd, F_GETFD);

	return f >= 0 && (f & FD_CLOEXEC);
}

TEST(cloexec_by_default)
{
	struct perf_event_attr a;
	int fd, fd2;

	memset(&a, 0, sizeof(a));
	task_clock(&a, sizeof(a));
	fd = perfev_sys_open(&a, 0, -1, -1, 0);
	SKIP_ERRNO("task-clock", fd, "perf_event_open(task-clock)");
	fd2 = perfev_sys_open(&a, 0, -1, -1, PERFEV_OPEN_NO_CLOEXEC);
	EXPECT(cloexec(fd), "fd %d lacks FD_CLOEXEC", fd);
	EXPECT(fd2 >= 0, "PERFEV_OPEN_NO_CLOEXEC: %s", strerrorname_np(-fd2));
	EXPECT(fd2 < 0 || !cloexec(fd2), "fd %d has FD_CLOEXEC despite PERFEV_OPEN_NO_CLOEXEC",
	       fd2);
	close(fd);
	if (fd2 >= 0)
		close(fd2);
}

/*
 * size 0 means PERFEV_ATTR_SIZE_MAX: the attr ends right before an
 * inaccessible page (so reading further would crash), and a bad clockid
 * at offset 92 is only seen by the kernel if more than the 64 bytes a
 * size of 0 stands for in the kernel ABI are passed.
 */
TEST(size_zero_means_max)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *map, *buf, copy[PERFEV_ATTR_SIZE_MAX];
	struct perf_event_attr *a;
	int fd, bad;

	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(map != MAP_FAILED);
	CHECK(!mprotect(map + page, page, PROT_NONE));
	buf = map + page - PERFEV_ATTR_SIZE_MAX;
	a = (struct perf_event_attr *)buf;
	task_clock(buf, 0);
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
	memcpy(copy, buf, sizeof(copy));

	fd = perfev_sys_open(a, 0, -1, -1, 0);
	EXPECT(!memcmp(buf, copy, sizeof(copy)), "perfev_sys_open modified the caller's attr");
	if (fd >= 0) {
		a->clockid = 12345;
		bad = perfev_sys_open(a, 0, -1, -1, 0);
		if (bad >= 0)
			close(bad);
		close(fd);
		EXPECT(bad == -EINVAL, "bad clockid with size 0: %d, expected -EINVAL", bad);
	}
	munmap(map, 2 * page);
	SKIP_ERRNO("task-clock", fd, "perf_event_open(task-clock, size 0)");
}
