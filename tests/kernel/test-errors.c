// SPDX-License-Identifier: LGPL-2.1-or-later
/* Every errno of perf_event_open(2)'s ERRORS provoked for real, and perfev_diagnose() of it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <perfev/perfev.h>
#include "harness.h"

#define NOBODY	65534
#define MSG_LEN 1024
#define PMU_DIR "/sys/bus/event_source/devices"

/* One perf_event_open() call and what came of it. */
struct attempt {
	struct perf_event_attr attr;
	pid_t pid;
	int cpu;
	int group_fd;
	unsigned long flags;
	int err;	   /* -errno, or the (closed) fd when the call succeeded */
	long long aux;	   /* a fact a child reports along (EMFILE: the limit it set) */
	char msg[MSG_LEN]; /* perfev_diagnose() of err */
};

static void attempt_init(struct attempt *t)
{
	memset(t, 0, sizeof(*t));
	t->attr.size = sizeof(t->attr);
	t->cpu = -1;
	t->group_fd = -1;
}

/* task-clock on the calling thread, user space only. */
static void task_clock(struct attempt *t)
{
	attempt_init(t);
	t->attr.type = PERF_TYPE_SOFTWARE;
	t->attr.config = PERF_COUNT_SW_TASK_CLOCK;
	t->attr.exclude_kernel = 1;
	t->attr.exclude_hv = 1;
}

/* Open, close what opened, and explain a failure. */
static int attempt_run(struct attempt *t)
{
	struct perfev_diag_ctx ctx = {
	    .sz = sizeof(ctx),
	    .pid = t->pid,
	    .cpu = t->cpu,
	    .group_fd = t->group_fd,
	    .flags = t->flags,
	};

	t->err = perfev_sys_open(&t->attr, t->pid, t->cpu, t->group_fd, t->flags);
	if (t->err >= 0) {
		close(t->err);
		snprintf(t->msg, sizeof(t->msg), "(the call succeeded)");
		return t->err;
	}
	if (perfev_diagnose(t->err, &t->attr, &ctx, t->msg, sizeof(t->msg)) < 0)
		snprintf(t->msg, sizeof(t->msg), "(perfev_diagnose failed)");
	if (getenv("PERFEV_TEST_VERBOSE")) {
		printf("# %s: %s\n", strerrorname_np(-t->err), t->msg);
		fflush(stdout);
	}
	return t->err;
}

static const char *err_name(int err)
{
	static char buf[32];

	if (err >= 0) {
		snprintf(buf, sizeof(buf), "success (fd %d)", err);
		return buf;
	}
	return strerrorname_np(-err) ? strerrorname_np(-err) : "unknown errno";
}

static bool skip_class(int err)
{
	switch (-err) {
	case EACCES:
	case EPERM:
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
	case ENOSYS:
		return true;
	}
	return false;
}

/*
 * The call must fail with @want.  Another "not permitted / not supported"
 * errno skips the case (the feature is missing here), unless @want is
 * itself one of those: then a different errno is a failure.
 */
#define CHECK_ERRNO(feature, t, want, what)                                                        \
	do {                                                                                       \
		int g_ = (t)->err, w_ = (want);                                                    \
		if (g_ != w_) {                                                                    \
			if (g_ < 0 && skip_class(g_) && !skip_class(w_)) {                         \
				harness_skip(feature,                                              \
					     "%s: %s (not permitted or not supported here)", what, \
					     err_name(g_));                                        \
				return;                                                            \
			}                                                                          \
			harness_fail(__FILE__, __LINE__, "%s: %s, expected %s", what,              \
				     err_name(g_), strerrorname_np(-w_));                          \
			return;                                                                    \
		}                                                                                  \
	} while (0)

#define CHECK_PREFIX(msg, prefix)                                                                  \
	do {                                                                                       \
		if (strncmp((msg), (prefix), strlen(prefix))) {                                    \
			harness_fail(__FILE__, __LINE__, "\"%s\" does not start with \"%s\"",      \
				     (msg), (prefix));                                             \
			return;                                                                    \
		}                                                                                  \
	} while (0)

/* CHECK_CONTAINS with a formatted needle. */
#define CHECK_CONTAINSF(msg, ...)                                                                  \
	do {                                                                                       \
		char needle_[128];                                                                 \
		snprintf(needle_, sizeof(needle_), __VA_ARGS__);                                   \
		CHECK_CONTAINS(msg, needle_);                                                      \
	} while (0)

static struct perfev_knobs knobs(void)
{
	struct perfev_knobs k = {.sz = sizeof(k)};

	if (perfev_knobs_read(NULL, &k) < 0)
		k.paranoid = k.max_sample_rate = k.max_stack = PERFEV_KNOB_UNKNOWN;
	return k;
}

static int write_file(const char *path, const char *text, int oflags)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | oflags), err = 0;
	size_t len = strlen(text);

	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len)
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

/* ---- running a call in a child -------------------------------------------- */

struct child_report {
	int stage; /* 0: ran; 1: could not drop privileges */
	int drop_err;
	struct attempt t;
};

typedef void (*child_fn)(struct attempt *t);

/*
 * Run @fn on @t in a forked child, optionally as nobody (uid and gid
 * 65534, no supplementary groups, hence no capabilities), and copy the
 * child's attempt back.  The parent keeps its privileges and settings.
 * Returns false (having failed the case) when the child did not report.
 */
static bool run_in_child(struct attempt *t, child_fn fn, bool as_nobody)
{
	struct child_report report, *r = &report;
	int pfd[2], status;
	ssize_t n;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC)) {
		harness_fail(__FILE__, __LINE__, "pipe: %s", strerror(errno));
		return false;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		harness_fail(__FILE__, __LINE__, "fork: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		return false;
	}
	if (pid == 0) {
		struct child_report cr = {.t = *t};

		close(pfd[0]);
		if (as_nobody && geteuid() == 0 &&
		    (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
		     setresuid(NOBODY, NOBODY, NOBODY))) {
			cr.stage = 1;
			cr.drop_err = -errno;
		} else if (as_nobody && geteuid() == 0) {
			cr.stage = 1;
			cr.drop_err = -EPERM;
		} else {
			fn(&cr.t);
		}
		n = write(pfd[1], &cr, sizeof(cr));
		_exit(n == (ssize_t)sizeof(cr) ? 0 : 1);
	}
	close(pfd[1]);
	memset(r, 0, sizeof(*r));
	do
		n = read(pfd[0], r, sizeof(*r));
	while (n < 0 && errno == EINTR);
	close(pfd[0]);
	waitpid(pid, &status, 0);
	if (n != (ssize_t)sizeof(*r)) {
		harness_fail(__FILE__, __LINE__, "the child died without reporting (status %#x)",
			     status);
		return false;
	}
	if (r->stage == 1) {
		harness_fail(__FILE__, __LINE__, "cannot become nobody (uid %d): %s", NOBODY,
			     err_name(r->drop_err));
		return false;
	}
	*t = r->t;
	return true;
}

static void child_open(struct attempt *t)
{
	attempt_run(t);
}

/* ---- machine facts ---------------------------------------------------------- */

/* Does a PMU named like a CPU's core PMU (or of type PERF_TYPE_RAW) exist? */
static bool hardware_pmu_present(void)
{
	DIR *d = opendir(PMU_DIR);
	struct dirent *de;
	bool found = false;

	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		char path[PATH_MAX], text[32];

		if (de->d_name[0] == '.')
			continue;
		if (!strcmp(de->d_name, "cpu") || !strncmp(de->d_name, "cpu_", 4) ||
		    !strncmp(de->d_name, "armv", 4))
			found = true;
		snprintf(path, sizeof(path), PMU_DIR "/%s/type", de->d_name);
		if (test_read_text(path, text, sizeof(text)) > 0 && atoi(text) == PERF_TYPE_RAW)
			found = true;
	}
	closedir(d);
	return found;
}

static bool pmu_type_used(int type)
{
	DIR *d = opendir(PMU_DIR);
	struct dirent *de;
	bool used = false;

	if (!d)
		return false;
	while (!used && (de = readdir(d))) {
		char path[PATH_MAX], text[32];

		snprintf(path, sizeof(path), PMU_DIR "/%s/type", de->d_name);
		if (de->d_name[0] != '.' && test_read_text(path, text, sizeof(text)) > 0 &&
		    atoi(text) == type)
			used = true;
	}
	closedir(d);
	return used;
}

/* The first CPU number the kernel does not know: the end of the possible mask. */
static int first_impossible_cpu(void)
{
	char text[256];
	int cpus[4096], n;

	if (test_read_text("/sys/devices/system/cpu/possible", text, sizeof(text)) <= 0)
		return -1;
	n = perfev_cpulist_parse(text, strlen(text), cpus, 4096);
	if (n <= 0 || n > 4096)
		return -1;
	return cpus[n - 1] + 1;
}

/* ---- E2BIG ------------------------------------------------------------------ */

TEST(e2big_size_below_ver0)
{
	struct attempt t;

	task_clock(&t);
	t.attr.size = 32;
	attempt_run(&t);
	CHECK_ERRNO("task-clock", &t, -E2BIG, "attr.size 32");
	CHECK_PREFIX(t.msg, "attr size not accepted: ");
	CHECK_CONTAINS(t.msg, "attr.size 32");
	CHECK_CONTAINS(t.msg, "64");
}

/*
 * Members join a group of dummy events until the kernel refuses one because
 * a read() of the group would pass 16 KiB; that refusal is diagnosed.
 * aux: how many events the group holds then.
 */
#define BIG_GROUP 1100 /* 16 bytes per event with this read_format: 1022 fit */

static void child_big_group(struct attempt *t)
{
	static int fds[BIG_GROUP];
	struct rlimit rl;
	int n = 0, fd;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < BIG_GROUP + 64) {
		rl.rlim_cur = rl.rlim_max < BIG_GROUP + 64 ? rl.rlim_max : BIG_GROUP + 64;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	t->attr.type = PERF_TYPE_SOFTWARE;
	t->attr.config = PERF_COUNT_SW_DUMMY;
	t->attr.exclude_kernel = 1;
	t->attr.exclude_hv = 1;
	t->attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
			      PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = perfev_sys_open(&t->attr, 0, -1, -1, 0);
	if (fd < 0) {
		attempt_run(t);
		return;
	}
	fds[n++] = t->group_fd = fd;
	while (n < BIG_GROUP && (fd = perfev_sys_open(&t->attr, 0, -1, t->group_fd, 0)) >= 0)
		fds[n++] = fd;
	t->aux = n;
	/* Once more, diagnosed: the group is as full as when the kernel refused. */
	attempt_run(t);
	while (n)
		close(fds[--n]);
}

TEST(e2big_group_read_size)
{
	struct attempt t;

	attempt_init(&t);
	if (!run_in_child(&t, child_big_group, false))
		return;
	if (t.err == -EMFILE) {
		harness_skip("nofile", "RLIMIT_NOFILE cannot be raised to %d descriptors",
			     BIG_GROUP);
		return;
	}
	CHECK_ERRNO("dummy", &t, -E2BIG, "a member past 16 KiB of group read()");
	CHECK_PREFIX(t.msg, "group too large: ");
	CHECK_CONTAINS(t.msg, "16 KiB");
	CHECK_CONTAINS(t.msg, "16 bytes");
	/* The limit said is the one the kernel kept. */
	CHECK_CONTAINSF(t.msg, "at most %lld events", t.aux);
}

/* ---- EACCES ----------------------------------------------------------------- */

TEST(eacces_kernel_at_paranoid_2)
{
	struct perfev_knobs k = knobs();
	struct attempt t;

	if (k.paranoid == PERFEV_KNOB_UNKNOWN || k.paranoid < 2) {
		harness_skip("paranoid-2",
			     "perf_event_paranoid is %d: anyone may measure the kernel",
			     k.paranoid);
		return;
	}
	task_clock(&t);
	t.attr.exclude_kernel = 0;
	if (!run_in_child(&t, child_open, true))
		return;
	CHECK_ERRNO("paranoid-2", &t, -EACCES, "task-clock with kernel as nobody");
	CHECK_PREFIX(t.msg, "permission denied: ");
	CHECK_CONTAINSF(t.msg, "perf_event_paranoid is %d", k.paranoid);
	CHECK_CONTAINS(t.msg, "CAP_PERFMON");
	CHECK_CONTAINS(t.msg, "':u'");
	CHECK_CONTAINS(t.msg, "sysctl kernel.perf_event_paranoid=");
}

TEST(eacces_system_wide)
{
	struct perfev_knobs k = knobs();
	struct attempt t;

	if (k.paranoid == PERFEV_KNOB_UNKNOWN || k.paranoid < 1) {
		harness_skip("paranoid-1",
			     "perf_event_paranoid is %d: anyone may measure a whole CPU",
			     k.paranoid);
		return;
	}
	task_clock(&t);
	t.pid = -1;
	t.cpu = 0;
	if (!run_in_child(&t, child_open, true))
		return;
	CHECK_ERRNO("paranoid-1", &t, -EACCES, "task-clock:u on cpu 0 as nobody");
	CHECK_PREFIX(t.msg, "permission denied: ");
	CHECK_CONTAINS(t.msg, "cpu 0");
	CHECK_CONTAINSF(t.msg, "perf_event_paranoid is %d", k.paranoid);
	CHECK_CONTAINS(t.msg, "CAP_PERFMON");
	CHECK_CONTAINS(t.msg, "sysctl kernel.perf_event_paranoid=0");
}

/* ---- EPERM ------------------------------------------------------------------ */

/* The id of tracepoint sys:name, or skips the case and returns false. */
static bool tracepoint_id(const char *sys, const char *name, uint64_t *id)
{
	struct perfev_tracefs *tfs;
	int err;

	err = perfev_tracefs_open(NULL, &tfs);
	if (err) {
		harness_skip("tracefs", "tracefs: %s (mount -t tracefs nodev /sys/kernel/tracing)",
			     err_name(err));
		return false;
	}
	err = perfev_tracefs_id(tfs, sys, name, id);
	perfev_tracefs_free(tfs);
	if (err) {
		harness_skip("tracefs", "tracepoint %s:%s: %s", sys, name, err_name(err));
		return false;
	}
	return true;
}

TEST(eperm_ftrace_function)
{
	struct attempt t;
	uint64_t id;

	if (geteuid() != 0) {
		harness_skip("root", "ftrace:function returns EPERM to root; not running as root");
		return;
	}
	if (!tracepoint_id("ftrace", "function", &id))
		return;
	attempt_init(&t);
	t.attr.type = PERF_TYPE_TRACEPOINT;
	t.attr.config = id;
	attempt_run(&t);
	CHECK_ERRNO("ftrace-function", &t, -EPERM, "ftrace:function");
	CHECK_PREFIX(t.msg, "operation not permitted: ");
	CHECK_CONTAINS(t.msg, "ftrace:function");
	CHECK_CONTAINSF(t.msg, "id %llu", (unsigned long long)id);
	CHECK_CONTAINS(t.msg, "kprobe");
}

TEST(eperm_raw_tracepoint_samples)
{
	struct perfev_knobs k = knobs();
	struct attempt t;
	uint64_t id;

	if (k.paranoid == PERFEV_KNOB_UNKNOWN || k.paranoid < 0) {
		harness_skip("paranoid-0",
			     "perf_event_paranoid is %d: anyone may take raw tracepoint samples",
			     k.paranoid);
		return;
	}
	if (!tracepoint_id("sched", "sched_switch", &id))
		return;
	attempt_init(&t);
	t.attr.type = PERF_TYPE_TRACEPOINT;
	t.attr.config = id;
	t.attr.sample_period = 1;
	t.attr.sample_type = PERF_SAMPLE_RAW;
	t.attr.exclude_kernel = 1;
	if (!run_in_child(&t, child_open, true))
		return;
	CHECK_ERRNO("paranoid-0", &t, -EPERM, "sched:sched_switch raw samples as nobody");
	CHECK_PREFIX(t.msg, "operation not permitted: ");
	CHECK_CONTAINS(t.msg, "PERF_SAMPLE_RAW");
	CHECK_CONTAINSF(t.msg, "perf_event_paranoid is %d", k.paranoid);
	CHECK_CONTAINS(t.msg, "CAP_PERFMON");
}

/* ---- EBADF ------------------------------------------------------------------ */

TEST(ebadf_closed_group_fd)
{
	struct attempt t;
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	CHECK(fd >= 0);
	close(fd);
	task_clock(&t);
	t.group_fd = fd;
	attempt_run(&t);
	CHECK_ERRNO("task-clock", &t, -EBADF, "group_fd closed");
	CHECK_PREFIX(t.msg, "bad file descriptor: ");
	CHECK_CONTAINSF(t.msg, "group_fd %d", fd);
	CHECK_CONTAINS(t.msg, "not open");
	CHECK_CONTAINS(t.msg, "-1");
}

TEST(ebadf_group_fd_not_perf)
{
	struct attempt t;
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	CHECK(fd >= 0);
	task_clock(&t);
	t.group_fd = fd;
	attempt_run(&t);
	close(fd);
	CHECK_ERRNO("task-clock", &t, -EBADF, "group_fd /dev/null");
	CHECK_PREFIX(t.msg, "bad file descriptor: ");
	CHECK_CONTAINSF(t.msg, "group_fd %d", fd);
	CHECK_CONTAINS(t.msg, "/dev/null");
	CHECK_CONTAINS(t.msg, "not a perf event");
}

/* ---- EFAULT ----------------------------------------------------------------- */

TEST(efault_null_attr)
{
	struct perfev_diag_ctx ctx = {.sz = sizeof(ctx), .cpu = -1, .group_fd = -1};
	char msg[MSG_LEN];
	int err;

	err = perfev_sys_open(NULL, 0, -1, -1, 0);
	if (err >= 0)
		close(err);
	CHECK_INT(err, -EFAULT);
	CHECK(perfev_diagnose(err, NULL, &ctx, msg, sizeof(msg)) > 0);
	CHECK_PREFIX(msg, "bad address: ");
	CHECK_CONTAINS(msg, "attr");
}

/* ---- EINVAL ----------------------------------------------------------------- */

TEST(einval_sample_freq)
{
	struct perfev_knobs k = knobs();
	struct attempt t;

	CHECK(k.max_sample_rate != PERFEV_KNOB_UNKNOWN);
	task_clock(&t);
	t.attr.freq = 1;
	t.attr.sample_freq = (uint64_t)k.max_sample_rate + 1;
	attempt_run(&t);
	CHECK_ERRNO("task-clock", &t, -EINVAL, "sample_freq above the maximum");
	CHECK_PREFIX(t.msg, "invalid argument: ");
	CHECK_CONTAINSF(t.msg, "sample_freq %llu", (unsigned long long)t.attr.sample_freq);
	CHECK_CONTAINSF(t.msg, "perf_event_max_sample_rate %d", k.max_sample_rate);
	CHECK_CONTAINS(t.msg, "sysctl kernel.perf_event_max_sample_rate=");
}

TEST(einval_cpu_out_of_range)
{
	struct attempt t;
	int cpu = first_impossible_cpu();

	CHECK(cpu > 0);
	task_clock(&t);
	t.cpu = cpu;
	attempt_run(&t);
	CHECK_ERRNO("task-clock", &t, -EINVAL, "cpu beyond the possible CPUs");
	CHECK_PREFIX(t.msg, "invalid argument: ");
	CHECK_CONTAINSF(t.msg, "cpu %d does not exist", cpu);
}

TEST(einval_read_format)
{
	struct attempt t;

	task_clock(&t);
	t.attr.read_format = PERF_FORMAT_ID | 1ULL << 40;
	attempt_run(&t);
	CHECK_ERRNO("task-clock", &t, -EINVAL, "unknown read_format bit");
	CHECK_PREFIX(t.msg, "invalid argument: ");
	CHECK_CONTAINS(t.msg, "read_format");
	CHECK_CONTAINS(t.msg, "0x10000000000");
}

TEST(einval_sample_type)
{
	struct attempt t;

	task_clock(&t);
	t.attr.sample_period = 100000;
	t.attr.sample_type = PERF_SAMPLE_IP | 1ULL << 50;
	attempt_run(&t);
	CHECK_ERRNO("task-clock", &t, -EINVAL, "unknown sample_type bit");
	CHECK_PREFIX(t.msg, "invalid argument: ");
	CHECK_CONTAINS(t.msg, "sample_type");
	CHECK_CONTAINS(t.msg, "0x4000000000000");
}

TEST(einval_flags)
{
	struct attempt t;

	task_clock(&t);
	t.flags = 1UL << 5;
	attempt_run(&t);
	CHECK_ERRNO("task-clock", &t, -EINVAL, "unknown flag");
	CHECK_PREFIX(t.msg, "invalid argument: ");
	CHECK_CONTAINS(t.msg, "flags");
	CHECK_CONTAINS(t.msg, "0x20");
}

TEST(einval_pinned_member)
{
	struct attempt t;
	int leader;

	task_clock(&t);
	leader = perfev_sys_open(&t.attr, 0, -1, -1, 0);
	SKIP_ERRNO("task-clock", leader, "task-clock leader");
	t.attr.config = PERF_COUNT_SW_CPU_CLOCK;
	t.attr.pinned = 1;
	t.group_fd = leader;
	attempt_run(&t);
	close(leader);
	CHECK_ERRNO("task-clock", &t, -EINVAL, "pinned group member");
	CHECK_PREFIX(t.msg, "invalid argument: ");
	CHECK_CONTAINS(t.msg, "pinned");
	CHECK_CONTAINS(t.msg, "group leader");
}

TEST(einval_sigtrap_without_remove_on_exec)
{
	struct attempt t;

	task_clock(&t);
	t.attr.sigtrap = 1;
	t.attr.sample_period = 1000000;
	attempt_run(&t);
	CHECK_ERRNO("task-clock", &t, -EINVAL, "sigtrap without remove_on_exec");
	CHECK_PREFIX(t.msg, "invalid argument: ");
	CHECK_CONTAINS(t.msg, "sigtrap");
	CHECK_CONTAINS(t.msg, "remove_on_exec");
}

/* PERFEV_OPEN_NO_CLOEXEC is the library's flag: it is no unknown kernel flag. */
TEST(einval_cause_not_hidden_by_no_cloexec)
{
	struct attempt t;

	task_clock(&t);
	t.attr.sigtrap = 1;
	t.attr.sample_period = 1000000;
	t.flags = PERFEV_OPEN_NO_CLOEXEC;
	attempt_run(&t);
	CHECK_ERRNO("task-clock", &t, -EINVAL, "sigtrap without remove_on_exec, NO_CLOEXEC");
	CHECK_PREFIX(t.msg, "invalid argument: ");
	CHECK_CONTAINS(t.msg, "sigtrap");
}

static unsigned long long bp_targets[8];

TEST(einval_breakpoint_len_3)
{
	struct attempt t;

	attempt_init(&t);
	t.attr.type = PERF_TYPE_BREAKPOINT;
	t.attr.bp_type = HW_BREAKPOINT_W;
	t.attr.bp_addr = (uintptr_t)&bp_targets[0];
	t.attr.bp_len = 3;
	t.attr.exclude_kernel = 1;
	t.attr.exclude_hv = 1;
	attempt_run(&t);
#if !defined(__x86_64__) && !defined(__i386__)
	if (t.err >= 0) {
		harness_skip("bp-len-3",
			     "bp_len 3 is a valid watchpoint length on this architecture");
		return;
	}
#endif
	CHECK_ERRNO("breakpoint", &t, -EINVAL, "breakpoint with bp_len 3");
	CHECK_PREFIX(t.msg, "invalid argument: ");
	CHECK_CONTAINS(t.msg, "bp_len 3");
}

/* ---- EMFILE ----------------------------------------------------------------- */

/*
 * Limit the child to the descriptors it has: the limit is set to the
 * lowest free descriptor number, so there is no free one below it.
 */
static void child_emfile(struct attempt *t)
{
	struct rlimit rl;
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	if (fd < 0 || getrlimit(RLIMIT_NOFILE, &rl)) {
		t->err = -errno;
		snprintf(t->msg, sizeof(t->msg), "(setup failed)");
		return;
	}
	close(fd);
	rl.rlim_cur = (rlim_t)fd;
	if (setrlimit(RLIMIT_NOFILE, &rl)) {
		t->err = -errno;
		snprintf(t->msg, sizeof(t->msg), "(setrlimit failed)");
		return;
	}
	t->aux = fd;
	attempt_run(t);
}

TEST(emfile_rlimit_nofile)
{
	struct attempt t;

	task_clock(&t);
	if (!run_in_child(&t, child_emfile, false))
		return;
	CHECK_ERRNO("task-clock", &t, -EMFILE, "open with RLIMIT_NOFILE reached");
	CHECK_PREFIX(t.msg, "too many open files: ");
	CHECK_CONTAINSF(t.msg, "RLIMIT_NOFILE %lld", t.aux);
	CHECK_CONTAINS(t.msg, "ulimit -n");
}

/* ---- ENODEV ----------------------------------------------------------------- */

#define CPU1_ONLINE "/sys/devices/system/cpu/cpu1/online"

TEST(enodev_offline_cpu)
{
	struct attempt t;
	char state[16];
	bool was_online, ran;
	int err, restore = 0;

	if (geteuid() != 0) {
		harness_skip("cpu-hotplug", "taking cpu1 offline needs root");
		return;
	}
	if (test_read_text(CPU1_ONLINE, state, sizeof(state)) <= 0) {
		harness_skip("cpu-hotplug", "no %s: a single CPU, or cpu1 cannot be unplugged",
			     CPU1_ONLINE);
		return;
	}
	was_online = state[0] == '1';
	if (was_online) {
		err = write_file(CPU1_ONLINE, "0", 0);
		if (err) {
			harness_skip("cpu-hotplug", "cannot take cpu1 offline: %s", err_name(err));
			return;
		}
	}
	/* The call runs in a child so that cpu1 comes back whatever happens to it. */
	task_clock(&t);
	t.pid = -1;
	t.cpu = 1;
	ran = run_in_child(&t, child_open, false);
	if (was_online)
		restore = write_file(CPU1_ONLINE, "1", 0);
	CHECK(restore == 0 || !"cannot bring cpu1 back online");
	if (!ran)
		return;
	CHECK_ERRNO("cpu-hotplug", &t, -ENODEV, "task-clock on offline cpu1");
	CHECK_PREFIX(t.msg, "no such device: ");
	CHECK_CONTAINS(t.msg, "cpu 1 is offline");
	CHECK_CONTAINS(t.msg, "/sys/devices/system/cpu/cpu1/online");
}

/* ---- ENOENT ----------------------------------------------------------------- */

TEST(enoent_unknown_type)
{
	struct attempt t;
	int type = 1000;

	while (pmu_type_used(type))
		type++;
	task_clock(&t);
	t.attr.type = (uint32_t)type;
	t.attr.config = 0;
	attempt_run(&t);
	CHECK_ERRNO("pmu", &t, -ENOENT, "unknown type");
	CHECK_PREFIX(t.msg, "no such event: ");
	CHECK_CONTAINSF(t.msg, "type %d", type);
	CHECK_CONTAINS(t.msg, PMU_DIR);
}

TEST(enoent_hardware_without_pmu)
{
	struct attempt t;

	if (hardware_pmu_present()) {
		harness_skip("no-hardware-pmu", "hardware PMU present");
		return;
	}
	task_clock(&t);
	t.attr.type = PERF_TYPE_HARDWARE;
	t.attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attempt_run(&t);
	CHECK_ERRNO("no-hardware-pmu", &t, -ENOENT, "cycles without a hardware PMU");
	CHECK_PREFIX(t.msg, "no such event: ");
	CHECK_CONTAINS(t.msg, "cpu-cycles");
	CHECK_CONTAINS(t.msg, "no hardware PMU");
	CHECK_CONTAINS(t.msg, "task-clock");
}

TEST(enoent_software_config)
{
	struct attempt t;

	task_clock(&t);
	t.attr.config = 100;
	attempt_run(&t);
	CHECK_ERRNO("task-clock", &t, -ENOENT, "software config 100");
	CHECK_PREFIX(t.msg, "no such event: ");
	CHECK_CONTAINS(t.msg, "software event 100");
	CHECK_CONTAINS(t.msg, "perfev list");
}

/* ---- ENOSPC ----------------------------------------------------------------- */

TEST(enospc_breakpoint_registers)
{
	int fds[8], n, i, err = 0;
	struct attempt t;

	for (n = 0; n < 8; n++) {
		attempt_init(&t);
		t.attr.type = PERF_TYPE_BREAKPOINT;
		t.attr.bp_type = HW_BREAKPOINT_W;
		t.attr.bp_addr = (uintptr_t)&bp_targets[n];
		t.attr.bp_len = HW_BREAKPOINT_LEN_4;
		t.attr.pinned = 1;
		t.attr.exclude_kernel = 1;
		t.attr.exclude_hv = 1;
		fds[n] = perfev_sys_open(&t.attr, 0, -1, -1, 0);
		if (fds[n] < 0) {
			err = fds[n];
			break;
		}
	}
	for (i = 0; i < n; i++)
		close(fds[i]);
	if (n == 0)
		SKIP_ERRNO("breakpoint", err, "first write breakpoint");
	CHECK(n < 8 || !"8 breakpoints opened: no ENOSPC");
	/* Explain the failure with the attr that failed. */
	t.err = err;
	{
		struct perfev_diag_ctx ctx = {.sz = sizeof(ctx), .cpu = -1, .group_fd = -1};

		CHECK(perfev_diagnose(err, &t.attr, &ctx, t.msg, sizeof(t.msg)) > 0);
	}
	CHECK_ERRNO("breakpoint", &t, -ENOSPC, "breakpoint beyond the debug registers");
	CHECK_PREFIX(t.msg, "no space left: ");
	CHECK_CONTAINS(t.msg, "breakpoint");
	CHECK_CONTAINS(t.msg, "registers");
}

/* ---- EOPNOTSUPP ------------------------------------------------------------- */

TEST(eopnotsupp_branch_stack_on_software)
{
	struct attempt t;

	task_clock(&t);
	t.attr.sample_period = 100000;
	t.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	t.attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	attempt_run(&t);
	CHECK_ERRNO("task-clock", &t, -EOPNOTSUPP, "branch stack on task-clock");
	CHECK_PREFIX(t.msg, "operation not supported: ");
	CHECK_CONTAINS(t.msg, "branch");
	CHECK_CONTAINS(t.msg, "software");
}

/* ---- EOVERFLOW -------------------------------------------------------------- */

TEST(eoverflow_sample_max_stack)
{
	struct perfev_knobs k = knobs();
	struct attempt t;

	CHECK(k.max_stack != PERFEV_KNOB_UNKNOWN);
	task_clock(&t);
	t.attr.sample_period = 100000;
	t.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	t.attr.sample_max_stack = (uint16_t)(k.max_stack + 1);
	attempt_run(&t);
	CHECK_ERRNO("task-clock", &t, -EOVERFLOW, "sample_max_stack above the maximum");
	CHECK_PREFIX(t.msg, "value too large: ");
	CHECK_CONTAINSF(t.msg, "sample_max_stack %d", k.max_stack + 1);
	CHECK_CONTAINSF(t.msg, "perf_event_max_stack %d", k.max_stack);
}

/* ---- ESRCH ------------------------------------------------------------------ */

TEST(esrch_dead_pid)
{
	struct attempt t;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0)
		_exit(0);
	CHECK(waitpid(pid, NULL, 0) == pid);
	task_clock(&t);
	t.pid = pid;
	attempt_run(&t);
	CHECK_ERRNO("task-clock", &t, -ESRCH, "reaped child's pid");
	CHECK_PREFIX(t.msg, "no such process: ");
	CHECK_CONTAINSF(t.msg, "pid %d", (int)pid);
}

/* ---- EINTR ------------------------------------------------------------------ */

/* The probed function: never inlined, so it has an address in the binary. */
__attribute__((noinline)) int uprobe_target(int x);
__attribute__((noinline)) int uprobe_target(int x)
{
	__asm__ volatile("" : : : "memory");
	return x + 1;
}

/* Path and file offset of @addr in this process's mappings. */
static int file_offset(uintptr_t addr, char *path, size_t len, unsigned long long *off)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[PATH_MAX + 128];
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, pgoff;
		int n = 0;

		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %n", &start, &end, &pgoff, &n) < 3 ||
		    !n)
			continue;
		if (addr < start || addr >= end || line[n] != '/')
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(path, len, "%s", line + n);
		*off = addr - start + pgoff;
		err = strpbrk(path, " \t") ? -EINVAL : 0;
		break;
	}
	fclose(f);
	return err;
}

#define PROBE_GROUP "perfev_test"
#define PROBE_NAME  "probe1"

TEST(eintr_uprobe_used_by_ftrace)
{
	char tracing[PATH_MAX / 2], uevents[PATH_MAX], enable[PATH_MAX], idpath[PATH_MAX];
	char exe[PATH_MAX], def[PATH_MAX + 64], text[65536];
	struct perfev_tracefs *tfs;
	unsigned long long off = 0;
	int err, add_err, en_err = -1, id_err = -1, dis_err = 0, del_err;
	struct attempt t;
	long long id = -1;

	if (geteuid() != 0) {
		harness_skip("uprobe", "creating a uprobe in tracefs needs root");
		return;
	}
	err = perfev_tracefs_open(NULL, &tfs);
	if (err) {
		harness_skip("uprobe", "tracefs: %s (mount -t tracefs nodev /sys/kernel/tracing)",
			     err_name(err));
		return;
	}
	snprintf(tracing, sizeof(tracing), "%s", perfev_tracefs_path(tfs));
	perfev_tracefs_free(tfs);
	snprintf(uevents, sizeof(uevents), "%s/uprobe_events", tracing);
	if (access(uevents, W_OK)) {
		harness_skip("uprobe", "no writable %s (CONFIG_UPROBE_EVENTS off?)", uevents);
		return;
	}
	snprintf(enable, sizeof(enable), "%s/events/" PROBE_GROUP "/" PROBE_NAME "/enable",
		 tracing);
	snprintf(idpath, sizeof(idpath), "%s/events/" PROBE_GROUP "/" PROBE_NAME "/id", tracing);
	CHECK(uprobe_target(1) == 2);
	err = file_offset((uintptr_t)&uprobe_target, exe, sizeof(exe), &off);
	CHECK(err == 0 || !"uprobe_target not found in a file mapping of /proc/self/maps");

	/* A probe left by an interrupted run would make the definition fail. */
	write_file(enable, "0", 0);
	write_file(uevents, "-:" PROBE_GROUP "/" PROBE_NAME "\n", O_APPEND);

	/* O_APPEND: opening uprobe_events with O_TRUNC deletes every probe. */
	snprintf(def, sizeof(def), "p:" PROBE_GROUP "/" PROBE_NAME " %s:0x%llx\n", exe, off);
	add_err = write_file(uevents, def, O_APPEND);
	if (!add_err) {
		char idtext[32];

		id_err = test_read_text(idpath, idtext, sizeof(idtext));
		if (id_err > 0) {
			id = atoll(idtext);
			id_err = 0;
		}
		en_err = write_file(enable, "1", 0);
	}
	task_clock(&t);
	t.err = 1;
	if (!add_err && !id_err && !en_err) {
		t.attr.type = PERF_TYPE_TRACEPOINT;
		t.attr.config = (uint64_t)id;
		t.attr.exclude_kernel = 0;
		attempt_run(&t);
	}

	/* Clean up in every case: disable, then delete. */
	if (!en_err)
		dis_err = write_file(enable, "0", 0);
	del_err = add_err ? 0 : write_file(uevents, "-:" PROBE_GROUP "/" PROBE_NAME "\n", O_APPEND);
	EXPECT(!dis_err, "cannot disable %s: %s", enable, err_name(dis_err));
	EXPECT(!del_err, "cannot delete the probe: %s", err_name(del_err));
	if (test_read_text(uevents, text, sizeof(text)) >= 0)
		EXPECT(!strstr(text, PROBE_GROUP), "a probe is left in %s: %s", uevents, text);

	if (add_err) {
		if (skip_class(add_err)) {
			harness_skip("uprobe", "defining '%s' in uprobe_events: %s", def,
				     err_name(add_err));
			return;
		}
		harness_fail(__FILE__, __LINE__, "defining '%s': %s", def, err_name(add_err));
		return;
	}
	CHECK(id_err == 0 || !"cannot read the probe's id");
	CHECK(en_err == 0 || !"cannot enable the probe through ftrace");
	CHECK_ERRNO("uprobe", &t, -EINTR, "perf on an ftrace-enabled uprobe");
	CHECK_PREFIX(t.msg, "interrupted: ");
	CHECK_CONTAINS(t.msg, "uprobe");
	CHECK_CONTAINS(t.msg, PROBE_GROUP "/" PROBE_NAME);
	CHECK_CONTAINS(t.msg, "ftrace");
	CHECK_CONTAINS(t.msg, "events/" PROBE_GROUP "/" PROBE_NAME "/enable");
}

/* ---- EBUSY ------------------------------------------------------------------ */

/* A PMU that allows one event per context (PERF_PMU_CAP_EXCLUSIVE). */
static bool exclusive_pmu(char *name, size_t len, int *type)
{
	static const char *const prefixes[] = {"intel_pt", "intel_bts", "arm_spe", "cs_etm"};
	DIR *d = opendir(PMU_DIR);
	struct dirent *de;
	bool found = false;
	size_t i;

	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		char path[PATH_MAX], text[32];

		for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
			if (!strncmp(de->d_name, prefixes[i], strlen(prefixes[i])))
				break;
		if (i == sizeof(prefixes) / sizeof(prefixes[0]))
			continue;
		snprintf(path, sizeof(path), PMU_DIR "/%s/type", de->d_name);
		if (test_read_text(path, text, sizeof(text)) > 0) {
			snprintf(name, len, "%s", de->d_name);
			*type = atoi(text);
			found = true;
		}
	}
	closedir(d);
	return found;
}

TEST(ebusy_exclusive_pmu)
{
	struct attempt t;
	char name[256];
	int type, first;

	if (!exclusive_pmu(name, sizeof(name), &type)) {
		harness_skip("exclusive-pmu", "no PMU with exclusive capability (intel_pt, "
					      "intel_bts, arm_spe, cs_etm) under " PMU_DIR);
		return;
	}
	attempt_init(&t);
	t.attr.type = (uint32_t)type;
	t.attr.exclude_kernel = 1;
	first = perfev_sys_open(&t.attr, 0, -1, -1, 0);
	SKIP_ERRNO("exclusive-pmu", first, name);
	attempt_run(&t);
	close(first);
	CHECK_ERRNO("exclusive-pmu", &t, -EBUSY, "second event on an exclusive PMU");
	CHECK_PREFIX(t.msg, "device busy: ");
	CHECK_CONTAINS(t.msg, "exclusive");
}

/* ---- ENOSYS ----------------------------------------------------------------- */

TEST(enosys_stack_user)
{
	struct attempt t;

#if defined(__x86_64__)
	(void)t;
	harness_skip("enosys", "x86_64 supports PERF_SAMPLE_STACK_USER, so ENOSYS cannot occur");
#else
	task_clock(&t);
	t.attr.sample_period = 100000;
	t.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_STACK_USER;
	t.attr.sample_stack_user = 8192;
	attempt_run(&t);
	if (t.err >= 0) {
		harness_skip("enosys", "this architecture supports PERF_SAMPLE_STACK_USER, so "
				       "ENOSYS cannot occur");
		return;
	}
	CHECK_ERRNO("enosys", &t, -ENOSYS, "PERF_SAMPLE_STACK_USER");
	CHECK_PREFIX(t.msg, "not implemented: ");
	CHECK_CONTAINS(t.msg, "PERF_SAMPLE_STACK_USER");
#endif
}
