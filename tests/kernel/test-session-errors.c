// SPDX-License-Identifier: LGPL-2.1-or-later
/* Counting sessions: fallbacks, control, multiplexing and every error path. */
#include "session-common.h"

/* ---- fallbacks ---------------------------------------------------------------- */

struct nobody_report {
	int ret, state, exclude_kernel;
	uint64_t raw;
	char note[512], message[512];
};

/* In a child that became nobody: open @s on itself, count a little, report. */
static void nobody_child(struct perfev_session *s, int fd)
{
	struct perfev_session_error e = {.sz = sizeof(e)};
	struct nobody_report r = {.ret = INT_MIN};
	struct perfev_count c;
	gid_t g = NOBODY;

	if (setgroups(1, &g) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		goto report;
	r.ret = perfev_session_open(s, &self_target, &e);
	snprintf(r.message, sizeof(r.message), "%s", e.message);
	if (r.ret)
		goto report;
	r.state = (int)perfev_session_event_state(s, 0);
	r.exclude_kernel = perfev_session_event_attr(s, 0)->exclude_kernel;
	snprintf(r.note, sizeof(r.note), "%s", NOTE(s, 0));
	if (!perfev_session_start(s)) {
		test_burn();
		if (!perfev_session_read(s) &&
		    !perfev_session_count(s, 0, PERFEV_AGGR_GLOBAL, 0, &c))
			r.raw = c.raw;
	}
report:
	_exit(write(fd, &r, sizeof(r)) != (ssize_t)sizeof(r));
}

/* Run nobody_child(); false after skipping or failing the case. */
static bool as_nobody(const char *events, const struct perfev_session_opts *o,
		      struct nobody_report *r)
{
	struct perfev_session *s;
	int p[2], pv = read_int("/proc/sys/kernel/perf_event_paranoid", INT_MIN);
	ssize_t n = -1;
	pid_t pid;

	if (!root() || pv != 2) {
		harness_skip(root() ? "paranoid-2" : "root",
			     "%s (perf_event_paranoid %d; the user-only fallback needs 2: kernel "
			     "counting refused, user counting allowed)",
			     root() ? "wrong paranoia" : "becoming nobody needs root", pv);
		return false;
	}
	s = SESSION(events, o);
	if (!s)
		return false;
	if (!pipe2(p, O_CLOEXEC)) {
		pid = fork();
		if (!pid)
			nobody_child(s, p[1]);
		close(p[1]);
		if (pid > 0) {
			n = read(p[0], r, sizeof(*r));
			waitpid(pid, NULL, 0);
		}
		close(p[0]);
	}
	perfev_session_free(s);
	if (n != (ssize_t)sizeof(*r) || r->ret == INT_MIN)
		harness_fail(__FILE__, __LINE__, "the child did not become uid/gid %d and report",
			     NOBODY);
	return !harness_done();
}

TEST(fallback_user_only_as_nobody)
{
	struct nobody_report r;

	if (!as_nobody("task-clock", NULL, &r))
		return;
	CHECK_INT(r.ret, 0);
	EXPECT(r.state == PERFEV_EVENT_OPEN, "state %d", r.state);
	EXPECT(r.exclude_kernel, "the attr still counts the kernel");
	EXPECT(strstr(r.note, "asked 'task-clock', got 'task-clock:u'"), "note \"%s\"", r.note);
	EXPECT(r.raw > 0, "task-clock:u counted nothing");
}

TEST(no_fallback_as_nobody_fails_naming_paranoid)
{
	struct perfev_session_opts o = {.sz = sizeof(o), .no_fallback = true};
	struct nobody_report r;

	if (!as_nobody("task-clock", &o, &r))
		return;
	EXPECT(r.ret == -EACCES, "open: %d", r.ret);
	EXPECT(strstr(r.message, "perf_event_paranoid"), "message \"%s\"", r.message);
}

TEST(fallback_cycles_to_cpu_clock)
{
	struct perfev_session *s;
	const struct perf_event_attr *a;

	if (!hw_probe(PERF_COUNT_HW_CPU_CYCLES))
		SKIP("no-hw-pmu", "this machine has a hardware PMU: cycles opens");
	s = SELF("cycles", NULL);
	if (!s)
		return;
	a = perfev_session_event_attr(s, 0);
	EXPECT(perfev_session_event_state(s, 0) == PERFEV_EVENT_OPEN, "cycles is not counted");
	EXPECT(a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_CPU_CLOCK,
	       "opened type %u config %llu", a->type, (unsigned long long)a->config);
	EXPECT(strstr(NOTE(s, 0), "asked 'cycles', got 'cpu-clock'"), "note \"%s\"", NOTE(s, 0));
	if (WORK(s, 0))
		EXPECT(TOTAL(s, 0).raw > 0, "cpu-clock in place of cycles counted nothing");
	perfev_session_free(s);
}

TEST(fallback_msr_drops_exclude_guest)
{
	struct perf_event_attr a = {.exclude_guest = 1};
	struct perfev_session *s;
	int type = msr_type();

	if (type < 0)
		SKIP("msr", "no msr PMU here");
	a.type = (uint32_t)type;
	if (!probe(&a))
		SKIP("msr", "the msr PMU accepts exclude_guest here: nothing to drop");
	s = SELF("msr/tsc/", NULL);
	if (!s)
		return;
	EXPECT(perfev_session_event_state(s, 0) == PERFEV_EVENT_OPEN, "msr/tsc/ not counted");
	EXPECT(!perfev_session_event_attr(s, 0)->exclude_guest, "exclude_guest still set");
	EXPECT(strstr(NOTE(s, 0), "exclude_guest"), "note \"%s\"", NOTE(s, 0));
	if (WORK(s, 0))
		EXPECT(TOTAL(s, 0).raw > 0, "msr/tsc/ counted nothing");
	perfev_session_free(s);
}

/* Unsupported 'instructions' alone, as a member and as a leader: the rest counts. */
TEST(unsupported_event_others_still_count)
{
	static const struct {
		const char *spec;
		size_t bad; /* 'instructions'; page-faults is always last */
	} cases[] = {
	    {"task-clock,instructions,page-faults", 1},
	    {"{task-clock,instructions,page-faults}", 1},
	    {"{instructions,task-clock,page-faults}", 0},
	};
	struct perfev_session *s;
	struct perfev_count c;
	size_t k, i;

	if (!hw_probe(PERF_COUNT_HW_INSTRUCTIONS))
		SKIP("no-hw-pmu", "this machine counts instructions");
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		if (!(s = SELF(cases[k].spec, NULL)))
			return;
		for (i = 0; i < 3 && (i || WORK(s, 64)); i++) {
			c = TOTAL(s, i);
			if (i == cases[k].bad)
				EXPECT(perfev_session_event_state(s, i) ==
					       PERFEV_EVENT_UNSUPPORTED &&
					   perfev_session_event_note(s, i) && !c.instances,
				       "%s: instructions: state %d, note %s, %u instances",
				       cases[k].spec, (int)perfev_session_event_state(s, i),
				       NOTE(s, i), c.instances);
			else
				EXPECT(perfev_session_event_state(s, i) == PERFEV_EVENT_OPEN &&
					   c.raw >= (i == 2 ? 64 : 1) && c.instances == 1,
				       "%s: %s: %" PRIu64 " over %u", cases[k].spec,
				       perfev_session_event_name(s, i), c.raw, c.instances);
		}
		if (cases[k].bad == 0)
			EXPECT(strstr(NOTE(s, 1), "outside its group"), "member note \"%s\"",
			       NOTE(s, 1));
		perfev_session_free(s);
	}
}

/* Weak group: the kernel refuses msr/tsc/u as a member; it is split off. */
TEST(weak_group_split_when_a_member_is_refused)
{
	struct perf_event_attr a = {.exclude_kernel = 1, .exclude_hv = 1};
	struct perfev_session *s;
	int type = msr_type();
	bool alone;

	if (type < 0)
		SKIP("msr", "no msr PMU here");
	/* Whether msr/tsc/u opens on its own here, after the split. */
	a.type = (uint32_t)type;
	alone = !probe(&a);
	s = SELF("{task-clock,msr/tsc/u}:W", NULL);
	if (!s)
		return;
	EXPECT(strstr(NOTE(s, 0), "split"), "leader note \"%s\"", NOTE(s, 0));
	EXPECT(!(perfev_session_event_attr(s, 0)->read_format & PERF_FORMAT_GROUP),
	       "the split leader still reads a group");
	EXPECT(perfev_session_event_state(s, 1) ==
		   (alone ? PERFEV_EVENT_OPEN : PERFEV_EVENT_UNSUPPORTED),
	       "msr/tsc/u alone %s, state %d", alone ? "opens" : "is refused",
	       (int)perfev_session_event_state(s, 1));
	if (WORK(s, 0)) {
		EXPECT(TOTAL(s, 0).raw > 0, "task-clock counted nothing after the split");
		EXPECT(!alone || TOTAL(s, 1).raw > 0, "msr/tsc/u counted nothing after the split");
	}
	perfev_session_free(s);
}

/*
 * Weak group whose member opens alone.  The kernel refuses a member only
 * inside a group when the group cannot be scheduled together (hardware
 * counters), or for a pinned/exclusive member or a different clock, which
 * the event language does not allow on a member.
 */
TEST(weak_group_member_opens_alone_after_split)
{
	struct perfev_session *s;
	size_t i;
	int hw = hw_probe(PERF_COUNT_HW_CPU_CYCLES);

	if (hw)
		SKIP("hw-pmu",
		     "no event here is refused only inside a group: that needs a hardware PMU "
		     "(cycles: %s); pinned, exclusive or clockid members are not expressible",
		     strerrorname_np(-hw));
	s = SELF("{" HW_EVENTS "}:W", NULL);
	if (!s)
		return;
	EXPECT(strstr(NOTE(s, 0), "split"), "leader note \"%s\"", NOTE(s, 0));
	for (i = 0; i < perfev_session_event_count(s); i++)
		EXPECT(perfev_session_event_state(s, i) == PERFEV_EVENT_OPEN ||
			   hw_probe(perfev_session_event_attr(s, i)->config) != 0,
		       "%s does not open after the split", perfev_session_event_name(s, i));
	perfev_session_free(s);
}

/* ---- enable, disable, reset ---------------------------------------------------- */

TEST(disable_stops_enable_resumes_reset_zeroes)
{
	struct perfev_session *s = SELF("page-faults,task-clock", NULL);
	struct perfev_count pf1, tc1, pf2, tc2;

	if (!s || !WORK(s, 64))
		goto out;
	CHECK_INT(perfev_session_disable(s), 0);
	CHECK_INT(perfev_session_read(s), 0);
	pf1 = TOTAL(s, 0);
	tc1 = TOTAL(s, 1);
	test_touch_fresh_pages(64);
	test_burn();
	CHECK_INT(perfev_session_read(s), 0);
	pf2 = TOTAL(s, 0);
	tc2 = TOTAL(s, 1);
	EXPECT(pf1.raw >= 64 && tc1.raw > 0, "before disable: %" PRIu64 " faults, %" PRIu64 " ns",
	       pf1.raw, tc1.raw);
	EXPECT(pf2.raw == pf1.raw && tc2.raw == tc1.raw,
	       "counted while disabled: faults %" PRIu64 " -> %" PRIu64 ", ns %" PRIu64
	       " -> %" PRIu64,
	       pf1.raw, pf2.raw, tc1.raw, tc2.raw);
	CHECK_INT(perfev_session_enable(s), 0);
	test_touch_fresh_pages(64);
	CHECK_INT(perfev_session_read(s), 0);
	EXPECT(TOTAL(s, 0).raw >= pf2.raw + 64, "not counting again after enable");
	CHECK_INT(perfev_session_disable(s), 0);
	CHECK_INT(perfev_session_reset(s), 0);
	CHECK_INT(perfev_session_read(s), 0);
	EXPECT(TOTAL(s, 0).raw == 0 && TOTAL(s, 1).raw == 0, "after reset: %" PRIu64 ", %" PRIu64,
	       TOTAL(s, 0).raw, TOTAL(s, 1).raw);
out:
	perfev_session_free(s);
}

TEST(enable_now_counts_from_open)
{
	struct perfev_session_opts o = {.sz = sizeof(o), .enable_now = true};
	struct perfev_session *s = SELF("{task-clock,page-faults}", &o);

	if (!s)
		return;
	/* Counting when open returns, members included (the group is enabled once complete). */
	test_touch_fresh_pages(64);
	CHECK_INT(perfev_session_read(s), 0);
	EXPECT(TOTAL(s, 1).raw >= 64, "enable_now: %" PRIu64 " faults before start",
	       TOTAL(s, 1).raw);
	EXPECT(perfev_session_start(s) == 0, "start after enable_now");
	perfev_session_free(s);
}

/* ---- errors ------------------------------------------------------------------- */

TEST(pid_that_does_not_exist_is_esrch)
{
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_PID};
	struct perfev_session_error e;
	char num[16];
	int ret;

	/* A child just reaped: its pid is free. */
	t.pid = fork();
	if (!t.pid)
		_exit(0);
	CHECK(t.pid > 0);
	waitpid(t.pid, NULL, 0);
	ret = try_open("task-clock", &t, &e);
	snprintf(num, sizeof(num), "%d", (int)t.pid);
	EXPECT(ret == -ESRCH && e.err == -ESRCH, "pid %d: %d", (int)t.pid, ret);
	EXPECT(strstr(e.message, "no such process") && strstr(e.message, num), "message \"%s\"",
	       e.message);
}

TEST(target_errors_are_einval)
{
	const pid_t tid = gettid();
	const struct {
		const char *what;
		struct perfev_target t;
	} cases[] = {
	    {"THREADS without tids", {.sz = sizeof(struct perfev_target), .kind = 2}},
	    {"THREADS with ntids 0", {.sz = sizeof(struct perfev_target), .kind = 2, .tids = &tid}},
	    {"COMMAND without argv", {.sz = sizeof(struct perfev_target), .kind = 3}},
	    {"PID -5", {.sz = sizeof(struct perfev_target), .kind = 1, .pid = -5}},
	    {"kind 99", {.sz = sizeof(struct perfev_target), .kind = 99}},
	};
	struct perfev_session_error e;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ret = try_open("task-clock", &cases[i].t, &e);
		EXPECT(ret == -EINVAL && e.err == -EINVAL && e.message[0],
		       "%s: %d, err %d, message \"%s\"", cases[i].what, ret, e.err, e.message);
	}
}

TEST(open_twice_and_calls_before_open_are_einval)
{
	struct perfev_session *s = SESSION("task-clock", NULL);

	if (!s)
		return;
	EXPECT(perfev_session_start(s) == -EINVAL, "start before open");
	EXPECT(perfev_session_read(s) == -EINVAL, "read before open");
	EXPECT(perfev_session_units(s, PERFEV_AGGR_GLOBAL, NULL, 0) == -EINVAL,
	       "units before open");
	if (OPEN(s, &self_target))
		EXPECT(perfev_session_open(s, &self_target, NULL) == -EINVAL, "second open");
	perfev_session_free(s);
}

TEST(count_errors_are_einval)
{
	struct perfev_session *s = SELF("task-clock,page-faults", NULL);
	struct perfev_event_info info = {.sz = sizeof(info)};
	struct perfev_count c;
	int level;

	if (!s)
		return;
	CHECK_INT(perfev_session_read(s), 0);
	/* CPU, CORE, DIE, SOCKET, NODE on a task target, which counts on any CPU. */
	for (level = PERFEV_AGGR_CPU; level <= PERFEV_AGGR_NODE; level++)
		EXPECT(perfev_session_count(s, 0, level, 0, &c) == -EINVAL &&
			   perfev_session_units(s, level, NULL, 0) == -EINVAL,
		       "level %d on a task target", level);
	EXPECT(perfev_session_count(s, 2, PERFEV_AGGR_GLOBAL, 0, &c) == -EINVAL, "event 2 of 2");
	EXPECT(perfev_session_count(s, SIZE_MAX, PERFEV_AGGR_GLOBAL, 0, &c) == -EINVAL,
	       "event SIZE_MAX");
	EXPECT(perfev_session_count(s, 0, PERFEV_AGGR_GLOBAL, 1, &c) == -EINVAL, "unit 1 of 1");
	EXPECT(perfev_session_count(s, 0, PERFEV_AGGR_GLOBAL, 0, NULL) == -EINVAL, "NULL out");
	EXPECT(perfev_session_count(s, 0, (enum perfev_aggr)99, 0, &c) == -EINVAL, "level 99");
	EXPECT(perfev_session_event_info(s, 2, &info) == -EINVAL, "info of event 2 of 2");
	EXPECT(!perfev_session_event_name(s, 2) && !perfev_session_event_attr(s, 2) &&
		   !perfev_session_event_note(s, 2),
	       "accessors of event 2 of 2");
	CHECK_INT(perfev_session_event_info(s, 1, &info), 0);
	EXPECT(info.name && !strcmp(info.name, "page-faults"), "event 1 is '%s'",
	       info.name ?: "(null)");
	perfev_session_free(s);
}

/* Call number @which of the session API with a NULL session: 0 when it refuses it. */
static int null_call(int which)
{
	struct perfev_count c;

	switch (which) {
	case 0:
		return perfev_session_open(NULL, &self_target, NULL) != -EINVAL;
	case 1:
		return perfev_session_start(NULL) != -EINVAL ||
		       perfev_session_read(NULL) != -EINVAL;
	case 2:
		return perfev_session_enable(NULL) != -EINVAL || perfev_session_child(NULL) != 0 ||
		       perfev_session_event_count(NULL) != 0;
	case 3:
		return perfev_session_units(NULL, PERFEV_AGGR_GLOBAL, NULL, 0) != -EINVAL;
	case 4:
		return perfev_session_count(NULL, 0, PERFEV_AGGR_GLOBAL, 0, &c) != -EINVAL;
	}
	perfev_session_free(NULL);
	return 0;
}

/* The NULL-session entry points, each in a child in case it crashes. */
TEST(null_session_is_einval)
{
	static const char *const names[] = {
	    "perfev_session_open",  "perfev_session_start/read", "perfev_session_enable/child",
	    "perfev_session_units", "perfev_session_count",	 "perfev_session_free",
	};
	int i, status;
	pid_t pid;

	for (i = 0; i < 6; i++) {
		pid = fork();
		CHECK(pid >= 0);
		if (!pid)
			_exit(null_call(i));
		CHECK_INT(waitpid(pid, &status, 0), pid);
		if (WIFSIGNALED(status))
			harness_fail(__FILE__, __LINE__, "%s(NULL, ...) crashed: %s", names[i],
				     strsignal(WTERMSIG(status)));
		else
			EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			       "%s(NULL, ...) did not return -EINVAL", names[i]);
	}
}

TEST(struct_sizes_are_checked)
{
	struct {
		struct perfev_session_opts o;
		uint64_t tail;
	} big = {.o.sz = sizeof(big), .tail = 1};
	struct {
		struct perfev_target t;
		uint64_t tail;
	} bigt = {.t.sz = sizeof(bigt), .t.kind = PERFEV_TARGET_SELF, .tail = 1};
	struct perfev_session_error e = {.sz = sizeof(e)};
	struct perfev_session *s = NULL;
	struct perfev_evspec *spec;

	CHECK_INT(perfev_evspec_parse("task-clock", NULL, &spec, NULL), 0);
	EXPECT(perfev_session_new(spec, &big.o, &s) == -EINVAL, "unknown non-zero opts tail");
	big.tail = 0;
	EXPECT(perfev_session_new(spec, &big.o, &s) == 0, "zero opts tail");
	perfev_evspec_free(spec);
	if (!s)
		return;
	EXPECT(perfev_session_open(s, &bigt.t, &e) == -EINVAL, "unknown non-zero target tail");
	e.sz = sizeof(e) - 1;
	EXPECT(perfev_session_open(s, &self_target, &e) == -EINVAL, "err->sz too small");
	e.sz = 0;
	EXPECT(perfev_session_open(s, &self_target, &e) == -EINVAL, "err->sz 0");
	perfev_session_free(s);
}

/* A target from an older caller ends before no_inherit: it must read as false. */
TEST(short_target_struct_reads_defaults)
{
	struct perfev_target t = {.sz = offsetof(struct perfev_target, no_inherit)};
	struct perfev_session *s = SESSION("task-clock", NULL);

	t.kind = PERFEV_TARGET_SELF;
	t.no_inherit = true; /* beyond sz: not the caller's */
	if (s && OPEN(s, &t))
		EXPECT(perfev_session_event_attr(s, 0)->inherit,
		       "a field beyond target->sz was read: no_inherit applied");
	perfev_session_free(s);
}

/* ---- multiplexing ------------------------------------------------------------- */

TEST(multiplexing_scales_counts)
{
	struct perfev_session *s;
	struct perfev_count c;
	bool mux = false;
	size_t i;
	int hw = hw_probe(PERF_COUNT_HW_CPU_CYCLES), k;

	if (hw)
		SKIP("hw-pmu",
		     "software events never compete for counters, so multiplexing needs a "
		     "hardware PMU (cycles: %s)",
		     strerrorname_np(-hw));
	s = SELF(HW_EVENTS, NULL);
	if (!s)
		return;
	CHECK_INT(perfev_session_start(s), 0);
	for (k = 0; k < 50; k++)
		test_burn();
	CHECK_INT(perfev_session_read(s), 0);
	for (i = 0; i < perfev_session_event_count(s); i++) {
		c = TOTAL(s, i);
		if (perfev_session_event_state(s, i) != PERFEV_EVENT_OPEN ||
		    c.running >= c.enabled || !c.running || !c.raw)
			continue;
		mux = true;
		EXPECT(c.scaled > c.raw, "%s: scaled %" PRIu64 " <= raw %" PRIu64,
		       perfev_session_event_name(s, i), c.scaled, c.raw);
	}
	EXPECT(mux, "12 hardware counters and none multiplexed");
	perfev_session_free(s);
}
