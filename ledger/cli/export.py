"""``ledger export``: write ledger data in other programs' formats (TRF-16 for an event), and a
list's bundle for ``ledger verify`` (docs/VERIFY.md)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli.common import PoolOpt, db_of, reports_errors, run
from ledger.cli.lazy import lazy
from ledger.cli.publish import write_output
from ledger.cli.render.output import aside, notes, say
from ledger.config import SIGNING_KEY_ENV
from ledger.domain import parse_pool

if TYPE_CHECKING:
    from ledger.formats import bundle as bundle_format
    from ledger.formats import signatures
    from ledger.services.publishing import bundles, exports
else:
    exports = lazy("ledger.services.publishing.exports")
    bundles = lazy("ledger.services.publishing.bundles")
    bundle_format = lazy("ledger.formats.bundle")
    signatures = lazy("ledger.formats.signatures")

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


@export_app.command("bundle")
@reports_errors
def export_bundle(
    ctx: typer.Context,
    output: Annotated[Path, typer.Option(
        "--output", help="The bundle file: JSON, gzip-compressed when its name ends in .gz.",
        dir_okay=False, show_default=False)],
    period: Annotated[str | None, typer.Option(
        "--period", help="YYYY-MM (default: the latest closed period).")] = None,
    revision: Annotated[int | None, typer.Option(
        "--revision", help="The list as revision N of the period published it (default: the "
        "current revision).", show_default=False)] = None,
    pool: PoolOpt = "standard",
    key: Annotated[Path | None, typer.Option(
        "--key", help=f"Sign the manifest with this private key (ledger keys init; default: "
        f"${SIGNING_KEY_ENV}, else unsigned).", dir_okay=False, show_default=False,
        envvar=SIGNING_KEY_ENV)] = None,
) -> None:
    """Write a rating list's bundle: the facts its close read, the rule edition and its manifest.

    Anyone can recount the list from it alone: ledger verify FILE (no database needed).
    """
    sign = None
    if key is not None:
        private = signatures.load_private(key)  # refused when others can read it, before any work

        def sign(manifest: dict[str, object]) -> dict[str, str]:
            return signatures.sign(manifest, private)
    whole = run(ctx, bundles.list_bundle, period, revision, parse_pool(pool), sign)
    data = bundle_format.encode(whole, compress=output.suffix.lower() == ".gz")
    write_output(data, output, ledger=db_of(ctx))
    man = whole["manifest"]
    say(f"{output}: the bundle of the {man['pool']} list of {man['period']} (revision "
        f"{man['revision']}, {len(man['rows'])} rows, {len(whole['games'])} games, "
        f"{len(whole['players'])} players), digest {man['digest']}"
        + (", signed" if "signature" in whole else "") + f"; {len(data):,} bytes")
