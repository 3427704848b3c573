"""A period close and an import run with the cyclic garbage collector paused
(services.core.bulk.paused_gc), and switch it back on after."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest
from ledgers import sqlite_ledger

import ledger.services.close.periods as periods
import ledger.services.imports.games as imports
from ledger.services.core.session import open_ledger
from tests.cli_runs import ok


def _two_players(tmp_path: Path) -> Path:
    """A ledger of Doyle 1850 and Walsh 1790 (no prior games)."""
    db = tmp_path / "ledger.db"
    sqlite_ledger(db)
    ok(db, "player", "add", "Doyle, Liam", "--rating", "1850", "--prior-games", "0")
    ok(db, "player", "add", "Walsh, Brendan", "--rating", "1790", "--prior-games", "0")
    return db


def _watch(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[bool]:
    """Replace ``module.name`` by itself noting whether the collector is on at each call."""
    seen: list[bool] = []
    real = getattr(module, name)

    def watched(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, watched)
    return seen


def test_a_period_close_rates_with_the_collector_off_and_restores_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = _two_players(tmp_path)
    ok(db, "game", "add", "Doyle, Liam", "Walsh, Brendan", "1-0", "--date", "2026-10-05")
    seen = _watch(monkeypatch, periods, "rate")
    engine = open_ledger(str(db))
    try:
        report = periods.close_period(engine, "2026-10")
    finally:
        engine.dispose()
    assert seen == [False]
    assert gc.isenabled()
    # D = 60 -> PD .58 for Doyle; K 40 (fewer than 30 rated games): 40 x .42 = +16.8 -> +17
    assert [(p.name, p.result.change) for p in report.players] == [
        ("Doyle, Liam", 17), ("Walsh, Brendan", -17)]


def test_an_import_records_with_the_collector_off_and_restores_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = _two_players(tmp_path)
    games = tmp_path / "games.csv"
    games.write_text("date,white,black,result\n2026-10-05,\"Doyle, Liam\",\"Walsh, Brendan\",1-0\n",
                     encoding="utf-8")
    seen = _watch(monkeypatch, imports, "record_change")
    engine = open_ledger(str(db))
    try:
        report = imports.import_file(engine, str(games), None)
    finally:
        engine.dispose()
    assert seen == [False]
    assert gc.isenabled()
    assert report.recorded == 1
