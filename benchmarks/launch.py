"""Run one command and report its own wall time and peak RSS: ``python -m benchmarks.launch
OUT COMMAND...`` forks, execs COMMAND, waits for it with ``os.wait4`` and writes
``"<seconds> <peak RSS in KiB> <CPU seconds>"`` to the file OUT (CPU: user + system of COMMAND
and the children it waited for); it exits with COMMAND's exit code.

Why a launcher: Linux counts, in a child's ``ru_maxrss``, the peak RSS of the memory it had
before its ``exec`` (kernel ``setmax_mm_hiwater_rss`` at exec), and a child of the benchmark
starts as a copy of the benchmark process (``fork``, or ``vfork`` sharing its memory). The
benchmark holds the synthetic federation (about 900 MB at size L), so each step's peak RSS read
directly was at least the benchmark's own: measured on this machine, a ``python -c pass``
started by a process holding 800 MB reports 813 MB; through this launcher (about 12 MB before
its fork), 12 MB. Every peak RSS in benchmarks/RESULTS.md before 2026-12-03 (commit after
e401401) was read the direct way."""

import os
import sys
import time


def main() -> None:
    out, args = sys.argv[1], sys.argv[2:]
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(args[0], args)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    seconds = time.perf_counter() - t0
    with open(out, "w", encoding="ascii") as f:
        f.write(f"{seconds} {usage.ru_maxrss} {usage.ru_utime + usage.ru_stime}\n")
    sys.exit(os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    main()
