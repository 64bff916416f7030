// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * PERF_RECORD_COMPRESSED, as perf record -z writes it: the payload of
 * each such record is the next piece of one zstd stream (perf 6.1 keeps
 * a single frame open for the whole recording and flushes it after each
 * ring read, so a piece need not start or end a frame), and the stream
 * is a sequence of ordinary records.  A record may begin in one piece
 * and end in the next.
 *
 * The reader's side decompresses a piece a window at a time, as its
 * records are taken, and stops at the cap of perfev/perfdata.h; the
 * writer's side stages records and compresses a batch at a time.
 */
#include <errno.h>
#include <stdlib.h>
#include <zstd.h>
#include "common/internal.h"
#include "sample/perfdata-internal.h"

#define pr_err(...) perfev__log(PERFEV_LOG_ERROR, __VA_ARGS__)

/* The header of PERF_RECORD_COMPRESSED: the payload follows it. */
#define ZREC_HDR 8
/* The most payload one record holds: its size is a u16 (perf does not pad it to 8). */
#define ZREC_PAYLOAD_MAX (UINT16_MAX - ZREC_HDR)
/*
 * The decompression buffer starts this large and doubles up to the
 * window: a piece is decompressed a window at a time, as its records are
 * taken, so that what the reader holds stays bounded whatever a piece
 * expands to (a record, at most 64 KiB, always fits).
 */
#define UNZIP_MIN    (64U * 1024)
#define UNZIP_WINDOW (1U << 20)
/*
 * zstd's hint of the input it wants next, when a piece ends where perf
 * flushes (the header of the next block), or 0 after a frame ends.
 * More means the data stops inside a block.
 */
#define ZSTD_BLOCK_HEADER 3

/* ---- reading ------------------------------------------------------------------------- */

uint64_t perfev__unzip_cap = PERFEV_DATA_DECOMP_RECORD_MAX;
int perfev__unzip_window_log_max;

struct perfev__unzip {
	ZSTD_DStream *ds;
	unsigned char *buf; /* decompressed records from @head to @len */
	size_t cap, head, len;
	size_t hint;	  /* what zstd wants next, after the last piece */
	ZSTD_inBuffer in; /* the piece being decompressed */
	uint64_t offset;  /* of its COMPRESSED record */
	size_t produced;  /* the bytes it has expanded to so far */
	unsigned int stuck;
	bool done; /* no piece, or the whole piece decompressed */
};

int perfev__unzip_new(struct perfev__unzip **out)
{
	struct perfev__unzip *z = calloc(1, sizeof(*z));

	if (!z)
		return -ENOMEM;
	z->done = true;
	z->ds = ZSTD_createDStream();
	if (!z->ds || ZSTD_isError(ZSTD_initDStream(z->ds)) ||
	    (perfev__unzip_window_log_max &&
	     ZSTD_isError(ZSTD_DCtx_setParameter(z->ds, ZSTD_d_windowLogMax,
						 perfev__unzip_window_log_max)))) {
		perfev__unzip_free(z);
		return -ENOMEM;
	}
	*out = z;
	return 0;
}

void perfev__unzip_free(struct perfev__unzip *z)
{
	if (!z)
		return;
	ZSTD_freeDStream(z->ds);
	free(z->buf);
	free(z);
}

/* More of the piece decompressed behind the records not yet taken, up to the window. */
static int unzip_fill(struct perfev__unzip *z)
{
	size_t ret, newcap;

	/* What the records taken used is given back; the rest moves to the front. */
	if (z->head) {
		memmove(z->buf, z->buf + z->head, z->len - z->head);
		z->len -= z->head;
		z->head = 0;
	}
	while (!z->done) {
		if (z->len == z->cap) {
			if (z->cap >= UNZIP_WINDOW)
				return 0; /* full: its records are taken first */
			newcap = z->cap < UNZIP_MIN ? UNZIP_MIN : z->cap * 2;
			if (perfev__grow(&z->buf, &z->cap, newcap, 1))
				return -ENOMEM;
		}
		ZSTD_outBuffer out = {z->buf, z->cap, z->len};
		size_t before_in = z->in.pos;

		ret = ZSTD_decompressStream(z->ds, &out, &z->in);
		if (ZSTD_isError(ret)) {
			pr_err("the PERF_RECORD_COMPRESSED record at offset %#llx does not "
			       "decompress: %s",
			       (unsigned long long)z->offset, ZSTD_getErrorName(ret));
			return -EBADMSG;
		}
		z->produced += out.pos - z->len;
		if (z->produced > perfev__unzip_cap) {
			pr_err("the PERF_RECORD_COMPRESSED record at offset %#llx expands past "
			       "%llu MiB, perfev's cap against decompression bombs",
			       (unsigned long long)z->offset,
			       (unsigned long long)(perfev__unzip_cap >> 20));
			return -EFBIG;
		}
		/* Neither side moved with room on both: the stream is damaged. */
		z->stuck = out.pos == z->len && z->in.pos == before_in && out.pos < out.size
			       ? z->stuck + 1
			       : 0;
		z->len = out.pos;
		if (z->stuck > 2) {
			pr_err("the PERF_RECORD_COMPRESSED record at offset %#llx does not "
			       "decompress: the stream makes no progress",
			       (unsigned long long)z->offset);
			return -EBADMSG;
		}
		/* Done when the input is used up and the output had room left. */
		if (z->in.pos == z->in.size && out.pos < out.size) {
			z->hint = ret;
			z->done = true;
		}
	}
	return 0;
}

int perfev__unzip_feed(struct perfev__unzip *z, const void *payload, size_t n, uint64_t offset)
{
	z->in = (ZSTD_inBuffer){payload, n, 0};
	z->offset = offset;
	z->produced = 0;
	z->stuck = 0;
	z->done = false;
	return unzip_fill(z);
}

int perfev__unzip_next(struct perfev__unzip *z, const unsigned char **rec)
{
	uint16_t size;
	size_t had;
	int ret;

	for (;;) {
		if (z->len - z->head >= ZREC_HDR) {
			size = perfev__pd_u16(z->buf + z->head + 6);
			if (size < 8) {
				pr_err("the records of the PERF_RECORD_COMPRESSED record at offset "
				       "%#llx are corrupt: a record shorter than its header",
				       (unsigned long long)z->offset);
				return -EBADMSG;
			}
			if (size <= z->len - z->head) {
				*rec = z->buf + z->head;
				z->head += size;
				return 1;
			}
		}
		if (z->done)
			return 0; /* the rest is in the next piece */
		had = z->len - z->head;
		ret = unzip_fill(z);
		if (ret)
			return ret;
		if (z->len == had && !z->done)
			return -EBADMSG; /* cannot happen: a window holds any record */
	}
}

int perfev__unzip_end(const struct perfev__unzip *z, uint64_t offset)
{
	if (!z)
		return 0;
	if (z->head < z->len) {
		pr_err("the data ends inside a record of the PERF_RECORD_COMPRESSED record at "
		       "offset %#llx",
		       (unsigned long long)offset);
		return -EBADMSG;
	}
	if (z->hint > ZSTD_BLOCK_HEADER) {
		pr_err("the data ends inside a zstd block of the PERF_RECORD_COMPRESSED record at "
		       "offset %#llx: its records are cut short",
		       (unsigned long long)offset);
		return -EBADMSG;
	}
	return 0;
}

/* ---- writing ------------------------------------------------------------------------- */

struct perfev__zip {
	ZSTD_CStream *cs;
	unsigned char *stage; /* records waiting for the next batch */
	size_t slen;
	unsigned char *rec; /* one PERF_RECORD_COMPRESSED being filled */
	uint64_t plain, packed;
};

int perfev__zip_new(int level, struct perfev__zip **out)
{
	struct perfev__zip *z = calloc(1, sizeof(*z));

	if (!z)
		return -ENOMEM;
	z->cs = ZSTD_createCStream();
	z->stage = malloc(PERFEV__ZIP_BATCH);
	z->rec = malloc(ZREC_HDR + ZREC_PAYLOAD_MAX);
	if (!z->cs || !z->stage || !z->rec ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(z->cs, ZSTD_c_compressionLevel, level))) {
		perfev__zip_free(z);
		return -ENOMEM;
	}
	*out = z;
	return 0;
}

void perfev__zip_free(struct perfev__zip *z)
{
	if (!z)
		return;
	ZSTD_freeCStream(z->cs);
	free(z->stage);
	free(z->rec);
	free(z);
}

bool perfev__zip_room(const struct perfev__zip *z, size_t n)
{
	return n <= PERFEV__ZIP_BATCH - z->slen;
}

void perfev__zip_add(struct perfev__zip *z, const void *p, size_t n)
{
	memcpy(z->stage + z->slen, p, n);
	z->slen += n;
	z->plain += n;
}

/*
 * The batch compressed and flushed (the frame stays open, as perf keeps
 * it), as one PERF_RECORD_COMPRESSED per 64 KiB of output handed to @emit.
 * Since no piece holds more than one batch, none decompresses to more
 * than PERFEV__ZIP_BATCH bytes: the mmap_len of the COMPRESSED feature,
 * which perf's reader takes for the size of its buffer.
 */
int perfev__zip_flush(struct perfev__zip *z, int (*emit)(void *ctx, const void *p, size_t n),
		      void *ctx)
{
	ZSTD_inBuffer in = {z->stage, z->slen, 0};
	size_t left;
	uint16_t size;
	uint32_t type = PERFEV_RECORD_COMPRESSED;
	int ret;

	if (!z->slen)
		return 0;
	do {
		ZSTD_outBuffer out = {z->rec + ZREC_HDR, ZREC_PAYLOAD_MAX, 0};

		left = ZSTD_compressStream2(z->cs, &out, &in, ZSTD_e_flush);
		if (ZSTD_isError(left))
			return -ENOMEM; /* zstd fails only for want of memory here */
		if (!out.pos)
			continue;
		size = (uint16_t)(ZREC_HDR + out.pos);
		memset(z->rec, 0, ZREC_HDR);
		memcpy(z->rec, &type, sizeof(type));
		memcpy(z->rec + 6, &size, sizeof(size));
		ret = emit(ctx, z->rec, size);
		if (ret)
			return ret;
		z->packed += size;
	} while (left || in.pos < in.size);
	z->slen = 0;
	return 0;
}

void perfev__zip_counts(const struct perfev__zip *z, uint64_t *plain, uint64_t *packed)
{
	*plain = z->plain;
	*packed = z->packed;
}
