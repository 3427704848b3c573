"""Opening a ledger and running one use case in one transaction."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from ledger.db import migrate
from ledger.db.engine import make_engine


def open_ledger(db: str) -> Engine:
    """The engine of an existing, current ledger at ``db`` (path or URL).

    Raises ``NeedsInit`` (exit 4) when the file is missing or the schema is behind the latest revision.
    """
    engine = make_engine(db, must_exist=True)
    migrate.require_current(engine)
    return engine


def init_ledger(db: str) -> tuple[str | None, str | None]:
    """Create the ledger at ``db`` or upgrade it to the latest revision; return (before, after)."""
    engine = make_engine(db)
    try:
        return migrate.upgrade(engine)
    finally:
        engine.dispose()


@contextmanager
def transaction(engine: Engine, *, dry_run: bool = False) -> Iterator[Session]:
    """One transaction: committed when the block ends, rolled back on any error or with ``dry_run``."""
    with Session(engine, expire_on_commit=False) as session, session.begin():
        yield session
        if dry_run:
            session.rollback()
