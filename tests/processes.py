"""Ledger commands run in processes of their own, at the same moment, for the concurrency and
kill tests (tests/integration/test_concurrency.py, test_kill.py).

``start(commands)`` forks a child (the modules are already imported, so it starts in
milliseconds) that runs each command through the real CLI (``ledger.cli.app``) with its own
engine and its own connections, as ``ledger ...`` in a shell would, and exits with the last
exit code; stdout and stderr go to files, and each command's exit code to ``codes``.
``Pause`` is the test-only hook: installed in the child only (no code of the ledger knows of
it), it stops the command inside its transaction at the n-th writing statement or just before
the commit, says so by creating a file, and waits until it is told to go on (or is killed).
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, event

#: Statements that write (what a pause point counts).
_WRITES = ("INSERT", "UPDATE", "DELETE")
#: The longest a paused child waits to be told to go on before it gives up (exit 75).
_LONGEST_PAUSE = 120
#: Every child started and not yet waited for (``kill_started`` ends them after each test).
_STARTED: list[Child] = []


@dataclass(frozen=True)
class Pause:
    """Where the child stops inside its transaction: at its ``at``-th writing statement (before
    the database runs it), or, with ``at`` 0, just before the commit of its first writing
    transaction. ``folder`` holds the files ``paused`` (the child is waiting) and ``go`` (it may
    go on)."""

    folder: Path
    at: int = 0

    @property
    def paused(self) -> Path:
        return self.folder / "paused"

    @property
    def go(self) -> Path:
        return self.folder / "go"

    def install(self) -> None:
        """In the child: stop where this says."""
        self.folder.mkdir(parents=True, exist_ok=True)
        writes = 0

        def wait() -> None:
            self.paused.touch()
            deadline = time.monotonic() + _LONGEST_PAUSE
            while not self.go.exists():
                if time.monotonic() > deadline:
                    os._exit(75)
                time.sleep(0.02)

        def before(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            nonlocal writes
            if statement.lstrip().upper().startswith(_WRITES):
                writes += 1
                if writes == self.at:
                    wait()

        def commit(conn: Any) -> None:
            if self.at == 0 and writes:
                wait()

        event.listen(Engine, "before_cursor_execute", before)
        event.listen(Engine, "commit", commit)


@dataclass(frozen=True)
class Announce:
    """A hook that only tells: the child creates ``folder / "begun"`` when a writing transaction
    of its command begins (before it has its write lock), so that a test knows the command has
    gone as far as waiting for it."""

    folder: Path

    @property
    def begun(self) -> Path:
        return self.folder / "begun"

    def install(self) -> None:
        """In the child: announce each writing transaction's beginning."""
        self.folder.mkdir(parents=True, exist_ok=True)

        def begin(conn: Any) -> None:
            if conn.get_execution_options().get("ledger_write", False):
                self.begun.touch()

        event.listen(Engine, "begin", begin)


@dataclass
class Child:
    """A forked ledger process: its pid, and the files its output goes to."""

    pid: int
    out: Path
    err: Path
    pause: Pause | Announce | None = None
    code: int | None = field(default=None)

    def wait(self, timeout: float = 60) -> int:
        """Its exit code, waiting at most ``timeout`` seconds (then it is killed: a failure)."""
        deadline = time.monotonic() + timeout
        while self.code is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.code = os.waitstatus_to_exitcode(status)
                break
            if time.monotonic() > deadline:
                self.kill()
                raise AssertionError(f"process {self.pid} did not finish in {timeout} s:\n"
                                     f"{self.stderr}")
            time.sleep(0.01)
        return self.code

    def running(self) -> bool:
        """Whether it has not finished yet."""
        if self.code is not None:
            return False
        pid, status = os.waitpid(self.pid, os.WNOHANG)
        if pid:
            self.code = os.waitstatus_to_exitcode(status)
            return False
        return True

    def wait_paused(self, timeout: float = 60) -> None:
        """Wait until it has stopped at its pause point, or (``Announce``) begun its writing
        transaction (it must not finish first)."""
        assert self.pause is not None
        marker = self.pause.paused if isinstance(self.pause, Pause) else self.pause.begun
        deadline = time.monotonic() + timeout
        while not marker.exists():
            assert self.running(), f"process {self.pid} ended before its pause:\n{self.stderr}"
            assert time.monotonic() < deadline, f"process {self.pid} never paused"
            time.sleep(0.01)

    def go_on(self) -> None:
        """Let it go on from its pause point."""
        assert isinstance(self.pause, Pause)
        self.pause.go.touch()

    def kill(self) -> None:
        """SIGKILL: the process ends at once, wherever it is (its transaction open)."""
        if self.code is None:
            os.kill(self.pid, signal.SIGKILL)
            _, status = os.waitpid(self.pid, 0)
            self.code = os.waitstatus_to_exitcode(status)

    @property
    def codes(self) -> list[int]:
        """The exit code of each command it ran, in order."""
        return [int(c) for c in (self.out.parent / "codes").read_text(encoding="utf-8").split()]

    @property
    def stdout(self) -> str:
        return self.out.read_text(encoding="utf-8")

    @property
    def stderr(self) -> str:
        return self.err.read_text(encoding="utf-8")


def start(folder: Path, commands: Sequence[Sequence[str]], *,
          pause: Pause | Announce | None = None, env: dict[str, str] | None = None) -> Child:
    """Fork a process that runs ``commands`` (each the arguments of ``ledger``) one after the
    other through the CLI, stopping at ``pause`` if given; output in files under ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    out, err = folder / "stdout", folder / "stderr"
    (folder / "codes").write_text("", encoding="utf-8")
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 70
        try:
            code = _child(out, err, commands, pause, env)
        finally:
            os._exit(code)
    child = Child(pid, out, err, pause)
    _STARTED.append(child)
    return child


def kill_started() -> None:
    """SIGKILL every child still running (a test that failed half way leaves none behind)."""
    while _STARTED:
        _STARTED.pop().kill()


def _child(out: Path, err: Path, commands: Sequence[Sequence[str]], pause: Pause | Announce | None,
           env: dict[str, str] | None) -> int:
    from ledger.cli.app import app

    with open(out, "w", encoding="utf-8") as stdout, open(err, "w", encoding="utf-8") as stderr:
        sys.stdout, sys.stderr = stdout, stderr
        os.environ.update(env or {})
        os.environ.setdefault("COLUMNS", "200")
        if pause is not None:
            pause.install()
        code = 0
        for args in commands:
            try:
                app(list(args), prog_name="ledger")
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
            except BaseException as exc:  # a traceback is a failure the test will show
                print(f"{type(exc).__name__}: {exc}", file=stderr)
                code = 99
            stdout.flush()
            stderr.flush()
            with open(out.parent / "codes", "a", encoding="utf-8") as codes:
                codes.write(f"{code}\n")
        return code


def all_done(children: Sequence[Child], timeout: float = 60) -> list[int]:
    """The exit codes of ``children``, waiting for each."""
    return [c.wait(timeout) for c in children]
