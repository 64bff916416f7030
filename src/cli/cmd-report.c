// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev report: the samples of a perf.data file summed by command, thread,
 * shared object and symbol, as perf report --stdio prints them.  The file
 * is read by the perfev script machinery (records in time order, threads
 * and maps rebuilt); each sample's address is symbolized by the library's
 * symbolizer (kallsyms for the kernel, ELF symbols through elfutils for
 * user space).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/perfev.h>
#include <perfev/symbols.h>
#include "options.h"
#include "perfev-cli.h"
#include "script.h"

static const char *const report_usage[] = {
    "perfev report [<options>]",
    NULL,
};

enum sort_key { SK_COMM, SK_PID, SK_DSO, SK_SYM, SK_MAX };

static const struct {
	const char *name, *header;
} sort_keys[SK_MAX] = {
    [SK_COMM] = {"comm", "Command"},
    [SK_PID] = {"pid", "Pid:Command"},
    [SK_DSO] = {"dso", "Shared Object"},
    [SK_SYM] = {"sym", "Symbol"},
};

/* One line of the report: what the sort keys name, and its sums. */
struct hent {
	size_t ev;
	const char *comm; /* interned */
	uint32_t tid;
	const char *dso; /* interned; the short name perf shows */
	char level;	 /* '.' user, 'k' kernel, 'H' hypervisor, 'g'/'u' guest */
	const char *sym; /* interned, or NULL: @addr is shown */
	uint64_t addr;
	uint64_t period, samples;
	char *key;
};

/* A filter's names; @on when the option was given. */
struct names {
	char **v;
	size_t n;
	bool on;
};

struct rev {
	uint64_t samples, period;
	char *name;
};

struct report {
	enum sort_key keys[SK_MAX];
	int nkeys;
	bool want[SK_MAX];
	double percent_limit;
	bool show_nr;
	struct opt_list comms, dsos, syms, tids;
	struct names fcomm, fdso, fsym; /* the filters, split once */
	uint32_t *ftid;
	size_t nftid;

	struct perfev_symbolizer *symz;
	struct hent **tab; /* open addressing by key */
	size_t n, cap;
	struct rev *ev; /* per event */
	size_t nev;
	uint64_t lost_samples;

	char **strs; /* interned strings, open addressing */
	size_t nstrs, capstrs;
};

static uint64_t hash(const char *p, size_t n)
{
	uint64_t h = 1469598103934665603ULL;

	while (n--)
		h = (h ^ (unsigned char)*p++) * 1099511628211ULL;
	return h;
}

/*
 * Double an open-addressing table of pointers (@first slots when empty),
 * placing each element again by the string @key gives for it.
 */
static void grow(void ***tab, size_t *cap, size_t first, const char *(*key)(const void *))
{
	void **old = *tab;
	size_t oldcap = *cap, i;

	*cap = oldcap ? oldcap * 2 : first;
	*tab = calloc(*cap, sizeof(**tab));
	if (!*tab)
		cli_die("out of memory");
	for (i = 0; i < oldcap; i++) {
		const char *k;
		size_t j;

		if (!old[i])
			continue;
		k = key(old[i]);
		j = (size_t)hash(k, strlen(k)) & (*cap - 1);
		while ((*tab)[j])
			j = (j + 1) & (*cap - 1);
		(*tab)[j] = old[i];
	}
	free(old);
}

static const char *str_key(const void *p)
{
	return p;
}

static const char *hent_key(const void *p)
{
	return ((const struct hent *)p)->key;
}

static const char *intern(struct report *r, const char *s)
{
	size_t j;

	if ((r->nstrs + 1) * 2 > r->capstrs)
		grow((void ***)&r->strs, &r->capstrs, 256, str_key);
	j = (size_t)hash(s, strlen(s)) & (r->capstrs - 1);
	while (r->strs[j] && strcmp(r->strs[j], s))
		j = (j + 1) & (r->capstrs - 1);
	if (!r->strs[j]) {
		r->strs[j] = strdup(s);
		if (!r->strs[j])
			cli_die("out of memory");
		r->nstrs++;
	}
	return r->strs[j];
}

/* Add @period to the entry @e stands for (only the sort keys' fields count). */
static void add(struct report *r, const struct hent *e, uint64_t period)
{
	char key[4096];
	size_t j;
	struct hent *h;

	snprintf(key, sizeof(key), "%zu\x1f%s\x1f%" PRIu32 "\x1f%s\x1f%c\x1f%s\x1f%" PRIx64, e->ev,
		 r->want[SK_COMM] || r->want[SK_PID] ? e->comm : "", r->want[SK_PID] ? e->tid : 0,
		 r->want[SK_DSO] ? e->dso : "", r->want[SK_SYM] ? e->level : ' ',
		 r->want[SK_SYM] && e->sym ? e->sym : "", r->want[SK_SYM] && !e->sym ? e->addr : 0);
	if ((r->n + 1) * 2 > r->cap)
		grow((void ***)&r->tab, &r->cap, 1024, hent_key);
	j = (size_t)hash(key, strlen(key)) & (r->cap - 1);
	while (r->tab[j] && strcmp(r->tab[j]->key, key))
		j = (j + 1) & (r->cap - 1);
	h = r->tab[j];
	if (!h) {
		h = malloc(sizeof(*h));
		if (!h)
			cli_die("out of memory");
		*h = *e;
		h->period = h->samples = 0;
		h->key = strdup(key);
		if (!h->key)
			cli_die("out of memory");
		r->tab[j] = h;
		r->n++;
	}
	h->period += period;
	h->samples++;
}

/* Split the comma lists of a repeatable option into names. */
static void split(const struct opt_list *l, struct names *out)
{
	int i;

	out->on = l->n > 0;
	for (i = 0; i < l->n; i++) {
		const char *p = l->items[i];

		while (*p) {
			size_t len = strcspn(p, ",");
			char **v;

			if (len) {
				v = realloc(out->v, (out->n + 1) * sizeof(*v));
				if (!v || !(v[out->n] = strndup(p, len)))
					cli_die("out of memory");
				out->v = v;
				out->n++;
			}
			p += len;
			if (*p == ',')
				p++;
		}
	}
}

static bool listed(const struct names *f, const char *s)
{
	size_t i;

	if (!f->on)
		return true;
	for (i = 0; s && i < f->n; i++)
		if (!strcmp(f->v[i], s))
			return true;
	return false;
}

static bool tid_listed(const struct report *r, uint32_t tid)
{
	size_t i;

	for (i = 0; i < r->nftid; i++)
		if (r->ftid[i] == tid)
			return true;
	return !r->tids.n;
}

static void names_release(struct names *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->v[i]);
	free(f->v);
}

/* perf's short name of a dso: the file's base name; [kernel.kallsyms] and the like as they are. */
static const char *short_dso(const char *dso)
{
	const char *b;

	if (dso[0] == '[')
		return dso;
	b = strrchr(dso, '/');
	return b && b[1] ? b + 1 : dso;
}

static char level_of(unsigned int cpumode)
{
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:
		return 'k';
	case PERF_RECORD_MISC_HYPERVISOR:
		return 'H';
	case PERF_RECORD_MISC_GUEST_KERNEL:
		return 'g';
	case PERF_RECORD_MISC_GUEST_USER:
		return 'u';
	default:
		return '.';
	}
}

static void on_sample(struct script *s, const struct script_rec *sr,
		      const struct perfev_record *rec)
{
	struct report *r = s->sink_ctx;
	const struct perfev_sample *smp;
	const struct script_map *map;
	struct perfev_sym sym;
	unsigned int cpumode;
	struct hent e = {0};
	uint64_t period;
	char cbuf[64];
	int err;

	if (rec->type == PERF_RECORD_LOST_SAMPLES) {
		r->lost_samples += rec->u.lost_samples.lost;
		return;
	}
	if (rec->type != PERF_RECORD_SAMPLE || sr->attr_idx == SIZE_MAX)
		return;
	smp = &rec->u.sample;
	if (sr->attr_idx >= r->nev) {
		struct rev *n = realloc(r->ev, (sr->attr_idx + 1) * sizeof(*n));

		if (!n)
			cli_die("out of memory");
		memset(n + r->nev, 0, (sr->attr_idx + 1 - r->nev) * sizeof(*n));
		r->ev = n;
		r->nev = sr->attr_idx + 1;
	}
	if (!r->ev[sr->attr_idx].name &&
	    !(r->ev[sr->attr_idx].name = strdup(script_event_name(s, sr->attr_idx))))
		cli_die("out of memory");
	period = (smp->present & PERF_SAMPLE_PERIOD) ? smp->period
		 : sr->attr && !sr->attr->attr->freq ? sr->attr->attr->sample_period
						     : 1;
	cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	e.ev = sr->attr_idx;
	e.tid = smp->tid;
	e.comm = intern(r, script_machine_comm(&s->m, smp->tid, cbuf, sizeof(cbuf)));
	e.level = level_of(cpumode);
	map = script_machine_find(&s->m, smp->pid, cpumode, smp->ip);
	e.dso = intern(r, map ? short_dso(map->dso) : "[unknown]");
	e.addr = map ? script_map_ip(map, smp->ip) : smp->ip;
	if (map && e.level == 'k') {
		const char *mod;

		e.addr = smp->ip;
		if (!perfev_symbolize_kernel(r->symz, smp->ip, &sym, &mod) && sym.name)
			e.sym = intern(r, sym.name);
	} else if (map && !map->identity && map->dso[0] == '/') {
		err =
		    perfev_symbolize_user(r->symz, map->dso, map->start, map->pgoff, smp->ip, &sym);
		if (!err && sym.name)
			e.sym = intern(r, sym.name);
	}
	r->ev[e.ev].samples++;
	r->ev[e.ev].period += period;
	if (!listed(&r->fcomm, e.comm) || !listed(&r->fdso, e.dso) || !listed(&r->fsym, e.sym) ||
	    !tid_listed(r, e.tid))
		return;
	add(r, &e, period);
}

/* The text of one column of @h. */
static void column(const struct report *r, const struct hent *h, enum sort_key k, char *buf,
		   size_t len)
{
	(void)r;
	switch (k) {
	case SK_COMM:
		snprintf(buf, len, "%s", h->comm);
		break;
	case SK_PID:
		snprintf(buf, len, "%7" PRIu32 ":%s", h->tid, h->comm);
		break;
	case SK_DSO:
		snprintf(buf, len, "%s", h->dso);
		break;
	case SK_SYM:
		if (h->sym)
			snprintf(buf, len, "[%c] %s", h->level, h->sym);
		else
			snprintf(buf, len, "[%c] %#018" PRIx64, h->level, h->addr);
		break;
	default:
		buf[0] = '\0';
	}
}

static int cmp_hent(const void *a, const void *b)
{
	const struct hent *x = *(const struct hent *const *)a, *y = *(const struct hent *const *)b;

	if (x->ev != y->ev)
		return x->ev < y->ev ? -1 : 1;
	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* perf's sample count: 1234 as "1K", with a unit letter or a space. */
static void print_samples(uint64_t n)
{
	const char *units = " KMG";
	int u = 0;

	while (n > 1000 && u < 3) {
		n /= 1000;
		u++;
	}
	printf("# Samples: %" PRIu64 "%c of event '", n, units[u]);
}

static void print_event(struct report *r, size_t ev, struct hent **v, size_t nv)
{
	size_t width[SK_MAX] = {0}, i, nshown = 0;
	char buf[4096];
	int k;
	const double total = (double)r->ev[ev].period;

	for (k = 0; k < r->nkeys; k++)
		width[k] = strlen(sort_keys[r->keys[k]].header);
	/* As perf, the widths fit every line, those under --percent-limit too. */
	for (i = 0; i < nv; i++) {
		for (k = 0; k < r->nkeys; k++) {
			column(r, v[i], r->keys[k], buf, sizeof(buf));
			if (strlen(buf) > width[k])
				width[k] = strlen(buf);
		}
	}
	print_samples(r->ev[ev].samples);
	printf("%s'\n# Event count (approx.): %" PRIu64 "\n#\n", r->ev[ev].name, r->ev[ev].period);
	printf("# Overhead");
	if (r->show_nr)
		printf("       Samples");
	for (k = 0; k < r->nkeys; k++)
		printf(r->keys[k] == SK_PID ? "  %*s" : "  %-*s", (int)width[k],
		       sort_keys[r->keys[k]].header);
	printf("\n# ........");
	if (r->show_nr)
		printf("  ............");
	for (k = 0; k < r->nkeys; k++) {
		printf("  ");
		for (i = 0; i < width[k]; i++)
			putchar('.');
	}
	printf("\n#\n");
	for (i = 0; i < nv; i++) {
		double pct = total > 0 ? 100.0 * (double)v[i]->period / total : 0;

		if (pct < r->percent_limit)
			continue;
		nshown++;
		printf("  %7.2f%%", pct);
		if (r->show_nr)
			printf("  %12" PRIu64, v[i]->samples);
		for (k = 0; k < r->nkeys; k++) {
			column(r, v[i], r->keys[k], buf, sizeof(buf));
			/* perf pads every column but a symbol at the end. */
			if (k == r->nkeys - 1 && r->keys[k] == SK_SYM)
				printf("  %s", buf);
			else
				printf("  %-*s", (int)width[k], buf);
		}
		putchar('\n');
	}
	printf("\n\n");
}

static void print_report(struct report *r)
{
	struct hent **v;
	size_t i, j, nv = 0, ev;

	v = malloc((r->n ? r->n : 1) * sizeof(*v));
	if (!v)
		cli_die("out of memory");
	for (i = 0; i < r->cap; i++)
		if (r->tab[i])
			v[nv++] = r->tab[i];
	qsort(v, nv, sizeof(*v), cmp_hent);
	printf("# To display the perf.data header info, please use --header/--header-only "
	       "options.\n#\n#\n# Total Lost Samples: %" PRIu64 "\n#\n",
	       r->lost_samples);
	for (ev = 0, i = 0; ev < r->nev; ev++) {
		if (!r->ev[ev].samples)
			continue;
		for (j = i; j < nv && v[j]->ev == ev; j++)
			;
		print_event(r, ev, v + i, j - i);
		i = j;
	}
	free(v);
}

static void parse_sort(struct report *r, const char *spec, const struct option *opts)
{
	const char *p = spec;

	r->nkeys = 0;
	memset(r->want, 0, sizeof(r->want));
	while (*p) {
		size_t len = strcspn(p, ","), k;

		for (k = 0; k < SK_MAX; k++)
			if (strlen(sort_keys[k].name) == len && !strncmp(p, sort_keys[k].name, len))
				break;
		if (k == SK_MAX)
			usage_error(report_usage, opts,
				    "unknown sort key '%.*s' (known: comm, pid, dso, sym)",
				    (int)len, p);
		if (!r->want[k] && r->nkeys < SK_MAX) {
			r->keys[r->nkeys++] = (enum sort_key)k;
			r->want[k] = true;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	if (!r->nkeys)
		usage_error(report_usage, opts, "--sort needs at least one key");
}

/* --tid: thread ids, each a number. */
static void parse_tids(struct report *r, const struct option *opts)
{
	struct names t = {0};
	size_t i;

	split(&r->tids, &t);
	r->ftid = calloc(t.n ? t.n : 1, sizeof(*r->ftid));
	if (!r->ftid)
		cli_die("out of memory");
	for (i = 0; i < t.n; i++) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(t.v[i], &end, 10);
		if (errno || *end || end == t.v[i] || v > UINT32_MAX || t.v[i][0] == '-')
			usage_error(report_usage, opts, "--tid takes thread ids, not '%s'", t.v[i]);
		r->ftid[r->nftid++] = (uint32_t)v;
	}
	names_release(&t);
}

static void report_release(struct report *r)
{
	size_t i;

	for (i = 0; i < r->cap; i++) {
		if (r->tab[i]) {
			free(r->tab[i]->key);
			free(r->tab[i]);
		}
	}
	free(r->tab);
	for (i = 0; i < r->capstrs; i++)
		free(r->strs[i]);
	free(r->strs);
	for (i = 0; i < r->nev; i++)
		free(r->ev[i].name);
	free(r->ev);
	perfev_symbolizer_free(r->symz);
	names_release(&r->fcomm);
	names_release(&r->fdso);
	names_release(&r->fsym);
	free(r->ftid);
	opt_list_release(&r->comms);
	opt_list_release(&r->dsos);
	opt_list_release(&r->syms);
	opt_list_release(&r->tids);
}

int cmd_report(int argc, const char **argv)
{
	struct report r;
	struct script s;
	const char *sort = "comm,dso,sym", *limit = NULL;
	bool stdio = false, no_children = false;
	int status, err;

	memset(&r, 0, sizeof(r));
	memset(&s, 0, sizeof(s));
	{
		const struct option opts[] = {
		    OPT_STR('i', "input", &s.input, "FILE",
			    "the perf.data file to read (default: perf.data; -: standard input)"),
		    OPT_FLAG(0, "stdio", &stdio, "text output (the only one for now)"),
		    OPT_STR('s', "sort", &sort, "KEYS",
			    "what to sum samples by: comm, pid, dso, sym (default comm,dso,sym)"),
		    OPT_STR(0, "percent-limit", &limit, "PERCENT",
			    "hide the lines below this percentage"),
		    OPT_FLAG('n', "show-nr-samples", &r.show_nr, "a column with the sample count"),
		    OPT_MULTI(0, "comm", &r.comms, "COMMS", "only these commands (comma list)"),
		    OPT_MULTI('d', "dsos", &r.dsos, "DSOS",
			      "only these shared objects (comma list)"),
		    OPT_MULTI('S', "symbols", &r.syms, "SYMS", "only these symbols (comma list)"),
		    OPT_MULTI(0, "tid", &r.tids, "TIDS", "only these threads (comma list)"),
		    OPT_FLAG(0, "no-children", &no_children,
			     "self overhead only (the only mode for now)"),
		    OPT_TERMINATOR,
		};

		if (parse_options(argc, argv, opts, report_usage, 0))
			usage_error(report_usage, opts, "unexpected argument '%s'", argv[0]);
		parse_sort(&r, sort, opts);
		split(&r.comms, &r.fcomm);
		split(&r.dsos, &r.fdso);
		split(&r.syms, &r.fsym);
		parse_tids(&r, opts);
		if (limit) {
			char *end;

			r.percent_limit = strtod(limit, &end);
			if (end == limit || *end || r.percent_limit < 0 || r.percent_limit > 100)
				usage_error(report_usage, opts,
					    "--percent-limit takes a percentage from 0 to 100, not "
					    "'%s'",
					    limit);
		}
	}
	err = perfev_symbolizer_new(NULL, &r.symz);
	if (err)
		cli_die("cannot set up symbols: %s", perfev_strerror(err));
	s.sink = on_sample;
	s.sink_ctx = &r;
	/* A file cut short still gets the report of what it has, and a failure status. */
	status = script_read_file(&s);
	if (!status || r.nev)
		print_report(&r);
	report_release(&r);
	return status;
}
