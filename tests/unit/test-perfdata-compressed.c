// SPDX-License-Identifier: LGPL-2.1-or-later
/* PERF_RECORD_COMPRESSED: records as perf compresses them, the writer's -z, bad payloads, bombs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <unistd.h>
#include <zstd.h>
#include <perfev/perfdata.h>
#include <perfev/source.h>
#include "harness.h"
#include "perfdata-synth.h"

#define COMPRESSED     81
#define FINISHED_ROUND 68

/* @n bytes of @src as one zstd stream, flushed but not ended (as perf 6.1 writes it). */
static void zflush(ZSTD_CCtx *c, struct buf *out, const void *src, size_t n)
{
	ZSTD_inBuffer in = {src, n, 0};
	unsigned char tmp[4096];
	size_t left;

	do {
		ZSTD_outBuffer o = {tmp, sizeof(tmp), 0};

		left = ZSTD_compressStream2(c, &o, &in, ZSTD_e_flush);
		if (ZSTD_isError(left))
			abort();
		b_put(out, tmp, o.pos);
	} while (left || in.pos < in.size);
}

/* A COMPRESSED record carrying @n bytes of payload. */
static void rec_compressed(struct buf *b, const void *payload, size_t n)
{
	b_header(b, COMPRESSED, 0, 8 + n);
	b_put(b, payload, n);
}

static void rec_round(struct buf *b)
{
	b_header(b, FINISHED_ROUND, 0, 8);
}

/* The COMPRESSED feature: version, zstd, level, ratio, mmap_len. */
static const uint32_t comp_feat[5] = {0, 1, 1, 4, 528384};

/* The file of @data with one cpu-clock event and the COMPRESSED feature. */
static void compressed_file(struct buf *f, const struct buf *data, struct flayout *lay)
{
	static struct perf_event_attr a;
	static const uint64_t ids[1] = {7};
	static const struct feat feats[1] = {
	    {PERFEV_FEAT_COMPRESSED, comp_feat, sizeof(comp_feat)}};
	struct fspec s = {.attrs = &a,
			  .nattrs = 1,
			  .ids = ids,
			  .nids_each = 1,
			  .data = data,
			  .feats = feats,
			  .nfeats = 1};

	clock_attr(&a, ST_CLOCK);
	mkfile(f, &s, lay);
}

/*
 * The plain records of basic_data() and 40 more samples, compressed as one
 * stream cut into two COMPRESSED records in the middle of a sample, with a
 * round after each; @plain gets the records.
 */
static void two_pieces(struct buf *data, struct buf *plain, size_t *cut_at)
{
	ZSTD_CCtx *c = ZSTD_createCCtx();
	struct buf z = {0};
	size_t cut, half;
	int i;

	basic_data(plain);
	for (i = 0; i < 40; i++)
		rec_sample(plain, 0x402000 + (uint64_t)i, 42, 5000 + (uint64_t)i, 100000);
	/*
	 * Flushed twice, the first time inside the 21st sample: the first
	 * piece (that flush and a few bytes more) decompresses to the records
	 * before it and part of it, the second to the rest.
	 */
	half = plain->len - 20 * 40 + 13;
	zflush(c, &z, plain->p, half);
	cut = z.len + 3;
	zflush(c, &z, plain->p + half, plain->len - half);
	data->len = 0;
	rec_compressed(data, z.p, cut);
	rec_round(data);
	rec_compressed(data, z.p + cut, z.len - cut);
	rec_round(data);
	*cut_at = cut;
	ZSTD_freeCCtx(c);
	free(z.p);
}

/* Read @r to the end: the plain records in @want, COMPRESSED and rounds apart. */
static void check_records(struct perfev_data_reader *r, const struct buf *want, size_t data_off)
{
	struct perfev_data_record rec;
	size_t got = 0, ncomp = 0, nround = 0;
	uint64_t zoff = 0;
	int ret;

	while ((ret = perfev_data_next(r, &rec)) == 1) {
		if (rec.type == COMPRESSED) {
			CHECK(!perfev_data_record_decompressed(r));
			CHECK(rec.attr == NULL);
			zoff = rec.offset;
			CHECK(zoff >= data_off);
			ncomp++;
			continue;
		}
		if (rec.type == FINISHED_ROUND) {
			CHECK(!perfev_data_record_decompressed(r));
			nround++;
			continue;
		}
		CHECK(perfev_data_record_decompressed(r));
		CHECK_U64(rec.offset, zoff);
		CHECK(rec.attr == perfev_data_attr(r, 0));
		CHECK(got + rec.size <= want->len && !memcmp(rec.bytes, want->p + got, rec.size));
		got += rec.size;
	}
	CHECK_INT(ret, 0);
	CHECK_INT(ncomp, 2);
	CHECK_INT(nround, 2);
	CHECK_U64(got, want->len);
}

/* perf's layout, file and pipe mode: each record once, in order, with its COMPRESSED's offset. */
TEST(decompress_spanning_records)
{
	struct buf data = {0}, plain = {0}, f = {0}, p = {0};
	struct perfev_data_reader *r;
	struct perf_event_attr a;
	struct flayout lay;
	size_t cut;

	two_pieces(&data, &plain, &cut);
	compressed_file(&f, &data, &lay);
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), 0);
	check_records(r, &plain, lay.data);
	perfev_data_close(r);

	/* Pipe mode: attr, the feature record, then the same records. */
	clock_attr(&a, ST_CLOCK);
	b_u64(&p, 0x32454c4946524550ULL);
	b_u64(&p, 16);
	b_header(&p, PERFEV_RECORD_HEADER_ATTR, 0, 8 + sizeof(a) + 8);
	b_put(&p, &a, sizeof(a));
	b_u64(&p, 7);
	b_header(&p, PERFEV_RECORD_HEADER_FEATURE, 0, 16 + sizeof(comp_feat));
	b_u64(&p, PERFEV_FEAT_COMPRESSED);
	b_put(&p, comp_feat, sizeof(comp_feat));
	b_put(&p, data.p, data.len);
	CHECK_INT(perfev_data_open_mem(p.p, p.len, NULL, &r), 0);
	check_records(r, &plain, 16);
	perfev_data_close(r);
	free(data.p);
	free(plain.p);
	free(f.p);
	free(p.p);
}

/* The source hands out the same samples as from the plain file (it copies what it queues). */
TEST(source_same_as_plain)
{
	struct buf data = {0}, plain = {0}, f = {0}, g = {0};
	struct perfev_source *zs, *ps;
	const struct perfev_source_event *ze, *pe;
	struct flayout lay;
	size_t cut, n = 0;
	int zr, pr;

	two_pieces(&data, &plain, &cut);
	rec_round(&plain);
	compressed_file(&f, &data, &lay);
	compressed_file(&g, &plain, &lay);
	CHECK_INT(perfev_source_open_mem(f.p, f.len, NULL, &zs), 0);
	CHECK_INT(perfev_source_open_mem(g.p, g.len, NULL, &ps), 0);
	for (;;) {
		do
			zr = perfev_source_next(zs, &ze);
		while (zr == 1 && ze->kind != PERFEV_SOURCE_SAMPLE);
		do
			pr = perfev_source_next(ps, &pe);
		while (pr == 1 && pe->kind != PERFEV_SOURCE_SAMPLE);
		CHECK_INT(zr, pr);
		if (zr != 1)
			break;
		CHECK_U64(ze->rec->u.sample.ip, pe->rec->u.sample.ip);
		CHECK_U64(ze->time, pe->time);
		CHECK_STR(ze->comm, pe->comm);
		n++;
	}
	CHECK_INT(n, 43);
	perfev_source_free(zs);
	perfev_source_free(ps);
	free(data.p);
	free(plain.p);
	free(f.p);
	free(g.p);
}

/* Read to the end; returns the last result and counts the records before it. */
static int read_all(const struct buf *f, size_t *n)
{
	struct perfev_data_reader *r;
	struct perfev_data_record rec;
	int ret;

	*n = 0;
	ret = perfev_data_open_mem(f->p, f->len, NULL, &r);
	if (ret)
		return ret;
	while ((ret = perfev_data_next(r, &rec)) == 1)
		(*n)++;
	if (perfev_data_next(r, &rec) != ret) /* the error sticks */
		ret = -ENOTRECOVERABLE;
	perfev_data_close(r);
	return ret;
}

/* A payload cut short (its record framed whole), garbage, a record cut at the end. */
TEST(decompress_bad_payloads)
{
	ZSTD_CCtx *c = ZSTD_createCCtx();
	struct buf plain = {0}, z = {0}, data = {0}, f = {0};
	unsigned char junk[200];
	struct flayout lay;
	size_t n, i;

	basic_data(&plain);
	zflush(c, &z, plain.p, plain.len);

	/* The whole stream: COMPRESSED and its four records. */
	rec_compressed(&data, z.p, z.len);
	compressed_file(&f, &data, &lay);
	CHECK_INT(read_all(&f, &n), 0);
	CHECK_INT(n, 5);

	/* The frame cut inside its block: its records are missing, which is an error. */
	data.len = 0;
	rec_compressed(&data, z.p, z.len - 5);
	compressed_file(&f, &data, &lay);
	CHECK_INT(read_all(&f, &n), -EBADMSG);
	CHECK_INT(n, 1);

	/* Not zstd at all. */
	for (i = 0; i < sizeof(junk); i++)
		junk[i] = (unsigned char)(i * 37 + 11);
	data.len = 0;
	rec_compressed(&data, junk, sizeof(junk));
	compressed_file(&f, &data, &lay);
	CHECK_INT(read_all(&f, &n), -EBADMSG);
	CHECK_INT(n, 1);

	/* A record whose end never comes: the stream holds a sample cut in half. */
	z.len = 0;
	ZSTD_CCtx_reset(c, ZSTD_reset_session_only);
	zflush(c, &z, plain.p, plain.len - 8);
	data.len = 0;
	rec_compressed(&data, z.p, z.len);
	compressed_file(&f, &data, &lay);
	CHECK_INT(read_all(&f, &n), -EBADMSG);
	CHECK_INT(n, 4);

	/* A record inside that has data after it (AUXTRACE), and one inside another. */
	for (i = 0; i < 2; i++) {
		struct buf in = {0};

		if (i == 0) {
			b_header(&in, PERFEV_RECORD_AUXTRACE, 0, 48);
			b_u64(&in, 8);
			b_zero(&in, 32 + 8);
		} else {
			b_header(&in, COMPRESSED, 0, 16);
			b_zero(&in, 8);
		}
		z.len = 0;
		ZSTD_CCtx_reset(c, ZSTD_reset_session_only);
		zflush(c, &z, in.p, in.len);
		data.len = 0;
		rec_compressed(&data, z.p, z.len);
		compressed_file(&f, &data, &lay);
		CHECK_INT(read_all(&f, &n), -EBADMSG);
		CHECK_INT(n, 1);
		free(in.p);
	}
	ZSTD_freeCCtx(c);
	free(plain.p);
	free(z.p);
	free(data.p);
	free(f.p);
}

/* @n bytes of FINISHED_ROUND records (8 bytes each, all alike: they compress without end). */
static void rounds_stream(ZSTD_CCtx *c, struct buf *z, size_t n)
{
	static unsigned char chunk[1 << 20];
	size_t i;

	for (i = 0; i < sizeof(chunk); i += 8) {
		uint32_t type = FINISHED_ROUND;
		uint16_t size = 8;

		memcpy(chunk + i, &type, 4);
		memset(chunk + i + 4, 0, 2);
		memcpy(chunk + i + 6, &size, 2);
	}
	for (i = 0; i < n; i += sizeof(chunk))
		zflush(c, z, chunk, n - i < sizeof(chunk) ? n - i : sizeof(chunk));
}

/*
 * Past the cap: -EFBIG once the records before it are read, never the memory it asks for
 * (a piece is decompressed a window at a time: tests/cli/test-hostile.sh checks the peak).
 */
TEST(decompress_bomb)
{
	ZSTD_CCtx *c = ZSTD_createCCtx();
	struct buf z = {0}, data = {0}, f = {0};
	struct flayout lay;
	size_t n, piece;

	/* One record that expands past PERFEV_DATA_DECOMP_RECORD_MAX. */
	rounds_stream(c, &z, PERFEV_DATA_DECOMP_RECORD_MAX + (1 << 20));
	CHECK(z.len < 65000);
	rec_compressed(&data, z.p, z.len);
	compressed_file(&f, &data, &lay);
	CHECK_INT(read_all(&f, &n), -EFBIG);
	CHECK(n > 1 && n <= 1 + PERFEV_DATA_DECOMP_RECORD_MAX / 8);

	/* Exactly the cap in one record is fine: the whole of it is read. */
	z.len = 0;
	data.len = 0;
	ZSTD_CCtx_reset(c, ZSTD_reset_session_only);
	rounds_stream(c, &z, PERFEV_DATA_DECOMP_RECORD_MAX);
	rec_compressed(&data, z.p, z.len);
	compressed_file(&f, &data, &lay);
	CHECK_INT(read_all(&f, &n), 0);
	CHECK_U64(n, 1 + PERFEV_DATA_DECOMP_RECORD_MAX / 8);

	/* Records under the cap each, more than it together: the reader holds one at a time. */
	z.len = 0;
	data.len = 0;
	ZSTD_CCtx_reset(c, ZSTD_reset_session_only);
	for (piece = 0; piece < 3; piece++) {
		z.len = 0;
		rounds_stream(c, &z, 40 << 20);
		rec_compressed(&data, z.p, z.len);
	}
	compressed_file(&f, &data, &lay);
	CHECK_INT(read_all(&f, &n), 0);
	CHECK_U64(n, 3 + 3 * (40ULL << 20) / 8);
	ZSTD_freeCCtx(c);
	free(z.p);
	free(data.p);
	free(f.p);
}

/* Write @nsamples samples (and a round every 1000) with @level into @path, pipe or file mode. */
static void write_file(const char *path, int level, bool pipe, int nsamples, struct buf *plain)
{
	struct perfev_data_write_opts o = {.sz = sizeof(o), .compress_level = level, .pipe = pipe};
	struct perfev_data_writer *w;
	struct perf_event_attr a;
	struct buf b = {0};
	uint64_t id = 7, in, out;
	int i;

	clock_attr(&a, ST_CLOCK);
	o.fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(o.fd >= 0);
	CHECK_INT(perfev_data_create(NULL, &o, &w), 0);
	CHECK_INT(perfev_data_add_attr(w, &a, "cpu-clock", &id, 1), 0);
	plain->len = 0;
	rec_comm(plain, 42, "work", 1000);
	CHECK_INT(perfev_data_write(w, plain->p, plain->len), 0);
	for (i = 0; i < nsamples; i++) {
		b.len = 0;
		rec_sample(&b, 0x401000 + (uint64_t)(i % 97) * 8, 42, 2000 + (uint64_t)i, 100000);
		CHECK_INT(perfev_data_write(w, b.p, b.len), 0);
		b_put(plain, b.p, b.len);
		if (i % 1000 == 999) {
			b.len = 0;
			rec_round(&b);
			CHECK_INT(perfev_data_write(w, b.p, b.len), 0);
		}
	}
	CHECK_INT(perfev_data_finish(w), 0);
	CHECK_INT(perfev_data_compression(w, &in, &out), level ? 0 : -ENOENT);
	if (level) {
		CHECK_U64(in, plain->len);
		CHECK(out > 0 && out < in);
	}
	perfev_data_writer_free(w);
	close(o.fd);
	free(b.p);
}

/* perfev's -z: what it writes reads back the same, with the feature perf needs. */
TEST(writer_roundtrip)
{
	char path[] = "/tmp/perfev-zXXXXXX";
	struct perfev_data_reader *r;
	struct perfev_data_record rec;
	struct buf plain = {0};
	const void *feat;
	uint32_t fv[5];
	size_t flen, got, ncomp;
	int fd, ret, pipe;

	fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	/* 30000 samples: 1.2 MB of records, several batches and pieces. */
	for (pipe = 0; pipe < 2; pipe++) {
		write_file(path, 3, pipe, 30000, &plain);
		CHECK_INT(perfev_data_open(path, NULL, &r), 0);
		got = ncomp = 0;
		while ((ret = perfev_data_next(r, &rec)) == 1) {
			if (rec.type == COMPRESSED) {
				/* A stream brings the feature before the first one. */
				if (!ncomp) {
					CHECK_INT(perfev_data_feature(r, PERFEV_FEAT_COMPRESSED,
								      &feat, &flen),
						  0);
					CHECK_INT(flen, sizeof(fv));
					memcpy(fv, feat, sizeof(fv));
					CHECK_INT(fv[1], 1);
					CHECK_INT(fv[2], 3);
					CHECK(pipe ? fv[3] == 0 : fv[3] >= 2);
					CHECK_INT(fv[4], 512 * 1024);
				}
				ncomp++;
				continue;
			}
			if (rec.type >= 64)
				continue;
			CHECK(perfev_data_record_decompressed(r));
			CHECK(got + rec.size <= plain.len &&
			      !memcmp(rec.bytes, plain.p + got, rec.size));
			got += rec.size;
		}
		CHECK_INT(ret, 0);
		CHECK_U64(got, plain.len);
		CHECK(ncomp >= 3);
		perfev_data_close(r);
	}
	/* Without a level nothing is compressed; out of range is refused. */
	write_file(path, 0, false, 10, &plain);
	CHECK_INT(perfev_data_open(path, NULL, &r), 0);
	CHECK_INT(perfev_data_feature(r, PERFEV_FEAT_COMPRESSED, NULL, NULL), -ENOENT);
	while ((ret = perfev_data_next(r, &rec)) == 1)
		CHECK(rec.type != COMPRESSED && !perfev_data_record_decompressed(r));
	perfev_data_close(r);
	{
		struct perfev_data_write_opts o = {.sz = sizeof(o), .compress_level = 23};
		struct perfev_data_writer *w = NULL;

		CHECK_INT(perfev_data_create(path, &o, &w), -EINVAL);
		o.compress_level = -1;
		CHECK_INT(perfev_data_create(path, &o, &w), -EINVAL);
		CHECK(w == NULL);
	}
	unlink(path);
	free(plain.p);
}
