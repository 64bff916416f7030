// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Placeholder for the DWARF unwinder (unwind.h): every unwind stops at
 * once with no frames, so that the machine links and its callers can be
 * built and tested until the libdwfl implementation replaces this file.
 */
#include <errno.h>
#include <stdlib.h>
#include "symbols/unwind.h"

struct perfev__unwinder {
	int unused;
};

int perfev__unwinder_new(struct perfev__unwinder **out)
{
	if (!out)
		return -EINVAL;
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void perfev__unwinder_free(struct perfev__unwinder *u)
{
	free(u);
}

void perfev__unwinder_forget(struct perfev__unwinder *u, const void *key)
{
	(void)u;
	(void)key;
}

int perfev__unwind(struct perfev__unwinder *u, const struct perfev__unwind_space *space,
		   uint32_t pid, uint32_t tid, const struct perfev__unwind_regs *regs,
		   const void *stack, size_t stack_size, uint64_t *ips, size_t max, size_t *n,
		   enum perfev__unwind_stop *stop)
{
	if (!u || !space || !regs || !n || !stop || (max && !ips))
		return -EINVAL;
	*n = 0;
	*stop = PERFEV__UNWIND_NO_REGS;
	return 0;
}

const char *perfev__unwind_stop_name(enum perfev__unwind_stop stop)
{
	static const char *const names[] = {
	    [PERFEV__UNWIND_END] = "end of the stack",
	    [PERFEV__UNWIND_NO_REGS] = "no user registers",
	    [PERFEV__UNWIND_NO_CFI] = "no cfi",
	    [PERFEV__UNWIND_SHORT] = "stack copy too short",
	    [PERFEV__UNWIND_UNMAPPED] = "pc in no map",
	    [PERFEV__UNWIND_MAX_DEPTH] = "max depth",
	    [PERFEV__UNWIND_ERROR] = "error",
	};

	return (unsigned int)stop < sizeof(names) / sizeof(names[0]) ? names[stop] : "unknown";
}
