"""FIDE rating lists: list_ratings table; woman, other and FOA title columns on players

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 03:20:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0003'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('list_ratings',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('list_date', sa.Date(), nullable=False),
    sa.Column('pool', sa.String(length=8), nullable=False),
    sa.Column('rating', sa.Integer(), nullable=True),
    sa.Column('games', sa.Integer(), nullable=True),
    sa.Column('k', sa.Integer(), nullable=True),
    sa.Column('flag', sa.String(length=4), nullable=True),
    sa.Column('source', sa.String(length=500), nullable=False),
    sa.Column('recorded_at', sa.DateTime(), nullable=False),
    sa.CheckConstraint("pool IN ('standard', 'rapid', 'blitz')", name=op.f('ck_list_ratings_pool')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_list_ratings_player_id_players')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_list_ratings')),
    sa.UniqueConstraint('player_id', 'list_date', 'pool', name=op.f('uq_list_ratings_player_id'))
    )
    with op.batch_alter_table('list_ratings', schema=None) as batch_op:
        batch_op.create_index('ix_list_ratings_list_date_pool', ['list_date', 'pool'], unique=False)

    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('w_title', sa.String(length=4), nullable=True))
        batch_op.add_column(sa.Column('o_title', sa.String(length=30), nullable=True))
        batch_op.add_column(sa.Column('foa_title', sa.String(length=4), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_column('foa_title')
        batch_op.drop_column('o_title')
        batch_op.drop_column('w_title')

    with op.batch_alter_table('list_ratings', schema=None) as batch_op:
        batch_op.drop_index('ix_list_ratings_list_date_pool')

    op.drop_table('list_ratings')
