# SPDX-License-Identifier: LGPL-2.1-or-later
# perfev report --pprof as a backend reads it: build ids, the main binary first, value types, labels, raw addresses.
. tests/cli/lib.sh

W=${PERFEV_BUILD:-build}/examples/workload

# A stripped copy of the workload: nothing to symbolize it with here.
cp "$W" "$TMP/stripped" && strip -s "$TMP/stripped"
bid=$(readelf -n "$TMP/stripped" 2>/dev/null | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p')

if [ -z "$bid" ]; then
	skip readelf pprof_build_id "the workload has no build id to check (readelf -n shows none)"
elif ! "$PERFEV" record -q -e cpu-clock -F 999 -o "$TMP/s.data" -- "$TMP/stripped" 100000000 >/dev/null 2>"$TMP/err"; then
	fail pprof_build_id "perfev record failed: $(head -c 300 "$TMP/err")"
else
	run "$PERFEV" report -i "$TMP/s.data" --pprof "$TMP/s.pb.gz"
	expect_rc pprof_build_id 0
	if ! command -v protoc >/dev/null 2>&1; then
		skip protoc pprof_build_id "protoc is not installed (Debian: protobuf-compiler) to decode the output"
	elif gunzip -c "$TMP/s.pb.gz" | protoc --decode perftools.profiles.Profile -I proto \
		proto/profile.proto >"$TMP/pb.txt" 2>"$TMP/err" &&
		python3 tests/cli/oracle.py pprof-check "$TMP/pb.txt" "$TMP/stripped" "$bid" \
			>"$TMP/cmp.err" 2>&1; then
		pass pprof_build_id
	else
		fail pprof_build_id "$(cat "$TMP/err" "$TMP/cmp.err" | head -c 600)"
	fi
	# go tool pprof, as the backends' own library reads it.
	if ! command -v go >/dev/null 2>&1; then
		skip go pprof_go_raw "go is not installed (Debian: golang-go) to run go tool pprof"
	elif ! HOME=$TMP GOCACHE=$TMP/go go tool pprof -raw "$TMP/s.pb.gz" >"$TMP/raw" 2>"$TMP/err"; then
		fail pprof_go_raw "go tool pprof -raw failed: $(head -c 300 "$TMP/err")"
	elif grep -q '^PeriodType: cpu nanoseconds' "$TMP/raw" &&
		grep -q '^samples/count cpu/nanoseconds' "$TMP/raw" &&
		sed -n '/^Mappings/{n;p;}' "$TMP/raw" | grep -q "$TMP/stripped $bid" &&
		grep -q "comm:\[stripped\]" "$TMP/raw"; then
		pass pprof_go_raw
	else
		fail pprof_go_raw "no cpu/nanoseconds types, first mapping with build id $bid or comm label: $(head -c 800 "$TMP/raw")"
	fi
	if command -v go >/dev/null 2>&1; then
		if HOME=$TMP GOCACHE=$TMP/go go tool pprof -top "$TMP/s.pb.gz" >"$TMP/top" 2>"$TMP/err" &&
			grep -q '^Type: cpu' "$TMP/top"; then
			pass pprof_go_top
		else
			fail pprof_go_top "$(head -c 400 "$TMP/err" "$TMP/top")"
		fi
	fi
fi

# recorded NAME WHAT ARGS...: perfev record -q ARGS; when that
# fails, NAME is skipped if WHAT is not permitted here, else failed.
recorded() {
	name=$1 what=$2
	shift 2
	"$PERFEV" record -q "$@" >/dev/null 2>"$TMP/err" && return
	if grep -qi 'permi\|paranoid' "$TMP/err"; then
		skip perm "$name" "perfev record $what is not permitted: $(head -c 200 "$TMP/err")"
	else
		fail "$name" "perfev record $what failed: $(head -c 300 "$TMP/err")"
	fi
	return 1
}

# -a: samples carry the CPU they were taken on.
if ! command -v go >/dev/null 2>&1; then
	skip go pprof_cpu_label "go is not installed (Debian: golang-go) to run go tool pprof"
elif recorded pprof_cpu_label -a -a -e cpu-clock -F 499 -o "$TMP/a.data" -- "$W" 50000000; then
	run "$PERFEV" report -i "$TMP/a.data" --pprof "$TMP/a.pb.gz"
	if expect_rc pprof_cpu_label 0 &&
		HOME=$TMP GOCACHE=$TMP/go go tool pprof -raw "$TMP/a.pb.gz" >"$TMP/raw" 2>"$TMP/err" &&
		grep -q 'cpu:\[[0-9]* cpu\]' "$TMP/raw"; then
		pass pprof_cpu_label
	else
		fail pprof_cpu_label "no cpu label: $(cat "$TMP/err" "$TMP/raw" | head -c 600)"
	fi
fi

# CPU 0 is a label like any other: pprof's readers drop a zero that has no unit.
if ! command -v go >/dev/null 2>&1; then
	skip go pprof_label_zero "go is not installed (Debian: golang-go) to run go tool pprof"
elif ! command -v taskset >/dev/null 2>&1; then
	skip taskset pprof_label_zero "taskset is not installed (Debian: util-linux) to keep the workload on CPU 0"
elif recorded pprof_label_zero "-C 0" -C 0 -e cpu-clock -F 999 -o "$TMP/z.data" -- \
	taskset -c 0 "$W" 50000000; then
	run "$PERFEV" report -i "$TMP/z.data" --pprof "$TMP/z.pb.gz"
	if expect_rc pprof_label_zero 0 &&
		HOME=$TMP GOCACHE=$TMP/go go tool pprof -raw "$TMP/z.pb.gz" >"$TMP/raw" 2>"$TMP/err"; then
		# Every sample (a line of counts) has its cpu:[0 cpu] line.
		nsmp=$(sed -n '/^Samples:/,/^Locations/p' "$TMP/raw" | grep -c '^ *[0-9][0-9]* *[0-9][0-9]*:')
		ncpu=$(grep -c 'cpu:\[0 cpu\]' "$TMP/raw")
		if [ "$nsmp" -gt 0 ] && [ "$nsmp" = "$ncpu" ] &&
			HOME=$TMP GOCACHE=$TMP/go go tool pprof -tagfocus=cpu=0 -top "$TMP/z.pb.gz" 2>&1 |
			grep -q ' spin\b'; then
			pass pprof_label_zero
		else
			fail pprof_label_zero "$nsmp samples, $ncpu with cpu:[0 cpu]: $(head -c 800 "$TMP/raw")"
		fi
	else
		fail pprof_label_zero "go tool pprof -raw failed: $(head -c 300 "$TMP/err")"
	fi
fi

# No samples (a window of --push where the workload ended at once): the event's types are still
# there, which pprof's readers need to take the file at all.
if recorded pprof_empty "-c 1e12" -e cpu-clock -c 1000000000000 -o "$TMP/e.data" -- true; then
	run "$PERFEV" report -i "$TMP/e.data" --pprof "$TMP/e.pb.gz"
	if ! expect_rc pprof_empty 0; then
		:
	elif ! command -v go >/dev/null 2>&1; then
		skip go pprof_empty "go is not installed (Debian: golang-go) to run go tool pprof"
	elif HOME=$TMP GOCACHE=$TMP/go go tool pprof -raw "$TMP/e.pb.gz" >"$TMP/raw" 2>"$TMP/err" &&
		grep -q '^PeriodType: cpu nanoseconds' "$TMP/raw" &&
		grep -q '^samples/count cpu/nanoseconds' "$TMP/raw"; then
		pass pprof_empty
	else
		fail pprof_empty "$(cat "$TMP/err" "$TMP/raw" | head -c 400)"
	fi
fi

finish
