// SPDX-License-Identifier: LGPL-2.1-or-later
/* read(2) on real software counters, alone and in a group, decoded for every read_format. */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <perfev/perfev.h>
#include "harness.h"

#define RF_ALL                                                                                     \
	(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID |        \
	 PERF_FORMAT_GROUP | PERFEV_FORMAT_LOST)
#define NPAGES	 64
#define GROUP_NR 3

static const uint64_t group_configs[GROUP_NR] = {
    PERF_COUNT_SW_TASK_CLOCK,
    PERF_COUNT_SW_PAGE_FAULTS,
    PERF_COUNT_SW_CONTEXT_SWITCHES,
};

/* Kernel-side counting needs privileges that user-only counting does not. */
static bool count_kernel(void)
{
	return geteuid() == 0;
}

static int open_sw(uint64_t config, uint64_t rf, int group_fd, bool disabled)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	a.read_format = rf;
	a.exclude_kernel = !count_kernel();
	a.exclude_hv = 1;
	a.disabled = disabled;
	return perfev_sys_open(&a, 0, -1, group_fd, 0);
}

static bool kernel_before(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma < major || (ma == major && mi < minor);
}

/*
 * Open a counter with @rf, or decide the case: skip when the kernel
 * predates PERF_FORMAT_LOST (Linux 6.0) and refuses it for that reason
 * alone, fail on anything else.  Returns the fd or -1.
 */
static int open_or_decide(uint64_t config, uint64_t rf, int group_fd, bool disabled,
			  const char *what)
{
	int fd = open_sw(config, rf, group_fd, disabled);

	if (fd >= 0)
		return fd;
	if (fd == -EINVAL && (rf & PERFEV_FORMAT_LOST)) {
		int plain = open_sw(config, rf & ~(uint64_t)PERFEV_FORMAT_LOST, -1, false);

		if (plain >= 0)
			close(plain);
		if (plain >= 0 && kernel_before(6, 0)) {
			harness_skip("format-lost", "%s: PERF_FORMAT_LOST refused (Linux < 6.0)",
				     what);
			return -1;
		}
	}
	if (!harness_skip_errno("software-events", fd, what, __FILE__, __LINE__))
		harness_fail(__FILE__, __LINE__, "%s: %d", what, fd);
	return -1;
}

/* Some CPU time, some page faults and a few context switches. */
static void work(void)
{
	volatile uint64_t x = 0;
	int i;

	for (i = 0; i < 2000000; i++)
		x += (uint64_t)i * i;
	test_touch_fresh_pages(NPAGES);
	for (i = 0; i < 3; i++)
		usleep(100);
}

static void format_name(uint64_t rf, char *buf, size_t len)
{
	char s[128];

	if (perfev_read_format_str(rf, s, sizeof(s)) < 0)
		snprintf(s, sizeof(s), "?");
	snprintf(buf, len, "rf=%#llx (%s)", (unsigned long long)rf, s);
}

/*
 * read(2) @fd into a buffer of exactly perfev_read_size() bytes and
 * decode it.  Returns false (after recording why) on any mismatch.
 */
static bool read_decode(int fd, uint64_t rf, size_t nr, struct perfev_reading *r, const char *what)
{
	size_t size = perfev_read_size(rf, nr);
	unsigned char buf[512];
	ssize_t n;
	int err;

	EXPECT(size > 0 && size <= sizeof(buf), "%s: read size %zu", what, size);
	if (!size || size > sizeof(buf))
		return false;
	n = read(fd, buf, size);
	EXPECT(n == (ssize_t)size, "%s: read returned %zd (%s), expected %zu", what, n,
	       n < 0 ? strerror(errno) : "bytes", size);
	if (n != (ssize_t)size)
		return false;
	/* One byte less than the library's size is too little for the kernel. */
	n = read(fd, buf, size - 1);
	EXPECT(n < 0 && errno == ENOSPC, "%s: read of %zu bytes gave %zd, expected ENOSPC", what,
	       size - 1, n);
	n = read(fd, buf, size);
	if (n != (ssize_t)size)
		return false;
	err = perfev_read_decode(rf, buf, size, r);
	EXPECT(err == 0, "%s: decode returned %d", what, err);
	return err == 0;
}

static void check_times(const struct perfev_reading *r, uint64_t rf, const char *what)
{
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		EXPECT(r->time_enabled > 0, "%s: time_enabled 0", what);
	else
		EXPECT(r->time_enabled == 0, "%s: time_enabled without the bit", what);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		EXPECT(r->time_running > 0, "%s: time_running 0", what);
	else
		EXPECT(r->time_running == 0, "%s: time_running without the bit", what);
	if ((rf & PERF_FORMAT_TOTAL_TIME_ENABLED) && (rf & PERF_FORMAT_TOTAL_TIME_RUNNING))
		EXPECT(r->time_enabled >= r->time_running, "%s: enabled %llu < running %llu", what,
		       (unsigned long long)r->time_enabled, (unsigned long long)r->time_running);
}

static uint64_t ioc_id(int fd)
{
	uint64_t id = 0;

	EXPECT(perfev_ioc_id(fd, &id) == 0, "PERF_EVENT_IOC_ID failed");
	return id;
}

TEST(single_every_format)
{
	uint64_t rf;

	for (rf = 0; rf <= RF_ALL && !harness_done(); rf++) {
		struct perfev_value v[2];
		struct perfev_reading r = {.sz = sizeof(r), .max = 2, .values = v};
		char what[160];
		int fd;

		format_name(rf, what, sizeof(what));
		fd = open_or_decide(PERF_COUNT_SW_TASK_CLOCK, rf, -1, false, what);
		if (fd < 0)
			return;
		work();
		if (read_decode(fd, rf, 1, &r, what)) {
			EXPECT(r.read_format == rf, "%s: read_format %#llx", what,
			       (unsigned long long)r.read_format);
			EXPECT(r.nr == 1, "%s: nr %u", what, r.nr);
			EXPECT(v[0].value > 0, "%s: task-clock 0 after work", what);
			EXPECT(v[0].id == (rf & PERF_FORMAT_ID ? ioc_id(fd) : 0),
			       "%s: id %llu, ioctl says %llu", what, (unsigned long long)v[0].id,
			       (unsigned long long)ioc_id(fd));
			EXPECT(v[0].lost == 0, "%s: lost %llu on a counter without a ring", what,
			       (unsigned long long)v[0].lost);
			check_times(&r, rf, what);
		}
		close(fd);
	}
}

/*
 * Open the group with @rf; fds[0] is the leader.  Returns false when decided.
 *
 * The leader is opened disabled and enabled once the group is complete, as
 * perf does: on Linux 6.18 a software sibling added to a running group led
 * by task-clock does not count until the group is next scheduled in.
 */
static bool open_group(uint64_t rf, int *fds, const char *what)
{
	int i, err;

	for (i = 0; i < GROUP_NR; i++) {
		fds[i] = open_or_decide(group_configs[i], rf, i ? fds[0] : -1, i == 0, what);
		if (fds[i] < 0) {
			while (i--)
				close(fds[i]);
			return false;
		}
	}
	err = perfev_ioc_enable(fds[0], false);
	EXPECT(err == 0, "%s: enabling the group: %d", what, err);
	if (err) {
		for (i = GROUP_NR - 1; i >= 0; i--)
			close(fds[i]);
		return false;
	}
	return true;
}

static void close_group(int *fds)
{
	int i;

	for (i = GROUP_NR - 1; i >= 0; i--)
		close(fds[i]);
}

/* Check a decoded reading of the whole group against what work() did. */
static void check_group_values(const struct perfev_reading *r, const int *fds, uint64_t rf,
			       const char *what)
{
	int i;

	EXPECT(r->nr == GROUP_NR, "%s: nr %u", what, r->nr);
	if (r->nr != GROUP_NR)
		return;
	for (i = 0; i < GROUP_NR; i++) {
		uint64_t want = rf & PERF_FORMAT_ID ? ioc_id(fds[i]) : 0;

		EXPECT(r->values[i].id == want, "%s: values[%d].id %llu, ioctl says %llu", what, i,
		       (unsigned long long)r->values[i].id, (unsigned long long)want);
		EXPECT(r->values[i].lost == 0, "%s: values[%d].lost %llu", what, i,
		       (unsigned long long)r->values[i].lost);
	}
	EXPECT(r->values[0].value > 0, "%s: task-clock 0", what);
	EXPECT(r->values[1].value >= NPAGES, "%s: %llu page faults after touching %d pages", what,
	       (unsigned long long)r->values[1].value, NPAGES);
	if (count_kernel())
		EXPECT(r->values[2].value > 0, "%s: no context switch after usleep", what);
	check_times(r, rf, what);
}

TEST(group_every_format)
{
	uint64_t rf;

	for (rf = 0; rf <= RF_ALL && !harness_done(); rf++) {
		struct perfev_value v[GROUP_NR + 1];
		struct perfev_reading r = {.sz = sizeof(r), .max = GROUP_NR + 1, .values = v};
		char what[160];
		int fds[GROUP_NR], i;

		format_name(rf, what, sizeof(what));
		if (!open_group(rf, fds, what))
			return;
		work();
		if (rf & PERF_FORMAT_GROUP) {
			/* The leader, and any member, reads the whole group. */
			for (i = 0; i < GROUP_NR; i++)
				if (read_decode(fds[i], rf, GROUP_NR, &r, what))
					check_group_values(&r, fds, rf, what);
		} else {
			/* Without GROUP each member reads its own counter. */
			for (i = 0; i < GROUP_NR; i++) {
				if (!read_decode(fds[i], rf, 1, &r, what))
					continue;
				EXPECT(r.nr == 1, "%s: member %d nr %u", what, i, r.nr);
				EXPECT(v[0].id == (rf & PERF_FORMAT_ID ? ioc_id(fds[i]) : 0),
				       "%s: member %d id %llu", what, i,
				       (unsigned long long)v[0].id);
				check_times(&r, rf, what);
				if (group_configs[i] == PERF_COUNT_SW_PAGE_FAULTS)
					EXPECT(v[0].value >= NPAGES, "%s: %llu page faults", what,
					       (unsigned long long)v[0].value);
			}
		}
		close_group(fds);
	}
}

/* Counts between two readings: fresh pages add page faults, CPU work adds time. */
TEST(group_values_grow)
{
	const uint64_t rf = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
			    PERF_FORMAT_TOTAL_TIME_RUNNING;
	struct perfev_value a[GROUP_NR], b[GROUP_NR];
	struct perfev_reading ra = {.sz = sizeof(ra), .max = GROUP_NR, .values = a};
	struct perfev_reading rb = {.sz = sizeof(rb), .max = GROUP_NR, .values = b};
	int fds[GROUP_NR], i;

	if (!open_group(rf, fds, "group"))
		return;
	work();
	if (!read_decode(fds[0], rf, GROUP_NR, &ra, "first read"))
		goto out;
	CHECK(test_touch_fresh_pages(4 * NPAGES));
	work();
	if (!read_decode(fds[0], rf, GROUP_NR, &rb, "second read"))
		goto out;
	for (i = 0; i < GROUP_NR; i++)
		EXPECT(a[i].id == b[i].id, "values[%d] id changed between reads", i);
	EXPECT(b[0].value > a[0].value, "task-clock %llu then %llu", (unsigned long long)a[0].value,
	       (unsigned long long)b[0].value);
	EXPECT(b[1].value - a[1].value >= 5 * NPAGES,
	       "page faults grew by %llu after touching %d fresh pages",
	       (unsigned long long)(b[1].value - a[1].value), 5 * NPAGES);
	EXPECT(rb.time_enabled > ra.time_enabled && rb.time_running > ra.time_running,
	       "times did not advance");
	/* Software counters are never multiplexed: scaling changes nothing. */
	EXPECT(rb.time_enabled != rb.time_running ||
		   perfev_scale(b[1].value, rb.time_enabled, rb.time_running) == b[1].value,
	       "scale changed an unmultiplexed count");
out:
	close_group(fds);
}

/* A group reading into fewer slots than members: ENOSPC and the count. */
TEST(group_too_few_slots)
{
	const uint64_t rf = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	size_t size = perfev_read_size(rf, GROUP_NR);
	struct perfev_value v[GROUP_NR - 1];
	struct perfev_reading r = {.sz = sizeof(r), .max = GROUP_NR - 1, .values = v};
	unsigned char buf[256];
	int fds[GROUP_NR];

	if (!open_group(rf, fds, "group"))
		return;
	EXPECT(read(fds[0], buf, sizeof(buf)) == (ssize_t)size, "read size");
	EXPECT(perfev_read_decode(rf, buf, size, &r) == -ENOSPC, "decode into %d slots",
	       GROUP_NR - 1);
	EXPECT(r.nr == GROUP_NR, "nr %u after ENOSPC", r.nr);
	/* The group read with the lone-counter size is short. */
	EXPECT(perfev_read_decode(rf, buf, perfev_read_size(rf, 1), &r) == -EBADMSG,
	       "a group reading cut to one counter decoded");
	close_group(fds);
}
