"""Corrections of rapid and blitz games in periods their pool has closed (docs/CORRECTIONS.md
"In each pool", issue 12): ``game void --in-next-period`` carries the difference into the
pool's next close only, ``--rerate`` re-rates that pool's closes alone, late results with and
without ``--rerate`` (``game add`` and ``import``), ``import --replace`` of a blitz event,
``player merge --rerate``, ``player correct-rating --pool``, a rapid result corrected and then
moved by date, ``--dry-run`` writing nothing, and the guard against one correction in two pools.
Every expected value is worked by hand in its comment.

The ledger of every test (``closed_october``): 2026-10 closed in two pools by one close.
Blitz (all K 20: 40 blitz games, adults below 2400): Ann 2000 beats Bob 1900 (game 1) and draws
Cy 2100 (game 2). Standard (K 20: 50 games): Ann 1900 beats Dee 1900 (game 3).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from cli_runs import data, ok, ratings, run
from ledgers import sqlite_ledger

from ledger.domain import Period
from ledger.errors import PeriodError
from ledger.services.core.session import open_ledger, transaction
from ledger.services.corrections.effects import Effects, Mode

ANN, BOB, CY, DEE = "Ash, Ann", "Birch, Bob", "Cedar, Cy", "Dale, Dee"


def closed_october(tmp_path: Path) -> Path:
    db = tmp_path / "pools.db"
    sqlite_ledger(db)
    ok(db, "player", "add", ANN, "--rating", "1900", "--prior-games", "50",
       "--blitz-rating", "2000", "--blitz-games", "40")
    ok(db, "player", "add", BOB, "--blitz-rating", "1900", "--blitz-games", "40")
    ok(db, "player", "add", CY, "--blitz-rating", "2100", "--blitz-games", "40")
    ok(db, "player", "add", DEE, "--rating", "1900", "--prior-games", "50")
    ok(db, "game", "add", ANN, BOB, "1-0", "--date", "2026-10-14", "--pool", "blitz")
    ok(db, "game", "add", CY, ANN, "1/2-1/2", "--date", "2026-10-14", "--pool", "blitz")
    ok(db, "game", "add", ANN, DEE, "1-0", "--date", "2026-10-10")
    ok(db, "period", "close", "2026-10")
    # blitz: v Bob D 100 -> PD .64, +.36; v Cy D -100 -> PD .36, .50 - .36 = +.14; 20 x .50
    # = +10 -> 2010. Bob 20 x -.36 = -7.2 -> -7: 1893. Cy 20 x (.50 - .64) = -2.8 -> -3: 2097
    assert ratings(db, "2026-10", "--pool", "blitz") == {ANN: 2010, BOB: 1893, CY: 2097}
    # standard: D 0 -> PD .50; 20 x .50 = +10: Ann 1910, Dee 1890
    assert ratings(db, "2026-10") == {ANN: 1910, DEE: 1890}
    # one close, two pools: revision 1 standard, revision 1 blitz (numbered per pool)
    assert revisions(db, "2026-10") == {"standard": 1, "blitz": 1}
    return db


def revisions(db: Path, period: str) -> dict[str, int]:
    return {p["pool"]: p["revision"] for p in data(db, "period", "list")["periods"]
            if p["period"] == period}


def carried(effect: dict) -> list[tuple[str, str, int, int, int]]:  # type: ignore[type-arg]
    return [(c["name"], c["origin_period"], c["origin_revision"], c["gave_hundredths"],
             c["hundredths"]) for c in effect["carried"]]


def test_a_blitz_void_in_next_period_is_carried_into_the_next_blitz_close_only(
        tmp_path: Path) -> None:
    db = closed_october(tmp_path)
    refused = run(db, "game", "void", "1", "--reason", "never played")
    assert refused.exit_code == 1
    assert "closed period 2026-10 of the blitz pool" in " ".join(refused.stderr.split())
    voided = data(db, "game", "void", "1", "--reason", "never played", "--in-next-period")
    assert (voided["effect"]["mode"], voided["effect"]["pool"]) == ("in-next-period", "blitz")
    # Ann gave +10.00 (1000); without the win: 20 x .14 = +2.80, so -7.20 is carried. Bob gave
    # -7.20 and plays no other game: 0, so +7.20. Cy's draw stands: nothing.
    assert carried(voided["effect"]) == [(ANN, "2026-10", 1, 1000, -720),
                                         (BOB, "2026-10", 1, -720, 720)]
    # the standard game too: Ann gave +10.00 and gives 0, -10.00; Dee +10.00
    std = data(db, "game", "void", "3", "--reason", "never played", "--in-next-period")
    assert std["effect"]["pool"] == "standard"
    assert carried(std["effect"]) == [(ANN, "2026-10", 1, 1000, -1000),
                                      (DEE, "2026-10", 1, -1000, 1000)]
    # both published lists stand
    assert ratings(db, "2026-10", "--pool", "blitz") == {ANN: 2010, BOB: 1893, CY: 2097}
    assert ratings(db, "2026-10") == {ANN: 1910, DEE: 1890}
    assert revisions(db, "2026-10") == {"standard": 1, "blitz": 1}
    # November: Ann draws Dee in standard; nobody plays blitz
    ok(db, "game", "add", ANN, DEE, "1/2-1/2", "--date", "2026-11-10")
    closed = data(db, "period", "close", "2026-11")
    assert closed["pool"] == "standard" and closed["other_pools"] != []
    # blitz 2026-11 (no game, only the carried amounts): Ann 2010 + round(-7.20) = 2003; Bob
    # 1893 + round(7.20) = 1900; Cy not in the close, 2097. The standard -10.00 is not here.
    assert ratings(db, "2026-11", "--pool", "blitz") == {ANN: 2003, BOB: 1900, CY: 2097}
    # standard 2026-11: Ann 1910 v Dee 1890, D 20 -> PD .53: .50 - .53 = -.03 x 20 = -0.60,
    # + carried -10.00 = -10.60 -> -11: 1899; Dee +0.60 + 10.00 = 10.60 -> +11: 1901. The
    # blitz -7.20 is not here (it would give -17.80 -> 1892).
    assert ratings(db, "2026-11") == {ANN: 1899, DEE: 1901}
    history = data(db, "history", ANN, "--pool", "blitz")["periods"]
    assert [(r["period"], r["games"], r["carried"], r["change"], r["rating_after"])
            for r in history] == [("2026-10", 2, 0, 10, 2010), ("2026-11", 0, -7.2, -7, 2003)]
    ok(db, "db", "check")


def test_a_blitz_void_with_rerate_rerates_the_blitz_close_alone(tmp_path: Path) -> None:
    db = closed_october(tmp_path)
    voided = data(db, "game", "void", "1", "--reason", "never played", "--rerate")
    assert (voided["effect"]["mode"], voided["effect"]["pool"]) == ("rerate", "blitz")
    # the blitz list gets revision 2 (the blitz pool's second of 2026-10): Ann only the draw,
    # 20 x .14 = +2.8 -> +3: 2003; Bob no game: 1900 as registered; Cy -3: 2097
    assert [(p["period"], p["old_revision"], p["new_revision"])
            for p in voided["effect"]["rerated"]] == [("2026-10", 1, 2)]
    assert ratings(db, "2026-10", "--pool", "blitz") == {ANN: 2003, BOB: 1900, CY: 2097}
    assert ratings(db, "2026-10", "--pool", "blitz", "--revision", "1") == {
        ANN: 2010, BOB: 1893, CY: 2097}
    # the standard close of the month stands: revision 1, Ann 1910
    assert revisions(db, "2026-10") == {"standard": 1, "blitz": 2}
    assert ratings(db, "2026-10") == {ANN: 1910, DEE: 1890}
    ok(db, "db", "check")


def test_a_late_blitz_result_without_rerate_goes_into_the_next_blitz_period(
        tmp_path: Path) -> None:
    db = closed_october(tmp_path)
    game = data(db, "game", "add", ANN, BOB, "1-0", "--date", "2026-10-20",
                "--pool", "blitz")["games"][0]
    assert (game["period"], game["late"], game["dated_in"]) == ("2026-11", True, "2026-10")
    ok(db, "period", "close", "2026-11", "--pool", "blitz")
    # rated with the ratings in force at 2026-10's start (2000 v 1900: D 100 -> PD .64):
    # 20 x .36 = +7.2 -> +7 on the 2026-10 list's 2010: 2017; Bob 1893 - 7 = 1886
    assert ratings(db, "2026-11", "--pool", "blitz") == {ANN: 2017, BOB: 1886, CY: 2097}
    assert revisions(db, "2026-10") == {"standard": 1, "blitz": 1}
    ok(db, "db", "check")


def test_a_late_blitz_result_with_rerate_rerates_its_own_blitz_period(tmp_path: Path) -> None:
    db = closed_october(tmp_path)
    refused = run(db, "game", "add", ANN, BOB, "1-0", "--date", "2026-10-20", "--pool",
                  "blitz", "--rerate")
    assert refused.exit_code != 0  # --rerate needs a reason
    added = data(db, "game", "add", ANN, BOB, "1-0", "--date", "2026-10-20", "--pool", "blitz",
                 "--rerate", "--reason", "arbiter's late report")
    assert added["games"][0]["period"] == "2026-10"
    # 2026-10 blitz again: Ann +.36 +.36 +.14 = .86 x 20 = 17.2 -> +17: 2017; Bob -.72 x 20 =
    # -14.4 -> -14: 1886; Cy -3: 2097. Revision 3; the standard close stands.
    assert ratings(db, "2026-10", "--pool", "blitz") == {ANN: 2017, BOB: 1886, CY: 2097}
    assert revisions(db, "2026-10") == {"standard": 1, "blitz": 2}
    assert ratings(db, "2026-10") == {ANN: 1910, DEE: 1890}
    ok(db, "db", "check")


PGN = """[Event "Late Blitz"]
[Site "Riverside"]
[Date "2026.10.20"]
[Round "1"]
[White "Ash, Ann"]
[Black "Birch, Bob"]
[Result "{result}"]
[TimeControl "180+2"]

1. e4 e5 2. Nf3 {result}
"""


def test_a_late_blitz_import_with_rerate_rerates_the_blitz_close(tmp_path: Path) -> None:
    db = closed_october(tmp_path)
    path = tmp_path / "late.pgn"
    path.write_text(PGN.format(result="1-0"), encoding="utf-8")  # 180+2: 3 + 2 = 5: blitz
    report = data(db, "import", str(path), "--rerate", "--reason", "late report")
    assert [(x["period"], x["dated_in"], x["pool"]) for x in report["late"]] == [
        ("2026-10", "2026-10", "blitz")]
    # as with game add --rerate: Ann .86 x 20 = 17.2 -> 2017, Bob -14.4 -> 1886, Cy 2097
    assert ratings(db, "2026-10", "--pool", "blitz") == {ANN: 2017, BOB: 1886, CY: 2097}
    assert revisions(db, "2026-10") == {"standard": 1, "blitz": 2}
    ok(db, "db", "check")


def test_a_late_blitz_import_without_rerate_waits_for_the_next_blitz_close(
        tmp_path: Path) -> None:
    db = closed_october(tmp_path)
    path = tmp_path / "late.pgn"
    path.write_text(PGN.format(result="1-0"), encoding="utf-8")
    report = data(db, "import", str(path))
    assert [(x["period"], x["dated_in"]) for x in report["late"]] == [("2026-11", "2026-10")]
    assert revisions(db, "2026-10") == {"standard": 1, "blitz": 1}
    ok(db, "period", "close", "2026-11", "--pool", "blitz")
    # 2000 v 1900 at 2026-10's start: +7.2 -> +7 on 2010: 2017; Bob 1893 - 7 = 1886
    assert ratings(db, "2026-11", "--pool", "blitz") == {ANN: 2017, BOB: 1886, CY: 2097}


def test_replace_of_a_blitz_event_in_a_closed_blitz_period(tmp_path: Path) -> None:
    db = tmp_path / "pools.db"
    sqlite_ledger(db)
    ok(db, "player", "add", ANN, "--blitz-rating", "2000", "--blitz-games", "40")
    ok(db, "player", "add", BOB, "--blitz-rating", "1900", "--blitz-games", "40")
    path = tmp_path / "night.pgn"
    path.write_text(PGN.format(result="1-0").replace("Late Blitz", "Blitz Night"),
                    encoding="utf-8")
    ok(db, "import", str(path))
    ok(db, "period", "close", "2026-10")
    # 2000 beats 1900: D 100 -> .64, 20 x .36 = +7.2 -> 2007; Bob 1893
    assert ratings(db, "2026-10", "--pool", "blitz") == {ANN: 2007, BOB: 1893}
    fixed = tmp_path / "night-fixed.pgn"
    fixed.write_text(PGN.format(result="1/2-1/2").replace("Late Blitz", "Blitz Night"),
                     encoding="utf-8")
    refused = run(db, "import", str(fixed), "--replace", "--reason", "was a draw")
    assert refused.exit_code == 1
    assert "closed period 2026-10 of the blitz pool" in " ".join(refused.output.split())
    report = data(db, "import", str(fixed), "--replace", "--reason", "was a draw",
                  "--in-next-period")
    # a draw: .50 - .64 = -.14 x 20 = -2.80 where +7.20 was: -10.00 carried; Bob +10.00
    assert carried(report["effect"]) == [(ANN, "2026-10", 1, 720, -1000),
                                         (BOB, "2026-10", 1, -720, 1000)]
    ok(db, "period", "close", "2026-11", "--pool", "blitz")
    # 2007 - 10 = 1997; 1893 + 10 = 1903 (2000 + round(-2.8) = 1997, as if rated as a draw)
    assert ratings(db, "2026-11", "--pool", "blitz") == {ANN: 1997, BOB: 1903}
    ok(db, "db", "check")


def test_merge_with_rerate_rerates_the_pool_of_the_duplicates_games(tmp_path: Path) -> None:
    db = closed_october(tmp_path)
    ok(db, "player", "add", "Birch, Robert", "--blitz-rating", "1900", "--blitz-games", "40")
    ok(db, "game", "add", "Birch, Robert", CY, "0-1", "--date", "2026-11-05", "--pool", "blitz")
    ok(db, "game", "add", ANN, DEE, "1/2-1/2", "--date", "2026-11-10")
    ok(db, "period", "close", "2026-11")
    # blitz 2026-11: Robert 1900 v Cy 2097 (the 2026-10 list): D -197 -> PD .25 (189-197);
    # 20 x -.25 = -5.0 -> -5: 1895
    assert ratings(db, "2026-11", "--pool", "blitz")["Birch, Robert"] == 1895
    before = revisions(db, "2026-11")
    merged = data(db, "player", "merge", BOB, "Birch, Robert", "--reason", "one person",
                  "--rerate")
    assert merged["closed_periods"] == ["2026-11"]
    # the blitz 2026-11 re-rated (blitz revision 2: 1 before); Bob 1893 v Cy 2097:
    # D -204 -> PD .24 (198-206); -4.8 -> -5: 1888. The standard close stands.
    assert [(p["period"], p["new_revision"]) for p in merged["rerated"]] == [("2026-11", 2)]
    assert revisions(db, "2026-11") == {"standard": before["standard"], "blitz": 2}
    blitz = ratings(db, "2026-11", "--pool", "blitz")
    assert blitz[BOB] == 1888 and "Birch, Robert" not in blitz
    ok(db, "db", "check")


def test_correct_rating_in_the_blitz_pool(tmp_path: Path) -> None:
    db = closed_october(tmp_path)
    fixed = data(db, "player", "correct-rating", ANN, "--rating", "2020", "--period", "2026-10",
                 "--pool", "blitz", "--reason", "FIDE's correction")
    assert (fixed["pool"], fixed["published"], fixed["rating"]) == ("blitz", 2010, 2020)
    # in the blitz pool only: the standard rating is 1910 still
    assert data(db, "player", "show", ANN, "--pool", "blitz")["rating"] == 2020
    assert data(db, "player", "show", ANN)["rating"] == 1910
    # the published blitz list stands
    assert ratings(db, "2026-10", "--pool", "blitz")[ANN] == 2010
    unrated = run(db, "player", "correct-rating", DEE, "--rating", "1800", "--period",
                  "2026-10", "--pool", "blitz", "--reason", "x")
    assert unrated.exit_code == 1
    assert "no published rating on the 2026-10 blitz list" in " ".join(unrated.stderr.split())


def sha(db: Path) -> str:
    return hashlib.sha256(db.read_bytes()).hexdigest()


def test_dry_runs_of_pool_corrections_write_nothing(tmp_path: Path) -> None:
    db = closed_october(tmp_path)
    path = tmp_path / "late.pgn"
    path.write_text(PGN.format(result="1-0"), encoding="utf-8")
    before, audit = sha(db), data(db, "audit")["changes"]
    shown = data(db, "game", "void", "1", "--reason", "x", "--in-next-period", "--dry-run")
    assert carried(shown["effect"]) == [(ANN, "2026-10", 1, 1000, -720),
                                        (BOB, "2026-10", 1, -720, 720)]  # as the real run
    rerated = data(db, "game", "void", "1", "--reason", "x", "--rerate", "--dry-run")
    assert [p["new_revision"] for p in rerated["effect"]["rerated"]] == [2]
    for args in (("game", "add", ANN, BOB, "1-0", "--date", "2026-10-20", "--pool", "blitz",
                  "--rerate", "--reason", "x"),
                 ("import", str(path), "--rerate", "--reason", "x"),
                 ("player", "correct-rating", ANN, "--rating", "2020", "--period", "2026-10",
                  "--pool", "blitz", "--reason", "x")):
        ok(db, *args, "--dry-run")
    assert sha(db) == before
    assert data(db, "audit")["changes"] == audit
    assert revisions(db, "2026-10") == {"standard": 1, "blitz": 1}


def test_a_rapid_result_corrected_in_next_period_then_moved_by_date_with_rerate(
        tmp_path: Path) -> None:
    db = tmp_path / "rapid.db"
    sqlite_ledger(db)
    for name in (ANN, BOB):  # K 20: 100 rapid games, adults below 2400
        ok(db, "player", "add", name, "--rapid-rating", "1800", "--rapid-games", "100")
    game = data(db, "game", "add", ANN, BOB, "1-0", "--date", "2026-09-10",
                "--pool", "rapid")["games"][0]
    ok(db, "period", "close", "2026-09", "--pool", "rapid")
    # D 0 -> PD .50: 20 x .50 = +10: 1810 and 1790
    assert ratings(db, "2026-09", "--pool", "rapid") == {ANN: 1810, BOB: 1790}
    fixed = data(db, "game", "correct", str(game["id"]), "--result", "1/2-1/2", "--reason",
                 "a draw", "--in-next-period")
    # a draw: 0 where +10.00 was: Ann -10.00, Bob +10.00, into rapid 2026-10
    assert fixed["effect"]["pool"] == "rapid"
    assert [(c["name"], c["applies_in"], c["hundredths"]) for c in fixed["effect"]["carried"]] \
        == [(ANN, "2026-10", -1000), (BOB, "2026-10", 1000)]
    ok(db, "period", "close", "2026-10", "--pool", "rapid")
    # no game, the carried amounts only: 1810 - 10 = 1800, 1790 + 10 = 1800
    assert ratings(db, "2026-10", "--pool", "rapid") == {ANN: 1800, BOB: 1800}
    # a date in rapid's closed 2026-10: carried, it cannot move a game between two closed
    # periods (the standard pool has closed nothing: the closes are rapid's)
    moved = run(db, "game", "correct", str(game["id"]), "--date", "2026-10-05", "--reason",
                "wrong date", "--in-next-period")
    assert moved.exit_code == 1
    assert "from closed period 2026-09 into closed period 2026-10" in " ".join(
        moved.stderr.split())
    rerated = data(db, "game", "correct", str(game["id"]), "--date", "2026-10-05", "--reason",
                   "wrong date", "--rerate")
    assert rerated["after"]["period"] == "2026-10"
    assert [p["period"] for p in rerated["effect"]["rerated"]] == ["2026-09", "2026-10"]
    # 2026-09 re-rated without games (the carried amounts of its old revision lapse); 2026-10:
    # the draw at 1800 v 1800, D 0 -> .50, 0: both 1800
    assert ratings(db, "2026-10", "--pool", "rapid") == {ANN: 1800, BOB: 1800}
    ok(db, "db", "check")


def test_one_correction_touching_closed_periods_of_two_pools_is_refused(tmp_path: Path) -> None:
    # No command can do it today (game correct keeps a game's pool, an event's games share its
    # pool): the guard of services.corrections.effects, called as the corrections call it.
    db = closed_october(tmp_path)
    engine = open_ledger(str(db))
    with pytest.raises(PeriodError) as refused, transaction(engine, dry_run=True) as session:
        effects = Effects(session, Mode.RERATE, "game 1")
        effects.touch([Period(2026, 10)], [1, 2], "blitz")
        effects.touch([Period(2026, 10)], [1, 4], "standard")
    assert str(refused.value) == (
        "game 1 touches closed periods of two pools, blitz (2026-10) and standard (2026-10): "
        "correct each pool's games on their own")
    assert revisions(db, "2026-10") == {"standard": 1, "blitz": 1}
