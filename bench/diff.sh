#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# perfev diff against perf diff, on the same pair of perf.data files,
# recorded once at the start into a temporary directory: perf record -g
# -F 4000 of bench/diff-workload 3 1 (the baseline, hot_a) and 1 3 (the
# new file, hot_b), each long enough for about 10k samples ("perf"), and
# the same pair recorded by perfev record ("perfev"; perf diff reads it
# too).  Cases:
#
#   default       both tools' defaults (-c delta-abs, -s dso,sym)
#   ratio-sym     -c ratio -s sym -p
#
# Each run's wall time and peak resident set come from
# build/bench/spawn-time -m, output to /dev/null; after one warm-up run of
# each (whose tables are compared: a warning line if they differ), the
# tools alternate for N rounds and the medians are reported:
#
#   bench=diff pair=P recorder=perf|perfev size_kb=K
#   bench=diff case=P/C tool=perfev|perf median_ms=X peak_rss_kb=Y runs=N
#   bench=diff case=P/C ratio=perf/perfev       above 1: perfev is faster
#   bench=diff case=P/C warning=...
set -eu
PERFEV=${PERFEV:-build/perfev}
SPAWN_TIME=${SPAWN_TIME:-build/bench/spawn-time}
DIFF_WORKLOAD=${DIFF_WORKLOAD:-build/bench/diff-workload}
N=${N:-7}
[ "$N" -ge 3 ] || { echo "bench=diff: N must be at least 3" >&2; exit 2; }
command -v perf >/dev/null 2>&1 || { echo "bench=diff skipped: perf not installed" >&2; exit 0; }
for f in "$SPAWN_TIME" "$DIFF_WORKLOAD" "$PERFEV"; do
	[ -x "$f" ] || { echo "bench=diff: $f is missing (make all)" >&2; exit 1; }
done
if ! perf record -q -o /dev/null -- true >/dev/null 2>&1; then
	echo "bench=diff skipped: perf record cannot sample here" >&2
	exit 0
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/perfev-bench-diff.XXXXXX")
trap 'rm -rf "$dir"' EXIT

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

# About 10k samples per file: 2.5 s of CPU at 4000 Hz.
for p in perf perfev; do
	tool=$p
	[ $p = perfev ] && tool=$PERFEV
	"$tool" record -q -g -F 4000 -o "$dir/$p.old.data" -- "$DIFF_WORKLOAD" 3 1 2500 >/dev/null 2>&1
	"$tool" record -q -g -F 4000 -o "$dir/$p.new.data" -- "$DIFF_WORKLOAD" 1 3 2500 >/dev/null 2>&1
	echo "bench=diff pair=$p recorder=$p" \
		"size_kb=$(( ($(wc -c <"$dir/$p.old.data") + $(wc -c <"$dir/$p.new.data")) / 1024 ))"
done

printf '%s\n' "perf/default|" "perf/ratio-sym|-c ratio -s sym -p" \
	"perfev/default|" "perfev/ratio-sym|-c ratio -s sym -p" >"$dir/cases"
: >"$dir/timed"
while IFS='|' read -r c opts; do
	p=${c%%/*}
	out=$dir/$(echo "$c" | tr / .)
	# shellcheck disable=SC2086 # the options are meant to be split
	"$PERFEV" diff $opts "$dir/$p.old.data" "$dir/$p.new.data" </dev/null >"$out.perfev" 2>/dev/null && a=0 || a=$?
	# shellcheck disable=SC2086
	perf diff $opts "$dir/$p.old.data" "$dir/$p.new.data" </dev/null >"$out.perf" 2>/dev/null && b=0 || b=$?
	if [ "$a" -ne 0 ] || [ "$b" -ne 0 ]; then
		echo "bench=diff case=$c warning=exit-status perfev=$a perf=$b"
		continue
	fi
	if ! python3 "$(dirname "$0")/../tests/cli/oracle.py" diff-cmp "$out.perf" "$out.perfev" \
		>/dev/null 2>&1; then
		echo "bench=diff case=$c warning=tables-differ"
	fi
	echo "$c|$opts" >>"$dir/timed"
done <"$dir/cases"

i=0
while [ $i -lt "$N" ]; do
	while IFS='|' read -r c opts; do
		p=${c%%/*}
		n=$(echo "$c" | tr / .)
		# shellcheck disable=SC2086
		"$SPAWN_TIME" -m 1 "$PERFEV" diff $opts "$dir/$p.old.data" "$dir/$p.new.data" >>"$dir/t.$n.perfev"
		# shellcheck disable=SC2086
		"$SPAWN_TIME" -m 1 perf diff $opts "$dir/$p.old.data" "$dir/$p.new.data" >>"$dir/t.$n.perf"
	done <"$dir/timed"
	i=$((i + 1))
done
while IFS='|' read -r c opts; do
	n=$(echo "$c" | tr / .)
	for t in perfev perf; do
		awk -v c="$c" -v t="$t" -v ns="$(median "$dir/t.$n.$t" 1)" \
			-v kb="$(median "$dir/t.$n.$t" 2)" -v r="$N" 'BEGIN {
			printf "bench=diff case=%s tool=%s median_ms=%.1f peak_rss_kb=%d runs=%d\n",
				c, t, ns / 1e6, kb, r }'
	done
	awk -v c="$c" -v a="$(median "$dir/t.$n.perf" 1)" -v b="$(median "$dir/t.$n.perfev" 1)" \
		'BEGIN { printf "bench=diff case=%s ratio=%.2f\n", c, a / b }'
done <"$dir/timed"
