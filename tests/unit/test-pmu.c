// SPDX-License-Identifier: LGPL-2.1-or-later
/* The PMU database over the fixture tree tests/data/sysfs: PMUs, formats, aliases, caps. */
#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <perfev/perfev.h>
#include "harness.h"

static char sysroot[4096];

static struct perfev_pmus *load_fixture(void)
{
	struct perfev_pmus_opts o = {.sz = sizeof(o)};
	struct perfev_pmus *pmus = NULL;

	snprintf(sysroot, sizeof(sysroot), "%s", test_data("sysfs"));
	o.sysfs_root = sysroot;
	if (perfev_pmus_load(&o, &pmus))
		return NULL;
	return pmus;
}

/* Every readable PMU of the fixture, sorted, with its type; 'broken' is not here. */
static const struct {
	const char *name;
	uint32_t type;
} fixture_pmus[] = {
    {"breakpoint", 5}, {"cpu", 4},	     {"msr", 9},	   {"power", 15}, {"software", 1},
    {"tracepoint", 2}, {"uncore_imc_0", 20}, {"uncore_imc_1", 21}, {"uprobe", 8},
};
#define N_FIXTURE (sizeof(fixture_pmus) / sizeof(fixture_pmus[0]))

TEST(pmus_count_and_order)
{
	struct perfev_pmus *pmus = load_fixture();
	size_t i, n;

	CHECK(pmus);
	n = perfev_pmus_count(pmus);
	EXPECT(n == N_FIXTURE, "%zu PMUs, expected %zu", n, N_FIXTURE);
	for (i = 0; i < n && i < N_FIXTURE; i++) {
		const struct perfev_pmu *p = perfev_pmus_get(pmus, i);

		EXPECT(p != NULL, "no PMU %zu", i);
		if (!p)
			continue;
		EXPECT(!strcmp(perfev_pmu_name(p), fixture_pmus[i].name),
		       "PMU %zu is '%s', expected '%s'", i, perfev_pmu_name(p),
		       fixture_pmus[i].name);
		EXPECT(perfev_pmu_type(p) == fixture_pmus[i].type, "'%s' type %u, expected %u",
		       perfev_pmu_name(p), perfev_pmu_type(p), fixture_pmus[i].type);
		if (i > 0)
			EXPECT(strcmp(perfev_pmu_name(perfev_pmus_get(pmus, i - 1)),
				      perfev_pmu_name(p)) < 0,
			       "PMUs not sorted at %zu", i);
	}
	CHECK(perfev_pmus_get(pmus, n) == NULL);
	CHECK(perfev_pmus_get(pmus, (size_t)-1) == NULL);
	perfev_pmus_free(pmus);
}

TEST(pmus_find)
{
	struct perfev_pmus *pmus = load_fixture();
	size_t i;

	CHECK(pmus);
	for (i = 0; i < N_FIXTURE; i++) {
		const struct perfev_pmu *p = perfev_pmus_find(pmus, fixture_pmus[i].name);
		const struct perfev_pmu *t = perfev_pmus_find_type(pmus, fixture_pmus[i].type);

		EXPECT(p && !strcmp(perfev_pmu_name(p), fixture_pmus[i].name), "find '%s'",
		       fixture_pmus[i].name);
		EXPECT(t == p, "find_type(%u) is not '%s'", fixture_pmus[i].type,
		       fixture_pmus[i].name);
		EXPECT(p == perfev_pmus_get(pmus, i), "find and get disagree on '%s'",
		       fixture_pmus[i].name);
	}
	CHECK(perfev_pmus_find(pmus, "broken") == NULL);
	CHECK(perfev_pmus_find(pmus, "nope") == NULL);
	CHECK(perfev_pmus_find(pmus, "") == NULL);
	CHECK(perfev_pmus_find(pmus, "CPU") == NULL);
	CHECK(perfev_pmus_find(pmus, "uncore_imc") == NULL);
	CHECK(perfev_pmus_find_type(pmus, 3) == NULL);
	CHECK(perfev_pmus_find_type(pmus, 12345) == NULL);
	CHECK(perfev_pmus_find_type(pmus, UINT32_MAX) == NULL);
	perfev_pmus_free(pmus);
}

static const struct {
	const char *pmu, *name;
	unsigned int word;
	uint64_t mask;
	unsigned int nbits;
} fixture_formats[] = {
    {"cpu", "any", 0, 1ULL << 21, 1},
    {"cpu", "cmask", 0, 0xff000000ULL, 8},
    {"cpu", "edge", 0, 1ULL << 18, 1},
    {"cpu", "event", 0, 0xf000000ffULL, 12},
    {"cpu", "frontend", 2, 0xffffffULL, 24},
    {"cpu", "hybrid_ext", 3, 0xffULL, 8},
    {"cpu", "inv", 0, 1ULL << 23, 1},
    {"cpu", "ldlat", 1, 0xffffULL, 16},
    {"cpu", "umask", 0, 0xff00ULL, 8},
    {"msr", "event", 0, ~0ULL, 64},
    {"power", "event", 0, 0xffULL, 8},
    {"uncore_imc_0", "event", 0, 0xffULL, 8},
    {"uncore_imc_0", "umask", 0, 0xff00ULL, 8},
    {"uncore_imc_1", "event", 0, 0xffULL, 8},
    {"uncore_imc_1", "umask", 0, 0xff00ULL, 8},
    {"uprobe", "ref_ctr_offset", 0, 0xffffffff00000000ULL, 32},
    {"uprobe", "retprobe", 0, 1ULL, 1},
};

TEST(pmu_formats)
{
	struct perfev_pmus *pmus = load_fixture();
	size_t i, j, total = 0;

	CHECK(pmus);
	for (i = 0; i < sizeof(fixture_formats) / sizeof(fixture_formats[0]); i++) {
		const struct perfev_pmu *p = perfev_pmus_find(pmus, fixture_formats[i].pmu);
		const struct perfev_format *f;

		CHECK(p);
		f = perfev_pmu_format_find(p, fixture_formats[i].name);
		EXPECT(f != NULL, "%s/%s missing", fixture_formats[i].pmu, fixture_formats[i].name);
		if (!f)
			continue;
		EXPECT(!strcmp(f->name, fixture_formats[i].name), "%s/%s named '%s'",
		       fixture_formats[i].pmu, fixture_formats[i].name, f->name);
		EXPECT(f->word == fixture_formats[i].word, "%s/%s word %u", fixture_formats[i].pmu,
		       fixture_formats[i].name, f->word);
		EXPECT(f->mask == fixture_formats[i].mask, "%s/%s mask %#" PRIx64,
		       fixture_formats[i].pmu, fixture_formats[i].name, f->mask);
		EXPECT(f->nbits == fixture_formats[i].nbits, "%s/%s nbits %u",
		       fixture_formats[i].pmu, fixture_formats[i].name, f->nbits);
	}
	/* Counts, sorted order, and nothing beyond the table. */
	for (i = 0; i < perfev_pmus_count(pmus); i++) {
		const struct perfev_pmu *p = perfev_pmus_get(pmus, i);
		size_t n = perfev_pmu_format_count(p), want = 0;

		for (j = 0; j < sizeof(fixture_formats) / sizeof(fixture_formats[0]); j++)
			if (!strcmp(fixture_formats[j].pmu, perfev_pmu_name(p)))
				want++;
		EXPECT(n == want, "'%s' has %zu formats, expected %zu", perfev_pmu_name(p), n,
		       want);
		for (j = 0; j < n; j++) {
			const struct perfev_format *f = perfev_pmu_format(p, j);

			CHECK(f);
			EXPECT(perfev_pmu_format_find(p, f->name) == f, "'%s/%s' find mismatch",
			       perfev_pmu_name(p), f->name);
			if (j)
				EXPECT(strcmp(perfev_pmu_format(p, j - 1)->name, f->name) < 0,
				       "'%s' formats not sorted", perfev_pmu_name(p));
		}
		CHECK(perfev_pmu_format(p, n) == NULL);
		total += n;
	}
	CHECK_INT(total, sizeof(fixture_formats) / sizeof(fixture_formats[0]));
	CHECK(perfev_pmu_format_find(perfev_pmus_find(pmus, "cpu"), "nope") == NULL);
	CHECK(perfev_pmu_format_find(perfev_pmus_find(pmus, "cpu"), "EVENT") == NULL);
	CHECK(perfev_pmu_format_find(perfev_pmus_find(pmus, "software"), "event") == NULL);
	perfev_pmus_free(pmus);
}

TEST(pmu_bad_format_ignored)
{
	struct perfev_pmus *pmus = load_fixture();
	const struct perfev_pmu *msr;

	CHECK(pmus);
	msr = perfev_pmus_find(pmus, "msr");
	CHECK(msr);
	/* msr/format/badfmt says "config9:0-3": skipped, the rest of the PMU is fine. */
	CHECK_INT(perfev_pmu_format_count(msr), 1);
	CHECK(perfev_pmu_format_find(msr, "badfmt") == NULL);
	CHECK(perfev_pmu_format_find(msr, "event") != NULL);
	CHECK_INT(perfev_pmu_alias_count(msr), 1);
	CHECK_STR(perfev_pmu_alias(msr, 0)->name, "tsc");
	perfev_pmus_free(pmus);
}

static bool near(double a, double b)
{
	double d = a > b ? a - b : b - a;

	return d <= (b > 0 ? b : -b) * 1e-12;
}

TEST(pmu_aliases)
{
	static const char *const cpu_aliases[] = {"cycles", "instructions", "mem-loads",
						  "offcore-chan", "topdown-total-slots"};
	struct perfev_pmus *pmus = load_fixture();
	const struct perfev_pmu *cpu, *power, *imc;
	const struct perfev_alias *a;
	size_t i;

	CHECK(pmus);
	cpu = perfev_pmus_find(pmus, "cpu");
	CHECK(cpu);
	/* .unit/.scale/.per-pkg/.snapshot files are attributes, not aliases. */
	CHECK_INT(perfev_pmu_alias_count(cpu), 5);
	for (i = 0; i < 5; i++) {
		a = perfev_pmu_alias(cpu, i);
		CHECK(a);
		CHECK_STR(a->name, cpu_aliases[i]);
	}
	CHECK(perfev_pmu_alias(cpu, 5) == NULL);

	a = perfev_pmu_alias_find(cpu, "cycles");
	CHECK(a);
	CHECK_STR(a->terms, "event=0x3c");
	CHECK(a->unit == NULL);
	CHECK(a->scale == 1.0);
	CHECK(!a->per_pkg && !a->snapshot);
	/* Case-insensitive, as perf matches sysfs aliases. */
	CHECK(perfev_pmu_alias_find(cpu, "CYCLES") == a);
	CHECK(perfev_pmu_alias_find(cpu, "Cycles") == a);
	CHECK(perfev_pmu_alias_find(cpu, "MEM-LOADS") == perfev_pmu_alias_find(cpu, "mem-loads"));
	CHECK(perfev_pmu_alias_find(cpu, "Topdown-Total-Slots") != NULL);
	CHECK(perfev_pmu_alias_find(cpu, "cycle") == NULL);
	CHECK(perfev_pmu_alias_find(cpu, "cycles.unit") == NULL);
	CHECK(perfev_pmu_alias_find(cpu, "mem-loads.unit") == NULL);
	CHECK(perfev_pmu_alias_find(cpu, "") == NULL);

	a = perfev_pmu_alias_find(cpu, "mem-loads");
	CHECK(a);
	CHECK_STR(a->terms, "event=0xcd,umask=0x1,ldlat=3");
	CHECK_STR(a->unit, "B");
	CHECK(a->scale == 1.0);
	a = perfev_pmu_alias_find(cpu, "offcore-chan");
	CHECK(a);
	CHECK_STR(a->terms, "event=0xb7,umask=?");
	a = perfev_pmu_alias_find(cpu, "topdown-total-slots");
	CHECK(a);
	CHECK(a->scale == 4.0);
	CHECK(a->unit == NULL);

	power = perfev_pmus_find(pmus, "power");
	CHECK(power);
	CHECK_INT(perfev_pmu_alias_count(power), 1);
	a = perfev_pmu_alias_find(power, "energy-pkg");
	CHECK(a);
	CHECK_STR(a->terms, "event=0x02");
	CHECK_STR(a->unit, "Joules");
	CHECK(near(a->scale, 2.3283064365386962890625e-10));
	CHECK(a->per_pkg);
	CHECK(!a->snapshot); /* the .snapshot file says 0 */

	imc = perfev_pmus_find(pmus, "uncore_imc_1");
	CHECK(imc);
	a = perfev_pmu_alias_find(imc, "CAS_COUNT_READ");
	CHECK(a);
	CHECK_STR(a->name, "cas_count_read");
	CHECK_STR(a->terms, "event=0x04,umask=0x03");
	CHECK_STR(a->unit, "MiB");
	CHECK(near(a->scale, 6.103515625e-5));

	CHECK_INT(perfev_pmu_alias_count(perfev_pmus_find(pmus, "software")), 0);
	CHECK(perfev_pmu_alias_find(perfev_pmus_find(pmus, "software"), "cycles") == NULL);
	CHECK(perfev_pmu_alias(perfev_pmus_find(pmus, "software"), 0) == NULL);
	perfev_pmus_free(pmus);
}

TEST(pmu_caps)
{
	static const char *const names[] = {"branches", "max_precise", "pmu_name"};
	static const char *const values[] = {"32", "3", "skylake"};
	struct perfev_pmus *pmus = load_fixture();
	const struct perfev_pmu *cpu, *sw;
	size_t i;

	CHECK(pmus);
	cpu = perfev_pmus_find(pmus, "cpu");
	CHECK(cpu);
	CHECK_INT(perfev_pmu_cap_count(cpu), 3);
	for (i = 0; i < 3; i++) {
		const struct perfev_cap *c = perfev_pmu_cap(cpu, i);

		CHECK(c);
		CHECK_STR(c->name, names[i]);
		CHECK_STR(c->value, values[i]); /* trimmed: no newline */
		CHECK_STR(perfev_pmu_cap_find(cpu, names[i]), values[i]);
	}
	CHECK(perfev_pmu_cap(cpu, 3) == NULL);
	CHECK(perfev_pmu_cap_find(cpu, "nope") == NULL);
	CHECK(perfev_pmu_cap_find(cpu, "MAX_PRECISE") == NULL);
	sw = perfev_pmus_find(pmus, "software");
	CHECK(sw);
	CHECK_INT(perfev_pmu_cap_count(sw), 0);
	CHECK(perfev_pmu_cap(sw, 0) == NULL);
	CHECK(perfev_pmu_cap_find(sw, "max_precise") == NULL);
	perfev_pmus_free(pmus);
}

TEST(pmu_cpumask_rdpmc_mux)
{
	static const struct {
		const char *pmu;
		const char *cpumask;
		int rdpmc, mux;
	} cases[] = {
	    {"cpu", "0-3", 1, 4},	   {"software", NULL, -1, 4},
	    {"power", "0", -1, -1},	   {"uncore_imc_0", "0", -1, -1},
	    {"uncore_imc_1", "0", -1, -1}, {"breakpoint", NULL, -1, -1},
	    {"tracepoint", NULL, -1, -1},  {"msr", NULL, -1, -1},
	    {"uprobe", NULL, -1, -1},
	};
	struct perfev_pmus *pmus = load_fixture();
	size_t i;

	CHECK(pmus);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct perfev_pmu *p = perfev_pmus_find(pmus, cases[i].pmu);
		const char *m;

		CHECK(p);
		m = perfev_pmu_cpumask(p);
		if (cases[i].cpumask)
			EXPECT(m && !strcmp(m, cases[i].cpumask),
			       "'%s' cpumask '%s', expected '%s'", cases[i].pmu, m ? m : "(null)",
			       cases[i].cpumask);
		else
			EXPECT(m == NULL, "'%s' cpumask '%s', expected none", cases[i].pmu, m);
		EXPECT(perfev_pmu_rdpmc(p) == cases[i].rdpmc, "'%s' rdpmc %d, expected %d",
		       cases[i].pmu, perfev_pmu_rdpmc(p), cases[i].rdpmc);
		EXPECT(perfev_pmu_mux_interval_ms(p) == cases[i].mux, "'%s' mux %d, expected %d",
		       cases[i].pmu, perfev_pmu_mux_interval_ms(p), cases[i].mux);
	}
	/* The cpumask text parses as a CPU list. */
	{
		int cpus[8];
		const char *m = perfev_pmu_cpumask(perfev_pmus_find(pmus, "cpu"));

		CHECK_INT(perfev_cpulist_parse(m, strlen(m), cpus, 8), 4);
		CHECK_INT(cpus[3], 3);
	}
	perfev_pmus_free(pmus);
}

/* Details are read lazily: ask for them in the reverse order of the other tests. */
TEST(pmu_lazy_order)
{
	struct perfev_pmus *pmus = load_fixture();
	const struct perfev_pmu *cpu;

	CHECK(pmus);
	cpu = perfev_pmus_find_type(pmus, 4);
	CHECK(cpu);
	CHECK_INT(perfev_pmu_mux_interval_ms(cpu), 4);
	CHECK_STR(perfev_pmu_cap_find(cpu, "pmu_name"), "skylake");
	CHECK(perfev_pmu_alias_find(cpu, "instructions") != NULL);
	CHECK_U64(perfev_pmu_format_find(cpu, "event")->mask, 0xf000000ffULL);
	CHECK_INT(perfev_pmu_format_count(cpu), 9);
	perfev_pmus_free(pmus);
}

struct thread_arg {
	struct perfev_pmus *pmus;
	size_t count;
	size_t formats;
	size_t aliases;
};

static void *worker(void *p)
{
	struct thread_arg *a = p;
	const struct perfev_pmu *cpu;

	a->count = perfev_pmus_count(a->pmus);
	cpu = perfev_pmus_find(a->pmus, "cpu");
	if (cpu) {
		a->formats = perfev_pmu_format_count(cpu);
		a->aliases = perfev_pmu_alias_count(cpu);
	}
	return NULL;
}

TEST(pmus_shared_by_threads)
{
	struct perfev_pmus *pmus = load_fixture();
	struct thread_arg args[4];
	pthread_t th[4];
	int i;

	CHECK(pmus);
	for (i = 0; i < 4; i++) {
		args[i] = (struct thread_arg){.pmus = pmus};
		CHECK(!pthread_create(&th[i], NULL, worker, &args[i]));
	}
	for (i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		EXPECT(args[i].count == N_FIXTURE, "thread %d saw %zu PMUs", i, args[i].count);
		EXPECT(args[i].formats == 9, "thread %d saw %zu formats", i, args[i].formats);
		EXPECT(args[i].aliases == 5, "thread %d saw %zu aliases", i, args[i].aliases);
	}
	perfev_pmus_free(pmus);
}

TEST(pmus_missing_root)
{
	struct perfev_pmus_opts o = {.sz = sizeof(o), .sysfs_root = "/nonexistent/perfev-test"};
	struct perfev_pmus *pmus = NULL;

	/* perf_event may be compiled out: an empty database, not an error. */
	CHECK_INT(perfev_pmus_load(&o, &pmus), 0);
	CHECK(pmus);
	CHECK_INT(perfev_pmus_count(pmus), 0);
	CHECK(perfev_pmus_get(pmus, 0) == NULL);
	CHECK(perfev_pmus_find(pmus, "cpu") == NULL);
	CHECK(perfev_pmus_find_type(pmus, 4) == NULL);
	perfev_pmus_free(pmus);

	/* A root that exists but has no bus/event_source either. */
	o.sysfs_root = test_data("proc");
	CHECK_INT(perfev_pmus_load(&o, &pmus), 0);
	CHECK_INT(perfev_pmus_count(pmus), 0);
	perfev_pmus_free(pmus);
}

TEST(pmus_other_tree)
{
	struct perfev_pmus_opts o = {.sz = sizeof(o)};
	struct perfev_pmus *pmus = NULL;
	char root[4096];

	snprintf(root, sizeof(root), "%s", test_data("sysfs-vm"));
	o.sysfs_root = root;
	CHECK_INT(perfev_pmus_load(&o, &pmus), 0);
	CHECK_INT(perfev_pmus_count(pmus), 5);
	CHECK(perfev_pmus_find(pmus, "cpu") == NULL);
	CHECK(perfev_pmus_find(pmus, "msr") != NULL);
	perfev_pmus_free(pmus);
}

TEST(pmus_bad_opts)
{
	struct {
		struct perfev_pmus_opts o;
		uint64_t extra;
	} big;
	struct perfev_pmus_opts o = {.sz = sizeof(o), .sysfs_root = "/nonexistent"};
	struct perfev_pmus *pmus = (struct perfev_pmus *)&o;

	CHECK_INT(perfev_pmus_load(&o, NULL), -EINVAL);
	o.sz = 0;
	CHECK_INT(perfev_pmus_load(&o, &pmus), -EINVAL);
	o.sz = sizeof(size_t) - 1;
	CHECK_INT(perfev_pmus_load(&o, &pmus), -EINVAL);
	CHECK(pmus == (struct perfev_pmus *)&o); /* untouched on error */

	/* A newer caller's bigger struct: the unknown tail must be zero. */
	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	big.o.sysfs_root = "/nonexistent";
	big.extra = 1;
	CHECK_INT(perfev_pmus_load(&big.o, &pmus), -EINVAL);
	big.extra = 1ULL << 63;
	CHECK_INT(perfev_pmus_load(&big.o, &pmus), -EINVAL);
	big.extra = 0;
	CHECK_INT(perfev_pmus_load(&big.o, &pmus), 0);
	CHECK_INT(perfev_pmus_count(pmus), 0);
	perfev_pmus_free(pmus);

	/* An older caller's struct with only sz: defaults. */
	o.sz = sizeof(size_t);
	CHECK_INT(perfev_pmus_load(&o, &pmus), 0);
	perfev_pmus_free(pmus);
	/* NULL options mean the defaults ("/sys"), which need not be read here. */
	CHECK_INT(perfev_pmus_load(NULL, &pmus), 0);
	perfev_pmus_free(pmus);
	perfev_pmus_free(NULL);
}

struct log_capture {
	int warns;
	int broken;
	int badfmt;
	int newline;
};

static void capture(enum perfev_log_level level, const char *msg, void *ctx)
{
	struct log_capture *c = ctx;

	if (level == PERFEV_LOG_WARN)
		c->warns++;
	if (strstr(msg, "'broken'"))
		c->broken++;
	if (strstr(msg, "badfmt"))
		c->badfmt++;
	if (strchr(msg, '\n'))
		c->newline++;
}

TEST(pmus_log_warnings)
{
	struct log_capture c = {0};
	struct perfev_pmus *pmus;

	perfev_set_log(capture, PERFEV_LOG_WARN, &c);
	pmus = load_fixture();
	if (!pmus) {
		perfev_set_log(NULL, PERFEV_LOG_WARN, NULL);
		CHECK(pmus);
	}
	perfev_pmus_count(pmus);
	perfev_pmu_format_count(perfev_pmus_find(pmus, "msr"));
	perfev_set_log(NULL, PERFEV_LOG_WARN, NULL);
	perfev_pmus_free(pmus);
	EXPECT(c.broken == 1, "%d messages about the broken PMU", c.broken);
	EXPECT(c.badfmt == 1, "%d messages about msr/format/badfmt", c.badfmt);
	EXPECT(c.warns >= 2, "%d warnings", c.warns);
	EXPECT(c.newline == 0, "a message ends in a newline");
}

/* ---- edge cases in a tree built at run time ---------------------------- */

static int put(const char *root, const char *rel, const char *content)
{
	char path[4096], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	if (!content)
		return mkdir(path, 0755);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(content, f);
	return fclose(f);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

#define DEV "bus/event_source/devices/"

TEST(pmus_edge_tree)
{
	char root[] = "/tmp/perfev-test-pmu-XXXXXX";
	struct perfev_pmus_opts o = {.sz = sizeof(o), .sysfs_root = root};
	struct perfev_pmus *pmus = NULL;
	const struct perfev_pmu *p;
	const struct perfev_alias *a;
	int err = 0;

	CHECK(mkdtemp(root));
	err |= put(root, DEV "maxtype/type", "4294967295\n");
	err |= put(root, DEV "toobig/type", "4294967296\n");
	err |= put(root, DEV "negative/type", "-1\n");
	err |= put(root, DEV "empty/type", "");
	err |= put(root, DEV "notype/cpumask", "0\n");
	err |= put(root, DEV "hybrid/type", "  8 \n");
	err |= put(root, DEV "hybrid/cpus", "0-7\n");
	err |= put(root, DEV "hybrid/rdpmc", "garbage\n");
	err |= put(root, DEV "hybrid/perf_event_mux_interval_ms", "\n");
	err |= put(root, DEV "hybrid/format/empty", "");
	err |= put(root, DEV "hybrid/format/ws", "config1:1-2\n\n");
	err |= put(root, DEV "hybrid/format/.hidden", "config:0\n");
	err |= put(root, DEV "hybrid/format/dir", NULL);
	err |= put(root, DEV "hybrid/events/ev", "  event=0x1 \n");
	err |= put(root, DEV "hybrid/events/ev.scale", "abc\n");
	err |= put(root, DEV "hybrid/events/ev.per-pkg", "1\n");
	err |= put(root, DEV "hybrid/events/ev.snapshot", "1\n");
	err |= put(root, DEV "hybrid/events/ev.unit", "\n");
	err |= put(root, DEV "hybrid/events/subdir", NULL);
	err |= put(root, DEV "hybrid/events/Upper", "event=0x2\n");
	err |= put(root, DEV "hybrid/events/lower", "event=0x3\n");
	err |= put(root, DEV "hybrid/caps/.hidden", "x\n");
	err |= put(root, DEV "hybrid/caps/slots", "4\n");
	if (err) {
		nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
		CHECK(!err);
	}

	CHECK_INT(perfev_pmus_load(&o, &pmus), 0);
	EXPECT(perfev_pmus_count(pmus) == 2, "%zu PMUs, expected maxtype and hybrid",
	       perfev_pmus_count(pmus));
	p = perfev_pmus_find(pmus, "maxtype");
	EXPECT(p && perfev_pmu_type(p) == UINT32_MAX, "maxtype");
	EXPECT(perfev_pmus_find(pmus, "toobig") == NULL, "type 2^32 accepted");
	EXPECT(perfev_pmus_find(pmus, "negative") == NULL, "type -1 accepted");
	EXPECT(perfev_pmus_find(pmus, "empty") == NULL, "empty type accepted");
	EXPECT(perfev_pmus_find(pmus, "notype") == NULL, "PMU without type accepted");
	p = perfev_pmus_find(pmus, "hybrid");
	if (p) {
		EXPECT(perfev_pmu_type(p) == 8, "hybrid type %u", perfev_pmu_type(p));
		EXPECT(perfev_pmu_cpumask(p) && !strcmp(perfev_pmu_cpumask(p), "0-7"),
		       "cpus file not used as cpumask");
		EXPECT(perfev_pmu_rdpmc(p) == -1, "rdpmc 'garbage' read as %d",
		       perfev_pmu_rdpmc(p));
		EXPECT(perfev_pmu_mux_interval_ms(p) == -1, "empty mux read as %d",
		       perfev_pmu_mux_interval_ms(p));
		EXPECT(perfev_pmu_format_count(p) == 1, "%zu formats, expected only 'ws'",
		       perfev_pmu_format_count(p));
		EXPECT(perfev_pmu_format_find(p, "ws") &&
			   perfev_pmu_format_find(p, "ws")->mask == 0x6 &&
			   perfev_pmu_format_find(p, "ws")->word == 1,
		       "format 'ws'");
		EXPECT(perfev_pmu_alias_count(p) == 3, "%zu aliases, expected ev, lower, Upper",
		       perfev_pmu_alias_count(p));
		a = perfev_pmu_alias(p, 0);
		EXPECT(a && !strcmp(a->name, "ev"), "first alias");
		a = perfev_pmu_alias(p, 1);
		EXPECT(a && !strcmp(a->name, "lower"), "second alias (case-insensitive order)");
		a = perfev_pmu_alias(p, 2);
		EXPECT(a && !strcmp(a->name, "Upper"), "third alias (case-insensitive order)");
		EXPECT(perfev_pmu_alias_find(p, "upper") == perfev_pmu_alias(p, 2), "find 'upper'");
		EXPECT(perfev_pmu_alias_find(p, "LOWER") == perfev_pmu_alias(p, 1), "find 'LOWER'");
		a = perfev_pmu_alias_find(p, "ev");
		if (a) {
			EXPECT(!strcmp(a->terms, "event=0x1"), "terms '%s' not trimmed", a->terms);
			EXPECT(a->scale == 1.0, "scale 'abc' read as %g", a->scale);
			EXPECT(a->per_pkg && a->snapshot, "per-pkg/snapshot");
			EXPECT(!a->unit || !a->unit[0], "unit '%s'", a->unit);
		}
		EXPECT(perfev_pmu_cap_count(p) == 1, "%zu caps", perfev_pmu_cap_count(p));
		EXPECT(perfev_pmu_cap_find(p, "slots") &&
			   !strcmp(perfev_pmu_cap_find(p, "slots"), "4"),
		       "cap slots");
	}
	perfev_pmus_free(pmus);
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}
