/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the perf.data harnesses (fuzz-perfdata, fuzz-perfdata-write,
 * fuzz-pipe) check of a reader: each record inside the input, every
 * attr and feature accessor agreeing with the bytes.  Included by each,
 * so its functions are static.
 */
#ifndef PERFEV_FUZZ_PERFDATA_CHECK_H
#define PERFEV_FUZZ_PERFDATA_CHECK_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/perfdata.h>
#include "no-coverage.h"

static volatile uint64_t sink;

static inline bool ok_err(int err)
{
	return err == -EBADMSG || err == -EPROTO || err == -ENOMEM || err == -EFBIG;
}

NO_COVERAGE static inline void touch(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t s = 0;

	for (size_t i = 0; i < n; i++)
		s += b[i];
	sink += s;
}

/* Every accessor of every feature; what they return must agree with the bytes. */
static inline void features(const struct perfev_data_reader *r)
{
	char small[4], big[512];
	const void *p;
	size_t len;
	uint64_t v;
	int f, n, m;
	unsigned int i;

	for (f = -1; f <= PERFEV_FEAT_MAX; f++) {
		if (!perfev_data_feature(r, f, &p, &len))
			touch(p, len);
		n = perfev_data_feature_string(r, f, big, sizeof(big));
		m = perfev_data_feature_string(r, f, small, sizeof(small));
		if (n != m || perfev_data_feature_string(r, f, NULL, 0) != n)
			abort();
		if (n >= 0) {
			if (strlen(small) != (size_t)(n < 3 ? n : 3) || strncmp(small, big, 3))
				abort();
			if (n < (int)sizeof(big) && strlen(big) != (size_t)n)
				abort();
		} else if (n != -ENOENT && n != -EINVAL && n != -EBADMSG) {
			abort();
		}
		for (i = 0; i < 3; i++) {
			n = perfev_data_feature_u64(r, f, i, &v);
			if (n && n != -ENOENT && n != -EINVAL && n != -EBADMSG)
				abort();
		}
	}
	/* The groups, until the last or a malformed one. */
	for (i = 0;; i++) {
		struct perfev_data_group g;

		n = perfev_data_group(r, i, &g);
		if (n) {
			if (n != -ENOENT && n != -ERANGE && n != -EBADMSG)
				abort();
			break;
		}
		if (!g.nr_members)
			abort();
		if (g.name)
			touch(g.name, strlen(g.name));
	}
}

static inline void check_attrs(const struct perfev_data_reader *r)
{
	size_t i, j, n = perfev_data_attr_count(r);

	for (i = 0; i < n; i++) {
		const struct perfev_data_attr *a = perfev_data_attr(r, i);

		if (!a || a->attr->size < 64)
			abort();
		touch(a->attr, a->attr->size > sizeof(*a->attr) ? a->attr->size : sizeof(*a->attr));
		touch(a->ids, a->nids * sizeof(*a->ids));
		if (a->name)
			touch(a->name, strlen(a->name));
		for (j = 0; j < a->nids; j++)
			if (!perfev_data_attr_by_id(r, a->ids[j]))
				abort();
	}
	if (perfev_data_attr(r, n))
		abort();
}

static inline bool owned(const struct perfev_data_reader *r, const struct perfev_data_attr *a)
{
	size_t i;

	for (i = 0; i < perfev_data_attr_count(r); i++)
		if (perfev_data_attr(r, i) == a)
			return true;
	return false;
}

/*
 * Record @rec that @r read from @data: inside the input at its offset
 * (or, decompressed, at its COMPRESSED record's, *@zoffset), its attr
 * the reader's, its sample decoded.  Returns whether it came out of a
 * COMPRESSED record.
 */
static inline bool check_record(const struct perfev_data_reader *r,
				const struct perfev_data_record *rec, const uint8_t *data,
				size_t size, uint64_t *zoffset)
{
	const unsigned char *b = rec->bytes;
	bool unzipped = perfev_data_record_decompressed(r);

	/* A COMPRESSED record's records are the reader's, with its offset. */
	if (rec->size < 8 || (rec->attr && !owned(r, rec->attr)) ||
	    (unzipped
		 ? rec->offset != *zoffset || rec->payload
		 : b < data || b + rec->size > data + size || rec->offset != (uint64_t)(b - data)))
		abort();
	if (rec->type == PERFEV_RECORD_COMPRESSED && !unzipped)
		*zoffset = rec->offset;
	if (rec->payload &&
	    ((const uint8_t *)rec->payload != b + rec->size ||
	     rec->payload_size > (uint64_t)(data + size - (const uint8_t *)rec->payload)))
		abort();
	touch(b, rec->size);
	if (rec->attr) {
		struct perfev_record out;
		int err = perfev_record_decode(&rec->attr->layout, b, rec->size, &out);

		if (err && err != -EBADMSG && err != -EINVAL)
			abort();
	}
	return unzipped;
}

#endif /* PERFEV_FUZZ_PERFDATA_CHECK_H */
