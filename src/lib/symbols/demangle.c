// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Demangling of C++ (Itanium ABI) and Rust (legacy and v0) names through
 * libiberty's cplus_demangle(), the demangler of the GNU toolchain.  As
 * perf, without parameters unless asked (perf report -v shows them) and
 * without Rust's legacy hash suffix.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <libiberty/demangle.h>
#include <perfev/symbols.h>
#include "common/internal.h"
#include "symbols/symtab.h"

char *perfev__demangle(const char *name, bool params)
{
	/* Every C++ and Rust mangled name starts with an underscore ("_Z", "_R"). */
	if (!name || name[0] != '_')
		return NULL;
	return cplus_demangle(name, params ? DMGL_PARAMS | DMGL_ANSI | DMGL_AUTO : DMGL_AUTO);
}

int perfev_demangle(const char *name, unsigned int flags, char *buf, size_t len)
{
	char *d;
	size_t n;

	if (!name || (!buf && len) || (flags & ~PERFEV_DEMANGLE_PARAMS))
		return -EINVAL;
	d = perfev__demangle(name, flags & PERFEV_DEMANGLE_PARAMS);
	if (!d)
		return -EBADMSG;
	n = strlen(d);
	if (n > INT32_MAX) {
		free(d);
		return -EOVERFLOW;
	}
	if (len) {
		size_t k = n < len - 1 ? n : len - 1;

		memcpy(buf, d, k);
		buf[k] = '\0';
	}
	free(d);
	return (int)n;
}
