// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perf_event_attr introspection.  Fields are read by byte offset so the
 * walk covers fields newer than the installed header (config3) and does
 * not depend on how the compiler lays out bit-fields.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <strings.h>
#include <time.h>
#include "common/internal.h"
#include <perfev/attr.h>

struct field_desc {
	const char *name;
	const char *key;
	unsigned short offset;
	unsigned char width; /* bytes */
	enum perfev_attr_fmt fmt;
};

/* Fields before the flags word (offset 40). */
static const struct field_desc head[] = {
    {"type", "type", 0, 4, PERFEV_ATTR_FMT_DEC},
    {"size", "size", 4, 4, PERFEV_ATTR_FMT_DEC},
    {"config", "config", 8, 8, PERFEV_ATTR_FMT_HEX},
    {"{ sample_period, sample_freq }", "sample_period", 16, 8, PERFEV_ATTR_FMT_DEC},
    {"sample_type", "sample_type", 24, 8, PERFEV_ATTR_FMT_FLAGS},
    {"read_format", "read_format", 32, 8, PERFEV_ATTR_FMT_FLAGS},
};

/* The bit-fields of the flags word, in declaration order. */
static const struct {
	const char *name;
	unsigned char bit, width;
} bits[] = {
    {"disabled", 0, 1},
    {"inherit", 1, 1},
    {"pinned", 2, 1},
    {"exclusive", 3, 1},
    {"exclude_user", 4, 1},
    {"exclude_kernel", 5, 1},
    {"exclude_hv", 6, 1},
    {"exclude_idle", 7, 1},
    {"mmap", 8, 1},
    {"comm", 9, 1},
    {"freq", 10, 1},
    {"inherit_stat", 11, 1},
    {"enable_on_exec", 12, 1},
    {"task", 13, 1},
    {"watermark", 14, 1},
    {"precise_ip", 15, 2},
    {"mmap_data", 17, 1},
    {"sample_id_all", 18, 1},
    {"exclude_host", 19, 1},
    {"exclude_guest", 20, 1},
    {"exclude_callchain_kernel", 21, 1},
    {"exclude_callchain_user", 22, 1},
    {"mmap2", 23, 1},
    {"comm_exec", 24, 1},
    {"use_clockid", 25, 1},
    {"context_switch", 26, 1},
    {"write_backward", 27, 1},
    {"namespaces", 28, 1},
    {"ksymbol", 29, 1},
    {"bpf_event", 30, 1},
    {"aux_output", 31, 1},
    {"cgroup", 32, 1},
    {"text_poke", 33, 1},
    {"build_id", 34, 1},
    {"inherit_thread", 35, 1},
    {"remove_on_exec", 36, 1},
    {"sigtrap", 37, 1},
};
#define FIRST_RESERVED_BIT 38

/* Fields after the flags word. */
static const struct field_desc tail[] = {
    {"{ wakeup_events, wakeup_watermark }", "wakeup_events", 48, 4, PERFEV_ATTR_FMT_DEC},
    {"bp_type", "bp_type", 52, 4, PERFEV_ATTR_FMT_DEC},
    {"{ bp_addr, config1 }", "config1", 56, 8, PERFEV_ATTR_FMT_HEX},
    {"{ bp_len, config2 }", "config2", 64, 8, PERFEV_ATTR_FMT_HEX},
    {"branch_sample_type", "branch_sample_type", 72, 8, PERFEV_ATTR_FMT_FLAGS},
    {"sample_regs_user", "sample_regs_user", 80, 8, PERFEV_ATTR_FMT_HEX},
    {"sample_stack_user", "sample_stack_user", 88, 4, PERFEV_ATTR_FMT_DEC},
    {"clockid", "clockid", 92, 4, PERFEV_ATTR_FMT_SIGNED},
    {"sample_regs_intr", "sample_regs_intr", 96, 8, PERFEV_ATTR_FMT_HEX},
    {"aux_watermark", "aux_watermark", 104, 4, PERFEV_ATTR_FMT_DEC},
    {"sample_max_stack", "sample_max_stack", 108, 2, PERFEV_ATTR_FMT_DEC},
    {"__reserved_2", "__reserved_2", 110, 2, PERFEV_ATTR_FMT_HEX},
    {"aux_sample_size", "aux_sample_size", 112, 4, PERFEV_ATTR_FMT_DEC},
    {"__reserved_3", "__reserved_3", 116, 4, PERFEV_ATTR_FMT_HEX},
    {"sig_data", "sig_data", 120, 8, PERFEV_ATTR_FMT_HEX},
    {"config3", "config3", 128, 8, PERFEV_ATTR_FMT_HEX},
};

static uint64_t read_at(const unsigned char *p, unsigned int off, unsigned int width)
{
	uint64_t v64 = 0;
	uint32_t v32;
	uint16_t v16;

	switch (width) {
	case 2:
		memcpy(&v16, p + off, 2);
		return v16;
	case 4:
		memcpy(&v32, p + off, 4);
		return v32;
	default:
		memcpy(&v64, p + off, 8);
		return v64;
	}
}

/* Bit @bit of the flags word as the kernel's bit-field declaration numbers it. */
static uint64_t flag_bits(uint64_t word, unsigned int bit, unsigned int width)
{
	uint64_t mask = (1ULL << width) - 1;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	/* Big-endian bit-fields are allocated from the most significant bit. */
	return word >> (64 - bit - width) & mask;
#else
	return word >> bit & mask;
#endif
}

static int emit(perfev_attr_field_fn fn, void *ctx, const char *name, const char *key, uint64_t v,
		enum perfev_attr_fmt fmt, unsigned int min_size)
{
	struct perfev_attr_field f = {name, key, v, fmt, min_size};

	return fn(&f, ctx);
}

int perfev_attr_foreach(const struct perf_event_attr *attr, perfev_attr_field_fn fn, void *ctx)
{
	const unsigned char *p = (const unsigned char *)attr;
	unsigned int size, i;
	uint64_t flags, reserved = 0;
	int ret;

	if (!attr || !fn)
		return -EINVAL;
	size = attr->size ? attr->size : PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0)
		size = PERF_ATTR_SIZE_VER0;
	for (i = 0; i < PERFEV__ARRAY_SIZE(head); i++) {
		const struct field_desc *d = &head[i];
		const char *name = d->name, *key = d->key;

		/* Like perf, name the union member that is in use. */
		if (d->offset == 16) {
			bool freq = flag_bits(read_at(p, 40, 8), 10, 1);

			name = key = freq ? "sample_freq" : "sample_period";
		}
		ret = emit(fn, ctx, name, key, read_at(p, d->offset, d->width), d->fmt,
			   d->offset + d->width);
		if (ret)
			return ret;
	}
	flags = read_at(p, 40, 8);
	for (i = 0; i < PERFEV__ARRAY_SIZE(bits); i++) {
		ret = emit(fn, ctx, bits[i].name, bits[i].name,
			   flag_bits(flags, bits[i].bit, bits[i].width), PERFEV_ATTR_FMT_DEC, 48);
		if (ret)
			return ret;
	}
	for (i = FIRST_RESERVED_BIT; i < 64; i++)
		reserved |= flag_bits(flags, i, 1) << (i - FIRST_RESERVED_BIT);
	ret = emit(fn, ctx, "__reserved_1", "__reserved_1", reserved, PERFEV_ATTR_FMT_HEX, 48);
	if (ret)
		return ret;
	for (i = 0; i < PERFEV__ARRAY_SIZE(tail); i++) {
		const struct field_desc *d = &tail[i];
		const char *key = d->key;

		if (d->offset + d->width > size)
			break;
		if (attr->type == PERF_TYPE_BREAKPOINT && d->offset == 56)
			key = "bp_addr";
		else if (attr->type == PERF_TYPE_BREAKPOINT && d->offset == 64)
			key = "bp_len";
		ret = emit(fn, ctx, d->name, key, read_at(p, d->offset, d->width), d->fmt,
			   d->offset + d->width);
		if (ret)
			return ret;
	}
	return 0;
}

const char *perfev__attr_field_at(unsigned int offset)
{
	size_t i;

	for (i = 0; i < PERFEV__ARRAY_SIZE(tail); i++)
		if (offset >= tail[i].offset && offset < tail[i].offset + tail[i].width)
			return tail[i].key;
	for (i = 0; i < PERFEV__ARRAY_SIZE(head); i++)
		if (offset >= head[i].offset && offset < head[i].offset + head[i].width)
			return head[i].key;
	return offset >= 40 && offset < 48 ? "flags" : NULL;
}

/* ---- flag words --------------------------------------------------------- */

static int flags_str(uint64_t v, const char *const *names, unsigned int n, char *buf, size_t len)
{
	size_t pos = 0;
	unsigned int i;
	uint64_t unknown = 0;
	int total = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < 64; i++) {
		if (!(v >> i & 1))
			continue;
		if (i < n && names[i]) {
			total += snprintf(NULL, 0, "%s%s", total ? "|" : "", names[i]);
			perfev__bprintf(buf, len, &pos, "%s%s", pos ? "|" : "", names[i]);
		} else {
			unknown |= 1ULL << i;
		}
	}
	if (unknown) {
		total +=
		    snprintf(NULL, 0, "%s0x%llx", total ? "|" : "", (unsigned long long)unknown);
		perfev__bprintf(buf, len, &pos, "%s0x%llx", pos ? "|" : "",
				(unsigned long long)unknown);
	}
	return total;
}

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

static const char *const read_names[] = {
    "TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST",
};

static const char *const branch_names[] = {
    "USER",	"KERNEL",    "HV",	  "ANY",      "ANY_CALL",   "ANY_RETURN", "IND_CALL",
    "ABORT_TX", "IN_TX",     "NO_TX",	  "COND",     "CALL_STACK", "IND_JUMP",	  "CALL",
    "NO_FLAGS", "NO_CYCLES", "TYPE_SAVE", "HW_INDEX", "PRIV_SAVE",  "COUNTERS",
};

int perfev_sample_type_str(uint64_t v, char *buf, size_t len)
{
	return flags_str(v, sample_names, PERFEV__ARRAY_SIZE(sample_names), buf, len);
}

int perfev_read_format_str(uint64_t v, char *buf, size_t len)
{
	return flags_str(v, read_names, PERFEV__ARRAY_SIZE(read_names), buf, len);
}

int perfev_branch_type_str(uint64_t v, char *buf, size_t len)
{
	return flags_str(v, branch_names, PERFEV__ARRAY_SIZE(branch_names), buf, len);
}

/* The filter names perf's -j option accepts. */
static const struct {
	const char *name;
	uint64_t bits;
} branch_modes[] = {
    {"u", PERF_SAMPLE_BRANCH_USER},
    {"k", PERF_SAMPLE_BRANCH_KERNEL},
    {"hv", PERF_SAMPLE_BRANCH_HV},
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
};

int perfev_branch_type_parse(const char *str, uint64_t *out)
{
	const uint64_t priv =
	    PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_HV;
	uint64_t v = 0;
	const char *p = str;

	if (!str || !out || !*str)
		return -EINVAL;
	while (*p) {
		size_t n = strcspn(p, ","), i;

		/* perf matches these names without regard to case. */
		for (i = 0; i < PERFEV__ARRAY_SIZE(branch_modes); i++)
			if (strlen(branch_modes[i].name) == n &&
			    !strncasecmp(branch_modes[i].name, p, n))
				break;
		if (i == PERFEV__ARRAY_SIZE(branch_modes))
			return -EINVAL;
		v |= branch_modes[i].bits;
		p += n;
		if (*p == ',' && !*++p)
			return -EINVAL;
	}
	/* Only privilege levels given: sample any branch at those levels. */
	if (!(v & ~priv))
		v |= PERF_SAMPLE_BRANCH_ANY;
	*out |= v;
	return 0;
}

/* ---- clocks (use_clockid) ---------------------------------------------------- */

/* perf's names for -k, the first name of each clock being the one it prints. */
static const struct {
	const char *name;
	int id;
} clock_names[] = {
    {"monotonic", CLOCK_MONOTONIC},
    {"monotonic_raw", CLOCK_MONOTONIC_RAW},
    {"realtime", CLOCK_REALTIME},
    {"boottime", CLOCK_BOOTTIME},
    {"tai", CLOCK_TAI},
    {"mono", CLOCK_MONOTONIC},
    {"raw", CLOCK_MONOTONIC_RAW},
    {"real", CLOCK_REALTIME},
    {"boot", CLOCK_BOOTTIME},
};

int perfev_clockid_parse(const char *str, int *out)
{
	const char *s = str;
	long long v = 0;
	size_t i;

	if (!str || !out || !*str)
		return -EINVAL;
	if (*s >= '0' && *s <= '9') {
		for (; *s >= '0' && *s <= '9'; s++) {
			v = v * 10 + (*s - '0');
			if (v > INT32_MAX)
				return -EINVAL;
		}
		if (*s)
			return -EINVAL;
		*out = (int)v;
		return 0;
	}
	if (!strncasecmp(s, "CLOCK_", 6))
		s += 6;
	for (i = 0; i < PERFEV__ARRAY_SIZE(clock_names); i++)
		if (!strcasecmp(clock_names[i].name, s)) {
			*out = clock_names[i].id;
			return 0;
		}
	return -EINVAL;
}

const char *perfev_clockid_name(int clockid)
{
	size_t i;

	for (i = 0; i < PERFEV__ARRAY_SIZE(clock_names); i++)
		if (clock_names[i].id == clockid)
			return clock_names[i].name;
	return NULL;
}

/* perf's names of PERF_BR_* (util/branch.c), PERF_BR_UNKNOWN left out. */
static const char *const br_types[] = {
    NULL,     "COND",	   "UNCOND",   "IND",  "CALL", "IND_CALL", "RET",   "SYSCALL",
    "SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ",  "SERROR",   "NO_TX",
};
/* PERF_BR_NEW_* (6.1), under PERF_BR_EXTEND_ABI; on x86 the architecture's are numbered. */
static const char *const br_new_types[] = {
    "FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2", "ARCH_3", "ARCH_4", "ARCH_5",
};
#define BR_EXTEND_ABI 15

const char *perfev_branch_entry_type_name(unsigned int type, unsigned int new_type)
{
	if (type == BR_EXTEND_ABI)
		return new_type < PERFEV__ARRAY_SIZE(br_new_types) ? br_new_types[new_type] : NULL;
	return type < PERFEV__ARRAY_SIZE(br_types) ? br_types[type] : NULL;
}

/* x86's registers as asm/perf_regs.h numbers them; XMMn takes bits 32 + 2n and the next. */
static const char *const x86_regs[] = {
    "AX", "BX", "CX", "DX", "SI", "DI", "BP",  "SP",  "IP",  "FLAGS", "CS",  "SS",
    "DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13",   "R14", "R15",
};
static const char *const x86_xmm[] = {
    "XMM0", "XMM1", "XMM2",  "XMM3",  "XMM4",  "XMM5",	"XMM6",	 "XMM7",
    "XMM8", "XMM9", "XMM10", "XMM11", "XMM12", "XMM13", "XMM14", "XMM15",
};

const char *perfev_reg_name(const char *arch, unsigned int bit)
{
	struct utsname u;

	if (!arch) {
		if (uname(&u))
			return NULL;
		arch = u.machine;
	}
	/* perf's normalisation: x86_64, i386...i686 and x86 are one table. */
	if (strcmp(arch, "x86_64") && strcmp(arch, "x86") &&
	    !(arch[0] == 'i' && arch[1] >= '3' && arch[1] <= '6' && !strcmp(arch + 2, "86")))
		return NULL;
	if (bit < PERFEV__ARRAY_SIZE(x86_regs))
		return x86_regs[bit];
	if (bit >= 32 && bit < 64 && !(bit & 1))
		return x86_xmm[(bit - 32) / 2];
	return NULL;
}
