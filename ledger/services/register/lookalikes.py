"""Likely duplicates: a new game with the same players and result as one recorded (or one the
file being imported has already given), in another event on the same date or within its dates,
or in the same event with and without a round (README "Likely duplicates"). ``Lookalikes``
loads the candidates with one query; ``looks_like`` and ``why_similar`` word the messages that
``ledger game add`` and every import give."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from ledger.db.models import Event, Game
from ledger.domain import STANDARD, RatingPool, Result, parse_pool, round_of

#: A game joins a recorded event of the same name only within this many days of its dates;
#: further away it starts a new event (an annual event keeps its name from year to year). The
#: likely-duplicate check looks as far.
EVENT_REACH_DAYS = 31


#: Rule (b) of likely duplicates (a date within the other game's event dates) holds only when
#: the longer of the two events spans at most this many days (first to last, both counted): a
#: weekend or a week's tournament, whose second source may date its games otherwise; a weekly
#: league spanning the month holds every other game of the pair that month.
WITHIN_EVENT_DAYS = 10


def round_text(label: str | None) -> str:
    """A round label as messages write it: ``round 1.1``, or ``no round`` for None."""
    return f"round {label}" if label is not None else "no round"


class Lookalike(NamedTuple):
    """A game as the likely-duplicate check sees it: a recorded game (``game_id``) or a game of
    the file being imported (``line``, its first line; ``game_id`` None); its ``event_id`` and
    ``event`` name (None: no event), its ``round`` label as written, its ``date``, and
    ``dates``, the first and last day of its event (a recorded game: its event's dates in the
    ledger; a file's game: the dates the file gives its event, its record 042 and 052 or its
    games' first and last date; None: no event, or a game typed in with ``ledger game add``,
    which is its own date); its rating ``pool`` (docs/RULES.md §9): a game of another pool is
    never a look-alike. A named tuple, not a dataclass: an import makes one per game of its
    file (a frozen dataclass's ``__init__`` costs about three times as much)."""

    game_id: int | None
    event_id: int | None
    event: str | None
    round: str | None
    date: dt.date
    dates: tuple[dt.date, dt.date] | None = None
    line: int | None = None
    pool: RatingPool = STANDARD


@dataclass(frozen=True)
class Resemblance:
    """A game (``game``) that a new one resembles, and ``why`` (one of the rules of
    ``Lookalikes``, as messages say it)."""

    game: Lookalike
    why: str


#: Why a game is a likely duplicate: (a) the same date in another event.
SAME_DATE = "the same players, date and result in another event (or one without an event)"
#: (b) a game on a day within the other game's event's dates.
WITHIN_THIS_EVENT = ("the same players and result in another event (or one without an event) "
                     "on {day}, within this event's dates ({first} to {last})")
WITHIN_THAT_EVENT = ("the same players and result in another event, whose dates ({first} to "
                     "{last}) hold {day}")
#: (c) the same event, one of the two with a round and the other without.
ROUND_AND_NO_ROUND = ("the same players and result in this event, one of the two games with a "
                      "round and the other without")


class Lookalikes:
    """The games a new game may be a second record of, for the likely-duplicate check that
    ``ledger game add`` and every import apply: a game with the same two players (either
    colours) and the same result (seen from each player: ``Result.mirrored``) as a game already
    recorded (a voided game is no longer a game: never a look-alike), or one the file being
    imported has already given (``take``), when

    - (a) the two are in different events (or one of them has no event) and on the same date;
    - (b) the two are in different events, one of them at least in an event, and the one's date
      lies within the other's event dates (``Lookalike.dates``): a file without round dates
      (a TRF without record 132) dates every game on the event's last day, so a second source
      of an event under another name can date each game otherwise; only when the longer of the
      two events spans at most ``WITHIN_EVENT_DAYS`` days (a league's month holds a weekend
      tournament's game of the same pair and result, a game of its own);
    - (c) the two are in the same event and one has a round and the other none (rounds read by
      ``domain.round_of``): the organiser's PGN without rounds and the arbiter's TRF of one
      event. Two games of one event both without a round on different days are two games (a
      club night); both with rounds, the rounds decide (``game_key``).

    Two games both without an event are never likely duplicates (``RoundSeats`` holds them to
    one game a pair a day), nor are two games of different pools (``Lookalike.pool``: a blitz
    game and a standard game of the same pair, result and day are two games). Loaded with one
    query: the games recorded within ``EVENT_REACH_DAYS`` of ``first``..``last`` or in an
    event whose dates come that near (``pair``: only the games of those two players, by ledger
    id; ``pool``: only the games of that pool; ``before_id``: only games of that id or lower),
    and one more for each ``extend`` past the dates loaded.
    """

    def __init__(self, session: Session, first: dt.date, last: dt.date,
                 pair: tuple[int, int] | None = None, pool: RatingPool | None = None,
                 before_id: int | None = None) -> None:
        self._games: dict[tuple[int, int, Result, RatingPool], list[Lookalike]] = {}
        self._recorded: dict[tuple[int, int, Result, RatingPool], list[Lookalike]] = {}
        self._loaded: set[int] = set()
        #: The pairs (lower id, higher id) of every game held, recorded or taken (``any_of``).
        self._pairs: set[tuple[int, int]] = set()
        self._session, self._pair, self._pool, self._before_id = session, pair, pool, before_id
        self._span: tuple[dt.date, dt.date] | None = None
        self.extend(first, last)

    def extend(self, first: dt.date, last: dt.date) -> None:
        """Load the recorded games for ``first``..``last`` as well (the dates seen so far and
        these, as one span: an import reading its file in batches extends it with each).
        ``before_id`` (given when built): only games of a lower or equal id, the ones recorded
        before the import began (it writes its own batch by batch)."""
        if self._span is not None:
            low, high = self._span
            if low <= first and last <= high:
                return
            first, last = min(first, low), max(last, high)
        self._span = (first, last)
        reach = dt.timedelta(days=EVENT_REACH_DAYS)
        low, high = first - reach, last + reach
        query = (select(Game.id, Game.event_id, Event.name, Event.start_date, Event.end_date,
                        Game.round, Game.white_id, Game.black_id, Game.date, Game.result,
                        Game.pool)
                 .outerjoin(Event, Game.event_id == Event.id)
                 .where(or_(Game.date.between(low, high),
                            and_(Event.start_date <= high, Event.end_date >= low)),
                        Game.status == "valid")
                 .order_by(Game.id))
        if self._pair is not None:
            query = query.where(Game.white_id.in_(self._pair), Game.black_id.in_(self._pair))
        if self._pool is not None:  # a game of another pool is another game (docs/RULES.md §9)
            query = query.where(Game.pool == self._pool)
        if self._before_id is not None:
            query = query.where(Game.id <= self._before_id)
        later = bool(self._loaded)
        grown: set[tuple[int, int, Result, RatingPool]] = set()
        for (game_id, event_id, event, start, end, round_, white_id, black_id, date,
             result, game_pool) in self._session.execute(query):
            if game_id in self._loaded:
                continue
            self._loaded.add(game_id)
            dates = (start, end) if event_id is not None else None
            game = Lookalike(game_id, event_id, event, round_, date, dates,
                             pool=parse_pool(game_pool))
            key = (*_outcome(white_id, black_id, Result(result)), game.pool)
            self._recorded.setdefault(key, []).append(game)
            self._pairs.add(key[:2])
            grown.add(key)
        if later:  # recorded games by id, whenever they were loaded
            for key in grown:
                self._recorded[key].sort(key=lambda g: g.game_id or 0)

    def take(self, white_id: int, black_id: int, result: Result, game: Lookalike) -> None:
        """Add ``game`` (players' ledger ids, ``result`` from White's side) to the games later
        ones are compared with: an import takes each game of its file it records."""
        key = (*_outcome(white_id, black_id, result), game.pool)
        self._games.setdefault(key, []).append(game)
        self._pairs.add(key[:2])

    def any_of(self, white_id: int, black_id: int, result: Result, pool: RatingPool) -> bool:
        """Whether any game of ``pool`` with these players and result (recorded, or taken) is
        held: when none is, ``of`` finds nothing for a game of theirs, whatever its event and
        dates (an import asks this first, before it builds the game's ``Lookalike``)."""
        pair = (white_id, black_id) if white_id < black_id else (black_id, white_id)
        if pair not in self._pairs:  # plain ints: no enum hashed for most games
            return False
        key = (*_outcome(white_id, black_id, result), pool)
        return key in self._recorded or key in self._games

    def holds_any_pair(self, pairs: Iterable[tuple[int, int]]) -> bool:
        """Whether a game (recorded, or taken) of any of ``pairs`` (lower ledger id, higher) is
        held, of any result or pool: when not, ``any_of`` is False for every game of theirs."""
        return bool(self._pairs) and not self._pairs.isdisjoint(pairs)

    def of(self, white_id: int, black_id: int, result: Result,
           game: Lookalike) -> list[Resemblance]:
        """The games a new ``game`` (players' ledger ids, ``result`` from White's side; its
        ``game_id`` None) resembles by the rules above, recorded ones by game id, then the
        file's in the order taken, each with why; only games of its pool (``game.pool``)."""
        found = []
        key = (*_outcome(white_id, black_id, result), game.pool)
        for games in (self._recorded.get(key, ()), self._games.get(key, ())):
            for old in games:
                why = _why_alike(game, old)
                if why is not None:
                    found.append(Resemblance(old, why))
        return found


def _why_alike(new: Lookalike, old: Lookalike) -> str | None:
    """Which rule of ``Lookalikes`` makes ``new`` a likely duplicate of ``old`` (the same
    players and result), as messages say it; None when none does."""
    if new.event_id is not None and new.event_id == old.event_id:
        one_round = (round_of(new.round) is None) != (round_of(old.round) is None)
        return ROUND_AND_NO_ROUND if one_round else None
    if new.event_id is None and old.event_id is None:
        return None
    if new.date == old.date:
        return SAME_DATE
    if max((_days(d) for d in (new.dates, old.dates) if d is not None),
           default=0) > WITHIN_EVENT_DAYS:
        return None  # rule (b) is for short events only
    if new.dates is not None and new.dates[0] <= old.date <= new.dates[1]:
        return WITHIN_THIS_EVENT.format(day=old.date, first=new.dates[0], last=new.dates[1])
    if old.dates is not None and old.dates[0] <= new.date <= old.dates[1]:
        return WITHIN_THAT_EVENT.format(day=new.date, first=old.dates[0], last=old.dates[1])
    return None


def _days(dates: tuple[dt.date, dt.date]) -> int:
    """The days an event's ``dates`` (first, last) span, both counted: 14 to 15 November is 2."""
    return (dates[1] - dates[0]).days + 1


def _outcome(white_id: int, black_id: int, result: Result) -> tuple[int, int, Result]:
    """Two players and the result as the lower id's White would write it."""
    if white_id < black_id:
        return (white_id, black_id, result)
    return (black_id, white_id, result.mirrored)


def _resembles(game: Lookalike, date: dt.date) -> str:
    """How a message names a game a new one (dated ``date``) resembles: ``game 3 (event
    'Club', round 1)``, or ``line 12 (...)`` for a game of the file, with its date when it is
    another."""
    event = f"event {game.event!r}" if game.event is not None else "no event"
    dated = f", {game.date}" if game.date != date else ""
    what = f"game {game.game_id}" if game.game_id is not None else f"line {game.line}"
    return f"{what} ({event}, {round_text(game.round)}{dated})"


def looks_like(white: str, black: str, result: Result, date: dt.date, round_: str | None,
               alike: Iterable[Lookalike]) -> str:
    """A likely duplicate as messages name it, with the games it resembles: ``A v B 1-0 on
    2025-11-05 (round 1) looks like game 3 (event 'Club', round 1) in the ledger`` (and ``line
    12 (event 'Club 2025', no round) of this file``)."""
    games = list(alike)
    places = [" and ".join(_resembles(g, date) for g in group) + where
              for group, where in (([g for g in games if g.game_id is not None], " in the ledger"),
                                   ([g for g in games if g.game_id is None], " of this file"))
              if group]
    return (f"{white} v {black} {result.value} on {date} ({round_text(round_)}) looks like "
            + " and ".join(places))


def why_similar(alike: Iterable[Resemblance], how: str) -> str:
    """Why games are likely duplicates (each rule once) and how to record them all the same
    (``how``: ``add it``, ``import the file``)."""
    return SIMILAR.format(why="; ".join(dict.fromkeys(r.why for r in alike)), how=how)


#: What a likely duplicate is (``why``: ``SAME_DATE`` ...), and how the rating officer says it
#: is not one.
SIMILAR = "{why}; if they are different games, {how} with --allow-similar"
#: Said of a likely duplicate recorded because the rating officer said so.
ALLOWED = "recorded as a different game (--allow-similar)"
