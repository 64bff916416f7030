/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Controlling open events: the PERF_EVENT_IOC_* ioctls and the prctl()
 * switches (perf_event_open(2), "perf_event ioctl calls" and "Using
 * prctl(2)").  Each returns 0 (or a count) on success, a negative errno
 * on failure; @group applies the operation to the whole group of @fd's
 * leader (PERF_IOC_FLAG_GROUP) where the kernel supports it.
 */
#ifndef PERFEV_CONTROL_H
#define PERFEV_CONTROL_H

#include <stdbool.h>
#include <stdint.h>
#include <perfev/abi.h>
#include <perfev/core.h>

#ifdef __cplusplus
extern "C" {
#endif

PERFEV_API int perfev_ioc_enable(int fd, bool group);
PERFEV_API int perfev_ioc_disable(int fd, bool group);
PERFEV_API int perfev_ioc_reset(int fd, bool group);
/* Allow @count (> 0) more overflows, then disable (POLL_HUP).  -EINVAL for @count <= 0. */
PERFEV_API int perfev_ioc_refresh(int fd, int count);
/* New sample period (or frequency for freq events). */
PERFEV_API int perfev_ioc_period(int fd, uint64_t period);
/* Send @fd's ring buffer records to @target_fd's buffer; -1 stops. */
PERFEV_API int perfev_ioc_set_output(int fd, int target_fd);
/* ftrace filter for a tracepoint event ("prev_pid == 1"). */
PERFEV_API int perfev_ioc_set_filter(int fd, const char *filter);
/* The kernel's id of the event (the one PERF_FORMAT_ID reports). */
PERFEV_API int perfev_ioc_id(int fd, uint64_t *id);
/* Attach BPF program @prog_fd (a tracepoint, kprobe or perf_event program). */
PERFEV_API int perfev_ioc_set_bpf(int fd, int prog_fd);
/* Stop (true) or resume writing into the ring buffer. */
PERFEV_API int perfev_ioc_pause_output(int fd, bool pause);
/*
 * Ids of the BPF programs attached to @fd's tracepoint, up to @max into
 * @ids.  Returns how many are attached (which may exceed @max).
 */
PERFEV_API int perfev_ioc_query_bpf(int fd, uint32_t *ids, uint32_t max);
/* Change attributes of an open event (breakpoints: bp_addr, bp_len, bp_type). */
PERFEV_API int perfev_ioc_modify_attributes(int fd, const struct perf_event_attr *attr);

/* prctl(PR_TASK_PERF_EVENTS_ENABLE/DISABLE): every event attached to this process. */
PERFEV_API int perfev_prctl_enable(void);
PERFEV_API int perfev_prctl_disable(void);

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_CONTROL_H */
