"""``ledger event``: the events the ledger records, and each one's rating report."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli.common import (
    DryRunOpt,
    InNextPeriodOpt,
    JsonOpt,
    ReasonOpt,
    RerateOpt,
    reports_errors,
    run,
    run_write,
)
from ledger.cli.lazy import lazy
from ledger.cli.render import corrections as render_corrections
from ledger.cli.render import games as render_games
from ledger.cli.render import site as render_site

if TYPE_CHECKING:
    from ledger.services.corrections import events as corrections
    from ledger.services.publishing import event_reports
    from ledger.services.register import events
else:
    corrections = lazy("ledger.services.corrections.events")
    event_reports = lazy("ledger.services.publishing.event_reports")
    events = lazy("ledger.services.register.events")

event_app = typer.Typer(help="The events the ledger records.", no_args_is_help=True)

#: The EVENT argument: an id or a name, as ``--event`` takes it.
EventArg = Annotated[str, typer.Argument(help="Id (#3) or name of the event.", metavar="EVENT")]


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
    event: EventArg,
    pool: Annotated[str | None, typer.Option(
        "--pool", help="The report of the event's games of this pool: standard, rapid or "
        "blitz (default: the event's own pool).")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Show an event's rating report: rating, games, score, expected, K, change, performance.

    Change: K x (score - expected), this event's part before the period's one rounding.
    """
    render_site.event_report(run(ctx, event_reports.event_report, event, pool), json_out)


@event_app.command("rename")
@reports_errors
def event_rename(
    ctx: typer.Context,
    event: EventArg,
    name: Annotated[str, typer.Argument(help="The event's right name.", metavar="NAME")],
    reason: ReasonOpt = None,
    dry_run: DryRunOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Rename an event (a typo in its name); the old name stays in the audit log.

    A name another event holds is refused, naming that event (merge them instead).
    """
    render_corrections.event_correction(run_write(
        ctx, corrections.rename_event, event, name, reason=reason, dry_run=dry_run), json_out)


@event_app.command("merge")
@reports_errors
def event_merge(
    ctx: typer.Context,
    keep: Annotated[str, typer.Argument(help="The event that stays: id (#3) or name.",
                                        metavar="KEEP")],
    other: Annotated[str, typer.Argument(help="The same event recorded under another name: "
                                         "its games move to KEEP.", metavar="OTHER")],
    reason: ReasonOpt = None,
    in_next_period: InNextPeriodOpt = False,
    rerate: RerateOpt = False,
    dry_run: DryRunOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Merge one event recorded under two names: OTHER's games move to KEEP.

    Likely duplicates between them are listed and refused, never doubled.

    In a closed period, say how it takes effect: --in-next-period or --rerate.
    """
    render_corrections.event_correction(run_write(
        ctx, corrections.merge_events, keep, other, reason=reason,
        in_next_period=in_next_period, rerate=rerate, dry_run=dry_run), json_out)


@event_app.command("void")
@reports_errors
def event_void(
    ctx: typer.Context,
    event: EventArg,
    reason: ReasonOpt = None,
    in_next_period: InNextPeriodOpt = False,
    rerate: RerateOpt = False,
    dry_run: DryRunOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Void every valid game of an event: kept, marked void, never rated.

    In a closed period, say how it takes effect: --in-next-period or --rerate.
    """
    render_corrections.event_correction(run_write(
        ctx, corrections.void_event, event, reason=reason, in_next_period=in_next_period,
        rerate=rerate, dry_run=dry_run), json_out)
