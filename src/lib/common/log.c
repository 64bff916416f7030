// SPDX-License-Identifier: LGPL-2.1-or-later
/* Logging: the library's only channel for messages nobody asked for. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include "common/internal.h"

/* The callback, its context and level change together, under the lock. */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static perfev_log_fn log_fn;
static void *log_ctx;
static enum perfev_log_level log_max = PERFEV_LOG_WARN;

void perfev_set_log(perfev_log_fn fn, enum perfev_log_level max_level, void *ctx)
{
	pthread_mutex_lock(&log_lock);
	log_fn = fn;
	log_ctx = ctx;
	log_max = max_level;
	pthread_mutex_unlock(&log_lock);
}

void perfev__log(enum perfev_log_level level, const char *fmt, ...)
{
	enum perfev_log_level max;
	perfev_log_fn fn;
	char buf[512];
	void *ctx;
	va_list ap;

	pthread_mutex_lock(&log_lock);
	fn = log_fn;
	ctx = log_ctx;
	max = log_max;
	pthread_mutex_unlock(&log_lock);
	if (!fn || level > max)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fn(level, buf, ctx);
}

const char *perfev_version(void)
{
	return "0.1.0";
}
