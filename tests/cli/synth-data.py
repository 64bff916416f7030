#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Write a perf.data file whose samples carry what this machine cannot record.

    synth-data.py OUT BINARY [hw|mem]

Branch stacks, weights (plain and WEIGHT_STRUCT), data sources, physical
addresses, interrupt and user registers and cgroup ids need a hardware
PMU or privileges the tests may lack; perf and perfev both read any valid
perf.data, so the tests compare their output on this file.  Written here,
not by the library's writer, so that the reader is checked against an
independent encoding of the format.  BINARY (an ELF executable) is mapped
into the sampled process, so that branch addresses resolve to its symbols.
With hw (or mem), only the first event's samples (or the second's) are
written, and that event alone: perf script -F names fields for every event;
hw's branch stacks have their hardware index.
"""
import os
import random
import struct
import sys

PERF_RECORD_MMAP2, PERF_RECORD_COMM, PERF_RECORD_CGROUP = 10, 3, 19

S_IP, S_TID, S_TIME, S_ADDR, S_CPU, S_PERIOD = 1 << 0, 1 << 1, 1 << 2, 1 << 3, 1 << 7, 1 << 8
S_BRANCH_STACK, S_REGS_USER, S_WEIGHT, S_DATA_SRC = 1 << 11, 1 << 12, 1 << 14, 1 << 15
S_REGS_INTR, S_PHYS_ADDR, S_CGROUP, S_WEIGHT_STRUCT = 1 << 18, 1 << 19, 1 << 21, 1 << 24
S_IDENTIFIER = 1 << 16

MISC_KERNEL, MISC_USER = 1, 2
BASE = 0x555555554000  # where BINARY is mapped
PID = 4242
# x86-64 registers: ax bx cx dx si di bp sp ip flags ... r8-r15 are bits 16-23
USER_REGS = 0x00ff0fff
INTR_REGS = (1 << 0) | (1 << 3) | (1 << 6) | (1 << 7) | (1 << 8) | (1 << 9) | (1 << 16) | (1 << 23)


def attr(sample_type, config, name_bits=0, regs_user=0, regs_intr=0, branch_type=0):
    flags = (1 << 8) | (1 << 9) | (1 << 18) | (1 << 23)  # mmap, comm, sample_id_all, mmap2
    a = struct.pack("<IIQQQQQIIQQQQIiQIHHIIQ", 0, 128, config, 1000, sample_type, 0, flags, 0,
                    0, 0, 0, branch_type, regs_user, 0, 0, regs_intr, 0, 0, 0, 0, 0, 0)
    assert len(a) == 128
    return a


def popcount(x):
    return bin(x).count("1")


def trailer(st, pid, tid, time, ident=1):
    """The sample_id_all trailer: TID, TIME, CPU, IDENTIFIER as the sample_type has them."""
    out = b""
    if st & S_TID:
        out += struct.pack("<II", pid, tid)
    if st & S_TIME:
        out += struct.pack("<Q", time)
    if st & S_CPU:
        out += struct.pack("<II", 0, 0)
    out += struct.pack("<Q", ident)
    return out


def record(rtype, misc, body):
    return struct.pack("<IHH", rtype, misc, 8 + len(body)) + body


def padded(s):
    b = s.encode() + b"\0"
    return b + b"\0" * (-len(b) % 8)


def sample(ident, st, ip, time, misc=MISC_USER, branches=(), weight=0, data_src=0, phys=0,
           regs_user=None, regs_intr=None, cgroup=0, hw_idx=None):
    b = struct.pack("<QQ", ident, ip)
    b += struct.pack("<II", PID, PID)
    b += struct.pack("<Q", time)
    if st & S_ADDR:
        b += struct.pack("<Q", 0x7ffd0000 + time % 4096)
    b += struct.pack("<II", time % 2, 0)
    b += struct.pack("<Q", 1000)
    if st & S_BRANCH_STACK:
        b += struct.pack("<Q", len(branches))
        if hw_idx is not None:
            b += struct.pack("<Q", hw_idx)
        for frm, to, flags in branches:
            b += struct.pack("<QQQ", frm, to, flags)
    if st & S_REGS_USER:
        if regs_user is None:
            b += struct.pack("<Q", 0)
        else:
            b += struct.pack("<Q", 2) + b"".join(struct.pack("<Q", v) for v in regs_user)
    if st & (S_WEIGHT | S_WEIGHT_STRUCT):
        b += struct.pack("<Q", weight)
    if st & S_DATA_SRC:
        b += struct.pack("<Q", data_src)
    if st & S_REGS_INTR:
        if regs_intr is None:
            b += struct.pack("<Q", 0)
        else:
            b += struct.pack("<Q", 2) + b"".join(struct.pack("<Q", v) for v in regs_intr)
    if st & S_PHYS_ADDR:
        b += struct.pack("<Q", phys)
    if st & S_CGROUP:
        b += struct.pack("<Q", cgroup)
    return record(9, misc, b)


def bflags(mispred=0, predicted=0, in_tx=0, abort=0, cycles=0, btype=0, spec=0, new_type=0,
           priv=0):
    return (mispred | predicted << 1 | in_tx << 2 | abort << 3 | cycles << 4 | btype << 20 |
            spec << 24 | new_type << 26 | priv << 30)


def data_srcs(rng):
    """Data sources as PMUs report them, and edge cases: fields alone and mixed."""
    out = [0, 1, 0x29 << 5 | 2 << 0 | 1 << 19, 0x1 << 24 | 1 << 5, 0x40 << 5 | 1 << 19]
    for shift, width in ((0, 5), (5, 14), (19, 5), (24, 2), (26, 7), (33, 4), (37, 1),
                         (38, 2), (40, 3), (43, 3)):
        for v in range(1 << min(width, 4)):
            out.append((v << shift) | 0x2 | 0x1 << 19 | 0x1 << 24 | 0x1 << 26 | 0x1 << 40)
    for _ in range(200):
        v = 0
        v |= rng.choice([1, 2, 4, 8, 16, 2 | 4]) << 0        # op
        v |= rng.choice([1, 2, 8, 0x22, 0x42, 0x82, 0x102, 0x202, 0x1002, 0x2002, 0x404,
                         0x804, 0]) << 5                     # lvl
        v |= rng.choice([1, 2, 4, 8, 16, 0]) << 19           # snoop
        v |= rng.choice([0, 1, 2]) << 24                     # lock
        v |= rng.choice([0, 1, 2, 4, 6, 8, 0x12, 0x22, 0x24, 0x40]) << 26  # dtlb
        v |= rng.choice([0, 1, 2, 3, 4, 0xa, 0xb, 0xc, 0xd, 0xe, 0xf]) << 33  # lvl_num
        v |= rng.choice([0, 1]) << 37                        # remote
        v |= rng.choice([0, 1, 2]) << 38                     # snoopx
        v |= rng.choice([0, 1, 2, 4, 6]) << 40               # blk
        v |= rng.choice([0, 0, 1, 2, 3, 4]) << 43            # hops
        out.append(v)
    return out


def main():
    out, binary = sys.argv[1], os.path.abspath(sys.argv[2])
    only = sys.argv[3] if len(sys.argv) > 3 else None
    rng = random.Random(1)
    size = os.path.getsize(binary)
    st1 = (S_IDENTIFIER | S_IP | S_TID | S_TIME | S_CPU | S_PERIOD | S_BRANCH_STACK | S_REGS_USER | S_WEIGHT |
           S_DATA_SRC | S_REGS_INTR | S_PHYS_ADDR | S_CGROUP)
    st2 = S_IDENTIFIER | S_IP | S_TID | S_TIME | S_CPU | S_PERIOD | S_ADDR | S_WEIGHT_STRUCT | S_DATA_SRC
    # cycles with branch stacks (ANY, user), and a raw memory event with WEIGHT_STRUCT.
    attrs = [attr(st1, 0, regs_user=USER_REGS, regs_intr=INTR_REGS, branch_type=0x8 | 0x1),
             attr(st2, 0x1cd, regs_user=0)]
    attrs[1] = struct.pack("<I", 4) + attrs[1][4:]
    ids = [[1], [2]]
    hw_idx = None
    if only == "hw":
        # With the hardware index of the branch stack (PERF_SAMPLE_BRANCH_HW_INDEX).
        attrs = [attr(st1, 0, regs_user=USER_REGS, regs_intr=INTR_REGS,
                      branch_type=0x8 | 0x1 | 1 << 17)]
        ids = ids[:1]
        hw_idx = 5
    elif only == "mem":
        attrs, ids = attrs[1:], ids[1:]

    data = b""
    t = 1000000000
    data += record(PERF_RECORD_COMM, 0,
                   struct.pack("<II", PID, PID) + padded("synth") +
                   trailer(st1, PID, PID, t, ids[0][0]))
    data += record(PERF_RECORD_MMAP2, MISC_USER,
                   struct.pack("<IIQQQIIQQII", PID, PID, BASE, size, 0, 8, 1, 1234, 0, 5, 2) +
                   padded(binary) + trailer(st1, PID, PID, t, ids[0][0]))
    data += record(PERF_RECORD_CGROUP, 0,
                   struct.pack("<Q", 77) + padded("/system.slice/synth.service") +
                   trailer(st1, PID, PID, t, ids[0][0]))
    data += record(PERF_RECORD_CGROUP, 0,
                   struct.pack("<Q", 1) + padded("/") + trailer(st1, PID, PID, t, ids[0][0]))
    # The kernel's map, as perf record writes it, when this machine's symbols are readable.
    ktext = kernel_text()
    if ktext:
        data += record(1, MISC_KERNEL,
                       struct.pack("<IIQQQ", 0xffffffff, 0, ktext, (1 << 64) - 1 - ktext, ktext) +
                       padded("[kernel.kallsyms]_text") + trailer(st1, 0, 0, t, ids[0][0]))
    syms = symbols(binary)
    addrs = [BASE + a + o for a in syms for o in (0, 3)] + [0x1000, (ktext or 1 << 63) + 0x10]
    srcs = data_srcs(rng)
    n = 0
    for i, ds in enumerate(srcs):
        t += 1000
        nb = rng.randint(0, 4) if i % 5 else 0
        branches = []
        for _ in range(nb):
            branches.append((rng.choice(addrs), rng.choice(addrs),
                             bflags(mispred=rng.randint(0, 1), predicted=rng.randint(0, 1),
                                    in_tx=rng.randint(0, 1), abort=rng.randint(0, 1),
                                    cycles=rng.choice([0, 1, 17, 65535]),
                                    btype=rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
                                                      12, 13, 14, 15]),
                                    new_type=rng.randint(0, 7),
                                    spec=rng.randint(0, 3))))
        regs_user = [rng.getrandbits(64) for _ in range(popcount(USER_REGS))] if i % 3 else None
        regs_intr = [rng.getrandbits(48) for _ in range(popcount(INTR_REGS))] if i % 4 else None
        if (i % 2 or only == "hw") and only != "mem":
            data += sample(1, st1, rng.choice(addrs[:-2]), t, branches=branches,
                           weight=rng.choice([0, 1, 250, 1 << 40]), data_src=ds,
                           phys=rng.getrandbits(40), regs_user=regs_user, regs_intr=regs_intr,
                           cgroup=rng.choice([0, 1, 77, 99]), hw_idx=hw_idx)
        else:
            w = rng.getrandbits(32) | rng.getrandbits(16) << 32 | rng.getrandbits(16) << 48
            data += sample(2, st2, rng.choice(addrs[:-2]), t, misc=MISC_USER, weight=w,
                           data_src=ds)
        n += 1
    # No PERF_RECORD_FINISHED_ROUND: perf 6.1 fails on one in a file of two events written
    # so ("failed to process type: 12 [Bad address]"); both readers then order the whole file.

    # header | attrs (each with its ids section) | ids | data
    attr_size = 128 + 16
    attrs_off = 104
    ids_off = attrs_off + len(attrs) * attr_size
    ids_blob = b"".join(struct.pack("<Q", i) for l in ids for i in l)
    data_off = ids_off + len(ids_blob)
    attr_blob = b""
    o = ids_off
    for a, l in zip(attrs, ids):
        attr_blob += a + struct.pack("<QQ", o, 8 * len(l))
        o += 8 * len(l)
    hdr = struct.pack("<8sQQQQQQQQ", b"PERFILE2", 104, attr_size, attrs_off, len(attr_blob),
                      data_off, len(data), 0, 0) + b"\0" * 32
    with open(out, "wb") as f:
        f.write(hdr + attr_blob + ids_blob + data)


def kernel_text():
    """The kernel's _text as this machine's /proc/kallsyms says, or None when hidden."""
    try:
        with open("/proc/kallsyms") as f:
            for line in f:
                a, t, name = line.split()[:3]
                if name == "_text":
                    return int(a, 16) or None
    except OSError:
        pass
    return None


def symbols(binary):
    """The addresses of the binary's functions (from its symbol table), at least one."""
    import subprocess
    try:
        text = subprocess.run(["nm", "--defined-only", binary], capture_output=True,
                              text=True).stdout
    except OSError:
        text = ""
    out = [int(l.split()[0], 16) for l in text.splitlines()
           if len(l.split()) == 3 and l.split()[1] in "tT" and int(l.split()[0], 16)]
    return sorted(set(out))[:12] or [0x1000]


if __name__ == "__main__":
    main()
