#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# record -z against perf record -z, side by side in one run, for two kinds
# of recording of the bundled workload:
#
#   fp     -F 4000 -g               (frame-pointer call chains: small samples)
#   dwarf  --call-graph dwarf -F 1000 (8 KiB stack copies: the most data)
#
#   size:   the file each tool writes plain and with -z (level 1), the
#           median of N runs (samples vary a little from run to run);
#   record: the wall time of the recorded workload (median of N runs,
#           interleaved) and the overhead over the workload alone;
#   report: perf report --stdio and perfev report on perf's own files,
#           plain and -z, --no-children -g none --sort comm,dso,sym (median
#           of N runs), to see what decompression costs each reader.
#
# Prints machine-readable lines:
#
#   bench=compress case=C tool=perfev|perfev-z|perf|perf-z size_kb=K median_ms=X overhead_pct=O runs=N
#   bench=compress case=C size_ratio=perfev-z/perf-z time_ratio=perfev-z/perf-z
#   bench=compress case=C tool=perfev|perf z_size_ratio=-z/plain z_time_ratio=-z/plain
#   bench=compress case=C/report file=plain|z tool=perfev|perf median_ms=X runs=N
#   bench=compress case=C/report file=plain|z ratio=perf/perfev      above 1: perfev is faster
#   bench=compress case=C/report tool=perfev|perf z_cost=z/plain
set -eu
PERFEV=${PERFEV:-build/perfev}
SPAWN_TIME=${SPAWN_TIME:-build/bench/spawn-time}
WORKLOAD=${WORKLOAD:-build/examples/workload}
N=${N:-5}
ITER=${ITER:-300000000}
[ "$N" -ge 3 ] || { echo "bench=compress: N must be at least 3" >&2; exit 2; }
command -v perf >/dev/null 2>&1 || { echo "bench=compress skipped: perf not installed" >&2; exit 0; }
for f in "$SPAWN_TIME" "$WORKLOAD" "$PERFEV"; do
	[ -x "$f" ] || { echo "bench=compress: $f is missing (make all)" >&2; exit 1; }
done
if ! perf record -q -z -o /dev/null -- true >/dev/null 2>&1; then
	echo "bench=compress skipped: perf record -z cannot sample here" >&2
	exit 0
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/perfev-bench-compress.XXXXXX")
trap 'rm -rf "$dir"' EXIT

median_ms() { sort -n "$1" | awk '{ a[NR] = $1 } END { printf "%.3f", a[int((NR + 1) / 2)] / 1e6 }'; }
median() { sort -n "$1" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

for c in fp dwarf; do
	case $c in
	fp) opts="-F 4000 -g" ;;
	dwarf) opts="--call-graph dwarf -F 1000" ;;
	esac
	# One recording of each kind to warm the caches, not counted.
	"$SPAWN_TIME" 1 "$WORKLOAD" "$ITER" >/dev/null
	for t in none perfev perfev-z perf perf-z; do
		: >"$dir/t.$t"
		: >"$dir/s.$t"
	done
	i=0
	while [ $i -lt "$N" ]; do
		"$SPAWN_TIME" 1 "$WORKLOAD" "$ITER" >>"$dir/t.none"
		for t in perfev perfev-z perf perf-z; do
			case $t in
			perfev) cmd="$PERFEV record -q" ;;
			perfev-z) cmd="$PERFEV record -q -z" ;;
			perf) cmd="perf record -q" ;;
			perf-z) cmd="perf record -q -z" ;;
			esac
			# perf 6.1 sometimes dies in its build-id code at the end
			# ("stack smashing detected"): such a run is recorded again.
			tries=0
			# shellcheck disable=SC2086 # the options are meant to be split
			until $cmd $opts -o "$dir/$c.$t.data" -- "$SPAWN_TIME" 1 "$WORKLOAD" "$ITER" \
				>"$dir/one" 2>/dev/null; do
				tries=$((tries + 1))
				[ $tries -lt 3 ] || { echo "bench=compress: $t failed 3 times" >&2; exit 1; }
			done
			cat "$dir/one" >>"$dir/t.$t"
			wc -c <"$dir/$c.$t.data" >>"$dir/s.$t"
		done
		i=$((i + 1))
	done
	base=$(median_ms "$dir/t.none")
	echo "bench=compress case=$c tool=none median_ms=$base runs=$N"
	for t in perfev perfev-z perf perf-z; do
		awk -v c="$c" -v t="$t" -v s="$(median "$dir/s.$t")" -v m="$(median_ms "$dir/t.$t")" \
			-v b="$base" -v n="$N" 'BEGIN {
			printf "bench=compress case=%s tool=%s size_kb=%.1f median_ms=%s overhead_pct=%.2f runs=%d\n",
				c, t, s / 1024, m, (m - b) / b * 100, n }'
	done
	awk -v c="$c" -v a="$(median "$dir/s.perfev-z")" -v b="$(median "$dir/s.perf-z")" \
		-v ta="$(median_ms "$dir/t.perfev-z")" -v tb="$(median_ms "$dir/t.perf-z")" 'BEGIN {
		printf "bench=compress case=%s size_ratio=%.3f time_ratio=%.3f\n", c, a / b, ta / tb }'
	for t in perfev perf; do
		awk -v c="$c" -v t="$t" -v a="$(median "$dir/s.$t-z")" -v b="$(median "$dir/s.$t")" \
			-v ta="$(median_ms "$dir/t.$t-z")" -v tb="$(median_ms "$dir/t.$t")" 'BEGIN {
			printf "bench=compress case=%s tool=%s z_size_ratio=%.3f z_time_ratio=%.3f\n",
				c, t, a / b, ta / tb }'
	done

	# ---- report on perf's files, plain and -z ----
	for f in plain z; do
		[ $f = plain ] && data="$dir/$c.perf.data" || data="$dir/$c.perf-z.data"
		: >"$dir/r.perfev.$f"
		: >"$dir/r.perf.$f"
		# Warm-up: perfev fills its cache directory, both read the files once.
		"$SPAWN_TIME" 1 "$PERFEV" report -i "$data" --no-children -g none \
			--sort comm,dso,sym >/dev/null
		"$SPAWN_TIME" 1 perf report -i "$data" --stdio --no-children -g none \
			--sort comm,dso,sym >/dev/null
		i=0
		while [ $i -lt "$N" ]; do
			"$SPAWN_TIME" 1 "$PERFEV" report -i "$data" --no-children -g none \
				--sort comm,dso,sym >>"$dir/r.perfev.$f"
			"$SPAWN_TIME" 1 perf report -i "$data" --stdio --no-children -g none \
				--sort comm,dso,sym >>"$dir/r.perf.$f"
			i=$((i + 1))
		done
		for t in perfev perf; do
			echo "bench=compress case=$c/report file=$f tool=$t median_ms=$(median_ms "$dir/r.$t.$f") runs=$N"
		done
		awk -v c="$c" -v f="$f" -v a="$(median_ms "$dir/r.perf.$f")" \
			-v b="$(median_ms "$dir/r.perfev.$f")" 'BEGIN {
			printf "bench=compress case=%s/report file=%s ratio=%.3f\n", c, f, a / b }'
	done
	for t in perfev perf; do
		awk -v c="$c" -v t="$t" -v a="$(median_ms "$dir/r.$t.z")" \
			-v b="$(median_ms "$dir/r.$t.plain")" 'BEGIN {
			printf "bench=compress case=%s/report tool=%s z_cost=%.3f\n", c, t, a / b }'
	done
done
