// SPDX-License-Identifier: LGPL-2.1-or-later
/* Kernel knobs under /proc/sys/kernel that shape what perf_event_open allows. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include "common/internal.h"
#include <perfev/knobs.h>

static int read_knob(const char *root, const char *name, int *out)
{
	char path[PATH_MAX];
	long long v;
	int err;

	*out = PERFEV_KNOB_UNKNOWN;
	err = perfev__path(path, sizeof(path), root, "/sys/kernel/%s", name);
	if (err)
		return err;
	err = perfev__read_int(path, &v);
	if (err)
		return err;
	if (v < INT_MIN + 1 || v > INT_MAX)
		return -ERANGE;
	*out = (int)v;
	return 0;
}

int perfev_knobs_read(const char *procfs_root, struct perfev_knobs *out)
{
	struct perfev_knobs k = {.sz = sizeof(k)};
	size_t n;
	int err;

	if (!perfev__out_ok(out, out ? out->sz : 0,
			    offsetof(struct perfev_knobs, paranoid) + sizeof(int)))
		return -EINVAL;
	if (!procfs_root)
		procfs_root = "/proc";

	err = read_knob(procfs_root, "perf_event_paranoid", &k.paranoid);
	read_knob(procfs_root, "perf_event_max_sample_rate", &k.max_sample_rate);
	read_knob(procfs_root, "perf_event_max_stack", &k.max_stack);
	read_knob(procfs_root, "perf_event_max_contexts_per_stack", &k.max_contexts_per_stack);
	read_knob(procfs_root, "perf_event_mlock_kb", &k.mlock_kb);
	read_knob(procfs_root, "perf_cpu_time_max_percent", &k.cpu_time_max_percent);
	read_knob(procfs_root, "nmi_watchdog", &k.nmi_watchdog);
	read_knob(procfs_root, "kptr_restrict", &k.kptr_restrict);

	/* Fill only what the caller's (possibly older, smaller) struct has. */
	n = out->sz < sizeof(k) ? out->sz : sizeof(k);
	k.sz = out->sz;
	memcpy(out, &k, n);
	return err == -ENOENT ? -ENOENT : 0;
}
