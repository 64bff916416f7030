/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Disassembly: machine code as instructions (address, bytes, mnemonic,
 * operands, the target of a direct jump or call), decoded by capstone,
 * and the code bytes themselves, read from a mapped file through the
 * symbolizer (the file and segment its symbols came from) or, for the
 * kernel, from /proc/kcore.  What perf annotate shows.
 */
#ifndef PERFEV_DISASM_H
#define PERFEV_DISASM_H

#include <stddef.h>
#include <stdint.h>
#include <perfev/core.h>
#include <perfev/symbols.h>

#ifdef __cplusplus
extern "C" {
#endif

/* perfev_disasm_x86() flags. */
#define PERFEV_DISASM_INTEL (1U << 0) /* Intel syntax (default: AT&T, as objdump) */
#define PERFEV_DISASM_32    (1U << 1) /* 32-bit code (default: 64-bit) */

/* perfev_insn.flags */
#define PERFEV_INSN_JUMP   (1U << 0) /* a jump, conditional or not */
#define PERFEV_INSN_CALL   (1U << 1) /* a call */
#define PERFEV_INSN_RET	   (1U << 2) /* a return */
#define PERFEV_INSN_TARGET (1U << 3) /* a direct jump or call: @target is where it goes */
#define PERFEV_INSN_BAD	   (1U << 4) /* bytes that decode to no instruction (".byte") */

struct perfev_insn {
	uint64_t addr;	    /* where it is, in the addresses given to perfev_disasm_x86() */
	uint64_t target;    /* PERFEV_INSN_TARGET: the address it jumps to or calls */
	uint16_t size;	    /* its length in bytes, 1 to 15 */
	uint16_t flags;	    /* PERFEV_INSN_* */
	uint8_t bytes[16];  /* its bytes (@size of them) */
	char mnemonic[32];  /* "mov", "jne", ".byte" */
	char operands[160]; /* "%rsp,%rbp" (AT&T) or "rbp, rsp" (Intel); "" for none */
};

/*
 * Disassemble the x86 code at @code (@len bytes, the first at address
 * @addr) with capstone, one instruction after the other to the end;
 * bytes that decode to no instruction become one ".byte" entry each
 * (PERFEV_INSN_BAD), as objdump shows them.  *@out is an array of *@n
 * instructions the caller frees with perfev_disasm_free().  Pure and
 * thread-safe.  Errors: -EINVAL (NULL pointers, unknown @flags),
 * -ENOMEM, -ENOSYS (capstone cannot decode x86), -ENOENT (capstone, loaded
 * on first use, is not installed), -ENOTSUP (the one installed is of
 * another major version than perfev was built for).
 */
PERFEV_API int perfev_disasm_x86(const void *code, size_t len, uint64_t addr, unsigned int flags,
				 struct perfev_insn **out, size_t *n);
/* Free what perfev_disasm_x86() made (NULL is fine). */
PERFEV_API void perfev_disasm_free(struct perfev_insn *insns);

/*
 * Up to @len code bytes of file @path from @ip on, where @ip is an
 * address in a mapping of the file as for perfev_symbolize_user() (map
 * start @map_start, file offset @pgoff; 0 and 0 make @ip a file offset),
 * read from the file the symbolizer reads the symbols of (the build the
 * recording saw: see perfev_symbolizer_set_build_id()), within the
 * loaded segment that holds @ip.  Returns how many bytes were read
 * (fewer than @len where the segment's file bytes end).  Errors: those
 * of perfev_symbolize_user() but -ENOENT; -EINVAL also for a NULL @buf.
 */
PERFEV_API int perfev_symbolize_code(struct perfev_symbolizer *s, const char *path,
				     uint64_t map_start, uint64_t pgoff, uint64_t ip, void *buf,
				     size_t len);

/*
 * Up to @len bytes of the running kernel's memory at kernel address
 * @addr, from PROCFS_ROOT/kcore (NULL root: /proc), an ELF core file
 * whose PT_LOAD segments map kernel virtual addresses (readable by root
 * alone, and only where the kernel has CONFIG_PROC_KCORE).  Returns how
 * many bytes were read (fewer where the segment ends).  Errors: those of
 * open(2) and pread(2) (-EACCES, -EPERM without the right, -ENOENT
 * without kcore), -ENODATA (not an ELF core), -ERANGE (no segment maps
 * @addr), -EINVAL, -ENOMEM.
 */
PERFEV_API int perfev_kcore_read(const char *procfs_root, uint64_t addr, void *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_DISASM_H */
