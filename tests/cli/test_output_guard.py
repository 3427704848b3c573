"""A report is never written over a database (issue 9, item 4): ``list --output``,
``export trf --output`` and ``history --chart`` refuse (exit 1, the file named) the open ledger
(under any spelling, through a link, or its -wal/-shm/-journal files) and any SQLite file, and
leave every byte of it as it was."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path

import pytest
from example_ledgers import build_club_cup
from typer.testing import CliRunner, Result

from ledger.cli.app import app


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args])


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def refused(result: Result, *needles: str) -> None:
    assert result.exit_code == 1, (result.exit_code, result.output, result.stderr)
    assert "Traceback" not in result.stderr
    for needle in needles:
        assert needle in result.stderr, result.stderr


@pytest.fixture
def ledger(tmp_path: Path) -> Path:
    """A ledger with one event (Club Cup, 2025-11) and its period closed."""
    return build_club_cup(tmp_path / "ledger.db")


WRITERS = [
    ("list", "--format", "csv", "--output"),
    ("list", "--format", "txt", "--output"),
    ("export", "trf", "--event", "Club Cup", "--output"),
    ("history", "Player, A", "--chart"),
]


@pytest.mark.parametrize("writer", WRITERS, ids=lambda w: " ".join(w[:2]))
def test_no_report_replaces_the_open_ledger(ledger: Path, writer: tuple[str, ...]) -> None:
    before = sha256(ledger)
    # the ledger itself, as given; under another spelling; and through a symbolic link whose
    # name says png (history --chart wants .png)
    link = ledger.parent / "chart.png"
    link.symlink_to(ledger.name)
    spellings = [ledger, ledger.parent / "sub" / ".." / ledger.name, link]
    (ledger.parent / "sub").mkdir()
    for target in spellings:
        result = run("--db", ledger, *writer, target)
        if writer[0] == "history" and target.suffix != ".png":
            assert result.exit_code == 2 and "PNG" in result.stderr  # refused before that
        else:
            refused(result, str(target), "is the ledger database")
        assert sha256(ledger) == before
        assert link.is_symlink()


def test_a_hard_link_to_the_ledger_is_the_ledger(ledger: Path) -> None:
    before = sha256(ledger)
    hard = ledger.parent / "list.csv"
    os.link(ledger, hard)
    refused(run("--db", ledger, "list", "--output", hard), f"{hard}", "is the ledger database")
    assert sha256(ledger) == before
    assert os.path.samefile(hard, ledger)  # the link is still the ledger, not a new file


@pytest.mark.parametrize("suffix", ["-wal", "-shm", "-journal"])
def test_the_ledgers_own_side_files_are_refused(ledger: Path, suffix: str) -> None:
    # SQLite removes -wal and -shm when the last connection closes: they need not exist to be
    # refused, and a report there would be read back as the ledger's write-ahead log
    before = sha256(ledger)
    side = Path(f"{ledger}{suffix}")
    refused(run("--db", ledger, "list", "--format", "csv", "--output", side),
            str(side), "is the ledger database")
    assert not side.exists()
    assert sha256(ledger) == before


@pytest.mark.parametrize("writer", WRITERS, ids=lambda w: " ".join(w[:2]))
def test_no_report_replaces_another_sqlite_database(ledger: Path, tmp_path: Path,
                                                    writer: tuple[str, ...]) -> None:
    other = tmp_path / "accounts.png"  # any name: the first 16 bytes tell a SQLite file
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE members (name TEXT)")
    conn.close()
    before = sha256(other)
    refused(run("--db", ledger, *writer, other), str(other), "is a SQLite database")
    assert sha256(other) == before


def test_an_ordinary_file_is_still_replaced(ledger: Path, tmp_path: Path) -> None:
    out = tmp_path / "list.csv"
    out.write_text("an older list\n", encoding="utf-8")
    result = run("--db", ledger, "list", "--output", out)
    assert result.exit_code == 0, result.stderr
    assert out.read_text(encoding="utf-8").startswith("rank,fide_id,name,")
