# SPDX-License-Identifier: LGPL-2.1-or-later
# perfev report's header, period, weight and branch options against perf 6.1 on the same files: recorded ones and synthesized ones (branch stacks, memory samples) no PMU here can record.
. tests/cli/lib.sh

B=${PERFEV_BUILD:-build}
WL=$B/examples/workload
W=$B/bench/report-workload
SYNTH=$B/bench/perfdata-synth
have_perf61

# same NAME FILE OPTIONS...: perf report --stdio and perfev report, both with OPTIONS, agree,
# every column header included.
same() {
	name=$1 file=$2
	shift 2
	perf report -i "$file" --stdio "$@" >"$TMP/perf.txt" 2>/dev/null
	run "$PERFEV" report -i "$file" "$@"
	expect_rc "$name" 0 || return 1
	if python3 tests/cli/oracle.py report-cmp "$TMP/perf.txt" "$TMP/out" --columns \
		>"$TMP/cmp.err" 2>&1; then
		pass "$name"
	else
		fail "$name" "$(cat "$TMP/cmp.err")"
	fi
}

# same_header NAME FILE [OPTIONS]: perf report --header-only and perfev's, line for line.
same_header() {
	name=$1 file=$2
	shift 2
	perf report -i "$file" --header-only "$@" >"$TMP/perf.txt" 2>/dev/null
	run "$PERFEV" report -i "$file" --header-only "$@"
	expect_rc "$name" 0 || return 1
	if cmp -s "$TMP/perf.txt" "$TMP/out"; then
		pass "$name"
	else
		fail "$name" "$(diff "$TMP/perf.txt" "$TMP/out" | head -8 | tr '\n' ' ')"
	fi
}

# refused NAME RC PATTERN ARGS...: perfev report ARGS exits RC and says PATTERN on stderr.
refused() {
	name=$1 want=$2 pattern=$3
	shift 3
	run "$PERFEV" report "$@"
	if expect_rc "$name" "$want"; then
		if grep -q "$pattern" "$TMP/err"; then
			pass "$name"
		else
			fail "$name" "no '$pattern' in: $(head -c 300 "$TMP/err")"
		fi
	fi
}

# Files made here: perfev's and perf's recordings of one workload.
"$PERFEV" record -q -o "$TMP/pv.data" -e task-clock -- "$WL" 50000000 >/dev/null 2>"$TMP/err" ||
	fail report_options_record "perfev record failed: $(head -c 300 "$TMP/err")"
"$PERFEV" record -q -o "$TMP/pvs.data" -e '{task-clock,page-faults}:S' -- "$WL" 50000000 \
	>/dev/null 2>"$TMP/err" ||
	fail report_options_record "perfev record :S failed: $(head -c 300 "$TMP/err")"

# The header: perfev script --header-only prints the same block.
run "$PERFEV" report -i "$TMP/pv.data" --header-only
cp "$TMP/out" "$TMP/report-header.txt"
run "$PERFEV" script -i "$TMP/pv.data" --header-only
if cmp -s "$TMP/report-header.txt" "$TMP/out" &&
	grep -q '^# data offset    : [0-9]' "$TMP/out" &&
	grep -q '^# event : name = task-clock, , id = {' "$TMP/out" &&
	grep -q '^# missing features: ' "$TMP/out"; then
	pass report_header_shared
else
	fail report_header_shared "$(diff "$TMP/report-header.txt" "$TMP/out" | head -5 | tr '\n' ' ')"
fi
run "$PERFEV" report -i "$TMP/pv.data" --header
if grep -q '^# ========$' "$TMP/out" && ! grep -q 'To display the perf.data header' "$TMP/out" &&
	grep -q '^# Samples: ' "$TMP/out"; then
	pass report_header_then_report
else
	fail report_header_then_report "$(head -5 "$TMP/out" | tr '\n' ' ')"
fi

# The Period column, without perf too: its sum is the event count.
run "$PERFEV" report -i "$TMP/pv.data" --show-total-period --sort comm
if expect_rc report_total_period 0 &&
	awk '/^# Event count/ { c = $NF } /^# Overhead +Period +Command/ { h = 1 }
	     $1 ~ /%$/ { s += $2 } END { exit !(h && s == c && c > 0) }' "$TMP/out"; then
	pass report_total_period
else
	fail report_total_period "$(sed -n 6,12p "$TMP/out" | tr '\n' ' ')"
fi

# Synthesized files: samples in the workload's and libc's functions, with branch stacks, with
# weights and data sources, and a {task-clock,page-faults}:S group without GROUP_DESC.
LIBC=$(ldd "$WL" | awk '$1 ~ /^libc\.so/ { print $3 }')
A1=$(nm --defined-only "$W" | awk '$2 ~ /^[tT]$/ { printf "%s%s", s, $1; s = "," }' | cut -d, -f1-8)
A2=$(nm -D --defined-only "$LIBC" | awk '$2 == "T" && $3 ~ /^(strlen|free|memchr|qsort)@/ { printf "%s%s", s, $1; s = "," }')
for k in branch mem sread; do
	"$SYNTH" $k "$TMP/$k.data" "$PWD/$W" "$A1" "$LIBC" "$A2" 2>"$TMP/err" ||
		fail report_synth_$k "cannot write the file: $(head -c 300 "$TMP/err")"
done

# Branch mode, the default for a file with branch stacks: a line per branch.
run "$PERFEV" report -i "$TMP/branch.data" -n
if expect_rc report_branch_default 0 &&
	grep -q '^# Overhead       Samples  Command     Source Shared Object  Source Symbol  *Target Symbol  *Basic Block Cycles$' "$TMP/out" &&
	grep -q "^# Samples: 960  of event 'cpu-cycles'" "$TMP/out"; then
	pass report_branch_default
else
	fail report_branch_default "$(sed -n 6,13p "$TMP/out" | tr '\n' ' ')"
fi
refused report_branch_keys_refused 2 "cannot sort by 'dso_from' here: it is a key of --branch-stack" \
	-i "$TMP/pv.data" -s dso_from
refused report_branch_refused 1 "have no branch stacks" -i "$TMP/pv.data" -b

# --mem-mode: the samples' weights as periods, the data source's columns.
run "$PERFEV" report -i "$TMP/mem.data" --mem-mode
if expect_rc report_mem_mode 0 && grep -q '^# Total weight : [1-9]' "$TMP/out" &&
	grep -q '^# Sort order   : local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,tlb,locked,blocked,local_ins_lat,local_p_stage_cyc$' "$TMP/out" &&
	grep -q 'Remote Remote Cache (1 hop) or Any cache hit' "$TMP/out" &&
	grep -q 'L2 or Walker miss' "$TMP/out"; then
	pass report_mem_mode
else
	fail report_mem_mode "$(sed -n 6,14p "$TMP/out" | tr '\n' ' ')"
fi
refused report_mem_keys_refused 2 "cannot sort by 'mem' here: it is a key of --mem-mode" \
	-i "$TMP/pv.data" -s mem
refused report_mem_refused 1 "have no data source" -i "$TMP/pv.data" --mem-mode
refused report_sort_unknown 2 "unknown sort key 'symbol_dadr'" -i "$TMP/pv.data" -s symbol_dadr
refused report_sort_unsupported 2 "cannot sort by 'par' (perf's 'parent'): not supported yet" \
	-i "$TMP/pv.data" -s par

# -T: each inherited thread's count at its exit (READ records of a perf record -s recording).
two="for i in 1 2; do $WL 20000000 & done; wait"
"$PERFEV" record -q -s -e task-clock -o "$TMP/pT.data" -- sh -c "$two" >/dev/null 2>&1
run "$PERFEV" report -i "$TMP/pT.data" -T
if expect_rc report_threads_table 0 && grep -qE '^# +PID +TID  task-clock$' "$TMP/out" &&
	[ "$(grep -cE '^  +[0-9]+  +[0-9]+  +[0-9]+$' "$TMP/out")" -ge 2 ]; then
	pass report_threads_table
else
	fail report_threads_table "$(tail -4 "$TMP/out" | tr '\n' ' ')"
fi

# same_threads NAME FILE: perf report -T's table and perfev's, line for line.
same_threads() {
	perf report -i "$2" --stdio -T 2>/dev/null | sed -n '/^# *PID  *TID/,$p' >"$TMP/perf.txt"
	"$PERFEV" report -i "$2" -T 2>/dev/null | sed -n '/^# *PID  *TID/,$p' >"$TMP/out"
	if [ -s "$TMP/perf.txt" ] && cmp -s "$TMP/perf.txt" "$TMP/out"; then
		pass "$1"
	else
		fail "$1" "perf: $(tr '\n' '|' <"$TMP/perf.txt") perfev: $(tr '\n' '|' <"$TMP/out")"
	fi
}

if [ -z "$have_perf" ]; then
	skip perf report_options_perf "$why_no_perf"
	exit $status
fi

perf record -q -o "$TMP/pf.data" -e task-clock -- "$WL" 50000000 >/dev/null 2>&1 ||
	fail report_options_record "perf record failed"
same_header report_header_perfev_file "$TMP/pv.data"
same_header report_header_perf_file "$TMP/pf.data"
same_header report_header_group_file "$TMP/pvs.data"
same_header report_header_info "$TMP/pf.data" -I
same_header report_header_branch "$TMP/branch.data"
same_header report_header_mem "$TMP/mem.data"
if perf record -q -k mono -z -e task-clock -o "$TMP/pz.data" -- "$WL" 20000000 >/dev/null 2>&1; then
	same_header report_header_clock_zstd "$TMP/pz.data" -I
else
	fail report_header_clock_zstd "perf record -k mono -z failed"
fi
perf_pipe "$TMP/pipe.data" -q -e task-clock -- "$WL" 20000000
same_header report_header_pipe "$TMP/pipe.data"
same report_header_full "$TMP/pf.data" --header
for f in pv pf pvs; do
	same "report_total_period_$f" "$TMP/$f.data" --show-total-period -n
	same "report_sort_period_$f" "$TMP/$f.data" --sort sym,period
	same "report_sort_period_first_$f" "$TMP/$f.data" --sort period,dso -n
done
same report_fields_period "$TMP/pf.data" -F overhead,period,sym
# Keys by the start of their names, as perf matches them; "symbol" brings perf's IPC column.
same report_sort_symbol "$TMP/pf.data" -s comm,symbol
same report_sort_prefix "$TMP/pf.data" -s CO,dso,sy
# With call chains: children, self, the period, and the graph under each line.
if perf record -q -g -o "$TMP/pg.data" -F 2000 -- "$W" 1000 >/dev/null 2>&1; then
	same report_total_period_children "$TMP/pg.data" --show-total-period -n
	perf report -i "$TMP/pg.data" --stdio --show-total-period >"$TMP/perf.txt" 2>/dev/null
	"$PERFEV" report -i "$TMP/pg.data" --show-total-period >"$TMP/out" 2>"$TMP/err"
	if python3 tests/cli/oracle.py graph-cmp "$TMP/perf.txt" "$TMP/out" >"$TMP/cmp.err" 2>&1; then
		pass report_total_period_graph
	else
		fail report_total_period_graph "$(tail -3 "$TMP/cmp.err")"
	fi
	# The pid column line for line, its header perf's "    Pid:Command": the header and the
	# first three lines with their graphs (further down, lines of equal shares may come in
	# another order).
	first3='/^ +[0-9.]+%/ { n++ } n > 3 { exit } !/^#$|^# \(Tip/ { print }'
	for keys in pid pid,sym comm,pid; do
		perf report -i "$TMP/pg.data" --stdio -s $keys 2>/dev/null | awk "$first3" >"$TMP/perf.txt"
		"$PERFEV" report -i "$TMP/pg.data" --stdio -s $keys 2>/dev/null | awk "$first3" >"$TMP/out"
		if python3 tests/cli/oracle.py same "$TMP/perf.txt" "$TMP/out" >"$TMP/cmp.err" 2>&1; then
			pass "report_sort_$(echo $keys | tr , _)_whole"
		else
			fail "report_sort_$(echo $keys | tr , _)_whole" "$(head -c 400 "$TMP/cmp.err")"
		fi
	done
else
	fail report_total_period_children "perf record -g failed"
fi

# Branch stacks.  perf 6.1 crashes when --sort names symbol_from or symbol_to: those are
# compared through the default order only.
same report_branch "$TMP/branch.data"
same report_branch_nr "$TMP/branch.data" -n --show-total-period
same report_branch_dsos "$TMP/branch.data" -s dso_from,dso_to
same report_branch_cycles "$TMP/branch.data" -s dso_to,cycles -n
same report_branch_comm "$TMP/branch.data" -s comm
same report_branch_weight "$TMP/branch.data" -s dso_from,weight
same report_branch_off "$TMP/branch.data" --no-branch-stack
# Weights.
same report_weight "$TMP/mem.data" -s weight
same report_local_weight "$TMP/mem.data" -s local_weight
same report_local_weight_sym "$TMP/mem.data" -s local_weight,sym
same report_weight_sym "$TMP/mem.data" -s sym,weight -n
same report_weights "$TMP/mem.data" -s dso,local_weight,weight
same report_weight_none "$TMP/pf.data" -s local_weight,sym
same report_local_ins_lat "$TMP/mem.data" -s local_ins_lat,sym
# Memory mode (perf 6.1 adds its IPC column to an order naming symbol_daddr).
same report_mem "$TMP/mem.data" --mem-mode
same report_mem_snoop "$TMP/mem.data" --mem-mode -s mem,snoop -n
same report_mem_tlb "$TMP/mem.data" --mem-mode -s tlb,locked,blocked
same report_mem_daddr "$TMP/mem.data" --mem-mode -s sym,symbol_daddr,dso_daddr
same report_mem_daddr_ipc "$TMP/mem.data" --mem-mode -s dso,symbol_daddr -n
same report_mem_period "$TMP/mem.data" --mem-mode --show-total-period
same report_mem_dso_daddr "$TMP/mem.data" --mem-mode -s dso_daddr,mem
# A :S group without GROUP_DESC: perf 6.1 shows each event on its own.
same report_sread_no_group_desc "$TMP/sread.data"
same report_sread_group "$TMP/sread.data" --group -n
same report_sread_no_group "$TMP/sread.data" --no-group
if perf record -q -e cpu-clock -e page-faults -c 100000 -o "$TMP/two.data" -- "$WL" 20000000 \
	>/dev/null 2>&1; then
	same report_no_group_two "$TMP/two.data" --no-group -n
	same report_group_two "$TMP/two.data" --group
else
	fail report_no_group_two "perf record of two events failed"
fi
perf record -q -s -e task-clock -o "$TMP/fT.data" -- sh -c "$two" >/dev/null 2>&1
same_threads report_threads_perf_file "$TMP/fT.data"
same_threads report_threads_perfev_file "$TMP/pT.data"
same_threads report_threads_none "$TMP/pf.data"
same report_threads_report "$TMP/fT.data" -T

# --symfs: a program of a build id no cache holds, recorded, then moved under DIR: its symbols
# are found there, and every other file's only there too (perf's rules, kernel included).  HOME
# is a new directory: no build-id cache (perf's, read by both) has the program.
if cc -O2 -g -o "$TMP/rw" bench/report-workload.c \
	-Wl,--build-id=0x$(od -An -N20 -tx1 /dev/urandom | tr -d ' \n') 2>"$TMP/err" &&
	mkdir -p "$TMP/home" && HOME=$TMP/home perf record -N -q -o "$TMP/sf.data" -F 2000 -- \
		"$TMP/rw" 1000 >/dev/null 2>&1; then
	mkdir -p "$TMP/symfs$TMP" && mv "$TMP/rw" "$TMP/symfs$TMP/rw"
	# The vDSO is left out: perf finds it in its build-id cache only, perfev reads its own.
	only="rw,libc.so.6,[kernel.kallsyms]"
	HOME=$TMP/home same report_symfs_none "$TMP/sf.data" --sort dso,sym -d "$only"
	HOME=$TMP/home same report_symfs "$TMP/sf.data" --sort dso,sym --symfs "$TMP/symfs" \
		-d "$only"
	HOME=$TMP/home same report_symfs_kallsyms "$TMP/sf.data" --sort dso,sym \
		--symfs "$TMP/symfs" --kallsyms /proc/kallsyms -d "$only"
	HOME=$TMP/home run "$PERFEV" script -i "$TMP/sf.data" -F ip,sym --symfs "$TMP/symfs"
	n=$(grep -c 'partition\|number\|insertion_sort' "$TMP/out")
	HOME=$TMP/home run "$PERFEV" script -i "$TMP/sf.data" -F ip,sym
	if [ "$n" -gt 10 ] && ! grep -q 'partition\|number\|insertion_sort' "$TMP/out"; then
		pass script_symfs
	else
		fail script_symfs "$n samples resolved under the symfs; without it: $(head -3 "$TMP/out")"
	fi
else
	fail report_symfs "cannot build and record the program: $(head -c 300 "$TMP/err")"
fi

# -v: whole paths and, in the symbol column, an address and the origin letter of the
# file's symbols; the lines are perf's once those two are set aside (perf shows its first
# sample's address and letters of its own build-id cache, perfev the symbol's and its own).
if [ -n "$have_perf" ] && perf record -q -N -o "$TMP/v.data" -- "$WL" 30000000 >/dev/null 2>&1; then
	norm='s/0x[0-9a-f]+ +[a-zA-Z!] +\[/ADDR [/'
	perf report -v -i "$TMP/v.data" --stdio --sort comm,dso,sym 2>/dev/null | grep -v '^#' |
		grep . | sed -E "$norm" >"$TMP/pv.txt"
	run "$PERFEV" report -v -i "$TMP/v.data" --stdio --sort comm,dso,sym
	grep -v '^#' "$TMP/out" | grep . | sed -E "$norm" >"$TMP/ov.txt"
	if expect_rc report_verbose 0; then
		if ! grep -q " $(cd "$(dirname "$WL")" && pwd)/workload .*0x[0-9a-f]* *d \[\.\] main$" "$TMP/out"; then
			fail report_verbose "no whole path, address and 'd' on main's line: $(grep main "$TMP/out")"
		elif grep -q '\[k\]' "$TMP/out" && grep '\[k\]' "$TMP/out" | grep -qv ' k \[k\]'; then
			fail report_verbose "a kernel line without 'k': $(grep '\[k\]' "$TMP/out" | grep -v ' k \[k\]' | head -1)"
		elif ! python3 tests/cli/oracle.py report-cmp "$TMP/pv.txt" "$TMP/ov.txt" >"$TMP/cmp.err" 2>&1; then
			fail report_verbose "$(head -c 400 "$TMP/cmp.err")"
		else
			pass report_verbose
		fi
	fi
else
	skip perf report_verbose "${why_no_perf:-perf cannot record here}"
fi

# -k: perf's short option for the kernel's symbols; kallsyms text is read as --kallsyms reads
# it, an ELF image (perf's vmlinux) is refused with what to give instead.
if [ -s "$TMP/v.data" ]; then
	"$PERFEV" report -i "$TMP/v.data" --stdio --kallsyms /proc/kallsyms >"$TMP/k1.txt" 2>/dev/null
	run "$PERFEV" report -i "$TMP/v.data" --stdio -k /proc/kallsyms
	if expect_rc report_k_kallsyms 0; then
		if cmp -s "$TMP/k1.txt" "$TMP/out"; then pass report_k_kallsyms; else
			fail report_k_kallsyms "-k and --kallsyms differ: $(diff "$TMP/k1.txt" "$TMP/out" | head -3)"; fi
	fi
	run "$PERFEV" report -i "$TMP/v.data" --stdio -k "$WL"
	if [ "$rc" -eq 1 ] && grep -q "is an ELF file (a vmlinux" "$TMP/err"; then pass report_k_vmlinux_refused; else
		fail report_k_vmlinux_refused "exit $rc: $(head -c 300 "$TMP/err")"; fi
fi

exit $status
