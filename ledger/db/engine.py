"""Engines for the ledger's database: SQLite by default, any SQLAlchemy URL (PostgreSQL) otherwise.

SQLite gets foreign keys, a busy timeout, a page cache of ``SQLITE_CACHE_KIB`` and the two
pysqlite hooks from SQLAlchemy's docs
("Serializable isolation / Savepoints / Transactional DDL") so that transactions, savepoints and
migrations are really transactional on Python 3.11. A transaction that will write starts with
``BEGIN IMMEDIATE`` (engine option ``ledger_write``), so two writers queue on the busy timeout
instead of one failing with "database is locked" halfway. WAL is switched on by ``ledger init``
only: opening a file never changes it.

A ledger SQLite cannot write (read-only file, or a folder where it cannot make its journal) is
opened read-only (``mode=ro``; ``immutable=1`` when no -wal file beside it holds anything and
its folder cannot hold the -shm file a WAL reader needs: https://www.sqlite.org/wal.html,
"Read-Only Databases"), so every read works; ``require_writable`` refuses a write before it
starts. One that cannot be read at all (a -wal file with changes, no -shm file, a read-only
folder) is refused when it is opened, saying what to do (``unreadable_wal``).

PostgreSQL gets the same discipline in the same hook: a transaction that will write runs READ
COMMITTED and first takes one ledger-wide transaction-scoped advisory lock
(``pg_advisory_xact_lock(WRITE_LOCK_KEY)``, released by its commit or rollback), so writers take
turns exactly as on SQLite and each sees everything the one before it committed; a transaction
that only reads (engine option ``ledger_read``) runs REPEATABLE READ READ ONLY, one snapshot from
its first statement to its end (with psycopg 3 said in the BEGIN psycopg sends: one round trip,
not two). Transactions without either option (Alembic's, a test's) are
left as the server makes them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import URL, Connection, Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from ledger.db.sqlite_files import (
    SIDE_FILES,
    is_sqlite_file,
    read_only_reason,
    read_only_uri,
    unreadable_wal,
)
from ledger.errors import LedgerError, NeedsInit, ReadOnlyLedger, hide_passwords

#: Seconds a command waits for another one that holds the write lock.
BUSY_TIMEOUT_SECONDS = 30
#: KiB of page cache per SQLite connection (``PRAGMA cache_size=-N``; SQLite's default is 2,000
#: KiB). A federation month's import and close write index b-trees of a million rows, which
#: outgrow the default cache: at 200,000 players and 1,000,000 games a raw executemany of the
#: month's games takes 28-29 s with the default and 16-19 s with this (benchmarks/RESULTS.md).
#: The cache fills only as pages are read, so a club's ledger uses what its file needs.
SQLITE_CACHE_KIB = 65536

#: The page cache of SQLite during a period close and a list's bundle (``sqlite_cache``,
#: ``bundles.bundle_pieces``: at 50,000 players the bundle alone 292 -> 248 MB, the same
#: CPU, issue 25's sitepeak): the close reads the
#: month's games and the histories once each, in order, and writes its rows in player order,
#: so the import's 64 MB (full after the first read at 1,000,000 games) buys it nothing while
#: it counts in its peak memory (benchmarks/RESULTS.md, 2026-12-03 close memory).
SQLITE_CLOSE_CACHE_KIB = 8192

#: The key of the one advisory lock every writing transaction on PostgreSQL takes first: the
#: bytes of "ledger" as a bigint. Advisory locks belong to one database, so this is ledger-wide.
WRITE_LOCK_KEY = int.from_bytes(b"ledger", "big")

def database_url(db: str) -> URL:
    """A SQLAlchemy URL for ``db``: a URL is parsed, anything else is a SQLite file path taken
    literally (``?`` and ``%`` are part of the name). Raises ``LedgerError`` naming ``--db``
    (without its password: ``shown_db``)."""
    if "://" in db and db.partition("://")[2].count("@") > 1:
        # SQLAlchemy would take a part of the password for the host, the database or the user
        # name, which messages show
        raise LedgerError(f"--db: {shown_db(db)!r}: the URL has more than one @; write an @ in "
                          "a user name, password or parameter as %40")
    try:
        if "://" in db:
            return make_url(db)
        return URL.create("sqlite", database=str(Path(db).expanduser()))
    except (ArgumentError, RuntimeError, ValueError) as exc:
        raise LedgerError(f"--db: {shown_db(db)!r} is neither a file path nor a database URL "
                          f"({hide_passwords(str(exc))})") from None


def shown_db(db: str) -> str:
    """``db`` (path or URL) as a message may show it: a URL as given without its password
    (``errors.hide_passwords``: every form, even a URL SQLAlchemy cannot parse); a path as
    given."""
    return hide_passwords(db) if "://" in db else db


@contextmanager
def sqlite_cache(conn: Connection, kib: int) -> Iterator[None]:
    """On SQLite, ``conn``'s page cache at ``kib`` KiB for the block (pages past it freed at
    once), then at ``SQLITE_CACHE_KIB`` again; on other databases nothing."""
    if conn.dialect.name != "sqlite":
        yield
        return
    conn.exec_driver_sql(f"PRAGMA cache_size=-{int(kib)}")
    try:
        yield
    finally:
        conn.exec_driver_sql(f"PRAGMA cache_size=-{SQLITE_CACHE_KIB}")


def release_cache(conn: Connection) -> None:
    """On SQLite, free what ``conn``'s page cache holds (``PRAGMA shrink_memory``: it fills
    again as pages are read), for a transaction that reads no more for a while; on other
    databases nothing. A full site build's read transaction stays open while its bundles
    are made, its 64 MB (full at L) held for nothing (issue 25's sitepeak)."""
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql("PRAGMA shrink_memory")


def sqlite_path(url: URL) -> Path | None:
    """The file of a SQLite URL, or None for other databases and in-memory SQLite."""
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    return Path(url.database)


def ledger_name(url: URL) -> str:
    """The ledger as messages name it: a SQLite file's path, else the URL without its password
    (``errors.hide_passwords``: in its user information and in its query)."""
    path = sqlite_path(url)
    return str(path) if path is not None else hide_passwords(url.render_as_string(hide_password=False))


def require_writable(engine: Engine) -> None:
    """Raise ``ReadOnlyLedger`` (exit 1) naming the file before a write to a SQLite ledger that
    cannot be written (``read_only_reason``). Other databases refuse a write themselves
    (``errors.database_error`` words it)."""
    path = sqlite_path(engine.url)
    reason = read_only_reason(path) if path is not None and path.exists() else None
    if reason is not None:
        raise ReadOnlyLedger(f"the ledger {path} is read-only ({reason}): this command writes, "
                             "so nothing was done")


def _check_file(path: Path, must_exist: bool) -> None:
    """Refuse a ``--db`` path that is no ledger file, or a new one that cannot be created; one
    the system will not let us examine (a name too long, a folder we may not enter) is named
    with the system's reason."""
    try:
        exists = path.exists()
        if path.is_dir():
            raise LedgerError(f"--db: {path} is a directory, not a ledger file")
        if exists and not path.is_file():
            raise LedgerError(f"--db: {path} is not a regular file (a device or a pipe), not a "
                              "ledger file")
        if exists and path.stat().st_size and not is_sqlite_file(path):
            raise LedgerError(f"--db: {path} is not a SQLite database (a ledger file starts with "
                              "'SQLite format 3'): is it the right file?")
        unreadable = unreadable_wal(path) if exists else None
        if unreadable is not None:
            raise ReadOnlyLedger(unreadable)
        if exists:
            return
        if must_exist:
            raise NeedsInit(f"no ledger at {path}: run `ledger init` to create it")
        folder = path.parent
        if not folder.is_dir():
            state = "is not a folder" if folder.exists() else "does not exist"
            raise LedgerError(f"--db: cannot create {path}: the folder {folder} {state}; create "
                              "it first")
    except OSError as exc:
        raise LedgerError(f"--db: cannot use {path}: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK):
        raise ReadOnlyLedger(f"--db: cannot create {path}: the folder {folder} is read-only")


def sqlite_files(db: str) -> dict[Path, str]:
    """The files of the SQLite ledger ``db`` (path or URL): the database file and the side
    files SQLite keeps beside it (``SIDE_FILES``), each with what it is (the database: "").
    Empty for other databases. Raises ``LedgerError`` as ``database_url`` does."""
    path = sqlite_path(database_url(db))
    if path is None:
        return {}
    return {path: "", **{Path(f"{path}{suffix}"): what for suffix, what in SIDE_FILES.items()}}


#: The package that installs a database driver's Python module, by module (PostgreSQL's is the
#: one the ledger's ``postgres`` extra installs).
DRIVER_PACKAGES = {"psycopg": "'psycopg[binary]'", "psycopg2": "psycopg2-binary",
                   "asyncpg": "asyncpg", "pg8000": "pg8000", "MySQLdb": "mysqlclient",
                   "pymysql": "PyMySQL", "mysql": "mysql-connector-python",
                   "oracledb": "oracledb", "pyodbc": "pyodbc", "pymssql": "pymssql"}


def missing_driver(url: URL, module: str | None) -> str:
    """The message for the database URL ``url`` whose driver's Python ``module`` (None: not
    known) is not installed: the module and the package that installs it, and, for a database
    other than PostgreSQL, that the ledger is tested on SQLite and PostgreSQL only."""
    what = f"the Python module {module}" if module else "its Python module"
    package = DRIVER_PACKAGES.get(module or "")
    how = (f"pip install {package}" if package
           else f"install the package that provides {module or 'it'}")
    tested = ("" if url.get_backend_name() == "postgresql"
              else " (the ledger is tested on SQLite and PostgreSQL only)")
    return (f"--db: {url.drivername}: {what} is not installed (the driver SQLAlchemy uses for "
            f"{url.get_backend_name()}); {how}{tested}")


def make_engine(db: str, *, must_exist: bool = False) -> Engine:
    """Create the engine for ``db`` (path or URL).

    With ``must_exist`` a SQLite file that does not exist raises ``NeedsInit`` instead of being
    created empty (every command but ``ledger init``). Raises ``LedgerError`` for an in-memory
    database (it would keep nothing), a directory, a device, a file that is not SQLite (its
    first bytes; an empty file is an empty database), a new file in a folder that does not
    exist (the folder named) or cannot be written (``ReadOnlyLedger``), or a database whose
    driver is not installed (``missing_driver``). A SQLite ledger that cannot be written is
    opened read-only; one that cannot be read raises ``ReadOnlyLedger`` (``unreadable_wal``).
    """
    url = database_url(db)
    path = sqlite_path(url)
    if url.get_backend_name() == "sqlite" and path is None:
        raise LedgerError(f"--db: {db!r} is an in-memory database, which keeps nothing; give a file")
    if path is not None:
        _check_file(path, must_exist)
    try:
        engine = (create_engine(url) if path is None
                  else create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_SECONDS}))
    except ImportError as exc:
        raise LedgerError(missing_driver(url, exc.name)) from None
    except ArgumentError as exc:
        raise LedgerError(f"--db: {shown_db(db)!r} cannot be used: "
                          f"{hide_passwords(str(exc))}") from None
    if path is None:
        _install_server_hooks(engine)
    else:
        _install_sqlite_hooks(engine, path)
    return engine


def lock_for_writing(conn: Connection) -> None:
    """Take the ledger's write lock on ``conn``, inside its transaction, waiting for the writer
    that holds it: on PostgreSQL the transaction-scoped advisory lock ``WRITE_LOCK_KEY`` (freed
    by the commit or rollback). Every writing transaction takes it first (the engine's
    ``begin`` hook), migrations too; on SQLite ``BEGIN IMMEDIATE`` is the lock and this does
    nothing. Waits at most ``BUSY_TIMEOUT_SECONDS``, as SQLite does, then fails with
    PostgreSQL's lock_not_available (55P03), which ``errors.database_error`` words as another
    process writing."""
    if conn.dialect.name == "postgresql":
        # wait as long as SQLite's busy timeout, then 55P03 (errors.database_error: LedgerBusy)
        conn.execute(text("SELECT set_config('lock_timeout', :wait, true)"),
                     {"wait": f"{BUSY_TIMEOUT_SECONDS}s"})
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": WRITE_LOCK_KEY})


def _install_server_hooks(engine: Engine) -> None:
    if engine.dialect.name != "postgresql":
        return

    @event.listens_for(engine, "engine_connect")
    def _on_engine_connect(conn: Connection) -> None:
        if conn.get_execution_options().get("ledger_read", False) and _begins_itself(conn):
            # psycopg then begins with BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY: one
            # round trip where BEGIN and SET TRANSACTION were two (issue 25: a history's round
            # trips)
            conn.execution_options(**_READ_SNAPSHOT)
            conn.connection.info[_SNAPSHOT_SET] = True

    @event.listens_for(engine, "checkin")
    def _on_checkin(dbapi_connection: Any, record: Any) -> None:
        if record.info.pop(_SNAPSHOT_SET, False) and dbapi_connection is not None:
            # SQLAlchemy has put back READ COMMITTED (READ WRITE), which psycopg would then
            # say at every BEGIN: leave them to the server again, as before the read
            dbapi_connection.isolation_level = None
            dbapi_connection.read_only = None

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        options = conn.get_execution_options()
        if options.get("ledger_write", False):
            # each statement sees what the writer before it committed, whatever the server's
            # default isolation: a snapshot taken before the lock would be out of date
            conn.execute(text("SET TRANSACTION ISOLATION LEVEL READ COMMITTED"))
            lock_for_writing(conn)
        elif options.get("ledger_read", False) and not all(
                options.get(k) == v for k, v in _READ_SNAPSHOT.items()):
            conn.execute(text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"))


#: The execution options that make psycopg begin a transaction REPEATABLE READ READ ONLY
#: itself (SQLAlchemy's connection characteristics, set when a connection is taken from the
#: pool and reset when it is returned).
_READ_SNAPSHOT = {"isolation_level": "REPEATABLE READ", "postgresql_readonly": True}
#: The key, in a pooled connection's ``info``, of "an isolation level was set on it for a read"
#: (``_READ_SNAPSHOT``, ``autocommit_connection``): the checkin hook gives it back to the server's.
_SNAPSHOT_SET = "ledger_read_snapshot"


def autocommit_connection(engine: Engine) -> Connection:
    """A connection to ``engine`` in autocommit (each statement its own transaction: no BEGIN,
    no ROLLBACK), for a read of one statement on PostgreSQL (``session.one_statement``); given
    back to the pool as the server makes transactions, as before it."""
    conn = engine.connect().execution_options(isolation_level="AUTOCOMMIT")
    conn.connection.info[_SNAPSHOT_SET] = True
    return conn


def _begins_itself(conn: Connection) -> bool:
    """Whether ``conn``'s driver sends the transaction's BEGIN itself, with the isolation level
    and READ ONLY SQLAlchemy gave it (psycopg 3); else ``SET TRANSACTION`` says them."""
    return conn.dialect.driver == "psycopg"


#: The mode of a ledger file the ledger creates: read and written by its owner only, as a
#: backup is (it holds members' birth years and the audit log). SQLite gives its -wal, -shm and
#: -journal files the mode of the database file.
PRIVATE_FILE_MODE = 0o600


def create_private(path: Path) -> None:
    """Create the empty file ``path`` readable and writable by its owner only
    (``PRIVATE_FILE_MODE``, whatever the umask), for SQLite to make a new database of (an empty
    file is an empty database). A file that appeared meanwhile is left as it is. Raises
    ``OSError`` when the file cannot be created."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE_MODE)
    except FileExistsError:
        return
    os.fchmod(fd, PRIVATE_FILE_MODE)
    os.close(fd)


def _install_sqlite_hooks(engine: Engine, path: Path) -> None:
    @event.listens_for(engine, "do_connect")
    def _on_do_connect(_dialect: Any, _record: Any, cargs: list[Any], cparams: dict[str, Any]) -> None:
        if not path.exists():
            create_private(path)
        elif read_only_reason(path) is not None:
            cargs[:] = [read_only_uri(path)]
            cparams["uri"] = True

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not pysqlite, emit BEGIN (SQLAlchemy docs: pysqlite "Serializable
        # isolation / Savepoints / Transactional DDL").
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={round(BUSY_TIMEOUT_SECONDS * 1000)}")
        cursor.execute(f"PRAGMA cache_size=-{SQLITE_CACHE_KIB}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        write = conn.get_execution_options().get("ledger_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def use_wal(engine: Engine) -> None:
    """Switch a SQLite ledger to write-ahead logging (readers never wait for a writer); one
    that cannot be written (``read_only_reason``) is left as it is."""
    path = sqlite_path(engine.url)
    if path is not None and read_only_reason(path) is None:
        raw = engine.raw_connection()  # outside any transaction, as the pragma requires
        try:
            cursor = raw.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.close()
        finally:
            raw.close()
