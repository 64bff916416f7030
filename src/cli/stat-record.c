// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev stat record: the counts of a stat run written into a perf.data
 * file as perf stat record writes them (the attrs with the ids of every
 * descriptor, EVENT_UPDATE units and scales, THREAD_MAP, CPU_MAP,
 * STAT_CONFIG, then per read one STAT per event and descriptor and a
 * STAT_ROUND; the STAT feature), so that perf stat report and perfev stat
 * report show them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "output/output.h"
#include "perfev-cli.h"
#include "stat.h"

struct stat_rec {
	struct perfev_data_writer *w;
	struct cli_output out;
	const char *path;
	struct perfev_sample_layout layout; /* any: the stat records have no trailer */
	enum perfev_aggr per;		    /* the session's instances: THREAD or CPU units */
	struct perfev_unit *units;
	size_t nunits, nthreads;
};

static void rec_fail(struct stat_rec *r, int err)
{
	cli_output_fail(&r->out, err, NULL);
	perfev_data_writer_free(r->w);
	cli_output_discard(&r->out);
	exit(1);
}

static void put(struct stat_rec *r, const struct perfev_record *rec)
{
	unsigned char buf[4096];
	int n = perfev_record_encode(&r->layout, rec, buf, sizeof(buf));

	if (n < 0)
		cli_die("cannot encode a %s record: %s", perfev_record_type_name(rec->type),
			perfev_strerror(n));
	n = perfev_data_write(r->w, buf, (size_t)n);
	if (n < 0)
		rec_fail(r, n);
}

struct stat_rec *stat_record_create(const char *path, int argc, const char **argv)
{
	struct perfev_data_write_opts wo = {.sz = sizeof(wo)};
	struct perf_event_attr none = {.size = sizeof(none)};
	struct stat_rec *r = calloc(1, sizeof(*r));
	char **cmdline;
	int err, i;

	if (!r)
		cli_die("out of memory");
	r->path = path;
	if (!strcmp(path, "-"))
		cli_die("stat record -o -: perfev writes stat files as files only, not as a stream "
			"(give a file name)");
	if (cli_output_open(&r->out, path, NULL, 0600, CLI_OUT_KEEP_OLD | CLI_OUT_SEEKABLE))
		exit(1);
	wo.fd = r->out.fd;
	err = perfev_data_create(NULL, &wo, &r->w);
	if (err)
		rec_fail(r, err);
	perfev_sample_layout_init(&r->layout, &none);
	/* The command line as perf stat report shows it: "perfev stat record ...". */
	cmdline = calloc((size_t)argc + 3, sizeof(*cmdline));
	if (!cmdline)
		cli_die("out of memory");
	cmdline[0] = (char *)"perfev";
	cmdline[1] = (char *)"stat";
	for (i = 0; i < argc; i++)
		cmdline[i + 2] = (char *)argv[i];
	err = perfev_data_set_host_features(r->w, cmdline);
	free(cmdline);
	if (!err)
		err = perfev_data_set_feature(r->w, PERFEV_FEAT_STAT, "", 0);
	if (err)
		rec_fail(r, err);
	return r;
}

/* perf's enum aggr_mode (perf 6.1) for perfev's aggregation. */
static uint64_t perf_aggr_mode(enum perfev_aggr a)
{
	switch (a) {
	case PERFEV_AGGR_CPU:
		return 0; /* AGGR_NONE */
	case PERFEV_AGGR_SOCKET:
		return 2;
	case PERFEV_AGGR_DIE:
		return 3;
	case PERFEV_AGGR_CORE:
		return 4;
	case PERFEV_AGGR_THREAD:
		return 5;
	case PERFEV_AGGR_NODE:
		return 7;
	default:
		return 1; /* AGGR_GLOBAL */
	}
}

enum perfev_aggr stat_aggr_from_perf(uint64_t mode)
{
	switch (mode) {
	case 0:
		return PERFEV_AGGR_CPU;
	case 2:
		return PERFEV_AGGR_SOCKET;
	case 3:
		return PERFEV_AGGR_DIE;
	case 4:
		return PERFEV_AGGR_CORE;
	case 5:
		return PERFEV_AGGR_THREAD;
	case 7:
		return PERFEV_AGGR_NODE;
	default:
		return PERFEV_AGGR_GLOBAL;
	}
}

/* The unit of the session's instance @inst at the level the file records. */
static size_t unit_of(const struct stat_rec *r, const struct perfev_session *s, size_t inst)
{
	int cpu;
	pid_t tid;
	size_t u;

	perfev_session_instance(s, inst, &cpu, &tid);
	for (u = 0; u < r->nunits; u++)
		if (r->per == PERFEV_AGGR_THREAD ? r->units[u].tid == tid : r->units[u].cpu == cpu)
			return u;
	return 0;
}

/* The name of thread @tid now (perf shows it with the tid), or nothing. */
static void thread_comm(pid_t tid, char comm[16])
{
	char path[64];
	FILE *f;

	if (tid <= 0)
		return;
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(comm, 16, f))
		comm[strcspn(comm, "\n")] = '\0';
	fclose(f);
}

/* The thread map and the CPU map of the instances: perf numbers STATs by them. */
static void write_maps(struct stat_rec *r, const struct perfev_session *s)
{
	size_t n = perfev_session_instance_count(s), i, k, ncpus = 0, nthreads = 0;
	unsigned char(*threads)[24] = calloc(n + 1, 24);
	uint16_t *cpus = calloc(n + 1, sizeof(*cpus));
	struct perfev_record rec;

	if (!threads || !cpus)
		cli_die("out of memory");
	for (i = 0; i < n; i++) {
		int cpu;
		pid_t tid;
		uint64_t pid;

		perfev_session_instance(s, i, &cpu, &tid);
		pid = (uint64_t)(int64_t)tid;
		for (k = 0; k < nthreads && memcmp(threads[k], &pid, 8); k++)
			;
		if (k == nthreads) {
			memcpy(threads[nthreads], &pid, 8);
			/* A command held before its exec is still perfev: no name, as perf. */
			if (tid != perfev_session_child(s))
				thread_comm(tid, (char *)threads[nthreads] + 8);
			nthreads++;
		}
		for (k = 0; k < ncpus && cpus[k] != (uint16_t)cpu; k++)
			;
		if (k == ncpus)
			cpus[ncpus++] = (uint16_t)cpu;
	}
	r->nthreads = nthreads;
	memset(&rec, 0, sizeof(rec));
	rec.type = PERFEV_RECORD_THREAD_MAP;
	rec.u.thread_map.nr = nthreads;
	rec.u.thread_map.entries = threads;
	put(r, &rec);
	memset(&rec, 0, sizeof(rec));
	rec.type = PERFEV_RECORD_CPU_MAP;
	rec.u.cpu_map.type = PERFEV_CPU_MAP_CPUS;
	rec.u.cpu_map.nr = (uint16_t)ncpus;
	rec.u.cpu_map.cpus = cpus;
	put(r, &rec);
	free(threads);
	free(cpus);
}

/* An event's first id, 0 when it is open nowhere. */
static uint64_t first_id(const struct perfev_session *s, size_t ev)
{
	uint64_t id = 0;

	return perfev_session_event_ids(s, ev, &id, 1) > 0 ? id : 0;
}

void stat_record_events(struct stat_rec *r, const struct perfev_session *s,
			const struct stat_data *d, int interval_ms)
{
	size_t nev = perfev_session_event_count(s), ninst = perfev_session_instance_count(s), ev;
	uint64_t *ids = calloc(ninst + 1, sizeof(*ids)), cfg[6];
	struct perfev_record rec;
	int n, err;

	if (!ids)
		cli_die("out of memory");
	for (ev = 0; ev < nev; ev++) {
		n = perfev_session_event_ids(s, ev, ids, ninst);
		err = perfev_data_add_attr(r->w, perfev_session_event_attr(s, ev), d->ev[ev].name,
					   ids, n > 0 ? (size_t)n : 0);
		if (err)
			rec_fail(r, err);
	}
	free(ids);
	/* Units and scales by id, as perf sends them: a clock counts ns, shown in msec. */
	for (ev = 0; ev < nev; ev++) {
		const struct stat_event *e = &d->ev[ev];
		bool clock =
		    e->type == PERF_TYPE_SOFTWARE &&
		    (e->config == PERF_COUNT_SW_TASK_CLOCK || e->config == PERF_COUNT_SW_CPU_CLOCK);
		uint64_t id = first_id(s, ev);

		if (!id || (!clock && !e->unit && e->scale == 1.0))
			continue;
		memset(&rec, 0, sizeof(rec));
		rec.type = PERFEV_RECORD_EVENT_UPDATE;
		rec.u.event_update.id = id;
		rec.u.event_update.type = PERFEV_EVENT_UPDATE_UNIT;
		rec.u.event_update.str = clock ? "msec" : e->unit ? e->unit : "";
		put(r, &rec);
		rec.u.event_update.type = PERFEV_EVENT_UPDATE_SCALE;
		rec.u.event_update.scale = clock ? 1e-6 : e->scale;
		put(r, &rec);
	}
	/* Task targets are counted per thread, CPU targets per CPU. */
	r->per = perfev_session_units(s, PERFEV_AGGR_THREAD, NULL, 0) > 0 ? PERFEV_AGGR_THREAD
									  : PERFEV_AGGR_CPU;
	n = perfev_session_units(s, r->per, NULL, 0);
	if (n < 0)
		cli_die("cannot record the counts: %s", perfev_strerror(n));
	r->nunits = (size_t)n;
	r->units = calloc(r->nunits + 1, sizeof(*r->units));
	if (!r->units)
		cli_die("out of memory");
	perfev_session_units(s, r->per, r->units, r->nunits);
	write_maps(r, s);
	cfg[0] = PERFEV_STAT_CONFIG_AGGR_MODE;
	cfg[1] = perf_aggr_mode(d->aggr);
	cfg[2] = PERFEV_STAT_CONFIG_INTERVAL;
	cfg[3] = (uint64_t)interval_ms;
	cfg[4] = PERFEV_STAT_CONFIG_SCALE;
	cfg[5] = !d->no_scale;
	memset(&rec, 0, sizeof(rec));
	rec.type = PERFEV_RECORD_STAT_CONFIG;
	rec.u.stat_config.nr = 3;
	rec.u.stat_config.data = cfg;
	put(r, &rec);
}

/* One STAT per event and descriptor: the counts since the start, as perf writes them. */
void stat_record_counts(struct stat_rec *r, const struct perfev_session *s)
{
	size_t nev = perfev_session_event_count(s), ninst = perfev_session_instance_count(s);
	size_t ev, inst;
	struct perfev_record rec;

	for (ev = 0; ev < nev; ev++) {
		for (inst = 0; inst < ninst; inst++) {
			int fd = perfev_session_fd(s, ev, inst), cpu;
			struct perfev_count c = {0};
			pid_t tid;
			uint64_t id;

			perfev_session_instance(s, inst, &cpu, &tid);
			if (fd < 0 || perfev_ioc_id(fd, &id) ||
			    perfev_session_count(s, ev, r->per, unit_of(r, s, inst), &c))
				continue;
			memset(&rec, 0, sizeof(rec));
			rec.type = PERFEV_RECORD_STAT;
			rec.u.stat.id = id;
			rec.u.stat.cpu = (uint32_t)cpu;
			/* Instances are CPUs times threads: the thread map's order. */
			rec.u.stat.thread = (uint32_t)(inst % (r->nthreads ? r->nthreads : 1));
			rec.u.stat.val = c.raw;
			rec.u.stat.ena = c.enabled;
			rec.u.stat.run = c.running;
			put(r, &rec);
		}
	}
}

void stat_record_round(struct stat_rec *r, bool final, uint64_t time_ns)
{
	struct perfev_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.type = PERFEV_RECORD_STAT_ROUND;
	rec.u.stat_round.type = final ? PERFEV_STAT_ROUND_FINAL : PERFEV_STAT_ROUND_INTERVAL;
	rec.u.stat_round.time = time_ns;
	put(r, &rec);
}

void stat_record_finish(struct stat_rec *r)
{
	int err = perfev_data_finish(r->w);

	if (err)
		rec_fail(r, err);
	perfev_data_writer_free(r->w);
	if (cli_output_close(&r->out))
		exit(1);
	free(r->units);
	free(r);
}
