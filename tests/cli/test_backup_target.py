"""``ledger db backup FILE`` writes only a regular file (issue 9, item 1): ``--force`` replaced
whatever was at FILE by rename, a device node or a FIFO included (``/dev/null`` became a
regular file on this machine). Anything but a regular file is refused, exit 1, naming it, with
``--force`` or without (and without it, the message does not ask for ``--force``); a symbolic
link is followed, as every report writer follows it: the file it names is written, the link
kept. Devices and FIFOs here are made in ``tmp_path``, never the machine's own."""

from __future__ import annotations

import hashlib
import os
import socket
import sqlite3
import stat
from pathlib import Path

import pytest
from example_ledgers import build_club_cup
from typer.testing import CliRunner, Result

from ledger.cli.app import app


def backup(ledger: Path, *args: str | Path) -> Result:
    return CliRunner().invoke(app, ["--db", str(ledger), "db", "backup", *map(str, args)])


def refused(result: Result, *needles: str) -> str:
    assert result.exit_code == 1, (result.exit_code, result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    message = " ".join(result.stderr.split())
    for needle in needles:
        assert needle in message, message
    return message


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def is_backup(path: Path) -> bool:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM players")}
    conn.close()
    return names == {"Player, A", "Player, B"}


@pytest.fixture
def ledger(tmp_path: Path) -> Path:
    return build_club_cup(tmp_path / "ledger.db")


def fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def null_device(path: Path) -> Path:
    """A character device like /dev/null (1, 3), made here; skips unless root."""
    if os.geteuid() != 0:
        pytest.skip("making a device node needs root")
    os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    return path


def unix_socket(path: Path) -> Path:
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(path))
    sock.close()
    return path


KINDS = {"a FIFO": (fifo, stat.S_ISFIFO), "a character device": (null_device, stat.S_ISCHR),
         "a socket": (unix_socket, stat.S_ISSOCK)}


@pytest.mark.parametrize("force", [True, False], ids=["--force", "no --force"])
@pytest.mark.parametrize("kind", KINDS)
def test_anything_but_a_regular_file_is_refused(ledger: Path, tmp_path: Path, kind: str,
                                                force: bool) -> None:
    make, still = KINDS[kind]
    target = make(tmp_path / "copy.db")
    message = refused(backup(ledger, target, *(["--force"] if force else [])),
                      f"backup: {target} is {kind}, not a regular file")
    assert "--force" not in message, message  # --force would not help: do not suggest it
    assert still(os.lstat(target).st_mode)


@pytest.mark.parametrize("kind", KINDS)
def test_a_link_to_anything_but_a_regular_file_is_refused(ledger: Path, tmp_path: Path,
                                                          kind: str) -> None:
    make, still = KINDS[kind]
    node = make(tmp_path / "node")
    link = tmp_path / "copy.db"
    link.symlink_to(node)
    refused(backup(ledger, link, "--force"), f"backup: {link} is {kind}, not a regular file")
    assert link.is_symlink() and still(os.lstat(node).st_mode)


def test_a_link_is_followed_the_file_it_names_replaced_the_link_kept(ledger: Path,
                                                                    tmp_path: Path) -> None:
    (tmp_path / "backups").mkdir()
    old = tmp_path / "backups" / "latest.db"
    old.write_bytes(b"an older backup\n")
    link = tmp_path / "copy.db"
    link.symlink_to(old)
    before = sha256(old)
    refused(backup(ledger, link), f"backup: {link} exists", "--force")
    assert sha256(old) == before
    result = backup(ledger, link, "--force")
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and link.resolve() == old.resolve()
    assert sorted(p.name for p in old.parent.iterdir()) == ["latest.db"]  # no temporary left
    assert is_backup(old)


def test_a_dangling_link_makes_the_file_it_names(ledger: Path, tmp_path: Path) -> None:
    link = tmp_path / "copy.db"
    link.symlink_to("made.db")
    result = backup(ledger, link)
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and is_backup(tmp_path / "made.db")


def test_an_earlier_backup_is_replaced_with_force_not_one_in_use(ledger: Path,
                                                                tmp_path: Path) -> None:
    copy = tmp_path / "copy.db"
    assert backup(ledger, copy).exit_code == 0
    assert backup(ledger, copy, "--force").exit_code == 0
    assert is_backup(copy)
    conn = sqlite3.connect(copy, isolation_level=None)  # someone has it open, in WAL mode
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA wal_autocheckpoint=0")
        conn.execute("CREATE TABLE notes (text TEXT)")
        before = sha256(copy)
        refused(backup(ledger, copy, "--force"), f"backup: {copy} is a SQLite database in use",
                f"{copy}-wal")
        assert sha256(copy) == before
    finally:
        conn.close()


def test_the_help_says_a_link_is_followed() -> None:
    result = CliRunner().invoke(app, ["db", "backup", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "A symbolic link is followed" in text, text
    assert "Refused: a folder, a device, a FIFO" in text, text
