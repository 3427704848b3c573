"""A report is never written over a database (issue 9, item 4): ``list --output``,
``export trf --output`` and ``history --chart`` refuse (exit 1, the file named) the open ledger
(under any spelling, through a link, or its -wal/-shm/-journal files) and any SQLite file, and
leave every byte of it as it was. Nor over another database's -wal, -shm or -journal, by name
or by its first bytes, and ``db backup`` neither (issue 9, item 2)."""

from __future__ import annotations

import collections.abc
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


# --------------------------------------------------------------------------------------------
# Another database's write-ahead log, shared-memory index or rollback journal (issue 9, item 2):
# replacing one loses that database's committed changes. Every writer refuses it, db backup too.

EVERY_WRITER = [*WRITERS, ("db", "backup", "--force")]
WAL_MAGIC, JOURNAL_MAGIC = bytes.fromhex("377f0682"), bytes.fromhex("d9d505f920a163d7")


@pytest.fixture
def accounts(tmp_path: Path) -> collections.abc.Iterator[Path]:
    """Another program's database in WAL mode, its last committed row only in its -wal file
    (a connection keeps it open, so the -wal is not checkpointed)."""
    db = tmp_path / "accounts.db"
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA wal_autocheckpoint=0")
        conn.execute("CREATE TABLE members (name TEXT)")
        conn.execute("INSERT INTO members VALUES ('committed, in the -wal only')")
        assert Path(f"{db}-wal").stat().st_size > 0 and Path(f"{db}-shm").exists()
        yield db
    finally:
        conn.close()


def named(tmp_path: Path, writer: tuple[str, ...], target: Path) -> Path:
    """``target``, or for history --chart (which wants .png) a link to it named .png."""
    if writer[0] != "history":
        return target
    link = tmp_path / f"{target.name}.png"
    link.symlink_to(target)
    return link


@pytest.mark.parametrize("suffix", ["-wal", "-shm"])
@pytest.mark.parametrize("writer", EVERY_WRITER, ids=lambda w: " ".join(w[:3]))
def test_no_writer_replaces_another_databases_side_file(ledger: Path, tmp_path: Path,
                                                        accounts: Path, writer: tuple[str, ...],
                                                        suffix: str) -> None:
    side = Path(f"{accounts}{suffix}")
    before = {p: sha256(p) for p in (accounts, side)}
    target = named(tmp_path, writer, side)
    refused(run("--db", ledger, *writer, target), str(target), f"of the SQLite database {accounts}")
    assert {p: sha256(p) for p in before} == before
    assert not target.is_symlink() or target.resolve() == side


@pytest.mark.parametrize("writer", EVERY_WRITER, ids=lambda w: " ".join(w[:3]))
def test_a_side_file_that_is_not_there_yet_is_refused_too(ledger: Path, tmp_path: Path,
                                                          accounts: Path,
                                                          writer: tuple[str, ...]) -> None:
    # no rollback journal beside accounts.db now; a report there would be read as one
    journal = Path(f"{accounts}-journal")
    target = named(tmp_path, writer, journal)
    refused(run("--db", ledger, *writer, target), str(target), f"of the SQLite database {accounts}")
    assert not journal.exists()


@pytest.mark.parametrize(("magic", "what"), [(WAL_MAGIC, "write-ahead log"),
                                             (bytes.fromhex("377f0683"), "write-ahead log"),
                                             (JOURNAL_MAGIC, "rollback journal")],
                         ids=["wal", "wal-big-endian-checksums", "journal"])
@pytest.mark.parametrize("writer", EVERY_WRITER, ids=lambda w: " ".join(w[:3]))
def test_a_log_or_journal_under_any_name_is_refused(ledger: Path, tmp_path: Path,
                                                    writer: tuple[str, ...], magic: bytes,
                                                    what: str) -> None:
    # its database renamed, or the log copied away: the first bytes still tell
    log = tmp_path / "saved.png"
    log.write_bytes(magic + bytes(28) + b"frames")
    before = sha256(log)
    refused(run("--db", ledger, *writer, log), str(log), f"is a SQLite {what}")
    assert sha256(log) == before
