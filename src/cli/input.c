// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The perf.data input of perfev script and perfev report: the source
 * opened with the symbolizer's options of the tool (the cache directory,
 * --kallsyms, --no-demangle), and the messages for a file that cannot be
 * read, for one that breaks off, and for what was skipped.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "archive-tar.h"
#include "input.h"
#include "perfev-cli.h"

/* ---- library messages ----------------------------------------------------------- */

static char lib_msg[512];

static void on_log(enum perfev_log_level level, const char *msg, void *ctx)
{
	/* A warning is said at once (a JIT map not read, ...); an error explains a failure. */
	if (level == PERFEV_LOG_WARN)
		cli_error("warning: %s", msg);
	else if (level < PERFEV_LOG_WARN)
		snprintf(lib_msg, sizeof(lib_msg), "%s", msg);
}

/* " (what the library said)" after a failure, or "". */
static const char *lib_detail(char *buf, size_t len)
{
	if (!lib_msg[0])
		return "";
	snprintf(buf, len, " (%s)", lib_msg);
	return buf;
}

/* ---- debug files from debuginfod servers ------------------------------------------ */

/* Bytes as "12.3 MiB". */
static const char *human_bytes(long n, char *buf, size_t len)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB"};
	double v = (double)n;
	int u = 0;

	while (v >= 1024 && u < 3) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
	return buf;
}

/* Why a server could not be reached, in lowercase (network errnos perfev_strerror() lacks). */
static const char *net_error(int err, char *buf, size_t len)
{
	if (err == -ETIMEDOUT)
		return "no answer within the timeout (DEBUGINFOD_TIMEOUT, default 10 s)";
	snprintf(buf, len, "%s", strerror(-err));
	buf[0] = (char)tolower((unsigned char)buf[0]);
	return buf;
}

/* The length of the server's part of the event's URL (before "/buildid/"). */
static int server_len(const struct perfev_debuginfod_event *ev)
{
	const char *u = ev->url ? ev->url : ev->urls, *end = strstr(u, "/buildid/");

	return end ? (int)(end - u) : (int)strlen(u);
}

/*
 * What a fetch from debuginfod servers does: on a terminal its progress
 * on one line, redrawn; then one line per file fetched and where it is
 * cached; one line when the servers cannot be reached.
 */
static void on_debuginfod(const struct perfev_debuginfod_event *ev, void *ctx)
{
	bool *drawn = ctx, tty = isatty(STDERR_FILENO);
	const char *what = ev->executable ? "the missing file" : "the debug info of";
	char a[64], b[32];

	if (ev->step == PERFEV_DEBUGINFOD_PROGRESS) {
		if (!tty)
			return;
		fprintf(stderr, "\r%s: fetching %s '%s' from %.*s: %s", cli_prog, what, ev->file,
			server_len(ev), ev->url ? ev->url : ev->urls,
			human_bytes(ev->done, a, sizeof(a)));
		if (ev->total > 0)
			fprintf(stderr, " of %s", human_bytes(ev->total, b, sizeof(b)));
		fprintf(stderr, "\033[K");
		*drawn = true;
		return;
	}
	if (*drawn)
		fprintf(stderr, "\r\033[K");
	*drawn = false;
	if (ev->step == PERFEV_DEBUGINFOD_FETCHED)
		cli_error("fetched %s '%s' (build id %s, %s) from %.*s; cached in %s", what,
			  ev->file, ev->build_id, human_bytes(ev->done, a, sizeof(a)),
			  server_len(ev), ev->url ? ev->url : ev->urls, ev->path);
	else if (ev->step == PERFEV_DEBUGINFOD_FAILED)
		cli_error("warning: cannot fetch debug info from the debuginfod servers '%s' "
			  "(DEBUGINFOD_URLS): %s; files without local debug info stay "
			  "unsymbolized (start the server, or unset DEBUGINFOD_URLS)",
			  ev->urls, net_error(ev->err, a, sizeof(a)));
}

/* ---- opening -------------------------------------------------------------------- */

/* --kallsyms FILE: check that FILE can be read, before any output. */
static int check_kallsyms(const char *path)
{
	struct stat st;
	char magic[4];
	int fd;

	if (!path)
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		cli_error("cannot read the kallsyms file '%s': %s (save /proc/kallsyms of the "
			  "recording's machine and boot to a file)",
			  path, fd < 0 ? perfev_strerror(-errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return 1;
	}
	/* perf's -k is --vmlinux: an ELF kernel image given here is said to be one. */
	if (read(fd, magic, sizeof(magic)) == (ssize_t)sizeof(magic) &&
	    !memcmp(magic, "\177ELF", 4)) {
		cli_error(
		    "cannot read the kallsyms file '%s': it is an ELF file (a vmlinux, as perf's "
		    "-k/--vmlinux takes); perfev reads kernel symbols from kallsyms text: save "
		    "/proc/kallsyms of the recording's machine and boot to a file",
		    path);
		close(fd);
		return 1;
	}
	close(fd);
	return 0;
}

/* Does @path start like a perf.data file?  Only to word the error; a pipe cannot be peeked. */
static bool is_perf_data(const char *path)
{
	char magic[8];
	FILE *f;
	bool yes;

	if (!strcmp(path, "-"))
		return false;
	f = fopen(path, "rb");
	if (!f)
		return false;
	yes = fread(magic, 1, sizeof(magic), f) == sizeof(magic) &&
	      (!memcmp(magic, "PERFILE2", 8) || !memcmp(magic, "2ELIFREP", 8));
	fclose(f);
	return yes;
}

int input_open_error(const char *path, int err)
{
	char d[600];

	switch (err) {
	case -ENOENT:
		cli_error("cannot read '%s': no such file (record one with 'perfev record')", path);
		break;
	case -EACCES:
	case -EPERM:
		cli_error("cannot read '%s': permission denied (run as its owner or root)", path);
		break;
	case -EISDIR:
		cli_error("cannot read '%s': a directory without a 'data' file: not one 'perf "
			  "record --threads' wrote",
			  path);
		break;
	case -ELOOP:
		cli_error("cannot read '%s': a file of its directory is a symbolic link, which "
			  "perfev does not follow (copy the file there instead)",
			  path);
		break;
	case -E2BIG:
		cli_error("cannot read '%s': its directory holds more data.N files than perfev "
			  "reads (4096)",
			  path);
		break;
	case -EPROTO:
		cli_error(
		    "cannot read '%s': a perf.data file perfev cannot read: PERFILE1, written "
		    "on a host of the other byte order, or with sample_type bits it does not "
		    "know%s",
		    path, lib_detail(d, sizeof(d)));
		break;
	case -EBADMSG:
		if (is_perf_data(path))
			cli_error("cannot read '%s': the file is damaged or truncated%s (was 'perf "
				  "record' interrupted before it finished the file?)",
				  path, lib_detail(d, sizeof(d)));
		else
			cli_error("cannot read '%s': not a perf.data file (it does not start with "
				  "PERFILE2)%s",
				  path, lib_detail(d, sizeof(d)));
		break;
	default:
		cli_error("cannot read '%s': %s%s", path, perfev_strerror(err),
			  lib_detail(d, sizeof(d)));
	}
	return 1;
}

/*
 * kallsyms and inflated debug files are kept between runs: the kernel
 * takes tens of milliseconds to write kallsyms, libdw as long to inflate
 * libc's DWARF.
 */
static const char *cache_dir(char *dir, size_t len)
{
	const char *cache = getenv("XDG_CACHE_HOME");
	int n = -1;

	if (cache && cache[0] == '/')
		n = snprintf(dir, len, "%s/perfev", cache);
	else if ((cache = getenv("HOME")) && cache[0] == '/')
		n = snprintf(dir, len, "%s/.cache/perfev", cache);
	/* A path cut short would name another directory: then no cache. */
	if (n < 0 || (size_t)n >= len)
		dir[0] = '\0';
	return dir[0] ? dir : NULL;
}

/* ---- a large file, faulted in ahead ----------------------------------------------- */

/*
 * A report reads a large file once, front to back, and a page fault a
 * 64 KiB (the kernel's fault-around) costs it as much as its unwinding:
 * on a machine with a CPU to spare, a thread touches the mapping ahead of
 * the reader, so that the faults are taken there.  The reader reads the
 * same bytes either way.
 */
#define AHEAD_MIN  (16u << 20) /* smaller files: not worth a thread */
#define AHEAD_STEP (64u << 10)

struct input_map {
	const unsigned char *p;
	size_t len;
	pthread_t thread;
	bool running;
	atomic_bool stop;
};

static void *touch_ahead(void *arg)
{
	struct input_map *m = arg;
	unsigned char sum = 0;
	size_t off;

	for (off = 0; off < m->len && !atomic_load_explicit(&m->stop, memory_order_relaxed);
	     off += AHEAD_STEP)
		sum += *(const volatile unsigned char *)(m->p + off);
	return (void *)(uintptr_t)sum;
}

/* @path mapped, with its thread, when it is a large regular file on a machine of several CPUs. */
static struct input_map *map_ahead(const char *path)
{
	struct input_map *m;
	struct stat st;
	void *p;
	int fd;

	if (!strcmp(path, "-") || sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < (off_t)AHEAD_MIN ||
	    (uint64_t)st.st_size > SIZE_MAX) {
		close(fd);
		return NULL;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m) {
		munmap(p, (size_t)st.st_size);
		return NULL;
	}
	m->p = p;
	m->len = (size_t)st.st_size;
	atomic_init(&m->stop, false);
	m->running = !pthread_create(&m->thread, NULL, touch_ahead, m);
	return m;
}

static void unmap_ahead(struct input_map *m)
{
	if (!m)
		return;
	if (m->running) {
		atomic_store(&m->stop, true);
		pthread_join(m->thread, NULL);
	}
	munmap((void *)m->p, m->len);
	free(m);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

/* Remove the directory --archive was extracted into. */
static void archive_remove(struct input *in)
{
	if (in->archive_dir[0])
		nftw(in->archive_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	in->archive_dir[0] = '\0';
}

/* Extract --archive @path into a new private directory; 0 or 1 after saying why not. */
static int archive_open(struct input *in, const char *path)
{
	const char *tmp = getenv("TMPDIR");
	int fd, err;

	if (snprintf(in->archive_dir, sizeof(in->archive_dir), "%s/perfev-archive.XXXXXX",
		     tmp && *tmp ? tmp : "/tmp") >= (int)sizeof(in->archive_dir) ||
	    !mkdtemp(in->archive_dir)) {
		cli_error("cannot read archive '%s': no directory to extract it into: %s", path,
			  strerror(errno));
		in->archive_dir[0] = '\0';
		return 1;
	}
	fd = open(in->archive_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	err = fd < 0 ? -errno : tar_extract(path, fd);
	if (fd >= 0)
		close(fd);
	if (err) {
		cli_error("cannot read archive '%s': %s", path,
			  err == -EBADMSG
			      ? "not a tar archive (plain, zstd, bzip2 or gzip), or cut "
				"short"
			      : tar_strerror(err));
		archive_remove(in);
		return 1;
	}
	return 0;
}

int input_open(struct input *in, const struct input_opts *o)
{
	struct perfev_symbolizer_opts sym = {.sz = sizeof(sym)};
	struct perfev_machine_opts mach = {.sz = sizeof(mach), .symbolizer = &sym};
	struct perfev_source_opts so = {.sz = sizeof(so), .machine = &mach};
	struct stat st;
	int err;

	memset(in, 0, sizeof(*in));
	/* As perf: with no -i, a pipe on standard input is read rather than perf.data. */
	in->path = o->path;
	if (!in->path)
		in->path = !fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode) ? "-" : "perf.data";
	if (check_kallsyms(o->kallsyms))
		return 1;
	sym.cache_dir = cache_dir(in->cache_dir, sizeof(in->cache_dir));
	sym.no_demangle = o->no_demangle;
	sym.kallsyms = o->kallsyms;
	sym.symfs = o->symfs;
	if (o->archive) {
		if (archive_open(in, o->archive))
			return 1;
		sym.buildid_dir = in->archive_dir;
	} else if (!o->symfs && getenv("PERF_BUILDID_DIR") && *getenv("PERF_BUILDID_DIR")) {
		/* perf's build-id cache where perf archive and perf buildid-cache are told it is.
		 */
		sym.buildid_dir = getenv("PERF_BUILDID_DIR");
	}
	sym.debuginfod_fn = on_debuginfod;
	sym.debuginfod_ctx = &in->progress_drawn;
	so.raw = o->raw;
	so.whole_reads = o->whole_reads;
	perfev_set_log(on_log, PERFEV_LOG_WARN, NULL);
	/* The bytes are the file's as the library would map them: its messages are the same. */
	in->map = map_ahead(in->path);
	if (in->map)
		err = perfev_source_open_mem(in->map->p, in->map->len, &so, &in->src);
	else
		err = perfev_source_open(in->path, &so, &in->src);
	if (err) {
		unmap_ahead(in->map);
		in->map = NULL;
		archive_remove(in);
		return input_open_error(in->path, err);
	}
	return 0;
}

/* ---- reading -------------------------------------------------------------------- */

int input_fail(struct input *in, int err)
{
	struct perfev_source_stats st = {.sz = sizeof(st)};
	const char *type;
	char d[600];

	perfev_source_stats(in->src, &st);
	if (st.err_in_record) {
		type = perfev_record_type_name(st.err_type);
		cli_error("cannot read '%s': the %s record at offset %#llx (%u bytes) is corrupt: "
			  "%s (its fields do not fit its size and its event's sample_type)",
			  in->path, type ? type : "unknown", (unsigned long long)st.err_offset,
			  st.err_size, perfev_strerror(err));
	} else if (err == -EBADMSG && st.good_end) {
		cli_error("cannot read '%s': corrupt or truncated record after offset %#llx, where "
			  "the last good record ends%s; the records before it are shown",
			  in->path, (unsigned long long)st.good_end, lib_detail(d, sizeof(d)));
	} else if (err == -EBADMSG) {
		cli_error("cannot read '%s': corrupt or truncated record before the first event "
			  "record%s",
			  in->path, lib_detail(d, sizeof(d)));
	} else if (err == -EFBIG) {
		cli_error("cannot read '%s': its compressed records expand past what perfev "
			  "accepts from a file%s; the records before them are shown",
			  in->path, lib_detail(d, sizeof(d)));
	} else if (err == -EPROTO) {
		cli_error("cannot read '%s': an event after offset %#llx has sample_type bits "
			  "perfev does not know%s",
			  in->path, (unsigned long long)st.good_end, lib_detail(d, sizeof(d)));
	} else {
		cli_error("cannot read '%s': %s%s", in->path, perfev_strerror(err),
			  lib_detail(d, sizeof(d)));
	}
	return 1;
}

/* How the user stacks of a dwarf recording unwound, when some stopped short. */
static void warn_unwind(struct input *in)
{
	struct perfev_unwind_stats us = {.sz = sizeof(us)};
	uint64_t stacks;
	char why[512];
	size_t pos = 0;
	int i;

	if (perfev_machine_unwind_stats(perfev_source_machine(in->src), &us))
		return;
	/* A kernel thread's sample has no user registers: it has no user stack to cut short. */
	stacks = us.samples - us.stopped[PERFEV_UNWIND_NO_REGS];
	if (!stacks || us.root == stacks)
		return;
	why[0] = '\0';
	for (i = 0; i < PERFEV_UNWIND_NR_STOPS; i++) {
		int n;

		if (!us.stopped[i] || i == PERFEV_UNWIND_NO_REGS)
			continue;
		n = snprintf(why + pos, sizeof(why) - pos, "%s%s: %" PRIu64, pos ? ", " : "",
			     perfev_unwind_stop_name(i), us.stopped[i]);
		if (n < 0 || (size_t)n >= sizeof(why) - pos)
			break;
		pos += (size_t)n;
	}
	cli_error("warning: %" PRIu64 " of %" PRIu64 " user stacks were not unwound to their "
		  "thread's first function (%s); their call chains are cut short",
		  stacks - us.root, stacks, why);
}

void input_warn_end(struct input *in, bool *failed)
{
	struct perfev_source_stats st = {.sz = sizeof(st)};

	perfev_source_stats(in->src, &st);
	if (st.unknown_id)
		cli_error("warning: %llu samples belong to no event of the file header and were "
			  "skipped",
			  (unsigned long long)st.unknown_id);
	if (st.bad)
		cli_error("warning: %llu records could not be decoded and were skipped",
			  (unsigned long long)st.bad);
	if (st.out_of_order)
		cli_error(
		    "warning: %llu records came after later ones: the recording's rounds did not "
		    "keep them in time order, so samples may be shown before the process or "
		    "mappings they belong to",
		    (unsigned long long)st.out_of_order);
	if (st.lost)
		cli_error("warning: the recording lost %llu records (LOST records: the ring buffer "
			  "filled up; record with a larger -m or a lower frequency)",
			  (unsigned long long)st.lost);
	warn_unwind(in);
}

/* Every item of a repeatable option given to @add. */
static int add_list(struct perfev_filter *f, const struct opt_list *l,
		    int (*add)(struct perfev_filter *, const char *), const char *opt)
{
	int i, err;

	for (i = 0; l && i < l->n; i++) {
		err = add(f, l->items[i]);
		if (err == -ENOMEM)
			cli_die("out of memory");
		if (err) {
			cli_error("cannot filter by %s '%s': %s", opt, l->items[i],
				  add == perfev_filter_add_pids || add == perfev_filter_add_tids
				      ? "not a comma list of numbers (e.g. 42,43)"
				      : "no name in it (give a comma list of names)");
			return 2;
		}
	}
	return 0;
}

/* perf refuses -C unless every event samples its CPU. */
static int check_cpus(struct input *in)
{
	size_t i, n = perfev_source_attr_count(in->src);

	for (i = 0; i < n; i++) {
		const struct perf_event_attr *a = perfev_source_attr(in->src, i)->attr;

		if (!(a->sample_type & PERF_SAMPLE_CPU)) {
			cli_error("cannot filter '%s' by CPU: event '%s' was recorded without "
				  "sample CPUs (record with -a or --sample-cpu, or leave out -C)",
				  in->path, perfev_source_attr_name(in->src, i));
			return 1;
		}
	}
	return 0;
}

int input_filter(struct input *in, const struct input_filter_opts *o)
{
	uint64_t first = 0, last = 0;
	const struct perfev_data_reader *r = perfev_source_data(in->src);
	int err;

	if (perfev_filter_new(&in->filter))
		cli_die("out of memory");
	if (o->time && *o->time) {
		if (r && (perfev_data_feature_u64(r, PERFEV_FEAT_SAMPLE_TIME, 0, &first) ||
			  perfev_data_feature_u64(r, PERFEV_FEAT_SAMPLE_TIME, 1, &last)))
			first = last = 0;
		err = perfev_filter_set_time(in->filter, o->time, first, last);
		if (err == -ENOMEM)
			cli_die("out of memory");
		if (err == -ENODATA) {
			cli_error(
			    "cannot use --time '%s' on '%s': percents need the first and last "
			    "sample times, which the file does not record (its SAMPLE_TIME "
			    "feature; give times in seconds instead)",
			    o->time, in->path);
			return 1;
		}
		if (err) {
			cli_error(
			    "cannot use --time '%s': not a time filter (START,STOP in seconds "
			    "with up to 9 decimals, either may be empty; several such ranges "
			    "in order, separated by spaces; or percents of the recording: "
			    "10%%/2, 0%%-10%%,30%%-40%%, 25%%)",
			    o->time);
			return 2;
		}
	}
	if (o->cpus && *o->cpus) {
		err = perfev_filter_set_cpus(in->filter, o->cpus);
		if (err == -ENOMEM)
			cli_die("out of memory");
		if (err) {
			cli_error("cannot filter by CPU list '%s': not a CPU list (e.g. 0-3,8)",
				  o->cpus);
			return 2;
		}
		if (check_cpus(in))
			return 1;
	}
	if ((err = add_list(in->filter, o->pids, perfev_filter_add_pids, "--pid")) ||
	    (err = add_list(in->filter, o->tids, perfev_filter_add_tids, "--tid")) ||
	    (err = add_list(in->filter, o->comms, perfev_filter_add_comms, "--comms")) ||
	    (err = add_list(in->filter, o->syms, perfev_filter_add_symbols, "--symbols")) ||
	    (err = add_list(in->filter, o->dsos, perfev_filter_add_dsos, "--dsos")))
		return err;
	return 0;
}

bool input_keep(struct input *in, const struct perfev_source_event *ev)
{
	int ret = perfev_filter_sample(in->filter, in->src, ev);

	if (ret == -ENOMEM)
		cli_die("out of memory");
	return ret != 0;
}

void input_close(struct input *in)
{
	perfev_filter_free(in->filter);
	in->filter = NULL;
	perfev_source_free(in->src);
	in->src = NULL;
	unmap_ahead(in->map);
	in->map = NULL;
	archive_remove(in);
	perfev_set_log(NULL, PERFEV_LOG_ERROR, NULL);
}
