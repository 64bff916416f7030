# SPDX-License-Identifier: LGPL-2.1-or-later
# perfev diff: compared with perf diff 6.1 on two runs of a workload whose hot function shifts,
# recorded by perfev and by perf; its significance marks; its HTML page; its errors.
. tests/cli/lib.sh

W=${PERFEV_BUILD:-build}/bench/diff-workload

have_perf61

# Recordings: A (3:1, hot_a), B (1:3, hot_b), A2 (A again), each about 600 samples.
rec_ok=1
for f in A:"3 1" B:"1 3" A2:"3 1"; do
	# shellcheck disable=SC2086
	if ! "$PERFEV" record -q -F 999 -g -o "$TMP/${f%%:*}.data" -- "$W" ${f#*:} >/dev/null 2>"$TMP/err"; then
		fail diff_record "perfev record failed: $(head -c 300 "$TMP/err")"
		rec_ok=
		break
	fi
done

# same NAME SEP FILES... -- OPTIONS: perf diff and perfev diff print one table (perfev's Sig
# columns aside; SEP is -t's separator or ""); $only: options for perfev alone.
same() {
	name=$1 sep=$2
	shift 2
	files=
	while [ "$1" != -- ]; do
		files="$files $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	perf diff "$@" $files >"$TMP/perf.txt" 2>/dev/null
	# shellcheck disable=SC2086
	run "$PERFEV" diff ${only:-} "$@" $files
	expect_rc "$name" 0 || return 1
	if python3 tests/cli/oracle.py diff-cmp "$TMP/perf.txt" "$TMP/out" ${sep:+--sep "$sep"} \
		${ties:+--ties} >"$TMP/cmp.err" 2>&1; then
		pass "$name"
	else
		fail "$name" "$(cat "$TMP/cmp.err")"
	fi
}

if [ -z "$have_perf" ]; then
	skip perf diff_oracle "$why_no_perf"
elif [ -n "$rec_ok" ]; then
	# The files perfev wrote, read by both.
	same diff_default "" "$TMP/A.data" "$TMP/B.data" --
	same diff_delta "" "$TMP/A.data" "$TMP/B.data" -- -c delta
	same diff_ratio "" "$TMP/A.data" "$TMP/B.data" -- -c ratio
	same diff_wdiff "" "$TMP/A.data" "$TMP/B.data" -- -c wdiff:1,2
	same diff_wdiff_formula_period "" "$TMP/A.data" "$TMP/B.data" -- -c wdiff:3,2 -F -p
	same diff_ratio_formula "" "$TMP/A.data" "$TMP/B.data" -- -c ratio -F
	same diff_formula_period "" "$TMP/A.data" "$TMP/B.data" -- -F -p
	same diff_sort_sym "" "$TMP/A.data" "$TMP/B.data" -- -s sym
	same diff_sort_dso "" "$TMP/A.data" "$TMP/B.data" -- -s dso
	same diff_sort_comm_dso_sym "" "$TMP/A.data" "$TMP/B.data" -- -s comm,dso,sym
	same diff_sort_cpu "" "$TMP/A.data" "$TMP/B.data" -- -s cpu,sym
	same diff_sort_pid "" "$TMP/A.data" "$TMP/B.data" -- -s comm,pid
	same diff_baseline_only "" "$TMP/A.data" "$TMP/B.data" -- -b -F
	same diff_three "" "$TMP/A.data" "$TMP/B.data" "$TMP/A2.data" -- -p
	same diff_three_order "" "$TMP/A.data" "$TMP/B.data" "$TMP/A2.data" -- -o 2 -c ratio
	same diff_separator ";" "$TMP/A.data" "$TMP/B.data" "$TMP/A2.data" -- -t ";" -c wdiff:1,1 -p
	same diff_dsos "" "$TMP/A.data" "$TMP/B.data" -- -d diff-workload
	same diff_symbols_relative "" "$TMP/A.data" "$TMP/B.data" -- -S hot_a,hot_b --percentage relative
	same diff_symbols_absolute "" "$TMP/A.data" "$TMP/B.data" -- -S hot_a,hot_b,warm_c -b
	same diff_comms "" "$TMP/A.data" "$TMP/B.data" -- -C diff-workload -s comm,sym
	only=--no-significance
	same diff_quiet "" "$TMP/A.data" "$TMP/B.data" -- -q
	same diff_no_sig "" "$TMP/A.data" "$TMP/B.data" -- -c ratio
	if ! cmp -s "$TMP/perf.txt" "$TMP/out"; then
		fail diff_no_sig_bytes "--no-significance is not perf's table byte for byte"
	else
		pass diff_no_sig_bytes
	fi
	only=
	# The files perf wrote, read by both.
	if perf_rec -q -F 999 -g -o "$TMP/PA.data" -- "$W" 3 1 >/dev/null 2>&1 &&
		perf_rec -q -F 999 -g -o "$TMP/PB.data" -- "$W" 1 3 >/dev/null 2>&1; then
		same diff_perf_files "" "$TMP/PA.data" "$TMP/PB.data" --
		same diff_perf_files_ratio "" "$TMP/PA.data" "$TMP/PB.data" -- -c ratio -s sym
		# perfev's baseline, perf's new file
		same diff_mixed_files "" "$TMP/A.data" "$TMP/PB.data" -- -c delta -p
	else
		fail diff_perf_files "perf record failed"
	fi
	# Two objects with a function of one name, hot: perf diff compares functions by name,
	# so without dso among the keys both are one entry, and the addresses no symbol covers
	# (both libraries stripped) one entry whatever their object.
	cat >"$TMP/twin.c" <<'EOF2'
static __attribute__((noipa)) unsigned long hot(unsigned long n)
{
	volatile unsigned long x = 1;
	while (n--)
		x = x * 6364136223846793005UL + 1;
	return x;
}
unsigned long NAME(unsigned long n) { return hot(n); }
EOF2
	cat >"$TMP/twins.c" <<'EOF2'
#include <stdlib.h>
unsigned long twin_a(unsigned long), twin_b(unsigned long);
int main(int argc, char **argv)
{
	unsigned long a = strtoul(argv[1], NULL, 0), b = strtoul(argv[2], NULL, 0), s = 0;
	for (int i = 0; i < 40; i++)
		s += twin_a(a * 100000) + twin_b(b * 100000);
	return (int)(s & 1);
}
EOF2
	twins=0
	for v in "" -stripped; do
		mkdir -p "$TMP/twins$v"
		if cc -O1 -fPIC -shared -DNAME=twin_a -o "$TMP/twins$v/libtwa.so" "$TMP/twin.c" &&
			cc -O1 -fPIC -shared -DNAME=twin_b -o "$TMP/twins$v/libtwb.so" "$TMP/twin.c" &&
			cc -O1 -o "$TMP/twins$v/twins" "$TMP/twins.c" -L"$TMP/twins$v" -ltwa -ltwb \
				-Wl,-rpath,"$TMP/twins$v" 2>"$TMP/cc.err"; then
			[ -z "$v" ] || strip "$TMP/twins$v/libtwa.so" "$TMP/twins$v/libtwb.so"
			"$PERFEV" record -q -F 999 -o "$TMP/T1$v.data" -- "$TMP/twins$v/twins" 3 1 \
				>/dev/null 2>&1 &&
				"$PERFEV" record -q -F 999 -o "$TMP/T2$v.data" -- "$TMP/twins$v/twins" 1 3 \
					>/dev/null 2>&1 && twins=$((twins + 1))
		fi
	done
	if [ "$twins" -ne 2 ]; then
		skip cc diff_same_name "cannot build and record the two libraries: $(head -c 200 "$TMP/cc.err")"
	else
		same diff_same_name "" "$TMP/T1.data" "$TMP/T2.data" -- -s sym
		same diff_same_name_dso "" "$TMP/T1.data" "$TMP/T2.data" -- -s dso,sym
		same diff_unresolved "" "$TMP/T1-stripped.data" "$TMP/T2-stripped.data" -- -s pid,sym
	fi
	# System-wide recordings: many processes, kernel threads, addresses no symbol covers
	# (perf diff makes those of an object one entry).
	if "$PERFEV" record -q -a -F 199 -o "$TMP/S1.data" -- "$W" 1 1 200 >/dev/null 2>&1 &&
		"$PERFEV" record -q -a -F 199 -o "$TMP/S2.data" -- "$W" 1 1 200 >/dev/null 2>&1; then
		# Whatever else ran meanwhile: lines of equal figures in any order, their unresolved
		# addresses unnamed (oracle.py diff-cmp --ties says why).
		ties=1
		same diff_system_wide "" "$TMP/S1.data" "$TMP/S2.data" --
		same diff_system_wide_comm "" "$TMP/S1.data" "$TMP/S2.data" -- -s comm -c ratio
		same diff_system_wide_pid "" "$TMP/S1.data" "$TMP/S2.data" -- -s pid,sym
		ties=
	else
		skip system_wide diff_system_wide "perfev record -a failed here: not permitted?"
	fi
	# Files of different events: perf shows the baseline alone, and so does perfev (with a
	# warning on stderr).
	if "$PERFEV" record -q -e page-faults -o "$TMP/pf.data" -- "$W" 1 1 10 >/dev/null 2>&1; then
		same diff_other_events "" "$TMP/A.data" "$TMP/pf.data" --
		grep -q "no event of '$TMP/A.data' is in the other files" "$TMP/err" ||
			fail diff_other_events_warning "no warning: $(head -c 300 "$TMP/err")"
	fi
fi

# The marks: a real shift is marked, two recordings of the same workload mostly are not.
if [ -n "$rec_ok" ]; then
	marks() {
		"$PERFEV" diff "$1" "$2" >"$TMP/marks.txt" 2>/dev/null &&
			python3 tests/cli/oracle.py diff-marks "$TMP/marks.txt"
	}
	marks "$TMP/A.data" "$TMP/B.data" >"$TMP/m1"
	if grep -qx '\*\*\*|\[\.\] hot_a' "$TMP/m1" && grep -qx '\*\*\*|\[\.\] hot_b' "$TMP/m1"; then
		pass diff_sig_shift
	else
		fail diff_sig_shift "hot_a and hot_b not marked ***: $(head -5 "$TMP/m1" | tr '\n' ' ')"
	fi
	# At 5% each, two marked rows of a same-workload pair are already unlikely, and hot_a
	# (three quarters of the samples) at 1% even less; but the workload picks its functions
	# at random, so chance alone does it about once in a hundred runs: a second pair (A
	# recorded again) must then fail the same way, as a wrong test would every time.
	same_ok() {
		marks "$TMP/A.data" "$1" >"$TMP/m2"
		rows=$(wc -l <"$TMP/m2")
		marked=$(grep -vc '^-|' "$TMP/m2")
		[ "$rows" -ge 3 ] && [ "$marked" -le 2 ] && grep -Eq '^(-|\*)\|\[\.\] hot_a$' "$TMP/m2"
	}
	if same_ok "$TMP/A2.data" ||
		{ "$PERFEV" record -q -F 999 -g -o "$TMP/A3.data" -- "$W" 3 1 >/dev/null 2>&1 &&
			same_ok "$TMP/A3.data"; }; then
		pass diff_sig_same
	else
		fail diff_sig_same "$marked of $rows rows marked for two runs of one workload: $(grep -v '^-|' "$TMP/m2" | head -3 | tr '\n' ' ')"
	fi
	if grep -q '^# Sig: ' "$TMP/marks.txt"; then
		pass diff_sig_legend
	else
		fail diff_sig_legend "no legend line"
	fi
fi

# --html: the report page in its diff mode, one file loading nothing from elsewhere, with both
# profiles' call trees in its data.  In a headless browser it draws the new profile, hot_b
# (grown) red and hot_a (shrunk) blue; the function whose share changed most is the one
# perfev diff's table gives the largest delta, by as much; either profile alone shows the
# text report's totals of its file; search, zoom, keys, the sandwich view and the screenshot
# work as on the report page.
if [ -n "$rec_ok" ]; then
	run "$PERFEV" diff --html "$TMP/d.html" "$TMP/A.data" "$TMP/B.data"
	if expect_rc diff_html 0; then
		if [ -s "$TMP/out" ]; then
			fail diff_html "--html alone printed the table too"
		elif python3 tests/cli/oracle.py diff-data "$TMP/d.html" "$TMP/A.data" "$TMP/B.data" \
			>"$TMP/html.err" 2>&1 &&
			python3 tests/cli/oracle.py page-alone "$TMP/d.html" 60000 >"$TMP/html.err" 2>&1; then
			pass diff_html
		else
			fail diff_html "$(cat "$TMP/html.err")"
		fi
	fi
	run "$PERFEV" diff --stdio --html "$TMP/d2.html" "$TMP/A.data" "$TMP/B.data"
	if expect_rc diff_html_stdio 0 && grep -q 'hot_a' "$TMP/out" && cmp -s "$TMP/d.html" "$TMP/d2.html"; then
		pass diff_html_stdio
	else
		fail diff_html_stdio "--stdio --html: no table, or another page"
	fi
	"$PERFEV" diff "$TMP/A.data" "$TMP/B.data" >"$TMP/table.txt" 2>/dev/null
	if ! find_browser; then
		skip chromium diff_html_browser "chromium is not installed (make check installs it: sh scripts/deps.sh --test)"
	elif dom diff_html_browser "$TMP/d.html"; then
		if grep -q 'Uncaught' "$TMP/browser.err"; then
			fail diff_html_browser "the page's script failed: $(grep -m1 Uncaught "$TMP/browser.err")"
		elif [ "$(val diff)" != 1 ] || [ "$(val diff-view)" != 1 ] || [ "$(val select)" != "shown 3" ] ||
			[ "$(val up)" != hot_b ] || [ "$(val down)" != hot_a ] ||
			! val up-color | grep -q '^hsl(0,' || ! val down-color | grep -q '^hsl(215,' ||
			[ "$(val drawn)" -lt 5 ]; then
			fail diff_html_browser "summary: $(tr '\n' ' ' <"$TMP/page.txt" | head -c 600)"
		else
			pass diff_html_browser
		fi
		# The table's first row (sorted by the size of the change) and the summary agree with
		# perfev diff's table.
		if [ "$(val sort)" = absChange ] && [ "$(val top)" = "$(val top-change)" ] &&
			python3 tests/cli/oracle.py diff-top "$TMP/table.txt" "$(val top-change)" \
				"$(val top-change-pct)" >"$TMP/cmp.err" 2>&1; then
			pass diff_html_top
		else
			fail diff_html_top "sorted by '$(val sort)', first '$(val top)': $(cat "$TMP/cmp.err")"
		fi
		hot_b_total=$(val total.hot_b)
	fi
	# Each file's profile alone, with the normal colours: the text report's totals.
	for k in 0 1; do
		f=$TMP/A.data
		[ $k = 1 ] && f=$TMP/B.data
		[ -n "$browser" ] && dom diff_html_alone "$TMP/d.html#event=$k" || continue
		sums "$f" 1 >"$TMP/sums"
		read -r samples count <"$TMP/sums"
		if [ "$(val diff-view)" = 0 ] && [ "$samples" -gt 0 ] && [ "$(val total)" = "$samples" ] &&
			[ "$(val period)" = "$count" ]; then
			pass "diff_html_alone_$k"
		else
			fail "diff_html_alone_$k" "diff view $(val diff-view), $(val total) samples, count $(val period); perfev report -i $f: $samples, $count"
		fi
	done
	# Search and zoom in the diff view: hot_b's share of the new profile, as its table row.
	if [ -n "$browser" ] && [ -n "${hot_b_total:-}" ] && dom diff_html_search "$TMP/d.html#search=%5Ehot_b%24"; then
		got=$(val search-pct) view=$(val diff-view)
		if dom diff_html_search "$TMP/d.html#zoom=hot_b"; then
			if [ "$got" = "$hot_b_total" ] && [ "$(val zoom)" = hot_b ] &&
				[ "$(val zoom-pct)" = "$hot_b_total" ] && [ "$view$(val diff-view)" = 11 ]; then
				pass diff_html_search
			else
				fail diff_html_search "^hot_b\$ matched $got%, zoomed into '$(val zoom)' $(val zoom-pct)%; hot_b's total $hot_b_total% (diff view $view$(val diff-view))"
			fi
		fi
	fi
	# Keys (f: the flame graph, roots at the bottom; up: into the widest child, the command) and
	# the sandwich view.
	if [ -n "$browser" ] && dom diff_html_keys "$TMP/d.html#keys=f,ArrowUp&sandwich=main"; then
		if [ "$(val diff-view)" = 1 ] && [ "$(val view)" = flame ] &&
			[ "$(val zoom)" = diff-workload ] && [ "$(val sandwich)" = main ] &&
			[ "$(val sandwich-pct)" = "$(val total.main)" ]; then
			pass diff_html_keys
		else
			fail diff_html_keys "diff view $(val diff-view), view $(val view), zoomed into '$(val zoom)', sandwich of '$(val sandwich)' $(val sandwich-pct)% (main's total $(val total.main)%)"
		fi
	fi
	if [ -n "$browser" ]; then
		if page_shot "$TMP/d.html" "$TMP/shot.png"; then
			pass diff_html_screenshot
		else
			fail diff_html_screenshot "$(cat "$TMP/cmp.err")"
		fi
	fi
fi

# Errors, as perf's cases: a missing file, a file that is not perf.data, one file (the
# baseline is then perf.data.old), bad options.
run "$PERFEV" diff "$TMP/nope.data" "$TMP/nope2.data"
expect_rc diff_missing 1 && grep -q "cannot open the baseline '$TMP/nope.data': no such file" "$TMP/err" &&
	pass diff_missing || fail diff_missing "message: $(head -c 300 "$TMP/err")"
printf 'not a recording\n' >"$TMP/text.data"
if [ -n "$rec_ok" ]; then
	run "$PERFEV" diff "$TMP/A.data" "$TMP/text.data"
	expect_rc diff_not_perf_data 1 && grep -q "$TMP/text.data" "$TMP/err" &&
		pass diff_not_perf_data || fail diff_not_perf_data "message: $(head -c 300 "$TMP/err")"
	mkdir -p "$TMP/one"
	cp "$TMP/A.data" "$TMP/one/new.data"
	(cd "$TMP/one" && "$OLDPWD/$PERFEV" diff new.data >"$TMP/out" 2>"$TMP/err")
	rc=$?
	expect_rc diff_one_file 1 && grep -q "cannot open the baseline 'perf.data.old': no such file (give both files" "$TMP/err" &&
		pass diff_one_file || fail diff_one_file "message: $(head -c 300 "$TMP/err")"
	cp "$TMP/A.data" "$TMP/one/perf.data.old"
	(cd "$TMP/one" && "$OLDPWD/$PERFEV" diff --no-significance new.data >"$TMP/out" 2>"$TMP/err")
	rc=$?
	expect_rc diff_one_file_old 0 && grep -q '+0.00%' "$TMP/out" && pass diff_one_file_old ||
		fail diff_one_file_old "perfev diff NEW with perf.data.old: $(head -c 300 "$TMP/out")"
fi
for bad in "-c median" "-c wdiff:1" "-s srcfile" "--percentage some" "-o 5" "-t ."; do
	# shellcheck disable=SC2086
	run "$PERFEV" diff $bad "$TMP/A.data" "$TMP/B.data"
	n=diff_usage_$(printf '%s' "$bad" | tr -c 'a-z0-9' _)
	expect_rc "$n" 2 && [ -s "$TMP/err" ] && pass "$n"
done
run "$PERFEV" diff -h
expect_rc diff_help 0 && grep -q -- '--html' "$TMP/out" && grep -q -- '--compute' "$TMP/out" &&
	pass diff_help || fail diff_help "-h: $(head -c 200 "$TMP/out")"

exit $status
