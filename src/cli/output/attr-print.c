// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A perf_event_attr as text, field by field under perf's names: the
 * block of perfev attr, and of record's and stat's -v (perf -vv's).
 */
#include <string.h>
#include "attr-print.h"

void attr_print_value(FILE *f, const struct perfev_attr_field *fl)
{
	char buf[256];

	switch (fl->fmt) {
	case PERFEV_ATTR_FMT_HEX:
		fprintf(f, "%#llx", (unsigned long long)fl->value);
		break;
	case PERFEV_ATTR_FMT_SIGNED:
		fprintf(f, "%d", (int)(int32_t)fl->value);
		break;
	case PERFEV_ATTR_FMT_FLAGS:
		if (!strcmp(fl->key, "sample_type"))
			perfev_sample_type_str(fl->value, buf, sizeof(buf));
		else if (!strcmp(fl->key, "read_format"))
			perfev_read_format_str(fl->value, buf, sizeof(buf));
		else
			perfev_branch_type_str(fl->value, buf, sizeof(buf));
		fputs(buf[0] ? buf : "0", f);
		break;
	default:
		fprintf(f, "%llu", (unsigned long long)fl->value);
	}
}

struct field_out {
	FILE *f;
	const char *indent;
	bool all;
};

static int print_field(const struct perfev_attr_field *fl, void *ctx)
{
	struct field_out *o = ctx;

	/* Like perf -vv: zero fields are omitted unless every field is asked for. */
	if (!fl->value && !o->all && strcmp(fl->key, "type") && strcmp(fl->key, "size"))
		return 0;
	fprintf(o->f, "%s%-32s ", o->indent, fl->name);
	attr_print_value(o->f, fl);
	fputc('\n', o->f);
	return 0;
}

void attr_print_fields(FILE *f, const struct perf_event_attr *attr, const char *indent, bool all)
{
	struct field_out o = {.f = f, .indent = indent, .all = all};

	perfev_attr_foreach(attr, print_field, &o);
}
