// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Corpus replay without libFuzzer: feed every file named on the command
 * line, or found in a named directory (and its subdirectories, one level
 * down), to LLVMFuzzerTestOneInput().  Built with ASan+UBSan, so a seed
 * that crashes or misbehaves fails `make check`.  Prints one line per
 * argument for tests/run.sh:
 *
 *   PASS replay_<name>: N inputs
 *   FAIL replay_<name>: cannot read '<path>': <reason>
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REPLAY_MAX_INPUT (1 << 20)

struct replay {
	const char *label;
	size_t inputs;
	int failed;
};

static void fail(struct replay *r, const char *path, int err)
{
	if (!r->failed)
		printf("FAIL replay_%s: cannot read '%s': %s\n", r->label, path, strerror(err));
	r->failed = 1;
}

static void run_file(struct replay *r, const char *path)
{
	uint8_t *buf;
	size_t len = 0;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fail(r, path, errno);
		return;
	}
	/* One byte more than the limit, to notice an input that is too big. */
	buf = malloc(REPLAY_MAX_INPUT + 1);
	if (!buf) {
		close(fd);
		fail(r, path, ENOMEM);
		return;
	}
	while (len <= REPLAY_MAX_INPUT) {
		n = read(fd, buf + len, REPLAY_MAX_INPUT + 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fail(r, path, errno);
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (len > REPLAY_MAX_INPUT) {
		fail(r, path, EFBIG);
		goto out;
	}
	/*
	 * An exact-size heap copy, as libFuzzer hands inputs over: a read
	 * one byte past the input is an ASan error here too.
	 */
	{
		uint8_t *exact = malloc(len ? len : 1);

		if (!exact) {
			fail(r, path, ENOMEM);
			goto out;
		}
		memcpy(exact, buf, len);
		LLVMFuzzerTestOneInput(exact, len);
		free(exact);
	}
	r->inputs++;
out:
	free(buf);
	close(fd);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Files of @dir in name order; subdirectories while @depth > 0. */
static void run_dir(struct replay *r, const char *dir, int depth)
{
	char **names = NULL, path[PATH_MAX];
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d) {
		fail(r, dir, errno);
		return;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **nn = realloc(names, (cap ? cap * 2 : 64) * sizeof(*names));

			if (!nn) {
				fail(r, dir, ENOMEM);
				break;
			}
			names = nn;
			cap = cap ? cap * 2 : 64;
		}
		names[n] = strdup(de->d_name);
		if (!names[n]) {
			fail(r, dir, ENOMEM);
			break;
		}
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	for (i = 0; i < n; i++) {
		struct stat st;

		if (snprintf(path, sizeof(path), "%s/%s", dir, names[i]) >= (int)sizeof(path)) {
			fail(r, names[i], ENAMETOOLONG);
			continue;
		}
		if (stat(path, &st)) {
			fail(r, path, errno);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			if (depth > 0)
				run_dir(r, path, depth - 1);
		} else if (S_ISREG(st.st_mode)) {
			run_file(r, path);
		}
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* "fuzz/corpus/event/" -> "event" */
static const char *label_of(const char *arg, char *buf, size_t len)
{
	size_t n = strlen(arg);
	const char *slash;

	while (n > 1 && arg[n - 1] == '/')
		n--;
	snprintf(buf, len, "%.*s", (int)n, arg);
	slash = strrchr(buf, '/');
	return slash && slash[1] ? slash + 1 : buf;
}

int main(int argc, char **argv)
{
	struct replay *r;
	int i, failed = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	r = calloc((size_t)argc, sizeof(*r));
	if (!r)
		return 1;
	for (i = 1; i < argc; i++) {
		static char labels[64][256];
		struct stat st;

		r[i].label = label_of(argv[i], labels[i < 64 ? i : 63], sizeof(labels[0]));
		if (stat(argv[i], &st)) {
			fail(&r[i], argv[i], errno);
		} else if (S_ISDIR(st.st_mode)) {
			run_dir(&r[i], argv[i], 1);
		} else {
			run_file(&r[i], argv[i]);
		}
		fflush(stdout);
	}
	for (i = 1; i < argc; i++) {
		if (r[i].failed) {
			failed = 1;
			continue;
		}
		printf("PASS replay_%s: %zu inputs\n", r[i].label, r[i].inputs);
	}
	free(r);
	fflush(stdout);
	return failed;
}
