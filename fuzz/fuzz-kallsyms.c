// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer harness: /proc/kallsyms text parsed by perfev_kallsyms_parse(),
 * then every symbol looked up again by its address and between two.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/symbols.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfev_kallsyms *k;
	struct perfev_ksym s, t;
	uint64_t probe = 0;
	size_t i, n;

	if (perfev_kallsyms_parse((const char *)data, size, &k))
		return 0;
	n = perfev_kallsyms_count(k);
	for (i = 0; i < 64 && i < size / 8; i++) {
		memcpy(&probe, data + i * 8, 8);
		if (perfev_kallsyms_find(k, probe, &s))
			continue;
		/* What was found starts at or before the address, and ends after it. */
		if (s.start > probe || (s.size && probe - s.start >= s.size) || !s.name || !*s.name)
			abort();
		if (perfev_kallsyms_find(k, s.start, &t) || t.start != s.start ||
		    strcmp(t.name, s.name))
			abort();
	}
	if (n && perfev_kallsyms_find(k, UINT64_MAX, &s))
		abort();
	perfev_kallsyms_free(k);
	return 0;
}
