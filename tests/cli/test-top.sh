# SPDX-License-Identifier: LGPL-2.1-or-later
# perfev top against the real kernel: --stdio snapshots of a spinning workload (the system,
# -p, a command, -K/-U, -z, -g, --sort), bad options and permissions; the full-screen
# interface in tmux (the hot function, sort, filter, callers, pause, help, resize, q, Ctrl-C
# and SIGTERM restoring the terminal).
. tests/cli/lib.sh

SPIN=${PERFEV_BUILD:-build}/bench/top-spin
HOT=perfev_top_hot_spin
ABS_PERFEV=$(cd "$(dirname "$PERFEV")" && pwd)/$(basename "$PERFEV")
ABS_SPIN=$(cd "$(dirname "$SPIN")" && pwd)/$(basename "$SPIN")

if [ ! -x "$SPIN" ]; then
	fail top "the workload $SPIN is not built (make)"
	finish
fi
if ! "$PERFEV" top --stdio -d 0.2 -- true >"$TMP/probe.out" 2>&1; then
	case "$(cat "$TMP/probe.out")" in
	*"not permitted"*|*"not supported"*|*"permission denied"*)
		skip sampling top "cannot sample here: $(head -c 200 "$TMP/probe.out")"
		finish
		;;
	esac
fi

# Most cases watch the whole system (perf top's default): that needs the permission.
timeout -s INT 1 "$PERFEV" top --stdio -d 5 -a >/dev/null 2>"$TMP/probe.out"
if grep -q "permission denied" "$TMP/probe.out"; then
	skip sampling top "cannot sample the whole system here: $(head -c 200 "$TMP/probe.out")"
	finish
fi

# found NAME OUT ARGS...: oracle.py top-find on OUT, a PASS or a FAIL named NAME.
found() {
	name=$1 out=$2
	shift 2
	if python3 tests/cli/oracle.py top-find "$out" "$@" >"$TMP/find.txt" 2>&1; then
		pass "$name ($(cat "$TMP/find.txt"))"
	else
		fail "$name" "$(head -c 600 "$TMP/find.txt"); output: $(head -c 600 "$out")"
	fi
}

# ---- --stdio ---------------------------------------------------------------------------

# top_for N ARGS...: perfev top --stdio ARGS (output in $TMP/out, exit status in $rc), ended
# with SIGINT once it printed N snapshots (60 s at most), rather than after a fixed time: on a
# loaded machine top may take a while to start.  A background command of a script starts with
# SIGINT ignored until top watches it: $TMP/out is emptied here (the redirection happens in the
# child, maybe after the first count) so that the count is this run's, and a top still there
# 30 s after the signal is killed (status 137).
alive() { st=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) && [ -n "$st" ] && [ "$st" != Z ]; }
top_for() {
	n=$1
	shift
	: >"$TMP/out"
	"$PERFEV" top --stdio "$@" >"$TMP/out" 2>"$TMP/err" &
	tp=$!
	i=0
	while [ "$(grep -c 'perfev top:' "$TMP/out")" -lt "$n" ] && alive $tp && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -INT $tp 2>/dev/null
	i=0
	while alive $tp && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -KILL $tp 2>/dev/null
	wait $tp
	rc=$?
}

# The whole system (the default): the spinning process's function within 3 refreshes.
"$SPIN" 30 &
spin=$!
top_for 3 -d 1
expect_rc stdio_system 0 && found stdio_system "$TMP/out" "$HOT" --within 3 --min-snaps 3
top_for 3 -d 1 -a -K
expect_rc stdio_hide_kernel 0 && found stdio_hide_kernel "$TMP/out" "$HOT" --no-kernel
top_for 3 -d 1 -a -U
if expect_rc stdio_hide_user 0; then
	if python3 tests/cli/oracle.py top-find "$TMP/out" "$HOT" --within 99 >/dev/null 2>&1; then
		fail stdio_hide_user "$HOT shown with -U"
	else
		found stdio_hide_user "$TMP/out" "[kernel.kallsyms]" --within 99 --no-user
	fi
fi
# -p: that process only; top ends by itself when it exits.
top_for 3 -d 1 -p "$spin" -s comm,pid,sym
if expect_rc stdio_pid 0; then
	if grep -q "^ Overhead  Command  *Pid  Symbol" "$TMP/out" &&
		grep -q "top-spin  *$spin  \[\.\] $HOT" "$TMP/out"; then
		found stdio_pid "$TMP/out" "$HOT"
	else
		fail stdio_pid "no 'top-spin $spin [.] $HOT' line under comm,pid,sym: $(head -c 600 "$TMP/out")"
	fi
fi
kill "$spin" 2>/dev/null
wait "$spin" 2>/dev/null
"$SPIN" 1.5 &
spin=$!
run timeout -s KILL 10 "$PERFEV" top --stdio -d 1 -p "$spin"
if expect_rc stdio_pid_exits 0; then
	found stdio_pid_exits "$TMP/out" "$HOT"
fi
wait "$spin" 2>/dev/null

# A command: its function, its callers with -g, its exit status.
run timeout --preserve-status -s INT 10 "$PERFEV" top --stdio -d 1 -g -- "$SPIN" 2.5
expect_rc stdio_command_callers 0 &&
	found stdio_command_callers "$TMP/out" "$HOT" --caller perfev_top_spin_caller
run timeout --preserve-status -s INT 10 "$PERFEV" top --stdio -d 0.5 -- sh -c 'exit 3'
expect_rc stdio_command_status 3 && pass stdio_command_status
run timeout --preserve-status -s INT 10 "$PERFEV" top --stdio -d 1 -s comm -E 5 -- "$SPIN" 1.5
if expect_rc stdio_sort_comm 0; then
	if grep -q "^ Overhead  Command *$" "$TMP/out" && grep -q "%  top-spin" "$TMP/out" &&
		! grep -q "Symbol\|\[\.\]" "$TMP/out"; then
		pass stdio_sort_comm
	else
		fail stdio_sort_comm "not one column of commands: $(head -c 600 "$TMP/out")"
	fi
fi

# Another session asking for build ids: the kernel then marks top's MMAP2 records as carrying
# one too (they do not); the command's maps must still be read, its function named.
if ! command -v perf >/dev/null 2>&1; then
	skip perf build_id_neighbour "perf is not installed to ask for build ids beside perfev top"
else
	perf record --buildid-mmap -a -o "$TMP/bid.data" -- sleep 8 >"$TMP/bid.out" 2>&1 &
	bid=$!
	sleep 1
	if ! kill -0 "$bid" 2>/dev/null; then
		skip perf build_id_neighbour "perf record --buildid-mmap did not run: $(head -c 200 "$TMP/bid.out")"
	else
		run timeout --preserve-status -s INT 10 "$PERFEV" top --stdio -d 1 -- "$SPIN" 1.5
		expect_rc build_id_neighbour 0 && found build_id_neighbour "$TMP/out" "$HOT"
	fi
	kill -INT "$bid" 2>/dev/null
	wait "$bid" 2>/dev/null
fi

# -z: each snapshot holds its own interval; without it the table decays.  The workload
# spins 1.5 s: with -z the fifth snapshot no longer shows it, decayed it still does.
"$SPIN" 1.5 &
spin=$!
top_for 5 -d 1 -z
expect_rc stdio_zero 0 && found stdio_zero "$TMP/out" "$HOT" --absent-from 4 --min-snaps 5
wait "$spin" 2>/dev/null
"$SPIN" 1.5 &
spin=$!
top_for 5 -d 1
if expect_rc stdio_decay 0; then
	if python3 tests/cli/oracle.py top-find "$TMP/out" "$HOT" --absent-from 4 >/dev/null 2>&1; then
		fail stdio_decay "$HOT gone after it stopped: the table did not decay but was zeroed"
	else
		found stdio_decay "$TMP/out" "$HOT" --min-snaps 5
	fi
fi
wait "$spin" 2>/dev/null

# Memory held on a run: 400 processes that come and go leave no threads behind (-v says
# how many the machine holds at the end: about those alive, not those that ran).
(i=0; while [ $i -lt 400 ]; do /bin/true; i=$((i + 1)); done) &
churn=$!
run timeout --preserve-status -s INT 4 "$PERFEV" top --stdio -v -d 1
wait "$churn"
alive=$(ps -eL --no-headers | wc -l)
if expect_rc retire_exited 0; then
	held=$(sed -n 's/.*the machine held \([0-9]*\) threads.*/\1/p' "$TMP/err")
	if [ -z "$held" ]; then
		fail retire_exited "no count with -v: $(head -c 300 "$TMP/err")"
	elif [ "$held" -gt $((alive + 100)) ]; then
		fail retire_exited "$held threads held, $alive alive: exited ones were kept"
	else
		pass "retire_exited ($held threads held, $alive alive, 400 processes ran)"
	fi
fi

# ---- errors ----------------------------------------------------------------------------

bad() {
	name=$1 want=$2 text=$3
	shift 3
	run timeout -s KILL 10 "$PERFEV" top --stdio "$@"
	if expect_rc "$name" "$want"; then
		if grep -q -- "$text" "$TMP/err"; then
			pass "$name"
		else
			fail "$name" "no '$text' in: $(head -c 300 "$TMP/err")"
		fi
	fi
}
bad bad_sort 2 "unknown sort key 'bogus'" -s dso,bogus
bad bad_delay 2 "-d expects the seconds" -d 0
bad bad_entries 2 "-E expects a number" -E x
bad bad_hide_both 2 "would hide everything" -K -U
bad bad_call_graph 2 "--call-graph expects" --call-graph bogus
bad bad_target_and_command 2 "not both" -p 1 -- true
bad bad_event 1 "unknown event 'nosuchevent'" -e nosuchevent
bad bad_pid 1 "pid 2147483 does not exist" -p 2147483
bad bad_command 1 "cannot run '/nonexistent/x'" -- /nonexistent/x
run "$PERFEV" top -h
if expect_rc help 0 && grep -q "hide_kernel_symbols" "$TMP/out"; then
	pass help
else
	fail help "no option table: $(head -c 300 "$TMP/out")"
fi

# Another user, the whole system: refused with the reason when perf_event_paranoid forbids it.
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)
if ! command -v setpriv >/dev/null 2>&1; then
	skip setpriv permission_denied "setpriv is not installed"
elif [ "$(id -u)" -ne 0 ]; then
	skip root permission_denied "setpriv needs root to become nobody"
elif [ "$paranoid" -le 0 ]; then
	skip paranoid permission_denied "perf_event_paranoid is $paranoid: anyone may sample the system"
else
	run timeout -s KILL 10 setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$ABS_PERFEV" top --stdio -a
	if expect_rc permission_denied 1; then
		if grep -q "permission denied" "$TMP/err" && grep -q "perf_event_paranoid" "$TMP/err"; then
			pass permission_denied
		else
			fail permission_denied "no reason given: $(head -c 300 "$TMP/err")"
		fi
	fi
fi

# ---- the full-screen interface in tmux ---------------------------------------------------

if ! command -v tmux >/dev/null 2>&1; then
	skip tmux tui "tmux is not installed"
	finish
fi
SOCK=perfev-test-$$
T="tmux -L $SOCK"
trap '$T kill-server 2>/dev/null; for m in $mounts; do umount "$m"; done; rm -rf "$TMP"' EXIT
if ! $T -f /dev/null new-session -d -x 120 -y 40 "env -i PATH=$PATH TERM=xterm-256color HOME=$TMP PS1='top-test\$ ' sh" 2>"$TMP/tmux.err"; then
	skip tmux tui "tmux cannot start a session here: $(head -c 200 "$TMP/tmux.err")"
	finish
fi
screen() { $T capture-pane -p; }
alt() { $T display -p '#{alternate_on}'; }
dead() { $T display -p '#{pane_dead}'; }
# wait_for TEXT TRIES: until the screen shows TEXT (tries every 0.25 s); false when it never does.
# TRIES is what an idle machine needs; on a loaded one top may take longer to start and
# redraw, so four times as many are allowed (the wait ends as soon as TEXT shows).
wait_for() {
	i=0
	while [ "$i" -lt "$(($2 * 4))" ]; do
		screen | grep -q -- "$1" && return 0
		sleep 0.25
		i=$((i + 1))
	done
	return 1
}
# wait_until TRIES CMD...: until CMD succeeds (tries every 0.25 s); false when it never does.
wait_until() {
	n=$1
	shift
	i=0
	while [ "$i" -lt "$n" ]; do
		"$@" && return 0
		sleep 0.25
		i=$((i + 1))
	done
	return 1
}
unpaused() { ! screen | head -1 | grep -q "\[paused\]"; }
laid_out_90x20() { screen | sed -n '20p' | grep -q "h: help" && [ "$(screen | head -1 | wc -c)" -le 91 ]; }
# refresh_no: the #N of the status line (how many refreshes the screen shows).
refresh_no() { screen | head -1 | sed -n 's/^perfev top: #\([0-9][0-9]*\).*/\1/p'; }
# table: the screen without its status line (rates change while paused).
table() { screen | tail -n +2; }

"$SPIN" 30 &
spin=$!
$T send-keys "sh -c 'echo \$\$ > $TMP/top.pid; exec $ABS_PERFEV top -d 1 -g'; echo TOP-RC=\$?" Enter
if ! wait_for "perfev top:" 40 || [ "$(alt)" != 1 ]; then
	fail tui_start "no full screen: $(screen | head -5)"
else
	if wait_for "$HOT" 24; then
		n=$(refresh_no)
		if [ -n "$n" ] && [ "$n" -le 3 ]; then
			pass "tui_hot_function (refresh #$n)"
		else
			fail tui_hot_function "shown only at refresh #$n"
		fi
	else
		fail tui_hot_function "not on screen: $(screen | head -8)"
	fi
	# Callers of the selected (first, the hottest) line.
	$T send-keys Home Enter
	if wait_for "--.*perfev_top_spin_caller" 12; then
		pass tui_expand_callers
	else
		fail tui_expand_callers "no caller line: $(screen | head -6)"
	fi
	$T send-keys Enter
	# The help screen, closed by any key.
	$T send-keys h
	if wait_for "perfev top keys" 8; then
		$T send-keys x
		if wait_for "$HOT" 8 && ! screen | grep -q "perfev top keys"; then
			pass tui_help
		else
			fail tui_help "the help did not close: $(screen | head -4)"
		fi
	else
		fail tui_help "no help screen: $(screen | head -4)"
	fi
	# Sort by command: the header changes, the symbols go.
	$T send-keys s
	$T send-keys -l comm
	$T send-keys Enter
	if wait_for "sort comm" 8 && wait_for "% *top-spin *$" 12 && ! screen | grep -q "Symbol"; then
		pass tui_sort
	else
		fail tui_sort "not sorted by comm: $(screen | head -5)"
	fi
	$T send-keys s
	$T send-keys -l dso,sym
	$T send-keys Enter
	# Filter: only lines that name the text.
	$T send-keys /
	$T send-keys -l perfev_top
	$T send-keys Enter
	if wait_for "filter perfev_top" 8 && wait_for "$HOT" 12; then
		others=$(screen | sed -n '3,38p' | grep '%' | grep -vc perfev_top)
		if [ "$others" -eq 0 ]; then
			pass tui_filter
		else
			fail tui_filter "$others lines without the text: $(screen | sed -n '3,8p')"
		fi
	else
		fail tui_filter "no filtered table: $(screen | head -5)"
	fi
	# Pause: the table stays as it is over refreshes; resume.
	$T send-keys p
	if wait_for "\[paused\]" 8; then
		sleep 0.3
		before=$(table)
		sleep 2.3
		if [ "$(table)" = "$before" ]; then
			pass tui_pause
		else
			fail tui_pause "the table changed while paused"
		fi
		$T send-keys p
		wait_until 40 unpaused && pass tui_resume || fail tui_resume "still paused"
	else
		fail tui_pause "no [paused] in the status line: $(screen | head -2)"
	fi
	# A smaller terminal: the layout is redone.
	$T resize-window -x 90 -y 20 2>/dev/null
	if wait_until 60 laid_out_90x20; then
		pass tui_resize
	else
		fail tui_resize "not laid out for 90x20: $(screen | tail -3)"
	fi
	$T resize-window -x 120 -y 40 2>/dev/null
	# q: the terminal back as it was, the shell alive.
	$T send-keys q
	if wait_for "TOP-RC=0" 20 && [ "$(alt)" = 0 ] && [ "$(dead)" = 0 ]; then
		pass tui_quit_restores
	else
		fail tui_quit_restores "alternate screen $(alt), pane dead $(dead): $(screen | tail -4)"
	fi
fi

# Ctrl-C (SIGINT from the terminal) and SIGTERM restore it too.
for how in ctrl-c sigterm; do
	$T send-keys "clear" Enter
	$T send-keys "sh -c 'echo \$\$ > $TMP/top.pid; exec $ABS_PERFEV top -d 1'; echo TOP-RC-$how=\$?" Enter
	if ! wait_for "perfev top:" 40 || [ "$(alt)" != 1 ]; then
		fail "tui_$how" "no full screen: $(screen | head -3)"
		continue
	fi
	if [ "$how" = ctrl-c ]; then
		$T send-keys C-c
	else
		kill -TERM "$(cat "$TMP/top.pid")"
	fi
	if wait_for "TOP-RC-$how=" 20 && [ "$(alt)" = 0 ] && [ "$(dead)" = 0 ]; then
		pass "tui_${how}_restores"
	else
		fail "tui_${how}_restores" "alternate screen $(alt), pane dead $(dead): $(screen | tail -4)"
	fi
done
# A terminal that cannot be set up: a note, then snapshots on the main screen.  Read with
# the lines scrolled off the screen: on a loaded machine the spin takes longer, and more
# snapshots push the note off the top.
$T send-keys "clear" Enter
$T clear-history
$T send-keys "TERM=dumb $ABS_PERFEV top -d 1 -E 3 -- $ABS_SPIN 1.5; echo TOP-RC-dumb=\$?" Enter
if wait_for "TOP-RC-dumb=0" 40 && $T capture-pane -p -S - | grep -q "cannot set up the terminal" &&
	$T capture-pane -p -S - | grep -q "perfev top: #1" && [ "$(alt)" = 0 ]; then
	pass tui_fallback_stdio
else
	fail tui_fallback_stdio "no note and snapshots: $(screen | head -6)"
fi
kill "$spin" 2>/dev/null
wait "$spin" 2>/dev/null
finish
