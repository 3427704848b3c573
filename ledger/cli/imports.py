"""``ledger import``: a TRF, PGN or CSV file of games, or a FIDE rating list, all or nothing."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli.common import (
    InNextPeriodOpt,
    JsonOpt,
    NewEventOpt,
    ReasonOpt,
    rejection_as_json,
    reports_errors,
    run_write,
)
from ledger.cli.lazy import lazy
from ledger.cli.progress import import_progress
from ledger.cli.render import imports as render_imports
from ledger.cli.render.output import error
from ledger.domain import POOLS
from ledger.formats.detect import starts_as_fide_list
from ledger.services.imports.input_files import file_head

if TYPE_CHECKING:
    from ledger.cli.render import corrections as render_corrections
    from ledger.services.corrections import replace
    from ledger.services.imports import fide_lists
    from ledger.services.imports import games as imports
    from ledger.services.imports import players as player_import
else:  # --replace's renderer, with its Rich tables, on use (import --json loads no Rich)
    render_corrections = lazy("ledger.cli.render.corrections")
    fide_lists = lazy("ledger.services.imports.fide_lists")
    imports = lazy("ledger.services.imports.games")
    player_import = lazy("ledger.services.imports.players")
    replace = lazy("ledger.services.corrections.replace")


@reports_errors
def import_file(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="A TRF, PGN or CSV file, or a FIDE rating list.")],
    fmt: Annotated[str | None, typer.Option(
        "--format", help="One of pgn, trf, csv (default: from the content, "
        "else the extension), fide-list (a FIDE rating list, TXT of any era or XML: "
        "needs --list-date), or players (a register of players, CSV: name, fide_id, "
        "birth_year, sex, federation, title, rating, prior_games, reached_2400, reached_2300, "
        "new).")] = None,
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
        "--pool", help="standard, rapid or blitz. A file of games: the event's pool, for games "
        "whose file gives no time control (default: standard; a time control that disagrees is "
        "an error). fide-list: the columns of a combined list (default: standard), or the pool "
        "of a single list (required: it does not say).",
        show_default=False)] = None,
    end_date: Annotated[dt.datetime | None, typer.Option(
        "--end-date", formats=["%Y-%m-%d"], metavar="YYYY-MM-DD",
        help="TRF: the event's end date, for a TRF that gives none (no 052 and no 132 record); "
        "the start date is 042's, else the end date. Refused if the file's own dates differ, "
        "and for PGN or CSV.")] = None,
    no_moves: Annotated[str | None, typer.Option(
        "--no-moves", help="PGN: its games without moves are played games, rated (played), or "
        "forfeits, never rated (forfeit). Default: a file in which no game has moves is a "
        "results file, its games played; in a file with moves they are forfeits.",
        show_default=False)] = None,
    allow_similar: Annotated[bool, typer.Option(
        "--allow-similar", metavar="", help="Record the file's likely duplicates as different "
        "games, each named in a warning: games with the same players and result as a recorded "
        "game or another of the file, on the same date in another event, within the other's "
        "event dates, or in the same event with and without a round. Without it such games "
        "refuse the import.")] = False,
    new_event: NewEventOpt = False,
    late: Annotated[bool, typer.Option(
        "--late", metavar="", help="The file's dates are meant although some lie more than two "
        "periods before the earliest open period (without it such a game is an error naming "
        "its line, as a likely typo): late results, rated in the earliest open period.")] = False,
    quiet: Annotated[bool, typer.Option(
        "--quiet", metavar="", help="No progress bar, and no warnings or notes on stderr "
        "(errors are always shown; --json lists everything).")] = False,
    replace_event: Annotated[bool, typer.Option(
        "--replace", metavar="", help="The file is a corrected version of an event already "
        "imported: show the difference game by game (added, removed, changed) and apply it "
        "(needs --reason; in a closed period --in-next-period or --rerate).")] = False,
    in_next_period: InNextPeriodOpt = False,
    rerate: Annotated[bool, typer.Option(
        "--rerate", metavar="", help="Late results (or --replace of a closed event): record "
        "them in their own period and re-rate from there (needs --reason).")] = False,
    reason: ReasonOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Import a TRF, PGN or CSV file, or a FIDE rating list: all or nothing.

    Errors name the file, the line and the field or column; nothing is written while any remains.

    Games dated in a closed period are late results, rated in the earliest open period.
    """
    if fmt == "players":
        not_for = [opt for opt, value in (
            ("--register-players", register_players), ("--ids", ids != "fide"),
            ("--list-date", list_date is not None), ("--pool", pool is not None),
            ("--end-date", end_date is not None), ("--allow-similar", allow_similar),
            ("--no-moves", no_moves is not None), ("--late", late),
            ("--replace", replace_event), ("--in-next-period", in_next_period),
            ("--rerate", rerate), ("--reason", reason is not None),
            ("--new-event", new_event)) if value]
        if not_for:
            error(f"{', '.join(not_for)}: not for a register of players (--format players)")
            raise typer.Exit(2)
        with rejection_as_json(file, json_out):
            registered = run_write(ctx, player_import.import_players, str(file), dry_run=dry_run)
        render_imports.players_import_report(registered, json_out, quiet=quiet)
        return
    if fmt == "fide-list" or list_date is not None or (pool is not None and _is_a_list(file)):
        for given, what in ((end_date, "--end-date is for a TRF without dates"),
                            (no_moves, "--no-moves is for a PGN file"),
                            (late, "--late is for a file of games"),
                            (allow_similar, "--allow-similar is for a file of games"),
                            (replace_event, "--replace is for a file of games"),
                            (new_event, "--new-event is for a file of games"),
                            (in_next_period or rerate, "--in-next-period and --rerate are for "
                             "a file of games")):
            if given:
                error(f"{what}, not for a FIDE rating list")
                raise typer.Exit(2)
        fide_list_import(ctx, file, fmt, list_date, pool, dry_run, quiet, json_out)
        return
    if replace_event:
        if new_event:
            error("--new-event is for a file of games imported anew, not for --replace (the "
                  "event it replaces is recorded)")
            raise typer.Exit(2)
        if late:
            error("--late is for a new file of games; --replace takes effect by "
                  "--in-next-period or --rerate")
            raise typer.Exit(2)
        with rejection_as_json(file, json_out):
            replaced = run_write(ctx, replace.replace_event, str(file), fmt, reason=reason,
                                 in_next_period=in_next_period, rerate=rerate, dry_run=dry_run,
                                 register_players=register_players, ids=ids, no_moves=no_moves,
                                 end_date=end_date.date() if end_date is not None else None)
        render_corrections.replace_report(replaced, json_out, quiet=quiet)
        return
    if in_next_period:
        error("--in-next-period is for --replace; late results go into the earliest "
              "open period without it")
        raise typer.Exit(2)
    with rejection_as_json(file, json_out), import_progress(file, quiet or json_out) as progress:
        report = run_write(ctx, imports.import_file, str(file), fmt,
                           register_players=register_players, ids=ids, dry_run=dry_run,
                           progress=progress, allow_similar=allow_similar,
                           end_date=end_date.date() if end_date is not None else None,
                           rerate=rerate, reason=reason, pool=pool, no_moves=no_moves,
                           late=late, new_event=new_event)
    render_imports.import_report(report, json_out, quiet=quiet)


def _is_a_list(file: Path) -> bool:
    """Whether ``file`` starts as a FIDE rating list does (``ID Number`` or ``<playerslist``),
    so that ``--pool`` alone is read as a list's pool, with its usage error."""
    try:
        return starts_as_fide_list(file_head(str(file), 200))
    except OSError:
        return False


def fide_list_import(ctx: typer.Context, file: Path, format_: str | None, list_date: str | None,
                     pool: str | None, dry_run: bool, quiet: bool, json_out: bool) -> None:
    """``ledger import LIST --format fide-list --list-date YYYY-MM-DD [--pool P]``; each usage
    error names exactly what is missing or wrong (exit 2)."""
    if format_ != "fide-list":
        given = " and ".join(opt for opt, value in (("--list-date", list_date), ("--pool", pool))
                             if value is not None)
        error(f"{given} {'is' if ' and ' not in given else 'are'} for a FIDE rating "
              "list: add --format fide-list")
        raise typer.Exit(2)
    if list_date is None:
        error("a FIDE rating list needs --list-date YYYY-MM-DD: the date of the list")
        raise typer.Exit(2)
    if pool is not None and pool not in POOLS:
        error(f"--pool {pool!r}: use {'|'.join(POOLS)}")
        raise typer.Exit(2)
    with rejection_as_json(file, json_out), import_progress(file, quiet or json_out) as progress:
        report = run_write(ctx, fide_lists.import_fide_list, str(file), list_date=list_date, pool=pool,
                      dry_run=dry_run, progress=progress)
    render_imports.list_import_report(report, json_out, quiet=quiet)
