"""Finding players and events by a part of their name, for a picker (the typed-games form of
``ledger serve``: ``GET /api/search/players?q=``, ``/api/search/events?q=``).

A name is matched as every lookup of the ledger matches one, by its key (``names.name_key``:
case, accents and punctuation aside, so ``sean`` finds ``Byrne, Seán``): a player or an event
is found when its key holds every word of the query's key (``names.name_words``: ``sean
byrne`` finds ``Byrne, Seán``, as ``register.matching.PlayerIndex.hints_for`` reads them).
Players merged into another or withdrawn are never offered (``ledger player merge``,
``withdraw``). Read only; one query each.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Generic, TypeVar

from sqlalchemy import ColumnElement, and_, select
from sqlalchemy.orm import InstrumentedAttribute

from ledger.db.models import Event, Player
from ledger.db.order import EVENT_ORDER, PLAYER_ORDER
from ledger.errors import InvalidInput
from ledger.names import name_words
from ledger.services.core.session import Ledger, transaction

#: The most a search gives.
LIMIT = 20
#: The longest query read (a name is at most 200 characters; a query is a part of one).
MAX_QUERY = 100


@dataclass(frozen=True)
class FoundPlayer:
    """A player a search found: ``id``, ``name``, ``fide_id``, ``federation``, ``birth_year``,
    ``title`` (None when the ledger does not know)."""

    id: int
    name: str
    fide_id: int | None
    federation: str | None
    birth_year: int | None
    title: str | None


@dataclass(frozen=True)
class FoundEvent:
    """An event a search found: ``id``, ``name``, ``start``/``end`` dates, ``pool``, ``site``."""

    id: int
    name: str
    start: dt.date
    end: dt.date
    pool: str
    site: str | None


T = TypeVar("T")


@dataclass(frozen=True)
class Found(Generic[T]):
    """What a search found: ``items`` (at most ``LIMIT``, by name key then id; events by start
    date first) and ``more`` (True: more match than those given: type more of the name)."""

    query: str
    items: list[T]
    more: bool


def _words(query: str) -> tuple[str, ...]:
    """The words of ``query``'s key; ``InvalidInput`` (field ``q``) past ``MAX_QUERY``."""
    if len(query) > MAX_QUERY:
        raise InvalidInput(f"q: {len(query)} characters; a search reads at most {MAX_QUERY}")
    return name_words(query)


def _holds(column: InstrumentedAttribute[str], words: tuple[str, ...]) -> ColumnElement[bool]:
    """``column`` (a name key) holds every one of ``words``."""
    return and_(*(column.contains(w, autoescape=True) for w in words))


def search_players(engine: Ledger, query: str, limit: int = LIMIT) -> Found[FoundPlayer]:
    """The players whose name key holds every word of ``query``'s key, at most ``limit``, by
    name key then id; none for a query without letters or digits. Raises ``InvalidInput``
    (field ``q``) for a query of more than ``MAX_QUERY`` characters."""
    words = _words(query)
    if not words:
        return Found(query, [], False)
    with transaction(engine, write=False) as session:
        rows = session.execute(
            select(Player.id, Player.name, Player.fide_id, Player.federation, Player.birth_year,
                   Player.title)
            .where(_holds(Player.name_key, words), Player.merged_into.is_(None),
                   Player.withdrawn.is_(False))
            .order_by(*PLAYER_ORDER).limit(limit + 1)).all()
    return Found(query, [FoundPlayer(*row) for row in rows[:limit]], len(rows) > limit)


def search_events(engine: Ledger, query: str, limit: int = LIMIT) -> Found[FoundEvent]:
    """The events whose name key holds every word of ``query``'s key, at most ``limit``, by
    start date, name key and id; none for a query without letters or digits. Raises
    ``InvalidInput`` (field ``q``) as ``search_players``."""
    words = _words(query)
    if not words:
        return Found(query, [], False)
    with transaction(engine, write=False) as session:
        rows = session.execute(
            select(Event.id, Event.name, Event.start_date, Event.end_date, Event.pool,
                   Event.site)
            .where(_holds(Event.name_key, words))
            .order_by(*EVENT_ORDER).limit(limit + 1)).all()
    return Found(query, [FoundEvent(*row) for row in rows[:limit]], len(rows) > limit)
