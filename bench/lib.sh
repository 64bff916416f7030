# SPDX-License-Identifier: LGPL-2.1-or-later
# shellcheck shell=sh
# Sourced by the benches that time each tool once per run into a file of
# "NANOSECONDS PEAK_RSS_KB" lines (spawn-time -m 1): annotate.sh, diff.sh,
# report.sh, script.sh.

# median FILE COLUMN: the median of that column of FILE.
median() {
	awk -v c="$2" '{ print $c }' "$1" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}
