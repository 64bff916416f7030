// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev annotate's output: a symbol's instructions (capstone, through
 * the library's perfev_disasm_x86()) with the share of its samples each
 * took, laid out as perf annotate --stdio lays them out; direct jumps
 * and calls named by their target (objdump's "addr <sym+off>") and the
 * instructions jumps land on marked with where from; the source lines
 * of the DWARF line table interleaved, and with -l the hottest source
 * lines first (perf's "Sorted summary").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../annotate.h"
#include "../perfev-cli.h"

#define CODE_MAX (4U << 20) /* the most of one symbol disassembled */

/* ---- source files, read once each, for the text of their lines ---------------------- */

struct srcfile {
	char *text;		    /* NULL: cannot be read */
	PERFEV__ARRAY(size_t) line; /* offset of each line's start */
};

static struct perfev__intern src_names;
static PERFEV__ARRAY(struct srcfile) src_files;

static const struct srcfile *srcfile_get(const char *path)
{
	struct srcfile *f;
	size_t idx, len = 0, cap = 0, i;
	FILE *in;
	int c;

	if (perfev__intern_bytes(&src_names, path, strlen(path), &idx) < 0)
		cli_die("out of memory");
	if (idx < src_files.n)
		return &src_files.v[idx];
	f = perfev__array_push(&src_files);
	if (!f)
		cli_die("out of memory");
	in = fopen(path, "r");
	if (!in)
		return f;
	/* Source files are small; a cap keeps a device or a huge file from stalling us. */
	while ((c = getc(in)) != EOF && len < (64U << 20)) {
		cli_grow(&f->text, &cap, len + 2, 1);
		f->text[len++] = (char)c;
	}
	fclose(in);
	if (!f->text)
		return f;
	f->text[len] = 0;
	for (i = 0; i <= len; i = (size_t)(strchr(f->text + i, '\n') - f->text) + 1) {
		size_t *p = perfev__array_push(&f->line);

		if (!p)
			cli_die("out of memory");
		*p = i;
		if (!strchr(f->text + i, '\n'))
			break;
	}
	return f;
}

/* Line @line of @path without its newline (*@len bytes), or NULL. */
static const char *src_line(const char *path, uint32_t line, int *len)
{
	const struct srcfile *f = srcfile_get(path);
	const char *p, *nl;

	if (!f->text || !line || line > f->line.n)
		return NULL;
	p = f->text + f->line.v[line - 1];
	nl = strchr(p, '\n');
	*len = nl ? (int)(nl - p) : (int)strlen(p);
	return p;
}

void annotate_print_release(void)
{
	size_t i;

	for (i = 0; i < src_files.n; i++) {
		free(src_files.v[i].text);
		perfev__array_release(&src_files.v[i].line);
	}
	perfev__array_release(&src_files);
	perfev__intern_release(&src_names);
}

/* ---- one symbol -------------------------------------------------------------------- */

/* What one instruction took, and where its source is. */
struct ann_line {
	uint64_t period, samples;
	const char *file; /* NULL: no line */
	uint32_t line;
	uint32_t nfrom; /* jumps that land here */
	size_t from;	/* their first index in the jump list */
};

struct ann_ctx {
	struct perfev_symbolizer *s;
	const struct ann_sym *a;
	const struct ann_opts *o;
	uint64_t start; /* the symbol's address, in the file's (or kernel's) addresses */
	struct perfev_insn *insn;
	size_t n;
	struct ann_line *lines;
	uint64_t *jumps; /* the addresses of the jumps, grouped by where they land */
	uint64_t denom_period, denom_samples, in_period, in_samples;
};

/* The instruction holding address @addr, or n. */
static size_t insn_at(const struct ann_ctx *c, uint64_t addr)
{
	size_t lo = 0, hi = c->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->insn[mid].addr + c->insn[mid].size <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->n && c->insn[lo].addr <= addr ? lo : c->n;
}

static double percent(const struct ann_ctx *c, const struct ann_line *l)
{
	bool hits = c->o->percent == ANN_LOCAL_HITS || c->o->percent == ANN_GLOBAL_HITS;
	uint64_t num = hits ? l->samples : l->period;
	uint64_t den = hits ? c->denom_samples : c->denom_period;

	return den ? 100.0 * (double)num / (double)den : 0.0;
}

static const char *percent_name(enum ann_percent p)
{
	static const char *const names[] = {"local period", "global period", "local hits",
					    "global hits"};
	return names[p];
}

/* "addr <sym+off>" of a direct jump's or call's target, as objdump names it. */
static void target_text(struct ann_ctx *c, uint64_t target, char *buf, size_t len)
{
	struct perfev_sym sy;
	const char *mod = NULL;
	int err;

	if (target >= c->start && target < c->insn[c->n - 1].addr + c->insn[c->n - 1].size) {
		snprintf(buf, len, "%" PRIx64 " <%s+0x%" PRIx64 ">", target, c->a->name,
			 target - c->start);
		return;
	}
	/* @target as a file offset: in the symbol's segment, ELF addresses less (start - base). */
	if (c->a->kernel)
		err = perfev_symbolize_kernel(c->s, target, &sy, &mod);
	else
		err = perfev_symbolize_user(c->s, c->a->dso, 0, c->a->base - c->start, target, &sy);
	if (err || !sy.name)
		snprintf(buf, len, "%" PRIx64, target);
	else if (target == sy.start)
		snprintf(buf, len, "%" PRIx64 " <%s>", target, sy.name);
	else
		snprintf(buf, len, "%" PRIx64 " <%s+0x%" PRIx64 ">", target, sy.name,
			 target - sy.start);
}

/* The instruction of this function that jump @i lands on, or n. */
static size_t landing(const struct ann_ctx *c, size_t i)
{
	size_t k;

	if (!(c->insn[i].flags & PERFEV_INSN_JUMP) || !(c->insn[i].flags & PERFEV_INSN_TARGET))
		return c->n;
	k = insn_at(c, c->insn[i].target);
	return k < c->n && c->insn[k].addr == c->insn[i].target ? k : c->n;
}

/* The instructions' samples, source lines and incoming jumps. */
static void fill_lines(struct ann_ctx *c, const struct ann_totals *tot)
{
	const struct ann_sym *a = c->a;
	size_t i, k, *fill;

	c->lines = calloc(c->n, sizeof(*c->lines));
	if (!c->lines)
		cli_die("out of memory");
	for (i = 0; i < a->hits.n; i++) {
		const struct ann_hit *h = &a->hits.v[i];
		size_t at = insn_at(c, c->start + h->off);

		/* As perf, samples outside the code read do not count. */
		if (at == c->n)
			continue;
		c->lines[at].period += h->period;
		c->lines[at].samples += h->samples;
		c->in_period += h->period;
		c->in_samples += h->samples;
	}
	if (c->o->percent == ANN_GLOBAL_PERIOD || c->o->percent == ANN_GLOBAL_HITS) {
		c->denom_period = tot->period;
		c->denom_samples = tot->samples;
	} else {
		c->denom_period = c->in_period;
		c->denom_samples = c->in_samples;
	}
	/* Incoming jumps: counted, then laid out per target. */
	for (i = 0; i < c->n; i++)
		if ((k = landing(c, i)) < c->n)
			c->lines[k].nfrom++;
	fill = calloc(c->n + 1, sizeof(*fill));
	c->jumps = calloc(c->n + 1, sizeof(*c->jumps));
	if (!fill || !c->jumps)
		cli_die("out of memory");
	for (i = 0; i < c->n; i++) {
		fill[i + 1] = fill[i] + c->lines[i].nfrom;
		c->lines[i].from = fill[i];
	}
	for (i = 0; i < c->n; i++)
		if ((k = landing(c, i)) < c->n)
			c->jumps[fill[k]++] = c->insn[i].addr;
	free(fill);
	/* Source lines: files only (the kernel's DWARF is in a vmlinux not read here). */
	if (a->kernel || (!c->o->source && !c->o->print_line))
		return;
	for (i = 0; i < c->n; i++) {
		struct perfev_srcline sl[8];
		int nl = perfev_symbolize_lines(c->s, a->dso, 0, 0,
						a->base + (c->insn[i].addr - c->start), sl, 8);

		if (nl > 0 && sl[0].file && sl[0].line) {
			c->lines[i].file = sl[0].file;
			c->lines[i].line = sl[0].line;
		}
	}
}

struct summary_line {
	const char *file;
	uint32_t line;
	double pct;
};

static int by_pct(const void *x, const void *y)
{
	const struct summary_line *a = x, *b = y;

	if (a->pct != b->pct)
		return a->pct < b->pct ? 1 : -1;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return strcmp(a->file, b->file);
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/* -l: the source lines by their share, hottest first, as perf's sorted summary. */
static void print_summary(struct ann_ctx *c, const char *shown)
{
	struct summary_line *v = calloc(c->n + 1, sizeof(*v));
	size_t n = 0, i, j;

	if (!v)
		cli_die("out of memory");
	for (i = 0; i < c->n; i++) {
		double p = percent(c, &c->lines[i]);

		if (!c->lines[i].file || p <= 0)
			continue;
		for (j = 0; j < n; j++)
			if (v[j].line == c->lines[i].line && !strcmp(v[j].file, c->lines[i].file))
				break;
		if (j == n)
			v[n++] = (struct summary_line){c->lines[i].file, c->lines[i].line, 0};
		v[j].pct += p;
	}
	qsort(v, n, sizeof(*v), by_pct);
	printf("\nSorted summary for file %s\n", shown);
	printf("----------------------------------------------\n\n");
	if (!n)
		printf("   (no source line has samples: the file has no DWARF line table)\n");
	for (i = 0; i < n; i++)
		printf(" %7.2f %s:%" PRIu32 "\n", v[i].pct,
		       c->o->full_paths ? v[i].file : base_name(v[i].file), v[i].line);
	free(v);
}

static void print_lines(struct ann_ctx *c)
{
	const char *last_file = NULL;
	uint32_t last_line = 0;
	int width = 0, rawlen = 0;
	size_t i, k;
	char buf[64];

	width = snprintf(buf, sizeof(buf), "%" PRIx64, c->insn[c->n - 1].addr);
	for (i = 0; i < c->n; i++)
		if (c->insn[i].size * 3 > rawlen)
			rawlen = c->insn[i].size * 3;
	printf("%s:\n", c->o->show_nr ? "                 " : "         ");
	for (i = 0; i < c->n; i++) {
		const struct perfev_insn *in = &c->insn[i];
		const struct ann_line *l = &c->lines[i];
		const char *gutter = c->o->show_nr ? "                 :" : "         :";
		char ops[256];

		if (c->o->source && l->file && (l->line != last_line || l->file != last_file)) {
			const char *text;
			int len;

			printf("%s   %s:%" PRIu32 "\n", gutter,
			       c->o->full_paths ? l->file : base_name(l->file), l->line);
			text = src_line(l->file, l->line, &len);
			if (text)
				printf("%s   %-6" PRIu32 " %.*s\n", gutter, l->line, len, text);
			last_file = l->file;
			last_line = l->line;
		}
		if (c->o->show_nr)
			printf(" %7.2f %7" PRIu64 " :", percent(c, l), l->samples);
		else
			printf(" %7.2f :", percent(c, l));
		printf("   %*" PRIx64 ":  ", width, in->addr);
		if (c->o->raw) {
			int w = 0;

			for (k = 0; k < in->size; k++)
				w += printf("%02x ", in->bytes[k]);
			printf("%*s ", rawlen - w, "");
		}
		if (in->flags & PERFEV_INSN_TARGET)
			target_text(c, in->target, ops, sizeof(ops));
		else
			snprintf(ops, sizeof(ops), "%s", in->operands);
		if (ops[0])
			printf("%-6s %s", in->mnemonic, ops);
		else
			printf("%s", in->mnemonic);
		/* Where the jumps that land here come from. */
		for (k = 0; k < l->nfrom; k++)
			printf(k ? " %" PRIx64 : "   <- %" PRIx64, c->jumps[l->from + k]);
		putchar('\n');
	}
}

static int cannot(const struct ann_sym *a, const char *what, int err, const char *hint)
{
	cli_error("cannot annotate '%s' in '%s': %s: %s%s", a->name, a->dso, what, strerror(-err),
		  hint ? hint : "");
	return err;
}

int annotate_print(struct perfev_symbolizer *s, const struct ann_sym *a,
		   const struct ann_totals *tot, const struct ann_opts *o)
{
	struct ann_ctx c = {.s = s, .a = a, .o = o};
	struct perfev_sym sy;
	const char *mod = NULL, *shown;
	uint64_t size, maxoff = 0;
	unsigned char *code;
	size_t i;
	int err, got, hdr;

	if (a->kernel)
		err = perfev_symbolize_kernel(s, a->base, &sy, &mod);
	else
		err = perfev_symbolize_user(s, a->dso, 0, 0, a->base, &sy);
	if (err)
		return cannot(a, "cannot find the symbol again", err, NULL);
	c.start = sy.start;
	for (i = 0; i < a->hits.n; i++)
		if (a->hits.v[i].off > maxoff)
			maxoff = a->hits.v[i].off;
	/* A symbol without a size (the last of a table): up to past its last sample. */
	size = sy.size ? sy.size : maxoff + 16;
	if (size > CODE_MAX)
		size = CODE_MAX;
	code = malloc(size);
	if (!code)
		cli_die("out of memory");
	if (a->kernel)
		got = perfev_kcore_read(o->procfs_root, sy.start, code, size);
	else
		got = perfev_symbolize_code(s, a->dso, 0, 0, a->base, code, size);
	if (got < 0) {
		free(code);
		if (a->kernel && (got == -EACCES || got == -EPERM))
			return cannot(a, "cannot read /proc/kcore", got,
				      " (the kernel's code is read from /proc/kcore: run as root)");
		if (a->kernel)
			return cannot(a, "cannot read the kernel's code from /proc/kcore", got,
				      got == -ENOENT   ? " (this kernel has no /proc/kcore)"
				      : got == -ERANGE ? " (kcore does not map that address)"
						       : NULL);
		return cannot(a, "cannot read its code", got, NULL);
	}
	if (!got) {
		free(code);
		return cannot(a, "cannot read its code", -ENODATA, NULL);
	}
	err = perfev_disasm_x86(code, (size_t)got, sy.start, o->intel ? PERFEV_DISASM_INTEL : 0,
				&c.insn, &c.n);
	free(code);
	if (err == -ENOMEM)
		cli_die("out of memory");
	if (err == -ENOENT || err == -ENOTSUP)
		cli_die("cannot disassemble: capstone's shared library %s (install the Debian "
			"package libcapstone4, which perfev was built against)",
			err == -ENOENT ? "is not installed" : "is of another version");
	if (err || !c.n)
		return cannot(a, "cannot disassemble it", err ? err : -ENODATA, NULL);
	fill_lines(&c, tot);
	if (o->verbose) {
		if (a->kernel)
			fprintf(stderr,
				"%s: %s: %#" PRIx64 "-%#" PRIx64 " of %s%s%s, read from %s/kcore, "
				"%zu instructions\n",
				cli_prog, a->name, sy.start, sy.start + (uint64_t)got, a->dso,
				mod ? " module " : "", mod ? mod : "",
				o->procfs_root ? o->procfs_root : "/proc", c.n);
		else
			fprintf(stderr,
				"%s: %s: %#" PRIx64 "-%#" PRIx64 " of %s (file offset %#" PRIx64
				"), %zu instructions\n",
				cli_prog, a->name, sy.start, sy.start + (uint64_t)got, a->dso,
				a->base, c.n);
	}
	shown = a->kernel || o->full_paths ? a->dso : base_name(a->dso);
	if (o->print_line)
		print_summary(&c, a->dso);
	hdr = printf(" Percent %s|      Source code & Disassembly of %s for %s (%" PRIu64
		     " samples, percent: %s)\n",
		     o->show_nr ? "Samples  " : "", shown, a->event, c.in_samples,
		     percent_name(o->percent));
	for (i = 1; (int)i < hdr; i++)
		putchar('-');
	printf("\n%s:   %0*" PRIx64 " <%s>:\n", o->show_nr ? "                 " : "         ", 16,
	       sy.start, a->name);
	print_lines(&c);
	putchar('\n');
	perfev_disasm_free(c.insn);
	free(c.lines);
	free(c.jumps);
	return 0;
}
