"""``ledger audit``: the audit log, every change the ledger recorded (docs/CORRECTIONS.md §1)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli.common import JsonOpt, reports_errors, run
from ledger.cli.lazy import lazy
from ledger.cli.render import revisions as render_revisions

if TYPE_CHECKING:
    from ledger.services.admin import audit_log
else:
    audit_log = lazy("ledger.services.admin.audit_log")


@reports_errors
def audit(
    ctx: typer.Context,
    player: Annotated[str | None, typer.Option(
        "--player", help="Only changes to this player's facts or ratings (id #12, FIDE id or "
        "name).", show_default=False)] = None,
    period: Annotated[str | None, typer.Option(
        "--period", metavar="YYYY-MM", help="Only changes to this period's games, closes, "
        "reopenings and re-ratings.", show_default=False)] = None,
    since: Annotated[str | None, typer.Option(
        "--since", metavar="YYYY-MM-DD", help="Only changes made on this day (UTC) or later.",
        show_default=False)] = None,
    json_out: JsonOpt = False,
) -> None:
    """Show the audit log: who changed what, when, why and with which command."""
    render_revisions.audit(run(ctx, audit_log.audit_log, player=player, period=period,
                               since=since), json_out)
