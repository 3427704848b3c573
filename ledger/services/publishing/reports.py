"""``ledger period report``: what closing a period changed: the biggest gains and losses, new
(initial) ratings and ratings dropped below the floor, the K-factors that changed for the next
period and why, and the games rated (read-only)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from ledger.db.models import (
    Game,
    InitialRating,
    PeriodRevision,
    Player,
    RatingFloorDrop,
    RatingPeriod,
)
from ledger.db.models import PeriodResult as PeriodResultRow
from ledger.db.order import player_sort_key
from ledger.domain import STANDARD, KReason, Period, PlayerState, RatingPool
from ledger.errors import InvalidInput
from ledger.rules.kfactor import NEW_PLAYER_GAMES, is_junior
from ledger.rules.pools import k_in_pool
from ledger.services.close.close_report import FloorDrop, not_rated_reason
from ledger.services.close.period_audits import current_sides
from ledger.services.close.rated_games import load_rated_games
from ledger.services.close.revisions import current
from ledger.services.close.state import load_histories
from ledger.services.core.session import transaction
from ledger.services.publishing.lists import published_period
from ledger.services.register.game_views import GameView, period_game_views


@dataclass(frozen=True)
class RatingChange:
    """One player's result in the period: published rating before and after, games, score,
    expected score (sum of PD), K used (after the 700 cap) and the rounded change."""

    player_id: int
    name: str
    rating_before: int
    rating_after: int
    change: int
    games: int
    score: Decimal
    expected: Decimal
    k: int


@dataclass(frozen=True)
class KChange:
    """A K-factor that differs between the period reported (``k_before``) and the next one
    (``k_after``, from the list this period published), with the reasons and ``why`` in words."""

    player_id: int
    name: str
    k_before: int
    reason_before: KReason
    k_after: int
    reason_after: KReason
    why: str


@dataclass(frozen=True)
class NewRating:
    """An initial rating Ru the close published (FIDE B.02 §8.2): from ``games`` pooled games
    with ``score`` points."""

    player_id: int
    name: str
    rating: int
    games: int
    score: Decimal


@dataclass(frozen=True)
class RatedGameView:
    """A game rated in the period, with each side's rating used and expected score (PD), None
    for a side for whom the game was not rated (an unrated player)."""

    game: GameView
    white_rating: int | None
    black_rating: int | None
    white_expected: Decimal | None
    black_expected: Decimal | None


@dataclass
class PeriodReport:
    """A closed period in summary. ``gains``/``losses``: the largest rating changes (at most
    ``top`` each, largest first, ties by name); ``not_rated``: games recorded but not rated, by
    reason: the game's status (forfeit, no moves, initial rating: counted only in a published
    initial rating) or ``unrated player`` (rated for nobody); ``new_ratings`` and ``floor_drops``: players
    who enter and leave the list with this close."""

    period: str
    edition: str
    in_force_from: str
    players_rated: int
    gains: list[RatingChange]
    losses: list[RatingChange]
    k_changes: list[KChange]
    games: list[RatedGameView]
    not_rated: Counter[str] = field(default_factory=Counter)
    new_ratings: list[NewRating] = field(default_factory=list)
    floor_drops: list[FloorDrop] = field(default_factory=list)
    #: The rating pool reported (docs/RULES.md §9).
    pool: RatingPool = STANDARD


def _why(before: PlayerState, after: PlayerState, reason_before: KReason, reason_after: KReason,
         following: Period) -> str:
    """The words for a K change, from the two states (FIDE B.02 §8.3.3; docs/RULES.md §4)."""
    if reason_after is KReason.REACHED_2400:
        return f"published rating reached 2400 ({after.rating} on this list): K 10 for ever"
    if reason_before is KReason.JUNIOR:
        if after.reached_2300 and not before.reached_2300:
            return f"published rating reached 2300 ({after.rating}): junior K 40 ends"
        if not is_junior(after.birth_year, following):
            return f"no longer a junior in {following.year} (born {after.birth_year})"
    if reason_before is KReason.NEW_PLAYER and reason_after is KReason.STANDARD:
        return f"{after.rated_games} rated games completed ({NEW_PLAYER_GAMES} needed for K 20)"
    return f"{reason_before.value} -> {reason_after.value}"


def _k_changes(session: Session, closed: Period, names: dict[int, str],
               pool: RatingPool = STANDARD) -> list[KChange]:
    following = closed.next()
    changes = []
    for pid, history in load_histories(session, None, through=closed, pool=pool).items():
        before, after = history.state(closed), history.state(closed, results_through=closed)
        if before.rating is None or after.rating is None:
            continue
        (k_before, r_before), (k_after, r_after) = (k_in_pool(before, closed, pool),
                                                    k_in_pool(after, following, pool))
        if k_before != k_after:
            changes.append(KChange(pid, names[pid], k_before, r_before, k_after, r_after,
                                   _why(before, after, r_before, r_after, following)))
    return sorted(changes, key=lambda c: player_sort_key(c.name, c.player_id))


def _hundredths(value: int) -> Decimal:
    return Decimal(value).scaleb(-2)


def _rated_games(session: Session, closed: Period,
                 pool: RatingPool = STANDARD) -> tuple[list[RatedGameView], Counter[str]]:
    audit = current_sides(session, closed, pool)
    colours = {gid: (w, b) for gid, w, b in session.execute(
        select(Game.id, Game.white_id, Game.black_id).where(Game.period == str(closed)))}
    rated: list[RatedGameView] = []
    not_rated: Counter[str] = Counter()
    why: dict[int, str] = {}
    if pool != STANDARD:  # the 600-point rule of rapid and blitz: say so (docs/RULES.md §9)
        loaded, _ = load_rated_games(session, lambda g: g.c.period == str(closed),
                                     through=closed.previous(), pool=pool)
        why = {g.rated.game_id: reason for g in loaded
               if (reason := not_rated_reason(g.rated, pool, closed)) is not None}
    for view in period_game_views(session, closed):
        if view.pool != pool:
            continue
        if view.status != "rated":
            shown = why.get(view.id, "unrated player")
            not_rated[shown if view.status == "not rated" else view.status] += 1
            continue
        white, black = (audit.get((view.id, pid)) for pid in colours[view.id])
        rated.append(RatedGameView(
            view,
            white.own_rating if white else black.opponent_rating if black else None,
            black.own_rating if black else white.opponent_rating if white else None,
            _hundredths(white.expected_hundredths) if white else None,
            _hundredths(black.expected_hundredths) if black else None))
    return rated, not_rated


def _change(row: PeriodResultRow, name: str) -> RatingChange:
    return RatingChange(row.player_id, name, row.rating_before, row.rating_after, row.change,
                        row.games, Decimal(row.score_halves) / 2,
                        _hundredths(row.expected_hundredths), row.k)


def period_report(engine: Engine, period: str | None = None, *, top: int = 5,
                  pool: RatingPool = STANDARD) -> PeriodReport:
    """``ledger period report``: the closed ``period`` (default: the latest closed) of ``pool``
    (docs/RULES.md §9) in summary.

    ``top``: how many gains and how many losses to show (1 or more). Raises ``PeriodError`` when
    no period is closed, ``NotFound`` for a period that is not closed, ``InvalidInput`` for a bad
    ``top``.
    """
    if top < 1:
        raise InvalidInput(f"top: {top} must be 1 or more")
    with transaction(engine, write=False) as session:
        closed = published_period(session, period, pool)
        pointer = session.get_one(RatingPeriod, (str(closed), pool))
        edition = session.get_one(PeriodRevision,
                                  (pointer.period, pointer.pool, pointer.revision)).edition
        names = dict(session.execute(select(Player.id, Player.name)).all())
        results = [_change(r, names[r.player_id]) for r in session.scalars(
            select(PeriodResultRow).where(PeriodResultRow.period == str(closed),
                                          current(PeriodResultRow, pool)))]
        gains = sorted((r for r in results if r.change > 0),
                       key=lambda r: (-r.change, *player_sort_key(r.name, r.player_id)))
        losses = sorted((r for r in results if r.change < 0),
                        key=lambda r: (r.change, *player_sort_key(r.name, r.player_id)))
        games, not_rated = _rated_games(session, closed, pool)
        new = [NewRating(r.player_id, names[r.player_id], r.rating, r.games,
                         Decimal(r.score_halves) / 2)
               for r in session.scalars(select(InitialRating).where(
                   InitialRating.period == str(closed), InitialRating.published.is_(True),
                   current(InitialRating, pool)))]
        drops = [FloorDrop(d.player_id, names[d.player_id], d.rating, d.floor)
                 for d in session.scalars(select(RatingFloorDrop)
                                          .where(RatingFloorDrop.period == str(closed),
                                                 current(RatingFloorDrop, pool)))]
        return PeriodReport(str(closed), edition, str(closed.list_date()), len(results),
                            gains[:top], losses[:top], _k_changes(session, closed, names, pool),
                            games, not_rated,
                            sorted(new, key=lambda n: (-n.rating, *player_sort_key(n.name, n.player_id))),
                            sorted(drops, key=lambda d: player_sort_key(d.name, d.player_id)),
                            pool)
