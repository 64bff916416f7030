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

# ---- usage errors ------------------------------------------------------------------------
run "$PERFEV" stat --all-user --all-kernel -- true
expect_rc all_user_and_kernel 2 && pass all_user_and_kernel
run "$PERFEV" stat --group -- true
expect_rc group_without_events 2 && pass group_without_events
run "$PERFEV" stat -dddd -- true
expect_rc detailed_too_deep 2 && pass detailed_too_deep

finish
