// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev report's memory columns (--mem-mode): a sample's data source
 * (PERF_SAMPLE_DATA_SRC, decoded by the library) in perf 6.1's words:
 * the memory level, snoop, TLB, lock and block states.
 */
#include <string.h>
#include <perfev/record.h>
#include "report.h"

/* Append @s to @buf (@len bytes), " or " first when @sep. */
static void put(char *buf, size_t len, const char *s, bool sep)
{
	size_t at = strlen(buf);

	if (at + 1 >= len)
		return;
	snprintf(buf + at, len - at, "%s%s", sep ? " or " : "", s);
}

/* The names of the bits of @m from bit 0 on, " or " between them; how many. */
static int bits(char *buf, size_t len, unsigned int m, const char *const *names, size_t n,
		int printed)
{
	size_t i;

	for (i = 0; m && i < n; i++, m >>= 1)
		if (m & 1)
			put(buf, len, names[i], printed++ > 0);
	return printed;
}

static void mem_level(char *buf, size_t len, const struct perfev_data_src *d)
{
	static const char *const lvl[] = {
	    "N/A",
	    "HIT",
	    "MISS",
	    "L1",
	    "LFB/MAB",
	    "L2",
	    "L3",
	    "Local RAM",
	    "Remote RAM (1 hop)",
	    "Remote RAM (2 hops)",
	    "Remote Cache (1 hop)",
	    "Remote Cache (2 hops)",
	    "I/O",
	    "Uncached",
	};
	static const char *const lvlnum[16] = {
	    [PERF_MEM_LVLNUM_CXL] = "CXL",
	    [PERF_MEM_LVLNUM_IO] = "I/O",
	    [PERF_MEM_LVLNUM_ANY_CACHE] = "Any cache",
	    [PERF_MEM_LVLNUM_LFB] = "LFB/MAB",
	    [PERF_MEM_LVLNUM_RAM] = "RAM",
	    [PERF_MEM_LVLNUM_PMEM] = "PMEM",
	    [PERF_MEM_LVLNUM_NA] = "N/A",
	};
	static const char *const hops[] = {
	    "N/A", "core, same node", "node, same socket", "socket, same board", "board",
	};
	unsigned int m = d->mem_lvl & ~(unsigned int)(PERF_MEM_LVL_HIT | PERF_MEM_LVL_MISS);
	int printed = 0;
	char num[16];

	if (d->mem_remote)
		put(buf, len, "Remote ", false);
	/* The hops, when given, say where instead of the level bits. */
	if (d->mem_hops && d->mem_hops < sizeof(hops) / sizeof(hops[0])) {
		put(buf, len, hops[d->mem_hops], false);
		put(buf, len, " ", false);
	} else {
		printed = bits(buf, len, m, lvl, sizeof(lvl) / sizeof(lvl[0]), 0);
	}
	if (d->mem_lvl_num) {
		snprintf(num, sizeof(num), "L%u", d->mem_lvl_num);
		put(buf, len, lvlnum[d->mem_lvl_num] ? lvlnum[d->mem_lvl_num] : num, printed++ > 0);
	}
	if (!buf[0])
		put(buf, len, "N/A", false);
	if (d->mem_lvl & PERF_MEM_LVL_HIT)
		put(buf, len, " hit", false);
	if (d->mem_lvl & PERF_MEM_LVL_MISS)
		put(buf, len, " miss", false);
}

void report_mem_text(enum sort_key k, uint64_t data_src, char *buf, size_t len)
{
	static const char *const snoop[] = {"N/A", "None", "Hit", "Miss", "HitM"};
	static const char *const snoopx[] = {"Fwd", "Peer"};
	static const char *const tlb[] = {"N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault"};
	struct perfev_data_src d;
	int n;

	perfev_data_src_decode(data_src, &d);
	buf[0] = '\0';
	switch (k) {
	case SK_MEM:
		mem_level(buf, len, &d);
		break;
	case SK_SNOOP:
		n = bits(buf, len, d.mem_snoop, snoop, sizeof(snoop) / sizeof(snoop[0]), 0);
		bits(buf, len, d.mem_snoopx, snoopx, sizeof(snoopx) / sizeof(snoopx[0]), n);
		if (!buf[0])
			put(buf, len, "N/A", false);
		break;
	case SK_TLB:
		bits(buf, len, d.mem_dtlb & ~(unsigned int)(PERF_MEM_TLB_HIT | PERF_MEM_TLB_MISS),
		     tlb, sizeof(tlb) / sizeof(tlb[0]), 0);
		if (!buf[0])
			put(buf, len, "N/A", false);
		if (d.mem_dtlb & PERF_MEM_TLB_HIT)
			put(buf, len, " hit", false);
		if (d.mem_dtlb & PERF_MEM_TLB_MISS)
			put(buf, len, " miss", false);
		break;
	case SK_LOCKED:
		snprintf(buf, len, "%s",
			 (d.mem_lock & PERF_MEM_LOCK_NA)       ? "N/A"
			 : (d.mem_lock & PERF_MEM_LOCK_LOCKED) ? "Yes"
							       : "No");
		break;
	case SK_BLOCKED:
		/* perf's, each word after a space */
		if (!d.mem_blk || (d.mem_blk & PERF_MEM_BLK_NA)) {
			snprintf(buf, len, " N/A");
			break;
		}
		if (d.mem_blk & PERF_MEM_BLK_DATA)
			put(buf, len, " Data", false);
		if (d.mem_blk & PERF_MEM_BLK_ADDR)
			put(buf, len, " Addr", false);
		break;
	default:
		break;
	}
}

uint64_t report_mem_key(enum sort_key k, uint64_t data_src)
{
	/* perf compares one field per key: the level bits, the snoop bits, ... */
	switch (k) {
	case SK_MEM:
		return data_src & (0x3fffULL << 5);
	case SK_SNOOP:
		return data_src & (0x1fULL << 19);
	case SK_LOCKED:
		return data_src & (0x3ULL << 24);
	case SK_TLB:
		return data_src & (0x7fULL << 26);
	case SK_BLOCKED:
		return data_src & (0x7ULL << 40);
	default:
		return 0;
	}
}
