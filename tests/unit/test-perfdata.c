// SPDX-License-Identifier: LGPL-2.1-or-later
/* perf.data reader on synthetic files: layout, every feature, malformed and truncated input. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <perfev/perfdata.h>
#include "harness.h"
#include "perfdata-synth.h"

/* ---- file mode -------------------------------------------------------------------------- */

TEST(minimal_file)
{
	struct perf_event_attr a;
	uint64_t ids[2] = {7, 8};
	struct buf data = {0}, f = {0};
	struct fspec s = {.attrs = &a, .nattrs = 1, .ids = ids, .nids_each = 2, .data = &data};
	struct perfev_data_reader *r = NULL;
	struct perfev_data_record rec;
	const struct perfev_data_attr *da;
	struct flayout lay;
	uint64_t off, size;
	int ret, n = 0;

	clock_attr(&a, ST_CLOCK);
	basic_data(&data);
	mkfile(&f, &s, &lay);
	ret = perfev_data_open_mem(f.p, f.len, NULL, &r);
	CHECK_INT(ret, 0);
	CHECK(!perfev_data_is_pipe(r));
	CHECK_INT(perfev_data_attr_count(r), 1);
	da = perfev_data_attr(r, 0);
	CHECK(da && da->attr->size == sizeof(a) && da->attr->sample_type == ST_CLOCK);
	CHECK(da->nids == 2 && da->ids[0] == 7 && da->ids[1] == 8);
	CHECK(da->name == NULL);
	CHECK(da->layout.sample_id_all);
	CHECK(perfev_data_attr(r, 1) == NULL);
	CHECK(perfev_data_attr_by_id(r, 8) == da);
	CHECK(perfev_data_attr_by_id(r, 9) == NULL);
	while ((ret = perfev_data_next(r, &rec)) == 1) {
		CHECK(rec.attr == da);
		CHECK(rec.bytes == f.p + rec.offset);
		CHECK(rec.payload == NULL && rec.payload_size == 0);
		if (n == 0) {
			CHECK_INT(rec.type, PERF_RECORD_COMM);
			CHECK_U64(rec.offset, lay.data);
		} else {
			CHECK_INT(rec.type, PERF_RECORD_SAMPLE);
			CHECK_INT(rec.misc, PERF_RECORD_MISC_USER);
			CHECK_INT(rec.size, 40);
			CHECK_U64(get_u64((const char *)rec.bytes + 8), 0x401000 + 8 * (n - 1));
		}
		n++;
	}
	CHECK_INT(ret, 0);
	CHECK_INT(n, 4);
	CHECK_INT(perfev_data_next(r, &rec), 0);
	CHECK_INT(perfev_data_feature(r, PERFEV_FEAT_HOSTNAME, NULL, NULL), -ENOENT);
	/* The data section as the header gives it, read or not. */
	off = size = 0;
	CHECK_INT(perfev_data_section(r, &off, &size), 0);
	CHECK_U64(off, lay.data);
	CHECK_U64(size, data.len);
	CHECK_INT(perfev_data_section(r, NULL, NULL), 0);
	CHECK_INT(perfev_data_section(NULL, &off, &size), -EINVAL);
	perfev_data_close(r);
	free(data.p);
	free(f.p);
}

TEST(bad_arguments)
{
	struct perfev_data_reader *r;
	struct perfev_data_open_opts big[2];
	unsigned char pipe[16];

	memcpy(pipe, "PERFILE2\x10\0\0\0\0\0\0\0", 16);
	CHECK_INT(perfev_data_open_mem(NULL, 5, NULL, &r), -EINVAL);
	CHECK_INT(perfev_data_open_mem(pipe, sizeof(pipe), NULL, NULL), -EINVAL);
	CHECK_INT(perfev_data_open_fd(-1, NULL, &r), -EBADF);
	CHECK_INT(perfev_data_open(NULL, NULL, &r), -EINVAL);
	CHECK_INT(perfev_data_open("/nonexistent/perf.data", NULL, &r), -ENOENT);
	/* An options struct from a newer caller, with an unknown field set. */
	memset(big, 0, sizeof(big));
	big[0].sz = sizeof(big);
	((unsigned char *)big)[sizeof(big) - 1] = 1;
	CHECK_INT(perfev_data_open_mem(pipe, sizeof(pipe), big, &r), -EINVAL);
	((unsigned char *)big)[sizeof(big) - 1] = 0;
	CHECK_INT(perfev_data_open_mem(pipe, sizeof(pipe), big, &r), 0);
	CHECK(perfev_data_is_pipe(r));
	CHECK_INT(perfev_data_attr_count(r), 0);
	/* A stream has no sections. */
	CHECK_INT(perfev_data_section(r, NULL, NULL), -ENOENT);
	perfev_data_close(r);
	perfev_data_close(NULL);
	CHECK(perfev_data_attr(NULL, 0) == NULL);
	CHECK_INT(perfev_data_attr_count(NULL), 0);
	CHECK_INT(perfev_data_next(NULL, NULL), -EINVAL);
}

TEST(magic_and_versions)
{
	struct perf_event_attr a;
	uint64_t ids[1] = {1};
	struct buf data = {0}, f = {0};
	struct fspec s = {.attrs = &a, .nattrs = 1, .ids = ids, .nids_each = 1, .data = &data};
	struct perfev_data_reader *r;
	struct flayout lay;
	size_t n;

	clock_attr(&a, ST_CLOCK);
	basic_data(&data);
	mkfile(&f, &s, &lay);
	memcpy(f.p, "PERFFILE", 8);
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), -EPROTO);
	set_u64(&f, 0, 0x50455246494c4532ULL); /* the other byte order */
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), -EPROTO);
	memcpy(f.p, "PERFILE3", 8);
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), -EBADMSG);
	memcpy(f.p, "\0\0\0\0\0\0\0\0", 8);
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), -EBADMSG);
	CHECK_INT(perfev_data_open_mem(f.p, 0, NULL, &r), -EBADMSG);
	set_u64(&f, 0, 0x32454c4946524550ULL);
	set_u64(&f, 8, 96); /* neither file, old file nor pipe header */
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), -EBADMSG);
	/* The first header had no feature bitmap: 72 bytes, whatever follows. */
	set_u64(&f, 8, 72);
	memset(f.p + 72, 0xff, 32);
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), 0);
	CHECK_INT(drain(r, &n), 0);
	CHECK_INT(n, 4);
	CHECK_INT(perfev_data_feature(r, PERFEV_FEAT_BUILD_ID, NULL, NULL), -ENOENT);
	perfev_data_close(r);
	free(data.p);
	free(f.p);
}

/* Every feature perf writes, in its format, and what the accessors make of it. */
TEST(features)
{
	struct perf_event_attr a[2];
	uint64_t ids[2] = {11, 12};
	struct buf data = {0}, f = {0}, host = {0}, os = {0}, ver = {0}, arch = {0}, desc = {0},
		   cpuid = {0}, cmd = {0}, ev = {0}, bid = {0}, odd = {0};
	uint32_t nrcpus[2] = {4, 2};
	uint64_t mem = 16318112, times[2] = {2000, 4000}, clockid = 1, v;
	struct perfev_data_reader *r;
	struct flayout lay;
	const void *p;
	char s[128];
	size_t len;
	int i;

	b_string(&host, "vm");
	b_string(&os, "6.1.0-test");
	b_string(&ver, "6.1.187");
	b_string(&arch, "x86_64");
	b_string(&desc, "AMD EPYC 7B13 64-Core Processor");
	b_string(&cpuid, "AuthenticAMD,25,1,1");
	b_u32(&cmd, 3);
	b_string(&cmd, "/usr/bin/perf");
	b_string(&cmd, "record");
	b_string(&cmd, "-g");
	b_u32(&ev, 2);
	b_u32(&ev, sizeof(struct perf_event_attr));
	for (i = 0; i < 2; i++) {
		clock_attr(&a[i], ST_MULTI);
		b_put(&ev, &a[i], sizeof(a[i]));
		b_u32(&ev, 1);
		b_string(&ev, i ? "task-clock" : "cpu-clock");
		b_u64(&ev, ids[i]);
	}
	b_header(&bid, PERF_RECORD_MMAP, 0, 8 + 4 + 24 + 16);
	b_u32(&bid, 42);
	b_zero(&bid, 24);
	b_put(&bid, "/bin/true\0\0\0\0\0\0", 16);
	b_put(&odd, "simpleperf", 10);
	{
		struct feat fs[] = {
		    {PERFEV_FEAT_BUILD_ID, bid.p, bid.len},
		    {PERFEV_FEAT_HOSTNAME, host.p, host.len},
		    {PERFEV_FEAT_OSRELEASE, os.p, os.len},
		    {PERFEV_FEAT_VERSION, ver.p, ver.len},
		    {PERFEV_FEAT_ARCH, arch.p, arch.len},
		    {PERFEV_FEAT_NRCPUS, nrcpus, sizeof(nrcpus)},
		    {PERFEV_FEAT_CPUDESC, desc.p, desc.len},
		    {PERFEV_FEAT_CPUID, cpuid.p, cpuid.len},
		    {PERFEV_FEAT_TOTAL_MEM, &mem, sizeof(mem)},
		    {PERFEV_FEAT_CMDLINE, cmd.p, cmd.len},
		    {PERFEV_FEAT_EVENT_DESC, ev.p, ev.len},
		    {PERFEV_FEAT_SAMPLE_TIME, times, sizeof(times)},
		    {PERFEV_FEAT_CLOCKID, &clockid, sizeof(clockid)},
		    {200, odd.p, odd.len}, /* a bit nobody has defined yet */
		    {255, odd.p, 0},
		};
		struct fspec sp = {.attrs = a,
				   .nattrs = 2,
				   .ids = ids,
				   .nids_each = 1,
				   .data = &data,
				   .feats = fs,
				   .nfeats = (int)(sizeof(fs) / sizeof(fs[0]))};

		data.len = 0;
		rec_sample_id(&data, 12, 0x1000, 5, 2000);
		mkfile(&f, &sp, &lay);
	}
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), 0);
	CHECK_STR(perfev_data_attr(r, 0)->name, "cpu-clock");
	CHECK_STR(perfev_data_attr(r, 1)->name, "task-clock");
	CHECK_INT(perfev_data_feature_string(r, PERFEV_FEAT_HOSTNAME, s, sizeof(s)), 2);
	CHECK_STR(s, "vm");
	CHECK_INT(perfev_data_feature_string(r, PERFEV_FEAT_OSRELEASE, s, sizeof(s)), 10);
	CHECK_STR(s, "6.1.0-test");
	CHECK_INT(perfev_data_feature_string(r, PERFEV_FEAT_VERSION, s, sizeof(s)), 7);
	CHECK_STR(s, "6.1.187");
	CHECK_INT(perfev_data_feature_string(r, PERFEV_FEAT_ARCH, s, sizeof(s)), 6);
	CHECK_STR(s, "x86_64");
	CHECK(perfev_data_feature_string(r, PERFEV_FEAT_CPUDESC, s, sizeof(s)) > 0);
	CHECK_STR(s, "AMD EPYC 7B13 64-Core Processor");
	CHECK(perfev_data_feature_string(r, PERFEV_FEAT_CPUID, s, sizeof(s)) > 0);
	CHECK_STR(s, "AuthenticAMD,25,1,1");
	CHECK_INT(perfev_data_feature_string(r, PERFEV_FEAT_CMDLINE, s, sizeof(s)), 23);
	CHECK_STR(s, "/usr/bin/perf record -g");
	/* Truncated as snprintf truncates; the length says how much there was. */
	CHECK_INT(perfev_data_feature_string(r, PERFEV_FEAT_CMDLINE, s, 5), 23);
	CHECK_STR(s, "/usr");
	CHECK_INT(perfev_data_feature_string(r, PERFEV_FEAT_CMDLINE, NULL, 0), 23);
	CHECK_INT(perfev_data_feature_string(r, PERFEV_FEAT_NRCPUS, s, sizeof(s)), -EINVAL);
	CHECK_INT(perfev_data_feature_string(r, PERFEV_FEAT_GROUP_DESC, s, sizeof(s)), -EINVAL);
	CHECK_INT(perfev_data_feature_u64(r, PERFEV_FEAT_NRCPUS, 0, &v), 0);
	CHECK_U64(v, 4);
	CHECK_INT(perfev_data_feature_u64(r, PERFEV_FEAT_NRCPUS, 1, &v), 0);
	CHECK_U64(v, 2);
	CHECK_INT(perfev_data_feature_u64(r, PERFEV_FEAT_NRCPUS, 2, &v), -EINVAL);
	CHECK_INT(perfev_data_feature_u64(r, PERFEV_FEAT_TOTAL_MEM, 0, &v), 0);
	CHECK_U64(v, mem);
	CHECK_INT(perfev_data_feature_u64(r, PERFEV_FEAT_SAMPLE_TIME, 0, &v), 0);
	CHECK_U64(v, 2000);
	CHECK_INT(perfev_data_feature_u64(r, PERFEV_FEAT_SAMPLE_TIME, 1, &v), 0);
	CHECK_U64(v, 4000);
	CHECK_INT(perfev_data_feature_u64(r, PERFEV_FEAT_CLOCKID, 0, &v), 0);
	CHECK_U64(v, 1);
	CHECK_INT(perfev_data_feature_u64(r, PERFEV_FEAT_HOSTNAME, 0, &v), -EINVAL);
	CHECK_INT(perfev_data_feature_u64(r, PERFEV_FEAT_STAT, 0, &v), -EINVAL);
	CHECK_INT(perfev_data_feature(r, PERFEV_FEAT_BUILD_ID, &p, &len), 0);
	CHECK(len == bid.len && !memcmp(p, bid.p, len));
	CHECK_INT(perfev_data_feature(r, 200, &p, &len), 0);
	CHECK(len == 10 && !memcmp(p, "simpleperf", 10));
	CHECK_INT(perfev_data_feature(r, 255, &p, &len), 0);
	CHECK_INT(len, 0);
	CHECK_INT(perfev_data_feature(r, PERFEV_FEAT_GROUP_DESC, &p, &len), -ENOENT);
	CHECK_INT(perfev_data_feature(r, -1, &p, &len), -EINVAL);
	CHECK_INT(perfev_data_feature(r, PERFEV_FEAT_MAX, &p, &len), -EINVAL);
	CHECK_INT(perfev_data_feature_string(r, PERFEV_FEAT_CLOCK_DATA, s, sizeof(s)), -EINVAL);
	CHECK_INT(perfev_data_feature_u64(r, PERFEV_FEAT_PMU_CAPS, 0, &v), -EINVAL);
	{
		struct perfev_data_record rec;

		CHECK_INT(perfev_data_next(r, &rec), 1);
		CHECK(rec.attr == perfev_data_attr(r, 1));
	}
	perfev_data_close(r);

	/* Malformed features are reported by the accessors that read them. */
	set_u32(&f, lay.feats + bid.len, 1000); /* hostname's length past its section */
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), 0);
	CHECK_INT(perfev_data_feature_string(r, PERFEV_FEAT_HOSTNAME, s, sizeof(s)), -EBADMSG);
	perfev_data_close(r);
	set_u32(&f, lay.feats + bid.len, 2); /* "vm" without its NUL */
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), 0);
	CHECK_INT(perfev_data_feature_string(r, PERFEV_FEAT_HOSTNAME, s, sizeof(s)), -EBADMSG);
	perfev_data_close(r);
	set_u32(&f, lay.feats + bid.len, 64);
	/* The NRCPUS section one byte short. */
	set_u64(&f, lay.table + 5 * 16 + 8, 7);
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), 0);
	CHECK_INT(perfev_data_feature_u64(r, PERFEV_FEAT_NRCPUS, 0, &v), -EBADMSG);
	perfev_data_close(r);
	set_u64(&f, lay.table + 5 * 16 + 8, 8);
	/* A command line claiming more strings than it has. */
	set_u32(&f,
		lay.feats + bid.len + host.len + os.len + ver.len + arch.len + 8 + desc.len +
		    cpuid.len + 8,
		0xffffffff);
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), 0);
	CHECK_INT(perfev_data_feature_string(r, PERFEV_FEAT_CMDLINE, s, sizeof(s)), -EBADMSG);
	perfev_data_close(r);
	free(data.p);
	free(f.p);
	free(host.p);
	free(os.p);
	free(ver.p);
	free(arch.p);
	free(desc.p);
	free(cpuid.p);
	free(cmd.p);
	free(ev.p);
	free(bid.p);
	free(odd.p);
}

/* EVENT_DESC is checked whole when the file is opened. */
/* GROUP_DESC: each group's name, leader and member count, as perf writes them. */
TEST(group_desc)
{
	struct perf_event_attr a[5];
	struct buf data = {0}, f = {0}, g = {0};
	struct perfev_data_group grp;
	struct perfev_data_reader *r;
	struct flayout lay;
	int i;

	for (i = 0; i < 5; i++)
		clock_attr(&a[i], ST_CLOCK);
	b_u32(&g, 2);
	b_string(&g, "{anon_group}");
	b_u32(&g, 0);
	b_u32(&g, 2);
	b_string(&g, "mine");
	b_u32(&g, 3);
	b_u32(&g, 2);
	{
		struct feat fs[] = {{PERFEV_FEAT_GROUP_DESC, g.p, g.len}};
		struct fspec sp = {
		    .attrs = a, .nattrs = 5, .data = &data, .feats = fs, .nfeats = 1};

		rec_sample(&data, 0x1000, 5, 2000, 1);
		mkfile(&f, &sp, &lay);
	}
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), 0);
	CHECK_INT(perfev_data_group(r, 0, &grp), 0);
	CHECK(grp.name == NULL);
	CHECK_INT(grp.leader, 0);
	CHECK_INT(grp.nr_members, 2);
	CHECK_INT(perfev_data_group(r, 1, &grp), 0);
	CHECK_STR(grp.name, "mine");
	CHECK_INT(grp.leader, 3);
	CHECK_INT(grp.nr_members, 2);
	CHECK_INT(perfev_data_group(r, 2, &grp), -ERANGE);
	CHECK_INT(perfev_data_group(r, 0, NULL), -EINVAL);
	CHECK_INT(perfev_data_group(NULL, 0, &grp), -EINVAL);
	perfev_data_close(r);

	/* A count of groups the section cannot hold, a name past it, a group of no event. */
	set_u32(&f, lay.feats, 3);
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), 0);
	CHECK_INT(perfev_data_group(r, 1, &grp), 0);
	CHECK_INT(perfev_data_group(r, 2, &grp), -EBADMSG);
	perfev_data_close(r);
	set_u32(&f, lay.feats, 2);
	set_u32(&f, lay.feats + 4, 1000);
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), 0);
	CHECK_INT(perfev_data_group(r, 0, &grp), -EBADMSG);
	perfev_data_close(r);
	set_u32(&f, lay.feats + 4, 64);
	set_u32(&f, lay.feats + 4 + 4 + 64 + 4, 0);
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), 0);
	CHECK_INT(perfev_data_group(r, 0, &grp), -EBADMSG);
	perfev_data_close(r);

	/* No feature. */
	{
		struct fspec sp = {.attrs = a, .nattrs = 1, .data = &data};

		mkfile(&f, &sp, &lay);
	}
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), 0);
	CHECK_INT(perfev_data_group(r, 0, &grp), -ENOENT);
	perfev_data_close(r);
	free(data.p);
	free(f.p);
	free(g.p);
}

TEST(event_desc_malformed)
{
	struct perf_event_attr a;
	uint64_t ids[1] = {1};
	struct buf data = {0}, f = {0}, ev = {0};
	struct perfev_data_reader *r;
	struct flayout lay;
	struct feat fs[1];
	struct fspec s = {.attrs = &a,
			  .nattrs = 1,
			  .ids = ids,
			  .nids_each = 1,
			  .data = &data,
			  .feats = fs,
			  .nfeats = 1};
	size_t at_ids;

	clock_attr(&a, ST_CLOCK);
	basic_data(&data);
	b_u32(&ev, 1);
	b_u32(&ev, sizeof(a));
	b_put(&ev, &a, sizeof(a));
	at_ids = ev.len;
	b_u32(&ev, 1);
	b_string(&ev, "cpu-clock");
	b_u64(&ev, 1);
	fs[0] = (struct feat){PERFEV_FEAT_EVENT_DESC, ev.p, ev.len};
	mkfile(&f, &s, &lay);
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), 0);
	CHECK_STR(perfev_data_attr(r, 0)->name, "cpu-clock");
	perfev_data_close(r);
	/* Absurd counts: events, ids, attr size, each more than the section holds. */
	set_u32(&f, lay.feats, 0x7fffffff);
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), -EBADMSG);
	set_u32(&f, lay.feats, 1);
	set_u32(&f, lay.feats + at_ids, 0xffffffff);
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), -EBADMSG);
	set_u32(&f, lay.feats + at_ids, 1);
	set_u32(&f, lay.feats + 4, 0xfffffff0);
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), -EBADMSG);
	set_u32(&f, lay.feats + 4, sizeof(a));
	/* More events described than the file has: the extra names go nowhere. */
	set_u32(&f, lay.feats, 0);
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), 0);
	CHECK(perfev_data_attr(r, 0)->name == NULL);
	perfev_data_close(r);
	free(data.p);
	free(f.p);
	free(ev.p);
}

/* Attrs of other sizes: older perf (64, 120), newer (136), and size 0 (the first ABI). */
TEST(attr_sizes)
{
	static const uint32_t slots[] = {64, 72, 120, 128, 136, 256};
	struct buf data = {0}, f = {0};
	uint64_t ids[1] = {5};
	struct perfev_data_reader *r;
	struct flayout lay;
	size_t i, n;

	basic_data(&data);
	for (i = 0; i < sizeof(slots) / sizeof(slots[0]); i++) {
		unsigned char big[256] = {0};
		struct perf_event_attr *a = (struct perf_event_attr *)big;
		struct fspec s = {.attrs = a,
				  .nattrs = 1,
				  .slot = slots[i],
				  .ids = ids,
				  .nids_each = 1,
				  .data = &data};
		const struct perfev_data_attr *da;
		unsigned char *stored;

		clock_attr(a, ST_CLOCK);
		a->size = slots[i];
		a->config2 = 0x1234; /* byte 64 on: only in slots that hold it */
		mkfile(&f, &s, &lay);
		CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), 0);
		da = perfev_data_attr(r, 0);
		CHECK_INT(da->attr->size, slots[i]);
		CHECK_U64(da->attr->config, PERF_COUNT_SW_CPU_CLOCK);
		CHECK_U64(da->attr->sample_type, ST_CLOCK);
		CHECK_U64(da->attr->config2, slots[i] > 64 ? 0x1234 : 0);
		stored = (unsigned char *)da->attr;
		for (n = slots[i]; n < sizeof(*a); n++)
			CHECK_INT(stored[n], 0);
		CHECK_INT(drain(r, &n), 0);
		CHECK_INT(n, 4);
		perfev_data_close(r);

		/* The attr using fewer bytes than its slot holds. */
		set_u32(&f, lay.attrs + 4, 64);
		CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), 0);
		da = perfev_data_attr(r, 0);
		CHECK_INT(da->attr->size, 64);
		CHECK_U64(da->attr->sample_type, ST_CLOCK);
		CHECK_U64(da->attr->config2, 0); /* zero, not the slot's bytes */
		perfev_data_close(r);
		set_u32(&f, lay.attrs + 4, 0); /* the first ABI: 64 bytes */
		CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), 0);
		CHECK_INT(perfev_data_attr(r, 0)->attr->size, 64);
		perfev_data_close(r);
		/* Claiming more bytes than its slot, or fewer than the first ABI had. */
		set_u32(&f, lay.attrs + 4, slots[i] + 8);
		CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), -EBADMSG);
		set_u32(&f, lay.attrs + 4, 32);
		CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), -EBADMSG);
	}
	free(data.p);
	free(f.p);
}

TEST(unknown_sample_bits)
{
	struct perf_event_attr a;
	uint64_t ids[1] = {5};
	struct buf data = {0}, f = {0};
	struct fspec s = {.attrs = &a, .nattrs = 1, .ids = ids, .nids_each = 1, .data = &data};
	struct perfev_data_reader *r;
	struct flayout lay;

	clock_attr(&a, ST_CLOCK | (1ULL << 62));
	basic_data(&data);
	mkfile(&f, &s, &lay);
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), -EPROTO);
	free(data.p);
	free(f.p);
}

/* Several events: records find theirs by id, synthesized ones (id 0) the first. */
TEST(several_events)
{
	struct perf_event_attr a[2];
	uint64_t ids[4] = {100, 101, 200, 201};
	struct buf data = {0}, f = {0};
	struct fspec s = {.attrs = a, .nattrs = 2, .ids = ids, .nids_each = 2, .data = &data};
	const struct perfev_data_attr *want[6];
	struct perfev_data_reader *r;
	struct perfev_data_record rec;
	struct flayout lay;
	int i = 0, ret;

	clock_attr(&a[0], ST_MULTI);
	clock_attr(&a[1], ST_MULTI);
	a[1].config = PERF_COUNT_SW_PAGE_FAULTS;
	rec_sample_id(&data, 201, 0x10, 1, 10);
	rec_sample_id(&data, 100, 0x20, 1, 20);
	rec_exit_id(&data, 200, 1, 30);
	rec_exit_id(&data, 0, 1, 40);
	rec_sample_id(&data, 999, 0x30, 1, 50);
	b_header(&data, PERFEV_RECORD_FINISHED_ROUND, 0, 8);
	mkfile(&f, &s, &lay);
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), 0);
	CHECK_INT(perfev_data_attr_count(r), 2);
	want[0] = perfev_data_attr(r, 1);
	want[1] = perfev_data_attr(r, 0);
	want[2] = perfev_data_attr(r, 1);
	want[3] = perfev_data_attr(r, 0);
	want[4] = NULL; /* an id no event has */
	want[5] = NULL; /* perf's own records belong to no event */
	while ((ret = perfev_data_next(r, &rec)) == 1) {
		CHECK(i < 6);
		EXPECT(rec.attr == want[i], "record %d: event %p, expected %p", i, (void *)rec.attr,
		       (void *)want[i]);
		i++;
	}
	CHECK_INT(ret, 0);
	CHECK_INT(i, 6);
	CHECK(perfev_data_attr_by_id(r, 101) == perfev_data_attr(r, 0));
	CHECK(perfev_data_attr_by_id(r, 200) == perfev_data_attr(r, 1));
	perfev_data_close(r);

	/* Two events claiming the same id: the first keeps it. */
	ids[2] = 100;
	mkfile(&f, &s, &lay);
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), 0);
	CHECK(perfev_data_attr_by_id(r, 100) == perfev_data_attr(r, 0));
	perfev_data_close(r);
	free(data.p);
	free(f.p);
}

TEST(unknown_records)
{
	struct perf_event_attr a;
	uint64_t ids[1] = {5};
	struct buf data = {0}, f = {0};
	struct fspec s = {.attrs = &a, .nattrs = 1, .ids = ids, .nids_each = 1, .data = &data};
	static const uint32_t types[] = {PERF_RECORD_SAMPLE, 63, 200, 0xffffffff, 4000};
	struct perfev_data_reader *r;
	struct perfev_data_record rec;
	struct flayout lay;
	size_t i;

	clock_attr(&a, ST_CLOCK);
	rec_sample(&data, 1, 2, 3, 4);
	b_header(&data, 63, 0, 12); /* an odd size: records need not be 8-aligned */
	b_u32(&data, 0);
	b_header(&data, 200, 7, 8);
	b_header(&data, 0xffffffff, 0, 16);
	b_u64(&data, 1);
	b_header(&data, 4000, 0, 8);
	mkfile(&f, &s, &lay);
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), 0);
	for (i = 0; i < 5; i++) {
		CHECK_INT(perfev_data_next(r, &rec), 1);
		CHECK_U64(rec.type, types[i]);
		/* Kernel types the library does not know still belong to the event. */
		CHECK(rec.attr == (types[i] < 64 ? perfev_data_attr(r, 0) : NULL));
	}
	CHECK_INT(rec.misc, 0);
	CHECK_INT(perfev_data_next(r, &rec), 0);
	perfev_data_close(r);
	free(data.p);
	free(f.p);
}

/* Records that do not fit: the reader stops with -EBADMSG and stays stopped. */
TEST(bad_records)
{
	struct perf_event_attr a;
	uint64_t ids[1] = {5};
	struct buf data = {0}, f = {0};
	struct fspec s = {.attrs = &a, .nattrs = 1, .ids = ids, .nids_each = 1, .data = &data};
	static const uint16_t sizes[] = {0, 4, 7, 41, 0xffff};
	struct perfev_data_reader *r;
	struct perfev_data_record rec;
	struct flayout lay;
	size_t i;

	clock_attr(&a, ST_CLOCK);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		data.len = 0;
		rec_sample(&data, 1, 2, 3, 4);
		rec_sample(&data, 1, 2, 3, 4);
		mkfile(&f, &s, &lay);
		memcpy(f.p + lay.data + 40 + 6, &sizes[i], 2);
		CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), 0);
		CHECK_INT(perfev_data_next(r, &rec), 1);
		CHECK_INT(perfev_data_next(r, &rec), -EBADMSG);
		CHECK_INT(perfev_data_next(r, &rec), -EBADMSG);
		perfev_data_close(r);
	}
	/* Less than a header left in the data section. */
	data.len = 0;
	rec_sample(&data, 1, 2, 3, 4);
	b_u32(&data, 0);
	mkfile(&f, &s, &lay);
	CHECK_INT(perfev_data_open_mem(f.p, f.len, NULL, &r), 0);
	CHECK_INT(perfev_data_next(r, &rec), 1);
	CHECK_INT(perfev_data_next(r, &rec), -EBADMSG);
	perfev_data_close(r);
	free(data.p);
	free(f.p);
}

/* Sections and counts that point outside the file, or overflow on the way. */
TEST(bad_sections)
{
	struct perf_event_attr a;
	uint64_t ids[2] = {5, 6};
	struct buf data = {0}, f = {0}, host = {0};
	struct feat fs[1];
	struct fspec s = {.attrs = &a,
			  .nattrs = 1,
			  .ids = ids,
			  .nids_each = 2,
			  .data = &data,
			  .feats = fs,
			  .nfeats = 1};
	struct {
		size_t off;
		uint64_t value;
	} bad[] = {
	    {24, 1ULL << 40},	      /* attrs offset */
	    {32, 1ULL << 40},	      /* attrs size */
	    {24, UINT64_MAX - 8},     /* offset + size overflows */
	    {32, 144 * 3},	      /* more attrs than the file */
	    {32, 100},		      /* not a whole number of attrs */
	    {16, 0},		      /* attr_size 0 with attrs */
	    {16, 8},		      /* attr_size smaller than any attr */
	    {16, 1 << 20},	      /* attr_size absurd */
	    {40, 1ULL << 40},	      /* data offset */
	    {48, 1ULL << 40},	      /* data size */
	    {48, UINT64_MAX},	      /* data size overflows */
	    {40, UINT64_MAX - 7},     /* data offset overflows */
	    {72, 0xffffffffffffffff}, /* a bitmap with more sections than the file */
	};
	struct perfev_data_reader *r;
	struct flayout lay;
	struct buf g = {0};
	size_t i, slot = sizeof(a);

	clock_attr(&a, ST_CLOCK);
	basic_data(&data);
	b_string(&host, "vm");
	fs[0] = (struct feat){PERFEV_FEAT_HOSTNAME, host.p, host.len};
	mkfile(&f, &s, &lay);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		b_put(&g, f.p, f.len);
		set_u64(&g, bad[i].off, bad[i].value);
		EXPECT(perfev_data_open_mem(g.p, g.len, NULL, &r) == -EBADMSG, "case %zu", i);
		g.len = 0;
	}
	/* The ids of an attr: outside, overflowing, not a whole number of u64. */
	{
		uint64_t idsec[][2] = {
		    {1ULL << 40, 8}, {8, 1ULL << 40}, {UINT64_MAX, 16}, {104, 12}};

		for (i = 0; i < 4; i++) {
			b_put(&g, f.p, f.len);
			set_u64(&g, lay.attrs + slot, idsec[i][0]);
			set_u64(&g, lay.attrs + slot + 8, idsec[i][1]);
			EXPECT(perfev_data_open_mem(g.p, g.len, NULL, &r) == -EBADMSG, "ids %zu",
			       i);
			g.len = 0;
		}
	}
	/* A feature section outside the file, or overflowing. */
	{
		uint64_t fsec[][2] = {{1ULL << 40, 8}, {0, 1ULL << 40}, {UINT64_MAX - 1, 4}};

		for (i = 0; i < 3; i++) {
			b_put(&g, f.p, f.len);
			set_u64(&g, lay.table, fsec[i][0]);
			set_u64(&g, lay.table + 8, fsec[i][1]);
			EXPECT(perfev_data_open_mem(g.p, g.len, NULL, &r) == -EBADMSG, "feat %zu",
			       i);
			g.len = 0;
		}
	}
	/* Sections may overlap: the header's own bytes read as a feature are just bytes. */
	b_put(&g, f.p, f.len);
	set_u64(&g, lay.table, 0);
	set_u64(&g, lay.table + 8, 104);
	CHECK_INT(perfev_data_open_mem(g.p, g.len, NULL, &r), 0);
	CHECK_INT(perfev_data_feature_string(r, PERFEV_FEAT_HOSTNAME, NULL, 0), -EBADMSG);
	perfev_data_close(r);
	/* No attrs at all is a file of records nobody can decode, not an error. */
	g.len = 0;
	b_put(&g, f.p, f.len);
	set_u64(&g, 32, 0);
	CHECK_INT(perfev_data_open_mem(g.p, g.len, NULL, &r), 0);
	CHECK_INT(perfev_data_attr_count(r), 0);
	{
		struct perfev_data_record rec;

		CHECK_INT(perfev_data_next(r, &rec), 1);
		CHECK(rec.attr == NULL);
	}
	perfev_data_close(r);
	free(g.p);
	free(data.p);
	free(f.p);
	free(host.p);
}

/* Every prefix of a file is refused, never read past (the copy is exact for ASan). */
TEST(truncated_file)
{
	struct perf_event_attr a;
	uint64_t ids[2] = {5, 6}, mem = 1024;
	struct buf data = {0}, f = {0}, host = {0};
	struct feat fs[2];
	struct fspec s = {.attrs = &a,
			  .nattrs = 1,
			  .ids = ids,
			  .nids_each = 2,
			  .data = &data,
			  .feats = fs,
			  .nfeats = 2};
	struct perfev_data_reader *r;
	struct flayout lay;
	size_t n, count;
	void *copy;
	int ret;

	clock_attr(&a, ST_CLOCK);
	basic_data(&data);
	b_string(&host, "vm");
	fs[0] = (struct feat){PERFEV_FEAT_HOSTNAME, host.p, host.len};
	fs[1] = (struct feat){PERFEV_FEAT_TOTAL_MEM, &mem, sizeof(mem)};
	mkfile(&f, &s, &lay);
	for (n = 0; n < f.len; n++) {
		ret = open_copy(f.p, n, &copy, &r);
		EXPECT(ret == -EBADMSG, "prefix %zu: %d", n, ret);
		if (!ret)
			perfev_data_close(r);
		free(copy);
	}
	ret = open_copy(f.p, f.len, &copy, &r);
	CHECK_INT(ret, 0);
	CHECK_INT(drain(r, &count), 0);
	CHECK_INT(count, 4);
	perfev_data_close(r);
	free(copy);
	free(data.p);
	free(f.p);
	free(host.p);
}

/* ---- pipe mode --------------------------------------------------------------------------- */

static void pipe_attr(struct buf *b, const struct perf_event_attr *a, const uint64_t *ids,
		      size_t nids)
{
	b_header(b, PERFEV_RECORD_HEADER_ATTR, 0, 8 + a->size + nids * 8);
	b_put(b, a, a->size);
	b_put(b, ids, nids * 8);
}

static void pipe_feature(struct buf *b, uint64_t feat, const void *data, size_t len)
{
	b_header(b, PERFEV_RECORD_HEADER_FEATURE, 0, 16 + len);
	b_u64(b, feat);
	b_put(b, data, len);
}

/* A stream as perf 6.1 sends it: attrs, features, tracing data, then records. */
static void mkpipe(struct buf *p, size_t *boundaries, size_t *nb)
{
	struct perf_event_attr a[2];
	uint64_t ids[2] = {21, 22}, mem = 2048;
	struct buf host = {0};
	static const char tracing[] = "tracing data\n"; /* 14 bytes, padded to 16 */

	*nb = 0;
	p->len = 0;
	b_u64(p, 0x32454c4946524550ULL);
	b_u64(p, 16);
	boundaries[(*nb)++] = p->len;
	clock_attr(&a[0], ST_MULTI);
	clock_attr(&a[1], ST_MULTI);
	a[1].size = 120; /* an older perf's attr */
	pipe_attr(p, &a[0], &ids[0], 1);
	boundaries[(*nb)++] = p->len;
	pipe_attr(p, &a[1], &ids[1], 1);
	boundaries[(*nb)++] = p->len;
	b_string(&host, "pipehost");
	pipe_feature(p, PERFEV_FEAT_HOSTNAME, host.p, host.len);
	boundaries[(*nb)++] = p->len;
	pipe_feature(p, PERFEV_FEAT_TOTAL_MEM, &mem, 4); /* odd-sized: unaligned from here */
	boundaries[(*nb)++] = p->len;
	pipe_feature(p, 1000, "x", 1); /* not a bitmap bit */
	boundaries[(*nb)++] = p->len;
	pipe_feature(p, 32, NULL, 0); /* perf's end marker */
	boundaries[(*nb)++] = p->len;
	b_header(p, PERFEV_RECORD_HEADER_TRACING_DATA, 0, 16);
	b_u32(p, 16);
	b_u32(p, 0);
	b_put(p, tracing, sizeof(tracing));
	b_zero(p, 16 - sizeof(tracing));
	boundaries[(*nb)++] = p->len;
	/* perf names events of a stream with EVENT_UPDATE */
	b_header(p, PERFEV_RECORD_EVENT_UPDATE, 0, 24 + 16);
	b_u64(p, 2);
	b_u64(p, 22);
	b_put(p, "page-faults\0\0\0\0\0", 16);
	boundaries[(*nb)++] = p->len;
	rec_sample_id(p, 22, 0x100, 3, 1000);
	boundaries[(*nb)++] = p->len;
	rec_sample_id(p, 21, 0x200, 3, 2000);
	boundaries[(*nb)++] = p->len;
	b_header(p, PERFEV_RECORD_AUXTRACE, 0, 48);
	b_u64(p, 5); /* 5 bytes of AUX data follow */
	b_zero(p, 32);
	b_put(p, "hello", 5);
	boundaries[(*nb)++] = p->len;
	b_header(p, PERFEV_RECORD_FINISHED_ROUND, 0, 8);
	boundaries[(*nb)++] = p->len;
	free(host.p);
}

static void check_pipe_reader(struct perfev_data_reader *r, const unsigned char *base)
{
	static const uint32_t types[] = {PERFEV_RECORD_EVENT_UPDATE, PERF_RECORD_SAMPLE,
					 PERF_RECORD_SAMPLE, PERFEV_RECORD_AUXTRACE,
					 PERFEV_RECORD_FINISHED_ROUND};
	struct perfev_data_record rec;
	const void *p;
	char s[64];
	size_t len, i;
	uint64_t v;

	CHECK(perfev_data_is_pipe(r));
	CHECK_INT(perfev_data_attr_count(r), 0);
	for (i = 0; i < 5; i++) {
		CHECK_INT(perfev_data_next(r, &rec), 1);
		CHECK_U64(rec.type, types[i]);
		if (base)
			CHECK(rec.bytes == base + rec.offset);
		if (i == 1)
			CHECK(rec.attr == perfev_data_attr(r, 1));
		if (i == 2)
			CHECK(rec.attr == perfev_data_attr(r, 0));
		if (i == 3) {
			CHECK(rec.payload && rec.payload_size == 5);
			CHECK(!memcmp(rec.payload, "hello", 5));
		}
	}
	CHECK_INT(perfev_data_next(r, &rec), 0);
	CHECK_INT(perfev_data_attr_count(r), 2);
	CHECK_INT(perfev_data_attr(r, 1)->attr->size, 120);
	CHECK(perfev_data_attr(r, 0)->name == NULL);
	CHECK_STR(perfev_data_attr(r, 1)->name, "page-faults");
	CHECK_INT(perfev_data_feature_string(r, PERFEV_FEAT_HOSTNAME, s, sizeof(s)), 8);
	CHECK_STR(s, "pipehost");
	CHECK_INT(perfev_data_feature_u64(r, PERFEV_FEAT_TOTAL_MEM, 0, &v), -EBADMSG);
	CHECK_INT(perfev_data_feature(r, PERFEV_FEAT_TOTAL_MEM, &p, &len), 0);
	CHECK_INT(len, 4);
	CHECK_INT(perfev_data_feature(r, 32, &p, &len), -ENOENT);
	CHECK_INT(perfev_data_feature(r, PERFEV_FEAT_TRACING_DATA, &p, &len), 0);
	CHECK_INT(len, 16);
	CHECK(!memcmp(p, "tracing data\n", 14));
}

TEST(pipe_mode)
{
	struct buf p = {0};
	size_t b[32], nb;
	struct perfev_data_reader *r;

	mkpipe(&p, b, &nb);
	CHECK_INT(perfev_data_open_mem(p.p, p.len, NULL, &r), 0);
	check_pipe_reader(r, p.p);
	perfev_data_close(r);
	free(p.p);
}

/* A stream cut anywhere: at a record boundary it just ends, elsewhere it is -EBADMSG. */
TEST(pipe_truncated)
{
	struct buf p = {0};
	size_t b[32], nb, n, k, count;
	struct perfev_data_reader *r;
	void *copy;
	int ret;

	mkpipe(&p, b, &nb);
	for (n = 0; n <= p.len; n++) {
		bool boundary = false;

		for (k = 0; k < nb; k++)
			boundary |= b[k] == n;
		ret = open_copy(p.p, n, &copy, &r);
		if (n < 16) {
			EXPECT(ret == -EBADMSG, "prefix %zu: open %d", n, ret);
		} else {
			CHECK_INT(ret, 0);
			ret = drain(r, &count);
			EXPECT(ret == (boundary ? 0 : -EBADMSG), "prefix %zu: %d", n, ret);
			perfev_data_close(r);
		}
		free(copy);
	}
	free(p.p);
}

TEST(pipe_bad_records)
{
	struct perf_event_attr a;
	struct buf p = {0};
	struct perfev_data_reader *r;
	struct perfev_data_record rec;
	uint64_t id = 1;
	int i;

	clock_attr(&a, ST_CLOCK);
	for (i = 0; i < 6; i++) {
		p.len = 0;
		b_u64(&p, 0x32454c4946524550ULL);
		b_u64(&p, 16);
		switch (i) {
		case 0: /* an attr claiming more than its record */
			b_header(&p, PERFEV_RECORD_HEADER_ATTR, 0, 8 + sizeof(a) + 8);
			a.size = 200;
			b_put(&p, &a, sizeof(a));
			b_u64(&p, id);
			break;
		case 1: /* ids that are not whole u64s */
			a.size = sizeof(a);
			b_header(&p, PERFEV_RECORD_HEADER_ATTR, 0, 8 + sizeof(a) + 4);
			b_put(&p, &a, sizeof(a));
			b_u32(&p, 0);
			break;
		case 2: /* a record too short for an attr */
			b_header(&p, PERFEV_RECORD_HEADER_ATTR, 0, 16);
			b_u64(&p, 0);
			break;
		case 3: /* a feature record without its id */
			b_header(&p, PERFEV_RECORD_HEADER_FEATURE, 0, 12);
			b_u32(&p, 0);
			break;
		case 4: /* tracing data longer than the stream */
			b_header(&p, PERFEV_RECORD_HEADER_TRACING_DATA, 0, 16);
			b_u32(&p, 0xfffffff0);
			b_u32(&p, 0);
			break;
		case 5: /* AUX data longer than the stream */
			b_header(&p, PERFEV_RECORD_AUXTRACE, 0, 48);
			b_u64(&p, UINT64_MAX);
			b_zero(&p, 32);
			break;
		}
		CHECK_INT(perfev_data_open_mem(p.p, p.len, NULL, &r), 0);
		EXPECT(perfev_data_next(r, &rec) == -EBADMSG, "case %d", i);
		perfev_data_close(r);
	}
	free(p.p);
}

/*
 * An empty TRACING_DATA (perf writes none, a damaged stream may): through
 * a pipe no payload was ever read, so the feature is kept from no buffer.
 */
TEST(pipe_tracing_empty)
{
	struct buf p = {0};
	struct perfev_data_reader *r;
	struct perfev_data_record rec;
	const void *data;
	size_t len;
	int fds[2];

	b_u64(&p, 0x32454c4946524550ULL);
	b_u64(&p, 16);
	b_header(&p, PERFEV_RECORD_HEADER_TRACING_DATA, 0, 16);
	b_u32(&p, 0);
	b_u32(&p, 0);
	b_header(&p, PERFEV_RECORD_FINISHED_ROUND, 0, 8);
	CHECK_INT(pipe(fds), 0);
	CHECK_INT(write(fds[1], p.p, p.len), (ssize_t)p.len);
	close(fds[1]);
	CHECK_INT(perfev_data_open_fd(fds[0], NULL, &r), 0);
	CHECK_INT(perfev_data_next(r, &rec), 1);
	CHECK_U64(rec.type, PERFEV_RECORD_FINISHED_ROUND);
	CHECK_INT(perfev_data_next(r, &rec), 0);
	CHECK_INT(perfev_data_feature(r, PERFEV_FEAT_TRACING_DATA, &data, &len), 0);
	CHECK_INT(len, 0);
	perfev_data_close(r);
	close(fds[0]);
	free(p.p);
}

/* pipe(2) and a regular file through descriptors: streamed, and read whole. */
TEST(open_fd)
{
	struct perf_event_attr a;
	uint64_t ids[1] = {5};
	struct buf p = {0}, data = {0}, f = {0};
	struct fspec s = {.attrs = &a, .nattrs = 1, .ids = ids, .nids_each = 1, .data = &data};
	struct perfev_data_reader *r;
	struct flayout lay;
	size_t b[32], nb, n;
	int fds[2], ret;

	mkpipe(&p, b, &nb);
	CHECK(p.len < 4096); /* fits in the pipe's buffer: no writer thread needed */
	CHECK_INT(pipe(fds), 0);
	CHECK_INT(write(fds[1], p.p, p.len), (ssize_t)p.len);
	close(fds[1]);
	ret = perfev_data_open_fd(fds[0], NULL, &r);
	CHECK_INT(ret, 0);
	check_pipe_reader(r, NULL);
	perfev_data_close(r);
	close(fds[0]);

	/* A file-mode file on a pipe is read whole first. */
	clock_attr(&a, ST_CLOCK);
	basic_data(&data);
	mkfile(&f, &s, &lay);
	CHECK_INT(pipe(fds), 0);
	CHECK_INT(write(fds[1], f.p, f.len), (ssize_t)f.len);
	close(fds[1]);
	CHECK_INT(perfev_data_open_fd(fds[0], NULL, &r), 0);
	CHECK(!perfev_data_is_pipe(r));
	CHECK_INT(drain(r, &n), 0);
	CHECK_INT(n, 4);
	perfev_data_close(r);
	close(fds[0]);

	/* A stream cut in the middle of a record. */
	CHECK_INT(pipe(fds), 0);
	CHECK_INT(write(fds[1], p.p, b[9] + 5), (ssize_t)(b[9] + 5));
	close(fds[1]);
	CHECK_INT(perfev_data_open_fd(fds[0], NULL, &r), 0);
	CHECK_INT(drain(r, &n), -EBADMSG);
	CHECK_INT(n, 2);
	perfev_data_close(r);
	close(fds[0]);

	/* An empty file, a too short stream. */
	{
		char path[] = "/tmp/perfev-test-XXXXXX";
		int fd = mkstemp(path);

		CHECK(fd >= 0);
		unlink(path);
		CHECK_INT(perfev_data_open_fd(fd, NULL, &r), -EBADMSG);
		CHECK_INT(write(fd, f.p, f.len), (ssize_t)f.len);
		CHECK_INT(perfev_data_open_fd(fd, NULL, &r), 0); /* mapped whole, from offset 0 */
		CHECK_INT(drain(r, &n), 0);
		CHECK_INT(n, 4);
		perfev_data_close(r);
		close(fd);
	}
	CHECK_INT(pipe(fds), 0);
	CHECK_INT(write(fds[1], p.p, 10), 10);
	close(fds[1]);
	CHECK_INT(perfev_data_open_fd(fds[0], NULL, &r), -EBADMSG);
	close(fds[0]);

	/* "-" is standard input, left open. */
	{
		int saved = dup(STDIN_FILENO);

		CHECK(saved >= 0);
		CHECK_INT(pipe(fds), 0);
		CHECK_INT(write(fds[1], p.p, p.len), (ssize_t)p.len);
		close(fds[1]);
		CHECK_INT(dup2(fds[0], STDIN_FILENO), STDIN_FILENO);
		close(fds[0]);
		ret = perfev_data_open("-", NULL, &r);
		if (!ret) {
			check_pipe_reader(r, NULL);
			perfev_data_close(r);
		}
		CHECK(fcntl(STDIN_FILENO, F_GETFD) >= 0);
		dup2(saved, STDIN_FILENO);
		close(saved);
		CHECK_INT(ret, 0);
	}
	free(p.p);
	free(data.p);
	free(f.p);
}
