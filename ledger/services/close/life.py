"""What the ledger knows of an unrated player's way to a rating, for ``player show`` and
``history``: the pool in progress, every initial rating a close computed, drops below the floor."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ledger.db.models import InitialRating, Player, RatingFloorDrop
from ledger.domain import STANDARD, Period, RatingPool
from ledger.rules.editions import InitialMethod
from ledger.rules.initial import HYPOTHETICAL_RATING, MIN_POOL_GAMES, Pool
from ledger.rules.initial import InitialRating as Computation
from ledger.services.close.pools import open_pools
from ledger.services.close.revisions import current
from ledger.services.close.state import last_closed_period


@dataclass(frozen=True)
class PoolRow:
    """One game of a pool in progress, from the unrated player's side: ``opponent`` (name) and
    their published rating at the event's start, ``score`` (Decimal 1, 0.5 or 0), ``counted``
    False for a game of a first event with zero points (disregarded, FIDE B.02 §7.1.4)."""

    period: str
    game_id: int
    opponent: str
    opponent_rating: int
    score: Decimal
    counted: bool


@dataclass(frozen=True)
class PoolView:
    """An unrated player's pool as the next close would see it (``as_of``, YYYY-MM): games
    counted, ``average`` opponent rating (exact ``Fraction``, None with no games), ``points``
    (Decimal), games still ``needed`` for 5, games ``disregarded`` (a first event with zero
    points), the earliest period counted, and ``computed_at``: the open period whose close computes
    Ru from this pool (the first one with a pool game by which the pool holds 5 games; None when it
    has fewer, or when none of its games is in an open period: a computation below the floor is
    repeated only at the close of a period in which the pool gains a game)."""

    as_of: str
    games: int
    average: Fraction | None
    points: Decimal
    needed: int
    disregarded: int
    first_period: str | None
    computed_at: str | None = None
    rows: tuple[PoolRow, ...] = ()


@dataclass(frozen=True)
class InitialView:
    """An initial rating a close computed (``period``), with the whole computation."""

    period: str
    computation: Computation


@dataclass(frozen=True)
class FloorDropView:
    """A rating that fell below ``floor`` at the close of ``period``."""

    period: str
    rating: int
    floor: int


@dataclass(frozen=True)
class RatingLife:
    """``pool``: in progress (unrated players only); ``initial``: every computation of Ru, oldest
    first; ``drops``: every fall below the floor."""

    pool: PoolView | None
    initial: tuple[InitialView, ...]
    drops: tuple[FloorDropView, ...]


def _computation(row: Any) -> Computation:
    """The rules' value object rebuilt from a stored ``initial_ratings`` row (an ORM object or a
    row with its columns by name; every stored number as written)."""
    games = row.games + row.hypothetical
    points = Decimal(row.score_halves) / 2
    ra = Fraction(row.opponents_sum + HYPOTHETICAL_RATING * row.hypothetical, games)
    return Computation(
        method=InitialMethod(row.method), games=row.games, opponents_sum=row.opponents_sum,
        points=points, hypothetical=row.hypothetical, ra=ra,
        p=(Fraction(points) + Fraction(row.hypothetical, 2)) / games,
        p_hundredths=row.p_hundredths, dp=row.dp, bonus=row.bonus,
        ru_exact=ra + row.dp + row.bonus, ru=row.ru, cap=row.cap, rating=row.rating,
        floor=row.floor)


def _computed_at(pool: Pool, last_closed: Period | None) -> str | None:
    """The open period whose close computes Ru from ``pool`` (see ``PoolView``), or None."""
    counted = 0
    for period in sorted({g.period for g in pool.games}):
        counted += sum(1 for g in pool.games if g.period == period)
        if counted >= MIN_POOL_GAMES and (last_closed is None or period > last_closed):
            return str(period)
    return None


def _rows(pool: Pool, names: dict[int, str]) -> tuple[PoolRow, ...]:
    """The pool's games, disregarded ones included, by period and game."""
    games = [(g, True) for g in pool.games] + [(g, False) for g in pool.disregarded]
    return tuple(PoolRow(str(g.period), g.game_id, names[g.opponent_id], g.opponent_rating,
                         g.score, counted)
                 for g, counted in sorted(games, key=lambda x: (x[0].period, x[0].game_id)))


def rating_life(session: Session, player_id: int, rated: bool,
                pool: RatingPool = STANDARD) -> RatingLife:
    """The life of ``player_id``'s rating in ``pool``; ``rated``: whether they have a published
    rating there now (then no pool of games is shown)."""
    return rating_lives(session, [player_id], () if rated else (player_id,), pool)[player_id]


def rating_lives(session: Session, player_ids: Sequence[int] | None,
                 unrated: Collection[int], pool: RatingPool = STANDARD,
                 ) -> dict[int, RatingLife]:
    """Player id -> the life of their rating (``rating_life``), for ``player_ids`` (None: every
    player); the players in ``unrated`` (those without a published rating now) also get their
    pool in progress. A fixed number of queries for any number of players (a few more per
    distinct period the pools are shown as of). ``pool``: the rating pool (docs/RULES.md §9)."""
    initial_rows = select(InitialRating).where(current(InitialRating, pool)).order_by(
        InitialRating.player_id, InitialRating.period)
    drop_rows = select(RatingFloorDrop).where(current(RatingFloorDrop, pool)).order_by(
        RatingFloorDrop.player_id, RatingFloorDrop.period)
    if player_ids is not None:
        initial_rows = initial_rows.where(InitialRating.player_id.in_(player_ids))
        drop_rows = drop_rows.where(RatingFloorDrop.player_id.in_(player_ids))
    initial, drops = session.scalars(initial_rows).all(), session.scalars(drop_rows).all()
    pools = (pools_in_progress(session, sorted(unrated), last_closed_period(session, pool), pool)
             if unrated else {})
    ids = player_ids if player_ids is not None else session.scalars(select(Player.id)).all()
    return lives_from(ids, initial, drops, pools)


def lives_from(player_ids: Iterable[int], initial_rows: Iterable[Any], drop_rows: Iterable[Any],
               pools: dict[int, PoolView]) -> dict[int, RatingLife]:
    """Player id -> the life of their rating, for each of ``player_ids``, from the current
    ``initial_ratings`` rows of the pool (ORM objects or rows with its columns by name) and its
    ``rating_floor_drops`` rows (``player_id``, ``period``, ``rating``, ``floor``), each by
    player then period, and the ``pools`` in progress (``pools_in_progress``)."""
    initial: dict[int, list[InitialView]] = defaultdict(list)
    for r in initial_rows:
        initial[r.player_id].append(InitialView(r.period, _computation(r)))
    drops: dict[int, list[FloorDropView]] = defaultdict(list)
    for d in drop_rows:
        drops[d.player_id].append(FloorDropView(d.period, d.rating, d.floor))
    return {pid: RatingLife(pools.get(pid), tuple(initial.get(pid, ())), tuple(drops.get(pid, ())))
            for pid in player_ids}


def pools_in_progress(session: Session, unrated: list[int], last: Period | None,
                      rating_pool: RatingPool = STANDARD) -> dict[int, PoolView]:
    """The pool in progress of each unrated player with a game after the last close or an open
    period to come: as of the later of the first open period and their latest game's period
    (games and closes of ``rating_pool``, whose latest closed period is ``last``, None: none).
    One statement (``pools.open_pools``) for up to 5,000 players."""
    if not unrated:
        return {}
    found = open_pools(session, unrated, last, rating_pool)
    return {pid: PoolView(str(as_of), pool.n, pool.average, pool.points, pool.needed,
                          len(pool.disregarded),
                          str(pool.first_period) if pool.first_period else None,
                          _computed_at(pool, last), _rows(pool, found.names))
            for pid, (as_of, pool) in found.pools.items()}
