"""Revisions through the command line (docs/CORRECTIONS.md, issue 10 part A): a period reopened
and closed again gives the same values (docs/CASES.md C02, C09) while ``list --revision 1``
shows the first close byte for byte; a federation transfer after a close leaves that list as it
was published, in every format; ``period list`` shows the revisions."""

from __future__ import annotations

import json
from pathlib import Path

from ledgers import Factory
from typer.testing import CliRunner, Result

from ledger.cli.app import app

FORMATS = ("table", "csv", "json", "txt", "html")


def run(db: str, *args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(app, ["--db", db, *args], env=env)


def ok(db: str, *args: str, env: dict[str, str] | None = None) -> Result:
    result = run(db, *args, env=env)
    assert result.exit_code == 0, result.output
    return result


def lists(db: str, period: str, *extra: str) -> dict[str, str]:
    """The list of ``period`` in every format (the html page headed by a fixed club name)."""
    return {fmt: ok(db, "list", "--period", period, "--format", fmt, "--club", "Club",
                    *extra).stdout for fmt in FORMATS}


def ratings(db: str, period: str) -> dict[str, int]:
    data = json.loads(ok(db, "list", "--period", period, "--json").stdout)
    return {p["name"]: p["rating"] for p in data["players"]}


def c02_and_c09(db: str) -> None:
    """docs/CASES.md C02 in 2025-11 and C09 in 2025-12, typed in."""
    ok(db, "init")
    # C02: A 1800, adult, 100 games -> K 20; three one-round events, a draw each v a 1750.
    ok(db, "player", "add", "Player, A", "--rating", "1800", "--prior-games", "100",
       "--fide-id", "90000001", "--federation", "IRL")
    for i in (1, 2, 3):
        ok(db, "player", "add", f"Opponent, {i}", "--rating", "1750", "--prior-games", "100")
        ok(db, "game", "add", "Player, A", f"Opponent, {i}", "1/2-1/2", "--date",
           f"2025-11-0{i}", "--event", f"Club Night {i}", "--round", "1")
    # C09: N 1600, adult, 26 rated games -> K 40 for all of December; one 8-round event v
    # eight 1600s: L L W W W W W L.
    ok(db, "player", "add", "Player, N", "--rating", "1600", "--prior-games", "26",
       "--federation", "ENG")
    for i, result in enumerate("LLWWWWWL", start=1):
        ok(db, "player", "add", f"Rival, {i}", "--rating", "1600", "--prior-games", "100")
        ok(db, "game", "add", "Player, N", f"Rival, {i}", {"W": "1-0", "L": "0-1"}[result],
           "--date", f"2025-12-{i:02d}", "--event", "December Open", "--round", str(i))


def test_c02_and_c09_after_reopen_and_close_again(new_database: Factory) -> None:
    db = new_database("ledger")
    c02_and_c09(db)
    ok(db, "period", "close", "2025-11")
    ok(db, "period", "close", "2025-12")
    # C02: D = +50 -> PD .57; 3 x (0.5 - .57) = -0.21; 20 x -0.21 = -4.2 -> -4 -> 1796.
    # Each 1750: D = -50 -> .43; +0.07 x 20 = 1.4 -> +1 -> 1751.
    assert ratings(db, "2025-11")["Player, A"] == 1796
    assert ratings(db, "2025-11")["Opponent, 1"] == 1751
    # C09: D = 0 -> .50; 5 x 0.5 - 3 x 0.5 = 1.0; 40 x 1.0 = +40 -> 1640.
    assert ratings(db, "2025-12")["Player, N"] == 1640
    first_nov, first_dec = lists(db, "2025-11"), lists(db, "2025-12")

    refused = run(db, "period", "reopen", "2025-11", "--reason", "typo")
    assert refused.exit_code == 1
    assert "only the latest closed period can be reopened, and that is 2025-12" in refused.output
    ok(db, "period", "reopen", "2025-12", "--reason", "check C09")
    ok(db, "period", "reopen", "2025-11", "--reason", "check C02")
    ok(db, "period", "close", "2025-11")
    ok(db, "period", "close", "2025-12")
    assert ratings(db, "2025-11")["Player, A"] == 1796
    assert ratings(db, "2025-12")["Player, N"] == 1640
    # K 40 for all of December, n = 8 (8 x 40 = 320 <= 700: no cap)
    dec = json.loads(ok(db, "history", "Player, N", "--json").stdout)["periods"]
    assert [(p["period"], p["k"], p["games"], p["change"]) for p in dec] == [
        ("2025-12", 40, 8, 40)]

    # the first close, byte for byte, in every format
    assert lists(db, "2025-11", "--revision", "1") == first_nov
    assert lists(db, "2025-12", "--revision", "1") == first_dec
    # the second close says it is revision 2 and otherwise reads the same
    second = json.loads(lists(db, "2025-12")["json"])
    assert second["revision"] == 2
    assert second["players"] == json.loads(first_dec["json"])["players"]

    periods = json.loads(ok(db, "period", "list", "--json").stdout)["periods"]
    assert [(p["period"], p["revision"]) for p in periods] == [("2025-11", 2), ("2025-12", 2)]
    nov = periods[0]["revisions"]
    assert [(r["revision"], r["action"], r["current"]) for r in nov] == [
        (1, "period.close", False), (2, "period.close", True)]
    assert nov[0]["superseded_by_change"] is not None
    table = ok(db, "period", "list").stdout
    assert "revision" in table and "2025-12" in table

    missing = run(db, "list", "--period", "2025-12", "--revision", "3")
    assert missing.exit_code == 1
    assert "period 2025-12 has no revision 3 (it has revision(s) 1, 2)" in missing.output
    assert run(db, "db", "check").exit_code == 0


def test_a_reopened_period_shows_its_earlier_lists_only_by_revision(
        new_database: Factory) -> None:
    db = new_database("ledger")
    c02_and_c09(db)
    ok(db, "period", "close", "--through", "2025-12")
    dry = ok(db, "period", "reopen", "2025-12", "--reason", "see", "--dry-run", "--json")
    assert json.loads(dry.stdout) == {"period": "2025-12", "pool": "standard", "revision": 1,
                                      "players_rated": 9, "reason": "see", "dry_run": True}
    assert ratings(db, "2025-12")["Player, N"] == 1640  # the dry run changed nothing
    ok(db, "period", "reopen", "2025-12", "--reason", "see")
    gone = run(db, "list", "--period", "2025-12")
    assert gone.exit_code == 1
    assert "2025-12 was reopened and is not closed now; the lists it published before: " \
           "--revision 1" in gone.output
    assert "Player, N" in ok(db, "list", "--period", "2025-12", "--revision", "1").stdout
    no_reason = run(db, "period", "reopen", "2025-11")
    assert no_reason.exit_code == 1 and "reason: say why" in no_reason.output


def test_a_federation_transfer_after_a_close_leaves_the_list_as_published(
        tmp_path: Path, new_database: Factory) -> None:
    db = new_database("ledger")
    c02_and_c09(db)
    ok(db, "period", "close", "--through", "2025-12")
    published = lists(db, "2025-12")
    # FIDE's next list moves Player, A from IRL to ENG: the ledger's own list of 1 January
    # 2026 in FIDE's TXT columns, with that one federation changed, imported as FIDE's list.
    txt = ok(db, "list", "--period", "2025-12", "--format", "txt").stdout
    line = next(x for x in txt.split("\n") if "Player, A" in x)
    moved = txt.replace(line, line.replace(" IRL ", " ENG "))
    assert moved != txt
    list_file = tmp_path / "jan26.txt"
    list_file.write_text(moved, encoding="utf-8")
    imported = ok(db, "import", str(list_file), "--format", "fide-list", "--list-date",
                  "2026-01-01", "--pool", "standard")
    assert "IRL" in imported.output and "ENG" in imported.output  # the transfer is reported
    shown = json.loads(ok(db, "player", "show", "Player, A", "--json").stdout)
    assert shown["federation"] == "ENG"

    assert lists(db, "2025-12") == published  # every format, byte for byte
    assert lists(db, "2025-11") != {}  # and the earlier list reads too
    eng = json.loads(ok(db, "list", "--period", "2025-12", "--federation", "ENG",
                        "--json").stdout)
    assert "Player, A" not in [p["name"] for p in eng["players"]]  # ENG as published
    # the identity as it was is kept, so the stored results still recompute
    assert ok(db, "db", "check").exit_code == 0
