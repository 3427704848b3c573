"""``ledger import`` options: --format, --ids, and when the progress bar shows."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from ledgers import Factory
from typer.testing import CliRunner

from ledger.cli.app import app
from ledger.cli.progress import PROGRESS_LINES, import_progress

TRF = ("012 Cup\n052 2025/11/20\n"
       "001    1 m    Player, A                         1800 XXX    90000001 1990/01/01  1.0    1"
       "     2 w 1\n"
       "001    2 m    Player, B                         1900 XXX    90000002 1988/01/01  0.0    2"
       "     1 b 0\n")


@pytest.fixture
def db(new_ledger: Factory) -> str:
    return new_ledger("o")


def test_unknown_format_and_ids_are_usage_errors(db: str, tmp_path: Path) -> None:
    path = tmp_path / "cup.dat"
    path.write_text(TRF, encoding="utf-8")
    wrong = CliRunner().invoke(app, ["--db", db, "import", str(path), "--format", "xls"])
    assert wrong.exit_code == 2 and "pgn|trf|csv" in wrong.stderr
    ids = CliRunner().invoke(app, ["--db", db, "import", str(path), "--ids", "uscf"])
    assert ids.exit_code == 2 and "fide or national" in ids.stderr
    # the content says TRF whatever the extension; --format says it too
    for extra in ([], ["--format", "trf"]):
        done = CliRunner().invoke(app, ["--db", db, "import", str(path), "--register-players",
                                        *extra])
        assert done.exit_code == 0, done.stderr
    assert "already imported" not in done.stdout and "nothing to add" in done.stderr


def test_progress_bar_only_on_a_terminal_for_long_files(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    short, long = tmp_path / "short.csv", tmp_path / "long.csv"
    short.write_text("x\n" * PROGRESS_LINES, encoding="utf-8")
    long.write_text("x\r\n" * (PROGRESS_LINES + 1), encoding="utf-8")

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdout", io.StringIO())  # not a terminal
    with import_progress(long, quiet=False) as progress:
        assert progress is None
    monkeypatch.setattr(sys, "stdout", Terminal())
    with import_progress(short, quiet=False) as progress:
        assert progress is None
    with import_progress(long, quiet=True) as progress:
        assert progress is None
    with import_progress(long, quiet=False) as progress:
        assert progress is not None
        progress(10, 20)
