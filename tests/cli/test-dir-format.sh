# SPDX-License-Identifier: LGPL-2.1-or-later
# perf's directory format (perf record --threads: a header file "data" and a data.N per
# recording thread): perfev script and report read it as perf does; damaged or planted
# directories are refused with a reason.
. tests/cli/lib.sh

have_perf61
if [ -z "$have_perf" ]; then
	skip perf dir_format "$why_no_perf"
	finish
fi
if ! perf record -q -N --threads -o "$TMP/d.data" -- sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done' \
	>/dev/null 2>"$TMP/perf.err"; then
	case "$(cat "$TMP/perf.err")" in
	*"not permitted"*|*"not supported"*|*"Permission denied"*)
		skip sampling dir_format "perf cannot sample here: $(head -c 200 "$TMP/perf.err")"
		finish
		;;
	esac
	fail dir_format "perf record --threads failed: $(head -c 300 "$TMP/perf.err")"
	finish
fi
if [ ! -f "$TMP/d.data/data" ] || [ -z "$(ls "$TMP"/d.data/data.* 2>/dev/null)" ]; then
	fail dir_format "perf wrote no directory: $(ls -la "$TMP/d.data")"
	finish
fi

perf script -i "$TMP/d.data" >"$TMP/perf.txt" 2>/dev/null
run "$PERFEV" script -i "$TMP/d.data"
if expect_rc dir_script 0; then
	if [ ! -s "$TMP/perf.txt" ]; then
		fail dir_script "perf script printed nothing"
	elif cmp -s "$TMP/perf.txt" "$TMP/out"; then
		pass "dir_script ($(wc -l <"$TMP/out") samples, as perf script)"
	else
		fail dir_script "$(diff "$TMP/perf.txt" "$TMP/out" | head -5)"
	fi
fi
run "$PERFEV" report -i "$TMP/d.data" --stdio --sort comm,dso
if expect_rc dir_report 0; then
	perf report -i "$TMP/d.data" --stdio --sort comm,dso 2>/dev/null | grep -v '^#' | grep . >"$TMP/pr.txt"
	grep -v '^#' "$TMP/out" | grep . >"$TMP/or.txt"
	if cmp -s "$TMP/pr.txt" "$TMP/or.txt"; then
		pass dir_report
	else
		fail dir_report "$(diff "$TMP/pr.txt" "$TMP/or.txt" | head -5)"
	fi
fi

# A data.N planted as a link is not followed; a directory with no "data" is not perf's;
# a cut data.N stops with what came before it.
cp -r "$TMP/d.data" "$TMP/l.data"
last=$(ls "$TMP"/l.data/data.* | tail -1)
rm "$last" && ln -s /etc/passwd "$last"
run "$PERFEV" script -i "$TMP/l.data"
if [ "$rc" -eq 1 ] && grep -q "is a symbolic link, which perfev does not follow" "$TMP/err"; then
	pass dir_planted_link
else
	fail dir_planted_link "exit $rc: $(head -c 300 "$TMP/err")"; fi
mkdir "$TMP/empty.data"
run "$PERFEV" script -i "$TMP/empty.data"
if [ "$rc" -eq 1 ] && grep -q "without a 'data' file" "$TMP/err"; then pass dir_not_perf; else
	fail dir_not_perf "exit $rc: $(head -c 300 "$TMP/err")"; fi
cp -r "$TMP/d.data" "$TMP/c.data"
big=$(ls -S "$TMP"/c.data/data.* | head -1)
head -c "$(($(wc -c <"$big") / 2 + 3))" "$big" >"$TMP/cut" && cp "$TMP/cut" "$big"
run "$PERFEV" script -i "$TMP/c.data"
if [ "$rc" -eq 1 ] && [ -s "$TMP/out" ] && grep -q "corrupt or truncated" "$TMP/err"; then
	pass "dir_cut ($(wc -l <"$TMP/out") samples before the cut)"
else
	fail dir_cut "exit $rc, $(wc -l <"$TMP/out") lines: $(head -c 300 "$TMP/err")"
fi
finish
