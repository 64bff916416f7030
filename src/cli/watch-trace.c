// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev watch: the target under ptrace, one breakpoint event per watch
 * and thread.  Each event is opened with sigtrap (and remove_on_exec,
 * which the kernel requires with it), so a hit stops the thread that made
 * it in a signal-delivery-stop right after the access: the value read
 * there is exactly what the access left, and the value kept from the
 * previous hit is what was there before.  The signal is suppressed; the
 * event's ring gives the hit's time and call chain.
 *
 * Threads: each thread of a -p target is seized; new threads (clone with
 * CLONE_THREAD) are followed with PTRACE_O_TRACECLONE and get their own
 * events before they run.  Children made by fork() are not followed.
 * An exec removes the watches (remove_on_exec).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#include <perfev/perfev.h>
#include "perfev-cli.h"
#include "target.h"
#include "watch.h"

/* Pages of each thread's ring: samples are read at every hit, so a few suffice. */
#define RING_PAGES 8

struct tthread {
	pid_t tid;
	int fd[WATCH_MAX];  /* the breakpoints, -1 when none */
	int wfd[WATCH_MAX]; /* -r: a counting write breakpoint that tells writes apart */
	uint64_t id[WATCH_MAX];
	struct perfev_ring *ring;
	bool started; /* its first stop (a new thread's) was seen */
	/* Hits reported from the ring before their own signal came (see on_trap()). */
	uint32_t owed;
};

static struct {
	struct watch_run *run;
	struct tthread *t;
	size_t n, cap;
	struct perfev_sample_layout layout;
	bool seized; /* -p/-t: PTRACE_SEIZE; else the command's PTRACE_TRACEME */
	bool execed; /* the target ran exec: the watches are gone */
} tr;

/* The tracee to wake on Ctrl-C, and how (see on_signal()). */
static volatile pid_t wake_tid;
static volatile bool wake_by_kill;

static void on_signal(int sig)
{
	static volatile sig_atomic_t times;
	int saved = errno;

	(void)sig;
	*tr.run->stop = 1;
	/* Wake waitpid() with a stop of the tracee: a seized one is interrupted, a command ended.
	 */
	if (wake_tid > 0) {
		if (wake_by_kill)
			kill(wake_tid, times++ ? SIGKILL : SIGTERM);
		else
			ptrace(PTRACE_INTERRUPT, wake_tid, 0, 0);
	}
	errno = saved;
}

static struct tthread *thread_find(pid_t tid)
{
	for (size_t i = 0; i < tr.n; i++)
		if (tr.t[i].tid == tid)
			return &tr.t[i];
	return NULL;
}

static void thread_close(struct tthread *t)
{
	perfev_ring_free(t->ring);
	t->ring = NULL;
	for (int i = 0; i < WATCH_MAX; i++) {
		if (t->fd[i] >= 0)
			close(t->fd[i]);
		if (t->wfd[i] >= 0)
			close(t->wfd[i]);
		t->fd[i] = t->wfd[i] = -1;
	}
}

static void thread_forget(pid_t tid)
{
	struct tthread *t = thread_find(tid);

	if (!t)
		return;
	thread_close(t);
	*t = tr.t[--tr.n];
}

static void attr_init(struct perf_event_attr *a, const struct watch *w, int idx, bool counter)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_BREAKPOINT;
	a->size = sizeof(*a);
	a->bp_addr = w->addr;
	a->bp_len = w->len;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	if (counter) {
		a->bp_type = HW_BREAKPOINT_W;
		return;
	}
	switch (w->kind) {
	case WATCH_W:
		a->bp_type = HW_BREAKPOINT_W;
		break;
	case WATCH_R:
	case WATCH_RW:
		/* x86 has no read-only breakpoint: reads are told from writes by the counter. */
		a->bp_type = HW_BREAKPOINT_RW;
		break;
	case WATCH_X:
		a->bp_type = HW_BREAKPOINT_X;
		break;
	}
	a->sample_period = 1;
	a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			 PERF_SAMPLE_TIME | (tr.run->callchain ? PERF_SAMPLE_CALLCHAIN : 0);
	a->exclude_callchain_kernel = 1;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
	perfev_attr_set_sigtrap(a, (uint64_t)idx);
}

/* Why the kernel refused a breakpoint, in words; *@code the exit status. */
static void open_error(const struct watch *w, pid_t tid, int err)
{
	int used = 0;

	for (int i = 0; i < tr.run->n; i++)
		used += tr.run->w[i].kind == WATCH_R ? 2 : 1;
	switch (err) {
	case ENOSPC:
		cli_error("cannot watch '%s': no debug register left (the CPU has %d hardware "
			  "breakpoints per thread, %d asked%s); watch fewer addresses",
			  w->arg, WATCH_HW_SLOTS, used,
			  used > tr.run->n ? ": each -r watch takes two" : "");
		break;
	case EACCES:
	case EPERM:
		cli_error("cannot watch '%s' in thread %d: permission denied (a breakpoint on "
			  "another user's process needs CAP_PERFMON or root)",
			  w->arg, (int)tid);
		break;
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		cli_error("cannot watch '%s': this machine has no hardware breakpoints (%s)",
			  w->arg, strerror(err));
		break;
	case EINVAL:
		cli_error("cannot watch '%s' (%#llx, length %u): the kernel refused the "
			  "breakpoint (synchronous SIGTRAP needs Linux 5.13 or later; an "
			  "address must be in user space)",
			  w->arg, (unsigned long long)w->addr, w->len);
		break;
	default:
		cli_error("cannot watch '%s' in thread %d: %s", w->arg, (int)tid, strerror(err));
	}
}

/* Open every watch on @tid; false (after a message) when the kernel refuses one. */
static bool thread_add(pid_t tid)
{
	struct perf_event_attr a;
	struct tthread *t = thread_find(tid);

	if (t)
		return true;
	cli_grow(&tr.t, &tr.cap, tr.n + 1, sizeof(*tr.t));
	t = &tr.t[tr.n++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	for (int i = 0; i < WATCH_MAX; i++)
		t->fd[i] = t->wfd[i] = -1;
	for (int i = 0; i < tr.run->n; i++) {
		struct watch *w = &tr.run->w[i];
		int fd, err;

		attr_init(&a, w, i, false);
		if (!i && perfev_sample_layout_init(&tr.layout, &a))
			cli_die("cannot lay out the samples of a breakpoint");
		fd = perfev_sys_open(&a, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0)
			goto fail;
		t->fd[i] = fd;
		if (ioctl(fd, PERF_EVENT_IOC_ID, &t->id[i]) < 0) {
			fd = -errno;
			goto fail;
		}
		err = t->ring ? perfev_ring_set_output(t->ring, fd) : 0;
		if (!t->ring) {
			struct perfev_ring_opts ro = {.sz = sizeof(ro), .data_pages = RING_PAGES};

			err = perfev_ring_map(fd, &ro, &t->ring);
		}
		if (err) {
			cli_error("cannot map the ring of a breakpoint: %s", perfev_strerror(err));
			return false;
		}
		if (w->kind == WATCH_R) {
			attr_init(&a, w, i, true);
			fd = perfev_sys_open(&a, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
			if (fd < 0)
				goto fail;
			t->wfd[i] = fd;
		}
		continue;
	fail:
		/* A thread that exited meanwhile is no failure: its exit is reported later. */
		if (fd == -ESRCH)
			return true;
		open_error(w, tid, -fd);
		return false;
	}
	return true;
}

/* Read @len (<= 8) bytes at @addr of @pid; false when not readable. */
static bool peek(pid_t pid, uint64_t addr, unsigned int len, uint64_t *v)
{
	struct iovec local = {.iov_base = v, .iov_len = len};
	struct iovec remote = {.iov_base = (void *)(uintptr_t)addr, .iov_len = len};

	*v = 0;
	return process_vm_readv(pid, &local, 1, &remote, 1, 0) == (ssize_t)len;
}

static uint64_t counter_read(int fd)
{
	uint64_t v = 0;

	if (fd < 0 || read(fd, &v, sizeof(v)) != sizeof(v))
		return 0;
	return v;
}

/*
 * The instruction before @next_ip: x86 reports a data breakpoint after
 * the access, so the accessing instruction is found by decoding the
 * function from its start.  Returns @next_ip when it cannot be found.
 */
static uint64_t access_insn(pid_t pid, uint64_t next_ip)
{
#if defined(__x86_64__)
	unsigned char code[4096];
	char name[256];
	uint64_t start, prev = 0, pc;

	if (!watch_symbolize(pid, next_ip, name, sizeof(name), &start) || start >= next_ip ||
	    next_ip - start > sizeof(code))
		return next_ip;
	struct iovec local = {.iov_base = code, .iov_len = next_ip - start};
	struct iovec remote = {.iov_base = (void *)(uintptr_t)start, .iov_len = next_ip - start};
	if (process_vm_readv(pid, &local, 1, &remote, 1, 0) != (ssize_t)(next_ip - start))
		return next_ip;
	for (pc = start; pc < next_ip;) {
		int n = perfev_insn_len_x86(code + (pc - start), next_ip - pc, true);

		if (n <= 0)
			return next_ip;
		prev = pc;
		pc += (uint64_t)n;
	}
	return pc == next_ip ? prev : next_ip;
#else
	(void)pid;
	return next_ip;
#endif
}

/*
 * The samples in @t's ring into @hits (one per watch, the newest): the
 * time, ip and call chain of each watch that hit.  Watches that overlap
 * all hit at one access, yet only one signal comes.  Returns a mask of
 * the watches found.
 */
static uint32_t ring_take(struct tthread *t, struct watch_hit *hits)
{
	const struct perf_event_header *h;
	uint32_t found = 0;

	if (!t->ring || perfev_ring_begin(t->ring) <= 0)
		return 0;
	while (perfev_ring_next(t->ring, &h) == 1) {
		struct perfev_record rec;
		const struct perfev_sample *s;
		struct watch_hit *hit;
		int idx;

		if (h->type != PERF_RECORD_SAMPLE ||
		    perfev_record_decode(&tr.layout, h, h->size, &rec))
			continue;
		s = &rec.u.sample;
		for (idx = 0; idx < tr.run->n; idx++)
			if (s->identifier == t->id[idx])
				break;
		if (idx == tr.run->n)
			continue;
		found |= 1U << idx;
		hit = &hits[idx];
		hit->time = s->time;
		hit->next_ip = s->ip;
		hit->nframes = 0;
		for (uint64_t k = 0; k < s->callchain_nr && hit->nframes < WATCH_MAX_FRAMES; k++) {
			uint64_t ip = perfev_u64_at(s->callchain, k);

			if (ip >= PERF_CONTEXT_MAX)
				continue;
			hit->frames[hit->nframes++] = ip;
		}
	}
	perfev_ring_end(t->ring);
	return found;
}

/* Fill in and report one hit of watch @idx by thread @t. */
static void report(struct tthread *t, int idx, struct watch_hit *hit)
{
	struct watch_run *run = tr.run;
	struct watch *w = &run->w[idx];

	hit->w = w;
	hit->tid = t->tid;
	if (w->kind == WATCH_X) {
		hit->ip = hit->next_ip;
	} else {
		uint64_t now;
		bool ok = peek(run->pid, w->addr, w->len, &now);

		hit->ip = access_insn(run->pid, hit->next_ip);
		/* The chain starts where the thread stopped: name the access instead. */
		if (hit->nframes && hit->frames[0] == hit->next_ip)
			hit->frames[0] = hit->ip;
		hit->have_values = ok && w->value_ok;
		hit->before = w->value;
		hit->after = now;
		hit->is_write = w->kind == WATCH_W || (ok && now != w->value);
		if (w->kind == WATCH_R) {
			uint64_t c = counter_read(t->wfd[idx]);

			hit->is_write = c != w->wcount;
			w->wcount = c;
		}
		w->value = now;
		w->value_ok = ok;
		if (w->kind == WATCH_R && hit->is_write) {
			w->skipped++;
			return;
		}
	}
	w->hits++;
	if (run->on_hit)
		run->on_hit(run, hit);
}

static void on_trap(pid_t tid, int idx)
{
	struct tthread *t = thread_find(tid);
	struct watch_hit hits[WATCH_MAX];
	uint32_t found;

	if (!t || idx < 0 || idx >= tr.run->n)
		return;
	memset(hits, 0, sizeof(hits));
	found = ring_take(t, hits);
	/*
	 * A hit of another watch in the ring was reported now; if its own
	 * signal still comes (one access hit overlapping watches and the
	 * signals were not merged), it has nothing left to report.
	 */
	if (!(found & (1U << idx)) && (t->owed & (1U << idx))) {
		t->owed &= ~(1U << idx);
		return;
	}
	t->owed |= found & ~(1U << idx);
	if (!(found & (1U << idx))) {
		/* No sample (a full ring): the hit still counts, timed now. */
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		hits[idx].time = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
#if defined(__x86_64__)
		struct user_regs_struct regs;

		if (!ptrace(PTRACE_GETREGS, tid, 0, &regs))
			hits[idx].next_ip = regs.rip;
#endif
		found |= 1U << idx;
	}
	for (int i = 0; i < tr.run->n; i++)
		if (found & (1U << i))
			report(t, i, &hits[i]);
}

static void resume(pid_t tid, int sig)
{
	if (ptrace(PTRACE_CONT, tid, 0, sig) < 0 && errno != ESRCH)
		cli_error("cannot resume thread %d: %s", (int)tid, strerror(errno));
}

static bool is_group_stop_sig(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

/* -p/-t at Ctrl-C: breakpoints closed first (a trap after detaching would kill), then detach. */
static void detach_all(void)
{
	size_t left;

	for (size_t i = 0; i < tr.n; i++)
		thread_close(&tr.t[i]);
	for (size_t i = 0; i < tr.n; i++)
		ptrace(PTRACE_INTERRUPT, tr.t[i].tid, 0, 0);
	left = tr.n;
	while (left) {
		int st, sig = 0;
		pid_t tid = waitpid(-1, &st, __WALL);

		if (tid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (!thread_find(tid))
			continue;
		left--;
		if (WIFSTOPPED(st) && !(st >> 16)) {
			siginfo_t si;

			sig = WSTOPSIG(st);
			if (sig == SIGTRAP && !ptrace(PTRACE_GETSIGINFO, tid, 0, &si) &&
			    si.si_code == PERFEV_TRAP_PERF)
				sig = 0;
		}
		if (WIFSTOPPED(st))
			ptrace(PTRACE_DETACH, tid, 0, sig);
		thread_forget(tid);
	}
}

static void handle_stop(pid_t tid, int st)
{
	struct watch_run *run = tr.run;
	int sig = WSTOPSIG(st), event = st >> 16;
	struct tthread *t = thread_find(tid);
	struct perfev_signal_info trap;
	siginfo_t si;

	if (!t) {
		/* A new thread's first stop can come before its creator's clone event. */
		if (!tr.execed && !thread_add(tid))
			*run->stop = 2;
		t = thread_find(tid);
	}
	if (event == PTRACE_EVENT_CLONE) {
		unsigned long child;

		if (!ptrace(PTRACE_GETEVENTMSG, tid, 0, &child) && !tr.execed &&
		    !thread_add((pid_t)child))
			*run->stop = 2;
		resume(tid, 0);
		return;
	}
	if (event == PTRACE_EVENT_EXEC) {
		/* The kernel removed the breakpoints (remove_on_exec); the target goes on. */
		if (!tr.execed)
			cli_error("warning: pid %d ran exec: its watches are removed",
				  (int)run->pid);
		tr.execed = true;
		resume(tid, 0);
		return;
	}
	if (event == PTRACE_EVENT_STOP) {
		if (is_group_stop_sig(sig))
			ptrace(PTRACE_LISTEN, tid, 0, 0);
		else
			resume(tid, 0);
		return;
	}
	if (t && !t->started) {
		t->started = true;
		/* A thread PTRACE_TRACEME's process made starts with a SIGSTOP of ptrace's own. */
		if (!tr.seized && sig == SIGSTOP) {
			resume(tid, 0);
			return;
		}
	}
	if (sig == SIGTRAP && !ptrace(PTRACE_GETSIGINFO, tid, 0, &si) &&
	    !perfev_sigtrap_decode(&si, &trap) && trap.type == PERF_TYPE_BREAKPOINT) {
		on_trap(tid, (int)trap.sig_data);
		resume(tid, 0);
		return;
	}
	resume(tid, sig);
}

/* Start @cmd stopped at its exec; returns its pid, or -errno with *@why. */
static pid_t spawn(char *const *cmd, int *err)
{
	int pfd[2], e = 0, st;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC))
		cli_die("cannot create a pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		cli_die("cannot fork: %s", strerror(errno));
	if (!pid) {
		close(pfd[0]);
		if (ptrace(PTRACE_TRACEME, 0, 0, 0) == 0)
			raise(SIGSTOP);
		execvp(cmd[0], cmd);
		e = errno;
		if (write(pfd[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pfd[1]);
	/* Stopped before exec: ask for the exec, clone and exit-kill events, then let it exec. */
	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st)) {
		*err = ECHILD;
		close(pfd[0]);
		return -1;
	}
	ptrace(PTRACE_SETOPTIONS, pid, 0,
	       PTRACE_O_TRACEEXEC | PTRACE_O_TRACECLONE | PTRACE_O_EXITKILL);
	resume(pid, 0);
	for (;;) {
		if (waitpid(pid, &st, 0) != pid) {
			if (errno == EINTR)
				continue;
			*err = errno;
			break;
		}
		if (WIFSTOPPED(st) && (st >> 16) == PTRACE_EVENT_EXEC) {
			close(pfd[0]);
			return pid;
		}
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			if (read(pfd[0], &e, sizeof(e)) != sizeof(e))
				e = ESRCH;
			*err = e;
			break;
		}
		/* A signal before the exec (none is expected): pass it on. */
		resume(pid, WIFSTOPPED(st) ? WSTOPSIG(st) : 0);
	}
	close(pfd[0]);
	return -1;
}

/* Seize @tid; false after a message. */
static bool seize(pid_t tid)
{
	long opts = PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC;

	if (!ptrace(PTRACE_SEIZE, tid, 0, opts))
		return true;
	if (errno == ESRCH)
		cli_error("cannot attach to %d: no such process", (int)tid);
	else if (errno == EPERM)
		cli_error("cannot attach to %d: permission denied (ptrace needs the process's "
			  "user, CAP_SYS_PTRACE, or a lower kernel.yama.ptrace_scope)",
			  (int)tid);
	else
		cli_error("cannot attach to %d: %s", (int)tid, strerror(errno));
	return false;
}

/* Seize every thread of -p's process, again until no new one shows up. */
static bool seize_process(pid_t pid)
{
	char path[64];
	bool more = true;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	while (more) {
		DIR *d = opendir(path);
		struct dirent *de;

		if (!d) {
			cli_error("cannot attach to %d: no such process", (int)pid);
			return false;
		}
		more = false;
		while ((de = readdir(d))) {
			pid_t tid = (pid_t)atoi(de->d_name);

			if (tid <= 0 || thread_find(tid))
				continue;
			if (!seize(tid) && tid == pid) {
				closedir(d);
				return false;
			}
			cli_grow(&tr.t, &tr.cap, tr.n + 1, sizeof(*tr.t));
			memset(&tr.t[tr.n], 0, sizeof(tr.t[0]));
			tr.t[tr.n].tid = tid;
			tr.t[tr.n].started = true;
			for (int i = 0; i < WATCH_MAX; i++)
				tr.t[tr.n].fd[i] = tr.t[tr.n].wfd[i] = -1;
			tr.n++;
			more = true;
		}
		closedir(d);
	}
	return true;
}

static void cleanup(void)
{
	for (size_t i = 0; i < tr.n; i++)
		thread_close(&tr.t[i]);
	free(tr.t);
	tr.t = NULL;
	tr.n = tr.cap = 0;
}

int watch_trace(struct watch_run *run)
{
	struct sigaction sa = {.sa_handler = on_signal};
	bool ok = true, killed = false;
	int err = 0;

	tr.run = run;
	tr.seized = !run->cmd;
	if (run->cmd) {
		run->pid = spawn(run->cmd, &err);
		if (run->pid < 0) {
			cli_error("cannot run '%s': %s", run->cmd[0], cli_exec_error(err));
			return 1;
		}
	} else if (run->tid) {
		if (!seize(run->tid))
			return 1;
		/* Its process, for memory and symbols. */
		char path[64], line[256];
		FILE *f;

		run->pid = run->tid;
		snprintf(path, sizeof(path), "/proc/%d/status", (int)run->tid);
		f = fopen(path, "re");
		while (f && fgets(line, sizeof(line), f))
			if (!strncmp(line, "Tgid:", 5))
				run->pid = (pid_t)atoi(line + 5);
		if (f)
			fclose(f);
	} else if (!seize_process(run->pid)) {
		cleanup();
		return 1;
	}
	for (int i = 0; i < run->n; i++) {
		struct watch *w = &run->w[i];

		if (w->symbol)
			watch_resolve(run, w);
		watch_check(w);
		w->value_ok = w->kind != WATCH_X && peek(run->pid, w->addr, w->len, &w->value);
	}
	/* The threads known now get their breakpoints; later ones as they appear. */
	if (run->cmd || run->tid) {
		ok = thread_add(run->cmd ? run->pid : run->tid);
		if (ok)
			thread_find(run->cmd ? run->pid : run->tid)->started = true;
	} else {
		size_t known = tr.n;

		tr.n = 0;
		for (size_t i = 0; i < known && ok; i++) {
			pid_t tid = tr.t[i].tid;

			tr.n = i;
			ok = thread_add(tid);
			tr.t[i].started = true;
			tr.n = i + 1;
		}
	}
	if (!ok) {
		if (run->cmd) {
			kill(run->pid, SIGKILL);
			waitpid(run->pid, NULL, __WALL);
		} else {
			detach_all();
		}
		cleanup();
		return 1;
	}
	for (int i = 0; i < run->n; i++)
		fprintf(stderr, "%s: watching '%s' (%#llx, %u bytes, %s) in pid %d\n", cli_prog,
			run->w[i].arg, (unsigned long long)run->w[i].addr, run->w[i].len,
			watch_kind_name(run->w[i].kind), (int)run->pid);
	wake_tid = run->cmd ? run->pid : (run->tid ? run->tid : run->pid);
	wake_by_kill = run->cmd != NULL;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (run->cmd)
		resume(run->pid, 0);

	while (!run->target_gone) {
		pid_t tid;
		int st;

		if (*run->stop && tr.seized) {
			detach_all();
			break;
		}
		/* A new thread that could not be watched: the run would be incomplete. */
		if (*run->stop == 2 && run->cmd && !killed) {
			kill(run->pid, SIGKILL);
			killed = true;
		}
		tid = waitpid(-1, &st, __WALL);
		if (tid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			thread_forget(tid);
			if (tid == run->pid || tid == run->tid) {
				run->target_gone = true;
				run->target_status = st;
			}
			continue;
		}
		if (WIFSTOPPED(st))
			handle_stop(tid, st);
	}
	wake_tid = 0;
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	cleanup();
	return *run->stop == 2 ? 1 : 0;
}
