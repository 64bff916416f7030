// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Kernel symbols from kallsyms text; user symbols of this program, of libraries built at test
 * time (the choice among aliases, C++ names, build ids), of the vDSO and of JIT maps.
 */
#include <dlfcn.h>
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
#include "symbols/symtab.h"

static const char ksyms[] = "ffffffff81000000 T _stext\n"
			    "ffffffff81000000 T _text\n"
			    "ffffffff81001000 t __local_alias\n"
			    "ffffffff81001000 T do_work\n"
			    "ffffffff81001000 W do_work_weak\n"
			    "ffffffff81002000 T next_fn\n"
			    "ffffffff81003000 r some_rodata\n"
			    "ffffffff81004000 b some_bss\n"
			    "not a line\n"
			    "ffffffff8100500g T bad_hex\n"
			    "ffffffffc0001000 t mod_fn\t[mymod]\n"
			    "ffffffffc0002000 T mod_fn2\t[mymod]\n";

TEST(kallsyms_parse_and_find)
{
	struct perfev_kallsyms *k;
	struct perfev_ksym s;

	CHECK_INT(perfev_kallsyms_parse(ksyms, sizeof(ksyms) - 1, &k), 0);
	/* _text/_stext one, do_work one, next_fn, some_bss, mod_fn, mod_fn2; rodata dropped. */
	CHECK_INT(perfev_kallsyms_count(k), 6);
	CHECK_INT(perfev_kallsyms_find(k, 0xffffffff81001010ULL, &s), 0);
	/* Of three at one address: the last (the others end where it begins). */
	CHECK_STR(s.name, "do_work_weak");
	CHECK_U64(s.start, 0xffffffff81001000ULL);
	CHECK_U64(s.size, 0x1000);
	CHECK(s.module == NULL);
	CHECK_INT(perfev_kallsyms_find(k, 0xffffffff81000010ULL, &s), 0);
	/* Whatever the names: the last line. */
	CHECK_STR(s.name, "_text");
	CHECK_INT(perfev_kallsyms_find(k, 0xffffffffc0001008ULL, &s), 0);
	CHECK_STR(s.name, "mod_fn");
	CHECK_STR(s.module, "mymod");
	CHECK_INT(perfev_kallsyms_find(k, 0xffffffffc0002008ULL, &s), 0);
	CHECK_STR(s.name, "mod_fn2");
	CHECK_U64(s.size, 0);
	CHECK_INT(perfev_kallsyms_find(k, 0x1000, &s), -ENOENT);
	CHECK_INT(perfev_kallsyms_find(NULL, 0x1000, &s), -EINVAL);
	perfev_kallsyms_free(k);
}

TEST(kallsyms_hidden_and_empty)
{
	static const char hidden[] = "0000000000000000 T _text\n0000000000000000 T do_work\n";
	struct perfev_kallsyms *k;
	struct perfev_ksym s;

	CHECK_INT(perfev_kallsyms_parse(hidden, sizeof(hidden) - 1, &k), 0);
	CHECK_INT(perfev_kallsyms_count(k), 0);
	CHECK_INT(perfev_kallsyms_find(k, 0x10, &s), -ENOENT);
	perfev_kallsyms_free(k);
	CHECK_INT(perfev_kallsyms_parse("", 0, &k), 0);
	CHECK_INT(perfev_kallsyms_count(k), 0);
	perfev_kallsyms_free(k);
	/* No final newline, a line cut short. */
	CHECK_INT(perfev_kallsyms_parse("ffffffff81000000 T a\nffffffff81000010 T", 39, &k), 0);
	CHECK_INT(perfev_kallsyms_count(k), 1);
	perfev_kallsyms_free(k);
	CHECK_INT(perfev_kallsyms_parse(NULL, 3, &k), -EINVAL);
	CHECK_INT(perfev_kallsyms_parse("x", 1, NULL), -EINVAL);
}

TEST(kallsyms_of_this_machine)
{
	struct perfev_symbolizer *sz;
	struct perfev_sym sym;
	const char *mod;
	struct perfev_kallsyms *k;
	struct perfev_ksym ks;
	int err = perfev_kallsyms_load(NULL, &k);

	if (err) {
		harness_skip_errno("kallsyms", err, "/proc/kallsyms", __FILE__, __LINE__);
		return;
	}
	if (!perfev_kallsyms_count(k)) {
		perfev_kallsyms_free(k);
		harness_skip("kallsyms", "/proc/kallsyms shows no addresses to this user");
		return;
	}
	CHECK_INT(perfev_symbolizer_new(NULL, &sz), 0);
	/* A symbol found by address comes back by the symbolizer with the same start. */
	CHECK_INT(perfev_kallsyms_find(k, ~0ULL, &ks), 0);
	CHECK_INT(perfev_symbolize_kernel(sz, ks.start + (ks.size ? ks.size / 2 : 0), &sym, &mod),
		  0);
	CHECK_U64(sym.start, ks.start);
	perfev_symbolizer_free(sz);
	perfev_kallsyms_free(k);
}

/* A function of this program, looked up by its run-time address. */
int perfev_test_marker_function(int x);
__attribute__((noinline, used)) int perfev_test_marker_function(int x)
{
	return x * 3 + 1;
}

TEST(user_symbol_of_this_program)
{
	uint64_t addr = (uint64_t)(uintptr_t)&perfev_test_marker_function + 4;
	char line[4096], path[4096];
	unsigned long long start, end, pgoff;
	struct perfev_symbolizer *sz;
	struct perfev_sym sym;
	bool found = false;
	FILE *f;

	f = fopen("/proc/self/maps", "re");
	CHECK(f != NULL);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %4095s", &start, &end, &pgoff, path) ==
			4 &&
		    addr >= start && addr < end) {
			found = true;
			break;
		}
	}
	fclose(f);
	CHECK(found);
	CHECK_INT(perfev_symbolizer_new(NULL, &sz), 0);
	CHECK_INT(perfev_symbolize_user(sz, path, start, pgoff, addr, &sym), 0);
	CHECK_STR(sym.name, "perfev_test_marker_function");
	CHECK_U64(sym.addr - sym.start, 4);
	CHECK(sym.size >= 4);
	/* Again: from the cache. */
	CHECK_INT(perfev_symbolize_user(sz, path, start, pgoff, addr, &sym), 0);
	CHECK_STR(sym.name, "perfev_test_marker_function");
	/* Not ELF, missing, and an offset no segment holds. */
	EXPECT(perfev_symbolize_user(sz, "/proc/self/status", 0x1000, 0, 0x1000, &sym) == -ENODATA,
	       "a text file");
	EXPECT(perfev_symbolize_user(sz, "/nonexistent/x", 0x1000, 0, 0x1000, &sym) == -ENODATA,
	       "a missing file");
	EXPECT(perfev_symbolize_user(sz, path, start, 1ULL << 40, start, &sym) == -ERANGE,
	       "an offset past the file");
	CHECK_INT(perfev_symbolize_user(sz, path, start, pgoff, start - 1, &sym), -EINVAL);
	perfev_symbolizer_free(sz);
}

/* ---- user-space symbol tables, built from libraries compiled here ---- */

/* The mapping of this process holding @addr: its start, file offset and path. */
static bool mapping_of(uint64_t addr, uint64_t *start, uint64_t *pgoff, char *path, size_t len)
{
	unsigned long long lo, hi, off;
	char line[4096], name[4096];
	bool found = false;
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		name[0] = '\0';
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %4095s", &lo, &hi, &off, name) < 3 ||
		    addr < lo || addr >= hi)
			continue;
		*start = lo;
		*pgoff = off;
		snprintf(path, len, "%s", name);
		found = true;
	}
	fclose(f);
	return found;
}

/* Symbols sharing addresses, each group deciding one rule of the choice perf makes. */
static const char lib_src[] =
    "int fa_global(int x) { return x + 1; }\n"
    "extern int fa_weak_longer_name(int) __attribute__((weak, alias(\"fa_global\")));\n"
    "int fb(int x) { return x + 2; }\n"
    "static int fb_local_longer_name(int) __attribute__((alias(\"fb\"), used));\n"
    "int fc_x(int x) { return x + 3; }\n"
    "extern int __fc_x_longer_name(int) __attribute__((alias(\"fc_x\")));\n"
    "int fd(int x) { return x + 4; }\n"
    "extern int fd_longer(int) __attribute__((alias(\"fd\")));\n"
    "int data_obj = 42;\n"
    "extern int getpid(void);\n"
    "int calls_out(void) { return getpid() + 1; }\n"
    "__asm__(\".text\\n\"\n"
    "  \".globl fe\\n.type fe,@function\\nfe:\\n\"\n"
    "  \".globl fe_nosize_longer\\n.type fe_nosize_longer,@function\\nfe_nosize_longer:\\n\"\n"
    "  \".skip 16\\n.size fe,16\\n\"\n"
    "  \".globl fz\\n.type fz,@function\\nfz:\\n.skip 32\\n\"\n"
    "  \".globl fz_next\\n.type fz_next,@function\\nfz_next:\\n.skip 8\\n.size fz_next,8\\n\"\n"
    "  \".globl flabel\\nflabel:\\n.skip 8\\n\");\n";

static const char cxx_src[] = "namespace perfev_ns {\n"
			      "int twice(int x) { return 2 * x; }\n"
			      "template <typename T> T thrice(T x) { return 3 * x; }\n"
			      "template long thrice<long>(long);\n"
			      "}\n";

/* Two builds of lib_src differing only in their build ids, and a C++ library. */
#define ID_A "0102030405060708090a0b0c0d0e0f1011121314"
#define ID_B "a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4"
#define ID_C "c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4"

static struct {
	bool tried, ok, cxx;
	char dir[64], why[512], lib_a[128], lib_b[128], lib_cxx[128];
	void *h, *hcxx;
} fx;

static int run(const char *cmd)
{
	int st = system(cmd);

	if (st == -1 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static void remove_fixture(void)
{
	char cmd[128];

	if (fx.h)
		dlclose(fx.h);
	if (fx.hcxx)
		dlclose(fx.hcxx);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx.dir);
	if (fx.dir[0] && run(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", fx.dir);
}

static bool write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "we");
	bool ok = f && fwrite(text, 1, len, f) == len;

	if (f && fclose(f))
		ok = false;
	return ok;
}

static bool build(const char *cmd)
{
	int st = run(cmd);

	if (st != 0)
		snprintf(fx.why, sizeof(fx.why), "'%s' failed (status %d)", cmd, st);
	return st == 0;
}

static bool fixture(void)
{
	char src[128], cmd[512];

	if (fx.tried)
		return fx.ok;
	fx.tried = true;
	snprintf(fx.dir, sizeof(fx.dir), "/tmp/perfev-symbols-XXXXXX");
	if (!mkdtemp(fx.dir)) {
		snprintf(fx.why, sizeof(fx.why), "cannot create a directory: %s", strerror(errno));
		fx.dir[0] = '\0';
		return false;
	}
	atexit(remove_fixture);
	snprintf(src, sizeof(src), "%s/lib.c", fx.dir);
	if (!write_file(src, lib_src, sizeof(lib_src) - 1)) {
		snprintf(fx.why, sizeof(fx.why), "cannot write %s", src);
		return false;
	}
	if (run("cc --version >/dev/null 2>&1") != 0) {
		snprintf(fx.why, sizeof(fx.why), "no C compiler (cc) to build the libraries");
		return false;
	}
	snprintf(fx.lib_a, sizeof(fx.lib_a), "%s/libsyms-a.so", fx.dir);
	snprintf(fx.lib_b, sizeof(fx.lib_b), "%s/libsyms-b.so", fx.dir);
	snprintf(cmd, sizeof(cmd), "cc -O1 -fPIC -shared -Wl,--build-id=0x" ID_A " -o %s %s",
		 fx.lib_a, src);
	if (!build(cmd))
		return false;
	snprintf(cmd, sizeof(cmd), "cc -O1 -fPIC -shared -Wl,--build-id=0x" ID_B " -o %s %s",
		 fx.lib_b, src);
	if (!build(cmd))
		return false;
	fx.h = dlopen(fx.lib_a, RTLD_NOW | RTLD_LOCAL);
	if (!fx.h) {
		snprintf(fx.why, sizeof(fx.why), "dlopen %s: %s", fx.lib_a, dlerror());
		return false;
	}
	snprintf(src, sizeof(src), "%s/lib.cc", fx.dir);
	snprintf(fx.lib_cxx, sizeof(fx.lib_cxx), "%s/libsyms-cxx.so", fx.dir);
	snprintf(cmd, sizeof(cmd), "g++ -O1 -fPIC -shared -o %s %s", fx.lib_cxx, src);
	if (run("g++ --version >/dev/null 2>&1") == 0 &&
	    write_file(src, cxx_src, sizeof(cxx_src) - 1) && build(cmd))
		fx.hcxx = dlopen(fx.lib_cxx, RTLD_NOW | RTLD_LOCAL);
	fx.cxx = fx.hcxx != NULL;
	fx.ok = true;
	return true;
}

#define REQUIRE_FIXTURE()                                                                          \
	do {                                                                                       \
		if (!fixture()) {                                                                  \
			harness_skip("cc", "cannot build the test libraries: %s", fx.why);         \
			return;                                                                    \
		}                                                                                  \
	} while (0)

/*
 * Look up symbol @sym of a library opened here, @delta bytes in: the name
 * the symbolizer gives, its offset from the symbol's start and its size.
 */
static int lookup(struct perfev_symbolizer *sz, void *h, const char *sym, uint64_t delta,
		  struct perfev_sym *out)
{
	void *p = dlsym(h, sym);
	uint64_t addr = (uint64_t)(uintptr_t)p + delta, start, pgoff;
	char path[4096];

	if (!p || !mapping_of(addr, &start, &pgoff, path, sizeof(path)))
		return -EFAULT;
	return perfev_symbolize_user(sz, path, start, pgoff, addr, out);
}

/*
 * --symfs: this program's file is found under the directory (a link to
 * it at DIR/PATH), and only there; the kernel has no symbols unless a
 * kallsyms file is named.
 */
TEST(symfs)
{
	uint64_t addr = (uint64_t)(uintptr_t)&perfev_test_marker_function + 4;
	struct perfev_symbolizer_opts o = {.sz = sizeof(o)};
	char path[4096], link[4200], cmd[12800];
	char dir[] = "/tmp/perfev-symfs-XXXXXX", empty[] = "/tmp/perfev-symfs-XXXXXX";
	uint64_t start, pgoff;
	struct perfev_symbolizer *sz;
	const char *mod;
	struct perfev_sym sym;

	CHECK(mapping_of(addr, &start, &pgoff, path, sizeof(path)) && path[0] == '/');
	CHECK(mkdtemp(dir) && mkdtemp(empty));
	CHECK(strlen(path) < 4000);
	snprintf(link, sizeof(link), "%s%.4000s", dir, path);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\" && ln -s '%.4000s' '%s'", link,
		 path, link);
	CHECK_INT(system(cmd), 0);
	o.symfs = dir;
	o.buildid_dir = empty;
	CHECK_INT(perfev_symbolizer_new(&o, &sz), 0);
	CHECK_INT(perfev_symbolize_user(sz, path, start, pgoff, addr, &sym), 0);
	CHECK_STR(sym.name, "perfev_test_marker_function");
	CHECK(perfev_symbolize_kernel(sz, 0xffffffff81000000ULL, &sym, &mod) < 0);
	perfev_symbolizer_free(sz);
	/* Not under the directory: not found, though the file is where the path says. */
	o.symfs = empty;
	CHECK_INT(perfev_symbolizer_new(&o, &sz), 0);
	CHECK_INT(perfev_symbolize_user(sz, path, start, pgoff, addr, &sym), -ENODATA);
	perfev_symbolizer_free(sz);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", dir, empty);
	CHECK_INT(system(cmd), 0);
}

/* perf's choice among symbols at one address, sizes of symbols without one, labels, objects. */
TEST(user_symbols_chosen_as_perf)
{
	static const struct {
		const char *lookup, *want;
		uint64_t delta, size; /* size 0: not checked */
	} cases[] = {
	    {"fa_global", "fa_global", 1, 0},		/* not weak beats weak */
	    {"fa_weak_longer_name", "fa_global", 0, 0}, /* the same address */
	    {"fb", "fb", 1, 0},				/* global beats local */
	    {"fc_x", "fc_x", 1, 0},			/* fewer leading underscores */
	    {"fd", "fd_longer", 1, 0},			/* then the longer name */
	    {"fe", "fe", 15, 16},			/* a size beats none */
	    {"fz", "fz", 20, 32},			/* no size: up to the next symbol */
	    {"fz_next", "fz_next", 7, 8},
	    {"flabel", "flabel", 4, 0}, /* a label of .text */
	    {"data_obj", "data_obj", 2, 0},
	};
	struct perfev_symbolizer *sz;
	struct perfev_sym sym;
	size_t i;

	REQUIRE_FIXTURE();
	CHECK_INT(perfev_symbolizer_new(NULL, &sz), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int err = lookup(sz, fx.h, cases[i].lookup, cases[i].delta, &sym);

		EXPECT(err == 0, "%s+%llu: error %d", cases[i].lookup,
		       (unsigned long long)cases[i].delta, err);
		if (err)
			continue;
		EXPECT(!strcmp(sym.name, cases[i].want), "%s+%llu: '%s', want '%s'",
		       cases[i].lookup, (unsigned long long)cases[i].delta, sym.name,
		       cases[i].want);
		EXPECT(sym.addr - sym.start == cases[i].delta, "%s: %llu into the symbol",
		       cases[i].lookup, (unsigned long long)(sym.addr - sym.start));
		EXPECT(!cases[i].size || sym.size == cases[i].size, "%s: size %llu, want %llu",
		       cases[i].lookup, (unsigned long long)sym.size,
		       (unsigned long long)cases[i].size);
	}
	/* Just past a sized symbol: the label after it. */
	CHECK_INT(lookup(sz, fx.h, "fz_next", 8, &sym), 0);
	CHECK_STR(sym.name, "flabel");
	perfev_symbolizer_free(sz);
}

/* The library's PLT: its address in the file (.plt.sec, or .plt past its header) and entry size. */
static bool plt_of(const char *path, uint64_t *addr, uint64_t *entsize)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	bool found = false, sec = false;

	if (fd < 0 || elf_version(EV_CURRENT) == EV_NONE)
		return false;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && !elf_getshdrstrndx(elf, &shstrndx)) {
		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			const char *name;

			if (!gelf_getshdr(scn, &sh) ||
			    !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
				continue;
			if (!strcmp(name, ".plt.sec") || (!sec && !strcmp(name, ".plt"))) {
				sec = !strcmp(name, ".plt.sec");
				*entsize = sh.sh_entsize ? sh.sh_entsize : 16;
				*addr = sh.sh_addr + (sec ? 0 : *entsize);
				found = true;
			}
		}
	}
	elf_end(elf);
	close(fd);
	return found;
}

/* A call out of the library goes through its PLT entry, named as perf names it. */
TEST(user_symbols_plt)
{
	struct perfev_symbolizer *sz;
	struct perfev_sym sym;
	uint64_t plt = 0, entsize = 0, base;

	REQUIRE_FIXTURE();
	CHECK(plt_of(fx.lib_a, &plt, &entsize));
	CHECK_INT(perfev_symbolizer_new(NULL, &sz), 0);
	/* The load base: a symbol's run-time address less its address in the file. */
	CHECK_INT(lookup(sz, fx.h, "calls_out", 0, &sym), 0);
	CHECK_STR(sym.name, "calls_out");
	base = (uint64_t)(uintptr_t)dlsym(fx.h, "calls_out") - sym.start;
	{
		uint64_t addr = base + plt + 4, start, pgoff;
		char path[4096];

		CHECK(mapping_of(addr, &start, &pgoff, path, sizeof(path)));
		CHECK_INT(perfev_symbolize_user(sz, path, start, pgoff, addr, &sym), 0);
		CHECK_STR(sym.name, "getpid@plt");
		CHECK_U64(sym.start, plt);
		CHECK_U64(sym.size, entsize);
	}
	perfev_symbolizer_free(sz);
}

TEST(user_symbols_cplusplus_demangled)
{
	struct perfev_symbolizer_opts o = {.sz = sizeof(o), .demangle_params = true};
	struct perfev_symbolizer *sz;
	struct perfev_sym sym;

	REQUIRE_FIXTURE();
	if (!fx.cxx) {
		harness_skip("g++", "no C++ compiler (g++) to build the C++ library: %s", fx.why);
		return;
	}
	/* As perf report: without parameters. */
	CHECK_INT(perfev_symbolizer_new(NULL, &sz), 0);
	CHECK_INT(lookup(sz, fx.hcxx, "_ZN9perfev_ns5twiceEi", 1, &sym), 0);
	CHECK_STR(sym.name, "perfev_ns::twice");
	CHECK_INT(lookup(sz, fx.hcxx, "_ZN9perfev_ns6thriceIlEET_S1_", 1, &sym), 0);
	CHECK_STR(sym.name, "perfev_ns::thrice<long>");
	perfev_symbolizer_free(sz);
	/* As perf report -v. */
	CHECK_INT(perfev_symbolizer_new(&o, &sz), 0);
	CHECK_INT(lookup(sz, fx.hcxx, "_ZN9perfev_ns5twiceEi", 1, &sym), 0);
	CHECK_STR(sym.name, "perfev_ns::twice(int)");
	CHECK_INT(lookup(sz, fx.hcxx, "_ZN9perfev_ns6thriceIlEET_S1_", 1, &sym), 0);
	CHECK_STR(sym.name, "long perfev_ns::thrice<long>(long)");
	perfev_symbolizer_free(sz);
	o.demangle_params = false;
	o.no_demangle = true;
	CHECK_INT(perfev_symbolizer_new(&o, &sz), 0);
	CHECK_INT(lookup(sz, fx.hcxx, "_ZN9perfev_ns5twiceEi", 1, &sym), 0);
	CHECK_STR(sym.name, "_ZN9perfev_ns5twiceEi");
	perfev_symbolizer_free(sz);
}

TEST(demangle_cplusplus_and_rust)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
	    {"_ZN9perfev_ns5twiceEi", "perfev_ns::twice(int)"},
	    {"_ZNSt6vectorIiSaIiEE9push_backERKi", "std::vector<int, std::allocator<int> "
						   ">::push_back(int const&)"},
	    /* Rust, legacy: the hash is dropped. */
	    {"_ZN4core3fmt5write17h0123456789abcdefE", "core::fmt::write"},
	    {"_ZN3std2rt10lang_start28_$u7b$$u7b$closure$u7d$$u7d$17h4c1d2d2fda2a9a38E",
	     "std::rt::lang_start::{{closure}}"},
	    /* Rust, v0. */
	    {"_RNvCs15kBYyAo9fc_7mycrate7example", "mycrate::example"},
	    {"_RNvNtCs1234_7mycrate3foo3bar", "mycrate::foo::bar"},
	};
	char buf[256];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = perfev_demangle(cases[i].in, PERFEV_DEMANGLE_PARAMS, buf, sizeof(buf));

		EXPECT(n == (int)strlen(cases[i].want) && !strcmp(buf, cases[i].want),
		       "%s: %d '%s', want '%s'", cases[i].in, n, n >= 0 ? buf : "", cases[i].want);
	}
	/* Without parameters, as perf report shows names unless -v. */
	CHECK_INT(perfev_demangle("_ZN9perfev_ns6thriceIlEET_S1_", 0, buf, sizeof(buf)), 23);
	CHECK_STR(buf, "perfev_ns::thrice<long>");
	CHECK_INT(perfev_demangle("_RNvCs15kBYyAo9fc_7mycrate7example", 0, buf, sizeof(buf)), 16);
	CHECK_STR(buf, "mycrate::example");
	/* Cut short, as snprintf. */
	CHECK_INT(perfev_demangle("_ZN4core3fmt5write17h0123456789abcdefE", 0, buf, 5), 16);
	CHECK_STR(buf, "core");
	CHECK_INT(perfev_demangle("_ZN4core3fmt5write17h0123456789abcdefE", 0, NULL, 0), 16);
	CHECK_INT(perfev_demangle("main", 0, buf, sizeof(buf)), -EBADMSG);
	CHECK_INT(perfev_demangle("_Z", 0, buf, sizeof(buf)), -EBADMSG);
	CHECK_INT(perfev_demangle(NULL, 0, buf, sizeof(buf)), -EINVAL);
	CHECK_INT(perfev_demangle("_Z1fv", 0, NULL, 4), -EINVAL);
	CHECK_INT(perfev_demangle("_Z1fv", 2, buf, sizeof(buf)), -EINVAL);
}

static size_t unhex(const char *hex, uint8_t *out)
{
	size_t n = 0;
	unsigned int b;

	while (hex[2 * n] && sscanf(hex + 2 * n, "%2x", &b) == 1) {
		out[n] = (uint8_t)b;
		n++;
	}
	return n;
}

/* A rebuilt library is not read for the symbols of the one recorded; a cached copy is. */
TEST(build_id_stale_and_cached)
{
	struct perfev_symbolizer_opts o = {.sz = sizeof(o)};
	struct perfev_symbolizer *sz;
	struct perfev_sym sym;
	uint8_t a[24] = {0}, b[20], c[20];
	char cache[128], dir[256], cmd[1024];

	REQUIRE_FIXTURE();
	CHECK_INT(unhex(ID_A, a), 20);
	CHECK_INT(unhex(ID_B, b), 20);
	CHECK_INT(unhex(ID_C, c), 20);
	snprintf(cache, sizeof(cache), "%s/cache", fx.dir);
	o.buildid_dir = cache;
	CHECK_INT(perfev_symbolizer_new(&o, &sz), 0);
	/* The file's own id, padded to 24 bytes as records do. */
	CHECK_INT(perfev_symbolizer_set_build_id(sz, fx.lib_a, a, sizeof(a)), 0);
	CHECK_INT(lookup(sz, fx.h, "fd", 1, &sym), 0);
	CHECK_STR(sym.name, "fd_longer");
	/* Told after the first lookup: another build, not on disk. */
	CHECK_INT(perfev_symbolizer_set_build_id(sz, fx.lib_a, b, sizeof(b)), 0);
	CHECK_INT(lookup(sz, fx.h, "fd", 1, &sym), -ESTALE);
	CHECK_INT(perfev_symbolizer_set_build_id(sz, fx.lib_a, a, 20), 0);
	CHECK_INT(lookup(sz, fx.h, "fd", 1, &sym), 0);
	CHECK_STR(sym.name, "fd_longer");
	CHECK_INT(perfev_symbolizer_set_build_id(sz, fx.lib_a, a, 0), -EINVAL);
	CHECK_INT(perfev_symbolizer_set_build_id(sz, NULL, a, 20), -EINVAL);
	perfev_symbolizer_free(sz);

	/* Build B in perf's build-id cache: .build-id/a1/a2...b4/elf. */
	snprintf(dir, sizeof(dir), "%s/.build-id/%.2s/%s", cache, ID_B, ID_B + 2);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s' && cp '%s' '%s/elf'", dir, fx.lib_b, dir);
	CHECK_INT(run(cmd), 0);
	CHECK_INT(perfev_symbolizer_new(&o, &sz), 0);
	CHECK_INT(perfev_symbolizer_set_build_id(sz, fx.lib_a, b, sizeof(b)), 0);
	CHECK_INT(lookup(sz, fx.h, "fc_x", 2, &sym), 0);
	CHECK_STR(sym.name, "fc_x");
	CHECK_U64(sym.addr - sym.start, 2);
	/* A third build, in no cache. */
	CHECK_INT(perfev_symbolizer_set_build_id(sz, fx.lib_a, c, sizeof(c)), 0);
	CHECK_INT(lookup(sz, fx.h, "fc_x", 2, &sym), -ESTALE);
	/* A missing file stays missing. */
	CHECK_INT(perfev_symbolizer_set_build_id(sz, "/nonexistent/lib.so", c, sizeof(c)), 0);
	CHECK_INT(perfev_symbolize_user(sz, "/nonexistent/lib.so", 0x1000, 0, 0x1000, &sym),
		  -ENODATA);
	perfev_symbolizer_free(sz);
}

TEST(vdso_symbols)
{
	void *h = dlopen("linux-vdso.so.1", RTLD_NOW | RTLD_NOLOAD);
	void *fn = h ? dlsym(h, "__vdso_clock_gettime") : NULL;
	uint64_t addr = (uint64_t)(uintptr_t)fn, start, pgoff;
	struct perfev_symbolizer *sz;
	struct perfev_sym sym;
	char path[4096];

	if (!fn) {
		harness_skip("vdso", "this process has no vDSO with __vdso_clock_gettime");
		if (h)
			dlclose(h);
		return;
	}
	CHECK(mapping_of(addr, &start, &pgoff, path, sizeof(path)));
	CHECK_STR(path, "[vdso]");
	CHECK_INT(perfev_symbolizer_new(NULL, &sz), 0);
	/* __vdso_clock_gettime is global; clock_gettime, at the same address, weak. */
	CHECK_INT(perfev_symbolize_vdso(sz, start, pgoff, addr + 1, &sym), 0);
	CHECK_STR(sym.name, "__vdso_clock_gettime");
	CHECK_U64(sym.addr - sym.start, 1);
	CHECK_INT(perfev_symbolize_user(sz, "[vdso]", start, pgoff, addr, &sym), 0);
	CHECK_STR(sym.name, "__vdso_clock_gettime");
	perfev_symbolizer_free(sz);
	dlclose(h);
}

static const char jitmap[] = "1000 100 jit_one\n"
			     "0x2000 0x10 LazyCompile:*foo /srv/app.js:12\r\n"
			     "not a line\n"
			     "3000 0 zero_sized\n"
			     "3100 10 after_zero\n"
			     "4000 10\n"
			     "zz00 10 bad_hex\n"
			     "11112222333344445 10 too_long\n"
			     "1000 80 jit_one_again\n"
			     "5000 10 no_newline";

TEST(jitmap_parse_and_find)
{
	struct perfev__jitmap *m;
	struct perfev_sym s;

	CHECK_INT(perfev__jitmap_parse(jitmap, sizeof(jitmap) - 1, &m), 0);
	/* jit_one replaced by the later line at its address. */
	CHECK_INT(perfev__jitmap_count(m), 5);
	CHECK_INT(perfev__jitmap_find(m, 0x1010, &s), 0);
	CHECK_STR(s.name, "jit_one_again");
	CHECK_U64(s.start, 0x1000);
	CHECK_U64(s.size, 0x80);
	CHECK_U64(s.addr, 0x1010);
	CHECK_INT(perfev__jitmap_find(m, 0x1090, &s), -ENOENT);
	CHECK_INT(perfev__jitmap_find(m, 0x200f, &s), 0);
	CHECK_STR(s.name, "LazyCompile:*foo /srv/app.js:12");
	CHECK_INT(perfev__jitmap_find(m, 0x2010, &s), -ENOENT);
	CHECK_INT(perfev__jitmap_find(m, 0x30ff, &s), 0);
	CHECK_STR(s.name, "zero_sized");
	CHECK_U64(s.size, 0x100);
	CHECK_INT(perfev__jitmap_find(m, 0x5008, &s), 0);
	CHECK_STR(s.name, "no_newline");
	CHECK_INT(perfev__jitmap_find(m, 0xfff, &s), -ENOENT);
	perfev__jitmap_free(m);
	CHECK_INT(perfev__jitmap_parse("1000 10 a\0b\n", 12, &m), -EBADMSG);
	CHECK_INT(perfev__jitmap_parse("", 0, &m), 0);
	CHECK_INT(perfev__jitmap_count(m), 0);
	perfev__jitmap_free(m);
	CHECK_INT(perfev__jitmap_parse(NULL, 1, &m), -EINVAL);
}

TEST(jit_symbols_of_a_process)
{
	struct perfev_symbolizer_opts o = {.sz = sizeof(o)};
	struct perfev_symbolizer *sz;
	struct perfev_sym s;
	char dir[] = "/tmp/perfev-jit-XXXXXX", path[64];

	CHECK(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/perf-4242.map", dir);
	CHECK(write_file(path, jitmap, sizeof(jitmap) - 1));
	o.jitmap_dir = dir;
	CHECK_INT(perfev_symbolizer_new(&o, &sz), 0);
	CHECK_INT(perfev_symbolize_jit(sz, 4242, 0x3105, &s), 0);
	CHECK_STR(s.name, "after_zero");
	CHECK_U64(s.addr, 0x3105);
	/* Read once: gone from disk, still known. */
	CHECK_INT(unlink(path), 0);
	CHECK_INT(perfev_symbolize_jit(sz, 4242, 0x1000, &s), 0);
	CHECK_STR(s.name, "jit_one_again");
	CHECK_INT(perfev_symbolize_jit(sz, 4242, 0x9000, &s), -ENOENT);
	CHECK_INT(perfev_symbolize_jit(sz, 4243, 0x1000, &s), -ENODATA);
	CHECK_INT(perfev_symbolize_jit(sz, -1, 0x1000, &s), -EINVAL);
	perfev_symbolizer_free(sz);
	CHECK_INT(rmdir(dir), 0);
}

/* Anyone may write to /tmp: a map that is a FIFO (it would block) or a link is not read. */
TEST(jit_maps_not_trusted)
{
	struct perfev_symbolizer_opts o = {.sz = sizeof(o)};
	struct perfev_symbolizer *sz;
	struct perfev_sym s;
	char dir[] = "/tmp/perfev-jit-XXXXXX", path[3][80], good[80];
	int i;

	CHECK(mkdtemp(dir));
	for (i = 0; i < 3; i++)
		snprintf(path[i], sizeof(path[i]), "%s/perf-%d.map", dir, 4250 + i);
	snprintf(good, sizeof(good), "%s/good", dir);
	CHECK(write_file(good, jitmap, sizeof(jitmap) - 1));
	CHECK_INT(mkfifo(path[0], 0600), 0);
	CHECK_INT(symlink("/dev/zero", path[1]), 0);
	CHECK_INT(symlink(good, path[2]), 0); /* even to a good map */
	o.jitmap_dir = dir;
	CHECK_INT(perfev_symbolizer_new(&o, &sz), 0);
	CHECK_INT(perfev_symbolize_jit(sz, 4250, 0x1000, &s), -EPERM);
	CHECK_INT(perfev_symbolize_jit(sz, 4251, 0x1000, &s), -EPERM);
	CHECK_INT(perfev_symbolize_jit(sz, 4252, 0x1000, &s), -EPERM);
	perfev_symbolizer_free(sz);
	for (i = 0; i < 3; i++)
		CHECK_INT(unlink(path[i]), 0);
	CHECK_INT(unlink(good), 0);
	CHECK_INT(rmdir(dir), 0);
}

/* Another user's map is read only for a process of that user (its /proc directory here). */
TEST(jit_maps_of_another_user)
{
	struct perfev_symbolizer_opts o = {.sz = sizeof(o)};
	struct perfev_symbolizer *sz;
	struct perfev_sym s;
	char dir[] = "/tmp/perfev-jit-XXXXXX", path[80], proc[80];
	int err;

	CHECK(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/perf-4253.map", dir);
	snprintf(proc, sizeof(proc), "%s/4253", dir);
	CHECK(write_file(path, jitmap, sizeof(jitmap) - 1));
	CHECK_INT(mkdir(proc, 0755), 0);
	o.jitmap_dir = dir;
	o.procfs_root = dir;
	err = chown(path, 65534, 65534) ? -errno : 0;
	if (!err) {
		CHECK_INT(perfev_symbolizer_new(&o, &sz), 0);
		CHECK_INT(perfev_symbolize_jit(sz, 4253, 0x1000, &s), -EPERM);
		perfev_symbolizer_free(sz);
		CHECK_INT(chown(proc, 65534, 65534), 0);
		CHECK_INT(perfev_symbolizer_new(&o, &sz), 0);
		CHECK_INT(perfev_symbolize_jit(sz, 4253, 0x1000, &s), 0);
		CHECK_STR(s.name, "jit_one_again");
		perfev_symbolizer_free(sz);
	}
	CHECK_INT(unlink(path), 0);
	CHECK_INT(rmdir(proc), 0);
	CHECK_INT(rmdir(dir), 0);
	SKIP_ERRNO("chown", err, "giving a file to another user");
}

/* Kernel symbols through a procfs fixture, with kallsyms kept between symbolizers. */
static int ksym_via(const char *root, const char *cache, uint64_t addr, char *name, size_t len)
{
	struct perfev_symbolizer_opts o = {.sz = sizeof(o), .procfs_root = root};
	struct perfev_symbolizer *sz;
	struct perfev_sym s;
	int err;

	o.cache_dir = cache;
	err = perfev_symbolizer_new(&o, &sz);
	if (err)
		return err;
	err = perfev_symbolize_kernel(sz, addr, &s, NULL);
	if (!err)
		snprintf(name, len, "%s", s.name);
	perfev_symbolizer_free(sz);
	return err;
}

static const char kallsyms_one[] = "ffffffff81000000 T first_name\nffffffff81001000 T next\n";

/* A procfs fixture in @dir: a boot id and kallsyms_one. */
static bool kallsyms_fixture(const char *dir)
{
	static const char *const sub[] = {"/sys", "/sys/kernel", "/sys/kernel/random"};
	char path[512];
	size_t i;

	for (i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", dir, sub[i]);
		if (mkdir(path, 0700))
			return false;
	}
	snprintf(path, sizeof(path), "%s/sys/kernel/random/boot_id", dir);
	if (!write_file(path, "boot-a\n", 7))
		return false;
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	return write_file(path, kallsyms_one, sizeof(kallsyms_one) - 1);
}

TEST(kallsyms_kept_between_runs)
{
	char dir[] = "/tmp/perfev-kcache-XXXXXX", path[512], cache[256], name[64];
	static const char two[] = "ffffffff81000000 T second_name\nffffffff81001000 T next\n";
	static const char zero[] = "0000000000000000 T hidden\n";

	CHECK(mkdtemp(dir));
	CHECK(kallsyms_fixture(dir));
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	/* Under a directory that does not exist yet: made with its parents. */
	snprintf(cache, sizeof(cache), "%s/cache/perfev", dir);
	CHECK_INT(ksym_via(dir, cache, 0xffffffff81000010ULL, name, sizeof(name)), 0);
	CHECK_STR(name, "first_name");
	/* The same boot, no modules file (a kernel without modules): the copy is read. */
	CHECK(write_file(path, two, sizeof(two) - 1));
	CHECK_INT(ksym_via(dir, cache, 0xffffffff81000010ULL, name, sizeof(name)), 0);
	CHECK_STR(name, "first_name");
	/* Without the cache, the file itself. */
	CHECK_INT(ksym_via(dir, NULL, 0xffffffff81000010ULL, name, sizeof(name)), 0);
	CHECK_STR(name, "second_name");
	/* Modules loaded: read again (and the old copy removed). */
	snprintf(path, sizeof(path), "%s/modules", dir);
	CHECK(write_file(path, "mymod 16384 0 - Live 0xffffffffc0000000\n", 40));
	CHECK_INT(ksym_via(dir, cache, 0xffffffff81000010ULL, name, sizeof(name)), 0);
	CHECK_STR(name, "second_name");
	/* Another boot with hidden addresses: nothing resolves, and no copy of them is kept. */
	snprintf(path, sizeof(path), "%s/sys/kernel/random/boot_id", dir);
	CHECK(write_file(path, "boot-b\n", 7));
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	CHECK(write_file(path, zero, sizeof(zero) - 1));
	CHECK_INT(ksym_via(dir, cache, 0xffffffff81000010ULL, name, sizeof(name)), -ENOENT);
	snprintf(path, sizeof(path), "ls %s | wc -l | grep -qx 1", cache);
	CHECK_INT(system(path), 0);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	CHECK_INT(system(path), 0);
}

/* The path of the one kept table under @cache, or "" */
static void kept_table(const char *cache, char *out, size_t len)
{
	char cmd[512];
	FILE *f;

	out[0] = '\0';
	snprintf(cmd, sizeof(cmd), "ls %s/kallsyms-*.tab 2>/dev/null", cache);
	f = popen(cmd, "r");
	if (!f)
		return;
	if (fgets(out, (int)len, f))
		out[strcspn(out, "\n")] = '\0';
	pclose(f);
}

/* A kept table cut short is read no more; one with offsets gone wild finds nothing. */
TEST(kallsyms_kept_table_damaged)
{
	char dir[] = "/tmp/perfev-kcache-XXXXXX", path[512], cache[256], name[64], tab[512];
	static const char two[] = "ffffffff81000000 T second_name\nffffffff81001000 T next\n";
	unsigned char *buf;
	size_t i;
	ssize_t n;
	int fd;

	CHECK(mkdtemp(dir));
	CHECK(kallsyms_fixture(dir));
	snprintf(cache, sizeof(cache), "%s/cache", dir);
	CHECK_INT(ksym_via(dir, cache, 0xffffffff81000010ULL, name, sizeof(name)), 0);
	CHECK_STR(name, "first_name");
	kept_table(cache, tab, sizeof(tab));
	CHECK(tab[0]);
	/* Cut short: the text is read again (and kept anew). */
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	CHECK(write_file(path, two, sizeof(two) - 1));
	CHECK_INT(truncate(tab, 40), 0);
	CHECK_INT(ksym_via(dir, cache, 0xffffffff81000010ULL, name, sizeof(name)), 0);
	CHECK_STR(name, "second_name");
	/* Every byte of the entries set: no name lies there, nothing is read past the map. */
	buf = calloc(1, 4096);
	CHECK(buf);
	fd = open(tab, O_RDWR);
	CHECK(fd >= 0);
	n = read(fd, buf, 4096);
	CHECK(n > 32 + 2 * 24);
	for (i = 32; i < 32 + 2 * 24; i++)
		if ((i - 32) % 24 >= 8)
			buf[i] = 0xee;
	CHECK_INT(pwrite(fd, buf, (size_t)n, 0), n);
	close(fd);
	free(buf);
	CHECK_INT(ksym_via(dir, cache, 0xffffffff81000010ULL, name, sizeof(name)), -ENOENT);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	CHECK_INT(system(path), 0);
}

static char logged[512];

static void keep_log(enum perfev_log_level level, const char *msg, void *ctx)
{
	(void)level;
	(void)ctx;
	snprintf(logged, sizeof(logged), "%s", msg);
}

/*
 * Kernel symbols of the fixture in @dir through @cache (under @dir),
 * which is refused: the symbols come from the file, nothing is made
 * under @dir/@absent, and the log says @why.
 */
static void cache_refused(const char *dir, const char *cache, const char *absent, const char *why)
{
	char name[64], path[512];
	struct stat st;

	logged[0] = '\0';
	perfev_set_log(keep_log, PERFEV_LOG_WARN, NULL);
	CHECK_INT(ksym_via(dir, cache, 0xffffffff81000010ULL, name, sizeof(name)), 0);
	perfev_set_log(NULL, PERFEV_LOG_ERROR, NULL);
	CHECK_STR(name, "first_name");
	snprintf(path, sizeof(path), "%s/%s", dir, absent);
	CHECK(lstat(path, &st) && errno == ENOENT);
	CHECK_CONTAINS(logged, why);
}

/* The cache's directories are checked from the root down before anything is made in them. */
TEST(cache_dir_checked_first)
{
	char dir[] = "/tmp/perfev-kcache-XXXXXX", path[512], cache[512];

	CHECK(mkdtemp(dir));
	CHECK(kallsyms_fixture(dir));
	/* $XDG_CACHE_HOME/perfev a link: refused, not followed. */
	snprintf(path, sizeof(path), "%s/xdg", dir);
	CHECK_INT(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/target", dir);
	CHECK_INT(mkdir(path, 0700), 0);
	snprintf(cache, sizeof(cache), "%s/xdg/perfev", dir);
	CHECK_INT(symlink(path, cache), 0);
	cache_refused(dir, cache, "target/kallsyms-boot-a", "it is a symbolic link");
	/* A directory others may write to: nothing is made in it. */
	snprintf(path, sizeof(path), "%s/open", dir);
	CHECK_INT(mkdir(path, 0700), 0);
	CHECK_INT(chmod(path, 0777), 0);
	snprintf(cache, sizeof(cache), "%s/open/sub/perfev", dir);
	cache_refused(dir, cache, "open/sub", "others may write to it");
	/* Its sticky bit (as /tmp's) makes it safe again. */
	CHECK_INT(chmod(path, 01777), 0);
	CHECK_INT(ksym_via(dir, cache, 0xffffffff81000010ULL, path, sizeof(path)), 0);
	snprintf(path, sizeof(path), "%s/open/sub/perfev", dir);
	CHECK_INT(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	CHECK_INT(system(path), 0);
}

/* A link on the way that another user made is not followed. */
TEST(cache_dir_foreign_link)
{
	char dir[] = "/tmp/perfev-kcache-XXXXXX", path[512], link[256], cache[512];
	int err;

	CHECK(mkdtemp(dir));
	CHECK(kallsyms_fixture(dir));
	snprintf(path, sizeof(path), "%s/target", dir);
	CHECK_INT(mkdir(path, 0700), 0);
	snprintf(link, sizeof(link), "%s/link", dir);
	CHECK_INT(symlink(path, link), 0);
	err = lchown(link, 65534, 65534) ? -errno : 0;
	if (!err) {
		snprintf(cache, sizeof(cache), "%s/perfev", link);
		cache_refused(dir, cache, "target/perfev", "is a link another user made");
	}
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	CHECK_INT(system(path), 0);
	SKIP_ERRNO("lchown", err, "giving a link to another user");
}

/* A kernel/notes file holding @id (20 bytes) as its GNU build-id note, after another note. */
static bool write_notes(const char *path, const unsigned char *id)
{
	unsigned char b[64] = {0};
	uint32_t h[3];

	h[0] = 6; /* "Linux" and its NUL */
	h[1] = 4;
	h[2] = 0x100;
	memcpy(b, h, 12);
	memcpy(b + 12, "Linux", 6);
	/* description at 12 + 8 */
	h[0] = 4;
	h[1] = 20;
	h[2] = 3; /* NT_GNU_BUILD_ID */
	memcpy(b + 24, h, 12);
	memcpy(b + 36, "GNU", 4);
	memcpy(b + 40, id, 20);
	return write_file(path, (const char *)b, 60);
}

TEST(kernel_build_id)
{
	char dir[] = "/tmp/perfev-notes-XXXXXX", path[512];
	unsigned char id[20], got[32];
	int i;

	for (i = 0; i < 20; i++)
		id[i] = (unsigned char)(0xa0 + i);
	CHECK(mkdtemp(dir));
	CHECK_INT(perfev_kernel_build_id(dir, got, sizeof(got)), -ENOENT);
	snprintf(path, sizeof(path), "%s/kernel", dir);
	CHECK_INT(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/kernel/notes", dir);
	CHECK(write_notes(path, id));
	CHECK_INT(perfev_kernel_build_id(dir, got, sizeof(got)), 20);
	CHECK(!memcmp(got, id, 20));
	CHECK_INT(perfev_kernel_build_id(dir, got, 19), -ERANGE);
	CHECK_INT(perfev_kernel_build_id(dir, NULL, 20), -EINVAL);
	/* Notes cut short, and notes with no build id. */
	CHECK(write_file(path, "\4\0\0\0\24\0\0\0\3\0\0\0GNU\0abc", 19));
	CHECK_INT(perfev_kernel_build_id(dir, got, sizeof(got)), -ENOENT);
	CHECK(write_file(path, "\4\0\0\0\0\0\0\0\1\0\0\0GNU\0", 16));
	CHECK_INT(perfev_kernel_build_id(dir, got, sizeof(got)), -ENOENT);
	/* This machine's, when it has one, is 20 bytes or more. */
	i = perfev_kernel_build_id(NULL, got, sizeof(got));
	CHECK(i >= 20 || i == -ENOENT || i == -EACCES);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	CHECK_INT(system(path), 0);
}

/* The kernel symbol of @addr through a symbolizer of @o, its kernel told @id and @ref at @at. */
static int ksym_of(struct perfev_symbolizer_opts *o, const unsigned char *id, const char *ref,
		   uint64_t at, uint64_t addr, char *name, size_t len, uint64_t *start)
{
	struct perfev_symbolizer *sz;
	struct perfev_sym s;
	const char *mod;
	int err;

	err = perfev_symbolizer_new(o, &sz);
	if (err)
		return err;
	if (id && perfev_symbolizer_set_build_id(sz, "[kernel.kallsyms]", id, 20))
		err = -EIO;
	if (!err && ref && perfev_symbolizer_set_kernel_ref(sz, ref, at))
		err = -EIO;
	if (!err)
		err = perfev_symbolize_kernel(sz, addr, &s, &mod);
	if (!err) {
		snprintf(name, len, "%s%s%s", s.name, mod ? " " : "", mod ? mod : "");
		*start = s.start;
	}
	perfev_symbolizer_free(sz);
	return err;
}

/*
 * The recording's kernel: this machine's kallsyms only when its build id
 * is the running one's; else perf's build-id cache or nothing; a kallsyms
 * file named by the caller whatever the ids; symbols moved to where the
 * recording saw _text, modules' as they are.
 */
TEST(kernel_of_the_recording)
{
	char dir[] = "/tmp/perfev-kernel-XXXXXX", path[600], sys[512], bid[512], name[128];
	static const char here[] = "ffffffff81000000 T _stext\nffffffff81000000 T _text\n"
				   "ffffffff81001000 T here_fn\nffffffff81002000 T here_end\n"
				   "ffffffffc0000000 t mod_fn\t[mymod]\n";
	/* The same kernel at another boot: 16 MiB higher, the module elsewhere. */
	static const char there[] = "ffffffff82000000 T _text\nffffffff82001000 T there_fn\n"
				    "ffffffff82002000 T there_end\n"
				    "ffffffffc0000000 t other_mod_fn\t[mymod]\n";
	static const char notext[] = "ffffffff81001000 T no_text_fn\n";
	unsigned char running[20], other[20];
	struct perfev_symbolizer_opts o = {.sz = sizeof(o)};
	uint64_t start;
	int i;

	for (i = 0; i < 20; i++) {
		running[i] = (unsigned char)i;
		other[i] = (unsigned char)(0x80 + i);
	}
	CHECK(mkdtemp(dir));
	o.procfs_root = dir;
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	CHECK(write_file(path, here, sizeof(here) - 1));
	snprintf(sys, sizeof(sys), "%s/sys", dir);
	o.sysfs_root = sys;
	snprintf(path, sizeof(path), "%s/kernel", sys);
	CHECK_INT(mkdir(sys, 0700), 0);
	CHECK_INT(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/kernel/notes", sys);
	CHECK(write_notes(path, running));
	snprintf(bid, sizeof(bid), "%s/debug", dir);
	o.buildid_dir = bid;

	/* No build id told, or the running kernel's: this machine's kallsyms. */
	CHECK_INT(ksym_of(&o, NULL, NULL, 0, 0xffffffff81001010ULL, name, sizeof(name), &start), 0);
	CHECK_STR(name, "here_fn");
	CHECK_INT(ksym_of(&o, running, "_text", 0xffffffff81000000ULL, 0xffffffff81001010ULL, name,
			  sizeof(name), &start),
		  0);
	CHECK_STR(name, "here_fn");
	CHECK_U64(start, 0xffffffff81001000ULL);
	/* The same kernel seen 16 MiB lower at the recording's boot: moved. */
	CHECK_INT(ksym_of(&o, running, "_text", 0xffffffff80000000ULL, 0xffffffff80001010ULL, name,
			  sizeof(name), &start),
		  0);
	CHECK_STR(name, "here_fn");
	CHECK_U64(start, 0xffffffff80001000ULL);
	/* A module's symbol stays where kallsyms has it. */
	CHECK_INT(ksym_of(&o, running, "_text", 0xffffffff80000000ULL, 0xffffffffc0000008ULL, name,
			  sizeof(name), &start),
		  0);
	CHECK_STR(name, "mod_fn mymod");
	/* Another kernel: not this machine's symbols, nor any when the cache has none. */
	CHECK_INT(ksym_of(&o, other, "_text", 0xffffffff81000000ULL, 0xffffffff81001010ULL, name,
			  sizeof(name), &start),
		  -ESTALE);
	/* perf's build-id cache has its kallsyms, from a boot that put it 16 MiB higher. */
	snprintf(path, sizeof(path), "%s/[kernel.kallsyms]", bid);
	CHECK_INT(mkdir(bid, 0700), 0);
	CHECK_INT(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/[kernel.kallsyms]/%s", bid,
		 "808182838485868788898a8b8c8d8e8f90919293");
	CHECK_INT(mkdir(path, 0700), 0);
	strcat(path, "/kallsyms");
	CHECK(write_file(path, there, sizeof(there) - 1));
	CHECK_INT(ksym_of(&o, other, "_text", 0xffffffff81000000ULL, 0xffffffff81001010ULL, name,
			  sizeof(name), &start),
		  0);
	CHECK_STR(name, "there_fn");
	CHECK_U64(start, 0xffffffff81001000ULL);
	/* Unreadable running notes: the kernels cannot be told the same. */
	snprintf(path, sizeof(path), "%s/nowhere", dir);
	o.sysfs_root = path;
	o.buildid_dir = NULL;
	CHECK_INT(ksym_of(&o, running, NULL, 0, 0xffffffff81001010ULL, name, sizeof(name), &start),
		  -ESTALE);
	/* The caller's kallsyms, whatever the ids; without _text nothing resolves. */
	snprintf(path, sizeof(path), "%s/saved", dir);
	CHECK(write_file(path, there, sizeof(there) - 1));
	o.kallsyms = path;
	CHECK_INT(ksym_of(&o, other, "_text", 0xffffffff81000000ULL, 0xffffffff81001010ULL, name,
			  sizeof(name), &start),
		  0);
	CHECK_STR(name, "there_fn");
	CHECK(write_file(path, notext, sizeof(notext) - 1));
	CHECK_INT(ksym_of(&o, other, "_text", 0xffffffff81000000ULL, 0xffffffff81001010ULL, name,
			  sizeof(name), &start),
		  -ENODATA);
	/* No reference told (kptr_restrict at the recording): as it is. */
	CHECK_INT(ksym_of(&o, other, "_text", 0, 0xffffffff81001010ULL, name, sizeof(name), &start),
		  0);
	CHECK_STR(name, "no_text_fn");
	o.kallsyms = NULL;
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	CHECK_INT(system(path), 0);
}

/*
 * A version script gives a library absolute symbols (its version names,
 * OBJECT at address 0): perf never takes them for code, so an address
 * with no function of its own (the start of .init in a stripped library)
 * is not "V1+0x..." but unknown.
 */
TEST(user_symbols_absolute_ignored)
{
	char src[128], map[128], lib[128], cmd[768], path[4096];
	struct perfev_symbolizer *sz;
	struct perfev_sym s;
	uint64_t start, pgoff;
	void *h, *f;
	int ret;

	REQUIRE_FIXTURE();
	snprintf(src, sizeof(src), "%s/lib.c", fx.dir);
	snprintf(map, sizeof(map), "%s/v.map", fx.dir);
	snprintf(lib, sizeof(lib), "%s/libsyms-v.so", fx.dir);
	CHECK(write_file(map, "V1 { global: fa_global; local: *; };\n", 37));
	snprintf(cmd, sizeof(cmd),
		 "cc -O1 -fPIC -shared -Wl,--version-script=%s -o %s %s && strip %s", map, lib, src,
		 lib);
	if (!build(cmd)) {
		harness_skip("cc", "cannot build a library with a version script: %s", fx.why);
		return;
	}
	h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	CHECK(h != NULL);
	f = dlsym(h, "fa_global");
	CHECK(f && mapping_of((uint64_t)(uintptr_t)f, &start, &pgoff, path, sizeof(path)));
	CHECK_INT(perfev_symbolizer_new(NULL, &sz), 0);
	/* The first bytes of the executable mapping: .init, which has no symbol left. */
	ret = perfev_symbolize_user(sz, path, start, pgoff, start + 4, &s);
	EXPECT(ret < 0 || !s.name || strcmp(s.name, "V1"), "found '%s' at the start of .init",
	       s.name);
	/* The function itself still resolves. */
	CHECK_INT(perfev_symbolize_user(sz, path, start, pgoff, (uint64_t)(uintptr_t)f + 1, &s), 0);
	CHECK_STR(s.name, "fa_global");
	perfev_symbolizer_free(sz);
	dlclose(h);
}

/*
 * A data address in .bss, where the last page the file maps goes on past
 * the file's bytes (a sample's address with -d): its object is found, as
 * perf finds it, not [unknown].
 */
TEST(user_symbols_bss_object)
{
	static const char src[] = "static int bss_counter;\n"
				  "int *bss_where(void) { return &bss_counter; }\n";
	char path_c[128], lib[128], cmd[512], path[4096];
	struct perfev_symbolizer *sz;
	struct perfev_sym s;
	uint64_t start, pgoff, addr;
	int *(*where)(void);
	void *h;

	REQUIRE_FIXTURE();
	snprintf(path_c, sizeof(path_c), "%s/bss.c", fx.dir);
	snprintf(lib, sizeof(lib), "%s/libsyms-bss.so", fx.dir);
	CHECK(write_file(path_c, src, sizeof(src) - 1));
	snprintf(cmd, sizeof(cmd), "cc -O1 -fPIC -shared -o %s %s", lib, path_c);
	if (!build(cmd)) {
		harness_skip("cc", "cannot build the library: %s", fx.why);
		return;
	}
	h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	CHECK(h != NULL);
	where = (int *(*)(void))dlsym(h, "bss_where");
	CHECK(where != NULL);
	addr = (uint64_t)(uintptr_t)where();
	CHECK(mapping_of(addr, &start, &pgoff, path, sizeof(path)));
	/* A small .bss starts in the last page of the file's mapping, after .data. */
	CHECK_STR(path, lib);
	CHECK_INT(perfev_symbolizer_new(NULL, &sz), 0);
	CHECK_INT(perfev_symbolize_user(sz, path, start, pgoff, addr, &s), 0);
	CHECK_STR(s.name, "bss_counter");
	perfev_symbolizer_free(sz);
	dlclose(h);
}
