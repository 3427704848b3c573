"""Alembic driven from code: find the migrations, upgrade a ledger, tell whether it is current.

The migrations live in ``migrations/`` at the repository root; the wheel carries them inside the
package as ``ledger/migrations`` (hatchling force-include), so ``ledger init`` works installed too.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, inspect

from ledger.db.engine import ledger_name, lock_for_writing, require_writable
from ledger.errors import LedgerError, NeedsInit

_PACKAGE_DIR = Path(__file__).resolve().parent.parent

#: Tables every ledger has had since revision 0001: a database with a revision this
#: installation does not know is a newer ledger only if it holds them all.
LEDGER_TABLES = frozenset({"events", "games", "periods", "players"})


def migrations_dir() -> Path:
    """The Alembic script directory: inside the installed package, else the source checkout's."""
    for candidate in (_PACKAGE_DIR / "migrations", _PACKAGE_DIR.parent / "migrations"):
        if (candidate / "env.py").exists():
            return candidate
    raise FileNotFoundError("the ledger's Alembic migrations are missing from this installation")


def alembic_config(connection: Connection | None = None,
                   actor: tuple[str, str] | None = None) -> Config:
    """An Alembic ``Config`` for the ledger; ``connection`` is handed to env.py when given, and
    ``actor`` (who runs the upgrade, and the command) to revisions that record a change."""
    config = Config()
    config.set_main_option("script_location", str(migrations_dir()))
    if connection is not None:
        config.attributes["connection"] = connection
    if actor is not None:
        config.attributes["actor"] = actor
    return config


def head_revision() -> str | None:
    """The latest revision id in the migrations."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at, or None for an empty database."""
    with engine.connect() as conn:
        return revision_of(conn)


def revision_of(conn: Connection) -> str | None:
    """The revision the database of ``conn`` is at (None: empty), read in its transaction."""
    return MigrationContext.configure(conn).get_current_revision()


def upgrade_in(conn: Connection, revision: str = "head",
               actor: tuple[str, str] | None = None) -> None:
    """Run the migrations up to ``revision`` on ``conn``, inside the transaction the caller
    holds (``migration_transaction``), which commits or rolls them back with the rest;
    ``actor`` as for ``upgrade``."""
    command.upgrade(alembic_config(conn, actor), revision)


def known_revisions() -> set[str]:
    """Every revision id in this installation's migrations."""
    return {r.revision for r in ScriptDirectory.from_config(alembic_config()).walk_revisions()}


def _refuse_unknown(engine: Engine, current: str | None) -> None:
    """Raise ``LedgerError`` for a database that is not a ledger (tables of its own and no
    revision of the ledger's, or another program's Alembic revision), naming the file, or for
    one made by a newer ledger (an unknown revision and the ledger's tables)."""
    if current is not None and current in known_revisions():
        return
    with engine.connect() as conn:
        tables = sorted(inspect(conn).get_table_names())
    if current is not None and LEDGER_TABLES <= set(tables):
        raise LedgerError(f"the database was made by a newer version of ledger (schema revision "
                          f"{current}); install that version to use it")
    if current is not None or tables:
        listed = ", ".join(tables[:5]) + (" ..." if len(tables) > 5 else "")
        raise LedgerError(f"{ledger_name(engine.url)} is not a ledger database: it holds tables "
                          f"of another program ({listed}); give ledger a file of its own")


def upgrade(engine: Engine, revision: str = "head", *, actor: tuple[str, str] | None = None,
            then: Callable[[Connection], object] | None = None) -> tuple[str | None, str | None]:
    """Upgrade the database to ``revision`` in one transaction; return (before, after) revisions.
    ``actor``: (by, command) of whoever upgrades, for the changes a revision records;
    ``then(conn)`` runs in the same transaction after the last revision, on its connection (the
    steps an upgrade needs that only the live code can do: ``ledger init`` writes the list
    snapshots of periods closed before revision 0006), so both happen or neither.

    Raises ``LedgerError`` for a database of another program (tables, no ledger revision) or of a
    newer ledger; neither is touched. A ledger already at the head revision is left as it is
    (read-only or not); one to upgrade that cannot be written raises ``ReadOnlyLedger``.
    """
    before = current_revision(engine)
    _refuse_unknown(engine, before)
    if revision == "head" and before == head_revision():
        return before, before
    require_writable(engine)
    with engine.connect() as conn, migration_transaction(conn):
        # read again under the write lock: another `ledger init` may have upgraded it meanwhile
        before = revision_of(conn)
        upgrade_in(conn, revision, actor)
        if then is not None:
            then(conn)
    return before, current_revision(engine)


@contextlib.contextmanager
def migration_transaction(conn: Connection) -> Iterator[None]:
    """The one transaction a migration runs in, on ``conn`` (not begun yet): committed when the
    block ends, rolled back on any error.

    SQLite alters a table by building a new one and dropping the old (Alembic's batch mode),
    which fails while foreign keys are on and rows point at the old one. As SQLite's
    documentation says for such changes ("Making Other Kinds Of Table Schema Changes"), foreign
    keys are off for the transaction (the pragma does nothing inside one, so it goes to the
    driver's connection first) and on again after, and ``PRAGMA foreign_key_check`` runs before
    the commit: a row left pointing at nothing raises ``LedgerError`` and nothing is changed.
    Elsewhere (PostgreSQL) the transaction takes the ledger's write lock first
    (``engine.lock_for_writing``), so two upgrades, or an upgrade and a writer, take turns.
    """
    if conn.dialect.name != "sqlite":
        with conn.begin():
            lock_for_writing(conn)
            yield
        return
    raw = conn.connection.dbapi_connection
    assert raw is not None
    raw.execute("PRAGMA foreign_keys=OFF")
    try:
        with conn.begin():
            yield
            broken = conn.exec_driver_sql("PRAGMA foreign_key_check").all()
            if broken:
                listed = "; ".join(f"{table} row {rowid} -> {parent}"
                                   for table, rowid, parent, _ in broken[:5])
                raise LedgerError(f"the upgrade would leave rows pointing at nothing ({listed}); "
                                  "nothing was changed")
    finally:
        raw.execute("PRAGMA foreign_keys=ON")


def require_current(engine: Engine) -> None:
    """Raise ``NeedsInit`` unless the database is at the latest revision (``LedgerError`` when a
    newer ledger or another program made it)."""
    current, head = current_revision(engine), head_revision()
    _refuse_unknown(engine, current)
    if current != head:
        state = "is not a ledger yet" if current is None else f"is at revision {current}, not {head}"
        raise NeedsInit(f"the database {state}: run `ledger init` to create or upgrade it")
