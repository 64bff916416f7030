#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# perfev script against perf script, on one perf.data file perf records at
# the start (task-clock every 10 us, with sample CPUs, of three runs of
# build/examples/workload: about 250k samples), printed several ways:
#
#   plain      both tools' defaults
#   time       --time 10%/2 (the second tenth of the run)
#   symbols    -S main
#   srcline    -F ip,sym,srcline -G (source lines: perf asks addr2line)
#   insn       -F ip,insn -G (the instruction bytes at each sample)
#
# After one warm-up run of each (outputs compared: a warning line when
# they differ), the tools alternate for N rounds; the median wall times
# of build/bench/spawn-time are reported.  Prints machine-readable lines:
#
#   bench=script file=F samples=S size_kb=K
#   bench=script case=C tool=perfev|perf median_ms=X peak_rss_kb=Y runs=N
#   bench=script case=C ratio=perf/perfev       above 1: perfev is faster
#   bench=script case=C warning=...
set -eu
PERFEV=${PERFEV:-build/perfev}
SPAWN_TIME=${SPAWN_TIME:-build/bench/spawn-time}
WORKLOAD=${WORKLOAD:-build/examples/workload}
N=${N:-5}
[ "$N" -ge 3 ] || { echo "bench=script: N must be at least 3" >&2; exit 2; }
command -v perf >/dev/null 2>&1 || { echo "bench=script skipped: perf not installed" >&2; exit 0; }
for f in "$SPAWN_TIME" "$WORKLOAD" "$PERFEV"; do
	[ -x "$f" ] || { echo "bench=script: $f is missing (make all)" >&2; exit 1; }
done
dir=$(mktemp -d "${TMPDIR:-/tmp}/perfev-bench-script.XXXXXX")
trap 'rm -rf "$dir"' EXIT

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

f=$dir/w.data
if ! perf record -q -N -o "$f" -e task-clock -c 10000 --sample-cpu -- \
	sh -c "$WORKLOAD; $WORKLOAD; $WORKLOAD" >/dev/null 2>&1; then
	echo "bench=script skipped: perf record cannot sample here" >&2
	exit 0
fi
echo "bench=script file=w samples=$(perf script -i "$f" -F ip 2>/dev/null | wc -l)" \
	"size_kb=$(( $(wc -c <"$f") / 1024 ))"

while IFS='|' read -r c opts; do
	# shellcheck disable=SC2086 # the options split on blanks
	perf script -i "$f" $opts >"$dir/perf.out" 2>/dev/null
	# shellcheck disable=SC2086
	"$PERFEV" script -i "$f" $opts >"$dir/perfev.out" 2>/dev/null
	cmp -s "$dir/perf.out" "$dir/perfev.out" ||
		echo "bench=script case=$c warning=outputs differ in $(diff "$dir/perf.out" \
			"$dir/perfev.out" | grep -c '^<') lines"
	: >"$dir/perf.t"
	: >"$dir/perfev.t"
	i=0
	while [ $i -lt "$N" ]; do
		# shellcheck disable=SC2086
		"$SPAWN_TIME" -m 1 perf script -i "$f" $opts >>"$dir/perf.t"
		# shellcheck disable=SC2086
		"$SPAWN_TIME" -m 1 "$PERFEV" script -i "$f" $opts >>"$dir/perfev.t"
		i=$((i + 1))
	done
	for t in perfev perf; do
		echo "bench=script case=$c tool=$t median_ms=$(( $(median "$dir/$t.t" 1) / 1000000 ))" \
			"peak_rss_kb=$(median "$dir/$t.t" 2) runs=$N"
	done
	awk -v c="$c" -v p="$(median "$dir/perf.t" 1)" -v q="$(median "$dir/perfev.t" 1)" \
		'BEGIN { printf "bench=script case=%s ratio=%.2f\n", c, p / q }'
done <<EOF
plain|
time|--time 10%/2
symbols|-S main
srcline|-F ip,sym,srcline -G
insn|-F ip,insn -G
EOF
