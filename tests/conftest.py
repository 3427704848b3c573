"""Shared fixtures: a fresh ledger on its own SQLite file per test. The real data files are named
through ``data_files.data_file`` (tests/data_files.py).

Every test gets its own database file under ``tmp_path``; engines opened here are disposed at
teardown so that no connection is left for the garbage collector (pytest runs with
``filterwarnings = error``, so a ``ResourceWarning`` would fail the run).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine
from sqlalchemy.engine import make_url

from ledger.services.session import init_ledger, open_ledger

#: Run the service tests on another database too: a server URL such as
#: postgresql+psycopg://postgres:pg@localhost/postgres (each test gets a database of its own).
SERVER_URL = os.environ.get("LEDGER_TEST_DATABASE_URL")


@pytest.fixture
def ledger_db(tmp_path: Path) -> Iterator[str]:
    """A freshly initialised ledger in its own SQLite file (returned as a path string), or, with
    ``LEDGER_TEST_DATABASE_URL`` set, in a fresh database on that server (returned as a URL)."""
    if not SERVER_URL:
        path = tmp_path / "ledger.db"
        init_ledger(str(path))
        yield str(path)
        return
    name = f"ledger_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(SERVER_URL, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(f"CREATE DATABASE {name}")
        url = make_url(SERVER_URL).set(database=name).render_as_string(hide_password=False)
        init_ledger(url)
        yield url
        with admin.connect() as conn:
            conn.exec_driver_sql(f"DROP DATABASE {name} WITH (FORCE)")
    finally:
        admin.dispose()


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


@pytest.fixture(scope="session")
def season_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The README's example season (examples/club-season.sh: 2026-09 and 2026-10 closed), built
    once per run in its own SQLite file; tests only read it (``example_ledgers``)."""
    from example_ledgers import build_season

    return str(build_season(tmp_path_factory.mktemp("season") / "riverside.db"))


@pytest.fixture(scope="session")
def tata_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The Tata Steel Masters 2022 ledger (2022-01 closed), built once per run; read only."""
    from example_ledgers import build_tata

    return str(build_tata(tmp_path_factory.mktemp("tata") / "tata.db"))
