"""``ledger event``: the events the ledger records."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger.cli import render
from ledger.cli.common import JsonOpt, reports_errors, run
from ledger.services import events

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
    render.event_list(run(ctx, events.list_events, period), json_out)
