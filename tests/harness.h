/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A minimal test harness.  Each test file registers cases with TEST();
 * the harness runs them in order and prints one line per case:
 *
 *   PASS name
 *   FAIL name: file:line: message
 *   SKIP name: reason
 *
 * which tests/run.sh counts.  Exit status: 0 all passed or skipped, 1 a
 * case failed, 77 every case skipped.  A skip names the missing feature;
 * PERFEV_TEST_REQUIRE=feature,... turns such skips into failures on
 * machines known to have the feature.
 */
#ifndef PERFEV_TEST_HARNESS_H
#define PERFEV_TEST_HARNESS_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef void (*test_fn)(void);

void harness_register(const char *name, test_fn fn);
void harness_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Skip the running case because @feature is missing; returns to caller. */
void harness_skip(const char *feature, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* True when the running case has already failed or skipped. */
bool harness_done(void);

/*
 * For kernel calls: skip when @err (negative errno) means "not permitted"
 * or "not supported" (EACCES, EPERM, ENOENT, ENODEV, EOPNOTSUPP, ENOSYS);
 * otherwise fail.  Returns true if the case should stop.
 */
bool harness_skip_errno(const char *feature, int err, const char *what, const char *file, int line);

#define TEST(name)                                                                                 \
	static void test_##name(void);                                                             \
	__attribute__((constructor)) static void register_##name(void)                             \
	{                                                                                          \
		harness_register(#name, test_##name);                                              \
	}                                                                                          \
	static void test_##name(void)

/* Record a failure and keep going (table-driven tests list every mismatch). */
#define EXPECT(cond, ...)                                                                          \
	do {                                                                                       \
		if (!(cond))                                                                       \
			harness_fail(__FILE__, __LINE__, "" __VA_ARGS__);                          \
	} while (0)

/* Fail and leave the case. */
#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			harness_fail(__FILE__, __LINE__, "check failed: %s", #cond);               \
			return;                                                                    \
		}                                                                                  \
	} while (0)

#define CHECK_INT(a, b)                                                                            \
	do {                                                                                       \
		long long a_ = (long long)(a), b_ = (long long)(b);                                \
		if (a_ != b_) {                                                                    \
			harness_fail(__FILE__, __LINE__, "%s == %lld, expected %s == %lld", #a,    \
				     a_, #b, b_);                                                  \
			return;                                                                    \
		}                                                                                  \
	} while (0)

#define CHECK_U64(a, b)                                                                            \
	do {                                                                                       \
		uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                                   \
		if (a_ != b_) {                                                                    \
			harness_fail(__FILE__, __LINE__, "%s == %#" PRIx64 ", expected %#" PRIx64, \
				     #a, a_, b_);                                                  \
			return;                                                                    \
		}                                                                                  \
	} while (0)

#define CHECK_STR(a, b)                                                                            \
	do {                                                                                       \
		const char *a_ = (a), *b_ = (b);                                                   \
		if (!a_ || !b_ || strcmp(a_, b_)) {                                                \
			harness_fail(__FILE__, __LINE__, "%s == \"%s\", expected \"%s\"", #a,      \
				     a_ ? a_ : "(null)", b_ ? b_ : "(null)");                      \
			return;                                                                    \
		}                                                                                  \
	} while (0)

#define CHECK_CONTAINS(hay, needle)                                                                \
	do {                                                                                       \
		const char *h_ = (hay), *n_ = (needle);                                            \
		if (!h_ || !strstr(h_, n_)) {                                                      \
			harness_fail(__FILE__, __LINE__, "%s == \"%s\" lacks \"%s\"", #hay,        \
				     h_ ? h_ : "(null)", n_);                                      \
			return;                                                                    \
		}                                                                                  \
	} while (0)

#define SKIP_ERRNO(feature, err, what)                                                             \
	do {                                                                                       \
		if (harness_skip_errno(feature, err, what, __FILE__, __LINE__))                    \
			return;                                                                    \
	} while (0)

/* Helpers shared by kernel tests. */
/* Read a small file into @buf (NUL-terminated); returns its length or -errno. */
int test_read_text(const char *path, char *buf, size_t len);
/* Some CPU time on this thread. */
void test_burn(void);
/* Map @n fresh anonymous pages and touch each once: one page fault apiece. */
bool test_touch_fresh_pages(size_t n);

/*
 * True when a write breakpoint on this thread counts writes.  When false,
 * *why says why (it opened but never fired, or the errno "not supported").
 */
bool test_breakpoints_fire(const char **why);

/* Skip the case unless hardware breakpoints work here. */
#define REQUIRE_BREAKPOINTS()                                                                      \
	do {                                                                                       \
		const char *why_;                                                                  \
		if (!test_breakpoints_fire(&why_)) {                                               \
			harness_skip("breakpoints", "%s", why_);                                   \
			return;                                                                    \
		}                                                                                  \
	} while (0)

/* Directory of the test data (tests/data), from PERFEV_TEST_DATA or the build. */
const char *test_data_dir(void);
/* "<test_data_dir>/<rel>" in a static buffer (one at a time). */
const char *test_data(const char *rel);

#endif /* PERFEV_TEST_HARNESS_H */
