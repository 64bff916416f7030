# SPDX-License-Identifier: LGPL-2.1-or-later
# perfev record's attrs against what perf record opens for the same command lines.
. tests/cli/lib.sh

ORACLE_DIR=$DATA/perf-oracle

# The oracle was recorded as root: kernel samples, tracepoints, breakpoints.
if [ "$(id -u)" -ne 0 ]; then
	skip root stored_perf61_record_oracle "recording kernel samples and tracepoints is not permitted to this user; the oracle was made as root"
	finish
fi
if ! "$PERFEV" record -q -o "$TMP/probe.data" -- true >"$TMP/probe.out" 2>&1; then
	skip sampling stored_perf61_record_oracle "cannot sample here: $(head -c 200 "$TMP/probe.out")"
	finish
fi

# The stored oracle: perf 6.1's attrs for tests/data/perf-oracle/record.list.
python3 tests/cli/oracle.py --record --elsewhere "$PERFEV" "$ORACLE_DIR/record-6.1.oracle" \
	--label stored_perf61_record_oracle || status=1

# The live oracle: this machine's perf record, now.
if ! command -v perf >/dev/null 2>&1; then
	skip perf live_perf_record_oracle "perf is not installed (Debian package linux-perf)"
else
	bash "$ORACLE_DIR/gen-record.sh" "$ORACLE_DIR/record.list" >"$TMP/live.oracle" 2>"$TMP/gen.err"
	if ! grep -q '^ATTR ' "$TMP/live.oracle"; then
		fail live_perf_record_oracle "perf recorded nothing: $(head -c 300 "$TMP/gen.err")"
	else
		python3 tests/cli/oracle.py --record "$PERFEV" "$TMP/live.oracle" \
			--label "live_perf_record_oracle($(perf --version | cut -d' ' -f3))" || status=1
	fi
fi
finish
