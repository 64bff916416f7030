/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the unwinding tests: this process's maps, frames named by the symbolizer. */
#ifndef PERFEV_TEST_UNWIND_COMMON_H
#define PERFEV_TEST_UNWIND_COMMON_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/symbols.h>
#include "harness.h"
#include "symbols/unwind.h"

/* The general registers of x86_64 in perf's order: AX..SS and R8..R15. */
#define UNWIND_REGS_MASK 0xff0fffULL
#define UNWIND_NREGS	 20 /* bits in UNWIND_REGS_MASK */
/* Indexes in a sample's registers under UNWIND_REGS_MASK. */
#define UREG_BP 6
#define UREG_SP 7
#define UREG_IP 8

struct test_maps {
	struct perfev__unwind_map *m;
	size_t n;
	char **paths;
};

static inline void test_maps_release(struct test_maps *tm)
{
	size_t i;

	for (i = 0; i < tm->n; i++)
		free(tm->paths[i]);
	free(tm->paths);
	free(tm->m);
	memset(tm, 0, sizeof(*tm));
}

/* The maps of /proc/self/maps, as MMAP2 records would give them (no build ids). */
static inline bool test_maps_load(struct test_maps *tm)
{
	FILE *fp = fopen("/proc/self/maps", "re");
	char line[4096];
	size_t cap = 0;

	memset(tm, 0, sizeof(*tm));
	if (!fp)
		return false;
	while (fgets(line, sizeof(line), fp)) {
		unsigned long long start, end, off;
		char perms[8], path[4096];
		int pos = 0;

		path[0] = '\0';
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &off, &pos) <
		    4)
			continue;
		if (pos > 0 && sscanf(line + pos, "%4095[^\n]", path) != 1)
			path[0] = '\0';
		if (tm->n == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			void *a = realloc(tm->m, ncap * sizeof(*tm->m));
			void *b = a ? realloc(tm->paths, ncap * sizeof(*tm->paths)) : NULL;

			if (a)
				tm->m = a;
			if (b)
				tm->paths = b;
			if (!a || !b)
				break;
			cap = ncap;
		}
		tm->paths[tm->n] = path[0] ? strdup(path) : NULL;
		memset(&tm->m[tm->n], 0, sizeof(tm->m[tm->n]));
		tm->m[tm->n].start = start;
		tm->m[tm->n].end = end;
		tm->m[tm->n].pgoff = off;
		tm->m[tm->n].path = tm->paths[tm->n];
		tm->n++;
	}
	fclose(fp);
	return tm->n > 0;
}

static inline const struct perfev__unwind_map *test_map_of(const struct test_maps *tm,
							   uint64_t addr)
{
	size_t i;

	for (i = 0; i < tm->n; i++)
		if (addr >= tm->m[i].start && addr < tm->m[i].end)
			return &tm->m[i];
	return NULL;
}

/* The symbol of @ip, or "?" (a static buffer per call site is not needed: names live in @s). */
static inline const char *test_sym(struct perfev_symbolizer *s, const struct test_maps *tm,
				   uint64_t ip)
{
	const struct perfev__unwind_map *m = test_map_of(tm, ip);
	struct perfev_sym sym;

	if (!m || !m->path)
		return "?";
	if (perfev_symbolize_user(s, m->path, m->start, m->pgoff, ip, &sym) || !sym.name)
		return "?";
	return sym.name;
}

/* Whether @ip lies in a mapping of a file whose name contains @part. */
static inline bool test_ip_in(const struct test_maps *tm, uint64_t ip, const char *part)
{
	const struct perfev__unwind_map *m = test_map_of(tm, ip);

	return m && m->path && strstr(m->path, part);
}

/* One line "sym <- sym <- ... [stop]" into @buf, to show a chain that failed a check. */
static inline void test_chain_text(struct perfev_symbolizer *s, const struct test_maps *tm,
				   const uint64_t *ips, size_t n, enum perfev__unwind_stop stop,
				   char *buf, size_t len)
{
	size_t i, pos = 0;

	buf[0] = '\0';
	for (i = 0; i < n && pos + 1 < len; i++) {
		int w = snprintf(buf + pos, len - pos, "%s%s", i ? " <- " : "",
				 test_sym(s, tm, ips[i]));

		if (w < 0)
			break;
		pos += (size_t)w;
	}
	if (pos + 1 < len)
		snprintf(buf + pos, len - pos, " [%s]", perfev__unwind_stop_name(stop));
}

/*
 * Whether the frames from @from on go up to main and end there, through
 * libc's start-up: ... <- main <- (libc frames) <- _start, the unwind
 * ending cleanly.  *@via_start_call says whether __libc_start_call_main
 * was named on the way.
 */
static inline bool test_reaches_start(struct perfev_symbolizer *s, const struct test_maps *tm,
				      const uint64_t *ips, size_t n, size_t from,
				      enum perfev__unwind_stop stop, bool *via_start_call)
{
	size_t i, main_at = n;

	*via_start_call = false;
	for (i = from; i < n; i++)
		if (!strcmp(test_sym(s, tm, ips[i]), "main")) {
			main_at = i;
			break;
		}
	if (main_at + 1 >= n || stop != PERFEV__UNWIND_END)
		return false;
	if (strcmp(test_sym(s, tm, ips[n - 1]), "_start"))
		return false;
	for (i = main_at + 1; i + 1 < n; i++) {
		if (!test_ip_in(tm, ips[i], "libc.so"))
			return false;
		if (!strcmp(test_sym(s, tm, ips[i]), "__libc_start_call_main"))
			*via_start_call = true;
	}
	return true;
}

#endif /* PERFEV_TEST_UNWIND_COMMON_H */
