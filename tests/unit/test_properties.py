"""Property tests for the pure rating rules (hypothesis).

The oracles are independent of the code under test: symmetry of table 8.1.2 (the lower-rated player
gets 1 - PD), a hand-written half-away-from-zero rounding, and the zero-sum of unrounded changes
between two equal-K players when no rule treats them differently.
"""

from __future__ import annotations

import math
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from ledger.domain import Period, PlayerState, RatedGame, Result
from ledger.rules.editions import Edition
from ledger.rules.expected import pd_hundredths
from ledger.rules.period import PlayerGame, rate_period, rate_player
from ledger.rules.tables import pd_higher_hundredths

SCORES = st.sampled_from([Decimal(0), Decimal("0.5"), Decimal(1)])
EDITIONS = st.sampled_from(list(Edition))
RESULTS = st.sampled_from([Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS])


def _independent_round(x: Decimal) -> int:
    """Half away from zero, written independently: sign(x) * floor(|x| + 1/2)."""
    magnitude = math.floor(abs(x) + Decimal("0.5"))
    return magnitude if x >= 0 else -magnitude


@given(st.integers(min_value=-400, max_value=400))
def test_pd_symmetric_within_400(d: int) -> None:
    assert pd_hundredths(d) + pd_hundredths(-d) == 100


@given(st.integers(min_value=-5000, max_value=5000))
def test_pd_symmetric_everywhere(d: int) -> None:
    assert pd_hundredths(d) + pd_hundredths(-d) == 100
    assert 0 <= pd_hundredths(d) <= 100


@given(st.integers(min_value=0, max_value=2000), st.integers(min_value=0, max_value=2000))
def test_pd_higher_is_monotone(a: int, b: int) -> None:
    lo, hi = sorted((a, b))
    assert 50 <= pd_higher_hundredths(lo) <= pd_higher_hundredths(hi) <= 100


@given(
    own=st.integers(min_value=1000, max_value=2900),
    games=st.lists(st.tuples(st.integers(min_value=1000, max_value=2900), SCORES), max_size=40),
    k=st.sampled_from([10, 15, 20, 40]),
    edition=EDITIONS,
)
def test_change_is_one_half_away_rounding_of_exact(
    own: int, games: list[tuple[int, Decimal]], k: int, edition: Edition
) -> None:
    pgs = [PlayerGame(i, "e", 100 + i, own, opp, s) for i, (opp, s) in enumerate(games)]
    r = rate_player(1, own, pgs, edition, k=k)
    assert type(r.change) is int
    assert r.change == _independent_round(r.change_exact)
    assert abs(r.change - r.change_exact) <= Decimal("0.5")
    assert r.rating_after == own + r.change


@st.composite
def two_close_players(draw: st.DrawFn) -> tuple[int, int]:
    a = draw(st.integers(min_value=1000, max_value=2649))
    b = draw(st.integers(min_value=max(1000, a - 400), max_value=min(2649, a + 400)))
    return a, b


@given(
    ratings=two_close_players(),
    results=st.lists(RESULTS, min_size=1, max_size=10),
    colours=st.lists(st.booleans(), min_size=10, max_size=10),
    edition=EDITIONS,
)
def test_unrounded_changes_cancel_between_two_equal_k_players(
    ratings: tuple[int, int], results: list[Result], colours: list[bool], edition: Edition
) -> None:
    # Both adult, established (K 20), below 2650, within 400 (no cap), at most 10 games
    # (20 x 10 = 200 <= 700, no cut): each game's S - PD is opposite for the two players.
    a, b = ratings
    states = {
        1: PlayerState(a, birth_year=1980, rated_games=100),
        2: PlayerState(b, birth_year=1980, rated_games=100),
    }
    games = []
    for i, res in enumerate(results):
        if colours[i]:
            games.append(RatedGame(i, "e", 1, 2, a, b, res))
        else:
            games.append(RatedGame(i, "e", 2, 1, b, a, res))
    out = rate_period(states, games, Period(2025, 11), edition)
    assert out[1].k == out[2].k == 20
    assert out[1].n == out[2].n == len(results)
    assert out[1].change_exact + out[2].change_exact == 0
    assert out[1].score + out[2].score == len(results)
