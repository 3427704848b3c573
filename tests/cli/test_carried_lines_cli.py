"""A carried correction (``--in-next-period``, docs/CORRECTIONS.md §5) is a line of its own
wherever a player's rating is shown: ``player show``, ``history``, ``whatif`` (which also adds
it, as the close will) and the player's site page; the event report says why an event's exact
change and the period's change differ (issue 21 §6).

The ledger (``corrected_october``): Ann 1800, Bob 1700, Cy 1800, all K 20 (adults below 2400,
50 prior games). October 2026: Ann beats Bob (game 1), closed: D = 100 -> PD .64 for Ann
(table 8.1.2: 99-106), 20 x (1 - .64) = +7.20 -> +7: 1807; Bob 20 x (0 - .36) = -7.20 -> -7:
1693. Then game 1 is corrected to 0-1 with ``--in-next-period``: Ann's exact change would be
20 x (0 - .64) = -12.80 where it was +7.20, so -20.00 is carried into 2026-11; Bob
20 x (1 - .36) = +12.80 where it was -7.20: +20.00.
"""

from __future__ import annotations

from pathlib import Path

from cli_runs import data, ok, ratings
from ledgers import sqlite_ledger

ANN, BOB, CY = "Ash, Ann", "Birch, Bob", "Cedar, Cy"
ANN_LINE = "carried into 2026-11: -20.00, game 1 corrected"


def corrected_october(tmp_path: Path) -> Path:
    db = tmp_path / "carried.db"
    sqlite_ledger(db)
    for name, rating in ((ANN, "1800"), (BOB, "1700"), (CY, "1800")):
        ok(db, "player", "add", name, "--rating", rating, "--prior-games", "50")
    ok(db, "game", "add", ANN, BOB, "1-0", "--date", "2026-10-10")
    ok(db, "period", "close", "2026-10")
    assert ratings(db, "2026-10") == {ANN: 1807, BOB: 1693, CY: 1800}  # Cy: on the list
    fixed = data(db, "game", "correct", "1", "--result", "0-1", "--reason", "result was 0-1",
                 "--in-next-period")
    assert [(c["name"], c["hundredths"]) for c in fixed["effect"]["carried"]] == [
        (ANN, -2000), (BOB, 2000)]
    return db


def flat(text: str) -> str:
    return " ".join(text.split())


def test_player_show_and_history_give_a_pending_carried_correction_a_line(
        tmp_path: Path) -> None:
    db = corrected_october(tmp_path)
    shown = flat(ok(db, "player", "show", ANN).stdout)
    assert (f"{ANN_LINE} (the 2026-10 list stands as published; the close of 2026-11 adds it "
            "before its one rounding; reason: result was 0-1)") in shown
    # the published rating stands: 1807 until the close of 2026-11
    as_json = data(db, "player", "show", ANN)
    assert as_json["rating"] == 1807
    assert [(c["applies_in"], c["carried"], c["hundredths"], c["origin_period"],
             c["origin_revision"], c["game_id"], c["action"], c["added"], c["line"])
            for c in as_json["carried_corrections"]] == [
        ("2026-11", -20, -2000, "2026-10", 1, 1, "game.correct", False, ANN_LINE)]
    assert [c["line"] for c in data(db, "player", "show", BOB)["carried_corrections"]] == [
        "carried into 2026-11: +20.00, game 1 corrected"]
    assert data(db, "player", "show", CY)["carried_corrections"] == []
    assert ANN_LINE in flat(ok(db, "history", ANN).stdout)
    assert [c["line"] for c in data(db, "history", ANN)["carried_corrections"]] == [ANN_LINE]
    # another pool has none
    assert data(db, "player", "show", ANN, "--pool", "blitz")["carried_corrections"] == []


def test_whatif_adds_the_correction_carried_into_the_period(tmp_path: Path) -> None:
    db = corrected_october(tmp_path)
    # Ann 1807 v Cy 1800 in 2026-11: D = 7 -> PD .51 for Ann (4-10), .49 for Cy. With the
    # -20.00 carried into 2026-11: a win 20 x .49 = +9.80 - 20.00 = -10.20 -> -10: 1797; a draw
    # 20 x -.01 = -0.20 - 20.00 = -20.20 -> -20: 1787; a loss -10.20 - 20.00 = -30.20 -> -30:
    # 1777; so far (no game, the carried amount alone) -20.00 -> -20: 1787. Cy: a loss
    # 20 x -.49 = -9.80 -> -10: 1790 (nothing carried for Cy).
    w = data(db, "whatif", ANN, CY, "--period", "2026-11")
    assert (w["player"]["now"]["change_exact"], w["player"]["now"]["rating_after"]) == (-20, 1787)
    assert [(o["result"], o["player"]["change_exact"], o["player"]["change"],
             o["player"]["rating_after"], o["opponent"]["rating_after"])
            for o in w["outcomes"]] == [("win", -10.2, -10, 1797, 1790),
                                        ("draw", -20.2, -20, 1787, 1800),
                                        ("loss", -30.2, -30, 1777, 1810)]
    assert [c["line"] for c in w["player"]["carried_corrections"]] == [ANN_LINE]
    assert w["opponent"]["carried_corrections"] == []
    text = flat(ok(db, "whatif", ANN, CY, "--period", "2026-11").stdout)
    assert (f"{ANN}: {ANN_LINE} (in every change above; the 2026-10 list stands as "
            "published)") in text
    # a what-if of a later open period does not add it: the close of 2026-11 comes first
    later = data(db, "whatif", ANN, CY, "--period", "2026-12")
    assert later["outcomes"][0]["player"]["change_exact"] == 9.8
    assert ("not in the changes above: the close of 2026-11 comes first" in
            flat(ok(db, "whatif", ANN, CY, "--period", "2026-12").stdout))


def test_the_event_report_says_why_its_change_and_the_periods_differ(tmp_path: Path) -> None:
    db = corrected_october(tmp_path)
    ok(db, "game", "add", ANN, CY, "1/2-1/2", "--date", "2026-11-05", "--event",
       "November Open")
    ok(db, "game", "add", ANN, BOB, "1-0", "--date", "2026-11-20")
    ok(db, "period", "close", "2026-11")
    # Ann: the draw 20 x (.50 - .51) = -0.20; the win over Bob 1693, D 114 -> PD .66
    # (114-121), 20 x .34 = +6.80; + the -20.00 carried = -13.40 -> -13: 1794.
    # Cy: 20 x (.50 - .49) = +0.20 -> 0: 1800. Bob: 20 x -.34 = -6.80, + 20.00 carried =
    # +13.20 -> +13: 1706.
    assert ratings(db, "2026-11") == {ANN: 1794, BOB: 1706, CY: 1800}
    report = data(db, "event", "show", "November Open")
    rows = {p["name"]: p for p in report["players"]}
    assert (rows[ANN]["change"], rows[ANN]["period_change"], rows[ANN]["period_exact"],
            rows[ANN]["carried"]) == (-0.2, -13, -13.4, -20)
    assert rows[ANN]["why"] == ("period change -13 = this event -0.20 + 1 other game of 2026-11 "
                                "+6.80 + carried -20.00 (game 1 corrected in 2026-10) = -13.40, "
                                "rounded once")
    assert rows[CY]["why"] == "period change +0 = this event +0.20 = +0.20, rounded once"
    assert [c["line"] for c in rows[ANN]["carried_corrections"]] == [ANN_LINE]
    text = flat(ok(db, "event", "show", "November Open").stdout)
    assert f"{ANN}: {rows[ANN]['why']}" in text
    # once added, the line says so; the period's row carries it too
    shown = data(db, "history", ANN)
    assert [c["added"] for c in shown["carried_corrections"]] == [True]
    assert [(p["period"], p["carried"], p["change_exact"], p["change"]) for p in
            shown["periods"]] == [("2026-10", 0, 7.2, 7), ("2026-11", -20, -13.4, -13)]
    assert "added by the close of 2026-11" in flat(ok(db, "history", ANN).stdout)
    site = tmp_path / "site"
    ok(db, "site", "build", str(site), "--club", "Club", "--date", "2026-12-02")
    page = flat((site / "players" / "1.html").read_text(encoding="utf-8"))
    assert f"<li>{ANN_LINE} (the 2026-10 list stands as published; added by the close of " \
           "2026-11; reason: result was 0-1)</li>" in page
    event = flat((site / "events" / "1.html").read_text(encoding="utf-8"))
    assert f"<li>{ANN}: {rows[ANN]['why']}</li>" in event
    ok(db, "db", "check")


def test_a_carried_correction_superseded_by_a_rerating_is_no_longer_shown(
        tmp_path: Path) -> None:
    db = corrected_october(tmp_path)
    ok(db, "period", "rerate", "--from", "2026-10", "--reason", "rate it as corrected", "--yes")
    # 2026-10 re-rated with the corrected game: Ann -12.80 -> -13: 1787; nothing is carried
    assert ratings(db, "2026-10") == {ANN: 1787, BOB: 1713, CY: 1800}
    assert data(db, "player", "show", ANN)["carried_corrections"] == []
    assert "carried into" not in ok(db, "history", ANN).stdout
