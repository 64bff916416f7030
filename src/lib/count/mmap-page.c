// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The self-monitoring read of perf_event_open(2): under the page's
 * seqlock take offset, index and the times, read the hardware counter
 * with rdpmc, sign-extend it to pmc_width, and extrapolate enabled and
 * running from the time stamp counter.
 */
#include <errno.h>
#include <stddef.h>
#include "count/mmap-page.h"

uint64_t perfev__cyc_to_ns(uint64_t cyc, uint32_t mult, uint16_t shift)
{
	uint64_t quot, rem;

	if (shift >= 64)
		return 0;
	quot = cyc >> shift;
	rem = cyc & ((1ULL << shift) - 1);
	return quot * mult + ((rem * mult) >> shift);
}

int perfev__page_read(const volatile struct perf_event_mmap_page *pg,
		      const struct perfev__page_reader *r, struct perfev__page_value *out)
{
	uint64_t enabled, running, cyc = 0, time_offset = 0, time_cycles = 0, time_mask = 0;
	uint32_t seq, index, mult = 0, width = 0;
	uint16_t shift = 0;
	int64_t offset, pmc;
	bool user_rdpmc, user_time, time_short;
	int tries = 0;

	do {
		if (++tries > 1000)
			return -EAGAIN;
		/* Pairs with the kernel's increments of lock around its updates. */
		seq = __atomic_load_n(&pg->lock, __ATOMIC_ACQUIRE);
		enabled = pg->time_enabled;
		running = pg->time_running;
		user_rdpmc = pg->cap_user_rdpmc;
		user_time = pg->cap_user_time;
		time_short = pg->cap_user_time_short;
		if (user_time && r && r->rdtsc) {
			cyc = r->rdtsc(r->ctx);
			time_offset = pg->time_offset;
			mult = pg->time_mult;
			shift = pg->time_shift;
			if (time_short) {
				time_cycles = pg->time_cycles;
				time_mask = pg->time_mask;
			}
		}
		index = pg->index;
		offset = pg->offset;
		pmc = 0;
		if (user_rdpmc && index && r && r->rdpmc) {
			width = pg->pmc_width;
			pmc = (int64_t)r->rdpmc(index - 1, r->ctx);
		}
		/* Pairs with the kernel's release of lock after the update. */
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (__atomic_load_n(&pg->lock, __ATOMIC_RELAXED) != seq || (seq & 1));

	/*
	 * Without rdpmc the page only says what the count was at the last
	 * context switch; without the time conversion the times are stale.
	 */
	if (!user_rdpmc || !user_time || !r || !r->rdtsc || (index && !r->rdpmc))
		return -EAGAIN;
	if (index && width && width < 64) {
		pmc = (int64_t)((uint64_t)pmc << (64 - width));
		pmc >>= 64 - width;
	}
	if (time_short)
		cyc = time_cycles + ((cyc - time_cycles) & time_mask);
	{
		uint64_t delta = time_offset + perfev__cyc_to_ns(cyc, mult, shift);

		enabled += delta;
		/* Off the PMU (multiplexed out) the event is not running: running stays. */
		if (index)
			running += delta;
	}
	out->count = (uint64_t)(offset + pmc);
	out->enabled = enabled;
	out->running = running;
	out->on_pmu = index != 0;
	return 0;
}

#if defined(__x86_64__) || defined(__i386__)
static uint64_t x86_rdpmc(uint32_t counter, void *ctx)
{
	uint32_t lo, hi;

	(void)ctx;
	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return (uint64_t)hi << 32 | lo;
}

static uint64_t x86_rdtsc(void *ctx)
{
	uint32_t lo, hi;

	(void)ctx;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static const struct perfev__page_reader x86_reader = {x86_rdpmc, x86_rdtsc, NULL};
const struct perfev__page_reader *const perfev__hw_reader = &x86_reader;
#else
const struct perfev__page_reader *const perfev__hw_reader = NULL;
#endif
