// SPDX-License-Identifier: LGPL-2.1-or-later
/* CPU topology from /sys/devices/system/cpu, for per-core/die/socket aggregation. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include "common/internal.h"
#include <perfev/pmu.h>
#include <perfev/topology.h>

struct perfev_topology {
	struct perfev_cpu_info *cpus; /* ascending */
	size_t n;
};

/* Parse a CPU list file into a fresh array; returns the count or -errno. */
static int read_cpulist(const char *path, int **out)
{
	char *text;
	int n, *cpus;
	ssize_t len = perfev__read_file(path, &text, 1 << 20);

	if (len < 0)
		return (int)len;
	n = perfev_cpulist_parse(text, (size_t)len, NULL, 0);
	if (n < 0) {
		free(text);
		return n;
	}
	cpus = calloc(n ? (size_t)n : 1, sizeof(*cpus));
	if (!cpus) {
		free(text);
		return -ENOMEM;
	}
	perfev_cpulist_parse(text, (size_t)len, cpus, (size_t)n);
	free(text);
	*out = cpus;
	return n;
}

static int read_id(const char *root, int cpu, const char *file)
{
	char path[PATH_MAX];
	long long v;

	if (perfev__path(path, sizeof(path), root, "/devices/system/cpu/cpu%d/topology/%s", cpu,
			 file) ||
	    perfev__read_int(path, &v) || v < INT_MIN || v > INT_MAX)
		return -1;
	return (int)v;
}

static int read_node(const char *root, int cpu)
{
	char path[PATH_MAX];
	struct dirent *de;
	int node = -1;
	DIR *d;

	if (perfev__path(path, sizeof(path), root, "/devices/system/cpu/cpu%d", cpu))
		return -1;
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char *end;
		long v;

		if (strncmp(de->d_name, "node", 4) || !de->d_name[4])
			continue;
		v = strtol(de->d_name + 4, &end, 10);
		if (!*end && v >= 0 && v <= INT_MAX) {
			node = (int)v;
			break;
		}
	}
	closedir(d);
	return node;
}

static bool contains(const int *cpus, int n, int cpu)
{
	int i;

	for (i = 0; i < n; i++)
		if (cpus[i] == cpu)
			return true;
	return false;
}

int perfev_topology_load(const struct perfev_topology_opts *opts, struct perfev_topology **out)
{
	const char *root = "/sys";
	char path[PATH_MAX];
	int *possible = NULL, *online = NULL, np, no, i;
	struct perfev_topology *t;

	if (!out || !perfev__opts_ok(opts, opts ? opts->sz : 0, sizeof(*opts)))
		return -EINVAL;
	root = PERFEV__OPT(opts, sysfs_root, NULL) ?: root;
	if (perfev__path(path, sizeof(path), root, "/devices/system/cpu/possible"))
		return -ENAMETOOLONG;
	np = read_cpulist(path, &possible);
	if (np < 0)
		return np == -ENOTDIR ? -ENOENT : np;
	perfev__path(path, sizeof(path), root, "/devices/system/cpu/online");
	no = read_cpulist(path, &online);
	if (no == -EBADMSG) {
		free(possible);
		return no;
	}
	if (no < 0) {
		/* Without an online list, every possible CPU is taken to be online. */
		online = NULL;
		no = -1;
	}
	t = calloc(1, sizeof(*t));
	if (!t || !(t->cpus = calloc(np ? (size_t)np : 1, sizeof(*t->cpus)))) {
		free(t);
		free(possible);
		free(online);
		return -ENOMEM;
	}
	for (i = 0; i < np; i++) {
		struct perfev_cpu_info *c = &t->cpus[i];
		int die;

		c->cpu = possible[i];
		c->online = no < 0 || contains(online, no, c->cpu);
		c->socket = read_id(root, c->cpu, "physical_package_id");
		die = read_id(root, c->cpu, "die_id");
		/* Kernels before 5.2 have no dies: one per socket. */
		c->die = die < 0 && c->socket >= 0 ? 0 : die;
		c->core = read_id(root, c->cpu, "core_id");
		c->node = read_node(root, c->cpu);
	}
	t->n = (size_t)np;
	free(possible);
	free(online);
	*out = t;
	return 0;
}

void perfev_topology_free(struct perfev_topology *t)
{
	if (!t)
		return;
	free(t->cpus);
	free(t);
}

size_t perfev_topology_count(const struct perfev_topology *t)
{
	return t ? t->n : 0;
}

const struct perfev_cpu_info *perfev_topology_get(const struct perfev_topology *t, size_t idx)
{
	return t && idx < t->n ? &t->cpus[idx] : NULL;
}

const struct perfev_cpu_info *perfev_topology_cpu(const struct perfev_topology *t, int cpu)
{
	size_t i;

	for (i = 0; t && i < t->n; i++)
		if (t->cpus[i].cpu == cpu)
			return &t->cpus[i];
	return NULL;
}

int perfev_topology_online(const struct perfev_topology *t, int *cpus, size_t max)
{
	size_t i, n = 0;

	for (i = 0; t && i < t->n; i++) {
		if (!t->cpus[i].online)
			continue;
		if (n < max && cpus)
			cpus[n] = t->cpus[i].cpu;
		n++;
	}
	return (int)n;
}
