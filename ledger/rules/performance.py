"""Performance rating Rp = Ra + dp and the norm arithmetic (FIDE B.01 Title Regulations §1.4.6-1.4.9,
table 8.1.1; docs/RULES.md §7).

- Ra: the opponents' average rating, rounded to a whole number, .5 up (§1.4.7b).
- p: points / games as a whole percentage, .5 up (the sentence under table 1.4.9); dp(p) from table
  8.1.1 (identical to table 1.4.9), dp(1 - p) = -dp(p).
- Rp = Ra + dp (§1.4.8).
- The "algorithm of 400", (sum of opponents' ratings + 400 x (W - L)) / n, is the estimate the
  seeds' calculators print beside Rp; it is offered for comparison only.
- Norms (§1.4.6b-d, §1.4.8-1.4.9): an opponent below the norm's rating floor (GM 2200, IM 2050,
  WGM 2000, WIM 1850) has their rating raised to the floor, at most one opponent and the lowest
  one; unrated opponents not so raised count as 1400. A norm needs Rp and Ra at or above the
  norm's thresholds (GM 2600/2380, IM 2450/2230, WGM 2400/2180, WIM 2250/2030) and a score of at
  least 35 %.

**Decision** (§1.4.6c-d): "Unrated opponents not covered by 1.4.6b shall be considered to be rated
1400" is read as FIDE's wording says: an unrated opponent counts as 1400 and is therefore a
candidate for the one raise to the floor like any other opponent below it; when it is the lowest,
it is the one raised. Only when a rated opponent is lower still (1400 or less) does the unrated
opponent stay at 1400.

Everything is exact (``Fraction``); the only roundings are the two .5-up roundings above.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from ledger.rules.tables import dp_from_p_hundredths

#: The rating an unrated opponent counts as for norms (§1.4.6d).
UNRATED_OPPONENT_RATING = 1400
#: The least score, as a fraction of the games, a norm needs (§1.4.9b).
NORM_MIN_SCORE = Fraction(35, 100)
#: The least number of games a norm needs (§1.4.2a; FIDE allows 7 in a few team events, which the
#: ledger cannot tell apart, so it asks for 9).
NORM_MIN_GAMES = 9
#: Points a game can give: loss, draw, win.
SCORES = (Fraction(0), Fraction(1, 2), Fraction(1))


def round_half_up(value: Fraction) -> int:
    """Round an exact value to a whole number, .5 upward (§1.4.7b): 2366.5 -> 2367, -7.5 -> -7."""
    return math.floor(value + Fraction(1, 2))


@dataclass(frozen=True)
class Performance:
    """A performance rating over ``n`` games (Title Regs §1.4.7-1.4.8).

    - ``opponents_sum``: sum of the opponents' ratings as counted (int); ``ra_exact`` the exact
      average (``Fraction``), ``ra`` its .5-up rounding (int).
    - ``points``: the player's score (``Fraction``); ``wins``, ``draws``, ``losses``: counts.
    - ``p_exact`` = points / n; ``p``: whole percent, .5 up (int 0..100); ``dp`` from table 8.1.1.
    - ``rp`` = ``ra`` + ``dp``.
    - ``algorithm_of_400_exact`` = (opponents_sum + 400 x (wins - losses)) / n (``Fraction``) and
      ``algorithm_of_400`` its .5-up rounding: the seeds' estimate, for comparison only.
    """

    n: int
    opponents_sum: int
    ra_exact: Fraction
    ra: int
    points: Fraction
    wins: int
    draws: int
    losses: int
    p_exact: Fraction
    p: int
    dp: int
    rp: int
    algorithm_of_400_exact: Fraction
    algorithm_of_400: int


def average_rating(ratings: Sequence[int]) -> int:
    """Ra: the average of ``ratings`` rounded to a whole number, .5 up (§1.4.7).

    ``average_rating([2300, 2345]) == 2323`` (2322.5 -> 2323). Raises ``ValueError`` when empty.
    """
    if not ratings:
        raise ValueError("no opponents: the average rating needs at least one game")
    return round_half_up(Fraction(sum(ratings), len(ratings)))


def percentage(points: Fraction, games: int) -> int:
    """p: ``points`` / ``games`` as a whole percentage, .5 up (under table 1.4.9).

    ``percentage(Fraction(5), 9) == 56`` (55.56 %). Raises ``ValueError`` for ``games`` < 1 or
    points outside 0..games.
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if not 0 <= points <= games:
        raise ValueError(f"points {points} outside 0..{games}")
    return round_half_up(points * 100 / games)


def performance(opponent_ratings: Sequence[int], scores: Sequence[Fraction]) -> Performance:
    """Rp = Ra + dp over the games given (Title Regs §1.4.7-1.4.8, table 8.1.1).

    ``opponent_ratings[i]``: the rating counted for game i's opponent (int); ``scores[i]``: the
    player's points in game i, ``Fraction`` 0, 1/2 or 1. Seed: nine opponents averaging 2322 and 5
    points -> p .556 -> 56 -> dp 43 -> Rp 2365. Raises ``ValueError`` for no games, lengths that
    differ, or a score other than 0, 1/2, 1.
    """
    if len(opponent_ratings) != len(scores):
        raise ValueError(f"{len(opponent_ratings)} ratings for {len(scores)} scores")
    bad = [s for s in scores if s not in SCORES]
    if bad:
        raise ValueError(f"a game scores 0, 1/2 or 1, got {bad[0]}")
    n = len(scores)
    ra = average_rating(opponent_ratings)
    points = sum(scores, Fraction(0))
    wins = sum(1 for s in scores if s == 1)
    losses = sum(1 for s in scores if s == 0)
    p = percentage(points, n)
    dp = dp_from_p_hundredths(p)
    total = sum(opponent_ratings)
    estimate = Fraction(total + 400 * (wins - losses), n)
    return Performance(
        n=n, opponents_sum=total, ra_exact=Fraction(total, n), ra=ra, points=points, wins=wins,
        draws=n - wins - losses, losses=losses, p_exact=points / n, p=p, dp=dp, rp=ra + dp,
        algorithm_of_400_exact=estimate, algorithm_of_400=round_half_up(estimate))


class Norm(enum.Enum):
    """A title norm (Title Regs §1.4.6b, §1.4.8-1.4.9), with ``floor`` (the opponents' adjusted
    rating floor), ``min_rp`` (the least performance rating) and ``min_ra`` (the least average
    rating of the opponents), all ints."""

    GM = "GM"
    IM = "IM"
    WGM = "WGM"
    WIM = "WIM"

    @property
    def floor(self) -> int:
        """The adjusted rating floor (§1.4.6b): GM 2200, IM 2050, WGM 2000, WIM 1850."""
        return NORM_THRESHOLDS[self][0]

    @property
    def min_rp(self) -> int:
        """The least Rp (§1.4.8): GM 2600, IM 2450, WGM 2400, WIM 2250."""
        return NORM_THRESHOLDS[self][1]

    @property
    def min_ra(self) -> int:
        """The least Ra (§1.4.8a): GM 2380, IM 2230, WGM 2180, WIM 2030."""
        return NORM_THRESHOLDS[self][2]

    @classmethod
    def parse(cls, text: str) -> Norm:
        """``"GM"``, ``"im"`` ... -> the norm; raises ``ValueError`` for another text."""
        try:
            return cls(text.strip().upper())
        except ValueError:
            raise ValueError(f"{text!r} is not a norm; use GM, IM, WGM or WIM") from None


#: Norm -> (rating floor, least Rp, least Ra), Title Regs §1.4.6b and §1.4.8.
NORM_THRESHOLDS: Final[dict[Norm, tuple[int, int, int]]] = {
    Norm.GM: (2200, 2600, 2380),
    Norm.IM: (2050, 2450, 2230),
    Norm.WGM: (2000, 2400, 2180),
    Norm.WIM: (1850, 2250, 2030),
}


@dataclass(frozen=True)
class NormOpponent:
    """One opponent as the norm counts them: ``rating`` (published, or None: unrated),
    ``counted`` (the rating used), ``raised`` (True for the one raised to the floor)."""

    rating: int | None
    counted: int
    raised: bool

    @property
    def unrated(self) -> bool:
        """True when the opponent had no published rating."""
        return self.rating is None


@dataclass(frozen=True)
class NormCheck:
    """Whether a result reaches a norm (Title Regs §1.4.6-1.4.9).

    ``opponents`` in the order given; ``performance`` over the counted ratings; ``rp_reached``:
    Rp >= ``norm.min_rp``; ``ra_reached``: Ra >= ``norm.min_ra``; ``score_reached``: points at
    least 35 % of the games (exact, no rounding); ``games_reached``: at least 9 games (§1.4.2a);
    ``reached``: all four. The other conditions of §1.4.2-1.4.5 (titled and foreign opponents,
    the kind of event) are not checked.
    """

    norm: Norm
    opponents: tuple[NormOpponent, ...]
    performance: Performance
    rp_reached: bool
    ra_reached: bool
    score_reached: bool

    @property
    def games_reached(self) -> bool:
        """True when the games counted are at least ``NORM_MIN_GAMES`` (9)."""
        return self.performance.n >= NORM_MIN_GAMES

    @property
    def reached(self) -> bool:
        """True when Rp, Ra, the score and the number of games all reach the norm's thresholds."""
        return self.rp_reached and self.ra_reached and self.score_reached and self.games_reached


def norm_opponents(ratings: Sequence[int | None], norm: Norm) -> tuple[NormOpponent, ...]:
    """The opponents' ratings as a norm counts them (§1.4.6b-d; see the module's Decision).

    Unrated (None) counts as 1400; then the lowest opponent below ``norm.floor`` (the first such
    in the order given, when several are equally low) is raised to the floor, and no other.
    ``norm_opponents([2150, None, 2400], Norm.GM)`` counts 2150, 2200 (raised), 2400.
    """
    counted = [UNRATED_OPPONENT_RATING if r is None else r for r in ratings]
    below = [i for i, r in enumerate(counted) if r < norm.floor]
    lowest = min(below, key=lambda i: counted[i]) if below else None
    return tuple(
        NormOpponent(rating=r, counted=norm.floor if i == lowest else counted[i], raised=i == lowest)
        for i, r in enumerate(ratings))


def norm_check(ratings: Sequence[int | None], scores: Sequence[Fraction], norm: Norm) -> NormCheck:
    """Check one tournament's games against ``norm``.

    ``ratings[i]``: game i's opponent's published rating at the event's start, or None when
    unrated; ``scores[i]``: the player's points (0, 1/2, 1). Returns a ``NormCheck``; raises
    ``ValueError`` as ``performance`` does.
    """
    opponents = norm_opponents(ratings, norm)
    perf = performance([o.counted for o in opponents], scores)
    return NormCheck(
        norm=norm, opponents=opponents, performance=perf,
        rp_reached=perf.rp >= norm.min_rp, ra_reached=perf.ra >= norm.min_ra,
        score_reached=perf.points >= NORM_MIN_SCORE * perf.n)
