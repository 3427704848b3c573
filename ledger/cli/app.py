"""The ``ledger`` command line: builds the app and names every command group and command.

Each command lives in the module of its noun (``cli.players``, ``cli.games``, ``cli.events``,
``cli.periods``, ``cli.imports``, ``cli.lists``, ``cli.calc``, ``cli.lookup``, ``cli.export``,
``cli.database``, ``cli.audit``, ``cli.site``) and uses the shared plumbing of ``cli.common``;
nothing imports this module but the entry point. ``COMMANDS`` names each command by its
module and attribute, which are imported only when that command runs (``cli.tree.LazyGroup``:
``ledger --help`` and ``ledger calc ...`` load no database layer, no renderer they do not use).
"""

from __future__ import annotations

import sys
from typing import Annotated

from ledger.cli.collector import freeze_start_up, start_up_imports
from ledger.config import ENV_VAR, USER_ENV

with start_up_imports():  # Typer and Click, the first of the start-up imports (cli.collector)
    import typer

    from ledger.cli.tree import LazyGroup, lazy_commands

#: Every command: (name, module under ``ledger.cli``, attribute, the first paragraph of its
#: help as ``ledger --help`` lists it), in the listing's order (single commands, then groups).
#: tests/cli/test_cli.py checks each summary against the command's own help.
COMMANDS = lazy_commands([
    ("init", "database", "init",
     "Create the ledger database, or upgrade an older one to the latest schema."),
    ("import", "imports", "import_file",
     "Import a TRF, PGN or CSV file, or a FIDE rating list: all or nothing."),
    ("list", "lists", "rating_list",
     "Print the rating list published by closing a period, or write it as CSV, TXT or HTML."),
    ("history", "lists", "history",
     "Show a player's rating history in one pool: a row per rated period, the peak, a "
     "sparkline."),
    ("performance", "lookup", "performance",
     "Performance rating Rp = Ra + dp over an event or a period, and norms."),
    ("whatif", "lookup", "whatif",
     "What a win, a draw or a loss would do to both players' ratings this period."),
    ("audit", "audit", "audit",
     "Show the audit log: who changed what, when, why and with which command."),
    ("verify", "verify", "verify",
     "Recount a bundle's rating list from the bundle alone and compare every row and digest."),
    ("serve", "serve", "serve",
     "Serve the ledger on the web: the live site, the JSON API, logins, submissions."),
    ("player", "players", "player_app",
     "Register players, look them up, edit, merge and correct them."),
    ("game", "games", "game_app", "Record games, list them, void and correct them."),
    ("imports", "imported", "imports_app",
     "List the files imported, and take a wrong import back."),
    ("event", "events", "event_app", "The events the ledger records."),
    ("period", "periods", "period_app",
     "Close rating periods, list the closed ones, reopen and re-rate."),
    ("calc", "calc", "calc_app",
     "Rating calculators: expected score (PD), a period's rating change, the expected-score "
     "table (no database needed)."),
    ("export", "export", "export_app", "Write ledger data as files other programs read."),
    ("db", "database", "db_app",
     "Check the ledger database, back it up, copy it to another database."),
    ("site", "site", "site_app",
     "The club's website: rating lists, players and tournaments as static pages."),
    ("keys", "verify", "keys_app",
     "The Ed25519 key pair that signs the lists' manifests."),
    ("user", "users", "user_app",
     "The web's users (ledger serve): add them, list them, change a role, a forgotten "
     "password, disable one."),
])


class _AppGroup(LazyGroup):
    """The ``ledger`` group: ``COMMANDS``, loaded as they are used."""

    LAZY = COMMANDS


app = typer.Typer(
    name="ledger",
    help="A FIDE rating ledger: record games, close monthly rating periods, publish rating lists.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    cls=_AppGroup,
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


def main() -> None:
    """Console-script entry point: standard output is flushed before the end, and an ``OSError``
    met outside a command (writing ``--help`` to a full disk) or in that flush ends it as in a
    command (``common.fail_on_os_error``, imported only then). The command's start-up imports
    are frozen out of the garbage collector's later passes (``collector.freeze_start_up``: one
    command, then the process ends)."""
    freeze_start_up()
    try:
        try:
            app()
        finally:
            sys.stdout.flush()  # here, so that a full disk or a closed pipe is met below
    except OSError as exc:  # met outside any command (writing --help), or in the flush
        from ledger.cli.common import fail_on_os_error  # Rich and the renderers: on error only
        fail_on_os_error(exc)
