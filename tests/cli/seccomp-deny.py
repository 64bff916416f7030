#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Run a command with one ioctl(2) request refused, as a security module refuses it.

usage: seccomp-deny.py REQUEST ERRNO -- COMMAND [ARGS...]

A seccomp filter makes every ioctl(2) whose request is REQUEST (a number,
0x2400 for PERF_EVENT_IOC_ENABLE) fail with ERRNO (a name, EACCES) in
COMMAND and its children; everything else goes through.  The kernel then
answers the call itself, as when an LSM denies perf_event writes
(security_perf_event_write()), which no setting of an ordinary machine
does.  Exits 77 on an architecture the filter is not written for, or when
the kernel refuses the filter.
"""
import ctypes
import errno
import os
import platform
import struct
import sys

# Per architecture: the audit arch of seccomp_data.arch, the number of ioctl.
ARCHES = {
    "x86_64": (0xC000003E, 16),
    "aarch64": (0xC00000B7, 29),
}

BPF_LD_W_ABS = 0x20
BPF_JEQ_K = 0x15
BPF_RET_K = 0x06
SECCOMP_RET_ALLOW = 0x7FFF0000
SECCOMP_RET_ERRNO = 0x00050000
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2


def insn(code, k, jt=0, jf=0):
    return struct.pack("=HBBI", code, jt, jf, k)


def filter_for(arch, nr, request, err):
    # struct seccomp_data: nr at 0, arch at 4, args[] from 16 (8 bytes each, native order).
    lo, hi = (24, 28) if sys.byteorder == "little" else (28, 24)
    prog = [
        insn(BPF_LD_W_ABS, 4),
        insn(BPF_JEQ_K, arch, 0, 6),
        insn(BPF_LD_W_ABS, 0),
        insn(BPF_JEQ_K, nr, 0, 4),
        insn(BPF_LD_W_ABS, lo),
        insn(BPF_JEQ_K, request & 0xFFFFFFFF, 0, 2),
        insn(BPF_LD_W_ABS, hi),
        insn(BPF_JEQ_K, request >> 32, 1, 0),
        insn(BPF_RET_K, SECCOMP_RET_ALLOW),
        insn(BPF_RET_K, SECCOMP_RET_ERRNO | err),
    ]
    return b"".join(prog)


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def main():
    args = sys.argv[1:]
    if len(args) < 4 or args[2] != "--":
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    request, err, cmd = int(args[0], 0), getattr(errno, args[1]), args[3:]
    if platform.machine() not in ARCHES:
        print("seccomp-deny.py: no filter for %s" % platform.machine(), file=sys.stderr)
        return 77
    arch, nr = ARCHES[platform.machine()]
    code = ctypes.create_string_buffer(filter_for(arch, nr, request, err))
    prog = SockFprog(len(code.raw) // 8, ctypes.addressof(code))
    libc = ctypes.CDLL(None, use_errno=True)
    ul = ctypes.c_ulong
    if libc.prctl(PR_SET_NO_NEW_PRIVS, ul(1), ul(0), ul(0), ul(0)) or libc.prctl(
            PR_SET_SECCOMP, ul(SECCOMP_MODE_FILTER), ctypes.byref(prog), ul(0), ul(0)):
        print("seccomp-deny.py: the kernel refuses the filter: %s" %
              os.strerror(ctypes.get_errno()), file=sys.stderr)
        return 77
    os.execvp(cmd[0], cmd)


if __name__ == "__main__":
    sys.exit(main())
