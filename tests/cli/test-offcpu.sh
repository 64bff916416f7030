#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# perfev record --off-cpu: a program that sleeps 100 ms ten times and spins in between
# shows ~1 s off the CPU in its nanosleep stack and the spin on it, in report, folded
# and HTML, with and without -g; perf 6.1 reads the file; the errors are clear.
. "$(dirname "$0")/lib.sh"

# The scheduler's tracepoint needs tracefs: mounted here for the test when it is not.
if [ ! -d /sys/kernel/tracing/events ] && [ -d /sys/kernel/tracing ] &&
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; then
	mounts="$mounts /sys/kernel/tracing"
fi

W=$TMP/offcpu-workload
if ! cc -O2 -g -fno-omit-frame-pointer -o "$W" bench/offcpu-workload.c 2>"$TMP/cc.err"; then
	skip cc offcpu "cannot build the workload: $(head -c 200 "$TMP/cc.err")"
	finish
fi

run "$PERFEV" record -q --off-cpu -g -o "$TMP/probe.data" -- true
case "$(cat "$TMP/err")" in
*"not permitted"* | *"not supported"* | *"not mounted"* | *"no such tracepoint"*)
	skip offcpu offcpu "cannot trace the scheduler here: $(head -c 200 "$TMP/err")"
	finish
	;;
esac

# in_range NAME WEIGHT LO HI: LO <= WEIGHT <= HI (nanoseconds).
in_range() {
	if [ "$2" -ge "$3" ] && [ "$2" -le "$4" ]; then
		pass "$1"
	else
		fail "$1" "$2 ns, expected $3 to $4"
	fi
}

LO=850000000 HI=1300000000
for mode in g nog dwarf; do
	case $mode in
	g) opts=-g ;;
	nog) opts= ;;
	# -F 1000: two events with stack copies at 4000 Hz overflow the rings here (lost samples).
	dwarf) opts="--call-graph dwarf -F 1000" ;;
	esac
	data=$TMP/$mode.data
	run "$PERFEV" record --off-cpu $opts -o "$data" -- "$W" 10 100 30
	expect_rc "record_$mode" 0 || continue
	if grep -q "off-cpu: 10 waits" "$TMP/err"; then
		pass "summary_$mode"
	else
		fail "summary_$mode" "$(grep off-cpu "$TMP/err")"
	fi

	# The text report: an offcpu-time section weighted by the nanoseconds waited.
	run "$PERFEV" report -i "$data" --stdio
	if expect_rc "report_$mode" 0; then
		count=$(sed -n "/of event 'offcpu-time'/,/^# Event count/s/^# Event count (approx.): //p" "$TMP/out")
		if [ -z "$count" ]; then
			fail "report_$mode" "no offcpu-time section: $(head -c 300 "$TMP/out")"
		else
			in_range "report_$mode" "$count" $LO $HI
		fi
		if sed -n "/of event 'offcpu-time'/,\$p" "$TMP/out" | grep -q "nanosleep"; then
			pass "report_stack_$mode"
		else
			fail "report_stack_$mode" "no nanosleep frame in the offcpu-time section"
		fi
	fi

	# Folded: the waits in the nanosleep stack (ns), the spin on the CPU (samples).
	run "$PERFEV" report -i "$data" --event offcpu-time --folded "$TMP/off.folded"
	expect_rc "folded_$mode" 0 &&
		set -- $(python3 tests/cli/oracle.py stacks-weight folded "$TMP/off.folded" offcpu-time nanosleep) &&
		in_range "folded_$mode" "$1" $LO $HI
	run "$PERFEV" report -i "$data" --folded "$TMP/on.folded"
	if expect_rc "folded_on_$mode" 0; then
		set -- $(python3 tests/cli/oracle.py stacks-weight folded "$TMP/on.folded" cpu-clock '^spin$')
		if [ "$1" -gt 0 ] && [ $(($1 * 2)) -gt "$2" ]; then
			pass "folded_on_$mode"
		else
			fail "folded_on_$mode" "spin has $1 of $2 on-CPU samples"
		fi
	fi

	# The whole chain, once: the sampled address that names the table's line is in it.
	if [ -s "$TMP/off.folded" ] &&
		awk '{ n = split($1, f, ";"); for (i = 2; i < n; i++) if (f[i] == f[n]) bad = 1 } END { exit bad }' \
			"$TMP/off.folded"; then
		pass "folded_chain_$mode"
	else
		fail "folded_chain_$mode" "$(head -c 400 "$TMP/off.folded")"
	fi

	# HTML: both events, the waits in the nanosleep stack.
	run "$PERFEV" report -i "$data" --html "$TMP/$mode.html"
	expect_rc "html_$mode" 0 &&
		set -- $(python3 tests/cli/oracle.py stacks-weight html "$TMP/$mode.html" offcpu-time nanosleep) &&
		in_range "html_$mode" "$1" $LO $HI

	# script: one offcpu-time sample per wait.
	run "$PERFEV" script -i "$data"
	if expect_rc "script_$mode" 0; then
		n=$(grep -c " offcpu-time:" "$TMP/out")
		[ "$n" -eq 10 ] && pass "script_$mode" || fail "script_$mode" "$n offcpu-time samples, expected 10"
	fi
done

# perf 6.1 reads the file: the event, its samples and their stacks.
have_perf61
if [ -z "$have_perf" ]; then
	skip perf offcpu_perf "$why_no_perf"
else
	for mode in g nog; do
		if ! perf report -i "$TMP/$mode.data" --stdio >"$TMP/perf.txt" 2>"$TMP/perf.err"; then
			fail "perf_report_$mode" "perf report failed: $(head -c 300 "$TMP/perf.err")"
		elif ! grep -q "of event 'offcpu-time'" "$TMP/perf.txt" || grep -qi "out of order" "$TMP/perf.txt" "$TMP/perf.err"; then
			fail "perf_report_$mode" "$(grep -i "event\|order" "$TMP/perf.txt" "$TMP/perf.err" | head -c 400)"
		else
			count=$(sed -n "/of event 'offcpu-time'/,/^# Event count/s/^# Event count (approx.): //p" "$TMP/perf.txt")
			in_range "perf_report_$mode" "$count" $LO $HI
		fi
		if ! perf script -i "$TMP/$mode.data" >"$TMP/perf.txt" 2>"$TMP/perf.err"; then
			fail "perf_script_$mode" "perf script failed: $(head -c 300 "$TMP/perf.err")"
		else
			n=$(grep -c " offcpu-time:" "$TMP/perf.txt")
			[ "$n" -eq 10 ] && pass "perf_script_$mode" || fail "perf_script_$mode" "$n offcpu-time samples"
			# The waits as perf script prints them, line for line (the blank line of
			# an empty BPF output included).
			"$PERFEV" script -i "$TMP/$mode.data" >"$TMP/out" 2>/dev/null
			for f in perf.txt out; do
				awk '/ offcpu-time:/ { on = 1 } on { print } on && /^$/ { n++ } n == 2 { on = n = 0 }' \
					"$TMP/$f" >"$TMP/$f.off"
			done
			if python3 tests/cli/oracle.py same "$TMP/perf.txt.off" "$TMP/out.off" >"$TMP/cmp.err" 2>&1; then
				pass "script_vs_perf_$mode"
			else
				fail "script_vs_perf_$mode" "$(head -c 600 "$TMP/cmp.err")"
			fi
		fi
	done
	# The waits' lines as perf report shows them: named by the sampled (user) address, the
	# call chain from the scheduler below it, and each of its functions a caller line.
	for opts in "--no-children" "--children" "--no-children --sort sym" "--children --sort sym" \
		"--no-children -g caller" "--children -g callee" "--no-children -g none"; do
		name=report_vs_perf_$(echo "$opts" | tr -d -- '-' | tr ' ' _)
		for tool in perf "$PERFEV"; do
			# shellcheck disable=SC2086
			"$tool" report --stdio $opts -i "$TMP/g.data" 2>/dev/null |
				sed -n "/of event 'offcpu-time'/,\$p" | grep -v '^#$\|^# (Tip' >"$TMP/$(basename "$tool").off"
		done
		if [ ! -s "$TMP/perf.off" ]; then
			fail "$name" "perf report $opts shows no offcpu-time section"
		elif python3 tests/cli/oracle.py same "$TMP/perf.off" "$TMP/perfev.off" >"$TMP/cmp.err" 2>&1; then
			pass "$name"
		else
			fail "$name" "$(head -c 600 "$TMP/cmp.err")"
		fi
	done
	if perf evlist -i "$TMP/g.data" 2>/dev/null | grep -qx "offcpu-time"; then
		pass perf_evlist
	else
		fail perf_evlist "$(perf evlist -i "$TMP/g.data" 2>&1 | head -c 300)"
	fi
fi

# A stream (-o -): the same samples, read back from the pipe.
"$PERFEV" record -q --off-cpu -g -o - -- "$W" 10 100 10 2>"$TMP/err" |
	"$PERFEV" report -i - --event offcpu-time --folded "$TMP/pipe.folded" 2>>"$TMP/err"
if [ -s "$TMP/pipe.folded" ]; then
	set -- $(python3 tests/cli/oracle.py stacks-weight folded "$TMP/pipe.folded" offcpu-time nanosleep)
	in_range pipe "$1" $LO $HI
else
	fail pipe "nothing read back: $(head -c 300 "$TMP/err")"
fi

# A running process (-p), and the whole system (-a): its waits among everyone's.
# -p: 20 waits of 100 ms, the first ones before the recording starts.
"$W" 20 100 10 &
wpid=$!
run "$PERFEV" record -q --off-cpu -g -p $wpid -o "$TMP/p.data"
wait $wpid
if expect_rc pid 0; then
	"$PERFEV" report -i "$TMP/p.data" --event offcpu-time --folded "$TMP/p.folded" 2>"$TMP/err"
	set -- $(python3 tests/cli/oracle.py stacks-weight folded "$TMP/p.folded" offcpu-time nanosleep)
	in_range pid "$1" 1000000000 2100000000
fi
run "$PERFEV" record -q --off-cpu -g -a -o "$TMP/a.data" -- "$W" 10 100 10
if expect_rc all_cpus 0; then
	"$PERFEV" report -i "$TMP/a.data" --event offcpu-time --folded "$TMP/a.folded" 2>"$TMP/err"
	grep "^offcpu-workload;" "$TMP/a.folded" >"$TMP/a-w.folded"
	set -- $(python3 tests/cli/oracle.py stacks-weight folded "$TMP/a-w.folded" offcpu-time nanosleep)
	in_range all_cpus "$1" $LO $HI
fi

# A wait not over when the recording ends counts to its end: a 3 s sleep begun inside a
# 0.6 s system-wide recording.
run "$PERFEV" record -q --off-cpu -g -a -o "$TMP/open.data" -- \
	sh -c "\"$W\" 1 3000 0 & echo \$! >\"$TMP/open.pid\"; sleep 0.6"
kill "$(cat "$TMP/open.pid")" 2>/dev/null
if expect_rc open_wait 0; then
	"$PERFEV" report -i "$TMP/open.data" --event offcpu-time --folded "$TMP/open.folded" 2>"$TMP/err"
	grep "^offcpu-workload;" "$TMP/open.folded" >"$TMP/open-w.folded"
	set -- $(python3 tests/cli/oracle.py stacks-weight folded "$TMP/open-w.folded" offcpu-time nanosleep)
	in_range open_wait "$1" 400000000 900000000
fi

# Plain record is unchanged: --off-cpu only adds the tracking event's context switches (and
# the sample identifier that several events need).
run "$PERFEV" record -q -v -g -o "$TMP/plain.data" -- true
sed -n "/^event 'cpu-clock'/,/^event/p" "$TMP/err" | grep -v "^event\|sample_type\|context_switch" >"$TMP/plain.attr"
grep -q "context_switch" "$TMP/err" && fail plain_attrs "plain record asks for context switches"
run "$PERFEV" record -q -v -g --off-cpu -o "$TMP/oc.data" -- true
sed -n "/^event 'cpu-clock'/,/^event 'sched/p" "$TMP/err" | grep -v "^event\|sample_type\|context_switch" >"$TMP/oc.attr"
if [ -s "$TMP/plain.attr" ] && cmp -s "$TMP/plain.attr" "$TMP/oc.attr" &&
	grep -q "context_switch *1" "$TMP/err"; then
	pass plain_attrs
else
	fail plain_attrs "$(diff "$TMP/plain.attr" "$TMP/oc.attr" | head -c 400)"
fi

# Errors: no tracefs, not permitted, options that do not go together.
PERFEV_TRACEFS=/nonexistent run "$PERFEV" record --off-cpu -o "$TMP/x.data" -- true
if expect_rc no_tracefs 1 && grep -q "cannot record --off-cpu: .*tracefs" "$TMP/err"; then
	pass no_tracefs
else
	fail no_tracefs "$(head -c 300 "$TMP/err")"
fi
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null 2>&1; then
	skip root nobody "needs root and setpriv to drop to nobody"
else
	mkdir -p "$TMP/nobody" && chmod 777 "$TMP/nobody" && chmod 755 "$TMP"
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$PERFEV" record --off-cpu -o "$TMP/nobody/x.data" -- true >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if expect_rc nobody 1 && grep -q "cannot record --off-cpu.*not permitted" "$TMP/err"; then
		pass nobody
	else
		fail nobody "$(head -c 300 "$TMP/err")"
	fi
fi
run "$PERFEV" record --off-cpu --overwrite -o "$TMP/x.data" -- true
expect_rc overwrite 2 && grep -q "not with --overwrite" "$TMP/err" && pass overwrite
run "$PERFEV" report -i "$TMP/g.data" --event nonesuch --folded -
expect_rc report_event 2 && grep -q "no such event (it has: 'cpu-clock', 'offcpu-time')" "$TMP/err" &&
	pass report_event

finish
