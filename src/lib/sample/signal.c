// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Overflow signals and sigtrap: one dispatching handler per signal
 * number, looking up the callback registered for si_fd in a fixed table
 * that the handler reads without locks.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "common/internal.h"
#include <perfev/signal.h>

#define MAX_ATTACHED 256
#define MAX_SIGNALS  65

struct slot {
	_Atomic int fd; /* -1: free */
	int signo;
	perfev_signal_fn fn;
	void *ctx;
};

static struct slot slots[MAX_ATTACHED];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static bool initialized;
static bool installed[MAX_SIGNALS];

static perfev_signal_fn trap_fn;
static void *trap_ctx;
static struct sigaction trap_prev;
static bool trap_installed;

static void init_slots(void)
{
	int i;

	if (initialized)
		return;
	for (i = 0; i < MAX_ATTACHED; i++)
		atomic_store(&slots[i].fd, -1);
	initialized = true;
}

static void dispatch(int signo, siginfo_t *si, void *uc)
{
	struct perfev_signal_info info = {.signo = signo, .fd = si->si_fd, .code = si->si_code};
	int i;

	(void)uc;
	for (i = 0; i < MAX_ATTACHED; i++) {
		/* Pairs with the release store in perfev_signal_attach(). */
		if (atomic_load_explicit(&slots[i].fd, memory_order_acquire) != si->si_fd ||
		    slots[i].signo != signo)
			continue;
		info.ctx = slots[i].ctx;
		slots[i].fn(&info);
		return;
	}
}

int perfev_signal_attach(int fd, int signo, perfev_signal_fn fn, void *ctx)
{
	struct f_owner_ex owner = {.type = F_OWNER_TID, .pid = gettid()};
	struct sigaction sa, old;
	int i, flags, free_slot = -1, err = 0;

	if (!signo)
		signo = SIGIO;
	if (fd < 0 || !fn || signo <= 0 || signo >= MAX_SIGNALS || signo == SIGKILL ||
	    signo == SIGSTOP)
		return -EINVAL;
	pthread_mutex_lock(&lock);
	init_slots();
	for (i = 0; i < MAX_ATTACHED; i++) {
		int f = atomic_load(&slots[i].fd);

		if (f == fd) {
			err = -EBUSY;
			goto out;
		}
		if (f < 0 && free_slot < 0)
			free_slot = i;
	}
	if (free_slot < 0) {
		err = -ENOSPC;
		goto out;
	}
	if (sigaction(signo, NULL, &old)) {
		err = -errno;
		goto out;
	}
	/* Someone replaced our handler since: do not fight over the signal. */
	if (installed[signo] && !((old.sa_flags & SA_SIGINFO) && old.sa_sigaction == dispatch)) {
		err = -EBUSY;
		goto out;
	}
	if (!installed[signo]) {
		/* Someone else's handler: do not take it over silently. */
		if (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN &&
		    old.sa_sigaction != dispatch) {
			err = -EBUSY;
			goto out;
		}
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = dispatch;
		sa.sa_flags = SA_SIGINFO | SA_RESTART;
		sigemptyset(&sa.sa_mask);
		if (sigaction(signo, &sa, NULL)) {
			err = -errno;
			goto out;
		}
		installed[signo] = true;
	}
	slots[free_slot].signo = signo;
	slots[free_slot].fn = fn;
	slots[free_slot].ctx = ctx;
	/* Publishes signo, fn and ctx to dispatch(): pairs with its acquire load. */
	atomic_store_explicit(&slots[free_slot].fd, fd, memory_order_release);

	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_ASYNC) || fcntl(fd, F_SETSIG, signo) ||
	    fcntl(fd, F_SETOWN_EX, &owner)) {
		err = -errno;
		atomic_store(&slots[free_slot].fd, -1);
	}
out:
	pthread_mutex_unlock(&lock);
	return err;
}

int perfev_signal_detach(int fd)
{
	int i, flags, err = -ENOENT;

	if (fd < 0)
		return -ENOENT;
	pthread_mutex_lock(&lock);
	init_slots();
	for (i = 0; i < MAX_ATTACHED; i++)
		if (atomic_load(&slots[i].fd) == fd) {
			flags = fcntl(fd, F_GETFL);
			if (flags >= 0)
				fcntl(fd, F_SETFL, flags & ~O_ASYNC);
			atomic_store(&slots[i].fd, -1);
			err = 0;
			break;
		}
	pthread_mutex_unlock(&lock);
	return err;
}

void perfev_attr_set_sigtrap(struct perf_event_attr *attr, uint64_t sig_data)
{
	if (!attr)
		return;
	attr->sigtrap = 1;
	attr->remove_on_exec = 1;
	attr->sig_data = sig_data;
}

/* si_perf_data and si_perf_type follow si_addr; glibc does not name them. */
static void perf_fields(const siginfo_t *si, uint64_t *data, uint32_t *type)
{
	const unsigned char *p = (const unsigned char *)&si->si_addr + sizeof(void *);
	unsigned long d;

	memcpy(&d, p, sizeof(d));
	memcpy(type, p + sizeof(unsigned long), sizeof(*type));
	*data = d;
}

int perfev_sigtrap_decode(const void *siginfo, struct perfev_signal_info *out)
{
	const siginfo_t *si = siginfo;

	if (!si || !out)
		return -EINVAL;
	if (si->si_signo != SIGTRAP || si->si_code != PERFEV_TRAP_PERF)
		return -ENOMSG;
	memset(out, 0, sizeof(*out));
	out->fd = -1;
	out->signo = SIGTRAP;
	out->code = PERFEV_TRAP_PERF;
	perf_fields(si, &out->sig_data, &out->type);
	out->addr = si->si_addr;
	return 0;
}

static void trap_dispatch(int signo, siginfo_t *si, void *uc)
{
	perfev_signal_fn fn = trap_fn;

	if (si->si_code == PERFEV_TRAP_PERF && fn) {
		struct perfev_signal_info info = {
		    .signo = signo, .fd = -1, .code = PERFEV_TRAP_PERF};

		perf_fields(si, &info.sig_data, &info.type);
		info.addr = si->si_addr;
		info.ctx = trap_ctx;
		fn(&info);
		return;
	}
	/* Not ours: what was there before (a debugger's breakpoint, say). */
	if (trap_prev.sa_flags & SA_SIGINFO)
		trap_prev.sa_sigaction(signo, si, uc);
	else if (trap_prev.sa_handler != SIG_DFL && trap_prev.sa_handler != SIG_IGN)
		trap_prev.sa_handler(signo);
	else if (trap_prev.sa_handler == SIG_DFL) {
		signal(signo, SIG_DFL);
		raise(signo);
	}
}

int perfev_sigtrap_handler(perfev_signal_fn fn, void *ctx)
{
	struct sigaction sa;
	int err = 0;

	pthread_mutex_lock(&lock);
	if (!fn) {
		if (trap_installed && sigaction(SIGTRAP, &trap_prev, NULL))
			err = -errno;
		trap_installed = false;
		trap_fn = NULL;
		goto out;
	}
	trap_ctx = ctx;
	trap_fn = fn;
	if (!trap_installed) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = trap_dispatch;
		sa.sa_flags = SA_SIGINFO | SA_RESTART;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGTRAP, &sa, &trap_prev)) {
			err = -errno;
			trap_fn = NULL;
			goto out;
		}
		trap_installed = true;
	}
out:
	pthread_mutex_unlock(&lock);
	return err;
}
