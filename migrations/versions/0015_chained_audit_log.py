"""chained audit log: changes.hash and prev_hash, period_revisions.digest

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-02 23:00:00

Issue 24. ``changes`` gets ``hash`` and ``prev_hash`` (64 hex digits): each entry's SHA-256
over its content, the fact rows it wrote and the hash of the entry before it;
``period_revisions`` gets ``digest``, the SHA-256 of the list it published (docs/VERIFY.md).
The fact tables get an index on the change that wrote their rows (``games``, ``players``,
``player_entries``: ``change_id``; ``game_revisions``, ``player_revisions``:
``valid_from_change``; ``period_revisions``: ``change_id``), which the writers read at each
commit and ``db check`` for each entry.

The upgrade of a ledger that has entries takes the digest of every stored list, records one
change (``audit.chain``:
"audit log chained: N entries", N the entries there were) and chains every entry in id order,
itself last, with the live code (``ledger.services.core.chain``: Core on table stubs, no ORM
model), streaming a page of entries at a time. Downgrading drops the columns and indexes; the
``audit.chain`` entry stays in the log (history is not rewritten).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import context, op

from ledger.services.core.chain import chain_from

revision: str = '0015'
down_revision: str | None = '0014'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: (table, column) of each index the writers and ``db check`` read a change's rows by.
INDEXES = (("games", "change_id"), ("players", "change_id"), ("player_entries", "change_id"),
           ("game_revisions", "valid_from_change"), ("player_revisions", "valid_from_change"),
           ("period_revisions", "change_id"))

changes = sa.table("changes", sa.column("id", sa.Integer), sa.column("at", sa.DateTime),
                   sa.column("by", sa.String), sa.column("command", sa.Text),
                   sa.column("action", sa.String), sa.column("entity", sa.String),
                   sa.column("entity_id", sa.String), sa.column("after", sa.Text),
                   sa.column("reason", sa.Text))

REASON = ("every entry now carries the SHA-256 of its content, of the facts it wrote and of "
          "the entry before it, and every published list its digest (revision 0015)")


def _actor() -> tuple[str, str]:
    """(by, command) of whoever runs the upgrade: ``ledger init`` hands them over."""
    given = context.config.attributes.get("actor") if context.config is not None else None
    if given:
        return str(given[0]), str(given[1])
    return "alembic", "alembic upgrade"


def upgrade() -> None:
    with op.batch_alter_table('changes', schema=None) as batch_op:
        batch_op.add_column(sa.Column('hash', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('prev_hash', sa.String(length=64), nullable=True))
    with op.batch_alter_table('period_revisions', schema=None) as batch_op:
        batch_op.add_column(sa.Column('digest', sa.String(length=64), nullable=True))
    for table, column in INDEXES:
        op.create_index(f"ix_{table}_{column}", table, [column], unique=False)
    conn = op.get_bind()
    count = conn.execute(sa.select(sa.func.count()).select_from(changes)).scalar_one()
    if not count:  # a new ledger (or one that never recorded a change): nothing to chain
        return
    by, command = _actor()
    conn.execute(changes.insert().values(
        at=dt.datetime.now(dt.UTC).replace(tzinfo=None), by=by, command=command,
        action="audit.chain", entity="schema", entity_id="0015",
        after=json.dumps({"entries": count}),
        reason=f"audit log chained: {count} {'entry' if count == 1 else 'entries'}; "
               + REASON))
    chain_from(conn, 0)


def downgrade() -> None:
    for table, column in reversed(INDEXES):
        op.drop_index(f"ix_{table}_{column}", table_name=table)
    # ALTER TABLE ... DROP COLUMN (SQLite 3.35+, PostgreSQL) rather than a batch's new table,
    # which SQLite refuses while foreign keys are on and rows point at the old one
    for table, column in (("period_revisions", "digest"), ("changes", "prev_hash"),
                          ("changes", "hash")):
        op.execute(sa.text(f"ALTER TABLE {table} DROP COLUMN {column}"))
