"""How long a submission holds the ledger's write lock: ``python -m benchmarks.submission_lock
[--size S|M] [--db URL] [--runs N]``.

Issue 23. A synthetic federation is loaded and its month closed through the CLI
(``benchmarks.web.build``); a reporter is added; then, in this process, ``--runs`` submissions
(default 3) of each kind go through ``services.submissions.submit``: a clean CSV of one game
between two registered players (one dry run of the import), and the same with a second game
against a player the ledger does not know (a warning: up to 7 dry runs). For each, the wall
time of the submit and the seconds the write lock was held (from a writing transaction's begin,
SQLite ``BEGIN IMMEDIATE`` or PostgreSQL's advisory lock, to its commit or rollback: SQLAlchemy's
``begin``/``commit``/``rollback`` events on connections with ``ledger_write``). On SQLite, also
the snapshot the check runs on (``db.snapshot.sqlite_snapshot``): seconds to make it and its
size. Medians (min-max) are printed and appended to benchmarks/RESULTS.md (``--no-results``:
not). Not part of the test suite.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import io
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import Connection, Engine, event

from benchmarks import federation
from benchmarks.__main__ import MONTH
from benchmarks.web import build, table
from ledger.db.engine import sqlite_path
from ledger.db.models.accounts import User
from ledger.db.snapshot import sqlite_snapshot
from ledger.services.core.session import open_ledger, transaction
from ledger.services.submissions import submissions as subs

#: The day the submissions are made, and the date of their games (the open period after MONTH).
TODAY = dt.date(MONTH[0] + MONTH[1] // 12, MONTH[1] % 12 + 1, 20)
UNKNOWN = "Nobody, Unknown"


class LockClock:
    """The seconds each writing transaction on ``engine`` held the write lock (``held``)."""

    def __init__(self, engine: Engine) -> None:
        self.held: list[float] = []
        self._began: dict[int, float] = {}
        event.listen(engine, "begin", self._begin)
        event.listen(engine, "commit", self._end)
        event.listen(engine, "rollback", self._end)

    def _begin(self, conn: Connection) -> None:
        if conn.get_execution_options().get("ledger_write", False):
            self._began[id(conn)] = time.perf_counter()

    def _end(self, conn: Connection) -> None:
        began = self._began.pop(id(conn), None)
        if began is not None:
            self.held.append(time.perf_counter() - began)


def games_csv(register: list[federation.SyntheticPlayer], rng: random.Random,
              unknown: bool) -> bytes:
    a, b = rng.sample(range(len(register)), 2)
    rows = [("date", "white", "black", "result"),
            (TODAY.replace(day=5).isoformat(), register[a].name, register[b].name, "1-0")]
    if unknown:
        rows.append((TODAY.replace(day=6).isoformat(), UNKNOWN, register[b].name, "0-1"))
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue().encode()


def spread(values: list[float], unit: float = 1.0, digits: int = 3) -> str:
    """``median (min-max)`` of ``values`` x ``unit``."""
    v = [x * unit for x in values]
    return f"{statistics.median(v):.{digits}f} ({min(v):.{digits}f}-{max(v):.{digits}f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", choices=("S", "M"), default="M")
    parser.add_argument("--db", help="a PostgreSQL URL (its tables are dropped)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-results", action="store_true", help="do not append to RESULTS.md")
    args = parser.parse_args()
    rows: list[tuple[str, str, str]] = []
    with tempfile.TemporaryDirectory(prefix="ledger-lock-bench-") as tmp:
        db, players, _ = build(Path(tmp), args.size, args.db)
        engine = open_ledger(db)
        try:
            with transaction(engine) as session:
                user = User(name="bench-reporter", name_key="bench-reporter", role="reporter",
                            password_hash="-")
                session.add(user)
                session.flush()
                reporter = user.id
            clock, register, rng = LockClock(engine), federation.federation(players), \
                random.Random(7)
            for unknown in (False, True):
                walls, held = [], []
                for _ in range(args.runs):
                    clock.held.clear()
                    t0 = time.perf_counter()
                    made = subs.submit(engine, reporter, "bench.csv",
                                       games_csv(register, rng, unknown),
                                       {"pool": "standard"}, today=TODAY)
                    walls.append(time.perf_counter() - t0)
                    held.append(sum(clock.held))
                    print(f"submit: {walls[-1]:.2f} s, lock {held[-1]:.3f} s, "
                          f"{len(made.warnings)} warning(s)", file=sys.stderr)
                kind = "with an unknown player" if unknown else "clean, one game"
                rows.append((f"submit ({kind}), s", spread(walls, digits=2), ""))
                rows.append((f"write lock held ({kind}), s", spread(held), ""))
            path = sqlite_path(engine.url)
            if path is not None:
                seconds = []
                for _ in range(args.runs):
                    t0 = time.perf_counter()
                    with sqlite_snapshot(engine):
                        seconds.append(time.perf_counter() - t0)
                rows.append(("snapshot (backup API into a temporary file), s", spread(seconds),
                             f"{path.stat().st_size / 1e6:.1f} MB"))
        finally:
            engine.dispose()
    report(rows, args)


def report(rows: list[tuple[str, str, str]], args: argparse.Namespace) -> None:
    players, games = federation.SIZES[args.size]
    title = (f"submission write lock, size {args.size} ({players:,} players, {games:,} games), "
             f"{'PostgreSQL' if args.db else 'SQLite'}, median of {args.runs} (min-max)")
    table(title, "the check without the write lock (session.scratch)",
          ("measure", "value", "size"), rows, keep=not args.no_results)


if __name__ == "__main__":
    main()
