// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev script: the symbol of an address, for the text and JSON output.
 * Every lookup goes through script_symbolize(), so each kind of map is
 * resolved in one place.  The symbolizer is created at the first lookup,
 * and kallsyms is read by the library at the first kernel lookup: a file
 * whose samples print no symbol costs neither.
 */
#include <errno.h>
#include <string.h>
#include <perfev/perfev.h>
#include <perfev/symbols.h>
#include "perfev-cli.h"
#include "script.h"

struct perfev_symbolizer *script_symbolizer(struct script *s)
{
	int err;

	if (s->symz || s->symz_err)
		return s->symz;
	err = perfev_symbolizer_new(NULL, &s->symz);
	if (err) {
		/* Said once: every symbol is then [unknown], the rest of the output holds. */
		s->symz_err = err;
		cli_error("warning: cannot set up symbol lookups: %s; symbols are shown as "
			  "[unknown]",
			  perfev_strerror(err));
	}
	return s->symz;
}

int script_symbolize(struct script *s, uint32_t pid, const struct script_map *map,
		     unsigned int cpumode, uint64_t addr, struct script_sym *out)
{
	struct perfev_symbolizer *symz;
	struct perfev_sym sym;
	const char *module;
	bool kernel;
	int err;

	out->name = NULL;
	out->off = 0;
	if (!map)
		return -ENOENT;
	kernel = cpumode == PERF_RECORD_MISC_KERNEL ||
		 (cpumode == PERF_RECORD_MISC_CPUMODE_UNKNOWN && addr >= s->m.kernel_start);
	if (kernel && map->identity && map->dso[0] != '[') {
		/* A BPF program or trampoline (KSYMBOL): perf names its symbol after the map. */
		out->name = map->dso;
		out->off = addr - map->start;
		return 0;
	}
	/* [stack], [heap] and the like: no symbols. */
	if (!kernel && !map->identity && map->dso[0] != '/' && strcmp(map->dso, "[vdso]"))
		return -ENOENT;
	symz = script_symbolizer(s);
	if (!symz)
		return s->symz_err;
	if (kernel)
		err = perfev_symbolize_kernel(symz, addr, &sym, &module);
	else if (map->identity) /* anonymous memory: code a JIT may have named */
		err = perfev_symbolize_jit(symz, (pid_t)pid, addr, &sym);
	else if (!strcmp(map->dso, "[vdso]"))
		err = perfev_symbolize_vdso(symz, map->start, map->pgoff, addr, &sym);
	else
		err = perfev_symbolize_user(symz, map->dso, map->start, map->pgoff, addr, &sym);
	if (err)
		return err;
	if (!sym.name)
		return -ENOENT;
	out->name = sym.name;
	out->off = sym.addr - sym.start;
	return 0;
}

void script_sym_release(struct script *s)
{
	perfev_symbolizer_free(s->symz);
	s->symz = NULL;
	s->symz_err = 0;
}
