"""Issue 4 through the command line: the inactivity flag, unrated players, initial ratings."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from ledgers import Factory
from typer.testing import CliRunner, Result

from ledger.cli.app import app
from ledger.cli.render.life import computation_lines
from ledger.rules.editions import Edition
from ledger.rules.initial import initial_rating


@pytest.fixture
def db(new_ledger: Factory) -> str:
    return new_ledger("life")


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def ok(*args: str) -> Result:
    result = run(*args)
    assert result.exit_code == 0, result.output + result.stderr
    return result


def cells(table: str, name: str) -> list[str]:
    """The cells of the table row that names ``name``, stripped."""
    line = next(line for line in table.splitlines() if name in line)
    return [c.strip() for c in line.strip().strip("│").split("│")]


def test_list_flags_inactive_players_and_active_hides_them(db: str) -> None:
    for name in ("Alpha, Ann", "Beta, Bob", "Gamma, Gil"):
        ok("--db", db, "player", "add", name, "--rating", "1800", "--prior-games", "100")
    ok("--db", db, "game", "add", "Alpha, Ann", "Beta, Bob", "1/2-1/2", "--date", "2025-01-10")
    ok("--db", db, "period", "close", "2025-01")
    ok("--db", db, "game", "add", "Alpha, Ann", "Gamma, Gil", "1/2-1/2", "--date", "2026-01-10")
    ok("--db", db, "period", "close", "2026-01")
    # 12 periods ending with 2026-01: 2025-02 .. 2026-01; Beta's only game was in 2025-01
    listed = json.loads(ok("--db", db, "list", "--json").stdout)["players"]
    assert {p["name"]: p["inactive"] for p in listed} == {
        "Alpha, Ann": False, "Beta, Bob": True, "Gamma, Gil": False}
    table = ok("--db", db, "list").stdout
    assert cells(table, "Beta, Bob")[-1] == "i"
    assert cells(table, "Alpha, Ann")[-1] == ""
    active = json.loads(ok("--db", db, "list", "--active", "--json").stdout)["players"]
    assert [p["name"] for p in active] == ["Alpha, Ann", "Gamma, Gil"]


def test_unrated_player_gets_an_initial_rating_through_the_cli(db: str) -> None:
    for r in (1600, 1700, 1800, 1900, 2000):
        ok("--db", db, "player", "add", f"Opp, {r}", "--rating", str(r), "--prior-games", "100")
    added = json.loads(ok("--db", db, "player", "add", "New, Nina", "--json").stdout)
    assert (added["rating"], added["k"]) == (None, None)
    for opponent, result, date in (("Opp, 1600", "1-0", "2025-10-04"),
                                   ("Opp, 1700", "1-0", "2025-10-11"),
                                   ("Opp, 1800", "1/2-1/2", "2025-10-18"),
                                   ("Opp, 1900", "1/2-1/2", "2025-10-25")):
        ok("--db", db, "game", "add", "New, Nina", opponent, result, "--date", date)
    ok("--db", db, "period", "close", "2025-10")
    # pool in progress: 4 games, opponents' average (1600 + 1700 + 1800 + 1900) / 4 = 1750,
    # 3 points, 1 more game needed
    shown = json.loads(ok("--db", db, "player", "show", "New, Nina", "--json").stdout)
    assert shown["pool"] == {"as_of": "2025-11", "games": 4, "opponents_average": 1750,
                             "opponents_average_exact": "1750", "score": 3, "games_needed": 1,
                             "games_disregarded": 0, "first_period": "2025-10",
                             "computed_at": None, "pool_games": [
                                 {"pool": "standard", "period": "2025-10", "game_id": game,
                                  "opponent": f"Opp, {r}",
                                  "opponent_rating": r, "score": score, "counted": True}
                                 for game, r, score in ((1, 1600, 1), (2, 1700, 1),
                                                        (3, 1800, 0.5), (4, 1900, 0.5))]}
    assert shown["initial_ratings"] == []
    text = ok("--db", db, "player", "show", "New, Nina").stdout
    assert ("pool for 2025-11: 4 games since 2025-10, opponents' average 1750.00, score 3.0; "
            "1 more game needed") in text

    ok("--db", db, "game", "add", "New, Nina", "Opp, 2000", "1/2-1/2", "--date", "2025-11-08")
    # Opp 2000's game is against an unrated player: not rated for him (§8.3.1), so no player is
    # rated; the summary still says that the close publishes Nina's initial rating
    summary = ok("--db", db, "period", "close", "--dry-run").stdout
    assert ("1 game in 2025-11; 0 players rated; 1 initial rating published; games not rated: "
            "1 game against an unrated player") in summary
    closed = json.loads(ok("--db", db, "period", "close", "--json").stdout)
    # RULES §6: Ra = (9000 + 3600) / 7 = 1800; p = 4.5 / 7 = .643 -> .64 -> dp 102; Ru 1902
    [initial] = closed["initial_ratings"]
    assert (initial["name"], initial["ra"], initial["p"], initial["dp"], initial["ru"],
            initial["rating"], initial["published"]) == ("New, Nina", 1800, 0.64, 102, 1902,
                                                         1902, True)
    listed = {p["name"]: p for p in json.loads(ok("--db", db, "list", "--json").stdout)["players"]}
    # K 40: 5 rated games (fewer than 30); 1 game of the pool in 2025-11
    assert (listed["New, Nina"]["rating"], listed["New, Nina"]["k"],
            listed["New, Nina"]["games"]) == (1902, 40, 1)

    history = ok("--db", db, "history", "New, Nina").stdout
    assert ("initial rating at the close of 2025-11: 5 games, 3.5 points, plus 2 hypothetical "
            "opponents rated 1800, both drawn") in history
    assert "Ra = (9000 + 3600) / 7 = 1800.00" in history
    assert "p = (3.5 + 1) / 7 = 0.643 -> 0.64; dp = +102 (table 8.1.1)" in history
    assert "Ru = 1902.00 -> 1902; cap 2200: not reached" in history
    assert "floor 1400: published" in history
    data = json.loads(ok("--db", db, "history", "New, Nina", "--json").stdout)
    assert data["pool"] is None  # rated now
    assert [(i["period"], i["ra_exact"], i["p_exact"], i["rating"])
            for i in data["initial_ratings"]] == [("2025-11", "1800", "9/14", 1902)]


def test_computation_lines_for_both_editions() -> None:
    # 2022 edition: Ra = 10000 / 5 = 2000; 3 of 5 = .60: one half point above 2.5 -> +20 -> 2020
    old = initial_rating([1900, 1950, 2000, 2050, 2100], Decimal(3), Edition.E2022_01)
    assert computation_lines("2023-05", old) == [
        "initial rating at the close of 2023-05: 5 games, 3.0 points (rules of 2022-01: rated "
        "opponents only)",
        "  Ra = 10000 / 5 = 2000.00",
        "  p = 3.0 / 5 = 0.600: 20 per half point above 50 % -> +20",
        "  Ru = 2020.00 -> 2020; no cap",
        "  floor 1000: published",
    ]
    # 2 of 5 = .40 -> dp -72 -> 1928
    below = initial_rating([2000] * 5, Decimal(2), Edition.E2022_01)
    assert computation_lines("2023-05", below)[2] == (
        "  p = 2.0 / 5 = 0.400 -> 0.40; dp = -72 (table 8.1.1)")
    # since 2024-03, 5 wins v 2000s: Ra 13600 / 7 = 1942.86; p 6 / 7 = .857 -> .86 -> dp 309;
    # 2251.86 -> 2252 -> capped at 2200
    capped = initial_rating([2000] * 5, Decimal(5), Edition.E2025_10)
    assert computation_lines("2025-11", capped)[1:] == [
        "  Ra = (10000 + 3600) / 7 = 1942.86",
        "  p = (5.0 + 1) / 7 = 0.857 -> 0.86; dp = +309 (table 8.1.1)",
        "  Ru = 2251.86 -> 2252; capped at 2200 -> 2200",
        "  floor 1400: published",
    ]


def test_pool_message_names_the_close_that_computes_the_initial_rating(db: str) -> None:
    # Two games in 2025-08, two in 2025-09, one in 2025-10, nothing closed: the pool reaches 5
    # games in 2025-10, so the close of 2025-10 computes Ru (the next close, 2025-08, does not).
    for r in (1600, 1700, 1800, 1900, 2000):
        ok("--db", db, "player", "add", f"Opp, {r}", "--rating", str(r), "--prior-games", "100")
    ok("--db", db, "player", "add", "New, Nina")
    for opponent, date in (("Opp, 1600", "2025-08-05"), ("Opp, 1700", "2025-08-12"),
                           ("Opp, 1800", "2025-09-03"), ("Opp, 1900", "2025-09-10"),
                           ("Opp, 2000", "2025-10-07")):
        ok("--db", db, "game", "add", "New, Nina", opponent, "1/2-1/2", "--date", date)
    shown = json.loads(ok("--db", db, "player", "show", "New, Nina", "--json").stdout)
    assert (shown["pool"]["as_of"], shown["pool"]["games_needed"],
            shown["pool"]["computed_at"]) == ("2025-10", 0, "2025-10")
    assert "enough games: the close of 2025-10 computes an initial rating" in ok(
        "--db", db, "player", "show", "New, Nina").stdout


def test_pool_below_the_floor_waits_for_a_new_game(db: str) -> None:
    # Half a point from 5 games against 1400s in 2025-10 (issue 4): Ra = (7000 + 3600) / 7 =
    # 1514.29, p = 1.5 / 7 = .214 -> .21, dp -230 -> 1284 < 1400: not published, the pool goes
    # on. The close of 2025-11 computes again only if the pool gains a game in 2025-11.
    for i in range(1, 6):
        ok("--db", db, "player", "add", f"Opp, {i}", "--rating", "1400", "--prior-games", "100")
    ok("--db", db, "player", "add", "Weak, Will")
    for i in range(1, 6):
        ok("--db", db, "game", "add", "Weak, Will", f"Opp, {i}", "1/2-1/2" if i == 1 else "0-1",
           "--date", f"2025-10-0{i}")
    [computed] = json.loads(ok("--db", db, "period", "close", "2025-10", "--json").stdout)[
        "initial_ratings"]
    assert (computed["rating"], computed["published"]) == (1284, False)
    shown = json.loads(ok("--db", db, "player", "show", "Weak, Will", "--json").stdout)
    assert (shown["pool"]["as_of"], shown["pool"]["games"], shown["pool"]["computed_at"]) == (
        "2025-11", 5, None)
    text = " ".join(ok("--db", db, "player", "show", "Weak, Will").stdout.split())
    assert "the next close computes" not in text
    assert ("enough games: the close of the next period in which they play a rated opponent "
            "computes a new initial rating") in text


def test_history_title_of_an_unrated_player(db: str) -> None:
    ok("--db", db, "player", "add", "Rated, Rita", "--rating", "1800", "--prior-games", "100")
    ok("--db", db, "player", "add", "New, Ned")
    ok("--db", db, "game", "add", "New, Ned", "Rated, Rita", "0-1", "--date", "2025-10-04")
    ok("--db", db, "period", "close", "2025-10")
    title = ok("--db", db, "history", "New, Ned").stdout.splitlines()[0]
    assert title == "New, Ned (#2): unrated in standard, no K for 2025-11"
    title = ok("--db", db, "history", "Rated, Rita").stdout.splitlines()[0]
    assert title == "Rated, Rita (#1): standard rating 1800, K 20 (standard) for 2025-11"


def test_pool_line_counts_one_disregarded_game_in_the_singular(db: str) -> None:
    # A loss on its own (a first event with zero points, §7.1.4) is disregarded; the win after it
    # is the pool's one game: 1 game, average 1800, score 1, 4 more needed.
    ok("--db", db, "player", "add", "Rated, Rita", "--rating", "1800", "--prior-games", "100")
    ok("--db", db, "player", "add", "Zero, Zed")
    ok("--db", db, "game", "add", "Zero, Zed", "Rated, Rita", "0-1", "--date", "2025-10-01")
    ok("--db", db, "game", "add", "Zero, Zed", "Rated, Rita", "1-0", "--date", "2025-10-08")
    text = " ".join(ok("--db", db, "player", "show", "Zero, Zed").stdout.split())
    assert ("pool for 2025-10: 1 game since 2025-10, opponents' average 1800.00, score 1.0; "
            "4 more games needed (at least 5 against rated opponents); 1 game of a first event "
            "with zero points disregarded") in text


def test_an_import_counts_the_games_against_an_unrated_player(db: str, tmp_path) -> None:
    ok("--db", db, "player", "add", "Rated, Rob", "--rating", "1800", "--prior-games", "0")
    ok("--db", db, "player", "add", "Unrated, Una")
    csv = tmp_path / "club.csv"
    csv.write_text("date,white,black,result\n"
                   + "".join(f'2025-11-{d:02},"Rated, Rob","Unrated, Una",1-0\n'
                             for d in (3, 4, 5, 6, 7)))
    report = " ".join(ok("--db", db, "import", str(csv)).stdout.split())
    assert "recorded, not rated: 5 games against an unrated player" in report
    assert "unrated player 5" not in report
