// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev: the command table and what every command shares (messages,
 * exit status, output flushing).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "options.h"
#include "perfev-cli.h"

const char *cli_prog = "perfev";

struct command {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *summary;
};

static const struct command commands[] = {
    {"list", cmd_list, "list the events this machine offers"},
    {"attr", cmd_attr, "show the perf_event_attr of events (and try to open them)"},
    {"stat", cmd_stat, "count events while a command runs, or on processes or CPUs"},
    {"record", cmd_record, "sample a command, processes or CPUs into perf.data"},
    {"script", cmd_script, "print the records of a perf.data file as perf script does"},
    {"report", cmd_report, "sum the samples of a perf.data file by command, object and symbol"},
    {"top", cmd_top, "a live profile of the system, processes or a command"},
    {"annotate", cmd_annotate, "show the instructions of sampled functions and their samples"},
    {"diff", cmd_diff, "compare the profiles of two or more perf.data files, as perf diff"},
    {"archive", cmd_archive,
     "collect the files a recording needs into one archive, as perf archive"},
    {"watch", cmd_watch, "print each access to an address or symbol (hardware breakpoints)"},
    {"help", cmd_help, "show help for a command"},
    {"version", cmd_version, "show the version"},
};

static void vcli_error(const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", cli_prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vcli_error(fmt, ap);
	va_end(ap);
}

void cli_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vcli_error(fmt, ap);
	va_end(ap);
	exit(1);
}

int cli_finish(int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		/* A reader that went away (perfev list | head) is not an error. */
		if (errno == EPIPE)
			return status;
		fprintf(stderr, "%s: cannot write output: %s\n", cli_prog, strerror(errno));
		return 1;
	}
	return status;
}

void cli_env_init(struct cli_env *env)
{
	env->sysfs_root = getenv("PERFEV_SYSFS_ROOT");
	env->procfs_root = getenv("PERFEV_PROCFS_ROOT");
	env->tracefs = getenv("PERFEV_TRACEFS");
	env->pmus = NULL;
	env->tracefs_handle = NULL;
	env->tracefs_error = -ENOENT;
}

void cli_env_open(struct cli_env *env, bool want_tracefs)
{
	struct perfev_pmus_opts po = {.sz = sizeof(po), .sysfs_root = env->sysfs_root};
	struct perfev_tracefs_opts to = {.sz = sizeof(to)};
	int err;

	err = perfev_pmus_load(&po, &env->pmus);
	if (err)
		cli_die("cannot read the PMU list: %s", perfev_strerror(err));
	if (!want_tracefs)
		return;
	to.sysfs_root = env->sysfs_root;
	to.path = env->tracefs;
	env->tracefs_error = perfev_tracefs_open(&to, &env->tracefs_handle);
	if (env->tracefs_error)
		env->tracefs_handle = NULL;
}

void cli_env_release(struct cli_env *env)
{
	perfev_tracefs_free(env->tracefs_handle);
	perfev_pmus_free(env->pmus);
	env->tracefs_handle = NULL;
	env->pmus = NULL;
}

void cli_parse_error(const char *str, const struct perfev_parse_error *err)
{
	size_t off = err->offset, len = err->length, i, start = 0, shown;
	const size_t width = 70;

	fflush(stdout);
	fprintf(stderr, "%s: invalid event '%s': %s", cli_prog, str, err->message);
	if (err->hint[0])
		fprintf(stderr, "; %s", err->hint);
	fputc('\n', stderr);
	/* Show the string with a caret under the bad token; long strings are cut. */
	shown = strlen(str);
	if (off > width - 10 && shown > width)
		start = off - (width - 10) / 2;
	if (shown - start > width)
		shown = start + width;
	fprintf(stderr, "    %s%.*s%s\n", start ? "..." : "", (int)(shown - start), str + start,
		shown < strlen(str) ? "..." : "");
	fprintf(stderr, "    %s", start ? "   " : "");
	for (i = start; i < off; i++)
		fputc(str[i] == '\t' ? '\t' : ' ', stderr);
	fputc('^', stderr);
	for (i = 1; i < len && off + i < shown; i++)
		fputc('~', stderr);
	fputc('\n', stderr);
}

void cli_attr_levels(struct perf_event_attr *a, bool all_user, bool all_kernel)
{
	if (all_user) {
		a->exclude_kernel = 1;
		a->exclude_user = 0;
	} else if (all_kernel) {
		a->exclude_kernel = 0;
		a->exclude_user = 1;
	}
}

char *cli_events_grouped(const struct opt_list *events)
{
	size_t len = 3;
	char *all;
	int i;

	for (i = 0; i < events->n; i++) {
		if (strchr(events->items[i], '{'))
			cli_die(
			    "--group puts every event in one group: '%s' has a group of its own",
			    events->items[i]);
		len += strlen(events->items[i]) + 1;
	}
	all = malloc(len);
	if (!all)
		cli_die("out of memory");
	strcpy(all, "{");
	for (i = 0; i < events->n; i++) {
		strcat(all, events->items[i]);
		strcat(all, i + 1 < events->n ? "," : "}");
	}
	return all;
}

int cli_can_count(uint32_t type, uint64_t config)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.disabled = 1;
	fd = perfev_sys_open(&a, 0, -1, -1, 0);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	return fd == -ENOENT || fd == -EOPNOTSUPP || fd == -ENODEV ? 0 : -1;
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: perfev [--version] [-h | --help] <command> [<args>]\n\n"
		   "commands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "   %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'perfev <command> -h' describes a command; 'man perfev-<command>' too.\n");
}

static const char *const version_usage[] = {"perfev version", NULL};

int cmd_version(int argc, const char **argv)
{
	const struct option opts[] = {OPT_TERMINATOR};

	if (parse_options(argc, argv, opts, version_usage, 0))
		usage_error(version_usage, opts, "unexpected argument '%s'", argv[0]);
	printf("perfev %s (libperfev %s)\n", PERFEV_CLI_VERSION, perfev_version());
	return 0;
}

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

int cmd_help(int argc, const char **argv)
{
	const struct command *c;
	const char *args[3];

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	c = find_command(argv[1]);
	if (!c) {
		fprintf(stderr, "perfev help: unknown command '%s'\n\n", argv[1]);
		usage(stderr);
		return 2;
	}
	args[0] = c->name;
	args[1] = "-h";
	args[2] = NULL;
	return c->fn(2, args);
}

static char prog_buf[64];

int main(int argc, const char **argv)
{
	const struct command *c;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return cli_finish(0);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-v")) {
		const char *args[] = {"version", NULL};

		return cli_finish(cmd_version(1, args));
	}
	c = find_command(argv[1]);
	if (!c) {
		fprintf(stderr, "perfev: unknown command '%s'\n\n", argv[1]);
		usage(stderr);
		return 2;
	}
	snprintf(prog_buf, sizeof(prog_buf), "perfev %s", c->name);
	cli_prog = prog_buf;
	return cli_finish(c->fn(argc - 1, argv + 1));
}
