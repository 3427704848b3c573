"""Shared fixtures: a fresh ledger per test, on SQLite or on a PostgreSQL server. The real data
files are named through ``data_files.data_file`` (tests/data_files.py).

The database is chosen for the whole run: ``pytest`` alone gives every test SQLite files under
its ``tmp_path``; ``pytest --database-url postgresql+psycopg://USER:PASSWORD@HOST:PORT/postgres``
(or ``LEDGER_TEST_DATABASE_URL``) gives every test databases of its own on that server, created
and dropped by the run (``bash .ci/postgres-tests`` starts a private server and does this). Every
test that touches a ledger gets it from these fixtures, so the same tests run on both:

- ``ledger_db``: one ledger at the latest revision (a path, or a URL with its password);
- ``new_ledger(name)``: as many more as a test wants, each at the latest revision;
- ``new_database(name)``: an empty database (no ledger yet), for tests of ``ledger init`` and of
  the migrations.

The schema is migrated once per process into a template, which each new ledger is a copy of: a
SQLite file copied (``ledgers.TEMPLATE``), or on PostgreSQL ``CREATE DATABASE ... TEMPLATE``;
on PostgreSQL a ledger a test leaves at the latest revision, with the
template's tables, is emptied (``TRUNCATE ... RESTART IDENTITY``) and handed to a later test
instead of being dropped. Engines opened here are disposed at teardown so that no connection is
left for the garbage collector (pytest runs with ``filterwarnings = error``, so a
``ResourceWarning`` would fail the run).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from ledgers import TEMPLATE, Factory, Server, factory
from processes import kill_started
from sqlalchemy import Engine
from sqlalchemy.engine import make_url

from ledger.services.core.session import open_ledger

# pytest-xdist gives each worker COLUMNS (the controller's terminal width: 80 with no
# terminal), which no serial run has: the CLI's output would be 80 columns wide instead of a
# pipe's 160 (cli.render.output) and the tests reading it would see other line breaks. A worker
# runs with COLUMNS unset, as a serial run without a terminal does (CI's).
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.pop("COLUMNS", None)

#: The environment variable that chooses the server when ``--database-url`` is not given.
URL_VARIABLE = "LEDGER_TEST_DATABASE_URL"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--database-url", default=os.environ.get(URL_VARIABLE) or None, metavar="URL",
        help="Run every ledger test on this database server (a SQLAlchemy URL of a database the "
             "user may create databases from, e.g. postgresql+psycopg://postgres:pw@127.0.0.1:"
             f"5432/postgres); default ${URL_VARIABLE}, else SQLite files.")
    parser.addoption(
        "--database-tests-only", action="store_true",
        help="With --database-url: run only the tests whose fixtures reach the database server "
             "(the database_url fixture); the others open no ledger on it and give the same "
             "result as on SQLite (CI's PostgreSQL leg: they already ran in its SQLite leg).")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``--database-tests-only``: deselect every test that does not reach ``database_url``
    (a unit test, a format, a test on SQLite files of its own), reported as deselected."""
    if not config.getoption("--database-tests-only"):
        return
    if not config.getoption("--database-url"):
        raise pytest.UsageError("--database-tests-only needs --database-url (a server to test on)")
    kept = [item for item in items if "database_url" in getattr(item, "fixturenames", ())]
    config.hook.pytest_deselected(items=[item for item in items if item not in set(kept)])
    items[:] = kept


def pytest_report_header(config: pytest.Config) -> str:
    url = config.getoption("--database-url")
    shown = make_url(url).render_as_string(hide_password=True) if url else "SQLite files"
    return f"ledger databases: {shown}"


@pytest.fixture(scope="session")
def database_url(pytestconfig: pytest.Config) -> str | None:
    """The server URL the run's ledgers live on (``--database-url``), or None for SQLite."""
    url = pytestconfig.getoption("--database-url")
    return str(url) if url else None


@pytest.fixture(scope="session")
def server(database_url: str | None) -> Iterator[Server | None]:
    """The run's ``Server`` on PostgreSQL, or None on SQLite."""
    if database_url is None:
        yield None
        return
    found = Server(database_url)
    try:
        yield found
    finally:
        found.close()


@pytest.fixture
def new_ledger(server: Server | None, tmp_path: Path) -> Iterator[Factory]:
    """A factory: ``new_ledger("club")`` is a new ledger at the latest revision, for this test
    only: the SQLite file ``tmp_path / "club.db"`` (a copy of ``ledgers.TEMPLATE``) or a database
    of its own on the server (a copy of its template)."""
    yield from factory(server, tmp_path, initialised=True, template=TEMPLATE)


@pytest.fixture
def new_database(server: Server | None, tmp_path: Path) -> Iterator[Factory]:
    """A factory: ``new_database("club")`` is where a new ledger may be created (``ledger
    init``), for this test only: the path ``tmp_path / "club.db"`` (no file yet) or an empty
    database of its own on the server."""
    yield from factory(server, tmp_path, initialised=False)


@pytest.fixture
def ledger_db(new_ledger: Factory) -> str:
    """A freshly initialised ledger: its SQLite file (a path string), or a database of its own
    on the ``--database-url`` server (a URL)."""
    return new_ledger("ledger")


@pytest.fixture
def on_postgres(database_url: str | None) -> bool:
    """Whether this run's ledgers are on PostgreSQL."""
    return database_url is not None


@pytest.fixture(autouse=True)
def _no_process_left() -> Iterator[None]:
    """Every process a test started (tests/processes.py) has ended when the test does."""
    yield
    kill_started()


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


def _run_ledger(server: Server | None, tmp_path_factory: pytest.TempPathFactory,
                name: str) -> str:
    """A ledger kept for the whole run: a SQLite file of its own, or a database on the server
    (dropped when the run ends)."""
    if server is None:
        return str(tmp_path_factory.mktemp(name) / f"{name}.db")
    return server.ledger()


@pytest.fixture(scope="session")
def season_db(server: Server | None, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The README's example season (examples/club-season.sh: 2026-09 and 2026-10 closed), built
    once per run in a ledger of its own on the run's database; tests only read it
    (``example_ledgers``; one that changes it works on a ``db copy`` of it)."""
    from example_ledgers import build_season

    return build_season(_run_ledger(server, tmp_path_factory, "riverside"))


@pytest.fixture(scope="session")
def tata_db(server: Server | None, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The Tata Steel Masters 2022 ledger (2022-01 closed), built once per run; read only."""
    from example_ledgers import build_tata

    return build_tata(_run_ledger(server, tmp_path_factory, "tata"))
