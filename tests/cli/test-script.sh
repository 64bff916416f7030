# SPDX-License-Identifier: LGPL-2.1-or-later
# perfev script: output compared with perf script 6.1 on files perf records; JSON, dump, errors.
. tests/cli/lib.sh

# A short workload that burns some CPU, so cpu-clock samples it in user and kernel mode.
WORK="sh -c 'i=0; while [ \$i -lt 20000 ]; do i=\$((i+1)); done; ls / >/dev/null'"

# Compare two outputs line by line, whitespace-normalised.  With --dso, a dso perf could
# not resolve ("([unknown])") may be anything in ours; every other token must be equal.
cat >"$TMP/cmp.py" <<'PY'
import sys
dso = sys.argv[1] == "--dso"
perf = [" ".join(l.split()) for l in open(sys.argv[2], errors="replace")]
ours = [" ".join(l.split()) for l in open(sys.argv[3], errors="replace")]
if len(perf) != len(ours):
    sys.exit("perf printed %d lines, perfev %d" % (len(perf), len(ours)))
for n, (p, o) in enumerate(zip(perf, ours), 1):
    if p == o:
        continue
    pt, ot = p.split(" "), o.split(" ")
    if dso and len(pt) == len(ot) and all(
            a == b or (a == "([unknown])" and b.startswith("(")) for a, b in zip(pt, ot)):
        continue
    sys.exit("line %d differs:\n  perf:   %s\n  perfev: %s" % (n, p, o))
PY

have_perf=
why_no_perf="perf is not installed"
if command -v perf >/dev/null 2>&1; then
	ver=$(perf version 2>/dev/null)
	case "$ver" in
	"perf version 6.1."*) have_perf=1 ;;
	*) why_no_perf="the output is compared with perf 6.1, this is '$ver'" ;;
	esac
fi

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
	if ! eval "perf record -q $out 2>'$TMP/rec.err'" || [ ! -s "$TMP/$name.data" ]; then
		skip perf "$name" "perf record $* failed here: $(head -c 200 "$TMP/rec.err")"
		return 1
	fi
	return 0
}

# compare NAME FILE FIELDS [--dso]: perf script -F FIELDS against perfev script -F FIELDS.
compare() {
	perf script -i "$2" -F "$3" >"$TMP/perf.txt" 2>/dev/null
	run "$PERFEV" script -i "$2" -F "$3"
	expect_rc "$1" 0 || return 1
	if ! python3 "$TMP/cmp.py" "${4:---exact}" "$TMP/perf.txt" "$TMP/out" >"$TMP/cmp.err" 2>&1; then
		fail "$1" "-F $3: $(cat "$TMP/cmp.err")"
		return 1
	fi
	return 0
}

# check NAME FILE: same samples, same comm/tid/time/event/ip columns, same dso where perf has one.
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
	pass "$1"
}

if record default -e cpu-clock -c 100000 -- "$WORK"; then
	check script_default default
	# The default layout, with "[unknown]" where perf prints a symbol.
	perf script -i "$TMP/default.data" 2>/dev/null |
		sed 's/ [^ ]*+0x[0-9a-f]* (/ [unknown] (/' >"$TMP/perf-default.txt"
	run "$PERFEV" script -i "$TMP/default.data"
	if expect_rc script_default_layout 0; then
		python3 "$TMP/cmp.py" --exact "$TMP/perf-default.txt" "$TMP/out" >"$TMP/cmp.err" 2>&1 &&
			cmp -s "$TMP/perf-default.txt" "$TMP/out" && pass script_default_layout ||
			fail script_default_layout "$(cat "$TMP/cmp.err") $(diff "$TMP/perf-default.txt" "$TMP/out" | head -4)"
	fi
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
		grep -q '^# event : name = cpu-clock, id = {' "$TMP/out" &&
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

# Compressed records are not read: the samples they hold would be missing.
if record compressed -z -e cpu-clock -c 100000 -- "$WORK"; then
	run "$PERFEV" script -i "$TMP/compressed.data"
	expect_rc script_compressed 1 && grep -q "it has [0-9]* compressed records" "$TMP/err" &&
		pass script_compressed || fail script_compressed "$(cat "$TMP/err")"
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
for r in ex:
    f = r["fields"]
    assert f["filename"].startswith("/") and isinstance(f["pid"], int), f
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
