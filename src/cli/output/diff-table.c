// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perf diff's table.  For each event of the baseline, the entries (the
 * sort keys' values of the sampled functions) of every file are summed,
 * matched across files by what they show (an object by its short name,
 * a function by its name in it, as perf 6.1 matches them, so a rebuilt
 * program still matches), and printed: the baseline's share, then per
 * new file its column (-c), the formula (-F) and period (-p), and
 * perfev's significance mark.  An entry only in a new file is shown with
 * an empty baseline (perf's "dummy" entry); one only in the baseline has
 * empty columns for the new files.
 *
 * Sorting is perf's: by the column of file -o (default 1), entries found
 * in that file first (and, but for the deltas, those in the baseline);
 * then the baseline's period, each file's column in turn, and the sort
 * keys.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "diff.h"
#include "perfev-cli.h"

#define NONE UINT32_MAX

/* What an entry is: the keys' fields, interned (so compared as pointers), the rest zero. */
struct dkey {
	const char *comm, *dso, *sym;
	uint32_t tid;
	int32_t cpu;
};

struct dent {
	struct dkey key;
	char level;	  /* the first sample's */
	uint32_t tid;	  /* the first sample's thread */
	const char *comm; /* for the pid column: the first sample's command */
	bool hidden;	  /* a filter hides it; it counts in the totals all the same */
	uint32_t seq;
	/* per file */
	struct dsum {
		uint64_t period, samples;
		uint64_t addr; /* the lowest of its samples' addresses */
		bool in;       /* the file has it */
		double delta, ratio;
		int64_t wdiff;
	} f[];
};

static const char *const key_header[DK_MAX] = {
    [DK_COMM] = "Command",	[DK_PID] = "    Pid:Command",
    [DK_DSO] = "Shared Object", [DK_SYM] = "Symbol",
    [DK_CPU] = "CPU",
};

/* One event's table in the making. */
struct dtab {
	struct diff *d;
	uint32_t *ev;		    /* per file: its event matching the baseline's, NONE: none */
	struct perfev__hashmap map; /* struct dkey * -> struct dent * */
	struct dent **v;
	size_t nv, cap;
	double *total;	   /* per file: what shares are of */
	double base_shown; /* the baseline's shares in its column (-b leaves fewer) */
	uint64_t *samples; /* per file: the event's samples, for the significance test */
};

static uint64_t dkey_hash(uint64_t key, void *ctx)
{
	const struct dkey *k = perfev__key_ptr(key);
	uint64_t h = perfev__hash_combine((uintptr_t)k->comm, (uintptr_t)k->dso);

	h = perfev__hash_combine(h, (uintptr_t)k->sym);
	h = perfev__hash_combine(h, (uint64_t)k->tid << 32 | (uint32_t)k->cpu);
	(void)ctx;
	return perfev__hash_u64(h);
}

static bool dkey_equal(uint64_t x, uint64_t y, void *ctx)
{
	const struct dkey *a = perfev__key_ptr(x), *b = perfev__key_ptr(y);

	(void)ctx;
	return a->comm == b->comm && a->dso == b->dso && a->sym == b->sym && a->tid == b->tid &&
	       a->cpu == b->cpu;
}

static bool listed(const struct diff_names *f, const char *s)
{
	size_t i;

	for (i = 0; f->on && s && i < f->n; i++)
		if (!strcmp(f->v[i], s))
			return true;
	return !f->on;
}

static bool id_listed(const struct diff_names *f, uint32_t id)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%" PRIu32, id);
	return listed(f, buf);
}

/* Add stack @s of file @file to its entry. */
static void add_stack(struct dtab *t, const struct profile_stack *s, uint32_t file)
{
	struct diff *d = t->d;
	const struct profile_frame *fr;
	struct perfev__hashmap_entry *slot;
	struct dkey k = {0};
	struct dent *e;
	const char *dso;
	bool added;

	if (!s->nframes)
		return;
	fr = &d->prof.frames[s->frames[0]];
	dso = profile_intern(&d->prof, profile_short_dso(fr->dso));
	k.comm = d->want[DK_COMM] ? s->comm : NULL;
	k.tid = d->want[DK_PID] ? s->tid : 0;
	k.cpu = d->want[DK_CPU] ? s->cpu : 0;
	/*
	 * perf diff compares functions by name, whatever their object unless dso
	 * is a key; the unresolved addresses (no name) are one entry.
	 */
	k.dso = d->want[DK_DSO] ? dso : NULL;
	k.sym = d->want[DK_SYM] ? fr->sym : NULL;
	t->map.hash = dkey_hash;
	t->map.equal = dkey_equal;
	slot = perfev__hashmap_upsert(&t->map, perfev__ptr_key(&k), &added);
	if (!slot)
		cli_die("out of memory");
	if (added) {
		e = calloc(1, sizeof(*e) + d->nfiles * sizeof(e->f[0]));
		if (!e)
			cli_die("out of memory");
		e->key = k;
		e->level = fr->level;
		e->tid = s->tid;
		e->comm = s->comm;
		e->seq = (uint32_t)t->nv;
		e->hidden = !listed(&d->fcomm, s->comm) || !listed(&d->fdso, dso) ||
			    !listed(&d->fsym, fr->sym) || !id_listed(&d->fpid, s->pid) ||
			    !id_listed(&d->ftid, s->tid);
		slot->key = perfev__ptr_key(&e->key);
		slot->value = perfev__ptr_key(e);
		cli_grow(&t->v, &t->cap, t->nv + 1, sizeof(*t->v));
		t->v[t->nv++] = e;
	}
	e = perfev__key_ptr(slot->value);
	/* Without a symbol perf shows the lowest address of the entry (it merges them in order). */
	if (!e->f[file].in || fr->addr < e->f[file].addr)
		e->f[file].addr = fr->addr;
	e->f[file].period += s->period;
	e->f[file].samples += s->samples;
	e->f[file].in = true;
}

/* @v percent of @total, 0 when @total is. */
static double pct(double v, double total)
{
	return total > 0 ? 100.0 * v / total : 0;
}

/* Whether @e is in a new file. */
static bool paired(const struct diff *d, const struct dent *e)
{
	uint32_t k;

	for (k = 1; k < d->nfiles; k++)
		if (e->f[k].in)
			return true;
	return false;
}

/*
 * Sum the files' stacks of baseline event @b into entries, keep those
 * shown, and compute each new file's values as perf does.
 */
static void build(struct dtab *t, uint32_t b)
{
	struct diff *d = t->d;
	double *visible;
	size_t i, n = 0;
	uint32_t k, c;

	for (k = 0; k < d->nfiles; k++)
		t->ev[k] = NONE;
	t->ev[0] = b;
	for (c = 0; c < d->prof.nevents; c++) {
		const struct diff_event *x = &d->evs[c];

		/* perf matches events by their type and config, the first of a file. */
		if (x->file && t->ev[x->file] == NONE && x->type == d->evs[b].type &&
		    x->config == d->evs[b].config)
			t->ev[x->file] = c;
	}
	for (i = 0; i < d->prof.nstacks; i++) {
		const struct profile_stack *s = &d->prof.stacks[i];

		if (t->ev[d->evs[s->ev].file] == s->ev)
			add_stack(t, s, d->evs[s->ev].file);
	}
	/* The totals: every sample's, or (relative) those of the entries no filter hides. */
	visible = calloc(d->nfiles, sizeof(*visible));
	if (!visible)
		cli_die("out of memory");
	for (i = 0; i < t->nv; i++)
		for (k = 0; k < d->nfiles; k++)
			if (!t->v[i]->hidden)
				visible[k] += (double)t->v[i]->f[k].period;
	for (k = 0; k < d->nfiles; k++) {
		t->total[k] = t->ev[k] == NONE ? 0
			      : d->absolute    ? (double)d->prof.events[t->ev[k]].period
					       : visible[k];
		t->samples[k] = t->ev[k] == NONE ? 0 : d->prof.events[t->ev[k]].samples;
	}
	free(visible);
	/*
	 * Shown: the baseline's entries and those only in a new file; with -b
	 * only the baseline's found in a new file.  The baseline's column is
	 * of what is left (perf sums it again after -b): every entry
	 * (absolute), or those no filter hides (relative).
	 */
	t->base_shown = 0;
	for (i = 0; i < t->nv; i++) {
		struct dent *e = t->v[i];

		if (d->baseline_only && !(e->f[0].in && paired(d, e))) {
			free(e);
			continue;
		}
		if (d->absolute || !e->hidden)
			t->base_shown += (double)e->f[0].period;
		if (e->hidden) {
			free(e);
			continue;
		}
		for (k = 1; k < d->nfiles; k++) {
			struct dsum *f = &e->f[k];
			double old = (double)e->f[0].period;

			f->delta = pct((double)f->period, t->total[k]) - pct(old, t->total[0]);
			f->ratio = (double)f->period / (e->f[0].period ? old : 1.0);
			f->wdiff = (int64_t)f->period * d->w2 - (int64_t)e->f[0].period * d->w1;
		}
		t->v[n++] = e;
	}
	t->nv = n;
}

/* qsort has no context: the diff being sorted */
static const struct diff *g_diff;

static int cmp_doubles(double l, double r)
{
	return l > r ? -1 : l < r;
}

/* Compare two entries' values of kind @c in one file: <0 when @a goes first. */
static int cmp_values(const struct dsum *a, const struct dsum *b, enum diff_compute c)
{
	switch (c) {
	case DC_DELTA:
		return cmp_doubles(a->delta, b->delta);
	case DC_DELTA_ABS:
		return cmp_doubles(fabs(a->delta), fabs(b->delta));
	case DC_RATIO:
		return cmp_doubles(a->ratio, b->ratio);
	default:
		return a->wdiff > b->wdiff ? -1 : a->wdiff < b->wdiff;
	}
}

/*
 * perf's first compare (-o's file @k): entries in that file first; but
 * for the deltas, then those the baseline has too (a ratio or weighted
 * difference of nothing means nothing); then by value.
 */
static int cmp_order(const struct dent *x, const struct dent *y, uint32_t k, enum diff_compute c)
{
	const struct dsum *a = &x->f[k], *b = &y->f[k];

	if (!a->in && !b->in)
		return 0;
	if (!a->in || !b->in)
		return a->in ? -1 : 1;
	if (c != DC_DELTA && c != DC_DELTA_ABS) {
		if (!x->f[0].in && !y->f[0].in)
			return 0;
		if (!x->f[0].in || !y->f[0].in)
			return x->f[0].in ? -1 : 1;
	}
	return cmp_values(a, b, c);
}

/*
 * perf's compare by file @k's column: entries in some new file first,
 * then as cmp_order() but with no exception for the baseline's absence
 * (a ratio is then the new period over 1).
 */
static int cmp_column(const struct diff *d, const struct dent *x, const struct dent *y, uint32_t k)
{
	bool px = paired(d, x), py = paired(d, y);

	if (!px && !py)
		return 0;
	if (!px || !py)
		return px ? -1 : 1;
	if (!x->f[k].in && !y->f[k].in)
		return 0;
	if (!x->f[k].in || !y->f[k].in)
		return x->f[k].in ? -1 : 1;
	return cmp_values(&x->f[k], &y->f[k], d->compute);
}

static int cmp_name(const char *a, const char *b)
{
	/* Named before unnamed; two unnamed are equal. */
	return a && b ? strcmp(a, b) : (a == NULL) - (b == NULL);
}

static int cmp_dent(const void *pa, const void *pb)
{
	const struct dent *x = *(const struct dent *const *)pa,
			  *y = *(const struct dent *const *)pb;
	const struct diff *d = g_diff;
	int c = 0, i;
	uint32_t k;

	if (d->order)
		c = cmp_order(x, y, d->order, d->compute);
	if (!c && x->f[0].period != y->f[0].period)
		c = x->f[0].period > y->f[0].period ? -1 : 1;
	for (k = 1; !c && k < d->nfiles; k++)
		c = cmp_column(d, x, y, k);
	for (i = 0; !c && i < d->nkeys; i++) {
		switch (d->keys[i]) {
		case DK_COMM:
			c = strcmp(x->key.comm, y->key.comm);
			break;
		case DK_PID:
			c = x->key.tid < y->key.tid ? -1 : x->key.tid > y->key.tid;
			break;
		case DK_DSO:
			c = strcmp(x->key.dso, y->key.dso);
			break;
		case DK_SYM:
			c = cmp_name(x->key.sym, y->key.sym);
			break;
		case DK_CPU:
			c = x->key.cpu < y->key.cpu ? -1 : x->key.cpu > y->key.cpu;
			break;
		default:
			break;
		}
	}
	if (!c)
		c = x->seq < y->seq ? -1 : x->seq > y->seq;
	return c;
}

/* The first file that has @e: where perf takes what it shows of it. */
static uint32_t first_file(const struct diff *d, const struct dent *e)
{
	uint32_t k;

	for (k = 0; k + 1 < d->nfiles && !e->f[k].in; k++)
		;
	return k;
}

/*
 * The command of @e's thread as perf's pid column names it and its
 * comm column measures it: the thread's last (its COMM records).
 */
static const char *thread_comm(const struct diff *d, const struct dent *e)
{
	uint64_t comm;

	if (perfev__hashmap_find(&d->comms, (uint64_t)first_file(d, e) << 32 | e->tid, &comm))
		return perfev__key_ptr(comm);
	return e->comm;
}

/* The text of key @k of @e. */
static void key_text(const struct diff *d, const struct dent *e, enum diff_key k, char *buf,
		     size_t len)
{
	switch (k) {
	case DK_COMM:
		snprintf(buf, len, "%s", e->key.comm);
		break;
	case DK_PID:
		snprintf(buf, len, "%7" PRIu32 ":%s", e->key.tid, thread_comm(d, e));
		break;
	case DK_DSO:
		snprintf(buf, len, "%s", e->key.dso);
		break;
	case DK_SYM:
		if (e->key.sym)
			snprintf(buf, len, "[%c] %s", e->level, e->key.sym);
		else
			snprintf(buf, len, "[%c] %#.16" PRIx64, e->level,
				 e->f[first_file(d, e)].addr);
		break;
	case DK_CPU:
		snprintf(buf, len, "%3.3d", (int)e->key.cpu);
		break;
	default:
		buf[0] = '\0';
	}
}

/* The data columns, in perf's order: per file its column, formula, period; then the mark. */
enum dcol { COL_BASE, COL_BASE_PERIOD, COL_VALUE, COL_FORMULA, COL_PERIOD, COL_SIG };

struct column {
	enum dcol kind;
	uint32_t file;
	char head[32];
	int width;
};

static void add_column(struct column *c, size_t *n, const struct diff *d, enum dcol kind,
		       uint32_t file)
{
	static const char *const values[] = {[DC_DELTA] = "Delta",
					     [DC_DELTA_ABS] = "Delta Abs",
					     [DC_RATIO] = "Ratio",
					     [DC_WDIFF] = "Weighted diff"};
	static const int value_width[] = {
	    [DC_DELTA] = 7, [DC_DELTA_ABS] = 9, [DC_RATIO] = 14, [DC_WDIFF] = 14};
	const char *name = "";
	int w = 0, len;

	switch (kind) {
	case COL_BASE:
		name = "Baseline";
		w = 8;
		break;
	case COL_BASE_PERIOD:
		name = "Base period";
		w = 14;
		break;
	case COL_VALUE:
		name = values[d->compute];
		w = value_width[d->compute];
		break;
	case COL_FORMULA:
		name = "Formula";
		w = 70;
		break;
	case COL_PERIOD:
		name = "Period";
		w = 14;
		break;
	case COL_SIG:
		name = "Sig";
		w = 3;
		break;
	}
	/* perf names each file's columns after it when there are more than two. */
	if (d->nfiles > 2 && kind != COL_SIG)
		snprintf(c[*n].head, sizeof(c[*n].head), "%s/%" PRIu32, name, file);
	else if (d->nfiles > 2)
		snprintf(c[*n].head, sizeof(c[*n].head), "Sig/%" PRIu32, file);
	else
		snprintf(c[*n].head, sizeof(c[*n].head), "%s", name);
	len = (int)strlen(c[*n].head);
	c[*n].kind = kind;
	c[*n].file = file;
	c[*n].width = len > w ? len : w;
	(*n)++;
}

/* The text of data column @c of @e. */
static void column_text(const struct dtab *t, const struct dent *e, const struct column *c,
			char *buf, size_t len)
{
	const struct diff *d = t->d;
	const struct dsum *f = &e->f[c->file], *b = &e->f[0];
	double z;

	buf[0] = '\0';
	switch (c->kind) {
	case COL_BASE:
		if (b->in)
			snprintf(buf, len, d->sep ? "%.2f" : "%.2f%%",
				 pct((double)b->period, t->base_shown));
		return;
	case COL_BASE_PERIOD:
		snprintf(buf, len, "%" PRIu64, b->period);
		return;
	case COL_PERIOD:
		if (f->in)
			snprintf(buf, len, "%" PRIu64, f->period);
		return;
	case COL_SIG:
		if (f->in || b->in)
			if (!diff_sig_z(b->samples, t->samples[0], f->samples, t->samples[c->file],
					&z))
				snprintf(buf, len, "%s", diff_sig_mark(z));
		return;
	default:
		break;
	}
	if (!f->in)
		return;
	if (c->kind == COL_FORMULA) {
		switch (d->compute) {
		case DC_DELTA:
		case DC_DELTA_ABS:
			snprintf(buf, len,
				 "(%" PRIu64 " * 100 / %.0f) - (%" PRIu64 " * 100 / %.0f)",
				 f->period, t->total[c->file], b->period, t->base_shown);
			break;
		case DC_RATIO:
			snprintf(buf, len, "%" PRIu64 " / %" PRIu64, f->period, b->period);
			break;
		default:
			snprintf(buf, len,
				 "(%" PRIu64 " * %" PRId64 ") - (%" PRIu64 " * %" PRId64 ")",
				 f->period, d->w2, b->period, d->w1);
			break;
		}
		return;
	}
	switch (d->compute) {
	case DC_DELTA:
	case DC_DELTA_ABS:
		snprintf(buf, len, "%+.2f%%", f->delta);
		break;
	case DC_RATIO:
		/* perf's table always shows a ratio, its -t output only one above 0 */
		if (!b->in)
			snprintf(buf, len, "N/A");
		else if (f->ratio > 0 || !d->sep)
			snprintf(buf, len, "%*.6f", d->sep ? 14 : c->width, f->ratio);
		break;
	default:
		/* 14 wide whatever the column's width, and 0 shown but with -t (perf's) */
		if (!b->in)
			snprintf(buf, len, "N/A");
		else if (f->wdiff || !d->sep)
			snprintf(buf, len, "%14" PRId64 "%*s", f->wdiff,
				 d->sep || c->width < 14 ? 0 : c->width - 14, "");
		break;
	}
}

/* perf hides a key's column when its filter lets one value through. */
static bool elided(const struct diff *d, enum diff_key k)
{
	const struct diff_names *f = k == DK_COMM  ? &d->fcomm
				     : k == DK_DSO ? &d->fdso
				     : k == DK_SYM ? &d->fsym
						   : NULL;

	return f && f->on && f->n == 1;
}

/* The last key shown. */
static int last_key(const struct diff *d)
{
	int i = d->nkeys - 1;

	while (i > 0 && elided(d, d->keys[i]))
		i--;
	return i;
}

/* A column's separator: two spaces, or -t's. */
static const char *gap(const struct diff *d)
{
	return d->sep ? d->sep : "  ";
}

static void print_header(const struct dtab *t, const struct column *cols, size_t ncols,
			 const int *kw)
{
	const struct diff *d = t->d;
	int line, i, w;
	size_t c;

	for (line = 0; line < (d->sep ? 1 : 2); line++) {
		printf("# ");
		for (c = 0; c < ncols; c++) {
			if (c)
				printf("%s", gap(d));
			if (line)
				for (w = 0; w < cols[c].width; w++)
					putchar('.');
			else
				printf("%*s", cols[c].width, cols[c].head);
		}
		for (i = 0; i < d->nkeys; i++) {
			if (elided(d, d->keys[i]))
				continue;
			printf("%s", gap(d));
			if (line)
				for (w = 0; w < kw[i]; w++)
					putchar('.');
			else
				printf("%-*s", kw[i], key_header[d->keys[i]]);
		}
		putchar('\n');
	}
	if (!d->sep)
		printf("#\n");
}

static void print_table(struct dtab *t, bool first)
{
	struct diff *d = t->d;
	struct column *cols = calloc(2 + 4 * (size_t)d->nfiles, sizeof(*cols));
	size_t ncols = 0, i, c;
	int kw[DK_MAX], k;
	uint32_t f;
	char buf[4096];

	add_column(cols, &ncols, d, COL_BASE, 0);
	if (d->show_period)
		add_column(cols, &ncols, d, COL_BASE_PERIOD, 0);
	if (!cols)
		cli_die("out of memory");
	for (f = 1; f < d->nfiles; f++) {
		add_column(cols, &ncols, d, COL_VALUE, f);
		if (d->sig)
			add_column(cols, &ncols, d, COL_SIG, f);
		if (d->show_formula)
			add_column(cols, &ncols, d, COL_FORMULA, f);
		if (d->show_period)
			add_column(cols, &ncols, d, COL_PERIOD, f);
	}
	for (k = 0; k < d->nkeys; k++) {
		kw[k] = (int)strlen(key_header[d->keys[k]]);
		for (i = 0; i < t->nv; i++) {
			int len;

			key_text(d, t->v[i], d->keys[k], buf, sizeof(buf));
			/* perf's: a command's width is that of its thread's last command */
			len = d->keys[k] == DK_CPU    ? 3
			      : d->keys[k] == DK_COMM ? (int)strlen(thread_comm(d, t->v[i]))
						      : (int)strlen(buf);
			if (len > kw[k])
				kw[k] = len;
		}
	}
	if (!d->quiet) {
		printf("%s# Event '%s'\n#\n", first ? "" : "\n", d->prof.events[t->ev[0]].name);
		if (d->nfiles > 2) {
			printf("# Data files:\n");
			for (f = 0; f < d->nfiles; f++)
				printf("#  [%" PRIu32 "] %s %s\n", f, d->paths[f],
				       f ? "" : "(Baseline)");
			printf("#\n");
		}
		print_header(t, cols, ncols, kw);
	}
	for (i = 0; i < t->nv; i++) {
		const struct dent *e = t->v[i];

		printf("%s", d->sep ? "" : "  ");
		for (c = 0; c < ncols; c++) {
			column_text(t, e, &cols[c], buf, sizeof(buf));
			printf(d->sep ? "%s%-*s" : "%s%*s", c ? gap(d) : "", cols[c].width, buf);
		}
		for (k = 0; k < d->nkeys; k++) {
			if (elided(d, d->keys[k]))
				continue;
			key_text(d, e, d->keys[k], buf, sizeof(buf));
			/* perf pads every key but a symbol at the end. */
			if (k == last_key(d) && d->keys[k] == DK_SYM)
				printf("%s%s", gap(d), buf);
			else
				/* perf cuts a command to its column; a CPU's "-001" runs over */
				printf("%s%-*.*s", gap(d), kw[k],
				       d->keys[k] == DK_COMM ? kw[k] : (int)sizeof(buf), buf);
		}
		putchar('\n');
	}
	free(cols);
}

void diff_table_print(struct diff *d)
{
	struct dtab t = {.d = d};
	bool first = true, matched = false;
	uint32_t b, k;
	size_t i;

	t.ev = calloc(d->nfiles, sizeof(*t.ev));
	t.total = calloc(d->nfiles, sizeof(*t.total));
	t.samples = calloc(d->nfiles, sizeof(*t.samples));
	if (!t.ev || !t.total || !t.samples)
		cli_die("out of memory");
	g_diff = d;
	for (b = 0; b < d->prof.nevents && !d->evs[b].file; b++) {
		build(&t, b);
		for (k = 1; k < d->nfiles; k++)
			matched |= t.ev[k] != NONE;
		qsort(t.v, t.nv, sizeof(*t.v), cmp_dent);
		print_table(&t, first);
		first = false;
		for (i = 0; i < t.nv; i++)
			free(t.v[i]);
		t.nv = 0;
		perfev__hashmap_clear(&t.map);
	}
	if (!matched && !d->quiet)
		cli_error("warning: no event of '%s' is in the other files: nothing is compared "
			  "(perf matches events by their type and config)",
			  d->paths[0]);
	if (d->sig && !d->quiet && !d->sep)
		printf("\n# Sig: the entry's share of the samples changed more than sampling noise "
		       "explains\n#  (two-proportion z-test: * p < 0.05, ** p < 0.01, *** p < "
		       "0.001; blank: no, or too few samples to tell)\n");
	perfev__hashmap_release(&t.map);
	free(t.v);
	free(t.ev);
	free(t.total);
	free(t.samples);
}
