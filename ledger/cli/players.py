"""``ledger player``: register players, look them up, edit, merge, correct and withdraw them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli.common import (
    DryRunOpt,
    JsonOpt,
    PlayerArg,
    PoolOpt,
    ReasonOpt,
    RerateOpt,
    reports_errors,
    run,
    run_write,
)
from ledger.cli.lazy import lazy
from ledger.cli.render import corrections as render_corrections
from ledger.cli.render import players as render_players
from ledger.cli.render import reverts as render_reverts
from ledger.domain import parse_pool

if TYPE_CHECKING:
    from ledger.services.corrections import merge, player_edit
    from ledger.services.register import player_views, players, withdrawal
else:
    merge = lazy("ledger.services.corrections.merge")
    player_edit = lazy("ledger.services.corrections.player_edit")
    player_views = lazy("ledger.services.register.player_views")
    players = lazy("ledger.services.register.players")
    withdrawal = lazy("ledger.services.register.withdrawal")

player_app = typer.Typer(help="Register players, look them up, edit, merge and correct them.",
                         no_args_is_help=True)


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
    prior_games: Annotated[str | None, typer.Option(
        "--prior-games", metavar="N|unknown", help="Rated games played before entering the "
        "ledger: N (fewer than 30: K 40 until 30), or unknown (treated as established: K 20). "
        "Required with --rating; without a rating, default 0.", show_default=False)] = None,
    reached_2400: Annotated[bool, typer.Option(
        "--reached-2400", metavar="", help="A published rating has reached 2400 (K 10 for ever).")] = False,
    reached_2300: Annotated[bool, typer.Option(
        "--reached-2300", metavar="", help="A published rating has reached 2300 (no junior K 40).")] = False,
    new: Annotated[bool, typer.Option(
        "--new", metavar="", help="Another person than the player of the same name.")] = False,
    rapid_rating: Annotated[int | None, typer.Option(
        "--rapid-rating", help="Published rapid rating the player brings.")] = None,
    rapid_games: Annotated[int, typer.Option(
        "--rapid-games", help="Rated rapid games played before entering the ledger.")] = 0,
    blitz_rating: Annotated[int | None, typer.Option(
        "--blitz-rating", help="Published blitz rating the player brings.")] = None,
    blitz_games: Annotated[int, typer.Option(
        "--blitz-games", help="Rated blitz games played before entering the ledger.")] = 0,
    json_out: JsonOpt = False,
) -> None:
    """Register a player with the history FIDE's K rules need.

    A name already in the ledger (case, accents and word order aside) needs --new.
    """
    games = players.read_prior_games(prior_games, rating)  # UsageError: --rating without it
    view = run_write(ctx, players.add_player, players.NewPlayer(
        name=name, fide_id=fide_id, birth_year=birth_year,
        sex=sex.upper() if sex else None, federation=federation.upper() if federation else None,
        title=title.upper() if title else None, rating=rating, prior_games=games,
        reached_2400=reached_2400, reached_2300=reached_2300,
        pools=tuple((pool, rating_, games) for pool, rating_, games in (
            ("rapid", rapid_rating, rapid_games), ("blitz", blitz_rating, blitz_games))
            if rating_ is not None or games)), new=new)
    render_players.player(view, json_out, added=True)


@player_app.command("list")
@reports_errors
def player_list(ctx: typer.Context, pool: PoolOpt = "standard", json_out: JsonOpt = False) -> None:
    """List every player with their rating in one pool, in force for that pool's next close."""
    chosen = parse_pool(pool)
    render_players.player_list(run(ctx, player_views.list_players, chosen), chosen, json_out)


@player_app.command("show")
@reports_errors
def player_show(
    ctx: typer.Context,
    player: PlayerArg,
    pool: PoolOpt = "standard",
    json_out: JsonOpt = False,
) -> None:
    """Show one player in one pool: rating, K and why, rated games, history known or not."""
    render_players.player(run(ctx, player_views.show_player, player, parse_pool(pool)), json_out)


@player_app.command("edit")
@reports_errors
def player_edit_command(
    ctx: typer.Context,
    player: PlayerArg,
    name: Annotated[str | None, typer.Option("--name", help='"Surname, Name".')] = None,
    fide_id: Annotated[int | None, typer.Option("--fide-id", help="FIDE id.")] = None,
    birth_year: Annotated[int | None, typer.Option("--birth-year", help="Year of birth.")] = None,
    sex: Annotated[str | None, typer.Option("--sex", help="M or F.")] = None,
    federation: Annotated[str | None, typer.Option("--federation", help="e.g. ENG.")] = None,
    title: Annotated[str | None, typer.Option("--title", help="GM, IM, FM, CM, WGM ...")] = None,
    prior_games: Annotated[int | None, typer.Option(
        "--prior-games", help="Rated games played before entering the ledger (counts from the "
        "earliest open period).")] = None,
    reached_2400: Annotated[bool, typer.Option(
        "--reached-2400", metavar="", help="A published rating has reached 2400 (K 10 for ever, "
        "from the earliest open period).")] = False,
    pool: PoolOpt = "standard",
    reason: ReasonOpt = None,
    dry_run: DryRunOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Correct a player's details from now on; published lists keep what they showed.

    K facts (birth year, prior games, reached 2400) count from the earliest open period.

    --pool: the pool whose K history --prior-games and --reached-2400 change (default standard).
    """
    edit = player_edit.PlayerEdit(
        name=name, fide_id=fide_id, birth_year=birth_year, sex=sex.upper() if sex else None,
        federation=federation.upper() if federation else None,
        title=title.upper() if title else None, prior_games=prior_games,
        reached_2400=reached_2400, pool=parse_pool(pool))
    render_corrections.edit(run_write(ctx, player_edit.edit_player, player, edit,
                                      reason=reason, dry_run=dry_run), json_out)


@player_app.command("merge")
@reports_errors
def player_merge(
    ctx: typer.Context,
    keep: Annotated[str, typer.Argument(help="The player to keep: id, FIDE id or name.")],
    duplicate: Annotated[str, typer.Argument(
        help="The same player registered again: id, FIDE id or name.")],
    reason: ReasonOpt = None,
    rerate: RerateOpt = False,
    dry_run: DryRunOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Merge a player registered twice: every game of DUPLICATE moves to KEEP.

    Says which closed periods hold the duplicate's games; --rerate re-rates from the first.
    """
    render_corrections.merge(run_write(ctx, merge.merge_players, keep, duplicate,
                                       reason=reason, rerate=rerate, dry_run=dry_run), json_out)


@player_app.command("withdraw")
@reports_errors
def player_withdraw(
    ctx: typer.Context,
    player: PlayerArg,
    reason: ReasonOpt = None,
    dry_run: DryRunOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Withdraw a player registered by mistake (no valid game): on no list, search or page.

    Kept in the audit log; a player with a valid game is refused, naming the game.
    """
    render_reverts.withdrawn(run_write(ctx, withdrawal.withdraw_player, player, reason=reason,
                                       dry_run=dry_run), json_out)


@player_app.command("correct-rating")
@reports_errors
def player_correct_rating(
    ctx: typer.Context,
    player: PlayerArg,
    rating: Annotated[int, typer.Option("--rating", help="The corrected rating.")],
    period: Annotated[str, typer.Option(
        "--period", metavar="YYYY-MM", help="The closed period whose list published the rating "
        "(the latest closed one).", show_default=False)],
    reason: ReasonOpt = None,
    dry_run: DryRunOpt = False,
    json_out: JsonOpt = False,
    pool: PoolOpt = "standard",
) -> None:
    """Record FIDE's official correction of a published rating.

    In force from the next period on, in the list's pool only; the published list stands; history shows it.
    """
    render_corrections.rating_correction(run_write(
        ctx, player_edit.correct_rating, player, rating=rating, period=period, reason=reason,
        dry_run=dry_run, pool=parse_pool(pool)), json_out)
