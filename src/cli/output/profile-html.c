// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev report --html: one self-contained page (a flame graph, the top
 * functions, the run's description) with the profile embedded as compact
 * JSON.  The page itself is report-html.html and report-html.js, turned
 * into byte arrays at build time; this file fills in their markers.
 *
 * The embedded data is a table of strings, a table of frames (name, object,
 * kind) and each event's call tree of frame indexes, so a frame's strings
 * are written once whatever the number of stacks.  Frames are merged by what
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
	const uint32_t *evs;	      /* the profile events on the page, in page order */
	size_t nev;
	uint32_t *ev_of; /* profile event -> page event, NONE when not on the page */
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
	free(pg->ev_of);
}

/* The page's events: @nev profile events @evs, in that order. */
static int page_events(struct page *pg, const struct profile *p, const uint32_t *evs, size_t nev)
{
	size_t i;

	pg->ev_of = malloc((p->nevents ? p->nevents : 1) * sizeof(*pg->ev_of));
	if (!pg->ev_of)
		return -ENOMEM;
	memset(pg->ev_of, 0xff, (p->nevents ? p->nevents : 1) * sizeof(*pg->ev_of));
	for (i = 0; i < nev; i++) {
		if (evs[i] >= p->nevents || pg->ev_of[evs[i]] != NONE)
			return -EINVAL;
		pg->ev_of[evs[i]] = (uint32_t)i;
	}
	pg->evs = evs;
	pg->nev = nev;
	return 0;
}

/* The tables the stacks or nodes index: the run, the events, the strings, the frames. */
static void write_tables(struct json *j, const struct profile *p, struct page *pg)
{
	const struct profile_meta *m = &p->meta;
	size_t i;

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
	for (i = 0; i < pg->nev; i++) {
		const struct profile_event *e = &p->events[pg->evs[i]];

		json_obj_begin(j);
		json_kstr(j, "name", e->name);
		json_ku64(j, "samples", e->samples);
		json_ku64(j, "period", e->period);
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

/*
 * Every stack of the page's events added to @t, its strings and frames to
 * @pg; @leaf (when not NULL) gets each stack's last node, NONE for the
 * stacks not on the page.
 */
static int tree_build(struct tree *t, struct page *pg, const struct profile *p, uint32_t *leaf)
{
	size_t i, k;
	uint32_t n, fi, c;
	int err = 0;

	for (i = 0; !err && i < p->nstacks; i++) {
		const struct profile_stack *s = &p->stacks[i];

		if (leaf)
			leaf[i] = NONE;
		if (s->ev >= p->nevents || pg->ev_of[s->ev] == NONE)
			continue;
		err = tree_node(t, NONE, pg->ev_of[s->ev], &n);
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
			if (leaf)
				leaf[i] = n;
		}
	}
	return err;
}

/*
 * The timeline: the recording's span cut into TIME_BUCKETS buckets, and per
 * bucket, thread and node of the page (the sampled one of the stack), the
 * samples and their count: the cells, which the page sums into its call
 * trees again for the buckets chosen.  They are written apart from the rest
 * (profile_write_html_times()), read by the page only once a range is
 * chosen; the rest holds the threads and, for the first view, the lanes:
 * the samples per bucket of each event's busiest threads, and of all.
 */
#define TIME_BUCKETS 1000
#define TIME_LANES   24

struct time_cell {
	uint32_t bucket, thread, node, root, samples;
	uint64_t period;
};

static int cmp_cell(const void *a, const void *b)
{
	const struct time_cell *x = a, *y = b;

	if (x->bucket != y->bucket)
		return x->bucket < y->bucket ? -1 : 1;
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

struct time_thread {
	uint32_t pid, tid;
};

/* Sort the cells and merge those of one bucket, thread and node; @threads: of every thread. */
static void merge_cells(struct page_times *pt, bool threads)
{
	struct time_cell *c = pt->cells;
	size_t i, k;

	for (i = 0; threads && i < pt->ncells; i++)
		c[i].thread = 0;
	qsort(c, pt->ncells, sizeof(*c), cmp_cell);
	for (i = 0, k = 0; i < pt->ncells; i++) {
		if (k && !cmp_cell(&c[k - 1], &c[i])) {
			c[k - 1].samples += c[i].samples;
			c[k - 1].period += c[i].period;
		} else {
			c[k++] = c[i];
		}
	}
	pt->ncells = k;
}

/* The page's cells of @p's timed samples; @node: each stack's node on the page (NONE: not on it).
 */
static int time_cells(struct page_times *pt, struct page *pg, const struct profile *p,
		      const uint32_t *node)
{
	uint64_t t0 = UINT64_MAX, t1 = 0;
	struct time_cell *c;
	size_t i, n = 0;
	int err = 0;

	c = malloc((p->ntimes ? p->ntimes : 1) * sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (i = 0; i < p->ntimes; i++) {
		if (node[p->times[i].stack] == NONE)
			continue;
		t0 = p->times[i].time < t0 ? p->times[i].time : t0;
		t1 = p->times[i].time > t1 ? p->times[i].time : t1;
	}
	pt->start = t1 >= t0 ? t0 : 0;
	pt->width = t1 >= t0 ? (t1 - t0) / TIME_BUCKETS + 1 : 1;
	pt->buckets = t1 >= t0 ? (uint32_t)((t1 - t0) / pt->width + 1) : 0;
	for (i = 0; !err && i < p->ntimes; i++) {
		const struct profile_time *t = &p->times[i];
		const struct profile_stack *s = &p->stacks[t->stack];
		struct time_thread key = {s->pid, s->tid};
		uint32_t th, cs;

		if (node[t->stack] == NONE)
			continue;
		err = page_index(&pt->threads, &key, sizeof(key), &th);
		/* The tree wrote the command already: its index is found, nothing added. */
		if (!err)
			err = page_str(pg, s->comm ? s->comm : "[unknown]", &cs);
		if (!err && th >= pt->comm.n && !perfev__array_push(&pt->comm))
			err = -ENOMEM;
		if (err)
			break;
		/* A thread is named by its command when last sampled. */
		pt->comm.v[th] = cs;
		c[n].bucket = (uint32_t)((t->time - t0) / pt->width);
		c[n].thread = th;
		c[n].node = node[t->stack];
		c[n].root = pg->ev_of[s->ev];
		c[n].samples = t->samples;
		c[n++].period = t->period;
	}
	if (err) {
		free(c);
		return err;
	}
	pt->cells = c;
	pt->ncells = n;
	merge_cells(pt, false);
	return 0;
}

static int cmp_u64_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x > y ? -1 : x < y;
}

/* The threads and the lanes of @pt, in the page's data object. */
static int write_timeline(struct json *j, struct page_times *pt, size_t nroots)
{
	size_t nth = perfev__intern_count(&pt->threads), i, r;
	uint64_t *busy, *order;
	uint32_t *lane;
	int err = -ENOMEM;

	/* Per root and thread: its samples; the lanes drawn are the busiest threads'. */
	busy = calloc(nroots * (nth + 1), sizeof(*busy));
	order = malloc((nth + 1) * sizeof(*order));
	lane = malloc(nroots * (nth + 1) * sizeof(*lane));
	if (!busy || !order || !lane)
		goto out;
	for (i = 0; i < pt->ncells; i++)
		if (pt->cells[i].root < nroots)
			busy[pt->cells[i].root * (nth + 1) + pt->cells[i].thread] +=
			    pt->cells[i].samples;
	for (r = 0; r < nroots; r++) {
		size_t m = 0;

		for (i = 0; i < nth; i++) {
			lane[r * (nth + 1) + i] = NONE;
			/* Samples in the high bits, the thread in the low: ties by thread. */
			if (busy[r * (nth + 1) + i])
				order[m++] =
				    busy[r * (nth + 1) + i] << 24 | (0xffffff - (i & 0xffffff));
		}
		qsort(order, m, sizeof(*order), cmp_u64_desc);
		for (i = 0; i < m && i < TIME_LANES; i++)
			lane[r * (nth + 1) + (0xffffff - (order[i] & 0xffffff))] = (uint32_t)i;
	}
	json_key(j, "timeline");
	json_obj_begin(j);
	json_ku64(j, "start", pt->start);
	json_ku64(j, "bucket_ns", pt->width);
	json_ku64(j, "buckets", pt->buckets);
	json_key(j, "threads");
	json_arr_begin(j);
	for (i = 0; i < nth; i++) {
		struct time_thread tt;

		memcpy(&tt, perfev__intern_at(&pt->threads, i), sizeof(tt));
		json_u64(j, tt.pid);
		json_u64(j, tt.tid);
		json_u64(j, pt->comm.v[i]);
	}
	json_arr_end(j);
	/*
	 * Per root: [[thread, samples, bucket, samples, ...] per lane, busiest
	 * first], the first lane every thread's (thread -1).  Buckets are
	 * given as their distance from the previous one.
	 */
	json_key(j, "lanes");
	json_arr_begin(j);
	for (r = 0; r < nroots; r++) {
		size_t l, nl = 0;

		for (i = 0; i < nth; i++)
			nl += lane[r * (nth + 1) + i] != NONE;
		json_break(j);
		json_arr_begin(j);
		for (l = 0; l <= nl; l++) {
			uint32_t prev = 0, want = l ? (uint32_t)l - 1 : NONE, th = NONE, b = NONE;
			uint64_t sum = 0;

			for (i = 0; l && i < nth; i++)
				if (lane[r * (nth + 1) + i] == want)
					th = (uint32_t)i;
			json_arr_begin(j);
			if (th == NONE)
				json_i64(j, -1);
			else
				json_u64(j, th);
			json_u64(j, th == NONE ? 0 : busy[r * (nth + 1) + th]);
			/* Cells come by bucket: each bucket's sum once it is done. */
			for (i = 0; i <= pt->ncells; i++) {
				const struct time_cell *c = i < pt->ncells ? &pt->cells[i] : NULL;

				if (c && (c->root != r || (th != NONE && c->thread != th)))
					continue;
				if (b != NONE && (!c || c->bucket != b)) {
					json_u64(j, b - prev);
					json_u64(j, sum);
					prev = b;
					sum = 0;
				}
				if (c) {
					b = c->bucket;
					sum += c->samples;
				}
			}
			json_arr_end(j);
		}
		json_arr_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
	merge_cells(pt, true);
	err = 0;
out:
	free(busy);
	free(order);
	free(lane);
	return err;
}

int profile_write_html_times(const struct page_times *pt, FILE *f)
{
	uint32_t prev = 0;
	struct json j;
	size_t i;

	/* Per cell (of every thread): its bucket less the previous cell's, its node, samples,
	 * count. */
	json_init_flags(&j, f, JSON_COMPACT | JSON_SCRIPT_SAFE);
	json_arr_begin(&j);
	for (i = 0; pt && i < pt->ncells; i++) {
		const struct time_cell *c = &pt->cells[i];

		if (i % 64 == 0)
			json_break(&j);
		json_u64(&j, c->bucket - prev);
		json_u64(&j, c->node);
		json_u64(&j, c->samples);
		json_u64(&j, c->period);
		prev = c->bucket;
	}
	json_arr_end(&j);
	return 0;
}

void profile_page_times_release(struct page_times *pt)
{
	free(pt->cells);
	perfev__intern_release(&pt->threads);
	perfev__array_release(&pt->comm);
	memset(pt, 0, sizeof(*pt));
}

/*
 * The page's data of the @nev events @evs; @more adds its keys to the data's
 * object.  With @pt and a timed profile, the timeline's too (its cells in @pt).
 */
static int write_tree(const struct profile *p, const uint32_t *evs, size_t nev,
		      const struct profile_html_more *more, struct page_times *pt, FILE *f)
{
	struct page pg = {0};
	struct tree t = {0};
	uint32_t *id = NULL, *root = NULL, *leaf = NULL, other = NONE, nf, next = 0;
	uint64_t *v, *thr = NULL, *oth = NULL, dropped[3] = {0};
	size_t i, n, nroots;
	struct json j;
	int err = -ENOMEM;

	pg.map = malloc((p->nframes ? p->nframes : 1) * sizeof(*pg.map));
	if (!pg.map)
		goto out;
	memset(pg.map, 0xff, (p->nframes ? p->nframes : 1) * sizeof(*pg.map));
	if (pt && p->ntimes) {
		leaf = malloc(p->nstacks * sizeof(*leaf));
		if (!leaf)
			goto out;
	}
	err = page_events(&pg, p, evs, nev);
	if (!err)
		err = tree_build(&t, &pg, p, leaf);
	if (err)
		goto out;
	n = perfev__intern_count(&t.nodes);
	nroots = nev + 1;
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
	write_tables(&j, p, &pg);
	if (more && more->write)
		more->write(&j, more->ctx);
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
	err = 0;
	if (leaf) {
		/*
		 * Each node's place on the page: its own, or for a merged one the
		 * "other" node that follows its nearest kept ancestor (parents first).
		 */
		for (i = 0; i < n; i++) {
			struct tree_key k = tree_key_at(&t, i);

			root[i] = id[i] != NONE		 ? id[i]
				  : id[k.parent] != NONE ? id[k.parent] + 1
							 : root[k.parent];
		}
		for (i = 0; i < p->nstacks; i++)
			leaf[i] = leaf[i] == NONE ? NONE : root[leaf[i]];
		err = time_cells(pt, &pg, p, leaf);
		if (!err)
			err = write_timeline(&j, pt, nroots);
	}
	json_obj_end(&j);
out:
	free(leaf);
	free(id);
	free(root);
	free(oth);
	free(thr);
	perfev__intern_release(&t.nodes);
	perfev__array_release(&t.v);
	page_release(&pg);
	return err;
}

/* Every event (@ev >= nevents) or event @ev alone, as a list of events. */
static uint32_t *events_of(const struct profile *p, size_t ev, size_t *nev)
{
	uint32_t *evs = malloc((p->nevents ? p->nevents : 1) * sizeof(*evs));
	size_t i;

	*nev = ev < p->nevents ? 1 : p->nevents;
	if (evs && ev < p->nevents)
		evs[0] = (uint32_t)ev;
	for (i = 0; evs && ev >= p->nevents && i < p->nevents; i++)
		evs[i] = (uint32_t)i;
	return evs;
}

int profile_write_html_tree(const struct profile *p, size_t ev, FILE *f)
{
	size_t nev;
	uint32_t *evs = events_of(p, ev, &nev);
	int err = evs ? write_tree(p, evs, nev, NULL, NULL, f) : -ENOMEM;

	free(evs);
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

/* The report page of some events: what profile_html_fill() fills in. */
struct events_page {
	const struct profile *p;
	const uint32_t *evs;
	size_t nev;
	const struct profile_html_more *more;
	struct page_times times;
	size_t lines_ev; /* NONE: no source lines */
};

static int fill_events(const char *name, void *ctx, FILE *f)
{
	struct events_page *ep = ctx;

	if (!strncmp(name, "DATA@", 5))
		return write_tree(ep->p, ep->evs, ep->nev, ep->more, &ep->times, f);
	if (!strncmp(name, "TIMES@", 6))
		return profile_write_html_times(&ep->times, f);
	/* Source lines on the report's page (its events are the profile's, or @ev alone). */
	if (!strncmp(name, "LINES@", 6) && ep->lines_ev != NONE)
		return profile_write_html_lines(ep->p, ep->lines_ev, f);
	if (!strncmp(name, "SCRIPT@", 7))
		fwrite(page_js, 1, sizeof(page_js), f);
	return 0;
}

static int write_page(struct events_page *ep, FILE *f)
{
	int err = profile_html_fill(page_html, sizeof(page_html), fill_events, ep, f);

	profile_page_times_release(&ep->times);
	return err;
}

int profile_write_html_events(const struct profile *p, const uint32_t *evs, size_t nev,
			      const struct profile_html_more *more, FILE *f)
{
	struct events_page ep = {p, evs, nev, more, {0}, NONE};

	return write_page(&ep, f);
}

int profile_write_html(const struct profile *p, size_t ev, FILE *f)
{
	struct events_page ep = {p, NULL, 0, NULL, {0}, ev < p->nevents ? ev : p->nevents};
	uint32_t *evs = events_of(p, ev, &ep.nev);
	int err;

	if (!evs)
		return -ENOMEM;
	ep.evs = evs;
	err = write_page(&ep, f);
	free(evs);
	return err;
}
