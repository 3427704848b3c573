"""Recording games: one at a time (``ledger game add``) or a file's worth (the importers).

A game belongs to the rating period in which its event ended (a game with no event: its own date)
(docs/RULES.md §1). A game is never slipped into a closed period: a late result goes into the
earliest open period (``services.close.late``), or with ``--rerate`` into its own period, which is
then re-rated with every later one.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Protocol

from sqlalchemy import Engine, func, select, update
from sqlalchemy.orm import Session

from ledger.db.models import (
    Event,
    Game,
    Player,
)
from ledger.domain import (
    STANDARD,
    Actor,
    Period,
    RatingPool,
    Result,
    RoundKey,
    described_character,
    find_control_character,
    parse_pool,
    round_of,
)
from ledger.errors import InvalidInput, NotFound, PeriodError, shown
from ledger.names import name_key
from ledger.rules.editions import edition_for
from ledger.rules.pools import parse_time_control
from ledger.services.close.late import check_own_list, place
from ledger.services.close.state import is_closed, last_closed_period
from ledger.services.core.audit import record_change, summarise, written_by
from ledger.services.core.session import transaction
from ledger.services.register.game_views import GameView, game_views
from ledger.services.register.game_views import list_games as list_games  # re-exported
from ledger.services.register.game_views import period_game_views as period_game_views  # re-exported
from ledger.services.register.lookalikes import (
    ALLOWED,
    EVENT_REACH_DAYS,
    Lookalike,
    Lookalikes,
    looks_like,
    round_text,
    why_similar,
)
from ledger.services.register.players import MAX_ID, resolve


def parse_date(text: str, field: str = "date") -> dt.date:
    """Parse ``YYYY-MM-DD`` (that form only); raise ``InvalidInput`` naming ``field``."""
    try:
        if not _DATE_RE.fullmatch(text.strip()):
            raise ValueError
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise InvalidInput(f"{field}: {text!r} is not a date; write YYYY-MM-DD") from None


def clean_label(text: str | None, field: str, limit: int) -> str | None:
    """An event name or round as stored: trimmed, None when empty; ``InvalidInput`` naming
    ``field`` if too long or holding a control or format character (an escape sequence would
    reach every terminal that lists it: ``domain.find_control_character``, as the imports)."""
    if text is None or not text.strip():
        return None
    control = find_control_character(text)
    if control is not None:
        raise InvalidInput(f"{field}: {shown(text.strip())} holds "
                           f"{described_character(control.group())}: it is one line of visible text")
    if len(text.strip()) > limit:
        raise InvalidInput(f"{field}: {len(text.strip())} characters; at most {limit}")
    return text.strip()


_DATE_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
MAX_ROUND, MAX_EVENT = 20, 200


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
    (``exact_start``) or by ``end``; an event in a closed period only when nothing open matches
    (closed in the event's own pool, docs/RULES.md §9)."""
    candidates = _same_name(session, name, start, end, exact_start)
    last = {pool: last_closed_period(session, parse_pool(pool))
            for pool in {e.pool for e in candidates}}
    return next((e for e in candidates if not is_closed(Period.of(e.end_date), last[e.pool])),
                next(iter(candidates), None))


def place_in_event(session: Session, name: str, start: dt.date, end: dt.date,
                   *, site: str | None = None, source: str | None = None,
                   exact_start: bool = False, notes: list[str] | None = None,
                   rerate: bool = False, pool: RatingPool = STANDARD) -> tuple[Event, Period]:
    """Find or create the event ``name`` for games dated ``start``..``end``; return it and the
    period its new games go into.

    Names match by ``name_key`` (case, accents and punctuation aside). An event is reused while
    its period is open (``exact_start``: only the one with that start date; otherwise one within
    ``EVENT_REACH_DAYS`` of these dates); its dates widen to cover the new games, and if its end
    moves to a later month its games move with it (a game belongs to the period its event ended
    in; a game of a closed period never moves). An event of a closed period takes late results
    (games dated in a closed period, or with ``exact_start`` its very start date) that start on
    or after its start: its end date may move later, its start never (the ratings of its rated
    games are those in force at its start); otherwise a new event starts. What moved, or a new
    event started beside a closed one of the same name, is added to ``notes``. An event
    created or widened is marked as written by the change being recorded
    (``services.core.audit.written_by``).

    The period is the event's own while that is open; for an event of a closed period (a late
    result) the earliest open period, or with ``rerate`` the event's own (``late.place``).
    Raises ``PeriodError`` when ``exact_start`` names a closed event that starts after
    ``start`` (it cannot: the same start date was asked for; kept as a guard).

    ``pool``: the rating pool of the games (docs/RULES.md §9): whether a period is closed is
    that pool's; an event created here is of that pool.
    """
    last_closed = last_closed_period(session, pool)
    change_id = written_by(session)
    candidates = _same_name(session, name, start, end, exact_start)
    event = _open_one(candidates, last_closed)
    if event is None:
        late = exact_start or is_closed(Period.of(end), last_closed)
        joined = next((e for e in candidates if e.start_date <= start), None) if late else None
        if joined is not None:  # late results of a closed event: it may end later, never start
            if end > joined.end_date:  # earlier (its rated games' ratings depend on its start)
                joined.end_date, joined.change_id = end, change_id
            return joined, place(Period.of(joined.end_date), last_closed, rerate=rerate)[0]
        if exact_start and candidates:
            raise PeriodError(f"event {name!r} starting {start} is recorded in closed period "
                              f"{Period.of(candidates[0].end_date)}")
        if candidates and notes is not None:
            notes.append(f"a new event {name!r} starts on {start}: the earlier {name!r} is in "
                         f"closed period {Period.of(candidates[0].end_date)}")
        event = Event(name=name, site=site, start_date=start, end_date=end, source=source,
                      change_id=change_id, pool=pool)
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
            in_open = [Game.event_id == event.id]
            if last_closed is not None:  # a game of a closed period never moves
                in_open.append(Game.period > str(last_closed))
            moved = session.scalar(select(func.count()).where(*in_open))
            session.execute(update(Game).where(*in_open).values(period=str(new_period)))
            if moved and notes is not None:
                notes.append(f"event {event.name!r} now ends on {event.end_date}: its {moved} "
                             f"earlier game(s) move from period {old_period} to {new_period}")
    return event, place(Period.of(event.end_date), last_closed, rerate=rerate)[0]


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
                   dates: tuple[dt.date, dt.date], *, valid_only: bool = False,
                   before_id: int | None = None) -> dict[GameKey, Game]:
    """The games already recorded for an event (or, with no event, dated within ``dates``);
    ``valid_only``: not the voided ones (an import keeps them, so that a file never brings a
    voided game back; ``game add`` may record a voided game again); ``before_id``: only games
    of that id or lower (those recorded before an import that writes in batches began)."""
    query = select(Game)
    if valid_only:
        query = query.where(Game.status == "valid")
    if before_id is not None:
        query = query.where(Game.id <= before_id)
    if event_id is not None:
        query = query.where(Game.event_id == event_id)
    else:
        query = query.where(Game.event_id.is_(None), Game.date.between(*dates))
    return {game_key(g.event_id, g.round, g.white_id, g.black_id, g.date): g
            for g in session.scalars(query)}


class PlayerRef(Protocol):
    """A ledger player as the game checks name them: ``id`` and ``name`` (a ``Player``, or
    the plain ``import_report.Who`` an import reads them into once)."""

    @property
    def id(self) -> int:
        """The player's ledger id."""

    @property
    def name(self) -> str:
        """The player's name as the ledger has it."""


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
        # the same pair-days' games without a round, in the same order (``same_day`` of a game
        # with a round looks there: one lookup, not a scan of the day's games)
        self._unnumbered: dict[tuple[int, int, dt.date], list[tuple[str | None, Seat]]] = {}
        for game in recorded:
            self.take(game.round, (game.white_id, game.black_id), game.date, game)

    def take(self, round_: str | None, pair: tuple[int, int], date: dt.date, seat: Seat) -> None:
        """Seat the two players (ledger ids) in ``round_`` (str or None) on ``date`` at ``seat``;
        the first seat of a player in a round is kept."""
        number = round_of(round_)
        if number is not None:
            for player_id in pair:
                self._seats.setdefault((number, player_id), seat)
        day = _pair_day(pair, date)
        self._days.setdefault(day, []).append((round_, seat))
        if number is None:
            self._unnumbered.setdefault(day, []).append((round_, seat))

    def forget(self, lines: set[int]) -> None:
        """Undo ``take`` of the file's ``lines`` (seats that are ints: once their games are
        written and can be read back, ``import_written``); recorded games stay."""
        self._seats = {key: seat for key, seat in self._seats.items()
                       if not isinstance(seat, int) or seat not in lines}
        self._days = _without(self._days, lines)
        self._unnumbered = _without(self._unnumbered, lines)

    def in_order(self, pair: tuple[int, int], date: dt.date) -> None:
        """Order the pair's games on ``date``: recorded games first, then the file's by line
        (after games read back from the ledger were taken out of order)."""
        day = _pair_day(pair, date)
        for days in (self._days, self._unnumbered):  # one stable order: the same in both
            if day in days:
                days[day].sort(key=lambda x: (isinstance(x[1], int),
                                              x[1] if isinstance(x[1], int) else 0))

    def clash(self, round_: str | None,
              players: Sequence[PlayerRef]) -> tuple[PlayerRef, Seat] | None:
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
        day = _pair_day(pair, date)
        games = self._days.get(day) if round_of(round_) is None else self._unnumbered.get(day)
        return games[0] if games else None


def _without(days: dict[tuple[int, int, dt.date], list[tuple[str | None, Seat]]], lines: set[int],
             ) -> dict[tuple[int, int, dt.date], list[tuple[str | None, Seat]]]:
    """``days`` without the seats that are one of the file's ``lines`` (days left empty go)."""
    kept = {}
    for day, games in days.items():
        left = [x for x in games if not isinstance(x[1], int) or x[1] not in lines]
        if left:
            kept[day] = left
    return kept


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


def twice_in_round(session: Session, player: PlayerRef, round_: str, seat: Seat) -> str:
    """The message refusing a second game of ``player`` in ``round_``, naming the first one."""
    return f"{player.name} plays twice in round {round_}: also {_where(session, seat)}"


def twice_on_a_day(session: Session, white: PlayerRef, black: PlayerRef, round_: str | None,
                   date: dt.date, first: tuple[str | None, Seat], in_event: bool) -> str:
    """The message refusing a second game of one pair on one date in one event (``in_event``;
    else both without an event) (``RoundSeats.same_day``), naming the first one (``first``: its
    round label and where)."""
    label, seat = first
    where = "in this event" if in_event else "without an event"
    return (f"{white.name} v {black.name} on {date} ({round_text(round_)}): the pair already "
            f"has a game that day {where}, {_where(session, seat)} ({round_text(label)}); "
            "the same pair on one day in one event is one game unless their rounds differ: "
            "give each game its round")


#: Said where ``ledger game add`` refuses a game because of one already recorded.
NO_CORRECTIONS = ("to change or remove a recorded game: ledger game correct ID or ledger game "
                  "void ID")


def check_fits(session: Session, event_id: int | None, round_: str | None, white: Player,
               black: Player, day: dt.date, *, skip: int | None = None,
               then: str = "", pool: RatingPool | None = None) -> None:
    """Refuse (``InvalidInput`` naming ``game`` or ``round``) a game of ``white`` v ``black`` on
    ``day`` in ``round_`` of event ``event_id`` (None: without an event) that the valid games
    recorded there (but game ``skip``, the one being corrected) make wrong: the same game
    (``game_key``), a player twice in the round, or the pair twice on that day where one of the
    games has no round (``RoundSeats``). ``then`` is added to each message. ``pool``: only
    games of that pool count (a blitz game and a standard game of one pair on one day, without
    an event, are two games; docs/RULES.md §9); None: every pool."""
    known = {key: g for key, g in existing_games(session, event_id, (day, day),
                                                 valid_only=True).items()
             if g.id != skip and (pool is None or g.pool == pool)}
    same = known.get(game_key(event_id, round_, white.id, black.id, day))
    if same is not None:
        raise InvalidInput(f"game: {white.name} v {black.name} (round {round_ or '-'}) is "
                           f"already recorded as game {same.id} ({same.result}){then}")
    seats = RoundSeats(known.values())
    clash = seats.clash(round_, (white, black)) if event_id is not None else None
    if clash is not None:
        raise InvalidInput(f"round: {twice_in_round(session, clash[0], str(round_), clash[1])}"
                           f"{then}")
    first = seats.same_day(round_, (white.id, black.id), day)
    if first is not None:
        twice = twice_on_a_day(session, white, black, round_, day, first, event_id is not None)
        raise InvalidInput(f"round: {twice}{then}")


def add_game(engine: Engine, white: str, black: str, result: str, date: str,
             event: str | None = None, round_: str | None = None,
             *, today: dt.date | None = None, allow_similar: bool = False,
             actor: Actor | None = None, rerate: bool = False, reason: str | None = None,
             dry_run: bool = False, pool: str | None = None,
             time_control: str | None = None) -> GameView:
    """``ledger game add``: record one game; returns it with ``notes`` on what moved. One
    ``game.add`` change by ``actor`` (None: called from code, ``Actor.from_code``) records it
    (and the event it creates or widens), with the game's values.

    A game dated in a closed period (a late result, docs/RULES.md §1) goes into the earliest
    open period, keeping its date (the view's ``dated_in`` says so); with ``rerate`` it goes
    into its own period instead, and every closed period from there is re-rated
    (``rerate.rerate_in``, one ``period.rerate`` change each, giving ``reason``, which
    ``rerate`` requires; ``GameView.rerated``). A ``reason`` given without ``rerate`` is the
    ``game.add`` change's all the same. ``dry_run`` does it all and writes nothing.

    Refused (``LedgerError`` naming the field): an unknown or ambiguous player, the same player
    twice, a bad result or date, a date in the future (after ``today``) or before 2022, a game
    already recorded (rounds read by ``domain.round_of``), a player who
    already plays in this round of the event, the same pair on the same day in the event (or
    both without one) when one of the two games has no round (``RoundSeats``), and, unless
    ``allow_similar``, a likely duplicate: the same players and result recorded on the same
    date in another event or without one, in another event whose dates hold this date, or in
    this event when one of the two has a round and the other none (``Lookalikes``). The
    messages name the recorded game; with
    ``allow_similar`` a likely duplicate is recorded with a note naming the game it resembles.

    Pools (docs/RULES.md §9): ``pool`` (``standard``, ``rapid``, ``blitz``; default standard)
    or the pool of ``time_control`` (base minutes + increment seconds, ``15+10``:
    ``rules.pools.parse_time_control``); both given and disagreeing: ``InvalidInput`` naming
    ``time-control``. Whether the period is closed is the pool's own, and so are the earliest
    open period of a late result and, with ``rerate``, the closes re-rated (the other pools'
    stand).
    """
    game_pool = _game_pool(pool, time_control)
    parsed_result = Result.parse(result)
    day = parse_date(date)
    check_date(day, today or dt.date.today())
    round_ = clean_label(round_, "round", MAX_ROUND)
    event = clean_label(event, "event", MAX_EVENT)
    why = None
    if rerate or reason is not None:
        from ledger.services.close.rerate import check_reason  # the re-rating code: only with it
        why = check_reason(reason)
    who = actor or Actor.from_code("add_game")
    notes: list[str] = []
    with transaction(engine, dry_run=dry_run) as session:
        w, b = resolve(session, white, "white"), resolve(session, black, "black")
        if w.id == b.id:
            raise InvalidInput(f"black: {b.name} cannot play themselves (white is the same player)")
        change = record_change(session, who, "game.add", "game", "new", reason=why)
        last = last_closed_period(session, game_pool)  # read once: nothing below closes one
        if event is not None:
            ev, period = place_in_event(session, event, day, day, source="ledger game add",
                                        notes=notes, rerate=rerate, pool=game_pool)
            event_id: int | None = ev.id
        else:
            period, event_id = place(Period.of(day), last, rerate=rerate)[0], None
        check_fits(session, event_id, round_, w, b, day, then=f"; {NO_CORRECTIONS}",
                   pool=game_pool)
        alike = Lookalikes(session, day, day, pair=(w.id, b.id), pool=game_pool).of(
            w.id, b.id, parsed_result,
            Lookalike(None, event_id, event, round_, day, pool=game_pool))
        if alike:
            named = looks_like(w.name, b.name, parsed_result, day, round_,
                               (r.game for r in alike))
            if not allow_similar:
                raise InvalidInput(f"game: {named}: {why_similar(alike, 'add it')}")
            notes.append(f"{named}; {ALLOWED}")
        game = Game(event_id=event_id, round=round_, date=day, period=str(period),
                    white_id=w.id, black_id=b.id, result=parsed_result.value, played=True,
                    source="ledger game add", change_id=change.id, pool=game_pool)
        session.add(game)
        session.flush()
        change.entity_id = str(game.id)
        summarise(change, {"id": game.id, "date": day, "period": str(period), "white": w.id,
                           "black": b.id, "result": game.result, "event": event_id,
                           "round": round_, "pool": game_pool})
        rerated: tuple[object, ...] = ()
        if is_closed(period, last):
            assert why is not None  # only --rerate puts a game into a closed period
            check_own_list(session, period, game_pool)
            from ledger.services.close.rerate import rerate_in
            rerated = tuple(rerate_in(session, period, why, who, game_pool))
        elif rerate:
            notes.append(f"period {period} is open: nothing to re-rate (--rerate not needed)")
        view = game_views(session, [game.id], None, None)[0]
        if view.late:
            notes.append(late_note(view))
        return replace(view, notes=tuple(notes), rerated=rerated)


def _game_pool(pool: str | None, time_control: str | None) -> RatingPool:
    """The pool of a game added by hand: ``pool``, or the pool of ``time_control``, standard
    when neither is given; ``InvalidInput`` naming the field when they disagree."""
    named = parse_pool(pool) if pool is not None else None
    control = parse_time_control(time_control, "time-control") if time_control else None
    if control is not None and named is not None and control.pool != named:
        raise InvalidInput(f"time-control: {time_control} is {control.pool} "
                           f"({control.minutes} minutes for 60 moves), not {named} (--pool)")
    if control is not None:
        return control.pool
    return named or STANDARD


def late_note(view: GameView) -> str:
    """What a late result's note says: where its dates are and where it is rated."""
    return (f"game {view.id} ({view.date}) is a late result: its period {view.dated_in} is "
            f"closed and keeps its list; the game is rated in {view.period} with the ratings "
            "in force at its event's start")
