// SPDX-License-Identifier: LGPL-2.1-or-later
/* Source lines and inlined frames of a program compiled here with -O2 -g, against addr2line. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <perfev/symbols.h>
#include "harness.h"

/*
 * leaf() is inlined into mid(), mid() into outer(); the stores to a
 * volatile keep code of each level in outer().  The markers name the
 * lines the answers must give; their numbers are found in this text.
 */
static const char program[] = "volatile int sink;\n"
			      "static inline __attribute__((always_inline)) int leaf(int x)\n"
			      "{\n"
			      "\tsink = x; /* LEAF */\n"
			      "\treturn x * 3;\n"
			      "}\n"
			      "static inline __attribute__((always_inline)) int mid(int x)\n"
			      "{\n"
			      "\tint r = leaf(x + 1); /* CALL_LEAF */\n"
			      "\tsink = r; /* MID */\n"
			      "\treturn r;\n"
			      "}\n"
			      "__attribute__((noinline)) int outer(int x)\n"
			      "{\n"
			      "\tint r = mid(x); /* CALL_MID */\n"
			      "\tsink = r + 2; /* OUTER */\n"
			      "\treturn r;\n"
			      "}\n"
			      "int main(int argc, char **argv)\n"
			      "{\n"
			      "\t(void)argv;\n"
			      "\treturn outer(argc) & 1;\n"
			      "}\n";

/* The source, in a subdirectory: DWARF names it relative to the compilation directory. */
#define SRC_NAME "srcline-prog.c"
#define SRC_REL	 "src/" SRC_NAME

enum { PIE, NOPIE, STRIPPED, CLANG, NBINS };

static struct fixture {
	bool tried, ok;
	char why[640]; /* when !ok: the reason to skip */
	char dir[64];
	char src[128]; /* the absolute path the answers must give */
	char bin[NBINS][128];
	bool have[NBINS];
	unsigned int leaf, call_leaf, mid, call_mid, outer;
} fx;

/* At exit: remove what the fixture made. */
static void remove_fixture(void)
{
	char path[192];
	int i;

	for (i = 0; i < NBINS; i++)
		if (fx.bin[i][0])
			unlink(fx.bin[i]);
	unlink(fx.src);
	snprintf(path, sizeof(path), "%s/src", fx.dir);
	rmdir(path);
	rmdir(fx.dir);
}

static unsigned int line_of(const char *marker)
{
	const char *p = strstr(program, marker), *q;
	unsigned int line = 1;

	for (q = program; p && q < p; q++)
		line += *q == '\n';
	return p ? line : 0;
}

/* Run a shell command; its exit status, or -1 when it could not run. */
static int run(const char *cmd)
{
	int st = system(cmd);

	if (st == -1 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/*
 * Write the program and build it as a PIE and a non-PIE executable, and a
 * copy of the first without its debug information.
 */
static struct fixture *fixture(void)
{
	static const char *const flags[] = {"-fPIE -pie", "-fno-pie -no-pie"};
	char cmd[512];
	FILE *f;
	int i, st;

	if (fx.tried)
		return &fx;
	fx.tried = true;
	snprintf(fx.dir, sizeof(fx.dir), "/tmp/perfev-srcline-XXXXXX");
	if (!mkdtemp(fx.dir)) {
		snprintf(fx.why, sizeof(fx.why), "cannot create a directory: %s", strerror(errno));
		return &fx;
	}
	atexit(remove_fixture);
	snprintf(cmd, sizeof(cmd), "%s/src", fx.dir);
	snprintf(fx.src, sizeof(fx.src), "%s/" SRC_REL, fx.dir);
	f = mkdir(cmd, 0700) ? NULL : fopen(fx.src, "we");
	if (!f || fwrite(program, 1, sizeof(program) - 1, f) != sizeof(program) - 1) {
		snprintf(fx.why, sizeof(fx.why), "cannot write %s", fx.src);
		if (f)
			fclose(f);
		return &fx;
	}
	fclose(f);
	if (run("cc --version >/dev/null 2>&1") != 0) {
		snprintf(fx.why, sizeof(fx.why), "no C compiler (cc) to build the program");
		return &fx;
	}
	for (i = PIE; i <= NOPIE; i++) {
		snprintf(fx.bin[i], sizeof(fx.bin[i]), "%s/prog-%d", fx.dir, i);
		snprintf(cmd, sizeof(cmd), "cd %s && cc -O2 -g %s -o prog-%d " SRC_REL, fx.dir,
			 flags[i], i);
		st = run(cmd);
		fx.have[i] = st == 0;
		if (st != 0) {
			snprintf(fx.why, sizeof(fx.why), "'%s' failed (status %d)", cmd, st);
			return &fx;
		}
	}
	snprintf(fx.bin[STRIPPED], sizeof(fx.bin[STRIPPED]), "%s/prog-stripped", fx.dir);
	snprintf(cmd, sizeof(cmd), "objcopy --strip-debug %s %s 2>/dev/null", fx.bin[PIE],
		 fx.bin[STRIPPED]);
	fx.have[STRIPPED] = run(cmd) == 0;
	/* clang writes no .debug_aranges: the CU is found by its ranges. */
	if (run("clang --version >/dev/null 2>&1") == 0) {
		snprintf(fx.bin[CLANG], sizeof(fx.bin[CLANG]), "%s/prog-clang", fx.dir);
		snprintf(cmd, sizeof(cmd), "cd %s && clang -O2 -g -o prog-clang " SRC_REL, fx.dir);
		st = run(cmd);
		if (st != 0) {
			snprintf(fx.why, sizeof(fx.why), "'%s' failed (status %d)", cmd, st);
			return &fx;
		}
		fx.have[CLANG] = true;
	}
	fx.leaf = line_of("/* LEAF */");
	fx.call_leaf = line_of("/* CALL_LEAF */");
	fx.mid = line_of("/* MID */");
	fx.call_mid = line_of("/* CALL_MID */");
	fx.outer = line_of("/* OUTER */");
	fx.ok = true;
	return &fx;
}

/* The fixture, or skip the case (no compiler) / fail it (anything else). */
#define FIXTURE(fp)                                                                                \
	do {                                                                                       \
		fp = fixture();                                                                    \
		if (!fp->ok) {                                                                     \
			if (strstr(fp->why, "no C compiler"))                                      \
				harness_skip("cc", "%s", fp->why);                                 \
			else                                                                       \
				harness_fail(__FILE__, __LINE__, "%s", fp->why);                   \
			return;                                                                    \
		}                                                                                  \
	} while (0)

struct elfinfo {
	int type;		     /* ET_EXEC or ET_DYN */
	uint64_t start, size;	     /* outer() */
	uint64_t seg_vaddr, seg_off; /* the PT_LOAD holding outer(), page-aligned */
};

/* outer()'s symbol and the loaded segment it is in, read with libelf. */
static bool read_elf(const char *path, struct elfinfo *ei)
{
	Elf_Scn *scn = NULL;
	bool found = false;
	size_t nph, i;
	GElf_Ehdr eh;
	Elf *elf;
	int fd;

	memset(ei, 0, sizeof(*ei));
	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || !gelf_getehdr(elf, &eh))
		goto out;
	ei->type = eh.e_type;
	while (!found && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		for (i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *name;

			if (!gelf_getsym(d, (int)i, &sym))
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (name && !strcmp(name, "outer") &&
			    GELF_ST_TYPE(sym.st_info) == STT_FUNC) {
				ei->start = sym.st_value;
				ei->size = sym.st_size;
				found = true;
				break;
			}
		}
	}
	found = false;
	if (ei->size && !elf_getphdrnum(elf, &nph)) {
		for (i = 0; i < nph; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
			    ei->start >= ph.p_vaddr && ei->start - ph.p_vaddr < ph.p_filesz) {
				ei->seg_vaddr = ph.p_vaddr & ~0xfffULL;
				ei->seg_off = ph.p_offset & ~0xfffULL;
				found = true;
				break;
			}
		}
	}
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return found;
}

/*
 * Look up ELF address @addr of @path as a sample would give it: the
 * segment mapped at @base plus its address (a PIE is loaded anywhere, a
 * non-PIE executable at its own addresses: base 0).
 */
static int lines_at(struct perfev_symbolizer *sz, const char *path, const struct elfinfo *ei,
		    uint64_t base, uint64_t addr, struct perfev_srcline *out, size_t max)
{
	uint64_t map_start = base + ei->seg_vaddr;

	return perfev_symbolize_lines(sz, path, map_start, ei->seg_off,
				      map_start + (addr - ei->seg_vaddr), out, max);
}

/* Every address of outer() in the PIE and non-PIE builds: the chains must be as in the source. */
static void check_build(int which, uint64_t base)
{
	struct fixture *f;
	struct perfev_symbolizer *sz;
	struct perfev_srcline out[8], again[8];
	struct elfinfo ei;
	bool saw_leaf = false, saw_mid = false, saw_outer = false;
	uint64_t a;
	int n, i;

	FIXTURE(f);
	CHECK(read_elf(f->bin[which], &ei));
	if (which != CLANG)
		CHECK_INT(ei.type, which == PIE ? ET_DYN : ET_EXEC);
	CHECK(f->leaf && f->call_leaf && f->mid && f->call_mid && f->outer);
	CHECK_INT(perfev_symbolizer_new(NULL, &sz), 0);
	for (a = ei.start; a < ei.start + ei.size; a++) {
		n = lines_at(sz, f->bin[which], &ei, base, a, out, 8);
		EXPECT(n >= 1 && n <= 3, "%#" PRIx64 ": %d entries", a, n);
		if (n < 1 || n > 3)
			continue;
		for (i = 0; i < n; i++) {
			EXPECT(out[i].file && !strcmp(out[i].file, f->src),
			       "%#" PRIx64 ": entry %d: file %s, not %s", a, i,
			       out[i].file ? out[i].file : "(null)", f->src);
			EXPECT(out[i].func != NULL, "%#" PRIx64 ": entry %d: no function", a, i);
		}
		EXPECT(out[n - 1].func && !strcmp(out[n - 1].func, "outer"),
		       "%#" PRIx64 ": last entry in %s", a, out[n - 1].func);
		if (n == 3 && out[0].func && !strcmp(out[0].func, "leaf") &&
		    out[0].line == f->leaf) {
			saw_leaf = true;
			EXPECT(out[1].func && !strcmp(out[1].func, "mid") &&
				   out[1].line == f->call_leaf,
			       "%#" PRIx64 ": leaf called from %s:%u", a, out[1].func, out[1].line);
			EXPECT(out[2].line == f->call_mid, "%#" PRIx64 ": mid called from line %u",
			       a, out[2].line);
		}
		if (n == 2 && out[0].func && !strcmp(out[0].func, "mid") && out[0].line == f->mid) {
			saw_mid = true;
			EXPECT(out[1].line == f->call_mid, "%#" PRIx64 ": mid called from line %u",
			       a, out[1].line);
		}
		if (n == 1 && out[0].line == f->outer)
			saw_outer = true;
		/* Again, from the cache, and cut to one entry: the innermost. */
		CHECK_INT(lines_at(sz, f->bin[which], &ei, base, a, again, 8), n);
		CHECK(!memcmp(out, again, (size_t)n * sizeof(*out)));
		CHECK_INT(lines_at(sz, f->bin[which], &ei, base, a, again, 1), 1);
		CHECK(!memcmp(out, again, sizeof(*out)));
	}
	EXPECT(saw_leaf, "no address of leaf() inlined through mid() at line %u", f->leaf);
	EXPECT(saw_mid, "no address of mid() at line %u", f->mid);
	EXPECT(saw_outer, "no address of outer() itself at line %u", f->outer);
	perfev_symbolizer_free(sz);
}

TEST(pie_inlined_chain)
{
	check_build(PIE, 0x55d4a1c00000ULL);
}

TEST(non_pie_inlined_chain)
{
	check_build(NOPIE, 0);
}

TEST(clang_without_aranges)
{
	struct fixture *f;

	FIXTURE(f);
	if (!f->have[CLANG]) {
		harness_skip("clang", "clang is not installed");
		return;
	}
	check_build(CLANG, 0x7f3a40000000ULL);
}

TEST(no_debug_info_no_lines)
{
	struct fixture *f;
	struct perfev_symbolizer *sz;
	struct perfev_srcline out[4];
	struct perfev_sym sym;
	struct elfinfo ei;

	FIXTURE(f);
	if (!f->have[STRIPPED]) {
		harness_skip("objcopy", "objcopy --strip-debug failed or is missing");
		return;
	}
	CHECK(read_elf(f->bin[STRIPPED], &ei));
	CHECK_INT(perfev_symbolizer_new(NULL, &sz), 0);
	/* The symbol is still there, its lines are not. */
	CHECK_INT(
	    perfev_symbolize_user(sz, f->bin[STRIPPED], ei.seg_vaddr, ei.seg_off, ei.start, &sym),
	    0);
	CHECK_STR(sym.name, "outer");
	CHECK_INT(lines_at(sz, f->bin[STRIPPED], &ei, 0, ei.start, out, 4), 0);
	/* The miss is cached: the same answer again. */
	CHECK_INT(lines_at(sz, f->bin[STRIPPED], &ei, 0, ei.start, out, 4), 0);
	perfev_symbolizer_free(sz);
}

TEST(bad_arguments)
{
	struct fixture *f;
	struct perfev_symbolizer *sz;
	struct perfev_srcline out[4];
	const char *bin;
	struct elfinfo ei;

	FIXTURE(f);
	bin = f->bin[NOPIE];
	CHECK(read_elf(bin, &ei));
	CHECK_INT(perfev_symbolizer_new(NULL, &sz), 0);
	CHECK_INT(perfev_symbolize_lines(NULL, bin, 0, 0, ei.start, out, 4), -EINVAL);
	CHECK_INT(perfev_symbolize_lines(sz, NULL, 0, 0, ei.start, out, 4), -EINVAL);
	CHECK_INT(perfev_symbolize_lines(sz, bin, 0, 0, ei.start, NULL, 4), -EINVAL);
	CHECK_INT(perfev_symbolize_lines(sz, bin, 0, 0, ei.start, out, 0), -EINVAL);
	/* An address below the mapping. */
	CHECK_INT(perfev_symbolize_lines(sz, bin, 0x400000, 0, 0x3fffff, out, 4), -EINVAL);
	CHECK_INT(perfev_symbolize_lines(sz, "/nonexistent/prog", 0, 0, 0x1000, out, 4), -ENODATA);
	CHECK_INT(perfev_symbolize_lines(sz, "/proc/self/status", 0, 0, 0x1000, out, 4), -ENODATA);
	CHECK_INT(perfev_symbolize_lines(sz, bin, 0, 1ULL << 40, 0, out, 4), -ERANGE);
	/* After the errors, a good lookup still works. */
	CHECK(lines_at(sz, bin, &ei, 0, ei.start, out, 4) >= 1);
	perfev_symbolizer_free(sz);
}

/* One frame of `addr2line -f -i`: the function line, then "file:line". */
struct a2l_frame {
	char func[256], file[512];
	unsigned int line;
};

/* The frames addr2line prints for @addr; -1 when it could not run. */
static int addr2line(const char *bin, uint64_t addr, struct a2l_frame *fr, int max)
{
	char cmd[512], func[256], loc[512], *colon, *p;
	FILE *p2;
	int n = 0;

	snprintf(cmd, sizeof(cmd), "addr2line -f -i -e %s %#" PRIx64 " 2>/dev/null", bin, addr);
	p2 = popen(cmd, "re");
	if (!p2)
		return -1;
	while (n < max && fgets(func, sizeof(func), p2) && fgets(loc, sizeof(loc), p2)) {
		func[strcspn(func, "\n")] = 0;
		loc[strcspn(loc, "\n")] = 0;
		/* "file:line (discriminator N)" */
		p = strstr(loc, " (discriminator");
		if (p)
			*p = 0;
		colon = strrchr(loc, ':');
		if (!colon)
			break;
		*colon = 0;
		snprintf(fr[n].func, sizeof(fr[n].func), "%s", func);
		snprintf(fr[n].file, sizeof(fr[n].file), "%s", loc);
		fr[n].line = (unsigned int)strtoul(colon + 1, NULL, 10);
		n++;
	}
	if (pclose(p2) != 0)
		return -1;
	return n;
}

TEST(same_as_addr2line)
{
	struct fixture *f;
	struct perfev_symbolizer *sz;
	struct perfev_srcline out[8];
	struct a2l_frame fr[8];
	struct elfinfo ei;
	uint64_t a;
	int n, m, i, compared = 0;

	FIXTURE(f);
	if (run("addr2line --version >/dev/null 2>&1") != 0) {
		harness_skip("addr2line", "addr2line (binutils) is not installed");
		return;
	}
	CHECK(read_elf(f->bin[NOPIE], &ei));
	CHECK_INT(perfev_symbolizer_new(NULL, &sz), 0);
	for (a = ei.start; a < ei.start + ei.size; a++) {
		n = lines_at(sz, f->bin[NOPIE], &ei, 0, a, out, 8);
		m = addr2line(f->bin[NOPIE], a, fr, 8);
		CHECK(m >= 0);
		EXPECT(n == m, "%#" PRIx64 ": %d entries, addr2line %d", a, n, m);
		for (i = 0; i < n && i < m; i++) {
			EXPECT(out[i].func && !strcmp(out[i].func, fr[i].func),
			       "%#" PRIx64 " entry %d: function %s, addr2line %s", a, i,
			       out[i].func, fr[i].func);
			EXPECT(out[i].file && !strcmp(out[i].file, fr[i].file),
			       "%#" PRIx64 " entry %d: file %s, addr2line %s", a, i, out[i].file,
			       fr[i].file);
			EXPECT(out[i].line == fr[i].line,
			       "%#" PRIx64 " entry %d: line %u, addr2line %u", a, i, out[i].line,
			       fr[i].line);
		}
		compared++;
	}
	CHECK(compared > 0);
	perfev_symbolizer_free(sz);
}

/* The lines of outer()'s first address in @bin through a symbolizer with @cache (NULL: none). */
static int outer_lines(const char *bin, const char *cache, struct perfev_srcline *out, size_t max)
{
	struct perfev_symbolizer_opts o = {.sz = sizeof(o), .cache_dir = cache};
	struct perfev_symbolizer *sz;
	struct elfinfo ei;
	int n;

	if (!read_elf(bin, &ei) || perfev_symbolizer_new(&o, &sz))
		return -1;
	n = lines_at(sz, bin, &ei, 0, ei.start, out, max);
	/* Strings live with the symbolizer: keep the line only. */
	for (int i = 0; i < n; i++)
		out[i].file = out[i].func = NULL;
	perfev_symbolizer_free(sz);
	return n;
}

/*
 * A separate debug file with compressed DWARF (found by .gnu_debuglink next
 * to the program): the same lines, then from its inflated copy in the cache.
 */
TEST(compressed_debug_file_cached)
{
	struct perfev_srcline a[8], b[8], c[8];
	char cmd[8192], bin[1024], cache[1024];
	struct fixture *f;
	int na, nb, nc;

	FIXTURE(f);
	snprintf(bin, sizeof(bin), "%s/split", f->dir);
	snprintf(cache, sizeof(cache), "%s/cache", f->dir);
	snprintf(cmd, sizeof(cmd),
		 "cp %s %s && objcopy --only-keep-debug --compress-debug-sections=zlib %s "
		 "%s.debug && objcopy --strip-debug --add-gnu-debuglink=%s.debug %s",
		 f->bin[PIE], bin, bin, bin, bin, bin);
	if (run(cmd) != 0) {
		harness_skip("objcopy", "objcopy cannot split and compress debug sections here");
		return;
	}
	snprintf(cmd, sizeof(cmd),
		 "readelf -S -W %s.debug 2>/dev/null | grep -q '\\.debug_info.* C '", bin);
	CHECK_INT(run(cmd), 0);
	na = outer_lines(bin, NULL, a, 8);
	CHECK(na > 0);
	nb = outer_lines(bin, cache, b, 8);
	CHECK_INT(nb, na);
	/* The copy: found by build id, its sections inflated. */
	snprintf(cmd, sizeof(cmd),
		 "f=$(find %s/debug/.build-id -name '*.debug' | head -n 1) && [ -n \"$f\" ] && "
		 "readelf -S -W \"$f\" 2>/dev/null | grep -q '\\.debug_info' && "
		 "! readelf -S -W \"$f\" 2>/dev/null | grep -q '\\.debug_info.* C '",
		 cache);
	CHECK_INT(run(cmd), 0);
	/* A copy cut short does not hide the original: dropped, made again. */
	snprintf(cmd, sizeof(cmd), "f=$(find %s/debug/.build-id -name '*.debug') && : >\"$f\"",
		 cache);
	CHECK_INT(run(cmd), 0);
	CHECK_INT(outer_lines(bin, cache, b, 8), na);
	snprintf(cmd, sizeof(cmd), "f=$(find %s/debug/.build-id -name '*.debug') && [ -s \"$f\" ]",
		 cache);
	CHECK_INT(run(cmd), 0);
	/* Read from the copy, with the original gone: the same lines. */
	snprintf(cmd, sizeof(cmd), "rm %s.debug", bin);
	CHECK_INT(run(cmd), 0);
	nc = outer_lines(bin, cache, c, 8);
	CHECK_INT(nc, na);
	for (int i = 0; i < na && i < nc; i++)
		CHECK_INT(c[i].line, a[i].line);
	/* Without the cache, nothing is left to read. */
	CHECK_INT(outer_lines(bin, NULL, c, 8), 0);
}

/* A cache directory others may write to is not used: nothing is kept there. */
TEST(cache_dir_others_may_write)
{
	struct perfev_srcline a[8];
	char cmd[8192], bin[1024], cache[1024];
	struct fixture *f;

	FIXTURE(f);
	snprintf(bin, sizeof(bin), "%s/split2", f->dir);
	snprintf(cache, sizeof(cache), "%s/open-cache", f->dir);
	snprintf(cmd, sizeof(cmd),
		 "mkdir -m 0777 %s && chmod 0777 %s && cp %s %s && objcopy --only-keep-debug "
		 "--compress-debug-sections=zlib %s %s.debug && objcopy --strip-debug "
		 "--add-gnu-debuglink=%s.debug %s",
		 cache, cache, f->bin[PIE], bin, bin, bin, bin, bin);
	if (run(cmd) != 0) {
		harness_skip("objcopy", "objcopy cannot split and compress debug sections here");
		return;
	}
	CHECK(outer_lines(bin, cache, a, 8) > 0);
	snprintf(cmd, sizeof(cmd), "[ -z \"$(ls -A %s)\" ]", cache);
	CHECK_INT(run(cmd), 0);
}
