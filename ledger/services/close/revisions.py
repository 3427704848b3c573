"""Which revision of a period's derived rows is current, decided in one place
(docs/CORRECTIONS.md §3), and the revisions of each period.

``periods`` holds one row per closed period pointing at its current revision; every read of
derived data (``period_results``, ``period_audits``, ``rating_adjustments``, ``initial_ratings``,
``initial_rating_games``, ``rating_floor_drops``, ``list_entries``) filters with ``current`` so
that a superseded revision, or the revision of a reopened period, is never read as today's.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import Session

from ledger.db.models import Change, PeriodRevision, RatingPeriod
from ledger.domain import STANDARD, Period, RatingPool


def current(model: Any, pool: RatingPool | Any = STANDARD) -> ColumnElement[bool]:
    """The condition "this row of ``model`` (a derived table with ``period``, ``pool`` and
    ``revision`` columns) belongs to the current revision of its period in ``pool``": an
    EXISTS on ``periods``, correlated with the query it is used in. A row of a reopened period
    is not current; nor is a row of another pool (a revision rates one pool, docs/RULES.md §9).
    ``pool`` may be a column (``Game.pool``) to follow each row's own pool."""
    return (select(RatingPeriod.period)
            .where(RatingPeriod.period == model.period, RatingPeriod.pool == model.pool,
                   RatingPeriod.revision == model.revision, RatingPeriod.pool == pool)
            .exists())


def current_revision(session: Session, period: Period,
                     pool: RatingPool = STANDARD) -> int | None:
    """The current revision of ``period`` in ``pool``, None when it is not closed there."""
    return session.scalar(select(RatingPeriod.revision)
                          .where(RatingPeriod.period == str(period), RatingPeriod.pool == pool))


def next_revision(session: Session, period: Period, pool: RatingPool = STANDARD) -> int:
    """The number a new close or re-rating of ``period`` in ``pool`` writes: 1, or one more
    than the pool's last of that period (revision numbers are per period and pool: the first
    blitz list of a period is revision 1 whatever the standard list's are)."""
    last = session.scalar(select(func.max(PeriodRevision.revision))
                          .where(PeriodRevision.period == str(period),
                                 PeriodRevision.pool == pool))
    return (last or 0) + 1


@dataclass(frozen=True)
class RevisionView:
    """One revision of a period: its number, the rule ``edition``, when (UTC) and by whom
    (``by``, ``command``) it was computed, the change that did it, ``reason``, and
    ``superseded_by`` (the change that superseded it: a reopen or a re-rating; None while
    current or while its period stays reopened) with ``current``."""

    period: str
    revision: int
    edition: str
    closed_at: dt.datetime
    change_id: int
    by: str
    command: str
    action: str
    reason: str | None
    superseded_by: int | None
    current: bool
    pool: RatingPool = STANDARD


def revision_views(session: Session, period: Period | None = None,
                   pool: RatingPool = STANDARD) -> list[RevisionView]:
    """Every revision of ``pool`` (of ``period``, or of every period), by period then revision:
    one query."""
    query = (select(PeriodRevision, Change.by, Change.command, Change.action,
                    RatingPeriod.revision)
             .join(Change, Change.id == PeriodRevision.change_id)
             .outerjoin(RatingPeriod, (RatingPeriod.period == PeriodRevision.period)
                        & (RatingPeriod.pool == PeriodRevision.pool))
             .where(PeriodRevision.pool == pool)
             .order_by(PeriodRevision.period, PeriodRevision.revision))
    if period is not None:
        query = query.where(PeriodRevision.period == str(period))
    return [RevisionView(r.period, r.revision, r.edition, r.closed_at, r.change_id, by, command,
                         action, r.reason, r.superseded_by_change, pointer == r.revision,
                         pool)
            for r, by, command, action, pointer in session.execute(query)]


def supersede(session: Session, period: Period, revision: int, change_id: int,
              pool: RatingPool = STANDARD) -> None:
    """Mark ``revision`` of ``period`` in ``pool`` superseded by ``change_id`` (a reopen or a
    re-rating)."""
    row = session.get_one(PeriodRevision, (str(period), pool, revision))
    row.superseded_by_change = change_id
