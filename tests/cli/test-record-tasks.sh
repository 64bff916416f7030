# SPDX-License-Identifier: LGPL-2.1-or-later
# perfev record on tasks that exist before it starts, as perf records them: the namespaces of
# --namespaces, the per-thread rings of --per-thread, -D on processes and CPUs.
. tests/cli/lib.sh

need_perf_sampling record_tasks
SPIN=tests/cli/spin-threads.py

# ns_lines FILE TOOL: the NAMESPACES records TOOL's script prints for FILE, each on one line.
ns_lines() {
	if [ "$2" = perf ]; then
		perf script --show-namespace-events -i "$1" 2>/dev/null
	else
		"$PERFEV" script --show-namespace-events -i "$1" 2>/dev/null
	fi | awk '/PERF_RECORD_NAMESPACES/ { if (l != "") print l; l = $0; next }
		l != "" && /^\t\t/ { l = l $0; next }
		{ if (l != "") print l; l = "" }
		END { if (l != "") print l }'
}

# ---- --namespaces: tasks that exist when recording starts ---------------------------------
# A process in namespaces of its own: its record must name them, as perf's does.
if command -v unshare >/dev/null 2>&1 && unshare --net --uts true 2>/dev/null; then
	unshare --net --uts sleep 30 &
	upid=$!
	# The sleep, once unshare has exec'd it (same pid); 60 s at most, for a loaded machine.
	i=0
	while [ "$(cat /proc/$upid/comm 2>/dev/null)" != sleep ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	net=$(printf '%#x' "$(stat -L -c %i /proc/$upid/ns/net)")
	perf record -q -B --namespaces -p "$upid" -o "$TMP/np.data" -- sleep 0.2 >/dev/null 2>&1
	run "$PERFEV" record -q --namespaces -p "$upid" -o "$TMP/no.data" -- sleep 0.2
	ns_lines "$TMP/np.data" perf | grep " $upid/$upid " >"$TMP/n1"
	ns_lines "$TMP/no.data" perf >"$TMP/n2"
	ns_lines "$TMP/no.data" perfev >"$TMP/n3"
	if [ "$rc" -eq 0 ] && [ "$(wc -l <"$TMP/n2")" -eq 1 ] && grep -q "0/net: [0-9]*/$net," "$TMP/n2" &&
		cmp -s "$TMP/n1" "$TMP/n2" && cmp -s "$TMP/n2" "$TMP/n3"; then
		pass "namespaces_pid: $(head -c 160 "$TMP/n2")"
	else
		fail namespaces_pid "rc=$rc net $net; perf: $(cat "$TMP/n1") | perfev's file: $(cat "$TMP/n2") | perfev script: $(cat "$TMP/n3") $(head -c 200 "$TMP/err")"
	fi
	kill "$upid" 2>/dev/null
	wait "$upid" 2>/dev/null
else
	skip unshare namespaces_pid "cannot create namespaces here (unshare --net --uts)"
fi

# A command: its namespaces before its exec, as perf gives those of its workload.
perf record -q -B --namespaces -o "$TMP/np.data" -- true >/dev/null 2>&1
run "$PERFEV" record -q --namespaces -o "$TMP/no.data" -- true
ns_lines "$TMP/np.data" perf | sed -E 's/^ *[^ ]+ +0 +[0-9.]+: PERF_RECORD_NAMESPACES [0-9]+\/[0-9]+//' >"$TMP/n1"
ns_lines "$TMP/no.data" perf | sed -E 's/^ *[^ ]+ +0 +[0-9.]+: PERF_RECORD_NAMESPACES [0-9]+\/[0-9]+//' >"$TMP/n2"
if [ "$rc" -eq 0 ] && [ "$(wc -l <"$TMP/n1")" -eq 1 ] && cmp -s "$TMP/n1" "$TMP/n2"; then
	pass "namespaces_command: $(head -c 120 "$TMP/n2")"
else
	fail namespaces_command "rc=$rc perf: $(cat "$TMP/n1") | perfev: $(cat "$TMP/n2")"
fi

# The raw dump of the record, as perf report -D prints it.
perf report -D -i "$TMP/no.data" 2>/dev/null | grep -A2 'PERF_RECORD_NAMESPACES' >"$TMP/d1"
"$PERFEV" script -D -i "$TMP/no.data" 2>/dev/null | grep -A2 'PERF_RECORD_NAMESPACES' >"$TMP/d2"
if [ -s "$TMP/d1" ] && cmp -s "$TMP/d1" "$TMP/d2"; then
	pass "namespaces_dump: $(head -n 1 "$TMP/d1")"
else
	fail namespaces_dump "perf: $(cat "$TMP/d1") | perfev: $(cat "$TMP/d2")"
fi

# System-wide: every process gets its record; perf and perfev print perfev's file alike.
run "$PERFEV" record -q --namespaces -a -o "$TMP/na.data" -- sleep 0.1
ns_lines "$TMP/na.data" perf >"$TMP/n1"
ns_lines "$TMP/na.data" perfev >"$TMP/n2"
procs=$(set -- /proc/[0-9]*; echo $#)
n=$(wc -l <"$TMP/n1")
if [ "$rc" -eq 0 ] && [ "$n" -ge $((procs / 2)) ] && cmp -s "$TMP/n1" "$TMP/n2" &&
	grep -q " 1/1 - nr_namespaces: 7" "$TMP/n1"; then
	pass "namespaces_system_wide: $n records for about $procs processes, printed alike"
else
	fail namespaces_system_wide "rc=$rc $n records for $procs processes: $(diff "$TMP/n1" "$TMP/n2" | head -c 400)"
fi
# Without the option, none.
run "$PERFEV" record -q -a -o "$TMP/na.data" -- sleep 0.1
if [ "$rc" -eq 0 ] && [ -z "$(ns_lines "$TMP/na.data" perfev)" ]; then
	pass namespaces_only_asked
else
	fail namespaces_only_asked "rc=$rc: $(ns_lines "$TMP/na.data" perfev | head -c 200)"
fi

# ---- --per-thread: one ring per thread, on cpu -1 -----------------------------------------
# opens FILE: the (pid, cpu) of each perf_event_open that strace saw succeed, sorted, counted.
opens() {
	grep 'perf_event_open(' "$1" | grep -v '= -1 ' | grep -v 'PERF_COUNT_SW_DUMMY' |
		sed -E 's/.*\}, (-?[0-9]+), (-?[0-9]+), .*/\1 \2/' | sort | uniq -c
}
# Long enough for a loaded machine: it is killed once both recordings are made.
python3 "$SPIN" 3 15 &
spid=$!
# Its threads (60 s at most: on a loaded machine python may take seconds to start them).
i=0
while [ "$(ls /proc/$spid/task 2>/dev/null | wc -l)" -lt 4 ] && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
strace -f -e trace=perf_event_open -o "$TMP/st.txt" "$PERFEV" record -q --per-thread -p "$spid" \
	-o "$TMP/pt.data" -- sleep 0.4 >/dev/null 2>"$TMP/err"
rc=$?
opens "$TMP/st.txt" | grep -v ' 0 -1$' >"$TMP/o1"
perf script -F tid -i "$TMP/pt.data" 2>/dev/null | sort | uniq -c >"$TMP/tids"
threads=$(ls /proc/$spid/task | wc -l)
# Each thread opened once on cpu -1; the samples of the three spinning threads, each its own.
if [ "$rc" -eq 0 ] && [ "$(wc -l <"$TMP/o1")" -eq "$threads" ] && ! grep -qv ' -1$' "$TMP/o1" &&
	[ "$(wc -l <"$TMP/tids")" -eq 3 ] && ! grep -q " $spid *$" "$TMP/tids"; then
	pass "per_thread_pid: $threads threads opened on cpu -1, samples of $(wc -l <"$TMP/tids") threads"
else
	fail per_thread_pid "rc=$rc opens: $(cat "$TMP/o1") samples: $(cat "$TMP/tids") $(head -c 200 "$TMP/err")"
fi
# perf and perfev attribute the samples to the same threads, and perf reads perfev's file.
perf record -q -B --per-thread -p "$spid" -o "$TMP/ptp.data" -- sleep 0.4 >/dev/null 2>&1
perf script -F tid -i "$TMP/ptp.data" 2>/dev/null | awk '{ print $1 }' | sort -u >"$TMP/t1"
"$PERFEV" script -F tid -i "$TMP/pt.data" 2>/dev/null | awk '{ print $1 }' | sort -u >"$TMP/t2"
awk '{ print $2 }' "$TMP/tids" | sort -u >"$TMP/t3"
if [ -s "$TMP/t1" ] && cmp -s "$TMP/t1" "$TMP/t2" && cmp -s "$TMP/t2" "$TMP/t3"; then
	pass "per_thread_same_threads: $(tr '\n' ' ' <"$TMP/t1")"
else
	fail per_thread_same_threads "perf: $(cat "$TMP/t1") perfev: $(cat "$TMP/t2")"
fi
kill "$spid" 2>/dev/null
wait "$spid" 2>/dev/null

# A command: its one thread, not inherited; symbols resolved as perf resolves them.
W=${PERFEV_BUILD:-build}/bench/unwind-workload-nofp
if [ -x "$W" ]; then
	strace -f -e trace=perf_event_open -o "$TMP/st.txt" "$PERFEV" record -q --per-thread \
		-o "$TMP/pc.data" -- "$W" 300 >/dev/null 2>"$TMP/err"
	rc=$?
	perf report -i "$TMP/pc.data" --stdio --sort sym 2>/dev/null | grep -E '^ +[0-9.]+%' >"$TMP/r1"
	"$PERFEV" report -i "$TMP/pc.data" --sort sym 2>/dev/null | grep -E '^ +[0-9.]+%' >"$TMP/r2"
	if [ "$rc" -eq 0 ] && [ "$(opens "$TMP/st.txt" | grep -vc ' 0 -1$')" -eq 1 ] &&
		opens "$TMP/st.txt" | grep -q ' -1$' && grep -q 'chain_leaf\|recurse\|math_loop' "$TMP/r1" &&
		cmp -s "$TMP/r1" "$TMP/r2"; then
		pass "per_thread_command: $(head -n 1 "$TMP/r1" | tr -s ' ')"
	else
		fail per_thread_command "rc=$rc opens: $(opens "$TMP/st.txt") | $(diff "$TMP/r1" "$TMP/r2" | head -c 300) $(head -c 200 "$TMP/err")"
	fi
fi

# -a: per CPU as perf 6.1 records it, with a note saying so.
perf record -q -B --per-thread -a -o "$TMP/pa.data" -- true >/dev/null 2>&1
perf record -q -B -a -o "$TMP/pb.data" -- true >/dev/null 2>&1
run "$PERFEV" record --per-thread -a -o "$TMP/oa.data" -- true
"$PERFEV" record -q -a -o "$TMP/ob.data" -- true >/dev/null 2>&1
if [ "$rc" -eq 0 ] && grep -q 'per CPU, as in perf' "$TMP/err" &&
	[ "$(perf evlist -v -i "$TMP/oa.data" | sed 's/id = .*//')" = "$(perf evlist -v -i "$TMP/ob.data" | sed 's/id = .*//')" ] &&
	[ "$(perf evlist -v -i "$TMP/pa.data")" = "$(perf evlist -v -i "$TMP/pb.data")" ]; then
	pass "per_thread_system_wide: $(grep note "$TMP/err")"
else
	fail per_thread_system_wide "rc=$rc: $(head -c 300 "$TMP/err")"
fi

# ---- -D on processes and CPUs -------------------------------------------------------------
# first_gap FILE: seconds from the first exec the tracking event saw to the first sample.
first_gap() {
	perf script -i "$1" --show-task-events -F time,event 2>/dev/null |
		awk '/PERF_RECORD_COMM exec/ && t0 == "" { t0 = $1 + 0 }
		     /cpu-clock/ && s == "" { s = $1 + 0 }
		     END { if (t0 == "" || s == "") print "none"; else printf "%.3f\n", s - t0 }'
}
run "$PERFEV" record -q -D 300 -a -o "$TMP/da.data" -- sleep 0.6
gap=$(first_gap "$TMP/da.data")
perf script -i "$TMP/da.data" -F comm 2>/dev/null | grep -c . >"$TMP/n"
# The workload's exec was seen at once (the dummy runs), the first sample only after 300 ms.
if [ "$rc" -eq 0 ] && [ "$gap" != none ] && awk -v g="$gap" 'BEGIN { exit !(g >= 0.2) }' &&
	[ "$(cat "$TMP/n")" -gt 0 ]; then
	pass "delay_system_wide: first sample ${gap}s after the exec"
else
	fail delay_system_wide "rc=$rc gap=$gap samples=$(cat "$TMP/n") $(head -c 300 "$TMP/err")"
fi
run "$PERFEV" record -q -a -o "$TMP/dn.data" -- sleep 0.3
gap=$(first_gap "$TMP/dn.data")
if [ "$gap" != none ] && awk -v g="$gap" 'BEGIN { exit !(g < 0.2) }'; then
	pass "delay_system_wide_baseline: ${gap}s without -D"
else
	fail delay_system_wide_baseline "gap=$gap"
fi
python3 "$SPIN" 1 3 &
spid=$!
sleep 0.3
run "$PERFEV" record -q -D 300 -p "$spid" -o "$TMP/dp.data" -- sleep 0.6
first=$(perf script -i "$TMP/dp.data" -F time 2>/dev/null | head -n 1 | tr -d ' :')
last=$(perf script -i "$TMP/dp.data" -F time 2>/dev/null | tail -n 1 | tr -d ' :')
if [ "$rc" -eq 0 ] && [ -n "$first" ] && awk -v a="$first" -v b="$last" 'BEGIN { exit !(b - a < 0.45) }'; then
	pass "delay_pid: samples over $(awk -v a="$first" -v b="$last" 'BEGIN { printf "%.3f", b - a }')s of 0.6s"
else
	fail delay_pid "rc=$rc first=$first last=$last $(head -c 300 "$TMP/err")"
fi
kill "$spid" 2>/dev/null
wait "$spid" 2>/dev/null

finish
