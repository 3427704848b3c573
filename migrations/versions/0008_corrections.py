"""corrections: carried corrections in a period's results, and the kind of a player's entry

Revision ID: 0008
Revises: 0006
Create Date: 2027-01-04 09:00:00

docs/CORRECTIONS.md §5-§8 (issue 10 part B). ``period_results.carried_hundredths``: the carried
corrections a close added to a player's exact change before the one rounding (0 for every row
already there: no correction was ever carried before this revision). ``player_entries.kind``:
``rating`` (a rating the player brings: every row already there), ``history`` (``player edit
--prior-games`` / ``--reached-2400``: the K history from a period on, never the rating) or
``correction`` (``player correct-rating``: an official correction of a published rating).

It follows 0007 (the natural keys); neither touches the other's columns.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0008'
down_revision: str | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('period_results', schema=None) as batch_op:
        batch_op.add_column(sa.Column('carried_hundredths', sa.Integer(), server_default='0',
                                      nullable=False))
    with op.batch_alter_table('player_entries', schema=None) as batch_op:
        batch_op.add_column(sa.Column('kind', sa.String(length=10), server_default='rating',
                                      nullable=False))
        batch_op.create_check_constraint('kind', "kind IN ('rating', 'history', 'correction')")


def downgrade() -> None:
    """Back to 0006: a carried correction stays in ``change_hundredths`` (the exact change the
    close used) and loses its share; ``history`` and ``correction`` entries become ``rating``
    entries (a ``history`` entry then brings the rating it recorded)."""
    with op.batch_alter_table('player_entries', schema=None) as batch_op:
        batch_op.drop_constraint('kind', type_='check')
        batch_op.drop_column('kind')
    with op.batch_alter_table('period_results', schema=None) as batch_op:
        batch_op.drop_column('carried_hundredths')
