"""``ledger imports`` and ``ledger imports revert ID``: every import listed with what it wrote,
and a wrong one taken back in one command (issue 21 §3): its games voided (the closed-period
modes as for ``game void``), the players it registered who have no other game withdrawn.
Values worked by hand from FIDE B.02 table 8.1.2 with K 20 (adults, 100 prior games)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from cli_runs import actions, data, last_changes, ok, ratings, run

#: A wrong file: one game of the club's two (Walsh beats Doyle) that was never played, and two
#: newcomers it registers (both unrated: their draw is never rated).
WRONG = ('date,white,black,result,event,round\n'
         '2026-09-12,"Walsh, Brendan","Doyle, Liam",1-0,Club Ch,1\n'
         '2026-09-12,"Newman, Ned","Keeper, Kate",1/2-1/2,Club Ch,1\n')


def ledger_with_a_wrong_import(db: str, tmp_path: Path) -> Path:
    """Doyle 1800, Walsh 1700 (K 20), Quinn unrated; game 1: Doyle beats Walsh (game add).
    Import 1 (wrong.csv, by "secretary"): games 2 and 3, registers Newman (#4) and Keeper
    (#5); then game 4: Keeper beats Quinn (game add: Keeper has a game of her own).
    September closed: Doyle D +100 -> .64 in both games, score 1, expected 1.28: 20 x -.28 =
    -5.6 -> -6 (1794); Walsh 20 x (1 - .72) = +5.6 -> +6 (1706)."""
    ok(db, "init")
    ok(db, "player", "add", "Doyle, Liam", "--rating", "1800", "--prior-games", "100")
    ok(db, "player", "add", "Walsh, Brendan", "--rating", "1700", "--prior-games", "100")
    ok(db, "player", "add", "Quinn, Pat")
    ok(db, "game", "add", "Doyle, Liam", "Walsh, Brendan", "1-0", "--date", "2026-09-05")
    wrong = import_wrong(db, tmp_path)
    ok(db, "game", "add", "Keeper, Kate", "Quinn, Pat", "1-0", "--date", "2026-09-25")
    ok(db, "period", "close", "2026-09")
    return wrong


def import_wrong(db: str, tmp_path: Path) -> Path:
    """``WRONG`` written to ``wrong.csv`` and imported by "secretary", its newcomers
    registered; returns the file."""
    ok(db, "init")
    wrong = tmp_path / "wrong.csv"
    wrong.write_text(WRONG, encoding="utf-8")
    ok(db, "--by", "secretary", "import", str(wrong), "--register-players", "--quiet")
    return wrong


def test_imports_lists_every_import_with_what_it_wrote(ledger_db: str, tmp_path: Path) -> None:
    db = ledger_db
    wrong = ledger_with_a_wrong_import(db, tmp_path)
    [listed] = data(db, "imports")["imports"]
    at = listed.pop("at")  # when the test ran: UTC, ISO 8601 to the second
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", at), at
    [number] = [c["id"] for c in data(db, "audit")["changes"] if c["action"] == "import"]
    assert listed == {"id": 1, "file": str(wrong),
                      "sha256": hashlib.sha256(WRONG.encode()).hexdigest(), "format": "csv",
                      "by": "secretary", "change": number, "action": "import",
                      "games_recorded": 2, "players_registered": 2, "periods": ["2026-09"],
                      "void_games": 0, "reverted_by": None}
    table = ok(db, "imports").stdout
    assert "wrong.csv" in table and "secretary" in table and "2026-09" in table


def test_a_wrong_import_taken_back_with_rerate(ledger_db: str, tmp_path: Path) -> None:
    db = ledger_db
    ledger_with_a_wrong_import(db, tmp_path)
    published = {"Doyle, Liam": 1794, "Walsh, Brendan": 1706}
    assert ratings(db, "2026-09") == published
    before = actions(db)

    no_mode = run(db, "imports", "revert", "1", "--reason", "wrong file")
    assert no_mode.exit_code == 1
    assert "import 1 (" in no_mode.stderr and "is in closed period 2026-09" in no_mode.stderr
    dry = data(db, "imports", "revert", "1", "--reason", "wrong file", "--rerate", "--dry-run")
    assert (dry["dry_run"], dry["change"]) == (True, None)
    assert actions(db) == before and ratings(db, "2026-09") == published  # nothing written

    done = data(db, "imports", "revert", "#1", "--reason", "wrong file", "--rerate")
    [(number, action), _] = last_changes(db, 2)
    assert (done["change"], action) == (number, "import.revert")
    assert [(g["id"], g["status"]) for g in done["games_voided"]] == [(2, "void"), (3, "void")]
    assert done["players_withdrawn"] == [
        {"id": 4, "name": "Newman, Ned", "fide_id_released": None, "void_games": [3]}]
    assert done["players_kept"] == [{"id": 5, "name": "Keeper, Kate", "game": 4}]
    # one import.revert change, then the re-rating of 2026-09
    assert actions(db) == [*before, "import.revert", "period.rerate"]
    # 2026-09 with game 1 alone: Doyle D +100 -> .64, 20 x .36 = +7.2 -> +7 (1807); Walsh
    # 20 x (0 - .36) = -7.2 -> -7 (1693)
    assert ratings(db, "2026-09") == {"Doyle, Liam": 1807, "Walsh, Brendan": 1693}
    assert ratings(db, "2026-09", "--revision", "1") == published
    assert data(db, "db", "check")["differences"] == []

    # Newman is found no more; Keeper, who played game 4, stays
    assert [p["name"] for p in data(db, "player", "list")["players"]] == [
        "Doyle, Liam", "Keeper, Kate", "Quinn, Pat", "Walsh, Brendan"]
    gone = run(db, "player", "show", "Newman, Ned")
    assert gone.exit_code == 1
    assert f"Newman, Ned (#4) was withdrawn (change {number}" in gone.stderr
    [listed] = data(db, "imports")["imports"]
    assert (listed["reverted_by"], listed["void_games"]) == (number, 2)
    again = run(db, "imports", "revert", "1", "--reason", "again", "--rerate")
    assert again.exit_code == 1
    assert f"was taken back already, by change {number}" in again.stderr
    audit = data(db, "audit", "--player", "#4")["changes"]
    assert [c["action"] for c in audit] == ["import", "import.revert"]


def test_the_right_file_after_a_wrong_one_registers_the_newcomer_again(
        ledger_db: str, tmp_path: Path) -> None:
    db = ledger_db
    ledger_with_a_wrong_import(db, tmp_path)
    ok(db, "imports", "revert", "1", "--reason", "wrong file", "--in-next-period")
    right = tmp_path / "right.csv"
    right.write_text('date,white,black,result,event,round\n'
                     '2026-10-03,"Newman, Ned","Quinn, Pat",0-1,Club Ch,3\n', encoding="utf-8")
    report = data(db, "import", str(right), "--register-players")
    # not matched to the withdrawn #4: registered again, #6
    assert report["players_registered"] == ["Newman, Ned"]
    assert [p["id"] for p in data(db, "player", "list")["players"]
            if p["name"] == "Newman, Ned"] == [6]


def test_in_next_period_carries_to_the_players_kept_only(ledger_db: str, tmp_path: Path) -> None:
    db = ledger_db
    ledger_with_a_wrong_import(db, tmp_path)
    done = data(db, "imports", "revert", "1", "--reason", "wrong file", "--in-next-period")
    # 2026-09 without game 2: Doyle gave -5.60, gives 20 x (1 - .64) = +7.20: +12.80; Walsh
    # gave +5.60, gives -7.20: -12.80; nothing for Newman (withdrawn) nor the unrated Keeper
    assert [(c["name"], c["gave_hundredths"], c["gives_hundredths"], c["hundredths"],
             c["applies_in"]) for c in done["effect"]["carried"]] == [
        ("Doyle, Liam", -560, 720, 1280, "2026-10"),
        ("Walsh, Brendan", 560, -720, -1280, "2026-10")]
    assert ratings(db, "2026-09") == {"Doyle, Liam": 1794, "Walsh, Brendan": 1706}
    # October: no game; its close adds the carried amounts: 1794 + 12.80 -> +13 (1807), 1706
    # - 12.80 -> -13 (1693)
    ok(db, "period", "close", "2026-10", "--empty")
    assert ratings(db, "2026-10") == {"Doyle, Liam": 1807, "Walsh, Brendan": 1693}


def test_an_import_in_an_open_period_needs_no_mode_and_refusals_write_nothing(
        ledger_db: str, tmp_path: Path) -> None:
    db = ledger_db
    import_wrong(db, tmp_path)
    for ref, said in (("7", "no import with id 7"), ("abc", "is not an import's id"),
                      ("deadbeef00", "no imported file has the SHA-256 deadbeef00")):
        refused = run(db, "imports", "revert", ref, "--reason", "x")
        assert refused.exit_code == 1 and said in refused.stderr, ref
    assert run(db, "imports", "revert", "1").exit_code != 0  # --reason is required
    digest = hashlib.sha256(WRONG.encode()).hexdigest()
    done = data(db, "imports", "revert", digest[:10], "--reason", "wrong file")
    assert done["effect"]["mode"] == "open"
    # all four players came with the file and have no other game: all withdrawn
    assert [w["name"] for w in done["players_withdrawn"]] == [
        "Walsh, Brendan", "Doyle, Liam", "Newman, Ned", "Keeper, Kate"]
    assert data(db, "player", "list")["players"] == []


def test_a_corrected_file_applied_with_replace_is_not_taken_back(
        ledger_db: str, tmp_path: Path) -> None:
    db = ledger_db
    import_wrong(db, tmp_path)
    fixed = tmp_path / "fixed.csv"  # the first game was a draw
    fixed.write_text(WRONG.replace("1-0", "1/2-1/2"), encoding="utf-8")
    ok(db, "import", str(fixed), "--replace", "--reason", "arbiter's correction")
    assert [v["action"] for v in data(db, "imports")["imports"]] == ["import", "import.replace"]
    before = actions(db)
    refused = run(db, "imports", "revert", "2", "--reason", "x")
    assert refused.exit_code == 1
    assert "applied a corrected file (--replace)" in refused.stderr
    assert actions(db) == before
