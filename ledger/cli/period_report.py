"""``ledger period report``: a closed period in summary (registered on ``period_app``)."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger.cli import render_reports
from ledger.cli.app import JsonOpt, _run, period_app, reports_errors
from ledger.services import reports


@period_app.command("report")
@reports_errors
def period_report(
    ctx: typer.Context,
    period: Annotated[str | None, typer.Argument(
        help="YYYY-MM (default: the latest closed period).")] = None,
    top: Annotated[int, typer.Option("--top", help="How many gains and losses to show.")] = 5,
    json_out: JsonOpt = False,
) -> None:
    """What closing a period changed: biggest gains and losses, K changes and why, games rated."""
    render_reports.period_report(_run(ctx, reports.period_report, period, top=top), json_out)
