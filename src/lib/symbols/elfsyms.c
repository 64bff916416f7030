// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The symbol table of one ELF file, built once from what libdwfl reads
 * (.symtab, or .dynsym when stripped, or the separate debug file's) and
 * then searched by address.  The table is the one perf builds: function,
 * object and text-label symbols, one per address, zero-size symbols
 * ending where the next one starts, and a NAME@plt symbol for each entry
 * of the PLT.  Names are demangled on first use, but for symbols sharing
 * an address, whose choice compares the names perf shows (demangled, as
 * perf compares them).
 */
#include <errno.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/internal.h"
#include "symbols/symtab.h"

struct esym {
	uint64_t start, end;
	uint64_t size; /* st_size */
	const char *name;
	char *dem;    /* demangled name, owned; NULL when not mangled */
	uint32_t ndx; /* order in the symbol table: the earlier wins a tie */
	bool weak, global;
	bool plt;      /* a PLT entry: shown as name@plt */
	bool dem_done; /* dem was computed */
};

struct perfev__elfsyms {
	struct esym *v;
	size_t n, cap;
	bool demangle, params;
};

static size_t underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

bool perfev__sym_better(const struct perfev__symrank *a, const struct perfev__symrank *b)
{
	size_t ua, ub, la, lb;

	if (!a->size != !b->size)
		return b->size != 0;
	if (a->weak != b->weak)
		return a->weak;
	if (a->global != b->global)
		return b->global;
	ua = underscores(a->name);
	ub = underscores(b->name);
	if (ua != ub)
		return ub < ua;
	la = strlen(a->name);
	lb = strlen(b->name);
	return lb > la;
}

static const char *shown(struct perfev__elfsyms *t, struct esym *e)
{
	if (!e->dem_done) {
		/* A name that cannot be demangled (or no memory for it) shows as it is. */
		char *d = t->demangle ? perfev__demangle(e->name, t->params) : NULL;

		if (e->plt) {
			if (asprintf(&e->dem, "%s@plt", d ? d : e->name) < 0)
				e->dem = NULL;
			free(d);
		} else {
			e->dem = d;
		}
		e->dem_done = true;
	}
	return e->dem ? e->dem : e->name;
}

static struct esym *add(struct perfev__elfsyms *t)
{
	struct esym *e;

	if (perfev__grow(&t->v, &t->cap, t->n + 1, sizeof(*t->v)))
		return NULL;
	e = &t->v[t->n++];
	memset(e, 0, sizeof(*e));
	return e;
}

static Elf_Scn *section(Elf *elf, size_t shstrndx, const char *want, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, shdr))
			continue;
		name = elf_strptr(elf, shstrndx, shdr->sh_name);
		if (name && !strcmp(name, want))
			return scn;
	}
	return NULL;
}

/*
 * The PLT's entries, named after the .dynsym symbols their relocations
 * (.rela.plt or .rel.plt) resolve, in order: in .plt.sec when the file
 * has one (indirect-branch tracking), else in .plt after its first entry,
 * which is the resolver's.  Returns -ENOMEM or 0 (also when there is no
 * PLT or it cannot be read).
 */
static int add_plt(struct perfev__elfsyms *t, Elf *elf)
{
	GElf_Shdr rel, plt, dynsym;
	Elf_Scn *rscn, *pscn, *dscn;
	Elf_Data *rdata, *ddata;
	uint64_t addr, entsize, header, n, i;
	GElf_Ehdr eh;
	size_t shstrndx;

	if (!elf || !gelf_getehdr(elf, &eh) || elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	rscn = section(elf, shstrndx, ".rela.plt", &rel);
	if (!rscn)
		rscn = section(elf, shstrndx, ".rel.plt", &rel);
	if (!rscn || !rel.sh_entsize || rel.sh_type == SHT_NOBITS)
		return 0;
	dscn = elf_getscn(elf, rel.sh_link);
	if (!dscn || !gelf_getshdr(dscn, &dynsym) || dynsym.sh_type != SHT_DYNSYM)
		return 0;
	pscn = section(elf, shstrndx, ".plt.sec", &plt);
	if (pscn) {
		header = 0;
		entsize = plt.sh_entsize ? plt.sh_entsize : 16;
	} else {
		pscn = section(elf, shstrndx, ".plt", &plt);
		if (!pscn)
			return 0;
		/* The sizes perf assumes: the section's entry size but on Arm. */
		if (eh.e_machine == EM_AARCH64) {
			header = 32;
			entsize = 16;
		} else if (eh.e_machine == EM_ARM) {
			header = 20;
			entsize = 12;
		} else {
			header = entsize = plt.sh_entsize;
		}
	}
	rdata = elf_getdata(rscn, NULL);
	ddata = elf_getdata(dscn, NULL);
	if (!entsize || !rdata || !ddata)
		return 0;
	n = rel.sh_size / rel.sh_entsize;
	addr = plt.sh_addr + header;
	for (i = 0; i < n && addr + entsize <= plt.sh_addr + plt.sh_size; i++, addr += entsize) {
		GElf_Rela ra;
		GElf_Rel r;
		GElf_Sym sym;
		uint64_t info;
		const char *name;
		struct esym *e;

		if (rel.sh_type == SHT_RELA) {
			if (!gelf_getrela(rdata, (int)i, &ra))
				break;
			info = ra.r_info;
		} else {
			if (!gelf_getrel(rdata, (int)i, &r))
				break;
			info = r.r_info;
		}
		if (!gelf_getsym(ddata, (int)GELF_R_SYM(info), &sym))
			continue;
		/* An IFUNC's entry (IRELATIVE) has no symbol: perf 6.1 calls it "@plt". */
		name = elf_strptr(elf, dynsym.sh_link, sym.st_name);
		if (!name)
			continue;
		e = add(t);
		if (!e)
			return -ENOMEM;
		e->start = addr;
		e->size = entsize;
		e->name = name;
		e->ndx = UINT32_MAX; /* after the file's own symbols in a tie */
		e->global = true;
		e->plt = true;
	}
	return 0;
}

static int cmp_start(const void *x, const void *y)
{
	const struct esym *a = x, *b = y;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->ndx < b->ndx ? -1 : a->ndx > b->ndx;
}

/* perf keeps NOTYPE symbols as labels only in text sections (".text" in the name). */
static bool text_label(Elf *elf, GElf_Word shndx)
{
	size_t shstrndx;
	GElf_Shdr shdr;
	Elf_Scn *scn;
	const char *sec;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		return false;
	scn = elf_getscn(elf, shndx);
	if (!scn || !gelf_getshdr(scn, &shdr))
		return false;
	sec = elf_strptr(elf, shstrndx, shdr.sh_name);
	return sec && strstr(sec, ".text");
}

static bool keep(const GElf_Sym *sym, const char *name, GElf_Word shndx, Elf *elf)
{
	/*
	 * Absolute symbols (a version script's names, OBJECT at 0) are in no
	 * section: perf never takes them for code, or they would cover every
	 * address up to the first function.
	 */
	if (!name || !*name || sym->st_shndx == SHN_UNDEF || sym->st_shndx == SHN_ABS ||
	    shndx == (GElf_Word)-1)
		return false;
	switch (GELF_ST_TYPE(sym->st_info)) {
	case STT_FUNC:
	case STT_GNU_IFUNC:
	case STT_OBJECT:
		return true;
	case STT_NOTYPE:
		return text_label(elf, shndx);
	default:
		return false;
	}
}

static void rank(struct perfev__elfsyms *t, struct esym *e, struct perfev__symrank *r)
{
	r->name = shown(t, e);
	r->size = e->size;
	r->weak = e->weak;
	r->global = e->global;
}

/* One symbol per address: the best of each run, as perf chooses it. */
static void dedupe(struct perfev__elfsyms *t)
{
	size_t i, j;

	for (i = 0, j = 0; i < t->n; i++) {
		if (j && t->v[j - 1].start == t->v[i].start) {
			struct perfev__symrank a, b;

			rank(t, &t->v[j - 1], &a);
			rank(t, &t->v[i], &b);
			if (perfev__sym_better(&a, &b)) {
				free(t->v[j - 1].dem);
				t->v[j - 1] = t->v[i];
			} else {
				free(t->v[i].dem);
			}
			continue;
		}
		t->v[j++] = t->v[i];
	}
	t->n = j;
}

/* Ends: by size, else at the next symbol, else (the last) one page past its own. */
static void fixup_ends(struct perfev__elfsyms *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		struct esym *e = &t->v[i];

		if (e->size)
			e->end = e->start + e->size < e->start ? UINT64_MAX : e->start + e->size;
		else if (i + 1 < t->n)
			e->end = t->v[i + 1].start;
		else if (e->start > UINT64_MAX - 2 * 4096)
			e->end = UINT64_MAX;
		else
			e->end = ((e->start + 4095) & ~(uint64_t)4095) + 4096;
	}
}

int perfev__elfsyms_build(Dwfl_Module *mod, uint64_t bias, bool demangle, bool params,
			  struct perfev__elfsyms **out)
{
	struct perfev__elfsyms *t;
	GElf_Addr mbias;
	int n, i;

	*out = NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->demangle = demangle;
	t->params = params;
	n = mod ? dwfl_module_getsymtab(mod) : -1;
	/* Index 0 is the null symbol. */
	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *elf = NULL;
		const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr, &shndx, &elf, NULL);
		struct esym *e;

		if (!keep(&sym, name, shndx, elf))
			continue;
		e = add(t);
		if (!e) {
			perfev__elfsyms_free(t);
			return -ENOMEM;
		}
		e->start = addr - bias;
		e->size = sym.st_size;
		e->name = name;
		e->ndx = (uint32_t)i;
		e->weak = GELF_ST_BIND(sym.st_info) == STB_WEAK;
		e->global = GELF_ST_BIND(sym.st_info) == STB_GLOBAL;
	}
	if (mod && add_plt(t, dwfl_module_getelf(mod, &mbias))) {
		perfev__elfsyms_free(t);
		return -ENOMEM;
	}
	if (t->n)
		qsort(t->v, t->n, sizeof(*t->v), cmp_start);
	dedupe(t);
	fixup_ends(t);
	*out = t;
	return 0;
}

void perfev__elfsyms_free(struct perfev__elfsyms *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->n; i++)
		free(t->v[i].dem);
	free(t->v);
	free(t);
}

size_t perfev__elfsyms_count(const struct perfev__elfsyms *t)
{
	return t ? t->n : 0;
}

/* How far back a lookup looks for a symbol that encloses the ones after it. */
#define ENCLOSING_MAX 8

int perfev__elfsyms_find(struct perfev__elfsyms *t, uint64_t vaddr, struct perfev_sym *out)
{
	size_t lo = 0, hi = t->n, k;

	/* The last symbol starting at or before @vaddr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].start <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Past its end: perhaps inside one that starts before and spans it. */
	for (k = 0; k < ENCLOSING_MAX && k < lo; k++) {
		struct esym *e = &t->v[lo - 1 - k];

		if (vaddr < e->end) {
			out->name = shown(t, e);
			out->start = e->start;
			out->size = e->end - e->start;
			return 0;
		}
	}
	return -ENOENT;
}
