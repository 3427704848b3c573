"""``period close`` of a period with more than ``render.close.LARGE_CLOSE`` (50) players: the
terminal gets the summary and the biggest gains and losses; ``--all`` every row; ``--json`` every
player."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ledgers import Factory
from typer.testing import CliRunner

from ledger.cli.app import app


@pytest.fixture
def sixty(new_ledger: Factory, tmp_path: Path) -> str:
    """60 players rated 1800 (100 earlier games, born 1980: K 20), 30 games of October 2026:
    Player01-30 (White) v Player31-60 (Black); games 1-12 White wins, 13-24 Black wins, 25-30
    draws. D = 0, so PD = 0.50 (table 8.1.2, |D| 0-3): a win is 20 x (1 - 0.50) = +10, a loss
    -10, a draw 0."""
    db = new_ledger("sixty")
    register = tmp_path / "players.csv"
    register.write_text("name,birth_year,rating,prior_games\n" + "".join(
        f'"Player{i:02d}, Test",1980,1800,100\n' for i in range(1, 61)), encoding="utf-8")
    games = tmp_path / "games.csv"
    results = ["1-0"] * 12 + ["0-1"] * 12 + ["1/2-1/2"] * 6
    games.write_text("date,white,black,result\n" + "".join(
        f'2026-10-10,"Player{i:02d}, Test","Player{i + 30:02d}, Test",{results[i - 1]}\n'
        for i in range(1, 31)), encoding="utf-8")
    runner = CliRunner()
    for args in (["import", str(register), "--format", "players"], ["import", str(games)]):
        result = runner.invoke(app, ["--db", db, *args])
        assert result.exit_code == 0, result.output
    return db


def test_a_large_close_prints_the_biggest_changes(sixty: str) -> None:
    result = CliRunner().invoke(app, ["--db", sixty, "period", "close", "2026-10"],
                                env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    out = result.output
    # gains (+10): Player01-12 and Player43-54; the first ten by name: Player01-10
    # losses (-10): Player13-24 and Player31-42; the first ten by name: Player13-22
    shown = {f"Player{i:02d}" for i in (*range(1, 11), *range(13, 23))}
    assert {f"Player{i:02d}" for i in range(1, 61) if f"Player{i:02d}, Test" in out} == shown
    assert "the biggest gains and losses" in out
    assert "40 more players not shown: --all shows every row" in out
    assert "30 games in 2026-10; 60 players rated" in out


def test_all_prints_every_row_and_json_every_player(sixty: str, new_ledger: Factory) -> None:
    result = CliRunner().invoke(app, ["--db", sixty, "period", "close", "2026-10", "--dry-run",
                                      "--all"], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    assert all(f"Player{i:02d}, Test" in result.output for i in range(1, 61))
    assert "not shown" not in result.output
    closed = CliRunner().invoke(app, ["--db", sixty, "period", "close", "2026-10", "--json"])
    assert closed.exit_code == 0, closed.output
    players = json.loads(closed.stdout)["results"]
    # every player, Player25 (a draw: 0) as well as the biggest changes
    changes = {p["name"]: p["change"] for p in players}
    assert (len(changes), changes["Player01, Test"], changes["Player31, Test"],
            changes["Player25, Test"]) == (60, 10, -10, 0)
