// SPDX-License-Identifier: LGPL-2.1-or-later
/* perf_event knobs from the fixture tests/data/proc: values, missing files, sized structs. */
#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <perfev/perfev.h>
#include "harness.h"

/* Each knob, its file, and where it lives in the struct. */
static const struct {
	const char *file;
	size_t offset;
} knobs[] = {
    {"perf_event_paranoid", offsetof(struct perfev_knobs, paranoid)},
    {"perf_event_max_sample_rate", offsetof(struct perfev_knobs, max_sample_rate)},
    {"perf_event_max_stack", offsetof(struct perfev_knobs, max_stack)},
    {"perf_event_max_contexts_per_stack", offsetof(struct perfev_knobs, max_contexts_per_stack)},
    {"perf_event_mlock_kb", offsetof(struct perfev_knobs, mlock_kb)},
    {"perf_cpu_time_max_percent", offsetof(struct perfev_knobs, cpu_time_max_percent)},
    {"nmi_watchdog", offsetof(struct perfev_knobs, nmi_watchdog)},
    {"kptr_restrict", offsetof(struct perfev_knobs, kptr_restrict)},
};
#define N_KNOBS (sizeof(knobs) / sizeof(knobs[0]))

static int field(const struct perfev_knobs *k, size_t i)
{
	int v;

	memcpy(&v, (const char *)k + knobs[i].offset, sizeof(v));
	return v;
}

/* The integer in <root>/sys/kernel/<file>, read independently of the library. */
static bool file_value(const char *root, const char *file, int *out)
{
	char path[4096];
	FILE *f;
	int ok;

	if (snprintf(path, sizeof(path), "%s/sys/kernel/%s", root, file) >= (int)sizeof(path))
		return false;
	f = fopen(path, "r");
	if (!f)
		return false;
	ok = fscanf(f, "%d", out) == 1;
	fclose(f);
	return ok;
}

TEST(knobs_fixture)
{
	struct perfev_knobs k;
	char root[4096];
	size_t i;

	snprintf(root, sizeof(root), "%s", test_data("proc"));
	memset(&k, 0x5a, sizeof(k));
	k.sz = sizeof(k);
	CHECK_INT(perfev_knobs_read(root, &k), 0);
	CHECK_INT(k.sz, sizeof(k));
	for (i = 0; i < N_KNOBS; i++) {
		int want;

		CHECK(file_value(root, knobs[i].file, &want));
		EXPECT(field(&k, i) == want, "%s: %d, file says %d", knobs[i].file, field(&k, i),
		       want);
	}
	/* The fixture's values, spelled out, so a wrong file would be noticed too. */
	CHECK_INT(k.paranoid, 2);
	CHECK_INT(k.max_sample_rate, 100000);
	CHECK_INT(k.max_stack, 127);
	CHECK_INT(k.max_contexts_per_stack, 8);
	CHECK_INT(k.mlock_kb, 516);
	CHECK_INT(k.cpu_time_max_percent, 25);
	CHECK_INT(k.nmi_watchdog, 0);
	CHECK_INT(k.kptr_restrict, 0);
}

TEST(knobs_missing_root)
{
	struct perfev_knobs k;
	size_t i;

	memset(&k, 0x5a, sizeof(k));
	k.sz = sizeof(k);
	/* No perf_event_paranoid: the kernel has no perf_event support. */
	CHECK_INT(perfev_knobs_read("/nonexistent/perfev-test", &k), -ENOENT);
	CHECK_INT(k.sz, sizeof(k));
	for (i = 0; i < N_KNOBS; i++)
		EXPECT(field(&k, i) == PERFEV_KNOB_UNKNOWN, "%s: %d, expected PERFEV_KNOB_UNKNOWN",
		       knobs[i].file, field(&k, i));
	/* A root that exists but is not procfs. */
	memset(&k, 0, sizeof(k));
	k.sz = sizeof(k);
	CHECK_INT(perfev_knobs_read(test_data("sysfs"), &k), -ENOENT);
	CHECK_INT(k.paranoid, PERFEV_KNOB_UNKNOWN);
	CHECK_INT(k.kptr_restrict, PERFEV_KNOB_UNKNOWN);
}

TEST(knobs_prefix_struct)
{
	/* An older caller: its struct ends after max_sample_rate. */
	struct {
		size_t sz;
		int paranoid;
		int max_sample_rate;
		int sentinel[8];
	} small;
	char root[4096];
	size_t n;
	int i;

	snprintf(root, sizeof(root), "%s", test_data("proc"));
	for (n = offsetof(struct perfev_knobs, paranoid) + sizeof(int);
	     n <= offsetof(struct perfev_knobs, max_stack); n += sizeof(int)) {
		memset(&small, 0x5a, sizeof(small));
		small.sz = n;
		for (i = 0; i < 8; i++)
			small.sentinel[i] = 0x5a5a5a5a;
		CHECK_INT(perfev_knobs_read(root, (struct perfev_knobs *)&small), 0);
		CHECK_INT(small.sz, n);
		CHECK_INT(small.paranoid, 2);
		if (n > offsetof(struct perfev_knobs, max_sample_rate))
			CHECK_INT(small.max_sample_rate, 100000);
		else
			CHECK_INT(small.max_sample_rate, 0x5a5a5a5a);
		for (i = 0; i < 8; i++)
			CHECK_INT(small.sentinel[i], 0x5a5a5a5a);
	}
}

TEST(knobs_prefix_missing_root)
{
	struct {
		size_t sz;
		int paranoid;
		int sentinel;
	} small = {.sz = offsetof(struct perfev_knobs, paranoid) + sizeof(int),
		   .sentinel = 0x12345678};

	CHECK_INT(perfev_knobs_read("/nonexistent", (struct perfev_knobs *)&small), -ENOENT);
	CHECK_INT(small.paranoid, PERFEV_KNOB_UNKNOWN);
	CHECK_INT(small.sentinel, 0x12345678);
}

TEST(knobs_bigger_struct)
{
	/* A newer caller with a field this library does not know. */
	struct {
		struct perfev_knobs k;
		int extra;
	} big;
	char root[4096];

	snprintf(root, sizeof(root), "%s", test_data("proc"));
	memset(&big, 0, sizeof(big));
	big.k.sz = sizeof(big);
	CHECK_INT(perfev_knobs_read(root, &big.k), 0);
	CHECK_INT(big.k.sz, sizeof(big));
	CHECK_INT(big.k.paranoid, 2);
	CHECK_INT(big.k.kptr_restrict, 0);
	CHECK_INT(big.extra, 0);
	/* A field this library does not know is left as the caller set it. */
	memset(&big, 0, sizeof(big));
	big.k.sz = sizeof(big);
	big.extra = 7;
	CHECK_INT(perfev_knobs_read(root, &big.k), 0);
	CHECK_INT(big.k.paranoid, 2);
	CHECK_INT(big.extra, 7);
}

TEST(knobs_bad_args)
{
	struct perfev_knobs k;
	char root[4096];

	snprintf(root, sizeof(root), "%s", test_data("proc"));
	CHECK_INT(perfev_knobs_read(root, NULL), -EINVAL);
	memset(&k, 0x5a, sizeof(k));
	k.sz = 0;
	CHECK_INT(perfev_knobs_read(root, &k), -EINVAL);
	CHECK_INT(k.paranoid, 0x5a5a5a5a); /* untouched */
	k.sz = sizeof(size_t);
	CHECK_INT(perfev_knobs_read(root, &k), -EINVAL);
	k.sz = offsetof(struct perfev_knobs, paranoid) + sizeof(int) - 1;
	CHECK_INT(perfev_knobs_read(root, &k), -EINVAL);
	CHECK_INT(k.paranoid, 0x5a5a5a5a);
	CHECK_INT(k.sz, offsetof(struct perfev_knobs, paranoid) + sizeof(int) - 1);
}

static int put(const char *dir, const char *name, const char *content)
{
	char path[4096];
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/sys/kernel/%s", dir, name) >= (int)sizeof(path))
		return -1;
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

TEST(knobs_odd_files)
{
	char root[] = "/tmp/perfev-test-knobs-XXXXXX";
	char path[4096];
	struct perfev_knobs k = {.sz = sizeof(k)};
	int err = 0;

	CHECK(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/sys", root);
	err |= mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sys/kernel", root);
	err |= mkdir(path, 0755);
	err |= put(root, "perf_event_paranoid", "-1\n");
	err |= put(root, "perf_event_max_sample_rate", "garbage\n");
	err |= put(root, "perf_event_max_stack", "99999999999\n");
	err |= put(root, "perf_event_mlock_kb", "\n");
	err |= put(root, "perf_cpu_time_max_percent", "  0  \n");
	err |= put(root, "kptr_restrict", "2");
	/* nmi_watchdog and perf_event_max_contexts_per_stack are absent. */
	if (!err)
		err = perfev_knobs_read(root, &k);
	nftw(root, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	CHECK_INT(err, 0);
	CHECK_INT(k.paranoid, -1);
	CHECK_INT(k.max_sample_rate, PERFEV_KNOB_UNKNOWN);
	CHECK_INT(k.max_stack, PERFEV_KNOB_UNKNOWN);
	CHECK_INT(k.mlock_kb, PERFEV_KNOB_UNKNOWN);
	CHECK_INT(k.cpu_time_max_percent, 0);
	CHECK_INT(k.kptr_restrict, 2);
	CHECK_INT(k.nmi_watchdog, PERFEV_KNOB_UNKNOWN);
	CHECK_INT(k.max_contexts_per_stack, PERFEV_KNOB_UNKNOWN);
}
