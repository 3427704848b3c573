"""Alembic driven from code: find the migrations, upgrade a ledger, tell whether it is current.

The migrations live in ``migrations/`` at the repository root; the wheel carries them inside the
package as ``ledger/migrations`` (hatchling force-include), so ``ledger init`` works installed too.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine

from ledger.errors import NeedsInit

_PACKAGE_DIR = Path(__file__).resolve().parent.parent


def migrations_dir() -> Path:
    """The Alembic script directory: inside the installed package, else the source checkout's."""
    for candidate in (_PACKAGE_DIR / "migrations", _PACKAGE_DIR.parent / "migrations"):
        if (candidate / "env.py").exists():
            return candidate
    raise FileNotFoundError("the ledger's Alembic migrations are missing from this installation")


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic ``Config`` for the ledger; ``connection`` is handed to env.py when given."""
    config = Config()
    config.set_main_option("script_location", str(migrations_dir()))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str | None:
    """The latest revision id in the migrations."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at, or None for an empty database."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> tuple[str | None, str | None]:
    """Upgrade the database to ``revision`` in one transaction; return (before, after) revisions."""
    before = current_revision(engine)
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), revision)
    return before, current_revision(engine)


def require_current(engine: Engine) -> None:
    """Raise ``NeedsInit`` unless the database is at the latest revision."""
    current, head = current_revision(engine), head_revision()
    if current != head:
        state = "is not a ledger yet" if current is None else f"is at revision {current}, not {head}"
        raise NeedsInit(f"the database {state}: run `ledger init` to create or upgrade it")
