#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# What perfev record --off-cpu costs, side by side with plain recording
# (perfev's and perf's) in one run, the cases interleaved:
#
#   sleepy: a workload that sleeps 1 ms and spins 0.2 ms, SLEEPS times (a
#   switch out and in per sleep): its wall time alone, under record -g,
#   under record -g --off-cpu, and under perf record -g; the overhead is
#   the workload's extra wall time (measured inside the recording by
#   spawn-time), and the file sizes are given;
#
#   plain: with BASE=an older perfev binary, record -- true and the CPU-bound
#   workload at -F 4000 -g, both binaries: --off-cpu must not slow plain
#   recording.
#
# Prints machine-readable lines:
#
#   bench=offcpu case=sleepy tool=none|perfev|perfev-offcpu|perf median_ms=X overhead_pct=Y
#     file_kb=K runs=N
#   bench=offcpu case=sleepy ratio=perfev-offcpu/perf (wall times)
#   bench=offcpu case=plain-true|plain-cpu tool=base|perfev median_ms=X runs=N
#   bench=offcpu case=plain-true|plain-cpu ratio=perfev/base
set -eu
PERFEV=${PERFEV:-build/perfev}
SPAWN_TIME=${SPAWN_TIME:-build/bench/spawn-time}
SLEEPY=${SLEEPY:-build/bench/offcpu-workload}
WORKLOAD=${WORKLOAD:-build/examples/workload}
BASE=${BASE:-}
N=${N:-11}
SLEEPS=${SLEEPS:-500}
ITER=${ITER:-200000000}
for f in "$SPAWN_TIME" "$SLEEPY" "$WORKLOAD" "$PERFEV"; do
	[ -x "$f" ] || { echo "bench=offcpu: $f is missing (make all)" >&2; exit 1; }
done
if ! "$PERFEV" record -q --off-cpu -o /dev/null -- true >/dev/null 2>&1; then
	echo "bench=offcpu skipped: perfev record --off-cpu cannot trace the scheduler here" >&2
	exit 0
fi
have_perf=
command -v perf >/dev/null 2>&1 && perf record -q -o /dev/null -- true >/dev/null 2>&1 && have_perf=1

dir=$(mktemp -d "${TMPDIR:-/tmp}/perfev-bench-offcpu.XXXXXX")
trap 'rm -rf "$dir"' EXIT

median() { sort -n "$1" | awk '{ a[NR] = $1 } END { printf "%.3f", a[int((NR + 1) / 2)] / 1e6 }'; }
kb() { echo $(( $(stat -c %s "$1") / 1024 )); }

# ---- a sleep-heavy workload ---------------------------------------------------------
tools="none perfev perfev-offcpu"
[ -n "$have_perf" ] && tools="$tools perf"
for t in $tools; do : >"$dir/s.$t"; done
i=0
while [ $i -lt "$N" ]; do
	for t in $tools; do
		case $t in
		none) "$SPAWN_TIME" 1 "$SLEEPY" "$SLEEPS" 1 0.2 ;;
		perfev) "$PERFEV" record -q -g -o "$dir/$t.data" -- \
			"$SPAWN_TIME" 1 "$SLEEPY" "$SLEEPS" 1 0.2 ;;
		perfev-offcpu) "$PERFEV" record -q -g --off-cpu -o "$dir/$t.data" -- \
			"$SPAWN_TIME" 1 "$SLEEPY" "$SLEEPS" 1 0.2 ;;
		perf) perf record -q -g -o "$dir/$t.data" -- \
			"$SPAWN_TIME" 1 "$SLEEPY" "$SLEEPS" 1 0.2 2>/dev/null ;;
		esac >>"$dir/s.$t"
	done
	i=$((i + 1))
done
base=$(median "$dir/s.none")
echo "bench=offcpu case=sleepy tool=none median_ms=$base runs=$N sleeps=$SLEEPS"
for t in $tools; do
	[ $t = none ] && continue
	m=$(median "$dir/s.$t")
	awk -v t="$t" -v m="$m" -v b="$base" -v r="$N" -v k="$(kb "$dir/$t.data")" 'BEGIN {
		printf "bench=offcpu case=sleepy tool=%s median_ms=%s overhead_pct=%.2f file_kb=%d runs=%d\n",
			t, m, (m - b) / b * 100, k, r }'
done
[ -n "$have_perf" ] &&
	awk -v a="$(median "$dir/s.perfev-offcpu")" -v b="$(median "$dir/s.perf")" \
		'BEGIN { printf "bench=offcpu case=sleepy ratio=%.3f\n", a / b }'

# ---- plain recording, before and after ---------------------------------------------
[ -n "$BASE" ] || exit 0
for c in true cpu; do
	: >"$dir/p.base"
	: >"$dir/p.perfev"
	i=0
	while [ $i -lt "$N" ]; do
		for t in base perfev; do
			[ $t = base ] && tool=$BASE || tool=$PERFEV
			if [ $c = true ]; then
				"$SPAWN_TIME" 1 "$tool" record -q -o "$dir/p.data" -- true
			else
				"$tool" record -q -F 4000 -g -o "$dir/p.data" -- \
					"$SPAWN_TIME" 1 "$WORKLOAD" "$ITER"
			fi >>"$dir/p.$t"
		done
		i=$((i + 1))
	done
	for t in base perfev; do
		echo "bench=offcpu case=plain-$c tool=$t median_ms=$(median "$dir/p.$t") runs=$N"
	done
	awk -v a="$(median "$dir/p.perfev")" -v b="$(median "$dir/p.base")" -v c="$c" \
		'BEGIN { printf "bench=offcpu case=plain-%s ratio=%.3f\n", c, a / b }'
done
