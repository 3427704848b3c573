"""Where the benchmark's ledger steps run (``Ledger``: fresh SQLite files, or a ``--db`` URL
emptied) and the ledger of ``--periods`` closed months ``history`` is measured on."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from benchmarks import federation
from benchmarks.children import ledger

#: The month every run imports and closes (the measured close), on a fresh ledger.
MONTH = (2026, 9)
#: The last month of the ledger ``history`` is measured on: ``--periods`` months ending here.
LAST_HISTORY_MONTH = (2026, 11)
MAX_PERIODS = 24


class Ledger:
    """Where the ledger's steps run: a fresh SQLite file per run, or the ``--db`` URL, emptied."""

    def __init__(self, work: Path, url: str | None) -> None:
        self.work, self.url = work, url

    def fresh(self, name: str) -> str:
        if self.url is None:
            return str(self.work / f"{name}.db")
        from sqlalchemy import MetaData, create_engine, text  # only for --db URL
        engine = create_engine(self.url)
        with engine.begin() as conn:
            meta = MetaData()
            meta.reflect(conn)
            meta.drop_all(conn)
            conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
        engine.dispose()
        return self.url

    def copy(self, db: str, name: str) -> str | None:
        """A copy of an SQLite ledger (None on a URL: it cannot be copied)."""
        if self.url is not None:
            return None
        target = self.work / f"{name}.db"
        shutil.copy(db, target)
        return str(target)


def history_months(periods: int) -> list[tuple[int, int]]:
    """The ``periods`` months ending with ``LAST_HISTORY_MONTH``, oldest first."""
    year, month = LAST_HISTORY_MONTH
    index = year * 12 + month - 1
    return [divmod(i, 12) for i in range(index - periods + 1, index + 1)]


def history_ledger(work: Path, where: Ledger, register: list[federation.SyntheticPlayer],
                   register_csv: Path, games: int, periods: int) -> str:
    """A fresh ledger of the register and ``periods`` months of ``games`` games each, every
    month imported and closed in order (the months of one year are seeded as before; other
    years' months with another seed, so no two months repeat their pairings)."""
    db = where.fresh("history")
    ledger(db, "init")
    ledger(db, "import", str(register_csv), "--format", "players", "--quiet")
    for i, (year, month0) in enumerate(history_months(periods)):
        month = month0 + 1
        path = work / f"history-{year}-{month:02d}.csv"
        federation.write_month(path, register, games, year, month,
                               seed=federation.SEED + (year - MONTH[0]))
        ledger(db, "import", str(path), "--quiet")
        ledger(db, "period", "close", f"{year}-{month:02d}", "--json",
               stdout=work / "close.json")
        print(f"history ledger: {i + 1}/{periods} periods closed", file=sys.stderr)
        path.unlink()
    return db

