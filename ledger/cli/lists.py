"""``ledger list`` and ``ledger history``: the published rating lists and one player's history."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli import publish
from ledger.cli.common import JsonOpt, PlayerArg, PoolOpt, db_of, reports_errors, run
from ledger.cli.lazy import lazy
from ledger.cli.render import history as render_history
from ledger.cli.render.output import error, notes
from ledger.domain import parse_pool

if TYPE_CHECKING:
    from ledger.services.publishing import bundles, histories, lists
else:
    lists = lazy("ledger.services.publishing.lists")
    histories = lazy("ledger.services.publishing.histories")
    bundles = lazy("ledger.services.publishing.bundles")


@reports_errors
def rating_list(
    ctx: typer.Context,
    period: Annotated[str | None, typer.Option(
        "--period", help="YYYY-MM (default: the latest closed period).")] = None,
    revision: Annotated[int | None, typer.Option(
        "--revision", help="The list as revision N of the period published it (default: the "
        "current revision).", show_default=False)] = None,
    fmt: Annotated[publish.ListFormat | None, typer.Option(
        "--format", help="table, csv, json, txt (FIDE's fixed columns) or html (default: "
        "from the --output extension, else table).")] = None,
    output: Annotated[Path | None, typer.Option(
        "--output", help="Write to this file instead of stdout.", dir_okay=False)] = None,
    club: Annotated[str | None, typer.Option(
        "--club", help=f"Club name heading the html page (default: ${publish.CLUB_ENV}).")] = None,
    federation: Annotated[str | None, typer.Option("--federation", help="Only this federation.")] = None,
    sex: Annotated[str | None, typer.Option("--sex", help="Only M or only F.")] = None,
    junior: Annotated[bool, typer.Option(
        "--junior", metavar="", help="Only juniors: 18 or under in the list's year.")] = False,
    min_games: Annotated[int | None, typer.Option(
        "--min-games", help="Only players with at least N rated games in the period.")] = None,
    top: Annotated[int | None, typer.Option(
        "--top", help="Only ranks 1 to N (ties at rank N all kept).")] = None,
    active: Annotated[bool, typer.Option(
        "--active", metavar="", help="Only active players (leave out those flagged i).")] = False,
    preview: Annotated[bool, typer.Option(
        "--preview", metavar="", help="The list closing the earliest open period would publish "
        "today (before the month ends too); nothing is written.")] = False,
    pool: PoolOpt = "standard",
    json_out: JsonOpt = False,
    manifest: Annotated[bool, typer.Option(
        "--manifest", metavar="", help="Print the list's manifest instead (JSON: its rows, the "
        "rule edition, the digest of every fact its close read, one digest; docs/VERIFY.md).")
    ] = False,
) -> None:
    """Print the rating list published by closing a period, or write it as CSV, TXT or HTML.

    Flag i: inactive (no rated game in the last 12 rating periods).

    The txt and csv lists write FIDE's flag: w woman, i inactive, wi both.
    """
    chosen = publish.choose_format(fmt, json_out, output)
    selection = lists.ListSelection(federation.upper() if federation else None,
                                    sex.upper() if sex else None, junior, min_games, top, active)
    if preview and (period is not None or revision is not None):
        error(f"--preview is the list of the earliest open period: give no "
              f"{'--period' if period is not None else '--revision'} with it")
        raise typer.Exit(2)
    if manifest:
        if preview or fmt is not None or output is not None:
            error("--manifest prints the manifest of a published list as JSON: give no "
                  "--preview, --format or --output with it")
            raise typer.Exit(2)
        shown = run(ctx, bundles.list_manifest, period, revision, parse_pool(pool))
        typer.echo(json.dumps(shown, indent=2, ensure_ascii=False))
        return
    if preview:
        published = run(ctx, lists.preview_list, selection, pool=parse_pool(pool))
    else:
        published = run(ctx, lists.rating_list, period, selection, revision=revision,
                        pool=parse_pool(pool))
    note = published.superseded_note()
    notes([note] if note else [])
    digest = None
    if chosen is publish.ListFormat.HTML and not preview and not _filtered(selection):
        # the page a club posts gives the digest its bundle is checked against (docs/VERIFY.md)
        digest = run(ctx, bundles.list_manifest, published.period, published.revision,
                     parse_pool(pool))["digest"]
    stored = None
    if (chosen in (publish.ListFormat.TXT, publish.ListFormat.CSV) and output is not None
            and not preview and not _filtered(selection)):
        # FIDE's TXT and the CSV have no place for it: the confirmation names it
        stored = run(ctx, bundles.stored_digest, published.period, published.revision,
                     parse_pool(pool))
    publish.publish(published, chosen, output, club, db_of(ctx), digest, stored)


def _filtered(selection: lists.ListSelection) -> bool:
    """Whether ``selection`` leaves anyone out (then the page is not the list the digest is of)."""
    return selection != lists.ListSelection()


@reports_errors
def history(
    ctx: typer.Context,
    player: PlayerArg,
    chart: Annotated[Path | None, typer.Option(
        "--chart", help="Also draw rating over time into this PNG (800 x 400).", dir_okay=False)] = None,
    pool: PoolOpt = "standard",
    json_out: JsonOpt = False,
) -> None:
    """Show a player's rating history in one pool: a row per rated period, the peak, a sparkline."""
    if chart is not None and chart.suffix and chart.suffix.lower() != ".png":
        error(f"--chart {chart}: the chart is a PNG image; name the file .png")
        raise typer.Exit(2)
    render_history.history(run(ctx, histories.history, player, parse_pool(pool)), json_out, chart,
                           db_of(ctx))
