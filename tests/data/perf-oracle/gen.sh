#!/bin/bash
# gen.sh - build a perf event-syntax oracle from `perf stat -vv` output.
#
# Usage: gen.sh EVENTS.LIST > ORACLE
#
# EVENTS.LIST holds one event string per line.  Lines whose first character
# is '#' are comments and blank lines are ignored.  A line that begins and
# ends with a single quote has those two quotes removed, so '' is the empty
# event string and ' cs' keeps its leading blank.  Every other line is used
# verbatim.
#
# For each string the script runs
#     LC_ALL=C timeout 10 perf stat -vv -e "STRING" -- true
# and prints one record:
#
#   EVENT <string>
#   ATTR  type=.. key=value ... group=N   one per event, first open attempt only
#   NAME  <name>                          one per row of the counter table
#   END
#
# or, when perf rejects the string while parsing it:
#
#   EVENT <string>
#   ERROR <'event syntax error' line> | <explanation line>
#   END
#
# ATTR details: keys come from the "perf_event_attr:" block, with all
# whitespace removed from the key ("{ bp_addr, config1 }" becomes
# "{bp_addr,config1}").  The keys size, sample_type, read_format, disabled,
# inherit and enable_on_exec are dropped.  If perf did not print a type,
# "type=0" is added as the first field.  group=N is the 0-based index, among
# this record's ATTR lines, of the event's group leader; it comes from the
# group_fd on the following sys_perf_event_open line (-1 means the event is
# its own leader).
#
# Retries: perf prints another attr block whenever it opens the same event
# again.  A block counts as a retry, and is skipped, when
#   * the previous open failed ("sys_perf_event_open failed") and perf did
#     not print "<name> event is not supported by the kernel." in between
#     (it prints that only when it gives up on an event and moves on; it
#     retries silently or after "switching off ..." / "decreasing
#     precise_ip ..."), or
#   * it belongs to the second pass of a weak group ("reopening weak NAME")
#     and that event was already attempted in the first pass.  After
#     "Weak group for L/N failed", perf reopens all N members standalone, in
#     order.  The members from the leader up to the one that failed were
#     already tried.  Members after that were skipped in the first pass, so
#     their reopen block is their first attempt.
#
# If perf prints only "Run 'perf list' ..." with no 'event syntax error'
# text, the record gets a bare "ERROR" line with nothing after it.
# NAME is the name column of the table with trailing blanks removed, so
# trailing blanks in a typed name can't be seen there.

set -u

if [ $# -ne 1 ] || [ ! -r "$1" ]; then
    echo "usage: $0 EVENTS.LIST > ORACLE" >&2
    exit 2
fi

if ! mountpoint -q /sys/kernel/tracing 2>/dev/null; then
    mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
fi

export LC_ALL=C
tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp"' EXIT

parse() {
    # $1 = event string, $2 = captured perf output file, $3 = exit status
    GEN_EV=$1 awk -v rc="$3" '
    function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
    function flush_block(   i, n, k, v, line, hastype) {
        # called when the sys_perf_event_open line of a block is seen
        line = ""; hastype = 0
        for (i = 1; i <= nf; i++) {
            k = fk[i]; v = fv[i]
            if (k ~ /^(size|sample_type|read_format|disabled|inherit|enable_on_exec)$/) continue
            if (k == "type") hastype = 1
            line = line " " k "=" v
        }
        if (!hastype) line = " type=0" line
        return substr(line, 2)
    }
    BEGIN {
        nattr = 0; inblock = 0; nf = 0; synerr = ""; runlist = 0; sawattr = 0
        lastfailed = 0; movedon = 0; pending = 0
        weakmsg = ""; nweakq = 0; weakpos = 0; wq_done = 0; intable = 0
        curev = -1; lastleader = -1; ev = ENVIRON["GEN_EV"]
    }
    # ---- parse errors -------------------------------------------------
    /^event syntax error: / && synerr == "" {
        synerr = trim($0); want_expl = 1; next
    }
    want_expl { synerr = synerr " | " trim($0); want_expl = 0; next }
    /^Run .perf list. for a list of valid events/ { runlist = 1; next }
    # ---- attr blocks --------------------------------------------------
    /^perf_event_attr:/ { inblock = 1; nf = 0; sawattr = 1; next }
    inblock && /^-----/ { inblock = 0; pending = 1; next }
    inblock {
        s = $0; sub(/^[ \t]+/, "", s)
        # key and value are separated by a run of at least two blanks
        if (match(s, /[ \t][ \t]+/)) {
            k = substr(s, 1, RSTART - 1); v = trim(substr(s, RSTART + RLENGTH))
        } else { k = s; v = "" }
        gsub(/[ \t]/, "", k)
        nf++; fk[nf] = k; fv[nf] = v
        next
    }
    /^Weak group for .* failed/ {
        # group of the event that just failed: leader index .. cur were tried
        q = curev - lastleader + 1
        nweakq++; wq_tried[nweakq] = q; wq_leader[nweakq] = lastleader
        split($0, a, "/"); n = a[2]; sub(/ .*/, "", n); wq_total[nweakq] = n + 0
        next
    }
    /^reopening weak / { weakmsg = substr($0, 16); next }
    /event is not supported by the kernel\.$/ { movedon = 1; next }
    /^sys_perf_event_open: pid / && pending {
        pending = 0
        gfd = $0; sub(/.*group_fd /, "", gfd); sub(/ .*/, "", gfd)
        ok = ($0 ~ / = [0-9]+$/)
        fd = ""; if (ok) { fd = $0; sub(/.* = /, "", fd) }
        retry = 0; idx = -1
        if (weakmsg != "") {
            # second pass of a failed weak group
            if (weakpos == 0 || wq_done >= wq_total[weakpos]) { weakpos++; wq_done = 0 }
            if (wq_done < wq_tried[weakpos]) { retry = 1; idx = wq_leader[weakpos] + wq_done }
            wq_done++
        } else if (lastfailed && !movedon) {
            retry = 1; idx = curev
        }
        if (!retry) {
            attrline[nattr] = flush_block()
            if (gfd == "-1") grp[nattr] = nattr
            else if (gfd in fdidx) grp[nattr] = fdidx[gfd]
            else grp[nattr] = "?"
            idx = nattr; nattr++
        }
        if (gfd == "-1") lastleader = idx; else if (gfd in fdidx) lastleader = fdidx[gfd]
        if (ok) fdidx[fd] = idx
        curev = idx; lastfailed = !ok; movedon = 0; weakmsg = ""
        next
    }
    # ---- counter table ------------------------------------------------
    /^ Performance counter stats for / { intable = 1; unitw = 4; nrow = 0; next }
    intable && /seconds time elapsed/ { intable = 0; next }
    intable {
        if ($0 ~ /^[ \t]*$/) next
        if (substr($0, 1, 18) ~ /^ *$/) next      # metric continuation line
        nrow++; row[nrow] = $0
        u = substr($0, 20); if (substr(u, 1, 1) != " ") {
            sub(/ .*/, "", u); if (length(u) > unitw) unitw = length(u)
        }
        next
    }
    END {
        print "EVENT " ev
        if (!sawattr && runlist) {
            if (synerr != "") print "ERROR " synerr; else print "ERROR"
            print "END"; exit
        }
        for (i = 0; i < nattr; i++) print "ATTR " attrline[i] " group=" grp[i]
        for (i = 1; i <= nrow; i++) {
            nm = substr(row[i], 21 + unitw)
            sub(/[ \t]+\([0-9.]+%\)[ \t]*$/, "", nm)   # multiplexing ratio
            sub(/[ \t]+#.*$/, "", nm)                  # metric comment
            sub(/[ \t]+$/, "", nm)
            print "NAME " nm
        }
        print "END"
    }' "$2"
}

while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in
        '#'*) continue ;;
        '') continue ;;
    esac
    if [ "${#line}" -ge 2 ] && [ "${line#\'}" != "$line" ] && [ "${line%\'}" != "$line" ]; then
        line=${line#\'}; line=${line%\'}
    fi
    timeout 10 perf stat -vv -e "$line" -- true >"$tmp" 2>&1
    rc=$?
    if [ "$rc" -eq 124 ]; then
        echo "gen.sh: timeout for event '$line'" >&2
    fi
    parse "$line" "$tmp" "$rc"
done <"$1"
