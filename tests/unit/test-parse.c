// SPDX-License-Identifier: LGPL-2.1-or-later
/* Event-string parser: the table in tests/data/events.txt against fixture PMUs and tracefs. */
#include <errno.h>
#include <stdlib.h>
#include <perfev/perfev.h>
#include "harness.h"

struct field_find {
	const char *key;
	uint64_t value;
	bool found;
};

static int find_field(const struct perfev_attr_field *f, void *ctx)
{
	struct field_find *ff = ctx;

	if (!strcmp(f->key, ff->key)) {
		ff->value = f->value;
		ff->found = true;
		return 1;
	}
	return 0;
}

/* Keys of the attr that a line mentioned, to check all others are zero. */
struct mentioned {
	char keys[64][40];
	int n;
};

struct zero_check {
	const struct mentioned *m;
	const char *event;
	int idx;
	int line;
};

static int check_zero(const struct perfev_attr_field *f, void *ctx)
{
	struct zero_check *z = ctx;
	int i;

	if (!strcmp(f->key, "type") || !strcmp(f->key, "size") || !f->value)
		return 0;
	for (i = 0; i < z->m->n; i++)
		if (!strcmp(z->m->keys[i], f->key))
			return 0;
	harness_fail("events.txt", z->line, "'%s' event %d: %s is %#llx, expected 0", z->event,
		     z->idx, f->key, (unsigned long long)f->value);
	return 0;
}

static const char *flag_names[] = {
    "sample_read", "weak_group", "precise_max", "bpf_counter",	  "retire_latency",
    "percore",	   "per_pkg",	 "snapshot",	"guest_host_set",
};

static const char *term_names[] = {
    "period",  "freq",		"time",	       "call-graph", "stack-size", "max-stack",
    "inherit", "overwrite",	"branch_type", "nr",	     "aux-output", "aux-sample-size",
    "name",    "driver-config", "metric-id",
};

static unsigned int names_to_mask(const char *list, const char **names, size_t n, bool *ok)
{
	unsigned int mask = 0;
	char buf[256], *save, *tok;
	size_t i;

	*ok = true;
	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < n; i++)
			if (!strcmp(tok, names[i]))
				break;
		if (i == n)
			*ok = false;
		else
			mask |= 1U << i;
	}
	return mask;
}

static const char *cg_name(enum perfev_callgraph c)
{
	switch (c) {
	case PERFEV_CALLGRAPH_NONE:
		return "no";
	case PERFEV_CALLGRAPH_FP:
		return "fp";
	case PERFEV_CALLGRAPH_DWARF:
		return "dwarf";
	case PERFEV_CALLGRAPH_LBR:
		return "lbr";
	default:
		return "default";
	}
}

static const char *tool_name(enum perfev_tool_event t)
{
	switch (t) {
	case PERFEV_TOOL_DURATION_TIME:
		return "duration_time";
	case PERFEV_TOOL_USER_TIME:
		return "user_time";
	case PERFEV_TOOL_SYSTEM_TIME:
		return "system_time";
	default:
		return "none";
	}
}

static bool str_eq(const char *a, const char *b)
{
	return a ? b && !strcmp(a, b) : !b || !strcmp(b, "-");
}

/* Check one "key=value" (or key~substring) against event @idx or the error. */
static void check_key(int line, const char *ev_str, struct perfev_evspec *spec, int idx,
		      const char *key, const char *val, bool contains,
		      const struct perfev_parse_error *pe, int ret, struct mentioned *m)
{
	struct perfev_event_info info = {.sz = sizeof(info)};
	uint64_t num = 0;
	bool is_num = val[0] >= '0' && val[0] <= '9';
	char *end;

	if (is_num) {
		num = strtoull(val, &end, 0);
		is_num = !*end;
	}
	if (!strcmp(key, "error")) {
		EXPECT(ret < 0, "events.txt:%d: '%s' parsed, expected error %s", line, ev_str, val);
		if (ret < 0)
			EXPECT(!strcmp(strerrorname_np(-ret), val),
			       "events.txt:%d: '%s' failed with %s, expected %s (%s)", line, ev_str,
			       strerrorname_np(-ret), val, pe->message);
		return;
	}
	if (!strcmp(key, "offset") || !strcmp(key, "length")) {
		size_t got = !strcmp(key, "offset") ? pe->offset : pe->length;

		EXPECT(got == num, "events.txt:%d: '%s' error %s %zu, expected %s (%s)", line,
		       ev_str, key, got, val, pe->message);
		return;
	}
	if (!strcmp(key, "msg") || !strcmp(key, "hint")) {
		const char *s = !strcmp(key, "msg") ? pe->message : pe->hint;

		EXPECT(contains ? strstr(s, val) != NULL : !strcmp(s, val),
		       "events.txt:%d: '%s' %s is \"%s\", expected %s\"%s\"", line, ev_str, key, s,
		       contains ? "to contain " : "", val);
		return;
	}
	if (ret < 0) {
		harness_fail("events.txt", line, "'%s' failed: %s (%s at %zu)", ev_str,
			     strerrorname_np(-ret), pe->message, pe->offset);
		return;
	}
	if (!strcmp(key, "n")) {
		EXPECT(perfev_evspec_count(spec) == num,
		       "events.txt:%d: '%s' gave %zu events, expected %s", line, ev_str,
		       perfev_evspec_count(spec), val);
		return;
	}
	if (perfev_evspec_info(spec, (size_t)idx, &info)) {
		harness_fail("events.txt", line, "'%s' has no event %d", ev_str, idx);
		return;
	}
#define EXPECT_STR(field)                                                                          \
	do {                                                                                       \
		const char *got_ = (field);                                                        \
		EXPECT(str_eq(got_, val),                                                          \
		       "events.txt:%d: '%s' event %d: %s is '%s', expected '%s'", line, ev_str,    \
		       idx, key, got_ ? got_ : "(null)", val);                                     \
	} while (0)
	if (!strcmp(key, "name")) {
		EXPECT_STR(info.name);
	} else if (!strcmp(key, "kind")) {
		EXPECT_STR(perfev_event_kind_name(info.kind));
	} else if (!strcmp(key, "pmu")) {
		EXPECT_STR(info.pmu);
	} else if (!strcmp(key, "unit")) {
		EXPECT_STR(info.unit);
	} else if (!strcmp(key, "group_name")) {
		EXPECT_STR(info.group_name);
	} else if (!strcmp(key, "metric_id")) {
		EXPECT_STR(info.metric_id);
	} else if (!strcmp(key, "driver_config")) {
		EXPECT_STR(info.driver_config);
	} else if (!strcmp(key, "callgraph")) {
		EXPECT_STR(cg_name(info.callgraph));
	} else if (!strcmp(key, "tool")) {
		EXPECT_STR(tool_name(info.tool));
	} else if (!strcmp(key, "tp")) {
		char tp[256];

		snprintf(tp, sizeof(tp), "%s:%s", info.tp_system ? info.tp_system : "",
			 info.tp_name ? info.tp_name : "");
		EXPECT_STR(tp);
	} else if (!strcmp(key, "leader")) {
		EXPECT(info.leader == (int)num,
		       "events.txt:%d: '%s' event %d: leader %d, expected %s", line, ev_str, idx,
		       info.leader, val);
	} else if (!strcmp(key, "group_size")) {
		EXPECT(info.group_size == (int)num,
		       "events.txt:%d: '%s' event %d: group_size %d, expected %s", line, ev_str,
		       idx, info.group_size, val);
	} else if (!strcmp(key, "stack_size")) {
		EXPECT(info.stack_size == num, "events.txt:%d: '%s': stack_size %u, expected %s",
		       line, ev_str, info.stack_size, val);
	} else if (!strcmp(key, "max_events")) {
		EXPECT(info.max_events == num, "events.txt:%d: '%s': max_events %u, expected %s",
		       line, ev_str, info.max_events, val);
	} else if (!strcmp(key, "scale")) {
		double want = strtod(val, NULL);

		EXPECT(info.scale == want, "events.txt:%d: '%s': scale %g, expected %s", line,
		       ev_str, info.scale, val);
	} else if (!strcmp(key, "text")) {
		char t[256];

		snprintf(t, sizeof(t), "%.*s", (int)info.length, ev_str + info.offset);
		EXPECT_STR(t);
	} else if (!strcmp(key, "flags") || !strcmp(key, "terms")) {
		bool flags = !strcmp(key, "flags"), ok;
		unsigned int want =
		    strcmp(val, "-")
			? names_to_mask(val, flags ? flag_names : term_names,
					flags ? sizeof(flag_names) / sizeof(*flag_names)
					      : sizeof(term_names) / sizeof(*term_names),
					&ok)
			: 0;
		unsigned int got = flags ? info.flags : info.terms_set;

		if (!strcmp(val, "-"))
			ok = true;
		EXPECT(ok, "events.txt:%d: unknown %s name in '%s'", line, key, val);
		EXPECT(got == want, "events.txt:%d: '%s' event %d: %s %#x, expected %#x (%s)", line,
		       ev_str, idx, key, got, want, val);
	} else {
		struct field_find ff = {.key = key};

		if (!strcmp(key, "config3")) {
			ff.found = true;
			ff.value = info.config3;
		} else {
			perfev_attr_foreach(info.attr, find_field, &ff);
		}
		EXPECT(ff.found, "events.txt:%d: unknown key '%s'", line, key);
		EXPECT(is_num, "events.txt:%d: value of '%s' is not a number", line, key);
		EXPECT(!ff.found || ff.value == num,
		       "events.txt:%d: '%s' event %d: %s is %#llx, expected %s", line, ev_str, idx,
		       key, (unsigned long long)ff.value, val);
		if (m->n < 64)
			snprintf(m->keys[m->n++], sizeof(m->keys[0]), "%s", key);
	}
}

static char *unescape(char *s)
{
	/* \t and \\ in the event column. */
	char *r = s, *w = s;

	while (*r) {
		if (r[0] == '\\' && r[1] == 't') {
			*w++ = '\t';
			r += 2;
		} else if (r[0] == '\\' && r[1] == '\\') {
			*w++ = '\\';
			r += 2;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
	return s;
}

TEST(event_table)
{
	struct perfev_pmus_opts po = {.sz = sizeof(po)};
	struct perfev_tracefs_opts to = {.sz = sizeof(to)};
	struct perfev_pmus *pmus;
	struct perfev_tracefs *tfs;
	char path[4096], sysroot[4096], buf[4096];
	int line = 0, cases = 0;
	FILE *f;

	snprintf(sysroot, sizeof(sysroot), "%s", test_data("sysfs"));
	po.sysfs_root = sysroot;
	CHECK(!perfev_pmus_load(&po, &pmus));
	snprintf(path, sizeof(path), "%s", test_data("tracefs"));
	to.path = path;
	CHECK(!perfev_tracefs_open(&to, &tfs));
	f = fopen(test_data("events.txt"), "r");
	CHECK(f);

	while (fgets(buf, sizeof(buf), f)) {
		struct perfev_parse_opts pa = {.sz = sizeof(pa), .pmus = pmus, .tracefs = tfs};
		struct perfev_parse_error pe = {.sz = sizeof(pe)};
		struct perfev_evspec *spec = NULL;
		struct mentioned m[16];
		int idx = 0, maxidx = -1, ret, i;
		char *tab, *tok, *save, *ev, op;

		line++;
		buf[strcspn(buf, "\n")] = '\0';
		if (!buf[0] || buf[0] == '#')
			continue;
		tab = strchr(buf, '\t');
		if (!tab) {
			harness_fail("events.txt", line, "no tab between event and expectations");
			continue;
		}
		*tab = '\0';
		ev = unescape(buf);
		if (!strcmp(ev, "''"))
			ev[0] = '\0';
		memset(m, 0, sizeof(m));
		ret = perfev_evspec_parse(ev, &pa, &spec, &pe);
		cases++;
		for (tok = strtok_r(tab + 1, " \t", &save); tok;
		     tok = strtok_r(NULL, " \t", &save)) {
			char *eq = strpbrk(tok, "=~");

			if (tok[0] == '@') {
				idx = atoi(tok + 1);
				if (idx < 0 || idx >= 16)
					idx = 0;
				continue;
			}
			if (!eq) {
				harness_fail("events.txt", line, "token '%s' has no '=' or '~'",
					     tok);
				continue;
			}
			if (idx > maxidx)
				maxidx = idx;
			op = *eq;
			*eq = '\0';
			check_key(line, ev, spec, idx, tok, eq + 1, op == '~', &pe, ret, &m[idx]);
		}
		/* Every attr field a line does not mention must be zero. */
		for (i = 0; ret == 0 && i <= maxidx; i++) {
			struct perfev_event_info info = {.sz = sizeof(info)};
			struct zero_check z = {&m[i], ev, i, line};

			if (!m[i].n || perfev_evspec_info(spec, (size_t)i, &info))
				continue;
			perfev_attr_foreach(info.attr, check_zero, &z);
		}
		perfev_evspec_free(spec);
	}
	fclose(f);
	perfev_tracefs_free(tfs);
	perfev_pmus_free(pmus);
	EXPECT(cases >= 200, "only %d cases in events.txt", cases);
}

TEST(append_keeps_groups)
{
	struct perfev_evspec *spec;
	struct perfev_event_info info = {.sz = sizeof(info)};

	CHECK(!perfev_evspec_new(&spec));
	CHECK(!perfev_evspec_add(spec, "cs", NULL, NULL));
	CHECK(!perfev_evspec_add(spec, "{faults,task-clock}", NULL, NULL));
	CHECK(perfev_evspec_add(spec, "bogus-event", NULL, NULL) == -ENOENT);
	CHECK_INT(perfev_evspec_count(spec), 3);
	CHECK(!perfev_evspec_info(spec, 2, &info));
	CHECK_INT(info.leader, 1);
	CHECK(!perfev_evspec_info(spec, 1, &info));
	CHECK_INT(info.group_size, 2);
	perfev_evspec_free(spec);
}

TEST(info_size_prefix)
{
	struct perfev_evspec *spec;
	struct {
		size_t sz;
		const char *name;
		size_t offset;
		size_t length;
		int after;
	} small = {.sz = offsetof(struct perfev_event_info, offset) + sizeof(size_t), .after = 42};

	CHECK(!perfev_evspec_parse("cycles", NULL, &spec, NULL));
	CHECK(!perfev_evspec_info(spec, 0, (struct perfev_event_info *)&small));
	CHECK_STR(small.name, "cycles");
	CHECK_INT(small.after, 42);
	CHECK(perfev_evspec_info(spec, 1, (struct perfev_event_info *)&small) == -EINVAL);
	perfev_evspec_free(spec);
}

TEST(bad_arguments)
{
	struct perfev_evspec *spec = NULL;
	struct perfev_parse_error pe = {.sz = 3};
	struct {
		struct perfev_parse_opts o;
		int extra;
	} big = {{.sz = sizeof(big)}, 1};

	CHECK(perfev_evspec_parse(NULL, NULL, &spec, NULL) == -EINVAL);
	CHECK(perfev_evspec_parse("cs", NULL, NULL, NULL) == -EINVAL);
	CHECK(perfev_evspec_parse("cs", NULL, &spec, &pe) == -EINVAL);
	/* An options struct from a newer caller with a field we do not know. */
	CHECK(perfev_evspec_parse("cs", &big.o, &spec, NULL) == -EINVAL);
	big.extra = 0;
	CHECK(!perfev_evspec_parse("cs", &big.o, &spec, NULL));
	perfev_evspec_free(spec);
}

TEST(attr_copy)
{
	struct perfev_evspec *spec;
	unsigned char buf[PERFEV_ATTR_SIZE_MAX + 16];
	struct perf_event_attr a;
	uint64_t c3;

	CHECK(!perfev_evspec_parse("cs/config3=0x1234/", NULL, &spec, NULL));
	CHECK(perfev_evspec_attr_copy(spec, 0, buf, sizeof(buf)) >= PERFEV_ATTR_SIZE_MAX);
	memcpy(&a, buf, sizeof(a));
	CHECK_INT(a.size, PERFEV_ATTR_SIZE_MAX);
	memcpy(&c3, buf + PERFEV_ATTR_CONFIG3_OFFSET, 8);
	CHECK_U64(c3, 0x1234);
	CHECK_INT(perfev_evspec_attr_copy(spec, 0, buf, 8), 8);
	perfev_evspec_free(spec);
}
