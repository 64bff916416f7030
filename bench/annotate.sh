#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# perfev annotate --stdio against perf annotate --stdio (objdump underneath)
# on one perf.data file perf records at the start: task-clock every 20 us of
# tests/cli/annotate-hot.c built with -g (a hot loop of its own and libm's
# sin and cos), about 100k samples, annotated
#
#   all        every sampled function, source lines interleaved (both defaults)
#   symbol     the hot loop alone (work)
#   nosource   every function, --no-source
#
# After one warm-up run of each (the outputs compared with
# tests/cli/oracle.py annotate-cmp: a warning line when they differ by more
# than a point), the tools alternate for N rounds; the median wall times of
# build/bench/spawn-time are reported.  Prints machine-readable lines:
#
#   bench=annotate file=F samples=S functions=K
#   bench=annotate case=C tool=perfev|perf median_ms=X peak_rss_kb=Y runs=N
#   bench=annotate case=C ratio=perf/perfev       above 1: perfev is faster
#   bench=annotate case=C warning=...
set -eu
PERFEV=${PERFEV:-build/perfev}
SPAWN_TIME=${SPAWN_TIME:-build/bench/spawn-time}
N=${N:-5}
CC=${CC:-cc}
[ "$N" -ge 3 ] || { echo "bench=annotate: N must be at least 3" >&2; exit 2; }
command -v perf >/dev/null 2>&1 || { echo "bench=annotate skipped: perf not installed" >&2; exit 0; }
for f in "$SPAWN_TIME" "$PERFEV"; do
	[ -x "$f" ] || { echo "bench=annotate: $f is missing (make all)" >&2; exit 1; }
done
dir=$(mktemp -d "${TMPDIR:-/tmp}/perfev-bench-annotate.XXXXXX")
trap 'rm -rf "$dir"' EXIT

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

"$CC" -O1 -g -o "$dir/hot" tests/cli/annotate-hot.c -lm
f=$dir/w.data
if ! perf record -q -N -o "$f" -e task-clock -c 20000 -- "$dir/hot" >/dev/null 2>&1; then
	echo "bench=annotate skipped: perf record cannot sample here" >&2
	exit 0
fi
perf annotate --stdio -i "$f" >"$dir/perf.out" 2>/dev/null
echo "bench=annotate file=w samples=$(perf script -i "$f" -F ip 2>/dev/null | wc -l)" \
	"functions=$(grep -c 'Disassembly of' "$dir/perf.out")"

while IFS='|' read -r c opts; do
	# shellcheck disable=SC2086 # the options split on blanks
	perf annotate --stdio -i "$f" $opts >"$dir/perf.out" 2>/dev/null
	# shellcheck disable=SC2086
	"$PERFEV" annotate --stdio -i "$f" $opts >"$dir/perfev.out" 2>/dev/null
	python3 tests/cli/oracle.py annotate-cmp "$dir/perf.out" "$dir/perfev.out" >"$dir/cmp" 2>&1 ||
		echo "bench=annotate case=$c warning=$(head -1 "$dir/cmp")"
	: >"$dir/perf.t"
	: >"$dir/perfev.t"
	i=0
	while [ $i -lt "$N" ]; do
		# shellcheck disable=SC2086
		"$SPAWN_TIME" -m 1 perf annotate --stdio -i "$f" $opts >>"$dir/perf.t"
		# shellcheck disable=SC2086
		"$SPAWN_TIME" -m 1 "$PERFEV" annotate --stdio -i "$f" $opts >>"$dir/perfev.t"
		i=$((i + 1))
	done
	for t in perfev perf; do
		echo "bench=annotate case=$c tool=$t median_ms=$(( $(median "$dir/$t.t" 1) / 1000000 ))" \
			"peak_rss_kb=$(median "$dir/$t.t" 2) runs=$N"
	done
	awk -v c="$c" -v p="$(median "$dir/perf.t" 1)" -v q="$(median "$dir/perfev.t" 1)" \
		'BEGIN { printf "bench=annotate case=%s ratio=%.2f\n", c, p / q }'
done <<EOF
all|
symbol|work
nosource|--no-source
EOF
