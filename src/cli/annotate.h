/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What perfev annotate's files share: cmd-annotate.c gathers, output/annotate-print.c prints. */
#ifndef PERFEV_CLI_ANNOTATE_H
#define PERFEV_CLI_ANNOTATE_H

#include <stdbool.h>
#include <stdint.h>
#include <perfev/perfev.h>
#include "common/hashmap.h"

/* Samples at one offset of a symbol. */
struct ann_hit {
	uint64_t off; /* from the symbol's start */
	uint64_t period, samples;
};

/* One sampled symbol of one event. */
struct ann_sym {
	size_t attr_idx;
	const char *event; /* the event's name */
	const char *dso;   /* interned: the object's path, "[kernel.kallsyms]", "[module]" */
	const char *name;  /* interned */
	bool kernel;
	/*
	 * Where it starts: a file offset for files (perfev_symbolize_*()'s
	 * @ip with map start and pgoff 0), a kernel address for the kernel.
	 */
	uint64_t base;
	uint64_t period, samples;
	struct perfev__hashmap offs; /* offset -> index in @hits */
	PERFEV__ARRAY(struct ann_hit) hits;
};

enum ann_percent {
	ANN_LOCAL_PERIOD,
	ANN_GLOBAL_PERIOD,
	ANN_LOCAL_HITS,
	ANN_GLOBAL_HITS,
};

struct ann_opts {
	bool intel;	 /* -M intel */
	bool raw;	 /* --asm-raw */
	bool source;	 /* source lines interleaved (--source, the default) */
	bool print_line; /* -l: the hottest source lines first */
	bool full_paths; /* -P */
	bool show_nr;
	bool verbose; /* -v: where each function's code was read, on stderr */ /* -n */
	enum ann_percent percent;
	const char *procfs_root; /* where kcore is read */
};

/* The totals of each event, for the global percent types. */
struct ann_totals {
	uint64_t period, samples;
};

/*
 * Print symbol @a's disassembly with its samples.  Returns 0, or -errno
 * after saying on stderr why it could not be disassembled.
 */
int annotate_print(struct perfev_symbolizer *s, const struct ann_sym *a,
		   const struct ann_totals *tot, const struct ann_opts *o);

/* Release the source files read for interleaving. */
void annotate_print_release(void);

#endif /* PERFEV_CLI_ANNOTATE_H */
