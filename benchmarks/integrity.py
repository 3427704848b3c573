"""Time of a submission's integrity checks (``services.imports.integrity``) on a federation's
month: ``python -m benchmarks.integrity [--size S|M|L] [--db FILE]``.

Run from the repository root. The ledger: the synthetic federation of ``benchmarks.federation``
(its register, and its August 2026 imported: the 12 months the closed-pool check reads). The
submission: its September 2026 (``SIZES``: 100,000 games at M), read by the import's CSV reader,
its games put in events (one a day and band of 1,000 players by number: about 600 at M, so that
the closed-pool and unrated-share checks have events to read). Reported: the time of
``check_integrity`` (wall and CPU, best of ``--runs``), and the flags by code. With ``--db
FILE`` the ledger is built once in FILE and reused. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path

from benchmarks import federation
from ledger.services.admin.setup import init_ledger
from ledger.services.core.session import open_ledger
from ledger.services.imports.game_files import read_games_file
from ledger.services.imports.games import import_file
from ledger.services.imports.integrity import check_integrity
from ledger.services.imports.players import import_players


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", choices=sorted(federation.SIZES), default="M")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--db", type=Path, default=None)
    args = parser.parse_args()
    players, games = federation.SIZES[args.size]
    folder = Path(tempfile.mkdtemp(prefix="ledger-integrity-"))
    try:
        register = federation.federation(players)
        db = args.db or folder / "federation.db"
        if not db.exists():
            init_ledger(str(db))
            engine = open_ledger(str(db))
            federation.write_register(folder / "players.csv", register)
            import_players(engine, str(folder / "players.csv"))
            federation.write_month(folder / "august.csv", register, games, 2026, 8)
            import_file(engine, str(folder / "august.csv"), "csv", today=dt.date(2026, 10, 1))
            engine.dispose()
        federation.write_month(folder / "september.csv", register, games, 2026, 9)
        _sha, _blank, _fmt, readout = read_games_file(str(folder / "september.csv"), "csv",
                                                      "fide", None)
        month = [dataclasses.replace(g, event=f"September {g.date.day:02d} band "
                                     f"{int(g.white.name[3:10]) // 1000}")
                 for g in readout.games]
        engine = open_ledger(str(db))
        best_wall = best_cpu = float("inf")
        flags = []
        for _ in range(args.runs):
            wall, cpu = time.perf_counter(), time.process_time()
            flags = check_integrity(engine, month, submitted=dt.date(2026, 10, 2))
            best_wall = min(best_wall, time.perf_counter() - wall)
            best_cpu = min(best_cpu, time.process_time() - cpu)
        engine.dispose()
        events = len({g.event for g in month})
        print(f"size {args.size}: {len(month)} games in {events} events, {players} players; "
              f"check_integrity best of {args.runs}: {best_wall:.2f} s wall, {best_cpu:.2f} s CPU")
        print("flags:", dict(sorted(Counter(f.code for f in flags).items())))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
