// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer harness: tracing data (perf.data's TRACING_DATA), parsed by
 * perfev_tracing_data_parse(), its formats looked up, and a raw record
 * printed and decoded with each.  Input: a little-endian u16 length N,
 * N bytes of raw record, then the tracing data.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/perfev.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Where the walk's loads go, so the compiler keeps them. */
static volatile uint64_t sink;

static uint64_t use_format(const struct perfev_tp_format *f, const uint8_t *raw, size_t n)
{
	char buf[512];
	uint64_t sum = 0, e;
	size_t i, k, nf = perfev_tp_format_field_count(f);
	int len;

	len = perfev_tp_format_print(f, raw, n, buf, sizeof(buf));
	if (len >= 0) {
		if (strlen(buf) != ((size_t)len < sizeof(buf) ? (size_t)len : sizeof(buf) - 1))
			abort();
		sum += (uint64_t)len;
	} else if (len != -EBADMSG && len != -EOPNOTSUPP && len != -ENOMEM) {
		abort();
	}
	for (i = 0; i < nf; i++) {
		struct perfev_tp_value v;
		int err = perfev_tp_format_value(f, i, raw, n, &v);

		if (err) {
			if (err != -EBADMSG)
				abort();
			continue;
		}
		switch (v.type) {
		case PERFEV_TP_VALUE_INT:
		case PERFEV_TP_VALUE_UINT:
			sum += v.u;
			break;
		case PERFEV_TP_VALUE_STRING:
			for (k = 0; k < v.len; k++)
				sum += (unsigned char)v.str[k];
			break;
		case PERFEV_TP_VALUE_ARRAY:
			for (k = 0; k < v.len; k++) {
				if (perfev_tp_value_elem(&v, k, &e))
					abort();
				sum += e;
			}
			break;
		}
	}
	return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfev_tracing_data *td = NULL;
	struct perfev_tracing_event ev;
	const struct perfev_tp_format *f;
	const uint8_t *raw = NULL, *blob = data;
	size_t nraw = 0, nblob = size, i, n;
	enum perfev_tracing_section s;
	uint64_t sum = 0;
	const char *text;
	int err;

	if (size > 1 << 20)
		return 0;
	if (size >= 2) {
		nraw = (size_t)data[0] | (size_t)data[1] << 8;
		if (nraw > size - 2)
			nraw = size - 2;
		raw = data + 2;
		blob = data + 2 + nraw;
		nblob = size - 2 - nraw;
	}
	err = perfev_tracing_data_parse(blob, nblob, &td);
	if (err) {
		if (err != -EBADMSG && err != -ENOMEM)
			abort();
		return 0;
	}
	sum += strlen(perfev_tracing_data_version(td)) + perfev_tracing_data_long_size(td) +
	       perfev_tracing_data_page_size(td) + perfev_tracing_data_big_endian(td);
	for (s = PERFEV_TRACING_HEADER_PAGE; s <= PERFEV_TRACING_SAVED_CMDLINES; s++)
		if (!perfev_tracing_data_section(td, s, &text, &n) && n)
			sum += (unsigned char)text[0] + (unsigned char)text[n - 1];
	n = perfev_tracing_data_event_count(td);
	/* Each format is parsed once; a few dozen keep an input fast. */
	for (i = 0; i < n && i < 32; i++) {
		if (perfev_tracing_data_event(td, i, &ev))
			abort();
		sum += strlen(ev.system) + ev.format_len;
		err = perfev_tracing_data_format(td, ev.id, &f);
		if (err) {
			if (err != -ENOENT && err != -EBADMSG && err != -ENOMEM)
				abort();
			continue;
		}
		if (perfev_tp_format_id(f) != ev.id)
			abort();
		sum += use_format(f, raw, nraw);
	}
	if (!perfev_tracing_data_event(td, n, &ev))
		abort();
	perfev_tracing_data_free(td);
	sink = sum;
	return 0;
}
