"""Correcting an event (docs/CORRECTIONS.md §7): ``ledger event rename``, ``ledger event
merge`` and ``ledger event void``.

An event is a fact like a game: it is corrected openly, never erased. A rename is one
``event.rename`` change keeping the old name (``before``), which ``resolve_event`` still points
at. A merge and a void change games: each game moved or voided goes through the games'
correction machinery (``games.revise``: its earlier values kept in ``game_revisions``, one
change a game, with the reason), and the whole takes effect as one correction
(``effects.Effects``: in a closed period ``--in-next-period`` or ``--rerate``). Every use case is
one transaction; ``dry_run`` does everything and writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from ledger.db.models import Event, Game, Player
from ledger.domain import Actor, Period, parse_pool
from ledger.errors import InvalidInput, PeriodError, shown
from ledger.names import name_key
from ledger.services.close.late import placement
from ledger.services.close.rerate import check_reason
from ledger.services.close.state import is_closed, last_closed_period
from ledger.services.core.audit import record_change, summarise
from ledger.services.core.session import transaction
from ledger.services.corrections.effects import Effect, Effects, mode_of
from ledger.services.corrections.games import revise
from ledger.services.register.events import label, resolve_event
from ledger.services.register.game_keys import check_fits
from ledger.services.register.games import MAX_EVENT, clean_label


@dataclass
class EventCorrection:
    """What ``event rename`` / ``merge`` / ``void`` did (or, with ``dry_run``, would do):
    ``action`` (``event.rename``, ``event.merge``, ``event.void``), the event's values
    ``before`` and ``after`` (id, name, start and end dates, pool; a merge's ``before`` also
    ``merged``: the other event's), the ids of the ``games`` moved or voided, the ``reason``,
    the event's change (None on a dry run), how it took effect (``effect``) and ``notes``."""

    action: str
    before: dict[str, Any]
    after: dict[str, Any]
    reason: str
    dry_run: bool
    effect: Effect
    games: list[int] = field(default_factory=list)
    change_id: int | None = None
    notes: list[str] = field(default_factory=list)


def event_values(event: Event) -> dict[str, Any]:
    """An event's values as a change records them (``before``/``after``; dates as
    ``YYYY-MM-DD``)."""
    return {"id": event.id, "name": event.name, "start": event.start_date.isoformat(),
            "end": event.end_date.isoformat(), "pool": event.pool}


def rename_event(engine: Engine, event: str, name: str, *, reason: str | None,
                 dry_run: bool = False, actor: Actor | None = None) -> EventCorrection:
    """``ledger event rename EVENT NAME``: the event (``#ID`` or name) is called ``name`` from
    now on, in every report and page. One ``event.rename`` change giving ``reason`` (required)
    keeps the old name (``before``); the old name still leads to the event (``resolve_event``
    says it was renamed). Ratings do not depend on a name, so a closed period needs no mode.

    Refused (``InvalidInput``, naming the field): no reason; a ``name`` that is empty, too
    long or holds a control character (``clean_label``); the same name; a name another event
    holds (the same ``name_key``), naming that event. ``NotFound``/``Ambiguous``: the event."""
    why = check_reason(reason)
    new = clean_label(name, "name", MAX_EVENT)
    if new is None:
        raise InvalidInput("name: the new name is empty")
    with transaction(engine, dry_run=dry_run) as session:
        row = resolve_event(session, event)
        if new == row.name:
            raise InvalidInput(f"name: event #{row.id} is already named {shown(new)}: nothing "
                               "to rename")
        holder = session.scalars(select(Event).where(Event.name_key == name_key(new),
                                                     Event.id != row.id)).first()
        if holder is not None:
            raise InvalidInput(f"name: {shown(new)} is the name of event {label(holder)}; if "
                               "the two are one event, merge them (ledger event merge)")
        before = event_values(row)
        change = record_change(session, actor or Actor.from_code("rename_event"),
                               "event.rename", "event", row.id, before=before, reason=why)
        row.name, row.change_id = new, change.id
        session.flush()
        summarise(change, event_values(row))
        return EventCorrection("event.rename", before, event_values(row), why, dry_run,
                               Effect("open"), change_id=None if dry_run else change.id)


def void_event(engine: Engine, event: str, *, reason: str | None, in_next_period: bool = False,
               rerate: bool = False, dry_run: bool = False,
               actor: Actor | None = None) -> EventCorrection:
    """``ledger event void EVENT``: the event never took place (or is not to be rated): every
    valid game of it is voided, as ``game void`` voids one (kept, marked void, never rated),
    one ``game.void`` change each after the ``event.void`` change, all giving ``reason``
    (required). In a closed period ``in_next_period`` or ``rerate`` says how it takes effect
    (``effects.Effects``: the difference of every closed period it touches carried into the
    earliest open one, or those periods re-rated), in the pool of its games.

    Refused: no reason, an event without a valid game (``InvalidInput``); a closed period
    without a mode, games in closed periods of two pools (``PeriodError``); both modes
    (``UsageError``). ``NotFound``/``Ambiguous``: the event."""
    why = check_reason(reason)
    mode = mode_of(in_next_period, rerate)
    who = actor or Actor.from_code("void_event")
    with transaction(engine, dry_run=dry_run) as session:
        row = resolve_event(session, event)
        games = _valid_games(session, row)
        if not games:
            raise InvalidInput(f"event: event {label(row)} has no valid game: nothing to void")
        values = event_values(row)
        change = record_change(session, who, "event.void", "event", row.id, before=values,
                               reason=why)
        summarise(change, values | {"voided": [g.id for g in games]})
        effects = Effects(session, mode, f"event #{row.id}")
        for game in games:
            revise(session, game, {"status": "void"}, "game.void", why, who, effects, set())
        effect = effects.finish(why, who)
        report = EventCorrection("event.void", values, values, why, dry_run, effect,
                                 [g.id for g in games], None if dry_run else change.id)
        return _mode_note(report, mode is not None)


def _valid_games(session: Session, event: Event) -> list[Game]:
    return list(session.scalars(select(Game).where(Game.event_id == event.id,
                                                   Game.status == "valid")
                                .order_by(Game.date, Game.id)))


def _mode_note(report: EventCorrection, mode: bool) -> EventCorrection:
    if mode and not report.effect.closed:
        report.notes.append("every period it touches is open: the correction is made there, "
                            "--in-next-period or --rerate is not needed")
    return report


def merge_events(engine: Engine, keep: str, other: str, *, reason: str | None,
                 in_next_period: bool = False, rerate: bool = False, dry_run: bool = False,
                 actor: Actor | None = None) -> EventCorrection:
    """``ledger event merge KEEP OTHER``: one event recorded under two names (imported twice,
    or a typo): every valid game of OTHER moves to KEEP, whose dates widen to cover them; one
    ``event.merge`` change on KEEP (``before``: both events), then one ``game.correct`` change a
    game moved (its earlier event kept in ``game_revisions``), all giving ``reason``
    (required). OTHER stays, without a valid game (never "the latest" on the site, no page).

    A moved game belongs to the period of KEEP's end date (a late result, rated after its
    event's period, keeps its period); when KEEP's end date moves to a later month its own
    games of open periods move with it. A game going into a closed period goes into the
    earliest open one, or with ``rerate`` stays there and it is re-rated. The ratings of a moved
    game are those in force at KEEP's start. In a closed period ``in_next_period`` or ``rerate``
    says how the merge takes effect (``effects.Effects``).

    Refused (``InvalidInput``): no reason; the same event twice; events of two pools; likely
    duplicates between them (the same two players in the same round, or on the same day when
    one of the two games has no round: ``_refuse_duplicates``),
    listed, so that they are not doubled (void one of each pair first: ``ledger game void``);
    a game that would not fit KEEP (a player twice in one of its rounds:
    ``game_keys.check_fits``). ``PeriodError``: KEEP has games in a closed period and the merge
    would move its dates into other months (its games' ratings and period would change
    behind its published list), a closed period without a mode. ``NotFound``/``Ambiguous``."""
    why = check_reason(reason)
    mode = mode_of(in_next_period, rerate)
    who = actor or Actor.from_code("merge_events")
    with transaction(engine, dry_run=dry_run) as session:
        kept, merged = resolve_event(session, keep), resolve_event(session, other)
        if kept.id == merged.id:
            raise InvalidInput(f"event: {shown(keep)} and {shown(other)} are the same event, "
                               f"{label(kept)}")
        if kept.pool != merged.pool:
            raise InvalidInput(f"event: {label(kept)} is of the {kept.pool} pool and "
                               f"{label(merged)} of the {merged.pool} pool: not one event")
        ours, theirs = _valid_games(session, kept), _valid_games(session, merged)
        _refuse_duplicates(session, ours, theirs)
        start = min(kept.start_date, merged.start_date)
        end = max(kept.end_date, merged.end_date)
        pool = parse_pool(kept.pool)
        last = last_closed_period(session, pool)
        months = (Period.of(start), Period.of(end))
        if months != (Period.of(kept.start_date), Period.of(kept.end_date)):
            rated = next((g for g in ours if is_closed(Period.parse(g.period), last)), None)
            if rated is not None:
                raise PeriodError(
                    f"event: merging would move the dates of {label(kept)} to {start} .. {end}, "
                    f"into other months, but its game {rated.id} is rated in closed period "
                    f"{rated.period}: its published ratings would no longer follow from it")
        before = {"keep": event_values(kept), "merged": event_values(merged)}
        change = record_change(session, who, "event.merge", "event", kept.id, before=before,
                               reason=why)
        old_natural = {kept.id: Period.of(kept.end_date), merged.id: Period.of(merged.end_date)}
        kept.start_date, kept.end_date, kept.change_id = start, end, change.id
        session.flush()
        summarise(change, event_values(kept) | {"moved": [g.id for g in theirs]})
        effects = Effects(session, mode, f"event merge of #{merged.id} into #{kept.id}")
        natural = Period.of(end)
        new_period = str(placement(session, natural, rerate=rerate, pool=pool)[0])
        for game in [*ours, *theirs]:
            values: dict[str, Any] = {}
            if game.event_id != kept.id:
                values["event_id"] = kept.id
                check_fits(session, kept.id, game.round, session.get_one(Player, game.white_id),
                           session.get_one(Player, game.black_id), game.date, skip=game.id)
            own = old_natural[merged.id if game.event_id == merged.id else kept.id]
            if own != natural and game.period == str(own):  # not a late result: it moves
                values["period"] = new_period
            if values:
                revise(session, game, values, "game.correct", why, who, effects, set())
        effect = effects.finish(why, who)
        report = EventCorrection("event.merge", before, event_values(kept), why, dry_run,
                                 effect, [g.id for g in theirs],
                                 None if dry_run else change.id)
        report.notes.append(f"event {label(merged)} stays, without a valid game")
        return _mode_note(report, mode is not None)


def _refuse_duplicates(session: Session, ours: list[Game], theirs: list[Game]) -> None:
    """Refuse (``InvalidInput``) the pairs of games of the two events that are likely one game:
    the same two players (either colours) in the same round, or on the same day when one of the
    two has no round (two rounds of one day are two games); every pair listed."""
    by_pair: dict[frozenset[int], list[Game]] = {}
    for g in ours:
        by_pair.setdefault(frozenset((g.white_id, g.black_id)), []).append(g)

    def alike(a: Game, b: Game) -> bool:
        if a.round_key is not None and b.round_key is not None:
            return a.round_key == b.round_key
        return a.date == b.date
    found = ((next((t for t in by_pair.get(frozenset((g.white_id, g.black_id)), [])
                    if alike(t, g)), None), g) for g in theirs)
    pairs = [(twin, g) for twin, g in found if twin is not None]
    if not pairs:
        return
    names = dict(session.execute(select(Player.id, Player.name).where(Player.id.in_(
        {p for a, b in pairs for g in (a, b) for p in (g.white_id, g.black_id)}))).all())

    def shown_game(g: Game) -> str:
        return (f"game {g.id} ({g.date}, round {g.round or '-'}, {names[g.white_id]} - "
                f"{names[g.black_id]} {g.result})")
    listed = "; ".join(f"{shown_game(b)} is likely {shown_game(a)}" for a, b in pairs)
    raise InvalidInput(f"event: {len(pairs)} likely duplicate(s) between the two events, which "
                       f"a merge would double: {listed}; void one game of each pair first "
                       "(ledger game void ID --reason ...), then merge")
