#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Shared checks of perfev's CLI tests against Linux perf.

usage: oracle.py PERFEV ORACLE [--known FILE] [--no-tracepoints] [--label NAME]
       oracle.py --record PERFEV ORACLE [--elsewhere] [--label NAME]
       oracle.py report-cmp PERF_REPORT PERFEV_REPORT [--top N] [--columns]
       oracle.py set-build-id IN OUT NAME HEX
       oracle.py compressed-layout PERF_DATA
       oracle.py cut-compressed PIPE_DATA OUT
       oracle.py chains-cmp PERF_SCRIPT_OUT PERFEV_SCRIPT_OUT [--min PCT]
       oracle.py chains-find SCRIPT_OUT SYM... [--min N] [--min-pct P]
       oracle.py chains-dist SCRIPT_OUT_A SCRIPT_OUT_B [--max D]
       oracle.py attr-delta PERF_BASE PERF_FILE PERFEV_BASE PERFEV_FILE
       oracle.py attr-full PERF_FILE PERFEV_FILE [--cpu-wide]
       oracle.py top-find TOP_STDIO_OUT SYM [--within N] [--absent-from K] [--caller FN] ...
       oracle.py annotate-cmp PERF_ANNOTATE_OUT PERFEV_ANNOTATE_OUT [--max D] [--sym NAME]
       oracle.py annotate-samples-cmp PERF_SCRIPT_OUT PERFEV_ANNOTATE_OUT DSO [--max D]
       oracle.py fake-kcore OUT KALLSYMS
       oracle.py print-line-cmp PERF_ANNOTATE_L_OUT PERFEV_ANNOTATE_L_OUT
       oracle.py page-state DOM | png-colours PNG W H MIN | page-alone PAGE MAX_BYTES
       oracle.py diff-top PERFEV_DIFF_OUT NAME CHANGE | diff-data PAGE BASE NEW

The first form compares perfev's parse of event strings with what perf
printed for them.  ORACLE is the output of tests/data/perf-oracle/gen.sh:
for each event string, the perf_event_attr blocks `perf stat -vv` printed
(first attempt of each event) or the fact that perf rejected the string.
For every entry this runs `perfev attr -j -- STRING` and checks that:

  - perfev rejects exactly the strings perf rejects;
  - perfev produces the same events, in the same groups, with the same
    value for every attr field perf printed, and zero for every field perf
    left out (perf omits zero fields).

Fields perf stat sets for its own purposes (size, sample_type, read_format,
disabled, inherit, enable_on_exec) are not in the oracle; sample_period is
cleared by perf stat for counting, so it is not compared either.

--record: ORACLE is the output of tests/data/perf-oracle/gen-record.sh: for perf
record command lines, the attrs of the events in the file perf wrote (or
nothing when perf refused the line).  For every entry this runs `perfev
record` with the same options on `true`, reads its file's attrs with
`perfev script --header-only`, and compares the fields that say what is
sampled and how (RECORD_FIELDS).  The tracking and wake-up settings and
read_format, where perfev differs by design, are not compared, nor the ID
and IDENTIFIER sample bits (perf uses one, perfev the other), nor
tracepoint ids (they belong to the kernel that recorded the oracle).
With --elsewhere (an oracle made on another machine) a command line this
machine cannot record (an event not supported or not permitted here) is
counted apart instead of failing.

Both print one PASS/FAIL/SKIP line for the harness.

diff-cmp PERF PERFEV [--sep SEP]: `perf diff` and `perfev diff` print the
same table, line for line, once perfev's Sig columns (and its legend) are
taken out; -t's separator given as --sep.
diff-marks PERFEV: perfev diff's rows as "MARK|SYMBOL" lines (MARK "-"
where the Sig column is blank), for the tests of the significance marks.
report-cmp: `perf report --stdio` and `perfev report` agree: the header
lines are equal, and the report lines are equal as (percentages, then
every column) with whitespace folded, lines of equal first percentage in
any order; a command perf cut to its column width may be a prefix of
ours.  With --top N only the first N lines of each section; with
--columns every column header, not only the first.  A group's
columns (one percentage per member) are compared like any other.  Exits
non-zero with the first difference on standard error.

set-build-id: copy perf.data file IN to OUT with the build id of NAME in
its BUILD_ID section (file mode) replaced by HEX, as a recording made on
another machine or kernel would have it.

The chains-* commands read `perf script` text with the default fields: a
sample's header line ("comm tid [cpu] time: period event:"), then its
call chain, one "ADDR SYM+OFF (DSO)" line per frame, innermost first (or
the one frame on the header line when the sample has no chain).  Each
sample's user-space chain is its frames outside the kernel (DSO not
[kernel.kallsyms], a kernel module or a kernel address), as symbols
without their +0xOFF; [unknown] is a symbol like any other and inlined
frames count (--no-inlined leaves them out).

chains-cmp A B [--min PCT] [--show N] [--no-inlined]: two scripts of
the same file (perf's and perfev's): pairs the samples in order (their
tid and time must agree), prints "matched=N total=M pct=P" where matched
samples have equal user-space chains, then the first N (3) that differ
side by side.  Exits 0 when pct >= PCT (99), 1 otherwise, 2 when the
samples themselves differ.

chains-find SCRIPT SYM... [--min N] [--min-pct P]: samples whose
user-space chain holds the symbols in that order, innermost first, each a
regular expression matching a whole symbol, others allowed between them
("cmp_keys 'msort.*' '.*qsort.*' main": a qsort callback unwound up to
main).  Prints "found=N total=M pct=P"; exits 0 when N is at least the
--min count (1) and P at least the --min-pct share (0).

chains-dist A B [--max D] [--min-samples N]: two recordings of the same
workload: for each innermost function, the shares of its samples per
user-space chain (recursions folded to one frame), compared as
distributions: how a sample in that function was unwound, whatever time
the workload spent there in each run.  Prints "leaf_tvd=D" (total
variation distances weighted by each function's share of the samples: 0
the same chains, 1 nothing in common; a function only one side has
counts in full) and the plain "tvd" over all chains, then the chains
whose shares differ most; exits 0 when leaf_tvd <= D (0.1) and both have
at least N (100) samples.
"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

# perfev JSON keys that are never compared (set by perf stat itself, or
# sample-only settings perf stat clears).
IGNORED = {"size", "sample_type", "read_format", "disabled", "inherit", "enable_on_exec",
           "sample_period", "sample_freq"}


def oracle_blocks(path):
    """The records of an oracle file: lists of (TAG, rest of the line), up to END."""
    block = []
    with open(path, encoding="utf-8") as f:
        for raw in f:
            tag, _, rest = raw.rstrip("\n").partition(" ")
            if tag == "END":
                yield block
                block = []
            else:
                block.append((tag, rest))


def load_oracle(path):
    entries = []
    for block in oracle_blocks(path):
        cur = {"event": "", "attrs": [], "names": [], "error": None}
        for tag, rest in block:
            if tag == "EVENT":
                cur["event"] = rest
            elif tag == "ATTR":
                fields = {}
                for tok in rest.split():
                    k, _, v = tok.partition("=")
                    fields[k] = int(v, 0)
                cur["attrs"].append(fields)
            elif tag == "NAME":
                cur["names"].append(rest)
            elif tag == "ERROR":
                cur["error"] = rest
        entries.append(cur)
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


# ---- perf record attrs ---------------------------------------------------------

# What is sampled and how; every other field of the '# event :' line is left alone.
RECORD_FIELDS = ("type", "config", "config1", "config2", "period", "freq", "sample_type",
                 "inherit", "mmap_data", "exclude_user", "exclude_kernel", "exclude_hv",
                 "exclude_guest", "exclude_host", "precise_ip", "exclude_callchain_user",
                 "sample_regs_user", "sample_stack_user", "sample_max_stack", "write_backward",
                 "bp_type", "bp_addr", "bp_len")
# perf writes some fields under the names of a union.
RECORD_ALIASES = {"{ sample_period, sample_freq }": "period", "sample_period": "period",
                  "sample_freq": "period", "{ bp_addr, config1 }": "bp_addr",
                  "{ bp_len, config2 }": "bp_len"}
SAMPLE_ID_BITS = {"ID", "IDENTIFIER"}


def parse_event_line(line):
    """One '# event :' line of a perf.data header as a dict of the RECORD_FIELDS."""
    ev = {}
    for m in re.finditer(r"(\{[^}]*\}|[^,={}]+?)\s*=\s*(\{[^}]*\}|[^,]*)", line):
        key, val = m.group(1).strip(), m.group(2).strip()
        key = RECORD_ALIASES.get(key, key)
        if key == "sample_type":
            ev[key] = "|".join(sorted(set(val.split("|")) - SAMPLE_ID_BITS))
        elif key in RECORD_FIELDS:
            ev[key] = int(val, 0)
        elif key == "name":
            ev[key] = val
    if ev.get("type") in (1, 5):
        # config1/config2 of a breakpoint are bp_addr/bp_len; software events have none.
        ev.pop("config1", None)
        ev.pop("config2", None)
    return ev


def load_record_oracle(path):
    entries = []
    for block in oracle_blocks(path):
        cur = {"args": [], "events": [], "crash": None}
        for tag, rest in block:
            if tag == "RECORD":
                cur["args"] = rest.split()
            elif tag == "ATTR":
                cur["events"].append(parse_event_line(rest))
            elif tag == "CRASH":
                cur["crash"] = rest
        entries.append(cur)
    return entries


def record_attrs(perfev, args, tmp):
    """perfev record ARGS -- true: (its events, or None and why it failed)."""
    path = os.path.join(tmp, "perfev.data")
    if os.path.exists(path):
        os.unlink(path)
    proc = subprocess.run([perfev, "record", "-q", "-o", path] + args + ["--", "true"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        return None, proc.stderr.strip()
    hdr = subprocess.run([perfev, "script", "--header-only", "-i", path], capture_output=True,
                         text=True)
    if hdr.returncode != 0:
        return None, "perfev script --header-only failed: " + hdr.stderr.strip()
    return [parse_event_line(line[len("# event : "):]) for line in hdr.stdout.splitlines()
            if line.startswith("# event : ")], None


# perfev's words for a machine that cannot record an event at all.
CANNOT_HERE = ("not supported", "not permitted", "permission denied", "tracefs is not")


def compare_record(entry, perfev, tmp, elsewhere):
    """Why perfev's attrs differ from the entry's, None if they agree, or
    "" when this machine cannot record them and @elsewhere says the entry
    was made on another one."""
    got, err = record_attrs(perfev, entry["args"], tmp)
    want = entry["events"]
    if not want:
        return None if got is None else "perf refuses it but perfev recorded"
    if got is None and elsewhere and any(w in err.lower() for w in CANNOT_HERE):
        return ""
    if got is None:
        return "perf records it but perfev failed: %s" % (err.splitlines() or ["?"])[0]
    if len(got) != len(want):
        return "perf records %d events, perfev %d" % (len(want), len(got))
    for i, (w, g) in enumerate(zip(want, got)):
        for k in RECORD_FIELDS:
            if k == "config" and w.get("type") == 2:
                continue
            wv, gv = w.get(k, "" if k == "sample_type" else 0), g.get(
                k, "" if k == "sample_type" else 0)
            if wv != gv:
                return "event %d (%s): %s is %s, perf has %s" % (i, w.get("name"), k, gv, wv)
    return None


def record_main(perfev, oracle, label, elsewhere):
    entries = load_record_oracle(oracle)
    if not entries:
        print("FAIL %s: no entries in %s" % (label, oracle))
        return 1
    failures, crashed, cannot = [], 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for e in entries:
            if e["crash"]:
                crashed += 1
                continue
            why = compare_record(e, perfev, tmp, elsewhere)
            if why == "":
                cannot += 1
            elif why:
                failures.append("'%s': %s" % (" ".join(e["args"]), why))
    if failures:
        print("FAIL %s: %d of %d command lines record other attrs than perf:" %
              (label, len(failures), len(entries) - crashed))
        for f in failures[:40]:
            print("  " + f)
        return 1
    print("PASS %s: %d command lines record the attrs perf records (not checked: %d where "
          "perf crashed, %d this machine cannot record)" %
          (label, len(entries) - crashed - cannot, crashed, cannot))
    return 0


def report_sections(path, columns=False):
    """The header lines and, per section, the report lines (split) of a report.
    With @columns the column headers are compared whole, else by their first name."""
    head, secs = [], []
    with open(path, errors="replace") as f:
        for raw in f:
            line = " ".join(raw.split())
            if not line or line.startswith("# (Tip") or line == "#":
                continue
            if line.startswith("# Samples:"):
                secs.append([])
            if line.startswith("#"):
                # Column headers and dots: their names (widths are checked by the lines).
                if line.startswith(("# ....", "# Overhead", "# Children")) and not columns:
                    line = " ".join(line.split()[1:3])
                head.append(line)
            elif secs and "%" in line.split(" ")[0]:
                secs[-1].append(line.split(" "))
    return head, secs


def report_cmp(args):
    top = int(args[args.index("--top") + 1]) if "--top" in args else None
    ph, ps = report_sections(args[0], "--columns" in args)
    oh, os_ = report_sections(args[1], "--columns" in args)
    if ph != oh:
        sys.exit("headers differ:\n  perf:   %s\n  perfev: %s" % (ph, oh))
    if len(ps) != len(os_):
        sys.exit("perf has %d events, perfev %d" % (len(ps), len(os_)))

    def same(a, b):
        return len(a) == len(b) and all(x == y or (len(x) >= 8 and y.startswith(x)) or
                                        (":" in x and y.startswith(x)) for x, y in zip(a, b))
    for p, o in zip(ps, os_):
        n = top or max(len(p), len(o))
        if top and (len(p) < n or len(o) < n):
            n = min(len(p), len(o))
        elif not top and len(p) != len(o):
            sys.exit("perf has %d lines, perfev %d" % (len(p), len(o)))
        # Lines of one percentage form a group; compare groups as multisets.
        i = 0
        while i < n:
            pct = p[i][0]
            if o[i][0] != pct:
                sys.exit("line %d: perf %s, perfev %s" % (i + 1, " ".join(p[i]), " ".join(o[i])))
            j = i
            while j < len(p) and p[j][0] == pct:
                j += 1
            k = i
            while k < len(o) and o[k][0] == pct:
                k += 1
            if j != k:
                sys.exit("%d lines at %s in perf, %d in perfev" % (j - i, pct, k - i))
            rest = list(o[i:k])
            for pl in p[i:j]:
                m = [x for x in rest if same(pl, x)]
                if not m:
                    sys.exit("perf's line '%s' is not in perfev's report" % " ".join(pl))
                rest.remove(m[0])
            i = j
    return 0


def perf_data_features(b):
    """Feature id -> (offset, size) of a file-mode perf.data image."""
    if b[:8] != b"PERFILE2":
        sys.exit("not a file-mode perf.data file")
    data_off, data_size = struct.unpack_from("<QQ", b, 40)
    table, n, out = data_off + data_size, 0, {}
    for feat in range(256):
        if b[72 + feat // 8] >> (feat % 8) & 1:
            out[feat] = struct.unpack_from("<QQ", b, table + 16 * n)
            n += 1
    return out


def numa_without_free(sec):
    """NUMA_TOPOLOGY with each node's free memory zeroed: it changes between two runs."""
    sec, at = bytearray(sec), 4
    for _ in range(struct.unpack_from("<I", sec, 0)[0]):
        sec[at + 12:at + 20] = bytes(8)
        at += 20 + 4 + struct.unpack_from("<I", sec, at + 20)[0]
    return bytes(sec)


def feat_cmp(args):
    """feat-cmp PERF_FILE PERFEV_FILE FEAT...: the feature sections are the same bytes."""
    a, b = open(args[0], "rb").read(), open(args[1], "rb").read()
    fa, fb = perf_data_features(a), perf_data_features(b)
    bad = []
    for feat in map(int, args[2:]):
        if feat not in fa or feat not in fb:
            bad.append("feature %d: %s" % (feat, "perf's file lacks it" if feat not in fa
                                           else "perfev's file lacks it"))
            continue
        sa = a[fa[feat][0]:fa[feat][0] + fa[feat][1]]
        sb = b[fb[feat][0]:fb[feat][0] + fb[feat][1]]
        if feat == 14:
            sa, sb = numa_without_free(sa), numa_without_free(sb)
        if sa != sb:
            bad.append("feature %d: %d bytes vs %d, first difference at %d" % (
                feat, len(sa), len(sb),
                next((i for i in range(min(len(sa), len(sb))) if sa[i] != sb[i]),
                     min(len(sa), len(sb)))))
    print("; ".join(bad) if bad else "features %s the same" % " ".join(args[2:]))
    return 1 if bad else 0


def set_build_id(args):
    src, dst, name, hexid = args
    new = bytes.fromhex(hexid)
    b = bytearray(open(src, "rb").read())
    feats = perf_data_features(b)
    if 2 not in feats:
        sys.exit("%s has no BUILD_ID section" % src)
    off, size = feats[2]
    p, done = off, 0
    # Each record: header (type, misc, size), pid, 24 id bytes (20 used), the name.
    while p + 36 <= off + size:
        rsize = struct.unpack_from("<H", b, p + 6)[0]
        if rsize < 36:
            break
        if bytes(b[p + 36:p + rsize]).split(b"\0")[0] == name.encode():
            b[p + 12:p + 36] = new.ljust(24, b"\0")
            b[p + 32] = len(new)
            done += 1
        p += rsize
    if not done:
        sys.exit("no build id of '%s' in %s" % (name, src))
    open(dst, "wb").write(b)
    return 0


# ---- perf script call chains -----------------------------------------------------

SCRIPT_HEADER = re.compile(r"^(.*?)\s+(\d+)(?:/(\d+))?\s+(?:\[\d+\]\s+)?(\d+\.\d+):")
SCRIPT_FRAME = re.compile(r"^\s*([0-9a-fA-F]+)\s+(.*)\s+\((.*)\)\s*$")
# A single frame printed on the header line of a sample without a chain.
HEADER_FRAME = re.compile(r":\s+([0-9a-fA-F]+)\s+(\S.*)\s+\(([^()]*)\)\s*$")
KERNEL_START = 0xffff800000000000
# Bracketed DSO names that are user space, not kernel modules.
USER_PSEUDO = {"[unknown]", "[vdso]", "[vsyscall]", "[heap]", "[stack]", "[anon]", "[uprobes]",
               "[jit]", "[vvar]"}


def is_kernel_frame(addr, dso):
    if dso.startswith("[kernel.") or re.search(r"\.ko(\.[a-z]+)?$", dso):
        return True
    if dso.startswith("[") and dso.endswith("]") and dso not in USER_PSEUDO and \
            not dso.startswith("[anon"):
        return True
    try:
        return int(addr, 16) >= KERNEL_START and dso == "[unknown]"
    except ValueError:
        return False


def frame_symbol(sym):
    """SYM+0xOFF -> SYM ([unknown] stays)."""
    return re.sub(r"\+0x[0-9a-fA-F]+$", "", sym.strip())


def script_samples(path, inlined=True):
    """The samples of a `perf script` text: dicts with the header line, its
    (tid, time) key, and the user-space symbols of the chain, innermost first."""
    samples = []
    with open(path, errors="replace") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if not line.strip():
                continue
            if line[0] not in " \t":
                m = SCRIPT_HEADER.match(line)
                key = (m.group(3) or m.group(2), m.group(4)) if m else (line.strip(),)
                cur = {"header": line.strip(), "key": key, "user": [], "frames": 0}
                samples.append(cur)
                fm = HEADER_FRAME.search(line)
                frames = [fm.groups()] if fm else []
            elif samples:
                fm = SCRIPT_FRAME.match(line)
                frames = [fm.groups()] if fm else [("0", line.strip(), "[unknown]")]
            else:
                continue
            for addr, sym, dso in frames:
                cur["frames"] += 1
                if dso == "inlined" and not inlined:
                    continue
                if not is_kernel_frame(addr, dso):
                    cur["user"].append(frame_symbol(sym))
    return samples


def chain_args(args, opts):
    """Split ARGS into positional arguments and the values of OPTS (name -> default)."""
    pos, vals, i = [], dict(opts), 0
    while i < len(args):
        a = args[i]
        if a in vals and isinstance(vals[a], bool):
            vals[a] = True
            i += 1
        elif a in vals:
            if i + 1 >= len(args):
                sys.exit("%s needs a value" % a)
            vals[a] = type(vals[a])(args[i + 1])
            i += 2
        else:
            pos.append(a)
            i += 1
    return pos, vals


def side_by_side(a, b, width=44):
    out = []
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else ""
        y = b[i] if i < len(b) else ""
        mark = " " if x == y else "|"
        out.append("    %-*s %s %s" % (width, x[:width], mark, y))
    return out


def chains_cmp(args):
    pos, o = chain_args(args, {"--min": 99.0, "--show": 3, "--no-inlined": False})
    if len(pos) != 2:
        sys.exit("usage: oracle.py chains-cmp PERF_SCRIPT_OUT PERFEV_SCRIPT_OUT [--min PCT]")
    a = script_samples(pos[0], not o["--no-inlined"])
    b = script_samples(pos[1], not o["--no-inlined"])
    if len(a) != len(b):
        print("samples differ: %d in %s, %d in %s" % (len(a), pos[0], len(b), pos[1]))
        return 2
    matched, depth_a, depth_b, shown = 0, 0, 0, []
    for i, (x, y) in enumerate(zip(a, b)):
        if x["key"] != y["key"]:
            print("sample %d: headers differ:\n  %s\n  %s" % (i + 1, x["header"], y["header"]))
            return 2
        depth_a += len(x["user"])
        depth_b += len(y["user"])
        if x["user"] == y["user"]:
            matched += 1
            continue
        if len(shown) < o["--show"]:
            shown.append("sample %d differs (%s):" % (i + 1, x["header"]))
            shown.append("    %-44s   %s" % (os.path.basename(pos[0]), os.path.basename(pos[1])))
            shown.extend(side_by_side(x["user"] or ["(no user frames)"],
                                      y["user"] or ["(no user frames)"]))
    total = len(a)
    pct = 100.0 * matched / total if total else 0.0
    print("matched=%d total=%d pct=%.2f" % (matched, total, pct))
    if total:
        print("user frames per sample: %.2f, %.2f" % (depth_a / total, depth_b / total))
    print("\n".join(shown))
    return 0 if total and pct >= o["--min"] else 1


def chain_holds(chain, pats):
    k = 0
    for sym in chain:
        if k < len(pats) and pats[k].fullmatch(sym):
            k += 1
    return k == len(pats)


def chains_find(args):
    pos, o = chain_args(args, {"--min": 1, "--min-pct": 0.0, "--no-inlined": False})
    if len(pos) < 2:
        sys.exit("usage: oracle.py chains-find PERF_SCRIPT_OUT SYM... [--min N] [--min-pct P]")
    samples = script_samples(pos[0], not o["--no-inlined"])
    pats = [re.compile(p) for p in pos[1:]]
    found = [s for s in samples if chain_holds(s["user"], pats)]
    pct = 100.0 * len(found) / len(samples) if samples else 0.0
    print("found=%d total=%d pct=%.2f" % (len(found), len(samples), pct))
    if found:
        print("  e.g. %s" % " <- ".join(found[0]["user"]))
    return 0 if len(found) >= o["--min"] and pct >= o["--min-pct"] else 1


def folded(chain):
    """A chain with each run of one symbol (a recursion) folded to one frame."""
    out = []
    for sym in chain:
        if not out or out[-1] != sym:
            out.append(sym)
    return tuple(out)


def chains_dist(args):
    pos, o = chain_args(args, {"--max": 0.1, "--min-samples": 100, "--show": 5,
                               "--no-inlined": False})
    if len(pos) != 2:
        sys.exit("usage: oracle.py chains-dist SCRIPT_A SCRIPT_B [--max D]")
    dists = []
    for path in pos:
        samples = script_samples(path, not o["--no-inlined"])
        counts = {}
        for s in samples:
            c = folded(s["user"])
            counts[c] = counts.get(c, 0) + 1
        dists.append((len(samples), counts))
    (na, a), (nb, b) = dists

    def share(counts, n, keep=lambda c: True):
        return {c: k / n for c, k in counts.items() if keep(c)} if n else {}

    def tvd(x, y):
        return sum(abs(x.get(k, 0) - y.get(k, 0)) for k in set(x) | set(y)) / 2
    sa, sb = share(a, na), share(b, nb)
    # Per leaf (innermost frame): how its samples were unwound, whatever its share.
    leaves = {c[0] if c else "" for c in set(a) | set(b)}
    leaf_tvd = 0.0
    for leaf in leaves:
        def keep(c):
            return (c[0] if c else "") == leaf
        la, lb = sum(v for c, v in a.items() if keep(c)), sum(v for c, v in b.items() if keep(c))
        w = ((la / na if na else 0) + (lb / nb if nb else 0)) / 2
        leaf_tvd += w * (tvd(share(a, la, keep), share(b, lb, keep)) if la and lb else 1)
    print("leaf_tvd=%.3f tvd=%.3f samples a=%d b=%d chains a=%d b=%d" %
          (leaf_tvd, tvd(sa, sb), na, nb, len(a), len(b)))
    for k in sorted(set(sa) | set(sb), key=lambda k: -abs(sa.get(k, 0) - sb.get(k, 0)))[
            :o["--show"]]:
        print("  %5.1f%% %5.1f%%  %s" % (100 * sa.get(k, 0), 100 * sb.get(k, 0),
                                        " <- ".join(k) or "(no user frames)"))
    if min(na, nb) < o["--min-samples"]:
        print("too few samples: %d, %d (at least %d)" % (na, nb, o["--min-samples"]))
        return 1
    return 0 if leaf_tvd <= o["--max"] else 1


def graph_entries(path):
    """The entries of a report with call graphs: [percentages, key, graph lines]."""
    ents = []
    with open(path, errors="replace") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            if re.match(r"^ +[0-9.]+%", line):
                toks = line.split()
                i = 0
                while i < len(toks) and toks[i].endswith("%"):
                    i += 1
                ents.append([[float(t[:-1]) for t in toks[:i]], " ".join(toks[i:]), [line], []])
            elif ents:
                # Which of two equal branches comes last changes its '|': not compared.
                ents[-1][3].append(line.replace("|", " ").rstrip())
    return ents


def graph_cmp(args):
    """
    perf report --stdio against perfev report, both with call graphs.  perf
    sorts its entries in a tree whose order is not total (inlined symbols
    are equal when their ranges overlap), so it sometimes shows one symbol
    as two entries whose shares add up to perfev's one: those are compared
    by their sum, their graphs not.  Every other entry must be equal: the
    line, and the graph's lines as a multiset.  Without such a split, the
    entries must also come in the same order (those of equal shares in any).
    """
    if len(args) != 2:
        sys.exit("usage: oracle.py graph-cmp PERF_REPORT PERFEV_REPORT")
    (pe, pk), (oe, ok) = [(e, {}) for e in map(graph_entries, args)]
    for ents, by in ((pe, pk), (oe, ok)):
        for e in ents:
            by.setdefault(e[1], []).append(e)
    if not pe:
        sys.exit("perf's report has no entries")
    if set(pk) != set(ok):
        sys.exit("entries only in perf: %s\nonly in perfev: %s" %
                 (sorted(set(pk) - set(ok))[:8], sorted(set(ok) - set(pk))[:8]))
    split = 0
    for key, p in pk.items():
        o = ok[key]
        if len(o) > len(p):
            sys.exit("perfev shows '%s' %d times, perf %d" % (key, len(o), len(p)))
        if len(p) > len(o):
            split += 1
            sums = [[sum(col) for col in zip(*[e[0] for e in side])] for side in (p, o)]
            slack = 0.0051 * (len(p) + len(o))
            if len(sums[0]) != len(sums[1]) or \
               any(abs(x - y) > slack for x, y in zip(*sums)):
                sys.exit("'%s': perf's %d entries add up to %s, perfev's %d to %s" %
                         (key, len(p), sums[0], len(o), sums[1]))
            continue
        for x, y in zip(sorted(p, key=lambda e: e[2]), sorted(o, key=lambda e: e[2])):
            if x[2] != y[2]:
                sys.exit("perf:   %s\nperfev: %s" % (x[2][0], y[2][0]))
            gx, gy = sorted(x[3]), sorted(y[3])
            if gx != gy:
                sys.exit("graph of '%s' differs:\n  perf only:   %s\n  perfev only: %s" %
                         (key, [g for g in gx if g not in gy][:4],
                          [g for g in gy if g not in gx][:4]))
    if not split:
        # Entries of equal shares come in an order perf does not define: compared as a set.
        # Equal in the first column is enough: of entries with equal Children perf orders
        # those of one thread by depth, those of two by Self, which is no total order.
        def runs(ents):
            out = []
            for e in ents:
                if out and out[-1][0] == e[0][:1]:
                    out[-1][1].append(e[2][0])
                else:
                    out.append((e[0][:1], [e[2][0]]))
            return [(pcts, sorted(lines)) for pcts, lines in out]
        for x, y in zip(runs(pe), runs(oe)):
            if x != y:
                sys.exit("order differs: perf %s, perfev %s" % (x[1][0], y[1][0]))
    print("entries=%d graph_lines=%d split_by_perf=%d" %
          (len(oe), sum(len(e[3]) for e in oe), split))
    return 0


def evlist_attrs(path):
    """perf evlist -v of a file: per event, its attr fields as perf prints them."""
    out = subprocess.run(["perf", "evlist", "-v", "-i", path], capture_output=True,
                         text=True).stdout
    evs = []
    for line in out.splitlines():
        if ": " not in line:
            continue
        fields = {}
        for m in re.finditer(r"(\{[^}]*\}|[a-z_0-9]+): ([^,]*)(?:, |$)", line.split(": ", 1)[1]):
            fields[m.group(1)] = m.group(2)
        # perf's policy, not the option's: its LOST count in read_format.
        if "read_format" in fields:
            fields["read_format"] = "|".join(x for x in fields["read_format"].split("|")
                                             if x != "LOST")
        evs.append(fields)
    return evs


# Fields each tool sets its own way whatever the options (see perfev-record(1)).
ATTR_POLICY = {"precise_ip", "bpf_event", "build_id", "watermark",
               "{ wakeup_events, wakeup_watermark }", "read_format", "exclude_guest"}


def attr_delta(args):
    """
    What an option changes in the attrs perf writes (perf's file with the
    option against perf's without) must be what it changes in perfev's:
    the same fields, to the same values.
    """
    if len(args) != 4:
        sys.exit("usage: oracle.py attr-delta PERF_BASE PERF_FILE PERFEV_BASE PERFEV_FILE")
    pb, pc, ob, oc = map(evlist_attrs, args)
    if len(pc) != len(oc):
        sys.exit("perf's file has %d events, perfev's %d" % (len(pc), len(oc)))
    changed = 0
    for i, (p, o) in enumerate(zip(pc, oc)):
        pbase = pb[i] if i < len(pb) else {}
        obase = ob[i] if i < len(ob) else {}
        pd = {k for k in set(p) | set(pbase) if p.get(k) != pbase.get(k)} - ATTR_POLICY
        od = {k for k in set(o) | set(obase) if o.get(k) != obase.get(k)} - ATTR_POLICY
        for k in sorted(pd | od):
            if p.get(k, "0") != o.get(k, "0"):
                sys.exit("event %d, %s: perf %s, perfev %s" % (i, k, p.get(k, "0"),
                                                              o.get(k, "0")))
        changed += len(pd)
    print("events=%d fields_changed=%d" % (len(pc), changed))
    return 0


def compressed_layout(args):
    """Top-level COMPRESSED records of a perf.data file (either mode) and its COMPRESSED feature."""
    b = open(args[0], "rb").read()
    if b[:8] != b"PERFILE2":
        sys.exit("not a perf.data file")
    feat = None
    if struct.unpack_from("<Q", b, 8)[0] == 16:
        off, end = 16, len(b)
    else:
        off, end = struct.unpack_from("<QQ", b, 40)
        end += off
        f = perf_data_features(b).get(27)
        if f:
            feat = struct.unpack_from("<5I", b, f[0])
    n = 0
    while off + 8 <= end:
        typ, size = struct.unpack_from("<I", b, off)[0], struct.unpack_from("<H", b, off + 6)[0]
        if size < 8:
            sys.exit("bad record at %#x" % off)
        if typ == 81:
            n += 1
        elif typ == 80 and struct.unpack_from("<Q", b, off + 8)[0] == 27 and feat is None:
            feat = struct.unpack_from("<5I", b, off + 16)
        off += size
    print("compressed=%d feature=%s" % (n, ",".join(map(str, feat)) if feat else "none"))
    return 0


def cut_compressed(args):
    """A stream whose first COMPRESSED record keeps a third of its payload, framed whole."""
    b = open(args[0], "rb").read()
    off = 16
    while off + 8 <= len(b):
        typ, size = struct.unpack_from("<I", b, off)[0], struct.unpack_from("<H", b, off + 6)[0]
        if size < 8:
            break
        if typ == 81:
            keep = (size - 8) // 3
            out = b[:off] + struct.pack("<IHH", 81, 0, 8 + keep) + b[off + 8:off + 8 + keep]
            open(args[1], "wb").write(out)
            return 0
        off += size
    sys.exit("no COMPRESSED record in %s" % args[0])


def strace_attrs(path):
    """
    The events a tool opened, from strace -v -e perf_event_open: per event
    (type and config, first open only: later ones are other CPUs, threads
    or retries), its attr fields, the CPUs it was opened on, whether it was
    a group member and on which kind of pid.  The tool's probes of itself
    (pid 0) are left out.
    """
    evs = {}
    call = re.compile(r"perf_event_open\(\{(.*)\}, (-?\d+), (-?\d+), (-?\d+), [^)]*\) = (-?\d+)")
    for line in open(path):
        m = call.search(line)
        if not m or int(m.group(2)) == 0:
            continue
        body = re.sub(r"/\*.*?\*/", "", m.group(1))
        f = dict((k, v.strip()) for k, v in re.findall(r"(\w+)=([^,]*)", body))
        key = (f.get("type"), f.get("config"))
        if key in evs:
            evs[key]["cpus"].add(m.group(3))
            continue
        # A group's leader is read whole; what members ask is never read.
        f["read_group"] = str(m.group(4) == "-1" and "PERF_FORMAT_GROUP" in f.get("read_format", ""))
        for k in ("size", "read_format"):
            f.pop(k, None)   # each tool's policy, not the option's
        f["cpus"] = {m.group(3)}
        f["pid"] = "-1" if m.group(2) == "-1" else "task"
        f["group_member"] = str(m.group(4) != "-1")
        f["opened"] = int(m.group(5)) >= 0
        evs[key] = f
    return evs


def stat_attr_delta(args):
    """
    What a stat option changes in the events opened (strace of perf stat
    and of perfev stat, each without and with it) must be the same: events
    added in the same order, and in the events both open, the same fields
    changed to the same values.
    """
    if len(args) != 4:
        sys.exit("usage: oracle.py stat-attr-delta PERF_BASE PERF_TRACE PERFEV_BASE PERFEV_TRACE")
    pb, pc, ob, oc = map(strace_attrs, args)
    # perfev's default list leaves out the hardware events a machine cannot count.
    for t in (pb, pc):
        for k in [k for k, f in t.items() if k[0] == "PERF_TYPE_HARDWARE" and not f["opened"]]:
            del t[k]
    for t in (pb, pc, ob, oc):
        for f in t.values():
            del f["opened"]
    padd = [k for k in pc if k not in pb]
    oadd = [k for k in oc if k not in ob]
    if padd != oadd:
        sys.exit("events added: perf %s, perfev %s" % (padd, oadd))
    changed = 0
    for key in pc:
        if key not in oc:
            continue
        p, o = pc[key], oc[key]
        pbase, obase = pb.get(key, p if key in padd else {}), ob.get(key, o if key in oadd else {})
        pd = {k for k in set(p) | set(pbase) if p.get(k) != pbase.get(k)}
        od = {k for k in set(o) | set(obase) if o.get(k) != obase.get(k)}
        for k in sorted(pd | od):
            if p.get(k, "0") != o.get(k, "0"):
                sys.exit("%s, %s: perf %s, perfev %s" % (key[1], k, p.get(k, "0"), o.get(k, "0")))
        # The events an option adds: every field as perf asks.
        if key in padd:
            for k in sorted(set(p) | set(o)):
                if p.get(k, "0") != o.get(k, "0"):
                    sys.exit("added %s, %s: perf %s, perfev %s" %
                             (key[1], k, p.get(k, "0"), o.get(k, "0")))
        changed += len(pd)
    print("events=%d added=%d fields_changed=%d" % (len(oc), len(oadd), changed))
    return 0


def stat_lines(path):
    """
    The counts of a perf stat (or perfev stat) text report: per line,
    (prefix: interval time and unit, event) -> value as printed; and the
    elapsed time.  Metrics after '#' and notes are left out.
    """
    out = {}
    for line in open(path):
        line = line.split(" # ")[0].rstrip()
        if not line.strip() or line.lstrip().startswith(("#", "note:", "Performance")):
            continue
        if line.endswith("seconds time elapsed"):
            out[("elapsed",)] = line.split()[0]
            continue
        if line.endswith(("seconds user", "seconds sys")):
            continue
        t = line.replace("<not counted>", "<not-counted>") \
                .replace("<not supported>", "<not-supported>").split()
        # A thread: perf shows COMM-TID, perfev the TID.
        if len(t) > 2 and re.fullmatch(r".*-\d+", t[0]) and not re.fullmatch(r"[\d.]+", t[0]):
            t[0] = t[0].rsplit("-", 1)[1]
        if len(t) >= 3 and t[-2] == "msec":
            out[tuple(t[:-3]) + (t[-1],)] = t[-3]
        elif len(t) >= 2:
            out[tuple(t[:-2]) + (t[-1],)] = t[-2]
    return out


def stat_report_cmp(args):
    """The same counts, lines and elapsed time in two stat reports (perf's and perfev's)."""
    if len(args) != 2:
        sys.exit("usage: oracle.py stat-report-cmp PERF_REPORT PERFEV_REPORT")
    p, o = map(stat_lines, args)
    if not p:
        sys.exit("no counts in %s" % args[0])
    if p != o:
        diff = sorted(set(p.items()) ^ set(o.items()))[:8]
        sys.exit("the reports differ: perf %s\nperfev %s\n(first differences: %s)" %
                 (sorted(p.items())[:6], sorted(o.items())[:6], diff))
    print("lines=%d" % len(p))
    return 0


def stat_file_as(args):
    """
    A stat record file of two software events turned into two other events
    with given counts (TYPE:CONFIG:COUNT each: attrs and STAT records),
    optionally multiplexed apart (each counted half of the time it was
    enabled): what a machine with a PMU would record, for the metrics.
    """
    import struct
    if len(args) != 5:
        sys.exit("usage: oracle.py stat-file-as IN OUT MULTIPLEXED(0|1) TYPE:CONFIG:COUNT "
                 "TYPE:CONFIG:COUNT")
    evs = [tuple(int(x, 0) for x in a.split(":")) for a in args[3:]]
    b = bytearray(open(args[0], "rb").read())
    attr_size, attrs_off, attrs_size, data_off, data_size = \
        struct.unpack_from("<QQQQQ", b, 16)
    if attrs_size // attr_size != 2:
        sys.exit("expected 2 events, the file has %d" % (attrs_size // attr_size))
    ids = []
    for i, (etype, config, _) in enumerate(evs):
        at = attrs_off + i * attr_size
        struct.pack_into("<I", b, at, etype)
        struct.pack_into("<Q", b, at + 8, config)
        id_off, id_size = struct.unpack_from("<QQ", b, at + attr_size - 16)
        ids.append(set(struct.unpack_from("<%dQ" % (id_size // 8), b, id_off)))
    pos, n = data_off, 0
    while pos < data_off + data_size:
        rtype, _, size = struct.unpack_from("<IHH", b, pos)
        if rtype == 76:   # PERF_RECORD_STAT
            sid, _, _, val, ena, run = struct.unpack_from("<QIIQQQ", b, pos + 8)
            run = ena // 2 if args[2] == "1" else ena
            struct.pack_into("<QQQ", b, pos + 24, evs[0 if sid in ids[0] else 1][2], ena, run)
            n += 1
        pos += size
    open(args[1], "wb").write(b)
    print("stat_records=%d" % n)
    return 0

# Fields whose values differ on purpose, listed in perfev-record(1): perf's precise_ip of
# cycles:P kept on its cpu-clock fallback, BPF events, build ids in MMAP2, the wakeup
# watermark, read_format's times and LOST.
FULL_POLICY = {"precise_ip", "bpf_event", "build_id", "watermark",
               "{ wakeup_events, wakeup_watermark }", "read_format"}
# The side-band bits the tracking event carries: perf's dummy of -a, perfev's first event.
TRACKING = {"mmap", "mmap2", "comm", "comm_exec", "task", "ksymbol", "bpf_event", "build_id",
            "namespaces", "context_switch", "cgroup", "text_poke", "mmap_data"}


def attr_full(args):
    """
    Every attr field of every event of perfev's file equals perf's, but the
    policy fields (ATTR_POLICY, listed in perfev-record(1)).  perf's dummy
    tracking event of -a and -C, which perfev does not add, counts as its
    tracking bits on perfev's first event; "inherit" of a CPU-wide event,
    which the kernel ignores, is not compared with --cpu-wide.
    """
    cpu_wide = "--cpu-wide" in args
    args = [a for a in args if a != "--cpu-wide"]
    if len(args) != 2:
        sys.exit("usage: oracle.py attr-full PERF_FILE PERFEV_FILE [--cpu-wide]")
    pe, oe = map(evlist_attrs, args)
    ignore = set(FULL_POLICY)
    if cpu_wide:
        ignore.add("inherit")
    if len(pe) == len(oe) + 1 and pe[-1].get("config") == "0x9" and pe[-1].get("type") == "1":
        dummy = pe.pop()
        first = dict(pe[0])
        for k in TRACKING:
            first.pop(k, None)
            if k in dummy:
                first[k] = dummy[k]
        pe[0] = first
        # Both tools add IDENTIFIER when there are several events: perf counts its dummy.
        if len(pe) == 1 and "sample_type" in pe[0]:
            pe[0]["sample_type"] = "|".join(x for x in pe[0]["sample_type"].split("|")
                                            if x != "IDENTIFIER")
    if len(pe) != len(oe):
        sys.exit("perf's file has %d events, perfev's %d" % (len(pe), len(oe)))
    fields = 0
    for i, (p, o) in enumerate(zip(pe, oe)):
        for ev in (p, o):
            if "sample_type" in ev:
                # Policy: the id of an event among several is always IDENTIFIER in perfev.
                ev["sample_type"] = "|".join(sorted("IDENTIFIER" if x == "ID" else x
                                                    for x in ev["sample_type"].split("|")))
        for k in sorted((set(p) | set(o)) - ignore):
            if p.get(k, "0") != o.get(k, "0"):
                sys.exit("event %d, %s: perf %s, perfev %s" % (i, k, p.get(k, "0"),
                                                              o.get(k, "0")))
        fields += len((set(p) | set(o)) - ignore)
    print("events=%d fields_equal=%d" % (len(pe), fields))
    return 0


def same(args):
    """same PERF OURS [--sub REGEX] [--prefix]: the two outputs line for line, REGEX blanked
    in both; with --prefix, each of perf's lines may be the start of perfev's (perf cut it)."""
    import re
    sub = re.compile(args[args.index("--sub") + 1]) if "--sub" in args else None
    a, b = [[sub.sub("", l) if sub else l for l in open(f, errors="replace").read().splitlines()]
            for f in args[:2]]
    for n, (x, y) in enumerate(zip(a, b), 1):
        if x != y and not ("--prefix" in args and y.startswith(x)):
            sys.exit("line %d differs:\n  perf:   %s\n  perfev: %s" % (n, x, y))
    if len(a) != len(b):
        sys.exit("perf printed %d lines, perfev %d" % (len(a), len(b)))
    return 0


def stacks_weight(args):
    """stacks-weight folded|html FILE EVENT REGEX: the weight (folded: the lines' values; html:
    the periods of EVENT's stacks) of the stacks with a frame matching REGEX, and of all."""
    import re
    kind, path, event, pat = args[:4]
    rx, hit, total = re.compile(pat), 0, 0
    if kind == "folded":
        for line in open(path).read().splitlines():
            stack, _, val = line.rpartition(" ")
            total += int(val)
            if any(rx.search(f) for f in stack.split(";")[1:]):
                hit += int(val)
    else:
        text = open(path, errors="replace").read()
        m = re.search(r'<script type="application/json" id="perfev-data">(.*?)</script>', text, re.S)
        d = json.loads(m.group(1))
        evs = [i for i, e in enumerate(d["events"]) if e["name"] == event]
        if not evs:
            sys.exit("no event %r in the page (%s)" % (event, [e["name"] for e in d["events"]]))
        names = [d["strings"][d["frames"][3 * i]] for i in range(len(d["frames"]) // 3)]
        for st in page_stacks(d):
            if st[0] != evs[0]:
                continue
            total += st[3]
            if any(rx.search(names[f]) for f in st[4:]):
                hit += st[3]
    print("%d %d" % (hit, total))


def page_stacks(d):
    """The stacks of a report page's data as [event, comm, samples, period, frames...] (frames
    outermost first): each node of the call trees with samples or a count of its own, by its
    path from its event's root."""
    nodes, nf = d["nodes"], len(d["frames"]) // 3
    path, out = [], []
    for i in range(0, len(nodes), 4):
        back, frame, samples, period = nodes[i:i + 4]
        k = i // 4
        if back == 0:
            ent = (frame, None, [])
        else:
            ev, comm, frames = path[k - back]
            ent = (ev, frame - nf, frames) if frame >= nf else (ev, comm, frames + [frame])
        path.append(ent)
        if samples or period:
            out.append([ent[0], ent[1], samples, period] + ent[2])
    return out


def filtered_samples(args):
    """filtered-samples PERF FOLDED HTML: the samples of perf report -n's lines (PERF) are
    those of the folded stacks and of the HTML page's stacks; prints the count."""
    import re
    want = 0
    for line in open(args[0], errors="replace"):
        f = line.split()
        if len(f) > 1 and not line.startswith("#") and f[0].endswith("%"):
            want += int(f[1])
    folded = sum(int(l.rpartition(" ")[2]) for l in open(args[1]).read().splitlines())
    text = open(args[2], errors="replace").read()
    m = re.search(r'<script type="application/json" id="perfev-data">(.*?)</script>', text, re.S)
    html = sum(st[2] for st in page_stacks(json.loads(m.group(1))))
    if folded != want or html != want:
        sys.exit("perf report shows %d samples, the folded stacks hold %d, the HTML page %d" %
                 (want, folded, html))
    print(want)


ANN_HEAD = re.compile(r"^\s*Percent\s.*\|\s+Source code & Disassembly of (\S+) for (\S+) \((\d+) samples")
ANN_SYM = re.compile(r"^\s*:\s*(?:\d+\s+)?([0-9a-f]+) <(.+)>:\s*$")
ANN_LINE = re.compile(r"^\s*(\d+\.\d+)\s+(?:\d+\s+)?:\s+([0-9a-f]+):")


def annotate_sections(path):
    """perf annotate --stdio's (or perfev's) output: a list of (file, event, samples, names,
    {address: percent}), one per function shown, each instruction line by its address;
    names are the "<sym>:" labels in it (objdump may start a PLT entry's at _init)."""
    out = []
    for line in open(path, errors="replace"):
        m = ANN_HEAD.match(line)
        if m:
            out.append((m.group(1), m.group(2), int(m.group(3)), [], {}))
            continue
        m = ANN_SYM.match(line)
        if m and out:
            out[-1][3].append(m.group(2))
            continue
        m = ANN_LINE.match(line)
        if m and out:
            a = int(m.group(2), 16)
            out[-1][4][a] = out[-1][4].get(a, 0.0) + float(m.group(1))
    return out


def annotate_cmp(args):
    """annotate-cmp PERF_OUT PERFEV_OUT [--max D] [--sym NAME]...: every function perf
    annotated is in perfev's output with the same sample count and each instruction's
    percent within D points (default 1) of perf's, instructions matched by address."""
    maxd = float(args[args.index("--max") + 1]) if "--max" in args else 1.0
    want = [args[i + 1] for i, a in enumerate(args) if a == "--sym"]
    perf, ours = annotate_sections(args[0]), annotate_sections(args[1])
    if not perf:
        sys.exit("perf annotated nothing in %s" % args[0])
    checked = lines = 0
    worst = 0.0
    for f, ev, n, names, p in perf:
        if want and not set(want) & set(names):
            continue
        # The same code: its instructions' addresses (a symbol of several names, such as
        # read and __read, may be named either way); the same name and count first.
        mine = [o for o in ours if o[0] == f and o[1] == ev and len(o[3]) == 1 and
                set(o[4]) & set(a for a in p if p[a] > 0)]
        mine.sort(key=lambda o: (o[3][0] not in names, o[2] != n))
        if not mine:
            sys.exit("perf annotated %s of %s (%s), perfev did not (perfev has: %s)" %
                     (names[-1] if names else "?", f, ev,
                      ", ".join(sorted(o[3][0] for o in ours if o[3]))[:400]))
        on, o = mine[0][2], mine[0][4]
        if on != n:
            sys.exit("%s: perf counts %d samples, perfev %d" % (mine[0][3][0], n, on))
        for a in sorted(set(p) | set(o)):
            d = abs(p.get(a, 0.0) - o.get(a, 0.0))
            worst = max(worst, d)
            if d > maxd:
                sys.exit("%s at %x: perf %.2f%%, perfev %.2f%%" %
                         (mine[0][3][0], a, p.get(a, 0.0), o.get(a, 0.0)))
            lines += 1
        checked += 1
    if want and not checked:
        sys.exit("perf did not annotate %s" % ", ".join(want))
    print("functions=%d instructions=%d worst_diff=%.2f" % (checked, lines, worst))
    return 0

def fake_kcore(args):
    """fake-kcore OUT KALLSYMS: an ELF core file laid out as /proc/kcore, one PT_LOAD from
    the kernel's _stext to _etext (from KALLSYMS), its bytes all NOP (one byte each), so
    that each sampled address is an instruction of its own."""
    syms = {}
    for line in open(args[1]):
        f = line.split()
        if len(f) >= 3 and f[2] in ("_stext", "_etext"):
            syms[f[2]] = int(f[0], 16)
    start, end = syms.get("_stext", 0), syms.get("_etext", 0)
    if not start or end <= start:
        sys.exit("no _stext and _etext addresses in %s (kallsyms hidden?)" % args[1])
    ehdr = struct.pack("<16sHHIQQQIHHHHHH", b"\x7fELF\x02\x01\x01" + bytes(9), 4, 62, 1, 0,
                       64, 0, 0, 64, 56, 1, 0, 0, 0)
    phdr = struct.pack("<IIQQQQQQ", 1, 5, 4096, start, 0, end - start, end - start, 4096)
    with open(args[0], "wb") as f:
        f.write(ehdr + phdr)
        f.seek(4096)
        f.write(b"\x90" * (end - start))
    return 0


def annotate_samples_cmp(args):
    """annotate-samples-cmp PERF_SCRIPT_OUT PERFEV_OUT DSO [--max D]: perfev's percent of each
    address of DSO's functions (one instruction per address: see fake-kcore) against the
    share of the period perf script -F ip,sym,period,dso gives that address in its function."""
    maxd = float(args[args.index("--max") + 1]) if "--max" in args else 1.0
    dso = args[2]
    want = {}
    for line in open(args[0], errors="replace"):
        f = line.split()
        if len(f) < 4 or f[-1] != "(%s)" % dso:
            continue
        period, ip, sym = int(f[0]), int(f[1], 16), " ".join(f[2:-1])
        fn = want.setdefault(sym, {})
        fn[ip] = fn.get(ip, 0) + period
    ours = {o[3][0]: o for o in annotate_sections(args[1]) if o[0] == dso and o[3]}
    if not want:
        sys.exit("perf script shows no sample in %s" % dso)
    lines, worst = 0, 0.0
    for sym, fn in want.items():
        if sym not in ours:
            sys.exit("perf script has samples in %s, perfev annotated no such function" % sym)
        total = sum(fn.values())
        o = ours[sym][4]
        for a in set(fn) | set(o):
            p = 100.0 * fn.get(a, 0) / total
            d = abs(p - o.get(a, 0.0))
            worst = max(worst, d)
            if d > maxd:
                sys.exit("%s at %x: perf script %.2f%%, perfev %.2f%%" % (sym, a, p, o.get(a, 0.0)))
            lines += 1
    print("functions=%d instructions=%d worst_diff=%.2f" % (len(want), lines, worst))
    return 0


def print_line_cmp(args):
    """print-line-cmp PERF_OUT PERFEV_OUT: the "Sorted summary" of perf annotate -l: the same
    source lines, each percent within 1 point (perf asks addr2line for each sampled address,
    perfev libdw for each instruction: a sample may land on a neighbouring line)."""
    def summary(path):
        out, on = {}, False
        for line in open(path, errors="replace"):
            if line.startswith("Sorted summary"):
                on = True
            elif " Percent " in line or line.startswith(" Percent"):
                on = False
            elif on:
                m = re.match(r"^\s+(\d+\.\d+)\s+(\S+:\d+)\s*$", line)
                if m:
                    out[m.group(2)] = out.get(m.group(2), 0.0) + float(m.group(1))
        return out
    p, o = summary(args[0]), summary(args[1])
    if not p:
        sys.exit("no sorted summary in perf's output")
    for k in set(p) | set(o):
        if abs(p.get(k, 0.0) - o.get(k, 0.0)) > 1.0:
            sys.exit("%s: perf %.2f%%, perfev %.2f%%" % (k, p.get(k, 0.0), o.get(k, 0.0)))
    print("lines=%d" % len(p))
    return 0


def top_snapshots(path):
    """The snapshots of `perfev top --stdio`: per refresh, its status line and its table lines."""
    snaps = []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.lstrip().startswith("perfev top:"):
                snaps.append({"status": line.strip(), "lines": []})
            elif snaps and "%" in line and not line.startswith("-"):
                snaps[-1]["lines"].append(line)
    return snaps


def top_find(args):
    """top-find OUT SYM [--within N] [--absent-from K] [--no-kernel] [--no-user] [--caller FN]
    [--min-snaps N]: SYM is a line of one of the first N snapshots (3); with --absent-from K,
    of none from the K-th on; --no-kernel / --no-user: no [k] / [.] line in any snapshot;
    --caller FN: a chain line under SYM names FN; at least --min-snaps snapshots (1)."""
    pos, opt = chain_args(args, {"--within": 3, "--absent-from": 0, "--no-kernel": False,
                                 "--no-user": False, "--caller": "", "--min-snaps": 1})
    out, sym = pos
    snaps = top_snapshots(out)
    if len(snaps) < int(opt["--min-snaps"]):
        print("%d snapshots, expected at least %s" % (len(snaps), opt["--min-snaps"]))
        return 1
    first = None
    for i, sn in enumerate(snaps):
        if any(sym in l and ("[k]" in l or "[.]" in l) for l in sn["lines"]):
            first = i if first is None else first
            if int(opt["--absent-from"]) and i + 1 >= int(opt["--absent-from"]):
                print("'%s' still in snapshot %d of %d: %s" % (sym, i + 1, len(snaps), sn["status"]))
                return 1
    within = int(opt["--within"])
    if first is None or first >= within:
        print("'%s' not in the first %d of %d snapshots%s" % (
            sym, within, len(snaps), "" if first is None else " (first in %d)" % (first + 1)))
        return 1
    for flag, mark in (("--no-kernel", "[k]"), ("--no-user", "[.]")):
        if opt[flag]:
            bad = [l for sn in snaps for l in sn["lines"] if mark in l]
            if bad:
                print("%s: a %s line: %s" % (flag, mark, bad[0].strip()))
                return 1
    if opt["--caller"]:
        lines = snaps[first]["lines"]
        at = next(i for i, l in enumerate(lines) if sym in l and "[" in l)
        chain = []
        for l in lines[at + 1:]:
            if not l.lstrip().startswith("--"):
                break
            chain.append(l)
        if not any(opt["--caller"] in l for l in chain):
            print("no chain under '%s' names '%s': %s" % (sym, opt["--caller"], chain[:3]))
            return 1
    print("'%s' in snapshot %d of %d" % (sym, first + 1, len(snaps)))
    return 0


def diff_sig_spans(lines, sep):
    """The header line's index and perfev diff's Sig columns: (start, end)
    character spans, or with a separator field indexes."""
    for i, ln in enumerate(lines):
        if ln.startswith("# ") and re.search(r"(^|\s|%s)Sig(/\d+)?(\s|%s|$)" % (
                re.escape(sep or " "), re.escape(sep or " ")), ln[2:]):
            if sep:
                return i, [k for k, f in enumerate(ln[2:].split(sep))
                           if re.fullmatch(r"\s*Sig(/\d+)?\s*", f)]
            return i, [(m.start(), m.end()) for m in re.finditer(r"  +Sig(/\d+)?", ln)]
    return None, []


def diff_strip(lines, sep):
    head, spans = diff_sig_spans(lines, sep)
    out = []
    for i, ln in enumerate(lines):
        if ln.startswith("# Sig:") or ln.startswith("#  (two-proportion"):
            if out and out[-1] == "":
                out.pop()
            continue
        if head is not None and i >= head and not ln.startswith("# Event") and ln != "#":
            if sep and (ln.startswith("# ") and i == head or not ln.startswith("#")):
                pre = "# " if i == head else ""
                f = ln[len(pre):].split(sep)
                ln = pre + sep.join(x for k, x in enumerate(f) if k not in spans)
            elif not sep:
                for a, b in reversed(spans):
                    ln = ln[:a] + ln[b:]
        out.append(ln)
    return out


def diff_ties(lines):
    """diff-cmp --ties: the lines of a run with equal figures (the numbers before the names)
    sorted among them, an address no symbol covers as 0x?.  For system-wide recordings of a
    shared machine: perf orders such lines, and names such an entry (all of a process's
    unresolved addresses, merged), by its insertion order, which perfev does not repeat."""
    def figures(ln):
        toks = ln.split()
        k = 0
        while k < len(toks) and re.fullmatch(r"[-+]?[0-9.]+%?", toks[k]):
            k += 1
        return toks[:k]
    out, run = [], []
    for ln in lines + [None]:
        if ln is not None and not ln.startswith("#") and ln.strip():
            ln = re.sub(r"\[\.\] 0x[0-9a-f]+$", "[.] 0x?", ln)
            if run and figures(run[-1]) == figures(ln):
                run.append(ln)
                continue
        out += sorted(run)
        run = [ln] if ln is not None and not ln.startswith("#") and ln.strip() else []
        if ln is not None and not run:
            out.append(ln)
    return out


def diff_cmp(args):
    sep = args[args.index("--sep") + 1] if "--sep" in args else None
    a = open(args[0], errors="replace").read().split("\n")
    b = diff_strip(open(args[1], errors="replace").read().split("\n"), sep)
    if "--ties" in args:
        a, b = diff_ties(a), diff_ties(b)
    for n, (x, y) in enumerate(zip(a, b), 1):
        if x != y:
            sys.exit("line %d differs:\n  perf:   %r\n  perfev: %r" % (n, x, y))
    if len(a) != len(b):
        sys.exit("perf printed %d lines, perfev %d (once its Sig columns are out)" % (len(a), len(b)))
    return 0


def diff_marks(args):
    lines = open(args[0], errors="replace").read().split("\n")
    head, spans = diff_sig_spans(lines, None)
    if head is None or not spans:
        sys.exit("no Sig column in %s" % args[0])
    sym = lines[head].find("Symbol")
    for ln in lines[head + 1:]:
        if not ln or ln.startswith("#"):
            continue
        a, b = spans[0]
        print("%s|%s" % (ln[a:b].strip() or "-", ln[sym:].strip()))
    return 0


# ---- pprof (perfev report --pprof, record --push) ----------------------------------------------

def protoc_text(path):
    """protoc --decode's text format as nested dicts of lists."""
    from collections import defaultdict
    root, stack = defaultdict(list), []
    cur = root
    for line in open(path, errors="replace"):
        line = line.strip()
        if not line:
            continue
        if line.endswith("{"):
            child = defaultdict(list)
            cur[line[:-1].strip()].append(child)
            stack.append(cur)
            cur = child
        elif line == "}":
            cur = stack.pop()
        else:
            k, v = line.split(":", 1)
            v = v.strip()
            if v.startswith('"'):
                v = v[1:-1].encode().decode("unicode_escape")
            else:
                v = {"true": 1, "false": 0}.get(v, v)
                v = int(v)
            cur[k].append(v)
    return root


def pprof_errors(pb, types=None):
    """What is inconsistent in a decoded pprof, with the value types expected."""
    one = lambda m, k: m[k][0] if m[k] else 0
    strs = pb["string_table"]
    errs = []
    if not strs or strs[0] != "":
        return ["string_table[0] is not empty"]
    st = lambda i: strs[i] if 0 <= i < len(strs) else errs.append("string %d out of range" % i)
    got = [(st(one(t, "type")), st(one(t, "unit"))) for t in pb["sample_type"]]
    if types and got != types:
        errs.append("sample types %s, expected %s" % (got, types))
    pt = pb["period_type"]
    if types and (not pt or (st(one(pt[0], "type")), st(one(pt[0], "unit"))) != types[-1]):
        errs.append("period type is not %s/%s" % types[-1])
    maps = {one(m, "id") for m in pb["mapping"]}
    for loc in pb["location"]:
        if one(loc, "mapping_id") not in maps:
            errs.append("location %d: no mapping" % one(loc, "id"))
    if not pb["sample"]:
        errs.append("no samples")
    for smp in pb["sample"]:
        keys = {st(one(lb, "key")) for lb in smp["label"]}
        if not {"comm", "pid", "tid"} <= keys:
            errs.append("a sample lacks the comm/pid/tid labels: %s" % sorted(keys))
            break
        # A number of zero with no unit is dropped by pprof's readers.
        nounit = [st(one(lb, "key")) for lb in smp["label"]
                  if st(one(lb, "key")) != "comm" and not one(lb, "num_unit")]
        if nounit:
            errs.append("labels %s have no unit: a zero would be lost" % nounit)
            break
    return errs


def pprof_check(args):
    """pprof-check TEXT PATH BUILDID: a stripped binary's profile keeps its raw addresses."""
    text, path, bid = args
    pb = protoc_text(text)
    one = lambda m, k: m[k][0] if m[k] else 0
    errs = pprof_errors(pb, [("samples", "count"), ("cpu", "nanoseconds")])
    strs = pb["string_table"]
    m = pb["mapping"][0] if pb["mapping"] else None
    if not m:
        errs.append("no mapping")
    else:
        if strs[one(m, "filename")] != path:
            errs.append("the first mapping is %s, not the main binary %s" % (strs[one(m, "filename")], path))
        if strs[one(m, "build_id")] != bid:
            errs.append("the first mapping's build id is '%s', not %s" % (strs[one(m, "build_id")], bid))
        if one(m, "has_functions"):
            errs.append("the stripped binary's mapping says it has functions")
        locs = [loc for loc in pb["location"] if one(loc, "mapping_id") == one(m, "id")]
        if not locs:
            errs.append("no location in the main binary")
        for loc in locs:
            if loc["line"] or not one(loc, "address"):
                errs.append("location %d: lines %s, address %d: expected an address alone" %
                            (one(loc, "id"), len(loc["line"]), one(loc, "address")))
                break
    if errs:
        sys.exit("\n".join(errs[:10]))
    return 0


def push_check(args):
    """push-check DIR NAME MIN [contiguous]: what push-receiver.py got: at least MIN
    windows named NAME (with its labels), each a pprof of cpu-clock samples; with
    "contiguous", each window starts where the one before ended."""
    import gzip
    import subprocess
    d, name, least = args[0], args[1], int(args[2])
    contiguous = "contiguous" in args[3:]
    n = len([f for f in os.listdir(d) if f.endswith(".query")])
    errs, prev, empty = [], None, 0
    for i in range(n):
        q = dict(l.rstrip("\n").split("=", 1) for l in open(os.path.join(d, "%d.query" % i)))
        if q.get("name") != name or q.get("format") != "pprof":
            errs.append("window %d: name '%s' format '%s', expected %s and pprof" %
                        (i, q.get("name"), q.get("format"), name))
        if not q.get("from", "").isdigit() or int(q["until"]) < int(q["from"]):
            errs.append("window %d: from %s until %s" % (i, q.get("from"), q.get("until")))
        elif contiguous and prev is not None and int(q["from"]) != prev:
            errs.append("window %d starts at %s, the one before ended at %d: a window is missing" %
                        (i, q["from"], prev))
        else:
            prev = int(q["until"])
        raw = gzip.decompress(open(os.path.join(d, "%d.pb.gz" % i), "rb").read())
        out = subprocess.run(["protoc", "--decode", "perftools.profiles.Profile", "-I", "proto",
                              "proto/profile.proto"], input=raw, capture_output=True)
        if out.returncode:
            errs.append("window %d: protoc cannot decode it: %s" % (i, out.stderr[:200]))
            continue
        txt = os.path.join(d, "%d.txt" % i)
        open(txt, "wb").write(out.stdout)
        # A run's last window may end before its first sample (the workload ending just
        # after the window began): it still has the types, and no samples.
        werrs = pprof_errors(protoc_text(txt), [("samples", "count"), ("cpu", "nanoseconds")])
        empty += "no samples" in werrs
        errs += ["window %d: %s" % (i, e) for e in werrs if e != "no samples"]
    if n and empty == n:
        errs.append("no window has samples")
    if n < least:
        errs.append("%d windows arrived, expected at least %d" % (n, least))
    if errs:
        sys.exit("\n".join(errs[:10]))
    print(n)


def evil_tar(args):
    """evil-tar OUT: a tar.gz whose entries try to leave the directory it is extracted into:
    a name climbing out, an absolute name, links pointing out (absolute, climbing, through
    another link) and a file written through such a link; plus one good file, "ok"."""
    import io
    import tarfile
    out = args[0]

    def add(t, name, data=None, link=None):
        info = tarfile.TarInfo(name)
        if link is not None:
            info.type = tarfile.SYMTYPE
            info.linkname = link
            t.addfile(info)
        else:
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    with tarfile.open(out, "w:gz", format=tarfile.USTAR_FORMAT) as t:
        add(t, "../evil", b"x")
        add(t, "/tmp/perfev-evil-absolute", b"x")
        add(t, "up", link="..")
        add(t, "root", link="/")
        add(t, "d/up2", link="../..")
        add(t, "up/evil2", b"x")
        add(t, "root/tmp/perfev-evil-root", b"x")
        add(t, "same", link=".")
        add(t, "same/ok", b"fine")


def folded_neighbours(args):
    """folded-neighbours FOLDED FUNC: the names next to FUNC's outermost frame on the folded
    stacks (COMM;ROOT;...;LEAF COUNT) of FOLDED, as a sandwich view shows them: its callers
    ('callers=A|B', sorted) and callees ('callees=C|D', sorted)."""
    path, func = args
    callers, callees = set(), set()
    for line in open(path, errors="replace"):
        stack, _, count = line.rstrip("\n").rpartition(" ")
        frames = stack.split(";")
        if not count.isdigit() or func not in frames[1:]:
            continue
        i = frames.index(func, 1)
        callers.add(frames[i - 1])
        if i + 1 < len(frames):
            callees.add(frames[i + 1])
    print("callers=" + "|".join(sorted(callers)))
    print("callees=" + "|".join(sorted(callees)))
    return 0


def page_state(args):
    """page-state DOM: the state of a page perfev report --html or perfev diff --html wrote,
    as a headless browser's --dump-dom left it, as key=value lines: the summary element's
    data-* attributes, the tables' rows (rowN=CELL|CELL|..., total.NAME=its Total %), the
    event selector (select=shown|hidden|absent N), the metadata (meta=VALUE); the source
    table's rows (srcrow=LINE|SELF%|TOTAL%|SELF N|TOTAL N|CLASS, srcline.LINE=its text)."""
    from html.parser import HTMLParser

    class Page(HTMLParser):
        def __init__(self):
            super().__init__()
            self.out, self.rows, self.dd, self.opts = [], [], [], 0
            self.tbody = self.td = self.indd = False
            self.select = "absent"
            self.table, self.src = "", []

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if tag == "table":
                self.table = a.get("id", "")
            if self.tbody and tag == "tr" and self.table == "srctab":
                self.src.append((a.get("class") or "", len(self.rows)))
            if a.get("id") == "summary":
                self.out += ["%s=%s" % (k[5:], v) for k, v in attrs if k.startswith("data-")]
            if a.get("id") == "inj":
                self.out.append("injected=1")
            if tag == "select" and a.get("id") == "event":
                self.select = "hidden" if "hidden" in a else "shown"
            self.opts += tag == "option"
            self.tbody |= tag == "tbody"
            if self.tbody and tag == "tr":
                self.rows.append([])
            if self.tbody and tag == "td":
                self.rows[-1].append("")
                self.td = True
            if tag == "dd":
                self.dd.append("")
                self.indd = True

        def handle_endtag(self, tag):
            self.td &= tag != "td"
            self.indd &= tag != "dd"
            self.tbody &= tag != "tbody"

        def handle_data(self, d):
            if self.td:
                self.rows[-1][-1] += d
            if self.indd:
                self.dd[-1] += d

    p = Page()
    p.feed(open(args[0], errors="replace").read())
    print("\n".join(p.out))
    print("select=%s %d" % (p.select, p.opts))
    src = dict((at, cls) for cls, at in p.src)
    for i, r in enumerate(p.rows):
        if i in src:
            print("srcrow=%s|%s" % ("|".join(r[:5]), src[i]))
            if r[0].isdigit():
                print("srcline.%s=%s" % (r[0], r[5]))
            continue
        print("row%d=%s" % (i, "|".join(r)))
        print("total.%s=%s" % (r[0], r[3]))
        print("self.%s=%s" % (r[0], r[2]))
    for d in p.dd:
        print("meta=" + d)
    return 0


def png_colours(args):
    """png-colours PNG W H MIN: the screenshot PNG is W x H pixels (8-bit RGB or RGBA) with at
    least MIN colours (sampled on every fourth row, every second pixel)."""
    import zlib
    path, want_w, want_h, least = args[0], int(args[1]), int(args[2]), int(args[3])
    b = open(path, "rb").read()
    if b[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("not a PNG")
    pos, idat, w, h, bpp = 8, b"", 0, 0, 3
    while pos < len(b):
        n, t = struct.unpack(">I4s", b[pos:pos + 8])
        d = b[pos + 8:pos + 8 + n]
        if t == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", d[:10])
            if depth != 8 or ctype not in (2, 6):
                sys.exit("unexpected PNG format: depth %d, colour type %d" % (depth, ctype))
            bpp = 3 if ctype == 2 else 4
        elif t == b"IDAT":
            idat += d
        pos += 12 + n
    if (w, h) != (want_w, want_h):
        sys.exit("%dx%d, not %dx%d" % (w, h, want_w, want_h))
    raw, stride = zlib.decompress(idat), w * bpp
    prev, colours = bytearray(stride), set()
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + prev[i]) & 255
            elif f == 3:
                line[i] = (line[i] + (a + prev[i]) // 2) & 255
            elif f == 4:
                p = a + prev[i] - c
                pa, pb, pc = abs(p - a), abs(p - prev[i]), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else prev[i] if pb <= pc else c)) & 255
        if y % 4 == 0:
            colours.update(bytes(line[i:i + 3]) for i in range(0, stride, bpp * 2))
        prev = line
    if len(colours) < least:
        sys.exit("only %d colours" % len(colours))
    return 0


def page_alone(args):
    """page-alone PAGE MAX_BYTES: the page is under MAX_BYTES without its data and loads
    nothing from elsewhere (no src or href attribute, @import or url())."""
    s = open(args[0], encoding="utf-8").read()
    if not re.search(r'<script type="application/json" id="perfev-data">', s):
        sys.exit("no data element")
    page = re.sub(r'(<script type="application/json" id="[a-z-]*">)(.*?)(</script>)', r'\1\3', s,
                  flags=re.S)
    if len(page.encode()) >= int(args[1]):
        sys.exit("the page is %d bytes without its data" % len(page.encode()))
    ext = re.search(r'<[^>]*\s(src|href)\s*=|@import|url\(', page)
    if ext:
        sys.exit("loads something: %s" % page[ext.start():ext.start() + 80])
    return 0


def diff_top(args):
    """diff-top PERFEV_DIFF_OUT NAME CHANGE: perfev diff's table (-c delta-abs) agrees with a
    page naming NAME the function whose share changed most, by CHANGE points (signed): NAME's
    row has a Delta of CHANGE's sign within 0.5 points of it, and no row's Delta is more than
    1 point larger in size (two changes that close are the same within sampling noise)."""
    path, name, change = args[0], args[1], float(args[2])
    deltas = {}
    for line in open(path, errors="replace"):
        m = re.match(r"\s+(?:[\d.]+%)?\s+([-+][\d.]+)%.*\[.\] (\S+)\s*$", line)
        if m:
            deltas.setdefault(m.group(2), float(m.group(1)))
    if name not in deltas:
        sys.exit("'%s' is not in perfev diff's table: %s" % (name, sorted(deltas)[:10]))
    d, big = deltas[name], max(abs(v) for v in deltas.values())
    if (d < 0) != (change < 0) or abs(d - change) > 0.5 or big > abs(d) + 1:
        sys.exit("the page: %s %+.2f; perfev diff's table: %s %+.2f, the largest change %.2f" %
                 (name, change, name, d, big))
    return 0


def diff_data(args):
    """diff-data PAGE BASE NEW: perfev diff --html's data: the report page's, of two events
    (the baseline's, the new file's) whose call trees hold their whole counts, with hot_a and
    hot_b sampled and called from main in both, and a "diff" object naming them and the
    files BASE and NEW."""
    page, base, new = args
    s = open(page, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="perfev-data">(.*?)</script>', s, re.S)
    if not m:
        sys.exit("no data element")
    d = json.loads(m.group(1))
    want = {"base": 0, "new": 1, "base_file": base, "new_file": new}
    if d.get("diff") != want or len(d["events"]) != 2:
        sys.exit("diff %s, %d events; want %s, 2 events" % (d.get("diff"), len(d["events"]), want))
    names = [d["strings"][d["frames"][3 * i]] for i in range(len(d["frames"]) // 3)]
    for e, side in enumerate(("baseline", "new")):
        stacks = [st for st in page_stacks(d) if st[0] == e]
        total = sum(st[3] for st in stacks)
        if total != d["events"][e]["period"] or not d["events"][e]["samples"]:
            sys.exit("%s: the tree holds %d, the event's count is %d" %
                     (side, total, d["events"][e]["period"]))
        leaves = {names[st[-1]] for st in stacks if len(st) > 4}
        if not {"hot_a", "hot_b"} <= leaves:
            sys.exit("%s: leaves %s" % (side, sorted(leaves)[:10]))
        if not any(names[f] == "main" for st in stacks for f in st[4:-1]):
            sys.exit("%s: no call chains through main" % side)
    print(base, new)

GRAPH_BRANCH = re.compile(r"^-*(\d+\.\d+%)(?:--| )")


def graph_tree(lines, who):
    """The entries of a report with call graphs as trees: [header, chain lines, branches],
    each branch [its line (percentage and name), chain lines, branches]; the '|' and
    spaces that draw the tree are dropped, the depth is kept in the tree.  Exits where
    the drawing does not match the tree: a branch followed by a sibling has a '|' before
    its '--' and down all its lines, the last one a space."""
    ents = []

    def drawn(node):
        for k, kid in enumerate(node[2]):
            bar = " " if k == len(node[2]) - 1 else "|"
            # Folded stacks (-g folded) start in the first column, undrawn.
            for line in kid[3] if kid[4] >= 0 else []:
                if (line[kid[4]] if len(line) > kid[4] else " ") != bar:
                    sys.exit("%s: a '%s' expected in column %d:\n%s" % (who, bar, kid[4] + 1, line))
            drawn(kid)
    for raw in list(lines) + ["  0.00% (end)"]:
        line = raw.rstrip()
        if not line or line.startswith("#"):
            continue
        if re.match(r"^ +[0-9.]+%", line):
            if ents:
                drawn(ents[-1])
            ents.append([line, [], []])
            stack = [(-1, ents[-1])]
            continue
        if not ents:
            continue
        text = line.lstrip(" |")
        if not text:
            continue
        col = len(line) - len(text)
        if GRAPH_BRANCH.match(text) and not text.startswith("---"):
            while len(stack) > 1 and stack[-1][0] >= col:
                stack.pop()
            # [line, chain lines, branches, the lines it spans, the column of its '|']
            node = [text.lstrip("-"), [], [], [], col - 1]
            stack[-1][1][2].append(node)
            stack.append((col, node))
        else:
            stack[-1][1][1].append(text)
        for _, node in stack[1:]:
            node[3].append(line)
    return ents[:-1]


def graph_canon(node):
    """@node's tree as text, branches of one percentage (perf's ties) sorted among them."""
    out, group, pct = [node[0]] + node[1], [], None
    for kid in node[2] + [None]:
        kpct = kid[0].split("%")[0] if kid else None
        if kid is None or kpct != pct:
            out += sorted(group)
            group, pct = [], kpct
        if kid:
            group.append(graph_canon(kid))
    return "\n".join(out).replace("\n", "\n  ")


def graph_same(args):
    """
    graph-same PERF PERFEV [--top N]: perf report --stdio's call graphs are perfev's, line
    for line and in order, except among branches of one parent with equal percentages and
    among entries with an equal first percentage, compared as multisets.  perf 6.1 orders
    tied branches by the addresses of its objects in memory (match_chain_dso_addresses()
    compares struct dso pointers), which change from run to run; entries of equal Children
    it orders by depth only within a thread (no total order; perfev-report(1) says so).
    With --top, the first N entries and those tied with the Nth.
    """
    top = int(args[args.index("--top") + 1]) if "--top" in args else None
    pe, oe = [graph_tree(open(path, errors="replace"), who)
              for path, who in zip(args[:2], ("perf", "perfev"))]
    if not pe:
        sys.exit("perf's report has no entries")

    def pcts(e):
        return e[0].split()[0]

    def groups(ents):
        out = []
        for e in ents:
            if out and pcts(out[-1][0]) == pcts(e):
                out[-1].append(e)
            else:
                out.append([e])
        return out
    n = 0
    for gp, go in zip(groups(pe), groups(oe)):
        a, b = sorted(map(graph_canon, gp)), sorted(map(graph_canon, go))
        if a != b:
            diff = [(x, y) for x, y in zip(a, b) if x != y] or [(a[-1:], b[-1:])]
            x, y = (str(v).split("\n") for v in diff[0])
            i = next((k for k in range(min(len(x), len(y))) if x[k] != y[k]), min(len(x), len(y)))
            sys.exit("entry '%s' differs at graph line %d:\n  perf:   %s\n  perfev: %s" %
                     (" ".join(x[0].split()), i, x[i] if i < len(x) else "(end)",
                      y[i] if i < len(y) else "(end)"))
        n += len(gp)
        if top and n >= top:
            break
    if n < min(top or len(pe), len(pe)) or (not top and len(pe) != len(oe)):
        sys.exit("perf shows %d entries, perfev %d" % (len(pe), len(oe)))
    print("entries=%d" % n)
    return 0


COMMANDS = {"same": same, "top-find": top_find, "report-cmp": report_cmp, "set-build-id": set_build_id, "chains-cmp": chains_cmp,
            "chains-find": chains_find, "chains-dist": chains_dist, "graph-cmp": graph_cmp,
            "attr-delta": attr_delta, "stat-attr-delta": stat_attr_delta,
            "stat-report-cmp": stat_report_cmp, "stat-file-as": stat_file_as,
            "compressed-layout": compressed_layout, "cut-compressed": cut_compressed,
            "feat-cmp": feat_cmp, "attr-full": attr_full,
            "stacks-weight": stacks_weight, "annotate-cmp": annotate_cmp,
            "filtered-samples": filtered_samples,
            "fake-kcore": fake_kcore, "annotate-samples-cmp": annotate_samples_cmp,
            "print-line-cmp": print_line_cmp,
            "diff-cmp": diff_cmp, "diff-marks": diff_marks,
            "pprof-check": pprof_check, "push-check": push_check, "evil-tar": evil_tar,
            "folded-neighbours": folded_neighbours, "graph-same": graph_same,
            "page-state": page_state, "png-colours": png_colours, "page-alone": page_alone,
            "diff-top": diff_top, "diff-data": diff_data}


def main():
    if len(sys.argv) > 1 and sys.argv[1] in COMMANDS:
        return COMMANDS[sys.argv[1]](sys.argv[2:])
    args = sys.argv[1:]
    known_path, label, no_tp, record, elsewhere = None, "oracle", False, False, False
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
        elif args[i] == "--record":
            record = True
            i += 1
        elif args[i] == "--elsewhere":
            elsewhere = True
            i += 1
        else:
            pos.append(args[i])
            i += 1
    perfev, oracle = pos
    if record:
        return record_main(perfev, oracle, label, elsewhere)
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
