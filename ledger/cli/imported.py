"""``ledger imports``: the files imported (every import with its id, file, SHA-256, when, by
whom, what it wrote), and ``ledger imports revert ID``, which takes a wrong one back."""

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
from ledger.cli.render import reverts as render_reverts

if TYPE_CHECKING:
    from ledger.services.corrections import revert
    from ledger.services.imports import imported
else:
    imported = lazy("ledger.services.imports.imported")
    revert = lazy("ledger.services.corrections.revert")

imports_app = typer.Typer(
    help="List the files imported, and take a wrong import back.\n\nWithout a command: every "
    "import, oldest first, with its id (what imports revert takes), file, SHA-256, when, by "
    "whom, games recorded, players registered and the periods its games are in.",
    invoke_without_command=True)


@imports_app.callback()
@reports_errors
def imports_list(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """List the files imported, and take a wrong import back.

    Without a command: every import, oldest first, with its id (what imports revert takes),
    file, SHA-256, when, by whom, games recorded, players registered and the periods its games
    are in.
    """
    if ctx.invoked_subcommand is None:
        render_reverts.imports(run(ctx, imported.list_imports), json_out)


@imports_app.command("revert")
@reports_errors
def imports_revert(
    ctx: typer.Context,
    ref: Annotated[str, typer.Argument(
        metavar="ID", help="The import's id as ledger imports lists it (or its SHA-256).")],
    reason: ReasonOpt = None,
    in_next_period: InNextPeriodOpt = False,
    rerate: RerateOpt = False,
    dry_run: DryRunOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Take a wrong import back: void its games, withdraw its players who have no other game.

    In a closed period, say how it takes effect: --in-next-period or --rerate.
    """
    render_reverts.reverted(run_write(
        ctx, revert.revert_import, ref, reason=reason, in_next_period=in_next_period,
        rerate=rerate, dry_run=dry_run), json_out)
