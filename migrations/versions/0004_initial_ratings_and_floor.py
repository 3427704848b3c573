"""initial ratings, their pools and rating floor drops (derived by the close, written once)

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30 03:05:08.089396
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0004'
down_revision: str | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('initial_ratings',
    sa.Column('period', sa.String(length=7), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('method', sa.String(length=20), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('opponents_sum', sa.Integer(), nullable=False),
    sa.Column('score_halves', sa.Integer(), nullable=False),
    sa.Column('hypothetical', sa.Integer(), nullable=False),
    sa.Column('p_hundredths', sa.Integer(), nullable=False),
    sa.Column('dp', sa.Integer(), nullable=False),
    sa.Column('bonus', sa.Integer(), nullable=False),
    sa.Column('ru', sa.Integer(), nullable=False),
    sa.Column('cap', sa.Integer(), nullable=True),
    sa.Column('rating', sa.Integer(), nullable=False),
    sa.Column('floor', sa.Integer(), nullable=False),
    sa.Column('published', sa.Boolean(), nullable=False),
    sa.Column('disregarded', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['period'], ['periods.period'], name=op.f('fk_initial_ratings_period_periods')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_initial_ratings_player_id_players')),
    sa.PrimaryKeyConstraint('period', 'player_id', name=op.f('pk_initial_ratings'))
    )
    with op.batch_alter_table('initial_ratings', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_initial_ratings_player_id'), ['player_id'], unique=False)

    op.create_table('rating_floor_drops',
    sa.Column('period', sa.String(length=7), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('rating', sa.Integer(), nullable=False),
    sa.Column('floor', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['period'], ['periods.period'], name=op.f('fk_rating_floor_drops_period_periods')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_rating_floor_drops_player_id_players')),
    sa.PrimaryKeyConstraint('period', 'player_id', name=op.f('pk_rating_floor_drops'))
    )
    with op.batch_alter_table('rating_floor_drops', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_rating_floor_drops_player_id'), ['player_id'], unique=False)

    op.create_table('initial_rating_games',
    sa.Column('period', sa.String(length=7), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('opponent_id', sa.Integer(), nullable=False),
    sa.Column('opponent_rating', sa.Integer(), nullable=False),
    sa.Column('score_halves', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_initial_rating_games_game_id_games')),
    sa.ForeignKeyConstraint(['opponent_id'], ['players.id'], name=op.f('fk_initial_rating_games_opponent_id_players')),
    sa.ForeignKeyConstraint(['period'], ['periods.period'], name=op.f('fk_initial_rating_games_period_periods')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_initial_rating_games_player_id_players')),
    sa.PrimaryKeyConstraint('period', 'player_id', 'game_id', name=op.f('pk_initial_rating_games'))
    )
    with op.batch_alter_table('initial_rating_games', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_initial_rating_games_game_id'), ['game_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('initial_rating_games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_initial_rating_games_game_id'))

    op.drop_table('initial_rating_games')
    with op.batch_alter_table('rating_floor_drops', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_rating_floor_drops_player_id'))

    op.drop_table('rating_floor_drops')
    with op.batch_alter_table('initial_ratings', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_initial_ratings_player_id'))

    op.drop_table('initial_ratings')
