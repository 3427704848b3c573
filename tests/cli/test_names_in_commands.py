"""Names in commands and files (issue 9, items 5 and 6), through the CLI on a fresh ledger: a
comma optional where a name has none, invisible characters refused, control characters refused
in labels, "did you mean" for close spellings, a typo of an event refused by ``game add``, full
names for writes, and ambiguous names told apart.

Each refusal is checked for its message, its exit code and that the ledger did not change.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from data_files import data_file
from typer.testing import CliRunner, Result

from ledger.cli.app import app


def run(db: str, *args: str | Path) -> Result:
    return CliRunner().invoke(app, ["--db", db, *(str(a) for a in args)])


def ok(db: str, *args: str | Path) -> Result:
    result = run(db, *args)
    assert result.exit_code == 0, (args, result.output, result.stderr)
    return result


def digest(db: str) -> str:
    return hashlib.sha256(Path(db).read_bytes()).hexdigest()


def refused(db: str, *args: str | Path, code: int = 1) -> str:
    """The stderr of a command the ledger refuses (exit ``code``), on one line; the ledger's
    file is checked unchanged."""
    before = digest(db)
    result = run(db, *args)
    assert result.exit_code == code, (args, result.output)
    assert digest(db) == before
    return " ".join(result.stderr.split())


def players(db: str) -> list[tuple[int, str]]:
    return [(p["id"], p["name"]) for p in json.loads(ok(db, "player", "list", "--json").stdout)[
        "players"]]


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def db(ledger_db: str) -> str:
    """#1 O'Brien, Kevin, #2 Doyle, Liam (FIDE 90000003), #3 Kelly, Ann; rated, established."""
    for args in (("O'Brien, Kevin",), ("Doyle, Liam", "--fide-id", "90000003"), ("Kelly, Ann",)):
        ok(ledger_db, "player", "add", *args, "--rating", "1800", "--prior-games", "100")
    return ledger_db


# ------------------------------------------------------------------------------------------------
# 1. "Surname Name" without a comma is "Surname, Name"


def test_player_add_refuses_the_name_without_its_comma(db: str) -> None:
    assert refused(db, "player", "add", "O'Brien Kevin") == (
        "error: name: \"O'Brien Kevin\" is already in the ledger as O'Brien, Kevin (#1, FIDE -, "
        "born ?); refer to them by id, or, if this is another person, add them with --new")
    assert players(db) == [(2, "Doyle, Liam"), (3, "Kelly, Ann"), (1, "O'Brien, Kevin")]


def test_a_name_without_its_comma_finds_the_player(db: str) -> None:
    for ref in ("O'Brien Kevin", "obrien kevin", "Doyle Liam"):
        assert json.loads(ok(db, "player", "show", ref, "--json").stdout)["name"] in (
            "O'Brien, Kevin", "Doyle, Liam")
    added = json.loads(ok(db, "game", "add", "O'Brien Kevin", "Doyle Liam", "1-0", "--date",
                          "2026-11-02", "--json").stdout)
    assert [(g["white"], g["black"]) for g in added["games"]] == [("O'Brien, Kevin",
                                                                   "Doyle, Liam")]


def _gros(db: str) -> None:
    """The Gros 2010 TRF, whose names have no comma (``Mirzoev Azer``), every player registered."""
    ok(db, "import", data_file("javafo_trfx_sample2_gros_2010.trf"), "--register-players")


def test_a_file_naming_the_player_with_a_comma_matches_one_registered_without(
        ledger_db: str, tmp_path: Path) -> None:
    _gros(ledger_db)
    before = players(ledger_db)
    assert {"Mirzoev Azer", "Argandona Riveiro Inigo"} <= {name for _, name in before}
    games = write(tmp_path / "blitz.csv", "date,white,black,result,event\n"
                  '2010-10-03,"Mirzoev, Azer","Argandona Riveiro, Inigo",1-0,Gros Blitz\n')
    # was: unknown player 'Mirzoev, Azer': did you mean Mirzoev Azer (#1 ...)? If so, write the
    # full name in the file
    ok(ledger_db, "import", games, "--dry-run")
    # was: registered 'Mirzoev, Azer' a second time, with a warning
    imported = json.loads(ok(ledger_db, "import", games, "--register-players", "--json").stdout)
    assert (imported["players_matched"], imported["players_registered"]) == (2, [])
    assert players(ledger_db) == before
    listed = json.loads(ok(ledger_db, "game", "list", "--player", "Mirzoev, Azer", "--json").stdout)
    assert [(g["white"], g["black"], g["event"]) for g in listed["games"]
            if g["event"] == "Gros Blitz"] == [("Mirzoev Azer", "Argandona Riveiro Inigo",
                                                "Gros Blitz")]
