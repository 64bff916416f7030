# SPDX-License-Identifier: LGPL-2.1-or-later
# perfev script and report (every export) under ASan+UBSan over a few hundred damaged perf.data files.
. tests/cli/lib.sh

B=${PERFEV_BUILD:-build}
SAN=$B/san/perfev
W=$B/examples/workload
if [ ! -x "$SAN" ]; then
	fail hostile "'$SAN' is not built: make check builds it (or make $SAN)"
	exit 1
fi
t0=$(date +%s)

# The seeds: recordings of a short workload by perfev and perf (call chains, two events,
# DWARF stacks, compressed, pipe mode), and files the tests synthesize (branch stacks,
# weights, data sources, registers, groups, old attr sizes, tracepoints, compressed streams).
S=$TMP/seeds
mkdir -p "$S"
rec() {
	out=$1
	shift
	"$@" >"$TMP/rec.out" 2>"$TMP/rec.err" ||
		fail "hostile_seed_${out##*/}" "cannot record: $(head -c 300 "$TMP/rec.err")"
}
rec "$S/perfev-g2.data" "$PERFEV" record -q -g -e task-clock,page-faults -o "$S/perfev-g2.data" \
	-- "$W" 2000000 16
rec "$S/perfev-dwarf.data" "$PERFEV" record -q --call-graph dwarf,512 -F 1000 \
	-o "$S/perfev-dwarf.data" -- "$W" 2000000 16
rec "$S/perfev-z.data" "$PERFEV" record -q -z -g -o "$S/perfev-z.data" -- "$W" 2000000 16
"$PERFEV" record -q -g -o - -- "$W" 2000000 16 >"$S/perfev.pipe" 2>"$TMP/rec.err" ||
	fail hostile_seed_perfev.pipe "cannot record: $(head -c 300 "$TMP/rec.err")"
have_perf61
if [ -n "$have_perf" ]; then
	rec "$S/perf-g2.data" perf_rec -q -g -e task-clock,page-faults -o "$S/perf-g2.data" \
		-- "$W" 2000000 16
	rm -f "$S"/*.old # what a failed try left, renamed by the next
	perf record -q -e task-clock -o - -- "$W" 2000000 16 >"$S/perf.pipe" 2>"$TMP/rec.err" ||
		fail hostile_seed_perf.pipe "cannot record: $(head -c 300 "$TMP/rec.err")"
else
	echo "no seeds recorded by perf: $why_no_perf"
fi
for f in perf-callgraph.data perf-clock.data perf-group.data perf-tracepoint-trimmed.data \
	perf-tracepoint-trimmed.pipe perf-two.pipe ok-compressed.pipe syn-attr136.data \
	syn-features.data syn-old72.data syn-unknown-records.data; do
	cp "fuzz/corpus/perfdata/$f" "$S/"
done
WL=$(ldd "$W" | awk '$1 ~ /^libc\.so/ { print $3 }')
A1=$(nm --defined-only "$W" | awk '$2 ~ /^[tT]$/ { printf "%s%s", s, $1; s = "," }' | cut -d, -f1-4)
A2=$(nm -D --defined-only "$WL" | awk '$2 == "T" && $3 ~ /^(strlen|free)@/ { printf "%s%s", s, $1; s = "," }')
for k in branch mem sread; do
	"$B/bench/perfdata-synth" $k "$S/synth-$k.data" "$PWD/$W" "$A1" "$WL" "$A2" 2>"$TMP/err" ||
		fail "hostile_seed_synth-$k" "cannot write: $(head -c 300 "$TMP/err")"
done
python3 tests/cli/synth-data.py "$S/synth-hw.data" "$W" hw 2>"$TMP/err" ||
	fail hostile_seed_synth-hw "cannot write: $(head -c 300 "$TMP/err")"
chmod 644 "$S"/*

D=$TMP/damaged
python3 tests/cli/hostile.py gen "$D" "$S"/* || fail hostile_gen "cannot write the damaged files"
python3 tests/cli/hostile.py run "$SAN" "$PERFEV" "$S" "$D" || status=1
echo "took $(($(date +%s) - t0)) s in all"
exit $status
