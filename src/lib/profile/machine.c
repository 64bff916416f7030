// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The machine's threads and memory maps, rebuilt from COMM, FORK, EXIT,
 * MMAP, MMAP2 and KSYMBOL records the way perf's machine, thread and maps
 * code does, so that a sample's comm and dso come out as perf shows them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "common/internal.h"
#include "profile/machine-internal.h"
#include "symbols/symbolizer-internal.h"

/* Where kernel addresses start, for recordings without a kernel MMAP record. */
#ifdef __x86_64__
#define KERNEL_SPACE 0xffff800000000000ULL
#else
#define KERNEL_SPACE (1ULL << 63)
#endif

/* The kernel's own map, identity-mapped: its addresses are its offsets. */
static const struct pm_map kernel_map = {
    .start = 0, .end = UINT64_MAX, .pgoff = 0, .dso = "[kernel.kallsyms]", .identity = true};

/* ---- strings ------------------------------------------------------------------ */

const char *perfev__machine_intern(struct perfev_machine *m, const char *s)
{
	struct perfev__hashmap_entry *e;
	bool added;
	char *copy;

	e = perfev__hashmap_upsert(&m->strings, perfev__ptr_key(s), &added);
	if (!e)
		return NULL;
	if (!added)
		return perfev__key_ptr(e->key);
	copy = strdup(s);
	if (!copy) {
		perfev__hashmap_delete(&m->strings, perfev__ptr_key(s), NULL, NULL);
		return NULL;
	}
	/* The same string at another address: its hash and equality hold. */
	e->key = perfev__ptr_key(copy);
	return copy;
}

/* ---- threads and processes ------------------------------------------------------ */

static struct pm_thread *thread_find(const struct perfev_machine *m, uint32_t tid)
{
	uint64_t v;

	return perfev__hashmap_find(&m->threads, tid, &v) ? perfev__key_ptr(v) : NULL;
}

static struct pm_thread *thread_get(struct perfev_machine *m, uint32_t pid, uint32_t tid)
{
	struct perfev__hashmap_entry *e;
	struct pm_thread *t;
	bool added;

	e = perfev__hashmap_upsert(&m->threads, tid, &added);
	if (!e)
		return NULL;
	if (!added) {
		t = perfev__key_ptr(e->value);
		/* perf fills in a pid learnt later (a thread first seen with pid -1). */
		if (t->pid == UINT32_MAX)
			t->pid = pid;
		return t;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		perfev__hashmap_delete(&m->threads, tid, NULL, NULL);
		return NULL;
	}
	t->tid = tid;
	t->pid = pid;
	e->value = perfev__ptr_key(t);
	return t;
}

static struct pm_proc *proc_find(const struct perfev_machine *m, uint32_t pid)
{
	uint64_t v;

	return perfev__hashmap_find(&m->procs, pid, &v) ? perfev__key_ptr(v) : NULL;
}

struct pm_proc *perfev__machine_proc(struct perfev_machine *m, uint32_t pid)
{
	struct perfev__hashmap_entry *e;
	struct pm_proc *p;
	bool added;

	e = perfev__hashmap_upsert(&m->procs, pid, &added);
	if (!e)
		return NULL;
	if (!added)
		return perfev__key_ptr(e->value);
	p = calloc(1, sizeof(*p));
	if (!p) {
		perfev__hashmap_delete(&m->procs, pid, NULL, NULL);
		return NULL;
	}
	p->pid = pid;
	e->value = perfev__ptr_key(p);
	return p;
}

static int set_comm(struct pm_thread *t, const char *comm)
{
	char *c = strdup(comm);

	if (!c)
		return -ENOMEM;
	free(t->comm);
	t->comm = c;
	return 0;
}

const char *perfev_machine_comm(const struct perfev_machine *m, uint32_t tid)
{
	const struct pm_thread *t = m ? thread_find(m, tid) : NULL;

	return t ? t->comm : NULL;
}

/* PERF_RECORD_CGROUP: the path of a cgroup id; a later record of the id renames it. */
static int process_cgroup(struct perfev_machine *m, uint64_t id, const char *path)
{
	const char *p = perfev__machine_intern(m, path);

	if (!p)
		return -ENOMEM;
	return perfev__hashmap_set(&m->cgroups, id, perfev__ptr_key(p), NULL, NULL) < 0 ? -ENOMEM
											: 0;
}

const char *perfev_machine_cgroup(const struct perfev_machine *m, uint64_t id)
{
	uint64_t v;

	if (!m || !perfev__hashmap_find(&m->cgroups, id, &v))
		return NULL;
	return perfev__key_ptr(v);
}

/* ---- maps --------------------------------------------------------------------- */

/* Index of the first map ending after @addr. */
static size_t maps_lower(const struct pm_maps *maps, uint64_t addr)
{
	size_t lo = 0, hi = maps->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (maps->v[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct pm_map *maps_find(const struct pm_maps *maps, uint64_t addr)
{
	size_t i = maps_lower(maps, addr);

	if (i < maps->n && maps->v[i].start <= addr && addr < maps->v[i].end)
		return &maps->v[i];
	return NULL;
}

static int maps_insert_at(struct pm_maps *maps, size_t i, const struct pm_map *map)
{
	if (perfev__grow(&maps->v, &maps->cap, maps->n + 1, sizeof(*maps->v)))
		return -ENOMEM;
	memmove(&maps->v[i + 1], &maps->v[i], (maps->n - i) * sizeof(*maps->v));
	maps->v[i] = *map;
	maps->n++;
	return 0;
}

static void maps_remove_at(struct pm_maps *maps, size_t i)
{
	memmove(&maps->v[i], &maps->v[i + 1], (maps->n - i - 1) * sizeof(*maps->v));
	maps->n--;
}

/*
 * Insert @map; what it overlaps is cut away from the older maps, keeping
 * their parts before and after it (perf's maps__fixup_overlappings).
 */
static int maps_insert(struct pm_maps *maps, const struct pm_map *map)
{
	size_t i;

	if (map->end <= map->start)
		return 0;
	/* Room for the worst case first: a map split in two, and the new one. */
	if (perfev__grow(&maps->v, &maps->cap, maps->n + 2, sizeof(*maps->v)))
		return -ENOMEM;
	i = maps_lower(maps, map->start);
	while (i < maps->n && maps->v[i].start < map->end) {
		struct pm_map old = maps->v[i];

		maps_remove_at(maps, i);
		if (old.start < map->start) {
			struct pm_map before = old;

			before.end = map->start;
			(void)maps_insert_at(maps, i++, &before);
		}
		if (old.end > map->end) {
			struct pm_map after = old;

			after.start = map->end;
			if (!after.identity)
				after.pgoff += map->end - old.start;
			(void)maps_insert_at(maps, i, &after);
			break;
		}
	}
	return maps_insert_at(maps, i, map);
}

static int maps_copy(struct pm_maps *dst, const struct pm_maps *src)
{
	dst->n = 0;
	if (!src || !src->n)
		return 0;
	if (perfev__grow(&dst->v, &dst->cap, src->n, sizeof(*dst->v)))
		return -ENOMEM;
	memcpy(dst->v, src->v, src->n * sizeof(*dst->v));
	dst->n = src->n;
	return 0;
}

uint64_t perfev__map_addr(const struct pm_map *map, uint64_t addr)
{
	if (!map || map->identity)
		return addr;
	return addr - map->start + map->pgoff;
}

static const struct pm_map *kernel_find(const struct perfev_machine *m, uint64_t addr)
{
	const struct pm_map *map = maps_find(&m->kmaps, addr);

	if (map)
		return map;
	/*
	 * Outside modules and BPF programs, the kernel map: perf stretches it
	 * past the MMAP record's length (init text) once it has the symbols.
	 * Without a kernel MMAP record, perf uses this host's.
	 */
	if (m->have_kernel_map ? addr >= m->kernel_start : addr >= KERNEL_SPACE)
		return &kernel_map;
	return NULL;
}

const struct pm_map *perfev__machine_find(struct perfev_machine *m, uint32_t pid,
					  unsigned int cpumode, uint64_t addr)
{
	struct pm_proc *p;

	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:
		return kernel_find(m, addr);
	case PERF_RECORD_MISC_CPUMODE_UNKNOWN:
		if (addr >= m->kernel_start)
			return kernel_find(m, addr);
		__attribute__((fallthrough));
	case PERF_RECORD_MISC_USER:
		/* perf 6.1 does not look user-mode addresses up in the kernel (vsyscall). */
		p = proc_find(m, pid);
		return p ? maps_find(&p->maps, addr) : NULL;
	default:
		/* Hypervisor and guests: perf has no maps for them either. */
		return NULL;
	}
}

/* "/lib/modules/.../nf-tables.ko.xz" -> "[nf_tables]", as perf names modules. */
static const char *module_name(struct perfev_machine *m, const char *path)
{
	const char *base = strrchr(path, '/');
	char buf[256];
	size_t i, n;

	if (path[0] != '/')
		return perfev__machine_intern(m, path);
	base = base ? base + 1 : path;
	n = strcspn(base, ".");
	if (n > sizeof(buf) - 3)
		n = sizeof(buf) - 3;
	buf[0] = '[';
	for (i = 0; i < n; i++)
		buf[i + 1] = base[i] == '-' ? '_' : base[i];
	buf[n + 1] = ']';
	buf[n + 2] = '\0';
	return perfev__machine_intern(m, buf);
}

static bool is_anon(const char *name, uint32_t flags)
{
	return !strcmp(name, "//anon") || !strncmp(name, "/dev/zero", 9) ||
	       !strncmp(name, "/anon_hugepage", 14) || (flags & MAP_HUGETLB);
}

static bool is_no_dso(const char *name)
{
	return !strncmp(name, "[stack", 6) || !strncmp(name, "/SYSV", 5) || !strcmp(name, "[heap]");
}

static int process_kernel_mmap(struct perfev_machine *m, struct pm_map *map, const char *filename)
{
	if (!strncmp(filename, "[kernel.kallsyms]", 17)) {
		m->have_kernel_map = true;
		m->kernel_start = map->start;
		/* perf's "[kernel.kallsyms]_text" at _text's address: where KASLR put it. */
		if (filename[17] && map->pgoff) {
			const char *ref = perfev__machine_intern(m, filename + 17);

			if (!ref)
				return -ENOMEM;
			if (ref != m->kernel_ref || map->pgoff != m->kernel_ref_addr)
				perfev__machine_forget_resolutions(m);
			m->kernel_ref = ref;
			m->kernel_ref_addr = map->pgoff;
		}
		return 0;
	}
	/* perf maps modules from their start, ignoring pgoff. */
	map->dso = module_name(m, filename);
	map->pgoff = 0;
	if (!map->dso)
		return -ENOMEM;
	return maps_insert(&m->kmaps, map);
}

static int process_mmap(struct perfev_machine *m, unsigned int cpumode, uint32_t pid,
			uint64_t start, uint64_t len, uint64_t pgoff, uint32_t prot, uint32_t flags,
			const char *filename)
{
	struct pm_map map = {.start = start, .end = start + len, .pgoff = pgoff};
	struct pm_proc *p;
	int err;

	if (start + len < start)
		map.end = UINT64_MAX;
	if (cpumode == PERF_RECORD_MISC_KERNEL)
		return process_kernel_mmap(m, &map, filename);
	if (cpumode != PERF_RECORD_MISC_USER)
		return 0;
	map.identity = is_anon(filename, flags) || is_no_dso(filename);
	if (map.identity && (prot & PROT_EXEC)) {
		/* perf looks for JIT symbols in /tmp/perf-PID.map. */
		char buf[64];

		snprintf(buf, sizeof(buf), "/tmp/perf-%d.map", (int)pid);
		map.dso = perfev__machine_intern(m, buf);
	} else {
		map.dso = perfev__machine_intern(m, filename);
	}
	p = perfev__machine_proc(m, pid);
	if (!map.dso || !p)
		return -ENOMEM;
	err = maps_insert(&p->maps, &map);
	p->generation++;
	return err;
}

static int process_fork(struct perfev_machine *m, const struct perfev_record *rec)
{
	struct pm_thread *parent, *t;
	struct pm_proc *pp, *p;
	char *comm = NULL;
	int err;

	parent = thread_find(m, rec->u.fork.ptid);
	if (parent && parent->comm && !(comm = strdup(parent->comm)))
		return -ENOMEM;
	/* A thread that still has this tid is gone: this one replaces it. */
	t = thread_get(m, rec->u.fork.pid, rec->u.fork.tid);
	if (!t) {
		free(comm);
		return -ENOMEM;
	}
	free(t->comm);
	t->comm = comm;
	t->pid = rec->u.fork.pid;
	/*
	 * A new process starts with a copy of its parent's maps; a new thread
	 * shares them.  perf marks the FORK records it synthesizes for running
	 * processes with FORK_EXEC: their own MMAP records follow.
	 */
	if (rec->u.fork.pid == rec->u.fork.ppid || (rec->misc & PERF_RECORD_MISC_FORK_EXEC))
		return 0;
	pp = proc_find(m, rec->u.fork.ppid);
	p = perfev__machine_proc(m, rec->u.fork.pid);
	if (!p)
		return -ENOMEM;
	err = maps_copy(&p->maps, pp ? &pp->maps : NULL);
	/* A pid used again: what the unwinder knew of the old process is void. */
	perfev__machine_unwind_forget(m, p);
	return err;
}

static int process_ksymbol(struct perfev_machine *m, const struct perfev_record *rec)
{
	struct pm_map map = {.start = rec->u.ksymbol.addr,
			     .end = rec->u.ksymbol.addr + rec->u.ksymbol.len,
			     .identity = true};
	size_t i;

	if (!(rec->u.ksymbol.flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER)) {
		map.dso = perfev__machine_intern(m, rec->u.ksymbol.name);
		if (!map.dso)
			return -ENOMEM;
		return maps_insert(&m->kmaps, &map);
	}
	i = maps_lower(&m->kmaps, map.start);
	if (i < m->kmaps.n && m->kmaps.v[i].start == map.start)
		maps_remove_at(&m->kmaps, i);
	return 0;
}

int perfev_machine_process(struct perfev_machine *m, const struct perfev_record *rec)
{
	unsigned int cpumode;
	struct pm_thread *t;
	struct pm_proc *p;
	int err;

	if (!m || !rec)
		return -EINVAL;
	cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	switch (rec->type) {
	case PERF_RECORD_COMM:
		t = thread_get(m, rec->u.comm.pid, rec->u.comm.tid);
		if (!t)
			return -ENOMEM;
		t->pid = rec->u.comm.pid;
		err = set_comm(t, rec->u.comm.comm);
		/* perf keeps the maps at exec (their MMAP records replace them), not the
		 * unwinder's. */
		if (!err && rec->u.comm.exec && (p = proc_find(m, rec->u.comm.pid)))
			perfev__machine_unwind_forget(m, p);
		return err;
	case PERF_RECORD_FORK:
		return process_fork(m, rec);
	case PERF_RECORD_EXIT:
		/*
		 * perf only marks the thread dead: samples taken while it exits
		 * still carry its comm; a FORK reusing the tid replaces it.  The
		 * unwinder's state of a process that ended is dropped.
		 */
		if (rec->u.fork.pid == rec->u.fork.tid && (p = proc_find(m, rec->u.fork.pid)))
			perfev__machine_unwind_forget(m, p);
		return 0;
	case PERF_RECORD_MMAP:
		return process_mmap(
		    m, cpumode, rec->u.mmap.pid, rec->u.mmap.addr, rec->u.mmap.len,
		    rec->u.mmap.pgoff,
		    (rec->misc & PERF_RECORD_MISC_MMAP_DATA) ? PROT_READ : PROT_READ | PROT_EXEC, 0,
		    rec->u.mmap.filename);
	case PERF_RECORD_MMAP2:
		err = process_mmap(m, cpumode, rec->u.mmap2.pid, rec->u.mmap2.addr,
				   rec->u.mmap2.len, rec->u.mmap2.pgoff, rec->u.mmap2.prot,
				   rec->u.mmap2.flags, rec->u.mmap2.filename);
		if (!err && rec->u.mmap2.has_build_id)
			err = perfev_machine_set_build_id(m, rec->u.mmap2.filename,
							  rec->u.mmap2.build_id,
							  rec->u.mmap2.build_id_size);
		return err;
	case PERF_RECORD_KSYMBOL:
		return process_ksymbol(m, rec);
	case PERF_RECORD_CGROUP:
		return process_cgroup(m, rec->u.cgroup.id, rec->u.cgroup.path);
	default:
		return 0;
	}
}

int perfev_machine_retire(struct perfev_machine *m, uint32_t pid, uint32_t tid)
{
	struct pm_thread *t;
	struct pm_proc *p;
	uint64_t v;

	if (!m || !tid)
		return -EINVAL;
	t = thread_find(m, tid);
	if (!t)
		return -ENOENT;
	/* A tid used again by another process: that thread is not the one that exited. */
	if (t->pid != UINT32_MAX && t->pid != pid)
		return -ENOENT;
	perfev__hashmap_delete(&m->threads, tid, NULL, NULL);
	free(t->comm);
	free(t);
	if (pid != tid)
		return 0;
	/*
	 * Its JIT map goes at the next perfev_machine_forget_frames() (frames
	 * point to its names until then), and the resolutions through it now:
	 * a process that gets the pid again has a map of its own.
	 */
	if (perfev__symbolizer_jit_retire(m->symz, (pid_t)pid))
		perfev__machine_forget_resolutions(m);
	if (!perfev__hashmap_find(&m->procs, pid, &v))
		return 0;
	p = perfev__key_ptr(v);
	/* The unwinder keys its state by the process: drop it before the process goes. */
	perfev__machine_unwind_forget(m, p);
	perfev__hashmap_delete(&m->procs, pid, NULL, NULL);
	free(p->maps.v);
	perfev__array_release(&p->umaps);
	free(p);
	return 0;
}

size_t perfev_machine_thread_count(const struct perfev_machine *m)
{
	return m ? perfev__hashmap_size(&m->threads) : 0;
}

/* ---- build ids ------------------------------------------------------------------ */

int perfev_machine_set_build_id(struct perfev_machine *m, const char *path, const void *id,
				size_t len)
{
	struct perfev__hashmap_entry *e;
	struct pm_build_id *b;
	const char *key;
	bool added, kernel;
	size_t i;

	if (!m || !path || (!id && len))
		return -EINVAL;
	kernel = !strcmp(path, "[kernel.kallsyms]");
	if (!len || len > sizeof(b->id) || (path[0] != '/' && !kernel))
		return 0;
	key = perfev__machine_intern(m, path);
	if (!key)
		return -ENOMEM;
	e = perfev__hashmap_upsert(&m->build_ids, perfev__ptr_key(key), &added);
	if (!e)
		return -ENOMEM;
	if (added) {
		b = calloc(1, sizeof(*b));
		if (!b) {
			perfev__hashmap_delete(&m->build_ids, perfev__ptr_key(key), NULL, NULL);
			return -ENOMEM;
		}
		e->value = perfev__ptr_key(b);
	} else {
		b = perfev__key_ptr(e->value);
		if (b->len == len && !memcmp(b->id, id, len))
			return 0;
	}
	memcpy(b->id, id, len);
	b->len = (uint8_t)len;
	if (kernel)
		for (i = 0; i < len; i++)
			snprintf(m->kernel_id + 2 * i, 3, "%02x", b->id[i]);
	if (!m->symz)
		return 0;
	/* A file looked up before under another id: what was found there may be wrong. */
	if (!added)
		perfev__machine_forget_resolutions(m);
	return perfev_symbolizer_set_build_id(m->symz, key, b->id, b->len);
}

/* ---- the machine ---------------------------------------------------------------- */

static void release_sopts(struct perfev_symbolizer_opts *o)
{
	free((char *)o->procfs_root);
	free((char *)o->jitmap_dir);
	free((char *)o->buildid_dir);
	free((char *)o->cache_dir);
	free((char *)o->sysfs_root);
	free((char *)o->kallsyms);
	memset(o, 0, sizeof(*o));
}

static int dup_opt(const char **p)
{
	if (*p && !(*p = strdup(*p)))
		return -ENOMEM;
	return 0;
}

int perfev_machine_build_id(const struct perfev_machine *m, const char *path, void *id, size_t size)
{
	const struct perfev__hashmap_entry *e;
	const struct pm_build_id *b;
	uint64_t v;

	if (!m || !path || (!id && size))
		return -EINVAL;
	/* The build ids are keyed by the machine's copy of the path. */
	e = perfev__hashmap_entry(&m->strings, perfev__ptr_key(path));
	if (!e || !perfev__hashmap_find(&m->build_ids, e->key, &v))
		return 0;
	b = perfev__key_ptr(v);
	if (size < b->len)
		return -ENOSPC;
	memcpy(id, b->id, b->len);
	return b->len;
}

/* A copy of the caller's symbolizer options, strings included. */
static int copy_sopts(struct perfev_symbolizer_opts *dst, const struct perfev_symbolizer_opts *src)
{
	memset(dst, 0, sizeof(*dst));
	if (src)
		memcpy(dst, src, src->sz < sizeof(*dst) ? src->sz : sizeof(*dst));
	dst->sz = sizeof(*dst);
	/* What a shorter struct lacked is zero; the pointers are ours to free from now. */
	if (dup_opt(&dst->procfs_root) | dup_opt(&dst->jitmap_dir) | dup_opt(&dst->buildid_dir) |
	    dup_opt(&dst->cache_dir) | dup_opt(&dst->sysfs_root) | dup_opt(&dst->kallsyms))
		return -ENOMEM;
	return 0;
}

int perfev_machine_new(const struct perfev_machine_opts *opts, struct perfev_machine **out)
{
	const struct perfev_symbolizer_opts *so;
	struct perfev_machine *m;
	struct pm_thread *idle;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!perfev__opts_ok(opts, opts ? opts->sz : 0, sizeof(*opts)))
		return -EINVAL;
	so = PERFEV__OPT(opts, symbolizer, NULL);
	if (!perfev__opts_ok(so, so ? so->sz : 0, sizeof(*so)))
		return -EINVAL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	perfev__hashmap_init(&m->threads, NULL, NULL, NULL);
	perfev__hashmap_init(&m->procs, NULL, NULL, NULL);
	perfev__hashmap_init(&m->strings, perfev__hash_str_key, perfev__equal_str_key, NULL);
	perfev__hashmap_init(&m->build_ids, NULL, NULL, NULL);
	perfev__hashmap_init(&m->cgroups, NULL, NULL, NULL);
	m->kernel_start = 1ULL << 63;
	m->max_stack = PERFEV__OPT(opts, max_stack, 0U);
	if (!m->max_stack)
		m->max_stack = 127;
	if (copy_sopts(&m->sopts, so))
		goto nomem;
	/* perf names the idle thread before any record does; its children inherit the name. */
	idle = thread_get(m, 0, 0);
	if (!idle || set_comm(idle, "swapper"))
		goto nomem;
	*out = m;
	return 0;
nomem:
	perfev_machine_free(m);
	return -ENOMEM;
}

void perfev_machine_free(struct perfev_machine *m)
{
	struct perfev__hashmap_entry *e;

	if (!m)
		return;
	perfev__machine_frames_release(m);
	perfev__hashmap_for_each(&m->threads, e) {
		struct pm_thread *t = perfev__key_ptr(e->value);

		free(t->comm);
		free(t);
	}
	perfev__hashmap_for_each(&m->procs, e) {
		struct pm_proc *p = perfev__key_ptr(e->value);

		free(p->maps.v);
		perfev__array_release(&p->umaps);
		free(p);
	}
	perfev__hashmap_for_each(&m->build_ids, e)
		free(perfev__key_ptr(e->value));
	perfev__hashmap_for_each(&m->strings, e)
		free(perfev__key_ptr(e->key));
	perfev__hashmap_release(&m->threads);
	perfev__hashmap_release(&m->procs);
	perfev__hashmap_release(&m->build_ids);
	perfev__hashmap_release(&m->cgroups);
	perfev__hashmap_release(&m->strings);
	free(m->kmaps.v);
	release_sopts(&m->sopts);
	free(m);
}
