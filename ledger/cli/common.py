"""What every command module shares: the ``--json`` option, opening the ledger around one
service call, and turning the ledger's errors into a message on stderr and an exit code.

Exit codes (shared/DESIGN.md): 0 ok, 1 refused by the ledger, 2 usage, 3 import rejected,
4 the database needs ``ledger init``. Errors go to stderr.
"""

from __future__ import annotations

import contextlib
import functools
import getpass
import os
import shlex
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar

import typer
from sqlalchemy.exc import SQLAlchemyError
from typer.core import TyperGroup

from ledger.cli import render
from ledger.config import resolve_db
from ledger.domain import Actor
from ledger.errors import ImportRejected, LedgerError, database_error, hide_passwords
from ledger.services.session import open_ledger, retrying

P = ParamSpec("P")
R = TypeVar("R")

#: ``--json`` on every command that reports.
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout.", metavar="")]

#: A PLAYER argument: the same three ways of naming a player in every command.
PlayerArg = Annotated[str, typer.Argument(help="Id (#12), FIDE id, or unambiguous name.")]


def reports_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """Decorate a command: a ``LedgerError`` becomes a message on stderr and its exit code
    (``ImportRejected`` lists its problems first); a database error that no service worded
    is worded by ``errors.database_error``, the one place that does it."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except ImportRejected as exc:
            render.problems(exc.problems)
            render.error(str(exc))
            raise typer.Exit(exc.exit_code) from None
        except LedgerError as exc:
            render.error(str(exc))
            raise typer.Exit(exc.exit_code) from None
        except SQLAlchemyError as exc:
            error = database_error(exc, None)
            render.error(str(error))
            raise typer.Exit(error.exit_code) from None

    return wrapper


def db_of(ctx: typer.Context) -> str:
    """The database the command runs on: the global ``--db``, else ``$LEDGER_DB``, else
    ``./ledger.db`` (``ledger.config.resolve_db``)."""
    obj: dict[str, Any] = ctx.obj or {}
    return resolve_db(obj.get("db"))


def run(ctx: typer.Context, service: Callable[..., R], *args: Any, **kwargs: Any) -> R:
    """Open the ledger (refusing one that needs ``ledger init``: ``NeedsInit``, exit 4), call
    ``service(engine, *args, **kwargs)`` (again, a bounded number of times, when the database
    gave it up for another writer's sake: ``services.session.retrying``) and close the ledger;
    returns what the service returns."""
    engine = open_ledger(db_of(ctx))
    try:
        return retrying(lambda: service(engine, *args, **kwargs))
    finally:
        engine.dispose()


def run_write(ctx: typer.Context, service: Callable[..., R], *args: Any, **kwargs: Any) -> R:
    """``run`` for a service that writes: it gets ``actor=actor_of(ctx)`` too, so every change
    it records says who asked and the command line."""
    return run(ctx, service, *args, actor=actor_of(ctx), **kwargs)


#: The environment variable naming who writes, when ``--by`` does not.
USER_ENV = "LEDGER_USER"
_ARGV = "ledger.argv"


class RecordingGroup(TyperGroup):
    """The app's group: it keeps the arguments it is given (``ctx.meta``), so that a change
    can record the command line as typed (``actor_of``)."""

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:  # type: ignore[override]
        """Keep ``args`` (the command line after ``ledger``), then parse as usual."""
        ctx.meta.setdefault(_ARGV, list(args))
        return super().parse_args(ctx, args)


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
    argv = ctx.meta.get(_ARGV, [])
    return Actor(by, shlex.join(["ledger", *(_without_password(a) for a in argv)]))


@contextlib.contextmanager
def rejection_as_json(file: Path, json_out: bool) -> Iterator[None]:
    """With ``--json``, a rejected import also prints its problems as JSON on stdout
    (``render.import_rejected_json``); the error itself goes on to ``reports_errors``."""
    try:
        yield
    except ImportRejected as exc:
        if json_out:
            render.import_rejected_json(str(file), exc.problems, exc.similar)
        raise
