"""An ordinary error of the operating system is a message, never a traceback (issue 9, item 3):
a file name too long, a full disk on standard output, a reader that closed the pipe. The
message names the file (or standard output) and the system's reason, exit 1; a closed pipe
ends the command quietly (exit 1, as Python's own advice for SIGPIPE says). Nothing is
written."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from example_ledgers import build_club_cup
from typer.testing import CliRunner, Result

from ledger.cli.app import app

LONG = "a" * 300  # past NAME_MAX (255) on every usual file system


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args])


def said(result: Result, *needles: str) -> str:
    """The message of a command that failed with exit 1 and no traceback."""
    assert result.exit_code == 1, (result.exit_code, result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    message = " ".join(result.stderr.split())
    assert message.startswith("error: "), message
    for needle in needles:
        assert needle in message, message
    return message


@pytest.fixture
def ledger(tmp_path: Path) -> Path:
    """A ledger with two players, one game and 2025-11 closed."""
    return build_club_cup(tmp_path / "ledger.db")


def files(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.mark.parametrize("command", ["player list", "init"])
def test_a_ledger_name_too_long_is_named(tmp_path: Path, command: str) -> None:
    db = tmp_path / f"{LONG}.db"
    said(run("--db", db, *command.split()), f"--db: cannot use {db}", "File name too long")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("writer", [("db", "backup"), ("list", "--output"), ("site", "build")],
                         ids=" ".join)
def test_an_output_name_too_long_is_named(ledger: Path, writer: tuple[str, ...]) -> None:
    before = files(ledger.parent)
    target = ledger.parent / (f"{LONG}.csv" if writer[0] == "list" else LONG)
    said(run("--db", ledger, *writer, target), LONG[:60], "File name too long")
    assert files(ledger.parent) == before


def ledger_cli(db: Path, *args: str, stdout: int) -> subprocess.CompletedProcess[str]:
    """``python -m ledger --db DB ARGS`` with its standard output on the descriptor ``stdout``."""
    return subprocess.run([sys.executable, "-m", "ledger", "--db", str(db), *args],
                          stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=120,
                          check=False, env={**os.environ, "COLUMNS": "120"})


REPORTS = ["player list --json", "list --format csv", "list", "player show Player, A", "--help"]


@pytest.mark.parametrize("command", REPORTS)
def test_a_full_disk_on_standard_output_is_said(ledger: Path, command: str) -> None:
    # /dev/full is only written to here, never given as a file to replace
    args = command.split(" ", 2) if command.startswith("player show") else command.split()
    with open("/dev/full", "w", encoding="utf-8") as full:
        result = ledger_cli(ledger, *args, stdout=full.fileno())
    assert result.returncode == 1, (result.returncode, result.stderr)
    assert result.stderr == ("error: cannot write to standard output: No space left on "
                             "device\n"), result.stderr


@pytest.mark.parametrize("command", REPORTS)
def test_a_closed_pipe_ends_the_command_quietly(ledger: Path, command: str) -> None:
    args = command.split(" ", 2) if command.startswith("player show") else command.split()
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has gone before the first line: `ledger list | head -0`
    try:
        result = ledger_cli(ledger, *args, stdout=write_end)
    finally:
        os.close(write_end)
    assert (result.returncode, result.stderr) == (1, "")
