#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Compare perfev's parse of event strings with what perf printed for them.

usage: oracle.py PERFEV ORACLE [--known FILE] [--no-tracepoints] [--label NAME]

ORACLE is the output of tests/data/perf-oracle/gen.sh: for each event
string, the perf_event_attr blocks `perf stat -vv` printed (first attempt
of each event) or the fact that perf rejected the string.  For every entry
this runs `perfev attr -j -- STRING` and checks that:

  - perfev rejects exactly the strings perf rejects;
  - perfev produces the same events, in the same groups, with the same
    value for every attr field perf printed, and zero for every field perf
    left out (perf omits zero fields).

Fields perf stat sets for its own purposes (size, sample_type, read_format,
disabled, inherit, enable_on_exec) are not in the oracle; sample_period is
cleared by perf stat for counting, so it is not compared either.

Prints one PASS/FAIL/SKIP line for the harness.
"""
import json
import subprocess
import sys

# perfev JSON keys that are never compared (set by perf stat itself, or
# sample-only settings perf stat clears).
IGNORED = {"size", "sample_type", "read_format", "disabled", "inherit", "enable_on_exec",
           "sample_period", "sample_freq"}


def load_oracle(path):
    entries, cur = [], None
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if line.startswith("EVENT "):
                cur = {"event": line[6:], "attrs": [], "names": [], "error": None}
            elif line == "EVENT":
                cur = {"event": "", "attrs": [], "names": [], "error": None}
            elif line.startswith("ATTR "):
                fields = {}
                for tok in line[5:].split():
                    k, _, v = tok.partition("=")
                    fields[k] = int(v, 0)
                cur["attrs"].append(fields)
            elif line.startswith("NAME"):
                cur["names"].append(line[5:])
            elif line.startswith("ERROR"):
                cur["error"] = line[6:]
            elif line == "END":
                entries.append(cur)
                cur = None
    return entries


def load_known(path):
    known = {}
    if not path:
        return known
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or "\t" not in line:
                continue
            ev, reason = line.rstrip("\n").split("\t", 1)
            known[ev] = reason
    return known


def perf_key(k):
    # perf prints unions as "{bp_addr,config1}"; perfev names the member in use.
    if k.startswith("{"):
        return k.strip("{}").split(",")
    return [k]


def compare(entry, perfev):
    ev = entry["event"]
    proc = subprocess.run([perfev, "attr", "-j", "--", ev], capture_output=True, text=True)
    if entry["error"] is not None:
        if proc.returncode == 0:
            return "perf rejects it (%s) but perfev accepted it" % (entry["error"] or "no text")
        if proc.returncode != 1:
            return "perfev exited %d (expected 1): %s" % (proc.returncode, proc.stderr.strip())
        return None
    if proc.returncode != 0:
        return "perf accepts it but perfev failed: %s" % proc.stderr.strip().splitlines()[0]
    try:
        doc = json.loads(proc.stdout)
    except ValueError as e:
        return "perfev printed invalid JSON: %s" % e
    events = doc["events"]
    attrs = entry["attrs"]
    # perf stops at a group leader it cannot open; compare what it printed.
    if len(attrs) < len(events) and not entry["names"]:
        events = events[:len(attrs)]
    if len(attrs) != len(events):
        return "perf made %d events, perfev %d" % (len(attrs), len(events))
    for i, (want, got) in enumerate(zip(attrs, events)):
        a = got["attr"]
        seen = set()
        for k, v in want.items():
            if k == "group":
                if got["leader"] != v:
                    return "event %d: group leader %d, perf has %d" % (i, got["leader"], v)
                continue
            names = perf_key(k)
            present = [n for n in names if n in a]
            if not present:
                return "event %d: perfev has no field %s" % (i, k)
            seen.update(names)
            if k in ("sample_period", "sample_freq"):
                continue
            if a[present[0]] != v:
                return "event %d: %s is %#x, perf has %#x" % (i, k, a[present[0]], v)
        for k, v in a.items():
            if k in seen or k in IGNORED or v == 0:
                continue
            if k in ("bp_addr", "config1") and ("config1" in seen or "bp_addr" in seen):
                continue
            if k in ("bp_len", "config2") and ("config2" in seen or "bp_len" in seen):
                continue
            return "event %d: %s is %#x, perf leaves it 0" % (i, k, v)
    return None


def main():
    args = sys.argv[1:]
    known_path, label, no_tp = None, "oracle", False
    pos = []
    i = 0
    while i < len(args):
        if args[i] == "--known":
            known_path = args[i + 1]
            i += 2
        elif args[i] == "--label":
            label = args[i + 1]
            i += 2
        elif args[i] == "--no-tracepoints":
            no_tp = True
            i += 1
        else:
            pos.append(args[i])
            i += 1
    perfev, oracle = pos
    entries = load_oracle(oracle)
    known = load_known(known_path)
    failures, checked, skipped, kn, statonly = [], 0, 0, 0, 0
    for e in entries:
        if e["event"] in known:
            kn += 1
            continue
        # perf stat refuses sampling terms; that is the command, not the syntax.
        if e["error"] and "not usable in 'perf stat'" in e["error"]:
            statonly += 1
            continue
        if no_tp and any(a.get("type") == 2 for a in e["attrs"]):
            skipped += 1
            continue
        checked += 1
        why = compare(e, perfev)
        if why:
            failures.append("'%s': %s" % (e["event"], why))
    if not entries:
        print("FAIL %s: no entries in %s" % (label, oracle))
        return 1
    if failures:
        print("FAIL %s: %d of %d strings disagree with perf:" % (label, len(failures), checked))
        for f in failures[:40]:
            print("  " + f)
        return 1
    print("PASS %s: %d strings agree with perf (%d known differences, %d refused only by "
          "perf stat, %d tracepoint entries not checked)" % (label, checked, kn, statonly,
                                                             skipped))
    return 0


if __name__ == "__main__":
    sys.exit(main())
