"""natural keys: one identity per player name (players.namesake), one game per event, round and
players (games.round_key)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-08 09:00:00

The database itself refuses what must never exist twice, behind the write lock every writer
takes (SQLite's BEGIN IMMEDIATE, PostgreSQL's advisory lock):

- ``players``: unique (``name_key``, ``namesake``). Players who already share a key are another
  person of the same name on purpose (``player add --new``, a FIDE list's namesakes with their
  own FIDE ids, an import telling them apart by birth year): they are numbered 0, 1, 2 ... in
  the order they were registered (by id), so this upgrade never refuses a ledger for them.
- ``games``: unique (``event_id``, ``round_key``, ``white_id``, ``black_id``) among valid games (a
  partial unique index: a voided game may be entered again), ``round_key`` being the round as
  its label reads (``1``, ``01`` and ``1.1`` are round 1), computed here by a frozen copy of
  ``ledger.domain.round_key`` (``round_of`` as stored) as it stands at this revision
  (``tests/migrations`` checks that the copy and the live function agree; a later change of the
  rule needs a revision of its own). Valid games already recorded twice under that key (two
  imports of one file that raced before the write lock existed) cannot both stay: the upgrade
  stops before changing anything and names each pair (ids, event, round, players, results), so
  that one of each can be marked void (the index leaves voided games alone).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from ledger.errors import LedgerError

revision: str = '0007'
down_revision: str | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ROUND_KEY_LENGTH = 40
_BATCH = 10_000
#: At most this many clashes are named in the refusal (and how many more there are).
_SHOWN = 20

players = sa.table("players", sa.column("id", sa.Integer), sa.column("name", sa.String),
                   sa.column("name_key", sa.String), sa.column("namesake", sa.Integer))
events = sa.table("events", sa.column("id", sa.Integer), sa.column("name", sa.String))
games = sa.table("games", sa.column("id", sa.Integer), sa.column("event_id", sa.Integer),
                 sa.column("round", sa.String), sa.column("round_key", sa.String),
                 sa.column("white_id", sa.Integer), sa.column("black_id", sa.Integer),
                 sa.column("date", sa.Date), sa.column("result", sa.String),
                 sa.column("status", sa.String))

# --- frozen copy of ledger.domain.round_key at revision 0007 ------------------------------------
_ROUND_RE = re.compile(r"(?:(?:round|rnd|rd|r)\.?\s*)?0*([0-9]{1,9})(?:\.[0-9]+)*\.?",
                       re.IGNORECASE)


def round_key(label: str | None) -> str | None:
    if label is None:
        return None
    text = " ".join(label.split())
    if text in ("", "?", "-"):
        return None
    numbered = _ROUND_RE.fullmatch(text)
    return str(int(numbered.group(1))) if numbered else text.casefold()[:ROUND_KEY_LENGTH]
# -------------------------------------------------------------------------------------------------


def _number_namesakes(conn: sa.Connection) -> None:
    """Give the players who share a name key the numbers 0, 1, 2 ... by id (the column's
    default, 0, is already right for everyone else)."""
    shared = (sa.select(players.c.name_key).group_by(players.c.name_key)
              .having(sa.func.count() > 1).scalar_subquery())
    rows = conn.execute(sa.select(players.c.id, players.c.name_key)
                        .where(players.c.name_key.in_(shared))
                        .order_by(players.c.name_key, players.c.id)).all()
    numbers: list[dict[str, int]] = []
    seen: dict[str, int] = {}
    for player_id, key in rows:
        seen[key] = seen.get(key, -1) + 1
        if seen[key]:
            numbers.append({"row_id": player_id, "number": seen[key]})
    update = (players.update().where(players.c.id == sa.bindparam("row_id"))
              .values(namesake=sa.bindparam("number")))
    for start in range(0, len(numbers), _BATCH):
        conn.execute(update, numbers[start:start + _BATCH])


def _fill_round_keys(conn: sa.Connection) -> None:
    """Set ``round_key`` of every game with a round, ``_BATCH`` games at a time."""
    update = (games.update().where(games.c.id == sa.bindparam("row_id"))
              .values(round_key=sa.bindparam("key")))
    last = None
    while True:
        query = (sa.select(games.c.id, games.c.round).where(games.c.round.is_not(None))
                 .order_by(games.c.id).limit(_BATCH))
        rows = conn.execute(query if last is None else query.where(games.c.id > last)).all()
        if not rows:
            return
        conn.execute(update, [{"row_id": row_id, "key": round_key(label)} for row_id, label in rows])
        last = rows[-1][0]


def _refuse_games_recorded_twice(conn: sa.Connection) -> None:
    """Raise ``LedgerError`` naming every set of games with one event, round key and players."""
    key = (games.c.event_id, games.c.round_key, games.c.white_id, games.c.black_id)
    valid = games.c.status == "valid"
    twice = (sa.select(*key).where(games.c.event_id.is_not(None), games.c.round_key.is_not(None),
                                   valid)
             .group_by(*key).having(sa.func.count() > 1).subquery())
    white, black = players.alias("white"), players.alias("black")
    rows = conn.execute(
        sa.select(games.c.id, games.c.event_id, events.c.name, games.c.round, games.c.round_key,
                  white.c.name, black.c.name, games.c.date, games.c.result)
        .join(twice, sa.and_(*(column == twice.c[column.name] for column in key)))
        .join(events, events.c.id == games.c.event_id)
        .join(white, white.c.id == games.c.white_id).join(black, black.c.id == games.c.black_id)
        .where(valid)
        .order_by(games.c.event_id, games.c.round_key, games.c.white_id, games.c.black_id,
                  games.c.id)).all()
    if not rows:
        return
    groups: dict[tuple[object, ...], list[sa.Row[tuple[object, ...]]]] = {}
    for row in rows:
        groups.setdefault((row[1], row[4], row[5], row[6]), []).append(row)
    listed = "; ".join(
        f"event #{same[0][1]} {same[0][2]!r}: "
        + " and ".join(f"game {r[0]} (round {r[3]}, {r[5]} v {r[6]}, {r[8]}, {r[7]})" for r in same)
        for same in list(groups.values())[:_SHOWN])
    more = f" ... and {len(groups) - _SHOWN} more" if len(groups) > _SHOWN else ""
    raise LedgerError(
        "cannot upgrade the ledger to revision 0007: a game of an event's round between two "
        "players is recorded once, and these are recorded more than once (rounds compared as "
        f"they read: 1, 01 and 1.1 are round 1): {listed}{more}. Nothing was changed; mark the "
        "extra copy of each void (UPDATE games SET status = 'void' WHERE id = ...), run `ledger "
        "init` again, then re-rate any closed period it is in (`ledger period rerate --from "
        "YYYY-MM`)")


def upgrade() -> None:
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('namesake', sa.Integer(), server_default='0',
                                      nullable=False))
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('round_key', sa.String(length=ROUND_KEY_LENGTH),
                                      nullable=True))
    conn = op.get_bind()
    _number_namesakes(conn)
    _fill_round_keys(conn)
    _refuse_games_recorded_twice(conn)
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_players_name_key'))
        batch_op.create_unique_constraint(batch_op.f('uq_players_name_key'),
                                          ['name_key', 'namesake'])
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_games_event_round'))
        batch_op.create_index('uq_games_natural_key',
                              ['event_id', 'round_key', 'white_id', 'black_id'], unique=True,
                              sqlite_where=sa.text("status = 'valid'"),
                              postgresql_where=sa.text("status = 'valid'"))


def downgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index('uq_games_natural_key')
        batch_op.create_index(batch_op.f('ix_games_event_round'), ['event_id', 'round'],
                              unique=False)
        batch_op.drop_column('round_key')
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_players_name_key'), type_='unique')
        batch_op.create_index(batch_op.f('ix_players_name_key'), ['name_key'], unique=False)
        batch_op.drop_column('namesake')
