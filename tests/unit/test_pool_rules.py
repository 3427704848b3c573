"""The rapid and blitz rules (docs/RULES.md §9): the pool of a time control, K by pool and date,
the 400-point rule without the 2650 exemption, the 600-point rule from 2024-12, the 2022 raise.
Every expected value is worked by hand in its comment."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from ledger.domain import KReason, Period, PlayerState, RatedGame, Result
from ledger.errors import InvalidInput
from ledger.rules.editions import Edition
from ledger.rules.period import rate_period
from ledger.rules.pools import (
    gap_rule_excludes,
    k_in_pool,
    minutes_for_60_moves,
    parse_pgn_time_control,
    parse_time_control,
    parse_trf_time_control,
    pool_of_minutes,
    raise_2022,
    seeded_from_standard,
)


@pytest.mark.parametrize(("text", "minutes", "pool"), [
    ("15+10", 25, "rapid"),      # 15 + 10 s x 60 / 60 = 25: above 10, below 60 -> rapid
    ("3+2", 5, "blitz"),         # 3 + 2 = 5: above 3, at most 10 -> blitz
    ("10+0", 10, "blitz"),       # 10: at most 10 -> blitz
    ("60+0", 60, "standard"),    # 60: 60 or more -> standard
    ("90+30", 120, "standard"),  # 90 + 30 = 120 -> standard
    ("90 min + 30 s", 120, "standard"),
    ("90'+30''", 120, "standard"),
])
def test_the_pool_of_a_time_control_as_people_write_it(text: str, minutes: int,
                                                       pool: str) -> None:
    control = parse_time_control(text)
    assert control is not None
    assert (control.minutes, control.pool) == (minutes, pool)


@pytest.mark.parametrize(("text", "minutes", "pool"), [
    ("900+10", 25, "rapid"),               # 900 s = 15 min, + 10 s x 60 / 60 = 25 -> rapid
    ("180+2", 5, "blitz"),                 # 180 s = 3 min, + 2 = 5 -> blitz
    ("40/5400:1800+30", 150, "standard"),  # 5400 + 1800 s = 120 min, + 30 = 150 -> standard
    ("600", 10, "blitz"),                  # 600 s = 10 min -> blitz
    ("*300", 5, "blitz"),                  # a 300 s sandclock = 5 min -> blitz
])
def test_the_pool_of_a_pgn_time_control(text: str, minutes: int, pool: str) -> None:
    control = parse_pgn_time_control(text)
    assert control is not None
    assert (control.minutes, control.pool) == (minutes, pool)


def test_the_boundaries_of_the_pools() -> None:
    # 59.5 is below 60 -> rapid; 10.5 is above 10 -> rapid; 3 is not above 3 -> not rated.
    assert pool_of_minutes(Fraction(119, 2)) == "rapid"
    assert pool_of_minutes(Fraction(21, 2)) == "rapid"
    assert minutes_for_60_moves(Fraction(2), Fraction(1)) == 3  # 2 + 1 = 3
    with pytest.raises(InvalidInput, match="3 or less"):
        pool_of_minutes(Fraction(3))


def test_no_time_control_and_a_bad_one() -> None:
    assert parse_pgn_time_control("?") is None
    assert parse_time_control("-") is None
    with pytest.raises(InvalidInput, match="TimeControl"):
        parse_pgn_time_control("fast")
    with pytest.raises(InvalidInput, match="time_control"):
        parse_time_control("quick")


def test_k_in_rapid_in_2022_is_20_for_everyone_and_the_standard_rules_from_2022_10() -> None:
    # 3 rapid games before the period: in 2022-05 K 20 for all (not 40); in 2023-05 the
    # standard rules count those 3 games: fewer than 30 -> 40.
    newcomer = PlayerState(rating=1700, rated_games=3)
    assert k_in_pool(newcomer, Period(2022, 5), "rapid") == (20, KReason.FLAT_20)
    assert k_in_pool(newcomer, Period(2023, 5), "rapid") == (40, KReason.NEW_PLAYER)
    assert k_in_pool(newcomer, Period(2022, 10), "blitz") == (40, KReason.NEW_PLAYER)
    # standard in 2022-05 keeps its own rules: 3 games -> 40
    assert k_in_pool(newcomer, Period(2022, 5), "standard") == (40, KReason.NEW_PLAYER)


def test_the_700_cap_applies_to_the_flat_k_of_2022() -> None:
    # K 20 x 36 games = 720 > 700 -> floor(700 / 36) = 19. 36 draws against equal opponents
    # (D 0 -> PD .50): each S - PD = 0, so the change is 0 whatever K; the K shows the cap.
    states = {1: PlayerState(rating=1800, rated_games=100),
              2: PlayerState(rating=1800, rated_games=100)}
    games = [RatedGame(i, None, 1, 2, 1800, 1800, Result.DRAW) for i in range(36)]
    results = rate_period(states, games, Period(2022, 5), Edition.E2022_01, pool="blitz")
    assert (results[1].k_before_cap, results[1].k) == (20, 19)


def test_a_blitz_period_of_2026_k_20_and_plus_10() -> None:
    # Player 1: blitz 2000, 40 blitz games -> K 20 (established, not junior, below 2400).
    # Beats 1900: D 100 -> PD .64 -> +.36. Draws 2100: D -100 -> PD .36 -> .50 - .36 = +.14.
    # Sum .50; 20 x .50 = +10 -> 2010.
    states = {1: PlayerState(rating=2000, rated_games=40),
              2: PlayerState(rating=1900, rated_games=40),
              3: PlayerState(rating=2100, rated_games=40)}
    games = [RatedGame(1, None, 1, 2, 2000, 1900, Result.WHITE_WINS),
             RatedGame(2, None, 3, 1, 2100, 2000, Result.DRAW)]
    results = rate_period(states, games, Period(2026, 10), Edition.E2025_10, pool="blitz")
    assert (results[1].k, results[1].expected, results[1].change, results[1].rating_after) == (
        20, Decimal("1.00"), 10, 2010)


def test_the_600_point_rule_from_2024_12() -> None:
    # 2650 v 2040: 610 apart (600 or more) and 2650 above 2600 -> not rated from 2024-12.
    assert gap_rule_excludes(2650, 2040, "blitz", Period(2025, 3))
    assert not gap_rule_excludes(2650, 2040, "blitz", Period(2024, 11))
    assert not gap_rule_excludes(2650, 2040, "standard", Period(2025, 3))
    # 2600 is not above 2600: 2600 v 1990 (610 apart) is rated
    assert not gap_rule_excludes(2600, 1990, "rapid", Period(2025, 3))
    states = {1: PlayerState(rating=2650, rated_games=100, reached_2400=True),
              2: PlayerState(rating=2040, rated_games=100)}
    game = [RatedGame(1, None, 1, 2, 2650, 2040, Result.WHITE_WINS)]
    assert rate_period(states, game, Period(2025, 3), Edition.E2024_03, pool="blitz") == {}
    # 2024-11: rated. The 2650 player: D 610 capped at 400 (every game from 2024-03)
    # -> PD .92; K 10 x (1 - .92) = +0.8 -> +1. The 2040 player: D -400 -> .08; 20 x -.08
    # = -1.6 -> -2.
    rated = rate_period(states, game, Period(2024, 11), Edition.E2024_03, pool="blitz")
    assert (rated[1].change, rated[2].change) == (1, -2)


def test_rapid_and_blitz_keep_the_400_cap_for_a_2650_player() -> None:
    # 2025-10 edition: a 2700 beats a 2200. Standard: the 2700 uses the real D 500 -> .96,
    # K 10 -> +0.4 -> 0. Rapid: D capped at 400 -> .92, K 10 x .08 = +0.8 -> +1.
    states = {1: PlayerState(rating=2700, rated_games=100, reached_2400=True),
              2: PlayerState(rating=2200, rated_games=100)}
    game = [RatedGame(1, None, 1, 2, 2700, 2200, Result.WHITE_WINS)]
    standard = rate_period(states, game, Period(2025, 11), Edition.E2025_10)
    rapid = rate_period(states, game, Period(2025, 11), Edition.E2025_10, pool="rapid")
    assert (standard[1].expected, standard[1].change) == (Decimal("0.96"), 0)
    assert (rapid[1].expected, rapid[1].change) == (Decimal("0.92"), 1)


def test_seeding_from_standard_and_the_2022_raise() -> None:
    assert seeded_from_standard("rapid", Period(2024, 3))
    assert not seeded_from_standard("rapid", Period(2024, 2))
    assert not seeded_from_standard("standard", Period(2025, 6))
    # standard 1800: a rapid 1500 is 300 below, more than 100 -> raised to 1700: +200
    assert raise_2022(Period(2022, 9), "rapid", 1500, 1800) == 200
    # 1750 is 50 below: not more than 100 -> 0; another list: 0
    assert raise_2022(Period(2022, 9), "blitz", 1750, 1800) == 0
    assert raise_2022(Period(2022, 10), "rapid", 1500, 1800) == 0


@pytest.mark.parametrize(("text", "minutes", "pool"), [
    ("90 min/40 moves + 30 min + 30 sec increment", 150, "standard"),  # 90 + 30 + 30 s x 60 / 60
    ("15 min + 10 sec", 25, "rapid"),  # 15 + 10
    ("40/120, 60", 180, "standard"),  # 40 moves in 120 minutes, then 60 (a real 122 line)
    ("1:30 plus 15 per move", 105, "standard"),  # 1 h 30 = 90, + 15 s x 60 / 60 (a real one)
    ("3+2", 5, "blitz"),  # 3 + 2
    ("40 moves in 90 min + 30 min + 30 s", 150, "standard"),  # 90 + 30 + 30
    ("2 hours/40 moves, 1 hour", 180, "standard"),  # 120 + 60
    ("5 min + 3 sec/move", 8, "blitz"),  # 5 + 3
    ("180+30", 210, "standard"),  # TRF writes minutes: 180 + 30, not PGN seconds
])
def test_the_pool_of_a_trf_122_record(text: str, minutes: int, pool: str) -> None:
    control = parse_trf_time_control(text)
    assert control is not None and (control.minutes, control.pool) == (minutes, pool)


@pytest.mark.parametrize("text", ["G/60", "Rapid", "", "90 min + blitz playoff"])
def test_a_trf_122_record_the_ledger_cannot_read(text: str) -> None:
    assert parse_trf_time_control(text) is None
