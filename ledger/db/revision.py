"""The schema revision check every command makes, without Alembic (cheap at start-up).

``HEAD_REVISION`` is the latest revision of ``migrations/versions`` (a test checks it against
Alembic's head: ``tests/migrations``); the database's revision is the one row of Alembic's
``alembic_version`` table, read with one query. Only a database that is not at the head (to
create, upgrade or refuse) needs ``ledger.db.migrate`` and so Alembic. A current ledger is then
asked, with a second query, whether it is a copy not verified yet (``unverified_copies``): such
a ledger is refused (``UnverifiedLedger``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Engine, inspect, text

from ledger.db.engine import ledger_name
from ledger.errors import LedgerError, NeedsInit

#: The latest Alembic revision id of the ledger's migrations (keep in step with a new revision).
HEAD_REVISION = "0015"


def revision_of(conn: Connection) -> str | None:
    """The revision the database of ``conn`` is at (None: no ``alembic_version`` table or no
    row), as Alembic's ``MigrationContext.get_current_revision`` reads it for one head."""
    if not inspect(conn).has_table("alembic_version"):
        return None
    rows = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    return rows[0] if len(rows) == 1 else None if not rows else ",".join(sorted(rows))


class UnverifiedLedger(LedgerError):
    """The ledger is a copy that ``ledger db copy`` has not verified yet (exit 1)."""


def unverified(name: str, source: str, copied_at: Any) -> UnverifiedLedger:
    """The refusal of the ledger ``name``, an unverified copy of ``source`` committed at
    ``copied_at`` (UTC; a datetime, or SQLite's text), saying how to finish it."""
    return UnverifiedLedger(
        f"{name} is an unverified copy of {source} (`ledger db copy` stopped before it had "
        f"verified the copy it committed at {str(copied_at)[:19]} UTC): finish it with "
        f"`ledger --db {source} db copy --to {name}`, which verifies it, or copies again over "
        "it when the ledger has changed since")


def require_current(engine: Engine) -> None:
    """Raise ``NeedsInit`` unless the database is at ``HEAD_REVISION``; a database at any other
    revision goes to ``migrate.require_current`` (Alembic: another program's database, a newer
    ledger, or one to upgrade, each with its own message). Raise ``UnverifiedLedger``
    (``unverified``) for a current ledger with an ``unverified_copies`` row."""
    with engine.connect() as conn:
        current = revision_of(conn)
        copy = conn.execute(text("SELECT source, copied_at FROM unverified_copies")).first() \
            if current == HEAD_REVISION else None
    if copy is not None:
        raise unverified(ledger_name(engine.url), copy.source, copy.copied_at)
    if current == HEAD_REVISION:
        return
    from ledger.db import migrate  # Alembic, only for a ledger that is not current
    migrate.require_current(engine)
    raise NeedsInit(f"the database is at revision {current}, not {HEAD_REVISION}: run "
                    "`ledger init` to create or upgrade it")
