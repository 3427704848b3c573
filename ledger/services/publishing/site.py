"""The club's website gathered from the ledger in one read transaction (``ledger site build``,
``site_build``, writes it as static files; ``ledger serve`` shows the same pages live).

``site_data`` reads everything a site shows through the other services' public functions
(``periods.list_periods``, ``lists.rating_list`` and ``histories.player_histories``,
``events.list_events``, ``event_reports``), all inside one transaction so that every page shows
the same state of the ledger, and turns it into the frozen values of ``formats.site.model``;
``formats.site.pages`` renders them and ``site_files`` writes what changed.

Corrections (docs/CORRECTIONS.md): every closed period's list is shown as its current revision
published it (the snapshot ``lists.rating_list`` reads), with the list of its revisions
(``revisions.revision_views``: when each was computed, and why); each superseded revision gets a
page of its own, as it was published (``rating_list(..., revision=N)``), which says that a
re-rating superseded it and links the current list, and the current list links it.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import PurePath

from sqlalchemy import select
from sqlalchemy.orm import Session

from ledger.db.models import Game, ListEntry, Player, PlayerEntry
from ledger.domain import POOLS, STANDARD, Period, RatingPool
from ledger.formats.site.model import (
    ChartPoint,
    EventLine,
    EventPage,
    HistoryLine,
    ListLine,
    ListPage,
    ListRevision,
    PeriodGames,
    PlayedGame,
    PlayerPage,
    PoolRecord,
    Site,
)
from ledger.formats.site.paths import PUBLIC_KEY, bundle_path
from ledger.names import name_key
from ledger.rules.kfactor import is_junior
from ledger.services.close.periods import list_periods
from ledger.services.close.revisions import current_revision, revision_views
from ledger.services.close.snapshots import count_rows, read_rows
from ledger.services.close.state import History, load_histories
from ledger.services.core.session import Ledger, transaction
from ledger.services.publishing.bundles import stored_digests
from ledger.services.publishing.event_reports import (
    EventReport,
    event_pools,
    event_reports,
)
from ledger.services.publishing.game_lines import GameLine, game_lines, game_periods
from ledger.services.publishing.histories import PlayerHistory, player_histories
from ledger.services.publishing.lists import RatingList, list_revision, rating_list
from ledger.services.register.events import EventView, list_events


def list_lines(rl: RatingList, before: dict[int, int | None], month: Period,
                gone: set[int]) -> tuple[ListLine, ...]:
    """The lines of a list page: the list as published, but for the players withdrawn since
    (``gone``: registered by mistake, on no page of the site; the others keep their ranks)."""
    return tuple(ListLine(
        r.rank, r.player_id, r.name, name_key(r.name), r.title, r.federation, r.sex,
        is_junior(r.birth_year, month), r.rating, before.get(r.player_id), r.games, r.k,
        r.inactive) for r in rl.rows if r.player_id not in gone)


def _played(line: GameLine) -> PlayedGame:
    return PlayedGame(
        line.game_id, line.date, line.event_id, line.event, line.round, line.colour,
        line.opponent_id, line.opponent, line.own_rating, line.opponent_rating, line.score,
        not line.over_the_board, line.status, line.difference, line.counted_difference,
        line.expected)


def _history_lines(h: PlayerHistory) -> tuple[HistoryLine, ...]:
    lines = [HistoryLine(r.period, r.rating_before, r.games, r.score, r.expected,
                         r.k if r.note is None else None, r.k_reason, r.k_capped,
                         r.change_exact, r.change, r.rating_after, r.note)
             for r in h.periods]
    lines += [HistoryLine(i.period, None, i.computation.games, i.computation.points, None, None,
                          "initial rating", False, None, None, i.computation.rating,
                          f"initial rating Ru from {i.computation.games} games")
              for i in h.life.initial if i.computation.published]
    return tuple(sorted(lines, key=lambda line: (line.period, line.note is not None)))


def _progress(h: PlayerHistory) -> str | None:
    """An unrated player's way to a first rating (B.02 §8.2), in words; None for the rated."""
    pool = h.life.pool
    if pool is None or h.player.rating is not None:
        return None
    counted = (f"{pool.games} game{'s' if pool.games != 1 else ''} against rated opponents "
               f"count{'s' if pool.games == 1 else ''} towards a first rating ({pool.points} "
               "points)" if pool.games else
               "no game against a rated opponent counts towards a first rating yet")
    dropped = (f"; {pool.disregarded} disregarded (a first event without a point)"
               if pool.disregarded else "")
    then = (f"; {pool.needed} more needed" if pool.needed else
            f"; the close of {pool.computed_at} computes it" if pool.computed_at else "")
    return f"Unrated: {counted}{dropped}{then}."


@dataclass(frozen=True)
class Lists:
    """The published lists, by pool then period (oldest first), each player's line on each
    list of each pool (pool -> player id -> period -> line), and each pool's states through
    its latest list (pool -> player id -> ``History``: the rating each had when), that list's
    period by pool (``through``)."""

    pages: list[ListPage]
    lines: dict[str, dict[int, dict[str, ListLine]]]
    states: dict[str, dict[int, History]]
    through: dict[str, Period] = field(default_factory=dict)


def _chart(lines: dict[str, ListLine], history: tuple[HistoryLine, ...]) -> tuple[ChartPoint, ...]:
    """The start rating (the one in force before the player's first list, when they had one),
    the player's first list, and every later list on which their rating or K changed (the
    first list's K against the K used in its period; a K note where it changed). A list that
    published the same rating and K again adds no point, so a player not rated in a period
    keeps the same chart (and page) after its close: the page says since which list the
    last rating stands (``ChartPoint.period`` of the last point)."""
    if not lines:
        return ()
    periods = sorted(lines)
    first = lines[periods[0]]
    used = {h.period: h.k for h in history if h.k is not None}
    points = []
    if first.previous is not None:
        points.append(ChartPoint(Period.parse(periods[0]).start, first.previous, None))
    previous_k = used.get(periods[0])
    shown: ListLine | None = None
    for period in periods:
        line = lines[period]
        if shown is not None and (line.rating, line.k) == (shown.rating, shown.k):
            continue
        note = f"K {previous_k} -> {line.k}" if previous_k is not None and previous_k != line.k \
            else None
        points.append(ChartPoint(Period.parse(period).list_date(), line.rating, period, note))
        previous_k, shown = line.k, line
    return tuple(points)


def _revisions(session: Session, pool: RatingPool) -> dict[str, tuple[ListRevision, ...]]:
    """Period -> its revisions in ``pool``, oldest first, when it has more than one (a list
    that was never re-rated shows no revision at all)."""
    found: dict[str, list[ListRevision]] = defaultdict(list)
    for v in revision_views(session, pool=pool):
        found[v.period].append(ListRevision(v.revision, v.closed_at.date(), v.reason))
    return {period: tuple(rows) for period, rows in found.items() if len(rows) > 1}


def event_page(report: EventReport, *more: EventReport) -> EventPage:
    """The page of an event from its reports: ``report`` (its own pool's, or its first pool
    with games) and ``more`` (the other pools', shown below it)."""
    lines = tuple(EventLine(
        n, p.player_id, p.name, p.title, p.federation, p.rating, p.points,
        tuple(_played(line) for line in p.lines), p.rated_games, p.score, p.expected, p.k,
        p.change, p.period_change, p.period_games,
        p.performance.rp if p.performance else None,
        p.performance.n if p.performance else 0, p.why, tuple(g.text for g in p.late))
        for n, p in enumerate(report.players, start=1))
    place = ", ".join(dict.fromkeys(x for x in (report.site, report.city) if x)) or None
    source = PurePath(report.source).name if report.source else None
    return EventPage(report.id, report.name, report.start_date, report.end_date, report.period,
                     report.closed, place, source, report.games, lines, report.pool,
                     tuple(event_page(other) for other in more), report.late_games)


def site_data(engine: Ledger, *, club: str, built_on: dt.date,
              base_url: str | None = None, bundles: bool = True,
              public_key: bool = False) -> Site:
    """Everything the site shows, read in one transaction: every published list (with each
    player's previous rating: the one in force before the list, and its stored list digest),
    every player (history, chart, games by period), every event with a valid game (crosstable,
    rating report; one voided or merged away has no page). ``club`` heads every page;
    ``built_on`` is the one date not taken from the ledger; ``base_url`` (checked by
    ``base_url``) gives canonical addresses and a sitemap; ``bundles``: each list page links
    its revision's bundle (``paths.bundle_path``); ``public_key``: the pages link the public
    key that checks the bundles' signatures (``paths.PUBLIC_KEY``).

    Each pool (docs/RULES.md §9) with a published list has its lists; a player page has the
    standard record, then one per rapid or blitz pool the player is rated in or has a game
    of."""
    with transaction(engine, write=False) as session:
        common = read_common(session, bundles)
        used = common.used
        every_line = {pool: [line for p in game_periods(session)
                             if pool == STANDARD or pool in used.get(str(p), ())
                             for line in game_lines(session, p, pool=pool)] for pool in POOLS}
        # an event without a valid game (voided, merged away) has no page, nor is the latest
        reports = event_reports_of(session, [e.id for e in common.events if e.games],
                                   every_line)
        histories = {pool: player_histories(session, None, pool) if pool in common.pools
                     else [] for pool in POOLS}
    return Site(club, built_on, tuple(common.lists.pages),
                players_of(histories, common.lists, every_line, common.starts),
                tuple(event_page(*r) for r in reports), base_url,
                PUBLIC_KEY if public_key else None)


@dataclass(frozen=True)
class Common:
    """What every build reads whole, scoped or not: the ``lists`` (every page, every
    player's lines, each pool's states through its latest list), the pools with a game in each
    period (``used``), every event (``events``, and their start dates by id: ``starts``) and
    the pools a player page may show a record of (``pools``)."""

    lists: Lists
    used: dict[str, set[str]]
    events: list[EventView]
    pools: tuple[RatingPool, ...]

    @property
    def starts(self) -> dict[int, dt.date]:
        return {e.id: e.start_date for e in self.events}


def read_common(session: Session, bundles: bool, whole: Collection[tuple[str, str]] = (),
                players: Collection[int] | None = None) -> Common:
    """``Common``, inside the caller's session (``bundles``: the list pages link them).
    ``players`` (None: every one): every list but the latest of each pool and those of
    ``whole`` ((pool, period) pairs) holds only the lines of those players (a scoped rebuild's:
    the pages it renders; ``ListPage.size`` counts the others)."""
    periods = list_periods(session)
    lists = Lists([], {}, {})
    for pool in POOLS:
        closed = [Period.parse(v.period) for v in periods if v.pool == pool]
        if closed:
            _add_lists(session, lists, pool, closed, bundles,
                       None if players is None else (whole, players))
    used = _pools_in_use(session)
    entered = set(session.scalars(select(PlayerEntry.pool).distinct()))
    pools = tuple(pool for pool in POOLS if pool == STANDARD or pool in entered
                  or any(pool in found for found in used.values()))
    return Common(lists, used, list_events(session), pools)


def _pools_in_use(session: Session) -> dict[str, set[str]]:
    """Period -> the pools with a game (voided ones too) in it: a site of standard games only
    reads no rapid or blitz game."""
    found: dict[str, set[str]] = defaultdict(set)
    for period, pool in session.execute(select(Game.period, Game.pool).distinct()):
        found[period].add(pool)
    return found


def _add_lists(session: Session, lists: Lists, pool: RatingPool, closed: list[Period],
               bundles: bool,
               some: tuple[Collection[tuple[str, str]], Collection[int]] | None) -> None:
    """The lists of ``pool`` published by closing ``closed`` (oldest first), each current
    revision followed by its superseded ones, into ``lists``, each with its stored digest and
    (``bundles``) its bundle's path; ``some``: (whole, players) as ``read_common`` takes them."""
    states = lists.states[pool] = load_histories(session, None, through=closed[-1], pool=pool)
    lists.through[pool] = closed[-1]
    revisions = _revisions(session, pool)
    digests = stored_digests(session, pool)

    gone = set(session.scalars(select(Player.id).where(Player.withdrawn.is_(True))))
    first = _first_named(session, gone)

    def list_page(rl: RatingList, lines: tuple[ListLine, ...], size: int | None) -> ListPage:
        found = digests.get((rl.period, rl.revision))
        withheld = first is not None and first <= rl.period
        return ListPage(pool, rl.period, dt.date.fromisoformat(rl.in_force_from), lines,
                        rl.revision, revisions.get(rl.period, ()), found,
                        bundle_path(pool, rl.period, rl.revision)
                        if bundles and found and not withheld else None,
                        bundles and bool(found) and withheld, size)

    def read(period: Period, revision: int | None = None) -> ListPage:
        if some is None or period == closed[-1] or (pool, str(period)) in some[0]:
            rl, size = rating_list(session, str(period), revision=revision, pool=pool), None
        else:  # the lines of some players only, and how many the list has
            at, shown = list_revision(session, str(period), revision, pool)
            rl = RatingList(str(at), str(at.next().start),
                            read_rows(session, at, shown, pool, some[1]), shown,
                            current_revision(session, at, pool), pool)
            size = count_rows(session, at, shown, pool) - len(gone_from(at, shown))
        before = {pid: states[pid].rating(period) for pid in (r.player_id for r in rl.rows)
                  if pid in states}
        return list_page(rl, list_lines(rl, before, period.next(), gone), size)

    def gone_from(at: Period, shown: int) -> set[int]:
        """The withdrawn players on that list revision (its pages leave them out)."""
        return set(session.scalars(select(ListEntry.player_id).where(
            ListEntry.period == str(at), ListEntry.pool == pool, ListEntry.revision == shown,
            ListEntry.player_id.in_(gone)))) if gone else set()

    lines = lists.lines.setdefault(pool, defaultdict(dict))
    for period in closed:
        page = read(period)
        lists.pages.append(page)
        for line in page.lines:
            lines[line.player_id][page.period] = line
        for earlier in page.revisions:
            if earlier.number != page.revision:
                lists.pages.append(read(period, earlier.number))


def _first_named(session: Session, gone: set[int]) -> str | None:
    """The earliest rating period (``YYYY-MM``; "" for a rating in force from the start) whose
    list's bundle may name a player of ``gone`` (withdrawn since: registered by mistake, on no
    page of the site): the period of their first entry or game. None: no such player. A list
    of that period or later publishes no bundle (``ListPage.withheld``): a bundle holds every
    player its close read, with their names, and cannot leave one out and still verify."""
    if not gone:
        return None
    entries = session.scalars(select(PlayerEntry.effective_from).where(
        PlayerEntry.player_id.in_(gone)))
    games = session.scalars(select(Game.period).where(
        Game.white_id.in_(gone) | Game.black_id.in_(gone)))
    periods = [p or "" for p in entries] + list(games)
    return min(periods) if periods else None


def event_reports_of(session: Session, ids: list[int],
                   every_line: dict[RatingPool, list[GameLine]]) -> list[list[EventReport]]:
    """The rating reports of each event of ``ids`` (each with a valid game), in that order:
    one per pool it has games in, each with that pool's games and ratings, its own pool first
    (docs/RULES.md §9; ``event_reports.event_pools``; ``every_line``: each pool's game lines,
    which the player pages use too)."""
    pools = event_pools(session, ids)
    by_pool: dict[RatingPool, list[int]] = defaultdict(list)
    for event_id in ids:
        for pool in pools[event_id]:
            by_pool[pool].append(event_id)
    found: dict[tuple[int, str], EventReport] = {}
    for pool, of_pool in by_pool.items():
        found |= {(r.id, pool): r for r in event_reports(session, of_pool, every_line[pool],
                                                         pool)}
    return [[found[i, pool] for pool in pools[i]] for i in ids]


def _record(h: PlayerHistory, pool: RatingPool, lists: Lists,
            games: dict[str, list[PlayedGame]]) -> PoolRecord:
    """``h``'s record in ``pool``: rating, K, history, chart, games by period and the carried
    corrections."""
    v = h.player
    history = _history_lines(h)
    by_period = {line.period: line for line in history if line.note is None}
    periods = tuple(PeriodGames(p, tuple(found), by_period.get(p))
                    for p, found in sorted(games.items()))
    return PoolRecord(pool, v.rating, v.k, v.k_reason.value, v.rated_games, history,
                      _chart(lists.lines.get(pool, {}).get(v.id, {}), history), periods,
                      _progress(h), tuple(c.detail for c in h.carried))


def players_of(histories: dict[RatingPool, list[PlayerHistory]], lists: Lists,
             every_line: dict[RatingPool, list[GameLine]],
             starts: dict[int, dt.date]) -> tuple[PlayerPage, ...]:
    """A page per player (in the order of the standard histories): the standard record, then
    rapid and blitz where the player is rated or has played a game; the events of every pool."""
    games: dict[str, dict[int, dict[str, list[PlayedGame]]]] = {
        pool: defaultdict(lambda: defaultdict(list)) for pool in POOLS}
    events: dict[int, dict[int, str]] = defaultdict(dict)
    for pool in POOLS:
        for line in every_line[pool]:
            games[pool][line.player_id][line.period].append(_played(line))
            if line.event_id is not None:
                events[line.player_id][line.event_id] = line.event or ""
    others = {pool: {h.player.id: h for h in histories[pool]} for pool in POOLS if pool != STANDARD}
    pages = []
    for h in histories[STANDARD]:
        v = h.player
        records = [_record(h, STANDARD, lists, games[STANDARD][v.id])]
        for pool, by_id in others.items():
            other = by_id.get(v.id)
            if other is not None and (other.player.rating is not None or games[pool][v.id]):
                records.append(_record(other, pool, lists, games[pool][v.id]))
        played = sorted(events[v.id].items(), key=lambda e: (starts[e[0]], e[0]))
        pages.append(PlayerPage(v.id, v.name, name_key(v.name), v.fide_id, v.federation,
                                v.title, v.sex, v.birth_year, tuple(records),
                                tuple((eid, name, starts[eid]) for eid, name in played)))
    return tuple(pages)
