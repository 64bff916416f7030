/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal interface between the event parser, the name tables and evspec. */
#ifndef PERFEV_PARSE_H
#define PERFEV_PARSE_H

#include <perfev/event.h>
#include <perfev/pmu.h>
#include <perfev/tracefs.h>

/* Room for the largest attr we know, whatever the installed header says. */
#define PERFEV__ATTR_BUF                                                                           \
	(sizeof(struct perf_event_attr) > PERFEV_ATTR_SIZE_MAX ? sizeof(struct perf_event_attr)    \
							       : PERFEV_ATTR_SIZE_MAX)

union perfev__attr_buf {
	struct perf_event_attr attr;
	unsigned char raw[PERFEV__ATTR_BUF];
	uint64_t align_;
};

static inline void perfev__attr_set_config3(union perfev__attr_buf *b, uint64_t v)
{
	memcpy(b->raw + PERFEV_ATTR_CONFIG3_OFFSET, &v, sizeof(v));
}

static inline uint64_t perfev__attr_config3(const void *attr)
{
	uint64_t v;

	memcpy(&v, (const unsigned char *)attr + PERFEV_ATTR_CONFIG3_OFFSET, sizeof(v));
	return v;
}

/* One parsed event; strings are owned. */
struct perfev__event {
	union perfev__attr_buf a;
	char *name;
	size_t offset, length;
	enum perfev_event_kind kind;
	char *pmu;
	int leader;
	int group_size;
	char *group_name;
	unsigned int flags;
	unsigned int terms_set;
	enum perfev_callgraph callgraph;
	uint32_t stack_size;
	uint32_t max_events;
	char *metric_id;
	char *driver_config;
	enum perfev_tool_event tool;
	char *tp_system, *tp_name;
	double scale;
	char *unit;
};

struct perfev_evspec {
	struct perfev__event *ev;
	size_t n, cap;
};

void perfev__event_release(struct perfev__event *ev);
/* Move events [from, n) of @src to the end of @dst (both owned lists). */
int perfev__evspec_take(struct perfev_evspec *dst, struct perfev_evspec *src);
/* A deep copy of @src. */
int perfev__evspec_dup(const struct perfev_evspec *src, struct perfev_evspec **out);

/* event-names.c */
const struct perfev_symbol *perfev__symbol_lookup(const char *name, size_t len,
						  enum perfev_tool_event *tool);
int perfev__cache_type(const char *s, size_t len);
int perfev__cache_op(const char *s, size_t len);
int perfev__cache_result(const char *s, size_t len);
bool perfev__cache_op_valid(unsigned int cache, unsigned int op);
const char *perfev__cache_name(unsigned int cache);

/*
 * parse-terms.c: apply a call-graph mode to an attr (perfev_attr_set_callgraph()
 * without its checks); @stack_size 0 is the default.
 */
void perfev__apply_callgraph(struct perf_event_attr *attr, enum perfev_callgraph mode,
			     uint32_t stack_size);
/* A stack-size as the kernel takes it: 0 the default, rounded up to 8; -ERANGE above the most. */
int perfev__callgraph_stack_size(uint64_t size, uint32_t *out);

/* suggest.c: best matches for @word among the known names. */
struct perfev__suggest {
	const char *word;
	size_t len;
	unsigned int best;
	char out[160];
	size_t nout;
};
void perfev__suggest_init(struct perfev__suggest *s, const char *word, size_t len);
void perfev__suggest_add(struct perfev__suggest *s, const char *candidate);
/* "did you mean 'a' or 'b'?" into @buf, or "" when nothing is close. */
void perfev__suggest_hint(const struct perfev__suggest *s, char *buf, size_t len);

#endif /* PERFEV_PARSE_H */
