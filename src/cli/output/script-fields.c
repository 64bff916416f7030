// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev script: the -F fields of hardware samples, as perf script 6.1
 * prints them: data_src decoded as perf's mem fields (util/mem-events.c),
 * registers (iregs, uregs), branch stacks (brstack, brstacksym), source
 * lines and instruction bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "perfev-cli.h"
#include "script.h"
#include "output/data-src.h"

/* ---- data_src ------------------------------------------------------------------ */

void script_print_data_src(struct script *s, FILE *o, uint64_t v)
{
	char text[512], out[100];
	int len;

	/* perf decodes into 100 bytes, then prints into 100 with the value before. */
	data_src_text(v, text, sizeof(text));
	text[99] = 0;
	len = snprintf(out, sizeof(out), "%16" PRIx64 " %s", v, text);
	if (len > (int)sizeof(out) - 1)
		len = (int)sizeof(out) - 1;
	/* perf pads to the widest line printed so far. */
	if (s->data_src_width < len)
		s->data_src_width = len;
	fprintf(o, "%-*s", s->data_src_width, out);
}

/* ---- registers ----------------------------------------------------------------- */

void script_print_regs(struct script *s, FILE *o, uint64_t abi, const void *regs, uint64_t mask)
{
	const unsigned char *p = regs;
	unsigned int bit;

	if (!abi || !regs)
		return;
	fprintf(o, " ABI:%" PRIu64 " ", abi);
	for (bit = 0; bit < 64; bit++) {
		const char *name;
		uint64_t v;

		if (!(mask & (1ULL << bit)))
			continue;
		memcpy(&v, p, sizeof(v));
		p += sizeof(v);
		name = perfev_reg_name(s->arch[0] ? s->arch : NULL, bit);
		fprintf(o, "%5s:0x%" PRIx64 " ", name ? name : "unknown", v);
	}
}

/* ---- branch stacks ------------------------------------------------------------- */

/* The frame of a branch address: perf looks in the sample's context, then by the address. */
static const struct perfev_frame *branch_frame(struct script *s, uint32_t pid, uint64_t addr,
					       unsigned int flags)
{
	const struct perfev_frame *f;
	size_t n;
	int err;

	err = perfev_machine_resolve(s->m, pid, PERF_RECORD_MISC_CPUMODE_UNKNOWN, addr, flags, &f,
				     &n);
	if (err == -ENOMEM)
		cli_die("out of memory");
	return err || !n ? NULL : &f[n - 1];
}

static void print_dso(FILE *o, const struct perfev_frame *f)
{
	fprintf(o, "(%s)", f && f->dso ? f->dso : "[unknown]");
}

void script_print_brstack(struct script *s, FILE *o, unsigned int fields,
			  const struct perfev_sample *smp, bool syms)
{
	const unsigned char *p = smp->branches;
	uint64_t i;

	for (i = 0; p && i < smp->branch_nr; i++) {
		struct perfev_branch_entry e;
		const struct perfev_frame *f;
		const char *type;
		int side;

		memcpy(&e, p + i * sizeof(e), sizeof(e));
		for (side = 0; side < 2; side++) {
			uint64_t addr = side ? e.to : e.from;

			if (side)
				fputc('/', o);
			else if (!syms)
				fputc(' ', o);
			if (!syms && !(fields & SF_DSO)) {
				fprintf(o, "0x%" PRIx64, addr);
				continue;
			}
			f = branch_frame(s, smp->pid, addr, syms ? 0 : PERFEV_FRAMES_NO_SYMBOLS);
			if (!syms)
				fprintf(o, "0x%" PRIx64, addr);
			else if (f && f->sym)
				fprintf(o, "%s+0x%" PRIx64, f->sym, f->sym_off);
			else
				fputs("[unknown]", o);
			if (fields & SF_DSO)
				print_dso(o, f);
		}
		/* perf_branch_entry's bit-fields: mispred, predicted, in_tx, abort, cycles:16,
		 * type:4, spec:2, new_type:4. */
		type = perfev_branch_entry_type_name(e.flags >> 20 & 0xf, e.flags >> 26 & 0xf);
		fprintf(o, "/%c/%c/%c/%u/%s ",
			(e.flags & 2)	? 'P'
			: (e.flags & 1) ? 'M'
					: '-',
			(e.flags & 4) ? 'X' : '-', (e.flags & 8) ? 'A' : '-',
			(unsigned int)(e.flags >> 4 & 0xffff), type ? type : "");
	}
}

/* ---- source lines -------------------------------------------------------------- */

/* Whether the object of @f has DWARF to ask for lines, asked once per object. */
static bool has_dwarf(struct script *s, const struct perfev_frame *f)
{
	struct perfev__hashmap_entry *e;
	struct perfev_symbolizer *symz;
	bool added;

	e = perfev__hashmap_upsert(&s->dwarf_dsos, perfev__ptr_key(f->dso), &added);
	if (!e)
		cli_die("out of memory");
	if (added) {
		symz = perfev_machine_symbolizer(s->m);
		e->value =
		    symz && perfev_symbolize_has_dwarf(symz, f->dso, f->ip - f->addr, 0, f->ip) == 1
			? 1
			: 2;
	}
	return e->value == 1;
}

/*
 * "\n  file.c:42" after a frame, as perf's map__fprintf_srcline: nothing
 * outside every map, or in a function of a file whose debug information
 * does not know the address (addr2line's "??:0"); the object and the
 * address in it outside every function or where there is no debug
 * information to ask (a stripped file, the kernel without its vmlinux,
 * [vdso], anonymous or JIT code).
 */
void script_print_srcline(struct script *s, FILE *o, const struct perfev_frame *f)
{
	const char *base;

	if (!f->dso)
		return;
	if (f->file) {
		base = strrchr(f->file, '/');
		fprintf(o, "\n  %s:%" PRIu32, base ? base + 1 : f->file, f->line);
		return;
	}
	/* addr2line answers "??:0" for a function of a file with DWARF: nothing is printed. */
	if (f->sym && f->dso[0] == '/' && has_dwarf(s, f))
		return;
	base = f->dso[0] == '/' ? strrchr(f->dso, '/') + 1 : f->dso;
	fprintf(o, "\n  %s[%" PRIx64 "]", base, f->addr);
}

/* ---- instructions ------------------------------------------------------------- */

/*
 * An object file to read code from, mapped once: its index in
 * s->code.v plus 1 is its value in insn_files, 0 when it cannot be read.
 */
static const struct script_code *code_file(struct script *s, const char *path)
{
	struct perfev__hashmap_entry *e;
	struct script_code *c;
	struct stat st;
	bool added;
	void *p;
	int fd;

	e = perfev__hashmap_upsert(&s->insn_files, perfev__ptr_key(path), &added);
	if (!e)
		cli_die("out of memory");
	if (!added)
		return e->value ? &s->code.v[e->value - 1] : NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	p = fstat(fd, &st) || st.st_size < 5 || !S_ISREG(st.st_mode)
		? MAP_FAILED
		: mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return NULL;
	if (memcmp(p, "\177ELF", 4)) {
		munmap(p, (size_t)st.st_size);
		return NULL;
	}
	cli_grow(&s->code.v, &s->code.cap, s->code.n + 1, sizeof(*s->code.v));
	c = &s->code.v[s->code.n++];
	c->p = p;
	c->len = (size_t)st.st_size;
	c->is64 = c->p[4] == 2;
	e->value = s->code.n;
	return c;
}

int script_insn(struct script *s, uint32_t pid, uint64_t ip, unsigned char *buf)
{
	const struct script_code *c;
	const struct perfev_frame *f;
	size_t n;
	int len;

	if (!s->native)
		return 0;
	/* As perf: the map by the address alone, the bytes from the mapped file. */
	if (perfev_machine_resolve(s->m, pid, PERF_RECORD_MISC_CPUMODE_UNKNOWN, ip,
				   PERFEV_FRAMES_NO_SYMBOLS, &f, &n) ||
	    !n)
		return 0;
	f = &f[n - 1];
	if (!f->dso || f->dso[0] != '/' || (f->flags & (PERFEV_FRAME_ANON | PERFEV_FRAME_KERNEL)))
		return 0;
	c = code_file(s, f->dso);
	if (!c || f->addr >= c->len)
		return 0;
	n = c->len - f->addr < 16 ? c->len - f->addr : 16;
	memcpy(buf, c->p + f->addr, n);
	len = perfev_insn_len_x86(buf, n, c->is64);
	if (len == -ENOTSUP && !s->insn_warned) {
		s->insn_warned = true;
		cli_error("warning: the insn field stays empty: capstone's shared library cannot "
			  "be loaded "
			  "(install the Debian package libcapstone4)");
	}
	return len > 0 ? len : 0;
}

void script_print_insn(struct script *s, FILE *o, uint32_t pid, uint64_t ip)
{
	unsigned char buf[16];
	int len = script_insn(s, pid, ip, buf), i;

	if (!len)
		return;
	fputs(" insn:", o);
	for (i = 0; i < len; i++)
		fprintf(o, " %02x", buf[i]);
}

/* Unmap the files script_print_insn() read. */
void script_insn_release(struct script *s)
{
	size_t i;

	for (i = 0; i < s->code.n; i++)
		munmap((void *)s->code.v[i].p, s->code.v[i].len);
	free(s->code.v);
	perfev__hashmap_release(&s->insn_files);
}
