/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Machine instructions as bytes: how long the one at an address is, so
 * that a tool can show it (perf script -F insn) or step over it.
 */
#ifndef PERFEV_INSN_H
#define PERFEV_INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <perfev/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The length of the x86 instruction at @buf (@len bytes readable): its
 * legacy prefixes, REX, VEX or EVEX prefix, opcode, ModRM, SIB,
 * displacement and immediate, as perf's decoder counts them; @is64 for
 * 64-bit code.  Undefined opcodes count as their opcode bytes.  Pure.
 * Returns 1 to 15; -EBADMSG when the instruction runs past @len bytes
 * or past 15; -EINVAL for a NULL @buf; -ENOTSUP when capstone (loaded on
 * first use) is not installed; -ENOMEM.
 */
PERFEV_API int perfev_insn_len_x86(const void *buf, size_t len, bool is64);

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_INSN_H */
