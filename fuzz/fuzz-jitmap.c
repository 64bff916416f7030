// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer harness: JIT map text (perf-PID.map) parsed by
 * perfev__jitmap_parse(), then addresses taken from the input looked up:
 * what is found holds the address and is found again from its start.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "symbols/symtab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfev__jitmap *m;
	struct perfev_sym s, t;
	uint64_t probe = 0;
	size_t i;

	if (perfev__jitmap_parse((const char *)data, size, &m))
		return 0;
	for (i = 0; i < 64 && i < size / 8; i++) {
		memcpy(&probe, data + i * 8, 8);
		if (perfev__jitmap_find(m, probe, &s))
			continue;
		if (s.start > probe || probe - s.start >= s.size || !s.name || !*s.name ||
		    s.addr != probe)
			abort();
		if (perfev__jitmap_find(m, s.start, &t) || !t.size)
			abort();
	}
	if (!perfev__jitmap_count(m) && !perfev__jitmap_find(m, 0, &s))
		abort();
	perfev__jitmap_free(m);
	return 0;
}
