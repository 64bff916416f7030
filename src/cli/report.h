/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * perfev report: what its files share.  cmd-report.c reads the file into
 * a profile (profile.h), report-hist.c sums the profile's stacks into the
 * lines of the table and prints it, report-graph.c prints the call graph
 * under each line.
 */
#ifndef PERFEV_CLI_REPORT_H
#define PERFEV_CLI_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include "profile.h"

/*
 * SK_PERIOD: a column (perf's "period" output field), not a key that
 * splits lines.  SK_WEIGHT, SK_LOCAL_WEIGHT: the samples' weight, summed
 * or per sample.  The branch keys (branch mode, --branch-stack): a
 * branch's source and target (SK_DSO and SK_SYM are its target's) and
 * its cycles.  SK_LOCAL_INS_LAT: the samples' instruction latency
 * (WEIGHT_STRUCT).  The --mem-mode keys: a sample's data source and
 * data address.
 */
enum sort_key {
	SK_COMM,
	SK_PID,
	SK_DSO,
	SK_SYM,
	SK_SRCLINE,
	SK_CPU,
	SK_PERIOD,
	SK_WEIGHT,
	SK_LOCAL_WEIGHT,
	SK_DSO_FROM,
	SK_DSO_TO,
	SK_SYM_FROM,
	SK_SYM_TO,
	SK_CYCLES,
	SK_LOCAL_INS_LAT,
	/* --mem-mode's: the data source's fields, the data address's symbol and object */
	SK_MEM,
	SK_SNOOP,
	SK_TLB,
	SK_LOCKED,
	SK_BLOCKED,
	SK_SYM_DADDR,
	SK_DSO_DADDR,
	SK_IPC_NULL, /* perf's IPC column of samples without branch cycles: "-" */
	SK_MAX
};

/* -g: how call graphs are printed. */
enum graph_mode { GM_NONE, GM_GRAPH, GM_FRACTAL, GM_FLAT, GM_FOLDED };

/* A node of a line's call graph: a function, with what went through it. */
struct gnode {
	const char *name; /* interned in the profile */
	uint32_t dso_ord; /* where its object and address order it among equal branches */
	uint64_t addr;
	bool inlined; /* an inlined function: ordered by name alone (perf's) */
	uint64_t period;
	uint64_t self; /* what ended here */
	struct gnode **kids;
	size_t nkids, cap;
	size_t hint; /* the child the last path went to: paths repeat */
};

/* An address of a line besides its own: a branch's source, a data address. */
struct hfrom {
	const char *dso, *sym, *path;
	uint64_t sym_start, addr;
	char level;
};

/* One line of the report: what the sort keys name, and its sums. */
struct hent {
	uint32_t ev;
	const char *comm;
	uint32_t tid;
	const char *dso;     /* the object's short name */
	char level;	     /* '.' user, 'k' kernel, ... */
	const char *sym;     /* or NULL: @addr is shown */
	const char *path;    /* the object's full name */
	uint64_t sym_start;  /* the symbol's address in it */
	uint64_t addr;	     /* in the object */
	const char *srcline; /* "file.c:12", interned; NULL unless sorted by it */
	int32_t cpu;
	uint32_t max_depth;  /* of the call paths through this line (its group leader's) */
	uint32_t seq;	     /* lines made before it */
	bool unwound_inline; /* @sym is "name (inlined)" (profile_frame.unwound_inline) */
	char origin;	     /* -v: where the symbols of @path came from */
	uint64_t tag; /* profile_stack.tags.tag: the samples' weight, or the branch's cycles */
	uint64_t ins_lat, data_src; /* the first sample's (profile_stack.tags) */
	/* --mem-mode: the data address's symbol (or address) and object */
	struct hfrom daddr;
	/* Branch mode: the branch's source (the fields above are its target). */
	struct hfrom from;
	struct gnode graph; /* the call paths through this line, when printed */
	/* What identifies the line: the sort keys' fields (interned strings), the rest zero. */
	struct hkey {
		uint32_t ev, tid;
		int32_t cpu;
		const char *comm, *dso, *sym, *srcline;
		const char *sym_path; /* a symbol is its object's and its start's */
		uint64_t addr, sym_start;
		uint64_t tag, ins_lat, data_src; /* data_src: the bits the mem keys compare */
		const char *from_dso, *from_sym, *from_path;
		uint64_t from_addr, from_start;
		const char *d_dso, *d_sym, *d_path;
		uint64_t d_addr, d_start;
	} key;
	/* Per event of the line: itself, or each member of its group, the leader first. */
	struct hsum {
		uint64_t self, children, samples;
	} sum[];
};

/*
 * The group of a profile event (perf's event groups, from the file's
 * GROUP_DESC or --group): its leader's event and its place in the group.
 */
struct egroup {
	uint32_t leader;  /* the leader's event; the event itself when alone */
	uint32_t idx;	  /* 0 for the leader */
	uint32_t n;	  /* for the leader: its events, its own and the n - 1 after it; 1 alone */
	const char *name; /* for the leader: the group's name, NULL for "anon group" */
	bool forced;	  /* for the leader: --group made it of events recorded apart */
};

/* A filter's names; @on when the option was given. */
struct names {
	char **v;
	size_t n;
	bool on;
};

/* -T: the counts of PERF_RECORD_READ, per thread (pid << 32 | tid) and event, in order met. */
struct report_threads {
	uint64_t *thread, *counter; /* the threads; the counters' event indexes */
	const char **names;	    /* per counter, interned */
	uint64_t *value;	    /* per thread, a row of ncounters sums */
	size_t nthreads, ncounters, cap_threads, cap_counters, cap_names;
};

struct report {
	/* options */
	enum sort_key keys[SK_MAX];
	int nkeys;
	bool want[SK_MAX];
	double percent_limit;
	bool show_nr, children, lines, inline_frames;
	bool cpu_labels;  /* keep stacks per CPU: the pprof export labels them */
	bool show_period; /* --show-total-period: a Period column after Samples */
	/*
	 * -v: whole paths of the files, and in the symbol column the first
	 * sample's address and where the file's symbols came from, a letter
	 * @origin gives for a path (perfev_symbolizer_origin()).
	 */
	bool verbose;
	char *frame_origin;	/* -v: per profile frame, its file's letter ('!' unknown) */
	bool header_shown;	/* --header printed the file's header before the report */
	bool show_threads;	/* -T: the table of @threads after the report */
	bool branch_mode;	/* a line per branch of the samples' branch stacks */
	bool mem_mode;		/* --mem-mode: weights as periods, the data source's columns */
	const char *sort_order; /* --mem-mode's title: the keys as given, or perf's default */
	char *sort_order_buf;	/* sort_order when made here */
	struct report_threads threads;
	/* --sort sym...: a graph's one root starts after its first name, the line's own (perf's) */
	bool graph_skips_sym;
	enum graph_mode graph;
	bool caller; /* call graphs from the callers down (else from the sampled function up) */
	double graph_limit; /* -g threshold, percent */
	struct names fcomm, fdso, fsym;
	const char *time_str; /* --time, told in the titles as perf does */
	uint32_t *ftid, *fpid;
	size_t nftid, nfpid;
	bool have_callchains; /* some event sampled them */
	/*
	 * Per profile event, its group; NULL when none has one.  With
	 * @group_view the events of a group share lines, a column each
	 * (perf's group view), else each event has its own section.
	 */
	struct egroup *groups;
	bool group_view;

	struct profile prof;
	struct perfev__arena graph_mem; /* the lines' call graphs: nodes and child arrays */
	struct perfev__hashmap tcomms;	/* tid -> the thread's last command (perf's column width) */
	uint32_t *dso_ord;		/* per frame: its object's rank, the kernel first */
	const char **labels;		/* per frame: its name in call graphs, interned */
	const char **short_dso;		/* per frame: its object's short name, interned */
	const char **srclines; /* per frame: its source line as perf shows it, made when asked */
	struct perfev__hashmap
	    ents; /* the lines: struct hkey * -> the struct hent it is the key of */
};

/* report-hist.c */
/* Thread @tid is called @comm (interned) now. */
void report_note_comm(struct report *r, uint32_t tid, const char *comm);
/* Sum the profile's stacks into the lines of the report. */
void report_hist_build(struct report *r);
/* Print the whole report (perf report --stdio's layout). */
void report_hist_print(struct report *r);
void report_hist_release(struct report *r);
/* The name a frame has in a call graph: its symbol, else its address. */
const char *report_frame_label(const struct profile_frame *f, char *buf, size_t len);
/* The command, object, symbol and source line filters let this line through. */
bool report_listed(const struct names *f, const char *s);
/*
 * The filters let stack @s through (after report_hist_build()): its
 * command, process and thread, and the object and symbol of its sampled
 * function (the line its samples are the self share of).
 */
bool report_stack_listed(const struct report *r, const struct profile_stack *s);

/* report-mem.c */
/* The text of --mem-mode column @k (SK_MEM ... SK_BLOCKED) for @data_src, as perf 6.1's. */
void report_mem_text(enum sort_key k, uint64_t data_src, char *buf, size_t len);
/* The bits of @data_src that key @k tells lines apart by (perf compares one field each). */
uint64_t report_mem_key(enum sort_key k, uint64_t data_src);

/* report-threads.c */
/* Thread @pid/@tid's count of event @ev (@name) at its exit: @value, added. */
void report_threads_add(struct report *r, uint32_t pid, uint32_t tid, size_t ev, const char *name,
			uint64_t value);
/* perf report -T's table. */
void report_threads_print(const struct report *r);
void report_threads_release(struct report *r);

/* report-graph.c */
/* A step of a call path: a function's name (interned) and address. */
struct gstep {
	const char *name;
	uint32_t dso_ord;
	uint64_t addr;
	bool inlined;
};
/* Add the path @steps[0..n-1] (outermost first) with @period to the graph @root. */
void graph_add(struct perfev__arena *a, struct gnode *root, const struct gstep *steps, size_t n,
	       uint64_t period);
/* @v as a percentage of @base (0 when @base is). */
double report_pct(uint64_t v, uint64_t base);
/* Print a line's graph as perf report --stdio does, percentages of @total. */
void graph_print(const struct report *r, const struct gnode *root, uint64_t total);

#endif /* PERFEV_CLI_REPORT_H */
