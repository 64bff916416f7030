/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal state of a counting session, shared by the session-*.c files. */
#ifndef PERFEV_SESSION_INTERNAL_H
#define PERFEV_SESSION_INTERNAL_H

#include <limits.h>
#include <perfev/reading.h>
#include <perfev/session.h>
#include <perfev/topology.h>
#include "common/internal.h"
#include "event/parse.h"

/* One counter of one instance (a thread or a CPU). */
struct sess_count {
	uint64_t value, enabled, running, lost, id;
};

struct sess_event {
	union perfev__attr_buf a; /* what is opened: counting setup and fallbacks applied */
	int leader;		  /* index of the group leader (itself when alone) */
	int group_size;		  /* for a leader: events in its group, 1 when alone */
	enum perfev_event_state state;
	int open_err;		   /* the kernel's answer when unsupported (-errno) */
	bool tool;		   /* measured by the caller, never opened */
	bool done;		   /* opened (or given up on) on every instance */
	char *note;		   /* fallbacks applied or why unsupported */
	int *fds;		   /* per instance; -1 when not open */
	struct sess_count *counts; /* per instance */
};

struct perfev_session {
	struct perfev_evspec *spec;
	struct sess_event *ev;
	size_t nev;
	char *sysfs_root, *procfs_root;
	struct perfev_session_opts opts;

	enum perfev_target_kind kind;
	bool inherit;
	int *cpus; /* instance CPUs; {-1} for task targets */
	size_t ncpus;
	pid_t *tids; /* instance threads; {-1} for CPU targets */
	size_t ntids;
	int cgroup_fd;
	char cgroup_path[PATH_MAX]; /* for messages */
	bool opened;

	pid_t child; /* command target */
	int go_fd;   /* write end: releases the child to exec */
	int err_fd;  /* read end: errno of a failed exec, EOF on success */
	bool started;

	struct perfev_topology *topo; /* loaded on first CPU aggregation */
	struct perfev_value *scratch; /* read buffer for group reads */
	size_t scratch_len;
};

static inline size_t sess_ninst(const struct perfev_session *s)
{
	return s->ncpus * s->ntids;
}

/* session-target.c */
int perfev__sess_resolve_target(struct perfev_session *s, const struct perfev_target *t,
				struct perfev_session_error *err);
int perfev__sess_fork_command(struct perfev_session *s, char *const *argv,
			      struct perfev_session_error *err);
int perfev__sess_release_command(struct perfev_session *s);
void perfev__sess_kill_command(struct perfev_session *s);

/* session.c */
int perfev__sess_fail(struct perfev_session_error *err, int code, int event, int cpu, pid_t pid,
		      const char *fmt, ...) PERFEV__PRINTF(6, 7);

#endif /* PERFEV_SESSION_INTERNAL_H */
