"""Rating a period from integer rows (``rules.period_rows``): hand-worked cases, and the same
values as the per-player reference rules (``rules.period.rate_period``) on seeded random periods
covering every edition and pool, juniors, 2400+, 2650+, unrated opponents, players unrated at an
event's start, the 700 cap, forfeits and carried corrections."""

from __future__ import annotations

import random
from array import array
from decimal import Decimal

import pytest

from ledger.domain import BLITZ, RAPID, STANDARD, KReason, Period, PlayerState, RatedGame, Result
from ledger.rules.editions import Edition
from ledger.rules.period import rate_period
from ledger.rules.period_rows import rate_rows
from ledger.rules.row_results import (
    GameRow,
    GameRowColumns,
    SideAudit,
    from_reference,
    round_hundredths,
)

HALVES = {Result.WHITE_WINS: 2, Result.DRAW: 1, Result.BLACK_WINS: 0}


def adult(rating: int | None, games: int = 150, reached_2400: bool = False) -> PlayerState:
    """An adult established player (born 1980): K 20, or 10 once 2400 was reached."""
    return PlayerState(rating=rating, birth_year=1980, rated_games=games,
                       reached_2400=reached_2400, reached_2300=reached_2400)


def row(g: RatedGame) -> GameRow:
    """``g`` as the close reads it: White's score in halves, None when it cannot be rated."""
    halves = HALVES.get(g.result) if g.played and not g.unequal_times else None
    return (g.game_id, g.event_key, g.white_id, g.black_id, g.white_rating, g.black_rating,
            halves)


def test_round_hundredths_half_away_from_zero() -> None:
    # 4.50 -> 5, -2.50 -> -3, 4.49 -> 4, -4.49 -> -4, 0 -> 0, 0.50 -> 1, -0.50 -> -1
    assert [round_hundredths(h) for h in (450, -250, 449, -449, 0, 50, -50)] == [
        5, -3, 4, -4, 0, 1, -1]


def test_one_win_hand_worked() -> None:
    # A 2000 beats B 1900, both adults K 20. D = +100 -> PD .64; A: 1 - .64 = +.36 x 20 = +7.20
    # -> +7; B: D = -100 -> PD .36; 0 - .36 = -.36 x 20 = -7.20 -> -7.
    results = rate_rows({1: adult(2000), 2: adult(1900)}, [(10, None, 1, 2, 2000, 1900, 2)],
                        Period(2025, 11), Edition.E2025_10)
    a, b = results[1], results[2]
    assert a.totals() == (1, 2000, 1, 2, 64, 20, 20, "standard", 720, 7, 2007, 0)
    assert b.totals() == (2, 1900, 1, 0, 36, 20, 20, "standard", -720, -7, 1893, 0)
    assert a.audits == [SideAudit(10, 1, 2, 2000, 1900, 100, 100, 64, 2)]
    # the flat sides: game, opponent, own, opponent's rating, D, counted D, PD, score halves
    assert list(a.sides) == [10, 2, 2000, 1900, 100, 100, 64, 2]
    assert list(b.sides) == [10, 1, 1900, 2000, -100, -100, 36, 0]
    assert list(a.opponent_ids) == [2] and list(b.opponent_ids) == [1]
    assert (a.score, a.expected, a.surplus, a.change_exact) == (
        Decimal(1), Decimal("0.64"), Decimal("0.36"), Decimal("7.20"))


def test_2650_exempt_in_standard_not_in_rapid() -> None:
    # 2700 (reached 2400, K 10) beats 2200 (K 20) in 2025-11 (edition 2025-10), D = 500.
    # Standard: 2700 is exempt, D 500 -> PD .96, +.04 x 10 = +0.40 -> 0; 2200 is not: D -500
    # counted -400 -> PD 1 - .92 = .08, -.08 x 20 = -1.60 -> -2.
    states = {1: adult(2700, reached_2400=True), 2: adult(2200)}
    game = [(10, None, 1, 2, 2700, 2200, 2)]
    std = rate_rows(states, game, Period(2025, 11), Edition.E2025_10, pool=STANDARD)
    assert (std[1].audits[0].counted_difference, std[1].expected_hundredths,
            std[1].change_hundredths, std[1].change) == (500, 96, 40, 0)
    assert (std[2].audits[0].counted_difference, std[2].expected_hundredths,
            std[2].change_hundredths, std[2].change) == (-400, 8, -160, -2)
    # Rapid keeps the cap for 2700: D 400 -> PD .92, +.08 x 10 = +0.80 -> +1.
    rapid = rate_rows(states, game, Period(2025, 11), Edition.E2025_10, pool=RAPID)
    assert (rapid[1].audits[0].counted_difference, rapid[1].change_hundredths,
            rapid[1].change) == (400, 80, 1)


def test_gap_rule_unrated_opponent_and_carried_only() -> None:
    # Blitz 2025-03: 2650 v 2040 is 610 apart, one above 2600: not rated for either. Player 3
    # plays unrated 4: ignored for 3, and 4 gets nothing. Player 5 has no game but 1.50
    # carried: a change of exactly +1.50 -> +2.
    states = {1: adult(2650, reached_2400=True), 2: adult(2040), 3: adult(1800),
              4: PlayerState(rating=None, rated_games=0), 5: adult(1700)}
    games = [(10, None, 1, 2, 2650, 2040, 1), (11, None, 3, 4, 1800, None, 2)]
    results = rate_rows(states, games, Period(2025, 3), Edition.E2024_03, {5: 150}, BLITZ)
    assert list(results) == [5]
    assert results[5].totals() == (5, 1700, 0, 0, 0, 20, 20, "standard", 150, 2, 1702, 150)


def test_700_cap_and_junior() -> None:
    # A junior (born 2012, 2025: 13) rated 1500 draws 20 games with 1500s: K 40 x 20 = 800 >
    # 700 -> K = 700 // 20 = 35. Each draw at D 0: PD .50, S .50, surplus 0 -> change 0.
    states = {1: PlayerState(1500, birth_year=2012, rated_games=100)}
    states |= {100 + i: adult(1500) for i in range(20)}
    games = [(i, None, 1, 100 + i, 1500, 1500, 1) for i in range(20)]
    r = rate_rows(states, games, Period(2025, 11), Edition.E2025_10)[1]
    assert (r.k_before_cap, r.k, r.k_reason, r.n, r.change) == (40, 35, KReason.JUNIOR, 20, 0)


def _random_period(rng: random.Random, players: int, games: int, period: Period,
                   ) -> tuple[dict[int, PlayerState], list[RatedGame], dict[int, int]]:
    """A seeded random period: players of every kind, games of every kind, some carried."""
    states = {}
    for pid in range(1, players + 1):
        kind = rng.random()
        rating = None if kind < 0.08 else rng.choice(
            [rng.randint(1400, 2300), rng.randint(2300, 2649), rng.randint(2650, 2850)])
        states[pid] = PlayerState(
            rating=rating, birth_year=rng.choice([None, 1960, 1990, period.year - 14]),
            rated_games=rng.choice([None, 0, 12, 29, 30, 200]),
            reached_2400=rating is not None and rating >= 2400 or rng.random() < 0.05,
            reached_2300=rating is not None and rating >= 2300)
    results = list(Result)
    out = []
    for gid in range(1, games + 1):
        white, black = rng.sample(range(1, players + 1), 2)

        def at_start(pid: int) -> int | None:
            own = states[pid].rating
            # now and then unrated at the event's start though rated on the period's list
            return None if own is None or rng.random() < 0.05 else own + rng.randint(-30, 30)

        out.append(RatedGame(gid, rng.choice([None, 1, 2, 3, "x"]), white, black,
                             at_start(white), at_start(black),
                             rng.choices(results, [30, 25, 30, 5, 5, 5])[0],
                             played=rng.random() > 0.03, unequal_times=rng.random() < 0.02))
    carried = {pid: rng.randint(-500, 500) for pid in rng.sample(range(1, players + 1), 15)}
    return states, out, carried


@pytest.mark.parametrize("pool", [STANDARD, RAPID, BLITZ])
@pytest.mark.parametrize(("period", "edition"), [
    (Period(2022, 5), Edition.E2022_01), (Period(2024, 6), Edition.E2024_03),
    (Period(2024, 12), Edition.E2024_03), (Period(2025, 11), Edition.E2025_10)])
def test_same_as_reference(pool: str, period: Period, edition: Edition) -> None:
    rng = random.Random(f"{pool} {period} {edition.value}")
    states, games, carried = _random_period(rng, 120, 1500, period)
    reference = rate_period(states, games, period, edition,
                            {pid: Decimal(h).scaleb(-2) for pid, h in carried.items()}, pool)
    tuples = [row(g) for g in games]
    rows = rate_rows(states, tuples, period, edition, carried, pool)
    assert list(rows) == list(reference)
    # the same rows held as columns (the close's load_game_rows), the text event key an id
    held = GameRowColumns()
    held.extend([(r[0], 4 if r[1] == "x" else r[1], *r[2:]) for r in tuples[:700]])
    held.extend([(r[0], 4 if r[1] == "x" else r[1], *r[2:]) for r in tuples[700:]])
    assert rate_rows(states, held, period, edition, carried, pool) == rows
    assert {pid: from_reference(r) for pid, r in reference.items()} == rows
    # the Decimal view of the rows is the reference's own
    for pid, r in reference.items():
        fast = rows[pid]
        assert (fast.score, fast.expected, fast.surplus, fast.change_exact, fast.carried,
                fast.games, fast.k_capped) == (r.score, r.expected, r.surplus, r.change_exact,
                                              r.carried, r.games, r.k_capped), pid


def test_game_row_columns_hold_the_rows() -> None:
    held = GameRowColumns()
    held.extend([(10, None, 1, 2, 2000, 1900, 2), (11, 7, 2, 3, None, 1850, None)])
    held.extend([])
    held.extend([(12, 7, 3, 1, 1850, 2000, 1)])
    # None held as -1: game 10 has no event, game 11 an unrated White and no score (a forfeit)
    assert len(held) == 3
    assert (list(held.game_id), list(held.event), list(held.white_rating), list(held.halves)) == (
        [10, 11, 12], [-1, 7, 7], [2000, -1, 1850], [2, -1, 1])
    assert list(held.rows()) == [(10, None, 1, 2, 2000, 1900, 2), (11, 7, 2, 3, None, 1850, None),
                                 (12, 7, 3, 1, 1850, 2000, 1)]
    with pytest.raises(TypeError):
        held.extend([(13, "x", 1, 2, 2000, 1900, 2)])  # a text event key: ints only
    assert len(held.white) == 3  # nothing added


def test_game_row_columns_sorted_by_keys_keep_equal_keys_in_order() -> None:
    held = GameRowColumns()
    held.extend([(10, None, 1, 2, 2000, 1900, 2), (11, 7, 2, 3, None, 1850, None),
                 (12, 7, 3, 1, 1850, 2000, 1), (13, None, 1, 3, 2000, 1850, 0)])
    # days 5, 3, 5, 3: the rows of day 3 (11, 13), then of day 5 (10, 12), each as added
    held.sort_by(array("q", [5, 3, 5, 3]))
    assert list(held.rows()) == [(11, 7, 2, 3, None, 1850, None), (13, None, 1, 3, 2000, 1850, 0),
                                 (10, None, 1, 2, 2000, 1900, 2), (12, 7, 3, 1, 1850, 2000, 1)]
    assert all(type(column) is array and column.typecode == "q"
               for column in (held.game_id, held.event, held.halves))
    held.extend([(14, None, 2, 1, 1900, 2000, 2)])  # sorted in place: the columns still grow
    assert list(held.game_id) == [11, 13, 10, 12, 14]
    with pytest.raises(ValueError):
        held.sort_by(array("q", [1, 2]))  # not one key a row
