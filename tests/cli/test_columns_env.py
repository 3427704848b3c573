"""A ``COLUMNS`` that is not a sensible width is ignored (issue 9, item 4): ``COLUMNS=0 ledger
player show Nobody`` printed nothing at all (exit 1, an empty stderr), and every table,
``--help`` and a usage error printed nothing either. Below 20 (or not a number, or past
10,000) it is as if unset: a pipe gets 160 columns, a terminal its own width."""

from __future__ import annotations

from pathlib import Path

import pytest
from example_ledgers import build_club_cup
from typer.testing import CliRunner, Result

from ledger.cli.app import app

SENSELESS = ["0", "1", "19", "-5", "80x", "", "99999999999"]


def run(db: Path, columns: str, *args: str) -> Result:
    return CliRunner().invoke(app, ["--db", str(db), *args], env={"COLUMNS": columns})


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_club_cup(tmp_path_factory.mktemp("columns") / "ledger.db")


@pytest.mark.parametrize("columns", SENSELESS)
def test_an_error_is_said_whatever_columns_says(ledger: Path, columns: str) -> None:
    result = run(ledger, columns, "player", "show", "Nobody")
    assert result.exit_code == 1
    assert "error: player: no player named 'Nobody'" in result.stderr, repr(result.stderr)


@pytest.mark.parametrize("columns", SENSELESS)
@pytest.mark.parametrize("command", [("player", "list"), ("list",), ("history", "Player, A"),
                                     ("player", "show", "Player, A")], ids=" ".join)
def test_every_table_is_printed_as_to_a_pipe(ledger: Path, columns: str,
                                             command: tuple[str, ...]) -> None:
    result = run(ledger, columns, *command)
    assert result.exit_code == 0, result.output
    wide = run(ledger, "160", *command)
    assert result.stdout == wide.stdout  # as if COLUMNS were unset: a pipe's 160 columns
    assert "Player, A" in result.stdout


@pytest.mark.parametrize("columns", SENSELESS)
def test_help_and_usage_errors_are_printed(ledger: Path, columns: str) -> None:
    helped = run(ledger, columns, "--help")
    assert helped.exit_code == 0 and "Usage" in helped.stdout and "player" in helped.stdout
    usage = run(ledger, columns, "player", "show")
    assert usage.exit_code == 2 and "Missing argument" in usage.stderr, repr(usage.stderr)


def test_a_sensible_columns_is_still_obeyed(ledger: Path) -> None:
    result = run(ledger, "40", "player", "list")
    assert result.exit_code == 0
    assert max(len(line) for line in result.stdout.splitlines()) <= 40, result.stdout
