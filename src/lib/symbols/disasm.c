// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Disassembly through capstone, and the code bytes it is given: a mapped
 * file's, through the symbolizer's module of it, and the kernel's, from
 * /proc/kcore.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <perfev/disasm.h>
#include "common/array.h"
#include "symbols/capstone.h"
#include "symbols/symbolizer-internal.h"

static int disasm_errno(cs_err e)
{
	switch (e) {
	case CS_ERR_MEM:
		return -ENOMEM;
	case CS_ERR_ARCH:
	case CS_ERR_MODE:
		return -ENOSYS;
	default:
		return -EINVAL;
	}
}

/* Jump, call or return, and the direct target, from capstone's groups and operands. */
static void classify(const cs_insn *ci, struct perfev_insn *in)
{
	const cs_detail *d = ci->detail;
	uint8_t g;

	if (!d)
		return;
	for (g = 0; g < d->groups_count; g++) {
		switch (d->groups[g]) {
		case CS_GRP_JUMP:
			in->flags |= PERFEV_INSN_JUMP;
			break;
		case CS_GRP_CALL:
			in->flags |= PERFEV_INSN_CALL;
			break;
		case CS_GRP_RET:
			in->flags |= PERFEV_INSN_RET;
			break;
		default:
			break;
		}
	}
	if ((in->flags & (PERFEV_INSN_JUMP | PERFEV_INSN_CALL)) && d->x86.op_count == 1 &&
	    d->x86.operands[0].type == X86_OP_IMM) {
		in->target = (uint64_t)d->x86.operands[0].imm;
		in->flags |= PERFEV_INSN_TARGET;
	}
}

int perfev_disasm_x86(const void *code, size_t len, uint64_t addr, unsigned int flags,
		      struct perfev_insn **out, size_t *n)
{
	const uint8_t *p = code;
	struct perfev_insn *v = NULL;
	size_t cap = 0, cnt = 0;
	const struct perfev__capstone *cs;
	cs_insn *ci;
	cs_err e;
	csh h;

	if (!out || !n || (!code && len) || (flags & ~(PERFEV_DISASM_INTEL | PERFEV_DISASM_32)))
		return -EINVAL;
	*out = NULL;
	*n = 0;
	cs = perfev__capstone();
	if (!cs)
		return -errno;
	e = cs->open(CS_ARCH_X86, flags & PERFEV_DISASM_32 ? CS_MODE_32 : CS_MODE_64, &h);
	if (e != CS_ERR_OK)
		return disasm_errno(e);
	cs->option(h, CS_OPT_DETAIL, CS_OPT_ON);
	if (!(flags & PERFEV_DISASM_INTEL))
		cs->option(h, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	ci = cs->malloc(h);
	if (!ci) {
		cs->close(&h);
		return -ENOMEM;
	}
	while (len) {
		struct perfev_insn *in;

		if (perfev__grow(&v, &cap, cnt + 1, sizeof(*v))) {
			free(v);
			cs->free(ci, 1);
			cs->close(&h);
			return -ENOMEM;
		}
		in = &v[cnt++];
		memset(in, 0, sizeof(*in));
		in->addr = addr;
		if (cs->disasm_iter(h, &p, &len, &addr, ci)) {
			in->size = ci->size;
			memcpy(in->bytes, ci->bytes, ci->size < 16 ? ci->size : 16);
			snprintf(in->mnemonic, sizeof(in->mnemonic), "%s", ci->mnemonic);
			snprintf(in->operands, sizeof(in->operands), "%s", ci->op_str);
			classify(ci, in);
			continue;
		}
		/* No instruction here: one byte as data, then try again after it. */
		in->size = 1;
		in->bytes[0] = *p;
		in->flags = PERFEV_INSN_BAD;
		snprintf(in->mnemonic, sizeof(in->mnemonic), ".byte");
		snprintf(in->operands, sizeof(in->operands), "0x%x", *p);
		p++;
		len--;
		addr++;
	}
	cs->free(ci, 1);
	cs->close(&h);
	*out = v;
	*n = cnt;
	return 0;
}

void perfev_disasm_free(struct perfev_insn *insns)
{
	free(insns);
}

/*
 * Up to @len bytes at address @addr of the ELF file @elf (open on @fd),
 * through the PT_LOAD segment whose file bytes hold it.
 */
static int elf_read_vaddr(Elf *elf, int fd, uint64_t addr, void *buf, size_t len)
{
	size_t nph, i;

	if (elf_getphdrnum(elf, &nph))
		return -ENODATA;
	for (i = 0; i < nph; i++) {
		GElf_Phdr ph;
		size_t want;
		ssize_t got;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (addr < ph.p_vaddr || addr - ph.p_vaddr >= ph.p_filesz)
			continue;
		want = ph.p_filesz - (addr - ph.p_vaddr);
		if (want > len)
			want = len;
		if (fd >= 0) {
			got = pread(fd, buf, want, (off_t)(ph.p_offset + (addr - ph.p_vaddr)));
			if (got < 0)
				return -errno;
			return (int)got;
		} else {
			Elf_Data *d = elf_getdata_rawchunk(
			    elf, (int64_t)(ph.p_offset + (addr - ph.p_vaddr)), want, ELF_T_BYTE);

			if (!d || !d->d_buf)
				return -ENODATA;
			memcpy(buf, d->d_buf, want);
			return (int)want;
		}
	}
	return -ERANGE;
}

int perfev_symbolize_code(struct perfev_symbolizer *s, const char *path, uint64_t map_start,
			  uint64_t pgoff, uint64_t ip, void *buf, size_t len)
{
	Dwfl_Module *mod;
	uint64_t vaddr, bias;
	GElf_Addr b;
	Elf *elf;
	int err;

	if (!buf || len > INT32_MAX)
		return -EINVAL;
	err = perfev__symbolizer_module(s, path, map_start, pgoff, ip, &mod, &vaddr, &bias);
	if (err)
		return err;
	elf = mod ? dwfl_module_getelf(mod, &b) : NULL;
	if (!elf)
		return -ENODATA;
	return elf_read_vaddr(elf, -1, vaddr, buf, len);
}

int perfev_kcore_read(const char *procfs_root, uint64_t addr, void *buf, size_t len)
{
	char path[4096];
	GElf_Ehdr eh;
	Elf *elf;
	int fd, err;

	if (!buf || len > INT32_MAX)
		return -EINVAL;
	if (snprintf(path, sizeof(path), "%s/kcore", procfs_root ? procfs_root : "/proc") >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	/* Headers only: the file's size is the kernel's address space, never read whole. */
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || !gelf_getehdr(elf, &eh) || eh.e_type != ET_CORE)
		err = -ENODATA;
	else
		err = elf_read_vaddr(elf, fd, addr, buf, len);
	elf_end(elf);
	close(fd);
	return err;
}
