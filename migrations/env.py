"""Alembic environment for the ledger.

Accepts a Connection in ``config.attributes["connection"]`` (how ``ledger init`` and the tests
run it) or an Engine (pytest-alembic), else builds an engine from ``sqlalchemy.url`` (the
developer's ``alembic`` command line).
``render_as_batch`` lets SQLite alter tables. Revisions never import the ORM models.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, Engine

from ledger.db.engine import make_engine
from ledger.db.migrate import migration_transaction
from ledger.db.models import Base

config = context.config
target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connectable = config.attributes.get("connection")
    if isinstance(connectable, Connection):
        _run(connectable)
        return
    engine = connectable if isinstance(connectable, Engine) else make_engine(
        config.get_main_option("sqlalchemy.url") or "ledger.db")
    with engine.connect() as conn, migration_transaction(conn):
        _run(conn)


if context.is_offline_mode():
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=target_metadata,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    run_migrations_online()
