// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev script: the threads of a recording and their memory maps, rebuilt
 * from COMM, FORK, EXIT, MMAP, MMAP2 and KSYMBOL records the way perf's
 * machine/thread/maps code does, so that a sample's comm and dso come out
 * as perf script prints them.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "perfev-cli.h"
#include "script.h"

struct script_thread {
	uint32_t tid, pid;
	char *comm; /* NULL until a COMM or FORK names it */
};

struct script_proc {
	uint32_t pid;
	struct script_maps maps;
};

/* Where kernel addresses start, for files without a kernel MMAP record. */
#ifdef __x86_64__
#define KERNEL_SPACE 0xffff800000000000ULL
#else
#define KERNEL_SPACE (1ULL << 63)
#endif

/* The kernel's own map, identity-mapped: its addresses are its offsets. */
static const struct script_map kernel_map = {
    .start = 0, .end = UINT64_MAX, .pgoff = 0, .dso = "[kernel.kallsyms]", .identity = true};

static void *xrealloc(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		cli_die("out of memory");
	p = realloc(p, n * size);
	if (!p && n)
		cli_die("out of memory");
	return p;
}

static uint32_t hash32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	x *= 0x846ca68bU;
	x ^= x >> 16;
	return x;
}

static uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261U;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619U;
	return h;
}

static void maps_release(struct script_maps *maps)
{
	free(maps->v);
	memset(maps, 0, sizeof(*maps));
}

void script_machine_release(struct script_machine *m)
{
	size_t i;

	for (i = 0; i < m->cap_threads; i++)
		if (m->threads[i]) {
			free(m->threads[i]->comm);
			free(m->threads[i]);
		}
	for (i = 0; i < m->cap_procs; i++)
		if (m->procs[i]) {
			maps_release(&m->procs[i]->maps);
			free(m->procs[i]);
		}
	for (i = 0; i < m->cap_strings; i++)
		free(m->strings[i]);
	free(m->threads);
	free(m->procs);
	free(m->strings);
	maps_release(&m->kmaps);
	memset(m, 0, sizeof(*m));
}

/* ---- tables ------------------------------------------------------------ */

static const char *intern(struct script_machine *m, const char *s)
{
	size_t i, mask;

	if (2 * (m->nstrings + 1) > m->cap_strings) {
		size_t cap = m->cap_strings ? m->cap_strings * 2 : 64, k;
		char **v = calloc(cap, sizeof(*v));

		if (!v)
			cli_die("out of memory");
		for (k = 0; k < m->cap_strings; k++) {
			if (!m->strings[k])
				continue;
			for (i = hash_str(m->strings[k]) & (cap - 1); v[i]; i = (i + 1) & (cap - 1))
				;
			v[i] = m->strings[k];
		}
		free(m->strings);
		m->strings = v;
		m->cap_strings = cap;
	}
	mask = m->cap_strings - 1;
	for (i = hash_str(s) & mask; m->strings[i]; i = (i + 1) & mask)
		if (!strcmp(m->strings[i], s))
			return m->strings[i];
	m->strings[i] = strdup(s);
	if (!m->strings[i])
		cli_die("out of memory");
	m->nstrings++;
	return m->strings[i];
}

/* Find the slot of @key in an open-addressed table of structs whose first member is the u32 key. */
static void **slot(void **tab, size_t cap, uint32_t key)
{
	size_t i, mask = cap - 1;

	for (i = hash32(key) & mask; tab[i]; i = (i + 1) & mask)
		if (*(const uint32_t *)tab[i] == key)
			break;
	return &tab[i];
}

static void grow(void ***tab, size_t *cap, size_t n)
{
	size_t ncap, i;
	void **v;

	if (2 * (n + 1) <= *cap)
		return;
	ncap = *cap ? *cap * 2 : 256;
	v = calloc(ncap, sizeof(*v));
	if (!v)
		cli_die("out of memory");
	for (i = 0; i < *cap; i++)
		if ((*tab)[i])
			*slot(v, ncap, *(const uint32_t *)(*tab)[i]) = (*tab)[i];
	free(*tab);
	*tab = v;
	*cap = ncap;
}

static struct script_thread *thread_find(struct script_machine *m, uint32_t tid)
{
	if (!m->cap_threads)
		return NULL;
	return *slot((void **)m->threads, m->cap_threads, tid);
}

static struct script_thread *thread_get(struct script_machine *m, uint32_t pid, uint32_t tid)
{
	struct script_thread **p, *t;

	grow((void ***)&m->threads, &m->cap_threads, m->nthreads);
	p = (struct script_thread **)slot((void **)m->threads, m->cap_threads, tid);
	if (*p) {
		/* perf fills in a pid learnt later (a thread first seen with pid -1). */
		if ((*p)->pid == UINT32_MAX)
			(*p)->pid = pid;
		return *p;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		cli_die("out of memory");
	t->tid = tid;
	t->pid = pid;
	*p = t;
	m->nthreads++;
	return t;
}

static struct script_proc *proc_find(struct script_machine *m, uint32_t pid)
{
	if (!m->cap_procs)
		return NULL;
	return *slot((void **)m->procs, m->cap_procs, pid);
}

static struct script_proc *proc_get(struct script_machine *m, uint32_t pid)
{
	struct script_proc **p, *pr;

	grow((void ***)&m->procs, &m->cap_procs, m->nprocs);
	p = (struct script_proc **)slot((void **)m->procs, m->cap_procs, pid);
	if (*p)
		return *p;
	pr = calloc(1, sizeof(*pr));
	if (!pr)
		cli_die("out of memory");
	pr->pid = pid;
	*p = pr;
	m->nprocs++;
	return pr;
}

static void set_comm(struct script_thread *t, const char *comm)
{
	char *c = strdup(comm);

	if (!c)
		cli_die("out of memory");
	free(t->comm);
	t->comm = c;
}

void script_machine_init(struct script_machine *m)
{
	memset(m, 0, sizeof(*m));
	m->kernel_start = 1ULL << 63;
	/* perf names the idle thread before any record does; its children inherit the name. */
	set_comm(thread_get(m, 0, 0), "swapper");
}

const char *script_machine_comm(struct script_machine *m, uint32_t tid, char *buf, size_t len)
{
	struct script_thread *t = thread_find(m, tid);

	if (t && t->comm)
		return t->comm;
	snprintf(buf, len, ":%d", (int)tid);
	return buf;
}

/* ---- maps -------------------------------------------------------------- */

/* Index of the first map ending after @addr. */
static size_t maps_lower(const struct script_maps *maps, uint64_t addr)
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

static const struct script_map *maps_find(const struct script_maps *maps, uint64_t addr)
{
	size_t i = maps_lower(maps, addr);

	if (i < maps->n && maps->v[i].start <= addr && addr < maps->v[i].end)
		return &maps->v[i];
	return NULL;
}

static void maps_insert_at(struct script_maps *maps, size_t i, const struct script_map *map)
{
	if (maps->n == maps->cap) {
		maps->cap = maps->cap ? maps->cap * 2 : 16;
		maps->v = xrealloc(maps->v, maps->cap, sizeof(*maps->v));
	}
	memmove(&maps->v[i + 1], &maps->v[i], (maps->n - i) * sizeof(*maps->v));
	maps->v[i] = *map;
	maps->n++;
}

/*
 * Insert @map; what it overlaps is cut away from the older maps, keeping
 * their parts before and after it (perf's maps__fixup_overlappings).
 */
static void maps_insert(struct script_maps *maps, const struct script_map *map)
{
	size_t i = maps_lower(maps, map->start);

	if (map->end <= map->start)
		return;
	while (i < maps->n && maps->v[i].start < map->end) {
		struct script_map old = maps->v[i];

		memmove(&maps->v[i], &maps->v[i + 1], (maps->n - i - 1) * sizeof(*maps->v));
		maps->n--;
		if (old.start < map->start) {
			struct script_map before = old;

			before.end = map->start;
			maps_insert_at(maps, i++, &before);
		}
		if (old.end > map->end) {
			struct script_map after = old;

			after.start = map->end;
			if (!after.identity)
				after.pgoff += map->end - old.start;
			maps_insert_at(maps, i, &after);
			break;
		}
	}
	maps_insert_at(maps, i, map);
}

static void maps_copy(struct script_maps *dst, const struct script_maps *src)
{
	maps_release(dst);
	if (!src || !src->n)
		return;
	dst->v = xrealloc(NULL, src->n, sizeof(*dst->v));
	memcpy(dst->v, src->v, src->n * sizeof(*dst->v));
	dst->n = dst->cap = src->n;
}

uint64_t script_map_ip(const struct script_map *map, uint64_t addr)
{
	if (!map || map->identity)
		return addr;
	return addr - map->start + map->pgoff;
}

static const struct script_map *kernel_find(struct script_machine *m, uint64_t addr)
{
	const struct script_map *map = maps_find(&m->kmaps, addr);

	if (map)
		return map;
	/*
	 * Outside modules and BPF programs, the kernel map: perf stretches it
	 * past the MMAP record's length (init text) once it has the symbols.
	 * Without a kernel MMAP record in the file, perf uses this host's.
	 */
	if (m->have_kernel_map ? addr >= m->kernel_start : addr >= KERNEL_SPACE)
		return &kernel_map;
	return NULL;
}

const struct script_map *script_machine_find(struct script_machine *m, uint32_t pid,
					     unsigned int cpumode, uint64_t addr)
{
	struct script_proc *p;

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
static const char *module_name(struct script_machine *m, const char *path)
{
	const char *base = strrchr(path, '/');
	char buf[256];
	size_t i, n;

	if (path[0] != '/')
		return intern(m, path);
	base = base ? base + 1 : path;
	n = strcspn(base, ".");
	if (n > sizeof(buf) - 3)
		n = sizeof(buf) - 3;
	buf[0] = '[';
	for (i = 0; i < n; i++)
		buf[i + 1] = base[i] == '-' ? '_' : base[i];
	buf[n + 1] = ']';
	buf[n + 2] = '\0';
	return intern(m, buf);
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

static void process_mmap(struct script_machine *m, unsigned int cpumode, uint32_t pid,
			 uint64_t start, uint64_t len, uint64_t pgoff, uint32_t prot,
			 uint32_t flags, const char *filename)
{
	struct script_map map = {.start = start, .end = start + len, .pgoff = pgoff};

	if (start + len < start)
		map.end = UINT64_MAX;
	if (cpumode == PERF_RECORD_MISC_KERNEL) {
		if (!strncmp(filename, "[kernel.kallsyms]", 17)) {
			m->have_kernel_map = true;
			m->kernel_start = start;
			/* perf's "[kernel.kallsyms]_text" at _text's address: where KASLR put it.
			 */
			if (filename[17] && pgoff) {
				m->kernel_ref = intern(m, filename + 17);
				m->kernel_ref_addr = pgoff;
			}
			return;
		}
		/* perf maps modules from their start, ignoring pgoff. */
		map.dso = module_name(m, filename);
		map.pgoff = 0;
		maps_insert(&m->kmaps, &map);
		return;
	}
	if (cpumode != PERF_RECORD_MISC_USER)
		return;
	map.identity = is_anon(filename, flags) || is_no_dso(filename);
	if (map.identity && (prot & PROT_EXEC)) {
		/* perf looks for JIT symbols in /tmp/perf-PID.map. */
		char buf[64];

		snprintf(buf, sizeof(buf), "/tmp/perf-%d.map", (int)pid);
		map.dso = intern(m, buf);
	} else {
		map.dso = intern(m, filename);
	}
	maps_insert(&proc_get(m, pid)->maps, &map);
}

static void process_fork(struct script_machine *m, const struct perfev_record *rec)
{
	struct script_thread *parent, *t;
	struct script_proc *pp;
	char *comm = NULL;

	parent = thread_find(m, rec->u.fork.ptid);
	if (parent && parent->comm) {
		comm = strdup(parent->comm);
		if (!comm)
			cli_die("out of memory");
	}
	/* A thread that still has this tid is gone: this one replaces it. */
	t = thread_get(m, rec->u.fork.pid, rec->u.fork.tid);
	free(t->comm);
	t->comm = comm;
	t->pid = rec->u.fork.pid;
	/*
	 * A new process starts with a copy of its parent's maps; a new thread
	 * shares them.  perf marks the FORK records it synthesizes for running
	 * processes with FORK_EXEC: their own MMAP records follow.
	 */
	if (rec->u.fork.pid == rec->u.fork.ppid || (rec->misc & PERF_RECORD_MISC_FORK_EXEC))
		return;
	pp = proc_find(m, rec->u.fork.ppid);
	maps_copy(&proc_get(m, rec->u.fork.pid)->maps, pp ? &pp->maps : NULL);
}

void script_machine_process(struct script_machine *m, const struct perfev_record *rec)
{
	unsigned int cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct script_thread *t;

	switch (rec->type) {
	case PERF_RECORD_COMM:
		t = thread_get(m, rec->u.comm.pid, rec->u.comm.tid);
		t->pid = rec->u.comm.pid;
		set_comm(t, rec->u.comm.comm);
		break;
	case PERF_RECORD_FORK:
		process_fork(m, rec);
		break;
	case PERF_RECORD_EXIT:
		/*
		 * perf only marks the thread dead: samples taken while it exits
		 * still carry its comm; a FORK reusing the tid replaces it.
		 */
		break;
	case PERF_RECORD_MMAP:
		process_mmap(m, cpumode, rec->u.mmap.pid, rec->u.mmap.addr, rec->u.mmap.len,
			     rec->u.mmap.pgoff,
			     (rec->misc & PERF_RECORD_MISC_MMAP_DATA) ? PROT_READ
								      : PROT_READ | PROT_EXEC,
			     0, rec->u.mmap.filename);
		break;
	case PERF_RECORD_MMAP2:
		process_mmap(m, cpumode, rec->u.mmap2.pid, rec->u.mmap2.addr, rec->u.mmap2.len,
			     rec->u.mmap2.pgoff, rec->u.mmap2.prot, rec->u.mmap2.flags,
			     rec->u.mmap2.filename);
		break;
	case PERF_RECORD_KSYMBOL: {
		struct script_map map = {.start = rec->u.ksymbol.addr,
					 .end = rec->u.ksymbol.addr + rec->u.ksymbol.len,
					 .identity = true};
		size_t i;

		if (!(rec->u.ksymbol.flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER)) {
			map.dso = intern(m, rec->u.ksymbol.name);
			maps_insert(&m->kmaps, &map);
			break;
		}
		i = maps_lower(&m->kmaps, map.start);
		if (i < m->kmaps.n && m->kmaps.v[i].start == map.start) {
			memmove(&m->kmaps.v[i], &m->kmaps.v[i + 1],
				(m->kmaps.n - i - 1) * sizeof(*m->kmaps.v));
			m->kmaps.n--;
		}
		break;
	}
	default:
		break;
	}
}
