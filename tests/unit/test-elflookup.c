// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Symbols found by name in this program's ELF file, moved by its load bias to the addresses
 * the program sees; stripped copies, thread-local and unknown names, files that are not ELF.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <perfev/symbols.h>
#include "harness.h"

int elflookup_global = 7;
static int elflookup_static = 3;
__thread int elflookup_tls;
int elflookup_func(int x);

__attribute__((noinline)) int elflookup_func(int x)
{
	return x + elflookup_static;
}

/* The first mapping of this program's file in /proc/self/maps: its start and offset. */
static bool self_mapping(const char *exe, uint64_t *start, uint64_t *pgoff)
{
	unsigned long long s, e, off;
	char line[4096], perms[8], path[4096];
	bool found = false;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		path[0] = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &s, &e, perms, &off, path) <
		    4)
			continue;
		if (!strcmp(path, exe)) {
			*start = s;
			*pgoff = off;
			found = true;
		}
	}
	fclose(f);
	return found;
}

static const char *self_exe(void)
{
	static char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return NULL;
	exe[n] = 0;
	return exe;
}

TEST(symbol_by_name_with_load_bias)
{
	struct perfev_elf_symbol sym;
	const char *exe = self_exe();
	uint64_t start, pgoff, bias;

	CHECK(exe != NULL);
	CHECK(self_mapping(exe, &start, &pgoff));
	CHECK_INT(perfev_elf_load_bias(exe, start, pgoff, &bias), 0);

	CHECK_INT(perfev_elf_symbol_find(exe, "elflookup_global", &sym), 0);
	CHECK_U64(sym.vaddr + bias, (uint64_t)(uintptr_t)&elflookup_global);
	CHECK_U64(sym.size, sizeof(int));
	CHECK(!sym.func);
	CHECK(!sym.dynsym);

	CHECK_INT(perfev_elf_symbol_find(exe, "elflookup_static", &sym), 0);
	CHECK_U64(sym.vaddr + bias, (uint64_t)(uintptr_t)&elflookup_static);

	CHECK_INT(perfev_elf_symbol_find(exe, "elflookup_func", &sym), 0);
	CHECK_U64(sym.vaddr + bias, (uint64_t)(uintptr_t)&elflookup_func);
	CHECK(sym.func);
	CHECK_INT(elflookup_func(1), 4);

	/* A prefix of a name is not the name. */
	CHECK_INT(perfev_elf_symbol_find(exe, "elflookup_glob", &sym), -ENOENT);
	CHECK_INT(perfev_elf_symbol_find(exe, "elflookup_tls", &sym), -EOPNOTSUPP);
	CHECK_INT(perfev_elf_symbol_find(exe, "", &sym), -EINVAL);
	/* An offset no segment maps. */
	CHECK_INT(perfev_elf_load_bias(exe, start, 1ULL << 40, &bias), -ERANGE);
}

TEST(stripped_and_not_elf)
{
	struct perfev_elf_symbol sym;
	const char *exe = self_exe();
	char dir[] = "/tmp/perfev-elflookup.XXXXXX", copy[4200], cmd[8600];
	uint64_t bias;

	CHECK(exe != NULL);
	CHECK_INT(perfev_elf_symbol_find("/proc/self/status", "x", &sym), -ENODATA);
	CHECK_INT(perfev_elf_load_bias("/proc/self/status", 0, 0, &bias), -ENODATA);
	CHECK_INT(perfev_elf_symbol_find("/nonexistent/file", "x", &sym), -ENOENT);
	CHECK(mkdtemp(dir) != NULL);
	snprintf(copy, sizeof(copy), "%s/stripped", dir);
	snprintf(cmd, sizeof(cmd), "strip -o '%s' '%s' 2>/dev/null", copy, exe);
	if (system(cmd) != 0) {
		harness_skip("strip", "strip(1) is not installed");
	} else {
		/* Without .symtab: a name only .symtab had is unknown for want of it. */
		CHECK_INT(perfev_elf_symbol_find(copy, "elflookup_static", &sym), -ENOKEY);
		/* .dynsym still holds the names the program imports and exports. */
		if (perfev_elf_symbol_find(copy, "main", &sym) == 0)
			CHECK(sym.dynsym);
	}
	unlink(copy);
	rmdir(dir);
}
