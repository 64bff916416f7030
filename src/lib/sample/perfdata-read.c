// SPDX-License-Identifier: LGPL-2.1-or-later
/* perf.data reader: file and pipe mode, over bytes in memory, a mapped file or a stream. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common/internal.h"
#include "sample/perfdata-internal.h"

#ifndef __has_feature
#define __has_feature(x) 0
#endif
#if defined(__SANITIZE_ADDRESS__) || __has_feature(address_sanitizer)
#include <sanitizer/asan_interface.h>
#define PD_POISON(p, n)	  ASAN_POISON_MEMORY_REGION(p, n)
#define PD_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define PD_POISON(p, n)	  ((void)(p), (void)(n))
#define PD_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* Largest piece read from a stream at once while growing a buffer. */
#define STREAM_CHUNK (1U << 20)
/* What a file-mode stream is first read into (it doubles from there). */
#define STREAM_FIRST (64U << 10)

/* A copy kept until the reader is closed (stream-mode features, names). */
struct blob {
	struct blob *next;
	unsigned char data[];
};

struct rd_attr {
	struct perfev_data_attr pub;
	unsigned char *attr; /* PERFEV__PD_ATTR_BUF or attr.size bytes, zero-filled */
	uint64_t *ids;
	char *name;
};

struct rd_feat {
	const unsigned char *data;
	size_t len;
	bool present;
};

struct perfev_data_reader {
	bool pipe;
	/* Memory source: the caller's bytes, a mapping or a copy of a stream. */
	const unsigned char *buf;
	size_t len;
	void *map;
	size_t map_len;
	void *copy;
	/* Stream source (pipe mode from a pipe): records are read one by one. */
	bool stream;
	int fd;
	bool own_fd;
	unsigned char *rbuf; /* the current record */
	size_t rcap;
	unsigned char *pbuf; /* data that follows it outside its size */
	size_t pcap;

	uint64_t pos, end; /* the next record; where the records end (memory source) */
	uint64_t data_offset, data_size; /* the file header's data section (file mode) */
	int err;			 /* sticky: the reader stops at the first error */
	bool eof;

	struct rd_attr **attrs; /* pointers, so that they stay put as the list grows */
	size_t nattrs, attrs_cap;
	struct perfev__hashmap ids; /* event id -> index into attrs */
	struct rd_feat feats[PERFEV_FEAT_MAX];
	struct blob *blobs;

	/* PERF_RECORD_COMPRESSED: its payload is decompressed at the call after it is returned. */
	struct perfev__unzip *unzip;
	const unsigned char *zpayload;
	size_t zlen;
	bool zfeed;
	uint64_t zoffset;  /* of the COMPRESSED record whose records are handed out */
	bool decompressed; /* the record returned last came out of one */

	/*
	 * perf's directory format (perf record --threads): the header file
	 * "data", then the records of each data.N, mapped, read in turn
	 * after its data section (offsets are within each file).
	 */
	struct rd_seg {
		void *map;
		size_t len;
	} * segs;
	size_t nsegs, seg; /* seg: the next to read */
};

/* The most data.N files of a directory read (perf writes one per recording thread). */
#define DIR_MAX_FILES 4096

/* ---- bounded cursor over a feature's bytes ---------------------------------------- */

struct cur {
	const unsigned char *p;
	size_t left;
};

static int cur_skip(struct cur *c, uint64_t n)
{
	if (n > c->left)
		return -EBADMSG;
	c->p += n;
	c->left -= n;
	return 0;
}

static int cur_u32(struct cur *c, uint32_t *v)
{
	if (c->left < 4)
		return -EBADMSG;
	*v = perfev__pd_u32(c->p);
	return cur_skip(c, 4);
}

/* A perf_header_string: u32 len (NUL and padding included), then the bytes. */
static int cur_string(struct cur *c, const char **s, size_t *slen)
{
	const unsigned char *nul;
	uint32_t len;
	int ret;

	ret = cur_u32(c, &len);
	if (ret)
		return ret;
	if (len > c->left)
		return -EBADMSG;
	nul = memchr(c->p, 0, len);
	if (!nul)
		return -EBADMSG;
	*s = (const char *)c->p;
	*slen = (size_t)(nul - c->p);
	return cur_skip(c, len);
}

/* ---- building the reader -------------------------------------------------------- */

static void *keep(struct perfev_data_reader *r, const void *data, size_t len)
{
	struct blob *b = malloc(sizeof(*b) + len + 1);

	if (!b)
		return NULL;
	/* An empty TRACING_DATA has no payload buffer: @data may be NULL. */
	if (len)
		memcpy(b->data, data, len);
	b->data[len] = '\0';
	b->next = r->blobs;
	r->blobs = b;
	return b->data;
}

static void attr_free(struct rd_attr *a)
{
	if (!a)
		return;
	free(a->attr);
	free(a->ids);
	free(a->name);
	free(a);
}

/*
 * Add an event from its attr bytes (@avail of them hold it; attr.size
 * says how many it uses) and @nids unaligned u64 ids.
 */
static int add_attr(struct perfev_data_reader *r, const unsigned char *p, size_t avail,
		    const unsigned char *ids, size_t nids)
{
	struct rd_attr *a;
	uint32_t size;
	size_t i;
	int ret;

	if (avail < PERFEV__PD_ATTR_MIN)
		return -EBADMSG;
	size = perfev__pd_u32(p + offsetof(struct perf_event_attr, size));
	if (!size)
		size = PERFEV__PD_ATTR_MIN; /* the first ABI did not set it */
	if (size < PERFEV__PD_ATTR_MIN || size > avail || size > PERFEV__PD_ATTR_MAX)
		return -EBADMSG;
	if (r->nattrs >= (size_t)LONG_MAX)
		return -EBADMSG;
	ret = perfev__grow(&r->attrs, &r->attrs_cap, r->nattrs + 1, sizeof(*r->attrs));
	if (ret)
		return ret;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	a->attr = calloc(1, size > PERFEV__PD_ATTR_BUF ? size : PERFEV__PD_ATTR_BUF);
	if (!a->attr)
		goto nomem;
	memcpy(a->attr, p, size);
	perfev__pd_put32(a->attr + offsetof(struct perf_event_attr, size), size);
	if (nids) {
		a->ids = malloc(nids * sizeof(*a->ids)); /* nids * 8 <= the input's length */
		if (!a->ids)
			goto nomem;
		memcpy(a->ids, ids, nids * sizeof(*a->ids));
	}
	a->pub.attr = (const struct perf_event_attr *)a->attr;
	a->pub.ids = a->ids;
	a->pub.nids = nids;
	ret = perfev_sample_layout_init(&a->pub.layout, a->pub.attr);
	if (ret) {
		/* Sample fields this library does not know: it cannot frame them. */
		attr_free(a);
		return ret == -ENOMEM ? ret : -EPROTO;
	}
	for (i = 0; i < nids; i++) {
		ret = perfev__pd_id_add(&r->ids, a->ids[i], r->nattrs);
		if (ret) {
			attr_free(a);
			return ret;
		}
	}
	r->attrs[r->nattrs++] = a;
	return 0;
nomem:
	attr_free(a);
	return -ENOMEM;
}

static int set_name(struct rd_attr *a, const char *s, size_t len)
{
	/* A name, once set, stays: callers may hold the pointer. */
	if (a->name)
		return 0;
	a->name = perfev__strndup(s, len);
	if (!a->name)
		return -ENOMEM;
	a->pub.name = a->name;
	return 0;
}

/*
 * EVENT_DESC: u32 nr, u32 attr_size, then per event the attr, u32 nr_ids,
 * the name and the ids.  Names go to the events of the same index (as
 * perf matches them) that have none yet; the whole section is checked first.
 */
static int apply_event_desc(struct perfev_data_reader *r, const unsigned char *p, size_t len)
{
	struct cur c = {p, len};
	uint32_t nr, asz, nids, i;
	const char *name;
	size_t nlen;
	int ret, pass;

	for (pass = 0; pass < 2; pass++) {
		c.p = p;
		c.left = len;
		if ((ret = cur_u32(&c, &nr)) || (ret = cur_u32(&c, &asz)))
			return ret;
		for (i = 0; i < nr; i++) {
			if ((ret = cur_skip(&c, asz)) || (ret = cur_u32(&c, &nids)) ||
			    (ret = cur_string(&c, &name, &nlen)) ||
			    (ret = cur_skip(&c, (uint64_t)nids * 8)))
				return ret;
			if (pass == 1 && i < r->nattrs) {
				ret = set_name(r->attrs[i], name, nlen);
				if (ret)
					return ret;
			}
		}
	}
	return 0;
}

static int set_feature(struct perfev_data_reader *r, uint64_t feat, const unsigned char *data,
		       size_t len)
{
	if (feat >= PERFEV_FEAT_MAX)
		return 0; /* not a bit of the bitmap: nobody can ask for it */
	if (r->stream || r->decompressed) {
		data = keep(r, data, len);
		if (!data)
			return -ENOMEM;
	}
	r->feats[feat].data = data;
	r->feats[feat].len = len;
	r->feats[feat].present = true;
	if (feat == PERFEV_FEAT_EVENT_DESC)
		return apply_event_desc(r, data, len);
	return 0;
}

static bool in_file(const struct perfev_data_reader *r, uint64_t off, uint64_t size)
{
	return off <= r->len && size <= r->len - off;
}

/* File mode: the header, the attrs and their ids, the sections of the features. */
static int parse_file(struct perfev_data_reader *r, uint64_t hsize)
{
	const unsigned char *b = r->buf;
	uint64_t attr_size, aoff, asize, doff, dsize, nattrs, i, nfeat = 0, k = 0;
	uint64_t bitmap[PERFEV_FEAT_MAX / 64] = {0};
	int ret;

	if (r->len < hsize)
		return -EBADMSG;
	attr_size = perfev__pd_u64(b + PERFEV__PD_OFF_ATTR_SIZE);
	aoff = perfev__pd_u64(b + PERFEV__PD_OFF_ATTRS);
	asize = perfev__pd_u64(b + PERFEV__PD_OFF_ATTRS + 8);
	doff = perfev__pd_u64(b + PERFEV__PD_OFF_DATA);
	dsize = perfev__pd_u64(b + PERFEV__PD_OFF_DATA + 8);
	if (!in_file(r, aoff, asize) || !in_file(r, doff, dsize))
		return -EBADMSG;
	if (asize) {
		if (attr_size < PERFEV__PD_ATTR_MIN + PERFEV__PD_SECTION_SIZE ||
		    attr_size > PERFEV__PD_ATTR_MAX + PERFEV__PD_SECTION_SIZE || asize % attr_size)
			return -EBADMSG;
	}
	nattrs = asize ? asize / attr_size : 0;
	for (i = 0; i < nattrs; i++) {
		const unsigned char *slot = b + aoff + i * attr_size;
		const unsigned char *sec = slot + attr_size - PERFEV__PD_SECTION_SIZE;
		uint64_t ioff = perfev__pd_u64(sec), isize = perfev__pd_u64(sec + 8);

		if (!in_file(r, ioff, isize) || isize % 8)
			return -EBADMSG;
		ret = add_attr(r, slot, attr_size - PERFEV__PD_SECTION_SIZE, b + ioff, isize / 8);
		if (ret)
			return ret;
	}
	r->pos = doff;
	r->end = doff + dsize;
	r->data_offset = doff;
	r->data_size = dsize;

	/* Features: one section per set bit, in bit order, right after the data. */
	if (hsize == PERFEV__PD_HDR_SIZE)
		for (i = 0; i < PERFEV_FEAT_MAX / 64; i++) {
			bitmap[i] = perfev__pd_u64(b + PERFEV__PD_OFF_FEATURES + i * 8);
			nfeat += (uint64_t)__builtin_popcountll(bitmap[i]);
		}
	if (!in_file(r, r->end, nfeat * PERFEV__PD_SECTION_SIZE))
		return -EBADMSG;
	for (i = 0; i < PERFEV_FEAT_MAX; i++) {
		const unsigned char *sec;
		uint64_t foff, fsize;

		if (!(bitmap[i / 64] & (1ULL << (i % 64))))
			continue;
		sec = b + r->end + k++ * PERFEV__PD_SECTION_SIZE;
		foff = perfev__pd_u64(sec);
		fsize = perfev__pd_u64(sec + 8);
		if (!in_file(r, foff, fsize))
			return -EBADMSG;
		ret = set_feature(r, i, b + foff, fsize);
		if (ret)
			return ret;
	}
	return 0;
}

/* 0 for PERFILE2 in this host's byte order, -EPROTO for versions not read, else -EBADMSG. */
static int check_magic(const unsigned char *p)
{
	uint64_t magic = perfev__pd_u64(p);

	if (magic == PERFEV__PD_MAGIC)
		return 0;
	/* PERFILE1, or a file from a host of the other byte order. */
	if (!memcmp(p, PERFEV__PD_MAGIC1, 8) || magic == PERFEV__PD_MAGIC_SWAPPED)
		return -EPROTO;
	return -EBADMSG;
}

static int parse_mem(struct perfev_data_reader *r)
{
	uint64_t hsize;
	int ret;

	if (r->len < PERFEV__PD_PIPE_HDR_SIZE)
		return -EBADMSG;
	ret = check_magic(r->buf);
	if (ret)
		return ret;
	hsize = perfev__pd_u64(r->buf + 8);
	if (hsize == PERFEV__PD_PIPE_HDR_SIZE) {
		r->pipe = true;
		r->pos = PERFEV__PD_PIPE_HDR_SIZE;
		r->end = r->len;
		return 0;
	}
	if (hsize != PERFEV__PD_HDR_SIZE && hsize != PERFEV__PD_HDR_SIZE_OLD)
		return -EBADMSG;
	return parse_file(r, hsize);
}

static int reader_new(const struct perfev_data_open_opts *opts, struct perfev_data_reader **out)
{
	if (!out || !perfev__opts_ok(opts, opts ? opts->sz : 0, sizeof(*opts)))
		return -EINVAL;
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	(*out)->fd = -1;
	return 0;
}

int perfev_data_open_mem(const void *buf, size_t len, const struct perfev_data_open_opts *opts,
			 struct perfev_data_reader **out)
{
	struct perfev_data_reader *r;
	int ret;

	if ((!buf && len) || !out)
		return -EINVAL;
	ret = reader_new(opts, &r);
	if (ret)
		return ret;
	r->buf = buf;
	r->len = len;
	ret = parse_mem(r);
	if (ret) {
		perfev_data_close(r);
		return ret;
	}
	*out = r;
	return 0;
}

/* Read up to @n bytes; fewer only at end of stream.  Returns the count or -errno. */
static ssize_t read_full(int fd, void *buf, size_t n)
{
	size_t got = 0;
	ssize_t k;

	while (got < n) {
		k = read(fd, (unsigned char *)buf + got, n - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		if (k == 0)
			break;
		got += (size_t)k;
	}
	return (ssize_t)got;
}

/*
 * Read exactly @n bytes into *@buf (grown as data arrives, so a lying
 * size costs no more memory than the stream holds).  -EBADMSG when the
 * stream ends first.
 */
static int read_grow(int fd, unsigned char **buf, size_t *cap, size_t have, uint64_t n)
{
	uint64_t want;
	ssize_t k;
	int ret;

	if (n > SIZE_MAX - have)
		return -ENOMEM;
	while (n) {
		want = n < STREAM_CHUNK ? n : STREAM_CHUNK;
		ret = perfev__grow(buf, cap, have + want, 1);
		if (ret)
			return ret;
		k = read_full(fd, *buf + have, want);
		if (k < 0)
			return (int)k;
		if ((uint64_t)k < want)
			return -EBADMSG;
		have += want;
		n -= want;
	}
	return 0;
}

/*
 * A descriptor that is not a regular file: pipe mode is read record by
 * record; a file-mode header means the whole stream is needed in memory.
 */
static int open_stream(struct perfev_data_reader *r)
{
	unsigned char hdr[PERFEV__PD_PIPE_HDR_SIZE];
	unsigned char *all = NULL;
	size_t cap = 0, len;
	ssize_t k;
	int ret;

	k = read_full(r->fd, hdr, sizeof(hdr));
	if (k < 0)
		return (int)k;
	if ((size_t)k < sizeof(hdr))
		return -EBADMSG;
	ret = check_magic(hdr);
	if (ret)
		return ret;
	if (perfev__pd_u64(hdr + 8) == PERFEV__PD_PIPE_HDR_SIZE) {
		r->pipe = true;
		r->stream = true;
		r->pos = PERFEV__PD_PIPE_HDR_SIZE;
		return 0;
	}
	/* From a small buffer, doubled as it fills: a small file costs little. */
	ret = perfev__grow(&all, &cap, STREAM_FIRST, 1);
	if (ret)
		return ret;
	memcpy(all, hdr, sizeof(hdr));
	len = sizeof(hdr);
	for (;;) {
		size_t room;

		if (len == cap) {
			ret = perfev__grow(&all, &cap, len + 1, 1);
			if (ret)
				goto err;
		}
		room = cap - len;
		k = read_full(r->fd, all + len, room);
		if (k < 0) {
			ret = (int)k;
			goto err;
		}
		len += (size_t)k;
		if ((size_t)k < room)
			break;
	}
	r->copy = all;
	r->buf = all;
	r->len = len;
	return parse_mem(r);
err:
	free(all);
	return ret;
}

/*
 * @len bytes of @fd mapped read-only, or MAP_FAILED.  The rest of the last page reads as
 * zeros, not as a fault: under AddressSanitizer it is marked unaddressable while mapped, so
 * that a read past a file's end is reported as one past a buffer of its size would be.
 */
static void *map_ro(int fd, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);

	if (p != MAP_FAILED && len % page)
		PD_POISON((unsigned char *)p + len, page - len % page);
	return p;
}

static void unmap_ro(void *p, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	if (len % page)
		PD_UNPOISON((unsigned char *)p + len, page - len % page);
	munmap(p, len);
}

/* A regular file mapped whole: 0, or -errno (-EBADMSG for an empty one). */
static int map_file(int fd, void **map, size_t *len)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EBADMSG;
	*len = 0;
	*map = NULL;
	if (st.st_size <= 0)
		return 0;
	if ((uint64_t)st.st_size > SIZE_MAX)
		return -EFBIG;
	*map = map_ro(fd, (size_t)st.st_size);
	if (*map == MAP_FAILED) {
		*map = NULL;
		return -errno;
	}
	*len = (size_t)st.st_size;
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * perf's directory format: the header file "data" (which says
 * DIR_FORMAT), then every data.N in the order of N.  Nothing is
 * followed through a symbolic link.
 */
static int open_dir(struct perfev_data_reader *r, int dirfd)
{
	uint32_t *nums = NULL, n = 0;
	struct dirent *de;
	int fd, ret, dfd;
	DIR *d;

	fd = openat(dirfd, "data", O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return errno == ENOENT ? -EISDIR : -errno;
	ret = map_file(fd, &r->map, &r->map_len);
	close(fd);
	if (!ret && !r->map)
		ret = -EBADMSG;
	if (ret)
		return ret;
	r->buf = r->map;
	r->len = r->map_len;
	ret = parse_mem(r);
	if (ret)
		return ret;
	if (r->pipe || !r->feats[PERFEV_FEAT_DIR_FORMAT].present) {
		perfev__log(PERFEV_LOG_ERROR, "a directory whose 'data' does not say DIR_FORMAT: "
					      "not one perf record --threads wrote");
		return -EBADMSG;
	}
	dfd = dup(dirfd);
	d = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return -errno;
	}
	nums = calloc(DIR_MAX_FILES, sizeof(*nums));
	if (!nums) {
		closedir(d);
		return -ENOMEM;
	}
	while ((de = readdir(d))) {
		char *end;
		unsigned long v;

		if (strncmp(de->d_name, "data.", 5) || !isdigit((unsigned char)de->d_name[5]))
			continue;
		v = strtoul(de->d_name + 5, &end, 10);
		if (*end || v > UINT32_MAX)
			continue;
		if (n == DIR_MAX_FILES) {
			ret = -E2BIG;
			break;
		}
		nums[n++] = (uint32_t)v;
	}
	closedir(d);
	if (!ret) {
		qsort(nums, n, sizeof(*nums), cmp_u32);
		r->segs = calloc(n ? n : 1, sizeof(*r->segs));
		if (!r->segs)
			ret = -ENOMEM;
	}
	for (uint32_t i = 0; !ret && i < n; i++) {
		char name[32];

		snprintf(name, sizeof(name), "data.%u", nums[i]);
		fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0) {
			ret = -errno;
			break;
		}
		ret = map_file(fd, &r->segs[i].map, &r->segs[i].len);
		close(fd);
		r->nsegs = i + 1;
	}
	free(nums);
	return ret;
}

static int open_fd(int fd, bool own, const struct perfev_data_open_opts *opts,
		   struct perfev_data_reader **out)
{
	struct perfev_data_reader *r;
	struct stat st;
	int ret;

	ret = out ? reader_new(opts, &r) : -EINVAL;
	if (ret) {
		if (own)
			close(fd);
		return ret;
	}
	r->fd = fd;
	r->own_fd = own;
	if (fstat(fd, &st)) {
		ret = -errno;
		goto err;
	}
	if (S_ISDIR(st.st_mode)) {
		ret = open_dir(r, fd);
		if (ret)
			goto err;
		*out = r;
		return 0;
	}
	if (S_ISREG(st.st_mode)) {
		if (st.st_size <= 0 || (uint64_t)st.st_size > SIZE_MAX) {
			ret = -EBADMSG;
			goto err;
		}
		/* The whole file, whatever the descriptor's position. */
		r->map = map_ro(fd, (size_t)st.st_size);
		if (r->map == MAP_FAILED) {
			r->map = NULL;
			ret = -errno;
			goto err;
		}
		r->map_len = (size_t)st.st_size;
		/* The mapping is all the reader needs. */
		if (own) {
			close(fd);
			r->fd = -1;
			r->own_fd = false;
		}
		r->buf = r->map;
		r->len = r->map_len;
		ret = parse_mem(r);
	} else {
		ret = open_stream(r);
	}
	if (ret)
		goto err;
	*out = r;
	return 0;
err:
	perfev_data_close(r);
	return ret;
}

int perfev_data_open_fd(int fd, const struct perfev_data_open_opts *opts,
			struct perfev_data_reader **out)
{
	if (fd < 0)
		return -EBADF;
	return open_fd(fd, false, opts, out);
}

int perfev_data_open(const char *path, const struct perfev_data_open_opts *opts,
		     struct perfev_data_reader **out)
{
	int fd;

	if (!path)
		return -EINVAL;
	if (!strcmp(path, "-"))
		return open_fd(STDIN_FILENO, false, opts, out);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	return open_fd(fd, true, opts, out);
}

void perfev_data_close(struct perfev_data_reader *r)
{
	struct blob *b, *next;
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nattrs; i++)
		attr_free(r->attrs[i]);
	free(r->attrs);
	perfev__hashmap_release(&r->ids);
	for (b = r->blobs; b; b = next) {
		next = b->next;
		free(b);
	}
	if (r->map)
		unmap_ro(r->map, r->map_len);
	for (i = 0; i < r->nsegs; i++)
		if (r->segs[i].map)
			unmap_ro(r->segs[i].map, r->segs[i].len);
	free(r->segs);
	free(r->copy);
	free(r->rbuf);
	free(r->pbuf);
	perfev__unzip_free(r->unzip);
	if (r->own_fd)
		close(r->fd);
	free(r);
}

bool perfev_data_is_pipe(const struct perfev_data_reader *r)
{
	return r && r->pipe;
}

int perfev_data_section(const struct perfev_data_reader *r, uint64_t *offset, uint64_t *size)
{
	if (!r)
		return -EINVAL;
	if (r->pipe)
		return -ENOENT;
	if (offset)
		*offset = r->data_offset;
	if (size)
		*size = r->data_size;
	return 0;
}

size_t perfev_data_attr_count(const struct perfev_data_reader *r)
{
	return r ? r->nattrs : 0;
}

const struct perfev_data_attr *perfev_data_attr(const struct perfev_data_reader *r, size_t idx)
{
	return r && idx < r->nattrs ? &r->attrs[idx]->pub : NULL;
}

const struct perfev_data_attr *perfev_data_attr_by_id(const struct perfev_data_reader *r,
						      uint64_t id)
{
	uint64_t idx;

	if (!r || !perfev__hashmap_find(&r->ids, id, &idx))
		return NULL;
	/* An id left by an event that failed to be added has no event. */
	return idx >= r->nattrs ? NULL : &r->attrs[idx]->pub;
}

/* ---- records ----------------------------------------------------------------------- */

/*
 * The event of a kernel record, as perf finds it: the only event, the
 * first one for records without ids, else by the id the first event's
 * layout locates (synthesized records carry id 0: the first event).
 */
static const struct perfev_data_attr *record_attr(const struct perfev_data_reader *r,
						  const unsigned char *bytes, uint32_t type,
						  uint16_t size)
{
	const struct perfev_data_attr *first;
	uint64_t id;

	if (!r->nattrs || type >= PERFEV__PD_USER_TYPE_START)
		return NULL;
	first = &r->attrs[0]->pub;
	if (r->nattrs == 1)
		return first;
	if (type != PERF_RECORD_SAMPLE && !first->layout.sample_id_all)
		return first;
	if (perfev_record_id(&first->layout, bytes, size, &id))
		return NULL;
	if (!id)
		return first;
	return perfev_data_attr_by_id(r, id);
}

/* Bytes that follow a record outside its size: tracing data, AUX trace data. */
static int payload_size(const unsigned char *rec, uint32_t type, uint16_t size, uint64_t *n)
{
	*n = 0;
	if (type == PERFEV_RECORD_HEADER_TRACING_DATA) {
		/* header, u32 size (already padded to 8 by perf) */
		if (size < 12)
			return -EBADMSG;
		*n = perfev__pd_u32(rec + 8);
	} else if (type == PERFEV_RECORD_AUXTRACE) {
		/* header, u64 size, offset, reference, u32 idx, tid, cpu, reserved */
		if (size < 16)
			return -EBADMSG;
		*n = perfev__pd_u64(rec + 8);
	}
	return 0;
}

/* Header records: attrs and features are the reader's, not the caller's. */
static int consume(struct perfev_data_reader *r, const unsigned char *rec, uint32_t type,
		   uint16_t size, const unsigned char *payload, uint64_t plen, bool *taken)
{
	*taken = true;
	switch (type) {
	case PERFEV_RECORD_HEADER_ATTR: {
		uint32_t asize;

		if (size < 8 + PERFEV__PD_ATTR_MIN)
			return -EBADMSG;
		asize = perfev__pd_u32(rec + 8 + offsetof(struct perf_event_attr, size));
		if (!asize)
			asize = PERFEV__PD_ATTR_MIN;
		if (asize > (uint32_t)size - 8 || ((uint32_t)size - 8 - asize) % 8)
			return -EBADMSG;
		return add_attr(r, rec + 8, size - 8, rec + 8 + asize, (size - 8 - asize) / 8);
	}
	case PERFEV_RECORD_HEADER_FEATURE:
		if (size < 16)
			return -EBADMSG;
		/* An empty one ends the features (HEADER_LAST_FEATURE): nothing to keep. */
		if (size == 16)
			return 0;
		return set_feature(r, perfev__pd_u64(rec + 8), rec + 16, size - 16);
	case PERFEV_RECORD_HEADER_TRACING_DATA:
		return set_feature(r, PERFEV_FEAT_TRACING_DATA, payload, plen);
	case PERFEV_RECORD_EVENT_UPDATE:
		/* Returned, but an event's name (pipe mode has no EVENT_DESC up front) is noted. */
		*taken = false;
		if (size > PERFEV__PD_EVENT_UPDATE_HDR &&
		    perfev__pd_u64(rec + 8) == PERFEV__PD_EVENT_UPDATE_NAME) {
			const unsigned char *name = rec + PERFEV__PD_EVENT_UPDATE_HDR;
			size_t max = size - PERFEV__PD_EVENT_UPDATE_HDR;
			const struct perfev_data_attr *pa =
			    perfev_data_attr_by_id(r, perfev__pd_u64(rec + 16));
			const unsigned char *nul = memchr(name, 0, max);

			if (pa && nul)
				return set_name((struct rd_attr *)pa, (const char *)name,
						(size_t)(nul - name));
		}
		return 0;
	default:
		*taken = false;
		return 0;
	}
}

/* The next record from memory: @bytes points into the input. */
static int next_mem(struct perfev_data_reader *r, const unsigned char **bytes,
		    const unsigned char **payload, uint64_t *plen)
{
	const unsigned char *p;
	uint16_t size;
	int ret;

	/*
	 * A directory: the next data.N once a file's records are read; an
	 * empty one is skipped.  perf compresses each file as a stream of its
	 * own: the last one must be whole, and the next starts afresh.
	 */
	while (r->pos == r->end && r->seg < r->nsegs) {
		if (r->unzip) {
			ret = perfev__unzip_end(r->unzip, r->zoffset);
			if (ret)
				return ret;
			perfev__unzip_free(r->unzip);
			r->unzip = NULL;
		}
		r->buf = r->segs[r->seg].map;
		r->pos = 0;
		r->end = r->segs[r->seg++].len;
	}
	if (r->pos == r->end)
		return 0;
	if (r->end - r->pos < 8)
		return -EBADMSG;
	p = r->buf + r->pos;
	size = perfev__pd_u16(p + 6);
	if (size < 8 || size > r->end - r->pos)
		return -EBADMSG;
	ret = payload_size(p, perfev__pd_u32(p), size, plen);
	if (ret)
		return ret;
	if (*plen > r->end - r->pos - size)
		return -EBADMSG;
	*bytes = p;
	*payload = p + size;
	return 1;
}

/* The next record from a stream, into the reader's buffers. */
static int next_stream(struct perfev_data_reader *r, const unsigned char **bytes,
		       const unsigned char **payload, uint64_t *plen)
{
	unsigned char hdr[8];
	uint16_t size;
	ssize_t k;
	int ret;

	k = read_full(r->fd, hdr, sizeof(hdr));
	if (k < 0)
		return (int)k;
	if (k == 0)
		return 0;
	if ((size_t)k < sizeof(hdr))
		return -EBADMSG;
	size = perfev__pd_u16(hdr + 6);
	if (size < 8)
		return -EBADMSG;
	ret = perfev__grow(&r->rbuf, &r->rcap, size, 1);
	if (ret)
		return ret;
	memcpy(r->rbuf, hdr, sizeof(hdr));
	ret = read_grow(r->fd, &r->rbuf, &r->rcap, sizeof(hdr), size - sizeof(hdr));
	if (ret)
		return ret;
	ret = payload_size(r->rbuf, perfev__pd_u32(r->rbuf), size, plen);
	if (ret)
		return ret;
	ret = read_grow(r->fd, &r->pbuf, &r->pcap, 0, *plen);
	if (ret)
		return ret;
	*bytes = r->rbuf;
	*payload = r->pbuf;
	return 1;
}

/*
 * The next record of a COMPRESSED record's payload, fed first if it was
 * just returned: 1 with @bytes set, 0 when none is left, or an error.
 */
static int next_decompressed(struct perfev_data_reader *r, const unsigned char **bytes)
{
	int ret;

	if (r->zfeed) {
		r->zfeed = false;
		if (!r->unzip && (ret = perfev__unzip_new(&r->unzip)))
			return ret;
		ret = perfev__unzip_feed(r->unzip, r->zpayload, r->zlen, r->zoffset);
		if (ret)
			return ret;
	}
	if (!r->unzip)
		return 0;
	return perfev__unzip_next(r->unzip, bytes);
}

/* The next record of the file or stream: 1 with @bytes set, 0 at the end, or an error. */
static int next_record(struct perfev_data_reader *r, const unsigned char **bytes,
		       const unsigned char **payload, uint64_t *plen)
{
	int ret;

	r->decompressed = false;
	ret = next_decompressed(r, bytes);
	if (ret) {
		r->decompressed = ret > 0;
		return ret;
	}
	ret = r->stream ? next_stream(r, bytes, payload, plen) : next_mem(r, bytes, payload, plen);
	if (ret == 0)
		return perfev__unzip_end(r->unzip, r->zoffset);
	return ret;
}

int perfev_data_next(struct perfev_data_reader *r, struct perfev_data_record *rec)
{
	const unsigned char *bytes = NULL, *payload = NULL;
	uint64_t plen = 0, offset;
	uint32_t type;
	uint16_t size;
	bool taken;
	int ret;

	if (!r || !rec)
		return -EINVAL;
	for (;;) {
		if (r->err)
			return r->err;
		if (r->eof)
			return 0;
		plen = 0;
		ret = next_record(r, &bytes, &payload, &plen);
		if (ret <= 0) {
			if (ret == 0)
				r->eof = true;
			else
				r->err = ret;
			return ret;
		}
		type = perfev__pd_u32(bytes);
		size = perfev__pd_u16(bytes + 6);
		offset = r->decompressed ? r->zoffset : r->pos;
		if (r->decompressed) {
			/* perf compresses ring data: no record with data after it, no nesting. */
			ret = payload_size(bytes, type, size, &plen);
			if (!ret && (plen || type == PERFEV_RECORD_COMPRESSED)) {
				perfev__log(
				    PERFEV_LOG_ERROR,
				    "the PERF_RECORD_COMPRESSED record at offset %#llx holds a "
				    "record of type %u, which cannot be compressed",
				    (unsigned long long)offset, type);
				ret = -EBADMSG;
			}
			if (ret) {
				r->err = ret;
				return ret;
			}
		}
		ret = consume(r, bytes, type, size, payload, plen, &taken);
		if (ret) {
			r->err = ret;
			return ret;
		}
		memset(rec, 0, sizeof(*rec));
		rec->type = type;
		rec->misc = perfev__pd_u16(bytes + 4);
		rec->size = size;
		rec->bytes = bytes;
		rec->offset = offset;
		rec->payload = plen ? payload : NULL;
		rec->payload_size = plen;
		if (!r->decompressed) {
			/* pos + size + plen <= end (memory) or the stream's length, which fits. */
			r->pos += size + plen;
			if (type == PERFEV_RECORD_COMPRESSED) {
				/* Decompressed at the next call: the record is shown first (-D). */
				r->zfeed = true;
				r->zpayload = bytes + 8;
				r->zlen = size - 8u;
				r->zoffset = offset;
			}
		}
		if (taken)
			continue;
		rec->attr = record_attr(r, bytes, type, size);
		return 1;
	}
}

bool perfev_data_record_decompressed(const struct perfev_data_reader *r)
{
	return r && r->decompressed;
}

/* ---- features ---------------------------------------------------------------------- */

int perfev_data_feature(const struct perfev_data_reader *r, int feat, const void **data,
			size_t *len)
{
	if (!r || feat < 0 || feat >= PERFEV_FEAT_MAX)
		return -EINVAL;
	if (!r->feats[feat].present)
		return -ENOENT;
	if (data)
		*data = r->feats[feat].data;
	if (len)
		*len = r->feats[feat].len;
	return 0;
}

static bool string_feature(int feat)
{
	switch (feat) {
	case PERFEV_FEAT_HOSTNAME:
	case PERFEV_FEAT_OSRELEASE:
	case PERFEV_FEAT_VERSION:
	case PERFEV_FEAT_ARCH:
	case PERFEV_FEAT_CPUDESC:
	case PERFEV_FEAT_CPUID:
		return true;
	default:
		return false;
	}
}

/* Append @s to @buf as snprintf would; @total counts what did not fit too. */
static void put(char *buf, size_t len, size_t *total, const char *s, size_t n)
{
	if (*total < len) {
		size_t room = len - 1 - *total;

		memcpy(buf + *total, s, n < room ? n : room);
	}
	*total += n;
}

int perfev_data_feature_string(const struct perfev_data_reader *r, int feat, char *buf, size_t len)
{
	const void *data;
	struct cur c;
	size_t total = 0, slen, flen;
	uint32_t nr = 1, i;
	const char *s;
	int ret;

	if (!r || (!buf && len) || (!string_feature(feat) && feat != PERFEV_FEAT_CMDLINE))
		return -EINVAL;
	ret = perfev_data_feature(r, feat, &data, &flen);
	if (ret)
		return ret;
	c.p = data;
	c.left = flen;
	if (feat == PERFEV_FEAT_CMDLINE && (ret = cur_u32(&c, &nr)))
		return ret;
	for (i = 0; i < nr; i++) {
		ret = cur_string(&c, &s, &slen);
		if (ret)
			return ret;
		if (i)
			put(buf, len, &total, " ", 1);
		put(buf, len, &total, s, slen);
	}
	if (len)
		buf[total < len ? total : len - 1] = '\0';
	/* total <= the feature's length, which may still exceed an int. */
	return total > INT_MAX ? -EOVERFLOW : (int)total;
}

int perfev_data_feature_u64(const struct perfev_data_reader *r, int feat, unsigned int idx,
			    uint64_t *val)
{
	const unsigned char *p;
	unsigned int n, width;
	size_t flen;
	const void *data;
	int ret;

	if (!r || !val)
		return -EINVAL;
	switch (feat) {
	case PERFEV_FEAT_NRCPUS:
		n = 2;
		width = 4;
		break;
	case PERFEV_FEAT_SAMPLE_TIME:
		n = 2;
		width = 8;
		break;
	case PERFEV_FEAT_TOTAL_MEM:
	case PERFEV_FEAT_CLOCKID:
		n = 1;
		width = 8;
		break;
	default:
		return -EINVAL;
	}
	if (idx >= n)
		return -EINVAL;
	ret = perfev_data_feature(r, feat, &data, &flen);
	if (ret)
		return ret;
	if (flen < (size_t)n * width)
		return -EBADMSG;
	p = (const unsigned char *)data + (size_t)idx * width;
	*val = width == 4 ? perfev__pd_u32(p) : perfev__pd_u64(p);
	return 0;
}

int perfev_data_clock(const struct perfev_data_reader *r, struct perfev_data_clock *out)
{
	const unsigned char *p;
	const void *data;
	size_t flen;
	int ret;

	if (!r || !out)
		return -EINVAL;
	ret = perfev_data_feature(r, PERFEV_FEAT_CLOCK_DATA, &data, &flen);
	if (ret)
		return ret;
	p = data;
	if (flen < 24)
		return -EBADMSG;
	if (perfev__pd_u32(p) != 1)
		return -EPROTO;
	out->clockid = (int32_t)perfev__pd_u32(p + 4);
	out->tod_ns = perfev__pd_u64(p + 8);
	out->clockid_ns = perfev__pd_u64(p + 16);
	if (perfev_data_feature_u64(r, PERFEV_FEAT_CLOCKID, 0, &out->res_ns))
		out->res_ns = 0;
	return 0;
}

int perfev_data_group(const struct perfev_data_reader *r, size_t idx, struct perfev_data_group *out)
{
	const void *data;
	struct cur c;
	uint32_t nr, i, leader, members;
	const char *name;
	size_t flen, nlen;
	int ret;

	if (!r || !out)
		return -EINVAL;
	ret = perfev_data_feature(r, PERFEV_FEAT_GROUP_DESC, &data, &flen);
	if (ret)
		return ret;
	c.p = data;
	c.left = flen;
	ret = cur_u32(&c, &nr);
	if (ret)
		return ret;
	if (idx >= nr)
		return -ERANGE;
	/* Each group: its name (a perf_header_string), the leader's index, the member count. */
	for (i = 0;; i++) {
		ret = cur_string(&c, &name, &nlen);
		if (!ret)
			ret = cur_u32(&c, &leader);
		if (!ret)
			ret = cur_u32(&c, &members);
		if (ret)
			return ret;
		if (i == idx)
			break;
	}
	/* A group holds its leader; the count and the index fit in the events perf can have. */
	if (!members || leader > UINT32_MAX - members)
		return -EBADMSG;
	out->name = strcmp(name, "{anon_group}") ? name : NULL;
	out->leader = leader;
	out->nr_members = members;
	return 0;
}
