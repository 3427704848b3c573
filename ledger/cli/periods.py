"""``ledger period``: close rating periods, list the closed ones, report what a close changed."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger.cli import render, render_reports
from ledger.cli.common import JsonOpt, reports_errors, run
from ledger.errors import PeriodError
from ledger.services import periods, reports

period_app = typer.Typer(help="Close rating periods and list the closed ones.",
                         no_args_is_help=True)


@period_app.command("close")
@reports_errors
def period_close(
    ctx: typer.Context,
    period: Annotated[str | None, typer.Argument(
        help="YYYY-MM (default: the earliest open period with games).")] = None,
    through: Annotated[str | None, typer.Option(
        "--through", metavar="YYYY-MM", help="Close every open period with games up to this "
        "month, in order, each in its own transaction; stop at the first refusal.",
        show_default=False)] = None,
    dry_run: Annotated[bool, typer.Option(
        "--dry-run", metavar="", help="Show the full computation; write nothing.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Close a rating period under FIDE's rules and publish its rating list."""
    if through is None:
        render.close_report(run(ctx, periods.close_period, period, dry_run=dry_run), json_out)
        return
    if period is not None:
        render.error(f"give a period ({period}) or --through {through}, not both")
        raise typer.Exit(2)
    report = run(ctx, periods.close_through, through, dry_run=dry_run)
    render.close_through_report(report, json_out)
    if report.refused is not None:
        refused, why = report.refused
        done = ", ".join(r.period for r in report.closed) or "none"
        raise PeriodError(f"stopped at {refused}: {why} (closed before it: {done})")


@period_app.command("list")
@reports_errors
def period_list(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """List closed periods with their rule edition."""
    render.period_list(run(ctx, periods.list_periods), json_out)


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
    render_reports.period_report(run(ctx, reports.period_report, period, top=top), json_out)
