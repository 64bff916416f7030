// SPDX-License-Identifier: LGPL-2.1-or-later
/* The test harness: registration, running, reporting, skip policy. */
#include <errno.h>
#include <fcntl.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"

#define MAX_TESTS 512

static struct {
	const char *name;
	test_fn fn;
} tests[MAX_TESTS];
static int ntests;

enum state { RUNNING, FAILED, SKIPPED };
static enum state state;
static const char *current;
static int failed, skipped, passed;

void harness_register(const char *name, test_fn fn)
{
	if (ntests < MAX_TESTS) {
		tests[ntests].name = name;
		tests[ntests].fn = fn;
		ntests++;
	}
}

void harness_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	if (state == RUNNING)
		failed++;
	if (state == SKIPPED)
		skipped--, failed++;
	state = FAILED;
	printf("FAIL %s: %s:%d: ", current, file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static bool required(const char *feature)
{
	const char *req = getenv("PERFEV_TEST_REQUIRE");
	size_t n = strlen(feature);

	while (req && *req) {
		const char *end = strchr(req, ',');
		size_t len = end ? (size_t)(end - req) : strlen(req);

		if ((len == n && !strncmp(req, feature, n)) ||
		    (len == 3 && !strncmp(req, "all", 3)))
			return true;
		req = end ? end + 1 : NULL;
	}
	return false;
}

void harness_skip(const char *feature, const char *fmt, ...)
{
	va_list ap;
	char buf[512];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (state != RUNNING)
		return;
	if (required(feature)) {
		harness_fail("harness", 0, "feature '%s' is required but missing: %s", feature,
			     buf);
		return;
	}
	state = SKIPPED;
	skipped++;
	printf("SKIP %s: %s\n", current, buf);
	fflush(stdout);
}

bool harness_done(void)
{
	return state != RUNNING;
}

/* The errnos that say "not permitted" or "not supported": the only ones a skip may rest on. */
static bool not_permitted(int e)
{
	return e == EACCES || e == EPERM;
}

static bool missing_feature(int e)
{
	return not_permitted(e) || e == ENOENT || e == ENODEV || e == EOPNOTSUPP || e == ENOSYS;
}

bool harness_skip_errno(const char *feature, int err, const char *what, const char *file, int line)
{
	if (err >= 0)
		return false;
	if (missing_feature(-err)) {
		harness_skip(feature, "%s: %s (%s here)", what, strerrorname_np(-err),
			     not_permitted(-err) ? "not permitted" : "not supported");
		return true;
	}
	harness_fail(file, line, "%s: %s (%s)", what, strerrorname_np(-err), strerror(-err));
	return true;
}

int test_read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return (int)n;
}

void test_burn(void)
{
	volatile uint64_t x = 0;
	int i;

	for (i = 0; i < 3000000; i++)
		x += (uint64_t)i * i;
}

bool test_touch_fresh_pages(size_t n)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p;
	size_t i;

	p = mmap(NULL, n * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		 0);
	if (p == MAP_FAILED)
		return false;
	for (i = 0; i < n; i++)
		p[i * (size_t)page] = (char)i;
	munmap((void *)p, n * (size_t)page);
	return true;
}

/*
 * Some hypervisors accept breakpoint events but never deliver the debug
 * exception, so they count nothing (perf stat -e mem:ADDR:w counts 0 there
 * too).  Probe with the raw system call, not the library, so that a library
 * bug cannot pass for a missing feature.
 */
static volatile uint64_t probe_var;

bool test_breakpoints_fire(const char **why)
{
	static int known; /* 0 unknown, 1 fire, -1 do not */
	static char reason[160];
	struct perf_event_attr a;
	uint64_t n = 0;
	int fd, i;

	*why = reason;
	if (known)
		return known > 0;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_BREAKPOINT;
	a.bp_type = HW_BREAKPOINT_W;
	a.bp_addr = (uint64_t)(uintptr_t)&probe_var;
	a.bp_len = HW_BREAKPOINT_LEN_8;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		snprintf(reason, sizeof(reason), "write breakpoint: %s (%s)", strerrorname_np(e),
			 strerror(e));
		/* Only "not permitted" / "not supported" say the feature is missing. */
		known = missing_feature(e) ? -1 : 1;
		return known > 0;
	}
	for (i = 0; i < 4; i++)
		probe_var = (uint64_t)i;
	if (read(fd, &n, sizeof(n)) != (ssize_t)sizeof(n))
		n = UINT64_MAX;
	close(fd);
	if (n == 0) {
		snprintf(reason, sizeof(reason),
			 "breakpoints open but never fire on this machine (4 writes counted 0; "
			 "the hypervisor does not deliver debug exceptions)");
		known = -1;
	} else {
		known = 1;
	}
	return known > 0;
}

const char *test_data_dir(void)
{
	const char *d = getenv("PERFEV_TEST_DATA");

	return d ? d : "tests/data";
}

const char *test_data(const char *rel)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf), "%s/%s", test_data_dir(), rel);
	return buf;
}

int main(int argc, char **argv)
{
	int i;

	for (i = 0; i < ntests; i++) {
		if (argc > 1 && strcmp(argv[1], tests[i].name))
			continue;
		current = tests[i].name;
		state = RUNNING;
		tests[i].fn();
		if (state == RUNNING) {
			passed++;
			printf("PASS %s\n", current);
		}
		fflush(stdout);
	}
	if (failed)
		return 1;
	return passed == 0 && skipped > 0 ? 77 : 0;
}
