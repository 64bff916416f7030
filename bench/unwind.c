// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The cost of DWARF unwinding: every sample of a perf.data file recorded
 * with user registers and stacks (perf record --call-graph dwarf) is
 * unwound with the library's unwinder, over the maps its MMAP records
 * gave each process.  Prints:
 *
 *   bench=unwind file=F samples=S frames=N first_us=X us_per_sample=Y us_per_frame=Z
 *   bench=unwind file=F stop=NAME count=C
 *
 * first_us is the first sample of each process (reporting its modules,
 * reading their CFI), us_per_sample the others'.
 *
 * With --libdwfl, every sample is walked by libdwfl alone (no cached
 * rules); with --compare, by both, and the samples where they differ are
 * counted (bench=unwind ... differ=N).  With --why, each unwind that did
 * not end cleanly is shown: "why stop=S frames=N last=PATH+OFFSET".
 *
 *   unwind [--libdwfl|--compare|--why] FILE [MAX_FRAMES]      default 127, as perf's max stack
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <perfev/perfdata.h>
#include <perfev/record.h>
#include "symbols/unwind.h"

/* The maps of one process, sorted, not overlapping. */
struct proc {
	uint32_t pid;
	struct perfev__unwind_map *maps;
	size_t n;
	uint64_t generation;
	bool unwound;
};

/* Each its own allocation: its address is its space's key. */
static struct proc **procs;
static size_t nprocs, cap_procs;

static struct proc *proc_get(uint32_t pid)
{
	size_t i;

	for (i = 0; i < nprocs; i++)
		if (procs[i]->pid == pid)
			return procs[i];
	if (nprocs == cap_procs) {
		size_t ncap = cap_procs ? cap_procs * 2 : 16;
		struct proc **p = realloc(procs, ncap * sizeof(*p));

		if (!p)
			return NULL;
		procs = p;
		cap_procs = ncap;
	}
	procs[nprocs] = calloc(1, sizeof(**procs));
	if (!procs[nprocs])
		return NULL;
	procs[nprocs]->pid = pid;
	return procs[nprocs++];
}

static void map_drop(struct perfev__unwind_map *m)
{
	free((char *)m->path);
	free((uint8_t *)m->build_id);
}

/* Insert [start, end) over whatever it covers, trimming the maps it overlaps. */
static int proc_map(struct proc *p, uint64_t start, uint64_t len, uint64_t pgoff, const char *path,
		    const uint8_t *id, size_t id_len)
{
	struct perfev__unwind_map nm = {.start = start, .end = start + len, .pgoff = pgoff};
	struct perfev__unwind_map *out;
	size_t i, j;

	if (!len || nm.end < start)
		return 0;
	nm.path = strdup(path);
	if (!nm.path)
		return -ENOMEM;
	if (id_len) {
		uint8_t *b = malloc(id_len);

		if (!b)
			return -ENOMEM;
		memcpy(b, id, id_len);
		nm.build_id = b;
		nm.build_id_size = id_len;
	}
	/* At most one map is split in two, and the new one goes in. */
	out = malloc((p->n + 2) * sizeof(*out));
	if (!out)
		return -ENOMEM;
	for (i = j = 0; i < p->n; i++) {
		struct perfev__unwind_map m = p->maps[i];

		if (m.end <= nm.start || m.start >= nm.end) {
			out[j++] = m;
			continue;
		}
		if (m.start < nm.start && m.end > nm.end) {
			struct perfev__unwind_map tail = m;

			tail.pgoff += nm.end - m.start;
			tail.start = nm.end;
			tail.path = strdup(m.path);
			tail.build_id = NULL;
			tail.build_id_size = 0;
			m.end = nm.start;
			out[j++] = m;
			if (tail.path)
				out[j++] = tail;
		} else if (m.start < nm.start) {
			m.end = nm.start;
			out[j++] = m;
		} else if (m.end > nm.end) {
			m.pgoff += nm.end - m.start;
			m.start = nm.end;
			out[j++] = m;
		} else {
			map_drop(&m);
		}
	}
	for (i = 0; i < j && out[i].start < nm.start; i++)
		;
	memmove(&out[i + 1], &out[i], (j - i) * sizeof(*out));
	out[i] = nm;
	free(p->maps);
	p->maps = out;
	p->n = j + 1;
	p->generation++;
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A new process @pid with the maps of @parent (fork), or none. */
static int proc_fork(uint32_t pid, uint32_t ppid)
{
	struct proc *parent = proc_get(ppid), *p;
	size_t i;

	p = parent ? proc_get(pid) : NULL;
	if (!p)
		return -ENOMEM;
	for (i = 0; i < parent->n; i++) {
		const struct perfev__unwind_map *m = &parent->maps[i];

		if (proc_map(p, m->start, m->end - m->start, m->pgoff, m->path, m->build_id,
			     m->build_id_size))
			return -ENOMEM;
	}
	return 0;
}

static void proc_clear(struct proc *p)
{
	size_t j;

	for (j = 0; j < p->n; j++)
		map_drop(&p->maps[j]);
	p->n = 0;
	p->generation++;
}

int main(int argc, char **argv)
{
	struct perfev_data_reader *r = NULL;
	struct perfev__unwinder *u = NULL, *ref = NULL;
	struct perfev_data_record rec;
	size_t max = 127, i, samples = 0, firsts = 0, differ = 0;
	size_t stops[PERFEV__UNWIND_NR_STOPS] = {0};
	uint64_t *ips, *ref_ips, frames = 0;
	double t_first = 0, t_rest = 0;
	bool libdwfl = false, compare = false, why = false;
	const char *file;
	int ret, a = 1;

	for (; a < argc && argv[a][0] == '-' && argv[a][1]; a++) {
		if (!strcmp(argv[a], "--libdwfl"))
			libdwfl = true;
		else if (!strcmp(argv[a], "--compare"))
			compare = true;
		else if (!strcmp(argv[a], "--why"))
			why = true;
		else
			break;
	}
	if (a >= argc) {
		fprintf(stderr, "usage: unwind [--libdwfl|--compare|--why] FILE [MAX_FRAMES]\n");
		return 2;
	}
	file = argv[a];
	if (a + 1 < argc)
		max = (size_t)strtoul(argv[a + 1], NULL, 10);
	ips = calloc(max ? max : 1, sizeof(*ips));
	ref_ips = calloc(max ? max : 1, sizeof(*ref_ips));
	ret = perfev_data_open(file, NULL, &r);
	if (ret || !ips || !ref_ips || perfev__unwinder_new(&u) || perfev__unwinder_new(&ref)) {
		fprintf(stderr, "cannot open '%s': %s\n", file, strerror(ret ? -ret : ENOMEM));
		return 1;
	}
	perfev__unwinder_set_libdwfl_only(u, libdwfl);
	perfev__unwinder_set_libdwfl_only(ref, true);
	while ((ret = perfev_data_next(r, &rec)) == 1) {
		struct perfev_record d;
		struct proc *p;

		if (!rec.attr || rec.type >= 64 ||
		    perfev_record_decode(&rec.attr->layout, rec.bytes, rec.size, &d))
			continue;
		if (d.type == PERF_RECORD_MMAP2) {
			p = proc_get(d.u.mmap2.pid);
			if (!p || proc_map(p, d.u.mmap2.addr, d.u.mmap2.len, d.u.mmap2.pgoff,
					   d.u.mmap2.filename,
					   d.u.mmap2.has_build_id ? d.u.mmap2.build_id : NULL,
					   d.u.mmap2.has_build_id ? d.u.mmap2.build_id_size : 0))
				return 1;
		} else if (d.type == PERF_RECORD_MMAP) {
			p = proc_get(d.u.mmap.pid);
			if (!p || proc_map(p, d.u.mmap.addr, d.u.mmap.len, d.u.mmap.pgoff,
					   d.u.mmap.filename, NULL, 0))
				return 1;
		} else if (d.type == PERF_RECORD_FORK && d.u.fork.pid != d.u.fork.ppid) {
			if (proc_fork(d.u.fork.pid, d.u.fork.ppid))
				return 1;
		} else if (d.type == PERF_RECORD_COMM && d.u.comm.exec) {
			p = proc_get(d.u.comm.pid);
			if (!p)
				return 1;
			proc_clear(p);
		} else if (d.type == PERF_RECORD_SAMPLE &&
			   (d.u.sample.present & PERF_SAMPLE_REGS_USER) &&
			   d.u.sample.regs_user_abi) {
			struct perfev__unwind_space space;
			struct perfev__unwind_regs regs;
			enum perfev__unwind_stop stop, ref_stop;
			size_t n, ref_n, dyn = (size_t)d.u.sample.stack_user_dyn_size;
			double t0;

			p = proc_get(d.u.sample.pid);
			if (!p)
				return 1;
			if (dyn > d.u.sample.stack_user_size)
				dyn = (size_t)d.u.sample.stack_user_size;
			space.key = p;
			space.generation = p->generation;
			space.maps = p->maps;
			space.nmaps = p->n;
			regs.abi = d.u.sample.regs_user_abi;
			regs.mask = rec.attr->attr->sample_regs_user;
			regs.regs = d.u.sample.regs_user;
			t0 = now();
			ret = perfev__unwind(u, &space, d.u.sample.pid, d.u.sample.tid, &regs,
					     d.u.sample.stack_user, dyn, ips, max, &n, &stop);
			if (!p->unwound) {
				t_first += now() - t0;
				firsts++;
				p->unwound = true;
			} else {
				t_rest += now() - t0;
			}
			if (ret) {
				fprintf(stderr, "cannot unwind: %s\n", strerror(-ret));
				return 1;
			}
			samples++;
			frames += n;
			stops[stop]++;
			if (why && stop != PERFEV__UNWIND_END && n) {
				const char *path = "-";
				uint64_t off = ips[n - 1];

				for (i = 0; i < p->n; i++)
					if (ips[n - 1] >= p->maps[i].start &&
					    ips[n - 1] < p->maps[i].end) {
						path = p->maps[i].path;
						off = ips[n - 1] - p->maps[i].start +
						      p->maps[i].pgoff;
					}
				printf("why stop=\"%s\" frames=%zu last=%s+%#llx\n",
				       perfev__unwind_stop_name(stop), n, path,
				       (unsigned long long)off);
			}
			if (compare && (perfev__unwind(ref, &space, d.u.sample.pid, d.u.sample.tid,
						       &regs, d.u.sample.stack_user, dyn, ref_ips,
						       max, &ref_n, &ref_stop) ||
					ref_n != n || ref_stop != stop ||
					memcmp(ips, ref_ips, n * sizeof(*ips))))
				differ++;
		}
	}
	if (ret < 0) {
		fprintf(stderr, "cannot read '%s': %s\n", file, strerror(-ret));
		return 1;
	}
	printf("bench=unwind file=%s walk=%s samples=%zu frames=%llu first_us=%.0f "
	       "us_per_sample=%.2f us_per_frame=%.3f",
	       file, libdwfl ? "libdwfl" : "rules", samples, (unsigned long long)frames,
	       firsts ? t_first * 1e6 / (double)firsts : 0.0,
	       samples > firsts ? t_rest * 1e6 / (double)(samples - firsts) : 0.0,
	       frames ? (t_rest + t_first) * 1e6 / (double)frames : 0.0);
	if (compare)
		printf(" differ=%zu", differ);
	printf("\n");
	for (i = 0; i < PERFEV__UNWIND_NR_STOPS; i++)
		if (stops[i])
			printf("bench=unwind file=%s stop=\"%s\" count=%zu\n", file,
			       perfev__unwind_stop_name((enum perfev__unwind_stop)i), stops[i]);
	perfev__unwinder_free(ref);
	free(ref_ips);
	perfev__unwinder_free(u);
	perfev_data_close(r);
	for (i = 0; i < nprocs; i++) {
		size_t j;

		for (j = 0; j < procs[i]->n; j++)
			map_drop(&procs[i]->maps[j]);
		free(procs[i]->maps);
		free(procs[i]);
	}
	free(procs);
	free(ips);
	return 0;
}
