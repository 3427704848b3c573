"""Recorded games as the rules see them: each with the published ratings in force at its event's
start (Title Regs §1.4.6a; shared/RULES.md §1), loaded set-based.

The period close, the performance rating and ``whatif`` all load their games here, so the ratings
used in a game are found in one place.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import ColumnElement, select, union
from sqlalchemy.orm import Session

from ledger.db.models import Event, Game
from ledger.domain import Period, RatedGame, Result
from ledger.services.state import History, load_histories, ratings_period


@dataclass(frozen=True)
class LoadedGame:
    """A recorded game (``game``, the ORM row), its event's name and start date (None without an
    event), and the ``RatedGame`` the rules take."""

    game: Game
    event_name: str | None
    event_start: dt.date | None
    rated: RatedGame


def load_rated_games(session: Session, condition: ColumnElement[bool], *, through: Period,
                     also: Iterable[int] = ()) -> tuple[list[LoadedGame], dict[int, History]]:
    """The games matching ``condition`` (a WHERE clause on ``Game``/``Event``), by date then id,
    and the histories of every player in them (plus the player ids in ``also``), with closed
    results up to ``through``.

    Each game's ratings are the players' published ratings in force for the period of its
    event's start date (a game with no event: its own date), None when unrated then. Four queries
    for any number of players (four more when ``also`` names a player with no game).
    """
    rows = session.execute(
        select(Game, Event.name, Event.start_date).outerjoin(Event, Game.event_id == Event.id)
        .where(condition).order_by(Game.date, Game.id)).all()
    ids = union(select(Game.white_id).outerjoin(Event, Game.event_id == Event.id).where(condition),
                select(Game.black_id).outerjoin(Event, Game.event_id == Event.id).where(condition))
    histories = load_histories(session, select(ids.subquery().c[0]), through=through)
    missing = sorted(set(also) - set(histories))
    if missing:
        histories.update(load_histories(session, missing, through=through))
    loaded = []
    for game, event_name, event_start in rows:
        start_period = ratings_period(event_start, game.date)
        loaded.append(LoadedGame(game, event_name, event_start, RatedGame(
            game_id=game.id, event_key=game.event_id,
            white_id=game.white_id, black_id=game.black_id,
            white_rating=histories[game.white_id].rating(start_period),
            black_rating=histories[game.black_id].rating(start_period),
            result=Result(game.result), played=game.played)))
    return loaded, histories
