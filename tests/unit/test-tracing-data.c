// SPDX-License-Identifier: LGPL-2.1-or-later
/* Tracing data from the fixture tracefs: parsed, cut short, corrupted, byte-swapped; payloads
 * printed and decoded. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <perfev/perfev.h>
#include "harness.h"
#include "tracefs-fixture.h"
#include "event/tp-format-internal.h"

/* The tracepoints put in the blobs, and in the order the blob holds them (sorted). */
static const char *const tps[] = {"sched:sched_switch", "raw_syscalls:sys_enter",
				  "sched:sched_process_exec", "sched:sched_wakeup"};
static const struct {
	const char *sys, *name;
	uint64_t id;
} order[] = {
    {"raw_syscalls", "sys_enter", 443},
    {"sched", "sched_process_exec", 365},
    {"sched", "sched_switch", 372},
    {"sched", "sched_wakeup", 374},
};
#define N_TPS (sizeof(order) / sizeof(order[0]))

/* A fixture file's bytes (malloc()ed, NUL-terminated), or NULL. */
static char *fixture(const char *rel, size_t *len)
{
	char path[4096], *buf;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "tracefs/%s", rel);
	fd = open(test_data(path), O_RDONLY);
	if (fd < 0)
		return NULL;
	buf = malloc(1 << 16);
	n = buf ? read(fd, buf, (1 << 16) - 1) : -1;
	close(fd);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

/* ---- an encoder of the layout, in either byte order ---------------------- */

struct blob {
	unsigned char p[1 << 16];
	size_t len;
	bool be;
	size_t events_end; /* where the formats end */
};

static void put(struct blob *b, const void *src, size_t n)
{
	if (b->len + n <= sizeof(b->p))
		memcpy(b->p + b->len, src, n);
	b->len += n;
}

static void put_uint(struct blob *b, uint64_t v, size_t n)
{
	unsigned char x[8];
	size_t i;

	for (i = 0; i < n; i++)
		x[b->be ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
	put(b, x, n);
}

/* "0.6" with saved cmdlines, or "0.5" without; @printk as the printk_formats text. */
static bool build(struct blob *b, bool be, const char *version, const char *printk)
{
	static const unsigned char magic[] = {0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'};
	static const char *const files[] = {
	    "events/raw_syscalls/sys_enter/format", "events/sched/sched_process_exec/format",
	    "events/sched/sched_switch/format", "events/sched/sched_wakeup/format"};
	unsigned char c;
	size_t i, n;
	char *t;

	memset(b, 0, sizeof(*b));
	b->be = be;
	put(b, magic, sizeof(magic));
	put(b, version, strlen(version) + 1);
	c = be;
	put(b, &c, 1);
	c = sizeof(long);
	put(b, &c, 1);
	put_uint(b, (uint64_t)sysconf(_SC_PAGESIZE), 4);
	put(b, "header_page", 12);
	if (!(t = fixture("events/header_page", &n)))
		return false;
	put_uint(b, n, 8);
	put(b, t, n);
	free(t);
	put(b, "header_event", 13);
	if (!(t = fixture("events/header_event", &n)))
		return false;
	put_uint(b, n, 8);
	put(b, t, n);
	free(t);
	put_uint(b, 0, 4); /* ftrace formats */
	put_uint(b, 2, 4); /* systems */
	for (i = 0; i < N_TPS; i++) {
		if (i == 0 || strcmp(order[i].sys, order[i - 1].sys)) {
			put(b, order[i].sys, strlen(order[i].sys) + 1);
			put_uint(b, i == 0 ? 1 : 3, 4);
		}
		if (!(t = fixture(files[i], &n)))
			return false;
		put_uint(b, n, 8);
		put(b, t, n);
		free(t);
	}
	b->events_end = b->len;
	put_uint(b, 0, 4); /* kallsyms */
	put_uint(b, strlen(printk), 4);
	put(b, printk, strlen(printk));
	if (strcmp(version, "0.5"))
		put_uint(b, 0, 8); /* saved cmdlines */
	return b->len <= sizeof(b->p);
}

/* Parse an exact-size heap copy, so that a read past the end is an ASan error. */
static int parse_copy(const void *p, size_t len, struct perfev_tracing_data **out)
{
	void *copy = malloc(len ? len : 1);
	int err;

	if (!copy)
		return -ENOMEM;
	memcpy(copy, p, len);
	err = perfev_tracing_data_parse(copy, len, out);
	free(copy);
	return err;
}

/* The events of @td against the fixture files, and its sections against @printk. */
static void check_contents(struct perfev_tracing_data *td, const char *printk, bool cmdlines)
{
	static const char *const files[] = {
	    "events/raw_syscalls/sys_enter/format", "events/sched/sched_process_exec/format",
	    "events/sched/sched_switch/format", "events/sched/sched_wakeup/format"};
	struct perfev_tracing_event e;
	const char *text;
	size_t i, n, len;
	char *want;

	EXPECT(perfev_tracing_data_event_count(td) == N_TPS, "%zu events",
	       perfev_tracing_data_event_count(td));
	for (i = 0; i < N_TPS && i < perfev_tracing_data_event_count(td); i++) {
		if (perfev_tracing_data_event(td, i, &e)) {
			harness_fail(__FILE__, __LINE__, "event %zu missing", i);
			continue;
		}
		want = fixture(files[i], &n);
		EXPECT(!strcmp(e.system, order[i].sys), "event %zu: system '%s'", i, e.system);
		EXPECT(e.id == order[i].id, "event %zu: id %" PRIu64, i, e.id);
		EXPECT(want && e.format_len == n && !memcmp(e.format, want, n),
		       "event %zu: format text differs", i);
		free(want);
	}
	CHECK_INT(perfev_tracing_data_event(td, N_TPS, &e), -ENOENT);
	want = fixture("events/header_page", &n);
	CHECK(want);
	CHECK_INT(perfev_tracing_data_section(td, PERFEV_TRACING_HEADER_PAGE, &text, &len), 0);
	EXPECT(len == n && !memcmp(text, want, n), "header_page differs");
	free(want);
	want = fixture("events/header_event", &n);
	CHECK(want);
	CHECK_INT(perfev_tracing_data_section(td, PERFEV_TRACING_HEADER_EVENT, &text, &len), 0);
	EXPECT(len == n && !memcmp(text, want, n), "header_event differs");
	free(want);
	CHECK_INT(perfev_tracing_data_section(td, PERFEV_TRACING_KALLSYMS, &text, &len), 0);
	CHECK_INT(len, 0);
	CHECK_INT(perfev_tracing_data_section(td, PERFEV_TRACING_PRINTK, &text, &len), 0);
	EXPECT(len == strlen(printk) && !memcmp(text, printk, len), "printk differs");
	CHECK_INT(perfev_tracing_data_section(td, PERFEV_TRACING_SAVED_CMDLINES, &text, &len),
		  cmdlines ? 0 : -ENOENT);
	CHECK_INT(perfev_tracing_data_section(td, (enum perfev_tracing_section)99, &text, &len),
		  -EINVAL);
}

/* ---- the blob ------------------------------------------------------------ */

TEST(tracing_data_fixture)
{
	struct perfev_tracefs *t = open_fixture();
	struct perfev_tracing_data *td = NULL;
	static struct blob b;
	size_t len, plen;
	char *printk;
	void *p;

	CHECK(t);
	printk = fixture("printk_formats", &plen);
	CHECK(printk);
	CHECK_INT(perfev_data_tracing_data(t, tps, N_TPS, &p, &len), 0);
	/* The writer and this test's encoder agree byte for byte. */
	CHECK(build(&b, false, "0.6", printk));
	EXPECT(len == b.len && !memcmp(p, b.p, len), "writer: %zu bytes, encoder: %zu", len, b.len);
	CHECK_INT(parse_copy(p, len, &td), 0);
	CHECK_STR(perfev_tracing_data_version(td), "0.6");
	CHECK(!perfev_tracing_data_big_endian(td));
	CHECK_INT(perfev_tracing_data_long_size(td), sizeof(long));
	CHECK_INT(perfev_tracing_data_page_size(td), sysconf(_SC_PAGESIZE));
	check_contents(td, printk, true);
	perfev_tracing_data_free(td);
	perfev_tracing_data_free(NULL);
	free(printk);
	free(p);
	perfev_tracefs_free(t);
}

TEST(tracing_data_truncated)
{
	static struct blob b;
	struct perfev_tracing_data *td;
	unsigned char pad[64];
	size_t n, ok = 0;
	int err;

	CHECK(build(&b, false, "0.6", "0xffffffff81000000 : \"hello\"\n"));
	/*
	 * Every prefix is corrupt but those ending after the formats, after
	 * kallsyms and after printk_formats: sections may be missing, not
	 * cut.
	 */
	for (n = 0; n < b.len; n++) {
		bool whole = n == b.events_end || n == b.events_end + 4 ||
			     n == b.len - 8; /* before saved_cmdlines */
		const char *text;
		size_t len;

		td = NULL;
		err = parse_copy(b.p, n, &td);
		if (!whole) {
			EXPECT(err == -EBADMSG, "%zu of %zu bytes: %d", n, b.len, err);
			EXPECT(!td, "%zu bytes: an object on error", n);
			continue;
		}
		EXPECT(err == 0, "%zu bytes (a section boundary): %d", n, err);
		if (err)
			continue;
		ok++;
		EXPECT(perfev_tracing_data_event_count(td) == N_TPS, "%zu bytes: %zu events", n,
		       perfev_tracing_data_event_count(td));
		EXPECT((perfev_tracing_data_section(td, PERFEV_TRACING_KALLSYMS, &text, &len) ==
			0) == (n > b.events_end),
		       "%zu bytes: kallsyms", n);
		EXPECT((perfev_tracing_data_section(td, PERFEV_TRACING_PRINTK, &text, &len) == 0) ==
			   (n > b.events_end + 4),
		       "%zu bytes: printk", n);
		EXPECT(perfev_tracing_data_section(td, PERFEV_TRACING_SAVED_CMDLINES, &text,
						   &len) == -ENOENT,
		       "%zu bytes: cmdlines", n);
		perfev_tracing_data_free(td);
	}
	CHECK_INT(ok, 3);
	/* Whole, then padded as pipe mode pads it: fine. */
	CHECK_INT(parse_copy(b.p, b.len, &td), 0);
	perfev_tracing_data_free(td);
	memset(pad, 0, sizeof(pad));
	memcpy(b.p + b.len, pad, 7);
	CHECK_INT(parse_copy(b.p, b.len + 7, &td), 0);
	check_contents(td, "0xffffffff81000000 : \"hello\"\n", true);
	perfev_tracing_data_free(td);
}

/* Overwrite @n bytes at @off of a fresh blob and expect -EBADMSG. */
static void corrupt(size_t off, const void *bytes, size_t n, const char *what)
{
	static struct blob b;
	struct perfev_tracing_data *td = NULL;
	int err;

	if (!build(&b, false, "0.6", "")) {
		harness_fail(__FILE__, __LINE__, "cannot build the blob");
		return;
	}
	memcpy(b.p + off, bytes, n);
	err = parse_copy(b.p, b.len, &td);
	EXPECT(err == -EBADMSG, "%s: %d", what, err);
	perfev_tracing_data_free(td);
}

TEST(tracing_data_corrupt)
{
	static const unsigned char big32[] = {0xff, 0xff, 0xff, 0x7f};
	static const unsigned char big64[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f};
	static struct blob b;
	struct perfev_tracing_data *td = (void *)&b;
	unsigned char c;
	size_t i, off;
	char *hp;
	size_t hplen;

	for (i = 0; i < 10; i++) {
		c = i < 3 ? 0 : 'X';
		corrupt(i, &c, 1, "magic");
	}
	corrupt(10, "x.6", 3, "version x.6");
	corrupt(10, "0.x", 3, "version 0.x");
	corrupt(10, "0:6", 3, "version 0:6");
	corrupt(10, "\0", 1, "empty version");
	corrupt(14, "\2", 1, "endianness 2");
	corrupt(15, "\5", 1, "long size 5");
	corrupt(15, "\0", 1, "long size 0");
	corrupt(20, "header_pagf", 11, "header_page name");
	corrupt(32, big64, 8, "header_page size");
	hp = fixture("events/header_page", &hplen);
	CHECK(hp);
	free(hp);
	off = 40 + hplen;
	corrupt(off, "header_evenu", 12, "header_event name");
	CHECK(build(&b, false, "0.6", ""));
	/* The ftrace count, the system count, the first system's name and count. */
	for (off = 0; off + 4 < b.len; off++)
		if (!memcmp(b.p + off, "raw_syscalls", 13))
			break;
	CHECK(off + 4 < b.len);
	corrupt(off - 8, big32, 4, "ftrace count");
	corrupt(off - 4, big32, 4, "system count");
	corrupt(off + 12, "x", 1, "system name without its NUL");
	corrupt(off + 13, big32, 4, "event count");
	corrupt(off + 17, big64, 8, "format size");
	corrupt(b.events_end, big32, 4, "kallsyms size");
	corrupt(b.events_end + 4, big32, 4, "printk size");
	corrupt(b.len - 8, big64, 8, "cmdlines size");
	/* A version string without its NUL, on an otherwise empty blob. */
	CHECK_INT(parse_copy("\x17\x08\x44tracing0.6", 13, &td), -EBADMSG);
	CHECK_INT(parse_copy("", 0, &td), -EBADMSG);
	CHECK(td == (void *)&b);
	CHECK_INT(perfev_tracing_data_parse(NULL, 4, &td), -EINVAL);
	CHECK_INT(perfev_tracing_data_parse(b.p, b.len, NULL), -EINVAL);
}

TEST(tracing_data_big_endian)
{
	static struct blob le, be;
	struct perfev_tracing_data *td;
	const struct perfev_tp_format *f;

	CHECK(build(&le, false, "0.6", "0x1 : \"one\"\n"));
	CHECK(build(&be, true, "0.6", "0x1 : \"one\"\n"));
	CHECK(le.len == be.len && memcmp(le.p, be.p, le.len));
	CHECK_INT(parse_copy(be.p, be.len, &td), 0);
	CHECK(perfev_tracing_data_big_endian(td));
	CHECK_INT(perfev_tracing_data_page_size(td), sysconf(_SC_PAGESIZE));
	check_contents(td, "0x1 : \"one\"\n", true);
	CHECK_INT(perfev_tracing_data_format(td, 372, &f), 0);
	CHECK_STR(perfev_tp_format_name(f), "sched_switch");
	perfev_tracing_data_free(td);
}

TEST(tracing_data_version_05)
{
	static struct blob b;
	struct perfev_tracing_data *td;

	/* 0.5 has no saved cmdlines: what follows printk_formats is not read. */
	CHECK(build(&b, false, "0.5", "0x2 : \"two\"\n"));
	CHECK_INT(parse_copy(b.p, b.len, &td), 0);
	CHECK_STR(perfev_tracing_data_version(td), "0.5");
	check_contents(td, "0x2 : \"two\"\n", false);
	perfev_tracing_data_free(td);
	memset(b.p + b.len, 0xee, 5);
	CHECK_INT(parse_copy(b.p, b.len + 5, &td), 0);
	perfev_tracing_data_free(td);
}

TEST(tracing_data_lookup)
{
	static struct blob b;
	struct perfev_tracing_data *td;
	const struct perfev_tp_format *f, *g;
	size_t i;

	CHECK(build(&b, false, "0.6", ""));
	CHECK_INT(parse_copy(b.p, b.len, &td), 0);
	for (i = 0; i < N_TPS; i++) {
		f = NULL;
		CHECK_INT(perfev_tracing_data_format(td, order[i].id, &f), 0);
		CHECK_STR(perfev_tp_format_name(f), order[i].name);
		CHECK_STR(perfev_tp_format_system(f), order[i].sys);
		CHECK_U64(perfev_tp_format_id(f), order[i].id);
		CHECK_INT(perfev_tracing_data_format(td, order[i].id, &g), 0);
		CHECK(f == g);
	}
	f = (const void *)&b;
	CHECK_INT(perfev_tracing_data_format(td, 1, &f), -ENOENT);
	CHECK_INT(perfev_tracing_data_format(td, 0, &f), -ENOENT);
	CHECK_INT(perfev_tracing_data_format(td, 372ULL << 32 | 372, &f), -ENOENT);
	CHECK(f == (const void *)&b);
	CHECK_INT(perfev_tracing_data_format(NULL, 372, &f), -EINVAL);
	CHECK_INT(perfev_tracing_data_format(td, 372, NULL), -EINVAL);
	perfev_tracing_data_free(td);

	/* A format that does not parse: -EBADMSG, every time. */
	{
		static const char bad[] = "name: broken\nID: 77\nformat:\n\tnonsense\n";
		struct blob *x = &b;

		CHECK(build(x, false, "0.6", ""));
		x->len = x->events_end;
		put(x, "extra", 6);
		put_uint(x, 1, 4);
		put_uint(x, sizeof(bad) - 1, 8);
		put(x, bad, sizeof(bad) - 1);
		/* The system count is 8 bytes before "raw_syscalls": make it 3. */
		for (i = 0; i + 13 < x->len; i++)
			if (!memcmp(x->p + i, "raw_syscalls", 13))
				break;
		x->p[i - 4] = 3;
		CHECK_INT(parse_copy(x->p, x->len, &td), 0);
		CHECK_INT(perfev_tracing_data_event_count(td), N_TPS + 1);
		CHECK_INT(perfev_tracing_data_format(td, 77, &f), -EBADMSG);
		CHECK_INT(perfev_tracing_data_format(td, 77, &f), -EBADMSG);
		CHECK_INT(perfev_tracing_data_format(td, 374, &f), 0);
		perfev_tracing_data_free(td);
	}
}

/* ---- printing and decoding payloads ---------------------------------------- */

static void put_at(unsigned char *p, size_t off, uint64_t v, size_t n, bool be)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[off + (be ? n - 1 - i : i)] = (unsigned char)(v >> (8 * i));
}

/* A sched_switch record as the fixture's format lays it out (64 bytes). */
static void sched_switch(unsigned char *p, bool be, const char *prev, int prev_pid, long state,
			 const char *next, int next_pid)
{
	memset(p, 0, 68);
	put_at(p, 0, 372, 2, be);
	put_at(p, 4, (uint32_t)prev_pid, 4, be);
	snprintf((char *)p + 8, 16, "%s", prev);
	put_at(p, 24, (uint32_t)prev_pid, 4, be);
	put_at(p, 28, 120, 4, be);
	put_at(p, 32, (uint64_t)state, 8, be);
	snprintf((char *)p + 40, 16, "%s", next);
	put_at(p, 56, (uint32_t)next_pid, 4, be);
	put_at(p, 60, 120, 4, be);
}

/* The format of @id from a blob of the fixture in byte order @be (kept in *@td). */
static const struct perfev_tp_format *blob_format(struct perfev_tracing_data **td, bool be,
						  uint64_t id)
{
	static struct blob b;
	const struct perfev_tp_format *f = NULL;

	*td = NULL;
	if (!build(&b, be, "0.6", "") || parse_copy(b.p, b.len, td) ||
	    perfev_tracing_data_format(*td, id, &f))
		return NULL;
	return f;
}

TEST(tp_print_sched_switch)
{
	static const struct {
		long state;
		const char *shown;
	} states[] = {{1, "S"}, {0, "R"}, {2, "D"}, {0x100, "R+"}, {0x80, "I"}, {0x81, "S|I"}};
	struct perfev_tracing_data *td;
	struct perfev_tracefs *t = open_fixture();
	struct perfev_tp_format *host = NULL;
	const struct perfev_tp_format *f;
	unsigned char raw[68];
	char buf[256], want[256];
	size_t i;
	int n, be;

	CHECK(t);
	CHECK_INT(perfev_tracefs_format(t, "sched", "sched_switch", &host), 0);
	for (be = 0; be <= 1; be++) {
		f = blob_format(&td, be, 372);
		CHECK(f);
		for (i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
			sched_switch(raw, be, "sh", 123, states[i].state, "swapper/1", 0);
			snprintf(want, sizeof(want),
				 "prev_comm=sh prev_pid=123 prev_prio=120 prev_state=%s ==> "
				 "next_comm=swapper/1 next_pid=0 next_prio=120",
				 states[i].shown);
			n = perfev_tp_format_print(f, raw, sizeof(raw), buf, sizeof(buf));
			EXPECT(n == (int)strlen(want) && !strcmp(buf, want),
			       "%s state %#lx: %d '%s'", be ? "big endian" : "little endian",
			       states[i].state, n, n >= 0 ? buf : "");
			/* The host's own format reads the same little-endian record alike. */
			if (!be) {
				n = perfev_tp_format_print(host, raw, 64, buf, sizeof(buf));
				EXPECT(n >= 0 && !strcmp(buf, want), "host format: %d '%s'", n,
				       n >= 0 ? buf : "");
			}
		}
		/* Shorter than the fields: refused, nothing read past the end. */
		for (i = 0; i < 64; i++) {
			unsigned char *copy = malloc(i ? i : 1);

			CHECK(copy);
			memcpy(copy, raw, i);
			n = perfev_tp_format_print(f, copy, i, buf, sizeof(buf));
			EXPECT(n == -EBADMSG, "%zu bytes: %d", i, n);
			free(copy);
		}
		/* A record of another tracepoint. */
		put_at(raw, 0, 374, 2, be);
		CHECK_INT(perfev_tp_format_print(f, raw, sizeof(raw), buf, sizeof(buf)), -EBADMSG);
		perfev_tracing_data_free(td);
	}
	/* snprintf() rules: the whole length, the text cut to fit. */
	sched_switch(raw, false, "a", 1, 1, "b", 2);
	n = perfev_tp_format_print(host, raw, sizeof(raw), NULL, 0);
	CHECK_INT(n, strlen("prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=b "
			    "next_pid=2 next_prio=120"));
	memset(buf, 'x', sizeof(buf));
	CHECK_INT(perfev_tp_format_print(host, raw, sizeof(raw), buf, 10), n);
	CHECK_STR(buf, "prev_comm");
	CHECK_INT(perfev_tp_format_print(host, raw, sizeof(raw), buf, 1), n);
	CHECK_STR(buf, "");
	CHECK_INT(perfev_tp_format_print(NULL, raw, sizeof(raw), buf, 10), -EINVAL);
	CHECK_INT(perfev_tp_format_print(host, NULL, 8, buf, 10), -EINVAL);
	CHECK_INT(perfev_tp_format_print(host, raw, sizeof(raw), NULL, 10), -EINVAL);
	perfev_tp_format_free(host);
	perfev_tracefs_free(t);
}

/* A sched_process_exec record: header, loc, pid, old_pid, then @len bytes of @file. */
static size_t process_exec(unsigned char *p, uint32_t loc, const char *file, size_t len)
{
	memset(p, 0, 64);
	put_at(p, 0, 365, 2, false);
	put_at(p, 8, loc, 4, false);
	put_at(p, 12, 42, 4, false);
	put_at(p, 16, 41, 4, false);
	memcpy(p + 20, file, len);
	return 20 + len;
}

TEST(tp_print_data_loc)
{
	struct perfev_tracing_data *td;
	const struct perfev_tp_format *f = blob_format(&td, false, 365);
	unsigned char raw[64], *copy;
	char buf[256];
	size_t n;

	CHECK(f);
	n = process_exec(raw, 8u << 16 | 20, "/bin/sh", 8);
	CHECK_INT(perfev_tp_format_print(f, raw, n, buf, sizeof(buf)),
		  strlen("filename=/bin/sh pid=42 old_pid=41"));
	CHECK_STR(buf, "filename=/bin/sh pid=42 old_pid=41");
	/* A string the record ends without its NUL: printed up to the end, no further. */
	n = process_exec(raw, 3u << 16 | 20, "abc", 3);
	copy = malloc(n);
	CHECK(copy);
	memcpy(copy, raw, n);
	CHECK(perfev_tp_format_print(f, copy, n, buf, sizeof(buf)) > 0);
	CHECK_STR(buf, "filename=abc pid=42 old_pid=41");
	free(copy);
	/* Offset or length past the record, or a 16-bit offset wrapping: refused. */
	n = process_exec(raw, 8u << 16 | 21, "/bin/sh", 8);
	CHECK_INT(perfev_tp_format_print(f, raw, n, buf, sizeof(buf)), -EBADMSG);
	n = process_exec(raw, 9u << 16 | 20, "/bin/sh", 8);
	CHECK_INT(perfev_tp_format_print(f, raw, n, buf, sizeof(buf)), -EBADMSG);
	n = process_exec(raw, 0xffffu << 16 | 0xffff, "/bin/sh", 8);
	CHECK_INT(perfev_tp_format_print(f, raw, n, buf, sizeof(buf)), -EBADMSG);
	perfev_tracing_data_free(td);
}

TEST(tp_print_sys_enter)
{
	struct perfev_tracing_data *td;
	const struct perfev_tp_format *f = blob_format(&td, false, 443);
	unsigned char raw[64];
	char buf[256];
	int i;

	CHECK(f);
	memset(raw, 0, sizeof(raw));
	put_at(raw, 0, 443, 2, false);
	put_at(raw, 8, 257, 8, false);
	for (i = 0; i < 6; i++)
		put_at(raw, 16 + 8 * (size_t)i, 10u * (unsigned int)(i + 1), 8, false);
	put_at(raw, 56, 0xffffff9c, 8, false);
	CHECK(perfev_tp_format_print(f, raw, sizeof(raw), buf, sizeof(buf)) > 0);
	CHECK_STR(buf, "NR 257 (a, 14, 1e, 28, 32, ffffff9c)");
	perfev_tracing_data_free(td);
}

/*
 * A made-up tracepoint whose print fmt computes reads from its data:
 * u32 len at 8, u32 idx at 12, u8 buf[8] at 16, a dynamic u8 array at 24
 * (4 bytes at 28 in the records below).
 */
static struct perfev_tp_format *synth(const char *print_fmt)
{
	static const char head[] =
	    "name: synth\nID: 9\nformat:\n"
	    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	    "\tfield:u32 len;\toffset:8;\tsize:4;\tsigned:0;\n"
	    "\tfield:u32 idx;\toffset:12;\tsize:4;\tsigned:0;\n"
	    "\tfield:u8 buf[8];\toffset:16;\tsize:8;\tsigned:0;\n"
	    "\tfield:__data_loc u8[] dyn;\toffset:24;\tsize:4;\tsigned:0;\n\n"
	    "print fmt: ";
	struct perfev_tp_format *f = NULL;
	char text[2048];

	snprintf(text, sizeof(text), "%s%s\n", head, print_fmt);
	if (perfev_tp_format_parse("synth", text, strlen(text), &f))
		return NULL;
	return f;
}

static void synth_record(unsigned char *p, uint32_t len, uint32_t idx, uint32_t loc)
{
	size_t i;

	memset(p, 0, 32);
	put_at(p, 0, 9, 2, false);
	put_at(p, 8, len, 4, false);
	put_at(p, 12, idx, 4, false);
	for (i = 0; i < 8; i++)
		p[16 + i] = (unsigned char)i;
	put_at(p, 24, loc, 4, false);
	p[28] = 0x0a;
	p[29] = 0x0b;
	p[30] = 0x0c;
	p[31] = 0x0d;
}

TEST(tp_print_checks)
{
	static const uint32_t DYN = 4u << 16 | 28;
	static const struct {
		const char *fmt;
		uint32_t len, idx, loc;
		int err;	  /* 0: printed */
		const char *want; /* when printed: the text, or its start with a '*' after */
	} cases[] = {
	    {"\"%s\", __print_hex(REC->buf, REC->len)", 8, 0, DYN, 0, "00 01 02 03 04 05 06 07"},
	    {"\"%s\", __print_hex(REC->buf, REC->len)", 16, 0, DYN, 0, NULL},
	    {"\"%s\", __print_hex(REC->buf, REC->len)", 17, 0, DYN, -EBADMSG, NULL},
	    {"\"%s\", __print_hex(REC->buf, REC->len)", 0xffffffff, 0, DYN, -EBADMSG, NULL},
	    {"\"%s\", __print_hex(REC->buf, (u8)REC->len)", 0x108, 0, DYN, 0,
	     "00 01 02 03 04 05 06 07"},
	    {"\"%s\", __print_hex(REC->buf, (unsigned char)REC->len)", 0x111, 0, DYN, -EBADMSG,
	     NULL},
	    {"\"%s\", __print_hex(__get_dynamic_array(dyn), __get_dynamic_array_len(dyn))", 0, 0,
	     DYN, 0, "0a 0b 0c 0d"},
	    {"\"%s\", __print_hex(__get_dynamic_array(dyn), 4)", 0, 0, 5u << 16 | 28, -EBADMSG,
	     NULL},
	    {"\"%s\", __print_hex(__get_dynamic_array(dyn), 5)", 0, 0, DYN, -EBADMSG, NULL},
	    {"\"%s\", __print_array(REC->buf, REC->len, 2)", 4, 0, DYN, 0, "256 770 1284 1798"},
	    {"\"%s\", __print_array(REC->buf, REC->len, 2)", 9, 0, DYN, -EBADMSG, NULL},
	    {"\"%u\", REC->len / REC->idx", 8, 2, DYN, 0, "4"},
	    {"\"%u\", REC->len / REC->idx", 8, 0, DYN, -EBADMSG, NULL},
	    {"\"%u\", REC->len % REC->idx", 8, 0, DYN, -EBADMSG, NULL},
	    {"\"%u\", REC->idx ? REC->len / REC->idx : 7", 8, 0, DYN, 0, "7"},
	    {"\"%u\", REC->buf[REC->idx]", 0, 3, DYN, 0, "3"},
	    {"\"%u\", REC->buf[REC->idx]", 0, 100, DYN, 0, "0"},
	    {"\"%u\", REC->buf[REC->idx]", 0, 0x80000000, DYN, -EBADMSG, NULL},
	    {"\"%*u|\", REC->len, REC->idx", 5, 2, DYN, 0, "    2|"},
	    {"\"%*u|\", REC->len, REC->idx", 5000, 2, DYN, -EBADMSG, NULL},
	    {"\"%99999u\", REC->len", 1, 0, DYN, -EOPNOTSUPP, NULL},
	    {"\"%u %s\", REC->len, __get_str(dyn)", 7, 0, DYN, 0, "7 \n\v\f\r"},
	    /* Names libtraceevent would dereference as NULL: the fields are printed instead. */
	    {"\"%u\", REC->nope", 1, 0, DYN, 0, "[FAILED TO PARSE]*"},
	    {"\"%s\", __get_cpumask(nope)", 1, 0, DYN, 0, "[FAILED TO PARSE]*"},
	    {"\"%s\", __print_flags(REC->nope, \"|\", {1, \"A\"})", 1, 0, DYN, 0,
	     "[FAILED TO PARSE]*"},
	    /* ... and a dynamic array outside the record is refused there too. */
	    {"\"%u\", REC->nope", 1, 0, 8u << 16 | 28, -EBADMSG, NULL},
	    /* Syntax libtraceevent mishandles (it dereferences NULL): not parsed either. */
	    {"\"%u\", REC->len ? 1 : REC->buf[0]", 1, 0, DYN, 0, "[FAILED TO PARSE]*"},
	    {"\"%u\", REC->len ? foo:16;", 1, 0, DYN, 0, "[FAILED TO PARSE]*"},
	    {"\"%u\", REC->len ? 1 : 02 REC->idx", 1, 0, DYN, 0, "[FAILED TO PARSE]*"},
	    {"\"%u\", REC->buf[1][2]", 1, 0, DYN, 0, "[FAILED TO PARSE]*"},
	    {"\"%u\", (REC->len)[1]", 1, 0, DYN, 0, "[FAILED TO PARSE]*"},
	    {"\"%u\", REC->len = 1", 1, 0, DYN, 0, "[FAILED TO PARSE]*"},
	    {"\"%u\", ({ int x = 1; x; })", 1, 0, DYN, 0, "[FAILED TO PARSE]*"},
	    /* ... while what the kernel writes is. */
	    {"\"%u\", REC->len ? 1 : REC->idx == 2 ? 3 : 4", 0, 2, DYN, 0, "3"},
	    {"\"%u %u\", (REC)->len, (u8)(REC->idx + 0x100)", 5, 2, DYN, 0, "5 2"},
	    {"\"%s\", __print_symbolic(REC->len, { 1, \"ONE\" }, { 2, \"T\" \"WO\" })", 2, 0, DYN,
	     0, "TWO"},
	};
	unsigned char raw[32];
	char buf[256];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct perfev_tp_format *f = synth(cases[i].fmt);
		const char *want = cases[i].want;
		int n;

		if (!f) {
			harness_fail(__FILE__, __LINE__, "'%s' does not parse", cases[i].fmt);
			continue;
		}
		synth_record(raw, cases[i].len, cases[i].idx, cases[i].loc);
		n = perfev_tp_format_print(f, raw, sizeof(raw), buf, sizeof(buf));
		if (cases[i].err) {
			EXPECT(n == cases[i].err, "'%s' len %u idx %u: %d, expected %d",
			       cases[i].fmt, cases[i].len, cases[i].idx, n, cases[i].err);
		} else if (n < 0) {
			harness_fail(__FILE__, __LINE__, "'%s' len %u idx %u: %d", cases[i].fmt,
				     cases[i].len, cases[i].idx, n);
		} else if (want && want[strlen(want) - 1] == '*') {
			EXPECT(!strncmp(buf, want, strlen(want) - 1), "'%s': '%s'", cases[i].fmt,
			       buf);
		} else if (want) {
			EXPECT(!strcmp(buf, want), "'%s': '%s', expected '%s'", cases[i].fmt, buf,
			       want);
		}
		perfev_tp_format_free(f);
	}
}

TEST(tp_print_nesting)
{
	char fmt[600];
	struct perfev_tp_format *f;
	unsigned char raw[32];
	char buf[256];
	int i, n = 0;

	/* Brackets nested deeper than any kernel format: not handed to libtraceevent. */
	n += snprintf(fmt + n, sizeof(fmt) - (size_t)n, "\"%%u\", ");
	for (i = 0; i < 200; i++)
		fmt[n++] = '(';
	n += snprintf(fmt + n, sizeof(fmt) - (size_t)n, "REC->len");
	for (i = 0; i < 200; i++)
		fmt[n++] = ')';
	fmt[n] = '\0';
	f = synth(fmt);
	CHECK(f);
	synth_record(raw, 1, 0, 4u << 16 | 28);
	CHECK(perfev_tp_format_print(f, raw, sizeof(raw), buf, sizeof(buf)) > 0);
	CHECK(!strncmp(buf, "[FAILED TO PARSE]", 17));
	perfev_tp_format_free(f);
}

TEST(tp_print_printk)
{
	static const char text[] =
	    "name: ptrs\nID: 5\nformat:\n"
	    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	    "\tfield:const char * s;\toffset:8;\tsize:8;\tsigned:0;\n\n"
	    "print fmt: \"%s\", REC->s\n";
	/* Lines too short to be entries are skipped, not read past. */
	static const char printk[] = "0xffffffff82a3c2d8 : \"rcu_preempt\"\n"
				     ":\n0x10 :\nx\n0x20 : \"\"\n0x30 : \"ab\"";
	struct perfev__tp_env env = {
	    .long_size = 8, .printk = printk, .printk_len = sizeof(printk) - 1};
	struct perfev_tp_format *f = NULL;
	unsigned char raw[16];
	char buf[128];

	CHECK_INT(perfev__tp_format_parse_env("ptrs", text, sizeof(text) - 1, &env, &f), 0);
	memset(raw, 0, sizeof(raw));
	put_at(raw, 0, 5, 2, false);
	put_at(raw, 8, 0xffffffff82a3c2d8ULL, 8, false);
	CHECK(perfev_tp_format_print(f, raw, sizeof(raw), buf, sizeof(buf)) > 0);
	CHECK_STR(buf, "rcu_preempt");
	put_at(raw, 8, 0x1234, 8, false);
	CHECK(perfev_tp_format_print(f, raw, sizeof(raw), buf, sizeof(buf)) > 0);
	CHECK_STR(buf, "1234");
	perfev_tp_format_free(f);
	env.long_size = 3;
	CHECK_INT(perfev__tp_format_parse_env("ptrs", text, sizeof(text) - 1, &env, &f), -EINVAL);
}

TEST(tp_values)
{
	struct perfev_tracing_data *td;
	const struct perfev_tp_format *f = blob_format(&td, true, 372);
	struct perfev_tp_value v;
	unsigned char raw[68];
	uint64_t e;
	size_t i, n;

	CHECK(f);
	sched_switch(raw, true, "sh", 123, -1, "swapper/1", 0);
	for (i = 0; i < perfev_tp_format_field_count(f); i++) {
		const char *name = perfev_tp_format_field(f, i)->name;

		CHECK_INT(perfev_tp_format_value(f, i, raw, sizeof(raw), &v), 0);
		CHECK(v.field == perfev_tp_format_field(f, i));
		if (!strcmp(name, "prev_comm")) {
			CHECK_INT(v.type, PERFEV_TP_VALUE_STRING);
			CHECK(v.len == 2 && !memcmp(v.str, "sh", 2));
		} else if (!strcmp(name, "next_comm")) {
			CHECK_INT(v.type, PERFEV_TP_VALUE_STRING);
			CHECK(v.len == 9 && !memcmp(v.str, "swapper/1", 9));
		} else if (!strcmp(name, "prev_pid")) {
			CHECK_INT(v.type, PERFEV_TP_VALUE_INT);
			CHECK_INT(v.i, 123);
		} else if (!strcmp(name, "prev_state")) {
			CHECK_INT(v.type, PERFEV_TP_VALUE_INT);
			CHECK_INT(v.i, -1);
		} else if (!strcmp(name, "common_type")) {
			CHECK_INT(v.type, PERFEV_TP_VALUE_UINT);
			CHECK_U64(v.u, 372);
		}
	}
	CHECK_INT(perfev_tp_format_value(f, i, raw, sizeof(raw), &v), -EINVAL);
	CHECK_INT(perfev_tp_format_value(f, 0, raw, 1, &v), -EBADMSG);
	CHECK_INT(perfev_tp_format_value(f, 0, NULL, 8, &v), -EINVAL);
	perfev_tracing_data_free(td);

	/* An array of numbers, and a dynamic string. */
	f = blob_format(&td, false, 443);
	CHECK(f);
	memset(raw, 0, sizeof(raw));
	put_at(raw, 0, 443, 2, false);
	for (i = 0; i < 6; i++)
		put_at(raw, 16 + 8 * i, 100 + i, 8, false);
	CHECK_INT(perfev_tp_format_value(f, 5, raw, 64, &v), 0);
	CHECK_STR(v.field->name, "args");
	CHECK_INT(v.type, PERFEV_TP_VALUE_ARRAY);
	CHECK_INT(v.len, 6);
	CHECK_INT(v.elem_size, 8);
	for (i = 0; i < 6; i++) {
		CHECK_INT(perfev_tp_value_elem(&v, i, &e), 0);
		CHECK_U64(e, 100 + i);
	}
	CHECK_INT(perfev_tp_value_elem(&v, 6, &e), -EINVAL);
	CHECK_INT(perfev_tp_format_value(f, 4, raw, 64, &v), 0);
	CHECK_INT(perfev_tp_value_elem(&v, 0, &e), -EINVAL);
	perfev_tracing_data_free(td);

	f = blob_format(&td, false, 365);
	CHECK(f);
	n = process_exec(raw, 8u << 16 | 20, "/bin/sh", 8);
	CHECK_INT(perfev_tp_format_value(f, 4, raw, n, &v), 0);
	CHECK_STR(v.field->name, "filename");
	CHECK_INT(v.type, PERFEV_TP_VALUE_STRING);
	CHECK(v.len == 7 && !memcmp(v.str, "/bin/sh", 7));
	n = process_exec(raw, 9u << 16 | 20, "/bin/sh", 8);
	CHECK_INT(perfev_tp_format_value(f, 4, raw, n, &v), -EBADMSG);
	perfev_tracing_data_free(td);
}
