// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * POSIX ustar archives (IEEE Std 1003.1 "pax" format's ustar header),
 * optionally one zstd frame, for perfev archive: written as a stream to a
 * descriptor and read back for --archive.  Extraction never follows a
 * symbolic link: every directory on an entry's way is opened with
 * O_NOFOLLOW, so a link in the archive cannot send a later entry out of
 * the destination.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <zstd.h>
#include "archive-tar.h"

#define BLOCK 512

struct tar_writer {
	int fd;
	ZSTD_CStream *z;
	char out[1 << 16];
};

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Pass @len bytes on, through the compressor when there is one (@end: close its frame). */
static int emit(struct tar_writer *w, const void *buf, size_t len, bool end)
{
	ZSTD_inBuffer in = {buf, len, 0};
	size_t left;
	int err;

	if (!w->z)
		return write_all(w->fd, buf, len);
	do {
		ZSTD_outBuffer o = {w->out, sizeof(w->out), 0};

		left = ZSTD_compressStream2(w->z, &o, &in, end ? ZSTD_e_end : ZSTD_e_continue);
		if (ZSTD_isError(left))
			return -EIO;
		if (o.pos && (err = write_all(w->fd, w->out, o.pos)))
			return err;
	} while (end ? left != 0 : in.pos < in.size);
	return 0;
}

int tar_writer_new(int fd, bool zstd, struct tar_writer **out)
{
	struct tar_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return -ENOMEM;
	w->fd = fd;
	if (zstd) {
		w->z = ZSTD_createCStream();
		if (!w->z) {
			free(w);
			return -ENOMEM;
		}
		ZSTD_CCtx_setParameter(w->z, ZSTD_c_compressionLevel, 3);
	}
	*out = w;
	return 0;
}

void tar_writer_free(struct tar_writer *w)
{
	if (!w)
		return;
	ZSTD_freeCStream(w->z);
	free(w);
}

/* @v in octal, zero-filled to @width - 1 digits and a NUL (callers keep it in range). */
static void octal(char *field, size_t width, unsigned long long v)
{
	size_t i;

	field[width - 1] = '\0';
	for (i = width - 1; i-- > 0; v >>= 3)
		field[i] = (char)('0' + (v & 7));
}

/* A header for @name of @type ('0', '2', '5'); -ENAMETOOLONG when it cannot be said in ustar. */
static int header(struct tar_writer *w, const char *name, char type, uint64_t size, uint32_t mode,
		  const char *link)
{
	unsigned char h[BLOCK] = {0};
	size_t len = strlen(name), cut = 0, i;
	unsigned sum = 0;

	if (len > 100) {
		/* The name's head goes into prefix, split at a slash. */
		for (i = len - 1; i > 0; i--)
			if (name[i] == '/' && i <= 155 && len - i - 1 <= 100 && len - i - 1 > 0)
				break;
		if (!i)
			return -ENAMETOOLONG;
		cut = i;
		memcpy(h + 345, name, cut);
		name += cut + 1;
		len -= cut + 1;
	}
	if (link && strlen(link) > 100)
		return -ENAMETOOLONG;
	if (size >= 077777777777ULL)
		return -EFBIG;
	memcpy(h, name, len);
	octal((char *)h + 100, 8, mode);
	octal((char *)h + 108, 8, 0);
	octal((char *)h + 116, 8, 0);
	octal((char *)h + 124, 12, size);
	octal((char *)h + 136, 12, 0);
	h[156] = (unsigned char)type;
	if (link)
		memcpy(h + 157, link, strlen(link));
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memcpy(h + 265, "root", 4);
	memcpy(h + 297, "root", 4);
	memset(h + 148, ' ', 8);
	for (i = 0; i < BLOCK; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
	return emit(w, h, BLOCK, false);
}

static int pad(struct tar_writer *w, uint64_t size)
{
	static const char zero[BLOCK];

	return size % BLOCK ? emit(w, zero, BLOCK - size % BLOCK, false) : 0;
}

int tar_add_file(struct tar_writer *w, const char *name, int src_fd, uint32_t mode)
{
	char buf[1 << 16];
	struct stat st;
	uint64_t done = 0;
	int err;

	if (fstat(src_fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	err = header(w, name, '0', (uint64_t)st.st_size, mode, NULL);
	while (!err && done < (uint64_t)st.st_size) {
		uint64_t want = (uint64_t)st.st_size - done;
		ssize_t n =
		    pread(src_fd, buf, want < sizeof(buf) ? want : sizeof(buf), (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO; /* shrunk while read: the archive is broken */
		err = emit(w, buf, (size_t)n, false);
		done += (uint64_t)n;
	}
	return err ? err : pad(w, done);
}

int tar_add_bytes(struct tar_writer *w, const char *name, const void *data, size_t len)
{
	int err = header(w, name, '0', len, 0644, NULL);

	if (!err)
		err = emit(w, data, len, false);
	return err ? err : pad(w, len);
}

int tar_add_dir(struct tar_writer *w, const char *name)
{
	return header(w, name, '5', 0, 0755, NULL);
}

int tar_add_symlink(struct tar_writer *w, const char *name, const char *target)
{
	return header(w, name, '2', 0, 0777, target);
}

int tar_writer_finish(struct tar_writer *w)
{
	static const char zero[2 * BLOCK];
	int err = emit(w, zero, sizeof(zero), false);

	if (!err && w->z)
		err = emit(w, NULL, 0, true);
	tar_writer_free(w);
	return err;
}

/* ---- reading ---------------------------------------------------------------------- */

struct tar_reader {
	int fd;
	ZSTD_DStream *z; /* NULL: plain */
	char in[1 << 16];
	ZSTD_inBuffer ib;
	bool eof;
};

/* Exactly @len bytes of the archive, or -EBADMSG at its end. */
static int get(struct tar_reader *r, void *buf, size_t len)
{
	ZSTD_outBuffer o = {buf, len, 0};

	while (o.pos < o.size) {
		if (r->ib.pos == r->ib.size) {
			ssize_t n;

			if (r->eof)
				return -EBADMSG;
			n = read(r->fd, r->in, sizeof(r->in));
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				return -errno;
			if (!n)
				r->eof = true;
			r->ib = (ZSTD_inBuffer){r->in, (size_t)n, 0};
			continue;
		}
		if (!r->z) {
			size_t k = r->ib.size - r->ib.pos;

			if (k > o.size - o.pos)
				k = o.size - o.pos;
			memcpy((char *)o.dst + o.pos, (const char *)r->ib.src + r->ib.pos, k);
			o.pos += k;
			r->ib.pos += k;
		} else if (ZSTD_isError(ZSTD_decompressStream(r->z, &o, &r->ib))) {
			return -EBADMSG;
		}
	}
	return 0;
}

static unsigned long long parse_octal(const unsigned char *p, size_t n)
{
	unsigned long long v = 0;
	size_t i = 0;

	while (i < n && p[i] == ' ')
		i++;
	for (; i < n && p[i] >= '0' && p[i] <= '7'; i++)
		v = v * 8 + (p[i] - '0');
	return v;
}

/*
 * Whether @name is a relative path that stays in the tree, and (with
 * @link) so does @link seen from @name's directory.
 */
static bool inside(const char *name, const char *link)
{
	const char *p = name;
	int depth = 0;
	size_t n;

	if (!*name || *name == '/' || (link && (!*link || *link == '/')))
		return false;
	while (*p) {
		n = strcspn(p, "/");
		if (n == 2 && !strncmp(p, "..", 2))
			return false;
		if (n && !(n == 1 && *p == '.'))
			depth++;
		p += n + (p[n] == '/');
	}
	/* A link is seen from its directory, one step up from itself. */
	for (p = link, depth--; p && *p; p += n + (p[n] == '/')) {
		n = strcspn(p, "/");
		if (n == 2 && !strncmp(p, "..", 2))
			depth--;
		else if (n && !(n == 1 && *p == '.'))
			depth++;
		if (depth < 0)
			return false;
	}
	return true;
}

/* The directory holding @name, every step opened without following a link (made when missing). */
static int parent_of(int dir_fd, char *name, const char **base)
{
	char *slash, *p = name;
	int fd = dup(dir_fd), next;

	if (fd < 0)
		return -errno;
	while (fd >= 0 && (slash = strchr(p, '/'))) {
		*slash = '\0';
		if (*p && strcmp(p, ".")) {
			if (mkdirat(fd, p, 0755) && errno != EEXIST) {
				next = -errno;
			} else {
				next =
				    openat(fd, p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
				if (next < 0)
					next = -errno;
			}
			close(fd);
			fd = next;
		}
		*slash = '/';
		p = slash + 1;
	}
	*base = p;
	return fd;
}

static int copy_out(struct tar_reader *r, int fd, uint64_t size)
{
	char buf[1 << 16];
	int err = 0;

	while (size) {
		size_t k = size < sizeof(buf) ? (size_t)size : sizeof(buf);

		if ((err = get(r, buf, k)))
			return err;
		if (fd >= 0 && (err = write_all(fd, buf, k)))
			return err;
		size -= k;
	}
	return 0;
}

static int extract(struct tar_reader *r, int dir_fd)
{
	unsigned char h[BLOCK];
	char name[257 + 100], link[101];
	const char *base = NULL;
	uint64_t size;
	unsigned sum, want;
	int err, pfd, fd;
	size_t i;

	for (;;) {
		if ((err = get(r, h, BLOCK)))
			return err;
		for (i = 0; i < BLOCK && !h[i]; i++)
			;
		if (i == BLOCK)
			return 0; /* the end blocks */
		want = (unsigned)parse_octal(h + 148, 8);
		for (sum = 0, i = 0; i < BLOCK; i++)
			sum += i >= 148 && i < 156 ? ' ' : h[i];
		if (sum != want)
			return -EBADMSG;
		size = parse_octal(h + 124, 12);
		name[0] = '\0';
		if (h[345] && !memcmp(h + 257, "ustar", 5))
			snprintf(name, sizeof(name), "%.155s/", (const char *)h + 345);
		i = strlen(name);
		memcpy(name + i, h, 100);
		name[i + 100] = '\0';
		snprintf(link, sizeof(link), "%.100s", (const char *)h + 157);
		fd = -1;
		if (!inside(name, h[156] == '2' ? link : NULL) ||
		    (h[156] != '0' && h[156] != '\0' && h[156] != '5' && h[156] != '2')) {
			if ((err = copy_out(r, -1, size)))
				return err;
			goto next;
		}
		if (h[156] == '5')
			strncat(name, "/x", sizeof(name) - strlen(name) - 1);
		pfd = parent_of(dir_fd, name, &base);
		if (pfd < 0)
			return pfd;
		if (h[156] == '2') {
			unlinkat(pfd, base, 0);
			err = symlinkat(link, pfd, base) ? -errno : 0;
		} else if (h[156] != '5') {
			unlinkat(pfd, base, 0);
			fd = openat(pfd, base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				    0644);
			err = fd < 0 ? -errno : 0;
		}
		close(pfd);
		if (!err)
			err = copy_out(r, fd, size);
		if (fd >= 0)
			close(fd);
		if (err)
			return err;
	next:
		if (size % BLOCK && (err = copy_out(r, -1, BLOCK - size % BLOCK)))
			return err;
	}
}

int tar_extract(const char *path, int dir_fd)
{
	static const unsigned char zmagic[4] = {0x28, 0xb5, 0x2f, 0xfd};
	struct tar_reader *r = calloc(1, sizeof(*r));
	ssize_t n;
	int err;

	if (!r)
		return -ENOMEM;
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		err = -errno;
		free(r);
		return err;
	}
	n = read(r->fd, r->in, sizeof(r->in));
	if (n < 0) {
		err = -errno;
		goto out;
	}
	r->ib = (ZSTD_inBuffer){r->in, (size_t)n, 0};
	if (n >= 4 && !memcmp(r->in, zmagic, 4) && !(r->z = ZSTD_createDStream())) {
		err = -ENOMEM;
		goto out;
	}
	err = extract(r, dir_fd);
out:
	ZSTD_freeDStream(r->z);
	close(r->fd);
	free(r);
	return err;
}
