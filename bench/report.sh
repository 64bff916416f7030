#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# perfev report against perf report --stdio, on the same perf.data files,
# recorded once at the start into a temporary directory:
#
#   fp-10k        perf record -g -F 4000 of bench/report-workload (built
#                 with frame pointers), long enough for about 10k samples
#   fp-10k-perfev the same recorded by perfev record (perf report reads it too)
#   system        perf record -a -g -F 1000 -- sleep SYS_SECS while the
#                 workload, compilations and reads of /usr's files run
#
# and reported several ways:
#
#   plain         both tools' defaults (children and call graphs)
#   no-children   --no-children -g none --sort comm,dso,sym
#   srcline       --no-children -g none -s srcline
#
# Each run's wall time and peak resident set (the largest of the tool and
# the children it waited for, such as addr2line) come from
# build/bench/spawn-time -m, output to /dev/null; after one warm-up run of
# each, the tools alternate for N rounds and the medians are reported.
# perfev keeps kallsyms and inflated debug files in its cache directory
# ($XDG_CACHE_HOME/perfev) between runs: one run of each case with an
# empty cache is reported too (perfev-cold), with its ratio to perf's
# median.
# The warm-up runs' outputs are checked: both tools exit 0, and the first
# line of the no-children reports agree (a warning line if not).  Prints
# machine-readable lines:
#
#   bench=report file=F recorder=perf|perfev samples=S size_kb=K
#   bench=report case=F/C tool=perfev|perf median_ms=X peak_rss_kb=Y runs=N
#   bench=report case=F/C tool=perfev-cold ms=X peak_rss_kb=Y runs=1
#   bench=report case=F/C ratio=perf/perfev       above 1: perfev is faster
#   bench=report case=F/C cold_ratio=perf/perfev-cold
#   bench=report case=F/C warning=...
set -eu
# shellcheck source=bench/system-load.sh
. "$(dirname "$0")/system-load.sh"
PERFEV=${PERFEV:-build/perfev}
SPAWN_TIME=${SPAWN_TIME:-build/bench/spawn-time}
REPORT_WORKLOAD=${REPORT_WORKLOAD:-build/bench/report-workload}
N=${N:-7}
SYS_SECS=${SYS_SECS:-10}
# Which files to record and report: any of fp-10k fp-10k-perfev system.
FILES=${FILES:-fp-10k fp-10k-perfev system}
[ "$N" -ge 3 ] || { echo "bench=report: N must be at least 3" >&2; exit 2; }
command -v perf >/dev/null 2>&1 || { echo "bench=report skipped: perf not installed" >&2; exit 0; }
for f in "$SPAWN_TIME" "$REPORT_WORKLOAD" "$PERFEV"; do
	[ -x "$f" ] || { echo "bench=report: $f is missing (make all)" >&2; exit 1; }
done
if ! perf record -q -o /dev/null -- true >/dev/null 2>&1; then
	echo "bench=report skipped: perf record cannot sample here" >&2
	exit 0
fi

# perf report -s srcline writes to an addr2line child that may have given up
# on a file it cannot read (a deleted memfd:, seen in system-wide profiles),
# and dies of SIGPIPE; ignored here (and so in both tools), it carries on.
trap '' PIPE
dir=$(mktemp -d "${TMPDIR:-/tmp}/perfev-bench-report.XXXXXX")
trap 'rm -rf "$dir"' EXIT

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
samples() { # perf.data -> its number of samples
	perf report --stats -i "$1" 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }'
}
describe() { # name recorder
	echo "bench=report file=$1 recorder=$2 samples=$(samples "$dir/$1.data")" \
		"size_kb=$(( $(wc -c <"$dir/$1.data") / 1024 ))"
}

# ---- the recordings ------------------------------------------------------------
# About 10k samples: 2.5 s of CPU at 4000 Hz, longer if the kernel lowers the rate.
max_rate=$(cat /proc/sys/kernel/perf_event_max_sample_rate 2>/dev/null || echo 4000)
rate=4000
[ "$max_rate" -lt $rate ] && rate=$max_rate
fp_ms=$((10000 * 1000 / rate))

for f in $FILES; do
	case $f in
	fp-10k)
		perf record -q -g -F 4000 -o "$dir/$f.data" -- "$REPORT_WORKLOAD" $fp_ms >/dev/null 2>&1
		describe "$f" perf
		;;
	fp-10k-perfev)
		"$PERFEV" record -q -g -F 4000 -o "$dir/$f.data" -- "$REPORT_WORKLOAD" $fp_ms >/dev/null 2>&1
		describe "$f" perfev
		;;
	system)
		if ! perf record -q -a -o /dev/null -- true >/dev/null 2>&1; then
			echo "bench=report file=system skipped: perf record -a is not permitted here" >&2
			FILES=$(echo "$FILES" | sed 's/system//')
			continue
		fi
		# The load: the workload, compilations of it and reads of many files.
		system_load "$SYS_SECS" "$dir"
		perf record -q -a -g -F 1000 -o "$dir/$f.data" -- sleep "$SYS_SECS" >/dev/null 2>&1
		# shellcheck disable=SC2086 # a list of pids
		wait $load_pids || :
		describe "$f" perf
		;;
	*)
		echo "bench=report: unknown file '$f' in FILES" >&2
		exit 2
		;;
	esac
done

# ---- the reports ------------------------------------------------------------
# case|options of both tools (split on blanks); perf gets --stdio besides.
: >"$dir/cases"
for f in $FILES; do
	echo "$f/plain|" >>"$dir/cases"
	case $f in
	fp-10k*)
		echo "$f/no-children|--no-children -g none --sort comm,dso,sym" >>"$dir/cases" ;;
	esac
	case $f in
	fp-10k | system)
		echo "$f/srcline|--no-children -g none -s srcline" >>"$dir/cases" ;;
	esac
done

top() { # a report -> its first line, blanks squeezed
	awk '!/^#/ && NF { $1 = $1; print; exit }' "$1"
}
# The warm-up: each command once, its output kept and checked.
: >"$dir/timed"
while IFS='|' read -r c opts; do
	f=${c%%/*}
	out=$dir/$(echo "$c" | tr / .)
	# shellcheck disable=SC2086 # the options are meant to be split
	XDG_CACHE_HOME=$out.cold "$SPAWN_TIME" -m 1 "$PERFEV" report -i "$dir/$f.data" $opts \
		</dev/null >"$out.cold" 2>/dev/null || :
	# shellcheck disable=SC2086
	"$PERFEV" report -i "$dir/$f.data" $opts </dev/null >"$out.perfev" 2>"$out.perfev.err" && a=0 || a=$?
	# shellcheck disable=SC2086
	perf report --stdio -i "$dir/$f.data" $opts </dev/null >"$out.perf" 2>"$out.perf.err" && b=0 || b=$?
	if [ "$a" -ne 0 ] || [ "$b" -ne 0 ]; then
		echo "bench=report case=$c warning=exit-status perfev=$a perf=$b" \
			"perfev_error=\"$(head -n 1 "$out.perfev.err")\" perf_error=\"$(head -n 1 "$out.perf.err")\""
		continue
	fi
	case $c in
	*/no-children)
		if [ "$(top "$out.perfev")" != "$(top "$out.perf")" ]; then
			echo "bench=report case=$c warning=top-lines-differ" \
				"perfev=\"$(top "$out.perfev")\" perf=\"$(top "$out.perf")\""
		fi
		;;
	esac
	echo "$c|$opts" >>"$dir/timed"
done <"$dir/cases"

# N rounds, the tools alternating on each case.
while IFS='|' read -r c opts; do
	n=$(echo "$c" | tr / .)
	: >"$dir/t.$n.perfev"
	: >"$dir/t.$n.perf"
done <"$dir/timed"
i=0
while [ $i -lt "$N" ]; do
	while IFS='|' read -r c opts; do
		f=${c%%/*}
		n=$(echo "$c" | tr / .)
		# shellcheck disable=SC2086
		"$SPAWN_TIME" -m 1 "$PERFEV" report -i "$dir/$f.data" $opts >>"$dir/t.$n.perfev"
		# shellcheck disable=SC2086
		"$SPAWN_TIME" -m 1 perf report --stdio -i "$dir/$f.data" $opts >>"$dir/t.$n.perf"
	done <"$dir/timed"
	i=$((i + 1))
done
while IFS='|' read -r c opts; do
	n=$(echo "$c" | tr / .)
	for t in perfev perf; do
		awk -v c="$c" -v t="$t" -v ns="$(median "$dir/t.$n.$t" 1)" \
			-v kb="$(median "$dir/t.$n.$t" 2)" -v r="$N" 'BEGIN {
			printf "bench=report case=%s tool=%s median_ms=%.1f peak_rss_kb=%d runs=%d\n",
				c, t, ns / 1e6, kb, r }'
	done
	awk -v c="$c" -v a="$(median "$dir/t.$n.perf" 1)" -v b="$(median "$dir/t.$n.perfev" 1)" \
		'BEGIN { printf "bench=report case=%s ratio=%.2f\n", c, a / b }'
	if [ -s "$dir/$n.cold" ]; then
		awk -v c="$c" -v a="$(median "$dir/t.$n.perf" 1)" '{
			printf "bench=report case=%s tool=perfev-cold ms=%.1f peak_rss_kb=%d runs=1\n",
				c, $1 / 1e6, $2
			printf "bench=report case=%s cold_ratio=%.2f\n", c, a / $1 }' "$dir/$n.cold"
	fi
done <"$dir/timed"
