// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev attr: show the perf_event_attr each event string turns into and,
 * with --open, what the kernel says about it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "output/attr-print.h"
#include "output/json.h"
#include "options.h"
#include "perfev-cli.h"

static const char *const attr_usage[] = {
    "perfev attr [-j] [-a] [--open [-p PID] [-C CPU]] EVENT...",
    NULL,
};

struct opened {
	int fd; /* >= 0, or -errno */
	uint64_t id;
	uint64_t count;
	bool have_count;
	char diag[512];
};

struct attr_out {
	bool all;
	struct json j;
};

static const char *flag_names[] = {
    "sample_read", "weak_group", "precise_max", "bpf_counter",	  "retire_latency",
    "percore",	   "per_pkg",	 "snapshot",	"guest_host_set",
};

static int json_field(const struct perfev_attr_field *fl, void *ctx)
{
	struct attr_out *o = ctx;

	if (fl->fmt == PERFEV_ATTR_FMT_SIGNED)
		json_ki64(&o->j, fl->key, (int32_t)fl->value);
	else
		json_ku64(&o->j, fl->key, fl->value);
	return 0;
}

static const char *errno_name(int err)
{
	const char *n = strerrorname_np(err);

	return n ? n : "unknown";
}

static void open_all(const struct perfev_evspec *spec, struct opened *op, pid_t pid, int cpu,
		     const struct cli_env *env)
{
	size_t i, n = perfev_evspec_count(spec);

	for (i = 0; i < n; i++) {
		struct perfev_event_info info = {.sz = sizeof(info)};
		struct perfev_diag_ctx dc = {.sz = sizeof(dc)};
		int group_fd = -1;

		perfev_evspec_info(spec, i, &info);
		if (info.leader != (int)i) {
			group_fd = op[info.leader].fd;
			if (group_fd < 0) {
				op[i].fd = -EBADF;
				snprintf(op[i].diag, sizeof(op[i].diag),
					 "not opened: its group leader '%s' failed",
					 perfev_evspec_info(spec, (size_t)info.leader, &info)
					     ? "?"
					     : info.name);
				continue;
			}
		}
		op[i].fd = perfev_sys_open(info.attr, pid, cpu, group_fd, 0);
		if (op[i].fd < 0) {
			dc.pid = pid;
			dc.cpu = cpu;
			dc.group_fd = group_fd;
			dc.procfs_root = env->procfs_root;
			dc.sysfs_root = env->sysfs_root;
			perfev_diagnose(op[i].fd, info.attr, &dc, op[i].diag, sizeof(op[i].diag));
			continue;
		}
		if (ioctl(op[i].fd, PERF_EVENT_IOC_ID, &op[i].id))
			op[i].id = 0;
	}
	/* Read after everything is open so the counts cover the same span. */
	for (i = 0; i < n; i++)
		if (op[i].fd >= 0 && read(op[i].fd, &op[i].count, sizeof(op[i].count)) ==
					 (ssize_t)sizeof(op[i].count))
			op[i].have_count = true;
}

static void print_flags(unsigned int flags)
{
	size_t k;
	bool any = false;

	for (k = 0; k < sizeof(flag_names) / sizeof(flag_names[0]); k++)
		if (flags & (1U << k)) {
			printf("%s%s", any ? ", " : "  flags: ", flag_names[k]);
			any = true;
		}
	if (any)
		putchar('\n');
}

static void text_event(const struct perfev_evspec *spec, size_t i, const struct opened *op,
		       struct attr_out *o)
{
	struct perfev_event_info info = {.sz = sizeof(info)};

	perfev_evspec_info(spec, i, &info);
	printf("%s%s\n", i ? "\n" : "", info.name);
	printf("  kind: %s", perfev_event_kind_name(info.kind));
	if (info.pmu)
		printf(", pmu: %s", info.pmu);
	if (info.tp_system)
		printf(", tracepoint: %s:%s", info.tp_system, info.tp_name);
	if (info.group_size > 1 || (info.leader == (int)i && info.group_size == 1)) {
		printf(", leads a group of %d", info.group_size);
	} else if (info.leader != (int)i) {
		struct perfev_event_info li = {.sz = sizeof(li)};

		perfev_evspec_info(spec, (size_t)info.leader, &li);
		printf(", in the group led by '%s'", li.name);
	}
	if (info.group_name)
		printf(" '%s'", info.group_name);
	putchar('\n');
	print_flags(info.flags);
	if (info.unit || info.scale != 1.0)
		printf("  scale: %g %s\n", info.scale, info.unit ? info.unit : "");
	if (info.callgraph)
		printf("  call-graph: %s\n", info.callgraph == PERFEV_CALLGRAPH_FP	? "fp"
					     : info.callgraph == PERFEV_CALLGRAPH_DWARF ? "dwarf"
					     : info.callgraph == PERFEV_CALLGRAPH_LBR	? "lbr"
											: "no");
	printf("  perf_event_attr%s:\n", o->all ? "" : " (fields that are not zero; -a shows all)");
	attr_print_fields(stdout, info.attr, "    ", o->all);
	if (!op)
		return;
	if (op[i].fd >= 0) {
		printf("  open: ok (fd %d, id %llu", op[i].fd, (unsigned long long)op[i].id);
		if (perfev_sys_attr_size())
			printf(", attr size %u", perfev_sys_attr_size());
		if (op[i].have_count)
			printf(", count %llu", (unsigned long long)op[i].count);
		printf(")\n");
	} else {
		printf("  open: failed with %s: %s\n", errno_name(-op[i].fd), op[i].diag);
	}
}

static void json_event(const struct perfev_evspec *spec, size_t i, const struct opened *op,
		       struct attr_out *o)
{
	struct perfev_event_info info = {.sz = sizeof(info)};
	struct json *j = &o->j;
	char buf[256];
	size_t k;

	perfev_evspec_info(spec, i, &info);
	json_obj_begin(j);
	json_kstr(j, "name", info.name);
	json_ku64(j, "index", i);
	json_ku64(j, "offset", info.offset);
	json_ku64(j, "length", info.length);
	json_kstr(j, "kind", perfev_event_kind_name(info.kind));
	json_kstr(j, "pmu", info.pmu);
	json_ku64(j, "leader", (uint64_t)info.leader);
	json_ku64(j, "group_size", (uint64_t)info.group_size);
	json_kstr(j, "group_name", info.group_name);
	json_key(j, "flags");
	json_arr_begin(j);
	for (k = 0; k < sizeof(flag_names) / sizeof(flag_names[0]); k++)
		if (info.flags & (1U << k))
			json_str(j, flag_names[k]);
	json_arr_end(j);
	json_key(j, "scale");
	json_double(j, info.scale);
	json_kstr(j, "unit", info.unit);
	if (info.tp_system) {
		json_key(j, "tracepoint");
		json_obj_begin(j);
		json_kstr(j, "system", info.tp_system);
		json_kstr(j, "name", info.tp_name);
		json_obj_end(j);
	}
	json_key(j, "attr");
	json_obj_begin(j);
	perfev_attr_foreach(info.attr, json_field, o);
	json_obj_end(j);
	json_key(j, "attr_flags");
	json_obj_begin(j);
	perfev_sample_type_str(info.attr->sample_type, buf, sizeof(buf));
	json_kstr(j, "sample_type", buf);
	perfev_read_format_str(info.attr->read_format, buf, sizeof(buf));
	json_kstr(j, "read_format", buf);
	perfev_branch_type_str(info.attr->branch_sample_type, buf, sizeof(buf));
	json_kstr(j, "branch_sample_type", buf);
	json_obj_end(j);
	if (op) {
		json_key(j, "open");
		json_obj_begin(j);
		json_kbool(j, "ok", op[i].fd >= 0);
		if (op[i].fd >= 0) {
			json_ku64(j, "id", op[i].id);
			if (op[i].have_count)
				json_ku64(j, "count", op[i].count);
		} else {
			json_ki64(j, "errno", -op[i].fd);
			json_kstr(j, "error", errno_name(-op[i].fd));
			json_kstr(j, "message", op[i].diag);
		}
		json_obj_end(j);
	}
	json_obj_end(j);
}

int cmd_attr(int argc, const char **argv)
{
	bool json = false, do_open = false;
	const char *pid_s = NULL;
	int cpu = -1, i, status = 0;
	struct attr_out out = {0};
	const struct option opts[] = {
	    OPT_FLAG('j', "json", &json, "print one JSON document"),
	    OPT_FLAG('a', "all", &out.all, "print every attr field, also those that are zero"),
	    OPT_FLAG(0, "open", &do_open,
		     "open the events on this process (or -p) and show the kernel's answer"),
	    OPT_STR('p', "pid", &pid_s, "PID", "with --open: the process to attach to"),
	    OPT_NUM('C', "cpu", &cpu, "CPU", "with --open: the CPU to count on (-1: any)"),
	    OPT_TERMINATOR,
	};
	struct perfev_parse_opts pa = {.sz = sizeof(pa)};
	struct perfev_evspec *spec = NULL;
	struct opened *op = NULL;
	struct cli_env env;
	pid_t pid = 0;
	size_t n, k;
	int nargs, err;

	nargs = parse_options(argc, argv, opts, attr_usage, 0);
	if (!nargs)
		usage_error(attr_usage, opts, "no event given");
	if (pid_s) {
		char *end;
		long v = strtol(pid_s, &end, 10);

		if (!*pid_s || *end || v <= 0 || v > 0x3fffffff)
			usage_error(attr_usage, opts, "invalid pid '%s'", pid_s);
		pid = (pid_t)v;
	}
	if (cpu < -1)
		usage_error(attr_usage, opts, "invalid cpu %d", cpu);

	cli_env_init(&env);
	cli_env_open(&env, true);
	pa.pmus = env.pmus;
	pa.tracefs = env.tracefs_handle;
	pa.tracefs_error = env.tracefs_error;
	err = perfev_evspec_new(&spec);
	if (err)
		cli_die("%s", perfev_strerror(err));
	for (i = 0; i < nargs; i++) {
		struct perfev_parse_error pe = {.sz = sizeof(pe)};

		err = perfev_evspec_add(spec, argv[i], &pa, &pe);
		if (err) {
			cli_parse_error(argv[i], &pe);
			status = 1;
			goto out;
		}
	}
	n = perfev_evspec_count(spec);
	if (do_open) {
		op = calloc(n ? n : 1, sizeof(*op));
		if (!op)
			cli_die("out of memory");
		open_all(spec, op, pid, cpu, &env);
		for (k = 0; k < n; k++)
			if (op[k].fd < 0)
				status = 1;
	}
	if (json) {
		json_init(&out.j, stdout);
		json_obj_begin(&out.j);
		json_key(&out.j, "events");
		json_arr_begin(&out.j);
		for (k = 0; k < n; k++)
			json_event(spec, k, op, &out);
		json_arr_end(&out.j);
		json_obj_end(&out.j);
		json_end(&out.j);
	} else {
		for (k = 0; k < n; k++)
			text_event(spec, k, op, &out);
	}
	if (op)
		for (k = 0; k < n; k++)
			if (op[k].fd >= 0)
				close(op[k].fd);
out:
	free(op);
	perfev_evspec_free(spec);
	cli_env_release(&env);
	return status;
}
