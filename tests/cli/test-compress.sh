# SPDX-License-Identifier: LGPL-2.1-or-later
# record -z/--compression-level: perf reads perfev's compressed files and perfev reads perf's.
. tests/cli/lib.sh

# A short workload that burns some CPU, so cpu-clock samples it in user and kernel mode.
WORK="sh -c 'i=0; while [ \$i -lt 30000 ]; do i=\$((i+1)); done; ls / >/dev/null'"
have_perf61

# ---- levels --------------------------------------------------------------------------------

# perf clamps 0 and 23 and reads "abc" as 1 without a word: perfev refuses them.
for bad in 0 23 abc -1 1x; do
	run "$PERFEV" record --compression-level="$bad" -e cpu-clock -o "$TMP/bad.data" -- true
	expect_rc "level_refused_$bad" 2 &&
		grep -q "expects a zstd level from 1 to 22, not '$bad'" "$TMP/err" &&
		pass "level_refused_$bad" || fail "level_refused_$bad" "$(cat "$TMP/err")"
done
[ ! -e "$TMP/bad.data" ] && pass level_refused_no_file || fail level_refused_no_file "a file was made"

# layout NAME FILE WANT_LEVEL: COMPRESSED records in the file, and the feature perf needs
# (version 0, zstd, the level, the ratio, the 512 KiB batch as mmap_len).
layout() {
	python3 tests/cli/oracle.py compressed-layout "$2" >"$TMP/layout" 2>&1
	if grep -q "^compressed=[1-9][0-9]* feature=0,1,$3,[0-9]*,524288$" "$TMP/layout"; then
		pass "$1"
	else
		fail "$1" "$(cat "$TMP/layout")"
	fi
}

# ---- perfev's -z, read by perf -------------------------------------------------------------

# same_script NAME FILE [-|OPTION...]: perf script and perfev script print the same lines
# for FILE (read from standard input with -), with the options given.
same_script() {
	name=$1
	file=$2
	shift 2
	if [ "${1:-}" = - ]; then
		perf script -i - <"$file" >"$TMP/perf.txt" 2>"$TMP/perf.err"
		prc=$?
		run "$PERFEV" script -i - <"$file"
	else
		perf script -i "$file" "$@" >"$TMP/perf.txt" 2>"$TMP/perf.err"
		prc=$?
		run "$PERFEV" script -i "$file" "$@"
	fi
	set -- "$name"
	if [ "$prc" -ne 0 ] || [ ! -s "$TMP/perf.txt" ]; then
		fail "$1" "perf script: rc $prc: $(head -c 300 "$TMP/perf.err")"
	elif [ "$rc" -ne 0 ]; then
		fail "$1" "perfev script: rc $rc: $(head -c 300 "$TMP/err")"
	elif cmp -s "$TMP/perf.txt" "$TMP/out"; then
		pass "$1"
	else
		fail "$1" "$(diff "$TMP/perf.txt" "$TMP/out" | head -5 | tr '\n' ' ')"
	fi
}

# The summary's sample count, the samples perf reads back.
eval "$PERFEV record -z -e cpu-clock -c 100000 -o '$TMP/z.data' -- $WORK" >/dev/null 2>"$TMP/rec.err"
rc=$?
if expect_rc record_z 0; then
	pass record_z
	layout record_z_layout "$TMP/z.data" 1
	grep -q "records compressed [0-9.]* times" "$TMP/rec.err" && pass record_z_summary ||
		fail record_z_summary "$(cat "$TMP/rec.err")"
	if [ -n "$have_perf" ]; then
		same_script perf_reads_perfev_z "$TMP/z.data"
		n=$(sed -n 's/.*perfev record: \([0-9]*\) samples written.*/\1/p' "$TMP/rec.err")
		[ "$(wc -l <"$TMP/perf.txt")" -eq "$n" ] && pass perf_reads_every_sample ||
			fail perf_reads_every_sample "perf read $(wc -l <"$TMP/perf.txt") of $n samples"
		perf report -i "$TMP/z.data" --header-only >"$TMP/hdr" 2>&1
		grep -q "compressed : Zstd, level = 1, ratio = [1-9]" "$TMP/hdr" && pass perf_header_z ||
			fail perf_header_z "$(grep -i compress "$TMP/hdr")"
	else
		skip perf perf_reads_perfev_z "$why_no_perf"
	fi
fi

# A level, a stream on standard output, and call chains unwound while recording.
eval "$PERFEV record --compression-level=9 -e cpu-clock -c 100000 -o - -- $WORK" \
	>"$TMP/zp.data" 2>"$TMP/rec.err"
rc=$?
if expect_rc record_z_pipe 0; then
	layout record_z_pipe_layout "$TMP/zp.data" 9
	if [ -n "$have_perf" ]; then
		same_script perf_reads_perfev_z_pipe "$TMP/zp.data" -
	else
		skip perf perf_reads_perfev_z_pipe "$why_no_perf"
	fi
fi
W=${PERFEV_BUILD:-build}/examples/workload
run "$PERFEV" record -z --call-graph dwarf --unwind -e cpu-clock -c 200000 \
	-o "$TMP/zu.data" -- "$W" 100000000 2000
if [ "$rc" -ne 0 ] && grep -q "not permitted\|not supported" "$TMP/err"; then
	skip unwind record_z_unwind "$(head -1 "$TMP/err")"
elif expect_rc record_z_unwind 0; then
	layout record_z_unwind_layout "$TMP/zu.data" 1
	if [ -n "$have_perf" ]; then
		same_script perf_reads_perfev_z_unwind "$TMP/zu.data"
	else
		skip perf perf_reads_perfev_z_unwind "$why_no_perf"
	fi
fi

# ---- perf's -z, read by perfev -------------------------------------------------------------

if [ -z "$have_perf" ]; then
	skip perf perfev_reads_perf_z "$why_no_perf"
	finish
fi
if ! eval "perf_fresh '$TMP/pz.data' -q -z -e cpu-clock -c 100000 -- $WORK" >/dev/null; then
	fail perfev_reads_perf_z "perf record -z: $(head -c 300 "$TMP/perf.err")"
	finish
fi
same_script perfev_reads_perf_z "$TMP/pz.data"

# --header: the COMPRESSED feature as perf report --header prints it.
perf report -i "$TMP/pz.data" --header-only 2>/dev/null | grep "^# compressed :" >"$TMP/perf.txt"
run "$PERFEV" script -i "$TMP/pz.data" --header-only
grep "^# compressed :" "$TMP/out" >"$TMP/ours.txt"
[ -s "$TMP/perf.txt" ] && cmp -s "$TMP/perf.txt" "$TMP/ours.txt" && pass perfev_header_perf_z ||
	fail perfev_header_perf_z "perf: '$(cat "$TMP/perf.txt")', perfev: '$(cat "$TMP/ours.txt")'"

# report: perf report's table, line for line.
perf report -i "$TMP/pz.data" --stdio --no-children --sort comm,dso,sym >"$TMP/perf.txt" 2>/dev/null
run "$PERFEV" report -i "$TMP/pz.data" --no-children --sort comm,dso,sym
if expect_rc perfev_report_perf_z 0; then
	python3 tests/cli/oracle.py report-cmp "$TMP/perf.txt" "$TMP/out" >"$TMP/cmp.err" 2>&1 &&
		pass perfev_report_perf_z || fail perfev_report_perf_z "$(cat "$TMP/cmp.err")"
fi

# -D: each COMPRESSED record, then its records with its offset; as many samples as perf -D.
run "$PERFEV" script -D -i "$TMP/pz.data"
perf report -D -i "$TMP/pz.data" 2>/dev/null | grep -c "PERF_RECORD_SAMPLE" >"$TMP/n.perf"
if expect_rc perfev_dump_perf_z 0; then
	zoff=$(sed -n 's/^0 \(0x[0-9a-f]*\) \[0x[0-9a-f]*\]: PERF_RECORD_COMPRESSED$/\1/p' "$TMP/out" |
		head -1)
	nsamp=$(grep -c "PERF_RECORD_SAMPLE" "$TMP/out")
	# The record after the first COMPRESSED one is its first record, at its offset.
	next=$(grep -A3 "^0 $zoff \[0x[0-9a-f]*\]: PERF_RECORD_COMPRESSED$" "$TMP/out" |
		sed -n 's/^\(0x[0-9a-f]*\)@.*/\1/p' | head -1)
	if [ -n "$zoff" ] && [ "$next" = "$zoff" ] && [ "$nsamp" -eq "$(cat "$TMP/n.perf")" ]; then
		pass perfev_dump_perf_z
	else
		fail perfev_dump_perf_z "COMPRESSED at '$zoff', next at '$next', $nsamp samples, perf $(cat "$TMP/n.perf")"
	fi
fi

# A stream from perf record -z -o -.
if eval "perf_pipe '$TMP/pzp.data' -q -z -e cpu-clock -c 100000 -- $WORK"; then
	same_script perfev_reads_perf_z_pipe "$TMP/pzp.data" -
else
	fail perfev_reads_perf_z_pipe "perf record -z -o -: $(head -c 300 "$TMP/perf.err")"
fi

# Level 22, system-wide with call chains: records span COMPRESSED records.  Addresses, not
# symbols: whatever else runs meanwhile has names perf and perfev may choose apart (aliases).
if perf_fresh "$TMP/pa.data" -q --compression-level=22 -a -g -e cpu-clock -c 200000 -- \
	sleep 0.5 >/dev/null; then
	same_script perfev_reads_perf_z22 "$TMP/pa.data" -F comm,tid,cpu,time,ip
else
	skip cpu_wide perfev_reads_perf_z22 "perf record -a: $(head -1 "$TMP/perf.err")"
fi

# A file cut inside its compressed records: what came before, then a clear error.
python3 tests/cli/oracle.py cut-compressed "$TMP/pzp.data" "$TMP/cut.data"
run "$PERFEV" script -i - <"$TMP/cut.data"
expect_rc perfev_cut_compressed 1 &&
	grep -q "cannot read '-': .*PERF_RECORD_COMPRESSED record at offset 0x[0-9a-f]*" "$TMP/err" &&
	pass perfev_cut_compressed || fail perfev_cut_compressed "$(cat "$TMP/err")"

finish
