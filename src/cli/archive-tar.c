// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The archives of perfev archive, through libarchive (loaded on first use,
 * see archive-lib.h): written as pax (plain ustar headers unless a name
 * needs more), plain or in one zstd, bzip2 (perf archive's) or gzip stream;
 * read back, whatever the compression, for --archive.  Extraction is
 * libarchive's, refusing names that are absolute or climb out with ".."
 * and any entry on whose way lies a symbolic link, so a link in the
 * archive cannot send a later entry out of the destination.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "archive-lib.h"
#include "archive-tar.h"

struct tar_writer {
	const struct archive_lib *la;
	struct archive *a;
	struct archive_entry *e;
	time_t mtime; /* of every entry: when the archive was made */
};

/*
 * The error of @a as -errno: the system's when it failed on a file or
 * descriptor, -EBADMSG when the archive is not one or is cut short
 * (libarchive's own codes, outside <archive.h>: EILSEQ for the format,
 * EINVAL for a misuse, -1 for the rest).
 */
static int error_of(const struct archive_lib *la, struct archive *a)
{
	int e = la->errno_of(a);

	return e <= 0 || e == EILSEQ || e == EINVAL ? -EBADMSG : -e;
}

int tar_writer_new(int fd, enum tar_codec codec, struct tar_writer **out)
{
	const struct archive_lib *la = archive_lib();
	struct tar_writer *w;
	int rc;

	if (!la)
		return -errno;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->la = la;
	w->mtime = time(NULL);
	w->a = la->write_new();
	w->e = la->entry_new();
	if (!w->a || !w->e) {
		tar_writer_free(w);
		return -ENOMEM;
	}
	rc = codec == TAR_ZSTD	  ? la->write_add_filter_zstd(w->a)
	     : codec == TAR_BZIP2 ? la->write_add_filter_bzip2(w->a)
	     : codec == TAR_GZIP  ? la->write_add_filter_gzip(w->a)
				  : la->write_add_filter_none(w->a);
	if (rc == ARCHIVE_OK)
		rc = la->write_set_format_pax_restricted(w->a);
	if (rc == ARCHIVE_OK)
		rc = la->write_open_fd(w->a, fd);
	if (rc != ARCHIVE_OK) {
		rc = -(la->errno_of(w->a) > 0 ? la->errno_of(w->a) : ENOMEM);
		tar_writer_free(w);
		return rc;
	}
	*out = w;
	return 0;
}

void tar_writer_free(struct tar_writer *w)
{
	if (!w)
		return;
	if (w->a)
		w->la->write_free(w->a);
	if (w->e)
		w->la->entry_free(w->e);
	free(w);
}

/* The header of @name of @type (AE_IFREG, AE_IFDIR, AE_IFLNK). */
static int header(struct tar_writer *w, const char *name, unsigned type, uint64_t size,
		  uint32_t mode, const char *link)
{
	const struct archive_lib *la = w->la;
	struct archive_entry *e = la->entry_clear(w->e);

	la->entry_copy_pathname(e, name);
	la->entry_set_filetype(e, type);
	la->entry_set_perm(e, mode);
	la->entry_set_size(e, (la_int64_t)size);
	la->entry_set_mtime(e, w->mtime, 0);
	la->entry_copy_uname(e, "root");
	la->entry_copy_gname(e, "root");
	if (link)
		la->entry_copy_symlink(e, link);
	return la->write_header(w->a, e) == ARCHIVE_OK ? 0 : error_of(la, w->a);
}

static int data(struct tar_writer *w, const void *buf, size_t len)
{
	return w->la->write_data(w->a, buf, len) == (la_ssize_t)len ? 0 : error_of(w->la, w->a);
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
	err = header(w, name, AE_IFREG, (uint64_t)st.st_size, mode, NULL);
	while (!err && done < (uint64_t)st.st_size) {
		uint64_t want = (uint64_t)st.st_size - done;
		ssize_t n =
		    pread(src_fd, buf, want < sizeof(buf) ? want : sizeof(buf), (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO; /* shrunk while read: the archive is broken */
		err = data(w, buf, (size_t)n);
		done += (uint64_t)n;
	}
	return err;
}

int tar_add_bytes(struct tar_writer *w, const char *name, const void *buf, size_t len)
{
	int err = header(w, name, AE_IFREG, len, 0644, NULL);

	return err ? err : data(w, buf, len);
}

int tar_add_dir(struct tar_writer *w, const char *name)
{
	return header(w, name, AE_IFDIR, 0, 0755, NULL);
}

int tar_add_symlink(struct tar_writer *w, const char *name, const char *target)
{
	return header(w, name, AE_IFLNK, 0, 0777, target);
}

int tar_writer_finish(struct tar_writer *w)
{
	int err = w->la->write_close(w->a) == ARCHIVE_OK ? 0 : error_of(w->la, w->a);

	tar_writer_free(w);
	return err;
}

const char *tar_strerror(int err)
{
	return archive_lib_strerror(err);
}

/* ---- reading ---------------------------------------------------------------------- */

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

/* Whether entry @e is made: regular files, directories, and links that stay in the tree. */
static bool wanted(const struct archive_lib *la, struct archive_entry *e)
{
	unsigned type = la->entry_filetype(e);
	const char *name = la->entry_pathname(e);

	if (!name || la->entry_hardlink(e))
		return false;
	if (type == AE_IFLNK)
		return la->entry_symlink(e) && inside(name, la->entry_symlink(e));
	return type == AE_IFREG || type == AE_IFDIR;
}

/* Extract @r's entries into the current directory with @disk. */
static int extract(const struct archive_lib *la, struct archive *r, struct archive *disk)
{
	struct archive_entry *e;
	int rc;

	while ((rc = la->read_next_header(r, &e)) == ARCHIVE_OK || rc == ARCHIVE_WARN) {
		if (!wanted(la, e))
			continue; /* its data skipped by the next header's read */
		la->entry_set_perm(e, la->entry_filetype(e) == AE_IFDIR ? 0755 : 0644);
		/* ARCHIVE_FAILED: this entry refused (a name climbing out...), the rest go on. */
		if (la->read_extract2(r, e, disk) == ARCHIVE_FATAL)
			return la->errno_of(disk) > 0 ? -la->errno_of(disk) : error_of(la, r);
	}
	return rc == ARCHIVE_EOF ? 0 : error_of(la, r);
}

int tar_extract(const char *path, int dir_fd)
{
	const struct archive_lib *la = archive_lib();
	struct archive *r, *disk;
	int here, err;

	if (!la)
		return -errno;
	r = la->read_new();
	disk = la->write_disk_new();
	if (!r || !disk) {
		err = -ENOMEM;
		goto out;
	}
	la->read_support_filter_all(r);
	la->read_support_format_tar(r);
	la->write_disk_set_options(disk, ARCHIVE_EXTRACT_SECURE_SYMLINKS |
					     ARCHIVE_EXTRACT_SECURE_NODOTDOT |
					     ARCHIVE_EXTRACT_SECURE_NOABSOLUTEPATHS);
	/* Opened (and its compression told by its first bytes) before the directory changes. */
	if (la->read_open_filename(r, path, 1 << 16) != ARCHIVE_OK) {
		err = error_of(la, r);
		goto out;
	}
	/* archive_write_disk makes its names relative to the current directory. */
	here = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (here < 0 || fchdir(dir_fd)) {
		err = -errno;
		if (here >= 0)
			close(here);
		goto out;
	}
	err = extract(la, r, disk);
	/* Its deferred work (directories' modes) is done where the names are. */
	if (la->write_free(disk) != ARCHIVE_OK && !err)
		err = -EIO;
	disk = NULL;
	if (fchdir(here) && !err)
		err = -errno;
	close(here);
out:
	if (disk)
		la->write_free(disk);
	if (r)
		la->read_free(r);
	return err;
}
