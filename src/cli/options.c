// SPDX-License-Identifier: LGPL-2.1-or-later
/* Option parsing driven by each command's option table. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "options.h"
#include "perfev-cli.h"

static void print_usage(FILE *f, const char *const *usage, const struct option *opts)
{
	const struct option *o;
	int i;

	for (i = 0; usage[i]; i++)
		fprintf(f, "%s%s\n", i ? "   or: " : "usage: ", usage[i]);
	fputc('\n', f);
	for (o = opts; o->type != OPT_END; o++) {
		char left[64];
		int n = 0;

		if (o->type == OPT_GROUP) {
			fprintf(f, "\n%s\n", o->help);
			continue;
		}
		if (o->short_name && o->long_name)
			n = snprintf(left, sizeof(left), "-%c, --%s", o->short_name, o->long_name);
		else if (o->short_name)
			n = snprintf(left, sizeof(left), "-%c", o->short_name);
		else
			n = snprintf(left, sizeof(left), "    --%s", o->long_name);
		if (o->argh && n > 0 && (size_t)n < sizeof(left))
			snprintf(left + n, sizeof(left) - (size_t)n,
				 o->type == OPT_OPTSTR ? "[=%s]" : " %s", o->argh);
		fprintf(f, "    %-26s %s\n", left, o->help);
	}
	fprintf(f, "    %-26s %s\n", "-h, --help", "show this help");
}

void usage_error(const char *const *usage, const struct option *opts, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", cli_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n\n", stderr);
	print_usage(stderr, usage, opts);
	exit(2);
}

static int store(const struct option *o, const char *arg, const char *const *usage,
		 const struct option *opts, const char *spelled)
{
	switch (o->type) {
	case OPT_BOOL:
		*(bool *)o->value = true;
		return 0;
	case OPT_COUNT:
		++*(int *)o->value;
		return 0;
	case OPT_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPT_OPTSTR:
		*(const char **)o->value = arg ? arg : "";
		return 0;
	case OPT_INT: {
		char *end;
		long v;

		errno = 0;
		v = strtol(arg, &end, 10);
		if (!*arg || *end || errno || v < INT_MIN || v > INT_MAX)
			usage_error(usage, opts, "option '%s' expects a number, not '%s'", spelled,
				    arg);
		*(int *)o->value = (int)v;
		return 0;
	}
	case OPT_UINT64: {
		char *end;
		unsigned long long v;

		errno = 0;
		v = *arg >= '0' && *arg <= '9' ? strtoull(arg, &end, 10) : 0;
		if (*arg < '0' || *arg > '9' || *end || errno)
			usage_error(usage, opts,
				    "option '%s' expects a number from 0 to 18446744073709551615, "
				    "not '%s'",
				    spelled, arg);
		*(uint64_t *)o->value = v;
		return 0;
	}
	case OPT_LIST: {
		struct opt_list *l = o->value;

		/* Fewer than argc items: the counts stay ints. */
		size_t cap = (size_t)l->cap;

		cli_grow(&l->items, &cap, (size_t)l->n + 1, sizeof(*l->items));
		l->cap = (int)cap;
		l->items[l->n++] = arg;
		return 0;
	}
	default:
		return -1;
	}
}

static bool takes_arg(const struct option *o)
{
	return o->type == OPT_STRING || o->type == OPT_INT || o->type == OPT_UINT64 ||
	       o->type == OPT_LIST;
}

int parse_options(int argc, const char **argv, const struct option *opts, const char *const *usage,
		  int flags)
{
	int i, nargs = 0;
	const char **args = argv;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct option *o;

		if (!strcmp(a, "--")) {
			for (i++; i < argc; i++)
				args[nargs++] = argv[i];
			break;
		}
		if (a[0] != '-' || !a[1]) {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION) {
				for (; i < argc; i++)
					args[nargs++] = argv[i];
				break;
			}
			args[nargs++] = a;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			print_usage(stdout, usage, opts);
			exit(cli_finish(0));
		}
		if (a[1] == '-') {
			const char *name = a + 2, *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);

			for (o = opts; o->type != OPT_END; o++)
				if (o->long_name && strlen(o->long_name) == len &&
				    !strncmp(o->long_name, name, len))
					break;
			/* As perf: a prefix of one name names it ("--comm" for "--comms"). */
			if (o->type == OPT_END && len) {
				const struct option *p, *hit = NULL;

				for (p = opts; p->type != OPT_END; p++)
					if (p->long_name && !strncmp(p->long_name, name, len)) {
						if (hit)
							usage_error(
							    usage, opts,
							    "ambiguous option '%.*s' (--%s or "
							    "--%s)",
							    (int)len + 2, a, hit->long_name,
							    p->long_name);
						hit = p;
					}
				if (hit)
					o = hit;
			}
			if (o->type == OPT_END)
				usage_error(usage, opts, "unknown option '%.*s'", (int)len + 2, a);
			if (o->type == OPT_OPTSTR) {
				store(o, eq ? eq + 1 : NULL, usage, opts, a);
				continue;
			}
			if (!takes_arg(o)) {
				if (eq)
					usage_error(usage, opts, "option '--%s' takes no value",
						    o->long_name);
				store(o, NULL, usage, opts, a);
				continue;
			}
			if (eq) {
				store(o, eq + 1, usage, opts, a);
			} else {
				if (i + 1 >= argc)
					usage_error(usage, opts, "option '--%s' needs a value (%s)",
						    o->long_name, o->argh ? o->argh : "value");
				store(o, argv[++i], usage, opts, a);
			}
			continue;
		}
		/* A cluster of short options: -jv, -ofile, -o file. */
		for (const char *c = a + 1; *c; c++) {
			for (o = opts; o->type != OPT_END; o++)
				if (o->short_name == *c)
					break;
			if (o->type == OPT_END)
				usage_error(usage, opts, "unknown option '-%c'", *c);
			if (o->type == OPT_OPTSTR) {
				store(o, c[1] ? c + 1 : NULL, usage, opts, a);
				break;
			}
			if (!takes_arg(o)) {
				store(o, NULL, usage, opts, a);
				continue;
			}
			if (c[1]) {
				store(o, c + 1, usage, opts, a);
			} else {
				if (i + 1 >= argc)
					usage_error(usage, opts, "option '-%c' needs a value (%s)",
						    *c, o->argh ? o->argh : "value");
				store(o, argv[++i], usage, opts, a);
			}
			break;
		}
	}
	args[nargs] = NULL;
	return nargs;
}

int opt_parse_unsigned(const char *s, unsigned long long max, unsigned long long *v,
		       const char **end)
{
	unsigned long long x = 0;
	bool over = false;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (d > max || x > (max - d) / 10)
			over = true;
		else
			x = x * 10 + d;
	}
	if (end)
		*end = p;
	else if (*p)
		return -EINVAL;
	if (over)
		return -ERANGE;
	*v = x;
	return 0;
}

void opt_list_release(struct opt_list *l)
{
	free(l->items);
	l->items = NULL;
	l->n = l->cap = 0;
}
