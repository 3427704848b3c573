"""Rating a period on numpy columns (``rules.period_arrays``): what the array path could get
wrong, worked by hand (None ratings, the list's rating for a player unrated at an event's start,
the 2650 exemption, the 600-point rule, the 700 cap, carried-only players, the dict order, an
empty month, a missing player, numpy ints leaking out), and the same results as the Python rows
(``rules.period_rows.rate_rows_in_python``) on seeded random months with sparse player ids."""

from __future__ import annotations

import random
from array import array

import numpy as np
import pytest

from ledger.domain import BLITZ, RAPID, STANDARD, Period, PlayerState
from ledger.rules.editions import Edition
from ledger.rules.period_arrays import NONE, _by_player, columns_of_rows, rate_columns
from ledger.rules.period_rows import rate_rows, rate_rows_in_python
from ledger.rules.row_results import GameRow, RowResult

NOV_2025 = Period(2025, 11)


def adult(rating: int | None, reached_2400: bool = False) -> PlayerState:
    """An adult established player (born 1980, 150 games): K 20, or 10 once 2400 was reached."""
    return PlayerState(rating=rating, birth_year=1980, rated_games=150,
                       reached_2400=reached_2400, reached_2300=reached_2400)


def plain(results: dict[int, RowResult]) -> None:
    """Every value handed out is a Python int (sqlite3 and json refuse numpy's)."""
    for r in results.values():
        # int32, as period_audits packs them (every value here fits)
        assert type(r.sides) is array and r.sides.typecode == "i"
        for value in (*r.totals(), *r.sides):
            assert type(value) is int or type(value) is str, (r, value)


def test_a_value_outside_int32_keeps_the_sides_in_64_bits() -> None:
    # game 2**31 = 2,147,483,648 is past int32's 2,147,483,647: the sides stay int64 ("q",
    # the same values) and the write's pack_flat refuses them (test_audit_pack)
    states = {1: adult(2000), 2: adult(1900)}
    results = rate_columns(states, columns_of_rows([(2 ** 31, None, 1, 2, 2000, 1900, 1)]),
                           NOV_2025, Edition.E2025_10)
    # White 2000 v 1900: D 100, PD 0.64 (table 8.1.2), a draw: S 1 half
    assert results[1].sides.typecode == "q"
    assert list(results[1].sides) == [2 ** 31, 2, 2000, 1900, 100, 100, 64, 1]
    assert list(results[2].sides) == [2 ** 31, 1, 1900, 2000, -100, -100, 36, 1]


def test_columns_of_rows_map_none_to_minus_one() -> None:
    rows: list[GameRow] = [(7, "e", 1, 2, None, 1900, None), (8, None, 2, 1, 1900, 2000, 2)]
    c = columns_of_rows(rows)
    assert c.white_rating.tolist() == [NONE, 1900] and c.halves.tolist() == [NONE, 2]
    assert c.game_id.tolist() == [7, 8] and c.black.tolist() == [2, 1]
    assert all(col.dtype == np.int64 for col in c)
    assert all(len(col) == 0 for col in columns_of_rows([]))


def test_none_ratings_list_rating_and_order() -> None:
    # 3 is on the list at 1800 but unrated at g10's start: rated with 1800 (§8.2.4); 1, whose
    # opponent 3 has no rating at the event's start, gets nothing from g10. 3: D = 1800 - 2000
    # = -200 -> PD .24; 1 - .24 = +.76 x 20 = +15.20 -> +15. g11 1 (2000) draws 2 (1900): 1:
    # D +100 -> .64, .50 - .64 = -.14 x 20 = -2.80 -> -3; 2: D -100 -> .36, +.14 x 20 = +2.80
    # -> +3. g12: 2 against 4 (unrated everywhere): nothing for either. g13 a forfeit (None).
    # Order of the first rated side: 3 (g10), 1 (g11 White), 2 (g11 Black).
    states = {1: adult(2000), 2: adult(1900), 3: adult(1800),
              4: PlayerState(rating=None, rated_games=0)}
    games: list[GameRow] = [(10, None, 3, 1, None, 2000, 2), (11, None, 1, 2, 2000, 1900, 1),
                            (12, None, 2, 4, 1900, None, 0), (13, None, 1, 2, 2000, 1900, None)]
    results = rate_rows(states, games, NOV_2025, Edition.E2025_10)
    assert list(results) == [3, 1, 2]
    assert results[3].totals() == (3, 1800, 1, 2, 24, 20, 20, "standard", 1520, 15, 1815, 0)
    assert list(results[3].sides) == [10, 1, 1800, 2000, -200, -200, 24, 2]
    assert results[1].totals() == (1, 2000, 1, 1, 64, 20, 20, "standard", -280, -3, 1997, 0)
    assert list(results[1].sides) == [11, 2, 2000, 1900, 100, 100, 64, 1]
    assert results[2].totals() == (2, 1900, 1, 1, 36, 20, 20, "standard", 280, 3, 1903, 0)
    assert list(results[2].sides) == [11, 1, 1900, 2000, -100, -100, 36, 1]
    plain(results)
    assert results == rate_rows_in_python(states, games, NOV_2025, Edition.E2025_10)


def test_2650_exemption_on_the_own_rating_used() -> None:
    # Standard 2025-11 (edition 2025-10). 1 is unrated at g1's start but 2650 on the list: own
    # 2650, exempt: D = 2650 - 2150 = 500 -> PD .96; wins: +.04 x 10 = +0.40 -> 0. 2 at 2649
    # is not: D 500 counted 400 -> PD .92; wins: +.08 x 10 = +0.80 -> +1. 3 (2150) loses to 2:
    # D -499 counted -400 -> PD .08; -.08 x 20 = -1.60 -> -2 (3's side of g1 is dropped: 1 has
    # no rating at the event's start).
    states = {1: adult(2650, reached_2400=True), 2: adult(2649, reached_2400=True),
              3: adult(2150)}
    games: list[GameRow] = [(1, None, 1, 3, None, 2150, 2), (2, None, 2, 3, 2649, 2150, 2)]
    results = rate_rows(states, games, NOV_2025, Edition.E2025_10)
    assert list(results) == [1, 2, 3]
    assert list(results[1].sides) == [1, 3, 2650, 2150, 500, 500, 96, 2]
    assert (results[1].change_hundredths, results[1].change) == (40, 0)
    assert list(results[2].sides) == [2, 3, 2649, 2150, 499, 400, 92, 2]
    assert (results[2].change_hundredths, results[2].change) == (80, 1)
    assert list(results[3].sides) == [2, 2, 2150, 2649, -499, -400, 8, 0]
    assert (results[3].change_hundredths, results[3].change) == (-160, -2)
    # Before 2025-10 (edition 2024-03) 2650 is capped too: D 400 -> .92, +0.80 -> +1.
    early = rate_rows(states, games, Period(2025, 9), Edition.E2024_03)
    assert list(early[1].sides) == [1, 3, 2650, 2150, 500, 400, 92, 2]
    assert early[1].change == 1


def test_600_point_rule_in_rapid_on_the_event_ratings() -> None:
    # Rapid 2024-12: g1 2610 v 2010, 600 apart and one above 2600: not rated for either. g2
    # 2600 v 2000, 600 apart but none above 2600: rated; 3 (K 10): D 600 counted 400 (rapid
    # keeps the cap) -> .92, wins: +.08 x 10 = +0.80 -> +1; 4 (K 20): D -400 -> .08, -.08 x
    # 20 = -1.60 -> -2. g3: 1 has no rating at the event's start, so the rule does not look at
    # the pair; 1 is rated with the list's 2610: D 610 counted 400 -> .92, wins: +1; 4's side
    # dropped (opponent unrated at the start).
    states = {1: adult(2610, reached_2400=True), 2: adult(2010),
              3: adult(2600, reached_2400=True), 4: adult(2000)}
    games: list[GameRow] = [(1, None, 1, 2, 2610, 2010, 2), (2, None, 3, 4, 2600, 2000, 2),
                            (3, None, 1, 4, None, 2000, 2)]
    results = rate_rows(states, games, Period(2024, 12), Edition.E2024_03, pool=RAPID)
    assert list(results) == [3, 4, 1]
    assert (results[3].n, results[3].expected_hundredths, results[3].change) == (1, 92, 1)
    assert (results[4].n, results[4].expected_hundredths, results[4].change) == (1, 8, -2)
    assert list(results[1].sides) == [3, 4, 2610, 2000, 610, 400, 92, 2]
    # 2024-11, before the rule: g1 rated too; 2: D -600 -> -400 -> .08, -1.60 -> -2.
    before = rate_rows(states, games, Period(2024, 11), Edition.E2024_03, pool=RAPID)
    assert list(before) == [1, 2, 3, 4]
    assert before[1].n == 2 and before[2].change == -2


def test_k_cap_at_36_games() -> None:
    # 1 (adult 1500, K 20) beats 36 players rated 1500: 20 x 36 = 720 > 700 -> K = 700 // 36
    # = 19. Each game D 0 -> PD .50, surplus 36 x .50 = 18 -> 19 x 18 = +342. With 35 games
    # 20 x 35 = 700 is not above 700: K 20, 35 x .50 x 20 = +350. Each opponent: -.50 x 20 =
    # -10.
    states = {1: adult(1500)} | {100 + i: adult(1500) for i in range(36)}
    games: list[GameRow] = [(i, None, 1, 100 + i, 1500, 1500, 2) for i in range(36)]
    r = rate_rows(states, games, NOV_2025, Edition.E2025_10)
    assert (r[1].n, r[1].k_before_cap, r[1].k, r[1].change_hundredths, r[1].change) == (
        36, 20, 19, 34200, 342)
    assert all(r[100 + i].change == -10 for i in range(36))
    r35 = rate_rows(states, games[:35], NOV_2025, Edition.E2025_10)[1]
    assert (r35.n, r35.k, r35.change) == (35, 20, 350)
    plain(r)


def test_carried_only_missing_player_and_empty_month() -> None:
    # g10 1 (2000) beats 2 (1900): 1: +.36 x 20 = +7.20 + 0.30 carried = +7.50 -> +8; 2: -7.20
    # -> -7. 5 only carried -2.50 -> -3 (half away from zero), K 20 as if no game; 6 carried
    # but unrated: left out. Order: the players of the games, then the carried ones.
    states = {1: adult(2000), 2: adult(1900), 5: adult(1700),
              6: PlayerState(rating=None, rated_games=0)}
    games: list[GameRow] = [(10, None, 1, 2, 2000, 1900, 2)]
    carried = {6: 100, 5: -250, 1: 30}
    results = rate_rows(states, games, NOV_2025, Edition.E2025_10, carried)
    assert list(results) == [1, 2, 5]
    assert (results[1].change_hundredths, results[1].change, results[1].carried_hundredths) == (
        750, 8, 30)
    assert results[2].change == -7
    assert results[5].totals() == (5, 1700, 0, 0, 0, 20, 20, "standard", -250, -3, 1697, -250)
    assert list(results[5].sides) == []
    plain(results)
    # an empty month: the carried players only, or nothing
    empty = rate_rows(states, [], NOV_2025, Edition.E2025_10, carried)
    assert list(empty) == [5, 1]
    assert (empty[1].change_hundredths, empty[1].change) == (30, 0)
    assert rate_rows(states, [], NOV_2025, Edition.E2025_10) == {}
    assert rate_columns(states, columns_of_rows([]), NOV_2025, Edition.E2025_10) == {}
    # a rated side of a player missing from the states: KeyError, as the rows give
    with pytest.raises(KeyError):
        rate_rows(states, [(11, None, 1, 99, 2000, 1900, 2)], NOV_2025, Edition.E2025_10)
    with pytest.raises(KeyError):
        rate_rows_in_python(states, [(11, None, 1, 99, 2000, 1900, 2)], NOV_2025,
                            Edition.E2025_10)
    # 98 is missing but has no rating at the start nor on the list: no side, no KeyError; 1's
    # side is dropped too (opponent unrated at the start)
    assert rate_rows(states, [(12, None, 98, 1, None, 2000, 2)], NOV_2025,
                     Edition.E2025_10) == {}


def test_2022_01_stays_on_the_rows() -> None:
    # rate_columns has no events: 2022-01 (one capped game per event) is refused there, and
    # rate_rows takes the rows' path. 1 (2000) beats 2 (1900) twice in event 5: D 100 both,
    # neither beyond 400: PD .64 each, 2 x .36 x 20 = +14.40 -> +14.
    states = {1: adult(2000), 2: adult(1900)}
    games: list[GameRow] = [(1, 5, 1, 2, 2000, 1900, 2), (2, 5, 1, 2, 2000, 1900, 2)]
    with pytest.raises(ValueError, match="2022-01"):
        rate_columns(states, columns_of_rows(games), Period(2023, 5), Edition.E2022_01)
    assert rate_rows(states, games, Period(2023, 5), Edition.E2022_01)[1].change == 14


def _random_rows(rng: random.Random, players: int, games: int,
                 ) -> tuple[dict[int, PlayerState], list[GameRow], dict[int, int]]:
    """Sparse ids (up to 10^9), unrated players, players unrated at the start, forfeits."""
    ids = rng.sample(range(1, 10**9), players)
    states = {}
    for pid in ids:
        rating = None if rng.random() < 0.1 else rng.randint(1000, 2850)
        states[pid] = PlayerState(rating=rating, birth_year=rng.choice([None, 1970, 2012]),
                                  rated_games=rng.choice([None, 5, 200]),
                                  reached_2400=rng.random() < 0.2, reached_2300=False)
    rows: list[GameRow] = []
    for gid in range(games):
        w, b = rng.sample(ids, 2)
        wr, br = (None if states[p].rating is None or rng.random() < 0.1
                  else states[p].rating + rng.randint(-20, 20) for p in (w, b))
        rows.append((gid * 3 + 1, None, w, b, wr, br, rng.choice([0, 1, 2, 2, None])))
    carried = {pid: rng.randint(-300, 300) for pid in rng.sample(ids, 10)}
    return states, rows, carried


@pytest.mark.parametrize("pool", [STANDARD, RAPID, BLITZ])
@pytest.mark.parametrize(("period", "edition"), [
    (Period(2024, 6), Edition.E2024_03), (Period(2025, 1), Edition.E2024_03),
    (Period(2025, 11), Edition.E2025_10)])
def test_same_as_the_python_rows(pool: str, period: Period, edition: Edition) -> None:
    states, rows, carried = _random_rows(random.Random(f"{pool} {period}"), 150, 2000)
    fast = rate_columns(states, columns_of_rows(rows), period, edition, carried, pool)
    slow = rate_rows_in_python(states, rows, period, edition, carried, pool)
    assert list(fast) == list(slow) and fast == slow
    assert all(fast[p].sides == slow[p].sides for p in slow)
    plain(fast)
    # rate_rows takes any iterable of rows
    assert rate_rows(states, iter(rows), period, edition, carried, pool) == slow


@pytest.mark.parametrize("values", [
    [3, 1, 3, 1, 2],  # keys 3x8+0, 1x8+1, ...: the unique keys' sort
    [3 << 60, 1, 3 << 60, 1, 2],  # 3 x 2^60 x 2^3 is past 63 bits: the stable sort itself
])
def test_by_player_keeps_equal_ids_in_their_order(values: list[int]) -> None:
    # sorted: the 1s at 1 and 3, the 2 at 4, the largest at 0 and 2, each pair as it was
    order, grouped = _by_player(np.array(values, dtype=np.int64))
    assert order.tolist() == [1, 3, 4, 0, 2]
    assert grouped.tolist() == [1, 1, 2, values[0], values[0]]
    assert [a.tolist() for a in _by_player(np.array([7], dtype=np.int64))] == [[0], [7]]
    assert [a.tolist() for a in _by_player(np.zeros(0, dtype=np.int64))] == [[], []]


def test_by_player_adds_the_indices_a_slice_at_a_time() -> None:
    # 65,536 indices at once: 70,000 sides of two players alternating, the second slice's
    # indices (65,536 on) added as well as the first's
    order, grouped = _by_player(np.array([2, 1] * 35_000, dtype=np.int64))
    assert order.tolist() == list(range(1, 70_000, 2)) + list(range(0, 70_000, 2))
    assert grouped.tolist() == [1] * 35_000 + [2] * 35_000
