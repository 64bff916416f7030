// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer harness: perf.data bytes through the source, ordered, fed to
 * the machine and handed out (raw and ordered), each sample's frames
 * resolved to maps (no symbol lookups: no file is read), and the same
 * records fed to a live source.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/source.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT (1 << 20)

static volatile uint64_t sink;

static bool ok_err(int err)
{
	return err == -EBADMSG || err == -EPROTO || err == -ENOMEM || err == -EFBIG;
}

static void frames(struct perfev_source *src, const struct perfev_source_event *ev)
{
	const struct perfev_frame *f;
	unsigned int flags = PERFEV_FRAMES_NO_SYMBOLS;
	size_t n, i;

	/* User stacks are unwound through the mapped files: not with fuzzed paths. */
	if (!(ev->rec->u.sample.present & (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER)))
		flags |= PERFEV_FRAMES_CHAIN;
	if (perfev_source_frames(src, ev, flags, &f, &n))
		return;
	for (i = 0; i < n; i++)
		sink += f[i].ip + f[i].addr + (f[i].dso ? strlen(f[i].dso) : 0);
}

static void drain(struct perfev_source *src, struct perfev_source *live)
{
	const struct perfev_source_event *ev;
	struct perfev_source_stats st = {.sz = sizeof(st)};
	size_t i;
	int ret;

	for (i = 0; i < perfev_source_attr_count(src); i++)
		if (!perfev_source_attr_name(src, i))
			return;
	while ((ret = perfev_source_next(src, &ev)) == 1) {
		sink += ev->size + ev->period + ev->time;
		if (ev->comm)
			sink += strlen(ev->comm);
		if (ev->kind == PERFEV_SOURCE_SAMPLE) {
			if (!ev->rec || !ev->attr || !ev->name)
				abort();
			frames(src, ev);
		}
		if (live && ev->rec && ev->type < PERFEV_RECORD_HEADER_ATTR)
			(void)perfev_source_feed(live, ev->bytes, ev->size);
	}
	if (ret && !ok_err(ret))
		abort();
	if (perfev_source_next(src, &ev) != ret || perfev_source_stats(src, &st))
		abort();
	if (st.err != ret)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfev_source_opts raw = {.sz = sizeof(raw), .raw = true};
	struct perfev_source_opts live_opts = {.sz = sizeof(live_opts), .window_ns = 1000};
	struct perfev_source *src = NULL, *live = NULL;
	const struct perfev_data_attr *a;
	uint8_t *copy;
	size_t i;
	int ret;

	if (size > MAX_INPUT)
		return 0;
	/* An exact-size copy, so that ASan sees any read past the input. */
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	ret = perfev_source_open_mem(copy, size, &raw, &src);
	if (!ret) {
		drain(src, NULL);
		perfev_source_free(src);
	} else if (!ok_err(ret)) {
		abort();
	}
	ret = perfev_source_open_mem(copy, size, NULL, &src);
	if (!ret) {
		if (!perfev_source_new_live(&live_opts, &live)) {
			for (i = 0; (a = perfev_source_attr(src, i)); i++)
				(void)perfev_source_add_attr(live, a->attr, a->name, a->ids,
							     a->nids);
		}
		drain(src, live);
		if (live) {
			perfev_source_finish(live);
			drain(live, NULL);
		}
		perfev_source_free(live);
		perfev_source_free(src);
	} else if (!ok_err(ret)) {
		abort();
	}
	free(copy);
	return 0;
}
