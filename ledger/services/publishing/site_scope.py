"""Which pages of a built site the ledger's changes since its build touched (issue 25): a
rebuild after a month's close or a few games renders those pages only, the others kept.

``scope_since`` reads the changes after the one a site folder was built from
(``site_record.Stamp.change``, with its chain hash: the same ledger) and, when every one of
them is a close (``period.close``, the first revision of its period: no re-rating) or a
recording of games (``game.add``, ``import``), gives the ``Scope`` of the pages they touched;
anything else (a rename, a merge, a correction, a void, a re-rating, a reopening, an action it
does not know) gives None: the full build. Changes no page shows (``marks.UNSHOWN_ACTIONS``)
are passed over.

What each change touches (besides the home page, the indexes and the sitemap, which a scoped
build always renders):

- ``game.add``/``import`` of change C: the players of the games C wrote (``games.change_id``)
  and the players and entries it wrote (a new player's page), the events of those games and
  the events it wrote.
- ``period.close`` of P in pool X (revision 1): every player with a game of P in X (rated, or
  unrated with their way to a first rating; any status) or with a game an initial rating
  published in P counts (its status is "initial rating" now: their pages show it, their
  events' pages do not), with a period result, an initial rating or a floor drop in P, or a
  carried correction (its line says whether a close added it);
  every player whose line on the new list differs from their line on the list before in
  rating, K or K's reason (a junior's K changes with the year), or who left the list; the
  events with a game of P in X; the lists of X for P and the one before it (its "next"
  link).
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from ledger.db.models import (
    CarriedCorrection,
    Change,
    Event,
    Game,
    InitialRating,
    InitialRatingGame,
    ListEntry,
    PeriodResult,
    Player,
    PlayerEntry,
    RatingFloorDrop,
)
from ledger.domain import POOLS, Period, RatingPool, parse_pool
from ledger.formats.site.model import Site
from ledger.formats.site.paths import PUBLIC_KEY, event_path, player_path
from ledger.services.close.revisions import current
from ledger.services.core.session import Ledger, transaction
from ledger.services.publishing.game_lines import periods_game_lines
from ledger.services.publishing.histories import player_histories
from ledger.services.publishing.marks import UNSHOWN_ACTIONS
from ledger.services.publishing.site import (
    event_page,
    event_reports_of,
    players_of,
    read_common,
)
from ledger.services.publishing.site_slices import (
    MANY,
    event_counts,
    lines_states,
    listed_players,
    pool_periods,
    records_now,
    summary_event,
    summary_player,
)

#: The actions whose pages a scoped rebuild finds; any other shown action: the full build.
GAMES_ACTIONS, CLOSE_ACTION = ("game.add", "import"), "period.close"


@dataclass(frozen=True)
class Scope:
    """The pages a rebuild renders besides the home page, the indexes and the sitemap: the
    pages of ``players`` and ``events`` (ids) and the lists ``closed`` (pool, period) published,
    each with the list before it in its pool."""

    players: frozenset[int] = frozenset()
    events: frozenset[int] = frozenset()
    closed: frozenset[tuple[RatingPool, str]] = field(default_factory=frozenset)


def scope_since(session: Session, change: int, chain_hash: str | None) -> Scope | None:
    """The ``Scope`` of the changes after ``change`` (whose chain hash must be ``chain_hash``:
    else another ledger, or one put back: None), inside the caller's session; None when one of
    them is not a close of a period's first revision nor a recording of games (see the
    module's docstring), or when ``change`` is 0 (a folder built from an empty ledger)."""
    if change == 0 or session.scalar(select(Change.hash).where(Change.id == change)) \
            != chain_hash:
        return None
    players: set[int] = set()
    events: set[int] = set()
    closed: set[tuple[RatingPool, str]] = set()
    for c in session.execute(select(Change.id, Change.action, Change.entity_id, Change.after)
                             .where(Change.id > change).order_by(Change.id)):
        if c.action.startswith(UNSHOWN_ACTIONS):
            continue
        if c.action in GAMES_ACTIONS:
            _games_of(session, c.id, players, events)
        elif c.action == CLOSE_ACTION:
            summary = json.loads(c.after or "{}")
            if summary.get("revision") != 1:
                return None
            pool = parse_pool(summary.get("pool", "standard"))
            _close_of(session, Period.parse(c.entity_id), pool, players, events)
            closed.add((pool, c.entity_id))
        else:
            return None
    return Scope(frozenset(players), frozenset(events), frozenset(closed))


def _games_of(session: Session, change: int, players: set[int], events: set[int]) -> None:
    """Add to ``players`` and ``events`` what the recording of games ``change`` touched."""
    for white, black, event in session.execute(
            select(Game.white_id, Game.black_id, Game.event_id).where(Game.change_id == change)):
        players.update((white, black))
        if event is not None:
            events.add(event)
    players.update(session.scalars(select(Player.id).where(Player.change_id == change)))
    players.update(session.scalars(select(PlayerEntry.player_id)
                                   .where(PlayerEntry.change_id == change)))
    events.update(session.scalars(select(Event.id).where(Event.change_id == change)))


def _close_of(session: Session, period: Period, pool: RatingPool, players: set[int],
              events: set[int]) -> None:
    """Add to ``players`` and ``events`` what the close of ``period`` in ``pool`` touched."""
    at = str(period)
    games = select(Game.white_id, Game.black_id, Game.event_id).where(
        Game.period == at, Game.pool == pool)
    for white, black, event in session.execute(games):
        players.update((white, black))
        if event is not None:
            events.add(event)
    # and the games of earlier periods an initial rating published in P was computed from:
    # shown "initial rating" on both players' pages from now on; not their events' pages,
    # which show no game's status (their reports are as those periods' closes rated them)
    for white, black in session.execute(
            select(Game.white_id, Game.black_id).join(
                InitialRatingGame, InitialRatingGame.game_id == Game.id).where(
                InitialRatingGame.period == at, InitialRatingGame.pool == pool)):
        players.update((white, black))
    for model in (PeriodResult, InitialRating, RatingFloorDrop):
        players.update(session.scalars(select(model.player_id).where(
            model.period == at, model.pool == pool)))
    players.update(session.scalars(select(CarriedCorrection.player_id).where(or_(
        CarriedCorrection.applies_in == at, CarriedCorrection.origin_period == at))))
    # the listed whose line differs from their line on the list before in what their page
    # shows (rating, K and its reason: a junior's K or its reason changes with the year), or
    # who left the list
    lines: dict[str, dict[int, tuple[int, int, str]]] = {}
    before = session.scalar(select(func.max(ListEntry.period)).where(
        ListEntry.period < at, current(ListEntry, pool)))
    for on, pid, rating, k, reason in session.execute(
            select(ListEntry.period, ListEntry.player_id, ListEntry.rating, ListEntry.k,
                   ListEntry.k_reason).where(ListEntry.period.in_([at, before or at]),
                                             current(ListEntry, pool))):
        lines.setdefault(on, {})[pid] = (rating, k, reason)
    new, old = lines.get(at, {}), lines.get(before, {}) if before else {}
    players.update(pid for pid in new.keys() | old.keys() if new.get(pid) != old.get(pid))
    # the unrated with a game in the pool: their way to a first rating may read the periods
    players.update(set(session.scalars(select(Game.white_id).where(Game.pool == pool).union(
        select(Game.black_id).where(Game.pool == pool)))) - set(session.scalars(
            select(ListEntry.player_id).where(ListEntry.period == at, ListEntry.pool == pool))))


def scoped_site_data(engine: Ledger, scope: Scope, *, club: str, built_on: dt.date,
                     base_url: str | None = None, bundles: bool = True,
                     public_key: bool = False
                     ) -> tuple[Site, frozenset[str], frozenset[str]]:
    """The site ``site.site_data`` gathers (same arguments), with only the pages of ``scope``
    gathered whole; the paths of the pages to render besides the home page, the indexes
    and the sitemap: the pages of ``scope``'s players and events, and its lists (read whole,
    with the latest list of each pool; every other list holds the lines of ``scope``'s
    players only: ``site.read_common``); and the paths of the lists before them, which get a link to the
    next list only (``pages.relinked_list``: they were the latest of their pool). Every other
    player and event has a summary page, what the indexes, the home page and the sitemap show
    (``site_slices.summary_player``, ``summary_event``), never rendered. One read transaction."""
    with transaction(engine, write=False) as session:
        common = read_common(session, bundles, scope.closed, scope.players)
        listed = listed_players(session)
        wanted = scope.players & {p.id for p in listed}
        shown = [e.id for e in common.events if e.games and e.id in scope.events]
        needed = wanted | _participants(session, shown)
        periods = pool_periods(session, common) if needed else {}
        every_line = {pool: periods_game_lines(
            session, periods[pool], pool=pool,
            of_players=None if len(needed) > MANY else needed,
            states=lines_states(common, pool))
            if needed else [] for pool in POOLS}
        reports = {r[0].id: r for r in event_reports_of(session, shown, every_line)}
        ids = None if len(wanted) > MANY else sorted(wanted)
        histories = {pool: [h for h in player_histories(session, ids, pool)
                            if h.player.id in wanted] if pool in common.pools and wanted
                     else [] for pool in POOLS}
        full = {p.player_id: p for p in players_of(histories, common.lists, every_line,
                                                   common.starts)}
        others = [p for p in listed if p.id not in full]
        ratings = records_now(session, common.lists, others)
        counts = event_counts(session, [e.id for e in common.events
                                         if e.games and e.id not in reports])
    players = tuple(full.get(p.id) or summary_player(p, ratings[p.id]) for p in listed)
    events = tuple(event_page(*reports[e.id]) if e.id in reports
                   else summary_event(e, *counts[e.id]) for e in common.events if e.games)
    site = Site(club, built_on, tuple(common.lists.pages), players, events, base_url,
                PUBLIC_KEY if public_key else None)
    paths = {player_path(i) for i in full} | {event_path(i) for i in reports}
    new = {p.path for p in site.lists if (p.pool, p.period) in scope.closed}
    relinked = set()
    for pool, period in scope.closed:
        before = [p for p in site.lists if p.pool == pool and not p.superseded
                  and p.period < period]
        if before:
            relinked.add(max(before, key=lambda p: p.period).path)
    return site, frozenset(paths | new), frozenset(relinked - new)


def _participants(session: Session, events: list[int]) -> set[int]:
    """The players of the games of ``events``: their lines make the events' reports."""
    if not events:
        return set()
    found: set[int] = set()
    for white, black in session.execute(select(Game.white_id, Game.black_id)
                                        .where(Game.event_id.in_(events))):
        found.update((white, black))
    return found
