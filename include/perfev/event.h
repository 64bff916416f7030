/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The event language: Linux perf's event syntax turned into
 * perf_event_attr structures.
 *
 *   cycles,instructions:u          generic hardware events, modifiers
 *   L1-dcache-load-misses          hardware cache events
 *   r1a8                           raw PMU config
 *   cpu/event=0x3c,umask=0,name=x/ PMU terms (sysfs format fields, aliases,
 *                                  config..config3, period, freq, ...)
 *   sched:sched_switch, sched:*    tracepoints (fnmatch globs)
 *   mem:0x1000/8:rw                hardware breakpoints
 *   1:1, 4:0x76/period=3/u         attr type and config as numbers
 *   {cycles,instructions}:S        groups, with group modifiers
 *
 * Parsing is a pure function of the string, the PMU database and the
 * tracefs handle: it performs no perf_event_open() call and never prints.
 * Where Linux perf applies defaults that depend only on the string (for
 * instance the exclude_* bits implied by each modifier), the result is
 * bit-for-bit what perf 6.x computes.
 */
#ifndef PERFEV_EVENT_H
#define PERFEV_EVENT_H

#include <stdbool.h>
#include <stdint.h>
#include <perfev/abi.h>
#include <perfev/core.h>

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_pmus;
struct perfev_tracefs;

/* An ordered list of parsed events with their group structure. */
struct perfev_evspec;

enum perfev_event_kind {
	PERFEV_KIND_HARDWARE = 0,   /* PERF_TYPE_HARDWARE generic event */
	PERFEV_KIND_SOFTWARE = 1,   /* PERF_TYPE_SOFTWARE */
	PERFEV_KIND_TRACEPOINT = 2, /* PERF_TYPE_TRACEPOINT */
	PERFEV_KIND_CACHE = 3,	    /* PERF_TYPE_HW_CACHE */
	PERFEV_KIND_RAW = 4,	    /* PERF_TYPE_RAW (rNNNN) */
	PERFEV_KIND_BREAKPOINT = 5, /* PERF_TYPE_BREAKPOINT (mem:) */
	PERFEV_KIND_PMU = 6,	    /* a sysfs PMU: pmu/terms/ or an alias */
	PERFEV_KIND_TOOL = 7,	    /* measured by the tool, not the kernel */
};

/* Tool events (kind PERFEV_KIND_TOOL); attr is a software dummy event. */
enum perfev_tool_event {
	PERFEV_TOOL_NONE = 0,
	PERFEV_TOOL_DURATION_TIME = 1,
	PERFEV_TOOL_USER_TIME = 2,
	PERFEV_TOOL_SYSTEM_TIME = 3,
};

/* Event flags that are not perf_event_attr bits. */
#define PERFEV_EVF_SAMPLE_READ	  (1U << 0) /* modifier S */
#define PERFEV_EVF_WEAK_GROUP	  (1U << 1) /* modifier W: split the group when refused */
#define PERFEV_EVF_PRECISE_MAX	  (1U << 2) /* modifier P: highest precise_ip that opens */
#define PERFEV_EVF_BPF_COUNTER	  (1U << 3) /* modifier b */
#define PERFEV_EVF_RETIRE_LAT	  (1U << 4) /* modifier R: report retire latency */
#define PERFEV_EVF_PERCORE	  (1U << 5) /* term percore: sum over SMT siblings */
#define PERFEV_EVF_PER_PKG	  (1U << 6) /* sysfs alias .per-pkg */
#define PERFEV_EVF_SNAPSHOT	  (1U << 7) /* sysfs alias .snapshot */
#define PERFEV_EVF_GUEST_HOST_SET (1U << 8) /* G or H modifier given */

/* Terms given explicitly in the string (override tool defaults). */
#define PERFEV_TERM_PERIOD	    (1U << 0)
#define PERFEV_TERM_FREQ	    (1U << 1)
#define PERFEV_TERM_TIME	    (1U << 2)
#define PERFEV_TERM_CALLGRAPH	    (1U << 3)
#define PERFEV_TERM_STACK_SIZE	    (1U << 4)
#define PERFEV_TERM_MAX_STACK	    (1U << 5)
#define PERFEV_TERM_INHERIT	    (1U << 6) /* inherit or no-inherit */
#define PERFEV_TERM_OVERWRITE	    (1U << 7) /* overwrite or no-overwrite */
#define PERFEV_TERM_BRANCH_TYPE	    (1U << 8)
#define PERFEV_TERM_NR		    (1U << 9)
#define PERFEV_TERM_AUX_OUTPUT	    (1U << 10)
#define PERFEV_TERM_AUX_SAMPLE_SIZE (1U << 11)
#define PERFEV_TERM_NAME	    (1U << 12)
#define PERFEV_TERM_DRIVER_CONFIG   (1U << 13)
#define PERFEV_TERM_METRIC_ID	    (1U << 14)

enum perfev_callgraph {
	PERFEV_CALLGRAPH_DEFAULT = 0, /* not specified */
	PERFEV_CALLGRAPH_NONE = 1,    /* call-graph=no */
	PERFEV_CALLGRAPH_FP = 2,
	PERFEV_CALLGRAPH_DWARF = 3,
	PERFEV_CALLGRAPH_LBR = 4,
};

struct perfev_event_info {
	size_t sz; /* sizeof(struct perfev_event_info), set by the caller */

	const char *name; /* display name */
	size_t offset;	  /* where the event starts in the parsed string */
	size_t length;	  /* and its length */
	enum perfev_event_kind kind;
	const char *pmu; /* PMU name for KIND_PMU/TRACEPOINT/BREAKPOINT/SOFTWARE, or NULL */

	/*
	 * The attr to pass to perf_event_open().  attr->size covers every
	 * field the library knows, including config3 beyond the installed
	 * header; the pointer stays valid until the spec is freed.
	 */
	const struct perf_event_attr *attr;
	uint64_t config3;

	int leader;		/* index of this event's group leader (itself if leader) */
	int group_size;		/* leader of a {...} group: its events; otherwise 0 */
	const char *group_name; /* "name" of name{...}, or NULL */

	unsigned int flags;	/* PERFEV_EVF_* */
	unsigned int terms_set; /* PERFEV_TERM_* */
	enum perfev_callgraph callgraph;
	uint32_t stack_size;	   /* stack-size= (user stack bytes for dwarf) */
	uint32_t max_events;	   /* nr= */
	const char *metric_id;	   /* metric-id=, or NULL */
	const char *driver_config; /* driver-config=, or NULL */
	enum perfev_tool_event tool;
	const char *tp_system; /* tracepoints: system and event name */
	const char *tp_name;
	double scale;	  /* multiply counts by this (sysfs .scale), 1.0 */
	const char *unit; /* unit of scaled counts (sysfs .unit), or NULL */
};

struct perfev_parse_opts {
	size_t sz;
	/* PMUs for pmu/terms/ and aliases; NULL: only generic events. */
	const struct perfev_pmus *pmus;
	/* tracefs for sys:name; NULL: tracepoints are refused with -ENOENT. */
	struct perfev_tracefs *tracefs;
	/*
	 * Why @tracefs is NULL, if the caller knows: the error of
	 * perfev_tracefs_open() (-ENOENT: not mounted, -EACCES: not
	 * readable).  Only used to word the error message.
	 */
	int tracefs_error;
};

struct perfev_parse_error {
	size_t sz;	   /* sizeof(struct perfev_parse_error), set by the caller */
	int err;	   /* the negative errno also returned */
	size_t offset;	   /* byte offset of the bad token in the string */
	size_t length;	   /* length of the bad token (0: end of string) */
	char message[192]; /* what is wrong, e.g. "unknown event 'cycels'" */
	char hint[192];	   /* how to fix it ("did you mean 'cycles'?"), or "" */
};

/* An empty list. Errors: -ENOMEM. */
PERFEV_API int perfev_evspec_new(struct perfev_evspec **out);
PERFEV_API void perfev_evspec_free(struct perfev_evspec *spec);

/*
 * Parse @str and append its events to @spec (so repeated -e options build
 * one list).  On error nothing is appended, and @err (may be NULL) says
 * where and why.
 *
 * Errors: -EINVAL (syntax), -ENOENT (unknown event, PMU, term or
 * tracepoint), -ERANGE (a value does not fit its field), -EACCES (tracefs
 * not readable), -ENOMEM.
 */
PERFEV_API int perfev_evspec_add(struct perfev_evspec *spec, const char *str,
				 const struct perfev_parse_opts *opts,
				 struct perfev_parse_error *err);

/* perfev_evspec_new() + perfev_evspec_add(). */
PERFEV_API int perfev_evspec_parse(const char *str, const struct perfev_parse_opts *opts,
				   struct perfev_evspec **out, struct perfev_parse_error *err);

PERFEV_API size_t perfev_evspec_count(const struct perfev_evspec *spec);

/*
 * Describe event @idx.  Strings and the attr stay owned by @spec.
 * Errors: -EINVAL (bad index or info->sz), -ERANGE never.
 */
PERFEV_API int perfev_evspec_info(const struct perfev_evspec *spec, size_t idx,
				  struct perfev_event_info *info);

/*
 * A copy of event @idx's attr that the caller may change before opening
 * (say, to add sample_type bits).  @buf must hold @len bytes; the
 * complete attr is PERFEV_ATTR_SIZE_MAX bytes (attr->size tells).
 * Returns the number of bytes copied, or -EINVAL.
 */
PERFEV_API int perfev_evspec_attr_copy(const struct perfev_evspec *spec, size_t idx, void *buf,
				       size_t len);

/* --- name tables --------------------------------------------------------- */

/* A generic (PMU-independent) event name. */
struct perfev_symbol {
	const char *name;	     /* canonical spelling */
	const char *alias;	     /* second spelling, or NULL */
	enum perfev_event_kind kind; /* HARDWARE, SOFTWARE or TOOL */
	uint32_t type;
	uint64_t config;
	const char *desc;
};

/* The table of hardware, software and tool event names. */
PERFEV_API size_t perfev_symbol_count(void);
PERFEV_API const struct perfev_symbol *perfev_symbol_get(size_t idx);

/*
 * The valid hardware cache events in perf's canonical spelling
 * ("L1-dcache-load-misses"), in the order perf lists them.  Writes the
 * name into @buf and the attr.config into @config.  Returns the name
 * length, or -ENOENT past the last index.
 */
PERFEV_API int perfev_cache_event_get(size_t idx, char *buf, size_t len, uint64_t *config);

/* "hardware", "software", "tracepoint", ... for a kind; NULL if unknown. */
PERFEV_API const char *perfev_event_kind_name(enum perfev_event_kind kind);

/* --- call chains ---------------------------------------------------------- */

/* User stack bytes a DWARF call chain copies unless told (perf record's default). */
#define PERFEV_STACK_USER_DEFAULT 8192U
/* The most a sample copies: the kernel takes sample_stack_user below 65535, a multiple of 8. */
#define PERFEV_STACK_USER_MAX 65528U

/*
 * Set @attr up to record call chains as perf record's --call-graph MODE
 * does (the event's call-graph= and stack-size= terms do the same):
 *
 *   FP       PERF_SAMPLE_CALLCHAIN: the kernel follows the frame pointers.
 *   DWARF    CALLCHAIN for the kernel's part only (exclude_callchain_user),
 *            REGS_USER with this architecture's general registers
 *            (sample_regs_user) and STACK_USER: @stack_size bytes of the
 *            user stack (0: PERFEV_STACK_USER_DEFAULT), rounded up to a
 *            multiple of 8, so that a reader unwinds the user part later
 *            with the CFI of the mapped files.
 *   LBR      CALLCHAIN with the branch stack's call stack (a PMU with
 *            last branch records).
 *   NONE     none of these, and sample_max_stack cleared.
 *   DEFAULT  nothing changes.
 *
 * Before FP, DWARF or NONE, what an earlier FP or DWARF set is undone
 * (the branch stack of an earlier LBR is left).  Pure: no system call.
 *
 * Errors: -EINVAL (@attr NULL, unknown @mode), -ERANGE (@stack_size above
 * PERFEV_STACK_USER_MAX once rounded up), -EOPNOTSUPP (DWARF on an
 * architecture whose registers the library does not know).  On error
 * @attr is unchanged.
 */
PERFEV_API int perfev_attr_set_callgraph(struct perf_event_attr *attr, enum perfev_callgraph mode,
					 uint32_t stack_size);

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_EVENT_H */
