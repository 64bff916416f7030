// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A thread that waits and works in turns: N times, sleep SLEEP_MS
 * (nanosleep) then spin SPIN_MS on the CPU.  perfev record --off-cpu
 * should find N x SLEEP_MS off the CPU in wait_a_bit() and the samples
 * on the CPU in spin().  Usage: offcpu-workload [N [SLEEP_MS [SPIN_MS]]]
 */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

volatile uint64_t sink;
void spin(double secs);
void wait_a_bit(long ms);

__attribute__((noinline)) void spin(double secs)
{
	double end = now() + secs;
	uint64_t x = 0;

	while (now() < end)
		for (int i = 0; i < 1000; i++)
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	sink = x;
}

__attribute__((noinline)) void wait_a_bit(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts))
		;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;
	long sleep_ms = argc > 2 ? atol(argv[2]) : 100;
	double spin_ms = argc > 3 ? atof(argv[3]) : 50;

	for (int i = 0; i < n; i++) {
		wait_a_bit(sleep_ms);
		spin(spin_ms / 1000);
	}
	return 0;
}
