# SPDX-License-Identifier: LGPL-2.1-or-later
# The command table, help, usage errors and output error handling.
. tests/cli/lib.sh

run "$PERFEV"
expect_rc no_command 2 && grep -q '^usage: perfev' "$TMP/err" && pass no_command ||
	{ [ "$rc" -eq 2 ] && fail no_command "no usage on stderr"; }

run "$PERFEV" -h
expect_rc help_flag 0 && grep -q 'attr' "$TMP/out" && grep -q 'list' "$TMP/out" && pass help_flag

run "$PERFEV" --version
expect_rc version 0 && grep -Eq '^perfev [0-9]+\.[0-9]+\.[0-9]+ \(libperfev [0-9.]+\)$' "$TMP/out" &&
	pass version || { [ "$rc" -eq 0 ] && fail version "unexpected: $(cat "$TMP/out")"; }

run "$PERFEV" nosuchcmd
expect_rc unknown_command 2 && grep -q "unknown command 'nosuchcmd'" "$TMP/err" &&
	pass unknown_command || { [ "$rc" -eq 2 ] && fail unknown_command "$(cat "$TMP/err")"; }

for cmd in list attr help version; do
	run "$PERFEV" "$cmd" -h
	if [ "$rc" -ne 0 ]; then
		fail "dash_h_$cmd" "exit status $rc"
	elif ! grep -q '^usage: ' "$TMP/out"; then
		fail "dash_h_$cmd" "no usage line on stdout"
	elif [ -s "$TMP/err" ]; then
		fail "dash_h_$cmd" "stderr not empty: $(cat "$TMP/err")"
	else
		pass "dash_h_$cmd"
	fi
done

run "$PERFEV" help attr
expect_rc help_attr 0 && grep -q 'perfev attr' "$TMP/out" && pass help_attr

run "$PERFEV" help nosuch
expect_rc help_unknown 2 && pass help_unknown

run "$PERFEV" attr
expect_rc attr_no_event 2 && grep -q 'no event given' "$TMP/err" && pass attr_no_event

run "$PERFEV" attr --bogus cs
expect_rc unknown_long_option 2 && grep -q "unknown option '--bogus'" "$TMP/err" &&
	pass unknown_long_option

run "$PERFEV" list -z
expect_rc unknown_short_option 2 && grep -q "unknown option '-z'" "$TMP/err" &&
	pass unknown_short_option

run "$PERFEV" attr -C x cs
expect_rc bad_number 2 && grep -q "'x'" "$TMP/err" && pass bad_number

run "$PERFEV" attr --pid
expect_rc missing_value 2 && grep -q "needs a value" "$TMP/err" && pass missing_value

run "$PERFEV" attr --json=1 cs
expect_rc flag_with_value 2 && grep -q "takes no value" "$TMP/err" && pass flag_with_value

run "$PERFEV" attr -p abc --open cs
expect_rc bad_pid 2 && grep -q "invalid pid 'abc'" "$TMP/err" && pass bad_pid

# Options may come after positional arguments, and clustered.
run "$PERFEV" attr cs -j
expect_rc option_after_arg 0 && json_ok "$TMP/out" && pass option_after_arg

run "$PERFEV" attr -ja cs
expect_rc clustered_flags 0 && json_ok "$TMP/out" && grep -q '"sigtrap": 0' "$TMP/out" &&
	pass clustered_flags

# "--" ends the options: an event string that looks like one is still parsed as an event.
run "$PERFEV" attr -- -cs
expect_rc double_dash 1 && grep -q "invalid event '-cs'" "$TMP/err" && pass double_dash

# Write errors are reported; a closed pipe is not.
if [ -w /dev/full ]; then
	"$PERFEV" list >/dev/full 2>"$TMP/err"
	rc=$?
	expect_rc write_error 1 && grep -q 'cannot write output' "$TMP/err" && pass write_error
else
	skip devfull write_error "/dev/full is not writable here"
fi
"$PERFEV" list 2>"$TMP/err" | head -n 1 >/dev/null
if [ -s "$TMP/err" ]; then
	fail closed_pipe "stderr: $(cat "$TMP/err")"
else
	pass closed_pipe
fi
finish
