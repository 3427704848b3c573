"""Rating one period (B.02 §8.3; RULES.md §4-§5, §8) and the rating cases of docs/CASES.md.

Each case's inputs and expected values are written as in docs/CASES.md (worked by hand
there, and repeated in the comments here). For the TRF and PGN cases (C15, C16, C18, C21, C23) only
the rating part is tested here, with ``RatedGame`` values standing for what the file says:
forfeits as forfeit ``Result``s, TRF ``W/D/L`` / PGN games with fewer than one move each as
``played=False``, games against an unrated opponent with that rating ``None``; byes and unfinished
games produce no ``RatedGame`` at all. Reading the files themselves is tested with the format
readers.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from ledger.domain import KReason, Period, PlayerState, RatedGame, Result
from ledger.rules.editions import Edition
from ledger.rules.period import (
    PeriodResult,
    PlayerGame,
    rate_period,
    rate_player,
    round_half_away_from_zero,
)

W = Result.WHITE_WINS
B = Result.BLACK_WINS
DRAW = Result.DRAW

NOV_2025 = Period(2025, 11)
DEC_2025 = Period(2025, 12)


def adult(rating: int | None, games: int = 150, reached_2400: bool = False) -> PlayerState:
    """An adult established player (born 1980), K 20 unless reached_2400 (then 10)."""
    return PlayerState(rating=rating, birth_year=1980, rated_games=games,
                       reached_2400=reached_2400, reached_2300=reached_2400)


class Games:
    """Builds RatedGame values with consecutive ids."""

    def __init__(self) -> None:
        self.games: list[RatedGame] = []

    def add(self, white: int, black: int, white_rating: int | None, black_rating: int | None,
            result: Result, event: int | str | None = "event", played: bool = True) -> None:
        self.games.append(RatedGame(len(self.games) + 1, event, white, black, white_rating,
                                    black_rating, result, played))


# --- rounding (§8.3.4) ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("exact", "rounded"),
    [
        ("-2.5", -3),  # RULES.md §5: -2.50 -> -3
        ("4.5", 5),  # +4.5 -> +5
        ("-4.5", -5),  # -4.5 -> -5
        ("6.5", 7),  # not banker's rounding (round(6.5) == 6)
        ("0.5", 1),
        ("-0.5", -1),
        ("2.4", 2),
        ("-2.4", -2),
        ("2.6", 3),
        ("-1.6", -2),
        ("177.84", 178),
        ("0", 0),
        ("0.49", 0),
        ("-0.49", 0),
    ],
)
def test_round_half_away_from_zero(exact: str, rounded: int) -> None:
    result = round_half_away_from_zero(Decimal(exact))
    assert type(result) is int
    assert result == rounded


# --- seed example (RULES.md §5) -------------------------------------------------------------------


def test_seed_example_1600_draws_1800_beats_1400() -> None:
    # Draw v 1800: D = -200 -> 1 - .76 = .24 -> S - PD = +0.26.
    # Win v 1400: D = +200 -> .76 -> S - PD = +0.24.  Sum 0.50; K 20 -> +10.00 -> 1610.
    games = [
        PlayerGame(1, "club", 2, 1600, 1800, Decimal("0.5")),
        PlayerGame(2, "club", 3, 1600, 1400, Decimal(1)),
    ]
    r = rate_player(1, 1600, games, Edition.E2025_10, k=20)
    assert r.expected == Decimal("1.00")  # .24 + .76
    assert r.surplus == Decimal("0.50")
    assert r.change_exact == Decimal("10.00")
    assert r.change == 10
    assert r.rating_after == 1610
    assert r.n == 2
    assert r.k == 20
    assert r.k_reason is KReason.EXPLICIT


def test_no_games_no_change() -> None:
    r = rate_player(1, 1600, [], Edition.E2025_10, k=20)
    assert r.change_exact == 0
    assert r.change == 0
    assert r.rating_after == 1600
    assert r.n == 0


# --- C01: table 8.1.2, not the formula ------------------------------------------------------------


def test_c01_table_not_formula() -> None:
    # A 2000, adult, 150 games -> K 20. Five wins v five different 1600s.
    # D = 400 -> band 392-411 -> .92; S - PD = .08 each; sum .40; 20 x .40 = 8.00 -> +8 (2008).
    # (Formula 0.9091 would give 9.09 -> +9.)
    states = {1: adult(2000)} | {i: adult(1600) for i in range(2, 7)}
    g = Games()
    for opp in range(2, 7):
        g.add(1, opp, 2000, 1600, W)
    r = rate_period(states, g.games, NOV_2025, Edition.E2025_10)[1]
    assert r.k == 20
    assert r.n == 5
    assert all(a.expected == Decimal("0.92") for a in r.games)
    assert r.surplus == Decimal("0.40")
    assert r.change_exact == Decimal("8.00")
    assert r.change == 8
    assert r.rating_after == 2008


# --- C02: round once per period, no zero-sum ------------------------------------------------------


def test_c02_round_once_per_period_no_zero_sum() -> None:
    # A 1800, K 20; three one-round events, each a draw v a different 1750.
    # D = +50 -> band 47-53 -> .57; S - PD = -.07 each; sum -.21; 20 x -.21 = -4.2 -> -4 (1796).
    # (Rounding per event: -1.4 -> -1, three times -> -3: wrong.)
    states = {1: adult(1800), 2: adult(1750), 3: adult(1750), 4: adult(1750)}
    g = Games()
    g.add(1, 2, 1800, 1750, DRAW, event="e1")
    g.add(3, 1, 1750, 1800, DRAW, event="e2")
    g.add(1, 4, 1800, 1750, DRAW, event="e3")
    results = rate_period(states, g.games, NOV_2025, Edition.E2025_10)
    a = results[1]
    assert a.n == 3
    assert a.surplus == Decimal("-0.21")
    assert a.change_exact == Decimal("-4.2")
    assert a.change == -4
    assert a.rating_after == 1796
    # Each 1750 opponent: PD .43, S - PD +.07, K 20 -> +1.4 -> +1.
    for opp in (2, 3, 4):
        assert results[opp].change_exact == Decimal("1.4")
        assert results[opp].change == 1
    # Sum of all changes: -4 + 3 = -1 (zero-sum not enforced).
    assert sum(r.change for r in results.values()) == -1


# --- C03: negative .5 -----------------------------------------------------------------------------


def test_c03_negative_half_rounds_away_from_zero() -> None:
    # H 2450, K 10 (reached 2400). Draw v 2260: D = +190 -> band 189-197 -> .75;
    # S - PD = -.25; 10 x -.25 = -2.5 -> -3 (2447).
    states = {1: adult(2450, reached_2400=True), 2: adult(2260)}
    g = Games()
    g.add(1, 2, 2450, 2260, DRAW)
    results = rate_period(states, g.games, NOV_2025, Edition.E2025_10)
    h = results[1]
    assert h.k == 10
    assert h.k_reason is KReason.REACHED_2400
    assert h.change_exact == Decimal("-2.5")
    assert h.change == -3
    assert h.rating_after == 2447
    # Mirror: the 2260 opponent (K 20): PD .25, +.25 x 20 = +5.0 -> +5.
    o = results[2]
    assert o.k == 20
    assert o.change_exact == Decimal("5.0")
    assert o.change == 5


# --- C04: exact decimal sums, no banker's rounding ------------------------------------------------


def test_c04_exact_sum_and_half_up() -> None:
    # H 2450, K 10. Wins v 2420 (D = +30 -> band 26-32 -> .54 -> +.46) and v 2200
    # (D = +250 -> band 246-256 -> .81 -> +.19). Sum .65; 10 x .65 = 6.5 -> +7 (2457).
    states = {1: adult(2450, reached_2400=True), 2: adult(2420, reached_2400=True),
              3: adult(2200)}
    g = Games()
    g.add(1, 2, 2450, 2420, W)
    g.add(3, 1, 2200, 2450, B)
    h = rate_period(states, g.games, NOV_2025, Edition.E2025_10)[1]
    assert [a.expected for a in h.games] == [Decimal("0.54"), Decimal("0.81")]
    assert h.surplus == Decimal("0.65")
    assert h.change_exact == Decimal("6.5")
    assert h.change == 7
    assert h.rating_after == 2457


# --- C07: K around 2400, sticky and fixed for the period ------------------------------------------


def test_c07_k_around_2400_over_three_periods() -> None:
    # Player S, adult, 200 career games; opponents each period rated equal to S's published rating.
    opp_2395 = adult(2395)
    opp_2415 = adult(2415, reached_2400=True)

    # Jan 2026: published 2395, never 2400 -> K 20. Two wins v 2395s: D 0 -> .50; sum 1.0
    # -> +20 -> 2415 (no game-by-game update: not 2410).
    jan_states = {1: adult(2395, games=200), 2: opp_2395, 3: opp_2395}
    g = Games()
    g.add(1, 2, 2395, 2395, W)
    g.add(3, 1, 2395, 2395, B)
    jan = rate_period(jan_states, g.games, Period(2026, 1), Edition.E2025_10)[1]
    assert jan.k == 20
    assert jan.k_reason is KReason.STANDARD
    assert jan.change_exact == Decimal("20.0")
    assert jan.change == 20
    assert jan.rating_after == 2415

    # Feb 2026: published 2415 >= 2400 -> K 10. Four losses v 2415s: sum -2.0 -> -20 -> 2395.
    feb_states = {1: PlayerState(2415, birth_year=1980, rated_games=202, reached_2400=True,
                                 reached_2300=True)}
    feb_states |= {i: opp_2415 for i in range(2, 6)}
    g = Games()
    for opp in range(2, 6):
        g.add(1, opp, 2415, 2415, B)
    feb = rate_period(feb_states, g.games, Period(2026, 2), Edition.E2025_10)[1]
    assert feb.k == 10
    assert feb.k_reason is KReason.REACHED_2400
    assert feb.change_exact == Decimal("-20.0")
    assert feb.change == -20
    assert feb.rating_after == 2395

    # Mar 2026: published 2395 but 2400 was reached on the Feb list -> K stays 10.
    # Two wins v 2395s: sum +1.0 -> +10 -> 2405 (not +20 -> 2415).
    mar_states = {1: PlayerState(2395, birth_year=1980, rated_games=206, reached_2400=True,
                                 reached_2300=True), 2: opp_2395, 3: opp_2395}
    g = Games()
    g.add(1, 2, 2395, 2395, W)
    g.add(1, 3, 2395, 2395, W)
    mar = rate_period(mar_states, g.games, Period(2026, 3), Edition.E2025_10)[1]
    assert mar.k == 10
    assert mar.k_reason is KReason.REACHED_2400
    assert mar.change_exact == Decimal("10.0")
    assert mar.change == 10
    assert mar.rating_after == 2405


# --- C09: K 40 for the whole period in which game 30 is played ------------------------------------


def test_c09_k40_for_whole_period_of_game_30() -> None:
    # N, adult, 1600, 26 career games before Dec 2025 -> K 40 for all of December.
    # Eight games v 1600s, L L W W W W W L: D 0 -> .50; sum 5 x .5 - 3 x .5 = 1.0;
    # 40 x 1.0 = 40 -> +40 -> 1640. (K switching after game 30 would give +20.)
    states = {1: adult(1600, games=26)} | {i: adult(1600) for i in range(2, 10)}
    g = Games()
    for opp, res in zip(range(2, 10), "LLWWWWWL", strict=True):
        g.add(1, opp, 1600, 1600, W if res == "W" else B)
    n = rate_period(states, g.games, DEC_2025, Edition.E2025_10)[1]
    assert n.k == 40
    assert n.k_reason is KReason.NEW_PLAYER
    assert not n.k_capped  # 8 x 40 = 320 <= 700
    assert n.n == 8
    assert n.change_exact == Decimal("40.0")
    assert n.change == 40
    assert n.rating_after == 1640


# --- C10: the K x n <= 700 cap --------------------------------------------------------------------


def test_c10_700_cap_19_games() -> None:
    # Junior J2 (born 2010; 2025 - 2010 = 15), 2000, K 40. 19 draws v 2200s.
    # n = 19 -> floor(700/19) = 36. D = -200 -> .24; S - PD = .26; sum 19 x .26 = 4.94;
    # 36 x 4.94 = 177.84 -> +178 -> 2178.
    states = {1: PlayerState(2000, birth_year=2010, rated_games=80)}
    states |= {i: adult(2200) for i in range(2, 21)}
    g = Games()
    for opp in range(2, 21):
        g.add(1, opp, 2000, 2200, DRAW)
    j = rate_period(states, g.games, DEC_2025, Edition.E2025_10)[1]
    assert j.n == 19
    assert j.k_before_cap == 40
    assert j.k_reason is KReason.JUNIOR
    assert j.k == 36
    assert j.k_capped
    assert j.surplus == Decimal("4.94")
    assert j.change_exact == Decimal("177.84")
    assert j.change == 178
    assert j.rating_after == 2178


def test_c10_forfeits_are_not_counted_in_n() -> None:
    # Same J2; 19 scheduled games, 2 forfeits, 17 draws v 2200s.
    # n = 17 -> floor(700/17) = 41 -> K stays 40; sum 17 x .26 = 4.42; 40 x 4.42 = 176.8 -> +177.
    # (Counting forfeits: K 36 -> 159.12 -> +159: wrong.)
    states = {1: PlayerState(2000, birth_year=2010, rated_games=80)}
    states |= {i: adult(2200) for i in range(2, 21)}
    g = Games()
    for opp in range(2, 19):
        g.add(1, opp, 2000, 2200, DRAW)
    g.add(1, 19, 2000, 2200, Result.WHITE_FORFEIT_WIN)  # J2 wins by forfeit
    g.add(20, 1, 2200, 2000, Result.WHITE_FORFEIT_WIN)  # J2 loses by forfeit
    j = rate_period(states, g.games, DEC_2025, Edition.E2025_10)[1]
    assert j.n == 17
    assert j.k == 40
    assert not j.k_capped
    assert j.surplus == Decimal("4.42")
    assert j.change_exact == Decimal("176.80")
    assert j.change == 177
    assert j.rating_after == 2177
    # The forfeit opponents have no rated game at all.
    results = rate_period(states, g.games, DEC_2025, Edition.E2025_10)
    assert 19 not in results
    assert 20 not in results


# --- C15: TRF forfeits and "less than one move" ---------------------------------------------------


def test_c15_forfeits_and_zero_move_games_not_rated() -> None:
    # Ledger: A=1 1800, B=2 1900, C=3 1700, D=4 2000, E=5 1800, all K 20.
    # The TRF lines (A's, B's, D's) as RatedGame values; the file parsing is tested with the
    # TRF reader.
    states = {1: adult(1800), 2: adult(1900), 3: adult(1700), 4: adult(2000), 5: adult(1800)}
    g = Games()
    g.add(1, 2, 1800, 1900, Result.WHITE_FORFEIT_WIN)  # R1 A w `+` v B (B: `-`): not rated
    g.add(4, 5, 2000, 1800, B)  # R1 D w `0` v E
    g.add(3, 1, 1700, 1800, B)  # R2 A b `1` v C
    g.add(4, 2, 2000, 1900, B)  # R2 B b `1` v D (D: w `0`)
    g.add(1, 4, 1800, 2000, DRAW, played=False)  # R3 A w `D` v D: less than one move
    g.add(2, 5, 1900, 1800, B)  # R3 B w `0` v E
    g.add(5, 1, 1800, 1800, DRAW)  # R4 A b `=` v E
    g.add(2, 3, 1900, 1700, B)  # R4 B w `0` v C; D has a `Z` bye: no game
    results = rate_period(states, g.games, NOV_2025, Edition.E2025_10)

    # A: R2 win v C: D = +100 -> band 99-106 -> .64 -> +.36; R4 draw v E: D 0 -> .50 -> 0.
    # Sum .36; 20 x .36 = 7.2 -> +7; n = 2.
    a = results[1]
    assert a.n == 2
    assert a.change_exact == Decimal("7.20")
    assert a.change == 7

    # B: R2 win v D (D -100 -> .36 -> +.64), R3 loss v E (D +100 -> .64 -> -.64),
    # R4 loss v C (D +200 -> .76 -> -.76). Sum -.76 -> -15.2 -> -15; n = 3.
    b = results[2]
    assert b.n == 3
    assert b.change_exact == Decimal("-15.20")
    assert b.change == -15

    # D: R1 loss v E (D +200 -> .76 -> -.76), R2 loss v B (D +100 -> .64 -> -.64).
    # Sum -1.40 -> -28; n = 2 (R3 `D` excluded).
    d = results[4]
    assert d.n == 2
    assert d.change_exact == Decimal("-28.00")
    assert d.change == -28


# --- C16 (a): byes produce no game ----------------------------------------------------------------


def test_c16a_byes_are_not_games() -> None:
    # E=5 1800 (K 20). Rounds 1-3 are byes U, F, H (opponent 0000): no RatedGame at all.
    # R4 E w `0` v C (1700): D = +100 -> .64 -> -.64; 20 x -.64 = -12.8 -> -13; n = 1.
    # The TRF parsing (and refusing variant (b)) is tested with the TRF reader.
    states = {3: adult(1700), 5: adult(1800)}
    g = Games()
    g.add(5, 3, 1800, 1700, B)
    e = rate_period(states, g.games, NOV_2025, Edition.E2025_10)[5]
    assert e.n == 1
    assert e.change_exact == Decimal("-12.80")
    assert e.change == -13
    assert e.rating_after == 1787


# --- C18: line endings (rating part) --------------------------------------------------------------


def test_c18_one_rated_game() -> None:
    # A=1 1800 beat B=2 1900 in round 1; round 2 "not played" (0000, blank result = Z): no game.
    # A: D = -100 -> .36 -> +.64 -> 12.8 -> +13. B: .64 -> -.64 -> -12.8 -> -13.
    # The three line-ending variants are tested with the TRF reader.
    states = {1: adult(1800), 2: adult(1900)}
    g = Games()
    g.add(1, 2, 1800, 1900, W)
    results = rate_period(states, g.games, NOV_2025, Edition.E2025_10)
    assert set(results) == {1, 2}
    assert results[1].n == 1
    assert results[1].change_exact == Decimal("12.80")
    assert results[1].change == 13
    assert results[2].n == 1
    assert results[2].change_exact == Decimal("-12.80")
    assert results[2].change == -13


# --- C21: PGN Elo tags (rating part) --------------------------------------------------------------


def test_c21_ratings_from_ledger_unrated_opponent_excluded() -> None:
    # Ledger: A=1 1800 (K 20), G=2 unrated, H=3 1750, I=4 1900. Ratings come from the ledger,
    # not the tags (I's tag 2210 ignored). The PGN reading is tested with the PGN reader.
    states = {1: adult(1800), 2: PlayerState(rating=None), 3: adult(1750), 4: adult(1900)}
    g = Games()
    g.add(1, 2, 1800, None, W)  # game 1 v G, unrated: not rated for A
    g.add(3, 1, 1750, 1800, DRAW)  # game 2 v H: D = +50 -> .57 -> -.07
    g.add(1, 4, 1800, 1900, W)  # game 3 v I: D = -100 -> .36 -> +.64
    results = rate_period(states, g.games, NOV_2025, Edition.E2025_10)
    # Sum .57 -> 20 x .57 = 11.4 -> +11; n = 2.
    a = results[1]
    assert a.n == 2
    assert a.change_exact == Decimal("11.40")
    assert a.change == 11
    assert 2 not in results  # the unrated player gets no period change here (§8.2 is separate)


# --- C23: PGN results that are not rated (rating part) --------------------------------------------


def test_c23_only_g5_rated() -> None:
    # Ledger: A=1 1800 (K 20), B=2 1900, C=3 1700, E=5 1800, F=6 1850, D=4 2000.
    # G3 (`*`, unfinished) produces no RatedGame; the PGN reading (and refusing G6 `0.5-0.5`) is
    # tested with the PGN reader.
    states = {1: adult(1800), 2: adult(1900), 3: adult(1700), 4: adult(2000), 5: adult(1800),
              6: adult(1850)}
    g = Games()
    g.add(1, 2, 1800, 1900, Result.DOUBLE_FORFEIT)  # G1 `0-0`, no moves: double forfeit
    g.add(1, 3, 1800, 1700, Result.WHITE_FORFEIT_WIN)  # G2 `1-0`, no moves: forfeit
    g.add(1, 6, 1800, 1850, W, played=False)  # G4 `1. e4 1-0`: Black never moved
    g.add(4, 1, 2000, 1800, DRAW)  # G5
    results = rate_period(states, g.games, NOV_2025, Edition.E2025_10)
    # G5: D = -200 -> band 198-206 -> A gets .24 -> +.26 -> 5.2 -> +5; n = 1.
    a = results[1]
    assert a.n == 1
    assert a.change_exact == Decimal("5.20")
    assert a.change == 5
    assert set(results) == {1, 4}


# --- 2022-01 edition: only the largest-difference game of each event is capped --------------------


def _two_wins(opp_ratings: tuple[int, int], events: tuple[str, str], period: Period,
              edition: Edition) -> PeriodResult:
    states = {1: adult(2000), 2: adult(opp_ratings[0]), 3: adult(opp_ratings[1])}
    g = Games()
    g.add(1, 2, 2000, opp_ratings[0], W, event=events[0])
    g.add(3, 1, opp_ratings[1], 2000, B, event=events[1])
    return rate_period(states, g.games, period, edition)[1]


def test_2022_edition_caps_only_largest_difference_game_of_event() -> None:
    # 2000 (K 20) beats 1500 and 1450 in one event, May 2023.
    # v 1450: D = 550, the largest -> capped to 400 -> .92 -> +.08.
    # v 1500: D = 500, not capped -> band 485-517 -> .96 -> +.04.
    # Sum .12; 20 x .12 = 2.4 -> +2.
    r = _two_wins((1500, 1450), ("open", "open"), Period(2023, 5), Edition.E2022_01)
    assert [(a.counted_difference, a.capped, a.expected) for a in r.games] == [
        (500, False, Decimal("0.96")),
        (400, True, Decimal("0.92")),
    ]
    assert r.surplus == Decimal("0.12")
    assert r.change_exact == Decimal("2.40")
    assert r.change == 2


def test_2024_edition_caps_every_game_of_event() -> None:
    # Same games, May 2024 (E2024_03): both capped -> .92 each -> .08 + .08 = .16;
    # 20 x .16 = 3.2 -> +3.
    r = _two_wins((1500, 1450), ("open", "open"), Period(2024, 5), Edition.E2024_03)
    assert all(a.capped and a.expected == Decimal("0.92") for a in r.games)
    assert r.change_exact == Decimal("3.20")
    assert r.change == 3


def test_2022_edition_brief_example_1500_and_1550() -> None:
    # 2000 beats 1500 (D 500, largest -> 400 -> .92 -> +.08) and 1550 (D 450 -> band 433-456
    # -> .94 -> +.06) in one event: sum .14; 20 x .14 = 2.8 -> +3.
    r = _two_wins((1500, 1550), ("open", "open"), Period(2023, 5), Edition.E2022_01)
    assert r.change_exact == Decimal("2.80")
    assert r.change == 3
    # E2024_03: both capped -> .08 + .08 = .16 -> 3.2 -> +3.
    r = _two_wins((1500, 1550), ("open", "open"), Period(2024, 5), Edition.E2024_03)
    assert r.change_exact == Decimal("3.20")
    assert r.change == 3


def test_2022_edition_caps_one_game_in_each_event() -> None:
    # The same two wins in two different events: each is its event's largest-difference game,
    # so both are capped -> .08 + .08 = .16 -> 3.2 -> +3.
    r = _two_wins((1500, 1450), ("event-1", "event-2"), Period(2023, 5), Edition.E2022_01)
    assert all(a.capped and a.expected == Decimal("0.92") for a in r.games)
    assert r.change_exact == Decimal("3.20")
    assert r.change == 3


# --- 2650 exemption (E2025_10) --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rating", "counted", "pd", "exact"),
    [
        # 2700 v 2200: D 500 used as is -> band 485-517 -> .96 -> +.04 x 10 = +0.4
        (2700, 500, "0.96", "0.40"),
        # 2650 v 2200: "2650 or more" -> D 450 -> band 433-456 -> .94 -> +.06 x 10 = +0.6
        (2650, 450, "0.94", "0.60"),
        # 2649 v 2200: below 2650 -> D 449 capped to 400 -> .92 -> +.08 x 10 = +0.8
        (2649, 400, "0.92", "0.80"),
    ],
)
def test_2650_exemption_from_october_2025(rating: int, counted: int, pd: str, exact: str) -> None:
    states = {1: adult(rating, reached_2400=True), 2: adult(2200)}
    g = Games()
    g.add(1, 2, rating, 2200, W)
    r = rate_period(states, g.games, NOV_2025, Edition.E2025_10)[1]
    assert r.k == 10
    assert r.games[0].counted_difference == counted
    assert r.expected == Decimal(pd)
    assert r.change_exact == Decimal(exact)


def test_2650_exemption_does_not_apply_before_october_2025() -> None:
    # Sep 2025 (E2024_03): the 2700 player is capped: D 500 -> 400 -> .92 -> +0.8.
    states = {1: adult(2700, reached_2400=True), 2: adult(2200)}
    g = Games()
    g.add(1, 2, 2700, 2200, W)
    r = rate_period(states, g.games, Period(2025, 9), Edition.E2024_03)[1]
    assert r.games[0].counted_difference == 400
    assert r.change_exact == Decimal("0.80")


def test_opponent_still_capped_when_higher_player_is_exempt() -> None:
    # The 2200 player loses to the 2700 (K 20): D -500 -> -400 -> .08 -> -.08 x 20 = -1.6 -> -2.
    states = {1: adult(2700, reached_2400=True), 2: adult(2200)}
    g = Games()
    g.add(1, 2, 2700, 2200, W)
    r = rate_period(states, g.games, NOV_2025, Edition.E2025_10)[2]
    assert r.games[0].counted_difference == -400
    assert r.change_exact == Decimal("-1.60")
    assert r.change == -2


# --- RULES §2 / §8.3.1: games v unrated opponents are not in n for the 700 cap ------------------


def test_game_v_unrated_opponent_not_counted_in_n_for_the_700_cap() -> None:
    # Player 1: 1800, 10 rated games before -> K 40 (new player). 17 draws v 1800s (players
    # 2..18) and a win v unrated 99. n = 17 (not 18): 40 x 17 = 680 <= 700 -> K stays 40
    # (with n = 18 it would be floor(700 / 18) = 38). Each draw: D = 0 -> .50; S - PD = 0.
    states = {1: PlayerState(rating=1800, birth_year=1980, rated_games=10), 99: PlayerState(None)}
    g = Games()
    for opponent in range(2, 19):
        states[opponent] = adult(1800)
        g.add(1, opponent, 1800, 1800, DRAW)
    g.add(1, 99, 1800, None, W)
    result = rate_period(states, g.games, NOV_2025, Edition.E2025_10)[1]
    assert (result.n, result.k, result.k_before_cap, result.change) == (17, 40, 40, 0)
