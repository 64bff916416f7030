// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Pure parsers for the small sysfs files of a PMU: format fields
 * ("config:0-7,32-35") and CPU lists ("0-3,8").  No I/O here.
 */
#include <errno.h>
#include <stdlib.h>
#include "common/internal.h"
#include <perfev/pmu.h>

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Parse a decimal number of at most @max_digits at s[*i]. */
static int parse_dec(const char *s, size_t len, size_t *i, unsigned long *out)
{
	unsigned long v = 0;
	size_t start = *i;

	while (*i < len && is_digit(s[*i])) {
		if (*i - start >= 9)
			return -EBADMSG;
		v = v * 10 + (unsigned long)(s[*i] - '0');
		(*i)++;
	}
	if (*i == start)
		return -EBADMSG;
	*out = v;
	return 0;
}

/* "N" or "N-M" at s[*i]; a single number is the range N-N. */
static int parse_range(const char *s, size_t len, size_t *i, unsigned long *lo, unsigned long *hi)
{
	int err = parse_dec(s, len, i, lo);

	if (err)
		return err;
	*hi = *lo;
	if (*i < len && s[*i] == '-') {
		(*i)++;
		return parse_dec(s, len, i, hi);
	}
	return 0;
}

static size_t trim_len(const char *s, size_t len)
{
	while (len && (s[len - 1] == '\n' || s[len - 1] == ' ' || s[len - 1] == '\t' ||
		       s[len - 1] == '\r'))
		len--;
	return len;
}

int perfev_format_parse(const char *text, size_t len, struct perfev_format *out)
{
	static const char *const words[] = {"config", "config1", "config2", "config3"};
	uint64_t mask = 0;
	size_t i = 0, w, wl;
	int word = -1;

	if (!text || !out)
		return -EINVAL;
	len = trim_len(text, len);
	for (w = PERFEV__ARRAY_SIZE(words); w-- > 0;) {
		wl = strlen(words[w]);
		if (len > wl && !memcmp(text, words[w], wl) && text[wl] == ':') {
			word = (int)w;
			i = wl + 1;
			break;
		}
	}
	if (word < 0)
		return -EBADMSG;

	for (;;) {
		unsigned long lo, hi;
		uint64_t range;
		int err;

		err = parse_range(text, len, &i, &lo, &hi);
		if (err)
			return err;
		if (lo > 63 || hi > 63 || hi < lo)
			return -EBADMSG;
		range = (hi == 63 ? ~0ULL : ((1ULL << (hi + 1)) - 1)) & ~((1ULL << lo) - 1);
		if (mask & range)
			return -EBADMSG;
		mask |= range;
		if (i == len)
			break;
		if (text[i] != ',')
			return -EBADMSG;
		i++;
	}
	out->word = (unsigned int)word;
	out->mask = mask;
	out->nbits = (unsigned int)__builtin_popcountll(mask);
	return 0;
}

int perfev_format_apply(const struct perfev_format *fmt, uint64_t value, uint64_t *word)
{
	uint64_t w, bit, m;
	unsigned int v = 0;

	if (fmt->nbits < 64 && value >> fmt->nbits)
		return -ERANGE;
	w = *word & ~fmt->mask;
	for (m = fmt->mask; m; m &= m - 1) {
		bit = m & -m;
		if (value >> v & 1)
			w |= bit;
		v++;
	}
	*word = w;
	return 0;
}

uint64_t perfev_format_extract(const struct perfev_format *fmt, uint64_t word)
{
	uint64_t value = 0, m;
	unsigned int v = 0;

	for (m = fmt->mask; m; m &= m - 1) {
		if (word & (m & -m))
			value |= 1ULL << v;
		v++;
	}
	return value;
}

struct cpu_range {
	unsigned long lo, hi;
};

static int cmp_range(const void *a, const void *b)
{
	const struct cpu_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The largest CPU number accepted; the kernel's NR_CPUS is far below it. */
#define MAX_CPU (1UL << 20)

int perfev_cpulist_parse(const char *text, size_t len, int *cpus, size_t max)
{
	struct cpu_range *r = NULL;
	size_t i = 0, n = 0, cap = 0, k, out = 0;
	unsigned long next = 0;
	int err = 0;

	if (!text)
		return -EINVAL;
	len = trim_len(text, len);
	if (!len)
		return 0;
	for (;;) {
		unsigned long lo, hi;

		err = parse_range(text, len, &i, &lo, &hi);
		if (err)
			goto out;
		if (hi < lo || hi > MAX_CPU) {
			err = -EBADMSG;
			goto out;
		}
		err = perfev__grow(&r, &cap, n + 1, sizeof(*r));
		if (err)
			goto out;
		r[n].lo = lo;
		r[n].hi = hi;
		n++;
		if (i == len)
			break;
		if (text[i] != ',' || ++i == len) {
			err = -EBADMSG;
			goto out;
		}
	}
	/* Like the kernel's bitmap lists: a set, whatever the order or overlaps. */
	qsort(r, n, sizeof(*r), cmp_range);
	for (k = 0; k < n; k++) {
		unsigned long c = r[k].lo > next ? r[k].lo : next;

		for (; c <= r[k].hi; c++) {
			if (out < max && cpus)
				cpus[out] = (int)c;
			out++;
		}
		if (r[k].hi + 1 > next)
			next = r[k].hi + 1;
	}
out:
	free(r);
	return err ? err : (int)out;
}
