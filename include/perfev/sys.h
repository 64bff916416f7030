/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The perf_event_open(2) system call, with attr size negotiation.
 */
#ifndef PERFEV_SYS_H
#define PERFEV_SYS_H

#include <sys/types.h>
#include <perfev/abi.h>
#include <perfev/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Call perf_event_open(2).  @attr->size bytes are passed, so @attr may
 * point into a buffer larger than the installed header's struct (fields
 * such as config3 at offset 128).  When @attr->size is 0 the library uses
 * PERFEV_ATTR_SIZE_MAX, which requires such a buffer.
 *
 * Size negotiation: when the kernel refuses the size with E2BIG it writes
 * back the size it supports.  If every byte of @attr beyond that size is
 * zero the call is retried with the kernel's size (the kernel would have
 * ignored those bytes anyway); otherwise -E2BIG is returned and
 * perfev_diagnose() names the unsupported field.  The negotiated size is
 * remembered for later calls (see perfev_sys_attr_size()).  @attr itself
 * is never modified.
 *
 * PERF_FLAG_FD_CLOEXEC is added to @flags unless PERFEV_OPEN_NO_CLOEXEC
 * is given.
 *
 * Returns the new file descriptor, or a negative errno (see the ERRORS
 * section of perf_event_open(2) and perfev_diagnose()).
 */
#define PERFEV_OPEN_NO_CLOEXEC (~0UL ^ (~0UL >> 1)) /* the top bit of @flags */
PERFEV_API int perfev_sys_open(const struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			       unsigned long flags);

/*
 * The attr size the running kernel accepted last, or 0 when no call has
 * needed to negotiate yet (the kernel accepted the library's full size).
 */
PERFEV_API unsigned int perfev_sys_attr_size(void);

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_SYS_H */
