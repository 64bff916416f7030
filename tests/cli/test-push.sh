# SPDX-License-Identifier: LGPL-2.1-or-later
# perfev record --push: windows POSTed as pprof to a Pyroscope-style /ingest receiver on 127.0.0.1.
. tests/cli/lib.sh

W=${PERFEV_BUILD:-build}/examples/workload
RX=

# start_rx DIR PORT [silent]: the receiver, its port in $port once it listens.
start_rx() {
	mkdir -p "$1"
	rm -f "$1/port"
	python3 tests/cli/push-receiver.py "$@" 2>"$1/log" &
	RX=$!
	i=0
	while [ ! -s "$1/port" ] && [ $i -lt 600 ] && kill -0 "$RX" 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	port=$(cat "$1/port" 2>/dev/null)
}

stop_rx() {
	[ -n "$RX" ] && kill "$RX" 2>/dev/null && wait "$RX" 2>/dev/null
	RX=
}
trap 'stop_rx' EXIT

push() {
	"$PERFEV" record -q -e cpu-clock -F 199 "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
}

check() {
	if python3 tests/cli/oracle.py push-check "$@" >"$TMP/n" 2>"$TMP/cmp.err"; then
		return 0
	fi
	return 1
}

if ! command -v protoc >/dev/null 2>&1; then
	skip protoc push_windows "protoc is not installed (Debian: protobuf-compiler) to decode what arrives"
	finish
	exit 0
fi

# Windows arrive, labelled, one after the other.
start_rx "$TMP/rx1" 0
if [ -z "$port" ]; then
	fail push_windows "the receiver did not start: $(cat "$TMP/rx1/log")"
else
	push --push "http://127.0.0.1:$port/" --labels env=test,region=eu-1 --window 1 \
		-o "$TMP/p.data" -- "$W" 2500000000
	if [ "$rc" != 0 ]; then
		fail push_windows "perfev record --push exits $rc: $(head -c 400 "$TMP/err")"
	elif check "$TMP/rx1" "workload{env=test,region=eu-1}" 2 contiguous; then
		pass push_windows
	else
		fail push_windows "$(cat "$TMP/cmp.err") $(head -c 300 "$TMP/err")"
	fi
	[ -z "$(ls "$TMP/p.data.spool")" ] && [ ! -e "$TMP/p.data" ] && pass push_spool_empty ||
		fail push_spool_empty "left behind: $(ls "$TMP/p.data"* "$TMP/p.data.spool")"
fi
stop_rx

# The receiver down: the windows wait in the spool, and the next run delivers them.
start_rx "$TMP/rx2" 0
stop_rx
if [ -n "$port" ]; then
	push --push "http://127.0.0.1:$port" --app app --window 1 --spool "$TMP/spool" \
		-o "$TMP/d.data" -- "$W" 1500000000
	kept=$(ls "$TMP/spool" | grep -c '\.pprof$')
	if [ "$rc" = 0 ] && [ "$kept" -ge 2 ] && grep -q "cannot push to 'http://127.0.0.1:$port'" "$TMP/err"; then
		pass push_spooled
	else
		fail push_spooled "exit $rc, $kept windows spooled: $(head -c 400 "$TMP/err")"
	fi
	start_rx "$TMP/rx2" "$port"
	push --push "http://127.0.0.1:$port" --app app --window 1 --spool "$TMP/spool" \
		-o "$TMP/d.data" -- "$W" 300000000
	if [ "$rc" = 0 ] && check "$TMP/rx2" "app{}" $((kept + 1)) &&
		[ -z "$(ls "$TMP/spool")" ]; then
		pass push_spool_delivered
	else
		fail push_spool_delivered "exit $rc, $kept spooled, $(cat "$TMP/n") arrived, spool: $(ls "$TMP/spool") $(cat "$TMP/cmp.err") $(head -c 300 "$TMP/err")"
	fi
	stop_rx

	# A bounded spool: beyond its size the oldest windows go, with a note.
	push --push "http://127.0.0.1:$port" --window 1 --spool "$TMP/small" --spool-size 1 \
		-o "$TMP/d.data" -- "$W" 1500000000
	kept=$(ls "$TMP/small" | grep -c '\.pprof$')
	if [ "$rc" = 0 ] && [ "$kept" = 1 ] && grep -q "dropped its oldest window" "$TMP/err"; then
		pass push_spool_bound
	else
		fail push_spool_bound "exit $rc, $kept windows kept with --spool-size 1: $(head -c 400 "$TMP/err")"
	fi
fi

# An endpoint that never answers: the push gives up (a bounded wait), the window is spooled.
start_rx "$TMP/rx4" 0 silent
timeout 120 "$PERFEV" record -q -e cpu-clock -F 199 --push "http://127.0.0.1:$port" --window 60 \
	--spool "$TMP/hang" -o "$TMP/h.data" -- "$W" 100000000 >/dev/null 2>"$TMP/err"
rc=$?
kept=$(ls "$TMP/hang" | grep -c '\.pprof$')
if [ "$rc" = 0 ] && [ "$kept" = 1 ] && grep -q "no answer in time" "$TMP/err"; then
	pass push_hung_endpoint
else
	fail push_hung_endpoint "exit $rc, $kept windows spooled: $(head -c 400 "$TMP/err")"
fi
stop_rx

# Pushing never holds the rings: with an endpoint that never answers (each push waits 5 s)
# and small rings at 4 kHz, windows of a second are pushed and the samples are all there
# (a cpu-clock sample every 250 us of running time; rings held for the 5 s of a push
# overflowed and kept about 1,600 Hz).
start_rx "$TMP/rx5" 0 silent
timeout 120 "$PERFEV" record -e cpu-clock -F 4000 -m 8 --push "http://127.0.0.1:$port" \
	--window 1 --spool "$TMP/hang2" -o "$TMP/h2.data" -- "$W" 2000000000 >/dev/null 2>"$TMP/err"
rc=$?
kept=$(ls "$TMP/hang2" | grep -c '\.pprof$')
hz=$(sed -n "s/.*'cpu-clock': .* running time: \([0-9]*\) Hz.*/\1/p" "$TMP/err")
if [ "$rc" = 0 ] && [ "$kept" -ge 2 ] && [ "${hz:-0}" -ge 3600 ]; then
	pass "push_rings_not_held ($kept windows, $hz Hz)"
else
	fail push_rings_not_held "exit $rc, $kept windows spooled, ${hz:-?} Hz: $(grep -v '^$' "$TMP/err" | head -c 400)"
fi
stop_rx

# Ctrl-C pushes the last, partial window.
start_rx "$TMP/rx3" 0
"$PERFEV" record -q -e cpu-clock -F 199 --push "http://127.0.0.1:$port" --window 60 \
	-o "$TMP/c.data" -- "$W" 100000000000 >/dev/null 2>"$TMP/err" &
rec=$!
sleep 1.5
kill -INT "$rec"
wait "$rec"
rc=$?
if check "$TMP/rx3" "workload{}" 1; then
	pass push_interrupted
else
	fail push_interrupted "exit $rc: $(cat "$TMP/cmp.err") $(head -c 300 "$TMP/err")"
fi
stop_rx

# Bad URLs and labels: usage errors.
for bad in "https://127.0.0.1:4040|https is not supported" "ftp://x|not an http:// URL" \
	"http://:4040|names no host" "http://h:99999|port" "http://h:4040/?x|query"; do
	url=${bad%%|*} why=${bad#*|}
	push --push "$url" -o "$TMP/b.data" -- true
	if [ "$rc" = 2 ] && grep -q "cannot push to '$url': .*$why" "$TMP/err"; then
		pass "push_bad_url $url"
	else
		fail "push_bad_url $url" "exit $rc: $(head -c 300 "$TMP/err")"
	fi
done
push --push http://127.0.0.1:1 --labels "1x=y" -o "$TMP/b.data" -- true
[ "$rc" = 2 ] && grep -q "cannot use label '1x=y'" "$TMP/err" && pass push_bad_label ||
	fail push_bad_label "exit $rc: $(head -c 300 "$TMP/err")"
push --labels a=b -o "$TMP/b.data" -- true
[ "$rc" = 2 ] && grep -q "go with --push" "$TMP/err" && pass push_labels_alone ||
	fail push_labels_alone "exit $rc: $(head -c 300 "$TMP/err")"

finish
