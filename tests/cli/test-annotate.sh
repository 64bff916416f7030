# SPDX-License-Identifier: LGPL-2.1-or-later
# perfev annotate end to end: real recordings of a hot loop built with -g, of its libm hot
# spot and of a syscall-heavy command, each instruction's percent compared with perf
# annotate --stdio 6.1 (within 1 point); source lines, -l's summary, the kernel through a
# kcore file, and what is said for a missing function, a file without samples, a stripped
# binary and a missing one.
. tests/cli/lib.sh

ORACLE=tests/cli/oracle.py
need_perf_sampling annotate
if ! cc -O1 -g -o "$TMP/hot" tests/cli/annotate-hot.c -lm 2>"$TMP/err"; then
	skip cc annotate "cannot build the workload: $(head -c 200 "$TMP/err")"
	finish
fi

# cmp_perf NAME FILE [ARGS...]: perf annotate --stdio and perfev annotate --stdio agree.
cmp_perf() {
	name=$1 file=$2
	shift 2
	perf annotate --stdio -i "$file" "$@" >"$TMP/perf.txt" 2>"$TMP/perf.err"
	run "$PERFEV" annotate --stdio -i "$file" "$@"
	expect_rc "$name" 0 || return 1
	if python3 "$ORACLE" annotate-cmp "$TMP/perf.txt" "$TMP/out" >"$TMP/cmp.out" 2>&1; then
		pass "$name ($(cat "$TMP/cmp.out"))"
	else
		fail "$name" "$(head -c 800 "$TMP/cmp.out")"
		return 1
	fi
}

# ---- user code and a shared library -----------------------------------------------
perf_rec -N -q -o "$TMP/hot.data" -- "$TMP/hot" 2>"$TMP/rec.err" ||
	fail record "perf record failed: $(head -c 300 "$TMP/rec.err")"
cmp_perf annotate_user "$TMP/hot.data" work
cmp_perf annotate_all "$TMP/hot.data"
if grep -q 'Disassembly of libm\.so[.0-9]* ' "$TMP/out" && grep -q 'Disassembly of hot ' "$TMP/out"; then
	pass annotate_libm_and_user_shown
else
	fail annotate_libm_and_user_shown "no libm or no hot section: $(grep Disassembly "$TMP/out" | head -c 400)"
fi
# Hottest first: work takes more samples than trig's own code.
first=$(grep -m1 -A2 'Disassembly of' "$TMP/out" | sed -n 's/.*<\(.*\)>:$/\1/p')
[ -n "$first" ] && pass "annotate_order (first: $first)" || fail annotate_order "no symbol line"
cmp_perf annotate_symbol_option "$TMP/hot.data" -s trig
# Global percents: of the event's whole period, or of the functions chosen (perf's rule).
cmp_perf annotate_global_period "$TMP/hot.data" --percent-type global-period
cmp_perf annotate_global_period_symbol "$TMP/hot.data" --percent-type global-period work
cmp_perf annotate_local_hits "$TMP/hot.data" --percent-type local-hits
cmp_perf annotate_dsos "$TMP/hot.data" -d hot
if grep -q 'Disassembly of libm' "$TMP/out"; then
	fail annotate_dsos_only "-d hot shows libm"
else
	pass annotate_dsos_only
fi
# Two events: each event's functions apart, as perf walks them.
perf_rec -N -q -e cpu-clock,task-clock -o "$TMP/two.data" -- "$TMP/hot" 2>/dev/null
cmp_perf annotate_two_events "$TMP/two.data"

# ---- source lines, -l, syntax, raw bytes ------------------------------------------------
run "$PERFEV" annotate -i "$TMP/hot.data" work
if expect_rc annotate_source 0 && grep -q '^ *: *annotate-hot.c:[0-9]' "$TMP/out" &&
	grep -q 's -= i / 3.0;' "$TMP/out"; then
	pass annotate_source
else
	fail annotate_source "no source line in: $(head -c 600 "$TMP/out")"
fi
run "$PERFEV" annotate -i "$TMP/hot.data" --no-source work
if expect_rc annotate_no_source 0 && ! grep -q 'annotate-hot.c' "$TMP/out" && grep -q '<work>:' "$TMP/out"; then
	pass annotate_no_source
else
	fail annotate_no_source "source lines shown with --no-source"
fi
# -l: perf's sorted summary of source lines, the same lines.
perf annotate --stdio -l -i "$TMP/hot.data" work >"$TMP/perf-sum.txt" 2>/dev/null
run "$PERFEV" annotate --stdio -l -i "$TMP/hot.data" work
if expect_rc annotate_print_line 0 &&
	python3 "$ORACLE" print-line-cmp "$TMP/perf-sum.txt" "$TMP/out" >"$TMP/cmp.out" 2>&1; then
	pass "annotate_print_line ($(cat "$TMP/cmp.out"))"
else
	fail annotate_print_line "$(head -c 600 "$TMP/cmp.out")"
fi
# Jumps named by their target, and the instruction they land on marked.
if grep -Eq 'j[a-z]+ +[0-9a-f]+ <work\+0x[0-9a-f]+>' "$TMP/out" && grep -q ' <- [0-9a-f]' "$TMP/out"; then
	pass annotate_jump_targets
else
	fail annotate_jump_targets "no named jump or no landing mark"
fi
run "$PERFEV" annotate -i "$TMP/hot.data" -M intel --asm-raw --no-source work
if expect_rc annotate_intel_raw 0 && grep -Eq ':  ([0-9a-f]{2} )+ +[a-z]+ +[a-z0-9]+, ' "$TMP/out" &&
	! grep -q '%' "$TMP/out"; then
	pass annotate_intel_raw
else
	fail annotate_intel_raw "not Intel syntax with bytes: $(sed -n 4,6p "$TMP/out")"
fi

run "$PERFEV" annotate -i "$TMP/hot.data" -v --no-source work
if expect_rc annotate_verbose 0 && grep -q "work: 0x[0-9a-f]*-0x[0-9a-f]* of $TMP/hot (file offset 0x" "$TMP/err"; then
	pass annotate_verbose
else
	fail annotate_verbose "$(head -c 300 "$TMP/err")"
fi

# ---- the kernel ----------------------------------------------------------------------
perf_rec -N -q -o "$TMP/k.data" -- dd if=/dev/zero of=/dev/null bs=64 count=400000 2>"$TMP/rec.err" ||
	fail record "perf record of dd failed: $(head -c 300 "$TMP/rec.err")"
if [ -r /proc/kcore ] && head -c 1 /proc/kcore >/dev/null 2>&1; then
	cmp_perf annotate_kernel_kcore "$TMP/k.data" -d '[kernel.kallsyms]'
else
	run "$PERFEV" annotate -i "$TMP/k.data" -d '[kernel.kallsyms]'
	if [ "$rc" -eq 1 ] && grep -q "cannot read the kernel's code from /proc/kcore" "$TMP/err"; then
		pass annotate_kernel_no_kcore_said
	else
		fail annotate_kernel_no_kcore_said "rc $rc: $(head -c 300 "$TMP/err")"
	fi
	skip kcore annotate_kernel_kcore "no readable /proc/kcore on this kernel"
fi
# The same through a kcore file laid out as the kernel's: each sampled address an
# instruction, its percent the share perf script gives that address in its function.
mkdir -p "$TMP/proc"
if python3 "$ORACLE" fake-kcore "$TMP/proc/kcore" /proc/kallsyms 2>"$TMP/err"; then
	perf script -i "$TMP/k.data" -F period,ip,sym,dso >"$TMP/k.script" 2>/dev/null
	PERFEV_PROCFS_ROOT=$TMP/proc run "$PERFEV" annotate -i "$TMP/k.data" -d '[kernel.kallsyms]'
	if expect_rc annotate_kernel 0 &&
		python3 "$ORACLE" annotate-samples-cmp "$TMP/k.script" "$TMP/out" '[kernel.kallsyms]' >"$TMP/cmp.out" 2>&1; then
		pass "annotate_kernel ($(cat "$TMP/cmp.out"))"
	else
		fail annotate_kernel "$(head -c 600 "$TMP/cmp.out")"
	fi
else
	skip kallsyms annotate_kernel "$(head -c 200 "$TMP/err")"
fi
cmp_perf annotate_libc_of_dd "$TMP/k.data" -d libc.so.6

# ---- what goes wrong -------------------------------------------------------------------
run "$PERFEV" annotate -i "$TMP/hot.data" no_such_function
if [ "$rc" -eq 1 ] && grep -q "cannot annotate 'no_such_function'" "$TMP/err" && [ ! -s "$TMP/out" ]; then
	pass annotate_missing_symbol
else
	fail annotate_missing_symbol "rc $rc: $(head -c 300 "$TMP/err")"
fi
perf_rec -N -q -o "$TMP/none.data" -e cpu-clock -c 100000000000 -- true 2>/dev/null
run "$PERFEV" annotate -i "$TMP/none.data"
if [ "$rc" -eq 1 ] && grep -q "holds no samples" "$TMP/err"; then
	pass annotate_no_samples
else
	fail annotate_no_samples "rc $rc: $(head -c 300 "$TMP/err")"
fi
run "$PERFEV" annotate -i "$TMP/hot.data" -M bogus
expect_rc annotate_bad_style 2 && grep -q "unknown disassembler style 'bogus'" "$TMP/err" &&
	pass annotate_bad_style
run "$PERFEV" annotate -i "$TMP/hot.data" -k /boot/vmlinux
expect_rc annotate_vmlinux_refused 2 && grep -q "/proc/kcore" "$TMP/err" && pass annotate_vmlinux_refused
# A stripped binary (a build of its own, in no build-id cache): its own samples have no
# symbol (said), libm's are annotated as perf does.
cc -O1 -g -DLOOPS=21 -o "$TMP/hot-stripped" tests/cli/annotate-hot.c -lm && strip "$TMP/hot-stripped"
perf_rec -N -q -o "$TMP/strip.data" -- "$TMP/hot-stripped" 2>/dev/null
cmp_perf annotate_stripped "$TMP/strip.data"
if grep -q "samples in '$TMP/hot-stripped': no symbol covers" "$TMP/err"; then
	pass annotate_stripped_said
else
	fail annotate_stripped_said "$(head -c 300 "$TMP/err")"
fi
# A binary gone since the recording (and in no build-id cache: -N): said, with what it
# takes; the rest still annotated.
cc -O1 -g -DLOOPS=22 -o "$TMP/hot-gone" tests/cli/annotate-hot.c -lm
perf_rec -N -q -o "$TMP/gone.data" -- "$TMP/hot-gone" 2>/dev/null
rm -f "$TMP/hot-gone"
run "$PERFEV" annotate -i "$TMP/gone.data" -d hot-gone,libm.so.6
if [ "$rc" -eq 0 ] && grep -q "samples in '$TMP/hot-gone': cannot read it: No such file" "$TMP/err" &&
	grep -q 'Disassembly of libm' "$TMP/out"; then
	pass annotate_missing_dso
else
	fail annotate_missing_dso "rc $rc: $(head -c 300 "$TMP/err")"
fi
run "$PERFEV" annotate -i "$TMP/gone.data" work
expect_rc annotate_missing_dso_symbol 1 && pass annotate_missing_dso_symbol

# capstone is loaded when the first function is disassembled: without it, annotate says what
# to install (exit 1), script's insn field stays empty with a warning, report is untouched.
# The library is hidden by a bind mount in a mount namespace of its own.
if hide_lib annotate_no_capstone 'libcapstone\.so\.[0-9]+'; then
	unshare -m sh -c 'mount --bind /dev/null "$1" && shift &&
		"$1" annotate -i "$2" work >"$3/out" 2>"$3/err"; echo $? >"$3/rc"
		"$1" script -i "$2" -F ip,insn >"$3/sout" 2>"$3/serr"
		"$1" report -i "$2" --stdio >"$3/rout" 2>&1' \
		sh "$hidden_lib" "$PERFEV" "$TMP/hot.data" "$TMP"
	if [ "$(cat "$TMP/rc")" = 1 ] && grep -q "capstone's shared library is not installed" "$TMP/err" &&
		grep -q "warning: the insn field stays empty" "$TMP/serr" && ! grep -q 'insn: [0-9a-f]' "$TMP/sout" &&
		grep -q '\] work$' "$TMP/rout"; then
		pass annotate_no_capstone
	else
		fail annotate_no_capstone "rc $(cat "$TMP/rc"): $(head -c 200 "$TMP/err") / $(head -c 200 "$TMP/serr")"
	fi
fi
finish
