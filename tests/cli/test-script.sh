# SPDX-License-Identifier: LGPL-2.1-or-later
# perfev script: output compared with perf script 6.1 on files perf records; JSON, dump, errors.
. tests/cli/lib.sh

# A short workload that burns some CPU, so cpu-clock samples it in user and kernel mode.
WORK="sh -c 'i=0; while [ \$i -lt 20000 ]; do i=\$((i+1)); done; ls / >/dev/null'"
# The bundled workload: its own main, libc and the kernel's page fault path.
W=${PERFEV_BUILD:-build}/examples/workload

# Symbol names may differ on this share of the lines at most: where a library has several
# names at one address (libc's __GI_ aliases, "free" and "cfree@GLIBC_2.2.5"), perf and
# perfev do not always choose the same one, and perf names PLT entries ("strcmp@plt")
# that perfev leaves [unknown].  The shell loop lands on such addresses in 6 to 9% of its
# samples (strtoll's internals, free), 2 to 3% of its call chain lines.
SYM_LIMIT=0.15

# cmp.py [--dso] [--sym=FRACTION] PERF OURS: compare two outputs line by line,
# whitespace-normalised.  With --dso, a dso perf could not resolve ("([unknown])") may be
# anything in ours.  With --sym, lines whose only differences are symbols at the same
# offset (name+0x1f against other+0x1f) or a symbol against [unknown] are counted: each
# pair of names with its count and a few of the lines go to standard output, and the
# comparison fails only when more than FRACTION of the lines are such.  Every other token
# must be equal.
cat >"$TMP/cmp.py" <<'PY'
import re, sys
args = sys.argv[1:]
files = [a for a in args if not a.startswith("--")]
dso = "--dso" in args
limit = None
for a in args:
    if a.startswith("--sym="):
        limit = float(a[len("--sym="):])
perf = [" ".join(l.split()) for l in open(files[0], errors="replace")]
ours = [" ".join(l.split()) for l in open(files[1], errors="replace")]
if len(perf) != len(ours):
    sys.exit("perf printed %d lines, perfev %d" % (len(perf), len(ours)))
offset = re.compile(r"^(.+)\+(0x[0-9a-f]+)$")

def sym_kind(a, b):
    """How two different tokens differ as symbols: alias, unresolved, or None."""
    if limit is None or a.startswith("(") or b.startswith("("):
        return None
    if a == "[unknown]" or b == "[unknown]":
        return "unresolved"
    ma, mb = offset.match(a), offset.match(b)
    if bool(ma) != bool(mb) or (ma and ma.group(2) != mb.group(2)):
        return None
    return "alias"

symlines, pairs = [], {}
for n, (p, o) in enumerate(zip(perf, ours), 1):
    if p == o:
        continue
    pt, ot = p.split(" "), o.split(" ")
    kinds = []
    same = len(pt) == len(ot)
    for i, (a, b) in enumerate(zip(pt, ot) if same else ()):
        if a == b or (dso and a == "([unknown])" and b.startswith("(")):
            continue
        k = sym_kind(a, b)
        if not k:
            same = False
            break
        where = pt[i + 1] if i + 1 < len(pt) and pt[i + 1].startswith("(") else ""
        kinds.append((k, offset.sub(r"\1", a), offset.sub(r"\1", b), where))
    if not same:
        sys.exit("line %d differs:\n  perf:   %s\n  perfev: %s" % (n, p, o))
    if kinds:
        symlines.append("line %d:\n  perf:   %s\n  perfev: %s" % (n, p, o))
        for k in kinds:
            pairs[k] = pairs.get(k, 0) + 1
for (k, a, b, where), count in sorted(pairs.items(), key=lambda x: -x[1]):
    print("%5d %s: perf %s, perfev %s %s" % (count, k, a, b, where))
for l in symlines[:5]:
    print(l)
if symlines:
    print("%d of %d lines differ in a symbol name only" % (len(symlines), len(perf)))
    if len(symlines) > limit * len(perf):
        sys.exit("%d of %d lines differ in a symbol name, more than %g%% of them" %
                 (len(symlines), len(perf), 100 * limit))
PY

# sym_report NAME: after a comparison with --sym, the lines that differ in a symbol name go
# to the test log (standard error), their count to the output.
sym_report() {
	if [ -s "$TMP/cmp.out" ]; then
		sed "s/^/$1: /" "$TMP/cmp.out" >&2
		printf '%s: %s (listed in the test log)\n' "$1" "$(tail -1 "$TMP/cmp.out")"
	fi
}

have_perf61

# record NAME ARGS...: perf record ARGS into $TMP/NAME.data (as a stream with PIPE=1);
# skips NAME when perf cannot record here.
record() {
	name=$1
	shift
	if [ -z "$have_perf" ]; then
		skip perf "$name" "$why_no_perf"
		return 1
	fi
	if [ -n "${PIPE:-}" ]; then
		out="-o - $* >'$TMP/$name.data'"
	else
		out="-o '$TMP/$name.data' $* >'$TMP/rec.out'"
	fi
	# A stream has no build-id pass to fail on stale bits (see perf_stale): made again.
	for try in 1 2 3 4 5; do
		if ! eval "perf record -q $out 2>'$TMP/rec.err'" || [ ! -s "$TMP/$name.data" ]; then
			skip perf "$name" "perf record $* failed here: $(head -c 200 "$TMP/rec.err")"
			return 1
		fi
		perf_stale "$TMP/$name.data" || return 0
		sleep $try
	done
	skip perf "$name" "perf's stream keeps build-id bits of another session asking for build ids system-wide"
	return 1
}

# compare NAME FILE FIELDS [--dso] [--sym=FRACTION]: perf script -F FIELDS against perfev
# script -F FIELDS.
compare() {
	name=$1 file=$2 fields=$3
	shift 3
	perf script -i "$file" -F "$fields" >"$TMP/perf.txt" 2>/dev/null
	run "$PERFEV" script -i "$file" -F "$fields"
	expect_rc "$name" 0 || return 1
	python3 "$TMP/cmp.py" "$@" "$TMP/perf.txt" "$TMP/out" >"$TMP/cmp.out" 2>"$TMP/cmp.err"
	cmp_rc=$?
	sym_report "$name"
	if [ "$cmp_rc" -ne 0 ]; then
		fail "$name" "-F $fields: $(cat "$TMP/cmp.err")"
		return 1
	fi
	return 0
}

# check NAME FILE: same samples, same comm/tid/time/event/ip columns, same dso where perf has
# one, the same symbols but for alias choice.
check() {
	f=$TMP/$2.data
	perf script -i "$f" -F comm,tid,time,event >"$TMP/perf.txt" 2>/dev/null
	nperf=$(wc -l <"$TMP/perf.txt")
	if [ "$nperf" -eq 0 ]; then
		fail "$1" "perf script printed no sample"
		return
	fi
	compare "$1" "$f" comm,tid,time,event || return
	compare "$1" "$f" comm,tid,time,event,ip || return
	compare "$1" "$f" comm,pid,tid,time,event,ip,dso,period --dso || return
	compare "$1" "$f" comm,tid,time,event,ip,sym --sym=$SYM_LIMIT || return
	compare "$1" "$f" comm,pid,tid,time,event,ip,sym,symoff,dso,period --dso --sym=$SYM_LIMIT ||
		return
	pass "$1"
}

# layout NAME FILE LIMIT [OPTIONS...]: perf script and perfev script with OPTIONS and the
# default fields print the same bytes once each symbol is set aside, and the same symbols
# but on at most LIMIT of the lines.
layout() {
	name=$1 file=$2 limit=$3
	shift 3
	perf script -i "$file" "$@" >"$TMP/perf-layout.txt" 2>/dev/null
	run "$PERFEV" script -i "$file" "$@"
	expect_rc "$name" 0 || return 1
	python3 "$TMP/cmp.py" --sym="$limit" "$TMP/perf-layout.txt" "$TMP/out" >"$TMP/cmp.out" 2>"$TMP/cmp.err"
	cmp_rc=$?
	sym_report "$name"
	# The symbol is the word before the dso's parenthesis, the only one on a line.
	sed 's/ [^ ]* (/ SYM (/' "$TMP/perf-layout.txt" >"$TMP/perf-nosym.txt"
	sed 's/ [^ ]* (/ SYM (/' "$TMP/out" >"$TMP/out-nosym.txt"
	if [ "$cmp_rc" -ne 0 ]; then
		fail "$name" "$(cat "$TMP/cmp.err")"
	elif ! cmp -s "$TMP/perf-nosym.txt" "$TMP/out-nosym.txt"; then
		fail "$name" "the columns differ: $(diff "$TMP/perf-nosym.txt" "$TMP/out-nosym.txt" | head -4)"
	else
		return 0
	fi
	return 1
}

if record default -e cpu-clock -c 100000 -- "$WORK"; then
	check script_default default
	# The default layout: symbols with their offsets.
	layout script_default_layout "$TMP/default.data" $SYM_LIMIT && pass script_default_layout
	# Side-band records shown as perf shows them.
	opts="--show-task-events --show-mmap-events"
	perf script -i "$TMP/default.data" $opts -F comm,tid,time,event,ip,dso >"$TMP/perf.txt" 2>/dev/null
	run "$PERFEV" script -i "$TMP/default.data" $opts -F comm,tid,time,event,ip,dso
	expect_rc script_show_events 0 && grep -q 'PERF_RECORD_MMAP2' "$TMP/out" &&
		python3 "$TMP/cmp.py" --exact "$TMP/perf.txt" "$TMP/out" >"$TMP/cmp.err" 2>&1 &&
		pass script_show_events || fail script_show_events "$(cat "$TMP/cmp.err")"

	# Standard input: a regular file on stdin, and the same bytes through a pipe.
	"$PERFEV" script -i "$TMP/default.data" >"$TMP/want.txt" 2>/dev/null
	"$PERFEV" script -i - <"$TMP/default.data" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	cat "$TMP/default.data" | "$PERFEV" script -i - >"$TMP/out2" 2>>"$TMP/err"
	[ "$rc" -eq 0 ] && cmp -s "$TMP/want.txt" "$TMP/out" && cmp -s "$TMP/want.txt" "$TMP/out2" &&
		pass script_stdin || fail script_stdin "rc $rc: $(head -c 300 "$TMP/err")"

	# JSON lines: one object per record, samples with their fields as numbers.
	run "$PERFEV" script -j -i "$TMP/default.data"
	if expect_rc script_json 0; then
		python3 - "$TMP/out" "$(wc -l <"$TMP/want.txt")" <<'PY' >"$TMP/py.err" 2>&1 && pass script_json || fail script_json "$(cat "$TMP/py.err")"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
samples = [r for r in recs if r["type"] == "SAMPLE"]
assert len(samples) == int(sys.argv[2]), (len(samples), sys.argv[2])
for s in samples:
    for k in ("offset", "misc", "size", "event", "ip", "pid", "tid", "time", "comm", "dso"):
        assert k in s, (k, s)
    assert isinstance(s["ip"], int) and isinstance(s["time"], int)
    assert s["event"] == "cpu-clock" and s["cpumode"] in ("kernel", "user")
m = [r for r in recs if r["type"] == "MMAP2"]
assert m and all(isinstance(r["filename"], str) and "prot" in r and "sid" in r for r in m)
c = [r for r in recs if r["type"] == "COMM" and r["exec"]]
assert c and c[0]["comm"] == "sh", c
times = [s["time"] for s in samples]
assert times == sorted(times)
PY
	fi

	# -D: every record, the samples among them.
	run "$PERFEV" script -D -i "$TMP/default.data"
	n=$(grep -c 'PERF_RECORD_SAMPLE(IP' "$TMP/out")
	expect_rc script_dump 0 && [ "$n" -eq "$(wc -l <"$TMP/want.txt")" ] &&
		grep -q '^\. \.\.\. raw event: size' "$TMP/out" && grep -q 'PERF_RECORD_COMM exec: sh:' "$TMP/out" &&
		pass script_dump || fail script_dump "$n sample dumps"

	run "$PERFEV" script --header -i "$TMP/default.data"
	expect_rc script_header 0 && grep -q '^# ========' "$TMP/out" && grep -q '^# hostname : ' "$TMP/out" &&
		grep -q '^# event : name = cpu-clock, , id = {' "$TMP/out" &&
		grep -q '^# cmdline : .*perf record' "$TMP/out" &&
		[ "$(grep -c 'cpu-clock:' "$TMP/out")" -eq "$(wc -l <"$TMP/want.txt")" ] &&
		pass script_header || fail script_header "$(head -20 "$TMP/out")"

	# A field the samples do not have is an error naming it, as in perf.
	run "$PERFEV" script -i "$TMP/default.data" -F comm,cpu
	expect_rc script_missing_field 1 && grep -q "cannot print 'cpu' for event 'cpu-clock'" "$TMP/err" &&
		pass script_missing_field || fail script_missing_field "$(cat "$TMP/err")"

	# Truncated in the data section: file mode refuses the file, pipe mode shows what it read.
	size=$(wc -c <"$TMP/default.data")
	head -c $((size * 2 / 3)) "$TMP/default.data" >"$TMP/trunc.data"
	run "$PERFEV" script -i "$TMP/trunc.data"
	expect_rc script_truncated 1 && grep -q "cannot read '.*trunc.data': .*truncated" "$TMP/err" &&
		pass script_truncated || fail script_truncated "$(cat "$TMP/err")"

	# A record whose size is broken: the samples before it, then the offset where reading stopped.
	"$PERFEV" script -j -i "$TMP/default.data" >"$TMP/recs.json" 2>/dev/null
	python3 - "$TMP/recs.json" "$TMP/default.data" "$TMP/corrupt.data" <<'PY' >"$TMP/want"
import json, struct, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
samples = sorted(r["offset"] for r in recs if r["type"] == "SAMPLE")
off = samples[len(samples) // 2]
b = bytearray(open(sys.argv[2], "rb").read())
struct.pack_into("<H", b, off + 6, 4)
open(sys.argv[3], "wb").write(b)
print(len([o for o in samples if o < off]), hex(off))
PY
	read -r nbefore offset <"$TMP/want"
	run "$PERFEV" script -i "$TMP/corrupt.data" -F comm,tid,time,event
	expect_rc script_corrupt_record 1 && [ "$(wc -l <"$TMP/out")" -eq "$nbefore" ] &&
		grep -q "corrupt or truncated record after offset $offset" "$TMP/err" &&
		pass script_corrupt_record ||
		fail script_corrupt_record "$(wc -l <"$TMP/out") lines, want $nbefore; $(cat "$TMP/err")"

	# Output errors are reported; a reader that goes away is not.
	if [ -w /dev/full ]; then
		"$PERFEV" script -i "$TMP/default.data" >/dev/full 2>"$TMP/err"
		rc=$?
		[ "$rc" -eq 1 ] && grep -q 'cannot write output' "$TMP/err" && pass script_dev_full ||
			fail script_dev_full "rc $rc: $(cat "$TMP/err")"
	fi
	"$PERFEV" script -i "$TMP/default.data" 2>"$TMP/err" | head -1 >/dev/null
	[ ! -s "$TMP/err" ] && pass script_epipe || fail script_epipe "$(cat "$TMP/err")"
fi

record callgraph -e cpu-clock -c 100000 -g -- "$WORK" && check script_callgraph callgraph
record timestamps -e cpu-clock -c 100000 -T -- "$WORK" && check script_timestamps timestamps
if record samplecpu -e cpu-clock -c 100000 --sample-cpu -- "$WORK"; then
	check script_sample_cpu samplecpu
	compare script_sample_cpu_column "$TMP/samplecpu.data" comm,tid,cpu,time,event,ip &&
		pass script_sample_cpu_column
fi
record twoevents -e cpu-clock -e page-faults -c 10000 -- "$WORK" && check script_two_events twoevents

if record group -e "'{cpu-clock,page-faults}:S'" -- "$WORK"; then
	check script_group group
	run "$PERFEV" script -j -i "$TMP/group.data"
	expect_rc script_group_json 0 && python3 - "$TMP/out" <<'PY' >"$TMP/py.err" 2>&1 &&
import json, sys
s = [r for r in map(json.loads, open(sys.argv[1])) if r["type"] == "SAMPLE"]
assert s and all(len(r["read"]["values"]) == 2 and "id" in r["read"]["values"][0] for r in s)
PY
		pass script_group_json || fail script_group_json "$(cat "$TMP/py.err")"
fi

# Pipe mode, from a file and streamed into standard input.
if PIPE=1 record pipe -e cpu-clock -c 100000 -- "$WORK"; then
	check script_pipe pipe
	perf script -i - -F comm,tid,time,event,ip <"$TMP/pipe.data" >"$TMP/perf.txt" 2>/dev/null
	cat "$TMP/pipe.data" | "$PERFEV" script -F comm,tid,time,event,ip >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ "$rc" -eq 0 ] && python3 "$TMP/cmp.py" --exact "$TMP/perf.txt" "$TMP/out" >"$TMP/cmp.err" 2>&1 &&
		pass script_pipe_stdin || fail script_pipe_stdin "rc $rc: $(cat "$TMP/err" "$TMP/cmp.err")"
	# A stream cut short inside a record (sizes are multiples of 8, so a cut
	# at 4 mod 8 never lands between two): the records before it, then the error.
	size=$(wc -c <"$TMP/pipe.data")
	head -c $((size * 2 / 3 / 8 * 8 + 4)) "$TMP/pipe.data" | "$PERFEV" script -i - >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ "$rc" -eq 1 ] && [ -s "$TMP/out" ] &&
		grep -q "cannot read '-': corrupt or truncated record after offset 0x" "$TMP/err" &&
		pass script_pipe_truncated || fail script_pipe_truncated "rc $rc: $(cat "$TMP/err")"
fi

# ---- symbols: the bundled workload, recorded by perf and by perfev ------------------------

# Call chains through the workload's main, ld.so and libc, and the kernel's page fault path.
WARGS="200000000 20000"

# sym_counts FILE: the call chain lines naming the workload's main, and the kernel frames
# with a name.
sym_counts() {
	printf '%s %s\n' "$(grep -c '^	 *[0-9a-f]* main+0x[0-9a-f]* (.*/workload)$' "$1")" \
		"$(grep -c '^	 *ffff[0-9a-f]* [^[ ]*+0x[0-9a-f]* (\[kernel.kallsyms\])$' "$1")"
}

if [ ! -x "$W" ]; then
	skip workload script_symbols "no workload at $W (make builds it)"
elif record workload -e cpu-clock -F 999 -g -- "$W" $WARGS; then
	if layout script_symbols "$TMP/workload.data" 0.05; then
		counts=$(sym_counts "$TMP/perf-layout.txt")
		perf_main=${counts% *} perf_kernel=${counts#* }
		counts=$(sym_counts "$TMP/out")
		our_main=${counts% *} our_kernel=${counts#* }
		if [ "$perf_main" -eq 0 ]; then
			fail script_symbols "perf names no frame in the workload's main: $(head -5 "$TMP/perf-layout.txt")"
		elif [ "$our_main" -ne "$perf_main" ]; then
			fail script_symbols "main in $our_main frames, perf $perf_main"
		else
			pass script_symbols
		fi
		if [ "$perf_kernel" -eq 0 ]; then
			skip kallsyms script_symbols_kernel "perf names no kernel frame (kptr_restrict=$(cat /proc/sys/kernel/kptr_restrict 2>/dev/null), is /proc/kallsyms readable?)"
		elif [ "$our_kernel" -ne "$perf_kernel" ]; then
			fail script_symbols_kernel "$our_kernel kernel frames have a name, perf $perf_kernel"
		else
			pass script_symbols_kernel
		fi
	fi
	# The sample's own address, and the fields one by one.
	layout script_symbols_sample_line "$TMP/workload.data" 0.05 -G && pass script_symbols_sample_line
	layout script_no_demangle "$TMP/workload.data" 0.05 --no-demangle && pass script_no_demangle
	compare script_symbols_fields "$TMP/workload.data" ip,sym --sym=0.05 &&
		compare script_symbols_fields "$TMP/workload.data" comm,tid,ip,sym,symoff --sym=0.05 &&
		compare script_symbols_fields "$TMP/workload.data" time,ip,sym,dso --sym=0.05 &&
		pass script_symbols_fields

	# JSON: each sample's sym and symoff, and those of each frame, as the text shows them.
	"$PERFEV" script -i "$TMP/workload.data" -F ip,sym,symoff,dso >"$TMP/frames.txt" 2>/dev/null
	"$PERFEV" script -i "$TMP/workload.data" -G -F ip,sym,symoff,dso >"$TMP/ips.txt" 2>/dev/null
	run "$PERFEV" script -j -i "$TMP/workload.data"
	expect_rc script_symbols_json 0 &&
		python3 - "$TMP/out" "$TMP/frames.txt" "$TMP/ips.txt" <<'PY' >"$TMP/py.err" 2>&1 &&
import json, sys
s = [r for r in map(json.loads, open(sys.argv[1])) if r["type"] == "SAMPLE"]
def text(r):
    sym = "[unknown]" if r["sym"] is None else "%s+0x%x" % (r["sym"], r["symoff"])
    assert (r["sym"] is None) == ("symoff" not in r), r
    return "%s (%s)" % (sym, r["dso"] or "[unknown]")
frames = [" ".join(l.split()[1:]) for l in open(sys.argv[2]) if l.startswith("\t")]
assert frames == [text(f) for r in s for f in r["frames"]], "frames differ"
ips = [" ".join(l.split()[1:]) for l in open(sys.argv[3])]
assert ips == [text(r) for r in s], "sample symbols differ"
assert any(r["sym"] == "main" for r in s), "no sample in main"
PY
		pass script_symbols_json || fail script_symbols_json "$(tail -3 "$TMP/py.err")"
fi

# A file perfev records, read by both.
if [ -n "$have_perf" ] && [ -x "$W" ]; then
	if "$PERFEV" record -q -o "$TMP/pvw.data" -F 999 -g -- "$W" $WARGS >/dev/null 2>"$TMP/rec.err"; then
		layout script_symbols_perfev_file "$TMP/pvw.data" 0.05 && pass script_symbols_perfev_file
	else
		fail script_symbols_perfev_file "perfev record failed: $(head -c 300 "$TMP/rec.err")"
	fi
fi

# Page faults: the data address with the symbol and dso it is in, as perf prints them.
if [ -x "$W" ] && record pagefaults -e page-faults -c 1 -d -- "$W" 1000 64; then
	compare script_symbols_fault_addr "$TMP/pagefaults.data" comm,tid,time,event,addr,ip,sym,symoff,dso \
		--sym=$SYM_LIMIT &&
		compare script_symbols_fault_addr "$TMP/pagefaults.data" comm,tid,event,addr,sym,dso \
			--sym=$SYM_LIMIT &&
		if grep -q 'page-faults: *[0-9a-f]* [^[ ]* (/' "$TMP/out"; then
			pass script_symbols_fault_addr
		else
			fail script_symbols_fault_addr "no data address has a symbol: $(head -3 "$TMP/out")"
		fi
fi

# An offset needs its symbol, as in perf.
if [ -s "$TMP/default.data" ]; then
	run "$PERFEV" script -i "$TMP/default.data" -F ip,symoff
	expect_rc script_symoff_without_sym 1 &&
		grep -q "cannot print 'symoff' for event 'cpu-clock' without 'sym'" "$TMP/err" &&
		pass script_symoff_without_sym || fail script_symoff_without_sym "$(cat "$TMP/err")"
fi

# kallsyms is read when a kernel address is printed with its symbol, not before.
if [ ! -s "$TMP/callgraph.data" ]; then
	skip perf script_kallsyms_lazy "no recording with kernel frames"
elif ! strace -f -e trace=open,openat -o "$TMP/strace.txt" true >/dev/null 2>&1; then
	skip strace script_kallsyms_lazy "strace cannot trace here (not installed, or ptrace is not allowed)"
else
	strace -f -e trace=open,openat -o "$TMP/strace.txt" \
		"$PERFEV" script -i "$TMP/callgraph.data" -F comm,tid,time,event,ip,dso >/dev/null 2>&1
	unasked=$(grep -c kallsyms "$TMP/strace.txt")
	strace -f -e trace=open,openat -o "$TMP/strace.txt" \
		"$PERFEV" script -i "$TMP/callgraph.data" >/dev/null 2>&1
	asked=$(grep -c kallsyms "$TMP/strace.txt")
	[ "$unasked" -eq 0 ] && [ "$asked" -ge 1 ] && pass script_kallsyms_lazy ||
		fail script_kallsyms_lazy "kallsyms opened $unasked times without sym, $asked times with it"
fi

# ---- tracepoints: the payload printed with the format of the file's tracing data ----

# Why tracepoints cannot be recorded here, or nothing.
why_no_tracepoints=
if [ ! -d /sys/kernel/tracing/events ]; then
	why_no_tracepoints="no tracefs at /sys/kernel/tracing (mount -t tracefs nodev /sys/kernel/tracing)"
elif [ ! -d /sys/kernel/tracing/events/sched/sched_switch ]; then
	why_no_tracepoints="this kernel has no sched:sched_switch tracepoint"
elif [ "$(id -u)" -ne 0 ]; then
	why_no_tracepoints="recording tracepoints on all CPUs needs root"
fi

TRACE_FIELDS=comm,tid,cpu,time,event,trace

# trace_compare NAME FILE [WANT]: perf script and perfev script print the same lines with
# the trace field, and the default layout too; WANT, a pattern the text must contain.
trace_compare() {
	compare "$1" "$2" "$TRACE_FIELDS" || return 1
	if ! grep -q "${3:-=}" "$TMP/out"; then
		fail "$1" "no '${3:-=}' in the trace field: $(head -2 "$TMP/out")"
		return 1
	fi
	perf script -i "$2" >"$TMP/perf.txt" 2>/dev/null
	run "$PERFEV" script -i "$2"
	expect_rc "$1" 0 || return 1
	if ! python3 "$TMP/cmp.py" --exact "$TMP/perf.txt" "$TMP/out" >"$TMP/cmp.err" 2>&1; then
		fail "$1" "default fields: $(cat "$TMP/cmp.err")"
		return 1
	fi
	pass "$1"
}

# The JSON fields of sched_switch samples against the text of their trace field.
cat >"$TMP/switch-json.py" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
s = [r for r in recs if r["type"] == "SAMPLE"]
texts = [" ".join(l.split()) for l in open(sys.argv[2])]
assert s and len(s) == len(texts), (len(s), len(texts))
for r, t in zip(s, texts):
    assert r["event"] == "sched:sched_switch" and r["raw_size"] > 0 and "cpu" in r, r
    assert len(r["raw"]) == 2 * r["raw_size"], r
    f = r["fields"]
    assert isinstance(f["prev_comm"], str) and isinstance(f["next_comm"], str), f
    for k in ("prev_pid", "prev_prio", "prev_state", "next_pid", "next_prio"):
        assert isinstance(f[k], int) and not isinstance(f[k], bool), (k, f)
    assert not any(k.startswith("common_") for k in f), f
    assert " ".join(r["trace"].split()) == t, (r["trace"], t)
    assert t.startswith("prev_comm=%s prev_pid=%d prev_prio=%d prev_state=" %
                        (f["prev_comm"], f["prev_pid"], f["prev_prio"])), (t, f)
    assert t.endswith("==> next_comm=%s next_pid=%d next_prio=%d" %
                      (f["next_comm"], f["next_pid"], f["next_prio"])), (t, f)
PY

if [ -n "$why_no_tracepoints" ]; then
	skip tracefs script_tracepoint "$why_no_tracepoints"
elif record tracepoint -e sched:sched_switch -a -- sleep 0.1; then
	check script_tracepoint tracepoint
	trace_compare script_tracepoint_trace "$TMP/tracepoint.data" 'prev_comm=.* ==> next_comm='
	run "$PERFEV" script -i "$TMP/tracepoint.data" -F trace
	cp "$TMP/out" "$TMP/trace.txt"
	run "$PERFEV" script -j -i "$TMP/tracepoint.data"
	expect_rc script_tracepoint_json 0 &&
		python3 "$TMP/switch-json.py" "$TMP/out" "$TMP/trace.txt" >"$TMP/py.err" 2>&1 &&
		pass script_tracepoint_json || fail script_tracepoint_json "$(tail -3 "$TMP/py.err")"

	# Tracing data that does not parse: the raw bytes, and a warning saying why.
	python3 - "$TMP/tracepoint.data" "$TMP/tracing-bad.data" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
i = b.find(b"\x17\x08\x44tracing")
assert i > 0
b[i + 3] = ord("X")
open(sys.argv[2], "wb").write(b)
PY
	run "$PERFEV" script -i "$TMP/tracing-bad.data" -F $TRACE_FIELDS
	expect_rc script_tracepoint_no_format 0 &&
		[ "$(grep -c ' raw_size=[0-9]* raw=[0-9a-f]*$' "$TMP/out")" -eq "$(wc -l <"$TMP/out")" ] &&
		[ -s "$TMP/out" ] &&
		grep -q "warning: cannot decode tracepoint samples: the file's tracing data is corrupt" "$TMP/err" &&
		pass script_tracepoint_no_format ||
		fail script_tracepoint_no_format "$(head -c 300 "$TMP/err") $(head -2 "$TMP/out")"

	# One sample of another tracepoint id: that one raw, the others formatted, a count.
	"$PERFEV" script -j -i "$TMP/tracepoint.data" >"$TMP/recs.json" 2>/dev/null
	python3 - "$TMP/recs.json" "$TMP/tracepoint.data" "$TMP/tracing-odd.data" <<'PY'
import json, sys
s = [r for r in map(json.loads, open(sys.argv[1])) if r["type"] == "SAMPLE"]
r = s[len(s) // 2]
b = bytearray(open(sys.argv[2], "rb").read())
raw = bytes.fromhex(r["raw"])
i = b.find(raw, r["offset"], r["offset"] + r["size"])
assert i > 0
b[i] ^= 0xff
open(sys.argv[3], "wb").write(b)
PY
	run "$PERFEV" script -i "$TMP/tracing-odd.data" -F $TRACE_FIELDS
	expect_rc script_tracepoint_bad_sample 0 &&
		[ "$(grep -c ' raw=[0-9a-f]*$' "$TMP/out")" -eq 1 ] &&
		[ "$(grep -c 'prev_comm=' "$TMP/out")" -eq $(($(wc -l <"$TMP/out") - 1)) ] &&
		grep -q "warning: 1 tracepoint samples could not be formatted" "$TMP/err" &&
		pass script_tracepoint_bad_sample ||
		fail script_tracepoint_bad_sample "$(head -c 300 "$TMP/err") $(grep -c raw= "$TMP/out")"
fi

# Pipe mode: the tracing data comes as a record among the others.
if [ -n "$why_no_tracepoints" ]; then
	skip tracefs script_tracepoint_pipe "$why_no_tracepoints"
elif PIPE=1 record tracepipe -e sched:sched_switch -a -- sleep 0.1; then
	trace_compare script_tracepoint_pipe "$TMP/tracepipe.data" 'prev_comm=.* ==> next_comm='
fi

# Dynamic strings (__data_loc), array fields indexed by the print fmt, several formats.
if [ -n "$why_no_tracepoints" ]; then
	skip tracefs script_tracepoint_many "$why_no_tracepoints"
elif record tpmany -e sched:sched_switch -e sched:sched_wakeup -e sched:sched_process_exec \
	-e raw_syscalls:sys_enter -a -- "$WORK"; then
	if trace_compare script_tracepoint_many "$TMP/tpmany.data" 'sched_process_exec: filename=/'; then
		grep -q 'raw_syscalls:sys_enter: NR [0-9]* (' "$TMP/out" &&
			grep -q 'sched:sched_wakeup: comm=' "$TMP/out" && pass script_tracepoint_many_kinds ||
			fail script_tracepoint_many_kinds "a tracepoint is missing: $(head -2 "$TMP/out")"
	fi
	run "$PERFEV" script -j -i "$TMP/tpmany.data"
	expect_rc script_tracepoint_many_json 0 && python3 - "$TMP/out" <<'PY' >"$TMP/py.err" 2>&1 &&
import json, sys
s = [r for r in map(json.loads, open(sys.argv[1])) if r["type"] == "SAMPLE"]
ex = [r for r in s if r["event"] == "sched:sched_process_exec"]
sc = [r for r in s if r["event"] == "raw_syscalls:sys_enter"]
assert ex and sc, (len(ex), len(sc))
# The whole system's: other programs may be run by a relative path (build/perfev); the
# workload's ls is found on PATH.
assert any(r["fields"]["filename"].startswith("/") and r["fields"]["filename"].endswith("/ls")
           for r in ex), [r["fields"] for r in ex]
for r in ex:
    f = r["fields"]
    assert f["filename"] and isinstance(f["pid"], int), f
    assert r["trace"] == "filename=%s pid=%d old_pid=%d" % (f["filename"], f["pid"], f["old_pid"]), r
for r in sc:
    f = r["fields"]
    assert isinstance(f["id"], int) and len(f["args"]) == 6, f
    assert all(isinstance(a, int) and a >= 0 for a in f["args"]), f
    assert r["trace"] == "NR %d (%s)" % (f["id"], ", ".join("%x" % a for a in f["args"])), r
PY
		pass script_tracepoint_many_json || fail script_tracepoint_many_json "$(tail -3 "$TMP/py.err")"
fi

# Files perfev records, read back by perf and by perfev: file mode and a stream.
for mode in file pipe; do
	name=script_tracepoint_perfev_$mode
	if [ -n "$why_no_tracepoints" ]; then
		skip tracefs "$name" "$why_no_tracepoints"
		continue
	fi
	if [ $mode = file ]; then
		"$PERFEV" record -e sched:sched_switch -a -o "$TMP/pv.data" -- sleep 0.1 >/dev/null 2>"$TMP/rec.err"
	else
		"$PERFEV" record -e sched:sched_switch -a -o - -- sleep 0.1 >"$TMP/pv.data" 2>"$TMP/rec.err"
	fi
	rc=$?
	if [ "$rc" -ne 0 ] || [ ! -s "$TMP/pv.data" ]; then
		fail "$name" "perfev record failed (rc $rc): $(head -c 300 "$TMP/rec.err")"
	elif [ -n "$have_perf" ]; then
		trace_compare "$name" "$TMP/pv.data" 'prev_comm=.* ==> next_comm='
	else
		run "$PERFEV" script -i "$TMP/pv.data" -F $TRACE_FIELDS
		expect_rc "$name" 0 && grep -q 'sched:sched_switch: prev_comm=.* ==> next_comm=' "$TMP/out" &&
			pass "$name" || fail "$name" "$(head -2 "$TMP/out")"
	fi
done

# ---- errors, without perf ---------------------------------------------------

mkdir "$TMP/empty"
bin=$(cd "$(dirname "$PERFEV")" && pwd)/$(basename "$PERFEV")
(cd "$TMP/empty" && "$bin" script </dev/null >"$TMP/out" 2>"$TMP/err")
rc=$?
[ "$rc" -eq 1 ] &&
	grep -q "cannot read 'perf.data': no such file (record one with 'perfev record')" "$TMP/err" &&
	pass script_missing_file || fail script_missing_file "rc $rc: $(cat "$TMP/err")"

head -c 4096 /dev/urandom >"$TMP/garbage.data"
run "$PERFEV" script -i "$TMP/garbage.data"
expect_rc script_garbage 1 && grep -q "not a perf.data file" "$TMP/err" && pass script_garbage

: >"$TMP/zero.data"
run "$PERFEV" script -i "$TMP/zero.data"
expect_rc script_empty_file 1 && pass script_empty_file

printf 'PERFILE2' >"$TMP/short.data"
run "$PERFEV" script -i "$TMP/short.data"
expect_rc script_short_header 1 && grep -q "damaged or truncated" "$TMP/err" && pass script_short_header

run "$PERFEV" script -i "$TMP/empty"
expect_rc script_directory 1 && grep -q "is a directory" "$TMP/err" && pass script_directory

run "$PERFEV" script -F comm,bogus -i "$TMP/garbage.data"
expect_rc script_bad_field 2 && grep -q "unknown field 'bogus'" "$TMP/err" && pass script_bad_field

run "$PERFEV" script -F +cpu,time -i "$TMP/garbage.data"
expect_rc script_mixed_fields 2 && pass script_mixed_fields

run "$PERFEV" script -j -D
expect_rc script_json_dump 2 && pass script_json_dump

finish
