"""Ledger commands run in processes of their own, at the same moment, for the concurrency and
kill tests (tests/integration/test_concurrency.py, test_kill.py).

``start(commands)`` forks a child (the modules are already imported, so it starts in
milliseconds) that runs each command through the real CLI (``ledger.cli.app``) with its own
engine and its own connections, as ``ledger ...`` in a shell would, and exits with the last
exit code; stdout and stderr go to files, and each command's exit code to ``codes``.
``Pause`` is the test-only hook: installed in the child only (no code of the ledger knows of
it), it stops the command inside its transaction at the n-th writing statement or just before
the commit, says so by creating a file, and waits until it is told to go on (or is killed).
``AfterCommit`` stops it at the n-th statement after its first writing transaction committed
(a verification that reads), and ``AtFile`` at the n-th file operation of a kind under a folder
(Python's audit events, ``sys.addaudithook``: a file opened for writing, a rename, a folder
removed), for the commands that write files rather than rows.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
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
class _Stop:
    """A hook that stops the child: ``folder`` holds the files ``paused`` (the child is
    waiting) and ``go`` (it may go on)."""

    folder: Path

    @property
    def paused(self) -> Path:
        return self.folder / "paused"

    @property
    def go(self) -> Path:
        return self.folder / "go"


@dataclass(frozen=True)
class Pause(_Stop):
    """Where the child stops inside its transaction: at its ``at``-th writing statement (before
    the database runs it), or, with ``at`` 0, just before the commit of its first writing
    transaction."""

    at: int = 0

    def install(self) -> None:
        """In the child: stop where this says."""
        self.folder.mkdir(parents=True, exist_ok=True)
        writes = 0

        def before(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            nonlocal writes
            if statement.lstrip().upper().startswith(_WRITES):
                writes += 1
                if writes == self.at:
                    _wait_to_go(self.paused, self.go)

        def commit(conn: Any) -> None:
            if self.at == 0 and writes:
                _wait_to_go(self.paused, self.go)

        event.listen(Engine, "before_cursor_execute", before)
        event.listen(Engine, "commit", commit)


def _wait_to_go(paused: Path, go: Path) -> None:
    """Say the child is paused (``paused`` made) and wait for ``go`` (at most ``_LONGEST_PAUSE``
    seconds, then exit 75)."""
    paused.touch()
    deadline = time.monotonic() + _LONGEST_PAUSE
    while not go.exists():
        if time.monotonic() > deadline:
            os._exit(75)
        time.sleep(0.02)


@dataclass(frozen=True)
class AfterCommit(_Stop):
    """Where the child stops once its first writing transaction has committed: before the
    ``at``-th statement it runs after that commit (on any connection), or, with ``writing``,
    before the ``at``-th writing statement after it."""

    at: int = 1
    writing: bool = False

    def install(self) -> None:
        """In the child: stop where this says."""
        self.folder.mkdir(parents=True, exist_ok=True)
        writes = after = 0
        committed = False

        def before(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            nonlocal writes, after
            writing = statement.lstrip().upper().startswith(_WRITES)
            if not committed:
                writes += writing
                return
            if writing or not self.writing:
                after += 1
                if after == self.at:
                    _wait_to_go(self.paused, self.go)

        def commit(_conn: Any) -> None:
            nonlocal committed
            committed = committed or writes > 0

        event.listen(Engine, "before_cursor_execute", before)
        event.listen(Engine, "commit", commit)


def _paths(args: tuple[Any, ...]) -> list[str]:
    """The paths (and names) among an audit event's arguments: str, bytes or path-like, those
    of a tuple too."""
    found = []
    for arg in args:
        for value in (arg if isinstance(arg, tuple) else (arg,)):
            if isinstance(value, bytes):
                value = os.fsdecode(value)
            if isinstance(value, os.PathLike):
                value = os.fspath(value)
            if isinstance(value, str):
                found.append(value)
    return found


@dataclass(frozen=True)
class AtFile(_Stop):
    """Where the child stops: before the ``at``-th of the audit events ``events`` (``open``,
    counted only when opening for writing, ``os.rename``, ``shutil.rmtree``, ``ctypes.dlsym``
    ...: Python's table of audit events) one of whose arguments ``matches`` (a path as the
    operation gives it, or a name; ``folder`` must not be one it takes)."""

    events: tuple[str, ...]
    matches: Callable[[str], bool]
    at: int = 1

    def install(self) -> None:
        """In the child: stop where this says."""
        self.folder.mkdir(parents=True, exist_ok=True)
        seen = 0
        waiting = False

        def hook(name: str, args: tuple[Any, ...]) -> None:
            nonlocal seen, waiting
            if waiting or name not in self.events:
                return
            if name == "open" and not (isinstance(args[2], int)
                                       and args[2] & (os.O_WRONLY | os.O_RDWR | os.O_CREAT)):
                return
            if any(self.matches(path) for path in _paths(args)):
                seen += 1
                if seen == self.at:
                    waiting = True
                    _wait_to_go(self.paused, self.go)

        sys.addaudithook(hook)


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


#: What a child may be started with.
Hook = Pause | AfterCommit | AtFile | Announce


@dataclass
class Child:
    """A forked ledger process: its pid, and the files its output goes to."""

    pid: int
    out: Path
    err: Path
    pause: Hook | None = None
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
        marker = self.pause.begun if isinstance(self.pause, Announce) else self.pause.paused
        deadline = time.monotonic() + timeout
        while not marker.exists():
            assert self.running(), f"process {self.pid} ended before its pause:\n{self.stderr}"
            assert time.monotonic() < deadline, f"process {self.pid} never paused"
            time.sleep(0.01)

    def go_on(self) -> None:
        """Let it go on from its pause point."""
        assert self.pause is not None and not isinstance(self.pause, Announce)
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


def _fork(folder: Path, pause: Hook | None, run: Callable[[Path, Path], int]) -> Child:
    """Fork a process that exits with ``run(stdout, stderr)`` (two files under ``folder``)."""
    folder.mkdir(parents=True, exist_ok=True)
    out, err = folder / "stdout", folder / "stderr"
    for made in (out, err, folder / "codes"):
        made.write_text("", encoding="utf-8")
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 70
        try:
            code = run(out, err)
        finally:
            os._exit(code)
    child = Child(pid, out, err, pause)
    _STARTED.append(child)
    return child


def start(folder: Path, commands: Sequence[Sequence[str]], *,
          pause: Hook | None = None, env: dict[str, str] | None = None) -> Child:
    """Fork a process that runs ``commands`` (each the arguments of ``ledger``) one after the
    other through the CLI, stopping at ``pause`` if given; output in files under ``folder``."""
    return _fork(folder, pause, lambda out, err: _child(out, err, commands, pause, env))


def start_call(folder: Path, call: Callable[[], object], *, pause: Hook) -> Child:
    """Fork a process that runs ``call()`` (a service, not a command), stopping at ``pause``;
    its exit code 0 when it returns, 99 when it raises (the error in ``folder / "stderr"``)."""
    def run(_out: Path, err: Path) -> int:
        try:
            pause.install()
            call()
        except BaseException as exc:
            err.write_text(f"{type(exc).__name__}: {exc}", encoding="utf-8")
            return 99
        return 0

    return _fork(folder, pause, run)


def kill_started() -> None:
    """SIGKILL every child still running (a test that failed half way leaves none behind)."""
    while _STARTED:
        _STARTED.pop().kill()


def _child(out: Path, err: Path, commands: Sequence[Sequence[str]], pause: Hook | None,
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
