"""The ``ledger`` command line: parse arguments, call one service, render a Rich table or JSON.

Exit codes (shared/DESIGN.md): 0 ok, 1 refused by the ledger, 2 usage, 3 import rejected,
4 the database needs ``ledger init``. Errors go to stderr.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar

import typer
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from ledger.cli import list_import, publish, render, render_reports
from ledger.cli.progress import import_progress
from ledger.config import ENV_VAR, resolve_db
from ledger.errors import ImportRejected, LedgerError, database_reason
from ledger.formats.fide_list import POOLS
from ledger.services import fide_lists, games, imports, lists, periods, players
from ledger.services.session import init_ledger, open_ledger

app = typer.Typer(
    name="ledger",
    help="A FIDE rating ledger: record games, close monthly rating periods, publish rating lists.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
player_app = typer.Typer(help="Register players and look them up.", no_args_is_help=True)
game_app = typer.Typer(help="Record games and list them.", no_args_is_help=True)
period_app = typer.Typer(help="Close rating periods and list the closed ones.",
                         no_args_is_help=True)
app.add_typer(player_app, name="player")
app.add_typer(game_app, name="game")
app.add_typer(period_app, name="period")

P = ParamSpec("P")
R = TypeVar("R")

JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout.", metavar="")]


def reports_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """Turn a ``LedgerError`` into a message on stderr and its exit code."""

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
            render.error(f"database error: {database_reason(exc)}")
            raise typer.Exit(1) from None

    return wrapper


def _run(ctx: typer.Context, service: Callable[..., R], *args: Any, **kwargs: Any) -> R:
    """Open the ledger (refusing one that needs ``ledger init``), call one service, close it."""
    engine = open_ledger(_db(ctx))
    try:
        return service(engine, *args, **kwargs)
    finally:
        engine.dispose()


def _db(ctx: typer.Context) -> str:
    obj: dict[str, Any] = ctx.obj or {}
    return resolve_db(obj.get("db"))


@app.callback()
def main_callback(
    ctx: typer.Context,
    db: Annotated[str | None, typer.Option(
        "--db", help=f"Ledger database: a SQLite file or a SQLAlchemy URL "
        f"(default: ${ENV_VAR}, then ./ledger.db).", show_default=False)] = None,
) -> None:
    """A FIDE rating ledger: record games, close monthly rating periods, publish rating lists."""
    ctx.obj = {"db": db}


@app.command()
@reports_errors
def init(ctx: typer.Context) -> None:
    """Create the ledger database, or upgrade an older one to the latest schema."""
    db = _db(ctx)
    before, after = init_ledger(db)
    db = (make_url(db).render_as_string(hide_password=True) if "://" in db
          else str(Path(db).resolve()))
    if before == after:
        render.say(f"ledger at {db} is up to date (revision {after})")
    elif before is None:
        render.say(f"created ledger at {db} (revision {after})")
    else:
        render.say(f"upgraded ledger at {db} from revision {before} to {after}")


@player_app.command("add")
@reports_errors
def player_add(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help='Name as "Surname, Name".')],
    fide_id: Annotated[int | None, typer.Option("--fide-id", help="FIDE id.")] = None,
    birth_year: Annotated[int | None, typer.Option("--birth-year", help="Year of birth.")] = None,
    sex: Annotated[str | None, typer.Option("--sex", help="M or F.")] = None,
    federation: Annotated[str | None, typer.Option("--federation", help="e.g. ENG.")] = None,
    title: Annotated[str | None, typer.Option("--title", help="GM, IM, FM, CM, WGM ...")] = None,
    rating: Annotated[int | None, typer.Option(
        "--rating", help="Published rating the player brings (omit: unrated).")] = None,
    prior_games: Annotated[int, typer.Option(
        "--prior-games", help="Rated games played before entering the ledger.")] = 0,
    reached_2400: Annotated[bool, typer.Option(
        "--reached-2400", metavar="", help="A published rating has reached 2400 (K 10 for ever).")] = False,
    reached_2300: Annotated[bool, typer.Option(
        "--reached-2300", metavar="", help="A published rating has reached 2300 (no junior K 40).")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Register a player with the history FIDE's K rules need."""
    view = _run(ctx, players.add_player, players.NewPlayer(
        name=name, fide_id=fide_id, birth_year=birth_year,
        sex=sex.upper() if sex else None, federation=federation.upper() if federation else None,
        title=title.upper() if title else None, rating=rating, prior_games=prior_games,
        reached_2400=reached_2400, reached_2300=reached_2300))
    render.player(view, json_out, added=True)


@player_app.command("list")
@reports_errors
def player_list(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """List every player with the rating in force for the next close."""
    render.player_list(_run(ctx, players.list_players), json_out)


@player_app.command("show")
@reports_errors
def player_show(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(help="Id (#12), FIDE id, or unambiguous name.")],
    json_out: JsonOpt = False,
) -> None:
    """Show one player: rating, K and why, rated games, history known or not."""
    render.player(_run(ctx, players.show_player, player), json_out)


@game_app.command("add", context_settings={"ignore_unknown_options": True})
@reports_errors
def game_add(
    ctx: typer.Context,
    white: Annotated[str, typer.Argument(help="White: id, FIDE id or name.")],
    black: Annotated[str, typer.Argument(help="Black: id, FIDE id or name.")],
    result: Annotated[str, typer.Argument(
        help="1-0, 0-1, 1/2-1/2 (or ½-½); forfeits +/-, -/+, -/- are recorded, never rated.")],
    date: Annotated[str, typer.Option("--date", help="Date played, YYYY-MM-DD.")],
    event: Annotated[str | None, typer.Option("--event", help="Event name.")] = None,
    round_: Annotated[str | None, typer.Option("--round", help="Round, e.g. 3 or 3.1.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Record one game."""
    view = _run(ctx, games.add_game, white, black, result, date, event, round_)
    render.game_list([view], json_out, title="Recorded")


@game_app.command("list")
@reports_errors
def game_list(
    ctx: typer.Context,
    period: Annotated[str | None, typer.Option("--period", help="YYYY-MM.")] = None,
    player: Annotated[str | None, typer.Option("--player", help="Only this player's games.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """List recorded games by date."""
    render.game_list(_run(ctx, games.list_games, period, player), json_out)


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


@app.command("import")
@reports_errors
def import_file(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="A TRF, PGN or CSV file, or a FIDE rating list.", exists=True,
                                         dir_okay=False)],
    fmt: Annotated[str | None, typer.Option(
        "--format", help=f"One of {', '.join(imports.READERS)} (default: from the content, "
        "else the extension), or fide-list (a FIDE rating list, TXT of any era or XML: "
        "needs --list-date).")] = None,
    register_players: Annotated[bool, typer.Option(
        "--register-players", metavar="", help="Register unknown players from the file.")] = False,
    ids: Annotated[str, typer.Option(
        "--ids", help="What the file's id column holds: fide (default) or national (a "
        "federation's own ids, as in Krause files: ignored for matching).")] = "fide",
    dry_run: Annotated[bool, typer.Option(
        "--dry-run", metavar="", help="Report what would happen; write nothing.")] = False,
    list_date: Annotated[str | None, typer.Option(
        "--list-date", help="fide-list: the list's date, YYYY-MM-DD.")] = None,
    pool: Annotated[str | None, typer.Option(
        "--pool", help="fide-list: standard, rapid or blitz: the columns of a combined list "
        "(default: standard), or the pool of a single list (required: it does not say).",
        show_default=False)] = None,
    end_date: Annotated[dt.datetime | None, typer.Option(
        "--end-date", formats=["%Y-%m-%d"], metavar="YYYY-MM-DD",
        help="TRF: the event's end date, for a TRF that gives none (no 052 and no 132 record); "
        "the start date is 042's, else the end date. Refused if the file's own dates differ, "
        "and for PGN or CSV.")] = None,
    quiet: Annotated[bool, typer.Option(
        "--quiet", metavar="", help="No progress bar.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Import a TRF, PGN or CSV file, or a FIDE rating list: all or nothing.

    Errors name the file, the line and the field or column; nothing is written while any remains.
    """
    if fmt == "fide-list" or list_date is not None or pool is not None:
        if end_date is not None:
            render.error("--end-date is for a TRF without dates, not for a FIDE rating list")
            raise typer.Exit(2)
        fide_list_import(ctx, file, fmt, list_date, pool, dry_run, quiet, json_out)
        return
    with rejection_as_json(file, json_out), import_progress(file, quiet or json_out) as progress:
        report = _run(ctx, imports.import_file, str(file), fmt, register_players=register_players,
                      ids=ids, dry_run=dry_run, progress=progress,
                      end_date=end_date.date() if end_date is not None else None)
    render.import_report(report, json_out)


def fide_list_import(ctx: typer.Context, file: Path, format_: str | None, list_date: str | None,
                     pool: str | None, dry_run: bool, quiet: bool, json_out: bool) -> None:
    """``ledger import LIST --format fide-list --list-date YYYY-MM-DD [--pool P]``; each usage
    error names exactly what is missing or wrong (exit 2)."""
    if format_ != "fide-list":
        given = " and ".join(opt for opt, value in (("--list-date", list_date), ("--pool", pool))
                             if value is not None)
        render.error(f"{given} {'is' if ' and ' not in given else 'are'} for a FIDE rating "
                     "list: add --format fide-list")
        raise typer.Exit(2)
    if list_date is None:
        render.error("a FIDE rating list needs --list-date YYYY-MM-DD: the date of the list")
        raise typer.Exit(2)
    if pool is not None and pool not in POOLS:
        render.error(f"--pool {pool!r}: use {'|'.join(POOLS)}")
        raise typer.Exit(2)
    with rejection_as_json(file, json_out), import_progress(file, quiet or json_out) as progress:
        report = _run(ctx, fide_lists.import_fide_list, str(file), list_date=list_date, pool=pool,
                      dry_run=dry_run, progress=progress)
    list_import.list_import_report(report, json_out)


@period_app.command("close")
@reports_errors
def period_close(
    ctx: typer.Context,
    period: Annotated[str | None, typer.Argument(
        help="YYYY-MM (default: the earliest open period with games).")] = None,
    dry_run: Annotated[bool, typer.Option(
        "--dry-run", metavar="", help="Show the full computation; write nothing.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Close a rating period under FIDE's rules and publish its rating list."""
    report = _run(ctx, periods.close_period, period, dry_run=dry_run)
    render.close_report(report, json_out)


@period_app.command("list")
@reports_errors
def period_list(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """List closed periods with their rule edition."""
    render.period_list(_run(ctx, periods.list_periods), json_out)


@app.command("list")
@reports_errors
def rating_list(
    ctx: typer.Context,
    period: Annotated[str | None, typer.Option(
        "--period", help="YYYY-MM (default: the latest closed period).")] = None,
    fmt: Annotated[publish.ListFormat | None, typer.Option(
        "--format", help="table, csv, json, txt (FIDE's fixed columns) or html (default: "
        "from the --output extension, else table).")] = None,
    output: Annotated[Path | None, typer.Option(
        "--output", help="Write to this file instead of stdout.", dir_okay=False)] = None,
    club: Annotated[str | None, typer.Option(
        "--club", help=f"Club name heading the html page (default: ${publish.CLUB_ENV}).")] = None,
    federation: Annotated[str | None, typer.Option("--federation", help="Only this federation.")] = None,
    sex: Annotated[str | None, typer.Option("--sex", help="Only M or only F.")] = None,
    junior: Annotated[bool, typer.Option(
        "--junior", metavar="", help="Only juniors: 18 or under in the list's year.")] = False,
    min_games: Annotated[int | None, typer.Option(
        "--min-games", help="Only players with at least N rated games in the period.")] = None,
    top: Annotated[int | None, typer.Option(
        "--top", help="Only ranks 1 to N (ties at rank N all kept).")] = None,
    active: Annotated[bool, typer.Option(
        "--active", metavar="", help="Only active players (leave out those flagged i).")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Print the rating list published by closing a period, or write it as CSV, TXT or HTML.

    Flag i: inactive (no rated game in the last 12 rating periods).

    The txt and csv lists write FIDE's flag: w woman, i inactive, wi both.
    """
    chosen = publish.choose_format(fmt, json_out, output)
    selection = lists.ListSelection(federation.upper() if federation else None,
                                    sex.upper() if sex else None, junior, min_games, top, active)
    publish.publish(_run(ctx, lists.rating_list, period, selection), chosen, output, club)


@app.command("history")
@reports_errors
def history(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(help="Id (#12), FIDE id, or unambiguous name.")],
    chart: Annotated[Path | None, typer.Option(
        "--chart", help="Also draw rating over time into this PNG (800 x 400).", dir_okay=False)] = None,
    json_out: JsonOpt = False,
) -> None:
    """Show a player's rating history, one row per rated period, with the peak and a sparkline."""
    if chart is not None and chart.suffix and chart.suffix.lower() != ".png":
        render.error(f"--chart {chart}: the chart is a PNG image; name the file .png")
        raise typer.Exit(2)
    render_reports.history(_run(ctx, lists.history, player), json_out, chart)


def main() -> None:
    """Console-script entry point."""
    app()


# Command modules that use ``app``, ``reports_errors`` and ``_run`` above and register themselves:
# `calc`, `performance`, `whatif`, `period report`, and the `export` group.
from ledger.cli import calc, export, lookup, period_report  # noqa: E402, F401

app.add_typer(export.export_app, name="export")
