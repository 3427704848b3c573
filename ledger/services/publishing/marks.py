"""The ledger's version as its published pages see it: the latest change a page may show
(``latest_change``), which the live site keys its caches with and a site build records
(``change_mark``, with the change's chain hash).
"""

from __future__ import annotations

from sqlalchemy import Connection, Engine, func, or_, select
from sqlalchemy.orm import Session

from ledger.db.models.changes import Change
from ledger.services.core.session import Ledger, one_statement, transaction

#: Audit actions that change nothing a page shows: logins, accounts, and submissions not
#: accepted (an accepted one records its games under an import's change, which counts).
UNSHOWN_ACTIONS = ("user.", "submission.submit", "submission.resubmit", "submission.withdraw",
                   "submission.reject")
#: How many of the latest changes ``latest_change`` reads before asking the database for the
#: latest shown one (a burst of logins longer than this costs one scan of the log).
RECENT = 64


def _shown(action: str) -> bool:
    return not action.startswith(UNSHOWN_ACTIONS)


def latest_change(engine: Ledger) -> int:
    """The id of the ledger's latest change a page may show (0: none yet). Every write the
    ledger records (the CLI's, the web's) has a change, written in its own transaction, so this
    number moves whenever anything a page shows may have; logins, account changes and
    submissions not accepted (``UNSHOWN_ACTIONS``) do not move it, so a busy login page does not
    make the live site gather everything again. One read of the latest ``RECENT`` changes (the
    primary key, backwards); a longer run of unshown ones, one scan.

    The live site asks this on every request, so on PostgreSQL the read is one statement on a
    connection in autocommit (``session.one_statement``: one round trip to the server). Raises
    ``LedgerError`` for a database error (``errors.database_error``)."""
    if isinstance(engine, Engine):
        with one_statement(engine) as conn:
            if conn is not None:
                return _latest(conn)
    with transaction(engine, write=False) as session:
        return _latest(session)


def change_mark(engine: Ledger) -> tuple[int, str | None]:
    """``latest_change`` and that change's chain hash (``services.core.chain``; None for no
    change, or one written before the chain), read in one transaction: what a site build
    records (``site_record.Stamp``), since two ledgers may stand at the same id but not with
    the same hash. Raises ``LedgerError`` for a database error."""
    with transaction(engine, write=False) as session:
        change_id = _latest(session)
        found = session.scalar(select(Change.hash).where(Change.id == change_id)) \
            if change_id else None
    return change_id, found


def _latest(conn: Connection | Session) -> int:
    recent = conn.execute(select(Change.id, Change.action)
                          .order_by(Change.id.desc()).limit(RECENT)).all()
    for change_id, action in recent:
        if _shown(action):
            return int(change_id)
    if len(recent) < RECENT:
        return 0
    unshown = [Change.action.startswith(prefix) for prefix in UNSHOWN_ACTIONS]
    return conn.scalar(select(func.max(Change.id)).where(~or_(*unshown))) or 0


