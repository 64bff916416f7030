/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared pieces of the perfev command-line tool. */
#ifndef PERFEV_CLI_H
#define PERFEV_CLI_H

#include <stdbool.h>
#include <stdio.h>
#include <perfev/perfev.h>
#include "common/array.h"

#define PERFEV_CLI_VERSION "0.1.0"

/* "perfev attr" while a command runs; used as the prefix of messages. */
extern const char *cli_prog;

/* Print "<prog>: <message>" to stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* cli_error() then exit(1). */
void cli_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/*
 * The tool's one way out of memory: perfev__grow() (room for @need
 * elements of @elsize bytes in *@arrp), "out of memory" and exit 1 when
 * it fails.
 */
static inline void cli_grow(void *arrp, size_t *cap, size_t need, size_t elsize)
{
	if (need > *cap && perfev__grow(arrp, cap, need, elsize))
		cli_die("out of memory");
}

/*
 * Flush stdout and turn a write error into exit status 1 with a message
 * (a closed pipe is not reported).  Returns the status to exit with.
 */
int cli_finish(int status);

/* Environment shared by commands: roots for fixture trees (tests), databases. */
struct cli_env {
	const char *sysfs_root;	 /* PERFEV_SYSFS_ROOT, default "/sys" */
	const char *procfs_root; /* PERFEV_PROCFS_ROOT, default "/proc" */
	const char *tracefs;	 /* PERFEV_TRACEFS, default: found below sysfs_root */
	struct perfev_pmus *pmus;
	struct perfev_tracefs *tracefs_handle; /* NULL when unavailable */
	int tracefs_error;		       /* why it is unavailable */
};
void cli_env_init(struct cli_env *env);
/* Load the PMU database (exit 1 on failure) and, if asked, locate tracefs. */
void cli_env_open(struct cli_env *env, bool want_tracefs);
void cli_env_release(struct cli_env *env);

/*
 * Can this machine count (@type, @config)?  One real open of a user-space,
 * disabled event tells: 1 yes, 0 no (no such event or PMU), -1 unknown.
 */
int cli_can_count(uint32_t type, uint64_t config);

/* Print a parse error with a caret under the bad token. */
void cli_parse_error(const char *str, const struct perfev_parse_error *err);
struct opt_list;
/* --all-user, --all-kernel of stat and record: perf's bits, whatever the modifiers said. */
void cli_attr_levels(struct perf_event_attr *a, bool all_user, bool all_kernel);
/* --group of stat and record: the -e events as one "{e1,e2,...}" (malloc()ed). */
char *cli_events_grouped(const struct opt_list *events);

int cmd_list(int argc, const char **argv);
int cmd_attr(int argc, const char **argv);
int cmd_stat(int argc, const char **argv);
int cmd_record(int argc, const char **argv);
int cmd_script(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_top(int argc, const char **argv);
int cmd_annotate(int argc, const char **argv);
int cmd_diff(int argc, const char **argv);
int cmd_archive(int argc, const char **argv);
int cmd_watch(int argc, const char **argv);
int cmd_help(int argc, const char **argv);
int cmd_version(int argc, const char **argv);

#endif /* PERFEV_CLI_H */
