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
	while ((ret = perfev_data_next(r, &rec)) == 1)
		check_record(r, &rec, data, size, &zoffset);
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
