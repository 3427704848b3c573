"""The integrity checks' rules (``ledger.rules.integrity``): each check triggered and not at its
threshold's edges, the values worked by hand (table 8.1.1 for dp: docs/RULES.md §7)."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

from ledger.rules.integrity import (
    CODES,
    THRESHOLDS,
    DayGame,
    Thresholds,
    closed_pool,
    game_minutes,
    late_submission,
    long_day,
    new_player_details,
    performance_flag,
    unrated_share,
    year_before,
)

W, D, L = Fraction(1), Fraction(1, 2), Fraction(0)
END = dt.date(2026, 3, 31)


def test_thresholds_in_one_place() -> None:
    assert THRESHOLDS == Thresholds(closed_pool_months=12, performance_above=400,
                                    performance_min_games=5, day_minutes=720, late_days=30,
                                    unrated_share=Fraction(1, 2))
    assert CODES == ("closed-pool", "performance", "long-day", "late-submission",
                     "new-player-details", "unrated-share")


@pytest.mark.parametrize(("day", "first"), [
    (dt.date(2026, 3, 31), dt.date(2025, 4, 1)),   # 2025-03-31 + 1 day
    (dt.date(2026, 1, 15), dt.date(2025, 1, 16)),
    (dt.date(2024, 2, 29), dt.date(2023, 3, 1)),   # 2023-02-28 (no 29th) + 1 day
    (dt.date(2026, 12, 31), dt.date(2026, 1, 1)),
])
def test_year_before(day: dt.date, first: dt.date) -> None:
    assert year_before(day) == first


# (a) closed pool

def test_closed_pool_flagged() -> None:
    flag = closed_pool("Circle", END, {1, 2, 3}, [(1, 2), (2, 3), (3, 1)], recorded=1)
    assert flag is not None
    assert (flag.code, flag.subject, flag.concerns, flag.player_id) == (
        "closed-pool", "event", "Circle", None)
    assert flag.message == ("Circle: its 3 players played nobody outside the group in the 12 "
                            "months to 2026-03-31 (3 games, 1 earlier games recorded among "
                            "them)")


def test_closed_pool_without_history_says_so() -> None:
    flag = closed_pool("Circle", END, {1, 2}, [(1, 2)], recorded=0)
    assert flag is not None
    assert flag.message.endswith("(1 games, none of them has an earlier game recorded)")


def test_one_outside_opponent_opens_the_pool() -> None:
    # player 3 met 9, who is not in the event: no flag, whichever side 9 sits on
    assert closed_pool("Open", END, {1, 2, 3}, [(1, 2), (3, 9)], recorded=1) is None
    assert closed_pool("Open", END, {1, 2, 3}, [(9, 3), (1, 2)], recorded=1) is None


def test_closed_pool_needs_two_players() -> None:
    assert closed_pool("Alone", END, {1}, [], recorded=0) is None


# (b) performance: Rp = Ra + dp (table 8.1.1)

#: 4.5/5: p 90 % -> dp 366; opponents 1900 + 1950 + 1944 + 1960 + 1966 = 9720, Ra 1944;
#: Rp 1944 + 366 = 2310.
FIVE = [1900, 1950, 1944, 1960, 1966]
SCORE_4_5 = [W, W, W, W, D]


def test_performance_flagged_with_the_numbers() -> None:
    # 2310 - 1840 = 470 >= 400
    flag = performance_flag("Dorn, Ada", 1840, FIVE, SCORE_4_5, "F", player_id=7)
    assert flag is not None
    assert (flag.code, flag.subject, flag.concerns, flag.player_id) == (
        "performance", "player", "Dorn, Ada", 7)
    assert flag.message == "Dorn, Ada scored 4.5/5, performance 2310, 470 above her rating 1840"


def test_performance_exactly_400_above_is_flagged() -> None:
    # 2310 - 1910 = 400: "400 or more"
    flag = performance_flag("Dorn, Ada", 1910, FIVE, SCORE_4_5, "M")
    assert flag is not None
    assert flag.message == "Dorn, Ada scored 4.5/5, performance 2310, 400 above his rating 1910"


def test_performance_399_above_is_not() -> None:
    assert performance_flag("Dorn, Ada", 1911, FIVE, SCORE_4_5) is None  # 2310 - 1911 = 399


def test_performance_needs_five_games() -> None:
    # 4 wins against 1900: p 100 % -> dp 800, Rp 2700, 1200 above 1500; but 4 < 5 games
    assert performance_flag("Dorn, Ada", 1500, [1900] * 4, [W] * 4) is None
    flag = performance_flag("Dorn, Ada", 1500, [1900] * 5, [W] * 5)
    assert flag is not None
    assert flag.message == "Dorn, Ada scored 5/5, performance 2700, 1200 above their rating 1500"


def test_performance_of_an_unrated_player_is_not_checked() -> None:
    assert performance_flag("Dorn, Ada", None, FIVE, SCORE_4_5) is None


def test_performance_bad_score_refused() -> None:
    with pytest.raises(ValueError, match="0, 1/2 or 1"):
        performance_flag("Dorn, Ada", 1500, [1900] * 5, [Fraction(2)] * 5)


# (c) more than 12 hours a day

def test_game_minutes() -> None:
    # 90 min + 30 s: 120 minutes for 60 moves a player, 240 the game; no time control: the
    # pool's least (standard 60, rapid 10, blitz 3), doubled
    assert game_minutes(DayGame(Fraction(120), "standard")) == 240
    assert game_minutes(DayGame(None, "standard")) == 120
    assert game_minutes(DayGame(None, "rapid")) == 20
    assert game_minutes(DayGame(None, "blitz")) == 6


def test_three_games_of_four_hours_are_12_hours_no_flag() -> None:
    assert long_day("Dorn, Ada", END, [DayGame(Fraction(120), "standard")] * 3) is None


def test_four_games_of_four_hours_flagged() -> None:
    # 4 x 240 = 960 minutes = 16 hours > 720; 720 // 240 = 3 such games fit in a day
    flag = long_day("Dorn, Ada", END, [DayGame(Fraction(120), "standard")] * 4, player_id=3)
    assert flag is not None
    assert (flag.code, flag.subject, flag.concerns, flag.player_id) == (
        "long-day", "player", "Dorn, Ada", 3)
    assert flag.message == ("Dorn, Ada played 4 games on 2026-03-31: 16 hours of play counted "
                            "for 60 moves a game (4 x 240 minutes), more than 12 hours; games "
                            "of 240 minutes fit 3 in a day")


def test_more_games_than_the_pool_allows() -> None:
    # no time control: standard's least, 2 x 60 = 120 a game; 6 games = 720 (no flag),
    # 7 = 840 minutes = 14 hours (a flag; 720 // 120 = 6 fit)
    assert long_day("Dorn, Ada", END, [DayGame(None, "standard")] * 6) is None
    flag = long_day("Dorn, Ada", END, [DayGame(None, "standard")] * 7)
    assert flag is not None
    assert flag.message == ("Dorn, Ada played 7 games on 2026-03-31: 14 hours of play counted "
                            "for 60 moves a game (7 x 120 minutes without a time control, the "
                            "least their pool allows), more than 12 hours; games of 120 "
                            "minutes fit 6 in a day")


def test_mixed_day_sums_the_games() -> None:
    # 2 x 240 (90 + 30) + 12 x 20 (rapid, no control) = 480 + 240 = 720: no flag;
    # one rapid game more: 740 minutes = 12 hours 20 minutes, a flag without a per-day count
    day = [DayGame(Fraction(120), "standard")] * 2 + [DayGame(None, "rapid")] * 12
    assert long_day("Dorn, Ada", END, day) is None
    flag = long_day("Dorn, Ada", END, [*day, DayGame(None, "rapid")])
    assert flag is not None
    assert flag.message == ("Dorn, Ada played 15 games on 2026-03-31: 12 hours 20 minutes of "
                            "play counted for 60 moves a game (2 x 240 minutes; 13 x 20 minutes "
                            "without a time control, the least their pool allows), more than 12 "
                            "hours")


# (d) late submission

def test_thirty_days_late_is_not_flagged_31_is() -> None:
    end = dt.date(2026, 3, 1)
    assert late_submission("Open", end, dt.date(2026, 3, 31)) is None  # 30 days
    flag = late_submission("Open", end, dt.date(2026, 4, 1))  # 31 days
    assert flag is not None
    assert (flag.code, flag.subject, flag.concerns) == ("late-submission", "event", "Open")
    assert flag.message == ("Open ended on 2026-03-01 and was submitted on 2026-04-01, 31 days "
                            "later (more than 30)")


# (e) a new player without birth year or sex

def test_new_player_details() -> None:
    assert new_player_details("Dorn, Ada", 1990, "F") is None
    missing_both = new_player_details("Dorn, Ada", None, None)
    missing_sex = new_player_details("Dorn, Ada", 1990, None)
    missing_year = new_player_details("Dorn, Ada", None, "F")
    assert missing_both is not None and missing_sex is not None and missing_year is not None
    assert missing_both.code == "new-player-details" and missing_both.subject == "player"
    assert missing_both.message == ("Dorn, Ada is new to the ledger and the file gives no birth "
                                    "year and no sex")
    assert missing_sex.message == "Dorn, Ada is new to the ledger and the file gives no sex"
    assert missing_year.message == ("Dorn, Ada is new to the ledger and the file gives no birth "
                                    "year")


# (f) more than half unrated

def test_half_unrated_is_not_flagged_more_is() -> None:
    assert unrated_share("Open", 12, 6) is None  # 6/12 = half
    flag = unrated_share("Open", 12, 7)  # 7/12 = 58.3 % -> 58
    assert flag is not None
    assert (flag.code, flag.subject, flag.concerns) == ("unrated-share", "event", "Open")
    assert flag.message == "Open: 7 of its 12 players are unrated (58 %), more than half"
    odd = unrated_share("Open", 5, 3)  # 3/5 = 60 %
    assert odd is not None and "(60 %)" in odd.message
    assert unrated_share("Empty", 0, 0) is None


def test_thresholds_can_be_changed_in_one_place() -> None:
    strict = Thresholds(late_days=7, performance_above=300)
    assert late_submission("Open", dt.date(2026, 3, 1), dt.date(2026, 3, 9), strict) is not None
    # 2310 - 2000 = 310 >= 300
    assert performance_flag("Dorn, Ada", 2000, FIVE, SCORE_4_5, limits=strict) is not None
