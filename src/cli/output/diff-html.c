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
#include <errno.h>
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

int diff_write_html(const struct diff *d, uint32_t base, uint32_t cur, FILE *f)
{
	const unsigned char *t = page_html, *end = page_html + sizeof(page_html);
	const char *marker;
	int err = 0;

	while ((marker = profile_html_marker(&t, end, f))) {
		if (!strncmp(marker, "PERFEV_BASE@", 12))
			err = profile_write_html_data(&d->prof, base, f);
		else if (!strncmp(marker, "PERFEV_NEW@", 11))
			err = profile_write_html_data(&d->prof, cur, f);
		else if (!strncmp(marker, "PERFEV_FILES@", 13))
			write_files(d, f);
		else if (!strncmp(marker, "PERFEV_SCRIPT@", 14))
			fwrite(page_js, 1, sizeof(page_js), f);
		if (err)
			return err;
	}
	if (fflush(f) || ferror(f))
		return -EIO;
	return 0;
}
