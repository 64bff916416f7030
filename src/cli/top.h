/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the perfev top files share: the live histogram (top-hist.c), the
 * snapshot printer (output/top-stdio.c) and the full-screen interface
 * (output/top-tui.c), driven by cmd-top.c.
 */
#ifndef PERFEV_CLI_TOP_H
#define PERFEV_CLI_TOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "common/hashmap.h"

/* Sort keys: the columns that tell lines apart, in the order given. */
enum top_key { TOP_KEY_COMM, TOP_KEY_PID, TOP_KEY_DSO, TOP_KEY_SYM, TOP_NKEYS };

#define TOP_MAX_KEYS	4
#define TOP_CHAIN_DEPTH 8  /* callers kept of each chain */
#define TOP_MAX_CHAINS	16 /* distinct caller chains kept per line */

/* One caller chain of a line: its callers, nearest first (interned names). */
struct top_chain {
	const char *fn[TOP_CHAIN_DEPTH];
	unsigned int n;
	double weight;
};

/* One line of the table: a distinct combination of the sort keys. */
struct top_entry {
	const char *comm, *dso, *sym; /* interned; NULL: not a key here, or unknown */
	uint64_t addr;		      /* sym unknown: the address, shown instead */
	uint32_t pid;
	bool kernel;
	double weight;		  /* periods, decayed at each refresh */
	double samples;		  /* samples, decayed the same way */
	struct top_chain *chains; /* TOP_MAX_CHAINS of them, made at the first (-g) */
	unsigned int nchains;
	double other_chains; /* the weight of chains past TOP_MAX_CHAINS */
};

/* A filter of the lines: a substring of comm, dso or symbol (or of any of them). */
struct top_filter {
	char text[128]; /* "" none; "comm:x", "dso:x", "sym:x", or "x" for any */
};

struct top_hist {
	enum top_key keys[TOP_MAX_KEYS];
	unsigned int nkeys;
	struct perfev__hashmap map; /* struct top_entry * -> nothing */
	struct perfev__intern strings;
	double total;		   /* the weight of every sample counted (hidden ones too) */
	double total_samples;	   /* the same in samples */
	uint64_t samples_ever;	   /* samples counted since the start */
	size_t max_entries;	   /* lines kept past a refresh; the lightest go */
	struct top_entry **sorted; /* after top_hist_sort(): the lines shown, heaviest first */
	size_t nsorted, sorted_cap;
};

/* A sample, resolved: its first frame and its callers' names. */
struct top_sample {
	const char *comm, *dso, *sym; /* not interned: copied in when new */
	uint64_t addr;
	uint32_t pid;
	bool kernel;
	uint64_t period;
	const char *callers[TOP_CHAIN_DEPTH]; /* NULL-padded */
	unsigned int ncallers;
};

/* Parse "dso,sym" into @h's keys; -1 with *@bad on a key not known. */
int top_hist_set_sort(struct top_hist *h, const char *spec, const char **bad);
/* The keys as text ("dso,sym") into @buf. */
void top_hist_sort_name(const struct top_hist *h, char *buf, size_t len);
void top_hist_init(struct top_hist *h, size_t max_entries);
void top_hist_release(struct top_hist *h);
/* Count @s (out of memory exits). */
void top_hist_add(struct top_hist *h, const struct top_sample *s);
/* Count a sample that is hidden (-K, -U): it still weighs in the shares. */
void top_hist_add_hidden(struct top_hist *h, uint64_t period);
/* Between refreshes: multiply every weight by 7/8 (perf top's decay), dropping lines that fade. */
void top_hist_decay(struct top_hist *h);
/* Zero everything (-z, the 'z' key). */
void top_hist_zero(struct top_hist *h);
/*
 * Order the lines heaviest first into h->sorted, those @f rejects left
 * out, and drop the lightest past max_entries.  Total lines in the map
 * stay bounded by max_entries after this.
 */
void top_hist_sort(struct top_hist *h, const struct top_filter *f);
/* Does @e pass @f? */
bool top_filter_match(const struct top_filter *f, const struct top_entry *e);
/* The name shown for @e's symbol: its sym or its address (in @buf). */
const char *top_entry_sym(const struct top_entry *e, char *buf, size_t len);

/* What the status line says. */
struct top_status {
	const char *event;  /* the events' names, comma separated */
	const char *target; /* "all, 2 CPUs", "pid 42", ... */
	double rate;	    /* samples per second over the last refresh */
	uint64_t freq;	    /* asked frequency, 0 with -c */
	unsigned int ncpus;
	uint64_t lost, lost_samples, throttled;
	double kernel_share; /* percent of the last refresh's samples in the kernel */
	bool paused;
	unsigned int refreshes; /* how many times the table was shown: #N in the status line */
	bool zero;		/* -z */
	bool show_samples;	/* -n */
	bool callchains;	/* -g */
	size_t entries;		/* -E: lines shown at most, 0: as many as fit */
	const struct top_filter *filter;
	bool hide_kernel, hide_user;
};

/* output/top-stdio.c: the text of the status line, the header and the lines. */
struct top_columns {
	size_t comm, dso; /* widths */
};
/* The widths lines @first to @first + @n of the sorted table need. */
void top_columns(const struct top_hist *h, size_t first, size_t n, struct top_columns *c);
int top_format_status(char *buf, size_t len, const struct top_hist *h, const struct top_status *st);
int top_format_header(char *buf, size_t len, const struct top_hist *h, const struct top_status *st,
		      const struct top_columns *c);
int top_format_line(char *buf, size_t len, const struct top_hist *h, const struct top_status *st,
		    const struct top_columns *c, const struct top_entry *e);
/* @e's chains, heaviest first, into @out (TOP_MAX_CHAINS room); their count. */
size_t top_chains_sorted(const struct top_entry *e, const struct top_chain **out);
/* One caller chain under its line: its share of the line and the callers, nearest first. */
int top_format_chain(char *buf, size_t len, const struct top_entry *e, const struct top_chain *ch);

/* One snapshot, as perf top --stdio prints it, at most @width columns (0: any). */
void top_print_stdio(FILE *f, struct top_hist *h, const struct top_status *st, int width);

/* output/top-tui.c: the full-screen interface. */
struct top_tui;
/* Set the terminal up; -1 when it cannot be (the caller falls back to --stdio). */
int top_tui_open(struct top_tui **out);
/* Put the terminal back as it was (idempotent; safe from an exit path). */
void top_tui_close(struct top_tui *t);
/* The descriptor to wait on for keys. */
int top_tui_fd(const struct top_tui *t);
/* What a key asks of the loop. */
enum top_action {
	TOP_NONE,
	TOP_REDRAW, /* only the screen */
	TOP_QUIT,
	TOP_PAUSE, /* toggle */
	TOP_ZERO,
	TOP_RESORT, /* keys or filter changed: sort again and redraw */
};
/* Read the keys waiting; the sort keys and filter are changed in place. */
enum top_action top_tui_keys(struct top_tui *t, struct top_hist *h, struct top_filter *f);
/* Draw the table and the status line. */
void top_tui_draw(struct top_tui *t, struct top_hist *h, const struct top_status *st);
/* The terminal was resized (SIGWINCH): lay out again at the next draw. */
void top_tui_resize(struct top_tui *t);

#endif /* PERFEV_CLI_TOP_H */
