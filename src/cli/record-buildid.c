// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perf's BUILD_ID section for perfev record: the build id of each file
 * the recorded tasks mapped executable, as the kernel reported it in
 * MMAP2 records, and the kernel's own.  perf report matches files by
 * these ids, so a binary rebuilt after the recording is not mistaken for
 * the one that ran.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
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

static int add(struct build_ids *b, const char *filename, const uint8_t *id, size_t size)
{
	struct build_id_entry *e;
	size_t i;

	for (i = 0; i < b->n; i++)
		if (b->v[i].size == size && !memcmp(b->v[i].id, id, size) &&
		    !strcmp(b->v[i].filename, filename))
			return 0;
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 32;

		e = realloc(b->v, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		b->v = e;
		b->cap = cap;
	}
	e = &b->v[b->n];
	e->filename = strdup(filename);
	if (!e->filename)
		return -ENOMEM;
	memcpy(e->id, id, size);
	e->size = (uint8_t)size;
	b->n++;
	return 0;
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

/* The running kernel's build id: its length, 0 when none fits a record. */
static size_t kernel_build_id(uint8_t id[20])
{
	int n = perfev_kernel_build_id(NULL, id, 20);

	return n > 0 ? (size_t)n : 0;
}

/*
 * perf's build-id record: header (misc: cpumode and "size is set"), a
 * pid (-1: the host), 20 id bytes, their count, 3 bytes of padding, and
 * the file name with its NUL padded to 64 bytes.
 */
static int append(unsigned char **buf, size_t *len, const struct build_id_entry *e,
		  uint16_t cpumode)
{
	size_t name = strlen(e->filename) + 1, padded = (name + 63) & ~(size_t)63;
	size_t size = 8 + 4 + 24 + padded;
	struct perf_event_header h = {.type = PERFEV_RECORD_HEADER_BUILD_ID,
				      .misc = (uint16_t)(cpumode | (1U << 15)),
				      .size = (uint16_t)size};
	int32_t pid = -1;
	unsigned char *p;

	if (size > UINT16_MAX)
		return 0; /* no record holds it: leave it out */
	p = realloc(*buf, *len + size);
	if (!p)
		return -ENOMEM;
	*buf = p;
	p += *len;
	memset(p, 0, size);
	memcpy(p, &h, sizeof(h));
	memcpy(p + 8, &pid, 4);
	memcpy(p + 12, e->id, e->size);
	p[32] = e->size;
	memcpy(p + 36, e->filename, name);
	*len += size;
	return 0;
}

int build_ids_write(struct build_ids *b, struct perfev_data_writer *w, bool kernel)
{
	struct build_id_entry k = {.filename = (char *)"[kernel.kallsyms]"};
	unsigned char *buf = NULL;
	size_t len = 0, i;
	int ret = 0;

	if (kernel && (k.size = (uint8_t)kernel_build_id(k.id)))
		ret = append(&buf, &len, &k, PERF_RECORD_MISC_KERNEL);
	for (i = 0; i < b->n && !ret; i++)
		ret = append(&buf, &len, &b->v[i], PERF_RECORD_MISC_USER);
	if (!ret && len)
		ret = perfev_data_set_feature(w, PERFEV_FEAT_BUILD_ID, buf, len);
	free(buf);
	return ret;
}

void build_ids_release(struct build_ids *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		free(b->v[i].filename);
	free(b->v);
	memset(b, 0, sizeof(*b));
}
