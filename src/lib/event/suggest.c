// SPDX-License-Identifier: LGPL-2.1-or-later
/* "Did you mean": nearest known names by edit distance. */
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include "common/internal.h"
#include "event/parse.h"

#define MAX_WORD 64

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/*
 * Optimal string alignment distance (Levenshtein plus adjacent
 * transposition), ignoring case, or any number above @max once it is
 * sure to exceed @max.  Words longer than MAX_WORD compare as far apart.
 */
static unsigned int distance_max(const char *a, size_t n, const char *b, size_t m, unsigned int max)
{
	unsigned int d[MAX_WORD + 1][MAX_WORD + 1];
	size_t i, j;

	if (n > MAX_WORD || m > MAX_WORD)
		return ~0U;
	/* Every edit changes the length by one at most. */
	if ((n > m ? n - m : m - n) > max)
		return max + 1;
	for (i = 0; i <= n; i++)
		d[i][0] = (unsigned int)i;
	for (j = 0; j <= m; j++)
		d[0][j] = (unsigned int)j;
	for (i = 1; i <= n; i++) {
		unsigned int row_min = d[i][0];

		for (j = 1; j <= m; j++) {
			unsigned int cost = lower(a[i - 1]) != lower(b[j - 1]);
			unsigned int v = d[i - 1][j] + 1;

			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < v)
				v = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
			    lower(a[i - 2]) == lower(b[j - 1]) && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
			if (v < row_min)
				row_min = v;
		}
		/*
		 * No row's least value is below the one above it (a
		 * transposition from two rows up costs no less than the
		 * substitution it passes through): once above @max, it stays.
		 */
		if (row_min > max)
			return max + 1;
	}
	return d[n][m];
}

unsigned int perfev__edit_distance(const char *a, size_t n, const char *b, size_t m)
{
	return distance_max(a, n, b, m, ~0U - 1);
}

void perfev__suggest_init(struct perfev__suggest *s, const char *word, size_t len)
{
	s->word = word;
	s->len = len;
	/* Only offer names that are plausibly typos of the word. */
	s->best = len <= 4 ? 1 : len <= 8 ? 2 : 3;
	s->out[0] = '\0';
	s->nout = 0;
}

void perfev__suggest_add(struct perfev__suggest *s, const char *cand)
{
	size_t cl = strlen(cand), pos;
	unsigned int d;

	if (!cl || (cl == s->len && !memcmp(cand, s->word, cl)))
		return;
	d = distance_max(s->word, s->len, cand, cl, s->best);
	if (d > s->best)
		return;
	if (d < s->best) {
		s->best = d;
		s->out[0] = '\0';
		s->nout = 0;
	} else if (s->nout >= 3) {
		return;
	} else {
		/* Skip duplicates ("cycles" is offered by several tables). */
		const char *p = s->out;

		while ((p = strstr(p, cand))) {
			if ((p == s->out || p[-1] == '\'') && p[cl] == '\'')
				return;
			p += cl;
		}
	}
	pos = strlen(s->out);
	perfev__bprintf(s->out, sizeof(s->out), &pos, "%s'%s'", s->nout ? "\x1f" : "", cand);
	s->nout++;
}

void perfev__suggest_hint(const struct perfev__suggest *s, char *buf, size_t len)
{
	size_t pos = 0, i = 0;
	const char *p = s->out;

	buf[0] = '\0';
	if (!s->nout)
		return;
	perfev__bprintf(buf, len, &pos, "did you mean ");
	while (*p) {
		const char *sep = strchr(p, '\x1f');
		size_t n = sep ? (size_t)(sep - p) : strlen(p);

		if (i)
			perfev__bprintf(buf, len, &pos, i + 1 == s->nout ? " or " : ", ");
		perfev__bprintf(buf, len, &pos, "%.*s", (int)n, p);
		i++;
		p += n;
		if (*p)
			p++;
	}
	perfev__bprintf(buf, len, &pos, "?");
}
