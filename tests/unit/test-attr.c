// SPDX-License-Identifier: LGPL-2.1-or-later
/* perf_event_attr introspection: field walk, flag-word names, branch filter parsing. */
#include <errno.h>
#include <stdlib.h>
#include <perfev/perfev.h>
#include "harness.h"

/* Room for config3 at offset 128 whatever the installed header declares. */
union attr_buf {
	struct perf_event_attr a;
	unsigned char raw[PERFEV_ATTR_SIZE_MAX + 64];
	uint64_t align;
};

#define MAX_FIELDS 96

struct walk {
	int n;
	struct {
		char name[64];
		char key[64];
		uint64_t value;
		enum perfev_attr_fmt fmt;
		unsigned int min_size;
	} f[MAX_FIELDS];
	int stop_after; /* return stop_ret from the Nth call (1-based); 0: never */
	int stop_ret;
};

static int collect(const struct perfev_attr_field *field, void *ctx)
{
	struct walk *w = ctx;

	if (w->n < MAX_FIELDS) {
		snprintf(w->f[w->n].name, sizeof(w->f[0].name), "%s", field->name);
		snprintf(w->f[w->n].key, sizeof(w->f[0].key), "%s", field->key);
		w->f[w->n].value = field->value;
		w->f[w->n].fmt = field->fmt;
		w->f[w->n].min_size = field->min_size;
	}
	w->n++;
	return w->n == w->stop_after ? w->stop_ret : 0;
}

static int find(const struct walk *w, const char *key)
{
	int i;

	for (i = 0; i < w->n && i < MAX_FIELDS; i++)
		if (!strcmp(w->f[i].key, key))
			return i;
	return -1;
}

/* Every field in walk order: perf's name, the key, and its format. */
static const struct {
	const char *name, *key;
	enum perfev_attr_fmt fmt;
} expected_fields[] = {
    {"type", "type", PERFEV_ATTR_FMT_DEC},
    {"size", "size", PERFEV_ATTR_FMT_DEC},
    {"config", "config", PERFEV_ATTR_FMT_HEX},
    {"sample_period", "sample_period", PERFEV_ATTR_FMT_DEC},
    {"sample_type", "sample_type", PERFEV_ATTR_FMT_FLAGS},
    {"read_format", "read_format", PERFEV_ATTR_FMT_FLAGS},
    {"disabled", "disabled", PERFEV_ATTR_FMT_DEC},
    {"inherit", "inherit", PERFEV_ATTR_FMT_DEC},
    {"pinned", "pinned", PERFEV_ATTR_FMT_DEC},
    {"exclusive", "exclusive", PERFEV_ATTR_FMT_DEC},
    {"exclude_user", "exclude_user", PERFEV_ATTR_FMT_DEC},
    {"exclude_kernel", "exclude_kernel", PERFEV_ATTR_FMT_DEC},
    {"exclude_hv", "exclude_hv", PERFEV_ATTR_FMT_DEC},
    {"exclude_idle", "exclude_idle", PERFEV_ATTR_FMT_DEC},
    {"mmap", "mmap", PERFEV_ATTR_FMT_DEC},
    {"comm", "comm", PERFEV_ATTR_FMT_DEC},
    {"freq", "freq", PERFEV_ATTR_FMT_DEC},
    {"inherit_stat", "inherit_stat", PERFEV_ATTR_FMT_DEC},
    {"enable_on_exec", "enable_on_exec", PERFEV_ATTR_FMT_DEC},
    {"task", "task", PERFEV_ATTR_FMT_DEC},
    {"watermark", "watermark", PERFEV_ATTR_FMT_DEC},
    {"precise_ip", "precise_ip", PERFEV_ATTR_FMT_DEC},
    {"mmap_data", "mmap_data", PERFEV_ATTR_FMT_DEC},
    {"sample_id_all", "sample_id_all", PERFEV_ATTR_FMT_DEC},
    {"exclude_host", "exclude_host", PERFEV_ATTR_FMT_DEC},
    {"exclude_guest", "exclude_guest", PERFEV_ATTR_FMT_DEC},
    {"exclude_callchain_kernel", "exclude_callchain_kernel", PERFEV_ATTR_FMT_DEC},
    {"exclude_callchain_user", "exclude_callchain_user", PERFEV_ATTR_FMT_DEC},
    {"mmap2", "mmap2", PERFEV_ATTR_FMT_DEC},
    {"comm_exec", "comm_exec", PERFEV_ATTR_FMT_DEC},
    {"use_clockid", "use_clockid", PERFEV_ATTR_FMT_DEC},
    {"context_switch", "context_switch", PERFEV_ATTR_FMT_DEC},
    {"write_backward", "write_backward", PERFEV_ATTR_FMT_DEC},
    {"namespaces", "namespaces", PERFEV_ATTR_FMT_DEC},
    {"ksymbol", "ksymbol", PERFEV_ATTR_FMT_DEC},
    {"bpf_event", "bpf_event", PERFEV_ATTR_FMT_DEC},
    {"aux_output", "aux_output", PERFEV_ATTR_FMT_DEC},
    {"cgroup", "cgroup", PERFEV_ATTR_FMT_DEC},
    {"text_poke", "text_poke", PERFEV_ATTR_FMT_DEC},
    {"build_id", "build_id", PERFEV_ATTR_FMT_DEC},
    {"inherit_thread", "inherit_thread", PERFEV_ATTR_FMT_DEC},
    {"remove_on_exec", "remove_on_exec", PERFEV_ATTR_FMT_DEC},
    {"sigtrap", "sigtrap", PERFEV_ATTR_FMT_DEC},
    {"__reserved_1", "__reserved_1", PERFEV_ATTR_FMT_HEX},
    {"{ wakeup_events, wakeup_watermark }", "wakeup_events", PERFEV_ATTR_FMT_DEC},
    {"bp_type", "bp_type", PERFEV_ATTR_FMT_DEC},
    {"{ bp_addr, config1 }", "config1", PERFEV_ATTR_FMT_HEX},
    {"{ bp_len, config2 }", "config2", PERFEV_ATTR_FMT_HEX},
    {"branch_sample_type", "branch_sample_type", PERFEV_ATTR_FMT_FLAGS},
    {"sample_regs_user", "sample_regs_user", PERFEV_ATTR_FMT_HEX},
    {"sample_stack_user", "sample_stack_user", PERFEV_ATTR_FMT_DEC},
    {"clockid", "clockid", PERFEV_ATTR_FMT_SIGNED},
    {"sample_regs_intr", "sample_regs_intr", PERFEV_ATTR_FMT_HEX},
    {"aux_watermark", "aux_watermark", PERFEV_ATTR_FMT_DEC},
    {"sample_max_stack", "sample_max_stack", PERFEV_ATTR_FMT_DEC},
    {"__reserved_2", "__reserved_2", PERFEV_ATTR_FMT_HEX},
    {"aux_sample_size", "aux_sample_size", PERFEV_ATTR_FMT_DEC},
    {"__reserved_3", "__reserved_3", PERFEV_ATTR_FMT_HEX},
    {"sig_data", "sig_data", PERFEV_ATTR_FMT_HEX},
    {"config3", "config3", PERFEV_ATTR_FMT_HEX},
};
#define N_FIELDS ((int)(sizeof(expected_fields) / sizeof(expected_fields[0])))

TEST(attr_field_order)
{
	union attr_buf b;
	struct walk w = {0};
	int i;

	memset(&b, 0, sizeof(b));
	b.a.type = PERF_TYPE_HARDWARE;
	b.a.size = PERFEV_ATTR_SIZE_MAX;
	CHECK_INT(perfev_attr_foreach(&b.a, collect, &w), 0);
	CHECK_INT(w.n, N_FIELDS);
	for (i = 0; i < N_FIELDS; i++) {
		EXPECT(!strcmp(w.f[i].name, expected_fields[i].name),
		       "field %d is named '%s', expected '%s'", i, w.f[i].name,
		       expected_fields[i].name);
		EXPECT(!strcmp(w.f[i].key, expected_fields[i].key),
		       "field %d has key '%s', expected '%s'", i, w.f[i].key,
		       expected_fields[i].key);
		EXPECT(w.f[i].fmt == expected_fields[i].fmt, "'%s': fmt %d, expected %d",
		       expected_fields[i].key, w.f[i].fmt, expected_fields[i].fmt);
		EXPECT(w.f[i].min_size > 0 && w.f[i].min_size <= PERFEV_ATTR_SIZE_MAX,
		       "'%s': min_size %u", expected_fields[i].key, w.f[i].min_size);
	}
	/* Milestone sizes from the ABI (perf_event_open(2), "size"). */
	CHECK_INT(w.f[find(&w, "config1")].min_size, PERF_ATTR_SIZE_VER0);
	CHECK_INT(w.f[find(&w, "config2")].min_size, PERF_ATTR_SIZE_VER1);
	CHECK_INT(w.f[find(&w, "branch_sample_type")].min_size, PERF_ATTR_SIZE_VER2);
	CHECK_INT(w.f[find(&w, "sample_regs_intr")].min_size, PERF_ATTR_SIZE_VER4);
	CHECK_INT(w.f[find(&w, "sig_data")].min_size, PERF_ATTR_SIZE_VER7);
	CHECK_INT(w.f[find(&w, "config3")].min_size, PERF_ATTR_SIZE_VER8);
	/* Sizes never decrease along the tail of the struct. */
	for (i = find(&w, "wakeup_events") + 1; i < N_FIELDS; i++)
		EXPECT(w.f[i].min_size >= w.f[i - 1].min_size, "'%s': min_size %u < %u", w.f[i].key,
		       w.f[i].min_size, w.f[i - 1].min_size);
	/* Type and size are reported as given. */
	CHECK_U64(w.f[0].value, PERF_TYPE_HARDWARE);
	CHECK_U64(w.f[1].value, PERFEV_ATTR_SIZE_MAX);
}

TEST(attr_breakpoint_keys)
{
	union attr_buf b;
	struct walk w = {0};
	int i;

	memset(&b, 0, sizeof(b));
	b.a.type = PERF_TYPE_BREAKPOINT;
	b.a.size = sizeof(b.a);
	b.a.bp_type = HW_BREAKPOINT_RW;
	b.a.bp_addr = 0x1000;
	b.a.bp_len = 8;
	CHECK_INT(perfev_attr_foreach(&b.a, collect, &w), 0);
	i = find(&w, "bp_addr");
	CHECK(i >= 0);
	CHECK_STR(w.f[i].name, "{ bp_addr, config1 }");
	CHECK_U64(w.f[i].value, 0x1000);
	i = find(&w, "bp_len");
	CHECK(i >= 0);
	CHECK_STR(w.f[i].name, "{ bp_len, config2 }");
	CHECK_U64(w.f[i].value, 8);
	CHECK(find(&w, "config1") < 0);
	CHECK(find(&w, "config2") < 0);
	CHECK_U64(w.f[find(&w, "bp_type")].value, HW_BREAKPOINT_RW);

	/* Any other type: the config words. */
	memset(&w, 0, sizeof(w));
	b.a.type = PERF_TYPE_RAW;
	CHECK_INT(perfev_attr_foreach(&b.a, collect, &w), 0);
	CHECK(find(&w, "bp_addr") < 0);
	CHECK(find(&w, "bp_len") < 0);
	CHECK_U64(w.f[find(&w, "config1")].value, 0x1000);
	CHECK_U64(w.f[find(&w, "config2")].value, 8);
	CHECK_STR(w.f[find(&w, "config1")].name, "{ bp_addr, config1 }");
}

/* Every bit-field, set through the C bit-field of the installed header. */
/* clang-format off */
#define BITFIELDS(X)									\
	X(disabled) X(inherit) X(pinned) X(exclusive) X(exclude_user)			\
	X(exclude_kernel) X(exclude_hv) X(exclude_idle) X(mmap) X(comm) X(freq)	\
	X(inherit_stat) X(enable_on_exec) X(task) X(watermark) X(precise_ip)		\
	X(mmap_data) X(sample_id_all) X(exclude_host) X(exclude_guest)			\
	X(exclude_callchain_kernel) X(exclude_callchain_user) X(mmap2)			\
	X(comm_exec) X(use_clockid) X(context_switch) X(write_backward)		\
	X(namespaces) X(ksymbol) X(bpf_event) X(aux_output) X(cgroup) X(text_poke)	\
	X(build_id) X(inherit_thread) X(remove_on_exec) X(sigtrap)
/* clang-format on */

#define SETTER(f)                                                                                  \
	static void set_##f(struct perf_event_attr *a)                                             \
	{                                                                                          \
		a->f = 1;                                                                          \
	}
BITFIELDS(SETTER)
#undef SETTER

static const struct {
	const char *name;
	void (*set)(struct perf_event_attr *a);
} bitfields[] = {
#define ENTRY(f) {#f, set_##f},
    BITFIELDS(ENTRY)
#undef ENTRY
};

/* Walk @a and check only @key is non-zero (type and size aside), with @value. */
static void expect_only(const struct perf_event_attr *a, const char *key, uint64_t value,
			const char *what)
{
	struct walk w = {0};
	int i;

	if (perfev_attr_foreach(a, collect, &w)) {
		harness_fail(__FILE__, __LINE__, "%s: walk failed", what);
		return;
	}
	for (i = 0; i < w.n && i < MAX_FIELDS; i++) {
		if (!strcmp(w.f[i].key, "type") || !strcmp(w.f[i].key, "size"))
			continue;
		if (!strcmp(w.f[i].key, key))
			EXPECT(w.f[i].value == value,
			       "%s: '%s' is %#" PRIx64 ", expected %#" PRIx64, what, key,
			       w.f[i].value, value);
		else
			EXPECT(w.f[i].value == 0, "%s: '%s' is %#" PRIx64 ", expected 0", what,
			       w.f[i].key, w.f[i].value);
	}
	EXPECT(find(&w, key) >= 0, "%s: no field '%s'", what, key);
}

TEST(attr_each_bitfield)
{
	size_t i;

	CHECK_INT(sizeof(bitfields) / sizeof(bitfields[0]), 37);
	for (i = 0; i < sizeof(bitfields) / sizeof(bitfields[0]); i++) {
		union attr_buf b;

		memset(&b, 0, sizeof(b));
		b.a.size = sizeof(b.a);
		bitfields[i].set(&b.a);
		expect_only(&b.a, bitfields[i].name, 1, bitfields[i].name);
	}
}

TEST(attr_precise_ip)
{
	unsigned int v;

	for (v = 1; v <= 3; v++) {
		union attr_buf b;
		char what[32];

		memset(&b, 0, sizeof(b));
		b.a.size = sizeof(b.a);
		b.a.precise_ip = v & 3;
		snprintf(what, sizeof(what), "precise_ip=%u", v);
		expect_only(&b.a, "precise_ip", v, what);
	}
	/* Its neighbours set around it do not leak into it. */
	{
		union attr_buf b;
		struct walk w = {0};

		memset(&b, 0, sizeof(b));
		b.a.size = sizeof(b.a);
		b.a.watermark = 1;
		b.a.mmap_data = 1;
		b.a.precise_ip = 2;
		CHECK_INT(perfev_attr_foreach(&b.a, collect, &w), 0);
		CHECK_U64(w.f[find(&w, "precise_ip")].value, 2);
		CHECK_U64(w.f[find(&w, "watermark")].value, 1);
		CHECK_U64(w.f[find(&w, "mmap_data")].value, 1);
	}
}

TEST(attr_reserved_bits)
{
	union attr_buf b;

	memset(&b, 0, sizeof(b));
	b.a.size = sizeof(b.a);
	b.a.__reserved_1 = 1;
	expect_only(&b.a, "__reserved_1", 1, "__reserved_1=1");
	b.a.__reserved_1 = (1ULL << 26) - 1;
	expect_only(&b.a, "__reserved_1", (1ULL << 26) - 1, "__reserved_1 all ones");
	b.a.__reserved_1 = 0x2a5;
	expect_only(&b.a, "__reserved_1", 0x2a5, "__reserved_1=0x2a5");
	b.a.__reserved_1 = 0;
	b.a.__reserved_2 = 0xbeef;
	expect_only(&b.a, "__reserved_2", 0xbeef, "__reserved_2");
	b.a.__reserved_2 = 0;
	b.a.__reserved_3 = 0xdeadbeef;
	expect_only(&b.a, "__reserved_3", 0xdeadbeef, "__reserved_3");
}

TEST(attr_plain_fields)
{
	union attr_buf b;
	struct walk w = {0};
	static const struct {
		const char *key;
		uint64_t value;
	} want[] = {
	    {"config", 0x1122334455667788ULL},
	    {"sample_period", 4000},
	    {"sample_type", PERF_SAMPLE_IP | PERF_SAMPLE_TID},
	    {"read_format", PERF_FORMAT_GROUP},
	    {"wakeup_events", 0xfffffffe},
	    {"bp_type", 3},
	    {"config1", 0xa1},
	    {"config2", 0xa2},
	    {"branch_sample_type", PERF_SAMPLE_BRANCH_ANY},
	    {"sample_regs_user", 0xff0fff},
	    {"sample_stack_user", 8192},
	    {"clockid", (uint32_t)-1},
	    {"sample_regs_intr", 0x3},
	    {"aux_watermark", 4096},
	    {"sample_max_stack", 127},
	    {"aux_sample_size", 0x10000},
	    {"sig_data", 0xfeedface00000000ULL},
	};
	size_t i;

	memset(&b, 0, sizeof(b));
	b.a.size = sizeof(b.a);
	b.a.config = 0x1122334455667788ULL;
	b.a.sample_period = 4000;
	b.a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	b.a.read_format = PERF_FORMAT_GROUP;
	b.a.wakeup_events = 0xfffffffe;
	b.a.bp_type = 3;
	b.a.config1 = 0xa1;
	b.a.config2 = 0xa2;
	b.a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	b.a.sample_regs_user = 0xff0fff;
	b.a.sample_stack_user = 8192;
	b.a.clockid = -1;
	b.a.sample_regs_intr = 0x3;
	b.a.aux_watermark = 4096;
	b.a.sample_max_stack = 127;
	b.a.aux_sample_size = 0x10000;
	b.a.sig_data = 0xfeedface00000000ULL;
	CHECK_INT(perfev_attr_foreach(&b.a, collect, &w), 0);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int k = find(&w, want[i].key);

		EXPECT(k >= 0, "no field '%s'", want[i].key);
		if (k >= 0)
			EXPECT(w.f[k].value == want[i].value,
			       "'%s' is %#" PRIx64 ", expected %#" PRIx64, want[i].key,
			       w.f[k].value, want[i].value);
	}
	CHECK(find(&w, "config3") < 0); /* sizeof(b.a) bytes only */
}

TEST(attr_freq_naming)
{
	union attr_buf b;
	struct walk w = {0};

	memset(&b, 0, sizeof(b));
	b.a.size = sizeof(b.a);
	b.a.freq = 1;
	b.a.sample_freq = 4000;
	CHECK_INT(perfev_attr_foreach(&b.a, collect, &w), 0);
	CHECK_STR(w.f[3].name, "sample_freq");
	CHECK_STR(w.f[3].key, "sample_freq");
	CHECK_U64(w.f[3].value, 4000);
	CHECK(find(&w, "sample_period") < 0);

	memset(&w, 0, sizeof(w));
	b.a.freq = 0;
	b.a.sample_period = 100003;
	CHECK_INT(perfev_attr_foreach(&b.a, collect, &w), 0);
	CHECK_STR(w.f[3].name, "sample_period");
	CHECK_STR(w.f[3].key, "sample_period");
	CHECK_U64(w.f[3].value, 100003);
	CHECK(find(&w, "sample_freq") < 0);
}

TEST(attr_size_limited)
{
	static const struct {
		uint32_t size;
		const char *last;
	} cases[] = {
	    {0, "config1"}, /* 0 means PERF_ATTR_SIZE_VER0 */
	    {8, "config1"}, /* below VER0: treated as VER0 */
	    {PERF_ATTR_SIZE_VER0, "config1"},
	    {PERF_ATTR_SIZE_VER0 + 4, "config1"},
	    {PERF_ATTR_SIZE_VER1, "config2"},
	    {PERF_ATTR_SIZE_VER2, "branch_sample_type"},
	    {PERF_ATTR_SIZE_VER3, "clockid"},
	    {PERF_ATTR_SIZE_VER4, "sample_regs_intr"},
	    {PERF_ATTR_SIZE_VER5, "__reserved_2"},
	    {PERF_ATTR_SIZE_VER6, "__reserved_3"},
	    {PERF_ATTR_SIZE_VER7, "sig_data"},
	    {PERF_ATTR_SIZE_VER8, "config3"},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		union attr_buf b;
		struct walk w = {0};

		memset(&b, 0xff, sizeof(b));
		b.a.size = cases[i].size;
		CHECK_INT(perfev_attr_foreach(&b.a, collect, &w), 0);
		EXPECT(w.n > 0 && !strcmp(w.f[w.n - 1].key, cases[i].last),
		       "size %u: last field '%s', expected '%s'", cases[i].size,
		       w.n ? w.f[w.n - 1].key : "", cases[i].last);
	}
}

TEST(attr_size_64_stops_before_config2)
{
	/* Exactly VER0 bytes on the heap: any read past them is an ASan error. */
	unsigned char *heap = malloc(PERF_ATTR_SIZE_VER0);
	union attr_buf b;
	struct walk w = {0};

	CHECK(heap);
	memset(&b, 0, sizeof(b));
	b.a.size = PERF_ATTR_SIZE_VER0;
	b.a.config1 = 0x77;
	b.a.config2 = 0x88;
	memcpy(heap, &b, PERF_ATTR_SIZE_VER0);
	CHECK_INT(perfev_attr_foreach((const struct perf_event_attr *)(void *)heap, collect, &w),
		  0);
	free(heap);
	CHECK(find(&w, "config2") < 0);
	CHECK(find(&w, "config1") >= 0);
	CHECK_U64(w.f[find(&w, "config1")].value, 0x77);
	CHECK_STR(w.f[w.n - 1].key, "config1");
}

TEST(attr_config3_beyond_header)
{
	/* Exactly PERFEV_ATTR_SIZE_MAX bytes, config3 at byte 128. */
	unsigned char *buf = calloc(1, PERFEV_ATTR_SIZE_MAX);
	struct perf_event_attr *a = (struct perf_event_attr *)buf;
	uint64_t c3 = 0x0123456789abcdefULL;
	struct walk w = {0};
	int k;

	CHECK(buf);
	a->size = PERFEV_ATTR_SIZE_MAX;
	memcpy(buf + PERFEV_ATTR_CONFIG3_OFFSET, &c3, sizeof(c3));
	CHECK_INT(perfev_attr_foreach(a, collect, &w), 0);
	k = find(&w, "config3");
	CHECK(k >= 0);
	CHECK_U64(w.f[k].value, c3);
	CHECK_INT(w.f[k].min_size, PERFEV_ATTR_CONFIG3_OFFSET + 8);
	CHECK_STR(w.f[w.n - 1].key, "config3");

	/* A size bigger than anything known: the walk ends at config3, no overread. */
	memset(&w, 0, sizeof(w));
	a->size = 4096;
	CHECK_INT(perfev_attr_foreach(a, collect, &w), 0);
	CHECK_INT(w.n, N_FIELDS);
	CHECK_U64(w.f[find(&w, "config3")].value, c3);
	free(buf);
}

TEST(attr_early_stop)
{
	union attr_buf b;
	struct walk w = {.stop_after = 3, .stop_ret = 7};

	memset(&b, 0, sizeof(b));
	b.a.size = sizeof(b.a);
	CHECK_INT(perfev_attr_foreach(&b.a, collect, &w), 7);
	CHECK_INT(w.n, 3);
	memset(&w, 0, sizeof(w));
	w.stop_after = N_FIELDS - 2;
	w.stop_ret = -EINTR;
	CHECK_INT(perfev_attr_foreach(&b.a, collect, &w), -EINTR);
	CHECK_INT(w.n, N_FIELDS - 2);
	/* Stopping inside the bit-fields. */
	memset(&w, 0, sizeof(w));
	w.stop_after = 10;
	w.stop_ret = 1;
	CHECK_INT(perfev_attr_foreach(&b.a, collect, &w), 1);
	CHECK_INT(w.n, 10);
	CHECK_INT(perfev_attr_foreach(NULL, collect, &w), -EINVAL);
	CHECK_INT(perfev_attr_foreach(&b.a, NULL, NULL), -EINVAL);
}

/* ---- flag words ----------------------------------------------------- */

static const char *const sample_names[] = {
    "IP",
    "TID",
    "TIME",
    "ADDR",
    "READ",
    "CALLCHAIN",
    "ID",
    "CPU",
    "PERIOD",
    "STREAM_ID",
    "RAW",
    "BRANCH_STACK",
    "REGS_USER",
    "STACK_USER",
    "WEIGHT",
    "DATA_SRC",
    "IDENTIFIER",
    "TRANSACTION",
    "REGS_INTR",
    "PHYS_ADDR",
    "AUX",
    "CGROUP",
    "DATA_PAGE_SIZE",
    "CODE_PAGE_SIZE",
    "WEIGHT_STRUCT",
};

TEST(sample_type_names)
{
	static const uint64_t bits[] = {
	    PERF_SAMPLE_IP,
	    PERF_SAMPLE_TID,
	    PERF_SAMPLE_TIME,
	    PERF_SAMPLE_ADDR,
	    PERF_SAMPLE_READ,
	    PERF_SAMPLE_CALLCHAIN,
	    PERF_SAMPLE_ID,
	    PERF_SAMPLE_CPU,
	    PERF_SAMPLE_PERIOD,
	    PERF_SAMPLE_STREAM_ID,
	    PERF_SAMPLE_RAW,
	    PERF_SAMPLE_BRANCH_STACK,
	    PERF_SAMPLE_REGS_USER,
	    PERF_SAMPLE_STACK_USER,
	    PERF_SAMPLE_WEIGHT,
	    PERF_SAMPLE_DATA_SRC,
	    PERF_SAMPLE_IDENTIFIER,
	    PERF_SAMPLE_TRANSACTION,
	    PERF_SAMPLE_REGS_INTR,
	    PERF_SAMPLE_PHYS_ADDR,
	    PERF_SAMPLE_AUX,
	    PERF_SAMPLE_CGROUP,
	    PERFEV_SAMPLE_DATA_PAGE_SIZE,
	    PERFEV_SAMPLE_CODE_PAGE_SIZE,
	    PERFEV_SAMPLE_WEIGHT_STRUCT,
	};
	char buf[512];
	size_t i;
	int n;

	CHECK_INT(sizeof(bits) / sizeof(bits[0]), sizeof(sample_names) / sizeof(sample_names[0]));
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		n = perfev_sample_type_str(bits[i], buf, sizeof(buf));
		EXPECT(!strcmp(buf, sample_names[i]), "bit %#" PRIx64 ": '%s', expected '%s'",
		       bits[i], buf, sample_names[i]);
		EXPECT(n == (int)strlen(sample_names[i]), "bit %#" PRIx64 ": length %d", bits[i],
		       n);
	}
	n = perfev_sample_type_str(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME, buf,
				   sizeof(buf));
	CHECK_STR(buf, "IP|TID|TIME");
	CHECK_INT(n, 11);
	n = perfev_sample_type_str(0, buf, sizeof(buf));
	CHECK_STR(buf, "");
	CHECK_INT(n, 0);
	/* Every known bit at once: names in bit order, joined with '|'. */
	{
		char want[512] = "";
		size_t pos = 0;

		for (i = 0; i < sizeof(sample_names) / sizeof(sample_names[0]); i++)
			pos += (size_t)snprintf(want + pos, sizeof(want) - pos, "%s%s",
						i ? "|" : "", sample_names[i]);
		n = perfev_sample_type_str((1ULL << 25) - 1, buf, sizeof(buf));
		CHECK_STR(buf, want);
		CHECK_INT(n, strlen(want));
	}
}

TEST(sample_type_unknown_bits)
{
	char buf[256];
	int n;

	n = perfev_sample_type_str(1ULL << 25, buf, sizeof(buf));
	CHECK_STR(buf, "0x2000000");
	CHECK_INT(n, 9);
	n = perfev_sample_type_str(1ULL << 63, buf, sizeof(buf));
	CHECK_STR(buf, "0x8000000000000000");
	CHECK_INT(n, 18);
	/* Known names first, then the unknown bits together as one hex number. */
	n = perfev_sample_type_str(PERF_SAMPLE_IP | (1ULL << 40) | (1ULL << 63) | PERF_SAMPLE_CPU,
				   buf, sizeof(buf));
	CHECK_STR(buf, "IP|CPU|0x8000010000000000");
	CHECK_INT(n, (int)strlen("IP|CPU|0x8000010000000000"));
	n = perfev_sample_type_str(~0ULL, buf, sizeof(buf));
	CHECK_CONTAINS(buf, "IP|TID|");
	CHECK_CONTAINS(buf, "|WEIGHT_STRUCT|0xfffffffffe000000");
	CHECK_INT(n, strlen(buf));
}

TEST(flag_str_truncation)
{
	char buf[64];
	char small[5];
	int n, full;

	full = perfev_sample_type_str(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN, buf,
				      sizeof(buf));
	CHECK_STR(buf, "IP|TID|CALLCHAIN");
	CHECK_INT(full, 16);
	/* Like snprintf: the full length, a NUL-terminated prefix. */
	memset(small, 'x', sizeof(small));
	n = perfev_sample_type_str(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN, small,
				   sizeof(small));
	CHECK_INT(n, full);
	CHECK_STR(small, "IP|T");
	for (size_t len = 0; len <= (size_t)full + 1; len++) {
		char b[32];

		memset(b, 'x', sizeof(b));
		n = perfev_sample_type_str(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN,
					   b, len);
		EXPECT(n == full, "len %zu: returned %d, expected %d", len, n, full);
		if (len) {
			EXPECT(strlen(b) == (len - 1 < (size_t)full ? len - 1 : (size_t)full),
			       "len %zu: wrote '%s'", len, b);
			EXPECT(!strncmp(b, "IP|TID|CALLCHAIN", strlen(b)), "len %zu: wrote '%s'",
			       len, b);
		} else {
			EXPECT(b[0] == 'x', "len 0: wrote into the buffer");
		}
		EXPECT(b[len] == 'x', "len %zu: wrote past the buffer", len);
	}
	CHECK_INT(perfev_sample_type_str(PERF_SAMPLE_IP | PERF_SAMPLE_TID, NULL, 0), 6);
	CHECK_INT(perfev_read_format_str(PERF_FORMAT_ID | PERF_FORMAT_GROUP, NULL, 0), 8);
	CHECK_INT(perfev_branch_type_str(PERF_SAMPLE_BRANCH_ANY | (1ULL << 50), NULL, 0),
		  (int)strlen("ANY|0x4000000000000"));
	/* Truncated inside the hex part of unknown bits. */
	n = perfev_read_format_str(PERF_FORMAT_ID | (1ULL << 40), small, sizeof(small));
	CHECK_INT(n, (int)strlen("ID|0x10000000000"));
	CHECK_STR(small, "ID|0");
}

TEST(read_format_names)
{
	static const struct {
		uint64_t v;
		const char *s;
	} cases[] = {
	    {PERF_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED"},
	    {PERF_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING"},
	    {PERF_FORMAT_ID, "ID"},
	    {PERF_FORMAT_GROUP, "GROUP"},
	    {PERFEV_FORMAT_LOST, "LOST"},
	    {PERF_FORMAT_ID | PERF_FORMAT_GROUP, "ID|GROUP"},
	    {0x1f, "TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING|ID|GROUP|LOST"},
	    {1ULL << 5, "0x20"},
	    {PERF_FORMAT_GROUP | (1ULL << 5) | (1ULL << 6), "GROUP|0x60"},
	    {0, ""},
	};
	char buf[128];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = perfev_read_format_str(cases[i].v, buf, sizeof(buf));

		EXPECT(!strcmp(buf, cases[i].s), "%#" PRIx64 ": '%s', expected '%s'", cases[i].v,
		       buf, cases[i].s);
		EXPECT(n == (int)strlen(cases[i].s), "%#" PRIx64 ": length %d", cases[i].v, n);
	}
}

static const char *const branch_names[] = {
    "USER",	"KERNEL",    "HV",	  "ANY",      "ANY_CALL",   "ANY_RETURN", "IND_CALL",
    "ABORT_TX", "IN_TX",     "NO_TX",	  "COND",     "CALL_STACK", "IND_JUMP",	  "CALL",
    "NO_FLAGS", "NO_CYCLES", "TYPE_SAVE", "HW_INDEX", "PRIV_SAVE",  "COUNTERS",
};

TEST(branch_type_names)
{
	static const uint64_t bits[] = {
	    PERF_SAMPLE_BRANCH_USER,	    PERF_SAMPLE_BRANCH_KERNEL,
	    PERF_SAMPLE_BRANCH_HV,	    PERF_SAMPLE_BRANCH_ANY,
	    PERF_SAMPLE_BRANCH_ANY_CALL,    PERF_SAMPLE_BRANCH_ANY_RETURN,
	    PERF_SAMPLE_BRANCH_IND_CALL,    PERF_SAMPLE_BRANCH_ABORT_TX,
	    PERF_SAMPLE_BRANCH_IN_TX,	    PERF_SAMPLE_BRANCH_NO_TX,
	    PERF_SAMPLE_BRANCH_COND,	    PERF_SAMPLE_BRANCH_CALL_STACK,
	    PERF_SAMPLE_BRANCH_IND_JUMP,    PERF_SAMPLE_BRANCH_CALL,
	    PERF_SAMPLE_BRANCH_NO_FLAGS,    PERF_SAMPLE_BRANCH_NO_CYCLES,
	    PERF_SAMPLE_BRANCH_TYPE_SAVE,   PERF_SAMPLE_BRANCH_HW_INDEX,
	    PERFEV_SAMPLE_BRANCH_PRIV_SAVE, PERFEV_SAMPLE_BRANCH_COUNTERS,
	};
	char buf[256];
	size_t i;
	int n;

	CHECK_INT(sizeof(bits) / sizeof(bits[0]), sizeof(branch_names) / sizeof(branch_names[0]));
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		n = perfev_branch_type_str(bits[i], buf, sizeof(buf));
		EXPECT(!strcmp(buf, branch_names[i]), "bit %#" PRIx64 ": '%s', expected '%s'",
		       bits[i], buf, branch_names[i]);
		EXPECT(n == (int)strlen(branch_names[i]), "bit %#" PRIx64 ": length %d", bits[i],
		       n);
	}
	n = perfev_branch_type_str(PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_ANY, buf,
				   sizeof(buf));
	CHECK_STR(buf, "USER|ANY");
	CHECK_INT(n, 8);
	n = perfev_branch_type_str(1ULL << 20, buf, sizeof(buf));
	CHECK_STR(buf, "0x100000");
	CHECK_INT(n, 8);
}

/* ---- branch filter parsing ------------------------------------------- */

#define PLM (PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_HV)

TEST(branch_type_parse_each)
{
	static const struct {
		const char *s;
		uint64_t bits;
	} names[] = {
	    {"any", PERF_SAMPLE_BRANCH_ANY},
	    {"any_call", PERF_SAMPLE_BRANCH_ANY_CALL},
	    {"any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN},
	    {"ind_call", PERF_SAMPLE_BRANCH_IND_CALL},
	    {"abort_tx", PERF_SAMPLE_BRANCH_ABORT_TX},
	    {"in_tx", PERF_SAMPLE_BRANCH_IN_TX},
	    {"no_tx", PERF_SAMPLE_BRANCH_NO_TX},
	    {"cond", PERF_SAMPLE_BRANCH_COND},
	    {"ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP},
	    {"call", PERF_SAMPLE_BRANCH_CALL},
	    {"save_type", PERF_SAMPLE_BRANCH_TYPE_SAVE},
	    {"stack", PERF_SAMPLE_BRANCH_CALL_STACK},
	    {"call_stack", PERF_SAMPLE_BRANCH_CALL_STACK},
	    {"hw_index", PERF_SAMPLE_BRANCH_HW_INDEX},
	    {"priv", PERFEV_SAMPLE_BRANCH_PRIV_SAVE},
	    {"counter", PERFEV_SAMPLE_BRANCH_COUNTERS},
	    /* Privilege levels alone: any branch at those levels. */
	    {"u", PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_ANY},
	    {"k", PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_ANY},
	    {"hv", PERF_SAMPLE_BRANCH_HV | PERF_SAMPLE_BRANCH_ANY},
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		uint64_t v = 0;
		int err = perfev_branch_type_parse(names[i].s, &v);

		EXPECT(err == 0, "'%s': %d", names[i].s, err);
		EXPECT(v == names[i].bits, "'%s': %#" PRIx64 ", expected %#" PRIx64, names[i].s, v,
		       names[i].bits);
	}
}

TEST(branch_type_parse_lists)
{
	static const struct {
		const char *s;
		uint64_t bits;
	} cases[] = {
	    {"any,u", PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER},
	    {"u,any", PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER},
	    {"call,cond,k",
	     PERF_SAMPLE_BRANCH_CALL | PERF_SAMPLE_BRANCH_COND | PERF_SAMPLE_BRANCH_KERNEL},
	    {"any_call,save_type", PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_TYPE_SAVE},
	    {"u,k", PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_ANY},
	    {"u,k,hv", PLM | PERF_SAMPLE_BRANCH_ANY},
	    {"u,u", PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_ANY},
	    {"stack,call_stack", PERF_SAMPLE_BRANCH_CALL_STACK},
	    {"any_ret,ind_call,ind_jmp,u",
	     PERF_SAMPLE_BRANCH_ANY_RETURN | PERF_SAMPLE_BRANCH_IND_CALL |
		 PERF_SAMPLE_BRANCH_IND_JUMP | PERF_SAMPLE_BRANCH_USER},
	    /* A non-privilege filter with levels: no ANY added. */
	    {"hw_index,k", PERF_SAMPLE_BRANCH_HW_INDEX | PERF_SAMPLE_BRANCH_KERNEL},
	    {"priv,u", PERFEV_SAMPLE_BRANCH_PRIV_SAVE | PERF_SAMPLE_BRANCH_USER},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 0;
		int err = perfev_branch_type_parse(cases[i].s, &v);

		EXPECT(err == 0, "'%s': %d", cases[i].s, err);
		EXPECT(v == cases[i].bits, "'%s': %#" PRIx64 ", expected %#" PRIx64, cases[i].s, v,
		       cases[i].bits);
	}
}

TEST(branch_type_parse_ors)
{
	uint64_t v = 1ULL << 40;

	/* The bits are ORed into *out. */
	CHECK_INT(perfev_branch_type_parse("cond", &v), 0);
	CHECK_U64(v, (1ULL << 40) | PERF_SAMPLE_BRANCH_COND);
	CHECK_INT(perfev_branch_type_parse("u", &v), 0);
	CHECK_U64(v, (1ULL << 40) | PERF_SAMPLE_BRANCH_COND | PERF_SAMPLE_BRANCH_USER |
			 PERF_SAMPLE_BRANCH_ANY);
}

TEST(branch_type_parse_invalid)
{
	static const char *const bad[] = {
	    "",	    ",",     "any,",  ",any", "any,,u", "bogus", "any,bogus", "an", "anyy", "any ",
	    " any", "any;u", "any|u", "u=1",  "-",	"any_",	 "call_",     "x",  "uk",   "any,,",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t v = 0x5a;
		int err = perfev_branch_type_parse(bad[i], &v);

		EXPECT(err == -EINVAL, "'%s': %d, expected -EINVAL", bad[i], err);
		EXPECT(v == 0x5a, "'%s': *out changed on error to %#" PRIx64, bad[i], v);
	}
	CHECK_INT(perfev_branch_type_parse(NULL, &(uint64_t){0}), -EINVAL);
	CHECK_INT(perfev_branch_type_parse("any", NULL), -EINVAL);
}

TEST(branch_type_round_trip)
{
	/* Every parsed bit has a name when formatted. */
	static const char *const all[] = {
	    "u",	"k",	     "hv",    "any",	  "any_call", "any_ret",
	    "ind_call", "abort_tx",  "in_tx", "no_tx",	  "cond",     "ind_jmp",
	    "call",	"save_type", "stack", "hw_index", "priv",     "counter",
	};
	char list[512] = "", buf[512];
	size_t i, pos = 0;
	uint64_t v = 0;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		pos +=
		    (size_t)snprintf(list + pos, sizeof(list) - pos, "%s%s", i ? "," : "", all[i]);
	CHECK_INT(perfev_branch_type_parse(list, &v), 0);
	perfev_branch_type_str(v, buf, sizeof(buf));
	CHECK(!strstr(buf, "0x"));
	CHECK_CONTAINS(buf, "USER|KERNEL|HV|ANY|ANY_CALL|ANY_RETURN|IND_CALL");
	CHECK_CONTAINS(buf, "PRIV_SAVE|COUNTERS");
}

/* -k's clock names: perf's spellings, numbers, and the name perf prints for each clock. */
TEST(clockid_parse)
{
	static const struct {
		const char *s;
		int id;
	} ok[] = {
	    {"monotonic", 1},
	    {"mono", 1},
	    {"CLOCK_MONOTONIC", 1},
	    {"monotonic_raw", 4},
	    {"raw", 4},
	    {"realtime", 0},
	    {"real", 0},
	    {"boottime", 7},
	    {"boot", 7},
	    {"tai", 11},
	    {"clock_tai", 11},
	    {"7", 7},
	    {"0", 0},
	    {"2147483647", 2147483647},
	};
	static const char *const bad[] = {"", "bogus", "-3", "1x", "2147483648", "CLOCK_", " 1"};
	size_t i;
	int id;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		id = -1;
		EXPECT(!perfev_clockid_parse(ok[i].s, &id) && id == ok[i].id, "'%s': %d, want %d",
		       ok[i].s, id, ok[i].id);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT(perfev_clockid_parse(bad[i], &id) == -EINVAL, "'%s' accepted", bad[i]);
	CHECK_INT(perfev_clockid_parse(NULL, &id), -EINVAL);
	CHECK_STR(perfev_clockid_name(1), "monotonic");
	CHECK_STR(perfev_clockid_name(4), "monotonic_raw");
	CHECK_STR(perfev_clockid_name(11), "tai");
	CHECK(perfev_clockid_name(99) == NULL);
}

/* perfev_attr_set_callgraph: what perf record --call-graph sets, sizes as perf rounds them. */
TEST(set_callgraph)
{
	const uint64_t dwarf_bits =
	    PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	struct perf_event_attr a;
	static const struct {
		uint32_t in, out;
	} sizes[] = {{0, 8192},	   {1, 8},	   {8, 8},	  {1001, 1008},
		     {4096, 4096}, {65521, 65528}, {65528, 65528}};
	size_t i;

	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_IP;
	CHECK(perfev_attr_set_callgraph(&a, PERFEV_CALLGRAPH_FP, 0) == 0);
	EXPECT(a.sample_type == (PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN),
	       "a.sample_type == (PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN)");
	EXPECT(!a.exclude_callchain_user && !a.sample_regs_user && !a.sample_stack_user,
	       "!a.exclude_callchain_user && !a.sample_regs_user && !a.sample_stack_user");

	CHECK(perfev_attr_set_callgraph(&a, PERFEV_CALLGRAPH_DWARF, 0) == 0);
	EXPECT(a.sample_type == (PERF_SAMPLE_IP | dwarf_bits), "sample_type %#llx",
	       (unsigned long long)a.sample_type);
	EXPECT(a.exclude_callchain_user == 1, "a.exclude_callchain_user == 1");
#if defined(__x86_64__)
	/* perf's PERF_REGS_MASK: every general register but DS, ES, FS and GS. */
	EXPECT(a.sample_regs_user == 0xff0fff, "regs %#llx",
	       (unsigned long long)a.sample_regs_user);
#endif
	EXPECT(a.sample_stack_user == 8192, "a.sample_stack_user == 8192");

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		EXPECT(perfev_attr_set_callgraph(&a, PERFEV_CALLGRAPH_DWARF, sizes[i].in) == 0,
		       "perfev_attr_set_callgraph(&a, PERFEV_CALLGRAPH_DWARF, sizes[i].in) == 0");
		EXPECT(a.sample_stack_user == sizes[i].out, "stack size %u: %u, expected %u",
		       sizes[i].in, a.sample_stack_user, sizes[i].out);
	}
	/* Past the most the kernel copies: refused, the attr left as it was. */
	EXPECT(perfev_attr_set_callgraph(&a, PERFEV_CALLGRAPH_DWARF, 65529) == -ERANGE,
	       "perfev_attr_set_callgraph(&a, PERFEV_CALLGRAPH_DWARF, 65529) == -ERANGE");
	EXPECT(perfev_attr_set_callgraph(&a, PERFEV_CALLGRAPH_DWARF, 65536) == -ERANGE,
	       "perfev_attr_set_callgraph(&a, PERFEV_CALLGRAPH_DWARF, 65536) == -ERANGE");
	EXPECT(perfev_attr_set_callgraph(&a, PERFEV_CALLGRAPH_DWARF, UINT32_MAX) == -ERANGE,
	       "perfev_attr_set_callgraph(&a, PERFEV_CALLGRAPH_DWARF, UINT32_MAX) == -ERANGE");
	EXPECT(a.sample_stack_user == 65528, "a.sample_stack_user == 65528");

	/* fp after dwarf: the kernel walks the user stack again. */
	a.sample_max_stack = 10;
	CHECK(perfev_attr_set_callgraph(&a, PERFEV_CALLGRAPH_FP, 0) == 0);
	EXPECT(a.sample_type == (PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN),
	       "a.sample_type == (PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN)");
	EXPECT(!a.exclude_callchain_user && !a.sample_regs_user && !a.sample_stack_user,
	       "!a.exclude_callchain_user && !a.sample_regs_user && !a.sample_stack_user");
	EXPECT(a.sample_max_stack == 10, "a.sample_max_stack == 10");

	CHECK(perfev_attr_set_callgraph(&a, PERFEV_CALLGRAPH_DWARF, 1024) == 0);
	CHECK(perfev_attr_set_callgraph(&a, PERFEV_CALLGRAPH_NONE, 0) == 0);
	EXPECT(a.sample_type == PERF_SAMPLE_IP, "a.sample_type == PERF_SAMPLE_IP");
	EXPECT(!a.exclude_callchain_user && !a.sample_regs_user && !a.sample_stack_user &&
		   !a.sample_max_stack,
	       "!a.exclude_callchain_user && !a.sample_regs_user && !a.sample_stack_user && "
	       "!a.sample_max_stack");

	CHECK(perfev_attr_set_callgraph(&a, PERFEV_CALLGRAPH_DEFAULT, 0) == 0);
	EXPECT(a.sample_type == PERF_SAMPLE_IP, "a.sample_type == PERF_SAMPLE_IP");
	EXPECT(perfev_attr_set_callgraph(&a, (enum perfev_callgraph)99, 0) == -EINVAL,
	       "perfev_attr_set_callgraph(&a, (enum perfev_callgraph)99, 0) == -EINVAL");
	EXPECT(perfev_attr_set_callgraph(NULL, PERFEV_CALLGRAPH_FP, 0) == -EINVAL,
	       "perfev_attr_set_callgraph(NULL, PERFEV_CALLGRAPH_FP, 0) == -EINVAL");
}
