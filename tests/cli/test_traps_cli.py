"""Traps that changed ratings silently (issue 21 §4), through the command line: a PGN of
results without moves, a rated player added without saying their rated games, a date a year
off, and a league's month-long event making a weekend game a likely duplicate. Expected values
are worked by hand in the comments, from FIDE's table 8.1.2 (B.02 §8.1.2)."""

from __future__ import annotations

import json
from pathlib import Path

from cli_runs import data, ok, ratings, run
from ledgers import sqlite_ledger


def pgn_game(white: str, black: str, result: str, date: str, moves: str = "") -> str:
    """One PGN game of the event ``Club Results`` (no moves unless ``moves``)."""
    return (f'[Event "Club Results"]\n[Site "Club"]\n[Date "{date}"]\n[Round "?"]\n'
            f'[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n\n'
            f"{moves}{result}\n\n")


#: A results file: three games of October 2026, no moves (as a club's pairing program writes).
RESULTS = (pgn_game("Ash, Ann", "Birch, Bob", "1-0", "2026.10.07")
           + pgn_game("Birch, Bob", "Cedar, Cy", "1/2-1/2", "2026.10.14")
           + pgn_game("Cedar, Cy", "Ash, Ann", "1-0", "2026.10.21"))


def club(tmp_path: Path) -> Path:
    """A ledger with three established adults (K 20): Ash 1800, Birch 1700, Cedar 1600."""
    db = tmp_path / "ledger.db"
    sqlite_ledger(db)
    for name, rating in (("Ash, Ann", "1800"), ("Birch, Bob", "1700"), ("Cedar, Cy", "1600")):
        ok(db, "player", "add", name, "--rating", rating, "--prior-games", "100")
    return db


def test_a_results_only_pgn_is_rated_as_played_games(tmp_path: Path) -> None:
    db = club(tmp_path)
    pgn = tmp_path / "results.pgn"
    pgn.write_text(RESULTS, encoding="utf-8")
    report = data(db, "import", str(pgn))
    assert (report["recorded"], report["to_rate"]) == (3, 3)
    assert report["notes"][0] == ("no game in this file has moves: a results file; its 3 games "
                                  "are played games, rated (--no-moves forfeit records them as "
                                  "forfeits)")
    assert [p for p in report["problems"] if "no moves" in p["message"]] == []
    ok(db, "period", "close", "2026-10")
    # Table 8.1.2, K 20 each, one rounding per player:
    # Ash 1800: beats Birch (D 100, PD .64: +0.36), loses to Cedar (D 200, PD .76: -0.76);
    #   sum -0.40 x 20 = -8 -> 1792.
    # Birch 1700: loses to Ash (PD .36: -0.36), draws Cedar (D 100, PD .64: -0.14);
    #   sum -0.50 x 20 = -10 -> 1690.
    # Cedar 1600: draws Birch (PD .36: +0.14), beats Ash (D 200, PD .24: +0.76);
    #   sum +0.90 x 20 = +18 -> 1618.
    assert ratings(db, "2026-10") == {"Ash, Ann": 1792, "Birch, Bob": 1690, "Cedar, Cy": 1618}


def test_no_moves_forfeit_keeps_a_results_file_unrated(tmp_path: Path) -> None:
    db = club(tmp_path)
    pgn = tmp_path / "results.pgn"
    pgn.write_text(RESULTS, encoding="utf-8")
    report = data(db, "import", str(pgn), "--no-moves", "forfeit")
    # two forfeits (1-0, 1-0 without moves) and a draw without play: none rated (B.02 §5.1)
    assert (report["recorded"], report["to_rate"]) == (3, 0)
    assert [(p["line"], p["field"]) for p in report["problems"]] == [
        (7, "Result"), (17, "Result"), (27, "Result")]


def test_a_game_without_moves_among_played_ones_stays_a_forfeit(tmp_path: Path) -> None:
    # The Tata Steel rule: the file has moves, so its game without moves is a forfeit; with
    # --no-moves played (a corrected file, the arbiter's word) it is a played game.
    db = club(tmp_path)
    pgn = tmp_path / "mixed.pgn"
    pgn.write_text(pgn_game("Ash, Ann", "Birch, Bob", "1-0", "2026.10.07")
                   + pgn_game("Birch, Bob", "Cedar, Cy", "1/2-1/2", "2026.10.14",
                              "1. d4 d5 2. c4 e6 "), encoding="utf-8")
    dry = data(db, "import", str(pgn), "--dry-run")
    assert (dry["recorded"], dry["to_rate"]) == (2, 1)
    assert [(p["line"], p["message"]) for p in dry["problems"]] == [
        (7, "no moves: recorded as a forfeit, not rated")]
    played = data(db, "import", str(pgn), "--no-moves", "played")
    assert (played["recorded"], played["to_rate"]) == (2, 2)
    assert played["notes"][0] == ("--no-moves played: 1 game without moves taken as played "
                                  "games, rated")


def test_no_moves_is_for_a_pgn_only(tmp_path: Path) -> None:
    db = club(tmp_path)
    csv = tmp_path / "games.csv"
    csv.write_text("date,white,black,result\n2026-10-07,\"Ash, Ann\",\"Birch, Bob\",1-0\n",
                   encoding="utf-8")
    refused = run(db, "import", str(csv), "--no-moves", "played")
    assert refused.exit_code == 2
    assert "--no-moves is for a PGN file" in refused.stderr
    pgn = tmp_path / "results.pgn"
    pgn.write_text(RESULTS, encoding="utf-8")
    wrong = run(db, "import", str(pgn), "--no-moves", "maybe")
    assert wrong.exit_code == 2 and "--no-moves 'maybe': use played or forfeit" in wrong.stderr


def k_and_games(db: Path, name: str) -> tuple[int, int | None]:
    shown = json.loads(ok(db, "player", "show", name, "--json").stdout)
    return shown["k"], shown["rated_games"]


def test_a_rated_player_needs_their_prior_games_said(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    sqlite_ledger(db)
    refused = run(db, "player", "add", "Rated, Rhea", "--rating", "1900")
    assert refused.exit_code == 2
    said = " ".join(refused.stderr.split())
    assert "--prior-games N" in said and "--prior-games unknown" in said
    assert "K 40 until their 30th" in said and "treated as established (K 20" in said
    assert run(db, "player", "list", "--json").stdout.count('"name"') == 0  # nothing written
    bad = run(db, "player", "add", "Rated, Rhea", "--rating", "1900", "--prior-games", "many")
    assert bad.exit_code == 1 and "prior-games: 'many' is not a number of games" in bad.stderr
    # the three answers: 0 games -> K 40 (fewer than 30, B.02 §8.3.3); 45 -> K 20; unknown ->
    # established, K 20, as a players CSV row with a blank prior_games
    ok(db, "player", "add", "Zero, Zoe", "--rating", "1900", "--prior-games", "0")
    ok(db, "player", "add", "Many, Max", "--rating", "1900", "--prior-games", "45")
    ok(db, "player", "add", "Unknown, Una", "--rating", "1900", "--prior-games", "unknown")
    register = tmp_path / "register.csv"
    register.write_text("name,rating,prior_games\n\"Blank, Bea\",1900,\n", encoding="utf-8")
    ok(db, "import", str(register), "--format", "players")
    assert k_and_games(db, "Zero, Zoe") == (40, 0)
    assert k_and_games(db, "Many, Max") == (20, 45)
    assert k_and_games(db, "Unknown, Una") == (20, None)
    assert k_and_games(db, "Blank, Bea") == (20, None)
    # an unrated player: no rating, no question (0 rated games, as before; no K until rated)
    ok(db, "player", "add", "New, Ned")
    assert k_and_games(db, "New, Ned") == (None, 0)


def november_closed(tmp_path: Path) -> Path:
    """``club``, with a draw Ash-Birch on 2026-11-04 and 2026-11 closed: the earliest open
    period is 2026-12."""
    db = club(tmp_path)
    ok(db, "game", "add", "Ash, Ann", "Birch, Bob", "1/2-1/2", "--date", "2026-11-04")
    ok(db, "period", "close", "2026-11")
    return db


def test_a_date_a_year_off_is_refused_unless_late(tmp_path: Path) -> None:
    db = november_closed(tmp_path)
    # 2025-12 is 12 periods before 2026-12, the earliest open period: a year typed wrong?
    typo = run(db, "game", "add", "Ash, Ann", "Cedar, Cy", "1-0", "--date", "2025-12-02")
    assert typo.exit_code == 1
    said = " ".join(typo.stderr.split())
    assert ("date: 2025-12-02 is 12 periods before the earliest open period 2026-12 (periods "
            "up to 2026-11 are closed)") in said and "--late" in said
    # 2026-09 is 3 periods before: refused; 2026-10 is 2 before: a late result, as before
    assert run(db, "game", "add", "Ash, Ann", "Cedar, Cy", "1-0", "--date",
               "2026-09-30").exit_code == 1
    assert data(db, "game", "list")["games"][1:] == []  # nothing written
    october = data(db, "game", "add", "Ash, Ann", "Cedar, Cy", "1-0", "--date", "2026-10-31")
    assert (october["games"][0]["period"], october["games"][0]["late"]) == ("2026-12", True)
    meant = data(db, "game", "add", "Birch, Bob", "Cedar, Cy", "0-1", "--date", "2025-12-02",
                 "--late")["games"][0]
    assert (meant["date"], meant["dated_in"], meant["period"]) == ("2025-12-02", "2025-12",
                                                                   "2026-12")


def test_an_import_dated_a_year_off_is_refused_naming_line_and_field(tmp_path: Path) -> None:
    db = november_closed(tmp_path)
    games = tmp_path / "games.csv"
    games.write_text("date,white,black,result,event\n"
                     "2026-10-20,\"Ash, Ann\",\"Cedar, Cy\",1-0,\n"          # 2 before: late
                     "2025-11-05,\"Birch, Bob\",\"Cedar, Cy\",0-1,\n"        # 13 before
                     "2025-12-06,\"Cedar, Cy\",\"Ash, Ann\",1/2-1/2,Old Open\n"
                     "2025-12-07,\"Ash, Ann\",\"Birch, Bob\",1-0,Old Open\n",  # ends 2025-12
                     encoding="utf-8")
    refused = run(db, "import", str(games))
    assert refused.exit_code == 3
    said = " ".join(refused.stderr.split())
    assert f"{games}:3: error: date: 2025-11-05 is 13 periods before the earliest open " \
           "period 2026-12" in said
    assert f"{games}:5: error: date: 2025-12-07 is 12 periods before" in said  # the event's end
    assert f"{games}:4: error" not in said and f"{games}:2: error" not in said
    assert data(db, "game", "list")["games"][1:] == []  # nothing written
    meant = data(db, "import", str(games), "--late")
    assert meant["recorded"] == 4
    assert sorted((x["line"], x["dated_in"], x["period"]) for x in meant["late"]) == [
        (2, "2026-10", "2026-12"), (3, "2025-11", "2026-12"), (4, "2025-12", "2026-12"),
        (5, "2025-12", "2026-12")]


def test_a_new_ledger_records_last_years_tournament_in_its_own_period(tmp_path: Path) -> None:
    # nothing closed: no earliest open period, every period open, nothing late or refused
    db = club(tmp_path)
    games = tmp_path / "games.csv"
    games.write_text("date,white,black,result,event\n"
                     "2025-10-04,\"Ash, Ann\",\"Cedar, Cy\",1-0,Autumn Open 2025\n",
                     encoding="utf-8")
    report = data(db, "import", str(games))
    assert (report["recorded"], report["late"], report["periods"]) == (1, [], {"2025-10": 1})


def csv_file(tmp_path: Path, name: str, *rows: str) -> Path:
    path = tmp_path / name
    path.write_text("date,white,black,result,event,round\n" + "".join(f"{r}\n" for r in rows),
                    encoding="utf-8")
    return path


def test_a_league_spanning_the_month_makes_no_false_duplicate(tmp_path: Path) -> None:
    db = club(tmp_path)
    # a weekly league, 4 to 25 November (22 days): Ash beat Birch on the 11th
    league = csv_file(tmp_path, "league.csv",
                      '2026-11-04,"Birch, Bob","Cedar, Cy",1/2-1/2,Winter League,1',
                      '2026-11-11,"Ash, Ann","Birch, Bob",1-0,Winter League,2',
                      '2026-11-25,"Cedar, Cy","Ash, Ann",0-1,Winter League,3')
    assert data(db, "import", str(league))["recorded"] == 3
    # a weekend tournament, 14 to 15 November: Ash beats Birch again, on the 14th. The 14th lies
    # within the league's dates, but the league spans more than 10 days: two games
    weekend = csv_file(tmp_path, "weekend.csv",
                       '2026-11-14,"Ash, Ann","Birch, Bob",1-0,Weekend Open,1',
                       '2026-11-15,"Birch, Bob","Cedar, Cy",0-1,Weekend Open,2')
    report = data(db, "import", str(weekend))
    assert (report["recorded"], report["similar"], report["likely_duplicates"]) == (2, [], 0)
    # the weekend's second source under another name (2 days, rule b holds): Birch v Cedar 0-1
    # dated the 14th, within the Weekend Open's 14 to 15 November: a likely duplicate (exit 3)
    second = csv_file(tmp_path, "second.csv",
                      '2026-11-14,"Birch, Bob","Cedar, Cy",0-1,Weekend Open 2026,')
    refused = run(db, "import", str(second), "--json")
    assert refused.exit_code == 3
    similar = json.loads(refused.stdout)["similar"]
    assert [(s["line"], s["recorded_game_id"], s["recorded_event"]) for s in similar] == [
        (2, 5, "Weekend Open")]
    assert similar[0]["why"] == ("the same players and result in another event, whose dates "
                                 "(2026-11-14 to 2026-11-15) hold 2026-11-14")
