/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kernel ABI used by libperfev.
 *
 * The definitions come from the installed <linux/perf_event.h>.  Constants
 * that a newer kernel added and an older header may lack are defined here
 * behind #ifndef, each with the kernel release that introduced it, so the
 * library builds against old headers and still speaks to new kernels.
 */
#ifndef PERFEV_ABI_H
#define PERFEV_ABI_H

#include <linux/perf_event.h>
#include <linux/hw_breakpoint.h>

/* attr.size milestones (ABI, see perf_event_open(2) "size"). */
#ifndef PERF_ATTR_SIZE_VER6
#define PERF_ATTR_SIZE_VER6 120 /* aux_sample_size, Linux 5.5 */
#endif
#ifndef PERF_ATTR_SIZE_VER7
#define PERF_ATTR_SIZE_VER7 128 /* sig_data, Linux 5.13 */
#endif
#ifndef PERF_ATTR_SIZE_VER8
#define PERF_ATTR_SIZE_VER8 136 /* config3, Linux 6.3 */
#endif

/*
 * The largest perf_event_attr this library fills in.  config3 lives at
 * byte offset 128 whether or not the installed header declares it.
 */
#define PERFEV_ATTR_SIZE_MAX	   PERF_ATTR_SIZE_VER8
#define PERFEV_ATTR_CONFIG3_OFFSET 128

/* Software event ids added after the first releases. */
#define PERFEV_COUNT_SW_BPF_OUTPUT	10 /* Linux 4.4 */
#define PERFEV_COUNT_SW_CGROUP_SWITCHES 11 /* Linux 5.13 */

/* read_format bits. */
#define PERFEV_FORMAT_LOST (1U << 4) /* Linux 6.0 */

/* sample_type bits newer than some headers. */
#define PERFEV_SAMPLE_WEIGHT_STRUCT  (1ULL << 24) /* Linux 5.12 */
#define PERFEV_SAMPLE_DATA_PAGE_SIZE (1ULL << 22) /* Linux 5.11 */
#define PERFEV_SAMPLE_CODE_PAGE_SIZE (1ULL << 23) /* Linux 5.11 */

/* branch_sample_type bits. */
#define PERFEV_SAMPLE_BRANCH_PRIV_SAVE (1ULL << 18) /* Linux 6.1 */
#define PERFEV_SAMPLE_BRANCH_COUNTERS  (1ULL << 19) /* Linux 6.8 */

/* ioctls; the header has had all of these since Linux 4.17. */
#ifndef PERF_EVENT_IOC_PAUSE_OUTPUT
#define PERF_EVENT_IOC_PAUSE_OUTPUT _IOW('$', 9, __u32) /* Linux 4.7 */
#endif
#ifndef PERF_EVENT_IOC_QUERY_BPF
#define PERF_EVENT_IOC_QUERY_BPF _IOWR('$', 10, struct perf_event_query_bpf *) /* Linux 4.16 */
#endif
#ifndef PERF_EVENT_IOC_MODIFY_ATTRIBUTES
#define PERF_EVENT_IOC_MODIFY_ATTRIBUTES _IOW('$', 11, struct perf_event_attr *) /* Linux 4.17 */
#endif

#ifndef PERF_FLAG_FD_CLOEXEC
#define PERF_FLAG_FD_CLOEXEC (1UL << 3) /* Linux 3.14 */
#endif

#endif /* PERFEV_ABI_H */
