#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""A process of several busy threads, for recordings of one task per thread.

usage: spin-threads.py THREADS SECONDS

Starts THREADS threads that each spin for SECONDS and waits for them; the
main thread only waits, so the samples belong to the threads.
"""
import sys
import threading
import time


def spin(seconds):
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        n += 1


def main():
    threads = [threading.Thread(target=spin, args=(float(sys.argv[2]),))
               for _ in range(int(sys.argv[1]))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


if __name__ == "__main__":
    main()
