"""revisions and the audit log: changes, fact revisions, period revisions, list snapshots

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-10 09:00:00

docs/CORRECTIONS.md. New tables: ``changes`` (the audit log and change sequence),
``game_revisions`` and ``player_revisions`` (earlier values of facts), ``period_revisions`` (one
row per close or re-rating), ``list_entries`` (the published lists as they stood) and
``carried_corrections``. ``games``, ``players``, ``events`` and ``player_entries`` get
``change_id`` (NULL for the rows already there: change 0); ``games.status`` (``valid``) and
``players.merged_into``. ``periods`` becomes the pointer to each closed period's current
revision, and every derived table gets ``revision`` in its key, with a foreign key to
``period_revisions``.

Existing data: each closed period becomes revision 1, computed by one ``changes`` row written
here ("upgrade to revision 0006: existing closed periods recorded as revision 1"; ``by`` and
``command`` are what ``ledger init`` hands over in ``config.attributes["actor"]``, else
``alembic``). The snapshots of those lists (``list_entries``) are not computed here: that takes
the live rating code, which a revision never imports; ``ledger init`` writes them right after the
upgrade, in the same transaction (``ledger.services.close.snapshots.snapshot_upgraded_lists``).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import context, op

revision: str = '0006'
down_revision: str | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

KEY_LENGTH = 400
REASON = "upgrade to revision 0006: existing closed periods recorded as revision 1"

#: Derived table -> its primary key after this revision (``revision`` second).
DERIVED = {
    "period_results": ["period", "revision", "player_id"],
    "period_games": ["period", "revision", "player_id", "game_id"],
    "rating_adjustments": ["period", "revision", "player_id"],
    "initial_ratings": ["period", "revision", "player_id"],
    "initial_rating_games": ["period", "revision", "player_id", "game_id"],
    "rating_floor_drops": ["period", "revision", "player_id"],
}
#: Their primary keys before it.
OLD_KEYS = {
    "period_results": ["period", "player_id"],
    "period_games": ["game_id", "player_id"],
    "rating_adjustments": ["period", "player_id"],
    "initial_ratings": ["period", "player_id"],
    "initial_rating_games": ["period", "player_id", "game_id"],
    "rating_floor_drops": ["period", "player_id"],
}

changes = sa.table("changes", sa.column("id", sa.Integer), sa.column("at", sa.DateTime),
                   sa.column("by", sa.String), sa.column("command", sa.Text),
                   sa.column("action", sa.String), sa.column("entity", sa.String),
                   sa.column("entity_id", sa.String), sa.column("after", sa.Text),
                   sa.column("reason", sa.Text))
periods = sa.table("periods", sa.column("period", sa.String), sa.column("edition", sa.String),
                   sa.column("closed_at", sa.DateTime), sa.column("revision", sa.Integer))
period_revisions = sa.table(
    "period_revisions", sa.column("period", sa.String), sa.column("revision", sa.Integer),
    sa.column("edition", sa.String), sa.column("change_id", sa.Integer),
    sa.column("reason", sa.Text), sa.column("closed_at", sa.DateTime),
    sa.column("superseded_by_change", sa.Integer))


def _actor() -> tuple[str, str]:
    """(by, command) of whoever runs the upgrade: ``ledger init`` hands them over."""
    given = context.config.attributes.get("actor") if context.config is not None else None
    if given:
        return str(given[0]), str(given[1])
    return "alembic", "alembic upgrade"


def _change_revision_tables() -> None:
    op.create_table('changes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.Column('by', sa.String(length=200), nullable=False),
    sa.Column('command', sa.Text(), nullable=False),
    sa.Column('action', sa.String(length=40), nullable=False),
    sa.Column('entity', sa.String(length=20), nullable=False),
    sa.Column('entity_id', sa.String(length=100), nullable=False),
    sa.Column('before', sa.Text(), nullable=True),
    sa.Column('after', sa.Text(), nullable=True),
    sa.Column('reason', sa.Text(), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_changes'))
    )
    with op.batch_alter_table('changes', schema=None) as batch_op:
        batch_op.create_index('ix_changes_entity', ['entity', 'entity_id'], unique=False)
    op.create_table('period_revisions',
    sa.Column('period', sa.String(length=7), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('edition', sa.String(length=7), nullable=False),
    sa.Column('change_id', sa.Integer(), nullable=False),
    sa.Column('reason', sa.Text(), nullable=True),
    sa.Column('closed_at', sa.DateTime(), nullable=False),
    sa.Column('superseded_by_change', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['change_id'], ['changes.id'], name=op.f('fk_period_revisions_change_id_changes')),
    sa.ForeignKeyConstraint(['superseded_by_change'], ['changes.id'], name=op.f('fk_period_revisions_superseded_by_change_changes')),
    sa.PrimaryKeyConstraint('period', 'revision', name=op.f('pk_period_revisions'))
    )
    op.create_table('game_revisions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('valid_from_change', sa.Integer(), nullable=True),
    sa.Column('valid_to_change', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=True),
    sa.Column('round', sa.String(length=20), nullable=True),
    sa.Column('date', sa.Date(), nullable=False),
    sa.Column('period', sa.String(length=7), nullable=False),
    sa.Column('white_id', sa.Integer(), nullable=False),
    sa.Column('black_id', sa.Integer(), nullable=False),
    sa.Column('result', sa.String(length=8), nullable=False),
    sa.Column('played', sa.Boolean(), nullable=False),
    sa.Column('status', sa.String(length=8), nullable=False),
    sa.Column('source', sa.String(length=500), nullable=True),
    sa.ForeignKeyConstraint(['black_id'], ['players.id'], name=op.f('fk_game_revisions_black_id_players')),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_game_revisions_event_id_events')),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_game_revisions_game_id_games')),
    sa.ForeignKeyConstraint(['valid_from_change'], ['changes.id'], name=op.f('fk_game_revisions_valid_from_change_changes')),
    sa.ForeignKeyConstraint(['valid_to_change'], ['changes.id'], name=op.f('fk_game_revisions_valid_to_change_changes')),
    sa.ForeignKeyConstraint(['white_id'], ['players.id'], name=op.f('fk_game_revisions_white_id_players')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_game_revisions'))
    )
    with op.batch_alter_table('game_revisions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_game_revisions_game_id'), ['game_id'], unique=False)
    op.create_table('player_revisions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('valid_from_change', sa.Integer(), nullable=True),
    sa.Column('valid_to_change', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('name_key', sa.String(length=KEY_LENGTH), nullable=False),
    sa.Column('fide_id', sa.BigInteger(), nullable=True),
    sa.Column('birth_year', sa.Integer(), nullable=True),
    sa.Column('sex', sa.String(length=1), nullable=True),
    sa.Column('federation', sa.String(length=3), nullable=True),
    sa.Column('title', sa.String(length=4), nullable=True),
    sa.Column('w_title', sa.String(length=4), nullable=True),
    sa.Column('o_title', sa.String(length=30), nullable=True),
    sa.Column('foa_title', sa.String(length=4), nullable=True),
    sa.Column('merged_into', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['merged_into'], ['players.id'], name=op.f('fk_player_revisions_merged_into_players')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_player_revisions_player_id_players')),
    sa.ForeignKeyConstraint(['valid_from_change'], ['changes.id'], name=op.f('fk_player_revisions_valid_from_change_changes')),
    sa.ForeignKeyConstraint(['valid_to_change'], ['changes.id'], name=op.f('fk_player_revisions_valid_to_change_changes')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_player_revisions'))
    )
    with op.batch_alter_table('player_revisions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_player_revisions_player_id'), ['player_id'], unique=False)


def _fact_columns() -> None:
    for table in ("events", "player_entries"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column('change_id', sa.Integer(), nullable=True))
            batch_op.create_foreign_key(batch_op.f(f'fk_{table}_change_id_changes'), 'changes',
                                        ['change_id'], ['id'])
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('status', sa.String(length=8), server_default='valid',
                                      nullable=False))
        batch_op.add_column(sa.Column('change_id', sa.Integer(), nullable=True))
        batch_op.create_check_constraint('status', "status IN ('valid', 'void')")
        batch_op.create_foreign_key(batch_op.f('fk_games_change_id_changes'), 'changes',
                                    ['change_id'], ['id'])
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('merged_into', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('change_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_players_merged_into_players'), 'players',
                                    ['merged_into'], ['id'])
        batch_op.create_foreign_key(batch_op.f('fk_players_change_id_changes'), 'changes',
                                    ['change_id'], ['id'])


def _record_closed_periods(conn: sa.Connection) -> None:
    """Revision 1 of every closed period, computed by one change written here."""
    closed = conn.execute(sa.select(periods.c.period, periods.c.edition, periods.c.closed_at)
                          .order_by(periods.c.period)).all()
    if not closed:
        return
    by, command = _actor()
    change_id = conn.execute(changes.insert().values(
        at=dt.datetime.now(dt.UTC).replace(tzinfo=None), by=by, command=command,
        action="schema.upgrade", entity="schema", entity_id="0006",
        after=json.dumps({"periods": [p for p, _, _ in closed], "revision": 1}),
        reason=REASON).returning(changes.c.id)).scalar_one()
    conn.execute(period_revisions.insert(), [
        {"period": p, "revision": 1, "edition": edition, "change_id": change_id,
         "reason": REASON, "closed_at": closed_at, "superseded_by_change": None}
        for p, edition, closed_at in closed])


def _revision_keys() -> None:
    """``periods`` points at revision 1; every derived row is of revision 1."""
    with op.batch_alter_table('periods', schema=None) as batch_op:
        batch_op.add_column(sa.Column('revision', sa.Integer(), nullable=True))
    for table in DERIVED:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column('revision', sa.Integer(), nullable=True))
    for table in ("periods", *DERIVED):
        op.execute(sa.text(f"UPDATE {table} SET revision = 1"))
    with op.batch_alter_table('periods', schema=None) as batch_op:
        batch_op.alter_column('revision', existing_type=sa.Integer(), nullable=False)
        batch_op.drop_column('edition')
        batch_op.drop_column('closed_at')
        batch_op.create_foreign_key(batch_op.f('fk_periods_period_period_revisions'),
                                    'period_revisions', ['period', 'revision'],
                                    ['period', 'revision'])
    for table, key in DERIVED.items():
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.alter_column('revision', existing_type=sa.Integer(), nullable=False)
            batch_op.drop_constraint(f'fk_{table}_period_periods', type_='foreignkey')
            batch_op.drop_constraint(f'pk_{table}', type_='primary')
            batch_op.create_primary_key(f'pk_{table}', key)
            batch_op.create_foreign_key(f'fk_{table}_period_period_revisions',
                                        'period_revisions', ['period', 'revision'],
                                        ['period', 'revision'])
            if table == "period_games":
                batch_op.drop_index('ix_period_games_period_player')
                batch_op.create_index('ix_period_games_game_id', ['game_id'], unique=False)


def _snapshot_tables() -> None:
    op.create_table('list_entries',
    sa.Column('period', sa.String(length=7), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('rank', sa.Integer(), nullable=False),
    sa.Column('rating', sa.Integer(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('k', sa.Integer(), nullable=False),
    sa.Column('k_reason', sa.String(length=20), nullable=False),
    sa.Column('inactive', sa.Boolean(), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('fide_id', sa.BigInteger(), nullable=True),
    sa.Column('federation', sa.String(length=3), nullable=True),
    sa.Column('title', sa.String(length=4), nullable=True),
    sa.Column('sex', sa.String(length=1), nullable=True),
    sa.Column('birth_year', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['period', 'revision'], ['period_revisions.period', 'period_revisions.revision'], name=op.f('fk_list_entries_period_period_revisions')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_list_entries_player_id_players')),
    sa.PrimaryKeyConstraint('period', 'revision', 'player_id', name=op.f('pk_list_entries'))
    )
    op.create_table('carried_corrections',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('change_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('origin_period', sa.String(length=7), nullable=False),
    sa.Column('origin_revision', sa.Integer(), nullable=False),
    sa.Column('applies_in', sa.String(length=7), nullable=False),
    sa.Column('hundredths', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['change_id'], ['changes.id'], name=op.f('fk_carried_corrections_change_id_changes')),
    sa.ForeignKeyConstraint(['origin_period', 'origin_revision'], ['period_revisions.period', 'period_revisions.revision'], name=op.f('fk_carried_corrections_origin_period_period_revisions')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_carried_corrections_player_id_players')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_carried_corrections')),
    sa.UniqueConstraint('change_id', 'player_id', 'origin_period', name=op.f('uq_carried_corrections_change_id'))
    )
    with op.batch_alter_table('carried_corrections', schema=None) as batch_op:
        batch_op.create_index('ix_carried_corrections_applies_in', ['applies_in'], unique=False)


def upgrade() -> None:
    _change_revision_tables()
    _record_closed_periods(op.get_bind())
    _fact_columns()
    _revision_keys()
    _snapshot_tables()


def downgrade() -> None:
    """Back to 0005: only each closed period's current revision is kept (a reopened period's
    revisions and every superseded one are lost, and so is the audit log)."""
    op.drop_table('carried_corrections')
    op.drop_table('list_entries')
    for table in DERIVED:
        op.execute(sa.text(
            f"DELETE FROM {table} WHERE NOT EXISTS (SELECT 1 FROM periods WHERE "
            f"periods.period = {table}.period AND periods.revision = {table}.revision)"))
    for table in DERIVED:
        with op.batch_alter_table(table, schema=None) as batch_op:
            if table == "period_games":
                batch_op.drop_index('ix_period_games_game_id')
                batch_op.create_index('ix_period_games_period_player', ['period', 'player_id'],
                                      unique=False)
            batch_op.drop_constraint(f'fk_{table}_period_period_revisions', type_='foreignkey')
            batch_op.drop_constraint(f'pk_{table}', type_='primary')
            batch_op.create_primary_key(f'pk_{table}', OLD_KEYS[table])
            batch_op.drop_column('revision')
            batch_op.create_foreign_key(f'fk_{table}_period_periods', 'periods', ['period'],
                                        ['period'])
    with op.batch_alter_table('periods', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_periods_period_period_revisions'),
                                 type_='foreignkey')
        batch_op.add_column(sa.Column('edition', sa.String(length=7), nullable=True))
        batch_op.add_column(sa.Column('closed_at', sa.DateTime(), nullable=True))
    op.execute(sa.text(
        "UPDATE periods SET edition = (SELECT r.edition FROM period_revisions r WHERE "
        "r.period = periods.period AND r.revision = periods.revision), closed_at = (SELECT "
        "r.closed_at FROM period_revisions r WHERE r.period = periods.period AND r.revision = "
        "periods.revision)"))
    with op.batch_alter_table('periods', schema=None) as batch_op:
        batch_op.alter_column('edition', existing_type=sa.String(length=7), nullable=False)
        batch_op.alter_column('closed_at', existing_type=sa.DateTime(), nullable=False)
        batch_op.drop_column('revision')
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_players_change_id_changes'), type_='foreignkey')
        batch_op.drop_constraint(batch_op.f('fk_players_merged_into_players'), type_='foreignkey')
        batch_op.drop_column('change_id')
        batch_op.drop_column('merged_into')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_games_change_id_changes'), type_='foreignkey')
        batch_op.drop_constraint('status', type_='check')
        batch_op.drop_column('change_id')
        batch_op.drop_column('status')
    for table in ("player_entries", "events"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_constraint(batch_op.f(f'fk_{table}_change_id_changes'),
                                     type_='foreignkey')
            batch_op.drop_column('change_id')
    with op.batch_alter_table('player_revisions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_player_revisions_player_id'))
    op.drop_table('player_revisions')
    with op.batch_alter_table('game_revisions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_revisions_game_id'))
    op.drop_table('game_revisions')
    op.drop_table('period_revisions')
    with op.batch_alter_table('changes', schema=None) as batch_op:
        batch_op.drop_index('ix_changes_entity')
    op.drop_table('changes')
