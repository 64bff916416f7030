/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What a command measures: -p, -t, -a, -C, -G or a program, as perf takes them. */
#ifndef PERFEV_CLI_TARGET_H
#define PERFEV_CLI_TARGET_H

#include <stdbool.h>
#include <sys/types.h>
#include "options.h"
#include "perfev-cli.h"

struct cli_target_args {
	const char *pids, *tids, *cpu_list, *cgroup;
	bool all_cpus, no_inherit;
	bool all_threads; /* with -a: every thread of the system, each on its own (--per-thread) */
	char **cmd;	  /* the program after the options, or NULL */
};

struct cli_target {
	struct perfev_target t;
	char *const *workload; /* a program run alongside a -p/-t/-a/-C/-G target */
	pid_t *pids, *tids;
	int *cpus;
	size_t npids, ntids, ncpus;
};

/*
 * Turn the options into a session target; conflicting or malformed ones
 * are a usage error (exit 2).
 */
void cli_target_setup(struct cli_target *ct, const struct cli_target_args *a,
		      const char *const *usage, const struct option *opts);
void cli_target_release(struct cli_target *ct);
/* How many of -p, -t and -a/-C/-G were given. */
int cli_target_count(const struct cli_target_args *a);

/* Why a program could not be run, in words for its user. */
const char *cli_exec_error(int err);
/* A pidfd for @pid, or -1. */
int cli_pidfd(pid_t pid);
/* The exit status perfev takes from the command's wait status (128+N when killed). */
int cli_exit_status(int status, char *const *argv);
/*
 * Whether SIGHUP was ignored when perfev started (nohup): it is then left
 * ignored, for perfev and for the command, as perf leaves it.
 */
bool cli_hup_ignored(void);

#endif /* PERFEV_CLI_TARGET_H */
