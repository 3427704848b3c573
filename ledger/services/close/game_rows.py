"""A period's games as the close rates them: integer rows read by one Core SELECT of columns
(``load_game_rows``), each game's result, played and unequal times as one ``game_code``, with the
same published ratings as ``rated_games.load_rated_games`` gives (Title Regs §1.4.6a;
docs/RULES.md §1). Split from ``rated_games`` (issue 25): the close's reader of a million games.
"""


import datetime as dt
from array import array
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import islice
from operator import gt, itemgetter
from typing import Any

from sqlalchemy import (
    ColumnElement,
    FromClause,
    Integer,
    case,
    cast,
    select,
)
from sqlalchemy.orm import Session

from ledger.db.models import Event
from ledger.db.rows import id_rows, stream_chunks
from ledger.domain import STANDARD, Period, RatedGame, RatingPool, Result
from ledger.rules.pools import gap_rule_applies, gap_rule_excludes, seeded_from_standard
from ledger.rules.row_results import GameRowColumns
from ledger.services.close.late import natural_period
from ledger.services.close.rated_games import rating_in_pool
from ledger.services.close.state import History, load_histories, ratings_period
from ledger.services.core.facts import NOW, Facts

#: A recorded game's score for White in halves, by ``games.result``; a forfeit: absent.
WHITE_HALVES = {Result.WHITE_WINS.value: 2, Result.DRAW.value: 1, Result.BLACK_WINS.value: 0}

#: The results in the order of ``game_code``'s index (the three rated ones first).
_CODED = (Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS, Result.WHITE_FORFEIT_WIN,
          Result.BLACK_FORFEIT_WIN, Result.DOUBLE_FORFEIT)
#: ``game_code`` -> (result, played, unequal times): code = 4 x result index + 2 x played +
#: unequal times (24 codes).
GAME_CODES = tuple((result, played, unequal) for result in _CODED
                   for played in (False, True) for unequal in (False, True))
#: ``game_code`` -> White's score in halves when a rule rates the game's result (played, equal
#: times, not a forfeit: the codes 2, 6 and 10 give 2, 1, 0), else None; the 4 codes after
#: ``GAME_CODES`` (a result outside ``Result``) None as well.
CODE_HALVES = tuple(WHITE_HALVES.get(result.value) if played and not unequal else None
                    for result, played, unequal in GAME_CODES) + (None,) * 4


def game_code(g: FromClause) -> ColumnElement[int]:
    """One integer column standing for a game's ``result``, ``played`` and ``unequal_times``
    (``g``: the games, ``Facts.games()``), computed by the database so that a million-row read
    carries one small integer instead of three values: 4 x the result's index in ``_CODED`` +
    2 x played + unequal times; ``GAME_CODES[code]`` gives the three back and ``CODE_HALVES``
    White's halves. A result outside ``Result`` gives a code past ``GAME_CODES`` (24-27)."""
    index = case({result.value: i for i, result in enumerate(_CODED)}, value=g.c.result,
                 else_=len(_CODED))
    return (index * 4 + cast(g.c.played, Integer) * 2
            + cast(g.c.unequal_times, Integer))


@dataclass
class GameRows:
    """A period's games as ``rules.row_results.GameRow`` values (``rows``, by date then id,
    held as ``GameRowColumns``: no tuple a game),
    the ``histories`` of every player in them (as ``load_rated_games``), ``count`` games in
    all, the late results (``late``: game id -> natural period) and ``left_out``: the games
    no rule rates (forfeit, less than one move, different times, a player unrated, the 600-point
    rule) as ``RatedGame`` objects, for the close's report."""

    rows: GameRowColumns
    histories: dict[int, History]
    count: int
    late: dict[int, Period]
    left_out: list[RatedGame]


def _day(value: str | dt.date) -> dt.date:
    """A DATE column's value as the driver gives it (SQLite: ``YYYY-MM-DD`` text) as a date."""
    return dt.date.fromisoformat(value) if isinstance(value, str) else value


def load_game_rows(session: Session, target: Period, everyone: dict[int, History], *,
                   also: Iterable[int] = (), facts: Facts = NOW,
                   pool: RatingPool = STANDARD,
                   ratings: Mapping[int, int | None] | None = None) -> GameRows:
    """The valid games of ``target`` in ``pool`` as integer rows (one Core SELECT of columns,
    no ``RatedGame`` per game), with the same ratings as ``load_rated_games`` (the players'
    published ratings in force for the period of the event's start, seeded from standard in
    rapid and blitz from 2024-03). ``everyone``: every player's history in ``pool`` with closed
    results through the period before (``load_histories(session, None, ...)``); ``histories``
    of the result: those of the games' players and of ``also``. ``KeyError`` for a game whose
    player is not in ``everyone``. ``ratings``: player id -> their own rating in force for
    ``target`` (``History.rating(target)``) when the caller has it, so that a game of an event
    started in ``target`` (or of no event) asks no history again.

    The games' events are read apart (by id, one small query for each chunk of games that
    brings events not seen yet; none for games without events): each event's (or, without
    one, each date's) start period, ratings in force and natural period are found once, so a
    game costs one dict lookup for them; result, played and unequal times come as one
    ``game_code``. The games are read by id (SQLite reads them so from ``ix_games_period``,
    without sorting the month) and put by date then id here (``GameRowColumns.sort_by``, a
    stable numpy sort of each row's day) only when the ids are not in date order already."""
    g = facts.games()
    where = (g.c.period == str(target)) & (g.c.status == "valid") & (g.c.pool == pool)
    # every standard history, read before the games are streamed (the same values as those
    # of the games' players that ``load_rated_games`` reads)
    standard = (load_histories(session, None, through=target.previous(), facts=facts)
                if pool != STANDARD else {})
    events = Event.__table__
    # each event's (start, end), read by id as each chunk of games brings events not seen yet
    # (a query that found them by the period's games read every game twice: 0.017 s at M)
    dates: dict[int, tuple[Any, Any]] = {}
    known: dict[Period, dict[int, int | None]] = {}  # start period -> player -> rating
    if ratings is not None:  # an own None may still be seeded from standard: asked below
        seeding = pool != STANDARD and seeded_from_standard(pool, target)
        known[target] = ({p: r for p, r in ratings.items() if r is not None} if seeding
                         else dict(ratings))
    # an event id (or, for a game without one, its date as the driver gives it) -> the ratings
    # in force at the start, the start period, the natural period when before ``target``
    found: dict[Any, tuple[dict[int, int | None], Period, Period | None]] = {}

    def place(event: int | None, date: str | dt.date
              ) -> tuple[dict[int, int | None], Period, Period | None]:
        start, end = dates[event] if event is not None else (None, None)
        begun = ratings_period(start, _day(date))
        natural = natural_period(end, _day(date))
        if begun not in known:
            known[begun] = {}
        key = event if event is not None else date
        found[key] = (known[begun], begun, natural if natural < target else None)
        return found[key]

    def rating(pid: int, start: Period, in_force: dict[int, int | None]) -> int | None:
        if pid not in in_force:
            in_force[pid] = rating_in_pool(everyone[pid], standard.get(pid), pool, start)
        return in_force[pid]

    gap_rule = gap_rule_applies(pool, target)  # else gap_rule_excludes: False
    out = GameRowColumns()  # each chunk's rows added as columns, then dropped
    late: dict[int, Period] = {}
    left: list[tuple[int, int, int | None, int, int, int | None, int | None, int]] = []
    halves_of = CODE_HALVES
    days: dict[Any, int] = {}  # a date as the driver gives it -> its ordinal
    keys = array("q")  # each row's day (ordinal), to put the rows by date then id
    # the driver's values (db.rows.stream_chunks): the date as SQLite's text or psycopg's date;
    # by id, which SQLite reads from ix_games_period as it is (no sort of the month), then by
    # date below, where the ids are not in date order already
    for chunk in stream_chunks(session, select(
            g.c.id, g.c.event_id, g.c.white_id, g.c.black_id, game_code(g), g.c.date)
            .where(where).order_by(g.c.id)):
        rows: list[tuple[int, int | None, int, int, int | None, int | None, int | None]] = []
        append = rows.append
        played_on = list(map(itemgetter(5), chunk))  # each row's date, at C speed
        unseen = set(map(itemgetter(1), chunk)).difference(dates)
        unseen.discard(None)
        if unseen:
            dates.update((event_id, (start, end)) for event_id, start, end in session.execute(
                select(events.c.id, events.c.start_date, events.c.end_date)
                .where(events.c.id.in_(id_rows(session, sorted(unseen))))))
        for date in set(played_on).difference(days):
            days[date] = _day(date).toordinal()
        keys.extend(map(days.__getitem__, played_on))
        for game_id, event, white, black, code, date in chunk:
            at = found.get(date if event is None else event)
            if at is None:
                at = place(event, date)
            in_force, begun, natural = at
            if natural is not None:
                late[game_id] = natural
            try:
                white_rating, black_rating = in_force[white], in_force[black]
            except KeyError:  # a start period other than ``target``, or seeded
                white_rating = rating(white, begun, in_force)
                black_rating = rating(black, begun, in_force)
            halves = halves_of[code]
            append((game_id, event, white, black, white_rating, black_rating, halves))
            if (halves is None or white_rating is None or black_rating is None
                    or (gap_rule and gap_rule_excludes(white_rating, black_rating, pool,
                                                       target))):
                left.append((days[date], game_id, event, white, black, white_rating,
                             black_rating, code))
        out.extend(rows)
    if any(map(gt, keys, islice(keys, 1, None))):  # not by date already: by date, then id
        out.sort_by(keys)
        left.sort(key=itemgetter(0))  # stable: by id within a day, as read
    del keys
    left_out = []
    for _, game_id, event, white, black, white_rating, black_rating, code in left:
        if code >= len(GAME_CODES):
            raise ValueError(f"game {game_id}: its result is not one of "
                             f"{', '.join(r.value for r in Result)}")
        result, played, unequal = GAME_CODES[code]
        left_out.append(RatedGame(game_id, event, white, black, white_rating, black_rating,
                                  result, played, unequal))
    ids = set(also)
    ids.update(out.white)
    ids.update(out.black)
    histories = {pid: everyone[pid] for pid in ids if pid in everyone}
    return GameRows(out, histories, len(out), late, left_out)
