"""Where the tests' ledgers live: SQLite files under a test's ``tmp_path``, or databases on a
PostgreSQL server (``Server``), handed out by the fixtures of tests/conftest.py (``factory``)."""

from __future__ import annotations

import atexit
import datetime as dt
import os
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

from sqlalchemy import Connection, MetaData, Table, create_engine, inspect, text
from sqlalchemy.engine import make_url

from ledger.services.admin.setup import init_ledger

P = TypeVar("P", str, Path)


class Server:
    """The PostgreSQL server a run's ledgers live on: databases named ``{prefix}_{n}``, created
    from ``template`` (migrated once, on first use) and dropped at the end of the run."""

    def __init__(self, url: str) -> None:
        self.url = make_url(url)
        self.prefix = f"ledger_test_{uuid.uuid4().hex[:8]}"
        self.admin = create_engine(self.url, isolation_level="AUTOCOMMIT")
        self.template: str | None = None
        self.free: list[str] = []
        self.created: list[str] = []
        self.numbered = 0  # databases ever created: a dropped one's number is never reused
        self.fingerprint: tuple[object, ...] | None = None

    def url_of(self, database: str) -> str:
        """The URL of ``database`` on this server, with the password (what a test hands on)."""
        return self.url.set(database=database).render_as_string(hide_password=False)

    def _create(self, template: str = "template0") -> str:
        self.numbered += 1
        name = f"{self.prefix}_{self.numbered}"
        with self.admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        self.created.append(name)
        return name

    def empty(self) -> str:
        """A new empty database (no ledger yet); its URL."""
        return self.url_of(self._create())

    def ledger(self) -> str:
        """A ledger at the latest revision, empty: one a test handed back, else a copy of the
        template; its URL."""
        if self.free:
            return self.url_of(self.free.pop())
        if self.template is None:
            self.template = self._create()
            init_ledger(self.url_of(self.template))
            self.fingerprint = self._fingerprint(self.template)
        return self.url_of(self._create(self.template))

    def _fingerprint(self, database: str) -> tuple[object, ...]:
        """The revision and every table, column and index of ``database`` (unchanged: reusable)."""
        engine = create_engine(self.url_of(database))
        try:
            with engine.connect() as conn:
                revision = conn.execute(text("SELECT version_num FROM alembic_version")).all()
                objects = conn.execute(text(
                    "SELECT c.relname, c.relkind, a.attname, format_type(a.atttypid, a.atttypmod) "
                    "FROM pg_class c LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND "
                    "a.attnum > 0 AND NOT a.attisdropped JOIN pg_namespace n ON n.oid = "
                    "c.relnamespace WHERE n.nspname = 'public' ORDER BY 1, 3")).all()
                return (tuple(revision), tuple(objects))
        except Exception:  # no alembic_version any more, or no database: not reusable
            return ()
        finally:
            engine.dispose()

    def release(self, url: str, reusable: bool) -> None:
        """Take back the database at ``url``: emptied for a later test when ``reusable`` (a
        ledger) and its schema is still the template's, else dropped."""
        name = make_url(url).database
        assert name is not None
        with self.admin.connect() as conn:
            conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                              "WHERE datname = :name AND pid <> pg_backend_pid()"), {"name": name})
        if reusable and self._fingerprint(name) == self.fingerprint:
            engine = create_engine(url)
            try:
                with engine.begin() as conn:
                    tables = conn.execute(text(
                        "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND "
                        "tablename <> 'alembic_version'")).scalars().all()
                    conn.exec_driver_sql("TRUNCATE " + ", ".join(f'"{t}"' for t in tables)
                                         + " RESTART IDENTITY CASCADE")
            finally:
                engine.dispose()
            self.free.append(name)
            return
        self._drop(name)

    def _drop(self, name: str) -> None:
        with self.admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self.created.remove(name)

    def close(self) -> None:
        """Drop every database of the run."""
        for name in list(reversed(self.created)):
            self._drop(name)
        self.admin.dispose()


#: ``new_ledger(name)`` / ``new_database(name)``: a ledger (or an empty database) for this test.
Factory = Callable[..., str]


class SqliteTemplate:
    """The SQLite counterpart of ``Server.template``: a ledger at the latest revision, made once
    per process (pytest-xdist worker) on first use in a folder of its own (removed when the
    process ends), whose file each new ledger is a copy of. Migrating a new SQLite file through
    every revision takes seconds of CPU (Alembic's batch operations copy tables); a copy takes a
    millisecond and gives the same file: a new ledger holds nothing but its revision
    (``alembic_version``), in WAL mode (kept in the file)."""

    def __init__(self) -> None:
        self.path: Path | None = None

    def copy_to(self, path: str | Path) -> None:
        """A new ledger at ``path`` (no file there yet): a copy of the template, with its mode."""
        if self.path is None:
            folder = tempfile.mkdtemp(prefix="ledger-template-")
            atexit.register(shutil.rmtree, folder, ignore_errors=True)
            made = Path(folder) / "template.db"
            init_ledger(str(made))  # its engine disposed: the WAL checkpointed into the file
            self.path = made
        shutil.copy2(self.path, path)


#: The process's template (``new_ledger`` on SQLite, ``sqlite_ledger``).
TEMPLATE = SqliteTemplate()


def sqlite_ledger(path: P) -> P:
    """A new SQLite ledger at ``path`` (no file there yet), at the latest revision: what ``ledger
    init`` gives, copied from ``TEMPLATE``, for a test whose point is not ``init``; ``path``."""
    if os.path.exists(path):
        raise AssertionError(f"{path} exists already: a new ledger needs a path of its own")
    TEMPLATE.copy_to(path)
    return path


def factory(server: Server | None, tmp_path: Path, initialised: bool,
            template: SqliteTemplate | None = None) -> Iterator[Factory]:
    """Yield ``make(name)``: a new ledger (``initialised``) or empty database named ``name``
    (SQLite: ``tmp_path / "name.db"``, a copy of ``template`` when given), taken back when the
    test ends."""
    made: list[str] = []

    def make(name: str = "ledger") -> str:
        if server is None:
            path = str(tmp_path / f"{name}.db")
            if os.path.exists(path):
                raise AssertionError(f"{path} exists already: give each ledger of a test its own name")
            if initialised and template is not None:
                template.copy_to(path)
            elif initialised:
                init_ledger(path)
            return path
        url = server.ledger() if initialised else server.empty()
        made.append(url)
        return url

    yield make
    if server is not None:
        for url in made:
            server.release(url, reusable=initialised)


def contents(db: str) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table of the ledger ``db`` (path or URL), by table, rows in a fixed
    order: what "nothing was written" compares, on any database."""
    engine = create_engine(make_url(db) if "://" in db else f"sqlite:///{db}")
    try:
        with engine.connect() as conn:
            tables = inspect(conn).get_table_names()
            return {table: sorted((tuple(row) for row in conn.execute(text(f'SELECT * FROM "{table}"'))),
                                  key=repr)
                    for table in sorted(tables)}
    finally:
        engine.dispose()


def sql(db: str, statement: str) -> list[tuple[object, ...]]:
    """The rows ``statement`` (SQL every database takes) reads from the ledger ``db``, not
    through the ledger: dates and times as text, as SQLite stores them (``YYYY-MM-DD``,
    ``YYYY-MM-DD HH:MM:SS.ffffff``), on any database."""
    engine = create_engine(make_url(db) if "://" in db else f"sqlite:///{db}")
    try:
        with engine.connect() as conn:
            return [tuple(_as_stored(v) for v in row) for row in conn.execute(text(statement))]
    finally:
        engine.dispose()


def _as_stored(value: object) -> object:
    """A date or time as SQLite's text holds it; anything else as it is."""
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ", timespec="microseconds")
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def every_table(conn: Connection) -> list[Table]:
    """Every table of the database of ``conn``, as it is (reflected), for
    ``ledger.db.sequences.reset_sequences`` after rows were put in with their ids."""
    tables = MetaData()
    tables.reflect(conn)
    return list(tables.sorted_tables)
