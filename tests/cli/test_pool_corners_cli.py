"""Rapid and blitz in every corner (issue 21 §5): a rapid or blitz event's file registers its
new players in that pool; a player rated there from their standard rating (R&B 2024 7.2.1,
"considered to be rated") is a rated opponent for everyone, an unrated player's initial rating
included; the import's "to rate" is what the close rates. Values worked by hand from FIDE's
tables (docs/RULES.md §3, §5, §6, §9)."""

from __future__ import annotations

from pathlib import Path

from cli_runs import data, ok, ratings, run
from ledgers import sqlite_ledger

# A blitz club evening: one game, round 1, 10 November 2025, Quick, Ann (1850 in the file)
# beats Slow, Sam (1720 in the file). Record 122 "3 min + 2 sec": 3 + 2 s x 60 / 60 = 5
# minutes for 60 moves: blitz (more than 3, at most 10).
QUICK = ("001    1 f    Quick, Ann                        1850 XXX    90000011 1990/01/01  1.0"
         "    1     2 w 1")
SLOW = ("001    2 m    Slow, Sam                         1720 XXX    90000012 1985/01/01  0.0"
        "    2     1 b 0")


def blitz_trf(tmp_path: Path) -> Path:
    path = tmp_path / "blitz.trf"
    path.write_text("\n".join(["012 Club Blitz", "042 2025/11/10", "052 2025/11/10",
                               "122 3 min + 2 sec", QUICK, SLOW]) + "\n", encoding="utf-8")
    return path


def shown(db: Path, name: str, pool: str) -> tuple[int | None, int | None]:
    """(rating, rated games) of ``player show --pool``; rated games None: unknown history."""
    view = data(db, "player", "show", name, "--pool", pool)
    return view["rating"], view["rated_games"]


def closed_ratings(db: Path, period: str) -> dict[str, int]:
    """``period close PERIOD``: the new rating of each player it rated, by name."""
    return {r["name"]: r["rating_after"] for r in data(db, "period", "close", period)["results"]}


def test_a_blitz_trf_registers_its_players_in_blitz_not_in_standard(tmp_path: Path) -> None:
    db = tmp_path / "blitz.db"
    sqlite_ledger(db)
    report = data(db, "import", str(blitz_trf(tmp_path)), "--register-players")
    assert report["registered_established"] == ["Quick, Ann", "Slow, Sam"]
    # the file's ratings are their published blitz ratings (earlier games unknown: established)
    assert shown(db, "Quick, Ann", "blitz") == (1850, None)
    assert shown(db, "Slow, Sam", "blitz") == (1720, None)
    # and they are unrated in standard, with no rated games
    assert shown(db, "Quick, Ann", "standard") == (None, 0)
    assert shown(db, "Slow, Sam", "standard") == (None, 0)
    # both rated in blitz, so the one game is to rate
    assert (report["to_rate"], report["not_rated"]) == (1, {})
    closed = data(db, "period", "close", "2025-11")
    assert closed["pool"] == "blitz"
    # blitz 2025-11, established (30+ games), born 1990 and 1985: K 20. D = 1850 - 1720 = 130
    # -> PD .68 (band 130-137). Ann 20 x (1 - .68) = +6.4 -> +6: 1856; Sam 20 x (0 - .32) =
    # -6.4 -> -6: 1714
    assert {r["name"]: (r["k"], r["rating_after"]) for r in closed["results"]} == {
        "Quick, Ann": (20, 1856), "Slow, Sam": (20, 1714)}
    assert ratings(db, "2025-11", "--pool", "blitz") == {"Quick, Ann": 1856, "Slow, Sam": 1714}


def test_a_pgn_time_control_registers_in_its_pool_with_the_files_elo(tmp_path: Path) -> None:
    db = tmp_path / "rapid.db"
    sqlite_ledger(db)
    path = tmp_path / "rapid.pgn"
    # 900+10: 15 min + 10 s x 60 / 60 = 25 minutes: rapid
    path.write_text('[Event "Club Rapid"]\n[Site "Riverside"]\n[Date "2025.11.12"]\n'
                    '[Round "1"]\n[White "Quick, Ann"]\n[Black "Slow, Sam"]\n[Result "1/2-1/2"]\n'
                    '[WhiteElo "1850"]\n[BlackElo "1720"]\n[TimeControl "900+10"]\n\n'
                    '1. e4 e5 1/2-1/2\n', encoding="utf-8")
    report = data(db, "import", str(path), "--register-players")
    assert shown(db, "Quick, Ann", "rapid") == (1850, None)
    assert shown(db, "Quick, Ann", "standard") == (None, 0)
    assert shown(db, "Slow, Sam", "blitz") == (None, 0)  # no blitz entry: unrated there too
    assert report["to_rate"] == 1
    # rapid, K 20: D 130 -> PD .68: Ann 20 x (.5 - .68) = -3.6 -> -4: 1846; Sam 20 x (.5 -
    # .32) = +3.6 -> +4: 1724
    assert closed_ratings(db, "2025-11") == {"Quick, Ann": 1846, "Slow, Sam": 1724}


def test_pool_registers_a_files_players_in_that_pool(tmp_path: Path) -> None:
    db = tmp_path / "pool.db"
    sqlite_ledger(db)
    path = tmp_path / "no122.trf"  # no record 122: --pool rapid gives the pool
    path.write_text("\n".join(["012 Club Rapid", "042 2025/11/10", "052 2025/11/10", QUICK,
                               SLOW]) + "\n", encoding="utf-8")
    ok(db, "import", str(path), "--register-players", "--pool", "rapid")
    assert shown(db, "Quick, Ann", "rapid") == (1850, None)
    assert shown(db, "Quick, Ann", "standard") == (None, 0)


def seeded_ledger(tmp_path: Path) -> Path:
    """Rook, Rita holds a standard rating of 2000 and no blitz rating (2025: rated in blitz
    from it, R&B 2024 7.2.1); Pawn, Pete is unrated everywhere; Cole, Dee, Eyre and Fox are
    rated in blitz 1600, 1700, 1800, 1900 (50 blitz games each)."""
    db = tmp_path / "seeded.db"
    sqlite_ledger(db)
    ok(db, "player", "add", "Rook, Rita", "--rating", "2000", "--prior-games", "50")
    ok(db, "player", "add", "Pawn, Pete")
    for name, rating in (("Cole, Cy", "1600"), ("Dale, Dee", "1700"), ("Eyre, Eve", "1800"),
                         ("Fox, Flo", "1900")):
        ok(db, "player", "add", name, "--blitz-rating", rating, "--blitz-games", "50")
    return db


def test_a_player_rated_from_standard_is_a_rated_opponent_for_an_initial_rating(
        tmp_path: Path) -> None:
    db = seeded_ledger(tmp_path)
    # Pete's five blitz games of November 2025: draws with Rita, Cy and Flo, wins against Dee
    # and Eve: 3.5 points
    for opponent, result in (("Rook, Rita", "1/2-1/2"), ("Cole, Cy", "1/2-1/2"),
                             ("Dale, Dee", "1-0"), ("Eyre, Eve", "1-0"), ("Fox, Flo", "1/2-1/2")):
        ok(db, "game", "add", "Pawn, Pete", opponent, result, "--date", "2025-11-05",
           "--pool", "blitz")
    closed = data(db, "period", "close", "2025-11")
    # Rita's 2000 counts (7.2.1): 5 games against rated opponents, 2000 + 1600 + 1700 + 1800 +
    # 1900 = 9000. Ra = (9000 + 2 x 1800) / 7 = 1800; p = (3.5 + 1) / 7 = .642.. -> .64 -> dp
    # 102 (table 8.1.1); Ru = 1902 (without Rita: 4 games, no initial rating)
    initial = {r["name"]: r for r in closed["initial_ratings"]}
    assert list(initial) == ["Pawn, Pete"]
    assert (initial["Pawn, Pete"]["games"], initial["Pawn, Pete"]["rating"]) == (5, 1902)
    assert ratings(db, "2025-11", "--pool", "blitz")["Pawn, Pete"] == 1902


def test_the_pool_in_progress_counts_a_player_rated_from_standard(tmp_path: Path) -> None:
    db = seeded_ledger(tmp_path)
    ok(db, "game", "add", "Pawn, Pete", "Rook, Rita", "1/2-1/2", "--date", "2025-11-05",
       "--pool", "blitz")
    # one game against Rita (2000 from her standard rating): one game of Pete's blitz pool
    view = data(db, "player", "show", "Pawn, Pete", "--pool", "blitz")
    assert [g["opponent_rating"] for g in view["pool"]["pool_games"]] == [2000]


def test_the_import_report_counts_games_of_players_rated_from_standard(tmp_path: Path) -> None:
    db = tmp_path / "report.db"
    sqlite_ledger(db)
    # both players hold a standard rating and no blitz rating: in 2025 they are rated in blitz
    # from it (7.2.1), and the close rates the game
    ok(db, "player", "add", "Quick, Ann", "--fide-id", "90000011", "--rating", "1850",
       "--prior-games", "50")
    ok(db, "player", "add", "Slow, Sam", "--fide-id", "90000012", "--rating", "1720",
       "--prior-games", "50")
    report = data(db, "import", str(blitz_trf(tmp_path)))
    assert (report["to_rate"], report["not_rated"]) == (1, {})
    # 0 blitz games: K 40 (docs/RULES.md §9); D 130 -> PD .68: Ann 40 x .32 = +12.8 -> +13:
    # 1863; Sam 40 x -.32 = -12.8 -> -13: 1707
    assert closed_ratings(db, "2025-11") == {"Quick, Ann": 1863, "Slow, Sam": 1707}


def test_the_import_report_counts_the_600_point_rule_as_the_close_does(tmp_path: Path) -> None:
    db = tmp_path / "gap.db"
    sqlite_ledger(db)
    ok(db, "player", "add", "Top, Tia", "--blitz-rating", "2650", "--blitz-games", "100")
    ok(db, "player", "add", "Low, Lou", "--blitz-rating", "2040", "--blitz-games", "100")
    path = tmp_path / "gap.csv"
    path.write_text("date,white,black,result,pool\n2025-03-04,\"Top, Tia\",\"Low, Lou\",1-0,"
                    "blitz\n", encoding="utf-8")
    # 2650 v 2040: 610 apart, one above 2600, in 2025-03 (from 2024-12): not rated
    report = data(db, "import", str(path))
    assert (report["to_rate"], report["not_rated"]) == (
        0, {"600 or more apart, one above 2600": 1})
    closed = data(db, "period", "close", "2025-03")
    assert closed["results"] == []


def test_a_blitz_files_ratings_are_compared_with_the_blitz_rating(tmp_path: Path) -> None:
    db = tmp_path / "warn.db"
    sqlite_ledger(db)
    for name, fide_id in (("Quick, Ann", "90000011"), ("Slow, Sam", "90000012")):
        ok(db, "player", "add", name, "--fide-id", fide_id, "--rating", "2000",
           "--prior-games", "50", "--blitz-rating", "1850" if "Ann" in name else "1720",
           "--blitz-games", "50")
    # the file's 1850 and 1720 are their blitz ratings: nothing to warn of (their standard
    # 2000 is another list)
    result = ok(db, "import", str(blitz_trf(tmp_path)))
    assert "warning" not in result.output, result.output
    # a blitz rating the file gets wrong is named, with the ledger's blitz rating
    ok(db, "player", "add", "Other, Oli", "--fide-id", "90000013", "--blitz-rating", "1700",
       "--blitz-games", "50")
    path = tmp_path / "second.trf"
    path.write_text("\n".join([
        "012 Club Blitz 2", "042 2025/11/17", "052 2025/11/17", "122 3 min + 2 sec",
        QUICK.replace("90000011", "90000013").replace("Quick, Ann ", "Other, Oli ")
        .replace(" f ", " m "), SLOW]) + "\n", encoding="utf-8")
    result = ok(db, "import", str(path))
    assert ("Other, Oli: the file says 1850, the ledger's published blitz rating is 1700; the "
            "ledger's is used") in " ".join(result.output.split()), result.output


def test_a_corrected_blitz_file_registers_its_new_player_in_blitz(tmp_path: Path) -> None:
    db = tmp_path / "replace.db"
    sqlite_ledger(db)
    ok(db, "import", str(blitz_trf(tmp_path)), "--register-players")
    # the corrected file: Sam did not play; New, Nia (1780 in the file) lost to Ann instead
    nia = SLOW.replace("Slow, Sam ", "New, Nia  ").replace("90000012", "90000014") \
        .replace(" m ", " f ").replace("1720", "1780")
    path = tmp_path / "corrected.trf"
    path.write_text("\n".join(["012 Club Blitz", "042 2025/11/10", "052 2025/11/10",
                               "122 3 min + 2 sec", QUICK, nia]) + "\n", encoding="utf-8")
    ok(db, "import", str(path), "--replace", "--reason", "wrong pairing", "--register-players")
    assert shown(db, "New, Nia", "blitz") == (1780, None)
    assert shown(db, "New, Nia", "standard") == (None, 0)


def two_players(db: Path, *more: str) -> Path:
    """A new ledger ``db`` with Ash, Ann and Birch, Bob, each 1800 in standard after 50 rated
    games (K 20), and ``more`` options of ``player add`` each."""
    sqlite_ledger(db)
    for name in ("Ash, Ann", "Birch, Bob"):
        ok(db, "player", "add", name, "--rating", "1800", "--prior-games", "50", *more)
    return db


def test_an_armageddon_of_different_times_closes_no_blitz_list(tmp_path: Path) -> None:
    db = two_players(tmp_path / "armageddon.db")
    path = tmp_path / "final.csv"
    # a standard game, then the Armageddon, a blitz game (5+0: 5 minutes for 60 moves) where
    # White had 5 minutes and Black 4: different times, recorded, never rated (docs/RULES.md §9)
    path.write_text(
        "date,event,round,white,black,result,time_control,white_time_control,"
        "black_time_control\n"
        "2025-11-08,Club Final,1,\"Ash, Ann\",\"Birch, Bob\",1/2-1/2,90+30,,\n"
        "2025-11-08,Club Final Armageddon,1,\"Birch, Bob\",\"Ash, Ann\",0-1,5+0,5+0,4+0\n",
        encoding="utf-8")
    ok(db, "import", str(path))
    closed = data(db, "period", "close", "2025-11")
    # the standard draw, D 0 -> PD .50: no change for either; the blitz game rates nobody, so
    # no blitz close and no (empty) blitz list
    assert (closed["pool"], closed["other_pools"]) == ("standard", [])
    assert [(p["period"], p["pool"]) for p in data(db, "period", "list")["periods"]] == [
        ("2025-11", "standard")]
    refused = run(db, "list", "--pool", "blitz")
    assert refused.exit_code == 1
    assert "no blitz rating list yet" in refused.stderr


def test_each_pool_numbers_its_revisions_of_a_period_from_1(tmp_path: Path) -> None:
    db = two_players(tmp_path / "revisions.db", "--blitz-rating", "1800", "--blitz-games", "50")
    ok(db, "game", "add", "Ash, Ann", "Birch, Bob", "1-0", "--date", "2025-11-08")
    ok(db, "game", "add", "Ash, Ann", "Birch, Bob", "1-0", "--date", "2025-11-09",
       "--pool", "blitz")
    ok(db, "period", "close", "2025-11")
    # one close, two pools: each list is its pool's revision 1 of 2025-11 (not standard 1,
    # blitz 2). D 0 -> PD .50, K 20: 20 x .50 = +10: Ann 1810, Bob 1790 in both pools
    periods = [(p["pool"], p["revision"]) for p in data(db, "period", "list")["periods"]]
    assert periods == [("standard", 1), ("blitz", 1)]
    assert ratings(db, "2025-11", "--pool", "blitz", "--revision", "1") == {
        "Ash, Ann": 1810, "Birch, Bob": 1790}
    # the blitz list reopened and closed again: the blitz pool's revision 2; standard stays 1
    reopened = ok(db, "period", "reopen", "2025-11", "--pool", "blitz", "--reason", "typo")
    assert "closing 2025-11 again writes revision 2" in " ".join(reopened.output.split())
    ok(db, "period", "close", "2025-11", "--pool", "blitz")
    periods = [(p["pool"], p["revision"]) for p in data(db, "period", "list")["periods"]]
    assert periods == [("standard", 1), ("blitz", 2)]
    # a re-rating of the blitz pool from 2025-11: its revision 3
    rerated = data(db, "period", "rerate", "--from", "2025-11", "--pool", "blitz", "--reason",
                   "check", "--yes")
    assert [(p["old_revision"], p["new_revision"]) for p in rerated["periods"]] == [(2, 3)]
    assert ratings(db, "2025-11", "--pool", "blitz", "--revision", "2") == {
        "Ash, Ann": 1810, "Birch, Bob": 1790}
    # standard has revision 1 only: its revision 2 is not found, naming the ones it has
    missing = run(db, "list", "--period", "2025-11", "--revision", "2")
    assert missing.exit_code == 1
    assert "period 2025-11 has no revision 2 (it has revision(s) 1)" in missing.stderr
    ok(db, "db", "check")
    # the site: the blitz list's superseded revisions 1 and 2 as their own pages; standard none
    site = tmp_path / "site"
    ok(db, "site", "build", str(site))
    assert sorted(p.name for p in (site / "lists").glob("*/2025-11*.html")) == [
        "2025-11-r1.html", "2025-11-r2.html", "2025-11.html", "2025-11.html"]
    assert sorted(p.name for p in (site / "lists" / "blitz").glob("2025-11*.html")) == [
        "2025-11-r1.html", "2025-11-r2.html", "2025-11.html"]
