"""Time of a "did you mean" on a large ledger: a misspelt or partial name given to a command.

Run from the repository root: ``python benchmarks/name_hints.py [--players N] [--db FILE]``.
The ledger is a FIDE-list import of N players (default 200,000) whose names are the surnames and
given names of the may13 blitz list of examples/data, combined at random (seeded) into distinct
``Surname, Name`` pairs, as a federation's list would have them. With ``--db FILE`` the ledger is
built once in FILE and reused by later runs. Measured: ``services.register.player_views.show_player`` (in the
process, no CLI start-up) for names that match nothing, each answered with its hints (a part of
a name, else a close spelling), and ``services.register.events.resolve_event`` likewise. Reported: the
time of each, and the slowest. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
import time
from pathlib import Path

from ledger.errors import LedgerError
from ledger.services.admin.setup import init_ledger
from ledger.services.core.session import open_ledger
from ledger.services.imports.fide_lists import import_fide_list
from ledger.services.register.player_views import show_player

DATA = Path(__file__).resolve().parents[1] / "examples" / "data" / "fide_blitz_list_may13_subset.txt"


def synthetic_names(players: int) -> list[str]:
    """``players`` distinct ``Surname, Name`` names from the may13 list's surnames and names."""
    surnames, names = set(), set()
    for line in DATA.read_text(encoding="utf-8").splitlines()[1:]:
        surname, _, given = line[15:76].strip().partition(",")
        surnames.add(surname.strip())
        if given.strip():
            names.add(given.strip())
    rng = random.Random(2026)
    pairs = [(s, n) for s in sorted(surnames) for n in sorted(names)]
    return [f"{s}, {n}" for s, n in rng.sample(pairs, players)]


def synthetic_list(path: Path, players: int) -> list[str]:
    """A may13-layout list of ``players`` players (FIDE ids 90000001 ...); returns the names."""
    lines = DATA.read_text(encoding="utf-8").splitlines()
    header, template = lines[0], lines[1]
    names = synthetic_names(players)
    out = [header] + [f"{90000000 + n:<15}{name[:60]:<61}{template[76:]}"
                      for n, name in enumerate(names, start=1)]
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=200_000)
    parser.add_argument("--db", help="build the ledger in this file once, and reuse it")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ledger-bench-"))
    db = args.db or str(work / "ledger.db")
    try:
        names = synthetic_names(args.players)
        if not Path(db).exists():
            listing = work / "list.txt"
            synthetic_list(listing, args.players)
            init_ledger(db)
            engine = open_ledger(db)
            t0 = time.perf_counter()
            import_fide_list(engine, str(listing), list_date="2013-05-01", pool="blitz")
            print(f"ledger of {args.players:,} players built in {time.perf_counter() - t0:.1f} s")
            engine.dispose()
        engine = open_ledger(db)
        try:
            some = random.Random(7).sample([n for n in names if n.index(",") >= 6
                                            and n.count(" ") == 1], 3)
            surname, given = some[0].split(", ")
            queries = [f"{surname[:3]}x{surname[4:]}, {given}",  # a typo in the surname
                       f"{given} {surname[:2]}{surname[3:]}",    # the other order, a letter lost
                       some[1].split(", ")[0][:-1] + "q",        # a part, misspelt
                       some[2].split(", ")[1],                   # a part: the given name
                       "Nobody, Atall"]                          # nothing like it
            slowest = 0.0
            for query in queries:
                t0 = time.perf_counter()
                try:
                    show_player(engine, query)
                    answer = "found"
                except LedgerError as exc:
                    answer = str(exc)
                took = time.perf_counter() - t0
                slowest = max(slowest, took)
                print(f"{took * 1000:7.1f} ms  {query!r}: {answer[:150]}")
            print(f"slowest: {slowest * 1000:.1f} ms")
        finally:
            engine.dispose()
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
