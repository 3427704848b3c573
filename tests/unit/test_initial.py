"""Initial ratings (B.02 §7.1.4, §8.2; docs/RULES.md §6, §8) worked by hand from table 8.1.1."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from ledger.domain import Period
from ledger.rules.editions import Edition, InitialMethod
from ledger.rules.initial import PoolGame, build_pool, initial_rating, rate_pool

NOW = Edition.E2025_10
OLD = Edition.E2022_01


def test_rules_example() -> None:
    # RULES §6: opponents 1600 .. 2000, 3.5 points. Ra = (9000 + 3600) / 7 = 12600 / 7 = 1800;
    # p = (3.5 + 1) / 7 = .642857 -> .64 -> dp 102; Ru = 1902
    r = initial_rating([1600, 1700, 1800, 1900, 2000], Decimal("3.5"), NOW)
    assert (r.ra, r.p_hundredths, r.dp, r.ru, r.rating) == (Fraction(1800), 64, 102, 1902, 1902)
    assert (r.hypothetical, r.games, r.cap, r.floor) == (2, 5, 2200, 1400)
    assert r.published and not r.capped
    assert r.method is InitialMethod.TWO_1800_DRAWS


def test_five_wins_v_2000s_capped_at_2200() -> None:
    # Ra = (10000 + 3600) / 7 = 1942.857; p = 6 / 7 = .857 -> .86 -> dp 309;
    # 1942.857 + 309 = 2251.857 -> 2252 -> capped at 2200
    r = initial_rating([2000] * 5, Decimal(5), NOW)
    assert (r.ra, r.p_hundredths, r.dp, r.ru, r.rating) == (Fraction(13600, 7), 86, 309, 2252, 2200)
    assert r.capped and r.published


def test_one_point_v_1600s() -> None:
    # Ra = (8000 + 3600) / 7 = 1657.14; p = 2 / 7 = .2857 -> .29 -> dp(-.71) = -158;
    # 1657.14 - 158 = 1499.14 -> 1499, published (>= 1400)
    r = initial_rating([1600] * 5, Decimal(1), NOW)
    assert (r.ra, r.p_hundredths, r.dp, r.ru, r.rating) == (Fraction(11600, 7), 29, -158, 1499, 1499)
    assert r.published


def test_half_point_v_1400s_not_published() -> None:
    # Ra = (7000 + 3600) / 7 = 1514.29; p = 1.5 / 7 = .214 -> .21 -> dp(-.79) = -230;
    # 1514.29 - 230 = 1284.29 -> 1284 < 1400: not published
    r = initial_rating([1400] * 5, Decimal("0.5"), NOW)
    assert (r.ra, r.p_hundredths, r.dp, r.rating) == (Fraction(10600, 7), 21, -230, 1284)
    assert not r.published


def test_p_rounds_half_up() -> None:
    # 6 games, 4 points: p = 5 / 8 = .625 -> .63 (half up) -> dp 95; Ra = (12000 + 3600) / 8
    # = 1950; Ru = 2045
    r = initial_rating([2000] * 6, Decimal(4), NOW)
    assert (r.p_hundredths, r.dp, r.ru) == (63, 95, 2045)


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        # 2022 edition: Ra = 2000 (rated opponents only); 50 % of 5 = 2.5
        (Decimal(3), 2020),  # 3 points = one half point above 2.5 -> +20
        (Decimal("2.5"), 2000),  # exactly 50 % -> +0
        (Decimal(2), 1928),  # p = .40 -> dp -72 -> 1928
        (Decimal(5), 2100),  # five half points above 50 % -> +100; no 2200 cap
    ],
)
def test_2022_edition(points: Decimal, expected: int) -> None:
    r = initial_rating([1900, 1950, 2000, 2050, 2100], points, OLD)
    assert r.ra == Fraction(2000)
    assert r.rating == expected
    assert (r.hypothetical, r.cap, r.floor) == (0, None, 1000)
    assert r.method is InitialMethod.RA_PLUS_20


def test_2022_edition_floor_1000() -> None:
    # Ra = 1100; 0.5 of 5: p = .10 -> dp -366 -> 734 < 1000: not published
    r = initial_rating([1100] * 5, Decimal("0.5"), OLD)
    assert (r.dp, r.rating, r.published) == (-366, 734, False)


def test_initial_rating_refuses_impossible_input() -> None:
    with pytest.raises(ValueError):
        initial_rating([], Decimal(0), NOW)
    with pytest.raises(ValueError):
        initial_rating([1800], Decimal(2), NOW)


def g(game_id: int, period: tuple[int, int], score: str, event: int | None = None,
      rating: int = 1800) -> PoolGame:
    return PoolGame(game_id, event, Period(*period), 100 + game_id, rating, Decimal(score))


def test_pool_of_two_two_and_one_games_over_three_periods() -> None:
    games = [g(1, (2025, 9), "1"), g(2, (2025, 9), "0"), g(3, (2025, 10), "0.5"),
             g(4, (2025, 10), "1"), g(5, (2025, 11), "0")]
    after_two = build_pool(games[:4], Period(2025, 10))
    assert (after_two.n, after_two.needed) == (4, 1)
    assert rate_pool(after_two, NOW) is None
    pool = build_pool(games, Period(2025, 11))
    # 5 games v 1800, 2.5 points: Ra = 9000 + 3600 = 12600 / 7 = 1800; p = 3.5 / 7 = .50 -> 0
    assert (pool.n, pool.points, pool.average, pool.needed) == (5, Decimal("2.5"), 1800, 0)
    rated = rate_pool(pool, NOW)
    assert rated is not None and rated.rating == 1800


def test_first_event_with_zero_points_disregarded() -> None:
    # event 7: two losses, the player's first event -> disregarded; event 8 counts
    games = [g(1, (2025, 9), "0", 7), g(2, (2025, 9), "0", 7), g(3, (2025, 10), "1", 8),
             g(4, (2025, 10), "0", 8)]
    pool = build_pool(games, Period(2025, 10))
    assert [x.game_id for x in pool.games] == [3, 4]
    assert [x.game_id for x in pool.disregarded] == [1, 2]
    # a later event with zero points is not disregarded
    later = build_pool([g(3, (2025, 10), "1", 8), g(5, (2025, 11), "0", 9)], Period(2025, 11))
    assert [x.game_id for x in later.games] == [3, 5]


def test_pool_reaches_26_months_back() -> None:
    # closing 2026-11: the 26 periods are 2024-10 .. 2026-11; a game of 2024-09 drops out
    games = [g(1, (2024, 9), "1"), g(2, (2024, 10), "1"), g(3, (2026, 11), "1")]
    assert [x.game_id for x in build_pool(games, Period(2026, 11)).games] == [2, 3]


def test_pool_starts_over() -> None:
    games = [g(1, (2025, 1), "1"), g(2, (2025, 6), "1")]
    assert [x.game_id for x in build_pool(games, Period(2025, 6), starts=Period(2025, 2)).games] == [2]
