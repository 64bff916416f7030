// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Source lines and inlined frames of user-space addresses, from DWARF
 * through elfutils (libdw/libdwfl), for the files the symbolizer opened.
 *
 * The line of the address itself comes from the CU's line table.  The
 * inlined frames come from the DIE tree: the subprogram holding the
 * address, then each DW_TAG_inlined_subroutine nested in it that also
 * holds it.  An inlined instance's DW_AT_call_file/DW_AT_call_line is
 * the line, in the function around it, that the inlined code stands for.
 * (dwarf_getscopes() is not used: past an inlined instance it continues
 * with the scopes of the abstract definition, not with the caller.)
 *
 * Finding the subprogram by walking the CU's top-level DIEs costs a walk
 * over the whole CU per address (about 12us an address on a 400 KB
 * program, four times addr2line), so each CU's functions are indexed by
 * address range at its first lookup and searched by bisection.
 *
 * Answers are cached per (module, ELF address), misses too, since a
 * profile asks for the same few thousand addresses over and over.  File
 * and function names point into libdw's data, which lives as long as the
 * symbolizer; relative file names are joined with the CU's compilation
 * directory once and kept in the cache.
 */
#include <dwarf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <perfev/symbols.h>
#include "common/internal.h"
#include "symbols/symbolizer-internal.h"

/* One address's answer: entries [first, first + n) of the cache's array. */
struct addr_slot {
	Dwfl_Module *mod; /* NULL: an empty slot */
	uint64_t vaddr;
	uint32_t first, n;
};

/* A relative file name joined with its compilation directory. */
struct name_slot {
	const char *raw, *dir; /* libdw's strings; raw NULL: an empty slot */
	char *joined;
};

/* A function's address range; the functions of a CU are sorted by lo. */
struct fn_range {
	uint64_t lo, hi;
	uint64_t maxhi; /* the largest hi of this range and every one before it */
	Dwarf_Die die;
};

/* The functions of one CU, indexed at the first lookup in it. */
struct cu_slot {
	const void *key; /* the CU DIE's address in the debug data; NULL: an empty slot */
	struct fn_range *fns;
	size_t nfns;
};

/*
 * A module's CUs by address range, for files without .debug_aranges
 * (clang emits none), where libdwfl finds no CU for an address.  Built
 * at the first address libdwfl finds no CU for.
 */
struct cu_range {
	uint64_t lo, hi;
	Dwarf_Die cu;
	Dwarf_Addr bias;
};

struct mod_slot {
	Dwfl_Module *mod; /* NULL: an empty slot */
	struct cu_range *v;
	size_t n;
};

struct srcline_cache {
	struct addr_slot *addrs; /* open addressing, a power of two */
	size_t naddrs, addrcap;
	struct mod_slot *mods; /* open addressing, a power of two */
	size_t nmods, modcap;
	struct cu_slot *cus; /* open addressing, a power of two */
	size_t ncus, cucap;
	struct perfev_srcline *ents;
	size_t nents, entcap;
	struct name_slot *names; /* open addressing, a power of two */
	size_t nnames, namecap;
};

void perfev__srcline_cache_free(void *cache)
{
	struct srcline_cache *c = cache;
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->namecap; i++)
		free(c->names[i].joined);
	for (i = 0; i < c->cucap; i++)
		free(c->cus[i].fns);
	free(c->cus);
	for (i = 0; i < c->modcap; i++)
		free(c->mods[i].v);
	free(c->mods);
	free(c->names);
	free(c->ents);
	free(c->addrs);
	free(c);
}

static uint64_t mix(uint64_t a, uint64_t b)
{
	uint64_t h = (a ^ (b * 0x9e3779b97f4a7c15ULL)) * 0xff51afd7ed558ccdULL;

	return h ^ (h >> 32);
}

static struct addr_slot *addr_slot(struct addr_slot *t, size_t cap, Dwfl_Module *mod,
				   uint64_t vaddr)
{
	size_t i = (size_t)mix((uintptr_t)mod, vaddr) & (cap - 1);

	while (t[i].mod && (t[i].mod != mod || t[i].vaddr != vaddr))
		i = (i + 1) & (cap - 1);
	return &t[i];
}

static int addr_grow(struct srcline_cache *c)
{
	size_t cap = c->addrcap ? c->addrcap * 2 : 256, i;
	struct addr_slot *t;

	if (cap > SIZE_MAX / sizeof(*t))
		return -ENOMEM;
	t = calloc(cap, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (i = 0; i < c->addrcap; i++)
		if (c->addrs[i].mod)
			*addr_slot(t, cap, c->addrs[i].mod, c->addrs[i].vaddr) = c->addrs[i];
	free(c->addrs);
	c->addrs = t;
	c->addrcap = cap;
	return 0;
}

static struct name_slot *name_slot(struct name_slot *t, size_t cap, const char *raw,
				   const char *dir)
{
	size_t i = (size_t)mix((uintptr_t)raw, (uintptr_t)dir) & (cap - 1);

	while (t[i].raw && (t[i].raw != raw || t[i].dir != dir))
		i = (i + 1) & (cap - 1);
	return &t[i];
}

static int name_grow(struct srcline_cache *c)
{
	size_t cap = c->namecap ? c->namecap * 2 : 64, i;
	struct name_slot *t;

	t = calloc(cap, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (i = 0; i < c->namecap; i++)
		if (c->names[i].raw)
			*name_slot(t, cap, c->names[i].raw, c->names[i].dir) = c->names[i];
	free(c->names);
	c->names = t;
	c->namecap = cap;
	return 0;
}

/*
 * The path of a file as DWARF names it: @raw itself when absolute (or no
 * directory is known), else joined with the compilation directory @dir.
 * NULL only when out of memory.
 */
static const char *file_path(struct srcline_cache *c, const char *raw, const char *dir)
{
	struct name_slot *sl;
	size_t dl, rl;

	if (raw[0] == '/' || !dir || !dir[0])
		return raw;
	if ((c->nnames + 1) * 2 > c->namecap && name_grow(c))
		return NULL;
	sl = name_slot(c->names, c->namecap, raw, dir);
	if (sl->raw)
		return sl->joined;
	dl = strlen(dir);
	rl = strlen(raw);
	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	sl->joined = malloc(dl + rl + 2);
	if (!sl->joined)
		return NULL;
	memcpy(sl->joined, dir, dl);
	sl->joined[dl] = '/';
	memcpy(sl->joined + dl + 1, raw, rl + 1);
	sl->raw = raw;
	sl->dir = dir;
	c->nnames++;
	return sl->joined;
}

/* A function's name as the symbol table has it: the linkage name, else the plain one. */
static const char *die_func_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name = NULL;

	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr))
		name = dwarf_formstring(&attr);
	return name ? name : dwarf_diename(die);
}

/* The subprogram and inlined instances holding @pc, outermost first. */
struct chain {
	Dwarf_Die *dies;
	size_t n, cap;
};

/*
 * Descend from @parent (a function holding @pc) to the innermost DIE
 * holding @pc, appending each function and inlined instance on the way.
 * Only DIEs with addresses that hold @pc are entered (code blocks do not
 * overlap): the first one found is the way down.  Returns 1 when one was
 * appended, 0 when none, -ENOMEM.
 */
static int descend(Dwarf_Die *parent, Dwarf_Addr pc, struct chain *ch)
{
	Dwarf_Die child;
	int err;

	if (dwarf_child(parent, &child) != 0)
		return 0;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_entry_point:
			if (dwarf_haspc(&child, pc) != 1)
				break;
			if (perfev__grow(&ch->dies, &ch->cap, ch->n + 1, sizeof(*ch->dies)))
				return -ENOMEM;
			ch->dies[ch->n++] = child;
			err = descend(&child, pc, ch);
			return err < 0 ? err : 1;
		case DW_TAG_lexical_block:
		case DW_TAG_try_block:
		case DW_TAG_catch_block:
		case DW_TAG_with_stmt:
			if (dwarf_haspc(&child, pc) == 1)
				return descend(&child, pc, ch);
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

static struct cu_slot *cu_slot(struct cu_slot *t, size_t cap, const void *key)
{
	size_t i = (size_t)mix((uintptr_t)key, 0) & (cap - 1);

	while (t[i].key && t[i].key != key)
		i = (i + 1) & (cap - 1);
	return &t[i];
}

static int cu_grow(struct srcline_cache *c)
{
	size_t cap = c->cucap ? c->cucap * 2 : 64, i;
	struct cu_slot *t;

	t = calloc(cap, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (i = 0; i < c->cucap; i++)
		if (c->cus[i].key)
			*cu_slot(t, cap, c->cus[i].key) = c->cus[i];
	free(c->cus);
	c->cus = t;
	c->cucap = cap;
	return 0;
}

struct fn_list {
	struct fn_range *v;
	size_t n, cap;
};

/*
 * Every function defined under @parent, with each of its address ranges:
 * at the CU's top level, in namespaces and types (C++), and nested in
 * other functions (GNU C).  Declarations and abstract inline definitions
 * have no ranges and are left out.
 */
static int index_fns(Dwarf_Die *parent, struct fn_list *l)
{
	Dwarf_Addr base, lo, hi;
	Dwarf_Die child;
	ptrdiff_t off;
	int err;

	if (dwarf_child(parent, &child) != 0)
		return 0;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_subprogram:
			off = 0;
			while ((off = dwarf_ranges(&child, off, &base, &lo, &hi)) > 0) {
				if (lo >= hi)
					continue;
				if (perfev__grow(&l->v, &l->cap, l->n + 1, sizeof(*l->v)))
					return -ENOMEM;
				l->v[l->n].lo = lo;
				l->v[l->n].hi = hi;
				l->v[l->n].die = child;
				l->n++;
			}
			/* fallthrough */
		case DW_TAG_lexical_block:
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			err = index_fns(&child, l);
			if (err)
				return err;
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

static int cmp_fn(const void *a, const void *b)
{
	const struct fn_range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	/* Of two starting together, the smaller (the nested one) last: found first. */
	return x->hi > y->hi ? -1 : x->hi < y->hi;
}

/* The function index of @cu, built at the first call.  NULL when out of memory. */
static struct cu_slot *cu_index(struct srcline_cache *c, Dwarf_Die *cu)
{
	struct fn_list l = {0};
	struct cu_slot *cs;
	uint64_t maxhi = 0;
	size_t i;

	if ((c->ncus + 1) * 2 > c->cucap && cu_grow(c))
		return NULL;
	cs = cu_slot(c->cus, c->cucap, cu->addr);
	if (cs->key)
		return cs;
	if (index_fns(cu, &l)) {
		free(l.v);
		return NULL;
	}
	if (l.n)
		qsort(l.v, l.n, sizeof(*l.v), cmp_fn);
	for (i = 0; i < l.n; i++) {
		if (l.v[i].hi > maxhi)
			maxhi = l.v[i].hi;
		l.v[i].maxhi = maxhi;
	}
	cs->key = cu->addr;
	cs->fns = l.v;
	cs->nfns = l.n;
	c->ncus++;
	return cs;
}

/*
 * The chain of @pc in @cu: the innermost function whose ranges hold it
 * (the CU's index, searched by address), then the inlined instances
 * inside it.  0 and an empty chain when no function holds @pc.
 */
static int find_chain(struct srcline_cache *c, Dwarf_Die *cu, Dwarf_Addr pc, struct chain *ch)
{
	const struct fn_range *fn = NULL;
	struct cu_slot *cs = cu_index(c, cu);
	Dwarf_Die top;
	size_t lo = 0, hi, mid;

	if (!cs)
		return -ENOMEM;
	/* The last range starting at or before @pc, then back while one may still hold it. */
	hi = cs->nfns;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (cs->fns[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo-- > 0 && cs->fns[lo].maxhi > pc) {
		if (pc < cs->fns[lo].hi) {
			fn = &cs->fns[lo];
			break;
		}
	}
	if (!fn)
		return 0;
	if (perfev__grow(&ch->dies, &ch->cap, 1, sizeof(*ch->dies)))
		return -ENOMEM;
	top = fn->die;
	ch->dies[0] = top;
	ch->n = 1;
	return descend(&top, pc, ch);
}

static struct mod_slot *mod_slot(struct mod_slot *t, size_t cap, Dwfl_Module *mod)
{
	size_t i = (size_t)mix((uintptr_t)mod, 1) & (cap - 1);

	while (t[i].mod && t[i].mod != mod)
		i = (i + 1) & (cap - 1);
	return &t[i];
}

static int mod_grow(struct srcline_cache *c)
{
	size_t cap = c->modcap ? c->modcap * 2 : 16, i;
	struct mod_slot *t;

	t = calloc(cap, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (i = 0; i < c->modcap; i++)
		if (c->mods[i].mod)
			*mod_slot(t, cap, c->mods[i].mod) = c->mods[i];
	free(c->mods);
	c->mods = t;
	c->modcap = cap;
	return 0;
}

static int cmp_cu(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/*
 * The CU of @pc (an address of the module as libdwfl sees it) from the
 * ranges of every CU's DIE, into *@cu and *@bias.  Returns 1 when found,
 * 0 when not, -ENOMEM.
 */
static int cu_by_ranges(struct srcline_cache *c, Dwfl_Module *mod, Dwarf_Addr pc, Dwarf_Die *cu,
			Dwarf_Addr *bias)
{
	struct mod_slot *ms;
	Dwarf_Die *it = NULL;
	Dwarf_Addr b, base, lo, hi;
	size_t cap = 0, l = 0, h, mid;
	ptrdiff_t off;

	if ((c->nmods + 1) * 2 > c->modcap && mod_grow(c))
		return -ENOMEM;
	ms = mod_slot(c->mods, c->modcap, mod);
	if (!ms->mod) {
		while ((it = dwfl_module_nextcu(mod, it, &b))) {
			off = 0;
			while ((off = dwarf_ranges(it, off, &base, &lo, &hi)) > 0) {
				if (lo >= hi)
					continue;
				if (perfev__grow(&ms->v, &cap, ms->n + 1, sizeof(*ms->v))) {
					free(ms->v);
					ms->v = NULL;
					ms->n = 0;
					return -ENOMEM;
				}
				ms->v[ms->n++] = (struct cu_range){lo + b, hi + b, *it, b};
			}
		}
		if (ms->n)
			qsort(ms->v, ms->n, sizeof(*ms->v), cmp_cu);
		ms->mod = mod;
		c->nmods++;
	}
	/* CUs do not overlap: the last range starting at or before @pc. */
	h = ms->n;
	while (l < h) {
		mid = l + (h - l) / 2;
		if (ms->v[mid].lo <= pc)
			l = mid + 1;
		else
			h = mid;
	}
	if (!l || pc >= ms->v[l - 1].hi)
		return 0;
	*cu = ms->v[l - 1].cu;
	*bias = ms->v[l - 1].bias;
	return 1;
}

static int push(struct srcline_cache *c, const char *file, int line, const char *func)
{
	struct perfev_srcline *e;

	if (perfev__grow(&c->ents, &c->entcap, c->nents + 1, sizeof(*c->ents)))
		return -ENOMEM;
	e = &c->ents[c->nents++];
	e->file = file;
	e->line = line > 0 ? (uint32_t)line : 0;
	e->func = func;
	return 0;
}

/*
 * Compute the entries of @vaddr (an address of @mod's ELF file, @bias its
 * load bias) and append them to the cache's array.  No line: no entries.
 */
static int compute(struct srcline_cache *c, Dwfl_Module *mod, uint64_t vaddr, uint64_t bias)
{
	Dwarf_Addr pc = vaddr + bias, cubias = 0;
	struct chain ch = {0};
	Dwarf_Files *files = NULL;
	Dwarf_Attribute attr;
	const char *raw, *file, *func, *compdir;
	Dwarf_Die *cu, cubuf;
	Dwarf_Line *dl;
	int line = 0, err;
	size_t i;

	cu = dwfl_module_addrdie(mod, pc, &cubias);
	if (!cu) {
		err = cu_by_ranges(c, mod, pc, &cubuf, &cubias);
		if (err <= 0)
			return err;
		cu = &cubuf;
	}
	dl = dwarf_getsrc_die(cu, pc - cubias);
	raw = dl ? dwarf_linesrc(dl, NULL, NULL) : NULL;
	if (!raw || dwarf_lineno(dl, &line))
		return 0;
	compdir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr));
	err = find_chain(c, cu, pc - cubias, &ch);
	if (err < 0)
		goto out;
	if (ch.n > 1 && dwarf_getsrcfiles(cu, &files, NULL) != 0)
		files = NULL;
	file = file_path(c, raw, compdir);
	if (!file) {
		err = -ENOMEM;
		goto out;
	}
	/* The outermost function without a name in DWARF: the symbol's. */
	func = ch.n ? die_func_name(&ch.dies[ch.n - 1]) : NULL;
	if (!func && ch.n <= 1)
		func = dwfl_module_addrname(mod, pc);
	err = push(c, file, line, func);
	/* Each inlined instance, innermost first: where it was called from. */
	for (i = ch.n; !err && i-- > 1;) {
		Dwarf_Word fidx = 0, cline = 0;

		file = NULL;
		if (files &&
		    dwarf_formudata(dwarf_attr(&ch.dies[i], DW_AT_call_file, &attr), &fidx) == 0) {
			raw = dwarf_filesrc(files, fidx, NULL, NULL);
			if (raw && !(file = file_path(c, raw, compdir))) {
				err = -ENOMEM;
				break;
			}
		}
		if (dwarf_formudata(dwarf_attr(&ch.dies[i], DW_AT_call_line, &attr), &cline) ||
		    cline > INT32_MAX)
			cline = 0;
		func = die_func_name(&ch.dies[i - 1]);
		if (!func && i == 1)
			func = dwfl_module_addrname(mod, pc);
		err = push(c, file, (int)cline, func);
	}
out:
	free(ch.dies);
	return err;
}

int perfev_symbolize_lines(struct perfev_symbolizer *s, const char *path, uint64_t map_start,
			   uint64_t pgoff, uint64_t ip, struct perfev_srcline *out, size_t max)
{
	struct srcline_cache *c;
	struct addr_slot *sl;
	Dwfl_Module *mod;
	uint64_t vaddr, bias;
	size_t first, n;
	void **cp;
	int err;

	if (!s || !out || !max)
		return -EINVAL;
	err = perfev__symbolizer_module(s, path, map_start, pgoff, ip, &mod, &vaddr, &bias);
	if (err)
		return err;
	cp = perfev__symbolizer_lines(s);
	if (!*cp && !(*cp = calloc(1, sizeof(struct srcline_cache))))
		return -ENOMEM;
	c = *cp;
	if ((c->naddrs + 1) * 2 > c->addrcap && addr_grow(c))
		return -ENOMEM;
	sl = addr_slot(c->addrs, c->addrcap, mod, vaddr);
	if (!sl->mod) {
		first = c->nents;
		if (first > UINT32_MAX)
			return -ENOMEM;
		err = compute(c, mod, vaddr, bias);
		if (err) {
			c->nents = first;
			return err;
		}
		sl->mod = mod;
		sl->vaddr = vaddr;
		sl->first = (uint32_t)first;
		sl->n = (uint32_t)(c->nents - first);
		c->naddrs++;
	}
	n = sl->n < max ? sl->n : max;
	if (n)
		memcpy(out, c->ents + sl->first, n * sizeof(*out));
	return (int)n;
}
