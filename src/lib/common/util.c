// SPDX-License-Identifier: LGPL-2.1-or-later
/* Small helpers: arrays, strings, bounded file reads. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include "common/internal.h"

bool perfev__opts_ok(const void *opts, size_t sz, size_t known)
{
	const unsigned char *p = opts;
	size_t i;

	if (!opts)
		return true;
	if (sz < sizeof(size_t))
		return false;
	/* A newer caller may pass a bigger struct: its extra fields must be unset. */
	for (i = known; i < sz; i++)
		if (p[i])
			return false;
	return true;
}

int perfev__grow(void *arrp, size_t *cap, size_t need, size_t elsize)
{
	void **arr = arrp;
	size_t ncap = *cap ? *cap : 8, bytes;
	void *n;

	if (need <= *cap)
		return 0;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return -ENOMEM;
		ncap *= 2;
	}
	if (!perfev__mul_ok(ncap, elsize, &bytes))
		return -ENOMEM;
	n = realloc(*arr, bytes);
	if (!n)
		return -ENOMEM;
	*arr = n;
	*cap = ncap;
	return 0;
}

int perfev__append(void *arrp, size_t *n, size_t *cap, const void *src, size_t count, size_t elsize)
{
	char **arr = arrp;
	int ret;

	if (count > SIZE_MAX - *n)
		return -ENOMEM;
	ret = perfev__grow(arr, cap, *n + count, elsize);
	if (ret)
		return ret;
	if (count)
		memcpy(*arr + *n * elsize, src, count * elsize);
	*n += count;
	return 0;
}

#define ARENA_MIN_BLOCK 4096
#define ARENA_MAX_BLOCK (1 << 20)

void *perfev__arena_alloc(struct perfev__arena *a, size_t size, size_t align)
{
	size_t pad = (align - ((uintptr_t)a->cur & (align - 1))) & (align - 1), bs;
	void **slot;
	char *p;

	if (a->cur && pad <= a->left && size <= a->left - pad) {
		p = a->cur + pad;
		a->cur = p + size;
		a->left -= pad + size;
		return p;
	}
	/* malloc's blocks are aligned for any type: a new block needs no padding. */
	bs = a->next_size < ARENA_MIN_BLOCK ? ARENA_MIN_BLOCK : a->next_size;
	if (size > bs)
		bs = size;
	slot = perfev__array_push(&a->blocks);
	if (!slot)
		return NULL;
	p = calloc(1, bs);
	if (!p) {
		a->blocks.n--;
		return NULL;
	}
	*slot = p;
	if (a->next_size < ARENA_MAX_BLOCK)
		a->next_size =
		    a->next_size < ARENA_MIN_BLOCK ? 2 * ARENA_MIN_BLOCK : 2 * a->next_size;
	/* A piece larger than a block leaves the current block in use. */
	if (bs - size >= a->left) {
		a->cur = p + size;
		a->left = bs - size;
	}
	return p;
}

void perfev__arena_release(struct perfev__arena *a)
{
	size_t i;

	for (i = 0; i < a->blocks.n; i++)
		free(a->blocks.v[i]);
	perfev__array_release(&a->blocks);
	a->cur = NULL;
	a->left = a->next_size = 0;
}

char *perfev__strndup(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (!d)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

size_t perfev__trim(char *s)
{
	size_t len = strlen(s), start = 0;

	while (len && is_space(s[len - 1]))
		len--;
	while (start < len && is_space(s[start]))
		start++;
	memmove(s, s + start, len - start);
	s[len - start] = '\0';
	return len - start;
}

int perfev__path(char *buf, size_t len, const char *root, const char *fmt, ...)
{
	va_list ap;
	int n, m;

	n = snprintf(buf, len, "%s", root ? root : "");
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	va_start(ap, fmt);
	m = vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
	if (m < 0 || (size_t)m >= len - n)
		return -ENAMETOOLONG;
	return 0;
}

ssize_t perfev__read_fd(int fd, char **out, size_t max)
{
	size_t cap = 256, len = 0;
	char *buf, *n;
	ssize_t r;

	buf = malloc(cap + 1);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (len == cap) {
			if (cap >= max)
				break;
			cap = cap * 2 > max ? max : cap * 2;
			n = realloc(buf, cap + 1);
			if (!n) {
				free(buf);
				return -ENOMEM;
			}
			buf = n;
		}
		r = read(fd, buf + len, cap - len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			free(buf);
			return r;
		}
		if (r == 0)
			break;
		len += r;
	}
	buf[len] = '\0';
	*out = buf;
	return len;
}

ssize_t perfev__read_file(const char *path, char **out, size_t max)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = perfev__read_fd(fd, out, max);
	close(fd);
	return n;
}

int perfev__parse_u64(const char *s, size_t len, uint64_t *out)
{
	char tmp[64], *end;
	unsigned long long v;

	if (!len || len >= sizeof(tmp) || s[0] == '-' || s[0] == '+' || is_space(s[0]))
		return -EINVAL;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	errno = 0;
	v = strtoull(tmp, &end, 0);
	if (errno == ERANGE)
		return -ERANGE;
	if (end != tmp + len)
		return -EINVAL;
	*out = v;
	return 0;
}

int perfev__read_int(const char *path, long long *out)
{
	char *buf, *end;
	long long v;
	ssize_t n;

	n = perfev__read_file(path, &buf, 64);
	if (n < 0)
		return n;
	perfev__trim(buf);
	errno = 0;
	v = strtoll(buf, &end, 0);
	if (end == buf || *end || errno) {
		free(buf);
		return -EBADMSG;
	}
	free(buf);
	*out = v;
	return 0;
}

void perfev__bprintf(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!len || *pos >= len - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *pos, len - *pos, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	*pos += (size_t)n;
	if (*pos > len - 1)
		*pos = len - 1;
}

/* Owned by root or this user, and no one else may write to it (or it is sticky, as /tmp). */
static bool safe_dir(const struct stat *st)
{
	return S_ISDIR(st->st_mode) && (st->st_uid == 0 || st->st_uid == geteuid()) &&
	       (!(st->st_mode & (S_IWGRP | S_IWOTH)) || (st->st_mode & S_ISVTX));
}

/*
 * Directory @path (a prefix of the cache's path) checked, made first
 * when missing: only ever inside a directory already found safe.  A
 * link is followed only when root or this user made it (the kernel's
 * protected_symlinks rule).
 */
static int safe_component(const char *path, char *why, size_t len)
{
	struct stat st;

	if (!lstat(path, &st) && S_ISLNK(st.st_mode) && st.st_uid != 0 && st.st_uid != geteuid()) {
		snprintf(why, len, "'%s' is a link another user made", path);
		return -EPERM;
	}
	if (stat(path, &st)) {
		if (errno != ENOENT || (mkdir(path, 0700) && errno != EEXIST) || stat(path, &st))
			return -errno;
	}
	if (!safe_dir(&st)) {
		snprintf(why, len, "'%s' is %s", path,
			 !S_ISDIR(st.st_mode) ? "not a directory"
					      : "another user's, or others may write to it");
		return -EPERM;
	}
	return 0;
}

int perfev__private_dir(const char *dir, char *why, size_t len)
{
	char buf[4096], *p;
	struct stat st;
	size_t n;
	int fd, err;

	why[0] = '\0';
	if (!dir || dir[0] != '/')
		return -EINVAL;
	if (perfev__path(buf, sizeof(buf), NULL, "%s", dir))
		return -ENAMETOOLONG;
	for (n = strlen(buf); n > 1 && buf[n - 1] == '/'; n--)
		buf[n - 1] = '\0';
	/* From the root down, each directory checked before anything is made in it. */
	for (p = buf + 1; *p; p++) {
		if (*p != '/' || p[-1] == '/')
			continue;
		*p = '\0';
		err = safe_component(buf, why, len);
		if (err)
			return err;
		*p = '/';
	}
	/* The directory itself: this user's alone, and never a link. */
	if (!lstat(buf, &st) && S_ISLNK(st.st_mode)) {
		snprintf(why, len, "it is a symbolic link");
		return -ELOOP;
	}
	if (mkdir(buf, 0700) && errno != EEXIST)
		return -errno;
	fd = open(buf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ELOOP)
			snprintf(why, len, "it is a symbolic link");
		return -errno;
	}
	if (fstat(fd, &st) || st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
		snprintf(why, len, "it is another user's, or others may write to it");
		close(fd);
		return -EPERM;
	}
	return fd;
}

int perfev__subdir_at(int dirfd, const char *name)
{
	int fd;

	if (mkdirat(dirfd, name, 0700) && errno != EEXIST)
		return -errno;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int perfev__tmp_at(int dirfd, const char *name, char *tmp, size_t len)
{
	int fd;

	snprintf(tmp, len, "%s.%d.tmp", name, (int)getpid());
	/* A fresh file, never one someone left there or a link. */
	unlinkat(dirfd, tmp, 0);
	fd = openat(dirfd, tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	return fd < 0 ? -errno : fd;
}

int perfev__commit_at(int dirfd, int fd, const char *tmp, const char *name)
{
	int err = 0;

	if (fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && renameat(dirfd, tmp, dirfd, name))
		err = -errno;
	if (err)
		unlinkat(dirfd, tmp, 0);
	return err;
}

ssize_t perfev__read_at(int dirfd, const char *name, char **out, size_t max)
{
	ssize_t n;
	int fd;

	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = perfev__read_fd(fd, out, max);
	close(fd);
	return n;
}
