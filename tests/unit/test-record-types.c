// SPDX-License-Identifier: LGPL-2.1-or-later
/* Non-sample record types, with and without trailers, decoded and re-encoded; malformed records. */
#include "record-synth.h"
#include "sample/record-internal.h"

/* ---- other records ---------------------------------------------------------------- */

static const uint8_t build_id[20] = {0xde, 0xad, 0xbe, 0xef, 1,	 2,  3,	 4,  5,	 6,
				     7,	   8,	 9,    10,   11, 12, 13, 14, 15, 16};
static const uint8_t bpf_tag[8] = {0x6d, 0xee, 0xf7, 0x35, 0x7e, 0x7b, 0x45, 0x30};
static const uint8_t poke[] = {0x0f, 0x1f, 0x44, 0x00, 0x00, 0xe8, 0x12, 0x34, 0x56, 0x78};

/*
 * One record type: @build writes the header and body and returns how many
 * bytes from the record's start a decoder needs (the rest is padding);
 * @check compares the decoded union member.
 */
struct ns_case {
	const char *name;
	size_t (*build)(struct bld *b, const struct perfev_sample_layout *l);
	bool (*check)(const struct perfev_sample_layout *l, const struct perfev_record *r);
};

static size_t b_mmap(struct bld *b, const struct perfev_sample_layout *l)
{
	begin(b, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER);
	put32(b, 10);
	put32(b, 11);
	put64(b, 0x7f0000001000ULL);
	put64(b, 0x1b000);
	put64(b, 0x28000);
	putstr(b, "/usr/lib/libc.so.6");
	return 40 + 19;
}

static bool c_mmap(const struct perfev_sample_layout *l, const struct perfev_record *r)
{
	EQ(r->misc, PERF_RECORD_MISC_USER);
	EQ(r->u.mmap.pid, 10);
	EQ(r->u.mmap.tid, 11);
	EQ(r->u.mmap.addr, 0x7f0000001000ULL);
	EQ(r->u.mmap.len, 0x1b000);
	EQ(r->u.mmap.pgoff, 0x28000);
	STREQ(r->u.mmap.filename, "/usr/lib/libc.so.6");
	return true;
}

static void mmap2_head(struct bld *b, uint16_t misc)
{
	begin(b, PERF_RECORD_MMAP2, misc);
	put32(b, 20);
	put32(b, 21);
	put64(b, 0x555555554000ULL);
	put64(b, 0x2000);
	put64(b, 0);
}

static bool mmap2_head_ok(const struct perfev_record *r)
{
	EQ(r->u.mmap2.pid, 20);
	EQ(r->u.mmap2.tid, 21);
	EQ(r->u.mmap2.addr, 0x555555554000ULL);
	EQ(r->u.mmap2.len, 0x2000);
	EQ(r->u.mmap2.pgoff, 0);
	EQ(r->u.mmap2.prot, 5);	 /* PROT_READ | PROT_EXEC */
	EQ(r->u.mmap2.flags, 2); /* MAP_PRIVATE */
	return true;
}

/* An MMAP2 of /bin/true on device @maj:1 with @misc (the build-id bit: the kernel's stale one). */
static size_t mmap2_dev(struct bld *b, uint16_t misc, uint32_t maj)
{
	mmap2_head(b, misc);
	put32(b, maj);
	put32(b, 1);
	put64(b, 1234567);
	put64(b, 0x9e9e);
	put32(b, 5);
	put32(b, 2);
	putstr(b, "/bin/true");
	return 72 + 10;
}

/* It decoded with device and inode, misc without the build-id bit. */
static bool c_mmap2_dev(const struct perfev_record *r, uint32_t maj)
{
	if (!mmap2_head_ok(r))
		return false;
	EQ(r->misc, PERF_RECORD_MISC_USER);
	EQ(r->u.mmap2.has_build_id, false);
	EQ(r->u.mmap2.maj, maj);
	EQ(r->u.mmap2.min, 1);
	EQ(r->u.mmap2.ino, 1234567);
	EQ(r->u.mmap2.ino_generation, 0x9e9e);
	EQ(r->u.mmap2.build_id_size, 0);
	STREQ(r->u.mmap2.filename, "/bin/true");
	return true;
}

static size_t b_mmap2_inode(struct bld *b, const struct perfev_sample_layout *l)
{
	return mmap2_dev(b, PERF_RECORD_MISC_USER, 8);
}

static bool c_mmap2_inode(const struct perfev_sample_layout *l, const struct perfev_record *r)
{
	return c_mmap2_dev(r, 8);
}

static size_t b_mmap2_bid(struct bld *b, const struct perfev_sample_layout *l, uint8_t size,
			  const char *name)
{
	mmap2_head(b, PERF_RECORD_MISC_USER | MISC_BUILD_ID);
	put8(b, size);
	put8(b, 0);
	put16(b, 0);
	put(b, build_id, 20);
	put32(b, 5);
	put32(b, 2);
	putstr(b, name);
	return 72 + strlen(name) + 1;
}

static size_t b_mmap2_bid20(struct bld *b, const struct perfev_sample_layout *l)
{
	return b_mmap2_bid(b, l, 20, "/usr/bin/perf-with-a-long-name");
}

static size_t b_mmap2_bid8(struct bld *b, const struct perfev_sample_layout *l)
{
	return b_mmap2_bid(b, l, 8, "[vdso]");
}

static bool c_mmap2_bid(const struct perfev_record *r, uint8_t size, const char *name)
{
	if (!mmap2_head_ok(r))
		return false;
	EQ(r->misc, PERF_RECORD_MISC_USER | MISC_BUILD_ID);
	EQ(r->u.mmap2.has_build_id, true);
	EQ(r->u.mmap2.build_id_size, size);
	MEMEQ(r->u.mmap2.build_id, build_id, 20);
	EQ(r->u.mmap2.ino, 0);
	STREQ(r->u.mmap2.filename, name);
	return true;
}

static bool c_mmap2_bid20(const struct perfev_sample_layout *l, const struct perfev_record *r)
{
	return c_mmap2_bid(r, 20, "/usr/bin/perf-with-a-long-name");
}

static bool c_mmap2_bid8(const struct perfev_sample_layout *l, const struct perfev_record *r)
{
	return c_mmap2_bid(r, 8, "[vdso]");
}

static size_t b_lost(struct bld *b, const struct perfev_sample_layout *l)
{
	begin(b, PERF_RECORD_LOST, 0);
	put64(b, 0x1d0001);
	put64(b, 12345);
	return 24;
}

static bool c_lost(const struct perfev_sample_layout *l, const struct perfev_record *r)
{
	EQ(r->u.lost.id, 0x1d0001);
	EQ(r->u.lost.lost, 12345);
	return true;
}

static size_t b_comm_exec(struct bld *b, const struct perfev_sample_layout *l)
{
	begin(b, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
	put32(b, 30);
	put32(b, 30);
	putstr(b, "sleep");
	return 16 + 6;
}

static bool c_comm_exec(const struct perfev_sample_layout *l, const struct perfev_record *r)
{
	EQ(r->misc, PERF_RECORD_MISC_COMM_EXEC);
	EQ(r->u.comm.exec, true);
	EQ(r->u.comm.pid, 30);
	EQ(r->u.comm.tid, 30);
	STREQ(r->u.comm.comm, "sleep");
	return true;
}

static size_t b_comm(struct bld *b, const struct perfev_sample_layout *l)
{
	begin(b, PERF_RECORD_COMM, 0);
	put32(b, 30);
	put32(b, 31);
	putstr(b, "fifteen-chars!!"); /* TASK_COMM_LEN - 1: the NUL fills the 8 bytes */
	return 16 + 16;
}

static bool c_comm(const struct perfev_sample_layout *l, const struct perfev_record *r)
{
	EQ(r->misc, 0);
	EQ(r->u.comm.exec, false);
	EQ(r->u.comm.tid, 31);
	STREQ(r->u.comm.comm, "fifteen-chars!!");
	return true;
}

static size_t b_task(struct bld *b, uint32_t type)
{
	begin(b, type, 0);
	put32(b, 40);
	put32(b, 41);
	put32(b, 42);
	put32(b, 43);
	put64(b, 0x123456789ULL);
	return 32;
}

static bool c_task(const struct perfev_record *r)
{
	EQ(r->u.fork.pid, 40);
	EQ(r->u.fork.ppid, 41);
	EQ(r->u.fork.tid, 42);
	EQ(r->u.fork.ptid, 43);
	EQ(r->u.fork.time, 0x123456789ULL);
	return true;
}

static size_t b_exit(struct bld *b, const struct perfev_sample_layout *l)
{
	return b_task(b, PERF_RECORD_EXIT);
}

static size_t b_fork(struct bld *b, const struct perfev_sample_layout *l)
{
	return b_task(b, PERF_RECORD_FORK);
}

static bool c_task_any(const struct perfev_sample_layout *l, const struct perfev_record *r)
{
	return c_task(r);
}

static size_t b_throttle_type(struct bld *b, uint32_t type)
{
	begin(b, type, 0);
	put64(b, 0xabcdef);
	put64(b, 0x1d);
	put64(b, 0x5e);
	return 32;
}

static size_t b_throttle(struct bld *b, const struct perfev_sample_layout *l)
{
	return b_throttle_type(b, PERF_RECORD_THROTTLE);
}

static size_t b_unthrottle(struct bld *b, const struct perfev_sample_layout *l)
{
	return b_throttle_type(b, PERF_RECORD_UNTHROTTLE);
}

static bool c_throttle(const struct perfev_sample_layout *l, const struct perfev_record *r)
{
	EQ(r->u.throttle.time, 0xabcdef);
	EQ(r->u.throttle.id, 0x1d);
	EQ(r->u.throttle.stream_id, 0x5e);
	return true;
}

static size_t b_read(struct bld *b, const struct perfev_sample_layout *l)
{
	struct truth t;

	truth_init(&t, 0);
	t.rf = l->read_format;
	begin(b, PERF_RECORD_READ, 0);
	put32(b, 50);
	put32(b, 51);
	synth_read(b, &t);
	return b->n;
}

static bool c_read(const struct perfev_sample_layout *l, const struct perfev_record *r)
{
	struct truth t;

	truth_init(&t, 0);
	t.rf = l->read_format;
	EQ(r->u.read.pid, 50);
	EQ(r->u.read.tid, 51);
	return check_read(l, &r->u.read.values, &t);
}

static size_t b_aux(struct bld *b, const struct perfev_sample_layout *l)
{
	begin(b, PERF_RECORD_AUX, 0);
	put64(b, 0x10000);
	put64(b, 0x8000);
	put64(b, PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL);
	return 32;
}

static bool c_aux(const struct perfev_sample_layout *l, const struct perfev_record *r)
{
	EQ(r->u.aux.aux_offset, 0x10000);
	EQ(r->u.aux.aux_size, 0x8000);
	EQ(r->u.aux.flags, PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL);
	return true;
}

static size_t b_itrace(struct bld *b, const struct perfev_sample_layout *l)
{
	begin(b, PERF_RECORD_ITRACE_START, 0);
	put32(b, 60);
	put32(b, 61);
	return 16;
}

static bool c_itrace(const struct perfev_sample_layout *l, const struct perfev_record *r)
{
	EQ(r->u.itrace_start.pid, 60);
	EQ(r->u.itrace_start.tid, 61);
	return true;
}

static size_t b_lost_samples(struct bld *b, const struct perfev_sample_layout *l)
{
	begin(b, PERF_RECORD_LOST_SAMPLES, 0);
	put64(b, 77);
	return 16;
}

static bool c_lost_samples(const struct perfev_sample_layout *l, const struct perfev_record *r)
{
	EQ(r->u.lost_samples.lost, 77);
	return true;
}

static size_t b_switch_out(struct bld *b, const struct perfev_sample_layout *l)
{
	begin(b, PERF_RECORD_SWITCH,
	      PERF_RECORD_MISC_SWITCH_OUT | PERF_RECORD_MISC_SWITCH_OUT_PREEMPT |
		  PERF_RECORD_MISC_KERNEL);
	return 8;
}

static bool c_switch_out(const struct perfev_sample_layout *l, const struct perfev_record *r)
{
	EQ(r->u.context_switch.out, true);
	EQ(r->u.context_switch.preempt, true);
	EQ(r->u.context_switch.next_prev_pid, 0);
	return true;
}

static size_t b_switch_in(struct bld *b, const struct perfev_sample_layout *l)
{
	begin(b, PERF_RECORD_SWITCH, 0);
	return 8;
}

static bool c_switch_in(const struct perfev_sample_layout *l, const struct perfev_record *r)
{
	EQ(r->u.context_switch.out, false);
	EQ(r->u.context_switch.preempt, false);
	return true;
}

static size_t b_switch_cpu(struct bld *b, const struct perfev_sample_layout *l)
{
	begin(b, PERF_RECORD_SWITCH_CPU_WIDE, PERF_RECORD_MISC_SWITCH_OUT);
	put32(b, 70);
	put32(b, 71);
	return 16;
}

static bool c_switch_cpu(const struct perfev_sample_layout *l, const struct perfev_record *r)
{
	EQ(r->u.context_switch.out, true);
	EQ(r->u.context_switch.preempt, false);
	EQ(r->u.context_switch.next_prev_pid, 70);
	EQ(r->u.context_switch.next_prev_tid, 71);
	return true;
}

static size_t b_namespaces(struct bld *b, const struct perfev_sample_layout *l)
{
	uint64_t i;

	begin(b, PERF_RECORD_NAMESPACES, 0);
	put32(b, 80);
	put32(b, 81);
	put64(b, 7); /* NET_NS_INDEX .. CGROUP_NS_INDEX */
	for (i = 0; i < 7; i++) {
		put64(b, 4 + i);
		put64(b, 0xf0000000ULL + i);
	}
	return 24 + 7 * 16;
}

static bool c_namespaces(const struct perfev_sample_layout *l, const struct perfev_record *r)
{
	uint64_t i;

	EQ(r->u.namespaces.pid, 80);
	EQ(r->u.namespaces.tid, 81);
	EQ(r->u.namespaces.nr, 7);
	for (i = 0; i < 7; i++) {
		EQ(perfev_u64_at(r->u.namespaces.link_info, 2 * i), 4 + i);
		EQ(perfev_u64_at(r->u.namespaces.link_info, 2 * i + 1), 0xf0000000ULL + i);
	}
	return true;
}

static size_t b_namespaces0(struct bld *b, const struct perfev_sample_layout *l)
{
	begin(b, PERF_RECORD_NAMESPACES, 0);
	put32(b, 82);
	put32(b, 83);
	put64(b, 0);
	return 24;
}

static bool c_namespaces0(const struct perfev_sample_layout *l, const struct perfev_record *r)
{
	EQ(r->u.namespaces.nr, 0);
	EQ(r->u.namespaces.tid, 83);
	return true;
}

static size_t b_ksymbol(struct bld *b, const struct perfev_sample_layout *l)
{
	begin(b, PERF_RECORD_KSYMBOL, PERF_RECORD_MISC_KERNEL);
	put64(b, 0xffffffffc0001000ULL);
	put32(b, 0x123);
	put16(b, PERF_RECORD_KSYMBOL_TYPE_BPF);
	put16(b, PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER);
	putstr(b, "bpf_prog_6deef7357e7b4530_F");
	return 24 + 28;
}

static bool c_ksymbol(const struct perfev_sample_layout *l, const struct perfev_record *r)
{
	EQ(r->u.ksymbol.addr, 0xffffffffc0001000ULL);
	EQ(r->u.ksymbol.len, 0x123);
	EQ(r->u.ksymbol.ksym_type, PERF_RECORD_KSYMBOL_TYPE_BPF);
	EQ(r->u.ksymbol.flags, PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER);
	STREQ(r->u.ksymbol.name, "bpf_prog_6deef7357e7b4530_F");
	return true;
}

static size_t b_bpf(struct bld *b, const struct perfev_sample_layout *l)
{
	begin(b, PERF_RECORD_BPF_EVENT, 0);
	put16(b, PERF_BPF_EVENT_PROG_LOAD);
	put16(b, 0);
	put32(b, 42);
	put(b, bpf_tag, 8);
	return 24;
}

static bool c_bpf(const struct perfev_sample_layout *l, const struct perfev_record *r)
{
	EQ(r->u.bpf_event.type, PERF_BPF_EVENT_PROG_LOAD);
	EQ(r->u.bpf_event.flags, 0);
	EQ(r->u.bpf_event.id, 42);
	MEMEQ(r->u.bpf_event.tag, bpf_tag, 8);
	return true;
}

static size_t b_cgroup(struct bld *b, const struct perfev_sample_layout *l)
{
	begin(b, PERF_RECORD_CGROUP, 0);
	put64(b, 0x1234);
	putstr(b, "/user.slice/user-1000.slice");
	return 16 + 28;
}

static bool c_cgroup(const struct perfev_sample_layout *l, const struct perfev_record *r)
{
	EQ(r->u.cgroup.id, 0x1234);
	STREQ(r->u.cgroup.path, "/user.slice/user-1000.slice");
	return true;
}

static size_t b_text_poke(struct bld *b, const struct perfev_sample_layout *l)
{
	begin(b, PERFEV_RECORD_TEXT_POKE, PERF_RECORD_MISC_KERNEL);
	put64(b, 0xffffffff81001000ULL);
	put16(b, 5);
	put16(b, 5);
	put(b, poke, 10);
	pad8(b);
	return 20 + 10;
}

static bool c_text_poke(const struct perfev_sample_layout *l, const struct perfev_record *r)
{
	EQ(r->u.text_poke.addr, 0xffffffff81001000ULL);
	EQ(r->u.text_poke.old_len, 5);
	EQ(r->u.text_poke.new_len, 5);
	MEMEQ(r->u.text_poke.bytes, poke, 10);
	return true;
}

static size_t b_text_poke_add(struct bld *b, const struct perfev_sample_layout *l)
{
	begin(b, PERFEV_RECORD_TEXT_POKE, PERF_RECORD_MISC_KERNEL);
	put64(b, 0xffffffffc0002000ULL);
	put16(b, 0);
	put16(b, 4); /* 20 + 4: no padding */
	put(b, poke + 5, 4);
	return 24;
}

static bool c_text_poke_add(const struct perfev_sample_layout *l, const struct perfev_record *r)
{
	EQ(r->u.text_poke.old_len, 0);
	EQ(r->u.text_poke.new_len, 4);
	MEMEQ(r->u.text_poke.bytes, poke + 5, 4);
	return true;
}

static size_t b_hw_id(struct bld *b, const struct perfev_sample_layout *l)
{
	begin(b, PERFEV_RECORD_AUX_OUTPUT_HW_ID, 0);
	put64(b, 0x4242);
	return 16;
}

static bool c_hw_id(const struct perfev_sample_layout *l, const struct perfev_record *r)
{
	EQ(r->u.aux_output_hw_id.hw_id, 0x4242);
	return true;
}

static const struct ns_case ns_cases[] = {
    {"MMAP", b_mmap, c_mmap},
    {"MMAP2 inode", b_mmap2_inode, c_mmap2_inode},
    {"MMAP2 build id 20", b_mmap2_bid20, c_mmap2_bid20},
    {"MMAP2 build id 8", b_mmap2_bid8, c_mmap2_bid8},
    {"LOST", b_lost, c_lost},
    {"COMM exec", b_comm_exec, c_comm_exec},
    {"COMM", b_comm, c_comm},
    {"EXIT", b_exit, c_task_any},
    {"FORK", b_fork, c_task_any},
    {"THROTTLE", b_throttle, c_throttle},
    {"UNTHROTTLE", b_unthrottle, c_throttle},
    {"READ", b_read, c_read},
    {"AUX", b_aux, c_aux},
    {"ITRACE_START", b_itrace, c_itrace},
    {"LOST_SAMPLES", b_lost_samples, c_lost_samples},
    {"SWITCH out", b_switch_out, c_switch_out},
    {"SWITCH in", b_switch_in, c_switch_in},
    {"SWITCH_CPU_WIDE", b_switch_cpu, c_switch_cpu},
    {"NAMESPACES", b_namespaces, c_namespaces},
    {"NAMESPACES none", b_namespaces0, c_namespaces0},
    {"KSYMBOL", b_ksymbol, c_ksymbol},
    {"BPF_EVENT", b_bpf, c_bpf},
    {"CGROUP", b_cgroup, c_cgroup},
    {"TEXT_POKE", b_text_poke, c_text_poke},
    {"TEXT_POKE add", b_text_poke_add, c_text_poke_add},
    {"AUX_OUTPUT_HW_ID", b_hw_id, c_hw_id},
};

/* Layouts for non-sample records: no trailer, and trailers of several shapes. */
static const struct {
	const char *name;
	bool sid_all;
	uint64_t st, rf;
} ns_layouts[] = {
    {"no sample_id_all", false, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID, 0},
    {"all trailer bits", true,
     SID_BITS | PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN,
     PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST},
    {"TID", true, PERF_SAMPLE_TID, PERF_FORMAT_ID},
    {"TIME ID", true, PERF_SAMPLE_TIME | PERF_SAMPLE_ID, RF_ALL},
    {"ID STREAM_ID CPU", true, PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU,
     PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING},
    {"IDENTIFIER", true, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP, PERF_FORMAT_LOST},
    {"no trailer bits", true, PERF_SAMPLE_IP, PERF_FORMAT_GROUP},
};

static bool ns_run(const struct ns_case *c, size_t li)
{
	struct perf_event_attr attr = {.size = sizeof(attr)};
	struct perfev_sample_layout l;
	struct perfev_record r;
	static char name[128];
	static struct bld b;
	size_t need, trailer;
	uint64_t id;
	void *copy;
	int ret;
	bool ok;

	snprintf(name, sizeof(name), "%s, %s", c->name, ns_layouts[li].name);
	cur_case = name;
	attr.sample_type = ns_layouts[li].st;
	attr.read_format = ns_layouts[li].rf;
	attr.sample_id_all = ns_layouts[li].sid_all;
	EQ(perfev_sample_layout_init(&l, &attr), 0);

	need = c->build(&b, &l);
	trailer = b.n;
	synth_trailer(&b, &l);
	trailer = b.n - trailer;
	finish(&b);
	EQ(b.n % 8, 0);
	EQ(trailer, l.sample_id_all ? l.id_trailer_size : 0);

	ret = decode_exact(&l, b.b, b.n, &r, &copy);
	ok = ret == 0;
	if (!ok)
		harness_fail(__FILE__, __LINE__, "%s: decode: %d", name, ret);
	ok = ok && r.size == b.n && r.bytes == copy && r.type == rd64(b.b, 0) % (1ULL << 32) &&
	     c->check(&l, &r) && check_sid(&l, &r.sid) && check_reencode(&l, &r, b.b, b.n);
	if (ok) {
		ret = perfev_record_id(&l, copy, b.n, &id);
		if (!l.sample_id_all || l.id_pos_from_end < 0) {
			ok = ret == -ENOENT;
		} else {
			ok = ret == 0 &&
			     id == (l.sample_type & PERF_SAMPLE_IDENTIFIER ? sid_truth.identifier
									   : sid_truth.id);
		}
		if (!ok)
			harness_fail(__FILE__, __LINE__, "%s: record id: %d", name, ret);
	}
	free(copy);
	return ok && check_truncations(&l, b.b, b.n, need + trailer);
}

TEST(other_records)
{
	size_t i, li;

	for (li = 0; li < sizeof(ns_layouts) / sizeof(ns_layouts[0]); li++)
		for (i = 0; i < sizeof(ns_cases) / sizeof(ns_cases[0]); i++)
			if (!ns_run(&ns_cases[i], li))
				return;
}

/* Every kernel type, 1 .. 21, has a case above. */
TEST(other_records_cover_every_type)
{
	bool seen[32] = {false};
	static struct bld b;
	struct perfev_sample_layout l = {0};
	uint32_t type;
	size_t i;

	for (i = 0; i < sizeof(ns_cases) / sizeof(ns_cases[0]); i++) {
		ns_cases[i].build(&b, &l);
		memcpy(&type, b.b, 4);
		CHECK(type < 32);
		seen[type] = true;
	}
	for (type = PERF_RECORD_MMAP; type <= PERFEV_RECORD_AUX_OUTPUT_HW_ID; type++)
		EXPECT(seen[type] || type == PERF_RECORD_SAMPLE, "type %u has no case", type);
}

/* ---- malformed records ------------------------------------------------------------ */

TEST(string_without_nul)
{
	struct perfev_sample_layout l;
	static struct bld b;

	layout_for(&l, 0, 0, false);
	begin(&b, PERF_RECORD_COMM, 0);
	put32(&b, 1);
	put32(&b, 1);
	put(&b, "12345678", 8);
	finish(&b);
	CHECK_INT(decode_bld(&l, &b), -EBADMSG);

	/* No room for the string at all. */
	begin(&b, PERF_RECORD_CGROUP, 0);
	put64(&b, 1);
	finish(&b);
	CHECK_INT(decode_bld(&l, &b), -EBADMSG);

	/* The NUL is there, but inside the trailer: not part of the string. */
	layout_for(&l, PERF_SAMPLE_TID, 0, true);
	begin(&b, PERF_RECORD_MMAP, 0);
	put32(&b, 1);
	put32(&b, 1);
	put64(&b, 0);
	put64(&b, 0);
	put64(&b, 0);
	put(&b, "abcdefgh", 8);
	put32(&b, 0);
	put32(&b, 0);
	finish(&b);
	CHECK_INT(decode_bld(&l, &b), -EBADMSG);
	layout_for(&l, PERF_SAMPLE_TID, 0, false);
	CHECK_INT(decode_bld(&l, &b), 0);

	/* KSYMBOL and MMAP2 too. */
	layout_for(&l, 0, 0, false);
	begin(&b, PERF_RECORD_KSYMBOL, 0);
	put64(&b, 0);
	put32(&b, 0);
	put32(&b, 0);
	put(&b, "xxxxxxxx", 8);
	finish(&b);
	CHECK_INT(decode_bld(&l, &b), -EBADMSG);
	mmap2_head(&b, 0);
	put(&b, "0123456789abcdef0123456789abcdef", 32);
	finish(&b);
	CHECK_INT(decode_bld(&l, &b), -EBADMSG);
}

TEST(absurd_counts)
{
	static const uint64_t huge[] = {1ULL << 61, 1ULL << 60, (1ULL << 61) + 1,
					1ULL << 63, UINT64_MAX, UINT64_MAX / 24 + 1,
					65536};
	struct perfev_sample_layout l;
	static struct bld b;
	size_t i;

	for (i = 0; i < sizeof(huge) / sizeof(huge[0]); i++) {
		uint64_t n = huge[i];

		layout_for(&l, PERF_SAMPLE_CALLCHAIN, 0, false);
		begin(&b, PERF_RECORD_SAMPLE, 0);
		put64(&b, n);
		put64(&b, 0xffffffff81000000ULL);
		finish(&b);
		EXPECT(decode_bld(&l, &b) == -EBADMSG, "callchain nr %#" PRIx64, n);

		layout_for(&l, PERF_SAMPLE_READ, PERF_FORMAT_GROUP | PERF_FORMAT_ID, false);
		EXPECT(decode_bld(&l, &b) == -EBADMSG, "group nr %#" PRIx64, n);
		layout_for(&l, PERF_SAMPLE_BRANCH_STACK, 0, false);
		EXPECT(decode_bld(&l, &b) == -EBADMSG, "branch nr %#" PRIx64, n);
		layout_for(&l, PERF_SAMPLE_STACK_USER, 0, false);
		EXPECT(decode_bld(&l, &b) == -EBADMSG, "stack size %#" PRIx64, n);
		layout_for(&l, PERF_SAMPLE_AUX, 0, false);
		EXPECT(decode_bld(&l, &b) == -EBADMSG, "aux size %#" PRIx64, n);

		layout_for(&l, 0, PERF_FORMAT_GROUP, false);
		begin(&b, PERF_RECORD_NAMESPACES, 0);
		put32(&b, 1);
		put32(&b, 1);
		put64(&b, n);
		put64(&b, 0);
		put64(&b, 0);
		finish(&b);
		EXPECT(decode_bld(&l, &b) == -EBADMSG, "namespaces nr %#" PRIx64, n);

		begin(&b, PERF_RECORD_READ, 0);
		put32(&b, 1);
		put32(&b, 1);
		put64(&b, n);
		put64(&b, 0);
		finish(&b);
		EXPECT(decode_bld(&l, &b) == -EBADMSG, "READ record nr %#" PRIx64, n);
	}

	/* RAW's u32 size at its largest. */
	layout_for(&l, PERF_SAMPLE_RAW, 0, false);
	begin(&b, PERF_RECORD_SAMPLE, 0);
	put32(&b, UINT32_MAX);
	put32(&b, 0);
	finish(&b);
	CHECK_INT(decode_bld(&l, &b), -EBADMSG);

	/* A register count the record cannot hold. */
	layout_for(&l, PERF_SAMPLE_REGS_USER, 0, false);
	begin(&b, PERF_RECORD_SAMPLE, 0);
	put64(&b, PERF_SAMPLE_REGS_ABI_64);
	put64(&b, 1);
	finish(&b);
	CHECK_INT(decode_bld(&l, &b), -EBADMSG);

	/* TEXT_POKE lengths past the record. */
	layout_for(&l, 0, 0, false);
	begin(&b, PERFEV_RECORD_TEXT_POKE, 0);
	put64(&b, 0);
	put16(&b, 0xffff);
	put16(&b, 0xffff);
	put32(&b, 0);
	finish(&b);
	CHECK_INT(decode_bld(&l, &b), -EBADMSG);
}

TEST(malformed_headers_and_trailers)
{
	struct perfev_sample_layout l;
	struct perfev_record r;
	static struct bld b;
	uint8_t hdr[8];
	uint16_t sz;

	layout_for(&l, PERF_SAMPLE_IP, 0, false);
	/* Sizes below the header's own. */
	for (sz = 0; sz < 8; sz++) {
		begin(&b, PERF_RECORD_SAMPLE, 0);
		put64(&b, 0);
		memcpy(b.b + 6, &sz, 2);
		EXPECT(decode_bld(&l, &b) == -EBADMSG, "size %u", sz);
	}
	/* More than there is. */
	begin(&b, PERF_RECORD_LOST, 0);
	put64(&b, 1);
	put64(&b, 2);
	finish(&b);
	CHECK_INT(perfev_record_decode(&l, b.b, b.n - 1, &r), -EBADMSG);
	CHECK_INT(perfev_record_decode(&l, b.b, 7, &r), -EBADMSG);
	CHECK_INT(perfev_record_decode(&l, NULL, 0, &r), -EBADMSG);
	/* A 0-byte record cannot make a reader loop forever: it is an error. */
	memset(hdr, 0, sizeof(hdr));
	CHECK_INT(perfev_record_decode(&l, hdr, sizeof(hdr), &r), -EBADMSG);

	/* A trailer longer than the record. */
	layout_for(&l, SID_BITS, 0, true);
	CHECK_INT(l.id_trailer_size, 48);
	begin(&b, PERF_RECORD_SWITCH, 0);
	put64(&b, 1);
	put64(&b, 2);
	finish(&b);
	CHECK_INT(decode_bld(&l, &b), -EBADMSG);
	/* The body overlapping the trailer. */
	begin(&b, PERF_RECORD_LOST, 0);
	put64(&b, 1);
	put(&b, (uint8_t[48]){0}, 48);
	finish(&b);
	CHECK_INT(decode_bld(&l, &b), -EBADMSG);

	/* An MMAP2 build id longer than its 20 bytes. */
	layout_for(&l, 0, 0, false);
	b_mmap2_bid(&b, &l, 21, "x");
	finish(&b);
	CHECK_INT(decode_bld(&l, &b), -EBADMSG);
	b_mmap2_bid(&b, &l, 20, "x");
	finish(&b);
	CHECK_INT(decode_bld(&l, &b), 0);

	/* RAW's padding is part of the record. */
	layout_for(&l, PERF_SAMPLE_RAW, 0, false);
	begin(&b, PERF_RECORD_SAMPLE, 0);
	put32(&b, 5);
	put(&b, "abcde", 5);
	finish(&b);
	CHECK_INT(decode_bld(&l, &b), -EBADMSG);
	put(&b, "\0\0\0\0\0\0", 6); /* 4 + 5 + 6: one byte short */
	finish(&b);
	CHECK_INT(decode_bld(&l, &b), -EBADMSG);
	put8(&b, 0);
	finish(&b);
	CHECK_INT(decode_bld(&l, &b), 0);

	/* Bad arguments. */
	CHECK_INT(perfev_record_decode(NULL, b.b, b.n, &r), -EINVAL);
	CHECK_INT(perfev_record_decode(&l, b.b, b.n, NULL), -EINVAL);
	CHECK_INT(perfev_record_decode(&l, NULL, 8, &r), -EINVAL);
	l.sample_type |= 1ULL << 25;
	CHECK_INT(perfev_record_decode(&l, b.b, b.n, &r), -EINVAL);
	CHECK_INT(perfev_record_encode(&l, &r, b.b, sizeof(b.b)), -EINVAL);
	l.sample_type = 0;
	l.read_format = 1ULL << 5;
	CHECK_INT(perfev_record_decode(&l, b.b, b.n, &r), -EINVAL);
}

TEST(unknown_and_perf_types_decode_only_the_header)
{
	static const uint32_t types[] = {0,
					 22,
					 63,
					 PERFEV_RECORD_HEADER_ATTR,
					 PERFEV_RECORD_FINISHED_ROUND,
					 PERFEV_RECORD_FINISHED_INIT,
					 83,
					 0xffffffffU};
	struct perfev_sample_layout l;
	struct perfev_record r;
	static struct bld b;
	uint64_t id;
	size_t i;
	void *copy;

	layout_for(&l, SID_BITS, 0, true);
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		/* Bodies shorter than the trailer would be: nothing of them is read. */
		begin(&b, types[i], 0x1234);
		if (i & 1)
			put64(&b, 0x0123456789abcdefULL);
		finish(&b);
		CHECK_INT(decode_exact(&l, b.b, b.n, &r, &copy), 0);
		free(copy);
		CHECK_U64(r.type, types[i]);
		CHECK_INT(r.misc, 0x1234);
		CHECK_INT(r.size, b.n);
		CHECK_U64(r.sid.present, 0);
		CHECK_U64(r.u.lost.id, 0);
		CHECK_INT(perfev_record_id(&l, b.b, b.n, &id), -ENOENT);
		CHECK_INT(perfev_record_encode(&l, &r, b.b, sizeof(b.b)), -EINVAL);
	}
	/* FINISHED_ROUND as perf writes it: a bare header. */
	begin(&b, PERFEV_RECORD_FINISHED_ROUND, 0);
	finish(&b);
	CHECK_INT(decode_bld(&l, &b), 0);
}

/* ---- the kernel's stale MMAP2 build-id bit ------------------------------------------ */

/*
 * An MMAP2 as Linux writes it to an event without attr.build_id while
 * another event on the system sets it: the build-id bit in misc, device
 * and inode in the union.  @maj's low byte is what a reader trusting the
 * bit takes for the build id's size.
 */
static void b_mmap2_stale(struct bld *b, uint32_t maj)
{
	mmap2_dev(b, PERF_RECORD_MISC_USER | MISC_BUILD_ID, maj);
	finish(b);
}

TEST(mmap2_stale_build_id_bit)
{
	struct perfev_sample_layout l;
	struct perfev_record r;
	static struct bld b;

	layout_for(&l, 0, 0, false);
	cur_case = "stale bit, device 253";
	b_mmap2_stale(&b, 253);
	/* Trusted, the bit makes a build id of 253 bytes: malformed. */
	CHECK_INT(perfev_record_decode(&l, b.b, b.n, &r), -EBADMSG);
	/* The record's event did not ask for build ids: device and inode. */
	CHECK_INT(perfev__record_decode_flags(&l, b.b, b.n, PERFEV__DECODE_NO_BUILD_ID, &r), 0);
	CHECK(c_mmap2_dev(&r, 253));
	CHECK(r.bytes == b.b && r.size == b.n);

	cur_case = "stale bit, device 8";
	b_mmap2_stale(&b, 8);
	/* Trusted: a false 8-byte build id made of the device and inode. */
	CHECK_INT(perfev_record_decode(&l, b.b, b.n, &r), 0);
	CHECK(r.u.mmap2.has_build_id);
	CHECK_INT(perfev__record_decode_flags(&l, b.b, b.n, PERFEV__DECODE_NO_BUILD_ID, &r), 0);
	CHECK(c_mmap2_dev(&r, 8));

	/* An event that asked: the same bit is a build id. */
	cur_case = "build id asked";
	b_mmap2_bid20(&b, &l);
	finish(&b);
	CHECK_INT(perfev__record_decode_flags(&l, b.b, b.n, 0, &r), 0);
	CHECK(c_mmap2_bid20(&l, &r));
	/* Without the bit the flag changes nothing. */
	cur_case = "no bit";
	b_mmap2_inode(&b, &l);
	finish(&b);
	CHECK_INT(perfev__record_decode_flags(&l, b.b, b.n, PERFEV__DECODE_NO_BUILD_ID, &r), 0);
	CHECK(c_mmap2_inode(&l, &r));
}
