# SPDX-License-Identifier: LGPL-2.1-or-later
# Helpers for CLI tests: each case prints PASS/FAIL/SKIP like the C harness.
# Sourced by tests/cli/test-*.sh; $PERFEV is the binary under test.

PERFEV=${PERFEV:-build/perfev}
DATA=${PERFEV_TEST_DATA:-tests/data}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/perfev-test.XXXXXX")
mounts=
trap 'for m in $mounts; do umount "$m"; done; rm -rf "$TMP"' EXIT
status=0

pass() { printf 'PASS %s\n' "$1"; }
fail() { printf 'FAIL %s: %s\n' "$1" "$2"; status=1; }

# skip FEATURE NAME REASON: a FAIL instead when PERFEV_TEST_REQUIRE lists FEATURE.
skip() {
	case ",${PERFEV_TEST_REQUIRE:-}," in
	*",$1,"*|*",all,"*) fail "$2" "feature '$1' is required but missing: $3" ;;
	*) printf 'SKIP %s: %s\n' "$2" "$3" ;;
	esac
}

# run CMD...: stdout in $TMP/out, stderr in $TMP/err, exit status in $rc.
run() {
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
}

# expect_rc NAME WANT: check $rc, report stderr on mismatch.
expect_rc() {
	if [ "$rc" -eq "$2" ]; then
		return 0
	fi
	fail "$1" "exit status $rc, expected $2; stderr: $(head -c 300 "$TMP/err")"
	return 1
}

# json_ok FILE: a real JSON parser accepts it.
json_ok() {
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" 2>"$TMP/json-err"
}

# have_perf61: $have_perf is 1 when perf 6.1, the version outputs are compared with, is here;
# else empty, with the reason in $why_no_perf.
have_perf61() {
	have_perf=
	why_no_perf="perf is not installed"
	if command -v perf >/dev/null 2>&1; then
		case "$(perf version 2>/dev/null)" in
		"perf version 6.1."*) have_perf=1 ;;
		*) why_no_perf="the output is compared with perf 6.1, this is '$(perf version 2>/dev/null)'" ;;
		esac
	fi
}

# perf_rec ARGS...: perf record ARGS, tried up to three times: perf 6.1 sometimes fails an
# assertion in its build-id code when other recordings run at once.
perf_rec() {
	perf record "$@" && return 0
	perf record "$@" && return 0
	perf record "$@"
}

# perf_stale FILE: FILE, recorded by perf without --buildid-mmap, holds MMAP2 records marked
# as carrying a build id (misc 0x4002), device and inode in its place: Linux marks every
# session's records so while another session asks for build ids system-wide (perfev record
# -a, perf record --buildid-mmap -a, on this machine or in a test), and perf 6.1 misreads
# them (an assertion in util/build-id.c).  perf record's build-id pass aborts on such a file
# (perf_rec tries again); a stream (-o -) or -B has no such pass, hence this check.
perf_stale() {
	"$PERFEV" script -D -i "$1" 2>/dev/null | grep -q '^\.  0000:  0a 00 00 00 02 40'
}

# perf_fresh FILE ARGS...: perf record -o FILE ARGS (stderr in $TMP/perf.err), made again
# while it fails or the file has stale build-id bits (five tries over some 10 s, for the other
# session to end): with -z perf's build-id pass does not stop on them.
perf_fresh() {
	pf=$1
	shift
	for try in 1 2 3 4 5; do
		perf record -o "$pf" "$@" 2>"$TMP/perf.err" && ! perf_stale "$pf" && return 0
		sleep $try
	done
	perf_stale "$pf" &&
		echo "five files with the build-id bits of another session asking for build ids" >"$TMP/perf.err"
	return 1
}

# perf_pipe FILE ARGS...: perf record -o - ARGS into FILE (stderr in $TMP/perf.err), made
# again while the stream has stale build-id bits (five tries over some 10 s).
perf_pipe() {
	pf=$1
	shift
	for try in 1 2 3 4 5; do
		perf record -o - "$@" >"$pf" 2>"$TMP/perf.err" || return 1
		perf_stale "$pf" || return 0
		sleep $try
	done
	echo "five streams with the build-id bits of another session asking for build ids" >"$TMP/perf.err"
	return 1
}

# perf_same NAME FILE ARGS...: perf script and perfev script print the same lines with ARGS
# (perf's in $TMP/perf.txt, perfev's in $TMP/out); fails NAME and returns 1 where not.
perf_same() {
	name=$1 file=$2
	shift 2
	perf script -i "$file" "$@" >"$TMP/perf.txt" 2>"$TMP/perf.err"
	run "$PERFEV" script -i "$file" "$@"
	expect_rc "$name" 0 || return 1
	if ! python3 tests/cli/oracle.py same "$TMP/perf.txt" "$TMP/out" >"$TMP/cmp.err" 2>&1; then
		fail "$name" "$(head -c 800 "$TMP/cmp.err")"
		return 1
	fi
}

# small_fs DIR SIZE: a tmpfs of SIZE on DIR, unmounted at exit; fails where mount is not permitted.
small_fs() {
	mkdir -p "$1" && mount -t tmpfs -o "size=$2" tmpfs "$1" 2>/dev/null || return 1
	mounts="$mounts $1"
}

# ext4_fs DIR: a small ext4 filesystem (an image mounted through a loop device) on DIR,
# unmounted at exit; fails where mkfs.ext4 is missing or mount is not permitted.
ext4_fs() {
	command -v mkfs.ext4 >/dev/null 2>&1 && mkdir -p "$1" && truncate -s 8M "$1.img" &&
		mkfs.ext4 -q -F "$1.img" >/dev/null 2>&1 && mount -o loop "$1.img" "$1" 2>/dev/null ||
		return 1
	mounts="$mounts $1"
}

# python3 -c "$SHUT_FS" DIR: every later write to the ext4 filesystem on DIR fails with
# EIO, as on a failing disk (EXT4_IOC_SHUTDOWN, without flushing the journal).
SHUT_FS='import fcntl, os, struct, sys
fcntl.ioctl(os.open(sys.argv[1], os.O_RDONLY), 0x8004587D, struct.pack("I", 2))'

# fill_fs DIR: fill the filesystem of DIR to the last byte.
fill_fs() {
	dd if=/dev/zero of="$1/.fill" bs=4096 2>/dev/null
	dd if=/dev/zero of="$1/.fill-tail" bs=1 2>/dev/null
	return 0
}

# hide_lib NAME PATTERN: $hidden_lib set to the 64-bit library ldconfig lists for the awk
# regular expression PATTERN, for the test to hide it by a bind mount in a mount namespace of
# its own (unshare -m); else test NAME skipped with the reason, and false.
hide_lib() {
	hidden_lib=$(ldconfig -p 2>/dev/null | awk "/$2 .*x86-64/ {print \$NF; exit}")
	if [ -z "$hidden_lib" ]; then
		skip library "$1" "ldconfig lists no 64-bit library matching $2"
		return 1
	fi
	if ! unshare -m true 2>/dev/null; then
		skip mount_ns "$1" "unshare -m is not permitted here (needs root)"
		return 1
	fi
}

finish() {
	exit $status
}

# wait_file FILE: until FILE is there and not empty (a pid a command writes), 60 s at most.
wait_file() {
	i=0
	while [ ! -s "$1" ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# ignores_hup NAME MASK: fail NAME unless MASK (SigIgn of /proc/PID/status, hex) has SIGHUP.
ignores_hup() {
	[ -n "$2" ] && [ $((0x$2 & 1)) -eq 1 ] && return 0
	fail "$1" "the command does not ignore SIGHUP (SigIgn ${2:-unknown})"
	return 1
}

# need_perf_sampling NAME: end the test with a SKIP unless perf 6.1 is here and perfev can
# sample here (a permission or a missing feature).
need_perf_sampling() {
	have_perf61
	if [ -z "$have_perf" ]; then
		skip perf "${1}_vs_perf" "$why_no_perf"
		finish
	fi
	if ! "$PERFEV" record -q -o "$TMP/probe.data" -- true >"$TMP/probe.out" 2>&1; then
		case "$(cat "$TMP/probe.out")" in
		*"not permitted"*|*"not supported"*|*"Permission denied"*)
			skip sampling "$1" "cannot sample here: $(head -c 200 "$TMP/probe.out")"
			finish
			;;
		esac
	fi
}

# The pages of report --html and diff --html in a headless browser.
# find_browser: $browser is the chromium to run them in, or empty.
find_browser() {
	browser=
	for b in chromium chromium-browser google-chrome; do
		command -v "$b" >/dev/null 2>&1 && browser=$b && return 0
	done
	return 1
}

# dom NAME FILE[#HASH]: the page's state after its script ran (oracle.py page-state) in
# $TMP/page.txt, read by val; fails NAME and returns 1 where the browser or the script failed
# or the page wrote on the console.
dom() {
	if ! "$browser" --headless=new --no-sandbox --disable-gpu --user-data-dir="$TMP/browser" \
		--enable-logging=stderr --v=0 --window-size="${DOM_WINDOW:-1280,900}" \
		--dump-dom "file://$2" >"$TMP/dom.html" 2>"$TMP/browser.err" ||
		[ ! -s "$TMP/dom.html" ]; then
		fail "$1" "$browser --dump-dom failed: $(tail -c 300 "$TMP/browser.err")"
		return 1
	fi
	python3 tests/cli/oracle.py page-state "$TMP/dom.html" >"$TMP/page.txt"
	if [ "$(val ready)" != 1 ] || [ -n "$(val error)" ]; then
		fail "$1" "the page's script failed: $(val error)"
		return 1
	fi
	# The page writes nothing on the console: no error, no warning, no log.
	if grep -q ':CONSOLE' "$TMP/browser.err"; then
		fail "$1" "the page wrote on the console: $(grep -m 3 ':CONSOLE' "$TMP/browser.err" | cut -c 1-300)"
		return 1
	fi
}

# sums FILE SECTION: the samples (the -n column's sum) and event count of event SECTION
# (1-based) in perfev report's text, which the page's totals are checked against.
sums() {
	"$PERFEV" report -i "$1" --stdio --no-children -n --sort comm 2>/dev/null | awk -v want="$2" '
		/^# Samples:/ { sec++ }
		sec == want && /^# Event count/ { count = $NF }
		sec == want && !/^#/ && /%/ { n += $2 }
		END { print n + 0, count + 0 }'
}

# val KEY: KEY's value in the state dom() read.
val() {
	sed -n "s/^$1=//p" "$TMP/page.txt" | head -n 1
}

# page_shot FILE[#HASH] PNG: a 1280x900 screenshot of the page, of many colours
# (oracle.py png-colours); the reason in $TMP/cmp.err where not.
page_shot() {
	: >"$TMP/cmp.err"
	if ! "$browser" --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$TMP/browser" --window-size=1280,900 --screenshot="$2" \
		"file://$1" >/dev/null 2>"$TMP/browser.err" || [ ! -f "$2" ]; then
		tail -c 300 "$TMP/browser.err" >"$TMP/cmp.err"
		return 1
	fi
	[ "$(wc -c <"$2")" -gt 10000 ] || { echo "$2: $(wc -c <"$2") bytes" >"$TMP/cmp.err"; return 1; }
	python3 tests/cli/oracle.py png-colours "$2" 1280 900 16 >"$TMP/cmp.err" 2>&1
}
