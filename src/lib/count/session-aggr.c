// SPDX-License-Identifier: LGPL-2.1-or-later
/* Aggregating a session's counts per thread, CPU, core, die, socket, node or in total. */
#include <errno.h>
#include <stdlib.h>
#include "count/session-internal.h"

static bool cpu_level(enum perfev_aggr a)
{
	return a == PERFEV_AGGR_CPU || a == PERFEV_AGGR_CORE || a == PERFEV_AGGR_DIE ||
	       a == PERFEV_AGGR_SOCKET || a == PERFEV_AGGR_NODE;
}

static int ensure_topology(const struct perfev_session *cs)
{
	struct perfev_session *s = (struct perfev_session *)cs;
	struct perfev_topology_opts to = {.sz = sizeof(to), .sysfs_root = s->sysfs_root};

	return s->topo ? 0 : perfev_topology_load(&to, &s->topo);
}

/* The unit instance @inst belongs to at level @a. */
static struct perfev_unit unit_of(const struct perfev_session *s, size_t inst, enum perfev_aggr a)
{
	struct perfev_unit u = {-1, -1, -1, -1, -1, -1};
	int cpu = s->cpus[inst / s->ntids];
	const struct perfev_cpu_info *ci = cpu >= 0 ? perfev_topology_cpu(s->topo, cpu) : NULL;

	switch (a) {
	case PERFEV_AGGR_GLOBAL:
		break;
	case PERFEV_AGGR_THREAD:
		u.tid = s->tids[inst % s->ntids];
		break;
	case PERFEV_AGGR_CPU:
		/* A CPU line also says where the CPU is. */
		u.cpu = cpu;
		__attribute__((fallthrough));
	case PERFEV_AGGR_CORE:
		u.core = ci ? ci->core : -1;
		__attribute__((fallthrough));
	case PERFEV_AGGR_DIE:
		u.die = ci ? ci->die : -1;
		__attribute__((fallthrough));
	case PERFEV_AGGR_SOCKET:
		u.socket = ci ? ci->socket : -1;
		break;
	case PERFEV_AGGR_NODE:
		u.node = ci ? ci->node : -1;
		break;
	}
	if (a == PERFEV_AGGR_CPU)
		u.node = ci ? ci->node : -1;
	return u;
}

static int cmp_unit(const void *pa, const void *pb)
{
	const struct perfev_unit *a = pa, *b = pb;
	const int ka[] = {a->socket, a->die, a->core, a->node, a->cpu, a->tid};
	const int kb[] = {b->socket, b->die, b->core, b->node, b->cpu, b->tid};
	size_t i;

	for (i = 0; i < sizeof(ka) / sizeof(ka[0]); i++)
		if (ka[i] != kb[i])
			return ka[i] < kb[i] ? -1 : 1;
	return 0;
}

static int check_level(const struct perfev_session *s, enum perfev_aggr a)
{
	bool cpus, threads;

	if (!s || !s->opened || a > PERFEV_AGGR_NODE)
		return -EINVAL;
	cpus = s->cpus && s->cpus[0] >= 0;
	threads = s->tids && s->tids[0] >= 0;
	if (cpu_level(a) && !cpus)
		return -EINVAL;
	if (a == PERFEV_AGGR_THREAD && !threads)
		return -EINVAL;
	if (cpu_level(a) && a != PERFEV_AGGR_CPU && ensure_topology(s))
		return -ENOENT;
	if (a == PERFEV_AGGR_CPU)
		ensure_topology(s);
	return 0;
}

/* The distinct units, sorted, into a fresh array. */
static int collect_units(const struct perfev_session *s, enum perfev_aggr a,
			 struct perfev_unit **out)
{
	size_t n = sess_ninst(s), i, k = 0;
	struct perfev_unit *u = malloc((n ? n : 1) * sizeof(*u));

	if (!u)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		u[i] = unit_of(s, i, a);
	qsort(u, n, sizeof(*u), cmp_unit);
	for (i = 0; i < n; i++)
		if (!k || cmp_unit(&u[k - 1], &u[i]))
			u[k++] = u[i];
	*out = u;
	return (int)k;
}

int perfev_session_units(const struct perfev_session *s, enum perfev_aggr a,
			 struct perfev_unit *units, size_t max)
{
	struct perfev_unit *u;
	int n, err = check_level(s, a);

	if (err)
		return err;
	n = collect_units(s, a, &u);
	if (n < 0)
		return n;
	if (units)
		memcpy(units, u, ((size_t)n < max ? (size_t)n : max) * sizeof(*u));
	free(u);
	return n;
}

int perfev_session_count(const struct perfev_session *s, size_t ev, enum perfev_aggr a, size_t unit,
			 struct perfev_count *out)
{
	struct perfev_unit *u, want;
	const struct sess_event *e;
	size_t i;
	int n, err = check_level(s, a);

	if (err)
		return err;
	if (ev >= s->nev || !out)
		return -EINVAL;
	n = collect_units(s, a, &u);
	if (n < 0)
		return n;
	if (unit >= (size_t)n) {
		free(u);
		return -EINVAL;
	}
	want = u[unit];
	free(u);
	memset(out, 0, sizeof(*out));
	e = &s->ev[ev];
	for (i = 0; e->fds && i < sess_ninst(s); i++) {
		struct perfev_unit ui = unit_of(s, i, a);

		if (e->fds[i] < 0 || cmp_unit(&ui, &want))
			continue;
		out->raw += e->counts[i].value;
		out->enabled += e->counts[i].enabled;
		out->running += e->counts[i].running;
		out->lost += e->counts[i].lost;
		out->instances++;
	}
	/* Like perf: sum first, then scale the sum by its enabled/running ratio. */
	out->scaled = perfev_scale(out->raw, out->enabled, out->running);
	return 0;
}
