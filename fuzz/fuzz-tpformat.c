// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer harness: tracepoint format files, parsed by perfev_tp_format_parse(). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/perfev.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Where the walk's loads go, so the compiler keeps them. */
static volatile uint64_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfev_tp_format *f = NULL;
	uint64_t sum = 0;
	size_t i, n;
	int err;

	if (size > 65536)
		return 0;
	/* The fuzzer's buffer holds exactly @size bytes: reading past it is a finding. */
	err = perfev_tp_format_parse("sys", (const char *)data, size, &f);
	if (err) {
		if (err != -EBADMSG && err != -ENOMEM)
			abort();
		return 0;
	}
	if (!f || !perfev_tp_format_name(f) || strcmp(perfev_tp_format_system(f), "sys"))
		abort();
	sum += strlen(perfev_tp_format_name(f)) + perfev_tp_format_id(f);
	if (perfev_tp_format_print_fmt(f))
		sum += strlen(perfev_tp_format_print_fmt(f));
	n = perfev_tp_format_field_count(f);
	for (i = 0; i < n; i++) {
		const struct perfev_tp_field *fl = perfev_tp_format_field(f, i);

		if (!fl || !fl->name)
			abort();
		sum += strlen(fl->name) + fl->offset + fl->size + fl->arraylen + fl->is_signed +
		       fl->is_common + fl->is_dynamic;
		if (fl->type)
			sum += strlen(fl->type);
	}
	if (perfev_tp_format_field(f, n))
		abort();
	perfev_tp_format_free(f);
	sink = sum;
	return 0;
}
