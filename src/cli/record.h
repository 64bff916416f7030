/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared pieces of perfev record. */
#ifndef PERFEV_CLI_RECORD_H
#define PERFEV_CLI_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "common/hashmap.h"
#include "perfev-cli.h"

/* Where synthesized records go: the recording's first event layout and its writer. */
struct synth_ctx {
	const struct perfev_sample_layout *layout;
	struct perfev_data_writer *w;
	const char *procfs_root;
	bool data_maps; /* -d: non-executable mappings too */
	uint64_t records;
	int err; /* first write error */
	/*
	 * Called between two processes while every process is described, so
	 * that the rings, already enabled, are read meanwhile; or NULL.
	 */
	void (*between)(void *arg);
	void *between_arg;
};

/*
 * Describe process @pid as it is now: COMM of each thread, MMAP2 of its
 * executable mappings (every mapping with data_maps), FORK for each
 * thread but the first.  A process that exits meanwhile is skipped.
 */
void synth_process(struct synth_ctx *sc, pid_t pid);
/* Every process on the machine (system-wide recording). */
void synth_all_processes(struct synth_ctx *sc);
/* The process each thread of @tids belongs to, once each. */
void synth_threads(struct synth_ctx *sc, const pid_t *tids, size_t n);
/*
 * The kernel's text as an MMAP of "[kernel.kallsyms]_text" where perf
 * looks for it, from the first _text or _stext in /proc/kallsyms (read
 * only up to there).  Nothing when the addresses are hidden.
 */
void synth_kernel(struct synth_ctx *sc);

/*
 * Build ids of the files mapped during the recording, for perf's
 * BUILD_ID section: the kernel puts them in MMAP2 records when the
 * tracking event asks (attr.build_id, Linux 5.12).
 */
struct build_ids {
	/* Per file, in the order seen: its id's length (a byte), the id, the file's name. */
	struct perfev__intern files;
};

/* Whether this kernel accepts attr.build_id (one probe of a dummy event). */
bool build_ids_supported(void);
/* Note the build id of an MMAP2 record that carries one (others are ignored). */
void build_ids_note(struct build_ids *b, const struct perfev_sample_layout *layout,
		    const struct perf_event_header *h);
/*
 * Set the BUILD_ID section: one perf build-id record per file noted, and
 * the kernel's own (from /sys/kernel/notes) when @kernel.  0 or -errno.
 */
int build_ids_write(struct build_ids *b, struct perfev_data_writer *w, bool kernel);
void build_ids_release(struct build_ids *b);

#endif /* PERFEV_CLI_RECORD_H */
