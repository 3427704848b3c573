"""packed per-game audit: period_games -> period_audits, one row per player and revision

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01 19:00:00

Issue 14. ``period_games`` held one row per rated game side (11 columns, a 4-column primary
key, an index on ``game_id``, four foreign keys): at federation size most of a close's time.
``period_audits`` holds one row per (period, revision, player): ``sides``, the player's game
sides of that revision packed as little-endian int32 values, eight a side, in the order the
close rated them (the games by date then id): game id, opponent id, own rating, opponent's
rating, D, counted D, PD in hundredths, score in halves (``ledger.db.audit_pack``; the packing
is frozen here, as a revision never imports the live code). Its key and foreign keys are the
other derived tables' (players; period_revisions).

Existing data: every ``period_games`` row of every revision is packed into its player's row
(upgrade) and unpacked back (downgrade), on SQLite and PostgreSQL; nothing else changes.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator, Sequence
from itertools import groupby
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = '0010'
down_revision: str | None = '0009'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: The values of a side, in their packed order (``ledger.db.audit_pack.FIELDS`` as of 0010).
FIELDS = ("game_id", "opponent_id", "own_rating", "opponent_rating", "difference",
          "counted_difference", "expected_hundredths", "score_halves")
_SIDE = struct.Struct("<8i")
#: Players' rows written at once.
BATCH = 5_000

period_games = sa.table(
    "period_games", sa.column("period", sa.String), sa.column("revision", sa.Integer),
    sa.column("player_id", sa.Integer), *(sa.column(f, sa.Integer) for f in FIELDS))
period_audits = sa.table(
    "period_audits", sa.column("period", sa.String), sa.column("revision", sa.Integer),
    sa.column("player_id", sa.Integer), sa.column("sides", sa.LargeBinary))
games = sa.table("games", sa.column("id", sa.Integer), sa.column("date", sa.Date))


def pack(sides: Sequence[Sequence[int]]) -> bytes:
    """The sides (eight ints each, in the order of ``FIELDS``) packed: ``<8i`` per side."""
    return b"".join(_SIDE.pack(*side) for side in sides)


def unpack(packed: bytes) -> list[tuple[int, ...]]:
    """The sides ``pack`` packed."""
    return [tuple(side) for side in _SIDE.iter_unpack(bytes(packed))]


def _batches(rows: Iterator[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    batch = []
    for row in rows:
        batch.append(row)
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _create_period_audits() -> None:
    op.create_table('period_audits',
    sa.Column('period', sa.String(length=7), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('sides', sa.LargeBinary(), nullable=False),
    sa.ForeignKeyConstraint(['period', 'revision'], ['period_revisions.period', 'period_revisions.revision'], name=op.f('fk_period_audits_period_period_revisions')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_period_audits_player_id_players')),
    sa.PrimaryKeyConstraint('period', 'revision', 'player_id', name=op.f('pk_period_audits'))
    )


def _create_period_games() -> None:
    """``period_games`` as revision 0009 has it."""
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
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_period_games_game_id_games')),
    sa.ForeignKeyConstraint(['opponent_id'], ['players.id'], name=op.f('fk_period_games_opponent_id_players')),
    sa.ForeignKeyConstraint(['period', 'revision'], ['period_revisions.period', 'period_revisions.revision'], name=op.f('fk_period_games_period_period_revisions')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_period_games_player_id_players')),
    sa.PrimaryKeyConstraint('period', 'revision', 'player_id', 'game_id', name=op.f('pk_period_games'))
    )
    with op.batch_alter_table('period_games', schema=None) as batch_op:
        batch_op.create_index('ix_period_games_game_id', ['game_id'], unique=False)


def upgrade() -> None:
    """Pack every ``period_games`` row into its (period, revision, player) row, the sides
    ordered as the close rated them (game date, then id), then drop ``period_games``."""
    _create_period_audits()
    conn = op.get_bind()
    stored = conn.execute(
        sa.select(period_games.c.period, period_games.c.revision, period_games.c.player_id,
                  *(period_games.c[f] for f in FIELDS))
        .select_from(period_games.outerjoin(games, games.c.id == period_games.c.game_id))
        .order_by(period_games.c.period, period_games.c.revision, period_games.c.player_id,
                  games.c.date, period_games.c.game_id))
    rows = ({"period": key[0], "revision": key[1], "player_id": key[2],
             "sides": pack([r[3:] for r in sides])}
            for key, sides in groupby(stored, key=lambda r: tuple(r[:3])))
    for batch in _batches(rows):
        conn.execute(period_audits.insert(), batch)
    with op.batch_alter_table('period_games', schema=None) as batch_op:
        batch_op.drop_index('ix_period_games_game_id')
    op.drop_table('period_games')


def downgrade() -> None:
    """Unpack every ``period_audits`` row back into ``period_games`` rows (one per side),
    then drop ``period_audits``."""
    _create_period_games()
    conn = op.get_bind()
    stored = conn.execute(sa.select(period_audits.c.period, period_audits.c.revision,
                                    period_audits.c.player_id, period_audits.c.sides)
                          .order_by(period_audits.c.period, period_audits.c.revision,
                                    period_audits.c.player_id))
    rows = ({"period": period, "revision": rev, "player_id": player,
             **dict(zip(FIELDS, side, strict=True))}
            for period, rev, player, packed in stored for side in unpack(packed))
    for batch in _batches(rows):
        conn.execute(period_games.insert(), batch)
    op.drop_table('period_audits')
