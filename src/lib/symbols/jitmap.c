// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * JIT maps: the /tmp/perf-PID.map files that JIT compilers (V8, the JVM
 * through an agent, LuaJIT, ...) write for perf, one "START SIZE NAME"
 * line per piece of generated code.  A pure parser of their text, lookups
 * by address, and a per-process cache that reads each map once.
 *
 * A JIT may reuse an address for new code and append a new line for it:
 * of several lines at one address the last one wins.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "common/internal.h"
#include "symbols/symtab.h"

struct jentry {
	uint64_t start, end;
	const char *name;
	size_t line; /* the later line wins a tie */
};

struct perfev__jitmap {
	char *text;
	struct jentry *v;
	size_t n;
};

/* A hex number of 1 to 16 digits, with an optional 0x; advances *p. */
static bool hex(const char **p, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	int digits = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (;; s++, digits++) {
		unsigned int d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned int)(*s - '0');
		else if ((*s | 0x20) >= 'a' && (*s | 0x20) <= 'f')
			d = (unsigned int)((*s | 0x20) - 'a' + 10);
		else
			break;
		if (digits >= 16)
			return false;
		v = v << 4 | d;
	}
	if (!digits)
		return false;
	*p = s;
	*out = v;
	return true;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/* One NUL-terminated line: "START SIZE NAME", the name to the end of the line. */
static bool parse_line(char *line, struct jentry *e)
{
	const char *p = line;
	uint64_t size;
	char *name, *end;

	if (!hex(&p, &e->start) || !blank(*p))
		return false;
	while (blank(*p))
		p++;
	if (!hex(&p, &size) || !blank(*p))
		return false;
	while (blank(*p))
		p++;
	name = (char *)p;
	end = name + strlen(name);
	while (end > name && (end[-1] == '\r' || blank(end[-1])))
		*--end = '\0';
	if (!*name)
		return false;
	e->name = name;
	e->end = size > UINT64_MAX - e->start ? UINT64_MAX : e->start + size;
	return true;
}

static int cmp_start(const void *x, const void *y)
{
	const struct jentry *a = x, *b = y;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

int perfev__jitmap_parse(const char *text, size_t len, struct perfev__jitmap **out)
{
	struct perfev__jitmap *m;
	size_t cap = 0, i, j, lineno = 0;
	char *p, *nl, *end;

	if (!out || (!text && len))
		return -EINVAL;
	*out = NULL;
	if (len && memchr(text, '\0', len))
		return -EBADMSG;
	m = calloc(1, sizeof(*m));
	if (!m || !(m->text = malloc(len + 1))) {
		free(m);
		return -ENOMEM;
	}
	if (len)
		memcpy(m->text, text, len);
	m->text[len] = '\0';
	end = m->text + len;
	for (p = m->text; p < end; p = nl + 1, lineno++) {
		struct jentry e;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		*nl = '\0';
		if (!parse_line(p, &e))
			continue;
		e.line = lineno;
		if (perfev__grow(&m->v, &cap, m->n + 1, sizeof(*m->v))) {
			perfev__jitmap_free(m);
			return -ENOMEM;
		}
		m->v[m->n++] = e;
	}
	if (m->n)
		qsort(m->v, m->n, sizeof(*m->v), cmp_start);
	/* One entry per address, the last written; a zero size ends at the next one. */
	for (i = 0, j = 0; i < m->n; i++) {
		if (j && m->v[j - 1].start == m->v[i].start)
			j--;
		m->v[j++] = m->v[i];
	}
	m->n = j;
	for (i = 0; i + 1 < m->n; i++)
		if (m->v[i].end == m->v[i].start)
			m->v[i].end = m->v[i + 1].start;
	*out = m;
	return 0;
}

void perfev__jitmap_free(struct perfev__jitmap *m)
{
	if (!m)
		return;
	free(m->v);
	free(m->text);
	free(m);
}

size_t perfev__jitmap_count(const struct perfev__jitmap *m)
{
	return m ? m->n : 0;
}

/* How far back a lookup looks for an entry that spans the ones after it. */
#define ENCLOSING_MAX 8

int perfev__jitmap_find(const struct perfev__jitmap *m, uint64_t ip, struct perfev_sym *out)
{
	size_t lo = 0, hi, k;

	if (!m || !out)
		return -EINVAL;
	hi = m->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->v[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = 0; k < ENCLOSING_MAX && k < lo; k++) {
		const struct jentry *e = &m->v[lo - 1 - k];

		if (ip < e->end) {
			out->name = e->name;
			out->start = e->start;
			out->size = e->end - e->start;
			out->addr = ip;
			return 0;
		}
	}
	return -ENOENT;
}

/* ---- the maps of several processes ---- */

struct jproc {
	pid_t pid;
	int err; /* why the map could not be read, or 0 */
	struct perfev__jitmap *map;
};

struct perfev__jitmaps {
	char *dir;
	char *procfs_root; /* where the processes are, to know their owners; NULL: /proc */
	struct jproc *v;
	size_t n, cap;
	size_t last; /* the process of the previous lookup: samples come in runs */
	/* The maps of processes that exited, until their names are no longer used. */
	struct perfev__jitmap **retired;
	size_t nretired, cap_retired;
};

/* Bigger than any map a JIT writes in one run (a few million lines). */
#define JITMAP_MAX ((size_t)256 << 20)

int perfev__jitmaps_new(const char *dir, const char *procfs_root, struct perfev__jitmaps **out)
{
	struct perfev__jitmaps *c;

	*out = NULL;
	c = calloc(1, sizeof(*c));
	if (!c || !(c->dir = strdup(dir ? dir : "/tmp")) ||
	    (procfs_root && !(c->procfs_root = strdup(procfs_root)))) {
		if (c)
			free(c->dir);
		free(c);
		return -ENOMEM;
	}
	*out = c;
	return 0;
}

void perfev__jitmaps_free(struct perfev__jitmaps *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->n; i++)
		perfev__jitmap_free(c->v[i].map);
	free(c->v);
	perfev__jitmaps_release(c);
	free(c->retired);
	free(c->dir);
	free(c->procfs_root);
	free(c);
}

/* Whether @uid may have written the map of @pid: root, this user, or the process's owner. */
static bool trusted_owner(const struct perfev__jitmaps *c, pid_t pid, uid_t uid)
{
	char path[4096];
	struct stat st;

	if (uid == 0 || uid == geteuid())
		return true;
	/* A process that still runs: /proc/PID belongs to its owner. */
	return !perfev__path(path, sizeof(path), c->procfs_root ? c->procfs_root : "/proc", "/%d",
			     (int)pid) &&
	       !stat(path, &st) && st.st_uid == uid;
}

static const char *owner_text(char *buf, size_t len, uid_t uid)
{
	snprintf(buf, len, "it belongs to uid %u, not to root, this user or the process's owner",
		 (unsigned int)uid);
	return buf;
}

/*
 * Open the map of @p for reading, or say why it is not read (-EPERM)
 * through the log.  Anyone may write to /tmp: the map must be a regular
 * file, not a link, owned by root, this user or the process, and of a
 * bounded size; opened without blocking, so that a FIFO cannot hold
 * the reader.
 */
static int open_map(const struct perfev__jitmaps *c, const struct jproc *p, const char *path)
{
	const char *why = NULL;
	char owner[96];
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ELOOP)
		why = "it is a symbolic link";
	else if (fd < 0)
		return errno == ENOMEM ? -ENOMEM : -ENODATA;
	else if (fstat(fd, &st))
		why = "it cannot be examined";
	else if (!S_ISREG(st.st_mode))
		why = S_ISFIFO(st.st_mode)  ? "it is a FIFO, not a regular file"
		      : S_ISDIR(st.st_mode) ? "it is a directory"
					    : "it is a device, not a regular file";
	else if (!trusted_owner(c, p->pid, st.st_uid))
		why = owner_text(owner, sizeof(owner), st.st_uid);
	else if ((uint64_t)st.st_size > JITMAP_MAX)
		why = "it is larger than 256 MiB";
	if (!why)
		return fd;
	if (fd >= 0)
		close(fd);
	pr_warn("not reading the JIT map '%s': %s", path, why);
	return -EPERM;
}

static void load(const struct perfev__jitmaps *c, struct jproc *p)
{
	char path[4096], *buf = NULL;
	ssize_t n;
	int fd;

	p->err = perfev__path(path, sizeof(path), c->dir, "/perf-%d.map", (int)p->pid);
	if (p->err)
		return;
	fd = open_map(c, p, path);
	if (fd < 0) {
		p->err = fd;
		return;
	}
	n = perfev__read_fd(fd, &buf, JITMAP_MAX);
	close(fd);
	if (n < 0) {
		p->err = n == -ENOMEM ? -ENOMEM : -ENODATA;
		return;
	}
	p->err = perfev__jitmap_parse(buf, (size_t)n, &p->map);
	if (p->err == -EBADMSG)
		p->err = -ENODATA;
	free(buf);
}

int perfev__jitmaps_find(struct perfev__jitmaps *c, pid_t pid, uint64_t ip, struct perfev_sym *out)
{
	struct jproc *p = NULL;
	size_t i;

	if (c->last < c->n && c->v[c->last].pid == pid) {
		p = &c->v[c->last];
	} else {
		for (i = 0; i < c->n && !p; i++)
			if (c->v[i].pid == pid)
				p = &c->v[i];
	}
	if (!p) {
		if (perfev__grow(&c->v, &c->cap, c->n + 1, sizeof(*c->v)))
			return -ENOMEM;
		p = &c->v[c->n++];
		memset(p, 0, sizeof(*p));
		p->pid = pid;
		load(c, p);
		if (p->err == -ENOMEM) {
			/* Not an answer about the map: try again next time. */
			c->n--;
			return -ENOMEM;
		}
	}
	c->last = (size_t)(p - c->v);
	if (p->err)
		return p->err;
	return perfev__jitmap_find(p->map, ip, out);
}

bool perfev__jitmaps_retire(struct perfev__jitmaps *c, pid_t pid)
{
	struct jproc *p = NULL;

	for (size_t i = 0; c && i < c->n && !p; i++)
		if (c->v[i].pid == pid)
			p = &c->v[i];
	if (!p)
		return false;
	if (p->map) {
		/* Without room to set it aside, the map stays as it was. */
		if (perfev__grow(&c->retired, &c->cap_retired, c->nretired + 1,
				 sizeof(*c->retired)))
			return false;
		c->retired[c->nretired++] = p->map;
	}
	*p = c->v[--c->n];
	c->last = c->n;
	return true;
}

void perfev__jitmaps_release(struct perfev__jitmaps *c)
{
	if (!c)
		return;
	while (c->nretired)
		perfev__jitmap_free(c->retired[--c->nretired]);
}
