"""What every command module shares: the ``--json`` option, opening the ledger around one
service call, and turning the ledger's errors into a message on stderr and an exit code.

Exit codes (shared/DESIGN.md): 0 ok, 1 refused by the ledger, 2 usage, 3 import rejected,
4 the database needs ``ledger init``. Errors go to stderr.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar

import typer
from sqlalchemy.exc import SQLAlchemyError

from ledger.cli import render
from ledger.config import resolve_db
from ledger.errors import ImportRejected, LedgerError, database_error
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


@contextlib.contextmanager
def rejection_as_json(file: Path, json_out: bool) -> Iterator[None]:
    """With ``--json``, a rejected import also prints its problems as JSON on stdout
    (``render.import_rejected_json``); the error itself goes on to ``reports_errors``."""
    try:
        yield
    except ImportRejected as exc:
        if json_out:
            render.import_rejected_json(str(file), exc.problems)
        raise
