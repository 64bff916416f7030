// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Debug files kept uncompressed between runs.  Distributions compress the
 * DWARF of their debug files (SHF_COMPRESSED sections, zlib), and libdw
 * inflates every debug section of a file when it opens its DWARF: for
 * libc's that is most of a report's time.  With a cache directory, the
 * first run writes a copy of the debug file with its sections inflated,
 * under the cache's .build-id tree, which libdwfl searches before the
 * system's: later runs read that copy instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include "common/internal.h"
#include "symbols/symbolizer-internal.h"

enum packing { PLAIN, ELF_COMPRESSED, GNU_ZDEBUG };

/* How section @scn of @elf (@shstrndx: its section names) is stored. */
static enum packing packing_of(Elf *elf, size_t shstrndx, Elf_Scn *scn)
{
	const char *name;
	GElf_Shdr sh;

	if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
		return PLAIN;
	if (sh.sh_flags & SHF_COMPRESSED)
		return ELF_COMPRESSED;
	name = elf_strptr(elf, shstrndx, sh.sh_name);
	return name && !strncmp(name, ".zdebug", 7) ? GNU_ZDEBUG : PLAIN;
}

/* Whether any section of @elf is compressed. */
static bool has_compressed(Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn)))
		if (packing_of(elf, shstrndx, scn) != PLAIN)
			return true;
	return false;
}

/* Copy the file of @in (from its start) to @out. */
static int copy_fd(int in, int out)
{
	char buf[1 << 16];
	off_t off = 0;

	for (;;) {
		ssize_t n = pread(in, buf, sizeof(buf), off), done = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return 0;
		while (done < n) {
			ssize_t w = write(out, buf + done, (size_t)(n - done));

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				return w < 0 ? -errno : -EIO;
			done += w;
		}
		off += n;
	}
}

/* Inflate every compressed section of the ELF file open on @fd in place (libelf lays it out again).
 */
static int inflate_fd(int fd)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	Elf *elf;
	int err = 0;

	elf = elf_begin(fd, ELF_C_RDWR, NULL);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx)) {
		err = -EBADMSG;
		goto out;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		enum packing how = packing_of(elf, shstrndx, scn);

		if ((how == ELF_COMPRESSED && elf_compress(scn, 0, 0) < 0) ||
		    (how == GNU_ZDEBUG && elf_compress_gnu(scn, 0, 0) < 0)) {
			err = -EBADMSG;
			goto out;
		}
	}
	if (elf_update(elf, ELF_C_WRITE) < 0)
		err = -EIO;
out:
	if (elf)
		elf_end(elf);
	return err;
}

/* "debug/.build-id/XX" under @cache_fd, made when missing: its descriptor or -errno. */
static int leaf_dir(int cache_fd, const char *hex)
{
	const char *parts[] = {"debug", ".build-id", NULL};
	char xx[3] = {hex[0], hex[1], '\0'};
	int fd = dup(cache_fd), next;
	size_t i;

	if (fd < 0)
		return -errno;
	parts[2] = xx;
	for (i = 0; i < 3; i++) {
		next = perfev__subdir_at(fd, parts[i]);
		close(fd);
		if (next < 0)
			return next;
		fd = next;
	}
	return fd;
}

static void hex_of(const unsigned char *id, size_t len, char *hex)
{
	size_t i;

	for (i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
}

bool perfev__debug_in_cache(const char *name, const char *cache_dir)
{
	size_t n = strlen(cache_dir);

	return name && !strncmp(name, cache_dir, n) && name[n] == '/';
}

/*
 * Whether the ELF file open on @fd has build id @id; with @readable too
 * sections to read, none of them compressed.
 */
static bool elf_matches(int fd, const unsigned char *id, size_t len, bool readable)
{
	const void *got = NULL;
	size_t shnum = 0;
	ssize_t n;
	bool ok;
	Elf *elf;

	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf)
		return false;
	n = dwelf_elf_gnu_build_id(elf, &got);
	ok = n == (ssize_t)len && !memcmp(got, id, len);
	if (ok && readable) {
		if (elf_getshdrnum(elf, &shnum))
			shnum = 0;
		ok = shnum > 1 && !has_compressed(elf);
	}
	elf_end(elf);
	return ok;
}

/* Whether the cache's copy open on @fd has build id @id and sections to read. */
static bool copy_matches(int fd, const unsigned char *id, size_t len)
{
	return elf_matches(fd, id, len, true);
}

/*
 * The directory of the cache's copy of the debug file of @build_id
 * (made when missing), and in @rest the copy's name in it: REST.debug.
 */
static int copy_dir(int cache_fd, const void *build_id, size_t id_len, char *rest, size_t len)
{
	char hex[2 * 64 + 1];
	int dfd;

	if (cache_fd < 0 || !build_id || id_len < 2 || id_len > 64)
		return -EINVAL;
	hex_of(build_id, id_len, hex);
	dfd = leaf_dir(cache_fd, hex);
	if (dfd >= 0)
		snprintf(rest, len, "%s.debug", hex + 2);
	return dfd;
}

void perfev__debug_check(int cache_fd, const void *build_id, size_t id_len)
{
	char rest[2 * 64 + 8];
	int dfd, fd;

	dfd = copy_dir(cache_fd, build_id, id_len, rest, sizeof(rest));
	if (dfd < 0)
		return;
	fd = openat(dfd, rest, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && !copy_matches(fd, build_id, id_len))
		unlinkat(dfd, rest, 0);
	else if (fd < 0 && errno == ELOOP)
		unlinkat(dfd, rest, 0);
	if (fd >= 0)
		close(fd);
	close(dfd);
}

void perfev__debug_keep_inflated(int fd, const char *name, const char *cache_dir, int cache_fd,
				 const void *build_id, size_t id_len)
{
	char rest[2 * 64 + 8], tmp[2 * 64 + 64];
	bool compressed;
	int dfd, out;
	Elf *elf;

	if (fd < 0 || cache_fd < 0 || !build_id || id_len < 2 || id_len > 64 ||
	    perfev__debug_in_cache(name, cache_dir))
		return;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	compressed = elf && has_compressed(elf);
	if (elf)
		elf_end(elf);
	if (!compressed)
		return;
	dfd = copy_dir(cache_fd, build_id, id_len, rest, sizeof(rest));
	if (dfd < 0)
		return;
	if (!faccessat(dfd, rest, F_OK, AT_SYMLINK_NOFOLLOW)) {
		close(dfd);
		return;
	}
	out = perfev__tmp_at(dfd, rest, tmp, sizeof(tmp));
	if (out >= 0) {
		if (copy_fd(fd, out) || inflate_fd(out)) {
			close(out);
			unlinkat(dfd, tmp, 0);
		} else {
			(void)perfev__commit_at(dfd, out, tmp, rest);
		}
	}
	close(dfd);
}

/*
 * The .gnu_debuglink search of the GNU tools: @link beside the file, in
 * .debug/ beside it and under /usr/lib/debug/ followed by the file's
 * directory.  A candidate counts when its build id is the module's (or,
 * with none known, when it is not the file itself).
 */
static int find_debuglink(Dwfl_Module *mod, const char *file_name, const char *link, char **found)
{
	static const char *const pre[] = {"", "", "/usr/lib/debug"};
	static const char *const mid[] = {"", "/.debug", ""};
	const unsigned char *id = NULL;
	const char *slash;
	struct stat self, st;
	GElf_Addr vaddr;
	char path[PATH_MAX];
	int dlen, len, fd;
	size_t i;

	if (!link || !*link || !file_name || !(slash = strrchr(file_name, '/')))
		return -1;
	dlen = (int)(slash - file_name);
	len = dwfl_module_build_id(mod, &id, &vaddr);
	if (stat(file_name, &self))
		memset(&self, 0, sizeof(self));
	for (i = 0; i < PERFEV__ARRAY_SIZE(pre); i++) {
		if (snprintf(path, sizeof(path), "%s%.*s%s/%s", pre[i], dlen, file_name, mid[i],
			     link) >= (int)sizeof(path))
			continue;
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) || (st.st_dev == self.st_dev && st.st_ino == self.st_ino) ||
		    (len > 0 && !elf_matches(fd, id, (size_t)len, false))) {
			close(fd);
			continue;
		}
		*found = strdup(path);
		if (*found)
			return fd;
		close(fd);
		return -1;
	}
	return -1;
}

int perfev__find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			   const char *file_name, const char *debuglink_file,
			   GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	if (perfev__debuginfod_wanted())
		return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
						    debuglink_file, debuglink_crc,
						    debuginfo_file_name);
	return perfev__find_debuginfo_local(mod, userdata, modname, base, file_name, debuglink_file,
					    debuglink_crc, debuginfo_file_name);
}

int perfev__find_debuginfo_local(Dwfl_Module *mod, void **userdata, const char *modname,
				 Dwarf_Addr base, const char *file_name, const char *debuglink_file,
				 GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	int fd;

	fd = dwfl_build_id_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
					  debuglink_crc, debuginfo_file_name);
	if (fd >= 0)
		return fd;
	return find_debuglink(mod, file_name, debuglink_file, debuginfo_file_name);
}
