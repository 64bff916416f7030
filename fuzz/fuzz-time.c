// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer harness: perf's --time grammar (perfev_time_ranges_parse) and the skip rule. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/perfev.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfev_time_range *r;
	uint64_t first = 0, last = 0;
	size_t max, i;
	char *s;
	int n;

	/* The first 16 bytes, when there are more, are the recording's first and last times. */
	if (size > 16) {
		memcpy(&first, data, 8);
		memcpy(&last, data + 8, 8);
		if (last < first)
			last = first;
		data += 16;
		size -= 16;
	}
	if (size > 4096)
		return 0;
	s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	max = perfev_time_ranges_max(s);
	r = calloc(max, sizeof(*r));
	if (!r) {
		free(s);
		return 0;
	}
	n = perfev_time_ranges_parse(s, first, last, r, max);
	/* At most @max ranges, each in order when given in seconds. */
	if (n > (int)max || (n < 0 && n != -EINVAL && n != -ENODATA && n != -ENOMEM))
		abort();
	for (i = 0; n > 0 && i < (size_t)n; i++)
		if (!strchr(s, '%') && r[i].end && r[i].end < r[i].start)
			abort();
	if (n > 0)
		(void)perfev_time_ranges_skip(r, (size_t)n, first + (last - first) / 2);
	/* A smaller array is refused, never written past. */
	if (n > 1 && perfev_time_ranges_parse(s, first, last, r, (size_t)n - 1) != -EINVAL)
		abort();
	free(r);
	free(s);
	return 0;
}
