"""docs/guide.md, "Your month as club secretary", runs as written (issue 21 §7).

Every command line of the guide's ```sh blocks is run, in order (``run``: ``ledger`` as the
venv the tests run in has it, any other line in ``bash``), in a new folder holding the guide's
files (``examples/guide``), so that the guide's paths resolve as they do for a reader in the
repository's folder, on one new ledger. Each must end with exit 0, unless a comment line right
after it says otherwise: ``# exit 1: refused, nothing written``. A ```text block is a part of
what the last command before it prints: each of its lines must be in that output (blanks aside:
a narrower terminal wraps lines elsewhere).

The ledger is the guide's own, ``./ledger.db`` in that folder, on SQLite whatever database the
run's other tests use: the guide's reader has no server. Only the install lines are not run
(``INSTALL``): the tests already run in the venv they make, with ``ledger`` installed in it,
and installing again would take a minute and the network. The first of them must stay the
README's first quick-start command.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from typer.testing import CliRunner

from ledger.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "guide.md"
FILES = ROOT / "examples" / "guide"
BIN = Path(sys.executable).parent

#: A fenced block of Markdown: its language and its text.
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)
#: The comment that gives the exit code of the command above it.
EXIT = re.compile(r"# exit (\d+)\b")
#: The guide's install lines, not run here (see the module's docstring).
ACTIVATE = "source .venv/bin/activate"


def readme_install() -> str:
    """The README's first quick-start command (the first line of its first ```sh block)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return next(m.group(2) for m in FENCE.finditer(readme) if m.group(1) == "sh").splitlines()[0]


INSTALL = (readme_install(), ACTIVATE)


@dataclass
class Step:
    """A command line of the guide, the exit code it must end with, and the lines it must print."""

    command: str
    exit_code: int = 0
    prints: list[str] = field(default_factory=list)


def steps_of(guide: str) -> tuple[list[Step], list[str]]:
    """The guide's commands in order, and the install lines it holds (not steps)."""
    steps: list[Step] = []
    skipped: list[str] = []
    for match in FENCE.finditer(guide):
        language, body = match.groups()
        lines = [line.strip() for line in body.splitlines() if line.strip()]
        if language == "text":
            assert steps, "a text block before any command"
            steps[-1].prints += lines
            continue
        assert language == "sh", f"a ```{language} block: the guide's blocks are sh or text"
        for line in lines:
            if line in INSTALL:
                skipped.append(line)
            elif (code := EXIT.match(line)) is not None:
                assert steps and steps[-1].exit_code == 0, f"{line!r} follows no command"
                steps[-1].exit_code = int(code.group(1))
            elif not line.startswith("#"):
                steps.append(Step(line))
    return steps, skipped


def _flat(text: str) -> str:
    return " ".join(text.split())


#: What only a shell understands: such a line runs in ``bash``, not in the test's process.
SHELL = re.compile(r"[|&;<>$`*?~]")
#: The ledger's environment variables, unset: the guide's ledger is ``./ledger.db``.
UNSET = {"LEDGER_DB": None, "LEDGER_CLUB": None, "LEDGER_USER": None}


def run(command: str, folder: Path) -> tuple[int, str]:
    """``command`` run in ``folder``: its exit code and what it printed (stdout, then stderr).
    A ``ledger ...`` line runs in this process, through Typer's runner (the installed package,
    as the venv's ``ledger`` runs it, without a process start-up per line: the guide has about
    50); any other line, or one with shell syntax, runs in ``bash`` with the venv's ``bin``
    first on the PATH."""
    words = shlex.split(command)
    if words[0] == "ledger" and SHELL.search(command) is None:
        cwd = Path.cwd()
        os.chdir(folder)
        try:
            result = CliRunner().invoke(app, words[1:], env={**UNSET, "COLUMNS": "200"},
                                        catch_exceptions=False)
        finally:
            os.chdir(cwd)
        return result.exit_code, result.stdout + result.stderr
    env = {k: v for k, v in os.environ.items() if k not in UNSET}
    env.update(PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}", COLUMNS="200")
    done = subprocess.run(["bash", "-c", command], cwd=folder, env=env, capture_output=True,
                          text=True, check=False, timeout=300)
    return done.returncode, done.stdout + done.stderr


def run_steps(steps: list[Step], folder: Path) -> list[str]:
    """Run ``steps`` in ``folder``; what went otherwise than the guide says, one line each."""
    found: list[str] = []
    for step in steps:
        code, output = run(step.command, folder)
        if code != step.exit_code:
            found.append(f"`{step.command}` ended with exit {code}, the guide says "
                         f"{step.exit_code}:\n{output}")
        found += [f"`{step.command}` did not print {line!r}:\n{output}"
                  for line in step.prints if _flat(line) not in _flat(output)]
    return found


def test_the_guide_runs_as_written(tmp_path: Path) -> None:
    assert (BIN / "ledger").exists(), f"the ledger command is not installed beside {sys.executable}"
    steps, skipped = steps_of(GUIDE.read_text(encoding="utf-8"))
    # the install lines are there, the README's first among them, and only they are not run
    assert skipped == list(INSTALL)
    # the guide is the month it says it is (a parser that lost blocks would run nothing)
    commands = [s.command for s in steps]
    assert commands[0] == "ledger --help" and commands[1] == "ledger init"
    assert "ledger period close 2026-10" in commands and "ledger period close 2026-11" in commands
    assert sum(s.exit_code != 0 for s in steps) >= 3 and sum(bool(s.prints) for s in steps) >= 8
    shutil.copytree(FILES, tmp_path / "examples" / "guide")
    found = run_steps(steps, tmp_path)
    assert found == [], "\n\n".join(found)
    assert (tmp_path / "out" / "site" / "index.html").is_file()
    assert "Harbour Chess Club" in (tmp_path / "out" / "harbour-2026-10.html").read_text(encoding="utf-8")


def test_a_step_that_goes_otherwise_is_reported(tmp_path: Path) -> None:
    guide = ("```sh\nledger init\nledger player show Nobody\nledger calc expected 2000 1800\n"
             "# exit 1: refused\n```\n\n```text\nno such line\n```\n")
    steps, skipped = steps_of(guide)
    assert [(s.command, s.exit_code, s.prints) for s in steps] == [
        ("ledger init", 0, []), ("ledger player show Nobody", 0, []),
        ("ledger calc expected 2000 1800", 1, ["no such line"])]
    assert skipped == []
    found = [line.splitlines()[0] for line in run_steps(steps, tmp_path)]
    assert found == [
        "`ledger player show Nobody` ended with exit 1, the guide says 0:",
        "`ledger calc expected 2000 1800` ended with exit 0, the guide says 1:",
        "`ledger calc expected 2000 1800` did not print 'no such line':"]
