"""Reading carried corrections (docs/CORRECTIONS.md §5): what a close adds before its one
rounding, and which open period is owed a close because of them.

A carried correction (``carried_corrections``) is written by a correction of a closed period
made with ``--in-next-period`` (``services.corrections.effects``): per player, the exact difference in
hundredths between the change the closed period (``origin_period``, as rated by
``origin_revision``) gives with the corrected games and the change it gave, to be added to the
exact total of ``applies_in`` before the one rounding. It applies only while the origin
period's current revision is ``origin_revision``: once the origin is re-rated (with today's
facts, the corrected game included) it is ignored.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from typing import Any

from sqlalchemy import ColumnElement, Select, bindparam, func, select
from sqlalchemy.orm import Session

from ledger.db.models import CarriedCorrection, Change, RatingPeriod
from ledger.domain import STANDARD, Period, RatingPool
from ledger.services.core.facts import NOW, Facts

#: What a correction did to its game, as a carried line says it (the change's action).
_DONE = {"game.void": "voided", "game.correct": "corrected"}


def origin_current(pool: RatingPool | Any = STANDARD) -> ColumnElement[bool]:
    """The condition "this carried correction's origin revision is its period's current one in
    ``pool``" (a revision rates one pool, so a correction carried from it is of that pool;
    ``pool`` may be a bound parameter)."""
    return (select(RatingPeriod.period)
            .where(RatingPeriod.period == CarriedCorrection.origin_period,
                   RatingPeriod.pool == CarriedCorrection.origin_pool,
                   RatingPeriod.revision == CarriedCorrection.origin_revision,
                   RatingPeriod.pool == pool).exists())


def carried_into(session: Session, period: Period, facts: Facts = NOW,
                 pool: RatingPool = STANDARD) -> dict[int, int]:
    """Player id -> the hundredths carried into ``period`` of ``pool`` (summed over its carried
    corrections that apply: origin revision current, written by ``facts``' change). One query."""
    query = (select(CarriedCorrection.player_id, func.sum(CarriedCorrection.hundredths))
             .where(CarriedCorrection.applies_in == str(period), origin_current(pool),
                    facts.written(CarriedCorrection.change_id))
             .group_by(CarriedCorrection.player_id))
    return {pid: int(total) for pid, total in session.execute(query) if total}


def carried_from(session: Session, origin: Period, revision: int,
                 pool: RatingPool = STANDARD) -> dict[int, int]:
    """Player id -> the hundredths already carried out of ``revision`` of ``origin`` in
    ``pool`` by earlier corrections (the next one carries only what is left). One query."""
    query = (select(CarriedCorrection.player_id, func.sum(CarriedCorrection.hundredths))
             .where(CarriedCorrection.origin_period == str(origin),
                    CarriedCorrection.origin_pool == pool,
                    CarriedCorrection.origin_revision == revision)
             .group_by(CarriedCorrection.player_id))
    return {pid: int(total) for pid, total in session.execute(query)}


def first_owed(session: Session, after: Period | None,
               pool: RatingPool = STANDARD) -> Period | None:
    """The earliest period after ``after`` (None: any) that carried corrections of ``pool``
    that apply are waiting for, or None: a period with no game but a carried correction must
    still be closed."""
    query = select(func.min(CarriedCorrection.applies_in)).where(origin_current(pool))
    if after is not None:
        query = query.where(CarriedCorrection.applies_in > str(after))
    found = session.scalar(query)
    return Period.parse(found) if found else None


@dataclass(frozen=True)
class CarriedLine:
    """One carried correction of one player, as ``player show``, ``history``, ``whatif``, the
    event report and the site show it (docs/CORRECTIONS.md §5): ``hundredths`` (integer
    hundredths of a rating point, signed) added to the exact change of ``applies_in`` (YYYY-MM)
    before its one rounding, because change ``change_id`` (``action`` ``game.void`` or
    ``game.correct`` of game ``game_id``, with its ``reason``) changed what ``origin_period``
    (as its revision ``origin_revision`` rated it, a list that stands) gives the player.
    ``added``: the pool has closed ``applies_in``, so its result holds the amount; otherwise
    its close is still to add it."""

    player_id: int
    applies_in: str
    hundredths: int
    origin_period: str
    origin_revision: int
    change_id: int
    action: str
    game_id: int | None
    reason: str | None
    added: bool

    @property
    def amount(self) -> Decimal:
        """The carried amount in rating points, exact (``Decimal('-20.00')``)."""
        return Decimal(self.hundredths).scaleb(-2)

    @property
    def label(self) -> str:
        """``carried into 2026-12: -20.00, game 12 corrected``."""
        what = (f"game {self.game_id} {_DONE.get(self.action, 'changed')}"
                if self.game_id is not None else f"change {self.change_id}")
        return f"carried into {self.applies_in}: {self.amount:+.2f}, {what}"

    @property
    def detail(self) -> str:
        """The label, then where it comes from and whether the close has added it yet."""
        when = (f"added by the close of {self.applies_in}" if self.added else
                f"the close of {self.applies_in} adds it before its one rounding")
        why = f"; reason: {self.reason}" if self.reason else ""
        return (f"{self.label} (the {self.origin_period} list stands as published; {when}"
                f"{why})")


def carried_lines(session: Session, player_ids: Sequence[int] | None,
                  pool: RatingPool = STANDARD,
                  last_closed: Period | None = None) -> dict[int, list[CarriedLine]]:
    """Player id -> the carried corrections of ``pool`` that apply (origin revision current),
    oldest change first, for ``player_ids`` (None: every player); players with none left out.
    ``last_closed``: the pool's latest closed period (None: none), which says whether each
    one's ``applies_in`` has been closed (``CarriedLine.added``). One query (Core rows, by a
    statement built once: ``lines_query``)."""
    params: dict[str, object] = {"pool": pool}
    if player_ids is not None:
        params["ids"] = list(player_ids)
    return lines_from(session.connection().execute(lines_query(player_ids is not None), params),
                      last_closed)


def lines_from(rows: Iterable[Sequence[Any]],
               last_closed: Period | None) -> dict[int, list[CarriedLine]]:
    """``carried_lines``' answer from the rows of ``lines_query`` (in its order: oldest change
    first), ``last_closed`` as there."""
    found: dict[int, list[CarriedLine]] = defaultdict(list)
    for (pid, applies_in, hundredths, origin_period, origin_revision, change_id, action, entity,
         entity_id, reason) in rows:
        game = int(entity_id) if entity == "game" and entity_id.isdigit() else None
        added = last_closed is not None and applies_in <= str(last_closed)
        found[pid].append(CarriedLine(pid, applies_in, hundredths, origin_period,
                                      origin_revision, change_id, action, game, reason, added))
    return dict(found)


def line_order(row: Sequence[Any]) -> tuple[int, str, int]:
    """The place of a row of ``lines_query`` in its order: (change id, origin period, player
    id)."""
    return row[5], row[3], row[0]


@cache
def lines_query(some: bool) -> Select[Any]:
    """``carried_lines``' statement (``some``: only the players of the expanding parameter
    ``ids``), the pool the parameter ``pool``, ordered by ``line_order``: built once per
    process, so its cache key is too."""
    c, changes = CarriedCorrection.__table__.c, Change.__table__.c
    query = (select(c.player_id, c.applies_in, c.hundredths, c.origin_period, c.origin_revision,
                    c.change_id, changes.action, changes.entity, changes.entity_id,
                    changes.reason)
             .join_from(CarriedCorrection.__table__, Change.__table__,
                        changes.id == c.change_id)
             .where(origin_current(bindparam("pool")))
             .order_by(c.change_id, c.origin_period, c.player_id))
    return query.where(c.player_id.in_(bindparam("ids", expanding=True))) if some else query
