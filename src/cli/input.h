/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The perf.data input of perfev script and perfev report: the library's
 * source opened as both commands open it, and their words for what went
 * wrong reading it.
 */
#ifndef PERFEV_CLI_INPUT_H
#define PERFEV_CLI_INPUT_H

#include <stdbool.h>
#include <perfev/perfev.h>
#include "options.h"

struct input {
	const char *path; /* as given, or perf.data, or "-" (a pipe on standard input) */
	struct perfev_source *src;
	char cache_dir[4096]; /* where symbols are kept between runs; "" none */
	/* A large file: mapped here, its pages faulted in ahead by a thread (input.c). */
	struct input_map *map;
	/* The sample filters (input_filter()); NULL: every sample is shown. */
	struct perfev_filter *filter;
	char
	    archive_dir[4096]; /* --archive: where it was extracted (removed at the end); "" none */
	bool progress_drawn;   /* a debuginfod fetch's progress line is on the terminal */
};

/* How the commands open it. */
struct input_opts {
	const char *path;     /* -i; NULL: perf.data, or standard input when it is a pipe */
	const char *kallsyms; /* --kallsyms */
	const char *symfs;    /* --symfs */
	const char *archive;  /* --archive: a perfev/perf archive used as the build-id cache */
	bool no_demangle;
	bool raw;	  /* perfev_source_opts.raw (script -D) */
	bool whole_reads; /* perfev_source_opts.whole_reads (script -j) */
};

/*
 * Check --kallsyms, route the library's messages to stderr (warnings at
 * once, an error kept to explain a failure) and open the source.
 * Returns 0, or 1 after saying why not.
 */
int input_open(struct input *in, const struct input_opts *o);
/*
 * Say on stderr why @path could not be opened as a recording (-errno of
 * perfev_data_open() or perfev_source_open()); returns 1, the exit status.
 */
int input_open_error(const char *path, int err);

/*
 * After perfev_source_next() returned @err (< 0): say why the file could
 * not be read further.  Returns 1.
 */
int input_fail(struct input *in, int err);

/*
 * At the end: what was skipped or lost, and how the user stacks unwound.
 * @failed is for warnings that mean records are missing from the output;
 * none does today (compressed records are decompressed), so it is left as is.
 */
void input_warn_end(struct input *in, bool *failed);

/*
 * The sample filters script and report share, as their options give
 * them (NULL or empty: not given): --time, -C/--cpu, --pid, --tid,
 * -c/--comms, -S/--symbols, --dsos.
 */
struct input_filter_opts {
	const char *time, *cpus;
	const struct opt_list *pids, *tids, *comms, *syms, *dsos;
};

/*
 * Make in->filter from @o, after input_open() (percent times need the
 * file's first and last sample times).  Returns 0, 1 after saying why
 * the file cannot be filtered so, or 2 after saying what is wrong with
 * an option (a usage error).
 */
int input_filter(struct input *in, const struct input_filter_opts *o);

/* Whether sample @ev passes the filters (other records always do). */
bool input_keep(struct input *in, const struct perfev_source_event *ev);

void input_close(struct input *in);

struct json;
/*
 * The file's header (output/data-header.c): its sections and features as
 * perf report --header-only prints them (@full: with -I, the topology,
 * cache and memory features in full), or with @w their values as members
 * of the JSON object @w is in.
 */
void input_print_header(struct input *in, struct json *w, bool full);

#endif /* PERFEV_CLI_INPUT_H */
