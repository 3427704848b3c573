"""Shared fixtures: a fresh ledger on its own SQLite file per test, and the shared real data.

Every test gets its own database file under ``tmp_path``; engines opened here are disposed at
teardown so that no connection is left for the garbage collector (pytest runs with
``filterwarnings = error``, so a ``ResourceWarning`` would fail the run).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine

from ledger.services.session import init_ledger, open_ledger

#: /work/shared/data: the real files listed in shared/data/README.md (never copied into the repo).
SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


@pytest.fixture
def shared_data() -> Path:
    """The shared data directory; fails loudly (never skips) when it is missing."""
    if not SHARED_DATA.is_dir():
        pytest.fail(f"shared data directory missing: {SHARED_DATA} (see shared/data/README.md)",
                    pytrace=False)
    return SHARED_DATA


@pytest.fixture
def ledger_db(tmp_path: Path) -> str:
    """A freshly initialised ledger in its own SQLite file; returns the path as a string."""
    path = tmp_path / "ledger.db"
    init_ledger(str(path))
    return str(path)


@pytest.fixture
def engine(ledger_db: str) -> Iterator[Engine]:
    """The engine of ``ledger_db``, disposed at teardown."""
    eng = open_ledger(ledger_db)
    try:
        yield eng
    finally:
        eng.dispose()


@pytest.fixture
def open_engine() -> Iterator[object]:
    """A factory ``open_engine(path)`` -> engine for extra ledgers; every engine is disposed."""
    opened: list[Engine] = []

    def _open(path: str) -> Engine:
        eng = open_ledger(path)
        opened.append(eng)
        return eng

    yield _open
    for eng in opened:
        eng.dispose()
