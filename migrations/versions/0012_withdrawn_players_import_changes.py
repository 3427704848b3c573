"""withdrawn players, and the change that recorded each imported file

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-09 12:00:00

Issue 21 §3 (a wrong import taken back in one command). ``players.withdrawn``: a player
registered by mistake (``ledger player withdraw``, or an import taken back with ``ledger imports
revert``) is kept with the audit and leaves every list, search and page; ``player_revisions``
keeps it too, so the facts as of a change (``db check``) know who was withdrawn then. Every
player already there is not withdrawn (false).

``imported_files.change_id``: the ``import`` (or ``import.replace``) change that recorded the
file, and so its games, players and who imported it (``ledger imports``). A file imported since
revision 0006 is tied to its change here by the change's entity (``file``, its SHA-256); one
imported before it (no change) stays NULL: its games carry no change either.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0012'
down_revision: str | None = '0011'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    for table in ('players', 'player_revisions'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column('withdrawn', sa.Boolean(), server_default=sa.false(),
                                          nullable=False))
    with op.batch_alter_table('imported_files', schema=None) as batch_op:
        batch_op.add_column(sa.Column('change_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_imported_files_change_id_changes'),
                                    'changes', ['change_id'], ['id'])
    op.execute(
        "UPDATE imported_files SET change_id = (SELECT max(changes.id) FROM changes "
        "WHERE changes.entity = 'file' AND changes.entity_id = imported_files.sha256 "
        "AND changes.action IN ('import', 'import.replace'))")


def downgrade() -> None:
    """Back to 0011: the tie of a file to its change is dropped (the change stays in the log,
    naming the file by its SHA-256), and a withdrawn player is a player again (the
    ``player.withdraw`` change stays in the log)."""
    with op.batch_alter_table('imported_files', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_imported_files_change_id_changes'),
                                 type_='foreignkey')
        batch_op.drop_column('change_id')
    for table in ('player_revisions', 'players'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column('withdrawn')
