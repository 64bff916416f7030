// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libarchive loaded on first use (see archive-lib.h): the library of the
 * soname Debian's libarchive13 installs, its version checked.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include "archive-lib.h"

#define LIBARCHIVE_SONAME "libarchive.so.13"
#define MIN_VERSION	  3003003 /* archive_write_add_filter_zstd() */

static struct archive_lib la;
static int la_err_no; /* 0 once loaded */
static pthread_once_t la_once = PTHREAD_ONCE_INIT;

/* Whether symbol @name was found, into field @field of la. */
#define SYM(field, name) ((*(void **)&la.field = dlsym(h, name)) != NULL)

static void la_load(void)
{
	int (*version)(void);
	void *h = dlopen(LIBARCHIVE_SONAME, RTLD_NOW | RTLD_LOCAL);
	int v, ok = 1;

	la_err_no = ELIBACC;
	if (!h)
		return;
	la_err_no = ELIBBAD;
	*(void **)&version = dlsym(h, "archive_version_number");
	v = version ? version() : 0;
	if (v / 1000000 != ARCHIVE_VERSION_NUMBER / 1000000 || v < MIN_VERSION) {
		dlclose(h);
		return;
	}
	ok &= SYM(error_string, "archive_error_string");
	ok &= SYM(errno_of, "archive_errno");
	ok &= SYM(write_free, "archive_write_free");
	ok &= SYM(write_new, "archive_write_new");
	ok &= SYM(write_add_filter_zstd, "archive_write_add_filter_zstd");
	ok &= SYM(write_add_filter_bzip2, "archive_write_add_filter_bzip2");
	ok &= SYM(write_add_filter_gzip, "archive_write_add_filter_gzip");
	ok &= SYM(write_add_filter_none, "archive_write_add_filter_none");
	ok &= SYM(write_set_format_pax_restricted, "archive_write_set_format_pax_restricted");
	ok &= SYM(write_open_fd, "archive_write_open_fd");
	ok &= SYM(write_header, "archive_write_header");
	ok &= SYM(write_data, "archive_write_data");
	ok &= SYM(write_close, "archive_write_close");
	ok &= SYM(entry_new, "archive_entry_new");
	ok &= SYM(entry_clear, "archive_entry_clear");
	ok &= SYM(entry_free, "archive_entry_free");
	ok &= SYM(entry_copy_pathname, "archive_entry_copy_pathname");
	ok &= SYM(entry_copy_symlink, "archive_entry_copy_symlink");
	ok &= SYM(entry_copy_uname, "archive_entry_copy_uname");
	ok &= SYM(entry_copy_gname, "archive_entry_copy_gname");
	ok &= SYM(entry_set_filetype, "archive_entry_set_filetype");
	ok &= SYM(entry_set_perm, "archive_entry_set_perm");
	ok &= SYM(entry_set_size, "archive_entry_set_size");
	ok &= SYM(entry_set_mtime, "archive_entry_set_mtime");
	ok &= SYM(entry_pathname, "archive_entry_pathname");
	ok &= SYM(entry_symlink, "archive_entry_symlink");
	ok &= SYM(entry_hardlink, "archive_entry_hardlink");
	ok &= SYM(entry_filetype, "archive_entry_filetype");
	ok &= SYM(read_new, "archive_read_new");
	ok &= SYM(read_support_filter_all, "archive_read_support_filter_all");
	ok &= SYM(read_support_format_tar, "archive_read_support_format_tar");
	ok &= SYM(read_open_filename, "archive_read_open_filename");
	ok &= SYM(read_next_header, "archive_read_next_header");
	ok &= SYM(read_data_skip, "archive_read_data_skip");
	ok &= SYM(read_extract2, "archive_read_extract2");
	ok &= SYM(read_free, "archive_read_free");
	ok &= SYM(write_disk_new, "archive_write_disk_new");
	ok &= SYM(write_disk_set_options, "archive_write_disk_set_options");
	if (!ok) {
		dlclose(h);
		return;
	}
	la_err_no = 0;
}

const struct archive_lib *archive_lib(void)
{
	pthread_once(&la_once, la_load);
	if (la_err_no) {
		errno = la_err_no;
		return NULL;
	}
	return &la;
}

const char *archive_lib_strerror(int err)
{
	if (err == -ELIBACC)
		return "libarchive's shared library (" LIBARCHIVE_SONAME
		       ") is not installed; install the Debian package libarchive13";
	if (err == -ELIBBAD)
		return "the libarchive installed is too old (3.3.3 or later needed) or not the "
		       "one perfev was built for; install the Debian package libarchive13";
	return strerror(-err);
}
