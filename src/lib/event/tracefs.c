// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tracepoints from tracefs: listing, ids, and formats (parsed with
 * libtraceevent, so the field layout matches what the kernel describes).
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common/internal.h"
#include <perfev/tracefs.h>

struct perfev_tracefs {
	char *path; /* directory holding events/ */
};

static int probe_dir(const char *dir)
{
	char path[PATH_MAX];
	struct stat st;

	if (snprintf(path, sizeof(path), "%s/events", dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	if (stat(path, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (access(path, R_OK | X_OK))
		return -errno;
	return 0;
}

int perfev_tracefs_open(const struct perfev_tracefs_opts *opts, struct perfev_tracefs **out)
{
	const char *given;
	static const char *const candidates[] = {"/kernel/tracing", "/kernel/debug/tracing"};
	const char *root = "/sys";
	char path[PATH_MAX];
	struct perfev_tracefs *t;
	int err = -ENOENT, e;
	size_t i;

	if (!out || !perfev__opts_ok(opts, opts ? opts->sz : 0, sizeof(*opts)))
		return -EINVAL;
	given = PERFEV__OPT(opts, path, NULL);
	root = PERFEV__OPT(opts, sysfs_root, NULL) ?: root;
	if (given) {
		err = probe_dir(given);
		if (err)
			return err == -ENOTDIR ? -ENOENT : err;
		snprintf(path, sizeof(path), "%s", given);
	} else {
		for (i = 0; i < PERFEV__ARRAY_SIZE(candidates); i++) {
			if (perfev__path(path, sizeof(path), root, "%s", candidates[i]))
				continue;
			e = probe_dir(path);
			if (!e) {
				err = 0;
				break;
			}
			/* Remember a permission problem: it explains more than ENOENT. */
			if (e == -EACCES || e == -EPERM)
				err = -EACCES;
		}
		if (err)
			return err;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->path = strdup(path);
	if (!t->path) {
		free(t);
		return -ENOMEM;
	}
	*out = t;
	return 0;
}

void perfev_tracefs_free(struct perfev_tracefs *t)
{
	if (!t)
		return;
	free(t->path);
	free(t);
}

const char *perfev_tracefs_path(const struct perfev_tracefs *t)
{
	return t->path;
}

/* System and event names are single path components. */
static bool valid_component(const char *s)
{
	return s && *s && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_dir(const char *dir, const struct dirent *de)
{
	char path[PATH_MAX];
	struct stat st;

	if (de->d_type == DT_DIR)
		return true;
	if (de->d_type != DT_UNKNOWN)
		return false;
	if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= (int)sizeof(path))
		return false;
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* Sorted names of the subdirectories of @dir matching @glob. */
static int list_dirs(const char *dir, const char *glob, char ***out, size_t *n)
{
	char **names = NULL;
	size_t cap = 0, cnt = 0, i;
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (glob && fnmatch(glob, de->d_name, 0))
			continue;
		if (!is_dir(dir, de))
			continue;
		if (perfev__grow(&names, &cap, cnt + 1, sizeof(*names)))
			goto nomem;
		names[cnt] = strdup(de->d_name);
		if (!names[cnt])
			goto nomem;
		cnt++;
	}
	closedir(d);
	if (cnt)
		qsort(names, cnt, sizeof(*names), cmp_str);
	*out = names;
	*n = cnt;
	return 0;
nomem:
	closedir(d);
	for (i = 0; i < cnt; i++)
		free(names[i]);
	free(names);
	return -ENOMEM;
}

static void free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int perfev_tracefs_foreach(struct perfev_tracefs *t, const char *sys_glob, const char *name_glob,
			   perfev_tracepoint_fn fn, void *ctx)
{
	char path[PATH_MAX];
	char **systems, **events;
	size_t nsys, nev, i, j;
	int err, visited = 0, ret = 0;

	if (!t || !fn)
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/events", t->path);
	err = list_dirs(path, sys_glob, &systems, &nsys);
	if (err)
		return err;
	for (i = 0; i < nsys && !ret; i++) {
		if (snprintf(path, sizeof(path), "%s/events/%s", t->path, systems[i]) >=
		    (int)sizeof(path))
			continue;
		if (list_dirs(path, name_glob, &events, &nev))
			continue;
		for (j = 0; j < nev && !ret; j++) {
			ret = fn(systems[i], events[j], ctx);
			visited++;
		}
		free_names(events, nev);
	}
	free_names(systems, nsys);
	return ret ? ret : visited;
}

int perfev_tracefs_id(struct perfev_tracefs *t, const char *sys, const char *name, uint64_t *id)
{
	char path[PATH_MAX];
	long long v;
	int err;

	if (!t || !id || !valid_component(sys) || !valid_component(name))
		return -EINVAL;
	if (snprintf(path, sizeof(path), "%s/events/%s/%s/id", t->path, sys, name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	err = perfev__read_int(path, &v);
	/* "sched:enable" names a file, not an event directory. */
	if (err == -ENOTDIR)
		return -ENOENT;
	if (err)
		return err;
	if (v < 0)
		return -EBADMSG;
	*id = (uint64_t)v;
	return 0;
}

int perfev_tracefs_format(struct perfev_tracefs *t, const char *sys, const char *name,
			  struct perfev_tp_format **out)
{
	char path[PATH_MAX], *text;
	ssize_t n;
	int err;

	if (!t || !out || !valid_component(sys) || !valid_component(name))
		return -EINVAL;
	if (snprintf(path, sizeof(path), "%s/events/%s/%s/format", t->path, sys, name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	n = perfev__read_file(path, &text, 1 << 20);
	if (n == -ENOTDIR)
		return -ENOENT;
	if (n < 0)
		return (int)n;
	err = perfev_tp_format_parse(sys, text, (size_t)n, out);
	free(text);
	return err;
}
