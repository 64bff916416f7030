// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev record --push: continuous profiling into a Pyroscope-compatible
 * backend.  The recording is cut into windows by --switch-output's
 * machinery; each window's file becomes a pprof profile through perfev
 * report's own path, run in this process, and is kept in a spool
 * directory until a POST to URL/ingest (Pyroscope's ingest API: the name
 * with its labels, from/until in UNIX seconds, format=pprof, the
 * profile as the multipart form field "profile") is answered 2xx.  A
 * failed push is retried with a backoff, then left in the spool for the
 * next window (or the next run); the spool keeps at most --spool-size
 * bytes, dropping the oldest windows beyond that with a note.
 *
 * Making and pushing windows is a worker process's job, forked at the end
 * of a window, so that the recording goes on reading its rings meanwhile
 * (a slow or absent server would otherwise hold them for seconds, and
 * samples would be lost).  One worker at a time: windows that end while
 * one is at work wait for the next, so that they arrive in order.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "http.h"
#include "options.h"
#include "perfev-cli.h"
#include "record.h"

#define PUSH_TRIES	3
#define PUSH_TIMEOUT_MS 5000

/* A window to make and push: its recording, and its profile's name in the spool. */
struct push_job {
	char *data, *dst;
};

struct rec_push {
	struct http_url url;
	const char *url_text;
	char *spool;
	char *name; /* APP{k=v,...}, URL-encoded */
	uint64_t spool_size, freq;
	time_t from;	  /* the current window's start */
	bool quiet, down; /* down: the last push failed (noted once until one succeeds) */
	unsigned int seq;
	pid_t worker;	       /* the process making and pushing windows, or 0 */
	struct push_job *jobs; /* the windows waiting for the next worker */
	size_t njobs, cap_jobs;
};

/* The label syntax Prometheus-style backends take: [A-Za-z_][A-Za-z0-9_.]*. */
static bool label_name(const char *s, size_t n)
{
	if (!n || !(s[0] == '_' || ((s[0] | 32) >= 'a' && (s[0] | 32) <= 'z')))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!(s[i] == '_' || s[i] == '.' || (s[i] >= '0' && s[i] <= '9') ||
		      ((s[i] | 32) >= 'a' && (s[i] | 32) <= 'z')))
			return false;
	return true;
}

/* Append @s percent-encoded (RFC 3986's unreserved characters stay). */
static void url_encode(char **out, size_t *len, size_t *cap, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (perfev__grow(out, cap, *len + 4, 1))
			cli_die("out of memory");
		if ((c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z') || c == '-' ||
		    c == '.' || c == '_' || c == '~')
			(*out)[(*len)++] = (char)c;
		else
			*len += (size_t)snprintf(*out + *len, 4, "%%%02X", c);
		(*out)[*len] = 0;
	}
}

/* APP{k=v,...} from --labels, checked; exits 2 on a bad label. */
static char *push_name(const char *app, const char *labels, const char *const *usage,
		       const struct option *opts)
{
	char *out = NULL;
	size_t len = 0, cap = 0;
	const char *p = labels;

	url_encode(&out, &len, &cap, app, strlen(app));
	url_encode(&out, &len, &cap, "{", 1);
	while (p && *p) {
		size_t n = strcspn(p, ","), k = strcspn(p, "=");

		if (k >= n || !label_name(p, k) || k + 1 == n ||
		    strcspn(p + k + 1, "{}=\"") < n - k - 1)
			usage_error(usage, opts,
				    "cannot use label '%.*s': labels are NAME=VALUE, the name "
				    "[A-Za-z_][A-Za-z0-9_.]*, the value without , { } = or \"",
				    (int)n, p);
		if (p != labels)
			url_encode(&out, &len, &cap, ",", 1);
		url_encode(&out, &len, &cap, p, n);
		p += n + (p[n] == ',');
	}
	url_encode(&out, &len, &cap, "}", 1);
	return out;
}

struct rec_push *rec_push_new(const struct rec_push_opts *po, const char *const *usage,
			      const struct option *opts)
{
	struct rec_push *pu = calloc(1, sizeof(*pu));
	const char *why;
	int err;

	if (!pu)
		cli_die("out of memory");
	err = http_url_parse(po->url, &pu->url, &why);
	if (err)
		usage_error(usage, opts, "cannot push to '%s': %s", po->url, why);
	pu->url_text = po->url;
	pu->name = push_name(po->app, po->labels, usage, opts);
	pu->spool = strdup(po->spool);
	if (!pu->spool)
		cli_die("out of memory");
	pu->spool_size = po->spool_size;
	pu->freq = po->freq;
	pu->quiet = po->quiet;
	pu->from = time(NULL);
	if (mkdir(pu->spool, 0700) && errno != EEXIST)
		cli_die("cannot make the spool directory '%s': %s", pu->spool, strerror(errno));
	return pu;
}

/* The spool's profiles, oldest first (their names start with the window's times). */
static int spool_list(const struct rec_push *pu, char ***names, size_t *n, uint64_t *bytes)
{
	struct dirent **ents;
	int nent = scandir(pu->spool, &ents, NULL, alphasort);

	*names = NULL;
	*n = 0;
	*bytes = 0;
	if (nent < 0)
		return -errno;
	*names = calloc((size_t)nent + 1, sizeof(**names));
	if (!*names)
		cli_die("out of memory");
	for (int i = 0; i < nent; i++) {
		const char *d = ents[i]->d_name;
		size_t len = strlen(d);
		struct stat st;
		char *path;

		if (len > 6 && !strcmp(d + len - 6, ".pprof")) {
			if (asprintf(&path, "%s/%s", pu->spool, d) < 0)
				cli_die("out of memory");
			if (!stat(path, &st)) {
				(*names)[(*n)++] = path;
				*bytes += (uint64_t)st.st_size;
			} else {
				free(path);
			}
		}
		free(ents[i]);
	}
	free(ents);
	return 0;
}

static void free_list(char **names, size_t n)
{
	while (n)
		free(names[--n]);
	free(names);
}

/* Read a whole file; NULL with errno set on failure. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f)
		return NULL;
	do {
		if (perfev__grow(&buf, &cap, *len + 65536, 1))
			cli_die("out of memory");
		n = fread(buf + *len, 1, 65536, f);
		*len += n;
	} while (n == 65536);
	if (ferror(f)) {
		free(buf);
		buf = NULL;
		errno = EIO;
	}
	fclose(f);
	return buf;
}

/* POST one spooled window: 0 when the backend took it. */
static int push_one(struct rec_push *pu, const char *path)
{
	static const char boundary[] = "perfev-pprof-0b7c2d8e41f3";
	const char *base = strrchr(path, '/') + 1, *why = NULL;
	unsigned long long from, until;
	char *prof, *body, *target, rate[40] = "";
	size_t plen, blen;
	int n, code = -EINVAL;

	if (sscanf(base, "%llu-%llu", &from, &until) != 2)
		return 0; /* not one of ours: left alone */
	prof = slurp(path, &plen);
	if (!prof)
		return -errno;
	n = asprintf(&body,
		     "--%s\r\nContent-Disposition: form-data; name=\"profile\"; "
		     "filename=\"profile.pprof\"\r\nContent-Type: application/octet-stream\r\n\r\n",
		     boundary);
	if (n < 0 || !(body = realloc(body, (size_t)n + plen + sizeof(boundary) + 16)))
		cli_die("out of memory");
	memcpy(body + n, prof, plen);
	blen = (size_t)n + plen;
	blen += (size_t)sprintf(body + blen, "\r\n--%s--\r\n", boundary);
	free(prof);
	if (pu->freq)
		snprintf(rate, sizeof(rate), "&sampleRate=%" PRIu64, pu->freq);
	if (asprintf(&target, "/ingest?name=%s&from=%llu&until=%llu&format=pprof&spyName=perfev%s",
		     pu->name, from, until, rate) < 0)
		cli_die("out of memory");
	char ctype[96];
	snprintf(ctype, sizeof(ctype), "multipart/form-data; boundary=%s", boundary);
	/* An endpoint known down gets one try a window: the rings wait meanwhile. */
	for (int t = 0; t < (pu->down ? 1 : PUSH_TRIES); t++) {
		/* Backoff: 250 ms, then 500 ms, before a retry. */
		if (t) {
			struct timespec ts = {0, 250000000L << (t - 1)};

			nanosleep(&ts, NULL);
		}
		code = http_post(&pu->url, target, ctype, body, blen, PUSH_TIMEOUT_MS, &why);
		/*
		 * A 4xx other than 429 says the profile itself is refused, and an
		 * endpoint that let a request time out would hold the rings again:
		 * no retry.
		 */
		if ((code >= 200 && code < 300) || (code >= 400 && code < 500 && code != 429) ||
		    code == -ETIMEDOUT)
			break;
	}
	free(body);
	free(target);
	if (code >= 200 && code < 300) {
		unlink(path);
		if (pu->down && !pu->quiet)
			cli_error("note: pushing to '%s' again", pu->url_text);
		pu->down = false;
		return 0;
	}
	if (code >= 400 && code < 500 && code != 429) {
		/* Kept would block the ones after it forever. */
		cli_error("cannot push '%s' to '%s': the server answers %d (window dropped)", base,
			  pu->url_text, code);
		unlink(path);
		return 0;
	}
	if (!pu->down && code > 0)
		cli_error(
		    "cannot push to '%s': the server answers HTTP %d; windows are kept in '%s' "
		    "(at most %" PRIu64 " bytes) and pushed when it takes them",
		    pu->url_text, code, pu->spool, pu->spool_size);
	else if (!pu->down)
		cli_error("cannot push to '%s': %s; windows are kept in '%s' (at most %" PRIu64
			  " bytes) and pushed when it answers",
			  pu->url_text, why ? why : "failed", pu->spool, pu->spool_size);
	pu->down = true;
	return -EAGAIN;
}

/* Push the spool's windows, oldest first, until one fails; then trim it to its size. */
void rec_push_flush(struct rec_push *pu)
{
	char **names;
	size_t n, i, first = 0;
	uint64_t bytes;

	if (spool_list(pu, &names, &n, &bytes))
		return;
	for (i = 0; i < n; i++) {
		struct stat st;
		uint64_t size = stat(names[i], &st) ? 0 : (uint64_t)st.st_size;

		if (push_one(pu, names[i]))
			break;
		bytes -= size < bytes ? size : bytes;
		first = i + 1;
	}
	/* Over its size: the oldest go, the newest window always stays. */
	for (i = first; bytes > pu->spool_size && i + 1 < n; i++) {
		struct stat st;
		uint64_t size = stat(names[i], &st) ? 0 : (uint64_t)st.st_size;

		if (!unlink(names[i])) {
			cli_error("note: the push spool '%s' is over %" PRIu64
				  " bytes: dropped its oldest window '%s'",
				  pu->spool, pu->spool_size, strrchr(names[i], '/') + 1);
			bytes -= size < bytes ? size : bytes;
		}
	}
	free_list(names, n);
}

/* The worker's exit status when its last push failed. */
#define PUSH_DOWN 3

/* Window @j's profile made into the spool (its recording removed), by perfev report's own path. */
static void make_window(const struct push_job *j)
{
	const char *argv[] = {"report", "-i", j->data, "--pprof", NULL, NULL};
	char *tmp;

	if (asprintf(&tmp, "%s.tmp", j->dst) < 0)
		cli_die("out of memory");
	argv[4] = tmp;
	if (!cmd_report(5, argv) && !rename(tmp, j->dst)) {
		unlink(j->data);
	} else {
		cli_error("cannot make the pprof profile of '%s' (kept)", j->data);
		unlink(tmp);
	}
	free(tmp);
}

static void run_jobs(struct rec_push *pu)
{
	for (size_t i = 0; i < pu->njobs; i++)
		if (pu->jobs[i].data)
			make_window(&pu->jobs[i]);
	rec_push_flush(pu);
}

static void clear_jobs(struct rec_push *pu)
{
	while (pu->njobs) {
		pu->njobs--;
		free(pu->jobs[pu->njobs].data);
		free(pu->jobs[pu->njobs].dst);
	}
}

/*
 * Hand the waiting windows to a new worker once the last one is done, or,
 * with @wait (the recording is over), wait for it and do them here.
 */
static void pump(struct rec_push *pu, bool wait)
{
	int status;
	pid_t p;

	if (pu->worker) {
		do
			p = waitpid(pu->worker, &status, wait ? 0 : WNOHANG);
		while (p < 0 && errno == EINTR);
		if (!p)
			return; /* still at work */
		/* What the worker learnt of the server, for the notes of the next. */
		if (p == pu->worker)
			pu->down = WIFEXITED(status) && WEXITSTATUS(status) == PUSH_DOWN;
		pu->worker = 0;
	}
	if (!pu->njobs)
		return;
	if (!wait) {
		fflush(stdout);
		fflush(stderr);
		p = fork();
		if (!p) {
			run_jobs(pu);
			_exit(pu->down ? PUSH_DOWN : 0);
		}
		if (p > 0) {
			pu->worker = p;
			clear_jobs(pu);
			return;
		}
		/* No process to spare: the rings wait while this one does it. */
	}
	run_jobs(pu);
	clear_jobs(pu);
}

void rec_push_window(struct rec_push *pu, const char *data)
{
	time_t until = time(NULL);
	struct push_job *j;

	if (perfev__grow(&pu->jobs, &pu->cap_jobs, pu->njobs + 1, sizeof(*pu->jobs)))
		cli_die("out of memory");
	j = &pu->jobs[pu->njobs++];
	j->data = data ? strdup(data) : NULL;
	/* Same-second windows keep their order by a sequence number. */
	if ((data && !j->data) ||
	    asprintf(&j->dst, "%s/%010lld-%010lld-%06u.pprof", pu->spool, (long long)pu->from,
		     (long long)until, pu->seq++ % 1000000) < 0)
		cli_die("out of memory");
	pu->from = until;
	pump(pu, false);
}

void rec_push_free(struct rec_push *pu)
{
	if (!pu)
		return;
	/* The last windows are pushed before the recording ends. */
	pump(pu, true);
	free(pu->jobs);
	free(pu->name);
	free(pu->spool);
	free(pu);
}
