// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Records for what existed before the recording started: the threads
 * and executable mappings of processes already running (from /proc) and
 * the kernel's text, so samples of them resolve, and with --namespaces
 * the namespaces of their threads.  The kernel reports everything that
 * happens after the events are enabled itself.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "record.h"

static void emit(struct synth_ctx *sc, struct perfev_record *rec)
{
	unsigned char buf[8192];
	int n;

	/* Synthesized records carry a zero id trailer: perf reads them as the first event's. */
	memset(&rec->sid, 0, sizeof(rec->sid));
	n = perfev_record_encode(sc->layout, rec, buf, sizeof(buf));
	if (n < 0)
		return; /* a path too long for a record: leave that mapping out */
	if (sc->feed)
		n = sc->feed(sc->feed_arg, buf, (size_t)n);
	else
		n = sc->uw ? rec_unwind_feed(sc->uw, buf, (size_t)n)
			   : perfev_data_write(sc->w, buf, (size_t)n);
	if (n && !sc->err)
		sc->err = n;
	if (!n)
		sc->records++;
}

static bool read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = 0;
	return ok;
}

static void emit_comm(struct synth_ctx *sc, pid_t pid, pid_t tid)
{
	struct perfev_record rec = {.type = PERF_RECORD_COMM};
	char path[128], comm[64];

	snprintf(path, sizeof(path), "%s/%d/task/%d/comm", sc->procfs_root, (int)pid, (int)tid);
	if (!read_line(path, comm, sizeof(comm)))
		return;
	rec.u.comm.pid = (uint32_t)pid;
	rec.u.comm.tid = (uint32_t)tid;
	rec.u.comm.comm = comm;
	emit(sc, &rec);
}

/*
 * --namespaces: the namespaces of a thread as the kernel reports them in
 * PERF_RECORD_NAMESPACES, one (device, inode) pair per namespace of
 * <linux/perf_event.h>, in its order; one it cannot see stays zero.
 */
void synth_namespaces(struct synth_ctx *sc, pid_t pid, pid_t tid)
{
	static const char *const names[NR_NAMESPACES] = {
	    [NET_NS_INDEX] = "net",	  [UTS_NS_INDEX] = "uts",   [IPC_NS_INDEX] = "ipc",
	    [PID_NS_INDEX] = "pid",	  [USER_NS_INDEX] = "user", [MNT_NS_INDEX] = "mnt",
	    [CGROUP_NS_INDEX] = "cgroup",
	};
	struct perfev_record rec = {.type = PERF_RECORD_NAMESPACES};
	uint64_t link[NR_NAMESPACES][2] = {{0}};
	char path[160];
	struct stat st;
	size_t i, seen = 0;

	if (!sc->namespaces)
		return;
	for (i = 0; i < NR_NAMESPACES; i++) {
		snprintf(path, sizeof(path), "%s/%d/task/%d/ns/%s", sc->procfs_root, (int)pid,
			 (int)tid, names[i]);
		if (!stat(path, &st)) {
			link[i][0] = (uint64_t)st.st_dev;
			link[i][1] = (uint64_t)st.st_ino;
			seen++;
		}
	}
	/* As perf: hidden ones (pid 1 in a container) read as zeros; a thread gone, none. */
	snprintf(path, sizeof(path), "%s/%d/task/%d", sc->procfs_root, (int)pid, (int)tid);
	if (!seen && access(path, F_OK))
		return;
	rec.u.namespaces.pid = (uint32_t)pid;
	rec.u.namespaces.tid = (uint32_t)tid;
	rec.u.namespaces.nr = NR_NAMESPACES;
	rec.u.namespaces.link_info = link;
	emit(sc, &rec);
}

static void emit_fork(struct synth_ctx *sc, pid_t pid, pid_t tid)
{
	struct perfev_record rec = {.type = PERF_RECORD_FORK};

	/* A thread created by its process: it shares the maps perf already has. */
	rec.u.fork.pid = (uint32_t)pid;
	rec.u.fork.ppid = (uint32_t)pid;
	rec.u.fork.tid = (uint32_t)tid;
	rec.u.fork.ptid = (uint32_t)pid;
	emit(sc, &rec);
}

/* One line of /proc/PID/maps as an MMAP2; false when it is not one to report. */
static bool parse_map(const char *line, bool data_maps, struct perfev_record *rec, char *name,
		      size_t len)
{
	unsigned long long start, end, off, ino;
	unsigned int maj, min;
	char perms[8];
	int pos = 0;
	const char *path;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &off, &maj, &min,
		   &ino, &pos) < 7 ||
	    end <= start || strlen(perms) < 4)
		return false;
	path = line + pos;
	if (perms[2] != 'x' && !data_maps)
		return false;
	if (!*path) {
		/* Anonymous code (a JIT) is named as perf names it. */
		if (perms[2] != 'x')
			return false;
		path = "//anon";
	}
	snprintf(name, len, "%s", path);
	rec->type = PERF_RECORD_MMAP2;
	rec->misc = PERF_RECORD_MISC_USER | (perms[2] == 'x' ? 0 : PERF_RECORD_MISC_MMAP_DATA);
	rec->u.mmap2.addr = start;
	rec->u.mmap2.len = end - start;
	rec->u.mmap2.pgoff = off;
	rec->u.mmap2.maj = maj;
	rec->u.mmap2.min = min;
	rec->u.mmap2.ino = ino;
	rec->u.mmap2.prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
			    (perms[2] == 'x' ? PROT_EXEC : 0);
	rec->u.mmap2.flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
	rec->u.mmap2.filename = name;
	return true;
}

static void emit_maps(struct synth_ctx *sc, pid_t pid)
{
	char path[128], *line = NULL, name[4096];
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d/maps", sc->procfs_root, (int)pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		struct perfev_record rec = {0};

		line[strcspn(line, "\n")] = 0;
		if (!parse_map(line, sc->data_maps, &rec, name, sizeof(name)))
			continue;
		rec.u.mmap2.pid = rec.u.mmap2.tid = (uint32_t)pid;
		if (sc->build_ids && (rec.u.mmap2.prot & PROT_EXEC)) {
			char mf[192];

			snprintf(mf, sizeof(mf), "%s/%d/map_files/%" PRIx64 "-%" PRIx64,
				 sc->procfs_root, (int)pid, rec.u.mmap2.addr,
				 rec.u.mmap2.addr + rec.u.mmap2.len);
			build_ids_note_file(sc->build_ids, mf, name,
					    makedev(rec.u.mmap2.maj, rec.u.mmap2.min),
					    rec.u.mmap2.ino);
		}
		emit(sc, &rec);
	}
	free(line);
	fclose(f);
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

/* The numeric entries of directory @path, sorted; NULL when it cannot be read. */
static pid_t *list_pids(const char *path, size_t *n)
{
	pid_t *v = NULL;
	size_t cap = 0;
	struct dirent *de;
	DIR *d = opendir(path);

	*n = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		char *end;
		long x = strtol(de->d_name, &end, 10);

		if (!isdigit((unsigned char)de->d_name[0]) || *end || x <= 0)
			continue;
		if (perfev__grow(&v, &cap, *n + 1, sizeof(*v)))
			break;
		v[(*n)++] = (pid_t)x;
	}
	closedir(d);
	if (v)
		qsort(v, *n, sizeof(*v), cmp_pid);
	return v;
}

void synth_process(struct synth_ctx *sc, pid_t pid)
{
	char path[128];
	pid_t *tids;
	size_t n, i;

	snprintf(path, sizeof(path), "%s/%d/task", sc->procfs_root, (int)pid);
	tids = list_pids(path, &n);
	if (!tids)
		return;
	/* As perf for -p: each thread's name, then its namespaces; the maps after the leader's. */
	emit_comm(sc, pid, pid);
	synth_namespaces(sc, pid, pid);
	if (!sc->no_maps)
		emit_maps(sc, pid);
	for (i = 0; i < n; i++) {
		if (tids[i] == pid)
			continue;
		emit_fork(sc, pid, tids[i]);
		emit_comm(sc, pid, tids[i]);
		synth_namespaces(sc, pid, tids[i]);
	}
	free(tids);
}

void synth_command(struct synth_ctx *sc, pid_t pid)
{
	/* As perf for its workload, before the exec: its name then, and its namespaces. */
	if (!sc->namespaces)
		return;
	emit_comm(sc, pid, pid);
	synth_namespaces(sc, pid, pid);
}

void synth_all_processes(struct synth_ctx *sc)
{
	size_t n, i;
	pid_t *pids = list_pids(sc->procfs_root, &n);

	for (i = 0; i < n; i++) {
		synth_process(sc, pids[i]);
		if (sc->between)
			sc->between(sc->between_arg);
	}
	free(pids);
}

static pid_t tgid_of(const char *procfs, pid_t tid)
{
	char path[128], line[256];
	pid_t tgid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d/status", procfs, (int)tid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

void synth_threads(struct synth_ctx *sc, const pid_t *tids, size_t n)
{
	pid_t *done = calloc(n ? n : 1, sizeof(*done));
	size_t i, k, nd = 0;

	if (!done)
		return;
	for (i = 0; i < n; i++) {
		pid_t tgid = tgid_of(sc->procfs_root, tids[i]);

		for (k = 0; k < nd && done[k] != tgid; k++)
			;
		if (tgid <= 0 || k < nd)
			continue;
		done[nd++] = tgid;
		synth_process(sc, tgid);
	}
	free(done);
}

void synth_kernel(struct synth_ctx *sc)
{
	struct perfev_record rec = {.type = PERF_RECORD_MMAP, .misc = PERF_RECORD_MISC_KERNEL};
	char path[128], line[512], sym[256], type;
	unsigned long long addr = 0, a;
	FILE *f;

	snprintf(path, sizeof(path), "%s/kallsyms", sc->procfs_root);
	f = fopen(path, "re");
	if (!f)
		return;
	/* The core kernel's symbols come first, in address order: stop at the text. */
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &a, &type, sym) == 3 &&
		    (type == 'T' || type == 't') &&
		    (!strcmp(sym, "_text") || !strcmp(sym, "_stext"))) {
			addr = a;
			break;
		}
	fclose(f);
	if (!addr)
		return; /* hidden (kptr_restrict) or not there */
	/* pid -1 is perf's host kernel; pgoff is where the text is relocated to. */
	rec.u.mmap.pid = (uint32_t)-1;
	rec.u.mmap.tid = 0;
	rec.u.mmap.addr = addr;
	rec.u.mmap.len = ~0ULL - addr;
	rec.u.mmap.pgoff = addr;
	rec.u.mmap.filename = "[kernel.kallsyms]_text";
	emit(sc, &rec);
}

/*
 * Where the cgroups of samples are named, as perf looks: a cgroup v1
 * hierarchy with the perf_event controller, else the cgroup2 one.
 */
static bool cgroup_root(const char *procfs_root, char *out, size_t len)
{
	char path[256], *line = NULL;
	size_t cap = 0;
	bool v1 = false, v2 = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/self/mounts", procfs_root);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!v1 && getline(&line, &cap, f) > 0) {
		char dir[4096], type[64], opts[1024];

		if (sscanf(line, "%*s %4095s %63s %1023s", dir, type, opts) != 3)
			continue;
		if (!strcmp(type, "cgroup")) {
			char *save = NULL, *o;

			for (o = strtok_r(opts, ",", &save); o; o = strtok_r(NULL, ",", &save))
				if (!strcmp(o, "perf_event"))
					v1 = true;
			if (v1)
				snprintf(out, len, "%s", dir);
		} else if (!strcmp(type, "cgroup2") && !v2) {
			v2 = true;
			snprintf(out, len, "%s", dir);
		}
	}
	free(line);
	fclose(f);
	return v1 || v2;
}

/* The kernel's id of a cgroup: its kernfs node id, the 8 bytes of its file handle. */
static bool cgroup_id(int dirfd, const char *name, uint64_t *id)
{
	struct {
		struct file_handle fh;
		unsigned char bytes[MAX_HANDLE_SZ];
	} h = {.fh.handle_bytes = MAX_HANDLE_SZ};
	int mount_id;

	if (name_to_handle_at(dirfd, name, &h.fh, &mount_id, 0) || h.fh.handle_bytes < 8)
		return false;
	memcpy(id, h.fh.f_handle, sizeof(*id));
	return true;
}

/* @dirfd (closed here) is cgroup @path: its record, then its children's, depth first. */
static void emit_cgroup_tree(struct synth_ctx *sc, int dirfd, char *path, size_t len, int depth)
{
	struct perfev_record rec = {.type = PERF_RECORD_CGROUP};
	struct dirent *de;
	size_t at = strlen(path);
	DIR *d;

	if (cgroup_id(dirfd, ".", &rec.u.cgroup.id)) {
		rec.u.cgroup.path = at ? path : "/";
		emit(sc, &rec);
	}
	d = depth < 64 ? fdopendir(dirfd) : NULL;
	if (!d) {
		close(dirfd);
		return;
	}
	while ((de = readdir(d))) {
		int fd;

		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		if (at + 1 + strlen(de->d_name) >= len)
			continue; /* deeper than a record can name */
		fd = openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		snprintf(path + at, len - at, "/%s", de->d_name);
		emit_cgroup_tree(sc, fd, path, len, depth + 1);
		path[at] = 0;
	}
	closedir(d);
}

void synth_cgroups(struct synth_ctx *sc)
{
	char root[4096], path[4096] = "";
	int fd;

	if (!cgroup_root(sc->procfs_root, root, sizeof(root)))
		return;
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0)
		emit_cgroup_tree(sc, fd, path, sizeof(path), 0);
}
