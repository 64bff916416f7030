#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Wall time of counting a trivial command, perfev stat against perf stat
# with the same events: the whole cost of the tool (start-up, event setup,
# fork/exec of the command, report).  Runs are interleaved round by round
# so drifts hit every tool alike; each run's time comes from
# build/bench/spawn-time (posix_spawn + wait, output to /dev/null), and
# the median of N runs is reported.  Prints machine-readable lines:
#
#   bench=stat case=true median_ms=X                       the bare command
#   bench=stat case=task-clock tool=perf median_ms=X       -e task-clock -- true
#   bench=stat case=task-clock tool=perfev median_ms=Y
#   bench=stat case=task-clock ratio=Y/X
#   bench=stat case=default tool=perf|perfev median_ms=..  perfev's default events
#   bench=stat case=default ratio=..
#   bench=stat case=perf-defaults tool=perf median_ms=..   plain 'perf stat -- true'
#   bench=stat case=record tool=perf|perfev median_ms=..   stat record -e task-clock,page-faults
#   bench=stat case=record ratio=..
#   bench=stat case=report tool=perf|perfev median_ms=..   stat report of perf's file
#   bench=stat case=report ratio=..
#
# "default" gives perf the events perfev chooses by default on this machine
# (perf's own defaults add hardware events, which a machine without a PMU
# reports as <not supported>); "perf-defaults" is plain 'perf stat -- true'.
set -eu
PERFEV=${PERFEV:-build/perfev}
SPAWN_TIME=${SPAWN_TIME:-build/bench/spawn-time}
N=${N:-21}
[ "$N" -ge 21 ] || { echo "bench=stat: N must be at least 21" >&2; exit 2; }
command -v perf >/dev/null 2>&1 || { echo "bench=stat skipped: perf not installed" >&2; exit 0; }
[ -x "$SPAWN_TIME" ] || { echo "bench=stat: $SPAWN_TIME is missing (make all)" >&2; exit 1; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/perfev-bench-stat.XXXXXX")
trap 'rm -rf "$dir"' EXIT

# perfev's default event list here, in its order.
defaults=$("$PERFEV" stat -x, -- true 2>&1 >/dev/null | awk -F, '{ printf "%s%s", sep, $3; sep = "," }')
[ -n "$defaults" ] || { echo "bench=stat: cannot find perfev's default events" >&2; exit 1; }

# name|command, one per line; the command is split on blanks.
cat >"$dir/cases" <<EOF
true|true
task-clock.perf|perf stat -e task-clock -- true
task-clock.perfev|$PERFEV stat -e task-clock -- true
default.perf|perf stat -e $defaults -- true
default.perfev|$PERFEV stat -- true
perf-defaults.perf|perf stat -- true
record.perf|perf stat record -o $dir/perf.data -e task-clock,page-faults -- true
record.perfev|$PERFEV stat record -o $dir/perfev.data -e task-clock,page-faults -- true
report.perf|perf stat report -i $dir/report.data
report.perfev|$PERFEV stat report -i $dir/report.data
EOF
perf stat record -o "$dir/report.data" -e task-clock,page-faults -- true >/dev/null 2>&1 ||
	{ echo "bench=stat: perf stat record failed" >&2; exit 1; }

# One warm-up run of each, then N interleaved rounds.
round() { # $1: runs per command
	while IFS='|' read -r name cmd; do
		# shellcheck disable=SC2086 # the command is meant to be split
		"$SPAWN_TIME" "$1" $cmd >>"$dir/$name" || exit 1
	done <"$dir/cases"
}
round 1
while IFS='|' read -r name cmd; do : >"$dir/$name"; done <"$dir/cases"
i=0
while [ $i -lt "$N" ]; do
	round 1
	i=$((i + 1))
done

median_ms() { sort -n "$dir/$1" | awk '{ a[NR] = $1 } END { printf "%.3f", a[int((NR + 1) / 2)] / 1e6 }'; }
echo "bench=stat case=true median_ms=$(median_ms true) runs=$N"
for c in task-clock default record report; do
	p=$(median_ms "$c.perf")
	q=$(median_ms "$c.perfev")
	echo "bench=stat case=$c tool=perf median_ms=$p runs=$N"
	echo "bench=stat case=$c tool=perfev median_ms=$q runs=$N"
	awk -v c="$c" -v p="$p" -v q="$q" 'BEGIN { printf "bench=stat case=%s ratio=%.3f\n", c, q / p }'
done
echo "bench=stat case=perf-defaults tool=perf median_ms=$(median_ms perf-defaults.perf) runs=$N"
