#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# perfev record against perf record, side by side in one run:
#
#   start-up and shut-down: wall time of 'record -- true' (median of N runs,
#   interleaved), perf with and without its BPF event synthesis;
#
#   overhead: how much longer a CPU-bound workload runs while sampled at
#   -F 4000 -g, from the workload's own wall time (measured inside the
#   recording by spawn-time) against its time alone;
#
#   losses: samples lost at the highest rate the kernel accepts
#   (-F max -g; LOST_RATES="max 20000" adds other rates), for the workload
#   and system-wide, with the default ring buffer; counted from
#   PERF_RECORD_LOST and LOST_SAMPLES in both files by the same parser.
#   max_stall_s is the longest a process sleeping 100 ms at a time waited to
#   run again meanwhile: when the machine itself stalls (a virtual machine
#   at 100 kHz can stop every process for seconds), no reader keeps up and
#   only the ring's size bounds the loss.  The dwarf2 case (in LOST_CASES)
#   is two events in one ring with stack copies, -e cpu-clock -e page-faults
#   --call-graph dwarf -F 4000, for the workload of the overhead case (ITER).
#
# Prints machine-readable lines:
#
#   bench=record case=true tool=perfev|perf|perf-no-bpf median_ms=X
#   bench=record case=true ratio=perfev/perf-no-bpf
#   bench=record case=overhead tool=none|perfev|perf median_ms=X overhead_pct=Y
#   bench=record case=overhead ratio=perfev_overhead/perf_overhead
#   bench=record case=lost-task|lost-system|lost-dwarf2 rate=R tool=perfev|perf samples=S lost=L runs=3
#     max_stall_s=T
set -eu
PERFEV=${PERFEV:-build/perfev}
SPAWN_TIME=${SPAWN_TIME:-build/bench/spawn-time}
WORKLOAD=${WORKLOAD:-build/examples/workload}
N=${N:-21}
ITER=${ITER:-400000000}
LOST_ITER=${LOST_ITER:-20000000}
# At the highest rate a virtual machine can slow down a hundredfold: each
# recording of the loss cases is stopped with SIGINT after this long.
LOST_SECS=${LOST_SECS:-10}
[ "$N" -ge 5 ] || { echo "bench=record: N must be at least 5" >&2; exit 2; }
command -v perf >/dev/null 2>&1 || { echo "bench=record skipped: perf not installed" >&2; exit 0; }
for f in "$SPAWN_TIME" "$WORKLOAD" "$PERFEV"; do
	[ -x "$f" ] || { echo "bench=record: $f is missing (make all)" >&2; exit 1; }
done
if ! perf record -q -o /dev/null -- true >/dev/null 2>&1; then
	echo "bench=record skipped: perf record cannot sample here" >&2
	exit 0
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/perfev-bench-record.XXXXXX")
trap 'rm -rf "$dir"' EXIT

median() { sort -n "$1" | awk '{ a[NR] = $1 } END { printf "%.3f", a[int((NR + 1) / 2)] / 1e6 }'; }

# ---- start-up and shut-down -------------------------------------------------
cat >"$dir/cases" <<EOF
perfev|$PERFEV record -q -o $dir/a.data -- true
perf|perf record -q -o $dir/b.data -- true
perf-no-bpf|perf record -q --no-bpf-event -o $dir/c.data -- true
EOF
round() {
	while IFS='|' read -r name cmd; do
		# shellcheck disable=SC2086 # the command is meant to be split
		"$SPAWN_TIME" 1 $cmd >>"$dir/t.$name" || exit 1
	done <"$dir/cases"
}
round
while IFS='|' read -r name cmd; do : >"$dir/t.$name"; done <"$dir/cases"
i=0
while [ $i -lt "$N" ]; do
	round
	i=$((i + 1))
done
for t in perfev perf perf-no-bpf; do
	echo "bench=record case=true tool=$t median_ms=$(median "$dir/t.$t") runs=$N"
done
awk -v a="$(median "$dir/t.perfev")" -v b="$(median "$dir/t.perf-no-bpf")" \
	'BEGIN { printf "bench=record case=true ratio=%.3f\n", a / b }'

# ---- overhead at -F 4000 -g ----------------------------------------------------
: >"$dir/o.none"
: >"$dir/o.perfev"
: >"$dir/o.perf"
runs=$(( (N + 1) / 2 ))
i=0
while [ $i -lt "$runs" ]; do
	"$SPAWN_TIME" 1 "$WORKLOAD" "$ITER" >>"$dir/o.none"
	"$PERFEV" record -q -F 4000 -g -o "$dir/o1.data" -- \
		"$SPAWN_TIME" 1 "$WORKLOAD" "$ITER" >>"$dir/o.perfev"
	perf record -q -F 4000 -g -o "$dir/o2.data" -- \
		"$SPAWN_TIME" 1 "$WORKLOAD" "$ITER" >>"$dir/o.perf" 2>/dev/null
	i=$((i + 1))
done
base=$(median "$dir/o.none")
echo "bench=record case=overhead tool=none median_ms=$base runs=$runs"
for t in perfev perf; do
	m=$(median "$dir/o.$t")
	awk -v t="$t" -v m="$m" -v b="$base" -v r="$runs" 'BEGIN {
		printf "bench=record case=overhead tool=%s median_ms=%s overhead_pct=%.2f runs=%d\n",
			t, m, (m - b) / b * 100, r }'
done
awk -v a="$(median "$dir/o.perfev")" -v b="$(median "$dir/o.perf")" -v z="$base" 'BEGIN {
	oa = a - z; ob = b - z
	if (ob <= 0) printf "bench=record case=overhead ratio=n/a (perf overhead below noise)\n"
	else printf "bench=record case=overhead ratio=%.3f\n", oa / ob }'

# ---- losses at the highest rate ------------------------------------------------
count() { # file -> "samples lost", read by perfev script's JSON for both tools
	"$PERFEV" script -j -i "$1" 2>/dev/null | python3 -c '
import json, sys
s = l = 0
for line in sys.stdin:
    r = json.loads(line)
    t = r.get("type")
    if t == "SAMPLE":
        s += 1
    elif t in ("LOST", "LOST_SAMPLES"):
        l += r.get("lost", 0)
print(s, l)'
}
# The longest time a process sleeping 100 ms at a time waited to run again,
# while the recording ran: how long the whole machine stalled.
stall_probe() {
	echo 0 >"$dir/stall"
	python3 -c '
import os, sys, time
worst, last = 0.0, time.monotonic()
while True:
    time.sleep(0.1)
    now = time.monotonic()
    if now - last - 0.1 > worst:
        worst = now - last - 0.1
        with open(sys.argv[1] + ".tmp", "w") as f:
            f.write("%.1f\n" % worst)
        os.replace(sys.argv[1] + ".tmp", sys.argv[1])
    last = now
' "$dir/stall" &
	probe=$!
}
for c in ${LOST_CASES:-task system dwarf2}; do
	flags="-g" rates=${LOST_RATES:-max} iter=$LOST_ITER
	[ $c = system ] && flags="-g -a"
	[ $c = dwarf2 ] && flags="-e cpu-clock -e page-faults --call-graph dwarf" rates=4000 iter=$ITER
	for rate in $rates; do
		for t in perfev perf; do
			ts=0 tl=0 stall=0
			i=0
			while [ $i -lt 3 ]; do
				[ $t = perfev ] && tool=$PERFEV || tool=perf
				stall_probe
				# shellcheck disable=SC2086
				timeout -s INT "$LOST_SECS" "$tool" record -q -F "$rate" $flags \
					-o "$dir/l.data" -- "$WORKLOAD" "$iter" >/dev/null 2>&1 || :
				kill -KILL "$probe"
				wait "$probe" 2>/dev/null || :
				set -- $(count "$dir/l.data")
				ts=$((ts + $1))
				tl=$((tl + $2))
				stall=$(awk -v a="$stall" -v b="$(cat "$dir/stall")" 'BEGIN { print (b > a ? b : a) }')
				i=$((i + 1))
			done
			echo "bench=record case=lost-$c rate=$rate tool=$t samples=$ts lost=$tl runs=3 max_stall_s=$stall"
		done
	done
done
