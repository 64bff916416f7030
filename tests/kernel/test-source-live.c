// SPDX-License-Identifier: LGPL-2.1-or-later
/* A live source fed from a real ring: this thread's samples, in order, named and resolved. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <perfev/control.h>
#include <perfev/ring.h>
#include <perfev/source.h>
#include <perfev/sys.h>
#include "harness.h"

#define ST_LIVE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME)

/* The executable mapping of this program, as perf synthesizes it for a running process. */
static bool exe_map(const struct perf_event_attr *a, const char *exe, void *buf, size_t len,
		    int *out)
{
	struct perfev_sample_layout l;
	struct perfev_record r = {.type = PERF_RECORD_MMAP2, .misc = PERF_RECORD_MISC_USER};
	unsigned long start, end, off;
	char line[PATH_MAX + 128], perm[8], path[PATH_MAX];
	bool found = false;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%lx-%lx %7s %lx %*s %*s %4095s", &start, &end, perm, &off,
			       path) == 5 &&
			perm[2] == 'x' && !strcmp(path, exe);
	fclose(f);
	if (!found || perfev_sample_layout_init(&l, a))
		return false;
	r.u.mmap2.pid = r.u.mmap2.tid = (uint32_t)getpid();
	r.u.mmap2.addr = start;
	r.u.mmap2.len = end - start;
	r.u.mmap2.pgoff = off;
	r.u.mmap2.prot = 5;
	r.u.mmap2.filename = exe;
	r.sid.present = PERF_SAMPLE_TID | PERF_SAMPLE_IDENTIFIER;
	r.sid.pid = r.sid.tid = (uint32_t)getpid();
	*out = perfev_record_encode(&l, &r, buf, len);
	return *out > 0;
}

TEST(live_ring)
{
	struct perf_event_attr a = {.size = sizeof(a)};
	struct perfev_ring_opts ro = {.sz = sizeof(ro), .data_pages = 64};
	struct perfev_source_opts so = {.sz = sizeof(so), .window_ns = 1000000};
	const struct perfev_source_event *ev;
	const struct perfev_frame *f;
	const struct perf_event_header *h;
	struct perfev_source *src = NULL;
	struct perfev_ring *ring = NULL;
	char exe[PATH_MAX], old_name[17] = {0}, rec[PATH_MAX + 256];
	uint64_t id = 0, last = 0, named = 0, resolved = 0, samples = 0;
	ssize_t n;
	size_t nf;
	int fd, len = 0, ret, i;

	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.sample_period = 100000; /* 0.1 ms */
	a.sample_type = ST_LIVE;
	a.sample_id_all = 1;
	a.comm = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.disabled = 1;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	CHECK(n > 0);
	exe[n] = '\0';
	fd = perfev_sys_open(&a, 0, -1, -1, 0);
	SKIP_ERRNO("task-clock", fd, "perf_event_open(task-clock)");
	ret = perfev_ring_map(fd, &ro, &ring);
	if (ret) {
		close(fd);
		SKIP_ERRNO("ring-mmap", ret, "perfev_ring_map");
	}
	CHECK_INT(perfev_ioc_id(fd, &id), 0);
	CHECK_INT(perfev_source_new_live(&so, &src), 0);
	CHECK_INT(perfev_source_add_attr(src, &a, NULL, &id, 1), 0);
	CHECK(exe_map(&a, exe, rec, sizeof(rec), &len));
	CHECK_INT(perfev_source_feed(src, rec, (size_t)len), 0);
	prctl(PR_GET_NAME, old_name);
	CHECK_INT(perfev_ioc_enable(fd, false), 0);
	for (i = 0; i < 20; i++)
		test_burn();
	/* A new name: the kernel's COMM record, the samples after it carry it. */
	prctl(PR_SET_NAME, "srclive");
	for (i = 0; i < 20; i++)
		test_burn();
	CHECK_INT(perfev_ioc_disable(fd, false), 0);
	prctl(PR_SET_NAME, old_name);
	CHECK(perfev_ring_begin(ring) > 0);
	while ((ret = perfev_ring_next(ring, &h)) == 1)
		CHECK_INT(perfev_source_feed(src, h, h->size), 0);
	perfev_ring_end(ring);
	CHECK_INT(ret, 0);
	CHECK_INT(perfev_source_finish(src), 0);
	while ((ret = perfev_source_next(src, &ev)) == 1) {
		if (ev->kind != PERFEV_SOURCE_SAMPLE)
			continue;
		samples++;
		CHECK(ev->time >= last);
		last = ev->time;
		CHECK_INT(ev->tid, gettid());
		CHECK_STR(ev->name, "task-clock:u");
		if (!strcmp(ev->comm, "srclive"))
			named++;
		else
			CHECK(!named); /* renamed once: no old name after the new one */
		CHECK_INT(perfev_source_frames(src, ev, 0, &f, &nf), 0);
		CHECK_INT(nf, 1);
		if (f[0].dso && !strcmp(f[0].dso, exe) && f[0].sym)
			resolved++;
	}
	CHECK_INT(ret, 0);
	CHECK(samples > 10);
	EXPECT(named > 0, "no sample after the rename carries the new name");
	/* The harness burns the CPU in this program's own code. */
	EXPECT(resolved > 0, "no sample resolved to a symbol of %s", exe);
	perfev_source_free(src);
	perfev_ring_free(ring);
	close(fd);
}
