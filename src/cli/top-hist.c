// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev top's histogram: samples summed by the sort keys, each line's
 * caller chains (with -g), perf top's decay between refreshes, and a cap
 * on the lines kept so that a long run stays within its memory.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "perfev-cli.h"
#include "top.h"

static const char *const key_names[TOP_NKEYS] = {"comm", "pid", "dso", "sym"};

/* Lines are keyed by themselves: the fields the sort keys name. */
static uint64_t entry_hash(uint64_t key, void *ctx)
{
	const struct top_entry *e = perfev__key_ptr(key);
	uint64_t h = 0;

	(void)ctx;
	h = perfev__hash_combine(h, perfev__ptr_key(e->comm));
	h = perfev__hash_combine(h, perfev__ptr_key(e->dso));
	h = perfev__hash_combine(h, perfev__ptr_key(e->sym));
	h = perfev__hash_combine(h, e->sym ? 0 : e->addr);
	h = perfev__hash_combine(h, e->pid);
	return perfev__hash_u64(h);
}

static bool entry_equal(uint64_t a, uint64_t b, void *ctx)
{
	const struct top_entry *x = perfev__key_ptr(a), *y = perfev__key_ptr(b);

	(void)ctx;
	return x->comm == y->comm && x->dso == y->dso && x->sym == y->sym && x->pid == y->pid &&
	       (x->sym || x->addr == y->addr) && x->kernel == y->kernel;
}

void top_hist_init(struct top_hist *h, size_t max_entries)
{
	memset(h, 0, sizeof(*h));
	perfev__hashmap_init(&h->map, entry_hash, entry_equal, NULL);
	perfev__intern_init(&h->strings);
	h->max_entries = max_entries;
	h->keys[0] = TOP_KEY_DSO;
	h->keys[1] = TOP_KEY_SYM;
	h->nkeys = 2;
}

static void entry_free(struct top_entry *e)
{
	free(e->chains);
	free(e);
}

static void free_entries(struct top_hist *h)
{
	struct perfev__hashmap_entry *he;

	perfev__hashmap_for_each(&h->map, he)
		entry_free(perfev__key_ptr(he->key));
	perfev__hashmap_clear(&h->map);
	h->nsorted = 0;
}

void top_hist_release(struct top_hist *h)
{
	free_entries(h);
	perfev__hashmap_release(&h->map);
	perfev__intern_release(&h->strings);
	free(h->sorted);
}

int top_hist_set_sort(struct top_hist *h, const char *spec, const char **bad)
{
	enum top_key keys[TOP_MAX_KEYS];
	unsigned int n = 0, k;
	const char *p = spec;

	for (;;) {
		size_t len = strcspn(p, ",");

		for (k = 0; k < TOP_NKEYS; k++)
			if (strlen(key_names[k]) == len && !strncmp(p, key_names[k], len))
				break;
		if (k == TOP_NKEYS && len == 6 && !strncmp(p, "symbol", 6))
			k = TOP_KEY_SYM;
		if (k == TOP_NKEYS || n == TOP_MAX_KEYS) {
			*bad = p;
			return -1;
		}
		keys[n++] = (enum top_key)k;
		if (!p[len])
			break;
		p += len + 1;
	}
	/* Lines made under the old keys cannot be split again: start afresh. */
	free_entries(h);
	h->total = h->total_samples = 0;
	memcpy(h->keys, keys, sizeof(keys));
	h->nkeys = n;
	return 0;
}

void top_hist_sort_name(const struct top_hist *h, char *buf, size_t len)
{
	size_t off = 0;
	unsigned int i;

	buf[0] = 0;
	for (i = 0; i < h->nkeys && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? "," : "",
					key_names[h->keys[i]]);
}

static bool has_key(const struct top_hist *h, enum top_key k)
{
	unsigned int i;

	for (i = 0; i < h->nkeys; i++)
		if (h->keys[i] == k)
			return true;
	return false;
}

static const char *intern(struct top_hist *h, const char *s)
{
	const char *c;

	if (!s)
		return NULL;
	c = perfev__intern_str(&h->strings, s);
	if (!c)
		cli_die("out of memory");
	return c;
}

static void add_chain(struct top_hist *h, struct top_entry *e, const struct top_sample *s)
{
	const char *fn[TOP_CHAIN_DEPTH] = {0};
	unsigned int i, c;

	if (!e->chains && !(e->chains = calloc(TOP_MAX_CHAINS, sizeof(*e->chains))))
		cli_die("out of memory");
	for (i = 0; i < s->ncallers; i++)
		fn[i] = intern(h, s->callers[i]);
	for (c = 0; c < e->nchains; c++)
		if (e->chains[c].n == s->ncallers && !memcmp(e->chains[c].fn, fn, sizeof(fn)))
			break;
	if (c == e->nchains) {
		if (c == TOP_MAX_CHAINS) {
			/* Full: the chain takes the place of the lightest when it outweighs it. */
			unsigned int min = 0;

			for (c = 1; c < e->nchains; c++)
				if (e->chains[c].weight < e->chains[min].weight)
					min = c;
			if (e->chains[min].weight > (double)s->period) {
				e->other_chains += (double)s->period;
				return;
			}
			e->other_chains += e->chains[min].weight;
			c = min;
		} else {
			e->nchains++;
		}
		memcpy(e->chains[c].fn, fn, sizeof(fn));
		e->chains[c].n = s->ncallers;
		e->chains[c].weight = 0;
	}
	e->chains[c].weight += (double)s->period;
}

void top_hist_add(struct top_hist *h, const struct top_sample *s)
{
	struct top_entry probe = {0}, *e;
	struct perfev__hashmap_entry *he;
	bool added;

	probe.comm = has_key(h, TOP_KEY_COMM) ? intern(h, s->comm) : NULL;
	probe.pid = has_key(h, TOP_KEY_PID) ? s->pid : 0;
	if (has_key(h, TOP_KEY_DSO))
		probe.dso = intern(h, s->dso);
	if (has_key(h, TOP_KEY_SYM)) {
		probe.sym = intern(h, s->sym);
		probe.addr = s->sym ? 0 : s->addr;
		/* The dso goes with the symbol it names, even when it is no key. */
		if (!probe.dso)
			probe.dso = intern(h, s->dso);
	}
	probe.kernel = s->kernel;
	he = perfev__hashmap_upsert(&h->map, perfev__ptr_key(&probe), &added);
	if (!he)
		cli_die("out of memory");
	if (added) {
		e = malloc(sizeof(*e));
		if (!e)
			cli_die("out of memory");
		*e = probe;
		/* Same fields, same hash: the entry takes the probe's place. */
		he->key = perfev__ptr_key(e);
	}
	e = perfev__key_ptr(he->key);
	e->weight += (double)s->period;
	e->samples += 1;
	if (s->ncallers)
		add_chain(h, e, s);
	h->total += (double)s->period;
	h->total_samples += 1;
	h->samples_ever++;
}

void top_hist_add_hidden(struct top_hist *h, uint64_t period)
{
	h->total += (double)period;
	h->total_samples += 1;
	h->samples_ever++;
}

/* Remove the lines for which @drop says so. */
static void remove_if(struct top_hist *h, bool (*drop)(const struct top_entry *, double),
		      double arg)
{
	struct top_entry **gone = NULL;
	struct perfev__hashmap_entry *he;
	size_t n = 0, cap = 0, i;

	perfev__hashmap_for_each(&h->map, he) {
		struct top_entry *e = perfev__key_ptr(he->key);

		if (drop(e, arg)) {
			cli_grow(&gone, &cap, n + 1, sizeof(*gone));
			gone[n++] = e;
		}
	}
	for (i = 0; i < n; i++) {
		perfev__hashmap_delete(&h->map, perfev__ptr_key(gone[i]), NULL, NULL);
		entry_free(gone[i]);
	}
	free(gone);
	h->nsorted = 0;
}

/* perf drops a line whose period decays to zero: here, under half a sample. */
static bool faded(const struct top_entry *e, double arg)
{
	(void)arg;
	return e->samples < 0.5;
}

void top_hist_decay(struct top_hist *h)
{
	struct perfev__hashmap_entry *he;
	unsigned int c;

	perfev__hashmap_for_each(&h->map, he) {
		struct top_entry *e = perfev__key_ptr(he->key);

		e->weight = e->weight * 7 / 8;
		e->samples = e->samples * 7 / 8;
		e->other_chains = e->other_chains * 7 / 8;
		for (c = 0; c < e->nchains; c++)
			e->chains[c].weight = e->chains[c].weight * 7 / 8;
	}
	h->total = h->total * 7 / 8;
	h->total_samples = h->total_samples * 7 / 8;
	remove_if(h, faded, 0);
}

void top_hist_zero(struct top_hist *h)
{
	free_entries(h);
	h->total = h->total_samples = 0;
}

static bool contains(const char *s, const char *needle)
{
	return s && strstr(s, needle);
}

const char *top_entry_sym(const struct top_entry *e, char *buf, size_t len)
{
	if (e->sym)
		return e->sym;
	snprintf(buf, len, "0x%016" PRIx64, e->addr);
	return buf;
}

bool top_filter_match(const struct top_filter *f, const struct top_entry *e)
{
	const char *t = f->text;

	if (!*t)
		return true;
	if (!strncmp(t, "comm:", 5))
		return contains(e->comm, t + 5);
	if (!strncmp(t, "dso:", 4))
		return contains(e->dso, t + 4);
	if (!strncmp(t, "sym:", 4))
		return contains(e->sym, t + 4);
	return contains(e->comm, t) || contains(e->dso, t) || contains(e->sym, t);
}

static int by_weight(const void *a, const void *b)
{
	const struct top_entry *x = *(struct top_entry *const *)a,
			       *y = *(struct top_entry *const *)b;

	if (x->weight != y->weight)
		return x->weight < y->weight ? 1 : -1;
	/* Equal weights: a stable order between refreshes. */
	if (x->sym != y->sym)
		return x->sym && y->sym ? strcmp(x->sym, y->sym) : x->sym ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

void top_hist_sort(struct top_hist *h, const struct top_filter *f)
{
	struct perfev__hashmap_entry *he;
	size_t n = perfev__hashmap_size(&h->map), i = 0;

	cli_grow(&h->sorted, &h->sorted_cap, n + 1, sizeof(*h->sorted));
	perfev__hashmap_for_each(&h->map, he)
		h->sorted[i++] = perfev__key_ptr(he->key);
	qsort(h->sorted, n, sizeof(*h->sorted), by_weight);
	/* The cap: the lightest lines go (their weight stays in the total). */
	for (; h->max_entries && n > h->max_entries; n--) {
		perfev__hashmap_delete(&h->map, perfev__ptr_key(h->sorted[n - 1]), NULL, NULL);
		entry_free(h->sorted[n - 1]);
	}
	h->nsorted = 0;
	for (i = 0; i < n; i++)
		if (top_filter_match(f, h->sorted[i]))
			h->sorted[h->nsorted++] = h->sorted[i];
}
