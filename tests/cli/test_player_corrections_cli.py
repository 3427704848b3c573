"""Correcting players through the command line (docs/CORRECTIONS.md §8-§10): ``player edit``
is effective from now (published lists are snapshots, byte for byte; K facts count from the
earliest open period, closed periods keep what they were rated with and ``db check`` passes),
``player merge`` makes one player of two (refusing what cannot be one player) and re-rates
with ``--rerate``, ``player correct-rating`` records FIDE's correction of a published rating
from the next period on. Expected values are worked by hand in the comments."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from cli_runs import data, ok, ratings, run
from ledgers import sqlite_ledger

FORMATS = ("table", "csv", "json", "txt", "html")


def lists(db: Path, period: str) -> dict[str, str]:
    return {fmt: ok(db, "list", "--period", period, "--format", fmt, "--club", "Club").stdout
            for fmt in FORMATS}


def count_changes(db: Path) -> int:
    with sqlite3.connect(db) as con:
        found = con.execute("SELECT count(*) FROM changes").fetchone()[0]
    con.close()
    return int(found)


def one_junior_under_two_ids(db: Path) -> None:
    """A junior (born 2012: 14 in 2026, K 40) registered twice with 1500, and 21 established
    opponents rated 1500 (K 20). September 2026: the first id beats opponents 1-12, the second
    opponents 13-21, one game a day. Closed: D = 0 -> PD .50, each win +0.50; first id 12 x
    0.5 = 6.0, x 40 = +240: 1740 (12 x 40 = 480 <= 700); second id 4.5 x 40 = +180: 1680; each
    opponent 0 - .50 = -0.50, x 20 = -10: 1490."""
    sqlite_ledger(db)
    ok(db, "player", "add", "Young, Yan", "--rating", "1500", "--prior-games", "0", "--birth-year", "2012",
       "--federation", "IRL")
    ok(db, "player", "add", "Young, Y.", "--rating", "1500", "--prior-games", "0", "--birth-year", "2012",
       "--fide-id", "90000077")
    for i in range(1, 22):
        ok(db, "player", "add", f"Opponent, {i:02d}", "--rating", "1500", "--prior-games", "100")
        ok(db, "game", "add", "Young, Yan" if i <= 12 else "Young, Y.", f"Opponent, {i:02d}",
           "1-0", "--date", f"2026-09-{i:02d}")
    ok(db, "period", "close", "2026-09")


def test_a_junior_under_two_ids_becomes_one_player_with_21_games(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    one_junior_under_two_ids(db)
    first = ratings(db, "2026-09")
    assert (first["Young, Yan"], first["Young, Y."], first["Opponent, 01"]) == (1740, 1680, 1490)
    dry = data(db, "player", "merge", "Young, Yan", "Young, Y.", "--reason", "registered twice",
               "--rerate", "--dry-run")
    assert dry["dry_run"] and len(dry["games_moved"]) == 9
    assert ratings(db, "2026-09") == first  # nothing written
    before = count_changes(db)
    merged = data(db, "player", "merge", "Young, Yan", "Young, Y.", "--reason",
                  "registered twice", "--rerate")
    assert count_changes(db) == before + 2  # the merge, the re-rating of 2026-09
    assert (merged["kept"]["name"], merged["duplicate"]["name"], merged["closed_periods"]) == (
        "Young, Yan", "Young, Y.", ["2026-09"])
    assert merged["filled"] == {"fide_id": 90000077}  # the id KEEP lacked moves to it
    # One player with 21 games: 40 x 21 = 840 > 700, K = floor(700 / 21) = 33; 21 wins at
    # D = 0: 21 x 0.50 = 10.5, x 33 = 346.5 -> +347 (half away from zero): 1847.
    history = data(db, "history", "Young, Yan")["periods"]
    assert [(p["period"], p["games"], p["k"], p["k_capped"], p["change_exact"], p["change"],
             p["rating_after"]) for p in history] == [("2026-09", 21, 33, True, 346.5, 347, 1847)]
    after = ratings(db, "2026-09")
    assert "Young, Y." not in after and after["Young, Yan"] == 1847
    assert after["Opponent, 21"] == 1490  # their games and changes are the same
    # revision 1 still shows the list as it was published, with both ids
    assert ratings(db, "2026-09", "--revision", "1") == first
    gone = run(db, "player", "show", "Young, Y.")
    assert gone.exit_code == 1
    assert "Young, Y. (#2) was merged into Young, Yan (#1): refer to #1" in gone.stderr
    assert "Young, Y." not in ok(db, "player", "list").stdout
    # the merged identity's own record stays readable in the audit log
    assert [c["action"] for c in data(db, "audit", "--player", "Young, Y.")["changes"]][-1] \
        == "player.merge"
    assert data(db, "player", "show", "90000077")["name"] == "Young, Yan"
    assert ok(db, "db", "check").exit_code == 0


def test_a_merge_without_rerate_says_which_periods_need_it(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    one_junior_under_two_ids(db)
    merged = run(db, "player", "merge", "#1", "#2", "--reason", "registered twice")
    assert merged.exit_code == 0
    assert "closed period(s) 2026-09 hold games of Young, Y. rated under #2" in " ".join(
        merged.stderr.split())
    assert ratings(db, "2026-09")["Young, Y."] == 1680  # the published list stands
    assert ok(db, "db", "check").exit_code == 0
    # a file naming the merged identity records the game for the player it joined, and warns
    pgn = tmp_path / "oct.pgn"
    pgn.write_text('[Event "October Cup"]\n[Date "2026.10.03"]\n[Round "1"]\n'
                   '[White "Young, Y."]\n[Black "Opponent, 01"]\n[Result "1/2-1/2"]\n\n'
                   '1. e4 e5 1/2-1/2\n', encoding="utf-8")
    report = data(db, "import", str(pgn))
    assert report["recorded"] == 1
    assert any("merged into Young, Yan (#1): matched to them" in p["message"]
               for p in report["problems"])
    assert data(db, "game", "list", "--period", "2026-10")["games"][0]["white"] == "Young, Yan"
    # the re-rating the merge asked for
    ok(db, "period", "rerate", "--from", "2026-09", "--reason", "merged", "--yes")
    assert ratings(db, "2026-09")["Young, Yan"] == 1847
    assert ok(db, "db", "check").exit_code == 0


def test_what_cannot_be_one_player_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    sqlite_ledger(db)
    ok(db, "player", "add", "Kelly, Ann", "--rating", "1600", "--prior-games", "0", "--birth-year", "1990")
    ok(db, "player", "add", "Kelly, A.", "--rating", "1600", "--prior-games", "0", "--birth-year", "1990")
    ok(db, "player", "add", "Kelly, Anne", "--rating", "1650", "--prior-games", "0")
    ok(db, "player", "add", "Kelly, An", "--birth-year", "1991")
    ok(db, "game", "add", "Kelly, Ann", "Kelly, A.", "1-0", "--date", "2026-09-01")
    before = count_changes(db)
    for args, message in (
            (("Kelly, Ann", "#1"), "duplicate: Kelly, Ann (#1) is the player kept"),
            (("Kelly, Ann", "Kelly, A."), "played each other (game 1): one player cannot"),
            (("Kelly, Ann", "Kelly, Anne"), "the histories contradict: for 2022-01 Kelly, Ann "
                                            "(#1) is rated 1600 and Kelly, Anne (#3) rated 1650"),
            (("Kelly, Ann", "Kelly, An"), "birth-year: Kelly, Ann (#1) has 1990 and Kelly, An "
                                          "(#4) 1991"),
            (("Kelly, Ann", "Kelly, A."), "reason: say why")):
        extra = () if message.startswith("reason") else ("--reason", "twice")
        refused = run(db, "player", "merge", *args, *extra)
        assert refused.exit_code == 1, args
        assert message in " ".join(refused.stderr.split()), (args, refused.stderr)
    assert count_changes(db) == before


def test_a_federation_edit_after_a_close_leaves_the_list_as_published(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    one_junior_under_two_ids(db)
    published = lists(db, "2026-09")
    dry = data(db, "player", "edit", "Young, Yan", "--federation", "ENG", "--reason",
               "transfer", "--dry-run")
    assert dry["changed"] == {"federation": {"before": "IRL", "after": "ENG"}}
    before = count_changes(db)
    ok(db, "player", "edit", "Young, Yan", "--federation", "eng", "--reason", "transfer")
    assert count_changes(db) == before + 1
    assert data(db, "player", "show", "Young, Yan")["federation"] == "ENG"
    assert lists(db, "2026-09") == published  # every format, byte for byte
    assert ok(db, "db", "check").exit_code == 0
    for args, message in ((("--federation", "ENG"), "player: Young, Yan already has these "
                                                     "values"),
                          (("--federation", "England"), "federation: 'ENGLAND' must be"),
                          (("--name", "Opponent, 01"), "name: 'Opponent, 01' is already the "
                                                       "name of Opponent, 01"),
                          (("--fide-id", "90000077"), "fide-id: 90000077 already belongs to "
                                                      "Young, Y."),
                          ((), "player: nothing to change")):
        refused = run(db, "player", "edit", "Young, Yan", *args, "--reason", "x")
        assert refused.exit_code == 1 and message in " ".join(refused.stderr.split()), args
    assert count_changes(db) == before + 1


def test_k_facts_count_from_the_earliest_open_period(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    one_junior_under_two_ids(db)
    # Opponent, 01 was registered with 100 prior games (K 20). The officer learns they had
    # only 10 rated games (K 40 until 30): 10 + 1 (September) = 11 < 30 -> K 40, from 2026-10.
    edit = data(db, "player", "edit", "Opponent, 01", "--prior-games", "10", "--reason",
                "registration")
    assert edit["k_from"] == "2026-10"
    assert edit["changed"] == {"prior_games": {"before": 100, "after": 10}}
    shown = data(db, "player", "show", "Opponent, 01")
    assert (shown["rating"], shown["rated_games"], shown["k"]) == (1490, 11, 40)
    # a birth year that makes Opponent, 02 a junior (born 2010: 16 in 2026): K 40 from 2026-10
    ok(db, "player", "edit", "Opponent, 02", "--birth-year", "2010", "--reason", "typo")
    assert data(db, "player", "show", "Opponent, 02")["k_reason"] == "junior"
    # September keeps the K it was rated with (K 20, -10), and db check passes
    history = data(db, "history", "Opponent, 01")["periods"]
    assert [(p["period"], p["k"], p["change"]) for p in history] == [("2026-09", 20, -10)]
    assert ok(db, "db", "check").exit_code == 0
    # October: Opponent, 01 (1490, K 40) beats Opponent, 03 (1490, K 20): D = 0 -> PD .50;
    # +0.50 x 40 = +20: 1510; Opponent, 03 -0.50 x 20 = -10: 1480.
    ok(db, "game", "add", "Opponent, 01", "Opponent, 03", "1-0", "--date", "2026-10-02")
    closed = data(db, "period", "close", "2026-10")
    assert {r["name"]: (r["k"], r["change"]) for r in closed["results"]} == {
        "Opponent, 01": (40, 20), "Opponent, 03": (20, -10)}
    # reached 2400 (a rating published elsewhere): K 10 for ever, from 2026-11
    ok(db, "player", "edit", "Opponent, 03", "--reached-2400", "--reason", "FIDE record")
    shown = data(db, "player", "show", "Opponent, 03")
    assert (shown["k"], shown["k_reason"], shown["rating"]) == (10, "reached-2400", 1480)
    assert ok(db, "db", "check").exit_code == 0


def test_an_official_correction_of_a_published_rating(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    one_junior_under_two_ids(db)
    list_before = lists(db, "2026-09")
    for args, message in ((("--period", "2026-08"), "period: only the list in force can be "
                                                    "corrected, that of 2026-09"),
                          (("--period", "2026-10"), "period: 2026-10 is not closed"),
                          (("--period", "2026-09", "--rating", "1490"), "rating: Opponent, "
                                                                        "01's rating on the "
                                                                        "2026-09 list is 1490 "
                                                                        "already")):
        rating = () if "--rating" in args else ("--rating", "1491")
        refused = run(db, "player", "correct-rating", "Opponent, 01", *rating, *args,
                      "--reason", "FIDE")
        assert refused.exit_code == 1 and message in " ".join(refused.stderr.split()), args
    fixed = data(db, "player", "correct-rating", "Opponent, 01", "--rating", "1491", "--period",
                 "2026-09", "--reason", "FIDE corrected the list by a point")
    assert (fixed["published"], fixed["rating"], fixed["in_force_from"]) == (1490, 1491,
                                                                              "2026-10")
    assert lists(db, "2026-09") == list_before  # the published list stands
    shown = data(db, "player", "show", "Opponent, 01")
    assert (shown["rating"], shown["rated_games"]) == (1491, 101)  # the count goes on
    history = data(db, "history", "Opponent, 01")["periods"]
    assert [(p["period"], p["games"], p["rating_before"], p["change"], p["rating_after"],
             p["note"]) for p in history] == [
        ("2026-09", 1, 1500, -10, 1490, None),
        ("2026-09", 0, 1490, 1, 1491, "official correction: FIDE corrected the list by a point")]
    # October from 1491: a draw v Opponent, 02 (1490): D = 1 -> .50, 0 change: 1491 on the list
    ok(db, "game", "add", "Opponent, 01", "Opponent, 02", "1/2-1/2", "--date", "2026-10-02")
    closed = data(db, "period", "close", "2026-10")
    assert {r["name"]: (r["rating_before"], r["rating_after"]) for r in closed["results"]}[
        "Opponent, 01"] == (1491, 1491)
    assert ok(db, "db", "check").exit_code == 0
