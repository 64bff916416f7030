/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The PMU database: every performance monitoring unit the kernel exports
 * under /sys/bus/event_source/devices, with its type number, its format
 * fields (how named terms map onto config/config1/config2/config3 bits),
 * its event aliases, cpumask, capabilities and rdpmc setting.
 *
 * The sysfs root is injectable so the same code reads fixture trees in
 * tests and trees copied from other machines.  Parsing of the individual
 * files is done by pure functions (perfev_format_parse(),
 * perfev_cpulist_parse()) that never touch the filesystem.
 */
#ifndef PERFEV_PMU_H
#define PERFEV_PMU_H

#include <stdbool.h>
#include <stdint.h>
#include <perfev/core.h>

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_pmus; /* the whole database, owns every PMU */
struct perfev_pmu;  /* one PMU; valid as long as its database */

struct perfev_pmus_opts {
	size_t sz;		/* sizeof(struct perfev_pmus_opts) */
	const char *sysfs_root; /* default "/sys" */
};

/*
 * Create the database of the PMUs below @opts->sysfs_root.  Nothing is
 * read yet: the directory is listed on the first query and each PMU's
 * details the first time they are asked for, so callers that only use
 * generic events pay nothing.  PMUs whose "type" file cannot be read are
 * skipped with a log message; a missing devices directory yields an empty
 * database (not an error), since perf_event may be compiled out.  Running
 * out of memory while reading leaves a partial database and logs an error.
 * The database may be shared by threads.
 *
 * Errors: -EINVAL (bad opts), -ENOMEM.
 */
PERFEV_API int perfev_pmus_load(const struct perfev_pmus_opts *opts, struct perfev_pmus **out);
PERFEV_API void perfev_pmus_free(struct perfev_pmus *pmus);

/* PMUs sorted by name. */
PERFEV_API size_t perfev_pmus_count(const struct perfev_pmus *pmus);
PERFEV_API const struct perfev_pmu *perfev_pmus_get(const struct perfev_pmus *pmus, size_t idx);
/* Exact name, or NULL. */
PERFEV_API const struct perfev_pmu *perfev_pmus_find(const struct perfev_pmus *pmus,
						     const char *name);
/* By attr.type value, or NULL. */
PERFEV_API const struct perfev_pmu *perfev_pmus_find_type(const struct perfev_pmus *pmus,
							  uint32_t type);

PERFEV_API const char *perfev_pmu_name(const struct perfev_pmu *pmu);
PERFEV_API uint32_t perfev_pmu_type(const struct perfev_pmu *pmu);
/* Raw cpumask / cpus file text ("0-3"), or NULL when the PMU has none. */
PERFEV_API const char *perfev_pmu_cpumask(const struct perfev_pmu *pmu);
/* Content of "rdpmc" (0, 1, 2), or -1 when the file is absent. */
PERFEV_API int perfev_pmu_rdpmc(const struct perfev_pmu *pmu);
/* perf_event_mux_interval_ms, or -1 when absent. */
PERFEV_API int perfev_pmu_mux_interval_ms(const struct perfev_pmu *pmu);

/* --- format fields --------------------------------------------------- */

#define PERFEV_FORMAT_MAX_RANGES 8

/*
 * One format field: "event" -> "config:0-7,32-35".  The value given for the
 * field is spread over the listed bits, least significant value bit in
 * the lowest listed bit.
 */
struct perfev_format {
	const char *name;   /* term name ("event", "umask", ...) */
	unsigned int word;  /* 0: config, 1: config1, 2: config2, 3: config3 */
	uint64_t mask;	    /* bits of the config word the field occupies */
	unsigned int nbits; /* number of bits in mask; max value is 2^nbits - 1 */
};

PERFEV_API size_t perfev_pmu_format_count(const struct perfev_pmu *pmu);
PERFEV_API const struct perfev_format *perfev_pmu_format(const struct perfev_pmu *pmu, size_t idx);
PERFEV_API const struct perfev_format *perfev_pmu_format_find(const struct perfev_pmu *pmu,
							      const char *name);

/*
 * Parse the content of a sysfs format file ("config1:1,6-10,44").  Pure:
 * only @text[0..len) is read.  Trailing whitespace is ignored.  @out->name
 * is left untouched.
 *
 * Errors: -EBADMSG (malformed text, bit above 63, overlapping ranges,
 * unknown config word).
 */
PERFEV_API int perfev_format_parse(const char *text, size_t len, struct perfev_format *out);

/*
 * Place @value into the bits of @fmt inside @word (clearing those bits
 * first).  Returns 0, or -ERANGE when @value does not fit in fmt->nbits
 * (the word is left unchanged).
 */
PERFEV_API int perfev_format_apply(const struct perfev_format *fmt, uint64_t value, uint64_t *word);

/* Inverse of perfev_format_apply(): extract the field's value from @word. */
PERFEV_API uint64_t perfev_format_extract(const struct perfev_format *fmt, uint64_t word);

/* --- event aliases ---------------------------------------------------- */

struct perfev_alias {
	const char *name;  /* file name under events/ */
	const char *terms; /* file content, e.g. "event=0x3c,umask=0x0" (trimmed) */
	const char *unit;  /* events/NAME.unit, or NULL */
	double scale;	   /* events/NAME.scale, 1.0 when absent */
	bool per_pkg;	   /* events/NAME.per-pkg says 1 */
	bool snapshot;	   /* events/NAME.snapshot says 1 */
};

PERFEV_API size_t perfev_pmu_alias_count(const struct perfev_pmu *pmu);
PERFEV_API const struct perfev_alias *perfev_pmu_alias(const struct perfev_pmu *pmu, size_t idx);
/* Case-insensitive, as perf matches sysfs aliases. */
PERFEV_API const struct perfev_alias *perfev_pmu_alias_find(const struct perfev_pmu *pmu,
							    const char *name);

/* --- capabilities ----------------------------------------------------- */

struct perfev_cap {
	const char *name;  /* file under caps/ ("max_precise", "branches", ...) */
	const char *value; /* its trimmed content */
};

PERFEV_API size_t perfev_pmu_cap_count(const struct perfev_pmu *pmu);
PERFEV_API const struct perfev_cap *perfev_pmu_cap(const struct perfev_pmu *pmu, size_t idx);
/* Value of caps/@name, or NULL. */
PERFEV_API const char *perfev_pmu_cap_find(const struct perfev_pmu *pmu, const char *name);

/*
 * Parse a kernel CPU list ("0-3,8,10-11") into @cpus (up to @max entries).
 * Like the kernel, the list is a set: the result is ascending without
 * repeats whatever the order of the ranges.  Pure.  Returns the number of
 * CPUs in the set (which may exceed @max: only the first @max are
 * stored), or -EBADMSG, -ENOMEM.
 */
PERFEV_API int perfev_cpulist_parse(const char *text, size_t len, int *cpus, size_t max);

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_PMU_H */
