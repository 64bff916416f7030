# SPDX-License-Identifier: LGPL-2.1-or-later
# perfev record: files perf script and perf report read with the same samples as
# perfev script, every flag, targets, signals, crashes and write errors.
. tests/cli/lib.sh

WORKLOAD=${PERFEV_BUILD:-build}/examples/workload
W="$WORKLOAD 30000000"

have_perf=
why_no_perf="perf is not installed"
if command -v perf >/dev/null 2>&1; then
	have_perf=1
fi

# Sampling needs perf_event_open with mmap; a machine that refuses it skips everything.
if ! "$PERFEV" record -q -o "$TMP/probe.data" -- true >"$TMP/probe.out" 2>&1; then
	case "$(cat "$TMP/probe.out")" in
	*"not permitted"*|*"not supported"*|*"Permission denied"*)
		skip sampling record "cannot sample here: $(head -c 200 "$TMP/probe.out")"
		finish
		;;
	esac
fi

# rec NAME ARGS...: perfev record ARGS; the file is $TMP/NAME.data, stderr $TMP/NAME.err.
rec() {
	name=$1
	shift
	"$PERFEV" record -o "$TMP/$name.data" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
	rc=$?
}

# rec_bg NAME ARGS...: rec in the background, its pid in $recpid (not a subshell's:
# a background subshell of a script ignores SIGINT and would not pass it on).
rec_bg() {
	name=$1
	shift
	"$PERFEV" record -o "$TMP/$name.data" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" &
	recpid=$!
}

# recording PID: perfev record (PID) has opened its events and handles its signals (its
# signalfd exists), within 30 s however loaded the machine is.
recording() {
	n=0
	while [ $n -lt 300 ]; do
		ls -l "/proc/$1/fd" 2>/dev/null | grep -q 'signalfd' && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}

# ran PID TICKS: wait until PID has used TICKS more clock ticks of CPU time (30 s at most),
# so a sampled process runs for as long as the test needs, whatever the load.
ran() {
	# No pid would read /proc//stat, the system's counters.
	[ -n "$1" ] || return 1
	start=$(awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null) || return 1
	n=0
	while [ $n -lt 300 ]; do
		now=$(awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null) || return 1
		[ "$((now - start))" -ge "$2" ] && return 0
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}

# child_of PID: the first child process of PID (a process that ends meanwhile is skipped).
child_of() {
	for st in /proc/[0-9]*/stat; do
		c=$(awk -v p="$1" '$4 == p { print $1; exit }' "$st" 2>/dev/null)
		if [ -n "$c" ]; then
			echo "$c"
			return 0
		fi
	done
	return 1
}

# logged FILE TEXT: wait until FILE holds TEXT (30 s at most).
logged() {
	n=0
	while [ $n -lt 300 ]; do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}

# summary_samples NAME: the sample count perfev record printed.
summary_samples() {
	sed -n 's/.*perfev record: \([0-9]*\) samples written.*/\1/p' "$TMP/$1.err"
}

# same_as_perf NAME FIELDS: perf script and perfev script print the same samples.
same_as_perf() {
	if [ -z "$have_perf" ]; then
		skip perf "$1" "$why_no_perf"
		return 1
	fi
	perf script -i "$TMP/$1.data" -F "$2" 2>"$TMP/perf.err" | awk '{$1=$1; print}' >"$TMP/perf.txt"
	"$PERFEV" script -i "$TMP/$1.data" -F "$2" 2>"$TMP/ours.err" | awk '{$1=$1; print}' >"$TMP/ours.txt"
	n=$(wc -l <"$TMP/perf.txt")
	if [ "$n" -eq 0 ]; then
		fail "$1" "perf script read no samples: $(head -c 300 "$TMP/perf.err")"
		return 1
	fi
	if ! cmp -s "$TMP/perf.txt" "$TMP/ours.txt"; then
		fail "$1" "perf script and perfev script differ: $(diff "$TMP/perf.txt" "$TMP/ours.txt" | head -4)"
		return 1
	fi
	return 0
}

# ---- a command -------------------------------------------------------------

rec command -- $W
if expect_rc command 0; then
	n=$(summary_samples command)
	if [ -z "$n" ] || [ "$n" -eq 0 ]; then
		fail command "no sample count in the summary: $(cat "$TMP/command.err")"
	elif same_as_perf command comm,pid,tid,time,ip,period; then
		m=$(wc -l <"$TMP/perf.txt")
		if [ "$m" -ne "$n" ]; then
			fail command "summary says $n samples, perf script shows $m"
		else
			pass command
		fi
	fi
fi

# The samples of the workload's own code land in its main program: perf resolves them.
if [ -n "$have_perf" ]; then
	if perf script -i "$TMP/command.data" -F ip,dso 2>/dev/null | grep -q "examples/workload"; then
		pass command_resolves_in_perf
	else
		fail command_resolves_in_perf "perf script shows no sample in the workload binary"
	fi
	perf report -i "$TMP/command.data" --stdio >"$TMP/report.txt" 2>"$TMP/report.err"
	rc=$?
	got=$(sed -n 's/^# Samples: \([0-9]*\) .*/\1/p' "$TMP/report.txt")
	if [ "$rc" -ne 0 ]; then
		fail perf_report "perf report failed: $(head -c 300 "$TMP/report.err")"
	elif [ "$got" != "$(summary_samples command)" ]; then
		fail perf_report "perf report counts '$got' samples, perfev wrote $(summary_samples command)"
	elif ! grep -q 'workload' "$TMP/report.txt"; then
		fail perf_report "the workload is not in perf report's output"
	else
		pass perf_report
	fi
	if grep -qi 'warning\|broken\|failed' "$TMP/report.err"; then
		fail perf_report_quiet "perf report complained: $(head -c 300 "$TMP/report.err")"
	else
		pass perf_report_quiet
	fi
else
	skip perf command_resolves_in_perf "$why_no_perf"
	skip perf perf_report "$why_no_perf"
fi

# The BUILD_ID section names the files that ran by their build ids, the kernel's too.
if [ -n "$have_perf" ] && perf buildid-list -i "$WORKLOAD" >"$TMP/want.id" 2>/dev/null && [ -s "$TMP/want.id" ]; then
	perf buildid-list -i "$TMP/command.data" >"$TMP/ids" 2>"$TMP/ids.err"
	want=$(cat "$TMP/want.id")
	if ! grep -q "^$want .*examples/workload\$" "$TMP/ids"; then
		fail build_ids "perf buildid-list lacks the workload's $want: $(cat "$TMP/ids" "$TMP/ids.err")"
	elif ! grep -q '/libc.so' "$TMP/ids"; then
		fail build_ids "perf buildid-list lacks libc: $(cat "$TMP/ids")"
	elif [ -r /sys/kernel/notes ] && [ "$(perf buildid-list -k 2>/dev/null)" != "" ] &&
		! grep -q "^$(perf buildid-list -k) \[kernel.kallsyms\]" "$TMP/ids"; then
		fail build_ids "the kernel's build id is missing or wrong: $(cat "$TMP/ids")"
	else
		pass build_ids
	fi
else
	skip perf build_ids "perf is not installed or the workload has no build id"
fi

# The effective rate is reported.
if grep -q 'Hz (asked 4000 Hz)' "$TMP/command.err"; then
	pass effective_rate
else
	fail effective_rate "no effective sampling rate in: $(head -c 300 "$TMP/command.err")"
fi

# Call chains.
rec callchain -g -- $W
if expect_rc callchain 0 && same_as_perf callchain comm,tid,time,ip; then
	if perf script -i "$TMP/callchain.data" 2>/dev/null | grep -q '^	'; then
		pass callchain
	else
		fail callchain "perf script shows no call chain frames"
	fi
fi
rec callgraph_fp --call-graph fp -- $W
if expect_rc callgraph_fp 0 && [ -n "$have_perf" ]; then
	if perf evlist -v -i "$TMP/callgraph_fp.data" 2>/dev/null | grep -q CALLCHAIN; then
		pass callgraph_fp
	else
		fail callgraph_fp "sample_type has no CALLCHAIN"
	fi
fi
# DWARF call chains: registers and a copy of the user stack in every sample, which perf
# reads as its own (tests/cli/test-unwind.sh checks the chains it unwinds from them).
rec callgraph_dwarf --call-graph dwarf,4000 -- $W
if expect_rc callgraph_dwarf 0 && same_as_perf callgraph_dwarf comm,tid,time,period; then
	perf evlist -v -i "$TMP/callgraph_dwarf.data" 2>/dev/null >"$TMP/evlist"
	if grep -q 'REGS_USER|STACK_USER' "$TMP/evlist" && grep -q 'sample_stack_user: 4000' "$TMP/evlist"; then
		pass callgraph_dwarf
	else
		fail callgraph_dwarf "not the attr of --call-graph dwarf,4000: $(head -c 400 "$TMP/evlist")"
	fi
fi

# Sample contents: -T, --sample-cpu, -d, -c, --switch-events.  The command sleeps first: a
# switch record needs a task to leave the CPU, which a lone spinning one on an idle machine
# may never do.
rec contents -T --sample-cpu -d -c 100000 --switch-events -- sh -c "sleep 0.01; $W"
if expect_rc contents 0 && [ -n "$have_perf" ]; then
	perf evlist -v -i "$TMP/contents.data" >"$TMP/evlist" 2>&1
	missing=
	for want in 'TIME' 'CPU' 'ADDR' 'sample_period, sample_freq }: 100000' \
		'context_switch: 1' 'mmap_data: 1'; do
		grep -q "$want" "$TMP/evlist" || missing="$missing '$want'"
	done
	if [ -n "$missing" ]; then
		fail contents "the attr lacks$missing: $(cat "$TMP/evlist")"
	elif ! perf script -i "$TMP/contents.data" --show-switch-events 2>/dev/null | grep -q 'PERF_RECORD_SWITCH'; then
		fail contents "no context switch record"
	elif same_as_perf contents comm,tid,cpu,time,ip,addr,period; then
		pass contents
	fi
fi

# -c takes perf's 64-bit periods (a trillion events, for a fast counter), up to the kernel's
# 2^63 - 1; past that, or negative, a usage error.
rec count_64bit -q -e cpu-clock -c 1000000000000 -- true
if expect_rc count_64bit 0; then
	if "$PERFEV" report -i "$TMP/count_64bit.data" --header-only 2>&1 |
		grep -q 'sample_period, sample_freq } = 1000000000000,'; then
		pass count_64bit
	else
		fail count_64bit "no period of 10^12: $("$PERFEV" report -i "$TMP/count_64bit.data" --header-only 2>&1 | grep 'event :')"
	fi
fi
for bad in past_int63:9223372036854775808 negative:-5 past_uint64:18446744073709551616; do
	name=count_${bad%%:*} bad=${bad#*:}
	rec "$name" -q -e cpu-clock -c "$bad" -- true
	if expect_rc "$name" 2; then
		grep -q -- "-c $bad is past\|not '$bad'" "$TMP/$name.err" && pass "$name" ||
			fail "$name" "$(head -2 "$TMP/$name.err")"
	fi
done

# ---- pipe mode -------------------------------------------------------------------

"$PERFEV" record -o - -- sh -c "$W >/dev/null" 2>"$TMP/pipe.err" >"$TMP/pipe.data"
rc=$?
if expect_rc pipe 0; then
	n=$(sed -n 's/.*perfev record: \([0-9]*\) samples written.*/\1/p' "$TMP/pipe.err")
	m=$("$PERFEV" script -i - <"$TMP/pipe.data" | wc -l)
	if [ "$n" != "$m" ]; then
		fail pipe "wrote $n samples, perfev script -i - reads $m"
	elif [ -n "$have_perf" ]; then
		p=$(perf script -i - <"$TMP/pipe.data" 2>/dev/null | grep -c .)
		if [ "$p" != "$n" ]; then
			fail pipe "wrote $n samples, perf script -i - reads $p"
		else
			pass pipe
		fi
	else
		pass pipe
	fi
fi

# The command's standard output goes to standard error, never into the stream, as perf does.
"$PERFEV" record -o - -- echo hello 2>"$TMP/pipe_stdout.err" >"$TMP/pipe_stdout.data"
rc=$?
if expect_rc pipe_stdout 0; then
	if [ "$(head -c 8 "$TMP/pipe_stdout.data")" != PERFILE2 ]; then
		fail pipe_stdout "the stream starts with '$(head -c 16 "$TMP/pipe_stdout.data")', not PERFILE2"
	elif ! grep -q '^hello$' "$TMP/pipe_stdout.err"; then
		fail pipe_stdout "the command's output is not on standard error: $(head -c 300 "$TMP/pipe_stdout.err")"
	elif [ -n "$have_perf" ] && ! perf script -i - <"$TMP/pipe_stdout.data" >/dev/null 2>"$TMP/perf.err"; then
		fail pipe_stdout "perf script -i - cannot read the stream: $(head -c 300 "$TMP/perf.err")"
	else
		pass pipe_stdout
	fi
fi

# A command that prints without end, stopped by Ctrl-C (SIGINT to the process group):
# a small stream that perf and perfev read.
setsid "$PERFEV" record -o - -- yes >"$TMP/pipe_yes.data" 2>/dev/null &
pgid=$!
# Stopped once yes has run for 5 clock ticks, however loaded the machine.
recording $pgid && child=$(child_of $pgid) && ran "$child" 5
kill -INT -$pgid
wait $pgid
n=$("$PERFEV" script -i - <"$TMP/pipe_yes.data" 2>"$TMP/ours.err" | grep -c ' yes ')
if [ "$(head -c 8 "$TMP/pipe_yes.data")" != PERFILE2 ]; then
	fail pipe_interrupted "the stream starts with '$(head -c 16 "$TMP/pipe_yes.data")', not PERFILE2"
elif [ "$n" -eq 0 ]; then
	fail pipe_interrupted "perfev script -i - reads no sample of yes: $(head -c 300 "$TMP/ours.err")"
elif [ -n "$have_perf" ] && [ "$(perf script -i - <"$TMP/pipe_yes.data" 2>/dev/null | grep -c ' yes ')" != "$n" ]; then
	fail pipe_interrupted "perfev script -i - reads $n samples of yes, perf script -i - does not"
else
	pass pipe_interrupted
fi

# perf evlist reads a stream's attrs from its start: it lists the same events as for perf's.
if [ -n "$have_perf" ]; then
	evs="-e cpu-clock -e task-clock"
	if [ -d /sys/kernel/tracing/events/sched ] || [ -d /sys/kernel/debug/tracing/events/sched ]; then
		evs="$evs -e sched:sched_process_exec"
	fi
	# shellcheck disable=SC2086
	"$PERFEV" record -q $evs -o - -- true 2>/dev/null | perf evlist -i - >"$TMP/evlist.ours" 2>&1
	# shellcheck disable=SC2086
	perf record -q $evs -o - -- true 2>/dev/null | perf evlist -i - >"$TMP/evlist.perf" 2>&1
	if ! grep -q task-clock "$TMP/evlist.perf"; then
		fail pipe_evlist "perf evlist -i - lists nothing for perf's own stream: $(cat "$TMP/evlist.perf")"
	elif ! cmp -s "$TMP/evlist.perf" "$TMP/evlist.ours"; then
		fail pipe_evlist "perf evlist -i - differs: $(diff "$TMP/evlist.perf" "$TMP/evlist.ours" | head -6)"
	else
		pass pipe_evlist
	fi
else
	skip perf pipe_evlist "$why_no_perf"
fi

# ---- events ------------------------------------------------------------------------

rec two_events -e cpu-clock -e task-clock -- $W
if expect_rc two_events 0 && same_as_perf two_events comm,tid,time,event,ip; then
	if grep -q task-clock "$TMP/perf.txt" && grep -q cpu-clock "$TMP/perf.txt"; then
		pass two_events
	else
		fail two_events "both events should have samples"
	fi
fi

rec leader_sampling -e '{cpu-clock,task-clock}:S' -- $W
if expect_rc leader_sampling 0 && same_as_perf leader_sampling comm,tid,time,event,ip,period; then
	if grep -q task-clock "$TMP/perf.txt"; then
		pass leader_sampling
	else
		fail leader_sampling "perf script shows no values of the member"
	fi
fi

if [ -d /sys/kernel/tracing/events/sched ] || [ -d /sys/kernel/debug/tracing/events/sched ]; then
	rec tracepoint -e sched:sched_switch -a -- sleep 0.1
	if expect_rc tracepoint 0 && [ -n "$have_perf" ]; then
		perf script -i "$TMP/tracepoint.data" >"$TMP/tp.txt" 2>"$TMP/tp.err"
		if grep -q 'prev_comm=.*next_comm=' "$TMP/tp.txt"; then
			pass tracepoint
		else
			fail tracepoint "perf script cannot format the samples: $(head -c 300 "$TMP/tp.err")"
		fi
	fi
else
	skip tracefs tracepoint "tracefs is not mounted"
fi

rec bad_event -e no-such-event -- true
if expect_rc bad_event 1 && grep -q "no-such-event" "$TMP/bad_event.err" &&
	[ ! -s "$TMP/bad_event.out" ]; then
	pass bad_event
elif [ "$rc" -eq 1 ]; then
	fail bad_event "the message does not name the event: $(cat "$TMP/bad_event.err")"
fi

# ---- targets -------------------------------------------------------------------------

sh -c 'while :; do :; done' &
spin=$!
rec_bg pid -p $spin
recording $recpid && ran $spin 20
kill $spin
wait $recpid
rc=$?
if expect_rc pid 0 && same_as_perf pid comm,pid,tid,ip; then
	# The loop was running before the recording: only synthesized maps resolve it.
	if perf script -i "$TMP/pid.data" -F ip,dso 2>/dev/null | grep -qv 'unknown'; then
		pass pid
	else
		fail pid "no sample of the attached process resolves to a file"
	fi
fi

sh -c 'while :; do :; done' &
spin=$!
rec_bg tid -t $spin
recording $recpid && ran $spin 20
kill $spin
wait $recpid
rc=$?
if expect_rc tid 0; then
	n=$(summary_samples tid)
	if [ -n "$n" ] && [ "$n" -gt 0 ]; then
		pass tid
	else
		fail tid "no samples: $(cat "$TMP/tid.err")"
	fi
fi

rec system_wide -a -- sleep 0.2
if expect_rc system_wide 0 && same_as_perf system_wide comm,tid,cpu,time,ip; then
	pass system_wide
fi

rec cpu_list -C 0 -- sleep 0.2
if expect_rc cpu_list 0 && [ -n "$have_perf" ]; then
	cpus=$(perf script -i "$TMP/cpu_list.data" -F cpu 2>/dev/null | sort -u | tr -d ' []\n')
	if [ "$cpus" = "000" ]; then
		pass cpu_list
	else
		fail cpu_list "samples on CPUs '$cpus', expected only 000"
	fi
fi

# ---- output ------------------------------------------------------------------------------

abs=$(cd "$(dirname "$PERFEV")" && pwd)/$(basename "$PERFEV")
(
	cd "$TMP" || exit 1
	"$abs" record -q -- true 2>/dev/null && "$abs" record -q -- true 2>/dev/null
) && [ -s "$TMP/perf.data" ] && [ -s "$TMP/perf.data.old" ]
if [ $? -eq 0 ]; then
	pass default_output_and_old
else
	fail default_output_and_old "perf.data and perf.data.old were not both written"
fi

rec unwritable -- true
"$PERFEV" record -o /nonexistent-dir/x.data -- true >"$TMP/out" 2>"$TMP/err"
rc=$?
if expect_rc unwritable 1 && grep -q "cannot write '/nonexistent-dir/x.data': no such file" "$TMP/err"; then
	pass unwritable
elif [ "$rc" -eq 1 ]; then
	fail unwritable "unclear message: $(cat "$TMP/err")"
fi

# A perf.data planted as a link (by another user, in a directory others may write to) is
# refused, never followed nor moved to perf.data.old.
mkdir "$TMP/planted" && ln -s "$TMP/victim.data" "$TMP/planted/perf.data"
(cd "$TMP/planted" && "$abs" record -q -- true) >"$TMP/out" 2>"$TMP/err"
rc=$?
if expect_rc output_link 1; then
	if [ -e "$TMP/victim.data" ] || [ -e "$TMP/planted/perf.data.old" ]; then
		fail output_link "the link was followed or moved: $(ls "$TMP" "$TMP/planted")"
	elif ! grep -q "cannot write 'perf.data': it is a symbolic link to '$TMP/victim.data'" "$TMP/err"; then
		fail output_link "unclear message: $(cat "$TMP/err")"
	else
		pass output_link
	fi
fi
ln -s "$TMP/victim.data" "$TMP/link_o.data"
rec link_o -- true
if expect_rc output_link_o 1; then
	[ ! -e "$TMP/victim.data" ] && pass output_link_o || fail output_link_o "the link was followed"
fi

# An empty output that is a hard link to another file is replaced, not written through.
: >"$TMP/other.data"
ln "$TMP/other.data" "$TMP/hard.data"
rec hard -- true
if expect_rc output_hard_link 0; then
	if [ -s "$TMP/other.data" ]; then
		fail output_hard_link "the other name of the file was written"
	elif [ -n "$have_perf" ] && ! perf script -i "$TMP/hard.data" >/dev/null 2>"$TMP/perf.err"; then
		fail output_hard_link "perf cannot read the file: $(head -c 300 "$TMP/perf.err")"
	else
		pass output_hard_link
	fi
fi

# A new file is made under its own name, there while the recording runs, as perf's is; the
# replacing of an existing one leaves no temporary file behind.
mkdir "$TMP/live"
"$PERFEV" record -q -o "$TMP/live/new.data" -- sh -c "ls -A '$TMP/live' >'$TMP/live.ls'" \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
"$PERFEV" record -q -o "$TMP/live/new.data" -- true >"$TMP/out" 2>>"$TMP/err"
if ! expect_rc output_new_in_place 0; then
	:
elif [ "$(cat "$TMP/live.ls")" != "new.data" ]; then
	fail output_new_in_place "while recording, the directory holds: $(cat "$TMP/live.ls" | tr '\n' ' ')"
elif [ "$(ls -A "$TMP/live" | tr '\n' ' ')" != "new.data new.data.old " ]; then
	fail output_new_in_place "after two recordings, the directory holds: $(ls -A "$TMP/live" | tr '\n' ' ')"
else
	pass output_new_in_place
fi

# /dev/stdout names standard output, written as such: a file perf reads, and what the command
# prints goes to standard error, never into the file.
# (The command line, in the file, spells the marker apart.)
"$PERFEV" record -q -o /dev/stdout -- sh -c "printf '%s-%s\\n' printed marker; $W" \
	>"$TMP/stdout.data" 2>"$TMP/err"
rc=$?
if ! expect_rc output_dev_stdout 0; then
	:
elif ! grep -q printed-marker "$TMP/err" || grep -q printed-marker "$TMP/stdout.data"; then
	fail output_dev_stdout "the command's output went into the file"
elif [ -n "$have_perf" ] && ! perf script -i "$TMP/stdout.data" >/dev/null 2>"$TMP/perf.err"; then
	fail output_dev_stdout "perf cannot read the file: $(head -c 300 "$TMP/perf.err")"
else
	pass output_dev_stdout
fi

# Devices: /dev/null is written, as perf writes it; a FIFO cannot take a file whose header is
# rewritten at the end; a block device is never written.
"$PERFEV" record -q -o /dev/null -- true >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc output_dev_null 0 && pass output_dev_null
mkfifo "$TMP/fifo"
cat "$TMP/fifo" >/dev/null &
reader=$!
"$PERFEV" record -q -o "$TMP/fifo" -- true >"$TMP/out" 2>"$TMP/err"
rc=$?
kill $reader 2>/dev/null
if expect_rc output_fifo 1; then
	grep -q "it is a FIFO.*(-o -)" "$TMP/err" && pass output_fifo ||
		fail output_fifo "unclear message: $(cat "$TMP/err")"
fi
if mknod "$TMP/block" b 240 0 2>/dev/null; then
	"$PERFEV" record -q -o "$TMP/block" -- true >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if expect_rc output_block_device 1; then
		grep -q "it is a block device" "$TMP/err" && pass output_block_device ||
			fail output_block_device "unclear message: $(cat "$TMP/err")"
	fi
else
	skip mknod output_block_device "cannot make a block device node: not permitted"
fi

# A full disk (a 1 MiB tmpfs) stops the recording; the message names the filesystem, and
# the file holds the records written before it, whole, for perf and perfev alike.
if small_fs "$TMP/full" 1m; then
	"$PERFEV" record -F 20000 -g -o "$TMP/full/x.data" -- sh -c 'while :; do :; done' \
		>"$TMP/out" 2>"$TMP/err"
	rc=$?
	cp "$TMP/full/x.data" "$TMP/full.data" 2>/dev/null
	umount "$TMP/full" && mounts=
	if ! expect_rc full_disk 1; then
		:
	elif ! grep -q "cannot write '$TMP/full/x.data': no space left on the filesystem at '$TMP/full' (tmpfs).*records written before it are kept" "$TMP/err"; then
		fail full_disk "unclear message: $(cat "$TMP/err")"
	elif ! n=$("$PERFEV" script -i "$TMP/full.data" -F ip 2>"$TMP/ours.err" | grep -c .) ||
		[ -s "$TMP/ours.err" ] || [ "$n" -eq 0 ]; then
		fail full_disk "perfev script reads $n samples: $(head -c 300 "$TMP/ours.err")"
	elif [ -z "$have_perf" ]; then
		pass full_disk
	elif [ "$(perf script -i "$TMP/full.data" -F ip 2>/dev/null | grep -c .)" != "$n" ]; then
		fail full_disk "perfev script reads $n samples, perf script $(perf script -i "$TMP/full.data" -F ip 2>&1 | grep -c .)"
	elif ! perf report -i "$TMP/full.data" --stdio >"$TMP/report.txt" 2>"$TMP/report.err" ||
		grep -qi 'warning\|failed\|error' "$TMP/report.err" || ! grep -q '^# Samples: ' "$TMP/report.txt"; then
		fail full_disk "perf report: $(grep '^# Samples' "$TMP/report.txt") $(head -c 300 "$TMP/report.err")"
	else
		pass full_disk
	fi
else
	skip tmpfs full_disk "cannot mount a small tmpfs: not permitted (needs root)"
fi

# ---- endings -----------------------------------------------------------------------------

rec exit_status -- sh -c 'exit 3'
expect_rc exit_status 3 && pass exit_status

rec crash -- sh -c "$W >/dev/null; kill -SEGV \$\$"
if expect_rc crash 139 && same_as_perf crash comm,tid,time,ip; then
	if grep -q 'killed by signal 11' "$TMP/crash.err"; then
		pass crash
	else
		fail crash "the crash is not reported: $(cat "$TMP/crash.err")"
	fi
fi

rec_bg interrupt -a
recording $recpid && sleep 0.2
kill -INT $recpid
wait $recpid
rc=$?
if expect_rc interrupt 0 && same_as_perf interrupt comm,tid,cpu,time,ip; then
	pass interrupt
fi

# The command ignores SIGINT: perfev still stops and ends it.
rec_bg interrupt_command -- sh -c 'trap "" INT; while :; do :; done'
recording $recpid && child=$(child_of $recpid) && ran "$child" 20
kill -INT $recpid
wait $recpid
rc=$?
if [ "$rc" -ne 0 ] && same_as_perf interrupt_command comm,tid,time,ip; then
	pass interrupt_command
elif [ "$rc" -eq 0 ]; then
	fail interrupt_command "the command should have been terminated"
fi

# Flight recorder: nothing is written until SIGUSR2, then the last ring's worth.
sh -c 'while :; do :; done' &
spin=$!
rec_bg overwrite --overwrite -m 8 -p $spin
recording $recpid && ran $spin 20
kill -USR2 $recpid
logged "$TMP/overwrite.err" 'wrote the last'
kill -INT $recpid
wait $recpid
rc=$?
kill $spin
if expect_rc overwrite 0 && same_as_perf overwrite comm,tid,time,ip; then
	d=$(grep -c 'wrote the last' "$TMP/overwrite.err")
	if [ "$d" -eq 2 ]; then
		pass overwrite
	else
		fail overwrite "expected 2 dumps (SIGUSR2 and the end), got $d"
	fi
fi

# ---- options ----------------------------------------------------------------------------

for bad in "-c 10 -F 100" "-m 3" "-F zero" "--call-graph wrong"; do
	# shellcheck disable=SC2086
	"$PERFEV" record $bad -o "$TMP/x.data" -- true >"$TMP/out" 2>"$TMP/err"
	rc=$?
	name="bad_option($bad)"
	expect_rc "$name" 2 && pass "$name"
done
# A minus sign is not a number: -F -5 would be 2^64 - 5 Hz, lowered to the maximum (perf reads
# it as 2^32 - 5 and does that); -m -5 would be a page count that is no power of two.
for bad in "-F -5" "-F -0" "-m -5" "-m -1M"; do
	name="minus_sign($bad)"
	rm -f "$TMP/x.data"
	# shellcheck disable=SC2086
	"$PERFEV" record $bad -o "$TMP/x.data" -- true >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if expect_rc "$name" 2; then
		grep -q "expects .* not '${bad#* }'" "$TMP/err" && [ ! -e "$TMP/x.data" ] && pass "$name" ||
			fail "$name" "$(head -n 1 "$TMP/err")"
	fi
done
# Past what the kernel maps in one ring, the limit is what is wrong, not the power of two
# (10^9 pages is over it with any page size and kernel); nothing is opened or written.
for m in 18446744073709551616 4096G 1000000000; do
	name="mmap_over_limit($m)"
	rm -f "$TMP/x.data"
	"$PERFEV" record -m $m -o "$TMP/x.data" -- true >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if expect_rc "$name" 2; then
		if grep -q "^perfev record: -m $m: over the limit: the kernel maps at most [0-9]* pages (.*) per CPU\$" \
			"$TMP/err" && ! grep -q 'power of two' "$TMP/err" && [ ! -e "$TMP/x.data" ]; then
			pass "$name"
		else
			fail "$name" "$(head -n 1 "$TMP/err")"
		fi
	fi
done
# Under that limit, a ring past the locked memory allowed without CAP_IPC_LOCK (perf_event_mlock_kb
# per CPU, then RLIMIT_MEMLOCK) is refused by the kernel: the advice is for who runs it.
limit=$(sed -n 's/.*maps at most \([0-9]*\) pages.*/\1/p' "$TMP/err")
mlock_kb=$(cat /proc/sys/kernel/perf_event_mlock_kb 2>/dev/null || echo 0)
memlock=$(ulimit -l)
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
if [ -z "$limit" ]; then
	fail mmap_locked_root "no limit in the message for -m 1000000000: $(head -n 1 "$TMP/err")"
	fail mmap_locked_user "no limit in the message for -m 1000000000"
elif [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null 2>&1; then
	skip root mmap_locked_root "needs root and setpriv to drop CAP_IPC_LOCK"
	skip root mmap_locked_user "needs root and setpriv to drop to nobody"
elif [ "$paranoid" -lt 0 ] || [ "$memlock" = unlimited ] ||
	[ $((limit * $(getconf PAGESIZE) / 1024)) -le $((mlock_kb * $(nproc) + memlock)) ]; then
	skip locked mmap_locked_root "the kernel lets anyone lock a ring of $limit pages here (paranoid $paranoid, RLIMIT_MEMLOCK $memlock)"
	skip locked mmap_locked_user "the kernel lets anyone lock a ring of $limit pages here"
else
	mkdir -p "$TMP/nobody" && chmod 777 "$TMP/nobody" && chmod 755 "$TMP"
	setpriv --bounding-set=-ipc_lock "$PERFEV" record -q -e dummy -m "$limit" -o "$TMP/nobody/root.data" -- true \
		>"$TMP/out" 2>"$TMP/err"
	rc=$?
	if expect_rc mmap_locked_root 1; then
		if grep -q 'locked memory without CAP_IPC_LOCK.*give perfev CAP_IPC_LOCK' "$TMP/err" &&
			! grep -q 'run as root' "$TMP/err"; then
			pass mmap_locked_root
		else
			fail mmap_locked_root "$(cat "$TMP/err")"
		fi
	fi
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$PERFEV" record -q -e dummy -m "$limit" -o "$TMP/nobody/user.data" -- true >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if expect_rc mmap_locked_user 1; then
		if grep -q "perf_event_mlock_kb ($mlock_kb KiB per CPU.*run as root" "$TMP/err"; then
			pass mmap_locked_user
		else
			fail mmap_locked_user "$(cat "$TMP/err")"
		fi
	fi
fi
# A stack dump size out of the kernel's range is a usage error that names the range.
for size in 0 65529 x 1024,8 -8; do
	name="call_graph_dwarf_size($size)"
	rm -f "$TMP/x.data"
	"$PERFEV" record --call-graph "dwarf,$size" -o "$TMP/x.data" -- true >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if ! expect_rc "$name" 2; then
		:
	elif grep -q "invalid stack dump size '$size' .*give 1 to 65528 bytes" "$TMP/err" &&
		[ ! -e "$TMP/x.data" ]; then
		pass "$name"
	else
		fail "$name" "$(head -c 300 "$TMP/err")"
	fi
done

# An overwrite term unlike the recording's mode is refused, not ignored.
for args in "-e cpu-clock/overwrite/" "--overwrite -e cpu-clock/no-overwrite/"; do
	name="overwrite_term($args)"
	# shellcheck disable=SC2086
	"$PERFEV" record $args -o "$TMP/term.data" -- true >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if ! expect_rc "$name" 1; then
		:
	elif grep -q "overwrite term .*--overwrite" "$TMP/err" && [ ! -e "$TMP/term.data" ]; then
		pass "$name"
	else
		fail "$name" "$(cat "$TMP/err")"
	fi
done
"$PERFEV" record --overwrite -e cpu-clock/overwrite/ -o "$TMP/term.data" -- true >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc overwrite_term_agrees 0 && [ -s "$TMP/term.data" ] && pass overwrite_term_agrees

max=$(cat /proc/sys/kernel/perf_event_max_sample_rate 2>/dev/null || echo 0)
if [ "$max" -gt 0 ]; then
	rec above_max -F $((max + 1000)) -- true
	if expect_rc above_max 0 && grep -q "sampling at $max Hz" "$TMP/above_max.err"; then
		pass above_max
	else
		fail above_max "no clamping message: $(cat "$TMP/above_max.err")"
	fi
fi

# ---- unprivileged -------------------------------------------------------------------------

if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
	mkdir -p "$TMP/nobody" && chmod 777 "$TMP/nobody" && chmod 755 "$TMP"
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$PERFEV" record -o "$TMP/nobody/u.data" -- $W >"$TMP/out" 2>"$TMP/err"
	rc=$?
	paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
	if [ "$paranoid" -ge 3 ]; then
		skip unprivileged unprivileged "perf_event_paranoid=$paranoid forbids unprivileged sampling"
	elif expect_rc unprivileged 0; then
		if [ "$paranoid" -ge 2 ] && ! grep -q ':u' "$TMP/err"; then
			fail unprivileged "no note about user-space only sampling: $(cat "$TMP/err")"
		elif [ -n "$have_perf" ] && perf script -i "$TMP/nobody/u.data" -F ip 2>/dev/null | grep -q 'ffffffff'; then
			fail unprivileged "kernel addresses sampled without permission"
		else
			pass unprivileged
		fi
	fi
else
	skip root unprivileged "needs root and setpriv to drop to nobody"
fi

finish
