"""The public pages of ``ledger serve`` (web.public) over the README's example season
(examples/club-season.sh: 2026-09 and 2026-10 closed), with Flask's test client.

The value checked by hand throughout: Tanaka, Hiro (#6, K 40 junior) in 2026-10, rated 1628
after September, beat Moreau (1799: D -171, PD 0.27 by table 8.1.2's 169-176 row) and
Lindqvist (1990: D -362, PD 0.10 by its 358-374 row): expected 0.27 + 0.10 = 0.37, change
40 x (2 - 0.37) = +65.20, rounded once +65, so 1628 + 65 = 1693 on the list of 2026-10 (rank
6 of 6 in standard).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import html
from collections.abc import Iterator
from typing import Any

import pytest
from cli_runs import ok
from example_ledgers import copy_of
from flask import Flask
from flask.testing import FlaskClient
from ledgers import Factory
from public_fixtures import app_over

from ledger.formats.site.model import Site
from ledger.formats.site.pages import render_site
from ledger.formats.site.paths import SITE_POLICY
from ledger.services.core import clock
from ledger.services.core.session import open_ledger
from ledger.services.publishing.site import site_data
from ledger.web import POLICY, public

TANAKA_ROW = ('<td class="num rating">1693</td><td class="num" data-sort="65"><span class="up">'
              '+65</span></td><td class="num">1628</td><td class="num">2</td><td class="num">40'
              '</td>')
TODAY = dt.date(2026, 11, 20)


@pytest.fixture
def app(season_db: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    monkeypatch.setattr(clock, "today", lambda: TODAY)
    with app_over(season_db) as made:
        yield made


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def text(client: FlaskClient, path: str, status: int = 200) -> str:
    response = client.get(path)
    assert response.status_code == status, (path, response.status_code)
    return response.get_data(as_text=True)


def test_the_list_page_shows_the_hand_worked_rating(client: FlaskClient) -> None:
    response = client.get("/lists/standard/2026-10.html")
    assert response.status_code == 200
    assert response.content_type == "text/html; charset=utf-8"
    page = response.get_data(as_text=True)
    assert '<a href="../../players/6.html">Tanaka, Hiro</a>' in page
    assert TANAKA_ROW in page
    # the server's policy in the header (forms may post to the server), none in the page
    assert response.headers["Content-Security-Policy"] == POLICY
    assert 'http-equiv="Content-Security-Policy"' not in page
    assert '<a href="/login">Log in</a>' in page


def test_every_page_the_static_build_writes_is_served_at_its_path(
        client: FlaskClient, season_db: str) -> None:
    engine = open_ledger(season_db)
    try:
        site = site_data(engine, club="Riverside Chess Club", built_on=TODAY)
    finally:
        engine.dispose()
    built = dict(render_site(site))
    # css, js, home; standard 2026-09 and 2026-10, rapid and blitz 2026-10; the lists index;
    # the players index and 7 players; the events index and 4 events
    assert len(built) == 2 + 1 + 4 + 1 + 1 + 7 + 1 + 4
    for path, static in built.items():
        live = text(client, "/" + path)
        if path.endswith(".html"):
            # the same page but for the meta policy (the header's instead) and the login link
            meta = ('<meta http-equiv="Content-Security-Policy" content="'
                    + html.escape(SITE_POLICY, quote=True) + '">\n')
            assert meta in static
            static = static.replace(meta, "")
            static = static.replace('Tournaments</a>\n</nav>',
                                    'Tournaments</a>\n<a href="/login">Log in</a>\n</nav>')
            if path.endswith("/2026-10.html"):  # each pool's latest list links its preview
                offer = ('<p class="pad"><a href="preview.html">Preview of the next list</a> '
                         "(unofficial: today's games rated as the close would rate them).</p>\n")
                assert offer in live
                live = live.replace(offer, "")
            if path == "lists/index.html":  # and the lists' index every pool's
                assert ('<a href="standard/preview.html">Standard</a> · <a href="rapid/'
                        'preview.html">Rapid</a> · <a href="blitz/preview.html">Blitz</a>') in live
                continue
        assert live == static, path


def test_home_and_indexes_answer_at_their_folders_too(client: FlaskClient) -> None:
    assert text(client, "/") == text(client, "/index.html")
    assert text(client, "/lists/") == text(client, "/lists/index.html")
    assert text(client, "/players/") == text(client, "/players/index.html")
    assert text(client, "/events/") == text(client, "/events/index.html")
    home = text(client, "/")
    assert '<a href="players/6.html">Tanaka, Hiro</a>' in home
    assert "20 November 2026" in home  # the live site's date is today


def test_player_and_event_pages(client: FlaskClient) -> None:
    player = text(client, "/players/6.html")
    assert ('<tr><th scope="row" class="wrap">2026-10</th><td class="num">1628</td>'
            '<td class="num">2</td><td class="num">2</td><td class="num">0.37</td>'
            '<td>40 junior</td><td class="num">+65.20</td>') in player
    event = text(client, "/events/2.html")
    assert "Club League 2026-27" in event
    assert "Tanaka, Hiro: period change +65 = this event +65.20 = +65.20, rounded once" in event


def test_stylesheet_and_script(client: FlaskClient) -> None:
    css = client.get("/site.css")
    assert css.content_type == "text/css; charset=utf-8"
    assert css.get_data(as_text=True).startswith(":root") or "body" in css.get_data(as_text=True)
    assert client.get("/site.js").content_type == "text/javascript; charset=utf-8"


@pytest.mark.parametrize("path", [
    "/players/99.html", "/events/99.html", "/lists/standard/2030-01.html",
    "/lists/standard/2026-10-r7.html", "/lists/bullet/2026-10.html", "/players/abc.html",
    "/nothing", "/players/6", "/lists/rapid/preview.htm", "/sitemap.xml",
])
def test_unknown_paths_get_the_404_page(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert response.content_type == "text/html; charset=utf-8"
    page = response.get_data(as_text=True)
    assert "<h1>Not found</h1>" in page
    assert "Riverside Chess Club" in page


def test_the_404_page_links_from_where_it_is(client: FlaskClient) -> None:
    page = text(client, "/a/b/c.html", 404)
    # two folders down: every link climbs two
    assert '<a href="../../lists/index.html">Rating lists</a>' in page


@pytest.mark.parametrize("path", [
    "/../../etc/passwd", "/lists/standard/../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd",
    "/lists/..%2f..%2fetc%2fpasswd.html", "/players/..%2f..%2fledger.db", "/riverside.db",
    "/riverside.db.secret", "/lists/standard/%2e%2e%2f%2e%2e%2friverside.db",
    "/static/site.css/../../riverside.db",
])
def test_no_path_reaches_outside_the_site(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    body = response.get_data()
    assert b"SQLite format 3" not in body
    assert b"root:" not in body


def test_etag_and_revalidation(client: FlaskClient) -> None:
    first = client.get("/lists/standard/2026-10.html")
    etag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "no-cache"
    assert "Cookie" in first.headers["Vary"]
    again = client.get("/lists/standard/2026-10.html", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.get_data() == b""
    other = client.get("/lists/standard/2026-10.html", headers={"If-None-Match": '"stale"'})
    assert other.status_code == 200


def test_a_player_page_is_rendered_once_per_version_and_kept_with_its_etag(
        client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Read twice, Tanaka's page is rendered once: the second answer is the kept bytes, with
    the ETag werkzeug makes of them (the SHA-1 of the body, in quotes), and a 304 for it."""
    from ledger.formats.site import pages
    rendered: list[int] = []
    render = pages.player_page

    def counted(*args: Any, **kwargs: Any) -> str:
        rendered.append(1)
        return render(*args, **kwargs)

    monkeypatch.setattr(pages, "player_page", counted)
    first, second = client.get("/players/6.html"), client.get("/players/6.html")
    assert rendered == [1]
    assert second.get_data() == first.get_data()
    assert "Tanaka, Hiro" in second.get_data(as_text=True)
    assert second.headers["ETag"] == first.headers["ETag"] == \
        f'"{hashlib.sha1(second.get_data()).hexdigest()}"'
    again = client.get("/players/6.html", headers={"If-None-Match": second.headers["ETag"]})
    assert again.status_code == 304
    assert rendered == [1]


def test_kept_pages_stay_within_their_bytes(client: FlaskClient,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """With room for one page only, the least recently read is dropped: after pages 6 and 1
    only page 1 is kept, and reading 6 again renders it again."""
    monkeypatch.setattr(public, "KEPT_BYTES", 1)
    six = client.get("/players/6.html").get_data()
    client.get("/players/1.html")
    kept = client.application.extensions[public.KEY]
    assert [key[1:3] for key in kept.kept] == [("player", 1)]
    assert kept.kept_bytes == len(client.get("/players/1.html").get_data())
    assert client.get("/players/6.html").get_data() == six
    assert [key[1:3] for key in kept.kept] == [("player", 6)]


def test_a_logged_in_user_gets_the_account_link(app: Flask) -> None:
    from flask import g

    @app.before_request
    def _user() -> None:  # what the accounts' blueprint sets for a session
        g.user = "ann"

    page = text(app.test_client(), "/lists/")
    assert '<a href="/account">Account</a>' in page
    assert "/login" not in page


def test_the_open_period_offers_its_preview_labelled_unofficial(
        season_db: str, new_ledger: Factory, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a copy: no preview while nothing is open; after the CLI records a November game
    (Tanaka 1693 beats Okafor 2389: D 696, counted as 400, PD 0.08 and 0.92), the preview
    shows Tanaka at 1693 + round(40 x (1 - 0.08)) = 1693 + 37 = 1730 and Okafor (K 10) at
    2389 + round(10 x (0 - 0.92)) = 2389 - 9 = 2380, unofficial; the published list of
    2026-10 is unchanged and links it."""
    monkeypatch.setattr(clock, "today", lambda: TODAY)
    gathered: list[int] = []

    def counted(*args: object, **kwargs: Any) -> Site:
        gathered.append(1)
        return site_data(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(public, "site_data", counted)
    db = copy_of(season_db, new_ledger("copy"))
    with app_over(db) as app:
        client = app.test_client()
        before = text(client, "/lists/standard/preview.html")
        assert "No preview: nothing to close" in before
        published = text(client, "/lists/standard/2026-10.html")
        assert '<a href="preview.html">Preview of the next list</a>' in published
        player_before = client.get("/players/6.html").headers["ETag"]
        assert len(gathered) == 1  # three pages, one gathering: the ledger has not changed
        ok(db, "game", "add", "Tanaka, Hiro", "Okafor, Grace", "1-0", "--date", "2026-11-05",
           "--event", "Club League 2026-27", "--round", "5")
        preview = text(client, "/lists/standard/preview.html")
        assert "preview, unofficial" in preview
        assert "Unofficial: this is not a published list" in preview
        assert "the period has not ended" in preview
        assert ('<td class="num rating">1730</td><td class="num" data-sort="37"><span '
                'class="up">+37</span></td><td class="num">1693</td>') in preview
        assert ('<td class="num rating">2380</td><td class="num" data-sort="-9"><span '
                'class="down">-9</span></td><td class="num">2389</td>') in preview
        assert text(client, "/lists/standard/2026-10.html") == published
        after = client.get("/players/6.html")
        assert after.headers["ETag"] != player_before
        assert "2026-11-05" in after.get_data(as_text=True)
        assert len(gathered) == 2  # gathered again once, after the write
    # the preview wrote nothing: the ledger's list and audit stay as they were
    assert "2026-11" not in ok(db, "period", "list").stdout


def test_a_long_list_is_shown_in_parts_with_a_search_and_the_whole_list_as_csv(
        client: FlaskClient, season_db: str, monkeypatch: pytest.MonkeyPatch,
        tmp_path: Any) -> None:
    # standard 2026-10 has 6 players (Tanaka rank 6 of 6); parts of 2 rows: 3 parts
    monkeypatch.setattr(public, "LIST_ROWS", 2)
    first = text(client, "/lists/standard/2026-10.html")
    assert "Players 1 to 2 of 6." in first
    assert '<a href="?part=2" rel="next">Next</a>' in first
    assert '<a href="2026-10.csv" download>The whole list (CSV)</a>' in first
    assert first.count('<td class="num">1</td><th scope="row"') == 1 and TANAKA_ROW not in first
    last = text(client, "/lists/standard/2026-10.html?part=3")
    assert "Players 5 to 6 of 6." in last and TANAKA_ROW in last
    assert '<a href="?part=2" rel="prev">Previous</a>' in last and 'rel="next"' not in last
    # the search reads the whole list by the name key: "TANAKA" finds Tanaka, Hiro
    found = text(client, "/lists/standard/2026-10.html?q=TANAKA")
    assert "Players 1 to 1 of 1 whose name holds &ldquo;TANAKA&rdquo;." in found
    assert TANAKA_ROW in found
    none = text(client, "/lists/standard/2026-10.html?q=%3Cb%3Enobody")
    assert "No player's name holds &ldquo;&lt;b&gt;nobody&rdquo;." in none
    for bad in ("part=4", "part=0", "part=two"):
        text(client, f"/lists/standard/2026-10.html?{bad}", 404)
    # the CSV is ledger list --format csv's, byte for byte
    csv = client.get("/lists/standard/2026-10.csv")
    assert csv.status_code == 200 and csv.content_type.startswith("text/csv")
    assert csv.headers["Content-Disposition"] == 'attachment; filename="standard-2026-10.csv"'
    out = tmp_path / "list.csv"
    ok(season_db, "list", "--period", "2026-10", "--format", "csv", "--club",
       "Riverside Chess Club", "--output", str(out))
    assert csv.get_data() == out.read_bytes()
    assert b"Tanaka, Hiro" in csv.get_data()
    text(client, "/lists/standard/2031-01.csv", 404)


def test_a_short_list_is_one_page_as_the_static_site_has_it(client: FlaskClient) -> None:
    # 6 players, parts of 500: no parts, no search form (the page's own filter finds them)
    page = text(client, "/lists/standard/2026-10.html")
    assert "Parts of the list" not in page and 'name="q"' not in page


def test_logins_and_submissions_do_not_make_the_site_gathered_again(
        season_db: str, new_ledger: Factory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each login and failed login writes an audit entry (as a pending submission does); none
    changes a page, so none moves the version the live site is kept under
    (``marks.UNSHOWN_ACTIONS``):
    a busy login page at a federation does not make every worker gather 20,000 players
    again. A change a page shows (a game recorded) still does."""
    from helpers import form_post

    from ledger.domain import Actor
    from ledger.services.accounts.users import add_user

    monkeypatch.setattr(clock, "today", lambda: TODAY)
    gathered: list[int] = []

    def counted(*args: object, **kwargs: Any) -> Site:
        gathered.append(1)
        return site_data(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(public, "site_data", counted)
    db = copy_of(season_db, new_ledger("copy"))
    with app_over(db) as app:
        add_user(app.extensions["ledger"], Actor("tests", "test"), "Rita Reporter", "reporter",
                 "correct horse battery")
        client = app.test_client()
        text(client, "/lists/standard/2026-10.html")
        assert len(gathered) == 1
        wrong = form_post(client, "/login", {"username": "Rita Reporter", "password": "nope"})
        assert wrong.status_code == 401
        right = form_post(client, "/login", {"username": "Rita Reporter",
                                             "password": "correct horse battery"})
        assert right.status_code == 302
        text(client, "/lists/standard/2026-10.html")
        text(client, "/players/6.html")
        assert len(gathered) == 1  # the logins wrote the audit log, and changed no page
        ok(db, "game", "add", "Tanaka, Hiro", "Okafor, Grace", "1-0", "--date", "2026-11-05",
           "--event", "Club League 2026-27", "--round", "5")
        text(client, "/players/6.html")
        assert len(gathered) == 2  # a game is a change a page shows
