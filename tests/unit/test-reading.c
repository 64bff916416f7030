// SPDX-License-Identifier: LGPL-2.1-or-later
/* read(2) results in bytes: sizes and round-trip decoding of every read_format, and scaling. */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <perfev/perfev.h>
#include "harness.h"

#define MAX_NR 7

/* The five bits perf_event_open(2) describes, by their kernel values. */
#define RF_ENABLED (1ULL << 0) /* PERF_FORMAT_TOTAL_TIME_ENABLED */
#define RF_RUNNING (1ULL << 1) /* PERF_FORMAT_TOTAL_TIME_RUNNING */
#define RF_ID	   (1ULL << 2) /* PERF_FORMAT_ID */
#define RF_GROUP   (1ULL << 3) /* PERF_FORMAT_GROUP */
#define RF_LOST	   (1ULL << 4) /* PERF_FORMAT_LOST */
#define RF_ALL	   (RF_ENABLED | RF_RUNNING | RF_ID | RF_GROUP | RF_LOST)

static const size_t group_nrs[] = {1, 2, 7};

/* What a reading holds, before it is turned into bytes. */
struct sample {
	uint64_t enabled, running;
	size_t nr;
	struct perfev_value v[MAX_NR];
};

/* Distinct values in every field, so a field read from the wrong slot shows. */
static void sample_fill(struct sample *s, uint64_t rf, size_t nr)
{
	size_t k;

	s->enabled = 0xe0000000000000e1ULL;
	s->running = 0x7000000000000071ULL;
	s->nr = rf & RF_GROUP ? nr : 1;
	for (k = 0; k < MAX_NR; k++) {
		s->v[k].value = 0x1111000000000000ULL + k * 0x10 + 1;
		s->v[k].id = 0x2222000000000000ULL + k * 0x10 + 2;
		s->v[k].lost = 0x3333000000000000ULL + k * 0x10 + 3;
	}
}

/*
 * The layout of perf_event_open(2), "Reading results":
 *
 *   struct read_format {			struct read_format {
 *	u64 nr;					u64 value;
 *	u64 time_enabled;  if ENABLED		u64 time_enabled;  if ENABLED
 *	u64 time_running;  if RUNNING		u64 time_running;  if RUNNING
 *	struct { u64 value;			u64 id;		   if ID
 *		 u64 id;   if ID			u64 lost;	   if LOST
 *		 u64 lost; if LOST		};
 *	} values[nr];
 *   };				(GROUP)		(not GROUP)
 *
 * Returns the byte count written into @words.
 */
static size_t encode(uint64_t rf, const struct sample *s, uint64_t *words)
{
	size_t n = 0, k;

	if (rf & RF_GROUP) {
		words[n++] = s->nr;
		if (rf & RF_ENABLED)
			words[n++] = s->enabled;
		if (rf & RF_RUNNING)
			words[n++] = s->running;
		for (k = 0; k < s->nr; k++) {
			words[n++] = s->v[k].value;
			if (rf & RF_ID)
				words[n++] = s->v[k].id;
			if (rf & RF_LOST)
				words[n++] = s->v[k].lost;
		}
	} else {
		words[n++] = s->v[0].value;
		if (rf & RF_ENABLED)
			words[n++] = s->enabled;
		if (rf & RF_RUNNING)
			words[n++] = s->running;
		if (rf & RF_ID)
			words[n++] = s->v[0].id;
		if (rf & RF_LOST)
			words[n++] = s->v[0].lost;
	}
	return n * 8;
}

/* Size by counting the manual's fields one by one. */
static size_t expected_size(uint64_t rf, size_t nr)
{
	size_t per = 1 + !!(rf & RF_ID) + !!(rf & RF_LOST);
	size_t head = !!(rf & RF_ENABLED) + !!(rf & RF_RUNNING);

	if (rf & RF_GROUP)
		return 8 * (1 + head + nr * per);
	return 8 * (head + per);
}

static void format_name(uint64_t rf, char *buf, size_t len)
{
	snprintf(buf, len, "rf=%#llx%s%s%s%s%s", (unsigned long long)rf,
		 rf & RF_ENABLED ? "|ENABLED" : "", rf & RF_RUNNING ? "|RUNNING" : "",
		 rf & RF_ID ? "|ID" : "", rf & RF_GROUP ? "|GROUP" : "",
		 rf & RF_LOST ? "|LOST" : "");
}

/* A reading whose every field holds a recognisable junk value. */
static void reading_init(struct perfev_reading *r, struct perfev_value *vals, size_t max)
{
	size_t k;

	memset(r, 0, sizeof(*r));
	r->sz = sizeof(*r);
	r->read_format = 0xdeadULL;
	r->time_enabled = r->time_running = 0xaaaaaaaaaaaaaaaaULL;
	r->nr = 0xaaaa;
	r->max = (uint32_t)max;
	r->values = vals;
	for (k = 0; k < max; k++)
		vals[k].value = vals[k].id = vals[k].lost = 0xaaaaaaaaaaaaaaaaULL;
}

TEST(constants_match_the_kernel)
{
	CHECK_U64(PERF_FORMAT_TOTAL_TIME_ENABLED, RF_ENABLED);
	CHECK_U64(PERF_FORMAT_TOTAL_TIME_RUNNING, RF_RUNNING);
	CHECK_U64(PERF_FORMAT_ID, RF_ID);
	CHECK_U64(PERF_FORMAT_GROUP, RF_GROUP);
	CHECK_U64(PERFEV_FORMAT_LOST, RF_LOST);
}

TEST(read_size_every_format)
{
	uint64_t rf;
	size_t i;
	char name[96];

	for (rf = 0; rf <= RF_ALL; rf++) {
		format_name(rf, name, sizeof(name));
		for (i = 0; i < sizeof(group_nrs) / sizeof(group_nrs[0]); i++) {
			size_t nr = group_nrs[i], got = perfev_read_size(rf, nr);
			struct sample s;
			uint64_t words[64];

			EXPECT(got == expected_size(rf, nr), "%s nr=%zu: %zu bytes, expected %zu",
			       name, nr, got, expected_size(rf, nr));
			sample_fill(&s, rf, nr);
			EXPECT(got == encode(rf, &s, words),
			       "%s nr=%zu: %zu bytes, encoder wrote %zu", name, nr, got,
			       encode(rf, &s, words));
		}
		/* Without GROUP there is one counter whatever nr says. */
		if (!(rf & RF_GROUP))
			EXPECT(perfev_read_size(rf, 0) == expected_size(rf, 1) &&
				   perfev_read_size(rf, 1000) == expected_size(rf, 1),
			       "%s: nr changes the size of a lone counter", name);
	}
	/* Fixed points, from the manual by hand. */
	CHECK_INT(perfev_read_size(0, 1), 8);
	CHECK_INT(perfev_read_size(RF_ENABLED | RF_RUNNING | RF_ID, 1), 32);
	CHECK_INT(perfev_read_size(RF_ENABLED | RF_RUNNING | RF_ID | RF_LOST, 1), 40);
	CHECK_INT(perfev_read_size(RF_GROUP, 3), 32);
	CHECK_INT(perfev_read_size(RF_ALL, 3), 8 * (3 + 3 * 3));
}

TEST(read_size_unknown_bits)
{
	static const uint64_t bad[] = {1ULL << 5,  1ULL << 6,	       1ULL << 31, 1ULL << 32,
				       1ULL << 63, RF_ALL | 1ULL << 5, ~0ULL};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT(perfev_read_size(bad[i], 1) == 0, "rf=%#llx: %zu, expected 0",
		       (unsigned long long)bad[i], perfev_read_size(bad[i], 1));
		EXPECT(perfev_read_size(bad[i], 3) == 0, "rf=%#llx nr 3: %zu, expected 0",
		       (unsigned long long)bad[i], perfev_read_size(bad[i], 3));
	}
}

TEST(read_size_huge_nr_does_not_wrap)
{
	static const size_t nrs[] = {SIZE_MAX,		SIZE_MAX / 2,	    SIZE_MAX / 8,
				     SIZE_MAX / 8 - 1,	SIZE_MAX / 16,	    SIZE_MAX / 24,
				     SIZE_MAX / 24 - 1, (size_t)UINT32_MAX, (size_t)UINT32_MAX + 1};
	uint64_t rf;
	size_t i;

	for (rf = RF_GROUP; rf <= RF_ALL; rf++) {
		if (!(rf & RF_GROUP))
			continue;
		for (i = 0; i < sizeof(nrs) / sizeof(nrs[0]); i++) {
			unsigned __int128 want =
			    (unsigned __int128)8 *
			    (1 + !!(rf & RF_ENABLED) + !!(rf & RF_RUNNING) +
			     (unsigned __int128)nrs[i] * (1 + !!(rf & RF_ID) + !!(rf & RF_LOST)));
			size_t got = perfev_read_size(rf, nrs[i]);

			/* Either the exact size, or 0 when it does not fit in a size_t. */
			if (want > SIZE_MAX)
				EXPECT(got == 0, "rf=%#llx nr=%zu: %zu, expected 0 (overflow)",
				       (unsigned long long)rf, nrs[i], got);
			else
				EXPECT(got == (size_t)want, "rf=%#llx nr=%zu: %zu, expected %zu",
				       (unsigned long long)rf, nrs[i], got, (size_t)want);
		}
	}
}

/* Encode, decode (at @misalign bytes into the buffer), and compare every field. */
static void round_trip(uint64_t rf, size_t nr, size_t misalign)
{
	struct perfev_value vals[MAX_NR + 1];
	struct perfev_reading r;
	uint64_t words[64];
	unsigned char bytes[64 * 8 + 8];
	struct sample s;
	char name[96];
	size_t len, k;
	int err;

	format_name(rf, name, sizeof(name));
	sample_fill(&s, rf, nr);
	len = encode(rf, &s, words);
	memcpy(bytes + misalign, words, len);
	reading_init(&r, vals, MAX_NR + 1);
	err = perfev_read_decode(rf, bytes + misalign, len, &r);
	EXPECT(err == 0, "%s nr=%zu: decode returned %d", name, nr, err);
	if (err)
		return;
	EXPECT(r.read_format == rf, "%s nr=%zu: read_format %#llx", name, nr,
	       (unsigned long long)r.read_format);
	EXPECT(r.nr == s.nr, "%s nr=%zu: decoded nr %u", name, nr, r.nr);
	EXPECT(r.max == MAX_NR + 1, "%s nr=%zu: max changed to %u", name, nr, r.max);
	EXPECT(r.values == vals, "%s nr=%zu: values pointer changed", name, nr);
	EXPECT(r.time_enabled == (rf & RF_ENABLED ? s.enabled : 0), "%s nr=%zu: time_enabled %#llx",
	       name, nr, (unsigned long long)r.time_enabled);
	EXPECT(r.time_running == (rf & RF_RUNNING ? s.running : 0), "%s nr=%zu: time_running %#llx",
	       name, nr, (unsigned long long)r.time_running);
	for (k = 0; k < s.nr && k < r.nr; k++) {
		EXPECT(vals[k].value == s.v[k].value, "%s nr=%zu: values[%zu].value %#llx", name,
		       nr, k, (unsigned long long)vals[k].value);
		EXPECT(vals[k].id == (rf & RF_ID ? s.v[k].id : 0),
		       "%s nr=%zu: values[%zu].id %#llx", name, nr, k,
		       (unsigned long long)vals[k].id);
		EXPECT(vals[k].lost == (rf & RF_LOST ? s.v[k].lost : 0),
		       "%s nr=%zu: values[%zu].lost %#llx", name, nr, k,
		       (unsigned long long)vals[k].lost);
	}
	/* Entries past nr are the caller's and stay untouched. */
	for (k = s.nr; k < MAX_NR + 1; k++)
		EXPECT(vals[k].value == 0xaaaaaaaaaaaaaaaaULL &&
			   vals[k].id == 0xaaaaaaaaaaaaaaaaULL &&
			   vals[k].lost == 0xaaaaaaaaaaaaaaaaULL,
		       "%s nr=%zu: values[%zu] written past nr", name, nr, k);
}

TEST(decode_every_format)
{
	uint64_t rf;
	size_t i;

	for (rf = 0; rf <= RF_ALL; rf++)
		for (i = 0; i < sizeof(group_nrs) / sizeof(group_nrs[0]); i++)
			round_trip(rf, group_nrs[i], 0);
}

/* Bytes from a file or a packed record need not be 8-byte aligned. */
TEST(decode_unaligned)
{
	uint64_t rf;
	size_t mis;

	for (rf = 0; rf <= RF_ALL; rf++)
		for (mis = 1; mis < 8; mis++)
			round_trip(rf, 7, mis);
}

/* Exactly max counters fit. */
TEST(decode_exact_capacity)
{
	struct perfev_value vals[MAX_NR];
	struct perfev_reading r;
	uint64_t words[64];
	struct sample s;
	size_t len;

	sample_fill(&s, RF_ALL, MAX_NR);
	len = encode(RF_ALL, &s, words);
	reading_init(&r, vals, MAX_NR);
	CHECK_INT(perfev_read_decode(RF_ALL, words, len, &r), 0);
	CHECK_INT(r.nr, MAX_NR);
	CHECK_U64(vals[MAX_NR - 1].lost, s.v[MAX_NR - 1].lost);

	/* A lone counter needs one entry. */
	sample_fill(&s, RF_ID, 1);
	len = encode(RF_ID, &s, words);
	reading_init(&r, vals, 1);
	CHECK_INT(perfev_read_decode(RF_ID, words, len, &r), 0);
	CHECK_INT(r.nr, 1);
	CHECK_U64(vals[0].value, s.v[0].value);
	CHECK_U64(vals[0].id, s.v[0].id);
}

TEST(decode_wrong_lengths)
{
	struct perfev_value vals[MAX_NR];
	unsigned char bytes[64 * 8 + 16];
	struct perfev_reading r;
	uint64_t words[64];
	struct sample s;
	uint64_t rf;
	size_t i, len, k;
	char name[96];

	for (rf = 0; rf <= RF_ALL; rf++) {
		format_name(rf, name, sizeof(name));
		for (i = 0; i < sizeof(group_nrs) / sizeof(group_nrs[0]); i++) {
			size_t nr = group_nrs[i];
			size_t bad[12], nbad = 0;

			sample_fill(&s, rf, nr);
			len = encode(rf, &s, words);
			memset(bytes, 0, sizeof(bytes));
			memcpy(bytes, words, len);
			bad[nbad++] = 0;
			bad[nbad++] = len - 8;
			bad[nbad++] = len + 8;
			for (k = 1; k < 8; k++)
				bad[nbad++] = len - 8 + k; /* not a multiple of 8 */
			bad[nbad++] = len + 1;
			for (k = 0; k < nbad; k++) {
				int err;

				reading_init(&r, vals, MAX_NR);
				err = perfev_read_decode(rf, bytes, bad[k], &r);
				EXPECT(err == -EBADMSG,
				       "%s nr=%zu: %zu of %zu bytes: %d, expected %d", name, nr,
				       bad[k], len, err, -EBADMSG);
			}
		}
	}
	/* Zero bytes, with or without a buffer. */
	reading_init(&r, vals, MAX_NR);
	CHECK_INT(perfev_read_decode(0, NULL, 0, &r), -EBADMSG);
	CHECK_INT(perfev_read_decode(RF_GROUP, NULL, 0, &r), -EBADMSG);
}

/* The group's nr word must agree with the length. */
TEST(decode_group_nr_disagrees)
{
	static const uint64_t claims[] = {0, 1, 2, 3, 6, 8, 9, 100, 0x100000000ULL};
	struct perfev_value vals[MAX_NR + 8];
	struct perfev_reading r;
	uint64_t words[64];
	struct sample s;
	uint64_t rf;
	size_t i, c, len;
	char name[96];

	for (rf = RF_GROUP; rf <= RF_ALL; rf++) {
		if (!(rf & RF_GROUP))
			continue;
		format_name(rf, name, sizeof(name));
		for (i = 0; i < sizeof(group_nrs) / sizeof(group_nrs[0]); i++) {
			size_t nr = group_nrs[i];

			sample_fill(&s, rf, nr);
			len = encode(rf, &s, words);
			for (c = 0; c < sizeof(claims) / sizeof(claims[0]); c++) {
				int err;

				if (claims[c] == nr)
					continue;
				words[0] = claims[c];
				reading_init(&r, vals, MAX_NR + 8);
				err = perfev_read_decode(rf, words, len, &r);
				EXPECT(err == -EBADMSG,
				       "%s: %zu counters' bytes claiming nr %llu: %d", name, nr,
				       (unsigned long long)claims[c], err);
			}
		}
	}
}

TEST(decode_too_many_counters)
{
	struct perfev_value vals[MAX_NR];
	struct perfev_reading r;
	uint64_t words[64];
	struct sample s;
	uint64_t rf;
	size_t i, len, max;
	char name[96];

	for (rf = 0; rf <= RF_ALL; rf++) {
		format_name(rf, name, sizeof(name));
		for (i = 0; i < sizeof(group_nrs) / sizeof(group_nrs[0]); i++) {
			size_t nr = rf & RF_GROUP ? group_nrs[i] : 1;

			sample_fill(&s, rf, nr);
			len = encode(rf, &s, words);
			for (max = 0; max < nr; max++) {
				int err;

				reading_init(&r, vals, MAX_NR);
				r.max = (uint32_t)max;
				if (!max && i == 0)
					r.values = NULL; /* no array at all */
				err = perfev_read_decode(rf, words, len, &r);
				EXPECT(err == -ENOSPC, "%s: %zu counters, max %zu: %d, expected %d",
				       name, nr, max, err, -ENOSPC);
				EXPECT(r.nr == nr, "%s: nr %u after ENOSPC, expected %zu", name,
				       r.nr, nr);
				/* "nothing else is set" */
				EXPECT(r.time_enabled == 0xaaaaaaaaaaaaaaaaULL &&
					   r.time_running == 0xaaaaaaaaaaaaaaaaULL,
				       "%s: times written on ENOSPC", name);
				EXPECT(vals[0].value == 0xaaaaaaaaaaaaaaaaULL,
				       "%s: values written on ENOSPC", name);
			}
		}
	}
}

/* The header promises that on ENOSPC only out->nr is set. */
TEST(decode_enospc_sets_only_nr)
{
	struct perfev_value vals[2];
	struct perfev_reading r;
	uint64_t words[64];
	struct sample s;
	size_t len;

	sample_fill(&s, RF_GROUP | RF_ID, 3);
	len = encode(RF_GROUP | RF_ID, &s, words);
	reading_init(&r, vals, 2);
	CHECK_INT(perfev_read_decode(RF_GROUP | RF_ID, words, len, &r), -ENOSPC);
	CHECK_INT(r.nr, 3);
	CHECK_INT(r.max, 2);
	CHECK(r.values == vals);
	CHECK_U64(r.time_enabled, 0xaaaaaaaaaaaaaaaaULL);
	CHECK_U64(vals[0].value, 0xaaaaaaaaaaaaaaaaULL);
	CHECK_U64(r.read_format, 0xdeadULL);
}

TEST(decode_unknown_bits)
{
	static const uint64_t bad[] = {1ULL << 5, 1ULL << 63, RF_ALL | 1ULL << 7, ~0ULL};
	struct perfev_value vals[MAX_NR];
	struct perfev_reading r;
	uint64_t words[64] = {1, 2, 3, 4, 5, 6, 7, 8};
	size_t i, len;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		for (len = 0; len <= 64; len += 8) {
			int err;

			reading_init(&r, vals, MAX_NR);
			err = perfev_read_decode(bad[i], words, len, &r);
			EXPECT(err == -EINVAL, "rf=%#llx len %zu: %d, expected %d",
			       (unsigned long long)bad[i], len, err, -EINVAL);
			EXPECT(r.nr == 0xaaaa && r.read_format == 0xdeadULL,
			       "rf=%#llx: reading changed on EINVAL", (unsigned long long)bad[i]);
		}
}

TEST(decode_bad_out)
{
	static const size_t sizes[] = {0, 1, sizeof(size_t),
				       offsetof(struct perfev_reading, values),
				       sizeof(struct perfev_reading) - 1};
	struct perfev_value vals[2];
	struct perfev_reading r;
	uint64_t words[2] = {42, 0};
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		int err;

		reading_init(&r, vals, 2);
		r.sz = sizes[i];
		err = perfev_read_decode(0, words, 8, &r);
		EXPECT(err == -EINVAL, "out->sz %zu: %d, expected %d", sizes[i], err, -EINVAL);
		EXPECT(vals[0].value == 0xaaaaaaaaaaaaaaaaULL, "out->sz %zu: value written",
		       sizes[i]);
	}
	CHECK_INT(perfev_read_decode(0, words, 8, NULL), -EINVAL);
	reading_init(&r, vals, 2);
	CHECK_INT(perfev_read_decode(0, NULL, 8, &r), -EINVAL);
	/* A bigger struct from a newer caller is fine. */
	{
		struct {
			struct perfev_reading r;
			uint64_t tail;
		} big;

		reading_init(&big.r, vals, 2);
		big.r.sz = sizeof(big);
		big.tail = 0;
		CHECK_INT(perfev_read_decode(0, words, 8, &big.r), 0);
		CHECK_U64(vals[0].value, 42);
	}
}

TEST(decode_huge_nr)
{
	static const uint64_t claims[] = {
	    UINT64_MAX,	    UINT64_MAX / 8, UINT64_MAX / 24,	   (uint64_t)SIZE_MAX / 8,
	    0x100000000ULL, 0x100000001ULL, 0x1fffffffffffffffULL, 0x2000000000000000ULL};
	struct perfev_value vals[MAX_NR];
	struct perfev_reading r;
	uint64_t words[64];
	uint64_t rf;
	size_t i, len;

	for (rf = RF_GROUP; rf <= RF_ALL; rf++) {
		if (!(rf & RF_GROUP))
			continue;
		for (i = 0; i < sizeof(claims) / sizeof(claims[0]); i++)
			for (len = 0; len <= 64 * 8; len += 8) {
				int err;

				memset(words, 0xff, sizeof(words));
				words[0] = claims[i];
				reading_init(&r, vals, MAX_NR);
				err = perfev_read_decode(rf, words, len, &r);
				EXPECT(err == -EBADMSG,
				       "rf=%#llx nr %#llx len %zu: %d, expected %d",
				       (unsigned long long)rf, (unsigned long long)claims[i], len,
				       err, -EBADMSG);
			}
	}
}

/*
 * The largest nr a reading can report, with a buffer truly that long (a
 * reservation that is never touched past its first page): ENOSPC with the
 * count, and no read of the counters.
 */
TEST(decode_largest_nr_enospc)
{
	size_t len = perfev_read_size(RF_GROUP, UINT32_MAX);
	struct perfev_value vals[MAX_NR];
	struct perfev_reading r;
	uint64_t *buf;

	CHECK(len == 8 * ((size_t)UINT32_MAX + 1));
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		   -1, 0);
	if (buf == MAP_FAILED) {
		harness_skip("mmap-32g", "cannot reserve %zu bytes of address space: %s", len,
			     strerror(errno));
		return;
	}
	buf[0] = UINT32_MAX;
	reading_init(&r, vals, MAX_NR);
	EXPECT(perfev_read_decode(RF_GROUP, buf, len, &r) == -ENOSPC, "nr UINT32_MAX not ENOSPC");
	EXPECT(r.nr == UINT32_MAX, "nr %u after ENOSPC", r.nr);
	munmap(buf, len);
}

/* Reference: round(value * enabled / running), half up, saturated. */
static uint64_t ref_scale(uint64_t value, uint64_t enabled, uint64_t running)
{
	unsigned __int128 prod, q, rem;

	if (!running)
		return 0;
	prod = (unsigned __int128)value * enabled;
	q = prod / running;
	rem = prod % running;
	if (rem >= running - rem)
		q++;
	return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
}

TEST(scale_exact)
{
	CHECK_U64(perfev_scale(100, 200, 100), 200);
	CHECK_U64(perfev_scale(1000, 3000, 1000), 3000);
	CHECK_U64(perfev_scale(7, 10, 5), 14);
	CHECK_U64(perfev_scale(0, 1000, 10), 0);
	CHECK_U64(perfev_scale(123456789, 4, 2), 246913578);
	/* Kernel time can make running exceed enabled by a tick: scales down. */
	CHECK_U64(perfev_scale(100, 50, 100), 50);
	CHECK_U64(perfev_scale(42, 0, 7), 0);
}

TEST(scale_running_equals_enabled)
{
	static const uint64_t v[] = {0, 1, 12345, UINT64_MAX - 1, UINT64_MAX};
	static const uint64_t t[] = {1, 3, 1000000007, UINT64_MAX};
	size_t i, j;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		for (j = 0; j < sizeof(t) / sizeof(t[0]); j++)
			EXPECT(perfev_scale(v[i], t[j], t[j]) == v[i],
			       "scale(%#llx, %#llx, same): %#llx", (unsigned long long)v[i],
			       (unsigned long long)t[j],
			       (unsigned long long)perfev_scale(v[i], t[j], t[j]));
}

TEST(scale_never_ran)
{
	CHECK_U64(perfev_scale(5, 10, 0), 0);
	CHECK_U64(perfev_scale(5, 0, 0), 0);
	CHECK_U64(perfev_scale(UINT64_MAX, UINT64_MAX, 0), 0);
	CHECK_U64(perfev_scale(0, 0, 0), 0);
}

TEST(scale_rounds_to_nearest)
{
	CHECK_U64(perfev_scale(10, 3, 7), 4);	       /* 4.29 */
	CHECK_U64(perfev_scale(10, 5, 7), 7);	       /* 7.14 */
	CHECK_U64(perfev_scale(2, 5, 3), 3);	       /* 3.33 */
	CHECK_U64(perfev_scale(1, 5, 3), 2);	       /* 1.67 */
	CHECK_U64(perfev_scale(2, 2, 3), 1);	       /* 1.33 */
	CHECK_U64(perfev_scale(1, 2, 3), 1);	       /* 0.67 */
	CHECK_U64(perfev_scale(1, 1, 3), 0);	       /* 0.33 */
	CHECK_U64(perfev_scale(999, 1000, 1001), 998); /* 998.002 */
	CHECK_U64(perfev_scale(1000, 1999, 1000), 1999);
	/* A tie (1.5) goes to one of its neighbours. */
	EXPECT(perfev_scale(1, 3, 2) == 1 || perfev_scale(1, 3, 2) == 2, "scale(1, 3, 2) == %llu",
	       (unsigned long long)perfev_scale(1, 3, 2));
}

TEST(scale_near_u64_max)
{
	static const uint64_t edge[] = {0,
					1,
					2,
					3,
					1000,
					0xffffffffULL,
					0x100000000ULL,
					0x7fffffffffffffffULL,
					0x8000000000000000ULL,
					0x8000000000000001ULL,
					UINT64_MAX / 3,
					UINT64_MAX - 2,
					UINT64_MAX - 1,
					UINT64_MAX};
	size_t a, b, c;
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	int i;

	for (a = 0; a < sizeof(edge) / sizeof(edge[0]); a++)
		for (b = 0; b < sizeof(edge) / sizeof(edge[0]); b++)
			for (c = 0; c < sizeof(edge) / sizeof(edge[0]); c++) {
				uint64_t v = edge[a], e = edge[b], r = edge[c];
				uint64_t got = perfev_scale(v, e, r);
				uint64_t want = !r ? 0 : r == e ? v : ref_scale(v, e, r);

				EXPECT(got == want,
				       "scale(%#llx, %#llx, %#llx) = %#llx, expected %#llx",
				       (unsigned long long)v, (unsigned long long)e,
				       (unsigned long long)r, (unsigned long long)got,
				       (unsigned long long)want);
			}
	/* Pseudo-random triples with running <= enabled, as the kernel gives them. */
	for (i = 0; i < 100000; i++) {
		uint64_t v, e, r, got, want;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		v = x >> (i % 64);
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		e = x >> (i % 17);
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		r = e ? x % e + 1 : 0;
		got = perfev_scale(v, e, r);
		want = !r ? 0 : r == e ? v : ref_scale(v, e, r);
		EXPECT(got == want, "scale(%#llx, %#llx, %#llx) = %#llx, expected %#llx",
		       (unsigned long long)v, (unsigned long long)e, (unsigned long long)r,
		       (unsigned long long)got, (unsigned long long)want);
		if (harness_done())
			break;
	}
}

TEST(scale_saturates)
{
	CHECK_U64(perfev_scale(UINT64_MAX, 2, 1), UINT64_MAX);
	CHECK_U64(perfev_scale(0x8000000000000000ULL, 3, 1), UINT64_MAX);
	CHECK_U64(perfev_scale(UINT64_MAX, UINT64_MAX, 1), UINT64_MAX);
	CHECK_U64(perfev_scale(UINT64_MAX / 2 + 1, 2, 1), UINT64_MAX);
	/* Just below: UINT64_MAX / 2 * 2 = UINT64_MAX - 1 fits. */
	CHECK_U64(perfev_scale(UINT64_MAX / 2, 2, 1), UINT64_MAX - 1);
	/* The rounding increment must not wrap either. */
	CHECK_U64(perfev_scale(UINT64_MAX, UINT64_MAX, UINT64_MAX - 1), UINT64_MAX);
}
