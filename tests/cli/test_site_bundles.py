"""The static site's digests and bundles (issue 24; docs/VERIFY.md "On the site"): each list
page of the README's example season gives the list digest that ``ledger list --manifest`` and
``ledger verify`` give for its revision, and links its bundle, which ``ledger verify`` verifies;
with a key the bundles are signed and the public key published; a second build keeps the
bundles it wrote (made once: a list revision never changes); ``--no-bundles`` writes none.

The digests compared are read from the commands' outputs (``list --manifest``, ``verify``), never
from the functions that write the pages.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_runs import ok
from example_ledgers import copy_of
from ledgers import sqlite_ledger
from typer.testing import CliRunner, Result

from ledger.cli.app import app
from ledger.formats.bundle import LIST_DIGEST_COLUMNS
from ledger.services.core.chain import LIST_COLUMNS

#: The season's published lists: (pool, period), each revision 1.
SEASON_LISTS = [("standard", "2026-09"), ("standard", "2026-10"), ("rapid", "2026-10"),
                ("blitz", "2026-10")]
DIGEST = re.compile(r'<code class="digest">([0-9a-f]{64})</code>')


def cli(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(app, list(args), env=env)


def build(db: str, folder: Path, *more: str, env: dict[str, str] | None = None) -> Result:
    done = cli("--db", db, "site", "build", str(folder), "--club", "Riverside Chess Club",
               "--date", "2026-12-01", *more, env=env)
    assert done.exit_code == 0, done.output + done.stderr
    return done


def said(result: Result) -> str:
    return " ".join(result.stdout.split())


def manifest_list_digest(db: str, pool: str, period: str, *more: str) -> str:
    """The list digest ``ledger list --manifest`` prints for that list."""
    shown = json.loads(ok(db, "list", "--period", period, "--pool", pool, "--manifest",
                          *more).stdout)
    assert (shown["pool"], shown["period"]) == (pool, period)
    return shown["list_digest"]  # type: ignore[no-any-return]


def page_digest(page: Path) -> str:
    found = DIGEST.findall(page.read_text(encoding="utf-8"))
    assert len(found) == 1, page
    return found[0]  # type: ignore[no-any-return]


def test_the_list_digest_is_taken_over_the_columns_the_ledger_stores_it_over() -> None:
    assert LIST_DIGEST_COLUMNS == LIST_COLUMNS


def test_each_list_page_gives_its_digest_and_links_its_bundle_which_verifies(
        season_db: str, tmp_path: Path) -> None:
    site = tmp_path / "site"
    build(season_db, site)
    for pool, period in SEASON_LISTS:
        page = site / "lists" / pool / f"{period}.html"
        expected = manifest_list_digest(season_db, pool, period)
        assert page_digest(page) == expected, (pool, period)
        text = page.read_text(encoding="utf-8")
        name = f"{pool}-{period}-r1.json"
        assert f'<a href="../../bundles/{name}" download>The list\'s bundle</a>' in text
        assert f"<code>ledger verify {name}</code>" in text
        assert "public-key.pem" not in text  # no key given: unsigned, no key published
        done = cli("verify", str(site / "bundles" / name))
        assert done.exit_code == 0, done.output
        # the verdict names the same list digest the page gives
        assert f"list digest {expected}): verified" in said(done)
    assert not (site / "public-key.pem").exists()


def test_a_signed_site_publishes_its_public_key_and_its_bundles_verify_with_it(
        season_db: str, tmp_path: Path) -> None:
    private, public = tmp_path / "ledger.key", tmp_path / "ledger.pub"
    ok(season_db, "keys", "init", "--private", str(private), "--public", str(public))
    site = tmp_path / "site"
    build(season_db, site, env={"LEDGER_SIGNING_KEY": str(private)})  # as export bundle takes it
    assert (site / "public-key.pem").read_bytes() == public.read_bytes()
    text = (site / "lists/standard/2026-10.html").read_text(encoding="utf-8")
    assert '<a href="../../public-key.pem">the public key</a>' in text
    assert "<code>ledger verify standard-2026-10-r1.json --key public-key.pem</code>" in text
    for pool, period in SEASON_LISTS:
        done = cli("verify", str(site / "bundles" / f"{pool}-{period}-r1.json"), "--key",
                   str(site / "public-key.pem"))
        assert done.exit_code == 0, done.output
        assert "signed by" in said(done)
    # built again without the key: the signed bundles do not serve, they are made again
    # (unsigned), and the public key is no longer published
    again = build(season_db, site)
    assert "4 bundles (4 made, 0 kept)" in said(again)
    assert not (site / "public-key.pem").exists()
    unsigned = cli("verify", str(site / "bundles/standard-2026-10-r1.json"), "--key", str(public))
    assert unsigned.exit_code == 1
    assert "the bundle is not signed" in unsigned.stderr


def test_a_second_build_keeps_the_bundles_it_wrote(season_db: str, tmp_path: Path) -> None:
    site = tmp_path / "site"
    build(season_db, site)
    bundles = sorted((site / "bundles").iterdir())
    assert [p.name for p in bundles] == ["blitz-2026-10-r1.json", "rapid-2026-10-r1.json",
                                         "standard-2026-09-r1.json", "standard-2026-10-r1.json"]
    before = {p.name: (p.stat().st_ino, p.stat().st_mtime_ns, p.read_bytes()) for p in bundles}
    # another club name: every page changes, no bundle does; each is kept, not made again
    again = build(season_db, site, "--club", "Riverside Chess Club (new name)")
    assert "4 bundles (0 made, 4 kept)" in said(again)
    assert {p.name: (p.stat().st_ino, p.stat().st_mtime_ns, p.read_bytes())
            for p in sorted((site / "bundles").iterdir())} == before


def test_no_bundles_gives_the_digest_and_links_no_bundle(season_db: str, tmp_path: Path) -> None:
    site = tmp_path / "site"
    done = build(season_db, site, "--no-bundles")
    assert "21 files, 21 written, 0 unchanged, 0 removed (4 lists, 7 players" in said(done)
    assert not (site / "bundles").exists()
    page = site / "lists/standard/2026-10.html"
    assert page_digest(page) == manifest_list_digest(season_db, "standard", "2026-10")
    assert "bundles/" not in page.read_text(encoding="utf-8")


def test_a_re_rated_list_gives_each_revision_its_own_digest_and_bundle(
        season_db: str, tmp_path: Path) -> None:
    db = copy_of(season_db, sqlite_ledger(str(tmp_path / "copy.db")))
    ok(db, "game", "void", "1", "--rerate", "--reason", "never played")
    site = tmp_path / "site"
    build(db, site)
    current, first = (site / "lists/standard/2026-09.html", site / "lists/standard/2026-09-r1.html")
    assert page_digest(current) == manifest_list_digest(db, "standard", "2026-09")
    assert page_digest(first) == manifest_list_digest(db, "standard", "2026-09",
                                                      "--revision", "1")
    assert page_digest(current) != page_digest(first)  # game 1 voided: other ratings
    assert "bundles/standard-2026-09-r2.json" in current.read_text(encoding="utf-8")
    assert "bundles/standard-2026-09-r1.json" in first.read_text(encoding="utf-8")
    for name in ("standard-2026-09-r1.json", "standard-2026-09-r2.json"):
        done = cli("verify", str(site / "bundles" / name))
        assert done.exit_code == 0, done.output


@pytest.mark.parametrize("field", ["list_digest", "row"])
def test_verify_names_a_list_digest_that_is_not_its_rows(season_db: str, tmp_path: Path,
                                                          field: str) -> None:
    out = tmp_path / "october.json"
    ok(season_db, "export", "bundle", "--period", "2026-10", "--output", str(out))
    whole = json.loads(out.read_bytes())
    if field == "list_digest":
        whole["manifest"]["list_digest"] = "0" * 64
    else:  # a row changed: its list digest no longer follows, nor does the manifest's digest
        whole["manifest"]["rows"][0]["rating"] += 1
    out.write_text(json.dumps(whole), encoding="utf-8")
    done = cli("verify", str(out))
    assert done.exit_code == 1
    assert "manifest.list_digest:" in done.stderr
