"""K-factor precedence and the K x n <= 700 cap (B.02 §8.3.3; RULES.md §4)."""

from __future__ import annotations

import pytest

from ledger.domain import KReason, Period, PlayerState
from ledger.rules.kfactor import cap_k, is_junior, k_factor

NOV_2025 = Period(2025, 11)


# --- precedence -----------------------------------------------------------------------------------


def test_reached_2400_gives_10_even_for_newcomer_with_no_games() -> None:
    # Rule 1 beats rule 3: "a 2400+ newcomer gets 10" (RULES.md §4 Decision).
    state = PlayerState(rating=2450, rated_games=0, reached_2400=True, reached_2300=True)
    assert k_factor(state, NOV_2025) == (10, KReason.REACHED_2400)


def test_reached_2400_gives_10_even_for_junior() -> None:
    # Born 2010, period 2025: 15 <= 18 -> junior; but rule 1 comes first -> 10.
    state = PlayerState(rating=2410, birth_year=2010, rated_games=5, reached_2400=True,
                        reached_2300=True)
    assert k_factor(state, NOV_2025) == (10, KReason.REACHED_2400)


def test_reached_2400_is_sticky_after_dropping_below() -> None:
    # "for ever, even after dropping below 2400": published 2350 now, 2400 reached earlier -> 10.
    state = PlayerState(rating=2350, rated_games=300, reached_2400=True, reached_2300=True)
    assert k_factor(state, NOV_2025) == (10, KReason.REACHED_2400)


def test_junior_who_reached_2300_with_30_games_gets_20() -> None:
    # Junior (2025 - 2010 = 15) but a published rating reached 2300 -> not rule 2;
    # 30 games -> not rule 3 -> 20.
    state = PlayerState(rating=2310, birth_year=2010, rated_games=30, reached_2300=True)
    assert k_factor(state, NOV_2025) == (20, KReason.STANDARD)


def test_junior_who_reached_2300_with_few_games_gets_40_as_new_player() -> None:
    # Not junior-K (reached 2300) but fewer than 30 games -> rule 3 -> 40.
    state = PlayerState(rating=2310, birth_year=2010, rated_games=12, reached_2300=True)
    assert k_factor(state, NOV_2025) == (40, KReason.NEW_PLAYER)


def test_junior_gets_40_even_with_many_games() -> None:
    state = PlayerState(rating=2000, birth_year=2010, rated_games=250)
    assert k_factor(state, NOV_2025) == (40, KReason.JUNIOR)


def test_junior_through_december_of_the_year_they_turn_18() -> None:
    # Born 2008: 2026 - 2008 = 18 <= 18 -> junior in 2026-12; 2027 - 2008 = 19 -> not in 2027-01.
    state = PlayerState(rating=2000, birth_year=2008, rated_games=100)
    assert is_junior(2008, Period(2026, 12)) is True
    assert is_junior(2008, Period(2027, 1)) is False
    assert k_factor(state, Period(2026, 12)) == (40, KReason.JUNIOR)
    assert k_factor(state, Period(2027, 1)) == (20, KReason.STANDARD)


def test_unknown_birth_year_is_never_junior() -> None:
    assert is_junior(None, NOV_2025) is False
    state = PlayerState(rating=1800, birth_year=None, rated_games=100)
    assert k_factor(state, NOV_2025) == (20, KReason.STANDARD)


@pytest.mark.parametrize(("games", "k"), [(0, 40), (1, 40), (29, 40), (30, 20), (31, 20)])
def test_fewer_than_30_games_gives_40(games: int, k: int) -> None:
    # Adult (born 1980); "fewer than 30 rated games before this period -> 40", else 20.
    state = PlayerState(rating=1700, birth_year=1980, rated_games=games)
    assert k_factor(state, NOV_2025)[0] == k


def test_unknown_games_history_is_established() -> None:
    # rated_games None: history unknown -> treated as 30 or more -> 20.
    state = PlayerState(rating=1900, birth_year=1980, rated_games=None)
    assert k_factor(state, NOV_2025) == (20, KReason.STANDARD)


# --- the 700 cap ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("k", "n", "capped"),
    [
        (40, 18, 38),  # 40 x 18 = 720 > 700 -> floor(700/18) = 38 (38 x 18 = 684)
        (20, 36, 19),  # 20 x 36 = 720 > 700 -> floor(700/36) = 19 (19 x 36 = 684)
        (20, 39, 17),  # 20 x 39 = 780 > 700 -> floor(700/39) = 17 (17 x 39 = 663; 18 x 39 = 702)
        (10, 71, 9),  # 10 x 71 = 710 > 700 -> floor(700/71) = 9 (9 x 71 = 639)
        (40, 17, 40),  # 40 x 17 = 680 <= 700 -> unchanged
        (40, 19, 36),  # 40 x 19 = 760 > 700 -> floor(700/19) = 36 (36 x 19 = 684; 37 x 19 = 703)
        (20, 35, 20),  # 20 x 35 = 700, not more than 700 -> unchanged
        (10, 70, 10),  # 10 x 70 = 700 -> unchanged
        (40, 0, 40),  # no games: K unchanged
    ],
)
def test_cap_k(k: int, n: int, capped: int) -> None:
    assert cap_k(k, n) == capped
