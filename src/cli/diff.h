/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * perfev diff: what its files share.  cmd-diff.c reads every file into
 * one profile (profile.h; the events of file k follow those of file
 * k - 1, so strings and frames are shared and compare by pointer),
 * output/diff-table.c matches the entries of the files and prints perf
 * diff's table, diff-sig.c is the significance test of its marks, and
 * output/diff-html.c writes the differential flame graph.
 */
#ifndef PERFEV_CLI_DIFF_H
#define PERFEV_CLI_DIFF_H

#include <stdbool.h>
#include <stdint.h>
#include "profile.h"

/* -c: what a new file's column shows of an entry against the baseline. */
enum diff_compute { DC_DELTA, DC_DELTA_ABS, DC_RATIO, DC_WDIFF };

/* -s: the keys an entry is made of (perf diff's default: dso,sym). */
enum diff_key { DK_COMM, DK_PID, DK_DSO, DK_SYM, DK_CPU, DK_MAX };

/* A profile event: its file and what perf matches events of two files by. */
struct diff_event {
	uint32_t file;
	uint32_t type;
	uint64_t config;
};

/* A filter's names; @on when the option was given. */
struct diff_names {
	char **v;
	size_t n, cap;
	bool on;
};

struct diff {
	/* options */
	enum diff_compute compute;
	int64_t w1, w2;	    /* -c wdiff:W1,W2 */
	uint32_t order;	    /* -o: the file whose column sorts the entries (1) */
	bool show_period;   /* -p */
	bool show_formula;  /* -F */
	bool baseline_only; /* -b */
	bool absolute;	    /* --percentage absolute */
	bool quiet;	    /* -q */
	bool sig;	    /* the significance marks (not --no-significance) */
	const char *sep;    /* -t, or NULL */
	enum diff_key keys[DK_MAX];
	int nkeys;
	bool want[DK_MAX];
	/* -C, -d, -S, --pid, --tid: hide entries (they still count in the totals) */
	struct diff_names fcomm, fdso, fsym, fpid, ftid;

	/* the files */
	const char **paths;
	uint32_t nfiles;
	struct profile prof;
	struct diff_event *evs; /* per profile event */
	bool have_callchains;	/* some file's samples have call chains */
	/* file << 32 | tid -> the thread's last command (interned), for the pid column */
	struct perfev__hashmap comms;
	size_t cap_evs;
};

/* output/diff-table.c: perf diff's table of every event of the baseline. */
void diff_table_print(struct diff *d);

/*
 * diff-sig.c: the z statistic of a two-proportion test: @a of @n1
 * samples in one profile against @b of @n2 in the other, under the
 * pooled proportion's normal approximation; positive when the share
 * grew.  Returns 0, or -EDOM where the test says nothing: an empty
 * profile, or fewer than DIFF_SIG_MIN samples expected (from the
 * pooled proportion) in or out of the entry on either side.
 */
#define DIFF_SIG_MIN 5
int diff_sig_z(uint64_t a, uint64_t n1, uint64_t b, uint64_t n2, double *z);
/*
 * The mark of @z: "***" where the two-sided p-value is below 0.001
 * (|z| >= 3.2905), "**" below 0.01 (2.5758), "*" below 0.05 (1.9600),
 * else "".
 */
const char *diff_sig_mark(double z);

/*
 * output/diff-html.c: the report page in its diff mode, the differential
 * flame graph of event @base (baseline) against @cur.
 */
int diff_write_html(const struct diff *d, uint32_t base, uint32_t cur, FILE *f);

#endif /* PERFEV_CLI_DIFF_H */
