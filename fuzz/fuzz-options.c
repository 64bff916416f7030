// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer harness: the CLI's option parser (src/cli/options.c) over a
 * table of every option type, with names that prefix one another as the
 * commands' do; then each word as the values the commands parse: a number
 * (opt_parse_unsigned), --time ranges, and the CPU, pid, tid, comm,
 * symbol and dso lists of the sample filter (perfev/filter.h).
 *
 * Input: the words of argv, separated by NUL bytes.  A usage error, which
 * exits 2 in the tool, returns here through a jump (see cli_exit below).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <perfev/filter.h>
#include "options.h"
#include "perfev-cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT 4096
#define MAX_WORDS 64

const char *cli_prog = "perfev fuzz";
static jmp_buf out;
static int null_fd = -1, saved_stdout = -1;

/* What the tool's own versions do, without leaving the process. */
void cli_error(const char *fmt, ...)
{
}

void cli_die(const char *fmt, ...)
{
	abort(); /* out of memory: not what a parser of a few words should meet */
}

int cli_finish(int status)
{
	return status;
}

/* options.c's exit() (it is built with -Dexit=cli_exit for this harness). */
void cli_exit(int status);
void cli_exit(int status)
{
	if (status != 0 && status != 2)
		abort();
	longjmp(out, 1);
}

static volatile uint64_t sink;

static bool flag, other;
static int count, num;
static uint64_t u64;
static const char *str, *optstr, *str2;
static struct opt_list list;

static const char *const usage[] = {"perfev fuzz [<options>] [<args>]", NULL};
static const struct option opts[] = {
    OPT_HEADING("Flags"),
    OPT_FLAG('f', "flag", &flag, "a flag"),
    OPT_FLAG(0, "flags-other", &other, "a flag whose name the one above prefixes"),
    OPT_COUNTED('v', "verbose", &count, "counted"),
    OPT_HEADING("Values"),
    OPT_STR('o', "output", &str, "FILE", "a string"),
    OPT_STR(0, "out", &str2, "FILE", "a string whose name prefixes the one above"),
    OPT_NUM('j', "jobs", &num, "N", "a number"),
    OPT_U64('c', "count", &u64, "N", "a 64-bit number"),
    OPT_MULTI('e', "event", &list, "EVENT", "repeatable"),
    OPT_STR_OPT('g', "call-graph", &optstr, "MODE", "an optional value"),
    OPT_TERMINATOR,
};

static void values(const char *w)
{
	struct perfev_time_range r[8];
	struct perfev_filter *f;
	unsigned long long v;
	const char *end;
	int n;

	n = opt_parse_unsigned(w, (unsigned long long)strlen(w) << 20, &v, &end);
	if (n && n != -EINVAL && n != -ERANGE)
		abort();
	if (!n && (end < w || end > w + strlen(w)))
		abort();
	n = perfev_time_ranges_parse(w, 1000000000ULL, 9000000000ULL, r, 8);
	if (n > 8 || (n < 0 && n != -EINVAL && n != -ENODATA && n != -ENOMEM))
		abort();
	if (perfev_filter_new(&f))
		abort();
	/* Each setter: 0 or a parse error, and the filter still usable. */
	sink += (uint64_t)perfev_filter_set_cpus(f, w) + (uint64_t)perfev_filter_add_pids(f, w) +
		(uint64_t)perfev_filter_add_tids(f, w) + (uint64_t)perfev_filter_add_comms(f, w) +
		(uint64_t)perfev_filter_add_symbols(f, w) + (uint64_t)perfev_filter_add_dsos(f, w) +
		(uint64_t)perfev_filter_set_time(f, w, 1000000000ULL, 9000000000ULL);
	perfev_filter_free(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *argv[MAX_WORDS + 2], *words[MAX_WORDS + 2];
	char *buf;
	int argc = 1, nargs, i;
	size_t k;

	if (size > MAX_INPUT)
		return 0;
	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[0] = "fuzz";
	for (k = 0; k <= size && argc <= MAX_WORDS; k += strlen(buf + k) + 1)
		argv[argc++] = buf + k;
	argv[argc] = NULL;
	memcpy(words, argv, sizeof(argv));

	flag = other = false;
	count = num = 0;
	u64 = 0;
	str = optstr = str2 = NULL;
	/*
	 * The usage -h prints on stdout goes nowhere (the corpus replay reports
	 * on stdout); usage errors stay on stderr, with any sanitizer report.
	 */
	fflush(stdout);
	if (null_fd < 0 && (null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC)) < 0)
		abort();
	if (saved_stdout < 0 && (saved_stdout = dup(1)) < 0)
		abort();
	if (dup2(null_fd, 1) < 0)
		abort();
	if (!setjmp(out)) {
		nargs = parse_options(argc, argv, opts, usage,
				      size && data[0] == '+' ? PARSE_OPT_STOP_AT_NON_OPTION : 0);
		/* The non-options, in front, each one of the input's words. */
		if (nargs < 0 || nargs >= argc || argv[nargs])
			abort();
		for (i = 0; i < nargs; i++)
			if (argv[i] < buf || argv[i] > buf + size)
				abort();
		for (i = 0; i < list.n; i++)
			sink += strlen(list.items[i]);
		if (str)
			sink += strlen(str);
		if (optstr)
			sink += strlen(optstr);
	}
	fflush(stdout);
	if (dup2(saved_stdout, 1) < 0)
		abort();
	opt_list_release(&list);
	/* parse_options() moved the words in argv: the values come from the copy. */
	for (i = 1; i < argc; i++)
		values(words[i]);
	free(buf);
	return 0;
}
