"""The live site's bundles (``ledger serve``; issue 24, docs/VERIFY.md "On the site"): each
list page gives its digest and links its bundle at the path the static build writes it to; the
bundle is made on the first request into the server's cache folder and kept (never made
again), answered with an ETag (304 on ``If-None-Match``); a revision the ledger has not
published is the 404 page; with a key the bundle is signed and the public key served.

The digests compared are read from the commands' outputs (``list --manifest``, ``verify``).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_runs import ok
from flask import Flask
from flask.testing import FlaskClient
from public_fixtures import SECRET
from typer.testing import CliRunner
from werkzeug.test import TestResponse

from ledger.cli.app import app as cli_app
from ledger.services.core import clock
from ledger.services.publishing import bundles
from ledger.web import create_app, default_cache_dir

TODAY = dt.date(2026, 11, 20)


def fetch(client: FlaskClient, path: str, **headers: str) -> TestResponse:
    """GET ``path``, its body read and the response closed (a file is sent open)."""
    response = client.get(path, headers=headers)
    response.get_data()
    response.close()
    return response


@pytest.fixture
def keys(season_db: str, tmp_path: Path) -> tuple[Path, Path]:
    private, public = tmp_path / "ledger.key", tmp_path / "ledger.pub"
    ok(season_db, "keys", "init", "--private", str(private), "--public", str(public))
    return private, public


def served(db: str, cache: Path, key: Path | None = None) -> Iterator[Flask]:
    made = create_app(db, secret=SECRET, club="Riverside Chess Club", insecure_cookies=True,
                      signing_key=key, cache_dir=cache)
    try:
        yield made
    finally:
        made.extensions["ledger"].dispose()


@pytest.fixture
def signed(season_db: str, tmp_path: Path, keys: tuple[Path, Path],
           monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    monkeypatch.setattr(clock, "today", lambda: TODAY)
    yield from served(season_db, tmp_path / "cache", keys[0])


@pytest.fixture
def unsigned(season_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    monkeypatch.setattr(clock, "today", lambda: TODAY)
    yield from served(season_db, tmp_path / "cache")


def test_the_list_page_links_its_bundle_which_is_made_once_and_verifies(
        signed: Flask, season_db: str, tmp_path: Path, keys: tuple[Path, Path],
        monkeypatch: pytest.MonkeyPatch) -> None:
    client = signed.test_client()
    page = client.get("/lists/standard/2026-10.html").get_data(as_text=True)
    manifest = json.loads(ok(season_db, "list", "--period", "2026-10", "--manifest").stdout)
    assert f'<code class="digest">{manifest["list_digest"]}</code>' in page
    assert '<a href="../../bundles/standard-2026-10-r1.json" download>' in page
    assert '<a href="../../public-key.pem">the public key</a>' in page
    made: list[tuple[str, str, int]] = []
    encode = bundles.bundle_pieces

    def counted(engine, pool, period, revision, key=None):  # type: ignore[no-untyped-def]
        made.append((pool, period, revision))
        return encode(engine, pool, period, revision, key)
    monkeypatch.setattr(bundles, "bundle_pieces", counted)
    first = fetch(client, "/bundles/standard-2026-10-r1.json")
    assert first.status_code == 200
    assert first.content_type == "application/json"
    assert first.headers["Cache-Control"] == "no-cache"
    etag = first.headers["ETag"]
    out = tmp_path / "standard-2026-10-r1.json"
    out.write_bytes(first.get_data())
    done = CliRunner().invoke(cli_app, ["verify", str(out), "--key", str(keys[1])])
    assert done.exit_code == 0, done.output
    assert f"list digest {manifest['list_digest']}): verified" in " ".join(done.stdout.split())
    # kept in the server's cache folder, named by the revision, its digest and the key
    kept = sorted(p.name for p in (tmp_path / "cache").iterdir())
    assert len(kept) == 1
    assert kept[0].startswith(f"standard-2026-10-r1-{manifest['list_digest']}-")
    # asked again: the same bytes, not made again; revalidated: 304
    again = fetch(client, "/bundles/standard-2026-10-r1.json")
    assert again.get_data() == first.get_data()
    assert fetch(client, "/bundles/standard-2026-10-r1.json",
                 **{"If-None-Match": etag}).status_code == 304
    assert made == [("standard", "2026-10", 1)]
    # the public key, as keys init wrote it
    key = client.get("/public-key.pem")
    assert key.status_code == 200
    assert key.get_data() == keys[1].read_bytes()


@pytest.mark.parametrize("name", [
    "standard-2026-10-r2",  # a revision the list does not have
    "standard-2026-11-r1",  # a period not closed
    "rapid-2026-09-r1",  # a pool with no list that month
    "standard-2026-10-r0", "classic-2026-10-r1", "standard-2026-10", "..%2F..%2Fetc%2Fpasswd"])
def test_a_bundle_the_ledger_has_not_published_is_the_404_page(unsigned: Flask, tmp_path: Path,
                                                               name: str) -> None:
    response = unsigned.test_client().get(f"/bundles/{name}.json")
    assert response.status_code == 404
    assert "text/html" in response.content_type
    assert not (tmp_path / "cache").exists()  # nothing made


def test_without_a_key_the_bundle_is_unsigned_and_no_key_is_served(
        unsigned: Flask, tmp_path: Path, keys: tuple[Path, Path]) -> None:
    client = unsigned.test_client()
    page = client.get("/lists/rapid/2026-10.html").get_data(as_text=True)
    assert "public-key.pem" not in page
    assert client.get("/public-key.pem").status_code == 404
    out = tmp_path / "rapid.json"
    out.write_bytes(fetch(client, "/bundles/rapid-2026-10-r1.json").get_data())
    assert CliRunner().invoke(cli_app, ["verify", str(out)]).exit_code == 0
    signed_check = CliRunner().invoke(cli_app, ["verify", str(out), "--key", str(keys[1])])
    assert signed_check.exit_code == 1
    assert "the bundle is not signed" in signed_check.stderr


def test_the_cache_folder_is_the_servers_own(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    assert default_cache_dir(str(tmp_path / "club.db")) == tmp_path / "club.db.cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert (default_cache_dir("postgresql+psycopg://u@host/fed eration")
            == tmp_path / "xdg" / "ledger" / "fed_eration")
    assert re.fullmatch(r"[\w.-]+", default_cache_dir("sqlite:///x/club.db").name)
