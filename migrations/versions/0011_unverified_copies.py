"""unverified copies: the one row that marks a ``db copy`` not verified yet

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-08 12:00:00

Issue 22 §2. ``ledger db copy`` commits the copy, then reads it back through the services; a
copy killed between the two was complete but unverified, and nothing said so. The copy now
writes one ``unverified_copies`` row (id 1: the source as messages name it, when it was copied)
in its transaction and deletes it when the verification passes; every command refuses a ledger
holding it, and ``db copy`` from the source finishes it. A ledger upgraded to 0011 holds none:
it is no copy in progress. Downgrading drops the table (and with it the mark of a copy in
progress: finish the copy first).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0011'
down_revision: str | None = '0010'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'unverified_copies',
        sa.Column('id', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('source', sa.Text(), nullable=False),
        sa.Column('copied_at', sa.DateTime(), nullable=False),
        sa.CheckConstraint('id = 1', name=op.f('ck_unverified_copies_one_row')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_unverified_copies')),
    )


def downgrade() -> None:
    op.drop_table('unverified_copies')
