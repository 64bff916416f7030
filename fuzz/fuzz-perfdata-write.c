// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer harness: perf.data bytes copied through the writer, in file
 * and in pipe mode, and the copy read again: the same records and, for
 * file mode, every record and feature byte for byte.  The plain read is
 * fuzz-perfdata's, the stream reader fuzz-pipe's.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <perfev/perfdata.h>
#include "perfdata-check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT (1 << 20)

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

		unzipped = check_record(r, &rec, data, size, &zoffset);
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > MAX_INPUT)
		return 0;
	if (out_fd < 0) {
		out_fd = memfd_create("fuzz-perfdata-write", MFD_CLOEXEC);
		if (out_fd < 0)
			abort();
	}
	run(data, size, false);
	run(data, size, true);
	return 0;
}
