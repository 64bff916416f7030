// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev watch: hardware breakpoints (watchpoints) on addresses or
 * symbols of a process: every hit with its time, thread, instruction,
 * the value before and after a write, and with -g its call chain.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "output/json.h"
#include "options.h"
#include "perfev-cli.h"
#include "target.h"
#include "watch.h"

static const char *const watch_usage[] = {
    "perfev watch [-r|-w|-rw|-x] [--len N] [-g] [--count] (ADDR|SYMBOL[+OFF])... -p PID",
    "perfev watch [-r|-w|-rw|-x] [--len N] [-g] [--count] (ADDR|SYMBOL[+OFF])... -t TID",
    "perfev watch [-r|-w|-rw|-x] [--len N] [-g] [--count] (ADDR|SYMBOL[+OFF])... -- CMD [ARG]...",
    NULL,
};

struct out {
	FILE *f;
	bool json;
	struct json j;
};

const char *watch_kind_name(enum watch_kind k)
{
	static const char *const names[] = {"w", "r", "rw", "x"};

	return names[k];
}

static const char *hit_name(const struct watch_hit *h)
{
	switch (h->w->kind) {
	case WATCH_X:
		return "exec";
	case WATCH_R:
		return "read";
	case WATCH_W:
		return "write";
	case WATCH_RW:
		break;
	}
	/* -rw tells a write only by a changed value. */
	return h->is_write ? "write" : "access";
}

static void print_hit(struct watch_run *run, const struct watch_hit *h)
{
	struct out *o = run->out;
	char sym[512];
	bool have_sym;

	if (run->count_only)
		return;
	have_sym = watch_symbolize(run->pid, h->ip, sym, sizeof(sym), NULL);
	if (o->json) {
		struct json *j = &o->j;

		json_obj_begin(j);
		json_kstr(j, "watch", h->w->arg);
		json_ku64(j, "addr", h->w->addr);
		json_kstr(j, "type", hit_name(h));
		json_ku64(j, "time", h->time);
		json_ku64(j, "tid", (uint64_t)h->tid);
		json_ku64(j, "ip", h->ip);
		json_kstr(j, "sym", have_sym ? sym : NULL);
		if (h->w->kind != WATCH_X) {
			json_ku64(j, "next_ip", h->next_ip);
			if (h->have_values) {
				if (h->w->kind != WATCH_R)
					json_ku64(j, "before", h->before);
				json_ku64(j, "after", h->after);
			}
		}
		if (run->callchain) {
			json_key(j, "callchain");
			json_arr_begin(j);
			for (size_t i = 0; i < h->nframes; i++) {
				bool ok =
				    watch_symbolize(run->pid, h->frames[i], sym, sizeof(sym), NULL);

				json_obj_begin(j);
				json_ku64(j, "ip", h->frames[i]);
				json_kstr(j, "sym", ok ? sym : NULL);
				json_obj_end(j);
			}
			json_arr_end(j);
		}
		json_obj_end(j);
		json_end(j);
		return;
	}
	fprintf(o->f, "%5" PRIu64 ".%06" PRIu64 " %7d %-6s %s  %#" PRIx64 " %s",
		h->time / 1000000000, h->time % 1000000000 / 1000, (int)h->tid, hit_name(h),
		h->w->arg, h->ip, have_sym ? sym : "[unknown]");
	if (h->have_values) {
		if (h->w->kind == WATCH_R)
			fprintf(o->f, "  value %" PRIu64, h->after);
		else
			fprintf(o->f, "  %" PRIu64 " -> %" PRIu64, h->before, h->after);
	}
	fputc('\n', o->f);
	for (size_t i = 0; run->callchain && i < h->nframes; i++) {
		bool ok = watch_symbolize(run->pid, h->frames[i], sym, sizeof(sym), NULL);

		fprintf(o->f, "\t%16" PRIx64 " %s\n", h->frames[i], ok ? sym : "[unknown]");
	}
}

static void print_totals(struct watch_run *run)
{
	struct out *o = run->out;

	if (o->json) {
		struct json *j = &o->j;

		json_obj_begin(j);
		json_key(j, "totals");
		json_arr_begin(j);
		for (int i = 0; i < run->n; i++) {
			const struct watch *w = &run->w[i];

			json_obj_begin(j);
			json_kstr(j, "watch", w->arg);
			json_ku64(j, "addr", w->addr);
			json_ku64(j, "len", w->len);
			json_kstr(j, "type", watch_kind_name(w->kind));
			json_ku64(j, "hits", w->hits);
			if (w->kind == WATCH_R)
				json_ku64(j, "writes_skipped", w->skipped);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_obj_end(j);
		json_end(j);
		return;
	}
	if (!run->count_only)
		fputc('\n', o->f);
	fprintf(o->f, "%-24s %-4s %18s %4s %12s\n", "# watch", "type", "address", "len", "hits");
	for (int i = 0; i < run->n; i++) {
		const struct watch *w = &run->w[i];

		fprintf(o->f, "%-24s %-4s %#18" PRIx64 " %4u %12" PRIu64 "\n", w->arg,
			watch_kind_name(w->kind), w->addr, w->len, w->hits);
	}
}

/* ADDR, SYMBOL or SYMBOL+OFF into @w; exit 2 on a malformed one. */
static void parse_watch(struct watch *w, const char *arg, const struct option *opts)
{
	unsigned long long v;
	const char *plus;
	char *end;

	w->arg = arg;
	if (arg[0] >= '0' && arg[0] <= '9') {
		errno = 0;
		v = strtoull(arg, &end, 0);
		if (errno || *end || !v)
			usage_error(watch_usage, opts,
				    "cannot watch '%s': not an address (a number such as "
				    "0x601040) nor a symbol name",
				    arg);
		w->addr = v;
		return;
	}
	plus = strchr(arg, '+');
	w->symbol = strndup(arg, plus ? (size_t)(plus - arg) : strlen(arg));
	if (!w->symbol)
		cli_die("out of memory");
	if (plus) {
		errno = 0;
		v = strtoull(plus + 1, &end, 0);
		if (errno || *end || !plus[1] || plus[1] == '-')
			usage_error(watch_usage, opts,
				    "cannot watch '%s': the offset after '+' is not a number", arg);
		w->offset = v;
	}
	if (!w->symbol[0])
		usage_error(watch_usage, opts, "cannot watch '%s': no symbol before '+'", arg);
}

static volatile int stop_flag;

int cmd_watch(int argc, const char **argv)
{
	bool r = false, wr = false, x = false, json = false;
	const char *pid_s = NULL, *tid_s = NULL, *output = NULL;
	int len = 0, nargs, dashdash = argc, status;
	struct out o = {.f = stdout};
	struct watch_run run = {0};
	const struct option opts[] = {
	    OPT_HEADING("What to watch"),
	    OPT_FLAG('w', "write", &wr, "writes (the default for data); with -r: reads and writes"),
	    OPT_FLAG('r', "read", &r, "reads (x86 watches both and leaves writes out)"),
	    OPT_FLAG('x', "exec", &x, "execution of an instruction (the default for a function)"),
	    OPT_NUM(0, "len", &len, "N",
		    "bytes watched: 1, 2, 4 or 8 (default: the symbol's size)"),
	    OPT_HEADING("Target"),
	    OPT_STR('p', "pid", &pid_s, "PID", "watch a running process (all its threads)"),
	    OPT_STR('t', "tid", &tid_s, "TID", "watch one thread"),
	    OPT_HEADING("Output"),
	    OPT_FLAG('g', "call-graph", &run.callchain, "print each hit's call chain"),
	    OPT_FLAG(0, "count", &run.count_only,
		     "only count the hits; print the totals at the end"),
	    OPT_FLAG('j', "json", &json, "one JSON object a line per hit, then the totals"),
	    OPT_STR('o', "output", &output, "FILE", "write to FILE instead of stdout"),
	    OPT_TERMINATOR,
	};

	/* What follows "--" is the command, whatever it looks like. */
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			dashdash = i;
			break;
		}
	nargs = parse_options(dashdash, argv, opts, watch_usage, 0);
	if (dashdash < argc - 1)
		run.cmd = (char *const *)(argv + dashdash + 1);
	else if (dashdash == argc - 1)
		usage_error(watch_usage, opts, "no command after '--'");
	if (!nargs)
		usage_error(watch_usage, opts, "nothing to watch: give an address or a symbol");
	if (nargs > WATCH_MAX)
		usage_error(watch_usage, opts, "too many watches (%d): at most %d", nargs,
			    WATCH_MAX);
	if (!!run.cmd + !!pid_s + !!tid_s != 1)
		usage_error(watch_usage, opts,
			    "give one target: -p PID, -t TID or -- CMD (watch has no system-wide "
			    "mode)");
	if (x && (r || wr))
		usage_error(watch_usage, opts, "-x cannot be combined with -r or -w");
	if (pid_s || tid_s) {
		const char *s = pid_s ? pid_s : tid_s;
		unsigned long long v;

		if (opt_parse_unsigned(s, 0x3fffffff, &v, NULL) || !v)
			usage_error(watch_usage, opts, "invalid %s '%s'", pid_s ? "pid" : "tid", s);
		if (pid_s)
			run.pid = (pid_t)v;
		else
			run.tid = (pid_t)v;
	}
	run.n = nargs;
	for (int i = 0; i < nargs; i++) {
		struct watch *w = &run.w[i];

		parse_watch(w, argv[i], opts);
		w->len = (unsigned int)len;
		w->kind = x ? WATCH_X : r && wr ? WATCH_RW : r ? WATCH_R : WATCH_W;
		/* A symbol named without a type: -x for a function, -w for data (watch_resolve). */
		w->kind_auto = !x && !r && !wr && w->symbol;
		if (!w->symbol) {
			if (!w->len)
				w->len = x ? sizeof(long) : 4;
			watch_check(w);
		}
	}
	if (output) {
		o.f = fopen(output, "we");
		if (!o.f)
			cli_die("cannot open '%s': %s", output, strerror(errno));
	}
	o.json = json;
	if (json)
		json_init_flags(&o.j, o.f, JSON_LINES);
	run.out = &o;
	run.on_hit = print_hit;
	run.stop = &stop_flag;
	status = watch_trace(&run);
	if (!status) {
		if (run.target_gone && WIFSIGNALED(run.target_status))
			cli_error("%s %d was killed by signal %d (%s)", run.tid ? "thread" : "pid",
				  (int)(run.tid ? run.tid : run.pid), WTERMSIG(run.target_status),
				  strsignal(WTERMSIG(run.target_status)));
		else if (run.target_gone && !run.cmd)
			cli_error("%s %d exited", run.tid ? "thread" : "pid",
				  (int)(run.tid ? run.tid : run.pid));
		print_totals(&run);
	}
	if (o.f != stdout && fclose(o.f)) {
		cli_error("cannot write '%s': %s", output, strerror(errno));
		status = 1;
	}
	watch_symbols_release();
	for (int i = 0; i < run.n; i++)
		free(run.w[i].symbol);
	return status;
}
