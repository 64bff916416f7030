// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Write a perf.data file of samples no PMU here can record: memory
 * accesses (PERF_SAMPLE_WEIGHT + DATA_SRC + ADDR), branch stacks
 * (PERF_SAMPLE_BRANCH_STACK, with the BRANCH_STACK feature perf record
 * writes), or a group that reads its members (":S") without the
 * GROUP_DESC feature.  The samples' addresses are in real files, mapped
 * as a process maps them, so that perf report and perfev report resolve
 * them alike; tests/cli/test-report-options.sh compares the two on the
 * same file.  The samples are the same on every run.
 *
 *   perfdata-synth mem|branch|sread OUT FILE ADDRS [FILE2 ADDRS2]
 *
 * ADDRS: comma-separated hexadecimal addresses of FILE (ELF virtual
 * addresses, as nm prints them, where they equal file offsets: true of
 * the text of the usual PIE and shared object layouts).  FILE is mapped
 * whole at 0x555555554000, FILE2 at 0x7f0000000000.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <perfev/perfev.h>

#define PID	 4242
#define BASE1	 0x555555554000ULL
#define BASE2	 0x7f0000000000ULL
#define NSAMPLES 240

struct obj {
	const char *path;
	uint64_t base, len;
	uint64_t addrs[16];
	size_t n;
};

static struct perfev_data_writer *w;
static struct perfev_sample_layout layout[2];

static void die(const char *what, int err)
{
	fprintf(stderr, "perfdata-synth: %s: %s\n", what, perfev_strerror(err));
	exit(1);
}

static void emit(int ev, const struct perfev_record *rec)
{
	unsigned char buf[4096];
	int n = perfev_record_encode(&layout[ev], rec, buf, sizeof(buf));

	if (n < 0)
		die("cannot encode a record", n);
	n = perfev_data_write(w, buf, (size_t)n);
	if (n < 0)
		die("cannot write a record", n);
}

static void parse_obj(struct obj *o, const char *path, const char *addrs, uint64_t base)
{
	struct stat st;
	char *end;

	if (stat(path, &st))
		die(path, -errno);
	o->path = path;
	o->base = base;
	o->len = ((uint64_t)st.st_size + 4095) & ~4095ULL;
	while (*addrs && o->n < 16) {
		o->addrs[o->n++] = base + strtoull(addrs, &end, 16);
		if (end == addrs)
			die(addrs, -EINVAL);
		addrs = *end == ',' ? end + 1 : end;
	}
	if (!o->n)
		die("no addresses", -EINVAL);
}

static void side_band(const struct obj *objs, size_t nobj, uint64_t *t)
{
	struct perfev_record r;
	size_t i;

	memset(&r, 0, sizeof(r));
	r.type = PERF_RECORD_COMM;
	r.u.comm.pid = r.u.comm.tid = PID;
	r.u.comm.comm = "synth-work";
	r.u.comm.exec = true;
	r.sid.pid = r.sid.tid = PID;
	r.sid.time = (*t)++;
	emit(0, &r);
	for (i = 0; i < nobj; i++) {
		memset(&r, 0, sizeof(r));
		r.type = PERF_RECORD_MMAP2;
		r.misc = PERF_RECORD_MISC_USER;
		r.u.mmap2.pid = r.u.mmap2.tid = PID;
		r.u.mmap2.addr = objs[i].base;
		r.u.mmap2.len = objs[i].len;
		r.u.mmap2.pgoff = 0;
		r.u.mmap2.prot = 5;  /* PROT_READ | PROT_EXEC */
		r.u.mmap2.flags = 2; /* MAP_PRIVATE */
		r.u.mmap2.maj = 8;
		r.u.mmap2.ino = 1000 + i;
		r.u.mmap2.filename = objs[i].path;
		r.sid.pid = r.sid.tid = PID;
		r.sid.time = (*t)++;
		emit(0, &r);
	}
}

/* perf_mem_data_src values: what a load met, in the kernel's bit layout. */
static uint64_t data_src(unsigned int i)
{
	static const struct {
		uint64_t lvl, snoop, lock, tlb, lvlnum, remote;
	} v[] = {
	    {PERF_MEM_LVL_HIT | PERF_MEM_LVL_L1, PERF_MEM_SNOOP_NONE, PERF_MEM_LOCK_NA,
	     PERF_MEM_TLB_HIT | PERF_MEM_TLB_L1, PERF_MEM_LVLNUM_L1, 0},
	    {PERF_MEM_LVL_HIT | PERF_MEM_LVL_LFB, PERF_MEM_SNOOP_NONE, PERF_MEM_LOCK_NA,
	     PERF_MEM_TLB_HIT | PERF_MEM_TLB_L2, PERF_MEM_LVLNUM_LFB, 0},
	    {PERF_MEM_LVL_HIT | PERF_MEM_LVL_L2, PERF_MEM_SNOOP_NONE, PERF_MEM_LOCK_NA,
	     PERF_MEM_TLB_HIT | PERF_MEM_TLB_L1, PERF_MEM_LVLNUM_L2, 0},
	    {PERF_MEM_LVL_HIT | PERF_MEM_LVL_L3, PERF_MEM_SNOOP_HIT, PERF_MEM_LOCK_LOCKED,
	     PERF_MEM_TLB_MISS | PERF_MEM_TLB_WK, PERF_MEM_LVLNUM_L3, 0},
	    {PERF_MEM_LVL_HIT | PERF_MEM_LVL_LOC_RAM, PERF_MEM_SNOOP_MISS, PERF_MEM_LOCK_NA,
	     PERF_MEM_TLB_MISS | PERF_MEM_TLB_L2 | PERF_MEM_TLB_WK, PERF_MEM_LVLNUM_ANY_CACHE, 0},
	    {PERF_MEM_LVL_HIT | PERF_MEM_LVL_REM_CCE1, PERF_MEM_SNOOP_HITM, PERF_MEM_LOCK_NA,
	     PERF_MEM_TLB_HIT | PERF_MEM_TLB_L1, PERF_MEM_LVLNUM_ANY_CACHE, 1},
	    {PERF_MEM_LVL_MISS | PERF_MEM_LVL_L1, PERF_MEM_SNOOP_NA, PERF_MEM_LOCK_NA,
	     PERF_MEM_TLB_NA, PERF_MEM_LVLNUM_NA, 0},
	    {PERF_MEM_LVL_NA, PERF_MEM_SNOOP_NA, PERF_MEM_LOCK_NA, PERF_MEM_TLB_NA,
	     PERF_MEM_LVLNUM_NA, 0},
	};
	unsigned int k = i % (sizeof(v) / sizeof(v[0]));

	return (uint64_t)PERF_MEM_OP_LOAD << PERF_MEM_OP_SHIFT | v[k].lvl << PERF_MEM_LVL_SHIFT |
	       v[k].snoop << PERF_MEM_SNOOP_SHIFT | v[k].lock << PERF_MEM_LOCK_SHIFT |
	       v[k].tlb << PERF_MEM_TLB_SHIFT | v[k].lvlnum << PERF_MEM_LVLNUM_SHIFT |
	       v[k].remote << PERF_MEM_REMOTE_SHIFT;
}

/* A fixed pseudo-random sequence (the same file on every run). */
static uint32_t next_rand(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

static uint64_t pick(const struct obj *objs, size_t nobj, uint32_t *s)
{
	const struct obj *o = &objs[next_rand(s) % 4 == 3 && nobj > 1 ? 1 : 0];
	uint32_t r = next_rand(s);

	/* Skewed: the first addresses get more samples. */
	return o->addrs[(r % (o->n * (o->n + 1) / 2)) % o->n] + (r >> 16) % 8;
}

static void samples(int kind, const struct obj *objs, size_t nobj, uint64_t *t)
{
	struct perfev_branch_entry br[4];
	struct perfev_record r;
	uint64_t vals[4];
	uint64_t count[2] = {0, 0};
	uint32_t s = 7;
	unsigned int i, k;

	for (i = 0; i < NSAMPLES; i++) {
		memset(&r, 0, sizeof(r));
		r.type = PERF_RECORD_SAMPLE;
		r.misc = PERF_RECORD_MISC_USER;
		r.u.sample.ip = pick(objs, nobj, &s);
		r.u.sample.pid = r.u.sample.tid = PID;
		r.u.sample.time = (*t += 1000);
		r.u.sample.cpu = i % 2;
		r.u.sample.period = 1000 + next_rand(&s) % 50;
		r.u.sample.id = 1;
		if (kind == 'm') {
			r.u.sample.addr = 0x7ffd00001000ULL + (next_rand(&s) % 16) * 64;
			r.u.sample.weight = 20 + next_rand(&s) % 300;
			r.u.sample.data_src = data_src(next_rand(&s) % 8);
		} else if (kind == 'b') {
			for (k = 0; k < 4; k++) {
				br[k].from = pick(objs, nobj, &s);
				br[k].to = pick(objs, nobj, &s);
				/* mispred (bit 0) or predicted (bit 1), cycles in bits 4-19 */
				br[k].flags = (next_rand(&s) % 3 ? 2 : 1) | (uint64_t)(k + 1) << 4;
			}
			r.u.sample.branch_nr = 4;
			r.u.sample.branches = br;
		} else {
			/* {task-clock,page-faults}:S: the group's counts, the leader's sample */
			count[0] += r.u.sample.period;
			count[1] += next_rand(&s) % 3;
			vals[0] = count[0];
			vals[1] = 1;
			vals[2] = count[1];
			vals[3] = 2;
			r.u.sample.read.nr = 2;
			r.u.sample.read.values = vals;
		}
		emit(0, &r);
	}
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr[2];
	struct obj objs[2];
	uint64_t t = 1000000, ids[2] = {1, 2};
	size_t nobj = 0, nev = 1, i;
	int kind, err;

	if (argc != 5 && argc != 7) {
		fprintf(stderr,
			"usage: perfdata-synth mem|branch|sread OUT FILE ADDRS [FILE2 ADDRS2]\n");
		return 2;
	}
	kind = argv[1][0];
	if (kind != 'm' && kind != 'b' && kind != 's')
		die(argv[1], -EINVAL);
	memset(objs, 0, sizeof(objs));
	parse_obj(&objs[nobj++], argv[3], argv[4], BASE1);
	if (argc == 7)
		parse_obj(&objs[nobj++], argv[5], argv[6], BASE2);
	memset(attr, 0, sizeof(attr));
	for (i = 0; i < 2; i++) {
		attr[i].size = sizeof(attr[i]);
		attr[i].sample_id_all = 1;
		attr[i].sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				      PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	}
	attr[0].sample_period = 1000;
	attr[0].mmap = attr[0].comm = attr[0].mmap2 = attr[0].comm_exec = 1;
	if (kind == 'm') {
		attr[0].type = PERF_TYPE_RAW;
		attr[0].config = 0x1cd;
		attr[0].precise_ip = 2;
		attr[0].sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC;
	} else if (kind == 'b') {
		attr[0].type = PERF_TYPE_HARDWARE;
		attr[0].config = PERF_COUNT_HW_CPU_CYCLES;
		attr[0].sample_type |= PERF_SAMPLE_BRANCH_STACK;
		attr[0].branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	} else {
		nev = 2;
		attr[0].type = attr[1].type = PERF_TYPE_SOFTWARE;
		attr[0].config = PERF_COUNT_SW_TASK_CLOCK;
		attr[1].config = PERF_COUNT_SW_PAGE_FAULTS;
		for (i = 0; i < 2; i++) {
			attr[i].sample_type |= PERF_SAMPLE_READ | PERF_SAMPLE_ID;
			attr[i].read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
		}
	}
	for (i = 0; i < nev; i++) {
		err = perfev_sample_layout_init(&layout[i], &attr[i]);
		if (err)
			die("bad attr", err);
	}
	err = perfev_data_create(argv[2], NULL, &w);
	if (err)
		die(argv[2], err);
	for (i = 0; i < nev; i++) {
		const char *name = kind == 'm' ? "cpu/mem-loads,ldlat=30/P" : NULL;

		err = perfev_data_add_attr(w, &attr[i], name, &ids[i], 1);
		if (err)
			die("cannot add an event", err);
	}
	err = perfev_data_set_host_features(w, argv);
	if (!err && kind == 'b')
		err = perfev_data_set_feature(w, PERFEV_FEAT_BRANCH_STACK, "", 0);
	if (err)
		die("cannot set the features", err);
	side_band(objs, nobj, &t);
	samples(kind, objs, nobj, &t);
	err = perfev_data_finish(w);
	if (err)
		die(argv[2], err);
	perfev_data_writer_free(w);
	return 0;
}
