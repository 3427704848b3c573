"""The close's report: its lines by rating after, then name key (accents aside) and id, and each
game's opponent by name, whether it reads the names by id or every player's (a federation's
month: ``close_report.NAMES_BY_ID``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from ledgers import sqlite_ledger

import ledger.services.close.close_report as close_report
from tests.cli_runs import data, ok


@pytest.mark.parametrize("by_id", [close_report.NAMES_BY_ID, 1])
def test_lines_by_rating_then_name_key_with_opponents_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, by_id: int) -> None:
    monkeypatch.setattr(close_report, "NAMES_BY_ID", by_id)
    db = tmp_path / "ledger.db"
    sqlite_ledger(db)
    for name in ("Orla, Zed", "Byrne, Sean", "Órla, Amy", "Ábel, Tom"):
        ok(db, "player", "add", name, "--rating", "1800", "--prior-games", "40",
           "--birth-year", "1980")
    ok(db, "game", "add", "Orla, Zed", "Byrne, Sean", "1-0", "--date", "2026-10-05")
    ok(db, "game", "add", "Órla, Amy", "Ábel, Tom", "1-0", "--date", "2026-10-06")
    report = data(db, "period", "close", "2026-10", "--json")
    # D = 0 -> PD .50; K 20 (40 prior games, adults, below 2400): win 20 x .50 = +10, loss -10.
    # Equal ratings after: by name key, "orla, amy" before "orla, zed" and "abel, tom" before
    # "byrne, sean" (code points alone would put "Orla" before "Órla" and "Byrne" before "Ábel").
    assert [(r["name"], r["rating_after"], [g["opponent"] for g in r["per_game"]])
            for r in report["results"]] == [
        ("Órla, Amy", 1810, ["Ábel, Tom"]), ("Orla, Zed", 1810, ["Byrne, Sean"]),
        ("Ábel, Tom", 1790, ["Órla, Amy"]), ("Byrne, Sean", 1790, ["Orla, Zed"])]
