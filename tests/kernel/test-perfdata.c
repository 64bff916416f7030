// SPDX-License-Identifier: LGPL-2.1-or-later
/* perf.data interop with Linux perf: files perf records read here, files written here read by perf.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <perfev/perfdata.h>
#include "harness.h"

#define SKIP(feature, ...)                                                                         \
	do {                                                                                       \
		harness_skip(feature, __VA_ARGS__);                                                \
		return;                                                                            \
	} while (0)

#define MAX_RECS (1 << 20)
#define ST_CLOCK (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)

static char dir[64];

__attribute__((destructor)) static void cleanup(void)
{
	char cmd[128];

	if (dir[0] && !getenv("PERFEV_TEST_KEEP")) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			fprintf(stderr, "cannot remove %s\n", dir);
	}
}

static const char *tmp(const char *name)
{
	static char path[4][256];
	static int next;
	char *p = path[next++ % 4];

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/perfev-perfdata-XXXXXX");
		if (!mkdtemp(dir))
			abort();
	}
	snprintf(p, sizeof(path[0]), "%s/%s", dir, name);
	return p;
}

/* The whole output of a shell command (NUL-terminated, malloc'ed), and its exit status. */
static char *capture(const char *cmd, int *status)
{
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap + 1);
	FILE *f = popen(cmd, "r");
	size_t n;

	if (!buf || !f)
		abort();
	while ((n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			cap *= 2;
			buf = realloc(buf, cap + 1);
			if (!buf)
				abort();
		}
	}
	buf[len] = '\0';
	*status = pclose(f);
	return buf;
}

static bool have_perf(void)
{
	static int have = -1;
	int status;
	char *out;

	if (have < 0) {
		out = capture("perf --version 2>/dev/null", &status);
		have = status == 0 && !strncmp(out, "perf version", 12);
		free(out);
	}
	return have;
}

static bool have_tracepoint(void)
{
	return access("/sys/kernel/tracing/events/sched/sched_switch/id", R_OK) == 0;
}

/*
 * Record with perf into @out (pipe mode: perf writes to stdout, redirected).
 * Returns 0, or a skip reason in @why: perf cannot record here.  While a
 * session asks for build ids system-wide (elsewhere on the machine), Linux
 * marks this one's MMAP2 records as carrying one too, and perf 6.1 aborts
 * reading them (util/build-id.c): a recording that fails, or a file perf
 * script cannot read through, is made again, five times at most over some 10 s.
 */
static int perf_record(const char *args, const char *out, bool pipe, char *why, size_t len)
{
	char cmd[1024], *text;
	int status = -1;

	for (int try = 1; try <= 5 && status; try++) {
		if (try > 1)
			sleep((unsigned int)try - 1);
		if (pipe)
			snprintf(cmd, sizeof(cmd), "perf record -q -o - %s > %s 2>%s", args, out,
				 tmp("record.err"));
		else
			snprintf(cmd, sizeof(cmd), "perf record -q -o %s %s 2>%s", out, args,
				 tmp("record.err"));
		status = system(cmd);
		if (status)
			continue; /* its own build-id pass aborted, or it cannot record here */
		snprintf(cmd, sizeof(cmd), "perf script %s%s >/dev/null 2>&1",
			 pipe ? "-i - < " : "-i ", out);
		status = system(cmd) ? -1 : 0;
	}
	if (status == 0)
		return 0;
	snprintf(cmd, sizeof(cmd), "head -1 %s", tmp("record.err"));
	text = capture(cmd, &status);
	text[strcspn(text, "\n")] = '\0';
	snprintf(why, len, "perf record %s: %s", args, text[0] ? text : "failed");
	free(text);
	return -1;
}

/* The -i argument for perf: the file, or standard input for a stream. */
static void perf_input(char *buf, size_t len, const char *path, bool pipe)
{
	if (pipe)
		snprintf(buf, len, "-i - < %s", path);
	else
		snprintf(buf, len, "-i %s", path);
}

struct dumped {
	uint64_t offset;
	uint32_t size, type;
};

static int by_offset(const void *a, const void *b)
{
	const struct dumped *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/*
 * What perf itself reads from the file: one "OFFSET@FILE [SIZE]: event: TYPE"
 * line per record in `perf report -D` (kernel records in time order, as
 * perf sorts them: put back in file order here).  Offsets of a stream
 * count from after its header.
 */
static size_t perf_dump(const char *path, bool pipe, struct dumped *out, size_t max)
{
	char cmd[512], in[300], *text, *line, *save = NULL;
	size_t n = 0;
	int status;

	perf_input(in, sizeof(in), path, pipe);
	snprintf(cmd, sizeof(cmd), "perf report -D --stdio %s 2>/dev/null", in);
	text = capture(cmd, &status);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		uint64_t off, size;
		unsigned int type;

		if (strncmp(line, "0x", 2) ||
		    sscanf(line, "%" SCNx64 "@%*s [%" SCNx64 "]: event: %u", &off, &size, &type) !=
			3)
			continue;
		if (n < max)
			out[n] = (struct dumped){off + (pipe ? 16 : 0), (uint32_t)size, type};
		n++;
	}
	free(text);
	qsort(out, n < max ? n : max, sizeof(*out), by_offset);
	return n;
}

/* Event names in the order perf's header lists them ("# event : name = NAME, ..."). */
static size_t perf_names(const char *path, bool pipe, char names[][64], size_t max)
{
	char cmd[512], in[300], *text, *p;
	size_t n = 0;
	int status;

	perf_input(in, sizeof(in), path, pipe);
	snprintf(cmd, sizeof(cmd), "perf report --header-only %s 2>/dev/null", in);
	text = capture(cmd, &status);
	for (p = text; (p = strstr(p, "# event : name = ")); p++) {
		p += strlen("# event : name = ");
		if (n < max)
			snprintf(names[n], 64, "%.*s", (int)strcspn(p, ","), p);
		n++;
	}
	free(text);
	return n;
}

/*
 * Read a perf-recorded file and hold it against perf's own reading: the
 * same records at the same offsets, the same events with the same names.
 */
static void check_perf_file(const char *path, bool pipe, size_t nattrs, size_t *nsamples)
{
	static struct dumped want[MAX_RECS];
	char names[16][64];
	struct perfev_data_reader *r;
	struct perfev_data_record rec;
	size_t nwant, nnames, i = 0, samples = 0, unowned = 0;
	int ret;

	nwant = perf_dump(path, pipe, want, MAX_RECS);
	CHECK(nwant > 0 && nwant <= MAX_RECS);
	nnames = perf_names(path, pipe, names, 16);
	CHECK_INT(nnames, nattrs);
	CHECK_INT(perfev_data_open(path, NULL, &r), 0);
	CHECK(perfev_data_is_pipe(r) == pipe);
	while ((ret = perfev_data_next(r, &rec)) == 1) {
		/* Header records are the reader's own: perf lists them, the reader does not. */
		while (i < nwant && (want[i].type == PERFEV_RECORD_HEADER_ATTR ||
				     want[i].type == PERFEV_RECORD_HEADER_FEATURE ||
				     want[i].type == PERFEV_RECORD_HEADER_TRACING_DATA))
			i++;
		CHECK(i < nwant);
		if (rec.offset != want[i].offset || rec.size != want[i].size ||
		    rec.type != want[i].type) {
			harness_fail(__FILE__, __LINE__,
				     "record %zu: %" PRIx64 " [%u] type %u, perf says %" PRIx64
				     " [%u] type %u",
				     i, rec.offset, rec.size, rec.type, want[i].offset,
				     want[i].size, want[i].type);
			perfev_data_close(r);
			return;
		}
		if (rec.type == PERF_RECORD_SAMPLE)
			samples++;
		if (rec.type < 64 && !rec.attr)
			unowned++;
		/* Every record perf wrote decodes with the layout of the event it belongs to. */
		if (rec.attr) {
			struct perfev_record out;
			int err =
			    perfev_record_decode(&rec.attr->layout, rec.bytes, rec.size, &out);

			if (err) {
				harness_fail(__FILE__, __LINE__,
					     "record %zu (type %u) at %" PRIx64 ": %d", i, rec.type,
					     rec.offset, err);
				perfev_data_close(r);
				return;
			}
		}
		i++;
	}
	CHECK_INT(ret, 0);
	while (i < nwant && (want[i].type == PERFEV_RECORD_HEADER_ATTR ||
			     want[i].type == PERFEV_RECORD_HEADER_FEATURE ||
			     want[i].type == PERFEV_RECORD_HEADER_TRACING_DATA))
		i++;
	CHECK_INT(i, nwant);
	CHECK_INT(unowned, 0);
	CHECK_INT(perfev_data_attr_count(r), nattrs);
	for (i = 0; i < nattrs; i++) {
		const struct perfev_data_attr *a = perfev_data_attr(r, i);

		CHECK(a->nids > 0);
		CHECK(perfev_data_attr_by_id(r, a->ids[0]) == a);
		CHECK_STR(a->name, names[i]);
	}
	*nsamples = samples;
	perfev_data_close(r);
}

/* The sample count perf reports, as the grep over its dump counts it. */
static size_t perf_samples(const char *path, bool pipe)
{
	char cmd[512], in[300], *text;
	int status;
	size_t n;

	perf_input(in, sizeof(in), path, pipe);
	snprintf(cmd, sizeof(cmd),
		 "perf report -D --stdio %s 2>/dev/null | grep -c 'PERF_RECORD_SAMPLE'", in);
	text = capture(cmd, &status);
	n = strtoul(text, NULL, 10);
	free(text);
	return n;
}

/* Declare to @w the events and features @r has that it has not yet. */
static int sync_header(struct perfev_data_reader *r, struct perfev_data_writer *w, size_t *added,
		       bool *copied)
{
	const void *data;
	size_t len;
	int f, ret = 0;

	for (; !ret && *added < perfev_data_attr_count(r); (*added)++) {
		const struct perfev_data_attr *a = perfev_data_attr(r, *added);

		ret = perfev_data_add_attr(w, a->attr, a->name, a->ids, a->nids);
	}
	for (f = 1; !ret && f < PERFEV_FEAT_MAX; f++) {
		if (copied[f] || perfev_data_feature(r, f, &data, &len))
			continue;
		ret = perfev_data_set_feature(w, f, data, len);
		copied[f] = true;
	}
	return ret;
}

/*
 * Copy @in to @out through this library: every event, feature and record,
 * in the given mode.  A stream declares events and features on the way:
 * those perfev_data_next() met are declared before the record it returns.
 */
static int copy_file(const char *in, const char *out, bool pipe_out)
{
	struct perfev_data_write_opts o = {.sz = sizeof(o), .pipe = pipe_out};
	struct perfev_data_reader *r;
	struct perfev_data_writer *w;
	struct perfev_data_record rec;
	bool copied[PERFEV_FEAT_MAX] = {false};
	size_t added = 0;
	int ret;

	ret = perfev_data_open(in, NULL, &r);
	if (ret)
		return ret;
	ret = perfev_data_create(out, &o, &w);
	if (ret) {
		perfev_data_close(r);
		return ret;
	}
	for (;;) {
		ret = perfev_data_next(r, &rec);
		if (ret < 0)
			break;
		ret = sync_header(r, w, &added, copied) ?: ret;
		if (ret <= 0)
			break;
		if (rec.payload_size) {
			/* AUX data goes right after its record. */
			unsigned char *both = malloc(rec.size + rec.payload_size);

			if (!both)
				abort();
			memcpy(both, rec.bytes, rec.size);
			memcpy(both + rec.size, rec.payload, rec.payload_size);
			ret = perfev_data_write(w, both, rec.size + rec.payload_size);
			free(both);
		} else {
			ret = perfev_data_write(w, rec.bytes, rec.size);
		}
		if (ret)
			break;
	}
	if (!ret)
		ret = perfev_data_finish(w);
	perfev_data_writer_free(w);
	perfev_data_close(r);
	return ret;
}

/* `perf script` of a file: its output, and whether perf said anything on stderr. */
static char *perf_script(const char *path, bool pipe, const char *opts, char *err, size_t errlen)
{
	char cmd[700], in[300], *out, *text;
	int status, st2;

	perf_input(in, sizeof(in), path, pipe);
	snprintf(cmd, sizeof(cmd), "perf script %s %s 2>%s", opts, in, tmp("script.err"));
	out = capture(cmd, &status);
	snprintf(cmd, sizeof(cmd), "cat %s", tmp("script.err"));
	text = capture(cmd, &st2);
	snprintf(err, errlen, "%s%s", status ? "perf script failed: " : "", text);
	free(text);
	return out;
}

/*
 * The three checks on one recording: perf's records read here, the
 * sample count perf reports, and a copy written here that perf script
 * prints exactly as the original.
 */
static void recorded(const char *name, const char *args, bool pipe, size_t nattrs)
{
	char why[512], path[256], copy[300], err[4096], err2[4096], *a, *b;
	size_t samples = 0;

	if (!have_perf())
		SKIP("perf", "perf: not installed");
	snprintf(path, sizeof(path), "%s", tmp(name));
	if (perf_record(args, path, pipe, why, sizeof(why)))
		SKIP("perf-record", "%s", why);
	check_perf_file(path, pipe, nattrs, &samples);
	if (harness_done())
		return;
	CHECK(samples > 0);
	CHECK_INT(samples, perf_samples(path, pipe));

	snprintf(copy, sizeof(copy), "%s.copy", path);
	CHECK_INT(copy_file(path, copy, pipe), 0);
	a = perf_script(path, pipe, "", err, sizeof(err));
	b = perf_script(copy, pipe, "", err2, sizeof(err2));
	EXPECT(!strcmp(err, err2), "perf script said '%s' on the copy, '%s' on the original", err2,
	       err);
	EXPECT(a[0] && !strcmp(a, b), "perf script output differs for the copy of %s", name);
	free(a);
	free(b);
	/* The copy is itself a file perf's records can be checked against. */
	check_perf_file(copy, pipe, nattrs, &samples);
}

TEST(read_cpu_clock)
{
	recorded("clock.data", "-e cpu-clock -c 100000 -- sleep 0.1", false, 1);
}

TEST(read_callgraph)
{
	recorded("callgraph.data", "-e cpu-clock -c 100000 -g -- sleep 0.1", false, 1);
}

TEST(read_time_cpu)
{
	recorded("timecpu.data", "-e cpu-clock -c 100000 -T --sample-cpu -- sleep 0.1", false, 1);
}

TEST(read_two_events)
{
	recorded("two.data", "-e cpu-clock,page-faults -c 100000 -- sleep 0.1", false, 2);
}

TEST(read_group)
{
	recorded("group.data", "-e '{cpu-clock,page-faults}:S' -c 100000 -- sleep 0.1", false, 2);
}

TEST(read_tracepoint)
{
	if (!have_tracepoint())
		SKIP("tracefs", "sched:sched_switch: no tracefs at /sys/kernel/tracing");
	/* perf adds a dummy event for the side-band records of a system-wide session. */
	recorded("tp.data", "-e sched:sched_switch -a -- sleep 0.1", false, 2);
}

TEST(read_pipe)
{
	recorded("clock.pipe", "-e cpu-clock -c 100000 -g -- sleep 0.1", true, 1);
}

TEST(read_pipe_two_events)
{
	recorded("two.pipe", "-e cpu-clock,task-clock -c 100000 -- sleep 0.1", true, 2);
}

TEST(read_pipe_tracepoint)
{
	if (!have_tracepoint())
		SKIP("tracefs", "sched:sched_switch: no tracefs at /sys/kernel/tracing");
	recorded("tp.pipe", "-e sched:sched_switch -a -- sleep 0.1", true, 2);
}

/*
 * A file-mode recording copied into pipe mode prints the same: features
 * become stream records (tracing data, build ids) the way perf sends them.
 */
static void file_to_pipe(const char *name, const char *args, const char *fields)
{
	char why[512], path[256], copy[300], err[4096], err2[4096], *a, *b;

	if (!have_perf())
		SKIP("perf", "perf: not installed");
	snprintf(path, sizeof(path), "%s", tmp(name));
	if (perf_record(args, path, false, why, sizeof(why)))
		SKIP("perf-record", "%s", why);
	snprintf(copy, sizeof(copy), "%s.pipe", path);
	CHECK_INT(copy_file(path, copy, true), 0);
	a = perf_script(path, false, fields, err, sizeof(err));
	b = perf_script(copy, true, fields, err2, sizeof(err2));
	EXPECT(!strcmp(err, err2), "perf script said '%s' on the pipe copy, '%s' on the original",
	       err2, err);
	EXPECT(a[0] && !strcmp(a, b), "perf script output differs for the pipe copy");
	free(a);
	free(b);
}

TEST(file_to_pipe)
{
	file_to_pipe("f2p.data", "-e cpu-clock -c 100000 -- sleep 0.1", "-F comm,tid,time,ip,sym");
}

TEST(file_to_pipe_tracepoint)
{
	if (!have_tracepoint())
		SKIP("tracefs", "sched:sched_switch: no tracefs at /sys/kernel/tracing");
	file_to_pipe("f2p-tp.data", "-e sched:sched_switch -a -- sleep 0.1",
		     "-F comm,tid,time,event,trace");
}

/* ---- files written here, read by perf ------------------------------------------------------- */

#define NSAMPLES  100
#define TID	  4242
#define MAP_START 0x7f0000000000ULL
#define MAP_LEN	  0x10000ULL

struct buf {
	unsigned char *p;
	size_t len, cap;
};

static void put(struct buf *b, const void *d, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	memcpy(b->p + b->len, d, n);
	b->len += n;
}

static void put32(struct buf *b, uint32_t v)
{
	put(b, &v, 4);
}

static void put64(struct buf *b, uint64_t v)
{
	put(b, &v, 8);
}

static void header(struct buf *b, uint32_t type, uint16_t misc, size_t size)
{
	uint16_t s = (uint16_t)size;

	put32(b, type);
	put(b, &misc, 2);
	put(b, &s, 2);
}

/* A string padded with NULs to a multiple of 8 bytes. */
static void put_str(struct buf *b, const char *s, size_t padded)
{
	static const char zero[64];

	put(b, s, strlen(s));
	put(b, zero, padded - strlen(s));
}

/* The sample_id trailer of ST_CLOCK: pid, tid, time. */
static void trailer(struct buf *b, uint64_t time)
{
	put32(b, TID);
	put32(b, TID);
	put64(b, time);
}

static uint64_t sample_ip(int i)
{
	return MAP_START + 0x1000 + (uint64_t)i * 16;
}

/* COMM, MMAP2 and NSAMPLES samples of a cpu-clock event with ST_CLOCK and sample_id_all. */
static void synth(struct buf *b)
{
	int i;

	header(b, PERF_RECORD_COMM, 0, 8 + 8 + 16 + 16);
	put32(b, TID);
	put32(b, TID);
	put_str(b, "perfev-synth", 16);
	trailer(b, 1000000);

	header(b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, 8 + 64 + 24 + 16);
	put32(b, TID);
	put32(b, TID);
	put64(b, MAP_START);
	put64(b, MAP_LEN);
	put64(b, 0);	  /* pgoff */
	put32(b, 8);	  /* maj */
	put32(b, 1);	  /* min */
	put64(b, 123456); /* ino */
	put64(b, 0);	  /* ino_generation */
	put32(b, PROT_READ | PROT_EXEC);
	put32(b, 2); /* MAP_PRIVATE */
	put_str(b, "/opt/perfev/libsynth.so", 24);
	trailer(b, 1000001);

	for (i = 0; i < NSAMPLES; i++) {
		header(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 8 + 32);
		put64(b, sample_ip(i));
		put32(b, TID);
		put32(b, TID);
		put64(b, 2000000 + (uint64_t)i * 1000);
		put64(b, 100000);
	}
}

static int write_synth(const char *path, bool pipe)
{
	struct perfev_data_write_opts o = {.sz = sizeof(o), .pipe = pipe};
	struct perf_event_attr a;
	struct perfev_data_writer *w;
	uint64_t ids[2] = {1001, 1002};
	char a0[] = "perfev-test", a1[] = "record";
	char *const argv[] = {a0, a1, NULL};
	struct buf b = {0};
	int ret;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = 100000;
	a.sample_type = ST_CLOCK;
	a.sample_id_all = 1;
	a.mmap = a.mmap2 = a.comm = 1;
	a.exclude_kernel = 1;
	synth(&b);
	ret = perfev_data_create(path, &o, &w);
	if (ret)
		return ret;
	ret = perfev_data_set_host_features(w, argv);
	if (!ret)
		ret = perfev_data_add_attr(w, &a, "cpu-clock", ids, 2);
	if (!ret)
		ret = perfev_data_write(w, b.p, b.len);
	if (!ret)
		ret = perfev_data_finish(w);
	perfev_data_writer_free(w);
	free(b.p);
	return ret;
}

/* perf script prints the samples written here, with their tids and ips. */
static void written_read_by_perf(bool pipe)
{
	char path[256], err[4096], *out, *line, *save = NULL;
	unsigned long tid;
	uint64_t ip;
	int n = 0;

	if (!have_perf())
		SKIP("perf", "perf: not installed");
	snprintf(path, sizeof(path), "%s", tmp(pipe ? "synth.pipe" : "synth.data"));
	CHECK_INT(write_synth(path, pipe), 0);
	out = perf_script(path, pipe, "-F comm,tid,ip,dso", err, sizeof(err));
	EXPECT(!err[0], "perf script: %s", err);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char comm[32], dso[128];

		if (sscanf(line, "%31s %lu %" SCNx64 " (%127[^)])", comm, &tid, &ip, dso) != 4) {
			harness_fail(__FILE__, __LINE__, "perf script line: '%s'", line);
			break;
		}
		EXPECT(!strcmp(comm, "perfev-synth") && tid == TID && ip == sample_ip(n) &&
			   !strcmp(dso, "/opt/perfev/libsynth.so"),
		       "sample %d: '%s'", n, line);
		n++;
	}
	free(out);
	CHECK_INT(n, NSAMPLES);
	if (pipe)
		return;
	{
		char cmd[512];
		int status;

		snprintf(cmd, sizeof(cmd), "perf report -i %s --stdio --header 2>&1", path);
		out = capture(cmd, &status);
		CHECK_INT(status, 0);
		CHECK_CONTAINS(out, "# event : name = cpu-clock");
		CHECK_CONTAINS(out, "# cmdline : perfev-test record");
		CHECK_CONTAINS(out, "# nrcpus online");
		CHECK_CONTAINS(out, "# total memory");
		CHECK_CONTAINS(out, "# sample duration :      0.099 ms");
		CHECK_CONTAINS(out, "of event 'cpu-clock'");
		CHECK_CONTAINS(out, "perfev-synth");
		CHECK_CONTAINS(out, "libsynth.so");
		EXPECT(!strstr(out, "WARNING") && !strstr(out, "rror"), "perf report: %s", out);
		free(out);
	}
}

TEST(written_file)
{
	written_read_by_perf(false);
}

TEST(written_pipe)
{
	written_read_by_perf(true);
}
