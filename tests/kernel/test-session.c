// SPDX-License-Identifier: LGPL-2.1-or-later
/* Counting sessions on real software counters: every target kind and groups. */
#include "session-common.h"

TEST(self_counts_page_faults_of_fresh_pages)
{
	struct perfev_session *s = SELF("page-faults,task-clock", NULL);
	struct perfev_count before, after, t;
	struct perfev_unit u;
	const size_t n = 512;

	if (!s)
		return;
	if (!WORK(s, 0))
		goto out;
	before = TOTAL(s, 0);
	test_touch_fresh_pages(n);
	test_burn();
	CHECK_INT(perfev_session_read(s), 0);
	after = TOTAL(s, 0);
	t = TOTAL(s, 1);
	EXPECT(after.raw >= before.raw + n, "page faults grew by %" PRIu64 ", touched %zu pages",
	       after.raw - before.raw, n);
	EXPECT(after.instances == 1 && after.scaled == after.raw,
	       "%u instances, scaled %" PRIu64 " raw %" PRIu64, after.instances, after.scaled,
	       after.raw);
	EXPECT(t.raw > 0 && t.enabled > 0 && t.running > 0, "task-clock %" PRIu64, t.raw);
	/* The one thread unit is this thread, named by its id. */
	CHECK_INT(perfev_session_units(s, PERFEV_AGGR_THREAD, &u, 1), 1);
	EXPECT(u.tid == gettid(), "THREAD unit tid %d, this thread is %d", (int)u.tid,
	       (int)gettid());
	EXPECT(u.cpu == -1 && u.core == -1 && u.socket == -1 && u.node == -1,
	       "THREAD unit has cpu %d core %d socket %d node %d", u.cpu, u.core, u.socket, u.node);
out:
	perfev_session_free(s);
}

/* ---- PID -------------------------------------------------------------------- */

/* @spec on every thread of the busy child @b. */
static void pid_case(const char *spec, const struct busy *b)
{
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_PID, .pid = b->pid};
	struct perfev_session *s = SESSION(spec, NULL);
	struct perfev_unit u[8];
	uint64_t sum_tc = 0, sum_pf = 0;
	struct perfev_count tc, pf;
	int n, i;

	if (!s || !OPEN(s, &t))
		goto out;
	CHECK_INT(perfev_session_start(s), 0);
	usleep(200 * 1000);
	CHECK_INT(perfev_session_read(s), 0);
	n = perfev_session_units(s, PERFEV_AGGR_THREAD, u, 8);
	CHECK_INT(n, b->n);
	for (i = 0; i < n; i++) {
		EXPECT(has_tid(b->tids, b->n, u[i].tid),
		       "%s: unit %d: tid %d is not a thread of %d", spec, i, (int)u[i].tid,
		       (int)b->pid);
		EXPECT(i == 0 || u[i - 1].tid < u[i].tid, "THREAD units out of order");
		tc = COUNT(s, 0, PERFEV_AGGR_THREAD, (size_t)i);
		pf = COUNT(s, 1, PERFEV_AGGR_THREAD, (size_t)i);
		EXPECT(tc.raw > 0 && pf.raw > 0 && tc.instances == 1,
		       "%s: thread %d: task-clock %" PRIu64 ", page-faults %" PRIu64 " over %u",
		       spec, (int)u[i].tid, tc.raw, pf.raw, tc.instances);
		/* A group is read in one read(2): its members share their times. */
		if (spec[0] == '{')
			EXPECT(tc.enabled == pf.enabled && tc.running == pf.running,
			       "%s: thread %d: members read at different times", spec,
			       (int)u[i].tid);
		sum_tc += tc.raw;
		sum_pf += pf.raw;
	}
	tc = TOTAL(s, 0);
	pf = TOTAL(s, 1);
	EXPECT(tc.raw == sum_tc && pf.raw == sum_pf && tc.instances == (unsigned int)b->n,
	       "%s: totals %" PRIu64 ", %" PRIu64 " over %u; threads sum to %" PRIu64 ", %" PRIu64,
	       spec, tc.raw, pf.raw, tc.instances, sum_tc, sum_pf);
	EXPECT(perfev_session_units(s, PERFEV_AGGR_CPU, NULL, 0) == -EINVAL,
	       "CPU units of a PID target");
out:
	perfev_session_free(s);
}

/* Threads made before the attach are all instances, alone or in a group. */
TEST(pid_counts_every_thread_of_a_process)
{
	struct busy b;

	if (busy_start(3, &b)) {
		pid_case("task-clock,page-faults", &b);
		if (!harness_done())
			pid_case("{task-clock,page-faults}", &b);
	}
	busy_stop(&b);
}

/* ---- THREADS ------------------------------------------------------------------ */

struct spinner {
	pthread_t thread;
	volatile pid_t tid;
	volatile int stop;
};

static void *spin(void *arg)
{
	struct spinner *sp = arg;

	sp->tid = gettid();
	while (!sp->stop)
		test_burn();
	return NULL;
}

static void threads_case(const pid_t *tids)
{
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_THREADS};
	struct perfev_session *s = SESSION("task-clock", NULL);
	struct perfev_unit u[4];
	struct perfev_count c;
	int i;

	t.tids = tids;
	t.ntids = 2;
	if (!s || !OPEN(s, &t))
		goto out;
	EXPECT(!perfev_session_event_attr(s, 0)->inherit, "threads listed one by one inherit");
	CHECK_INT(perfev_session_start(s), 0);
	usleep(100 * 1000);
	CHECK_INT(perfev_session_read(s), 0);
	CHECK_INT(perfev_session_units(s, PERFEV_AGGR_THREAD, u, 4), 2);
	EXPECT(u[0].tid != u[1].tid, "both units are thread %d", (int)u[0].tid);
	for (i = 0; i < 2; i++) {
		EXPECT(has_tid(tids, 2, u[i].tid), "unit tid %d was not asked for", (int)u[i].tid);
		c = COUNT(s, 0, PERFEV_AGGR_THREAD, (size_t)i);
		EXPECT(c.raw > 0 && c.instances == 1, "thread %d: task-clock %" PRIu64 " over %u",
		       (int)u[i].tid, c.raw, c.instances);
	}
out:
	perfev_session_free(s);
}

TEST(threads_counts_the_given_tids)
{
	struct spinner sp[2];
	pid_t tids[2];
	int i, started = 0;

	memset(sp, 0, sizeof(sp));
	while (started < 2 && !pthread_create(&sp[started].thread, NULL, spin, &sp[started]))
		started++;
	if (started == 2) {
		while (!sp[0].tid || !sp[1].tid)
			usleep(1000);
		tids[0] = sp[0].tid;
		tids[1] = sp[1].tid;
		threads_case(tids);
	} else {
		harness_fail(__FILE__, __LINE__, "pthread_create failed");
	}
	for (i = 0; i < started; i++) {
		sp[i].stop = 1;
		pthread_join(sp[i].thread, NULL);
	}
}

/* ---- COMMAND ------------------------------------------------------------------ */

struct run {
	int status;
	uint64_t page_faults;
	uint64_t before_start; /* count plus enabled time before start */
};

/* Count page-faults,task-clock of @argv from exec to exit. */
static bool run_command(char *const *argv, const struct perfev_session_opts *o, struct run *r)
{
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_COMMAND, .argv = argv};
	struct perfev_session *s = SESSION("page-faults,task-clock", o);
	struct perfev_count c;
	pid_t child = 0;
	int ret = -1;

	if (!s || !OPEN(s, &t))
		goto out;
	child = perfev_session_child(s);
	if (child <= 0 || kill(child, 0))
		goto out;
	/* Held before exec: nothing counted yet, however long we wait. */
	usleep(20 * 1000);
	if ((ret = perfev_session_read(s)))
		goto out;
	c = TOTAL(s, 0);
	r->before_start = c.raw + c.enabled;
	if ((ret = perfev_session_start(s)))
		goto out;
	ret = waitpid(child, &r->status, 0) == child ? perfev_session_read(s) : -errno;
	r->page_faults = TOTAL(s, 0).raw;
out:
	if (ret && !harness_done())
		harness_fail(__FILE__, __LINE__, "%s (child %d): %s", argv[0], (int)child,
			     strerrorname_np(-ret));
	perfev_session_free(s);
	return !harness_done();
}

TEST(command_counts_from_exec_and_returns_its_status)
{
	char sh[] = "sh", dash_c[] = "-c", exit3_text[] = "exit 3", true_path[] = "/bin/true";
	char exe[PATH_MAX], touch[] = TOUCH_ARG, pages[16];
	char *exit3[] = {sh, dash_c, exit3_text, NULL};
	char *truecmd[] = {true_path, NULL};
	char *toucher[] = {exe, touch, pages, NULL};
	struct run a, b, c;
	ssize_t n;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	CHECK(n > 0);
	exe[n] = '\0';
	snprintf(pages, sizeof(pages), "%d", TOUCH_PAGES);
	if (!run_command(exit3, NULL, &a) || !run_command(truecmd, NULL, &b) ||
	    !run_command(toucher, NULL, &c))
		return;
	EXPECT(WIFEXITED(a.status) && WEXITSTATUS(a.status) == 3, "sh -c 'exit 3': status %#x",
	       a.status);
	EXPECT(WIFEXITED(b.status) && WEXITSTATUS(b.status) == 0, "true: status %#x", b.status);
	EXPECT(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0, "toucher: status %#x", c.status);
	EXPECT(a.before_start == 0, "counted before exec");
	EXPECT(a.page_faults > 0 && b.page_faults > 0,
	       "exec takes page faults: %" PRIu64 ", %" PRIu64, a.page_faults, b.page_faults);
	EXPECT(c.page_faults >= TOUCH_PAGES, "toucher: %" PRIu64 " page faults for %d pages",
	       c.page_faults, TOUCH_PAGES);
	EXPECT(a.page_faults < TOUCH_PAGES && a.page_faults < c.page_faults,
	       "exit only: %" PRIu64 " page faults, toucher %" PRIu64, a.page_faults,
	       c.page_faults);
}

/* A session for @events on the program @path, forked and held before exec; or NULL. */
static struct perfev_session *held_at(const char *events, const char *path, pid_t *child, int line)
{
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_COMMAND};
	struct perfev_session *s = session_at(events, NULL, line);
	char prog[PATH_MAX];
	char *argv[] = {prog, NULL};

	snprintf(prog, sizeof(prog), "%s", path);
	t.argv = argv;
	if (s && !open_at(s, &t, line)) {
		perfev_session_free(s);
		s = NULL;
	}
	*child = perfev_session_child(s);
	if (s && *child <= 0)
		harness_fail(__FILE__, line, "%s: no child held", path);
	if (harness_done()) {
		perfev_session_free(s);
		return NULL;
	}
	return s;
}

#define HELD(events, path, child) held_at(events, path, child, __LINE__)

TEST(command_armed_for_exec_unless_manual_enable)
{
	struct perfev_session_opts o = {.sz = sizeof(o), .manual_enable = true};
	char true_path[] = "/bin/true";
	char *argv[] = {true_path, NULL};
	struct perfev_session *s;
	const struct perf_event_attr *a;
	struct run r;
	pid_t child;

	if (!(s = HELD("page-faults,task-clock", "/bin/true", &child)))
		return;
	a = perfev_session_event_attr(s, 0);
	EXPECT(a->disabled && a->enable_on_exec, "default: disabled %d enable_on_exec %d",
	       (int)a->disabled, (int)a->enable_on_exec);
	perfev_session_free(s);
	/* Not armed: nothing is counted until the caller enables, which it never does. */
	if (!run_command(argv, &o, &r))
		return;
	EXPECT(r.page_faults == 0, "manual_enable counted %" PRIu64 " page faults unasked",
	       r.page_faults);
}

/* A command whose exec fails with @want: start returns it and no zombie is left. */
static void exec_fails(const char *path, int want)
{
	struct perfev_session *s;
	pid_t child;
	int ret;

	if (!(s = HELD("task-clock", path, &child)))
		return;
	ret = perfev_session_start(s);
	EXPECT(ret == want, "start of %s: %d, expected %d", path, ret, want);
	errno = 0;
	EXPECT(waitpid(child, NULL, WNOHANG) == -1 && errno == ECHILD,
	       "%s: child %d left behind (errno %s)", path, (int)child, strerrorname_np(errno));
	perfev_session_free(s);
}

TEST(command_exec_failure_fails_at_start_and_is_reaped)
{
	char path[64];
	int fd;

	exec_fails("/nonexistent/perfev-no-such-program", -ENOENT);
	snprintf(path, sizeof(path), "/tmp/perfev-test-noexec-%d", (int)getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	CHECK(fd >= 0);
	close(fd);
	exec_fails(path, -EACCES);
	unlink(path);
}

TEST(free_kills_and_reaps_an_unstarted_command)
{
	struct perfev_session *s;
	struct perfev_unit u;
	pid_t child;

	if (!(s = HELD("task-clock", "/bin/true", &child)))
		return;
	EXPECT(perfev_session_units(s, PERFEV_AGGR_THREAD, &u, 1) == 1 && u.tid == child,
	       "the command's thread unit is not its pid %d", (int)child);
	perfev_session_free(s);
	errno = 0;
	EXPECT(waitpid(child, NULL, WNOHANG) == -1 && errno == ECHILD,
	       "held child %d not reaped (errno %s)", (int)child, strerrorname_np(errno));
}

/* A command that died while held: start reports it, the caller lives (no SIGPIPE). */
TEST(start_after_the_held_child_died)
{
	struct perfev_session *s;
	pid_t helper, child;
	siginfo_t si;
	int status;

	if (!(s = HELD("task-clock", "/bin/true", &child)))
		return;
	/* Dead but not reaped: its pid stays its own for the library to reap. */
	kill(child, SIGKILL);
	waitid(P_PID, (id_t)child, &si, WEXITED | WNOWAIT);
	/* Started in a helper process: a SIGPIPE would end the whole test run. */
	helper = fork();
	if (!helper)
		_exit(perfev_session_start(s) < 0 ? 0 : 1);
	perfev_session_free(s);
	CHECK(helper > 0);
	CHECK_INT(waitpid(helper, &status, 0), helper);
	EXPECT(!WIFSIGNALED(status), "perfev_session_start killed the caller: %s",
	       WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "");
	EXPECT(!WIFEXITED(status) || !WEXITSTATUS(status), "start of a dead command succeeded");
}

/* ---- CPUS --------------------------------------------------------------------- */

/* The online CPUs as sysfs places them; returns how many. */
static int sysfs_cpus(struct perfev_unit *out, int max)
{
	char text[4096], path[PATH_MAX], *p;
	struct dirent *de;
	int n = 0;
	long c, hi;
	DIR *d;

	if (test_read_text(CPU_DIR "/online", text, sizeof(text)) <= 0)
		return -1;
	for (p = text; *p && *p != '\n'; p += *p == ',') {
		c = hi = strtol(p, &p, 10);
		if (*p == '-')
			hi = strtol(p + 1, &p, 10);
		for (; c <= hi && n < max; c++, n++) {
			struct perfev_unit *u = &out[n];

			u->cpu = (int)c;
			u->tid = -1;
			snprintf(path, sizeof(path), CPU_DIR "/cpu%ld/topology/core_id", c);
			u->core = read_int(path, -1);
			snprintf(path, sizeof(path), CPU_DIR "/cpu%ld/topology/die_id", c);
			u->die = read_int(path, 0);
			snprintf(path, sizeof(path), CPU_DIR "/cpu%ld/topology/physical_package_id",
				 c);
			u->socket = read_int(path, -1);
			u->node = -1;
			snprintf(path, sizeof(path), CPU_DIR "/cpu%ld", c);
			d = opendir(path);
			while (d && (de = readdir(d)))
				if (!strncmp(de->d_name, "node", 4) && de->d_name[4] >= '0' &&
				    de->d_name[4] <= '9')
					u->node = atoi(de->d_name + 4);
			if (d)
				closedir(d);
		}
	}
	return n;
}

/* Whether @u is the unit of the CPU @c (as sysfs_cpus() gives it) at level @a. */
static bool unit_is(const struct perfev_unit *u, const struct perfev_unit *c, enum perfev_aggr a)
{
	bool socket = u->socket == c->socket, die = socket && u->die == c->die;

	switch (a) {
	case PERFEV_AGGR_CPU:
		return die && u->core == c->core && u->cpu == c->cpu && u->node == c->node;
	case PERFEV_AGGR_CORE:
		return die && u->core == c->core && u->cpu == -1;
	case PERFEV_AGGR_DIE:
		return die && u->core == -1;
	case PERFEV_AGGR_SOCKET:
		return socket && u->die == -1;
	case PERFEV_AGGR_NODE:
		return u->node == c->node && u->socket == -1;
	default:
		return false;
	}
}

/* The units of @a against sysfs, their counts summing to the total. */
static void check_level(struct perfev_session *s, enum perfev_aggr a, const char *name,
			const struct perfev_unit *cpus, int ncpus)
{
	struct perfev_unit u[MAX_CPUS];
	struct perfev_count total = TOTAL(s, 0), c;
	uint64_t raw = 0, enabled = 0;
	unsigned int inst = 0;
	int n, i, k, want = 0;

	/* One unit per CPU whose unit no earlier CPU shares. */
	for (i = 0; i < ncpus; i++) {
		struct perfev_unit mine = cpus[i];

		mine.cpu = a == PERFEV_AGGR_CPU ? mine.cpu : -1;
		mine.core = a <= PERFEV_AGGR_CORE ? mine.core : -1;
		mine.die = a <= PERFEV_AGGR_DIE ? mine.die : -1;
		mine.socket = a <= PERFEV_AGGR_SOCKET ? mine.socket : -1;
		mine.node = a == PERFEV_AGGR_CPU || a == PERFEV_AGGR_NODE ? mine.node : -1;
		for (k = 0; k < i && !unit_is(&mine, &cpus[k], a); k++)
			;
		want += k == i;
	}
	n = perfev_session_units(s, a, u, MAX_CPUS);
	EXPECT(n == want, "%s: %d units, sysfs has %d", name, n, want);
	for (i = 0; i < n && i < MAX_CPUS; i++) {
		for (k = 0; k < ncpus && !unit_is(&u[i], &cpus[k], a); k++)
			;
		EXPECT(k < ncpus && u[i].tid == -1,
		       "%s unit %d (cpu %d core %d die %d socket %d node %d tid %d) not in sysfs",
		       name, i, u[i].cpu, u[i].core, u[i].die, u[i].socket, u[i].node,
		       (int)u[i].tid);
		c = COUNT(s, 0, a, (size_t)i);
		raw += c.raw;
		enabled += c.enabled;
		inst += c.instances;
	}
	EXPECT(raw == total.raw && enabled == total.enabled && inst == total.instances,
	       "%s: units sum to %" PRIu64 "/%" PRIu64 "/%u, total %" PRIu64 "/%" PRIu64 "/%u",
	       name, raw, enabled, inst, total.raw, total.enabled, total.instances);
}

TEST(cpus_all_online_units_match_sysfs)
{
	static struct perfev_unit cpus[MAX_CPUS];
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_CPUS};
	struct perfev_session *s;
	struct perfev_count c;
	int n = sysfs_cpus(cpus, MAX_CPUS);

	CHECK(n > 0);
	s = SESSION("cpu-clock,context-switches", NULL);
	if (!s || !OPEN(s, &t))
		goto out;
	EXPECT(!perfev_session_event_attr(s, 0)->inherit, "system-wide counters inherit");
	if (!WORK(s, 0))
		goto out;
	c = TOTAL(s, 0);
	EXPECT(c.raw > 0 && c.instances == (unsigned int)n, "cpu-clock %" PRIu64 " over %u of %d",
	       c.raw, c.instances, n);
	check_level(s, PERFEV_AGGR_CPU, "cpu", cpus, n);
	check_level(s, PERFEV_AGGR_CORE, "core", cpus, n);
	check_level(s, PERFEV_AGGR_DIE, "die", cpus, n);
	check_level(s, PERFEV_AGGR_SOCKET, "socket", cpus, n);
	check_level(s, PERFEV_AGGR_NODE, "node", cpus, n);
	EXPECT(perfev_session_units(s, PERFEV_AGGR_THREAD, NULL, 0) == -EINVAL,
	       "THREAD units of a CPU target");
out:
	perfev_session_free(s);
}

TEST(cpus_list_counts_only_those_cpus)
{
	static struct perfev_unit cpus[MAX_CPUS];
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_CPUS};
	const int list[] = {0};
	struct perfev_session *s;
	struct perfev_count c, c0;
	struct perfev_unit u[4];
	int n = sysfs_cpus(cpus, MAX_CPUS);

	CHECK(n > 0 && cpus[0].cpu == 0);
	t.cpus = list;
	t.ncpus = 1;
	s = SESSION("cpu-clock", NULL);
	if (!s || !OPEN(s, &t) || !WORK(s, 0))
		goto out;
	CHECK_INT(perfev_session_units(s, PERFEV_AGGR_CPU, u, 4), 1);
	EXPECT(unit_is(&u[0], &cpus[0], PERFEV_AGGR_CPU), "unit: cpu %d core %d socket %d node %d",
	       u[0].cpu, u[0].core, u[0].socket, u[0].node);
	c = TOTAL(s, 0);
	c0 = COUNT(s, 0, PERFEV_AGGR_CPU, 0);
	EXPECT(c.instances == 1 && c.raw > 0 && c.raw == c0.raw, "total %" PRIu64 " cpu0 %" PRIu64,
	       c.raw, c0.raw);
	EXPECT(perfev_session_units(s, PERFEV_AGGR_SOCKET, u, 4) == 1, "one socket for one CPU");
out:
	perfev_session_free(s);
}

TEST(cpus_list_with_a_missing_cpu_is_an_error)
{
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_CPUS};
	struct perfev_session_error e = {.sz = sizeof(e)};
	const int list[] = {MAX_CPUS * 64};
	struct perfev_session *s = SESSION("cpu-clock", NULL);
	int ret;

	if (!s)
		return;
	t.cpus = list;
	t.ncpus = 1;
	ret = perfev_session_open(s, &t, &e);
	/* A bad target, not an event this machine cannot count. */
	EXPECT(ret < 0, "open on cpu %d: %d, event state %d, note \"%s\"", list[0], ret,
	       (int)perfev_session_event_state(s, 0), NOTE(s, 0));
	perfev_session_free(s);
}

/* ---- CGROUP ------------------------------------------------------------------- */

/* The cgroup v2 mount point, from mountinfo. */
static bool cgroup2_mount(char *buf, size_t len)
{
	char line[4096], mnt[PATH_MAX];
	bool found = false;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	while (f && !found && fgets(line, sizeof(line), f)) {
		const char *sep = strstr(line, " - ");

		if (sep && !strncmp(sep, " - cgroup2 ", 11) &&
		    sscanf(line, "%*s %*s %*s %*s %4095s", mnt) == 1 && !strchr(mnt, '\\')) {
			snprintf(buf, len, "%s", mnt);
			found = true;
		}
	}
	if (f)
		fclose(f);
	return found;
}

/* Make cgroup @dir below the v2 mount; false after skipping or failing the case. */
static bool cgroup_make(char *dir, size_t len, const char *suffix)
{
	char mnt[PATH_MAX];

	if (!root() || !cgroup2_mount(mnt, sizeof(mnt))) {
		harness_skip(root() ? "cgroup2" : "root", "%s",
			     root() ? "cgroup v2 is not mounted" : "creating cgroups needs root");
		return false;
	}
	snprintf(dir, len, "%s/perfev-test-%d%s", mnt, (int)getpid(), suffix);
	if (!mkdir(dir, 0755))
		return true;
	if (errno == EACCES || errno == EPERM || errno == EROFS)
		harness_skip("cgroup2", "cannot create %s: %s (not writable here)", dir,
			     strerrorname_np(errno));
	else
		harness_fail(__FILE__, __LINE__, "mkdir %s: %s", dir, strerror(errno));
	return false;
}

static void cgroup_remove(const char *dir)
{
	int i;

	/* A killed task leaves its cgroup a moment after it is reaped. */
	for (i = 0; i < 200; i++) {
		if (!rmdir(dir) || errno == ENOENT)
			return;
		if (errno != EBUSY)
			break;
		usleep(10 * 1000);
	}
	harness_fail(__FILE__, __LINE__, "cannot remove cgroup %s: %s", dir, strerror(errno));
}

static void cgroup_case(const char *dir, const char *empty, const struct busy *b)
{
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_CGROUP, .cgroup = dir};
	struct perfev_target te = {.sz = sizeof(te), .kind = PERFEV_TARGET_CGROUP, .cgroup = empty};
	struct perfev_session *s = SESSION("task-clock", NULL), *se = SESSION("task-clock", NULL);
	char path[PATH_MAX + 128], pid[32];
	struct perfev_count c1, c2, ce;
	uint64_t sum = 0;
	int ret, n, i;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(pid, sizeof(pid), "%d\n", (int)b->pid);
	ret = write_text(path, pid);
	if (ret == -EACCES || ret == -EPERM || ret == -EOPNOTSUPP)
		harness_skip("cgroup2", "cannot move pid %d into %s: %s", (int)b->pid, dir,
			     strerrorname_np(-ret));
	else
		EXPECT(ret == 0, "moving pid %d into %s: %s", (int)b->pid, dir,
		       strerrorname_np(-ret));
	if (ret || !s || !se || !OPEN(s, &t) || !OPEN(se, &te))
		goto out;
	CHECK_INT(perfev_session_start(s), 0);
	CHECK_INT(perfev_session_start(se), 0);
	usleep(100 * 1000);
	CHECK_INT(perfev_session_read(s), 0);
	c1 = TOTAL(s, 0);
	usleep(100 * 1000);
	CHECK_INT(perfev_session_read(s), 0);
	CHECK_INT(perfev_session_read(se), 0);
	c2 = TOTAL(s, 0);
	ce = TOTAL(se, 0);
	EXPECT(c1.raw > 0 && c2.raw > c1.raw, "busy cgroup: %" PRIu64 " then %" PRIu64, c1.raw,
	       c2.raw);
	EXPECT(ce.raw == 0, "an empty cgroup counted %" PRIu64, ce.raw);
	n = perfev_session_units(s, PERFEV_AGGR_CPU, NULL, 0);
	EXPECT(n > 0 && (unsigned int)n == c2.instances, "%d CPU units, %u instances", n,
	       c2.instances);
	for (i = 0; i < n; i++)
		sum += COUNT(s, 0, PERFEV_AGGR_CPU, (size_t)i).raw;
	EXPECT(sum == c2.raw, "per-CPU sum %" PRIu64 " != total %" PRIu64, sum, c2.raw);
out:
	perfev_session_free(s);
	perfev_session_free(se);
}

TEST(cgroup_counts_its_tasks)
{
	char dir[PATH_MAX + 64], empty[PATH_MAX + 64];
	struct busy b = {0};

	if (!cgroup_make(dir, sizeof(dir), ""))
		return;
	if (cgroup_make(empty, sizeof(empty), "-empty")) {
		if (busy_start(1, &b))
			cgroup_case(dir, empty, &b);
		busy_stop(&b);
		cgroup_remove(empty);
	}
	cgroup_remove(dir);
}

/* "absolute or below the cgroup mount": the v2 mount, wherever it is. */
TEST(cgroup_relative_path_is_below_the_cgroup_mount)
{
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_CGROUP};
	struct perfev_session_error e;
	char dir[PATH_MAX + 64];
	int ret;

	if (!cgroup_make(dir, sizeof(dir), "-rel"))
		return;
	t.cgroup = strrchr(dir, '/') + 1;
	ret = try_open("task-clock", &t, &e);
	EXPECT(ret == 0, "cgroup '%s' (made as %s): %s: %s", t.cgroup, dir, strerrorname_np(-ret),
	       e.message);
	cgroup_remove(dir);
}

TEST(cgroup_errors_name_the_cgroup)
{
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_CGROUP};
	char name[64], abs[PATH_MAX + 64], mnt[PATH_MAX], plain[64];
	const char *names[3] = {name, abs, plain};
	struct perfev_session_error e;
	int i, ret;

	snprintf(name, sizeof(name), "perfev-no-such-cgroup-%d", (int)getpid());
	if (!cgroup2_mount(mnt, sizeof(mnt)))
		snprintf(mnt, sizeof(mnt), "/sys/fs/cgroup");
	snprintf(abs, sizeof(abs), "%s/%s", mnt, name);
	/* A directory that is not a cgroup fails too (with what the kernel says). */
	snprintf(plain, sizeof(plain), "/tmp/perfev-test-notcg-%d", (int)getpid());
	CHECK(!mkdir(plain, 0755) || errno == EEXIST);
	for (i = 0; i < 3; i++) {
		t.cgroup = names[i];
		ret = try_open("task-clock", &t, &e);
		EXPECT(i == 2 ? ret < 0 : ret == -ENOENT && e.err == -ENOENT, "cgroup %s: %d",
		       names[i], ret);
		EXPECT(strstr(e.message, names[i]), "message \"%s\" does not name %s", e.message,
		       names[i]);
	}
	rmdir(plain);
}

/* ---- groups ------------------------------------------------------------------- */

TEST(group_members_share_one_read)
{
	struct perfev_session *s = SELF("{task-clock,page-faults,context-switches}", NULL);
	const struct perf_event_attr *a;
	struct perfev_count c[3];
	size_t i;

	if (!s)
		return;
	for (i = 0; i < 3; i++) {
		a = perfev_session_event_attr(s, i);
		EXPECT(!!a->disabled == !i && !!(a->read_format & PERF_FORMAT_GROUP) == !i,
		       "event %zu: disabled %d, read_format %#llx", i, (int)a->disabled,
		       (unsigned long long)a->read_format);
	}
	usleep(1000);
	if (!WORK(s, 64))
		goto out;
	for (i = 0; i < 3; i++)
		c[i] = TOTAL(s, i);
	EXPECT(c[0].raw > 0 && c[1].raw >= 64, "task-clock %" PRIu64 ", page-faults %" PRIu64,
	       c[0].raw, c[1].raw);
	for (i = 1; i < 3; i++)
		EXPECT(c[i].enabled == c[0].enabled && c[i].running == c[0].running,
		       "member %zu: enabled/running %" PRIu64 "/%" PRIu64 ", leader %" PRIu64
		       "/%" PRIu64,
		       i, c[i].enabled, c[i].running, c[0].enabled, c[0].running);
out:
	perfev_session_free(s);
}

TEST(no_group_opens_members_alone)
{
	struct perfev_session_opts o = {.sz = sizeof(o), .no_group = true};
	struct perfev_session *s = SELF("{task-clock,page-faults,context-switches}", &o);
	const struct perf_event_attr *a;
	struct perfev_count c;
	size_t i;

	if (!s)
		return;
	for (i = 0; i < 3; i++) {
		a = perfev_session_event_attr(s, i);
		EXPECT(a->disabled && !(a->read_format & PERF_FORMAT_GROUP),
		       "event %zu: disabled %d, read_format %#llx", i, (int)a->disabled,
		       (unsigned long long)a->read_format);
	}
	if (!WORK(s, 64))
		goto out;
	usleep(1000);
	CHECK_INT(perfev_session_read(s), 0);
	for (i = 0; i < 3; i++) {
		c = TOTAL(s, i);
		EXPECT(c.raw > 0 && c.instances == 1, "event %zu: %" PRIu64 " over %u", i, c.raw,
		       c.instances);
	}
out:
	perfev_session_free(s);
}

/* The header sets no limit on group size; perf reads any group. */
TEST(large_group_reads)
{
	char spec[2048] = "{";
	struct perfev_session *s;
	int i, ret;

	for (i = 0; i < 70; i++)
		strcat(spec, i ? ",page-faults" : "page-faults");
	strcat(spec, "}");
	s = SELF(spec, NULL);
	if (!s)
		return;
	CHECK_INT(perfev_session_start(s), 0);
	test_touch_fresh_pages(16);
	ret = perfev_session_read(s);
	EXPECT(ret == 0, "read of a 70-event group: %s", strerrorname_np(-ret));
	if (!ret)
		EXPECT(TOTAL(s, 69).raw >= 16, "last member: %" PRIu64 " page faults",
		       TOTAL(s, 69).raw);
	perfev_session_free(s);
}
