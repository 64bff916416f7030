#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Wall time of listing events, perfev against Linux perf, interleaved runs,
# median of N each.  Prints machine-readable lines:
#
#   bench=list tool=perf median_ms=X
#   bench=list tool=perfev median_ms=Y
#   bench=list ratio=Y/X
set -eu
PERFEV=${PERFEV:-build/perfev}
N=${N:-21}
command -v perf >/dev/null 2>&1 || { echo "bench=list skipped: perf not installed" >&2; exit 0; }

ms() { # run a command, print its wall time in ms
	python3 - "$@" <<'PY'
import subprocess, sys, time
t = time.perf_counter()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print("%.3f" % ((time.perf_counter() - t) * 1000))
PY
}

: > /tmp/perfev-bench-perf.$$
: > /tmp/perfev-bench-perfev.$$
i=0
while [ $i -lt "$N" ]; do
	ms perf list --no-desc >> /tmp/perfev-bench-perf.$$
	ms "$PERFEV" list >> /tmp/perfev-bench-perfev.$$
	i=$((i + 1))
done
median() { sort -n "$1" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
p=$(median /tmp/perfev-bench-perf.$$)
q=$(median /tmp/perfev-bench-perfev.$$)
rm -f /tmp/perfev-bench-perf.$$ /tmp/perfev-bench-perfev.$$
echo "bench=list tool=perf median_ms=$p"
echo "bench=list tool=perfev median_ms=$q"
awk -v p="$p" -v q="$q" 'BEGIN { printf "bench=list ratio=%.3f\n", q / p }'
