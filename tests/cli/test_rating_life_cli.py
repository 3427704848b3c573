"""Issue 4 through the command line: the inactivity flag, unrated players, initial ratings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from ledger.cli.app import app


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "life.db")
    assert ok("--db", path, "init")
    return path


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def ok(*args: str) -> Result:
    result = run(*args)
    assert result.exit_code == 0, result.output + result.stderr
    return result


def cells(table: str, name: str) -> list[str]:
    """The cells of the table row that names ``name``, stripped."""
    line = next(line for line in table.splitlines() if name in line)
    return [c.strip() for c in line.strip().strip("│").split("│")]


def test_list_flags_inactive_players_and_active_hides_them(db: str) -> None:
    for name in ("Alpha, Ann", "Beta, Bob", "Gamma, Gil"):
        ok("--db", db, "player", "add", name, "--rating", "1800", "--prior-games", "100")
    ok("--db", db, "game", "add", "Alpha", "Beta", "1/2-1/2", "--date", "2025-01-10")
    ok("--db", db, "period", "close", "2025-01")
    ok("--db", db, "game", "add", "Alpha", "Gamma", "1/2-1/2", "--date", "2026-01-10")
    ok("--db", db, "period", "close", "2026-01")
    # 12 periods ending with 2026-01: 2025-02 .. 2026-01; Beta's only game was in 2025-01
    listed = json.loads(ok("--db", db, "list", "--json").stdout)["players"]
    assert {p["name"]: p["inactive"] for p in listed} == {
        "Alpha, Ann": False, "Beta, Bob": True, "Gamma, Gil": False}
    table = ok("--db", db, "list").stdout
    assert cells(table, "Beta, Bob")[-1] == "i"
    assert cells(table, "Alpha, Ann")[-1] == ""
    active = json.loads(ok("--db", db, "list", "--active", "--json").stdout)["players"]
    assert [p["name"] for p in active] == ["Alpha, Ann", "Gamma, Gil"]
