// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What a session's target means in (cpu, pid) instances: the threads of
 * a process, a thread list, CPU lists, a cgroup; and starting a command
 * held before exec until the counters are armed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "count/session-internal.h"

static int set_task_instances(struct perfev_session *s, const pid_t *tids, size_t n)
{
	s->cpus = malloc(sizeof(*s->cpus));
	s->tids = malloc((n ? n : 1) * sizeof(*s->tids));
	if (!s->cpus || !s->tids)
		return -ENOMEM;
	s->cpus[0] = -1;
	s->ncpus = 1;
	memcpy(s->tids, tids, n * sizeof(*tids));
	s->ntids = n;
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

/* Every thread of @pid, from /proc/PID/task. */
static int process_threads(struct perfev_session *s, pid_t pid, struct perfev_session_error *err)
{
	char path[PATH_MAX];
	struct dirent *de;
	pid_t *tids = NULL;
	size_t n = 0, cap = 0;
	int ret;
	DIR *d;

	if (pid <= 0)
		return perfev__sess_fail(err, -EINVAL, -1, -1, pid, "invalid pid %d", (int)pid);
	if (perfev__path(path, sizeof(path), s->procfs_root, "/%d/task", (int)pid))
		return -ENAMETOOLONG;
	d = opendir(path);
	if (!d) {
		ret = errno == ENOENT ? -ESRCH : -errno;
		return perfev__sess_fail(err, ret, -1, -1, pid,
					 ret == -ESRCH ? "no such process: pid %d does not exist"
						       : "cannot list the threads of pid %d",
					 (int)pid);
	}
	while ((de = readdir(d))) {
		char *end;
		long v = strtol(de->d_name, &end, 10);

		if (de->d_name[0] == '.' || *end || v <= 0 || v > INT_MAX)
			continue;
		if (perfev__grow(&tids, &cap, n + 1, sizeof(*tids))) {
			closedir(d);
			free(tids);
			return -ENOMEM;
		}
		tids[n++] = (pid_t)v;
	}
	closedir(d);
	if (!n) {
		free(tids);
		return perfev__sess_fail(err, -ESRCH, -1, -1, pid, "pid %d has no threads left",
					 (int)pid);
	}
	qsort(tids, n, sizeof(*tids), cmp_pid);
	ret = set_task_instances(s, tids, n);
	free(tids);
	return ret;
}

static int cpu_instances(struct perfev_session *s, const struct perfev_target *t,
			 struct perfev_session_error *err)
{
	struct perfev_topology_opts to = {.sz = sizeof(to), .sysfs_root = s->sysfs_root};
	int n, ret;
	size_t i;

	s->tids = malloc(sizeof(*s->tids));
	if (!s->tids)
		return -ENOMEM;
	s->tids[0] = -1;
	s->ntids = 1;
	if (t->cpus && t->ncpus) {
		s->cpus = malloc(t->ncpus * sizeof(*s->cpus));
		if (!s->cpus)
			return -ENOMEM;
		ret = perfev_topology_load(&to, &s->topo);
		for (i = 0; i < t->ncpus; i++) {
			const struct perfev_cpu_info *ci =
			    ret ? NULL : perfev_topology_cpu(s->topo, t->cpus[i]);

			if (t->cpus[i] < 0 || (!ret && !ci))
				return perfev__sess_fail(err, -EINVAL, -1, t->cpus[i], -1,
							 "cpu %d does not exist on this machine",
							 t->cpus[i]);
			if (ci && !ci->online)
				return perfev__sess_fail(err, -ENODEV, -1, t->cpus[i], -1,
							 "cpu %d is offline", t->cpus[i]);
			s->cpus[i] = t->cpus[i];
		}
		s->ncpus = t->ncpus;
		return 0;
	}
	ret = perfev_topology_load(&to, &s->topo);
	if (ret)
		return perfev__sess_fail(err, ret, -1, -1, -1, "cannot read the list of CPUs: %s",
					 perfev_strerror(ret));
	n = perfev_topology_online(s->topo, NULL, 0);
	if (n <= 0)
		return perfev__sess_fail(err, -ENODEV, -1, -1, -1, "no CPU is online");
	s->cpus = malloc((size_t)n * sizeof(*s->cpus));
	if (!s->cpus)
		return -ENOMEM;
	perfev_topology_online(s->topo, s->cpus, (size_t)n);
	s->ncpus = (size_t)n;
	return 0;
}

/*
 * Where cgroups are mounted: the v1 hierarchy with the perf_event
 * controller if there is one, else the cgroup2 mount (from mountinfo).
 */
static int cgroup_mount(const struct perfev_session *s, char *buf, size_t len)
{
	char path[PATH_MAX], *text, *line, *save = NULL;
	bool found = false;

	if (perfev__path(path, sizeof(path), s->procfs_root, "/self/mountinfo") ||
	    perfev__read_file(path, &text, 1 << 22) < 0)
		return -ENOENT;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char mnt[PATH_MAX], fstype[64], opts[512];
		const char *dash = strstr(line, " - ");

		/* "id parent maj:min root MOUNT opts ... - FSTYPE SOURCE SUPEROPTS" */
		if (!dash || sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 ||
		    sscanf(dash + 3, "%63s %*s %511s", fstype, opts) < 1)
			continue;
		if (!strcmp(fstype, "cgroup") && strstr(opts, "perf_event")) {
			snprintf(buf, len, "%s", mnt);
			found = true;
			break;
		}
		if (!strcmp(fstype, "cgroup2") && !found) {
			snprintf(buf, len, "%s", mnt);
			found = true;
		}
	}
	free(text);
	return found ? 0 : -ENOENT;
}

static int open_cgroup(struct perfev_session *s, const char *name, struct perfev_session_error *err)
{
	char path[PATH_MAX], mnt[PATH_MAX];
	int fd;

	if (!name || !*name)
		return perfev__sess_fail(err, -EINVAL, -1, -1, -1, "no cgroup given");
	if (name[0] == '/') {
		snprintf(path, sizeof(path), "%s", name);
	} else {
		if (cgroup_mount(s, mnt, sizeof(mnt)))
			return perfev__sess_fail(
			    err, -ENOENT, -1, -1, -1,
			    "cannot find cgroup '%s': no cgroup file system is "
			    "mounted (mount -t cgroup2 none /sys/fs/cgroup)",
			    name);
		if (snprintf(path, sizeof(path), "%s/%s", mnt, name) >= (int)sizeof(path))
			return -ENAMETOOLONG;
	}
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int e = -errno;

		return perfev__sess_fail(err, e, -1, -1, -1,
					 e == -ENOENT	 ? "no such cgroup '%s' (%s does not exist)"
					 : e == -ENOTDIR ? "'%s' is not a cgroup directory (%s)"
							 : "cannot open cgroup '%s' (%s)",
					 name, path);
	}
	s->cgroup_fd = fd;
	snprintf(s->cgroup_path, sizeof(s->cgroup_path), "%s", path);
	return 0;
}

/* task_per_cpu: the threads of a task target on every online CPU. */
static int spread_over_cpus(struct perfev_session *s, struct perfev_session_error *err)
{
	pid_t *tids = s->tids;
	size_t ntids = s->ntids;
	struct perfev_target all = {.sz = sizeof(all)};
	int ret;

	free(s->cpus);
	s->cpus = NULL;
	s->tids = NULL;
	ret = cpu_instances(s, &all, err);
	free(s->tids);
	s->tids = tids;
	s->ntids = ntids;
	return ret;
}

static int resolve(struct perfev_session *s, const struct perfev_target *t,
		   struct perfev_session_error *err)
{
	pid_t self;

	s->kind = t->kind;
	s->inherit = !t->no_inherit;
	switch (t->kind) {
	case PERFEV_TARGET_SELF:
		/* The thread's own id opens the same as pid 0 and names it in per-thread output. */
		self = gettid();
		return set_task_instances(s, &self, 1);
	case PERFEV_TARGET_PID:
		return process_threads(s, t->pid, err);
	case PERFEV_TARGET_THREADS:
		if (!t->tids || !t->ntids)
			return perfev__sess_fail(err, -EINVAL, -1, -1, -1, "no thread given");
		/* Threads listed one by one are counted as given, not their children. */
		s->inherit = false;
		return set_task_instances(s, t->tids, t->ntids);
	case PERFEV_TARGET_COMMAND:
		if (!t->argv || !t->argv[0])
			return perfev__sess_fail(err, -EINVAL, -1, -1, -1, "no command given");
		return perfev__sess_fork_command(s, t->argv, err);
	case PERFEV_TARGET_CPUS:
		s->inherit = false;
		return cpu_instances(s, t, err);
	case PERFEV_TARGET_CGROUP:
		s->inherit = false;
		return open_cgroup(s, t->cgroup, err) ?: cpu_instances(s, t, err);
	}
	return perfev__sess_fail(err, -EINVAL, -1, -1, -1, "unknown target kind %d", (int)t->kind);
}

int perfev__sess_resolve_target(struct perfev_session *s, const struct perfev_target *t,
				struct perfev_session_error *err)
{
	int ret = resolve(s, t, err);

	if (ret || !s->opts.task_per_cpu || s->kind == PERFEV_TARGET_CPUS ||
	    s->kind == PERFEV_TARGET_CGROUP)
		return ret;
	return spread_over_cpus(s, err);
}

/* ---- commands ---------------------------------------------------------- */

/*
 * The child waits for one byte on @go before exec, so the parent can open
 * counters on its pid with enable_on_exec: counting starts at the exec
 * and covers exactly the program.  A failed exec sends its errno back
 * through @errp (close-on-exec, so a successful exec closes it).
 */
int perfev__sess_fork_command(struct perfev_session *s, char *const *argv,
			      struct perfev_session_error *err)
{
	int go[2], ep[2], e;
	pid_t pid;

	/* A socket, so a write to a child that died is EPIPE, not SIGPIPE. */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, go))
		return -errno;
	if (pipe2(ep, O_CLOEXEC)) {
		e = -errno;
		close(go[0]);
		close(go[1]);
		return e;
	}
	pid = fork();
	if (pid < 0) {
		e = -errno;
		close(go[0]);
		close(go[1]);
		close(ep[0]);
		close(ep[1]);
		return perfev__sess_fail(err, e, -1, -1, -1, "cannot fork: %s", perfev_strerror(e));
	}
	if (!pid) {
		char c;

		close(go[1]);
		close(ep[0]);
		/* EOF instead of the byte: the parent gave up; do not run the program. */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		e = errno;
		if (write(ep[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ep[1]);
	s->child = pid;
	s->go_fd = go[1];
	s->err_fd = ep[0];
	return set_task_instances(s, &pid, 1);
}

int perfev__sess_release_command(struct perfev_session *s)
{
	char c = 1;
	int e = 0;
	ssize_t n;

	if (send(s->go_fd, &c, 1, MSG_NOSIGNAL) != 1) {
		int se = errno;

		/* The child is gone (killed before it could run the program). */
		waitpid(s->child, NULL, 0);
		s->child = 0;
		s->started = true;
		return se == EPIPE || se == ECONNRESET ? -ESRCH : -se;
	}
	close(s->go_fd);
	s->go_fd = -1;
	do
		n = read(s->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(s->err_fd);
	s->err_fd = -1;
	s->started = true;
	if (n == (ssize_t)sizeof(e)) {
		/* The program never ran: reap the child that reported it. */
		waitpid(s->child, NULL, 0);
		s->child = 0;
		return -e;
	}
	return 0;
}

void perfev__sess_kill_command(struct perfev_session *s)
{
	if (s->go_fd >= 0) {
		close(s->go_fd);
		s->go_fd = -1;
	}
	if (s->err_fd >= 0) {
		close(s->err_fd);
		s->err_fd = -1;
	}
	/* Never started: the child exits on EOF; make sure and reap it. */
	if (s->child > 0 && !s->started) {
		kill(s->child, SIGKILL);
		waitpid(s->child, NULL, 0);
		s->child = 0;
	}
}
