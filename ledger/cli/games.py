"""``ledger game``: record games, list them, void and correct them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli.common import (
    DryRunOpt,
    InNextPeriodOpt,
    JsonOpt,
    NewEventOpt,
    ReasonOpt,
    RerateOpt,
    reports_errors,
    run,
    run_write,
)
from ledger.cli.lazy import lazy
from ledger.cli.render import corrections as render_corrections
from ledger.cli.render import games as render_games

if TYPE_CHECKING:
    from ledger.services.corrections import games as corrections
    from ledger.services.register import game_views, games
else:
    corrections = lazy("ledger.services.corrections.games")
    game_views = lazy("ledger.services.register.game_views")
    games = lazy("ledger.services.register.games")

game_app = typer.Typer(help="Record games, list them, void and correct them.",
                       no_args_is_help=True)

#: The ID argument of ``game void`` and ``game correct``.
GameArg = Annotated[str, typer.Argument(help="The game's id (as game list shows it).")]


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
    round_: Annotated[str | None, typer.Option(
        "--round", help="Round, e.g. 3 or 3.1 (round 3, board 1: the same round as 3).")] = None,
    allow_similar: Annotated[bool, typer.Option(
        "--allow-similar", metavar="", help="Record it although the ledger has a game with the "
        "same players and result on the same date in another event (or without one), in "
        "another event whose dates hold this date, or in this event with and without a round: "
        "they are different games.")] = False,
    rerate: Annotated[bool, typer.Option(
        "--rerate", metavar="", help="A late result (dated in a closed period): record it in "
        "its own period and re-rate from there (needs --reason), instead of rating it in the "
        "earliest open period.")] = False,
    reason: ReasonOpt = None,
    late: Annotated[bool, typer.Option(
        "--late", metavar="", help="The date is meant although it lies more than two periods "
        "before the earliest open period (without it such a date is refused as a likely typo): "
        "a late result, rated in the earliest open period.")] = False,
    pool: Annotated[str | None, typer.Option(
        "--pool", help="The game's rating pool: standard (default), rapid or blitz.")] = None,
    time_control: Annotated[str | None, typer.Option(
        "--time-control", help="Base minutes + increment seconds (15+10: rapid; 3+2: blitz); "
        "gives the pool, and must agree with --pool.")] = None,
    new_event: NewEventOpt = False,
    dry_run: DryRunOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Record one game.

    A game dated in a closed period is a late result, rated in its pool's earliest open period.

    A date more than two periods before that one is refused as a typo unless --late says it is meant.
    """
    view = run_write(ctx, games.add_game, white, black, result, date, event, round_,
                     allow_similar=allow_similar, rerate=rerate, reason=reason,
                     dry_run=dry_run, pool=pool, time_control=time_control, late=late,
                     new_event=new_event)
    render_corrections.added_game(view, json_out, dry_run=dry_run)


@game_app.command("list")
@reports_errors
def game_list(
    ctx: typer.Context,
    period: Annotated[str | None, typer.Option("--period", help="YYYY-MM.")] = None,
    player: Annotated[str | None, typer.Option("--player", help="Only this player's games.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """List recorded games by date (late results and void games marked)."""
    render_games.game_list(run(ctx, game_views.list_games, period, player), json_out)


@game_app.command("void")
@reports_errors
def game_void(
    ctx: typer.Context,
    games: Annotated[list[str], typer.Argument(
        metavar="ID...", help="The games' ids (as game list shows them): one or more.")],
    reason: ReasonOpt = None,
    in_next_period: InNextPeriodOpt = False,
    rerate: RerateOpt = False,
    dry_run: DryRunOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Void games that never happened: kept, marked void, never rated; all or nothing.

    In a closed period, say how it takes effect: --in-next-period or --rerate.
    """
    render_corrections.voided(run_write(
        ctx, corrections.void_games, games, reason=reason, in_next_period=in_next_period,
        rerate=rerate, dry_run=dry_run), json_out)


@game_app.command("correct")
@reports_errors
def game_correct(
    ctx: typer.Context,
    game: GameArg,
    result: Annotated[str | None, typer.Option(
        "--result", help="The right result: 1-0, 0-1, 1/2-1/2 (or ½-½), +/-, -/+, -/-.")] = None,
    date: Annotated[str | None, typer.Option(
        "--date", help="The right date, YYYY-MM-DD (within its event's dates).")] = None,
    white: Annotated[str | None, typer.Option("--white", help="The right White.")] = None,
    black: Annotated[str | None, typer.Option("--black", help="The right Black.")] = None,
    event: Annotated[str | None, typer.Option(
        "--event", help="The right event: id (#3) or name (the date within its dates).")] = None,
    reason: ReasonOpt = None,
    in_next_period: InNextPeriodOpt = False,
    rerate: RerateOpt = False,
    dry_run: DryRunOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Correct a game: its result, date, players (colours) or event.

    In a closed period, say how it takes effect: --in-next-period or --rerate.
    """
    fix = corrections.GameFix(result=result, date=date, white=white, black=black, event=event)
    render_corrections.correction(run_write(
        ctx, corrections.correct_game, game, fix, reason=reason, in_next_period=in_next_period,
        rerate=rerate, dry_run=dry_run), json_out)
