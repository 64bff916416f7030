// SPDX-License-Identifier: LGPL-2.1-or-later
/* perfev_disasm_x86, perfev_kcore_read, perfev_symbolize_code: instructions and their bytes. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <perfev/perfev.h>
#include "harness.h"

/*
 * 1000: test %edi,%edi; 1002: jle 100b; 1004: call 1000; 1009: jmp *%rax;
 * 100b: ret; 100c: a byte that is no instruction (0x06, push es, is invalid in 64-bit code).
 */
static const unsigned char code[] = {0x85, 0xff, 0x7e, 0x07, 0xe8, 0xf7, 0xff,
				     0xff, 0xff, 0xff, 0xe0, 0xc3, 0x06};

TEST(disasm_att)
{
	struct perfev_insn *in;
	size_t n;

	CHECK_INT(perfev_disasm_x86(code, sizeof(code), 0x1000, 0, &in, &n), 0);
	CHECK_INT((int)n, 6);
	CHECK_U64(in[0].addr, 0x1000);
	CHECK_INT(in[0].size, 2);
	CHECK_CONTAINS(in[0].mnemonic, "test");
	CHECK_STR(in[0].operands, "%edi, %edi");
	CHECK_INT(in[0].bytes[1], 0xff);
	CHECK_INT(in[0].flags, 0);
	CHECK_CONTAINS(in[1].mnemonic, "jle");
	CHECK_INT(in[1].flags, PERFEV_INSN_JUMP | PERFEV_INSN_TARGET);
	CHECK_U64(in[1].target, 0x100b);
	CHECK_CONTAINS(in[2].mnemonic, "call");
	CHECK_INT(in[2].flags, PERFEV_INSN_CALL | PERFEV_INSN_TARGET);
	CHECK_U64(in[2].target, 0x1000);
	/* An indirect jump has no target to name. */
	CHECK_INT(in[3].flags, PERFEV_INSN_JUMP);
	CHECK_INT(in[4].flags, PERFEV_INSN_RET);
	CHECK_U64(in[5].addr, 0x100c);
	CHECK_INT(in[5].flags, PERFEV_INSN_BAD);
	CHECK_STR(in[5].mnemonic, ".byte");
	CHECK_STR(in[5].operands, "0x6");
	perfev_disasm_free(in);
}

TEST(disasm_intel_and_errors)
{
	struct perfev_insn *in;
	size_t n;

	CHECK_INT(perfev_disasm_x86(code, 2, 0, PERFEV_DISASM_INTEL, &in, &n), 0);
	CHECK_INT((int)n, 1);
	CHECK_STR(in[0].mnemonic, "test");
	CHECK_STR(in[0].operands, "edi, edi");
	perfev_disasm_free(in);
	/* In 32-bit code 0x06 is push es. */
	CHECK_INT(perfev_disasm_x86(code + 12, 1, 0, PERFEV_DISASM_32, &in, &n), 0);
	CHECK_INT((int)n, 1);
	CHECK_INT(in[0].flags, 0);
	perfev_disasm_free(in);
	CHECK_INT(perfev_disasm_x86(code, 0, 0, 0, &in, &n), 0);
	CHECK_INT((int)n, 0);
	perfev_disasm_free(in);
	CHECK_INT(perfev_disasm_x86(code, 2, 0, 1U << 7, &in, &n), -EINVAL);
	CHECK_INT(perfev_disasm_x86(NULL, 2, 0, 0, &in, &n), -EINVAL);
	perfev_disasm_free(NULL);
}

/* An ELF core file as /proc/kcore lays one out: one PT_LOAD mapping kernel addresses. */
static int write_kcore(const char *dir, uint64_t vaddr, const void *bytes, size_t len)
{
	char path[4096];
	Elf64_Ehdr eh = {0};
	Elf64_Phdr ph = {0};
	int fd;

	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_CORE;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_phoff = sizeof(eh);
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(ph);
	eh.e_phnum = 1;
	ph.p_type = PT_LOAD;
	ph.p_offset = 4096;
	ph.p_vaddr = vaddr;
	ph.p_filesz = ph.p_memsz = len;
	snprintf(path, sizeof(path), "%s/kcore", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	if (pwrite(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    pwrite(fd, &ph, sizeof(ph), sizeof(eh)) != sizeof(ph) ||
	    pwrite(fd, bytes, len, 4096) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	return close(fd);
}

TEST(kcore_read)
{
	char dir[] = "/tmp/perfev-kcore.XXXXXX", path[4096];
	unsigned char buf[32];
	const uint64_t text = 0xffffffff81000000ULL;

	CHECK(mkdtemp(dir) != NULL);
	CHECK_INT(write_kcore(dir, text, code, sizeof(code)), 0);
	memset(buf, 0, sizeof(buf));
	CHECK_INT(perfev_kcore_read(dir, text + 2, buf, 4), 4);
	CHECK(!memcmp(buf, code + 2, 4));
	/* Cut at the segment's end. */
	CHECK_INT(perfev_kcore_read(dir, text + 10, buf, sizeof(buf)), (int)sizeof(code) - 10);
	CHECK_INT(perfev_kcore_read(dir, text - 1, buf, 4), -ERANGE);
	CHECK_INT(perfev_kcore_read(dir, text + sizeof(code), buf, 4), -ERANGE);
	CHECK_INT(perfev_kcore_read(dir, text, NULL, 4), -EINVAL);
	snprintf(path, sizeof(path), "%s/kcore", dir);
	/* Not a core file. */
	CHECK_INT(truncate(path, 8), 0);
	CHECK_INT(perfev_kcore_read(dir, text, buf, 4), -ENODATA);
	unlink(path);
	CHECK_INT(perfev_kcore_read(dir, text, buf, 4), -ENOENT);
	rmdir(dir);
}

/* A function of this test, read back through the symbolizer from the executable's file. */
__attribute__((noinline)) int disasm_probe(int x);
__attribute__((noinline)) int disasm_probe(int x)
{
	return x * 7 + 3;
}

TEST(symbolize_code_self)
{
	struct perfev_symbolizer *s;
	struct perfev_sym sym;
	unsigned char buf[64];
	char line[4096], exe[4096];
	unsigned long lo, hi, off;
	uint64_t ip = (uint64_t)(uintptr_t)&disasm_probe;
	FILE *maps = fopen("/proc/self/maps", "r");
	bool found = false;
	int got;

	CHECK(maps != NULL);
	while (fgets(line, sizeof(line), maps)) {
		if (sscanf(line, "%lx-%lx %*s %lx %*s %*s %4095s", &lo, &hi, &off, exe) == 4 &&
		    ip >= lo && ip < hi) {
			found = true;
			break;
		}
	}
	fclose(maps);
	CHECK(found);
	CHECK_INT(perfev_symbolizer_new(NULL, &s), 0);
	CHECK_INT(perfev_symbolize_user(s, exe, lo, off, ip, &sym), 0);
	CHECK_STR(sym.name, "disasm_probe");
	got = perfev_symbolize_code(s, exe, lo, off, ip, buf, sizeof(buf));
	CHECK(got > 0);
	/* The file's bytes are the bytes this process runs. */
	CHECK(!memcmp(buf, (const void *)(uintptr_t)ip, (size_t)got));
	CHECK_INT(perfev_symbolize_code(s, exe, lo, off, ip, NULL, 4), -EINVAL);
	CHECK_INT(perfev_symbolize_code(s, "/nonexistent/file", 0, 0, 0, buf, 4), -ENODATA);
	perfev_symbolizer_free(s);
}
