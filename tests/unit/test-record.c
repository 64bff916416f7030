// SPDX-License-Identifier: LGPL-2.1-or-later
/* Samples with every field synthesized, decoded and re-encoded; layouts, ids, helpers. */
#include "record-synth.h"

/* ---- samples ---------------------------------------------------------------------- */

static bool check_sample(const struct perfev_sample_layout *l, const struct perfev_record *r,
			 const struct truth *t)
{
	const struct perfev_sample *s = &r->u.sample;
	uint64_t st = t->st, i;

	EQ(r->type, PERF_RECORD_SAMPLE);
	EQ(r->misc, PERF_RECORD_MISC_USER);
	EQ(s->present, st);
	EQ(s->identifier, st & PERF_SAMPLE_IDENTIFIER ? t->identifier : 0);
	EQ(s->ip, st & PERF_SAMPLE_IP ? t->ip : 0);
	EQ(s->pid, st & PERF_SAMPLE_TID ? t->pid : 0);
	EQ(s->tid, st & PERF_SAMPLE_TID ? t->tid : 0);
	EQ(s->time, st & PERF_SAMPLE_TIME ? t->time : 0);
	EQ(s->addr, st & PERF_SAMPLE_ADDR ? t->addr : 0);
	EQ(s->id, st & PERF_SAMPLE_ID ? t->id : 0);
	EQ(s->stream_id, st & PERF_SAMPLE_STREAM_ID ? t->stream_id : 0);
	EQ(s->cpu, st & PERF_SAMPLE_CPU ? t->cpu : 0);
	EQ(s->res, st & PERF_SAMPLE_CPU ? t->res : 0);
	EQ(s->period, st & PERF_SAMPLE_PERIOD ? t->period : 0);
	if (st & PERF_SAMPLE_READ) {
		if (!check_read(l, s, t))
			return false;
	} else {
		EQ(s->read.nr, 0);
		EQ(perfev_sample_read_value(l, s, 0, NULL, NULL, NULL), -EINVAL);
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		EQ(s->callchain_nr, t->cc_nr);
		for (i = 0; i < t->cc_nr; i++)
			EQ(perfev_u64_at(s->callchain, i), t->cc[i]);
	}
	if (st & PERF_SAMPLE_RAW) {
		EQ(s->raw_size, t->raw_size);
		MEMEQ(s->raw, t->raw, t->raw_size);
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		EQ(s->branch_nr, t->br_nr);
		EQ(s->branch_hw_idx, t->bst & PERF_SAMPLE_BRANCH_HW_INDEX ? t->hw_idx : 0);
		for (i = 0; i < t->br_nr; i++) {
			struct perfev_branch_entry e;

			memcpy(&e, (const uint8_t *)s->branches + i * sizeof(e), sizeof(e));
			EQ(e.from, t->br[i][0]);
			EQ(e.to, t->br[i][1]);
			EQ(e.flags, t->br[i][2]);
		}
		if (t->bst & BRANCH_COUNTERS) {
			for (i = 0; i < t->br_nr; i++)
				EQ(perfev_u64_at(s->branch_counters, i), t->br_cnt[i]);
		} else {
			EQ(s->branch_counters != NULL, 0);
		}
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		EQ(s->regs_user_abi, t->ru_abi);
		EQ(s->regs_user != NULL, t->ru_abi != 0);
		if (t->ru_abi)
			MEMEQ(s->regs_user, t->ru, t->nregs_user * 8);
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		EQ(s->stack_user_size, t->su_size);
		MEMEQ(s->stack_user, t->su, t->su_size);
		EQ(s->stack_user_dyn_size, t->su_size ? t->su_dyn : 0);
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		EQ(s->weight, t->weight);
		EQ(s->weight_struct.var1_dw, 0x11223344);
		EQ(s->weight_struct.var2_w, 0x5566);
		EQ(s->weight_struct.var3_w, 0x7788);
	}
	EQ(s->data_src, st & PERF_SAMPLE_DATA_SRC ? t->data_src : 0);
	EQ(s->transaction, st & PERF_SAMPLE_TRANSACTION ? t->transaction : 0);
	if (st & PERF_SAMPLE_REGS_INTR) {
		EQ(s->regs_intr_abi, t->ri_abi);
		if (t->ri_abi)
			MEMEQ(s->regs_intr, t->ri, t->nregs_intr * 8);
	}
	EQ(s->phys_addr, st & PERF_SAMPLE_PHYS_ADDR ? t->phys : 0);
	EQ(s->cgroup, st & PERF_SAMPLE_CGROUP ? t->cgroup : 0);
	EQ(s->data_page_size, st & PERF_SAMPLE_DATA_PAGE_SIZE ? t->dps : 0);
	EQ(s->code_page_size, st & PERF_SAMPLE_CODE_PAGE_SIZE ? t->cps : 0);
	if (st & PERF_SAMPLE_AUX) {
		EQ(s->aux_size, t->aux_size);
		MEMEQ(s->aux, t->aux, t->aux_size);
	}
	/* The sample's ids, also in sid. */
	EQ(r->sid.present, st & SID_BITS);
	EQ(r->sid.pid, s->pid);
	EQ(r->sid.tid, s->tid);
	EQ(r->sid.time, s->time);
	EQ(r->sid.id, s->id);
	EQ(r->sid.stream_id, s->stream_id);
	EQ(r->sid.cpu, s->cpu);
	EQ(r->sid.identifier, s->identifier);
	return true;
}

/* Synthesize, decode, compare, re-encode, cut: everything one sample goes through. */
static bool sample_case(const char *name, const struct truth *t)
{
	struct perfev_sample_layout l;
	struct perfev_record r;
	static struct bld b;
	uint64_t id;
	void *copy;
	int ret;
	bool ok;

	cur_case = name;
	synth_sample(&b, t);
	if (!layout_of(t, &l, true))
		return false;
	ret = decode_exact(&l, b.b, b.n, &r, &copy);
	ok = ret == 0;
	if (!ok)
		harness_fail(__FILE__, __LINE__, "%s: decode: %d", name, ret);
	ok = ok && r.size == b.n && r.bytes == copy && check_sample(&l, &r, t) &&
	     check_reencode(&l, &r, b.b, b.n);
	if (ok) {
		/* The id where the layout says it is. */
		ret = perfev_record_id(&l, copy, b.n, &id);
		if (t->st & PERF_SAMPLE_IDENTIFIER) {
			ok = ret == 0 && id == t->identifier;
		} else if (t->st & PERF_SAMPLE_ID) {
			ok = ret == 0 && id == t->id;
		} else {
			ok = ret == -ENOENT;
		}
		if (!ok)
			harness_fail(__FILE__, __LINE__, "%s: record id: %d %#" PRIx64, name, ret,
				     id);
	}
	free(copy);
	return ok && check_truncations(&l, b.b, b.n, b.n);
}

static const struct {
	uint64_t bit;
	const char *name;
} sample_bits[] = {
    {PERF_SAMPLE_IP, "IP"},
    {PERF_SAMPLE_TID, "TID"},
    {PERF_SAMPLE_TIME, "TIME"},
    {PERF_SAMPLE_ADDR, "ADDR"},
    {PERF_SAMPLE_READ, "READ"},
    {PERF_SAMPLE_CALLCHAIN, "CALLCHAIN"},
    {PERF_SAMPLE_ID, "ID"},
    {PERF_SAMPLE_CPU, "CPU"},
    {PERF_SAMPLE_PERIOD, "PERIOD"},
    {PERF_SAMPLE_STREAM_ID, "STREAM_ID"},
    {PERF_SAMPLE_RAW, "RAW"},
    {PERF_SAMPLE_BRANCH_STACK, "BRANCH_STACK"},
    {PERF_SAMPLE_REGS_USER, "REGS_USER"},
    {PERF_SAMPLE_STACK_USER, "STACK_USER"},
    {PERF_SAMPLE_WEIGHT, "WEIGHT"},
    {PERF_SAMPLE_DATA_SRC, "DATA_SRC"},
    {PERF_SAMPLE_IDENTIFIER, "IDENTIFIER"},
    {PERF_SAMPLE_TRANSACTION, "TRANSACTION"},
    {PERF_SAMPLE_REGS_INTR, "REGS_INTR"},
    {PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR"},
    {PERF_SAMPLE_AUX, "AUX"},
    {PERF_SAMPLE_CGROUP, "CGROUP"},
    {PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE"},
    {PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE"},
    {PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT"},
};

TEST(sample_each_bit_alone)
{
	struct truth t;
	size_t i;

	/* Every bit up to WEIGHT_STRUCT has its row. */
	CHECK_INT(sizeof(sample_bits) / sizeof(sample_bits[0]), 25);
	for (i = 0; i < sizeof(sample_bits) / sizeof(sample_bits[0]); i++) {
		truth_init(&t, sample_bits[i].bit);
		t.rf = PERF_FORMAT_ID;
		if (!sample_case(sample_bits[i].name, &t))
			return;
	}
	/* Nothing at all: a bare header. */
	truth_init(&t, 0);
	CHECK(sample_case("none", &t));
}

TEST(sample_read_formats)
{
	static const uint64_t nrs[] = {1, 3};
	char name[64];
	struct truth t;
	uint64_t rf;
	size_t k;

	/* Every read_format, with one and three group members. */
	for (rf = 0; rf <= RF_ALL; rf++) {
		for (k = 0; k < 2; k++) {
			truth_init(&t, PERF_SAMPLE_READ | PERF_SAMPLE_TID);
			t.rf = rf;
			t.read_nr = nrs[k];
			snprintf(name, sizeof(name), "READ rf=%#" PRIx64 " nr=%" PRIu64, rf,
				 nrs[k]);
			if (!sample_case(name, &t))
				return;
			if (!(rf & PERF_FORMAT_GROUP))
				break;
		}
	}
	/* A group of none. */
	truth_init(&t, PERF_SAMPLE_READ);
	t.rf = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	t.read_nr = 0;
	CHECK(sample_case("READ group of 0", &t));
}

TEST(sample_variable_parts)
{
	static const uint32_t raw_sizes[] = {0, 1, 3, 4, 5, 7, 8, 12, 13, 20, 63};
	char name[64];
	struct truth t;
	size_t i;

	for (i = 0; i < sizeof(raw_sizes) / sizeof(raw_sizes[0]); i++) {
		truth_init(&t, PERF_SAMPLE_RAW | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD);
		t.raw_size = raw_sizes[i];
		snprintf(name, sizeof(name), "RAW size %u", raw_sizes[i]);
		if (!sample_case(name, &t))
			return;
	}

	truth_init(&t, PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_IP);
	t.cc_nr = 0;
	CHECK(sample_case("CALLCHAIN empty", &t));
	truth_init(&t, PERF_SAMPLE_CALLCHAIN);
	t.cc_nr = 4; /* user only */
	t.cc[0] = (uint64_t)PERF_CONTEXT_USER;
	CHECK(sample_case("CALLCHAIN user", &t));

	truth_init(&t, PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_CPU);
	CHECK(sample_case("BRANCH_STACK", &t));
	t.bst = PERF_SAMPLE_BRANCH_HW_INDEX | PERF_SAMPLE_BRANCH_ANY;
	CHECK(sample_case("BRANCH_STACK hw_idx", &t));
	t.br_nr = 0;
	CHECK(sample_case("BRANCH_STACK hw_idx empty", &t));
	t.br_nr = 4;
	t.bst |= BRANCH_COUNTERS;
	CHECK(sample_case("BRANCH_STACK hw_idx counters", &t));
	t.bst = BRANCH_COUNTERS;
	CHECK(sample_case("BRANCH_STACK counters", &t));

	truth_init(&t, PERF_SAMPLE_REGS_USER | PERF_SAMPLE_REGS_INTR);
	t.ru_abi = PERF_SAMPLE_REGS_ABI_NONE; /* a kernel thread: abi 0, no registers */
	CHECK(sample_case("REGS_USER abi 0", &t));
	t.ru_abi = PERF_SAMPLE_REGS_ABI_32;
	t.nregs_user = 17;
	CHECK(sample_case("REGS_USER abi 32", &t));
	t.nregs_user = 0;
	t.ri_abi = 0;
	CHECK(sample_case("REGS none in the mask", &t));

	truth_init(&t, PERF_SAMPLE_STACK_USER | PERF_SAMPLE_REGS_USER);
	t.su_size = 0; /* no dyn_size after an empty dump */
	CHECK(sample_case("STACK_USER empty", &t));
	t.su_size = 256;
	t.su_dyn = 256;
	CHECK(sample_case("STACK_USER full", &t));

	truth_init(&t, PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC);
	CHECK(sample_case("WEIGHT_STRUCT", &t));

	truth_init(&t, PERF_SAMPLE_AUX);
	t.aux_size = 0;
	CHECK(sample_case("AUX empty", &t));
}

TEST(sample_all_bits)
{
	static const uint64_t rfs[] = {
	    0,
	    PERF_FORMAT_ID,
	    PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_LOST,
	    PERF_FORMAT_GROUP,
	    PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST,
	    RF_ALL,
	};
	char name[96];
	struct truth t;
	size_t i;

	for (i = 0; i < sizeof(rfs) / sizeof(rfs[0]); i++) {
		truth_init(&t, SAMPLE_ALL);
		t.rf = rfs[i];
		t.bst = i & 1 ? PERF_SAMPLE_BRANCH_HW_INDEX : 0;
		t.raw_size = (uint32_t)(i * 5 + 1);
		t.ru_abi = i == 2 ? 0 : PERF_SAMPLE_REGS_ABI_64;
		t.su_size = i == 3 ? 0 : 8 * i;
		snprintf(name, sizeof(name), "all bits, rf=%#" PRIx64, rfs[i]);
		if (!sample_case(name, &t))
			return;
	}
	truth_init(&t, SAMPLE_ALL);
	t.rf = RF_ALL;
	t.bst = PERF_SAMPLE_BRANCH_HW_INDEX | BRANCH_COUNTERS;
	t.nregs_user = 64;
	t.nregs_intr = 64;
	CHECK(sample_case("all bits, all options", &t));
}

/* ---- layouts and ids -------------------------------------------------------------- */

/* perf's evsel id_pos and is_pos (tools/perf/util/evsel.c), written out again here. */
static int perf_id_pos(uint64_t st)
{
	int idx = 0;

	if (st & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	if (st & PERF_SAMPLE_IP)
		idx += 1;
	if (st & PERF_SAMPLE_TID)
		idx += 1;
	if (st & PERF_SAMPLE_TIME)
		idx += 1;
	if (st & PERF_SAMPLE_ADDR)
		idx += 1;
	return idx;
}

static int perf_is_pos(uint64_t st)
{
	int idx = 1;

	if (st & PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	if (st & PERF_SAMPLE_CPU)
		idx += 1;
	if (st & PERF_SAMPLE_STREAM_ID)
		idx += 1;
	return idx;
}

TEST(layout_fixed_values)
{
	struct perf_event_attr attr = {.size = sizeof(attr)};
	struct perfev_sample_layout l;

	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
			   PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX;
	attr.sample_regs_user = 0xff0ff;
	attr.sample_regs_intr = 1ULL << 63;
	attr.sample_id_all = 1;
	CHECK_INT(perfev_sample_layout_init(&l, &attr), 0);
	CHECK_U64(l.sample_type, attr.sample_type);
	CHECK_U64(l.read_format, attr.read_format);
	CHECK_U64(l.branch_sample_type, attr.branch_sample_type);
	CHECK_INT(l.regs_user_count, 16);
	CHECK_INT(l.regs_intr_count, 1);
	CHECK(l.sample_id_all);
	CHECK_INT(l.id_trailer_size, 32); /* TID, TIME, ID, CPU */
	CHECK_INT(l.id_pos, 4);		  /* after IP, TID, TIME, ADDR */
	CHECK_INT(l.id_pos_from_end, 2);  /* CPU after it */

	attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_ID;
	attr.sample_id_all = 0;
	CHECK_INT(perfev_sample_layout_init(&l, &attr), 0);
	CHECK(!l.sample_id_all);
	CHECK_INT(l.id_pos, 0);
	CHECK_INT(l.id_pos_from_end, 1);
	CHECK_INT(l.id_trailer_size, 16);

	attr.sample_type = PERF_SAMPLE_ID;
	CHECK_INT(perfev_sample_layout_init(&l, &attr), 0);
	CHECK_INT(l.id_pos, 0);
	CHECK_INT(l.id_pos_from_end, 1);

	attr.sample_type =
	    PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU;
	CHECK_INT(perfev_sample_layout_init(&l, &attr), 0);
	CHECK_INT(l.id_pos, 1);
	CHECK_INT(l.id_pos_from_end, 3);

	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
	CHECK_INT(perfev_sample_layout_init(&l, &attr), 0);
	CHECK_INT(l.id_pos, -1);
	CHECK_INT(l.id_pos_from_end, -1);
	CHECK_INT(l.id_trailer_size, 8);

	/* Bits past WEIGHT_STRUCT, and read_format past LOST. */
	attr.sample_type = SAMPLE_ALL;
	CHECK_INT(perfev_sample_layout_init(&l, &attr), 0);
	attr.sample_type = 1ULL << 25;
	CHECK_INT(perfev_sample_layout_init(&l, &attr), -EINVAL);
	attr.sample_type = 1ULL << 63 | PERF_SAMPLE_IP;
	CHECK_INT(perfev_sample_layout_init(&l, &attr), -EINVAL);
	attr.sample_type = PERF_SAMPLE_IP;
	attr.read_format = 1ULL << 5;
	CHECK_INT(perfev_sample_layout_init(&l, &attr), -EINVAL);
	attr.read_format = RF_ALL;
	CHECK_INT(perfev_sample_layout_init(&l, &attr), 0);
	CHECK_INT(perfev_sample_layout_init(NULL, &attr), -EINVAL);
	CHECK_INT(perfev_sample_layout_init(&l, NULL), -EINVAL);
}

/*
 * All 256 combinations of the id-bearing bits: the positions follow perf's
 * rules, and perfev_record_id finds the id in real records at them.
 */
TEST(layout_id_positions_follow_perf)
{
	static const uint64_t bits[] = {
	    PERF_SAMPLE_IP, PERF_SAMPLE_TID,	   PERF_SAMPLE_TIME, PERF_SAMPLE_ADDR,
	    PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,  PERF_SAMPLE_IDENTIFIER};
	struct perfev_sample_layout l;
	static struct bld b;
	static char name[64];
	struct truth t;
	uint64_t id, st;
	unsigned int m, i;
	int ret;

	for (m = 0; m < 256; m++) {
		st = PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
		for (i = 0; i < 8; i++)
			if (m & 1U << i)
				st |= bits[i];
		snprintf(name, sizeof(name), "sample_type %#" PRIx64, st);
		cur_case = name;
		truth_init(&t, st);
		if (!layout_of(&t, &l, true))
			return;
		CHECK_INT(l.id_pos, perf_id_pos(st));
		CHECK_INT(l.id_pos_from_end, perf_is_pos(st));
		CHECK_INT(l.id_trailer_size, 8 * __builtin_popcountll(st & SID_BITS));

		synth_sample(&b, &t);
		ret = perfev_record_id(&l, b.b, b.n, &id);
		if (l.id_pos < 0) {
			CHECK_INT(ret, -ENOENT);
		} else {
			CHECK_INT(ret, 0);
			CHECK_U64(id, st & PERF_SAMPLE_IDENTIFIER ? t.identifier : t.id);
		}
		begin(&b, PERF_RECORD_FORK, 0);
		put(&b, (uint8_t[24]){0}, 24);
		synth_trailer(&b, &l);
		finish(&b);
		ret = perfev_record_id(&l, b.b, b.n, &id);
		if (l.id_pos_from_end < 0) {
			CHECK_INT(ret, -ENOENT);
		} else {
			CHECK_INT(ret, 0);
			CHECK_U64(id, st & PERF_SAMPLE_IDENTIFIER ? sid_truth.identifier
								  : sid_truth.id);
		}
	}
}

TEST(record_id)
{
	struct perfev_sample_layout l;
	static struct bld b;
	uint64_t id = 0;

	/* IDENTIFIER: first word of a sample, last of a trailer. */
	layout_for(&l, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_ID, 0, true);
	begin(&b, PERF_RECORD_SAMPLE, 0);
	put64(&b, 0x1111);
	put64(&b, 0x2222);
	put64(&b, 0x3333);
	finish(&b);
	CHECK_INT(perfev_record_id(&l, b.b, b.n, &id), 0);
	CHECK_U64(id, 0x1111);
	begin(&b, PERF_RECORD_EXIT, 0);
	put(&b, (uint8_t[24]){0}, 24);
	put64(&b, 0x4444); /* ID */
	put64(&b, 0x5555); /* IDENTIFIER */
	finish(&b);
	CHECK_INT(perfev_record_id(&l, b.b, b.n, &id), 0);
	CHECK_U64(id, 0x5555);
	/* perf's own records carry none. */
	begin(&b, PERFEV_RECORD_FINISHED_ROUND, 0);
	finish(&b);
	CHECK_INT(perfev_record_id(&l, b.b, b.n, &id), -ENOENT);
	/* A sample too short for its id. */
	begin(&b, PERF_RECORD_SAMPLE, 0);
	finish(&b);
	CHECK_INT(perfev_record_id(&l, b.b, b.n, &id), -EBADMSG);
	/* A trailer too short for the id. */
	begin(&b, PERF_RECORD_SWITCH, 0);
	put32(&b, 0);
	finish(&b);
	CHECK_INT(perfev_record_id(&l, b.b, b.n, &id), -EBADMSG);

	/* ID alone: after IP in a sample. */
	layout_for(&l, PERF_SAMPLE_IP | PERF_SAMPLE_ID | PERF_SAMPLE_CPU, 0, true);
	begin(&b, PERF_RECORD_SAMPLE, 0);
	put64(&b, 0x1111);
	put64(&b, 0x2222);
	put64(&b, 0x3333);
	finish(&b);
	CHECK_INT(perfev_record_id(&l, b.b, b.n, &id), 0);
	CHECK_U64(id, 0x2222);
	begin(&b, PERF_RECORD_LOST, 0);
	put64(&b, 1);
	put64(&b, 2);
	put64(&b, 0x4444); /* ID */
	put64(&b, 3);	   /* CPU, res */
	finish(&b);
	CHECK_INT(perfev_record_id(&l, b.b, b.n, &id), 0);
	CHECK_U64(id, 0x4444);

	/* Without sample_id_all only samples have one. */
	layout_for(&l, PERF_SAMPLE_IP | PERF_SAMPLE_ID, 0, false);
	CHECK_INT(perfev_record_id(&l, b.b, b.n, &id), -ENOENT);

	/* No id at all. */
	layout_for(&l, PERF_SAMPLE_IP | PERF_SAMPLE_TID, 0, true);
	CHECK_INT(perfev_record_id(&l, b.b, b.n, &id), -ENOENT);
	begin(&b, PERF_RECORD_SAMPLE, 0);
	put64(&b, 1);
	put64(&b, 2);
	finish(&b);
	CHECK_INT(perfev_record_id(&l, b.b, b.n, &id), -ENOENT);

	CHECK_INT(perfev_record_id(NULL, b.b, b.n, &id), -EINVAL);
	CHECK_INT(perfev_record_id(&l, b.b, b.n, NULL), -EINVAL);
}

/* ---- helpers ---------------------------------------------------------------------- */

TEST(data_src)
{
	struct perfev_data_src d;
	union perf_mem_data_src u;
	uint64_t v, x;
	int i;

	/* A load that hit L1 and L1 TLB, locked, remote, snoop forward, blocked, 2 hops. */
	v = PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, HIT) | PERF_MEM_S(LVL, L1) |
	    PERF_MEM_S(SNOOP, NONE) | PERF_MEM_S(LOCK, LOCKED) | PERF_MEM_S(TLB, HIT) |
	    PERF_MEM_S(TLB, L1) | PERF_MEM_S(LVLNUM, L1) | PERF_MEM_S(REMOTE, REMOTE) |
	    PERF_MEM_S(SNOOPX, FWD) | PERF_MEM_S(BLK, DATA) | PERF_MEM_S(HOPS, 2);
	/* The same value worked out by hand from the bit positions. */
	CHECK_U64(v, 0x2UL | (0x2UL | 0x8UL) << 5 | 0x2UL << 19 | 0x2UL << 24 |
			 (0x2UL | 0x8UL) << 26 | 0x1ULL << 33 | 0x1ULL << 37 | 0x1ULL << 38 |
			 0x2ULL << 40 | 0x3ULL << 43);
	perfev_data_src_decode(v, &d);
	CHECK_INT(d.mem_op, PERF_MEM_OP_LOAD);
	CHECK_INT(d.mem_lvl, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L1);
	CHECK_INT(d.mem_snoop, PERF_MEM_SNOOP_NONE);
	CHECK_INT(d.mem_lock, PERF_MEM_LOCK_LOCKED);
	CHECK_INT(d.mem_dtlb, PERF_MEM_TLB_HIT | PERF_MEM_TLB_L1);
	CHECK_INT(d.mem_lvl_num, PERF_MEM_LVLNUM_L1);
	CHECK_INT(d.mem_remote, 1);
	CHECK_INT(d.mem_snoopx, PERF_MEM_SNOOPX_FWD);
	CHECK_INT(d.mem_blk, PERF_MEM_BLK_DATA);
	CHECK_INT(d.mem_hops, PERF_MEM_HOPS_2);

	/* Against the header's own bitfields, on values with every bit pattern. */
	for (i = 0, x = 0x9e3779b97f4a7c15ULL; i < 1000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = i == 0 ? ~0ULL : i == 1 ? 0 : x;
		u.val = v;
		perfev_data_src_decode(v, &d);
		CHECK_INT(d.mem_op, u.mem_op);
		CHECK_INT(d.mem_lvl, u.mem_lvl);
		CHECK_INT(d.mem_snoop, u.mem_snoop);
		CHECK_INT(d.mem_lock, u.mem_lock);
		CHECK_INT(d.mem_dtlb, u.mem_dtlb);
		CHECK_INT(d.mem_lvl_num, u.mem_lvl_num);
		CHECK_INT(d.mem_remote, u.mem_remote);
		CHECK_INT(d.mem_snoopx, u.mem_snoopx);
		CHECK_INT(d.mem_blk, u.mem_blk);
		CHECK_INT(d.mem_hops, u.mem_hops);
	}
	perfev_data_src_decode(0, NULL); /* no crash */
}

TEST(type_names)
{
	static const struct {
		uint32_t type;
		const char *name;
	} names[] = {
	    {PERF_RECORD_MMAP, "MMAP"},
	    {PERF_RECORD_LOST, "LOST"},
	    {PERF_RECORD_SAMPLE, "SAMPLE"},
	    {PERF_RECORD_MMAP2, "MMAP2"},
	    {PERF_RECORD_SWITCH_CPU_WIDE, "SWITCH_CPU_WIDE"},
	    {PERFEV_RECORD_TEXT_POKE, "TEXT_POKE"},
	    {PERFEV_RECORD_AUX_OUTPUT_HW_ID, "AUX_OUTPUT_HW_ID"},
	    {PERFEV_RECORD_HEADER_ATTR, "ATTR"},
	    {PERFEV_RECORD_HEADER_BUILD_ID, "BUILD_ID"},
	    {PERFEV_RECORD_FINISHED_ROUND, "FINISHED_ROUND"},
	    {PERFEV_RECORD_AUXTRACE, "AUXTRACE"},
	    {PERFEV_RECORD_HEADER_FEATURE, "FEATURE"},
	    {PERFEV_RECORD_COMPRESSED, "COMPRESSED"},
	    {PERFEV_RECORD_FINISHED_INIT, "FINISHED_INIT"},
	};
	uint32_t t;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		CHECK_STR(perfev_record_type_name(names[i].type), names[i].name);
	/* Every kernel type and every perf type has a name; nothing else does. */
	for (t = 0; t < 200; t++) {
		bool named = (t >= 1 && t <= 21) || (t >= 64 && t <= 82);

		EXPECT((perfev_record_type_name(t) != NULL) == named, "type %u", t);
	}
	CHECK(perfev_record_type_name(UINT32_MAX) == NULL);
}

/* ---- the encoder on records built by hand ----------------------------------------- */

TEST(encode_errors)
{
	struct perfev_sample_layout l;
	struct perfev_record r;
	static uint8_t buf[70000];
	uint64_t one = 1;

	layout_for(&l, PERF_SAMPLE_CALLCHAIN, PERF_FORMAT_ID, true);
	memset(&r, 0, sizeof(r));
	r.type = PERF_RECORD_SAMPLE;
	r.u.sample.callchain_nr = 3; /* but no array */
	CHECK_INT(perfev_record_encode(&l, &r, buf, sizeof(buf)), -EINVAL);
	r.u.sample.callchain = &one;
	r.u.sample.callchain_nr = 1ULL << 61; /* never read: too big before that */
	CHECK_INT(perfev_record_encode(&l, &r, buf, sizeof(buf)), -EMSGSIZE);
	r.u.sample.callchain_nr = 8190; /* 8 + 8 + 8190 * 8 = 65536 */
	CHECK_INT(perfev_record_encode(&l, &r, buf, sizeof(buf)), -EMSGSIZE);
	r.u.sample.callchain_nr = 1;
	CHECK_INT(perfev_record_encode(&l, &r, buf, sizeof(buf)), 24);
	CHECK_INT(perfev_record_encode(&l, &r, buf, 23), -ENOSPC);
	CHECK_INT(perfev_record_encode(NULL, &r, buf, sizeof(buf)), -EINVAL);
	CHECK_INT(perfev_record_encode(&l, NULL, buf, sizeof(buf)), -EINVAL);

	memset(&r, 0, sizeof(r));
	r.type = PERF_RECORD_COMM; /* comm.comm NULL */
	CHECK_INT(perfev_record_encode(&l, &r, buf, sizeof(buf)), -EINVAL);
	r.type = PERF_RECORD_MMAP2;
	r.u.mmap2.filename = "x";
	r.u.mmap2.has_build_id = true;
	r.u.mmap2.build_id_size = 21;
	CHECK_INT(perfev_record_encode(&l, &r, buf, sizeof(buf)), -EINVAL);
	r.type = PERFEV_RECORD_FINISHED_ROUND;
	CHECK_INT(perfev_record_encode(&l, &r, buf, sizeof(buf)), -EINVAL);
	r.type = 22;
	CHECK_INT(perfev_record_encode(&l, &r, buf, sizeof(buf)), -EINVAL);

	/* A non-group READ needs its one value. */
	layout_for(&l, PERF_SAMPLE_READ, PERF_FORMAT_ID, false);
	memset(&r, 0, sizeof(r));
	r.type = PERF_RECORD_SAMPLE;
	CHECK_INT(perfev_record_encode(&l, &r, buf, sizeof(buf)), -EINVAL);
}

/* Records synthesized through the encoder, as `perfev record` does for existing processes. */
TEST(encode_synthesized)
{
	struct perfev_sample_layout l;
	struct perfev_record r, d;
	static uint8_t buf[256];
	int n;

	layout_for(&l, PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID, 0, true);
	memset(&r, 0, sizeof(r));
	r.type = PERF_RECORD_COMM;
	r.misc = PERF_RECORD_MISC_USER | PERF_RECORD_MISC_COMM_EXEC; /* exec wins */
	r.u.comm.pid = 7;
	r.u.comm.tid = 8;
	r.u.comm.comm = "bash";
	r.sid.pid = 7;
	r.sid.tid = 8;
	r.sid.time = ~0ULL;
	r.sid.id = 99;
	n = perfev_record_encode(&l, &r, buf, sizeof(buf));
	CHECK_INT(n, 8 + 8 + 8 + 24);
	CHECK_INT(perfev_record_decode(&l, buf, (size_t)n, &d), 0);
	CHECK_INT(d.misc, PERF_RECORD_MISC_USER);
	CHECK(!d.u.comm.exec);
	CHECK_STR(d.u.comm.comm, "bash");
	CHECK_U64(d.sid.time, ~0ULL);
	CHECK_U64(d.sid.id, 99);
	CHECK_U64(rd64(buf, 2), 0x68736162); /* "bash" and its zero padding */

	/* A sample with a group READ built by hand. */
	{
		const uint64_t values[] = {10, 1001, 20, 1002};
		uint64_t v, id;

		layout_for(&l, PERF_SAMPLE_IP | PERF_SAMPLE_READ,
			   PERF_FORMAT_GROUP | PERF_FORMAT_ID, false);
		memset(&r, 0, sizeof(r));
		r.type = PERF_RECORD_SAMPLE;
		r.u.sample.ip = 0x401000;
		r.u.sample.read.nr = 2;
		r.u.sample.read.values = values;
		n = perfev_record_encode(&l, &r, buf, sizeof(buf));
		CHECK_INT(n, 8 + 8 + 8 + 32);
		CHECK_INT(perfev_record_decode(&l, buf, (size_t)n, &d), 0);
		CHECK_INT(perfev_sample_read_value(&l, &d.u.sample, 1, &v, &id, NULL), 0);
		CHECK_U64(v, 20);
		CHECK_U64(id, 1002);
	}
}
