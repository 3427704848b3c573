"""The published rating in force per player, from one query of the rows that set it (issue 25):
what ``rated_games.rating_in_pool`` gives from the players' ``History`` objects, for the players
and ratings periods asked, without building a history (the import's rating checks ask it of
every player of a federation's month: 20,000 at M).

A player's rating in force for period P (``History.rating``) is the latest row in force by P:
an entry that brings a rating (not ``history``) in force from its ``effective_from`` (None:
from the start), or a current revision's result, published initial rating, list adjustment or
drop below the floor (no rating), each in force from the month after its period. Rows in force
from the same month: an entry before a drop before an adjustment before a result or an initial
rating, a result before an initial rating of the same period (the order ``History`` walks them,
the first of equals kept), the entry with the highest id among entries.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, cast

from sqlalchemy import Integer, Select, literal, null, select, union_all
from sqlalchemy import cast as sql_cast
from sqlalchemy.orm import Session

from ledger.db.models import (
    InitialRating,
    PeriodResult,
    PlayerEntry,
    RatingAdjustment,
    RatingFloorDrop,
)
from ledger.domain import STANDARD, Period, RatingPool
from ledger.rules.pools import seeded_from_standard
from ledger.services.close.revisions import current

#: A row's rank among the rows in force from the same month (the highest wins): an entry (3),
#: a drop (2), an adjustment (1), a result or an initial rating (0).
ENTRY, DROP, ADJUSTMENT, RESULT = 3, 2, 1, 0
#: A row of ``candidates``: (player id, rank, month text, tie-break, rating or None).
Candidate = tuple[int, int, str | None, int, int | None]


def candidates(ids: Select[tuple[int]] | list[int], pool: RatingPool) -> Select[Any]:
    """One SELECT (a UNION ALL) of every row that can set the rating in ``pool`` of the players
    ``ids`` (a SELECT of ids, ``db.rows.id_rows``, or a list), as ``Candidate`` rows: the
    entries that bring a rating (month ``effective_from``, tie-break the entry id), and the
    current revisions' results, published initial ratings (tie-break -1: after a result of the
    same period), adjustments and floor drops (month their period, rating None for a drop)."""
    e, r, i, a, d = PlayerEntry, PeriodResult, InitialRating, RatingAdjustment, RatingFloorDrop
    no_rating = sql_cast(null(), Integer)
    return union_all(
        select(e.player_id, literal(ENTRY), e.effective_from, e.id, e.rating).where(
            e.pool == pool, e.kind != "history", e.player_id.in_(ids)),
        select(r.player_id, literal(RESULT), r.period, literal(0), r.rating_after).where(
            current(r, pool), r.player_id.in_(ids)),
        select(i.player_id, literal(RESULT), i.period, literal(-1), i.rating).where(
            i.published.is_(True), current(i, pool), i.player_id.in_(ids)),
        select(a.player_id, literal(ADJUSTMENT), a.period, literal(0), a.rating_after).where(
            current(a, pool), a.player_id.in_(ids)),
        select(d.player_id, literal(DROP), d.period, literal(0), no_rating).where(
            current(d, pool), d.player_id.in_(ids)),
    ).subquery().select()


def latest_ratings(rows: Iterable[Candidate], periods: Iterable[Period], ids: Iterable[int]
                   ) -> dict[Period, dict[int, int | None]]:
    """For each of ``periods``, each of ``ids`` -> the rating in force for that period (None:
    unrated) from ``rows`` (``candidates``' rows, in any order): the highest (month in force
    from, rank, tie-break) among those in force by the period, as ``History.rating`` picks it.
    A month text is ``YYYY-MM``; each is parsed once."""
    asked = [(at, (at.year, at.month)) for at in periods]
    best: dict[Period, dict[int, tuple[tuple[tuple[int, int], int, int], int | None]]] = {
        at: {} for at, _ in asked}
    since: dict[tuple[int, str | None], tuple[int, int]] = {}  # (entry?, month) -> in force from
    for pid, rank, month, tie, rating in rows:
        start = since.get((rank == ENTRY, month))
        if start is None:
            start = since[rank == ENTRY, month] = _in_force_from(rank == ENTRY, month)
        key = (start, rank, tie)
        for at, through in asked:
            if start <= through:
                held = best[at].get(pid)
                if held is None or key > held[0]:
                    best[at][pid] = (key, rating)
    found: dict[Period, dict[int, int | None]] = {}
    for at, _ in asked:
        held_at = best[at]
        found[at] = {pid: held_at[pid][1] if pid in held_at else None for pid in ids}
    return found


def _in_force_from(entry: bool, month: str | None) -> tuple[int, int]:
    """(year, month) a row is in force from: an entry's own month ((0, 0): from the start), a
    closed period's row the month after its period."""
    if month is None:
        return (0, 0)
    p = Period.parse(month)
    return (p.year, p.month) if entry else (p.year + p.month // 12, p.month % 12 + 1)


def ratings_at(session: Session, ids: Select[tuple[int]] | list[int], players: Sequence[int],
               pool: RatingPool, periods: Iterable[Period]) -> dict[Period, dict[int, int | None]]:
    """``rating_in_pool`` of each of ``players`` (the ids ``ids`` selects) in ``pool`` for each
    of ``periods``: period -> player -> rating in force (None: unrated), an unrated rapid or
    blitz player's standard rating where the rules seed from it (``seeded_from_standard``).
    One query for the pool (``candidates``), one more for the standard pool when a period is
    seeded."""
    periods = list(periods)
    found = latest_ratings(_read(session, candidates(ids, pool)), periods, players)
    seeded = [at for at in periods if seeded_from_standard(pool, at)]
    if seeded:
        standard = latest_ratings(_read(session, candidates(ids, STANDARD)), seeded, players)
        for at in seeded:
            own, theirs = found[at], standard[at]
            for pid, rating in own.items():
                if rating is None:
                    own[pid] = theirs[pid]
    return found


def _read(session: Session, statement: Select[Any]) -> Iterable[Candidate]:
    """The rows of ``statement`` through the session (its compiled SQL cached by SQLAlchemy:
    the import asks once a batch, and the UNION's compilation, 3 ms, cost more than its rows'
    processing, integers and text, through the driver's cursor: 0.079 -> 0.067 s over the M
    month's nine batches)."""
    return cast("list[Candidate]", session.execute(statement).all())
