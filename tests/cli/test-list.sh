# SPDX-License-Identifier: LGPL-2.1-or-later
# perfev list: sections, filters, JSON, fixture PMUs, unprivileged users.
. tests/cli/lib.sh

run "$PERFEV" list
if expect_rc list_all 0; then
	missing=""
	for want in task-clock 'cpu-cycles OR cycles' 'context-switches OR cs' L1-dcache-load-misses \
		LLC-prefetch-misses branch-load-misses dTLB-loads node-loads duration_time 'msr/tsc/' \
		'mem:<addr>' rNNN 'pmu/term=value'; do
		grep -qF -- "$want" "$TMP/out" || missing="$missing '$want'"
	done
	[ -z "$missing" ] && pass list_all || fail list_all "missing:$missing"
fi

run "$PERFEV" list -j
if expect_rc list_json 0; then
	if json_ok "$TMP/out"; then
		python3 - "$TMP/out" <<'PY' && pass list_json || fail list_json "content check failed"
import json, sys
d = json.load(open(sys.argv[1]))
names = {e["name"]: e for e in d["events"]}
assert names["task-clock"]["kind"] == "software" and names["task-clock"]["config"] == 1
assert names["cpu-cycles"]["aliases"] == ["cycles"] and names["cpu-cycles"]["type"] == 0
assert names["LLC-load-misses"]["config"] == 0x10002
assert names["msr/tsc/"]["pmu"] == "msr"
pmus = {p["name"]: p for p in d["pmus"]}
assert pmus["software"]["type"] == 1 and pmus["tracepoint"]["type"] == 2
assert any(f["name"] == "event" for f in pmus["msr"]["formats"])
assert "u" in d["modifiers"] and d["syntax"]
for e in d["events"]:
    assert isinstance(e["name"], str) and e["kind"]
PY
	else
		fail list_json "invalid JSON: $(cat "$TMP/json-err")"
	fi
fi

# Hardware support is probed: it must agree with an actual open.
run "$PERFEV" list -j hw
hw_json=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["events"][0]["supported"])' "$TMP/out")
run "$PERFEV" attr --open cycles:u
if { [ "$rc" -eq 0 ] && [ "$hw_json" = True ]; } || { [ "$rc" -ne 0 ] && [ "$hw_json" = False ]; }; then
	pass hw_supported_matches_open
else
	fail hw_supported_matches_open "list says supported=$hw_json, open exit status $rc"
fi

run "$PERFEV" list sw
if expect_rc filter_keyword 0; then
	if grep -q task-clock "$TMP/out" && ! grep -q cycles "$TMP/out" && ! grep -q L1-dcache "$TMP/out"; then
		pass filter_keyword
	else
		fail filter_keyword "$(cat "$TMP/out")"
	fi
fi

run "$PERFEV" list 'L1-d*misses'
if expect_rc filter_glob 0; then
	n=$(grep -c 'Hardware cache event' "$TMP/out")
	[ "$n" -eq 3 ] && ! grep -q task-clock "$TMP/out" && pass filter_glob ||
		fail filter_glob "expected 3 cache events, got $n"
fi

run "$PERFEV" list clock
expect_rc filter_substring 0 && grep -q cpu-clock "$TMP/out" && grep -q task-clock "$TMP/out" &&
	pass filter_substring

run "$PERFEV" list nothingmatchesthis
expect_rc filter_nomatch 1 && grep -q "no event matches 'nothingmatchesthis'" "$TMP/err" &&
	pass filter_nomatch

run "$PERFEV" list -d sw
expect_rc details 0 && grep -q 'time the task ran' "$TMP/out" && pass details

if [ -d /sys/kernel/tracing/events/sched ] && [ -r /sys/kernel/tracing/events ]; then
	run "$PERFEV" list 'sched:sched_sw*'
	expect_rc tracepoints 0 && grep -q 'sched:sched_switch' "$TMP/out" &&
		! grep -q task-clock "$TMP/out" && pass tracepoints
else
	skip tracefs tracepoints "tracefs is not mounted or not readable"
fi

# Fixture PMUs: aliases, split format ranges, caps.
PERFEV_SYSFS_ROOT=$DATA/sysfs run "$PERFEV" list pmu
if expect_rc fixture_pmu 0; then
	grep -q 'cpu/mem-loads/' "$TMP/out" && grep -q 'uncore_imc_0/cas_count_read/' "$TMP/out" &&
		grep -q 'event(config:0xf000000ff)' "$TMP/out" && pass fixture_pmu ||
		fail fixture_pmu "$(cat "$TMP/out")"
fi
PERFEV_SYSFS_ROOT=$DATA/sysfs run "$PERFEV" list -j pmu
if expect_rc fixture_pmu_json 0 && json_ok "$TMP/out"; then
	python3 - "$TMP/out" <<'PY' && pass fixture_pmu_json || fail fixture_pmu_json "content"
import json, sys
d = json.load(open(sys.argv[1]))
cpu = [p for p in d["pmus"] if p["name"] == "cpu"][0]
fmt = {f["name"]: f for f in cpu["formats"]}
assert fmt["event"]["mask"] == 0xf000000ff and fmt["event"]["bits"] == 12
assert fmt["ldlat"]["field"] == "config1" and fmt["hybrid_ext"]["field"] == "config3"
assert cpu["caps"]["max_precise"] == "3" and cpu["rdpmc"] == 1 and cpu["cpumask"] == "0-3"
ev = {e["name"]: e for e in d["events"]}
assert ev["cpu/mem-loads/"]["encoding"] == "cpu/event=0xcd,umask=0x1,ldlat=3/"
assert "broken" not in [p["name"] for p in d["pmus"]]
PY
fi

# An unprivileged user cannot read tracefs: say so instead of listing nothing.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 && [ -d /sys/kernel/tracing/events ]; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$PERFEV" list tracepoint >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if setpriv --reuid=65534 --regid=65534 --clear-groups sh -c 'test -r /sys/kernel/tracing/events/sched'; then
		skip unpriv unprivileged_tracefs "tracefs is world-readable on this machine"
	elif [ "$rc" -eq 1 ] && grep -q 'not readable' "$TMP/err"; then
		pass unprivileged_tracefs
	else
		fail unprivileged_tracefs "rc $rc, stderr: $(cat "$TMP/err")"
	fi
else
	skip root unprivileged_tracefs "needs root, setpriv and tracefs to drop to nobody"
fi
finish
