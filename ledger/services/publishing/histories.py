"""A player's rating history (``ledger history``, the web API's, the site's player pages),
read with one statement per kind of row whatever the number of players or periods.

``player_histories`` reads, for any number of players: the pool's latest closed period, the
players, their entries (the official corrections among them, with the change that wrote them),
period results, list adjustments, initial ratings, floor drops and carried corrections: eight
statements, and a few more for an unrated player's pool in progress. Each row is read once and
serves both the history's rows and the state the title shows (``state.histories_from``,
``player_views.player_view``, ``life.lives_from``: the same code as ``player show``). The rows
are Core rows, not ORM objects, and the statements are built once per process
(``_statements``: the pool and the players are bound parameters), so a call builds no SQL
expression and computes no cache key (issue 25: at M, building and executing 16 ORM statements
was most of a call; the database's own work a tenth of it).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from typing import Any

from sqlalchemy import BindParameter, Executable, Row, and_, bindparam, func, select
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
from ledger.db.order import PLAYER_ORDER
from ledger.domain import STANDARD, Period, RatingPool
from ledger.services.close.carried import CarriedLine, carried_lines
from ledger.services.close.life import RatingLife, lives_from, pools_in_progress
from ledger.services.close.revisions import current
from ledger.services.close.state import histories_from
from ledger.services.core.session import Ledger, transaction
from ledger.services.register.player_refs import resolve
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
    ``resolve`` raises (``NotFound``, ``Ambiguous``, ``InvalidInput``)."""
    with transaction(engine, write=False) as session:
        return player_histories(session, [resolve(session, ref, partial=True).id], pool)[0]


def player_histories(session: Session, player_ids: list[int] | None,
                     pool: RatingPool = STANDARD) -> list[PlayerHistory]:
    """The history (``history``) in ``pool`` of each of ``player_ids`` (None: every player not
    merged into another nor withdrawn: those are read too, as every other row is, and left out
    here), in ``players.PLAYER_ORDER``, from the current revision
    of every closed period of that pool: eight statements for any number of players and
    periods (see the module's docstring), and those of ``life.pools_in_progress`` when one of
    them is unrated."""
    q = _statements(player_ids is not None)
    params: dict[str, Any] = {"pool": pool}
    if player_ids is not None:
        params["ids"] = player_ids
    connection = session.connection()
    found = connection.execute(q.last, params).scalar()
    last = Period.parse(found) if found else None
    players = connection.execute(q.players, params).all()
    entries = connection.execute(q.entries, params).all()
    results = connection.execute(q.results, params).all()
    adjustments = connection.execute(q.adjustments, params).all()
    initial = connection.execute(q.initial, params).all()
    drops = connection.execute(q.drops, params).all()
    carried = carried_lines(session, player_ids, pool, last)
    histories = histories_from(
        ((p.id, p.birth_year) for p in players), (e[:8] for e in entries),
        ((r.player_id, r.period, r.games, r.rating_after) for r in results),
        ((i.player_id, i.period, i.games, i.rating) for i in initial if i.published),
        ((a.player_id, a.period, a.rating_after) for a in adjustments),
        ((d.player_id, d.period) for d in drops))
    next_period = last.next() if last is not None else earliest_game_period(session)
    views = [player_view(p, histories[p.id], next_period, last, pool) for p in players
             if player_ids is not None or (p.merged_into is None and not p.withdrawn)]
    pools = pools_in_progress(session, sorted(v.id for v in views if v.rating is None), last,
                              pool)
    lives = lives_from((v.id for v in views), initial, drops, pools)
    rows = _rows(results, adjustments, entries)
    return [PlayerHistory(view, sorted(rows.get(view.id, []),
                                       key=lambda h: (h.period, h.note is not None)),
                          lives[view.id], tuple(carried.get(view.id, ())))
            for view in views]


def _rows(results: Iterable[Row[Any]], adjustments: Iterable[Row[Any]],
          entries: Iterable[Row[Any]]) -> dict[int, list[HistoryRow]]:
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


@dataclass(frozen=True)
class _Statements:
    """``player_histories``' statements, Core over the tables (rows, not ORM objects); bound
    parameters ``pool`` and, when the players are given, ``ids`` (expanding)."""

    last: Executable
    players: Executable
    entries: Executable
    results: Executable
    adjustments: Executable
    initial: Executable
    drops: Executable


@cache
def _statements(some: bool) -> _Statements:
    """The statements for some players (``some``: those of the parameter ``ids``) or for every
    one: built once per process, so each keeps its cache key and its compiled form."""
    pool: BindParameter[str] = bindparam("pool")
    ids: BindParameter[list[int]] = bindparam("ids", expanding=True)
    p, e, c = Player.__table__.c, PlayerEntry.__table__.c, Change.__table__.c
    r, a = PeriodResult.__table__.c, RatingAdjustment.__table__.c
    i, d = InitialRating.__table__.c, RatingFloorDrop.__table__.c
    periods = RatingPeriod.__table__.c
    players = select(p.id, p.name, p.fide_id, p.birth_year, p.sex, p.federation, p.title,
                     p.w_title, p.o_title, p.foa_title, p.merged_into, p.withdrawn,
                     ).order_by(*PLAYER_ORDER)
    entries = (select(e.player_id, e.id, e.effective_from, e.rating, e.prior_games,
                      e.reached_2400, e.reached_2300, e.kind, c.action, c.before, c.reason)
               .select_from(PlayerEntry.__table__.outerjoin(Change.__table__, and_(
                   c.id == e.change_id, e.kind == "correction")))
               .where(e.pool == pool).order_by(e.id))
    results = select(r.player_id, r.period, r.rating_before, r.games, r.score_halves,
                     r.expected_hundredths, r.k, r.k_before_cap, r.k_reason,
                     r.change_hundredths, r.change, r.rating_after, r.carried_hundredths,
                     ).where(current(r, pool)).order_by(r.period)
    adjustments = select(a.player_id, a.period, a.rating_before, a.adjustment, a.rating_after,
                         a.rule).where(current(a, pool))
    initial = select(*(col for col in InitialRating.__table__.c if col.key not in (
        "pool", "revision"))).where(current(i, pool)).order_by(i.player_id, i.period)
    drops = select(d.player_id, d.period, d.rating, d.floor).where(current(d, pool)).order_by(
        d.player_id, d.period)
    if some:
        players = players.where(p.id.in_(ids))
        entries = entries.where(e.player_id.in_(ids))
        results = results.where(r.player_id.in_(ids))
        adjustments = adjustments.where(a.player_id.in_(ids))
        initial = initial.where(i.player_id.in_(ids))
        drops = drops.where(d.player_id.in_(ids))
    return _Statements(select(func.max(periods.period)).where(periods.pool == pool), players,
                       entries, results, adjustments, initial, drops)
