"""``ledger audit``: reading the audit log (docs/CORRECTIONS.md §1), filtered by player, period
and date in one set-based query."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
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
from ledger.services.games import parse_date
from ledger.services.players import resolve
from ledger.services.session import transaction


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
        select(PeriodRevision.change_id).where(PeriodRevision.period == str(period)),
        select(PeriodRevision.superseded_by_change).where(PeriodRevision.period == str(period)),
    )


def audit_log(engine: Engine, *, player: str | None = None, period: str | None = None,
              since: str | None = None) -> list[AuditEntry]:
    """``ledger audit``: the changes, oldest first; ``player`` (a reference as ``resolve``
    takes it): those that wrote their facts or rated them; ``period`` (YYYY-MM): those that
    wrote its games or closed, reopened or re-rated it; ``since`` (YYYY-MM-DD): made on that day
    (UTC) or later. One query whatever the filters.

    Raises ``NotFound``/``Ambiguous`` for the player, ``InvalidInput`` for a malformed period or
    date (naming the field).
    """
    wanted = Period.parse(period) if period is not None else None
    day = parse_date(since, "since") if since is not None else None
    with transaction(engine, write=False) as session:
        conditions: list[ColumnElement[bool]] = []
        if player is not None:
            conditions.append(Change.id.in_(_of_player(resolve(session, player).id)))
        if wanted is not None:
            conditions.append(Change.id.in_(_of_period(wanted)))
        if day is not None:
            conditions.append(Change.at >= dt.datetime.combine(day, dt.time()))
        return [AuditEntry(c.id, c.at, c.by, c.command, c.action, c.entity, c.entity_id,
                           None if c.before is None else json.loads(c.before),
                           None if c.after is None else json.loads(c.after), c.reason)
                for c in session.scalars(select(Change).where(*conditions).order_by(Change.id))]
