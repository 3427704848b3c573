"""The same game twice, through the CLI (issue 9, item 3, second round): a line that repeats an
earlier line of its file is counted apart from the games already in the ledger, in the text
report and in ``--json`` (``repeated_in_file``), with a warning naming both lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from ledger.cli.app import app


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "twice.db")
    assert run("--db", path, "init").exit_code == 0
    for name in ("Player, A", "Player, B"):
        assert run("--db", path, "player", "add", name, "--rating", "1800",
                   "--prior-games", "0").exit_code == 0
    return path


def test_a_repeated_line_is_counted_apart(db: str, tmp_path: Path) -> None:
    csv = tmp_path / "club.csv"
    csv.write_text("date,white,black,result,event,round\n"
                   '2025-11-05,"Player, A","Player, B",1-0,Club,1\n'
                   '2025-11-05,"Player, A","Player, B",1-0,Club,1\n'
                   '2025-11-12,"Player, B","Player, A",1/2-1/2,Club,2\n', encoding="utf-8")
    dry = run("--db", db, "import", csv, "--dry-run")
    assert dry.exit_code == 0, dry.stderr
    assert (f"{csv} (csv): 3 games in the file; would record 2 (2 to rate), 0 already in the "
            "ledger, 1 repeated in the file (recorded once, each named in a warning)"
            ) in " ".join(dry.stdout.split())
    assert (f"{csv}:3: warning: game: line 3 repeats line 2 (Player, A v Player, B, round 1, "
            "1-0): recorded once") in " ".join(dry.stderr.split())
    done = run("--db", db, "import", csv, "--json")
    assert done.exit_code == 0, done.stderr
    report = json.loads(done.stdout)
    assert (report["recorded"], report["already_recorded"], report["repeated_in_file"]) == (
        2, 0, 1)
    assert [(p["line"], p["severity"]) for p in report["problems"]] == [(3, "warning")]
