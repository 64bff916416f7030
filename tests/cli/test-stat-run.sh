# SPDX-License-Identifier: LGPL-2.1-or-later
# perf stat's run and output options in perfev stat: -n, --pre/--post, -S, --quiet, -v,
# --timeout, -B/--no-big-num, --interval-clear.
. tests/cli/lib.sh

if ! "$PERFEV" stat -e task-clock -- true >"$TMP/probe.out" 2>&1; then
	case "$(cat "$TMP/probe.out")" in
	*"not permitted"*|*"not supported"*|*"Permission denied"*)
		skip counting stat_run "cannot count here: $(head -c 200 "$TMP/probe.out")"
		finish
		;;
	esac
fi

# -n: the command timed, no counter opened, no counter line.
if command -v strace >/dev/null; then
	strace -f -qq -e trace=perf_event_open -o "$TMP/null.trace" "$PERFEV" stat -n -- sleep 0.05 \
		>/dev/null 2>"$TMP/null.err"
	# perfev's probes of what this machine counts (pid 0, itself) are not counters of the command.
	opened=$(grep perf_event_open "$TMP/null.trace" | grep -vc "}, 0, -1, ")
	if [ "$opened" -ne 0 ]; then
		fail null_run "$opened perf_event_open calls"
	elif ! grep -q "seconds time elapsed" "$TMP/null.err" || grep -q "task-clock" "$TMP/null.err"; then
		fail null_run "$(head -c 300 "$TMP/null.err")"
	else
		pass null_run
	fi
else
	skip strace null_run "strace is not installed"
fi
run "$PERFEV" stat -n -e task-clock -- true
expect_rc null_run_with_events 2 && pass null_run_with_events

# --pre and --post around each run, in order; a failing --pre stops everything.
run "$PERFEV" stat -r 2 -e task-clock --pre 'echo pre' --post 'echo post' -- echo work
if expect_rc pre_post 0; then
	if [ "$(tr '\n' ' ' <"$TMP/out")" = "pre work post pre work post " ]; then
		pass pre_post
	else
		fail pre_post "order: $(tr '\n' ' ' <"$TMP/out")"
	fi
fi
run "$PERFEV" stat -e task-clock --pre false -- touch "$TMP/ran"
if expect_rc pre_fails 1; then
	if [ -e "$TMP/ran" ] || ! grep -q "the --pre command 'false' failed" "$TMP/err"; then
		fail pre_fails "the command ran or no reason: $(head -c 300 "$TMP/err")"
	else
		pass pre_fails
	fi
fi

# A failing --post ends the runs, but what was measured is still printed (as perf prints it).
run "$PERFEV" stat -r 3 -e task-clock --post false -- true
if expect_rc post_fails 1; then
	if grep -q "task-clock" "$TMP/err" && grep -q "the --post command 'false' failed" "$TMP/err"; then
		pass post_fails_counts_kept
	else
		fail post_fails_counts_kept "$(head -c 300 "$TMP/err")"
	fi
fi

# -S: sync() before the run.
if command -v strace >/dev/null; then
	strace -qq -e trace=sync -o "$TMP/sync.trace" "$PERFEV" stat -S -e task-clock -- true 2>/dev/null
	if grep -q "^sync()" "$TMP/sync.trace"; then pass sync; else fail sync "no sync() call"; fi
fi

# --quiet: nothing printed; -v: each opened event's attr.
run "$PERFEV" stat --quiet -e task-clock -- true
if expect_rc quiet 0; then
	if [ -s "$TMP/err" ]; then fail quiet "printed: $(head -c 200 "$TMP/err")"; else pass quiet; fi
fi
run "$PERFEV" stat -v -e task-clock -- true
if expect_rc verbose 0; then
	if grep -q "^event 'task-clock':" "$TMP/err" && grep -Eq "^  config +0x1$" "$TMP/err"; then
		pass verbose
	else
		fail verbose "$(head -c 300 "$TMP/err")"
	fi
fi

# --timeout: the command is ended with SIGTERM, the counts printed, perfev exits 0 (as perf).
# Short sleeps: the one running when the shell is ended does not outlive the test.
run "$PERFEV" stat --timeout 100 -e task-clock -- \
	sh -c "for i in 1 2 3 4 5 6 7 8 9 10; do sleep 0.3; done; touch '$TMP/late'"
if expect_rc timeout 0; then
	if [ -e "$TMP/late" ] || ! grep -q "task-clock" "$TMP/err"; then
		fail timeout "the command was not ended, or no counts: $(head -c 300 "$TMP/err")"
	else
		pass timeout
	fi
fi
for bad in "--timeout 5" "-B --no-big-num" "--interval-clear"; do
	# shellcheck disable=SC2086
	run "$PERFEV" stat $bad -e task-clock -- true
	expect_rc "bad $bad" 2 && pass "bad '$bad'"
done

# --interval-clear: each interval starts on a cleared screen.
run "$PERFEV" stat -I 100 --interval-clear -e task-clock -- sleep 0.25
if expect_rc interval_clear 0; then
	if [ "$(grep -c "$(printf '\033\\[H\033\\[2J')" "$TMP/err")" -ge 2 ]; then
		pass interval_clear
	else
		fail interval_clear "no clearing sequence"
	fi
fi

# -B (perf's default) groups digits as the locale says; --no-big-num never.  A locale
# with thousands separators is built in $TMP when the system has its definition.
if command -v localedef >/dev/null && [ -d /usr/share/i18n/locales ] &&
	localedef -i en_US -f UTF-8 "$TMP/en_US.UTF-8" >/dev/null 2>&1; then
	LOCPATH=$TMP LC_ALL=en_US.UTF-8 "$PERFEV" stat -e page-faults -- python3 -c pass \
		2>"$TMP/big.err"
	LOCPATH=$TMP LC_ALL=en_US.UTF-8 "$PERFEV" stat --no-big-num -e page-faults -- python3 -c pass \
		2>"$TMP/small.err"
	if grep -Eq "^ +[0-9]{1,3},[0-9]{3} +page-faults" "$TMP/big.err" &&
		grep -Eq "^ +[0-9]{4,} +page-faults" "$TMP/small.err"; then
		pass big_num
	else
		fail big_num "$(grep faults "$TMP/big.err") / $(grep faults "$TMP/small.err")"
	fi
else
	skip locales big_num "no locale definitions to build en_US.UTF-8 from (Debian's locales package)"
fi
finish
