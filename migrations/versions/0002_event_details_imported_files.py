"""event details from tournament files; imported files by content hash

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 03:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0002'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('imported_files',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('sha256', sa.String(length=64), nullable=False),
    sa.Column('file_name', sa.String(length=500), nullable=False),
    sa.Column('format', sa.String(length=20), nullable=False),
    sa.Column('imported_at', sa.DateTime(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('players', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_imported_files')),
    sa.UniqueConstraint('sha256', name=op.f('uq_imported_files_sha256'))
    )
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.add_column(sa.Column('city', sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column('federation', sa.String(length=100), nullable=True))
        batch_op.add_column(sa.Column('arbiter', sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column('time_control', sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column('rounds', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_column('rounds')
        batch_op.drop_column('time_control')
        batch_op.drop_column('arbiter')
        batch_op.drop_column('federation')
        batch_op.drop_column('city')
    op.drop_table('imported_files')
