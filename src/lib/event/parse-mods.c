// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Event modifiers (":ukp..."): which letters exist and the exclude_*
 * bits each implies, computed exactly as perf 6.x does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "event/parse-internal.h"

/* ---- modifiers ------------------------------------------------------------ */

const char perfev__valid_mods[] = "ukhGHIpPSDWebR";

/*
 * Scan modifier letters at p->pos.  perf refuses unknown letters, any
 * letter but 'p' twice, and strings longer than 15.
 */
int perfev__scan_mods(struct parser *p, struct mods *m)
{
	size_t i, j;

	m->off = p->pos;
	while (p->pos < p->len && is_alpha(p->s[p->pos]))
		p->pos++;
	m->len = p->pos - m->off;
	for (i = 0; i < m->len; i++) {
		char c = p->s[m->off + i];

		if (!strchr(perfev__valid_mods, c))
			return perfev__parse_fail(
			    p, -EINVAL, m->off + i, 1,
			    "modifiers: u k h (user, kernel, hypervisor), G H (guest, host), "
			    "I (not idle), p pp ppp P (precise), S D W e b R",
			    "unknown modifier '%c'", c);
		for (j = 0; j < i && c != 'p'; j++)
			if (p->s[m->off + j] == c)
				return perfev__parse_fail(p, -EINVAL, m->off + i, 1, NULL,
							  "modifier '%c' given twice", c);
	}
	if (m->len > MAX_MODS)
		return perfev__parse_fail(p, -EINVAL, m->off, m->len, NULL,
					  "too many modifiers (at most %d letters)", MAX_MODS);
	return 0;
}

/*
 * Apply modifiers the way perf 6.x does.  For an event's own modifiers
 * (@add false) the exclude state starts from zero, so ":k" clears the
 * default exclude_guest and ":S" does too; for group modifiers (@add
 * true) it starts from what the member already has.  The first of u/k/h
 * excludes everything and then re-includes the named levels; u and p
 * imply exclude_guest unless G or H were given.
 */
int perfev__apply_mods(struct parser *p, struct perfev__event *ev, const struct mods *m, bool add,
		       bool is_leader)
{
	struct perf_event_attr *a = &ev->a.attr;
	bool eu = 0, ek = 0, eh = 0, eH = 0, eG = 0, eI = 0, pinned = 0, exclusive = 0;
	bool exclude_gh = 0, exclude;
	unsigned int precise = 0, flags = 0;
	size_t i;

	if (add) {
		eu = a->exclude_user;
		ek = a->exclude_kernel;
		eh = a->exclude_hv;
		eH = a->exclude_host;
		eG = a->exclude_guest;
		eI = a->exclude_idle;
		precise = a->precise_ip;
		pinned = a->pinned;
		exclusive = a->exclusive;
		exclude_gh = ev->flags & PERFEV_EVF_GUEST_HOST_SET;
	}
	exclude = eu || ek || eh;

	for (i = 0; i < m->len; i++) {
		switch (p->s[m->off + i]) {
		case 'u':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			if (!exclude_gh)
				eG = 1;
			eu = 0;
			break;
		case 'k':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			ek = 0;
			break;
		case 'h':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			eh = 0;
			break;
		case 'G':
			if (!exclude_gh)
				exclude_gh = eG = eH = 1;
			eG = 0;
			break;
		case 'H':
			if (!exclude_gh)
				exclude_gh = eG = eH = 1;
			eH = 0;
			break;
		case 'I':
			eI = 1;
			break;
		case 'p':
			precise++;
			/* Precise sampling needs the host-only setting. */
			if (!exclude_gh)
				eG = 1;
			break;
		case 'P':
			flags |= PERFEV_EVF_PRECISE_MAX;
			break;
		case 'S':
			flags |= PERFEV_EVF_SAMPLE_READ;
			break;
		case 'D':
			pinned = 1;
			break;
		case 'e':
			exclusive = 1;
			break;
		case 'W':
			flags |= PERFEV_EVF_WEAK_GROUP;
			break;
		case 'b':
			flags |= PERFEV_EVF_BPF_COUNTER;
			break;
		case 'R':
			flags |= PERFEV_EVF_RETIRE_LAT;
			break;
		}
	}
	if (precise > 3)
		return perfev__parse_fail(p, -EINVAL, m->off, m->len,
					  "use at most 'ppp' (precise_ip is 0..3)",
					  "too many 'p' modifiers");

	a->exclude_user = eu;
	a->exclude_kernel = ek;
	a->exclude_hv = eh;
	a->exclude_host = eH;
	a->exclude_guest = eG;
	a->exclude_idle = eI;
	a->precise_ip = precise & 3;
	ev->flags |= flags;
	if (exclude_gh)
		ev->flags |= PERFEV_EVF_GUEST_HOST_SET;
	else
		ev->flags &= ~PERFEV_EVF_GUEST_HOST_SET;
	if (is_leader) {
		a->pinned = pinned;
		a->exclusive = exclusive;
	}
	return 0;
}
