"""Opening a ledger and running one use case in one transaction, run again (a bounded number
of times) when the database gave it up for another transaction's sake."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from ledger.db import revision
from ledger.db.engine import autocommit_connection, ledger_name, make_engine, require_writable, sqlite_path
from ledger.db.snapshot import sqlite_snapshot
from ledger.errors import WriteConflict, database_error
from ledger.services.core.chain import seal

R = TypeVar("R")

#: What a read service runs on: an ``Engine`` (the service opens a transaction of its own) or the
#: ``Session`` of a caller's transaction (the service reads inside it, so that one use case
#: gathering from several services reads one snapshot; see ``transaction``).
Ledger = Engine | Session

#: How many times ``retrying`` runs a use case the database gave up (``WriteConflict``).
ATTEMPTS = 3
#: The pause before each new attempt: up to this many seconds times the attempts so far, drawn at
#: random (jitter), so that two processes that collided do not collide again in step.
RETRY_PAUSE_SECONDS = 0.2


def open_ledger(db: str) -> Engine:
    """The engine of an existing, current ledger at ``db`` (path or URL); a SQLite ledger that
    cannot be written is opened read-only (reads work, ``transaction`` refuses writes).

    Raises ``NeedsInit`` (exit 4) when the file is missing or the schema is behind the latest
    revision; ``LedgerError`` when ``db`` is not a ledger (another program's database, a file
    that is not SQLite) or cannot be opened (``errors.database_error``).
    """
    engine = make_engine(db, must_exist=True)
    try:
        revision.require_current(engine)
    except SQLAlchemyError as exc:
        engine.dispose()
        raise database_error(exc, ledger_name(engine.url)) from None
    except BaseException:
        engine.dispose()
        raise
    return engine


@contextmanager
def transaction(engine: Ledger, *, write: bool = True, dry_run: bool = False) -> Iterator[Session]:
    """One transaction: committed when the block ends, rolled back on any error, with
    ``dry_run``, or when it only reads (``write=False``) on SQLite; the changes it recorded are
    chained just before the commit (``chain.seal``). A read on PostgreSQL, READ ONLY, ends with
    a COMMIT, which commits nothing (the session's objects are let go first, so nothing is
    flushed): a ROLLBACK would make psycopg deallocate every statement it prepared on the
    connection (one more round trip, and each planned again at its next runs: issue 25, at M a
    history's p50 on PostgreSQL 1.2 -> 0.6 ms). A writing transaction takes the write
    lock when it begins (SQLite ``BEGIN IMMEDIATE``, PostgreSQL the ledger's advisory lock:
    ``db.engine.lock_for_writing``), so concurrent writers wait their turn; one that only reads
    sees one snapshot (SQLite's read transaction, PostgreSQL REPEATABLE READ READ ONLY), so a
    list or a history is never half before and half after a close.

    Given the ``Session`` of a caller's transaction instead of an engine, the block runs inside
    it: nothing is begun, committed or rolled back here (the caller's transaction decides).
    Only reads may join that way; ``RuntimeError`` for ``write`` (a programming error).

    Raises ``ReadOnlyLedger`` before anything is done when ``write`` (a dry run too) and the
    ledger cannot be written (``engine.require_writable``); a database error in the block is
    raised as the ledger's own ``LedgerError`` (``errors.database_error``: another process
    writing past the busy timeout is ``LedgerBusy``), the transaction rolled back.
    """
    if isinstance(engine, Session):
        if write:
            raise RuntimeError("a writing service runs in a transaction of its own")
        yield engine
        return
    if write:
        require_writable(engine)
    bind = engine.execution_options(ledger_write=True) if write else engine.execution_options(
        ledger_read=True)
    try:
        with Session(bind, expire_on_commit=False) as session, session.begin():
            yield session
            if not write and not dry_run and bind.dialect.name == "postgresql":
                session.expunge_all()  # nothing to flush: what the block changed is dropped
                session.commit()  # READ ONLY (db.engine): psycopg keeps what it prepared
            elif dry_run or not write:
                session.rollback()
            else:
                seal(session)
    except SQLAlchemyError as exc:
        raise database_error(exc, ledger_name(engine.url)) from None


@contextmanager
def one_statement(engine: Engine) -> Iterator[Connection | None]:
    """A connection for a read of one statement, on PostgreSQL in autocommit: one round trip to
    the server (no BEGIN, no ROLLBACK; one statement sees one snapshot of its own), and psycopg
    may prepare a statement run often (a ROLLBACK makes it forget those it prepared). None on
    SQLite, where a transaction costs no round trip: read in ``transaction``. A database error
    in the block is raised as the ledger's own ``LedgerError`` (``errors.database_error``)."""
    if engine.dialect.name != "postgresql":
        yield None
        return
    try:
        with autocommit_connection(engine) as conn:
            yield conn
    except SQLAlchemyError as exc:
        raise database_error(exc, ledger_name(engine.url)) from None


@contextmanager
def scratch(engine: Engine) -> Iterator[Session]:
    """A transaction to write in and throw away that holds no write lock: what a check of a
    submission's file runs in (dry runs of the import, each in a savepoint), so that other
    writers (logins, submissions, the CLI) do not wait for it. Always rolled back.

    On PostgreSQL a READ COMMITTED transaction on the ledger without the ledger's advisory
    lock: what it writes is never seen by another transaction, and the row locks a write takes
    are freed when its savepoint is rolled back; a writer that meanwhile writes the same rows
    (the same new player, event or file) waits for that savepoint, or one of the two is given
    up as a deadlock (``WriteConflict``: run it again).

    On SQLite, where writing a row takes the database's write lock even in a deferred
    transaction, a transaction on a private snapshot of the ledger (``db.snapshot``: a copy of
    what was committed when it began, deleted when the block ends).

    Another writer may commit while the block runs, so what it found may be out of date when
    the caller writes: it is for reading findings, never for deciding a write (the use case
    that writes checks again under the lock). Raises ``ReadOnlyLedger`` before anything is done
    when the ledger cannot be written (the caller is about to write); database errors as
    ``transaction``'s.
    """
    require_writable(engine)
    if sqlite_path(engine.url) is None:
        plain = engine.execution_options(isolation_level="READ COMMITTED")
        with _rolled_back(plain, engine) as session:
            yield session
        return
    with sqlite_snapshot(engine) as copy, _rolled_back(copy, engine) as session:
        yield session


@contextmanager
def _rolled_back(bind: Engine, ledger: Engine) -> Iterator[Session]:
    """A transaction on ``bind`` rolled back when the block ends; a database error raised as
    the ledger ``ledger``'s own ``LedgerError`` (``errors.database_error``)."""
    try:
        with Session(bind, expire_on_commit=False) as session, session.begin():
            yield session
            session.rollback()
    except SQLAlchemyError as exc:
        raise database_error(exc, ledger_name(ledger.url)) from None


def retrying(call: Callable[[], R], *, attempts: int = ATTEMPTS,
             pause: float | None = None) -> R:
    """``call()``, run again when the database gave it up because another transaction changed
    the same rows at the same moment (``WriteConflict``: a serialization failure or a deadlock),
    at most ``attempts`` times in all, after a pause of up to ``pause`` (None:
    ``RETRY_PAUSE_SECONDS``) x the attempts so far (random). Safe because a use case is one
    transaction: a given-up one wrote nothing.

    Raises the last ``WriteConflict`` (exit 1), saying how many times it was tried, when every
    attempt was given up; any other error at once.
    """
    for attempt in range(1, attempts + 1):
        try:
            return call()
        except WriteConflict as exc:
            if attempt == attempts:
                raise WriteConflict(f"{exc} (tried {attempts} times)") from None
            time.sleep(random.uniform(0, (RETRY_PAUSE_SECONDS if pause is None else pause)
                                      * attempt))
    raise AssertionError("unreachable")  # pragma: no cover
