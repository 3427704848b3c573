"""Initial ratings of unrated players (FIDE B.02 §7.1.4, §8.2; docs/RULES.md §6, §8).

An unrated player's results against rated opponents are pooled over consecutive rating periods, at
most 26 months back (``build_pool``); once the pool holds at least 5 games the initial rating Ru is
computed by the edition in force (``initial_rating``), and published only if it reaches the
edition's floor. A pool whose Ru is below the floor is kept and keeps growing.

Arithmetic is exact (``Fraction``); the roundings are the ones docs/RULES.md §6 decides: p to two
decimals half up, Ru to a whole number half up, then the 2200 cap, then the floor test.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from ledger.domain import Period
from ledger.rules.activity import months_before
from ledger.rules.editions import Edition, InitialMethod
from ledger.rules.tables import dp_from_p_hundredths

#: Games against rated opponents a pool needs before Ru is computed (§8.2.1).
MIN_POOL_GAMES = 5
#: A pool reaches at most this many months back, the period being closed included (§8.2.1).
POOL_MONTHS = 26
#: The rating of the two hypothetical opponents, both drawn (since 1 March 2024, §8.2.2).
HYPOTHETICAL_RATING = 1800
HYPOTHETICAL_GAMES = 2
#: 1 Jan 2022 - 29 Feb 2024: points added per half point scored above 50 %.
POINTS_PER_HALF_POINT = 20


def round_half_up(value: Fraction) -> int:
    """Round an exact non-negative value to a whole number, .5 up: 1901.5 -> 1902."""
    return int((value + Fraction(1, 2)) // 1)


@dataclass(frozen=True)
class PoolGame:
    """One game of an unrated player against a rated opponent, from the unrated player's side.

    ``period``: the rating period the game belongs to; ``event_key`` groups a tournament (None: a
    game of its own); ``opponent_rating``: the opponent's published rating at the event's start;
    ``score``: the unrated player's points, ``Decimal`` 1, 0.5 or 0.
    """

    game_id: int
    event_key: int | str | None
    period: Period
    opponent_id: int
    opponent_rating: int
    score: Decimal


@dataclass(frozen=True)
class Pool:
    """An unrated player's pool as of one period: the games counted and those disregarded.

    ``disregarded``: the games of the pool's first event when it scored zero (§7.1.4).
    ``points`` (Decimal) and ``opponents_sum`` (int) are over the counted games; ``average`` is
    the exact average opponent rating (a ``Fraction``; None for an empty pool); ``needed`` the
    games still needed to reach 5.
    """

    games: tuple[PoolGame, ...]
    disregarded: tuple[PoolGame, ...] = ()

    @property
    def n(self) -> int:
        """Games counted."""
        return len(self.games)

    @property
    def points(self) -> Decimal:
        """Points scored in the counted games."""
        return sum((g.score for g in self.games), Decimal(0))

    @property
    def opponents_sum(self) -> int:
        """Sum of the counted games' opponent ratings."""
        return sum(g.opponent_rating for g in self.games)

    @property
    def average(self) -> Fraction | None:
        """Exact average of the opponents' ratings, or None for an empty pool."""
        return Fraction(self.opponents_sum, self.n) if self.games else None

    @property
    def needed(self) -> int:
        """Games still needed before an initial rating is computed (0 when there are enough)."""
        return max(0, MIN_POOL_GAMES - self.n)

    @property
    def first_period(self) -> Period | None:
        """The earliest period of a counted game."""
        return min((g.period for g in self.games), default=None)


def build_pool(games: Sequence[PoolGame], period: Period, *, starts: Period | None = None) -> Pool:
    """The pool of an unrated player as of the close of ``period``.

    ``games``: the player's games against rated opponents (played while unrated), in the order
    played. Keeps those in the 26 periods ending with ``period`` (``period`` - 25 .. ``period``)
    and, when ``starts`` is given (the pool started over after the player fell below the floor),
    none before ``starts``. Then, if the first event among them (``event_key``; None: the game
    alone) scored zero, its games are disregarded (§7.1.4).
    """
    earliest = months_before(period, POOL_MONTHS - 1)
    if starts is not None and starts > earliest:
        earliest = starts
    kept = [g for g in games if earliest <= g.period <= period]
    if not kept:
        return Pool(())
    first = kept[0]

    def event_of(g: PoolGame) -> object:
        return g.event_key if g.event_key is not None else ("game", g.game_id)

    first_event = [g for g in kept if event_of(g) == event_of(first)]
    if sum((g.score for g in first_event), Decimal(0)) == 0:
        return Pool(tuple(g for g in kept if event_of(g) != event_of(first)), tuple(first_event))
    return Pool(tuple(kept))


@dataclass(frozen=True)
class InitialRating:
    """The whole computation of an initial rating, for storing and display.

    - ``method``, ``games`` (n, real games), ``opponents_sum``, ``points`` (real points, Decimal);
    - ``hypothetical``: hypothetical 1800 opponents added (2 since March 2024, else 0);
    - ``ra``: exact average opponent rating, hypothetical opponents included (``Fraction``);
    - ``p``: exact percentage score (``Fraction``, hypothetical draws included);
      ``p_hundredths``: p rounded to two decimals, half up, in hundredths;
    - ``dp``: from table 8.1.1 (0 when the 2022 method adds ``bonus`` instead);
      ``bonus``: 2022 method, 20 per half point above 50 %;
    - ``ru_exact`` = ra + dp + bonus; ``ru`` its rounding, half up; ``cap``: 2200 or None;
      ``rating``: Ru after the cap; ``floor``: the edition's floor.
    """

    method: InitialMethod
    games: int
    opponents_sum: int
    points: Decimal
    hypothetical: int
    ra: Fraction
    p: Fraction
    p_hundredths: int
    dp: int
    bonus: int
    ru_exact: Fraction
    ru: int
    cap: int | None
    rating: int
    floor: int

    @property
    def capped(self) -> bool:
        """True when the 2200 cap lowered Ru."""
        return self.rating != self.ru

    @property
    def published(self) -> bool:
        """True when the rating reaches the floor and goes on the list (§8.2.3)."""
        return self.rating >= self.floor


def initial_rating(opponent_ratings: Sequence[int], points: Decimal,
                   edition: Edition) -> InitialRating:
    """Ru from the pooled games' opponent ratings and the points scored, by ``edition``.

    Since 1 March 2024 (RULES §6): Ra = (sum + 3600) / (n + 2); p = (points + 1) / (n + 2) rounded
    to two decimals half up; Ru = Ra + dp(p), rounded half up, at most 2200. Example: opponents
    1600 .. 2000 and 3.5 points: Ra 12600 / 7 = 1800, p 4.5 / 7 = .643 -> .64 -> dp 102 -> 1902.
    1 Jan 2022 - 29 Feb 2024 (RULES §8): Ra = sum / n; at p >= 50 % Ru = Ra + 20 per half point
    above 50 %, below 50 % Ru = Ra + dp(p); no cap. Floors: 1400 / 1000.
    Raises ``ValueError`` for no games or points outside 0..n.
    """
    n = len(opponent_ratings)
    if n == 0:
        raise ValueError("an initial rating needs at least one game")
    if not 0 <= points <= n or points * 2 != int(points * 2):
        raise ValueError(f"points {points} impossible in {n} games")
    method = edition.initial_method
    hypothetical = HYPOTHETICAL_GAMES if method is InitialMethod.TWO_1800_DRAWS else 0
    exact_points = Fraction(points)
    total = sum(opponent_ratings) + hypothetical * HYPOTHETICAL_RATING
    ra = Fraction(total, n + hypothetical)
    p = (exact_points + Fraction(hypothetical, 2)) / (n + hypothetical)
    p_hundredths = round_half_up(p * 100)
    dp, bonus = dp_from_p_hundredths(p_hundredths), 0
    if method is InitialMethod.RA_PLUS_20 and p >= Fraction(1, 2):
        half_points_above = int((exact_points - Fraction(n, 2)) * 2)
        dp, bonus = 0, POINTS_PER_HALF_POINT * half_points_above
    ru_exact = ra + dp + bonus
    ru = round_half_up(ru_exact)
    cap = edition.initial_cap
    return InitialRating(
        method=method, games=n, opponents_sum=sum(opponent_ratings), points=points,
        hypothetical=hypothetical, ra=ra, p=p, p_hundredths=p_hundredths, dp=dp, bonus=bonus,
        ru_exact=ru_exact, ru=ru, cap=cap, rating=min(ru, cap) if cap is not None else ru,
        floor=edition.rating_floor)


def rate_pool(pool: Pool, edition: Edition) -> InitialRating | None:
    """Ru for ``pool`` under ``edition`` once it holds at least 5 games; None before."""
    if pool.n < MIN_POOL_GAMES:
        return None
    return initial_rating([g.opponent_rating for g in pool.games], pool.points, edition)
