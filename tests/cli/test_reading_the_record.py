"""What a secretary reads back (the first week's findings): the audit log names what changed in
words, and a superseded list says so beside it (stderr), never inside it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ledgers import sqlite_ledger
from typer.testing import CliRunner, Result

from ledger.cli.app import app


def _run(db: str, *args: str) -> Result:
    return CliRunner().invoke(app, ["--db", db, *args])


def _ok(db: str, *args: str) -> Result:
    result = _run(db, *args)
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "record.db")
    sqlite_ledger(path)
    _ok(path, "player", "add", "Doyle, Liam", "--rating", "1800", "--prior-games", "50")
    _ok(path, "player", "add", "Walsh, Brendan", "--rating", "1700", "--prior-games", "50")
    _ok(path, "game", "add", "Doyle, Liam", "Walsh, Brendan", "1-0", "--date", "2026-11-03")
    csv = tmp_path / "club-night.csv"
    csv.write_text('date,white,black,result\n2026-11-10,"Walsh, Brendan","Doyle, Liam",1/2-1/2\n',
                   encoding="utf-8")
    _ok(path, "import", str(csv))
    return path


def test_the_audit_log_says_what_changed_in_words(db: str) -> None:
    changes = json.loads(_ok(db, "audit", "--json").stdout)["changes"]
    assert [c["what"] for c in changes] == [
        "player #1 Doyle, Liam", "player #2 Walsh, Brendan",
        "game #1 (Doyle, Liam v Walsh, Brendan)", "file club-night.csv"]
    table = _ok(db, "audit").stdout
    assert "file club-night.csv" in table and "game #1 (Doyle, Liam v Walsh, Brendan)" in table


def test_a_superseded_list_says_so_beside_it_and_prints_as_published(db: str) -> None:
    _ok(db, "period", "close", "2026-11")
    first = _ok(db, "list", "--format", "csv").stdout
    _ok(db, "period", "reopen", "2026-11", "--reason", "a late game")
    reopened = _run(db, "list")
    assert reopened.exit_code == 1
    assert ("no period is closed now: 2026-11 was reopened; the lists it published before: "
            "ledger list --period 2026-11 --revision 1") in reopened.stderr
    old = _ok(db, "list", "--period", "2026-11", "--revision", "1", "--format", "csv")
    assert old.stdout == first  # byte for byte as published
    assert ("this is revision 1 of the list of 2026-11, superseded; 2026-11 is reopened: not "
            "closed now") in old.stderr
    _ok(db, "period", "close", "2026-11")
    again = _ok(db, "list", "--period", "2026-11", "--revision", "1", "--format", "csv")
    assert "the current list is revision 2 (ledger list --period 2026-11)" in again.stderr
    assert _ok(db, "list", "--period", "2026-11").stderr == ""
