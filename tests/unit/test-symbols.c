// SPDX-License-Identifier: LGPL-2.1-or-later
/* Kernel symbols from kallsyms text; user symbols of this very program through its mappings. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/symbols.h>
#include "harness.h"

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
	/* Of three at one address: not the weak, then the global one. */
	CHECK_STR(s.name, "do_work");
	CHECK_U64(s.start, 0xffffffff81001000ULL);
	CHECK_U64(s.size, 0x1000);
	CHECK(s.module == NULL);
	CHECK_INT(perfev_kallsyms_find(k, 0xffffffff81000010ULL, &s), 0);
	/* Same binding and underscores: the longer name. */
	CHECK_STR(s.name, "_stext");
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
