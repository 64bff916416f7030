// SPDX-License-Identifier: LGPL-2.1-or-later
/* The PERF_EVENT_IOC_* ioctls and the prctl() switches, returning -errno. */
#include <errno.h>
#include <sys/ioctl.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include "common/internal.h"
#include <perfev/control.h>

#define QUERY_BPF_MAX 64

static int ret(long r)
{
	return r < 0 ? -errno : (int)r;
}

static unsigned long group_flag(bool group)
{
	return group ? PERF_IOC_FLAG_GROUP : 0;
}

int perfev_ioc_enable(int fd, bool group)
{
	return ret(ioctl(fd, PERF_EVENT_IOC_ENABLE, group_flag(group)));
}

int perfev_ioc_disable(int fd, bool group)
{
	return ret(ioctl(fd, PERF_EVENT_IOC_DISABLE, group_flag(group)));
}

int perfev_ioc_reset(int fd, bool group)
{
	return ret(ioctl(fd, PERF_EVENT_IOC_RESET, group_flag(group)));
}

int perfev_ioc_refresh(int fd, int count)
{
	/* The kernel takes 0 and negative counts, with no defined meaning. */
	if (count <= 0)
		return -EINVAL;
	return ret(ioctl(fd, PERF_EVENT_IOC_REFRESH, count));
}

int perfev_ioc_period(int fd, uint64_t period)
{
	return ret(ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
}

int perfev_ioc_set_output(int fd, int target_fd)
{
	/* The kernel compares the argument with -1 as an unsigned long: sign-extend. */
	return ret(ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)(long)target_fd));
}

int perfev_ioc_set_filter(int fd, const char *filter)
{
	if (!filter)
		return -EINVAL;
	return ret(ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter));
}

int perfev_ioc_id(int fd, uint64_t *id)
{
	if (!id)
		return -EINVAL;
	return ret(ioctl(fd, PERF_EVENT_IOC_ID, id));
}

int perfev_ioc_set_bpf(int fd, int prog_fd)
{
	return ret(ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog_fd));
}

int perfev_ioc_pause_output(int fd, bool pause)
{
	return ret(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, pause ? 1UL : 0UL));
}

int perfev_ioc_query_bpf(int fd, uint32_t *ids, uint32_t max)
{
	struct perf_event_query_bpf *q;
	size_t bytes = sizeof(*q) + (size_t)max * sizeof(uint32_t);
	int r;

	if (max && !ids)
		return -EINVAL;
	/* The kernel refuses a longer list than it can attach (BPF_TRACE_MAX_PROGS). */
	if (max > QUERY_BPF_MAX)
		max = QUERY_BPF_MAX;
	q = calloc(1, bytes);
	if (!q)
		return -ENOMEM;
	q->ids_len = max;
	r = ret(ioctl(fd, PERF_EVENT_IOC_QUERY_BPF, q));
	/* ENOSPC means "more than ids_len": prog_cnt still says how many. */
	if (!r || r == -ENOSPC) {
		if (ids && max)
			memcpy(ids, q->ids,
			       (q->prog_cnt < max ? q->prog_cnt : max) * sizeof(uint32_t));
		r = (int)q->prog_cnt;
	}
	free(q);
	return r;
}

int perfev_ioc_modify_attributes(int fd, const struct perf_event_attr *attr)
{
	if (!attr)
		return -EINVAL;
	return ret(ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, attr));
}

int perfev_prctl_enable(void)
{
	return ret(prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
}

int perfev_prctl_disable(void)
{
	return ret(prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
}
