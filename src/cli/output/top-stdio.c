// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev top's text: the status line, the column header and each line
 * of the table, shared by the snapshots of --stdio and the full-screen
 * interface; the snapshot itself.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "top.h"

#define NAME_MAX_WIDTH 32

/* A path's last part, as perf top names objects ("[kernel.kallsyms]" as it is). */
static const char *short_name(const char *s)
{
	const char *slash = s ? strrchr(s, '/') : NULL;

	return s && s[0] != '[' && slash && slash[1] ? slash + 1 : s;
}

void top_columns(const struct top_hist *h, size_t first, size_t n, struct top_columns *c)
{
	size_t i;

	c->comm = 7;
	c->dso = 13;
	for (i = first; i < first + n && i < h->nsorted; i++) {
		const struct top_entry *e = h->sorted[i];
		size_t l;

		if (e->comm && (l = strlen(e->comm)) > c->comm)
			c->comm = l;
		if (e->dso && (l = strlen(short_name(e->dso))) > c->dso)
			c->dso = l;
	}
	if (c->comm > NAME_MAX_WIDTH)
		c->comm = NAME_MAX_WIDTH;
	if (c->dso > NAME_MAX_WIDTH)
		c->dso = NAME_MAX_WIDTH;
}

/* A name cut to @w columns from the left (paths keep their ends). */
static const char *fit(const char *s, size_t w)
{
	size_t l;

	if (!s)
		return "[unknown]";
	l = strlen(s);
	return l > w ? s + (l - w) : s;
}

int top_format_status(char *buf, size_t len, const struct top_hist *h, const struct top_status *st)
{
	char sort[64];
	char rate[48] = "";

	top_hist_sort_name(h, sort, sizeof(sort));
	if (st->freq)
		snprintf(rate, sizeof(rate), " %" PRIu64 " Hz", st->freq);
	return snprintf(buf, len,
			"perfev top: #%u%s  %.0f samples/s  kernel %.1f%%  lost %" PRIu64
			"/%" PRIu64 "  throttled %" PRIu64 "  sort %s%s%s%s%s  [%s%s]  (%s)",
			st->refreshes, st->paused ? " [paused]" : "", st->rate, st->kernel_share,
			st->lost, st->lost_samples, st->throttled, sort,
			st->filter && st->filter->text[0] ? "  filter " : "",
			st->filter ? st->filter->text : "", st->hide_kernel ? "  -K" : "",
			st->hide_user ? "  -U" : "", st->event, rate, st->target);
}

int top_format_header(char *buf, size_t len, const struct top_hist *h, const struct top_status *st,
		      const struct top_columns *c)
{
	size_t off = (size_t)snprintf(buf, len, "%9s", "Overhead");
	unsigned int i;

	if (st->show_samples && off < len)
		off += (size_t)snprintf(buf + off, len - off, "  %9s", "Samples");
	for (i = 0; i < h->nkeys && off < len; i++) {
		switch (h->keys[i]) {
		case TOP_KEY_COMM:
			off += (size_t)snprintf(buf + off, len - off, "  %-*s", (int)c->comm,
						"Command");
			break;
		case TOP_KEY_PID:
			off += (size_t)snprintf(buf + off, len - off, "  %7s", "Pid");
			break;
		case TOP_KEY_DSO:
			off += (size_t)snprintf(buf + off, len - off, "  %-*s", (int)c->dso,
						"Shared Object");
			break;
		default:
			off += (size_t)snprintf(buf + off, len - off, "  %s", "Symbol");
			break;
		}
	}
	return (int)off;
}

int top_format_line(char *buf, size_t len, const struct top_hist *h, const struct top_status *st,
		    const struct top_columns *c, const struct top_entry *e)
{
	double share = h->total > 0 ? 100.0 * e->weight / h->total : 0;
	size_t off = (size_t)snprintf(buf, len, "%8.2f%%", share);
	char addr[32];
	unsigned int i;

	if (st->show_samples && off < len)
		off += (size_t)snprintf(buf + off, len - off, "  %9.0f", e->samples);
	for (i = 0; i < h->nkeys && off < len; i++) {
		switch (h->keys[i]) {
		case TOP_KEY_COMM:
			off += (size_t)snprintf(buf + off, len - off, "  %-*s", (int)c->comm,
						fit(e->comm, c->comm));
			break;
		case TOP_KEY_PID:
			off += (size_t)snprintf(buf + off, len - off, "  %7" PRIu32, e->pid);
			break;
		case TOP_KEY_DSO:
			off += (size_t)snprintf(buf + off, len - off, "  %-*s", (int)c->dso,
						fit(short_name(e->dso), c->dso));
			break;
		default:
			off += (size_t)snprintf(buf + off, len - off, "  [%c] %s",
						e->kernel ? 'k' : '.',
						top_entry_sym(e, addr, sizeof(addr)));
			break;
		}
	}
	return (int)off;
}

static int by_chain_weight(const void *a, const void *b)
{
	const struct top_chain *x = *(struct top_chain *const *)a,
			       *y = *(struct top_chain *const *)b;

	return x->weight < y->weight ? 1 : x->weight > y->weight ? -1 : 0;
}

size_t top_chains_sorted(const struct top_entry *e, const struct top_chain **out)
{
	size_t i;

	for (i = 0; i < e->nchains; i++)
		out[i] = &e->chains[i];
	qsort(out, e->nchains, sizeof(*out), by_chain_weight);
	return e->nchains;
}

int top_format_chain(char *buf, size_t len, const struct top_entry *e, const struct top_chain *ch)
{
	double share = e->weight > 0 ? 100.0 * ch->weight / e->weight : 0;
	size_t off = (size_t)snprintf(buf, len, "          --%.1f%%--", share);
	unsigned int i;

	if (!ch->n && off < len)
		off += (size_t)snprintf(buf + off, len - off, " (no callers)");
	for (i = 0; i < ch->n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " <- " : " ",
					ch->fn[i] ? ch->fn[i] : "[unknown]");
	return (int)off;
}

void top_print_stdio(FILE *f, struct top_hist *h, const struct top_status *st, int width)
{
	size_t n = st->entries ? st->entries : 40, i, k;
	struct top_columns c;
	char line[1024];
	int w = width > 0 && width < (int)sizeof(line) ? width + 1 : (int)sizeof(line);

	if (n > h->nsorted)
		n = h->nsorted;
	top_columns(h, 0, n, &c);
	top_format_status(line, (size_t)w, h, st);
	fprintf(f, "   %s\n", line);
	for (i = 0; i + 1 < (size_t)w && i < 100; i++)
		fputc('-', f);
	fputs("\n\n", f);
	top_format_header(line, (size_t)w, h, st, &c);
	fprintf(f, "%s\n", line);
	for (i = 0; i < n; i++) {
		const struct top_entry *e = h->sorted[i];
		const struct top_chain *chains[TOP_MAX_CHAINS];
		size_t nc;

		top_format_line(line, sizeof(line), h, st, &c, e);
		fprintf(f, "%s\n", line);
		if (!st->callchains)
			continue;
		nc = top_chains_sorted(e, chains);
		for (k = 0; k < nc && k < 5; k++) {
			top_format_chain(line, sizeof(line), e, chains[k]);
			fprintf(f, "%s\n", line);
		}
	}
	fputc('\n', f);
	fflush(f);
}
