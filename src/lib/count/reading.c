// SPDX-License-Identifier: LGPL-2.1-or-later
/* read(2) results of counting events: sizes, decoding, scaling. */
#include <errno.h>
#include "common/internal.h"
#include <perfev/reading.h>

#define KNOWN_FORMATS                                                                              \
	(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID |        \
	 PERF_FORMAT_GROUP | PERFEV_FORMAT_LOST)

/* u64 words per counter, and in the header before the counters. */
static size_t per_value(uint64_t rf)
{
	return 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERFEV_FORMAT_LOST);
}

static size_t header_words(uint64_t rf)
{
	return !!(rf & PERF_FORMAT_GROUP) + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
	       !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
}

size_t perfev_read_size(uint64_t rf, size_t nr)
{
	size_t words;

	if (rf & ~(uint64_t)KNOWN_FORMATS)
		return 0;
	if (!(rf & PERF_FORMAT_GROUP))
		nr = 1;
	if (nr > (SIZE_MAX / 8 - header_words(rf)) / per_value(rf))
		return 0;
	words = header_words(rf) + nr * per_value(rf);
	return words * 8;
}

static uint64_t word(const unsigned char *p, size_t i)
{
	uint64_t v;

	memcpy(&v, p + i * 8, 8);
	return v;
}

int perfev_read_decode(uint64_t rf, const void *buf, size_t len, struct perfev_reading *out)
{
	const unsigned char *p = buf;
	size_t i = 0, k, nr = 1;

	if (!out || out->sz < offsetof(struct perfev_reading, values) + sizeof(out->values) ||
	    (rf & ~(uint64_t)KNOWN_FORMATS) || (!buf && len))
		return -EINVAL;
	if (len % 8 || len < 8)
		return -EBADMSG;
	/* Without GROUP the value comes first; with it, nr does. */
	if (rf & PERF_FORMAT_GROUP) {
		nr = word(p, i++);
		if (nr > UINT32_MAX)
			return -EBADMSG;
	}
	if (perfev_read_size(rf, nr) != len)
		return -EBADMSG;
	out->nr = (uint32_t)nr;
	if (nr > out->max || (nr && !out->values))
		return -ENOSPC;
	out->read_format = rf;
	if (!(rf & PERF_FORMAT_GROUP))
		out->values[0].value = word(p, i++);
	out->time_enabled = rf & PERF_FORMAT_TOTAL_TIME_ENABLED ? word(p, i++) : 0;
	out->time_running = rf & PERF_FORMAT_TOTAL_TIME_RUNNING ? word(p, i++) : 0;
	for (k = 0; k < nr; k++) {
		struct perfev_value *v = &out->values[k];

		if (rf & PERF_FORMAT_GROUP)
			v->value = word(p, i++);
		v->id = rf & PERF_FORMAT_ID ? word(p, i++) : 0;
		v->lost = rf & PERFEV_FORMAT_LOST ? word(p, i++) : 0;
	}
	return 0;
}

uint64_t perfev_scale(uint64_t value, uint64_t enabled, uint64_t running)
{
	unsigned __int128 v;

	if (!running)
		return 0;
	if (running == enabled)
		return value;
	v = ((unsigned __int128)value * enabled + running / 2) / running;
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}
