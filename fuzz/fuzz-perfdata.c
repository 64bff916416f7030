// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer harness: perf.data bytes read whole from memory, each record
 * checked against the input (inside it, at its offset, its attr the
 * reader's, its sample decoded), then every attr and feature.  Writing a
 * copy is fuzz-perfdata-write's, reading a pipe fuzz-pipe's: this one
 * stays fast.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/perfdata.h>
#include "perfdata-check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT (1 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfev_data_reader *r;
	struct perfev_data_record rec;
	uint64_t zoffset = UINT64_MAX;
	bool unzipped;
	int ret;

	if (size > MAX_INPUT)
		return 0;
	ret = perfev_data_open_mem(data, size, NULL, &r);
	if (ret) {
		if (!ok_err(ret))
			abort();
		return 0;
	}
	check_attrs(r);
	while ((ret = perfev_data_next(r, &rec)) == 1) {
		const unsigned char *b = rec.bytes;

		/* A COMPRESSED record's records are the reader's, with its offset. */
		unzipped = perfev_data_record_decompressed(r);
		if (rec.size < 8 || (rec.attr && !owned(r, rec.attr)) ||
		    (unzipped ? rec.offset != zoffset || rec.payload
			      : b < data || b + rec.size > data + size ||
				    rec.offset != (uint64_t)(b - data)))
			abort();
		if (rec.type == PERFEV_RECORD_COMPRESSED && !unzipped)
			zoffset = rec.offset;
		if (rec.payload &&
		    ((const uint8_t *)rec.payload != b + rec.size ||
		     rec.payload_size > (uint64_t)(data + size - (const uint8_t *)rec.payload)))
			abort();
		touch(b, rec.size);
		if (rec.attr) {
			struct perfev_record out;
			int err = perfev_record_decode(&rec.attr->layout, b, rec.size, &out);

			if (err && err != -EBADMSG && err != -EINVAL)
				abort();
		}
	}
	if (ret && !ok_err(ret))
		abort();
	/* The end, or the error, stays. */
	if (perfev_data_next(r, &rec) != ret)
		abort();
	check_attrs(r);
	features(r);
	perfev_data_close(r);
	return 0;
}
