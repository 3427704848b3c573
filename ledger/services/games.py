"""Recording games: one at a time (``ledger game add``) or a file's worth (the importers).

A game belongs to the rating period in which its event ended (a game with no event: its own date)
(shared/RULES.md §1). A game is never slipped into a closed period: it is refused.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import Engine, func, or_, select, update
from sqlalchemy.orm import Session, aliased

from ledger.db.models import Event, Game, Player, RatingPeriod
from ledger.domain import Period, Result
from ledger.errors import InvalidInput, PeriodError
from ledger.services.players import resolve
from ledger.services.session import transaction


def parse_date(text: str, field: str = "date") -> dt.date:
    """Parse ``YYYY-MM-DD``; raise ``InvalidInput`` naming ``field``."""
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise InvalidInput(f"{field}: {text!r} is not a date; write YYYY-MM-DD") from None


def last_closed_period(session: Session) -> Period | None:
    """The latest closed period, or None."""
    last = session.scalar(select(func.max(RatingPeriod.period)))
    return Period.parse(last) if last else None


def check_open(period: Period, last_closed: Period | None, what: str) -> None:
    """Raise ``PeriodError`` when ``period`` is closed (at or before ``last_closed``)."""
    if last_closed is not None and period <= last_closed:
        raise PeriodError(
            f"{what} falls in period {period}, which is closed (periods up to {last_closed} "
            "are closed; late results are not supported yet)")


def place_in_event(session: Session, name: str, start: dt.date, end: dt.date,
                   *, site: str | None = None, source: str | None = None,
                   exact_start: bool = False) -> tuple[Event, Period]:
    """Find or create the event ``name`` for games dated ``start``..``end``; return it and its period.

    An event is reused while its period is open (``exact_start``: only one with that start date);
    its dates widen to cover the new games, and if its end moves to a later month its games move
    with it. Raises ``PeriodError`` if the event's period would be closed.
    """
    last_closed = last_closed_period(session)
    query = select(Event).where(Event.name == name)
    query = (query.where(Event.start_date == start) if exact_start
             else query.where(Event.start_date <= end))
    candidates = list(session.scalars(query.order_by(Event.start_date.desc())))
    event = next((e for e in candidates
                  if last_closed is None or Period.of(e.end_date) > last_closed), None)
    if event is None:
        if exact_start and candidates:
            raise PeriodError(f"event {name!r} starting {start} is in closed period "
                              f"{Period.of(candidates[0].end_date)}")
        event = Event(name=name, site=site, start_date=start, end_date=end, source=source)
        session.add(event)
        session.flush()
    else:
        old_period = Period.of(event.end_date)
        event.start_date = min(event.start_date, start)
        event.end_date = max(event.end_date, end)
        new_period = Period.of(event.end_date)
        if new_period != old_period:
            session.execute(update(Game).where(Game.event_id == event.id)
                            .values(period=str(new_period)))
    period = Period.of(event.end_date)
    check_open(period, last_closed, f"event {name!r} (ends {event.end_date})")
    return event, period


GameKey = tuple[int | None, str | None, int, int, dt.date | None]


def game_key(event_id: int | None, round_: str | None, white_id: int, black_id: int,
             date: dt.date) -> GameKey:
    """A game's natural key: event, round and players (and the date for a game with no event)."""
    return (event_id, round_, white_id, black_id, None if event_id is not None else date)


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


@dataclass(frozen=True)
class GameView:
    """A recorded game as listed: names, result, date, event, round, period, whether rateable."""

    id: int
    date: dt.date
    period: str
    white: str
    black: str
    result: str
    played: bool
    event: str | None
    round: str | None

    @property
    def rateable(self) -> bool:
        """Played over the board (not a forfeit, at least one move each)."""
        return Result(self.result).is_played and self.played


def add_game(engine: Engine, white: str, black: str, result: str, date: str,
             event: str | None = None, round_: str | None = None) -> GameView:
    """``ledger game add``: record one game.

    Refused (``LedgerError`` naming the field): an unknown or ambiguous player, the same player
    twice, a bad result or date, a date in a closed period, a game already recorded.
    """
    parsed_result = Result.parse(result)
    day = parse_date(date)
    if round_ is not None and not round_.strip():
        round_ = None
    with transaction(engine) as session:
        w, b = resolve(session, white), resolve(session, black)
        if w.id == b.id:
            raise InvalidInput(f"black: {b.name} cannot play themselves (white is the same player)")
        check_open(Period.of(day), last_closed_period(session), f"date: {day}")
        if event is not None and event.strip():
            ev, period = place_in_event(session, event.strip(), day, day, source="ledger game add")
            event_id: int | None = ev.id
        else:
            period, event_id = Period.of(day), None
        key = game_key(event_id, round_, w.id, b.id, day)
        clash = existing_games(session, event_id, (day, day)).get(key)
        if clash is not None:
            raise InvalidInput(f"game: {w.name} v {b.name} (round {round_ or '-'}) is already "
                               f"recorded as game {clash.id} ({clash.result})")
        game = Game(event_id=event_id, round=round_, date=day, period=str(period),
                    white_id=w.id, black_id=b.id, result=parsed_result.value, played=True,
                    source="ledger game add")
        session.add(game)
        session.flush()
        return _views(session, [game.id], None, None)[0]


def _views(session: Session, ids: list[int] | None, period: Period | None,
           player_id: int | None) -> list[GameView]:
    white, black = aliased(Player), aliased(Player)
    query = (select(Game, white.name, black.name, Event.name)
             .join(white, Game.white_id == white.id).join(black, Game.black_id == black.id)
             .outerjoin(Event, Game.event_id == Event.id)
             .order_by(Game.date, Game.id))
    if ids is not None:
        query = query.where(Game.id.in_(ids))
    if period is not None:
        query = query.where(Game.period == str(period))
    if player_id is not None:
        query = query.where(or_(Game.white_id == player_id, Game.black_id == player_id))
    return [GameView(g.id, g.date, g.period, w, b, g.result, g.played, e, g.round)
            for g, w, b, e in session.execute(query)]


def list_games(engine: Engine, period: str | None = None,
               player: str | None = None) -> list[GameView]:
    """``ledger game list``: games by date, optionally of one period and/or one player."""
    wanted = Period.parse(period) if period else None
    with transaction(engine, dry_run=True) as session:
        player_id = resolve(session, player).id if player else None
        return _views(session, None, wanted, player_id)
