"""``ledger site``: the club's website, built as static files."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli import publish
from ledger.cli.common import JsonOpt, db_of, reports_errors, run
from ledger.cli.lazy import lazy
from ledger.cli.render import site as render_site
from ledger.config import SIGNING_KEY_ENV

if TYPE_CHECKING:
    from ledger.services.publishing import site_build as site
else:
    site = lazy("ledger.services.publishing.site_build")

site_app = typer.Typer(help="The club's website: rating lists, players and tournaments as "
                       "static pages.", no_args_is_help=True)


@site_app.command("build")
@reports_errors
def build(
    ctx: typer.Context,
    directory: Annotated[Path, typer.Argument(
        help="The site's folder (made when missing; an earlier build's folder is updated).",
        metavar="DIR")],
    club: Annotated[str | None, typer.Option(
        "--club", help=f"Club name heading every page (default: ${publish.CLUB_ENV}).")] = None,
    base_url: Annotated[str | None, typer.Option(
        "--base-url", help="Where the site is published (https://club.example/ratings/): "
        "canonical links and a sitemap.xml. Links between pages stay relative.")] = None,
    date: Annotated[str | None, typer.Option(
        "--date", help="YYYY-MM-DD: the build date shown on the home page (default: today).")] = None,
    no_bundles: Annotated[bool, typer.Option(
        "--no-bundles", help="Write no list bundles (the pages then link none; each list page "
        "still gives its digest).")] = False,
    key: Annotated[Path | None, typer.Option(
        "--key", help=f"Sign the bundles with this private key (ledger keys init) and publish "
        f"its public key as public-key.pem (default: ${SIGNING_KEY_ENV}, else unsigned).",
        dir_okay=False, show_default=False, envvar=SIGNING_KEY_ENV)] = None,
    json_out: JsonOpt = False,
) -> None:
    """Build the club's website into DIR: lists, players and tournaments as static pages.

    Players: history, chart, games with D and PD. Tournaments: crosstable, rating report.

    Each list page gives its digest and links its bundle, for ledger verify (docs/VERIFY.md).

    Only changed files are written again; a bundle already written for a revision is kept.
    """
    ledger = db_of(ctx)
    report = run(ctx, site.build_site, directory, club=publish.club_name(club),
                 base_url_text=base_url, date=date, ledger=ledger, bundles=not no_bundles,
                 key=key)
    render_site.site_build(report, json_out)
