# SPDX-License-Identifier: LGPL-2.1-or-later
# perfev report/script with DEBUGINFOD_URLS: debug info of a stripped binary from a real debuginfod server.
. tests/cli/lib.sh

if ! command -v debuginfod >/dev/null 2>&1; then
	skip debuginfod debuginfod "the debuginfod server is not installed (apt-get install debuginfod)"
	exit $status
fi
if ! ldconfig -p 2>/dev/null | grep -q 'libdebuginfod\.so\.1'; then
	skip debuginfod debuginfod "libdebuginfod1 is not installed"
	exit $status
fi

# A program with its debug info split off: the binary stripped of every symbol.
export HOME=$TMP/home
mkdir -p "$HOME" "$TMP/srv"
cat >"$TMP/dbgd-hot.c" <<'C'
static volatile unsigned long sink;
__attribute__((noinline)) void debuginfod_hot_spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 7;
}
int main(void)
{
	debuginfod_hot_spin(200000000UL);
	return (int)(sink & 1);
}
C
P=$TMP/prog
if ! gcc -g -O1 -Wl,--build-id -o "$P" "$TMP/dbgd-hot.c" ||
	! objcopy --only-keep-debug "$P" "$TMP/srv/prog.debug" || ! strip --strip-all "$P" ||
	! cp "$P" "$TMP/srv/prog"; then
	fail debuginfod_setup "cannot build and split the test program"
	exit $status
fi
F=$TMP/perf.data
run "$PERFEV" record -N -e cpu-clock -o "$F" "$P"
expect_rc record 0 || exit $status

# A free port: bound by the kernel, released, then given to the server.
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
debuginfod -p "$PORT" -F -d "$TMP/db" -t 0 -g 0 "$TMP/srv" >"$TMP/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; for m in $mounts; do umount "$m"; done; rm -rf "$TMP"' EXIT
ID=$(readelf -n "$P" | sed -n 's/.*Build ID: //p')
i=0
while [ $i -lt 300 ]; do
	code=$(python3 -c 'import sys, urllib.request
try:
    print(min(urllib.request.urlopen(u, timeout=2).status for u in sys.argv[1:]))
except Exception as e:
    print(getattr(e, "code", 0))' "http://127.0.0.1:$PORT/buildid/$ID/debuginfo" \
		"http://127.0.0.1:$PORT/buildid/$ID/executable")
	[ "$code" = 200 ] && break
	sleep 0.2
	i=$((i + 1))
done
if [ "$code" != 200 ]; then
	fail debuginfod_server "the server did not serve $ID: $(tail -3 "$TMP/server.log")"
	exit $status
fi

# Without servers: nothing resolves (what the next cases see comes from the server).
env -u DEBUGINFOD_URLS "$PERFEV" report -i "$F" -s sym >"$TMP/out" 2>"$TMP/err"
if grep -q debuginfod_hot_spin "$TMP/out"; then
	fail no_urls "the stripped binary's symbol resolved without a server: the test cannot see the fetch"
else
	pass "no_urls: the stripped binary's samples are unresolved"
fi

export DEBUGINFOD_URLS=http://127.0.0.1:$PORT DEBUGINFOD_CACHE_PATH=$TMP/dcache
# report_resolved NAME FETCHED WHAT: report's output ($TMP/out, $TMP/err) has the stripped binary's
# symbol with its source line, and the line FETCHED (a grep pattern) about the fetch.
report_resolved() {
	if ! expect_rc "$1" 0; then
		return
	elif ! grep -q 'debuginfod_hot_spin.*dbgd-hot\.c:[0-9]' "$TMP/out"; then
		fail "$1" "no symbol and source line of the stripped binary: $(grep -m3 '%' "$TMP/out")"
	elif ! grep -q "$2" "$TMP/err"; then
		fail "$1" "no line about the fetch and the cache: $(head -c 400 "$TMP/err")"
	else
		pass "$1: $3"
	fi
}

run "$PERFEV" report -i "$F" -s sym,srcline
report_resolved report_fetch \
	"fetched the debug info of '$P' (build id $ID.*from http://127.0.0.1:$PORT; cached in $TMP/dcache/$ID/debuginfo" \
	"symbol and source line resolved, the fetch and its cache said"
DEBUGINFOD_CACHE_PATH=$TMP/dcache-a run "$PERFEV" annotate -i "$F" --stdio debuginfod_hot_spin
if expect_rc annotate_fetch 0; then
	if ! grep -q '<debuginfod_hot_spin>:' "$TMP/out" || ! grep -q 'dbgd-hot\.c:[0-9]' "$TMP/out"; then
		fail annotate_fetch "no function or source line: $(head -c 400 "$TMP/out")"
	elif ! grep -q "fetched the debug info of '$P'.*cached in $TMP/dcache-a/$ID/debuginfo" "$TMP/err"; then
		fail annotate_fetch "no line about the fetch and the cache: $(head -c 400 "$TMP/err")"
	else
		pass "annotate_fetch: the stripped binary's function annotated with its source lines"
	fi
fi
# The binary gone from this machine: the file itself and its debug info come from the server.
mv "$P" "$P.moved"
DEBUGINFOD_CACHE_PATH=$TMP/dcache-m run "$PERFEV" report -i "$F" -s sym,srcline
mv "$P.moved" "$P"
report_resolved file_missing \
	"fetched the missing file '$P' (build id $ID.*cached in $TMP/dcache-m/$ID/executable" \
	"the binary and its debug info fetched, symbol and source line resolved"
run "$PERFEV" script -i "$F"
if expect_rc script_cached 0; then
	if ! grep -q "debuginfod_hot_spin+0x[0-9a-f]* ($P)" "$TMP/out"; then
		fail script_cached "no symbol of the stripped binary: $(grep -m2 prog "$TMP/out")"
	elif grep -q fetched "$TMP/err"; then
		fail script_cached "fetched again, from the client's cache: $(head -c 300 "$TMP/err")"
	else
		pass "script_cached: resolved from the client's cache, nothing downloaded"
	fi
fi

# The server down: one note, nothing resolved, no hang.
kill $server
wait $server 2>/dev/null
export DEBUGINFOD_CACHE_PATH=$TMP/dcache2
run timeout 60 "$PERFEV" report -i "$F" -s sym
if expect_rc server_down 0; then
	n=$(grep -c 'cannot fetch debug info from the debuginfod servers' "$TMP/err")
	if [ "$n" -ne 1 ] || ! grep -q 'connection refused' "$TMP/err"; then
		fail server_down "expected one note saying the connection was refused: $(head -c 400 "$TMP/err")"
	elif grep -q debuginfod_hot_spin "$TMP/out"; then
		fail server_down "resolved with the server down"
	else
		pass "server_down: one note, the report printed"
	fi
fi

# A server that accepts and never answers: the fetch is given up after DEBUGINFOD_TIMEOUT.
python3 -c 'import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(8); time.sleep(120)' "$PORT" &
mute=$!
trap 'kill $mute 2>/dev/null; for m in $mounts; do umount "$m"; done; rm -rf "$TMP"' EXIT
sleep 1
DEBUGINFOD_TIMEOUT=2 DEBUGINFOD_CACHE_PATH=$TMP/dcache3 run timeout 60 "$PERFEV" report -i "$F" -s sym
if [ "$rc" -eq 124 ]; then
	fail server_mute "report still waiting after 60 s"
elif expect_rc server_mute 0; then
	if ! grep -q 'no answer within the timeout' "$TMP/err"; then
		fail server_mute "no note of the timeout: $(head -c 400 "$TMP/err")"
	else
		pass "server_mute: the fetch given up, one note"
	fi
fi
kill $mute 2>/dev/null

exit $status
