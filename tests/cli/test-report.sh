# SPDX-License-Identifier: LGPL-2.1-or-later
# perfev report: compared with perf report --stdio 6.1 on files recorded by perf and by perfev.
. tests/cli/lib.sh

W=${PERFEV_BUILD:-build}/examples/workload

have_perf=
why_no_perf="perf is not installed"
if command -v perf >/dev/null 2>&1; then
	case "$(perf version 2>/dev/null)" in
	"perf version 6.1."*) have_perf=1 ;;
	*) why_no_perf="the output is compared with perf 6.1, this is '$(perf version 2>/dev/null)'" ;;
	esac
fi

# cmp.py PERF OURS [--top N]: the header lines equal; the report lines equal as
# (percentage, then every column) with whitespace folded, lines of equal
# percentage in any order; a command perf cut to its column width may be a
# prefix of ours.  With --top N only the first N lines of each event.
cat >"$TMP/cmp.py" <<'PY'
import sys
from collections import defaultdict
top = int(sys.argv[sys.argv.index("--top") + 1]) if "--top" in sys.argv else None
def read(path):
    head, secs = [], []
    for l in open(path, errors="replace"):
        l = " ".join(l.split())
        if not l or l.startswith("# (Tip") or l == "#":
            continue
        if l.startswith("# Samples:"):
            secs.append([])
        if l.startswith("#"):
            head.append(l if not l.startswith("# ....") and not l.startswith("# Overhead") else l.split()[1])
        elif secs:
            secs[-1].append(l.split(" "))
    return head, secs
ph, ps = read(sys.argv[1])
oh, os_ = read(sys.argv[2])
if ph != oh:
    sys.exit("headers differ:\n  perf:   %s\n  perfev: %s" % (ph, oh))
if len(ps) != len(os_):
    sys.exit("perf has %d events, perfev %d" % (len(ps), len(os_)))
def same(a, b):
    return len(a) == len(b) and all(x == y or (len(x) >= 8 and y.startswith(x)) or
                                    (":" in x and y.startswith(x)) for x, y in zip(a, b))
for p, o in zip(ps, os_):
    n = top or max(len(p), len(o))
    if top and (len(p) < n or len(o) < n):
        n = min(len(p), len(o))
    elif not top and len(p) != len(o):
        sys.exit("perf has %d lines, perfev %d" % (len(p), len(o)))
    # Lines of one percentage form a group; compare groups as multisets.
    i = 0
    while i < n:
        pct = p[i][0]
        if o[i][0] != pct:
            sys.exit("line %d: perf %s, perfev %s" % (i + 1, " ".join(p[i]), " ".join(o[i])))
        j = i
        while j < len(p) and p[j][0] == pct:
            j += 1
        k = i
        while k < len(o) and o[k][0] == pct:
            k += 1
        if j != k:
            sys.exit("%d lines at %s in perf, %d in perfev" % (j - i, pct, k - i))
        rest = list(o[i:k])
        for pl in p[i:j]:
            m = [x for x in rest if same(pl, x)]
            if not m:
                sys.exit("perf's line '%s' is not in perfev's report" % " ".join(pl))
            rest.remove(m[0])
        i = j
PY

# compare NAME FILE SORT [--top N] [more perfev/perf options]: perf report and perfev report agree.
compare() {
	name=$1 file=$2 sort=$3
	shift 3
	top=
	if [ "${1:-}" = --top ]; then
		top="--top $2"
		shift 2
	fi
	perf report -i "$file" --stdio --no-children -g none --sort "$sort" "$@" >"$TMP/perf.txt" 2>/dev/null
	run "$PERFEV" report -i "$file" --sort "$sort" "$@"
	expect_rc "$name" 0 || return 1
	# shellcheck disable=SC2086
	if python3 "$TMP/cmp.py" "$TMP/perf.txt" "$TMP/out" $top >"$TMP/cmp.err" 2>&1; then
		pass "$name"
	else
		fail "$name" "$(cat "$TMP/cmp.err")"
	fi
}

if [ -z "$have_perf" ]; then
	skip perf report_vs_perf "$why_no_perf"
else
	# A file perf records, and one perfev records, of the bundled workload.  With symbols
	# only the first line is compared: among aliases of one address (libc's __GI_ names)
	# elfutils and perf choose differently, and such lines can come next.
	if perf record -q -o "$TMP/perf.data" -F 2000 -- "$W" 50000000 >/dev/null 2>&1; then
		compare report_perf_file "$TMP/perf.data" comm,dso
		compare report_perf_file_sym "$TMP/perf.data" comm,dso,sym --top 1
		compare report_perf_file_pid "$TMP/perf.data" pid,dso
		compare report_perf_file_limit "$TMP/perf.data" comm,dso,sym --top 1 --percent-limit 2
		compare report_perf_file_nr "$TMP/perf.data" comm,dso -n
	else
		skip perf report_perf_file "perf record failed here"
	fi
	"$PERFEV" record -q -o "$TMP/pv.data" -F 2000 -- "$W" 50000000 >/dev/null 2>&1
	compare report_perfev_file "$TMP/pv.data" comm,dso
	compare report_perfev_file_sym "$TMP/pv.data" comm,dso,sym --top 1
	compare report_perfev_file_dso_sym "$TMP/pv.data" dso,sym --top 1
	# Two events: a section each.
	if perf record -q -o "$TMP/two.data" -e cpu-clock -e page-faults -c 1000 -- "$W" 20000000 >/dev/null 2>&1; then
		compare report_two_events "$TMP/two.data" comm,dso
	fi
	# System-wide, with other processes and the kernel.
	if [ "$(id -u)" -eq 0 ]; then
		"$PERFEV" record -q -a -o "$TMP/sys.data" -F 1000 -- "$W" 50000000 >/dev/null 2>&1
		compare report_system_wide "$TMP/sys.data" comm,dso --top 5
	else
		skip root report_system_wide "system-wide recording needs root here"
	fi
fi

# The main function of the workload comes out by name, with most of the samples.
"$PERFEV" record -q -o "$TMP/w.data" -F 2000 -- "$W" 50000000 >/dev/null 2>&1
run "$PERFEV" report -i "$TMP/w.data" --sort sym
if expect_rc report_symbol 0; then
	if awk '$2 == "[.]" && $3 == "main" { sub("%", "", $1); if ($1 + 0 > 50) ok = 1 } END { exit !ok }' "$TMP/out"; then
		pass report_symbol
	else
		fail report_symbol "no '[.] main' above 50%: $(sed -n 9,14p "$TMP/out")"
	fi
fi

# Filters: every line left names the command or object asked for.
run "$PERFEV" report -i "$TMP/w.data" --sort comm,dso --dsos '[kernel.kallsyms]'
expect_rc report_dso_filter 0 && [ "$(grep -c '%' "$TMP/out")" -ge 1 ] &&
	! grep '%' "$TMP/out" | grep -v 'kernel.kallsyms' >/dev/null && pass report_dso_filter ||
	fail report_dso_filter "$(cat "$TMP/out")"
run "$PERFEV" report -i "$TMP/w.data" --sort comm --comm no-such-command
expect_rc report_comm_filter 0 && ! grep -q '%' "$TMP/out" && pass report_comm_filter ||
	fail report_comm_filter "$(cat "$TMP/out")"

tid=$("$PERFEV" script -i "$TMP/w.data" -F tid 2>/dev/null | awk 'NR == 1 { print $1 }')
run "$PERFEV" report -i "$TMP/w.data" --sort comm --tid "1,$tid"
expect_rc report_tid_filter 0 && grep -q '%  workload' "$TMP/out" && pass report_tid_filter ||
	fail report_tid_filter "thread $tid: $(cat "$TMP/out")"

# Errors.
run "$PERFEV" report -i "$TMP/w.data" --tid 12x
expect_rc report_bad_tid 2 && grep -q "takes thread ids, not '12x'" "$TMP/err" && pass report_bad_tid
run "$PERFEV" report -i "$TMP/w.data" --sort comm,nope
expect_rc report_bad_sort 2 && grep -q "unknown sort key 'nope'" "$TMP/err" && pass report_bad_sort
run "$PERFEV" report -i "$TMP/missing.data"
expect_rc report_missing 1 && grep -q "cannot read" "$TMP/err" && pass report_missing
run "$PERFEV" report -i "$TMP/w.data" --percent-limit 200
expect_rc report_bad_limit 2 && pass report_bad_limit

finish
