# SPDX-License-Identifier: LGPL-2.1-or-later
# perf record's attr options in perfev record: each changes the attrs of perfev's file as it
# changes perf's (perf evlist -v of both files, oracle.py attr-delta); options the kernel here
# refuses (branch stacks, AUX tracing) get their attr checked as asked (strace) and a message.
. tests/cli/lib.sh

ORACLE=tests/cli/oracle.py
need_perf_sampling record_options

# perf records with -B throughout: perf 6.1's build-id pass at the end can abort on a task
# that changed meanwhile (an assertion in util/build-id.c) and leave a file without its
# features; -B changes no attr.
# same NAME BASE_OPTS -- OPTS: both tools with BASE_OPTS, then with BASE_OPTS OPTS, on `true`.
same() {
	name=$1 base=$2 opts=$3
	# shellcheck disable=SC2086
	perf record -q -B -o "$TMP/pb.data" $base -- true >/dev/null 2>&1 &&
		perf record -q -B -o "$TMP/pc.data" $base $opts -- true >/dev/null 2>"$TMP/perf.err" || {
		fail "$name" "perf record $base $opts failed: $(head -c 300 "$TMP/perf.err")"
		return
	}
	# shellcheck disable=SC2086
	"$PERFEV" record -q -o "$TMP/ob.data" $base -- true >/dev/null 2>&1 &&
		"$PERFEV" record -q -o "$TMP/oc.data" $base $opts -- true >/dev/null 2>"$TMP/perfev.err" || {
		fail "$name" "perfev record $base $opts failed: $(head -c 300 "$TMP/perfev.err")"
		return
	}
	if python3 "$ORACLE" attr-delta "$TMP/pb.data" "$TMP/pc.data" "$TMP/ob.data" "$TMP/oc.data" \
		>"$TMP/delta.out" 2>&1; then
		pass "$name: $(cat "$TMP/delta.out")"
	else
		fail "$name" "$(head -c 600 "$TMP/delta.out")"
	fi
	# And the whole attrs, not only what the option changes: equal but the policy fields.
	if python3 "$ORACLE" attr-full "$TMP/pc.data" "$TMP/oc.data" >"$TMP/full.out" 2>&1; then
		pass "${name}_full_attr: $(cat "$TMP/full.out")"
	else
		fail "${name}_full_attr" "$(head -c 600 "$TMP/full.out")"
	fi
}

# same_target NAME OPTS: the full attrs of perf's and perfev's recordings of a target.
same_target() {
	name=$1
	shift
	perf record -q -B -o "$TMP/pt.data" "$@" -- sleep 0.1 >/dev/null 2>"$TMP/perf.err" || {
		fail "$name" "perf record $* failed: $(head -c 300 "$TMP/perf.err")"
		return
	}
	"$PERFEV" record -q -o "$TMP/ot.data" "$@" -- sleep 0.1 >/dev/null 2>"$TMP/perfev.err" || {
		fail "$name" "perfev record $* failed: $(head -c 300 "$TMP/perfev.err")"
		return
	}
	wide=
	case " $* " in *" -a "* | *" -C "*) wide=--cpu-wide ;; esac
	# shellcheck disable=SC2086
	if python3 "$ORACLE" attr-full "$TMP/pt.data" "$TMP/ot.data" $wide >"$TMP/full.out" 2>&1; then
		pass "$name: $(cat "$TMP/full.out")"
	else
		fail "$name" "$(head -c 600 "$TMP/full.out")"
	fi
}

same weight "" "-W"
same data_page_size "" "--data-page-size"
same code_page_size "" "--code-page-size"
same sample_identifier "" "--sample-identifier"
same period_with_count "-c 10000" "-P"
same no_samples "" "-n"
same inherit_stat "" "-s"
same user_regs "" "--user-regs=AX,BX,sp,R15"
same user_regs_default "" "--user-regs"
same intr_regs "" "--intr-regs=AX,SP,IP"
same clockid_name "" "-k monotonic_raw"
same clockid_short "" "-k mono"
same clockid_prefixed "" "--clockid CLOCK_TAI"
same clockid_number "" "-k 7"
same delay "" "-D 10"
same all_user "" "--all-user"
same all_kernel "" "--all-kernel"
same all_user_callchain "-g" "--all-user"
same group "-e cpu-clock -e task-clock" "--group"
same per_thread "" "--per-thread"
same namespaces "" "--namespaces"
same data "" "-d"
same phys_data "" "--phys-data"

# The targets, with and without the options that depend on them.
sleep 30 &
tpid=$!
same_target full_attr_command
same_target full_attr_system_wide -a
same_target full_attr_cpu -C 0
same_target full_attr_pid -p "$tpid"
same_target full_attr_tid -t "$tpid"
same_target full_attr_tid_no_inherit -t "$tpid" -i
same_target full_attr_delay_system_wide -a -D 10
same_target full_attr_per_thread_pid --per-thread -p "$tpid"
same_target full_attr_per_thread_system_wide --per-thread -a
same_target full_attr_namespaces_system_wide --namespaces -a
same_target full_attr_clock_pid -k mono -p "$tpid"
kill "$tpid" 2>/dev/null
wait "$tpid" 2>/dev/null

# ---- -D: nothing sampled before the delay, the command's maps still known --------------
W=${PERFEV_BUILD:-build}/bench/unwind-workload-nofp
if [ -x "$W" ]; then
	run "$PERFEV" record -q -o "$TMP/d.data" -F 1000 -D 300 -- "$W" 500
	perf script -i "$TMP/d.data" -F ip,sym 2>/dev/null >"$TMP/d.txt"
	n=$(grep -c . "$TMP/d.txt")
	# 500 ms of CPU at 1000 Hz, the first 300 ms not sampled.
	if [ "$rc" -eq 0 ] && [ "$n" -gt 50 ] && [ "$n" -lt 400 ] && grep -q 'main\|math_loop\|chain_leaf\|recurse' "$TMP/d.txt"; then
		pass "delay_skips_start: $n samples of about 200 expected, symbols resolved"
	else
		fail delay_skips_start "rc=$rc samples=$n: $(head -c 300 "$TMP/d.txt") $(head -c 300 "$TMP/err")"
	fi
fi

# ---- refused here: the attr asked for, and why it cannot be had -------------------------
# attr_asked NAME PATTERN OPTS: strace shows PATTERN in the attr perfev asked the kernel for.
attr_asked() {
	name=$1 pat=$2
	shift 2
	if ! command -v strace >/dev/null 2>&1; then
		fail "$name" "strace is missing (make check installs it)"
		return
	fi
	strace -f -v -e trace=perf_event_open -o "$TMP/strace.txt" "$PERFEV" record -q \
		-o "$TMP/r.data" "$@" -- true >/dev/null 2>"$TMP/err"
	rc=$?
	if grep -q "$pat" "$TMP/strace.txt"; then
		pass "$name: asked $(grep -o "$pat" "$TMP/strace.txt" | head -n 1), exit $rc"
	else
		fail "$name" "no '$pat' in: $(grep -v DUMMY "$TMP/strace.txt" | head -c 400)"
	fi
}
attr_asked branch_any 'branch_sample_type=PERF_SAMPLE_BRANCH_ANY[,}]' -b
attr_asked branch_filter 'branch_sample_type=PERF_SAMPLE_BRANCH_USER|PERF_SAMPLE_BRANCH_ANY_CALL' \
	-j any_call,u
attr_asked branch_filter_levels_only 'branch_sample_type=PERF_SAMPLE_BRANCH_ANY[,}]' -j u,k
attr_asked branch_filter_any_user 'branch_sample_type=PERF_SAMPLE_BRANCH_USER|PERF_SAMPLE_BRANCH_ANY[,}]' \
	-j any,u
attr_asked branch_filter_save_type 'branch_sample_type=PERF_SAMPLE_BRANCH_TYPE_SAVE[,}]' -j save_type

if perf stat -x, -e instructions true 2>&1 | grep -q '^[0-9]'; then
	same branch_any_hw "-e instructions" "-b"
	same branch_filter_hw "-e instructions" "-j any_call,u"
else
	run "$PERFEV" record -q -o "$TMP/r.data" -b -- true
	if [ "$rc" -ne 0 ] && grep -q 'branch stack' "$TMP/err"; then
		pass "branch_refused_message: $(head -c 160 "$TMP/err")"
	else
		fail branch_refused_message "rc=$rc: $(head -c 300 "$TMP/err")"
	fi
fi

# ---- bad values: a message naming what is known, exit 2 ---------------------------------
bad() { # NAME WANT_IN_STDERR OPTS...
	name=$1 want=$2
	shift 2
	run "$PERFEV" record -q -o "$TMP/bad.data" "$@" -- true
	if [ "$rc" -eq 2 ] && grep -q -- "$want" "$TMP/err" && [ ! -e "$TMP/bad.data" ]; then
		pass "$name"
	else
		fail "$name" "rc=$rc: $(head -c 300 "$TMP/err")"
	fi
}
bad bad_branch_filter "unknown branch filter in -j any,bogus: .*any_call" -j any,bogus
bad bad_register "unknown register 'QQ'.*R15" --user-regs=AX,QQ
bad bad_clock "unknown clock 'nope'" -k nope
bad bad_delay "milliseconds" -D soon
bad delay_negative "milliseconds, 0 to 2147483647.* not '-5'" -D -5
bad delay_huge "milliseconds, 0 to 2147483647.* not '99999999999'" -D 99999999999
bad delay_control "no control channel" -D -1
bad clock_negative "unknown clock '-3'" -k -3
bad clock_empty "unknown clock ''" -k ''
bad clock_prefix_only "unknown clock 'CLOCK_'" -k CLOCK_
bad both_levels "not both" --all-user --all-kernel
bad both_branch_options "not both" -b -j any
run "$PERFEV" record --user-regs='?'
if [ "$rc" -eq 0 ] && grep -q '^available registers: AX BX .* R15$' "$TMP/out"; then
	pass "user_regs_list"
else
	fail user_regs_list "rc=$rc: $(head -c 200 "$TMP/out") $(head -c 200 "$TMP/err")"
fi
for o in -S --aux-sample; do
	run "$PERFEV" record -q -o "$TMP/aux.data" $o -- true
	if [ "$rc" -ne 0 ] && grep -q 'AUX area' "$TMP/err"; then
		pass "aux_refused_$o"
	else
		fail "aux_refused_$o" "rc=$rc: $(head -c 300 "$TMP/err")"
	fi
done

# ---- -k: perf's CLOCKID and CLOCK_DATA features, read alike by both tools ----------------
# clock_lines FILE TOOL: the clock lines of TOOL's header of FILE, with the times as N.
clock_lines() {
	if [ "$2" = perf ]; then
		perf report --header-only -i "$1" 2>/dev/null
	else
		"$PERFEV" script --header-only -i "$1" 2>/dev/null
	fi | grep -E '^# (clockid|reference time)' | sed -E '/^# reference/s/[0-9]+/N/g'
}
for k in mono raw CLOCK_TAI boot realtime; do
	perf record -q -B -k "$k" -o "$TMP/kp.data" -- true >/dev/null 2>&1
	run "$PERFEV" record -q -k "$k" -o "$TMP/ko.data" -- true
	clock_lines "$TMP/kp.data" perf >"$TMP/k1"
	clock_lines "$TMP/ko.data" perf >"$TMP/k2"
	clock_lines "$TMP/kp.data" perfev >"$TMP/k3"
	clock_lines "$TMP/ko.data" perfev >"$TMP/k4"
	if [ "$rc" -eq 0 ] && [ "$(wc -l <"$TMP/k1")" -eq 3 ] && cmp -s "$TMP/k1" "$TMP/k2" &&
		cmp -s "$TMP/k1" "$TMP/k3" && cmp -s "$TMP/k1" "$TMP/k4" &&
		"$PERFEV" script --header-only -i "$TMP/ko.data" | grep -q '^# reference time: .* (TOD)'; then
		pass "clock_header_$k: $(sed -n 2p "$TMP/k1")"
	else
		fail "clock_header_$k" "rc=$rc perf: $(cat "$TMP/k1") | perf on perfev's: $(cat "$TMP/k2") | perfev on perf's: $(cat "$TMP/k3") | perfev: $(cat "$TMP/k4") $(head -c 200 "$TMP/err")"
	fi
done
# The reference time of perfev's file is now, on both clocks.
"$PERFEV" record -q -k realtime -o "$TMP/ko.data" -- true
now=$(date +%s)
perf report --header-only -i "$TMP/ko.data" 2>/dev/null | grep '^# reference time' >"$TMP/kr"
tod=$(sed -E 's/.* = ([0-9]+)\.[0-9]+ \(TOD\).*/\1/' "$TMP/kr")
clk=$(sed -E 's/.* = ([0-9]+)\.[0-9]+ \(realtime\)$/\1/' "$TMP/kr")
if [ -n "$tod" ] && [ $((now - tod)) -le 60 ] && [ $((tod - clk)) -le 1 ] && [ $((clk - tod)) -le 1 ]; then
	pass "clock_reference_now: $(cat "$TMP/kr")"
else
	fail clock_reference_now "now $now: $(cat "$TMP/kr")"
fi
if perf record -q -k 99 -o "$TMP/kp.data" -- true >/dev/null 2>&1; then
	fail clock_unknown_number "perf accepts -k 99 here: compare perfev's answer again"
else
	bad clock_unknown_number "no such clock" -k 99
fi

# ---- --timestamp-filename, --tail-synthesize -------------------------------------------
pe=$(cd "$(dirname "$PERFEV")" && pwd)/$(basename "$PERFEV")
(cd "$TMP" && "$pe" record -q --timestamp-filename -o ts.data -- true >/dev/null 2>"$TMP/err")
f=$(ls "$TMP" | grep -E '^ts\.data\.[0-9]{16}$' | head -n 1)
if [ -n "$f" ] && [ ! -e "$TMP/ts.data" ] && perf report -i "$TMP/$f" --stdio >/dev/null 2>&1; then
	pass "timestamp_filename: $f"
else
	fail timestamp_filename "$(ls "$TMP") $(head -c 200 "$TMP/err")"
fi
"$W" 3000 >/dev/null &
wpid=$!
sleep 0.2
run "$PERFEV" record -q -o "$TMP/tail.data" --tail-synthesize -p "$wpid" -- sleep 0.3
kill "$wpid" 2>/dev/null
wait "$wpid" 2>/dev/null
perf report -i "$TMP/tail.data" --stdio --sort sym 2>/dev/null | grep -E '^ +[0-9.]+%' >"$TMP/tp.txt"
"$PERFEV" report -i "$TMP/tail.data" --sort sym 2>/dev/null | grep -E '^ +[0-9.]+%' >"$TMP/tq.txt"
if [ "$rc" -eq 0 ] && grep -q 'math_loop\|chain_leaf\|recurse\|cmp_keys' "$TMP/tp.txt" && cmp -s "$TMP/tp.txt" "$TMP/tq.txt"; then
	pass "tail_synthesize: perf and perfev resolve $(wc -l <"$TMP/tp.txt") symbols alike"
else
	fail tail_synthesize "rc=$rc: $(head -c 300 "$TMP/tp.txt") | $(diff "$TMP/tp.txt" "$TMP/tq.txt" | head -c 300) $(head -c 200 "$TMP/err")"
fi

finish
