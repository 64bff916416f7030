/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * perf_event_attr introspection: every field under the name Linux perf
 * prints it with, and names for the bits of sample_type, read_format and
 * branch_sample_type.
 */
#ifndef PERFEV_ATTR_H
#define PERFEV_ATTR_H

#include <stdint.h>
#include <perfev/abi.h>
#include <perfev/core.h>

#ifdef __cplusplus
extern "C" {
#endif

enum perfev_attr_fmt {
	PERFEV_ATTR_FMT_DEC = 0,   /* decimal */
	PERFEV_ATTR_FMT_HEX = 1,   /* 0x... */
	PERFEV_ATTR_FMT_FLAGS = 2, /* bit names (sample_type, read_format, branch_sample_type) */
	PERFEV_ATTR_FMT_SIGNED = 3,
};

struct perfev_attr_field {
	const char *name; /* perf's name: "config", "exclude_kernel", "{ bp_addr, config1 }" */
	const char *key;  /* identifier form: "config", "bp_addr", "config1" (for JSON) */
	uint64_t value;
	enum perfev_attr_fmt fmt;
	unsigned int min_size; /* attr size that introduced the field */
};

/*
 * Walk every field of @attr that fits in @attr->size (all bit-fields
 * individually, in struct order), calling @fn for each.  Fields whose
 * meaning depends on the type (bp_addr vs config1) are reported under the
 * name that fits attr->type.  Unknown reserved bits are reported as
 * "__reserved_1".  A non-zero return from @fn stops the walk and is
 * returned; otherwise 0.
 */
typedef int (*perfev_attr_field_fn)(const struct perfev_attr_field *field, void *ctx);
PERFEV_API int perfev_attr_foreach(const struct perf_event_attr *attr, perfev_attr_field_fn fn,
				   void *ctx);

/*
 * Format flag bits as perf does ("IP|TID|TIME"), unknown bits as hex.
 * Returns the length of the full string (as snprintf).
 */
PERFEV_API int perfev_sample_type_str(uint64_t sample_type, char *buf, size_t len);
PERFEV_API int perfev_read_format_str(uint64_t read_format, char *buf, size_t len);
PERFEV_API int perfev_branch_type_str(uint64_t branch_sample_type, char *buf, size_t len);

/*
 * Parse a branch filter list as perf's -j / branch_type= accept
 * ("any,u", "call,cond,k", "any_call,save_type").  Pure.
 * Returns 0 and ORs the bits into *@out, or -EINVAL naming nothing: the
 * caller reports the bad string.
 */
PERFEV_API int perfev_branch_type_parse(const char *str, uint64_t *out);

/*
 * A clock for attr.clockid as perf's -k names it: monotonic,
 * monotonic_raw, realtime, boottime, tai, the short forms mono, raw,
 * real, boot, any of them after "CLOCK_" (case ignored), or a decimal
 * number up to INT32_MAX (not checked against the clocks there are).
 * Pure.  Returns 0 with *@out set, or -EINVAL.
 */
PERFEV_API int perfev_clockid_parse(const char *str, int *out);
/* perf's name of clock @clockid ("monotonic"), or NULL for another number. */
PERFEV_API const char *perfev_clockid_name(int clockid);

/*
 * The name perf gives a branch entry's type (perf_branch_entry.type,
 * PERF_BR_*): "COND", "IND_CALL", "SYSCALL", ...; for PERF_BR_EXTEND_ABI
 * that of @new_type (PERF_BR_NEW_*: "FAULT_ALGN", ..., "ARCH_1", ...).
 * NULL for PERF_BR_UNKNOWN and past the known types.
 */
PERFEV_API const char *perfev_branch_entry_type_name(unsigned int type, unsigned int new_type);

/*
 * The name perf gives bit @bit of sample_regs_user or sample_regs_intr on
 * @arch (uname's machine or the ARCH feature: "x86_64", "i686"; NULL:
 * this machine's), as perf script prints registers: "AX", "R15", "XMM0".
 * NULL for a bit without a name, or an architecture with no table here
 * (x86 only).
 */
PERFEV_API const char *perfev_reg_name(const char *arch, unsigned int bit);

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_ATTR_H */
