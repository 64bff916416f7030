// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The call graph under a line of perfev report: a tree of function names
 * built from the paths of the samples that went through the line, printed
 * as perf report --stdio draws it:
 *
 *             |
 *             ---main
 *                compute
 *                |
 *                |--60.00%--inner
 *                |          leaf
 *                |
 *                 --40.00%--other
 *
 * A chain of nodes that each pass everything to one child stays in one
 * column; where paths part, each branch gets its percentage (of the
 * event's total, or of its parent with -g fractal).  Branches under the
 * -g threshold are left out.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "perfev-cli.h"
#include "report.h"

static void *arena_alloc(struct perfev__arena *a, size_t size)
{
	void *p = perfev__arena_alloc(a, size, 16);

	if (!p)
		cli_die("out of memory");
	return p;
}

/* As perf, a function is its object and address (functions may share a name). */
static bool same(const struct gnode *n, const struct gstep *st)
{
	return n->name == st->name && n->addr == st->addr && n->dso_ord == st->dso_ord;
}

void graph_add(struct perfev__arena *a, struct gnode *root, const struct gstep *steps, size_t n,
	       uint64_t period)
{
	struct gnode *at = root;
	size_t i, k;

	root->period += period;
	for (i = 0; i < n; i++) {
		struct gnode *next = NULL;

		if (at->hint < at->nkids && same(at->kids[at->hint], &steps[i])) {
			next = at->kids[at->hint];
		} else {
			for (k = 0; k < at->nkids; k++) {
				if (same(at->kids[k], &steps[i])) {
					next = at->kids[k];
					at->hint = k;
					break;
				}
			}
		}
		if (!next) {
			if (at->nkids == at->cap) {
				/* The old array stays in the arena, freed with it. */
				size_t cap = at->cap ? at->cap * 2 : 2;
				struct gnode **v = arena_alloc(a, cap * sizeof(*v));

				if (at->nkids)
					memcpy(v, at->kids, at->nkids * sizeof(*v));
				at->kids = v;
				at->cap = cap;
			}
			next = arena_alloc(a, sizeof(*next));
			at->hint = at->nkids;
			next->name = steps[i].name;
			next->addr = steps[i].addr;
			next->dso_ord = steps[i].dso_ord;
			next->inlined = steps[i].inlined;
			at->kids[at->nkids++] = next;
		}
		next->period += period;
		at = next;
	}
	at->self += period;
}

static int cmp_node(const void *a, const void *b)
{
	const struct gnode *x = *(const struct gnode *const *)a,
			   *y = *(const struct gnode *const *)b;

	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	/* Where either is inlined perf compares names, the greater first. */
	if ((x->inlined || y->inlined) && strcmp(x->name, y->name))
		return strcmp(x->name, y->name) > 0 ? -1 : 1;
	/* As perf: by object (in the order they were met), then address, the last first. */
	if (x->dso_ord != y->dso_ord)
		return x->dso_ord > y->dso_ord ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr > y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

struct gprint {
	const struct report *r;
	uint64_t total;	     /* the event's */
	uint64_t line_total; /* the report line's */
	char prefix[4096];
};

/*
 * What a branch's percentage is of: the event's total, or with -g
 * fractal what went on through its parent (not what ended there); the
 * first branches, under the line's own first chain, are of the line's
 * total.
 */
static uint64_t base_of(const struct gprint *g, const struct gnode *parent, bool top)
{
	if (g->r->graph != GM_FRACTAL)
		return g->total;
	return top ? g->line_total : parent->period - parent->self;
}

double report_pct(uint64_t v, uint64_t base)
{
	return base ? 100.0 * (double)v / (double)base : 0;
}

/* The children of @n worth printing (above the threshold of @base), biggest first. */
static size_t shown_kids(const struct gprint *g, const struct gnode *n, uint64_t base,
			 struct gnode ***out)
{
	size_t k, m = 0;

	*out = malloc((n->nkids ? n->nkids : 1) * sizeof(**out));
	if (!*out)
		cli_die("out of memory");
	for (k = 0; k < n->nkids; k++)
		if (report_pct(n->kids[k]->period, base) >= g->r->graph_limit)
			(*out)[m++] = n->kids[k];
	qsort(*out, m, sizeof(**out), cmp_node);
	return m;
}

static bool print_branches(struct gprint *g, const struct gnode *n, bool top);

/* Whether @n's one child carries all it has: the two are printed as one chain. */
static bool chain_goes_on(const struct gnode *n)
{
	return n->nkids == 1 && n->kids[0]->period == n->period && !n->self;
}

/* The rest of a branch after its first name: the chain, then where it parts. */
static void print_chain(struct gprint *g, const struct gnode *n, bool top)
{
	while (chain_goes_on(n)) {
		n = n->kids[0];
		printf("%s%s\n", g->prefix, n->name);
	}
	print_branches(g, n, top);
}

/* Whether it printed anything. */
static bool print_branches(struct gprint *g, const struct gnode *n, bool top)
{
	struct gnode **kids;
	uint64_t base = base_of(g, n, top);
	/* -g fractal: a branch is shown by its share of what went on through @n (perf's). */
	size_t m = shown_kids(g, n, g->r->graph == GM_FRACTAL ? n->period - n->self : g->total,
			      &kids),
	       k, len = strlen(g->prefix);

	uint64_t rest = base;

	/* -g fractal: what the branches shown leave of the base is one more, "[...]". */
	for (k = 0; k < m; k++)
		rest -= rest >= kids[k]->period ? kids[k]->period : rest;
	if (g->r->graph != GM_FRACTAL || rest == base)
		rest = 0;
	for (k = 0; k < m; k++) {
		bool last = k == m - 1 && !rest;

		printf("%s|          \n", g->prefix);
		printf("%s%s--%.2f%%--%s\n", g->prefix, last ? " " : "|",
		       report_pct(kids[k]->period, base), kids[k]->name);
		if (len + 12 < sizeof(g->prefix)) {
			strcpy(g->prefix + len, last ? "           " : "|          ");
			print_chain(g, kids[k], false);
			g->prefix[len] = '\0';
		}
	}
	if (rest)
		printf("%s --%.2f%%--[...]\n", g->prefix, report_pct(rest, base));
	free(kids);
	return m || rest;
}

/* Deeper than any stack: 127 frames, each with at most 64 inlined functions. */
#define PATH_MAX_DEPTH 8192

/* A path for -g flat and folded: the names to a node where samples ended, and how many. */
struct fpath {
	char *text; /* folded: "a;b;c"; flat: one name per line */
	uint64_t self, period;
};

struct fpaths {
	struct fpath *v;
	size_t n, cap;
};

static int cmp_key(const void *a, const void *b)
{
	const struct gnode *x = *(const struct gnode *const *)a,
			   *y = *(const struct gnode *const *)b;

	if (x->dso_ord != y->dso_ord)
		return x->dso_ord > y->dso_ord ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr > y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* As perf meets them: each node after its children, children by object and address, the last first.
 */
static void collect_paths(const struct gprint *g, const struct gnode *n, const char **path,
			  size_t depth, struct fpaths *out)
{
	size_t k, len = 0;
	struct gnode **kids = malloc((n->nkids ? n->nkids : 1) * sizeof(*kids));

	if (!kids)
		cli_die("out of memory");
	if (n->nkids) {
		memcpy(kids, n->kids, n->nkids * sizeof(*kids));
		qsort(kids, n->nkids, sizeof(*kids), cmp_key);
	}
	for (k = 0; k < n->nkids && depth < PATH_MAX_DEPTH; k++) {
		path[depth] = kids[k]->name;
		collect_paths(g, kids[k], path, depth + 1, out);
	}
	free(kids);
	if (n->self && depth &&
	    (g->total ? 100.0 * (double)n->self / (double)g->total : 0) >= g->r->graph_limit) {
		char *t;

		for (k = 0; k < depth; k++)
			len += strlen(path[k]) + 20;
		t = malloc(len + 1);
		if (!t)
			cli_die("out of memory");
		t[0] = '\0';
		for (k = 0, len = 0; k < depth; k++)
			len += (size_t)sprintf(t + len,
					       g->r->graph == GM_FLAT ? "                %s\n"
					       : k		      ? ";%s"
								      : "%s",
					       path[k]);
		cli_grow(&out->v, &out->cap, out->n + 1, sizeof(*out->v));
		out->v[out->n].text = t;
		out->v[out->n].period = n->period;
		out->v[out->n++].self = n->self;
	}
}

static int cmp_fpath(const void *a, const void *b)
{
	const struct fpath *x = a, *y = b;

	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	return 0;
}

/*
 * -g flat and folded: each path that samples ended at, those where most
 * ended first, with its share: flat as a column of names, folded on one
 * line.
 */
static void print_paths(const struct gprint *g, const struct gnode *root)
{
	const char **path = malloc(PATH_MAX_DEPTH * sizeof(*path));
	struct fpaths ps = {0};
	size_t i;

	if (!path)
		cli_die("out of memory");

	collect_paths(g, root, path, 0, &ps);
	/* Stable: equal paths keep the graph's order. */
	for (i = 1; i < ps.n; i++) {
		struct fpath t = ps.v[i];
		size_t j = i;

		while (j > 0 && cmp_fpath(&ps.v[j - 1], &t) > 0) {
			ps.v[j] = ps.v[j - 1];
			j--;
		}
		ps.v[j] = t;
	}
	for (i = 0; i < ps.n; i++) {
		/* flat shows what went through the path's end, folded what ended there. */
		if (g->r->graph == GM_FLAT)
			printf("           %.2f%%\n%s\n", report_pct(ps.v[i].period, g->total),
			       ps.v[i].text);
		else
			printf("%.2f%% %s\n", report_pct(ps.v[i].self, g->total), ps.v[i].text);
		free(ps.v[i].text);
	}
	free(ps.v);
	free(path);
}

void graph_print(const struct report *r, const struct gnode *root, uint64_t total)
{
	struct gprint g = {.r = r, .total = total, .line_total = root->period};
	struct gnode **kids;
	size_t m;

	m = shown_kids(&g, root, r->graph == GM_FRACTAL ? root->period : total, &kids);
	if (!m) {
		free(kids);
		return;
	}
	if (r->graph == GM_FOLDED || r->graph == GM_FLAT) {
		free(kids);
		print_paths(&g, root);
		return;
	}
	if (m == 1 && root->nkids == 1) {
		const struct gnode *n = kids[0];

		/*
		 * One root: "---" starts it; several: the first branch's "|" line
		 * does.  Sorted by symbol first, perf leaves out the root's first
		 * name (the line's own), and when the root's chain is that name
		 * alone, its "---" too.
		 */
		if (r->graph_skips_sym && !chain_goes_on(n)) {
			strcpy(g.prefix, "            ");
			/* perf: no blank line after a graph that printed nothing */
			if (print_branches(&g, n, true))
				putchar('\n');
			free(kids);
			return;
		}
		if (r->graph_skips_sym)
			n = n->kids[0];
		printf("            |\n            ---%s\n", n->name);
		strcpy(g.prefix, "               ");
		print_chain(&g, n, true);
	} else {
		strcpy(g.prefix, "            ");
		print_branches(&g, root, true);
	}
	free(kids);
	putchar('\n');
}
