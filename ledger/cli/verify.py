"""``ledger verify`` and ``ledger keys``: a bundle checked without any ledger database, and the
key pair that signs the manifests (issue 24; docs/VERIFY.md). Neither opens a database:
``ledger verify`` imports ``ledger.verify`` only (rules and formats, no SQLAlchemy)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli.common import reports_errors
from ledger.cli.lazy import lazy
from ledger.cli.render.output import error, say

if TYPE_CHECKING:
    from ledger import verify as verifying
    from ledger.formats import signatures
else:
    verifying = lazy("ledger.verify")
    signatures = lazy("ledger.formats.signatures")

keys_app: typer.Typer = typer.Typer(help="The Ed25519 key pair that signs the lists' manifests.",
                                    no_args_is_help=True)


@reports_errors
def verify(
    file: Annotated[Path, typer.Argument(
        help="A bundle (ledger export bundle), JSON or gzip-compressed JSON.",
        dir_okay=False, show_default=False)],
    key: Annotated[Path | None, typer.Option(
        "--key", help="Also check the manifest's signature by this public key (PEM).",
        dir_okay=False, show_default=False)] = None,
) -> None:
    """Recount a bundle's rating list from the bundle alone and compare every row and digest.

    No database is opened. Exit 0 with a one-line verdict, else exit 1 naming what differs.

    A row: player, field, the bundle's value, the recounted one; also each fact changed.
    """
    verdict = verifying.verify(file, key)
    if verdict.ok:
        typer.echo(verdict.line())  # one line, never folded: scripts read it
        return
    for difference in verdict.differences:
        error(str(difference))
    for problem in verdict.problems:
        error(problem)
    error(verdict.line())
    raise typer.Exit(1)


@keys_app.command("init")
@reports_errors
def keys_init(
    private: Annotated[Path, typer.Option(
        "--private", help="The private key file to create (mode 0600; never in the database).",
        dir_okay=False, show_default=False)],
    public: Annotated[Path, typer.Option(
        "--public", help="The public key file to create, for whoever verifies.",
        dir_okay=False, show_default=False)],
) -> None:
    """Make an Ed25519 key pair: the private key signs each bundle's manifest.

    Sign: ledger export bundle --key PRIVATE (or $LEDGER_SIGNING_KEY). Check: verify --key PUBLIC.
    """
    if private.resolve() == public.resolve():
        error(f"--private and --public name the same file {private}; give two")
        raise typer.Exit(2)
    fingerprint = signatures.new_key_pair(private, public)
    say(f"wrote the private key {private} (mode 0600: keep it to yourself) and the public key "
        f"{public} ({fingerprint})")
