"""The ``ledger`` command line: builds the app and registers every command group and command.

Each command lives in the module of its noun (``cli.players``, ``cli.games``, ``cli.events``,
``cli.periods``, ``cli.imports``, ``cli.lists``, ``cli.calc``, ``cli.lookup``, ``cli.export``,
``cli.database``, ``cli.audit``, ``cli.site``) and uses the shared plumbing of ``cli.common``;
nothing imports this module but the entry point.
"""

from __future__ import annotations

from typing import Annotated

import typer

from ledger.cli import (
    audit,
    calc,
    database,
    events,
    export,
    games,
    imports,
    lists,
    lookup,
    periods,
    players,
    site,
)
from ledger.cli.common import USER_ENV, RecordingGroup, fail_on_os_error, finish_output
from ledger.config import ENV_VAR

app = typer.Typer(
    name="ledger",
    help="A FIDE rating ledger: record games, close monthly rating periods, publish rating lists.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    cls=RecordingGroup,
)


def _version(shown: bool) -> None:
    if shown:
        from importlib.metadata import version  # 50 ms: only for --version
        typer.echo(f"ledger {version('ledger')}")
        raise typer.Exit()


@app.callback()
def main_callback(
    ctx: typer.Context,
    db: Annotated[str | None, typer.Option(
        "--db", help=f"Ledger database: a SQLite file or a SQLAlchemy URL "
        f"(default: ${ENV_VAR}, then ./ledger.db).", show_default=False)] = None,
    by: Annotated[str | None, typer.Option(
        "--by", help=f"Who is writing, for the audit log (default: ${USER_ENV}, then the "
        "login name).", show_default=False)] = None,
    _: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True, metavar="",
        help="Print the ledger's version and exit.")] = False,
) -> None:
    """A FIDE rating ledger: record games, close monthly rating periods, publish rating lists."""
    ctx.obj = {"db": db, "by": by}


app.command("init")(database.init)
app.add_typer(players.player_app, name="player")
app.add_typer(games.game_app, name="game")
app.add_typer(events.event_app, name="event")
app.add_typer(periods.period_app, name="period")
app.command("import")(imports.import_file)
app.command("list")(lists.rating_list)
app.command("history")(lists.history)
app.command("performance")(lookup.performance)
app.command("whatif")(lookup.whatif)
app.add_typer(calc.calc_app, name="calc")
app.add_typer(export.export_app, name="export")
app.command("audit")(audit.audit)
app.add_typer(database.db_app, name="db")
app.add_typer(site.site_app, name="site")


def main() -> None:
    """Console-script entry point: an ``OSError`` met outside a command (writing ``--help`` to
    a full disk) ends it as in a command (``common.fail_on_os_error``), and standard output is
    flushed before the end (``common.finish_output``)."""
    try:
        app()
    except OSError as exc:  # met outside any command (writing --help)
        fail_on_os_error(exc)
    finally:
        finish_output()
