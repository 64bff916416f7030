/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef PERFEV_CLI_DATA_SRC_H
#define PERFEV_CLI_DATA_SRC_H

#include <stddef.h>
#include <stdint.h>

/* The parts of a data source perf report shows as --mem-mode columns. */
enum data_src_part { DSP_LVL, DSP_SNOOP, DSP_TLB, DSP_LOCK, DSP_BLK };

/* perf script's data_src text of @v into @buf (@len bytes); its length. */
size_t data_src_text(uint64_t v, char *buf, size_t len);

/* One part of it alone, as perf report's mem, snoop, tlb, locked and blocked keys. */
void data_src_part_text(enum data_src_part part, uint64_t v, char *buf, size_t len);

#endif
