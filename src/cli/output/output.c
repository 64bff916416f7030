// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The files perfev writes, all opened by one rule: never through a
 * symbolic link; a new file created exclusively, an existing one replaced
 * by a file written beside it and renamed into place; a character device
 * or a FIFO written in place; anything else refused.
 * Write errors name the file and where it lies: the filesystem's mount
 * point, type and device, or the device itself.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "options.h"
#include "output/output.h"
#include "perfev-cli.h"

/*
 * The outputs whose files are not complete yet: removed if perfev exits
 * or is stopped by a signal first (only by this process: a child forked
 * meanwhile inherits the list).
 */
static struct cli_output *pending;
static pid_t pending_pid;

static void remove_pending(void)
{
	struct cli_output *o;

	if (getpid() != pending_pid)
		return;
	for (o = pending; o; o = o->next)
		if (o->tmp || o->created)
			unlink(o->tmp ? o->tmp : o->path);
}

static void on_signal(int sig)
{
	remove_pending();
	signal(sig, SIG_DFL);
	raise(sig);
}

static const int stop_sigs[] = {SIGINT, SIGTERM, SIGHUP};

/*
 * The signals that remove pending files, held while the list changes and
 * while a file is completed, so that a complete file is never removed.
 */
static void hold_signals(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(stop_sigs) / sizeof(stop_sigs[0]); i++)
		sigaddset(&set, stop_sigs[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

static void release_signals(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

static void track(struct cli_output *o)
{
	struct sigaction old;
	sigset_t held;
	size_t i;

	if (!pending_pid) {
		pending_pid = getpid();
		atexit(remove_pending);
		/* Where a command handles a signal itself, it ends as it chooses. */
		for (i = 0; i < sizeof(stop_sigs) / sizeof(stop_sigs[0]); i++)
			if (!sigaction(stop_sigs[i], NULL, &old) && old.sa_handler == SIG_DFL)
				signal(stop_sigs[i], on_signal);
	}
	hold_signals(&held);
	o->next = pending;
	pending = o;
	release_signals(&held);
}

static void untrack(struct cli_output *o)
{
	struct cli_output **p;
	sigset_t held;

	hold_signals(&held);
	for (p = &pending; *p; p = &(*p)->next)
		if (*p == o) {
			*p = o->next;
			break;
		}
	o->next = NULL;
	release_signals(&held);
}

/* strerror(), lowercase as perfev's messages are. */
static const char *file_strerror(int err)
{
	static char buf[128];
	size_t i;

	snprintf(buf, sizeof(buf), "%s", strerror(err < 0 ? -err : err));
	for (i = 0; buf[i] && i < 1; i++)
		buf[i] = (char)tolower((unsigned char)buf[i]);
	return buf;
}

/* Undo mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

/*
 * "the filesystem at '/mnt' (ext4 on /dev/sdb1)" for the filesystem of
 * device @dev, from /proc/self/mountinfo (the last mount of it wins, as
 * later mounts cover earlier ones).  False when it is not found.
 */
static bool describe_fs(dev_t dev, char *buf, size_t len)
{
	char *line = NULL, mnt[4096], type[64], src[256], *sep;
	size_t cap = 0;
	bool found = false;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return false;
	while (getline(&line, &cap, f) > 0) {
		unsigned int major, minor;

		if (sscanf(line, "%*d %*d %u:%u %*s %4095s", &major, &minor, mnt) != 3 ||
		    makedev(major, minor) != dev || !(sep = strstr(line, " - ")) ||
		    sscanf(sep + 3, "%63s %255s", type, src) != 2)
			continue;
		unescape(mnt);
		unescape(src);
		if (src[0] == '/')
			snprintf(buf, len, "the filesystem at '%s' (%s on %s)", mnt, type, src);
		else
			snprintf(buf, len, "the filesystem at '%s' (%s)", mnt, type);
		found = true;
	}
	free(line);
	fclose(f);
	return found;
}

/* Where @o's bytes go: its file, or, before it exists, the directory it goes in. */
static int where(const struct cli_output *o, struct stat *st)
{
	const char *slash = strrchr(o->path, '/');
	char dir[4096];

	if (o->fd >= 0)
		return fstat(o->fd, st);
	if (!lstat(o->path, st) && (S_ISCHR(st->st_mode) || S_ISFIFO(st->st_mode)))
		return 0;
	if (!slash)
		return stat(".", st);
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash == o->path ? 1 : slash - o->path), o->path);
	return stat(dir, st);
}

/* "cannot write [the WHAT output ]'PATH': " and the rest. */
static void __attribute__((format(printf, 2, 3)))
say(const struct cli_output *o, const char *fmt, ...)
{
	char why[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	cli_error("cannot write %s%s%s'%s': %s", o->what ? "the " : "", o->what ? o->what : "",
		  o->what ? " output " : "", o->path, why);
}

void cli_output_fail(const struct cli_output *o, int err, const char *note)
{
	char disk[4500];
	const char *sep = note ? "; " : "", *kind;
	struct stat st = {0};
	bool fs = false, device = false;

	if (!note)
		note = "";
	if (err < 0)
		err = -err;
	if (!where(o, &st)) {
		device = S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode);
		fs = !device && describe_fs(st.st_dev, disk, sizeof(disk));
	}
	kind = S_ISFIFO(st.st_mode) ? "a FIFO" : "a character device";
	if (fs && err == ENOSPC)
		say(o, "no space left on %s: free space there or write elsewhere%s%s", disk, sep,
		    note);
	else if (fs && err == EDQUOT)
		say(o, "disk quota exceeded on %s: free space there or write elsewhere%s%s", disk,
		    sep, note);
	else if (fs && err == EIO)
		say(o, "input/output error on %s: the disk failed (see the kernel log)%s%s", disk,
		    sep, note);
	else if (fs && err == EFBIG)
		say(o, "file too large for %s%s%s", disk, sep, note);
	else if (fs && err == EROFS)
		say(o, "%s is read-only%s%s", disk, sep, note);
	else if (device && (err == ENOSPC || err == EIO || err == EFBIG))
		say(o, "%s (%s)%s%s", file_strerror(err), kind, sep, note);
	else
		say(o, "%s%s%s", file_strerror(err), sep, note);
}

/* Why @st cannot be written, said, or 0. */
static int refuse(const struct cli_output *o, const struct stat *st, unsigned int flags)
{
	char target[4096];
	ssize_t n;

	if (S_ISLNK(st->st_mode)) {
		n = readlink(o->path, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = '\0';
		say(o,
		    "it is a symbolic link%s%s%s, and perfev does not write through links: "
		    "name the file itself (or /dev/stdout, /dev/fd/N for a descriptor)",
		    n > 0 ? " to '" : "", target, n > 0 ? "'" : "");
		return -ELOOP;
	}
	if (S_ISBLK(st->st_mode) || S_ISDIR(st->st_mode) || S_ISSOCK(st->st_mode)) {
		say(o, "it is a %s, not a file: give a file name",
		    S_ISBLK(st->st_mode)   ? "block device"
		    : S_ISDIR(st->st_mode) ? "directory"
					   : "socket");
		return S_ISDIR(st->st_mode) ? -EISDIR : -EINVAL;
	}
	/* Replaced by renaming, but only by who may write to it. */
	if (S_ISREG(st->st_mode) && !(flags & CLI_OUT_KEEP_OLD) &&
	    faccessat(AT_FDCWD, o->path, W_OK, AT_EACCESS)) {
		say(o, "%s", file_strerror(errno));
		return -EACCES;
	}
	if (S_ISFIFO(st->st_mode) && (flags & CLI_OUT_SEEKABLE)) {
		say(o, "it is a FIFO, and this file is completed by rewriting its start: write to "
		       "standard output (-o -) and redirect that instead");
		return -ESPIPE;
	}
	return 0;
}

/*
 * The descriptor a name stands for: /dev/stdout, /dev/stderr, /dev/fd/N
 * and /proc/self/fd/N (bash's process substitution gives /dev/fd/N), or
 * -1.  These links are the kernel's or root's, never planted: perfev
 * writes to the descriptor itself instead of following them.
 */
static int descriptor_name(const char *path)
{
	static const char *const dirs[] = {"/dev/fd/", "/proc/self/fd/"};
	const char *end;
	unsigned long long n;
	size_t i;

	if (!strcmp(path, "/dev/stdout"))
		return STDOUT_FILENO;
	if (!strcmp(path, "/dev/stderr"))
		return STDERR_FILENO;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!strncmp(path, dirs[i], strlen(dirs[i])) &&
		    !opt_parse_unsigned(path + strlen(dirs[i]), INT_MAX, &n, &end) && !*end)
			return (int)n;
	return -1;
}

/* Write to descriptor @n, which a name such as /dev/stdout stands for. */
static int open_descriptor(struct cli_output *o, int n, unsigned int flags)
{
	struct stat st;
	int fd = fcntl(n, F_DUPFD_CLOEXEC, 3);

	if (fd < 0) {
		int err = errno == EBADF ? -EBADF : -errno;

		if (err == -EBADF)
			say(o, "descriptor %d is not open", n);
		else
			cli_output_fail(o, err, NULL);
		return err;
	}
	if (fstat(fd, &st)) {
		close(fd);
		return -errno;
	}
	/* As a path names them, but a socket is a stream too (a service's standard output). */
	if (!S_ISSOCK(st.st_mode)) {
		int err = refuse(o, &st, flags | CLI_OUT_KEEP_OLD);

		if (err) {
			close(fd);
			return err;
		}
	}
	o->fd = fd;
	return 0;
}

/*
 * Whether a file of @st at the path could be replaced by renaming a new
 * one onto it: not in a sticky directory (/tmp) where it is another
 * user's, unless the directory is this user's (or perfev runs as root).
 */
static bool may_replace(const struct cli_output *o, const struct stat *st)
{
	const char *slash = strrchr(o->path, '/');
	char dir[4096];
	struct stat ds;
	uid_t me = geteuid();

	if (!me || st->st_uid == me)
		return true;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash == o->path ? 1 : slash - o->path),
			 o->path);
	return stat(dir, &ds) || !(ds.st_mode & S_ISVTX) || ds.st_uid == me;
}

/* An existing file becomes PATH.old (a link would be moved, never followed). */
static int keep_old(const struct cli_output *o)
{
	char old[4096];
	int err;

	if (snprintf(old, sizeof(old), "%s.old", o->path) >= (int)sizeof(old))
		return 0;
	if (!rename(o->path, old))
		return 0;
	err = -errno;
	cli_error("cannot keep the previous '%s' as '%s': %s", o->path, old, file_strerror(err));
	return err;
}

static ssize_t cookie_write(void *cookie, const char *buf, size_t n)
{
	struct cli_output *o = cookie;
	size_t done = 0;
	ssize_t k;

	while (done < n) {
		k = write(o->fd, buf + done, n - done);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (!o->err)
				o->err = k < 0 ? -errno : -EIO;
			break;
		}
		done += (size_t)k;
	}
	return (ssize_t)done;
}

/* A new file beside the path, ".NAME.XXXXXX", @mode less the umask. */
static int create_beside(struct cli_output *o, mode_t mode)
{
	const char *slash = strrchr(o->path, '/'), *base = slash ? slash + 1 : o->path;
	mode_t mask = umask(0);
	int fd, err;

	umask(mask);
	if (!*base)
		return -EISDIR;
	if (asprintf(&o->tmp, "%.*s.%s.XXXXXX", (int)(base - o->path), o->path, base) < 0) {
		o->tmp = NULL;
		return -ENOMEM;
	}
	fd = mkostemp(o->tmp, O_CLOEXEC);
	/* A name near the longest allowed: a short temporary one. */
	if (fd < 0 && errno == ENAMETOOLONG) {
		free(o->tmp);
		if (asprintf(&o->tmp, "%.*s.perfev.XXXXXX", (int)(base - o->path), o->path) < 0) {
			o->tmp = NULL;
			return -ENOMEM;
		}
		fd = mkostemp(o->tmp, O_CLOEXEC);
	}
	if (fd < 0) {
		err = -errno;
		free(o->tmp);
		o->tmp = NULL;
		return err;
	}
	if (fchmod(fd, mode & ~mask)) {
		err = -errno;
		close(fd);
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
		return err;
	}
	o->fd = fd;
	track(o);
	return 0;
}

/*
 * A new file at the path itself: never one that appeared meanwhile, never
 * through a link.  Readable too, as mkostemp() makes them: record reads back
 * what reached the disk after a write error.
 */
static int create_new(struct cli_output *o, mode_t mode)
{
	int fd = open(o->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);

	if (fd < 0)
		return -errno;
	o->fd = fd;
	o->created = true;
	track(o);
	return 0;
}

/*
 * A device or a FIFO, or a file that cannot be replaced, written in place:
 * the very one lstat() saw, never a link; a file is emptied once it is
 * known to be that one, and readable too (record reads back what reached
 * a full disk).
 */
static int open_in_place(struct cli_output *o, const struct stat *seen)
{
	bool file = S_ISREG(seen->st_mode);
	struct stat st;
	int fd = open(o->path, (file ? O_RDWR : O_WRONLY) | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || st.st_dev != seen->st_dev || st.st_ino != seen->st_ino) {
		close(fd);
		return -EAGAIN;
	}
	if (file && ftruncate(fd, 0)) {
		int err = -errno;

		close(fd);
		return err;
	}
	o->fd = fd;
	return 0;
}

int cli_output_open(struct cli_output *o, const char *path, const char *what, mode_t mode,
		    unsigned int flags)
{
	cookie_io_functions_t io = {.write = cookie_write};
	bool moved = false;
	struct stat st;
	int err = 0, tries, n;

	memset(o, 0, sizeof(*o));
	o->path = path;
	o->what = what;
	o->fd = -1;
	if (!*path) {
		cli_output_fail(o, ENOENT, NULL);
		return -ENOENT;
	}
	n = descriptor_name(path);
	if (n >= 0) {
		err = open_descriptor(o, n, flags);
		if (err)
			return err;
		goto opened;
	}
	/* What lies at the path may change meanwhile: each open checks it again. */
	for (tries = 0; tries < 3; tries++) {
		if (lstat(path, &st)) {
			if (errno != ENOENT) {
				err = -errno;
				break;
			}
			/* Something made at the path since lstat(): look at it again. */
			err = create_new(o, mode);
			if (err == -EEXIST && !moved)
				continue;
			break;
		}
		err = refuse(o, &st, flags);
		if (err)
			return err;
		if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
			err = open_in_place(o, &st);
			if (err == -ELOOP || err == -EAGAIN)
				continue;
			break;
		}
		if ((flags & CLI_OUT_KEEP_OLD) && S_ISREG(st.st_mode) && st.st_size) {
			/* Once only: what appears at the path after it is never moved onto .old. */
			if (moved) {
				err = -EEXIST;
				break;
			}
			err = keep_old(o);
			if (err)
				return err;
			moved = true;
			err = create_new(o, mode);
			if (err == -EEXIST)
				continue;
			break;
		}
		/*
		 * Replaced by a new file renamed onto it; written in place where it
		 * cannot be (another user's in /tmp) or nothing can be made beside it.
		 */
		err = may_replace(o, &st) ? create_beside(o, mode) : -EPERM;
		if (err == -EACCES || err == -EPERM || err == -EROFS) {
			err = open_in_place(o, &st);
			if (err == -ELOOP || err == -EAGAIN)
				continue;
		}
		break;
	}
opened:
	if (!err && o->fd < 0)
		err = -EAGAIN;
	if (!err && (flags & CLI_OUT_STDIO) && !(o->f = fopencookie(o, "w", io)))
		err = -ENOMEM;
	if (err) {
		cli_output_fail(o, err,
				err == -EEXIST ? "something appeared at the path meanwhile" : NULL);
		cli_output_discard(o);
		return err;
	}
	return 0;
}

void cli_output_discard(struct cli_output *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->tmp || o->created) {
		unlink(o->tmp ? o->tmp : o->path);
		untrack(o);
		free(o->tmp);
		o->tmp = NULL;
		o->created = false;
	}
}

int cli_output_close(struct cli_output *o)
{
	char note[4200];
	sigset_t held;
	int err = 0;

	if (o->f && fflush(o->f) && !o->err)
		o->err = -EIO;
	if (o->err) {
		err = o->err;
		cli_output_fail(o, err, NULL);
		cli_output_discard(o);
		return err;
	}
	/* From here the file is complete: no signal removes it half-way to its place. */
	hold_signals(&held);
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	/* The old file stays whole until the new one is on the disk. */
	if (o->fd >= 0 && o->tmp && fsync(o->fd))
		err = -errno;
	if (o->fd >= 0 && close(o->fd) && !err)
		err = -errno;
	o->fd = -1;
	if (err) {
		cli_output_fail(o, err, NULL);
		cli_output_discard(o);
		release_signals(&held);
		return err;
	}
	if (o->tmp && rename(o->tmp, o->path)) {
		/* Complete, but not in its place: kept under its temporary name. */
		err = -errno;
		snprintf(note, sizeof(note), "the complete output is kept as '%s'", o->tmp);
		cli_output_fail(o, err, note);
	}
	if (o->tmp || o->created) {
		untrack(o);
		free(o->tmp);
		o->tmp = NULL;
		o->created = false;
	}
	release_signals(&held);
	return err;
}
