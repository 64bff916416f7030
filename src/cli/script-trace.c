// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev script: tracepoint samples decoded with the formats of the
 * file's tracing data (the TRACING_DATA feature; in pipe mode the
 * PERF_RECORD_HEADER_TRACING_DATA record, which may come after the first
 * events).  The data is parsed at the first tracepoint sample, and again
 * if a stream sends new data.
 */
#include <errno.h>
#include <stdlib.h>
#include "perfev-cli.h"
#include "script.h"

/* The tracing data, (re)parsed when the file's feature bytes are new. */
static struct perfev_tracing_data *tracing_data(struct script *s)
{
	struct script_trace *t = &s->trace;
	const void *p;
	size_t len;
	int err;

	err = perfev_data_feature(s->r, PERFEV_FEAT_TRACING_DATA, &p, &len);
	if (err) {
		/* A stream sends it before its samples; a file may not have it at all. */
		t->err = err;
		return t->td;
	}
	if (p == t->src)
		return t->td;
	perfev_tracing_data_free(t->td);
	t->td = NULL;
	t->src = p;
	t->err = perfev_tracing_data_parse(p, len, &t->td);
	return t->td;
}

const struct perfev_tp_format *script_tp_format(struct script *s, size_t idx)
{
	const struct perfev_data_attr *a;
	const struct perfev_tp_format *fmt;
	struct perfev_tracing_data *td;
	int err;

	if (idx >= s->nev)
		return NULL;
	a = perfev_data_attr(s->r, idx);
	if (a->attr->type != PERF_TYPE_TRACEPOINT)
		return NULL;
	td = tracing_data(s);
	if (!td) {
		if (!s->trace.warned)
			cli_error("warning: cannot decode tracepoint samples: %s; their raw bytes "
				  "are shown",
				  s->trace.err == -ENOENT
				      ? "the file has no tracing data (TRACING_DATA feature)"
				      : "the file's tracing data is corrupt");
		s->trace.warned = true;
		return NULL;
	}
	err = perfev_tracing_data_format(td, a->attr->config, &fmt);
	if (err) {
		if (!s->ev[idx].tp_warned)
			cli_error("warning: cannot decode samples of '%s': %s tracepoint id %llu; "
				  "their raw bytes are shown",
				  script_event_name(s, idx),
				  err == -ENOENT ? "the tracing data has no format for"
						 : "the tracing data has a broken format for",
				  (unsigned long long)a->attr->config);
		s->ev[idx].tp_warned = true;
		return NULL;
	}
	return fmt;
}

const char *script_trace_text(struct script *s, size_t idx, const struct perfev_sample *smp)
{
	const struct perfev_tp_format *fmt = script_tp_format(s, idx);
	struct script_trace *t = &s->trace;
	int n;

	if (!fmt || !(smp->present & PERF_SAMPLE_RAW))
		return NULL;
	n = perfev_tp_format_print(fmt, smp->raw, smp->raw_size, t->buf, t->cap);
	if (n >= 0 && (size_t)n >= t->cap) {
		char *b = realloc(t->buf, (size_t)n + 1);

		if (!b)
			cli_die("out of memory");
		t->buf = b;
		t->cap = (size_t)n + 1;
		n = perfev_tp_format_print(fmt, smp->raw, smp->raw_size, t->buf, t->cap);
	}
	if (n < 0) {
		if (n == -ENOMEM)
			cli_die("out of memory");
		t->nr_raw++;
		return NULL;
	}
	return t->buf;
}

void script_trace_release(struct script *s)
{
	struct script_trace *t = &s->trace;

	if (t->nr_raw)
		cli_error("warning: %llu tracepoint samples could not be formatted (data outside "
			  "the record, or a print format perfev cannot check); their raw bytes "
			  "are shown",
			  (unsigned long long)t->nr_raw);
	perfev_tracing_data_free(t->td);
	free(t->buf);
	t->td = NULL;
	t->buf = NULL;
}
