// SPDX-License-Identifier: LGPL-2.1-or-later
/* DWARF unwinding of this thread's own stack, captured in place: no kernel sampling needed. */
#include <stdlib.h>
#include <linux/perf_event.h>
#include "unwind-common.h"

#define MAX_FRAMES  64
#define STACK_BYTES 8192

#if defined(__clang__)
#define CHAIN __attribute__((noinline, used))
#else
#define CHAIN __attribute__((noinline, noipa, used))
#endif

/* Registers in perf's order under UNWIND_REGS_MASK, and the stack above them. */
struct snap {
	uint64_t regs[UNWIND_NREGS];
	uint8_t stack[STACK_BYTES];
	size_t size;
	const struct test_maps *tm;
};

static volatile uint64_t sink;

/* The stack as it is, sanitizer redzones included: a byte copy the sanitizer does not check. */
__attribute__((noinline, no_sanitize_address)) static void copy_raw(uint8_t *dst,
								    const uint8_t *src, size_t n)
{
	volatile const uint8_t *s = src;
	size_t i;

	for (i = 0; i < n; i++)
		dst[i] = s[i];
}

#if defined(__x86_64__)
/* The registers at one point of this function, then the stack above its stack pointer. */
CHAIN static void capture(struct snap *s)
{
	uint64_t *r = s->regs;
	const struct perfev__unwind_map *m;
	uint64_t sp;

	memset(r, 0, sizeof(s->regs));
	/* Offsets: index in perf's order (AX BX CX DX SI DI BP SP IP, then R8.. at 12) times 8. */
	__asm__ volatile("movq %%rax, 0(%0)\n\t"
			 "movq %%rbx, 8(%0)\n\t"
			 "movq %%rcx, 16(%0)\n\t"
			 "movq %%rdx, 24(%0)\n\t"
			 "movq %%rsi, 32(%0)\n\t"
			 "movq %%rdi, 40(%0)\n\t"
			 "movq %%rbp, 48(%0)\n\t"
			 "movq %%rsp, 56(%0)\n\t"
			 "leaq 0(%%rip), %%rax\n\t"
			 "movq %%rax, 64(%0)\n\t"
			 "movq %%r8, 96(%0)\n\t"
			 "movq %%r9, 104(%0)\n\t"
			 "movq %%r10, 112(%0)\n\t"
			 "movq %%r11, 120(%0)\n\t"
			 "movq %%r12, 128(%0)\n\t"
			 "movq %%r13, 136(%0)\n\t"
			 "movq %%r14, 144(%0)\n\t"
			 "movq %%r15, 152(%0)\n\t"
			 :
			 : "r"(r)
			 : "rax", "memory");
	sp = r[UREG_SP];
	m = test_map_of(s->tm, sp);
	s->size = 0;
	if (!m)
		return;
	s->size = m->end - sp < STACK_BYTES ? (size_t)(m->end - sp) : STACK_BYTES;
	copy_raw(s->stack, (const uint8_t *)(uintptr_t)sp, s->size);
}
#else
CHAIN static void capture(struct snap *s)
{
	s->size = 0;
}
#endif

CHAIN static void chain_b(struct snap *s)
{
	capture(s);
	sink++;
}

CHAIN static void chain_a(struct snap *s)
{
	chain_b(s);
	sink++;
}

/* Both walks (cached rules, libdwfl alone) of one stack must give the same frames and stop. */
static bool unwind_both(struct perfev__unwinder *u, struct perfev__unwinder *ref,
			const struct perfev__unwind_space *space, const uint64_t *regs,
			uint64_t abi, const void *stack, size_t size, uint64_t *ips, size_t *n,
			enum perfev__unwind_stop *stop)
{
	struct perfev__unwind_regs r = {.abi = abi, .mask = UNWIND_REGS_MASK, .regs = regs};
	uint64_t ref_ips[MAX_FRAMES];
	enum perfev__unwind_stop ref_stop;
	size_t ref_n;
	int a, b;

	a = perfev__unwind(u, space, 1, 1, &r, stack, size, ips, MAX_FRAMES, n, stop);
	b = perfev__unwind(ref, space, 1, 1, &r, stack, size, ref_ips, MAX_FRAMES, &ref_n,
			   &ref_stop);
	if (a || b) {
		harness_fail(__FILE__, __LINE__, "perfev__unwind: %d and %d", a, b);
		return false;
	}
	if (*n != ref_n || *stop != ref_stop || memcmp(ips, ref_ips, *n * sizeof(*ips))) {
		harness_fail(__FILE__, __LINE__, "cached rules: %zu frames, %s; libdwfl: %zu, %s",
			     *n, perfev__unwind_stop_name(*stop), ref_n,
			     perfev__unwind_stop_name(ref_stop));
		return false;
	}
	return true;
}

struct setup {
	struct perfev__unwinder *u, *ref;
	struct perfev_symbolizer *s;
	struct test_maps tm;
	struct perfev__unwind_space space;
	struct snap *snap;
};

static bool setup(struct setup *t)
{
	memset(t, 0, sizeof(*t));
#if !defined(__x86_64__)
	harness_skip("x86_64", "unwinding is done for x86_64 only");
	return false;
#endif
	if (perfev__unwinder_new(&t->u) || perfev__unwinder_new(&t->ref) ||
	    perfev_symbolizer_new(NULL, &t->s) || !test_maps_load(&t->tm) ||
	    !(t->snap = calloc(1, sizeof(*t->snap)))) {
		harness_fail(__FILE__, __LINE__, "cannot set up");
		return false;
	}
	perfev__unwinder_set_libdwfl_only(t->ref, true);
	t->space.key = t;
	t->space.generation = 1;
	t->space.maps = t->tm.m;
	t->space.nmaps = t->tm.n;
	t->snap->tm = &t->tm;
	chain_a(t->snap);
	if (t->snap->size < 512) {
		harness_fail(__FILE__, __LINE__, "no stack captured");
		return false;
	}
	return true;
}

static void teardown(struct setup *t)
{
	perfev__unwinder_free(t->u);
	perfev__unwinder_free(t->ref);
	perfev_symbolizer_free(t->s);
	test_maps_release(&t->tm);
	free(t->snap);
}

TEST(unwind_own_stack)
{
	struct setup t;
	uint64_t ips[MAX_FRAMES];
	enum perfev__unwind_stop stop;
	char text[2048];
	size_t n;
	bool via;

	if (!setup(&t)) {
		teardown(&t);
		return;
	}
	if (unwind_both(t.u, t.ref, &t.space, t.snap->regs, PERF_SAMPLE_REGS_ABI_64, t.snap->stack,
			t.snap->size, ips, &n, &stop)) {
		test_chain_text(t.s, &t.tm, ips, n, stop, text, sizeof(text));
		EXPECT(n >= 4 && !strcmp(test_sym(t.s, &t.tm, ips[0]), "capture") &&
			   !strcmp(test_sym(t.s, &t.tm, ips[1]), "chain_b") &&
			   !strcmp(test_sym(t.s, &t.tm, ips[2]), "chain_a") &&
			   test_reaches_start(t.s, &t.tm, ips, n, 3, stop, &via),
		       "frames: %s", text);
	}
	/* The stack copy cut short after a few frames. */
	if (unwind_both(t.u, t.ref, &t.space, t.snap->regs, PERF_SAMPLE_REGS_ABI_64, t.snap->stack,
			48, ips, &n, &stop))
		EXPECT(n >= 1 && stop == PERFEV__UNWIND_SHORT, "%zu frames, %s", n,
		       perfev__unwind_stop_name(stop));
	/* No registers to start from. */
	if (unwind_both(t.u, t.ref, &t.space, t.snap->regs, PERF_SAMPLE_REGS_ABI_NONE,
			t.snap->stack, t.snap->size, ips, &n, &stop))
		EXPECT(n == 0 && stop == PERFEV__UNWIND_NO_REGS, "%zu frames, %s", n,
		       perfev__unwind_stop_name(stop));
	if (unwind_both(t.u, t.ref, &t.space, t.snap->regs, PERF_SAMPLE_REGS_ABI_32, t.snap->stack,
			t.snap->size, ips, &n, &stop))
		EXPECT(n == 0 && stop == PERFEV__UNWIND_NO_REGS, "%zu frames, %s", n,
		       perfev__unwind_stop_name(stop));
	teardown(&t);
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

TEST(unwind_garbage)
{
	struct setup t;
	uint64_t ips[MAX_FRAMES], regs[UNWIND_NREGS], seed = 0x2545f4914f6cdd1dULL;
	enum perfev__unwind_stop stop;
	uint8_t *stack;
	size_t i, j, n;

	if (!setup(&t)) {
		teardown(&t);
		return;
	}
	stack = malloc(STACK_BYTES);
	CHECK(stack);
	for (i = 0; i < 2000 && !harness_done(); i++) {
		/* Exactly the bytes given: the sanitizer sees any read past them. */
		size_t size = (size_t)(rnd(&seed) % (t.snap->size + 1));
		uint8_t *copy = malloc(size ? size : 1);

		CHECK(copy);
		for (j = 0; j < UNWIND_NREGS; j++)
			regs[j] = i % 2 ? rnd(&seed) : t.snap->regs[j];
		if (i % 4 == 0)
			regs[UREG_IP] = t.tm.m[rnd(&seed) % t.tm.n].start + rnd(&seed) % 8192;
		for (j = 0; j < size; j++)
			stack[j] = (uint8_t)rnd(&seed);
		if (i % 3 == 0)
			memcpy(stack, t.snap->stack, size);
		memcpy(copy, stack, size);
		if (unwind_both(t.u, t.ref, &t.space, regs, PERF_SAMPLE_REGS_ABI_64, copy, size,
				ips, &n, &stop))
			EXPECT(n <= MAX_FRAMES && (unsigned int)stop < PERFEV__UNWIND_NR_STOPS,
			       "%zu frames", n);
		free(copy);
	}
	free(stack);
	teardown(&t);
}
