// SPDX-License-Identifier: LGPL-2.1-or-later
/* Library basics: strerror, version, logging, generic event and cache name tables, kind names. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <perfev/perfev.h>
#include "harness.h"

/* Every errno src/lib/common/strerror.c names, with its text. */
static const struct {
	int err;
	const char *text;
} errtexts[] = {
    {0, "success"},
    {E2BIG, "attr size not supported by the kernel"},
    {EACCES, "permission denied"},
    {EBADF, "bad file descriptor"},
    {EBADMSG, "malformed data"},
    {EBUSY, "device or resource busy"},
    {EFAULT, "bad address"},
    {EINTR, "interrupted"},
    {EINVAL, "invalid argument"},
    {EMFILE, "too many open files"},
    {ENFILE, "too many open files in system"},
    {ENODEV, "no such device"},
    {ENOENT, "no such event, PMU or file"},
    {ENOMEM, "out of memory"},
    {ENOSPC, "no space left for the event"},
    {ENOSYS, "not implemented"},
    {EOPNOTSUPP, "operation not supported"},
    {EOVERFLOW, "value too large"},
    {EPERM, "operation not permitted"},
    {ERANGE, "value out of range"},
    {ESRCH, "no such process"},
    {ENAMETOOLONG, "name too long"},
    {EIO, "input/output error"},
    {EAGAIN, "resource temporarily unavailable"},
    {ENOTDIR, "not a directory"},
    {EEXIST, "already exists"},
    {ENOTTY, "inappropriate ioctl for device"},
    {EPIPE, "broken pipe"},
    {ESTALE, "file is not the build that was recorded"},
};

TEST(strerror_known)
{
	size_t i, j;

	for (i = 0; i < sizeof(errtexts) / sizeof(errtexts[0]); i++) {
		const char *pos = perfev_strerror(errtexts[i].err);
		const char *neg = perfev_strerror(-errtexts[i].err);
		const char *ename = errtexts[i].err ? strerrorname_np(errtexts[i].err) : "0";

		CHECK(pos && neg && pos[0]);
		EXPECT(!strcmp(pos, errtexts[i].text), "%s: \"%s\", expected \"%s\"", ename, pos,
		       errtexts[i].text);
		EXPECT(pos == neg, "%s: the two signs differ", ename);
		/* Lowercase, no trailing newline or period, distinct from every other. */
		EXPECT(pos[0] >= 'a' && pos[0] <= 'z', "%s: \"%s\" not lowercase", ename, pos);
		EXPECT(!strchr(pos, '\n') && pos[strlen(pos) - 1] != '.', "%s: \"%s\"", ename, pos);
		for (j = 0; j < i; j++)
			EXPECT(strcmp(pos, errtexts[j].text), "%s and errno %d share \"%s\"", ename,
			       errtexts[j].err, pos);
	}
	/* EWOULDBLOCK is EAGAIN and ENOTSUP is EOPNOTSUPP on Linux. */
	CHECK_STR(perfev_strerror(-EWOULDBLOCK), "resource temporarily unavailable");
	CHECK_STR(perfev_strerror(-ENOTSUP), "operation not supported");
}

TEST(strerror_unknown)
{
	static const int unknown[] = {EXDEV, ECHILD, 999, 4095, 100000, INT_MAX, -INT_MAX};
	size_t i;

	for (i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		EXPECT(!strcmp(perfev_strerror(unknown[i]), "unknown error"), "%d: \"%s\"",
		       unknown[i], perfev_strerror(unknown[i]));
		EXPECT(!strcmp(perfev_strerror(-unknown[i]), "unknown error"), "%d: \"%s\"",
		       -unknown[i], perfev_strerror(-unknown[i]));
	}
}

/*
 * INT_MIN has no positive counterpart: negating it is undefined behaviour.
 * core.h promises a static string for any value.  Run it in a child so a
 * sanitizer abort is reported as this case failing.
 */
TEST(strerror_int_min)
{
	int pfd[2], status = 0;
	char buf[64] = "";
	ssize_t n;
	pid_t pid;

	CHECK(!pipe(pfd));
	fflush(stdout);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		const char *s = perfev_strerror(INT_MIN);

		close(pfd[0]);
		if (write(pfd[1], s, strlen(s) + 1) < 0)
			_exit(2);
		_exit(0);
	}
	close(pfd[1]);
	n = read(pfd[0], buf, sizeof(buf) - 1);
	close(pfd[0]);
	waitpid(pid, &status, 0);
	buf[n > 0 ? n : 0] = '\0';
	EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "perfev_strerror(INT_MIN) died (status %#x): the negation of INT_MIN overflows",
	       status);
	EXPECT(!strcmp(buf, "unknown error"), "perfev_strerror(INT_MIN) = \"%s\"", buf);
}

TEST(version)
{
	char want[32];

	snprintf(want, sizeof(want), "%d.%d.%d", PERFEV_VERSION_MAJOR, PERFEV_VERSION_MINOR,
		 PERFEV_VERSION_PATCH);
	CHECK_STR(perfev_version(), want);
	CHECK(perfev_version() == perfev_version());
}

/* ---- logging ------------------------------------------------------- */

struct logbuf {
	int n;
	int levels[64];
	char msgs[16][512];
	void *ctx_seen;
};

static void logger(enum perfev_log_level level, const char *msg, void *ctx)
{
	struct logbuf *l = ctx;

	if (l->n < 64)
		l->levels[l->n] = level;
	if (l->n < 16)
		snprintf(l->msgs[l->n], sizeof(l->msgs[0]), "%s", msg);
	l->ctx_seen = ctx;
	l->n++;
}

/* Load the fixture PMUs (the list is read lazily: count them). */
static void load_fixture_pmus(void)
{
	struct perfev_pmus_opts o = {.sz = sizeof(o)};
	struct perfev_pmus *pmus;
	char root[4096];

	snprintf(root, sizeof(root), "%s", test_data("sysfs"));
	o.sysfs_root = root;
	if (perfev_pmus_load(&o, &pmus))
		return;
	perfev_pmus_count(pmus);
	perfev_pmu_format_count(perfev_pmus_find(pmus, "msr"));
	perfev_pmus_free(pmus);
}

TEST(log_receives_warnings)
{
	struct logbuf l = {0};
	int i, found = -1;

	perfev_set_log(logger, PERFEV_LOG_WARN, &l);
	load_fixture_pmus();
	perfev_set_log(NULL, PERFEV_LOG_WARN, NULL);
	CHECK(l.n >= 1);
	CHECK(l.ctx_seen == &l);
	for (i = 0; i < l.n && i < 16; i++) {
		EXPECT(l.levels[i] <= PERFEV_LOG_WARN, "message %d at level %d", i, l.levels[i]);
		EXPECT(!strchr(l.msgs[i], '\n'), "message %d has a newline: \"%s\"", i, l.msgs[i]);
		if (strstr(l.msgs[i], "'broken'"))
			found = i;
	}
	CHECK(found >= 0);
	CHECK_INT(l.levels[found], PERFEV_LOG_WARN);
	CHECK_CONTAINS(l.msgs[found], "skipping PMU 'broken'");
}

TEST(log_level_filter)
{
	struct logbuf l = {0};
	int i;

	/* Errors only: the warnings about the fixture are filtered out. */
	perfev_set_log(logger, PERFEV_LOG_ERROR, &l);
	load_fixture_pmus();
	perfev_set_log(NULL, PERFEV_LOG_WARN, NULL);
	CHECK_INT(l.n, 0);

	/* Debug: warnings, and the debug message for a missing devices directory. */
	memset(&l, 0, sizeof(l));
	perfev_set_log(logger, PERFEV_LOG_DEBUG, &l);
	load_fixture_pmus();
	{
		struct perfev_pmus_opts o = {.sz = sizeof(o), .sysfs_root = "/nonexistent"};
		struct perfev_pmus *pmus;

		if (!perfev_pmus_load(&o, &pmus)) {
			perfev_pmus_count(pmus);
			perfev_pmus_free(pmus);
		}
	}
	perfev_set_log(NULL, PERFEV_LOG_WARN, NULL);
	CHECK(l.n >= 3);
	for (i = 0; i < l.n && i < 64; i++)
		EXPECT(l.levels[i] >= PERFEV_LOG_ERROR && l.levels[i] <= PERFEV_LOG_DEBUG,
		       "level %d", l.levels[i]);
	for (i = 0; i < l.n && i < 64; i++)
		if (l.levels[i] == PERFEV_LOG_DEBUG)
			break;
	CHECK(i < l.n);
}

TEST(log_null_disables)
{
	struct logbuf l = {0};

	perfev_set_log(logger, PERFEV_LOG_DEBUG, &l);
	perfev_set_log(NULL, PERFEV_LOG_DEBUG, &l);
	load_fixture_pmus();
	CHECK_INT(l.n, 0);
	/* And the default after that is silence too. */
	perfev_set_log(NULL, PERFEV_LOG_WARN, NULL);
	load_fixture_pmus();
	CHECK_INT(l.n, 0);
}

/* ---- the generic event table ---------------------------------------- */

TEST(symbols)
{
	static const struct {
		const char *name, *alias;
		enum perfev_event_kind kind;
		uint32_t type;
		uint64_t config;
	} some[] = {
	    {"cpu-cycles", "cycles", PERFEV_KIND_HARDWARE, PERF_TYPE_HARDWARE,
	     PERF_COUNT_HW_CPU_CYCLES},
	    {"instructions", NULL, PERFEV_KIND_HARDWARE, PERF_TYPE_HARDWARE,
	     PERF_COUNT_HW_INSTRUCTIONS},
	    {"branch-instructions", "branches", PERFEV_KIND_HARDWARE, PERF_TYPE_HARDWARE,
	     PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
	    {"ref-cycles", NULL, PERFEV_KIND_HARDWARE, PERF_TYPE_HARDWARE,
	     PERF_COUNT_HW_REF_CPU_CYCLES},
	    {"task-clock", NULL, PERFEV_KIND_SOFTWARE, PERF_TYPE_SOFTWARE,
	     PERF_COUNT_SW_TASK_CLOCK},
	    {"context-switches", "cs", PERFEV_KIND_SOFTWARE, PERF_TYPE_SOFTWARE,
	     PERF_COUNT_SW_CONTEXT_SWITCHES},
	    {"page-faults", "faults", PERFEV_KIND_SOFTWARE, PERF_TYPE_SOFTWARE,
	     PERF_COUNT_SW_PAGE_FAULTS},
	    {"bpf-output", NULL, PERFEV_KIND_SOFTWARE, PERF_TYPE_SOFTWARE,
	     PERFEV_COUNT_SW_BPF_OUTPUT},
	    {"cgroup-switches", NULL, PERFEV_KIND_SOFTWARE, PERF_TYPE_SOFTWARE,
	     PERFEV_COUNT_SW_CGROUP_SWITCHES},
	    {"duration_time", NULL, PERFEV_KIND_TOOL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY},
	};
	size_t n = perfev_symbol_count(), i, j, hw = 0;
	unsigned int hw_seen = 0;

	CHECK(n >= 20);
	CHECK(perfev_symbol_get(n) == NULL);
	CHECK(perfev_symbol_get((size_t)-1) == NULL);
	for (i = 0; i < n; i++) {
		const struct perfev_symbol *s = perfev_symbol_get(i);

		CHECK(s && s->name && s->desc && s->desc[0]);
		EXPECT(s->kind == PERFEV_KIND_HARDWARE || s->kind == PERFEV_KIND_SOFTWARE ||
			   s->kind == PERFEV_KIND_TOOL,
		       "'%s': kind %d", s->name, s->kind);
		EXPECT(s->type == (s->kind == PERFEV_KIND_HARDWARE ? PERF_TYPE_HARDWARE
								   : PERF_TYPE_SOFTWARE),
		       "'%s': type %u", s->name, s->type);
		if (s->kind == PERFEV_KIND_HARDWARE) {
			hw++;
			EXPECT(s->config < PERF_COUNT_HW_MAX, "'%s': config %" PRIu64, s->name,
			       s->config);
			hw_seen |= 1U << s->config;
		}
		/* Every spelling is unique across the table. */
		for (j = 0; j < i; j++) {
			const struct perfev_symbol *t = perfev_symbol_get(j);

			EXPECT(strcmp(s->name, t->name) &&
				   (!t->alias || strcmp(s->name, t->alias)) &&
				   (!s->alias || (strcmp(s->alias, t->name) &&
						  (!t->alias || strcmp(s->alias, t->alias)))),
			       "'%s' and '%s' share a spelling", s->name, t->name);
			if (s->kind != PERFEV_KIND_TOOL && s->kind == t->kind)
				EXPECT(s->config != t->config,
				       "'%s' and '%s' share config %" PRIu64, s->name, t->name,
				       s->config);
		}
	}
	/* All generic hardware events, once each. */
	CHECK_INT(hw, PERF_COUNT_HW_MAX);
	CHECK_INT(hw_seen, (1U << PERF_COUNT_HW_MAX) - 1);
	for (i = 0; i < sizeof(some) / sizeof(some[0]); i++) {
		const struct perfev_symbol *s = NULL;

		for (j = 0; j < n; j++)
			if (!strcmp(perfev_symbol_get(j)->name, some[i].name))
				s = perfev_symbol_get(j);
		EXPECT(s != NULL, "no symbol '%s'", some[i].name);
		if (!s)
			continue;
		EXPECT(some[i].alias ? s->alias && !strcmp(s->alias, some[i].alias) : !s->alias,
		       "'%s': alias '%s'", some[i].name, s->alias ? s->alias : "(null)");
		EXPECT(s->kind == some[i].kind && s->type == some[i].type &&
			   s->config == some[i].config,
		       "'%s': kind %d type %u config %" PRIu64, some[i].name, s->kind, s->type,
		       s->config);
	}
}

TEST(symbols_parse_back)
{
	/* Each name and alias parses to its own type and config. */
	size_t n = perfev_symbol_count(), i, k;

	for (i = 0; i < n; i++) {
		const struct perfev_symbol *s = perfev_symbol_get(i);
		const char *spell[2] = {s->name, s->alias};

		for (k = 0; k < 2; k++) {
			struct perfev_evspec *spec = NULL;
			struct perfev_event_info info = {.sz = sizeof(info)};

			if (!spell[k])
				continue;
			EXPECT(!perfev_evspec_parse(spell[k], NULL, &spec, NULL),
			       "'%s' does not parse", spell[k]);
			if (!spec)
				continue;
			if (!perfev_evspec_info(spec, 0, &info)) {
				EXPECT(info.attr->type == s->type && info.attr->config == s->config,
				       "'%s' parses to %u/%llu", spell[k], info.attr->type,
				       (unsigned long long)info.attr->config);
				EXPECT(info.kind == s->kind, "'%s' parses to kind %d", spell[k],
				       info.kind);
			}
			perfev_evspec_free(spec);
		}
	}
}

/* ---- hardware cache events -------------------------------------------- */

/*
 * perf's table of valid cache/operation pairs (evsel__hw_cache_stat), and
 * its canonical spellings, written out independently of the library.
 */
static const struct {
	const char *name;
	unsigned int id;
	bool read, write, prefetch;
} caches[] = {
    {"L1-dcache", PERF_COUNT_HW_CACHE_L1D, true, true, true},
    {"L1-icache", PERF_COUNT_HW_CACHE_L1I, true, false, true},
    {"LLC", PERF_COUNT_HW_CACHE_LL, true, true, true},
    {"dTLB", PERF_COUNT_HW_CACHE_DTLB, true, true, true},
    {"iTLB", PERF_COUNT_HW_CACHE_ITLB, true, false, false},
    {"branch", PERF_COUNT_HW_CACHE_BPU, true, false, false},
    {"node", PERF_COUNT_HW_CACHE_NODE, true, true, true},
};

struct cache_ev {
	char name[64];
	uint64_t config;
};

/* The expected list, in perf's order: cache, then op, then access before miss. */
static size_t expected_cache_events(struct cache_ev *out, size_t max)
{
	static const char *const ops[] = {"load", "store", "prefetch"};
	static const char *const ops_plural[] = {"loads", "stores", "prefetches"};
	size_t n = 0, c;
	unsigned int op, res;

	for (c = 0; c < sizeof(caches) / sizeof(caches[0]); c++) {
		bool valid[3] = {caches[c].read, caches[c].write, caches[c].prefetch};

		for (op = 0; op < 3; op++) {
			if (!valid[op])
				continue;
			for (res = 0; res < 2 && n < max; res++, n++) {
				if (res == 0)
					snprintf(out[n].name, sizeof(out[n].name), "%s-%s",
						 caches[c].name, ops_plural[op]);
				else
					snprintf(out[n].name, sizeof(out[n].name), "%s-%s-misses",
						 caches[c].name, ops[op]);
				out[n].config = caches[c].id | op << 8 | res << 16;
			}
		}
	}
	return n;
}

TEST(cache_events)
{
	struct cache_ev want[64];
	size_t nwant = expected_cache_events(want, 64), i;
	char buf[64];
	uint64_t cfg;
	int n;

	/* 16 cache/op pairs, each with access and miss. */
	CHECK_INT(nwant, 32);
	for (i = 0; i < nwant; i++) {
		cfg = ~0ULL;
		memset(buf, 0, sizeof(buf));
		n = perfev_cache_event_get(i, buf, sizeof(buf), &cfg);
		EXPECT(n == (int)strlen(want[i].name), "%zu: returned %d for '%s'", i, n, buf);
		EXPECT(!strcmp(buf, want[i].name), "%zu: '%s', expected '%s'", i, buf,
		       want[i].name);
		EXPECT(cfg == want[i].config, "%zu '%s': config %#" PRIx64 ", expected %#" PRIx64,
		       i, buf, cfg, want[i].config);
	}
	/* Past the end. */
	CHECK_INT(perfev_cache_event_get(nwant, buf, sizeof(buf), &cfg), -ENOENT);
	CHECK_INT(perfev_cache_event_get(nwant + 100, buf, sizeof(buf), &cfg), -ENOENT);
	CHECK_INT(perfev_cache_event_get((size_t)-1, buf, sizeof(buf), &cfg), -ENOENT);
	/* The first ones spelled out. */
	CHECK_INT(perfev_cache_event_get(0, buf, sizeof(buf), &cfg), 15);
	CHECK_STR(buf, "L1-dcache-loads");
	CHECK_U64(cfg, 0);
	CHECK(perfev_cache_event_get(1, buf, sizeof(buf), &cfg) > 0);
	CHECK_STR(buf, "L1-dcache-load-misses");
	CHECK_U64(cfg, 0x10000);
	CHECK(perfev_cache_event_get(2, buf, sizeof(buf), &cfg) > 0);
	CHECK_STR(buf, "L1-dcache-stores");
	CHECK_U64(cfg, 0x100);
	CHECK(perfev_cache_event_get(5, buf, sizeof(buf), &cfg) > 0);
	CHECK_STR(buf, "L1-dcache-prefetch-misses");
	CHECK_U64(cfg, 0x10200);
	CHECK(perfev_cache_event_get(6, buf, sizeof(buf), &cfg) > 0);
	CHECK_STR(buf, "L1-icache-loads");
	CHECK_U64(cfg, 1);
}

TEST(cache_events_truncation)
{
	char small[4];
	uint64_t cfg = 0;

	/* Like snprintf: the full length, a NUL-terminated prefix. */
	memset(small, 'x', sizeof(small));
	CHECK_INT(perfev_cache_event_get(1, small, sizeof(small), &cfg), 21);
	CHECK_STR(small, "L1-");
	CHECK_U64(cfg, 0x10000);
	CHECK_INT(perfev_cache_event_get(1, NULL, 0, NULL), 21);
}

TEST(cache_events_parse_back)
{
	char buf[64];
	uint64_t cfg;
	size_t i;

	for (i = 0; perfev_cache_event_get(i, buf, sizeof(buf), &cfg) >= 0; i++) {
		struct perfev_evspec *spec = NULL;
		struct perfev_event_info info = {.sz = sizeof(info)};

		EXPECT(!perfev_evspec_parse(buf, NULL, &spec, NULL), "'%s' does not parse", buf);
		if (spec && !perfev_evspec_info(spec, 0, &info)) {
			EXPECT(info.attr->type == PERF_TYPE_HW_CACHE, "'%s': type %u", buf,
			       info.attr->type);
			EXPECT(info.attr->config == cfg, "'%s': config %#llx, expected %#" PRIx64,
			       buf, (unsigned long long)info.attr->config, cfg);
			EXPECT(info.kind == PERFEV_KIND_CACHE, "'%s': kind %d", buf, info.kind);
		}
		perfev_evspec_free(spec);
	}
	CHECK_INT(i, 32);
}

TEST(cache_invalid_ops_refused)
{
	/* The pairs perf's table leaves out do not parse. */
	static const char *const bad[] = {
	    "L1-icache-stores", "L1-icache-store-misses", "iTLB-stores",
	    "iTLB-prefetches",	"branch-stores",	  "branch-prefetch-misses",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct perfev_evspec *spec = NULL;

		EXPECT(perfev_evspec_parse(bad[i], NULL, &spec, NULL) == -EINVAL, "'%s' parsed",
		       bad[i]);
		perfev_evspec_free(spec);
	}
}

TEST(event_kind_names)
{
	static const struct {
		enum perfev_event_kind kind;
		const char *name;
	} kinds[] = {
	    {PERFEV_KIND_HARDWARE, "hardware"},
	    {PERFEV_KIND_SOFTWARE, "software"},
	    {PERFEV_KIND_TRACEPOINT, "tracepoint"},
	    {PERFEV_KIND_CACHE, "cache"},
	    {PERFEV_KIND_RAW, "raw"},
	    {PERFEV_KIND_BREAKPOINT, "breakpoint"},
	    {PERFEV_KIND_PMU, "pmu"},
	    {PERFEV_KIND_TOOL, "tool"},
	};
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		EXPECT(perfev_event_kind_name(kinds[i].kind) &&
			   !strcmp(perfev_event_kind_name(kinds[i].kind), kinds[i].name),
		       "kind %d: '%s', expected '%s'", kinds[i].kind,
		       perfev_event_kind_name(kinds[i].kind) ?: "(null)", kinds[i].name);
	CHECK(perfev_event_kind_name((enum perfev_event_kind)8) == NULL);
	CHECK(perfev_event_kind_name((enum perfev_event_kind) - 1) == NULL);
	CHECK(perfev_event_kind_name((enum perfev_event_kind)1000) == NULL);
}
