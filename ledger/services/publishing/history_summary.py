"""What a player's history adds up to: the rating on each list they appear on after a rated
period (one point per period), the periods where K changed, and the peak rating."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ledger.domain import Period

if TYPE_CHECKING:
    from ledger.services.publishing.histories import PlayerHistory


@dataclass(frozen=True)
class PeriodPoint:
    """The rating on the list published by closing ``period`` (after any list adjustment), the
    K used in the period (None when only a list adjustment touched it) and ``k_note`` when K
    differs from the previous rated period's (``"K 40 -> 20"``)."""

    period: str
    rating: int
    k: int | None
    k_note: str | None


@dataclass(frozen=True)
class Peak:
    """The highest published rating and since when it was in force (YYYY-MM-DD); ``period`` is
    the period whose close published it, None for the rating the player brought."""

    rating: int
    period: str | None
    in_force_from: str


def period_points(h: PlayerHistory) -> list[PeriodPoint]:
    """One point per period of ``h``, oldest first: each published initial rating at the period
    whose close computed it, and each closed period's result (after any list adjustment)."""
    ratings: dict[str, int] = {i.period: i.computation.rating
                               for i in h.life.initial if i.computation.published}
    ks: dict[str, int] = {}
    for row in h.periods:  # sorted by period, the adjustment after the period's own result
        ratings[row.period] = row.rating_after
        if row.note is None:
            ks[row.period] = row.k
    points, previous_k = [], None
    for period in sorted(ratings):
        k = ks.get(period)
        note = None
        if k is not None and previous_k is not None and k != previous_k:
            note = f"K {previous_k} -> {k}"
        points.append(PeriodPoint(period, ratings[period], k, note))
        previous_k = k if k is not None else previous_k
    return points


def rating_brought(h: PlayerHistory) -> int | None:
    """The rating the player brought into their first rated period, when their history starts
    with one (not with an initial rating the ledger computed); else None."""
    points = period_points(h)
    if not h.periods or (points and points[0].period < h.periods[0].period):
        return None
    return h.periods[0].rating_before


def peak(h: PlayerHistory) -> Peak | None:
    """The highest rating ``h`` shows, the earliest time it was reached: the rating brought into
    the first period, or one published by a close. None when there is none."""
    best = None
    brought = rating_brought(h)
    if brought is not None:
        best = Peak(brought, None, str(Period.parse(h.periods[0].period).start))
    for point in period_points(h):
        if best is None or point.rating > best.rating:
            best = Peak(point.rating, point.period, str(Period.parse(point.period).list_date()))
    return best
