// SPDX-License-Identifier: LGPL-2.1-or-later
/* Logging: the library's only channel for messages nobody asked for. */
#include <stdarg.h>
#include <stdio.h>
#include "internal.h"

static perfev_log_fn log_fn;
static void *log_ctx;
static enum perfev_log_level log_max = PERFEV_LOG_WARN;

void perfev_set_log(perfev_log_fn fn, enum perfev_log_level max_level, void *ctx)
{
	log_fn = fn;
	log_ctx = ctx;
	log_max = max_level;
}

void perfev__log(enum perfev_log_level level, const char *fmt, ...)
{
	perfev_log_fn fn = log_fn;
	char buf[512];
	va_list ap;

	if (!fn || level > log_max)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fn(level, buf, log_ctx);
}

const char *perfev_version(void)
{
	return "0.1.0";
}
