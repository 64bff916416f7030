// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The machine's frames: addresses resolved to their map, symbol, source
 * line and inlined functions, each distinct resolution once (a sample's
 * frames are mostly addresses seen before, in the same file mapped the
 * same way); a sample's call chain read as perf reads it; user stacks
 * unwound through the DWARF call frame information for samples that
 * copied them (perf record --call-graph dwarf).
 *
 * The symbolizer is made at the first lookup, and kallsyms is read by it
 * at the first kernel lookup: a recording whose addresses are never
 * looked up costs neither.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/internal.h"
#include "profile/machine-internal.h"
#include "symbols/symbolizer-internal.h"

/* Inlined functions kept per address. */
#define MAX_INLINE 64

_Static_assert((int)PERFEV_UNWIND_NR_STOPS == (int)PERFEV__UNWIND_NR_STOPS,
	       "the public stop reasons are the unwinder's");
_Static_assert((int)PERFEV_UNWIND_SHORT == (int)PERFEV__UNWIND_SHORT &&
		   (int)PERFEV_UNWIND_ERROR == (int)PERFEV__UNWIND_ERROR,
	       "the public stop reasons are the unwinder's, in its order");

/* ---- the symbolizer --------------------------------------------------------------- */

static struct perfev_symbolizer *symbolizer(struct perfev_machine *m)
{
	struct perfev__hashmap_entry *e;
	int err;

	if (m->symz || m->symz_err)
		return m->symz;
	err = perfev_symbolizer_new(&m->sopts, &m->symz);
	if (err) {
		/* Said once: every symbol is then unknown, the rest holds. */
		m->symz_err = err;
		pr_warn("cannot set up symbol lookups: %s; symbols are shown as [unknown]",
			perfev_strerror(err));
		return NULL;
	}
	perfev__hashmap_for_each(&m->build_ids, e) {
		const struct pm_build_id *b = perfev__key_ptr(e->value);

		(void)perfev_symbolizer_set_build_id(m->symz, perfev__key_ptr(e->key), b->id,
						     b->len);
	}
	return m->symz;
}

struct perfev_symbolizer *perfev_machine_symbolizer(struct perfev_machine *m)
{
	return m ? symbolizer(m) : NULL;
}

/* Why kernel addresses stay unresolved, said once (perf says it too). */
static void warn_kernel(struct perfev_machine *m, int err)
{
	if (m->kernel_warned)
		return;
	m->kernel_warned = true;
	if (err == -ESTALE)
		pr_warn(
		    "kernel symbols are not shown: the recording's kernel (build id %s) is not "
		    "the one running, and perf's build-id cache has no kallsyms of it (give the "
		    "recording machine's /proc/kallsyms with --kallsyms FILE)",
		    m->kernel_id);
	else
		pr_warn(
		    "kernel symbols are not shown: the kallsyms read (%s) has no '%s', by which "
		    "the recording placed the kernel (its addresses hidden by kptr_restrict, or "
		    "another kernel's symbols?)",
		    m->sopts.kallsyms ? m->sopts.kallsyms
				      : "this machine's, or perf's build-id cache's",
		    m->kernel_ref ? m->kernel_ref : "_text");
}

/*
 * The symbol of @addr in @map (NULL: none) of process @pid: a kernel
 * symbol, a KSYMBOL's name, the symbol of a file's map, of the vDSO, or
 * of a JIT's map for anonymous memory.  0, or -ENOENT when there is no
 * symbol to show (perf's "[unknown]"), or another -errno of the lookup.
 */
static int symbolize(struct perfev_machine *m, uint32_t pid, const struct pm_map *map, bool kernel,
		     uint64_t addr, const char **name, uint64_t *off)
{
	struct perfev_symbolizer *symz;
	struct perfev_sym sym;
	const char *module;
	int err;

	if (!map)
		return -ENOENT;
	if (kernel && map->identity && map->dso[0] != '[') {
		/* A BPF program or trampoline (KSYMBOL): perf names its symbol after the map. */
		*name = map->dso;
		*off = addr - map->start;
		return 0;
	}
	/* [stack], [heap] and the like: no symbols. */
	if (!kernel && !map->identity && map->dso[0] != '/' && strcmp(map->dso, "[vdso]"))
		return -ENOENT;
	symz = symbolizer(m);
	if (!symz)
		return m->symz_err;
	if (kernel && m->kernel_ref && m->kref_told != m->kernel_ref_addr &&
	    !perfev_symbolizer_set_kernel_ref(symz, m->kernel_ref, m->kernel_ref_addr))
		m->kref_told = m->kernel_ref_addr;
	if (kernel)
		err = perfev_symbolize_kernel(symz, addr, &sym, &module);
	else if (map->identity) /* anonymous memory: code a JIT may have named */
		err = perfev_symbolize_jit(symz, (pid_t)pid, addr, &sym);
	else if (!strcmp(map->dso, "[vdso]"))
		err = perfev_symbolize_vdso(symz, map->start, map->pgoff, addr, &sym);
	else
		err = perfev_symbolize_user(symz, map->dso, map->start, map->pgoff, addr, &sym);
	if (kernel && (err == -ESTALE || err == -ENODATA))
		warn_kernel(m, err);
	if (err)
		return err;
	if (!sym.name)
		return -ENOENT;
	*name = sym.name;
	*off = sym.addr - sym.start;
	return 0;
}

/* A function's name from DWARF (a linkage name), demangled unless asked not to; interned. */
static const char *dwarf_name(struct perfev_machine *m, const char *func)
{
	char buf[1024];

	if (!func)
		return NULL;
	if (m->sopts.no_demangle || perfev_demangle(func, 0, buf, sizeof(buf)) < 0)
		return func;
	return perfev__machine_intern(m, buf);
}

/* ---- resolving an address ------------------------------------------------------------ */

static struct perfev_frame *pool_push(struct perfev_machine *m, const struct perfev_frame *f);

/*
 * perf's frames of an address its unwinder found (append_inlines): each
 * function DWARF names there, innermost first, the outermost included;
 * one named otherwise than the symbol @f found is an inlined function
 * (perf gives it a symbol of its own, at the real one's start), one
 * named alike is that symbol.  Returns how many, or -ENOMEM.
 */
static int perf_inlines(struct perfev_machine *m, const struct perfev_frame *f,
			const struct perfev_srcline *lines, int n, unsigned int how)
{
	size_t before = m->pool.n;
	int i;

	for (i = 0; i < n; i++) {
		struct perfev_frame in = *f;
		const char *name = lines[i].func ? dwarf_name(m, lines[i].func) : "??";

		if (!name)
			goto nomem;
		if (strcmp(name, f->sym)) {
			in.sym = name;
			in.flags |= PERFEV_FRAME_INLINED;
		}
		if (how & PERFEV_FRAMES_SRCLINE) {
			in.file = lines[i].file;
			in.line = lines[i].line;
		}
		if (!pool_push(m, &in))
			goto nomem;
	}
	return (int)(m->pool.n - before);
nomem:
	m->pool.n = before;
	return -ENOMEM;
}

static struct perfev_frame *pool_push(struct perfev_machine *m, const struct perfev_frame *f)
{
	struct perfev_frame *p = perfev__array_push(&m->pool);

	if (p) {
		*p = *f;
		p->id = (uint32_t)(m->pool.n - 1);
	}
	return p;
}

/*
 * The frames of @ip in @map (the address's map, or NULL) into the pool:
 * the inlined functions first when asked for, then the function.
 * Returns how many, or -ENOMEM.
 */
static int resolve_new(struct perfev_machine *m, const struct pm_map *map, uint32_t pid,
		       unsigned int cpumode, uint64_t ip, unsigned int how)
{
	struct perfev_srcline lines[MAX_INLINE];
	struct perfev_frame f = {0};
	size_t before = m->pool.n;
	bool kernel;
	int n = 0, i;

	kernel = cpumode == PERF_RECORD_MISC_KERNEL ||
		 (cpumode == PERF_RECORD_MISC_CPUMODE_UNKNOWN && ip >= m->kernel_start);
	f.ip = ip;
	f.addr = perfev__map_addr(map, ip);
	f.dso = map ? map->dso : NULL;
	f.cpumode = (uint16_t)cpumode;
	if (kernel)
		f.flags |= PERFEV_FRAME_KERNEL;
	else if (map && map->identity)
		f.flags |= PERFEV_FRAME_ANON;
	if (!(how & PERFEV_FRAMES_NO_SYMBOLS) &&
	    symbolize(m, pid, map, kernel, ip, &f.sym, &f.sym_off)) {
		f.sym = NULL;
		f.sym_off = 0;
	}
	if (!(how & PERFEV_FRAMES_NO_SYMBOLS) &&
	    (how & (PERFEV_FRAMES_SRCLINE | PERFEV_FRAMES_INLINE | PM_PERF_INLINES)) && map &&
	    cpumode != PERF_RECORD_MISC_KERNEL && !map->identity && map->dso[0] == '/' &&
	    symbolizer(m)) {
		/* A return address's line is its call's, one byte before it. */
		uint64_t at = (how & PM_RETURN_ADDR) && ip != map->start ? ip - 1 : ip;

		n = perfev_symbolize_lines(m->symz, map->dso, map->start, map->pgoff, at, lines,
					   MAX_INLINE);
		if (n < 0)
			n = 0;
	}
	if ((how & PM_PERF_INLINES) && f.sym && n > 0)
		return perf_inlines(m, &f, lines, n, how);
	for (i = 0; (how & PERFEV_FRAMES_INLINE) && i < n - 1; i++) {
		struct perfev_frame in = f;

		in.sym = dwarf_name(m, lines[i].func);
		in.flags |= PERFEV_FRAME_INLINED;
		if (how & PERFEV_FRAMES_SRCLINE) {
			in.file = lines[i].file;
			in.line = lines[i].line;
		}
		if ((lines[i].func && !in.sym) || !pool_push(m, &in))
			goto nomem;
	}
	if (n > 0) {
		/* With the inlined frames, the function's own line is the outermost one. */
		int k = (how & PERFEV_FRAMES_INLINE) ? n - 1 : 0;

		if (how & PERFEV_FRAMES_SRCLINE) {
			f.file = lines[k].file;
			f.line = lines[k].line;
		}
		if (!f.sym && lines[n - 1].func) {
			f.sym = dwarf_name(m, lines[n - 1].func);
			f.flags |= PERFEV_FRAME_DWARF_NAME;
			if (!f.sym)
				goto nomem;
		}
	}
	if (!pool_push(m, &f))
		goto nomem;
	return (int)(m->pool.n - before);
nomem:
	m->pool.n = before;
	return -ENOMEM;
}

static const struct pm_rkey *rkey_of(const struct perfev_machine *m, uint64_t key)
{
	return key == PM_PROBE ? &m->probe : &m->rkeys.v[key];
}

/* Every address of a sample is hashed: the fields folded by odd multipliers, mixed once. */
static uint64_t rkey_hash(uint64_t key, void *ctx)
{
	const struct pm_rkey *k = rkey_of(ctx, key);
	uint64_t h = k->ip;

	h = h * 0x9e3779b97f4a7c15ULL ^ (uintptr_t)k->dso;
	h = h * 0xc2b2ae3d27d4eb4fULL ^ k->start;
	h = h * 0x165667b19e3779f9ULL ^ k->pgoff;
	h = h * 0x9e3779b97f4a7c15ULL ^
	    ((uint64_t)k->pid << 32 | (uint64_t)k->cpumode << 16 | k->how);
	return perfev__hash_u64(h);
}

static bool same_rkey(const struct pm_rkey *x, const struct pm_rkey *y)
{
	return x->ip == y->ip && x->dso == y->dso && x->start == y->start && x->pgoff == y->pgoff &&
	       x->pid == y->pid && x->cpumode == y->cpumode && x->how == y->how;
}

static bool rkey_equal(uint64_t a, uint64_t b, void *ctx)
{
	return same_rkey(rkey_of(ctx, a), rkey_of(ctx, b));
}

/* The slot of @k among the recent resolutions: a cheap function of its address. */
static size_t recent_slot(const struct pm_rkey *k)
{
	uint64_t h = (k->ip ^ (uintptr_t)k->dso ^ k->how) * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 52) & (PM_RECENT - 1);
}

/* Append the frames of @ip of process @pid seen in @cpumode to the output. */
static int resolve(struct perfev_machine *m, uint32_t pid, unsigned int cpumode, uint64_t ip,
		   unsigned int how, uint16_t extra_flags)
{
	const struct pm_map *map = perfev__machine_find(m, pid, cpumode, ip);
	struct perfev__hashmap_entry *e;
	struct pm_rkey *k;
	size_t i, first, slot;
	bool added;
	int n;

	if (!m->rcache.hash)
		perfev__hashmap_init(&m->rcache, rkey_hash, rkey_equal, m);
	/* Only source lines look a return address up elsewhere; without symbols, no lines. */
	if (!(how & (PERFEV_FRAMES_SRCLINE | PERFEV_FRAMES_INLINE)))
		how &= ~PM_RETURN_ADDR;
	if (how & PERFEV_FRAMES_NO_SYMBOLS)
		how &= ~PM_PERF_INLINES;
	m->probe.dso = map ? map->dso : NULL;
	m->probe.start = map ? map->start : 0;
	m->probe.pgoff = map ? map->pgoff : 0;
	m->probe.ip = ip;
	m->probe.pid = !map || map->identity ? pid : 0;
	m->probe.cpumode = (uint16_t)cpumode;
	m->probe.how = (uint16_t)how;
	/* Most addresses of a sample were seen a moment ago: the hash map is for the others. */
	slot = recent_slot(&m->probe);
	if (m->recent[slot] && same_rkey(&m->rkeys.v[m->recent[slot] - 1], &m->probe)) {
		k = &m->rkeys.v[m->recent[slot] - 1];
		goto found;
	}
	e = perfev__hashmap_upsert(&m->rcache, PM_PROBE, &added);
	if (!e)
		return -ENOMEM;
	if (added) {
		first = m->pool.n;
		n = resolve_new(m, map, pid, cpumode, ip, how);
		k = n < 0 ? NULL : perfev__array_push(&m->rkeys);
		if (!k) {
			perfev__hashmap_delete(&m->rcache, PM_PROBE, NULL, NULL);
			return -ENOMEM;
		}
		*k = m->probe;
		k->first = (uint32_t)first;
		k->n = (uint32_t)n;
		/* resolve_new() leaves the map alone: @e still stands. */
		e->key = m->rkeys.n - 1;
	}
	k = &m->rkeys.v[e->key];
	m->recent[slot] = (uint32_t)e->key + 1;
found:
	if (m->out.n + k->n > m->out.cap &&
	    perfev__grow(&m->out.v, &m->out.cap, m->out.n + k->n, sizeof(*m->out.v)))
		return -ENOMEM;
	for (i = 0; i < k->n; i++) {
		m->out.v[m->out.n] = m->pool.v[k->first + i];
		m->out.v[m->out.n++].flags |= extra_flags;
	}
	return 0;
}

void perfev__machine_forget_resolutions(struct perfev_machine *m)
{
	/* The pool stays: frame ids are never given to another resolution. */
	perfev__hashmap_clear(&m->rcache);
	memset(m->recent, 0, sizeof(m->recent));
	m->rkeys.n = 0;
}

size_t perfev_machine_frame_count(const struct perfev_machine *m)
{
	return m ? m->pool.n : 0;
}

size_t perfev_machine_forget_frames(struct perfev_machine *m)
{
	size_t n;

	if (!m)
		return 0;
	n = m->pool.n;
	perfev__machine_forget_resolutions(m);
	/* Unlike a change of symbols, this starts the ids over: the caller was told. */
	m->pool.n = 0;
	m->out.n = 0;
	/* No frame names a function of an exited process's JIT map any more. */
	perfev__symbolizer_jit_release(m->symz);
	return n;
}

int perfev_machine_resolve(struct perfev_machine *m, uint32_t pid, unsigned int cpumode,
			   uint64_t addr, unsigned int flags, const struct perfev_frame **frames,
			   size_t *n)
{
	int err;

	if (!m || !frames || !n)
		return -EINVAL;
	m->out.n = 0;
	err = resolve(
	    m, pid, cpumode, addr,
	    flags & (PERFEV_FRAMES_NO_SYMBOLS | PERFEV_FRAMES_SRCLINE | PERFEV_FRAMES_INLINE), 0);
	*frames = m->out.v;
	*n = m->out.n;
	return err;
}

/* ---- call chains ------------------------------------------------------------------- */

static bool known_marker(uint64_t ip)
{
	return ip == PERF_CONTEXT_HV || ip == PERF_CONTEXT_KERNEL || ip == PERF_CONTEXT_USER;
}

static unsigned int marker_cpumode(uint64_t ip)
{
	return ip == PERF_CONTEXT_HV	   ? PERF_RECORD_MISC_HYPERVISOR
	       : ip == PERF_CONTEXT_KERNEL ? PERF_RECORD_MISC_KERNEL
					   : PERF_RECORD_MISC_USER;
}

/* The call chain as perf reads it (thread__resolve_callchain_sample). */
static int chain(struct perfev_machine *m, const struct perfev_sample *smp, unsigned int how)
{
	unsigned int cpumode = PERF_RECORD_MISC_USER;
	uint64_t i, kept;
	int err;

	/* An unknown context marker makes perf drop the whole chain. */
	for (i = 0, kept = 0; i < smp->callchain_nr && kept < m->max_stack; i++) {
		uint64_t ip = perfev_u64_at(smp->callchain, i);

		if (ip < PERF_CONTEXT_MAX)
			kept++;
		else if (!known_marker(ip))
			return 0;
	}
	for (i = 0, kept = 0; i < smp->callchain_nr && kept < m->max_stack; i++) {
		uint64_t ip = perfev_u64_at(smp->callchain, i);

		if (ip >= PERF_CONTEXT_MAX) {
			cpumode = marker_cpumode(ip);
			continue;
		}
		err = resolve(m, smp->pid, cpumode, ip, how | (kept ? PM_RETURN_ADDR : 0), 0);
		if (err)
			return err;
		kept++;
	}
	return 0;
}

/* ---- unwinding --------------------------------------------------------------------- */

void perfev__machine_unwind_forget(struct perfev_machine *m, struct pm_proc *p)
{
	p->generation++;
	if (m->unwinder)
		perfev__unwinder_forget(m->unwinder, p);
}

/* The process's maps as the unwinder takes them, made again after they changed. */
static int unwind_maps(struct perfev_machine *m, struct pm_proc *p)
{
	size_t i;

	if (p->umaps_valid && p->umaps_generation == p->generation)
		return 0;
	p->umaps.n = 0;
	if (perfev__grow(&p->umaps.v, &p->umaps.cap, p->maps.n, sizeof(*p->umaps.v)))
		return -ENOMEM;
	for (i = 0; i < p->maps.n; i++) {
		const struct pm_map *map = &p->maps.v[i];
		struct perfev__unwind_map *u = &p->umaps.v[p->umaps.n++];
		uint64_t v;

		memset(u, 0, sizeof(*u));
		u->start = map->start;
		u->end = map->end;
		u->pgoff = map->pgoff;
		/* perf's name for executable anonymous memory is no file. */
		u->path = map->identity && !strncmp(map->dso, "/tmp/perf-", 10) ? NULL : map->dso;
		if (u->path && perfev__hashmap_find(&m->build_ids, perfev__ptr_key(map->dso), &v)) {
			const struct pm_build_id *b = perfev__key_ptr(v);

			u->build_id = b->id;
			u->build_id_size = b->len;
		}
	}
	p->umaps_generation = p->generation;
	p->umaps_valid = true;
	return 0;
}

/* Is the symbol of @ip the first function of a thread?  Looked up without lines. */
static bool thread_root(struct perfev_machine *m, uint32_t pid, uint64_t ip)
{
	static const char *const roots[] = {"_start", "clone", "clone3", "start_thread"};
	size_t mark = m->out.n, i;
	const char *name = NULL;

	if (!resolve(m, pid, PERF_RECORD_MISC_USER, ip, 0, 0) && m->out.n > mark)
		name = m->out.v[m->out.n - 1].sym;
	m->out.n = mark;
	for (i = 0; name && i < PERFEV__ARRAY_SIZE(roots); i++)
		if (!strcmp(name, roots[i]))
			return true;
	return false;
}

/*
 * perf's chain for --call-graph dwarf recordings: the kernel entries of
 * the call chain (the kernel leaves the user part out), then the user
 * frames unwound from the stack copy.
 */
static int dwarf_chain(struct perfev_machine *m, const struct perf_event_attr *attr,
		       const struct perfev_record *rec, unsigned int how, unsigned int flags)
{
	const struct perfev_sample *smp = &rec->u.sample;
	unsigned int cpumode = PERF_RECORD_MISC_USER;
	enum perfev__unwind_stop stop = PERFEV__UNWIND_ERROR;
	struct perfev__unwind_space space = {0};
	struct perfev__unwind_regs regs = {0};
	uint64_t rv[64];
	size_t kept = 0, nu = 0, nregs, i;
	struct pm_proc *p;
	int err;

	for (i = 0;
	     (smp->present & PERF_SAMPLE_CALLCHAIN) && i < smp->callchain_nr && kept < m->max_stack;
	     i++) {
		uint64_t ip = perfev_u64_at(smp->callchain, i);

		if (ip >= PERF_CONTEXT_MAX) {
			if (!known_marker(ip) || ip == PERF_CONTEXT_USER)
				break;
			cpumode = marker_cpumode(ip);
			continue;
		}
		if (cpumode == PERF_RECORD_MISC_USER)
			break;
		err = resolve(m, smp->pid, cpumode, ip, how | (kept ? PM_RETURN_ADDR : 0), 0);
		if (err)
			return err;
		kept++;
	}
	if (kept >= m->max_stack)
		return 0;
	if (!m->unwinder && !m->unwinder_err) {
		err = perfev__unwinder_new(&m->unwinder);
		if (err == -ENOMEM)
			return err;
		if (err) {
			m->unwinder_err = err;
			pr_warn("cannot unwind user stacks: %s; their call chains stop at the "
				"sampled address",
				perfev_strerror(err));
		}
	}
	p = perfev__machine_proc(m, smp->pid);
	if (!p || perfev__grow(&m->ips.v, &m->ips.cap, m->max_stack - kept, sizeof(*m->ips.v)) ||
	    unwind_maps(m, p))
		return -ENOMEM;
	if (m->unwinder) {
		space.key = p;
		space.generation = p->generation;
		space.maps = p->umaps.v;
		space.nmaps = p->umaps.n;
		regs.abi = smp->regs_user_abi;
		regs.mask = attr->sample_regs_user;
		/* The registers may sit unaligned in the record. */
		nregs = (size_t)__builtin_popcountll(attr->sample_regs_user);
		if (nregs > PERFEV__ARRAY_SIZE(rv))
			nregs = PERFEV__ARRAY_SIZE(rv);
		if (regs.abi && smp->regs_user) {
			memcpy(rv, smp->regs_user, nregs * sizeof(rv[0]));
			regs.regs = rv;
		} else {
			regs.abi = 0;
		}
		err = perfev__unwind(
		    m->unwinder, &space, smp->pid, smp->tid, &regs, smp->stack_user,
		    smp->stack_user_dyn_size < smp->stack_user_size ? smp->stack_user_dyn_size
								    : smp->stack_user_size,
		    m->ips.v, m->max_stack - kept, &nu, &stop);
		if (err == -ENOMEM)
			return err;
		if (err) {
			nu = 0;
			stop = PERFEV__UNWIND_ERROR;
		}
	}
	m->ustats.samples++;
	m->ustats.frames += nu;
	for (i = 0; i < nu; i++) {
		err = resolve(m, smp->pid, PERF_RECORD_MISC_USER, m->ips.v[i],
			      how | ((flags & PERFEV_FRAMES_UNWOUND_INLINES) ? PM_PERF_INLINES : 0),
			      PERFEV_FRAME_UNWOUND);
		if (err)
			return err;
	}
	/* Which function is outermost needs its symbol: not looked up for callers who want none. */
	if (nu && !(how & PERFEV_FRAMES_NO_SYMBOLS) && thread_root(m, smp->pid, m->ips.v[nu - 1]))
		m->ustats.root++;
	else
		m->ustats.stopped[stop < PERFEV__UNWIND_NR_STOPS ? stop : PERFEV__UNWIND_ERROR]++;
	/* Nothing unwound: a user-mode sample keeps at least where it was taken. */
	if (!nu && (rec->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER &&
	    (smp->present & PERF_SAMPLE_IP))
		return resolve(m, smp->pid, PERF_RECORD_MISC_USER, smp->ip, how, 0);
	return 0;
}

/*
 * A sample whose user stack was unwound when it was recorded (perfev
 * record --unwind): no registers, no stack copy, and its user frames in
 * its call chain after PERF_CONTEXT_USER.  Its chain is read as it is, as
 * perf reads it.
 */
static bool unwound_already(const struct perfev_sample *smp)
{
	const unsigned char *cc = smp->callchain;
	uint64_t i, v;

	if (smp->regs_user_abi || smp->stack_user_size || !(smp->present & PERF_SAMPLE_CALLCHAIN))
		return false;
	for (i = 0; i < smp->callchain_nr; i++) {
		memcpy(&v, cc + 8 * i, sizeof(v));
		if (v == PERF_CONTEXT_USER)
			return true;
	}
	return false;
}

int perfev_machine_sample_frames(struct perfev_machine *m, const struct perf_event_attr *attr,
				 const struct perfev_record *rec, unsigned int flags,
				 const struct perfev_frame **frames, size_t *n)
{
	unsigned int how =
	    flags & (PERFEV_FRAMES_NO_SYMBOLS | PERFEV_FRAMES_SRCLINE | PERFEV_FRAMES_INLINE);
	const struct perfev_sample *smp;
	int err = 0;

	if (!m || !rec || rec->type != PERF_RECORD_SAMPLE || !frames || !n)
		return -EINVAL;
	smp = &rec->u.sample;
	m->out.n = 0;
	if ((flags & PERFEV_FRAMES_CHAIN) && attr &&
	    (smp->present & (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER)) ==
		(PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER) &&
	    !unwound_already(smp))
		err = dwarf_chain(m, attr, rec, how, flags);
	else if ((flags & PERFEV_FRAMES_CHAIN) && (smp->present & PERF_SAMPLE_CALLCHAIN))
		err = chain(m, smp, how);
	else if (smp->present & PERF_SAMPLE_IP)
		err = resolve(m, smp->pid, rec->misc & PERF_RECORD_MISC_CPUMODE_MASK, smp->ip, how,
			      0);
	*frames = m->out.v;
	*n = m->out.n;
	return err;
}

/* ---- statistics ---------------------------------------------------------------------- */

const char *perfev_unwind_stop_name(enum perfev_unwind_stop stop)
{
	static const char *const names[] = {
	    [PERFEV_UNWIND_END] = "end of the stack",
	    [PERFEV_UNWIND_NO_REGS] = "no user registers",
	    [PERFEV_UNWIND_NO_CFI] = "no cfi",
	    [PERFEV_UNWIND_SHORT] = "stack copy too short",
	    [PERFEV_UNWIND_UNMAPPED] = "pc in no map",
	    [PERFEV_UNWIND_MAX_DEPTH] = "max depth",
	    [PERFEV_UNWIND_ERROR] = "error",
	};

	return (unsigned int)stop < PERFEV__ARRAY_SIZE(names) ? names[stop] : NULL;
}

int perfev_machine_unwind_stats(const struct perfev_machine *m, struct perfev_unwind_stats *out)
{
	size_t sz;

	if (!m ||
	    !perfev__out_ok(out, out ? out->sz : 0,
			    offsetof(struct perfev_unwind_stats, samples) + sizeof(out->samples)))
		return -EINVAL;
	sz = out->sz < sizeof(*out) ? out->sz : sizeof(*out);
	memcpy((char *)out + sizeof(out->sz), (const char *)&m->ustats + sizeof(out->sz),
	       sz - sizeof(out->sz));
	return 0;
}

void perfev__machine_frames_release(struct perfev_machine *m)
{
	perfev__hashmap_release(&m->rcache);
	perfev__array_release(&m->rkeys);
	perfev__array_release(&m->pool);
	perfev__array_release(&m->out);
	perfev__array_release(&m->ips);
	perfev__unwinder_free(m->unwinder);
	m->unwinder = NULL;
	perfev_symbolizer_free(m->symz);
	m->symz = NULL;
}
