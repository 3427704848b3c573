"""What every command module shares: the ``--json`` option, opening the ledger around one
service call, and turning the ledger's errors into a message on stderr and an exit code.

Exit codes (docs/DESIGN.md): 0 ok, 1 refused by the ledger, 2 usage, 3 import rejected,
4 the database needs ``ledger init``. Errors go to stderr.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import getpass
import os
import shlex
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any, NoReturn, ParamSpec, TypeVar

import typer

from ledger.cli.render.output import error, problems
from ledger.cli.tree import ARGV_KEY
from ledger.config import USER_ENV, resolve_db
from ledger.domain import Actor
from ledger.errors import ImportRejected, LedgerError, database_error, hide_passwords

P = ParamSpec("P")
R = TypeVar("R")

#: ``--json`` on every command that reports.
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout.", metavar="")]
#: ``--pool``: the rating pool a report shows (docs/RULES.md §9).
PoolOpt = Annotated[str, typer.Option("--pool", help="The rating pool: standard, rapid or blitz.")]

#: A PLAYER argument: the same three ways of naming a player in every command.
PlayerArg = Annotated[str, typer.Argument(help="Id (#12), FIDE id, or unambiguous name.")]

#: ``--reason``: required by every correction; it goes into the audit log.
ReasonOpt = Annotated[str | None, typer.Option(
    "--reason", metavar="TEXT", help="Why (required; recorded in the audit log).",
    show_default=False)]

#: ``--dry-run`` on a correction: the full effect, nothing written.
DryRunOpt = Annotated[bool, typer.Option(
    "--dry-run", metavar="", help="Show the full effect; write nothing.")]

#: ``--in-next-period``: a correction of a closed period, FIDE's way.
InNextPeriodOpt = Annotated[bool, typer.Option(
    "--in-next-period", metavar="", help="In a closed period, FIDE's way: the published list "
    "stands and each player's difference is carried into the earliest open period, before its "
    "one rounding.")]

#: ``--new-event``: an event name close to a recorded one's names a new event, not a typo.
NewEventOpt = Annotated[bool, typer.Option(
    "--new-event", metavar="", help="An event name that names no recorded event but is close "
    "to one's (a likely typo, refused with \"did you mean\") names a new event.")]

#: ``--rerate``: a correction of a closed period re-rates it and every later one.
RerateOpt = Annotated[bool, typer.Option(
    "--rerate", metavar="", help="In a closed period: re-rate it and every later closed period "
    "with the corrected facts (each gets its next revision).")]


def _stdout_fails() -> bool:
    """Whether standard output cannot take what is written to it (a full disk): flushing it
    fails."""
    try:
        sys.stdout.flush()
    except OSError:
        return True
    return False


def _drop_stdout() -> None:
    """Send what standard output still holds, and anything written to it later, nowhere, so
    that Python's own flush at exit does not fail on it again. (The ``os.devnull`` device is
    only written to, never replaced.)"""
    try:
        fd = sys.stdout.fileno()
    except (OSError, ValueError):  # not a real file (tests): it will not fail again
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


#: What only a write says (the disk or the quota is full, the file too large): without a file
#: named, that write was to standard output (files are written by the layers that word their
#: errors themselves).
_WRITE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


def os_error_message(exc: OSError) -> str:
    """An ``OSError`` that no layer worded, as the message says it: the file it names (or
    standard output, when that is what fails) and the system's reason (``File name too
    long``, ``Permission denied``, ``No space left on device``)."""
    reason = exc.strerror or str(exc)
    names = [os.fsdecode(name) for name in (exc.filename, exc.filename2) if name is not None]
    if names:
        return f"cannot use {' or '.join(names)}: {reason}"
    if exc.errno in _WRITE_ERRNOS or _stdout_fails():
        _drop_stdout()
        return f"cannot write to standard output: {reason}"
    return reason


def fail_on_os_error(exc: OSError) -> NoReturn:
    """End the command on ``exc``: a closed pipe on standard output (a reader that has gone,
    ``ledger list | head -1``) quietly, any other error with its message on stderr
    (``os_error_message``); exit 1 either way (Python's own advice for a closed pipe)."""
    if isinstance(exc, BrokenPipeError) and exc.filename is None:
        _drop_stdout()
    else:
        error(os_error_message(exc))
    raise SystemExit(1)


def finish_output() -> None:
    """Flush standard output at the end of a command, so that a full disk or a closed pipe
    ends it here (``fail_on_os_error``) rather than in a traceback as Python exits."""
    try:
        sys.stdout.flush()
    except OSError as exc:
        fail_on_os_error(exc)


def reports_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """Decorate a command: a ``LedgerError`` becomes a message on stderr and its exit code
    (``ImportRejected`` lists its problems first); a database error that no service worded
    is worded by ``errors.database_error``, the one place that does it; an ``OSError`` no
    layer worded (a name too long, no permission, a full disk or a closed pipe on standard
    output) ends it with exit 1 (``fail_on_os_error``). Standard output is flushed before the
    command ends (``finish_output``)."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            try:
                return fn(*args, **kwargs)
            finally:
                finish_output()
        except OSError as exc:
            fail_on_os_error(exc)
        except ImportRejected as exc:
            problems(exc.problems)
            error(str(exc))
            raise typer.Exit(exc.exit_code) from None
        except LedgerError as exc:
            error(str(exc))
            raise typer.Exit(exc.exit_code) from None
        except Exception as exc:
            from sqlalchemy.exc import SQLAlchemyError  # loaded already if a database was used
            if not isinstance(exc, SQLAlchemyError):
                raise
            worded = database_error(exc, None)
            error(str(worded))
            raise typer.Exit(worded.exit_code) from None

    return wrapper


def db_of(ctx: typer.Context) -> str:
    """The database the command runs on: the global ``--db``, else ``$LEDGER_DB``, else
    ``./ledger.db`` (``ledger.config.resolve_db``)."""
    obj: dict[str, Any] = ctx.obj or {}
    return resolve_db(obj.get("db"))


def run(ctx: typer.Context, service: Callable[..., R], *args: Any, **kwargs: Any) -> R:
    """Open the ledger (refusing one that needs ``ledger init``: ``NeedsInit``, exit 4), call
    ``service(engine, *args, **kwargs)`` (again, a bounded number of times, when the database
    gave it up for another writer's sake: ``services.core.session.retrying``) and close the ledger;
    returns what the service returns."""
    from ledger.services.core.session import open_ledger, retrying  # the database layer: on use
    engine = open_ledger(db_of(ctx))
    try:
        return retrying(lambda: service(engine, *args, **kwargs))
    finally:
        engine.dispose()


def run_write(ctx: typer.Context, service: Callable[..., R], *args: Any, **kwargs: Any) -> R:
    """``run`` for a service that writes: it gets ``actor=actor_of(ctx)`` too, so every change
    it records says who asked and the command line."""
    return run(ctx, service, *args, actor=actor_of(ctx), **kwargs)


def _without_password(arg: str) -> str:
    """A database URL with its password hidden (``--db postgresql://u:secret@h/db``, and
    ``--db=postgresql://u:secret@h/db``, ``--to ...``: ``errors.hide_passwords``); any other
    argument as it is."""
    return hide_passwords(arg)


def actor_of(ctx: typer.Context) -> Actor:
    """Who is writing: ``--by NAME``, else ``$LEDGER_USER``, else the login name
    (``getpass.getuser()``; ``unknown`` when the system has none), and the command line as
    typed (a database password hidden). Raises ``InvalidInput`` naming ``by`` for an empty or
    malformed name."""
    obj: dict[str, Any] = ctx.obj or {}
    by = obj.get("by")
    if by is None:
        by = os.environ.get(USER_ENV)
    if by is None:
        try:
            by = getpass.getuser()
        except (OSError, KeyError):
            by = "unknown"
    argv = ctx.meta.get(ARGV_KEY, [])
    return Actor(by, shlex.join(["ledger", *(_without_password(a) for a in argv)]))


@contextlib.contextmanager
def rejection_as_json(file: Path, json_out: bool) -> Iterator[None]:
    """With ``--json``, a rejected import also prints its problems as JSON on stdout
    (``render.imports.import_rejected_json``); the error itself goes on to ``reports_errors``."""
    try:
        yield
    except ImportRejected as exc:
        if json_out:
            from ledger.cli.render.imports import import_rejected_json  # `import` only
            import_rejected_json(str(file), exc.problems, exc.similar)
        raise
