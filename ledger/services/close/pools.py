"""Unrated players' pools (FIDE B.02 §8.2): their games against rated opponents, loaded set-based.

Shared by the period close (which rates a pool of 5 or more games: ``load_pools``, seven
queries for any number of players, thirteen in rapid and blitz) and by ``player show`` and
``history`` (which show a pool in progress: ``open_pools``, one statement for up to
``OPEN_POOLS_CHUNK`` players); both build the pools with ``pools_from``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from sqlalchemy import BindParameter, bindparam, or_, select, union_all
from sqlalchemy.orm import Session

from ledger.db import models
from ledger.db.models import Event, Game, Player
from ledger.db.union import Union
from ledger.domain import STANDARD, Period, RatingPool, Result
from ledger.rules.activity import months_before
from ledger.rules.initial import POOL_MONTHS, Pool, PoolGame, build_pool
from ledger.services.close.rated_games import ratings_in_pool
from ledger.services.close.state import History, histories_from, load_histories, ratings_period
from ledger.services.core.facts import NOW, Facts

#: The most players ``open_pools`` reads in one statement: their ids are bound three times
#: (SQLite allows 32,766 parameters a statement).
OPEN_POOLS_CHUNK = 5000


def load_pools(session: Session, players: Collection[int], period: Period, *,
               ratings_through: Period, facts: Facts = NOW,
               pool: RatingPool = STANDARD,
               known: Mapping[int, History] | None = None) -> dict[int, Pool]:
    """The pool of each of ``players`` as of ``period`` (the period being closed, or the one a
    pool in progress is shown for), by ``ledger.rules.initial.build_pool``.

    A game is a pool game of a player when it is valid (not voided) and played (no forfeit, a
    move each), the player was unrated at its event's start and the opponent had a published
    rating then; in rapid and blitz from 2024-03 a player unrated there who holds a standard
    rating is rated with it (``rated_games.rating_in_pool``, R&B 2024 7.2.1: "considered to be
    rated"): a rated opponent, and no pool of their own (``rated_games.ratings_in_pool``). Ratings come from
    entries and from the results of periods up to ``ratings_through``; ``facts``: the games and
    players now or as of a change. Players without a pool game get an empty pool. Returns player
    id -> ``Pool``. ``pool``: the rating pool (docs/RULES.md §9): its games and its ratings only.
    ``known``: the histories in ``pool`` of every player (``load_histories(session, None,
    through=ratings_through, facts=facts, pool=pool)``, as the close has them) when the caller
    has them, so that those of the games' players are not read again (``KeyError`` for a
    player not in them).
    """
    if not players:
        return {}
    ids = list(players)
    first = months_before(period, POOL_MONTHS - 1)
    g = facts.games()
    rows = session.execute(
        select(g, Event.start_date.label("event_start"))
        .outerjoin(Event, g.c.event_id == Event.id)
        .where(g.c.period >= str(first), g.c.period <= str(period), g.c.status == "valid",
               g.c.pool == pool, g.c.unequal_times.is_(False),
               or_(g.c.white_id.in_(ids), g.c.black_id.in_(ids)))
        .order_by(g.c.date, g.c.id)).all()
    everyone = set(ids) | {r.white_id for r in rows} | {r.black_id for r in rows}
    histories = (load_histories(session, sorted(everyone), through=ratings_through, facts=facts,
                                pool=pool) if known is None
                 else {pid: known[pid] for pid in sorted(everyone)})
    rating = ratings_in_pool(session, histories, pool, through=ratings_through, facts=facts,
                             asked=bool(rows))
    return pools_from(rows, ids, period, histories, rating)


def pools_from(rows: Iterable[Any], players: Sequence[int], period: Period,
               histories: dict[int, History],
               rating: Callable[[int, Period], int | None]) -> dict[int, Pool]:
    """``load_pools``'s pools from what it read: ``rows``, the games of the pool's months
    (``POOL_MONTHS`` through ``period``) that are valid, of equal times and of one of
    ``players``, by date then id, each with ``event_start`` (None without an event);
    ``histories`` of every player in them; ``rating`` (``rated_games.ratings_in_pool``)."""
    games: dict[int, list[PoolGame]] = defaultdict(list)
    wanted = set(players)
    for game in rows:
        event_start = game.event_start
        result = Result(game.result)
        if not (result.is_played and game.played):
            continue
        start = ratings_period(event_start, game.date)
        sides = ((game.white_id, game.black_id, result.white_score),
                 (game.black_id, game.white_id, result.black_score))
        for pid, opponent, score in sides:
            if pid not in wanted or rating(pid, start) is not None:
                continue
            opponent_rating = rating(opponent, start)
            if opponent_rating is not None:
                games[pid].append(PoolGame(game.id, game.event_id, Period.parse(game.period),
                                           opponent, opponent_rating, score))
    return {pid: build_pool(games.get(pid, []), period, starts=histories[pid].pool_starts(period))
            for pid in players}


@dataclass(frozen=True)
class OpenPools:
    """What ``open_pools`` found: ``pools``, player id -> (the period the pool is shown as of,
    the ``Pool``); ``names``: player id -> name, of every opponent in them (and more)."""

    pools: dict[int, tuple[Period, Pool]]
    names: dict[int, str]


def open_pools(session: Session, players: Sequence[int], last: Period | None,
               pool: RatingPool = STANDARD) -> OpenPools:
    """The pool in progress (``load_pools``, the facts now) of each of ``players`` (unrated in
    ``pool``, whose latest closed period is ``last``, None: none) with a game in ``pool`` after
    ``last`` or an open period to come: as of the later of the first open period and their
    latest game's period (any game of the pool, voided too), ratings through ``last``.

    One statement (``_open_union``) per ``OPEN_POOLS_CHUNK`` players, where ``load_pools`` and
    the latest periods took nine (issue 25: round trips were most of an unrated player's history
    on PostgreSQL): every game of theirs in the pool, the players in them and every history row
    of those players; which games make each pool, and which rows are current, of the pool and
    through ``last``, picked in Python."""
    found: dict[int, tuple[Period, Pool]] = {}
    names: dict[int, str] = {}
    for start in range(0, len(players), OPEN_POOLS_CHUNK):
        chunk = _open_chunk(session, players[start:start + OPEN_POOLS_CHUNK], last, pool)
        found |= chunk.pools
        names |= chunk.names
    return OpenPools(found, names)


def _open_chunk(session: Session, players: Sequence[int], last: Period | None,
                pool: RatingPool) -> OpenPools:
    """``open_pools`` for a few players, in one statement."""
    union = _open_union()
    rows = union.split(session.connection().execute(
        union.statement, {"players": list(players), "pool": pool}))
    through = last or Period(1, 1)
    histories = _histories(rows, pool, through)
    standard = _histories(rows, STANDARD, through) if pool != STANDARD else None
    games = sorted(rows["games"], key=lambda r: (r.date, r.id))
    latest: dict[int, str] = {}
    for r in games:
        for pid in (r.white_id, r.black_id):
            if r.period > latest.get(pid, ""):
                latest[pid] = r.period
    by_as_of: dict[Period, list[int]] = defaultdict(list)
    for pid in players:
        candidates = [q for q in (last.next() if last else None,
                                  Period.parse(latest[pid]) if pid in latest else None)
                      if q is not None]
        if candidates:
            by_as_of[max(candidates)].append(pid)
    found: dict[int, tuple[Period, Pool]] = {}
    for as_of, pids in by_as_of.items():
        first, wanted = str(months_before(as_of, POOL_MONTHS - 1)), set(pids)
        counted = [r for r in games if r.status == "valid" and not r.unequal_times
                   and first <= r.period <= str(as_of)
                   and (r.white_id in wanted or r.black_id in wanted)]
        rating = ratings_in_pool(session, histories, pool, through=through,
                                 asked=bool(counted), standard=standard)
        found |= {pid: (as_of, built)
                  for pid, built in pools_from(counted, pids, as_of, histories, rating).items()}
    return OpenPools(found, {r.id: r.name for r in rows["players"]})


@cache
def _open_union() -> Union:
    """``_open_chunk``'s statement, built once per process (it keeps its cache key and its
    compiled form): ``games``, every game in the pool of the parameter ``pool`` of the players
    of the parameter ``players`` (expanding), with their event's start; the players in them and
    those of ``players`` (``players``, with their name); every row of those players' histories
    (``entries``, ``results``, ``initial``, ``adjustments``, ``drops``), of every pool, period and
    revision, with what ``_histories`` picks them by; and the closed periods' current revisions
    (``revisions``). Each history SELECT asks for its player alone: a condition the player_id
    index serves whatever the server's statistics say, where one on the pool and period as well
    (the leading columns of the primary key) or the current revision's EXISTS (``current``) had
    PostgreSQL, without statistics (a ledger just imported or closed, before autovacuum's
    ANALYZE), scan every result of the period for each pool (at M 30-90 ms)."""
    g, p, e = Game.__table__.c, Player.__table__.c, models.PlayerEntry.__table__.c
    r, i = models.PeriodResult.__table__.c, models.InitialRating.__table__.c
    a, d = models.RatingAdjustment.__table__.c, models.RatingFloorDrop.__table__.c
    c = models.RatingPeriod.__table__.c
    players: BindParameter[list[int]] = bindparam("players", expanding=True)
    games = (select(g.id, g.event_id, g.date, g.period, g.white_id, g.black_id, g.result,
                    g.played, g.status, g.unequal_times, Event.start_date.label("event_start"))
             .select_from(Game.__table__.outerjoin(Event, g.event_id == Event.id))
             .where(g.pool == bindparam("pool"),
                    or_(g.white_id.in_(players), g.black_id.in_(players)))
             .cte("pool_games"))
    met = union_all(select(games.c.white_id.label("pid")), select(games.c.black_id),
                    select(p.id).where(p.id.in_(players))).cte("met")
    ids = select(met.c.pid)
    return Union({
        "games": select(games),
        "players": select(p.id, p.birth_year, p.name).where(p.id.in_(ids)),
        "entries": select(e.player_id, e.id, e.effective_from, e.rating, e.prior_games,
                          e.reached_2400, e.reached_2300, e.kind, e.pool)
        .where(e.player_id.in_(ids)),
        "results": select(r.player_id, r.period, r.games, r.rating_after, r.pool, r.revision)
        .where(r.player_id.in_(ids)),
        "initial": select(i.player_id, i.period, i.games, i.rating, i.pool, i.revision,
                          i.published).where(i.player_id.in_(ids)),
        "adjustments": select(a.player_id, a.period, a.rating_after, a.pool, a.revision)
        .where(a.player_id.in_(ids)),
        "drops": select(d.player_id, d.period, d.pool, d.revision).where(d.player_id.in_(ids)),
        "revisions": select(c.period, c.pool, c.revision),
    })


def _histories(rows: dict[str, list[Any]], pool: RatingPool,
               through: Period) -> dict[int, History]:
    """The histories in ``pool`` through ``through`` of the players of ``_open_union``'s
    ``rows``: what ``state.load_histories`` reads (its entries of the pool by id; the rows of
    the current revisions of the pool's periods up to ``through``, published initial ratings),
    picked in Python."""
    current = {(c.period, c.revision) for c in rows["revisions"] if c.pool == pool}
    last = str(through)

    def kept(row: Any) -> bool:
        return row.pool == pool and row.period <= last and (row.period, row.revision) in current

    return histories_from(
        ((p.id, p.birth_year) for p in rows["players"]),
        (en[:8] for en in sorted(rows["entries"], key=lambda en: en.id) if en.pool == pool),
        (res[:4] for res in rows["results"] if kept(res)),
        (ini[:4] for ini in rows["initial"] if kept(ini) and ini.published),
        (adj[:3] for adj in rows["adjustments"] if kept(adj)),
        (drop[:2] for drop in rows["drops"] if kept(drop)))
