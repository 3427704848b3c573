"""name keys: players.name_key and events.name_key (case, accents and punctuation aside); one
event per name key and start date

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 09:00:00

Every existing row gets its key computed here, in Python, by a frozen copy of
``ledger.names.name_key`` as it stands at this revision (not an import of it): a revision must
do the same thing on every ledger it ever upgrades, whatever the live module becomes (moved,
renamed, or a rule added). A later change of the rule needs a revision of its own that
recomputes the keys; ``tests/migrations`` checks that this copy and the live function agree.

Events that only the key says are the same (``Östersund Open`` and ``ÖSTERSUND OPEN`` starting
on the same day) cannot both stay: the upgrade stops before changing anything and names them.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from ledger.errors import LedgerError

revision: str = '0005'
down_revision: str | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

KEY_LENGTH = 400
_BATCH = 10_000

players = sa.table("players", sa.column("id", sa.Integer), sa.column("name", sa.String),
                   sa.column("name_key", sa.String))
events = sa.table("events", sa.column("id", sa.Integer), sa.column("name", sa.String),
                  sa.column("name_key", sa.String), sa.column("start_date", sa.Date))

# --- frozen copy of ledger.names.name_key at revision 0005 -------------------------------------
_UNDECOMPOSED = str.maketrans({"ø": "o", "ł": "l", "đ": "d", "ð": "d", "ħ": "h", "ŧ": "t",
                               "ı": "i", "æ": "ae", "œ": "oe", "þ": "th"})
_JOINERS = str.maketrans("", "", "'’‘`´ʼʻ·")
_BLANK = re.compile(r"[^\w,]|_")


def _without_marks(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def name_key(name: str) -> str:
    if name.isascii():
        text = name.casefold()
    else:
        text = _without_marks(_without_marks(name).casefold().translate(_UNDECOMPOSED))
    text = _BLANK.sub(" ", text.translate(_JOINERS))
    return ", ".join(part for part in (" ".join(p.split()) for p in text.split(",")) if part)
# -------------------------------------------------------------------------------------------------


def _fill_keys(conn: sa.Connection, table: sa.TableClause) -> None:
    """Set ``name_key`` of every row, ``_BATCH`` rows at a time (a FIDE list has a million)."""
    update = (table.update().where(table.c.id == sa.bindparam("row_id"))
              .values(name_key=sa.bindparam("key")))
    last = None
    while True:
        query = sa.select(table.c.id, table.c.name).order_by(table.c.id).limit(_BATCH)
        rows = conn.execute(query if last is None else query.where(table.c.id > last)).all()
        if not rows:
            return
        conn.execute(update, [{"row_id": row_id, "key": name_key(name)} for row_id, name in rows])
        last = rows[-1][0]


def _refuse_duplicate_events(conn: sa.Connection) -> None:
    """Raise ``LedgerError`` naming every set of events with one key and one start date."""
    groups: dict[tuple[str, object], list[tuple[int, str]]] = defaultdict(list)
    for row_id, name, key, start in conn.execute(
            sa.select(events.c.id, events.c.name, events.c.name_key, events.c.start_date)
            .order_by(events.c.id)):
        groups[(key, start)].append((row_id, name))
    clashes = [(start, same) for (_, start), same in groups.items() if len(same) > 1]
    if clashes:
        listed = "; ".join(" and ".join(f"#{i} {n!r}" for i, n in same) + f" (starting {start})"
                           for start, same in clashes)
        raise LedgerError(
            "cannot upgrade the ledger to revision 0005: events must differ by more than case, "
            f"accents and punctuation when they start on the same day, and these do not: {listed}."
            " Nothing was changed; rename one of each (UPDATE events SET name = ... WHERE id = ...)"
            " or move its games to the other, then run `ledger init` again")


def upgrade() -> None:
    for table in ("players", "events"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column('name_key', sa.String(length=KEY_LENGTH), nullable=True))
    conn = op.get_bind()
    _fill_keys(conn, players)
    _fill_keys(conn, events)
    _refuse_duplicate_events(conn)
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.alter_column('name_key', existing_type=sa.String(length=KEY_LENGTH),
                              nullable=False)
        batch_op.create_index(batch_op.f('ix_players_name_key'), ['name_key'], unique=False)
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.alter_column('name_key', existing_type=sa.String(length=KEY_LENGTH),
                              nullable=False)
        batch_op.drop_constraint(batch_op.f('uq_events_name'), type_='unique')
        batch_op.create_unique_constraint(batch_op.f('uq_events_name_key'),
                                          ['name_key', 'start_date'])


def downgrade() -> None:
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_events_name_key'), type_='unique')
        batch_op.create_unique_constraint(batch_op.f('uq_events_name'), ['name', 'start_date'])
        batch_op.drop_column('name_key')
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_players_name_key'))
        batch_op.drop_column('name_key')
