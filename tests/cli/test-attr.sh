# SPDX-License-Identifier: LGPL-2.1-or-later
# perfev attr: attr dumps, JSON, --open against the real kernel, errors.
. tests/cli/lib.sh

have_hw() {
	# The machine can count generic hardware events (perf's own check, when perf exists).
	if command -v perf >/dev/null 2>&1; then
		perf stat -x, -e instructions:u true 2>&1 | grep -q '^[0-9]'
	else
		"$PERFEV" attr --open instructions:u >/dev/null 2>&1
	fi
}

run "$PERFEV" attr -j 'cycles:u' '{cs,faults}:k' 'mem:0x1000/8:rw' 'msr/tsc/'
if expect_rc attr_json 0; then
	if ! json_ok "$TMP/out"; then
		fail attr_json "invalid JSON: $(cat "$TMP/json-err")"
	else
		python3 - "$TMP/out" <<'PY' && pass attr_json || fail attr_json "content check failed"
import json, sys
ev = json.load(open(sys.argv[1]))["events"]
assert [e["name"] for e in ev] == ["cycles:u", "cs", "faults", "mem:0x1000/8:rw", "msr/tsc/"]
a = ev[0]["attr"]
assert a["type"] == 0 and a["exclude_kernel"] == 1 and a["exclude_hv"] == 1 and a["exclude_guest"] == 1
assert a["exclude_user"] == 0 and a["size"] == 136
assert ev[1]["group_size"] == 2 and ev[2]["leader"] == 1 and ev[2]["attr"]["exclude_user"] == 1
assert ev[3]["attr"]["bp_addr"] == 0x1000 and ev[3]["attr"]["bp_len"] == 8 and ev[3]["attr"]["bp_type"] == 3
assert ev[3]["kind"] == "breakpoint" and ev[4]["pmu"] == "msr"
assert "config3" in a and "sig_data" in a
assert ev[0]["offset"] == 0 and ev[0]["length"] == len("cycles:u")
PY
	fi
fi

run "$PERFEV" attr 'cpu-clock/call-graph=dwarf,period=10000/' 'cs:S'
if expect_rc attr_text 0; then
	grep -q 'sample_type  *CALLCHAIN|REGS_USER|STACK_USER' "$TMP/out" &&
		grep -q 'sample_period  *10000' "$TMP/out" && grep -q 'flags: sample_read' "$TMP/out" &&
		grep -q 'call-graph: dwarf' "$TMP/out" && pass attr_text || fail attr_text "$(cat "$TMP/out")"
fi

# Software events always open, alone and in groups, on this process and on another.
run "$PERFEV" attr --open task-clock cs 'page-faults:u' '{cpu-clock,dummy}:u' mem:0x1000:w
if expect_rc open_software 0; then
	n=$(grep -c '^  open: ok' "$TMP/out")
	[ "$n" -eq 6 ] && pass open_software || fail open_software "$n of 6 opened: $(cat "$TMP/out")"
fi

sleep 5 &
spid=$!
run "$PERFEV" attr --open -j -p "$spid" 'task-clock,context-switches'
kill "$spid" 2>/dev/null
wait "$spid" 2>/dev/null
if expect_rc open_other_pid 0 && json_ok "$TMP/out"; then
	python3 - "$TMP/out" <<'PY' && pass open_other_pid || fail open_other_pid "$(cat "$TMP/out")"
import json, sys
ev = json.load(open(sys.argv[1]))["events"]
assert all(e["open"]["ok"] and e["open"]["id"] > 0 for e in ev)
PY
fi

# A pid that does not exist: the kernel's ESRCH, explained.
sh -c 'exit 0' &
gone=$!
wait "$gone"
run "$PERFEV" attr --open -p "$gone" task-clock
expect_rc open_esrch 1 && grep -q "failed with ESRCH: no such process: pid $gone" "$TMP/out" &&
	pass open_esrch || { [ "$rc" -eq 1 ] && fail open_esrch "$(cat "$TMP/out")"; }

if [ "$(id -u)" -eq 0 ] && [ -d /sys/kernel/tracing/events/sched/sched_switch ]; then
	run "$PERFEV" attr --open 'sched:sched_switch'
	expect_rc open_tracepoint 0 && grep -q '^  open: ok' "$TMP/out" && pass open_tracepoint
else
	skip tracefs open_tracepoint "needs root and a mounted tracefs"
fi

# Hardware events open when the machine has a PMU; otherwise the failure is explained.
run "$PERFEV" attr --open 'instructions:u' '{cycles:u,branches:u}'
if have_hw; then
	expect_rc open_hardware 0 && pass open_hardware
else
	if [ "$rc" -eq 1 ] && grep -q 'failed with ENOENT: no such event: this CPU has no hardware event' "$TMP/out"; then
		pass open_hardware_diagnosed
	else
		fail open_hardware_diagnosed "rc $rc: $(cat "$TMP/out")"
	fi
	skip hw open_hardware "no hardware PMU: 'perf stat -e instructions' reports <not supported> (ENOENT)"
fi

# Unprivileged: kernel counting is refused at paranoid 2 and the message says why.
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 && [ "$paranoid" -ge 2 ]; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$PERFEV" attr --open task-clock >"$TMP/out" 2>"$TMP/err"
	rc=$?
	expect_rc unprivileged_refused 1 &&
		grep -q "EACCES: permission denied: perf_event_paranoid is $paranoid" "$TMP/out" &&
		grep -q "add ':u'" "$TMP/out" && pass unprivileged_refused ||
		{ [ "$rc" -eq 1 ] && fail unprivileged_refused "$(cat "$TMP/out")"; }
	setpriv --reuid=65534 --regid=65534 --clear-groups "$PERFEV" attr --open task-clock:u >"$TMP/out" 2>"$TMP/err"
	rc=$?
	expect_rc unprivileged_user_only 0 && pass unprivileged_user_only
else
	skip root unprivileged_refused "needs root, setpriv and perf_event_paranoid >= 2 (it is $paranoid)"
fi

# Parse errors: exit 1, the message names the problem, a caret points at it.
run "$PERFEV" attr 'cs,cyclez:u'
if expect_rc parse_error 1; then
	if grep -q "unknown event 'cyclez'; did you mean 'cycles'?" "$TMP/err" &&
		grep -q '^       ^~~~~~$' "$TMP/err" && [ ! -s "$TMP/out" ]; then
		pass parse_error
	else
		fail parse_error "$(cat "$TMP/err")"
	fi
fi

run "$PERFEV" attr 'cpu/event=0x3c/'
expect_rc unknown_pmu 1 && grep -q "unknown PMU 'cpu'" "$TMP/err" && pass unknown_pmu

PERFEV_SYSFS_ROOT=$DATA/sysfs run "$PERFEV" attr -j 'cpu/event=0x13c,umask=1,ldlat=3/pp'
if expect_rc fixture_pmu_terms 0 && json_ok "$TMP/out"; then
	python3 - "$TMP/out" <<'PY' && pass fixture_pmu_terms || fail fixture_pmu_terms "$(cat "$TMP/out")"
import json, sys
a = json.load(open(sys.argv[1]))["events"][0]["attr"]
assert a["type"] == 4 and a["config"] == 0x10000013c and a["config1"] == 3 and a["precise_ip"] == 2
PY
fi

run "$PERFEV" attr --all cs
expect_rc all_fields 0 && grep -q '^    sigtrap  *0$' "$TMP/out" && grep -q '^    config3  *0$' "$TMP/out" &&
	pass all_fields
finish
