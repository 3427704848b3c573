"""Late results through the command line (docs/RULES.md §1, docs/CORRECTIONS.md §6): a game
dated in a closed period goes into the earliest open period, keeps its real date and is rated
with the ratings in force at its event's start; the closed list stays as published; game list,
the close report and the event list mark it late; --rerate records it in its own period and
re-rates from there. Expected values are worked by hand in the comments."""

from __future__ import annotations

from pathlib import Path

from cli_runs import data, ok, ratings, run
from ledgers import sqlite_ledger


def march(db: Path) -> None:
    """The issue's player: an adult, K 20, 2000 on the list in force for March 2026, and the
    four opponents (established, K 20). March: a draw against 2100, closed."""
    sqlite_ledger(db)
    ok(db, "player", "add", "Adult, Ann", "--rating", "2000", "--prior-games", "100")
    for rating in (2100, 1950, 2050, 1900):
        ok(db, "player", "add", f"Rival, {rating}", "--rating", str(rating), "--prior-games",
           "100")
    ok(db, "game", "add", "Adult, Ann", "Rival, 2100", "1/2-1/2", "--date", "2026-03-10")
    ok(db, "period", "close", "2026-03")


def test_a_march_event_reported_in_april_is_rated_with_the_march_ratings(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    march(db)
    # March: D = 2000 - 2100 = -100 -> PD .36; 0.5 - .36 = +0.14; x 20 = 2.8 -> +3: 2003 on the
    # April list, which stays so.
    assert ratings(db, "2026-03")["Adult, Ann"] == 2003
    april_list = ok(db, "list", "--period", "2026-03", "--format", "txt").stdout
    # A March event reported in April: a win against 1950 and a draw against 2050.
    late = ok(db, "game", "add", "Adult, Ann", "Rival, 1950", "1-0", "--date", "2026-03-20",
              "--event", "March Open", "--round", "1")
    assert "late result: its period 2026-03 is closed" in " ".join(late.stderr.split())
    second = data(db, "game", "add", "Rival, 2050", "Adult, Ann", "1/2-1/2", "--date",
                  "2026-03-21", "--event", "March Open", "--round", "2")["games"][0]
    assert (second["date"], second["period"], second["late"], second["dated_in"]) == (
        "2026-03-21", "2026-04", True, "2026-03")
    # April's own game: a draw against 1900.
    ok(db, "game", "add", "Rival, 1900", "Adult, Ann", "1/2-1/2", "--date", "2026-04-10")
    listed = data(db, "game", "list", "--period", "2026-04")["games"]
    assert [(g["date"], g["late"]) for g in listed] == [
        ("2026-03-20", True), ("2026-03-21", True), ("2026-04-10", False)]
    table = ok(db, "game", "list").stdout
    assert table.count("late (dated 2026-03)") == 2
    events = data(db, "event", "list")["events"]
    assert [(e["name"], e["period"], e["rated_in"], e["late"]) for e in events] == [
        ("March Open", "2026-03", ["2026-04"], True)]

    closed = data(db, "period", "close", "2026-04")
    [ann] = [r for r in closed["results"] if r["name"] == "Adult, Ann"]
    # The late games, rated with the March ratings (Ann 2000, the list in force at the event's
    # start): v 1950, D = 50 -> PD .57, 1 - .57 = +0.43; v 2050, D = -50 -> PD .43,
    # 0.5 - .43 = +0.07. The April game at 2003: v 1900, D = 103 -> PD .64, 0.5 - .64 = -0.14.
    # Rounded once: 0.43 + 0.07 - 0.14 = 0.36, x 20 = 7.2 -> +7 on the base 2003: 2010.
    assert [(g["opponent"], g["difference"], g["expected"], g["late"])
            for g in ann["per_game"]] == [("Rival, 1950", 50, 0.57, True),
                                          ("Rival, 2050", -50, 0.43, True),
                                          ("Rival, 1900", 103, 0.64, False)]
    assert (ann["rating_before"], ann["games"], ann["k"], ann["change_exact"], ann["change"],
            ann["rating_after"]) == (2003, 3, 20, 7.2, 7, 2010)
    assert [g["dated_in"] for g in closed["late_games"]] == ["2026-03", "2026-03"]
    assert ratings(db, "2026-04")["Adult, Ann"] == 2010  # the May list
    # the March and April lists unchanged
    assert ratings(db, "2026-03")["Adult, Ann"] == 2003
    assert ok(db, "list", "--period", "2026-03", "--format", "txt").stdout == april_list
    assert data(db, "period", "list")["periods"][0]["revision"] == 1
    history = data(db, "history", "Adult, Ann")["periods"]
    assert [(p["period"], p["games"], p["rating_after"]) for p in history] == [
        ("2026-03", 1, 2003), ("2026-04", 3, 2010)]
    assert ok(db, "db", "check").exit_code == 0


def test_the_close_report_names_each_late_result(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    march(db)
    ok(db, "game", "add", "Adult, Ann", "Rival, 1950", "1-0", "--date", "2026-03-20")
    shown = " ".join(ok(db, "period", "close", "2026-04", "--dry-run").stdout.split())
    assert ("late result: game 2 of 2026-03-20 (Adult, Ann v Rival, 1950), dated in closed "
            "period 2026-03, rated here with the ratings in force at its event's start") in shown
    assert "Rival, 1950 (late result)" in shown


def test_with_rerate_a_late_game_goes_into_its_own_period(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    march(db)
    refused = run(db, "game", "add", "Adult, Ann", "Rival, 1950", "1-0", "--date",
                  "2026-03-20", "--rerate")
    assert refused.exit_code == 1 and "reason: say why" in refused.stderr
    dry = data(db, "game", "add", "Adult, Ann", "Rival, 1950", "1-0", "--date", "2026-03-20",
               "--rerate", "--reason", "reported late", "--dry-run")
    assert dry["dry_run"] is True and dry["games"][0]["period"] == "2026-03"
    assert data(db, "game", "list")["games"][0]["date"] == "2026-03-10"  # nothing written
    added = data(db, "game", "add", "Adult, Ann", "Rival, 1950", "1-0", "--date", "2026-03-20",
                 "--rerate", "--reason", "reported late")
    game = added["games"][0]
    assert (game["period"], game["late"], game["status"]) == ("2026-03", False, "rated")
    # March again, with both games: +0.14 (v 2100) and v 1950 at 2000: D = 50 -> .57,
    # 1 - .57 = +0.43; 0.57 x 20 = 11.4 -> +11: 2011 (revision 2); revision 1 said 2003.
    [march_rerated] = added["rerated"]
    assert (march_rerated["period"], march_rerated["old_revision"],
            march_rerated["new_revision"]) == ("2026-03", 1, 2)
    assert {c["name"]: (c["before"], c["after"]) for c in march_rerated["changes"]}[
        "Adult, Ann"] == (2003, 2011)
    assert ratings(db, "2026-03")["Adult, Ann"] == 2011
    assert ratings(db, "2026-03", "--revision", "1")["Adult, Ann"] == 2003
    assert ok(db, "db", "check").exit_code == 0
