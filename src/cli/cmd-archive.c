// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev archive: the files a recording's samples need to be read on
 * another machine, in one archive next to it (FILE.tar.zst), laid out as
 * perf's build-id cache so that it extracts into ~/.debug:
 *
 *   .build-id/XX/REST              -> ../../PATH/ID (a symbolic link)
 *   PATH/ID/elf                    the object as it was recorded
 *   PATH/ID/debug                  its separate debug file, when there is one
 *   [kernel.kallsyms]/ID/kallsyms  the kernel's symbols
 *
 * ID is the build id the recording saw (its BUILD_ID section, or its
 * MMAP2 records'), and only objects its samples (call chains included)
 * fall in are collected.  A file is taken from the build-id cache, or
 * from its path when its build id is still the recorded one.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdwelf.h>
#include <sys/stat.h>
#include "archive-tar.h"
#include "input.h"
#include "options.h"
#include "perfev-cli.h"

static const char *const archive_usage[] = {
    "perfev archive [<options>] [FILE]",
    NULL,
};

#define KERNEL "[kernel.kallsyms]"
#define ID_MAX 20

struct object {
	char *path;
	unsigned char id[ID_MAX];
	size_t id_len; /* 0: none recorded */
	bool hit;
};

struct archive {
	struct object *v;
	size_t n, cap;
	bool *seen; /* per frame id of the source's machine */
	size_t nseen;
};

static struct object *object_of(struct archive *a, const char *path, bool add)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (!strcmp(a->v[i].path, path))
			return &a->v[i];
	if (!add)
		return NULL;
	cli_grow(&a->v, &a->cap, a->n + 1, sizeof(*a->v));
	memset(&a->v[a->n], 0, sizeof(*a->v));
	if (!(a->v[a->n].path = strdup(path)))
		cli_die("out of memory");
	return &a->v[a->n++];
}

static void set_id(struct archive *a, const char *path, const unsigned char *id, size_t len)
{
	struct object *o;

	/* Records pad a SHA-1 id's 20 bytes with zeros; nothing shorter than 2 bytes names a file.
	 */
	while (len > 20 && !id[len - 1])
		len--;
	if (len < 2 || len > ID_MAX || !*path)
		return;
	o = object_of(a, path, true);
	memcpy(o->id, id, len);
	o->id_len = len;
}

/* perf's BUILD_ID section: records of a header, a pid, 20 id bytes (+ their count), a name. */
static void section_ids(struct archive *a, const unsigned char *p, size_t len)
{
	uint16_t misc, size;
	size_t off, idlen;

	for (off = 0; off + 37 <= len; off += size) {
		memcpy(&misc, p + off + 4, 2);
		memcpy(&size, p + off + 6, 2);
		if (size < 37 || size > len - off)
			return;
		idlen = (misc & (1U << 15)) && p[off + 32] ? p[off + 32] : 20;
		if (memchr(p + off + 36, '\0', size - 36U))
			set_id(a, (const char *)p + off + 36, p + off + 12,
			       idlen > 20 ? 20 : idlen);
	}
}

static void hex_of(const unsigned char *id, size_t len, char *hex)
{
	size_t i;

	for (i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	hex[2 * len] = '\0';
}

/* Whether the ELF file open on @fd has build id @id. */
static bool elf_has_id(int fd, const unsigned char *id, size_t len)
{
	const void *got = NULL;
	ssize_t n;
	Elf *elf;

	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf)
		return false;
	n = dwelf_elf_gnu_build_id(elf, &got);
	n = n == (ssize_t)len && !memcmp(got, id, len);
	elf_end(elf);
	return n;
}

/* Open @path when it is a regular file with build id @o->id (@elf: checked as ELF). */
static int open_matching(const char *path, const struct object *o, bool elf)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (elf && !elf_has_id(fd, o->id, o->id_len))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The running kernel's symbols, when the recording's kernel is the running one. */
static int running_kallsyms(const struct object *o, char **buf, size_t *len)
{
	unsigned char id[ID_MAX + 44];
	char chunk[1 << 16];
	size_t cap = 0;
	ssize_t n;
	int fd, got = perfev_kernel_build_id(NULL, id, sizeof(id));

	if (got <= 0 || (size_t)got != o->id_len || memcmp(id, o->id, o->id_len))
		return -ESTALE;
	fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	*buf = NULL;
	*len = 0;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0) {
		cli_grow(buf, &cap, *len + (size_t)n, 1);
		memcpy(*buf + *len, chunk, (size_t)n);
		*len += (size_t)n;
	}
	close(fd);
	return n < 0 ? -errno : 0;
}

/* Where the object goes in the archive: PATH/ID, PATH relative ("[vdso]" as is). */
static void entry_dir(const struct object *o, const char *hex, char *dir, size_t len)
{
	snprintf(dir, len, "%s/%s", o->path + (o->path[0] == '/'), hex);
}

/* The .build-id link of @o to @dir. */
static int add_link(struct tar_writer *w, const char *hex, const char *dir)
{
	char name[PATH_MAX], target[PATH_MAX + 8];

	snprintf(name, sizeof(name), ".build-id/%.2s/%s", hex, hex + 2);
	snprintf(target, sizeof(target), "../../%s", dir);
	return tar_add_symlink(w, name, target);
}

/*
 * Add object @o from the build-id cache under @cache or from its path
 * (the kernel: its kallsyms).  Returns 1 when added, 0 when not found,
 * -errno when the archive could not be written.
 */
static int add_object(struct tar_writer *w, const struct object *o, const char *cache,
		      size_t *bytes)
{
	char hex[2 * ID_MAX + 1], dir[PATH_MAX], from[PATH_MAX * 2], name[PATH_MAX + 16];
	bool kernel = !strcmp(o->path, KERNEL), vdso = !strcmp(o->path, "[vdso]");
	const char *what = kernel ? "kallsyms" : vdso ? "vdso" : "elf";
	struct stat st;
	int fd = -1, err;

	hex_of(o->id, o->id_len, hex);
	entry_dir(o, hex, dir, sizeof(dir));
	snprintf(name, sizeof(name), "%s/%s", dir, what);
	if (cache) {
		snprintf(from, sizeof(from), "%s/.build-id/%.2s/%s/%s", cache, hex, hex + 2, what);
		fd = open_matching(from, o, !kernel);
	}
	if (fd < 0 && kernel) {
		char *buf = NULL;
		size_t len = 0;

		if (running_kallsyms(o, &buf, &len)) {
			free(buf);
			return 0;
		}
		err = tar_add_bytes(w, name, buf, len);
		free(buf);
		*bytes += len;
		return err ? err : add_link(w, hex, dir) ? -EIO : 1;
	}
	if (fd < 0 && o->path[0] == '/')
		fd = open_matching(o->path, o, true);
	if (fd < 0)
		return 0;
	err = tar_add_file(w, name, fd, 0644);
	if (!fstat(fd, &st))
		*bytes += (size_t)st.st_size;
	close(fd);
	if (!err && !kernel && !vdso) {
		/* The distribution's debug file: the DWARF a stripped file lacks. */
		snprintf(from, sizeof(from), "/usr/lib/debug/.build-id/%.2s/%s.debug", hex,
			 hex + 2);
		fd = open_matching(from, o, true);
		if (fd >= 0) {
			snprintf(name, sizeof(name), "%s/debug", dir);
			err = tar_add_file(w, name, fd, 0644);
			if (!fstat(fd, &st))
				*bytes += (size_t)st.st_size;
			close(fd);
		}
	}
	return err ? err : (err = add_link(w, hex, dir)) ? err : 1;
}

/* Read the recording: the build ids it names and the objects its samples fall in. */
static int collect(struct archive *a, struct input *in)
{
	const struct perfev_source_event *ev;
	const struct perfev_frame *f;
	const void *sec;
	size_t len, n, i;
	int err;

	if (!perfev_data_feature(perfev_source_data(in->src), PERFEV_FEAT_BUILD_ID, &sec, &len))
		section_ids(a, sec, len);
	while ((err = perfev_source_next(in->src, &ev)) > 0) {
		if (ev->kind == PERFEV_SOURCE_RECORD && ev->rec && ev->type == PERF_RECORD_MMAP2 &&
		    ev->rec->u.mmap2.has_build_id) {
			const struct object *o = object_of(a, ev->rec->u.mmap2.filename, false);

			if (!o || !o->id_len)
				set_id(a, ev->rec->u.mmap2.filename, ev->rec->u.mmap2.build_id,
				       ev->rec->u.mmap2.build_id_size);
			continue;
		}
		if (ev->kind != PERFEV_SOURCE_SAMPLE ||
		    perfev_source_frames(in->src, ev,
					 PERFEV_FRAMES_CHAIN | PERFEV_FRAMES_NO_SYMBOLS, &f, &n))
			continue;
		for (i = 0; i < n; i++) {
			if (f[i].id < a->nseen && a->seen[f[i].id])
				continue;
			if (f[i].id >= a->nseen) {
				size_t old = a->nseen;

				cli_grow(&a->seen, &a->nseen, (size_t)f[i].id + 1,
					 sizeof(*a->seen));
				memset(a->seen + old, 0, (a->nseen - old) * sizeof(*a->seen));
			}
			a->seen[f[i].id] = true;
			if (f[i].dso && !(f[i].flags & PERFEV_FRAME_ANON))
				object_of(a, f[i].dso, true)->hit = true;
		}
	}
	return err < 0 ? input_fail(in, err) : 0;
}

/* Open a new file beside @out, to be renamed over it once written. */
static int open_tmp(const char *out, char *tmp, size_t len)
{
	const char *slash = strrchr(out, '/');
	int fd;

	if (snprintf(tmp, len, "%.*s.%s.XXXXXX", slash ? (int)(slash - out + 1) : 0, out,
		     slash ? slash + 1 : out) >= (int)len)
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	fchmod(fd, 0644);
	return fd;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);

	return n >= m && !strcmp(s + n - m, tail);
}

/* What the recording's objects with samples are: @missing counted, @n archived. */
static int write_archive(struct archive *a, const char *out, enum tar_codec codec,
			 const char *cache, size_t *added, size_t *missing, size_t *bytes)
{
	struct tar_writer *w;
	char tmp[PATH_MAX + 16];
	size_t i;
	int fd, err = 0, got;

	fd = open_tmp(out, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	if ((err = tar_writer_new(fd, codec, &w)))
		goto fail;
	for (i = 0; i < a->n && !err; i++) {
		struct object *o = &a->v[i];

		if (!o->hit)
			continue;
		if (!o->id_len) {
			/* perf's archive names files by build id only: nothing else can find them.
			 */
			if (o->path[0] == '/' || !strcmp(o->path, KERNEL))
				cli_error(
				    "warning: not archiving '%s': the recording has no build id "
				    "for it",
				    o->path);
			*missing += o->path[0] == '/' || !strcmp(o->path, KERNEL);
			continue;
		}
		got = add_object(w, o, cache, bytes);
		if (got < 0) {
			err = got;
		} else if (!got) {
			char hex[2 * ID_MAX + 1];

			hex_of(o->id, o->id_len, hex);
			cli_error(
			    "warning: not archiving '%s' (build id %s): no file with that build "
			    "id here, nor in the build-id cache%s",
			    o->path, hex,
			    strcmp(o->path, KERNEL) ? "" : " (not the running kernel)");
			(*missing)++;
		} else {
			(*added)++;
		}
	}
	if (!err) {
		err = tar_writer_finish(w);
		w = NULL;
	}
	tar_writer_free(w);
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	fd = -1;
	/* rename() replaces whatever is at @out, a symbolic link included, without following it. */
	if (!err && rename(tmp, out))
		err = -errno;
fail:
	if (fd >= 0)
		close(fd);
	if (err)
		unlink(tmp);
	return err;
}

int cmd_archive(int argc, const char **argv)
{
	const char *output = NULL, *cache_env = getenv("PERF_BUILDID_DIR");
	struct input_opts io = {0};
	struct archive a = {0};
	struct input in;
	char out[PATH_MAX], cache[PATH_MAX];
	size_t added = 0, missing = 0, bytes = 0, i, hits = 0;
	enum tar_codec codec = TAR_ZSTD;
	int nargs, err;
	struct option opts[] = {
	    OPT_STR('i', "input", &io.path, "FILE", "the recording (default perf.data)"),
	    OPT_STR('o', "output", &output, "OUT",
		    "write the archive to OUT (default FILE.tar.zst; .tar.bz2, .tar.gz, .tar)"),
	    OPT_TERMINATOR,
	};

	nargs = parse_options(argc, argv, opts, archive_usage, 0);
	if (nargs > 1 || (nargs == 1 && io.path))
		usage_error(archive_usage, opts, "unexpected argument '%s'", argv[nargs - 1]);
	if (nargs == 1)
		io.path = argv[0];
	if (!io.path)
		io.path = "perf.data";
	if (!strcmp(io.path, "-"))
		usage_error(archive_usage, opts, "an archive needs a file, not standard input");
	if (snprintf(out, sizeof(out), "%s", output ? output : io.path) >= (int)sizeof(out) ||
	    (!output && strlen(out) + 8 >= sizeof(out)))
		usage_error(archive_usage, opts, "the output path is too long");
	if (!output)
		strcat(out, ".tar.zst");
	else if (ends_with(out, ".tar"))
		codec = TAR_PLAIN;
	else if (ends_with(out, ".tar.bz2") || ends_with(out, ".tbz2"))
		codec = TAR_BZIP2;
	else if (ends_with(out, ".tar.gz") || ends_with(out, ".tgz"))
		codec = TAR_GZIP;
	else if (!ends_with(out, ".tar.zst") && !ends_with(out, ".tzst"))
		usage_error(archive_usage, opts,
			    "cannot write '%s': the output's name says the format: .tar.zst, "
			    ".tar.bz2, .tar.gz or .tar",
			    out);
	if (cache_env && *cache_env)
		snprintf(cache, sizeof(cache), "%s", cache_env);
	else if (getenv("HOME"))
		snprintf(cache, sizeof(cache), "%s/.debug", getenv("HOME"));
	else
		cache[0] = '\0';
	if (input_open(&in, &io))
		return 1;
	err = collect(&a, &in);
	perfev_source_free(in.src);
	if (err)
		return 1;
	for (i = 0; i < a.n; i++)
		hits += a.v[i].hit && a.v[i].id_len;
	if (!hits) {
		cli_error("cannot archive '%s': it records no build id of an object with samples "
			  "(recorded with -B/--no-buildid?); record again with build ids",
			  io.path);
		err = 1;
		goto out;
	}
	err = write_archive(&a, out, codec, cache[0] ? cache : NULL, &added, &missing, &bytes);
	if (err) {
		cli_error("cannot write archive '%s': %s%s", out, tar_strerror(err),
			  err == -EACCES || err == -EROFS || err == -ENOENT
			      ? " (write it elsewhere with -o)"
			      : "");
		err = 1;
		goto out;
	}
	printf(
	    "archived %zu of the %zu objects with samples (%.1f MiB before compression) in "
	    "'%s'%s\n\nNow please run:\n\n$ mkdir -p ~/.debug; tar xf %s -C ~/.debug\n\nwherever "
	    "you need to run 'perfev report' or 'perf report', or: perfev report -i %s "
	    "--archive %s\n",
	    added, added + missing, (double)bytes / (1 << 20), out,
	    missing ? " (see the warnings above for the others)" : "", out, io.path, out);
	err = 0;
out:
	for (i = 0; i < a.n; i++)
		free(a.v[i].path);
	free(a.v);
	free(a.seen);
	return cli_finish(err);
}
