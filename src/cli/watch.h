/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * perfev watch: hardware breakpoints on a traced process.  cmd-watch.c
 * parses the options, resolves the watched names and prints; watch-trace.c
 * keeps the target under ptrace, opens the breakpoints and turns each
 * synchronous SIGTRAP into a hit.
 */
#ifndef PERFEV_CLI_WATCH_H
#define PERFEV_CLI_WATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* Watches at once: more than any CPU has debug registers. */
#define WATCH_MAX 16
/* x86's debug registers DR0-DR3. */
#define WATCH_HW_SLOTS 4
/* Frames kept of a hit's call chain. */
#define WATCH_MAX_FRAMES 64

enum watch_kind {
	WATCH_W,  /* writes */
	WATCH_R,  /* reads (x86 has none alone: read/write, writes told apart) */
	WATCH_RW, /* reads and writes */
	WATCH_X,  /* execution */
};

struct watch {
	const char *arg;  /* as given: ADDR, SYMBOL or SYMBOL+OFF */
	char *symbol;	  /* the SYMBOL part, NULL for a number */
	uint64_t offset;  /* +OFF */
	uint64_t addr;	  /* in the target, once resolved */
	unsigned int len; /* 1, 2, 4 or 8 */
	enum watch_kind kind;
	bool kind_auto;	  /* no -r/-w/-x: decided by the symbol's type */
	uint64_t hits;	  /* hits reported */
	uint64_t skipped; /* -r: writes the read watch saw and left out */
	uint64_t value;	  /* at the address after the last hit (before the next) */
	bool value_ok;	  /* @value could be read */
	uint64_t wcount;  /* -r: writes counted so far by the companion event */
};

/* One hit, as watch-trace.c hands it to the printer. */
struct watch_hit {
	struct watch *w;
	pid_t tid;
	uint64_t time;	  /* ns, CLOCK_MONOTONIC */
	uint64_t ip;	  /* the accessing (or executed) instruction */
	uint64_t next_ip; /* where the thread goes on (after a data access) */
	bool is_write;
	bool have_values;
	uint64_t before, after;
	size_t nframes;
	uint64_t frames[WATCH_MAX_FRAMES];
};

struct watch_run {
	struct watch w[WATCH_MAX];
	int n;
	bool callchain; /* -g */
	bool count_only;
	pid_t pid;	    /* -p, or the command once started */
	pid_t tid;	    /* -t */
	char *const *cmd;   /* -- CMD */
	volatile int *stop; /* set by SIGINT/SIGTERM */
	/* Filled by the tracer. */
	bool target_gone; /* the traced process exited */
	int target_status;
	void (*on_hit)(struct watch_run *run, const struct watch_hit *hit);
	void *out; /* the printer's state */
};

/*
 * Resolve a watch's SYMBOL in the executable of @pid (its /proc/PID/exe
 * mapped as /proc/PID/maps says); exit 1 with a message when it cannot.
 */
void watch_resolve(struct watch_run *run, struct watch *w);
/* Check length and alignment; exit 2 with a message when wrong. */
void watch_check(const struct watch *w);

/*
 * Start or attach to the target, open the breakpoints, report each hit
 * through run->on_hit until the target exits or run->stop is set, then
 * close everything and detach.  Returns 0, or 1 after printing why.
 */
int watch_trace(struct watch_run *run);

/* "w", "r", "rw" or "x". */
const char *watch_kind_name(enum watch_kind k);

/* The function holding @ip in process @pid, as "name+0xoff" into @buf; false when unknown. */
bool watch_symbolize(pid_t pid, uint64_t ip, char *buf, size_t len, uint64_t *sym_start);
void watch_symbols_release(void);

#endif /* PERFEV_CLI_WATCH_H */
