"""The rating list a closed period publishes, and one player's rating history."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from decimal import Decimal

from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from ledger.db.models import (
    Game,
    InitialRating,
    InitialRatingGame,
    Player,
    RatingAdjustment,
    RatingPeriod,
)
from ledger.db.models import PeriodResult as PeriodResultRow
from ledger.db.order import player_sort_key
from ledger.domain import KReason, Period
from ledger.errors import InvalidInput, NotFound, PeriodError
from ledger.rules.kfactor import is_junior, k_factor
from ledger.services.life import RatingLife, rating_life
from ledger.services.players import PlayerView, player_views, resolve
from ledger.services.session import transaction
from ledger.services.state import first_closed_period, last_closed_period, load_histories


@dataclass(frozen=True)
class ListRow:
    """One line of a rating list. ``games``: rated games in the period; ``k``: K for the next
    period; ``inactive``: flagged ``i``, no rated game in the 12 periods ending with the list's
    (``ledger.rules.activity``)."""

    rank: int
    player_id: int
    name: str
    fide_id: int | None
    federation: str | None
    title: str | None
    rating: int
    games: int
    k: int
    k_reason: KReason
    birth_year: int | None
    inactive: bool = False
    sex: str | None = None


@dataclass(frozen=True)
class RatingList:
    """The list published by closing ``period``, in force from ``in_force_from`` (YYYY-MM-DD)."""

    period: str
    in_force_from: str
    rows: list[ListRow]


@dataclass(frozen=True)
class ListSelection:
    """Which players a published list shows (``ledger list`` filters); None keeps everyone.

    - ``active``: leave out players flagged inactive (``rules.activity``);
    - ``federation``: three-letter code; ``sex``: "M" or "F" (unknown sex never matches);
    - ``junior``: 18 or under in the year of the list's date (born in or after that year - 18;
      unknown birth year: not a junior), as B.02 §8.3.3 counts a junior's age for K;
    - ``min_games``: at least this many rated games in the period;
    - ``top``: only ranks 1 to ``top`` after the other filters (a tie at the edge keeps everyone
      sharing that rank).
    """

    federation: str | None = None
    sex: str | None = None
    junior: bool = False
    min_games: int | None = None
    top: int | None = None
    active: bool = False

    def __post_init__(self) -> None:
        if self.sex is not None and self.sex not in ("M", "F"):
            raise InvalidInput(f"sex: {self.sex!r} must be M or F")
        if self.federation is not None and not re.fullmatch(r"[A-Z]{3}", self.federation):
            raise InvalidInput(f"federation: {self.federation!r} must be a three-letter code such as ENG")
        if self.min_games is not None and self.min_games < 0:
            raise InvalidInput(f"min-games: {self.min_games} must be 0 or more")
        if self.top is not None and self.top < 1:
            raise InvalidInput(f"top: {self.top} must be 1 or more")

    def keeps(self, row: ListRow, list_month: Period) -> bool:
        """Whether ``row`` passes every filter but ``top``, on the list in force in ``list_month``
        (junior: ``rules.kfactor.is_junior`` for that month, the K rules' own test)."""
        return ((self.federation is None or row.federation == self.federation)
                and (self.sex is None or row.sex == self.sex)
                and (not self.junior or is_junior(row.birth_year, list_month))
                and (self.min_games is None or row.games >= self.min_games)
                and not (self.active and row.inactive))


def published_period(session: Session, period: str | None) -> Period:
    """The closed period whose list is asked for: ``period`` (YYYY-MM) or, for None, the latest
    closed. Raises ``PeriodError`` when none is closed, ``NotFound`` for a period not closed."""
    if period is None:
        last = last_closed_period(session)
        if last is None:
            raise PeriodError("no rating list yet: no period has been closed (`ledger period close`)")
        return last
    wanted = Period.parse(period)
    if session.get(RatingPeriod, str(wanted)) is None:
        last = last_closed_period(session)
        if last is not None and wanted < last:
            raise NotFound(f"period: {wanted} published no rating list of its own (it had no "
                           f"games when a later period was closed); see `ledger period list`")
        raise NotFound(f"period: {wanted} is not closed, so it has published no rating list")
    return wanted


def rating_list(engine: Engine, period: str | None = None,
                selection: ListSelection | None = None, *, active_only: bool = False) -> RatingList:
    """``ledger list``: the list published by closing ``period`` (default: the latest closed).

    Every player with a published rating (only those ``selection`` keeps), by rating then name;
    equal ratings share a rank, counted within the selection (ranks count the players shown).
    ``active_only`` is ``ListSelection(active=True)``: it leaves out players flagged inactive.
    Raises ``PeriodError`` when no period is closed, ``NotFound`` for a period not closed.
    """
    with transaction(engine, write=False) as session:
        closed = published_period(session, period)
        following = closed.next()
        first_closed = first_closed_period(session) or closed
        histories = load_histories(session, None, through=closed)
        games = dict(session.execute(select(PeriodResultRow.player_id, PeriodResultRow.games)
                                     .where(PeriodResultRow.period == str(closed))).all())
        games |= _initial_games_in(session, closed)
        rows = []
        for p in session.scalars(select(Player)):
            state = histories[p.id].state(closed, results_through=closed)
            if state.rating is None:
                continue
            inactive = histories[p.id].inactive(closed, first_closed)
            k, reason = k_factor(state, following)
            rows.append(ListRow(0, p.id, p.name, p.fide_id, p.federation, p.title, state.rating,
                                games.get(p.id, 0), k, reason, p.birth_year, inactive, p.sex))
        if active_only:
            selection = replace(selection or ListSelection(), active=True)
        if selection is not None:
            rows = [r for r in rows if selection.keeps(r, following)]
        rows.sort(key=lambda r: (-r.rating, *player_sort_key(r.name, r.player_id)))
        ranked: list[ListRow] = []
        for i, row in enumerate(rows, start=1):
            rank = ranked[-1].rank if ranked and ranked[-1].rating == row.rating else i
            ranked.append(replace(row, rank=rank))
        if selection is not None and selection.top is not None:
            ranked = [r for r in ranked if r.rank <= selection.top]
        return RatingList(str(closed), str(following.start), ranked)


def _initial_games_in(session: Session, closed: Period) -> dict[int, int]:
    """Player id -> games of ``closed`` in the pool of an initial rating its close published."""
    return dict(session.execute(
        select(InitialRatingGame.player_id, func.count())
        .join(Game, Game.id == InitialRatingGame.game_id)
        .join(InitialRating, (InitialRating.period == InitialRatingGame.period)
              & (InitialRating.player_id == InitialRatingGame.player_id))
        .where(InitialRatingGame.period == str(closed), Game.period == str(closed),
               InitialRating.published.is_(True))
        .group_by(InitialRatingGame.player_id)).all())


@dataclass(frozen=True)
class HistoryRow:
    """One closed period of a player's history (exact values: score, expected, change).

    A list adjustment (the 1 March 2024 raise) is a row of its own with 0 games and a ``note``."""

    period: str
    rating_before: int
    games: int
    score: Decimal
    expected: Decimal
    k: int
    k_reason: str
    k_capped: bool
    change_exact: Decimal
    change: int
    rating_after: int
    note: str | None = None


@dataclass(frozen=True)
class PlayerHistory:
    """A player, one row per period in which they were rated, and the life of their rating
    (pool in progress, initial ratings with their computation, drops below the floor)."""

    player: PlayerView
    periods: list[HistoryRow]
    life: RatingLife


def history(engine: Engine, ref: str) -> PlayerHistory:
    """``ledger history``: the player ``ref`` names and their period results, oldest first."""
    with transaction(engine, write=False) as session:
        player = resolve(session, ref)
        rows = session.scalars(select(PeriodResultRow).where(PeriodResultRow.player_id == player.id)
                               .order_by(PeriodResultRow.period))
        periods = [HistoryRow(r.period, r.rating_before, r.games, Decimal(r.score_halves) / 2,
                              Decimal(r.expected_hundredths).scaleb(-2), r.k, r.k_reason,
                              r.k != r.k_before_cap, Decimal(r.change_hundredths).scaleb(-2),
                              r.change, r.rating_after)
                   for r in rows]
        adjustments = session.scalars(select(RatingAdjustment)
                                      .where(RatingAdjustment.player_id == player.id))
        periods += [HistoryRow(a.period, a.rating_before, 0, Decimal(0), Decimal(0), 0,
                               "list adjustment", False, Decimal(a.adjustment), a.adjustment,
                               a.rating_after, note=a.rule)
                    for a in adjustments]
        periods.sort(key=lambda h: (h.period, h.note is not None))
        view = player_views(session, [player.id])[0]
        return PlayerHistory(view, periods, rating_life(session, player.id, view.rating is not None))
