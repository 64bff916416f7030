// SPDX-License-Identifier: LGPL-2.1-or-later
/* Options and event opening shared by perfev record and perfev top. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sampling.h"

uint64_t cli_max_sample_rate(const struct cli_env *env)
{
	struct perfev_knobs k = {.sz = sizeof(k)};

	if (perfev_knobs_read(env->procfs_root, &k) || k.max_sample_rate <= 0)
		return 0;
	return (uint64_t)k.max_sample_rate;
}

uint64_t cli_parse_freq(const char *s, const struct cli_env *env, const char *const *usage,
			const struct option *opts)
{
	unsigned long long v;

	if (!strcmp(s, "max")) {
		v = cli_max_sample_rate(env);
		if (!v)
			cli_die("-F max: cannot read /proc/sys/kernel/perf_event_max_sample_rate");
		return v;
	}
	if (opt_parse_unsigned(s, UINT64_MAX, &v, NULL) || !v)
		usage_error(usage, opts, "-F expects a frequency in Hz or 'max', not '%s'", s);
	return v;
}

void cli_parse_call_graph(const char *s, enum perfev_callgraph *mode, uint32_t *stack,
			  const char *const *usage, const struct option *opts)
{
	unsigned long long v;
	const char *size;
	char *end;

	if (!strcmp(s, "fp")) {
		*mode = PERFEV_CALLGRAPH_FP;
		return;
	}
	if (!strcmp(s, "lbr"))
		cli_die("--call-graph lbr needs a PMU with last branch records, which "
			"perfev does not drive yet: use --call-graph fp or dwarf");
	if (strncmp(s, "dwarf", 5) || (s[5] && s[5] != ','))
		usage_error(usage, opts, "--call-graph expects fp, dwarf[,SIZE] or lbr, not '%s'",
			    s);
	*mode = PERFEV_CALLGRAPH_DWARF;
	*stack = 0;
	size = s[5] ? s + 6 : "";
	if (!*size)
		return;
	errno = 0;
	v = (*size >= '0' && *size <= '9') ? strtoull(size, &end, 0) : 0;
	if (!v || *end || errno || v > PERFEV_STACK_USER_MAX)
		usage_error(usage, opts,
			    "invalid stack dump size '%s' in --call-graph %s: give 1 to %u bytes "
			    "(default %u)",
			    size, s, PERFEV_STACK_USER_MAX, PERFEV_STACK_USER_DEFAULT);
	*stack = (uint32_t)((v + 7) & ~7ULL);
}

void cli_attr_set_rate(struct perf_event_attr *a, const struct perfev_event_info *info,
		       uint64_t count, bool freq_given, uint64_t freq)
{
	if (info->terms_set & (PERFEV_TERM_PERIOD | PERFEV_TERM_FREQ))
		return;
	if (count) {
		a->freq = 0;
		a->sample_period = count;
	} else if (info->attr->sample_period && !info->attr->freq && !freq_given) {
		a->freq = 0;
		a->sample_period = info->attr->sample_period;
	} else {
		a->freq = 1;
		a->sample_freq = freq;
	}
}

const char *cli_sampled_event_name(struct perfev_session *s, size_t ev)
{
	struct perfev_event_info info = {.sz = sizeof(info)};
	const struct perf_event_attr *a = perfev_session_event_attr(s, ev);

	perfev_session_event_info(s, ev, &info);
	/* A fallback changed the event itself (cycles -> cpu-clock): name what is sampled. */
	if (info.attr->type == PERF_TYPE_HARDWARE && a->type == PERF_TYPE_SOFTWARE &&
	    a->config == PERF_COUNT_SW_CPU_CLOCK)
		return "cpu-clock";
	return info.name;
}

bool cli_kernel_samples_possible(struct perfev_session *s)
{
	size_t i, n = perfev_session_event_count(s);

	for (i = 0; i < n; i++)
		if (perfev_session_event_state(s, i) == PERFEV_EVENT_OPEN &&
		    !perfev_session_event_attr(s, i)->exclude_kernel)
			return true;
	return false;
}

void cli_sampling_open_failed(struct perfev_evspec *spec, const struct perfev_session_error *e,
			      const char *verb)
{
	struct perfev_event_info info = {.sz = sizeof(info)};
	const char *ev = NULL;

	if (e->event >= 0 && !perfev_evspec_info(spec, (size_t)e->event, &info))
		ev = info.name;
	if (ev && e->pid > 0)
		cli_die("cannot %s '%s' on pid %d: %s", verb, ev, (int)e->pid, e->message);
	if (ev && e->cpu >= 0)
		cli_die("cannot %s '%s' on cpu %d: %s", verb, ev, e->cpu, e->message);
	if (ev)
		cli_die("cannot %s '%s': %s", verb, ev, e->message);
	cli_die("cannot start %s: %s", !strcmp(verb, "record") ? "recording" : "sampling",
		e->message);
}
