// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev report --html: one self-contained page (a flame graph, the top
 * functions, the run's description) with the profile embedded as compact
 * JSON.  The page itself is report-html.html and report-html.js, turned
 * into byte arrays at build time; this file fills in their markers.
 *
 * The embedded data is a table of strings, a table of frames (name, object,
 * kind) and the stacks as lists of frame indexes, so a frame's strings are
 * written once whatever the number of stacks.  Frames are merged by what
 * the page shows of them (name, object, kind): the profile's frames differ
 * by address, which a flame graph does not show.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "output/json.h"
#include "profile.h"

static const unsigned char page_html[] = {
#include "report-html.html.inc"
};

static const unsigned char page_js[] = {
#include "report-html.js.inc"
};

/* The head every page shares. */
static const unsigned char page_head[] = {
#include "page-head.html.inc"
};

#define NONE UINT32_MAX

/* Frame kinds, as the page reads them. */
enum { KIND_USER, KIND_KERNEL, KIND_UNRESOLVED, KIND_INLINED = 4 };

struct page_frame {
	uint32_t name, dso, kind;
};

struct page {
	struct perfev__intern strs;   /* the strings, in index order */
	struct perfev__intern frames; /* the struct page_frames, as bytes, in index order */
	uint32_t *map;		      /* profile frame -> page frame, NONE until used */
};

/* The index of @len bytes at @key in @t, added when new. */
static int page_index(struct perfev__intern *t, const void *key, size_t len, uint32_t *out)
{
	return profile_index(t, key, len, out);
}

/* The index of string @s in the page's table, added when new. */
static int page_str(struct page *pg, const char *s, uint32_t *out)
{
	return page_index(&pg->strs, s, strlen(s), out);
}

static uint32_t kind_of(const struct profile_frame *f)
{
	uint32_t k;

	if (!f->sym)
		k = KIND_UNRESOLVED;
	else if (f->level == 'k' || f->level == 'H' || f->level == 'g')
		k = KIND_KERNEL;
	else
		k = KIND_USER;
	return f->inlined ? k | KIND_INLINED : k;
}

/* The page frame of profile frame @i, made at its first use. */
static int page_frame(struct page *pg, const struct profile *p, uint32_t i, uint32_t *out)
{
	const struct profile_frame *f = &p->frames[i];
	struct page_frame pf;
	int err;

	if (pg->map[i] != NONE) {
		*out = pg->map[i];
		return 0;
	}
	memset(&pf, 0, sizeof(pf)); /* hashed and compared as bytes */
	err = page_str(pg, profile_frame_name(f), &pf.name);
	if (!err)
		err = page_str(pg, profile_short_dso(f->dso), &pf.dso);
	if (err)
		return err;
	pf.kind = kind_of(f);
	err = page_index(&pg->frames, &pf, sizeof(pf), &pg->map[i]);
	*out = pg->map[i];
	return err;
}

static void page_release(struct page *pg)
{
	perfev__intern_release(&pg->strs);
	perfev__intern_release(&pg->frames);
	free(pg->map);
}

static bool wanted(const struct profile *p, size_t ev, const struct profile_stack *s)
{
	return ev >= p->nevents || s->ev == ev;
}

/* The tables the stacks or nodes index: the run, the events, the strings, the frames. */
static void write_tables(struct json *j, const struct profile *p, size_t ev, struct page *pg)
{
	const struct profile_meta *m = &p->meta;
	size_t i, first = 0, nev;

	json_key(j, "meta");
	json_obj_begin(j);
	json_kstr(j, "input", m->input);
	json_kstr(j, "hostname", m->hostname);
	json_kstr(j, "os_release", m->os_release);
	json_kstr(j, "arch", m->arch);
	json_kstr(j, "cpu", m->cpu_desc);
	json_kstr(j, "perf_version", m->perf_version);
	json_kstr(j, "cmdline", m->cmdline);
	json_ku64(j, "nr_cpus", m->nr_cpus);
	json_ku64(j, "lost", m->lost);
	if (m->time_first && m->time_last >= m->time_first)
		json_ku64(j, "duration_ns", m->time_last - m->time_first);
	json_obj_end(j);
	json_key(j, "events");
	json_arr_begin(j);
	nev = p->nevents;
	if (ev < p->nevents) {
		first = ev;
		nev = ev + 1;
	}
	for (i = first; i < nev; i++) {
		json_obj_begin(j);
		json_kstr(j, "name", p->events[i].name);
		json_ku64(j, "samples", p->events[i].samples);
		json_ku64(j, "period", p->events[i].period);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_break(j);
	json_key(j, "strings");
	json_arr_begin(j);
	for (i = 0; i < perfev__intern_count(&pg->strs); i++)
		json_str(j, perfev__intern_at(&pg->strs, i));
	json_arr_end(j);
	json_break(j);
	json_key(j, "frames");
	json_arr_begin(j);
	for (i = 0; i < perfev__intern_count(&pg->frames); i++) {
		struct page_frame pf;

		memcpy(&pf, perfev__intern_at(&pg->frames, i), sizeof(pf));
		json_u64(j, pf.name);
		json_u64(j, pf.dso);
		json_u64(j, pf.kind);
	}
	json_arr_end(j);
	json_break(j);
}

int profile_write_html_data(const struct profile *p, size_t ev, FILE *f)
{
	struct page pg = {0};
	uint32_t *comm = NULL, fi;
	size_t i, k;
	struct json j;
	int err = -ENOMEM;

	pg.map = malloc((p->nframes ? p->nframes : 1) * sizeof(*pg.map));
	comm = malloc((p->nstacks ? p->nstacks : 1) * sizeof(*comm));
	if (!pg.map || !comm)
		goto out;
	memset(pg.map, 0xff, (p->nframes ? p->nframes : 1) * sizeof(*pg.map));
	/* First the tables the stacks index, then the stacks. */
	for (i = 0; i < p->nstacks; i++) {
		const struct profile_stack *s = &p->stacks[i];

		if (!wanted(p, ev, s))
			continue;
		err = page_str(&pg, s->comm ? s->comm : "[unknown]", &comm[i]);
		for (k = profile_stack_first(p, s); !err && k < s->nframes; k++)
			err = s->frames[k] < p->nframes ? page_frame(&pg, p, s->frames[k], &fi)
							: -EINVAL;
		if (err)
			goto out;
	}

	json_init_flags(&j, f, JSON_COMPACT | JSON_SCRIPT_SAFE);
	json_obj_begin(&j);
	json_ku64(&j, "version", 1);
	write_tables(&j, p, ev, &pg);
	json_key(&j, "stacks");
	json_arr_begin(&j);
	for (i = 0; i < p->nstacks; i++) {
		const struct profile_stack *s = &p->stacks[i];

		if (!wanted(p, ev, s))
			continue;
		json_break(&j);
		json_arr_begin(&j);
		json_u64(&j, ev < p->nevents ? 0 : s->ev);
		json_u64(&j, comm[i]);
		json_u64(&j, s->samples);
		json_u64(&j, s->period);
		/* The profile lists the leaf first; the page wants the root first. */
		for (k = s->nframes; k-- > profile_stack_first(p, s);)
			json_u64(&j, pg.map[s->frames[k]]);
		json_arr_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	err = 0;
out:
	free(comm);
	page_release(&pg);
	return err;
}

/*
 * The report page's data: the stacks merged into one call tree per event,
 * each node once, so that a frame shared by many stacks is written once.
 * A node is its parent and its frame: the event's root (frame: the event),
 * a command (COMM | its string), or a page frame; nodes come after their
 * parent.  Subtrees under 1/DROP_SHARE of their event's count, which the
 * page could draw only zoomed in a million times, are merged into one
 * node per parent, a frame named OTHER_NAME, and counted as dropped.
 */
#define COMM	   0x80000000u
#define DROP_SHARE 1000000
#define OTHER_NAME "[stacks below 0.0001%]"

struct tree_key {
	uint32_t parent, frame;
};

struct tree {
	struct perfev__intern nodes; /* struct tree_keys, in node order */
	PERFEV__ARRAY(uint64_t)
	v; /* per node: self samples, self count, total samples, total count */
};

/* Node @key's index, added when new. */
static int tree_node(struct tree *t, uint32_t parent, uint32_t frame, uint32_t *out)
{
	struct tree_key key = {parent, frame};
	int err = page_index(&t->nodes, &key, sizeof(key), out);

	if (err)
		return err;
	if (*out >= t->v.n / 4) {
		err = perfev__grow(&t->v.v, &t->v.cap, 4 * ((size_t)*out + 1), sizeof(*t->v.v));
		if (err)
			return err;
		memset(t->v.v + t->v.n, 0, (4 * ((size_t)*out + 1) - t->v.n) * sizeof(*t->v.v));
		t->v.n = 4 * ((size_t)*out + 1);
	}
	return 0;
}

static struct tree_key tree_key_at(const struct tree *t, size_t i)
{
	struct tree_key k;

	memcpy(&k, perfev__intern_at(&t->nodes, i), sizeof(k));
	return k;
}

/* Every wanted stack added to @t, its strings and frames to @pg. */
static int tree_build(struct tree *t, struct page *pg, const struct profile *p, size_t ev)
{
	size_t i, k;
	uint32_t n, fi, c;
	int err = 0;

	for (i = 0; !err && i < p->nstacks; i++) {
		const struct profile_stack *s = &p->stacks[i];

		if (!wanted(p, ev, s))
			continue;
		err = tree_node(t, NONE, ev < p->nevents ? 0 : (uint32_t)s->ev, &n);
		if (!err)
			err = page_str(pg, s->comm ? s->comm : "[unknown]", &c);
		if (!err)
			err = tree_node(t, n, COMM | c, &n);
		for (k = s->nframes; !err && k-- > profile_stack_first(p, s);) {
			err = s->frames[k] < p->nframes ? page_frame(pg, p, s->frames[k], &fi)
							: -EINVAL;
			if (!err)
				err = tree_node(t, n, fi, &n);
		}
		if (!err) {
			t->v.v[4 * n] += s->samples;
			t->v.v[4 * n + 1] += s->period;
		}
	}
	return err;
}

int profile_write_html_tree(const struct profile *p, size_t ev, FILE *f)
{
	struct page pg = {0};
	struct tree t = {0};
	uint32_t *id = NULL, *root = NULL, other = NONE, nf, next = 0;
	uint64_t *v, *thr = NULL, *oth = NULL, dropped[3] = {0};
	size_t i, n, nroots;
	struct json j;
	int err = -ENOMEM;

	pg.map = malloc((p->nframes ? p->nframes : 1) * sizeof(*pg.map));
	if (!pg.map)
		goto out;
	memset(pg.map, 0xff, (p->nframes ? p->nframes : 1) * sizeof(*pg.map));
	err = tree_build(&t, &pg, p, ev);
	if (err)
		goto out;
	n = perfev__intern_count(&t.nodes);
	nroots = ev < p->nevents ? 1 : p->nevents + 1;
	err = -ENOMEM;
	id = malloc((n ? n : 1) * sizeof(*id));
	root = malloc((n ? n : 1) * sizeof(*root));
	oth = calloc(2 * (n ? n : 1), sizeof(*oth));
	thr = calloc(nroots, sizeof(*thr));
	if (!id || !root || !oth || !thr)
		goto out;
	/* Totals, children before parents; then what is kept, parents first. */
	v = t.v.v;
	for (i = 0; i < n; i++) {
		v[4 * i + 2] = v[4 * i];
		v[4 * i + 3] = v[4 * i + 1];
	}
	for (i = n; i-- > 0;) {
		struct tree_key k = tree_key_at(&t, i);

		if (k.parent == NONE) {
			thr[k.frame < nroots ? k.frame : 0] = v[4 * i + 3] / DROP_SHARE;
			continue;
		}
		v[4 * k.parent + 2] += v[4 * i + 2];
		v[4 * k.parent + 3] += v[4 * i + 3];
	}
	for (i = 0; i < n; i++) {
		struct tree_key k = tree_key_at(&t, i);

		/* root[]: the node's event, the threshold's index. */
		root[i] = k.parent == NONE ? (k.frame < nroots ? k.frame : 0) : root[k.parent];
		id[i] = k.parent == NONE ? 0 : NONE;
		if (k.parent == NONE || id[k.parent] == NONE)
			continue;
		if (v[4 * i + 3] >= thr[root[i]] || (k.frame & COMM)) {
			id[i] = 0;
			continue;
		}
		oth[2 * k.parent] += v[4 * i + 2];
		oth[2 * k.parent + 1] += v[4 * i + 3];
		dropped[0]++;
		dropped[1] += v[4 * i + 2];
		dropped[2] += v[4 * i + 3];
		if (other == NONE) {
			struct page_frame pf = {0, 0, KIND_UNRESOLVED};

			err = page_str(&pg, OTHER_NAME, &pf.name);
			if (!err)
				err = page_str(&pg, "", &pf.dso);
			if (!err)
				err = page_index(&pg.frames, &pf, sizeof(pf), &other);
			if (err)
				goto out;
		}
	}
	nf = (uint32_t)perfev__intern_count(&pg.frames);

	json_init_flags(&j, f, JSON_COMPACT | JSON_SCRIPT_SAFE);
	json_obj_begin(&j);
	json_ku64(&j, "version", 2);
	write_tables(&j, p, ev, &pg);
	json_key(&j, "dropped");
	json_obj_begin(&j);
	json_ku64(&j, "subtrees", dropped[0]);
	json_ku64(&j, "samples", dropped[1]);
	json_ku64(&j, "period", dropped[2]);
	json_ku64(&j, "below", DROP_SHARE);
	json_obj_end(&j);
	/* Per node: how far back its parent is (0: a root), its frame, self samples, self count. */
	json_key(&j, "nodes");
	json_arr_begin(&j);
	for (i = 0; i < n; i++) {
		struct tree_key k = tree_key_at(&t, i);

		if (id[i] == NONE)
			continue;
		id[i] = next++;
		if (i % 64 == 0)
			json_break(&j);
		json_u64(&j, k.parent == NONE ? 0 : id[i] - id[k.parent]);
		json_u64(&j, k.parent == NONE ? k.frame
			     : k.frame & COMM ? nf + (k.frame & ~COMM)
					      : k.frame);
		json_u64(&j, v[4 * i]);
		json_u64(&j, v[4 * i + 1]);
		if (oth[2 * i + 1] || oth[2 * i]) {
			json_u64(&j, 1);
			json_u64(&j, other);
			json_u64(&j, oth[2 * i]);
			json_u64(&j, oth[2 * i + 1]);
			next++;
		}
	}
	json_arr_end(&j);
	json_obj_end(&j);
	err = 0;
out:
	free(id);
	free(root);
	free(oth);
	free(thr);
	perfev__intern_release(&t.nodes);
	perfev__array_release(&t.v);
	page_release(&pg);
	return err;
}

/* Write template @t up to its next "@PERFEV_NAME@" marker: its name, or NULL at the end. */
static const char *put_until_marker(const unsigned char **t, const unsigned char *end, FILE *f)
{
	static const char mark[] = "@PERFEV_";
	const unsigned char *m = memmem(*t, (size_t)(end - *t), mark, sizeof(mark) - 1);
	const unsigned char *close;

	if (!m) {
		fwrite(*t, 1, (size_t)(end - *t), f);
		*t = end;
		return NULL;
	}
	fwrite(*t, 1, (size_t)(m - *t), f);
	close = memchr(m + 1, '@', (size_t)(end - m - 1));
	if (!close)
		close = end - 1;
	*t = close + 1;
	return (const char *)m + 1;
}

int profile_html_fill(const unsigned char *page, size_t len, profile_html_fill_fn fn, void *ctx,
		      FILE *f)
{
	const unsigned char *t = page, *end = page + len;
	const char *marker;
	int err = 0;

	while ((marker = put_until_marker(&t, end, f))) {
		if (!strncmp(marker, "PERFEV_HEAD@", 12))
			fwrite(page_head, 1, sizeof(page_head), f);
		else
			err = fn(marker + 7, ctx, f);
		if (err)
			return err;
	}
	if (fflush(f) || ferror(f))
		return -EIO;
	return 0;
}

struct report_page {
	const struct profile *p;
	size_t ev;
};

static int fill_report(const char *name, void *ctx, FILE *f)
{
	const struct report_page *rp = ctx;

	if (!strncmp(name, "DATA@", 5))
		return profile_write_html_tree(rp->p, rp->ev, f);
	if (!strncmp(name, "LINES@", 6))
		return profile_write_html_lines(rp->p, rp->ev, f);
	if (!strncmp(name, "SCRIPT@", 7))
		fwrite(page_js, 1, sizeof(page_js), f);
	return 0;
}

int profile_write_html(const struct profile *p, size_t ev, FILE *f)
{
	struct report_page rp = {p, ev};

	return profile_html_fill(page_html, sizeof(page_html), fill_report, &rp, f);
}
