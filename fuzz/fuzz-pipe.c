// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer harness: perf.data streams read from a pipe (perf record -o -
 * writes pipe mode, its header and attrs as records) by the stream
 * reader, against the memory reader over the same bytes.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <perfev/perfdata.h>
#include "perfdata-check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The same bytes through a pipe: the stream reader (or, for file mode,
 * the copy it reads whole) must see exactly what the memory reader sees.
 */
static void stream(const uint8_t *data, size_t size)
{
	struct perfev_data_reader *r, *m;
	struct perfev_data_record rec, mrec;
	int fds[2], ret, mret;

	/* A pipe holds 64 KiB: no writer thread for inputs that fit. */
	if (size > 60000 || pipe(fds))
		return;
	if (write(fds[1], data, size) != (ssize_t)size)
		abort();
	close(fds[1]);
	ret = perfev_data_open_fd(fds[0], NULL, &r);
	mret = perfev_data_open_mem(data, size, NULL, &m);
	if (ret != mret)
		abort();
	if (ret) {
		close(fds[0]);
		return;
	}
	do {
		ret = perfev_data_next(r, &rec);
		mret = perfev_data_next(m, &mrec);
		if (ret != mret)
			abort();
		if (ret == 1 &&
		    (rec.type != mrec.type || rec.size != mrec.size || rec.offset != mrec.offset ||
		     memcmp(rec.bytes, mrec.bytes, rec.size) ||
		     rec.payload_size != mrec.payload_size ||
		     (rec.payload_size && memcmp(rec.payload, mrec.payload, rec.payload_size)) ||
		     perfev_data_attr_count(r) != perfev_data_attr_count(m)))
			abort();
	} while (ret == 1);
	features(r);
	perfev_data_close(r);
	perfev_data_close(m);
	close(fds[0]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	stream(data, size);
	return 0;
}
