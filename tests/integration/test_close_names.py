"""The close's report: its lines by rating after, then name key (accents aside) and id, and each
game's opponent by name, whether it reads the names by id, every player's, or takes them from
the list's read of the players (a federation's month: ``rating.NAMES_BY_ID``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from ledgers import sqlite_ledger

import ledger.services.close.close_report as close_report
import ledger.services.close.rating as rating
from ledger.domain import Period
from ledger.rules.editions import edition_for
from ledger.services.core.session import open_ledger, transaction
from tests.cli_runs import data, ok

NAMES = ("Orla, Zed", "Byrne, Sean", "Órla, Amy", "Ábel, Tom")


def _ledger(tmp_path: Path) -> Path:
    db = tmp_path / "ledger.db"
    sqlite_ledger(db)
    for name in NAMES:
        ok(db, "player", "add", name, "--rating", "1800", "--prior-games", "40",
           "--birth-year", "1980")
    ok(db, "game", "add", "Orla, Zed", "Byrne, Sean", "1-0", "--date", "2026-10-05")
    ok(db, "game", "add", "Órla, Amy", "Ábel, Tom", "1-0", "--date", "2026-10-06")
    return db


# (rate's limit, the report's): by id; every player's read by the report (a close as of a
# change); kept from the list's read of every player's identity
@pytest.mark.parametrize("limits", [(rating.NAMES_BY_ID, rating.NAMES_BY_ID),
                                    (rating.NAMES_BY_ID, 1), (1, 1)])
def test_lines_by_rating_then_name_key_with_opponents_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, limits: tuple[int, int]) -> None:
    monkeypatch.setattr(rating, "NAMES_BY_ID", limits[0])
    monkeypatch.setattr(close_report, "NAMES_BY_ID", limits[1])
    db = _ledger(tmp_path)
    report = data(db, "period", "close", "2026-10", "--json")
    # D = 0 -> PD .50; K 20 (40 prior games, adults, below 2400): win 20 x .50 = +10, loss -10.
    # Equal ratings after: by name key, "orla, amy" before "orla, zed" and "abel, tom" before
    # "byrne, sean" (code points alone would put "Orla" before "Órla" and "Byrne" before "Ábel").
    assert [(r["name"], r["rating_after"], [g["opponent"] for g in r["per_game"]])
            for r in report["results"]] == [
        ("Órla, Amy", 1810, ["Ábel, Tom"]), ("Orla, Zed", 1810, ["Byrne, Sean"]),
        ("Ábel, Tom", 1790, ["Órla, Amy"]), ("Byrne, Sean", 1790, ["Orla, Zed"])]


def test_rate_keeps_every_players_names_from_the_list_above_the_limit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = _ledger(tmp_path)
    target = Period.parse("2026-10")
    engine = open_ledger(str(db))
    with transaction(engine, dry_run=True) as session:
        assert rating.rate(session, target, edition_for(target)).names is None  # 4 players
        monkeypatch.setattr(rating, "NAMES_BY_ID", 3)
        names = rating.rate(session, target, edition_for(target)).names
    engine.dispose()
    # player ids in the order added; no FIDE ids; the stored name keys (accents aside)
    assert names == {1: ("Orla, Zed", None, "orla, zed"), 2: ("Byrne, Sean", None, "byrne, sean"),
                     3: ("Órla, Amy", None, "orla, amy"), 4: ("Ábel, Tom", None, "abel, tom")}
