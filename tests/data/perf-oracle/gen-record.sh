#!/bin/bash
# gen-record.sh - the attrs perf record opens for each command line of a list.
#
# Usage: gen-record.sh RECORD.LIST > ORACLE
#
# RECORD.LIST holds one perf record command line (options only, split at
# blanks, no quoting) per line; '#' starts a comment line.  For each one
# the script runs
#     LC_ALL=C perf record -q -o FILE OPTIONS -- true
# (with -B and --no-bpf-event too: they change no compared field, only
# attr.bpf_event, and spare the second perf spends listing BPF programs
# and the build-id pass after the run) and prints
#
#   RECORD <options>
#   ATTR <the '# event :' line of perf report --header-only, without '# event : '>
#   ...                                  one per event in the file
#   END
#
# with no ATTR line when perf refused the command line, and a line
# "CRASH <message>" instead when perf died of a signal three times in a
# row (perf 6.1 sometimes aborts after the run, in util/build-id.c).
# Status 129 is not a signal (SIGHUP) but perf's exit status for a usage
# error (usage_with_options()), a refusal like any other.
# perf's own dummy tracking events ("dummy:u", "dummy:HG") are left out.

set -u

if [ $# -ne 1 ] || [ ! -r "$1" ]; then
    echo "usage: $0 RECORD.LIST > ORACLE" >&2
    exit 2
fi

export LC_ALL=C
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in
        '#'*|'') continue ;;
    esac
    read -ra args <<<"$line"
    echo "RECORD $line"
    for try in 1 2 3; do
        rm -f "$tmp/perf.data"
        timeout 20 perf record -q -B --no-bpf-event -o "$tmp/perf.data" "${args[@]}" -- true \
            >/dev/null 2>"$tmp/err"
        rc=$?
        [ "$rc" -gt 129 ] && [ "$rc" -lt 160 ] || break
    done
    if [ "$rc" -eq 0 ]; then
        perf report --header-only -i "$tmp/perf.data" 2>/dev/null |
            sed -n 's/^# event : /ATTR /p' | sed 's/, id = { [^}]* }//' |
            grep -v '^ATTR name = dummy:'
    elif [ "$rc" -gt 129 ] && [ "$rc" -lt 160 ]; then
        echo "CRASH perf died with status $rc: $(head -c 200 "$tmp/err" | tr '\n' ' ')"
    else
        echo "gen-record.sh: perf record $line: $(head -c 200 "$tmp/err")" >&2
    fi
    echo "END"
done <"$1"
