// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The host's topology in a perf.data header, laid out as perf writes it
 * so that perf report --header and its topology sort keys (socket, ...)
 * read perfev's files as perf's: CPU_TOPOLOGY, NUMA_TOPOLOGY,
 * PMU_MAPPINGS, CACHE and MEM_TOPOLOGY, each from sysfs.  A feature whose
 * files cannot be read is left out, as perf leaves it out.
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <perfev/pmu.h>
#include "common/hashmap.h"
#include "common/internal.h"
#include "sample/perfdata-internal.h"

#define MAX_CPUS   4096
#define MAX_CACHES 64

/*
 * A sysfs file's first line, trimmed; false when it cannot be read or is
 * empty.  One open, read and close, no allocation: a recording reads
 * about a hundred of these before it starts.
 */
static bool sys_vtext(const char *root, char *buf, size_t len, const char *fmt, va_list ap)
{
	char rel[256], path[512];
	ssize_t n;
	int fd;

	vsnprintf(rel, sizeof(rel), fmt, ap);
	if (perfev__path(path, sizeof(path), root, "%s", rel) < 0)
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	do
		n = read(fd, buf, len - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return perfev__trim(buf) > 0;
}

static bool sys_text(const char *root, char *buf, size_t len, const char *fmt, ...)
    PERFEV__PRINTF(4, 5);

static bool sys_text(const char *root, char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	bool ok;

	va_start(ap, fmt);
	ok = sys_vtext(root, buf, len, fmt, ap);
	va_end(ap);
	return ok;
}

/* A sysfs file holding a number; @dflt when there is none (perf's -1 for an offline CPU). */
static uint32_t sys_u32(const char *root, uint32_t dflt, const char *fmt, ...) PERFEV__PRINTF(3, 4);

static uint32_t sys_u32(const char *root, uint32_t dflt, const char *fmt, ...)
{
	char buf[64], *end;
	va_list ap;
	long long v;
	bool ok;

	va_start(ap, fmt);
	ok = sys_vtext(root, buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!ok)
		return dflt;
	v = strtoll(buf, &end, 0);
	return end != buf ? (uint32_t)v : dflt;
}

/* A list of distinct strings, in the order first seen: the interner's. */
static int put_strlist(struct bytes *b, const struct perfev__intern *l)
{
	size_t i, n = perfev__intern_count(l);
	int ret = bytes_u32(b, (uint32_t)n);

	for (i = 0; !ret && i < n; i++)
		ret = bytes_string(b, perfev__intern_at(l, i));
	return ret;
}

/*
 * Each number of a sysfs list such as "0-1,4" in turn to @fn
 * (perfev_cpulist_parse() reads it).
 */
static int for_each_listed(const char *list, int (*fn)(int, void *), void *ctx)
{
	int n = perfev_cpulist_parse(list, strlen(list), NULL, 0), *v, i, ret = 0;

	if (n < 0)
		return n;
	if (n > MAX_CPUS)
		return -EINVAL;
	v = calloc((size_t)n + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	n = perfev_cpulist_parse(list, strlen(list), v, (size_t)n);
	for (i = 0; !ret && i < n; i++)
		ret = fn(v[i], ctx);
	free(v);
	return ret;
}

static int max_listed(int n, void *arg)
{
	int *max = arg;

	if (n + 1 > *max)
		*max = n + 1;
	return 0;
}

/* The possible CPUs (highest + 1), as perf counts them for the per-CPU arrays. */
static int nr_possible(const char *root)
{
	char list[1024];
	int n = 0;

	if (!sys_text(root, list, sizeof(list), "/devices/system/cpu/possible") ||
	    for_each_listed(list, max_listed, &n) || n > MAX_CPUS)
		return 0;
	return n;
}

/*
 * The sibling lists of the online CPUs (packages, cores' threads, dies),
 * then each possible CPU's core and socket ids (-1 when offline), then
 * the dies' lists and ids, as perf 5.x and later write them.
 */
static int cpu_topology(const char *root, struct bytes *b)
{
	struct perfev__intern pkg, thr, die;
	int ncpus = nr_possible(root), cpu, ret = 0;
	char buf[1024];

	if (!ncpus)
		return -ENOENT;
	perfev__intern_init(&pkg);
	perfev__intern_init(&thr);
	perfev__intern_init(&die);
	for (cpu = 0; !ret && cpu < ncpus; cpu++) {
		if (!sys_text(root, buf, sizeof(buf),
			      "/devices/system/cpu/cpu%d/topology/package_cpus_list", cpu) &&
		    !sys_text(root, buf, sizeof(buf),
			      "/devices/system/cpu/cpu%d/topology/core_siblings_list", cpu))
			continue; /* offline */
		ret = perfev__intern_str(&pkg, buf) ? 0 : -ENOMEM;
		if (!ret &&
		    (sys_text(root, buf, sizeof(buf),
			      "/devices/system/cpu/cpu%d/topology/core_cpus_list", cpu) ||
		     sys_text(root, buf, sizeof(buf),
			      "/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu)))
			ret = perfev__intern_str(&thr, buf) ? 0 : -ENOMEM;
		if (!ret && sys_text(root, buf, sizeof(buf),
				     "/devices/system/cpu/cpu%d/topology/die_cpus_list", cpu))
			ret = perfev__intern_str(&die, buf) ? 0 : -ENOMEM;
	}
	if (!ret && !perfev__intern_count(&pkg))
		ret = -ENOENT;
	if (!ret)
		ret = put_strlist(b, &pkg);
	if (!ret)
		ret = put_strlist(b, &thr);
	for (cpu = 0; !ret && cpu < ncpus; cpu++) {
		ret = bytes_u32(b, sys_u32(root, UINT32_MAX,
					   "/devices/system/cpu/cpu%d/topology/core_id", cpu));
		if (!ret)
			ret = bytes_u32(
			    b,
			    sys_u32(root, UINT32_MAX,
				    "/devices/system/cpu/cpu%d/topology/physical_package_id", cpu));
	}
	if (!ret && perfev__intern_count(&die)) {
		ret = put_strlist(b, &die);
		for (cpu = 0; !ret && cpu < ncpus; cpu++)
			ret =
			    bytes_u32(b, sys_u32(root, UINT32_MAX,
						 "/devices/system/cpu/cpu%d/topology/die_id", cpu));
	}
	perfev__intern_release(&pkg);
	perfev__intern_release(&thr);
	perfev__intern_release(&die);
	return ret;
}

struct node_ctx {
	const char *root;
	struct bytes *b;
	uint32_t n;
};

/* "Node 0 MemTotal:  4810956 kB": the kB of @key in a node's meminfo. */
static uint64_t meminfo_kb(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

static int numa_node(int node, void *arg)
{
	struct node_ctx *c = arg;
	char path[512], cpus[1024], *text = NULL;
	uint64_t total, free_kb;
	int ret;

	if (perfev__path(path, sizeof(path), c->root, "/devices/system/node/node%d/meminfo", node) <
		0 ||
	    perfev__read_file(path, &text, 1 << 16) < 0)
		return -ENOENT;
	total = meminfo_kb(text, "MemTotal:");
	free_kb = meminfo_kb(text, "MemFree:");
	free(text);
	if (!sys_text(c->root, cpus, sizeof(cpus), "/devices/system/node/node%d/cpulist", node))
		cpus[0] = 0;
	ret = bytes_u32(c->b, (uint32_t)node);
	if (!ret)
		ret = bytes_put(c->b, &total, sizeof(total));
	if (!ret)
		ret = bytes_put(c->b, &free_kb, sizeof(free_kb));
	if (!ret)
		ret = bytes_string(c->b, cpus);
	c->n++;
	return ret;
}

static int numa_topology(const char *root, struct bytes *b)
{
	struct node_ctx c = {.root = root, .b = b};
	char online[1024];
	int ret;

	if (!sys_text(root, online, sizeof(online), "/devices/system/node/online"))
		return -ENOENT;
	ret = bytes_u32(b, 0); /* the count, set below */
	if (!ret)
		ret = for_each_listed(online, numa_node, &c);
	if (!ret)
		memcpy(b->p, &c.n, sizeof(c.n));
	return ret;
}

/* Each PMU's type and name, in the order the directory lists them (perf's). */
static int pmu_mappings(const char *root, struct bytes *b)
{
	char path[512], name[256];
	struct dirent *de;
	uint32_t n = 0;
	int ret;
	DIR *d;

	if (perfev__path(path, sizeof(path), root, "/bus/event_source/devices") < 0 ||
	    !(d = opendir(path)))
		return -ENOENT;
	ret = bytes_u32(b, 0);
	while (!ret && (de = readdir(d))) {
		uint32_t type;

		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(name))
			continue;
		snprintf(name, sizeof(name), "%s", de->d_name);
		type = sys_u32(root, UINT32_MAX, "/bus/event_source/devices/%s/type", name);
		if (type == UINT32_MAX)
			continue;
		ret = bytes_u32(b, type);
		if (!ret)
			ret = bytes_string(b, name);
		n++;
	}
	closedir(d);
	if (!ret)
		memcpy(b->p, &n, sizeof(n));
	return ret;
}

struct cache {
	uint32_t level, line_size, sets, ways;
	char type[32], size[32], map[256];
};

static bool read_cache(const char *root, int cpu, int idx, struct cache *c)
{
#define CACHE_FILE "/devices/system/cpu/cpu%d/cache/index%d/%s"
	memset(c, 0, sizeof(*c));
	c->level = sys_u32(root, 0, CACHE_FILE, cpu, idx, "level");
	if (!c->level)
		return false;
	c->line_size = sys_u32(root, 0, CACHE_FILE, cpu, idx, "coherency_line_size");
	c->sets = sys_u32(root, 0, CACHE_FILE, cpu, idx, "number_of_sets");
	c->ways = sys_u32(root, 0, CACHE_FILE, cpu, idx, "ways_of_associativity");
	if (!sys_text(root, c->type, sizeof(c->type), CACHE_FILE, cpu, idx, "type") ||
	    !sys_text(root, c->size, sizeof(c->size), CACHE_FILE, cpu, idx, "size") ||
	    !sys_text(root, c->map, sizeof(c->map), CACHE_FILE, cpu, idx, "shared_cpu_list"))
		return false;
	return true;
#undef CACHE_FILE
}

/*
 * Every distinct cache of the CPUs (the same one seen from each CPU that
 * shares it counted once), by level, each level in CPU order: version 1.
 */
static int caches(const char *root, struct bytes *b)
{
	struct cache *all = calloc(MAX_CACHES, sizeof(*all)), c;
	uint32_t n = 0, max_level = 0, level, k;
	int ncpus = nr_possible(root), cpu, idx, ret = 0;

	if (!all)
		return -ENOMEM;
	for (cpu = 0; cpu < ncpus && n < MAX_CACHES; cpu++) {
		for (idx = 0; idx < 16 && n < MAX_CACHES && read_cache(root, cpu, idx, &c); idx++) {
			for (k = 0; k < n && memcmp(&all[k], &c, sizeof(c)); k++)
				;
			if (k == n)
				all[n++] = c;
			if (c.level > max_level)
				max_level = c.level;
		}
	}
	if (!n) {
		free(all);
		return -ENOENT;
	}
	ret = bytes_u32(b, 1);
	if (!ret)
		ret = bytes_u32(b, n);
	for (level = 1; level <= max_level; level++) {
		for (k = 0; !ret && k < n; k++) {
			const struct cache *x = &all[k];

			if (x->level != level)
				continue;
			ret = bytes_u32(b, x->level);
			if (!ret)
				ret = bytes_u32(b, x->line_size);
			if (!ret)
				ret = bytes_u32(b, x->sets);
			if (!ret)
				ret = bytes_u32(b, x->ways);
			if (!ret)
				ret = bytes_string(b, x->type);
			if (!ret)
				ret = bytes_string(b, x->size);
			if (!ret)
				ret = bytes_string(b, x->map);
		}
	}
	free(all);
	return ret;
}

/* The memoryN blocks of a node as a bitmap of (highest block + 1) bits, u64 words. */
struct mem_node {
	uint64_t node, nbits;
	uint64_t *bits;
};

static int mem_node_read(const char *root, int node, struct mem_node *m)
{
	char path[512];
	struct dirent *de;
	DIR *d;

	m->node = (uint64_t)node;
	if (perfev__path(path, sizeof(path), root, "/devices/system/node/node%d", node) < 0 ||
	    !(d = opendir(path)))
		return -ENOENT;
	/* Two passes: the highest block sizes the bitmap. */
	for (int pass = 0; pass < 2; pass++) {
		rewinddir(d);
		while ((de = readdir(d))) {
			char *end;
			unsigned long long blk;

			if (strncmp(de->d_name, "memory", 6) ||
			    !isdigit((unsigned char)de->d_name[6]))
				continue;
			blk = strtoull(de->d_name + 6, &end, 10);
			if (*end || blk >= (1ULL << 24))
				continue;
			if (!pass && blk + 1 > m->nbits)
				m->nbits = blk + 1;
			else if (pass && blk < m->nbits) /* not one added between the passes */
				m->bits[blk / 64] |= 1ULL << (blk % 64);
		}
		if (!pass && !(m->bits = calloc((m->nbits + 63) / 64 + 1, sizeof(uint64_t)))) {
			closedir(d);
			return -ENOMEM;
		}
	}
	closedir(d);
	return 0;
}

struct mem_ctx {
	const char *root;
	PERFEV__ARRAY(struct mem_node) nodes;
};

static int mem_node_add(int node, void *arg)
{
	struct mem_ctx *c = arg;
	struct mem_node m = {0};
	int ret = mem_node_read(c->root, node, &m);

	if (ret == -ENOENT)
		return 0;
	if (!ret && (ret = perfev__array_append(&c->nodes, &m, 1)))
		free(m.bits);
	return ret;
}

/* Version 1, the block size, then each node: number, bitmap size, the bitmap (its size again,
 * words). */
static int mem_topology(const char *root, struct bytes *b)
{
	struct mem_ctx c = {.root = root};
	char online[1024], bs[64];
	uint64_t v[3];
	int ret;

	if (!sys_text(root, bs, sizeof(bs), "/devices/system/memory/block_size_bytes") ||
	    !sys_text(root, online, sizeof(online), "/devices/system/node/online"))
		return -ENOENT;
	ret = for_each_listed(online, mem_node_add, &c);
	if (!ret && !c.nodes.n)
		ret = -ENOENT;
	v[0] = 1;
	v[1] = strtoull(bs, NULL, 16);
	v[2] = c.nodes.n;
	if (!ret)
		ret = bytes_put(b, v, sizeof(v));
	for (size_t i = 0; !ret && i < c.nodes.n; i++) {
		uint64_t h[3] = {c.nodes.v[i].node, c.nodes.v[i].nbits, c.nodes.v[i].nbits};

		ret = bytes_put(b, h, sizeof(h));
		if (!ret)
			ret = bytes_put(b, c.nodes.v[i].bits,
					(c.nodes.v[i].nbits + 63) / 64 * sizeof(uint64_t));
	}
	for (size_t i = 0; i < c.nodes.n; i++)
		free(c.nodes.v[i].bits);
	perfev__array_release(&c.nodes);
	return ret;
}

int perfev__data_set_topology(struct perfev_data_writer *w, const char *sysfs_root)
{
	static const struct {
		int feat;
		int (*build)(const char *root, struct bytes *b);
	} feats[] = {
	    {PERFEV_FEAT_CPU_TOPOLOGY, cpu_topology}, {PERFEV_FEAT_NUMA_TOPOLOGY, numa_topology},
	    {PERFEV_FEAT_PMU_MAPPINGS, pmu_mappings}, {PERFEV_FEAT_CACHE, caches},
	    {PERFEV_FEAT_MEM_TOPOLOGY, mem_topology},
	};
	int ret = 0;

	if (!sysfs_root)
		sysfs_root = "/sys";
	for (size_t i = 0; !ret && i < sizeof(feats) / sizeof(feats[0]); i++) {
		struct bytes b = {0};
		int err = feats[i].build(sysfs_root, &b);

		/* What sysfs does not say is left out; only a failed allocation fails. */
		if (!err)
			ret = perfev_data_set_feature(w, feats[i].feat, b.p, b.len);
		else if (err == -ENOMEM)
			ret = err;
		free(b.p);
	}
	return ret;
}
