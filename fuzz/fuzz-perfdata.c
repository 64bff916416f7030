// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer harness: perf.data bytes read whole, then copied through the writer and read again. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <perfev/perfdata.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT (1 << 20)

static volatile uint64_t sink;

static bool ok_err(int err)
{
	return err == -EBADMSG || err == -EPROTO || err == -ENOMEM || err == -EFBIG;
}

static void touch(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t s = 0;

	for (size_t i = 0; i < n; i++)
		s += b[i];
	sink += s;
}

/* Every accessor of every feature; what they return must agree with the bytes. */
static void features(const struct perfev_data_reader *r)
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

static void check_attrs(const struct perfev_data_reader *r)
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

static bool owned(const struct perfev_data_reader *r, const struct perfev_data_attr *a)
{
	size_t i;

	for (i = 0; i < perfev_data_attr_count(r); i++)
		if (perfev_data_attr(r, i) == a)
			return true;
	return false;
}

/* A memory file the writer writes into, reused for every input. */
static int out_fd = -1;

static void *written(size_t *len)
{
	struct stat st;
	void *p;

	if (fstat(out_fd, &st))
		abort();
	*len = (size_t)st.st_size;
	p = malloc(*len ? *len : 1);
	if (!p || pread(out_fd, p, *len, 0) != (ssize_t)*len)
		abort();
	return p;
}

/* The writer refuses, with these, what a reader may accept. */
static bool write_refused(int err)
{
	return err == -EINVAL || err == -EMSGSIZE;
}

struct copy_state {
	struct perfev_data_writer *w;
	size_t added;
	const void *copied[PERFEV_FEAT_MAX]; /* a stream may send a feature again */
	size_t copied_len[PERFEV_FEAT_MAX];
};

static int sync_header(const struct perfev_data_reader *r, struct copy_state *c)
{
	const void *p;
	size_t len;
	int f, ret = 0;

	for (; !ret && c->added < perfev_data_attr_count(r); c->added++) {
		const struct perfev_data_attr *a = perfev_data_attr(r, c->added);

		ret = perfev_data_add_attr(c->w, a->attr, a->name, a->ids, a->nids);
	}
	for (f = 1; !ret && f < PERFEV_FEAT_MAX; f++) {
		if (perfev_data_feature(r, f, &p, &len) ||
		    (c->copied[f] == p && c->copied_len[f] == len))
			continue;
		ret = perfev_data_set_feature(c->w, f, p, len);
		c->copied[f] = p;
		c->copied_len[f] = len;
	}
	return ret;
}

/*
 * Read the input, copying it through the writer; then, for file mode,
 * read the copy: the same records, the same features.
 */
static void run(const uint8_t *data, size_t size, bool pipe_out)
{
	struct perfev_data_write_opts o = {.sz = sizeof(o), .pipe = pipe_out, .fd = out_fd};
	struct perfev_data_reader *r, *r2;
	struct perfev_data_record rec, rec2;
	struct copy_state c = {0};
	size_t nrec = 0, len, i;
	uint64_t zoffset = UINT64_MAX;
	bool copying, unzipped;
	int ret, wret = 0;
	void *copy;

	ret = perfev_data_open_mem(data, size, NULL, &r);
	if (ret) {
		if (!ok_err(ret))
			abort();
		return;
	}
	if (ftruncate(out_fd, 0) || lseek(out_fd, 0, SEEK_SET))
		abort();
	if (perfev_data_create(NULL, &o, &c.w))
		abort();
	copying = true;
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
		nrec++;
		/* The copy holds the COMPRESSED record, which brings them again. */
		if (!copying || unzipped)
			continue;
		wret = sync_header(r, &c);
		if (!wret)
			wret = perfev_data_write(c.w, b, rec.size + (size_t)rec.payload_size);
		if (wret) {
			if (!write_refused(wret))
				abort();
			copying = false;
		}
	}
	if (ret && !ok_err(ret))
		abort();
	check_attrs(r);
	features(r);
	if (copying && !ret)
		wret = sync_header(r, &c);
	if (wret && !write_refused(wret))
		abort();
	if (perfev_data_finish(c.w) || perfev_data_written(c.w) == 0)
		abort();
	perfev_data_writer_free(c.w);
	if (!copying || ret || wret)
		goto out;

	/* What was written reads back whole. */
	copy = written(&len);
	if (perfev_data_open_mem(copy, len, NULL, &r2))
		abort();
	if (perfev_data_is_pipe(r2) != pipe_out)
		abort();
	i = 0;
	while ((ret = perfev_data_next(r2, &rec2)) == 1)
		i++;
	if (ret || i < nrec)
		abort();
	features(r2);
	perfev_data_close(r2);
	if (pipe_out) {
		free(copy);
		goto out;
	}
	/* File mode keeps every record and every feature byte for byte. */
	if (perfev_data_open_mem(copy, len, NULL, &r2) ||
	    perfev_data_attr_count(r2) != perfev_data_attr_count(r))
		abort();
	perfev_data_close(r);
	if (perfev_data_open_mem(data, size, NULL, &r))
		abort();
	while (perfev_data_next(r, &rec) == 1) {
		if (perfev_data_next(r2, &rec2) != 1 || rec.size != rec2.size ||
		    memcmp(rec.bytes, rec2.bytes, rec.size) ||
		    rec.payload_size != rec2.payload_size ||
		    (rec.payload_size && memcmp(rec.payload, rec2.payload, rec.payload_size)))
			abort();
	}
	if (perfev_data_next(r2, &rec2) != 0)
		abort();
	for (i = 1; i < PERFEV_FEAT_MAX; i++) {
		const void *p, *p2;
		size_t n, n2;

		if (perfev_data_feature(r, (int)i, &p, &n))
			continue;
		if (perfev_data_feature(r2, (int)i, &p2, &n2) || n != n2 || memcmp(p, p2, n))
			abort();
	}
	perfev_data_close(r2);
	free(copy);
out:
	perfev_data_close(r);
}

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
	if (size > MAX_INPUT)
		return 0;
	if (out_fd < 0) {
		out_fd = memfd_create("fuzz-perfdata", MFD_CLOEXEC);
		if (out_fd < 0)
			abort();
	}
	run(data, size, false);
	run(data, size, true);
	stream(data, size);
	return 0;
}
