// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The values of perf record's attr options, spelled as perf spells them:
 * sampled registers (--user-regs, --intr-regs) and clocks (-k); branch
 * filters (-j) are the library's perfev_branch_type_parse().
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <linux/perf_event.h>
#include <perfev/attr.h>
#include "options.h"
#include "record.h"

/* ---- --user-regs / --intr-regs ----------------------------------------------------- */

/* x86_64's registers as perf_regs numbers them: the library's names, as perf script prints them. */
#define NREG_NAMES  24
#define reg_name(i) perfev_reg_name("x86_64", (unsigned int)(i))
#define XMM_FIRST  32 /* XMM0 takes bits 32 and 33, XMM1 34 and 35, ... */
#define XMM_COUNT  16

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

static const struct {
	const char *name;
	int id;
} clocks[] = {
    {"monotonic", CLOCK_MONOTONIC},
    {"monotonic_raw", CLOCK_MONOTONIC_RAW},
    {"realtime", CLOCK_REALTIME},
    {"boottime", CLOCK_BOOTTIME},
    {"tai", CLOCK_TAI},
    {"mono", CLOCK_MONOTONIC},
    {"raw", CLOCK_MONOTONIC_RAW},
    {"real", CLOCK_REALTIME},
    {"boot", CLOCK_BOOTTIME},
};

int rec_clockid(const char *s, int *out)
{
	unsigned long long v;
	size_t i;

	if (!opt_parse_unsigned(s, 0x7fffffff, &v, NULL)) {
		*out = (int)v;
		return 0;
	}
	if (!strncasecmp(s, "CLOCK_", 6))
		s += 6;
	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if (!strcasecmp(clocks[i].name, s)) {
			*out = clocks[i].id;
			return 0;
		}
	return -1;
}

const char *rec_clock_name(int id)
{
	size_t i;

	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if (clocks[i].id == id)
			return clocks[i].name;
	return NULL;
}
