/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Declarative command-line options: each command lists its options in a
 * table, and the same table drives parsing and the -h text.
 */
#ifndef PERFEV_CLI_OPTIONS_H
#define PERFEV_CLI_OPTIONS_H

#include <stdbool.h>

enum opt_type {
	OPT_END = 0,
	OPT_BOOL,   /* bool *; no argument */
	OPT_STRING, /* const char **; one argument */
	OPT_INT,    /* int *; one decimal argument */
	OPT_LIST,   /* struct opt_list *; repeatable argument */
	OPT_OPTSTR, /* const char **; "" alone, the value only as --name=VALUE or -xVALUE */
	OPT_GROUP,  /* a heading in -h output */
	OPT_COUNT,  /* int *; no argument, counted: -d, -dd, -ddd */
	OPT_UINT64, /* uint64_t *; one decimal argument, 0 to 2^64 - 1 */
};

struct opt_list {
	const char **items;
	int n, cap;
};

struct option {
	enum opt_type type;
	char short_name;
	const char *long_name;
	void *value;
	const char *argh; /* argument placeholder for -h, e.g. "EVENT" */
	const char *help;
};

#define OPT_FLAG(s, l, v, h)                                                                       \
	{                                                                                          \
		OPT_BOOL, (s), (l), (v), NULL, (h)                                                 \
	}
#define OPT_COUNTED(s, l, v, h)                                                                    \
	{                                                                                          \
		OPT_COUNT, (s), (l), (v), NULL, (h)                                                \
	}
#define OPT_STR(s, l, v, a, h)                                                                     \
	{                                                                                          \
		OPT_STRING, (s), (l), (v), (a), (h)                                                \
	}
#define OPT_NUM(s, l, v, a, h)                                                                     \
	{                                                                                          \
		OPT_INT, (s), (l), (v), (a), (h)                                                   \
	}
#define OPT_U64(s, l, v, a, h)                                                                     \
	{                                                                                          \
		OPT_UINT64, (s), (l), (v), (a), (h)                                                \
	}
#define OPT_MULTI(s, l, v, a, h)                                                                   \
	{                                                                                          \
		OPT_LIST, (s), (l), (v), (a), (h)                                                  \
	}
#define OPT_STR_OPT(s, l, v, a, h)                                                                 \
	{                                                                                          \
		OPT_OPTSTR, (s), (l), (v), (a), (h)                                                \
	}
#define OPT_HEADING(h)                                                                             \
	{                                                                                          \
		OPT_GROUP, 0, NULL, NULL, NULL, (h)                                                \
	}
#define OPT_TERMINATOR                                                                             \
	{                                                                                          \
		OPT_END, 0, NULL, NULL, NULL, NULL                                                 \
	}

/* Stop at the first non-option (for commands that run a program). */
#define PARSE_OPT_STOP_AT_NON_OPTION 1

/*
 * Parse argv[1..] (argv[0] is the command name).  Non-option arguments
 * are moved to the front of argv and their count returned.  -h/--help
 * prints the usage on stdout and exits 0; a bad option prints a message
 * naming it and the usage on stderr and exits 2.
 */
int parse_options(int argc, const char **argv, const struct option *opts, const char *const *usage,
		  int flags);

/* Print the usage and option table to stderr and exit 2 (usage error). */
void usage_error(const char *const *usage, const struct option *opts, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));

void opt_list_release(struct opt_list *l);

/*
 * An unsigned decimal number at the start of @s: digits only, no sign and
 * no blanks (strtoull() would read "-5" as 2^64 - 5).  With @end, *@end
 * is set past the digits, even above @max, and what follows is left to
 * the caller (a unit, a comma); without it, anything after the digits is
 * an error.  Returns 0, -EINVAL when @s does not start with a digit or
 * has more after it, -ERANGE above @max (*@v is then left alone).
 */
int opt_parse_unsigned(const char *s, unsigned long long max, unsigned long long *v,
		       const char **end);

#endif /* PERFEV_CLI_OPTIONS_H */
