// SPDX-License-Identifier: LGPL-2.1-or-later
/* The machine and the source on synthetic records: time order, threads, maps, READ groups, live
 * input. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <perfev/machine.h>
#include <perfev/source.h>
#include "harness.h"
#include "perfdata-synth.h"

#define ST_SRC                                                                                     \
	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)
#define ST_GRP                                                                                     \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |            \
	 PERF_SAMPLE_READ)

/* Encode @rec in @attr's layout at the end of @b. */
static void put(struct buf *b, const struct perf_event_attr *attr, struct perfev_record *rec)
{
	struct perfev_sample_layout l;
	unsigned char tmp[4096];
	int n;

	if (perfev_sample_layout_init(&l, attr))
		abort();
	n = perfev_record_encode(&l, rec, tmp, sizeof(tmp));
	if (n < 0)
		abort();
	b_put(b, tmp, (size_t)n);
}

static void sid(struct perfev_record *r, uint32_t pid, uint64_t time)
{
	r->sid.present = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
	r->sid.pid = r->sid.tid = pid;
	r->sid.time = time;
}

static void comm(struct buf *b, const struct perf_event_attr *a, uint32_t pid, const char *name,
		 uint64_t time)
{
	struct perfev_record r = {.type = PERF_RECORD_COMM};

	r.u.comm.pid = r.u.comm.tid = pid;
	r.u.comm.comm = name;
	sid(&r, pid, time);
	put(b, a, &r);
}

static void mmap2(struct buf *b, const struct perf_event_attr *a, uint32_t pid, uint64_t addr,
		  uint64_t len, uint64_t pgoff, const char *file, uint64_t time)
{
	struct perfev_record r = {.type = PERF_RECORD_MMAP2, .misc = PERF_RECORD_MISC_USER};

	r.u.mmap2.pid = r.u.mmap2.tid = pid;
	r.u.mmap2.addr = addr;
	r.u.mmap2.len = len;
	r.u.mmap2.pgoff = pgoff;
	r.u.mmap2.prot = 5; /* read, exec */
	r.u.mmap2.filename = file;
	sid(&r, pid, time);
	put(b, a, &r);
}

static void sample(struct buf *b, const struct perf_event_attr *a, uint32_t tid, uint64_t ip,
		   uint64_t time, uint32_t cpu)
{
	struct perfev_record r = {.type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER};

	r.u.sample.ip = ip;
	r.u.sample.pid = r.u.sample.tid = tid;
	r.u.sample.time = time;
	r.u.sample.cpu = cpu;
	r.u.sample.period = 1000;
	put(b, a, &r);
}

static void round_end(struct buf *b)
{
	b_header(b, PERFEV_RECORD_FINISHED_ROUND, 0, 8);
}

static void src_attr(struct perf_event_attr *a)
{
	clock_attr(a, ST_SRC);
	a->exclude_guest = 1; /* perf's default: no modifier in the name */
}

/* Open @data (records of the one event @a) as a file source. */
static int open_file(const struct perf_event_attr *a, int nattrs, const uint64_t *ids,
		     size_t nids_each, const struct buf *data, struct buf *f,
		     const struct perfev_source_opts *opts, struct perfev_source **src)
{
	struct fspec s = {
	    .attrs = a, .nattrs = nattrs, .ids = ids, .nids_each = nids_each, .data = data};
	struct flayout lay;

	mkfile(f, &s, &lay);
	return perfev_source_open_mem(f->p, f->len, opts, src);
}

/* Records across three rounds, each round's out of order: perf's rule puts them in order. */
TEST(file_time_order)
{
	static const struct {
		uint32_t type;
		uint64_t time;
		const char *comm;
	} want[] = {
	    {PERFEV_RECORD_FINISHED_ROUND, 0, NULL}, {PERF_RECORD_COMM, 100, NULL},
	    {PERF_RECORD_MMAP2, 110, NULL},	     {PERF_RECORD_SAMPLE, 150, "work"},
	    {PERF_RECORD_SAMPLE, 200, "work"},	     {PERF_RECORD_COMM, 250, NULL},
	    {PERF_RECORD_SAMPLE, 300, "work2"},	     {PERFEV_RECORD_FINISHED_ROUND, 0, NULL},
	    {PERF_RECORD_SAMPLE, 350, "work2"},	     {PERF_RECORD_SAMPLE, 400, "work2"},
	};
	struct perf_event_attr a;
	struct buf data = {0}, f = {0};
	struct perfev_source *src = NULL;
	const struct perfev_source_event *ev;
	struct perfev_source_stats st = {.sz = sizeof(st)};
	size_t i = 0;
	int ret;

	src_attr(&a);
	/* Round 1 */
	comm(&data, &a, 42, "work", 100);
	sample(&data, &a, 42, 0x401234, 300, 1);
	mmap2(&data, &a, 42, 0x400000, 0x10000, 0x1000, "/nonexistent/work", 110);
	sample(&data, &a, 42, 0x401234, 200, 2);
	round_end(&data);
	/* Round 2: older than round 1's newest, not than the round before it. */
	sample(&data, &a, 42, 0x401234, 150, 3);
	sample(&data, &a, 42, 0x401234, 400, 1);
	comm(&data, &a, 42, "work2", 250);
	round_end(&data);
	/* Round 3, cut short by the end of the file */
	sample(&data, &a, 42, 0x401234, 350, 2);
	CHECK_INT(open_file(&a, 1, NULL, 0, &data, &f, NULL, &src), 0);
	CHECK_INT(perfev_source_attr_count(src), 1);
	CHECK_STR(perfev_source_attr_name(src, 0), "cpu-clock");
	CHECK_STR(perfev_source_attr_name(src, 1), "[unknown]");
	while ((ret = perfev_source_next(src, &ev)) == 1) {
		CHECK(i < sizeof(want) / sizeof(want[0]));
		CHECK_INT(ev->type, want[i].type);
		if (want[i].time)
			CHECK_U64(ev->time, want[i].time);
		CHECK_INT(ev->kind, want[i].type == PERF_RECORD_SAMPLE ? PERFEV_SOURCE_SAMPLE
								       : PERFEV_SOURCE_RECORD);
		if (want[i].comm) {
			CHECK_STR(ev->comm, want[i].comm);
			CHECK_STR(ev->name, "cpu-clock");
			CHECK_INT(ev->attr_idx, 0);
			CHECK_INT(ev->pid, 42);
			CHECK_U64(ev->period, 1000);
		}
		i++;
	}
	CHECK_INT(ret, 0);
	CHECK_INT(i, sizeof(want) / sizeof(want[0]));
	CHECK_INT(perfev_source_next(src, &ev), 0);
	CHECK_INT(perfev_source_stats(src, &st), 0);
	CHECK_U64(st.records, 10);
	CHECK_U64(st.samples, 5);
	CHECK_U64(st.good_end, f.len); /* no feature sections after the data */
	CHECK_U64(st.out_of_order, 0);
	perfev_source_free(src);
	free(data.p);
	free(f.p);
}

/* A record older than what a round before let out comes late, and is counted. */
TEST(file_out_of_order)
{
	struct perf_event_attr a;
	struct buf data = {0}, f = {0};
	struct perfev_source *src = NULL;
	const struct perfev_source_event *ev;
	struct perfev_source_stats st = {.sz = sizeof(st)};
	uint64_t times[8];
	size_t n = 0;
	int ret;

	src_attr(&a);
	sample(&data, &a, 42, 0x401234, 300, 1);
	round_end(&data);
	sample(&data, &a, 42, 0x401234, 400, 1);
	round_end(&data);
	/* The exec's COMM, held back by a ring read late: older than the samples let out. */
	comm(&data, &a, 42, "late", 100);
	sample(&data, &a, 42, 0x401234, 500, 1);
	round_end(&data);
	CHECK_INT(open_file(&a, 1, NULL, 0, &data, &f, NULL, &src), 0);
	while ((ret = perfev_source_next(src, &ev)) == 1)
		if (ev->time && n < 8)
			times[n++] = ev->time;
	CHECK_INT(ret, 0);
	CHECK_INT(n, 4);
	CHECK_U64(times[0], 300);
	CHECK_U64(times[1], 100);
	CHECK_INT(perfev_source_stats(src, &st), 0);
	CHECK_U64(st.out_of_order, 1);
	perfev_source_free(src);
	free(data.p);
	free(f.p);
}

/* A sample's frames: its map, the address perf shows, the process's comm; another pid has none. */
TEST(file_frames)
{
	struct perf_event_attr a;
	struct buf data = {0}, f = {0};
	struct perfev_source *src = NULL;
	const struct perfev_source_event *ev;
	const struct perfev_frame *fr, *fr2;
	size_t n, seen = 0;
	uint32_t id0 = 0;

	src_attr(&a);
	comm(&data, &a, 42, "work", 100);
	mmap2(&data, &a, 42, 0x400000, 0x10000, 0x1000, "/nonexistent/work", 110);
	sample(&data, &a, 42, 0x401234, 200, 0);
	sample(&data, &a, 43, 0x401234, 210, 0);
	sample(&data, &a, 42, 0x401234, 220, 0);
	CHECK_INT(open_file(&a, 1, NULL, 0, &data, &f, NULL, &src), 0);
	while (perfev_source_next(src, &ev) == 1) {
		if (ev->kind != PERFEV_SOURCE_SAMPLE)
			continue;
		CHECK_INT(perfev_source_frames(src, ev, PERFEV_FRAMES_NO_SYMBOLS, &fr, &n), 0);
		CHECK_INT(n, 1);
		CHECK_U64(fr[0].ip, 0x401234);
		CHECK_INT(fr[0].cpumode, PERF_RECORD_MISC_USER);
		CHECK(!fr[0].sym);
		if (ev->pid == 43) {
			/* No map: the address itself, and the comm perf shows for a thread never
			 * named. */
			CHECK(!fr[0].dso);
			CHECK_U64(fr[0].addr, 0x401234);
			CHECK_STR(ev->comm, ":43");
		} else {
			CHECK_STR(fr[0].dso, "/nonexistent/work");
			CHECK_U64(fr[0].addr, 0x2234);
			CHECK_STR(ev->comm, "work");
			/* The same resolution is the same frame. */
			if (seen)
				CHECK_INT(fr[0].id, id0);
			id0 = fr[0].id;
			/* Asked again: the same frames, from the source. */
			CHECK_INT(perfev_source_frames(src, ev, PERFEV_FRAMES_NO_SYMBOLS, &fr2, &n),
				  0);
			CHECK(fr2 == fr && n == 1);
		}
		seen++;
	}
	CHECK_INT(seen, 3);
	CHECK_INT(perfev_source_frames(src, ev, 0, &fr, &n), -EINVAL);
	perfev_source_free(src);
	free(data.p);
	free(f.p);
}

/* Encode a group sample: the leader's identifier, values {value, id}. */
static void group_sample(struct buf *b, const struct perf_event_attr *a, uint64_t ident,
			 uint64_t time, const uint64_t *vals, uint64_t nr)
{
	struct perfev_record r = {.type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER};

	r.u.sample.identifier = ident;
	r.u.sample.ip = 0x1000;
	r.u.sample.pid = r.u.sample.tid = 7;
	r.u.sample.time = time;
	r.u.sample.read.nr = nr;
	r.u.sample.read.values = vals;
	put(b, a, &r);
}

/* {a,b}:S: one sample per member whose count increased, with the increase as its period. */
TEST(group_read_split)
{
	static const uint64_t v1[] = {100, 10, 50, 11}, v2[] = {100, 10, 80, 11},
			      v3[] = {130, 10, 80, 99};
	static const struct {
		size_t idx;
		uint64_t period;
	} want[] = {{0, 100}, {1, 50}, {1, 30}, {0, 30}};
	struct perf_event_attr a[2];
	uint64_t ids[2] = {10, 11};
	struct buf data = {0}, f = {0};
	struct perfev_source *src = NULL;
	const struct perfev_source_event *ev;
	struct perfev_source_stats st = {.sz = sizeof(st)};
	struct perfev_source_opts whole = {.sz = sizeof(whole), .whole_reads = true};
	uint64_t seq = 0;
	size_t i = 0;
	int k;

	for (k = 0; k < 2; k++) {
		clock_attr(&a[k], ST_GRP);
		a[k].exclude_guest = 1;
		a[k].read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	}
	a[1].config = PERF_COUNT_SW_TASK_CLOCK;
	group_sample(&data, &a[0], 10, 100, v1, 2);
	group_sample(&data, &a[0], 10, 200, v2, 2);
	group_sample(&data, &a[0], 10, 300, v3, 2); /* id 99 is no event's */
	CHECK_INT(open_file(a, 2, ids, 1, &data, &f, NULL, &src), 0);
	while (perfev_source_next(src, &ev) == 1) {
		CHECK(i < 4);
		CHECK_INT(ev->kind, PERFEV_SOURCE_SAMPLE);
		CHECK_INT(ev->attr_idx, want[i].idx);
		CHECK_U64(ev->period, want[i].period);
		CHECK_STR(ev->name, want[i].idx ? "task-clock" : "cpu-clock");
		/* The members of one record share it. */
		if (i == 1)
			CHECK_U64(ev->seq, seq);
		seq = ev->seq;
		i++;
	}
	CHECK_INT(i, 4);
	CHECK_INT(perfev_source_stats(src, &st), 0);
	CHECK_U64(st.unknown_id, 1);
	CHECK_U64(st.samples, 4);
	perfev_source_free(src);

	/* Whole: each record once, as recorded. */
	CHECK_INT(perfev_source_open_mem(f.p, f.len, &whole, &src), 0);
	for (i = 0; perfev_source_next(src, &ev) == 1; i++)
		CHECK(ev->kind == PERFEV_SOURCE_SAMPLE && ev->attr_idx == 0 &&
		      ev->rec->u.sample.read.nr == 2);
	CHECK_INT(i, 3);
	perfev_source_free(src);
	free(data.p);
	free(f.p);
}

/* A record that does not decode: the records before it all go out, then the error. */
TEST(corrupt_record)
{
	struct perf_event_attr a;
	struct buf data = {0}, f = {0};
	struct perfev_source *src = NULL;
	const struct perfev_source_event *ev;
	struct perfev_source_stats st = {.sz = sizeof(st)};
	struct perfev_source_opts raw = {.sz = sizeof(raw), .raw = true};
	size_t bad, n = 0;

	src_attr(&a);
	sample(&data, &a, 42, 0x1000, 300, 0);
	sample(&data, &a, 42, 0x1000, 200, 0);
	bad = data.len;
	b_header(&data, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER,
		 16); /* too short for its fields */
	b_u64(&data, 0);
	sample(&data, &a, 42, 0x1000, 400, 0);
	CHECK_INT(open_file(&a, 1, NULL, 0, &data, &f, NULL, &src), 0);
	while (perfev_source_next(src, &ev) == 1) {
		CHECK_U64(ev->time, n ? 300 : 200);
		n++;
	}
	CHECK_INT(n, 2);
	CHECK_INT(perfev_source_next(src, &ev), -EBADMSG);
	CHECK_INT(perfev_source_stats(src, &st), 0);
	CHECK_INT(st.err, -EBADMSG);
	CHECK(st.err_in_record);
	CHECK_INT(st.err_type, PERF_RECORD_SAMPLE);
	CHECK_INT(st.err_size, 16);
	CHECK_U64(st.err_offset, f.len - data.len + bad);
	perfev_source_free(src);

	/* Raw: file order, the bad record handed out with why, then the error. */
	CHECK_INT(perfev_source_open_mem(f.p, f.len, &raw, &src), 0);
	CHECK_INT(perfev_source_next(src, &ev), 1);
	CHECK_U64(ev->time, 300);
	CHECK_INT(perfev_source_next(src, &ev), 1);
	CHECK_U64(ev->time, 200);
	CHECK_INT(perfev_source_next(src, &ev), 1);
	CHECK(!ev->rec && ev->decode_err == -EBADMSG && ev->size == 16);
	CHECK_INT(perfev_source_next(src, &ev), -EBADMSG);
	perfev_source_free(src);
	free(data.p);
	free(f.p);
}

/* Live: a record goes out once the newest is a window past it; everything at the end. */
TEST(live_window)
{
	struct perfev_source_opts o = {.sz = sizeof(o), .window_ns = 1000};
	struct perf_event_attr a;
	struct buf b = {0};
	struct perfev_source *src = NULL;
	const struct perfev_source_event *ev;
	struct perfev_source_stats st = {.sz = sizeof(st)};
	uint64_t id = 5;

	src_attr(&a);
	CHECK_INT(perfev_source_new_live(&o, &src), 0);
	CHECK_INT(perfev_source_add_attr(src, &a, "clk", &id, 1), 0);
	CHECK_INT(perfev_source_add_attr(src, &a, NULL, &id, 1), -EEXIST);
	CHECK(perfev_source_data(src) == NULL);
	comm(&b, &a, 9, "live", 10000);
	sample(&b, &a, 9, 0x10, 12000, 0);
	CHECK_INT(perfev_source_feed(src, b.p, b.len), 0);
	b.len = 0;
	/* Another ring, drained later, with an older sample. */
	sample(&b, &a, 9, 0x10, 10900, 1);
	sample(&b, &a, 9, 0x10, 11500, 1);
	CHECK_INT(perfev_source_feed(src, b.p, b.len), 0);
	/* Older than 12000 - 1000: the COMM and the sample of 10900. */
	CHECK_INT(perfev_source_next(src, &ev), 1);
	CHECK_INT(ev->type, PERF_RECORD_COMM);
	CHECK_INT(perfev_source_next(src, &ev), 1);
	CHECK_U64(ev->time, 10900);
	CHECK_STR(ev->comm, "live");
	CHECK_STR(ev->name, "clk");
	CHECK_INT(perfev_source_next(src, &ev), 0);
	b.len = 0;
	sample(&b, &a, 9, 0x10, 13000, 0);
	CHECK_INT(perfev_source_feed(src, b.p, b.len), 0);
	CHECK_INT(perfev_source_next(src, &ev), 1);
	CHECK_U64(ev->time, 11500);
	CHECK_INT(perfev_source_next(src, &ev), 0);
	CHECK_INT(perfev_source_finish(src), 0);
	CHECK_INT(perfev_source_feed(src, b.p, b.len), -EINVAL);
	CHECK_INT(perfev_source_next(src, &ev), 1);
	CHECK_U64(ev->time, 12000);
	CHECK_INT(perfev_source_next(src, &ev), 1);
	CHECK_U64(ev->time, 13000);
	CHECK_INT(perfev_source_next(src, &ev), 0);
	/* A record cut short. */
	perfev_source_free(src);
	CHECK_INT(perfev_source_new_live(NULL, &src), 0);
	CHECK_INT(perfev_source_add_attr(src, &a, NULL, NULL, 0), 0);
	CHECK_STR(perfev_source_attr_name(src, 0), "cpu-clock");
	CHECK_INT(perfev_source_feed(src, b.p, b.len - 8), -EBADMSG);
	CHECK_INT(perfev_source_stats(src, &st), 0);
	CHECK_U64(st.bad, 1);
	perfev_source_free(src);
	free(b.p);
}

/*
 * An MMAP2 with the build-id bit set: with @real, a build id (its event
 * asked); else as Linux writes it to an event that did not ask while
 * another one on the system does, device 253:1 and an inode in place.
 */
static void mmap2_bit(struct buf *b, const struct perf_event_attr *a, bool real)
{
	struct perfev_record r = {.type = PERF_RECORD_MMAP2, .misc = PERF_RECORD_MISC_USER};
	size_t at = b->len;
	uint16_t misc;

	r.u.mmap2.pid = r.u.mmap2.tid = 42;
	r.u.mmap2.addr = 0x400000;
	r.u.mmap2.len = 0x10000;
	r.u.mmap2.pgoff = 0x1000;
	r.u.mmap2.prot = 5;
	r.u.mmap2.filename = "/nonexistent/work";
	r.u.mmap2.has_build_id = real;
	r.u.mmap2.build_id_size = real ? 20 : 0;
	memset(r.u.mmap2.build_id, 0xab, sizeof(r.u.mmap2.build_id));
	r.u.mmap2.maj = 253;
	r.u.mmap2.min = 1;
	r.u.mmap2.ino = 1234567;
	sid(&r, 42, 110);
	put(b, a, &r);
	memcpy(&misc, b->p + at + 4, 2);
	misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	memcpy(b->p + at + 4, &misc, 2);
}

/* The source reads an MMAP2's build-id bit as its event's attr.build_id says. */
TEST(mmap2_build_id_bit_by_attr)
{
	struct perf_event_attr a;
	struct buf data = {0}, f = {0};
	struct perfev_source *src;
	const struct perfev_source_event *ev;
	const struct perfev_frame *fr;
	size_t n, mmaps, samples;
	int asked, live;

	for (asked = 0; asked < 2; asked++)
		for (live = 0; live < 2; live++) {
			src = NULL;
			data.len = 0;
			src_attr(&a);
			a.mmap2 = 1;
			a.build_id = (unsigned int)asked;
			comm(&data, &a, 42, "work", 100);
			mmap2_bit(&data, &a, asked);
			sample(&data, &a, 42, 0x401234, 200, 0);
			if (live) {
				CHECK_INT(perfev_source_new_live(NULL, &src), 0);
				CHECK_INT(perfev_source_add_attr(src, &a, NULL, NULL, 0), 0);
				CHECK_INT(perfev_source_feed(src, data.p, data.len), 0);
				CHECK_INT(perfev_source_finish(src), 0);
			} else {
				CHECK_INT(open_file(&a, 1, NULL, 0, &data, &f, NULL, &src), 0);
			}
			mmaps = samples = 0;
			while (perfev_source_next(src, &ev) == 1) {
				if (ev->type == PERF_RECORD_MMAP2) {
					CHECK(ev->rec != NULL);
					CHECK_INT(ev->rec->u.mmap2.has_build_id, asked);
					CHECK_INT(ev->rec->u.mmap2.maj, asked ? 0 : 253);
					CHECK_U64(ev->rec->u.mmap2.ino, asked ? 0 : 1234567);
					CHECK_INT(ev->rec->u.mmap2.build_id_size, asked ? 20 : 0);
					mmaps++;
				}
				if (ev->kind != PERFEV_SOURCE_SAMPLE)
					continue;
				CHECK_INT(perfev_source_frames(src, ev, PERFEV_FRAMES_NO_SYMBOLS,
							       &fr, &n),
					  0);
				CHECK_INT(n, 1);
				CHECK_STR(fr[0].dso, "/nonexistent/work");
				CHECK_U64(fr[0].addr, 0x2234);
				samples++;
			}
			CHECK_INT(mmaps, 1);
			CHECK_INT(samples, 1);
			perfev_source_free(src);
		}
	free(data.p);
	free(f.p);
}

static void process(struct perfev_machine *m, const struct perf_event_attr *a,
		    struct perfev_record *r)
{
	struct perfev_sample_layout l;
	unsigned char tmp[512];
	struct perfev_record d;

	/* Through the encoder and the decoder, as records come. */
	if (perfev_sample_layout_init(&l, a) || perfev_record_encode(&l, r, tmp, sizeof(tmp)) < 0 ||
	    perfev_record_decode(&l, tmp, sizeof(tmp), &d) || perfev_machine_process(m, &d))
		abort();
}

static const struct perfev_frame *one(struct perfev_machine *m, uint32_t pid, unsigned int mode,
				      uint64_t addr)
{
	const struct perfev_frame *f;
	size_t n;

	if (perfev_machine_resolve(m, pid, mode, addr, PERFEV_FRAMES_NO_SYMBOLS, &f, &n) || n != 1)
		return NULL;
	return f;
}

/* Process @pid named "jit" with anonymous executable memory at 0x7000000, as a JIT has. */
static void jit_process(struct perfev_machine *m, const struct perf_event_attr *a, uint32_t pid)
{
	struct perfev_record r;

	memset(&r, 0, sizeof(r));
	r.type = PERF_RECORD_COMM;
	r.u.comm.pid = r.u.comm.tid = pid;
	r.u.comm.comm = "jit";
	process(m, a, &r);
	memset(&r, 0, sizeof(r));
	r.type = PERF_RECORD_MMAP2;
	r.misc = PERF_RECORD_MISC_USER;
	r.u.mmap2.pid = r.u.mmap2.tid = pid;
	r.u.mmap2.addr = 0x7000000;
	r.u.mmap2.len = 0x1000;
	r.u.mmap2.prot = 5;
	r.u.mmap2.filename = "//anon";
	process(m, a, &r);
}

/* The function name of 0x7000010 in process @pid, or NULL. */
static const char *jit_name(struct perfev_machine *m, uint32_t pid)
{
	const struct perfev_frame *f;
	size_t n;

	if (perfev_machine_resolve(m, pid, PERF_RECORD_MISC_USER, 0x7000010, 0, &f, &n) || n != 1)
		return NULL;
	return f->sym;
}

/*
 * A process that exits takes its JIT map with it: another process with
 * its pid has its own map read, and the old names stay valid until the
 * frames are forgotten (ASan checks both the use and the freeing).
 */
TEST(machine_retire_jit)
{
	struct perfev_symbolizer_opts so = {.sz = sizeof(so)};
	struct perfev_machine_opts mo = {.sz = sizeof(mo), .symbolizer = &so};
	char dir[] = "/tmp/perfev-jit-XXXXXX", path[64];
	struct perf_event_attr a;
	struct perfev_machine *m = NULL;
	const char *old;
	FILE *f;

	src_attr(&a);
	CHECK(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/perf-300.map", dir);
	CHECK((f = fopen(path, "w")) && fputs("7000000 100 first_jit\n", f) >= 0 && !fclose(f));
	so.jitmap_dir = dir;
	CHECK_INT(perfev_machine_new(&mo, &m), 0);
	jit_process(m, &a, 300);
	CHECK((old = jit_name(m, 300)) && !strcmp(old, "first_jit"));
	CHECK_INT(perfev_machine_retire(m, 300, 300), 0);
	CHECK_STR(old, "first_jit");
	/* The pid again, another JIT with another map. */
	CHECK((f = fopen(path, "w")) && fputs("7000000 100 second_jit\n", f) >= 0 && !fclose(f));
	jit_process(m, &a, 300);
	CHECK_STR(jit_name(m, 300), "second_jit");
	CHECK_STR(old, "first_jit");
	CHECK_INT(perfev_machine_forget_frames(m) > 0, 1);
	CHECK_STR(jit_name(m, 300), "second_jit");
	/* A process with no map read, or none known: nothing to retire. */
	CHECK_INT(perfev_machine_retire(m, 300, 300), 0);
	CHECK_INT(perfev_machine_retire(m, 300, 300), -ENOENT);
	perfev_machine_free(m);
	CHECK_INT(unlink(path), 0);
	CHECK_INT(rmdir(dir), 0);
}

/* Threads and maps: fork inheritance, overlapping maps, modules, BPF programs. */
TEST(machine_threads_maps)
{
	struct perf_event_attr a;
	struct perfev_machine *m = NULL;
	struct perfev_record r;
	const struct perfev_frame *f;
	struct buf b = {0};

	src_attr(&a);
	CHECK_INT(perfev_machine_new(NULL, &m), 0);
	CHECK_STR(perfev_machine_comm(m, 0), "swapper");
	CHECK(perfev_machine_comm(m, 100) == NULL);
	comm(&b, &a, 100, "parent", 1);
	mmap2(&b, &a, 100, 0x400000, 0x3000, 0, "/x/parent", 2);
	{
		struct perfev_sample_layout l;
		struct perfev_record d;

		CHECK_INT(perfev_sample_layout_init(&l, &a), 0);
		CHECK_INT(perfev_record_decode(&l, b.p, b.len, &d), 0);
		CHECK_INT(perfev_machine_process(m, &d), 0);
		CHECK_INT(perfev_record_decode(&l, b.p + d.size, b.len - d.size, &d), 0);
		CHECK_INT(perfev_machine_process(m, &d), 0);
	}
	/* A new process: the parent's name and maps. */
	memset(&r, 0, sizeof(r));
	r.type = PERF_RECORD_FORK;
	r.u.fork.pid = r.u.fork.tid = 200;
	r.u.fork.ppid = r.u.fork.ptid = 100;
	process(m, &a, &r);
	CHECK_STR(perfev_machine_comm(m, 200), "parent");
	CHECK((f = one(m, 200, PERF_RECORD_MISC_USER, 0x401000)) && !strcmp(f->dso, "/x/parent"));
	/* A map in the child's middle splits the inherited one; the parent keeps its own. */
	memset(&r, 0, sizeof(r));
	r.type = PERF_RECORD_MMAP2;
	r.misc = PERF_RECORD_MISC_USER;
	r.u.mmap2.pid = r.u.mmap2.tid = 200;
	r.u.mmap2.addr = 0x401000;
	r.u.mmap2.len = 0x1000;
	r.u.mmap2.prot = 5;
	r.u.mmap2.filename = "/x/lib.so";
	process(m, &a, &r);
	CHECK((f = one(m, 200, PERF_RECORD_MISC_USER, 0x401010)) && !strcmp(f->dso, "/x/lib.so"));
	CHECK_U64(f->addr, 0x10);
	CHECK((f = one(m, 200, PERF_RECORD_MISC_USER, 0x402010)) && !strcmp(f->dso, "/x/parent"));
	CHECK_U64(f->addr, 0x2010); /* the part after keeps its file offset */
	CHECK((f = one(m, 100, PERF_RECORD_MISC_USER, 0x401010)) && !strcmp(f->dso, "/x/parent"));
	/* A thread shares its process's maps and takes its name. */
	memset(&r, 0, sizeof(r));
	r.type = PERF_RECORD_FORK;
	r.u.fork.pid = r.u.fork.ppid = 200;
	r.u.fork.tid = 201;
	r.u.fork.ptid = 200;
	process(m, &a, &r);
	CHECK_STR(perfev_machine_comm(m, 201), "parent");
	/* Exit keeps the name: samples taken while exiting still carry it. */
	r.type = PERF_RECORD_EXIT;
	process(m, &a, &r);
	CHECK_STR(perfev_machine_comm(m, 201), "parent");
	/* Anonymous executable memory is a JIT's, named as perf names its map. */
	memset(&r, 0, sizeof(r));
	r.type = PERF_RECORD_MMAP2;
	r.misc = PERF_RECORD_MISC_USER;
	r.u.mmap2.pid = r.u.mmap2.tid = 200;
	r.u.mmap2.addr = 0x7000000;
	r.u.mmap2.len = 0x1000;
	r.u.mmap2.prot = 5;
	r.u.mmap2.filename = "//anon";
	process(m, &a, &r);
	CHECK((f = one(m, 200, PERF_RECORD_MISC_USER, 0x7000010)) &&
	      !strcmp(f->dso, "/tmp/perf-200.map") && (f->flags & PERFEV_FRAME_ANON));
	CHECK_U64(f->addr, 0x7000010);
	/* The kernel, a module and a BPF program. */
	memset(&r, 0, sizeof(r));
	r.type = PERF_RECORD_MMAP;
	r.misc = PERF_RECORD_MISC_KERNEL;
	r.u.mmap.pid = UINT32_MAX;
	r.u.mmap.addr = 0xffffffff81000000ULL;
	r.u.mmap.len = 0x1000000;
	r.u.mmap.filename = "[kernel.kallsyms]_text";
	process(m, &a, &r);
	r.u.mmap.addr = 0xffffffffc0000000ULL;
	r.u.mmap.len = 0x10000;
	r.u.mmap.pgoff = 0;
	r.u.mmap.filename = "/lib/modules/6.1/kernel/nf-tables.ko.xz";
	process(m, &a, &r);
	memset(&r, 0, sizeof(r));
	r.type = PERF_RECORD_KSYMBOL;
	r.u.ksymbol.addr = 0xffffffffc1000000ULL;
	r.u.ksymbol.len = 0x100;
	r.u.ksymbol.name = "bpf_prog_1234_x";
	process(m, &a, &r);
	CHECK((f = one(m, 0, PERF_RECORD_MISC_KERNEL, 0xffffffffc0000100ULL)) &&
	      !strcmp(f->dso, "[nf_tables]") && (f->flags & PERFEV_FRAME_KERNEL));
	CHECK_U64(f->addr, 0x100);
	CHECK((f = one(m, 0, PERF_RECORD_MISC_KERNEL, 0xffffffff81000010ULL)) &&
	      !strcmp(f->dso, "[kernel.kallsyms]"));
	/* A BPF program's symbol is its name: no symbolizer needed. */
	{
		const struct perfev_frame *fs;
		size_t n;

		CHECK_INT(perfev_machine_resolve(m, 0, PERF_RECORD_MISC_KERNEL,
						 0xffffffffc1000010ULL, 0, &fs, &n),
			  0);
		CHECK(n == 1 && fs[0].sym && !strcmp(fs[0].sym, "bpf_prog_1234_x"));
		CHECK_U64(fs[0].sym_off, 0x10);
	}
	r.u.ksymbol.flags = PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER;
	process(m, &a, &r);
	CHECK((f = one(m, 0, PERF_RECORD_MISC_KERNEL, 0xffffffffc1000010ULL)) &&
	      !strcmp(f->dso, "[kernel.kallsyms]"));
	/* Below the kernel in kernel mode, or in hypervisor mode: no map. */
	CHECK((f = one(m, 0, PERF_RECORD_MISC_KERNEL, 0x1000)) && !f->dso);
	CHECK((f = one(m, 200, PERF_RECORD_MISC_HYPERVISOR, 0x401010)) && !f->dso);
	/* Unknown mode picks by the address. */
	CHECK((f = one(m, 200, PERF_RECORD_MISC_CPUMODE_UNKNOWN, 0x401010)) &&
	      !strcmp(f->dso, "/x/lib.so"));
	/* Retired tasks: a thread loses its name, a process its maps; the others stay. */
	CHECK_INT(perfev_machine_thread_count(m), 4);
	CHECK_INT(perfev_machine_retire(m, 100, 201), -ENOENT); /* not 100's thread */
	CHECK_INT(perfev_machine_retire(m, 200, 201), 0);
	CHECK(perfev_machine_comm(m, 201) == NULL);
	CHECK_INT(perfev_machine_retire(m, 200, 201), -ENOENT);
	CHECK_INT(perfev_machine_retire(m, 0, 0), -EINVAL);
	CHECK((f = one(m, 200, PERF_RECORD_MISC_USER, 0x402010)) && !strcmp(f->dso, "/x/parent"));
	CHECK_INT(perfev_machine_retire(m, 200, 200), 0);
	CHECK(perfev_machine_comm(m, 200) == NULL);
	CHECK((f = one(m, 200, PERF_RECORD_MISC_USER, 0x402010)) && !f->dso);
	CHECK((f = one(m, 100, PERF_RECORD_MISC_USER, 0x401010)) && !strcmp(f->dso, "/x/parent"));
	CHECK_STR(perfev_machine_comm(m, 100), "parent");
	CHECK_INT(perfev_machine_thread_count(m), 2);
	CHECK_INT(perfev_machine_retire(NULL, 1, 1), -EINVAL);
	/* Frames forgotten: counted, then none; a lookup resolves again, ids from 0. */
	CHECK(perfev_machine_frame_count(m) > 0);
	CHECK_INT(perfev_machine_forget_frames(m) > 0, 1);
	CHECK_INT(perfev_machine_frame_count(m), 0);
	CHECK((f = one(m, 100, PERF_RECORD_MISC_USER, 0x401010)) && !strcmp(f->dso, "/x/parent"));
	CHECK_INT(f->id, 0);
	CHECK_INT(perfev_machine_frame_count(m), 1);
	CHECK_INT(perfev_machine_forget_frames(NULL), 0);
	perfev_machine_free(m);
	free(b.p);
}

/* perf's reading of a frame-pointer chain: markers set the mode; an unknown one drops it. */
TEST(machine_chain)
{
	uint64_t cc[] = {PERF_CONTEXT_KERNEL, 0xffffffff81000010ULL, PERF_CONTEXT_USER, 0x401010,
			 0x402020};
	struct perf_event_attr a;
	struct perfev_machine_opts mo = {.sz = sizeof(mo), .max_stack = 2};
	struct perfev_machine *m = NULL;
	struct perfev_record r = {.type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_KERNEL};
	const struct perfev_frame *f;
	size_t n;

	src_attr(&a);
	a.sample_type |= PERF_SAMPLE_CALLCHAIN;
	CHECK_INT(perfev_machine_new(NULL, &m), 0);
	r.u.sample.present = a.sample_type;
	r.u.sample.ip = 0xffffffff81000010ULL;
	r.u.sample.pid = r.u.sample.tid = 5;
	r.u.sample.callchain_nr = 5;
	r.u.sample.callchain = cc;
	CHECK_INT(perfev_machine_sample_frames(
		      m, &a, &r, PERFEV_FRAMES_CHAIN | PERFEV_FRAMES_NO_SYMBOLS, &f, &n),
		  0);
	CHECK_INT(n, 3);
	CHECK_INT(f[0].cpumode, PERF_RECORD_MISC_KERNEL);
	CHECK_INT(f[1].cpumode, PERF_RECORD_MISC_USER);
	CHECK_U64(f[2].ip, 0x402020);
	CHECK_INT(perfev_machine_sample_frames(m, &a, &r, PERFEV_FRAMES_NO_SYMBOLS, &f, &n), 0);
	CHECK(n == 1 && f[0].ip == 0xffffffff81000010ULL);
	cc[2] = PERF_CONTEXT_GUEST;
	CHECK_INT(perfev_machine_sample_frames(m, &a, &r, PERFEV_FRAMES_CHAIN, &f, &n), 0);
	CHECK_INT(n, 0);
	perfev_machine_free(m);
	/* max_stack entries at most. */
	cc[2] = PERF_CONTEXT_USER;
	CHECK_INT(perfev_machine_new(&mo, &m), 0);
	CHECK_INT(perfev_machine_sample_frames(
		      m, &a, &r, PERFEV_FRAMES_CHAIN | PERFEV_FRAMES_NO_SYMBOLS, &f, &n),
		  0);
	CHECK_INT(n, 2);
	perfev_machine_free(m);
}

/*
 * perf --call-graph dwarf: the kernel part of the chain, then the user
 * frames the unwinder finds (the sampled address when it finds none),
 * each unwind counted.
 */
TEST(machine_dwarf_chain)
{
	uint64_t cc[] = {PERF_CONTEXT_KERNEL, 0xffffffff81000010ULL, 0xffffffff81000020ULL,
			 PERF_CONTEXT_USER};
	uint64_t regs[3] = {0x1000, 0x7ff000, 0x401010};
	unsigned char stack[64] = {0};
	struct perf_event_attr a;
	struct perfev_machine *m = NULL;
	struct perfev_record r = {.type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER};
	struct perfev_unwind_stats us = {.sz = sizeof(us)};
	const struct perfev_frame *f;
	uint64_t stopped = 0;
	size_t n, i;

	src_attr(&a);
	a.sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	a.sample_regs_user = 0x7;
	a.exclude_callchain_user = 1;
	CHECK_INT(perfev_machine_new(NULL, &m), 0);
	r.u.sample.present = a.sample_type;
	r.u.sample.ip = 0x401010;
	r.u.sample.pid = r.u.sample.tid = 5;
	r.u.sample.callchain_nr = 4;
	r.u.sample.callchain = cc;
	r.u.sample.regs_user_abi = PERF_SAMPLE_REGS_ABI_64;
	r.u.sample.regs_user = regs;
	r.u.sample.stack_user = stack;
	r.u.sample.stack_user_size = r.u.sample.stack_user_dyn_size = sizeof(stack);
	CHECK_INT(perfev_machine_sample_frames(
		      m, &a, &r, PERFEV_FRAMES_CHAIN | PERFEV_FRAMES_NO_SYMBOLS, &f, &n),
		  0);
	CHECK(n >= 3);
	CHECK(f[0].cpumode == PERF_RECORD_MISC_KERNEL && f[1].cpumode == PERF_RECORD_MISC_KERNEL);
	CHECK_U64(f[1].ip, 0xffffffff81000020ULL);
	for (i = 2; i < n; i++)
		CHECK_INT(f[i].cpumode, PERF_RECORD_MISC_USER);
	CHECK_INT(perfev_machine_unwind_stats(m, &us), 0);
	CHECK_U64(us.samples, 1);
	for (i = 0; i < PERFEV_UNWIND_NR_STOPS; i++)
		stopped += us.stopped[i];
	CHECK_U64(us.root + stopped, 1);
	CHECK_STR(perfev_unwind_stop_name(PERFEV_UNWIND_NO_CFI), "no cfi");
	CHECK(perfev_unwind_stop_name(PERFEV_UNWIND_NR_STOPS) == NULL);
	us.sz = 4;
	CHECK_INT(perfev_machine_unwind_stats(m, &us), -EINVAL);
	perfev_machine_free(m);
}

TEST(bad_arguments)
{
	struct perfev_source_opts o = {.sz = sizeof(o) + 8};
	struct {
		struct perfev_source_opts o;
		uint64_t extra;
	} big = {.o = {.sz = sizeof(big)}, .extra = 1};
	struct perfev_source *src = NULL;
	struct perfev_machine *m = NULL;

	CHECK_INT(perfev_source_new_live(&big.o, &src), -EINVAL);
	big.extra = 0;
	CHECK_INT(perfev_source_new_live(&big.o, &src), 0);
	CHECK_INT(perfev_source_feed(src, NULL, 8), -EINVAL);
	perfev_source_free(src);
	(void)o;
	CHECK_INT(perfev_source_open_mem("x", 1, NULL, &src), -EBADMSG);
	CHECK_INT(perfev_machine_new(NULL, NULL), -EINVAL);
	CHECK_INT(perfev_machine_new(NULL, &m), 0);
	CHECK_INT(perfev_machine_process(m, NULL), -EINVAL);
	CHECK_INT(perfev_machine_set_build_id(m, "/x", "1234", 4), 0);
	/* What was told is read back; an unknown path or a short buffer is said so. */
	{
		char id[20];

		CHECK_INT(perfev_machine_build_id(m, "/x", id, sizeof(id)), 4);
		CHECK(!memcmp(id, "1234", 4));
		CHECK_INT(perfev_machine_build_id(m, "/y", id, sizeof(id)), 0);
		CHECK_INT(perfev_machine_build_id(m, "/x", id, 2), -ENOSPC);
		CHECK_INT(perfev_machine_build_id(NULL, "/x", id, sizeof(id)), -EINVAL);
		CHECK_INT(perfev_machine_set_build_id(m, "/x", "abcdef", 6), 0);
		CHECK_INT(perfev_machine_build_id(m, "/x", id, sizeof(id)), 6);
		CHECK(!memcmp(id, "abcdef", 6));
	}
	perfev_machine_free(m);
	perfev_source_free(NULL);
	perfev_machine_free(NULL);
}
