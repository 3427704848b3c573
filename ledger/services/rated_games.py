"""Recorded games as the rules see them: each with the published ratings in force at its event's
start (Title Regs §1.4.6a; docs/RULES.md §1), loaded set-based.

The period close, the performance rating and ``whatif`` all load their games here, so the ratings
used in a game are found in one place. A voided game (``status`` ``void``) is never loaded: it is
never rated. The games are those of ``services.facts.Facts``: now, or as of a change.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, FromClause, Row, select, union
from sqlalchemy.orm import Session

from ledger.db.models import Event
from ledger.domain import STANDARD, Period, RatedGame, RatingPool, Result
from ledger.rules.pools import seeded_from_standard
from ledger.services.facts import NOW, Facts
from ledger.services.state import History, load_histories, ratings_period

#: A WHERE clause on the games (``Facts.games()``, whose columns are ``g.c.period`` ...) and
#: ``Event``; with the facts as they are now ``g`` is the ``games`` table, so a clause written
#: on ``Game`` applies as well.
GameCondition = Callable[[FromClause], ColumnElement[bool]]


@dataclass(frozen=True)
class LoadedGame:
    """A recorded game (``game``: a row with the ``games`` columns ``id``, ``date``, ``round``,
    ``period`` ...), its event's name, start and end dates (None without an event), and the
    ``RatedGame`` the rules take."""

    game: Row[Any]
    event_name: str | None
    event_start: dt.date | None
    rated: RatedGame
    event_end: dt.date | None = None


def load_rated_games(session: Session, condition: GameCondition, *, through: Period,
                     also: Iterable[int] = (), facts: Facts = NOW,
                     pool: RatingPool = STANDARD,
                     ) -> tuple[list[LoadedGame], dict[int, History]]:
    """The valid games matching ``condition`` (see ``GameCondition``), by date then id, and the
    histories of every player in them (plus the player ids in ``also``), with closed results up
    to ``through``; ``facts``: the games and players now or as of a change.

    Each game's ratings are the players' published ratings in force for the period of its
    event's start date (a game with no event: its own date), None when unrated then. Four queries
    for any number of players (four more when ``also`` names a player with no game).

    ``pool``: only the games of that rating pool, with the ratings of that pool (docs/RULES.md
    §9). In rapid and blitz from 2024-03 (``rules.pools.seeded_from_standard``), a player
    unrated in the pool at the event's start plays with their standard rating then, and counts
    as rated for the opponents (``histories`` are the pool's; ``seeded`` below).
    """
    g = facts.games()
    where = condition(g) & (g.c.status == "valid") & (g.c.pool == pool)
    rows = session.execute(
        select(g, Event.name.label("event_name"), Event.start_date.label("event_start"),
               Event.end_date.label("event_end"))
        .outerjoin(Event, g.c.event_id == Event.id)
        .where(where).order_by(g.c.date, g.c.id)).all()
    ids = union(select(g.c.white_id).outerjoin(Event, g.c.event_id == Event.id).where(where),
                select(g.c.black_id).outerjoin(Event, g.c.event_id == Event.id).where(where))
    histories = load_histories(session, select(ids.subquery().c[0]), through=through,
                               facts=facts, pool=pool)
    missing = sorted(set(also) - set(histories))
    if missing:
        histories.update(load_histories(session, missing, through=through, facts=facts,
                                        pool=pool))
    standard = (load_histories(session, sorted(histories), through=through, facts=facts)
                if pool != STANDARD and rows else {})

    known: dict[tuple[int, Period], int | None] = {}  # a player's rating per start period

    def rating(pid: int, start: Period) -> int | None:
        if (pid, start) in known:
            return known[pid, start]
        own = histories[pid].rating(start)
        if own is None and pid in standard and seeded_from_standard(pool, start):
            own = standard[pid].rating(start)
        known[pid, start] = own
        return own

    loaded = []
    for row in rows:
        game, event_name, event_start = row, row.event_name, row.event_start
        start_period = ratings_period(event_start, game.date)
        loaded.append(LoadedGame(game, event_name, event_start, RatedGame(
            game_id=game.id, event_key=game.event_id,
            white_id=game.white_id, black_id=game.black_id,
            white_rating=rating(game.white_id, start_period),
            black_rating=rating(game.black_id, start_period),
            result=Result(game.result), played=game.played,
            unequal_times=game.unequal_times), row.event_end))
    return loaded, histories


def seeded_states(session: Session, histories: dict[int, History], target: Period,
                  pool: RatingPool, facts: Facts = NOW) -> dict[int, int]:
    """Player id -> the standard rating each player of ``histories`` (the pool's) unrated in
    ``pool`` at ``target``'s start is rated with (docs/RULES.md §9, from 2024-03; rapid and
    blitz only): their standard rating in force then. Empty for the standard pool, earlier
    periods, or nobody unrated. One query set (``load_histories``)."""
    if not seeded_from_standard(pool, target):
        return {}
    unrated = sorted(pid for pid, h in histories.items() if h.rating(target) is None)
    if not unrated:
        return {}
    standard = load_histories(session, unrated, through=target.previous(), facts=facts)
    return {pid: rating for pid in unrated
            if (rating := standard[pid].rating(target)) is not None}
