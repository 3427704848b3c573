"""The club's website, rendered: Jinja2 templates (``templates/``, shipped in the package) with
autoescaping, fed by the values of ``formats.site.model``. Pure: values in, text out, in a fixed
order, so the same values give the same bytes.

Every page is plain HTML and CSS. The site's pages share one stylesheet (``site.css``) and the
list and player-index pages one small script (``site.js``: sorting, filtering, search); nothing
else is loaded, and each page's Content-Security-Policy allows only those two files of its own
folder. Every text from the ledger is escaped (``html.escape``, quotes included) on its way into
a page. Links are relative. The one-page list (``standalone_list``, for ``ledger list --format
html``) is made from the same templates, with the stylesheet and script inlined and allowed by
their SHA-256 in its policy.
"""

from __future__ import annotations

import base64
import functools
import hashlib
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import jinja2
from jinja2.runtime import Context
from markupsafe import Markup

from ledger.domain import count
from ledger.formats.site import chart
from ledger.formats.site.crosstable import crosstable
from ledger.formats.site.joined import LONG, PIECES, Pieces, grouped, joined
from ledger.formats.site.lead import built_on_lead
from ledger.formats.site.model import (
    STATIC,
    EventPage,
    Face,
    ListLine,
    ListPage,
    ListPart,
    PlayerPage,
    Preview,
    Site,
    long_date,
    signed,
    trend,
)
from ledger.formats.site.paths import (
    EVENTS,
    HOME,
    LISTS,
    PLAYERS,
    SCRIPT,
    STYLESHEET,
    event_path,
    list_path,
    player_path,
    preview_path,
    relative,
)
from ledger.formats.site.paths import (
    SITE_POLICY as SITE_POLICY,  # the policy a static page carries, named here too
)
from ledger.formats.site.shown import ShownEnvironment, finalize
from ledger.formats.site.tables import CARDS_BELOW, TABLES, table_class

SITEMAP = "sitemap.xml"
POOL_NAMES = {"standard": "Standard", "rapid": "Rapid", "blitz": "Blitz"}
#: Players shown under each latest list on the home page.
TOP = 10


def _css_string(value: str) -> Markup:
    """``value`` as a CSS string literal: quoted, with backslashes, quotes and line ends escaped
    (and ``<`` too, so no text can close the style element)."""
    escaped = "".join(f"\\{ord(c):x} " if c in '\\"<\n\r' else c for c in value)
    return Markup(f'"{escaped}"')


@jinja2.pass_context
def _player_link(context: Context, player_id: int) -> str:
    """``{{ id|player_link }}``: ``url(player_path(id))``, the link from the page being rendered
    (its ``url``) to the player's page; a filter is one direct call where a template's call of
    a global is two through ``Context.call`` (a player page's game rows hold two links)."""
    return context["url"](player_path(player_id))  # type: ignore[no-any-return]


@jinja2.pass_context
def _event_link(context: Context, event_id: int) -> str:
    """``{{ id|event_link }}``: ``url(event_path(id))``, the link to the tournament's page."""
    return context["url"](event_path(event_id))  # type: ignore[no-any-return]


@functools.cache
def environment() -> jinja2.Environment:
    """The templates' environment: autoescaping on (``shown.shown`` escapes every value an
    HTML or XML template writes, ``shown.finalize`` the others'), strict about undefined
    names, the helpers every template uses as globals; templates are loaded once (no ``stat``
    of each file at every render: they are the package's own)."""
    env = ShownEnvironment(
        loader=jinja2.PackageLoader("ledger.formats.site", "templates"),
        autoescape=jinja2.select_autoescape(("html", "xml")), finalize=finalize,
        undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True, auto_reload=False)
    env.filters.update(css_string=_css_string, signed=signed, trend=trend,
                       player_link=_player_link, event_link=_event_link)
    env.globals.update(
        HOME=HOME, LISTS=LISTS, PLAYERS=PLAYERS, EVENTS=EVENTS, STYLESHEET=STYLESHEET, SCRIPT=SCRIPT,
        long_date=long_date, signed=signed, trend=trend, list_path=list_path, player_path=player_path,
        event_path=event_path, layout=chart.layout, pool_names=POOL_NAMES,
        table_class=table_class, count=count, built_on_lead=built_on_lead)
    return env


def _render(name: str, **context: Any) -> str:
    return joined(environment().get_template(name).generate(**context))


@functools.cache
def _rendered_once(template: str, macro: str, *args: Any, **kwargs: Any) -> Markup:
    """What the macro ``macro`` of ``template`` writes for ``args`` (hashable: a table's
    ``Column`` tuple), the same on every page (a table's headings, the chart key): rendered
    once by the template's own macro (its module, made without a page's context, once) and
    handed to each page as ``Markup``, which the page writes as it is."""
    return Markup(getattr(environment().get_template(template).module, macro)(*args, **kwargs))


@dataclass(frozen=True)
class _Table:
    name: str
    labels: tuple[str, ...]


@functools.cache
def stylesheet() -> str:
    """``site.css``: the one stylesheet, with each table's card labels for narrow screens and
    the cells of a list's one-line row on a phone (``Column.key``)."""
    widths = sorted({*CARDS_BELOW.values(), 40}, reverse=True)
    tables = [_Table(name, tuple(c.label for c in columns)) for name, columns in TABLES.items()]
    groups = [(w, [t for t in tables if CARDS_BELOW.get(t.name, 40) == w]) for w in widths]
    keys = [f"table.folds.t-{name} > tbody > tr > :nth-child({i})"
            for name, columns in TABLES.items() for i, c in enumerate(columns, start=1) if c.key]
    return _render(STYLESHEET, groups=groups, keys=keys)


@functools.cache
def script() -> str:
    """``site.js``: sorting, filtering and search."""
    return _render(SCRIPT)


def _sha256(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()


def _page(template: str, path: str, site: Site, title: str, *, script: bool = False,
          face: Face = STATIC, **context: Any) -> str:
    return "".join(list(_parts(template, path, site, title, script=script, face=face, **context)))


def _parts(template: str, path: str, site: Site, title: str, *, script: bool = False,
           face: Face = STATIC, at_a_time: int = PIECES, **context: Any) -> Iterator[str]:
    """``_page``'s text ``at_a_time`` pieces at a time (``joined.grouped``), made as asked for."""
    url: Callable[[str], str] = functools.partial(relative, path)
    canonical = None if site.base_url is None else site.base_url + ("" if path == HOME else path)
    return grouped(environment().get_template(template).generate(
        url=url, club=site.club, title=title, csp=face.csp, account=face.account,
        canonical=canonical, inline_css=None, inline_js=None, script=script, **context), at_a_time)


def list_neighbours(site: Site, page: ListPage) -> tuple[str | None, str | None]:
    """The paths of the current lists of ``page``'s pool before and after its period (None:
    none), as its page links them."""
    current = {(p.pool, p.period): p.path for p in site.lists if not p.superseded}
    periods = sorted(period for pool, period in current if pool == page.pool)
    at = periods.index(page.period) if page.period in periods else -1
    previous = current[(page.pool, periods[at - 1])] if at > 0 else None
    following = current[(page.pool, periods[at + 1])] if 0 <= at < len(periods) - 1 else None
    return previous, following


#: What a page's content is followed by (``base.html``): a list page's links to the previous
#: and next lists (``list_links.html``) come right before it.
_CONTENT_END = "</div>\n<footer>"


def relinked_list(text: str, path: str, was: tuple[str | None, str | None],
                  neighbours: tuple[str | None, str | None]) -> str | None:
    """The text of the list page at ``path`` (``text``, rendered by ``list_page`` with the
    neighbours ``was``) with the links to its neighbours ``neighbours`` instead, the rest of its
    bytes as they are: what ``list_page`` renders with ``neighbours`` (a close links the list
    before it to the new one, nothing else on that page changes), without rendering its lines
    again. None when ``text`` does not end its content with the links of ``was``."""
    end = text.rfind(_CONTENT_END)
    old, new = (_render("list_links.html", url=functools.partial(relative, path),
                        previous_list=p, next_list=n) for p, n in (was, neighbours))
    if end < 0 or not text[:end].endswith(old):
        return None
    return text[:end - len(old)] + new + text[end:]


def event_list(site: Site, event: EventPage) -> str | None:
    """The path of the current list ``event``'s period published in its pool (None: none)."""
    return next((p.path for p in site.lists if not p.superseded and p.pool == event.pool
                 and p.period == event.period), None)


def list_page(site: Site, page: ListPage, neighbours: tuple[str | None, str | None] = (None, None),
              *, face: Face = STATIC, preview: Preview | None = None,
              part: ListPart | None = None, lines: tuple[ListLine, ...] | None = None) -> str:
    """The page of one published list (``page.path``): sortable, filterable, searchable; a
    superseded revision says so and links the current list, a corrected list links what was
    published before. ``neighbours``: the paths of the previous and next lists of the pool.
    ``preview``: ``page`` is the list its period's close would publish (at ``preview_path``),
    unofficial, said so in its title and heading. The latest list of a pool in
    ``face.previews`` links its preview. ``part`` (live only): the page shows that part of
    ``lines`` (the rows found: the whole list, or those a search found), with links to the
    other parts, a search form and the whole list's CSV. A published revision gives its list
    digest (``page.digest``) and links its bundle (``page.bundle``) and the public key that
    checks its signature (``site.public_key``), with how to check them (``ledger verify``)."""
    return "".join(list_parts(site, page, neighbours, face=face, preview=preview, part=part, lines=lines))


def list_parts(site: Site, page: ListPage, neighbours: tuple[str | None, str | None] = (None, None),
               *, face: Face = STATIC, preview: Preview | None = None,
               part: ListPart | None = None, lines: tuple[ListLine, ...] | None = None,
               at_a_time: int = LONG) -> Iterator[str]:
    """``list_page``'s text ``at_a_time`` pieces at a time (``joined.grouped``; 500 rows a
    piece), made as asked for: a list of 200,000 players, 160 MB as one text, never whole."""
    federations = sorted({line.federation for line in page.lines if line.federation})
    pool = POOL_NAMES.get(page.pool, page.pool)
    title = f"{site.club} - {pool.lower()} rating list {page.period}" + (
        f" (revision {page.revision})" if page.superseded else "") + (
        " (preview, unofficial)" if preview is not None else "")
    offers = (preview is None and page.pool in face.previews and not page.superseded
              and neighbours[1] is None)
    return _parts("list.html", page.path if preview is None else preview_path(page.pool), site,
                  title, script=True, face=face, at_a_time=at_a_time, page=page, pool_name=pool,
                  columns=TABLES["list"], federations=federations,
                  latest=page.revisions[-1] if page.revisions else None,
                  current_path=list_path(page.pool, page.period),
                  previous_list=neighbours[0], next_list=neighbours[1], preview=preview,
                  preview_link=preview_path(page.pool) if offers else None, part=part,
                  bundle_file=(page.bundle or "").rpartition("/")[2],
                  public_key=site.public_key,
                  public_key_file=(site.public_key or "").rpartition("/")[2],
                  shown_lines=page.lines if part is None or lines is None
                  else lines[part.start:part.stop])


def preview_missing_page(site: Site, pool: str, reason: str, *, face: Face = STATIC) -> str:
    """``preview_path(pool)`` when nothing can be previewed (``reason``: no open period with
    games, in words)."""
    name = POOL_NAMES.get(pool, pool)
    return _page("message.html", preview_path(pool), site,
                 f"{site.club} - {name.lower()} rating list preview", face=face,
                 heading=f"{name} rating list preview", message=reason)


def missing_page(site: Site, path: str, *, face: Face = STATIC) -> str:
    """The page for an address the site has no page at (served with 404 at ``path``)."""
    return _page("message.html", path, site, f"Not found - {site.club}", face=face,
                 heading="Not found", message="There is no page at this address. The lists, "
                 "players and tournaments are linked above.")


def player_page(site: Site, page: PlayerPage, *, face: Face = STATIC) -> str:
    """A player's page (``page.path``): identity, each pool's rating, chart, history and games."""
    return _page("player.html", page.path, site, f"{page.name} - {site.club}", face=face,
                 page=page, charts=environment().get_template("chart.html").module,
                 chart_key=_rendered_once("chart.html", "key"),
                 history_head=_rendered_once("macros.html", "head", TABLES["history"],
                                             sortable=False),
                 games_head=_rendered_once("macros.html", "head", TABLES["games"], sortable=False))


def event_page(site: Site, page: EventPage, period_list: str | None = None, *,
               face: Face = STATIC) -> str:
    """A tournament's page (``page.path``): dates, period (``period_list``: the path of the list
    its period published, when it did), crosstable and rating report; an event with games in
    several pools (``page.more``) has a crosstable and a report for each pool, named by it."""
    sections = [(section, *crosstable(section)) for section in (page, *page.more)]
    return _page("event.html", page.path, site, f"{page.name} - {site.club}", face=face,
                 page=page,
                 sections=sections, named=len(sections) > 1,
                 report_columns=TABLES["report"], period_list=period_list)


def home_page(site: Site, *, face: Face = STATIC) -> str:
    """``index.html``: the club, the build date, the latest list of each pool (its top
    players), every list by period (newest first), links to the players and tournaments."""
    current = [p for p in site.lists if not p.superseded]
    pools = list(dict.fromkeys(p.pool for p in current))
    latest = [(pool, max((p for p in current if p.pool == pool), key=lambda p: p.period))
              for pool in pools]
    by_period: dict[str, dict[str, ListPage]] = {}
    for p in current:
        by_period.setdefault(p.period, {})[p.pool] = p
    periods = [(period, next(iter(pages.values())).in_force_from, pages)
               for period, pages in sorted(by_period.items(), reverse=True)]
    return _page("home.html", HOME, site, site.club, face=face, latest=latest, periods=periods,
                 pools=pools, top=TOP, top_columns=TABLES["top"], built_on=site.built_on,
                 players=len(site.players), events=site.events)


def lists_page(site: Site, *, face: Face = STATIC) -> str:
    """``lists/index.html``: each pool with a published list (standard, rapid, blitz, in that
    order; a pool without one is left out), its latest list first and every current list by
    period, newest first, each linked with its player count."""
    current = [p for p in site.lists if not p.superseded]
    pools = [(pool, sorted((p for p in current if p.pool == pool), key=lambda p: p.period,
                           reverse=True))
             for pool in POOL_NAMES if any(p.pool == pool for p in current)]
    previews = [(pool, preview_path(pool)) for pool in POOL_NAMES if pool in face.previews]
    return _page("lists.html", LISTS, site, f"Rating lists - {site.club}", face=face,
                 pools=pools, previews=previews)


def players_page(site: Site, pool: str = "standard", *, face: Face = STATIC) -> str:
    """``players/index.html``: every player by name, with a search box."""
    return "".join(players_parts(site, pool, face=face))


def players_parts(site: Site, pool: str = "standard", *, face: Face = STATIC,
                  at_a_time: int = LONG) -> Iterator[str]:
    """``players_page``'s text ``at_a_time`` pieces at a time, made as asked for."""
    return _parts("players.html", PLAYERS, site, f"Players - {site.club}", script=True, face=face,
                  at_a_time=at_a_time, players=site.players, pool=pool, player_columns=TABLES["players"])


def events_page(site: Site, *, face: Face = STATIC) -> str:
    """``events/index.html``: every tournament by start date."""
    return _page("events.html", EVENTS, site, f"Tournaments - {site.club}", face=face,
                 events=site.events)


def render_site(site: Site, only: Collection[str] | None = None) -> Iterator[tuple[str, str]]:
    """``render_parts``' files, the long pages joined into their text."""
    return ((path, text if isinstance(text, str) else "".join(text.parts))
            for path, text in render_parts(site, only))


def render_parts(site: Site, only: Collection[str] | None = None) -> Iterator[tuple[str, str | Pieces]]:
    """Every file of the site as (path, text), in a fixed order: the stylesheet, the script,
    the home page, the lists and their index, the players' index and pages, the tournaments'
    index and pages, and, with ``site.base_url``, the sitemap; each made as it is asked for.
    ``only``: the list, player and tournament pages to make (paths; the others left out, the
    stylesheet, script, home page, indexes and sitemap made always); None: every page. The
    list pages and the players' index come as ``Pieces`` (their text a group at a time)."""
    def wanted(path: str) -> bool:
        return only is None or path in only

    yield STYLESHEET, stylesheet()
    yield SCRIPT, script()
    yield HOME, home_page(site)
    for page in site.lists:
        if wanted(page.path):
            yield page.path, Pieces(list_parts(site, page, list_neighbours(site, page)))
    yield LISTS, lists_page(site)
    yield PLAYERS, Pieces(players_parts(site))
    for player in site.players:
        if wanted(player.path):
            yield player.path, player_page(site, player)
    yield EVENTS, events_page(site)
    for event in site.events:
        if wanted(event.path):
            yield event.path, event_page(site, event, event_list(site, event))
    if site.base_url is not None:
        yield SITEMAP, sitemap(site.base_url, page_paths(site))


def page_paths(site: Site) -> list[str]:
    """The path of every page of ``site`` (no stylesheet, script or sitemap), in the order
    ``render_site`` makes them."""
    return [HOME, *(p.path for p in site.lists), LISTS, PLAYERS, *(p.path for p in site.players),
            EVENTS, *(e.path for e in site.events)]


def sitemap(base_url: str, paths: Iterable[str]) -> str:
    """``sitemap.xml``: the absolute address of every page under ``base_url`` (ending in "/")."""
    return _render(SITEMAP, addresses=[base_url + ("" if p == HOME else p) for p in paths])


def standalone_list(club: str, subtitle: str, title: str, period: str, count: str,
                    players: Iterable[Any], running: str | None = None, *,
                    digest: str | None = None) -> str:
    """The one-page list: ``club`` as its heading, ``subtitle`` below it, ``title`` for the
    browser, one row per player (``formats.rating_list.ListedPlayer`` values, in the order
    given), ``count`` ("3 players") and ``period`` in the footer, ``running`` atop every printed
    page (default: the club and ``subtitle``), ``digest`` (the list's manifest digest, in the
    footer; None: none); the stylesheet and the sorting script inlined, allowed by their
    SHA-256 and nothing else."""
    css, js = stylesheet(), script()
    policy = (f"default-src 'none'; style-src '{_sha256(css)}'; script-src '{_sha256(js)}'; "
              "base-uri 'none'; form-action 'none'")
    return _render("rating_list.html", url=lambda target: target, club=club, title=title,
                   csp=policy, account=None, canonical=None, inline_css=Markup(css), inline_js=Markup(js),
                   script=False, subtitle=subtitle, period=period, count=count,
                   running=running or f"{club} · {subtitle}", digest=digest,
                   players=list(players), columns=TABLES["rating-list"])
