"""The public pages (no login): every page ``ledger site build`` writes, live, at the path the
static build writes it to (``/`` and ``index.html``, ``lists/...``, ``players/...``,
``events/...``, ``site.css``, ``site.js``), rendered by the same functions
(``formats.site.pages``) from the same values (``services.publishing.site.site_data``); and the
preview of each pool's next list (``lists/POOL/preview.html``, unofficial: ``ledger list
--preview``).

Caching (``_Live``): the ``Site`` is gathered once per version of the ledger (its latest change
id, ``services.publishing.marks.latest_change``, one indexed read per request: on PostgreSQL one
round trip; and today's date, which the home page shows) and gathered again when that moves, so
no page is ever older than the latest change a request could see. Pages are rendered on demand
and kept rendered (``Rendered``: the body's bytes and ETag) up to ``KEPT_BYTES`` per process:
a published list revision never changes, so its parts (and its CSV) are kept whatever the
version, keyed by the list (pool, period, revision, the revisions it links, its neighbours),
the part and what the page around it shows (the account link); a player's page is kept for
the version it shows (dropped when the version moves). A preview is kept for its version. No
path reaches the file system: every page is looked up among the site's pages by its path,
anything else is the 404 page.
"""

from __future__ import annotations

import datetime as dt
import functools
import gc
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Response, current_app, request
from sqlalchemy import Engine
from werkzeug.http import generate_etag

from ledger.domain import POOLS, parse_pool
from ledger.errors import LedgerError, PeriodError
from ledger.formats.site import pages
from ledger.formats.site.model import (
    EventPage,
    Face,
    ListLine,
    ListPage,
    ListPart,
    PlayerPage,
    Preview,
    Site,
)
from ledger.formats.site.paths import SCRIPT, STYLESHEET, event_path, player_path
from ledger.names import name_key
from ledger.services.core import clock
from ledger.services.publishing import live
from ledger.services.publishing.site import site_data
from ledger.web import SIGNING_KEY
from ledger.web.pages import account_link

blueprint = Blueprint("public", __name__)

#: Where each app keeps its ``_Live`` (``app.extensions``).
KEY = "ledger.public"
#: The most bytes of rendered pages one process keeps (the least recently used dropped
#: first): at size M (20,000 players) every player page (about 9 KB each, 180 MB) and every part
#: of a list (40 of about 210 KB) fit.
KEPT_BYTES = 256 * 1024 * 1024

HTML = "text/html; charset=utf-8"
TYPES = {STYLESHEET: "text/css; charset=utf-8", SCRIPT: "text/javascript; charset=utf-8"}


@dataclass(frozen=True)
class Shown:
    """The site of one version of the ledger (``version``: its latest change id and the date)
    and its pages by path (lists, players, events)."""

    version: tuple[int, dt.date]
    site: Site
    paths: dict[str, ListPage | PlayerPage | EventPage]


@dataclass(frozen=True)
class Rendered:
    """A page kept rendered: its body (UTF-8) and its ETag (``werkzeug.http.generate_etag`` of
    the body, as ``Response.add_etag`` makes it), so a kept page is neither rendered, encoded nor
    hashed again."""

    body: bytes
    etag: str

    @classmethod
    def of(cls, text: str) -> Rendered:
        body = text.encode("utf-8")
        return cls(body, generate_etag(body))


@dataclass
class _Live:
    """One app's cache: the ``shown`` site, the rendered pages (``kept``, least recently used
    first, ``kept_bytes`` in all; keyed by (the version they show, or None for a published list
    revision, which never changes; then what the page shows)), the previews by version and pool
    (a page and whether its period ended, or why there is none)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    shown: Shown | None = None
    kept: OrderedDict[tuple[Hashable, ...], Rendered] = field(default_factory=OrderedDict)
    kept_bytes: int = 0
    previews: dict[tuple[tuple[int, dt.date], str], tuple[ListPage, bool] | str] = field(
        default_factory=dict)


def _live() -> _Live:
    state: _Live = current_app.extensions.setdefault(KEY, _Live())
    return state


def _engine() -> Engine:
    engine: Engine = current_app.extensions["ledger"]
    return engine


def current() -> Shown:
    """The site of the ledger as it is now: gathered again (``site_data``) only when its latest
    change id, or the date, moved since it was last gathered. Threads wait for one gathering,
    not each their own."""
    state = _live()
    version = (live.latest_change(_engine()), clock.today())
    with state.lock:
        if state.shown is None or state.shown.version != version:
            site = site_data(_engine(), club=current_app.config["LEDGER_CLUB"],
                             built_on=version[1],
                             public_key=current_app.extensions.get(SIGNING_KEY) is not None)
            paths: dict[str, ListPage | PlayerPage | EventPage] = {p.path: p for p in site.lists}
            paths |= {p.path: p for p in site.players}
            paths |= {p.path: p for p in site.events}
            state.shown = Shown(version, site, paths)
            # The site is read, never changed, until the next version: out of the collector's
            # passes (gc.freeze), so a pass of generation 1 does not walk its half a million
            # objects (up to 18 ms at size M, every thread of the process stopped). An old site
            # is still freed by its reference counts when dropped (it holds no cycle).
            gc.freeze()
            state.previews = {k: v for k, v in state.previews.items() if k[0] == version}
            for key in [k for k in state.kept if k[0] is not None and k[0] != version]:
                state.kept_bytes -= len(state.kept.pop(key).body)
        return state.shown


def face(site: Site) -> Face:
    """What a live page carries: no meta policy (the server's header policy stands), the link
    to log in or, for a user logged in (``g.user``), to their account, and a preview link for
    each pool with a list (standard always)."""
    previews = tuple(p for p in POOLS if p == "standard" or any(x.pool == p for x in site.lists))
    return Face(csp=None, account=account_link(), previews=previews)


def _page(text: str | Rendered, status: int = 200, mimetype: str = HTML) -> Response:
    """``text`` (or a kept page) as an answer that a browser revalidates (``no-cache``) by its
    ETag (a hash of the body): 304 when it still holds it. Varies with the cookie (the account
    link)."""
    page = text if isinstance(text, Rendered) else None
    body: str | bytes = text.body if isinstance(text, Rendered) else text
    response = Response(body, status=status, content_type=mimetype)
    response.headers["Cache-Control"] = "no-cache"
    response.vary.add("Cookie")
    if status == 200:
        if page is None:
            response.add_etag()
        else:
            response.set_etag(page.etag)
        response.make_conditional(request)
    return response


def _kept(key: tuple[Hashable, ...], render: Callable[[], str]) -> Rendered:
    """The page kept under ``key`` (its first item: the version the page shows, or None when
    it never changes), rendered (and kept) when missing; the least recently used dropped while
    more than ``KEPT_BYTES`` are kept. Two threads missing the same page may both render it."""
    state = _live()
    with state.lock:
        found = state.kept.get(key)
        if found is not None:
            state.kept.move_to_end(key)
            return found
    page = Rendered.of(render())
    with state.lock:
        if key[0] is not None and (state.shown is None or state.shown.version != key[0]):
            return page  # the ledger moved meanwhile: not kept
        old = state.kept.pop(key, None)
        state.kept_bytes += len(page.body) - (0 if old is None else len(old.body))
        state.kept[key] = page
        while state.kept_bytes > KEPT_BYTES and len(state.kept) > 1:
            state.kept_bytes -= len(state.kept.popitem(last=False)[1].body)
    return page


def not_found() -> Response:
    """The 404 page (the site's look, its navigation, linked relative to ``request.path``)."""
    site = current().site
    return _page(pages.missing_page(site, request.path.lstrip("/") or "index.html",
                                    face=face(site)), 404)


@blueprint.get("/")
@blueprint.get("/index.html")
def home() -> Response:
    site = current().site
    return _page(pages.home_page(site, face=face(site)))


@blueprint.get("/site.css")
@blueprint.get("/site.js")
def asset() -> Response:
    name = request.path.lstrip("/")
    response = _page(pages.stylesheet() if name == STYLESHEET else pages.script(),
                     mimetype=TYPES[name])
    return response


@blueprint.get("/favicon.ico")
def favicon() -> Response:
    """No icon: an empty answer (204), so that the request every browser makes for one is not
    a 404 on its console."""
    return Response(status=204)


@blueprint.get("/lists/")
@blueprint.get("/lists/index.html")
def lists_index() -> Response:
    site = current().site
    return _page(pages.lists_page(site, face=face(site)))


@blueprint.get("/players/")
@blueprint.get("/players/index.html")
def players_index() -> Response:
    site = current().site
    return _page(pages.players_page(site, face=face(site)))


@blueprint.get("/events/")
@blueprint.get("/events/index.html")
def events_index() -> Response:
    site = current().site
    return _page(pages.events_page(site, face=face(site)))


#: The rows of a list one live page shows: a federation's list of 20,000 is 40 pages, each
#: read in a moment on a phone; the whole list is a download (``list_csv``).
LIST_ROWS = 500
#: The longest search a list page takes (a name is at most 200 characters).
MAX_QUERY = 200


def _part(lines: tuple[ListLine, ...],
          path: str | None) -> tuple[ListPart, tuple[ListLine, ...]] | None:
    """The part of ``lines`` the request asks for (``?part=N``, ``?q=`` a name to find: the
    rows whose name key holds the query's), and the rows found; None for a bad ``part``.
    ``path``: the list page's (its CSV beside it), None for a preview (no CSV)."""
    query = request.args.get("q", "").strip()[:MAX_QUERY]
    if query:
        key = name_key(query)
        lines = tuple(line for line in lines if key in line.name_key)
    parts = max(1, -(-len(lines) // LIST_ROWS))
    try:
        number = int(request.args.get("part", "1"))
    except ValueError:
        return None
    if not 1 <= number <= parts:
        return None
    start = (number - 1) * LIST_ROWS
    download = None if path is None else path.removesuffix(".html") + ".csv"
    return (ListPart(number, parts, start, min(start + LIST_ROWS, len(lines)), len(lines), query,
                     download), lines)


@blueprint.get("/lists/<pool>/<name>.html")
def list_page(pool: str, name: str) -> Response:
    """A published list (``lists/standard/2026-10.html``, a superseded revision
    ``2026-10-r1.html``), or the pool's preview (``preview.html``), ``LIST_ROWS`` rows a page
    (``?part=N``; ``?q=`` finds players by name in the whole list)."""
    if name == "preview" and pool in POOLS:
        return preview(pool)
    shown_now = current()
    site = shown_now.site
    page = shown_now.paths.get(f"lists/{pool}/{name}.html")
    if not isinstance(page, ListPage):
        return not_found()
    asked = _part(page.lines, page.path)
    if asked is None:
        return not_found()
    part, lines = asked
    shown = face(site)
    neighbours = pages.list_neighbours(site, page)
    render = functools.partial(pages.list_page, site, page, neighbours, face=shown, part=part,
                               lines=lines)
    if part.query:
        return _page(render())
    key = (None, page.pool, page.period, page.revision, page.revisions, neighbours, shown,
           part.number)
    return _page(_kept(key, render))


@blueprint.get("/lists/<pool>/<name>.csv")
def list_csv(pool: str, name: str) -> Response:
    """The whole of a published list as CSV (``ledger list --format csv``): the current list
    (``lists/standard/2026-10.csv``) or a superseded revision (``2026-10-r1.csv``)."""
    page = current().paths.get(f"lists/{pool}/{name}.html")
    if not isinstance(page, ListPage):
        return not_found()
    key = (None, "csv", page.pool, page.period, page.revision)
    text = _kept(key, lambda: live.list_csv(_engine(), page.pool, page.period, page.revision,
                                            current_app.config["LEDGER_CLUB"]))
    response = _page(text, mimetype="text/csv")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="{page.pool}-{page.period}'
        f'{f"-r{page.revision}" if page.superseded else ""}.csv"')
    return response


def preview(pool: str) -> Response:
    """The list closing ``pool``'s earliest open period would publish today, labelled
    unofficial; a page saying why when there is none (nothing open with games)."""
    shown_now = current()
    site = shown_now.site
    state = _live()
    key = (shown_now.version, pool)
    with state.lock:
        found = state.previews.get(key)
    if found is None:
        try:
            found = live.preview_page(_engine(), parse_pool(pool), today=site.built_on)
        except PeriodError as exc:  # nothing open to close: so until the ledger changes
            found = f"No preview: {exc}."
        except LedgerError as exc:  # read-only, or busy: said, and tried again next time
            return _page(pages.preview_missing_page(site, pool, f"No preview: {exc}.",
                                                    face=face(site)))
        with state.lock:
            state.previews[key] = found
    if isinstance(found, str):
        return _page(pages.preview_missing_page(site, pool, found, face=face(site)))
    page, ended = found
    asked = _part(page.lines, None)
    if asked is None:
        return not_found()
    part, lines = asked
    return _page(pages.list_page(site, page, face=face(site), preview=Preview(site.built_on, ended),
                                 part=part, lines=lines))


@blueprint.get("/players/<int:player_id>.html")
def player(player_id: int) -> Response:
    shown_now = current()
    page = shown_now.paths.get(player_path(player_id))
    if not isinstance(page, PlayerPage):
        return not_found()
    shown = face(shown_now.site)
    return _page(_kept((shown_now.version, "player", player_id, shown),
                       lambda: pages.player_page(shown_now.site, page, face=shown)))


@blueprint.get("/events/<int:event_id>.html")
def event(event_id: int) -> Response:
    shown_now = current()
    site = shown_now.site
    page = shown_now.paths.get(event_path(event_id))
    if not isinstance(page, EventPage):
        return not_found()
    return _page(pages.event_page(site, page, pages.event_list(site, page), face=face(site)))


@blueprint.app_errorhandler(405)
def not_allowed(exc: Exception) -> Any:
    """A method a route does not take: under ``/api/`` (read only: GET), the API's JSON 405;
    elsewhere Flask's own answer."""
    if request.path.startswith("/api/"):
        from ledger.web.api import error  # the API words its own
        response = error(405, "method", f"{request.method}: the API only reads (GET)")
        response.headers["Allow"] = "GET, HEAD, OPTIONS"
        return response
    return exc


@blueprint.app_errorhandler(404)
def unknown(_: Exception) -> Response:
    """Any address no route answers: the site's 404 page (under ``/api/``: the API's JSON)."""
    if request.path.startswith("/api/"):
        from ledger.web.api import error  # the API words its own
        return error(404, "path", f"{request.path}: no such address in the API")
    return not_found()
