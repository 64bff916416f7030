// SPDX-License-Identifier: LGPL-2.1-or-later
/* perf stat record's records (STAT, STAT_ROUND, STAT_CONFIG, THREAD_MAP, CPU_MAP, EVENT_UPDATE):
 * perf 6.1's bytes, decoded and encoded back. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <perfev/record.h>
#include "harness.h"

/* Records of `perf stat record -I 100 -e task-clock,page-faults sleep 0.25` (perf 6.1). */
static const uint8_t perf_stat[] = {
    0x4c, 0x00, 0x00, 0x00, 0x00, 0x00, 0x30, 0x00, 0x95, 0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x65, 0x32, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x65, 0x32, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x65, 0x32, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00};
static const uint8_t perf_config[] = {
    0x4b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
static const uint8_t perf_threads[] = {0x49, 0x00, 0x00, 0x00, 0x00, 0x00, 0x28, 0x00, 0x01, 0x00,
				       0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2d, 0x1c, 0x00, 0x00,
				       0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
				       0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
static const uint8_t perf_cpus[] = {0x4a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00,
				    0x00, 0x00, 0x01, 0x00, 0xff, 0xff, 0x00, 0x00};
static const uint8_t perf_unit[] = {
    0x4e, 0x00, 0x00, 0x00, 0x00, 0x00, 0x30, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x95, 0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x6d, 0x73, 0x65, 0x63, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
static const uint8_t perf_scale[] = {
    0x4e, 0x00, 0x00, 0x00, 0x00, 0x00, 0x30, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x95, 0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x8d, 0xed, 0xb5, 0xa0, 0xf7, 0xc6, 0xb0, 0x3e,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
static const uint8_t perf_round[] = {0x4d, 0x00, 0x00, 0x00, 0x00, 0x00, 0x18, 0x00,
				     0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
				     0xc3, 0x3f, 0xf8, 0x05, 0x00, 0x00, 0x00, 0x00};

static struct perfev_sample_layout layout;

static void setup(void)
{
	struct perf_event_attr a = {.size = sizeof(a)};

	perfev_sample_layout_init(&layout, &a);
}

/* Decode @rec, encode what was decoded, and compare with @rec byte for byte. */
static void round_trip(const uint8_t *rec, size_t len, struct perfev_record *r)
{
	uint8_t buf[256];

	CHECK_INT(perfev_record_decode(&layout, rec, len, r), 0);
	CHECK_INT(perfev_record_encode(&layout, r, buf, sizeof(buf)), (int)len);
	CHECK(!memcmp(buf, rec, len));
}

TEST(stat_counts)
{
	struct perfev_record r;

	setup();
	round_trip(perf_stat, sizeof(perf_stat), &r);
	CHECK_U64(r.type, PERFEV_RECORD_STAT);
	CHECK_U64(r.u.stat.id, 1941);
	CHECK_U64(r.u.stat.cpu, 0xffffffffU);
	CHECK_U64(r.u.stat.thread, 0);
	CHECK_U64(r.u.stat.val, 537189);
	CHECK_U64(r.u.stat.ena, 537189);
	CHECK_U64(r.u.stat.run, 537189);
	CHECK_U64(r.sid.present, 0);
	CHECK_INT(perfev_record_decode(&layout, perf_stat, sizeof(perf_stat) - 1, &r), -EBADMSG);
}

TEST(stat_config_and_round)
{
	struct perfev_record r;

	setup();
	round_trip(perf_config, sizeof(perf_config), &r);
	CHECK_U64(r.u.stat_config.nr, 3);
	CHECK_U64(perfev_u64_at(r.u.stat_config.data, 0), PERFEV_STAT_CONFIG_AGGR_MODE);
	CHECK_U64(perfev_u64_at(r.u.stat_config.data, 1), 1);
	CHECK_U64(perfev_u64_at(r.u.stat_config.data, 2), PERFEV_STAT_CONFIG_INTERVAL);
	CHECK_U64(perfev_u64_at(r.u.stat_config.data, 3), 100);
	round_trip(perf_round, sizeof(perf_round), &r);
	CHECK_U64(r.u.stat_round.type, PERFEV_STAT_ROUND_INTERVAL);
	CHECK_U64(r.u.stat_round.time, 100155331);
}

TEST(thread_and_cpu_maps)
{
	struct perfev_record r;
	uint16_t cpu;

	setup();
	round_trip(perf_threads, sizeof(perf_threads), &r);
	CHECK_U64(r.u.thread_map.nr, 1);
	CHECK_U64(perfev_u64_at(r.u.thread_map.entries, 0), 7213);
	round_trip(perf_cpus, sizeof(perf_cpus), &r);
	CHECK_INT(r.u.cpu_map.type, PERFEV_CPU_MAP_CPUS);
	CHECK_INT(r.u.cpu_map.nr, 1);
	memcpy(&cpu, r.u.cpu_map.cpus, 2);
	CHECK_INT(cpu, 0xffff);
	/* A map of more CPUs than the record holds. */
	{
		uint8_t bad[sizeof(perf_cpus)];

		memcpy(bad, perf_cpus, sizeof(bad));
		bad[10] = 9;
		CHECK_INT(perfev_record_decode(&layout, bad, sizeof(bad), &r), -EBADMSG);
	}
}

TEST(event_update)
{
	struct perfev_record r;
	uint8_t buf[256];
	int n;

	setup();
	CHECK_INT(perfev_record_decode(&layout, perf_unit, sizeof(perf_unit), &r), 0);
	CHECK_U64(r.u.event_update.type, PERFEV_EVENT_UPDATE_UNIT);
	CHECK_U64(r.u.event_update.id, 1941);
	CHECK(r.u.event_update.str && !strcmp(r.u.event_update.str, "msec"));
	/* perfev pads the string to 8 bytes; perf to more: the same record all the same. */
	n = perfev_record_encode(&layout, &r, buf, sizeof(buf));
	CHECK_INT(n, 32);
	CHECK(!memcmp(buf + 8, perf_unit + 8, (size_t)n - 8));
	CHECK_INT(perfev_record_decode(&layout, perf_scale, sizeof(perf_scale), &r), 0);
	CHECK_U64(r.u.event_update.type, PERFEV_EVENT_UPDATE_SCALE);
	CHECK(r.u.event_update.scale == 1e-6);
	n = perfev_record_encode(&layout, &r, buf, sizeof(buf));
	CHECK_INT(n, 32);
	CHECK(!memcmp(buf + 8, perf_scale + 8, 24));
	/* A unit without its NUL. */
	memcpy(buf, perf_unit, 32);
	buf[6] = 28;
	CHECK_INT(perfev_record_decode(&layout, buf, 28, &r), -EBADMSG);
}

TEST(encode_refuses_other_cpu_maps)
{
	struct perfev_record r = {.type = PERFEV_RECORD_CPU_MAP};
	uint8_t buf[64];

	setup();
	r.u.cpu_map.type = PERFEV_CPU_MAP_MASK;
	CHECK_INT(perfev_record_encode(&layout, &r, buf, sizeof(buf)), -EINVAL);
}

/* The CPU maps perf 6.1 writes: a list, a range (-a on CPUs 0-1), masks of 32- and 64-bit words. */
TEST(cpu_map_encodings)
{
	static const uint8_t range[] = {0x4a, 0, 0, 0, 0, 0, 0x10, 0, 2, 0, 0, 0, 0, 0, 1, 0};
	static const uint8_t mask32[] = {0x4a, 0, 0, 0, 0, 0,	 0x12, 0, 1,
					 0,    1, 0, 4, 0, 0x05, 0x01, 0, 0};
	static const uint8_t mask64[] = {0x4a, 0, 0, 0, 0, 0,	 0x1a, 0, 1, 0, 1,    0, 8,
					 0,    0, 0, 0, 0, 0x03, 0,    0, 0, 0, 0x80, 0, 0};
	struct perfev_record r;
	int cpus[16];

	setup();
	CHECK_INT(perfev_record_decode(&layout, range, sizeof(range), &r), 0);
	CHECK_INT(perfev_cpu_map_cpus(&r, cpus, 16), 2);
	CHECK_INT(cpus[0], 0);
	CHECK_INT(cpus[1], 1);
	CHECK_INT(perfev_record_decode(&layout, mask32, sizeof(mask32), &r), 0);
	CHECK_INT(perfev_cpu_map_cpus(&r, cpus, 16), 3);
	CHECK_INT(cpus[0], 0);
	CHECK_INT(cpus[1], 2);
	CHECK_INT(cpus[2], 8);
	CHECK_INT(perfev_record_decode(&layout, mask64, sizeof(mask64), &r), 0);
	CHECK_INT(perfev_cpu_map_cpus(&r, cpus, 1), 3);
	CHECK_INT(cpus[0], 0);
	CHECK_INT(perfev_cpu_map_cpus(&r, cpus, 16), 3);
	CHECK_INT(cpus[1], 1);
	CHECK_INT(cpus[2], 47);
	CHECK_INT(perfev_record_decode(&layout, perf_cpus, sizeof(perf_cpus), &r), 0);
	CHECK_INT(perfev_cpu_map_cpus(&r, cpus, 16), 1);
	CHECK_INT(cpus[0], -1);
	/* A mask word cut short, a range backwards, another record. */
	{
		uint8_t bad[sizeof(mask64)];

		memcpy(bad, mask64, sizeof(bad));
		bad[6] = 22;
		CHECK_INT(perfev_record_decode(&layout, bad, 22, &r), 0);
		CHECK_INT(perfev_cpu_map_cpus(&r, cpus, 16), -EBADMSG);
	}
	{
		uint8_t bad[sizeof(range)];

		memcpy(bad, range, sizeof(bad));
		bad[12] = 5;
		CHECK_INT(perfev_record_decode(&layout, bad, sizeof(bad), &r), 0);
		CHECK_INT(perfev_cpu_map_cpus(&r, cpus, 16), -EBADMSG);
	}
	CHECK_INT(perfev_record_decode(&layout, perf_stat, sizeof(perf_stat), &r), 0);
	CHECK_INT(perfev_cpu_map_cpus(&r, cpus, 16), -EINVAL);
}
