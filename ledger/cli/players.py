"""``ledger player``: register players and look them up."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger.cli import render
from ledger.cli.common import JsonOpt, PlayerArg, reports_errors, run, run_write
from ledger.services import players

player_app = typer.Typer(help="Register players and look them up.", no_args_is_help=True)


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
    new: Annotated[bool, typer.Option(
        "--new", metavar="", help="Another person than the player of the same name.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Register a player with the history FIDE's K rules need.

    A name already in the ledger (case, accents and word order aside) needs --new.
    """
    view = run_write(ctx, players.add_player, players.NewPlayer(
        name=name, fide_id=fide_id, birth_year=birth_year,
        sex=sex.upper() if sex else None, federation=federation.upper() if federation else None,
        title=title.upper() if title else None, rating=rating, prior_games=prior_games,
        reached_2400=reached_2400, reached_2300=reached_2300), new=new)
    render.player(view, json_out, added=True)


@player_app.command("list")
@reports_errors
def player_list(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """List every player with the rating in force for the next close."""
    render.player_list(run(ctx, players.list_players), json_out)


@player_app.command("show")
@reports_errors
def player_show(
    ctx: typer.Context,
    player: PlayerArg,
    json_out: JsonOpt = False,
) -> None:
    """Show one player: rating, K and why, rated games, history known or not."""
    render.player(run(ctx, players.show_player, player), json_out)
