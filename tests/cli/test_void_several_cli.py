"""``ledger game void ID...``: several games voided in one command, all or nothing, one
``game.void`` change each and one effect (issue 21 §3). Values worked by hand from FIDE B.02
table 8.1.2 (PD by rating difference D) with K 20 (adults, 100 prior games, under 2400)."""

from __future__ import annotations

from cli_runs import actions, data, last_changes, ok, ratings, run


def three_players_in_september(db: str) -> None:
    """Doyle 1800, Walsh 1700, Kelly 1600. September: game 1 Doyle beats Walsh, game 2 Kelly
    beats Walsh, game 3 Doyle beats Kelly. Closed:
    Doyle: D +100 -> .64, D +200 -> .76: expected 1.40, score 2: 20 x .60 = +12.00 (1812);
    Walsh: D -100 -> .36, D +100 -> .64: expected 1.00, score 0: -20.00 (1680);
    Kelly: v Walsh D -100 -> .36, v Doyle D -200 -> .24: expected .60, score 1: 20 x .40 =
    +8.00 (1608)."""
    ok(db, "init")
    for name, rating in (("Doyle, Liam", "1800"), ("Walsh, Brendan", "1700"),
                         ("Kelly, Ann", "1600")):
        ok(db, "player", "add", name, "--rating", rating, "--prior-games", "100")
    ok(db, "game", "add", "Doyle, Liam", "Walsh, Brendan", "1-0", "--date", "2026-09-10")
    ok(db, "game", "add", "Kelly, Ann", "Walsh, Brendan", "1-0", "--date", "2026-09-11")
    ok(db, "game", "add", "Doyle, Liam", "Kelly, Ann", "1-0", "--date", "2026-09-12")
    ok(db, "period", "close", "2026-09")


def test_two_games_voided_in_one_command_rerate_once(ledger_db: str) -> None:
    db = ledger_db
    three_players_in_september(db)
    published = {"Doyle, Liam": 1812, "Walsh, Brendan": 1680, "Kelly, Ann": 1608}
    assert ratings(db, "2026-09") == published
    before = actions(db)

    voided = data(db, "game", "void", "1", "2", "--reason", "not played", "--rerate")
    # one game.void change each, then one re-rating of 2026-09
    (first, _), (second, _), _ = last_changes(db, 3)
    assert [(g["change"], g["before"]["id"], g["before"]["status"], g["after"]["status"])
            for g in voided["games"]] == [(first, 1, "rated", "void"),
                                          (second, 2, "rated", "void")]
    assert "before" not in voided  # several games: each in "games"
    assert actions(db) == [*before, "game.void", "game.void", "period.rerate"]
    assert [p["period"] for p in voided["effect"]["rerated"]] == ["2026-09"]
    # 2026-09 re-rated with game 3 alone: Doyle D +200 -> .76, 20 x .24 = +4.8 -> +5 (1805);
    # Kelly 20 x (0 - .24) = -4.8 -> -5 (1595); Walsh has no game: 1700 stands
    assert ratings(db, "2026-09") == {"Doyle, Liam": 1805, "Walsh, Brendan": 1700,
                                      "Kelly, Ann": 1595}
    assert ratings(db, "2026-09", "--revision", "1") == published


def test_several_games_carried_into_the_next_period_each_by_its_own_change(
        ledger_db: str) -> None:
    db = ledger_db
    three_players_in_september(db)
    dry = data(db, "game", "void", "1", "2", "--reason", "not played", "--in-next-period",
               "--dry-run")
    # game 1 first: Doyle 12.00 -> 20 x (1 - .76) = 4.80: -7.20; Walsh -20.00 -> -12.80 (v
    # Kelly alone): +7.20. Then game 2: Walsh -12.80 -> 0: +12.80; Kelly +8.00 -> -4.80 (v
    # Doyle alone): -12.80. In hundredths, in that order:
    assert [(c["name"], c["gave_hundredths"], c["gives_hundredths"], c["hundredths"])
            for c in dry["effect"]["carried"]] == [
        ("Doyle, Liam", 1200, 480, -720), ("Walsh, Brendan", -2000, -1280, 720),
        ("Walsh, Brendan", -1280, 0, 1280), ("Kelly, Ann", 800, -480, -1280)]
    assert [g["change"] for g in dry["games"]] == [None, None]
    assert data(db, "game", "list")["games"][0]["status"] == "rated"  # nothing written


def test_all_or_nothing_and_each_refusal_names_its_game(ledger_db: str) -> None:
    db = ledger_db
    three_players_in_september(db)
    before = actions(db)
    missing = run(db, "game", "void", "3", "99", "--reason", "x", "--rerate")
    assert missing.exit_code == 1 and "no game with id 99" in missing.stderr
    twice = run(db, "game", "void", "3", "3", "--reason", "x", "--rerate")
    assert twice.exit_code == 1 and "game 3 is named twice" in twice.stderr
    no_mode = run(db, "game", "void", "3", "1", "--reason", "x")
    assert no_mode.exit_code == 1 and "game 3 is in closed period 2026-09" in no_mode.stderr
    assert actions(db) == before  # nothing written
    assert {g["id"]: g["status"] for g in data(db, "game", "list")["games"]} == {
        1: "rated", 2: "rated", 3: "rated"}
    ok(db, "game", "void", "3", "--reason", "x", "--rerate")
    void_again = run(db, "game", "void", "1", "3", "--reason", "x", "--rerate")
    assert void_again.exit_code == 1 and "game 3 is already void" in void_again.stderr
