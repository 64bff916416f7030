// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perf's BUILD_ID section for perfev record: the build id of each file
 * the recorded tasks mapped executable, as the kernel reported it in
 * MMAP2 records, and the kernel's own.  perf report matches files by
 * these ids, so a binary rebuilt after the recording is not mistaken for
 * the one that ran.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <elfutils/libdwelf.h>
#include <perfev/symbols.h>
#include "record.h"

bool build_ids_supported(void)
{
	struct perf_event_attr a = {
	    .type = PERF_TYPE_SOFTWARE,
	    .size = sizeof(a),
	    .config = PERF_COUNT_SW_DUMMY,
	    .disabled = 1,
	    .exclude_kernel = 1,
	    .exclude_hv = 1,
	    .mmap2 = 1,
	    .build_id = 1,
	};
	int fd = perfev_sys_open(&a, 0, -1, -1, 0);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* The file's id length, id and name, one key: a file noted twice is kept once. */
static int add(struct build_ids *b, const char *filename, const uint8_t *id, size_t size)
{
	size_t name = strlen(filename), i;
	unsigned char stack[512], *key = name + 1 + size <= sizeof(stack) ? stack : NULL;
	int ret;

	if (size > 20)
		return -EINVAL;
	if (!key && !(key = malloc(name + 1 + size)))
		return -ENOMEM;
	key[0] = (unsigned char)size;
	memcpy(key + 1, id, size);
	memcpy(key + 1 + size, filename, name);
	ret = perfev__intern_bytes(&b->files, key, 1 + size + name, &i);
	if (key != stack)
		free(key);
	return ret < 0 ? ret : 0;
}

void build_ids_note(struct build_ids *b, const struct perfev_sample_layout *layout,
		    const struct perf_event_header *h)
{
	struct perfev_record r;

	if (h->type != PERF_RECORD_MMAP2 || !(h->misc & PERFEV_RECORD_MISC_MMAP_BUILD_ID))
		return;
	if (perfev_record_decode(layout, h, h->size, &r) || !r.u.mmap2.has_build_id ||
	    !r.u.mmap2.build_id_size || !(r.u.mmap2.prot & PROT_EXEC) ||
	    r.u.mmap2.filename[0] != '/')
		return;
	/* Out of memory: the section is only missing an entry. */
	(void)add(b, r.u.mmap2.filename, r.u.mmap2.build_id, r.u.mmap2.build_id_size);
}

void build_ids_note_file(struct build_ids *b, const char *map_files, const char *filename,
			 uint64_t dev, uint64_t ino)
{
	uint64_t key[2] = {dev, ino};
	const void *id = NULL;
	struct stat st;
	size_t idx;
	ssize_t n;
	Elf *elf;
	int fd;

	if (filename[0] != '/' || perfev__intern_bytes(&b->inodes, key, sizeof(key), &idx) != 1)
		return;
	fd = open(map_files, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fd = open(filename, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	/* The path may name another file by now: only the one mapped counts. */
	if (fstat(fd, &st) || st.st_ino != ino || (dev && st.st_dev != dev) ||
	    !S_ISREG(st.st_mode)) {
		close(fd);
		return;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf) {
		n = dwelf_elf_gnu_build_id(elf, &id);
		if (n > 0 && n <= 20)
			(void)add(b, filename, id, (size_t)n);
		elf_end(elf);
	}
	close(fd);
}

const struct perf_event_header *build_ids_clear_stale(const struct perf_event_header *h, void *buf,
						      size_t size)
{
	struct perf_event_header *copy = buf;

	if (!(h->misc & PERFEV_RECORD_MISC_MMAP_BUILD_ID) || h->size > size)
		return h;
	memcpy(copy, h, h->size);
	copy->misc &= (uint16_t)~PERFEV_RECORD_MISC_MMAP_BUILD_ID;
	return copy;
}

/* The running kernel's build id: its length, 0 when none fits a record. */
static size_t kernel_build_id(uint8_t id[20])
{
	int n = perfev_kernel_build_id(NULL, id, 20);

	return n > 0 ? (size_t)n : 0;
}

/* The bytes of the BUILD_ID section. */
struct bytes {
	unsigned char *v;
	size_t n, cap;
};

/*
 * perf's build-id record: header (misc: cpumode and "size is set"), a
 * pid (-1: the host), 20 id bytes, their count, 3 bytes of padding, and
 * the file name with its NUL padded to 64 bytes.
 */
static int append(struct bytes *b, const uint8_t *id, size_t id_size, const char *filename,
		  uint16_t cpumode)
{
	size_t name = strlen(filename) + 1, padded = (name + 63) & ~(size_t)63;
	size_t size = 8 + 4 + 24 + padded;
	struct perf_event_header h = {.type = PERFEV_RECORD_HEADER_BUILD_ID,
				      .misc = (uint16_t)(cpumode | (1U << 15)),
				      .size = (uint16_t)size};
	int32_t pid = -1;
	unsigned char *p;

	if (size > UINT16_MAX)
		return 0; /* no record holds it: leave it out */
	if (perfev__grow(&b->v, &b->cap, b->n + size, 1))
		return -ENOMEM;
	p = b->v + b->n;
	memset(p, 0, size);
	memcpy(p, &h, sizeof(h));
	memcpy(p + 8, &pid, 4);
	memcpy(p + 12, id, id_size);
	p[32] = (uint8_t)id_size;
	memcpy(p + 36, filename, name);
	b->n += size;
	return 0;
}

int build_ids_write(struct build_ids *b, struct perfev_data_writer *w, bool kernel)
{
	struct bytes buf = {0};
	uint8_t kid[20];
	size_t ksize, i;
	int ret = 0;

	if (kernel && (ksize = kernel_build_id(kid)))
		ret = append(&buf, kid, ksize, "[kernel.kallsyms]", PERF_RECORD_MISC_KERNEL);
	for (i = 0; i < perfev__intern_count(&b->files) && !ret; i++) {
		const unsigned char *k = (const unsigned char *)perfev__intern_at(&b->files, i);

		ret = append(&buf, k + 1, k[0], (const char *)k + 1 + k[0], PERF_RECORD_MISC_USER);
	}
	if (!ret && buf.n)
		ret = perfev_data_set_feature(w, PERFEV_FEAT_BUILD_ID, buf.v, buf.n);
	free(buf.v);
	return ret;
}

void build_ids_release(struct build_ids *b)
{
	perfev__intern_release(&b->files);
	perfev__intern_release(&b->inodes);
}
