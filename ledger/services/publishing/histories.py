"""A player's rating history (``ledger history``, the web API's, the site's player pages),
read in one statement whatever the number of players or periods.

``player_histories`` reads, for any number of players: the pool's latest closed period, the
players, their entries (the official corrections among them, with the change that wrote them),
period results, list adjustments, initial ratings, floor drops and carried corrections, each a
SELECT of one ``UNION ALL`` (``db.union.Union``: one round trip to the server), and one
statement more for an unrated player's pool in progress (``close.pools.open_pools``).
``history`` of an ``#ID`` reads the player named in the same statement. Each row is read
once and serves both the history's rows and the state the title shows
(``state.histories_from``, ``player_views.player_view``, ``life.lives_from``: the same code as
``player show``). The rows are Core rows, not ORM
objects, and the statement is built once per process (``_union``: the pool and the players are
bound parameters), so a call builds no SQL expression and computes no cache key (issue 25: at
M, building and executing 16 ORM statements was most of a call on SQLite, the database's own
work a tenth of it; on PostgreSQL, then, the round trips: 12 a call with one statement per
kind of row, now 1 for a rated player's ``#ID`` (``history``), else 3 with psycopg's BEGIN and
ROLLBACK; an unrated player's 13, now 5: the pool in progress in one statement where it took 9).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from typing import Any

from sqlalchemy import BindParameter, Connection, and_, bindparam, func, select
from sqlalchemy.orm import Session

from ledger.db.models import (
    Change,
    InitialRating,
    PeriodResult,
    Player,
    PlayerEntry,
    RatingAdjustment,
    RatingFloorDrop,
    RatingPeriod,
)
from ledger.db.union import Union
from ledger.domain import STANDARD, Period, RatingPool
from ledger.services.close.carried import CarriedLine, line_order, lines_from, lines_query
from ledger.services.close.life import RatingLife, lives_from, pools_in_progress
from ledger.services.close.revisions import current
from ledger.services.close.state import histories_from
from ledger.services.core.session import Ledger, one_statement, transaction
from ledger.services.register.player_refs import internal_id, resolve
from ledger.services.register.player_views import PlayerView, earliest_game_period, player_view

#: The action of the change an official correction's entry is written by (a copy a merge
#: carried from a duplicate is written by ``player.merge``: the duplicate's row, not repeated).
_CORRECT_RATING = "player.correct-rating"


@dataclass(frozen=True)
class HistoryRow:
    """One closed period of a player's history (exact values: score, expected, change).

    A list adjustment (the 1 March 2024 raise) and an official correction of a published rating
    (``player correct-rating``: ``period`` is the list corrected) are rows of their own with 0
    games and a ``note``; ``carried``: the carried corrections the period's close added to the
    exact change before its rounding (docs/CORRECTIONS.md §5)."""

    period: str
    rating_before: int
    games: int
    score: Decimal
    expected: Decimal
    k: int
    k_reason: str
    k_capped: bool
    change_exact: Decimal
    change: int
    rating_after: int
    note: str | None = None
    carried: Decimal = Decimal(0)


@dataclass(frozen=True)
class PlayerHistory:
    """A player, one row per period in which they were rated, and the life of their rating
    (pool in progress, initial ratings with their computation, drops below the floor);
    ``carried``: the carried corrections that apply (docs/CORRECTIONS.md §5), each a line of
    its own, oldest first: those a close has added are in its row's change too."""

    player: PlayerView
    periods: list[HistoryRow]
    life: RatingLife
    carried: tuple[CarriedLine, ...] = ()


def history(engine: Ledger, ref: str, pool: RatingPool = STANDARD) -> PlayerHistory:
    """``ledger history``: the player ``ref`` names (``player_refs.resolve``, a part of a name
    too) and their period results in ``pool`` (docs/RULES.md §9), oldest first. Raises what
    ``resolve`` raises (``NotFound``, ``Ambiguous``, ``InvalidInput``); ``LedgerError`` for a
    database error.

    An ``#ID`` is read with the rest in the one statement (``player_refs.internal_id``), on
    PostgreSQL on a connection in autocommit (``session.one_statement``: one round trip) when
    that statement is all the history needs (a closed period, the player rated); ``resolve``
    is asked only when that player is not there to show (no such id, merged, withdrawn: it
    says why)."""
    pid = internal_id(ref)
    if pid is not None and not isinstance(engine, Session):
        with one_statement(engine) as conn:
            found = _assembled(_read(conn, [pid], pool), None, pool, live_only=True) \
                if conn is not None else None
        if found:
            return found[0]
    with transaction(engine, write=False) as session:
        if pid is not None:
            found = _histories(session, [pid], pool, live_only=True)
            if found:
                return found[0]
        return player_histories(session, [resolve(session, ref, partial=True).id], pool)[0]


def player_histories(session: Session, player_ids: list[int] | None,
                     pool: RatingPool = STANDARD) -> list[PlayerHistory]:
    """The history (``history``) in ``pool`` of each of ``player_ids`` (None: every player not
    merged into another nor withdrawn: those are read too, as every other row is, and left out
    here), in ``players.PLAYER_ORDER``, from the current revision
    of every closed period of that pool: one statement for any number of players and
    periods (see the module's docstring), and the one of ``life.pools_in_progress`` when one
    of them is unrated (one per 5,000 unrated players)."""
    return _histories(session, player_ids, pool, live_only=player_ids is None)


def _histories(session: Session, player_ids: list[int] | None, pool: RatingPool,
               live_only: bool) -> list[PlayerHistory]:
    """``player_histories``, leaving out the players merged into another or withdrawn when
    ``live_only``."""
    found = _assembled(_read(session.connection(), player_ids, pool), session, pool, live_only)
    assert found is not None  # given the session, it reads what else it needs
    return found


def _read(conn: Connection, player_ids: list[int] | None,
          pool: RatingPool) -> dict[str, list[Any]]:
    """The rows of ``_union``'s SELECTs for ``player_ids`` (None: every player), each in the
    order ``_assembled`` needs (``players.PLAYER_ORDER``, entries by id, results by period,
    initial ratings and drops by player and period, carried corrections by
    ``carried.line_order``)."""
    union = _union(player_ids is not None)
    params: dict[str, Any] = {"pool": pool}
    if player_ids is not None:
        params["ids"] = player_ids
    rows = union.split(conn.execute(union.statement, params))
    for name, key in (("players", _player_order), ("entries", _by_id), ("results", _by_period),
                      ("initial", _by_player_and_period), ("drops", _by_player_and_period),
                      ("carried", line_order)):
        rows[name].sort(key=key)
    return rows


def _assembled(rows: dict[str, list[Any]], session: Session | None, pool: RatingPool,
               live_only: bool) -> list[PlayerHistory] | None:
    """The histories ``rows`` (``_read``) hold, leaving out the players merged into another or
    withdrawn when ``live_only``. Without a ``session`` (the rows read in one statement of
    their own), None when a history needs more than they hold: the first period with games
    (no closed period), an unrated player's pool in progress."""
    found = rows["last"][0].period
    last = Period.parse(found) if found else None
    if last is not None:
        next_period = last.next()
    elif session is not None:
        next_period = earliest_game_period(session)
    else:
        return None
    players, entries, results = rows["players"], rows["entries"], rows["results"]
    adjustments, initial, drops = rows["adjustments"], rows["initial"], rows["drops"]
    histories = histories_from(
        ((p.id, p.birth_year) for p in players), (e[:8] for e in entries),
        ((r.player_id, r.period, r.games, r.rating_after) for r in results),
        ((i.player_id, i.period, i.games, i.rating) for i in initial if i.published),
        ((a.player_id, a.period, a.rating_after) for a in adjustments),
        ((d.player_id, d.period) for d in drops))
    views = [player_view(p, histories[p.id], next_period, last, pool) for p in players
             if not live_only or (p.merged_into is None and not p.withdrawn)]
    unrated = sorted(v.id for v in views if v.rating is None)
    if unrated and session is None:
        return None
    pools = pools_in_progress(session, unrated, last, pool) if session is not None else {}
    lives = lives_from((v.id for v in views), initial, drops, pools)
    carried = lines_from(rows["carried"], last)
    periods = _rows(results, adjustments, entries)
    return [PlayerHistory(view, sorted(periods.get(view.id, []),
                                       key=lambda h: (h.period, h.note is not None)),
                          lives[view.id], tuple(carried.get(view.id, ())))
            for view in views]


def _rows(results: Iterable[Any], adjustments: Iterable[Any],
          entries: Iterable[Any]) -> dict[int, list[HistoryRow]]:
    """Player id -> their history's rows, unsorted: a row per period result, list adjustment
    and official correction (in that order, the order ``sorted`` keeps among equals)."""
    periods: dict[int, list[HistoryRow]] = defaultdict(list)
    for r in results:
        periods[r.player_id].append(HistoryRow(
            r.period, r.rating_before, r.games, Decimal(r.score_halves) / 2,
            Decimal(r.expected_hundredths).scaleb(-2), r.k, r.k_reason, r.k != r.k_before_cap,
            Decimal(r.change_hundredths).scaleb(-2), r.change, r.rating_after,
            carried=Decimal(r.carried_hundredths).scaleb(-2)))
    for a in adjustments:
        periods[a.player_id].append(HistoryRow(
            a.period, a.rating_before, 0, Decimal(0), Decimal(0), 0, "list adjustment", False,
            Decimal(a.adjustment), a.adjustment, a.rating_after, note=a.rule))
    for e in entries:
        if (e.action != _CORRECT_RATING or e.effective_from is None
                or e.rating is None):  # a correction is always of a rating, from a period
            continue
        published = int(json.loads(e.before)["rating"]) if e.before else e.rating
        periods[e.player_id].append(HistoryRow(
            str(Period.parse(e.effective_from).previous()), published, 0, Decimal(0),
            Decimal(0), 0, "official correction", False, Decimal(e.rating - published),
            e.rating - published, e.rating, note=f"official correction: {e.reason}"))
    return periods


def _player_order(p: Any) -> tuple[str, int]:
    """``PLAYER_ORDER`` (name key by code point, then id) for a player's row."""
    return p.name_key, p.id


def _by_id(row: Any) -> int:
    return int(row.id)


def _by_period(row: Any) -> str:
    return str(row.period)


def _by_player_and_period(row: Any) -> tuple[int, str]:
    return row.player_id, row.period


@cache
def _union(some: bool) -> Union:
    """The one statement of ``player_histories`` (``db.union.Union``: the rows of each of its
    SELECTs back by name) for some players (``some``: those of the parameter ``ids``,
    expanding) or for every one, the pool the parameter ``pool``: built once per process, so
    it keeps its cache key and its compiled form. Its SELECTs: ``last`` (the pool's latest
    closed period, one row), ``players``, ``entries`` (with the change of an official
    correction), ``results``, ``adjustments``, ``initial``, ``drops``, ``carried``
    (``carried.lines_query``), each unordered (``_histories`` sorts them)."""
    pool: BindParameter[str] = bindparam("pool")
    ids: BindParameter[list[int]] = bindparam("ids", expanding=True)
    p, e, c = Player.__table__.c, PlayerEntry.__table__.c, Change.__table__.c
    r, a = PeriodResult.__table__.c, RatingAdjustment.__table__.c
    i, d = InitialRating.__table__.c, RatingFloorDrop.__table__.c
    periods = RatingPeriod.__table__.c
    players = select(p.id, p.name, p.name_key, p.fide_id, p.birth_year, p.sex, p.federation,
                     p.title, p.w_title, p.o_title, p.foa_title, p.merged_into, p.withdrawn)
    entries = (select(e.player_id, e.id, e.effective_from, e.rating, e.prior_games,
                      e.reached_2400, e.reached_2300, e.kind, c.action, c.before, c.reason)
               .select_from(PlayerEntry.__table__.outerjoin(Change.__table__, and_(
                   c.id == e.change_id, e.kind == "correction")))
               .where(e.pool == pool))
    results = select(r.player_id, r.period, r.rating_before, r.games, r.score_halves,
                     r.expected_hundredths, r.k, r.k_before_cap, r.k_reason,
                     r.change_hundredths, r.change, r.rating_after, r.carried_hundredths,
                     ).where(current(r, pool))
    adjustments = select(a.player_id, a.period, a.rating_before, a.adjustment, a.rating_after,
                         a.rule).where(current(a, pool))
    initial = select(*(col for col in InitialRating.__table__.c if col.key not in (
        "pool", "revision"))).where(current(i, pool))
    drops = select(d.player_id, d.period, d.rating, d.floor).where(current(d, pool))
    if some:
        players = players.where(p.id.in_(ids))
        entries = entries.where(e.player_id.in_(ids))
        results = results.where(r.player_id.in_(ids))
        adjustments = adjustments.where(a.player_id.in_(ids))
        initial = initial.where(i.player_id.in_(ids))
        drops = drops.where(d.player_id.in_(ids))
    last = select(func.max(periods.period).label("period")).where(periods.pool == pool)
    return Union({"last": last, "players": players, "entries": entries, "results": results,
                  "adjustments": adjustments, "initial": initial, "drops": drops,
                  "carried": lines_query(some)})
