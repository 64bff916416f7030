// SPDX-License-Identifier: LGPL-2.1-or-later
/* The host topology features of perf.data headers, built from a made-up sysfs tree. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <perfev/perfdata.h>
#include "harness.h"
#include "sample/perfdata-internal.h"

static char root[64];

/* Write @text to ROOT/@rel, making the directories on the way. */
static void put(const char *rel, const char *text)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(path, 0755);
		*p = '/';
	}
	if (text) {
		FILE *f = fopen(path, "w");

		if (f) {
			fputs(text, f);
			fclose(f);
		}
	} else {
		mkdir(path, 0755);
	}
}

/*
 * Four possible CPUs in two packages, the last one offline; one L1 data
 * cache on each of CPUs 0 and 1; two NUMA nodes with memory blocks 0, 2
 * and 65; one PMU.
 */
static void make_tree(void)
{
	static const struct {
		const char *rel, *text;
	} files[] = {
	    {"devices/system/cpu/possible", "0-3\n"},
	    {"devices/system/cpu/cpu0/topology/package_cpus_list", "0-1\n"},
	    {"devices/system/cpu/cpu0/topology/core_cpus_list", "0\n"},
	    {"devices/system/cpu/cpu0/topology/core_id", "0\n"},
	    {"devices/system/cpu/cpu0/topology/physical_package_id", "0\n"},
	    {"devices/system/cpu/cpu1/topology/core_siblings_list", "0-1\n"},
	    {"devices/system/cpu/cpu1/topology/thread_siblings_list", "1\n"},
	    {"devices/system/cpu/cpu1/topology/core_id", "1\n"},
	    {"devices/system/cpu/cpu1/topology/physical_package_id", "0\n"},
	    {"devices/system/cpu/cpu2/topology/package_cpus_list", "2-3\n"},
	    {"devices/system/cpu/cpu2/topology/core_cpus_list", "2\n"},
	    {"devices/system/cpu/cpu2/topology/core_id", "0\n"},
	    {"devices/system/cpu/cpu2/topology/physical_package_id", "1\n"},
	    {"devices/system/cpu/cpu0/cache/index0/level", "1\n"},
	    {"devices/system/cpu/cpu0/cache/index0/coherency_line_size", "64\n"},
	    {"devices/system/cpu/cpu0/cache/index0/number_of_sets", "64\n"},
	    {"devices/system/cpu/cpu0/cache/index0/ways_of_associativity", "8\n"},
	    {"devices/system/cpu/cpu0/cache/index0/type", "Data\n"},
	    {"devices/system/cpu/cpu0/cache/index0/size", "32K\n"},
	    {"devices/system/cpu/cpu0/cache/index0/shared_cpu_list", "0\n"},
	    {"devices/system/cpu/cpu0/cache/index1/level", "2\n"},
	    {"devices/system/cpu/cpu0/cache/index1/coherency_line_size", "64\n"},
	    {"devices/system/cpu/cpu0/cache/index1/number_of_sets", "1024\n"},
	    {"devices/system/cpu/cpu0/cache/index1/ways_of_associativity", "8\n"},
	    {"devices/system/cpu/cpu0/cache/index1/type", "Unified\n"},
	    {"devices/system/cpu/cpu0/cache/index1/size", "512K\n"},
	    {"devices/system/cpu/cpu0/cache/index1/shared_cpu_list", "0-1\n"},
	    {"devices/system/cpu/cpu1/cache/index0/level", "1\n"},
	    {"devices/system/cpu/cpu1/cache/index0/coherency_line_size", "64\n"},
	    {"devices/system/cpu/cpu1/cache/index0/number_of_sets", "64\n"},
	    {"devices/system/cpu/cpu1/cache/index0/ways_of_associativity", "8\n"},
	    {"devices/system/cpu/cpu1/cache/index0/type", "Data\n"},
	    {"devices/system/cpu/cpu1/cache/index0/size", "32K\n"},
	    {"devices/system/cpu/cpu1/cache/index0/shared_cpu_list", "1\n"},
	    {"devices/system/node/online", "0-1\n"},
	    {"devices/system/node/node0/meminfo",
	     "Node 0 MemTotal:   1000 kB\nNode 0 MemFree:  400 kB\n"},
	    {"devices/system/node/node0/cpulist", "0-1\n"},
	    {"devices/system/node/node0/memory0", NULL},
	    {"devices/system/node/node0/memory2", NULL},
	    {"devices/system/node/node1/meminfo",
	     "Node 1 MemTotal:   2000 kB\nNode 1 MemFree:  10 kB\n"},
	    {"devices/system/node/node1/cpulist", "2-3\n"},
	    {"devices/system/node/node1/memory65", NULL},
	    {"devices/system/memory/block_size_bytes", "8000000\n"},
	    {"bus/event_source/devices/cpu/type", "4\n"},
	};

	snprintf(root, sizeof(root), "/tmp/perfev-host-XXXXXX");
	CHECK(mkdtemp(root));
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		put(files[i].rel, files[i].text);
}

static void remove_tree(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	EXPECT(system(cmd) == 0, "cannot remove %s", root);
}

static void u32(struct bytes *b, uint32_t v)
{
	CHECK(!bytes_u32(b, v));
}

static void u64(struct bytes *b, uint64_t v)
{
	CHECK(!bytes_put(b, &v, sizeof(v)));
}

static void str(struct bytes *b, const char *s)
{
	CHECK(!bytes_string(b, s));
}

static void expect_feature(struct perfev_data_reader *r, int feat, const struct bytes *want)
{
	const void *data;
	size_t len;

	CHECK_INT(perfev_data_feature(r, feat, &data, &len), 0);
	EXPECT(len == want->len && !memcmp(data, want->p, len),
	       "feature %d: %zu bytes, %zu expected", feat, len, want->len);
}

/* The topology features of the tree at @root, written by a writer and read back. */
static struct perfev_data_reader *write_topology(int *fd)
{
	struct perfev_data_write_opts o = {.sz = sizeof(o)};
	struct perf_event_attr attr = {.type = PERF_TYPE_SOFTWARE, .size = sizeof(attr)};
	struct perfev_data_writer *w;
	struct perfev_data_reader *r = NULL;
	uint64_t id = 1;

	o.fd = *fd = memfd_create("perfev-test", MFD_CLOEXEC);
	if (o.fd < 0 || perfev_data_create(NULL, &o, &w))
		return NULL;
	if (perfev_data_add_attr(w, &attr, "cpu-clock", &id, 1) ||
	    perfev__data_set_topology(w, root) || perfev_data_finish(w)) {
		perfev_data_writer_free(w);
		return NULL;
	}
	perfev_data_writer_free(w);
	if (perfev_data_open_fd(o.fd, NULL, &r))
		return NULL;
	return r;
}

TEST(topology_features)
{
	struct bytes cpu = {0}, numa = {0}, pmu = {0}, cache = {0}, mem = {0};
	struct perfev_data_reader *r;
	int fd;

	make_tree();
	r = write_topology(&fd);
	CHECK(r != NULL);

	/* Packages, threads (core_siblings/thread_siblings where the newer names are missing). */
	u32(&cpu, 2), str(&cpu, "0-1"), str(&cpu, "2-3");
	u32(&cpu, 3), str(&cpu, "0"), str(&cpu, "1"), str(&cpu, "2");
	/* Core and socket of each possible CPU, -1 for the offline one; no dies here. */
	u32(&cpu, 0), u32(&cpu, 0), u32(&cpu, 1), u32(&cpu, 0), u32(&cpu, 0), u32(&cpu, 1);
	u32(&cpu, UINT32_MAX), u32(&cpu, UINT32_MAX);
	expect_feature(r, PERFEV_FEAT_CPU_TOPOLOGY, &cpu);

	u32(&numa, 2);
	u32(&numa, 0), u64(&numa, 1000), u64(&numa, 400), str(&numa, "0-1");
	u32(&numa, 1), u64(&numa, 2000), u64(&numa, 10), str(&numa, "2-3");
	expect_feature(r, PERFEV_FEAT_NUMA_TOPOLOGY, &numa);

	u32(&pmu, 1), u32(&pmu, 4), str(&pmu, "cpu");
	expect_feature(r, PERFEV_FEAT_PMU_MAPPINGS, &pmu);

	/* By level, each level in CPU order; a cache seen from two CPUs once. */
	u32(&cache, 1), u32(&cache, 3);
	u32(&cache, 1), u32(&cache, 64), u32(&cache, 64), u32(&cache, 8);
	str(&cache, "Data"), str(&cache, "32K"), str(&cache, "0");
	u32(&cache, 1), u32(&cache, 64), u32(&cache, 64), u32(&cache, 8);
	str(&cache, "Data"), str(&cache, "32K"), str(&cache, "1");
	u32(&cache, 2), u32(&cache, 64), u32(&cache, 1024), u32(&cache, 8);
	str(&cache, "Unified"), str(&cache, "512K"), str(&cache, "0-1");
	expect_feature(r, PERFEV_FEAT_CACHE, &cache);

	/* Version, block size, nodes: number, bitmap bits twice, the words. */
	u64(&mem, 1), u64(&mem, 0x8000000), u64(&mem, 2);
	u64(&mem, 0), u64(&mem, 3), u64(&mem, 3), u64(&mem, 0x5);
	u64(&mem, 1), u64(&mem, 66), u64(&mem, 66), u64(&mem, 0), u64(&mem, 0x2);
	expect_feature(r, PERFEV_FEAT_MEM_TOPOLOGY, &mem);

	perfev_data_close(r);
	close(fd);
	free(cpu.p), free(numa.p), free(pmu.p), free(cache.p), free(mem.p);
	remove_tree();
}

/* A tree with nothing in it: every topology feature is left out, nothing fails. */
TEST(topology_features_missing)
{
	struct perfev_data_reader *r;
	const void *data;
	size_t len;
	int fd;

	snprintf(root, sizeof(root), "/tmp/perfev-host-XXXXXX");
	CHECK(mkdtemp(root));
	r = write_topology(&fd);
	CHECK(r != NULL);
	for (int feat = PERFEV_FEAT_CPU_TOPOLOGY; feat <= PERFEV_FEAT_MEM_TOPOLOGY; feat++)
		EXPECT(perfev_data_feature(r, feat, &data, &len) == -ENOENT, "feature %d set",
		       feat);
	perfev_data_close(r);
	close(fd);
	remove_tree();
}
