// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A CPU-bound program with real call depth, for profiles that report
 * tools read: a recursive-descent expression evaluator (mutual recursion
 * expr -> term -> factor -> expr), a recursive quicksort, a binary tree
 * built, walked and freed recursively (malloc and free in libc), and a
 * hash over the sorted data, with small helpers the compiler inlines.
 * Built with frame pointers (-fno-omit-frame-pointer) so that
 * `record -g` unwinds every frame.
 *
 *   report-workload [MILLISECONDS]     CPU time to run, default 2500
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))
#define INLINE	 static inline __attribute__((always_inline))

static unsigned long rng_state = 88172645463325252UL;

INLINE unsigned long rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

INLINE unsigned long mix(unsigned long h, unsigned long v)
{
	h ^= v + 0x9e3779b97f4a7c15UL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdUL;
}

/* ---- expression evaluator: expr := term (('+'|'-') term)* ---------------- */

struct parser {
	const char *p;
};

static NOINLINE long expr(struct parser *ps, int depth);

INLINE void skip_blanks(struct parser *ps)
{
	while (*ps->p == ' ')
		ps->p++;
}

static NOINLINE long number(struct parser *ps)
{
	long v = 0;

	while (*ps->p >= '0' && *ps->p <= '9')
		v = v * 10 + (*ps->p++ - '0');
	return v;
}

static NOINLINE long factor(struct parser *ps, int depth)
{
	long v;

	skip_blanks(ps);
	if (*ps->p == '(') {
		ps->p++;
		v = expr(ps, depth + 1);
		skip_blanks(ps);
		if (*ps->p == ')')
			ps->p++;
		return v;
	}
	if (*ps->p == '-') {
		ps->p++;
		return -factor(ps, depth + 1);
	}
	return number(ps);
}

static NOINLINE long term(struct parser *ps, int depth)
{
	long v = factor(ps, depth);

	for (;;) {
		skip_blanks(ps);
		if (*ps->p == '*') {
			ps->p++;
			v *= factor(ps, depth);
		} else if (*ps->p == '/') {
			long d;

			ps->p++;
			d = factor(ps, depth);
			v = d ? v / d : v;
		} else {
			return v;
		}
	}
}

static NOINLINE long expr(struct parser *ps, int depth)
{
	long v = term(ps, depth);

	for (;;) {
		skip_blanks(ps);
		if (*ps->p == '+') {
			ps->p++;
			v += term(ps, depth);
		} else if (*ps->p == '-') {
			ps->p++;
			v -= term(ps, depth);
		} else {
			return v;
		}
	}
}

/* Writes a random expression nested up to @depth levels; returns its end. */
static NOINLINE char *gen_expr(char *out, char *end, int depth)
{
	static const char ops[] = "+-*/";
	int n = 2 + (int)(rng() % 3), i;

	for (i = 0; i < n && end - out > 64; i++) {
		if (i)
			*out++ = ops[rng() % 4], *out++ = ' ';
		if (depth > 0 && rng() % 3) {
			*out++ = '(';
			out = gen_expr(out, end, depth - 1);
			*out++ = ')';
		} else {
			out += sprintf(out, "%lu", rng() % 1000 + 1);
		}
		*out++ = ' ';
	}
	*out = 0;
	return out;
}

static NOINLINE long evaluate(int rounds)
{
	static char buf[1 << 16];
	struct parser ps;
	long sum = 0;
	int i;

	gen_expr(buf, buf + sizeof(buf), 8);
	for (i = 0; i < rounds; i++) {
		ps.p = buf;
		sum += expr(&ps, 0);
	}
	return sum;
}

/* ---- recursive quicksort ------------------------------------------------- */

INLINE void swap(unsigned long *a, unsigned long *b)
{
	unsigned long t = *a;

	*a = *b;
	*b = t;
}

INLINE unsigned long median3(unsigned long *v, size_t n)
{
	unsigned long a = v[0], b = v[n / 2], c = v[n - 1];

	if (a > b)
		swap(&a, &b);
	if (b > c)
		swap(&b, &c);
	if (a > b)
		swap(&a, &b);
	return b;
}

static NOINLINE size_t partition(unsigned long *v, size_t n)
{
	unsigned long pivot = median3(v, n);
	size_t i = 0, j = n - 1;

	for (;;) {
		while (v[i] < pivot)
			i++;
		while (v[j] > pivot)
			j--;
		if (i >= j)
			return j + 1;
		swap(&v[i++], &v[j--]);
	}
}

static NOINLINE void insertion_sort(unsigned long *v, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && v[j - 1] > v[j]; j--)
			swap(&v[j - 1], &v[j]);
}

static NOINLINE void quicksort(unsigned long *v, size_t n)
{
	size_t k;

	if (n <= 16) {
		insertion_sort(v, n);
		return;
	}
	k = partition(v, n);
	quicksort(v, k);
	quicksort(v + k, n - k);
}

static NOINLINE unsigned long hash_all(const unsigned long *v, size_t n)
{
	unsigned long h = 0;
	size_t i;

	for (i = 0; i < n; i++)
		h = mix(h, v[i]);
	return h;
}

static NOINLINE unsigned long sort_and_hash(size_t n)
{
	unsigned long *v = malloc(n * sizeof(*v)), h;
	size_t i;

	if (!v) {
		perror("report-workload: malloc");
		exit(1);
	}
	for (i = 0; i < n; i++)
		v[i] = rng();
	quicksort(v, n);
	h = hash_all(v, n);
	free(v);
	return h;
}

/* ---- binary tree: built, walked and freed recursively ---------------------- */

struct node {
	struct node *left, *right;
	unsigned long key;
};

static NOINLINE struct node *insert(struct node *t, unsigned long key)
{
	if (!t) {
		t = calloc(1, sizeof(*t));
		if (!t) {
			perror("report-workload: calloc");
			exit(1);
		}
		t->key = key;
		return t;
	}
	if (key < t->key)
		t->left = insert(t->left, key);
	else
		t->right = insert(t->right, key);
	return t;
}

static NOINLINE unsigned long walk(const struct node *t, unsigned long h)
{
	if (!t)
		return h;
	h = walk(t->left, h);
	h = mix(h, t->key);
	return walk(t->right, h);
}

static NOINLINE void release(struct node *t)
{
	if (!t)
		return;
	release(t->left);
	release(t->right);
	free(t);
}

static NOINLINE unsigned long tree_round(int n)
{
	struct node *t = NULL;
	unsigned long h;
	int i;

	for (i = 0; i < n; i++)
		t = insert(t, rng());
	h = walk(t, 0);
	release(t);
	return h;
}

/* ---- driver ----------------------------------------------------------------- */

static NOINLINE unsigned long one_round(void)
{
	unsigned long h = 0;

	h = mix(h, (unsigned long)evaluate(200));
	h = mix(h, sort_and_hash(20000));
	h = mix(h, tree_round(5000));
	return h;
}

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? strtod(argv[1], NULL) : 2500;
	unsigned long h = 0, rounds = 0;

	do {
		h = mix(h, one_round());
		rounds++;
	} while (cpu_ms() < ms);
	printf("%lu rounds, hash %016lx\n", rounds, h);
	return 0;
}
