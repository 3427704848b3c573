"""The seeds' calculators (``ledger.services.publishing.calc``): no database, the close's rules code.

Every expected value is read from table 8.1.2 (RULES.md §3) and worked by hand beside it.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from ledger.errors import UsageError
from ledger.rules.editions import Edition
from ledger.services.publishing.calc import (
    change_worksheet,
    expected,
    expected_table,
    odds_text,
    parse_games,
)

TODAY = dt.date(2026, 11, 30)  # the 2025-10 edition is in force


def test_seed_change_plain() -> None:
    # RULES.md §5 seed: K 20, 1600: draw v 1800 (D -200 -> .24, S - PD +0.26) and win v 1400
    # (D +200 -> .76, +0.24): sum +0.50; 20 x 0.50 = +10.0 -> +10 -> 1610
    w = change_worksheet(1600, 20, ["1800:=", "1400:1"], today=TODAY)
    r = w.result
    assert [(a.difference, a.expected, a.surplus) for a in r.games] == [
        (-200, Decimal("0.24"), Decimal("0.26")), (200, Decimal("0.76"), Decimal("0.24"))]
    assert (r.k, r.surplus, r.change_exact, r.change, r.rating_after) == (
        20, Decimal("0.50"), Decimal("10.00"), 10, 1610)
    assert w.edition is None and not w.k_reduced


@pytest.mark.parametrize("draw", ["=", "1/2", "½", "0.5"])
def test_every_draw_token(draw: str) -> None:
    # 1600 draws 1600: D 0 -> .50; S - PD 0 -> change 0
    game = parse_games([f"1600:{draw}"])[0]
    assert (game.opponent_rating, game.score) == (1600, Decimal("0.5"))


def test_700_cap_only_with_fide_rules() -> None:
    # K 40, 18 wins v 1600 at 1600: D 0 -> .50; S - PD +0.50 each, sum +9.00.
    tokens = ["1600:1"] * 18
    plain = change_worksheet(1600, 40, tokens, today=TODAY)
    # plain: 40 x 9.00 = +360 -> 1960
    assert (plain.result.k, plain.result.change, plain.result.rating_after) == (40, 360, 1960)
    fide = change_worksheet(1600, 40, tokens, fide_rules=True, today=TODAY)
    # 40 x 18 = 720 > 700 -> K = floor(700 / 18) = 38; 38 x 9.00 = +342 -> 1942
    assert (fide.k_given, fide.result.k, fide.k_reduced) == (40, 38, True)
    assert (fide.result.change, fide.result.rating_after) == (342, 1942)
    assert fide.edition is Edition.E2025_10


def test_400_point_rule_only_with_fide_rules() -> None:
    # 1600 beats 2100: D -500. Plain: |D| 500 in band 485-517 -> .96 for the higher, so 1600
    # gets .04; S - PD +0.96; K 20 -> +19.2 -> +19.
    plain = change_worksheet(1600, 20, ["2100:1"], today=TODAY)
    assert (plain.result.games[0].expected, plain.result.change) == (Decimal("0.04"), 19)
    # FIDE (1600 < 2650): D counted -400 -> band 392-411 .92, 1600 gets .08; +0.92 x 20 = +18.4
    # -> +18
    fide = change_worksheet(1600, 20, ["2100:1"], fide_rules=True, today=TODAY)
    a = fide.result.games[0]
    assert (a.difference, a.counted_difference, a.capped, a.expected) == (
        -500, -400, True, Decimal("0.08"))
    assert fide.result.change == 18
    # A player rated 2650 or more keeps the real D (2025-10 edition): 2700 beats 2200, D +500 ->
    # .96; K 10 x 0.04 = +0.4 -> 0
    top = change_worksheet(2700, 10, ["2200:1"], fide_rules=True, today=TODAY)
    assert (top.result.games[0].counted_difference, top.result.games[0].expected,
            top.result.change) == (500, Decimal("0.96"), 0)


def test_bad_tokens_are_reported_one_by_one() -> None:
    with pytest.raises(UsageError) as caught:
        parse_games(["1800", "1400:1", "18x0:1", "1800:x", "900:=", ":"])
    message = str(caught.value)
    assert caught.value.exit_code == 2
    lines = message.splitlines()[1:]
    assert lines == [
        "  GAME 1 '1800': write OPPONENT:RESULT, e.g. 1800:= or 1400:1",
        "  GAME 3 '18x0:1': opponent '18x0' is not a rating",
        "  GAME 4 '1800:x': result 'x' is not one of 1, =, 1/2, ½, 0.5, 0",
        "  GAME 5 '900:=': opponent 900 is outside 1000..3500",
        "  GAME 6 ':': opponent '' is not a rating",
        "  GAME 6 ':': result '' is not one of 1, =, 1/2, ½, 0.5, 0",
    ]


def test_expected_both_sides() -> None:
    # 1800 v 1600: D +200 -> .76 / .24; odds .76 / .24 = 3.1667 -> 3.17 : 1;
    # logistic 1 / (1 + 10^(-0.5)) = 0.7597; over 3 games 3 x .76 = 2.28 and 3 x .24 = 0.72
    v = expected(1800, 1600, games=3, today=TODAY)
    assert (v.difference, v.first.pd, v.second.pd, v.odds) == (
        200, Decimal("0.76"), Decimal("0.24"), "3.17 : 1")
    assert v.first.logistic == pytest.approx(0.7597, abs=5e-5)
    assert v.second.logistic == pytest.approx(0.2403, abs=5e-5)
    assert (v.first.points, v.second.points) == (Decimal("2.28"), Decimal("0.72"))
    assert not v.first.capped and not v.second.capped


def test_expected_400_point_rule_by_each_players_rating() -> None:
    # RULES.md §3 example: 2700 v 2200, D 500. 2700 (>= 2650) keeps D 500 -> .96;
    # 2200 counts D -400 -> .08 (not 1 - .96 = .04)
    v = expected(2700, 2200, today=TODAY)
    assert (v.first.counted_difference, v.first.pd_counted, v.first.capped) == (
        500, Decimal("0.96"), False)
    assert (v.second.counted_difference, v.second.pd_counted, v.second.capped) == (
        -400, Decimal("0.08"), True)
    assert v.second.pd == Decimal("0.04")  # the table with the real D


def test_seed_table_rows() -> None:
    rows = {r.gap: r for r in expected_table(10, 800)}
    assert sorted(rows)[:3] == [0, 10, 20] and max(rows) == 800 and len(rows) == 81
    # gap 100: band 99-106 -> .64 / .36; odds .64 / .36 = 1.777 -> 1.78 : 1
    r100 = rows[100]
    assert (r100.pd_higher, r100.pd_lower, r100.odds) == (Decimal("0.64"), Decimal("0.36"),
                                                          "1.78 : 1")
    # gap 400: logistic 1 / (1 + 10^-1) = 10 / 11 = .909; FIDE band 392-411 -> .92, not capped
    r400 = rows[400]
    assert f"{r400.logistic_higher:.3f}" == "0.909"
    assert (r400.fide_higher, r400.capped) == (Decimal("0.92"), False)
    # gap 410: 400-point rule: counted as 400 -> .92, marked as capped
    r410 = rows[410]
    assert (r410.fide_higher, r410.fide_lower, r410.capped) == (Decimal("0.92"), Decimal("0.08"),
                                                                True)
    # gap 500: the table says .96, the FIDE column (capped at 400) .92
    assert (rows[500].pd_higher, rows[500].fide_higher) == (Decimal("0.96"), Decimal("0.92"))


@pytest.mark.parametrize(
    ("pd", "text"),
    [("0.50", "1.00 : 1"), ("0.64", "1.78 : 1"), ("0.36", "1 : 1.78"), ("0.76", "3.17 : 1"),
     ("0.92", "11.50 : 1"), ("1.00", "1 : 0"), ("0.00", "0 : 1")],
)
def test_odds(pd: str, text: str) -> None:
    # PD / (1 - PD): .64 / .36 = 1.78; .76 / .24 = 3.17; .92 / .08 = 11.5
    assert odds_text(Decimal(pd)) == text
