/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kernel settings that govern perf_event_open(2), read from
 * /proc/sys/kernel (perf_event_open(2), "perf_event related configuration
 * files").
 */
#ifndef PERFEV_KNOBS_H
#define PERFEV_KNOBS_H

#include <perfev/core.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PERFEV_KNOB_UNKNOWN (-2147483647 - 1) /* INT_MIN: file missing or unreadable */

struct perfev_knobs {
	size_t sz;	     /* sizeof(struct perfev_knobs), set by the caller */
	int paranoid;	     /* perf_event_paranoid: 2, 1, 0, -1 (or higher on some distros) */
	int max_sample_rate; /* perf_event_max_sample_rate, samples per second */
	int max_stack;	     /* perf_event_max_stack, callchain frames */
	int max_contexts_per_stack; /* perf_event_max_contexts_per_stack */
	int mlock_kb;		    /* perf_event_mlock_kb, per-user ring buffer budget */
	int cpu_time_max_percent;   /* perf_cpu_time_max_percent */
	int nmi_watchdog;	    /* nmi_watchdog: 1 means one counter is taken */
	int kptr_restrict;	    /* kptr_restrict: kernel addresses hidden when > 0 */
};

/*
 * Read every knob under @procfs_root ("/proc" when NULL).  Missing files
 * leave the field at PERFEV_KNOB_UNKNOWN; this is not an error.
 *
 * Fields are filled up to out->sz: a caller built against an older header
 * gets the prefix it knows, and fields of a newer header that this
 * library does not know are left as the caller set them.
 *
 * Returns 0, or -EINVAL when @out is NULL or out->sz does not reach the
 * first knob, or -ENOENT when perf_event_paranoid is absent (the kernel
 * has no perf_event support: the manual's official probe).
 */
PERFEV_API int perfev_knobs_read(const char *procfs_root, struct perfev_knobs *out);

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_KNOBS_H */
