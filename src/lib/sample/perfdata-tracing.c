// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perf.data's TRACING_DATA feature: what a reader needs to decode the
 * raw data of tracepoint samples without the recording machine's tracefs.
 *
 *   "\x17\x08\x44tracing" "0.6\0"  u8 endianness (0 little)  u8 sizeof(long)
 *   u32 page size
 *   "header_page\0"  u64 size, events/header_page
 *   "header_event\0" u64 size, events/header_event
 *   u32 ftrace formats (0 here)
 *   u32 systems, each: "name\0" u32 events, each: u64 size, its format file
 *   u32 size, kallsyms (0: readers use their own)
 *   u32 size, printk_formats
 *   u64 size, saved_cmdlines (0)
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <perfev/perfdata.h>
#include "common/internal.h"

struct buf {
	unsigned char *p;
	size_t len, cap;
	int err;
};

static void put(struct buf *b, const void *src, size_t n)
{
	if (!b->err)
		b->err = perfev__append(&b->p, &b->len, &b->cap, src, n, 1);
}

static void put_u32(struct buf *b, uint32_t v)
{
	put(b, &v, sizeof(v));
}

static void put_u64(struct buf *b, uint64_t v)
{
	put(b, &v, sizeof(v));
}

/* @rel below the tracefs directory, with its size before it (u32 or u64). */
static void put_file(struct buf *b, const char *dir, const char *rel, bool wide, bool optional)
{
	char path[PATH_MAX], *text = NULL;
	ssize_t n;

	if (b->err)
		return;
	if (snprintf(path, sizeof(path), "%s/%s", dir, rel) >= (int)sizeof(path)) {
		b->err = -ENAMETOOLONG;
		return;
	}
	n = perfev__read_file(path, &text, 64 << 20);
	if (n < 0) {
		if (!optional) {
			b->err = (int)n;
			return;
		}
		n = 0;
	}
	if (wide)
		put_u64(b, (uint64_t)n);
	else
		put_u32(b, (uint32_t)n);
	put(b, text, (size_t)n);
	free(text);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int perfev_data_tracing_data(struct perfev_tracefs *tfs, const char *const *tps, size_t n,
			     void **out, size_t *len)
{
	static const unsigned char magic[] = {0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'};
	const char *dir = tfs ? perfev_tracefs_path(tfs) : NULL;
	struct buf b = {0};
	char **sorted = NULL;
	size_t i, k, nsys = 0;
	uint32_t page = (uint32_t)sysconf(_SC_PAGESIZE);
	unsigned char e = 0, lsz = sizeof(long);
	int ret = 0;

	if (!dir || !out || !len || (n && !tps))
		return -EINVAL;
	/* Sorted, so each system's events come together and duplicates are adjacent. */
	sorted = calloc(n + 1, sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (!tps[i] || !strchr(tps[i], ':') || strchr(tps[i], '/')) {
			ret = -EINVAL;
			goto out;
		}
		sorted[i] = strdup(tps[i]);
		if (!sorted[i]) {
			ret = -ENOMEM;
			goto out;
		}
	}
	qsort(sorted, n, sizeof(*sorted), cmp_str);

	put(&b, magic, sizeof(magic));
	put(&b, "0.6", 4);
	put(&b, &e, 1);
	put(&b, &lsz, 1);
	put_u32(&b, page);
	put(&b, "header_page", 12);
	put_file(&b, dir, "events/header_page", true, false);
	put(&b, "header_event", 13);
	put_file(&b, dir, "events/header_event", true, false);
	put_u32(&b, 0);

	for (i = 0; i < n; i++)
		if (!i || strncmp(sorted[i], sorted[i - 1],
				  (size_t)(strchr(sorted[i], ':') - sorted[i]) + 1))
			nsys++;
	put_u32(&b, (uint32_t)nsys);
	for (i = 0; i < n; i = k) {
		size_t syslen = (size_t)(strchr(sorted[i], ':') - sorted[i]);
		uint32_t nev = 0;

		for (k = i; k < n && !strncmp(sorted[k], sorted[i], syslen + 1); k++)
			if (k == i || strcmp(sorted[k], sorted[k - 1]))
				nev++;
		put(&b, sorted[i], syslen);
		put(&b, "", 1);
		put_u32(&b, nev);
		for (k = i; k < n && !strncmp(sorted[k], sorted[i], syslen + 1); k++) {
			char rel[PATH_MAX];

			if (k > i && !strcmp(sorted[k], sorted[k - 1]))
				continue;
			snprintf(rel, sizeof(rel), "events/%.*s/%s/format", (int)syslen, sorted[k],
				 sorted[k] + syslen + 1);
			put_file(&b, dir, rel, true, false);
		}
	}
	put_u32(&b, 0);
	put_file(&b, dir, "printk_formats", false, true);
	put_u64(&b, 0);
	ret = b.err;
out:
	for (i = 0; i < n; i++)
		free(sorted[i]);
	free(sorted);
	if (ret) {
		free(b.p);
		return ret == -ENOENT || ret == -ENOTDIR ? -ENOENT : ret;
	}
	*out = b.p;
	*len = b.len;
	return 0;
}
