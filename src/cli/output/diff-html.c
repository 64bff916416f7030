// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev diff --html: one self-contained page with a differential flame
 * graph.  The page is diff-html.html and diff-html.js, turned into byte
 * arrays at build time; it embeds the two profiles as perfev report
 * --html embeds one (profile_write_html_data(): strings, frames, stacks
 * of one event), and its script merges their call trees: widths are the
 * new profile's, colours the change of each frame's share (red: more of
 * the samples than in the baseline, blue: fewer).
 */
#include <string.h>
#include "diff.h"
#include "output/json.h"

static const unsigned char page_html[] = {
#include "diff-html.html.inc"
};

static const unsigned char page_js[] = {
#include "diff-html.js.inc"
};

/* The names of the two files, as the page's title shows them. */
static void write_files(const struct diff *d, FILE *f)
{
	struct json j;

	json_init_flags(&j, f, JSON_COMPACT | JSON_SCRIPT_SAFE);
	json_obj_begin(&j);
	json_kstr(&j, "base", d->paths[0]);
	json_kstr(&j, "new", d->paths[1]);
	json_obj_end(&j);
}

struct diff_page {
	const struct diff *d;
	uint32_t base, cur;
};

static int fill_diff(const char *name, void *ctx, FILE *f)
{
	const struct diff_page *dp = ctx;

	if (!strncmp(name, "BASE@", 5))
		return profile_write_html_data(&dp->d->prof, dp->base, f);
	if (!strncmp(name, "NEW@", 4))
		return profile_write_html_data(&dp->d->prof, dp->cur, f);
	if (!strncmp(name, "FILES@", 6))
		write_files(dp->d, f);
	else if (!strncmp(name, "SCRIPT@", 7))
		fwrite(page_js, 1, sizeof(page_js), f);
	return 0;
}

int diff_write_html(const struct diff *d, uint32_t base, uint32_t cur, FILE *f)
{
	struct diff_page dp = {d, base, cur};

	return profile_html_fill(page_html, sizeof(page_html), fill_diff, &dp, f);
}
