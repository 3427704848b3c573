"""An event's rating report with a late result (docs/RULES.md §1): a game of the event dated in
its closed period, recorded afterwards and rated in the earliest open period. ``event show``
and the site's tournament page list it apart, marked late, with its own change in the period
it is rated in; the event's period columns and the "why" line count only the games rated in
the event's own period, the period's other games counted from those games. Every value is
worked by hand in the comments (FIDE table 8.1.2: D 100 -> PD .64, D 200 -> .76, D 300 -> .85;
change = K x (score - expected), rounded once per period)."""

from __future__ import annotations

import html
import re
from pathlib import Path

from cli_runs import data, ok
from ledgers import sqlite_ledger

CUP = "Autumn Cup 2026"


def october_and_a_late_game(db: Path, close_november: bool = True) -> None:
    """Four established players (K 20): Ash 2000, Birch 1900, Cedar 1800, Dale 1700. The cup's
    round 1 on 2026-10-05 (Ash 1-0 Birch, Cedar 1/2 Dale), three other October games, October
    closed; then the cup's round 2 game Birch 1/2 Cedar of 2026-10-05, recorded late: rated in
    November, which is closed too."""
    sqlite_ledger(db)
    for name, rating in (("Ash, Anna", 2000), ("Birch, Ben", 1900), ("Cedar, Cara", 1800),
                         ("Dale, Dan", 1700)):
        ok(db, "player", "add", name, "--rating", str(rating), "--prior-games", "100")
    ok(db, "game", "add", "Ash, Anna", "Birch, Ben", "1-0", "--date", "2026-10-05",
       "--event", CUP, "--round", "1")
    ok(db, "game", "add", "Cedar, Cara", "Dale, Dan", "1/2-1/2", "--date", "2026-10-05",
       "--event", CUP, "--round", "1")
    ok(db, "game", "add", "Ash, Anna", "Cedar, Cara", "0-1", "--date", "2026-10-20")
    ok(db, "game", "add", "Birch, Ben", "Dale, Dan", "1-0", "--date", "2026-10-21")
    ok(db, "game", "add", "Ash, Anna", "Dale, Dan", "1/2-1/2", "--date", "2026-10-22")
    ok(db, "period", "close", "2026-10")
    ok(db, "game", "add", "Birch, Ben", "Cedar, Cara", "1/2-1/2", "--date", "2026-10-05",
       "--event", CUP, "--round", "2")
    if close_november:
        ok(db, "period", "close", "2026-11")


# October, K 20 (S - PD per game):
#   cup r1  Ash 1-0 Birch, D 100: Ash 1 - .64 = +0.36, Birch 0 - .36 = -0.36
#   cup r1  Cedar 1/2 Dale, D 100: Cedar .5 - .64 = -0.14, Dale .5 - .36 = +0.14
#   other   Ash 0-1 Cedar, D 200: Ash 0 - .76 = -0.76, Cedar 1 - .24 = +0.76
#   other   Birch 1-0 Dale, D 200: Birch 1 - .76 = +0.24, Dale 0 - .24 = -0.24
#   other   Ash 1/2 Dale, D 300: Ash .5 - .85 = -0.35, Dale .5 - .15 = +0.35
# This event's October part, x 20: Ash +7.20, Birch -7.20, Cedar -2.80, Dale +2.80.
# The other October games, x 20: Ash 2 games (-0.76 - 0.35) = -22.20; Birch 1 game +4.80;
#   Cedar 1 game +15.20; Dale 2 games (-0.24 + 0.35) = +2.20.
# Period, rounded once: Ash +7.20 - 22.20 = -15.00 -> -15; Birch -7.20 + 4.80 = -2.40 -> -2;
#   Cedar -2.80 + 15.20 = +12.40 -> +12; Dale +2.80 + 2.20 = +5.00 -> +5.
# The late game, rated in November with the ratings at the cup's start (Birch 1900, Cedar
#   1800), K 20: Birch .5 - .64 = -0.14 -> -2.80; Cedar .5 - .36 = +0.14 -> +2.80.
WHY = {
    "Ash, Anna": "period change -15 = this event +7.20 + 2 other games of 2026-10 -22.20 = "
                 "-15.00, rounded once",
    "Birch, Ben": "period change -2 = this event -7.20 + 1 other game of 2026-10 +4.80 = "
                  "-2.40, rounded once",
    "Cedar, Cara": "period change +12 = this event -2.80 + 1 other game of 2026-10 +15.20 = "
                   "+12.40, rounded once",
    "Dale, Dan": "period change +5 = this event +2.80 + 2 other games of 2026-10 +2.20 = "
                 "+5.00, rounded once",
}
LATE = {
    "Birch, Ben": "late: game 6 of 2026-10-05 v Cedar, Cara, score 0.5, rated in 2026-11: "
                  "K 20 x (0.5 - 0.64) = -2.80",
    "Cedar, Cara": "late: game 6 of 2026-10-05 v Birch, Ben, score 0.5, rated in 2026-11: "
                   "K 20 x (0.5 - 0.36) = +2.80",
}


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_event_show_lists_the_late_game_apart_and_counts_only_october(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    october_and_a_late_game(db)
    report = data(db, "event", "show", CUP, "--json")
    # three games: two of round 1 and the late one
    assert (report["period"], report["games"], report["late_games"]) == ("2026-10", 3, 1)
    rows = {p["name"]: p for p in report["players"]}
    assert {n: (p["rated_games"], p["score"], p["expected"], p["k"], p["change"],
                p["period_change"], p["other_games"]) for n, p in rows.items()} == {
        "Ash, Anna": (1, 1, 0.64, 20, 7.2, -15, 2),
        "Birch, Ben": (1, 0, 0.36, 20, -7.2, -2, 1),
        "Cedar, Cara": (1, 0.5, 0.64, 20, -2.8, 12, 1),
        "Dale, Dan": (1, 0.5, 0.36, 20, 2.8, 5, 2)}
    # standings points count the late game: Birch 0 + 0.5, Cedar 0.5 + 0.5
    assert {n: p["points"] for n, p in rows.items()} == {
        "Ash, Anna": 1, "Birch, Ben": 0.5, "Cedar, Cara": 1, "Dale, Dan": 0.5}
    assert {n: p["why"] for n, p in rows.items()} == WHY
    assert {n: [(g["game_id"], g["rated_in"], g["expected"], g["k"], g["change"])
                for g in p["late"]] for n, p in rows.items() if p["late"]} == {
        "Birch, Ben": [(6, "2026-11", 0.64, 20, -2.8)],
        "Cedar, Cara": [(6, "2026-11", 0.36, 20, 2.8)]}
    shown = _flat(ok(db, "event", "show", CUP).stdout)
    assert "3 games (1 late: rated in a later period), 4 players" in shown
    for name, why in WHY.items():
        assert f"{name}: {why}" in shown
    for name, late in LATE.items():
        assert f"{name}: {late}" in shown


def test_the_site_page_agrees_with_event_show(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    october_and_a_late_game(db)
    site = tmp_path / "site"
    ok(db, "site", "build", str(site), "--club", "Test Club", "--date", "2026-12-02")
    page = site / "events" / "1.html"  # the cup is event #1
    text = _flat(html.unescape(re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8"))))
    assert "Games recorded 3 (1 late: rated in a later period)" in text
    # the report's rows: games, score, expected, K, change, period (with its games: Ash 1 + 2
    # other, Birch 1 + 1, Cedar 1 + 1, Dale 1 + 2), the late game in none of them
    for row in ("Ash, Anna 2000 1 1 0.64 20 +7.20 -15 (3 games)",
                "Birch, Ben 1900 1 0 0.36 20 -7.20 -2 (2 games)",
                "Cedar, Cara 1800 1 0.5 0.64 20 -2.80 +12 (2 games)",
                "Dale, Dan 1700 1 0.5 0.36 20 +2.80 +5 (3 games)"):
        assert row in text, row
    for name, why in WHY.items():
        assert f"{name}: {why}" in text
    for name, late in LATE.items():
        assert f"{name}: {late}" in text


def test_a_late_game_of_a_period_still_open_is_not_rated_yet(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    october_and_a_late_game(db, close_november=False)
    report = data(db, "event", "show", CUP, "--json")
    rows = {p["name"]: p for p in report["players"]}
    # the October part as above (Birch -7.20, Cedar -2.80); the late game nothing yet
    assert (rows["Birch, Ben"]["change"], rows["Cedar, Cara"]["change"]) == (-7.2, -2.8)
    assert [(g["rated_in"], g["k"], g["change"]) for g in rows["Birch, Ben"]["late"]] == [
        ("2026-11", None, None)]
    shown = _flat(ok(db, "event", "show", CUP).stdout)
    assert ("Birch, Ben: late: game 6 of 2026-10-05 v Cedar, Cara, score 0.5, rated in "
            "2026-11: not rated yet") in shown
