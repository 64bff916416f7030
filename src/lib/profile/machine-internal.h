/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The machine's private structures, shared by machine.c (threads and
 * maps) and machine-frames.c (symbols, frames, unwinding).
 */
#ifndef PERFEV_MACHINE_INTERNAL_H
#define PERFEV_MACHINE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <perfev/machine.h>
#include "common/array.h"
#include "common/hashmap.h"
#include "symbols/unwind.h"

/* One mapping, [start, end). */
struct pm_map {
	uint64_t start, end;
	uint64_t pgoff;
	const char *dso; /* interned */
	bool identity;	 /* anonymous memory: addresses are not file offsets */
};

/* Maps sorted by start, never overlapping. */
struct pm_maps {
	struct pm_map *v;
	size_t n, cap;
};

struct pm_thread {
	uint32_t tid, pid;
	char *comm; /* NULL until a COMM or FORK names it */
};

struct pm_proc {
	uint32_t pid;
	struct pm_maps maps;
	uint64_t generation; /* bumped at every change of @maps, and at exec */
	/* @maps as the unwinder takes them, made again when @generation moved. */
	PERFEV__ARRAY(struct perfev__unwind_map) umaps;
	uint64_t umaps_generation;
	bool umaps_valid;
};

/* A build id the recording saw. */
struct pm_build_id {
	uint8_t id[20];
	uint8_t len;
};

/* What a resolution is keyed by: equal keys resolve to equal frames. */
struct pm_rkey {
	const char *dso; /* the map's (interned), NULL: none */
	uint64_t start, pgoff, ip;
	uint32_t pid; /* only for anonymous memory and addresses in no map */
	uint16_t cpumode;
	uint16_t how;	   /* the flags that change frames, and PM_RETURN_ADDR */
	uint32_t first, n; /* its frames in the pool */
};

/* pm_rkey.how: a return address (its source line is the call's, one byte earlier). */
#define PM_RETURN_ADDR (1U << 15)
/* pm_rkey.how: an unwound address, with perf's inlined functions (perf_inlines()). */
#define PM_PERF_INLINES (1U << 14)

/* Resolutions remembered by address in front of the hash map (a power of two). */
#define PM_RECENT 4096

struct perfev_machine {
	struct perfev__hashmap threads; /* tid -> struct pm_thread * */
	struct perfev__hashmap procs;	/* pid -> struct pm_proc * */
	struct pm_maps kmaps;		/* modules and BPF programs; the kernel is the rest */
	uint64_t kernel_start;		/* the kernel map's start, or 1 << 63 */
	bool have_kernel_map;
	/* Where the recording saw the kernel's function @kernel_ref ("_text"). */
	const char *kernel_ref; /* interned; NULL: no kernel map named one */
	uint64_t kernel_ref_addr;
	struct perfev__hashmap strings;	  /* interned strings (keys) */
	struct perfev__hashmap build_ids; /* interned path -> struct pm_build_id * */
	struct perfev__hashmap cgroups;	  /* cgroup id -> interned path (PERF_RECORD_CGROUP) */
	char kernel_id[2 * 20 + 1];	  /* the recording's kernel build id, hex, or "" */

	/* The symbolizer, made at the first lookup from these options. */
	struct perfev_symbolizer_opts sopts;
	struct perfev_symbolizer *symz;
	int symz_err;	    /* why it could not be made */
	uint64_t kref_told; /* the kernel_ref_addr it was told */
	bool kernel_warned; /* said why kernel symbols are not shown */
	unsigned int max_stack;

	/* Resolutions: keys (by index, PM_PROBE for @probe) and their frames. */
	PERFEV__ARRAY(struct pm_rkey) rkeys;
	struct perfev__hashmap rcache;
	uint32_t recent[PM_RECENT]; /* a direct-mapped cache in front of it: key index + 1 */
	struct pm_rkey probe;
	PERFEV__ARRAY(struct perfev_frame) pool;
	PERFEV__ARRAY(struct perfev_frame) out; /* what the last call handed out */

	/* Unwinding of user stacks, made at the first sample that has one. */
	struct perfev__unwinder *unwinder;
	int unwinder_err;
	PERFEV__ARRAY(uint64_t) ips;
	struct perfev_unwind_stats ustats;
};

#define PM_PROBE UINT64_MAX

/* machine.c */
const char *perfev__machine_intern(struct perfev_machine *m, const char *s);
/*
 * The map of @addr in the address space of @pid seen in @cpumode, as
 * perf finds it; NULL: none.  Valid until the maps change.
 */
const struct pm_map *perfev__machine_find(struct perfev_machine *m, uint32_t pid,
					  unsigned int cpumode, uint64_t addr);
struct pm_proc *perfev__machine_proc(struct perfev_machine *m, uint32_t pid);
/* The address perf shows for an address of @map: its file offset, or itself. */
uint64_t perfev__map_addr(const struct pm_map *map, uint64_t addr);

/* machine-frames.c */
void perfev__machine_frames_release(struct perfev_machine *m);
/* Forget the cached resolutions: the symbolizer learnt something that may change them. */
void perfev__machine_forget_resolutions(struct perfev_machine *m);
/* The process's maps changed in ways the unwinder must see again (exec, exit). */
void perfev__machine_unwind_forget(struct perfev_machine *m, struct pm_proc *p);

#endif /* PERFEV_MACHINE_INTERNAL_H */
