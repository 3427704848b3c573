"""Wall time of closing the Tata Steel 2022 period, against a floor measured in the same run.

Run from the repository root: ``python benchmarks/close_period.py [--repeat N]``. Each repeat
copies a ledger with the tournament imported and closes 2022-01 (the service call: load, rate,
write, commit). The floor is one trivial read transaction on the same ledger (open, SELECT 1,
commit); the rules-only time is ``rate_period`` on the already-loaded games. Reported: medians and
the ratio close / floor. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from sqlalchemy import text

from ledger.services.admin.setup import init_ledger
from ledger.services.close.periods import close_period
from ledger.services.core.session import open_ledger, transaction
from ledger.services.imports.games import import_pgn

DATA = Path(__file__).resolve().parents[1] / "examples" / "data" / "tata_steel_masters_2022.pgn"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ledger-bench-"))
    base = work / "base.db"
    init_ledger(str(base))
    engine = open_ledger(str(base))
    import_pgn(engine, str(DATA), register_players=True)
    engine.dispose()

    closes, floors = [], []
    for i in range(args.repeat):
        db = work / f"run{i}.db"
        shutil.copy(base, db)
        engine = open_ledger(str(db))
        t0 = time.perf_counter()
        with transaction(engine) as session:
            session.execute(text("SELECT 1"))
        t1 = time.perf_counter()
        report = close_period(engine, "2022-01")
        t2 = time.perf_counter()
        engine.dispose()
        assert len(report.players) == 14
        floors.append(t1 - t0)
        closes.append(t2 - t1)
    shutil.rmtree(work)
    close_ms, floor_ms = statistics.median(closes) * 1e3, statistics.median(floors) * 1e3
    print(f"close 2022-01 (91 games, 14 players): median {close_ms:.1f} ms over {args.repeat} runs")
    print(f"floor (one trivial read transaction): median {floor_ms:.2f} ms")
    print(f"ratio close / floor: {close_ms / floor_ms:.0f}x")


if __name__ == "__main__":
    main()
