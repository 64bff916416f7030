// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Debug files fetched from debuginfod servers by build id, for the
 * symbolizer's files that have none on this machine.  libdebuginfod (and
 * with it curl, TLS, Kerberos: some thirty libraries) is loaded at the
 * first such miss, and only when DEBUGINFOD_URLS names a server: programs
 * that never ask pay nothing at start-up.  Each fetch is bounded: it is
 * cancelled when no byte has come for the timeout, and once the servers
 * could not be reached no other file asks them again.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <elfutils/debuginfod.h>
#include "common/internal.h"
#include "symbols/symbolizer-internal.h"

/* Seconds without a byte after which a fetch is given up, when DEBUGINFOD_TIMEOUT is not set. */
#define DEFAULT_TIMEOUT 10

static struct {
	__typeof__(debuginfod_begin) *begin;
	__typeof__(debuginfod_end) *end;
	__typeof__(debuginfod_find_debuginfo) *find_debuginfo;
	__typeof__(debuginfod_find_executable) *find_executable;
	__typeof__(debuginfod_set_progressfn) *set_progressfn;
	__typeof__(debuginfod_set_user_data) *set_user_data;
	__typeof__(debuginfod_get_user_data) *get_user_data;
	__typeof__(debuginfod_get_url) *get_url;
} dl;
static int dl_err; /* 0 once loaded */
static pthread_once_t dl_once = PTHREAD_ONCE_INIT;

static void dl_load(void)
{
	void *h = dlopen(DEBUGINFOD_SONAME, RTLD_NOW | RTLD_LOCAL);

	dl_err = ENOENT;
	if (!h)
		return;
	*(void **)&dl.begin = dlsym(h, "debuginfod_begin");
	*(void **)&dl.end = dlsym(h, "debuginfod_end");
	*(void **)&dl.find_debuginfo = dlsym(h, "debuginfod_find_debuginfo");
	*(void **)&dl.find_executable = dlsym(h, "debuginfod_find_executable");
	*(void **)&dl.set_progressfn = dlsym(h, "debuginfod_set_progressfn");
	*(void **)&dl.set_user_data = dlsym(h, "debuginfod_set_user_data");
	*(void **)&dl.get_user_data = dlsym(h, "debuginfod_get_user_data");
	*(void **)&dl.get_url = dlsym(h, "debuginfod_get_url");
	if (!dl.begin || !dl.end || !dl.find_debuginfo || !dl.find_executable ||
	    !dl.set_progressfn || !dl.set_user_data || !dl.get_user_data || !dl.get_url) {
		dl_err = ENOTSUP;
		dlclose(h);
		return;
	}
	dl_err = 0;
}

struct perfev__debuginfod {
	debuginfod_client *c;
	perfev_debuginfod_fn fn;
	void *ctx;
	unsigned int timeout; /* seconds without a byte */
	int down;	      /* why the servers could not be reached, or 0 */
	/* The fetch in progress. */
	struct perfev_debuginfod_event ev;
	struct timespec last; /* when a byte last came (or the fetch began) */
	long last_done;
	bool timed_out;
};

bool perfev__debuginfod_wanted(void)
{
	const char *urls = getenv("DEBUGINFOD_URLS");

	return urls && *urls;
}

static double since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

/* Whether @t is at or after @ref. */
static bool after(const struct statx_timestamp *t, const struct timespec *ref)
{
	return t->tv_sec > ref->tv_sec || (t->tv_sec == ref->tv_sec && t->tv_nsec >= ref->tv_nsec);
}

static void tell(struct perfev__debuginfod *d)
{
	if (d->fn)
		d->fn(&d->ev, d->ctx);
}

/* libdebuginfod's progress callback, about once a second and as bytes come: non-zero cancels. */
static int on_progress(debuginfod_client *c, long done, long total)
{
	struct perfev__debuginfod *d = dl.get_user_data(c);

	if (!d)
		return 0;
	/* Given up: libdebuginfod's retries too. */
	if (d->timed_out)
		return 1;
	/*
	 * Until a server answers (with the size, which debuginfod servers
	 * send), libdebuginfod counts its calls in @done, not bytes.
	 */
	if (total <= 0)
		done = 0;
	if (done != d->last_done) {
		d->last_done = done;
		clock_gettime(CLOCK_MONOTONIC, &d->last);
	} else if (since(&d->last) >= d->timeout) {
		d->timed_out = true;
		return 1;
	}
	if (done > 0) {
		d->ev.step = PERFEV_DEBUGINFOD_PROGRESS;
		d->ev.url = dl.get_url(c);
		d->ev.done = done;
		d->ev.total = total;
		tell(d);
	}
	return 0;
}

int perfev__debuginfod_new(perfev_debuginfod_fn fn, void *ctx, unsigned int timeout,
			   struct perfev__debuginfod **out)
{
	struct perfev__debuginfod *d;
	const char *env;

	*out = NULL;
	if (!perfev__debuginfod_wanted())
		return -ENOENT;
	pthread_once(&dl_once, dl_load);
	if (dl_err)
		return -dl_err;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->c = dl.begin();
	if (!d->c) {
		free(d);
		return -ENOMEM;
	}
	d->fn = fn;
	d->ctx = ctx;
	d->timeout = timeout;
	env = getenv("DEBUGINFOD_TIMEOUT");
	if (!d->timeout && env && atoi(env) > 0)
		d->timeout = (unsigned int)atoi(env);
	if (!d->timeout)
		d->timeout = DEFAULT_TIMEOUT;
	dl.set_user_data(d->c, d);
	dl.set_progressfn(d->c, on_progress);
	*out = d;
	return 0;
}

void perfev__debuginfod_free(struct perfev__debuginfod *d)
{
	if (!d)
		return;
	dl.end(d->c);
	free(d);
}

int perfev__debuginfod_find(struct perfev__debuginfod *d, const char *file, bool executable,
			    const unsigned char *id, size_t len, char **path)
{
	char hex[2 * 64 + 1];
	struct timespec began;
	size_t i;
	int fd;

	*path = NULL;
	if (d->down)
		return d->down;
	if (!len || len > 64)
		return -EINVAL;
	for (i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	memset(&d->ev, 0, sizeof(d->ev));
	d->ev.file = file;
	d->ev.executable = executable;
	d->ev.build_id = hex;
	d->ev.urls = getenv("DEBUGINFOD_URLS");
	d->last_done = 0;
	d->timed_out = false;
	clock_gettime(CLOCK_MONOTONIC, &d->last);
	clock_gettime(CLOCK_REALTIME, &began);
	fd = executable ? dl.find_executable(d->c, id, (int)len, path)
			: dl.find_debuginfo(d->c, id, (int)len, path);
	d->ev.url = dl.get_url(d->c);
	if (fd >= 0) {
		/*
		 * A file the client just wrote into its cache was made during
		 * the call (its status changed then, where the file system
		 * keeps no birth time; a cache hit may touch its atime).
		 */
		struct statx st;
		bool fresh =
		    !statx(fd, "", AT_EMPTY_PATH, STATX_BTIME | STATX_CTIME | STATX_SIZE, &st) &&
		    after(st.stx_mask & STATX_BTIME ? &st.stx_btime : &st.stx_ctime, &began);

		d->ev.step = fresh ? PERFEV_DEBUGINFOD_FETCHED : PERFEV_DEBUGINFOD_CACHED;
		d->ev.path = *path;
		d->ev.done = fresh ? (long)st.stx_size : 0;
		d->ev.total = d->ev.done;
		tell(d);
		return fd;
	}
	free(*path);
	*path = NULL;
	/* Not there (or not a file this server may give): the next file may be. */
	if (!d->timed_out && (fd == -ENOENT || fd == -EACCES || fd == -EINVAL))
		return fd;
	d->down = d->timed_out ? -ETIMEDOUT : fd;
	d->ev.step = PERFEV_DEBUGINFOD_FAILED;
	d->ev.err = d->down;
	tell(d);
	return d->down;
}
