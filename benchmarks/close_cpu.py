"""CPU seconds of ``ledger period close PERIOD --json`` against floor (2a), in one run.

Run from the repository root::

    python -m benchmarks.close_cpu LEDGER PERIOD CODE [CODE ...] [--repeat N]

``LEDGER``: a SQLite ledger with the month imported and not closed (``python -m benchmarks``
builds one; ``federation.write_register`` / ``write_month`` and ``ledger import`` by hand as
well). Each repeat copies it once per ``CODE`` (a checkout's root, given to the child as
``PYTHONPATH``, so two versions of the ledger alternate on the same machine load), closes it
through the console script with ``--json`` into ``close-NAME.json`` beside the copies, and
takes the child's user + system time (``os.wait4``) and peak RSS; then floor (2a) in process
(``floors.close_floor``, ``time.process_time``). Prints each run and the medians, each close
as a ratio of the median floor. CPU time, not wall time: on a shared machine a wait for a core
is not the ledger's work. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LEDGER = Path(sys.executable).with_name("ledger")

#: The environment each close is given (with its ``PYTHONPATH``), as this process was started:
#: taken before any ``ledger`` import (``floor_cpu`` imports the floors, which import it), whose
#: package sets ``OPENBLAS_NUM_THREADS`` (``ledger/__init__.py``) and so would hand one tree's
#: setting to every tree's close.
ENVIRONMENT = dict(os.environ)


def close_cpu(ledger: Path, period: str, code: Path, work: Path) -> tuple[float, int]:
    """(CPU seconds, peak RSS in MB) of the close of ``period`` on a copy of ``ledger`` with
    the ledger of ``code``; ``RuntimeError`` when it fails."""
    db = work / f"close-{code.name}.db"
    shutil.copy(ledger, db)
    with open(work / f"close-{code.name}.json", "w") as out:
        child = subprocess.Popen([str(LEDGER), "--db", str(db), "period", "close", period,
                                  "--json"], stdout=out, env=dict(ENVIRONMENT, PYTHONPATH=str(code)))
        _, status, usage = os.wait4(child.pid, 0)
    if status != 0:
        raise RuntimeError(f"the close with {code} failed (status {status})")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024


def floor_cpu(ledger: Path, period: str, work: Path) -> float:
    """CPU seconds of floor (2a) on a copy of ``ledger``."""
    from benchmarks.floors import close_floor  # imports ledger: after ``ENVIRONMENT``

    db = work / "floor.db"
    shutil.copy(ledger, db)
    start = time.process_time()
    close_floor(db, period, audit=True)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("ledger", type=Path)
    parser.add_argument("period")
    parser.add_argument("code", type=Path, nargs="+")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ledger-close-cpu-"))
    closes: dict[Path, list[float]] = {code: [] for code in args.code}
    floors = []
    for _ in range(args.repeat):
        for code in args.code:
            cpu, rss = close_cpu(args.ledger, args.period, code.resolve(), work)
            closes[code].append(cpu)
            print(f"{code}: close --json {cpu:.2f} s CPU, {rss} MB", flush=True)
        floors.append(floor_cpu(args.ledger, args.period, work))
        print(f"floor (2a): {floors[-1]:.2f} s CPU", flush=True)
    floor = statistics.median(floors)
    print(f"floor (2a) median {floor:.2f} s ({min(floors):.2f}-{max(floors):.2f})")
    for code, runs in closes.items():
        median = statistics.median(runs)
        print(f"{code}: median {median:.2f} s ({min(runs):.2f}-{max(runs):.2f}), "
              f"{median / floor:.2f}x floor (2a)")
    print(f"documents and copies in {work}")


if __name__ == "__main__":
    main()
