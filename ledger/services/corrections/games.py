"""Fixing a recorded game: ``ledger game void`` and ``ledger game correct`` (docs/CORRECTIONS.md
§5-§6).

A game is never deleted or edited in place without a trace: before its values change they are
kept in ``game_revisions`` (``facts.revise_game``), and one ``game.void`` / ``game.correct``
change (with its reason, the values before and after) records the correction. In an open period
that is all. In a closed period the correction must say how it takes effect
(``effects.Mode``: ``--in-next-period`` or ``--rerate``). Every use case is one transaction;
``dry_run`` does everything and writes nothing, so its report is the full effect.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from ledger.db.models import Change, Event, Game, Player
from ledger.domain import Actor, Period, Result, parse_pool
from ledger.errors import InvalidInput, NotFound, PeriodError
from ledger.services.close.late import placement
from ledger.services.close.rerate import check_reason
from ledger.services.close.state import is_closed, last_closed_period
from ledger.services.core.audit import record_change, summarise
from ledger.services.core.facts import revise_game
from ledger.services.core.session import transaction
from ledger.services.corrections.effects import Effect, Effects, Mode, mode_of
from ledger.services.register.events import resolve_event
from ledger.services.register.game_keys import check_fits
from ledger.services.register.game_views import GameView, game_views
from ledger.services.register.games import check_date, parse_date
from ledger.services.register.player_refs import MAX_ID, resolve


@dataclass
class CorrectionReport:
    """What ``game void`` / ``game correct`` did (or, with ``dry_run``, would do): the game
    ``before`` and ``after`` (``GameView``), the ``reason``, the change that recorded it (None on
    a dry run), how it took effect (``effect``: carried corrections or periods re-rated) and
    ``notes``."""

    action: str
    before: GameView
    after: GameView
    reason: str
    dry_run: bool
    effect: Effect
    change_id: int | None = None
    notes: list[str] = field(default_factory=list)


_GAME_ID_RE = re.compile(r"#?[0-9]{1,30}")


def find_game(session: Session, ref: str | int) -> Game:
    """The game ``ref`` names (its id, ``12`` or ``#12``). Raises ``InvalidInput`` for what is
    not an id, ``NotFound`` for an id no game has."""
    text = str(ref).strip()
    if not _GAME_ID_RE.fullmatch(text):
        raise InvalidInput(f"game: {text!r} is not a game id (the id game list shows, e.g. 12)")
    number = int(text.lstrip("#"))
    game = session.get(Game, number) if number <= MAX_ID else None
    if game is None:
        raise NotFound(f"game: no game with id {text.lstrip('#')}")
    return game


def game_values(game: Game) -> dict[str, Any]:
    """A game's values as a change records them (``before``/``after``)."""
    return {"id": game.id, "event": game.event_id, "round": game.round, "date": game.date,
            "period": game.period, "white": game.white_id, "black": game.black_id,
            "result": game.result, "played": game.played, "status": game.status}


def revise(session: Session, game: Game, values: dict[str, Any], action: str, why: str,
           who: Actor, effects: Effects, players: set[int]) -> Change:
    """Change ``game`` to ``values`` (column -> new value) by one change ``action`` giving
    ``why``: ``effects.touch`` the periods before and after (refused in a closed one without a
    mode), keep the old values (``facts.revise_game``), write, then ``effects.carry``. Shared by
    ``void_game``, ``correct_game`` and ``import --replace`` (``services.corrections.replace``)."""
    periods = {Period.parse(game.period), Period.parse(values.get("period", game.period))}
    effects.touch(periods, players | {game.white_id, game.black_id}, game.pool)
    change = record_change(session, who, action, "game", game.id, before=game_values(game),
                           reason=why)
    revise_game(session, game, change.id)
    for column, value in values.items():
        setattr(game, column, value)
    session.flush()
    summarise(change, game_values(game))
    effects.carry(change.id)
    return change


def _view(session: Session, game_id: int) -> GameView:
    return game_views(session, [game_id], None, None)[0]


def void_game(engine: Engine, game: str | int, *, reason: str | None,
              in_next_period: bool = False, rerate: bool = False, dry_run: bool = False,
              actor: Actor | None = None) -> CorrectionReport:
    """``ledger game void ID``: the game never happened; it is kept with status ``void`` and
    never rated again. One ``game.void`` change by ``actor`` giving ``reason`` (required).

    In a closed period ``in_next_period`` or ``rerate`` says how it takes effect
    (``services.corrections.effects``). Raises ``InvalidInput`` (the reason, an id that is not one, a game
    already void), ``NotFound`` (no such game), ``PeriodError`` (a closed period without a mode,
    or what a carried correction cannot express), ``UsageError`` (both modes).
    """
    return void_games(engine, [game], reason=reason, in_next_period=in_next_period,
                      rerate=rerate, dry_run=dry_run, actor=actor)[0]


def void_games(engine: Engine, games: Sequence[str | int], *, reason: str | None,
               in_next_period: bool = False, rerate: bool = False, dry_run: bool = False,
               actor: Actor | None = None) -> list[CorrectionReport]:
    """``ledger game void ID [ID ...]``: several games that never happened, all or nothing in
    one transaction: one ``game.void`` change per game (in the order given), one effect for
    them all (with ``rerate``, the closed periods re-rated once, from the earliest one any of
    them touches; with ``in_next_period``, each change carries its own difference, as
    ``import --replace`` does). Returns one ``CorrectionReport`` per game, all sharing that
    ``Effect`` (the notes on the first).

    Raises as ``void_game`` (naming the game refused: nothing is written), and
    ``InvalidInput`` for a game named twice or no game at all.
    """
    why = check_reason(reason)
    mode = mode_of(in_next_period, rerate)
    who = actor or Actor.from_code("void_game")
    with transaction(engine, dry_run=dry_run) as session:
        rows = _distinct_games(session, games)
        effects = Effects(session, mode, f"game {rows[0].id}")
        befores = [_view(session, row.id) for row in rows]
        changes = []
        for row in rows:
            effects.what = f"game {row.id}"  # a refusal names the game refused
            changes.append(revise(session, row, {"status": "void"}, "game.void", why, who,
                                  effects, set()))
        effect = effects.finish(why, who)
        reports = [CorrectionReport("game.void", before, _view(session, row.id), why, dry_run,
                                    effect, None if dry_run else change.id)
                   for before, row, change in zip(befores, rows, changes, strict=True)]
        _with_mode_note(reports[0], mode)
        return reports


def _distinct_games(session: Session, refs: Sequence[str | int]) -> list[Game]:
    """The games ``refs`` name (``find_game``), each once and valid. Raises ``InvalidInput``
    (none given, one named twice, one already void) or ``NotFound``."""
    if not refs:
        raise InvalidInput("game: no game id given")
    rows: list[Game] = []
    for ref in refs:
        row = find_game(session, ref)
        if any(r.id == row.id for r in rows):
            raise InvalidInput(f"game: game {row.id} is named twice")
        if row.status == "void":
            raise InvalidInput(f"game: game {row.id} is already void")
        rows.append(row)
    return rows


def _with_mode_note(report: CorrectionReport, mode: Mode | None) -> CorrectionReport:
    if mode is not None and not report.effect.closed:
        report.notes.append(f"period {report.after.period} is open: the correction is made "
                            f"there, --{mode.value} is not needed")
    return report


@dataclass(frozen=True)
class GameFix:
    """What ``game correct`` changes: each field None keeps the recorded value."""

    result: str | None = None
    date: str | None = None
    white: str | None = None
    black: str | None = None
    #: The event (``#ID`` or name, ``register.events.resolve_event``) the game belongs to.
    event: str | None = None


def correct_game(engine: Engine, game: str | int, fix: GameFix, *, reason: str | None,
                 in_next_period: bool = False, rerate: bool = False, dry_run: bool = False,
                 actor: Actor | None = None, today: dt.date | None = None) -> CorrectionReport:
    """``ledger game correct ID``: a result typed wrong, a wrong date, the wrong players or
    colours. One ``game.correct`` change by ``actor`` giving ``reason`` (required).

    A game of an event keeps its round and period, so its date must stay within the event's
    dates; ``fix.event`` moves it to another event (its date within that one's dates), and into
    the period of that event's end date unless it is a late result (placed as a late result
    when that period is closed, or with ``rerate`` kept there); a game without an event moves
    with its date (into an open period, or a late
    result's earliest open period; into another closed period only with ``rerate``). In a
    closed period ``in_next_period`` or ``rerate`` says how it takes effect.

    Refused, naming the field (``InvalidInput``): nothing to correct or nothing different, a
    void game, a bad result or date (in the future, before 2022, outside the event's dates),
    an unknown player, the same player on both sides, a correction that makes it a game already
    recorded, a player twice in its round or the pair twice that day (``game_keys.check_fits``);
    ``PeriodError``: a closed period without a mode, a date moving it into another closed
    period with ``in_next_period``, what a carried correction cannot express.
    """
    if fix == GameFix():
        raise InvalidInput("result: nothing to correct: give --result, --date, --white, "
                           "--black or --event")
    why = check_reason(reason)
    mode = mode_of(in_next_period, rerate)
    who = actor or Actor.from_code("correct_game")
    result = Result.parse(fix.result) if fix.result is not None else None
    day = parse_date(fix.date) if fix.date is not None else None
    if day is not None:
        check_date(day, today or dt.date.today())
    with transaction(engine, dry_run=dry_run) as session:
        row = find_game(session, game)
        if row.status == "void":
            raise InvalidInput(f"game: game {row.id} is void: a voided game is not corrected "
                               "(record the game again with ledger game add)")
        white = resolve(session, fix.white, "white") if fix.white is not None else None
        black = resolve(session, fix.black, "black") if fix.black is not None else None
        event = resolve_event(session, fix.event) if fix.event is not None else None
        values = _new_values(session, row, result, day, white, black, mode, event)
        if not values:
            raise InvalidInput(f"game: game {row.id} already has these values: nothing to "
                               "correct")
        before = _view(session, row.id)
        effects = Effects(session, mode, f"game {row.id}")
        change = revise(session, row, values, "game.correct", why, who, effects,
                        {p.id for p in (white, black) if p is not None})
        effect = effects.finish(why, who)
        report = CorrectionReport("game.correct", before, _view(session, row.id), why,
                                  dry_run, effect, None if dry_run else change.id)
        return _with_mode_note(report, mode)


def _new_values(session: Session, game: Game, result: Result | None, day: dt.date | None,
                white: Player | None, black: Player | None,
                mode: Mode | None, event: Event | None = None) -> dict[str, Any]:
    """The columns ``game correct`` changes (only those that differ), checked; ``event``: the
    event it moves to (None: it keeps its own)."""
    w = white or session.get_one(Player, game.white_id)
    b = black or session.get_one(Player, game.black_id)
    if w.id == b.id:
        field_ = "black" if black is not None else "white"
        raise InvalidInput(f"{field_}: {w.name} cannot play themselves (the other side is the "
                           "same player)")
    new_day = day or game.date
    values: dict[str, Any] = {}
    if result is not None and result.value != game.result:
        values["result"] = result.value
    event_id = game.event_id if event is None else event.id
    if event_id != game.event_id:
        values["event_id"] = event_id
    if new_day != game.date or "event_id" in values:
        if new_day != game.date:
            values["date"] = new_day
        period = _period_for(session, game, new_day, mode, event)
        if period != game.period:
            values["period"] = period
    if w.id != game.white_id:
        values["white_id"] = w.id
    if b.id != game.black_id:
        values["black_id"] = b.id
    if values.keys() & {"date", "white_id", "black_id", "event_id"}:
        check_fits(session, event_id, game.round, w, b, new_day, skip=game.id)
    return values


def _period_for(session: Session, game: Game, day: dt.date, mode: Mode | None,
                joined: Event | None = None) -> str:
    """The period the game is in after its date becomes ``day`` and, with ``joined``, its
    event that one (whether a period is closed is the game's pool's, docs/RULES.md §9)."""
    if game.event_id is not None or joined is not None:
        event = joined or session.get_one(Event, game.event_id)
        if not event.start_date <= day <= event.end_date:
            field_ = "date" if joined is None or day != game.date else "event"
            keeps = "; a game keeps its event" if joined is None else ""
            raise InvalidInput(f"{field_}: {day} is outside the dates of event {event.name!r} "
                               f"({event.start_date} to {event.end_date}){keeps}")
        if joined is None or joined.id == game.event_id:
            return game.period
        own = (Period.of(session.get_one(Event, game.event_id).end_date)
               if game.event_id is not None else Period.of(game.date))
        if game.period != str(own):  # a late result stays where it is rated
            return game.period
        return str(placement(session, Period.of(event.end_date), rerate=mode is Mode.RERATE,
                             pool=parse_pool(game.pool))[0])
    if Period.of(day) == Period.of(game.date):
        return game.period
    pool = parse_pool(game.pool)
    last = last_closed_period(session, pool)
    moved_to = Period.of(day)
    if is_closed(moved_to, last) and is_closed(Period.parse(game.period), last) \
            and mode is not Mode.RERATE:
        raise PeriodError(f"date: {day} would move game {game.id} from closed period "
                          f"{game.period} into closed period {moved_to}: only --rerate can "
                          "rate it there")
    return str(placement(session, moved_to, rerate=mode is Mode.RERATE, pool=pool)[0])
