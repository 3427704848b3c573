"""Expected score, the 400-point rule by edition (B.02 §8.3.1; RULES.md §3, §8), logistic curve.

Every expected value is read from table 8.1.2 (RULES.md §3) and worked by hand beside it.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from ledger.domain import Period
from ledger.errors import PeriodError
from ledger.rules.editions import Edition, edition_for
from ledger.rules.expected import cap_difference, logistic_expected, rule_400_applies_to
from ledger.rules.period import PlayerGame, rate_player

WIN = Decimal(1)
LOSS = Decimal(0)


# --- the 400-point rule: who it applies to, by edition --------------------------------------------


@pytest.mark.parametrize(
    ("rating", "applies"),
    [
        (2200, True),
        (2649, True),  # "below 2650" -> still capped
        (2650, False),  # "2650 or more uses the real difference"
        (2700, False),
        (2850, False),
    ],
)
def test_rule_400_from_october_2025_only_below_2650(rating: int, applies: bool) -> None:
    assert rule_400_applies_to(rating, Edition.E2025_10) is applies


@pytest.mark.parametrize("edition", [Edition.E2024_03, Edition.E2022_01])
@pytest.mark.parametrize("rating", [1000, 2200, 2649, 2650, 2700, 2850])
def test_rule_400_before_october_2025_applies_to_everyone(edition: Edition, rating: int) -> None:
    # RULES.md §8: 1 Mar 2024 - 30 Sep 2025 "the 400-point rule applies to every player";
    # 2022-01 applies it to everyone too (one game per event, chosen in rules.period).
    assert rule_400_applies_to(rating, edition) is True


@pytest.mark.parametrize(
    ("d", "counted"),
    [
        (0, 0),
        (399, 399),
        (400, 400),  # "more than 400 counts as 400": 400 itself is unchanged
        (401, 400),
        (500, 400),
        (-400, -400),
        (-401, -400),
        (-1000, -400),
        (-150, -150),
    ],
)
def test_cap_difference(d: int, counted: int) -> None:
    assert cap_difference(d) == counted


# --- RULES.md §3 example: 2700 beats 2200 ---------------------------------------------------------


def test_rules_example_2700_beats_2200_from_october_2025() -> None:
    # The 2700 player (>= 2650): real D = 500 -> band 485-517 -> .96; S - PD = 1 - .96 = .04;
    # K 10 -> +0.4.
    high = rate_player(1, 2700, [PlayerGame(1, "e", 2, 2700, 2200, WIN)], Edition.E2025_10, k=10)
    assert high.games[0].counted_difference == 500
    assert high.games[0].capped is False
    assert high.expected == Decimal("0.96")
    assert high.change_exact == Decimal("0.4")
    assert high.change == 0  # 0.4 -> 0
    # The 2200 player: D = -500 capped at -400 -> 1 - .92 = .08; S - PD = 0 - .08; K 20 -> -1.6.
    low = rate_player(2, 2200, [PlayerGame(1, "e", 1, 2200, 2700, LOSS)], Edition.E2025_10, k=20)
    assert low.games[0].difference == -500
    assert low.games[0].counted_difference == -400
    assert low.games[0].capped is True
    assert low.expected == Decimal("0.08")
    assert low.change_exact == Decimal("-1.6")
    assert low.change == -2  # -1.6 -> -2
    # The two changes do not cancel out (+0.4 vs -1.6): no zero-sum rule.
    assert high.change_exact + low.change_exact == Decimal("-1.2")


def test_2700_beats_2200_under_march_2024_rules_is_capped_too() -> None:
    # E2024_03: everyone capped. 2700 player: D 500 -> 400 -> band 392-411 -> .92;
    # 1 - .92 = .08; K 10 -> +0.8 -> +1.
    high = rate_player(1, 2700, [PlayerGame(1, "e", 2, 2700, 2200, WIN)], Edition.E2024_03, k=10)
    assert high.games[0].counted_difference == 400
    assert high.games[0].capped is True
    assert high.expected == Decimal("0.92")
    assert high.change_exact == Decimal("0.8")
    assert high.change == 1
    # The 2200 player is the same as under E2025_10: .08, K 20 -> -1.6.
    low = rate_player(2, 2200, [PlayerGame(1, "e", 1, 2200, 2700, LOSS)], Edition.E2024_03, k=20)
    assert low.expected == Decimal("0.08")
    assert low.change_exact == Decimal("-1.6")


# --- edition boundaries (RULES.md §8) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("period", "edition"),
    [
        (Period(2022, 1), Edition.E2022_01),
        (Period(2024, 2), Edition.E2022_01),  # to 29 Feb 2024
        (Period(2024, 3), Edition.E2024_03),  # from 1 Mar 2024
        (Period(2025, 9), Edition.E2024_03),  # to 30 Sep 2025
        (Period(2025, 10), Edition.E2025_10),  # from 1 Oct 2025
        (Period(2026, 11), Edition.E2025_10),
    ],
)
def test_edition_for_period(period: Period, edition: Edition) -> None:
    assert edition_for(period) is edition


def test_edition_before_2022_is_refused() -> None:
    with pytest.raises(PeriodError):
        edition_for(Period(2021, 12))


# --- logistic curve, for comparison only ----------------------------------------------------------


def test_logistic_d_400() -> None:
    # 1 / (1 + 10^-1) = 1 / 1.1 = 0.90909...
    assert logistic_expected(400) == pytest.approx(0.909, abs=5e-4)
    assert logistic_expected(400) == pytest.approx(1 / 1.1)


def test_logistic_d_0() -> None:
    # 1 / (1 + 10^0) = 1 / 2
    assert logistic_expected(0) == pytest.approx(0.5)


def test_logistic_d_minus_400() -> None:
    # 1 / (1 + 10^1) = 1 / 11 = 0.0909...
    assert logistic_expected(-400) == pytest.approx(1 / 11)


# ---------------------------------------------------------------------------
# The one-time raise on the 1 March 2024 list (RULES.md §8): +round(0.4 x (2000 - R)) below 2000
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rating", "raise_by"),
    [
        (1600, 160),  # 0.4 x 400 = 160
        (1000, 400),  # 0.4 x 1000 = 400
        (1999, 0),    # 0.4 x 1 = 0.4 -> 0
        (1998, 1),    # 0.4 x 2 = 0.8 -> 1
        (1995, 2),    # 0.4 x 5 = 2.0
        (1618, 153),  # 0.4 x 382 = 152.8 -> 153
        (2000, 0),    # not below 2000
        (2400, 0),
    ],
)
def test_march_2024_raise(rating: int, raise_by: int) -> None:
    from ledger.rules.editions import list_adjustment

    assert list_adjustment(Period(2024, 2), rating) == raise_by


def test_no_raise_on_other_lists() -> None:
    from ledger.rules.editions import list_adjustment

    assert list_adjustment(Period(2024, 1), 1600) == 0
    assert list_adjustment(Period(2024, 3), 1600) == 0
