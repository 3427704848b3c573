"""Every reporting command of issue 12 (`player list`, `player show`, `list`, `history`,
`period report`, `performance`, `whatif`, `export trf`) takes `--pool` (default standard), says
in its text which pool it shows, and carries the pool on every JSON row (docs/RULES.md §9).
Every value is worked by hand in its comment."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cli_runs import data, ok
from ledgers import sqlite_ledger


def _rows(value: Any) -> list[dict[str, Any]]:
    """Every dict that is an item of a list anywhere in ``value`` (the JSON's rows)."""
    found: list[dict[str, Any]] = []
    if isinstance(value, dict):
        for item in value.values():
            found += _rows(item)
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, dict):
                found.append(item)
            found += _rows(item)
    return found


def evening(tmp_path: Path) -> Path:
    """October 2026: a blitz evening (Ann beats Bob, draws Cy) and one standard game (Cy beats
    Ann), closed; November: Dee, unrated everywhere, loses a blitz game to Ann (open)."""
    db = tmp_path / "pools.db"
    sqlite_ledger(db)
    ok(db, "player", "add", "Ash, Ann", "--rating", "1900", "--prior-games", "50",
       "--blitz-rating", "2000", "--blitz-games", "40")
    ok(db, "player", "add", "Birch, Bob", "--blitz-rating", "1900", "--blitz-games", "40")
    ok(db, "player", "add", "Cedar, Cy", "--rating", "2000", "--prior-games", "40",
       "--blitz-rating", "2100", "--blitz-games", "40")
    ok(db, "player", "add", "Dale, Dee")
    ok(db, "game", "add", "Ash, Ann", "Birch, Bob", "1-0", "--date", "2026-10-14",
       "--pool", "blitz", "--event", "Blitz Night", "--round", "1")
    ok(db, "game", "add", "Cedar, Cy", "Ash, Ann", "1/2-1/2", "--date", "2026-10-14",
       "--pool", "blitz", "--event", "Blitz Night", "--round", "2")
    ok(db, "game", "add", "Cedar, Cy", "Ash, Ann", "1-0", "--date", "2026-10-15")
    ok(db, "period", "close", "2026-10")
    ok(db, "game", "add", "Dale, Dee", "Ash, Ann", "0-1", "--date", "2026-11-04",
       "--pool", "blitz")
    return db


def test_player_list_shows_one_pool_and_says_which(tmp_path: Path) -> None:
    db = evening(tmp_path)
    blitz = data(db, "player", "list", "--pool", "blitz")
    assert blitz["pool"] == "blitz"
    assert all(r["pool"] == "blitz" for r in blitz["players"])
    # blitz, K 20 for all (40 games, adults): Ann v 1900 D 100 -> .64, +.36; v 2100 D -100 ->
    # .36, +.14: 20 x .50 = +10 -> 2010, 42 games; Bob 20 x -.36 = -7.2 -> -7: 1893; Cy
    # 20 x (.50 - .64) = -2.8 -> -3: 2097; 41 games each; Dee unrated in blitz
    assert [(r["name"], r["rating"], r["rated_games"]) for r in blitz["players"]] == [
        ("Ash, Ann", 2010, 42), ("Birch, Bob", 1893, 41), ("Cedar, Cy", 2097, 41),
        ("Dale, Dee", None, 0)]
    standard = data(db, "player", "list")
    assert standard["pool"] == "standard"
    # standard: Cy 2000 beats Ann 1900: D 100 -> .64; Cy 20 x .36 = +7.2 -> 2007 (41 games),
    # Ann 20 x -.36 = -7.2 -> 1893 (51); Bob and Dee never played a standard game
    assert [(r["pool"], r["name"], r["rating"], r["rated_games"])
            for r in standard["players"]] == [
        ("standard", "Ash, Ann", 1893, 51), ("standard", "Birch, Bob", None, 0),
        ("standard", "Cedar, Cy", 2007, 41), ("standard", "Dale, Dee", None, 0)]
    assert "Players (4), blitz ratings" in ok(db, "player", "list", "--pool", "blitz").stdout
    assert "Players (4), standard ratings" in ok(db, "player", "list").stdout


def test_player_show_and_history_name_the_pool_and_tag_each_row(tmp_path: Path) -> None:
    db = evening(tmp_path)
    shown = ok(db, "player", "show", "Ash, Ann", "--pool", "blitz").stdout
    assert [line.split() for line in shown.splitlines() if line.split()[:1] == ["pool"]] == [
        ["pool", "blitz"]]
    # Dee's blitz pool of games for 2026-11: one game, v Ann 2010, score 0; every row blitz
    dee = data(db, "player", "show", "Dale, Dee", "--pool", "blitz")
    assert dee["rating_pool"] == "blitz"
    assert [(g["pool"], g["opponent"], g["opponent_rating"], g["score"])
            for g in dee["pool"]["pool_games"]] == [("blitz", "Ash, Ann", 2010, 0)]
    # in standard, Dee has no game at all
    assert data(db, "player", "show", "Dale, Dee")["pool"]["pool_games"] == []
    history = data(db, "history", "Dale, Dee", "--pool", "blitz")
    assert {r["pool"] for r in _rows(history)} == {"blitz"}
    # the title names the pool, standard too: Ann standard 1893 (above), K 20
    assert ok(db, "history", "Ash, Ann").stdout.splitlines()[0].strip() == (
        "Ash, Ann (#1): standard rating 1893, K 20 (standard) for 2026-11")
    assert ok(db, "history", "Dale, Dee", "--pool", "blitz").stdout.splitlines()[0] == (
        "Dale, Dee (#4): unrated in blitz, no K for 2026-11")


def test_reports_of_the_standard_pool_say_so(tmp_path: Path) -> None:
    db = evening(tmp_path)
    # period report: 2026-10 standard, 2 players and the 1 standard game rated
    report = ok(db, "period", "report").stdout.splitlines()[0]
    assert report.startswith("Rating period 2026-10 standard (rules of 2025-10)")
    assert "2 players rated, 1 game rated" in report
    assert {r["pool"] for r in _rows(data(db, "period", "report"))} == {"standard"}
    perf = ok(db, "performance", "Ash, Ann", "--period", "2026-10").stdout
    assert "Performance of Ash, Ann: period 2026-10, standard" in perf
    # standard: Ann lost to Cy 2000: one game, Ra 2000, 0 % -> dp -800 -> Rp 1200
    perf_json = data(db, "performance", "Ash, Ann", "--period", "2026-10")
    assert (perf_json["pool"], perf_json["ra"], perf_json["rp"]) == ("standard", 2000, 1200)
    assert {r["pool"] for r in _rows(perf_json)} == {"standard"}
    what = " ".join(ok(db, "whatif", "Ash, Ann", "Cedar, Cy", "--period", "2026-11")
                    .stdout.split())
    assert "in 2026-11 standard (rules of 2025-10)" in what
    assert {r["pool"] for r in _rows(data(db, "whatif", "Ash, Ann", "Cedar, Cy", "--period",
                                          "2026-11", "--pool", "blitz"))} == {"blitz"}
    listed = data(db, "list", "--pool", "blitz")
    assert {r["pool"] for r in _rows(listed)} == {"blitz"}


def test_export_trf_says_which_pool_it_wrote(tmp_path: Path) -> None:
    db = evening(tmp_path)
    standard = ok(db, "export", "trf", "--event", "Blitz Night", "--pool", "standard")
    # the event's two games are blitz: its standard games are none
    assert "the standard pool" in standard.stderr
    assert [line for line in standard.stdout.splitlines() if line.startswith("001")] == []
    # without --pool: the event's pool, blitz (its games were added with --pool blitz)
    blitz = ok(db, "export", "trf", "--event", "Blitz Night")
    assert "the blitz pool" in blitz.stderr
    # blitz ratings at the event's start (2026-10): Cy 2100, Ann 2000, Bob 1900 in start order
    players = [line for line in blitz.stdout.splitlines() if line.startswith("001")]
    assert [(line[14:47].strip(), line[48:52]) for line in players] == [
        ("Cedar, Cy", "2100"), ("Ash, Ann", "2000"), ("Birch, Bob", "1900")]
    out = tmp_path / "night.trf"
    written = ok(db, "export", "trf", "--event", "Blitz Night", "--pool", "blitz",
                 "--output", str(out))
    assert "written as TRF-16, the blitz pool" in written.stdout
