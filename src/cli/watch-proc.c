// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev watch: what it needs to know of the target process: where its
 * executable was loaded (to turn a SYMBOL into an address) and which
 * function holds an instruction address (to name a hit and its callers).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <perfev/perfev.h>
#include "perfev-cli.h"
#include "watch.h"

struct map {
	uint64_t start, end, pgoff;
	char *path;
};

/* The last process whose maps were read, and a symbolizer for all lookups. */
static struct {
	pid_t pid;
	struct map *maps;
	size_t n, cap;
	struct perfev_symbolizer *sym;
} cache;

static void maps_clear(void)
{
	for (size_t i = 0; i < cache.n; i++)
		free(cache.maps[i].path);
	cache.n = 0;
}

/* Read /proc/@pid/maps (file-backed mappings only); false when the process is gone. */
static bool maps_load(pid_t pid)
{
	char path[64], line[PATH_MAX + 128];
	FILE *f;

	maps_clear();
	cache.pid = pid;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		int pos = 0;
		char *name;

		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %n", &s, &e, &off, &pos) < 3 || !pos)
			continue;
		name = line + pos;
		name[strcspn(name, "\n")] = 0;
		if (name[0] != '/')
			continue;
		cli_grow(&cache.maps, &cache.cap, cache.n + 1, sizeof(*cache.maps));
		cache.maps[cache.n].start = s;
		cache.maps[cache.n].end = e;
		cache.maps[cache.n].pgoff = off;
		cache.maps[cache.n].path = strdup(name);
		if (!cache.maps[cache.n].path)
			cli_die("out of memory");
		cache.n++;
	}
	fclose(f);
	return true;
}

static const struct map *map_of(pid_t pid, uint64_t ip)
{
	/* A miss reads the maps again: the process may have mapped a library since. */
	for (int pass = 0; pass < 2; pass++) {
		if (pass || cache.pid != pid)
			if (!maps_load(pid))
				return NULL;
		for (size_t i = 0; i < cache.n; i++)
			if (ip >= cache.maps[i].start && ip < cache.maps[i].end)
				return &cache.maps[i];
	}
	return NULL;
}

bool watch_symbolize(pid_t pid, uint64_t ip, char *buf, size_t len, uint64_t *sym_start)
{
	const struct map *m = map_of(pid, ip);
	struct perfev_sym s;

	if (!m)
		return false;
	if (!cache.sym && perfev_symbolizer_new(NULL, &cache.sym))
		return false;
	if (perfev_symbolize_user(cache.sym, m->path, m->start, m->pgoff, ip, &s))
		return false;
	snprintf(buf, len, "%s+0x%llx", s.name, (unsigned long long)(s.addr - s.start));
	if (sym_start)
		*sym_start = ip - (s.addr - s.start);
	return true;
}

void watch_symbols_release(void)
{
	maps_clear();
	free(cache.maps);
	cache.maps = NULL;
	cache.cap = 0;
	cache.pid = 0;
	perfev_symbolizer_free(cache.sym);
	cache.sym = NULL;
}

/* The lengths a breakpoint can watch, largest first. */
static const unsigned int lens[] = {8, 4, 2, 1};

void watch_resolve(struct watch_run *run, struct watch *w)
{
	char exe_link[64], exe[PATH_MAX];
	struct perfev_elf_symbol sym;
	uint64_t bias = 0;
	bool found = false;
	ssize_t n;
	int err;

	snprintf(exe_link, sizeof(exe_link), "/proc/%d/exe", (int)run->pid);
	n = readlink(exe_link, exe, sizeof(exe) - 1);
	if (n < 0)
		cli_die("cannot read the executable of pid %d: %s", (int)run->pid, strerror(errno));
	exe[n] = 0;
	err = perfev_elf_symbol_find(exe_link, w->symbol, &sym);
	switch (-err) {
	case 0:
		break;
	case ENOENT:
		cli_die("cannot watch '%s': no symbol '%s' in '%s' (a global variable or function "
			"of the executable; give an address instead)",
			w->arg, w->symbol, exe);
	case ENOKEY:
		cli_die("cannot watch '%s': '%s' is stripped (no .symtab) and does not export "
			"'%s'; give an address, or rebuild without stripping",
			w->arg, exe, w->symbol);
	case EOPNOTSUPP:
		cli_die("cannot watch '%s': '%s' is thread-local, with an address per thread; "
			"give the address of one thread's copy",
			w->arg, w->symbol);
	default:
		cli_die("cannot read the symbols of '%s': %s", exe, perfev_strerror(err));
	}
	/* The load bias, from the first mapping of the executable. */
	if (maps_load(run->pid))
		for (size_t i = 0; i < cache.n && !found; i++)
			if (!strcmp(cache.maps[i].path, exe))
				found = !perfev_elf_load_bias(exe_link, cache.maps[i].start,
							      cache.maps[i].pgoff, &bias);
	if (!found)
		cli_die("cannot find where '%s' is loaded in pid %d", exe, (int)run->pid);
	w->addr = sym.vaddr + bias + w->offset;
	if (w->kind_auto)
		w->kind = sym.func ? WATCH_X : WATCH_W;
	if (w->kind == WATCH_X && !sym.func)
		cli_die("cannot watch '%s' with -x: '%s' is data, not a function", w->arg,
			w->symbol);
	if (!w->len) {
		/* The symbol's size where it is one a breakpoint can cover, else the widest fit. */
		w->len = w->kind == WATCH_X ? sizeof(long) : 4;
		if (w->kind != WATCH_X)
			for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
				if ((!sym.size || lens[i] <= sym.size - w->offset) &&
				    !(w->addr % lens[i])) {
					w->len = lens[i];
					break;
				}
	}
}

void watch_check(const struct watch *w)
{
	if (w->len != 1 && w->len != 2 && w->len != 4 && w->len != 8) {
		cli_error("cannot watch '%s': length %u is not one a breakpoint covers; use --len "
			  "1, 2, 4 or 8",
			  w->arg, w->len);
		exit(2);
	}
	if (w->kind == WATCH_X && w->len != sizeof(long)) {
		cli_error("cannot watch '%s' with -x: an execution breakpoint covers one "
			  "instruction, its length is %zu (leave --len out)",
			  w->arg, sizeof(long));
		exit(2);
	}
#if defined(__x86_64__)
	/* User space ends below 2^47 (2^56 with 5-level paging); above is the kernel's. */
	if (w->addr >= 1ULL << 56 || w->addr + w->len < w->addr) {
		cli_error("cannot watch '%s' (%#llx): not a user-space address (perfev watch "
			  "watches a process's memory, not the kernel's)",
			  w->arg, (unsigned long long)w->addr);
		exit(2);
	}
#endif
	if (w->kind != WATCH_X && w->addr % w->len) {
		cli_error(
		    "cannot watch '%s' (%#llx) with length %u: the address must be a multiple "
		    "of the length (debug registers cover aligned ranges); use a smaller "
		    "--len or an aligned address",
		    w->arg, (unsigned long long)w->addr, w->len);
		exit(2);
	}
}
