// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Explain a perf_event_open(2) failure: which attr field or system setting
 * is at fault and what to do.  The kernel gives one errno for many causes
 * (EINVAL above all), so the checks below look at the attr and at the
 * machine to find the most likely one, in the order the kernel checks.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>
#include "common/internal.h"
#include <perfev/diag.h>
#include <perfev/event.h>
#include <perfev/knobs.h>
#include <perfev/pmu.h>
#include <perfev/reading.h>
#include <perfev/sys.h>
#include <perfev/tracefs.h>

#define CAP_SYS_ADMIN_BIT 21
#define READ_SIZE_MAX	  (16 * 1024) /* the kernel's limit on a read() of a group */
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

#if defined(__x86_64__) || defined(__i386__)
#define BP_REGISTERS "x86 has 4"
#else
#define BP_REGISTERS "a CPU has only a few"
#endif

static const char *sysfs_root(const struct dctx *d)
{
	return d->c.sysfs_root ? d->c.sysfs_root : "/sys";
}

/* The tracefs directory (holding events/) of the machine diagnosed. */
static int tracefs_dir(const struct dctx *d, char *buf, size_t len)
{
	struct perfev_tracefs_opts o = {.sz = sizeof(o), .sysfs_root = d->c.sysfs_root};
	struct perfev_tracefs *t;
	int err = perfev_tracefs_open(&o, &t);

	if (err)
		return err;
	snprintf(buf, len, "%s", perfev_tracefs_path(t));
	perfev_tracefs_free(t);
	return 0;
}

/* 1 when tracepoint id @id is ftrace:function, 0 when not, -errno when unknown. */
static int is_ftrace_function(const struct dctx *d, uint64_t id)
{
	struct perfev_tracefs_opts o = {.sz = sizeof(o), .sysfs_root = d->c.sysfs_root};
	struct perfev_tracefs *t;
	uint64_t fn;
	int err = perfev_tracefs_open(&o, &t);

	if (err)
		return err;
	err = perfev_tracefs_id(t, "ftrace", "function", &fn);
	perfev_tracefs_free(t);
	if (err == -ENOENT)
		return 0;
	return err ? err : fn == id;
}

/*
 * "GROUP/EVENT" of the uprobe in tracefs uprobe_events whose tracepoint id
 * is @id; the tracefs directory goes to @dir.
 */
static bool uprobe_name(const struct dctx *d, uint64_t id, char *dir, size_t dlen, char *name,
			size_t len)
{
	char path[PATH_MAX], *text, *line, *save = NULL;
	bool found = false;

	if (tracefs_dir(d, dir, dlen) ||
	    snprintf(path, sizeof(path), "%s/uprobe_events", dir) >= (int)sizeof(path) ||
	    perfev__read_file(path, &text, 1 << 20) < 0)
		return false;
	/* Lines are "p:GROUP/EVENT PATH:OFFSET ..." (r: for return probes). */
	for (line = strtok_r(text, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		char *ev = strchr(line, ':');
		long long v;

		if (!ev)
			continue;
		ev++;
		ev[strcspn(ev, " \t")] = '\0';
		if (!strchr(ev, '/') ||
		    snprintf(path, sizeof(path), "%s/events/%s/id", dir, ev) >= (int)sizeof(path) ||
		    perfev__read_int(path, &v) || v < 0 || (uint64_t)v != id)
			continue;
		snprintf(name, len, "%s", ev);
		found = true;
	}
	free(text);
	return found;
}

/* 1 when @cpu is online, 0 when offline, -errno when unknown; @list gets the online list. */
static int cpu_online(const struct dctx *d, int cpu, char *list, size_t len)
{
	char path[PATH_MAX], *text;
	int cpus[4096], n, i;

	if (perfev__path(path, sizeof(path), sysfs_root(d), "/devices/system/cpu/online") ||
	    perfev__read_file(path, &text, 1 << 16) < 0)
		return -ENOENT;
	perfev__trim(text);
	snprintf(list, len, "%s", text);
	n = perfev_cpulist_parse(text, strlen(text), cpus, PERFEV__ARRAY_SIZE(cpus));
	free(text);
	if (n < 0 || n > (int)PERFEV__ARRAY_SIZE(cpus))
		return -EBADMSG;
	for (i = 0; i < n; i++)
		if (cpus[i] == cpu)
			return 1;
	return 0;
}

/* Is there a CPU core PMU: one of type PERF_TYPE_RAW, or named like one? */
static bool core_pmu_present(const struct dctx *d)
{
	struct perfev_pmus_opts po = {.sz = sizeof(po), .sysfs_root = d->c.sysfs_root};
	struct perfev_pmus *pmus = NULL;
	bool found = false;
	size_t i;

	if (perfev_pmus_load(&po, &pmus))
		return true; /* unknown: do not claim there is none */
	for (i = 0; i < perfev_pmus_count(pmus) && !found; i++) {
		const struct perfev_pmu *pmu = perfev_pmus_get(pmus, i);
		const char *name = perfev_pmu_name(pmu);

		found = perfev_pmu_type(pmu) == PERF_TYPE_RAW || !strcmp(name, "cpu") ||
			!strncmp(name, "cpu_", 4) || !strncmp(name, "armv", 4);
	}
	perfev_pmus_free(pmus);
	return found;
}

/* perf's name of a generic hardware, cache or software event, or NULL. */
static const char *event_name(const struct perf_event_attr *a, char *buf, size_t len)
{
	uint64_t config = a->config & 0xffffffff; /* the high half selects a hybrid PMU */
	size_t i;

	if (a->type == PERF_TYPE_HW_CACHE) {
		uint64_t c;

		for (i = 0; perfev_cache_event_get(i, buf, len, &c) >= 0; i++)
			if (c == config)
				return buf;
		return NULL;
	}
	for (i = 0; i < perfev_symbol_count(); i++) {
		const struct perfev_symbol *sym = perfev_symbol_get(i);

		if (sym->kind != PERFEV_KIND_TOOL && sym->type == a->type && sym->config == config)
			return sym->name;
	}
	return NULL;
}

/*
 * The kernel took the attr's size and still said E2BIG: a read() of the
 * group with the new member would pass 16 KiB for the read_format of the
 * member, the leader or a sibling (perf_event_validate_size(); before
 * Linux 6.7 the size of the member's records counted too).
 */
static void diag_group_size(struct dctx *d, unsigned int size)
{
	uint64_t rf = d->a->read_format | PERF_FORMAT_GROUP;
	size_t head = perfev_read_size(rf, 0), each = perfev_read_size(rf, 1) - head;

	if (d->c.group_fd < 0 || !head || !each) {
		say(d,
		    "event too large: the kernel accepted attr.size %u but refused the event as "
		    "too large; ask for fewer sample_type and read_format fields",
		    size);
		return;
	}
	say(d,
	    "group too large: a read() of the group would pass the kernel's limit of 16 KiB: "
	    "each event adds %zu bytes with this read_format, so a group holds at most %zu "
	    "events; split it into smaller groups",
	    each, (READ_SIZE_MAX - head) / each);
}

static void diag_e2big(struct dctx *d)
{
	const unsigned char *p = (const unsigned char *)d->a;
	unsigned int size = d->a ? d->a->size : 0, sent, want = perfev__last_e2big_size(&sent), i;
	long page = sysconf(_SC_PAGESIZE);

	/* The kernel writes its size back only when it refuses the size. */
	if (d->a && want && want == sent) {
		diag_group_size(d, want);
		return;
	}
	say(d, "attr size not accepted: ");
	if (!d->a) {
		say(d, "the kernel refused the size of perf_event_attr");
		return;
	}
	if (!size) /* perfev_sys_open() passes PERFEV_ATTR_SIZE_MAX bytes then */
		size = PERFEV_ATTR_SIZE_MAX;
	if (size < PERF_ATTR_SIZE_VER0) {
		say(d,
		    "attr.size %u is below the smallest valid size %u (PERF_ATTR_SIZE_VER0); set "
		    "it to the size of the attr you filled in",
		    size, PERF_ATTR_SIZE_VER0);
		return;
	}
	if (page > 0 && size > (unsigned long)page) {
		say(d,
		    "attr.size %u is larger than a page (%ld bytes), the most the kernel reads; "
		    "set it to the size of the attr you filled in",
		    size, page);
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
		int fn = is_ftrace_function(d, a->config);

		if (fn == 1 && !privileged()) {
			say(d,
			    "tracepoint id %llu is ftrace:function, the function tracer's "
			    "own event, which needs CAP_PERFMON or perf_event_paranoid -1, "
			    "and perf_event_paranoid is %d; run as root, or trace functions "
			    "with a kprobe",
			    (unsigned long long)a->config, paranoid);
			return;
		}
		if (fn == 1) {
			say(d,
			    "tracepoint id %llu is ftrace:function, the function tracer's "
			    "own event, which this kernel does not let perf open even with "
			    "CAP_PERFMON; trace functions with a kprobe (kprobe_events in "
			    "tracefs) or with the function tracer itself (current_tracer)",
			    (unsigned long long)a->config);
			return;
		}
		if ((a->sample_type & PERF_SAMPLE_RAW) && !privileged()) {
			say(d,
			    "raw tracepoint samples (PERF_SAMPLE_RAW) need CAP_PERFMON or "
			    "perf_event_paranoid -1 (syscall tracepoints on your own threads "
			    "excepted), and perf_event_paranoid is %d; sample without "
			    "PERF_SAMPLE_RAW, run as root, or "
			    "'sysctl kernel.perf_event_paranoid=-1'",
			    paranoid);
			return;
		}
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
		    "perf_event_paranoid <= 0, and perf_event_paranoid is %d; run as root or "
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

/* What makes a breakpoint attr invalid, into @buf; false when it looks valid. */
static bool bp_problem(const struct perf_event_attr *a, char *buf, size_t len)
{
	unsigned long long bl = a->bp_len;
	uint32_t t = a->bp_type;

	if (t == HW_BREAKPOINT_EMPTY || (t & ~(uint32_t)HW_BREAKPOINT_INVALID) ||
	    ((t & HW_BREAKPOINT_X) && t != HW_BREAKPOINT_X)) {
		snprintf(buf, len, "bp_type %u is not r (1), w (2), rw (3) or x (4)", t);
		return true;
	}
#if defined(__x86_64__) || defined(__i386__)
	if (t == HW_BREAKPOINT_R) {
		snprintf(buf, len, "x86 cannot watch reads alone (bp_type r); watch rw instead");
		return true;
	}
#endif
	if (t == HW_BREAKPOINT_X) {
		if (bl == sizeof(long) && !(a->bp_addr % bl))
			return false;
		snprintf(buf, len,
			 "an execute breakpoint needs bp_len %zu (sizeof(long)) and an address "
			 "aligned to it, not bp_len %llu",
			 sizeof(long), bl);
		return true;
	}
	if (bl != 1 && bl != 2 && bl != 4 && bl != 8) {
		snprintf(buf, len,
			 "bp_len %llu is not 1, 2, 4 or 8 bytes; watch one of those lengths", bl);
		return true;
	}
	if (a->bp_addr & (bl - 1)) {
		snprintf(buf, len,
			 "the address is not aligned to bp_len %llu; align it or watch fewer "
			 "bytes",
			 bl);
		return true;
	}
	return false;
}

static void diag_einval(struct dctx *d)
{
	const struct perf_event_attr *a = d->a;
	unsigned long known_flags = PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT |
				    PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC;
	/* PERFEV_OPEN_NO_CLOEXEC is perfev_sys_open()'s own, never passed to the kernel. */
	unsigned long flags = d->c.flags & ~PERFEV_OPEN_NO_CLOEXEC;
	long ncpu = online_cpus();
	char why[160];

	say(d, "invalid argument: ");
	if (d->c.cpu >= 0 && ncpu > 0 && d->c.cpu >= ncpu) {
		say(d, "cpu %d does not exist (this machine has %ld, numbered 0-%ld)", d->c.cpu,
		    ncpu, ncpu - 1);
		return;
	}
	if (flags & ~known_flags) {
		say(d,
		    "flags 0x%lx has bits the kernel does not know (0x%lx); the valid ones are "
		    "PERF_FLAG_FD_NO_GROUP, PERF_FLAG_FD_OUTPUT, PERF_FLAG_PID_CGROUP and "
		    "PERF_FLAG_FD_CLOEXEC",
		    flags, flags & ~known_flags);
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
		say(d, "read_format 0x%llx has bits this kernel does not know (0x%llx); clear them",
		    (unsigned long long)a->read_format,
		    (unsigned long long)(a->read_format >> 5 << 5));
		return;
	}
	if (a->sample_type >> 25) {
		say(d, "sample_type 0x%llx has bits this kernel does not know (0x%llx); clear them",
		    (unsigned long long)a->sample_type,
		    (unsigned long long)(a->sample_type >> 25 << 25));
		return;
	}
	if ((a->pinned || a->exclusive) && d->c.group_fd >= 0) {
		say(d,
		    "%s may only be set on a group leader, not on a member (group_fd %d); set it "
		    "on the leader only",
		    a->pinned ? "pinned (modifier D)" : "exclusive (modifier e)", d->c.group_fd);
		return;
	}
	if (a->sigtrap && !a->remove_on_exec) {
		say(d, "sigtrap requires remove_on_exec, so the signal cannot reach a new program "
		       "after exec; set remove_on_exec as well");
		return;
	}
	if (a->type == PERF_TYPE_BREAKPOINT && bp_problem(a, why, sizeof(why))) {
		say(d, "breakpoint at 0x%llx: %s", (unsigned long long)a->bp_addr, why);
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
	const char *tn, *name;
	char nbuf[64];

	say(d, "no such event: ");
	if (!a) {
		say(d, "the event type is unknown to this kernel");
		return;
	}
	tn = type_name(a->type);
	name = event_name(a, nbuf, sizeof(nbuf));
	if (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE) {
		say(d, "this CPU has no %s event '%s' (config %#llx): ", tn, name ? name : "?",
		    (unsigned long long)a->config);
		if (!core_pmu_present(d))
			say(d, "there is no hardware PMU on this machine (common in virtual "
			       "machines); use a software event such as task-clock or cpu-clock");
		else
			say(d, "the hardware PMU does not implement this generic event; "
			       "'perfev list pmu' shows the events it has");
		return;
	}
	if (a->type == PERF_TYPE_SOFTWARE && name) {
		say(d,
		    "software event %llu ('%s') is newer than this kernel; 'perfev list sw' shows "
		    "the software events",
		    (unsigned long long)a->config, name);
		return;
	}
	if (a->type == PERF_TYPE_SOFTWARE) {
		say(d,
		    "there is no software event %llu; 'perfev list sw' shows the software events",
		    (unsigned long long)a->config);
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
	if (a && (a->sample_type & PERF_SAMPLE_BRANCH_STACK) &&
	    (a->type == PERF_TYPE_SOFTWARE || a->type == PERF_TYPE_TRACEPOINT ||
	     a->type == PERF_TYPE_BREAKPOINT)) {
		say(d,
		    "branch stack sampling (PERF_SAMPLE_BRANCH_STACK, -b/-j) needs a hardware PMU "
		    "that records branches (LBR, BRBE), and %s events have none; drop -b/-j or "
		    "sample a hardware event",
		    type_name(a->type));
		return;
	}
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

static void diag_ebadf(struct dctx *d)
{
	char link[64], target[256];
	ssize_t n;

	if (d->c.flags & PERF_FLAG_PID_CGROUP) {
		say(d,
		    "bad file descriptor: pid %d should be an open fd of a cgroup directory "
		    "(/sys/fs/cgroup/NAME) when PERF_FLAG_PID_CGROUP is set",
		    (int)d->c.pid);
		return;
	}
	say(d, "bad file descriptor: ");
	if (d->c.group_fd < 0) {
		say(d,
		    "a file descriptor passed to perf_event_open is not open or not a perf "
		    "event (group_fd is %d)",
		    d->c.group_fd);
		return;
	}
	/* Looked at now, in this process: right when called just after the failure. */
	if (fcntl(d->c.group_fd, F_GETFD) < 0) {
		say(d,
		    "group_fd %d is not open; pass the group leader's perf event fd, or -1 to "
		    "start a new group",
		    d->c.group_fd);
		return;
	}
	snprintf(link, sizeof(link), "/proc/self/fd/%d", d->c.group_fd);
	n = readlink(link, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	say(d,
	    "group_fd %d is not a perf event%s%s%s; pass the group leader's perf event fd, or -1 "
	    "to start a new group",
	    d->c.group_fd, n > 0 ? " (it is '" : "", target, n > 0 ? "')" : "");
}

static void diag_eintr(struct dctx *d)
{
	const struct perf_event_attr *a = d->a;
	char dir[PATH_MAX / 2], name[256];

	say(d, "interrupted: ");
	if (a && a->type == PERF_TYPE_TRACEPOINT &&
	    uprobe_name(d, a->config, dir, sizeof(dir), name, sizeof(name))) {
		say(d,
		    "uprobe '%s' (tracepoint id %llu) is enabled through ftrace (tracefs), and the "
		    "kernel does not let perf and ftrace use one uprobe at once; disable it with "
		    "'echo 0 > %s/events/%s/enable' first, or define a second probe for perf",
		    name, (unsigned long long)a->config, dir, name);
		return;
	}
	if (!a || a->type == PERF_TYPE_TRACEPOINT) {
		say(d, "if the tracepoint is a uprobe, it is already enabled through ftrace "
		       "(tracefs), and the kernel does not let perf and ftrace use one uprobe at "
		       "once: write 0 to its events/GROUP/NAME/enable first; otherwise a signal "
		       "interrupted the call: retry it");
		return;
	}
	say(d, "a signal arrived while the kernel attached the event; retry the call");
}

static void diag_enodev(struct dctx *d)
{
	char list[256] = "";
	int on;

	say(d, "no such device: ");
	if (d->c.cpu < 0) {
		say(d, "this CPU lacks a feature the event needs");
		return;
	}
	on = cpu_online(d, d->c.cpu, list, sizeof(list));
	if (on == 0) {
		say(d,
		    "cpu %d is offline; bring it online with 'echo 1 > "
		    "%s/devices/system/cpu/cpu%d/online' or pick an online CPU (%s)",
		    d->c.cpu, sysfs_root(d), d->c.cpu, list);
		return;
	}
	say(d,
	    "cpu %d is %snot covered by this event's PMU (see its cpumask); pick a CPU the PMU "
	    "covers",
	    d->c.cpu, on < 0 ? "offline or " : "");
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
		diag_ebadf(&d);
		break;
	case EBUSY:
		say(&d,
		    "device busy: another event already has exclusive use of this PMU (PMUs such "
		    "as intel_pt allow one user; or an 'exclusive' group holds it)");
		break;
	case EFAULT:
		say(&d,
		    "bad address: the attr pointer is NULL or the attr.size bytes it points to "
		    "are not readable memory; pass a perf_event_attr whose size field is at most "
		    "the size of its buffer");
		break;
	case EINTR:
		diag_eintr(&d);
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
		diag_enodev(&d);
		break;
	case ENOENT:
		diag_enoent(&d);
		break;
	case ENOSPC:
		if (attr && attr->type == PERF_TYPE_BREAKPOINT)
			say(&d,
			    "no space left: all hardware breakpoint (debug) registers are in use "
			    "(%s, shared by every breakpoint of the thread or CPU, debuggers' "
			    "included); close other breakpoints or watch fewer addresses",
			    BP_REGISTERS);
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
