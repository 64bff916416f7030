// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A program for perfev watch's tests: writes a known sequence to a global, reads it, calls a
 * function a known number of times.
 *
 *   watch-target seq N      counter = 1..N, each through writer() called by caller()
 *   watch-target tight N    counter = 1..N in one tight loop, no call between the writes
 *   watch-target read N     N reads of counter (it is set once first)
 *   watch-target call N     target_fn() called N times
 *   watch-target wait N     print the pid, wait for SIGUSR1, then as "seq N"
 *   watch-target threads N  two threads, each writing N values to its own global
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

volatile int counter;
volatile long other;
volatile int thread_var[2];
volatile long sink;
static volatile sig_atomic_t go;

void writer(int v);
void caller(int v);
int target_fn(int v);

__attribute__((noinline)) void writer(int v)
{
	counter = v;
}

__attribute__((noinline)) void caller(int v)
{
	writer(v);
}

__attribute__((noinline)) int target_fn(int v)
{
	return v * 2;
}

static void on_usr1(int sig)
{
	(void)sig;
	go = 1;
}

static void *thread_main(void *arg)
{
	long idx = (long)arg;

	for (int i = 1; i <= (int)sink; i++)
		thread_var[idx] = i;
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 10;

	if (argc < 2)
		return 2;
	if (!strcmp(argv[1], "seq")) {
		for (int i = 1; i <= n; i++)
			caller(i);
	} else if (!strcmp(argv[1], "tight")) {
		for (int i = 1; i <= n; i++)
			counter = i;
	} else if (!strcmp(argv[1], "read")) {
		counter = 42;
		for (int i = 0; i < n; i++)
			sink += counter;
	} else if (!strcmp(argv[1], "call")) {
		for (int i = 0; i < n; i++)
			sink += target_fn(i);
	} else if (!strcmp(argv[1], "wait")) {
		signal(SIGUSR1, on_usr1);
		printf("%d\n", (int)getpid());
		fflush(stdout);
		while (!go)
			usleep(1000);
		for (int i = 1; i <= n; i++)
			caller(i);
	} else if (!strcmp(argv[1], "threads")) {
		pthread_t t[2];

		sink = n;
		for (long i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, thread_main, (void *)i);
		for (int i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
	} else {
		return 2;
	}
	return 0;
}
