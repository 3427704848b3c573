"""Recorded games as the rules see them: each with the published ratings in force at its event's
start (Title Regs §1.4.6a; docs/RULES.md §1), loaded set-based.

The period close, the performance rating and ``whatif`` all load their games here, so the ratings
used in a game are found in one place. A voided game (``status`` ``void``) is never loaded: it is
never rated. The games are those of ``services.core.facts.Facts``: now, or as of a change.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    ColumnElement,
    CompoundSelect,
    FromClause,
    Row,
    Select,
    select,
    union,
)
from sqlalchemy.orm import Session

from ledger.db.models import Event
from ledger.domain import STANDARD, Period, RatedGame, RatingPool, Result
from ledger.rules.pools import seeded_from_standard
from ledger.services.close.state import History, load_histories, ratings_period
from ledger.services.core.facts import NOW, Facts

#: A WHERE clause on the games (``Facts.games()``, whose columns are ``g.c.period`` ...) and
#: ``Event``; with the facts as they are now ``g`` is the ``games`` table, so a clause written
#: on ``Game`` applies as well.
GameCondition = Callable[[FromClause], ColumnElement[bool]]
#: At most this many players' histories are read by id (``load_rated_games``'s ``known``: the
#: players missing from it); more, and those of every player of the games are read (a
#: statement's parameters are limited: SQLite's to 32,766).
FEW_READ = 5000


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
                     pool: RatingPool = STANDARD, known: Mapping[int, History] | None = None,
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

    ``known``: histories the caller has read already with the same ``through``, ``facts`` and
    ``pool`` (a site build's, of every player): the players of the games found there are not
    read again (the others are, by id, when they are few: ``FEW_READ``).
    """
    rows, ratings, histories = rated_rows(session, condition, through=through, also=also,
                                          facts=facts, pool=pool, known=known)
    return [_loaded(row, ratings) for row in rows], histories


def rated_rows(session: Session, condition: GameCondition, *, through: Period,
               also: Iterable[int] = (), facts: Facts = NOW, pool: RatingPool = STANDARD,
               known: Mapping[int, History] | None = None,
               ) -> tuple[Sequence[Row[Any]], GameRatings, dict[int, History]]:
    """What ``load_rated_games`` (same arguments) makes its games of, no object made a game:
    the game rows (the ``games`` columns, ``event_name``, ``event_start``, ``event_end``), by
    date then id; ``ratings(event_start, date, white id, black id)``, the published ratings
    of a game's players it would give; the histories."""
    g = facts.games()
    where = condition(g) & (g.c.status == "valid") & (g.c.pool == pool)
    rows = session.execute(_game_rows(g, where)).all()
    sides = {pid for row in rows for pid in (row.white_id, row.black_id)} \
        if known is not None else None
    histories = _players_of(session, g, where, sides, through=through, also=also, facts=facts,
                            pool=pool, known=known)
    rating = ratings_in_pool(session, histories, pool, through=through, facts=facts,
                             asked=bool(rows))
    return rows, _by_day(rating), histories


def streamed_rated_games(session: Session, condition: GameCondition, *, through: Period,
                         also: Iterable[int] = (), facts: Facts = NOW,
                         pool: RatingPool = STANDARD, known: Mapping[int, History],
                         batch: int = 5000) -> tuple[dict[int, History], Iterator[LoadedGame]]:
    """``load_rated_games``' histories and games (the same values, in the same order), the
    games read ``batch`` rows at a time as the iterator is used (the driver's cursor, or the
    server's: ``yield_per``): for a caller that lets each game go once used. The games'
    players are found by one query of their ids. Use the iterator up before the session runs
    another statement."""
    g, where, histories, ratings = _streamed(session, condition, through=through, also=also,
                                             facts=facts, pool=pool, known=known)
    rows = session.execute(_game_rows(g, where), execution_options={"yield_per": batch})
    return histories, (_loaded(row, ratings) for row in rows)


#: A game as ``streamed_game_values`` gives it: id, event id, date, White's id, Black's id,
#: White's rating, Black's rating (None: unrated), the result's text, played, unequal times.
GameValues = tuple[int, int | None, dt.date, int, int, int | None, int | None, str, bool, bool]


def streamed_game_values(session: Session, condition: GameCondition, *, through: Period,
                         also: Iterable[int] = (), facts: Facts = NOW,
                         pool: RatingPool = STANDARD, known: Mapping[int, History],
                         batch: int = 5000) -> tuple[dict[int, History], Iterator[GameValues]]:
    """``streamed_rated_games``' histories and games (the same order, read the same way), each
    game as its ``GameValues`` (the ``RatedGame``'s and the date; the result's text checked
    as ``Result`` checks it: else ``ValueError``), read as Core columns and made into no
    object: a list's bundle writes each as a record (some 1,000,000 games a month at L)."""
    g, where, histories, ratings = _streamed(session, condition, through=through, also=also,
                                             facts=facts, pool=pool, known=known)
    events = Event.__table__.c
    columns = (select(g.c.id, g.c.event_id, g.c.date, g.c.white_id, g.c.black_id, g.c.result,
                      g.c.played, g.c.unequal_times, events.start_date)
               .outerjoin(Event.__table__, g.c.event_id == events.id).where(where)
               .order_by(g.c.date, g.c.id))
    rows = session.execute(columns, execution_options={"yield_per": batch})
    return histories, ((game, event, date, white, black, *ratings(start, date, white, black),
                        Result(result).value, played, unequal)
                       for game, event, date, white, black, result, played, unequal, start
                       in rows)


def _streamed(session: Session, condition: GameCondition, *, through: Period,
              also: Iterable[int], facts: Facts, pool: RatingPool,
              known: Mapping[int, History],
              ) -> tuple[FromClause, ColumnElement[bool], dict[int, History], GameRatings]:
    """What the streamed games are read with: the games (``facts.games()``), the clause that
    selects them, their players' histories (one query of their ids, the rest from ``known``)
    and their ratings (``_by_day``)."""
    g = facts.games()
    where = condition(g) & (g.c.status == "valid") & (g.c.pool == pool)
    sides = set(session.scalars(_sides(g, where)))
    histories = _players_of(session, g, where, sides, through=through, also=also, facts=facts,
                            pool=pool, known=known)
    rating = ratings_in_pool(session, histories, pool, through=through, facts=facts,
                             asked=bool(sides))
    return g, where, histories, _by_day(rating)


def _game_rows(g: FromClause, where: ColumnElement[bool]) -> Select[Any]:
    """The games ``where`` selects with their events' name, start and end, by date then id."""
    return (select(g, Event.name.label("event_name"), Event.start_date.label("event_start"),
                   Event.end_date.label("event_end"))
            .outerjoin(Event, g.c.event_id == Event.id).where(where).order_by(g.c.date, g.c.id))


def _sides(g: FromClause, where: ColumnElement[bool]) -> CompoundSelect[Any]:
    """The ids of the players of the games ``where`` selects (White's and Black's, once)."""
    return union(
        select(g.c.white_id).outerjoin(Event, g.c.event_id == Event.id).where(where),
        select(g.c.black_id).outerjoin(Event, g.c.event_id == Event.id).where(where))


def _players_of(session: Session, g: FromClause, where: ColumnElement[bool],
                sides: set[int] | None, *, through: Period, also: Iterable[int], facts: Facts,
                pool: RatingPool, known: Mapping[int, History] | None) -> dict[int, History]:
    """The histories of the players of the games ``where`` selects (``sides``: their ids, when
    known), and of those in ``also``: taken from ``known`` when it lacks few of them
    (``FEW_READ``), else read."""
    unknown = sorted(sides - known.keys()) if known is not None and sides is not None else []
    if known is not None and sides is not None and len(unknown) <= FEW_READ:
        histories = {pid: known[pid] for pid in sides if pid in known}
        if unknown:
            histories.update(load_histories(session, unknown, through=through, facts=facts,
                                            pool=pool))
    else:
        histories = load_histories(session, select(_sides(g, where).subquery().c[0]),
                                   through=through, facts=facts, pool=pool)
    missing = sorted(set(also) - set(histories))
    if missing:
        histories.update(load_histories(session, missing, through=through, facts=facts,
                                        pool=pool))
    return histories


#: A game's ratings: (event start or None, game date, White's id, Black's id) -> (White's
#: rating, Black's rating), each for the game's start period (``_by_day``).
GameRatings = Callable[[dt.date | None, dt.date, int, int], tuple[int | None, int | None]]


def _by_day(rating: Callable[[int, Period], int | None]) -> GameRatings:
    """``rating`` (``ratings_in_pool``'s: a player's rating for a start period) for both
    players of a game, its start period (``ratings_period``) found once a day and each
    player's rating once a period, looked up by the day and the player's id (a ``Period``'s
    hash is a Python call: two a game when ``rating`` was asked for each side)."""
    days: dict[dt.date, dict[int, int | None]] = {}
    periods: dict[Period, dict[int, int | None]] = {}

    def ratings(event_start: dt.date | None, date: dt.date, white: int,
                black: int) -> tuple[int | None, int | None]:
        day = event_start or date
        known = days.get(day)
        if known is None:
            known = days[day] = periods.setdefault(ratings_period(event_start, date), {})
        if white not in known:
            known[white] = rating(white, ratings_period(event_start, date))
        if black not in known:
            known[black] = rating(black, ratings_period(event_start, date))
        return known[white], known[black]
    return ratings


def _loaded(row: Row[Any], ratings: GameRatings) -> LoadedGame:
    """A game row of ``_game_rows`` as ``load_rated_games`` gives it (``ratings``: its players'
    ratings for its start period, ``_by_day``'s)."""
    white, black = ratings(row.event_start, row.date, row.white_id, row.black_id)
    return LoadedGame(row, row.event_name, row.event_start, RatedGame(
        game_id=row.id, event_key=row.event_id, white_id=row.white_id, black_id=row.black_id,
        white_rating=white, black_rating=black, result=Result(row.result), played=row.played,
        unequal_times=row.unequal_times), row.event_end)


def rating_in_pool(history: History, standard: History | None, pool: RatingPool,
                   start: Period) -> int | None:
    """A player's published rating in ``pool`` in force for ``start`` (``history``: theirs in
    that pool), or, unrated there in rapid or blitz from 2024-03, their standard rating then
    (``standard``: their standard history, None when not read; docs/RULES.md §9,
    ``rules.pools.seeded_from_standard``); None when unrated."""
    own = history.rating(start)
    if own is None and standard is not None and seeded_from_standard(pool, start):
        own = standard.rating(start)
    return own


def ratings_in_pool(session: Session, histories: dict[int, History], pool: RatingPool, *,
                    through: Period, facts: Facts = NOW, asked: bool = True,
                    standard: dict[int, History] | None = None,
                    ) -> Callable[[int, Period], int | None]:
    """``rating(player id, start period)``: ``rating_in_pool`` for the players of
    ``histories`` (theirs in ``pool``, closed results through ``through``), each asked once per
    start period; their standard histories read once (one query set) when ``pool`` is rapid
    or blitz and ``asked`` (False: no rating will be asked, nothing is read), unless given
    (``standard``: theirs through ``through``, read by the caller)."""
    if standard is None:
        standard = (load_histories(session, sorted(histories), through=through, facts=facts)
                    if pool != STANDARD and asked else {})
    known: dict[tuple[int, Period], int | None] = {}  # a player's rating per start period

    def rating(pid: int, start: Period) -> int | None:
        if (pid, start) not in known:
            known[pid, start] = rating_in_pool(histories[pid], standard.get(pid), pool, start)
        return known[pid, start]
    return rating


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
