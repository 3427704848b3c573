"""Engines for the ledger's database: SQLite by default, any SQLAlchemy URL (PostgreSQL) otherwise.

SQLite gets foreign keys, WAL, a busy timeout and the two pysqlite hooks from SQLAlchemy's docs
("Serializable isolation / Savepoints / Transactional DDL") so that transactions, savepoints and
migrations are really transactional on Python 3.11.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url

from ledger.errors import LedgerError, NeedsInit


def database_url(db: str) -> str:
    """A SQLAlchemy URL for ``db``: a URL is kept as is, anything else is a SQLite file path."""
    if "://" in db:
        return db
    return f"sqlite:///{Path(db).expanduser()}"


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL, or None for other databases and in-memory SQLite."""
    u = make_url(url)
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:":
        return None
    return Path(u.database)


def make_engine(db: str, *, must_exist: bool = False) -> Engine:
    """Create the engine for ``db`` (path or URL).

    With ``must_exist`` a SQLite file that does not exist raises ``NeedsInit`` instead of being
    created empty (every command but ``ledger init``).
    """
    url = database_url(db)
    path = sqlite_path(url)
    if path is not None and path.is_dir():
        raise LedgerError(f"--db: {path} is a directory, not a ledger file")
    if must_exist and path is not None and not path.exists():
        raise NeedsInit(f"no ledger at {path}: run `ledger init` to create it")
    if path is None or make_url(url).get_backend_name() != "sqlite":
        return create_engine(url)
    engine = create_engine(url, connect_args={"timeout": 30})
    _install_sqlite_hooks(engine)
    return engine


def _install_sqlite_hooks(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not pysqlite, emit BEGIN (SQLAlchemy docs, pysqlite "Serializable isolation").
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN")
