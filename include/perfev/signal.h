/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Notification by signal (perf_event_open(2), "Signal overflow"):
 *
 *   - asynchronous: an event opened with a sample period and made
 *     O_ASYNC with F_SETSIG and F_SETOWN_EX sends a signal to a chosen
 *     thread on each overflow (si_code POLL_IN), and POLL_HUP when a
 *     PERF_EVENT_IOC_REFRESH budget runs out;
 *   - synchronous: an event opened with attr.sigtrap (and remove_on_exec)
 *     sends SIGTRAP to the thread that caused it, with si_code TRAP_PERF
 *     and attr.sig_data (Linux 5.13).
 *
 * The library installs one dispatching handler per signal number and
 * calls the function registered for the event's fd.  Handlers run in
 * signal context: they must only do async-signal-safe work.
 */
#ifndef PERFEV_SIGNAL_H
#define PERFEV_SIGNAL_H

#include <stdint.h>
#include <perfev/abi.h>
#include <perfev/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* si_code of sigtrap events (TRAP_PERF, Linux 5.13; not in every libc). */
#define PERFEV_TRAP_PERF 6

/* What a handler is told. */
struct perfev_signal_info {
	int fd; /* the event (-1 for sigtrap, which does not say) */
	int signo;
	int code;	   /* POLL_IN, POLL_HUP, or PERFEV_TRAP_PERF */
	uint64_t sig_data; /* TRAP_PERF: the event's attr.sig_data */
	uint32_t type;	   /* TRAP_PERF: the event's attr.type */
	void *addr;	   /* TRAP_PERF: the address (breakpoints), or NULL */
	void *ctx;	   /* as registered */
};

typedef void (*perfev_signal_fn)(const struct perfev_signal_info *info);

/*
 * Deliver @fd's overflows as signal @signo (0: SIGIO) to the calling
 * thread and call @fn for each.  The event needs a sample period (or
 * frequency) to overflow.  Up to 256 events may be attached at once.
 *
 * Errors: -EINVAL, -ENOSPC (table full), -EBUSY (@signo has a handler
 * not installed by this library), and fcntl(2)/sigaction(2) errors.
 */
PERFEV_API int perfev_signal_attach(int fd, int signo, perfev_signal_fn fn, void *ctx);
/* Stop delivering @fd's overflows (the event stays open).  Errors: -ENOENT. */
PERFEV_API int perfev_signal_detach(int fd);

/*
 * Make @attr synchronous: sigtrap, remove_on_exec (the kernel requires
 * it) and @sig_data, identifying the event to the handler.
 */
PERFEV_API void perfev_attr_set_sigtrap(struct perf_event_attr *attr, uint64_t sig_data);

/*
 * Decode a sigtrap event's signal from @siginfo (a siginfo_t, as a tracer
 * gets it with PTRACE_GETSIGINFO at a signal-delivery-stop, or a handler
 * of its own): sig_data, type and addr into @out (fd -1, ctx NULL).
 * Returns 0 for a SIGTRAP with si_code TRAP_PERF, -ENOMSG for any other
 * signal, -EINVAL for a NULL argument.
 */
PERFEV_API int perfev_sigtrap_decode(const void *siginfo, struct perfev_signal_info *out);

/*
 * Call @fn for every SIGTRAP with si_code TRAP_PERF; other SIGTRAPs go to
 * the handler that was there before (or the default action).  NULL @fn
 * restores that handler.  Errors: -EINVAL, sigaction(2) errors.
 */
PERFEV_API int perfev_sigtrap_handler(perfev_signal_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_SIGNAL_H */
