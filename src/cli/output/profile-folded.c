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
#include "output/json.h"

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

/* perfev record --off-cpu's event: each sample's period is the nanoseconds a thread waited. */
static bool is_wait_event(const char *name)
{
	return !strcmp(name, "offcpu-time");
}

int profile_write_folded(const struct profile *p, size_t ev, FILE *f)
{
	size_t i;
	bool wait;

	ev = folded_event(p, ev);
	wait = ev < p->nevents && is_wait_event(p->events[ev].name);
	for (i = 0; i < p->nstacks; i++) {
		const struct profile_stack *s = &p->stacks[i];
		uint32_t k;

		if (s->ev != ev)
			continue;
		put_name(f, s->comm ? s->comm : "[unknown]");
		for (k = s->nframes; k-- > profile_stack_first(p, s);) {
			fputc(';', f);
			put_name(f, profile_frame_name(&p->frames[s->frames[k]]));
		}
		/* Off-CPU stacks weigh the time waited, in nanoseconds; the others their samples.
		 */
		fprintf(f, " %" PRIu64 "\n", wait ? s->period : s->samples);
	}
	return fflush(f) || ferror(f) ? -EIO : 0;
}

/* Periods of these events are nanoseconds. */
static bool is_time_event(const char *name)
{
	return !strncmp(name, "cpu-clock", 9) || !strncmp(name, "task-clock", 10) ||
	       is_wait_event(name);
}

int profile_write_speedscope(const struct profile *p, size_t ev, FILE *f)
{
	/* speedscope frames: the profile's frames, then one per command (the stacks' roots). */
	struct perfev__hashmap comms = {0}; /* a stack's comm -> its frame, past the profile's */
	struct perfev__hashmap_entry *ce;
	size_t i, e;
	uint64_t c;
	struct json w;

	json_init_flags(&w, f, JSON_LINES);
	json_obj_begin(&w);
	json_kstr(&w, "$schema", "https://www.speedscope.app/file-format-schema.json");
	json_kstr(&w, "exporter", "perfev " PERFEV_CLI_VERSION);
	json_kstr(&w, "name", p->meta.input ? p->meta.input : "perfev");
	json_ki64(&w, "activeProfileIndex", 0);
	json_key(&w, "shared");
	json_obj_begin(&w);
	json_key(&w, "frames");
	json_arr_begin(&w);
	for (i = 0; i < p->nframes; i++) {
		const struct profile_frame *fr = &p->frames[i];

		json_obj_begin(&w);
		json_kstr(&w, "name", profile_frame_name(fr));
		if (fr->file) {
			json_kstr(&w, "file", fr->file);
			if (fr->line)
				json_ku64(&w, "line", fr->line);
		} else {
			json_kstr(&w, "file", fr->dso);
		}
		json_obj_end(&w);
	}
	for (i = 0; i < p->nstacks; i++) {
		bool added;

		ce = perfev__hashmap_upsert(&comms, perfev__ptr_key(p->stacks[i].comm), &added);
		if (!ce)
			cli_die("out of memory");
		if (!added)
			continue;
		ce->value = p->nframes + perfev__hashmap_size(&comms) - 1;
		json_obj_begin(&w);
		json_kstr(&w, "name", p->stacks[i].comm ? p->stacks[i].comm : "[unknown]");
		json_obj_end(&w);
	}
	json_arr_end(&w);
	json_obj_end(&w);
	json_key(&w, "profiles");
	json_arr_begin(&w);
	for (e = 0; e < p->nevents; e++) {
		const char *name = p->events[e].name;
		uint64_t total = 0;

		if (ev < p->nevents && e != ev)
			continue;
		for (i = 0; i < p->nstacks; i++)
			if (p->stacks[i].ev == e)
				total += p->stacks[i].period;
		json_obj_begin(&w);
		json_kstr(&w, "type", "sampled");
		json_kstr(&w, "name", name);
		json_kstr(&w, "unit", is_time_event(name) ? "nanoseconds" : "none");
		json_ku64(&w, "startValue", 0);
		json_ku64(&w, "endValue", total);
		json_key(&w, "samples");
		json_arr_begin(&w);
		for (i = 0; i < p->nstacks; i++) {
			const struct profile_stack *s = &p->stacks[i];
			uint32_t k;

			if (s->ev != e)
				continue;
			perfev__hashmap_find(&comms, perfev__ptr_key(s->comm), &c);
			json_arr_begin(&w);
			json_u64(&w, c);
			for (k = s->nframes; k-- > profile_stack_first(p, s);)
				json_u64(&w, s->frames[k]);
			json_arr_end(&w);
		}
		json_arr_end(&w);
		json_key(&w, "weights");
		json_arr_begin(&w);
		for (i = 0; i < p->nstacks; i++)
			if (p->stacks[i].ev == e)
				json_u64(&w, p->stacks[i].period);
		json_arr_end(&w);
		json_obj_end(&w);
	}
	json_arr_end(&w);
	json_obj_end(&w);
	perfev__hashmap_release(&comms);
	return fflush(f) || ferror(f) ? -EIO : 0;
}
