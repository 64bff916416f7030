/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef PERFEV_CLI_ARCHIVE_LIB_H
#define PERFEV_CLI_ARCHIVE_LIB_H

#include <archive.h>
#include <archive_entry.h>

/*
 * libarchive's functions, from the shared library loaded on first use.
 * Linked, it and the libraries it needs (libxml2, icu, nettle, acl, lzma,
 * lz4...) would be loaded at every start of perfev; loaded here, only
 * perfev archive and --archive pay, once.
 */
struct archive_lib {
	const char *(*error_string)(struct archive *a);
	int (*errno_of)(struct archive *a);
	int (*write_free)(struct archive *a);
	/* Writing. */
	struct archive *(*write_new)(void);
	int (*write_add_filter_zstd)(struct archive *a);
	int (*write_add_filter_bzip2)(struct archive *a);
	int (*write_add_filter_gzip)(struct archive *a);
	int (*write_add_filter_none)(struct archive *a);
	int (*write_set_format_pax_restricted)(struct archive *a);
	int (*write_open_fd)(struct archive *a, int fd);
	int (*write_header)(struct archive *a, struct archive_entry *e);
	la_ssize_t (*write_data)(struct archive *a, const void *buf, size_t len);
	int (*write_close)(struct archive *a);
	/* Entries. */
	struct archive_entry *(*entry_new)(void);
	struct archive_entry *(*entry_clear)(struct archive_entry *e);
	void (*entry_free)(struct archive_entry *e);
	void (*entry_copy_pathname)(struct archive_entry *e, const char *name);
	void (*entry_copy_symlink)(struct archive_entry *e, const char *target);
	void (*entry_copy_uname)(struct archive_entry *e, const char *name);
	void (*entry_copy_gname)(struct archive_entry *e, const char *name);
	void (*entry_set_filetype)(struct archive_entry *e, unsigned int type);
	void (*entry_set_perm)(struct archive_entry *e, __LA_MODE_T mode);
	void (*entry_set_size)(struct archive_entry *e, la_int64_t size);
	void (*entry_set_mtime)(struct archive_entry *e, time_t sec, long nsec);
	const char *(*entry_pathname)(struct archive_entry *e);
	const char *(*entry_symlink)(struct archive_entry *e);
	const char *(*entry_hardlink)(struct archive_entry *e);
	__LA_MODE_T (*entry_filetype)(struct archive_entry *e);
	/* Reading and extracting. */
	struct archive *(*read_new)(void);
	int (*read_support_filter_all)(struct archive *a);
	int (*read_support_format_tar)(struct archive *a);
	int (*read_open_filename)(struct archive *a, const char *path, size_t block);
	int (*read_next_header)(struct archive *a, struct archive_entry **e);
	int (*read_data_skip)(struct archive *a);
	int (*read_extract2)(struct archive *a, struct archive_entry *e, struct archive *to);
	int (*read_free)(struct archive *a);
	struct archive *(*write_disk_new)(void);
	int (*write_disk_set_options)(struct archive *a, int flags);
};

/*
 * The functions, or NULL with errno set: ELIBACC when the library (of the
 * major version the headers describe) is not installed, ELIBBAD when the
 * one found is older than 3.3.3 (the first that writes zstd) or lacks a
 * function.  Loaded once.
 */
const struct archive_lib *archive_lib(void);

/* What -@err says, in words: for -ELIBACC and -ELIBBAD, the package to install. */
const char *archive_lib_strerror(int err);

#endif /* PERFEV_CLI_ARCHIVE_LIB_H */
