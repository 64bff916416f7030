// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Two text exports of a profile:
 *
 * collapsed stacks ("folded"), the input of flame graph tools: one line
 * per distinct stack, the command first, then the functions from the
 * outermost to the sampled one, joined by ';', then the sample count:
 *
 *     workload;_start;main;compute 1234
 *
 * speedscope's JSON file format: the frames once, then per event a
 * sampled profile whose samples are lists of frame indexes (outermost
 * first) with the samples' periods as weights.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "perfev-cli.h"
#include "profile.h"
#include "script.h"

/* With several events and none chosen, the collapsed stacks are those of the first. */
static size_t folded_event(const struct profile *p, size_t ev)
{
	return ev < p->nevents ? ev : 0;
}

/* Frame names may not hold the separators of the format. */
static void put_name(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == ';' ? ':' : *s == '\n' ? ' ' : *s, f);
}

int profile_write_folded(const struct profile *p, size_t ev, FILE *f)
{
	size_t i;

	ev = folded_event(p, ev);
	for (i = 0; i < p->nstacks; i++) {
		const struct profile_stack *s = &p->stacks[i];
		uint32_t k;

		if (s->ev != ev)
			continue;
		put_name(f, s->comm ? s->comm : "[unknown]");
		for (k = s->nframes; k-- > 0;) {
			fputc(';', f);
			put_name(f, profile_frame_name(&p->frames[s->frames[k]]));
		}
		fprintf(f, " %" PRIu64 "\n", s->samples);
	}
	return fflush(f) || ferror(f) ? -EIO : 0;
}

/* Periods of these events are nanoseconds. */
static bool is_time_event(const char *name)
{
	return !strncmp(name, "cpu-clock", 9) || !strncmp(name, "task-clock", 10);
}

int profile_write_speedscope(const struct profile *p, size_t ev, FILE *f)
{
	/* speedscope frames: the profile's frames, then one per command (the stacks' roots). */
	const char **comms = NULL;
	size_t ncomms = 0, i, e;
	struct jw w;

	jw_init(&w, f);
	jw_obj_begin(&w);
	jw_kstr(&w, "$schema", "https://www.speedscope.app/file-format-schema.json");
	jw_kstr(&w, "exporter", "perfev " PERFEV_CLI_VERSION);
	jw_kstr(&w, "name", p->meta.input ? p->meta.input : "perfev");
	jw_ki64(&w, "activeProfileIndex", 0);
	jw_key(&w, "shared");
	jw_obj_begin(&w);
	jw_key(&w, "frames");
	jw_arr_begin(&w);
	for (i = 0; i < p->nframes; i++) {
		const struct profile_frame *fr = &p->frames[i];

		jw_obj_begin(&w);
		jw_kstr(&w, "name", profile_frame_name(fr));
		if (fr->file) {
			jw_kstr(&w, "file", fr->file);
			if (fr->line)
				jw_ku64(&w, "line", fr->line);
		} else {
			jw_kstr(&w, "file", fr->dso);
		}
		jw_obj_end(&w);
	}
	for (i = 0; i < p->nstacks; i++) {
		size_t k;

		for (k = 0; k < ncomms && comms[k] != p->stacks[i].comm; k++)
			;
		if (k < ncomms)
			continue;
		comms = realloc(comms, (ncomms + 1) * sizeof(*comms));
		if (!comms)
			cli_die("out of memory");
		comms[ncomms++] = p->stacks[i].comm;
		jw_obj_begin(&w);
		jw_kstr(&w, "name", p->stacks[i].comm ? p->stacks[i].comm : "[unknown]");
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_obj_end(&w);
	jw_key(&w, "profiles");
	jw_arr_begin(&w);
	for (e = 0; e < p->nevents; e++) {
		const char *name = p->events[e].name;
		uint64_t total = 0;

		if (ev < p->nevents && e != ev)
			continue;
		for (i = 0; i < p->nstacks; i++)
			if (p->stacks[i].ev == e)
				total += p->stacks[i].period;
		jw_obj_begin(&w);
		jw_kstr(&w, "type", "sampled");
		jw_kstr(&w, "name", name);
		jw_kstr(&w, "unit", is_time_event(name) ? "nanoseconds" : "none");
		jw_ku64(&w, "startValue", 0);
		jw_ku64(&w, "endValue", total);
		jw_key(&w, "samples");
		jw_arr_begin(&w);
		for (i = 0; i < p->nstacks; i++) {
			const struct profile_stack *s = &p->stacks[i];
			size_t c;
			uint32_t k;

			if (s->ev != e)
				continue;
			for (c = 0; c < ncomms && comms[c] != s->comm; c++)
				;
			jw_arr_begin(&w);
			jw_u64(&w, p->nframes + c);
			for (k = s->nframes; k-- > 0;)
				jw_u64(&w, s->frames[k]);
			jw_arr_end(&w);
		}
		jw_arr_end(&w);
		jw_key(&w, "weights");
		jw_arr_begin(&w);
		for (i = 0; i < p->nstacks; i++)
			if (p->stacks[i].ev == e)
				jw_u64(&w, p->stacks[i].period);
		jw_arr_end(&w);
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_obj_end(&w);
	fputc('\n', f);
	free(comms);
	return fflush(f) || ferror(f) ? -EIO : 0;
}
