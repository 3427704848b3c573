"""initial schema: players, entries, events, games, periods, results, adjustments

Revision ID: 0001
Revises:
Create Date: 2026-11-30 02:06:35.610618
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0001'
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('site', sa.String(length=200), nullable=True),
    sa.Column('start_date', sa.Date(), nullable=False),
    sa.Column('end_date', sa.Date(), nullable=False),
    sa.Column('source', sa.String(length=500), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_events')),
    sa.UniqueConstraint('name', 'start_date', name=op.f('uq_events_name'))
    )
    op.create_table('periods',
    sa.Column('period', sa.String(length=7), nullable=False),
    sa.Column('edition', sa.String(length=7), nullable=False),
    sa.Column('closed_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('period', name=op.f('pk_periods'))
    )
    op.create_table('players',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('fide_id', sa.BigInteger(), nullable=True),
    sa.Column('birth_year', sa.Integer(), nullable=True),
    sa.Column('sex', sa.String(length=1), nullable=True),
    sa.Column('federation', sa.String(length=3), nullable=True),
    sa.Column('title', sa.String(length=4), nullable=True),
    sa.Column('registered_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_players')),
    sa.UniqueConstraint('fide_id', name=op.f('uq_players_fide_id'))
    )
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_players_name'), ['name'], unique=False)

    op.create_table('games',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=True),
    sa.Column('round', sa.String(length=20), nullable=True),
    sa.Column('date', sa.Date(), nullable=False),
    sa.Column('period', sa.String(length=7), nullable=False),
    sa.Column('white_id', sa.Integer(), nullable=False),
    sa.Column('black_id', sa.Integer(), nullable=False),
    sa.Column('result', sa.String(length=8), nullable=False),
    sa.Column('played', sa.Boolean(), nullable=False),
    sa.Column('source', sa.String(length=500), nullable=True),
    sa.Column('recorded_at', sa.DateTime(), nullable=False),
    sa.CheckConstraint('white_id <> black_id', name=op.f('ck_games_different_players')),
    sa.ForeignKeyConstraint(['black_id'], ['players.id'], name=op.f('fk_games_black_id_players')),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_games_event_id_events')),
    sa.ForeignKeyConstraint(['white_id'], ['players.id'], name=op.f('fk_games_white_id_players')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_games'))
    )
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_games_black_id'), ['black_id'], unique=False)
        batch_op.create_index('ix_games_event_round', ['event_id', 'round'], unique=False)
        batch_op.create_index('ix_games_period', ['period'], unique=False)
        batch_op.create_index(batch_op.f('ix_games_white_id'), ['white_id'], unique=False)

    op.create_table('period_results',
    sa.Column('period', sa.String(length=7), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('rating_before', sa.Integer(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('score_halves', sa.Integer(), nullable=False),
    sa.Column('expected_hundredths', sa.Integer(), nullable=False),
    sa.Column('k', sa.Integer(), nullable=False),
    sa.Column('k_before_cap', sa.Integer(), nullable=False),
    sa.Column('k_reason', sa.String(length=20), nullable=False),
    sa.Column('change_hundredths', sa.Integer(), nullable=False),
    sa.Column('change', sa.Integer(), nullable=False),
    sa.Column('rating_after', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['period'], ['periods.period'], name=op.f('fk_period_results_period_periods')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_period_results_player_id_players')),
    sa.PrimaryKeyConstraint('period', 'player_id', name=op.f('pk_period_results'))
    )
    with op.batch_alter_table('period_results', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_period_results_player_id'), ['player_id'], unique=False)

    op.create_table('player_entries',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('effective_from', sa.String(length=7), nullable=True),
    sa.Column('rating', sa.Integer(), nullable=True),
    sa.Column('prior_games', sa.Integer(), nullable=True),
    sa.Column('reached_2400', sa.Boolean(), nullable=False),
    sa.Column('reached_2300', sa.Boolean(), nullable=False),
    sa.Column('source', sa.String(length=200), nullable=False),
    sa.Column('recorded_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_player_entries_player_id_players')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_player_entries'))
    )
    with op.batch_alter_table('player_entries', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_player_entries_player_id'), ['player_id'], unique=False)

    op.create_table('period_games',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('period', sa.String(length=7), nullable=False),
    sa.Column('opponent_id', sa.Integer(), nullable=False),
    sa.Column('own_rating', sa.Integer(), nullable=False),
    sa.Column('opponent_rating', sa.Integer(), nullable=False),
    sa.Column('difference', sa.Integer(), nullable=False),
    sa.Column('counted_difference', sa.Integer(), nullable=False),
    sa.Column('expected_hundredths', sa.Integer(), nullable=False),
    sa.Column('score_halves', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_period_games_game_id_games')),
    sa.ForeignKeyConstraint(['opponent_id'], ['players.id'], name=op.f('fk_period_games_opponent_id_players')),
    sa.ForeignKeyConstraint(['period'], ['periods.period'], name=op.f('fk_period_games_period_periods')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_period_games_player_id_players')),
    sa.PrimaryKeyConstraint('game_id', 'player_id', name=op.f('pk_period_games'))
    )
    with op.batch_alter_table('period_games', schema=None) as batch_op:
        batch_op.create_index('ix_period_games_period_player', ['period', 'player_id'], unique=False)

    op.create_table('rating_adjustments',
    sa.Column('period', sa.String(length=7), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('rating_before', sa.Integer(), nullable=False),
    sa.Column('adjustment', sa.Integer(), nullable=False),
    sa.Column('rating_after', sa.Integer(), nullable=False),
    sa.Column('rule', sa.String(length=100), nullable=False),
    sa.ForeignKeyConstraint(['period'], ['periods.period'], name=op.f('fk_rating_adjustments_period_periods')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_rating_adjustments_player_id_players')),
    sa.PrimaryKeyConstraint('period', 'player_id', name=op.f('pk_rating_adjustments'))
    )
    with op.batch_alter_table('rating_adjustments', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_rating_adjustments_player_id'), ['player_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('rating_adjustments', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_rating_adjustments_player_id'))

    op.drop_table('rating_adjustments')
    with op.batch_alter_table('period_games', schema=None) as batch_op:
        batch_op.drop_index('ix_period_games_period_player')

    op.drop_table('period_games')
    with op.batch_alter_table('player_entries', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_player_entries_player_id'))

    op.drop_table('player_entries')
    with op.batch_alter_table('period_results', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_period_results_player_id'))

    op.drop_table('period_results')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_games_white_id'))
        batch_op.drop_index('ix_games_period')
        batch_op.drop_index('ix_games_event_round')
        batch_op.drop_index(batch_op.f('ix_games_black_id'))

    op.drop_table('games')
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_players_name'))

    op.drop_table('players')
    op.drop_table('periods')
    op.drop_table('events')
