/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The files perfev writes (record -o, stat -o, report's exports), all
 * opened by one rule, and their write errors said the same way.
 */
#ifndef PERFEV_CLI_OUTPUT_H
#define PERFEV_CLI_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

struct cli_output {
	const char *path; /* as given */
	const char *what; /* "HTML" for "the HTML output 'x.html'" in messages, or NULL */
	char *tmp;	  /* the new file beside @path, renamed onto it when done; NULL: in place */
	bool created;	  /* @path is a file made by this open, removed if it is given up */
	int fd;
	FILE *f;		 /* with CLI_OUT_STDIO */
	int err;		 /* the first write error through @f, -errno */
	struct cli_output *next; /* the other new files not in place yet */
};

/* An existing non-empty file becomes PATH.old first, as perf record does. */
#define CLI_OUT_KEEP_OLD 1u
/* Also a buffered FILE (@f) whose write errors are kept exactly. */
#define CLI_OUT_STDIO 2u
/* The file is completed by rewriting its start (perf.data): a FIFO is refused. */
#define CLI_OUT_SEEKABLE 4u

/*
 * Open @path for writing, never through a symbolic link.  A new file is
 * created at @path exclusively (O_EXCL | O_NOFOLLOW, @mode less the
 * umask).  An existing regular file is replaced: the new one is written
 * under a temporary name beside it (".NAME.XXXXXX") and renamed onto
 * @path by cli_output_close(), so that a hard link planted there is
 * replaced, not written through, and the old file stays whole until the
 * new one is.  A character device or a FIFO (/dev/null, /dev/full, a
 * named pipe) is written in place.  A symbolic link, a block device, a
 * directory or a socket is refused.  @what names the output in messages
 * ("HTML" gives "the HTML output 'x.html'"; NULL: just the path).
 * On failure, prints why and returns -errno.
 */
int cli_output_open(struct cli_output *o, const char *path, const char *what, mode_t mode,
		    unsigned int flags);

/*
 * Finish: flush and close, and rename a replacing file onto the path.
 * Returns 0, or -errno after a message that names the file and the disk.
 */
int cli_output_close(struct cli_output *o);

/* Give up: close, and remove the new or temporary file (a device is left alone). */
void cli_output_discard(struct cli_output *o);

/*
 * Print "cannot write [the WHAT output ]'PATH': " and why, for a write
 * error @err (-errno): a full disk, a quota, an I/O error name the
 * filesystem (its mount point, type and device) or the device written;
 * then @note when not NULL.
 */
void cli_output_fail(const struct cli_output *o, int err, const char *note);

#endif /* PERFEV_CLI_OUTPUT_H */
