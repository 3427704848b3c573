"""``ledger event``: the events the ledger records, and each one's rating report."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli.common import JsonOpt, reports_errors, run
from ledger.cli.lazy import lazy
from ledger.cli.render import games as render_games
from ledger.cli.render import site as render_site

if TYPE_CHECKING:
    from ledger.services.publishing import event_reports
    from ledger.services.register import events
else:
    event_reports = lazy("ledger.services.publishing.event_reports")
    events = lazy("ledger.services.register.events")

event_app = typer.Typer(help="The events the ledger records.", no_args_is_help=True)


@event_app.command("list")
@reports_errors
def event_list(
    ctx: typer.Context,
    period: Annotated[str | None, typer.Option(
        "--period", help="YYYY-MM: only the events whose games belong to it.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """List events by start date: dates, rating period, games recorded and source file."""
    render_games.event_list(run(ctx, events.list_events, period), json_out)


@event_app.command("show")
@reports_errors
def event_show(
    ctx: typer.Context,
    event: Annotated[str, typer.Argument(help="Id (#3) or name of the event.", metavar="EVENT")],
    json_out: JsonOpt = False,
) -> None:
    """Show an event's rating report: rating, games, score, expected, K, change, performance.

    Change: K x (score - expected), this event's part before the period's one rounding.
    """
    render_site.event_report(run(ctx, event_reports.event_report, event), json_out)
