"""Creating a ledger and upgrading an older one to the latest revision (``ledger init``, ``ledger
db upgrade``)."""

from __future__ import annotations

from sqlalchemy.exc import SQLAlchemyError

from ledger.db.engine import ledger_name, make_engine, use_wal
from ledger.domain import Actor
from ledger.errors import database_error


def init_ledger(db: str, actor: Actor | None = None) -> tuple[str | None, str | None]:
    """Create the ledger at ``db`` or upgrade it to the latest revision; return (before, after).

    An upgrade past revision 0006 records the closed periods as revision 1 (one change by
    ``actor``; None: called from code, ``Actor.from_code``) and, in the same transaction, the
    snapshots of the lists they published (``snapshots.snapshot_upgraded_lists``: one more
    change, saying they use the players' details as they are at the upgrade).

    A current ledger is left as it is, even read-only. Raises ``LedgerError`` as
    ``make_engine`` and ``migrate.upgrade`` do (``ReadOnlyLedger`` for one to create or upgrade
    that cannot be written) and for a database error (``errors.database_error``).
    """
    from ledger.db import migrate  # Alembic: only ``ledger init`` and the ``db`` commands
    from ledger.services.close.snapshots import snapshot_upgraded_lists  # only for an upgrade
    who = actor or Actor.from_code("init_ledger")
    engine = make_engine(db)
    try:
        revisions = migrate.upgrade(engine, actor=(who.by, who.command),
                                    then=lambda conn: snapshot_upgraded_lists(conn, who))
        use_wal(engine)
        return revisions
    except SQLAlchemyError as exc:
        raise database_error(exc, ledger_name(engine.url)) from None
    finally:
        engine.dispose()
