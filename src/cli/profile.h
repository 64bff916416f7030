/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A profile: the samples of a perf.data file as call stacks of resolved
 * frames, summed per distinct stack.  perfev report builds it from the
 * file (cmd-report.c) and prints its tables from it; the exports write
 * it: profile-folded.c (collapsed stacks), profile-speedscope.c,
 * profile-pprof.c (protobuf), profile-html.c (one-file flame graph).
 *
 * Frames and strings are interned: a frame index names the same frame
 * everywhere, and equal strings are the same pointer.
 */
#ifndef PERFEV_CLI_PROFILE_H
#define PERFEV_CLI_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "common/hashmap.h"

/* One frame of a stack: a function, or an address nothing resolved. */
struct profile_frame {
	const char *sym; /* the function's name (demangled); NULL: none resolved */
	const char
	    *dso; /* the object's path, "[kernel.kallsyms]", a module's "[name]" or "[unknown]" */
	uint64_t addr;	  /* the address in the object (a file address, or the kernel's) */
	uint64_t offset;  /* @addr - the symbol's start, when @sym */
	uint64_t ip;	  /* without @sym: the address as the process saw it, else 0 */
	const char *file; /* the source file, NULL when unknown (or lines not asked for) */
	uint32_t line;	  /* its line, 0 when unknown */
	bool inlined;	  /* inlined into the next frame of the stack (its caller) */
	/*
	 * perf report's view of a DWARF-unwound address: each function DWARF
	 * names there is an entry of the call chain of its own, those named
	 * otherwise than the symbol shown "(inlined)" (@unwound_inline); the
	 * sampled function's own symbol then stands apart before them, as
	 * the sampled function only (@sampled_only).
	 */
	bool unwound_inline, sampled_only;
	char level; /* '.' user, 'k' kernel, 'H' hypervisor, 'g'/'u' guest */
};

/* A distinct stack, with what the samples that had it add up to. */
struct profile_stack {
	uint32_t ev; /* the event: an index into profile.events */
	const char *comm;
	uint32_t pid, tid;
	int32_t cpu; /* -1 unless the profile keeps stacks per CPU */
	uint32_t nframes;
	uint32_t *frames; /* indexes into profile.frames, the sampled one (leaf) first */
	uint64_t period;  /* the sum of the samples' periods */
	uint64_t samples;
	struct profile_tags {
		/*
		 * What else tells the stack's samples apart, 0 unless asked:
		 * their weight (perf report --sort weight), or a branch's
		 * cycles (branch stacks, where the stack is a branch's source
		 * and target); their instruction latency; their data source;
		 * their data address's frame + 1 (--mem-mode).
		 */
		uint64_t tag, ins_lat, data_src;
		uint32_t daddr;
	} tags;
};

struct profile_event {
	const char *name;
	uint64_t samples, period; /* every sample of the event, filtered or not */
};

/* What the run was, from the file's header; NULL or 0 when the file lacks it. */
struct profile_meta {
	const char *hostname, *os_release, *arch, *cpu_desc, *perf_version;
	const char *cmdline; /* the recording's command line, words joined by spaces */
	const char *input;   /* the file the profile was read from */
	uint32_t nr_cpus;
	uint64_t time_first, time_last; /* sample times (ns), 0 when not sampled */
	uint64_t lost;			/* samples the kernel lost */
};

/*
 * When one sample was taken, and its stack (the report page's timeline); past
 * PROFILE_TIMES_MAX samples, those of a stack close in time are one entry of several.
 */
struct profile_time {
	uint64_t time, period;
	uint32_t stack;	  /* an index into profile.stacks */
	uint32_t samples; /* 1, or how many were merged into this one */
};

/*
 * The most time entries a profile keeps (12 MiB): past it, the samples of each stack are
 * merged by time, each entry standing for a slice of the recording (a 4096th of the
 * span of the samples so far, twice as long as often as it takes), so that what a file
 * that expands to millions of samples costs stays bounded.
 */
#define PROFILE_TIMES_MAX (1U << 19)

/* An object's build id as the recording saw it, in hex. */
struct profile_build_id {
	const char *dso; /* interned */
	char hex[2 * 20 + 1];
};

struct profile {
	struct profile_frame *frames;
	size_t nframes;
	struct profile_stack *stacks; /* in the order they were first seen */
	size_t nstacks;
	struct profile_event *events;
	size_t nevents;
	struct profile_meta meta;
	struct profile_build_id *build_ids; /* of the objects that have one, when told */
	size_t nbuild_ids;
	/* Every sample's time, in the order added, when asked (profile_add_time()). */
	bool timed;
	struct profile_time *times;
	size_t ntimes;
	uint64_t time_slice; /* past PROFILE_TIMES_MAX: how long a slice merged is (ns) */
	size_t times_limit;  /* the entries that make the next merge (0: PROFILE_TIMES_MAX) */

	/* private: the interned strings; frames and stacks by index, hashed by what they hold */
	struct perfev__intern strs;
	struct perfev__hashmap frame_idx, stack_idx;
	struct perfev__arena mem; /* the stacks' frame lists */
	size_t cap_frames, cap_stacks, cap_events, cap_build_ids, cap_times;
};

void profile_init(struct profile *p);
void profile_release(struct profile *p);

/* The interned copy of @s (NULL stays NULL); lives as long as @p. */
const char *profile_intern(struct profile *p, const char *s);

/*
 * The index of the @len bytes at @key in @t (a string, or a run of
 * integers), dense in the order first seen, added when new.  Returns 0,
 * -E2BIG past UINT32_MAX - 1 keys, or -ENOMEM.
 */
int profile_index(struct perfev__intern *t, const void *key, size_t len, uint32_t *out);

/* The index of frame @f (its strings interned), added when new. */
uint32_t profile_frame_add(struct profile *p, const struct profile_frame *f);

/* Add an event called @name (two events may have one name); its index. */
uint32_t profile_event_add(struct profile *p, const char *name);

/*
 * Add one sample of event @ev (period @period) with stack @frames (@n
 * indexes, leaf first) to its stack's sums.  The event's own sums are
 * the caller's to keep (they count filtered samples too).
 */
void profile_add(struct profile *p, uint32_t ev, const char *comm, uint32_t pid, uint32_t tid,
		 const uint32_t *frames, uint32_t n, uint64_t period);
/* The same, the sample taken on @cpu: stacks on different CPUs are kept apart. */
void profile_add_on_cpu(struct profile *p, uint32_t ev, const char *comm, uint32_t pid,
			uint32_t tid, int32_t cpu, const uint32_t *frames, uint32_t n,
			uint64_t period);

/*
 * The same, with the stack's tags (profile_stack.tags): stacks of other tags
 * are kept apart.  Returns the stack's index.
 */
uint32_t profile_add_tagged(struct profile *p, uint32_t ev, const char *comm, uint32_t pid,
			    uint32_t tid, int32_t cpu, const struct profile_tags *tags,
			    const uint32_t *frames, uint32_t n, uint64_t period);

/*
 * When @p is timed: the sample of period @period just added to stack @stack
 * was taken at @time (ns).
 */
void profile_add_time(struct profile *p, uint32_t stack, uint64_t time, uint64_t period);

/*
 * The first frame of @s the exports show: past a sampled_only frame (the
 * table's name for the sample, which its call chain holds as well).
 */
uint32_t profile_stack_first(const struct profile *p, const struct profile_stack *s);

/*
 * Keep only the stacks @keep says true of (in their order), and the times of
 * their samples; the events' sums stay.
 */
void profile_keep(struct profile *p, bool (*keep)(const struct profile_stack *s, void *ctx),
		  void *ctx);

/* Note object @dso's build id (@len bytes, 1 to 20).  Returns 0, -EINVAL or -ENOMEM. */
int profile_set_build_id(struct profile *p, const char *dso, const void *id, size_t len);
/* Object @dso's build id in hex, or NULL when none was noted. */
const char *profile_build_id(const struct profile *p, const char *dso);

/* The name a frame is shown by in the exports: its symbol, else "[unknown]". */
const char *profile_frame_name(const struct profile_frame *f);

/* The short name of a dso as perf shows it: the file's base name; "[...]" names as they are. */
const char *profile_short_dso(const char *dso);

/*
 * The exports.  Each writes the whole profile (every event, or only
 * event @ev when @ev < nevents) to @f and returns 0 or -errno (-EIO
 * when a write fails).
 */
int profile_write_folded(const struct profile *p, size_t ev, FILE *f);
int profile_write_speedscope(const struct profile *p, size_t ev, FILE *f);
int profile_write_pprof(const struct profile *p, size_t ev, FILE *f);
int profile_write_html(const struct profile *p, size_t ev, FILE *f);

/*
 * What other pages reuse of profile_write_html().  The report page's data
 * (compact JSON of the run, the events, strings, frames and the stacks of
 * event @ev, or of every event, merged into call trees, the paths under
 * 0.0001% of their event's count merged into one node per parent; see
 * profile-html.c).  And a template copied to @f with its "@PERFEV_NAME@"
 * markers filled: PERFEV_HEAD with the head every page shares
 * (page-head.html: the script failure shown on the page, the base style),
 * the others by @fn, given NAME and what follows ("DATA@..."); a non-zero
 * return of @fn stops it.  Returns 0, @fn's error, or -EIO when a write
 * failed.
 */
int profile_write_html_tree(const struct profile *p, size_t ev, FILE *f);
/*
 * The report page of the @nev profile events @evs (the
 * page's event i is profile event @evs[i]; each at most once, else
 * -EINVAL), with the keys @more writes (when not NULL) added to the
 * data's object: perfev diff's page is the report page of its two events.
 */
struct json;
struct profile_html_more {
	void (*write)(struct json *j, void *ctx);
	void *ctx;
};
int profile_write_html_events(const struct profile *p, const uint32_t *evs, size_t nev,
			      const struct profile_html_more *more, FILE *f);
/*
 * The report page's timeline (profile-html.c): when the profile is timed,
 * the tree's data above carries its threads and lanes, and its cells are
 * kept here for profile_write_html_times(), which writes them as the page
 * reads them once a time range is chosen.
 */
struct page_times {
	uint64_t start, width; /* the first sample's time, a bucket's width (ns) */
	uint32_t buckets;
	struct time_cell
	    *cells; /* by bucket, thread, node; once the lanes are written, by bucket and node */
	size_t ncells;
	struct perfev__intern threads; /* pid and tid of each */
	PERFEV__ARRAY(uint32_t) comm;  /* each thread's command, a page string */
};
int profile_write_html_times(const struct page_times *pt, FILE *f);
void profile_page_times_release(struct page_times *pt);
/*
 * The report page's source lines: per function (name and object, as the
 * page merges them) and event, its source lines' self and total samples
 * and counts, and the text of the hottest functions' lines where their
 * files can be read (see profile-html-lines.c).  A file that cannot be
 * read leaves its lines without text; it is not an error.
 */
int profile_write_html_lines(const struct profile *p, size_t ev, FILE *f);
typedef int (*profile_html_fill_fn)(const char *name, void *ctx, FILE *f);
int profile_html_fill(const unsigned char *page, size_t len, profile_html_fill_fn fn, void *ctx,
		      FILE *f);

#endif /* PERFEV_CLI_PROFILE_H */
