// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Wall time of running a command, with as little overhead as possible:
 * posix_spawn it N times (searched in PATH), stdin from and stdout and
 * stderr to /dev/null, wait for it, and print each run's time from
 * spawn to reaped, in nanoseconds, one per line.  A run that does not
 * exit with status 0 is an error (the measurement would be meaningless).
 * With -m, each line also gives the run's peak resident set in kB (the
 * largest of the command and the children it waited for, from wait4).
 *
 *   spawn-time [-m] N command [args...]
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	posix_spawn_file_actions_t fa;
	char *end;
	long n, i;
	int null, rss = 0;

	if (argc > 1 && !strcmp(argv[1], "-m")) {
		rss = 1;
		argc--;
		argv++;
	}
	if (argc < 3 || (n = strtol(argv[1], &end, 10)) <= 0 || *end) {
		fprintf(stderr, "usage: spawn-time [-m] N command [args...]\n");
		return 2;
	}
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0) {
		perror("spawn-time: /dev/null");
		return 1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, null, 0);
	posix_spawn_file_actions_adddup2(&fa, null, 1);
	posix_spawn_file_actions_adddup2(&fa, null, 2);
	for (i = 0; i < n; i++) {
		long long t0, t1;
		struct rusage ru;
		pid_t pid;
		int err, status;

		t0 = now_ns();
		err = posix_spawnp(&pid, argv[2], &fa, NULL, argv + 2, environ);
		if (err) {
			fprintf(stderr, "spawn-time: cannot run '%s': %s\n", argv[2],
				strerror(err));
			return 1;
		}
		while (wait4(pid, &status, 0, &ru) < 0)
			if (errno != EINTR) {
				perror("spawn-time: wait4");
				return 1;
			}
		t1 = now_ns();
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "spawn-time: '%s' failed (wait status %#x)\n", argv[2],
				status);
			return 1;
		}
		if (rss)
			printf("%lld %ld\n", t1 - t0, ru.ru_maxrss);
		else
			printf("%lld\n", t1 - t0);
	}
	posix_spawn_file_actions_destroy(&fa);
	if (fflush(stdout) || ferror(stdout)) {
		perror("spawn-time: stdout");
		return 1;
	}
	return 0;
}
