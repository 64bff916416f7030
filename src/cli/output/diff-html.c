// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev diff --html: the report page (profile-html.c) of the baseline's
 * event and the new file's, with a "diff" object in its data that turns
 * on the page's diff mode: the flame graph of the new profile, each
 * frame coloured by the change of its share since the baseline, and the
 * top functions with their baseline share, new share and change.
 */
#include "diff.h"
#include "output/json.h"

struct diff_page {
	const struct diff *d;
};

/* The page's events 0 and 1 (the baseline, the new file) and the files' names. */
static void write_diff(struct json *j, void *ctx)
{
	const struct diff_page *dp = ctx;

	json_key(j, "diff");
	json_obj_begin(j);
	json_ku64(j, "base", 0);
	json_ku64(j, "new", 1);
	json_kstr(j, "base_file", dp->d->paths[0]);
	json_kstr(j, "new_file", dp->d->paths[1]);
	json_obj_end(j);
}

int diff_write_html(const struct diff *d, uint32_t base, uint32_t cur, FILE *f)
{
	struct diff_page dp = {d};
	struct profile_html_more more = {write_diff, &dp};
	uint32_t evs[2] = {base, cur};

	return profile_write_html_events(&d->prof, evs, 2, &more, f);
}
