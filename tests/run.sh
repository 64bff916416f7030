#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Run every test and count the cases: unit tests (plain and under
# ASan+UBSan), kernel tests, fuzz corpus replays and CLI tests.  Each test
# prints PASS/FAIL/SKIP lines; a test that dies without saying why counts
# as one failure.  Ends with "N passed, N failed, N skipped".
set -u
O=${O:-build}
export PERFEV="$O/perfev"
export PERFEV_TEST_DATA="${PERFEV_TEST_DATA:-tests/data}"
export PERFEV_BUILD="$O"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export LC_ALL=C

passed=0 failed=0 skipped=0
log="$O/test-log.txt"
failures="$O/test-failures.txt"
: > "$log"
: > "$failures"

# Tracepoint tests need tracefs; mount it when we can and it is missing.
if [ "$(id -u)" -eq 0 ] && [ -d /sys/kernel/tracing ] && [ ! -d /sys/kernel/tracing/events ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
fi

run_one() {
	label=$1
	shift
	out=$("$@" 2>>"$log")
	rc=$?
	printf '%s\n' "$out" | while IFS= read -r line; do
		case "$line" in
		PASS*|FAIL*|SKIP*) printf '%-28s %s\n' "$label" "$line" ;;
		*) [ -n "$line" ] && printf '%-28s   %s\n' "$label" "$line" ;;
		esac
	done
	p=$(printf '%s\n' "$out" | grep -c '^PASS')
	f=$(printf '%s\n' "$out" | grep -c '^FAIL')
	s=$(printf '%s\n' "$out" | grep -c '^SKIP')
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ] && [ "$f" -eq 0 ]; then
		printf '%-28s FAIL exited with status %s (see %s)\n' "$label" "$rc" "$log" |
			tee -a "$failures"
		f=1
	fi
	printf '%s\n' "$out" | grep '^FAIL' | cut -c 1-400 | sed "s|^|$label |" >>"$failures"
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
}

for t in "$O"/tests/unit/test-*; do
	[ -x "$t" ] && run_one "unit/${t##*/}" "$t"
done
for t in "$O"/san/tests/unit/test-*; do
	[ -x "$t" ] && run_one "asan/${t##*/}" "$t"
done
for t in "$O"/san/fuzz/replay-*; do
	[ -x "$t" ] || continue
	name=${t##*/replay-}
	run_one "fuzz/$name" "$t" "fuzz/corpus/$name"
done
for t in "$O"/tests/kernel/test-*; do
	[ -x "$t" ] && run_one "kernel/${t##*/}" "$t"
done
# A process a test leaves running (a background recording, a server) would
# change what the next tests see: each CLI test's processes carry its name in
# their environment, and those still alive once it ends are named and killed.
reap() {
	left=
	for e in /proc/[0-9]*/environ; do
		if grep -qzx "PERFEV_TEST_OWNER=$1" "$e" 2>/dev/null; then
			p=${e#/proc/}
			p=${p%/environ}
			left="$left $p($(cat "/proc/$p/comm" 2>/dev/null))"
			kill -9 "$p" 2>/dev/null
		fi
	done
	[ -z "$left" ] || printf '%-28s   left running, killed:%s\n' "$1" "$left" | tee -a "$log"
}
for t in tests/cli/test-*.sh; do
	[ -f "$t" ] || continue
	export PERFEV_TEST_OWNER="cli/${t##*/}"
	run_one "$PERFEV_TEST_OWNER" sh "$t"
	unset PERFEV_TEST_OWNER
	reap "cli/${t##*/}"
done

# The failures again, where the end of a long log shows them.
if [ -s "$failures" ]; then
	echo "Failed:"
	sed 's/^/  /' "$failures"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
