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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdwfl.h>
#include "internal.h"
#include "symbolizer-internal.h"

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

/* Copy the file of @fd (from its start) to a new file @path. */
static int copy_file(int fd, const char *path)
{
	char buf[1 << 16];
	ssize_t n;
	int out, err = 0;

	out = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (out < 0)
		return -errno;
	for (off_t off = 0;; off += n) {
		n = pread(fd, buf, sizeof(buf), off);
		if (n <= 0) {
			err = n < 0 ? -errno : 0;
			break;
		}
		for (ssize_t w, done = 0; done < n; done += w) {
			w = write(out, buf + done, (size_t)(n - done));
			if (w <= 0) {
				err = w < 0 ? -errno : -EIO;
				break;
			}
		}
		if (err)
			break;
	}
	if (close(out) && !err)
		err = -errno;
	return err;
}

/* Inflate every compressed section of the ELF file @path in place (libelf lays it out again). */
static int inflate_file(const char *path)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	Elf *elf;
	int fd, err = 0;

	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
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
	if (close(fd) && !err)
		err = -errno;
	return err;
}

void perfev__debug_keep_inflated(int fd, const char *name, const char *cache_dir,
				 const void *build_id, size_t id_len)
{
	char path[4096], tmp[4096 + 32], hex[2 * 64 + 1], *slash;
	const unsigned char *id = build_id;
	size_t i, n;
	bool compressed;
	Elf *elf;

	if (fd < 0 || !cache_dir || !id || id_len < 2 || id_len > 64)
		return;
	/* Already the copy. */
	n = strlen(cache_dir);
	if (name && !strncmp(name, cache_dir, n) && name[n] == '/')
		return;
	for (i = 0; i < id_len; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	if (perfev__path(path, sizeof(path), cache_dir, "/debug/.build-id/%.2s/%s.debug", hex,
			 hex + 2) ||
	    !access(path, F_OK))
		return;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	compressed = elf && has_compressed(elf);
	if (elf)
		elf_end(elf);
	if (!compressed)
		return;
	snprintf(tmp, sizeof(tmp), "%s", path);
	slash = strrchr(tmp, '/');
	*slash = '\0';
	if (perfev__mkdir_p(tmp))
		return;
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	if (copy_file(fd, tmp) || inflate_file(tmp) || rename(tmp, path))
		unlink(tmp);
}
