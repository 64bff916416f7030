/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NO_COVERAGE: a harness's own checks (loops over every byte of an
 * output, validators) are not the code under test.  Without coverage
 * instrumentation of their own, each of their loop iterations no longer
 * calls libFuzzer's comparison hooks, and the fuzzer's features are those
 * of the library: fewer, and the inputs kept for them fewer too.
 */
#ifndef PERFEV_FUZZ_NO_COVERAGE_H
#define PERFEV_FUZZ_NO_COVERAGE_H

#ifdef __clang__
#define NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define NO_COVERAGE /* the corpus replay (gcc): no coverage to leave out */
#endif

#endif /* PERFEV_FUZZ_NO_COVERAGE_H */
