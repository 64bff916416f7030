#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The demo: what perfev sees on this machine and how it turns event
# strings into perf_event_attr, the kernel's answer for each event
# attached to the bundled workload (examples/workload.c), then counting
# that workload with perfev stat.
set -eu
PERFEV=${1:-build/perfev}
WORKLOAD=${WORKLOAD:-build/examples/workload}

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
echo "demo done: 'perfev list -j', 'perfev attr -j' and 'perfev stat -j' give the same as JSON."
