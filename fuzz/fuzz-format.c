// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer harness: sysfs format fields, CPU lists and branch filter lists. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/perfev.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t take64(const uint8_t *data, size_t size, size_t at)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < 8 && size; i++)
		v = v << 8 | data[(at + i) % size];
	return v;
}

/* apply/extract must be inverses on the field and leave the rest of the word alone. */
static void round_trip(const struct perfev_format *f, const uint8_t *data, size_t size)
{
	uint64_t maxv, value, word, w;

	if (f->word > 3 || f->nbits == 0 || f->nbits > 64 ||
	    f->nbits != (unsigned int)__builtin_popcountll(f->mask))
		abort();
	maxv = f->nbits == 64 ? ~0ULL : (1ULL << f->nbits) - 1;
	value = take64(data, size, 0) & maxv;
	word = take64(data, size, 3);
	w = word;
	if (perfev_format_apply(f, value, &w))
		abort();
	if ((w & ~f->mask) != (word & ~f->mask) || perfev_format_extract(f, w) != value)
		abort();
	if (perfev_format_extract(f, w & f->mask) != value)
		abort();
	if (f->nbits < 64) {
		w = word;
		if (perfev_format_apply(f, maxv + 1, &w) != -ERANGE || w != word)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfev_format f = {.name = "fuzz"};
	int cpus[64], n;
	uint64_t bt = 0;
	char *s, buf[512];

	if (size > 4096)
		return 0;
	/* The two sysfs parsers take (bytes, len): the fuzzer's buffer, no NUL after it. */
	if (!perfev_format_parse((const char *)data, size, &f)) {
		if (strcmp(f.name, "fuzz"))
			abort();
		round_trip(&f, data, size);
	}
	n = perfev_cpulist_parse((const char *)data, size, cpus, 64);
	if (n < 0 && n != -EBADMSG)
		abort();
	for (int i = 0; i < n && i < 64; i++)
		if (cpus[i] < 0 || cpus[i] > 1 << 20)
			abort();
	if (perfev_cpulist_parse((const char *)data, size, NULL, 0) != n)
		abort();

	s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (!perfev_branch_type_parse(s, &bt)) {
		/* Every bit the parser can set has a name. */
		if (!bt || perfev_branch_type_str(bt, buf, sizeof(buf)) <= 0 || strstr(buf, "0x"))
			abort();
	}
	free(s);
	return 0;
}
