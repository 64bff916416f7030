/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Diagnostics for perf_event_open(2) failures: a specific explanation for
 * each errno of the manual's ERRORS section, naming the attr field or the
 * system setting at fault and how to fix it.
 */
#ifndef PERFEV_DIAG_H
#define PERFEV_DIAG_H

#include <sys/types.h>
#include <perfev/abi.h>
#include <perfev/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What was attempted: the arguments of the failed call. */
struct perfev_diag_ctx {
	size_t sz; /* sizeof(struct perfev_diag_ctx) */
	pid_t pid;
	int cpu;
	int group_fd;
	unsigned long flags;
	const char *procfs_root; /* for perf_event_* knobs; default "/proc" */
	const char *sysfs_root;	 /* for PMU lookups; default "/sys" */
};

/*
 * Write into @buf (NUL-terminated, truncated to @len) why
 * perf_event_open(@attr, ...) failed with @err (either sign) and what to
 * do about it, e.g.
 *
 *   "permission denied: perf_event_paranoid is 2, which allows only
 *    user-space measurement without CAP_PERFMON; add ':u' to the event
 *    (exclude_kernel), run as root, or lower it with
 *    'sysctl kernel.perf_event_paranoid=1'"
 *
 * The message starts with the short errno meaning and has no trailing
 * newline.  @attr may be NULL (the message is then less specific).
 * Returns the length of the full message (as snprintf), or -EINVAL.
 */
PERFEV_API int perfev_diagnose(int err, const struct perf_event_attr *attr,
			       const struct perfev_diag_ctx *ctx, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_DIAG_H */
