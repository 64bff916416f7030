// SPDX-License-Identifier: LGPL-2.1-or-later
/* perf.data writer: file and pipe mode read back, attr sizes, host features, write errors. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include <perfev/perfdata.h>
#include "harness.h"
#include "perfdata-synth.h"

/* A memfd holding what a writer wrote: mapped by the reader as a regular file. */
static int mem_fd(void)
{
	return memfd_create("perfev-test", MFD_CLOEXEC);
}

static void synth_records(struct buf *data, int n)
{
	int i;

	data->len = 0;
	rec_comm(data, 42, "work", 500);
	for (i = 0; i < n; i++)
		rec_sample(data, 0x400000 + (uint64_t)i * 4, 42, 1000 + (uint64_t)i * 10, 100000);
}

static void check_written(int fd, bool pipe, const struct buf *data)
{
	struct perfev_data_reader *r;
	struct perfev_data_record rec;
	const struct perfev_data_attr *da;
	size_t off = 0;
	uint64_t v;
	int ret;

	CHECK_INT(perfev_data_open_fd(fd, NULL, &r), 0);
	CHECK(perfev_data_is_pipe(r) == pipe);
	while ((ret = perfev_data_next(r, &rec)) == 1) {
		/* Pipe mode names events with an update record of its own. */
		if (pipe && rec.type == PERFEV_RECORD_EVENT_UPDATE)
			continue;
		CHECK(off + rec.size <= data->len);
		CHECK(!memcmp(rec.bytes, data->p + off, rec.size));
		off += rec.size;
	}
	CHECK_INT(ret, 0);
	CHECK_U64(off, data->len);
	CHECK_INT(perfev_data_attr_count(r), 1);
	da = perfev_data_attr(r, 0);
	CHECK_STR(da->name, "cpu-clock");
	CHECK(da->nids == 2 && da->ids[0] == 77 && da->ids[1] == 78);
	CHECK_U64(da->attr->sample_type, ST_CLOCK);
	CHECK_INT(perfev_data_feature_u64(r, PERFEV_FEAT_SAMPLE_TIME, 0, &v), 0);
	CHECK_U64(v, 1000);
	CHECK_INT(perfev_data_feature_u64(r, PERFEV_FEAT_SAMPLE_TIME, 1, &v), 0);
	CHECK_U64(v, 1000 + 99 * 10);
	CHECK_INT(perfev_data_feature_u64(r, PERFEV_FEAT_CLOCKID, 0, &v), 0);
	CHECK_U64(v, 4);
	perfev_data_close(r);
}

static void write_one(bool pipe)
{
	struct perf_event_attr a;
	uint64_t ids[2] = {77, 78}, clockid = 4;
	struct buf data = {0};
	struct perfev_data_write_opts o = {.sz = sizeof(o), .pipe = pipe};
	struct perfev_data_writer *w;
	int fd = mem_fd();

	CHECK(fd >= 0);
	o.fd = fd;
	clock_attr(&a, ST_CLOCK);
	synth_records(&data, 100);
	CHECK_INT(perfev_data_create(NULL, &o, &w), 0);
	CHECK_INT(perfev_data_add_attr(w, &a, NULL, ids, 2), 0);
	CHECK_INT(perfev_data_set_feature(w, PERFEV_FEAT_CLOCKID, &clockid, 8), 0);
	/* Several writes, one of them bigger than the buffer. */
	CHECK_INT(perfev_data_write(w, data.p, 40), 0);
	CHECK_INT(perfev_data_write(w, data.p + 40, data.len - 40), 0);
	CHECK_INT(perfev_data_finish(w), 0);
	CHECK_INT(perfev_data_finish(w), 0);
	CHECK_INT(perfev_data_write(w, data.p, 48), -EINVAL);
	CHECK_U64(perfev_data_written(w), (uint64_t)lseek(fd, 0, SEEK_END));
	perfev_data_writer_free(w);
	check_written(fd, pipe, &data);
	close(fd);
	free(data.p);
}

TEST(write_file)
{
	write_one(false);
}

TEST(write_pipe)
{
	write_one(true);
}

/* Big writes go around the buffer; the result is the same file. */
TEST(write_large)
{
	struct perf_event_attr a;
	uint64_t ids[2] = {77, 78};
	struct buf data = {0};
	struct perfev_data_write_opts o = {.sz = sizeof(o)};
	struct perfev_data_writer *w;
	struct perfev_data_reader *r;
	size_t n;
	int fd = mem_fd();

	CHECK(fd >= 0);
	o.fd = fd;
	clock_attr(&a, ST_CLOCK);
	synth_records(&data, 20000); /* 800 KB */
	CHECK_INT(perfev_data_create(NULL, &o, &w), 0);
	CHECK_INT(perfev_data_add_attr(w, &a, "cpu-clock", ids, 2), 0);
	CHECK_INT(perfev_data_write(w, data.p, 40), 0);
	CHECK_INT(perfev_data_write(w, data.p + 40, data.len - 40), 0);
	CHECK_INT(perfev_data_finish(w), 0);
	perfev_data_writer_free(w);
	CHECK_INT(perfev_data_open_fd(fd, NULL, &r), 0);
	CHECK_INT(drain(r, &n), 0);
	CHECK_INT(n, 20001);
	perfev_data_close(r);
	close(fd);
	free(data.p);
}

/* An attr declared after records moves the attrs section to the end. */
TEST(write_late_attr)
{
	struct perf_event_attr a[2];
	uint64_t ids[2] = {100, 200};
	struct buf data = {0};
	struct perfev_data_write_opts o = {.sz = sizeof(o)};
	struct perfev_data_writer *w;
	struct perfev_data_reader *r;
	struct perfev_data_record rec;
	int fd = mem_fd();

	CHECK(fd >= 0);
	o.fd = fd;
	clock_attr(&a[0], ST_MULTI);
	clock_attr(&a[1], ST_MULTI);
	a[1].config = PERF_COUNT_SW_PAGE_FAULTS;
	CHECK_INT(perfev_data_create(NULL, &o, &w), 0);
	CHECK_INT(perfev_data_add_attr(w, &a[0], "first", &ids[0], 1), 0);
	rec_sample_id(&data, 100, 1, 2, 30);
	CHECK_INT(perfev_data_write(w, data.p, data.len), 0);
	CHECK_INT(perfev_data_add_attr(w, &a[1], NULL, &ids[1], 1), 0);
	data.len = 0;
	rec_sample_id(&data, 200, 1, 2, 10);
	CHECK_INT(perfev_data_write(w, data.p, data.len), 0);
	CHECK_INT(perfev_data_finish(w), 0);
	perfev_data_writer_free(w);
	CHECK_INT(perfev_data_open_fd(fd, NULL, &r), 0);
	CHECK_INT(perfev_data_attr_count(r), 2);
	CHECK_STR(perfev_data_attr(r, 0)->name, "first");
	CHECK_STR(perfev_data_attr(r, 1)->name, "page-faults");
	CHECK_INT(perfev_data_next(r, &rec), 1);
	CHECK(rec.attr == perfev_data_attr(r, 0));
	CHECK_INT(perfev_data_next(r, &rec), 1);
	CHECK(rec.attr == perfev_data_attr(r, 1));
	CHECK_INT(perfev_data_next(r, &rec), 0);
	{
		uint64_t v;

		/* SAMPLE_TIME is the earliest and the latest, not the first and last written. */
		CHECK_INT(perfev_data_feature_u64(r, PERFEV_FEAT_SAMPLE_TIME, 0, &v), 0);
		CHECK_U64(v, 10);
		CHECK_INT(perfev_data_feature_u64(r, PERFEV_FEAT_SAMPLE_TIME, 1, &v), 0);
		CHECK_U64(v, 30);
	}
	perfev_data_close(r);
	close(fd);
	free(data.p);
}

/* Attr sizes: a zero tail past 128 bytes is dropped, all attrs share the largest size. */
TEST(write_attr_sizes)
{
	unsigned char big[PERFEV_ATTR_SIZE_MAX + 8] = {0};
	struct perf_event_attr *a = (struct perf_event_attr *)big, old;
	struct perfev_data_write_opts o = {.sz = sizeof(o)};
	struct perfev_data_writer *w;
	struct perfev_data_reader *r;
	unsigned char hdr[24];
	uint64_t id = 1, id2 = 2;
	int fd = mem_fd();

	CHECK(fd >= 0);
	o.fd = fd;
	clock_attr(a, ST_CLOCK);
	a->size = sizeof(big);
	clock_attr(&old, ST_CLOCK);
	old.size = 64;
	CHECK_INT(perfev_data_create(NULL, &o, &w), 0);
	CHECK_INT(perfev_data_add_attr(w, a, "new", &id, 1), 0);
	CHECK_INT(perfev_data_add_attr(w, &old, "old", &id2, 1), 0);
	CHECK_INT(perfev_data_finish(w), 0);
	perfev_data_writer_free(w);
	CHECK_INT(pread(fd, hdr, sizeof(hdr), 0), (ssize_t)sizeof(hdr));
	CHECK_U64(get_u64(hdr + 16), 128 + 16);
	CHECK_INT(perfev_data_open_fd(fd, NULL, &r), 0);
	CHECK_INT(perfev_data_attr(r, 0)->attr->size, 128);
	CHECK_INT(perfev_data_attr(r, 1)->attr->size, 128);
	CHECK_U64(perfev_data_attr(r, 1)->attr->sample_type, ST_CLOCK);
	perfev_data_close(r);
	close(fd);

	/* A non-zero byte past 128 keeps the attr whole. */
	fd = mem_fd();
	CHECK(fd >= 0);
	o.fd = fd;
	big[130] = 1;
	CHECK_INT(perfev_data_create(NULL, &o, &w), 0);
	CHECK_INT(perfev_data_add_attr(w, a, "new", &id, 1), 0);
	CHECK_INT(perfev_data_finish(w), 0);
	perfev_data_writer_free(w);
	CHECK_INT(perfev_data_open_fd(fd, NULL, &r), 0);
	CHECK_INT(perfev_data_attr(r, 0)->attr->size, sizeof(big));
	CHECK_INT(((const unsigned char *)perfev_data_attr(r, 0)->attr)[130], 1);
	perfev_data_close(r);
	close(fd);
}

TEST(write_errors)
{
	struct perf_event_attr a;
	struct perfev_data_write_opts o = {.sz = sizeof(o), .pipe = true};
	struct perfev_data_writer *w;
	struct buf data = {0}, bad = {0};
	uint64_t id = 1;
	int fds[2];

	clock_attr(&a, ST_CLOCK);
	synth_records(&data, 10);
	CHECK_INT(perfev_data_create(NULL, NULL, &w), -EINVAL);
	CHECK_INT(perfev_data_create("/nonexistent/dir/perf.data", NULL, &w), -ENOENT);
	/* File mode needs to seek back. */
	CHECK_INT(pipe(fds), 0);
	o.pipe = false;
	o.fd = fds[1];
	CHECK_INT(perfev_data_create(NULL, &o, &w), -ESPIPE);
	close(fds[0]);
	close(fds[1]);

	/* /dev/full: the error comes when the buffer is flushed, and sticks. */
	o.pipe = true;
	CHECK_INT(perfev_data_create("/dev/full", &o, &w), 0);
	CHECK_INT(perfev_data_add_attr(w, &a, "cpu-clock", &id, 1), 0);
	CHECK_INT(perfev_data_write(w, data.p, data.len), 0);
	CHECK_INT(perfev_data_finish(w), -ENOSPC);
	CHECK_INT(perfev_data_finish(w), -ENOSPC);
	perfev_data_writer_free(w);
	o.pipe = false;
	CHECK_INT(perfev_data_create("/dev/full", &o, &w), 0);
	CHECK_INT(perfev_data_add_attr(w, &a, "cpu-clock", &id, 1), 0);
	synth_records(&data, 10000); /* more than the buffer: fails at once */
	CHECK_INT(perfev_data_write(w, data.p, data.len), -ENOSPC);
	CHECK_INT(perfev_data_write(w, data.p, 48), -ENOSPC);
	CHECK_INT(perfev_data_add_attr(w, &a, "x", &id, 1), -ENOSPC);
	CHECK_INT(perfev_data_finish(w), -ENOSPC);
	perfev_data_writer_free(w);

	/* Bad arguments and records that are not. */
	o.fd = mem_fd();
	CHECK(o.fd >= 0);
	CHECK_INT(perfev_data_create(NULL, &o, &w), 0);
	CHECK_INT(perfev_data_add_attr(w, NULL, "x", &id, 1), -EINVAL);
	CHECK_INT(perfev_data_add_attr(w, &a, "x", NULL, 1), -EINVAL);
	a.size = 32;
	CHECK_INT(perfev_data_add_attr(w, &a, "x", &id, 1), -EINVAL);
	a.size = sizeof(a);
	CHECK_INT(perfev_data_set_feature(w, 0, "x", 1), -EINVAL);
	CHECK_INT(perfev_data_set_feature(w, PERFEV_FEAT_MAX, "x", 1), -EINVAL);
	CHECK_INT(perfev_data_set_feature(w, PERFEV_FEAT_HOSTNAME, NULL, 1), -EINVAL);
	b_header(&bad, PERF_RECORD_SAMPLE, 0, 4);
	CHECK_INT(perfev_data_write(w, bad.p, bad.len), -EINVAL);
	bad.len = 0;
	b_header(&bad, PERF_RECORD_SAMPLE, 0, 16);
	CHECK_INT(perfev_data_write(w, bad.p, bad.len), -EINVAL);
	b_u64(&bad, 0);
	b_u32(&bad, 0);
	CHECK_INT(perfev_data_write(w, bad.p, bad.len), -EINVAL);
	bad.len = 0;
	b_header(&bad, PERFEV_RECORD_HEADER_ATTR, 0, 8);
	CHECK_INT(perfev_data_write(w, bad.p, bad.len), -EINVAL);
	bad.len = 0;
	b_header(&bad, PERFEV_RECORD_AUXTRACE, 0, 48);
	b_u64(&bad, 100);
	b_zero(&bad, 32);
	CHECK_INT(perfev_data_write(w, bad.p, bad.len), -EINVAL);
	b_zero(&bad, 100);
	CHECK_INT(perfev_data_write(w, bad.p, bad.len), 0);
	CHECK_INT(perfev_data_write(w, NULL, 0), 0);
	CHECK_INT(perfev_data_finish(w), 0);
	CHECK_INT(perfev_data_add_attr(w, &a, "x", &id, 1), -EINVAL);
	CHECK_INT(perfev_data_set_feature(w, PERFEV_FEAT_HOSTNAME, "x", 1), -EINVAL);
	perfev_data_writer_free(w);
	close(o.fd);

	/* Pipe mode: a record holds 64 KiB. */
	o.fd = mem_fd();
	o.pipe = true;
	CHECK_INT(perfev_data_create(NULL, &o, &w), 0);
	{
		uint64_t *many = calloc(9000, 8);
		char *huge = calloc(70000, 1);

		CHECK(many && huge);
		CHECK_INT(perfev_data_add_attr(w, &a, "x", many, 9000), -EMSGSIZE);
		CHECK_INT(perfev_data_set_feature(w, PERFEV_FEAT_CMDLINE, huge, 70000), -EMSGSIZE);
		/* Tracing data is sent after its record: any size. */
		CHECK_INT(perfev_data_set_feature(w, PERFEV_FEAT_TRACING_DATA, huge, 70000), 0);
		free(many);
		free(huge);
	}
	CHECK_INT(perfev_data_finish(w), 0);
	perfev_data_writer_free(w);
	{
		struct perfev_data_reader *r;
		const void *p;
		size_t len;

		CHECK_INT(perfev_data_open_fd(o.fd, NULL, &r), 0);
		CHECK_INT(drain(r, &len), 0);
		CHECK_INT(perfev_data_feature(r, PERFEV_FEAT_TRACING_DATA, &p, &len), 0);
		CHECK_INT(len, 70000);
		perfev_data_close(r);
	}
	close(o.fd);
	free(data.p);
	free(bad.p);
}

/* Host features: what this machine says, in the formats the reader reads back. */
TEST(host_features)
{
	struct perfev_data_write_opts o = {.sz = sizeof(o)};
	char a0[] = "perfev", a1[] = "record", a2[] = "--", a3[] = "true";
	char *const argv[] = {a0, a1, a2, a3, NULL};
	struct perfev_data_writer *w;
	struct perfev_data_reader *r;
	char s[256], host[256];
	uint64_t v;
	int fd = mem_fd();

	CHECK(fd >= 0);
	o.fd = fd;
	CHECK_INT(perfev_data_create(NULL, &o, &w), 0);
	CHECK_INT(perfev_data_set_host_features(w, argv), 0);
	CHECK_INT(perfev_data_finish(w), 0);
	perfev_data_writer_free(w);
	CHECK_INT(perfev_data_open_fd(fd, NULL, &r), 0);
	CHECK(perfev_data_feature_string(r, PERFEV_FEAT_HOSTNAME, s, sizeof(s)) > 0);
	CHECK(test_read_text("/proc/sys/kernel/hostname", host, sizeof(host)) > 0);
	host[strcspn(host, "\n")] = '\0';
	CHECK_STR(s, host);
	CHECK(perfev_data_feature_string(r, PERFEV_FEAT_OSRELEASE, s, sizeof(s)) > 0);
	CHECK(perfev_data_feature_string(r, PERFEV_FEAT_ARCH, s, sizeof(s)) > 0);
	CHECK(perfev_data_feature_string(r, PERFEV_FEAT_VERSION, s, sizeof(s)) > 0);
	CHECK_CONTAINS(s, "perfev ");
	CHECK_INT(perfev_data_feature_string(r, PERFEV_FEAT_CMDLINE, s, sizeof(s)), 21);
	CHECK_STR(s, "perfev record -- true");
	CHECK_INT(perfev_data_feature_u64(r, PERFEV_FEAT_NRCPUS, 1, &v), 0);
	CHECK_U64(v, (uint64_t)sysconf(_SC_NPROCESSORS_ONLN));
	CHECK_INT(perfev_data_feature_u64(r, PERFEV_FEAT_TOTAL_MEM, 0, &v), 0);
	CHECK(v > 1024);
#if defined(__x86_64__) || defined(__i386__)
	{
		char vendor[64];
		unsigned int fam, model, step;

		CHECK(perfev_data_feature_string(r, PERFEV_FEAT_CPUID, s, sizeof(s)) > 0);
		CHECK(sscanf(s, "%63[^,],%u,%u,%u", vendor, &fam, &model, &step) == 4);
		CHECK(perfev_data_feature_string(r, PERFEV_FEAT_CPUDESC, s, sizeof(s)) > 0);
		CHECK(!strstr(s, "  "));
	}
#endif
	perfev_data_close(r);
	close(fd);
}

/* Pipe mode sends features as perf does: build ids as records, no AUXTRACE index. */
TEST(write_pipe_features)
{
	struct perfev_data_write_opts o = {.sz = sizeof(o), .pipe = true};
	struct perfev_data_writer *w;
	struct perfev_data_reader *r;
	struct perfev_data_record rec;
	struct buf bid = {0}, host = {0};
	const void *p;
	size_t len;
	char s[32];
	int i;

	o.fd = mem_fd();
	CHECK(o.fd >= 0);
	for (i = 0; i < 2; i++) {
		b_header(&bid, 0, PERF_RECORD_MISC_USER, 8 + 4 + 24 + 16);
		b_u32(&bid, 42 + i);
		b_zero(&bid, 24);
		b_put(&bid, "/bin/true\0\0\0\0\0\0", 16);
	}
	CHECK_INT(perfev_data_create(NULL, &o, &w), 0);
	CHECK_INT(perfev_data_set_feature(w, PERFEV_FEAT_BUILD_ID, bid.p, bid.len - 1), -EINVAL);
	CHECK_INT(perfev_data_set_feature(w, PERFEV_FEAT_BUILD_ID, bid.p, bid.len), 0);
	CHECK_INT(perfev_data_set_feature(w, PERFEV_FEAT_AUXTRACE, "index", 5), 0);
	b_string(&host, "first");
	CHECK_INT(perfev_data_set_feature(w, PERFEV_FEAT_HOSTNAME, host.p, host.len), 0);
	host.len = 0;
	b_string(&host, "second");
	CHECK_INT(perfev_data_set_feature(w, PERFEV_FEAT_HOSTNAME, host.p, host.len), 0);
	CHECK_INT(perfev_data_finish(w), 0);
	perfev_data_writer_free(w);

	CHECK_INT(perfev_data_open_fd(o.fd, NULL, &r), 0);
	for (i = 0; i < 2; i++) {
		CHECK_INT(perfev_data_next(r, &rec), 1);
		CHECK_INT(rec.type, PERFEV_RECORD_HEADER_BUILD_ID);
		CHECK_INT(rec.misc, PERF_RECORD_MISC_USER);
		CHECK(rec.size == 52 &&
		      !memcmp((const char *)rec.bytes + 8, bid.p + i * 52 + 8, 44));
	}
	CHECK_INT(perfev_data_next(r, &rec), 0);
	CHECK_INT(perfev_data_feature(r, PERFEV_FEAT_AUXTRACE, &p, &len), -ENOENT);
	/* A feature sent again replaces the first. */
	CHECK_INT(perfev_data_feature_string(r, PERFEV_FEAT_HOSTNAME, s, sizeof(s)), 6);
	CHECK_STR(s, "second");
	perfev_data_close(r);
	close(o.fd);
	free(bid.p);
	free(host.p);
}

/* The record types of a stream held in @fd, in order (at most @max). */
static size_t stream_types(int fd, uint32_t *types, size_t max)
{
	unsigned char *p;
	off_t len = lseek(fd, 0, SEEK_END);
	size_t off = 16, n = 0;

	p = malloc((size_t)len);
	if (!p || pread(fd, p, (size_t)len, 0) != len) {
		free(p);
		return 0;
	}
	while (off + 8 <= (size_t)len && n < max) {
		uint32_t type;
		uint16_t size;

		memcpy(&type, p + off, 4);
		memcpy(&size, p + off + 6, 2);
		types[n++] = type;
		if (size < 8)
			break;
		/* The tracing data follows its record. */
		if (type == PERFEV_RECORD_HEADER_TRACING_DATA)
			off += get_u64(p + off + 8) & 0xffffffff;
		off += size;
	}
	free(p);
	return n;
}

/* A stream starts as perf's: the attrs, then the features, the tracing data, the records. */
TEST(write_pipe_order)
{
	struct perfev_data_write_opts o = {.sz = sizeof(o), .pipe = true};
	static const uint32_t want[] = {
	    PERFEV_RECORD_HEADER_ATTR,
	    PERFEV_RECORD_EVENT_UPDATE,
	    PERFEV_RECORD_HEADER_ATTR,
	    PERFEV_RECORD_EVENT_UPDATE,
	    PERFEV_RECORD_HEADER_FEATURE,
	    PERFEV_RECORD_HEADER_TRACING_DATA,
	    PERF_RECORD_COMM,
	    PERF_RECORD_SAMPLE,
	    PERFEV_RECORD_HEADER_FEATURE, /* EVENT_DESC, known at the end */
	};
	struct perfev_data_writer *w;
	struct perf_event_attr a;
	struct buf data = {0}, host = {0};
	uint64_t id = 77, id2 = 78;
	uint32_t types[16];
	size_t i, n;

	o.fd = mem_fd();
	CHECK(o.fd >= 0);
	clock_attr(&a, ST_CLOCK);
	synth_records(&data, 1);
	b_string(&host, "host");
	CHECK_INT(perfev_data_create(NULL, &o, &w), 0);
	/* Features set before the attrs wait for them. */
	CHECK_INT(perfev_data_set_feature(w, PERFEV_FEAT_TRACING_DATA, "tracing", 7), 0);
	CHECK_INT(perfev_data_set_feature(w, PERFEV_FEAT_HOSTNAME, host.p, host.len), 0);
	CHECK_INT(perfev_data_add_attr(w, &a, "cpu-clock", &id, 1), 0);
	CHECK_INT(perfev_data_add_attr(w, &a, "task-clock", &id2, 1), 0);
	CHECK_INT(perfev_data_write(w, data.p, data.len), 0);
	CHECK_INT(perfev_data_finish(w), 0);
	perfev_data_writer_free(w);
	n = stream_types(o.fd, types, 16);
	CHECK_INT(n, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < n && i < sizeof(want) / sizeof(want[0]); i++)
		CHECK_INT(types[i], want[i]);
	close(o.fd);
	free(data.p);
	free(host.p);
}

/*
 * Write @nrec records of @data (all of @rec_size bytes) to a new file
 * while the file size is limited to @limit bytes (RLIMIT_FSIZE: a full
 * disk), in calls of @per_call records, to a new file in *@fd.
 */
static void write_limited(const struct buf *data, size_t rec_size, size_t per_call, uint64_t limit,
			  int want_err, int *fd)
{
	struct perfev_data_write_opts o = {.sz = sizeof(o)};
	struct perfev_data_writer *w;
	struct perf_event_attr a;
	struct rlimit old, rl;
	struct buf host = {0};
	uint64_t id = 77;
	size_t off;
	int ret = 0;

	o.fd = mem_fd();
	CHECK(o.fd >= 0);
	clock_attr(&a, ST_CLOCK);
	b_string(&host, "host");
	CHECK_INT(perfev_data_create(NULL, &o, &w), 0);
	CHECK_INT(perfev_data_add_attr(w, &a, "cpu-clock", &id, 1), 0);
	CHECK_INT(perfev_data_set_feature(w, PERFEV_FEAT_HOSTNAME, host.p, host.len), 0);
	signal(SIGXFSZ, SIG_IGN);
	CHECK_INT(getrlimit(RLIMIT_FSIZE, &old), 0);
	rl = old;
	rl.rlim_cur = limit < old.rlim_max ? limit : old.rlim_max;
	CHECK_INT(setrlimit(RLIMIT_FSIZE, &rl), 0);
	for (off = 0; off < data->len && !ret; off += per_call * rec_size) {
		size_t n =
		    data->len - off < per_call * rec_size ? data->len - off : per_call * rec_size;

		ret = perfev_data_write(w, data->p + off, n);
	}
	CHECK(ret == 0 || ret == want_err);
	CHECK_INT(perfev_data_finish(w), want_err);
	CHECK_INT(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_DFL);
	perfev_data_writer_free(w);
	free(host.p);
	*fd = o.fd;
}

/* The records a file holds (*@n), all read without error; its header's data offset and size. */
static void read_back(int fd, size_t *n, uint64_t *data_off, uint64_t *data_size, bool *hostname)
{
	struct perfev_data_reader *r;
	unsigned char hdr[56];
	char s[16];

	*n = 0;
	CHECK_INT(pread(fd, hdr, sizeof(hdr), 0), (int)sizeof(hdr));
	*data_off = get_u64(hdr + 40);
	*data_size = get_u64(hdr + 48);
	CHECK_INT(perfev_data_open_fd(fd, NULL, &r), 0);
	CHECK_INT(drain(r, n), 0);
	*hostname = perfev_data_feature_string(r, PERFEV_FEAT_HOSTNAME, s, sizeof(s)) == 4;
	perfev_data_close(r);
}

/*
 * A full disk: the file is cut after the last whole record, the header
 * written for the records kept, the features left out when they do not
 * fit any more; the write error is returned all the same.
 */
TEST(write_disk_full)
{
	struct buf data = {0};
	uint64_t off, size;
	size_t n;
	bool host;
	int fd;

	synth_records(&data, 20000); /* a COMM and samples, 40 bytes each */
	write_limited(&data, 40, 100, 300000, -EFBIG, &fd);
	read_back(fd, &n, &off, &size, &host);
	CHECK(n > 1000 && n < 20001);
	/* The records kept, whole: the comm, then samples up to the limit. */
	CHECK_U64(size, (uint64_t)n * 40);
	CHECK(off + size <= 300000 && off + size + 40 > 300000);
	CHECK_U64((uint64_t)lseek(fd, 0, SEEK_END), off + size);
	CHECK(!host);
	close(fd);
	free(data.p);
}

/* Room left after the last whole record: the features are kept. */
TEST(write_disk_full_features)
{
	char name[2016];
	struct buf data = {0};
	uint64_t off, size, ref_off;
	size_t n, i;
	bool host;
	int fd;

	/* COMM records of 2048 bytes: the limit falls in the middle of the eleventh. */
	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	for (i = 0; i < 20; i++)
		rec_comm(&data, 42, name, 100 + i);
	CHECK_U64(data.len, 20 * 2048);
	write_limited(&data, 2048, 20, RLIM_INFINITY, 0, &fd);
	read_back(fd, &n, &ref_off, &size, &host);
	CHECK_INT(n, 20);
	CHECK(host);
	close(fd);
	write_limited(&data, 2048, 20, ref_off + 10 * 2048 + 1024, -EFBIG, &fd);
	read_back(fd, &n, &off, &size, &host);
	CHECK_INT(n, 10);
	CHECK_U64(off, ref_off);
	CHECK_U64(size, 10 * 2048);
	CHECK(host);
	close(fd);
	free(data.p);
}

/* GROUP_DESC written from groups reads back the same, in a file and in a stream. */
static void groups_round_trip(bool pipe)
{
	struct perfev_data_write_opts o = {.sz = sizeof(o), .pipe = pipe};
	struct perfev_data_group g[2] = {{NULL, 0, 2}, {"mine", 2, 3}}, bad = {NULL, 4, 2}, got;
	struct perfev_data_writer *w;
	struct perfev_data_reader *r;
	struct perfev_data_record rec;
	struct perf_event_attr a;
	uint64_t id;
	int i;

	o.fd = mem_fd();
	CHECK(o.fd >= 0);
	clock_attr(&a, ST_CLOCK);
	CHECK_INT(perfev_data_create(NULL, &o, &w), 0);
	for (i = 0; i < 5; i++) {
		id = 100 + (uint64_t)i;
		CHECK_INT(perfev_data_add_attr(w, &a, NULL, &id, 1), 0);
	}
	/* A group past the attrs, of one event, or none at all with a count. */
	CHECK_INT(perfev_data_set_groups(w, &bad, 1), -EINVAL);
	bad = (struct perfev_data_group){NULL, 1, 1};
	CHECK_INT(perfev_data_set_groups(w, &bad, 1), -EINVAL);
	CHECK_INT(perfev_data_set_groups(w, NULL, 1), -EINVAL);
	/* Groups that overlap, or out of order. */
	{
		struct perfev_data_group overlap[2] = {{NULL, 0, 3}, {NULL, 2, 2}};
		struct perfev_data_group backwards[2] = {{NULL, 2, 2}, {NULL, 0, 2}};

		CHECK_INT(perfev_data_set_groups(w, overlap, 2), -EINVAL);
		CHECK_INT(perfev_data_set_groups(w, backwards, 2), -EINVAL);
	}
	CHECK_INT(perfev_data_set_groups(NULL, g, 2), -EINVAL);
	CHECK_INT(perfev_data_set_groups(w, g, 2), 0);
	CHECK_INT(perfev_data_finish(w), 0);
	perfev_data_writer_free(w);

	CHECK_INT(perfev_data_open_fd(o.fd, NULL, &r), 0);
	while (perfev_data_next(r, &rec) == 1)
		;
	CHECK_INT(perfev_data_group(r, 0, &got), 0);
	CHECK(got.name == NULL && got.leader == 0 && got.nr_members == 2);
	CHECK_INT(perfev_data_group(r, 1, &got), 0);
	CHECK_STR(got.name, "mine");
	CHECK(got.leader == 2 && got.nr_members == 3);
	CHECK_INT(perfev_data_group(r, 2, &got), -ERANGE);
	perfev_data_close(r);
	close(o.fd);
}

TEST(write_groups_file)
{
	groups_round_trip(false);
}

TEST(write_groups_pipe)
{
	groups_round_trip(true);
}

/* -k's CLOCKID and CLOCK_DATA read back as written, in a file and in a stream. */
static void clock_round_trip(bool pipe)
{
	struct perfev_data_write_opts o = {.sz = sizeof(o), .pipe = pipe};
	struct perfev_data_clock c = {.clockid = 11,
				      .res_ns = 1,
				      .tod_ns = 1795751319418007000ULL,
				      .clockid_ns = 290003255887ULL},
				 got;
	struct perfev_data_writer *w;
	struct perfev_data_reader *r;
	struct perfev_data_record rec;
	struct perf_event_attr a;
	uint64_t id = 7, res;
	const void *data;
	size_t len;

	o.fd = mem_fd();
	CHECK(o.fd >= 0);
	clock_attr(&a, ST_CLOCK);
	CHECK_INT(perfev_data_create(NULL, &o, &w), 0);
	CHECK_INT(perfev_data_add_attr(w, &a, NULL, &id, 1), 0);
	CHECK_INT(perfev_data_set_clock(NULL, &c), -EINVAL);
	CHECK_INT(perfev_data_set_clock(w, &c), 0);
	CHECK_INT(perfev_data_finish(w), 0);
	perfev_data_writer_free(w);

	CHECK_INT(perfev_data_open_fd(o.fd, NULL, &r), 0);
	while (perfev_data_next(r, &rec) == 1)
		;
	CHECK_INT(perfev_data_clock(r, &got), 0);
	CHECK(got.clockid == 11 && got.res_ns == 1 && got.tod_ns == c.tod_ns &&
	      got.clockid_ns == c.clockid_ns);
	CHECK_INT(perfev_data_feature_u64(r, PERFEV_FEAT_CLOCKID, 0, &res), 0);
	CHECK(res == 1);
	/* perf's layout: version 1 and the clockid as u32, then the two times. */
	CHECK_INT(perfev_data_feature(r, PERFEV_FEAT_CLOCK_DATA, &data, &len), 0);
	CHECK(len == 24 && !memcmp(data, "\1\0\0\0\13\0\0\0", 8));
	perfev_data_close(r);
	close(o.fd);
}

TEST(write_clock_file)
{
	clock_round_trip(false);
}

TEST(write_clock_pipe)
{
	clock_round_trip(true);
}

/* A CLOCK_DATA of another version, or cut short, is not read as one. */
TEST(read_clock_bad)
{
	struct perfev_data_write_opts o = {.sz = sizeof(o)};
	static const unsigned char v2[24] = {2}, shorter[20] = {1};
	struct perfev_data_writer *w;
	struct perfev_data_reader *r;
	struct perfev_data_clock got;
	struct perf_event_attr a;
	uint64_t id = 7;
	int i;

	for (i = 0; i < 3; i++) {
		o.fd = mem_fd();
		CHECK(o.fd >= 0);
		clock_attr(&a, ST_CLOCK);
		CHECK_INT(perfev_data_create(NULL, &o, &w), 0);
		CHECK_INT(perfev_data_add_attr(w, &a, NULL, &id, 1), 0);
		if (i == 1)
			CHECK_INT(
			    perfev_data_set_feature(w, PERFEV_FEAT_CLOCK_DATA, v2, sizeof(v2)), 0);
		if (i == 2)
			CHECK_INT(perfev_data_set_feature(w, PERFEV_FEAT_CLOCK_DATA, shorter,
							  sizeof(shorter)),
				  0);
		CHECK_INT(perfev_data_finish(w), 0);
		perfev_data_writer_free(w);
		CHECK_INT(perfev_data_open_fd(o.fd, NULL, &r), 0);
		CHECK_INT(perfev_data_clock(r, &got), i == 0   ? -ENOENT
						      : i == 1 ? -EPROTO
							       : -EBADMSG);
		CHECK_INT(perfev_data_clock(r, NULL), -EINVAL);
		perfev_data_close(r);
		close(o.fd);
	}
}

/* A path that is a symbolic link is refused, and what it points to is left alone. */
TEST(create_no_link)
{
	char dir[] = "/tmp/perfev-link-XXXXXX", link[64], target[64];
	struct perfev_data_writer *w = NULL;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(link, sizeof(link), "%s/perf.data", dir);
	snprintf(target, sizeof(target), "%s/victim", dir);
	CHECK_INT(symlink(target, link), 0);
	CHECK_INT(perfev_data_create(link, NULL, &w), -ELOOP);
	CHECK(w == NULL);
	CHECK(access(target, F_OK) != 0);
	unlink(link);
	rmdir(dir);
}
