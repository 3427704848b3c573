"""``ledger performance`` and ``ledger whatif``: questions players ask about their own games. Each
parses its arguments, calls one service and renders it (``ledger.cli.render.lookup``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli.common import JsonOpt, PlayerArg, PoolOpt, reports_errors, run
from ledger.cli.lazy import lazy
from ledger.cli.render import lookup as render_lookup
from ledger.domain import parse_pool
from ledger.rules.performance import Norm

if TYPE_CHECKING:
    from ledger.services.publishing import performance as performance_service
    from ledger.services.publishing import whatif as whatif_service
else:
    performance_service = lazy("ledger.services.publishing.performance")
    whatif_service = lazy("ledger.services.publishing.whatif")


@reports_errors
def performance(
    ctx: typer.Context,
    player: PlayerArg,
    event: Annotated[str | None, typer.Option(
        "--event", help="The event: its name (or part of it) or #ID.")] = None,
    period: Annotated[str | None, typer.Option("--period", help="The rating period, YYYY-MM.")] = None,
    norm: Annotated[Norm | None, typer.Option(
        "--norm", case_sensitive=False, metavar="GM|IM|WGM|WIM",
        help="Check a title norm: GM, IM, WGM or WIM (with --event).")] = None,
    pool: PoolOpt = "standard",
    json_out: JsonOpt = False,
) -> None:
    """Performance rating Rp = Ra + dp over an event or a period, and norms.

    Title Regulations 1.4.6-1.4.9 and table 8.1.1, with the algorithm of 400 beside it for \
comparison; --norm checks the rating floor, Rp, the opponents' average, the 35 % score and \
the 9 games.
    """
    report = run(ctx, performance_service.player_performance, player, event=event,
                  period=period, norm=norm.value if norm else None, pool=parse_pool(pool))
    render_lookup.performance(report, json_out)


@reports_errors
def whatif(
    ctx: typer.Context,
    player: PlayerArg,
    opponent: Annotated[str, typer.Argument(help="The opponent: id, FIDE id, or name.")],
    period: Annotated[str | None, typer.Option(
        "--period", help="An open rating period, YYYY-MM (default: this month).")] = None,
    pool: PoolOpt = "standard",
    json_out: JsonOpt = False,
) -> None:
    """What a win, a draw or a loss would do to both players' ratings this period.

    From the ledger's current state and K, with the games both already have in the period.
    """
    render_lookup.whatif(run(ctx, whatif_service.what_if, player, opponent, period=period,
                             pool=parse_pool(pool)), json_out)
