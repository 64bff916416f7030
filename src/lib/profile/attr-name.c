// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A name for an event a recording does not name (no EVENT_DESC feature,
 * no name given to a live source), made from its attr as perf names it:
 * the generic event's name, a cache event's, "raw 0x...", "mem:ADDR:rwx",
 * with perf's modifier suffix (":u", ":k", ":ppp", ":H"...).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/event.h>
#include "common/internal.h"
#include "profile/source-internal.h"

/* perf's modifier suffix for a name made from the attr. */
static void add_modifiers(char *buf, size_t len, const struct perf_event_attr *a)
{
	bool colon = false, guest_default = false;
	size_t n = strlen(buf);
	int i;

#define MOD(cond, c)                                                                               \
	do {                                                                                       \
		if ((cond) && n + 3 < len) {                                                       \
			if (!colon)                                                                \
				buf[n++] = ':';                                                    \
			colon = true;                                                              \
			buf[n++] = (c);                                                            \
		}                                                                                  \
	} while (0)
	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		MOD(!a->exclude_kernel, 'k');
		MOD(!a->exclude_user, 'u');
		MOD(!a->exclude_hv, 'h');
		guest_default = true;
	}
	for (i = 0; i < (int)a->precise_ip; i++)
		MOD(1, 'p');
	if (a->exclude_host || a->exclude_guest == guest_default) {
		MOD(!a->exclude_host, 'H');
		MOD(!a->exclude_guest, 'G');
	}
#undef MOD
	buf[n] = '\0';
}

char *perfev__attr_name(const struct perf_event_attr *a)
{
	char buf[256];
	size_t i;

	snprintf(buf, sizeof(buf), "%u:%#llx", a->type, (unsigned long long)a->config);
	switch (a->type) {
	case PERF_TYPE_HARDWARE:
	case PERF_TYPE_SOFTWARE:
		for (i = 0; i < perfev_symbol_count(); i++) {
			const struct perfev_symbol *sym = perfev_symbol_get(i);

			if (sym->type == a->type && sym->config == a->config) {
				/* perf's names: "cycles" and "branches", not the aliases. */
				snprintf(buf, sizeof(buf), "%s",
					 a->type == PERF_TYPE_HARDWARE &&
						 (a->config == PERF_COUNT_HW_CPU_CYCLES ||
						  a->config == PERF_COUNT_HW_BRANCH_INSTRUCTIONS)
					     ? sym->alias
					     : sym->name);
				break;
			}
		}
		break;
	case PERF_TYPE_HW_CACHE: {
		char name[128];
		uint64_t config;

		for (i = 0; perfev_cache_event_get(i, name, sizeof(name), &config) >= 0; i++)
			if (config == a->config) {
				snprintf(buf, sizeof(buf), "%s", name);
				break;
			}
		break;
	}
	case PERF_TYPE_TRACEPOINT:
		snprintf(buf, sizeof(buf), "tracepoint:%llu", (unsigned long long)a->config);
		break;
	case PERF_TYPE_RAW:
		snprintf(buf, sizeof(buf), "raw 0x%llx", (unsigned long long)a->config);
		break;
	case PERF_TYPE_BREAKPOINT:
		snprintf(buf, sizeof(buf), "mem:0x%llx:%s%s%s", (unsigned long long)a->bp_addr,
			 a->bp_type & HW_BREAKPOINT_R ? "r" : "",
			 a->bp_type & HW_BREAKPOINT_W ? "w" : "",
			 a->bp_type & HW_BREAKPOINT_X ? "x" : "");
		break;
	default:
		break;
	}
	if (a->type != PERF_TYPE_TRACEPOINT)
		add_modifiers(buf, sizeof(buf), a);
	return strdup(buf);
}
