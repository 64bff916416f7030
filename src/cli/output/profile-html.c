// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev report --html: one self-contained page (a flame graph, the top
 * functions, the run's description) with the profile embedded as compact
 * JSON.  The page itself is report-html.html and report-html.js, turned
 * into byte arrays at build time; this file fills in their markers.
 *
 * The embedded data is a table of strings, a table of frames (name, object,
 * kind) and the stacks as lists of frame indexes, so a frame's strings are
 * written once whatever the number of stacks.  Frames are merged by what
 * the page shows of them (name, object, kind): the profile's frames differ
 * by address, which a flame graph does not show.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "output/json.h"
#include "profile.h"

static const unsigned char page_html[] = {
#include "report-html.html.inc"
};

static const unsigned char page_js[] = {
#include "report-html.js.inc"
};

/* The head every page shares. */
static const unsigned char page_head[] = {
#include "page-head.html.inc"
};

#define NONE UINT32_MAX

/* Frame kinds, as the page reads them. */
enum { KIND_USER, KIND_KERNEL, KIND_UNRESOLVED, KIND_INLINED = 4 };

struct page_frame {
	uint32_t name, dso, kind;
};

struct page {
	struct perfev__intern strs;   /* the strings, in index order */
	struct perfev__intern frames; /* the struct page_frames, as bytes, in index order */
	uint32_t *map;		      /* profile frame -> page frame, NONE until used */
};

/* The index of @len bytes at @key in @t, added when new. */
static int page_index(struct perfev__intern *t, const void *key, size_t len, uint32_t *out)
{
	size_t i;
	int err = perfev__intern_bytes(t, key, len, &i);

	if (err < 0)
		return err;
	if (i >= NONE)
		return -E2BIG;
	*out = (uint32_t)i;
	return 0;
}

/* The index of string @s in the page's table, added when new. */
static int page_str(struct page *pg, const char *s, uint32_t *out)
{
	return page_index(&pg->strs, s, strlen(s), out);
}

static uint32_t kind_of(const struct profile_frame *f)
{
	uint32_t k;

	if (!f->sym)
		k = KIND_UNRESOLVED;
	else if (f->level == 'k' || f->level == 'H' || f->level == 'g')
		k = KIND_KERNEL;
	else
		k = KIND_USER;
	return f->inlined ? k | KIND_INLINED : k;
}

/* The page frame of profile frame @i, made at its first use. */
static int page_frame(struct page *pg, const struct profile *p, uint32_t i, uint32_t *out)
{
	const struct profile_frame *f = &p->frames[i];
	struct page_frame pf;
	int err;

	if (pg->map[i] != NONE) {
		*out = pg->map[i];
		return 0;
	}
	memset(&pf, 0, sizeof(pf)); /* hashed and compared as bytes */
	err = page_str(pg, profile_frame_name(f), &pf.name);
	if (!err)
		err = page_str(pg, profile_short_dso(f->dso), &pf.dso);
	if (err)
		return err;
	pf.kind = kind_of(f);
	err = page_index(&pg->frames, &pf, sizeof(pf), &pg->map[i]);
	*out = pg->map[i];
	return err;
}

static void page_release(struct page *pg)
{
	perfev__intern_release(&pg->strs);
	perfev__intern_release(&pg->frames);
	free(pg->map);
}

static bool wanted(const struct profile *p, size_t ev, const struct profile_stack *s)
{
	return ev >= p->nevents || s->ev == ev;
}

int profile_write_html_data(const struct profile *p, size_t ev, FILE *f)
{
	const struct profile_meta *m = &p->meta;
	struct page pg = {0};
	uint32_t *comm = NULL, fi;
	size_t i, k, first = 0, nev;
	struct json j;
	int err = -ENOMEM;

	pg.map = malloc((p->nframes ? p->nframes : 1) * sizeof(*pg.map));
	comm = malloc((p->nstacks ? p->nstacks : 1) * sizeof(*comm));
	if (!pg.map || !comm)
		goto out;
	memset(pg.map, 0xff, (p->nframes ? p->nframes : 1) * sizeof(*pg.map));
	/* First the tables the stacks index, then the stacks. */
	for (i = 0; i < p->nstacks; i++) {
		const struct profile_stack *s = &p->stacks[i];

		if (!wanted(p, ev, s))
			continue;
		err = page_str(&pg, s->comm ? s->comm : "[unknown]", &comm[i]);
		for (k = profile_stack_first(p, s); !err && k < s->nframes; k++)
			err = s->frames[k] < p->nframes ? page_frame(&pg, p, s->frames[k], &fi)
							: -EINVAL;
		if (err)
			goto out;
	}

	/* Compact, its strings inert inside the page's <script> element. */
	json_init_flags(&j, f, JSON_COMPACT | JSON_SCRIPT_SAFE);
	json_obj_begin(&j);
	json_ku64(&j, "version", 1);
	json_key(&j, "meta");
	json_obj_begin(&j);
	json_kstr(&j, "input", m->input);
	json_kstr(&j, "hostname", m->hostname);
	json_kstr(&j, "os_release", m->os_release);
	json_kstr(&j, "arch", m->arch);
	json_kstr(&j, "cpu", m->cpu_desc);
	json_kstr(&j, "perf_version", m->perf_version);
	json_kstr(&j, "cmdline", m->cmdline);
	json_ku64(&j, "nr_cpus", m->nr_cpus);
	json_ku64(&j, "lost", m->lost);
	if (m->time_first && m->time_last >= m->time_first)
		json_ku64(&j, "duration_ns", m->time_last - m->time_first);
	json_obj_end(&j);
	json_key(&j, "events");
	json_arr_begin(&j);
	nev = p->nevents;
	if (ev < p->nevents) {
		first = ev;
		nev = ev + 1;
	}
	for (i = first; i < nev; i++) {
		json_obj_begin(&j);
		json_kstr(&j, "name", p->events[i].name);
		json_ku64(&j, "samples", p->events[i].samples);
		json_ku64(&j, "period", p->events[i].period);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_break(&j);
	json_key(&j, "strings");
	json_arr_begin(&j);
	for (i = 0; i < perfev__intern_count(&pg.strs); i++)
		json_str(&j, perfev__intern_at(&pg.strs, i));
	json_arr_end(&j);
	json_break(&j);
	json_key(&j, "frames");
	json_arr_begin(&j);
	for (i = 0; i < perfev__intern_count(&pg.frames); i++) {
		struct page_frame pf;

		memcpy(&pf, perfev__intern_at(&pg.frames, i), sizeof(pf));
		json_u64(&j, pf.name);
		json_u64(&j, pf.dso);
		json_u64(&j, pf.kind);
	}
	json_arr_end(&j);
	json_break(&j);
	json_key(&j, "stacks");
	json_arr_begin(&j);
	for (i = 0; i < p->nstacks; i++) {
		const struct profile_stack *s = &p->stacks[i];

		if (!wanted(p, ev, s))
			continue;
		json_break(&j);
		json_arr_begin(&j);
		json_u64(&j, ev < p->nevents ? 0 : s->ev);
		json_u64(&j, comm[i]);
		json_u64(&j, s->samples);
		json_u64(&j, s->period);
		/* The profile lists the leaf first; the page wants the root first. */
		for (k = s->nframes; k-- > profile_stack_first(p, s);)
			json_u64(&j, pg.map[s->frames[k]]);
		json_arr_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	err = 0;
out:
	free(comm);
	page_release(&pg);
	return err;
}

/* Write template @t up to its next "@PERFEV_NAME@" marker: its name, or NULL at the end. */
static const char *put_until_marker(const unsigned char **t, const unsigned char *end, FILE *f)
{
	static const char mark[] = "@PERFEV_";
	const unsigned char *m = memmem(*t, (size_t)(end - *t), mark, sizeof(mark) - 1);
	const unsigned char *close;

	if (!m) {
		fwrite(*t, 1, (size_t)(end - *t), f);
		*t = end;
		return NULL;
	}
	fwrite(*t, 1, (size_t)(m - *t), f);
	close = memchr(m + 1, '@', (size_t)(end - m - 1));
	if (!close)
		close = end - 1;
	*t = close + 1;
	return (const char *)m + 1;
}

int profile_html_fill(const unsigned char *page, size_t len, profile_html_fill_fn fn, void *ctx,
		      FILE *f)
{
	const unsigned char *t = page, *end = page + len;
	const char *marker;
	int err = 0;

	while ((marker = put_until_marker(&t, end, f))) {
		if (!strncmp(marker, "PERFEV_HEAD@", 12))
			fwrite(page_head, 1, sizeof(page_head), f);
		else
			err = fn(marker + 7, ctx, f);
		if (err)
			return err;
	}
	if (fflush(f) || ferror(f))
		return -EIO;
	return 0;
}

struct report_page {
	const struct profile *p;
	size_t ev;
};

static int fill_report(const char *name, void *ctx, FILE *f)
{
	const struct report_page *rp = ctx;

	if (!strncmp(name, "DATA@", 5))
		return profile_write_html_data(rp->p, rp->ev, f);
	if (!strncmp(name, "SCRIPT@", 7))
		fwrite(page_js, 1, sizeof(page_js), f);
	return 0;
}

int profile_write_html(const struct profile *p, size_t ev, FILE *f)
{
	struct report_page rp = {p, ev};

	return profile_html_fill(page_html, sizeof(page_html), fill_report, &rp, f);
}
