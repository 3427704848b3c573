"""Three rating pools through the command line (docs/RULES.md §9, issue 12): a blitz evening,
K by pool and date, the 600-point rule, seeding from the standard rating, a time control that
disagrees with --pool, and one close publishing three lists. Every expected value is worked by
hand in its comment; the periods closed are all long over (no test depends on today's date
beyond what every close test does: a period closes once it has ended)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from cli_runs import data, ok, run
from data_files import data_file
from ledgers import sqlite_ledger


def shown(db: Path, name: str, pool: str) -> tuple[int | None, int | None, int | None]:
    p = data(db, "player", "show", name, "--pool", pool)
    assert p["rating_pool"] == pool  # "pool" is the unrated player's pool of games
    return p["rating"], p["rated_games"], p["k"]


def ledger(tmp_path: Path) -> Path:
    tmp_path.mkdir(exist_ok=True)
    db = tmp_path / "pools.db"
    sqlite_ledger(db)
    return db


def test_a_blitz_evening_in_2026_changes_the_blitz_rating_only(tmp_path: Path) -> None:
    db = ledger(tmp_path)
    ok(db, "player", "add", "Ash, Ann", "--rating", "1900", "--prior-games", "50",
       "--blitz-rating", "2000", "--blitz-games", "40")
    ok(db, "player", "add", "Birch, Bob", "--blitz-rating", "1900", "--blitz-games", "40")
    ok(db, "player", "add", "Cedar, Cy", "--blitz-rating", "2100", "--blitz-games", "40")
    ok(db, "game", "add", "Ash, Ann", "Birch, Bob", "1-0", "--date", "2026-10-14",
       "--pool", "blitz")
    game = data(db, "game", "add", "Cedar, Cy", "Ash, Ann", "1/2-1/2", "--date", "2026-10-14",
                "--time-control", "3+2")["games"][0]
    assert game["pool"] == "blitz"  # 3 + 2 = 5 minutes for 60 moves: blitz
    report = data(db, "period", "close", "2026-10")
    assert report["pool"] == "blitz" and report["other_pools"] == []
    ann = next(r for r in report["results"] if r["name"] == "Ash, Ann")
    # K 20 (40 blitz games, adult, below 2400). v 1900: D 100 -> PD .64, 1 - .64 = +.36;
    # v 2100: D -100 -> PD .36, .50 - .36 = +.14; sum +.50; 20 x .50 = +10 -> 2010
    assert (ann["pool"], ann["k"], ann["expected"], ann["change"], ann["rating_after"]) == (
        "blitz", 20, 1.0, 10, 2010)
    assert shown(db, "Ash, Ann", "blitz") == (2010, 42, 20)  # 40 + 2 blitz games
    # the standard rating is untouched: 1900 with 50 games, as registered
    assert shown(db, "Ash, Ann", "standard") == (1900, 50, 20)
    blitz = data(db, "list", "--pool", "blitz")
    assert blitz["pool"] == "blitz" and {r["pool"] for r in blitz["players"]} == {"blitz"}
    # Cy: D +100 -> .64, .50 - .64 = -.14 x 20 = -2.8 -> -3: 2097; Bob: 0 - .36 x 20 = -7.2
    # -> -7: 1893
    assert [(r["rank"], r["name"], r["rating"]) for r in blitz["players"]] == [
        (1, "Cedar, Cy", 2097), (2, "Ash, Ann", 2010), (3, "Birch, Bob", 1893)]
    assert "blitz" in ok(db, "list", "--pool", "blitz").stdout.splitlines()[0]
    # no standard game was played: there is no standard list
    assert run(db, "list").exit_code != 0
    # history --pool blitz: the one blitz period, 2000 + 10 = 2010; standard: none
    history = data(db, "history", "Ash, Ann", "--pool", "blitz")
    assert [(r["pool"], r["period"], r["rating_before"], r["change"], r["rating_after"])
            for r in history["periods"]] == [("blitz", "2026-10", 2000, 10, 2010)]
    assert data(db, "history", "Ash, Ann")["periods"] == []
    assert "blitz rating 2010" in ok(db, "history", "Ash, Ann", "--pool", "blitz").stdout
    # performance --pool blitz: Ra = (1900 + 2100) / 2 = 2000; 1.5 / 2 = 75 % -> dp 193 -> 2193
    perf = data(db, "performance", "Ash, Ann", "--period", "2026-10", "--pool", "blitz")
    assert (perf["pool"], perf["ra"], perf["dp"], perf["rp"]) == ("blitz", 2000, 193, 2193)
    assert {g["pool"] for g in perf["per_game"]} == {"blitz"}
    # no standard game: no standard performance
    assert run(db, "performance", "Ash, Ann", "--period", "2026-10").exit_code != 0
    # whatif --pool blitz in 2026-11: Ann 2010 v Bob 1893: D 117 -> PD .66; a win:
    # 20 x (1 - .66) = +6.8 -> +7
    what = data(db, "whatif", "Ash, Ann", "Birch, Bob", "--period", "2026-11", "--pool", "blitz")
    win = next(o for o in what["outcomes"] if o["result"] == "win")
    assert (what["pool"], what["player"]["rating"], win["player"]["change"]) == ("blitz", 2010, 7)


def _k_of_a_newcomer(tmp_path: Path, day: str) -> tuple[int, int]:
    db = ledger(tmp_path)
    ok(db, "player", "add", "Ash, Ann", "--rapid-rating", "1700", "--rapid-games", "3")
    ok(db, "player", "add", "Birch, Bob", "--rapid-rating", "1700", "--rapid-games", "100")
    ok(db, "game", "add", "Ash, Ann", "Birch, Bob", "1-0", "--date", day, "--pool", "rapid")
    report = data(db, "period", "close", day[:7], "--pool", "rapid")
    ann = next(r for r in report["results"] if r["name"] == "Ash, Ann")
    return ann["k"], ann["change"]


def test_rapid_k_is_20_for_everyone_in_2022_and_40_for_a_newcomer_in_2023(
        tmp_path: Path) -> None:
    # 3 rapid games before: 2022-05, K 20 for all: D 0 -> PD .50, 20 x .50 = +10.
    assert _k_of_a_newcomer(tmp_path / "a", "2022-05-10") == (20, 10)
    # 2023-05: the standard rules, fewer than 30 rapid games -> K 40: 40 x .50 = +20.
    assert _k_of_a_newcomer(tmp_path / "b", "2023-05-10") == (40, 20)


def _gap_game(tmp_path: Path, day: str) -> dict[str, Any]:
    db = ledger(tmp_path)
    ok(db, "player", "add", "Ash, Ann", "--blitz-rating", "2650", "--blitz-games", "100")
    ok(db, "player", "add", "Birch, Bob", "--blitz-rating", "2040", "--blitz-games", "100")
    ok(db, "game", "add", "Ash, Ann", "Birch, Bob", "1-0", "--date", day, "--pool", "blitz")
    return data(db, "period", "close", day[:7])  # type: ignore[no-any-return]


def test_a_blitz_game_600_apart_with_a_2650_is_not_rated_from_2024_12(tmp_path: Path) -> None:
    # 2025-03: 2650 v 2040 are 610 apart and 2650 is above 2600: rated for neither.
    after = _gap_game(tmp_path / "a", "2025-03-10")
    assert after["results"] == []
    assert after["not_rated"] == {"600 or more apart, one above 2600": 1}
    # 2024-11: rated. Ann (reached 2400: K 10): D 610 counted 400 -> .92; 10 x .08 = +0.8 -> +1.
    # Bob (K 20): D -400 -> .08; 20 x -.08 = -1.6 -> -2.
    before = _gap_game(tmp_path / "b", "2024-11-10")
    assert {r["name"]: r["change"] for r in before["results"]} == {"Ash, Ann": 1,
                                                                   "Birch, Bob": -2}


def test_the_close_says_why_a_game_600_apart_is_not_rated(tmp_path: Path) -> None:
    db = ledger(tmp_path)
    ok(db, "player", "add", "Ash, Ann", "--blitz-rating", "2650", "--blitz-games", "100")
    ok(db, "player", "add", "Birch, Bob", "--blitz-rating", "2040", "--blitz-games", "100")
    ok(db, "game", "add", "Ash, Ann", "Birch, Bob", "1-0", "--date", "2025-03-10",
       "--pool", "blitz")
    closed = ok(db, "period", "close", "2025-03", "--dry-run")
    assert "600 or more apart, one above 2600 1" in closed.output
    # each such game named: 2650 - 2040 = 610 apart
    assert ("not rated: game 1, Ash, Ann (2650) v Birch, Bob (2040): 610 apart, one above 2600"
            in closed.output)
    games = data(db, "period", "close", "2025-03")["not_rated_games"]
    assert [(g["pool"], g["game_id"], g["white_rating"], g["black_rating"]) for g in games] == [
        ("blitz", 1, 2650, 2040)]
    # and period report --pool blitz gives the same reason
    assert data(db, "period", "report", "--pool", "blitz")["not_rated"] == {
        "600 or more apart, one above 2600": 1}


def test_an_unrated_rapid_player_with_a_standard_rating_is_rated_from_it_in_2025(
        tmp_path: Path) -> None:
    db = ledger(tmp_path)
    ok(db, "player", "add", "Dale, Dee", "--rating", "1850", "--prior-games", "100")
    ok(db, "player", "add", "Elm, Eve", "--rapid-rating", "1850", "--rapid-games", "100")
    ok(db, "player", "add", "Fir, Fay", "--rapid-rating", "1950", "--rapid-games", "100")
    assert shown(db, "Dale, Dee", "rapid")[0] is None  # unrated in rapid
    ok(db, "game", "add", "Dale, Dee", "Elm, Eve", "1-0", "--date", "2025-06-10",
       "--pool", "rapid")
    ok(db, "game", "add", "Fir, Fay", "Dale, Dee", "1/2-1/2", "--date", "2025-06-11",
       "--pool", "rapid")
    report = data(db, "period", "close", "2025-06")
    changes = {r["name"]: (r["rating_before"], r["k"], r["change"]) for r in report["results"]}
    # Dee rated from standard 1850 at once, K 40 (no rapid games yet): v Eve D 0 -> .50, +.50;
    # v Fay D -100 -> .36, .50 - .36 = +.14; 40 x .64 = 25.6 -> +26.
    # Eve: D 0 -> .50; 20 x -.50 = -10. Fay: D +100 -> .64; 20 x (.50 - .64) = -2.8 -> -3.
    assert changes == {"Dale, Dee": (1850, 40, 26), "Elm, Eve": (1850, 20, -10),
                       "Fir, Fay": (1950, 20, -3)}
    assert report["seeded_from_standard"] != {}
    assert shown(db, "Dale, Dee", "rapid") == (1876, 2, 40)
    assert shown(db, "Dale, Dee", "standard") == (1850, 100, 20)


def test_a_time_control_that_disagrees_with_the_pool_is_refused(tmp_path: Path) -> None:
    db = ledger(tmp_path)
    ok(db, "player", "add", "Ash, Ann")
    ok(db, "player", "add", "Birch, Bob")
    # 15 + 10 = 25 minutes for 60 moves: rapid, not blitz
    result = run(db, "game", "add", "Ash, Ann", "Birch, Bob", "1-0", "--date", "2026-10-14",
                 "--pool", "blitz", "--time-control", "15+10")
    assert result.exit_code == 1
    assert "time-control: 15+10 is rapid" in result.stderr
    result = run(db, "game", "add", "Ash, Ann", "Birch, Bob", "1-0", "--date", "2026-10-14",
                 "--pool", "bullet")
    assert result.exit_code == 1 and "pool: " in result.stderr
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT count(*) FROM games").fetchone() == (0,)
    con.close()


def _three_pools(tmp_path: Path) -> Path:
    db = ledger(tmp_path)
    ok(db, "player", "add", "Ash, Ann", "--rating", "1800", "--prior-games", "100",
       "--rapid-rating", "1600", "--rapid-games", "100",
       "--blitz-rating", "2000", "--blitz-games", "100")
    ok(db, "player", "add", "Birch, Bob", "--rating", "1700", "--prior-games", "100",
       "--rapid-rating", "1700", "--rapid-games", "100",
       "--blitz-rating", "1500", "--blitz-games", "100")
    # one evening, one game in each pool: three games, not one recorded three times
    for pool in ("standard", "rapid", "blitz"):
        ok(db, "game", "add", "Ash, Ann", "Birch, Bob", "1/2-1/2", "--date", "2026-10-14",
           "--pool", pool)
    return db


def test_one_close_with_games_in_three_pools_publishes_three_lists(tmp_path: Path) -> None:
    db = _three_pools(tmp_path)
    report = data(db, "period", "close", "2026-10")
    assert [report["pool"], *(o["pool"] for o in report["other_pools"])] == [
        "standard", "rapid", "blitz"]
    lists = {pool: [(r["rank"], r["name"], r["rating"])
                    for r in data(db, "list", "--pool", pool)["players"]]
             for pool in ("standard", "rapid", "blitz")}
    # standard draw: Ann D +100 -> .64, 20 x -.14 = -2.8 -> -3: 1797; Bob +3: 1703
    # rapid draw: Ann D -100 -> .36, 20 x +.14 = +2.8 -> +3: 1603; Bob -3: 1697
    # blitz draw: Ann D 500 counted 400 -> .92, 20 x -.42 = -8.4 -> -8: 1992; Bob +8: 1508
    assert lists == {
        "standard": [(1, "Ash, Ann", 1797), (2, "Birch, Bob", 1703)],
        "rapid": [(1, "Birch, Bob", 1697), (2, "Ash, Ann", 1603)],
        "blitz": [(1, "Ash, Ann", 1992), (2, "Birch, Bob", 1508)],
    }
    # period report --pool rapid: the rapid game only; Ann +3 (above), Bob -3
    rapid = data(db, "period", "report", "--pool", "rapid")
    assert (rapid["pool"], rapid["games_rated"]) == ("rapid", 1)
    assert [(c["pool"], c["name"], c["change"]) for c in rapid["gains"] + rapid["losses"]] == [
        ("rapid", "Ash, Ann", 3), ("rapid", "Birch, Bob", -3)]
    assert "Rating period 2026-10 rapid" in ok(db, "period", "report", "--pool", "rapid").stdout
    again = run(db, "period", "close", "2026-10")
    assert again.exit_code == 1 and "already closed" in again.stderr
    # period list: one close of 2026-10 per pool; revision numbers are per period and pool
    # (docs/DESIGN.md "Rating pools"): each pool's first list of 2026-10 is its revision 1
    assert [(v["period"], v["pool"], v["revision"]) for v in data(db, "period", "list")[
        "periods"]] == [("2026-10", "standard", 1), ("2026-10", "rapid", 1),
                        ("2026-10", "blitz", 1)]
    # reopening the blitz close leaves the other two; closing again closes blitz alone
    reopened = data(db, "period", "reopen", "2026-10", "--pool", "blitz", "--reason", "a typo")
    assert (reopened["pool"], reopened["revision"]) == ("blitz", 1)
    closed = data(db, "period", "close", "2026-10")
    assert (closed["pool"], closed["other_pools"]) == ("blitz", [])
    assert [(v["pool"], v["revision"]) for v in data(db, "period", "list")["periods"]] == [
        ("standard", 1), ("rapid", 1), ("blitz", 2)]
    assert lists["blitz"] == [(r["rank"], r["name"], r["rating"])
                              for r in data(db, "list", "--pool", "blitz")["players"]]
    # db check recomputes each pool's close with that pool's rules: all equal
    ok(db, "db", "check")
    # period rerate --pool blitz re-rates the blitz close alone: blitz revision 3, the same list
    ok(db, "period", "rerate", "--from", "2026-10", "--pool", "blitz", "--reason", "check",
       "--yes")
    assert [(v["pool"], v["revision"]) for v in data(db, "period", "list")["periods"]] == [
        ("standard", 1), ("rapid", 1), ("blitz", 3)]
    assert lists["blitz"] == [(r["rank"], r["name"], r["rating"])
                              for r in data(db, "list", "--pool", "blitz")["players"]]
    ok(db, "db", "check")
    # db copy compares every pool's lists: three lists of 2026-10
    copied = data(db, "db", "copy", "--to", str(tmp_path / "copy.db"))
    assert copied["rating_lists"] == 3


def test_each_pools_list_is_written_in_fides_single_list_layout(tmp_path: Path) -> None:
    db = _three_pools(tmp_path)
    ok(db, "period", "close", "2026-10")
    # FIDE's blitz file of April 2013, line 1: "ID Number      Name ... Fed Sex Tit  WTit OTit
    # apr13 Gms K  B-day Flag": the rating column is named after the list's month. The
    # 2026-10 list is in force from 1 November 2026: "nov26", at the same columns.
    fide = data_file("fide_blitz_list_apr13_subset.txt").read_text(encoding="utf-8")
    fide_header = fide.splitlines()[0].rstrip()
    txt = ok(db, "list", "--pool", "blitz", "--format", "txt").stdout.splitlines()
    assert txt[0].rstrip() == fide_header.replace("apr13", "nov26")
    assert txt[0].index("nov26") == fide_header.index("apr13") == 109
    # Ann's blitz line: 1992 at column 109, 1 game, K 20 (hand-worked above)
    assert txt[1][15:23] == "Ash, Ann" and txt[1][109:114].strip() == "1992"
    csv = ok(db, "list", "--pool", "blitz", "--format", "csv").stdout.splitlines()
    assert csv[0] == "rank,fide_id,name,title,federation,sex,nov26,games,k,birth_year,flag"
    assert csv[1] == "1,,\"Ash, Ann\",,,,1992,1,20,,"
    # the standard CSV keeps its "rating" column
    assert ok(db, "list", "--format", "csv").stdout.splitlines()[0].split(",")[6] == "rating"
    page = ok(db, "list", "--pool", "rapid", "--format", "html").stdout
    assert "Rapid rating list after rating period 2026-10" in page


def test_the_1_october_2022_lists_raise_rapid_ratings_far_below_the_standard_one(
        tmp_path: Path) -> None:
    db = ledger(tmp_path)
    ok(db, "player", "add", "Ash, Ann", "--rating", "1800", "--prior-games", "100",
       "--rapid-rating", "1500", "--rapid-games", "100")
    ok(db, "player", "add", "Birch, Bob", "--rating", "1500", "--prior-games", "100",
       "--rapid-rating", "1500", "--rapid-games", "100")
    ok(db, "game", "add", "Ash, Ann", "Birch, Bob", "1/2-1/2", "--date", "2022-09-10",
       "--pool", "rapid")
    closed = ok(db, "period", "close", "2022-09")
    assert "1 October 2022 list" in closed.stdout
    # the draw: D 0 -> PD .50, no change (K 20 for all in 2022-09). The list: Ann's rapid 1500
    # is 300 below her standard 1800 (more than 100): raised to 1800 - 100 = 1700; Bob's 1500
    # is not below his standard 1500: unchanged.
    rapid = {r["name"]: r["rating"] for r in data(db, "list", "--pool", "rapid")["players"]}
    assert rapid == {"Ash, Ann": 1700, "Birch, Bob": 1500}
    assert [(r["period"], r["rating_before"], r["change"], r["rating_after"])
            for r in data(db, "history", "Ash, Ann", "--pool", "rapid")["periods"]] == [
        ("2022-09", 1500, 0, 1500), ("2022-09", 1500, 200, 1700)]


def test_event_show_of_a_blitz_event_uses_the_blitz_ratings(tmp_path: Path) -> None:
    db = ledger(tmp_path)
    ok(db, "player", "add", "Ash, Ann", "--rating", "1500", "--prior-games", "100",
       "--blitz-rating", "2000", "--blitz-games", "40")
    ok(db, "player", "add", "Birch, Bob", "--rating", "1500", "--prior-games", "100",
       "--blitz-rating", "1900", "--blitz-games", "40")
    ok(db, "game", "add", "Ash, Ann", "Birch, Bob", "1-0", "--date", "2026-10-14", "--event",
       "Blitz Night", "--round", "1", "--pool", "blitz")
    ok(db, "period", "close", "2026-10")
    shown = data(db, "event", "show", "Blitz Night")
    # blitz 2000 beats 1900: D 100 -> .64; 20 x .36 = +7.2 -> +7 (standard 1500 v 1500 would
    # give 20 x .50 = +10)
    ann = next(p for p in shown["players"] if p["name"] == "Ash, Ann")
    assert (ann["rating"], ann["period_change"]) == (2000, 7)


def test_a_blitz_game_of_a_closed_blitz_period_is_corrected_in_the_blitz_pool(
        tmp_path: Path) -> None:
    db = ledger(tmp_path)
    ok(db, "player", "add", "Ash, Ann", "--blitz-rating", "2000", "--blitz-games", "40")
    ok(db, "player", "add", "Birch, Bob", "--blitz-rating", "1900", "--blitz-games", "40")
    game = data(db, "game", "add", "Ash, Ann", "Birch, Bob", "1-0", "--date", "2026-10-14",
                "--pool", "blitz")["games"][0]
    # open: voided as any game
    ok(db, "game", "void", str(game["id"]), "--reason", "never played")
    again = data(db, "game", "add", "Ash, Ann", "Birch, Bob", "1-0", "--date", "2026-10-14",
                 "--pool", "blitz")["games"][0]
    ok(db, "period", "close", "2026-10")
    # closed in the blitz pool: a mode is needed, as in standard
    refused = run(db, "game", "void", str(again["id"]), "--reason", "x")
    assert refused.exit_code == 1
    assert "closed period 2026-10 of the blitz pool" in " ".join(refused.stderr.split())
    # --rerate: the blitz 2026-10 re-rated without the game; both back to 2000 and 1900 (no
    # game: nobody is rated, the list shows the registered ratings)
    voided = data(db, "game", "void", str(again["id"]), "--reason", "x", "--rerate")
    assert voided["effect"]["pool"] == "blitz"
    assert {p["name"]: p["rating"] for p in data(db, "list", "--pool", "blitz")["players"]} \
        == {"Ash, Ann": 2000, "Birch, Bob": 1900}
    ok(db, "db", "check")
