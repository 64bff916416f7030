// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A sigtrap breakpoint's signal as a tracer sees it: a traced child writes to a watched
 * variable, the parent reads the signal-delivery-stop's siginfo and decodes it.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#include <perfev/perfev.h>
#include "harness.h"

static volatile int watched;

TEST(sigtrap_decode_from_ptrace)
{
	struct perfev_signal_info info;
	siginfo_t si;
	int st, fd;
	pid_t pid;

	REQUIRE_BREAKPOINTS();
	pid = fork();
	CHECK(pid >= 0);
	if (!pid) {
		struct perf_event_attr a;

		memset(&a, 0, sizeof(a));
		a.type = PERF_TYPE_BREAKPOINT;
		a.size = sizeof(a);
		a.bp_type = HW_BREAKPOINT_W;
		a.bp_addr = (uint64_t)(uintptr_t)&watched;
		a.bp_len = HW_BREAKPOINT_LEN_4;
		a.sample_period = 1;
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		perfev_attr_set_sigtrap(&a, 0x1234);
		if (ptrace(PTRACE_TRACEME, 0, 0, 0))
			_exit(2);
		fd = perfev_sys_open(&a, 0, -1, -1, 0);
		if (fd < 0)
			_exit(3);
		watched = 7;
		_exit(watched == 7 ? 0 : 4);
	}
	CHECK_INT(waitpid(pid, &st, 0), pid);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 3) {
		harness_skip("sigtrap", "a sigtrap breakpoint cannot be opened (Linux < 5.13?)");
		return;
	}
	CHECK(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP);
	CHECK_INT(ptrace(PTRACE_GETSIGINFO, pid, 0, &si), 0);
	CHECK_INT(perfev_sigtrap_decode(&si, &info), 0);
	CHECK_U64(info.sig_data, 0x1234);
	CHECK_INT(info.type, PERF_TYPE_BREAKPOINT);
	CHECK_INT(info.code, PERFEV_TRAP_PERF);
	CHECK(info.addr == (void *)&watched);
	/* Suppressed, the child goes on and exits normally. */
	CHECK_INT(ptrace(PTRACE_CONT, pid, 0, 0), 0);
	CHECK_INT(waitpid(pid, &st, 0), pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);

	/* Another signal is not one of ours. */
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGTRAP;
	si.si_code = TRAP_BRKPT;
	CHECK_INT(perfev_sigtrap_decode(&si, &info), -ENOMSG);
	CHECK_INT(perfev_sigtrap_decode(NULL, &info), -EINVAL);
}
