/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CPU topology for aggregating counts per core, die and socket, read from
 * /sys/devices/system/cpu (injectable root, like the PMU database).
 */
#ifndef PERFEV_TOPOLOGY_H
#define PERFEV_TOPOLOGY_H

#include <stdbool.h>
#include <perfev/core.h>

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_topology;

struct perfev_topology_opts {
	size_t sz;
	const char *sysfs_root; /* default "/sys" */
};

/* Where one CPU sits.  Ids are the kernel's; -1 when unknown. */
struct perfev_cpu_info {
	int cpu;
	bool online;
	int socket; /* topology/physical_package_id */
	int die;    /* topology/die_id (0 where the kernel has no dies) */
	int core;   /* topology/core_id: unique within its die */
	int node;   /* NUMA node (the nodeN link), -1 without NUMA */
};

/*
 * Read the topology of every possible CPU.  Errors: -ENOENT (no
 * /sys/devices/system/cpu), -EINVAL, -ENOMEM.
 */
PERFEV_API int perfev_topology_load(const struct perfev_topology_opts *opts,
				    struct perfev_topology **out);
PERFEV_API void perfev_topology_free(struct perfev_topology *topo);

/* Number of CPUs described (possible CPUs, online or not). */
PERFEV_API size_t perfev_topology_count(const struct perfev_topology *topo);
/* The @idx-th CPU in ascending order, or NULL. */
PERFEV_API const struct perfev_cpu_info *perfev_topology_get(const struct perfev_topology *topo,
							     size_t idx);
/* CPU number @cpu, or NULL when it does not exist. */
PERFEV_API const struct perfev_cpu_info *perfev_topology_cpu(const struct perfev_topology *topo,
							     int cpu);
/*
 * The online CPUs in ascending order into @cpus (up to @max).  Returns
 * how many are online (which may exceed @max).
 */
PERFEV_API int perfev_topology_online(const struct perfev_topology *topo, int *cpus, size_t max);

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_TOPOLOGY_H */
