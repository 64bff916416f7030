// SPDX-License-Identifier: LGPL-2.1-or-later
/* CPU topology over the fixture trees in tests/data/topology and over this machine's /sys. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <perfev/perfev.h>
#include "harness.h"

#define MAX_CPUS 4096

static int load(const char *tree, struct perfev_topology **t)
{
	struct perfev_topology_opts o = {.sz = sizeof(o)};
	char root[PATH_MAX];

	snprintf(root, sizeof(root), "%s", test_data(tree));
	o.sysfs_root = root;
	*t = NULL;
	return perfev_topology_load(&o, t);
}

struct want {
	int cpu;
	bool online;
	int socket, die, core, node;
};

/* Compare every field of every CPU, by index and by number. */
static void expect_cpus(const char *tree, const struct perfev_topology *t, const struct want *w,
			size_t n)
{
	size_t i;

	EXPECT(perfev_topology_count(t) == n, "%s: %zu CPUs, expected %zu", tree,
	       perfev_topology_count(t), n);
	for (i = 0; i < n; i++) {
		const struct perfev_cpu_info *c = perfev_topology_get(t, i);

		EXPECT(c, "%s: no CPU at index %zu", tree, i);
		if (!c)
			continue;
		EXPECT(c == perfev_topology_cpu(t, w[i].cpu), "%s: cpu(%d) is not get(%zu)", tree,
		       w[i].cpu, i);
		EXPECT(
		    c->cpu == w[i].cpu && c->online == w[i].online && c->socket == w[i].socket &&
			c->die == w[i].die && c->core == w[i].core && c->node == w[i].node,
		    "%s: [%zu] cpu %d online %d socket %d die %d core %d node %d, expected cpu %d "
		    "online %d socket %d die %d core %d node %d",
		    tree, i, c->cpu, c->online, c->socket, c->die, c->core, c->node, w[i].cpu,
		    w[i].online, w[i].socket, w[i].die, w[i].core, w[i].node);
	}
	EXPECT(!perfev_topology_get(t, n), "%s: get(%zu) past the end", tree, n);
	EXPECT(!perfev_topology_get(t, SIZE_MAX), "%s: get(SIZE_MAX)", tree);
}

TEST(two_socket)
{
	static const struct want w[] = {
	    {0, true, 0, 0, 0, 0},
	    {1, true, 0, 0, 0, 0},
	    {2, true, 0, 0, 4, 0},
	    {3, true, 0, 0, 4, 0},
	    {4, true, 1, 1, 0, 1},
	    {5, true, 1, 1, 0, 1},
	    /* Offline: the kernel has removed its topology directory. */
	    {6, false, -1, -1, -1, 1},
	    {7, true, 1, 1, 4, 1},
	};
	struct perfev_topology *t;

	CHECK_INT(load("topology/two-socket", &t), 0);
	CHECK(t);
	expect_cpus("two-socket", t, w, sizeof(w) / sizeof(w[0]));
	EXPECT(!perfev_topology_cpu(t, 8), "cpu 8 exists");
	EXPECT(!perfev_topology_cpu(t, -1), "cpu -1 exists");
	EXPECT(!perfev_topology_cpu(t, INT_MAX), "cpu INT_MAX exists");
	perfev_topology_free(t);
}

TEST(two_socket_online)
{
	static const int want[] = {0, 1, 2, 3, 4, 5, 7};
	struct perfev_topology *t;
	int cpus[16], i;

	CHECK_INT(load("topology/two-socket", &t), 0);
	memset(cpus, 0xff, sizeof(cpus));
	EXPECT(perfev_topology_online(t, cpus, 16) == 7, "online: %d, expected 7",
	       perfev_topology_online(t, cpus, 16));
	for (i = 0; i < 7; i++)
		EXPECT(cpus[i] == want[i], "online[%d] = %d, expected %d", i, cpus[i], want[i]);
	EXPECT(cpus[7] == -1, "online wrote past the count");
	/* A short array gets the first @max, the return value still counts all. */
	memset(cpus, 0xff, sizeof(cpus));
	EXPECT(perfev_topology_online(t, cpus, 3) == 7, "online(max 3): %d",
	       perfev_topology_online(t, cpus, 3));
	EXPECT(cpus[0] == 0 && cpus[1] == 1 && cpus[2] == 2 && cpus[3] == -1,
	       "online(max 3): %d %d %d %d", cpus[0], cpus[1], cpus[2], cpus[3]);
	EXPECT(perfev_topology_online(t, NULL, 0) == 7, "online(NULL, 0)");
	EXPECT(perfev_topology_online(t, NULL, 5) == 7, "online(NULL, 5)");
	perfev_topology_free(t);
}

/* Kernels before 5.2 have no die_id: one die per socket, numbered 0. */
TEST(no_die_id)
{
	static const struct want w[] = {
	    {0, true, 0, 0, 0, -1},
	    {1, true, 0, 0, 1, -1},
	    {2, true, 0, 0, 2, -1},
	    {3, true, 0, 0, 3, -1},
	};
	struct perfev_topology *t;
	int cpus[4];

	CHECK_INT(load("topology/no-die", &t), 0);
	expect_cpus("no-die", t, w, sizeof(w) / sizeof(w[0]));
	EXPECT(perfev_topology_online(t, cpus, 4) == 4, "online count");
	perfev_topology_free(t);
}

/* Without an online file every possible CPU counts as online; missing files give -1. */
TEST(no_online_file)
{
	static const struct want w[] = {
	    {0, true, 3, 0, 10, 0},
	    {1, true, 3, 0, 11, 0},
	    {2, true, 3, 0, -1, 0},    /* core_id holds junk */
	    {3, true, -1, -1, -1, -1}, /* possible, but no cpu3 directory */
	};
	struct perfev_topology *t;
	int cpus[8];

	CHECK_INT(load("topology/no-online", &t), 0);
	expect_cpus("no-online", t, w, sizeof(w) / sizeof(w[0]));
	CHECK_INT(perfev_topology_online(t, cpus, 8), 4);
	CHECK(cpus[0] == 0 && cpus[1] == 1 && cpus[2] == 2 && cpus[3] == 3);
	perfev_topology_free(t);
}

TEST(bad_possible_list)
{
	struct perfev_topology *t;

	CHECK_INT(load("topology/bad-possible", &t), -EBADMSG);
	CHECK(t == NULL);
}

/* A malformed online list is an error like a malformed possible list, not "all online". */
TEST(bad_online_list)
{
	struct perfev_topology *t;
	int err = load("topology/bad-online", &t);

	EXPECT(err == -EBADMSG, "online \"0-\": load returned %d, expected %d", err, -EBADMSG);
	if (!err)
		EXPECT(perfev_topology_online(t, NULL, 0) != 2,
		       "a malformed online list made every CPU online");
	perfev_topology_free(t);
}

TEST(missing_root)
{
	struct perfev_topology_opts o = {.sz = sizeof(o), .sysfs_root = "/nonexistent/perfev-test"};
	struct perfev_topology *t = NULL;

	CHECK_INT(perfev_topology_load(&o, &t), -ENOENT);
	CHECK(t == NULL);
	/* A tree without devices/system/cpu. */
	CHECK_INT(load("topology", &t), -ENOENT);
	CHECK(t == NULL);
	/* A root that is a file. */
	CHECK_INT(load("events.txt", &t), -ENOENT);
	CHECK(t == NULL);
}

TEST(bad_opts)
{
	struct {
		struct perfev_topology_opts o;
		uint64_t tail;
	} big = {.o = {.sz = sizeof(big)}, .tail = 1};
	struct perfev_topology_opts o = {.sz = 0};
	struct perfev_topology *t = NULL;

	CHECK_INT(perfev_topology_load(NULL, NULL), -EINVAL);
	o.sz = sizeof(o);
	CHECK_INT(perfev_topology_load(&o, NULL), -EINVAL);
	o.sz = 0;
	CHECK_INT(perfev_topology_load(&o, &t), -EINVAL);
	o.sz = 4;
	CHECK_INT(perfev_topology_load(&o, &t), -EINVAL);
	CHECK(t == NULL);
	/* A newer caller's bigger struct: fine while the unknown tail is zero. */
	big.o.sysfs_root = test_data("topology/no-die");
	CHECK_INT(perfev_topology_load(&big.o, &t), -EINVAL);
	CHECK(t == NULL);
	big.tail = 0;
	CHECK_INT(perfev_topology_load(&big.o, &t), 0);
	CHECK_INT(perfev_topology_count(t), 4);
	perfev_topology_free(t);
}

TEST(null_object)
{
	int cpus[2] = {-1, -1};

	CHECK_INT(perfev_topology_count(NULL), 0);
	CHECK(!perfev_topology_get(NULL, 0));
	CHECK(!perfev_topology_cpu(NULL, 0));
	CHECK_INT(perfev_topology_online(NULL, cpus, 2), 0);
	CHECK_INT(cpus[0], -1);
	perfev_topology_free(NULL);
}

/* ---- this machine ---------------------------------------------------------- */

/* The integer in @path, or -1 (the library's "unknown"). */
static int file_int(const char *path)
{
	FILE *f = fopen(path, "re");
	int v;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* A CPU list file as a bitmap, parsed here independently of the library. */
static int file_cpulist(const char *path, bool *set, int max)
{
	char text[4096], *p = text;
	FILE *f = fopen(path, "re");
	int n = 0;

	if (!f)
		return -errno;
	if (!fgets(text, sizeof(text), f))
		text[0] = '\0';
	fclose(f);
	memset(set, 0, (size_t)max * sizeof(*set));
	while (*p && *p != '\n') {
		long lo = strtol(p, &p, 10), hi = lo, c;

		if (*p == '-')
			hi = strtol(p + 1, &p, 10);
		for (c = lo; c <= hi && c < max; c++)
			if (!set[c]) {
				set[c] = true;
				n++;
			}
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -EBADMSG;
	}
	return n;
}

static int cpu_node(int cpu)
{
	char path[PATH_MAX];
	struct dirent *de;
	int node = -1;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	d = opendir(path);
	while (d && (de = readdir(d)))
		if (!strncmp(de->d_name, "node", 4) && de->d_name[4] >= '0' && de->d_name[4] <= '9')
			node = atoi(de->d_name + 4);
	if (d)
		closedir(d);
	return node;
}

TEST(this_machine)
{
	static bool possible[MAX_CPUS], online[MAX_CPUS];
	struct perfev_topology *t = NULL;
	int np, no, cpu, *list;
	size_t idx = 0;

	np = file_cpulist("/sys/devices/system/cpu/possible", possible, MAX_CPUS);
	if (np < 0) {
		harness_skip("sysfs", "/sys/devices/system/cpu/possible: %s", strerror(-np));
		return;
	}
	no = file_cpulist("/sys/devices/system/cpu/online", online, MAX_CPUS);
	CHECK(no > 0);
	CHECK_INT(perfev_topology_load(NULL, &t), 0);
	CHECK_INT(perfev_topology_count(t), np);
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		const struct perfev_cpu_info *c;
		char path[PATH_MAX];
		int socket, die, core;

		if (!possible[cpu]) {
			EXPECT(!perfev_topology_cpu(t, cpu), "cpu %d is not possible", cpu);
			continue;
		}
		c = perfev_topology_get(t, idx++);
		EXPECT(c && c->cpu == cpu, "index %zu is cpu %d, expected %d", idx - 1,
		       c ? c->cpu : -2, cpu);
		if (!c)
			continue;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
		socket = file_int(path);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/die_id", cpu);
		die = file_int(path);
		if (die < 0 && socket >= 0)
			die = 0;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
		core = file_int(path);
		EXPECT(c->online == online[cpu], "cpu %d online %d, sysfs says %d", cpu, c->online,
		       online[cpu]);
		EXPECT(c->socket == socket, "cpu %d socket %d, sysfs %d", cpu, c->socket, socket);
		EXPECT(c->die == die, "cpu %d die %d, sysfs %d", cpu, c->die, die);
		EXPECT(c->core == core, "cpu %d core %d, sysfs %d", cpu, c->core, core);
		EXPECT(c->node == cpu_node(cpu), "cpu %d node %d, sysfs %d", cpu, c->node,
		       cpu_node(cpu));
	}
	list = calloc((size_t)no + 1, sizeof(*list));
	CHECK(list);
	EXPECT(perfev_topology_online(t, list, (size_t)no + 1) == no, "online count %d, sysfs %d",
	       perfev_topology_online(t, list, (size_t)no + 1), no);
	for (cpu = 0, idx = 0; cpu < MAX_CPUS && idx < (size_t)no; cpu++)
		if (online[cpu]) {
			EXPECT(list[idx] == cpu, "online[%zu] = %d, expected %d", idx, list[idx],
			       cpu);
			idx++;
		}
	free(list);
	perfev_topology_free(t);
}

/*
 * A caller whose struct ends before sysfs_root (sz covering only the sz
 * member, as perfev__opts_ok() accepts) has not set it: the default /sys
 * is used, whatever the bytes that follow in memory.
 */
TEST(opts_field_beyond_sz_is_ignored)
{
	struct {
		struct perfev_topology_opts o;
	} s = {.o = {.sz = sizeof(size_t), .sysfs_root = "/nonexistent/perfev-test"}};
	struct perfev_topology *t = NULL;
	int err;

	err = perfev_topology_load(&s.o, &t);
	EXPECT(err == 0, "sz %zu: load returned %d: sysfs_root, beyond sz, was read", s.o.sz, err);
	perfev_topology_free(t);
}
