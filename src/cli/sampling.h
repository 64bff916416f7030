/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the commands that sample (perfev record, perfev top) share to
 * read their options and open their events, with perf's spellings.
 */
#ifndef PERFEV_CLI_SAMPLING_H
#define PERFEV_CLI_SAMPLING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "options.h"
#include "perfev-cli.h"

/* perf_event_max_sample_rate, or 0 when it cannot be read. */
uint64_t cli_max_sample_rate(const struct cli_env *env);
/* -F: a frequency in Hz or 'max'; a usage error (exit 2) otherwise. */
uint64_t cli_parse_freq(const char *s, const struct cli_env *env, const char *const *usage,
			const struct option *opts);
/*
 * --call-graph fp, dwarf[,SIZE] or lbr into *@mode and *@stack (dwarf's
 * user stack bytes, rounded up to a multiple of 8 as perf does; 0 the
 * default).  lbr is refused (exit 1), anything else a usage error.
 */
void cli_parse_call_graph(const char *s, enum perfev_callgraph *mode, uint32_t *stack,
			  const char *const *usage, const struct option *opts);
/*
 * How often event @info samples (@a its attr): the string's own period=
 * or freq= stay; else one sample every @count events (-c, when > 0), or
 * the event's own period (every hit of a tracepoint or a breakpoint)
 * unless -F was given (@freq_given), else @freq per second.
 */
void cli_attr_set_rate(struct perf_event_attr *a, const struct perfev_event_info *info,
		       uint64_t count, bool freq_given, uint64_t freq);
/* Event @ev's name as sampled: a fallback may have changed it (cycles -> cpu-clock). */
const char *cli_sampled_event_name(struct perfev_session *s, size_t ev);
/* Whether an event that was opened may sample the kernel. */
bool cli_kernel_samples_possible(struct perfev_session *s);
/* The session could not be opened: say which event where and why (@verb: "record"), exit 1. */
void cli_sampling_open_failed(struct perfev_evspec *spec, const struct perfev_session_error *e,
			      const char *verb) __attribute__((noreturn));

#endif /* PERFEV_CLI_SAMPLING_H */
