"""``ledger import`` of a CSV file of games: header, result codes of ``ledger game add``, names
that look like spreadsheet formulas kept as names, errors with line and column."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from ledgers import Factory
from typer.testing import CliRunner, Result

from ledger.cli.app import app

FORMULA_NAMES = ("=SUM(A1:A9), Ann", "+Cmd, Bob", "-Minus, Cy", "@Home, Dee")


def run(runner: CliRunner, *args: str | Path) -> Result:
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def db(new_ledger: Factory) -> str:
    return new_ledger("csv")


def test_csv_with_formula_looking_names(runner: CliRunner, db: str, tmp_path: Path) -> None:
    a, b, c, d = FORMULA_NAMES
    for name, rating in ((a, 1800), (b, 1900), (c, 1700), (d, 2000)):
        # "--" before a name that starts with "-" or "+" (else the shell-style parser reads an option)
        added = run(runner, "--db", db, "player", "add", "--rating", str(rating),
                    "--prior-games", "100", "--", name)
        assert added.exit_code == 0, added.stderr
    path = tmp_path / "club.txt"  # no .csv: the header tells the format
    path.write_text(
        "date,white,black,result,event,round\n"
        f'2025-11-05,"{a}","{b}",1-0,Club Ch,1\n'
        f'2025-11-05,"{c}","{d}",+/-,Club Ch,1\n'
        f'2025-11-12,"{b}","{c}",½-½,Club Ch,2\n', encoding="utf-8")
    result = run(runner, "--db", db, "import", path, "--json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert (report["format"], report["recorded"], report["to_rate"]) == ("csv", 3, 2)
    assert report["not_rated"] == {"forfeit": 1}
    games = json.loads(run(runner, "--db", db, "game", "list", "--json").stdout)["games"]
    assert [(g["white"], g["black"], g["result"], g["event"], g["round"]) for g in games] == [
        (a, b, "1-0", "Club Ch", "1"), (c, d, "+/-", "Club Ch", "1"),
        (b, c, "1/2-1/2", "Club Ch", "2")]
    # the event ends 2025-11-12: every game in period 2025-11
    assert {g["period"] for g in games} == {"2025-11"}
    # A 1800 beat B 1900: D=-100 -> PD .36 -> 20 x .64 = +12.8 -> +13
    closed = json.loads(run(runner, "--db", db, "period", "close", "2025-11", "--json").stdout)
    assert {r["name"]: r["change"] for r in closed["results"]}[a] == 13


def test_csv_errors_name_line_and_column(runner: CliRunner, db: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text("date,white,black,result\n"
                    "2025-11-05,Player A,Player B,0.5-0.5\n"
                    "05/11/2025,Player A,Player B,1-0\n", encoding="utf-8")
    result = run(runner, "--db", db, "import", path, "--register-players")
    assert result.exit_code == 3
    found = re.findall(r":(\d+): error: (\w+): ", result.stderr)
    assert found == [("2", "result"), ("3", "date")]
    assert json.loads(run(runner, "--db", db, "player", "list", "--json").stdout) == {
        "pool": "standard", "players": []}


def test_csv_header_must_name_the_columns(runner: CliRunner, db: str, tmp_path: Path) -> None:
    path = tmp_path / "nohead.csv"
    path.write_text("when,white,black,result\n2025-11-05,A a,B b,1-0\n", encoding="utf-8")
    result = run(runner, "--db", db, "import", path)
    assert result.exit_code == 3
    assert ":1: error: header: missing date; unknown column 'when'" in result.stderr
