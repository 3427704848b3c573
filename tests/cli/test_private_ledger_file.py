"""A ledger file the ledger creates is readable by its owner only (issue 22 §5): it holds
members' birth years and the audit log. ``ledger init`` and ``ledger db copy --to NEW.db``
create it 0600 whatever the umask, and SQLite gives its -wal and -shm files the same mode;
a backup already was 0600. (About SQLite files themselves: ``tmp_path``.)"""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ledger.cli.app import app


@pytest.fixture
def usual_umask() -> Iterator[None]:
    """The umask most systems give (022: new files world-readable), for this test only."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def run(*args: str) -> None:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.stderr


def test_init_creates_the_ledger_and_its_side_files_for_its_owner_only(
        tmp_path: Path, usual_umask: None) -> None:
    db = tmp_path / "club.db"
    run("--db", str(db), "init")
    assert mode(db) == 0o600
    run("--db", str(db), "player", "add", "Doyle, Liam", "--birth-year", "2010")
    reader = sqlite3.connect(db)  # while a connection is open, the -wal and -shm files exist
    try:
        assert reader.execute("SELECT name FROM players").fetchall() == [("Doyle, Liam",)]
        side = [Path(f"{db}{suffix}") for suffix in ("-wal", "-shm")]
        assert [mode(p) for p in side] == [0o600, 0o600]
    finally:
        reader.close()


def test_db_copy_creates_a_new_sqlite_target_for_its_owner_only(
        tmp_path: Path, usual_umask: None) -> None:
    source, target = tmp_path / "club.db", tmp_path / "copy.db"
    run("--db", str(source), "init")
    run("--db", str(source), "db", "copy", "--to", str(target))
    assert mode(target) == 0o600


def test_an_existing_file_keeps_its_mode(tmp_path: Path, usual_umask: None) -> None:
    db = tmp_path / "club.db"
    db.touch(mode=0o640)  # an empty file is an empty database; the owner chose its mode
    run("--db", str(db), "init")
    assert mode(db) == 0o640
