# SPDX-License-Identifier: LGPL-2.1-or-later
# perf stat's event options in perfev stat (-d/-dd/-ddd, --group, --all-user, --all-kernel,
# the default list of -a and -C, --per-thread): each changes the events perfev opens as it
# changes perf's (strace of perf_event_open for both, oracle.py stat-attr-delta).
. tests/cli/lib.sh

ORACLE=tests/cli/oracle.py
have_perf61
if [ -z "$have_perf" ]; then
	skip perf stat_options_vs_perf "$why_no_perf"
	finish
fi
if ! command -v strace >/dev/null 2>&1; then
	skip strace stat_options_vs_perf "strace is not installed: the attrs are read from its trace"
	finish
fi

# trace FILE CMD...: the perf_event_open calls of CMD.
trace() {
	out=$1
	shift
	strace -f -qq -e trace=perf_event_open -v -s 0 -o "$out" "$@" >/dev/null 2>"$TMP/trace.err"
}

# same NAME BASE_OPTS -- OPTS: both tools with BASE_OPTS, then with BASE_OPTS OPTS, on CMD.
same() {
	name=$1 base=$2 opts=$3 cmd=${4:-true}
	# shellcheck disable=SC2086
	trace "$TMP/pb" perf stat $base -- $cmd && trace "$TMP/pc" perf stat $base $opts -- $cmd || {
		fail "$name" "perf stat $base $opts failed: $(head -c 300 "$TMP/trace.err")"
		return
	}
	# shellcheck disable=SC2086
	trace "$TMP/ob" "$PERFEV" stat $base -- $cmd &&
		trace "$TMP/oc" "$PERFEV" stat $base $opts -- $cmd || {
		fail "$name" "perfev stat $base $opts failed: $(head -c 300 "$TMP/trace.err")"
		return
	}
	if python3 "$ORACLE" stat-attr-delta "$TMP/pb" "$TMP/pc" "$TMP/ob" "$TMP/oc" \
		>"$TMP/delta.out" 2>&1; then
		pass "$name: $(cat "$TMP/delta.out")"
	else
		fail "$name" "$(head -c 600 "$TMP/delta.out")"
	fi
}

if ! "$PERFEV" stat -e task-clock true >"$TMP/probe" 2>&1; then
	skip counting stat_options "cannot count here: $(head -c 200 "$TMP/probe")"
	finish
fi

same detailed "" "-d"
same very_detailed "" "-dd"
same very_very_detailed "" "-ddd"
same detailed_with_events "-e task-clock" "-d"
same all_user "-e task-clock,page-faults:k" "--all-user"
same all_kernel "-e task-clock,page-faults:u" "--all-kernel"
same group "-e task-clock -e page-faults -e cpu-clock" "--group"
same group_all_user "-e task-clock -e page-faults" "--group --all-user"
same system_wide_defaults "-a -e page-faults" "-e cpu-clock -e context-switches" "sleep 0.01"
same system_wide_default_list "-a" "" "sleep 0.01"
same cpu_default_list "-C 0" "" "sleep 0.01"
sleep 5 &
sleeper=$!
same per_thread_pid "-p $sleeper -e task-clock" "--per-thread" "sleep 0.01"
kill "$sleeper"

# ---- the default list of a CPU target: cpu-clock, as perf ---------------------------------
for t in "-a" "-C 0"; do
	# shellcheck disable=SC2086
	trace "$TMP/p" perf stat $t -- sleep 0.01
	# shellcheck disable=SC2086
	trace "$TMP/o" "$PERFEV" stat $t -- sleep 0.01
	if python3 "$ORACLE" stat-attr-delta "$TMP/p" "$TMP/p" "$TMP/o" "$TMP/o" >/dev/null 2>&1 &&
		grep -q 'config=PERF_COUNT_SW_CPU_CLOCK' "$TMP/o" &&
		! grep -q 'config=PERF_COUNT_SW_TASK_CLOCK' "$TMP/o"; then
		pass "default_list($t): cpu-clock, not task-clock"
	else
		fail "default_list($t)" "$(grep -o 'config=PERF_COUNT_SW_[A-Z_]*' "$TMP/o" | sort -u | tr '\n' ' ')"
	fi
	# shellcheck disable=SC2086
	run "$PERFEV" stat $t -- sleep 0.05
	if [ "$rc" -eq 0 ] && grep -Eq 'msec cpu-clock +# +[0-9.]+ CPUs utilized' "$TMP/err" &&
		! grep -q 'seconds user' "$TMP/err"; then
		pass "cpu_clock_line($t)"
	else
		fail "cpu_clock_line($t)" "rc=$rc $(head -c 400 "$TMP/err")"
	fi
done

# ---- -d prints perf's lines: <not supported> without the hardware, ratios with it ------
perf stat -ddd -x, -- true 2>"$TMP/perf.csv" >/dev/null
run "$PERFEV" stat -ddd -x, -- true
python3 - "$TMP/perf.csv" "$TMP/err" >"$TMP/cmp" 2>&1 <<'PY'
import sys
def rows(path):
    out = {}
    for line in open(path):
        f = line.rstrip("\n").split(",")
        if len(f) > 2 and f[2] and "-" in f[2] and ("cache" in f[2] or "TLB" in f[2] or "LLC" in f[2]):
            out[f[2]] = f[0] if f[0].startswith("<") else "count"
    return out
p, o = rows(sys.argv[1]), rows(sys.argv[2])
if p != o:
    sys.exit("perf %s\nperfev %s" % (p, o))
print("%d events" % len(p))
PY
if [ $? -eq 0 ]; then
	pass "ddd_lines: $(cat "$TMP/cmp") shown as perf shows them"
else
	fail ddd_lines "$(head -c 600 "$TMP/cmp")"
fi

# ---- --per-thread: perf's rule (a task target, or -a alone) ------------------------------
for t in "" "-C 0"; do
	# shellcheck disable=SC2086
	perf stat --per-thread $t -- true >/dev/null 2>&1
	prc=$?
	# shellcheck disable=SC2086
	run "$PERFEV" stat --per-thread $t -- true
	if [ "$prc" -ne 0 ] && [ "$rc" -eq 2 ] && grep -q -- '--per-thread counts threads' "$TMP/err"; then
		pass "per_thread_refused(${t:-command})"
	else
		fail "per_thread_refused(${t:-command})" "perf rc=$prc, perfev rc=$rc: $(head -c 300 "$TMP/err")"
	fi
done
run "$PERFEV" stat --per-thread -a -e task-clock -- sleep 0.05
if [ "$rc" -eq 0 ] && grep -Eq '^ *[0-9]+ +[0-9.]+ msec task-clock' "$TMP/err" &&
	! grep -q 'not counted' "$TMP/err"; then
	pass "per_thread_system_wide: $(grep -c 'msec task-clock' "$TMP/err") threads that ran"
else
	fail per_thread_system_wide "rc=$rc $(head -c 400 "$TMP/err")"
fi

# ---- -M: perfev's metrics, with the default metrics' rule for counts multiplexed apart -----
run "$PERFEV" stat -x, -M cs_per_second,CPUs_utilized,page_faults_per_second -- true
python3 - "$TMP/err" >"$TMP/m" 2>&1 <<'PY'
import sys
rows = {r[2]: r for r in (l.rstrip("\n").split(",") for l in open(sys.argv[1])) if len(r) > 6}
# The clock's nanoseconds from its runtime column (the value is rounded to 0.01 ms).
tc, cs, pf = float(rows["task-clock"][3]), float(rows["context-switches"][0]), float(rows["page-faults"][0])
assert abs(float(rows["cs_per_second"][0]) - cs * 1e9 / tc) <= 1e-4 * max(1, cs * 1e9 / tc), rows
assert abs(float(rows["page_faults_per_second"][0]) - pf * 1e9 / tc) <= 1e-4 * pf * 1e9 / tc, rows
assert rows["page_faults_per_second"][6] == "faults/sec", rows
assert 0 < float(rows["CPUs_utilized"][0]) < 4, rows
print("%.0f faults/sec" % float(rows["page_faults_per_second"][0]))
PY
pyrc=$?
if [ "$rc" -eq 0 ] && [ "$pyrc" -eq 0 ]; then
	pass "metrics_software: $(cat "$TMP/m")"
else
	fail metrics_software "rc=$rc $(head -c 400 "$TMP/m") $(head -c 300 "$TMP/err")"
fi
run "$PERFEV" stat -M insn_per_cycle,branch_miss_rate,cs_per_second -- true
if perf stat -e instructions -x, true 2>&1 | grep -q 'not supported'; then
	if [ "$rc" -eq 0 ] && grep -Eq '<not supported> +insn_per_cycle' "$TMP/err" &&
		grep -Eq '<not supported> +branch_miss_rate' "$TMP/err" &&
		grep -q 'metric insn_per_cycle: its events .* need a hardware PMU' "$TMP/err" &&
		! grep -q 'cpu-clock' "$TMP/err"; then
		pass "metrics_without_pmu: <not supported> and why, no cycles turned into cpu-clock"
	else
		fail metrics_without_pmu "rc=$rc $(head -c 600 "$TMP/err")"
	fi
	run "$PERFEV" stat -M insn_per_cycle -- true
	expect_rc metrics_none_countable 1 && {
		grep -q 'cannot count the metrics of -M here: their events need a hardware PMU' "$TMP/err" &&
			pass metrics_none_countable || fail metrics_none_countable "$(head -c 300 "$TMP/err")"
	}
elif [ "$rc" -eq 0 ] && grep -Eq '^ +[0-9.]+ +insn_per_cycle' "$TMP/err"; then
	pass "metrics_with_pmu"
else
	fail metrics_with_pmu "rc=$rc $(head -c 600 "$TMP/err")"
fi
# The same counts counted together or multiplexed apart: a value, or <not comparable>.
"$PERFEV" stat record -o "$TMP/sw.data" -e page-faults,context-switches -- true 2>/dev/null
for mux in 0 1; do
	# PERF_TYPE_HARDWARE instructions (1) 3000, cycles (0) 1000.
	python3 "$ORACLE" stat-file-as "$TMP/sw.data" "$TMP/ipc$mux.data" $mux 0:1:3000 0:0:1000 >/dev/null
	run "$PERFEV" stat report -M insn_per_cycle,CPI -i "$TMP/ipc$mux.data"
	if [ "$mux" = 0 ] && [ "$rc" -eq 0 ] && grep -Eq ' 3\.000 +insn_per_cycle' "$TMP/err" &&
		grep -Eq ' 0\.333 +CPI' "$TMP/err"; then
		pass "metrics_together: 3000 instructions, 1000 cycles, insn_per_cycle 3.000"
	elif [ "$mux" = 1 ] && [ "$rc" -eq 0 ] &&
		grep -Eq '<not comparable> +insn_per_cycle .*multiplexed apart' "$TMP/err" &&
		! grep -Eq '[0-9] +insn_per_cycle' "$TMP/err"; then
		pass "metrics_multiplexed_apart: <not comparable>, as the default metrics"
	else
		fail "metrics_mux$mux" "rc=$rc $(head -c 600 "$TMP/err")"
	fi
done
# The ratios after '#' (those of -d among them) as perf stat report prints them for the same
# counts: 250 of 1000 for each cache's load misses (PERF_TYPE_HW_CACHE, result 1) over its
# loads, branch-misses over branches, cache-misses over cache-references; 3000 instructions
# over 1000 cycles.
for pair in 3:65536:250,3:0:1000 3:65537:250,3:1:1000 3:65538:250,3:2:1000 \
	3:65539:250,3:3:1000 3:65540:250,3:4:1000 0:5:250,0:4:1000 0:3:250,0:2:1000 \
	0:1:3000,0:0:1000; do
	# shellcheck disable=SC2046
	python3 "$ORACLE" stat-file-as "$TMP/sw.data" "$TMP/c.data" 0 $(echo "$pair" | tr , ' ') >/dev/null
	perf stat report -i "$TMP/c.data" 2>&1 >/dev/null | grep -o '# .*' | sed 's/ *$//' >"$TMP/pm"
	"$PERFEV" stat report -i "$TMP/c.data" 2>&1 >/dev/null | grep -o '# .*' | sed 's/ *$//' >"$TMP/om"
	if grep -Eq '25.00% |25.000 % |3.00  insn' "$TMP/om" && cmp -s "$TMP/pm" "$TMP/om"; then
		pass "ratio_line($pair): $(sed 's/^# *//' "$TMP/om")"
	else
		fail "ratio_line($pair)" "perf: $(cat "$TMP/pm") perfev: $(cat "$TMP/om")"
	fi
done
run "$PERFEV" list metric
if [ "$rc" -eq 0 ] && grep -q 'insn_per_cycle' "$TMP/out" && grep -q 'branch_miss_rate' "$TMP/out" &&
	grep -q 'cs_per_second' "$TMP/out"; then
	pass "list_metric: $(grep -c '^  [A-Za-z]' "$TMP/out") metrics"
else
	fail list_metric "rc=$rc $(head -c 300 "$TMP/out") $(head -c 300 "$TMP/err")"
fi
run "$PERFEV" list -j metric
json_ok "$TMP/out" && pass list_metric_json || fail list_metric_json "$(cat "$TMP/json-err")"
run "$PERFEV" stat -M no_such_metric -- true
expect_rc metric_unknown 2 && { grep -q "cannot find metric 'no_such_metric'" "$TMP/err" &&
	pass metric_unknown || fail metric_unknown "$(head -c 300 "$TMP/err")"; }

# ---- usage errors ------------------------------------------------------------------------
run "$PERFEV" stat --all-user --all-kernel -- true
expect_rc all_user_and_kernel 2 && pass all_user_and_kernel
run "$PERFEV" stat --group -- true
expect_rc group_without_events 2 && pass group_without_events
run "$PERFEV" stat -dddd -- true
expect_rc detailed_too_deep 2 && pass detailed_too_deep

finish
