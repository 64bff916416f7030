// SPDX-License-Identifier: LGPL-2.1-or-later
/* The evspec object: an ordered list of parsed events and their groups. */
#include <errno.h>
#include <stdlib.h>
#include "common/internal.h"
#include "event/parse.h"

int perfev_evspec_new(struct perfev_evspec **out)
{
	if (!out)
		return -EINVAL;
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void perfev__event_release(struct perfev__event *ev)
{
	free(ev->name);
	free(ev->pmu);
	free(ev->group_name);
	free(ev->metric_id);
	free(ev->driver_config);
	free(ev->tp_system);
	free(ev->tp_name);
	free(ev->unit);
	memset(ev, 0, sizeof(*ev));
}

void perfev_evspec_free(struct perfev_evspec *spec)
{
	size_t i;

	if (!spec)
		return;
	for (i = 0; i < spec->n; i++)
		perfev__event_release(&spec->ev[i]);
	free(spec->ev);
	free(spec);
}

int perfev__evspec_take(struct perfev_evspec *dst, struct perfev_evspec *src)
{
	size_t i, base = dst->n;
	int err;

	err = perfev__grow(&dst->ev, &dst->cap, dst->n + src->n, sizeof(*dst->ev));
	if (err)
		return err;
	for (i = 0; i < src->n; i++) {
		dst->ev[base + i] = src->ev[i];
		dst->ev[base + i].leader += (int)base;
	}
	dst->n += src->n;
	/* Ownership moved: leave src empty so its cleanup frees nothing twice. */
	src->n = 0;
	return 0;
}

size_t perfev_evspec_count(const struct perfev_evspec *spec)
{
	return spec ? spec->n : 0;
}

int perfev_evspec_info(const struct perfev_evspec *spec, size_t idx, struct perfev_event_info *info)
{
	const struct perfev__event *ev;
	struct perfev_event_info i = {0};

	if (!spec || idx >= spec->n || !perfev__out_ok(info, info ? info->sz : 0, sizeof(size_t)))
		return -EINVAL;
	ev = &spec->ev[idx];
	i.sz = info->sz;
	i.name = ev->name;
	i.offset = ev->offset;
	i.length = ev->length;
	i.kind = ev->kind;
	i.pmu = ev->pmu;
	i.attr = &ev->a.attr;
	i.config3 = perfev__attr_config3(&ev->a);
	i.leader = ev->leader;
	i.group_size = ev->group_size;
	i.group_name = ev->group_name;
	i.flags = ev->flags;
	i.terms_set = ev->terms_set;
	i.callgraph = ev->callgraph;
	i.stack_size = ev->stack_size;
	i.max_events = ev->max_events;
	i.metric_id = ev->metric_id;
	i.driver_config = ev->driver_config;
	i.tool = ev->tool;
	i.tp_system = ev->tp_system;
	i.tp_name = ev->tp_name;
	i.scale = ev->scale;
	i.unit = ev->unit;
	/* An older caller gets the prefix its struct has room for. */
	memcpy(info, &i, info->sz < sizeof(i) ? info->sz : sizeof(i));
	return 0;
}

int perfev_evspec_attr_copy(const struct perfev_evspec *spec, size_t idx, void *buf, size_t len)
{
	size_t n;

	if (!spec || idx >= spec->n || !buf)
		return -EINVAL;
	n = len < sizeof(spec->ev[idx].a) ? len : sizeof(spec->ev[idx].a);
	memcpy(buf, &spec->ev[idx].a, n);
	return (int)n;
}

static int dup_str(char **dst, const char *src)
{
	*dst = NULL;
	if (!src)
		return 0;
	*dst = strdup(src);
	return *dst ? 0 : -ENOMEM;
}

int perfev__evspec_dup(const struct perfev_evspec *src, struct perfev_evspec **out)
{
	struct perfev_evspec *d;
	size_t i;
	int err;

	err = perfev_evspec_new(&d);
	if (err)
		return err;
	if (src->n && perfev__grow(&d->ev, &d->cap, src->n, sizeof(*d->ev))) {
		perfev_evspec_free(d);
		return -ENOMEM;
	}
	for (i = 0; i < src->n; i++) {
		const struct perfev__event *s = &src->ev[i];
		struct perfev__event *e = &d->ev[i];

		*e = *s;
		/* Own copies of every string, so the copy outlives @src. */
		e->name = e->pmu = e->group_name = e->metric_id = e->driver_config = NULL;
		e->tp_system = e->tp_name = e->unit = NULL;
		err = dup_str(&e->name, s->name) ?: dup_str(&e->pmu, s->pmu) ?:
		      dup_str(&e->group_name, s->group_name) ?: dup_str(&e->metric_id, s->metric_id) ?:
		      dup_str(&e->driver_config, s->driver_config) ?:
		      dup_str(&e->tp_system, s->tp_system) ?: dup_str(&e->tp_name, s->tp_name) ?:
		      dup_str(&e->unit, s->unit);
		d->n++;
		if (err) {
			perfev_evspec_free(d);
			return err;
		}
	}
	*out = d;
	return 0;
}
