"""The seeds' calculators (``ledger calc``): expected score, a period's rating change worked as a
worksheet, and the expected-score table. No database; every number comes from the rules code the
period close uses (``ledger.rules.expected``, ``kfactor``, ``period``), never a second copy.

Ratings and results come from the command line as text; bad ``OPPONENT:RESULT`` tokens are all
reported together (``UsageError``, exit code 2) and nothing is calculated.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

from ledger.domain import HALF, MAX_RATING, MIN_RATING, ONE, ZERO, Period
from ledger.errors import UsageError, shown
from ledger.rules.editions import Edition, edition_for
from ledger.rules.expected import (
    cap_difference,
    expected_score,
    logistic_expected,
    rule_400_applies_to,
)
from ledger.rules.performance import round_half_up

if TYPE_CHECKING:
    from ledger.rules.period import PeriodResult

#: Result tokens of ``OPPONENT:RESULT``, the player's points.
RESULT_TOKENS: dict[str, Decimal] = {
    "1": ONE, "=": HALF, "1/2": HALF, "½": HALF, "0.5": HALF, "0": ZERO,
}
_RATING_RE = re.compile(r"[0-9]{1,5}")


@dataclass(frozen=True)
class CalcGame:
    """One ``OPPONENT:RESULT`` argument: ``position`` (1-based), ``token`` as typed, the
    opponent's rating and the player's ``score`` (Decimal 1, 0.5, 0)."""

    position: int
    token: str
    opponent_rating: int
    score: Decimal


def parse_games(tokens: list[str]) -> list[CalcGame]:
    """Read ``OPPONENT:RESULT`` tokens (``1800:=``, ``1400:1``, ``2000:0``; a draw also ``1/2``,
    ``½``, ``0.5``). Raises ``UsageError`` listing every bad token with its position."""
    games, problems = [], []
    for position, token in enumerate(tokens, start=1):
        found = _token_problems(token)
        problems += [f"GAME {position} {shown(token)}: {p}" for p in found]
        if not found:
            opponent, _, result = token.strip().partition(":")
            games.append(CalcGame(position, token, int(opponent), RESULT_TOKENS[result.strip()]))
    if problems:
        raise UsageError(f"{len(problems)} problem(s) in the GAME arguments; nothing was "
                         "calculated:\n" + "\n".join(f"  {p}" for p in problems))
    return games


def _token_problems(token: str) -> list[str]:
    """What is wrong with one ``OPPONENT:RESULT`` token (empty when nothing is)."""
    opponent, sep, result = token.strip().partition(":")
    if not sep:
        return ["write OPPONENT:RESULT, e.g. 1800:= or 1400:1"]
    problems = []
    if not _RATING_RE.fullmatch(opponent.strip()):
        problems.append(f"opponent {shown(opponent)} is not a rating")
    elif not MIN_RATING <= int(opponent) <= MAX_RATING:
        problems.append(f"opponent {int(opponent)} is outside {MIN_RATING}..{MAX_RATING}")
    if result.strip() not in RESULT_TOKENS:
        problems.append(f"result {shown(result)} is not one of {', '.join(RESULT_TOKENS)}")
    return problems


@dataclass(frozen=True)
class ChangeWorksheet:
    """``ledger calc change``: the games as typed and the rules' ``PeriodResult`` (per game D,
    D counted, PD, S - PD; K after the cap; the exact sum and the one rounding).

    ``fide_rules``: the 400-point rule (by ``rating``, under ``edition``) and the 700 cap were
    applied; otherwise ``edition`` is None and every game uses its real D with K as given.
    """

    rating: int
    k_given: int
    fide_rules: bool
    edition: Edition | None
    games: list[CalcGame]
    result: PeriodResult

    @property
    def k_reduced(self) -> bool:
        """True when the 700 rule cut K (K x n > 700)."""
        return self.result.k != self.k_given


def today_edition(today: dt.date | None) -> Edition:
    """The rule edition in force on ``today`` (default: the date today)."""
    return edition_for(Period.of(today or dt.date.today()))


def change_worksheet(rating: int, k: int, tokens: list[str], *, fide_rules: bool = False,
                     today: dt.date | None = None) -> ChangeWorksheet:
    """K x sum(S - PD) for a player rated ``rating`` with K ``k`` over the GAME ``tokens``.

    Without ``fide_rules``: the seeds' plain sum, real D, K as given. With it: the 400-point
    rule by the player's rating under the edition in force on ``today`` and the 700 cap, both
    applied by ``ledger.rules.period.rate_player`` exactly as a period close does. Raises
    ``UsageError`` for bad tokens.
    """
    from ledger.rules.period import PlayerGame, rate_player  # and the pools: ``calc change`` only
    games = parse_games(tokens)
    edition = today_edition(today)
    player_games = [PlayerGame(game_id=g.position, event_key=None, opponent_id=g.position,
                               own_rating=rating, opponent_rating=g.opponent_rating, score=g.score)
                    for g in games]
    result = rate_player(0, rating, player_games, edition, k, fide_rules=fide_rules)
    return ChangeWorksheet(rating, k, fide_rules, edition if fide_rules else None, games, result)


def odds_text(pd: Decimal) -> str:
    """Odds PD / (1 - PD) of the player whose expected score is ``pd``, two decimals, .5 up:
    ``0.64`` -> ``"1.78 : 1"``, ``0.36`` -> ``"1 : 1.78"``, ``1.00`` -> ``"1 : 0"``."""
    if pd in (ONE, ZERO):
        return "1 : 0" if pd == ONE else "0 : 1"
    higher = max(pd, ONE - pd)
    ratio = Fraction(higher) / Fraction(ONE - higher)
    text = f"{Decimal(round_half_up(ratio * 100)).scaleb(-2):.2f}"
    return f"{text} : 1" if pd >= HALF else f"1 : {text}"


@dataclass(frozen=True)
class SideExpectation:
    """One player of ``calc expected``: ``rating``; ``pd`` from table 8.1.2 with the real D;
    ``counted_difference`` and ``pd_counted`` after the 400-point rule as it applies to this
    player under today's edition (``capped`` when it changed D); ``logistic`` the float
    1 / (1 + 10^(-D/400)), for comparison only; ``points`` = games x ``pd_counted`` (exact)."""

    rating: int
    difference: int
    pd: Decimal
    counted_difference: int
    pd_counted: Decimal
    capped: bool
    logistic: float
    points: Decimal
    logistic_points: float


@dataclass(frozen=True)
class ExpectedView:
    """``ledger calc expected``: D = first - second, both players' sides, the odds of the first
    from the table PD, and the edition whose 400-point rule was applied."""

    difference: int
    games: int
    edition: Edition
    first: SideExpectation
    second: SideExpectation
    odds: str


def _side(own: int, other: int, games: int, edition: Edition) -> SideExpectation:
    d = own - other
    counted = cap_difference(d) if rule_400_applies_to(own, edition) else d
    pd_counted = expected_score(counted)
    logistic = logistic_expected(d)
    return SideExpectation(own, d, expected_score(d), counted, pd_counted, counted != d,
                           logistic, games * pd_counted, games * logistic)


def expected(first: int, second: int, *, games: int = 1,
             today: dt.date | None = None) -> ExpectedView:
    """PD of ``first`` against ``second`` and back (table 8.1.2), the 400-point rule for each
    under the edition in force on ``today``, the logistic values, the odds, and the expected
    points over ``games`` games. 1800 v 1600: D 200 -> 0.76 / 0.24, odds 3.17 : 1."""
    edition = today_edition(today)
    one, two = _side(first, second, games, edition), _side(second, first, games, edition)
    return ExpectedView(first - second, games, edition, one, two, odds_text(one.pd))


@dataclass(frozen=True)
class TableRow:
    """One row of ``ledger calc table``: the rating ``gap``; ``pd_higher`` / ``pd_lower`` from
    table 8.1.2; the ``odds`` of the higher-rated player; the logistic values (floats, for
    comparison only); ``fide_higher`` / ``fide_lower``: PD with the 400-point rule as it applies
    to players rated below 2650 (``capped`` when the gap is above 400)."""

    gap: int
    pd_higher: Decimal
    pd_lower: Decimal
    odds: str
    logistic_higher: float
    logistic_lower: float
    fide_higher: Decimal
    fide_lower: Decimal
    capped: bool


def expected_table(step: int = 10, maximum: int = 800) -> list[TableRow]:
    """Rows for gaps 0, ``step``, 2 x ``step`` ... up to ``maximum``. Gap 100: 0.64 / 0.36,
    odds 1.78 : 1; gap 400: logistic 0.909, FIDE 0.92; gap 410: FIDE 0.92, capped."""
    rows = []
    for gap in range(0, maximum + 1, step):
        pd, counted = expected_score(gap), cap_difference(gap)
        rows.append(TableRow(gap, pd, expected_score(-gap), odds_text(pd), logistic_expected(gap),
                             logistic_expected(-gap), expected_score(counted),
                             expected_score(-counted), counted != gap))
    return rows
