# SPDX-License-Identifier: LGPL-2.1-or-later
# perf record's run and output options in perfev record: --strict-freq, --max-size,
# --mmap-flush, --synth, -B/--no-buildid, -N, --buildid-all, --inherit, -v, --all-cgroups,
# --switch-output; the host topology in the header.
. tests/cli/lib.sh

if ! "$PERFEV" record -q -o "$TMP/probe.data" -- true >"$TMP/probe.out" 2>&1; then
	case "$(cat "$TMP/probe.out")" in
	*"not permitted"*|*"not supported"*|*"Permission denied"*)
		skip sampling record_run "cannot sample here: $(head -c 200 "$TMP/probe.out")"
		finish
		;;
	esac
fi

# --strict-freq: a rate above perf_event_max_sample_rate fails instead of being lowered.
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
run "$PERFEV" record -q --strict-freq -F $((max + 1)) -o "$TMP/sf.data" -- true
if expect_rc strict_freq 1; then
	if grep -q "perf_event_max_sample_rate is $max Hz" "$TMP/err"; then
		pass strict_freq
	else
		fail strict_freq "no reason given: $(head -c 300 "$TMP/err")"
	fi
fi
run "$PERFEV" record -q -F $((max + 1)) -o "$TMP/sf.data" -- true
expect_rc freq_lowered_without_strict 0 && pass freq_lowered_without_strict

# --max-size: the session stops once the file is that large; the workload is ended (SIGTERM,
# so the exit status is 143, as perf's) and the file is whole.
cat >"$TMP/spin.sh" <<'SH'
end=$(($(date +%s) + 3))
while [ "$(date +%s)" -lt "$end" ]; do :; done
touch "$1"
SH
run "$PERFEV" record --max-size=8K -F 5000 -o "$TMP/ms.data" -- sh "$TMP/spin.sh" "$TMP/spin.done"
if expect_rc max_size 143; then
	if ! grep -q "size limit reached" "$TMP/err"; then
		fail max_size "no size limit message: $(head -c 300 "$TMP/err")"
	elif [ -e "$TMP/spin.done" ]; then
		fail max_size "the workload ran to its end: the session did not stop"
	elif ! "$PERFEV" script -i "$TMP/ms.data" >"$TMP/ms.txt" 2>"$TMP/ms.err" ||
		[ ! -s "$TMP/ms.txt" ]; then
		fail max_size "the file cannot be read: $(head -c 300 "$TMP/ms.err")"
	else
		pass "max_size ($(wc -l <"$TMP/ms.txt") samples, $(wc -c <"$TMP/ms.data") bytes)"
	fi
fi
for bad in 3X 0 "" -1 4MB; do
	run "$PERFEV" record --max-size="$bad" -o "$TMP/x.data" -- true
	expect_rc "max_size_bad_$bad" 2 && pass "max_size_bad '$bad'"
done

# --mmap-flush: rings read at wakeups only past the size, everything at the end.
run "$PERFEV" record -q --mmap-flush=64K -F 2000 -o "$TMP/mf.data" -- sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done'
if expect_rc mmap_flush 0; then
	n=$("$PERFEV" script -i "$TMP/mf.data" 2>/dev/null | wc -l)
	if [ "$n" -gt 0 ]; then pass "mmap_flush ($n samples)"; else fail mmap_flush "no samples"; fi
fi
run "$PERFEV" record --mmap-flush=lots -o "$TMP/x.data" -- true
expect_rc mmap_flush_bad 2 && pass mmap_flush_bad
# A flush size past what a ring holds is held to a quarter of it, as perf: the rings are still
# read while the command runs and nothing is lost.
spin2='i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'
# (32 pages: a quarter of a smaller ring fills in a few milliseconds at 20 kHz, which a stall
# of the machine alone can outlast.)
"$PERFEV" record -e task-clock -F 20000 -m 32 -o "$TMP/mf1.data" -- sh -c "$spin2" >/dev/null 2>"$TMP/mf1.err"
"$PERFEV" record -e task-clock -F 20000 -m 32 --mmap-flush=1G -o "$TMP/mf2.data" -- sh -c "$spin2" \
	>/dev/null 2>"$TMP/mf2.err"
a=$("$PERFEV" script -i "$TMP/mf1.data" 2>/dev/null | wc -l)
b=$("$PERFEV" script -i "$TMP/mf2.data" 2>/dev/null | wc -l)
if [ "$a" -gt 100 ] && [ $((b * 2)) -gt "$a" ] && grep -q " 0 lost" "$TMP/mf2.err"; then
	pass "mmap_flush_capped ($b samples with --mmap-flush=1G, $a without)"
else
	fail mmap_flush_capped "$b samples with --mmap-flush=1G, $a without: $(tail -c 300 "$TMP/mf2.err")"
fi

# --synth: a sleeping process given with -p is described (COMM, MMAP2) or not.
sleep 30 &
sp=$!
# Once the shell's child has exec'd sleep (its exec would be recorded otherwise); 60 s at most.
i=0
while [ "$(cat /proc/$sp/comm 2>/dev/null)" != sleep ] && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
synth_count() {
	"$PERFEV" script -i "$TMP/sy.data" --show-task-events --show-mmap-events 2>/dev/null |
		grep "PERF_RECORD_$1" | grep -c " $sp/$sp\|:$sp/$sp"
}
for m in no task mmap all; do
	run "$PERFEV" record -q --synth=$m -p $sp -o "$TMP/sy.data" -- sleep 0.1
	expect_rc "synth_$m" 0 || continue
	c=$(synth_count COMM) m2=$(synth_count MMAP2)
	case "$m:$c:$m2" in
	no:0:0 | task:1:0 | mmap:1:[1-9]* | all:1:[1-9]*) pass "synth_$m (comm $c, mmap2 $m2)" ;;
	*) fail "synth_$m" "COMM records $c, MMAP2 records $m2 of pid $sp" ;;
	esac
done
kill $sp 2>/dev/null
run "$PERFEV" record --synth=cgroupz -o "$TMP/x.data" -- true
expect_rc synth_bad 2 && pass synth_bad
for bad in "" "task," ",task" "task,,mmap"; do
	run "$PERFEV" record --synth="$bad" -o "$TMP/x.data" -- true
	expect_rc "synth_empty_item" 2 && pass "synth_empty_item '$bad'"
done

# -B: no build ids asked of the kernel and no BUILD_ID section (perf report says it is missing).
run "$PERFEV" record -q -B -v -o "$TMP/nb.data" -- true
if expect_rc no_buildid 0; then
	if grep -q "build_id" "$TMP/err"; then
		fail no_buildid "attr.build_id still set"
	elif command -v perf >/dev/null &&
		! perf report --header-only -i "$TMP/nb.data" 2>/dev/null | grep -q "missing features:.* BUILD_ID"; then
		fail no_buildid "perf finds a BUILD_ID section"
	else
		pass no_buildid
	fi
fi
for o in -N --no-buildid-cache --buildid-all --inherit; do
	run "$PERFEV" record -q "$o" -o "$TMP/x.data" -- true
	expect_rc "accepted $o" 0 && pass "accepted $o"
done
run "$PERFEV" record -q --inherit -i -o "$TMP/x.data" -- true
expect_rc inherit_conflict 2 && pass inherit_conflict

# --timestamp-filename over an existing file: the new recording is renamed once it is in
# place; a device written in place keeps its name.
: >"$TMP/ts.data"
run "$PERFEV" record -q --timestamp-filename -o "$TMP/ts.data" -- true
f=$(ls "$TMP"/ts.data.* 2>/dev/null | head -1)
if expect_rc timestamp_over_existing 0; then
	if [ -n "$f" ] && [ -s "$f" ] && [ ! -s "$TMP/ts.data" ] && "$PERFEV" script -i "$f" >/dev/null 2>&1; then
		pass timestamp_over_existing
	else
		fail timestamp_over_existing "renamed: '$f' ($(wc -c <"$f" 2>/dev/null) bytes)"
	fi
fi
if mknod "$TMP/dev" c 1 3 2>/dev/null; then
	run "$PERFEV" record -q --timestamp-filename -o "$TMP/dev" -- true
	if [ -c "$TMP/dev" ] && [ -z "$(ls "$TMP"/dev.* 2>/dev/null)" ] && grep -q "not a regular file" "$TMP/err"; then
		pass timestamp_device_kept
	else
		fail timestamp_device_kept "$(ls -la "$TMP"/dev*) $(head -c 200 "$TMP/err")"
	fi
	run "$PERFEV" record -q --switch-output=1K -o "$TMP/dev" -- true
	expect_rc switch_output_device 2 && pass switch_output_device
else
	skip mknod timestamp_device_kept "mknod is not permitted here"
fi

# --all-cgroups: the cgroup of each sample and a CGROUP record naming each cgroup; perf's report
# by cgroup of perfev's file names the cgroup the workload ran in.
cgroot=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
if ! command -v perf >/dev/null; then
	skip perf all_cgroups "perf is not installed: it reads the cgroups of perfev's file"
elif [ -z "$cgroot" ] || ! mkdir "$cgroot/perfev-test-$$" 2>"$TMP/cg.err"; then
	skip cgroups all_cgroups "cannot make a cgroup2 cgroup here: $(cat "$TMP/cg.err" 2>/dev/null)"
else
	cg="$cgroot/perfev-test-$$"
	run "$PERFEV" record -q --all-cgroups -o "$TMP/cg.data" -- \
		sh -c "echo \$\$ >$cg/cgroup.procs && i=0 && while [ \$i -lt 100000 ]; do i=\$((i+1)); done"
	if expect_rc all_cgroups 0; then
		perf report --stdio --sort cgroup -i "$TMP/cg.data" 2>/dev/null | grep -v '^#' | grep . >"$TMP/cg.txt"
		if awk -v c="/perfev-test-$$" '$2 == c && $1 + 0 > 90 { ok = 1 } END { exit !ok }' "$TMP/cg.txt" &&
			perf evlist -v -i "$TMP/cg.data" 2>/dev/null | grep -q "sample_type: [A-Z|]*CGROUP.*cgroup: 1"; then
			pass all_cgroups
		else
			fail all_cgroups "perf's report by cgroup: $(head -c 300 "$TMP/cg.txt")"
		fi
	fi
	rmdir "$cg" 2>/dev/null
fi

# --switch-output: a new file past a size, on SIGUSR2 or every TIME; each one complete, named
# by its time, its tasks described again so that its samples resolve.
pv=$(cd "$(dirname "$PERFEV")" && pwd)/${PERFEV##*/}
mkdir "$TMP/sw" && cd "$TMP/sw" || exit 1
run "$pv" record --switch-output=40K -F 10000 -- sh -c 'i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done'
if expect_rc switch_output_size 0; then
	n=0 bad=
	total=$(sed -n 's/.* \([0-9]*\) samples written to .*/\1/p' "$TMP/err")
	sum=0
	for f in perf.data.*; do
		"$pv" script -F comm,ip,dso -i "$f" >"$TMP/sw.txt" 2>"$TMP/sw.err" || bad="$bad $f(unreadable)"
		c=$(wc -l <"$TMP/sw.txt")
		sum=$((sum + c))
		# Every sample is the shell's, in a file the new file's maps name.
		u=$(awk '$1 != "sh" || $3 == "([unknown])"' "$TMP/sw.txt" | wc -l)
		# The last file may be empty: the switch came just before the command ended.
		[ "$c" -gt 0 ] && n=$((n + 1))
		[ "$u" -eq 0 ] || bad="$bad $f($c samples, $u unresolved)"
	done
	if [ "$n" -lt 2 ]; then
		fail switch_output_size "$n file(s) with samples: $(ls)"
	elif [ -n "$bad" ]; then
		fail switch_output_size "files whose samples do not resolve:$bad"
	elif [ "$sum" != "$total" ]; then
		fail switch_output_size "$sum samples in the files, $total said"
	else
		pass "switch_output_size ($n files, $sum samples)"
	fi
fi
rm -f perf.data.*
"$pv" record -q --switch-output --switch-max-files=2 -F 1000 -- sleep 1.5 2>"$TMP/sig.err" &
rp=$!
# Until it handles its signals (its signalfd exists; 30 s at most): a SIGUSR2 before that
# would end it, however loaded the machine.
i=0
while ! ls -l "/proc/$rp/fd" 2>/dev/null | grep -q signalfd && kill -0 $rp 2>/dev/null &&
	[ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
for i in 1 2 3; do
	kill -USR2 $rp
	sleep 0.2
done
wait $rp
n=$(ls perf.data.* 2>/dev/null | wc -l)
if [ "$n" -eq 2 ]; then
	pass "switch_output_signal_max_files (4 files written, newest 2 kept)"
else
	fail switch_output_signal_max_files "$n files kept, 2 expected: $(ls) $(head -c 300 "$TMP/sig.err")"
fi
rm -f perf.data.*
run "$pv" record -q --switch-output=1s -F 1000 -o t.data -- sleep 2.5
n=$(ls t.data.* 2>/dev/null | wc -l)
if expect_rc switch_output_time 0; then
	if [ "$n" -ge 2 ] && [ ! -e t.data ]; then pass "switch_output_time ($n files)"; else fail switch_output_time "$(ls)"; fi
fi
cd - >/dev/null || exit 1
for bad in 5x 0s 0K "--switch-output -o -" "--switch-max-files=3" "--switch-output=1s --overwrite"; do
	case $bad in -*) args=$bad ;; *) args="--switch-output=$bad" ;; esac
	case $bad in *"-o -"*) ;; *) args="$args -o $TMP/x.data" ;; esac
	# shellcheck disable=SC2086
	run "$PERFEV" record -q $args -- true
	expect_rc "switch_output_bad $bad" 2 && pass "switch_output_bad '$bad'"
done

# The host's topology in the header (CPU_TOPOLOGY, NUMA_TOPOLOGY, PMU_MAPPINGS, CACHE,
# MEM_TOPOLOGY): the same bytes as perf writes on this machine (free memory aside).
if command -v perf >/dev/null; then
	perf record -q -o "$TMP/ptopo.data" -- true >/dev/null 2>&1
	"$PERFEV" record -q -o "$TMP/otopo.data" -- true >/dev/null 2>&1
	if python3 tests/cli/oracle.py feat-cmp "$TMP/ptopo.data" "$TMP/otopo.data" 13 14 16 20 22 >"$TMP/feat.out"; then
		pass "topology_features: $(cat "$TMP/feat.out")"
	else
		fail topology_features "$(cat "$TMP/feat.out")"
	fi
else
	skip perf topology_features "perf is not installed: its file is the reference"
fi

# Two events in one ring: the reader is woken through whichever of the ring's events the
# kernel tells it by, the one that writes into another's ring too.  Stack copies at 1000 Hz
# fill a 256 KiB ring (about 30 samples) many times over in a second: perfev keeps as many
# samples as perf record on the same command (at least half: the machine is shared), where
# a reader that slept until the end kept one ring's worth.
W=${PERFEV_BUILD:-build}/bench/report-workload
have_perf61
if [ -z "$have_perf" ]; then
	skip perf two_events_one_ring "$why_no_perf"
elif ! perf_rec -q -e cpu-clock -e task-clock --call-graph dwarf -F 1000 -m 256K \
	-o "$TMP/pr.data" -- "$W" 1000 >/dev/null 2>&1; then
	skip perf two_events_one_ring "perf record --call-graph dwarf fails here"
else
	run "$PERFEV" record -q -e cpu-clock -e task-clock --call-graph dwarf -F 1000 -m 256K \
		-o "$TMP/pv.data" -- "$W" 1000
	if expect_rc two_events_one_ring 0; then
		np=$(perf script -F event -i "$TMP/pr.data" 2>/dev/null | wc -l)
		nv=$(perf script -F event -i "$TMP/pv.data" 2>/dev/null | wc -l)
		if [ "$np" -gt 100 ] && [ $((nv * 2)) -ge "$np" ]; then
			pass two_events_one_ring
		else
			fail two_events_one_ring "perf record kept $np samples, perfev record $nv"
		fi
	fi
fi

# Under nohup (SIGHUP ignored when it starts) SIGHUP stays ignored, as perf leaves it: the
# command keeps its nohup, and the recording goes on to the command's end.
rm -f "$TMP/sh.pid"
env --ignore-signal=HUP "$PERFEV" record -q -o "$TMP/hup.data" -- sh -c \
	'sed -n "s/^SigIgn:\t//p" /proc/self/status; echo $$ >"$1/sh.pid"; sleep 1
	exec awk "BEGIN { for (i = 0; i < 2000000; i++) n += i }"' sh "$TMP" \
	>"$TMP/out" 2>"$TMP/err" &
rp=$!
wait_file "$TMP/sh.pid"
kill -HUP $rp
wait $rp
rc=$?
if expect_rc nohup_HUP 0; then
	if ! ignores_hup nohup_HUP "$(head -1 "$TMP/out")"; then
		:
	elif ! "$PERFEV" script -F comm -i "$TMP/hup.data" >"$TMP/hup.txt" 2>"$TMP/err" ||
		! grep -q awk "$TMP/hup.txt"; then
		fail nohup_HUP "no samples of the command after the SIGHUP: $(head -c 300 "$TMP/err")"
	else
		pass nohup_HUP
	fi
fi

# -v: the attr of each event as opened, perf -vv's fields.
run "$PERFEV" record -q -v -e task-clock -o "$TMP/v.data" -- true
if expect_rc verbose 0; then
	if grep -q "^event 'task-clock':" "$TMP/err" && grep -Eq "^  sample_type +IP\|TID\|TIME\|PERIOD" "$TMP/err" &&
		grep -Eq "^  config +0x1$" "$TMP/err"; then
		pass verbose
	else
		fail verbose "attr not shown: $(head -c 400 "$TMP/err")"
	fi
fi
finish
