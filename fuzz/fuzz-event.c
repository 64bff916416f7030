// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer harness: the event-string parser, bare and with the fixture PMUs and tracefs. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/perfev.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Where the walk's loads go, so the compiler keeps them. */
static volatile uint64_t sink;
static struct perfev_pmus *pmus;
static struct perfev_tracefs *tracefs;
static int tracefs_err;

/* Load the fixtures once: $PERFEV_FUZZ_SYSFS and $PERFEV_FUZZ_TRACEFS, or the test data. */
static void init_once(void)
{
	static bool done;
	struct perfev_pmus_opts po = {.sz = sizeof(po)};
	struct perfev_tracefs_opts to = {.sz = sizeof(to)};

	if (done)
		return;
	done = true;
	po.sysfs_root = getenv("PERFEV_FUZZ_SYSFS");
	if (!po.sysfs_root)
		po.sysfs_root = "tests/data/sysfs";
	if (perfev_pmus_load(&po, &pmus))
		pmus = NULL;
	else
		perfev_pmus_count(pmus); /* list now, not inside the first input */
	to.path = getenv("PERFEV_FUZZ_TRACEFS");
	if (!to.path)
		to.path = "tests/data/tracefs";
	tracefs_err = perfev_tracefs_open(&to, &tracefs);
	if (tracefs_err)
		tracefs = NULL;
}

static int visit_field(const struct perfev_attr_field *f, void *ctx)
{
	uint64_t *sum = ctx;

	/* Touch the strings: a dangling pointer shows up under ASan. */
	*sum += strlen(f->name) + strlen(f->key) + f->value + f->min_size;
	return 0;
}

/* Invariants every parsed list must satisfy; abort() makes a violation a finding. */
static void walk(const struct perfev_evspec *spec, size_t first, size_t len)
{
	size_t n = perfev_evspec_count(spec), i;
	unsigned char copy[PERFEV_ATTR_SIZE_MAX + 8];
	uint64_t sum = 0;

	for (i = first; i < n; i++) {
		struct perfev_event_info info = {.sz = sizeof(info)};

		if (perfev_evspec_info(spec, i, &info))
			abort();
		if (!info.name || !info.attr || !perfev_event_kind_name(info.kind))
			abort();
		sum += strlen(info.name);
		if (info.pmu)
			sum += strlen(info.pmu);
		if (info.group_name)
			sum += strlen(info.group_name);
		if (info.metric_id)
			sum += strlen(info.metric_id);
		if (info.driver_config)
			sum += strlen(info.driver_config);
		if (info.tp_system)
			sum += strlen(info.tp_system) + strlen(info.tp_name);
		if (info.unit)
			sum += strlen(info.unit);
		/* Groups: a member points back at an earlier leader of this parse. */
		if (info.leader < (int)first || info.leader > (int)i)
			abort();
		if (info.offset > len || info.length > len - info.offset)
			abort();
		if (info.attr->size < PERF_ATTR_SIZE_VER0 || info.attr->size > sizeof(copy))
			abort();
		if (perfev_attr_foreach(info.attr, visit_field, &sum))
			abort();
		if (perfev_evspec_attr_copy(spec, i, copy, sizeof(copy)) < PERF_ATTR_SIZE_VER0)
			abort();
	}
	sink = sum;
}

static void check_error(int ret, const struct perfev_parse_error *pe, size_t len)
{
	if (ret >= 0)
		return;
	if (pe->err != ret || pe->offset > len || !memchr(pe->message, '\0', sizeof(pe->message)) ||
	    !memchr(pe->hint, '\0', sizeof(pe->hint)) || !pe->message[0])
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfev_parse_opts po = {.sz = sizeof(po)};
	struct perfev_parse_error pe = {.sz = sizeof(pe)};
	struct perfev_evspec *spec = NULL;
	size_t len, n;
	char *s;
	int ret;

	if (size > 4096)
		return 0;
	s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	len = strlen(s);
	init_once();

	/* Generic events only. */
	ret = perfev_evspec_parse(s, NULL, &spec, &pe);
	check_error(ret, &pe, len);
	if (!ret) {
		walk(spec, 0, len);
		perfev_evspec_free(spec);
		spec = NULL;
	}

	/* With PMUs and tracefs; then appended a second time to the same list. */
	po.pmus = pmus;
	po.tracefs = tracefs;
	po.tracefs_error = tracefs_err;
	memset(&pe, 0, sizeof(pe));
	pe.sz = sizeof(pe);
	ret = perfev_evspec_parse(s, &po, &spec, &pe);
	check_error(ret, &pe, len);
	if (!ret) {
		n = perfev_evspec_count(spec);
		walk(spec, 0, len);
		if (!perfev_evspec_add(spec, s, &po, NULL)) {
			if (perfev_evspec_count(spec) != 2 * n)
				abort();
			walk(spec, n, len);
		} else if (perfev_evspec_count(spec) != n) {
			abort(); /* a failed add appends nothing */
		}
		perfev_evspec_free(spec);
	}
	free(s);
	return 0;
}
