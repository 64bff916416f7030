// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The report page's source lines (perfev report --html): for each function
 * as the page merges them (name and object) and event, the source lines its
 * frames name with their samples, and the text of the hottest functions'
 * lines, read from their files when the page is written.  The page parses
 * them only when it first shows a function's sandwich, so they cost its
 * first view nothing but their bytes.
 *
 * A line's self time is that of the stacks it is the sampled frame of
 * (profile_stack_first()): the innermost line, as perf report --sort
 * srcline counts it, so the lines of a function inlined into another are
 * its own.  Its total time counts each stack once per (function, line),
 * so the line that calls a function carries that function's time.
 *
 * The text is bounded: the SRC_FUNCTIONS functions with the most samples,
 * a window of at most SRC_LINES lines around their sampled lines, lines cut
 * at SRC_LINE_MAX bytes, SRC_BUDGET bytes in all.  A file that cannot be
 * read, is not a regular file or holds a NUL byte (not text) has no text;
 * the page then shows the lines' numbers and shares alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "output/json.h"
#include "profile.h"

#define NONE	      UINT32_MAX
#define MAX_FUNCTIONS 20000	  /* functions written, the most total samples first */
#define SRC_FUNCTIONS 300	  /* of those, the ones given their lines' text */
#define SRC_CONTEXT   5		  /* lines of text before the first sampled line, after the last */
#define SRC_LINES     400	  /* lines of text per function at most */
#define SRC_LINE_MAX  300	  /* bytes of one line's text at most */
#define SRC_BUDGET    (4u << 20)  /* bytes of text in all */
#define SRC_FILE_MAX  (32u << 20) /* a larger source file is not read */

struct fn_key {
	uint32_t ev, name, dso; /* the event; strings of the name and the object */
};

struct line_key {
	uint32_t fn, file, line; /* a function of fns; a string of strs */
};

/* Per line: self samples, self count, total samples, total count, the last stack counted + 1. */
enum { L_SELF_S, L_SELF, L_TOT_S, L_TOT, L_STAMP, L_N };

struct src_file {
	char *text; /* NULL: not read, or not text */
	size_t len;
	size_t *start; /* each line's offset */
	size_t nlines;
	bool tried;
};

struct lines {
	struct perfev__intern strs; /* names, objects and files */
	struct perfev__intern fns;  /* struct fn_keys */
	struct perfev__intern keys; /* struct line_keys */
	PERFEV__ARRAY(uint64_t) v;  /* L_N per line */
	PERFEV__ARRAY(uint64_t) fv; /* per function: total samples, the last stack counted + 1 */
	uint32_t *cache, *cache_ev; /* per profile frame: its line + 1, for event cache_ev - 1 */
	PERFEV__ARRAY(struct src_file) files; /* by string index */
	struct perfev__intern out;	      /* the strings written */
	size_t budget;			      /* bytes of text still allowed */
};

static int lines_str(struct perfev__intern *t, const char *s, uint32_t *out)
{
	return profile_index(t, s, strlen(s), out);
}

/* Zeroed room in @v (@n values, room for @cap) for entry @i of @per values. */
static int room(uint64_t **v, size_t *n, size_t *cap, size_t i, size_t per)
{
	size_t need = per * (i + 1);
	int err;

	if (need <= *n)
		return 0;
	err = perfev__grow(v, cap, need, sizeof(**v));
	if (err)
		return err;
	memset(*v + *n, 0, (need - *n) * sizeof(**v));
	*n = need;
	return 0;
}

/* The @size bytes of file @fd (fewer if it shrank), NUL-terminated in *@out; their count or -errno.
 */
static ssize_t read_text(int fd, size_t size, char **out)
{
	size_t len = 0;
	ssize_t n;
	char *buf = malloc(size + 1);

	if (!buf)
		return -ENOMEM;
	while (len < size) {
		n = read(fd, buf + len, size - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			n = -errno;
			free(buf);
			return n;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	*out = buf;
	return (ssize_t)len;
}

/* The line of profile frame @fi for event @ev, or NONE when it names none. */
static int frame_line(struct lines *l, const struct profile *p, uint32_t ev, uint32_t fi,
		      uint32_t *out)
{
	const struct profile_frame *f = &p->frames[fi];
	struct fn_key fk;
	struct line_key lk;
	int err;

	if (l->cache_ev[fi] == ev + 1) {
		*out = l->cache[fi] ? l->cache[fi] - 1 : NONE;
		return 0;
	}
	l->cache_ev[fi] = ev + 1;
	l->cache[fi] = 0;
	*out = NONE;
	if (!f->sym || !f->file || !f->line)
		return 0;
	fk.ev = ev;
	err = lines_str(&l->strs, profile_frame_name(f), &fk.name);
	if (!err)
		err = lines_str(&l->strs, profile_short_dso(f->dso), &fk.dso);
	if (!err)
		err = profile_index(&l->fns, &fk, sizeof(fk), &lk.fn);
	if (!err)
		err = lines_str(&l->strs, f->file, &lk.file);
	if (!err)
		err = room(&l->fv.v, &l->fv.n, &l->fv.cap, lk.fn, 2);
	lk.line = f->line;
	if (!err)
		err = profile_index(&l->keys, &lk, sizeof(lk), out);
	if (!err)
		err = room(&l->v.v, &l->v.n, &l->v.cap, *out, L_N);
	if (err)
		return err;
	l->cache[fi] = *out + 1;
	return 0;
}

static struct line_key key_at(const struct lines *l, size_t i)
{
	struct line_key k;

	memcpy(&k, perfev__intern_at(&l->keys, i), sizeof(k));
	return k;
}

/* Every wanted stack's samples added to its lines. */
static int lines_add(struct lines *l, const struct profile *p, size_t ev)
{
	size_t i, k;
	uint32_t li, e;
	int err = 0;

	for (i = 0; !err && i < p->nstacks; i++) {
		const struct profile_stack *s = &p->stacks[i];
		uint64_t stamp = i + 1;

		if (ev < p->nevents && s->ev != ev)
			continue;
		e = ev < p->nevents ? 0 : s->ev;
		for (k = profile_stack_first(p, s); !err && k < s->nframes; k++) {
			uint64_t *v;
			uint32_t fn;

			if (s->frames[k] >= p->nframes)
				return -EINVAL;
			err = frame_line(l, p, e, s->frames[k], &li);
			if (err || li == NONE)
				continue;
			v = l->v.v + (size_t)L_N * li;
			if (k == profile_stack_first(p, s)) {
				v[L_SELF_S] += s->samples;
				v[L_SELF] += s->period;
			}
			if (v[L_STAMP] != stamp) {
				v[L_STAMP] = stamp;
				v[L_TOT_S] += s->samples;
				v[L_TOT] += s->period;
			}
			fn = key_at(l, li).fn;
			if (l->fv.v[2 * fn + 1] != stamp) {
				l->fv.v[2 * fn + 1] = stamp;
				l->fv.v[2 * fn] += s->samples;
			}
		}
	}
	return err;
}

/* ---- source text ---------------------------------------------------------- */

/* File @file (a string of strs) read, when it is a regular file of text. */
static const struct src_file *src_file(struct lines *l, uint32_t file)
{
	struct src_file *sf;
	struct stat st;
	char *nl;
	size_t n;
	ssize_t len;
	int fd;

	while (l->files.n <= file) {
		sf = perfev__array_push(&l->files);
		if (!sf)
			return NULL;
		memset(sf, 0, sizeof(*sf));
	}
	sf = &l->files.v[file];
	if (sf->tried)
		return sf->text ? sf : NULL;
	sf->tried = true;
	/* Not blocking on a FIFO, nor reading a device. */
	fd = open(perfev__intern_at(&l->strs, file), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	len = -EINVAL;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size <= (off_t)SRC_FILE_MAX)
		len = read_text(fd, (size_t)st.st_size, &sf->text);
	close(fd);
	if (len < 0)
		return NULL;
	sf->len = (size_t)len;
	if (memchr(sf->text, 0, sf->len))
		goto bad;
	for (n = 1, nl = sf->text; (nl = memchr(nl, '\n', sf->len - (size_t)(nl - sf->text))); nl++)
		n++;
	sf->start = malloc(n * sizeof(*sf->start));
	if (!sf->start)
		goto bad;
	sf->start[0] = 0;
	for (n = 1, nl = sf->text; (nl = memchr(nl, '\n', sf->len - (size_t)(nl - sf->text))); nl++)
		sf->start[n++] = (size_t)(nl - sf->text) + 1;
	/* A last line ended by its newline is not followed by an empty one. */
	sf->nlines = n > 1 && sf->start[n - 1] == sf->len ? n - 1 : n;
	return sf;
bad:
	free(sf->text);
	sf->text = NULL;
	return NULL;
}

/* Line @line (from 1) of @sf as JSON, cut at SRC_LINE_MAX bytes; its bytes. */
static size_t src_line(struct json *j, const struct src_file *sf, uint32_t line)
{
	size_t a = sf->start[line - 1];
	size_t b = line < sf->nlines ? sf->start[line] : sf->len;

	while (b > a && (sf->text[b - 1] == '\n' || sf->text[b - 1] == '\r'))
		b--;
	if (b - a > SRC_LINE_MAX) {
		b = a + SRC_LINE_MAX;
		/* Not in the middle of a UTF-8 sequence. */
		while (b > a && ((unsigned char)sf->text[b] & 0xc0) == 0x80)
			b--;
	}
	json_strn(j, sf->text + a, b - a);
	return b - a + 3;
}

/*
 * The text of function @fn's lines @ls[0..n) (sorted by file and line) as
 * [slot, first line, text...] where slot is the file's among @files; null
 * when there is none.  The window: the hottest line's file, from its first
 * sampled line - SRC_CONTEXT to its last + SRC_CONTEXT, at most SRC_LINES
 * lines (around the hottest line when its lines spread further).
 */
static void write_src(struct json *j, struct lines *l, const uint32_t *ls, size_t n,
		      const uint32_t *files, size_t nfiles, bool want)
{
	const struct src_file *sf;
	uint32_t hot = ls[0], first = UINT32_MAX, last = 0, lo, hi, slot, line;
	const uint64_t *v = l->v.v;
	size_t i;

	for (i = 1; i < n; i++) {
		const uint64_t *a = v + (size_t)L_N * ls[i], *b = v + (size_t)L_N * hot;

		if (a[L_SELF_S] > b[L_SELF_S] ||
		    (a[L_SELF_S] == b[L_SELF_S] && a[L_TOT_S] > b[L_TOT_S]))
			hot = ls[i];
	}
	sf = want && l->budget ? src_file(l, key_at(l, hot).file) : NULL;
	if (!sf) {
		json_null(j);
		return;
	}
	for (i = 0; i < n; i++) {
		struct line_key k = key_at(l, ls[i]);

		if (k.file != key_at(l, hot).file)
			continue;
		first = k.line < first ? k.line : first;
		last = k.line > last ? k.line : last;
	}
	line = key_at(l, hot).line;
	lo = first > SRC_CONTEXT ? first - SRC_CONTEXT : 1;
	hi = last + SRC_CONTEXT;
	if (hi - lo >= SRC_LINES) {
		/* Around the hottest line, not before the first sampled one's context. */
		uint32_t c = line > SRC_LINES / 2 ? line - SRC_LINES / 2 : 1;

		lo = c > lo ? c : lo;
		hi = lo + SRC_LINES - 1;
	}
	if (hi > sf->nlines)
		hi = (uint32_t)sf->nlines;
	if (lo > hi) {
		json_null(j);
		return;
	}
	for (slot = 0; slot < nfiles && files[slot] != key_at(l, hot).file; slot++)
		;
	json_arr_begin(j);
	json_u64(j, slot);
	json_u64(j, lo);
	for (line = lo; line <= hi && l->budget; line++) {
		size_t b = src_line(j, sf, line);

		l->budget = b < l->budget ? l->budget - b : 0;
	}
	json_arr_end(j);
}

/* ---- the section ----------------------------------------------------------- */

static const struct lines *sort_ctx;

/* Lines by function, file name and line. */
static int cmp_line(const void *a, const void *b)
{
	struct line_key x = key_at(sort_ctx, *(const uint32_t *)a);
	struct line_key y = key_at(sort_ctx, *(const uint32_t *)b);
	int c;

	if (x.fn != y.fn)
		return x.fn < y.fn ? -1 : 1;
	if (x.file != y.file) {
		c = strcmp(perfev__intern_at(&sort_ctx->strs, x.file),
			   perfev__intern_at(&sort_ctx->strs, y.file));
		if (c)
			return c;
	}
	return x.line < y.line ? -1 : x.line > y.line;
}

/* Functions by total samples, most first. */
static int cmp_fn(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t u = sort_ctx->fv.v[2 * x], w = sort_ctx->fv.v[2 * y];

	if (u != w)
		return u > w ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Function @fn, of lines @ls[0..n). */
static int write_fn(struct json *j, struct lines *l, uint32_t fn, const uint32_t *ls, size_t n,
		    bool text)
{
	struct fn_key fk;
	uint32_t files[64], nfiles = 0, s = 0, slot = 0;
	size_t i;
	int err;

	memcpy(&fk, perfev__intern_at(&l->fns, fn), sizeof(fk));
	json_break(j);
	json_arr_begin(j);
	json_u64(j, fk.ev);
	err = lines_str(&l->out, perfev__intern_at(&l->strs, fk.name), &s);
	json_u64(j, s);
	if (!err)
		err = lines_str(&l->out, perfev__intern_at(&l->strs, fk.dso), &s);
	json_u64(j, s);
	/* Its files (the lines are sorted by file), then its lines. */
	json_arr_begin(j);
	for (i = 0; !err && i < n; i++) {
		uint32_t file = key_at(l, ls[i]).file;

		if ((nfiles && files[nfiles - 1] == file) || nfiles == 64)
			continue;
		files[nfiles++] = file;
		err = lines_str(&l->out, perfev__intern_at(&l->strs, file), &s);
		json_u64(j, s);
	}
	json_arr_end(j);
	json_arr_begin(j);
	for (i = 0; i < n; i++) {
		struct line_key k = key_at(l, ls[i]);
		const uint64_t *v = l->v.v + (size_t)L_N * ls[i];

		while (slot < nfiles && files[slot] != k.file)
			slot++;
		if (slot == nfiles)
			break; /* past the 64th file */
		json_u64(j, slot);
		json_u64(j, k.line);
		json_u64(j, v[L_SELF_S]);
		json_u64(j, v[L_SELF]);
		json_u64(j, v[L_TOT_S]);
		json_u64(j, v[L_TOT]);
	}
	json_arr_end(j);
	write_src(j, l, ls, n, files, nfiles, text);
	json_arr_end(j);
	return err;
}

static void lines_release(struct lines *l)
{
	size_t i;

	for (i = 0; i < l->files.n; i++) {
		free(l->files.v[i].text);
		free(l->files.v[i].start);
	}
	perfev__array_release(&l->files);
	perfev__intern_release(&l->strs);
	perfev__intern_release(&l->fns);
	perfev__intern_release(&l->keys);
	perfev__intern_release(&l->out);
	perfev__array_release(&l->v);
	perfev__array_release(&l->fv);
	free(l->cache);
	free(l->cache_ev);
}

int profile_write_html_lines(const struct profile *p, size_t ev, FILE *f)
{
	struct lines l = {.budget = SRC_BUDGET};
	uint32_t *order = NULL, *fns = NULL, *at = NULL;
	size_t i, n, nfn, nf = p->nframes ? p->nframes : 1;
	struct json j;
	int err = -ENOMEM;

	l.cache = calloc(nf, sizeof(*l.cache));
	l.cache_ev = calloc(nf, sizeof(*l.cache_ev));
	if (!l.cache || !l.cache_ev)
		goto out;
	err = lines_add(&l, p, ev);
	if (err)
		goto out;
	n = perfev__intern_count(&l.keys);
	nfn = perfev__intern_count(&l.fns);
	err = -ENOMEM;
	order = malloc((n ? n : 1) * sizeof(*order));
	fns = malloc((nfn ? nfn : 1) * sizeof(*fns));
	at = malloc((nfn + 1) * sizeof(*at));
	if (!order || !fns || !at)
		goto out;
	for (i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	for (i = 0; i < nfn; i++)
		fns[i] = (uint32_t)i;
	sort_ctx = &l;
	qsort(order, n, sizeof(*order), cmp_line);
	qsort(fns, nfn, sizeof(*fns), cmp_fn);
	/* at[fn]: where the function's lines start in order[]. */
	memset(at, 0, (nfn + 1) * sizeof(*at));
	for (i = 0; i < n; i++)
		at[key_at(&l, order[i]).fn + 1]++;
	for (i = 0; i < nfn; i++)
		at[i + 1] += at[i];

	json_init_flags(&j, f, JSON_COMPACT | JSON_SCRIPT_SAFE);
	json_obj_begin(&j);
	json_ku64(&j, "version", 1);
	/* Per function: event, name, object, [files], [file, line, self samples, self count,
	 * total samples, total count]..., [file, first line, text...] or null. */
	json_key(&j, "functions");
	json_arr_begin(&j);
	err = 0;
	for (i = 0; !err && i < nfn && i < MAX_FUNCTIONS; i++)
		err = write_fn(&j, &l, fns[i], order + at[fns[i]], at[fns[i] + 1] - at[fns[i]],
			       i < SRC_FUNCTIONS);
	json_arr_end(&j);
	json_break(&j);
	json_key(&j, "strings");
	json_arr_begin(&j);
	for (i = 0; i < perfev__intern_count(&l.out); i++)
		json_str(&j, perfev__intern_at(&l.out, i));
	json_arr_end(&j);
	json_obj_end(&j);
out:
	sort_ctx = NULL;
	free(order);
	free(fns);
	free(at);
	lines_release(&l);
	return err;
}
