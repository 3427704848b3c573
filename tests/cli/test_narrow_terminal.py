"""Every table reads in an 80-column terminal (issue 9, item 8): the important columns never
fold (a name, a date and a rating stay whole on one line), and a wide terminal shows more."""

from __future__ import annotations

import pytest
from ledgers import Factory
from typer.testing import CliRunner

from ledger.cli.app import app

NAMES = ("Lindqvist-Andersson, Erik", "Fitzgerald-Byrne, Siobhan", "Okafor, Grace")


@pytest.fixture
def season(new_ledger: Factory) -> str:
    db = new_ledger("narrow")
    runner = CliRunner()

    def ok(*args: str) -> None:
        result = runner.invoke(app, ["--db", db, *args])
        assert result.exit_code == 0, result.output

    for i, name in enumerate(NAMES):
        ok("player", "add", name, "--fide-id", f"9000100{i}", "--rating", str(2000 + 100 * i),
           "--prior-games", "100", "--birth-year", "1980", "--federation", "IRL")
    event = "Riverside Autumn Open and Club Championship 2026"
    ok("game", "add", NAMES[0], NAMES[1], "1-0", "--date", "2026-09-05", "--event", event,
       "--round", "1")
    ok("game", "add", NAMES[2], NAMES[0], "1/2-1/2", "--date", "2026-09-12", "--event", event,
       "--round", "2")
    ok("period", "close", "2026-09")
    return db


COMMANDS = (("list",), ("game", "list"), ("player", "list"), ("history", NAMES[0]),
            ("period", "report"), ("period", "list"), ("player", "show", NAMES[1]))


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_tables_fit_80_columns_without_folding_names(season: str, command: tuple[str, ...]) -> None:
    result = CliRunner().invoke(app, ["--db", season, *command], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80, result.stdout
    shown = [name for name in NAMES if name in result.stdout]
    assert shown or command == ("period", "list"), result.stdout
    for name in shown:  # a name is whole on one line, never cut or folded
        assert not any(name.split(",")[0] in line and name not in line for line in lines), name


def test_game_list_keeps_whole_dates_at_80_columns(season: str) -> None:
    result = CliRunner().invoke(app, ["--db", season, "game", "list"], env={"COLUMNS": "80"})
    assert "2026-09-05" in result.stdout and "2026-09-12" in result.stdout
    assert "2026-..." not in result.stdout and "2026-…" not in result.stdout


def test_a_wide_terminal_shows_every_column(season: str) -> None:
    narrow = CliRunner().invoke(app, ["--db", season, "list"], env={"COLUMNS": "80"}).stdout
    wide = CliRunner().invoke(app, ["--db", season, "list"], env={"COLUMNS": "200"}).stdout
    header = next(line for line in wide.splitlines() if "rank" in line)
    for column in ("rank", "name", "FIDE id", "fed", "title", "rating", "games", "K", "born",
                   "flag"):
        assert column in header
    assert "born" not in next(line for line in narrow.splitlines() if "rank" in line)
    # every player was born in 1980: the born column is only on the wide list
    assert "1980" in wide and "1980" not in narrow
