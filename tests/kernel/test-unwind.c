// SPDX-License-Identifier: LGPL-2.1-or-later
/* DWARF unwinding of this thread's sampled user stacks: code without frame pointers, libc's qsort.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <perfev/control.h>
#include <perfev/record.h>
#include <perfev/ring.h>
#include <perfev/sys.h>
#include "unwind-common.h"

#define PERIOD_NS   100000 /* a sample every 100 us of this thread's CPU time */
#define STACK_BYTES 8192
#define SAMPLE_TYPE                                                                                \
	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_REGS_USER |             \
	 PERF_SAMPLE_STACK_USER)
#define MAX_FRAMES 128
#define RING_PAGES 512

/*
 * ---- what is sampled ----------------------------------------------------------
 * This file is compiled without frame pointers (see the Makefile): only the
 * CFI can walk these frames.  No inlining, cloning or tail calls, so each
 * function keeps its frame and its name.
 */
#if defined(__clang__)
#define CHAIN __attribute__((noinline, used))
#else
#define CHAIN __attribute__((noinline, noipa, used))
#endif

static volatile uint64_t sink;

CHAIN static uint64_t chain_leaf(uint64_t x, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

CHAIN static uint64_t chain_c(uint64_t x, unsigned int n)
{
	uint64_t r = chain_leaf(x + 3, n);

	sink = r;
	return r ^ x;
}

CHAIN static uint64_t chain_b(uint64_t x, unsigned int n)
{
	uint64_t r = chain_c(x + 2, n);

	sink = r;
	return r ^ x;
}

CHAIN static uint64_t chain_a(uint64_t x, unsigned int n)
{
	uint64_t r = chain_b(x + 1, n);

	sink = r;
	return r ^ x;
}

/* Innermost first: a sample in chain_b has chain_a and the caller above it. */
static const char *const chain_names[] = {"chain_leaf", "chain_c", "chain_b", "chain_a"};
#define NCHAIN ((int)(sizeof(chain_names) / sizeof(chain_names[0])))

CHAIN static int cmp_burn(const void *pa, const void *pb)
{
	int a = *(const int *)pa, b = *(const int *)pb;
	uint64_t h = (uint64_t)a;
	int i;

	for (i = 0; i < 300; i++) {
		h = h * 6364136223846793005ULL + 1442695040888963407ULL;
		__asm__ volatile("" : "+r"(h));
	}
	sink = h;
	return (a > b) - (a < b);
}

CHAIN static void sort_caller(int *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_burn);
	sink = (uint64_t)v[0];
}

/* About a millisecond of each. */
CHAIN static void work_chain(void)
{
	sink = chain_a(sink, 400000);
}

CHAIN static void work_qsort(void)
{
	static int v[512];
	size_t i;

	for (i = 0; i < 512; i++)
		v[i] = (int)((i * 2654435761U) % 100003U);
	sort_caller(v, 512);
	sink += (uint64_t)v[1]; /* not a tail call: this frame stays */
}

/* ---- recording ------------------------------------------------------------------ */

struct recording {
	struct perfev_sample_layout layout;
	uint8_t *buf; /* the samples, one after the other */
	size_t len, cap;
	size_t samples, lost;
};

/* The next sample of @rec from *@off on with user registers, decoded into @d; false at the end. */
static bool next_user_sample(const struct recording *rec, size_t *off, struct perfev_record *d)
{
	while (*off + sizeof(struct perf_event_header) <= rec->len) {
		const struct perf_event_header *h = (const void *)(rec->buf + *off);

		if (h->size < sizeof(*h))
			return false;
		*off += h->size;
		if (!perfev_record_decode(&rec->layout, h, h->size, d) && d->u.sample.regs_user_abi)
			return true;
	}
	return false;
}

static bool keep_record(struct recording *rec, const struct perf_event_header *h)
{
	if (h->type == PERF_RECORD_LOST) {
		rec->lost++;
		return true;
	}
	if (h->type != PERF_RECORD_SAMPLE)
		return true;
	if (rec->len + h->size > rec->cap) {
		size_t ncap = rec->cap ? rec->cap * 2 : (1U << 20);
		void *n;

		while (ncap < rec->len + h->size)
			ncap *= 2;
		n = realloc(rec->buf, ncap);
		if (!n)
			return false;
		rec->buf = n;
		rec->cap = ncap;
	}
	memcpy(rec->buf + rec->len, h, h->size);
	rec->len += h->size;
	rec->samples++;
	return true;
}

static bool drain(struct perfev_ring *r, struct recording *rec)
{
	const struct perf_event_header *h;
	bool ok = true;
	int ret;

	if (perfev_ring_begin(r) < 0)
		return false;
	while ((ret = perfev_ring_next(r, &h)) == 1)
		ok = keep_record(rec, h) && ok;
	perfev_ring_end(r);
	return ok && ret == 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Sample this thread while @work runs for @seconds; false when the case is decided. */
static bool record_self(void (*work)(void), double seconds, struct recording *rec)
{
	struct perfev_ring_opts ro = {.sz = sizeof(ro), .data_pages = RING_PAGES};
	struct perf_event_attr a;
	struct perfev_ring *r = NULL;
	double end;
	int fd, ret;

	memset(rec, 0, sizeof(*rec));
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.sample_period = PERIOD_NS;
	a.sample_type = SAMPLE_TYPE;
	a.sample_regs_user = UNWIND_REGS_MASK;
	a.sample_stack_user = STACK_BYTES;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.disabled = 1;
	fd = perfev_sys_open(&a, 0, -1, -1, 0);
	if (fd < 0) {
		harness_skip_errno("task-clock sampling with user stacks", fd, "perfev_sys_open",
				   __FILE__, __LINE__);
		return false;
	}
	ret = perfev_ring_map(fd, &ro, &r);
	if (ret) {
		close(fd);
		harness_skip_errno("ring-mmap", ret, "perfev_ring_map", __FILE__, __LINE__);
		return false;
	}
	ret = perfev_sample_layout_init(&rec->layout, &a);
	EXPECT(ret == 0, "perfev_sample_layout_init: %d", ret);
	perfev_ioc_enable(fd, false);
	end = now_s() + seconds;
	while (now_s() < end) {
		work();
		if (!drain(r, rec)) {
			harness_fail(__FILE__, __LINE__, "cannot read the ring");
			break;
		}
	}
	perfev_ioc_disable(fd, false);
	if (!drain(r, rec))
		harness_fail(__FILE__, __LINE__, "cannot read the ring");
	perfev_ring_free(r);
	close(fd);
	return !harness_done();
}

/* ---- unwinding the recording ------------------------------------------------------ */

struct unwound {
	uint64_t ips[MAX_FRAMES];
	size_t n;
	enum perfev__unwind_stop stop;
};

/*
 * Two unwinders over the same maps: @u walks with its cached rules, @ref
 * with libdwfl alone; every unwind goes through both and they must agree.
 */
struct check {
	struct perfev__unwinder *u, *ref;
	struct perfev_symbolizer *s;
	struct test_maps tm;
	struct perfev__unwind_space space;
	size_t stops[PERFEV__UNWIND_NR_STOPS];
	size_t unwound, differ;
	double seconds, first, ref_seconds, ref_first;
};

static bool check_begin(struct check *c)
{
	memset(c, 0, sizeof(*c));
	if (perfev__unwinder_new(&c->u) || perfev__unwinder_new(&c->ref) ||
	    perfev_symbolizer_new(NULL, &c->s) || !test_maps_load(&c->tm)) {
		harness_fail(__FILE__, __LINE__, "cannot set up the unwinder");
		return false;
	}
	perfev__unwinder_set_libdwfl_only(c->ref, true);
	c->space.key = c;
	c->space.generation = 1;
	c->space.maps = c->tm.m;
	c->space.nmaps = c->tm.n;
	return true;
}

static void check_end(struct check *c)
{
	perfev__unwinder_free(c->u);
	perfev__unwinder_free(c->ref);
	perfev_symbolizer_free(c->s);
	test_maps_release(&c->tm);
}

/*
 * Unwind with both unwinders into @out (the cached walk's result); 0, or
 * the error perfev__unwind() returned.  A difference fails the case.
 */
static int unwind_both(struct check *c, uint32_t pid, uint32_t tid,
		       const struct perfev__unwind_regs *regs, const void *stack, size_t size,
		       size_t max, struct unwound *out, int line)
{
	struct unwound ref;
	double t0 = now_s(), t1, t2;
	int ret, ret_ref;

	ret = perfev__unwind(c->u, &c->space, pid, tid, regs, stack, size, out->ips, max, &out->n,
			     &out->stop);
	t1 = now_s();
	ret_ref = perfev__unwind(c->ref, &c->space, pid, tid, regs, stack, size, ref.ips, max,
				 &ref.n, &ref.stop);
	t2 = now_s();
	if (!c->unwound) {
		c->first = t1 - t0;
		c->ref_first = t2 - t1;
	} else {
		c->seconds += t1 - t0;
		c->ref_seconds += t2 - t1;
	}
	c->unwound++;
	if (ret != ret_ref || (!ret && (out->n != ref.n || out->stop != ref.stop ||
					memcmp(out->ips, ref.ips, out->n * sizeof(out->ips[0]))))) {
		if (c->differ++ < 3)
			harness_fail(
			    __FILE__, line,
			    "cached rules: %d, %zu frames, %s; libdwfl: %d, %zu frames, %s", ret,
			    out->n, perfev__unwind_stop_name(out->stop), ret_ref, ref.n,
			    perfev__unwind_stop_name(ref.stop));
	}
	if (!ret && out->stop < PERFEV__UNWIND_NR_STOPS)
		c->stops[out->stop]++;
	return ret;
}

#define UNWIND_BOTH(c, pid, tid, regs, stack, size, max, out)                                      \
	unwind_both(c, pid, tid, regs, stack, size, max, out, __LINE__)

/* Unwind one decoded sample into @out; false (and the case failed) on an error return. */
static bool unwind_sample(struct check *c, const struct perfev_sample *smp, struct unwound *out)
{
	struct perfev__unwind_regs regs = {
	    .abi = smp->regs_user_abi,
	    .mask = UNWIND_REGS_MASK,
	    .regs = smp->regs_user,
	};
	size_t dyn = (size_t)smp->stack_user_dyn_size;
	int ret;

	if (dyn > smp->stack_user_size)
		dyn = (size_t)smp->stack_user_size;
	ret = UNWIND_BOTH(c, smp->pid, smp->tid, &regs, smp->stack_user, dyn, MAX_FRAMES, out);
	if (ret) {
		harness_fail(__FILE__, __LINE__, "perfev__unwind: %d", ret);
		return false;
	}
	return true;
}

static void report_cost(const char *what, const struct check *c)
{
	struct perfev__unwind_stats st;
	size_t i, rest = c->unwound > 1 ? c->unwound - 1 : 1;

	perfev__unwinder_stats(c->u, &st);
	printf("  %s: %zu samples; first %.0f us (modules, CFI), then %.2f us/sample with cached "
	       "rules (%llu rows, %llu walked by libdwfl), %.2f us/sample by libdwfl alone; stops:",
	       what, c->unwound, c->first * 1e6, c->seconds * 1e6 / (double)rest,
	       (unsigned long long)st.rules, (unsigned long long)st.libdwfl_walks,
	       c->ref_seconds * 1e6 / (double)rest);
	for (i = 0; i < PERFEV__UNWIND_NR_STOPS; i++)
		if (c->stops[i])
			printf(" %s %zu", perfev__unwind_stop_name((enum perfev__unwind_stop)i),
			       c->stops[i]);
	printf("\n");
}

/* The index of @name among chain_names, or -1. */
static int chain_index(const char *name)
{
	int i;

	for (i = 0; i < NCHAIN; i++)
		if (!strcmp(name, chain_names[i]))
			return i;
	return -1;
}

/* A sample in the chain: the rest of it above, then this test, main and libc's start-up. */
static bool full_chain(struct check *c, const struct unwound *w, bool *via_start_call)
{
	int k = chain_index(test_sym(c->s, &c->tm, w->ips[0]));
	size_t i = 1;

	for (k = k + 1; k < NCHAIN; k++, i++)
		if (i >= w->n || strcmp(test_sym(c->s, &c->tm, w->ips[i]), chain_names[k]))
			return false;
	if (i >= w->n || strcmp(test_sym(c->s, &c->tm, w->ips[i]), "work_chain"))
		return false;
	return test_reaches_start(c->s, &c->tm, w->ips, w->n, i + 1, w->stop, via_start_call);
}

/* Whether the function's code begins as a frame-pointer prologue does (push %rbp; mov %rsp,%rbp).
 */
static bool has_fp_prologue(const void *fn)
{
	static const uint8_t prologue[] = {0x55, 0x48, 0x89, 0xe5};

	return !memcmp(fn, prologue, sizeof(prologue));
}

TEST(unwind_chain_without_frame_pointers)
{
	struct recording rec;
	struct check c;
	struct unwound *w = malloc(sizeof(*w));
	size_t off, in_chain = 0, full = 0, named_start_call = 0, shown = 0;
	struct perfev_record d;
	char text[2048];

	CHECK(w);
	/* The point of the case: these frames can only be walked with CFI. */
	EXPECT(!has_fp_prologue((const void *)chain_b) && !has_fp_prologue((const void *)chain_c),
	       "the chain was compiled with frame pointers");
	if (!record_self(work_chain, 0.3, &rec)) {
		free(w);
		free(rec.buf);
		return;
	}
	if (!check_begin(&c)) {
		free(w);
		free(rec.buf);
		return;
	}
	for (off = 0; next_user_sample(&rec, &off, &d);) {
		bool via;

		if (!unwind_sample(&c, &d.u.sample, w))
			break;
		EXPECT(w->n >= 1 && w->ips[0] == d.u.sample.ip,
		       "the first frame is not the sample's ip");
		if (!w->n || chain_index(test_sym(c.s, &c.tm, w->ips[0])) < 0)
			continue;
		in_chain++;
		if (full_chain(&c, w, &via)) {
			full++;
			named_start_call += via;
		} else if (shown++ < 5) {
			test_chain_text(c.s, &c.tm, w->ips, w->n, w->stop, text, sizeof(text));
			printf("  not a full chain: %s\n", text);
		}
	}
	report_cost("chain", &c);
	printf("  chain: %zu samples in the chain, %zu full (%zu through __libc_start_call_main), "
	       "%zu lost records\n",
	       in_chain, full, named_start_call, rec.lost);
	EXPECT(in_chain >= 100, "only %zu samples in the chain", in_chain);
	EXPECT(full * 100 >= in_chain * 99, "%zu of %zu samples show the whole chain", full,
	       in_chain);
	check_end(&c);
	free(rec.buf);
	free(w);
}

/* libc's qsort, or the sanitizer's in front of it. */
static bool in_sort_lib(struct check *c, uint64_t ip)
{
	return test_ip_in(&c->tm, ip, "libc.so") || test_ip_in(&c->tm, ip, "libasan.so");
}

/* cmp_burn <- libc's sort internals (qsort, msort...) <- sort_caller <- work_qsort ... main. */
static bool full_qsort_chain(struct check *c, const struct unwound *w, bool *via_start_call)
{
	size_t i = 1;

	if (i >= w->n || !in_sort_lib(c, w->ips[i]))
		return false;
	while (i < w->n && in_sort_lib(c, w->ips[i]))
		i++;
	if (i + 1 >= w->n || strcmp(test_sym(c->s, &c->tm, w->ips[i]), "sort_caller") ||
	    strcmp(test_sym(c->s, &c->tm, w->ips[i + 1]), "work_qsort"))
		return false;
	return test_reaches_start(c->s, &c->tm, w->ips, w->n, i + 2, w->stop, via_start_call);
}

TEST(unwind_through_qsort)
{
	struct recording rec;
	struct check c;
	struct unwound *w = malloc(sizeof(*w));
	size_t off, in_cmp = 0, full = 0, named_msort = 0, shown = 0;
	struct perfev_record d;
	char text[2048];

	CHECK(w);
	if (!record_self(work_qsort, 0.2, &rec) || !check_begin(&c)) {
		free(w);
		free(rec.buf);
		return;
	}
	for (off = 0; next_user_sample(&rec, &off, &d);) {
		size_t i;
		bool via;

		if (!unwind_sample(&c, &d.u.sample, w))
			break;
		if (!w->n || strcmp(test_sym(c.s, &c.tm, w->ips[0]), "cmp_burn"))
			continue;
		in_cmp++;
		if (full_qsort_chain(&c, w, &via)) {
			full++;
			for (i = 1; i < w->n; i++)
				if (strstr(test_sym(c.s, &c.tm, w->ips[i]), "msort")) {
					named_msort++;
					break;
				}
		} else if (shown++ < 5) {
			test_chain_text(c.s, &c.tm, w->ips, w->n, w->stop, text, sizeof(text));
			printf("  not a full chain: %s\n", text);
		}
	}
	report_cost("qsort", &c);
	printf("  qsort: %zu samples in the comparison, %zu full (%zu naming msort)\n", in_cmp,
	       full, named_msort);
	EXPECT(in_cmp >= 100, "only %zu samples in the comparison function", in_cmp);
	EXPECT(full * 100 >= in_cmp * 99, "%zu of %zu samples show the whole chain", full, in_cmp);
	check_end(&c);
	free(rec.buf);
	free(w);
}

/* The first sample of a short recording of the chain, copied out: registers and stack. */
struct one_sample {
	uint64_t regs[UNWIND_NREGS];
	uint8_t *stack;
	size_t stack_size;
	uint32_t pid, tid;
};

static bool take_one(struct one_sample *o)
{
	struct recording rec;
	struct perfev_record d;
	size_t off;

	memset(o, 0, sizeof(*o));
	if (!record_self(work_chain, 0.02, &rec)) {
		free(rec.buf);
		return false;
	}
	for (off = 0; next_user_sample(&rec, &off, &d);) {
		if (d.u.sample.regs_user_abi != PERF_SAMPLE_REGS_ABI_64 ||
		    d.u.sample.stack_user_dyn_size < 256)
			continue;
		memcpy(o->regs, d.u.sample.regs_user, sizeof(o->regs));
		o->stack_size = (size_t)d.u.sample.stack_user_dyn_size;
		o->stack = malloc(o->stack_size);
		if (o->stack)
			memcpy(o->stack, d.u.sample.stack_user, o->stack_size);
		o->pid = d.u.sample.pid;
		o->tid = d.u.sample.tid;
		break;
	}
	free(rec.buf);
	if (!o->stack)
		harness_fail(__FILE__, __LINE__, "no sample with a user stack");
	return o->stack != NULL;
}

/* Unwind @o with unwinder @u over @c's space; the frames in @w. */
static int unwind_one(struct check *c, struct perfev__unwinder *u, const struct one_sample *o,
		      struct unwound *w)
{
	struct perfev__unwind_regs regs = {
	    .abi = PERF_SAMPLE_REGS_ABI_64, .mask = UNWIND_REGS_MASK, .regs = o->regs};

	return perfev__unwind(u, &c->space, o->pid, o->tid, &regs, o->stack, o->stack_size, w->ips,
			      MAX_FRAMES, &w->n, &w->stop);
}

TEST(unwind_space_reported_once)
{
	struct perfev__unwind_stats st1, st2, st3, st4, r1, r2;
	struct one_sample o;
	struct check c;
	struct unwound w1, w2;

	if (!take_one(&o))
		return;
	if (!check_begin(&c)) {
		free(o.stack);
		return;
	}
	/* libdwfl's walk: the modules of the space reported once, their ELF files mapped once. */
	CHECK_INT(unwind_one(&c, c.ref, &o, &w1), 0);
	perfev__unwinder_stats(c.ref, &st1);
	CHECK_INT(unwind_one(&c, c.ref, &o, &w2), 0);
	perfev__unwinder_stats(c.ref, &st2);
	CHECK_INT(w2.n, w1.n);
	CHECK(!memcmp(w1.ips, w2.ips, w1.n * sizeof(w1.ips[0])));
	CHECK_INT(w1.stop, PERFEV__UNWIND_END);
	CHECK_INT(st1.reports, 1);
	CHECK_INT(st2.reports, 1);
	CHECK(st1.modules >= 2 && st1.elf_maps >= 2);
	CHECK_U64(st2.modules, st1.modules);
	CHECK_U64(st2.elf_maps, st1.elf_maps);
	CHECK_INT(st2.unwinds, 2);
	CHECK_INT(st2.libdwfl_walks, 2);
	/* A new generation re-reports, but keeps the modules still mapped, parsed CFI and all. */
	c.space.generation++;
	CHECK_INT(unwind_one(&c, c.ref, &o, &w2), 0);
	perfev__unwinder_stats(c.ref, &st3);
	CHECK_INT(st3.reports, 2);
	CHECK_U64(st3.modules, st1.modules);
	CHECK_U64(st3.elf_maps, st1.elf_maps);
	CHECK_INT(w2.n, w1.n);
	/* Forgotten: everything anew but the files' headers. */
	perfev__unwinder_forget(c.ref, c.space.key);
	CHECK_INT(unwind_one(&c, c.ref, &o, &w2), 0);
	perfev__unwinder_stats(c.ref, &st4);
	CHECK_INT(st4.reports, 3);
	CHECK_U64(st4.modules, 2 * st1.modules);
	CHECK_U64(st4.elf_maps, 2 * st1.elf_maps);
	CHECK_U64(st4.files, st1.files);
	CHECK_INT(w2.n, w1.n);
	/* The cached rules: each row read once, whatever the space. */
	CHECK_INT(unwind_one(&c, c.u, &o, &w2), 0);
	perfev__unwinder_stats(c.u, &r1);
	CHECK_INT(w2.n, w1.n);
	CHECK(!memcmp(w1.ips, w2.ips, w1.n * sizeof(w1.ips[0])));
	CHECK_INT(r1.libdwfl_walks, 0);
	CHECK(r1.rules >= w1.n - 1);
	perfev__unwinder_forget(c.u, c.space.key);
	CHECK_INT(unwind_one(&c, c.u, &o, &w2), 0);
	CHECK_INT(unwind_one(&c, c.u, &o, &w2), 0);
	perfev__unwinder_stats(c.u, &r2);
	CHECK_INT(r2.reports, 2);
	CHECK_U64(r2.rules, r1.rules);
	CHECK_INT(r2.libdwfl_walks, 0);
	CHECK_INT(w2.n, w1.n);
	check_end(&c);
	free(o.stack);
}

TEST(unwind_stops)
{
	struct one_sample o;
	struct check c;
	struct unwound w;
	uint64_t regs_copy[UNWIND_NREGS];
	struct perfev__unwind_regs regs = {.abi = PERF_SAMPLE_REGS_ABI_64,
					   .mask = UNWIND_REGS_MASK};
	size_t full_n;

	if (!take_one(&o))
		return;
	if (!check_begin(&c)) {
		free(o.stack);
		return;
	}
	regs.regs = o.regs;
	CHECK_INT(UNWIND_BOTH(&c, o.pid, o.tid, &regs, o.stack, o.stack_size, MAX_FRAMES, &w), 0);
	CHECK_INT(w.stop, PERFEV__UNWIND_END);
	full_n = w.n;
	CHECK(full_n >= 6);
	/* At most @max frames. */
	CHECK_INT(UNWIND_BOTH(&c, o.pid, o.tid, &regs, o.stack, o.stack_size, 3, &w), 0);
	CHECK_INT(w.n, 3);
	CHECK_INT(w.stop, PERFEV__UNWIND_MAX_DEPTH);
	/* A copy cut short: the frames it holds, then SHORT. */
	CHECK_INT(UNWIND_BOTH(&c, o.pid, o.tid, &regs, o.stack, 64, MAX_FRAMES, &w), 0);
	CHECK(w.n >= 1 && w.n < full_n);
	CHECK_INT(w.stop, PERFEV__UNWIND_SHORT);
	/* No registers: a kernel thread's sample, a 32-bit process, a mask without IP. */
	regs.abi = PERF_SAMPLE_REGS_ABI_NONE;
	CHECK_INT(UNWIND_BOTH(&c, o.pid, o.tid, &regs, o.stack, o.stack_size, MAX_FRAMES, &w), 0);
	CHECK_INT(w.n, 0);
	CHECK_INT(w.stop, PERFEV__UNWIND_NO_REGS);
	regs.abi = PERF_SAMPLE_REGS_ABI_32;
	CHECK_INT(UNWIND_BOTH(&c, o.pid, o.tid, &regs, o.stack, o.stack_size, MAX_FRAMES, &w), 0);
	CHECK_INT(w.stop, PERFEV__UNWIND_NO_REGS);
	regs.abi = PERF_SAMPLE_REGS_ABI_64;
	regs.mask = UNWIND_REGS_MASK & ~(1ULL << UREG_IP);
	CHECK_INT(UNWIND_BOTH(&c, o.pid, o.tid, &regs, o.stack, o.stack_size, MAX_FRAMES, &w), 0);
	CHECK_INT(w.stop, PERFEV__UNWIND_NO_REGS);
	regs.mask = UNWIND_REGS_MASK;
	/* A pc in no map, and no frame pointer to fall back on. */
	memcpy(regs_copy, o.regs, sizeof(regs_copy));
	regs_copy[UREG_IP] = 0x10;
	regs_copy[UREG_BP] = 0;
	regs.regs = regs_copy;
	CHECK_INT(UNWIND_BOTH(&c, o.pid, o.tid, &regs, o.stack, o.stack_size, MAX_FRAMES, &w), 0);
	CHECK_INT(w.n, 1);
	CHECK_INT(w.stop, PERFEV__UNWIND_UNMAPPED);
	check_end(&c);
	free(o.stack);
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

TEST(unwind_hostile_input)
{
	struct one_sample o;
	struct check c;
	struct unwound w;
	uint64_t regs_copy[UNWIND_NREGS], seed = 0x9e3779b97f4a7c15ULL;
	struct perfev__unwind_regs regs = {.abi = PERF_SAMPLE_REGS_ABI_64,
					   .mask = UNWIND_REGS_MASK};
	struct perfev__unwind_map *maps;
	char dir[] = "/tmp/perfev-unwind-XXXXXX", trunc[64], fifo[64];
	uint8_t *garbage;
	size_t i, j, nmaps;
	int fd;

	if (!take_one(&o))
		return;
	if (!check_begin(&c)) {
		free(o.stack);
		return;
	}
	CHECK(mkdtemp(dir));
	/* Maps of files that are not there, cut short, a FIFO, a device. */
	snprintf(trunc, sizeof(trunc), "%s/trunc", dir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	fd = open(trunc, O_WRONLY | O_CREAT | O_EXCL, 0600);
	CHECK(fd >= 0);
	CHECK(write(fd, "\177ELF\2\1\1", 7) == 7);
	close(fd);
	CHECK(mkfifo(fifo, 0600) == 0);
	nmaps = c.tm.n + 4;
	maps = calloc(nmaps, sizeof(*maps));
	CHECK(maps);
	maps[0] = (struct perfev__unwind_map){.start = 0x10000, .end = 0x20000, .path = trunc};
	maps[1] = (struct perfev__unwind_map){.start = 0x20000, .end = 0x30000, .path = fifo};
	maps[2] =
	    (struct perfev__unwind_map){.start = 0x30000, .end = 0x40000, .path = "/dev/zero"};
	maps[3] = (struct perfev__unwind_map){
	    .start = 0x40000, .end = 0x50000, .pgoff = 1ULL << 40, .path = "/nonexistent/lib.so"};
	memcpy(maps + 4, c.tm.m, c.tm.n * sizeof(*maps));
	c.space.maps = maps;
	c.space.nmaps = nmaps;
	c.space.generation++;
	garbage = malloc(o.stack_size);
	CHECK(garbage);
	regs.regs = regs_copy;
	for (i = 0; i < 3000 && !harness_done(); i++) {
		size_t size = (size_t)(rnd(&seed) % (o.stack_size + 1));
		int mode = (int)(i % 3);

		/* Random registers, or the real ones with the pc moved; a stack of garbage, or the
		 * real one. */
		for (j = 0; j < UNWIND_NREGS; j++)
			regs_copy[j] = mode == 0 ? rnd(&seed) : o.regs[j];
		if (mode == 1)
			regs_copy[UREG_IP] =
			    maps[4 + rnd(&seed) % c.tm.n].start + rnd(&seed) % 4096;
		if (mode == 2)
			regs_copy[UREG_IP] = maps[rnd(&seed) % 4].start + rnd(&seed) % 0x10000;
		for (j = 0; j < size; j++)
			garbage[j] = (uint8_t)rnd(&seed);
		if (mode != 0 && i % 2)
			memcpy(garbage, o.stack, size);
		CHECK_INT(UNWIND_BOTH(&c, o.pid, o.tid, &regs, garbage, size, MAX_FRAMES, &w), 0);
		CHECK(w.n <= MAX_FRAMES);
		CHECK((unsigned int)w.stop < PERFEV__UNWIND_NR_STOPS);
		if (mode == 2) {
			/* A pc in a file that cannot be read: no CFI for it. */
			CHECK(w.n >= 1);
			EXPECT(w.n > 1 || w.stop == PERFEV__UNWIND_NO_CFI,
			       "stop %s for an unread file", perfev__unwind_stop_name(w.stop));
		}
	}
	free(garbage);
	free(maps);
	unlink(trunc);
	unlink(fifo);
	rmdir(dir);
	check_end(&c);
	free(o.stack);
}
