/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Helpers shared by the library's objects.  Everything here is hidden
 * (perfev__ prefix, no PERFEV_API) and never part of the ABI.
 */
#ifndef PERFEV_INTERNAL_H
#define PERFEV_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <perfev/core.h>
#include "common/array.h"
#include "common/hashmap.h"

#define PERFEV__ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define PERFEV__PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define PERFEV__PRINTF(a, b)
#endif

/* log.c */
void perfev__log(enum perfev_log_level level, const char *fmt, ...) PERFEV__PRINTF(2, 3);
#define pr_warn(...)  perfev__log(PERFEV_LOG_WARN, __VA_ARGS__)
#define pr_info(...)  perfev__log(PERFEV_LOG_INFO, __VA_ARGS__)
#define pr_debug(...) perfev__log(PERFEV_LOG_DEBUG, __VA_ARGS__)

/*
 * Validate a caller's sized options struct: NULL is fine (defaults);
 * otherwise sz must cover the first member, and every byte the caller has
 * beyond what this library knows (@known) must be zero.
 */
bool perfev__opts_ok(const void *opts, size_t sz, size_t known);

/*
 * A field of a caller's sized options struct, or @def when @opts is NULL
 * or the caller's (older) struct ends before the field.
 */
#define PERFEV__OPT(opts, field, def)                                                              \
	((opts) && (opts)->sz >= offsetof(__typeof__(*(opts)), field) + sizeof((opts)->field)      \
	     ? (opts)->field                                                                       \
	     : (def))

/* Sized output struct: sz must at least cover @min bytes. */
static inline bool perfev__out_ok(const void *out, size_t sz, size_t min)
{
	return out && sz >= min;
}

/* Overflow-checked size arithmetic; returns false on overflow. */
static inline bool perfev__mul_ok(size_t a, size_t b, size_t *out)
{
	return !__builtin_mul_overflow(a, b, out);
}

char *perfev__strndup(const char *s, size_t n);
/* Trim ASCII whitespace at both ends in place; returns new length. */
size_t perfev__trim(char *s);

/* Join root and path ("/sys" + "/bus/...").  NULL root means "". */
int perfev__path(char *buf, size_t len, const char *root, const char *fmt, ...)
    PERFEV__PRINTF(4, 5);

/*
 * Read a whole (small) file into a fresh NUL-terminated buffer.
 * Returns the length or -errno.  @max bounds the size read.
 */
ssize_t perfev__read_file(const char *path, char **out, size_t max);
/* The same from an open descriptor, from where it stands (not closed). */
ssize_t perfev__read_fd(int fd, char **out, size_t max);
/*
 * A directory where files are kept between runs: @dir (absolute), opened.
 * From the root down, each directory is checked before anything is made
 * in it: it must belong to root or this user, no one else may write to
 * it (unless it is sticky, as /tmp), and a link is followed only when
 * root or this user made it; missing ones are made (0700).  @dir itself
 * must be this user's alone and not a symbolic link.  A descriptor, or
 * -errno: -EPERM or -ELOOP with @why saying which directory and why, so
 * nobody else can plant or redirect what is read or written there.
 */
int perfev__private_dir(const char *dir, char *why, size_t len);
/* The subdirectory @name of @dirfd, made (0700) when missing, opened (no symlink). */
int perfev__subdir_at(int dirfd, const char *name);
/* A fresh temporary NAME.PID.tmp in @dirfd (its name in @tmp), O_EXCL, no symlink: fd or -errno. */
int perfev__tmp_at(int dirfd, const char *name, char *tmp, size_t len);
/* Sync and close @fd, then rename @tmp to @name in @dirfd (removed on failure): 0 or -errno. */
int perfev__commit_at(int dirfd, int fd, const char *tmp, const char *name);
/* perfev__read_file() of @name in @dirfd, not through a symlink. */
ssize_t perfev__read_at(int dirfd, const char *name, char **out, size_t max);
/* Read a file holding one integer. */
int perfev__read_int(const char *path, long long *out);

/* Parse an unsigned number: decimal, 0x hex or 0 octal as strtoull(base 0). */
int perfev__parse_u64(const char *s, size_t len, uint64_t *out);

/* Bounded snprintf append: keeps *pos <= len-1 and NUL-terminates. */
void perfev__bprintf(char *buf, size_t len, size_t *pos, const char *fmt, ...) PERFEV__PRINTF(4, 5);

/* suggest.c: Damerau-Levenshtein distance, case-insensitive. */
unsigned int perfev__edit_distance(const char *a, size_t alen, const char *b, size_t blen);

struct perfev_pmus;
const char *perfev__pmus_root(const struct perfev_pmus *db);
/* attr.c: key of the attr field covering byte @offset, or NULL. */
const char *perfev__attr_field_at(unsigned int offset);

/*
 * sys.c: the attr size in this thread's last E2BIG, or 0: what the kernel
 * wrote back into attr.size, and in *@sent what the failing call passed.
 * The kernel writes its own size only when it refuses the size; the same
 * size back means the E2BIG had another cause (a group too big to read).
 */
unsigned int perfev__last_e2big_size(unsigned int *sent);

#endif /* PERFEV_INTERNAL_H */
