// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Explain a perf_event_open(2) failure: which attr field or system setting
 * is at fault and what to do.  The kernel gives one errno for many causes
 * (EINVAL above all), so the checks below look at the attr and at the
 * machine to find the most likely one, in the order the kernel checks.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>
#include "internal.h"
#include <perfev/diag.h>
#include <perfev/knobs.h>
#include <perfev/pmu.h>

#define CAP_SYS_ADMIN_BIT 21
#define CAP_PERFMON_BIT	  38

struct dctx {
	const struct perf_event_attr *a;
	struct perfev_diag_ctx c;
	struct perfev_knobs k;
	char *buf;
	size_t len, pos;
	int total;
};

static void say(struct dctx *d, const char *fmt, ...) PERFEV__PRINTF(2, 3);

static void say(struct dctx *d, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(d->len > d->pos ? d->buf + d->pos : NULL,
		      d->len > d->pos ? d->len - d->pos : 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	d->total += n;
	d->pos += (size_t)n;
}

static bool have_cap(unsigned int bit)
{
	char *status, *p;
	unsigned long long eff;
	bool r = false;

	if (perfev__read_file("/proc/self/status", &status, 1 << 16) < 0)
		return geteuid() == 0;
	p = strstr(status, "\nCapEff:");
	if (p && sscanf(p + 8, "%llx", &eff) == 1)
		r = eff >> bit & 1;
	free(status);
	return r;
}

static bool privileged(void)
{
	return have_cap(CAP_PERFMON_BIT) || have_cap(CAP_SYS_ADMIN_BIT);
}

static const char *type_name(uint32_t t)
{
	switch (t) {
	case PERF_TYPE_HARDWARE:
		return "hardware";
	case PERF_TYPE_SOFTWARE:
		return "software";
	case PERF_TYPE_TRACEPOINT:
		return "tracepoint";
	case PERF_TYPE_HW_CACHE:
		return "hardware cache";
	case PERF_TYPE_RAW:
		return "raw";
	case PERF_TYPE_BREAKPOINT:
		return "breakpoint";
	}
	return NULL;
}

static void diag_e2big(struct dctx *d)
{
	const unsigned char *p = (const unsigned char *)d->a;
	unsigned int size = d->a ? d->a->size : 0, want = perfev__last_e2big_size(), i;

	say(d, "attr size not accepted: ");
	if (!d->a) {
		say(d, "the kernel refused the size of perf_event_attr");
		return;
	}
	if (size && size < PERF_ATTR_SIZE_VER0) {
		say(d, "attr.size %u is below the smallest valid size %u (PERF_ATTR_SIZE_VER0)",
		    size, PERF_ATTR_SIZE_VER0);
		return;
	}
	if (size > 4096) {
		say(d, "attr.size %u is larger than a page", size);
		return;
	}
	if (!want || want >= size) {
		say(d,
		    "this kernel does not know all %u bytes of the attr and some of the unknown "
		    "ones are set; update the kernel or clear the newer fields",
		    size);
		return;
	}
	for (i = want; i < size && !p[i]; i++)
		;
	if (i < size) {
		const char *f = perfev__attr_field_at(i);

		say(d, "this kernel knows %u-byte attrs, but byte %u", want, i);
		if (f)
			say(d, " (field '%s')", f);
		say(d, " is set; clear it or use a newer kernel");
		if (f && !strcmp(f, "config3"))
			say(d, " (config3 needs Linux 6.3)");
		else if (f && !strcmp(f, "sig_data"))
			say(d, " (sig_data needs Linux 5.13)");
		return;
	}
	say(d, "this kernel knows %u-byte attrs", want);
}

static void diag_access(struct dctx *d, int err)
{
	const struct perf_event_attr *a = d->a;
	int paranoid = d->k.paranoid;

	say(d, "%s: ", err == EPERM ? "operation not permitted" : "permission denied");
	if (paranoid != PERFEV_KNOB_UNKNOWN && paranoid > 2) {
		say(d,
		    "perf_event_paranoid is %d, which disables perf_event_open for unprivileged "
		    "users; run as root or with CAP_PERFMON, or 'sysctl "
		    "kernel.perf_event_paranoid=2'",
		    paranoid);
		return;
	}
	if (a && a->type == PERF_TYPE_TRACEPOINT && err == EPERM) {
		say(d,
		    "tracepoint id %llu belongs to the function tracer (ftrace:function), which "
		    "perf may not use this way",
		    (unsigned long long)a->config);
		return;
	}
	if (a && a->type == PERF_TYPE_BREAKPOINT && err == EPERM) {
		say(d, "breakpoints on kernel addresses (0x%llx) need CAP_PERFMON or CAP_SYS_ADMIN",
		    (unsigned long long)a->bp_addr);
		return;
	}
	if (privileged() && err == EPERM) {
		say(d, "this PMU cannot apply the requested exclude_user/exclude_kernel/exclude_hv/"
		       "exclude_idle combination; drop the u/k/h/I modifiers");
		return;
	}
	if (d->c.pid == -1 || (d->c.flags & PERF_FLAG_PID_CGROUP)) {
		say(d,
		    "measuring all processes on cpu %d needs CAP_PERFMON (or CAP_SYS_ADMIN) or "
		    "perf_event_paranoid <= 0 (it is %d); run as root or "
		    "'sysctl kernel.perf_event_paranoid=0'",
		    d->c.cpu, paranoid);
		return;
	}
	if (a && !a->exclude_kernel && paranoid >= 2) {
		say(d,
		    "perf_event_paranoid is %d, which allows only user-space measurement without "
		    "CAP_PERFMON; add ':u' to the event (exclude_kernel), run as root, or lower it "
		    "with 'sysctl kernel.perf_event_paranoid=1'",
		    paranoid);
		return;
	}
	if (a && a->type == PERF_TYPE_TRACEPOINT && paranoid > -1) {
		say(d,
		    "raw tracepoint samples need CAP_PERFMON or perf_event_paranoid -1 (it is %d)",
		    paranoid);
		return;
	}
	if (d->c.pid > 0 && d->c.pid != getpid()) {
		say(d,
		    "attaching to pid %d needs ptrace access to it (same user, and "
		    "kernel.yama.ptrace_scope permitting) or CAP_PERFMON",
		    (int)d->c.pid);
		return;
	}
	say(d,
	    "the event needs CAP_PERFMON or CAP_SYS_ADMIN at perf_event_paranoid=%d; run as "
	    "root or lower the setting with sysctl",
	    paranoid);
}

static long online_cpus(void)
{
	return sysconf(_SC_NPROCESSORS_CONF);
}

static bool is_valid_bp(const struct perf_event_attr *a)
{
	uint64_t len = a->bp_len;

	if (a->bp_type == HW_BREAKPOINT_EMPTY || (a->bp_type & ~(uint32_t)HW_BREAKPOINT_INVALID) ||
	    a->bp_type == HW_BREAKPOINT_INVALID)
		return false;
	if (a->bp_type & HW_BREAKPOINT_X)
		return len == sizeof(long) && !(a->bp_addr % len);
	if (len != 1 && len != 2 && len != 4 && len != 8)
		return false;
	return !(a->bp_addr & (len - 1));
}

static void diag_einval(struct dctx *d)
{
	const struct perf_event_attr *a = d->a;
	long ncpu = online_cpus();

	say(d, "invalid argument: ");
	if (d->c.cpu >= 0 && ncpu > 0 && d->c.cpu >= ncpu) {
		say(d, "cpu %d does not exist (this machine has %ld, numbered 0-%ld)", d->c.cpu,
		    ncpu, ncpu - 1);
		return;
	}
	if (d->c.flags & ~(PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT | PERF_FLAG_PID_CGROUP |
			   PERF_FLAG_FD_CLOEXEC)) {
		say(d, "flags 0x%lx has bits the kernel does not know", d->c.flags);
		return;
	}
	if (!a) {
		say(d, "the kernel refused the attr");
		return;
	}
	if (a->freq && d->k.max_sample_rate != PERFEV_KNOB_UNKNOWN &&
	    a->sample_freq > (uint64_t)d->k.max_sample_rate) {
		say(d,
		    "sample_freq %llu Hz is above perf_event_max_sample_rate %d; lower the "
		    "frequency (-F) or raise it with 'sysctl "
		    "kernel.perf_event_max_sample_rate=%llu'",
		    (unsigned long long)a->sample_freq, d->k.max_sample_rate,
		    (unsigned long long)a->sample_freq);
		return;
	}
	if (a->read_format >> 5) {
		say(d, "read_format 0x%llx has bits this kernel does not know",
		    (unsigned long long)a->read_format);
		return;
	}
	if (a->sample_type >> 25) {
		say(d, "sample_type 0x%llx has bits this kernel does not know",
		    (unsigned long long)a->sample_type);
		return;
	}
	if ((a->pinned || a->exclusive) && d->c.group_fd >= 0) {
		say(d, "%s may only be set on a group leader, not on a member (group_fd %d)",
		    a->pinned ? "pinned (modifier D)" : "exclusive (modifier e)", d->c.group_fd);
		return;
	}
	if (a->sigtrap && !a->remove_on_exec) {
		say(d, "sigtrap requires remove_on_exec, so the signal cannot reach a new program "
		       "after exec");
		return;
	}
	if (a->type == PERF_TYPE_BREAKPOINT && !is_valid_bp(a)) {
		say(d,
		    "breakpoint at 0x%llx: bp_type must be r, w, rw or x, bp_len 1, 2, 4 or 8 "
		    "bytes (a long for x), and the address aligned to bp_len",
		    (unsigned long long)a->bp_addr);
		return;
	}
	if (a->use_clockid) {
		say(d,
		    "clockid %d is not a clock perf can use (use CLOCK_MONOTONIC, "
		    "CLOCK_MONOTONIC_RAW, CLOCK_REALTIME, CLOCK_BOOTTIME or CLOCK_TAI)",
		    a->clockid);
		return;
	}
	if (a->type == PERF_TYPE_HARDWARE && (a->config & 0xffffffff) >= PERF_COUNT_HW_MAX) {
		say(d, "there is no generic hardware event %llu", (unsigned long long)a->config);
		return;
	}
	if (a->type == PERF_TYPE_HW_CACHE &&
	    ((a->config & 0xff) >= PERF_COUNT_HW_CACHE_MAX ||
	     (a->config >> 8 & 0xff) >= PERF_COUNT_HW_CACHE_OP_MAX ||
	     (a->config >> 16 & 0xff) >= PERF_COUNT_HW_CACHE_RESULT_MAX)) {
		say(d, "config 0x%llx is not a valid cache/op/result triple",
		    (unsigned long long)a->config);
		return;
	}
	if (a->type > PERF_TYPE_BREAKPOINT && (a->sample_period || a->freq) &&
	    (a->exclude_user || a->exclude_kernel || a->exclude_hv || a->exclude_guest)) {
		say(d, "this PMU refused the request: it may not support sampling or the exclude_* "
		       "bits (modifiers u, k, h and the default exclude_guest)");
		return;
	}
	if (a->type > PERF_TYPE_BREAKPOINT &&
	    (a->exclude_user || a->exclude_kernel || a->exclude_hv || a->exclude_guest)) {
		say(d,
		    "this PMU cannot filter by privilege level or guest/host: drop the u/k/h/G/H "
		    "modifiers (exclude_* bits)");
		return;
	}
	if (a->type > PERF_TYPE_BREAKPOINT && (a->sample_period || a->freq)) {
		say(d, "this PMU cannot sample; count the event instead (no period or frequency)");
		return;
	}
	if (a->aux_output) {
		say(d, "aux_output needs a group led by an AUX event (intel_pt, arm_spe)");
		return;
	}
	say(d, "the kernel refused a field of the attr: config bits this PMU reserves, an "
	       "unsupported combination of settings, or a group that cannot fit on the PMU; "
	       "'perfev attr --open' shows every field passed");
}

static void diag_enoent(struct dctx *d)
{
	const struct perf_event_attr *a = d->a;
	const char *tn;

	say(d, "no such event: ");
	if (!a) {
		say(d, "the event type is unknown to this kernel");
		return;
	}
	tn = type_name(a->type);
	if (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE) {
		say(d,
		    "this CPU has no %s event %#llx: there is no hardware PMU (common in virtual "
		    "machines) or it lacks this generic event; use a software event such as "
		    "task-clock or cpu-clock",
		    tn, (unsigned long long)a->config);
		return;
	}
	if (a->type == PERF_TYPE_SOFTWARE) {
		say(d, "this kernel has no software event %llu", (unsigned long long)a->config);
		return;
	}
	if (a->type == PERF_TYPE_TRACEPOINT) {
		say(d, "no tracepoint has id %llu", (unsigned long long)a->config);
		return;
	}
	if (a->type == PERF_TYPE_RAW) {
		say(d, "no PMU takes raw events on this machine (no hardware PMU)");
		return;
	}
	if (!tn) {
		struct perfev_pmus_opts po = {.sz = sizeof(po), .sysfs_root = d->c.sysfs_root};
		struct perfev_pmus *pmus = NULL;
		const struct perfev_pmu *pmu = NULL;

		if (!perfev_pmus_load(&po, &pmus))
			pmu = perfev_pmus_find_type(pmus, a->type);
		if (pmu)
			say(d, "PMU '%s' (type %u) does not know config 0x%llx",
			    perfev_pmu_name(pmu), a->type, (unsigned long long)a->config);
		else
			say(d,
			    "no PMU has type %u on this machine (see "
			    "/sys/bus/event_source/devices/*/type)",
			    a->type);
		perfev_pmus_free(pmus);
		return;
	}
	say(d, "the %s event is not supported here", tn);
}

static void diag_eopnotsupp(struct dctx *d)
{
	const struct perf_event_attr *a = d->a;

	say(d, "operation not supported: ");
	if (a && (a->sample_type & PERF_SAMPLE_BRANCH_STACK)) {
		say(d,
		    "branch stack sampling (branch_sample_type, -b/-j) is not available for this "
		    "event; it needs a hardware PMU with LBR/BRBE");
		return;
	}
	if (a && a->precise_ip) {
		say(d,
		    "precise_ip %u (modifier '%.*s') is not supported by this PMU; use fewer 'p' "
		    "or ':P' to get the highest level that works",
		    a->precise_ip, (int)a->precise_ip, "ppp");
		return;
	}
	if (a && (a->sample_period || a->freq)) {
		say(d, "this event cannot sample (its PMU has no overflow interrupt); count it "
		       "instead");
		return;
	}
	if (a && a->aux_output) {
		say(d, "this event cannot write AUX records (aux_output)");
		return;
	}
	say(d, "the PMU lacks a feature the event asks for");
}

int perfev_diagnose(int err, const struct perf_event_attr *attr, const struct perfev_diag_ctx *ctx,
		    char *buf, size_t len)
{
	struct dctx d = {.a = attr, .buf = buf, .len = len};
	struct rlimit rl;

	if ((!buf && len) || !perfev__opts_ok(ctx, ctx ? ctx->sz : 0, sizeof(*ctx)))
		return -EINVAL;
	if (len)
		buf[0] = '\0';
	if (err < 0)
		err = -err;
	d.c.pid = 0;
	d.c.cpu = -1;
	d.c.group_fd = -1;
	if (ctx)
		memcpy(&d.c, ctx, ctx->sz < sizeof(d.c) ? ctx->sz : sizeof(d.c));
	d.k.sz = sizeof(d.k);
	perfev_knobs_read(d.c.procfs_root, &d.k);

	switch (err) {
	case E2BIG:
		diag_e2big(&d);
		break;
	case EACCES:
	case EPERM:
		diag_access(&d, err);
		break;
	case EBADF:
		if (d.c.flags & PERF_FLAG_PID_CGROUP)
			say(&d,
			    "bad file descriptor: pid %d should be an open fd of a cgroup "
			    "directory "
			    "(/sys/fs/cgroup/NAME) when PERF_FLAG_PID_CGROUP is set",
			    (int)d.c.pid);
		else
			say(&d,
			    "bad file descriptor: group_fd %d is not an open perf event (group "
			    "leader) file descriptor",
			    d.c.group_fd);
		break;
	case EBUSY:
		say(&d,
		    "device busy: another event already has exclusive use of this PMU (PMUs such "
		    "as intel_pt allow one user; or an 'exclusive' group holds it)");
		break;
	case EFAULT:
		say(&d, "bad address: the attr pointer does not point to readable memory");
		break;
	case EINTR:
		say(&d, "interrupted: this uprobe is already enabled through ftrace (tracefs), and "
			"the kernel does not let perf and ftrace share it; disable it in "
			"events/uprobes/*/enable first");
		break;
	case EINVAL:
		diag_einval(&d);
		break;
	case EMFILE:
		if (getrlimit(RLIMIT_NOFILE, &rl))
			rl.rlim_cur = 0;
		say(&d,
		    "too many open files: every event is one file descriptor and this process "
		    "reached its limit (RLIMIT_NOFILE %llu); raise it with 'ulimit -n' or measure "
		    "fewer events or CPUs",
		    (unsigned long long)rl.rlim_cur);
		break;
	case ENFILE:
		say(&d, "too many open files in the system: raise fs.file-max or close files");
		break;
	case ENODEV:
		if (d.c.cpu >= 0)
			say(&d,
			    "no such device: cpu %d is offline or not covered by this event's PMU "
			    "(see its cpumask); pick an online CPU from "
			    "/sys/devices/system/cpu/online",
			    d.c.cpu);
		else
			say(&d, "no such device: this CPU lacks a feature the event needs");
		break;
	case ENOENT:
		diag_enoent(&d);
		break;
	case ENOSPC:
		if (attr && attr->type == PERF_TYPE_BREAKPOINT)
			say(&d,
			    "no space left: all hardware breakpoint (debug) registers are in use; "
			    "x86 has 4, shared by every breakpoint on the thread or CPU");
		else
			say(&d, "no space left: the PMU has no free counter for this event");
		break;
	case ENOSYS:
		if (attr && (attr->sample_type & PERF_SAMPLE_STACK_USER))
			say(&d, "not implemented: this architecture cannot dump the user stack "
				"(PERF_SAMPLE_STACK_USER, --call-graph dwarf); use frame pointers");
		else
			say(&d, "not implemented: this kernel has no perf_event_open "
				"(CONFIG_PERF_EVENTS is off)");
		break;
	case EOPNOTSUPP:
		diag_eopnotsupp(&d);
		break;
	case EOVERFLOW:
		say(&d,
		    "value too large: sample_max_stack %u is above perf_event_max_stack %d; "
		    "lower --max-stack or raise it with 'sysctl kernel.perf_event_max_stack=%u'",
		    attr ? attr->sample_max_stack : 0, d.k.max_stack,
		    attr ? attr->sample_max_stack : 0);
		break;
	case ESRCH:
		say(&d, "no such process: pid %d does not exist (or has exited)", (int)d.c.pid);
		break;
	default:
		say(&d, "%s", perfev_strerror(err));
		break;
	}
	return d.total;
}
