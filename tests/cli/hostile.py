#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Damaged perf.data files, and perfev run over them, for tests/cli/test-hostile.sh.

    hostile.py gen OUTDIR SEED...
    hostile.py run SAN_PERFEV PERFEV SEEDDIR DAMAGEDDIR [--jobs N] [--timeout S] [--per-file N]

gen writes damaged copies of each SEED (a perf.data file, or a pipe-mode
stream named *.pipe) into OUTDIR: truncations at many offsets; header
fields (sizes, offsets, attr sizes) at boundary values (0, 1, odd, huge,
UINT64_MAX); feature bits set and cleared; feature sections pointing out
of the file; attrs with impossible sizes and sample bits; records of size
0, odd or huge, of unknown types, with their payload filled; bytes
flipped; pieces of two files spliced.  The choices come from a fixed
random seed and the seeds' own layout, so the same seeds give the same
files.

run runs SAN_PERFEV (an ASan+UBSan build) on every seed with each command
of COMMANDS, and on each damaged file with --per-file of them (taken in
turn, so that every command meets every kind of damage), two at a time;
then PERFEV (the plain build) does the same run for its memory (the
first of a damaged file's commands only).  A run
passes when it ends within --timeout seconds with status 0, or 1 or 2
and a message on stderr, without a signal or a sanitizer report on
stderr; the plain build's peak resident set (wait4's) must stay within
4 times the file's size plus 64 MiB.  Memory is measured on the plain
build because ASan's own costs (redzones around each allocation, freed
memory held in quarantine, up to 256 MiB) make the sanitized build's
follow the allocator's traffic, not what perfev holds.  The seeds must
read with status 0 (a test whose commands all fail early would prove
nothing).  Prints one PASS/FAIL line per check, the
failures first with the command to repeat them, and what it ran.
"""
import os
import random
import signal
import struct
import sys
import threading
import time

U64MAX = (1 << 64) - 1
HUGE = 1 << 62
HEADER_FIELDS = [("size", 8), ("attr_size", 16), ("attrs.offset", 24), ("attrs.size", 32),
                 ("data.offset", 40), ("data.size", 48), ("event_types.offset", 56),
                 ("event_types.size", 64)]


def u64(b, off):
    return struct.unpack_from("<Q", b, off)[0]


def put(b, off, fmt, *values):
    """b (a bytearray) with values packed at off, when they fit."""
    if off >= 0 and off + struct.calcsize(fmt) <= len(b):
        struct.pack_into(fmt, b, off, *values)
    return b


def boundary(orig, file_len):
    return [0, 1, 7, orig + 1 if orig % 2 == 0 else orig + 2, orig - 8 if orig >= 8 else 3,
            file_len, file_len + 1, HUGE, U64MAX - 7, U64MAX]


def records(b, start, end):
    """(offset, type, size) of the records between start and end, while sizes hold."""
    out = []
    off = start
    while off + 8 <= end:
        rtype, _, size = struct.unpack_from("<IHH", b, off)
        if size < 8 or off + size > end:
            break
        out.append((off, rtype, size))
        off += size
    return out


def zbomb(byte, total):
    """A PERF_RECORD_COMPRESSED whose payload, one zstd frame of RLE blocks, expands to total
    bytes of byte: records of an unknown type that the readers skip.  Not padded: perf
    does not pad these records either."""
    frame = struct.pack("<IBB", 0xFD2FB528, 0, 7 << 3)  # no content size; a 128 KiB window
    while total:
        n = min(total, 128 << 10)
        total -= n
        frame += struct.pack("<I", (0 if total else 1) | 1 << 1 | n << 3)[:3] + bytes([byte])
    return struct.pack("<IHH", 81, 0, 8 + len(frame)) + frame


def zrepeat(rec, total):
    """A zstd frame that expands to rec repeated up to about total bytes: rec as a raw
    block, then compressed blocks of one sequence each, a match at rec's length (the
    sequence codes in RLE mode, their extra bits in a backward bit stream)."""
    s = len(rec)
    frame = struct.pack("<IBB", 0xFD2FB528, 0, 7 << 3) + struct.pack("<I", s << 3)[:3] + rec
    per = s * (131000 // s)  # a block's match, as long as a block may be, whole records
    ofv = s + 3  # offset values past 3 are offsets + 3
    ofc = ofv.bit_length() - 1
    n = max(1, (total - s) // per)
    for i in range(n):
        # Match length code 52 (65539 + 16 bits), offset code ofc, literals length 0.
        bits = (per - 65539) | (ofv - (1 << ofc)) << 16 | 1 << (16 + ofc)
        body = bytes([0, 1, 0x54, 0, ofc, 52]) + bits.to_bytes((16 + ofc + 8) // 8, "little")
        frame += struct.pack("<I", (i == n - 1) | 2 << 1 | len(body) << 3)[:3] + body
    return frame


def insert(b, lay, at, rec):
    """b with rec inserted at offset at of its records, the header's offsets moved after it."""
    d = bytearray(b[:at] + rec + b[at:])
    if lay.pipe:
        return d
    put(d, 48, "<Q", u64(b, 48) + len(rec))
    for k in range(lay.nfeat):
        e = lay.feat_table + len(rec) + 16 * k
        if u64(d, e) >= at:
            put(d, e, "<Q", u64(d, e) + len(rec))
    return d


class Layout:
    """Where things are in a seed."""

    def __init__(self, b):
        self.pipe = b[:8] == b"PERFILE2" and len(b) >= 16 and u64(b, 8) == 16
        self.feat_table = None
        self.nfeat = 0
        self.attrs = []
        if self.pipe:
            self.recs = records(b, 16, len(b))
            return
        self.attr_size = u64(b, 16)
        aoff, asize = u64(b, 24), u64(b, 32)
        if self.attr_size:
            for i in range(asize // self.attr_size):
                self.attrs.append(aoff + i * self.attr_size)
        doff, dsize = u64(b, 40), u64(b, 48)
        self.recs = records(b, doff, min(doff + dsize, len(b)))
        self.feat_table = doff + dsize
        self.nfeat = sum(bin(u64(b, 72 + 8 * i)).count("1") for i in range(4))


class Gen:
    def __init__(self, outdir):
        self.outdir = outdir
        self.count = 0
        self.turn = {}  # each kind of damage's round-robin position, across seeds

    def next_of(self, kind, choices):
        """The next of choices for this kind of damage, in turn across all seeds."""
        i = self.turn.get(kind, 0)
        self.turn[kind] = i + 1
        return choices[i % len(choices)]

    def write(self, stem, what, data):
        name = "%s.%s%s" % (stem, what, ".pipe" if stem.endswith("-pipe") else ".data")
        with open(os.path.join(self.outdir, name), "wb") as f:
            f.write(bytes(data))
        self.count += 1

    def seed(self, path, rng):
        b = open(path, "rb").read()
        if len(b) < 16 or b[:8] != b"PERFILE2":
            return
        lay = Layout(b)
        base = os.path.basename(path)
        stem = base.rsplit(".", 1)[0] + ("-pipe" if lay.pipe else "")
        n = len(b)

        # Truncations: inside the header, at and around record boundaries, in the
        # attrs and feature sections, at random.
        cuts = {1, 8, 15, 16, 17, 64, 103, 104, n - 1}
        for off, _, size in rng.sample(lay.recs, min(4, len(lay.recs))):
            cuts.update({off + 4, off + 8, off + size - 1})
        for a in lay.attrs[:2]:
            cuts.update({a + 8, a + lay.attr_size - 1})
        if lay.feat_table is not None:
            cuts.update({lay.feat_table, lay.feat_table + 9, lay.feat_table + 16 * lay.nfeat,
                         lay.feat_table + 16 * lay.nfeat + 5})
        cuts.update(rng.randrange(1, n) for _ in range(3))
        cuts = sorted(c for c in cuts if 0 < c < n)
        for c in sorted(rng.sample(cuts, min(4, len(cuts)))):
            self.write(stem, "cut%d" % c, b[:c])
        # A recording cut short whose header agrees (data.size up to the cut, or 0 as an
        # interrupted perf record leaves it).
        if not lay.pipe and lay.recs:
            off, _, size = rng.choice(lay.recs)
            c = off + rng.randrange(1, size)
            dsize = self.next_of("cut-dsize", [c - u64(b, 40), 0])
            self.write(stem, "cut%d-dsize%x" % (c, dsize), put(bytearray(b[:c]), 48, "<Q", dsize))

        if lay.pipe:
            # The stream header's size.
            for v in rng.sample(boundary(16, n), 3):
                self.write(stem, "hdrsize-%x" % v, put(bytearray(b), 8, "<Q", v))
        else:
            # Header fields at boundary values, each field and value in turn.
            for _ in range(3):
                name, off = self.next_of("hdr", HEADER_FIELDS)
                v = self.next_of("hdr-" + name, boundary(u64(b, off), n))
                self.write(stem, "%s-%x" % (name, v), put(bytearray(b), off, "<Q", v))
            # Feature bits: all set, none, unknown ones, one more than there are sections.
            lowbits = u64(b, 72)
            free = [i for i in range(1, 64) if not lowbits >> i & 1] or [0]
            bit = rng.choice(free)
            for _ in range(2):
                what, at, vals = self.next_of("feat", [
                    ("all", 72, (U64MAX,) * 4), ("none", 72, (0,) * 4),
                    ("high", 96, (1 << 63,)), ("bit%d" % bit, 72, (lowbits | 1 << bit,))])
                self.write(stem, "feat-" + what, put(bytearray(b), at, "<" + "Q" * len(vals),
                                                     *vals))
            # Feature sections pointing out of the file, or wrapping around.
            for k in rng.sample(range(lay.nfeat), min(2, lay.nfeat)):
                at = lay.feat_table + 16 * k
                off, size = self.next_of("feat-sec", [(n, 8), (n - 4, 16), (U64MAX, 16),
                                                      (HUGE, 1), (8, U64MAX), (16, HUGE),
                                                      (U64MAX - 7, 16), (0, 0), (7, 1 << 31)])
                self.write(stem, "featsec%d-%x-%x" % (k, off, size),
                           put(put(bytearray(b), at, "<Q", off), at + 8, "<Q", size))
            # The first attr: its size, sample and read bits, its ids section.
            if lay.attrs:
                a = rng.choice(lay.attrs)
                for _ in range(3):
                    fld, off, fmt, vals = self.next_of("attr", [
                        ("attr.size", 4, "<I", [0, 1, 63, 65, 0xffff, 0xffffffff]),
                        ("sample_type", 24, "<Q", [U64MAX, (1 << 25) - 1, 1 << 63]),
                        ("read_format", 32, "<Q", [U64MAX, 0x1f]),
                        ("regs_user", 80, "<Q", [U64MAX]),
                        ("stack_user", 88, "<I", [0xffffffff, 0xfff9]),
                        ("ids.offset", lay.attr_size - 16, "<Q", [U64MAX, n, HUGE]),
                        ("ids.size", lay.attr_size - 8, "<Q", [U64MAX, 7, HUGE])])
                    v = self.next_of("attr-" + fld, vals)
                    if off + struct.calcsize(fmt) <= lay.attr_size:
                        self.write(stem, "%s-%x" % (fld, v), put(bytearray(b), a + off, fmt, v))

        # Records: sizes 0, odd, huge; unknown types; payloads of 0xff (a call chain's nr,
        # a string without its end).
        if lay.recs:
            for _ in range(2):
                off, _, size = rng.choice(lay.recs)
                v = self.next_of("recsize", [0, 1, 7, 9, size - 1, size + 8, 0xfff8, 0xffff])
                self.write(stem, "rec%x-size%x" % (off, v), put(bytearray(b), off + 6, "<H", v))
            off, _, size = rng.choice(lay.recs)
            v = self.next_of("rectype", [0, 99, 0xffff, 64, 67, 68, 72, 79, 82, 0x7fffffff])
            self.write(stem, "rec%x-type%x" % (off, v), put(bytearray(b), off, "<I", v))
            samples = [r for r in lay.recs if r[1] == 9 and r[2] > 16] or lay.recs
            for _ in range(2):
                off, _, size = rng.choice(samples)
                d = bytearray(b)
                fill = self.next_of("recfill", [b"\xff", b"\x00", b"\x7f", b"\x80"])
                start = off + 8 + rng.randrange(0, max(1, size - 8))
                d[start:off + size] = fill * (off + size - start)
                self.write(stem, "rec%x-fill%02x-%x" % (off, fill[0], start), d)

        # A decompression bomb: a COMPRESSED record that expands to 60 MiB, put before the
        # first one (a zstd frame of its own; the next record's starts afresh).
        zrecs = [r for r in lay.recs if r[1] == 81]
        if zrecs:
            bomb = zbomb(0x08, (60 << 20) // 0x808 * 0x808)  # whole records of 0x808 bytes
            self.write(stem, "bomb", insert(b, lay, zrecs[0][0], bomb))

        # A bomb of held records: a COMPRESSED record that expands to 32 MiB of copies of
        # one sample, all at the same time, so that they wait for the round's end; one
        # file-mode and one pipe-mode seed.
        samples = [r for r in lay.recs if r[1] == 9]
        kind = "held-" + ("pipe" if lay.pipe else "file")
        if samples and not zrecs and not self.turn.get(kind):
            self.turn[kind] = 1
            off, _, size = max(samples, key=lambda r: r[2])  # the fewest records
            z = zrepeat(b[off:off + size], 32 << 20)
            self.write(stem, "heldbomb", insert(b, lay, samples[0][0],
                                                struct.pack("<IHH", 81, 0, 8 + len(z)) + z))

        # Bytes flipped anywhere.
        d = bytearray(b)
        for _ in range(8):
            d[rng.randrange(n)] ^= 1 << rng.randrange(8)
        self.write(stem, "flip", d)

    def splice(self, a, b, rng):
        """The start of one file and the rest of another, cut at records and at random."""
        ba, bb = open(a, "rb").read(), open(b, "rb").read()
        la, lb = Layout(ba), Layout(bb)
        sa = os.path.basename(a).rsplit(".", 1)[0]
        sb = os.path.basename(b).rsplit(".", 1)[0]
        stem = "%s+%s%s" % (sa, sb, "-pipe" if la.pipe else "")
        ca = [r[0] for r in la.recs] or [len(ba) // 2]
        cb = [r[0] for r in lb.recs] or [len(bb) // 2]
        x, y = rng.choice(ca), rng.choice(cb)
        self.write(stem, "rec%x-%x" % (x, y), ba[:x] + bb[y:])
        x, y = rng.randrange(16, len(ba)), rng.randrange(0, len(bb))
        self.write(stem, "at%x-%x" % (x, y), ba[:x] + bb[y:])


def gen(args):
    outdir, seeds = args[0], sorted(args[1:])
    os.makedirs(outdir, exist_ok=True)
    g = Gen(outdir)
    for i, s in enumerate(seeds):
        g.seed(s, random.Random(0x5EED + i))
    rng = random.Random(0xD0D0)
    for i, a in enumerate(seeds):
        for b in rng.sample(seeds, 2):
            if a != b:
                g.splice(a, b, rng)
    print("%d damaged files from %d seeds" % (g.count, len(seeds)))
    return 0


# What is run on each file; {f} the file, {o} a directory for the exports.
COMMANDS = [
    ["script", "-i", "{f}"],
    ["script", "-D", "-i", "{f}"],
    ["script", "-j", "-i", "{f}"],
    ["report", "--stdio", "-i", "{f}"],
    ["report", "-i", "{f}", "--folded", "{o}/f", "--speedscope", "{o}/s.json", "--pprof",
     "{o}/p.pb.gz", "--html", "{o}/h.html"],
]
SANITIZER_MARKS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:",
                   "ERROR: UndefinedBehaviorSanitizer", "AddressSanitizer:DEADLYSIGNAL")


def brief(err):
    """What to show of a run's stderr: a sanitizer's report and its first frames, else the end."""
    lines = err.splitlines()
    for i, line in enumerate(lines):
        if any(m in line for m in SANITIZER_MARKS):
            frames = [x.strip() for x in lines[i + 1:i + 40] if x.strip().startswith("#")]
            summary = [x for x in lines if x.startswith("SUMMARY:")]
            return "\n".join([line.strip()] + frames[:8] + summary[:1])
    return err.strip()[-400:]


class Runner:
    def __init__(self, san, plain, tmp, timeout):
        self.san, self.plain, self.tmp, self.timeout = san, plain, tmp, timeout
        self.env = dict(os.environ)
        self.env.pop("DEBUGINFOD_URLS", None)  # nothing fetched for a damaged build id
        self.env["ASAN_OPTIONS"] = "detect_leaks=1:exitcode=86:abort_on_error=0"
        self.env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1:exitcode=86"
        self.failures = []
        self.ran = 0
        self.outcomes = {}
        self.peak = {}  # the largest peak RSS of each build, and its command
        self.lock = threading.Lock()

    def spawn(self, slot, argv, path, stdin):
        """Run argv: (wait status, rusage, whether it was killed as hung, stderr)."""
        odir = os.path.join(self.tmp, "out%d" % slot)
        errpath = os.path.join(self.tmp, "err%d" % slot)
        acts = [(os.POSIX_SPAWN_OPEN, 0, path if stdin else "/dev/null", os.O_RDONLY, 0),
                (os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0),
                (os.POSIX_SPAWN_OPEN, 2, errpath, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)]
        pid = os.posix_spawn(argv[0], argv, self.env, file_actions=acts)
        hung = []

        def kill():
            hung.append(1)
            os.kill(pid, signal.SIGKILL)

        timer = threading.Timer(self.timeout, kill)
        timer.start()
        _, status, ru = os.wait4(pid, 0)
        timer.cancel()
        for name in os.listdir(odir):
            os.unlink(os.path.join(odir, name))
        return status, ru, bool(hung), open(errpath, "rb").read().decode("utf-8", "replace")

    def one(self, slot, path, cmd, stdin, must_pass, memory):
        """The command under the sanitizers, then (with memory) its memory with the plain
        build."""
        odir = os.path.join(self.tmp, "out%d" % slot)
        os.makedirs(odir, exist_ok=True)
        args = [a.format(f="-" if stdin else path, o=odir) for a in cmd]
        size = os.path.getsize(path)
        budget_kb = (4 * size + (64 << 20)) // 1024
        for build in (self.san, self.plain) if memory else (self.san,):
            argv = [build] + args
            status, ru, hung, err = self.spawn(slot, argv, path, stdin)
            shown = " ".join(("<" + path) if a == "-" and stdin else a for a in argv)
            rc = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1
            why = None
            if hung:
                why = "no end within %ds (a hang)" % self.timeout
            elif os.WIFSIGNALED(status):
                why = "killed by signal %d" % os.WTERMSIG(status)
            elif any(m in err for m in SANITIZER_MARKS):
                why = "sanitizer report"
            elif must_pass and rc != 0:
                why = "a good file, and exit status %d" % rc
            elif rc not in (0, 1, 2):
                why = "exit status %d" % rc
            elif rc and not err.strip():
                why = "exit status %d without a message" % rc
            elif build == self.plain and ru.ru_maxrss > budget_kb:
                why = "peak RSS %d KiB over %d KiB (4 x %d bytes + 64 MiB)" % (
                    ru.ru_maxrss, budget_kb, size)
            with self.lock:
                self.ran += 1
                if not why:
                    self.outcomes[rc] = self.outcomes.get(rc, 0) + 1
                if ru.ru_maxrss > self.peak.get(build, (0, ""))[0]:
                    self.peak[build] = (ru.ru_maxrss, shown)
                if why:
                    self.failures.append("%s: %s; stderr: %s" % (shown, why, brief(err)))
            if why:
                return


def run(args):
    opts = {"--jobs": 2, "--timeout": 20, "--per-file": 2}
    pos = []
    i = 0
    while i < len(args):
        if args[i] in opts:
            opts[args[i]] = int(args[i + 1])
            i += 2
        else:
            pos.append(args[i])
            i += 1
    san, plain, seeddir, damdir = pos
    tmp = os.path.join(damdir, ".run")
    os.makedirs(tmp, exist_ok=True)
    r = Runner(san, plain, tmp, opts["--timeout"])
    work = []
    seeds = sorted(os.listdir(seeddir))
    for s in seeds:
        for c in COMMANDS:
            work.append((os.path.join(seeddir, s), c, False, True, True))
        if s.endswith(".pipe"):
            work.append((os.path.join(seeddir, s), COMMANDS[0], True, True, True))
    damaged = sorted(f for f in os.listdir(damdir) if not f.startswith("."))
    for k, f in enumerate(damaged):
        for j in range(opts["--per-file"]):
            c = COMMANDS[(k + j * 2) % len(COMMANDS)]
            if ".bomb" in f or ".heldbomb" in f:
                c = COMMANDS[3 + j % 2]  # report, which holds the most; script is slow there
            # A stream is also read from a pipe, which has no size to check against.
            stdin = f.endswith(".pipe") and (k // len(COMMANDS)) % 2 == 1
            work.append((os.path.join(damdir, f), c, stdin, False, j == 0))
    t0 = time.monotonic()
    lock = threading.Lock()

    def worker(slot):
        while True:
            with lock:
                if not work:
                    return
                item = work.pop(0)
            r.one(slot, *item)

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(opts["--jobs"])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    took = time.monotonic() - t0
    for f in r.failures[:20]:
        print("  " + f.replace("\n", "\n    "))
    if len(r.failures) > 20:
        print("  ... and %d more" % (len(r.failures) - 20))
    print("%d runs over %d seeds and %d damaged files in %.1f s (%d at a time): %s" % (
        r.ran, len(seeds), len(damaged), took, opts["--jobs"],
        ", ".join("%d exited %d" % (n, rc) for rc, n in sorted(r.outcomes.items()))))
    for build, (kb, shown) in sorted(r.peak.items()):
        print("largest peak RSS of %s: %d KiB (%s)" % (build, kb, shown))
    if r.failures:
        print("FAIL perfev on damaged files: %d of %d runs failed" % (len(r.failures), r.ran))
        return 1
    print("PASS perfev on damaged files: no signal, no sanitizer report, no hang, "
          "memory within 4 x size + 64 MiB")
    return 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "gen":
        return gen(sys.argv[2:])
    if len(sys.argv) > 1 and sys.argv[1] == "run":
        return run(sys.argv[2:])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
