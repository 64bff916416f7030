// SPDX-License-Identifier: LGPL-2.1-or-later
/* The library on this machine: PMUs, knobs, tracefs, and parsed events opened for real. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>
#include <perfev/perfev.h>
#include "harness.h"

#define PMU_DIR	   "/sys/bus/event_source/devices"
#define MAX_EVENTS 16

/* The integer in @path, or LLONG_MIN. */
static long long read_number(const char *path)
{
	char text[64], *end;
	long long v;

	if (test_read_text(path, text, sizeof(text)) <= 0)
		return LLONG_MIN;
	v = strtoll(text, &end, 10);
	return end == text ? LLONG_MIN : v;
}

/* Does a PMU named like a CPU's core PMU (or of type PERF_TYPE_RAW) exist? */
static bool hardware_pmu_present(const struct perfev_pmus *pmus)
{
	size_t i;

	for (i = 0; i < perfev_pmus_count(pmus); i++) {
		const struct perfev_pmu *pmu = perfev_pmus_get(pmus, i);
		const char *name = perfev_pmu_name(pmu);

		if (perfev_pmu_type(pmu) == PERF_TYPE_RAW || !strcmp(name, "cpu") ||
		    !strncmp(name, "cpu_", 4) || !strncmp(name, "armv", 4))
			return true;
	}
	return false;
}

TEST(pmus_match_sysfs)
{
	static const struct {
		const char *name;
		uint32_t type;
	} fixed[] = {
	    {"software", PERF_TYPE_SOFTWARE},
	    {"tracepoint", PERF_TYPE_TRACEPOINT},
	    {"breakpoint", PERF_TYPE_BREAKPOINT},
	};
	struct perfev_pmus *pmus = NULL;
	struct dirent *de;
	size_t i, nsys = 0;
	DIR *d;

	CHECK_INT(perfev_pmus_load(NULL, &pmus), 0);
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		const struct perfev_pmu *pmu = perfev_pmus_find(pmus, fixed[i].name);

		EXPECT(pmu, "PMU '%s' not found", fixed[i].name);
		EXPECT(!pmu || perfev_pmu_type(pmu) == fixed[i].type, "'%s' has type %u, not %u",
		       fixed[i].name, pmu ? perfev_pmu_type(pmu) : 0, fixed[i].type);
		EXPECT(perfev_pmus_find_type(pmus, fixed[i].type) == pmu,
		       "find_type(%u) is not '%s'", fixed[i].type, fixed[i].name);
	}
	/* Every PMU's type is its sysfs file's... */
	for (i = 0; i < perfev_pmus_count(pmus); i++) {
		const struct perfev_pmu *pmu = perfev_pmus_get(pmus, i);
		char path[PATH_MAX];

		snprintf(path, sizeof(path), PMU_DIR "/%s/type", perfev_pmu_name(pmu));
		EXPECT(read_number(path) == (long long)perfev_pmu_type(pmu), "%s: %lld, library %u",
		       path, read_number(path), perfev_pmu_type(pmu));
	}
	/* ...and every sysfs PMU with a type file is in the database. */
	d = opendir(PMU_DIR);
	EXPECT(d, "%s: %s", PMU_DIR, strerror(errno));
	while (d && (de = readdir(d))) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), PMU_DIR "/%s/type", de->d_name);
		if (de->d_name[0] == '.' || read_number(path) == LLONG_MIN)
			continue;
		nsys++;
		EXPECT(perfev_pmus_find(pmus, de->d_name), "PMU '%s' missing from the database",
		       de->d_name);
	}
	if (d)
		closedir(d);
	EXPECT(nsys == perfev_pmus_count(pmus), "sysfs has %zu PMUs, the database %zu", nsys,
	       perfev_pmus_count(pmus));
	perfev_pmus_free(pmus);
}

TEST(knobs_match_procfs)
{
	struct perfev_knobs k = {.sz = sizeof(k)};

	CHECK_INT(perfev_knobs_read(NULL, &k), 0);
	CHECK_INT(k.paranoid, read_number("/proc/sys/kernel/perf_event_paranoid"));
	CHECK_INT(k.max_sample_rate, read_number("/proc/sys/kernel/perf_event_max_sample_rate"));
	CHECK_INT(k.max_stack, read_number("/proc/sys/kernel/perf_event_max_stack"));
}

/* Open tracefs, or skip the case with the reason. */
static struct perfev_tracefs *tracefs_or_skip(void)
{
	struct perfev_tracefs *tfs = NULL;
	int err = perfev_tracefs_open(NULL, &tfs);

	if (err == -ENOENT)
		harness_skip("tracefs", "tracefs is not mounted (mount -t tracefs nodev "
					"/sys/kernel/tracing)");
	else if (err)
		harness_skip_errno("tracefs", err, "perfev_tracefs_open", __FILE__, __LINE__);
	return err ? NULL : tfs;
}

TEST(tracefs_id_matches)
{
	struct perfev_tracefs *tfs = tracefs_or_skip();
	char path[PATH_MAX];
	uint64_t id = 0;

	if (!tfs)
		return;
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch/id", perfev_tracefs_path(tfs));
	EXPECT(perfev_tracefs_id(tfs, "sched", "sched_switch", &id) == 0,
	       "perfev_tracefs_id(sched, sched_switch) failed");
	perfev_tracefs_free(tfs);
	CHECK(read_number(path) != LLONG_MIN);
	CHECK_U64(id, read_number(path));
}

/*
 * Parse @strs into one list with the machine's PMUs and tracefs, and open
 * every event on this thread, members with their leader's fd.  @fds gets
 * the descriptors (the caller closes them), @n their number.  Returns
 * false after failing the case.
 */
static bool parse_and_open(const char *const *strs, size_t nstr, struct perfev_tracefs *tfs,
			   struct perfev_evspec **specp, int *fds, size_t *n)
{
	struct perfev_parse_opts opts = {.sz = sizeof(opts), .tracefs = tfs};
	struct perfev_pmus *pmus = NULL;
	struct perfev_evspec *spec = NULL;
	size_t i;
	int err;

	*n = 0;
	*specp = NULL;
	if (perfev_pmus_load(NULL, &pmus) || perfev_evspec_new(&spec)) {
		harness_fail(__FILE__, __LINE__, "cannot load PMUs or make a list");
		perfev_pmus_free(pmus);
		return false;
	}
	opts.pmus = pmus;
	for (i = 0; i < nstr; i++) {
		struct perfev_parse_error perr = {.sz = sizeof(perr)};

		err = perfev_evspec_add(spec, strs[i], &opts, &perr);
		if (err) {
			harness_fail(__FILE__, __LINE__, "parsing '%s': %s (%s at %zu)", strs[i],
				     strerrorname_np(-err), perr.message, perr.offset);
			goto fail;
		}
	}
	for (i = 0; i < perfev_evspec_count(spec) && i < MAX_EVENTS; i++) {
		struct perfev_event_info info = {.sz = sizeof(info)};
		struct perfev_diag_ctx ctx = {.sz = sizeof(ctx), .cpu = -1};
		char msg[512];

		if (perfev_evspec_info(spec, i, &info)) {
			harness_fail(__FILE__, __LINE__, "perfev_evspec_info(%zu) failed", i);
			goto fail;
		}
		ctx.group_fd = info.leader == (int)i ? -1 : fds[info.leader];
		fds[i] = perfev_sys_open(info.attr, 0, -1, ctx.group_fd, 0);
		if (fds[i] < 0) {
			perfev_diagnose(fds[i], info.attr, &ctx, msg, sizeof(msg));
			harness_fail(__FILE__, __LINE__, "opening '%s' (event %zu): %s", info.name,
				     i, msg);
			goto fail;
		}
		*n = i + 1;
	}
	perfev_pmus_free(pmus);
	*specp = spec;
	return true;
fail:
	for (i = 0; i < *n; i++)
		close(fds[i]);
	*n = 0;
	perfev_evspec_free(spec);
	perfev_pmus_free(pmus);
	return false;
}

static void close_all(int *fds, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		close(fds[i]);
}

/* The event named @name in @spec, or -1. */
static int find_event(const struct perfev_evspec *spec, const char *name,
		      struct perfev_event_info *info)
{
	size_t i;

	for (i = 0; i < perfev_evspec_count(spec); i++) {
		info->sz = sizeof(*info);
		if (!perfev_evspec_info(spec, i, info) && !strcmp(info->name, name))
			return (int)i;
	}
	return -1;
}

TEST(software_events_open)
{
	const char *strs[] = {"task-clock", "cs:u", "{cpu-clock,page-faults}:u", "dummy"};
	struct perfev_event_info info;
	struct perfev_evspec *spec;
	int fds[MAX_EVENTS], cc, pf;
	size_t n;

	if (!parse_and_open(strs, sizeof(strs) / sizeof(strs[0]), NULL, &spec, fds, &n))
		return;
	EXPECT(n == 5, "%zu events opened, expected 5", n);

	/* The group came out as a group, with its leader first. */
	cc = find_event(spec, "cpu-clock", &info);
	pf = find_event(spec, "page-faults", &info);
	EXPECT(cc >= 0 && pf == cc + 1, "cpu-clock at %d, page-faults at %d", cc, pf);
	if (cc >= 0 && pf == cc + 1) {
		EXPECT(info.leader == cc, "page-faults' leader is %d, not %d", info.leader, cc);
		EXPECT(info.attr->exclude_kernel, "page-faults lacks the group's :u");
		perfev_evspec_info(spec, (size_t)cc, &info);
		EXPECT(info.group_size == 2, "cpu-clock leads %d events", info.group_size);
	}
	close_all(fds, n);
	perfev_evspec_free(spec);
}

TEST(breakpoint_event_opens)
{
	volatile unsigned long watched = 0;
	char mem[64];
	const char *strs[] = {mem};
	struct perfev_event_info info;
	struct perfev_evspec *spec;
	uint64_t count = 0;
	int fds[MAX_EVENTS], bp;
	size_t n;

	snprintf(mem, sizeof(mem), "mem:%p:w", (void *)&watched);
	if (!parse_and_open(strs, 1, NULL, &spec, fds, &n))
		return;
	bp = find_event(spec, mem, &info);
	EXPECT(bp >= 0, "no event named '%s'", mem);
	if (bp >= 0) {
		EXPECT(info.attr->type == PERF_TYPE_BREAKPOINT &&
			   info.attr->bp_type == HW_BREAKPOINT_W,
		       "'%s' is type %u bp_type %u", mem, info.attr->type, info.attr->bp_type);
		/* The watchpoint is live: it counts this thread's writes to the variable. */
		watched = 1;
		watched = 2;
		watched = 3;
		EXPECT(read(fds[bp], &count, sizeof(count)) == sizeof(count), "read: %s",
		       strerror(errno));
	}
	close_all(fds, n);
	perfev_evspec_free(spec);
	if (bp >= 0 && count == 0) {
		const char *why;

		if (!test_breakpoints_fire(&why)) {
			harness_skip("breakpoints", "%s", why);
			return;
		}
	}
	EXPECT(bp < 0 || count >= 3, "'%s' counted %llu writes, expected 3", mem,
	       (unsigned long long)count);
}

TEST(tracepoint_opens)
{
	const char *strs[] = {"sched:sched_switch"};
	struct perfev_tracefs *tfs;
	struct perfev_evspec *spec;
	int fds[MAX_EVENTS];
	size_t n;

	if (geteuid() != 0) {
		harness_skip("root", "sched:sched_switch with the kernel needs root at "
				     "perf_event_paranoid >= 2; not root");
		return;
	}
	tfs = tracefs_or_skip();
	if (!tfs)
		return;
	if (!parse_and_open(strs, 1, tfs, &spec, fds, &n)) {
		perfev_tracefs_free(tfs);
		return;
	}
	close_all(fds, n);
	perfev_evspec_free(spec);
	perfev_tracefs_free(tfs);
	CHECK_INT(n, 1);
}

/* Generic hardware events open when there is a hardware PMU. */
TEST(hardware_events_open)
{
	const char *strs[] = {"cycles", "instructions:u"};
	struct perfev_parse_opts opts = {.sz = sizeof(opts)};
	struct perfev_pmus *pmus = NULL;
	struct perfev_evspec *spec = NULL;
	struct perfev_event_info info;
	bool have_pmu;
	size_t i;
	int fd;

	CHECK_INT(perfev_pmus_load(NULL, &pmus), 0);
	have_pmu = hardware_pmu_present(pmus);
	opts.pmus = pmus;
	for (i = 0; i < 2; i++) {
		struct perfev_parse_error perr = {.sz = sizeof(perr)};

		EXPECT(perfev_evspec_parse(strs[i], &opts, &spec, &perr) == 0, "parsing '%s': %s",
		       strs[i], perr.message);
		if (!spec)
			break;
		info.sz = sizeof(info);
		perfev_evspec_info(spec, 0, &info);
		fd = perfev_sys_open(info.attr, 0, -1, -1, 0);
		perfev_evspec_free(spec);
		spec = NULL;
		if (fd >= 0) {
			close(fd);
			continue;
		}
		if (!have_pmu && (fd == -ENOENT || fd == -EOPNOTSUPP || fd == -ENODEV)) {
			harness_skip("hardware-pmu", "%s: %s, no hardware PMU on this machine",
				     strs[i], strerrorname_np(-fd));
			break;
		}
		harness_fail(__FILE__, __LINE__, "opening '%s': %s (%s)", strs[i],
			     strerrorname_np(-fd), have_pmu ? "hardware PMU present" : "no PMU");
		break;
	}
	perfev_pmus_free(pmus);
}
