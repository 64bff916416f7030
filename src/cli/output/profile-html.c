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

#define NONE UINT32_MAX

/* Frame kinds, as the page reads them. */
enum { KIND_USER, KIND_KERNEL, KIND_UNRESOLVED, KIND_INLINED = 4 };

struct page_frame {
	uint32_t name, dso, kind;
};

struct page {
	char **strs; /* owned copies, in index order */
	size_t nstrs, cap_strs;
	uint32_t *str_idx; /* open addressing over strs */
	size_t cap_str_idx;

	struct page_frame *frames;
	size_t nframes, cap_frames;
	uint32_t *frame_idx;
	size_t cap_frame_idx;

	uint32_t *map; /* profile frame -> page frame, NONE until used */
};

static uint64_t str_hash(const char *s)
{
	return profile_fnv(PROFILE_FNV0, s, strlen(s));
}

static uint64_t frame_hash(const struct page_frame *f)
{
	return profile_fnv(PROFILE_FNV0, f, sizeof(*f));
}

/* A table of @cap (a power of two) empty slots. */
static int index_new(uint32_t **idx, size_t cap)
{
	uint32_t *v = malloc(cap * sizeof(*v));

	if (!v)
		return -ENOMEM;
	memset(v, 0xff, cap * sizeof(*v));
	free(*idx);
	*idx = v;
	return 0;
}

static int grow(void **v, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 256;
	void *nv;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	nv = realloc(*v, n * size);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = n;
	return 0;
}

/* The index of string @s in the page's table, added when new. */
static int page_str(struct page *pg, const char *s, uint32_t *out)
{
	size_t j, i;
	int err;

	if ((pg->nstrs + 1) * 2 > pg->cap_str_idx) {
		size_t cap = pg->cap_str_idx ? pg->cap_str_idx * 2 : 1024;

		err = index_new(&pg->str_idx, cap);
		if (err)
			return err;
		pg->cap_str_idx = cap;
		for (i = 0; i < pg->nstrs; i++) {
			j = (size_t)str_hash(pg->strs[i]) & (cap - 1);
			while (pg->str_idx[j] != NONE)
				j = (j + 1) & (cap - 1);
			pg->str_idx[j] = (uint32_t)i;
		}
	}
	j = (size_t)str_hash(s) & (pg->cap_str_idx - 1);
	while (pg->str_idx[j] != NONE) {
		if (!strcmp(pg->strs[pg->str_idx[j]], s)) {
			*out = pg->str_idx[j];
			return 0;
		}
		j = (j + 1) & (pg->cap_str_idx - 1);
	}
	err = grow((void **)&pg->strs, &pg->cap_strs, pg->nstrs + 1, sizeof(*pg->strs));
	if (err)
		return err;
	pg->strs[pg->nstrs] = strdup(s);
	if (!pg->strs[pg->nstrs])
		return -ENOMEM;
	pg->str_idx[j] = (uint32_t)pg->nstrs;
	*out = (uint32_t)pg->nstrs++;
	return 0;
}

static int page_frame_of(struct page *pg, const struct page_frame *f, uint32_t *out)
{
	size_t j, i;
	int err;

	if ((pg->nframes + 1) * 2 > pg->cap_frame_idx) {
		size_t cap = pg->cap_frame_idx ? pg->cap_frame_idx * 2 : 1024;

		err = index_new(&pg->frame_idx, cap);
		if (err)
			return err;
		pg->cap_frame_idx = cap;
		for (i = 0; i < pg->nframes; i++) {
			j = (size_t)frame_hash(&pg->frames[i]) & (cap - 1);
			while (pg->frame_idx[j] != NONE)
				j = (j + 1) & (cap - 1);
			pg->frame_idx[j] = (uint32_t)i;
		}
	}
	j = (size_t)frame_hash(f) & (pg->cap_frame_idx - 1);
	while (pg->frame_idx[j] != NONE) {
		if (!memcmp(&pg->frames[pg->frame_idx[j]], f, sizeof(*f))) {
			*out = pg->frame_idx[j];
			return 0;
		}
		j = (j + 1) & (pg->cap_frame_idx - 1);
	}
	err = grow((void **)&pg->frames, &pg->cap_frames, pg->nframes + 1, sizeof(*pg->frames));
	if (err)
		return err;
	pg->frames[pg->nframes] = *f;
	pg->frame_idx[j] = (uint32_t)pg->nframes;
	*out = (uint32_t)pg->nframes++;
	return 0;
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
	err = page_frame_of(pg, &pf, &pg->map[i]);
	*out = pg->map[i];
	return err;
}

static void page_release(struct page *pg)
{
	size_t i;

	for (i = 0; i < pg->nstrs; i++)
		free(pg->strs[i]);
	free(pg->strs);
	free(pg->str_idx);
	free(pg->frames);
	free(pg->frame_idx);
	free(pg->map);
}

/* @s as a JSON string that is also inert inside the page's <script> element. */
static void put_str(FILE *f, const char *s)
{
	json_write_string(f, s, strlen(s), true);
}

static void put_kstr(FILE *f, const char *key, const char *s, bool comma)
{
	fprintf(f, "%s\"%s\":", comma ? "," : "", key);
	if (s)
		put_str(f, s);
	else
		fputs("null", f);
}

static bool wanted(const struct profile *p, size_t ev, const struct profile_stack *s)
{
	return ev >= p->nevents || s->ev == ev;
}

static int write_data(const struct profile *p, size_t ev, FILE *f)
{
	const struct profile_meta *m = &p->meta;
	struct page pg = {0};
	uint32_t *comm = NULL, fi;
	size_t i, k, first = 0, nev;
	bool comma;
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
		for (k = 0; !err && k < s->nframes; k++)
			err = s->frames[k] < p->nframes ? page_frame(&pg, p, s->frames[k], &fi)
							: -EINVAL;
		if (err)
			goto out;
	}

	fputs("{\"version\":1,\"meta\":{", f);
	put_kstr(f, "input", m->input, false);
	put_kstr(f, "hostname", m->hostname, true);
	put_kstr(f, "os_release", m->os_release, true);
	put_kstr(f, "arch", m->arch, true);
	put_kstr(f, "cpu", m->cpu_desc, true);
	put_kstr(f, "perf_version", m->perf_version, true);
	put_kstr(f, "cmdline", m->cmdline, true);
	fprintf(f, ",\"nr_cpus\":%" PRIu32 ",\"lost\":%" PRIu64, m->nr_cpus, m->lost);
	if (m->time_first && m->time_last >= m->time_first)
		fprintf(f, ",\"duration_ns\":%" PRIu64, m->time_last - m->time_first);
	fputs("},\"events\":[", f);
	nev = p->nevents;
	if (ev < p->nevents) {
		first = ev;
		nev = ev + 1;
	}
	for (i = first; i < nev; i++) {
		fprintf(f, "%s{", i > first ? "," : "");
		put_kstr(f, "name", p->events[i].name, false);
		fprintf(f, ",\"samples\":%" PRIu64 ",\"period\":%" PRIu64 "}", p->events[i].samples,
			p->events[i].period);
	}
	fputs("],\n\"strings\":[", f);
	for (i = 0; i < pg.nstrs; i++) {
		if (i)
			fputc(',', f);
		put_str(f, pg.strs[i]);
	}
	fputs("],\n\"frames\":[", f);
	for (i = 0; i < pg.nframes; i++)
		fprintf(f, "%s%" PRIu32 ",%" PRIu32 ",%" PRIu32, i ? "," : "", pg.frames[i].name,
			pg.frames[i].dso, pg.frames[i].kind);
	fputs("],\n\"stacks\":[", f);
	comma = false;
	for (i = 0; i < p->nstacks; i++) {
		const struct profile_stack *s = &p->stacks[i];

		if (!wanted(p, ev, s))
			continue;
		fprintf(f, "%s\n[%zu,%" PRIu32 ",%" PRIu64 ",%" PRIu64, comma ? "," : "",
			ev < p->nevents ? 0 : (size_t)s->ev, comm[i], s->samples, s->period);
		/* The profile lists the leaf first; the page wants the root first. */
		for (k = s->nframes; k-- > 0;)
			fprintf(f, ",%" PRIu32, pg.map[s->frames[k]]);
		fputc(']', f);
		comma = true;
	}
	fputs("]}", f);
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

int profile_write_html(const struct profile *p, size_t ev, FILE *f)
{
	const unsigned char *t = page_html, *end = page_html + sizeof(page_html);
	const char *marker;
	int err = 0;

	while ((marker = put_until_marker(&t, end, f))) {
		if (!strncmp(marker, "PERFEV_DATA@", 12))
			err = write_data(p, ev, f);
		else if (!strncmp(marker, "PERFEV_SCRIPT@", 14))
			fwrite(page_js, 1, sizeof(page_js), f);
		if (err)
			return err;
	}
	if (fflush(f) || ferror(f))
		return -EIO;
	return 0;
}
