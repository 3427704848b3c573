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
  carried correction (its line says whether a close added it); every player off the new
  list with a game in X after P or at least 25 months before it (their way to a first rating
  or their games' ratings; ``_unrated_touched``), and at the close of a December or X's
  first close every player off it with a section of X on their page (their K's reason may
  change with the year; their pool in progress appears); at a standard close, both players
  of every rapid or blitz game after P from 2024-03 on (a player unrated there is rated with
  the standard rating this close may publish: ``_seeded_touched``);
  every player whose line on the new list differs from their line on the list before in
  rating, K or K's reason (a junior's K changes with the year), or who left the list; the
  events with a game of P in X; the lists of X for P and the one before it (its "next"
  link).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
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
    RatingPeriod,
)
from ledger.domain import STANDARD, Period, RatingPool, parse_pool
from ledger.formats.site.model import ListPage
from ledger.rules.activity import months_before
from ledger.rules.initial import POOL_MONTHS
from ledger.rules.pools import SEEDED_FROM
from ledger.services.close.revisions import current
from ledger.services.core.session import Ledger
from ledger.services.publishing.marks import UNSHOWN_ACTIONS
from ledger.services.publishing.site_slices import Handed, sliced_site

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
    players.update(_unrated_touched(session, period, pool))
    if pool == STANDARD:
        players.update(_seeded_touched(session, period))


def _unrated_touched(session: Session, period: Period, pool: RatingPool) -> set[int]:
    """The players off the list of ``period`` in ``pool`` (unrated there) whose page the close
    of ``period`` may change though they have no game in it (those are found above): with a
    game in the pool after ``period`` (its players' ratings at the event's start, the
    opponents' published now, change its line and the pool in progress, which is shown as of
    its period) or at least ``POOL_MONTHS`` - 1 months before it (the pool in progress, shown
    as of the first open period, now ``period``'s next, no longer reaches it: B.02 §8.2, 26
    months). A pool shown as of an open period is otherwise the same games, opponents' ratings
    and ``computed_at`` (a period after the latest closed, changed only by a game of
    ``period``). When the next period is in another year, every player off the list with a
    section of ``pool`` on their page (in standard every player; in rapid and blitz those with
    a game there): their K's reason (a junior's, ``rules.kfactor.is_junior``) is for the year
    of the next period, on the page of a player with no game too. So too at the pool's first
    close (no period of ``pool`` closed before ``period``): before it an unrated player with
    no game has no pool in progress (no open period to come), after it one as of the next
    period ("5 more needed")."""
    unlisted = select(ListEntry.player_id).where(ListEntry.period == str(period),
                                                 ListEntry.pool == pool)
    first = session.scalar(select(RatingPeriod.period).where(
        RatingPeriod.pool == pool, RatingPeriod.period < str(period)).limit(1)) is None
    every = first or period.next().year != period.year
    if every and pool == STANDARD:
        return set(session.scalars(select(Player.id).where(Player.id.not_in(unlisted))))
    edge = str(months_before(period.next(), POOL_MONTHS - 1))
    when = (Game.pool == pool) if every else (Game.pool == pool) & (
        (Game.period > str(period)) | (Game.period < edge))
    return set(session.scalars(select(Game.white_id).where(when).union(
        select(Game.black_id).where(when)))) - set(session.scalars(unlisted))


def _seeded_touched(session: Session, period: Period) -> set[int]:
    """The players of every rapid or blitz game after ``period`` from ``SEEDED_FROM`` on, whose
    page the standard close of ``period`` may change though they have no game in it: a player
    unrated in that pool is rated with their standard rating at the event's start, and counts
    as rated with it for their opponents (``rules.pools.seeded_from_standard``, docs/RULES.md
    §9), a rating this close may publish (read through the pool's latest closed period: when
    it is ``period`` or later, the rating shown on both players' pages changes)."""
    later = (Game.pool != STANDARD) & (Game.period > str(period)) & (
        Game.period >= str(SEEDED_FROM))
    return set(session.scalars(select(Game.white_id).where(later).union(
        select(Game.black_id).where(later))))


@contextmanager
def scoped_site(engine: Ledger, scope: Scope, *, club: str, built_on: dt.date,
                base_url: str | None = None, bundles: bool = True,
                public_key: bool = False) -> Iterator[Handed]:
    """The site and files of a rebuild of ``scope`` (``site_slices.sliced_site``, same
    arguments, its ``players``, ``events`` and ``lists`` those of ``scope``): the stylesheet,
    script, home page, indexes and sitemap, the pages of ``scope``'s players and events,
    gathered and rendered a slice of players or a few events at a time, and its lists (read
    whole, with the latest list of each pool; every other list holds the lines of ``scope``'s
    players only: ``site.read_common``). Every other player and event has a summary page,
    what the indexes, the home page and the sitemap show. One read transaction, open until
    the block ends."""
    with sliced_site(engine, club=club, built_on=built_on, base_url=base_url, bundles=bundles,
                     public_key=public_key, players=scope.players, events=scope.events,
                     lists=scope.closed) as handed:
        yield handed


def relinked_lists(lists: Sequence[ListPage], closed: Collection[tuple[str, str]]
                   ) -> frozenset[str]:
    """The paths of the pages of ``lists`` that were the latest of their pool before the lists
    ``closed`` ((pool, period) pairs) were published, and now get a link to the next list only
    (``pages.relinked_list``); none of ``closed``'s own."""
    new = {p.path for p in lists if (p.pool, p.period) in closed}
    relinked = set()
    for pool, period in closed:
        before = [p for p in lists if p.pool == pool and not p.superseded
                  and p.period < period]
        if before:
            relinked.add(max(before, key=lambda p: p.period).path)
    return frozenset(relinked - new)
