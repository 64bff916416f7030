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

/* A relative file name joined with its compilation directory, found by the two. */
struct joined_name {
	const char *raw, *dir; /* libdw's strings */
	char path[];
};

/* A function's address range; the functions of a CU are sorted by lo. */
struct fn_range {
	uint64_t lo, hi;
	uint64_t maxhi; /* the largest hi of this range and every one before it */
	Dwarf_Die die;
};

/* The functions of one CU, indexed at the first lookup in it. */
struct cu_index {
	struct fn_range *fns;
	size_t nfns;
	bool built;
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

struct mod_cache {
	/* ELF address -> its answer: entries [v >> 32, (v >> 32) + (uint32_t)v) of the array */
	struct perfev__hashmap addrs;
	struct cu_range *cus;
	size_t ncus;
	bool cus_built;
};

struct srcline_cache {
	struct perfev__hashmap mods;  /* Dwfl_Module * -> struct mod_cache * */
	struct perfev__hashmap cus;   /* the CU DIE's address -> struct cu_index * */
	struct perfev__hashmap names; /* struct joined_name *, by its raw and dir */
	/* Every address's answer, one after another. */
	PERFEV__ARRAY(struct perfev_srcline) ents;
	struct perfev__arena mem; /* the mod_cache, cu_index and joined_name */
	/* The module of the last lookup: lookups come in runs of one module. */
	Dwfl_Module *last_mod;
	struct mod_cache *last_mc;
};

static uint64_t name_hash(uint64_t key, void *ctx)
{
	const struct joined_name *n = perfev__key_ptr(key);

	return perfev__hash_u64((uintptr_t)n->raw ^ perfev__hash_u64((uintptr_t)n->dir));
}

static bool name_equal(uint64_t a, uint64_t b, void *ctx)
{
	const struct joined_name *x = perfev__key_ptr(a), *y = perfev__key_ptr(b);

	return x->raw == y->raw && x->dir == y->dir;
}

static struct srcline_cache *cache_new(void)
{
	struct srcline_cache *c = calloc(1, sizeof(*c));

	if (c)
		perfev__hashmap_init(&c->names, name_hash, name_equal, NULL);
	return c;
}

void perfev__srcline_cache_free(void *cache)
{
	struct srcline_cache *c = cache;
	struct perfev__hashmap_entry *e;

	if (!c)
		return;
	perfev__hashmap_for_each(&c->cus, e)
		free(((struct cu_index *)perfev__key_ptr(e->value))->fns);
	perfev__hashmap_for_each(&c->mods, e) {
		struct mod_cache *mc = perfev__key_ptr(e->value);

		perfev__hashmap_release(&mc->addrs);
		free(mc->cus);
	}
	perfev__hashmap_release(&c->cus);
	perfev__hashmap_release(&c->mods);
	perfev__hashmap_release(&c->names);
	perfev__array_release(&c->ents);
	perfev__arena_release(&c->mem);
	free(c);
}

/*
 * The value of @key in @m, added when absent as a new zeroed piece of
 * @size bytes from the cache's arena.  NULL when out of memory.
 */
static void *find_or_new(struct srcline_cache *c, struct perfev__hashmap *m, uint64_t key,
			 size_t size)
{
	struct perfev__hashmap_entry *e;
	bool added;
	void *p;

	e = perfev__hashmap_upsert(m, key, &added);
	if (!e)
		return NULL;
	if (!added)
		return perfev__key_ptr(e->value);
	p = perfev__arena_alloc(&c->mem, size, 16);
	if (!p) {
		perfev__hashmap_delete(m, key, NULL, NULL);
		return NULL;
	}
	e->value = perfev__ptr_key(p);
	return p;
}

/*
 * The path of a file as DWARF names it: @raw itself when absolute (or no
 * directory is known), else joined with the compilation directory @dir.
 * NULL only when out of memory.
 */
static const char *file_path(struct srcline_cache *c, const char *raw, const char *dir)
{
	struct joined_name want = {raw, dir}, *n;
	struct perfev__hashmap_entry *e;
	size_t dl, rl;
	bool added;

	if (raw[0] == '/' || !dir || !dir[0])
		return raw;
	e = perfev__hashmap_upsert(&c->names, perfev__ptr_key(&want), &added);
	if (!e)
		return NULL;
	if (!added)
		return ((struct joined_name *)perfev__key_ptr(e->key))->path;
	dl = strlen(dir);
	rl = strlen(raw);
	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	n = perfev__arena_alloc(&c->mem, sizeof(*n) + dl + rl + 2, 16);
	if (!n) {
		perfev__hashmap_delete(&c->names, perfev__ptr_key(&want), NULL, NULL);
		return NULL;
	}
	n->raw = raw;
	n->dir = dir;
	memcpy(n->path, dir, dl);
	n->path[dl] = '/';
	memcpy(n->path + dl + 1, raw, rl + 1);
	e->key = perfev__ptr_key(n);
	return n->path;
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
static struct cu_index *cu_index(struct srcline_cache *c, Dwarf_Die *cu)
{
	struct fn_list l = {0};
	struct cu_index *cs;
	uint64_t maxhi = 0;
	size_t i;

	cs = find_or_new(c, &c->cus, perfev__ptr_key(cu->addr), sizeof(*cs));
	if (!cs || cs->built)
		return cs;
	if (index_fns(cu, &l)) {
		free(l.v);
		perfev__hashmap_delete(&c->cus, perfev__ptr_key(cu->addr), NULL, NULL);
		return NULL;
	}
	if (l.n)
		qsort(l.v, l.n, sizeof(*l.v), cmp_fn);
	for (i = 0; i < l.n; i++) {
		if (l.v[i].hi > maxhi)
			maxhi = l.v[i].hi;
		l.v[i].maxhi = maxhi;
	}
	cs->fns = l.v;
	cs->nfns = l.n;
	cs->built = true;
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
	struct cu_index *cs = cu_index(c, cu);
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

static int cmp_cu(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The CU DIE offsets .debug_aranges names, sorted, into *@out (NULL and
 * 0 without aranges).  Returns how many, or -ENOMEM.
 */
static ssize_t aranges_cus(Dwarf *dw, uint64_t **out)
{
	Dwarf_Aranges *ar;
	size_t nar = 0, i, n = 0;
	uint64_t *v;

	*out = NULL;
	if (dwarf_getaranges(dw, &ar, &nar) || !nar)
		return 0;
	v = malloc(nar * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < nar; i++) {
		Dwarf_Addr a;
		Dwarf_Word len;
		Dwarf_Off off;

		if (!dwarf_getarangeinfo(dwarf_onearange(ar, i), &a, &len, &off))
			v[n++] = off;
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	*out = v;
	return (ssize_t)n;
}

/*
 * The ranges of the CUs .debug_aranges leaves out (some compilers write
 * none; libdwfl's lookup finds only what it lists), sorted into @mc.
 * Reading a CU's ranges costs its DIE's abbreviations: the CUs aranges
 * names, whose addresses libdwfl has already searched, are skipped.
 */
static int build_cus(struct mod_cache *mc, Dwfl_Module *mod)
{
	Dwarf_Addr b = 0, base, lo, hi;
	Dwarf_Off off = 0, next;
	uint64_t *listed;
	size_t cap = 0, hsize;
	ssize_t nlisted;
	ptrdiff_t r;
	Dwarf *dw;

	mc->cus_built = true;
	dw = dwfl_module_getdwarf(mod, &b);
	if (!dw)
		return 0;
	nlisted = aranges_cus(dw, &listed);
	if (nlisted < 0)
		return -ENOMEM;
	while (dwarf_next_unit(dw, off, &next, &hsize, NULL, NULL, NULL, NULL, NULL, NULL) == 0) {
		uint64_t die_off = off + hsize;
		Dwarf_Die die;

		if (!(nlisted &&
		      bsearch(&die_off, listed, (size_t)nlisted, sizeof(*listed), cmp_u64)) &&
		    dwarf_offdie(dw, die_off, &die)) {
			r = 0;
			while ((r = dwarf_ranges(&die, r, &base, &lo, &hi)) > 0) {
				if (lo >= hi)
					continue;
				if (perfev__grow(&mc->cus, &cap, mc->ncus + 1, sizeof(*mc->cus))) {
					free(listed);
					return -ENOMEM;
				}
				mc->cus[mc->ncus++] = (struct cu_range){lo + b, hi + b, die, b};
			}
		}
		off = next;
	}
	free(listed);
	if (mc->ncus)
		qsort(mc->cus, mc->ncus, sizeof(*mc->cus), cmp_cu);
	return 0;
}

/*
 * The CU of @pc (an address of the module as libdwfl sees it) among
 * those .debug_aranges leaves out, into *@cu and *@bias.  Returns 1 when
 * found, 0 when not, -ENOMEM.
 */
static int cu_by_ranges(struct mod_cache *mc, Dwfl_Module *mod, Dwarf_Addr pc, Dwarf_Die *cu,
			Dwarf_Addr *bias)
{
	size_t l = 0, h, mid;

	if (!mc->cus_built && build_cus(mc, mod)) {
		free(mc->cus);
		mc->cus = NULL;
		mc->ncus = 0;
		return -ENOMEM;
	}
	/* CUs do not overlap: the last range starting at or before @pc. */
	h = mc->ncus;
	while (l < h) {
		mid = l + (h - l) / 2;
		if (mc->cus[mid].lo <= pc)
			l = mid + 1;
		else
			h = mid;
	}
	if (!l || pc >= mc->cus[l - 1].hi)
		return 0;
	*cu = mc->cus[l - 1].cu;
	*bias = mc->cus[l - 1].bias;
	return 1;
}

static int push(struct srcline_cache *c, const char *file, int line, const char *func)
{
	struct perfev_srcline *e = perfev__array_push(&c->ents);

	if (!e)
		return -ENOMEM;
	e->file = file;
	e->line = line > 0 ? (uint32_t)line : 0;
	e->func = func;
	return 0;
}

/*
 * Compute the entries of @vaddr (an address of @mod's ELF file, @bias its
 * load bias) and append them to the cache's array.  No line: no entries.
 */
static int compute(struct srcline_cache *c, struct mod_cache *mc, Dwfl_Module *mod, uint64_t vaddr,
		   uint64_t bias)
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
		err = cu_by_ranges(mc, mod, pc, &cubuf, &cubias);
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
	struct perfev__hashmap_entry *e;
	struct srcline_cache *c;
	struct mod_cache *mc;
	Dwfl_Module *mod;
	uint64_t vaddr, bias;
	size_t first, n;
	bool added;
	void **cp;
	int err;

	if (!s || !out || !max)
		return -EINVAL;
	err = perfev__symbolizer_module(s, path, map_start, pgoff, ip, &mod, &vaddr, &bias);
	if (err)
		return err;
	cp = perfev__symbolizer_lines(s);
	if (!*cp && !(*cp = cache_new()))
		return -ENOMEM;
	c = *cp;
	mc = mod == c->last_mod ? c->last_mc
				: find_or_new(c, &c->mods, perfev__ptr_key(mod), sizeof(*mc));
	if (!mc)
		return -ENOMEM;
	c->last_mod = mod;
	c->last_mc = mc;
	e = perfev__hashmap_upsert(&mc->addrs, vaddr, &added);
	if (!e)
		return -ENOMEM;
	if (added) {
		first = c->ents.n;
		err = first > UINT32_MAX ? -ENOMEM : compute(c, mc, mod, vaddr, bias);
		if (err) {
			c->ents.n = first;
			perfev__hashmap_delete(&mc->addrs, vaddr, NULL, NULL);
			return err;
		}
		/* compute() changed no map of this module's addresses: @e still stands. */
		e->value = (uint64_t)first << 32 | (uint32_t)(c->ents.n - first);
	}
	first = (size_t)(e->value >> 32);
	n = (uint32_t)e->value;
	if (n > max)
		n = max;
	if (n)
		memcpy(out, c->ents.v + first, n * sizeof(*out));
	return (int)n;
}

int perfev_symbolize_has_dwarf(struct perfev_symbolizer *s, const char *path, uint64_t map_start,
			       uint64_t pgoff, uint64_t ip)
{
	Dwfl_Module *mod;
	uint64_t vaddr, bias;
	Dwarf_Addr b;
	int err;

	if (!s || !path)
		return -EINVAL;
	err = perfev__symbolizer_module(s, path, map_start, pgoff, ip, &mod, &vaddr, &bias);
	if (err)
		return err;
	return dwfl_module_getdwarf(mod, &b) ? 1 : 0;
}
