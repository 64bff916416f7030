// SPDX-License-Identifier: LGPL-2.1-or-later
/* Tracepoints from the fixture tests/data/tracefs: listing, ids, formats, malformed formats. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <perfev/perfev.h>
#include "harness.h"
#include "tracefs-fixture.h"

/* Every tracepoint of the fixture, in sorted order, with its id file's value. */
static const struct {
	const char *sys, *name;
	uint64_t id;
} fixture_tps[] = {
    {"ftrace", "function", 1},
    {"raw_syscalls", "sys_enter", 443},
    {"sched", "sched_process_exec", 365},
    {"sched", "sched_switch", 372},
    {"sched", "sched_wakeup", 374},
    {"syscalls", "sys_enter_openat", 782},
};
#define N_TPS (sizeof(fixture_tps) / sizeof(fixture_tps[0]))

TEST(tracefs_open)
{
	struct perfev_tracefs_opts o = {.sz = sizeof(o)};
	struct perfev_tracefs *t = open_fixture();
	char root[4096];

	CHECK(t);
	CHECK_STR(perfev_tracefs_path(t), tfs_path);
	perfev_tracefs_free(t);
	perfev_tracefs_free(NULL);

	/* A sysfs tree without kernel/tracing or kernel/debug/tracing. */
	snprintf(root, sizeof(root), "%s", test_data("sysfs"));
	o.sysfs_root = root;
	t = (struct perfev_tracefs *)&o;
	CHECK_INT(perfev_tracefs_open(&o, &t), -ENOENT);
	CHECK(t == (struct perfev_tracefs *)&o);
	o.sysfs_root = "/nonexistent/perfev-test";
	CHECK_INT(perfev_tracefs_open(&o, &t), -ENOENT);
	/* A path without events/, or that is not a directory. */
	o.sysfs_root = NULL;
	o.path = "/nonexistent/perfev-test";
	CHECK_INT(perfev_tracefs_open(&o, &t), -ENOENT);
	o.path = root;
	CHECK_INT(perfev_tracefs_open(&o, &t), -ENOENT);
	snprintf(root, sizeof(root), "%s", test_data("events.txt"));
	o.path = root;
	CHECK_INT(perfev_tracefs_open(&o, &t), -ENOENT);
	snprintf(root, sizeof(root), "%s", test_data("tracefs/events/sched"));
	CHECK_INT(perfev_tracefs_open(&o, &t), -ENOENT);
}

TEST(tracefs_open_bad_opts)
{
	struct {
		struct perfev_tracefs_opts o;
		long extra;
	} big;
	struct perfev_tracefs_opts o = {.sz = sizeof(o)};
	struct perfev_tracefs *t;

	snprintf(tfs_path, sizeof(tfs_path), "%s", test_data("tracefs"));
	o.path = tfs_path;
	CHECK_INT(perfev_tracefs_open(&o, NULL), -EINVAL);
	o.sz = 2;
	CHECK_INT(perfev_tracefs_open(&o, &t), -EINVAL);
	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	big.o.path = tfs_path;
	big.extra = 1;
	CHECK_INT(perfev_tracefs_open(&big.o, &t), -EINVAL);
	big.extra = 0;
	CHECK_INT(perfev_tracefs_open(&big.o, &t), 0);
	perfev_tracefs_free(t);
}

struct visit {
	char seen[32][128];
	int n;
	int stop_at; /* 1-based; 0: never */
	int ret;
};

static int visit_cb(const char *sys, const char *name, void *ctx)
{
	struct visit *v = ctx;

	if (v->n < 32)
		snprintf(v->seen[v->n], sizeof(v->seen[0]), "%s:%s", sys, name);
	v->n++;
	return v->n == v->stop_at ? v->ret : 0;
}

TEST(tracefs_foreach_all)
{
	struct perfev_tracefs *t = open_fixture();
	struct visit v = {.n = 0};
	size_t i;
	int r;

	CHECK(t);
	r = perfev_tracefs_foreach(t, NULL, NULL, visit_cb, &v);
	CHECK_INT(r, N_TPS);
	CHECK_INT(v.n, N_TPS);
	for (i = 0; i < N_TPS; i++) {
		char want[128];

		snprintf(want, sizeof(want), "%s:%s", fixture_tps[i].sys, fixture_tps[i].name);
		EXPECT(!strcmp(v.seen[i], want), "visit %zu is '%s', expected '%s'", i, v.seen[i],
		       want);
	}
	CHECK_INT(perfev_tracefs_foreach(t, NULL, NULL, NULL, NULL), -EINVAL);
	CHECK_INT(perfev_tracefs_foreach(NULL, NULL, NULL, visit_cb, &v), -EINVAL);
	perfev_tracefs_free(t);
}

TEST(tracefs_foreach_globs)
{
	static const struct {
		const char *sys, *name;
		int n;
		const char *first, *last;
	} cases[] = {
	    {"sched", NULL, 3, "sched:sched_process_exec", "sched:sched_wakeup"},
	    {"sched", "*", 3, "sched:sched_process_exec", "sched:sched_wakeup"},
	    {"sched", "sched_s*", 1, "sched:sched_switch", "sched:sched_switch"},
	    {"sched", "sched_[sw]*", 2, "sched:sched_switch", "sched:sched_wakeup"},
	    {"s*", NULL, 4, "sched:sched_process_exec", "syscalls:sys_enter_openat"},
	    {"*", "sys_enter*", 2, "raw_syscalls:sys_enter", "syscalls:sys_enter_openat"},
	    {NULL, "function", 1, "ftrace:function", "ftrace:function"},
	    {"?trace", NULL, 1, "ftrace:function", "ftrace:function"},
	    {"sched", "nomatch*", 0, NULL, NULL},
	    {"nomatch", NULL, 0, NULL, NULL},
	    {"sched", "sched_switch", 1, "sched:sched_switch", "sched:sched_switch"},
	    /* "enable" is a file in events/ and events/sched/, not a tracepoint. */
	    {"enable", NULL, 0, NULL, NULL},
	    {"sched", "enable", 0, NULL, NULL},
	};
	struct perfev_tracefs *t = open_fixture();
	size_t i;

	CHECK(t);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct visit v = {.n = 0};
		int r = perfev_tracefs_foreach(t, cases[i].sys, cases[i].name, visit_cb, &v);

		EXPECT(r == cases[i].n && v.n == cases[i].n, "'%s:%s': %d (%d calls), expected %d",
		       cases[i].sys ? cases[i].sys : "NULL", cases[i].name ? cases[i].name : "NULL",
		       r, v.n, cases[i].n);
		if (v.n != cases[i].n || !v.n)
			continue;
		EXPECT(!strcmp(v.seen[0], cases[i].first), "'%s:%s': first '%s'", cases[i].sys,
		       cases[i].name, v.seen[0]);
		EXPECT(!strcmp(v.seen[v.n - 1], cases[i].last), "'%s:%s': last '%s'", cases[i].sys,
		       cases[i].name, v.seen[v.n - 1]);
	}
	perfev_tracefs_free(t);
}

TEST(tracefs_foreach_stop)
{
	struct perfev_tracefs *t = open_fixture();
	struct visit v = {.stop_at = 2, .ret = 42};

	CHECK(t);
	CHECK_INT(perfev_tracefs_foreach(t, NULL, NULL, visit_cb, &v), 42);
	CHECK_INT(v.n, 2);
	/* A negative value stops the walk too and is returned as is. */
	memset(&v, 0, sizeof(v));
	v.stop_at = 4;
	v.ret = -ECANCELED;
	CHECK_INT(perfev_tracefs_foreach(t, NULL, NULL, visit_cb, &v), -ECANCELED);
	CHECK_INT(v.n, 4);
	/* Stopping at the last one of a system does not continue with the next system. */
	memset(&v, 0, sizeof(v));
	v.stop_at = 3;
	v.ret = 1;
	CHECK_INT(perfev_tracefs_foreach(t, "s*", NULL, visit_cb, &v), 1);
	CHECK_INT(v.n, 3);
	perfev_tracefs_free(t);
}

/* The id file's integer, read without the library. */
static long long id_file(const char *sys, const char *name)
{
	char rel[512];
	long long v = -1;
	FILE *f;

	snprintf(rel, sizeof(rel), "tracefs/events/%s/%s/id", sys, name);
	f = fopen(test_data(rel), "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

TEST(tracefs_ids)
{
	struct perfev_tracefs *t = open_fixture();
	size_t i;

	CHECK(t);
	for (i = 0; i < N_TPS; i++) {
		uint64_t id = 0;
		int err = perfev_tracefs_id(t, fixture_tps[i].sys, fixture_tps[i].name, &id);

		EXPECT(err == 0, "%s:%s: %d", fixture_tps[i].sys, fixture_tps[i].name, err);
		EXPECT(id == fixture_tps[i].id, "%s:%s: id %" PRIu64 ", expected %" PRIu64,
		       fixture_tps[i].sys, fixture_tps[i].name, id, fixture_tps[i].id);
		EXPECT((long long)id == id_file(fixture_tps[i].sys, fixture_tps[i].name),
		       "%s:%s: id %" PRIu64 " differs from the file", fixture_tps[i].sys,
		       fixture_tps[i].name, id);
	}
	perfev_tracefs_free(t);
}

TEST(tracefs_id_errors)
{
	static const struct {
		const char *sys, *name;
		int err;
	} cases[] = {
	    {"sched", "nope", -ENOENT},
	    {"nope", "sched_switch", -ENOENT},
	    {"sched", "sched_switc", -ENOENT},
	    {"Sched", "sched_switch", -ENOENT},
	    {"..", "sched_switch", -EINVAL},
	    {"sched", "..", -EINVAL},
	    {".", "sched", -EINVAL},
	    {"sched", ".", -EINVAL},
	    {"sched/sched_switch", "id", -EINVAL},
	    {"a/b", "c", -EINVAL},
	    {"sched", "a/b", -EINVAL},
	    {"sched", "../sched/sched_switch", -EINVAL},
	    {"", "sched_switch", -EINVAL},
	    {"sched", "", -EINVAL},
	    {NULL, "sched_switch", -EINVAL},
	    {"sched", NULL, -EINVAL},
	    /* Files where a tracepoint directory would be: no such tracepoint. */
	    {"sched", "enable", -ENOENT},
	    {"enable", "x", -ENOENT},
	};
	struct perfev_tracefs *t = open_fixture();
	size_t i;

	CHECK(t);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t id = 0xdead;
		int err = perfev_tracefs_id(t, cases[i].sys, cases[i].name, &id);

		EXPECT(err == cases[i].err, "id('%s', '%s'): %d (%s), expected %d",
		       cases[i].sys ? cases[i].sys : "NULL", cases[i].name ? cases[i].name : "NULL",
		       err, err < 0 ? strerrorname_np(-err) : "ok", cases[i].err);
		EXPECT(id == 0xdead, "id('%s', '%s') changed *id on error", cases[i].sys,
		       cases[i].name);
	}
	CHECK_INT(perfev_tracefs_id(t, "sched", "sched_switch", NULL), -EINVAL);
	CHECK_INT(perfev_tracefs_id(NULL, "sched", "sched_switch", &(uint64_t){0}), -EINVAL);
	perfev_tracefs_free(t);
}

static const struct perfev_tp_field *find_field(const struct perfev_tp_format *f, const char *name)
{
	size_t i;

	for (i = 0; i < perfev_tp_format_field_count(f); i++)
		if (!strcmp(perfev_tp_format_field(f, i)->name, name))
			return perfev_tp_format_field(f, i);
	return NULL;
}

TEST(tracefs_format_sched_switch)
{
	static const struct {
		const char *name;
		unsigned int offset, size;
		bool is_signed, is_common;
		unsigned int arraylen;
	} want[] = {
	    {"common_type", 0, 2, false, true, 0},	    {"common_flags", 2, 1, false, true, 0},
	    {"common_preempt_count", 3, 1, false, true, 0}, {"common_pid", 4, 4, true, true, 0},
	    {"prev_comm", 8, 16, false, false, 16},	    {"prev_pid", 24, 4, true, false, 0},
	    {"prev_prio", 28, 4, true, false, 0},	    {"prev_state", 32, 8, true, false, 0},
	    {"next_comm", 40, 16, false, false, 16},	    {"next_pid", 56, 4, true, false, 0},
	    {"next_prio", 60, 4, true, false, 0},
	};
	struct perfev_tracefs *t = open_fixture();
	struct perfev_tp_format *f = NULL;
	const struct perfev_tp_field *fl;
	size_t i;

	CHECK(t);
	CHECK_INT(perfev_tracefs_format(t, "sched", "sched_switch", &f), 0);
	CHECK_STR(perfev_tp_format_name(f), "sched_switch");
	CHECK_STR(perfev_tp_format_system(f), "sched");
	CHECK_U64(perfev_tp_format_id(f), 372);
	CHECK(perfev_tp_format_print_fmt(f) != NULL);
	CHECK_CONTAINS(perfev_tp_format_print_fmt(f), "prev_comm=%s");
	CHECK_INT(perfev_tp_format_field_count(f), sizeof(want) / sizeof(want[0]));
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		fl = perfev_tp_format_field(f, i);
		CHECK(fl);
		EXPECT(!strcmp(fl->name, want[i].name), "field %zu is '%s', expected '%s'", i,
		       fl->name, want[i].name);
		EXPECT(fl->offset == want[i].offset, "%s: offset %u", want[i].name, fl->offset);
		EXPECT(fl->size == want[i].size, "%s: size %u", want[i].name, fl->size);
		EXPECT(fl->is_signed == want[i].is_signed, "%s: is_signed %d", want[i].name,
		       fl->is_signed);
		EXPECT(fl->is_common == want[i].is_common, "%s: is_common %d", want[i].name,
		       fl->is_common);
		EXPECT(fl->arraylen == want[i].arraylen, "%s: arraylen %u", want[i].name,
		       fl->arraylen);
		EXPECT(!fl->is_dynamic, "%s: is_dynamic", want[i].name);
		EXPECT(fl->type != NULL, "%s: no type", want[i].name);
	}
	CHECK(perfev_tp_format_field(f, sizeof(want) / sizeof(want[0])) == NULL);
	fl = find_field(f, "prev_comm");
	CHECK(fl);
	CHECK(!strncmp(fl->type, "char", 4));
	fl = find_field(f, "prev_pid");
	CHECK(fl);
	CHECK_STR(fl->type, "pid_t");
	fl = find_field(f, "common_type");
	CHECK(fl);
	CHECK_STR(fl->type, "unsigned short");
	perfev_tp_format_free(f);
	perfev_tp_format_free(NULL);
	perfev_tracefs_free(t);
}

/*
 * Reference parser for the "field:" lines of a format file, to compare the
 * library's (libtraceevent's) view of every fixture tracepoint.
 */
struct ref_field {
	char name[256];
	unsigned int offset, size, arraylen;
	bool is_signed, is_common, is_dynamic;
};

static int ref_parse(const char *text, struct ref_field *out, int max)
{
	const char *line = text;
	int n = 0;

	while (line && *line) {
		const char *f = strstr(line, "field:");
		const char *eol = strchr(line, '\n');
		char decl[256];
		unsigned int off, size, sgn;
		char *semi, *name, *br;

		if (f && (!eol || f < eol) && n < max &&
		    sscanf(f, "field:%255[^;];\toffset:%u;\tsize:%u;\tsigned:%u;", decl, &off,
			   &size, &sgn) == 4) {
			struct ref_field *r = &out[n++];

			memset(r, 0, sizeof(*r));
			semi = decl + strlen(decl);
			while (semi > decl && semi[-1] == ' ')
				*--semi = '\0';
			r->is_dynamic = strstr(decl, "__data_loc") != NULL;
			br = strchr(decl, '[');
			name = strrchr(decl, ' ');
			name = name ? name + 1 : decl;
			if (br && br > name) {
				r->arraylen = (unsigned int)strtoul(br + 1, NULL, 10);
				*br = '\0';
			}
			if (r->is_dynamic)
				r->arraylen = 0;
			snprintf(r->name, sizeof(r->name), "%s", name);
			r->offset = off;
			r->size = size;
			r->is_signed = sgn;
			r->is_common = !strncmp(r->name, "common_", 7);
		}
		line = eol ? eol + 1 : NULL;
	}
	return n;
}

static char *slurp(const char *path, size_t *len)
{
	char *buf = malloc(1 << 16);
	ssize_t n;
	int fd;

	if (!buf)
		return NULL;
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		free(buf);
		return NULL;
	}
	n = read(fd, buf, (1 << 16) - 1);
	close(fd);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

static void compare_format(const char *sys, const char *name, const char *text, size_t len,
			   uint64_t want_id)
{
	struct ref_field ref[64];
	struct perfev_tp_format *f = NULL;
	int nref = ref_parse(text, ref, 64), err, i;

	err = perfev_tp_format_parse(sys, text, len, &f);
	if (err) {
		harness_fail(__FILE__, __LINE__, "%s:%s: parse failed: %d", sys, name, err);
		return;
	}
	EXPECT(!strcmp(perfev_tp_format_name(f), name), "%s:%s: name '%s'", sys, name,
	       perfev_tp_format_name(f));
	EXPECT(!strcmp(perfev_tp_format_system(f), sys), "%s:%s: system '%s'", sys, name,
	       perfev_tp_format_system(f));
	EXPECT(perfev_tp_format_id(f) == want_id, "%s:%s: id %" PRIu64 ", expected %" PRIu64, sys,
	       name, perfev_tp_format_id(f), want_id);
	EXPECT(perfev_tp_format_print_fmt(f) != NULL, "%s:%s: no print fmt", sys, name);
	EXPECT(perfev_tp_format_field_count(f) == (size_t)nref, "%s:%s: %zu fields, expected %d",
	       sys, name, perfev_tp_format_field_count(f), nref);
	for (i = 0; i < nref && (size_t)i < perfev_tp_format_field_count(f); i++) {
		const struct perfev_tp_field *fl = perfev_tp_format_field(f, (size_t)i);

		EXPECT(!strcmp(fl->name, ref[i].name), "%s:%s: field %d '%s', expected '%s'", sys,
		       name, i, fl->name, ref[i].name);
		EXPECT(fl->offset == ref[i].offset && fl->size == ref[i].size,
		       "%s:%s:%s: offset/size %u/%u, expected %u/%u", sys, name, ref[i].name,
		       fl->offset, fl->size, ref[i].offset, ref[i].size);
		EXPECT(fl->is_signed == ref[i].is_signed, "%s:%s:%s: is_signed %d", sys, name,
		       ref[i].name, fl->is_signed);
		EXPECT(fl->is_common == ref[i].is_common, "%s:%s:%s: is_common %d", sys, name,
		       ref[i].name, fl->is_common);
		EXPECT(fl->is_dynamic == ref[i].is_dynamic, "%s:%s:%s: is_dynamic %d", sys, name,
		       ref[i].name, fl->is_dynamic);
		EXPECT(fl->arraylen == ref[i].arraylen, "%s:%s:%s: arraylen %u, expected %u", sys,
		       name, ref[i].name, fl->arraylen, ref[i].arraylen);
	}
	perfev_tp_format_free(f);
}

TEST(tracefs_format_all_fixtures)
{
	struct perfev_tracefs *t = open_fixture();
	size_t i;

	CHECK(t);
	for (i = 0; i < N_TPS; i++) {
		char rel[512];
		size_t len;
		char *text;
		struct perfev_tp_format *f = NULL;

		snprintf(rel, sizeof(rel), "tracefs/events/%s/%s/format", fixture_tps[i].sys,
			 fixture_tps[i].name);
		text = slurp(test_data(rel), &len);
		CHECK(text);
		compare_format(fixture_tps[i].sys, fixture_tps[i].name, text, len,
			       fixture_tps[i].id);
		free(text);
		/* Through tracefs it is the same. */
		EXPECT(perfev_tracefs_format(t, fixture_tps[i].sys, fixture_tps[i].name, &f) == 0,
		       "%s:%s", fixture_tps[i].sys, fixture_tps[i].name);
		if (f)
			EXPECT(perfev_tp_format_id(f) == fixture_tps[i].id, "%s:%s id",
			       fixture_tps[i].sys, fixture_tps[i].name);
		perfev_tp_format_free(f);
	}
	perfev_tracefs_free(t);
}

TEST(tracefs_format_dynamic_and_arrays)
{
	struct perfev_tracefs *t = open_fixture();
	struct perfev_tp_format *f = NULL;
	const struct perfev_tp_field *fl;

	CHECK(t);
	CHECK_INT(perfev_tracefs_format(t, "sched", "sched_process_exec", &f), 0);
	fl = find_field(f, "filename");
	CHECK(fl);
	CHECK(fl->is_dynamic);
	CHECK_INT(fl->arraylen, 0);
	CHECK_INT(fl->offset, 8);
	CHECK_INT(fl->size, 4);
	perfev_tp_format_free(f);
	f = NULL;
	CHECK_INT(perfev_tracefs_format(t, "raw_syscalls", "sys_enter", &f), 0);
	fl = find_field(f, "args");
	CHECK(fl);
	CHECK_INT(fl->arraylen, 6);
	CHECK_INT(fl->size, 48);
	CHECK(!fl->is_dynamic);
	fl = find_field(f, "id");
	CHECK(fl);
	CHECK(fl->is_signed);
	perfev_tp_format_free(f);
	perfev_tracefs_free(t);
}

TEST(tracefs_format_errors)
{
	struct perfev_tracefs *t = open_fixture();
	struct perfev_tp_format *f = (struct perfev_tp_format *)&t;

	CHECK(t);
	CHECK_INT(perfev_tracefs_format(t, "sched", "nope", &f), -ENOENT);
	CHECK_INT(perfev_tracefs_format(t, "nope", "nope", &f), -ENOENT);
	CHECK_INT(perfev_tracefs_format(t, "..", "sched_switch", &f), -EINVAL);
	CHECK_INT(perfev_tracefs_format(t, "sched", "a/b", &f), -EINVAL);
	CHECK_INT(perfev_tracefs_format(t, "sched", "", &f), -EINVAL);
	CHECK_INT(perfev_tracefs_format(t, "sched", "sched_switch", NULL), -EINVAL);
	CHECK(f == (struct perfev_tp_format *)&t);
	/* tracefs.h lists -ENOENT for a missing tracepoint; "enable" is a file. */
	CHECK_INT(perfev_tracefs_format(t, "sched", "enable", &f), -ENOENT);
	perfev_tracefs_free(t);
}

/* ---- malformed format text ------------------------------------------- */

/* @s (at most @n bytes) with control and non-ASCII bytes escaped, for messages. */
static const char *esc(const char *s, size_t n)
{
	static char buf[4][160];
	static int which;
	char *b = buf[which++ & 3];
	size_t i, pos = 0;

	for (i = 0; i < n && s[i] && pos + 5 < sizeof(buf[0]); i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\n')
			pos += (size_t)snprintf(b + pos, sizeof(buf[0]) - pos, "\\n");
		else if (c == '\t')
			pos += (size_t)snprintf(b + pos, sizeof(buf[0]) - pos, "\\t");
		else if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
			pos += (size_t)snprintf(b + pos, sizeof(buf[0]) - pos, "\\x%02x", c);
		else
			b[pos++] = (char)c;
	}
	b[pos] = '\0';
	return b;
}

/*
 * Malformed format text: each must give -EBADMSG.  The comment says what
 * is wrong; the ones libtraceevent reports only through the event's
 * TEP_EVENT_FL_FAILED flag are marked (FL_FAILED).
 */
static const char *const malformed[] = {
    /* Empty, or no "name:" line: libtraceevent says out of memory. */
    "",
    "\n",
    "garbage",
    "name:",
    "ID: 5\nformat:\n",
    "\x01\x02\x03\xff\xfe",
    "name: \xff\nID: 1\nformat:\n",
    "print fmt: \"x\"\n",
    /* A name, then nothing usable (FL_FAILED). */
    "name: x",
    "name: x\nID: abc\n",
    /* Truncated or empty field declarations (FL_FAILED). */
    "name: x\nID: 1\nformat:\n\tfield:int a;\toffset:",
    "name: x\nID: 1\nformat:\n\tfield:int a;\toffset:0;\tsize:",
    "name: x\nID: 1\nformat:\n\tfield:\toffset:0;\tsize:4;\tsigned:1;\n",
    "name: x\nID: 1\nformat:\n\tfield:int a[2",
    /* libtraceevent 1.7 dereferences NULL on these: "field:TYPE NAME[" at the end. */
    "name: x\nID: 1\nformat:\n\tfield:char a[",
    "name: x\nID: 1\nformat:\n\tfield:int a[",
};

/* A kernel-like format whose print fmt is broken in various ways: may parse or fail. */
static const char *const odd_print_fmt[] = {
    "print fmt: \"%d",
    "print fmt: \"%d\", REC->",
    "print fmt: \"%d\", (((",
    "print fmt: \"%d\", __print_flags(REC->a, \"|\", {",
    "print fmt: ",
    "",
    /* Well-formed, but the flags refer to a field the format lacks. */
    "print fmt: \"%s\", 1 ? __print_flags(REC->nosuch, \"|\", {1, \"A\"}) : \"none\"\n",
    "print fmt: \"%s\", __print_flags(REC->nosuch, \"|\", {1, \"A\"})\n",
    "print fmt: \"%s\", REC->nosuch\n",
};

/*
 * Parse in a child process so a crash inside the parser is reported as a
 * failure of this case instead of killing the whole test binary.  Returns
 * false if the child died; *err is the parser's return otherwise.
 */
static bool parse_in_child(const char *sys, const char *text, size_t len, int *err, size_t *nfields)
{
	int pfd[2], status = 0, res[2] = {1, 0};
	pid_t pid;

	fflush(stdout);
	if (pipe(pfd))
		return false;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return false;
	}
	if (pid == 0) {
		/* An exact-size heap copy: ASan sees any read past @len. */
		char *buf = malloc(len ? len : 1);
		struct perfev_tp_format *f = NULL;

		close(pfd[0]);
		if (!buf)
			_exit(2);
		memcpy(buf, text, len);
		res[0] = perfev_tp_format_parse(sys, buf, len, &f);
		if (!res[0]) {
			size_t i;

			/* Touch everything the caller may touch. */
			res[1] = (int)perfev_tp_format_field_count(f);
			for (i = 0; i < perfev_tp_format_field_count(f); i++) {
				const struct perfev_tp_field *fl = perfev_tp_format_field(f, i);

				if (!fl || !fl->name || strlen(fl->name) > 4096)
					_exit(3);
			}
			if (!perfev_tp_format_name(f) || !perfev_tp_format_system(f))
				_exit(4);
			perfev_tp_format_free(f);
		}
		free(buf);
		if (write(pfd[1], res, sizeof(res)) != sizeof(res))
			_exit(5);
		_exit(0);
	}
	close(pfd[1]);
	if (read(pfd[0], res, sizeof(res)) != sizeof(res))
		res[0] = 1;
	close(pfd[0]);
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) || res[0] > 0)
		return false;
	*err = res[0];
	if (nfields)
		*nfields = (size_t)res[1];
	return true;
}

static const char *child_death(void)
{
	return "the parser crashed (child process died; see stderr)";
}

TEST(tp_format_parse_malformed)
{
	size_t i;

	for (i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
		int err = 0;

		if (!parse_in_child("sys", malformed[i], strlen(malformed[i]), &err, NULL)) {
			harness_fail(__FILE__, __LINE__, "malformed[%zu] \"%s\": %s", i,
				     esc(malformed[i], 60), child_death());
			continue;
		}
		EXPECT(err == -EBADMSG, "malformed[%zu] \"%s\": %d (%s), expected -EBADMSG", i,
		       esc(malformed[i], 60), err, err < 0 ? strerrorname_np(-err) : "parsed");
	}
}

TEST(tp_format_parse_odd_print_fmt)
{
	size_t i;

	for (i = 0; i < sizeof(odd_print_fmt) / sizeof(odd_print_fmt[0]); i++) {
		char text[1024];
		int err = 0, n;

		n = snprintf(
		    text, sizeof(text),
		    "name: x\nID: 7\nformat:\n"
		    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\n"
		    "\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n\n%s",
		    odd_print_fmt[i]);
		CHECK(n > 0 && (size_t)n < sizeof(text));
		if (!parse_in_child("sys", text, (size_t)n, &err, NULL)) {
			harness_fail(__FILE__, __LINE__, "print fmt \"%s\": %s",
				     esc(odd_print_fmt[i], 60), child_death());
			continue;
		}
		EXPECT(err == 0 || err == -EBADMSG, "print fmt \"%s\": %d", odd_print_fmt[i], err);
	}
}

static const char sched_switch_head[] =
    "name: sched_switch\nID: 372\nformat:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
    "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n\n"
    "print fmt: \"prev_comm=%s\", REC->prev_comm\n";

TEST(tp_format_parse_truncated)
{
	size_t len = strlen(sched_switch_head), cut, nfields = 0;
	size_t fields_end = (size_t)(strstr(sched_switch_head, "\n\nprint") - sched_switch_head);
	int err = 0, crashes = 0, wrong_err = 0, accepted = 0;
	size_t first_crash = 0, first_wrong = 0, first_accepted = 0;
	int wrong_code = 0;

	/* The whole text parses. */
	CHECK(parse_in_child("sched", sched_switch_head, len, &err, &nfields));
	CHECK_INT(err, 0);
	CHECK_INT(nfields, 3);
	/*
	 * Every prefix: one that stops before the end of the field list is
	 * malformed (-EBADMSG); none may crash.  One summary line per kind of
	 * failure, naming the first prefix that shows it.
	 */
	for (cut = 0; cut < len; cut++) {
		if (!parse_in_child("sched", sched_switch_head, cut, &err, &nfields)) {
			if (!crashes++)
				first_crash = cut;
			continue;
		}
		if (err && err != -EBADMSG) {
			if (!wrong_err++) {
				first_wrong = cut;
				wrong_code = err;
			}
		} else if (!err && cut < fields_end) {
			if (!accepted++)
				first_accepted = cut;
		}
	}
	EXPECT(crashes == 0, "%d prefixes crash the parser, the first %zu bytes long: \"...%s\"",
	       crashes, first_crash,
	       esc(sched_switch_head + first_crash - (first_crash < 24 ? first_crash : 24),
		   first_crash < 24 ? first_crash : 24));
	EXPECT(wrong_err == 0, "%d prefixes fail with %s instead of -EBADMSG, the first %zu bytes",
	       wrong_err, wrong_code < 0 ? strerrorname_np(-wrong_code) : "?", first_wrong);
	EXPECT(accepted == 0,
	       "%d prefixes that end inside the field list parse, the first %zu bytes (\"%s\")",
	       accepted, first_accepted, esc(sched_switch_head, first_accepted));
}

TEST(tp_format_parse_args)
{
	struct perfev_tp_format *f = NULL;

	CHECK_INT(perfev_tp_format_parse(NULL, "x", 1, &f), -EINVAL);
	CHECK_INT(perfev_tp_format_parse("sys", NULL, 1, &f), -EINVAL);
	CHECK_INT(perfev_tp_format_parse("sys", sched_switch_head, strlen(sched_switch_head), NULL),
		  -EINVAL);
	/* The system name is the caller's, whatever the text says. */
	CHECK_INT(
	    perfev_tp_format_parse("othersys", sched_switch_head, strlen(sched_switch_head), &f),
	    0);
	CHECK_STR(perfev_tp_format_system(f), "othersys");
	CHECK_STR(perfev_tp_format_name(f), "sched_switch");
	perfev_tp_format_free(f);
}

/*
 * The library never prints: parsing malformed formats must not write to
 * stderr (libtraceevent has its own warning output).  Each parse runs in a
 * child with stderr sent to a file; what a crashing child wrote (the
 * sanitizer's report) is not counted here, tp_format_parse_malformed
 * reports the crash.
 */
TEST(tp_format_parse_silent)
{
	char tmpl[] = "/tmp/perfev-test-stderr-XXXXXX";
	int fd = mkstemp(tmpl), saved, bytes = 0;
	char first[200] = "";
	size_t i;

	CHECK(fd >= 0);
	unlink(tmpl);
	fflush(stderr);
	saved = dup(2);
	CHECK(saved >= 0);
	for (i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
		off_t before = lseek(fd, 0, SEEK_END), after;
		int err;

		dup2(fd, 2);
		if (!parse_in_child("sys", malformed[i], strlen(malformed[i]), &err, NULL)) {
			dup2(saved, 2);
			continue;
		}
		dup2(saved, 2);
		after = lseek(fd, 0, SEEK_END);
		if (after > before) {
			if (!bytes && pread(fd, first, sizeof(first) - 1, before) < 0)
				first[0] = '\0';
			bytes += (int)(after - before);
		}
	}
	close(saved);
	close(fd);
	first[strcspn(first, "\n")] = '\0';
	EXPECT(bytes == 0, "%d bytes written to stderr, first line: \"%s\"", bytes, first);
}

/* ---- the parser on top of tracefs ------------------------------------ */

TEST(tracefs_through_parser)
{
	struct perfev_tracefs *t = open_fixture();
	struct perfev_parse_opts po = {.sz = sizeof(po)};
	struct perfev_parse_error pe = {.sz = sizeof(pe)};
	struct perfev_evspec *spec = NULL;
	struct perfev_event_info info = {.sz = sizeof(info)};
	int err;

	CHECK(t);
	po.tracefs = t;
	CHECK_INT(perfev_evspec_parse("sched:sched_switch", &po, &spec, &pe), 0);
	CHECK(!perfev_evspec_info(spec, 0, &info));
	CHECK_U64(info.attr->config, 372);
	CHECK_INT(info.attr->type, PERF_TYPE_TRACEPOINT);
	perfev_evspec_free(spec);
	spec = NULL;
	CHECK_INT(perfev_evspec_parse("sched:*", &po, &spec, &pe), 0);
	CHECK_INT(perfev_evspec_count(spec), 3);
	perfev_evspec_free(spec);
	spec = NULL;
	/*
	 * event.h: unknown tracepoints give -ENOENT.  "enable" and "filter"
	 * are files inside every tracefs system directory.
	 */
	err = perfev_evspec_parse("sched:enable", &po, &spec, &pe);
	EXPECT(err == -ENOENT, "sched:enable: %d (%s), expected -ENOENT; message \"%s\"", err,
	       err < 0 ? strerrorname_np(-err) : "ok", pe.message);
	perfev_evspec_free(spec);
	perfev_tracefs_free(t);
}

/* ---- the machine's own tracefs, when it is there ---------------------- */

struct real_walk {
	struct perfev_tracefs *t;
	int parsed, failed, checked;
};

static int real_cb(const char *sys, const char *name, void *ctx)
{
	struct real_walk *w = ctx;
	struct perfev_tp_format *f = NULL;
	uint64_t id = 0;
	int err;

	err = perfev_tracefs_format(w->t, sys, name, &f);
	if (err == -EACCES || err == -EPERM || err == -ENOENT)
		return 0;
	if (err) {
		/* Some kernel formats use constructs libtraceevent rejects. */
		w->failed++;
		return 0;
	}
	w->parsed++;
	if (!perfev_tracefs_id(w->t, sys, name, &id)) {
		w->checked++;
		EXPECT(perfev_tp_format_id(f) == id,
		       "%s:%s: format id %" PRIu64 ", id file %" PRIu64, sys, name,
		       perfev_tp_format_id(f), id);
	}
	EXPECT(!strcmp(perfev_tp_format_name(f), name), "%s:%s: name '%s'", sys, name,
	       perfev_tp_format_name(f));
	perfev_tp_format_free(f);
	return 0;
}

TEST(tracefs_real_machine)
{
	struct perfev_tracefs *t = NULL;
	struct real_walk w = {0};
	int err = perfev_tracefs_open(NULL, &t), n;

	if (err) {
		harness_skip("tracefs", "perfev_tracefs_open: %s (not mounted or not readable)",
			     strerrorname_np(-err));
		return;
	}
	w.t = t;
	n = perfev_tracefs_foreach(t, "sched", NULL, real_cb, &w);
	if (n <= 0 || !w.parsed) {
		perfev_tracefs_free(t);
		harness_skip("tracefs", "no readable sched tracepoints (%d)", n);
		return;
	}
	EXPECT(w.failed == 0, "%d sched formats failed to parse", w.failed);
	n = perfev_tracefs_foreach(t, NULL, NULL, real_cb, &w);
	EXPECT(n > 0, "walk returned %d", n);
	perfev_tracefs_free(t);
}
