"""Engines for the ledger's database: SQLite by default, any SQLAlchemy URL (PostgreSQL) otherwise.

SQLite gets foreign keys, a busy timeout and the two pysqlite hooks from SQLAlchemy's docs
("Serializable isolation / Savepoints / Transactional DDL") so that transactions, savepoints and
migrations are really transactional on Python 3.11. A transaction that will write starts with
``BEGIN IMMEDIATE`` (engine option ``ledger_write``), so two writers queue on the busy timeout
instead of one failing with "database is locked" halfway. WAL is switched on by ``ledger init``
only: opening a file never changes it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import URL, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from ledger.errors import LedgerError, NeedsInit

#: Seconds a command waits for another one that holds the write lock.
BUSY_TIMEOUT_SECONDS = 30

#: The first 16 bytes of every SQLite database file (https://www.sqlite.org/fileformat.html).
SQLITE_HEADER = b"SQLite format 3\x00"

#: The files SQLite keeps beside a database, by suffix: what each one is.
SIDE_FILES = {"-wal": "write-ahead log", "-shm": "shared-memory index",
              "-journal": "rollback journal"}


def database_url(db: str) -> URL:
    """A SQLAlchemy URL for ``db``: a URL is parsed, anything else is a SQLite file path taken
    literally (``?`` and ``%`` are part of the name). Raises ``LedgerError`` naming ``--db``."""
    try:
        if "://" in db:
            return make_url(db)
        return URL.create("sqlite", database=str(Path(db).expanduser()))
    except (ArgumentError, RuntimeError, ValueError) as exc:
        raise LedgerError(f"--db: {db!r} is neither a file path nor a database URL ({exc})") from None


def sqlite_path(url: URL) -> Path | None:
    """The file of a SQLite URL, or None for other databases and in-memory SQLite."""
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    return Path(url.database)


def ledger_name(url: URL) -> str:
    """The ledger as messages name it: a SQLite file's path, else the URL without password."""
    path = sqlite_path(url)
    return str(path) if path is not None else url.render_as_string(hide_password=True)


def is_sqlite_file(path: Path) -> bool:
    """Whether ``path`` is a regular file (a link is followed) starting with ``SQLITE_HEADER``;
    a device or a pipe is not (nothing is read from it). Raises ``OSError`` when ``path``
    cannot be examined or read."""
    if not path.is_file():
        return False
    with open(path, "rb") as handle:
        return handle.read(len(SQLITE_HEADER)) == SQLITE_HEADER


def _check_file(path: Path, must_exist: bool) -> None:
    """Refuse a ``--db`` path that is no ledger file, or a new one that cannot be created."""
    if path.is_dir():
        raise LedgerError(f"--db: {path} is a directory, not a ledger file")
    try:
        exists = path.exists()
        if exists and not path.is_file():
            raise LedgerError(f"--db: {path} is not a regular file (a device or a pipe), not a "
                              "ledger file")
        if exists and path.stat().st_size and not is_sqlite_file(path):
            raise LedgerError(f"--db: {path} is not a SQLite database (a ledger file starts with "
                              "'SQLite format 3'): is it the right file?")
    except OSError as exc:
        raise LedgerError(f"--db: cannot read {path}: {exc.strerror or exc}") from None
    if exists:
        return
    if must_exist:
        raise NeedsInit(f"no ledger at {path}: run `ledger init` to create it")
    folder = path.parent
    if not folder.is_dir():
        state = "is not a folder" if folder.exists() else "does not exist"
        raise LedgerError(f"--db: cannot create {path}: the folder {folder} {state}; create it first")


def sqlite_files(db: str) -> dict[Path, str]:
    """The files of the SQLite ledger ``db`` (path or URL): the database file and the side
    files SQLite keeps beside it (``SIDE_FILES``), each with what it is (the database: "").
    Empty for other databases. Raises ``LedgerError`` as ``database_url`` does."""
    path = sqlite_path(database_url(db))
    if path is None:
        return {}
    return {path: "", **{Path(f"{path}{suffix}"): what for suffix, what in SIDE_FILES.items()}}


def make_engine(db: str, *, must_exist: bool = False) -> Engine:
    """Create the engine for ``db`` (path or URL).

    With ``must_exist`` a SQLite file that does not exist raises ``NeedsInit`` instead of being
    created empty (every command but ``ledger init``). Raises ``LedgerError`` for an in-memory
    database (it would keep nothing), a directory, a device, a file that is not SQLite (its
    first bytes; an empty file is an empty database), a new file in a folder that does not
    exist (the folder named), or a database whose driver is not installed.
    """
    url = database_url(db)
    path = sqlite_path(url)
    if url.get_backend_name() == "sqlite" and path is None:
        raise LedgerError(f"--db: {db!r} is an in-memory database, which keeps nothing; give a file")
    if path is not None:
        _check_file(path, must_exist)
    try:
        if path is None:
            return create_engine(url)
        engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_SECONDS})
    except ImportError as exc:
        raise LedgerError(f"--db: the database driver for {url.drivername!r} is not installed "
                          f"({exc.name}); for PostgreSQL: pip install 'psycopg[binary]'") from None
    except ArgumentError as exc:
        raise LedgerError(f"--db: {db!r} cannot be used: {exc}") from None
    _install_sqlite_hooks(engine)
    return engine


def _install_sqlite_hooks(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not pysqlite, emit BEGIN (SQLAlchemy docs: pysqlite "Serializable
        # isolation / Savepoints / Transactional DDL").
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={round(BUSY_TIMEOUT_SECONDS * 1000)}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        write = conn.get_execution_options().get("ledger_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def use_wal(engine: Engine) -> None:
    """Switch a SQLite ledger to write-ahead logging (readers never wait for a writer)."""
    if engine.url.get_backend_name() == "sqlite":
        raw = engine.raw_connection()  # outside any transaction, as the pragma requires
        try:
            cursor = raw.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.close()
        finally:
            raw.close()
