#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The CPU perfev top uses against perf top's, on the same load:
#
#   perfev top --stdio -F 4000 -a -d 1      (output to /dev/null)
#   perf top   --stdio -F 4000 -a -d 1
#
# each run for TOP_SECS seconds (default 10) while TOP_LOAD (default
# build/bench/top-spin) spins on one CPU; the tools run one after the
# other, alternating for TOP_ROUNDS rounds (default 2), perfev first.  A
# tool's CPU time is its utime + stime from /proc/PID/stat (every
# thread), read just before it is stopped with SIGINT: its start-up
# (reading the kernel's symbols, describing the running processes) is
# included, as a user of either pays it.  Standard input is a silent pipe.  Prints machine-readable lines:
#
#   bench=top tool=perfev|perf round=R cpu_s=X wall_s=S samples_per_s=N
#   bench=top tool=perfev|perf cpu_s_median=X cpu_pct=P
#   bench=top ratio=perf/perfev=R       above 1: perfev uses less CPU
set -eu
PERFEV=${PERFEV:-build/perfev}
TOP_LOAD=${TOP_LOAD:-build/bench/top-spin}
SECS=${TOP_SECS:-10}
ROUNDS=${TOP_ROUNDS:-2}
HZ=$(getconf CLK_TCK)

if ! command -v perf >/dev/null 2>&1; then
	echo "bench=top skipped=perf-not-installed"
	exit 0
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/perfev-bench-top.XXXXXX")
load=
trap '[ -n "$load" ] && kill "$load" 2>/dev/null; rm -rf "$TMP"' EXIT

# ticks PID: utime + stime of PID in clock ticks (fields 14 and 15, after the comm's ')').
ticks() {
	sed 's/.*) //' "/proc/$1/stat" | awk '{print $12 + $13}'
}

# measure TOOL ROUND CMD...: run CMD for SECS seconds and print its line.
measure() {
	tool=$1 round=$2
	shift 2
	"$@" >"$TMP/$tool.out" 2>"$TMP/$tool.err" <&3 &
	pid=$!
	sleep "$SECS"
	t=$(ticks "$pid")
	kill -INT "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	cpu=$(awk -v t="$t" -v hz="$HZ" 'BEGIN { printf "%.2f", t / hz }')
	# The rate each tool says it saw, from its last snapshot (perf: "PerfTop: N irqs/sec").
	rate=$(grep -Eo '(PerfTop: +[0-9]+|[0-9]+ samples/s)' "$TMP/$tool.out" | tail -1 |
		grep -Eo '[0-9]+' | tail -1)
	echo "bench=top tool=$tool round=$round cpu_s=$cpu wall_s=$SECS samples_per_s=${rate:-?}"
	echo "$cpu" >>"$TMP/$tool.cpu"
}

# Standard input a pipe that stays open and silent: perf top reads keys from it, and at
# the end of /dev/null it prints its key help without end.
mkfifo "$TMP/keys"
exec 3<>"$TMP/keys"
"$TOP_LOAD" $((2 * ROUNDS * (SECS + 2) + 10)) &
load=$!
r=1
while [ "$r" -le "$ROUNDS" ]; do
	measure perfev "$r" "$PERFEV" top --stdio -F 4000 -a -d 1
	measure perf "$r" perf top --stdio -F 4000 -a -d 1
	r=$((r + 1))
done

median() {
	sort -n "$1" | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
pe=$(median "$TMP/perfev.cpu")
pf=$(median "$TMP/perf.cpu")
for tool in perfev perf; do
	m=$(median "$TMP/$tool.cpu")
	echo "bench=top tool=$tool cpu_s_median=$m cpu_pct=$(awk -v c="$m" -v s="$SECS" 'BEGIN { printf "%.1f", 100 * c / s }')"
done
echo "bench=top ratio=perf/perfev=$(awk -v a="$pf" -v b="$pe" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "inf" }')"
