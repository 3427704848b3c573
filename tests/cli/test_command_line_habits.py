"""The command line as people expect it (issue 9, item 8): ``--version``, shell completion,
``history`` of a player who is still unrated, and what ``--quiet`` silences."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

from ledgers import Factory
from typer.testing import CliRunner, Result

from ledger.cli.app import app


def _run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def test_version() -> None:
    result = _run("--version")
    assert result.exit_code == 0
    assert result.stdout == f"ledger {version('ledger')}\n"
    assert version("ledger") == "0.1.0"  # pyproject.toml's version


def test_shell_completion_is_offered() -> None:
    assert "--install-completion" in _run("--help").stdout
    # In a process of its own, started by bash: Typer names the shell it finds among the
    # process's parents (shellingham), so the test must not depend on what started pytest (an
    # orphaned run has no shell above it). "; exit" keeps bash from replacing itself with it.
    command = f"{shlex.quote(sys.executable)} -m ledger --show-completion; exit $?"
    script = subprocess.run(["/bin/bash", "-c", command], capture_output=True, text=True,
                            check=False, env={**os.environ, "SHELL": "/bin/bash"})
    assert script.returncode == 0, script.stderr
    assert "complete_bash" in script.stdout


def _ledger(new_ledger: Factory) -> str:
    db = new_ledger("habits")
    for args in (("player", "add", "Rated, Rita", "--rating", "1800", "--prior-games", "50"),
                 ("player", "add", "Rated, Rob", "--rating", "1700", "--prior-games", "50"),
                 ("player", "add", "New, Nora"),
                 ("game", "add", "New, Nora", "Rated, Rita", "1/2-1/2", "--date", "2026-09-05",
                  "--event", "Club Night", "--round", "1"),
                 ("game", "add", "Rated, Rob", "New, Nora", "0-1", "--date", "2026-09-05",
                  "--event", "Club Night", "--round", "2")):
        result = _run("--db", db, *args)
        assert result.exit_code == 0, result.output
    return db


def test_history_of_an_unrated_player_shows_the_pool_in_progress(new_ledger: Factory) -> None:
    db = _ledger(new_ledger)
    result = _run("--db", db, "history", "New, Nora")
    assert result.exit_code == 0, result.output
    assert "K reason" not in result.stdout  # no empty table of rated periods
    assert "Pool in progress for 2026-09" in result.stdout
    rows = [line for line in result.stdout.splitlines() if "Rated, R" in line]
    # a draw against Rita (1800) and a win against Rob (1700), both counted
    assert len(rows) == 2
    assert "1800" in rows[0] and "0.5" in rows[0] and "yes" in rows[0]
    assert "1700" in rows[1] and "1.0" in rows[1] and "yes" in rows[1]
    # 2 games, opponents' average (1800 + 1700) / 2 = 1750, 1.5 points, 3 more needed for 5
    assert ("pool for 2026-09: 2 games since 2026-09, opponents' average 1750.00, score 1.5; "
            "3 more games needed") in result.stdout
    data = json.loads(_run("--db", db, "history", "New, Nora", "--json").stdout)
    assert [(g["opponent"], g["opponent_rating"], g["score"]) for g in data["pool"]["pool_games"]] \
        == [("Rated, Rita", 1800, 0.5), ("Rated, Rob", 1700, 1)]


def test_quiet_silences_warnings_but_never_errors(new_ledger: Factory, tmp_path: Path) -> None:
    db = _ledger(new_ledger)
    old = tmp_path / "old.csv"  # a game before 2022: recorded with a warning, never rated
    old.write_text('date,white,black,result\n2021-05-01,"Rated, Rita","Rated, Rob",1-0\n',
                   encoding="utf-8")
    loud = _run("--db", db, "import", str(old), "--register-players", "--dry-run")
    assert loud.exit_code == 0, loud.output
    assert "warning" in loud.stderr
    quiet = _run("--db", db, "import", str(old), "--register-players", "--dry-run", "--quiet")
    assert quiet.exit_code == 0, quiet.output
    assert quiet.stderr == ""
    assert "recorded, not rated: period before 2022 1" in quiet.stdout
    bad = tmp_path / "bad.csv"
    bad.write_text('date,white,black,result\n2026-09-06,"Rated, Rita","Rated, Rob",2-0\n',
                   encoding="utf-8")
    refused = _run("--db", db, "import", str(bad), "--quiet")
    assert refused.exit_code == 3
    assert "bad.csv:2: error" in refused.stderr
    assert "--quiet" in _run("import", "--help").stdout
