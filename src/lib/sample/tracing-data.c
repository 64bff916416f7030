// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tracing data (perf.data's TRACING_DATA feature), parsed.  Pure: a
 * function of the bytes, in the byte order they declare.  The layout, as
 * perfdata-tracing.c writes it:
 *
 *   "\x17\x08\x44tracing"  version "0.6\0"  u8 big endian  u8 sizeof(long)
 *   u32 page size
 *   "header_page\0"  u64 size + text;  "header_event\0"  u64 size + text
 *   u32 count, each u64 size + an ftrace format
 *   u32 systems, each "name\0" u32 count, each u64 size + a format file
 *   u32 size + kallsyms;  u32 size + printk_formats
 *   (0.6) u64 size + saved_cmdlines
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/tracing-data.h>
#include "common/internal.h"
#include "event/tp-format-internal.h"

#define N_SECTIONS (PERFEV_TRACING_SAVED_CMDLINES + 1)

struct section {
	const char *p;
	size_t len;
	bool present;
};

/* An event's id and position, to find it by id. */
struct id_index {
	uint64_t id;
	size_t idx;
};

/* A format looked up by id: parsed once, the result kept. */
struct slot {
	struct perfev_tp_format *fmt;
	int err;
	bool tried;
};

struct perfev_tracing_data {
	unsigned char *buf; /* the copy everything points into */
	char version[16];
	bool big_endian;
	unsigned int long_size;
	uint32_t page_size;
	struct section sections[N_SECTIONS];
	struct perfev_tracing_event *events;
	struct slot *slots;
	size_t nevents;
	struct id_index *by_id; /* the events with an id, by id then position */
	size_t nids;
};

struct cursor {
	const unsigned char *p;
	size_t left;
	bool swap; /* the data's byte order is not this machine's */
};

static bool host_big_endian(void)
{
	const uint16_t one = 1;

	return *(const unsigned char *)&one == 0;
}

static int take(struct cursor *c, size_t n, const unsigned char **out)
{
	if (n > c->left)
		return -EBADMSG;
	*out = c->p;
	c->p += n;
	c->left -= n;
	return 0;
}

/* An unsigned number of @n (4 or 8) bytes in the data's byte order. */
static int get_num(struct cursor *c, size_t n, uint64_t *v)
{
	const unsigned char *p;
	uint32_t v32;

	if (take(c, n, &p))
		return -EBADMSG;
	if (n == sizeof(v32)) {
		memcpy(&v32, p, sizeof(v32));
		*v = c->swap ? __builtin_bswap32(v32) : v32;
	} else {
		memcpy(v, p, sizeof(*v));
		if (c->swap)
			*v = __builtin_bswap64(*v);
	}
	return 0;
}

static int get_u32(struct cursor *c, uint32_t *v)
{
	uint64_t n;

	if (get_num(c, sizeof(*v), &n))
		return -EBADMSG;
	*v = (uint32_t)n;
	return 0;
}

/* A NUL-terminated string. */
static int get_str(struct cursor *c, const char **s)
{
	const unsigned char *nul = c->left ? memchr(c->p, 0, c->left) : NULL, *p;

	if (!nul)
		return -EBADMSG;
	*s = (const char *)c->p;
	return take(c, (size_t)(nul - c->p) + 1, &p);
}

/* A text with its size (u32 or u64) before it. */
static int get_text(struct cursor *c, bool wide, const char **text, size_t *len)
{
	const unsigned char *p;
	uint64_t n;

	if (get_num(c, wide ? 8 : 4, &n))
		return -EBADMSG;
	if (n > c->left || take(c, (size_t)n, &p))
		return -EBADMSG;
	*text = (const char *)p;
	*len = (size_t)n;
	return 0;
}

static int get_section(struct cursor *c, bool wide, struct section *s)
{
	if (get_text(c, wide, &s->p, &s->len))
		return -EBADMSG;
	s->present = true;
	return 0;
}

/* "major.minor", digits only; true when it is 0.6 or later (saved cmdlines follow). */
static bool parse_version(const char *v, bool *cmdlines)
{
	unsigned long major = 0, minor = 0;
	const char *p = v;
	int digits = 0;

	for (; *p >= '0' && *p <= '9' && digits < 4; p++, digits++)
		major = major * 10 + (unsigned long)(*p - '0');
	if (!digits || *p++ != '.')
		return false;
	for (digits = 0; *p >= '0' && *p <= '9' && digits < 4; p++, digits++)
		minor = minor * 10 + (unsigned long)(*p - '0');
	if (!digits || *p)
		return false;
	*cmdlines = major > 0 || minor >= 6;
	return true;
}

/* The number on the format's "ID:" line; 0 when there is none. */
static uint64_t format_id(const char *t, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t e = i, k;
		uint64_t id = 0;

		while (e < n && t[e] != '\n')
			e++;
		k = i;
		while (k < e && (t[k] == ' ' || t[k] == '\t'))
			k++;
		if (e - k >= 3 && !memcmp(t + k, "ID:", 3)) {
			k += 3;
			while (k < e && (t[k] == ' ' || t[k] == '\t'))
				k++;
			if (k == e)
				return 0;
			for (; k < e && t[k] >= '0' && t[k] <= '9'; k++)
				if (__builtin_mul_overflow(id, 10, &id) ||
				    __builtin_add_overflow(id, (uint64_t)(t[k] - '0'), &id))
					return 0;
			while (k < e && (t[k] == ' ' || t[k] == '\t' || t[k] == '\r'))
				k++;
			return k == e ? id : 0;
		}
		i = e + 1;
	}
	return 0;
}

static int add_event(struct perfev_tracing_data *td, size_t *cap, const char *sys, const char *text,
		     size_t len)
{
	struct perfev_tracing_event *e;

	if (perfev__grow(&td->events, cap, td->nevents + 1, sizeof(*td->events)))
		return -ENOMEM;
	e = &td->events[td->nevents++];
	e->system = sys;
	e->format = text;
	e->format_len = len;
	e->id = format_id(text, len);
	return 0;
}

/* @count formats of system @sys, each with a u64 size. */
static int get_formats(struct perfev_tracing_data *td, struct cursor *c, size_t *cap,
		       const char *sys, uint32_t count)
{
	const char *text;
	size_t len;
	uint32_t i;
	int err;

	/* Each takes at least its size: a count the bytes cannot hold is corrupt. */
	if (count > c->left / 8)
		return -EBADMSG;
	for (i = 0; i < count; i++) {
		if (get_text(c, true, &text, &len))
			return -EBADMSG;
		err = add_event(td, cap, sys, text, len);
		if (err)
			return err;
	}
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	const struct id_index *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int parse(struct perfev_tracing_data *td, size_t len)
{
	static const unsigned char magic[] = {0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'};
	struct cursor c = {.p = td->buf, .left = len};
	const unsigned char *p;
	const char *s;
	size_t cap = 0, i;
	uint32_t n, nsys, k;
	bool cmdlines;
	int err;

	if (take(&c, sizeof(magic), &p) || memcmp(p, magic, sizeof(magic)))
		return -EBADMSG;
	if (get_str(&c, &s) || strlen(s) >= sizeof(td->version) || !parse_version(s, &cmdlines))
		return -EBADMSG;
	strcpy(td->version, s);
	if (take(&c, 2, &p) || p[0] > 1 || (p[1] != 4 && p[1] != 8))
		return -EBADMSG;
	td->big_endian = p[0];
	td->long_size = p[1];
	c.swap = td->big_endian != host_big_endian();
	if (get_u32(&c, &td->page_size))
		return -EBADMSG;
	if (get_str(&c, &s) || strcmp(s, "header_page") ||
	    get_section(&c, true, &td->sections[PERFEV_TRACING_HEADER_PAGE]))
		return -EBADMSG;
	if (get_str(&c, &s) || strcmp(s, "header_event") ||
	    get_section(&c, true, &td->sections[PERFEV_TRACING_HEADER_EVENT]))
		return -EBADMSG;
	if (get_u32(&c, &n))
		return -EBADMSG;
	err = get_formats(td, &c, &cap, "ftrace", n);
	if (err)
		return err;
	if (get_u32(&c, &nsys))
		return -EBADMSG;
	/* A system takes at least its name's NUL and its count. */
	if (nsys > c.left / 5)
		return -EBADMSG;
	for (k = 0; k < nsys; k++) {
		if (get_str(&c, &s) || get_u32(&c, &n))
			return -EBADMSG;
		err = get_formats(td, &c, &cap, s, n);
		if (err)
			return err;
	}
	/*
	 * The sections after the formats may be missing, all of them or the
	 * last ones; one that starts must be whole.  What follows the last
	 * one (pipe mode's padding) is not read.
	 */
	if (c.left && get_section(&c, false, &td->sections[PERFEV_TRACING_KALLSYMS]))
		return -EBADMSG;
	if (c.left && get_section(&c, false, &td->sections[PERFEV_TRACING_PRINTK]))
		return -EBADMSG;
	if (c.left && cmdlines &&
	    get_section(&c, true, &td->sections[PERFEV_TRACING_SAVED_CMDLINES]))
		return -EBADMSG;

	td->slots = calloc(td->nevents ? td->nevents : 1, sizeof(*td->slots));
	td->by_id = calloc(td->nevents ? td->nevents : 1, sizeof(*td->by_id));
	if (!td->slots || !td->by_id)
		return -ENOMEM;
	for (i = 0; i < td->nevents; i++)
		if (td->events[i].id)
			td->by_id[td->nids++] = (struct id_index){td->events[i].id, i};
	qsort(td->by_id, td->nids, sizeof(*td->by_id), cmp_id);
	return 0;
}

int perfev_tracing_data_parse(const void *buf, size_t len, struct perfev_tracing_data **out)
{
	struct perfev_tracing_data *td;
	int err;

	if ((!buf && len) || !out)
		return -EINVAL;
	td = calloc(1, sizeof(*td));
	if (!td)
		return -ENOMEM;
	td->buf = malloc(len ? len : 1);
	if (!td->buf) {
		free(td);
		return -ENOMEM;
	}
	if (len)
		memcpy(td->buf, buf, len);
	err = parse(td, len);
	if (err) {
		perfev_tracing_data_free(td);
		return err;
	}
	*out = td;
	return 0;
}

void perfev_tracing_data_free(struct perfev_tracing_data *td)
{
	size_t i;

	if (!td)
		return;
	if (td->slots)
		for (i = 0; i < td->nevents; i++)
			perfev_tp_format_free(td->slots[i].fmt);
	free(td->slots);
	free(td->by_id);
	free(td->events);
	free(td->buf);
	free(td);
}

const char *perfev_tracing_data_version(const struct perfev_tracing_data *td)
{
	return td->version;
}

bool perfev_tracing_data_big_endian(const struct perfev_tracing_data *td)
{
	return td->big_endian;
}

unsigned int perfev_tracing_data_long_size(const struct perfev_tracing_data *td)
{
	return td->long_size;
}

uint32_t perfev_tracing_data_page_size(const struct perfev_tracing_data *td)
{
	return td->page_size;
}

size_t perfev_tracing_data_event_count(const struct perfev_tracing_data *td)
{
	return td->nevents;
}

int perfev_tracing_data_event(const struct perfev_tracing_data *td, size_t idx,
			      struct perfev_tracing_event *out)
{
	if (!td || !out)
		return -EINVAL;
	if (idx >= td->nevents)
		return -ENOENT;
	*out = td->events[idx];
	return 0;
}

int perfev_tracing_data_section(const struct perfev_tracing_data *td,
				enum perfev_tracing_section which, const char **text, size_t *len)
{
	if (!td || !text || !len || (unsigned int)which >= N_SECTIONS)
		return -EINVAL;
	if (!td->sections[which].present)
		return -ENOENT;
	*text = td->sections[which].p;
	*len = td->sections[which].len;
	return 0;
}

/* The first event with @id, or SIZE_MAX. */
static size_t find_id(const struct perfev_tracing_data *td, uint64_t id)
{
	size_t lo = 0, hi = td->nids;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (td->by_id[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < td->nids && td->by_id[lo].id == id ? td->by_id[lo].idx : SIZE_MAX;
}

int perfev_tracing_data_format(struct perfev_tracing_data *td, uint64_t id,
			       const struct perfev_tp_format **out)
{
	const struct perfev_tracing_event *e;
	struct perfev__tp_env env;
	struct slot *s;
	size_t idx;

	if (!td || !out)
		return -EINVAL;
	idx = id ? find_id(td, id) : SIZE_MAX;
	if (idx == SIZE_MAX)
		return -ENOENT;
	s = &td->slots[idx];
	if (!s->tried) {
		e = &td->events[idx];
		env = (struct perfev__tp_env){
		    .long_size = td->long_size,
		    .big_endian = td->big_endian,
		    .printk = td->sections[PERFEV_TRACING_PRINTK].p,
		    .printk_len = td->sections[PERFEV_TRACING_PRINTK].len,
		};
		s->err =
		    perfev__tp_format_parse_env(e->system, e->format, e->format_len, &env, &s->fmt);
		/* libtraceevent reads the ID line itself: both must agree. */
		if (!s->err && perfev_tp_format_id(s->fmt) != id) {
			perfev_tp_format_free(s->fmt);
			s->fmt = NULL;
			s->err = -EBADMSG;
		}
		/* Out of memory may pass: try again next time. */
		s->tried = s->err != -ENOMEM;
		if (s->err)
			return s->err;
	}
	if (s->err)
		return s->err;
	*out = s->fmt;
	return 0;
}
