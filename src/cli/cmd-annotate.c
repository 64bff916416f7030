// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev annotate: the instructions of each sampled function with the
 * share of its samples each took, as perf annotate --stdio shows them.
 *
 * The samples come from the library's source (time order, threads and
 * maps); each sample's own address is resolved by the machine to its
 * symbol and offset, and summed per (event, object, symbol, offset).
 * The code is then read and disassembled by the library
 * (perfev/disasm.h): a file's from the file the symbolizer reads, the
 * kernel's from /proc/kcore; output/annotate-print.c prints it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "annotate.h"
#include "input.h"
#include "options.h"
#include "perfev-cli.h"

static const char *const annotate_usage[] = {
    "perfev annotate [-i FILE] [--stdio] [-s SYMBOL] [-d DSOS] [-l] [--no-source]\n"
    "                       [-M att|intel] [--asm-raw] [--percent-type TYPE] [SYMBOL...]",
    NULL,
};

struct annotate {
	struct input in;
	struct perfev__intern strs; /* objects and symbol names */
	struct perfev__intern keys; /* (event, object, symbol, start): index in @syms */
	PERFEV__ARRAY(struct ann_sym) syms;
	PERFEV__ARRAY(struct ann_totals) totals; /* per event */
	/* Samples in an object with no symbol there: object -> count. */
	struct perfev__hashmap nosym;
};

struct sym_key {
	uint64_t attr_idx;
	const char *dso, *name;
	uint64_t base;
};

static const char *intern(struct annotate *an, const char *s)
{
	const char *p = perfev__intern_str(&an->strs, s);

	if (!p)
		cli_die("out of memory");
	return p;
}

static struct ann_sym *sym_get(struct annotate *an, const struct perfev_source_event *ev,
			       const struct perfev_frame *f)
{
	struct sym_key k;
	struct ann_sym *a;
	size_t idx;

	memset(&k, 0, sizeof(k));
	k.attr_idx = ev->attr_idx;
	k.dso = intern(an, f->dso);
	k.name = intern(an, f->sym);
	k.base = (f->flags & PERFEV_FRAME_KERNEL ? f->ip : f->addr) - f->sym_off;
	if (perfev__intern_bytes(&an->keys, &k, sizeof(k), &idx) < 0)
		cli_die("out of memory");
	if (idx < an->syms.n)
		return &an->syms.v[idx];
	a = perfev__array_push(&an->syms);
	if (!a)
		cli_die("out of memory");
	a->attr_idx = ev->attr_idx;
	a->event = ev->name;
	a->dso = k.dso;
	a->name = k.name;
	a->base = k.base;
	a->kernel = f->flags & PERFEV_FRAME_KERNEL;
	perfev__hashmap_init(&a->offs, perfev__hash_int_key, NULL, NULL);
	return a;
}

static void add_sample(struct annotate *an, const struct perfev_source_event *ev)
{
	const struct perfev_frame *f;
	struct perfev__hashmap_entry *e;
	struct ann_totals *t;
	struct ann_sym *a;
	struct ann_hit *h;
	size_t n = 0;
	bool added;
	int err;

	while (an->totals.n <= ev->attr_idx)
		if (!perfev__array_push(&an->totals))
			cli_die("out of memory");
	t = &an->totals.v[ev->attr_idx];
	t->period += ev->period;
	t->samples++;
	err = perfev_source_frames(an->in.src, ev, 0, &f, &n);
	if (err == -ENOMEM)
		cli_die("out of memory");
	if (err || !n || !f->dso || (f->flags & PERFEV_FRAME_ANON))
		return;
	if (!f->sym) {
		e = perfev__hashmap_upsert(&an->nosym, perfev__ptr_key(intern(an, f->dso)), &added);
		if (!e)
			cli_die("out of memory");
		e->value++;
		return;
	}
	a = sym_get(an, ev, f);
	a->period += ev->period;
	a->samples++;
	e = perfev__hashmap_upsert(&a->offs, f->sym_off, &added);
	if (!e)
		cli_die("out of memory");
	if (added) {
		e->value = a->hits.n;
		if (!perfev__array_push(&a->hits))
			cli_die("out of memory");
		a->hits.v[a->hits.n - 1].off = f->sym_off;
	}
	h = &a->hits.v[e->value];
	h->period += ev->period;
	h->samples++;
}

static int read_all(struct annotate *an)
{
	const struct perfev_source_event *ev;
	bool failed = false;
	int err, status = 0;

	while ((err = perfev_source_next(an->in.src, &ev)) > 0)
		if (ev->kind == PERFEV_SOURCE_SAMPLE)
			add_sample(an, ev);
	if (err == -ENOMEM)
		cli_die("out of memory");
	if (err < 0)
		status = input_fail(&an->in, err);
	input_warn_end(&an->in, &failed);
	return status || failed;
}

/* Hottest first, per event, as perf walks each event's entries by period. */
static int by_heat(const void *x, const void *y)
{
	const struct ann_sym *a = *(const struct ann_sym *const *)x;
	const struct ann_sym *b = *(const struct ann_sym *const *)y;
	int c;

	if (a->attr_idx != b->attr_idx)
		return a->attr_idx < b->attr_idx ? -1 : 1;
	if (a->period != b->period)
		return a->period < b->period ? 1 : -1;
	if ((c = strcmp(a->dso, b->dso)))
		return c;
	return strcmp(a->name, b->name);
}

/* Whether @s (or, with @basename, its file name) is an item of @l's comma lists. */
static bool in_list(const struct opt_list *l, const char *s, bool basename)
{
	const char *b = strrchr(s, '/');
	int i;

	b = basename && b ? b + 1 : NULL;
	for (i = 0; i < l->n; i++) {
		const char *p = l->items[i];

		while (*p) {
			size_t len = strcspn(p, ",");

			if ((strlen(s) == len && !strncmp(p, s, len)) ||
			    (b && strlen(b) == len && !strncmp(p, b, len)))
				return true;
			p += len + (p[len] == ',');
		}
	}
	return false;
}

/* Samples that fell in objects without a symbol there: why they are not shown. */
static void warn_nosym(struct annotate *an, const struct opt_list *dsos)
{
	const struct perfev__hashmap_entry *e;

	perfev__hashmap_for_each(&an->nosym, e) {
		const char *dso = perfev__key_ptr(e->key);

		if (dsos->n && !in_list(dsos, dso, true))
			continue;
		if (dso[0] == '/' && access(dso, R_OK))
			cli_error("cannot annotate %" PRIu64 " samples in '%s': cannot read it: %s "
				  "(the recording's files must be where it saw them, or use "
				  "--symfs)",
				  e->value, dso, strerror(errno));
		else
			cli_error("cannot annotate %" PRIu64 " samples in '%s': no symbol covers "
				  "their addresses (a stripped file?)",
				  e->value, dso);
	}
}

static int parse_percent_type(const char *s, enum ann_percent *out)
{
	static const struct {
		const char *name;
		enum ann_percent v;
	} types[] = {
	    {"local-period", ANN_LOCAL_PERIOD}, {"global-period", ANN_GLOBAL_PERIOD},
	    {"local-hits", ANN_LOCAL_HITS},	{"global-hits", ANN_GLOBAL_HITS},
	    {"period-local", ANN_LOCAL_PERIOD}, {"period-global", ANN_GLOBAL_PERIOD},
	    {"hits-local", ANN_LOCAL_HITS},	{"hits-global", ANN_GLOBAL_HITS},
	};
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(s, types[i].name)) {
			*out = types[i].v;
			return 0;
		}
	return -EINVAL;
}

int cmd_annotate(int argc, const char **argv)
{
	struct annotate an;
	struct ann_opts o = {.source = true};
	struct opt_list syms = {0}, dsos = {0};
	const char *input = NULL, *style = NULL, *ptype = NULL, *vmlinux = NULL;
	const char *kallsyms = NULL, *symfs = NULL, *archive = NULL;
	bool no_source = false, source = false, stdio_ = false, skip_missing = false;
	bool no_demangle = false;
	struct cli_env env;
	struct ann_sym **order = NULL;
	size_t i, nsel = 0, shown = 0, failed = 0;
	int nargs, status, k;
	const struct option opts[] = {
	    OPT_STR('i', "input", &input, "FILE",
		    "the perf.data file to read (default: perf.data)"),
	    OPT_MULTI('s', "symbol", &syms, "SYMBOL", "annotate this function only (repeatable)"),
	    OPT_MULTI('d', "dsos", &dsos, "DSOS",
		      "only functions in these objects (comma list of paths or file names)"),
	    OPT_FLAG('l', "print-line", &o.print_line,
		     "print the source lines by their share first, hottest first"),
	    OPT_FLAG(0, "source", &source,
		     "interleave source lines with the instructions (the default)"),
	    OPT_FLAG(0, "no-source", &no_source, "instructions only"),
	    OPT_FLAG(0, "stdio", &stdio_, "print as text (the only interface)"),
	    OPT_STR('M', "disassembler-style", &style, "att|intel",
		    "instruction syntax (default: att, as objdump)"),
	    OPT_FLAG(0, "asm-raw", &o.raw, "show each instruction's bytes"),
	    OPT_STR(0, "percent-type", &ptype, "TYPE",
		    "local-period (default), global-period, local-hits or global-hits"),
	    OPT_FLAG('n', "show-nr-samples", &o.show_nr, "a column with the number of samples"),
	    OPT_FLAG('P', "full-paths", &o.full_paths, "show whole paths"),
	    OPT_FLAG('v', "verbose", &o.verbose,
		     "say where each function's code was read from, on standard error"),
	    OPT_FLAG(0, "skip-missing", &skip_missing,
		     "skip functions that cannot be annotated, without a word"),
	    OPT_STR('k', "vmlinux", &vmlinux, "FILE",
		    "not supported: the kernel's code is read from /proc/kcore"),
	    OPT_STR(0, "kallsyms", &kallsyms, "FILE",
		    "the recording's kernel symbols (its machine's /proc/kallsyms)"),
	    OPT_STR(0, "symfs", &symfs, "DIR",
		    "look every file up under DIR (the recording's files copied there)"),
	    OPT_STR(0, "archive", &archive, "ARCHIVE",
		    "the recording's files from ARCHIVE (perfev archive's, or perf's)"),
	    OPT_FLAG(0, "no-demangle", &no_demangle, "show symbol names as the files spell them"),
	    OPT_TERMINATOR,
	};

	nargs = parse_options(argc, argv, opts, annotate_usage, 0);
	if (vmlinux)
		usage_error(annotate_usage, opts,
			    "-k/--vmlinux '%s' is not supported: perfev annotate reads the "
			    "kernel's code from /proc/kcore (run as root)",
			    vmlinux);
	if (no_source && source)
		usage_error(annotate_usage, opts, "--source and --no-source contradict each other");
	o.source = !no_source;
	if (style && !strcmp(style, "intel"))
		o.intel = true;
	else if (style && strcmp(style, "att"))
		usage_error(annotate_usage, opts,
			    "unknown disassembler style '%s' in -M (styles: att, intel)", style);
	if (ptype && parse_percent_type(ptype, &o.percent))
		usage_error(annotate_usage, opts,
			    "unknown percent type '%s' (types: local-period, global-period, "
			    "local-hits, global-hits)",
			    ptype);
	(void)stdio_;
	cli_env_init(&env);
	o.procfs_root = env.procfs_root;
	memset(&an, 0, sizeof(an));
	perfev__intern_init(&an.strs);
	perfev__intern_init(&an.keys);
	perfev__hashmap_init(&an.nosym, perfev__hash_int_key, NULL, NULL);
	{
		struct input_opts io = {.path = input,
					.kallsyms = kallsyms,
					.symfs = symfs,
					.archive = archive,
					.no_demangle = no_demangle};

		if (input_open(&an.in, &io)) {
			status = 1;
			goto out;
		}
	}
	status = read_all(&an);
	order = calloc(an.syms.n + 1, sizeof(*order));
	if (!order)
		cli_die("out of memory");
	for (i = 0; i < an.syms.n; i++)
		order[i] = &an.syms.v[i];
	qsort(order, an.syms.n, sizeof(*order), by_heat);
	/* The functions asked for, kept in order[0..nsel). */
	for (i = 0; i < an.syms.n; i++) {
		struct ann_sym *a = order[i];
		bool named = false;

		for (k = 0; k < nargs; k++)
			named |= !strcmp(argv[k], a->name);
		named |= in_list(&syms, a->name, false);
		if ((nargs || syms.n) && !named)
			continue;
		if (dsos.n && !in_list(&dsos, a->dso, true))
			continue;
		order[nsel++] = a;
	}
	/*
	 * As perf, samples a filter leaves out are not in the event's total
	 * (the global percent types): only the functions chosen count.
	 */
	if (nargs || syms.n || dsos.n) {
		memset(an.totals.v, 0, an.totals.n * sizeof(*an.totals.v));
		for (i = 0; i < nsel; i++) {
			an.totals.v[order[i]->attr_idx].period += order[i]->period;
			an.totals.v[order[i]->attr_idx].samples += order[i]->samples;
		}
	}
	for (i = 0; i < nsel; i++) {
		if (annotate_print(perfev_machine_symbolizer(perfev_source_machine(an.in.src)),
				   order[i], &an.totals.v[order[i]->attr_idx], &o) == 0)
			shown++;
		else
			failed++;
		if (ferror(stdout))
			break;
	}
	/* Functions asked for that no sample fell in. */
	for (k = 0; k < nargs + syms.n; k++) {
		const char *want = k < nargs ? argv[k] : syms.items[k - nargs];
		bool found = false;

		for (i = 0; i < an.syms.n && !found; i++)
			found = !strcmp(an.syms.v[i].name, want);
		if (!found) {
			cli_error("cannot annotate '%s': no sample of '%s' fell in a function of "
				  "that name (perfev report lists the sampled functions)",
				  want, an.in.path);
			status = 1;
		}
	}
	if (!nargs && !syms.n && !skip_missing)
		warn_nosym(&an, &dsos);
	if (!an.syms.n && !an.totals.n && !status) {
		cli_error("nothing to annotate: '%s' holds no samples", an.in.path);
		status = 1;
	} else if (!shown && !status && !(failed && skip_missing)) {
		if (!failed)
			cli_error(
			    "nothing to annotate: no sample of '%s' fell in a function with a "
			    "symbol%s",
			    an.in.path, dsos.n ? " in the objects of -d" : "");
		status = 1;
	} else if (failed && (nargs || syms.n) && !skip_missing) {
		status = 1;
	}
	input_close(&an.in);
out:
	for (i = 0; i < an.syms.n; i++) {
		perfev__hashmap_release(&an.syms.v[i].offs);
		perfev__array_release(&an.syms.v[i].hits);
	}
	perfev__array_release(&an.syms);
	perfev__array_release(&an.totals);
	perfev__intern_release(&an.strs);
	perfev__intern_release(&an.keys);
	perfev__hashmap_release(&an.nosym);
	annotate_print_release();
	opt_list_release(&syms);
	opt_list_release(&dsos);
	cli_env_release(&env);
	free(order);
	return status;
}
