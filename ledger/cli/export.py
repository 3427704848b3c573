"""``ledger export``: write ledger data in other programs' formats (TRF-16 for an event)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli.common import db_of, reports_errors, run
from ledger.cli.lazy import lazy
from ledger.cli.publish import write_output
from ledger.cli.render.output import aside, notes, say
from ledger.domain import parse_pool

if TYPE_CHECKING:
    from ledger.services.publishing import exports
else:
    exports = lazy("ledger.services.publishing.exports")

export_app: typer.Typer = typer.Typer(help="Write ledger data as files other programs read.",
                                      no_args_is_help=True)


@export_app.command("trf")
@reports_errors
def export_trf(
    ctx: typer.Context,
    event: Annotated[str, typer.Option("--event", help="The event: its name or #ID.")],
    output: Annotated[Path | None, typer.Option(
        "--output", help="Write to this file (default: standard output).", dir_okay=False)] = None,
    pool: Annotated[str | None, typer.Option(
        "--pool", help="The pool whose games and ratings to write: standard, rapid or blitz "
        "(default: the event's pool, standard unless imported with --pool).")] = None,
) -> None:
    """Write an event as a TRF-16 file (FIDE Tournament Report File).

    Points and ranks count only the games recorded in the ledger (byes are not in it).
    """
    exported = run(ctx, exports.export_trf, event, parse_pool(pool) if pool else None)
    notes(exported.notes)
    shown = f"the {exported.pool} pool: its games of the event and its ratings at the start"
    if output is None:
        aside(f"event {event!r} as TRF-16, {shown}")
        typer.echo(exported.text, nl=False)
        return
    write_output(exported.text, output, ledger=db_of(ctx))
    say(f"{output}: event {event!r} written as TRF-16, {shown}")
