"""``ledger audit``: reading the audit log (docs/CORRECTIONS.md §1), filtered by player, period
and date in one set-based query."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, replace
from pathlib import PurePath
from typing import Any

from sqlalchemy import ColumnElement, CompoundSelect, Engine, or_, select, union

from ledger.db.models import (
    CarriedCorrection,
    Change,
    Game,
    GameRevision,
    PeriodResult,
    PeriodRevision,
    Player,
    PlayerEntry,
    PlayerRevision,
)
from ledger.domain import Period
from ledger.services.core.session import transaction
from ledger.services.register.games import parse_date
from ledger.services.register.player_refs import resolve


@dataclass(frozen=True)
class AuditEntry:
    """One change as ``ledger audit`` shows it; ``before``/``after`` are the decoded JSON."""

    id: int
    at: dt.datetime
    by: str
    command: str
    action: str
    entity: str
    entity_id: str
    before: Any
    after: Any
    reason: str | None
    #: What it changed, as a person reads it: ``file riverside.pgn``, ``player #3 Doyle, Liam``,
    #: ``game #12 (Doyle, Liam v Walsh, Brendan)``, ``period 2026-03 (rapid)`` (its pool, when
    #: the change says it).
    what: str = ""


def _of_player(player_id: int) -> CompoundSelect[Any]:
    """Every change that wrote a fact or a result of ``player_id``: the player row and its
    earlier values, their entries, their games (and earlier values), the closes that rated
    them, carried corrections."""
    theirs = or_(Game.white_id == player_id, Game.black_id == player_id)
    old_theirs = or_(GameRevision.white_id == player_id, GameRevision.black_id == player_id)
    return union(
        select(Change.id).where(Change.entity == "player", Change.entity_id == str(player_id)),
        select(Player.change_id).where(Player.id == player_id),
        select(PlayerRevision.valid_to_change).where(PlayerRevision.player_id == player_id),
        select(PlayerEntry.change_id).where(PlayerEntry.player_id == player_id),
        select(Game.change_id).where(theirs),
        select(GameRevision.valid_to_change).where(old_theirs),
        select(GameRevision.valid_from_change).where(old_theirs),
        select(PeriodRevision.change_id).join(PeriodResult, (
            PeriodResult.period == PeriodRevision.period)
            & (PeriodResult.pool == PeriodRevision.pool)
            & (PeriodResult.revision == PeriodRevision.revision))
        .where(PeriodResult.player_id == player_id),
        select(CarriedCorrection.change_id).where(CarriedCorrection.player_id == player_id),
    )


def _of_period(period: Period) -> CompoundSelect[Any]:
    """Every change that wrote a game of ``period``, closed, reopened or re-rated it."""
    return union(
        select(Change.id).where(Change.entity == "period", Change.entity_id == str(period)),
        select(Game.change_id).where(Game.period == str(period)),
        select(GameRevision.valid_to_change).where(GameRevision.period == str(period)),
        # the first write of a game since corrected: its earliest revision's start
        select(GameRevision.valid_from_change).where(GameRevision.period == str(period)),
        select(PeriodRevision.change_id).where(PeriodRevision.period == str(period)),
        select(PeriodRevision.superseded_by_change).where(PeriodRevision.period == str(period)),
    )


def audit_log(engine: Engine, *, player: str | None = None, period: str | None = None,
              since: str | None = None) -> list[AuditEntry]:
    """``ledger audit``: the changes, oldest first; ``player`` (a reference as ``resolve``
    takes it; a player merged into another too): those that wrote their facts or rated them;
    ``period`` (YYYY-MM): those that wrote its games or closed, reopened or re-rated it;
    ``since`` (YYYY-MM-DD): made on that day (UTC) or later. One query whatever the filters.

    Raises ``NotFound``/``Ambiguous`` for the player, ``InvalidInput`` for a malformed period or
    date (naming the field).
    """
    wanted = Period.parse(period) if period is not None else None
    day = parse_date(since, "since") if since is not None else None
    with transaction(engine, write=False) as session:
        conditions: list[ColumnElement[bool]] = []
        if player is not None:
            conditions.append(Change.id.in_(_of_player(resolve(session, player, partial=True,
                                                                merged=True).id)))
        if wanted is not None:
            conditions.append(Change.id.in_(_of_period(wanted)))
        if day is not None:
            conditions.append(Change.at >= dt.datetime.combine(day, dt.time()))
        entries = [AuditEntry(c.id, c.at, c.by, c.command, c.action, c.entity, c.entity_id,
                              None if c.before is None else json.loads(c.before),
                              None if c.after is None else json.loads(c.after), c.reason)
                   for c in session.scalars(select(Change).where(*conditions).order_by(Change.id))]
        ids = {int(e.entity_id) for e in entries if e.entity == "player" and e.entity_id.isdigit()}
        ids |= {side for e in entries if e.entity == "game" for side in _sides(e)}
        names = dict(session.execute(select(Player.id, Player.name).where(
            Player.id.in_(ids))).all()) if ids else {}
        return [replace(e, what=_what(e, names)) for e in entries]


def _values(e: AuditEntry) -> dict[str, Any]:
    """The change's ``after`` values, else its ``before`` values (a dict), else none."""
    for data in (e.after, e.before):
        if isinstance(data, dict):
            return data
    return {}


def _sides(e: AuditEntry) -> list[int]:
    """The player ids of a game change (``white``, ``black`` in its values)."""
    return [v for k in ("white", "black") if isinstance(v := _values(e).get(k), int)]


def _what(e: AuditEntry, names: dict[int, str]) -> str:
    """``AuditEntry.what`` from the entry and the names of the players it names."""
    data = _values(e)
    if e.entity == "file":
        file = data.get("file")
        return f"file {PurePath(file).name}" if isinstance(file, str) else f"file {e.entity_id[:12]}"
    if e.entity == "player" and e.entity_id.isdigit():
        name = names.get(int(e.entity_id)) or data.get("name")
        return f"player #{e.entity_id}" + (f" {name}" if name else "")
    if e.entity == "game" and e.entity_id.isdigit():
        sides = [names.get(i, f"#{i}") for i in _sides(e)]
        return f"game #{e.entity_id}" + (f" ({sides[0]} v {sides[1]})" if len(sides) == 2 else "")
    if e.entity == "event":  # a rename keeps the old name findable: "(was ...)"
        before = e.before if isinstance(e.before, dict) else {}
        name, was, merged = data.get("name"), before.get("name"), before.get("merged")
        return (f"event #{e.entity_id}" + (f" {name}" if name else "")
                + (f" (was {was})" if isinstance(was, str) and was != name else "")
                + (f" (merged #{merged.get('id')} {merged.get('name')})"
                   if isinstance(merged, dict) else ""))
    pool = data.get("pool") if e.entity == "period" else None
    return f"{e.entity} {e.entity_id}" + (f" ({pool})" if isinstance(pool, str) else "")
