// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Source-line lookup cost: perfev_symbolize_lines() over N distinct
 * addresses spread evenly over the .text of an ELF file with DWARF
 * (default: this program, built with -g; default N 100000), against
 * `addr2line -a -f -i` given the same addresses on its standard input.
 *
 *   cold   a new symbolizer: the file opened, each address computed once
 *   warm   the same addresses again, answered from the cache
 *
 * The answers are also compared with addr2line's, frame by frame
 * (function, file, line); an address without a line matches addr2line's
 * "??:0" or "FILE:?".  Prints a table and machine-readable lines:
 *
 *   bench=srcline file=F tool=perfev pass=P addrs=N ns_per_addr=X ms=T with_lines=L frames=R
 *   bench=srcline file=F tool=addr2line addrs=N ns_per_addr=X ms=T
 *   bench=srcline file=F tool=addr2line ns_per_addr=n/a reason=R
 *   bench=srcline file=F agree=A addrs=N
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <perfev/perfev.h>
#include <perfev/symbols.h>

#define MAX_FRAMES 16

struct target {
	uint64_t text, text_size;    /* .text */
	uint64_t seg_vaddr, seg_off; /* its PT_LOAD, page-aligned */
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int read_target(const char *path, struct target *t)
{
	Elf_Scn *scn = NULL;
	size_t shstr, nph, i;
	int fd, err = -ENOENT;
	Elf *elf;

	memset(t, 0, sizeof(*t));
	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_getshdrstrndx(elf, &shstr) || elf_getphdrnum(elf, &nph)) {
		err = -ENODATA;
		goto out;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (gelf_getshdr(scn, &sh) && (name = elf_strptr(elf, shstr, sh.sh_name)) &&
		    !strcmp(name, ".text")) {
			t->text = sh.sh_addr;
			t->text_size = sh.sh_size;
		}
	}
	for (i = 0; t->text_size && i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    t->text >= ph.p_vaddr && t->text - ph.p_vaddr < ph.p_filesz) {
			t->seg_vaddr = ph.p_vaddr & ~0xfffULL;
			t->seg_off = ph.p_offset & ~0xfffULL;
			err = 0;
		}
	}
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return err;
}

/* One pass over the addresses; how many had a line and how many frames in all. */
static int pass(struct perfev_symbolizer *sz, const char *path, const struct target *t,
		const uint64_t *addrs, size_t n, size_t *with_lines, size_t *frames)
{
	struct perfev_srcline out[MAX_FRAMES];
	size_t i;
	int r;

	*with_lines = *frames = 0;
	for (i = 0; i < n; i++) {
		r = perfev_symbolize_lines(sz, path, t->seg_vaddr, t->seg_off, addrs[i], out,
					   MAX_FRAMES);
		if (r < 0)
			return r;
		*with_lines += r > 0;
		*frames += (size_t)r;
	}
	return 0;
}

/*
 * Run addr2line over the addresses (written to a file first), its output
 * to @outpath.  Returns the wall time in ns, or a negative value.
 */
static double run_addr2line(const char *path, const uint64_t *addrs, size_t n, const char *inpath,
			    const char *outpath)
{
	char cmd[4096 + 256];
	double t0;
	FILE *f;
	size_t i;
	int st;

	f = fopen(inpath, "we");
	if (!f)
		return -1;
	for (i = 0; i < n; i++)
		fprintf(f, "%#" PRIx64 "\n", addrs[i]);
	if (fclose(f))
		return -1;
	snprintf(cmd, sizeof(cmd), "addr2line -a -f -i -e '%s' < %s > %s 2>/dev/null", path, inpath,
		 outpath);
	t0 = now_ns();
	st = system(cmd);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st))
		return -1;
	return now_ns() - t0;
}

/*
 * Compare addr2line's output (address lines "0x...", then function and
 * "file:line" pairs) with perfev's answers; the number of addresses where
 * every frame agrees.
 */
static size_t compare(struct perfev_symbolizer *sz, const char *path, const struct target *t,
		      const uint64_t *addrs, size_t n, const char *outpath, size_t *shown)
{
	struct perfev_srcline out[MAX_FRAMES];
	char func[4096], loc[4096];
	size_t i = 0, agree = 0;
	bool have_addr = false, ok = false;
	int r = 0, k = 0;
	FILE *f = fopen(outpath, "re");

	if (!f)
		return 0;
	/* An address's verdict is known when the next one starts (or at the end). */
	for (;;) {
		bool more = fgets(func, sizeof(func), f) != NULL;

		if (!more || !strncmp(func, "0x", 2)) {
			if (have_addr) {
				ok = ok && k == (r ? r : 1);
				if (ok)
					agree++;
				else if (*shown < 5) {
					fprintf(stderr, "differs at %#" PRIx64 "\n", addrs[i]);
					++*shown;
				}
				i++;
			}
			if (!more || i >= n)
				break;
			have_addr = true;
			r = perfev_symbolize_lines(sz, path, t->seg_vaddr, t->seg_off, addrs[i],
						   out, MAX_FRAMES);
			ok = r >= 0;
			k = 0;
			continue;
		}
		if (!fgets(loc, sizeof(loc), f))
			break;
		func[strcspn(func, "\n")] = 0;
		loc[strcspn(loc, "\n")] = 0;
		{
			char *d = strstr(loc, " (discriminator"), *colon;
			unsigned long line;

			if (d)
				*d = 0;
			colon = strrchr(loc, ':');
			line = colon ? strtoul(colon + 1, NULL, 10) : 0;
			if (colon)
				*colon = 0;
			if (r == 0) /* "??:0", or a file from the symbol table with "?" */
				ok = ok && line == 0;
			else if (k >= r)
				ok = false;
			else
				ok = ok && out[k].func && !strcmp(out[k].func, func) &&
				     out[k].file && !strcmp(out[k].file, loc) &&
				     out[k].line == line;
		}
		k++;
	}
	fclose(f);
	return agree;
}

int main(int argc, char **argv)
{
	static char self[4096];
	const char *path = argc > 1 ? argv[1] : NULL;
	size_t n = argc > 2 ? strtoul(argv[2], NULL, 10) : 100000, i, with, frames, shown = 0;
	char inpath[] = "/tmp/perfev-bench-srcline-in-XXXXXX";
	char outpath[] = "/tmp/perfev-bench-srcline-out-XXXXXX";
	struct perfev_symbolizer *sz;
	struct target t;
	uint64_t *addrs, stride;
	double t0, cold, warm, a2l;
	int err, fd;

	if (!path) {
		ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);

		if (len <= 0) {
			perror("readlink /proc/self/exe");
			return 1;
		}
		self[len] = 0;
		path = self;
	}
	err = read_target(path, &t);
	if (err) {
		fprintf(stderr, "cannot read the .text of '%s': %s\n", path, perfev_strerror(err));
		return 1;
	}
	if (!n || t.text_size < n)
		n = t.text_size;
	stride = t.text_size / n;
	addrs = malloc(n * sizeof(*addrs));
	if (!addrs)
		return 1;
	/* As a sample would give them: the segment mapped at its own address. */
	for (i = 0; i < n; i++)
		addrs[i] = t.text + i * stride;

	err = perfev_symbolizer_new(NULL, &sz);
	if (err)
		return 1;
	t0 = now_ns();
	err = pass(sz, path, &t, addrs, n, &with, &frames);
	cold = now_ns() - t0;
	if (err) {
		fprintf(stderr, "cannot look up lines in '%s': %s\n", path, perfev_strerror(err));
		return 1;
	}
	printf("%-10s %-5s %8zu addrs %10.0f ns/addr %9.1f ms  %zu with lines, %zu frames\n",
	       "perfev", "cold", n, cold / n, cold / 1e6, with, frames);
	printf("bench=srcline file=%s tool=perfev pass=cold addrs=%zu ns_per_addr=%.0f ms=%.1f "
	       "with_lines=%zu frames=%zu\n",
	       path, n, cold / n, cold / 1e6, with, frames);
	t0 = now_ns();
	err = pass(sz, path, &t, addrs, n, &with, &frames);
	warm = now_ns() - t0;
	if (err)
		return 1;
	printf("%-10s %-5s %8zu addrs %10.0f ns/addr %9.1f ms\n", "perfev", "warm", n, warm / n,
	       warm / 1e6);
	printf("bench=srcline file=%s tool=perfev pass=warm addrs=%zu ns_per_addr=%.1f ms=%.1f "
	       "with_lines=%zu frames=%zu\n",
	       path, n, warm / n, warm / 1e6, with, frames);

	fd = mkstemp(inpath);
	if (fd >= 0)
		close(fd);
	fd = mkstemp(outpath);
	if (fd >= 0)
		close(fd);
	a2l = run_addr2line(path, addrs, n, inpath, outpath);
	if (a2l < 0) {
		printf("bench=srcline file=%s tool=addr2line ns_per_addr=n/a reason=%s\n", path,
		       "addr2line-missing-or-failed");
	} else {
		size_t agree = compare(sz, path, &t, addrs, n, outpath, &shown);

		printf("%-10s %-5s %8zu addrs %10.0f ns/addr %9.1f ms  (%.1fx perfev cold)\n",
		       "addr2line", "", n, a2l / n, a2l / 1e6, a2l / cold);
		printf("bench=srcline file=%s tool=addr2line addrs=%zu ns_per_addr=%.0f ms=%.1f\n",
		       path, n, a2l / n, a2l / 1e6);
		printf("bench=srcline file=%s agree=%zu addrs=%zu\n", path, agree, n);
	}
	unlink(inpath);
	unlink(outpath);
	perfev_symbolizer_free(sz);
	free(addrs);
	return 0;
}
