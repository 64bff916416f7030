// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The values of perf record's attr options, spelled as perf spells them:
 * sampled registers (--user-regs, --intr-regs) and the reference time of
 * the clock of -k; branch filters (-j) and clock names are the library's.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <time.h>
#include <linux/perf_event.h>
#include <perfev/attr.h>
#include "options.h"
#include "record.h"

/* ---- --user-regs / --intr-regs ----------------------------------------------------- */

/* x86_64's registers as perf_regs numbers them: the library's names, as perf script prints them. */
#define NREG_NAMES  24
#define reg_name(i) perfev_reg_name("x86_64", (unsigned int)(i))
#define XMM_FIRST   32 /* XMM0 takes bits 32 and 33, XMM1 34 and 35, ... */
#define XMM_COUNT   16

/* perf's default set: the general registers, not the segment ones perf leaves out. */
#define REGS_DEFAULT 0xff0fffULL

void rec_regs_list(FILE *f, bool intr)
{
	size_t i;

	fputs("available registers:", f);
	for (i = 0; i < NREG_NAMES; i++)
		if (REGS_DEFAULT & (1ULL << i))
			fprintf(f, " %s", reg_name(i));
	if (intr)
		for (i = 0; i < XMM_COUNT; i++)
			fprintf(f, " XMM%zu", i);
	fputc('\n', f);
}

int rec_regs_mask(const char *s, bool intr, uint64_t *out, const char **bad, size_t *bad_len)
{
	uint64_t mask = 0;
	const char *p = s;

	if (!*s) {
		*out = REGS_DEFAULT;
		return 0;
	}
	for (;;) {
		size_t len = strcspn(p, ","), i;
		uint64_t bits = 0;

		for (i = 0; i < NREG_NAMES && !bits; i++)
			if ((REGS_DEFAULT & (1ULL << i)) && strlen(reg_name(i)) == len &&
			    !strncasecmp(reg_name(i), p, len))
				bits = 1ULL << i;
		if (!bits && intr && len > 3 && !strncasecmp(p, "xmm", 3)) {
			char *end;
			unsigned long n = strtoul(p + 3, &end, 10);

			if (end == p + len && isdigit((unsigned char)p[3]) && n < XMM_COUNT)
				bits = 3ULL << (XMM_FIRST + 2 * n);
		}
		if (!bits) {
			*bad = p;
			*bad_len = len;
			return -1;
		}
		mask |= bits;
		if (!p[len])
			break;
		p += len + 1;
	}
	*out = mask;
	return 0;
}

/* ---- -k/--clockid ------------------------------------------------------------------ */

int rec_clock_ref(int clockid, struct perfev_data_clock *out)
{
	struct timespec res, now;
	struct timeval tod;

	if (clock_getres((clockid_t)clockid, &res))
		return -errno;
	/* perf's reference: the wall clock, then the clock, one after the other. */
	gettimeofday(&tod, NULL);
	if (clock_gettime((clockid_t)clockid, &now))
		return -errno;
	out->clockid = clockid;
	out->res_ns = (uint64_t)res.tv_sec * 1000000000ULL + (uint64_t)res.tv_nsec;
	out->tod_ns = (uint64_t)tod.tv_sec * 1000000000ULL + (uint64_t)tod.tv_usec * 1000ULL;
	out->clockid_ns = (uint64_t)now.tv_sec * 1000000000ULL + (uint64_t)now.tv_nsec;
	return 0;
}
