"""Recording games: one at a time (``ledger game add``) or a file's worth (the importers).

A game belongs to the rating period in which its event ended (a game with no event: its own date)
(shared/RULES.md §1). A game is never slipped into a closed period: it is refused.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from sqlalchemy import Engine, func, or_, select, update
from sqlalchemy.orm import Session, aliased

from ledger.db.models import (
    Event,
    Game,
    InitialRating,
    InitialRatingGame,
    PeriodGame,
    Player,
    RatingPeriod,
)
from ledger.db.order import GAME_ORDER
from ledger.domain import Actor, Period, Result, RoundKey, round_of
from ledger.errors import InvalidInput, NotFound, PeriodError
from ledger.names import name_key
from ledger.rules.editions import edition_for
from ledger.services.audit import record_change, summarise, written_by
from ledger.services.players import MAX_ID, resolve
from ledger.services.revisions import current
from ledger.services.session import transaction
from ledger.services.state import FIRST_RATED_PERIOD, is_closed, last_closed_period


def parse_date(text: str, field: str = "date") -> dt.date:
    """Parse ``YYYY-MM-DD`` (that form only); raise ``InvalidInput`` naming ``field``."""
    try:
        if not _DATE_RE.fullmatch(text.strip()):
            raise ValueError
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise InvalidInput(f"{field}: {text!r} is not a date; write YYYY-MM-DD") from None


def clean_label(text: str | None, field: str, limit: int) -> str | None:
    """An event name or round as stored: trimmed, None when empty; ``InvalidInput`` if too long."""
    if text is None or not text.strip():
        return None
    if len(text.strip()) > limit:
        raise InvalidInput(f"{field}: {len(text.strip())} characters; at most {limit}")
    return text.strip()


def check_open(period: Period, last_closed: Period | None, what: str) -> None:
    """Raise ``PeriodError`` when ``period`` is closed (``state.is_closed``)."""
    if is_closed(period, last_closed):
        raise PeriodError(
            f"{what} falls in period {period}, which is closed (periods up to {last_closed} "
            "are closed; late results are not supported yet)")


_DATE_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
MAX_ROUND, MAX_EVENT = 20, 200
#: A game joins a recorded event of the same name only within this many days of its dates;
#: further away it starts a new event (an annual event keeps its name from year to year).
EVENT_REACH_DAYS = 31


def check_date(day: dt.date, today: dt.date, field: str = "date") -> None:
    """Refuse a game date the ledger could never rate: after ``today``, or before the first rule
    edition it implements (2022-01). Raises ``InvalidInput`` naming ``field``."""
    if day > today:
        raise InvalidInput(f"{field}: {day} is in the future (today is {today})")
    try:
        edition_for(Period.of(day))
    except PeriodError as exc:
        raise InvalidInput(f"{field}: {day} cannot be rated: {exc}") from None


def _same_name(session: Session, name: str, start: dt.date, end: dt.date,
               exact_start: bool) -> list[Event]:
    reach = dt.timedelta(days=EVENT_REACH_DAYS)
    query = select(Event).where(Event.name_key == name_key(name))
    query = (query.where(Event.start_date == start) if exact_start
             else query.where(Event.start_date <= end + reach, Event.end_date >= start - reach))
    return list(session.scalars(query.order_by(Event.start_date.desc())))


def _open_one(candidates: list[Event], last_closed: Period | None) -> Event | None:
    return next((e for e in candidates if not is_closed(Period.of(e.end_date), last_closed)), None)


#: ``#ID`` of an event: ASCII digits only (``str.isdigit`` accepts ``²``, which ``int`` refuses),
#: at most 30 of them (``int`` refuses more than 4300).
_EVENT_ID_RE = re.compile(r"#[0-9]{1,30}")


def event_by_id(session: Session, ref: str) -> Event | None:
    """The event ``ref`` names when it is an ``#ID`` (str, already stripped); None when ``ref`` is
    not an ``#ID`` (a name: the caller looks it up). Raises ``NotFound`` for an id no event has,
    however large."""
    if not _EVENT_ID_RE.fullmatch(ref):
        return None
    number = int(ref[1:])
    event = session.get(Event, number) if number <= MAX_ID else None
    if event is None:
        raise NotFound(f"event: no event with id {ref}")
    return event


def find_event(session: Session, name: str, start: dt.date, end: dt.date,
               *, exact_start: bool = False) -> Event | None:
    """The recorded event ``place_in_event`` would use for these games, if any (no writes):
    the same name (``name_key``: case, accents and punctuation aside) starting on ``start``
    (``exact_start``) or by ``end``; an event in a closed period only when nothing open matches."""
    candidates = _same_name(session, name, start, end, exact_start)
    return _open_one(candidates, last_closed_period(session)) or next(iter(candidates), None)


def place_in_event(session: Session, name: str, start: dt.date, end: dt.date,
                   *, site: str | None = None, source: str | None = None,
                   exact_start: bool = False, notes: list[str] | None = None,
                   ) -> tuple[Event, Period]:
    """Find or create the event ``name`` for games dated ``start``..``end``; return it and its period.

    Names match by ``name_key`` (case, accents and punctuation aside). An event is reused while
    its period is open (``exact_start``: only the one with that start date; otherwise one within
    ``EVENT_REACH_DAYS`` of these dates); its dates widen to cover the new games, and if its end
    moves to a later month its games move with it (a game belongs to the period its event ended in). What
    moved, or a new event started beside a closed one of the same name, is added to ``notes``.
    An event created or widened is marked as written by the change being recorded
    (``services.audit.written_by``).
    Raises ``PeriodError`` if the event's period would be closed.
    """
    last_closed = last_closed_period(session)
    change_id = written_by(session)
    candidates = _same_name(session, name, start, end, exact_start)
    event = _open_one(candidates, last_closed)
    if event is None:
        if exact_start and candidates:
            raise PeriodError(f"event {name!r} starting {start} is in closed period "
                              f"{Period.of(candidates[0].end_date)}")
        if candidates and notes is not None:
            notes.append(f"a new event {name!r} starts on {start}: the earlier {name!r} is in "
                         f"closed period {Period.of(candidates[0].end_date)}")
        event = Event(name=name, site=site, start_date=start, end_date=end, source=source,
                      change_id=change_id)
        session.add(event)
        session.flush()
    else:
        old_period = Period.of(event.end_date)
        if start < event.start_date or end > event.end_date:
            event.change_id = change_id
        event.start_date = min(event.start_date, start)
        event.end_date = max(event.end_date, end)
        new_period = Period.of(event.end_date)
        if new_period != old_period:
            moved = session.scalar(select(func.count()).where(Game.event_id == event.id))
            session.execute(update(Game).where(Game.event_id == event.id)
                            .values(period=str(new_period)))
            if moved and notes is not None:
                notes.append(f"event {event.name!r} now ends on {event.end_date}: its {moved} "
                             f"earlier game(s) move from period {old_period} to {new_period}")
    period = Period.of(event.end_date)
    check_open(period, last_closed, f"event {name!r} (ends {event.end_date})")
    return event, period


GameKey = tuple[int | None, RoundKey, int, int, dt.date | None]


def game_key(event_id: int | None, round_: str | None, white_id: int, black_id: int,
             date: dt.date) -> GameKey:
    """A game's natural key: event, round and players, and the date for a game with no event or
    no round. The round is compared as ``domain.round_of`` reads its label (``1``, ``01`` and
    ``1.1`` are round 1), so the same game written by two sources of one event is one game."""
    number = round_of(round_)
    dated = event_id is None or number is None
    return (event_id, number, white_id, black_id, date if dated else None)


def existing_games(session: Session, event_id: int | None,
                   dates: tuple[dt.date, dt.date]) -> dict[GameKey, Game]:
    """The games already recorded for an event (or, with no event, dated within ``dates``)."""
    query = select(Game)
    if event_id is not None:
        query = query.where(Game.event_id == event_id)
    else:
        query = query.where(Game.event_id.is_(None), Game.date.between(*dates))
    return {game_key(g.event_id, g.round, g.white_id, g.black_id, g.date): g
            for g in session.scalars(query)}


#: Where a player already plays in a round of an event: a recorded ``Game``, or (during an
#: import) the line of the file that seats them there.
Seat = Game | int


class RoundSeats:
    """Who plays in each round of one event, and which pairs meet on which day, for the rules
    both ``ledger game add`` and every import apply (rounds compared as ``domain.round_of``
    reads them: ``1.1`` is round 1):

    - one game per player per round (``clash``): the same game entered twice, colours swapped,
      would be rated twice;
    - the same pair on one date is one game unless their rounds differ (``same_day``): a game
      without a round when the pair already has a game that day, or one with a round when they
      have a game without one that day, is the same game entered twice.

    Built from the event's recorded games (``existing_games(...).values()``; games without an
    event are one such group); an import takes each accepted game of its file with ``take`` so
    that later lines are checked against it too.
    """

    def __init__(self, recorded: Iterable[Game]) -> None:
        self._seats: dict[tuple[RoundKey, int], Seat] = {}
        self._days: dict[tuple[int, int, dt.date], list[tuple[str | None, Seat]]] = {}
        for game in recorded:
            self.take(game.round, (game.white_id, game.black_id), game.date, game)

    def take(self, round_: str | None, pair: tuple[int, int], date: dt.date, seat: Seat) -> None:
        """Seat the two players (ledger ids) in ``round_`` (str or None) on ``date`` at ``seat``;
        the first seat of a player in a round is kept."""
        number = round_of(round_)
        if number is not None:
            for player_id in pair:
                self._seats.setdefault((number, player_id), seat)
        self._days.setdefault(_pair_day(pair, date), []).append((round_, seat))

    def clash(self, round_: str | None, players: Sequence[Player]) -> tuple[Player, Seat] | None:
        """The first of ``players`` who already plays in ``round_``, with where; None when
        nobody does (or ``round_`` names no round)."""
        number = round_of(round_)
        if number is None:
            return None
        for player in players:
            seat = self._seats.get((number, player.id))
            if seat is not None:
                return player, seat
        return None

    def same_day(self, round_: str | None, pair: tuple[int, int],
                 date: dt.date) -> tuple[str | None, Seat] | None:
        """The first game the pair (ledger ids, either colours) already has on ``date`` that this
        one would be the same game as (one of the two has no round), as (its round label, where);
        None when there is none."""
        number = round_of(round_)
        return next(((label, seat) for label, seat in self._days.get(_pair_day(pair, date), ())
                     if number is None or round_of(label) is None), None)


def _pair_day(pair: tuple[int, int], date: dt.date) -> tuple[int, int, dt.date]:
    return (min(pair), max(pair), date)


def describe_game(session: Session, game: Game) -> str:
    """A recorded game as messages name it: ``game 11 (Doyle, Liam v Walsh, Brendan, 0-1)``."""
    white, black = session.get(Player, game.white_id), session.get(Player, game.black_id)
    names = f"{white.name if white else game.white_id} v {black.name if black else game.black_id}"
    return f"game {game.id} ({names}, {game.result})"


def _where(session: Session, seat: Seat) -> str:
    return (f"line {seat}" if isinstance(seat, int)
            else f"{describe_game(session, seat)} in the ledger")


def twice_in_round(session: Session, player: Player, round_: str, seat: Seat) -> str:
    """The message refusing a second game of ``player`` in ``round_``, naming the first one."""
    return f"{player.name} plays twice in round {round_}: also {_where(session, seat)}"


def twice_on_a_day(session: Session, white: Player, black: Player, round_: str | None,
                   date: dt.date, first: tuple[str | None, Seat], in_event: bool) -> str:
    """The message refusing a second game of one pair on one date in one event (``in_event``;
    else both without an event) (``RoundSeats.same_day``), naming the first one (``first``: its
    round label and where)."""
    label, seat = first
    where = "in this event" if in_event else "without an event"
    return (f"{white.name} v {black.name} on {date} ({_round_text(round_)}): the pair already "
            f"has a game that day {where}, {_where(session, seat)} ({_round_text(label)}); "
            "the same pair on one day in one event is one game unless their rounds differ: "
            "give each game its round")


def _round_text(label: str | None) -> str:
    return f"round {label}" if label is not None else "no round"


@dataclass(frozen=True)
class Lookalike:
    """A recorded game as the likely-duplicate check names it: ``game_id``, its ``event_id`` and
    ``event`` name (None: no event) and its ``round`` label as written."""

    game_id: int
    event_id: int | None
    event: str | None
    round: str | None


class Lookalikes:
    """The games recorded between two dates, for the likely-duplicate check that ``ledger game
    add`` and every import apply: a new game with the same two players (either colours), date
    and result (seen from each player: ``Result.mirrored``) as a recorded game of another event,
    or one without an event against one with an event, is likely the same game recorded from a
    second source (a renamed event, the arbiter's TRF beside the organiser's PGN). One query."""

    def __init__(self, session: Session, first: dt.date, last: dt.date) -> None:
        self._games: dict[tuple[int, int, dt.date, Result], list[Lookalike]] = {}
        query = (select(Game.id, Game.event_id, Event.name, Game.round, Game.white_id,
                        Game.black_id, Game.date, Game.result)
                 .outerjoin(Event, Game.event_id == Event.id)
                 .where(Game.date.between(first, last)).order_by(Game.id))
        for game_id, event_id, event, round_, white_id, black_id, date, result in (
                session.execute(query)):
            self._games.setdefault(_outcome(white_id, black_id, date, Result(result)), []).append(
                Lookalike(game_id, event_id, event, round_))

    def of(self, white_id: int, black_id: int, date: dt.date, result: Result,
           event_id: int | None) -> list[Lookalike]:
        """The recorded games a new game (players' ledger ids, date, result, and the id of the
        event it goes in, None for none) resembles, outside its own event, by game id."""
        return [g for g in self._games.get(_outcome(white_id, black_id, date, result), ())
                if g.event_id != event_id]


def _outcome(white_id: int, black_id: int, date: dt.date,
             result: Result) -> tuple[int, int, dt.date, Result]:
    """Two players, a date and the result as the lower id's White would write it."""
    if white_id < black_id:
        return (white_id, black_id, date, result)
    return (black_id, white_id, date, result.mirrored)


def _resembles(game: Lookalike) -> str:
    """How a message names a recorded game a new one resembles: ``game 3 (event 'Club', round
    1)``."""
    event = f"event {game.event!r}" if game.event is not None else "no event"
    return f"game {game.game_id} ({event}, {_round_text(game.round)})"


def looks_like(white: str, black: str, result: Result, date: dt.date, round_: str | None,
               alike: Iterable[Lookalike]) -> str:
    """A likely duplicate as messages name it, with the recorded games it resembles:
    ``A v B 1-0 on 2025-11-05 (round 1) looks like game 3 (event 'Club', round 1) in the
    ledger``."""
    return (f"{white} v {black} {result.value} on {date} ({_round_text(round_)}) looks like "
            + " and ".join(map(_resembles, alike)) + " in the ledger")


#: What a likely duplicate is, and how the rating officer says it is not one.
SIMILAR = ("the same players, date and result in another event (or one without an event); if "
           "they are different games, {how} with --allow-similar")
#: Said of a likely duplicate recorded because the rating officer said so.
ALLOWED = "recorded as a different game (--allow-similar)"


#: Said where ``ledger game add`` refuses a game because of one already recorded.
NO_CORRECTIONS = "a recorded game cannot be changed or removed yet"


@dataclass(frozen=True)
class GameView:
    """A recorded game as listed: names, result, date, event, round, period and its ``status``:
    ``void`` (voided: kept, never rated), ``forfeit``, ``no moves`` (never rated), ``never
    rated`` (a period before 2022-01), ``open``
    (its period is not closed yet), ``rated``, ``initial rating`` (counted only in an unrated
    player's published initial rating) or ``not rated`` (closed; not rated when a player had no
    published rating)."""

    id: int
    date: dt.date
    period: str
    white: str
    black: str
    result: str
    status: str
    event: str | None
    round: str | None
    notes: tuple[str, ...] = ()


def add_game(engine: Engine, white: str, black: str, result: str, date: str,
             event: str | None = None, round_: str | None = None,
             *, today: dt.date | None = None, allow_similar: bool = False,
             actor: Actor | None = None) -> GameView:
    """``ledger game add``: record one game; returns it with ``notes`` on what moved. One
    ``game.add`` change by ``actor`` (None: called from code, ``Actor.from_code``) records it
    (and the event it creates or widens), with the game's values.

    Refused (``LedgerError`` naming the field): an unknown or ambiguous player, the same player
    twice, a bad result or date, a date in the future (after ``today``) or before 2022, a date in
    a closed period, a game already recorded (rounds read by ``domain.round_of``), a player who
    already plays in this round of the event, the same pair on the same day in the event (or
    both without one) when one of the two games has no round (``RoundSeats``), and, unless
    ``allow_similar``, a likely duplicate: the same players, date and result recorded in another
    event or without one (``Lookalikes``). The messages name the recorded game; with
    ``allow_similar`` a likely duplicate is recorded with a note naming the game it resembles.
    """
    parsed_result = Result.parse(result)
    day = parse_date(date)
    check_date(day, today or dt.date.today())
    round_ = clean_label(round_, "round", MAX_ROUND)
    event = clean_label(event, "event", MAX_EVENT)
    notes: list[str] = []
    with transaction(engine) as session:
        w, b = resolve(session, white, "white"), resolve(session, black, "black")
        if w.id == b.id:
            raise InvalidInput(f"black: {b.name} cannot play themselves (white is the same player)")
        check_open(Period.of(day), last_closed_period(session), f"date: {day}")
        change = record_change(session, actor or Actor.from_code("add_game"), "game.add",
                               "game", "new")
        if event is not None:
            ev, period = place_in_event(session, event, day, day, source="ledger game add",
                                        notes=notes)
            event_id: int | None = ev.id
        else:
            period, event_id = Period.of(day), None
        known = existing_games(session, event_id, (day, day))
        same = known.get(game_key(event_id, round_, w.id, b.id, day))
        if same is not None:
            raise InvalidInput(f"game: {w.name} v {b.name} (round {round_ or '-'}) is already "
                               f"recorded as game {same.id} ({same.result}); {NO_CORRECTIONS}")
        seats = RoundSeats(known.values())
        clash = seats.clash(round_, (w, b)) if event_id is not None else None
        if clash is not None:
            raise InvalidInput(f"round: {twice_in_round(session, clash[0], str(round_), clash[1])}"
                               f"; {NO_CORRECTIONS}")
        first = seats.same_day(round_, (w.id, b.id), day)
        if first is not None:
            twice = twice_on_a_day(session, w, b, round_, day, first, event_id is not None)
            raise InvalidInput(f"round: {twice}; {NO_CORRECTIONS}")
        alike = Lookalikes(session, day, day).of(w.id, b.id, day, parsed_result, event_id)
        if alike:
            named = looks_like(w.name, b.name, parsed_result, day, round_, alike)
            if not allow_similar:
                raise InvalidInput(f"game: {named}: {SIMILAR.format(how='add it')}")
            notes.append(f"{named}; {ALLOWED}")
        game = Game(event_id=event_id, round=round_, date=day, period=str(period),
                    white_id=w.id, black_id=b.id, result=parsed_result.value, played=True,
                    source="ledger game add", change_id=change.id)
        session.add(game)
        session.flush()
        change.entity_id = str(game.id)
        summarise(change, {"id": game.id, "date": day, "period": str(period), "white": w.id,
                           "black": b.id, "result": game.result, "event": event_id,
                           "round": round_})
        return replace(_views(session, [game.id], None, None)[0], notes=tuple(notes))


def _status(result: str, played: bool, closed: bool, rated: bool, initial: bool,
            period: str, status: str = "valid") -> str:
    if status == "void":
        return "void"
    if not Result(result).is_played:
        return "forfeit"
    if not played:
        return "no moves"
    if Period.parse(period) < FIRST_RATED_PERIOD:
        return "never rated"
    if not closed:
        return "open"
    if rated:
        return "rated"
    return "initial rating" if initial else "not rated"


def _views(session: Session, ids: list[int] | None, period: Period | None,
           player_id: int | None) -> list[GameView]:
    white, black = aliased(Player), aliased(Player)
    rated = select(PeriodGame.game_id).where(PeriodGame.game_id == Game.id,
                                             current(PeriodGame)).exists()
    initial = (select(InitialRatingGame.game_id)
               .join(InitialRating, (InitialRating.period == InitialRatingGame.period)
                     & (InitialRating.revision == InitialRatingGame.revision)
                     & (InitialRating.player_id == InitialRatingGame.player_id))
               .where(InitialRatingGame.game_id == Game.id, InitialRating.published.is_(True),
                      current(InitialRatingGame))
               .exists())
    closed = select(RatingPeriod.period).where(RatingPeriod.period >= Game.period).exists()
    query = (select(Game, white.name, black.name, Event.name, rated, closed, initial)
             .join(white, Game.white_id == white.id).join(black, Game.black_id == black.id)
             .outerjoin(Event, Game.event_id == Event.id)
             .order_by(*GAME_ORDER))
    if ids is not None:
        query = query.where(Game.id.in_(ids))
    if period is not None:
        query = query.where(Game.period == str(period))
    if player_id is not None:
        query = query.where(or_(Game.white_id == player_id, Game.black_id == player_id))
    return [GameView(g.id, g.date, g.period, w, b, g.result,
                     _status(g.result, g.played, is_closed, is_rated, in_initial, g.period,
                             g.status),
                     e, g.round)
            for g, w, b, e, is_rated, is_closed, in_initial in session.execute(query)]


def list_games(engine: Engine, period: str | None = None,
               player: str | None = None) -> list[GameView]:
    """``ledger game list``: games by date, optionally of one period and/or one player."""
    wanted = Period.parse(period) if period is not None else None
    with transaction(engine, write=False) as session:
        player_id = resolve(session, player).id if player is not None else None
        return _views(session, None, wanted, player_id)


def period_game_views(session: Session, period: Period) -> list[GameView]:
    """Every game recorded in ``period``, by date, with its status, inside the caller's session."""
    return _views(session, None, period, None)
