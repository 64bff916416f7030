// SPDX-License-Identifier: LGPL-2.1-or-later
/* perf.data writer: file mode (the header rewritten at the end) and pipe mode (one stream). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <perfev/event.h>
#include "common/internal.h"
#include "sample/perfdata-internal.h"

#define WBUF_SIZE    (256U * 1024)
#define PIPE_REC_MAX UINT16_MAX /* a record's size is a u16 */
#define NAME_MAX_LEN 4095
/* perf 6.2 and older refuse attrs larger than theirs (PERF_ATTR_SIZE_VER7). */
#define ATTR_COMPAT_SIZE 128
/* perf's struct perf_record_header_tracing_data: header, u32 size, padding. */
#define TRACING_DATA_REC 16

struct wr_attr {
	unsigned char *attr; /* @size bytes */
	uint32_t size;	     /* as stored: attr.size, trimmed to 128 when the rest is zero */
	uint64_t sample_type;
	char *name;
	uint64_t *ids;
	size_t nids;
	uint64_t ids_offset; /* file mode: where its ids were written */
};

struct wr_feat {
	unsigned char *data;
	size_t len;
	bool set;
};

struct perfev_data_writer {
	int fd;
	bool own_fd, pipe;
	bool finished, data_started, attrs_late;
	int err; /* the first write error; every later call returns it */
	int finish_ret;
	unsigned char *buf; /* output not yet written */
	size_t blen;
	uint64_t pos;	  /* bytes emitted, buffered ones included: the file offset */
	uint64_t on_disk; /* bytes write(2) took */
	/*
	 * File mode: the end of the last whole record on disk, and where the
	 * records end (UINT64_MAX until perfev_data_finish()).  After a
	 * write error the file is cut there and stays readable.
	 */
	uint64_t good_end, data_end;
	uint64_t data_offset, attrs_offset, attrs_size;
	struct wr_attr *attrs;
	size_t nattrs, attrs_cap;
	struct perfev__hashmap ids; /* event id -> index into attrs */
	struct wr_feat feats[PERFEV_FEAT_MAX];
	bool have_time;
	uint64_t first_time, last_time;
	struct perfev__zip *zip; /* compress_level: records staged for compression */
	int zlevel;
	bool zfeat; /* the COMPRESSED feature is the writer's (its ratio set at the end) */
};

/* ---- output -------------------------------------------------------------------------- */

/*
 * File mode: @k bytes of @p went to the file at offset @at (all of what
 * was written when @whole: then they end on a record, since records are
 * only ever written whole).  Move good_end to the last whole record.
 */
static void note_written(struct perfev_data_writer *w, const unsigned char *p, uint64_t at,
			 size_t k, bool whole)
{
	uint64_t s, end = at + k < w->data_end ? at + k : w->data_end, size, extra;

	if (w->pipe || !w->data_started || end <= w->data_offset)
		return;
	if (whole) {
		w->good_end = end;
		return;
	}
	s = at > w->data_offset ? at : w->data_offset;
	if (s >= end)
		return;
	for (; end - s >= 8; s += size + extra) {
		const unsigned char *r = p + (s - at);

		size = perfev__pd_u16(r + 6);
		extra = 0;
		if (perfev__pd_u32(r) == PERFEV_RECORD_AUXTRACE) {
			if (end - s < 16)
				break;
			extra = perfev__pd_u64(r + 8);
		}
		if (size < 8 || extra > end - s || size > end - s - extra)
			break;
	}
	w->good_end = s;
}

static int write_all(struct perfev_data_writer *w, const unsigned char *p, size_t n)
{
	uint64_t at = w->on_disk;
	size_t done = 0;
	ssize_t k;

	while (done < n) {
		k = write(w->fd, p + done, n - done);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			w->err = k < 0 ? -errno : -EIO;
			w->on_disk += done;
			note_written(w, p, at, done, false);
			return w->err;
		}
		done += (size_t)k;
	}
	w->on_disk += n;
	note_written(w, p, at, n, true);
	return 0;
}

static int flush(struct perfev_data_writer *w)
{
	int ret;

	if (w->err)
		return w->err;
	ret = write_all(w, w->buf, w->blen);
	w->blen = 0;
	return ret;
}

static int emit(struct perfev_data_writer *w, const void *p, size_t n)
{
	int ret;

	if (w->err)
		return w->err;
	if (n > WBUF_SIZE - w->blen) {
		ret = flush(w);
		if (ret)
			return ret;
	}
	if (n >= WBUF_SIZE) {
		/* Large writes go straight out. */
		ret = write_all(w, p, n);
		if (ret)
			return ret;
	} else if (n) {
		memcpy(w->buf + w->blen, p, n);
		w->blen += n;
	}
	w->pos += n;
	return 0;
}

static int emit_zero(struct perfev_data_writer *w, size_t n)
{
	static const unsigned char zero[64];
	int ret = 0;

	while (n && !ret) {
		size_t k = n < sizeof(zero) ? n : sizeof(zero);

		ret = emit(w, zero, k);
		n -= k;
	}
	return ret;
}

static int emit_u64(struct perfev_data_writer *w, uint64_t v)
{
	return emit(w, &v, sizeof(v));
}

static int emit_header(struct perfev_data_writer *w, uint32_t type, uint16_t misc, uint16_t size)
{
	unsigned char h[8];

	perfev__pd_put32(h, type);
	memcpy(h + 4, &misc, 2);
	memcpy(h + 6, &size, 2);
	return emit(w, h, sizeof(h));
}

static int emit_align8(struct perfev_data_writer *w)
{
	return emit_zero(w, (size_t)(perfev__pd_align8(w->pos) - w->pos));
}

/* ---- attrs ---------------------------------------------------------------------------- */

/* The attr size of the file: every attr is stored with the largest one. */
static uint32_t slot_size(const struct perfev_data_writer *w)
{
	uint32_t max = 0;
	size_t i;

	for (i = 0; i < w->nattrs; i++)
		if (w->attrs[i].size > max)
			max = w->attrs[i].size;
	return max ? (uint32_t)perfev__pd_align8(max) : (uint32_t)sizeof(struct perf_event_attr);
}

/* @a padded with zeros to @slot bytes, its size field saying so. */
static int attr_bytes(struct bytes *b, const struct wr_attr *a, uint32_t slot)
{
	size_t at = b->len;
	int ret;

	ret = bytes_put(b, a->attr, a->size);
	if (!ret)
		ret = bytes_zero(b, slot - a->size);
	if (!ret)
		perfev__pd_put32(b->p + at + offsetof(struct perf_event_attr, size), slot);
	return ret;
}

static int emit_attr(struct perfev_data_writer *w, const struct wr_attr *a, uint32_t slot)
{
	struct bytes b = {0};
	int ret;

	ret = attr_bytes(&b, a, slot);
	if (!ret)
		ret = emit(w, b.p, b.len);
	free(b.p);
	return ret;
}

/* File mode: every event's ids, then the attrs section pointing at them. */
static int write_attrs(struct perfev_data_writer *w)
{
	uint32_t slot = slot_size(w);
	size_t i;
	int ret;

	for (i = 0; i < w->nattrs; i++) {
		w->attrs[i].ids_offset = w->pos;
		ret = emit(w, w->attrs[i].ids, w->attrs[i].nids * 8);
		if (ret)
			return ret;
	}
	w->attrs_offset = w->pos;
	for (i = 0; i < w->nattrs; i++) {
		ret = emit_attr(w, &w->attrs[i], slot);
		if (!ret)
			ret = emit_u64(w, w->attrs[i].ids_offset);
		if (!ret)
			ret = emit_u64(w, w->attrs[i].nids * 8);
		if (ret)
			return ret;
	}
	w->attrs_size = (uint64_t)w->nattrs * (slot + PERFEV__PD_SECTION_SIZE);
	return 0;
}

/* File mode, at the first record: room for the header, then the attrs as perf lays them out. */
static int start_data(struct perfev_data_writer *w)
{
	int ret;

	ret = emit_zero(w, PERFEV__PD_HDR_SIZE);
	if (!ret)
		ret = write_attrs(w);
	w->data_offset = w->pos;
	w->data_started = true;
	return ret;
}

/* "cpu-clock" for the generic events, else the raw type and config. */
static void default_name(const struct perf_event_attr *attr, char *buf, size_t len)
{
	const struct perfev_symbol *sym;
	size_t i;

	for (i = 0; (sym = perfev_symbol_get(i)); i++)
		if (sym->kind != PERFEV_KIND_TOOL && sym->type == attr->type &&
		    sym->config == attr->config) {
			snprintf(buf, len, "%s", sym->name);
			return;
		}
	if (attr->type == PERF_TYPE_RAW)
		snprintf(buf, len, "r%llx", (unsigned long long)attr->config);
	else
		snprintf(buf, len, "type=%u,config=%#llx", attr->type,
			 (unsigned long long)attr->config);
}

/* Pipe mode: PERF_RECORD_HEADER_ATTR, and the name as PERF_RECORD_EVENT_UPDATE. */
static int emit_pipe_attr(struct perfev_data_writer *w, const struct wr_attr *a)
{
	uint32_t slot = (uint32_t)perfev__pd_align8(a->size);
	size_t nlen = strlen(a->name) + 1, usize;
	int ret;

	ret = emit_header(w, PERFEV_RECORD_HEADER_ATTR, 0, (uint16_t)(8 + slot + a->nids * 8));
	if (!ret)
		ret = emit_attr(w, a, slot);
	if (!ret)
		ret = emit(w, a->ids, a->nids * 8);
	if (ret || !a->nids)
		return ret;
	/* perf refuses an update whose id no event has: only events with ids get one. */
	usize = (size_t)perfev__pd_align8(PERFEV__PD_EVENT_UPDATE_HDR + nlen);
	ret = emit_header(w, PERFEV_RECORD_EVENT_UPDATE, 0, (uint16_t)usize);
	if (!ret)
		ret = emit_u64(w, PERFEV__PD_EVENT_UPDATE_NAME);
	if (!ret)
		ret = emit_u64(w, a->ids[0]);
	if (!ret)
		ret = emit(w, a->name, nlen);
	if (!ret)
		ret = emit_zero(w, usize - PERFEV__PD_EVENT_UPDATE_HDR - nlen);
	return ret;
}

static void wr_attr_free(struct wr_attr *a)
{
	free(a->attr);
	free(a->name);
	free(a->ids);
}

int perfev_data_add_attr(struct perfev_data_writer *w, const struct perf_event_attr *attr,
			 const char *name, const uint64_t *ids, size_t nids)
{
	const unsigned char *p = (const unsigned char *)attr;
	struct wr_attr a = {0};
	char defname[64];
	uint32_t size, i;
	size_t k;
	int ret;

	if (!w || !attr || (nids && !ids) || w->finished)
		return -EINVAL;
	if (w->err)
		return w->err;
	size = attr->size ? attr->size : PERFEV__PD_ATTR_MIN;
	if (size < PERFEV__PD_ATTR_MIN || size > PERFEV__PD_ATTR_MAX)
		return -EINVAL;
	if (name && strlen(name) > NAME_MAX_LEN)
		return -EINVAL;
	if (nids > (SIZE_MAX - PERFEV__PD_ATTR_MAX) / 8)
		return -EINVAL;
	if (size > ATTR_COMPAT_SIZE) {
		for (i = ATTR_COMPAT_SIZE; i < size && !p[i]; i++)
			;
		if (i == size)
			size = ATTR_COMPAT_SIZE;
	}
	if (w->pipe && 8 + perfev__pd_align8(size) + nids * 8 > PIPE_REC_MAX)
		return -EMSGSIZE;
	ret = perfev__grow(&w->attrs, &w->attrs_cap, w->nattrs + 1, sizeof(*w->attrs));
	if (ret)
		return ret;
	a.size = size;
	a.sample_type = attr->sample_type;
	a.nids = nids;
	a.attr = malloc(size);
	if (!name) {
		default_name(attr, defname, sizeof(defname));
		name = defname;
	}
	a.name = strdup(name);
	a.ids = malloc(nids ? nids * 8 : 1);
	if (!a.attr || !a.name || !a.ids) {
		wr_attr_free(&a);
		return -ENOMEM;
	}
	memcpy(a.attr, attr, size);
	perfev__pd_put32(a.attr + offsetof(struct perf_event_attr, size), size);
	if (nids)
		memcpy(a.ids, ids, nids * 8);
	for (k = 0; k < nids; k++) {
		ret = perfev__pd_id_add(&w->ids, ids[k], w->nattrs);
		if (ret) {
			wr_attr_free(&a);
			return ret;
		}
	}
	w->attrs[w->nattrs++] = a;
	if (w->pipe)
		return emit_pipe_attr(w, &w->attrs[w->nattrs - 1]);
	/* Records were written after the attrs: they move to the end. */
	if (w->data_started)
		w->attrs_late = true;
	return 0;
}

/* ---- features --------------------------------------------------------------------------- */

/* A BUILD_ID section: a list of build-id records, each framed by its header. */
static int check_build_ids(const unsigned char *p, size_t len)
{
	size_t off;
	uint16_t size;

	for (off = 0; off < len; off += size)
		if (len - off < 8 || (size = perfev__pd_u16(p + off + 6)) < 8 || size > len - off)
			return -EINVAL;
	return 0;
}

/*
 * BUILD_ID is a list of build-id records; a stream carries them as
 * PERF_RECORD_HEADER_BUILD_ID, the way perf sends them (perf reads a
 * BUILD_ID feature record from its input descriptor and loses its place).
 */
static int emit_pipe_build_ids(struct perfev_data_writer *w, const unsigned char *p, size_t len)
{
	size_t off;
	uint16_t size;
	int ret;

	for (off = 0; off < len; off += size) {
		size = perfev__pd_u16(p + off + 6);
		ret = emit_header(w, PERFEV_RECORD_HEADER_BUILD_ID, perfev__pd_u16(p + off + 4),
				  size);
		if (!ret)
			ret = emit(w, p + off + 8, size - 8);
		if (ret)
			return ret;
	}
	return 0;
}

/* Pipe mode: whether @feat's bytes can be carried by the records that send it. */
static int pipe_feature_ok(int feat, const void *data, size_t len)
{
	if (feat == PERFEV_FEAT_BUILD_ID)
		return check_build_ids(data, len);
	if (feat == PERFEV_FEAT_AUXTRACE)
		return 0;
	/* The tracing data follows its record, which only says how long it is. */
	if (feat == PERFEV_FEAT_TRACING_DATA)
		return len > UINT32_MAX - 7 ? -EMSGSIZE : 0;
	return len > PIPE_REC_MAX - 16 ? -EMSGSIZE : 0;
}

static int emit_pipe_feature(struct perfev_data_writer *w, int feat, const void *data, size_t len)
{
	size_t padded;
	int ret;

	ret = pipe_feature_ok(feat, data, len);
	if (ret)
		return ret;
	if (feat == PERFEV_FEAT_BUILD_ID)
		return emit_pipe_build_ids(w, data, len);
	/* An index of file offsets, meaningless in a stream; perf reads it from its input too. */
	if (feat == PERFEV_FEAT_AUXTRACE)
		return 0;

	if (feat == PERFEV_FEAT_TRACING_DATA) {
		padded = (size_t)perfev__pd_align8(len);
		ret = emit_header(w, PERFEV_RECORD_HEADER_TRACING_DATA, 0, TRACING_DATA_REC);
		if (!ret) {
			uint32_t sz[2] = {(uint32_t)padded, 0};

			ret = emit(w, sz, sizeof(sz));
		}
		if (!ret)
			ret = emit(w, data, len);
		if (!ret)
			ret = emit_zero(w, padded - len);
		return ret;
	}
	ret = emit_header(w, PERFEV_RECORD_HEADER_FEATURE, 0, (uint16_t)(16 + len));
	if (!ret)
		ret = emit_u64(w, (uint64_t)feat);
	if (!ret)
		ret = emit(w, data, len);
	return ret;
}

/*
 * Pipe mode, at the first record: the features held until now, after the
 * attrs, in perf's order: feature records, the tracing data, build ids.
 * perf's readers expect the attrs first (perf evlist reads no further).
 */
static int start_pipe_data(struct perfev_data_writer *w)
{
	static const int last[] = {PERFEV_FEAT_TRACING_DATA, PERFEV_FEAT_BUILD_ID};
	size_t i;
	int feat, ret = 0;

	w->data_started = true;
	for (feat = 1; !ret && feat < PERFEV_FEAT_MAX; feat++)
		if (w->feats[feat].set && feat != last[0] && feat != last[1])
			ret = emit_pipe_feature(w, feat, w->feats[feat].data, w->feats[feat].len);
	for (i = 0; !ret && i < sizeof(last) / sizeof(last[0]); i++)
		if (w->feats[last[i]].set)
			ret = emit_pipe_feature(w, last[i], w->feats[last[i]].data,
						w->feats[last[i]].len);
	return ret;
}

int perfev_data_set_feature(struct perfev_data_writer *w, int feat, const void *data, size_t len)
{
	struct wr_feat *f;
	unsigned char *copy;

	if (!w || feat < 1 || feat >= PERFEV_FEAT_MAX || (!data && len) || w->finished)
		return -EINVAL;
	if (w->err)
		return w->err;
	f = &w->feats[feat];
	if (feat == PERFEV_FEAT_COMPRESSED)
		w->zfeat = false; /* the caller's from now on */
	if (w->pipe && w->data_started) {
		int ret = emit_pipe_feature(w, feat, data, len);

		if (!ret)
			f->set = true;
		return ret;
	}
	if (w->pipe) {
		/* Held until the attrs are out: checked now, sent at the first record. */
		int ret = pipe_feature_ok(feat, data, len);

		if (ret)
			return ret;
	}
	copy = malloc(len ? len : 1);
	if (!copy)
		return -ENOMEM;
	if (len)
		memcpy(copy, data, len);
	free(f->data);
	f->data = copy;
	f->len = len;
	f->set = true;
	return 0;
}

int perfev_data_set_groups(struct perfev_data_writer *w, const struct perfev_data_group *groups,
			   size_t n)
{
	struct bytes b = {0};
	size_t i;
	int ret;

	if (!w || (n && !groups) || n > UINT32_MAX)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		const struct perfev_data_group *g = &groups[i];

		/*
		 * As perf lists them: groups of two events or more, inside the attrs
		 * added, in order and apart, as readers expect them.
		 */
		if (g->nr_members < 2 || g->leader >= w->nattrs ||
		    g->nr_members > w->nattrs - g->leader ||
		    (i && g->leader < groups[i - 1].leader + groups[i - 1].nr_members))
			return -EINVAL;
	}
	ret = bytes_u32(&b, (uint32_t)n);
	for (i = 0; i < n && !ret; i++) {
		ret = bytes_string(&b, groups[i].name ? groups[i].name : "{anon_group}");
		if (!ret)
			ret = bytes_u32(&b, groups[i].leader);
		if (!ret)
			ret = bytes_u32(&b, groups[i].nr_members);
	}
	if (!ret)
		ret = perfev_data_set_feature(w, PERFEV_FEAT_GROUP_DESC, b.p, b.len);
	free(b.p);
	return ret;
}

int perfev_data_set_clock(struct perfev_data_writer *w, const struct perfev_data_clock *c)
{
	/* CLOCK_DATA, version 1: the version, the clockid, the wall clock's ns, the clock's ns. */
	unsigned char data[24];
	uint32_t v32[2] = {1, 0};
	int ret;

	if (!w || !c)
		return -EINVAL;
	v32[1] = (uint32_t)c->clockid;
	memcpy(data, v32, sizeof(v32));
	memcpy(data + 8, &c->tod_ns, 8);
	memcpy(data + 16, &c->clockid_ns, 8);
	ret = perfev_data_set_feature(w, PERFEV_FEAT_CLOCKID, &c->res_ns, sizeof(c->res_ns));
	return ret ?: perfev_data_set_feature(w, PERFEV_FEAT_CLOCK_DATA, data, sizeof(data));
}

static int set_string(struct perfev_data_writer *w, int feat, const char *s)
{
	struct bytes b = {0};
	int ret;

	ret = bytes_string(&b, s);
	if (!ret)
		ret = perfev_data_set_feature(w, feat, b.p, b.len);
	free(b.p);
	return ret;
}

/* The value of "key : value" in /proc/cpuinfo text (first CPU), trimmed, or false. */
static bool cpuinfo_value(const char *text, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key), n;
	const char *line, *end, *v;

	for (line = text; *line; line = *end ? end + 1 : end) {
		end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		if (end == line)
			break; /* a blank line ends the first CPU */
		if (strncmp(line, key, klen))
			continue;
		for (v = line + klen; v < end && (*v == ' ' || *v == '\t'); v++)
			;
		if (v == end || *v != ':')
			continue;
		for (v++; v < end && (*v == ' ' || *v == '\t'); v++)
			;
		/* Squash runs of blanks, as perf does for brand strings. */
		for (n = 0; v < end && n + 1 < len; v++) {
			if ((*v == ' ' || *v == '\t') && (n == 0 || out[n - 1] == ' '))
				continue;
			out[n++] = *v == '\t' ? ' ' : *v;
		}
		while (n && out[n - 1] == ' ')
			n--;
		out[n] = '\0';
		return n > 0;
	}
	return false;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* CPUDESC and CPUID: x86 from /proc/cpuinfo as perf writes them, arm64 from the MIDR. */
static int set_cpu_features(struct perfev_data_writer *w)
{
	char vendor[64], family[16], model[16], stepping[16], desc[256], cpuid[160], *text = NULL;
	uint64_t midr;
	ssize_t n;
	int ret = 0;

	n = perfev__read_file("/proc/cpuinfo", &text, 1 << 20);
	if (n >= 0) {
		if (cpuinfo_value(text, "model name", desc, sizeof(desc)))
			ret = set_string(w, PERFEV_FEAT_CPUDESC, desc);
		if (!ret && cpuinfo_value(text, "vendor_id", vendor, sizeof(vendor)) &&
		    cpuinfo_value(text, "cpu family", family, sizeof(family)) &&
		    cpuinfo_value(text, "model", model, sizeof(model)) &&
		    cpuinfo_value(text, "stepping", stepping, sizeof(stepping)) &&
		    all_digits(family) && all_digits(model) && all_digits(stepping)) {
			snprintf(cpuid, sizeof(cpuid), "%s,%s,%s,%s", vendor, family, model,
				 stepping);
			free(text);
			return set_string(w, PERFEV_FEAT_CPUID, cpuid);
		}
		free(text);
		text = NULL;
		if (ret)
			return ret;
	}
	n = perfev__read_file("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", &text,
			      64);
	if (n < 0)
		return 0;
	perfev__trim(text);
	if (!perfev__parse_u64(text, strlen(text), &midr)) {
		snprintf(cpuid, sizeof(cpuid), "0x%016" PRIx64, midr);
		ret = set_string(w, PERFEV_FEAT_CPUID, cpuid);
	}
	free(text);
	return ret;
}

static int set_total_mem(struct perfev_data_writer *w)
{
	char *text = NULL, *p;
	unsigned long long kb;
	ssize_t n;
	uint64_t v;

	n = perfev__read_file("/proc/meminfo", &text, 1 << 16);
	if (n < 0)
		return 0;
	p = strstr(text, "MemTotal:");
	if (!p || sscanf(p, "MemTotal: %llu kB", &kb) != 1) {
		free(text);
		return 0;
	}
	free(text);
	v = kb;
	return perfev_data_set_feature(w, PERFEV_FEAT_TOTAL_MEM, &v, sizeof(v));
}

static int set_cmdline(struct perfev_data_writer *w, char *const *argv)
{
	struct bytes b = {0};
	uint32_t nr = 0;
	int ret;

	while (argv[nr])
		nr++;
	ret = bytes_u32(&b, nr);
	for (uint32_t i = 0; !ret && i < nr; i++)
		ret = bytes_string(&b, argv[i]);
	if (!ret)
		ret = perfev_data_set_feature(w, PERFEV_FEAT_CMDLINE, b.p, b.len);
	free(b.p);
	return ret;
}

int perfev_data_set_host_features(struct perfev_data_writer *w, char *const *argv)
{
	char host[256], version[64], *text = NULL;
	struct utsname u;
	uint32_t nrcpus[2];
	long conf, onln;
	int ret = 0;

	if (!w || w->finished)
		return -EINVAL;
	if (perfev__read_file("/proc/sys/kernel/hostname", &text, sizeof(host) - 1) >= 0) {
		snprintf(host, sizeof(host), "%s", text);
		perfev__trim(host);
		free(text);
	} else {
		host[0] = '\0';
	}
	if (uname(&u) == 0) {
		if (!host[0])
			snprintf(host, sizeof(host), "%s", u.nodename);
		ret = set_string(w, PERFEV_FEAT_OSRELEASE, u.release);
		if (!ret)
			ret = set_string(w, PERFEV_FEAT_ARCH, u.machine);
	}
	if (!ret && host[0])
		ret = set_string(w, PERFEV_FEAT_HOSTNAME, host);
	snprintf(version, sizeof(version), "perfev %s", perfev_version());
	if (!ret)
		ret = set_string(w, PERFEV_FEAT_VERSION, version);
	conf = sysconf(_SC_NPROCESSORS_CONF);
	onln = sysconf(_SC_NPROCESSORS_ONLN);
	if (!ret && conf > 0 && onln > 0) {
		nrcpus[0] = (uint32_t)conf;
		nrcpus[1] = (uint32_t)onln;
		ret = perfev_data_set_feature(w, PERFEV_FEAT_NRCPUS, nrcpus, sizeof(nrcpus));
	}
	if (!ret)
		ret = set_cpu_features(w);
	if (!ret)
		ret = set_total_mem(w);
	if (!ret)
		ret = perfev__data_set_topology(w, NULL);
	if (!ret && argv)
		ret = set_cmdline(w, argv);
	return ret;
}

/* EVENT_DESC from the attrs: u32 nr, u32 attr size, then attr, u32 nr_ids, name, ids each. */
static int build_event_desc(const struct perfev_data_writer *w, struct bytes *b)
{
	uint32_t slot = slot_size(w);
	size_t i;
	int ret;

	ret = bytes_u32(b, (uint32_t)w->nattrs);
	if (!ret)
		ret = bytes_u32(b, slot);
	for (i = 0; !ret && i < w->nattrs; i++) {
		const struct wr_attr *a = &w->attrs[i];

		if (a->nids > UINT32_MAX)
			return -EINVAL;
		ret = attr_bytes(b, a, slot);
		if (!ret)
			ret = bytes_u32(b, (uint32_t)a->nids);
		if (!ret)
			ret = bytes_string(b, a->name);
		if (!ret)
			ret = bytes_put(b, a->ids, a->nids * 8);
	}
	return ret;
}

/* ---- records ---------------------------------------------------------------------------- */

/* Note a sample's time for SAMPLE_TIME; its event found as the reader finds it. */
static void note_time(struct perfev_data_writer *w, const unsigned char *rec, uint16_t size)
{
	const struct wr_attr *a = &w->attrs[0];
	int pos;
	uint64_t t, idx;

	if (w->nattrs > 1) {
		pos = perfev__pd_sample_id_pos(a->sample_type);
		if (pos < 0 || 8 + (size_t)pos * 8 + 8 > size)
			return;
		t = perfev__pd_u64(rec + 8 + pos * 8);
		if (t) {
			if (!perfev__hashmap_find(&w->ids, t, &idx) || idx >= w->nattrs)
				return;
			a = &w->attrs[idx];
		}
	}
	pos = perfev__pd_time_pos(a->sample_type);
	if (pos < 0 || 8 + (size_t)pos * 8 + 8 > size)
		return;
	t = perfev__pd_u64(rec + 8 + pos * 8);
	if (!w->have_time || t < w->first_time)
		w->first_time = t;
	if (!w->have_time || t > w->last_time)
		w->last_time = t;
	w->have_time = true;
}

/* Check the framing of @len bytes of records; the header records are not for write(). */
static int check_records(const unsigned char *p, size_t len)
{
	size_t off = 0;
	uint64_t extra;
	uint32_t type;
	uint16_t size;

	while (off < len) {
		if (len - off < 8)
			return -EINVAL;
		type = perfev__pd_u32(p + off);
		size = perfev__pd_u16(p + off + 6);
		if (size < 8 || size > len - off)
			return -EINVAL;
		if (type == PERFEV_RECORD_HEADER_ATTR || type == PERFEV_RECORD_HEADER_FEATURE ||
		    type == PERFEV_RECORD_HEADER_TRACING_DATA)
			return -EINVAL;
		extra = 0;
		if (type == PERFEV_RECORD_AUXTRACE) {
			if (size < 16)
				return -EINVAL;
			extra = perfev__pd_u64(p + off + 8);
		}
		if (extra > len - off - size)
			return -EINVAL;
		off += size + (size_t)extra;
	}
	return 0;
}

static int emit_cb(void *w, const void *p, size_t n)
{
	return emit(w, p, n);
}

static int zip_flush(struct perfev_data_writer *w)
{
	return w->zip ? perfev__zip_flush(w->zip, emit_cb, w) : 0;
}

/*
 * Records into the compressor: the kernel's (ring data, as perf
 * compresses) are staged, a batch compressed when the next does not
 * fit; perf's own (FINISHED_ROUND...) end the batch and stay as they
 * are, so that rounds still bound the compressed records.
 */
static int write_compressed(struct perfev_data_writer *w, const unsigned char *p, size_t len)
{
	size_t off, n;
	uint32_t type;
	int ret;

	for (off = 0; off < len; off += n) {
		type = perfev__pd_u32(p + off);
		n = perfev__pd_u16(p + off + 6);
		if (type < PERFEV__PD_USER_TYPE_START) {
			if (!perfev__zip_room(w->zip, n) && (ret = zip_flush(w)))
				return ret;
			perfev__zip_add(w->zip, p + off, n);
			continue;
		}
		if (type == PERFEV_RECORD_AUXTRACE)
			n += (size_t)perfev__pd_u64(p + off + 8);
		ret = zip_flush(w);
		if (!ret)
			ret = emit(w, p + off, n);
		if (ret)
			return ret;
	}
	return 0;
}

/* The COMPRESSED feature perf reads before the first compressed record. */
static int set_comp_feature(struct perfev_data_writer *w, uint32_t ratio)
{
	uint32_t f[PERFEV__PD_COMP_FEAT_SIZE / 4] = {0, PERFEV__PD_COMP_ZSTD, (uint32_t)w->zlevel,
						     ratio, PERFEV__ZIP_BATCH};
	int ret = perfev_data_set_feature(w, PERFEV_FEAT_COMPRESSED, f, sizeof(f));

	w->zfeat = true;
	return ret;
}

int perfev_data_write(struct perfev_data_writer *w, const void *records, size_t len)
{
	const unsigned char *p = records;
	size_t off = 0;
	uint16_t size;
	uint32_t type;
	int ret;

	if (!w || (!records && len) || w->finished)
		return -EINVAL;
	if (w->err)
		return w->err;
	ret = check_records(p, len);
	if (ret)
		return ret;
	if (!w->data_started) {
		ret = w->pipe ? start_pipe_data(w) : start_data(w);
		if (ret)
			return ret;
	}
	while (w->nattrs && off < len) {
		type = perfev__pd_u32(p + off);
		size = perfev__pd_u16(p + off + 6);
		if (type == PERF_RECORD_SAMPLE)
			note_time(w, p + off, size);
		off += size;
		if (type == PERFEV_RECORD_AUXTRACE)
			off += (size_t)perfev__pd_u64(p + off - size + 8);
	}
	return w->zip ? write_compressed(w, p, len) : emit(w, p, len);
}

/* ---- finishing -------------------------------------------------------------------------- */

struct out_feat {
	int id;
	const void *data;
	size_t len;
};

/* The features to write: the caller's, and EVENT_DESC and SAMPLE_TIME unless the caller set them.
 */
static int collect_features(struct perfev_data_writer *w, struct out_feat *out, size_t *n,
			    struct bytes *desc, uint64_t times[2])
{
	int feat, ret;

	*n = 0;
	if (!w->feats[PERFEV_FEAT_EVENT_DESC].set && w->nattrs) {
		ret = build_event_desc(w, desc);
		if (ret)
			return ret;
	}
	times[0] = w->first_time;
	times[1] = w->last_time;
	for (feat = 0; feat < PERFEV_FEAT_MAX; feat++) {
		struct out_feat f = {feat, w->feats[feat].data, w->feats[feat].len};

		if (feat == PERFEV_FEAT_EVENT_DESC && !w->feats[feat].set) {
			if (!w->nattrs)
				continue;
			f.data = desc->p;
			f.len = desc->len;
		} else if (feat == PERFEV_FEAT_SAMPLE_TIME && !w->feats[feat].set) {
			if (!w->have_time)
				continue;
			f.data = times;
			f.len = 2 * sizeof(uint64_t);
		} else if (!w->feats[feat].set) {
			continue;
		}
		out[(*n)++] = f;
	}
	return 0;
}

static int pwrite_all(int fd, const unsigned char *p, size_t n, off_t off)
{
	ssize_t k;

	while (n) {
		k = pwrite(fd, p, n, off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? -errno : -EIO;
		p += k;
		n -= (size_t)k;
		off += k;
	}
	return 0;
}

/* File mode: after the records, the section table and the features (and late attrs). */
static int write_tail(struct perfev_data_writer *w, uint64_t *bitmap)
{
	struct out_feat feats[PERFEV_FEAT_MAX];
	struct bytes desc = {0};
	uint64_t times[2], off;
	size_t n = 0, i;
	int ret;

	ret = collect_features(w, feats, &n, &desc, times);
	if (ret)
		goto out;
	/* The section table right after the data, then each feature 8-aligned. */
	off = w->pos + n * PERFEV__PD_SECTION_SIZE;
	for (i = 0; !ret && i < n; i++) {
		off = perfev__pd_align8(off);
		ret = emit_u64(w, off);
		if (!ret)
			ret = emit_u64(w, feats[i].len);
		off += feats[i].len;
		bitmap[feats[i].id / 64] |= 1ULL << (feats[i].id % 64);
	}
	for (i = 0; !ret && i < n; i++) {
		ret = emit_align8(w);
		if (!ret)
			ret = emit(w, feats[i].data, feats[i].len);
	}
	if (!ret && w->attrs_late) {
		ret = emit_align8(w);
		if (!ret)
			ret = write_attrs(w);
	}
	if (!ret)
		ret = flush(w);
out:
	free(desc.p);
	return ret;
}

static int write_header(struct perfev_data_writer *w, uint64_t data_size, const uint64_t *bitmap)
{
	unsigned char hdr[PERFEV__PD_HDR_SIZE] = {0};

	perfev__pd_put64(hdr, PERFEV__PD_MAGIC);
	perfev__pd_put64(hdr + 8, PERFEV__PD_HDR_SIZE);
	perfev__pd_put64(hdr + PERFEV__PD_OFF_ATTR_SIZE, slot_size(w) + PERFEV__PD_SECTION_SIZE);
	perfev__pd_put64(hdr + PERFEV__PD_OFF_ATTRS, w->attrs_offset);
	perfev__pd_put64(hdr + PERFEV__PD_OFF_ATTRS + 8, w->attrs_size);
	perfev__pd_put64(hdr + PERFEV__PD_OFF_DATA, w->data_offset);
	perfev__pd_put64(hdr + PERFEV__PD_OFF_DATA + 8, data_size);
	memcpy(hdr + PERFEV__PD_OFF_FEATURES, bitmap, PERFEV_FEAT_MAX / 8);
	return pwrite_all(w->fd, hdr, sizeof(hdr), 0);
}

/*
 * File mode, after a write error (a full disk): keep what reached the
 * file whole.  It is cut after the last complete record, the features
 * are tried again there (left out if they do not fit either), and the
 * header is written for the records kept.  Returns the write error.
 */
static int salvage(struct perfev_data_writer *w)
{
	uint64_t bitmap[PERFEV_FEAT_MAX / 64] = {0};
	int err = w->err;
	struct stat st;

	/* The attrs lie before the records; late ones would come after them. */
	if (!w->data_started || w->attrs_late || w->good_end < w->data_offset ||
	    fstat(w->fd, &st) || !S_ISREG(st.st_mode) || ftruncate(w->fd, (off_t)w->good_end) ||
	    lseek(w->fd, (off_t)w->good_end, SEEK_SET) < 0)
		return err;
	w->err = 0;
	w->blen = 0;
	w->pos = w->on_disk = w->data_end = w->good_end;
	if (write_tail(w, bitmap)) {
		memset(bitmap, 0, sizeof(bitmap));
		if (ftruncate(w->fd, (off_t)w->good_end)) {
			w->err = err;
			return err;
		}
		w->pos = w->good_end;
	}
	write_header(w, w->good_end - w->data_offset, bitmap);
	w->err = err;
	return err;
}

static int finish_file(struct perfev_data_writer *w)
{
	uint64_t bitmap[PERFEV_FEAT_MAX / 64] = {0};
	int ret;

	if (!w->data_started) {
		ret = start_data(w);
		if (ret)
			return w->data_started ? salvage(w) : ret;
	}
	w->data_end = w->pos;
	ret = write_tail(w, bitmap);
	if (ret)
		return w->err ? salvage(w) : ret;
	ret = write_header(w, w->data_end - w->data_offset, bitmap);
	if (ret)
		w->err = ret;
	return ret;
}

static int finish_pipe(struct perfev_data_writer *w)
{
	struct bytes desc = {0};
	uint64_t times[2] = {w->first_time, w->last_time};
	int ret = 0;

	if (!w->data_started)
		ret = start_pipe_data(w);
	/* Known only now; perf takes features anywhere in a stream. */
	if (!ret && !w->feats[PERFEV_FEAT_EVENT_DESC].set && w->nattrs) {
		ret = build_event_desc(w, &desc);
		/* Too big for a record: the names went out with the attrs already. */
		if (!ret && desc.len <= PIPE_REC_MAX - 16)
			ret = emit_pipe_feature(w, PERFEV_FEAT_EVENT_DESC, desc.p, desc.len);
	}
	if (!ret && !w->feats[PERFEV_FEAT_SAMPLE_TIME].set && w->have_time)
		ret = emit_pipe_feature(w, PERFEV_FEAT_SAMPLE_TIME, times, sizeof(times));
	if (!ret)
		ret = flush(w);
	free(desc.p);
	return ret;
}

int perfev_data_finish(struct perfev_data_writer *w)
{
	int ret;

	if (!w)
		return -EINVAL;
	if (w->finished)
		return w->finish_ret;
	if (w->err) {
		w->finished = true;
		w->finish_ret = w->pipe ? w->err : salvage(w);
		return w->finish_ret;
	}
	ret = zip_flush(w);
	if (!ret && w->zip && w->zfeat && !w->pipe) {
		uint64_t plain, packed;

		/* perf's ratio: the records' bytes over the compressed ones, rounded. */
		perfev__zip_counts(w->zip, &plain, &packed);
		ret = set_comp_feature(w, packed ? (uint32_t)((plain + packed / 2) / packed) : 0);
	}
	if (ret) {
		/* A write error, or no memory to compress the last batch: what is whole stays. */
		w->err = ret;
		w->finished = true;
		w->finish_ret = w->pipe ? ret : salvage(w);
		return w->finish_ret;
	}
	w->finish_ret = w->pipe ? finish_pipe(w) : finish_file(w);
	w->finished = true;
	return w->finish_ret;
}

/* ---- lifecycle -------------------------------------------------------------------------- */

int perfev_data_create(const char *path, const struct perfev_data_write_opts *opts,
		       struct perfev_data_writer **out)
{
	struct perfev_data_writer *w;
	bool pipe = PERFEV__OPT(opts, pipe, false);
	int fd = PERFEV__OPT(opts, fd, -1), flags, ret;
	int level = PERFEV__OPT(opts, compress_level, 0);
	bool own = false;
	off_t at;

	if (!out || !perfev__opts_ok(opts, opts ? opts->sz : 0, sizeof(*opts)) || level < 0 ||
	    level > PERFEV__ZIP_LEVEL_MAX)
		return -EINVAL;
	if (path && !strcmp(path, "-")) {
		fd = STDOUT_FILENO;
		pipe = true;
	} else if (path) {
		/* Never through a symbolic link planted at the path. */
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0)
			return -errno;
		own = true;
	} else if (fd < 0) {
		return -EINVAL;
	}
	if (!pipe) {
		/* The header is rewritten at offset 0 in the end. */
		at = lseek(fd, 0, SEEK_CUR);
		if (at < 0) {
			ret = -errno;
			goto err;
		}
		flags = fcntl(fd, F_GETFL);
		if (at != 0 || flags < 0 || (flags & O_APPEND)) {
			ret = -EINVAL;
			goto err;
		}
	}
	ret = -ENOMEM;
	w = calloc(1, sizeof(*w));
	if (!w)
		goto err;
	w->buf = malloc(WBUF_SIZE);
	if (!w->buf) {
		free(w);
		goto err;
	}
	w->fd = fd;
	w->own_fd = own;
	w->pipe = pipe;
	w->data_end = UINT64_MAX;
	if (pipe) {
		emit_u64(w, PERFEV__PD_MAGIC);
		emit_u64(w, PERFEV__PD_PIPE_HDR_SIZE);
	}
	if (level) {
		w->zlevel = level;
		/* Sent with a stream's first record, before the ratio is known (0, as perf). */
		if (perfev__zip_new(level, &w->zip) || set_comp_feature(w, 0)) {
			perfev__zip_free(w->zip);
			free(w->feats[PERFEV_FEAT_COMPRESSED].data);
			free(w->buf);
			free(w);
			ret = -ENOMEM;
			goto err;
		}
	}
	*out = w;
	return 0;
err:
	if (own)
		close(fd);
	return ret;
}

void perfev_data_writer_free(struct perfev_data_writer *w)
{
	size_t i;

	if (!w)
		return;
	perfev_data_finish(w);
	for (i = 0; i < w->nattrs; i++)
		wr_attr_free(&w->attrs[i]);
	free(w->attrs);
	for (i = 0; i < PERFEV_FEAT_MAX; i++)
		free(w->feats[i].data);
	perfev__hashmap_release(&w->ids);
	perfev__zip_free(w->zip);
	free(w->buf);
	if (w->own_fd)
		close(w->fd);
	free(w);
}

uint64_t perfev_data_written(const struct perfev_data_writer *w)
{
	return w ? w->pos : 0;
}

int perfev_data_compression(const struct perfev_data_writer *w, uint64_t *plain, uint64_t *packed)
{
	uint64_t a, b;

	if (!w)
		return -EINVAL;
	if (!w->zip)
		return -ENOENT;
	perfev__zip_counts(w->zip, &a, &b);
	if (plain)
		*plain = a;
	if (packed)
		*packed = b;
	return 0;
}
