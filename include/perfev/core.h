/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libperfev basics: version, error convention, logging.
 *
 * Error convention: every fallible function returns an int, >= 0 on
 * success and a negative errno value on failure.  Objects are returned
 * through an out-parameter.  The library never prints, never exits and
 * never aborts on bad input; diagnostics go through the log callback and
 * through explicit out-structures.
 *
 * Thread safety: unless a function says otherwise, distinct objects may
 * be used from distinct threads; one object must not be used from two
 * threads at once.  perfev_set_log() may be called at any time.
 */
#ifndef PERFEV_CORE_H
#define PERFEV_CORE_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PERFEV_VERSION_MAJOR 0
#define PERFEV_VERSION_MINOR 1
#define PERFEV_VERSION_PATCH 0

#if defined(__GNUC__)
#define PERFEV_API __attribute__((visibility("default")))
#else
#define PERFEV_API
#endif

/* "0.1.0": the version of the library actually linked. */
PERFEV_API const char *perfev_version(void);

enum perfev_log_level {
	PERFEV_LOG_ERROR = 0,
	PERFEV_LOG_WARN = 1,
	PERFEV_LOG_INFO = 2,
	PERFEV_LOG_DEBUG = 3,
};

/*
 * Log callback.  @msg is one complete line without the trailing newline.
 * The callback may be invoked from any thread that calls into the library.
 */
typedef void (*perfev_log_fn)(enum perfev_log_level level, const char *msg, void *ctx);

/*
 * Install @fn (NULL: discard all messages, the default) receiving messages
 * up to and including @max_level.
 */
PERFEV_API void perfev_set_log(perfev_log_fn fn, enum perfev_log_level max_level, void *ctx);

/*
 * Text for an errno value as returned by this library (either sign).
 * Always returns a static string; unknown values yield "unknown error".
 */
PERFEV_API const char *perfev_strerror(int err);

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_CORE_H */
