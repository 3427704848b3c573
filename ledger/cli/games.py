"""``ledger game``: record games and list them."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger.cli import render
from ledger.cli.common import JsonOpt, reports_errors, run, run_write
from ledger.services import games

game_app = typer.Typer(help="Record games and list them.", no_args_is_help=True)


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
        "same players, date and result in another event (or without one): they are different "
        "games.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Record one game."""
    view = run_write(ctx, games.add_game, white, black, result, date, event, round_,
                     allow_similar=allow_similar)
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
    render.game_list(run(ctx, games.list_games, period, player), json_out)
