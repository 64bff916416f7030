// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev report's memory columns (--mem-mode): a sample's data source in
 * perf 6.1's words (data-src.c, shared with perf script's data_src field):
 * the memory level, snoop, TLB, lock and block states, and the bits each
 * key tells lines apart by.
 */
#include "output/data-src.h"
#include "report.h"

void report_mem_text(enum sort_key k, uint64_t data_src, char *buf, size_t len)
{
	buf[0] = '\0';
	switch (k) {
	case SK_MEM:
		data_src_part_text(DSP_LVL, data_src, buf, len);
		break;
	case SK_SNOOP:
		data_src_part_text(DSP_SNOOP, data_src, buf, len);
		break;
	case SK_TLB:
		data_src_part_text(DSP_TLB, data_src, buf, len);
		break;
	case SK_LOCKED:
		data_src_part_text(DSP_LOCK, data_src, buf, len);
		break;
	case SK_BLOCKED:
		data_src_part_text(DSP_BLK, data_src, buf, len);
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
