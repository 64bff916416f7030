# SPDX-License-Identifier: LGPL-2.1-or-later
# perfev stat: events, exit status, CSV, JSON, runs, intervals, targets, errors, signals, perf.
. tests/cli/lib.sh

WORKLOAD=${PERFEV_BUILD:-build}/examples/workload
DEFAULTS="task-clock context-switches cpu-migrations page-faults"
SW=task-clock,context-switches,cpu-migrations,page-faults # the software defaults, on any machine
HW_DEFAULTS="cycles instructions branches branch-misses"

# Python helpers shared by the checks below.
cat >"$TMP/statlib.py" <<'PY'
import csv, io, json, re, statistics

NUM = re.compile(r'^-?[0-9]+(\.[0-9]+)?$')

def text_events(path):
    """Event lines of a text report: {name: value string} (value may be '<not counted>')."""
    ev = {}
    for line in open(path):
        m = re.match(r'^\s+([0-9][0-9.]*|<not counted>|<not supported>)\s+(?:msec\s+)?(\S+)', line)
        if m and 'seconds' not in line:
            ev[m.group(2)] = m.group(1)
    return ev

def split_sep(line, sep):
    """RFC 4180 fields of one line, for any separator (csv handles one character only)."""
    if len(sep) == 1:
        return next(csv.reader(io.StringIO(line), delimiter=sep))
    out, i, n = [], 0, len(line)
    while True:
        if i < n and line[i] == '"':
            i += 1
            f = ''
            while True:
                j = line.index('"', i)
                f += line[i:j]
                if line.startswith('""', j):
                    f += '"'
                    i = j + 2
                else:
                    i = j + 1
                    break
        else:
            j = line.find(sep, i)
            j = n if j < 0 else j
            f = line[i:j]
            i = j
        out.append(f)
        if i >= n:
            return out
        assert line.startswith(sep, i), 'junk after a quoted field: %r' % line
        i += len(sep)

def csv_rows(path, sep, ncols):
    rows = []
    for line in open(path).read().splitlines():
        if not line:
            continue
        r = split_sep(line, sep)
        assert len(r) == ncols, 'expected %d columns, got %d: %r' % (ncols, len(r), line)
        rows.append(r)
    assert rows, 'no CSV lines'
    return rows

def is_num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)

def check_csv_row(r, off=0):
    """value, unit, event, runtime_ns, pct_running, metric_value, metric_unit after @off prefix columns."""
    v, unit, ev, rt, pct, mv, mu = r[off:off + 7]
    assert NUM.match(v) or v in ('<not counted>', '<not supported>'), 'value %r' % v
    assert re.match(r'^[0-9]+$', rt), 'runtime %r' % rt
    assert NUM.match(pct) and 0 <= float(pct) <= 100, 'pct %r' % pct
    assert mv == '' or re.match(r'^-?[0-9.e+-]+$', mv), 'metric value %r' % mv
    if ev in ('task-clock', 'cpu-clock') and NUM.match(v):
        assert unit == 'msec' and mu == 'CPUs utilized', r
    return ev

def median(xs):
    return statistics.median(xs)
PY
export PYTHONPATH="$TMP${PYTHONPATH:+:$PYTHONPATH}"

# check NAME [ARGS...] <<'PY': a Python check read from stdin; PASS, or FAIL with its error.
check() {
	name=$1
	shift
	if python3 - "$@" 2>"$TMP/py-err"; then
		pass "$name"
	else
		fail "$name" "$(tail -n 4 "$TMP/py-err" | tr '\n' ' ')"
	fi
}

have_hw() {
	# The machine counts generic hardware events (perf's own check, when perf exists).
	if command -v perf >/dev/null 2>&1; then
		perf stat -x, -e instructions:u true 2>&1 | grep -q '^[0-9]'
	else
		"$PERFEV" attr --open instructions:u >/dev/null 2>&1
	fi
}

# A process that wakes every 50 ms and forks a sleep: it has counts to show.
start_looper() {
	sh -c 'while :; do sleep 0.05; done' >/dev/null 2>&1 &
	looper=$!
}
stop_looper() {
	kill "$looper" 2>/dev/null
	wait "$looper" 2>/dev/null
}

# A pid that no longer exists.
dead_pid() {
	sh -c 'exit 0' &
	dead=$!
	wait "$dead"
}

# Kernel-side counting is permitted: otherwise events fall back to :u, where
# context-switches and cpu-migrations (which happen in the kernel) count 0.
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
if [ "$(id -u)" -eq 0 ] || [ "$paranoid" -lt 2 ]; then kernel=1; else kernel=0; fi

ncpus_online() {
	python3 -c '
s = open("/sys/devices/system/cpu/online").read().strip()
n = 0
for part in s.split(","):
    a, _, b = part.partition("-")
    n += int(b or a) - int(a) + 1
print(n)'
}

# ---- the default events, the report, the child's own output ----------------------

run "$PERFEV" stat true
if expect_rc default_true 0; then
	check default_true "$TMP/err" "$DEFAULTS" <<'PY'
import sys, statlib
err = open(sys.argv[1]).read()
ev = statlib.text_events(sys.argv[1])
for name in sys.argv[2].split():
    assert name in ev, 'no %s line in %r' % (name, err)
    assert statlib.NUM.match(ev[name]), '%s: %s' % (name, ev[name])
assert float(ev['task-clock']) > 0
assert "Performance counter stats for 'true'" in err
assert 'seconds time elapsed' in err and 'seconds user' in err and 'seconds sys' in err, err
PY
fi
if have_hw; then
	check default_hardware "$TMP/err" "$HW_DEFAULTS" <<'PY'
import sys, statlib
ev = statlib.text_events(sys.argv[1])
for name in sys.argv[2].split():
    assert name in ev and statlib.NUM.match(ev[name]), '%s missing or not counted: %r' % (name, ev)
PY
else
	# Without a PMU the hardware defaults are left out, not shown as <not supported>.
	check default_no_hardware "$TMP/err" "$HW_DEFAULTS" <<'PY'
import sys, statlib
ev = statlib.text_events(sys.argv[1])
for name in sys.argv[2].split():
    assert name not in ev, '%s shown without a PMU: %r' % (name, ev)
assert 'not supported' not in open(sys.argv[1]).read()
PY
	skip hw default_hardware "no hardware PMU: 'perf stat -e instructions' reports <not supported> (ENOENT)"
fi

run "$PERFEV" stat "$WORKLOAD" 1000000 500
if expect_rc default_workload 0; then
	check default_workload "$TMP/out" "$TMP/err" "$DEFAULTS" <<'PY'
import re, sys, statlib
out = open(sys.argv[1]).read()
assert re.fullmatch(r'workload: 1000000 iterations, 500 pages, result 0x[0-9a-f]+\n', out), repr(out)
ev = statlib.text_events(sys.argv[2])
for name in sys.argv[3].split():
    assert name in ev and statlib.NUM.match(ev[name]), '%s: %r' % (name, ev)
# It touches 500 fresh pages: at least that many faults, every time.
assert int(ev['page-faults']) >= 500, ev
assert 'seconds time elapsed' in open(sys.argv[2]).read()
PY
fi

# The child's stdout and stderr are its own, byte for byte; the report goes to -o.
"$PERFEV" stat -o "$TMP/report" -- sh -c 'printf "to stdout\n"; printf "to stderr\n" >&2; printf "a\001b"' \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
printf 'to stdout\na\001b' >"$TMP/want-out"
printf 'to stderr\n' >"$TMP/want-err"
if expect_rc passthrough 0; then
	if cmp -s "$TMP/out" "$TMP/want-out" && cmp -s "$TMP/err" "$TMP/want-err" &&
		grep -q 'seconds time elapsed' "$TMP/report"; then
		pass passthrough
	else
		fail passthrough "stdout $(od -c "$TMP/out" | head -3), stderr $(head -c 200 "$TMP/err")"
	fi
fi
# Without -o the report follows the child's stderr output; stdout stays clean.
run "$PERFEV" stat -- sh -c 'printf "to stdout\n"; printf "to stderr\n" >&2'
if expect_rc passthrough_stderr 0; then
	if [ "$(cat "$TMP/out")" = "to stdout" ] && [ "$(head -n 1 "$TMP/err")" = "to stderr" ] &&
		grep -q 'seconds time elapsed' "$TMP/err"; then
		pass passthrough_stderr
	else
		fail passthrough_stderr "stdout '$(cat "$TMP/out")', stderr $(head -c 200 "$TMP/err")"
	fi
fi
printf 'line on stdin\n' | "$PERFEV" stat -o "$TMP/report" -- cat >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc passthrough_stdin 0 && { [ "$(cat "$TMP/out")" = "line on stdin" ] && pass passthrough_stdin ||
	fail passthrough_stdin "stdout '$(cat "$TMP/out")'"; }

# ---- exit status ----------------------------------------------------------------------

run "$PERFEV" stat -- sh -c 'exit 7'
expect_rc exit_child 7 && { grep -q 'seconds time elapsed' "$TMP/err" && pass exit_child ||
	fail exit_child "no report: $(cat "$TMP/err")"; }

run "$PERFEV" stat -- sh -c 'kill -SEGV $$'
if expect_rc exit_signal 139; then
	if grep -Eqi 'signal 11|SIGSEGV|segmentation fault' "$TMP/err" && grep -q 'seconds time elapsed' "$TMP/err"; then
		pass exit_signal
	else
		fail exit_signal "signal not named or no report: $(cat "$TMP/err")"
	fi
fi

run "$PERFEV" stat -- perfev-no-such-command-$$
if [ "$rc" -eq 1 ] || [ "$rc" -eq 127 ]; then
	# ENOENT, or EACCES when a directory of PATH is not searchable by this user.
	if grep -q "cannot run 'perfev-no-such-command-$$'" "$TMP/err" &&
		grep -Eqi 'no such file|not found|permission denied' "$TMP/err"; then
		pass exit_not_found
	else
		fail exit_not_found "unclear message: $(cat "$TMP/err")"
	fi
else
	fail exit_not_found "exit status $rc, expected 1 or 127: $(cat "$TMP/err")"
fi

run "$PERFEV" stat
expect_rc exit_no_command 2 && { grep -q 'no command' "$TMP/err" && pass exit_no_command ||
	fail exit_no_command "$(head -n 2 "$TMP/err")"; }

# ---- CSV (-x) ---------------------------------------------------------------------------

run "$PERFEV" stat -x, true
if expect_rc csv_default 0; then
	check csv_default "$TMP/err" "$DEFAULTS" <<'PY'
import sys, statlib
rows = statlib.csv_rows(sys.argv[1], ',', 7)
names = [statlib.check_csv_row(r) for r in rows]
for n in sys.argv[2].split():
    assert n in names, '%s missing: %r' % (n, names)
# Software events are never multiplexed.
assert all(r[4] == '100.00' for r in rows if r[2] in sys.argv[2].split()), rows
PY
fi

# A field holding the separator or a quote is quoted, quotes doubled (RFC 4180).
run "$PERFEV" stat -x ';' -e 'cpu-clock/name=a;b/' -e task-clock true
if expect_rc csv_quoting 0; then
	check csv_quoting "$TMP/err" <<'PY'
import sys, statlib
assert '"a;b"' in open(sys.argv[1]).read()
rows = statlib.csv_rows(sys.argv[1], ';', 7)
assert [statlib.check_csv_row(r) for r in rows] == ['a;b', 'task-clock'], rows
PY
fi
run "$PERFEV" stat -x, -e 'cpu-clock/name="q"/' true
if expect_rc csv_quoting_quote 0; then
	check csv_quoting_quote "$TMP/err" <<'PY'
import sys, statlib
assert '"""q"""' in open(sys.argv[1]).read()
rows = statlib.csv_rows(sys.argv[1], ',', 7)
assert rows[0][2] == '"q"', rows
PY
fi

for sep in ';' '|' '::' ' ' 'SEP'; do
	run "$PERFEV" stat -x "$sep" -e "$SW" true
	if expect_rc "csv_separator '$sep'" 0; then
		check "csv_separator '$sep'" "$TMP/err" "$sep" "$DEFAULTS" <<'PY'
import sys, statlib
rows = statlib.csv_rows(sys.argv[1], sys.argv[2], 7)
assert [statlib.check_csv_row(r) for r in rows] == sys.argv[3].split(), rows
PY
	fi
done

# With a separator of several characters a field must not merge with it: "x:" then "::".
run "$PERFEV" stat -x '::' -e 'cpu-clock/name=x:/' true
if expect_rc csv_separator_multichar_edge 0; then
	check csv_separator_multichar_edge "$TMP/err" <<'PY'
import sys, statlib
rows = statlib.csv_rows(sys.argv[1], '::', 7)
assert rows[0][2] == 'x:', 'event column %r, the field x: is not quoted: %s' % (rows[0][2], open(sys.argv[1]).read().strip())
PY
fi

# ---- JSON (-j) --------------------------------------------------------------------------

run "$PERFEV" stat -j -o "$TMP/stat.json" -- sh -c 'exit 3'
if expect_rc json_default 3; then
	if ! json_ok "$TMP/stat.json"; then
		fail json_default "invalid JSON: $(cat "$TMP/json-err")"
	else
		check json_default "$TMP/stat.json" "$DEFAULTS" <<'PY'
import json, sys, statlib
d = json.load(open(sys.argv[1]))
num = statlib.is_num
assert d['runs'] == 1 and num(d['elapsed_s']) and d['elapsed_s'] > 0, d
assert d['exit_status'] == 3 and d['command'] == ['sh', '-c', 'exit 3'], d
assert num(d['user_s']) and num(d['system_s']) and d['aggregation'] == 'global'
assert isinstance(d['target'], str)
names = [e['event'] for e in d['events']]
assert names[:4] == sys.argv[2].split(), names
for e in d['events'][:4]:
    assert e['supported'] is True and len(e['counts']) == 1, e
    c = e['counts'][0]
    assert c['counted'] is True and num(c['value']), c
    assert num(c['percent_running']) and c['percent_running'] == 100, c
    assert num(c['time_enabled_ns']) and num(c['time_running_ns']), c
    assert c['metric'] is None or (num(c['metric']['value']) and isinstance(c['metric']['unit'], str)), c
    assert 'stddev' not in c and 'runs' not in c, c
tc = d['events'][0]
assert tc['unit'] == 'msec' and tc['counts'][0]['metric']['unit'] == 'CPUs utilized', tc
PY
	fi
fi

# ---- runs (-r) --------------------------------------------------------------------------

run "$PERFEV" stat -r 5 true
if expect_rc repeat_text 0; then
	check repeat_text "$TMP/err" <<'PY'
import re, sys
err = open(sys.argv[1]).read()
assert "'true' (5 runs" in err, err
assert re.search(r'msec task-clock .*\( \+- +[0-9.]+% \)', err), err
assert re.search(r'seconds time elapsed +\( \+- +[0-9.]+% \)', err), err
PY
fi

run "$PERFEV" stat -r 5 -x, true
if expect_rc repeat_csv 0; then
	check repeat_csv "$TMP/err" <<'PY'
import sys, statlib
rows = statlib.csv_rows(sys.argv[1], ',', 9)
for r in rows:
    statlib.check_csv_row(r)
    assert float(r[7]) >= 0 and float(r[8]) >= 0, r
PY
fi

# The +- is the 95% confidence interval of the mean: Student's t (4 degrees of freedom: 2.776).
run "$PERFEV" stat -r 5 -j -o "$TMP/r5.json" true
if expect_rc repeat_json 0 && json_ok "$TMP/r5.json"; then
	check repeat_json "$TMP/r5.json" <<'PY'
import json, math, sys, statistics
d = json.load(open(sys.argv[1]))
assert d['runs'] == 5 and d['elapsed_ci95_s'] >= 0, d
for e in d['events']:
    c = e['counts'][0]
    xs = c['runs']
    assert len(xs) == 5 and all(isinstance(x, (int, float)) for x in xs), c
    m, sd = statistics.mean(xs), statistics.stdev(xs)
    close = lambda a, b: math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9)
    assert close(c['value'], m), (e['event'], c['value'], m)
    assert close(c['stddev'], sd), (e['event'], c['stddev'], sd)
    assert close(c['ci95'], 2.776 * sd / math.sqrt(5)), (e['event'], c['ci95'])
PY
fi

run "$PERFEV" stat -r 5 --table -e task-clock true
if expect_rc repeat_table 0; then
	check repeat_table "$TMP/err" <<'PY'
import re, sys
rows = re.findall(r'^ +([0-9]+) +[0-9]+\.[0-9]{9} +[+-][0-9]+\.[0-9]{9}$', open(sys.argv[1]).read(), re.M)
assert rows == ['1', '2', '3', '4', '5'], rows
PY
fi

# Many runs: the mean is over all of them.
run "$PERFEV" stat -r 300 -e task-clock -j -o "$TMP/r300.json" true
if expect_rc repeat_many 0 && json_ok "$TMP/r300.json"; then
	check repeat_many "$TMP/r300.json" <<'PY'
import json, math, sys, statistics
d = json.load(open(sys.argv[1]))
c = d['events'][0]['counts'][0]
assert d['runs'] == 300 and len(c['runs']) == 300, d['runs']
m = statistics.mean(c['runs'])
assert math.isclose(c['value'], m, rel_tol=1e-9), \
    'value %r is not the mean of the 300 runs %r (mean of the first 256: %r)' % (
        c['value'], m, statistics.mean(c['runs'][:256]))
PY
fi

# ---- intervals (-I) ---------------------------------------------------------------------

run "$PERFEV" stat -I 100 -e "$SW" -- sleep 0.5
if expect_rc interval_text 0; then
	check interval_text "$TMP/err" "$DEFAULTS" <<'PY'
import re, sys
lines = [l for l in open(sys.argv[1]).read().splitlines() if re.match(r'^ +[0-9]+\.[0-9]{9} ', l)]
times = []
for l in lines:
    t = float(l.split()[0])
    if not times or times[-1] != t:
        times.append(t)
assert len(times) >= 2, 'only %d interval(s): %r' % (len(times), lines)
assert times == sorted(times) and len(set(times)) == len(times), times
assert len(lines) == 4 * len(times), 'not 4 events per interval: %r' % lines
for name in sys.argv[2].split():
    assert sum(name in l.split() for l in lines) == len(times), name
PY
fi

run "$PERFEV" stat -I 100 --interval-count 2 -x, -e "$SW" -- sleep 1
if expect_rc interval_count 0; then
	check interval_count "$TMP/err" <<'PY'
import sys, statlib
rows = statlib.csv_rows(sys.argv[1], ',', 8)
times = sorted({float(r[0]) for r in rows})
assert len(times) == 2 and len(rows) == 8, rows
PY
fi

run "$PERFEV" stat -I 100 -x, -- sleep 0.3
if expect_rc interval_csv 0; then
	check interval_csv "$TMP/err" <<'PY'
import sys, statlib
rows = statlib.csv_rows(sys.argv[1], ',', 8)
for r in rows:
    statlib.check_csv_row(r, 1)
times = [float(r[0]) for r in rows]
assert times == sorted(times) and len(set(times)) >= 2, times
PY
fi

run "$PERFEV" stat -I 100 -j -o "$TMP/int.json" -e "$SW" -- sh -c 'sleep 0.3; exit 4'
if expect_rc interval_json 4; then
	if json_ok "$TMP/int.json"; then
		check interval_json "$TMP/int.json" "$DEFAULTS" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
iv = d['intervals']
assert len(iv) >= 2, iv
ts = [i['time_s'] for i in iv]
assert ts == sorted(ts) and len(set(ts)) == len(ts), ts
for i in iv:
    assert [e['event'] for e in i['events']] == sys.argv[2].split(), i
    for e in i['events']:
        c = e['counts'][0]
        assert c['value'] is None or isinstance(c['value'], (int, float)), c
assert d['exit_status'] == 4 and d['command'] == ['sh', '-c', 'sleep 0.3; exit 4'], d
PY
	else
		fail interval_json "not one JSON document: $(cat "$TMP/json-err")"
	fi
fi

# A command that cannot run: an error, and no half-written JSON document.
run "$PERFEV" stat -I 100 -j -o "$TMP/int-fail.json" -- perfev-no-such-command-$$
if expect_rc interval_json_not_found 1; then
	if [ -s "$TMP/int-fail.json" ] && ! json_ok "$TMP/int-fail.json"; then
		fail interval_json_not_found "truncated JSON left in the -o file: $(tr -d '\n ' <"$TMP/int-fail.json")"
	else
		grep -q "perfev-no-such-command-$$" "$TMP/err" && pass interval_json_not_found ||
			fail interval_json_not_found "$(cat "$TMP/err")"
	fi
fi

# ---- -o -------------------------------------------------------------------------------

run "$PERFEV" stat -o "$TMP/o.txt" true
if expect_rc output_file 0; then
	[ ! -s "$TMP/err" ] && [ ! -s "$TMP/out" ] && grep -q "^ Performance counter stats for 'true'" "$TMP/o.txt" &&
		grep -q 'task-clock' "$TMP/o.txt" && pass output_file ||
		fail output_file "stderr '$(cat "$TMP/err")', file $(head -c 200 "$TMP/o.txt")"
fi

run "$PERFEV" stat -o "$TMP/no-such-dir/o.txt" true
expect_rc output_unwritable 1 && { grep -q "no-such-dir/o.txt" "$TMP/err" && pass output_unwritable ||
	fail output_unwritable "$(cat "$TMP/err")"; }

# Never through a link: a planted one is refused, and what it points to is not created.
ln -s "$TMP/stat-victim" "$TMP/stat-link"
run "$PERFEV" stat -o "$TMP/stat-link" true
if expect_rc output_link 1; then
	if [ -e "$TMP/stat-victim" ]; then
		fail output_link "the file the link points to was written"
	elif ! grep -q "cannot write '$TMP/stat-link': it is a symbolic link" "$TMP/err"; then
		fail output_link "unclear message: $(cat "$TMP/err")"
	else
		pass output_link
	fi
fi

# A hard link to another file is replaced, not written through.
printf 'keep\n' >"$TMP/stat-other"
ln "$TMP/stat-other" "$TMP/stat-hard"
run "$PERFEV" stat -o "$TMP/stat-hard" true
if expect_rc output_hard_link 0; then
	if [ "$(cat "$TMP/stat-other")" != keep ]; then
		fail output_hard_link "the other name of the file was written"
	elif ! grep -q 'task-clock' "$TMP/stat-hard"; then
		fail output_hard_link "no counts in the output: $(head -c 200 "$TMP/stat-hard")"
	else
		pass output_hard_link
	fi
fi

# Another user's file in a sticky directory cannot be replaced by renaming (the kernel refuses
# it at the end, after the command ran): it is written in place, as perf writes it.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
	mkdir "$TMP/sticky" && chmod 1777 "$TMP/sticky" && chmod 755 "$TMP"
	: >"$TMP/sticky/out.txt" && chmod 666 "$TMP/sticky/out.txt"
	run setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$PERFEV" stat -e task-clock -o "$TMP/sticky/out.txt" -- true
	if ! expect_rc output_sticky_dir 0; then
		:
	elif ! grep -q 'task-clock' "$TMP/sticky/out.txt"; then
		fail output_sticky_dir "no counts in the file: $(head -c 200 "$TMP/sticky/out.txt")"
	elif [ "$(ls -A "$TMP/sticky")" != out.txt ]; then
		fail output_sticky_dir "the directory holds: $(ls -A "$TMP/sticky" | tr '\n' ' ')"
	else
		pass output_sticky_dir
	fi
else
	skip root output_sticky_dir "dropping to another user needs root and setpriv"
fi

# Names of descriptors are written as such, not refused as links: /dev/stdout, /dev/fd/N (a
# shell's >(...)); one that is not open is said.
"$PERFEV" stat -e task-clock -o /dev/stdout true >"$TMP/fd-out" 2>"$TMP/err"
rc=$?
"$PERFEV" stat -e task-clock -o /dev/fd/9 true 9>"$TMP/fd-9" 2>>"$TMP/err"
rc9=$?
"$PERFEV" stat -e task-clock -o /dev/fd/9 true 9>&- 2>"$TMP/err-closed"
rc_closed=$?
if [ "$rc" -ne 0 ] || [ "$rc9" -ne 0 ]; then
	fail output_descriptor "exit status $rc and $rc9: $(head -c 300 "$TMP/err")"
elif ! grep -q 'task-clock' "$TMP/fd-out" || ! grep -q 'task-clock' "$TMP/fd-9"; then
	fail output_descriptor "no counts written to the descriptors"
elif [ "$rc_closed" -ne 1 ] || ! grep -q "cannot write '/dev/fd/9': descriptor 9 is not open" "$TMP/err-closed"; then
	fail output_descriptor "a closed descriptor: status $rc_closed, $(head -c 300 "$TMP/err-closed")"
else
	pass output_descriptor
fi

# Character devices are written as perf writes them; their errors name the device, not an event.
run "$PERFEV" stat -o /dev/null true
expect_rc output_dev_null 0 && pass output_dev_null
run "$PERFEV" stat -o /dev/full true
if expect_rc output_dev_full 1; then
	if grep -q "cannot write '/dev/full': no space left on device (a character device)" "$TMP/err" &&
		! grep -q 'event' "$TMP/err"; then
		pass output_dev_full
	else
		fail output_dev_full "unclear message: $(cat "$TMP/err")"
	fi
fi

# A full disk: the message names the filesystem; the file there before stays whole.
if small_fs "$TMP/stat-fs" 64k; then
	printf 'before\n' >"$TMP/stat-fs/o.txt"
	fill_fs "$TMP/stat-fs"
	run "$PERFEV" stat -o "$TMP/stat-fs/o.txt" true
	if ! expect_rc output_full_disk 1; then
		:
	elif ! grep -q "cannot write '$TMP/stat-fs/o.txt': no space left on the filesystem at '$TMP/stat-fs' (tmpfs)" "$TMP/err"; then
		fail output_full_disk "unclear message: $(cat "$TMP/err")"
	elif [ "$(cat "$TMP/stat-fs/o.txt")" != before ]; then
		fail output_full_disk "the file there before was cut: '$(head -c 100 "$TMP/stat-fs/o.txt")'"
	else
		pass output_full_disk
	fi
else
	skip tmpfs output_full_disk "cannot mount a small tmpfs: not permitted (needs root)"
fi

# A disk that fails while the command runs: the write error names the filesystem and its
# device, not an event.
if ext4_fs "$TMP/stat-ext4"; then
	run "$PERFEV" stat -o "$TMP/stat-ext4/o.txt" -- python3 -c "$SHUT_FS" "$TMP/stat-ext4"
	if ! expect_rc output_io_error 1; then
		:
	elif grep -q "cannot write '$TMP/stat-ext4/o.txt': input/output error on the filesystem at '$TMP/stat-ext4' (ext4 on /dev/loop[0-9]*)" "$TMP/err"; then
		pass output_io_error
	else
		fail output_io_error "unclear message: $(cat "$TMP/err")"
	fi
else
	skip ext4 output_io_error "cannot mount an ext4 image: not permitted (needs root) or not supported"
fi

# ---- targets ---------------------------------------------------------------------------

start_looper
run "$PERFEV" stat -x, -p "$looper" -- sleep 0.3
if expect_rc target_pid 0; then
	check target_pid "$TMP/err" "$kernel" <<'PY'
import sys, statlib
rows = statlib.csv_rows(sys.argv[1], ',', 7)
v = {statlib.check_csv_row(r): r[0] for r in rows}
assert float(v['task-clock']) > 0, v
assert sys.argv[2] == '0' or int(v['context-switches']) > 0, v
# Its children (the sleeps it forks after counting starts) are counted too.
assert int(v['page-faults']) > 0, v
PY
fi
run "$PERFEV" stat -p "$looper" -- sleep 0.3
if expect_rc target_pid_text 0; then
	check target_pid_text "$TMP/err" "$looper" <<'PY'
import re, sys
err = open(sys.argv[1]).read()
assert "Performance counter stats for process id '%s'" % sys.argv[2] in err, err
t = float(re.search(r'([0-9.]+) seconds time elapsed', err).group(1))
assert t >= 0.29, 'elapsed %s, the command sleeps 0.3 s' % t
PY
fi

run "$PERFEV" stat -x, -t "$looper" -- sleep 0.3
if expect_rc target_tid 0; then
	check target_tid "$TMP/err" "$kernel" <<'PY'
import sys, statlib
rows = statlib.csv_rows(sys.argv[1], ',', 7)
v = {statlib.check_csv_row(r): r[0] for r in rows}
assert float(v['task-clock']) > 0, v
assert sys.argv[2] == '0' or int(v['context-switches']) > 0, v
PY
fi

looper1=$looper
start_looper
run "$PERFEV" stat -x, --per-thread -p "$looper1,$looper" -- sleep 0.3
if expect_rc target_pids 0; then
	check target_pids "$TMP/err" "$looper1" "$looper" <<'PY'
import sys, statlib
rows = statlib.csv_rows(sys.argv[1], ',', 8)
tc = {r[0]: r[1] for r in rows if r[3] == 'task-clock'}
assert set(tc) == set(sys.argv[2:]) and all(float(x) > 0 for x in tc.values()), tc
PY
fi
stop_looper
looper=$looper1
stop_looper

n=$(ncpus_online)
run "$PERFEV" stat -x, -a -- sleep 0.2
if [ "$rc" -eq 1 ] && grep -Eqi 'permission|paranoid|not permitted' "$TMP/err"; then
	skip root target_system_wide "system-wide counting is not permitted here: $(head -n 1 "$TMP/err")"
	cpus_ok=0
elif expect_rc target_system_wide 0; then
	cpus_ok=1
	check target_system_wide "$TMP/err" "$n" <<'PY'
import sys, statlib
rows = statlib.csv_rows(sys.argv[1], ',', 7)
v = {statlib.check_csv_row(r): r for r in rows}
# Every online CPU's clock runs for the whole command (0.2 s): cpu-clock, as perf counts CPUs.
assert float(v['cpu-clock'][0]) > 0.5 * 200 * int(sys.argv[2]), v['cpu-clock']
assert int(v['context-switches'][0]) > 0, v
PY
else
	cpus_ok=0
fi

if [ "$cpus_ok" -eq 1 ]; then
	run "$PERFEV" stat -C 0 -- sleep 0.2
	if expect_rc target_cpu 0; then
		check target_cpu "$TMP/err" <<'PY'
import re, sys
err = open(sys.argv[1]).read()
assert 'Performance counter stats for CPU(s) 0' in err, err
m = float(re.search(r'msec cpu-clock +# +([0-9.]+) CPUs utilized', err).group(1))
assert 0.5 < m < 1.5, 'one CPU counted, %s CPUs utilized' % m
PY
	fi

	# One line per CPU, core, die, socket, node: the units of /sys topology.
	cat >"$TMP/topo.py" <<'PY'
import glob, os, re
def cpulist(s):
    out = []
    for part in s.strip().split(','):
        a, _, b = part.partition('-')
        out += range(int(a), int(b or a) + 1)
    return out
def rd(cpu, f):
    return int(open('/sys/devices/system/cpu/cpu%d/topology/%s' % (cpu, f)).read())
online = cpulist(open('/sys/devices/system/cpu/online').read())
node = {}
for d in glob.glob('/sys/devices/system/node/node[0-9]*'):
    for c in cpulist(open(d + '/cpulist').read() or '0'):
        node[c] = int(re.search(r'[0-9]+$', d).group(0))
def die(c):
    return rd(c, 'die_id') if os.path.exists('/sys/devices/system/cpu/cpu%d/topology/die_id' % c) else 0
units = {
    'A': {'CPU%d' % c for c in online},
    'per-core': {'S%d-D%d-C%d' % (rd(c, 'physical_package_id'), die(c), rd(c, 'core_id')) for c in online},
    'per-die': {'S%d-D%d' % (rd(c, 'physical_package_id'), die(c)) for c in online},
    'per-socket': {'S%d' % rd(c, 'physical_package_id') for c in online},
    'per-node': {'N%d' % node.get(c, 0) for c in online},
}
PY
	for mode in A per-core per-die per-socket per-node; do
		case $mode in A) flag=-A ;; *) flag=--$mode ;; esac
		run "$PERFEV" stat -x, -a "$flag" -e task-clock,context-switches -- sleep 0.1
		if expect_rc "aggr_$mode" 0; then
			check "aggr_$mode" "$TMP/err" "$mode" "$TMP/topo.py" <<'PY'
import sys, statlib
exec(open(sys.argv[3]).read())
rows = statlib.csv_rows(sys.argv[1], ',', 8)
for r in rows:
    statlib.check_csv_row(r, 1)
want = units[sys.argv[2]]
for ev in ('task-clock', 'context-switches'):
    got = [r[0] for r in rows if r[3] == ev]
    assert sorted(got) == sorted(want), '%s: units %r, /sys says %r' % (ev, got, sorted(want))
PY
		fi
	done

	run "$PERFEV" stat -x, -I 100 -a -A -e task-clock -- sleep 0.25
	if expect_rc aggr_interval_csv 0; then
		check aggr_interval_csv "$TMP/err" "$TMP/topo.py" <<'PY'
import sys, statlib
exec(open(sys.argv[2]).read())
rows = statlib.csv_rows(sys.argv[1], ',', 9)
for r in rows:
    statlib.check_csv_row(r, 2)
assert {r[1] for r in rows} == units['A'], rows
PY
	fi

	run "$PERFEV" stat -j -o "$TMP/aggr.json" -a -A -e task-clock -- sleep 0.1
	if expect_rc aggr_json 0 && json_ok "$TMP/aggr.json"; then
		check aggr_json "$TMP/aggr.json" "$TMP/topo.py" <<'PY'
import json, sys
exec(open(sys.argv[2]).read())
d = json.load(open(sys.argv[1]))
assert d['aggregation'] == 'cpu', d['aggregation']
got = {'CPU%d' % c['cpu']['cpu'] for c in d['events'][0]['counts']}
assert got == units['A'], got
for c in d['events'][0]['counts']:
    assert isinstance(c['cpu']['core'], int) and isinstance(c['cpu']['socket'], int), c
PY
	fi
else
	for c in target_cpu aggr_A aggr_per-core aggr_per-die aggr_per-socket aggr_per-node aggr_interval_csv aggr_json; do
		skip root "$c" "system-wide counting is not available here"
	done
fi

# --per-thread on a process with 4 threads: one line per thread of /proc/PID/task.
python3 -c '
import threading, time
def f():
    while True:
        time.sleep(0.01)
for i in range(3):
    threading.Thread(target=f, daemon=True).start()
time.sleep(30)' &
mt=$!
i=0
while [ "$(ls "/proc/$mt/task" 2>/dev/null | wc -l)" -lt 4 ] && [ $i -lt 1200 ]; do
	sleep 0.05
	i=$((i + 1))
done
tids=$(ls "/proc/$mt/task" | tr '\n' ' ')
run "$PERFEV" stat -x, --per-thread -p "$mt" -- sleep 0.3
kill "$mt" 2>/dev/null
wait "$mt" 2>/dev/null
if expect_rc per_thread 0; then
	check per_thread "$TMP/err" "$tids" "$mt" <<'PY'
import sys, statlib
rows = statlib.csv_rows(sys.argv[1], ',', 8)
for r in rows:
    statlib.check_csv_row(r, 1)
want = set(sys.argv[2].split())
assert len(want) == 4, want
tc = {r[0]: r[1] for r in rows if r[3] == 'task-clock'}
assert set(tc) == want, (sorted(tc), sorted(want))
# The three other threads wake 100 times a second and run a little each time.
busy = [t for t in want if t != sys.argv[3]]
assert all(statlib.NUM.match(tc[t]) and float(tc[t]) > 0 for t in busy), tc
PY
fi

# -G: a cgroup v2 directory of our own with a process in it.
cg_mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
cg_name=perfev-test-$$
if [ "$(id -u)" -ne 0 ] || [ -z "$cg_mnt" ] || ! mkdir "$cg_mnt/$cg_name" 2>/dev/null; then
	skip cgroup cgroup "needs root and a writable cgroup v2 mount (found '${cg_mnt:-none}')"
	skip cgroup cgroup_relative "needs root and a writable cgroup v2 mount"
else
	sh -c 'echo $$ > "$1/cgroup.procs" && exec sh -c "while :; do sleep 0.05; done"' sh "$cg_mnt/$cg_name" \
		>/dev/null 2>&1 &
	cgp=$!
	i=0
	while ! grep -qx "$cgp" "$cg_mnt/$cg_name/cgroup.procs" && [ $i -lt 3000 ]; do
		sleep 0.02
		i=$((i + 1))
	done
	run "$PERFEV" stat -x, -G "$cg_mnt/$cg_name" -- sleep 0.3
	if expect_rc cgroup 0; then
		check cgroup "$TMP/err" <<'PY'
import sys, statlib
rows = statlib.csv_rows(sys.argv[1], ',', 7)
v = {statlib.check_csv_row(r): r[0] for r in rows}
assert float(v['cpu-clock']) > 0 and int(v['page-faults']) > 0, v
PY
	fi
	# A name is looked up under the cgroup v2 mount, as perf does (here $cg_mnt).
	run "$PERFEV" stat -x, -G "$cg_name" -- sleep 0.2
	if expect_rc cgroup_relative 0; then
		check cgroup_relative "$TMP/err" <<'PY'
import sys, statlib
rows = statlib.csv_rows(sys.argv[1], ',', 7)
v = {statlib.check_csv_row(r): r[0] for r in rows}
assert float(v['cpu-clock']) > 0, v
PY
	fi
	kill "$cgp" 2>/dev/null
	wait "$cgp" 2>/dev/null
	i=0
	while ! rmdir "$cg_mnt/$cg_name" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
fi

run "$PERFEV" stat -G "perfev-no-such-cgroup-$$" -- true
expect_rc cgroup_missing 1 && { grep -q "perfev-no-such-cgroup-$$" "$TMP/err" && pass cgroup_missing ||
	fail cgroup_missing "$(cat "$TMP/err")"; }

dead_pid
run "$PERFEV" stat -p "$dead" -- true
expect_rc pid_missing 1 && { grep -q 'no such process' "$TMP/err" && pass pid_missing ||
	fail pid_missing "$(cat "$TMP/err")"; }
run "$PERFEV" stat -t "$dead" -- true
expect_rc tid_missing 1 && { grep -q 'no such process' "$TMP/err" && pass tid_missing ||
	fail tid_missing "$(cat "$TMP/err")"; }

# A CPU that does not exist: one error that names it, no fallback story.
run "$PERFEV" stat -C 99 -- true
if expect_rc cpu_missing 1; then
	if grep -q 'cpu 99' "$TMP/err" && ! grep -q 'exclude_guest' "$TMP/err" && [ "$(wc -l <"$TMP/err")" -eq 1 ]; then
		pass cpu_missing
	else
		fail cpu_missing "$(head -c 400 "$TMP/err" | tr '\n' ' ')"
	fi
fi

# -i: the children of the command are not counted.
run "$PERFEV" stat -x, -e page-faults -- sh -c '/bin/true; /bin/true'
inh=$(cut -d, -f1 "$TMP/err")
run "$PERFEV" stat -x, -i -e page-faults -- sh -c '/bin/true; /bin/true'
if expect_rc no_inherit 0; then
	noinh=$(cut -d, -f1 "$TMP/err")
	[ "$noinh" -gt 0 ] 2>/dev/null && [ "$noinh" -lt "$inh" ] && pass no_inherit ||
		fail no_inherit "page-faults with -i $noinh, without $inh"
fi

# -D: counting starts later.  The workload faults its 2000 pages in its first
# milliseconds, then computes for a few hundred; after a 50 ms delay the faults are past.
run "$PERFEV" stat -x, -e page-faults -D 50 -- "$WORKLOAD" 300000000 2000
if expect_rc delay_command 0; then
	v=$(cut -d, -f1 "$TMP/err")
	case $v in
	'<not counted>') pass delay_command ;;
	*) [ "$v" -lt 2000 ] 2>/dev/null && pass delay_command || fail delay_command "page-faults $v with -D 50" ;;
	esac
fi
# The same on CPUs: with -D 150 on a 0.3 s command, each CPU's clock counts about half.
if [ "$cpus_ok" -eq 1 ]; then
	run "$PERFEV" stat -x, -a -e task-clock -D 150 -- sleep 0.3
	if expect_rc delay_system_wide 0; then
		check delay_system_wide "$TMP/err" "$n" <<'PY'
import sys, statlib
rows = statlib.csv_rows(sys.argv[1], ',', 7)
ms, full = float(rows[0][0]), 300 * int(sys.argv[2])
assert ms < 0.75 * full, 'task-clock %.1f ms with -D 150: the whole %d ms was counted' % (ms, full)
PY
	fi
else
	skip root delay_system_wide "system-wide counting is not available here"
fi

# ---- usage and event errors --------------------------------------------------------------

run "$PERFEV" stat -e cyclez true
if expect_rc error_unknown_event 1; then
	grep -q "unknown event 'cyclez'" "$TMP/err" && grep -q '^    \^~~~~~$' "$TMP/err" && [ ! -s "$TMP/out" ] &&
		pass error_unknown_event || fail error_unknown_event "$(cat "$TMP/err")"
fi
run "$PERFEV" stat -x, -j true
expect_rc error_csv_json 2 && { grep -q -- '-x or -j' "$TMP/err" && pass error_csv_json ||
	fail error_csv_json "$(head -n 1 "$TMP/err")"; }
run "$PERFEV" stat -r 0 true
expect_rc error_repeat_zero 2 && pass error_repeat_zero
run "$PERFEV" stat --interval-count 2 true
expect_rc error_interval_count 2 && { grep -q 'needs -I' "$TMP/err" && pass error_interval_count ||
	fail error_interval_count "$(head -n 1 "$TMP/err")"; }
run "$PERFEV" stat --no-such-option true
expect_rc error_unknown_option 2 && { grep -q "no-such-option" "$TMP/err" && pass error_unknown_option ||
	fail error_unknown_option "$(head -n 1 "$TMP/err")"; }
run "$PERFEV" stat -x '' true
expect_rc error_empty_separator 2 && pass error_empty_separator

# A group whose read() would pass the kernel's 16 KiB: the kernel says E2BIG, as for an attr size
# it does not know; the message is about the group (perf says "Argument list too long").
group="{$(printf 'dummy,%.0s' $(seq 699))dummy}"
run "$PERFEV" stat -e "$group" -- true
if expect_rc error_group_too_large 1; then
	grep -Eq "^perfev stat: cannot count 'dummy' on pid [0-9]+: group too large: .*16 KiB.* at most [0-9]+ events; split it" \
		"$TMP/err" && ! grep -q 'update the kernel' "$TMP/err" && pass error_group_too_large ||
		fail error_group_too_large "$(head -n 1 "$TMP/err")"
fi

# ---- Ctrl-C ------------------------------------------------------------------------------

# On a process: the report of what was counted until then, and success.
start_looper
"$PERFEV" stat -p "$looper" >"$TMP/out" 2>"$TMP/err" &
sp=$!
# Its handlers are set before it opens the counters: wait for those, however loaded the machine.
i=0
while ! ls -l "/proc/$sp/fd" 2>/dev/null | grep -q perf_event && [ $i -lt 600 ]; do
	sleep 0.05
	i=$((i + 1))
done
kill -INT "$sp"
wait "$sp"
rc=$?
stop_looper
if expect_rc ctrl_c_pid 0; then
	grep -q "Performance counter stats for process id '$looper'" "$TMP/err" &&
		grep -q 'seconds time elapsed' "$TMP/err" && grep -q 'task-clock' "$TMP/err" && pass ctrl_c_pid ||
		fail ctrl_c_pid "$(cat "$TMP/err")"
fi

# On a command: Ctrl-C reaches both (as from a terminal); the command dies of it.
"$PERFEV" stat -- sleep 5 >"$TMP/out" 2>"$TMP/err" &
sp=$!
child=""
i=0
while [ -z "$child" ] && [ $i -lt 3000 ]; do
	sleep 0.02
	child=$(cat "/proc/$sp/task/$sp/children" 2>/dev/null)
	i=$((i + 1))
done
sleep 0.2
kill -INT $child "$sp"
wait "$sp"
rc=$?
if expect_rc ctrl_c_command 130; then
	grep -q 'seconds time elapsed' "$TMP/err" && grep -Eqi 'signal 2|SIGINT|interrupt' "$TMP/err" &&
		pass ctrl_c_command || fail ctrl_c_command "$(cat "$TMP/err")"
fi

# ---- counters the kernel will not enable ------------------------------------------------------

# A security module may refuse PERF_EVENT_IOC_ENABLE (security_perf_event_write()); a seccomp
# filter makes the kernel refuse it the same way.  With -a or -C and a command, the session then
# fails to start: a message and status 1, and the command is not run (perf 6.1 runs it and
# prints <not counted> with status 0).
DENY="python3 tests/cli/seccomp-deny.py 0x2400 EACCES --"
$DENY true 2>"$TMP/err"
deny_rc=$?
for args in "-a" "-C 0" "-C 0 -I 100"; do
	name="enable_refused($args)"
	if [ $deny_rc -eq 77 ]; then
		skip seccomp "$name" "$(cat "$TMP/err")"
		continue
	elif [ "$(id -u)" -ne 0 ] && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 0 ]; then
		skip root "$name" "counting on CPUs is not permitted (perf_event_paranoid > 0)"
		continue
	fi
	rm -f "$TMP/ran"
	# shellcheck disable=SC2086
	run $DENY "$PERFEV" stat -e task-clock $args -- sh -c ': >"$1"' sh "$TMP/ran"
	if expect_rc "$name" 1; then
		grep -Eq "^perfev stat: cannot start counting on ('system wide'|CPU\(s\) 0): the kernel would not enable the counters: permission denied" \
			"$TMP/err" && [ ! -e "$TMP/ran" ] && pass "$name" ||
			fail "$name" "$(cat "$TMP/err")$([ -e "$TMP/ran" ] && echo '; the command ran')"
	fi
done

# ---- SIGTERM and SIGHUP ------------------------------------------------------------------------

# proc_state PID: the state letter of a process (Z once it has exited), empty when it is gone.
proc_state() {
	sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1
}

# stop_by SIG CMD...: CMD (perf stat or perfev stat and options) counts a shell that traps SIG
# and goes on running; once the shell runs, SIG goes to CMD alone.  Sets $rc (255 when CMD was
# still running 60 s later: the shell is then ended so that CMD can end), $got (whether the shell
# got SIG) and $alive (the shell outlived CMD); CMD's stderr is $TMP/err.
stop_by() {
	sig=$1
	shift
	rm -f "$TMP/sh.pid" "$TMP/sleep.pid" "$TMP/got"
	"$@" -- sh -c 'trap "echo >$1/got" '"$sig"'; sleep 1000 & echo $! >"$1/sleep.pid"
		echo $$ >"$1/sh.pid"; wait; wait' sh "$TMP" >"$TMP/out" 2>"$TMP/err" &
	sp=$!
	wait_file "$TMP/sh.pid"
	kill -"$sig" "$sp"
	i=0
	while [ -n "$(proc_state "$sp")" ] && [ "$(proc_state "$sp")" != Z ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	late=$([ "$(proc_state "$sp")" = Z ] || [ -z "$(proc_state "$sp")" ] || echo 1)
	shpid=$(cat "$TMP/sh.pid" 2>/dev/null)
	alive=$([ -n "$shpid" ] && kill -0 "$shpid" 2>/dev/null && echo 1)
	kill "$(cat "$TMP/sleep.pid" 2>/dev/null)" 2>/dev/null
	wait "$sp"
	rc=$?
	[ -n "$late" ] && rc=255
	# The shell ends with its sleep, after its trap ran for a signal it had been sent.
	i=0
	while [ -n "$shpid" ] && kill -0 "$shpid" 2>/dev/null && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	got=$([ -e "$TMP/got" ] && echo 1)
}

# They end perfev stat at once: the command is sent the signal and not waited for, what was
# counted is printed, and perfev dies of the signal as perf does (perf 6.1 prints nothing and
# leaves the command running without the signal).
for sig in TERM:15 HUP:1; do
	want=$((128 + ${sig#*:}))
	sig=${sig%:*}
	name=signal_$sig
	# With the signal's default action, whatever the runner left (nohup ignores SIGHUP).
	if command -v perf >/dev/null 2>&1; then
		stop_by "$sig" env --default-signal="$sig" perf stat -e task-clock
		[ $rc -eq $want ] || fail "$name" "perf's status is $rc, not $want: the check is off"
	fi
	stop_by "$sig" env --default-signal="$sig" "$PERFEV" stat -e task-clock
	if [ $rc -eq 255 ]; then
		fail "$name" "still running 60 s after SIG$sig: it waits for the command"
	elif ! expect_rc "$name" $want; then
		:
	elif [ -z "$got" ]; then
		fail "$name" "the command did not get SIG$sig"
	elif [ -z "$alive" ]; then
		fail "$name" "the command (which ignores SIG$sig) had ended before perfev: no proof it was not waited for"
	elif ! grep -q "Performance counter stats for 'sh -c" "$TMP/err" || ! grep -Eq '^ +[0-9.]+ msec task-clock' "$TMP/err"; then
		fail "$name" "no counts: $(cat "$TMP/err")"
	elif grep -q 'seconds user' "$TMP/err"; then
		fail "$name" "user time of a command that was not waited for: $(cat "$TMP/err")"
	else
		pass "$name"
	fi
done

# Under nohup (SIGHUP ignored when it starts) SIGHUP stays ignored, as perf leaves it: the
# command keeps its nohup, and a SIGHUP does not end the count.
nohup_count() {
	rm -f "$TMP/sh.pid"
	env --ignore-signal=HUP "$@" -- sh -c 'sed -n "s/^SigIgn:\t//p" /proc/self/status
		echo $$ >"$1/sh.pid"; sleep 1' sh "$TMP" >"$TMP/out" 2>"$TMP/err" &
	sp=$!
	wait_file "$TMP/sh.pid"
	kill -HUP $sp
	wait $sp
	rc=$?
}
if command -v perf >/dev/null 2>&1; then
	nohup_count perf stat -e task-clock
	[ $rc -eq 0 ] || fail nohup_HUP "perf's status is $rc, not 0: the check is off"
fi
nohup_count "$PERFEV" stat -e task-clock
if expect_rc nohup_HUP 0; then
	if ! ignores_hup nohup_HUP "$(head -1 "$TMP/out")"; then
		:
	elif ! grep -Eq '^ +[0-9.]+ msec task-clock' "$TMP/err" ||
		! awk '/seconds time elapsed/ { exit !($1 >= 0.9) }' "$TMP/err"; then
		fail nohup_HUP "not the whole count: $(cat "$TMP/err")"
	else
		pass nohup_HUP
	fi
fi

# The same with -I (the command alongside intervals) and with -a (the command as workload).
for args in "-I 100" "-a"; do
	name="signal_TERM($args)"
	if [ "$args" = -a ] && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 0 ] && [ "$(id -u)" -ne 0 ]; then
		skip root "$name" "-a needs root or perf_event_paranoid <= 0"
		continue
	fi
	# shellcheck disable=SC2086
	stop_by TERM "$PERFEV" stat -e task-clock $args
	if [ $rc -eq 255 ]; then
		fail "$name" "still running 60 s after SIGTERM: it waits for the command"
	elif expect_rc "$name" 143; then
		[ -n "$got" ] && grep -q 'task-clock' "$TMP/err" && pass "$name" ||
			fail "$name" "got: ${got:-no}; $(cat "$TMP/err")"
	fi
done

# ---- unprivileged --------------------------------------------------------------------------

if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
	nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	nobody "$PERFEV" stat -e task-clock -- true >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if expect_rc unprivileged_task 0; then
		if [ "$paranoid" -ge 2 ]; then
			grep -q "got 'task-clock:u'" "$TMP/err" && grep -q "perf_event_paranoid=$paranoid" "$TMP/err" &&
				grep -Eq '^ +[0-9.]+ msec task-clock' "$TMP/err" && pass unprivileged_task ||
				fail unprivileged_task "no :u fallback note: $(cat "$TMP/err")"
		else
			grep -Eq '^ +[0-9.]+ msec task-clock' "$TMP/err" && pass unprivileged_task ||
				fail unprivileged_task "$(cat "$TMP/err")"
		fi
	fi
	if [ "$paranoid" -ge 1 ]; then
		nobody "$PERFEV" stat -a -- true >"$TMP/out" 2>"$TMP/err"
		rc=$?
		expect_rc unprivileged_system_wide 1 &&
			{ grep -q 'perf_event_paranoid' "$TMP/err" && pass unprivileged_system_wide ||
				fail unprivileged_system_wide "$(cat "$TMP/err")"; }
	else
		skip root unprivileged_system_wide "perf_event_paranoid is $paranoid: everyone may count system-wide"
	fi
else
	skip root unprivileged_task "needs root and setpriv"
	skip root unprivileged_system_wide "needs root and setpriv"
fi

# ---- agreement with perf -------------------------------------------------------------------

if command -v perf >/dev/null 2>&1 && perf stat -x, -e page-faults true >/dev/null 2>&1; then
	: >"$TMP/agree"
	for i in 1 2 3; do
		perf stat -x, -e page-faults,context-switches,cpu-migrations "$WORKLOAD" 1000000 500 \
			2>"$TMP/perf.csv" >/dev/null
		"$PERFEV" stat -x, -e page-faults,context-switches,cpu-migrations "$WORKLOAD" 1000000 500 \
			2>"$TMP/perfev.csv" >/dev/null
		for t in perf perfev; do
			# Unprivileged, both fall back to :u; perf renames the event, perfev does not.
			awk -F, -v t=$t '$1 ~ /^[0-9]+$/ { sub(/:u$/, "", $3); print t, $3, $1 }' "$TMP/$t.csv" \
				>>"$TMP/agree"
		done
	done
	check perf_agree_software "$TMP/agree" <<'PY'
import statistics, sys
v = {}
for line in open(sys.argv[1]):
    t, ev, x = line.split()
    v.setdefault((t, ev), []).append(int(x))
m = lambda t, ev: statistics.median(v[(t, ev)])
for ev in ('page-faults', 'context-switches', 'cpu-migrations'):
    assert len(v.get(('perf', ev), [])) == 3 and len(v.get(('perfev', ev), [])) == 3, v
pf, qf = m('perf', 'page-faults'), m('perfev', 'page-faults')
assert abs(pf - qf) <= 0.02 * pf, 'page-faults: perf %s, perfev %s' % (pf, qf)
for ev in ('context-switches', 'cpu-migrations'):
    assert abs(m('perf', ev) - m('perfev', ev)) <= 3, '%s: perf %s, perfev %s' % (ev, v[('perf', ev)], v[('perfev', ev)])
PY
	if have_hw; then
		: >"$TMP/agree"
		for i in 1 2 3; do
			perf stat -x, -e instructions:u "$WORKLOAD" 1000000 500 2>"$TMP/perf.csv" >/dev/null
			"$PERFEV" stat -x, -e instructions:u "$WORKLOAD" 1000000 500 2>"$TMP/perfev.csv" >/dev/null
			for t in perf perfev; do
				awk -F, -v t=$t '$1 ~ /^[0-9]+$/ { print t, $1 }' "$TMP/$t.csv" >>"$TMP/agree"
			done
		done
		check perf_agree_instructions "$TMP/agree" <<'PY'
import statistics, sys
v = {'perf': [], 'perfev': []}
for line in open(sys.argv[1]):
    t, x = line.split()
    v[t].append(int(x))
assert len(v['perf']) == 3 and len(v['perfev']) == 3, v
p, q = statistics.median(v['perf']), statistics.median(v['perfev'])
assert abs(p - q) <= 0.001 * p, 'instructions:u: perf %s, perfev %s' % (v['perf'], v['perfev'])
PY
	else
		skip hw perf_agree_instructions "no hardware PMU: 'perf stat -e instructions' reports <not supported> (ENOENT)"
	fi
else
	skip perf perf_agree_software "Linux perf is not installed (or cannot count page-faults)"
	skip perf perf_agree_instructions "Linux perf is not installed"
fi

finish
