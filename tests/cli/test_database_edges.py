"""The ``--db`` file at the edges (issue 9, item 5): another program's SQLite database, a file
that is not SQLite at all, a folder that does not exist, a ledger another process is writing.
Each is a message in the ledger's own words naming the file or folder, exit 1, and the file is
byte for byte as it was."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from ledger.cli.app import app
from ledger.db import engine as engine_module


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args])


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def refused(result: Result, code: int, *needles: str) -> None:
    assert result.exit_code == code, (result.exit_code, result.output, result.stderr)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stderr
    message = " ".join(result.stderr.split())
    for needle in needles:
        assert needle in message, result.stderr


def sqlite_file(path: Path, *statements: str) -> Path:
    with sqlite3.connect(path) as conn:
        for statement in statements:
            conn.execute(statement)
    conn.close()
    return path


@pytest.mark.parametrize("statements", [
    ("CREATE TABLE players (who TEXT)",),
    # another program's Alembic: a revision this ledger does not know, and none of its tables
    ("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL)",
     "INSERT INTO alembic_version VALUES ('1f2e3d4c5b6a')", "CREATE TABLE invoices (n INT)"),
], ids=["no revision", "another programs alembic"])
def test_another_programs_database_is_not_a_ledger(tmp_path: Path,
                                                   statements: tuple[str, ...]) -> None:
    other = sqlite_file(tmp_path / "club.db", *statements)
    before = sha256(other)
    for command in (("player", "list"), ("init",)):
        # not "run ledger init" (init cannot help), and init says the same, naming the file
        refused(run("--db", other, *command), 1, f"{other} is not a ledger database",
                "tables of another program")
        assert sha256(other) == before


def test_a_ledger_from_a_newer_version_is_still_a_ledger(tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.db"
    assert run("--db", ledger, "init").exit_code == 0
    sqlite_file(ledger, "UPDATE alembic_version SET version_num = '9999'")
    refused(run("--db", ledger, "player", "list"), 1, "made by a newer version of ledger")


@pytest.mark.parametrize("data", [b"dear arbiter\n", os.urandom(4096), b"SQLite"],
                         ids=["text", "random bytes", "too short"])
def test_a_file_that_is_not_sqlite_is_said_so(tmp_path: Path, data: bytes) -> None:
    text = tmp_path / "notes.db"
    text.write_bytes(data)
    for command in (("player", "list"), ("init",)):
        refused(run("--db", text, *command), 1, f"{text} is not a SQLite database")
        assert text.read_bytes() == data


def test_an_empty_file_is_a_ledger_to_create(tmp_path: Path) -> None:
    empty = tmp_path / "new.db"
    empty.touch()  # SQLite's own view: an empty file is an empty database
    refused(run("--db", empty, "player", "list"), 4, "ledger init")
    assert run("--db", empty, "init").exit_code == 0


def test_init_names_the_folder_that_does_not_exist(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "dir" / "x.db"
    refused(run("--db", target, "init"), 1, f"cannot create {target}",
            f"the folder {target.parent} does not exist")
    assert not (tmp_path / "missing").exists()


def test_a_write_that_waits_too_long_says_another_process_is_writing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ledger = tmp_path / "ledger.db"
    assert run("--db", ledger, "init").exit_code == 0
    assert run("--db", ledger, "player", "add", "Player, A").exit_code == 0
    monkeypatch.setattr(engine_module, "BUSY_TIMEOUT_SECONDS", 1)  # instead of 30 s
    holder = sqlite3.connect(ledger, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")  # another command holds the write lock
        before = sha256(ledger)
        refused(run("--db", ledger, "player", "add", "Player, B"), 1,
                f"another process is writing to the ledger {ledger}", "nothing was written",
                "try again")
        assert sha256(ledger) == before
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    with sqlite3.connect(ledger) as conn:
        assert conn.execute("SELECT name FROM players").fetchall() == [("Player, A",)]
    conn.close()
