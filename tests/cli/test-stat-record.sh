# SPDX-License-Identifier: LGPL-2.1-or-later
# perfev stat record / stat report against perf 6.1: perfev's files read by perf stat report
# and perfev stat report with the same counts (and the counts perfev stat printed while
# recording), perf's files read by perfev stat report as perf stat report shows them.
. tests/cli/lib.sh

ORACLE=tests/cli/oracle.py
have_perf61
if [ -z "$have_perf" ]; then
	skip perf stat_record_vs_perf "$why_no_perf"
	finish
fi
if ! "$PERFEV" stat -e task-clock true >"$TMP/probe" 2>&1; then
	skip counting stat_record "cannot count here: $(head -c 200 "$TMP/probe")"
	finish
fi

# cmp_reports NAME FILE LIVE: perf stat report and perfev stat report of FILE agree (and with
# LIVE, the report perfev stat printed while recording).
cmp_reports() {
	name=$1 file=$2 live=$3
	perf stat report -i "$file" >/dev/null 2>"$TMP/perf.rep"
	run "$PERFEV" stat report -i "$file"
	cp "$TMP/err" "$TMP/perfev.rep"
	if [ "$rc" -ne 0 ]; then
		fail "$name" "perfev stat report failed: $(head -c 300 "$TMP/err")"
	elif ! python3 "$ORACLE" stat-report-cmp "$TMP/perf.rep" "$TMP/perfev.rep" >"$TMP/cmp" 2>&1; then
		fail "$name" "$(head -c 800 "$TMP/cmp")"
	elif [ -n "$live" ] &&
		! python3 "$ORACLE" stat-report-cmp "$live" "$TMP/perfev.rep" >"$TMP/cmp" 2>&1; then
		fail "$name" "the report differs from what perfev stat printed: $(head -c 800 "$TMP/cmp")"
	else
		pass "$name: $(cat "$TMP/cmp")"
	fi
}

sleep 60 &
sleeper=$!
i=0
for opts in "-e task-clock,page-faults -- true" \
	"-e task-clock,page-faults,cycles -- true" \
	"-d -- true" \
	"-I 100 -e task-clock,page-faults -- sleep 0.25" \
	"-a -e cpu-clock,context-switches -- sleep 0.05" \
	"-a -A -e cpu-clock -- sleep 0.05" \
	"-p $sleeper --per-thread -e task-clock,context-switches -- sleep 0.1"; do
	i=$((i + 1))
	# shellcheck disable=SC2086
	perf stat record -o "$TMP/perf$i.data" $opts >/dev/null 2>"$TMP/perf.err"
	if [ -s "$TMP/perf$i.data" ]; then
		cmp_reports "perf_file($opts)" "$TMP/perf$i.data"
	else
		fail "perf_file($opts)" "perf stat record failed: $(head -c 300 "$TMP/perf.err")"
	fi
	# shellcheck disable=SC2086
	run "$PERFEV" stat record -o "$TMP/perfev$i.data" $opts
	cp "$TMP/err" "$TMP/live"
	if [ "$rc" -ne 0 ]; then
		fail "perfev_file($opts)" "perfev stat record failed: $(head -c 300 "$TMP/err")"
		continue
	fi
	case "$opts" in
	# Interval output lines have their own times; the STAT_ROUNDs keep perf's.
	-I*) cmp_reports "perfev_file($opts)" "$TMP/perfev$i.data" ;;
	*) cmp_reports "perfev_file($opts)" "$TMP/perfev$i.data" "$TMP/live" ;;
	esac
done
kill "$sleeper" 2>/dev/null

# ---- the attrs of the files: what an option changes in perf's, it changes in perfev's ------
for opt in --all-user --all-kernel "-e cpu-clock" --group; do
	# shellcheck disable=SC2086
	perf stat record -o "$TMP/pb.data" -e task-clock -e page-faults -- true >/dev/null 2>&1 &&
		perf stat record -o "$TMP/pc.data" -e task-clock -e page-faults $opt -- true >/dev/null 2>&1 &&
		"$PERFEV" stat record -o "$TMP/ob.data" -e task-clock -e page-faults -- true >/dev/null 2>&1 &&
		"$PERFEV" stat record -o "$TMP/oc.data" -e task-clock -e page-faults $opt -- true >/dev/null 2>&1 || {
		fail "file_attrs($opt)" "a stat record failed"
		continue
	}
	if python3 "$ORACLE" attr-delta "$TMP/pb.data" "$TMP/pc.data" "$TMP/ob.data" "$TMP/oc.data" \
		>"$TMP/delta" 2>&1; then
		pass "file_attrs($opt): $(cat "$TMP/delta")"
	else
		fail "file_attrs($opt)" "$(head -c 400 "$TMP/delta")"
	fi
done

# ---- what perf sees in perfev's file ------------------------------------------------------
perf report -D -i "$TMP/perfev4.data" >"$TMP/dump" 2>/dev/null
perf report --header-only -i "$TMP/perfev4.data" >"$TMP/header" 2>/dev/null
missing=
for t in THREAD_MAP CPU_MAP STAT_CONFIG STAT STAT_ROUND EVENT_UPDATE; do
	grep -q "PERF_RECORD_$t\b" "$TMP/dump" || missing="$missing $t"
done
if [ -n "$missing" ]; then
	fail perf_reads_records "perf report -D finds no$missing"
elif ! grep -q 'contains stat data' "$TMP/header"; then
	fail perf_reads_records "no STAT feature: $(grep -c . "$TMP/header") header lines"
elif ! grep -q 'interval  100' "$TMP/dump" || ! grep -q 'type INTERVAL' "$TMP/dump"; then
	fail perf_reads_records "no interval in STAT_CONFIG or STAT_ROUND: $(grep -A3 STAT_CONFIG "$TMP/dump" | head -5)"
else
	pass "perf_reads_records: $(grep -c 'PERF_RECORD_STAT$' "$TMP/dump") STAT records"
fi

# ---- perfev script -D and -j name the records' fields as perf report -D does --------------
for f in "$TMP/perfev4.data" "$TMP/perf4.data" "$TMP/perf6.data"; do
	perf report -D -i "$f" 2>/dev/null | grep '^\.\.\.\|PERF_RECORD' | grep -v MMAP >"$TMP/pd"
	"$PERFEV" script -D -i "$f" 2>/dev/null | grep '^\.\.\.\|PERF_RECORD' | grep -v MMAP >"$TMP/od"
	if [ -s "$TMP/pd" ] && cmp -s "$TMP/pd" "$TMP/od"; then
		pass "dump_fields($(basename "$f")): $(grep -c '^\.\.\.' "$TMP/od") field lines as perf's"
	else
		fail "dump_fields($(basename "$f"))" "$(diff "$TMP/pd" "$TMP/od" | head -c 600)"
	fi
done
"$PERFEV" script -j -i "$TMP/perfev4.data" >"$TMP/j" 2>"$TMP/err"
python3 - "$TMP/j" >"$TMP/jc" 2>&1 <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
by = {}
for r in recs:
    by.setdefault(r["type"], []).append(r)
assert by["STAT_CONFIG"][0]["config"]["interval"] == 100, by["STAT_CONFIG"]
assert all(set(r) >= {"id", "cpu", "thread", "val", "ena", "run"} for r in by["STAT"]), by["STAT"][0]
assert {r["round"] for r in by["STAT_ROUND"]} == {"INTERVAL"}, by["STAT_ROUND"]
assert by["CPU_MAP"][0]["cpus"] == [-1] and by["THREAD_MAP"][0]["threads"][0]["pid"] > 0
assert {"unit", "scale"} <= {k for r in by["EVENT_UPDATE"] for k in r}
print("%d STAT records" % len(by["STAT"]))
PY
if [ $? -eq 0 ]; then
	pass "script_json_fields: $(cat "$TMP/jc")"
else
	fail script_json_fields "$(head -c 600 "$TMP/jc")"
fi

# ---- mistakes ----------------------------------------------------------------------------
"$PERFEV" record -q -o "$TMP/sampled.data" -e task-clock -- true >/dev/null 2>&1
run "$PERFEV" stat report -i "$TMP/sampled.data"
expect_rc not_a_stat_file 1 && { grep -q 'not written by stat record' "$TMP/err" &&
	pass not_a_stat_file || fail not_a_stat_file "$(head -c 300 "$TMP/err")"; }
run "$PERFEV" stat report -i "$TMP/none.data"
expect_rc stat_report_missing 1 && pass stat_report_missing
run "$PERFEV" stat record -r 2 -o "$TMP/r.data" -- true
expect_rc stat_record_repeat 2 && pass stat_record_repeat

finish
