// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A sample's data source (PERF_SAMPLE_DATA_SRC, decoded by the library)
 * in perf 6.1's words, built as perf's scnprintf() calls build them: the
 * whole "|OP ...|LVL ...|SNP ...|TLB ...|LCK ...|BLK ..." of perf script's
 * data_src field, and each part alone for perf report's --mem-mode columns.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <perfev/record.h>
#include "output/data-src.h"

/* A string built as perf's scnprintf() calls build theirs. */
struct sbuf {
	char v[512];
	size_t n;
};

static void sb_put(struct sbuf *b, const char *s)
{
	size_t len = strlen(s);

	if (len > sizeof(b->v) - 1 - b->n)
		len = sizeof(b->v) - 1 - b->n;
	memcpy(b->v + b->n, s, len);
	b->n += len;
	b->v[b->n] = 0;
}

/* Names of the set bits of @m (lowest first) joined by " or ". */
static bool sb_bits(struct sbuf *b, unsigned int m, const char *const *names, size_t n, bool first)
{
	size_t i;

	for (i = 0; m && i < n; i++, m >>= 1) {
		if (!(m & 1))
			continue;
		if (!first)
			sb_put(b, " or ");
		sb_put(b, names[i]);
		first = false;
	}
	return first;
}

static const char *const mem_lvl[] = {
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
static const char *const mem_lvlnum[16] = {
    [0x09] = "CXL", [0x0a] = "I/O",  [0x0b] = "Any cache", [0x0c] = "LFB/MAB",
    [0x0d] = "RAM", [0x0e] = "PMEM", [0x0f] = "N/A",
};
static const char *const mem_hops[] = {
    "N/A", "core, same node", "node, same socket", "socket, same board", "board",
};
static const char *const snoop_access[] = {"N/A", "None", "Hit", "Miss", "HitM"};
static const char *const snoopx_access[] = {"Fwd", "Peer"};
static const char *const tlb_access[] = {"N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault"};

#define ASIZE(a) (sizeof(a) / sizeof((a)[0]))

static void mem_op(struct sbuf *b, const struct perfev_data_src *d)
{
	unsigned int op = d->mem_op;

	if (op & PERF_MEM_OP_NA)
		sb_put(b, "N/A");
	else if (op & PERF_MEM_OP_LOAD)
		sb_put(b, "LOAD");
	else if (op & PERF_MEM_OP_STORE)
		sb_put(b, "STORE");
	else if (op & PERF_MEM_OP_PFETCH)
		sb_put(b, "PFETCH");
	else if (op & PERF_MEM_OP_EXEC)
		sb_put(b, "EXEC");
	else
		sb_put(b, "No");
}

static void mem_lvl_text(struct sbuf *b, const struct perfev_data_src *d)
{
	unsigned int m = d->mem_lvl & ~(PERF_MEM_LVL_HIT | PERF_MEM_LVL_MISS);
	size_t start = b->n;
	bool first = true;

	if (d->mem_remote)
		sb_put(b, "Remote ");
	/* With hops, the PERF_MEM_LVL bits are not shown. */
	if (d->mem_hops) {
		char hop[64];

		/* perf reads past its table for the hops it does not name: glibc says "(null)". */
		snprintf(hop, sizeof(hop), "%s ",
			 d->mem_hops < ASIZE(mem_hops) ? mem_hops[d->mem_hops] : "(null)");
		sb_put(b, hop);
	} else {
		first = sb_bits(b, m, mem_lvl, ASIZE(mem_lvl), true);
	}
	if (d->mem_lvl_num) {
		char num[16];

		if (!first)
			sb_put(b, " or ");
		if (mem_lvlnum[d->mem_lvl_num]) {
			sb_put(b, mem_lvlnum[d->mem_lvl_num]);
		} else {
			snprintf(num, sizeof(num), "L%u", d->mem_lvl_num);
			sb_put(b, num);
		}
	}
	if (b->n == start)
		sb_put(b, "N/A");
	if (d->mem_lvl & PERF_MEM_LVL_HIT)
		sb_put(b, " hit");
	if (d->mem_lvl & PERF_MEM_LVL_MISS)
		sb_put(b, " miss");
}

static void mem_snoop(struct sbuf *b, const struct perfev_data_src *d)
{
	bool first = sb_bits(b, d->mem_snoop, snoop_access, ASIZE(snoop_access), true);

	if (sb_bits(b, d->mem_snoopx, snoopx_access, ASIZE(snoopx_access), first))
		sb_put(b, "N/A");
}

static void mem_tlb(struct sbuf *b, const struct perfev_data_src *d)
{
	unsigned int m = d->mem_dtlb & ~(PERF_MEM_TLB_HIT | PERF_MEM_TLB_MISS);

	if (sb_bits(b, m, tlb_access, ASIZE(tlb_access), true))
		sb_put(b, "N/A");
	if (d->mem_dtlb & PERF_MEM_TLB_HIT)
		sb_put(b, " hit");
	if (d->mem_dtlb & PERF_MEM_TLB_MISS)
		sb_put(b, " miss");
}

static void mem_lock(struct sbuf *b, const struct perfev_data_src *d)
{
	if (d->mem_lock & PERF_MEM_LOCK_NA)
		sb_put(b, "N/A");
	else if (d->mem_lock & PERF_MEM_LOCK_LOCKED)
		sb_put(b, "Yes");
	else
		sb_put(b, "No");
}

static void mem_blk(struct sbuf *b, const struct perfev_data_src *d)
{
	if (!d->mem_blk || (d->mem_blk & PERF_MEM_BLK_NA)) {
		sb_put(b, " N/A");
		return;
	}
	if (d->mem_blk & PERF_MEM_BLK_DATA)
		sb_put(b, " Data");
	if (d->mem_blk & PERF_MEM_BLK_ADDR)
		sb_put(b, " Addr");
}

size_t data_src_text(uint64_t v, char *buf, size_t len)
{
	struct perfev_data_src d;
	struct sbuf b = {.n = 0};

	perfev_data_src_decode(v, &d);
	b.v[0] = 0;
	sb_put(&b, "|OP ");
	mem_op(&b, &d);
	sb_put(&b, "|LVL ");
	mem_lvl_text(&b, &d);
	sb_put(&b, "|SNP ");
	mem_snoop(&b, &d);
	sb_put(&b, "|TLB ");
	mem_tlb(&b, &d);
	sb_put(&b, "|LCK ");
	mem_lock(&b, &d);
	sb_put(&b, "|BLK ");
	mem_blk(&b, &d);
	snprintf(buf, len, "%s", b.v);
	return b.n;
}

void data_src_part_text(enum data_src_part part, uint64_t v, char *buf, size_t len)
{
	static void (*const print[])(struct sbuf *, const struct perfev_data_src *) = {
	    [DSP_LVL] = mem_lvl_text, [DSP_SNOOP] = mem_snoop, [DSP_TLB] = mem_tlb,
	    [DSP_LOCK] = mem_lock,    [DSP_BLK] = mem_blk,
	};
	struct perfev_data_src d;
	struct sbuf b = {.n = 0};

	perfev_data_src_decode(v, &d);
	b.v[0] = 0;
	print[part](&b, &d);
	snprintf(buf, len, "%s", b.v);
}
