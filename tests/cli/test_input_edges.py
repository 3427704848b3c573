"""Input at the edges (issue 9, item 5). An import file that is not a regular file, or is
larger than the ledger reads, is refused before a byte is read, naming the file, with exit 3
(an import rejected); ``player add`` refuses a control character in a name by the imports' own
rule, and a birth year in the future. The ledger holds the same rows as before after each
(``ledgers.contents``), on SQLite or on the run's server."""

from __future__ import annotations

import datetime as dt
import os
import sys
from pathlib import Path

import pytest
from ledgers import Factory, contents
from typer.testing import CliRunner, Result

from ledger.cli import progress
from ledger.cli.app import app
from ledger.errors import ImportRejected
from ledger.services.imports.input_files import MAX_INPUT_BYTES, check_input_file


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.fixture
def ledger(new_ledger: Factory) -> str:
    return new_ledger("ledger")


def rejected(ledger: str, args: tuple[str | Path, ...], *needles: str) -> Result:
    """``ledger import *args``: exit 3, each needle on stderr, no traceback, ledger unchanged."""
    before = contents(ledger)
    result = run("--db", ledger, "import", *args)
    assert result.exit_code == 3, (result.exit_code, result.output, result.stderr)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stderr
    for needle in needles:
        assert needle in result.stderr, result.stderr
    assert contents(ledger) == before
    return result


LIST = ("--format", "fide-list", "--list-date", "2026-11-01")


@pytest.mark.parametrize("fmt", [("--format", "csv"), LIST, ()], ids=["csv", "fide-list", "auto"])
def test_a_device_is_refused_before_reading(ledger: str, fmt: tuple[str, ...]) -> None:
    # /dev/zero never ends: reading it whole was a MemoryError
    rejected(ledger, ("/dev/zero", *fmt), "/dev/zero: error: file: a device, not a regular file")


@pytest.mark.parametrize("fmt", [("--format", "csv"), LIST], ids=["csv", "fide-list"])
def test_a_pipe_is_refused_without_waiting_for_a_writer(ledger: str, tmp_path: Path,
                                                        fmt: tuple[str, ...]) -> None:
    fifo = tmp_path / "games.csv"
    os.mkfifo(fifo)  # opening it to read would wait for a writer for ever
    rejected(ledger, (fifo, *fmt), f"{fifo}: error: file: a pipe (FIFO), not a regular file")


@pytest.mark.parametrize("fmt", [("--format", "csv"), LIST], ids=["csv", "fide-list"])
def test_a_folder_or_a_missing_file_is_an_import_rejected(ledger: str, tmp_path: Path,
                                                          fmt: tuple[str, ...]) -> None:
    # exit 3 like every other file the ledger cannot import (it was 2, from the argument parser)
    rejected(ledger, (tmp_path, *fmt), f"{tmp_path}: error: file: a folder, not a regular file")
    missing = tmp_path / "nowhere.csv"
    rejected(ledger, (missing, *fmt), f"{missing}: error: file: no such file")


@pytest.mark.parametrize("fmt", [("--format", "csv"), LIST], ids=["csv", "fide-list"])
def test_a_file_over_2_gb_is_refused_before_reading(ledger: str, tmp_path: Path,
                                                    fmt: tuple[str, ...]) -> None:
    assert MAX_INPUT_BYTES == 2 * 1024 ** 3  # the README's "2 GB"
    huge = tmp_path / "huge.csv"
    with open(huge, "wb") as handle:
        handle.truncate(MAX_INPUT_BYTES + 1)  # sparse: no disk used, 2 GB + 1 byte long
    rejected(ledger, (huge, *fmt), f"{huge}: error: file: 2147483649 bytes; the ledger imports "
             "files up to 2 GB (2147483648 bytes)")


def test_check_input_file_gives_the_size_of_a_regular_file(tmp_path: Path) -> None:
    games = tmp_path / "games.csv"
    games.write_bytes(b"date,white,black,result\n")
    assert check_input_file(str(games)) == 24
    link = tmp_path / "link.csv"
    link.symlink_to(games)
    assert check_input_file(str(link)) == 24  # a link to a file is that file
    with pytest.raises(ImportRejected) as caught:
        check_input_file("/dev/null")
    assert [str(p) for p in caught.value.problems] == [
        "/dev/null: error: file: a device, not a regular file"]


def test_no_progress_bar_counts_the_lines_of_a_device(monkeypatch: pytest.MonkeyPatch) -> None:
    # on a terminal the bar counted the file's lines before the import: /dev/zero never ends
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    with progress.import_progress(Path("/dev/zero"), quiet=False) as bar:
        assert bar is None


# ------------------------------------------------------------------------------------------------
# player add: one rule with the imports for control characters; no birth year in the future


@pytest.mark.parametrize("char", ["\t", "\x1b", "\x7f", "\x85"], ids=["tab", "esc", "del", "nel"])
def test_a_control_character_in_a_name_is_refused_by_player_add_as_by_an_import(
        ledger: str, tmp_path: Path, char: str) -> None:
    before = contents(ledger)
    added = run("--db", ledger, "player", "add", f"Tab{char}Name, A")
    assert added.exit_code == 1, added.output
    assert f"name: {f'Tab{char}Name, A'!r} holds a control character (U+{ord(char):04X})" \
        in added.stderr
    assert contents(ledger) == before
    games = tmp_path / "games.csv"
    games.write_text(f'date,white,black,result\n2026-11-02,"Tab{char}Name, A","Other, B",1-0\n',
                     encoding="utf-8")
    rejected(ledger, (games, "--register-players"),
             f"games.csv:2: error: white: a line break or control character (U+{ord(char):04X})")


def test_a_birth_year_after_this_year_is_refused(ledger: str) -> None:
    year = dt.date.today().year
    before = contents(ledger)
    future = run("--db", ledger, "player", "add", "Future, Fay", "--birth-year", str(year + 1))
    assert future.exit_code == 1, future.output
    assert f"birth-year: {year + 1} is after this year ({year})" in future.stderr
    assert contents(ledger) == before
    born = run("--db", ledger, "player", "add", "Newborn, Ned", "--birth-year", str(year))
    assert born.exit_code == 0, born.stderr
