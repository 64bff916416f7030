// SPDX-License-Identifier: LGPL-2.1-or-later
/* perfev_insn_len_x86: instruction lengths as objdump decodes them; perf's register and branch
 * names. */
#include <errno.h>
#include <string.h>
#include <perfev/perfev.h>
#include "harness.h"

struct insn_case {
	const char *what;
	const char *bytes; /* the instruction, then bytes of the next that must not count */
	int len;
};

/* From objdump -d of libc, libm and perf; the trailing bytes are a following instruction. */
static const struct insn_case cases64[] = {
    {"push rbp", "\x55\x90", 1},
    {"mov rbp,rsp", "\x48\x89\xe5\x90", 3},
    {"andb $0xfe,0xc(%r15)", "\x41\x80\x67\x0c\xfe\x90", 5},
    {"andw $0xffc0,0x4(%rsp)", "\x66\x83\x64\x24\x04\xc0\x90", 6},
    {"cltq", "\x48\x98\x90", 2},
    {"cmovne", "\x0f\x45\xc2\x90", 3},
    {"cmpnlesd", "\xf2\x0f\xc2\xe1\x06\x90", 5},
    {"cvttsd2si", "\xf2\x48\x0f\x2c\xc1\x90", 5},
    {"endbr64", "\xf3\x0f\x1e\xfa\x90", 4},
    {"fildll (%rsp)", "\xdf\x2c\x24\x90", 3},
    {"fstpt 0x20(%rsp)", "\xdb\x7c\x24\x20\x90", 4},
    {"jae rel32", "\x0f\x83\x88\x00\x00\x00\x90", 6},
    {"jns rel8", "\x79\x06\x90", 2},
    {"call rel32", "\xe8\x00\x01\x02\x03\x90", 5},
    {"call rel32, 0x66 ignored", "\x66\xe8\x00\x01\x02\x03\x90", 6},
    {"push imm16", "\x66\x68\x34\x12\x90", 4},
    {"kortestd (VEX3)", "\xc4\xe1\xf9\x98\xe2\x90", 5},
    {"vpcmpeqd (VEX2)", "\xc5\xfd\x76\xda\x90", 4},
    {"vpshufb (VEX3 0F38)", "\xc4\xe2\x71\x00\xc0\x90", 5},
    {"vpalignr (VEX3 0F3A, imm)", "\xc4\xe3\x7d\x0f\xc1\x08\x90", 6},
    {"vpsrldq (VEX 0F, imm)", "\xc5\xf1\x73\xd8\x04\x90", 5},
    {"vzeroupper", "\xc5\xf8\x77\x90", 3},
    {"vpbroadcastb (EVEX)", "\x62\xf2\x7d\x48\x78\x18\x90", 6},
    {"vptestmd (EVEX)", "\x62\xb2\x75\x20\x27\xd1\x90", 6},
    {"vmovdqu64 disp8 (EVEX)", "\x62\xf1\xfe\x48\x6f\x44\x24\x01\x90", 8},
    {"ldmxcsr 0xc(%rsp)", "\x0f\xae\x54\x24\x0c\x90", 5},
    {"movbe", "\x0f\x38\xf0\x07\x90", 4},
    {"pcmpistri (0F3A)", "\x66\x0f\x3a\x63\xc1\x1a\x90", 6},
    {"rdtsc", "\x0f\x31\x90", 2},
    {"rol $0x11,%rax", "\x48\xc1\xc0\x11\x90", 4},
    {"ud2", "\x0f\x0b\x90", 2},
    {"xorb $0x2a,-0x1(%rdx)", "\x80\x72\xff\x2a\x90", 4},
    {"test $imm32 (F7 /0)", "\xf7\xc7\x01\x00\x00\x00\x90", 6},
    {"not (F7 /2)", "\xf7\xd7\x90", 2},
    {"testb $imm8 (F6 /0)", "\xf6\x40\x08\x01\x90", 4},
    {"movabs $imm64", "\x48\xb8\x01\x02\x03\x04\x05\x06\x07\x08\x90", 10},
    {"mov $imm32", "\xb8\x01\x02\x03\x04\x90", 5},
    {"mov $imm16", "\x66\xb8\x01\x02\x90", 4},
    {"movabs moffs64", "\x48\xa1\x01\x02\x03\x04\x05\x06\x07\x08\x90", 10},
    {"mov moffs32 (0x67)", "\x67\xa1\x01\x02\x03\x04\x90", 6},
    {"rip-relative lea", "\x48\x8d\x05\x10\x20\x30\x00\x90", 7},
    {"sib without base", "\x8b\x04\x25\x00\x10\x00\x00\x90", 7},
    {"sib disp32", "\x48\x8b\x84\x24\x00\x01\x00\x00\x90", 8},
    {"enter", "\xc8\x10\x00\x01\x90", 4},
    {"ret imm16", "\xc2\x08\x00\x90", 3},
    {"lock cmpxchg", "\xf0\x48\x0f\xb1\x17\x90", 5},
    {"rep movsq", "\xf3\x48\xa5\x90", 3},
    {"nopw (long nop)", "\x66\x2e\x0f\x1f\x84\x00\x00\x00\x00\x00\x90", 10},
    {"imul $imm32", "\x69\xc0\x01\x02\x03\x04\x90", 6},
    {"imul $imm8", "\x6b\xc0\x01\x90", 3},
    {"bswap", "\x0f\xc8\x90", 2},
    {"pshufd (0F 70, imm)", "\x66\x0f\x70\xc0\x1b\x90", 5},
    {"shld $imm8", "\x0f\xa4\xc2\x04\x90", 4},
    {"fwait alone", "\x9b\xd9\x7c\x24\x02", 1},
    {"rdpkru (0F 01 EE, unknown to capstone 4)", "\x0f\x01\xee\x90", 3},
    {"wrpkru (0F 01 EF)", "\x0f\x01\xef\x90", 3},
};

TEST(insn_lengths_64)
{
	unsigned char buf[32];
	size_t i;

	for (i = 0; i < sizeof(cases64) / sizeof(cases64[0]); i++) {
		size_t n = strlen(cases64[i].bytes);
		int len;

		/* Strings stop at a NUL: the cases' bytes are given without the NULs they hold. */
		memset(buf, 0, sizeof(buf));
		n = (size_t)cases64[i].len + 1 > n ? (size_t)cases64[i].len + 1 : n;
		memcpy(buf, cases64[i].bytes, n);
		len = perfev_insn_len_x86(buf, sizeof(buf), true);
		EXPECT(len == cases64[i].len, "%s: %d bytes, expected %d", cases64[i].what, len,
		       cases64[i].len);
	}
}

TEST(insn_lengths_32)
{
	/* inc eax, not REX; LES with ModRM, not VEX; a 16-bit address. */
	CHECK_INT(perfev_insn_len_x86("\x40\x90", 2, false), 1);
	CHECK_INT(perfev_insn_len_x86("\xc4\x06\x90", 3, false), 2);
	CHECK_INT(perfev_insn_len_x86("\xc5\xf8\x77\x90", 4, false), 3);
	CHECK_INT(perfev_insn_len_x86("\x67\x8b\x46\x10\x90", 5, false), 4);
	CHECK_INT(perfev_insn_len_x86("\x67\x8b\x06\x34\x12\x90", 6, false), 5);
	CHECK_INT(perfev_insn_len_x86("\xa1\x01\x02\x03\x04\x90", 6, false), 5);
	CHECK_INT(perfev_insn_len_x86("\x9a\x01\x02\x03\x04\x05\x06\x90", 8, false), 7);
}

TEST(insn_cut_short)
{
	CHECK_INT(perfev_insn_len_x86("\x48\xb8\x01\x02", 4, true), -EBADMSG);
	CHECK_INT(perfev_insn_len_x86("\x0f", 1, true), -EBADMSG);
	CHECK_INT(perfev_insn_len_x86("\x66\x66\x66", 3, true), -EBADMSG);
	CHECK_INT(perfev_insn_len_x86("", 0, true), -EBADMSG);
	/* Fifteen prefixes leave no room for an opcode. */
	CHECK_INT(perfev_insn_len_x86(
		      "\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x90", 16, true),
		  -EBADMSG);
	CHECK_INT(perfev_insn_len_x86(NULL, 4, true), -EINVAL);
}

TEST(reg_and_branch_names)
{
	CHECK_STR(perfev_reg_name("x86_64", 0), "AX");
	CHECK_STR(perfev_reg_name("x86", 9), "FLAGS");
	CHECK_STR(perfev_reg_name("i686", 23), "R15");
	CHECK_STR(perfev_reg_name("x86_64", 32), "XMM0");
	CHECK_STR(perfev_reg_name("x86_64", 62), "XMM15");
	CHECK(!perfev_reg_name("x86_64", 33)); /* XMM0's upper half */
	CHECK(!perfev_reg_name("x86_64", 24));
	CHECK(!perfev_reg_name("aarch64", 0));
	CHECK_STR(perfev_branch_entry_type_name(1, 0), "COND");
	CHECK_STR(perfev_branch_entry_type_name(5, 0), "IND_CALL");
	CHECK_STR(perfev_branch_entry_type_name(14, 0), "NO_TX");
	CHECK_STR(perfev_branch_entry_type_name(15, 0), "FAULT_ALGN");
	CHECK_STR(perfev_branch_entry_type_name(15, 7), "ARCH_5");
	CHECK(!perfev_branch_entry_type_name(0, 0));
	CHECK(!perfev_branch_entry_type_name(15, 8));
}
