"""``ledger period``: close rating periods, list the closed ones, report what a close changed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli.collector import kept_to_the_end
from ledger.cli.common import JsonOpt, PoolOpt, ReasonOpt, reports_errors, run, run_write
from ledger.cli.lazy import lazy
from ledger.cli.render import close as render_close
from ledger.cli.render.output import error
from ledger.domain import parse_pool
from ledger.errors import PeriodError

if TYPE_CHECKING:
    from ledger.cli.render import reports as render_reports
    from ledger.cli.render import revisions as render_revisions
    from ledger.services.close import periods, rerate
    from ledger.services.publishing import reports
else:  # the renderers of the other commands, with their Rich tables, on use
    render_reports = lazy("ledger.cli.render.reports")
    render_revisions = lazy("ledger.cli.render.revisions")
    periods = lazy("ledger.services.close.periods")
    reports = lazy("ledger.services.publishing.reports")
    rerate = lazy("ledger.services.close.rerate")

period_app = typer.Typer(help="Close rating periods, list the closed ones, reopen and re-rate.",
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
    empty: Annotated[bool, typer.Option(
        "--empty", metavar="", help="Close a named period that has no games (it publishes the "
        "list unchanged and locks every period up to it).")] = False,
    pool: Annotated[str | None, typer.Option(
        "--pool", help="Close this pool only (standard, rapid or blitz); default: every pool "
        "with games in the period, in one transaction.")] = None,
    leave_pending: Annotated[bool, typer.Option(
        "--leave-pending", metavar="", help="Close although submissions on the web dated in "
        "the period are pending review (accepted later, their games are late results).")] = False,
    every_row: Annotated[bool, typer.Option(
        "--all", metavar="", help=f"Every player's row on the terminal (a close of more than "
        f"{render_close.LARGE_CLOSE} players shows its summary and the biggest changes).")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Close a rating period under FIDE's rules and publish its rating lists (one per pool)."""
    if through is None:
        with kept_to_the_end():  # the report lives until the output is written, then the end
            closed = run_write(ctx, periods.close_period, period, dry_run=dry_run,
                               empty=empty, pool=parse_pool(pool) if pool else None,
                               leave_pending=leave_pending)
        render_close.close_report(closed, json_out, every_row=every_row)
        return
    if period is not None:
        error(f"give a period ({period}) or --through {through}, not both")
        raise typer.Exit(2)
    report = run_write(ctx, periods.close_through, through, dry_run=dry_run,
                       leave_pending=leave_pending)
    render_close.close_through_report(report, json_out)
    if report.refused is not None:
        refused, why = report.refused
        done = ", ".join(r.period for r in report.closed) or "none"
        raise PeriodError(f"stopped at {refused}: {why} (closed before it: {done})")


@period_app.command("list")
@reports_errors
def period_list(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """List closed periods with their current revision and rule edition.

    With --json: every revision of each, with its reason, when, who and what superseded it.
    """
    render_revisions.period_list(run(ctx, periods.list_periods), json_out)


@period_app.command("reopen")
@reports_errors
def period_reopen(
    ctx: typer.Context,
    period: Annotated[str, typer.Argument(help="YYYY-MM: the latest closed period.")],
    reason: ReasonOpt = None,
    dry_run: Annotated[bool, typer.Option(
        "--dry-run", metavar="", help="Say what it would do; write nothing.")] = False,
    pool: PoolOpt = "standard",
    json_out: JsonOpt = False,
) -> None:
    """Reopen the latest closed period of a pool.

    Its revision stays, superseded (list --revision shows it); closing it again writes the next.
    """
    render_revisions.reopen(run_write(ctx, rerate.reopen_period, period, reason=reason,
                                      dry_run=dry_run, pool=parse_pool(pool)), json_out)


@period_app.command("rerate")
@reports_errors
def period_rerate(
    ctx: typer.Context,
    start: Annotated[str, typer.Option(
        "--from", metavar="YYYY-MM", help="The first closed period to re-rate.",
        show_default=False)],
    reason: ReasonOpt = None,
    yes: Annotated[bool, typer.Option(
        "--yes", metavar="", help="Write the new revisions (without it: only report).")] = False,
    pool: PoolOpt = "standard",
    json_out: JsonOpt = False,
) -> None:
    """Re-rate a pool's closed periods from --from on with today's facts, each as its next revision.

    Shows every rating that changes, period by period; writes (in one transaction) only with --yes.
    """
    render_revisions.rerate(run_write(ctx, rerate.rerate, start, reason=reason, yes=yes,
                                      pool=parse_pool(pool)), json_out)


@period_app.command("report")
@reports_errors
def period_report(
    ctx: typer.Context,
    period: Annotated[str | None, typer.Argument(
        help="YYYY-MM (default: the latest closed period).")] = None,
    top: Annotated[int, typer.Option("--top", help="How many gains and losses to show.")] = 5,
    pool: PoolOpt = "standard",
    json_out: JsonOpt = False,
) -> None:
    """What closing a period changed in one pool: gains and losses, K changes and why, games rated."""
    render_reports.period_report(run(ctx, reports.period_report, period, top=top,
                                     pool=parse_pool(pool)), json_out)
