# SPDX-License-Identifier: LGPL-2.1-or-later
# Sample filters of perfev script and perfev report (--time, -C, --pid, --tid, --comms, -S,
# --dsos, --per-event-dump), compared with perf 6.1 on the same files.
. tests/cli/lib.sh

ORACLE=tests/cli/oracle.py
W=${PERFEV_BUILD:-build}/examples/workload
# The fields compared: everything the filters choose by, and no symbol (perf and perfev may
# name an address by different aliases; test-script.sh compares those).
F=comm,tid,pid,cpu,time,period,event,ip

have_perf61
if [ -z "$have_perf" ]; then
	skip perf filters "$why_no_perf"
	finish
fi

# A shell that forks: two processes, two commands, samples on every CPU it runs on.
WORK="sh -c 'i=0; while [ \$i -lt 30000 ]; do i=\$((i+1)); done; ls / >/dev/null; i=0; while [ \$i -lt 20000 ]; do i=\$((i+1)); done'"
if ! eval "perf_rec -q -N -o '$TMP/f.data' -e task-clock -c 100000 --sample-cpu -- $WORK" \
	>/dev/null 2>"$TMP/rec.err" || [ ! -s "$TMP/f.data" ]; then
	skip perf filters "perf record failed here: $(head -c 200 "$TMP/rec.err")"
	finish
fi
perf script -i "$TMP/f.data" -F time,pid,tid,comm,cpu >"$TMP/all.txt" 2>/dev/null

# same NAME FILE ARGS...: perf script and perfev script print the same lines with ARGS, and
# the filter kept some samples but not all ($total, or $total_of).
total=$(wc -l <"$TMP/all.txt")
same() {
	perf_same "$@" || return
	if [ ! -s "$TMP/out" ] || [ "$(wc -l <"$TMP/out")" -ge "${total_of:-$total}" ]; then
		fail "$1" "the filter kept $(wc -l <"$TMP/out") of ${total_of:-$total} lines: not a test"
	else
		pass "$1"
	fi
}

# Times: the sample a quarter in, the one at the middle, three quarters in (as perf prints them).
t() { sed -n "$(($1 * total / 4 + 1))p" "$TMP/all.txt" | awk '{print $NF}' | tr -d :; }
q1=$(t 1) q2=$(t 2) q3=$(t 3)
# The two tenths of the time (the 2nd to the 9th) with the most samples: task-clock stops
# while the shell waits for a CPU, so on a loaded machine a given tenth may hold none.
tenths=$(awk '{ t[NR] = $NF + 0 } END {
	for (i = 1; i <= NR; i++) { k = int((t[i] - t[1]) * 10 / (t[NR] - t[1] + 1e-9)) + 1; n[k]++ }
	for (k = 2; k <= 9; k++) print n[k] + 0, k }' "$TMP/all.txt" | sort -rn | awk 'NR <= 2 {print $2}')
s1=$(echo $tenths | cut -d' ' -f1) s2=$(echo $tenths | cut -d' ' -f2)
same script_time_range "$TMP/f.data" -F $F --time "$q1,$q3"
same script_time_open_start "$TMP/f.data" -F $F --time ",$q2"
same script_time_open_end "$TMP/f.data" -F $F --time "$q3,"
same script_time_ranges "$TMP/f.data" -F $F --time "$q1,$q2 $q3,"
same script_time_slice "$TMP/f.data" -F $F --time "10%/$s1"
same script_time_slices "$TMP/f.data" -F $F --time "10%/$s1,10%/$s2"
same script_time_percent_ranges "$TMP/f.data" -F $F --time 0%-10%,50%-60%
same script_time_percent "$TMP/f.data" -F $F --time 25%

# perf 6.1 takes a percent range ending before it starts (20%-10%) and shows nothing: perfev
# refuses it, as perf refuses the same in seconds.
for bad in 10 "$q3,$q1" "$q2,$q3 $q1,$q2" 101% 10%/11 1.1234567891,2; do
	run "$PERFEV" script -i "$TMP/f.data" --time "$bad"
	if [ "$rc" -ne 2 ] || ! grep -q "cannot use --time '$bad': not a time filter" "$TMP/err"; then
		fail script_time_bad "--time '$bad': exit $rc, $(head -c 300 "$TMP/err")"
		continue
	fi
	# perf refuses it too.
	if perf script -i "$TMP/f.data" --time "$bad" >/dev/null 2>&1; then
		fail script_time_bad "perf takes --time '$bad'"
		continue
	fi
done
pass script_time_bad

# CPUs: the first sample's (all of them when the workload ran on one CPU), and every CPU.
cpu=$(head -1 "$TMP/all.txt" | sed 's/.*\[0*\([0-9][0-9]*\)\].*/\1/')
ncpus=$(sed 's/.*\[\([0-9]*\)\].*/\1/' "$TMP/all.txt" | sort -u | wc -l)
[ "$ncpus" -gt 1 ] || total_of=$((total + 1))
same script_cpu "$TMP/f.data" -F $F -C "$cpu"
total_of=$((total + 1))
same script_cpu_list "$TMP/f.data" -F $F -C "0-$(($(nproc) - 1))"
total_of=

# A file without sample CPUs: both refuse -C.
"$PERFEV" record -q -o "$TMP/nocpu.data" -e task-clock -c 100000 -- true >/dev/null 2>&1
run "$PERFEV" script -i "$TMP/nocpu.data" -C 0
if [ "$rc" -eq 1 ] && grep -q "recorded without sample CPUs" "$TMP/err" &&
	! perf script -i "$TMP/nocpu.data" -C 0 >/dev/null 2>&1; then
	pass script_cpu_without_cpus
else
	fail script_cpu_without_cpus "exit $rc: $(head -c 300 "$TMP/err")"
fi

# Processes, threads, commands: the ls child's.
ls_pid=$(awk '$1 == "ls" {print $2; exit}' "$TMP/all.txt" | cut -d/ -f1)
sh_pid=$(awk '$1 == "sh" {print $2; exit}' "$TMP/all.txt" | cut -d/ -f1)
same script_pid "$TMP/f.data" -F $F --pid "$ls_pid"
same script_tid "$TMP/f.data" -F $F --tid "$sh_pid"
same script_comm "$TMP/f.data" -F $F --comms ls
same script_comm_prefix "$TMP/f.data" -F $F --comm sh
same script_filters_together "$TMP/f.data" -F $F --comms sh --time 0%-50% -C "$cpu"
# Objects: by file name and by path, the kernel's too.
same script_dsos "$TMP/f.data" -F $F,dso --dsos libc.so.6
same script_dsos_path "$TMP/f.data" -F $F,dso --dsos "$(command -v sh | xargs readlink -f)"
same script_dsos_kernel "$TMP/f.data" -F $F,dso --dsos "[kernel.kallsyms],libc.so.6"
run "$PERFEV" script -i "$TMP/f.data" --pid 12x
if [ "$rc" -eq 2 ] && grep -q "cannot filter by --pid '12x'" "$TMP/err"; then
	pass script_pid_bad
else
	fail script_pid_bad "exit $rc: $(head -c 300 "$TMP/err")"
fi

# Symbols: the workload's main (by name and by its address), and a kernel function.
if [ -x "$W" ] && perf_rec -q -N -o "$TMP/w.data" -e task-clock -c 50000 --sample-cpu -- "$W" \
	>/dev/null 2>&1; then
	total_of=$(perf script -i "$TMP/w.data" -F ip 2>/dev/null | wc -l)
	same script_symbols "$TMP/w.data" -F $F,sym -S main
	ksym=$(perf script -i "$TMP/w.data" -F sym 2>/dev/null | awk 'NF {print $1}' |
		grep -v unknown | sort | uniq -c | sort -rn | awk '{print $2; exit}')
	same script_symbols_kernel "$TMP/w.data" -F $F,sym -S "$ksym,main"
	total_of=
else
	skip perf script_symbols "the workload cannot be recorded here"
fi

# --per-event-dump: one file per event, named as perf names them, the same lines.
mkdir -p "$TMP/pp" "$TMP/pq"
cp "$TMP/f.data" "$TMP/pp/d.data"
cp "$TMP/f.data" "$TMP/pq/d.data"
(cd "$TMP/pp" && perf script -i d.data --per-event-dump -F $F >out 2>/dev/null)
(cd "$TMP/pq" && "$OLDPWD/$PERFEV" script -i d.data --per-event-dump -F $F >out 2>err)
if [ ! -s "$TMP/pq/d.data.task-clock.dump" ]; then
	fail script_per_event_dump "no d.data.task-clock.dump: $(ls "$TMP/pq") $(head -c 300 "$TMP/pq/err")"
elif ! cmp -s "$TMP/pp/d.data.task-clock.dump" "$TMP/pq/d.data.task-clock.dump"; then
	fail script_per_event_dump "$(diff "$TMP/pp/d.data.task-clock.dump" "$TMP/pq/d.data.task-clock.dump" | head -5)"
elif ! python3 "$ORACLE" same "$TMP/pp/out" "$TMP/pq/out" --sub '[0-9.]+ MB' >"$TMP/cmp.err" 2>&1; then
	# perf tells the size it had written before its last flush; perfev the whole file's.
	fail script_per_event_dump "$(head -c 400 "$TMP/cmp.err")"
else
	pass script_per_event_dump
fi
run "$PERFEV" script -i "$TMP/f.data" --per-event-dump -j
if [ "$rc" -eq 2 ]; then
	pass script_per_event_dump_json
else
	fail script_per_event_dump_json "exit $rc"
fi

# perfev report: --time and -C drop samples (and change the total), --pid hides lines.
rsame() {
	name=$1
	shift
	perf report -i "$TMP/f.data" --stdio "$@" >"$TMP/perf.txt" 2>/dev/null
	run "$PERFEV" report -i "$TMP/f.data" --stdio "$@"
	expect_rc "$name" 0 || return
	if python3 "$ORACLE" report-cmp "$TMP/perf.txt" "$TMP/out" >"$TMP/cmp.err" 2>&1; then
		pass "$name"
	else
		fail "$name" "$(head -c 600 "$TMP/cmp.err")"
	fi
}
rsame report_time --time "$q1,$q3"
rsame report_time_percent --time "10%/$s1"
rsame report_time_ranges --time 0%-10%,50%-60%
rsame report_cpu -C "$cpu"
# --pid and --tid with the thread in the sort keys.  perf 6.1 filters a thread at its line
# (hist entry), made by the line's first sample: where the ls child is sampled between fork
# and exec (comm still sh) at a symbol where the shell was sampled first, the default keys
# (comm,dso,sym) put both in one line, which perf hides whole under --pid of the child and
# shows whole under --tid of the shell, one sample off either way.  With pid in the keys a
# line holds one thread's samples, and perf's filter is that of each sample, as perfev's.
rsame report_pid --pid "$ls_pid" --sort pid,comm,dso,sym
rsame report_pid_time --pid "$sh_pid" --time 0%-50% --sort pid,comm,dso,sym

# The exports hold the samples the table shows: perf report -n's count of the lines the
# filters let through is that of the folded stacks and of the HTML page's.
esame() {
	name=$1
	shift
	# One line per thread on perf's side (see report_pid): the same samples, counted right.
	perf report -i "$TMP/f.data" --stdio -n --no-children -g none --sort pid,comm,dso,sym "$@" \
		>"$TMP/perf.txt" 2>/dev/null
	run "$PERFEV" report -i "$TMP/f.data" "$@" --folded "$TMP/e.folded" --html "$TMP/e.html"
	expect_rc "$name" 0 || return
	if ! n=$(python3 "$ORACLE" filtered-samples "$TMP/perf.txt" "$TMP/e.folded" "$TMP/e.html" \
		2>"$TMP/cmp.err"); then
		fail "$name" "$(head -c 600 "$TMP/cmp.err")"
	elif [ "$n" -eq 0 ] || [ "$n" -ge "$total" ]; then
		fail "$name" "the filter kept $n of $total samples: not a test"
	else
		pass "$name"
	fi
}
sym=$(perf report -i "$TMP/f.data" --stdio --sort sym 2>/dev/null | awk '/%/ && !/^#/ {print $3; exit}')
esame export_comm --comms ls
esame export_pid --pid "$ls_pid"
esame export_tid --tid "$sh_pid"
esame export_dsos --dsos libc.so.6
esame export_symbols -S "$sym"
esame export_together --comms sh --dsos "libc.so.6,[kernel.kallsyms]" --time 0%-50%
run "$PERFEV" report -i "$TMP/f.data" --stdio --time x
if [ "$rc" -eq 2 ] && grep -q "cannot use --time 'x'" "$TMP/err"; then
	pass report_time_bad
else
	fail report_time_bad "exit $rc: $(head -c 300 "$TMP/err")"
fi

finish
