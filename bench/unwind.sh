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
# Then, on recordings of bench/unwind-workload-nofp (no frame pointers,
# calls through libc and libm) at -F 4000 by perf and by perfev:
#
#   perfev report against perf report --stdio on the same DWARF file,
#   alternating, N runs each: medians, peak RSS, samples per second, the
#   ratio, and how many samples' user chains perfev script prints as perf
#   script does (oracle.py chains-cmp);
#   perfev record --call-graph dwarf --unwind: bytes per sample against the
#   stack copies, samples lost, and the wall time of the recorded run
#   against the workload alone, -g (frame pointers) and --call-graph dwarf.
#
# Prints the lines of build/bench/unwind and
#
#   bench=unwind case=perf-report samples=S median_ms=X us_per_sample=Y
#   bench=unwind case=report-F tool=perfev|perf median_ms=X peak_rss_kb=Y samples=S
#   bench=unwind case=report-F ratio=perf/perfev samples_per_s=R chains_same_pct=P
#   bench=unwind case=record-MODE median_ms=X slowdown=X/alone bytes_per_sample=B lost=L
set -eu
UNWIND=${UNWIND:-build/bench/unwind}
SPAWN_TIME=${SPAWN_TIME:-build/bench/spawn-time}
REPORT_WORKLOAD=${REPORT_WORKLOAD:-build/bench/report-workload}
UNWIND_WORKLOAD=${UNWIND_WORKLOAD:-build/bench/unwind-workload-nofp}
PERFEV=${PERFEV:-build/perfev}
MS=${MS:-2000}
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

# ---- report on DWARF recordings, perfev against perf ---------------------------------
median() { # file column
	awk -v c="$2" '{ print $c }' "$1" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}
perf record -q -o "$dir/perf.data" --call-graph dwarf -F 4000 -e cpu-clock -- "$UNWIND_WORKLOAD" "$MS" \
	>/dev/null 2>&1
"$PERFEV" record -q -o "$dir/perfev.data" --call-graph dwarf -F 4000 -e cpu-clock -- \
	"$UNWIND_WORKLOAD" "$MS" >/dev/null 2>&1
for f in perf perfev; do
	d=$dir/$f.data
	n=$(perf report --stats -i "$d" 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }')
	: >"$dir/t.perfev"
	: >"$dir/t.perf"
	i=0
	while [ $i -lt "$N" ]; do
		"$SPAWN_TIME" -m 1 "$PERFEV" report -i "$d" >>"$dir/t.perfev"
		"$SPAWN_TIME" -m 1 perf report --stdio -i "$d" >>"$dir/t.perf"
		i=$((i + 1))
	done
	for t in perfev perf; do
		echo "bench=unwind case=report-$f tool=$t median_ms=$(awk -v x="$(median "$dir/t.$t" 1)" \
			'BEGIN { printf "%.1f", x / 1e6 }') peak_rss_kb=$(median "$dir/t.$t" 2) samples=$n"
	done
	perf script -i "$d" >"$dir/a.txt" 2>/dev/null
	"$PERFEV" script -i "$d" >"$dir/b.txt" 2>/dev/null
	pct=$(python3 "$(dirname "$0")/../tests/cli/oracle.py" chains-cmp "$dir/a.txt" "$dir/b.txt" \
		--min 0 2>/dev/null | sed -n 's/.*pct=\([0-9.]*\).*/\1/p' | head -n 1)
	awk -v a="$(median "$dir/t.perf" 1)" -v b="$(median "$dir/t.perfev" 1)" -v n="$n" -v c="$f" \
		-v p="${pct:-?}" 'BEGIN { printf "bench=unwind case=report-%s ratio=%.1f samples_per_s=%.0f chains_same_pct=%s\n",
		c, a / b, n / (b / 1e9), p }'
done

# ---- recording: --unwind against the stack copies, frame pointers and nothing ----------
: >"$dir/t.alone"
for m in fp dwarf unwind; do : >"$dir/t.$m"; done
i=0
while [ $i -lt "$N" ]; do
	"$SPAWN_TIME" 1 "$UNWIND_WORKLOAD" "$MS" >>"$dir/t.alone"
	"$SPAWN_TIME" 1 "$PERFEV" record -q -F 4000 -e cpu-clock -g -o "$dir/r-fp.data" -- \
		"$UNWIND_WORKLOAD" "$MS" >>"$dir/t.fp"
	"$SPAWN_TIME" 1 "$PERFEV" record -q -F 4000 -e cpu-clock --call-graph dwarf \
		-o "$dir/r-dwarf.data" -- "$UNWIND_WORKLOAD" "$MS" >>"$dir/t.dwarf"
	"$SPAWN_TIME" 1 "$PERFEV" record -q -F 4000 -e cpu-clock --call-graph dwarf --unwind \
		-o "$dir/r-unwind.data" -- "$UNWIND_WORKLOAD" "$MS" >>"$dir/t.unwind"
	i=$((i + 1))
done
alone=$(median "$dir/t.alone" 1)
echo "bench=unwind case=record-none median_ms=$(awk -v x="$alone" 'BEGIN { printf "%.1f", x / 1e6 }')"
for m in fp dwarf unwind; do
	n=$(perf report --stats -i "$dir/r-$m.data" 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }')
	lost=$(perf report --stats -i "$dir/r-$m.data" 2>/dev/null |
		awk '/LOST(_SAMPLES)? events:/ { s += $3 } END { print s + 0 }')
	awk -v x="$(median "$dir/t.$m" 1)" -v a="$alone" -v sz="$(wc -c <"$dir/r-$m.data")" -v n="$n" \
		-v m="$m" -v l="$lost" 'BEGIN { printf "bench=unwind case=record-%s median_ms=%.1f slowdown=%.2f bytes_per_sample=%.0f lost=%d samples=%d\n",
		m, x / 1e6, x / a, n ? sz / n : 0, l, n }'
done
