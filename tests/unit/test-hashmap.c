// SPDX-License-Identifier: LGPL-2.1-or-later
/* The hash map and the growable array every table of the tree uses. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/internal.h"
#include "harness.h"

/* A weak hash: every key collides with many others, so probing and deletion are exercised. */
static uint64_t weak_hash(uint64_t key, void *ctx)
{
	return key % 7;
}

static void check_against_reference(perfev__hash_fn hash)
{
	enum { N = 20000 };
	static unsigned char present[N];
	struct perfev__hashmap m;
	struct perfev__hashmap_entry *e;
	uint64_t v, seed = 12345;
	size_t i, count = 0, seen = 0;
	bool ok = true;

	memset(present, 0, sizeof(present));
	perfev__hashmap_init(&m, hash, NULL, NULL);
	for (i = 0; i < 200000; i++) {
		uint64_t k;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		k = (seed >> 33) % (hash == weak_hash ? 300 : N);
		if ((seed >> 20) & 1) {
			int err = perfev__hashmap_add(&m, k, k * 3);

			if (err != (present[k] ? -EEXIST : 0))
				ok = false;
			if (!present[k])
				count++;
			present[k] = 1;
		} else {
			uint64_t ok_key = 0, ok_val = 0;
			bool was = perfev__hashmap_delete(&m, k, &ok_key, &ok_val);

			if (was != present[k] || (was && (ok_key != k || ok_val != k * 3)))
				ok = false;
			if (present[k])
				count--;
			present[k] = 0;
		}
	}
	CHECK(ok);
	CHECK_U64(perfev__hashmap_size(&m), count);
	for (i = 0; i < N; i++) {
		bool f = perfev__hashmap_find(&m, i, &v);

		if (f != present[i] || (f && v != i * 3)) {
			ok = false;
			break;
		}
	}
	CHECK(ok);
	perfev__hashmap_for_each(&m, e)
		seen++;
	CHECK_U64(seen, count);
	perfev__hashmap_release(&m);
}

TEST(hashmap_matches_reference)
{
	check_against_reference(perfev__hash_int_key);
}

TEST(hashmap_collisions_and_deletes)
{
	check_against_reference(weak_hash);
}

TEST(hashmap_string_keys)
{
	struct perfev__hashmap m;
	char a[] = "libc.so.6", b[] = "libc.so.6";
	uint64_t k = 0, v = 0;
	bool added;

	perfev__hashmap_init(&m, perfev__hash_str_key, perfev__equal_str_key, NULL);
	CHECK_INT(perfev__hashmap_add(&m, perfev__ptr_key(a), 1), 0);
	/* Another string with the same text is the same key. */
	CHECK_INT(perfev__hashmap_add(&m, perfev__ptr_key(b), 2), -EEXIST);
	CHECK_INT(perfev__hashmap_set(&m, perfev__ptr_key(b), 3, &k, &v), 1);
	CHECK(perfev__key_ptr(k) == a);
	CHECK_U64(v, 1);
	CHECK(perfev__hashmap_find(&m, perfev__ptr_key("libc.so.6"), &v));
	CHECK_U64(v, 3);
	CHECK(!perfev__hashmap_find(&m, perfev__ptr_key("ld.so"), NULL));
	CHECK(perfev__hashmap_upsert(&m, perfev__ptr_key("ld.so"), &added) != NULL);
	CHECK(added);
	CHECK(perfev__hashmap_upsert(&m, perfev__ptr_key("ld.so"), &added)->value == 0);
	CHECK(!added);
	CHECK_U64(perfev__hashmap_size(&m), 2);
	perfev__hashmap_clear(&m);
	CHECK_U64(perfev__hashmap_size(&m), 0);
	CHECK(!perfev__hashmap_find(&m, perfev__ptr_key(a), NULL));
	perfev__hashmap_release(&m);
	/* An empty map answers without a table. */
	CHECK(!perfev__hashmap_find(&m, 1, NULL));
	CHECK(!perfev__hashmap_delete(&m, 1, NULL, NULL));
}

TEST(array_push)
{
	PERFEV__ARRAY(uint32_t) a = {0};
	size_t i;
	bool ok = true;

	for (i = 0; i < 1000; i++) {
		uint32_t *p = perfev__array_push(&a);

		if (!p || *p != 0) {
			ok = false;
			break;
		}
		*p = (uint32_t)i;
	}
	CHECK(ok);
	CHECK_U64(a.n, 1000);
	CHECK(a.cap >= 1000);
	for (i = 0; i < a.n; i++)
		if (a.v[i] != i)
			ok = false;
	CHECK(ok);
	perfev__array_release(&a);
	CHECK(a.v == NULL && a.n == 0);
}

TEST(array_append)
{
	PERFEV__ARRAY(unsigned char) b = {0};
	size_t i;
	bool ok = true;

	for (i = 0; i < 300; i++)
		if (perfev__array_append(&b, "abc", 3))
			ok = false;
	CHECK(ok);
	CHECK_U64(b.n, 900);
	CHECK(!memcmp(b.v + 897, "abc", 3));
	CHECK_INT(perfev__array_append(&b, NULL, 0), 0);
	CHECK_U64(b.n, 900);
	/* A count that cannot be added leaves the array as it was. */
	CHECK_INT(perfev__array_append(&b, "x", SIZE_MAX), -ENOMEM);
	CHECK_U64(b.n, 900);
	perfev__array_release(&b);
}

TEST(arena_pieces_stay_put)
{
	struct perfev__arena a = {0};
	unsigned char *p[2000];
	size_t i, k;
	bool ok = true;

	for (i = 0; i < 2000; i++) {
		size_t size = i % 97 == 0 ? 70000 : i % 13 + 1, align = (size_t)1 << (i % 5);

		p[i] = perfev__arena_alloc(&a, size, align);
		if (!p[i] || (uintptr_t)p[i] % align) {
			ok = false;
			break;
		}
		/* Zeroed, then marked: a piece handed out twice shows. */
		for (k = 0; k < size; k++)
			if (p[i][k])
				ok = false;
		memset(p[i], (int)(i & 0xff) | 1, size);
	}
	CHECK(ok);
	for (i = 0; ok && i < 2000; i++)
		if (p[i][0] != ((i & 0xff) | 1))
			ok = false;
	CHECK(ok);
	perfev__arena_release(&a);
	CHECK(a.blocks.n == 0 && a.left == 0);
}

TEST(intern_strings_and_bytes)
{
	struct perfev__intern t, moved;
	char buf[32];
	const char *a, *b;
	size_t i, idx = 99;
	bool ok = true;

	perfev__intern_init(&t);
	a = perfev__intern_str(&t, "main");
	snprintf(buf, sizeof(buf), "ma%s", "in");
	b = perfev__intern_str(&t, buf);
	/* Equal strings are one pointer, and a copy of neither argument. */
	CHECK(a == b);
	CHECK(a != buf);
	CHECK_STR(a, "main");
	CHECK_U64(perfev__intern_count(&t), 1);
	/* Indexes in the order first seen, stable as the table grows. */
	for (i = 0; i < 5000; i++) {
		snprintf(buf, sizeof(buf), "fn%zu", i);
		if (perfev__intern_bytes(&t, buf, strlen(buf), &idx) != 1 || idx != i + 1)
			ok = false;
	}
	CHECK(ok);
	CHECK(perfev__intern_str(&t, "main") == a);
	CHECK_INT(perfev__intern_bytes(&t, "fn1234", 6, &idx), 0);
	CHECK_U64(idx, 1235);
	CHECK_STR(perfev__intern_at(&t, 1235), "fn1234");
	/* A prefix is another key; bytes with NULs in them are keys too. */
	CHECK_INT(perfev__intern_bytes(&t, "fn12", 4, &idx), 0);
	CHECK_INT(perfev__intern_bytes(&t, "fn1", 2, &idx), 1);
	CHECK_INT(perfev__intern_bytes(&t, "a\0b", 3, &idx), 1);
	CHECK_INT(perfev__intern_bytes(&t, "a\0c", 3, &i), 1);
	CHECK(i != idx);
	CHECK_INT(perfev__intern_bytes(&t, "", 0, &idx), 1);
	CHECK_STR(perfev__intern_at(&t, idx), "");
	/* A moved interner goes on working. */
	memcpy(&moved, &t, sizeof(t));
	memset(&t, 0, sizeof(t));
	CHECK(perfev__intern_str(&moved, "main") == a);
	CHECK_INT(perfev__intern_bytes(&moved, "fn4999", 6, &idx), 0);
	CHECK_U64(idx, 5000);
	perfev__intern_release(&moved);
	CHECK_U64(perfev__intern_count(&moved), 0);
}
