#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# DWARF unwinding of sampled user stacks: perf record --call-graph dwarf
# of bench/report-workload (about 3000 samples), then
#
#   the library's unwinder on every sample (build/bench/unwind): with its
#   cached CFI rules, with libdwfl's frame walk alone, and both compared
#   (differ=0: the same frames and stops);
#   perf report --stdio --no-children on the same file, its wall time per
#   sample (median of N runs): what a report of a DWARF recording costs
#   perf, unwinding included.
#
# Prints the lines of build/bench/unwind and
#
#   bench=unwind case=perf-report samples=S median_ms=X us_per_sample=Y
set -eu
UNWIND=${UNWIND:-build/bench/unwind}
SPAWN_TIME=${SPAWN_TIME:-build/bench/spawn-time}
REPORT_WORKLOAD=${REPORT_WORKLOAD:-build/bench/report-workload}
N=${N:-5}
command -v perf >/dev/null 2>&1 || { echo "bench=unwind skipped: perf not installed" >&2; exit 0; }
for f in "$UNWIND" "$SPAWN_TIME" "$REPORT_WORKLOAD"; do
	[ -x "$f" ] || { echo "bench=unwind: $f is missing (make all)" >&2; exit 1; }
done
dir=$(mktemp -d "${TMPDIR:-/tmp}/perfev-bench-unwind.XXXXXX")
trap 'rm -rf "$dir"' EXIT
data=$dir/dwarf.data
if ! perf record -q -o "$data" --call-graph dwarf -F 1000 -- "$REPORT_WORKLOAD" 3000 \
	>/dev/null 2>&1; then
	echo "bench=unwind skipped: perf record --call-graph dwarf cannot sample here" >&2
	exit 0
fi
"$UNWIND" "$data"
"$UNWIND" --libdwfl "$data" | head -n 1
"$UNWIND" --compare "$data" | head -n 1
samples=$(perf report --stats -i "$data" 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }')
"$SPAWN_TIME" "$N" perf report -i "$data" --stdio --no-children >"$dir/times"
ms=$(sort -n "$dir/times" | awk '{ a[NR] = $1 } END { printf "%.1f", a[int((NR + 1) / 2)] / 1e6 }')
echo "bench=unwind case=perf-report samples=$samples median_ms=$ms" \
	"us_per_sample=$(awk -v ms="$ms" -v s="$samples" 'BEGIN { printf "%.1f", s ? ms * 1000 / s : 0 }')"
