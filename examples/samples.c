// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Print the samples of a perf.data file, in time order, each with its
 * call chain resolved to functions and objects, the way perfev script
 * does at its core.
 *
 *   samples perf.data
 *
 *   work 4242/4242 1234.567890 cpu-clock
 *       401136 compute+0x16 (/usr/local/bin/work)
 *       401172 main+0x22 (/usr/local/bin/work)
 */
#include <inttypes.h>
#include <stdio.h>
#include <perfev/perfev.h>

int main(int argc, char **argv)
{
	const struct perfev_source_event *ev;
	struct perfev_source_stats st = {.sz = sizeof(st)};
	const struct perfev_frame *f;
	struct perfev_source *src;
	size_t i, n;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE\n", argv[0]);
		return 2;
	}
	err = perfev_source_open(argv[1], NULL, &src);
	if (err) {
		fprintf(stderr, "cannot read '%s': %s\n", argv[1], perfev_strerror(err));
		return 1;
	}
	while ((err = perfev_source_next(src, &ev)) > 0) {
		if (ev->kind != PERFEV_SOURCE_SAMPLE)
			continue;
		printf("%s %" PRIu32 "/%" PRIu32 " %" PRIu64 ".%06" PRIu64 " %s\n", ev->comm,
		       ev->pid, ev->tid, ev->time / 1000000000, ev->time % 1000000000 / 1000,
		       ev->name);
		/*
		 * The call chain when the sample has one, else the sampled
		 * address; stacks unwound from DWARF with their inlined
		 * functions, as perf script shows them.
		 */
		err = perfev_source_frames(
		    src, ev, PERFEV_FRAMES_CHAIN | PERFEV_FRAMES_UNWOUND_INLINES, &f, &n);
		if (err)
			break;
		for (i = 0; i < n; i++) {
			printf("    %16" PRIx64 " ", f[i].ip);
			if (f[i].sym)
				printf("%s+0x%" PRIx64, f[i].sym, f[i].sym_off);
			else
				fputs("[unknown]", stdout);
			if (f[i].flags & PERFEV_FRAME_INLINED)
				puts(" (inlined)");
			else
				printf(" (%s)\n", f[i].dso ? f[i].dso : "[unknown]");
		}
	}
	if (err < 0)
		fprintf(stderr, "cannot read '%s': %s\n", argv[1], perfev_strerror(err));
	perfev_source_stats(src, &st);
	if (st.lost_samples || st.lost)
		fprintf(stderr, "%" PRIu64 " samples and %" PRIu64 " records were lost\n",
			st.lost_samples, st.lost);
	perfev_source_free(src);
	return err < 0;
}
