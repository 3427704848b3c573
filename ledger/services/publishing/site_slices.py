"""The full site build a slice of players at a time (issue 25): ``ledger site build`` of a
whole site gathers and renders the player pages ``SLICE`` players at a time and the tournament
pages a few events at a time, so that its memory does not hold every player's history, games
and page at once (4.5 GB at 200,000 players when it did).

What stays whole for the build (``sliced_site``, one read transaction): every list with its
lines and every player's states through each pool's latest list (``site.read_common``: the list
pages, the charts' points, the previous ratings), every player and event as the indexes, the
home page and the sitemap show them (``summary_player``, ``summary_event``: the scoped rebuild's
summaries, ``site_scope``), and the events' start dates. A slice's pages are gathered as the
scoped rebuild gathers its players' (their game lines, ``game_lines.periods_game_lines``, and
their histories), rendered and handed to the writer, then dropped; so are the events'.

The summaries are here too: ``records_now``, ``event_counts``, with the players a site shows
(``listed_players``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import distinct, func, select, union_all
from sqlalchemy.orm import Session

from ledger.db.engine import release_cache
from ledger.db.models import Game, Player
from ledger.db.order import PLAYER_ORDER
from ledger.domain import POOLS, STANDARD, Period, RatingPool
from ledger.formats.site.joined import Pieces
from ledger.formats.site.model import EventPage, PlayerPage, PoolRecord, Site
from ledger.formats.site.pages import event_list, player_page, render_parts
from ledger.formats.site.pages import event_page as render_event
from ledger.formats.site.paths import PUBLIC_KEY
from ledger.names import name_key
from ledger.services.close.state import last_closed_period, load_histories
from ledger.services.core.bulk import paused_gc
from ledger.services.core.session import Ledger, transaction
from ledger.services.publishing.event_reports import event_pools
from ledger.services.publishing.game_lines import game_periods, periods_game_lines
from ledger.services.publishing.histories import player_histories
from ledger.services.publishing.site import (
    Common,
    Lists,
    event_page,
    event_reports_of,
    players_of,
    read_common,
)
from ledger.services.register.events import EventView
from ledger.services.register.player_views import earliest_game_period, player_view

#: Above this many ids a gather reads every row and keeps those it needs (a statement's
#: parameters are limited: SQLite's to 32,766).
MANY = 5000
#: The players whose pages a full build gathers and renders at a time (2,000 before issue
#: 25's siteram: at L a slice's gather left the rebuild after a close 104 MB larger, 1,000's 55).
SLICE = 1000
#: The valid games whose events' pages a full build gathers at a time (an event with more is
#: gathered alone).
EVENT_GAMES = 20_000


class Handed:
    """What ``sliced_site`` hands the writer: the ``Site`` of summaries and every file of the
    site, which the writer takes out (``take``) so that no one else holds them: once the files
    are all made, the lists' lines and the summaries are gone before the bundles are made."""

    def __init__(self, site: Site, files: Iterator[tuple[str, str | Pieces]]) -> None:
        self._held: list[tuple[Site, Iterator[tuple[str, str | Pieces]]]] = [(site, files)]

    def take(self) -> tuple[Site, Iterator[tuple[str, str | Pieces]]]:
        """The site and its files, once (``IndexError`` the second time)."""
        return self._held.pop()


@contextmanager
def sliced_site(engine: Ledger, *, club: str, built_on: dt.date, base_url: str | None = None,
                bundles: bool = True, public_key: bool = False, size: int = SLICE,
                players: Collection[int] | None = None, events: Collection[int] | None = None,
                lists: Collection[tuple[str, str]] = ()) -> Iterator[Handed]:
    """The site ``site.site_data`` gathers (same arguments), for the full build, ``Handed``:
    the ``Site`` with its lists whole and every player and event a summary (what the home
    page, the indexes and the sitemap show; ``len`` of its players and events as the full
    gather's), and every file of the site as (path, text), made as they are asked for, the
    pages of ``size`` players at a time (see the module's docstring), in ``render_site``'s
    order but the player and tournament pages after the sitemap. Both inside one read
    transaction, open until the block ends: the files must be taken within it. The same bytes
    as ``render_site(site_data(...))``.

    ``players`` (ids; None: the full build): a scoped rebuild's (``site_scope.scoped_site``),
    whose files are then the stylesheet, script, home page, indexes and sitemap, and the pages
    of those ``players``, of the ``events`` (ids; None: every one) and of the lists ``lists``
    ((pool, period) pairs) only; each list but those and the latest of each pool holds the
    lines of ``players`` only (``site.read_common``). The same bytes as ``render_site(site,
    those paths)`` of the whole gather."""
    with transaction(engine, write=False) as session:
        with paused_gc():  # what it reads is kept, not let go: no collection finds garbage
            common = read_common(session, bundles, lists, players)
            listed = listed_players(session)
            ratings = records_now(session, common.lists, listed)
            shown = [e for e in common.events if e.games]
            counts = event_counts(session, [e.id for e in shown])
            site = Site(club, built_on, tuple(common.lists.pages),
                        tuple(summary_player(p, ratings[p.id]) for p in listed),
                        tuple(summary_event(e, *counts[e.id]) for e in shown), base_url,
                        PUBLIC_KEY if public_key else None)
        pages = {page.path for page in site.lists
                 if players is None or (page.pool, page.period) in lists}
        handed = Handed(site, _files(
            session, site, common, pages,
            [p.id for p in listed if players is None or p.id in players],
            [e.id for e in shown if events is None or e.id in events], size))
        del site, common, listed, ratings  # the files hold what they need while they need it
        yield handed


def _files(session: Session, site: Site, common: Common, lists: set[str], ids: list[int],
           events: list[int], size: int) -> Iterator[tuple[str, str | Pieces]]:
    """The files of ``sliced_site``: the stylesheet, script, home page, the list pages at the
    paths ``lists``, the indexes and the sitemap (``render_site`` with no player or
    tournament page), then the pages of the players ``ids`` (in the order of the players'
    index), ``size`` at a time, then the pages of the ``events``, a few at a time
    (``EVENT_GAMES``); then SQLite's page cache of ``session`` is let go
    (``engine.release_cache``)."""
    yield from render_parts(site, lists)
    pools = pool_periods(session, common) if ids or events else {}
    for start in range(0, len(ids), size):
        for player in _player_pages(session, common, pools, ids[start:start + size]):
            yield player.path, player_page(site, player)
    for group in _event_groups(session, events):
        for event in _event_pages(session, common, pools, group):
            yield event.path, render_event(site, event, event_list(site, event))
    release_cache(session.connection())  # read through: the bundles come next


def lines_states(common: Common, pool: RatingPool) -> tuple[Period, Any] | None:
    """The states ``read_common`` read of ``pool`` (``periods_game_lines``' ``states``)."""
    return (common.lists.through[pool], common.lists.states[pool]) \
        if pool in common.lists.states else None


def pool_periods(session: Session, common: Common) -> dict[RatingPool, list[Period]]:
    """Each pool's periods with games that a player's or an event's game lines cover: every
    period in standard, those ``common`` says the pool was used in for rapid and blitz."""
    periods = game_periods(session)
    return {pool: [p for p in periods if pool == STANDARD or pool in common.used.get(str(p), ())]
            for pool in POOLS}


def _player_pages(session: Session, common: Common, pools: dict[RatingPool, list[Period]],
                  ids: list[int]) -> tuple[PlayerPage, ...]:
    """The whole pages of the players ``ids`` (at most ``MANY``), as ``site_data`` gathers them:
    their game lines in every pool and period, their histories."""
    every_line = {pool: periods_game_lines(session, pools[pool], pool=pool, of_players=ids,
                                           states=lines_states(common, pool), own=True)
                  for pool in POOLS}
    histories = {pool: player_histories(session, ids, pool) if pool in common.pools else []
                 for pool in POOLS}
    return players_of(histories, common.lists, every_line, common.starts)


def _event_groups(session: Session, events: list[int]) -> Iterator[list[int]]:
    """``events`` in their order, in groups of at most ``EVENT_GAMES`` valid games (an event
    with more alone) and ``MANY`` events."""
    if not events:
        return
    games = dict(session.execute(select(Game.event_id, func.count()).where(
        Game.status == "valid", Game.event_id.is_not(None)).group_by(Game.event_id)).all())
    group: list[int] = []
    held = 0
    for event_id in events:
        n = games.get(event_id, 0)
        if group and (held + n > EVENT_GAMES or len(group) == MANY):
            yield group
            group, held = [], 0
        group.append(event_id)
        held += n
    if group:
        yield group


def _event_pages(session: Session, common: Common, pools: dict[RatingPool, list[Period]],
                 events: list[int]) -> list[EventPage]:
    """The whole pages of ``events`` (valid games each), as ``site_data`` gathers them: the
    game lines of their games in every pool they have games in, their reports."""
    wanted = {pool for found in event_pools(session, events).values() for pool in found}
    every_line = {pool: periods_game_lines(session, pools[pool], pool=pool, of_events=events,
                                           states=lines_states(common, pool))
                  if pool in wanted else [] for pool in POOLS}
    return [event_page(*reports) for reports in event_reports_of(session, events, every_line)]


def listed_players(session: Session) -> Sequence[Any]:
    """Every player a site shows (not merged into another, not withdrawn), in
    ``PLAYER_ORDER``: id, name, FIDE id, federation, titles, sex, birth year (Core rows)."""
    return session.execute(select(
        Player.id, Player.name, Player.fide_id, Player.federation, Player.title, Player.sex,
        Player.birth_year, Player.w_title, Player.o_title, Player.foa_title)
        .where(Player.merged_into.is_(None), Player.withdrawn.is_(False))
        .order_by(*PLAYER_ORDER)).all()


def records_now(session: Session, lists: Lists,
                players: Sequence[Any]) -> dict[int, PoolRecord]:
    """Each of ``players``' standard record as the players' index shows it: the rating in
    force now, K and its reason, rated games (``player_view`` of their history through the
    latest standard list, which the lists read already), no history, chart or games."""
    last = last_closed_period(session, STANDARD)
    states = lists.states.get(STANDARD)
    latest = max((p.period for p in lists.pages if p.pool == STANDARD), default=None)
    if states is None or last is None or latest != str(last):
        states = load_histories(session, None, through=last or Period(1, 1), pool=STANDARD)
    next_period = last.next() if last is not None else earliest_game_period(session)
    found = {}
    for p in players:
        v = player_view(p, states[p.id], next_period, last, STANDARD)
        found[p.id] = PoolRecord(STANDARD, v.rating, v.k, v.k_reason.value, v.rated_games,
                                 (), (), ())
    return found


def summary_player(p: Any, record: PoolRecord) -> PlayerPage:
    """A player as the players' index shows them, from a row of ``listed_players`` (never
    rendered)."""
    return PlayerPage(p.id, p.name, name_key(p.name), p.fide_id, p.federation, p.title, p.sex,
                      p.birth_year, (record,))


def event_counts(session: Session, ids: Collection[int]) -> dict[int, tuple[str, int, int]]:
    """Event id -> its first pool (``event_pools``: its own, or the first with a valid game),
    and in that pool how many valid games and players: what the tournaments' index shows."""
    if not ids:
        return {}
    first = {i: pools[0] for i, pools in event_pools(session, list(ids)).items()}
    where = (Game.status == "valid") & Game.event_id.in_(ids) if len(ids) <= MANY \
        else Game.status == "valid"
    games = {(e, pool): n for e, pool, n in session.execute(
        select(Game.event_id, Game.pool, func.count()).where(where)
        .group_by(Game.event_id, Game.pool))}
    sides = union_all(select(Game.event_id, Game.pool, Game.white_id.label("who")).where(where),
                      select(Game.event_id, Game.pool, Game.black_id).where(where)).subquery()
    players = {(e, pool): n for e, pool, n in session.execute(
        select(sides.c.event_id, sides.c.pool, func.count(distinct(sides.c.who)))
        .group_by(sides.c.event_id, sides.c.pool))}
    return {i: (pool, games[i, pool], players[i, pool]) for i, pool in first.items()}


def summary_event(e: EventView, pool: str, games: int, players: int) -> EventPage:
    """An event as the tournaments' index and the home page show it (never rendered)."""
    return EventPage(e.id, e.name, e.start_date, e.end_date, e.period, False, None, None, games,
                     (), pool, players=players)
