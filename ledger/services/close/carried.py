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

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import Session

from ledger.db.models import CarriedCorrection, RatingPeriod
from ledger.domain import STANDARD, Period, RatingPool
from ledger.services.core.facts import NOW, Facts


def origin_current(pool: RatingPool = STANDARD) -> ColumnElement[bool]:
    """The condition "this carried correction's origin revision is its period's current one in
    ``pool``" (a revision rates one pool, so a correction carried from it is of that pool)."""
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
