// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * POSIX ustar archives (IEEE Std 1003.1 "pax" format's ustar header),
 * plain or in one zstd, bzip2 (perf archive's) or gzip stream, for perfev archive: written as a
 * stream to a descriptor and read back for --archive.  Extraction never follows a symbolic link:
 * every directory on an entry's way is opened with O_NOFOLLOW, so a link in the archive cannot send
 * a later entry out of the destination.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bzlib.h>
#include <zlib.h>
#include <zstd.h>
#include "archive-tar.h"

#define BLOCK 512

struct tar_writer {
	int fd;
	time_t mtime; /* of every entry: when the archive was made */
	enum tar_codec codec;
	ZSTD_CStream *z;
	bz_stream bz;
	z_stream gz;
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

/* One step of the compressor: consumes from @in, fills w->out; *@done once a frame's end is out. */
static int squeeze(struct tar_writer *w, const char **in, size_t *len, bool end, size_t *made,
		   bool *done)
{
	if (w->codec == TAR_ZSTD) {
		ZSTD_inBuffer ib = {*in, *len, 0};
		ZSTD_outBuffer o = {w->out, sizeof(w->out), 0};
		size_t left =
		    ZSTD_compressStream2(w->z, &o, &ib, end ? ZSTD_e_end : ZSTD_e_continue);

		if (ZSTD_isError(left))
			return -EIO;
		*in += ib.pos;
		*len -= ib.pos;
		*made = o.pos;
		*done = left == 0;
	} else if (w->codec == TAR_BZIP2) {
		int rc;

		w->bz.next_in = (char *)*in;
		w->bz.avail_in = (unsigned)*len;
		w->bz.next_out = w->out;
		w->bz.avail_out = sizeof(w->out);
		rc = BZ2_bzCompress(&w->bz, end ? BZ_FINISH : BZ_RUN);
		if (rc < 0)
			return -EIO;
		*in = w->bz.next_in;
		*len = w->bz.avail_in;
		*made = sizeof(w->out) - w->bz.avail_out;
		*done = rc == BZ_STREAM_END;
	} else {
		int rc;

		w->gz.next_in = (Bytef *)*in;
		w->gz.avail_in = (uInt)*len;
		w->gz.next_out = (Bytef *)w->out;
		w->gz.avail_out = sizeof(w->out);
		rc = deflate(&w->gz, end ? Z_FINISH : Z_NO_FLUSH);
		if (rc == Z_STREAM_ERROR)
			return -EIO;
		*in = (const char *)w->gz.next_in;
		*len = w->gz.avail_in;
		*made = sizeof(w->out) - w->gz.avail_out;
		*done = rc == Z_STREAM_END;
	}
	return 0;
}

/* Pass @len bytes on, through the compressor when there is one (@end: close its stream). */
static int emit(struct tar_writer *w, const void *buf, size_t len, bool end)
{
	const char *in = buf;
	size_t made;
	bool done = false;
	int err;

	if (w->codec == TAR_PLAIN)
		return write_all(w->fd, buf, len);
	while (end ? !done : len > 0) {
		if ((err = squeeze(w, &in, &len, end, &made, &done)))
			return err;
		if (made && (err = write_all(w->fd, w->out, made)))
			return err;
	}
	return 0;
}

int tar_writer_new(int fd, enum tar_codec codec, struct tar_writer **out)
{
	struct tar_writer *w = calloc(1, sizeof(*w));
	int ok = 1;

	if (!w)
		return -ENOMEM;
	w->fd = fd;
	w->codec = codec;
	w->mtime = time(NULL);
	if (codec == TAR_ZSTD) {
		w->z = ZSTD_createCStream();
		ok =
		    w->z && !ZSTD_isError(ZSTD_CCtx_setParameter(w->z, ZSTD_c_compressionLevel, 3));
	} else if (codec == TAR_BZIP2) {
		ok = BZ2_bzCompressInit(&w->bz, 9, 0, 0) == BZ_OK;
	} else if (codec == TAR_GZIP) {
		ok = deflateInit2(&w->gz, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK;
	}
	if (!ok) {
		ZSTD_freeCStream(w->z);
		free(w);
		return -ENOMEM;
	}
	*out = w;
	return 0;
}

void tar_writer_free(struct tar_writer *w)
{
	if (!w)
		return;
	if (w->codec == TAR_ZSTD)
		ZSTD_freeCStream(w->z);
	else if (w->codec == TAR_BZIP2)
		BZ2_bzCompressEnd(&w->bz);
	else if (w->codec == TAR_GZIP)
		deflateEnd(&w->gz);
	free(w);
}

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
	octal((char *)h + 136, 12, (unsigned long long)w->mtime);
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

	if (!err && w->codec != TAR_PLAIN)
		err = emit(w, NULL, 0, true);
	tar_writer_free(w);
	return err;
}

/* ---- reading ---------------------------------------------------------------------- */

struct tar_reader {
	int fd;
	enum tar_codec codec;
	ZSTD_DStream *z;
	bz_stream bz;
	z_stream gz;
	char in[1 << 16];
	size_t pos, len; /* unread bytes of @in */
	bool eof, ended; /* the file's end; (bzip2, gzip) the stream's */
};

/* Up to @len bytes of the archive (at least one unless at its end) into @buf: their count. */
static int pull(struct tar_reader *r, char *buf, size_t len, size_t *got)
{
	size_t avail = r->len - r->pos;

	*got = 0;
	if (r->codec == TAR_PLAIN) {
		*got = avail < len ? avail : len;
		memcpy(buf, r->in + r->pos, *got);
		r->pos += *got;
	} else if (r->codec == TAR_ZSTD) {
		ZSTD_inBuffer ib = {r->in, r->len, r->pos};
		ZSTD_outBuffer o = {buf, len, 0};

		if (ZSTD_isError(ZSTD_decompressStream(r->z, &o, &ib)))
			return -EBADMSG;
		r->pos = ib.pos;
		*got = o.pos;
	} else if (r->codec == TAR_BZIP2 && !r->ended) {
		int rc;

		r->bz.next_in = r->in + r->pos;
		r->bz.avail_in = (unsigned)avail;
		r->bz.next_out = buf;
		r->bz.avail_out = (unsigned)len;
		rc = BZ2_bzDecompress(&r->bz);
		if (rc != BZ_OK && rc != BZ_STREAM_END)
			return -EBADMSG;
		r->ended = rc == BZ_STREAM_END;
		r->pos = r->len - r->bz.avail_in;
		*got = len - r->bz.avail_out;
	} else if (r->codec == TAR_GZIP && !r->ended) {
		int rc;

		r->gz.next_in = (Bytef *)r->in + r->pos;
		r->gz.avail_in = (uInt)avail;
		r->gz.next_out = (Bytef *)buf;
		r->gz.avail_out = (uInt)len;
		rc = inflate(&r->gz, Z_NO_FLUSH);
		if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
			return -EBADMSG;
		r->ended = rc == Z_STREAM_END;
		r->pos = r->len - r->gz.avail_in;
		*got = len - r->gz.avail_out;
	}
	return 0;
}

/* Exactly @len bytes of the archive, or -EBADMSG at its end. */
static int get(struct tar_reader *r, void *buf, size_t len)
{
	size_t done = 0, got;
	int err;

	while (done < len) {
		size_t was = r->pos;

		if ((err = pull(r, (char *)buf + done, len - done, &got)))
			return err;
		done += got;
		if (got || done == len)
			continue;
		if (r->pos < r->len && !r->ended) {
			if (r->pos == was)
				return -EBADMSG; /* neither input taken nor output made */
			continue;
		}
		if (r->eof || r->ended)
			return -EBADMSG;
		{
			ssize_t n = read(r->fd, r->in, sizeof(r->in));

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				return -errno;
			r->eof = !n;
			r->pos = 0;
			r->len = (size_t)n;
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

/*
 * The data of a GNU long name or link entry ('L', 'K': GNU tar's for
 * names past ustar's fields) into @buf, or "" when too long to keep.
 */
static int long_name(struct tar_reader *r, uint64_t size, char *buf, size_t len)
{
	int err;

	if (size >= len) {
		buf[0] = '\0';
		return copy_out(r, -1, size);
	}
	if ((err = get(r, buf, (size_t)size)))
		return err;
	buf[size] = '\0';
	return 0;
}

/* Make entry @name of @type ('0', '2', '5') with @size bytes of data (a link to @link). */
static int make_entry(struct tar_reader *r, int dir_fd, char *name, char type, uint64_t size,
		      const char *link)
{
	const char *base = NULL;
	int err = 0, pfd, fd = -1;

	pfd = parent_of(dir_fd, name, &base);
	if (pfd < 0)
		return pfd;
	if (type == '2') {
		unlinkat(pfd, base, 0);
		err = symlinkat(link, pfd, base) ? -errno : 0;
	} else if (type != '5') {
		unlinkat(pfd, base, 0);
		fd = openat(pfd, base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		err = fd < 0 ? -errno : 0;
	}
	close(pfd);
	if (!err)
		err = copy_out(r, fd, size);
	if (fd >= 0)
		close(fd);
	return err;
}

static int extract(struct tar_reader *r, int dir_fd)
{
	char name[4096 + 4], link[4096], lname[4096] = "", llink[4096] = "";
	unsigned char h[BLOCK];
	unsigned sum, want;
	uint64_t size;
	char type;
	size_t i;
	int err;

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
		type = (char)(h[156] ? h[156] : '0');
		if (type == 'L' || type == 'K') {
			err = long_name(r, size, type == 'L' ? lname : llink,
					type == 'L' ? sizeof(lname) : sizeof(llink));
		} else {
			name[0] = '\0';
			/* POSIX ustar's prefix (GNU tar's "ustar  " header keeps times there). */
			if (h[345] && !memcmp(h + 257, "ustar\0", 6))
				snprintf(name, sizeof(name), "%.155s/", (const char *)h + 345);
			i = strlen(name);
			memcpy(name + i, h, 100);
			name[i + 100] = '\0';
			if (lname[0])
				snprintf(name, sizeof(name), "%s", lname);
			snprintf(link, sizeof(link), "%.100s", (const char *)h + 157);
			if (llink[0])
				snprintf(link, sizeof(link), "%s", llink);
			lname[0] = llink[0] = '\0';
			if ((type == '0' || type == '5' || type == '2') &&
			    inside(name, type == '2' ? link : NULL)) {
				if (type == '5')
					strcat(name, "/x");
				err = make_entry(r, dir_fd, name, type, size, link);
			} else {
				err = copy_out(r, -1, size);
			}
		}
		if (err)
			return err;
		if (size % BLOCK && (err = copy_out(r, -1, BLOCK - size % BLOCK)))
			return err;
	}
}

int tar_extract(const char *path, int dir_fd)
{
	static const unsigned char zmagic[4] = {0x28, 0xb5, 0x2f, 0xfd};
	struct tar_reader *r = calloc(1, sizeof(*r));
	ssize_t n;
	int err, ok = 1;

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
	r->len = (size_t)n;
	/* Told apart by their magic numbers: zstd's frame, bzip2's "BZh", gzip's 1f 8b. */
	if (n >= 4 && !memcmp(r->in, zmagic, 4)) {
		r->codec = TAR_ZSTD;
		ok = (r->z = ZSTD_createDStream()) != NULL;
	} else if (n >= 3 && !memcmp(r->in, "BZh", 3)) {
		r->codec = TAR_BZIP2;
		ok = BZ2_bzDecompressInit(&r->bz, 0, 0) == BZ_OK;
	} else if (n >= 2 && (unsigned char)r->in[0] == 0x1f && (unsigned char)r->in[1] == 0x8b) {
		r->codec = TAR_GZIP;
		ok = inflateInit2(&r->gz, 15 + 16) == Z_OK;
	}
	if (!ok) {
		r->codec = TAR_PLAIN;
		err = -ENOMEM;
		goto out;
	}
	err = extract(r, dir_fd);
out:
	if (r->codec == TAR_ZSTD)
		ZSTD_freeDStream(r->z);
	else if (r->codec == TAR_BZIP2)
		BZ2_bzDecompressEnd(&r->bz);
	else if (r->codec == TAR_GZIP)
		inflateEnd(&r->gz);
	close(r->fd);
	free(r);
	return err;
}
