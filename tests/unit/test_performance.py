"""Performance rating and norms (FIDE B.01 Title Regulations §1.4.6-1.4.9; RULES.md §7).

Every expected value is worked by hand beside it from table 8.1.1 (RULES.md §7) and the two .5-up
roundings (Ra to a whole number, p to a whole percent).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from ledger.rules.performance import (
    Norm,
    average_rating,
    norm_check,
    norm_opponents,
    percentage,
    performance,
    round_half_up,
)

W, D, L = Fraction(1), Fraction(1, 2), Fraction(0)

#: The seed: nine opponents summing to 20898 = 9 x 2322.
SEED_OPPONENTS = [2250, 2280, 2300, 2310, 2320, 2330, 2350, 2370, 2388]
#: 4 wins, 2 draws, 3 losses = 5 points.
SEED_SCORES = [W, W, W, W, D, D, L, L, L]


def test_seed_performance() -> None:
    # RULES.md §7 seed: sum 20898 / 9 = 2322 exactly -> Ra 2322;
    # p = 5 / 9 = 55.56 % -> 56 % -> dp(.56) = 43 -> Rp = 2322 + 43 = 2365.
    p = performance(SEED_OPPONENTS, SEED_SCORES)
    assert (p.n, p.opponents_sum, p.ra, p.points, p.p, p.dp, p.rp) == (
        9, 20898, 2322, Fraction(5), 56, 43, 2365)
    assert (p.wins, p.draws, p.losses) == (4, 2, 3)
    # Algorithm of 400: (20898 + 400 x (4 - 3)) / 9 = 21298 / 9 = 2366.44 -> 2366
    assert p.algorithm_of_400_exact == Fraction(21298, 9)
    assert p.algorithm_of_400 == 2366


def test_ra_rounds_half_up() -> None:
    # (2300 + 2345) / 2 = 2322.5 -> 2323 (.5 up, §1.4.7b); (2300 + 2344) / 2 = 2322 exactly
    assert average_rating([2300, 2345]) == 2323
    assert average_rating([2300, 2344]) == 2322
    # (2300 + 2301 + 2301) / 3 = 2300.67 -> 2301
    assert average_rating([2300, 2301, 2301]) == 2301


@pytest.mark.parametrize(
    ("points", "games", "p", "dp"),
    [
        (Fraction(5), 9, 56, 43),  # 55.56 % -> 56 -> 43
        (Fraction(4), 9, 44, -43),  # 44.44 % -> 44 -> dp(1 - .56) = -43
        (Fraction(1), 8, 13, -322),  # 12.5 % -> 13 (.5 up) -> dp(.13) = -dp(.87) = -322
        (Fraction(7), 8, 88, 336),  # 87.5 % -> 88 (.5 up) -> 336
        (Fraction(9, 2), 9, 50, 0),  # 50 % -> 0
        (Fraction(9), 9, 100, 800),  # 100 % -> 800
        (Fraction(0), 9, 0, -800),  # 0 % -> -800
    ],
)
def test_p_rounds_half_up_and_dp_is_symmetric(points: Fraction, games: int, p: int,
                                              dp: int) -> None:
    assert percentage(points, games) == p
    scores = [W] * int(points) + [D] * (points.denominator == 2)
    scores += [L] * (games - len(scores))
    assert performance([2000] * games, scores).dp == dp


def test_round_half_up_goes_upward_for_negatives_too() -> None:
    # "0.5 is rounded upward": -7.5 -> -7, 2366.5 -> 2367, 2366.44 -> 2366
    assert round_half_up(Fraction(-15, 2)) == -7
    assert round_half_up(Fraction(4733, 2)) == 2367
    assert round_half_up(Fraction(21298, 9)) == 2366


def test_performance_refuses_bad_input() -> None:
    with pytest.raises(ValueError):
        performance([], [])
    with pytest.raises(ValueError):
        performance([2000], [Fraction(2)])
    with pytest.raises(ValueError):
        performance([2000, 2100], [W])


# --- norms --------------------------------------------------------------------------------------

#: Seven opponents every norm case shares: 2600 + 2550 + 2500 + 2480 + 2450 + 2420 + 2400 = 17400.
STRONG = [2600, 2550, 2500, 2480, 2450, 2420, 2400]


def test_norm_case_rated_opponent_raised_and_unrated_at_1400() -> None:
    # Nine games: the seven above, a rated 1380 (below the GM floor, and the lowest) and an unrated
    # opponent. GM: 1380 is the lowest below 2200 -> raised to 2200 (the only raise, §1.4.6c);
    # the unrated one is not raised -> counts 1400 (§1.4.6d).
    # 6 wins, 1 draw, 2 losses = 6.5 points.
    scores = [W, W, W, W, W, W, D, L, L]
    ratings: list[int | None] = [*STRONG, 1380, None]
    gm = norm_check(ratings, scores, Norm.GM)
    assert [(o.counted, o.raised) for o in gm.opponents[-2:]] == [(2200, True), (1400, False)]
    # Sum 17400 + 2200 + 1400 = 21000; Ra = 21000 / 9 = 2333.33 -> 2333
    # p = 6.5 / 9 = 72.22 % -> 72 -> dp 166 -> Rp = 2333 + 166 = 2499
    p = gm.performance
    assert (p.opponents_sum, p.ra, p.p, p.dp, p.rp) == (21000, 2333, 72, 166, 2499)
    # GM: Rp 2499 < 2600 no; Ra 2333 < 2380 no; 6.5 >= 35 % of 9 = 3.15 yes -> no norm
    assert (gm.rp_reached, gm.ra_reached, gm.score_reached, gm.reached) == (
        False, False, True, False)
    # IM, same games: the floor is 2050 -> 1380 raised to 2050; unrated 1400.
    # Sum 17400 + 2050 + 1400 = 20850; Ra = 2316.67 -> 2317; Rp = 2317 + 166 = 2483
    # IM: Rp 2483 >= 2450 yes; Ra 2317 >= 2230 yes; score yes -> IM norm
    im = norm_check(ratings, scores, Norm.IM)
    assert (im.performance.ra, im.performance.rp) == (2317, 2483)
    assert (im.rp_reached, im.ra_reached, im.score_reached, im.reached) == (True, True, True, True)


def test_norm_unrated_opponent_is_raised_when_lowest() -> None:
    # The module's Decision (§1.4.6c-d): the unrated opponent counts 1400, is the lowest below
    # the GM floor, so it is the one raised to 2200; the rated 2150 stays 2150.
    # 6 wins, 2 draws, 1 loss = 7 points.
    scores = [W, W, W, W, W, W, D, D, L]
    gm = norm_check([*STRONG, 2150, None], scores, Norm.GM)
    assert [(o.rating, o.counted, o.raised) for o in gm.opponents[-2:]] == [
        (2150, 2150, False), (None, 2200, True)]
    # Sum 17400 + 2150 + 2200 = 21750; Ra = 2416.67 -> 2417
    # p = 7 / 9 = 77.78 % -> 78 -> dp 220 -> Rp = 2417 + 220 = 2637
    # GM: 2637 >= 2600 yes; 2417 >= 2380 yes; 7 >= 3.15 yes -> GM norm
    p = gm.performance
    assert (p.opponents_sum, p.ra, p.p, p.dp, p.rp) == (21750, 2417, 78, 220, 2637)
    assert gm.reached
    # (Raising the 2150 instead and counting the unrated 1400 would give 17400 + 2200 + 1400 =
    # 21000 -> Ra 2333 and no norm: the reading matters.)


def test_norm_raises_only_the_lowest_of_several_below_the_floor() -> None:
    # GM floor 2200: 2100 and 2000 are below; only the lowest, 2000, is raised (§1.4.6c).
    opponents = norm_opponents([2400, 2100, 2000, 2300], Norm.GM)
    assert [(o.counted, o.raised) for o in opponents] == [
        (2400, False), (2100, False), (2200, True), (2300, False)]
    # Nobody below the floor: nobody raised.
    assert not any(o.raised for o in norm_opponents([2300, 2250], Norm.GM))
    # Two unrated: one raised to the WIM floor 1850, the other counts 1400.
    assert [o.counted for o in norm_opponents([None, None, 2100], Norm.WIM)] == [1850, 1400, 2100]


def test_norm_35_percent_score_decides_alone() -> None:
    # WIM, nine opponents rated 2400: Ra 2400 (>= 2030 yes).
    # 3 points: p = 33.33 % -> 33 -> dp -125 -> Rp 2275 >= 2250 yes; but 3 < 35 % x 9 = 3.15: no.
    three = norm_check([2400] * 9, [W, W, W, L, L, L, L, L, L], Norm.WIM)
    assert (three.performance.rp, three.rp_reached, three.ra_reached, three.score_reached) == (
        2275, True, True, False)
    assert not three.reached
    # 3.5 points: 38.89 % -> 39 -> dp -80 -> Rp 2320; 3.5 >= 3.15 yes -> WIM norm
    half = norm_check([2400] * 9, [W, W, W, D, L, L, L, L, L], Norm.WIM)
    assert (half.performance.rp, half.score_reached, half.reached) == (2320, True, True)


@pytest.mark.parametrize(
    ("norm", "floor", "min_rp", "min_ra"),
    [(Norm.GM, 2200, 2600, 2380), (Norm.IM, 2050, 2450, 2230), (Norm.WGM, 2000, 2400, 2180),
     (Norm.WIM, 1850, 2250, 2030)],
)
def test_norm_thresholds(norm: Norm, floor: int, min_rp: int, min_ra: int) -> None:
    # Title Regs §1.4.6b (floors) and §1.4.8 (Rp, Ra), as listed in RULES.md §7 and the issue
    assert (norm.floor, norm.min_rp, norm.min_ra) == (floor, min_rp, min_ra)
    assert Norm.parse(norm.value.lower()) is norm


def test_norm_thresholds_are_inclusive() -> None:
    # GM: nine opponents 2380 -> Ra 2380 (>= 2380 yes); p .50 -> dp 0 -> Rp 2380 < 2600 no.
    at = norm_check([2380] * 9, [W, W, W, W, D, L, L, L, L], Norm.GM)
    assert (at.performance.ra, at.ra_reached, at.rp_reached) == (2380, True, False)
    # Nine opponents 2379 -> Ra 2379 < 2380: no
    below = norm_check([2379] * 9, [W, W, W, W, D, L, L, L, L], Norm.GM)
    assert not below.ra_reached
    # IM, nine opponents 2177, 7.5 / 9 = 83.33 % -> 83 -> dp 273 -> Rp 2177 + 273 = 2450:
    # >= 2450 yes (inclusive); Ra 2177 < 2230 no
    im = norm_check([2177] * 9, [W, W, W, W, W, W, W, D, L], Norm.IM)
    assert (im.performance.rp, im.rp_reached, im.ra_reached) == (2450, True, False)
