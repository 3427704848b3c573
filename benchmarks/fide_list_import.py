"""Throughput of a FIDE rating list import, against a floor measured in the same run.

Run from the repository root: ``python benchmarks/fide_list_import.py [--players N]``. The list is
the official may13 blitz list of examples/data repeated with new FIDE ids and names until it has N
players (default 50,000; today's full combined list has over a million). Measured: importing it
into an empty ledger (every player registered), then the same players as the next month's list
(every player matched, identity compared, a second list rating each). The floor is the reader
alone on the same file (``formats.fide_list``: decode, split, check every field). Reported:
players per second and the ratio import / floor. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from ledger.formats.fide_list import read_fide_list_file
from ledger.services.admin.setup import init_ledger
from ledger.services.core.session import open_ledger
from ledger.services.imports.fide_lists import import_fide_list

DATA = Path(__file__).resolve().parents[1] / "examples" / "data" / "fide_blitz_list_may13_subset.txt"


def synthetic_list(path: Path, players: int) -> None:
    """The may13 lines, repeated with FIDE ids 90000001... and a number in the name column."""
    lines = DATA.read_text(encoding="utf-8").splitlines()
    out = [lines[0]]
    n = 0
    while n < players:
        for line in lines[1:]:
            if n == players:
                break
            n += 1
            name = f"{line[15:76].rstrip()[:46]} {n:06d}"
            out.append(f"{90000000 + n:<15}{name:<61}{line[76:]}")
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=50_000)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ledger-bench-"))
    try:
        listing = work / "list.txt"
        synthetic_list(listing, args.players)
        t0 = time.perf_counter()
        readout = read_fide_list_file(str(listing), "blitz")
        floor = time.perf_counter() - t0
        assert len(readout.players) == args.players and not readout.problems
        db = str(work / "ledger.db")
        init_ledger(db)
        engine = open_ledger(db)
        try:
            t0 = time.perf_counter()
            first = import_fide_list(engine, str(listing), list_date="2013-05-01", pool="blitz")
            t1 = time.perf_counter()
            second = import_fide_list(engine, str(listing), list_date="2013-06-01", pool="blitz")
            t2 = time.perf_counter()
        finally:
            engine.dispose()
        assert first.players_registered == second.players_matched == args.players
    finally:
        shutil.rmtree(work)
    n = args.players
    print(f"reader alone (floor): {floor:.2f} s, {n / floor:,.0f} players/s")
    print(f"import, every player registered: {t1 - t0:.2f} s, {n / (t1 - t0):,.0f} players/s, "
          f"ratio {(t1 - t0) / floor:.1f}x the floor")
    print(f"import, every player matched:    {t2 - t1:.2f} s, {n / (t2 - t1):,.0f} players/s, "
          f"ratio {(t2 - t1) / floor:.1f}x the floor")


if __name__ == "__main__":
    main()
