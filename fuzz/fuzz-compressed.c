// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer harness: a zstd stream as PERF_RECORD_COMPRESSED payloads.
 * The input's first byte says into how many pieces (1 to 8) the rest is
 * cut (bits 0-2), each carried by a COMPRESSED record with a
 * FINISHED_ROUND after it, and how the source reads them (bit 3), in a
 * stream of one cpu-clock event and the COMPRESSED feature.
 * The reader must hand out the records inside with their COMPRESSED
 * record's offset, stop at a bad payload with -EBADMSG, and at one past
 * the cap with -EFBIG, never holding more; the source must read the
 * same stream, in time order or raw.  The cap is lowered from its 64 MiB
 * (PERFEV_DATA_DECOMP_RECORD_MAX) to FUZZ_CAP, so that a bomb costs a
 * fraction of a millisecond, not a tenth of a second: the same code
 * path, at a thousand times the speed.  `make fuzz` and run-long.sh
 * run it with -rss_limit_mb=512, the bound of what one input may hold.
 * The largest zstd window a frame may ask for is lowered from 128 MiB
 * to 1 MiB (a larger one is -EBADMSG): zstd allocates what the frame
 * declares, and under ASan each such mapping and its shadow cost more
 * than the rest of the input.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/perfdata.h>
#include <perfev/source.h>
#include "../tests/unit/perfdata-synth.h"
#include "sample/perfdata-internal.h"
#include "no-coverage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Pieces up to a record's payload, a few of them. */
#define MAX_INPUT (8 * 65000)
/*
 * Records read before the harness stops: a payload may decompress to
 * FUZZ_CAP of 8-byte records, tens of thousands, which only cost time.
 */
#define MAX_RECORDS (1 << 14)
#define FUZZ_CAP    (256U << 10)
/* Frames asking for a window past 1 MiB are refused (-EBADMSG), see perfdata-internal.h. */
#define FUZZ_WINDOW_LOG 20

static volatile uint64_t sink;

/* Every byte read, so that ASan sees a record that is not all there. */
NO_COVERAGE static void touch(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t s = 0;

	for (size_t i = 0; i < n; i++)
		s += b[i];
	sink += s;
}

static bool ok_err(int err)
{
	return err == -EBADMSG || err == -EFBIG || err == -ENOMEM || err == -EPROTO;
}

/* The pipe-mode stream around @n pieces of @z. */
static void build(struct buf *o, const uint8_t *z, size_t zlen, unsigned int n)
{
	static const uint32_t feat[5] = {0, 1, 1, 4, 528384};
	struct perf_event_attr a;
	size_t piece = (zlen + n - 1) / n, off, k;

	clock_attr(&a, ST_CLOCK);
	b_u64(o, 0x32454c4946524550ULL); /* PERFILE2 */
	b_u64(o, 16);
	b_header(o, PERFEV_RECORD_HEADER_ATTR, 0, 8 + sizeof(a) + 8);
	b_put(o, &a, sizeof(a));
	b_u64(o, 7);
	b_header(o, PERFEV_RECORD_HEADER_FEATURE, 0, 16 + sizeof(feat));
	b_u64(o, PERFEV_FEAT_COMPRESSED);
	b_put(o, feat, sizeof(feat));
	for (off = 0; off < zlen; off += k) {
		k = zlen - off < piece ? zlen - off : piece;
		b_header(o, PERFEV_RECORD_COMPRESSED, 0, 8 + k);
		b_put(o, z + off, k);
		b_header(o, PERFEV_RECORD_FINISHED_ROUND, 0, 8);
	}
}

static void read_records(const struct buf *o)
{
	struct perfev_data_reader *r;
	struct perfev_data_record rec;
	uint64_t zoffset = UINT64_MAX;
	size_t n = 0;
	int ret = 0;

	if (perfev_data_open_mem(o->p, o->len, NULL, &r))
		abort();
	while (n++ < MAX_RECORDS && (ret = perfev_data_next(r, &rec)) == 1) {
		const unsigned char *b = rec.bytes;
		bool unzipped = perfev_data_record_decompressed(r);

		if (rec.size < 8 || rec.payload || (unzipped && rec.offset != zoffset) ||
		    (!unzipped && (b < o->p || b + rec.size > o->p + o->len)) ||
		    (unzipped && rec.type == PERFEV_RECORD_COMPRESSED))
			abort();
		if (rec.type == PERFEV_RECORD_COMPRESSED)
			zoffset = rec.offset;
		touch(b, rec.size);
	}
	if (n > MAX_RECORDS) {
		perfev_data_close(r);
		return;
	}
	if (ret && !ok_err(ret))
		abort();
	if (perfev_data_next(r, &rec) != ret)
		abort();
	perfev_data_close(r);
}

static void read_source(const struct buf *o, bool raw)
{
	struct perfev_source_opts so = {.sz = sizeof(so), .raw = raw};
	const struct perfev_source_event *ev;
	struct perfev_source *src;
	size_t n = 0;
	int ret = 0;

	if (perfev_source_open_mem(o->p, o->len, &so, &src))
		abort();
	while (n++ < MAX_RECORDS && (ret = perfev_source_next(src, &ev)) == 1) {
		sink += ev->size + ev->time + ev->period;
		if (ev->kind == PERFEV_SOURCE_SAMPLE && (!ev->rec || !ev->comm))
			abort();
		touch(ev->bytes, ev->size);
	}
	if (ret < 0 && !ok_err(ret))
		abort();
	perfev_source_free(src);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf o = {0};
	unsigned int n;

	if (size < 1 || size > MAX_INPUT)
		return 0;
	perfev__unzip_cap = FUZZ_CAP;
	perfev__unzip_window_log_max = FUZZ_WINDOW_LOG;
	n = (data[0] & 7) + 1;
	/* Each piece must fit a record. */
	if ((size - 1 + n - 1) / n > 65000)
		return 0;
	build(&o, data + 1, size - 1, n);
	read_records(&o);
	/* Through the source's time order, or (bit 3) raw: one of them per input. */
	read_source(&o, data[0] & 8);
	free(o.p);
	return 0;
}
