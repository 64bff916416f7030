// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Sample filters as perf script and perf report apply them: time ranges
 * (perf's util/time-utils.c grammar, followed case for case), CPUs,
 * processes, threads, command names and the sampled function.
 */
#include <errno.h>
#include <limits.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/filter.h>
#include <perfev/pmu.h>
#include "common/internal.h"

/* ---- time ranges -------------------------------------------------------- */

size_t perfev_time_ranges_max(const char *str)
{
	size_t n = 1;

	for (; str && *str; str++)
		n += *str == ',';
	return n;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* "SEC[.NSEC]" (at most 9 decimals) into ns, as perf's parse_nsec_time. */
static int parse_nsec(const char *str, uint64_t *out)
{
	char *end, buf[10];
	uint64_t sec, nsec = 0;
	size_t len;

	/* strtoull's spaces, as perf, but no sign. */
	while (is_space(*str))
		str++;
	if (!isdigit((unsigned char)*str))
		return -EINVAL;
	sec = strtoull(str, &end, 10);
	if ((*end != '.' && *end) || sec > UINT64_MAX / 1000000000ULL)
		return -EINVAL;
	if (*end == '.') {
		len = strlen(++end);
		if (len > 9 || strspn(end, "0123456789") != len)
			return -EINVAL;
		memcpy(buf, end, len);
		memset(buf + len, '0', 9 - len);
		buf[9] = 0;
		nsec = strtoul(buf, &end, 10);
		if (*end)
			return -EINVAL;
	}
	*out = sec * 1000000000ULL + nsec;
	return 0;
}

/* "START,STOP", either may be empty; a STOP before its START is refused. */
static int parse_one(char *str, struct perfev_time_range *r)
{
	char *stop = strchr(str, ',');

	r->start = r->end = 0;
	if (stop)
		*stop++ = 0;
	if (*str && parse_nsec(str, &r->start))
		return -EINVAL;
	if (stop && *stop && parse_nsec(stop, &r->end))
		return -EINVAL;
	if (r->end && r->end < r->start)
		return -EINVAL;
	return 0;
}

/* Ranges separated by spaces: "A,B C,D"; as many as there are commas. */
static int parse_ranges(char *str, struct perfev_time_range *out, size_t max)
{
	size_t num = perfev_time_ranges_max(str) - 1, i;
	char *p = str, *arg;

	if (!num || num > max)
		return -EINVAL;
	for (i = 0; i + 1 < num; i++) {
		arg = p;
		p = strchr(p, ',') + 1;
		while (is_space(*p))
			p++;
		/* The STOP: it holds no comma, and a space ends it. */
		while (*p && !is_space(*p))
			if (*p++ == ',')
				return -EINVAL;
		if (*p)
			*p++ = 0;
		if (parse_one(arg, &out[i]))
			return -EINVAL;
	}
	if (parse_one(p, &out[i]))
		return -EINVAL;
	for (i = 0; i + 1 < num; i++)
		if (out[i].end >= out[i + 1].start)
			return -EINVAL;
	return (int)num;
}

/* "12.5%": 0.125; what follows the '%' is not looked at (perf's parse_percent). */
static int parse_percent(char *str, double *out)
{
	char *pct = str ? strchr(str, '%') : NULL, *end;

	if (!pct)
		return -EINVAL;
	*pct = 0;
	*out = strtod(str, &end) / 100.0;
	return *end ? -EINVAL : 0;
}

/* round() for values >= 0, without libm. */
static uint64_t round_pos(double x)
{
	uint64_t f = (uint64_t)x;

	return x - (double)f >= 0.5 ? f + 1 : f;
}

/* Percents of the span from @first to @last; the end 1 ns short of an end point but @last. */
static void percent_range(struct perfev_time_range *r, double from, double to, uint64_t first,
			  uint64_t last)
{
	uint64_t total = last - first;

	r->start = first + round_pos(from * (double)total);
	r->end = first + round_pos(to * (double)total);
	if (r->end > r->start && r->end != last)
		r->end--;
}

/* "10%/2": the second 10% slice. */
static int percent_slash(char *str, struct perfev_time_range *r, uint64_t first, uint64_t last)
{
	char *slash = strchr(str, '/'), *end;
	double pcnt, from, to;
	long i;

	if (!slash)
		return -EINVAL;
	*slash = 0;
	if (parse_percent(str, &pcnt))
		return -EINVAL;
	{
		long v = strtol(slash + 1, &end, 10);

		if (*end || end == slash + 1 || v < 1 || v > INT_MAX || pcnt <= 0.0)
			return -EINVAL;
		i = (int)v;
	}
	from = pcnt * (double)(i - 1);
	to = pcnt * (double)i;
	if (from < 0.0 || from > 1.0 || to < 0.0 || to > 1.0)
		return -EINVAL;
	percent_range(r, from, to, first, last);
	return 0;
}

/* "0%-10%"; an empty piece is an open range, as perf reads it. */
static int percent_dash(char *str, struct perfev_time_range *r, uint64_t first, uint64_t last)
{
	char *dash;
	double from, to;

	if (!*str)
		return 0;
	dash = strchr(str, '-');
	if (!dash)
		return -EINVAL;
	*dash = 0;
	if (parse_percent(str, &from) || parse_percent(dash + 1, &to))
		return -EINVAL;
	if (from < 0.0 || from > 1.0 || to < 0.0 || to > 1.0 || from > to)
		return -EINVAL;
	percent_range(r, from, to, first, last);
	return 0;
}

static int parse_percents(char *str, uint64_t first, uint64_t last, struct perfev_time_range *out,
			  size_t max)
{
	int (*one)(char *, struct perfev_time_range *, uint64_t, uint64_t);
	char *p = str, *end = str + strlen(str), *pct;
	size_t i = 0;

	if (!first && !last)
		return -ENODATA;
	memset(out, 0, max * sizeof(*out));
	if (strchr(str, '/'))
		one = percent_slash;
	else if (strchr(str, '-'))
		one = percent_dash;
	else {
		/* One percent alone, its '%' last: the first slice of that size. */
		pct = strchr(str, '%');
		if (!pct || pct != end - 1 || !max)
			return -EINVAL;
		*pct = 0;
		pct = malloc(strlen(str) + 4);
		if (!pct)
			return -ENOMEM;
		strcpy(pct, str);
		strcat(pct, "%/1");
		i = percent_slash(pct, out, first, last) ? 0 : 1;
		free(pct);
		return i ? 1 : -EINVAL;
	}
	while (p < end) {
		char *comma = strchr(p, ',');

		if (i >= max)
			return -EINVAL;
		if (comma)
			*comma = 0;
		if (one(p, &out[i], first, last))
			return -EINVAL;
		i++;
		if (!comma)
			break;
		p = comma + 1;
	}
	return (int)i;
}

int perfev_time_ranges_parse(const char *str, uint64_t first, uint64_t last,
			     struct perfev_time_range *out, size_t max)
{
	char *copy;
	int ret;

	if (!str || (max && !out))
		return -EINVAL;
	copy = strdup(str);
	if (!copy)
		return -ENOMEM;
	if (strchr(copy, '%'))
		ret = parse_percents(copy, first, last, out, max);
	else
		ret = parse_ranges(copy, out, max);
	free(copy);
	return ret;
}

bool perfev_time_ranges_skip(const struct perfev_time_range *r, size_t n, uint64_t time)
{
	size_t i;

	if (!r || !n || !time)
		return false;
	if (n == 1)
		return (r->start && time < r->start) || (r->end && time > r->end);
	for (i = 0; i < n; i++)
		if (time >= r[i].start && (time <= r[i].end || !r[i].end))
			return false;
	return true;
}

/* ---- the filter --------------------------------------------------------- */

struct perfev_filter {
	PERFEV__ARRAY(struct perfev_time_range) times;
	bool cpus_on;
	PERFEV__ARRAY(uint64_t) cpus; /* a bitmap */
	bool pids_on, tids_on;
	PERFEV__ARRAY(uint32_t) pids;
	PERFEV__ARRAY(uint32_t) tids;
	PERFEV__ARRAY(char *) comms;
	PERFEV__ARRAY(char *) syms;
	PERFEV__ARRAY(char *) dsos;
};

int perfev_filter_new(struct perfev_filter **out)
{
	if (!out)
		return -EINVAL;
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

static void names_release(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void perfev_filter_free(struct perfev_filter *f)
{
	if (!f)
		return;
	perfev__array_release(&f->times);
	perfev__array_release(&f->cpus);
	perfev__array_release(&f->pids);
	perfev__array_release(&f->tids);
	names_release(f->comms.v, f->comms.n);
	names_release(f->syms.v, f->syms.n);
	names_release(f->dsos.v, f->dsos.n);
	free(f);
}

int perfev_filter_set_time(struct perfev_filter *f, const char *str, uint64_t first, uint64_t last)
{
	struct perfev_time_range *v;
	size_t max;
	int n;

	if (!f || !str)
		return -EINVAL;
	max = perfev_time_ranges_max(str);
	/* Parsed aside: a bad string leaves the ranges set before as they were. */
	v = calloc(max ? max : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	n = perfev_time_ranges_parse(str, first, last, v, max);
	if (n < 0) {
		free(v);
		return n;
	}
	free(f->times.v);
	f->times.v = v;
	f->times.cap = max;
	f->times.n = (size_t)n;
	return 0;
}

int perfev_filter_set_cpus(struct perfev_filter *f, const char *list)
{
	int n, *cpus, i;

	if (!f || !list)
		return -EINVAL;
	n = perfev_cpulist_parse(list, strlen(list), NULL, 0);
	if (n == -ENOMEM)
		return n;
	if (n <= 0)
		return -EINVAL;
	cpus = calloc((size_t)n, sizeof(*cpus));
	if (!cpus)
		return -ENOMEM;
	n = perfev_cpulist_parse(list, strlen(list), cpus, (size_t)n);
	f->cpus.n = 0;
	for (i = 0; i < n; i++) {
		size_t word = (size_t)cpus[i] / 64;

		if (word >= f->cpus.n) {
			if (perfev__grow(&f->cpus.v, &f->cpus.cap, word + 1, sizeof(uint64_t))) {
				free(cpus);
				return -ENOMEM;
			}
			memset(f->cpus.v + f->cpus.n, 0, (word + 1 - f->cpus.n) * sizeof(uint64_t));
			f->cpus.n = word + 1;
		}
		f->cpus.v[word] |= 1ULL << (cpus[i] % 64);
	}
	free(cpus);
	f->cpus_on = true;
	return n < 0 ? n : 0;
}

/* Numbers separated by commas, as perf's intlist: "42,43". */
static int add_ids(const char *list, void *arrp, size_t *n, size_t *cap)
{
	uint32_t **v = arrp;
	const char *s = list;
	char *end;

	do {
		long val = strtol(s, &end, 10);

		if ((*end != ',' && *end) || end == s || val < 0 || val > UINT32_MAX)
			return -EINVAL;
		if (perfev__grow(v, cap, *n + 1, sizeof(**v)))
			return -ENOMEM;
		(*v)[(*n)++] = (uint32_t)val;
		s = end + 1;
	} while (*end);
	return 0;
}

int perfev_filter_add_pids(struct perfev_filter *f, const char *list)
{
	size_t had = f ? f->pids.n : 0;
	int err;

	if (!f || !list)
		return -EINVAL;
	/* A bad list leaves the filter as it was. */
	err = add_ids(list, &f->pids.v, &f->pids.n, &f->pids.cap);
	if (err)
		f->pids.n = had;
	else
		f->pids_on = true;
	return err;
}

int perfev_filter_add_tids(struct perfev_filter *f, const char *list)
{
	size_t had = f ? f->tids.n : 0;
	int err;

	if (!f || !list)
		return -EINVAL;
	err = add_ids(list, &f->tids.v, &f->tids.n, &f->tids.cap);
	if (err)
		f->tids.n = had;
	else
		f->tids_on = true;
	return err;
}

/* Names separated by commas, as perf's strlist (empty ones skipped). */
static int add_names(const char *list, void *arrp, size_t *n, size_t *cap)
{
	char ***v = arrp;
	size_t before = *n;

	while (*list) {
		size_t len = strcspn(list, ",");

		if (len) {
			if (perfev__grow(v, cap, *n + 1, sizeof(**v)) ||
			    !((*v)[*n] = strndup(list, len)))
				return -ENOMEM;
			(*n)++;
		}
		list += len;
		if (*list)
			list++;
	}
	return *n > before ? 0 : -EINVAL;
}

int perfev_filter_add_comms(struct perfev_filter *f, const char *list)
{
	if (!f || !list)
		return -EINVAL;
	return add_names(list, &f->comms.v, &f->comms.n, &f->comms.cap);
}

int perfev_filter_add_symbols(struct perfev_filter *f, const char *list)
{
	if (!f || !list)
		return -EINVAL;
	return add_names(list, &f->syms.v, &f->syms.n, &f->syms.cap);
}

int perfev_filter_add_dsos(struct perfev_filter *f, const char *list)
{
	if (!f || !list)
		return -EINVAL;
	return add_names(list, &f->dsos.v, &f->dsos.n, &f->dsos.cap);
}

static bool has_id(const uint32_t *v, size_t n, uint32_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == id)
			return true;
	return false;
}

static bool has_name(char *const *v, size_t n, const char *name)
{
	size_t i;

	for (i = 0; name && i < n; i++)
		if (!strcmp(v[i], name))
			return true;
	return false;
}

/*
 * The sampled function, by name, as perf's -S; the object it is in, by
 * its path or its file name ("libc.so.6"), as perf's --dsos.
 */
static int frame_listed(const struct perfev_filter *f, struct perfev_source *src,
			const struct perfev_source_event *ev)
{
	const struct perfev_frame *fr;
	const char *base;
	size_t n;
	int err;

	if (!(ev->rec->u.sample.present & PERF_SAMPLE_IP))
		return 0;
	err = perfev_source_frames(src, ev, f->syms.n ? 0 : PERFEV_FRAMES_NO_SYMBOLS, &fr, &n);
	if (err == -ENOMEM)
		return err;
	if (err || !n)
		return 0;
	if (f->dsos.n) {
		base = fr[0].dso ? strrchr(fr[0].dso, '/') : NULL;
		if (!fr[0].dso || (!has_name(f->dsos.v, f->dsos.n, fr[0].dso) &&
				   !(base && has_name(f->dsos.v, f->dsos.n, base + 1))))
			return 0;
	}
	return !f->syms.n || has_name(f->syms.v, f->syms.n, fr[0].sym);
}

int perfev_filter_sample(const struct perfev_filter *f, struct perfev_source *src,
			 const struct perfev_source_event *ev)
{
	const struct perfev_sample *smp;

	if (!f || !ev || ev->kind != PERFEV_SOURCE_SAMPLE || !ev->rec)
		return 1;
	smp = &ev->rec->u.sample;
	if (f->times.n && perfev_time_ranges_skip(f->times.v, f->times.n, ev->time))
		return 0;
	if (f->comms.n && !has_name(f->comms.v, f->comms.n, ev->comm))
		return 0;
	if (f->pids_on && !has_id(f->pids.v, f->pids.n, ev->pid))
		return 0;
	if (f->tids_on && !has_id(f->tids.v, f->tids.n, ev->tid))
		return 0;
	if (f->cpus_on) {
		uint32_t cpu = (smp->present & PERF_SAMPLE_CPU) ? ev->cpu : 0;

		if (cpu / 64 >= f->cpus.n || !(f->cpus.v[cpu / 64] & (1ULL << (cpu % 64))))
			return 0;
	}
	if (f->syms.n || f->dsos.n)
		return frame_listed(f, src, ev);
	return 1;
}
