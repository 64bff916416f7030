# SPDX-License-Identifier: LGPL-2.1-or-later
# shellcheck shell=sh
# Sourced by the benches that record system-wide (report.sh, html.sh).
#
# system_load SECS DIR: starts the load of a system-wide recording for
# SECS seconds and 2 more: $REPORT_WORKLOAD, compilations of
# bench/report-workload.c (into DIR) and reads of /usr's files, each
# stopped (with its process group) by timeout; their pids in $load_pids,
# for `wait $load_pids || :` once the recording is done.
system_load() {
	_secs=$(($1 + 2))
	load_pids=
	timeout $_secs "$REPORT_WORKLOAD" $((_secs * 1000)) >/dev/null 2>&1 &
	load_pids="$load_pids $!"
	# shellcheck disable=SC2016 # expanded by the inner shell
	timeout $_secs sh -c 'while :; do cc -O2 -g -c -o "$2" "$1"; done' sh \
		"$(dirname "$0")/report-workload.c" "$2/w.o" >/dev/null 2>&1 &
	load_pids="$load_pids $!"
	timeout $_secs sh -c 'while :; do find /usr -type f -print0 | xargs -0 cat; done' \
		>/dev/null 2>&1 &
	load_pids="$load_pids $!"
}
