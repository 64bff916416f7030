/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A perf_event_attr as text (attr-print.c). */
#ifndef PERFEV_CLI_ATTR_PRINT_H
#define PERFEV_CLI_ATTR_PRINT_H

#include <stdbool.h>
#include <stdio.h>
#include <perfev/attr.h>

/* One field's value: decimal, hex, signed or bit names, as perf -vv shows it. */
void attr_print_value(FILE *f, const struct perfev_attr_field *fl);
/* Each field on a line of its own after @indent; zero fields only with @all (type and size always).
 */
void attr_print_fields(FILE *f, const struct perf_event_attr *attr, const char *indent, bool all);

#endif /* PERFEV_CLI_ATTR_PRINT_H */
