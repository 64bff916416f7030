/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reading a counter from its mmap control page (the self-monitoring
 * protocol of perf_event_open(2)).  The instructions that read the
 * hardware are passed in, so the protocol is testable on synthetic pages.
 */
#ifndef PERFEV_MMAP_PAGE_H
#define PERFEV_MMAP_PAGE_H

#include <stdbool.h>
#include <stdint.h>
#include <perfev/abi.h>

struct perfev__page_reader {
	uint64_t (*rdpmc)(uint32_t counter, void *ctx); /* hardware counter number @counter */
	uint64_t (*rdtsc)(void *ctx);			/* the time stamp counter */
	void *ctx;
};

struct perfev__page_value {
	uint64_t count;
	uint64_t enabled;
	uint64_t running;
	bool on_pmu; /* index was non-zero: the counter is on the hardware now */
};

/*
 * Read the event behind @pg.  Returns 0, or -EAGAIN when the page says a
 * user-space read is not possible now (no cap_user_rdpmc, no
 * cap_user_time to bring the times up to date): use read(2) instead.
 */
int perfev__page_read(const volatile struct perf_event_mmap_page *pg,
		      const struct perfev__page_reader *r, struct perfev__page_value *out);

/* perf_event_open(2)'s time arithmetic: delta ns for @cyc cycles. */
uint64_t perfev__cyc_to_ns(uint64_t cyc, uint32_t mult, uint16_t shift);

/* The real instructions (x86); NULL elsewhere. */
extern const struct perfev__page_reader *const perfev__hw_reader;

#endif /* PERFEV_MMAP_PAGE_H */
