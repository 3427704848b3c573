"""Import throughput (games per second), each against floors measured in the same run.

Run from the repository root: ``python benchmarks/import_throughput.py [--repeat N] [--games N]``.

- TRF: the 284-player Karl-Mala file (980 games) imported with ``--register-players`` into a
  fresh ledger (the service call: read, match, register 283 players, record, commit).
- CSV: a generated file of 100,000 games between 500 players already in the ledger.

Floors, for each file: the bare read (the format module alone: bytes -> records, no database),
and inserting the same game rows with one executemany (``INSERT`` of every row in one
transaction, no reading, matching or checks). Reported: median wall times, games per second and
the ratios import / floor. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import insert, select

from ledger.db.models import Game, Player
from ledger.formats.games_csv import read_csv
from ledger.formats.trf import read_trf
from ledger.services.admin.setup import init_ledger
from ledger.services.core.session import open_ledger, transaction
from ledger.services.imports.games import import_file
from ledger.services.register.players import NewPlayer, register

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "fide_example1_karl_mala_2005.trf"
TODAY = dt.date(2026, 11, 30)


def _median(fn: Callable[[], float], repeat: int) -> float:
    return statistics.median(fn() for _ in range(repeat))


def _fresh(work: Path, name: str, base: Path | None = None) -> str:
    db = work / name
    if base is None:
        init_ledger(str(db))
    else:
        shutil.copy(base, db)
    return str(db)


def _executemany(db: str, rows: list[dict[str, object]]) -> float:
    """Seconds to insert ``rows`` into ``games`` with one executemany, in one transaction."""
    engine = open_ledger(db)
    try:
        t0 = time.perf_counter()
        with transaction(engine) as session:
            session.execute(insert(Game.__table__), rows)
        return time.perf_counter() - t0
    finally:
        engine.dispose()


def _timed_import(db: str, path: Path, fmt: str, register: bool) -> tuple[float, int]:
    engine = open_ledger(db)
    try:
        t0 = time.perf_counter()
        report = import_file(engine, str(path), fmt, register_players=register, today=TODAY)
        return time.perf_counter() - t0, report.recorded
    finally:
        engine.dispose()


def bench_trf(work: Path, repeat: int) -> None:
    raw = DATA.read_bytes()
    runs = []
    for i in range(repeat):
        seconds, games = _timed_import(_fresh(work, f"trf{i}.db"), DATA, "trf", True)
        assert games == 980
        runs.append(seconds)
    imported = statistics.median(runs)

    def bare_read() -> float:
        t0 = time.perf_counter()
        read_trf(raw, str(DATA))
        return time.perf_counter() - t0

    read = _median(bare_read, repeat)
    # the same 980 rows, players already in place (ids from the imported ledger)
    engine = open_ledger(str(work / "trf0.db"))
    with transaction(engine, write=False) as session:
        rows = [dict(event_id=g.event_id, round=g.round, date=g.date, period=g.period,
                     white_id=g.white_id, black_id=g.black_id, result=g.result, played=g.played,
                     source=g.source) for g in session.scalars(select(Game))]
    engine.dispose()
    base = work / "trf-empty.db"
    shutil.copy(work / "trf0.db", base)
    engine = open_ledger(str(base))
    with transaction(engine) as session:
        session.query(Game).delete()
    engine.dispose()
    floor = _median(lambda: _executemany(_fresh(work, "trf-floor.db", base), rows), repeat)
    _print("TRF Karl-Mala 2005 (284 players, 980 games)", 980, imported, read, floor)


def bench_csv(work: Path, games: int, repeat: int) -> None:
    rng = random.Random(2026)
    names = [f"Player{i:04d}, Club" for i in range(500)]
    base = Path(_fresh(work, "csv-base.db"))
    engine = open_ledger(str(base))
    with transaction(engine) as session:
        for name in names:
            register(session, NewPlayer(name=name, rating=rng.randint(1400, 2400),
                                        prior_games=100), source="bench", effective_from=None)
    with transaction(engine, write=False) as session:
        ids = {name: pid for name, pid in session.execute(select(Player.name, Player.id))}
    engine.dispose()
    lines = ["date,white,black,result,round"]
    rows = []
    for i in range(games):
        white, black = rng.sample(names, 2)
        day = dt.date(2025, 11, 1 + i % 30)
        result = rng.choice(["1-0", "0-1", "1/2-1/2"])
        lines.append(f'{day},"{white}","{black}",{result},{i}')
        rows.append(dict(event_id=None, round=str(i), date=day, period="2025-11",
                         white_id=ids[white], black_id=ids[black], result=result, played=True,
                         source=f"bench:{i + 2}"))
    path = work / "games.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    raw = path.read_bytes()
    runs = []
    for i in range(repeat):
        seconds, recorded = _timed_import(_fresh(work, f"csv{i}.db", base), path, "csv", False)
        assert recorded == games
        runs.append(seconds)
    imported = statistics.median(runs)

    def bare_read() -> float:
        t0 = time.perf_counter()
        read_csv(str(path), raw)
        return time.perf_counter() - t0

    read = _median(bare_read, repeat)
    floor = _median(lambda: _executemany(_fresh(work, "csv-floor.db", base), rows), repeat)
    _print(f"CSV generated ({games:,} games, 500 players)", games, imported, read, floor)


def _print(what: str, games: int, imported: float, read: float, floor: float) -> None:
    print(what)
    print(f"  import:            {imported:8.3f} s  {games / imported:10,.0f} games/s")
    print(f"  floor, bare read:  {read:8.3f} s  {games / read:10,.0f} games/s  "
          f"(import / read {imported / read:.1f}x)")
    print(f"  floor, executemany:{floor:8.3f} s  {games / floor:10,.0f} games/s  "
          f"(import / insert {imported / floor:.1f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--games", type=int, default=100_000)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ledger-bench-"))
    try:
        bench_trf(work, args.repeat)
        bench_csv(work, args.games, args.repeat)
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
