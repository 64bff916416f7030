// SPDX-License-Identifier: LGPL-2.1-or-later
/* Targets of stat and record: pid, thread and CPU lists, commands. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "target.h"

/* "1,2,5" into pids; exits with a usage error on anything else. */
static pid_t *parse_pid_list(const char *s, size_t *n, const char *const *usage,
			     const struct option *opts, const char *what)
{
	pid_t *v = NULL;
	size_t cap = 0;
	const char *p = s;

	*n = 0;
	while (*p) {
		const char *end;
		unsigned long long x;

		if (opt_parse_unsigned(p, 0x3fffffff, &x, &end) || !x || (*end && *end != ','))
			usage_error(usage, opts, "invalid %s list '%s'", what, s);
		cli_grow(&v, &cap, *n + 1, sizeof(*v));
		v[(*n)++] = (pid_t)x;
		p = *end ? end + 1 : end;
	}
	if (!*n)
		usage_error(usage, opts, "empty %s list", what);
	return v;
}

/* Threads of several processes, for -p with more than one pid. */
static pid_t *threads_of(const pid_t *pids, size_t npids, size_t *n)
{
	pid_t *v = NULL;
	size_t cap = 0, i;

	*n = 0;
	for (i = 0; i < npids; i++) {
		char path[64];
		struct dirent *de;
		DIR *dir;

		snprintf(path, sizeof(path), "/proc/%d/task", (int)pids[i]);
		dir = opendir(path);
		if (!dir)
			cli_die("no such process: pid %d does not exist", (int)pids[i]);
		while ((de = readdir(dir))) {
			long t = strtol(de->d_name, NULL, 10);

			if (t <= 0)
				continue;
			cli_grow(&v, &cap, *n + 1, sizeof(*v));
			v[(*n)++] = (pid_t)t;
		}
		closedir(dir);
	}
	return v;
}

/* Every thread of the system now (processes that exit meanwhile are passed over). */
static pid_t *all_threads(size_t *n)
{
	pid_t *pids = NULL, *v = NULL;
	size_t npids = 0, cap = 0, i;
	struct dirent *de;
	DIR *dir = opendir("/proc");

	if (!dir)
		cli_die("cannot list the processes: /proc: %s", strerror(errno));
	while ((de = readdir(dir))) {
		long p = strtol(de->d_name, NULL, 10);

		if (p <= 0)
			continue;
		cli_grow(&pids, &cap, npids + 1, sizeof(*pids));
		pids[npids++] = (pid_t)p;
	}
	closedir(dir);
	*n = 0;
	cap = 0;
	for (i = 0; i < npids; i++) {
		char path[64];
		DIR *task;

		snprintf(path, sizeof(path), "/proc/%d/task", (int)pids[i]);
		task = opendir(path);
		while (task && (de = readdir(task))) {
			long t = strtol(de->d_name, NULL, 10);

			if (t <= 0)
				continue;
			cli_grow(&v, &cap, *n + 1, sizeof(*v));
			v[(*n)++] = (pid_t)t;
		}
		if (task)
			closedir(task);
	}
	free(pids);
	return v;
}

static int *parse_cpus(const char *s, size_t *n, const char *const *usage,
		       const struct option *opts)
{
	int cnt = perfev_cpulist_parse(s, strlen(s), NULL, 0), *cpus;

	if (cnt <= 0)
		usage_error(usage, opts, "invalid CPU list '%s' (write it like 0-3,8)", s);
	cpus = calloc((size_t)cnt, sizeof(*cpus));
	if (!cpus)
		cli_die("out of memory");
	perfev_cpulist_parse(s, strlen(s), cpus, (size_t)cnt);
	*n = (size_t)cnt;
	return cpus;
}

int cli_target_count(const struct cli_target_args *a)
{
	return !!a->pids + !!a->tids + (a->all_cpus || a->cpu_list || a->cgroup);
}

void cli_target_setup(struct cli_target *ct, const struct cli_target_args *a,
		      const char *const *usage, const struct option *opts)
{
	int ntargets = cli_target_count(a);

	memset(ct, 0, sizeof(*ct));
	if (ntargets > 1)
		usage_error(usage, opts, "give only one of -p, -t and -a/-C/-G");
	if (!ntargets && !a->cmd)
		usage_error(usage, opts,
			    "no command to run: give one after the options, or -p, -t or -a");
	if (a->pids) {
		ct->pids = parse_pid_list(a->pids, &ct->npids, usage, opts, "pid");
		if (ct->npids == 1) {
			ct->t.kind = PERFEV_TARGET_PID;
			ct->t.pid = ct->pids[0];
		} else {
			ct->tids = threads_of(ct->pids, ct->npids, &ct->ntids);
			ct->t.kind = PERFEV_TARGET_THREADS;
		}
	} else if (a->tids) {
		ct->tids = parse_pid_list(a->tids, &ct->ntids, usage, opts, "thread id");
		ct->t.kind = PERFEV_TARGET_THREADS;
	} else if (a->all_threads && a->all_cpus && !a->cpu_list && !a->cgroup) {
		ct->tids = all_threads(&ct->ntids);
		ct->t.kind = PERFEV_TARGET_THREADS;
	} else if (a->all_cpus || a->cpu_list || a->cgroup) {
		ct->t.kind = a->cgroup ? PERFEV_TARGET_CGROUP : PERFEV_TARGET_CPUS;
		ct->t.cgroup = a->cgroup;
		if (a->cpu_list)
			ct->cpus = parse_cpus(a->cpu_list, &ct->ncpus, usage, opts);
	} else {
		ct->t.kind = PERFEV_TARGET_COMMAND;
		ct->t.argv = a->cmd;
	}
	ct->t.sz = sizeof(ct->t);
	ct->t.tids = ct->tids;
	ct->t.ntids = ct->ntids;
	ct->t.cpus = ct->cpus;
	ct->t.ncpus = ct->ncpus;
	ct->t.no_inherit = a->no_inherit;
	if (ntargets && a->cmd)
		ct->workload = a->cmd;
}

void cli_target_release(struct cli_target *ct)
{
	free(ct->pids);
	free(ct->tids);
	free(ct->cpus);
	memset(ct, 0, sizeof(*ct));
}

const char *cli_exec_error(int err)
{
	switch (err < 0 ? -err : err) {
	case ENOENT:
		return "command not found (no such file, or not in PATH)";
	case EACCES:
		return "permission denied (not executable?)";
	case ENOEXEC:
		return "not an executable format";
	case ESRCH:
		return "it exited before it could start";
	default:
		return perfev_strerror(err);
	}
}

int cli_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

bool cli_hup_ignored(void)
{
	struct sigaction sa;

	return !sigaction(SIGHUP, NULL, &sa) && sa.sa_handler == SIG_IGN;
}

int cli_exit_status(int status, char *const *argv)
{
	if (status < 0)
		return 1;
	if (WIFSIGNALED(status)) {
		cli_error("'%s' was killed by signal %d (%s)", argv[0], WTERMSIG(status),
			  strsignal(WTERMSIG(status)));
		return 128 + WTERMSIG(status);
	}
	return WEXITSTATUS(status);
}
