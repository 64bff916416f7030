#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The demo: what perfev sees on this machine and how it turns event
# strings into perf_event_attr, the kernel's answer for each event
# attached to the bundled workload (examples/workload.c), then counting
# that workload with perfev stat, and sampling it with perfev record, its
# samples printed by perfev script, summed by perfev report, and written
# as an HTML flame graph (HTML=path, default build/demo-flamegraph.html).
set -eu
PERFEV=${1:-build/perfev}
WORKLOAD=${WORKLOAD:-build/examples/workload}
HTML=${HTML:-$(dirname "$PERFEV")/demo-flamegraph.html}

step() {
	if [ -t 1 ]; then
		printf '\n\033[1m$ %s\033[0m\n' "$*"
	else
		printf '\n$ %s\n' "$*"
	fi
	"$@"
}

echo "== the events this machine offers (software, hardware, cache; 'perfev list' shows all)"
step "$PERFEV" list sw hw cache

echo
echo "== event strings in perf's syntax, and the perf_event_attr each becomes"
step "$PERFEV" attr 'cycles:u' '{task-clock,page-faults}:S' 'L1-dcache-load-misses' 'mem:0x1000/8:w'

echo
echo "== a mistake gets a pointed answer (exit status 1)"
step "$PERFEV" attr 'instuctions:u' || true

echo
echo "== the kernel's answer for events attached to the bundled workload"
"$WORKLOAD" 300000000 2048 >/dev/null &
pid=$!
# Attach while it runs; hardware events fail with a diagnosis on machines without a PMU.
step "$PERFEV" attr --open -p "$pid" 'task-clock' 'page-faults' '{context-switches,cpu-migrations}' 'instructions:u' || true
wait "$pid"
echo
echo "== counting the bundled workload, perf stat style (the report goes to stderr)"
step "$PERFEV" stat -- "$WORKLOAD" 50000000 4096

echo
echo "== five runs: the mean and a 95% confidence interval of each count"
step "$PERFEV" stat -r 5 -e task-clock,page-faults -- "$WORKLOAD" 5000000 512 >/dev/null

echo
echo "== sampling the bundled workload with call chains into a perf.data file"
dir=$(mktemp -d "${TMPDIR:-/tmp}/perfev-demo.XXXXXX")
trap 'rm -rf "$dir"' EXIT
step "$PERFEV" record -g -o "$dir/perf.data" -- "$WORKLOAD" 100000000 1024 >/dev/null

echo
echo "== its samples, as perf script prints them (the first 13 lines of $(
	"$PERFEV" script -i "$dir/perf.data" -G | wc -l) samples)"
step "$PERFEV" script -i "$dir/perf.data" | head -n 14

echo
echo "== one sample with every decoded field, as a line of JSON"
step "$PERFEV" script -j -i "$dir/perf.data" | grep -m2 -e '^\$' -e '"type":"SAMPLE"'
echo
echo "== where the time went: perfev report, by command, shared object and symbol"
step "$PERFEV" report -i "$dir/perf.data" --no-children -g none | grep -v -e '^#' -e '^$' | head -n 8
echo
echo "== with call graphs: each function with what it called (Children), perf report's default"
step "$PERFEV" report -i "$dir/perf.data" --percent-limit 5 | grep -v -e '^#' | head -n 24
echo
echo "== by source line, read in-process from the DWARF line tables"
step "$PERFEV" report -i "$dir/perf.data" --no-children -g none -s dso,srcline | grep -v -e '^#' -e '^$' | head -n 5
if command -v perf >/dev/null 2>&1; then
	echo
	echo "== the same file read by Linux perf"
	step perf report -i "$dir/perf.data" --stdio --no-children -g none --sort comm,dso 2>/dev/null |
		grep -v -e '^#' -e '^$' | head -n 6
fi

echo
echo "== where in main the samples fell: its instructions with their share (perfev annotate; lines of 1% or more)"
step "$PERFEV" annotate -i "$dir/perf.data" main --no-source | awk 'NR <= 3 || $1 + 0 >= 1'

echo
echo "== a live profile of a run of the workload: perfev top's snapshot each second (--stdio)"
step "$PERFEV" top --stdio -d 1 -E 3 -- "$WORKLOAD" 300000000 1024 2>/dev/null | grep -v '^-*$'

echo
echo "== the profile as one HTML file: flame graph (click to zoom, search), top functions, the run"
step "$PERFEV" report -i "$dir/perf.data" --html "$HTML"
echo "wrote $HTML ($(wc -c <"$HTML") bytes); open it in a browser"

echo
echo "== a program built without frame pointers (-O2 -fomit-frame-pointer), calling into libc and libm:"
echo "== DWARF call graphs unwind its stack copies through each file's call frame information"
NOFP=${NOFP:-$(dirname "$PERFEV")/bench/unwind-workload-nofp}
step "$PERFEV" record --call-graph dwarf -o "$dir/dwarf.data" -- "$NOFP" 300 >/dev/null
step "$PERFEV" report -i "$dir/dwarf.data" --no-children -S __sin_fma,cmp_keys -g caller |
	grep -v -e "^#" -e "^$" | head -n 30
echo
echo "== the same, unwound while recording: call chains stored instead of 8 KiB stack copies"
step "$PERFEV" record --call-graph dwarf --unwind -o "$dir/unwound.data" -- "$NOFP" 300 >/dev/null
echo "$(wc -c <"$dir/dwarf.data") bytes with the stacks, $(wc -c <"$dir/unwound.data") bytes unwound"

echo
echo "demo done: 'perfev list -j', 'perfev attr -j', 'perfev stat -j' and 'perfev script -j' give JSON."
