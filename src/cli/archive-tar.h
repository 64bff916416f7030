/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The archives of perfev archive: tar (pax, ustar headers where they
 * suffice), plain or compressed by zstd, bzip2 (perf archive's .tar.bz2)
 * or gzip, written and read through libarchive, loaded on first use.
 * Only what a build-id cache holds: regular files, directories and
 * symbolic links.  Every function may fail with -ELIBACC (libarchive not
 * installed) or -ELIBBAD (not a usable one): tar_strerror() says what
 * to install.
 */
#ifndef PERFEV_CLI_ARCHIVE_TAR_H
#define PERFEV_CLI_ARCHIVE_TAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tar_writer;

enum tar_codec { TAR_PLAIN, TAR_ZSTD, TAR_BZIP2, TAR_GZIP };

/* A writer on @fd (not closed), its bytes compressed by @codec.  -ENOMEM. */
int tar_writer_new(int fd, enum tar_codec codec, struct tar_writer **out);
/* A regular file @name (relative) with the contents of the file open on @src_fd. */
int tar_add_file(struct tar_writer *w, const char *name, int src_fd, uint32_t mode);
/* A regular file @name holding @len bytes at @data. */
int tar_add_bytes(struct tar_writer *w, const char *name, const void *data, size_t len);
/* A directory @name. */
int tar_add_dir(struct tar_writer *w, const char *name);
/* A symbolic link @name to @target. */
int tar_add_symlink(struct tar_writer *w, const char *name, const char *target);
/* The end-of-archive blocks and the compressed stream's end; frees @w.  -errno of write(2). */
int tar_writer_finish(struct tar_writer *w);
/* Free @w without finishing (NULL is fine). */
void tar_writer_free(struct tar_writer *w);

/*
 * Extract the archive in file @path (tar, plain or compressed by any
 * codec libarchive reads, told apart by its first bytes) under the
 * directory open on @dir_fd (the current directory changes meanwhile:
 * not for threaded callers).  Names that are absolute or climb out with
 * "..", entries on whose way lies a symbolic link, links pointing out of
 * the tree, and entries of other types are skipped.  Errors: -errno of
 * the I/O, -EBADMSG (not an archive, cut short), -ENOMEM.
 */
int tar_extract(const char *path, int dir_fd);

/* What -@err of these functions says, in words (for libarchive's absence, what to install). */
const char *tar_strerror(int err);

#endif /* PERFEV_CLI_ARCHIVE_TAR_H */
