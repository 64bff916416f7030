# SPDX-License-Identifier: LGPL-2.1-or-later
# DWARF call chains: perfev record --call-graph dwarf files perf unwinds as its own, and the
# chains perfev script unwinds against perf script's, for programs with and without frame pointers.
. tests/cli/lib.sh
# The chains below are lists of regular expressions, never file names.
set -f

B=${PERFEV_BUILD:-build}
ORACLE=tests/cli/oracle.py
# CPU milliseconds per run: about 2000 samples at 4000 Hz.
MS=500

have_perf61

if ! "$PERFEV" record -q -o "$TMP/probe.data" -- true >"$TMP/probe.out" 2>&1; then
	case "$(cat "$TMP/probe.out")" in
	*"not permitted"*|*"not supported"*|*"Permission denied"*)
		skip sampling unwind "cannot sample here: $(head -c 200 "$TMP/probe.out")"
		finish
		;;
	esac
fi

# oracle NAME ARGS...: python3 oracle.py ARGS; PASS with its first line, or FAIL with its output.
oracle() {
	name=$1
	shift
	if python3 "$ORACLE" "$@" >"$TMP/oracle.out" 2>&1; then
		pass "$name: $(head -n 1 "$TMP/oracle.out")"
	else
		fail "$name" "$(head -c 2500 "$TMP/oracle.out")"
	fi
}

# header_field FILE NAME: the value of attr field NAME in the file's first '# event :' line.
header_field() {
	"$PERFEV" script --header-only -i "$1" 2>/dev/null | grep -m 1 '^# event :' |
		tr ',' '\n' | sed -n "s/^ *$2 = //p"
}

# The chains each kind of sample must have, innermost first (regular expressions).
CHAIN_CALLS="chain_leaf chain5 chain4 chain3 chain2 chain1 run_chain one_round main"
CHAIN_QSORT="cmp_keys msort.* .*qsort.* run_sort one_round main"
CHAIN_RECURSE="recurse recurse recurse recurse recurse recurse recurse recurse recurse recurse
	recurse recurse recurse recurse recurse recurse recurse recurse recurse recurse recurse
	run_recurse one_round main"
CHAIN_LIBM=".*(sin|exp|log1p).* math_loop run_libs one_round main"

for kind in fp nofp; do
	W=$B/bench/unwind-workload-$kind
	if [ ! -x "$W" ]; then
		fail "workload_$kind" "$W is not built (make)"
		continue
	fi

	# ---- perfev's recording ----------------------------------------------------
	f=$TMP/perfev-$kind.data
	"$PERFEV" record -F 4000 -e cpu-clock --call-graph dwarf -o "$f" -- "$W" $MS \
		>"$TMP/rec.out" 2>"$TMP/rec.err"
	rc=$?
	if ! expect_rc "record_dwarf_$kind" 0; then
		continue
	fi
	st=$(header_field "$f" sample_type)
	regs=$(header_field "$f" sample_regs_user)
	stack=$(header_field "$f" sample_stack_user)
	excl=$(header_field "$f" exclude_callchain_user)
	case "$st" in
	*REGS_USER*STACK_USER*) ok=1 ;;
	*) ok= ;;
	esac
	if [ "$(uname -m)" = x86_64 ] && [ "$regs" != 0xff0fff ]; then
		ok=
	fi
	n=$(sed -n 's/.*perfev record: \([0-9]*\) samples written.*/\1/p' "$TMP/rec.err")
	lost=$(sed -n 's/.*; \([0-9]*\) lost,.*/\1/p' "$TMP/rec.err")
	size=$(wc -c <"$f")
	if [ -z "$ok" ] || [ "$stack" != 8192 ] || [ "$excl" != 1 ] || [ -z "$n" ] || [ "$n" -eq 0 ]; then
		fail "record_dwarf_$kind" "sample_type '$st', regs '$regs', stack '$stack', exclude_callchain_user '$excl', samples '$n': $(head -c 300 "$TMP/rec.err")"
	else
		pass "record_dwarf_$kind: $n samples, $lost lost, $size bytes ($((size / n)) per sample)"
	fi

	if [ -z "$have_perf" ]; then
		skip perf "perf_unwinds_perfev_file_$kind" "$why_no_perf"
		skip perf "perfev_script_unwinds_perfev_file_$kind" "$why_no_perf: nothing to compare with"
		continue
	fi

	# ---- perf unwinds perfev's file: every kind of chain, through libc and libm ----
	perf script -i "$f" >"$TMP/perf-on-perfev-$kind.txt" 2>"$TMP/perf.err"
	s=$TMP/perf-on-perfev-$kind.txt
	# shellcheck disable=SC2086
	oracle "perf_unwinds_perfev_file_$kind(calls)" chains-find "$s" $CHAIN_CALLS --min 10
	# shellcheck disable=SC2086
	oracle "perf_unwinds_perfev_file_$kind(qsort)" chains-find "$s" $CHAIN_QSORT --min 10
	# shellcheck disable=SC2086
	oracle "perf_unwinds_perfev_file_$kind(recursion)" chains-find "$s" $CHAIN_RECURSE --min 10
	# shellcheck disable=SC2086
	oracle "perf_unwinds_perfev_file_$kind(libm)" chains-find "$s" $CHAIN_LIBM --min 10
	# Nearly every sample's chain reaches main (not those of the dynamic linker and exit).
	oracle "perf_unwinds_perfev_file_$kind(main)" chains-find "$s" main --min-pct 90

	# perf report too: main's callees (its children) are nearly all the samples.
	perf report -i "$f" --stdio --children -g none --sort sym >"$TMP/report.txt" 2>/dev/null
	main_pct=$(awk '$NF == "main" && $(NF - 1) == "[.]" { sub("%", "", $1); print int($1); exit }' \
		"$TMP/report.txt")
	if [ -n "$main_pct" ] && [ "$main_pct" -ge 90 ]; then
		pass "perf_report_unwinds_perfev_file_$kind: main and its callees ${main_pct}%"
	else
		fail "perf_report_unwinds_perfev_file_$kind" "main and its callees '${main_pct}'%: $(head -c 600 "$TMP/report.txt")"
	fi

	# ---- perf's recording of the same workload ----------------------------------
	pf=$TMP/perf-$kind.data
	if ! perf record -q -F 4000 -e cpu-clock --call-graph dwarf -o "$pf" -- "$W" $MS \
		>/dev/null 2>"$TMP/perf-rec.err"; then
		fail "perf_record_dwarf_$kind" "$(head -c 300 "$TMP/perf-rec.err")"
		continue
	fi
	perf script -i "$pf" >"$TMP/perf-on-perf-$kind.txt" 2>"$TMP/perf.err"
	# perf's unwinding of both files: the same chains in about the same shares.
	oracle "same_chains_as_perf_recording_$kind" chains-dist "$TMP/perf-on-perf-$kind.txt" "$s" \
		--max 0.1

	# The comparison itself: perf against perf agrees, a copy with chains cut short does not.
	if [ "$kind" = nofp ]; then
		perf script -i "$pf" >"$TMP/perf-again.txt" 2>/dev/null
		oracle chains_cmp_perf_vs_perf chains-cmp "$TMP/perf-on-perf-$kind.txt" \
			"$TMP/perf-again.txt" --min 100
		# Every 20th sample keeps only its two innermost frames.
		awk '/^[^ \t]/ { n++; k = 0 } /^[ \t]/ { k++; if (n % 20 == 0 && k > 2) next } { print }' \
			"$TMP/perf-again.txt" >"$TMP/perf-cut.txt"
		python3 "$ORACLE" chains-cmp "$TMP/perf-on-perf-$kind.txt" "$TMP/perf-cut.txt" \
			--min 99 >"$TMP/cut.out" 2>&1
		rc=$?
		if [ "$rc" -eq 1 ] && grep -q '^matched=[0-9]* total=[0-9]* pct=9[0-8]\.' "$TMP/cut.out"; then
			pass "chains_cmp_sees_cut_chains: $(head -n 1 "$TMP/cut.out")"
		else
			fail chains_cmp_sees_cut_chains "exit status $rc: $(head -c 300 "$TMP/cut.out")"
		fi
	fi

	# ---- perfev script's chains against perf script's, on both files ------------
	for who in perfev perf; do
		file=$TMP/$who-$kind.data
		"$PERFEV" script -i "$file" >"$TMP/perfev-on-$who-$kind.txt" 2>"$TMP/perfev.err"
		oracle "perfev_script_unwinds_${who}_file_$kind" chains-cmp \
			"$TMP/perf-on-$who-$kind.txt" "$TMP/perfev-on-$who-$kind.txt" --min 99
	done
done

# ---- perfev report as perf report on perf's DWARF recording ---------------------------
# Each entry's line and its graph's lines (a multiset: branches of equal share may come in
# another order, see perfev-report(1)), so perf's inlined entries of unwound addresses must
# be there, each with its share (oracle.py graph-cmp).  Both must read the same chains: a
# recording where perf's unwinding stops short on a sample (in exit, say) is made again.
same_chains() { # perf.data
	perf script -i "$1" >"$TMP/rs-perf.txt" 2>/dev/null &&
		"$PERFEV" script -i "$1" >"$TMP/rs-perfev.txt" 2>/dev/null &&
		python3 "$ORACLE" chains-cmp "$TMP/rs-perf.txt" "$TMP/rs-perfev.txt" --min 100 \
			>"$TMP/rs.out" 2>&1
}
pf=$TMP/perf-nofp.data
if [ -n "$have_perf" ] && [ -s "$pf" ]; then
	try=1
	until same_chains "$pf" || [ $try -gt 3 ]; do
		pf=$TMP/perf-again-$try.data
		perf record -q -F 4000 -e cpu-clock --call-graph dwarf -o "$pf" -- \
			"$B/bench/unwind-workload-nofp" $MS >/dev/null 2>&1
		try=$((try + 1))
	done
	if [ $try -gt 3 ] && ! same_chains "$pf"; then
		fail report_as_perf "perf and perfev unwound samples apart in 4 recordings: $(head -c 1200 "$TMP/rs.out")"
		pf=
	fi
fi
if [ -n "$have_perf" ] && [ -s "$pf" ]; then
	for opts in "" "--no-children" "-g caller" "--sort sym" "--percent-limit 2" "-g fractal"; do
		name=report_as_perf_$(printf '%s' "${opts:-default}" | tr -c 'a-z0-9\n' _)
		# shellcheck disable=SC2086
		perf report -i "$pf" --stdio $opts 2>/dev/null |
			sed 's/\[\.\.\.\] (inlined)$/[...]/' >"$TMP/rp.txt"
		# shellcheck disable=SC2086
		"$PERFEV" report -i "$pf" $opts >"$TMP/rq.txt" 2>"$TMP/rq.err"
		if ! grep -q '(inlined)' "$TMP/rp.txt"; then
			fail "$name" "perf shows no inlined entry: $(head -c 300 "$TMP/rp.txt")"
		elif python3 "$ORACLE" graph-cmp "$TMP/rp.txt" "$TMP/rq.txt" >"$TMP/gc.out" 2>&1; then
			pass "$name: $(cat "$TMP/gc.out") inlined=$(grep -c '(inlined)' "$TMP/rq.txt")"
		else
			fail "$name" "$(head -c 1500 "$TMP/gc.out")"
		fi
	done
fi

# ---- script -j: the frames of a DWARF sample are the unwound ones ----------------------
f=$TMP/perfev-nofp.data
if [ -s "$f" ]; then
	"$PERFEV" script -j -i "$f" 2>/dev/null | python3 -c '
import json, sys
n = ok = 0
for line in sys.stdin:
    d = json.loads(line)
    if d.get("type") != "SAMPLE" or d.get("cpumode") != "user":
        continue
    n += 1
    fr = d.get("frames", [])
    ok += any(x.get("sym") == "main" and x.get("unwound") for x in fr)
print("samples=%d with_main=%d" % (n, ok))
sys.exit(0 if n and ok * 100 >= n * 90 else 1)' >"$TMP/json.out" 2>&1
	if [ $? -eq 0 ]; then
		pass "script_json_unwound_frames: $(cat "$TMP/json.out")"
	else
		fail script_json_unwound_frames "$(head -c 600 "$TMP/json.out")"
	fi
fi

# ---- rounds hold every ring's records ---------------------------------------------------
# Processes that exec on one CPU and sample on another, both CPUs busy: a round written after
# reading only the rings that woke up let the exec's COMM and MMAP2 come after later samples.
W=$B/bench/unwind-workload-nofp
sh -c 'while :; do :; done' &
busy1=$!
sh -c 'while :; do :; done' &
busy2=$!
late=0
i=0
while [ $i -lt 4 ]; do
	"$PERFEV" record -q -F 10000 -e cpu-clock --call-graph dwarf -o "$TMP/rounds.data" -- \
		sh -c "for k in 1 2 3 4 5 6; do $W 10; done" >/dev/null 2>&1
	if "$PERFEV" report -i "$TMP/rounds.data" 2>&1 >/dev/null | grep -q 'came after later ones'; then
		late=$((late + 1))
	fi
	i=$((i + 1))
done
kill "$busy1" "$busy2" 2>/dev/null
wait "$busy1" "$busy2" 2>/dev/null
if [ "$late" -eq 0 ]; then
	pass "record_rounds_in_time_order: 4 recordings, none with records out of order"
else
	fail record_rounds_in_time_order "$late of 4 recordings have records out of time order"
fi

# ---- no debuginfod client without servers ------------------------------------------
# Without DEBUGINFOD_URLS nothing is fetched: libdebuginfod (and curl, TLS...) stays unloaded.
# Where it is installed, naming a server (one that refuses at once) loads it: the check sees it.
f=$TMP/perfev-nofp.data
if [ -s "$f" ]; then
	env -u DEBUGINFOD_URLS LD_DEBUG=files "$PERFEV" report -i "$f" >/dev/null 2>"$TMP/ld.txt"
	rc=$?
	if [ "$rc" -ne 0 ] || ! grep -q 'calling init' "$TMP/ld.txt" ||
		grep -q 'libdebuginfod' "$TMP/ld.txt"; then
		fail report_without_debuginfod "exit $rc: $(grep -m 3 'libdebuginfod\|error' "$TMP/ld.txt")"
	elif ! ldconfig -p 2>/dev/null | grep -q 'libdebuginfod\.so\.1'; then
		pass "report_without_debuginfod: not loaded (libdebuginfod is not installed here)"
	elif DEBUGINFOD_URLS=http://127.0.0.1:9 DEBUGINFOD_TIMEOUT=1 \
		DEBUGINFOD_CACHE_PATH="$TMP/dcache" LD_DEBUG=files "$PERFEV" report -i "$f" \
		>/dev/null 2>"$TMP/ld2.txt" && grep -q 'libdebuginfod' "$TMP/ld2.txt"; then
		pass "report_without_debuginfod: not loaded without servers, loaded with one named"
	else
		fail report_without_debuginfod "with DEBUGINFOD_URLS set, libdebuginfod was not loaded: the check cannot see it"
	fi
fi

# ---- targets and outputs ----------------------------------------------------------
W=$B/bench/unwind-workload-nofp
if [ -z "$have_perf" ]; then
	skip perf dwarf_pipe "$why_no_perf"
	skip perf dwarf_all_cpus "$why_no_perf"
	skip perf dwarf_pid "$why_no_perf"
	finish
fi
# shellcheck disable=SC2086
set -- $CHAIN_QSORT

# A pipe (-o -): perf reads the stream from its standard input.
"$PERFEV" record -q -F 4000 -e cpu-clock --call-graph dwarf -o - -- "$W" 300 >"$TMP/pipe.data" \
	2>"$TMP/pipe.err"
rc=$?
if expect_rc dwarf_pipe 0; then
	perf script -i - <"$TMP/pipe.data" >"$TMP/pipe.txt" 2>/dev/null
	oracle dwarf_pipe chains-find "$TMP/pipe.txt" "$@" --min 10
fi

# System-wide (-a): the command's samples among everything else.
"$PERFEV" record -q -F 4000 -e cpu-clock --call-graph dwarf -a -o "$TMP/all.data" -- "$W" 300 \
	>/dev/null 2>"$TMP/all.err"
rc=$?
if expect_rc dwarf_all_cpus 0; then
	# perf 6.1 (libunwind) unwinds through libc in a system-wide recording only
	# some of the time, its own files included: in about half of them its
	# eh_frame_hdr lookup reads an address outside the process ("unwind: no map
	# for ..." under -v) and every qsort chain stops at msort_with_tmp.  perf
	# checks the chain that stays in the executable; perfev the one through libc.
	perf script -i "$TMP/all.data" >"$TMP/all.txt" 2>/dev/null
	oracle "dwarf_all_cpus(perf)" chains-find "$TMP/all.txt" $CHAIN_CALLS --min 10
	"$PERFEV" script -i "$TMP/all.data" >"$TMP/all-perfev.txt" 2>/dev/null
	oracle "dwarf_all_cpus(qsort)" chains-find "$TMP/all-perfev.txt" "$@" --min 10
	# The unwinding warning counts user stacks only: a kernel thread's sample has none.
	"$PERFEV" report -i "$TMP/all.data" >/dev/null 2>"$TMP/all-report.err"
	with_user=$(awk '/^[^\t]/ { if (u) n++; u = 0; next }
		/^\t/ && $1 !~ /^ffffffff/ { u = 1 }
		END { if (u) n++; print n + 0 }' "$TMP/all-perfev.txt")
	stacks=$(sed -n 's/.* of \([0-9]*\) user stacks were not unwound.*/\1/p' "$TMP/all-report.err")
	if [ -z "$stacks" ] || [ "$stacks" -le "$with_user" ]; then
		pass "unwind_warning_counts_user_stacks: ${stacks:-no warning}, $with_user samples with user frames"
	else
		fail unwind_warning_counts_user_stacks "warning counts $stacks stacks, only $with_user samples have user frames: $(head -c 300 "$TMP/all-report.err")"
	fi
fi

# A running process (-p): its maps come from /proc, synthesized before its samples.
"$W" 4000 >/dev/null &
wpid=$!
"$PERFEV" record -q -F 4000 -e cpu-clock --call-graph dwarf -p "$wpid" -o "$TMP/pid.data" \
	-- sleep 0.5 >/dev/null 2>"$TMP/pid.err"
rc=$?
kill "$wpid" 2>/dev/null
wait "$wpid" 2>/dev/null
if expect_rc dwarf_pid 0; then
	perf script -i "$TMP/pid.data" >"$TMP/pid.txt" 2>/dev/null
	oracle dwarf_pid chains-find "$TMP/pid.txt" "$@" --min 10
fi
# ---- --unwind: the stacks unwound while recording, stored as call chains ------------
W=$B/bench/unwind-workload-nofp
"$PERFEV" record -F 4000 -e cpu-clock --call-graph dwarf --unwind -o "$TMP/unw.data" -- "$W" $MS \
	>/dev/null 2>"$TMP/unw.err"
rc=$?
if expect_rc unwind_record 0; then
	n=$(sed -n 's/.*perfev record: \([0-9]*\) samples written.*/\1/p' "$TMP/unw.err")
	lost=$(sed -n 's/.*; \([0-9]*\) lost,.*/\1/p' "$TMP/unw.err")
	unwound=$(sed -n 's/.*perfev record: \([0-9]*\) stacks unwound.*/\1/p' "$TMP/unw.err")
	size=$(wc -c <"$TMP/unw.data")
	raw=$(wc -c <"$TMP/perfev-nofp.data" 2>/dev/null || echo 0)
	if [ -z "$n" ] || [ "$n" -eq 0 ] || [ "$lost" != 0 ] || [ "$unwound" != "$n" ]; then
		fail unwind_record "samples '$n', lost '$lost', unwound '$unwound': $(head -c 400 "$TMP/unw.err")"
	elif [ "$raw" -gt 0 ] && [ $((size * 10)) -gt "$raw" ]; then
		fail unwind_record "$size bytes against $raw for the stacks: above 10%"
	else
		pass "unwind_record: $n samples, all unwound, 0 lost, $((size / n)) bytes per sample"
	fi
	# perfev reads the stored chains as they are, with every kind of chain.
	"$PERFEV" script -i "$TMP/unw.data" >"$TMP/unw-perfev.txt" 2>/dev/null
	# shellcheck disable=SC2086
	oracle unwind_chains_calls chains-find "$TMP/unw-perfev.txt" $CHAIN_CALLS --min 10
	# shellcheck disable=SC2086
	oracle unwind_chains_qsort chains-find "$TMP/unw-perfev.txt" $CHAIN_QSORT --min 10
	oracle unwind_chains_main chains-find "$TMP/unw-perfev.txt" main --min-pct 90
	if [ -n "$have_perf" ]; then
		# perf reads them too, as ordinary call chains, the same as perfev.
		perf script -i "$TMP/unw.data" >"$TMP/unw-perf.txt" 2>/dev/null
		oracle unwind_perf_reads_chains chains-cmp "$TMP/unw-perf.txt" "$TMP/unw-perfev.txt" \
			--min 99
		# The same chains, in the same shares, as perf unwinding a recording of the stacks
		# (named by symbol: perf expands inlined functions only where it unwinds itself).
		if [ -s "$TMP/perf-nofp.data" ]; then
			perf script --no-inline -i "$TMP/perf-nofp.data" >"$TMP/perf-noinl.txt" 2>/dev/null
			oracle unwind_same_chains_as_perf chains-dist "$TMP/perf-noinl.txt" \
				"$TMP/unw-perf.txt" --max 0.1
		fi
	else
		skip perf unwind_perf_reads_chains "$why_no_perf"
	fi
fi
"$PERFEV" record --unwind -o "$TMP/unw2.data" -- true >/dev/null 2>"$TMP/unw2.err"
rc=$?
if expect_rc unwind_needs_dwarf 2 && grep -q 'call-graph dwarf' "$TMP/unw2.err"; then
	pass unwind_needs_dwarf_message
else
	fail unwind_needs_dwarf_message "$(head -c 300 "$TMP/unw2.err")"
fi
finish
