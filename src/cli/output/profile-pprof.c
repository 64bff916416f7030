// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev report --pprof: the profile as a pprof profile, the
 * perftools.profiles.Profile message of proto/profile.proto encoded with
 * protobuf-c and gzip-compressed with zlib, as pprof reads it.
 *
 * How the profile maps onto the message:
 *  - sample_type: per exported event a pair, the sample count
 *    ("samples"/"count") and the summed period: "cpu"/"nanoseconds" for
 *    cpu-clock and task-clock, "offcpu"/"nanoseconds" for offcpu-time,
 *    else "events"/"count" (cycles too: their period counts cycles, not
 *    time), the names continuous-profiling backends (Pyroscope, Parca)
 *    know.  With several events exported, the pair is named
 *    "samples-<event>" and "<event>" so that each value type has a name
 *    of its own, every sample carries a pair of values per event (zeros
 *    for the events it is not of), and the default value is the first
 *    event's period.  period_type is the first event's period type,
 *    period its mean period per sample.
 *  - Function: one per distinct (name, object, source file); its
 *    system_name is its name (the model keeps demangled names only).
 *  - Location: one per frame, except that frames inlined into their
 *    caller are folded into the caller's location, as pprof expects: one
 *    location for the address, its lines the innermost function first.
 *    is_folded (identical code folding) is never set: nothing tells it.
 *  - Mapping: one per object, the main binary (the user-space
 *    executable most samples are in) first as pprof expects, build_id the
 *    recording's build id of the object in hex when it has one.  Frame
 *    addresses are the object's own (file addresses, or the kernel's), so
 *    a mapping covers from the lowest to past the highest address seen in
 *    it with file_offset equal to its start: address - memory_start +
 *    file_offset is the address again.
 *  - Unresolved frames (no symbol, no debug info) are locations with an
 *    address and a mapping but no line, in a mapping whose has_functions
 *    is false: a backend symbolizes them itself by the build id.
 *  - Sample: one per distinct stack (locations leaf first), labelled
 *    "comm" (string), "pid" and "tid" (numbers), and "cpu" (number) when
 *    the profile keeps stacks per CPU.  Each number has its key as its
 *    unit: proto3 does not encode a zero, and pprof's readers drop a
 *    label whose number and unit are both unset, which would lose CPU 0
 *    and pid 0.
 *  - duration_nanos spans the first to the last sample.  time_nanos is
 *    left unset: sample times count from boot, not from the epoch pprof
 *    wants, and the model has nothing to convert them with.
 *  - comment: one line per header fact present (host, command line, ...).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "output/json.h"
#include "profile.h"
#include "profile.pb-c.h"

typedef Perftools__Profiles__Profile pb_profile;
typedef Perftools__Profiles__ValueType pb_value_type;
typedef Perftools__Profiles__Sample pb_sample;
typedef Perftools__Profiles__Label pb_label;
typedef Perftools__Profiles__Mapping pb_mapping;
typedef Perftools__Profiles__Location pb_location;
typedef Perftools__Profiles__Line pb_line;
typedef Perftools__Profiles__Function pb_function;

/*
 * The index of the key @key (@len bytes: a string, or a run of integers)
 * in @t, in the order first seen; *@added when new.
 */
static int key_index(struct perfev__intern *t, const void *key, size_t len, bool *added)
{
	size_t i;
	int ret = perfev__intern_bytes(t, key, len, &i);

	if (ret < 0)
		return ret;
	if (i >= INT32_MAX)
		return -E2BIG;
	*added = ret;
	return (int)i;
}

/* A sample's labels: comm, pid, tid, and cpu when known. */
#define NLABELS 4

struct pprof {
	const struct profile *p;

	struct perfev__intern strs; /* the string table */

	/* per profile frame: its function id and mapping id, 0 until a sample uses it */
	uint64_t *frame_func, *frame_map;
	bool *frame_done;

	struct perfev__intern funcmap; /* (name, system_name, file) string indexes -> function */
	pb_function *funcs;
	size_t cap_funcs;

	struct perfev__intern mapmap; /* dso string index -> mapping */
	pb_mapping *maps;
	size_t cap_maps;
	bool *map_seen; /* an address was seen in the mapping (its range is set) */
	size_t cap_map_seen;

	struct perfev__intern locmap; /* run of frame indexes -> location */
	pb_location *locs;
	size_t cap_locs;
	size_t *loc_line; /* the first of a location's lines in lines[] */
	size_t cap_loc_line;
	pb_line *lines;
	size_t nlines, cap_lines;

	pb_value_type *types;
	size_t ntypes, first_ev; /* the first exported event */
	pb_sample *samples;
	size_t nsamples;
	uint64_t *loc_ids; /* every sample's location ids, one after another */
	size_t nloc_ids;
	int64_t *values;
	pb_label *labels; /* NLABELS per sample, of which nlabels[] are used */
	uint8_t *nlabels;
	int64_t *comments;
	size_t ncomments;
};

/*
 * The string-table index of @s ("" for NULL).  Table strings are UTF-8
 * (proto3 strings: Go's protobuf decoders refuse others), so bytes that
 * are not become U+FFFD, as in the JSON exports.
 */
static int64_t str_index(struct pprof *x, const char *s)
{
	bool added;
	int64_t i;
	char *fixed;
	int err;

	if (!s)
		s = "";
	fixed = json_utf8_fix(s, strlen(s), &err);
	if (err)
		return err;
	if (!fixed)
		return key_index(&x->strs, s, strlen(s), &added);
	i = key_index(&x->strs, fixed, strlen(fixed), &added);
	free(fixed);
	return i;
}

static int64_t str_indexf(struct pprof *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int64_t str_indexf(struct pprof *x, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int64_t i;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	i = str_index(x, s);
	free(s);
	return i;
}

/* The function id of frame @f. */
static int64_t function_id(struct pprof *x, const struct profile_frame *f)
{
	int64_t key[3];
	bool added;
	int i;

	key[0] = str_index(x, profile_frame_name(f));
	key[1] = str_index(x, f->dso);
	key[2] = str_index(x, f->file);
	if (key[0] < 0 || key[1] < 0 || key[2] < 0)
		return -ENOMEM;
	i = key_index(&x->funcmap, key, sizeof(key), &added);
	if (i < 0 || !added)
		return i < 0 ? i : i + 1;
	/* On failure the map is ahead of the array: the caller gives up anyway. */
	if (perfev__grow(&x->funcs, &x->cap_funcs, (size_t)i + 1, sizeof(*x->funcs)))
		return -ENOMEM;
	perftools__profiles__function__init(&x->funcs[i]);
	x->funcs[i].id = (uint64_t)i + 1;
	x->funcs[i].name = key[0];
	x->funcs[i].system_name = key[0];
	x->funcs[i].filename = key[2];
	return i + 1;
}

/* The mapping id of object @dso. */
static int64_t mapping_id(struct pprof *x, const char *dso)
{
	int64_t name = str_index(x, dso ? dso : "[unknown]");
	const char *bid = profile_build_id(x->p, dso);
	bool added;
	int i;

	if (name < 0)
		return name;
	i = key_index(&x->mapmap, &name, sizeof(name), &added);
	if (i < 0 || !added)
		return i < 0 ? i : i + 1;
	if (perfev__grow(&x->maps, &x->cap_maps, (size_t)i + 1, sizeof(*x->maps)) ||
	    perfev__grow(&x->map_seen, &x->cap_map_seen, (size_t)i + 1, sizeof(*x->map_seen)))
		return -ENOMEM;
	perftools__profiles__mapping__init(&x->maps[i]);
	x->maps[i].id = (uint64_t)i + 1;
	x->maps[i].filename = name;
	if (bid)
		x->maps[i].build_id = str_index(x, bid);
	if (x->maps[i].build_id < 0)
		return -ENOMEM;
	x->map_seen[i] = false;
	return i + 1;
}

/* Widen mapping @id to cover @addr, and note what frame @f tells of it. */
static void mapping_note(struct pprof *x, uint64_t id, uint64_t addr, const struct profile_frame *f)
{
	pb_mapping *m = &x->maps[id - 1];

	if (!x->map_seen[id - 1] || addr < m->memory_start)
		m->memory_start = m->file_offset = addr;
	if (!x->map_seen[id - 1] || addr >= m->memory_limit)
		m->memory_limit = addr == UINT64_MAX ? addr : addr + 1;
	x->map_seen[id - 1] = true;
	if (f->sym)
		m->has_functions = true;
	if (f->file)
		m->has_filenames = true;
	if (f->line)
		m->has_line_numbers = true;
	if (f->inlined)
		m->has_inline_frames = true;
}

/* The function and mapping of frame @i, made on its first use. */
static int frame_ids(struct pprof *x, uint32_t i)
{
	const struct profile_frame *f = &x->p->frames[i];
	int64_t fid, mid;

	if (x->frame_done[i])
		return 0;
	fid = f->sym || f->inlined ? function_id(x, f) : 0;
	mid = mapping_id(x, f->dso);
	if (fid < 0 || mid < 0)
		return fid < 0 ? (int)fid : (int)mid;
	x->frame_func[i] = (uint64_t)fid;
	x->frame_map[i] = (uint64_t)mid;
	x->frame_done[i] = true;
	return 0;
}

/*
 * The location id of the frames @run[0..@n): inlined functions, each
 * into the next, and the frame they are all in last.
 */
static int64_t location_id(struct pprof *x, const uint32_t *run, size_t n)
{
	const struct profile_frame *outer = &x->p->frames[run[n - 1]];
	pb_location *l;
	bool added;
	int i;

	i = key_index(&x->locmap, run, n * sizeof(*run), &added);
	if (i < 0 || !added)
		return i < 0 ? i : i + 1;
	for (size_t k = 0; k < n; k++) {
		int err = frame_ids(x, run[k]);

		if (err)
			return err;
	}
	if (perfev__grow(&x->locs, &x->cap_locs, (size_t)i + 1, sizeof(*x->locs)) ||
	    perfev__grow(&x->loc_line, &x->cap_loc_line, (size_t)i + 1, sizeof(*x->loc_line)) ||
	    perfev__grow(&x->lines, &x->cap_lines, x->nlines + n, sizeof(*x->lines)))
		return -ENOMEM;
	l = &x->locs[i];
	perftools__profiles__location__init(l);
	l->id = (uint64_t)i + 1;
	l->mapping_id = x->frame_map[run[n - 1]];
	/* Inlined frames stand at the address of the code they were inlined in. */
	l->address = outer->addr;
	x->loc_line[i] = x->nlines;
	for (size_t k = 0; k < n; k++) {
		const struct profile_frame *f = &x->p->frames[run[k]];
		pb_line *ln;

		mapping_note(x, l->mapping_id, outer->addr, f);
		/* No function: the address alone, for the backend to symbolize. */
		if (!x->frame_func[run[k]])
			continue;
		ln = &x->lines[x->nlines++];
		l->n_line++;
		perftools__profiles__line__init(ln);
		ln->function_id = x->frame_func[run[k]];
		ln->line = f->line;
	}
	return i + 1;
}

/* The type and unit of event @name's period, as profiling backends name them. */
static void event_type(const char *name, const char **type, const char **unit)
{
	size_t len = strcspn(name, ":/");

	/* The software clocks count nanoseconds ("cpu-clock:u" is still one). */
	if ((len == 9 && !strncmp(name, "cpu-clock", len)) ||
	    (len == 10 && !strncmp(name, "task-clock", len))) {
		*type = "cpu";
		*unit = "nanoseconds";
	} else if (len == 11 && !strncmp(name, "offcpu-time", len)) {
		*type = "offcpu";
		*unit = "nanoseconds";
	} else {
		*type = "events";
		*unit = "count";
	}
}

static int add_types(struct pprof *x, size_t ev)
{
	const struct profile *p = x->p;
	size_t first = ev < p->nevents ? ev : 0, last = ev < p->nevents ? ev + 1 : p->nevents;

	x->first_ev = first;
	x->types = calloc(2 * (last - first) + 1, sizeof(*x->types));
	if (!x->types)
		return -ENOMEM;
	for (size_t e = first; e < last; e++) {
		const char *name = p->events[e].name ? p->events[e].name : "unknown";
		pb_value_type *t = &x->types[x->ntypes];
		const char *type, *unit;

		perftools__profiles__value_type__init(&t[0]);
		perftools__profiles__value_type__init(&t[1]);
		if (last - first == 1)
			t[0].type = str_index(x, "samples");
		else
			t[0].type = str_indexf(x, "samples-%s", name);
		t[0].unit = str_index(x, "count");
		event_type(name, &type, &unit);
		t[1].type = str_index(x, last - first == 1 ? type : name);
		t[1].unit = str_index(x, unit);
		if (t[0].type < 0 || t[0].unit < 0 || t[1].type < 0 || t[1].unit < 0)
			return -ENOMEM;
		x->ntypes += 2;
	}
	return 0;
}

/* A user-space executable's path: absolute, not a shared library's. */
static bool executable_dso(const struct profile_frame *f)
{
	const char *base;

	if (f->level != '.' || !f->dso || f->dso[0] != '/')
		return false;
	base = strrchr(f->dso, '/') + 1;
	return !strstr(base, ".so") && strncmp(f->dso, "/tmp/perf-", 10);
}

/*
 * Make the main binary's mapping first, as pprof expects: the user-space
 * executable with the most samples, when there is one.
 */
static int add_main_mapping(struct pprof *x, size_t ev)
{
	const struct profile *p = x->p;
	struct perfev__intern seen;
	uint64_t *count = NULL, best = 0;
	size_t cap = 0, k;
	const char *main_dso = NULL;
	int err = 0;

	perfev__intern_init(&seen);
	for (size_t i = 0; i < p->nstacks && !err; i++) {
		const struct profile_stack *st = &p->stacks[i];

		if (ev < p->nevents && st->ev != ev)
			continue;
		for (uint32_t j = 0; j < st->nframes; j++) {
			const struct profile_frame *f;

			if (st->frames[j] >= p->nframes)
				continue;
			f = &p->frames[st->frames[j]];
			if (!executable_dso(f))
				continue;
			int added = perfev__intern_bytes(&seen, &f->dso, sizeof(f->dso), &k);

			if (added < 0 || perfev__grow(&count, &cap, k + 1, sizeof(*count))) {
				err = -ENOMEM;
				break;
			}
			if (added)
				count[k] = 0;
			count[k] += st->samples;
			if (count[k] > best) {
				best = count[k];
				main_dso = f->dso;
			}
			/* Once per stack is enough to weigh it. */
			break;
		}
	}
	if (!err && main_dso)
		err = mapping_id(x, main_dso) < 0 ? -ENOMEM : 0;
	perfev__intern_release(&seen);
	free(count);
	return err;
}

static int add_samples(struct pprof *x, size_t ev)
{
	const struct profile *p = x->p;
	bool one = ev < p->nevents;
	size_t nloc = 0;

	x->frame_func = calloc(p->nframes + 1, sizeof(*x->frame_func));
	x->frame_map = calloc(p->nframes + 1, sizeof(*x->frame_map));
	x->frame_done = calloc(p->nframes + 1, sizeof(*x->frame_done));
	if (!x->frame_func || !x->frame_map || !x->frame_done)
		return -ENOMEM;

	for (size_t i = 0; i < p->nstacks; i++) {
		if (one && p->stacks[i].ev != ev)
			continue;
		if (p->stacks[i].nframes > SIZE_MAX - 1 - nloc)
			return -ENOMEM;
		nloc += p->stacks[i].nframes;
		x->nsamples++;
	}
	if (x->ntypes && x->nsamples > (SIZE_MAX - 1) / x->ntypes)
		return -ENOMEM;
	if (x->nsamples > (SIZE_MAX - 1) / 3)
		return -ENOMEM;
	x->samples = calloc(x->nsamples + 1, sizeof(*x->samples));
	x->loc_ids = calloc(nloc + 1, sizeof(*x->loc_ids));
	x->values = calloc(x->nsamples * x->ntypes + 1, sizeof(*x->values));
	x->labels = calloc(NLABELS * x->nsamples + 1, sizeof(*x->labels));
	x->nlabels = calloc(x->nsamples + 1, sizeof(*x->nlabels));
	if (!x->samples || !x->loc_ids || !x->values || !x->labels || !x->nlabels)
		return -ENOMEM;

	int64_t comm = str_index(x, "comm"), pid = str_index(x, "pid"), tid = str_index(x, "tid");
	int64_t cpu = str_index(x, "cpu");

	if (comm < 0 || pid < 0 || tid < 0 || cpu < 0)
		return -ENOMEM;
	size_t n = 0;
	for (size_t i = 0; i < p->nstacks; i++) {
		const struct profile_stack *st = &p->stacks[i];
		pb_sample *s;
		pb_label *lb;
		size_t col, run = profile_stack_first(p, st);

		if (one && st->ev != ev)
			continue;
		if (st->ev >= p->nevents)
			return -EINVAL;
		s = &x->samples[n];
		lb = &x->labels[NLABELS * n];
		perftools__profiles__sample__init(s);
		s->location_id = &x->loc_ids[x->nloc_ids];
		for (uint32_t k = (uint32_t)run; k < st->nframes; k++) {
			if (st->frames[k] >= p->nframes)
				return -EINVAL;
			/* A run of inlined frames ends at the frame they are inlined in. */
			if (p->frames[st->frames[k]].inlined && k + 1 < st->nframes)
				continue;
			int64_t id = location_id(x, &st->frames[run], k + 1 - run);

			if (id < 0)
				return (int)id;
			x->loc_ids[x->nloc_ids++] = (uint64_t)id;
			s->n_location_id++;
			run = k + 1;
		}
		s->n_value = x->ntypes;
		s->value = &x->values[n * x->ntypes];
		col = one ? 0 : 2 * (size_t)st->ev;
		s->value[col] = (int64_t)st->samples;
		s->value[col + 1] = (int64_t)st->period;
		for (int k = 0; k < NLABELS; k++)
			perftools__profiles__label__init(&lb[k]);
		lb[0].key = comm;
		lb[0].str = str_index(x, st->comm);
		if (lb[0].str < 0)
			return (int)lb[0].str;
		lb[1].key = lb[1].num_unit = pid;
		lb[1].num = st->pid;
		lb[2].key = lb[2].num_unit = tid;
		lb[2].num = st->tid;
		lb[3].key = lb[3].num_unit = cpu;
		lb[3].num = st->cpu;
		x->nlabels[n] = st->cpu >= 0 ? 4 : 3;
		n++;
	}
	return 0;
}

static int add_comments(struct pprof *x)
{
	const struct profile_meta *m = &x->p->meta;
	const char *keys[] = {"hostname", "os release", "arch", "cpu", "perf version", "cmdline"};
	const char *vals[] = {m->hostname, m->os_release,   m->arch,
			      m->cpu_desc, m->perf_version, m->cmdline};
	size_t n = sizeof(keys) / sizeof(keys[0]);

	x->comments = calloc(n + 2, sizeof(*x->comments));
	if (!x->comments)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (!vals[i] || !*vals[i])
			continue;
		x->comments[x->ncomments] = str_indexf(x, "%s: %s", keys[i], vals[i]);
		if (x->comments[x->ncomments++] < 0)
			return -ENOMEM;
	}
	if (m->nr_cpus) {
		x->comments[x->ncomments] = str_indexf(x, "nr cpus: %" PRIu32, m->nr_cpus);
		if (x->comments[x->ncomments++] < 0)
			return -ENOMEM;
	}
	if (m->lost) {
		x->comments[x->ncomments] = str_indexf(x, "lost samples: %" PRIu64, m->lost);
		if (x->comments[x->ncomments++] < 0)
			return -ENOMEM;
	}
	return 0;
}

/* A protobuf-c output buffer that gzips what is appended to it into a FILE. */
struct gz_buffer {
	ProtobufCBuffer base;
	z_stream z;
	FILE *f;
	int err;
	unsigned char out[1 << 16];
};

/*
 * Compress @len bytes of @data into the file; @flush Z_FINISH ends the
 * stream.  zlib has taken all input when it leaves output space unused.
 */
static void gz_feed(struct gz_buffer *b, const uint8_t *data, size_t len, int flush)
{
	b->z.next_in = (Bytef *)data;
	b->z.avail_in = 0;
	for (;;) {
		size_t have;
		int rc;

		/* zlib counts in uInt: hand it a large append in slices. */
		if (!b->z.avail_in && len) {
			b->z.avail_in = len > (1u << 30) ? 1u << 30 : (uInt)len;
			len -= b->z.avail_in;
		}
		b->z.next_out = b->out;
		b->z.avail_out = sizeof(b->out);
		rc = deflate(&b->z, len ? Z_NO_FLUSH : flush);
		if (rc == Z_STREAM_ERROR) {
			b->err = -EINVAL;
			return;
		}
		have = sizeof(b->out) - b->z.avail_out;
		if (have && fwrite(b->out, 1, have, b->f) != have) {
			b->err = -EIO;
			return;
		}
		if (rc == Z_STREAM_END)
			return;
		if (flush != Z_FINISH && !len && !b->z.avail_in && b->z.avail_out)
			return;
	}
}

static void gz_append(ProtobufCBuffer *buf, size_t len, const uint8_t *data)
{
	struct gz_buffer *b = (struct gz_buffer *)buf;

	if (!b->err)
		gz_feed(b, data, len, Z_NO_FLUSH);
}

static int write_gzip(const pb_profile *msg, FILE *f)
{
	struct gz_buffer *b = calloc(1, sizeof(*b));
	int err;

	if (!b)
		return -ENOMEM;
	b->base.append = gz_append;
	b->f = f;
	/* 15 + 16: a gzip header and trailer around the deflate stream. */
	if (deflateInit2(&b->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK) {
		free(b);
		return -ENOMEM;
	}
	perftools__profiles__profile__pack_to_buffer(msg, &b->base);
	if (!b->err)
		gz_feed(b, NULL, 0, Z_FINISH);
	deflateEnd(&b->z);
	err = b->err;
	free(b);
	if (!err && (fflush(f) || ferror(f)))
		err = -EIO;
	return err;
}

static void pprof_release(struct pprof *x)
{
	perfev__intern_release(&x->strs);
	perfev__intern_release(&x->funcmap);
	perfev__intern_release(&x->mapmap);
	perfev__intern_release(&x->locmap);
	free(x->frame_func);
	free(x->frame_map);
	free(x->frame_done);
	free(x->nlabels);
	free(x->funcs);
	free(x->maps);
	free(x->map_seen);
	free(x->locs);
	free(x->loc_line);
	free(x->lines);
	free(x->types);
	free(x->samples);
	free(x->loc_ids);
	free(x->values);
	free(x->labels);
	free(x->comments);
}

/* Pointer arrays over the items of @arr (@n of @size bytes), as protobuf-c has them. */
static void **pointers(void *arr, size_t n, size_t size)
{
	void **v = calloc(n + 1, sizeof(*v));

	if (v)
		for (size_t i = 0; i < n; i++)
			v[i] = (char *)arr + i * size;
	return v;
}

static int pack(struct pprof *x, FILE *f)
{
	const struct profile *p = x->p;
	pb_profile msg = PERFTOOLS__PROFILES__PROFILE__INIT;
	size_t nlocs = perfev__intern_count(&x->locmap), nstrs = perfev__intern_count(&x->strs);
	pb_line **lines = NULL;
	pb_location **locs = NULL;
	pb_label **labels = NULL;
	char **strs;
	int err = -ENOMEM;

	msg.n_sample_type = x->ntypes;
	msg.n_sample = x->nsamples;
	msg.n_mapping = perfev__intern_count(&x->mapmap);
	msg.n_location = nlocs;
	msg.n_function = perfev__intern_count(&x->funcmap);
	msg.n_string_table = nstrs;
	msg.string_table = strs = calloc(nstrs + 1, sizeof(*strs));
	for (size_t i = 0; strs && i < nstrs; i++)
		strs[i] = (char *)perfev__intern_at(&x->strs, i);
	msg.n_comment = x->ncomments;
	msg.comment = x->comments;
	msg.sample_type = (pb_value_type **)pointers(x->types, x->ntypes, sizeof(*x->types));
	msg.sample = (pb_sample **)pointers(x->samples, x->nsamples, sizeof(*x->samples));
	msg.mapping = (pb_mapping **)pointers(x->maps, msg.n_mapping, sizeof(*x->maps));
	msg.function = (pb_function **)pointers(x->funcs, msg.n_function, sizeof(*x->funcs));
	locs = (pb_location **)pointers(x->locs, nlocs, sizeof(*x->locs));
	lines = (pb_line **)pointers(x->lines, x->nlines, sizeof(*x->lines));
	labels = (pb_label **)pointers(x->labels, NLABELS * x->nsamples, sizeof(*x->labels));
	if (!strs || !msg.sample_type || !msg.sample || !msg.mapping || !msg.function || !locs ||
	    !lines || !labels)
		goto out;
	msg.location = locs;
	for (size_t i = 0; i < nlocs; i++)
		x->locs[i].line = &lines[x->loc_line[i]];
	for (size_t i = 0; i < x->nsamples; i++) {
		x->samples[i].n_label = x->nlabels[i];
		x->samples[i].label = &labels[NLABELS * i];
	}
	if (p->meta.time_last > p->meta.time_first && p->meta.time_first)
		msg.duration_nanos = (int64_t)(p->meta.time_last - p->meta.time_first);
	/* With several events, show the first event's period by default rather than the last's. */
	if (x->ntypes > 2)
		msg.default_sample_type = x->types[1].type;
	if (x->ntypes >= 2) {
		const struct profile_event *e = &p->events[x->first_ev];

		msg.period_type = &x->types[1];
		msg.period = e->samples ? (int64_t)(e->period / e->samples) : 0;
	}
	err = write_gzip(&msg, f);
out:
	free(strs);
	free(msg.sample_type);
	free(msg.sample);
	free(msg.mapping);
	free(msg.function);
	free(locs);
	free(lines);
	free(labels);
	return err;
}

int profile_write_pprof(const struct profile *p, size_t ev, FILE *f)
{
	struct pprof x = {.p = p};
	int err;

	if (!p || !f)
		return -EINVAL;
	/* The table starts with "", as the format requires. */
	err = str_index(&x, "") < 0 ? -ENOMEM : 0;
	if (!err)
		err = add_types(&x, ev);
	if (!err)
		err = add_main_mapping(&x, ev);
	if (!err)
		err = add_samples(&x, ev);
	if (!err)
		err = add_comments(&x);
	if (!err)
		err = pack(&x, f);
	pprof_release(&x);
	return err;
}
