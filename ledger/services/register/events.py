"""Events: listing them (``ledger event list``) and finding the one a command names (``ledger
performance --event``, ``ledger export trf --event``).

An event is named by ``#ID`` or by its name, matched by ``ledger.names.name_key`` (case, accents
and punctuation aside: ``Ostersund Open`` finds ``Östersund Open``), else as a part of one key;
a name that matches nothing gets "did you mean" (``ledger.names.NameHints``: a part of a name,
else a close spelling).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import Session

from ledger.db.models import Event, Game
from ledger.db.order import EVENT_ORDER
from ledger.domain import Period
from ledger.errors import Ambiguous, InvalidInput, NotFound, shown
from ledger.names import NameHints, did_you_mean, name_key
from ledger.services.core.session import Ledger, transaction
from ledger.services.register.games import event_by_id


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


def _label(event: Event) -> str:
    return f"{event.name} (#{event.id}, {event.start_date} to {event.end_date})"


def resolve_event(session: Session, ref: str, *, among: ColumnElement[bool] | None = None,
                  nowhere: str = "no event named") -> Event:
    """The event ``ref`` (str) names: ``#ID`` (``games.event_by_id``), else the events (those
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
        hint = (f"; did you mean {did_you_mean(map(_label, similar), in_all, 'events')}?"
                if similar else "")
        raise NotFound(f"event: {nowhere} {shown(text)}{hint}")
    if len(found) > 1:
        listed = "; ".join(f"#{e.id} {e.name} ({e.start_date} to {e.end_date})"
                           for e in found[:10])
        raise Ambiguous(f"event: {shown(text)} matches several events: {listed}; write #ID")
    return found[0]
