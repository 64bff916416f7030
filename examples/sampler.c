// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A signal-driven sampler: an event with a sample period on this thread
 * sends a signal at every overflow, and the handler counts overflows per
 * phase of the program (touching memory, computing, sleeping).
 *
 *   sampler [EVENT]        default: cpu-clock/period=1000000/ (one per ms of CPU)
 *   sampler page-faults/period=64/
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <perfev/perfev.h>

enum { TOUCH, COMPUTE, SLEEP, NPHASES };
static const char *const phase_name[NPHASES] = {"touch memory", "compute", "sleep"};

static volatile sig_atomic_t phase;
static volatile sig_atomic_t overflows[NPHASES];

/* Signal context: only async-signal-safe work. */
static void on_overflow(const struct perfev_signal_info *info)
{
	(void)info;
	overflows[phase]++;
}

static void touch_memory(void)
{
	size_t len = 64 << 20, i;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return;
	for (i = 0; i < len; i += 4096)
		p[i] = 1;
	munmap(p, len);
}

static void compute(void)
{
	volatile double x = 0;
	long i;

	for (i = 0; i < 50000000; i++)
		x += (double)i * 0.5;
}

int main(int argc, char **argv)
{
	const char *event = argc > 1 ? argv[1] : "cpu-clock/period=1000000/";
	struct perfev_parse_error pe = {.sz = sizeof(pe)};
	struct timespec nap = {.tv_nsec = 200000000};
	struct perfev_evspec *spec;
	unsigned char buf[PERFEV_ATTR_SIZE_MAX];
	struct perf_event_attr *attr = (struct perf_event_attr *)buf;
	uint64_t count = 0;
	int fd, err, i;

	err = perfev_evspec_parse(event, NULL, &spec, &pe);
	if (err) {
		fprintf(stderr, "sampler: invalid event '%s': %s\n", event, pe.message);
		return 1;
	}
	memset(buf, 0, sizeof(buf));
	err = perfev_evspec_attr_copy(spec, 0, buf, sizeof(buf));
	perfev_evspec_free(spec);
	if (err < 0 || !attr->sample_period) {
		fprintf(stderr, "sampler: '%s' needs a sample period (EVENT/period=N/)\n", event);
		return 1;
	}
	attr->disabled = 1;
	attr->freq = 0;
	fd = perfev_sys_open(attr, 0, -1, -1, 0);
	if (fd == -EACCES || fd == -EPERM) { /* kernel counting not permitted: user only */
		attr->exclude_kernel = 1;
		fd = perfev_sys_open(attr, 0, -1, -1, 0);
	}
	if (fd < 0) {
		char why[512];

		perfev_diagnose(fd, attr, NULL, why, sizeof(why));
		fprintf(stderr, "sampler: cannot open '%s': %s\n", event, why);
		return 1;
	}
	/* A real-time signal: queued, so no overflow is merged with the next. */
	err = perfev_signal_attach(fd, SIGRTMIN, on_overflow, NULL);
	if (err) {
		fprintf(stderr, "sampler: cannot attach a signal: %s\n", perfev_strerror(err));
		return 1;
	}

	perfev_ioc_enable(fd, false);
	phase = TOUCH;
	touch_memory();
	phase = COMPUTE;
	compute();
	phase = SLEEP;
	nanosleep(&nap, NULL);
	perfev_ioc_disable(fd, false);

	perfev_signal_detach(fd);
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		count = 0;
	close(fd);
	printf("%s: %llu counted, sample period %llu\n", event, (unsigned long long)count,
	       (unsigned long long)attr->sample_period);
	for (i = 0; i < NPHASES; i++)
		printf("  %-14s %6d overflows\n", phase_name[i], (int)overflows[i]);
	return 0;
}
