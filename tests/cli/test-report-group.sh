# SPDX-License-Identifier: LGPL-2.1-or-later
# perfev report on event groups, sampled by their leader ({a,b}:S) or not: every member shown, as perf 6.1 shows it.
. tests/cli/lib.sh

W=${PERFEV_BUILD:-build}/examples/workload
have_perf61

# same NAME FILE [--top N] OPTIONS...: perf report --stdio and perfev report, both with OPTIONS, agree.
same() {
	name=$1 file=$2
	shift 2
	top=
	if [ "${1:-}" = --top ]; then
		top="--top $2"
		shift 2
	fi
	perf report -i "$file" --stdio "$@" >"$TMP/perf.txt" 2>/dev/null
	run "$PERFEV" report -i "$file" "$@"
	expect_rc "$name" 0 || return 1
	# shellcheck disable=SC2086
	if python3 tests/cli/oracle.py report-cmp "$TMP/perf.txt" "$TMP/out" $top >"$TMP/cmp.err" 2>&1; then
		pass "$name"
	else
		fail "$name" "$(cat "$TMP/cmp.err")"
	fi
}

# Without perf: a file of perfev's, whose group is shown side by side, each member counted.
if "$PERFEV" record -q -o "$TMP/pv.data" -e '{cpu-clock,task-clock}:S' -- "$W" 20000000 >/dev/null 2>"$TMP/err"; then
	run "$PERFEV" report -i "$TMP/pv.data" --group --sort comm -n
	if ! expect_rc report_group_forced 0; then
		:
	elif grep -q "^# Samples: .* of events 'anon group { cpu-clock, task-clock }'$" "$TMP/out" &&
		awk '$NF == "workload" && $1 + 0 > 90 && $2 + 0 > 90 && $3 > 0 && $3 == $4 { ok = 1 } END { exit !ok }' "$TMP/out"; then
		pass report_group_forced
	else
		fail report_group_forced "$(head -14 "$TMP/out")"
	fi
	# Each member's count is the sum of its READ values' increases: what perfev script shows.
	run "$PERFEV" report -i "$TMP/pv.data" --no-group --sort comm
	"$PERFEV" script -i "$TMP/pv.data" -F event,period >"$TMP/script.txt" 2>/dev/null
	if ! expect_rc report_group_members 0; then
		:
	elif python3 - "$TMP/out" "$TMP/script.txt" >"$TMP/cmp.err" 2>&1 <<'PY'
import re, sys
report = dict(re.findall(r"of events? '([^']+)'\n# Event count \(approx\.\): (\d+)", open(sys.argv[1]).read()))
script = {}
for line in open(sys.argv[2]):
    period, event = line.split()
    script[event.rstrip(":")] = script.get(event.rstrip(":"), 0) + int(period)
if set(report) != {"cpu-clock", "task-clock"} or any(int(report[e]) != script[e] for e in report):
    sys.exit("report %s, script %s" % (report, script))
PY
	then
		pass report_group_members
	else
		fail report_group_members "$(cat "$TMP/cmp.err")"
	fi
else
	fail report_group_forced "perfev record -e '{cpu-clock,task-clock}:S' failed: $(head -c 300 "$TMP/err")"
fi

if [ -z "$have_perf" ]; then
	skip perf report_group_vs_perf "$why_no_perf"
	finish
fi

# perf's group view, its default for a file with groups: one column per member.
if perf record -q -o "$TMP/s.data" -e '{cpu-clock,task-clock}:S' -- "$W" 50000000 >/dev/null 2>&1; then
	same report_group "$TMP/s.data" --sort comm,dso
	same report_group_sym "$TMP/s.data" --top 1 --sort comm,dso,sym
	same report_group_nr "$TMP/s.data" --sort comm,dso -n
	same report_group_limit "$TMP/s.data" --sort dso --percent-limit 5
	same report_group_off "$TMP/s.data" --sort comm,dso --no-group
	same report_group_explicit "$TMP/s.data" --sort pid,dso --group
else
	fail report_group "perf record -e '{cpu-clock,task-clock}:S' failed"
fi

# A damaged group section (a group past the events) is not used, and said.
if [ -s "$TMP/s.data" ] && python3 - "$TMP/s.data" "$TMP/bad.data" <<'PY'
import struct, sys
sys.path.insert(0, "tests/cli")
import oracle
b = bytearray(open(sys.argv[1], "rb").read())
off, size = oracle.perf_data_features(b)[17]
name_len = struct.unpack_from("<I", b, off + 4)[0]
struct.pack_into("<I", b, off + 8 + name_len + 4, 7)  # the first group's member count
open(sys.argv[2], "wb").write(b)
PY
then
	run "$PERFEV" report -i "$TMP/bad.data" --sort comm
	if ! expect_rc report_group_damaged 0; then
		:
	elif grep -q "do not fit its events" "$TMP/err" && [ "$(grep -c '^# Samples: .* of event ' "$TMP/out")" -eq 2 ]; then
		pass report_group_damaged
	else
		fail report_group_damaged "$(head -c 300 "$TMP/err") $(grep '^# Samples' "$TMP/out")"
	fi
fi

# A member that counts little or nothing between samples has zeros, not a missing column.
if perf record -q -o "$TMP/z.data" -e '{cpu-clock,major-faults,page-faults}:S' -- "$W" 20000000 >/dev/null 2>&1; then
	same report_group_three "$TMP/z.data" --sort comm,dso -n
else
	fail report_group_three "perf record -e '{cpu-clock,major-faults,page-faults}:S' failed"
fi

# With call chains: children and self columns per member, the graph of the leader's samples.
if perf record -q -g -o "$TMP/sg.data" -e '{cpu-clock,task-clock}:S' -- "$W" 50000000 >/dev/null 2>&1; then
	same report_group_children "$TMP/sg.data" --top 3 --sort comm,dso,sym -g none
	perf report -i "$TMP/sg.data" --stdio --sort comm,dso,sym 2>/dev/null |
		awk '/^#/ { next } /^ +[0-9.]+%/ { n++ } n > 2 { exit } { sub(/ +$/, ""); print }' >"$TMP/pgraph"
	"$PERFEV" report -i "$TMP/sg.data" --sort comm,dso,sym 2>"$TMP/err" |
		awk '/^#/ { next } /^ +[0-9.]+%/ { n++ } n > 2 { exit } { sub(/ +$/, ""); print }' >"$TMP/ograph"
	if [ "$(grep -c "%" "$TMP/pgraph")" -lt 2 ]; then
		fail report_group_graph "perf printed no graph: $(head -5 "$TMP/pgraph")"
	elif cmp -s "$TMP/pgraph" "$TMP/ograph"; then
		pass report_group_graph
	else
		fail report_group_graph "$(diff "$TMP/pgraph" "$TMP/ograph" | head -20)"
	fi
else
	fail report_group_children "perf record -g -e '{cpu-clock,task-clock}:S' failed"
fi

# A group whose members sample on their own.
if perf record -q -o "$TMP/g.data" -e '{cpu-clock,task-clock}' -- "$W" 20000000 >/dev/null 2>&1; then
	same report_group_unled "$TMP/g.data" --sort comm,dso -n
else
	fail report_group_unled "perf record -e '{cpu-clock,task-clock}' failed"
fi

# perfev's own file has its group section (GROUP_DESC), as perf writes it: both reports show the
# members side by side by default, and each on its own with --no-group.
if [ -s "$TMP/pv.data" ]; then
	same report_group_perfev_file "$TMP/pv.data" --sort comm,dso
	if ! grep -q "^# Samples: .* of events 'anon group { cpu-clock, task-clock }'$" "$TMP/out"; then
		fail report_group_perfev_file_desc "perfev record wrote no group: $(grep '^# Samples' "$TMP/out")"
	elif perf report -i "$TMP/pv.data" --header-only 2>/dev/null | grep -q '^# group: {cpu-clock,task-clock}$'; then
		pass report_group_perfev_file_desc
	else
		fail report_group_perfev_file_desc "perf reads no group from perfev record's file"
	fi
	same report_group_perfev_file_off "$TMP/pv.data" --sort comm,dso --no-group
	same report_group_perfev_file_forced "$TMP/pv.data" --sort comm,dso -n --group
fi
# Events of no group, shown as one with --group, as perf does.
if "$PERFEV" record -q -o "$TMP/two.data" -e cpu-clock,task-clock -- "$W" 20000000 >/dev/null 2>"$TMP/err"; then
	same report_group_forced_ungrouped "$TMP/two.data" --sort comm,dso -n --group
else
	fail report_group_forced_ungrouped "perfev record -e cpu-clock,task-clock failed: $(head -c 300 "$TMP/err")"
fi

# The exports carry every member as an event of its own, counted once: speedscope a profile
# per member weighing its event count; the collapsed stacks, the first event's, the leader's
# samples.
run "$PERFEV" report -i "$TMP/s.data" --no-group --sort comm --speedscope "$TMP/s.json" --folded "$TMP/s.folded" --stdio
if ! expect_rc report_group_exports 0; then
	:
elif python3 - "$TMP/out" "$TMP/s.json" "$TMP/s.folded" >"$TMP/cmp.err" 2>&1 <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
counts = re.findall(r"# Samples: (\d+)\s+of events? '([^']+)'\n# Event count \(approx\.\): (\d+)", text)
ss = json.load(open(sys.argv[2]))
got = [(p["name"], sum(p["weights"])) for p in ss["profiles"]]
want = [(name, int(period)) for _, name, period in counts]
if got != want or len(got) != 2:
    sys.exit("speedscope %s, report %s" % (got, want))
folded = sum(int(l.rsplit(" ", 1)[1]) for l in open(sys.argv[3]))
if folded != int(counts[0][0]):
    sys.exit("folded %d samples, the leader %s" % (folded, counts[0][0]))
PY
then
	pass report_group_exports
else
	fail report_group_exports "$(cat "$TMP/cmp.err")"
fi
finish
