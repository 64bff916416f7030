# SPDX-License-Identifier: LGPL-2.1-or-later
# perfev watch against the real kernel: exact before/after values of writes, reads, execution
# counts, call chains, PIE symbols, -p, Ctrl-C, the debug-register limit and bad input.
. tests/cli/lib.sh

if ! command -v cc >/dev/null 2>&1; then
	skip cc watch "no C compiler to build the target program"
	finish
fi
# PIE (Debian's default, said explicitly) and a fixed-address build of the same program.
if ! cc -O0 -g -fno-omit-frame-pointer -pthread -fPIE -pie -o "$TMP/wt" tests/cli/watch-target.c \
	2>"$TMP/cc.err" ||
	! cc -O0 -g -fno-omit-frame-pointer -pthread -no-pie -o "$TMP/wtn" tests/cli/watch-target.c \
		2>>"$TMP/cc.err"; then
	fail watch_build "$(head -c 300 "$TMP/cc.err")"
	finish
fi
chmod 755 "$TMP" "$TMP/wt"

if ! "$PERFEV" watch counter -- "$TMP/wt" seq 1 >"$TMP/probe.out" 2>&1; then
	case "$(cat "$TMP/probe.out")" in
	*"no hardware breakpoints"*|*"permission denied"*|*"Linux 5.13"*)
		skip breakpoints watch "cannot set breakpoints here: $(head -c 200 "$TMP/probe.out")"
		finish
		;;
	esac
fi

# seq_ok FILE N: the hit lines of FILE are writes of 1..N, each "i-1 -> i", by writer().
seq_ok() {
	awk -v n="$2" '$3 == "write" {
		k++
		if ($(NF - 2) != k - 1 || $(NF - 1) != "->" || $NF != k || $6 !~ /^writer\+/) bad++
	}
	END { exit !(k == n && !bad) }' "$1"
}

# Writes: every value before and after, with the writer's name.
run "$PERFEV" watch -w counter -- "$TMP/wt" seq 20
if expect_rc write_sequence 0; then
	if seq_ok "$TMP/out" 20 && grep -q "^counter  *w .* 20$" "$TMP/out"; then
		pass write_sequence
	else
		fail write_sequence "$(head -c 600 "$TMP/out")"
	fi
fi

# A tight loop: no call between the writes, still each value exact.
run "$PERFEV" watch counter -- "$TMP/wt" tight 500
if expect_rc write_tight_loop 0; then
	if awk '$3 == "write" { k++; if ($(NF - 2) != k - 1 || $NF != k) bad++ }
		END { exit !(k == 500 && !bad) }' "$TMP/out"; then
		pass write_tight_loop
	else
		fail write_tight_loop "$(grep -c write "$TMP/out") hits; $(head -c 400 "$TMP/out")"
	fi
fi

# Reads: the one write before them is left out, each read shows the value.
run "$PERFEV" watch -r counter -- "$TMP/wt" read 5
if expect_rc read_watch 0; then
	if [ "$(grep -c ' read .* value 42$' "$TMP/out")" -eq 5 ] && ! grep -q ' write ' "$TMP/out"; then
		pass read_watch
	else
		fail read_watch "$(head -c 600 "$TMP/out")"
	fi
fi

# -rw: the write that changes the value, then the reads that leave it.
run "$PERFEV" watch -rw counter -- "$TMP/wt" read 2
if expect_rc read_write 0; then
	if [ "$(awk '$3 == "write" && $(NF - 2) == 0 && $NF == 42' "$TMP/out" | wc -l)" -eq 1 ] &&
		[ "$(grep -c ' access .* 42 -> 42$' "$TMP/out")" -eq 2 ]; then
		pass read_write
	else
		fail read_write "$(head -c 600 "$TMP/out")"
	fi
fi

# -x: one hit per call; --count prints only the totals.
run "$PERFEV" watch -x --count target_fn -- "$TMP/wt" call 37
if expect_rc exec_count 0; then
	if grep -q "^target_fn  *x .* 37$" "$TMP/out" && [ "$(wc -l <"$TMP/out")" -eq 2 ]; then
		pass exec_count
	else
		fail exec_count "$(head -c 400 "$TMP/out")"
	fi
fi

# --count equals the writes made, and perf stat's count of the same breakpoint.
addr=0x$(nm "$TMP/wtn" | awk '$3 == "counter" { print $1 }')
run "$PERFEV" watch --count "$addr" -- "$TMP/wtn" seq 123
if expect_rc count_writes 0; then
	hits=$(awk '$2 == "w" { print $NF }' "$TMP/out")
	have_perf61
	if [ "$hits" != 123 ]; then
		fail count_writes "$hits hits, expected 123: $(head -c 300 "$TMP/out")"
	elif [ -n "$have_perf" ]; then
		perf stat -x, -e "mem:$addr:w:u" "$TMP/wtn" seq 123 >/dev/null 2>"$TMP/perf.err"
		pcount=$(grep "mem:" "$TMP/perf.err" | cut -d, -f1)
		if [ "$pcount" = 123 ]; then
			pass count_writes
		else
			fail count_writes "perf stat counted '$pcount': $(head -c 300 "$TMP/perf.err")"
		fi
	else
		pass count_writes
	fi
fi

# -g: the chain names the writer's callers.
run "$PERFEV" watch -g counter -- "$TMP/wt" seq 1
if expect_rc callchain 0; then
	if grep -q "^	.* writer+" "$TMP/out" && grep -q "^	.* caller+" "$TMP/out" &&
		grep -q "^	.* main+" "$TMP/out"; then
		pass callchain
	else
		fail callchain "$(head -c 600 "$TMP/out")"
	fi
fi

# A PIE's symbol lands where the program was loaded (its own &counter would say the same):
# hits prove the address; the fixed-address build by number gives the same lines.
run "$PERFEV" watch counter -- "$TMP/wt" seq 3
if expect_rc pie_symbol 0; then
	pie_addr=$(sed -n "s/.*watching 'counter' (\(0x[0-9a-f]*\),.*/\1/p" "$TMP/err")
	if seq_ok "$TMP/out" 3 && [ -n "$pie_addr" ] && [ "$pie_addr" != "$addr" ]; then
		pass pie_symbol
	else
		fail pie_symbol "at '$pie_addr': $(head -c 400 "$TMP/out")"
	fi
fi
run "$PERFEV" watch "$addr" -- "$TMP/wtn" seq 3
if expect_rc fixed_address 0 && seq_ok "$TMP/out" 3; then
	pass fixed_address
elif [ "$rc" -eq 0 ]; then
	fail fixed_address "$(head -c 400 "$TMP/out")"
fi

# SYMBOL+OFF, threads: each thread's writes to its own element, exactly.
run "$PERFEV" watch thread_var thread_var+4 --len 4 -- "$TMP/wt" threads 50
if expect_rc threads 0; then
	if grep -q "^thread_var  *w .* 4  *50$" "$TMP/out" &&
		grep -q "^thread_var+4  *w .* 4  *50$" "$TMP/out" &&
		[ "$(awk '$3 == "write" && $(NF - 2) + 1 != $NF' "$TMP/out" | wc -l)" -eq 0 ]; then
		pass threads
	else
		fail threads "$(tail -c 400 "$TMP/out")"
	fi
fi

# JSON lines, one per hit, then the totals.
run "$PERFEV" watch --json counter -- "$TMP/wt" seq 2
if expect_rc json 0; then
	if python3 -c 'import json,sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert [(r["before"], r["after"]) for r in rows[:-1]] == [(0, 1), (1, 2)], rows
assert rows[-1]["totals"][0]["hits"] == 2' "$TMP/out" 2>"$TMP/json.err"; then
		pass json
	else
		fail json "$(tail -c 300 "$TMP/json.err")"
	fi
fi

# attach N: start the target (N writes once it gets SIGUSR1) as $target and perfev watch -p on
# it as $watcher; returns 1 (both ended) when perfev never says it is watching.  perfev starts
# once the target prints its pid (it then runs its own program and handles SIGUSR1); each
# wait 30 s at most, however loaded the machine.
attach() {
	# Emptied here: the redirections below happen in the children, maybe after the first
	# look at p.err, which must not find the last watcher's "watching".
	: >"$TMP/pid"
	: >"$TMP/p.out"
	: >"$TMP/p.err"
	"$TMP/wt" wait "$1" >"$TMP/pid" &
	target=$!
	for _ in $(seq 300); do
		[ -s "$TMP/pid" ] && break
		sleep 0.1
	done
	"$PERFEV" watch counter -p "$target" >"$TMP/p.out" 2>"$TMP/p.err" &
	watcher=$!
	for _ in $(seq 300); do
		grep -q "watching" "$TMP/p.err" && return 0
		sleep 0.1
	done
	kill "$watcher" "$target" 2>/dev/null
	wait "$target" 2>/dev/null
	return 1
}

# -p: a running process, which writes once perfev is attached; the totals when it exits.
if attach 4; then
	kill -USR1 "$target"
	wait "$watcher"
	rc=$?
	wait "$target"
	if [ "$rc" -eq 0 ] && seq_ok "$TMP/p.out" 4 && grep -q "pid $target exited" "$TMP/p.err"; then
		pass pid_attach
	else
		fail pid_attach "exit $rc: $(head -c 300 "$TMP/p.out") $(head -c 300 "$TMP/p.err")"
	fi
else
	fail pid_attach "never watching: $(head -c 300 "$TMP/p.err")"
fi

# Ctrl-C on -p: perfev detaches and prints its totals; the process lives on, unharmed.
if attach 2; then
	kill -INT "$watcher"
	wait "$watcher"
	rc=$?
	kill -USR1 "$target"
	wait "$target"
	trc=$?
	if [ "$rc" -eq 0 ] && [ "$trc" -eq 0 ] && grep -q "^counter  *w .* 0$" "$TMP/p.out"; then
		pass ctrl_c_detach
	else
		fail ctrl_c_detach "perfev $rc, target $trc: $(head -c 300 "$TMP/p.out")"
	fi
else
	fail ctrl_c_detach "never watching: $(head -c 300 "$TMP/p.err")"
fi

# Five watches: x86 has four debug registers; the kernel's ENOSPC is said as the limit.
run "$PERFEV" watch counter other sink thread_var thread_var+4 -- "$TMP/wt" seq 1
if expect_rc watch_limit 1; then
	if grep -q "no debug register left (the CPU has 4 hardware breakpoints" "$TMP/err"; then
		pass watch_limit
	else
		fail watch_limit "$(head -c 300 "$TMP/err")"
	fi
fi

# Bad input, refused with the reason.
run "$PERFEV" watch 0x1001 -- "$TMP/wt" seq 1
expect_rc misaligned 2 && grep -q "must be a multiple of the length" "$TMP/err" && pass misaligned
run "$PERFEV" watch 0xffffffff81000000 -- "$TMP/wt" seq 1
expect_rc kernel_address 2 && grep -q "not a user-space address" "$TMP/err" && pass kernel_address
run "$PERFEV" watch --len 3 counter -- "$TMP/wt" seq 1
expect_rc bad_len 2 && grep -q "length 3 is not one a breakpoint covers" "$TMP/err" && pass bad_len
run "$PERFEV" watch nosuch_symbol -- "$TMP/wt" seq 1
if expect_rc unknown_symbol 1 && grep -q "no symbol 'nosuch_symbol' in" "$TMP/err"; then
	pass unknown_symbol
fi
strip -o "$TMP/wts" "$TMP/wt" && chmod 755 "$TMP/wts"
run "$PERFEV" watch counter -- "$TMP/wts" seq 1
expect_rc stripped 1 && grep -q "is stripped" "$TMP/err" && pass stripped
run "$PERFEV" watch -x counter -- "$TMP/wt" seq 1
expect_rc exec_on_data 1 && grep -q "is data, not a function" "$TMP/err" && pass exec_on_data
run "$PERFEV" watch counter -p 2147483
expect_rc no_such_pid 1 && grep -q "no such process" "$TMP/err" && pass no_such_pid
run "$PERFEV" watch counter -- "$TMP/no-such-program"
expect_rc no_such_command 1 && grep -q "command not found" "$TMP/err" && pass no_such_command
run "$PERFEV" watch counter
expect_rc no_target 2 && pass no_target
run "$PERFEV" watch -h
expect_rc help 0 && grep -q "perfev watch" "$TMP/out" && pass help

# Another user's process: ptrace refuses nobody.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
	sleep 30 &
	sleeper=$!
	run setpriv --reuid=nobody --regid=nogroup --clear-groups "$PERFEV" watch 0x1000 -p "$sleeper"
	kill "$sleeper"
	expect_rc not_permitted 1 && grep -q "permission denied" "$TMP/err" && pass not_permitted
	# Its own program it may watch.
	run setpriv --reuid=nobody --regid=nogroup --clear-groups "$PERFEV" watch counter -- \
		"$TMP/wt" seq 2
	expect_rc unprivileged_own 0 && seq_ok "$TMP/out" 2 && pass unprivileged_own
else
	skip root not_permitted "needs root and setpriv to run as nobody"
fi

finish
