// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer harness: the DWARF unwinder (src/lib/symbols/unwind.c) given
 * a sample's user registers, a user stack copy and an address space made
 * of real libraries (libc, libdw, libelf, libzstd, as this process maps
 * them) placed at fixed addresses, so that an input means the same in
 * every run: libc's first mapping at 0x7f0000000000, the next library
 * 256 MiB above, and so on.
 *
 * Input: a flags byte (bit 0: walk again with libdwfl alone, which must
 * find the same frames and stop; bit 1: the maps' file offsets and ends
 * changed by the next bytes, as a damaged recording's MMAP records would
 * say), three bytes of sample_regs_user (IP and SP always added), the
 * most frames to find, the registers (8 bytes each, lowest bit first),
 * then the stack copy.  The copy sits in a heap block of exactly its
 * size: a read outside it is an ASan error.
 */
#include <asm/perf_regs.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "symbols/unwind.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FAKE_BASE  0x7f0000000000ULL
#define FAKE_STEP  0x10000000ULL
#define MAX_MAPS   64
#define MAX_FRAMES 256
#define MAX_STACK  (64 * 1024)

static const char *const libs[] = {"libc.so.6", "libdw.so.1", "libelf.so.1", "libzstd.so.1"};

static struct perfev__unwind_map maps[MAX_MAPS];
static size_t nmaps;
static char paths[sizeof(libs) / sizeof(libs[0])][256];
static struct perfev__unwinder *rules, *plain;
static int space_key, damaged_key;
static uint64_t generation;
static bool verbose; /* PERFEV_FUZZ_VERBOSE set: each input's frames and stop on stderr */

/* The libraries' file mappings, moved to their fixed places. */
static void load_maps(void)
{
	uint64_t real_base[sizeof(libs) / sizeof(libs[0])] = {0};
	char line[512], path[256];
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		abort();
	while (fgets(line, sizeof(line), f) && nmaps < MAX_MAPS) {
		unsigned long long start, end, pgoff;
		const char *base;
		size_t k;

		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %255s", &start, &end, &pgoff, path) !=
		    4)
			continue;
		base = strrchr(path, '/');
		base = base ? base + 1 : path;
		for (k = 0; k < sizeof(libs) / sizeof(libs[0]); k++)
			if (!strcmp(base, libs[k]))
				break;
		if (k == sizeof(libs) / sizeof(libs[0]))
			continue;
		if (!real_base[k]) {
			real_base[k] = start;
			snprintf(paths[k], sizeof(paths[k]), "%s", path);
		}
		maps[nmaps++] = (struct perfev__unwind_map){
		    .start = start - real_base[k] + FAKE_BASE + k * FAKE_STEP,
		    .end = end - real_base[k] + FAKE_BASE + k * FAKE_STEP,
		    .pgoff = pgoff,
		    .path = paths[k],
		};
	}
	fclose(f);
	/* By start, as the unwinder wants them: the libraries are in order of k. */
	for (size_t i = 1; i < nmaps; i++)
		for (size_t j = i; j > 0 && maps[j].start < maps[j - 1].start; j--) {
			struct perfev__unwind_map t = maps[j];

			maps[j] = maps[j - 1];
			maps[j - 1] = t;
		}
}

static void init_once(void)
{
	if (rules)
		return;
	load_maps();
	verbose = getenv("PERFEV_FUZZ_VERBOSE");
	if (perfev__unwinder_new(&rules) || perfev__unwinder_new(&plain))
		abort();
	perfev__unwinder_set_libdwfl_only(plain, true);
}

static void check(const uint64_t *ips, size_t n, size_t max, enum perfev__unwind_stop stop,
		  uint64_t ip)
{
	if (n > max || stop >= PERFEV__UNWIND_NR_STOPS || !perfev__unwind_stop_name(stop))
		abort();
	if (stop == PERFEV__UNWIND_MAX_DEPTH ? n != max : n >= max && max)
		abort();
	if (n && ips[0] != ip)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint64_t ips[MAX_FRAMES], ips2[MAX_FRAMES];
	struct perfev__unwind_map damaged[MAX_MAPS];
	struct perfev__unwind_space space = {&space_key, 1, maps, 0};
	struct perfev__unwind_regs regs = {PERF_SAMPLE_REGS_ABI_64, 0, NULL};
	uint64_t regv[24] = {0};
	enum perfev__unwind_stop stop, stop2;
	size_t max, nregs, n, n2, i;
	uint64_t ip;
	uint8_t flags;
	void *stack;

	if (size < 5)
		return 0;
	init_once();
	space.nmaps = nmaps;
	flags = data[0];
	regs.mask = (uint64_t)data[1] | (uint64_t)data[2] << 8 | (uint64_t)data[3] << 16;
	regs.mask |= 1ULL << PERF_REG_X86_IP | 1ULL << PERF_REG_X86_SP;
	regs.mask &= (1ULL << PERF_REG_X86_64_MAX) - 1;
	max = data[4];
	data += 5;
	size -= 5;
	nregs = (size_t)__builtin_popcountll(regs.mask);
	memcpy(regv, data, size < nregs * 8 ? size : nregs * 8);
	data += size < nregs * 8 ? size : nregs * 8;
	size -= size < nregs * 8 ? size : nregs * 8;
	regs.regs = regv;

	if (flags & 2) {
		/* Each map's offset and end from the next bytes: 4 each, while they last. */
		memcpy(damaged, maps, nmaps * sizeof(*maps));
		for (i = 0; i < nmaps && size >= 4; i++, data += 4, size -= 4) {
			damaged[i].pgoff ^= (uint64_t)(data[0] | data[1] << 8) << 12;
			if (data[2] & 1)
				damaged[i].end = damaged[i].start + ((uint64_t)data[3] << 12) + 1;
		}
		space = (struct perfev__unwind_space){&damaged_key, ++generation, damaged, nmaps};
	}
	if (size > MAX_STACK)
		return 0;
	stack = malloc(size ? size : 1);
	if (!stack)
		return 0;
	memcpy(stack, data, size);

	/* The sample's pc: the register of IP's bit, counted among those the mask keeps. */
	ip = regv[__builtin_popcountll(regs.mask & ((1ULL << PERF_REG_X86_IP) - 1))];
	if (perfev__unwind(rules, &space, 1, 1, &regs, stack, size, ips, max, &n, &stop))
		abort();
	check(ips, n, max, stop, ip);
	if (verbose)
		fprintf(stderr, "unwind: %zu frames, stop: %s\n", n,
			perfev__unwind_stop_name(stop));
	if (flags & 1) {
		if (perfev__unwind(plain, &space, 1, 1, &regs, stack, size, ips2, max, &n2, &stop2))
			abort();
		if (verbose)
			fprintf(stderr, "unwind (libdwfl): %zu frames, stop: %s\n", n2,
				perfev__unwind_stop_name(stop2));
		check(ips2, n2, max, stop2, ip);
		if (n != n2 || stop != stop2 || memcmp(ips, ips2, n * sizeof(*ips)))
			abort();
	}
	free(stack);
	return 0;
}
