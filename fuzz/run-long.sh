#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Run libFuzzer harnesses one after the other, FUZZ_TIME seconds each (one
# process, no -jobs), growing CORPUS/corpus-NAME from fuzz/corpus/NAME, and
# print what each did, then one bench line per harness:
#
#   bench=fuzz harness=NAME seconds=S execs=N exec_per_s=R corpus=C findings=F
#
# Usage: sh fuzz/run-long.sh BINDIR [NAME...]   (default: every BINDIR/fuzz-*)
# FUZZ_TIME (seconds, default 60), CORPUS (default BINDIR): where corpus-NAME
# and the finding artifacts (NAME-crash-..., NAME-leak-...) go.
# Exits 1 if any harness found something.
set -u
bin=${1:?usage: run-long.sh BINDIR [NAME...]}
shift
time=${FUZZ_TIME:-60}
corpus=${CORPUS:-$bin}
mkdir -p "$corpus"
if [ $# -eq 0 ]; then
	for f in "$bin"/fuzz-*; do
		case $f in *.d) continue ;; esac
		[ -x "$f" ] && set -- "$@" "${f##*/fuzz-}"
	done
fi
summary=
status=0
for name in "$@"; do
	dir=$corpus/corpus-$name
	mkdir -p "$dir"
	# libtraceevent 1.7 leaks a few bytes on some malformed format files that
	# pass the layout check: no leak checks where formats are parsed, neither
	# per input nor at exit (crashes still are findings).  The replayed corpus
	# (make check) is leak-free.
	leaks=1
	case $name in tpformat|tracingdata) leaks=0 ;; esac
	# The option parser prints usage errors, as the tool does.
	quiet=
	case $name in options) quiet=-close_fd_mask=3 ;; esac
	# The decompression cap (perfev/perfdata.h) bounds what one input may hold.
	rss=2048
	case $name in compressed) rss=512 ;; esac
	before=$(ls "$corpus" | grep -cE "^$name-(crash|leak|timeout|oom)-" || true)
	log=$corpus/$name.log
	echo "fuzzing $name for ${time}s"
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=$leaks \
		"$bin/fuzz-$name" -max_total_time="$time" -print_final_stats=1 $quiet \
		-artifact_prefix="$corpus/$name-" -detect_leaks=$leaks -rss_limit_mb=$rss \
		"$dir" "fuzz/corpus/$name" >"$log" 2>&1
	rc=$?
	after=$(ls "$corpus" | grep -cE "^$name-(crash|leak|timeout|oom)-" || true)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
	rss_mb=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
	units=$(ls "$dir" | wc -l)
	found=$((after - before))
	# A sanitizer report that let the fuzzer go on is a finding too; a run
	# interrupted (SIGINT: libFuzzer's status 72, its stats printed) is not.
	if [ $rc -eq 72 ] && grep -q 'libFuzzer: run interrupted' "$log"; then
		rc=0
	fi
	if { [ $rc -ne 0 ] || grep -q 'runtime error:' "$log"; } && [ $found -eq 0 ]; then
		found=1
	fi
	[ $found -ne 0 ] && status=1
	printf '  %-14s %10s execs %8s exec/s  corpus %5s  rss %5s MB  findings %s\n' \
		"$name" "${execs:-?}" "${rate:-?}" "$units" "${rss_mb:-?}" "$found"
	if [ $found -ne 0 ]; then
		grep -m3 -E 'ERROR|runtime error|SUMMARY|Test unit written' "$log" | sed 's/^/    /'
	fi
	summary="${summary}bench=fuzz harness=$name seconds=$time execs=${execs:-0} exec_per_s=${rate:-0} corpus=$units findings=$found
"
done
printf '%s' "$summary"
exit $status
