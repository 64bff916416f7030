# SPDX-License-Identifier: LGPL-2.1-or-later
# perfev's event parsing against what Linux perf computes for the same strings.
. tests/cli/lib.sh

ORACLE_DIR=$DATA/perf-oracle
KNOWN=$ORACLE_DIR/known-differences.txt

# The stored oracle (perf 6.1 on a VM without a hardware PMU), replayed
# against a copy of that VM's PMUs: runs anywhere, no perf needed.
PERFEV_SYSFS_ROOT=$DATA/sysfs-vm PERFEV_TRACEFS=/nonexistent \
	python3 tests/cli/oracle.py "$PERFEV" "$ORACLE_DIR/perf-6.1.oracle" --known "$KNOWN" \
	--no-tracepoints --label stored_perf61_oracle || status=1

# The live oracle: ask this machine's perf about the same strings now and
# compare with perfev on the real sysfs and tracefs.
if ! command -v perf >/dev/null 2>&1; then
	skip perf live_perf_oracle "perf is not installed (Debian package linux-perf)"
elif ! perf stat -e task-clock true >/dev/null 2>&1; then
	skip perf live_perf_oracle "perf stat cannot count here (perf_event_paranoid or no permission)"
else
	bash "$ORACLE_DIR/gen.sh" "$ORACLE_DIR/events.list" >"$TMP/live.oracle" 2>"$TMP/gen.err"
	if [ ! -s "$TMP/live.oracle" ]; then
		fail live_perf_oracle "gen.sh produced nothing: $(head -c 300 "$TMP/gen.err")"
	else
		python3 tests/cli/oracle.py "$PERFEV" "$TMP/live.oracle" --known "$KNOWN" \
			--label "live_perf_oracle($(perf --version | cut -d' ' -f3))" || status=1
	fi
fi
finish
