"""Events: listing them (``ledger event list``), finding the one a command names (``ledger
performance --event``, ``ledger export trf --event``), and finding or creating the one recorded
games go into (``find_event``, ``place_in_event``: ``ledger game add`` and every import).

An event is named by ``#ID`` or by its name, matched by ``ledger.names.name_key`` (case, accents
and punctuation aside: ``Ostersund Open`` finds ``Östersund Open``), else as a part of one key;
a name that matches nothing gets "did you mean" (``ledger.names.hints.NameHints``: a part of a name,
else a close spelling).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass

from sqlalchemy import ColumnElement, func, or_, select, update
from sqlalchemy.orm import Session

from ledger.db.models import Change, Event, Game
from ledger.db.order import EVENT_ORDER
from ledger.domain import STANDARD, Period, RatingPool, parse_pool
from ledger.errors import Ambiguous, CloseEventName, InvalidInput, NotFound, PeriodError, shown
from ledger.names import fold_key, lookalike_folds, loose_forms, name_key
from ledger.names.hints import NameHints, close_matches, did_you_mean, numbers_apart, word_starts
from ledger.services.close.late import place
from ledger.services.close.state import is_closed, last_closed_period
from ledger.services.core.audit import written_by
from ledger.services.core.session import Ledger, transaction
from ledger.services.register.lookalikes import EVENT_REACH_DAYS
from ledger.services.register.player_refs import MAX_ID


@dataclass(frozen=True)
class EventView:
    """An event as ``ledger event list`` shows it: ``period`` is the rating period its games
    belong to (that of its end date), ``games`` how many valid games are recorded in it and
    ``void`` how many voided ones, ``rated_in`` the periods its valid games are rated in and
    ``late`` whether some are late results (rated in a later period, docs/RULES.md §1),
    ``source`` where it came from (the file it was imported from, or ``ledger game add``;
    None: unknown)."""

    id: int
    name: str
    start_date: dt.date
    end_date: dt.date
    period: str
    games: int
    source: str | None
    void: int = 0
    rated_in: tuple[str, ...] = ()

    @property
    def late(self) -> bool:
        """True when some of its games are rated in a period after its own."""
        return any(p > self.period for p in self.rated_in)


def list_events(engine: Ledger, period: str | None = None) -> list[EventView]:
    """``ledger event list``: every event (or those of ``period``, ``YYYY-MM``: whose end date
    falls in it, or with games rated in it), in ``EVENT_ORDER``. Two queries. Raises
    ``InvalidInput`` for a malformed period."""
    wanted = Period.parse(period) if period is not None else None
    query = select(Event).order_by(*EVENT_ORDER)
    counts = (select(Game.event_id, Game.period, Game.status, func.count(Game.id))
              .where(Game.event_id.is_not(None))
              .group_by(Game.event_id, Game.period, Game.status))
    with transaction(engine, write=False) as session:
        valid: dict[int, int] = {}
        void: dict[int, int] = {}
        rated_in: dict[int, set[str]] = {}
        for event_id, game_period, status, count in session.execute(counts):
            if event_id is None:
                continue
            if status == "void":
                void[event_id] = void.get(event_id, 0) + count
                continue
            valid[event_id] = valid.get(event_id, 0) + count
            rated_in.setdefault(event_id, set()).add(game_period)
        views = [EventView(e.id, e.name, e.start_date, e.end_date, str(Period.of(e.end_date)),
                           valid.get(e.id, 0), e.source, void.get(e.id, 0),
                           tuple(sorted(rated_in.get(e.id, ()))))
                 for e in session.scalars(query)]
    if wanted is None:
        return views
    return [v for v in views if v.period == str(wanted) or str(wanted) in v.rated_in]


def label(event: Event) -> str:
    """An event as a message names it: ``Spring Open (#3, 2026-04-04 to 2026-04-06)``."""
    return f"{event.name} (#{event.id}, {event.start_date} to {event.end_date})"


def resolve_event(session: Session, ref: str, *, among: ColumnElement[bool] | None = None,
                  nowhere: str = "no event named") -> Event:
    """The event ``ref`` (str) names: ``#ID`` (``event_by_id``), else the events (those
    ``among`` selects, when given) with its ``name_key``, else those whose key holds it.

    Raises ``InvalidInput`` for an empty reference; ``NotFound`` (``event: {nowhere} 'X'``, with
    "did you mean" up to 3 events, with id and dates, when some name holds its words or starts
    with it, else when some name is a close spelling of it: ``NameHints.suggest``); ``Ambiguous``
    listing the events (id, name, dates) it matches.
    """
    text = ref.strip()
    if not text:
        raise InvalidInput("event: empty event name")
    event = event_by_id(session, text)
    if event is not None:
        return event
    candidates = select(Event) if among is None else select(Event).where(among)
    key = name_key(text)
    found: list[Event] = []
    for condition in ((Event.name_key == key, Event.name_key.contains(key, autoescape=True))
                      if key else ()):
        found = list(session.scalars(candidates.where(condition).order_by(*EVENT_ORDER).limit(11)))
        if found:
            break
    if not found:
        hints = NameHints((e.id, e.name, e) for e in session.scalars(candidates))
        similar, in_all = hints.suggest(text)
        hint = (f"; did you mean {did_you_mean(map(label, similar), in_all, 'events')}?"
                if similar else "")
        raise NotFound(f"event: {nowhere} {shown(text)}{renamed(session, key)}{hint}")
    if len(found) > 1:
        listed = "; ".join(f"#{e.id} {e.name} ({e.start_date} to {e.end_date})"
                           for e in found[:10])
        raise Ambiguous(f"event: {shown(text)} matches several events: {listed}; write #ID")
    return found[0]


def renamed(session: Session, key: str) -> str:
    """What a message adds for a name (its ``name_key``, str) no event has now but one had
    before an ``event rename`` (the ``event.rename`` changes' ``before``): ``; event #3 was
    named so until change 12: it is now 'Spring Open 2026'``; empty when none."""
    found = []
    for change_id, entity_id, before in session.execute(
            select(Change.id, Change.entity_id, Change.before)
            .where(Change.action == "event.rename").order_by(Change.id)):
        if before and name_key(json.loads(before).get("name", "")) == key:
            event = session.get(Event, int(entity_id))
            if event is not None:
                found.append(f"event #{event.id} was named so until change {change_id}: it is "
                             f"now {event.name!r}")
    return "".join(f"; {text}" for text in found)


def _same_name(session: Session, name: str, start: dt.date, end: dt.date,
               exact_start: bool) -> list[Event]:
    reach = dt.timedelta(days=EVENT_REACH_DAYS)
    query = select(Event).where(Event.name_key == name_key(name))
    query = (query.where(Event.start_date == start) if exact_start
             else query.where(Event.start_date <= end + reach, Event.end_date >= start - reach))
    return list(session.scalars(query.order_by(Event.start_date.desc())))


def _merged_away(session: Session, candidates: list[Event]) -> list[Event]:
    """``candidates`` without the events merged into another (``event merge``: an
    ``event.merge`` change names them in ``before.merged``); when every one was, their games
    belong to the event they joined: ``CloseEventName`` names it (a game is never put back into
    an event merged away, nor a new event of its name started beside it)."""
    if not candidates:
        return candidates
    merged: dict[int, tuple[int, int]] = {}  # merged event -> (the one it joined, change)
    for change_id, entity_id, before in session.execute(
            select(Change.id, Change.entity_id, Change.before)
            .where(Change.action == "event.merge").order_by(Change.id)):
        other = json.loads(before or "{}").get("merged", {}).get("id")
        if isinstance(other, int):
            merged[other] = (int(entity_id), change_id)
    kept = [e for e in candidates if e.id not in merged]
    if kept:
        return kept
    joined, change_id = merged[candidates[0].id]
    into = session.get_one(Event, joined)
    raise CloseEventName(f"event: {shown(candidates[0].name)} was merged into {label(into)} by "
                         f"change {change_id}: did you mean it? Write its name")


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


def check_new_name(session: Session, name: str) -> None:
    """Refuse a ``name`` (str) for a new event that names no recorded event but may be a
    misspelling of one (docs/rating.md): a recorded event's name is a close spelling of it
    (``ledger.names.hints.close_matches``, the players' rule: ``Club Champioship 2026`` and ``Club
    Championship 2026``) or looks like it (``ledger.names.loose_forms``: blanks, apostrophes, an
    umlaut written ae, look-alike letters), unless the two differ only in their numbers
    (``ledger.names.hints.numbers_apart``: ``Spring Open 2026`` and ``Spring Open 2027``, ``5th`` and
    ``6th``: different events). A name some event has (its ``name_key``) passes.

    Cost: SQL narrows the close spellings to the keys with words starting as ``name``'s do
    (``ledger.names.hints.word_starts``: one LIKE each); the look-alikes are asked of the keys that
    fold as ``name`` does (``ledger.names.fold_key``) and of the names outside ASCII, from an
    index of every event's fold built once per transaction (``_EventFolds``, kept current by
    ``place_in_event``), so an import of many events reads the events once. Raises
    ``CloseEventName`` naming up to 3 events (the closest first, then the look-alikes, with id
    and dates) and ``--new-event``."""
    key = name_key(name)
    if not key or session.scalar(select(Event.id).where(Event.name_key == key).limit(1)):
        return
    near = session.execute(select(Event.id, Event.name_key).where(*(
        or_(Event.name_key.startswith(s, autoescape=True),
            Event.name_key.contains(f" {s}", autoescape=True)) for s in word_starts(name))))
    close, _ = close_matches(name, near, limit=MAX_ID)
    forms = set(loose_forms(name))
    alike = [i for i, other in _EventFolds.of(session).candidates(lookalike_folds(name))
             if not forms.isdisjoint(loose_forms(other))]
    found = {e.id: e for e in session.scalars(select(Event).where(
        Event.id.in_(set(close) | set(alike))))}
    ids = [i for i in dict.fromkeys((*close, *alike)) if not numbers_apart(key, found[i].name_key)]
    if ids:
        raise CloseEventName(
            f"event: {shown(name)} names no event but is close to "
            f"{did_you_mean((label(found[i]) for i in ids[:3]), len(ids), 'events')}: did you "
            "mean it? Write its name, or, if this is a new event, give --new-event")


class _EventFolds:
    """Every event's ``fold_key`` (and the names outside ASCII, whose look-alikes a fold may
    miss), read once per transaction (``of``: kept in the session's ``info``)."""

    _KEY = "ledger.event_folds"

    def __init__(self, session: Session) -> None:
        self.by_fold: dict[str, list[tuple[int, str]]] = {}
        self.odd: list[tuple[int, str]] = []
        for event_id, name, key in session.execute(select(Event.id, Event.name, Event.name_key)):
            self.add(event_id, name, key)

    @classmethod
    def of(cls, session: Session) -> _EventFolds:
        found = session.info.get(cls._KEY)
        if not isinstance(found, cls):
            found = session.info[cls._KEY] = cls(session)
        return found

    @classmethod
    def added(cls, session: Session, event: Event) -> None:
        """Take ``event``, just created, into the session's index when it has one."""
        found = session.info.get(cls._KEY)
        if isinstance(found, cls):
            found.add(event.id, event.name, event.name_key)

    def add(self, event_id: int, name: str, key: str) -> None:
        self.by_fold.setdefault(fold_key(key), []).append((event_id, name))
        if not name.isascii():
            self.odd.append((event_id, name))

    def candidates(self, folds: frozenset[str]) -> list[tuple[int, str]]:
        """(id, name) of the events that may look like a name with these ``folds``."""
        return [*(item for fold in folds for item in self.by_fold.get(fold, ())), *self.odd]


def place_in_event(session: Session, name: str, start: dt.date, end: dt.date,
                   *, site: str | None = None, source: str | None = None,
                   exact_start: bool = False, notes: list[str] | None = None,
                   rerate: bool = False, pool: RatingPool = STANDARD,
                   new_event: bool = False) -> tuple[Event, Period]:
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

    A name for a new event that may be a misspelling of a recorded event's is refused
    (``check_new_name``: ``CloseEventName``) unless ``new_event`` says it is a new event; the
    name of an event merged into another (``event merge``) is refused naming that one
    (``_merged_away``).
    """
    last_closed = last_closed_period(session, pool)
    change_id = written_by(session)
    candidates = _merged_away(session, _same_name(session, name, start, end, exact_start))
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
        if not new_event:
            check_new_name(session, name)
        event = Event(name=name, site=site, start_date=start, end_date=end, source=source,
                      change_id=change_id, pool=pool)
        session.add(event)
        session.flush()
        _EventFolds.added(session, event)
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
