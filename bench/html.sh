#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# perfev report --html on a large system-wide recording: the page's size
# and how long a headless chromium takes to show its first view.
#
#   system   perf record -a -g -F RATE -- sleep SYS_SECS while the workload,
#            compilations of it and reads of /usr's files run (as
#            bench/report.sh's "system" file, -B: perf 6.1 can abort in its
#            build-id pass over such a recording); the defaults, 10000 Hz for
#            30 s on two CPUs, give about 600k samples
#
# DATA=FILE reports FILE instead of recording one; KEEP=FILE keeps the
# recording there.  The page writes on its
# summary element, once its first view is drawn, performance.now() (the
# milliseconds since the browser began to load it: reading the page,
# parsing its data, building the call tree, drawing the graph and the
# table); the median of N loads is reported.  Prints:
#
#   bench=html file=F samples=S size_kb=K
#   bench=html report_ms=X peak_rss_kb=R page_kb=P nodes=N dropped_paths=D
#   bench=html first_view_ms=X runs=N  (the median; also min and max)
#
# The goals: a page of at most 20 MB, a first view in at most 1 s.
set -eu
# shellcheck source=bench/system-load.sh
. "$(dirname "$0")/system-load.sh"
PERFEV=${PERFEV:-build/perfev}
SPAWN_TIME=${SPAWN_TIME:-build/bench/spawn-time}
REPORT_WORKLOAD=${REPORT_WORKLOAD:-build/bench/report-workload}
N=${N:-5}
SYS_SECS=${SYS_SECS:-30}
RATE=${RATE:-10000}
DATA=${DATA:-}
browser=
for b in chromium chromium-browser google-chrome; do
	command -v "$b" >/dev/null 2>&1 && browser=$b && break
done
[ -n "$browser" ] || { echo "bench=html skipped: chromium is not installed" >&2; exit 0; }
for f in "$SPAWN_TIME" "$REPORT_WORKLOAD" "$PERFEV"; do
	[ -x "$f" ] || { echo "bench=html: $f is missing (make all)" >&2; exit 1; }
done
dir=$(mktemp -d "${TMPDIR:-/tmp}/perfev-bench-html.XXXXXX")
trap 'rm -rf "$dir"' EXIT

if [ -z "$DATA" ]; then
	if ! perf record -q -a -o /dev/null -- true >/dev/null 2>&1; then
		echo "bench=html skipped: perf record -a is not permitted here" >&2
		exit 0
	fi
	system_load "$SYS_SECS" "$dir"
	perf record -q -B -a -g -F "$RATE" -o "$dir/system.data" -- sleep "$SYS_SECS" >/dev/null 2>&1
	# shellcheck disable=SC2086 # a list of pids
	wait $load_pids || :
	DATA=$dir/system.data
	[ -z "${KEEP:-}" ] || { cp "$DATA" "$KEEP" && DATA=$KEEP; }
fi
samples=$(perf report --stats -i "$DATA" 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }')
echo "bench=html file=$DATA samples=$samples size_kb=$(($(wc -c <"$DATA") / 1024))"

"$SPAWN_TIME" -m 1 "$PERFEV" report -i "$DATA" --html "$dir/page.html" >"$dir/time" ||
	{ echo "bench=html: perfev report -i $DATA --html failed" >&2; exit 1; }
# The page's own account of its data.
python3 - "$dir/page.html" >"$dir/data" <<'PY'
import json, re, sys
s = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'<script type="application/json" id="perfev-data">(.*?)</script>', s, re.S)
d = json.loads(m.group(1))
print(len(d["nodes"]) // 4 if "nodes" in d else len(d["stacks"]),
      d.get("dropped", {}).get("subtrees", 0))
PY
read -r nst dropped <"$dir/data"
echo "bench=html $(awk '{ printf "report_ms=%d peak_rss_kb=%d", $1 / 1e6, $2; exit }' "$dir/time") page_kb=$(($(wc -c <"$dir/page.html") / 1024)) nodes=$nst dropped_paths=$dropped"

: >"$dir/loads"
i=0
while [ $i -lt "$N" ]; do
	"$browser" --headless=new --no-sandbox --disable-gpu --user-data-dir="$dir/browser" \
		--window-size=1280,900 --dump-dom "file://$dir/page.html" >"$dir/dom.html" 2>/dev/null || :
	ms=$(grep -o 'id="summary"[^>]*' "$dir/dom.html" | sed -n 's/.*data-first-ms="\([0-9]*\)".*/\1/p')
	[ -n "$ms" ] || { echo "bench=html: the page did not draw: $(grep -o 'data-error="[^"]*"' "$dir/dom.html")" >&2; exit 1; }
	echo "$ms" >>"$dir/loads"
	i=$((i + 1))
done
sort -n "$dir/loads" | awk -v n="$N" '{ a[NR] = $1 } END {
	printf "bench=html first_view_ms=%d min_ms=%d max_ms=%d runs=%d\n", a[int((NR + 1) / 2)], a[1], a[NR], n }'
