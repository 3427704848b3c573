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
from ledger.domain import Period, RatedGame, Result
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
                     ) -> tuple[list[LoadedGame], dict[int, History]]:
    """The valid games matching ``condition`` (see ``GameCondition``), by date then id, and the
    histories of every player in them (plus the player ids in ``also``), with closed results up
    to ``through``; ``facts``: the games and players now or as of a change.

    Each game's ratings are the players' published ratings in force for the period of its
    event's start date (a game with no event: its own date), None when unrated then. Four queries
    for any number of players (four more when ``also`` names a player with no game).
    """
    g = facts.games()
    where = condition(g) & (g.c.status == "valid")
    rows = session.execute(
        select(g, Event.name.label("event_name"), Event.start_date.label("event_start"),
               Event.end_date.label("event_end"))
        .outerjoin(Event, g.c.event_id == Event.id)
        .where(where).order_by(g.c.date, g.c.id)).all()
    ids = union(select(g.c.white_id).outerjoin(Event, g.c.event_id == Event.id).where(where),
                select(g.c.black_id).outerjoin(Event, g.c.event_id == Event.id).where(where))
    histories = load_histories(session, select(ids.subquery().c[0]), through=through,
                               facts=facts)
    missing = sorted(set(also) - set(histories))
    if missing:
        histories.update(load_histories(session, missing, through=through, facts=facts))
    loaded = []
    for row in rows:
        game, event_name, event_start = row, row.event_name, row.event_start
        start_period = ratings_period(event_start, game.date)
        loaded.append(LoadedGame(game, event_name, event_start, RatedGame(
            game_id=game.id, event_key=game.event_id,
            white_id=game.white_id, black_id=game.black_id,
            white_rating=histories[game.white_id].rating(start_period),
            black_rating=histories[game.black_id].rating(start_period),
            result=Result(game.result), played=game.played), row.event_end))
    return loaded, histories
