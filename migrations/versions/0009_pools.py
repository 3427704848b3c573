"""pools: standard, rapid and blitz games, entries, events and closes

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 12:00:00

docs/RULES.md §9 (issue 12). A game, an event and a player's entry belong to one rating pool
(``pool``: ``standard``, ``rapid`` or ``blitz``); every row already there is standard (the
server default), as the ledger rated only standard games before. ``games.unequal_times``: the
two players had different times (recorded, not rated; false for every row already there).
A period is closed per pool: ``periods`` is keyed by (period, pool), and each
``period_revisions`` row says which pool it rated. Revision numbers stay per period (shared by
the pools), so (period, revision) still names one computation and no derived table changes.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0009'
down_revision: str | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

POOL_CHECK = "pool IN ('standard', 'rapid', 'blitz')"


def _pool() -> sa.Column[str]:
    return sa.Column('pool', sa.String(length=8), server_default='standard', nullable=False)


def upgrade() -> None:
    for table in ('games', 'events', 'player_entries', 'period_revisions'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(_pool())
            batch_op.create_check_constraint('pool', POOL_CHECK)
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('unequal_times', sa.Boolean(), server_default=sa.false(),
                                      nullable=False))
    with op.batch_alter_table('game_revisions', schema=None) as batch_op:
        batch_op.add_column(_pool())
        batch_op.add_column(sa.Column('unequal_times', sa.Boolean(), server_default=sa.false(),
                                      nullable=False))
    with op.batch_alter_table('periods', schema=None) as batch_op:
        batch_op.add_column(_pool())
        batch_op.drop_constraint('pk_periods', type_='primary')
        batch_op.create_primary_key('pk_periods', ['period', 'pool'])
        batch_op.create_check_constraint('pool', POOL_CHECK)


def downgrade() -> None:
    """Back to 0008, which knows one pool only: the rapid and blitz closes lose their pointers
    (their revisions stay, as a reopened period's do), and their games and entries lose the
    pool column, so 0008 reads them as standard. Downgrade only a ledger without rapid or
    blitz games (or move them out first)."""
    op.execute("DELETE FROM periods WHERE pool <> 'standard'")
    with op.batch_alter_table('periods', schema=None) as batch_op:
        batch_op.drop_constraint('pool', type_='check')
        batch_op.drop_constraint('pk_periods', type_='primary')
        batch_op.create_primary_key('pk_periods', ['period'])
        batch_op.drop_column('pool')
    with op.batch_alter_table('game_revisions', schema=None) as batch_op:
        batch_op.drop_column('unequal_times')
        batch_op.drop_column('pool')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('unequal_times')
    for table in ('period_revisions', 'player_entries', 'events', 'games'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_constraint('pool', type_='check')
            batch_op.drop_column('pool')
