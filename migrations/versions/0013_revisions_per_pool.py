"""revisions per pool: a period's revisions numbered per (period, pool)

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02 13:00:00

Issue 21 §5. Revision 0009 numbered a period's revisions across its pools (the first blitz list
of a period closed after its standard one was revision 2). Each pool's revisions of a period
are now numbered 1, 2, 3 on their own: ``period_revisions`` is keyed by (period, pool,
revision), and every row that names a revision (the seven derived tables, ``periods`` and
``carried_corrections``, as ``origin_pool``) carries the pool in its key and foreign key.
The upgrade renumbers every pool's revisions of a period in their order (1, 2, 3 ...), and every
row naming one with them. The audit log is history and keeps the numbers it recorded. The
downgrade numbers each period's revisions across its pools again in the order they were
written (by ``closed_at``, then ``change_id``) and drops the pool columns it added.
Self-contained: it reads and writes only the tables above, as 0012 left them (0012 touches none of them).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0013'
down_revision: str | None = '0012'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: The derived tables (each keyed by period, revision, player_id [, game_id]) as 0011 has them.
DERIVED = {
    'period_results': ('player_id',),
    'period_audits': ('player_id',),
    'rating_adjustments': ('player_id',),
    'initial_ratings': ('player_id',),
    'initial_rating_games': ('player_id', 'game_id'),
    'rating_floor_drops': ('player_id',),
    'list_entries': ('player_id',),
}

revisions = sa.table('period_revisions', sa.column('period', sa.String),
                     sa.column('revision', sa.Integer), sa.column('pool', sa.String),
                     sa.column('change_id', sa.Integer), sa.column('closed_at', sa.DateTime))


def _fk(table: str) -> str:
    """The name of ``table``'s foreign key to ``period_revisions`` (naming convention: its
    first column, ``period``; ``origin_period`` for ``carried_corrections``)."""
    first = 'origin_period' if table == 'carried_corrections' else 'period'
    return f'fk_{table}_{first}_period_revisions'


def _columns(table: str, pooled: bool) -> tuple[list[str], list[str]]:
    """The foreign key's columns of ``table`` and the ones they refer to, with the pool or
    without it."""
    if table == 'carried_corrections':
        mine = ['origin_period', 'origin_pool', 'origin_revision']
    else:
        mine = ['period', 'pool', 'revision']
    theirs = ['period', 'pool', 'revision']
    if not pooled:
        mine, theirs = [mine[0], mine[2]], [theirs[0], theirs[2]]
    return mine, theirs


_REFERRING = (*DERIVED, 'periods', 'carried_corrections')


def _drop_foreign_keys() -> None:
    for table in _REFERRING:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_constraint(_fk(table), type_='foreignkey')


def _create_foreign_keys(pooled: bool) -> None:
    for table in _REFERRING:
        mine, theirs = _columns(table, pooled)
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.create_foreign_key(_fk(table), 'period_revisions', mine, theirs)


def _renumber(conn: sa.Connection, numbers: dict[tuple[str, int], tuple[str, int]]) -> None:
    """Give every row naming revision (period, old) the pool and number ``numbers`` maps it to:
    first every number negated (so an old number is never taken for a new one), then each
    mapped; the derived tables' pool is set in the same step."""
    targets = [(t, 'period', 'revision', 'pool') for t in DERIVED]
    targets += [('period_revisions', 'period', 'revision', None), ('periods', 'period',
                                                                    'revision', None),
                ('carried_corrections', 'origin_period', 'origin_revision', 'origin_pool')]
    for table, period, number, pool in targets:
        conn.execute(sa.text(f'UPDATE {table} SET {number} = -{number}'))
        for (at, old), (in_pool, new) in numbers.items():
            values = f'{number} = :new' + (f', {pool} = :pool' if pool else '')
            conn.execute(sa.text(f'UPDATE {table} SET {values} WHERE {period} = :period AND '
                                 f'{number} = :old'),
                         {'new': new, 'pool': in_pool, 'period': at, 'old': -old})


def upgrade() -> None:
    conn = op.get_bind()
    # (period, old revision) -> (pool, its number among the pool's revisions of the period)
    numbers: dict[tuple[str, int], tuple[str, int]] = {}
    counted: dict[tuple[str, str], int] = {}
    for period, old, pool in conn.execute(sa.select(revisions.c.period, revisions.c.revision,
                                                    revisions.c.pool)
                                          .order_by(revisions.c.period, revisions.c.revision)):
        counted[period, pool] = counted.get((period, pool), 0) + 1
        numbers[period, old] = (pool, counted[period, pool])
    _drop_foreign_keys()
    for table, rest in DERIVED.items():
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column('pool', sa.String(length=8),
                                          server_default='standard', nullable=False))
            batch_op.drop_constraint(f'pk_{table}', type_='primary')
            batch_op.create_primary_key(f'pk_{table}', ['period', 'pool', 'revision', *rest])
    with op.batch_alter_table('carried_corrections', schema=None) as batch_op:
        batch_op.add_column(sa.Column('origin_pool', sa.String(length=8),
                                      server_default='standard', nullable=False))
    with op.batch_alter_table('period_revisions', schema=None) as batch_op:
        batch_op.drop_constraint('pk_period_revisions', type_='primary')
        batch_op.create_primary_key('pk_period_revisions', ['period', 'pool', 'revision'])
    _renumber(conn, numbers)
    _create_foreign_keys(pooled=True)


def downgrade() -> None:
    """Back to 0011: each period's revisions numbered across its pools again, in the order
    they were written (``closed_at``, then ``change_id``), and the pool columns dropped."""
    conn = op.get_bind()
    rows = conn.execute(sa.select(revisions.c.period, revisions.c.pool, revisions.c.revision)
                        .order_by(revisions.c.period, revisions.c.closed_at,
                                  revisions.c.change_id, revisions.c.revision,
                                  revisions.c.pool)).all()
    shared: dict[str, int] = {}
    back: dict[tuple[str, str, int], int] = {}
    for period, pool, number in rows:
        shared[period] = shared.get(period, 0) + 1
        back[period, pool, number] = shared[period]
    _drop_foreign_keys()
    targets = [(t, 'period', 'revision', 'pool') for t in DERIVED]
    targets += [('period_revisions', 'period', 'revision', 'pool'),
                ('periods', 'period', 'revision', 'pool'),
                ('carried_corrections', 'origin_period', 'origin_revision', 'origin_pool')]
    for table, period, number, pool in targets:
        conn.execute(sa.text(f'UPDATE {table} SET {number} = -{number}'))
        for (at, in_pool, old), new in back.items():
            conn.execute(sa.text(f'UPDATE {table} SET {number} = :new WHERE {period} = :period'
                                 f' AND {pool} = :pool AND {number} = :old'),
                         {'new': new, 'period': at, 'pool': in_pool, 'old': -old})
    with op.batch_alter_table('period_revisions', schema=None) as batch_op:
        batch_op.drop_constraint('pk_period_revisions', type_='primary')
        batch_op.create_primary_key('pk_period_revisions', ['period', 'revision'])
    for table, rest in DERIVED.items():
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_constraint(f'pk_{table}', type_='primary')
            batch_op.create_primary_key(f'pk_{table}', ['period', 'revision', *rest])
            batch_op.drop_column('pool')
    with op.batch_alter_table('carried_corrections', schema=None) as batch_op:
        batch_op.drop_column('origin_pool')
    _create_foreign_keys(pooled=False)
