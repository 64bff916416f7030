// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The PMU database, read from /sys/bus/event_source/devices.
 *
 * Reading is lazy: perfev_pmus_load() only records where to look.  The
 * directory is listed on the first query, and a PMU's formats, aliases
 * and capabilities are read the first time anything asks for them.  A
 * `perfev stat` of generic events therefore never touches sysfs.  A
 * mutex makes the lazy steps safe when several threads share a database.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include "common/internal.h"
#include <perfev/pmu.h>

struct perfev_pmu {
	char *name;
	uint32_t type;
	bool details_loaded;
	char *cpumask;
	int rdpmc;
	int mux_ms;
	struct perfev_format *formats;
	size_t nformats, cformats;
	struct perfev_alias *aliases;
	size_t naliases, caliases;
	struct perfev_cap *caps;
	size_t ncaps, ccaps;
	struct perfev_pmus *db;
};

struct perfev_pmus {
	char *root;
	pthread_mutex_t lock;
	bool listed;
	struct perfev_pmu *pmus;
	size_t n, cap;
};

#define DEVICES "/bus/event_source/devices"

int perfev_pmus_load(const struct perfev_pmus_opts *opts, struct perfev_pmus **out)
{
	struct perfev_pmus *db;
	const char *root = "/sys";

	if (!out || !perfev__opts_ok(opts, opts ? opts->sz : 0, sizeof(*opts)))
		return -EINVAL;
	root = PERFEV__OPT(opts, sysfs_root, NULL) ?: root;
	db = calloc(1, sizeof(*db));
	if (!db)
		return -ENOMEM;
	db->root = strdup(root);
	if (!db->root) {
		free(db);
		return -ENOMEM;
	}
	pthread_mutex_init(&db->lock, NULL);
	*out = db;
	return 0;
}

static void pmu_release(struct perfev_pmu *p)
{
	size_t i;

	for (i = 0; i < p->nformats; i++)
		free((char *)p->formats[i].name);
	for (i = 0; i < p->naliases; i++) {
		free((char *)p->aliases[i].name);
		free((char *)p->aliases[i].terms);
		free((char *)p->aliases[i].unit);
	}
	for (i = 0; i < p->ncaps; i++) {
		free((char *)p->caps[i].name);
		free((char *)p->caps[i].value);
	}
	free(p->formats);
	free(p->aliases);
	free(p->caps);
	free(p->cpumask);
	free(p->name);
}

void perfev_pmus_free(struct perfev_pmus *db)
{
	size_t i;

	if (!db)
		return;
	for (i = 0; i < db->n; i++)
		pmu_release(&db->pmus[i]);
	free(db->pmus);
	pthread_mutex_destroy(&db->lock);
	free(db->root);
	free(db);
}

static int cmp_pmu(const void *a, const void *b)
{
	return strcmp(((const struct perfev_pmu *)a)->name, ((const struct perfev_pmu *)b)->name);
}

/* Called with db->lock held. */
static void list_pmus(struct perfev_pmus *db)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *dir;
	size_t i;

	db->listed = true;
	if (perfev__path(path, sizeof(path), db->root, DEVICES))
		return;
	dir = opendir(path);
	if (!dir) {
		pr_debug("no PMUs: cannot open %s: %s", path, perfev_strerror(errno));
		return;
	}
	while ((de = readdir(dir))) {
		struct perfev_pmu *p;
		long long type;
		int err;

		if (de->d_name[0] == '.')
			continue;
		if (perfev__path(path, sizeof(path), db->root, DEVICES "/%s/type", de->d_name))
			continue;
		err = perfev__read_int(path, &type);
		if (err || type < 0 || type > UINT32_MAX) {
			pr_warn("skipping PMU '%s': cannot read its type: %s", de->d_name,
				perfev_strerror(err ? err : -ERANGE));
			continue;
		}
		if (perfev__grow(&db->pmus, &db->cap, db->n + 1, sizeof(*db->pmus)))
			break;
		p = &db->pmus[db->n];
		memset(p, 0, sizeof(*p));
		p->name = strdup(de->d_name);
		if (!p->name)
			break;
		p->type = (uint32_t)type;
		p->rdpmc = -1;
		p->mux_ms = -1;
		db->n++;
	}
	/* The loop only ends early when memory runs out. */
	if (de)
		perfev__log(PERFEV_LOG_ERROR, "out of memory listing PMUs: the list is incomplete");
	closedir(dir);
	if (db->n)
		qsort(db->pmus, db->n, sizeof(*db->pmus), cmp_pmu);
	for (i = 0; i < db->n; i++)
		db->pmus[i].db = db;
}

static void ensure_listed(const struct perfev_pmus *cdb)
{
	struct perfev_pmus *db = (struct perfev_pmus *)cdb;

	pthread_mutex_lock(&db->lock);
	if (!db->listed)
		list_pmus(db);
	pthread_mutex_unlock(&db->lock);
}

size_t perfev_pmus_count(const struct perfev_pmus *db)
{
	ensure_listed(db);
	return db->n;
}

const struct perfev_pmu *perfev_pmus_get(const struct perfev_pmus *db, size_t idx)
{
	ensure_listed(db);
	return idx < db->n ? &db->pmus[idx] : NULL;
}

const struct perfev_pmu *perfev_pmus_find(const struct perfev_pmus *db, const char *name)
{
	struct perfev_pmu key = {.name = (char *)name};

	ensure_listed(db);
	if (!db->n)
		return NULL;
	return bsearch(&key, db->pmus, db->n, sizeof(*db->pmus), cmp_pmu);
}

const struct perfev_pmu *perfev_pmus_find_type(const struct perfev_pmus *db, uint32_t type)
{
	size_t i;

	ensure_listed(db);
	for (i = 0; i < db->n; i++)
		if (db->pmus[i].type == type)
			return &db->pmus[i];
	return NULL;
}

/* ---- details ---------------------------------------------------------- */

static bool has_suffix(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls > lx && !strcmp(s + ls - lx, suffix);
}

/* "<dir>/<name><suffix>" into @buf; false when it does not fit. */
static bool join(char *buf, size_t len, const char *dir, const char *name, const char *suffix)
{
	int n = snprintf(buf, len, "%s/%s%s", dir, name, suffix);

	return n >= 0 && (size_t)n < len;
}

static char *read_trimmed(const char *path)
{
	char *buf;

	if (perfev__read_file(path, &buf, 1 << 16) < 0)
		return NULL;
	perfev__trim(buf);
	return buf;
}

static void load_formats(struct perfev_pmu *p, const char *dirpath)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *dir = opendir(dirpath);

	if (!dir)
		return;
	while ((de = readdir(dir))) {
		struct perfev_format f = {0};
		char *text;
		int err;

		if (de->d_name[0] == '.')
			continue;
		if (!join(path, sizeof(path), dirpath, de->d_name, ""))
			continue;
		text = read_trimmed(path);
		if (!text)
			continue;
		err = perfev_format_parse(text, strlen(text), &f);
		if (err) {
			pr_warn("PMU '%s': ignoring malformed format '%s': '%s'", p->name,
				de->d_name, text);
			free(text);
			continue;
		}
		free(text);
		if (perfev__grow(&p->formats, &p->cformats, p->nformats + 1, sizeof(f)))
			break;
		f.name = strdup(de->d_name);
		if (!f.name)
			break;
		p->formats[p->nformats++] = f;
	}
	closedir(dir);
}

static int cmp_alias(const void *a, const void *b)
{
	return strcasecmp(((const struct perfev_alias *)a)->name,
			  ((const struct perfev_alias *)b)->name);
}

static void load_aliases(struct perfev_pmu *p, const char *dirpath)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *dir = opendir(dirpath);
	size_t i;

	if (!dir)
		return;
	while ((de = readdir(dir))) {
		struct perfev_alias a = {.scale = 1.0};
		char *text, *s;

		if (de->d_name[0] == '.' || has_suffix(de->d_name, ".scale") ||
		    has_suffix(de->d_name, ".unit") || has_suffix(de->d_name, ".per-pkg") ||
		    has_suffix(de->d_name, ".snapshot"))
			continue;
		if (!join(path, sizeof(path), dirpath, de->d_name, ""))
			continue;
		text = read_trimmed(path);
		if (!text)
			continue;
		a.name = strdup(de->d_name);
		a.terms = text;
		if (!a.name) {
			free(text);
			break;
		}
		a.unit = join(path, sizeof(path), dirpath, de->d_name, ".unit") ? read_trimmed(path)
										: NULL;
		s = join(path, sizeof(path), dirpath, de->d_name, ".scale") ? read_trimmed(path)
									    : NULL;
		if (s) {
			char *end;
			double v = strtod(s, &end);

			if (end != s && !*end)
				a.scale = v;
			free(s);
		}
		s = join(path, sizeof(path), dirpath, de->d_name, ".per-pkg") ? read_trimmed(path)
									      : NULL;
		a.per_pkg = s && !strcmp(s, "1");
		free(s);
		s = join(path, sizeof(path), dirpath, de->d_name, ".snapshot") ? read_trimmed(path)
									       : NULL;
		a.snapshot = s && !strcmp(s, "1");
		free(s);
		if (perfev__grow(&p->aliases, &p->caliases, p->naliases + 1, sizeof(a))) {
			free((char *)a.name);
			free((char *)a.terms);
			free((char *)a.unit);
			break;
		}
		p->aliases[p->naliases++] = a;
	}
	closedir(dir);
	if (p->naliases)
		qsort(p->aliases, p->naliases, sizeof(*p->aliases), cmp_alias);
	/* Names must be unique case-insensitively for lookups to be well defined. */
	for (i = 1; i < p->naliases; i++)
		if (!strcasecmp(p->aliases[i - 1].name, p->aliases[i].name))
			pr_debug("PMU '%s': aliases '%s' and '%s' differ only in case", p->name,
				 p->aliases[i - 1].name, p->aliases[i].name);
}

static void load_caps(struct perfev_pmu *p, const char *dirpath)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *dir = opendir(dirpath);

	if (!dir)
		return;
	while ((de = readdir(dir))) {
		struct perfev_cap c;

		if (de->d_name[0] == '.')
			continue;
		if (!join(path, sizeof(path), dirpath, de->d_name, ""))
			continue;
		c.value = read_trimmed(path);
		if (!c.value)
			continue;
		c.name = strdup(de->d_name);
		if (!c.name || perfev__grow(&p->caps, &p->ccaps, p->ncaps + 1, sizeof(c))) {
			free((char *)c.name);
			free((char *)c.value);
			break;
		}
		p->caps[p->ncaps++] = c;
	}
	closedir(dir);
}

static int cmp_format(const void *a, const void *b)
{
	return strcmp(((const struct perfev_format *)a)->name,
		      ((const struct perfev_format *)b)->name);
}

static int cmp_cap(const void *a, const void *b)
{
	return strcmp(((const struct perfev_cap *)a)->name, ((const struct perfev_cap *)b)->name);
}

static struct perfev_pmu *details(const struct perfev_pmu *cp)
{
	struct perfev_pmu *p = (struct perfev_pmu *)cp;
	char base[PATH_MAX], path[PATH_MAX];
	long long v;

	pthread_mutex_lock(&p->db->lock);
	if (p->details_loaded)
		goto out;
	p->details_loaded = true;
	if (perfev__path(base, sizeof(base), p->db->root, DEVICES "/%s", p->name))
		goto out;
	if (join(path, sizeof(path), base, "format", ""))
		load_formats(p, path);
	if (p->nformats)
		qsort(p->formats, p->nformats, sizeof(*p->formats), cmp_format);
	if (join(path, sizeof(path), base, "events", ""))
		load_aliases(p, path);
	if (join(path, sizeof(path), base, "caps", ""))
		load_caps(p, path);
	if (p->ncaps)
		qsort(p->caps, p->ncaps, sizeof(*p->caps), cmp_cap);
	if (join(path, sizeof(path), base, "cpumask", ""))
		p->cpumask = read_trimmed(path);
	/* Hybrid core PMUs (cpu_core, cpu_atom) name it "cpus". */
	if (!p->cpumask && join(path, sizeof(path), base, "cpus", ""))
		p->cpumask = read_trimmed(path);
	if (join(path, sizeof(path), base, "rdpmc", "") && !perfev__read_int(path, &v))
		p->rdpmc = (int)v;
	if (join(path, sizeof(path), base, "perf_event_mux_interval_ms", "") &&
	    !perfev__read_int(path, &v))
		p->mux_ms = (int)v;
out:
	pthread_mutex_unlock(&p->db->lock);
	return p;
}

const char *perfev_pmu_name(const struct perfev_pmu *p)
{
	return p->name;
}

uint32_t perfev_pmu_type(const struct perfev_pmu *p)
{
	return p->type;
}

const char *perfev_pmu_cpumask(const struct perfev_pmu *p)
{
	return details(p)->cpumask;
}

int perfev_pmu_rdpmc(const struct perfev_pmu *p)
{
	return details(p)->rdpmc;
}

int perfev_pmu_mux_interval_ms(const struct perfev_pmu *p)
{
	return details(p)->mux_ms;
}

size_t perfev_pmu_format_count(const struct perfev_pmu *p)
{
	return details(p)->nformats;
}

const struct perfev_format *perfev_pmu_format(const struct perfev_pmu *p, size_t idx)
{
	details(p);
	return idx < p->nformats ? &p->formats[idx] : NULL;
}

const struct perfev_format *perfev_pmu_format_find(const struct perfev_pmu *p, const char *name)
{
	struct perfev_format key = {.name = name};

	details(p);
	if (!p->nformats)
		return NULL;
	return bsearch(&key, p->formats, p->nformats, sizeof(key), cmp_format);
}

size_t perfev_pmu_alias_count(const struct perfev_pmu *p)
{
	return details(p)->naliases;
}

const struct perfev_alias *perfev_pmu_alias(const struct perfev_pmu *p, size_t idx)
{
	details(p);
	return idx < p->naliases ? &p->aliases[idx] : NULL;
}

const struct perfev_alias *perfev_pmu_alias_find(const struct perfev_pmu *p, const char *name)
{
	struct perfev_alias key = {.name = name};

	details(p);
	if (!p->naliases)
		return NULL;
	return bsearch(&key, p->aliases, p->naliases, sizeof(key), cmp_alias);
}

size_t perfev_pmu_cap_count(const struct perfev_pmu *p)
{
	return details(p)->ncaps;
}

const struct perfev_cap *perfev_pmu_cap(const struct perfev_pmu *p, size_t idx)
{
	details(p);
	return idx < p->ncaps ? &p->caps[idx] : NULL;
}

const char *perfev_pmu_cap_find(const struct perfev_pmu *p, const char *name)
{
	struct perfev_cap key = {.name = name};
	const struct perfev_cap *c;

	details(p);
	if (!p->ncaps)
		return NULL;
	c = bsearch(&key, p->caps, p->ncaps, sizeof(key), cmp_cap);
	return c ? c->value : NULL;
}

const char *perfev__pmus_root(const struct perfev_pmus *db)
{
	return db->root;
}
