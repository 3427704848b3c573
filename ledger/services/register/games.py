"""Recording one game (``ledger game add``), and the fields a game is entered with: its date
(``parse_date``, the one reading of a ``YYYY-MM-DD`` date, and ``check_date``) and its event name
and round (``clean_label``), checked the same way by ``ledger game correct``.

A game belongs to the rating period in which its event ended (a game with no event: its own date)
(docs/RULES.md §1). A game is never slipped into a closed period: a late result goes into the
earliest open period (``services.close.late``), or with ``--rerate`` into its own period, which is
then re-rated with every later one. Its event is found or created by ``register.events``
(``place_in_event``); whether it is already recorded is ``register.game_keys``, whether it looks
like a recorded game ``register.lookalikes``.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace

from sqlalchemy import Engine

from ledger.db.models import Game
from ledger.domain import (
    STANDARD,
    Actor,
    Period,
    RatingPool,
    Result,
    described_character,
    find_control_character,
    not_a_date,
    parse_pool,
)
from ledger.errors import InvalidInput, PeriodError, shown
from ledger.rules.editions import edition_for
from ledger.rules.pools import parse_time_control
from ledger.services.close.late import check_own_list, place, too_late
from ledger.services.close.state import is_closed, last_closed_period
from ledger.services.core.audit import record_change, summarise
from ledger.services.core.session import transaction
from ledger.services.register.events import place_in_event
from ledger.services.register.game_keys import NO_CORRECTIONS, check_fits
from ledger.services.register.game_views import GameView, game_views
from ledger.services.register.lookalikes import (
    ALLOWED,
    Lookalike,
    Lookalikes,
    looks_like,
    why_similar,
)
from ledger.services.register.player_refs import resolve


def parse_date(text: str, field: str = "date") -> dt.date:
    """Parse ``YYYY-MM-DD`` (that form only); raise ``InvalidInput`` naming ``field``."""
    try:
        if not _DATE_RE.fullmatch(text.strip()):
            raise ValueError
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise InvalidInput(f"{field}: {not_a_date(text.strip())}") from None


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


def add_game(engine: Engine, white: str, black: str, result: str, date: str,
             event: str | None = None, round_: str | None = None,
             *, today: dt.date | None = None, allow_similar: bool = False,
             actor: Actor | None = None, rerate: bool = False, reason: str | None = None,
             dry_run: bool = False, pool: str | None = None,
             time_control: str | None = None, late: bool = False,
             new_event: bool = False) -> GameView:
    """``ledger game add``: record one game; returns it with ``notes`` on what moved. One
    ``game.add`` change by ``actor`` (None: called from code, ``Actor.from_code``) records it
    (and the event it creates or widens), with the game's values.

    A game dated in a closed period (a late result, docs/RULES.md §1) goes into the earliest
    open period, keeping its date (the view's ``dated_in`` says so); with ``rerate`` it goes
    into its own period instead, and every closed period from there is re-rated
    (``rerate.rerate_in``, one ``period.rerate`` change each, giving ``reason``, which
    ``rerate`` requires; ``GameView.rerated``). A ``reason`` given without ``rerate`` is the
    ``game.add`` change's all the same. ``dry_run`` does it all and writes nothing. A game whose
    period (its event's end, else its date) lies more than ``late.LATE_PERIODS`` periods before
    the pool's earliest open period is refused (``InvalidInput`` naming ``date``: a year typed
    wrong, ``late.too_late``) unless ``late`` (or ``rerate``) says it is meant.

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

    An ``event`` name that names no recorded event but may be a misspelling of one is refused
    (``CloseEventName``, "did you mean") unless ``new_event`` (``events.check_new_name``).
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
                                        notes=notes, rerate=rerate, pool=game_pool,
                                        new_event=new_event)
            event_id: int | None = ev.id
        else:
            period, event_id = place(Period.of(day), last, rerate=rerate)[0], None
        refusal = None if late or rerate else too_late(
            ev.end_date if event_id is not None else day, last.next() if last else None)
        if refusal is not None:
            raise InvalidInput(f"date: {refusal}")
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
