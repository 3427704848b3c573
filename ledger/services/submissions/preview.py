"""What accepting a pending submission would do (issue 23: "the officer sees the effect before
accepting"): its games as the import would record them, and each of their players' expected
change in the open period, as ``list --preview`` computes it (``close.periods.preview_close``),
all in one transaction rolled back: nothing is written, not even to the audit log. A corrected
file of an accepted event (``replaces``) shows the event's games once corrected."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field

from sqlalchemy import ColumnElement, Engine, select
from sqlalchemy.orm import Session, aliased

from ledger.db.models import Event, Game, Player
from ledger.db.models.submissions import Submission
from ledger.domain import POOLS
from ledger.errors import ImportRejected, LedgerError, NotFound
from ledger.services.close.periods import preview_close
from ledger.services.core import clock
from ledger.services.core.audit import written_by
from ledger.services.core.session import transaction
from ledger.services.corrections.replace import ReplaceReport
from ledger.services.submissions.checking import run_file, stored_file
from ledger.services.submissions.submissions import replacing


@dataclass(frozen=True)
class PreviewGame:
    """A game the submission would record: ``date``, ``white``, ``black`` (ledger names),
    ``result`` (White's point of view), ``event`` (None: none), ``period`` and ``pool``."""

    date: dt.date
    white: str
    black: str
    result: str
    event: str | None
    period: str
    pool: str


@dataclass(frozen=True)
class ExpectedChange:
    """A player's expected line in the open period ``period`` of ``pool`` with the submission
    accepted: ``rating_before``, ``change``, ``rating_after`` (integers, as the close rounds
    them) over ``games`` rated games."""

    player_id: int
    name: str
    pool: str
    period: str
    rating_before: int
    change: int
    rating_after: int
    games: int


@dataclass
class Preview:
    """``games`` the submission would record, ``changes`` of its players (by pool, then name),
    ``notes`` (why a preview could not be computed: errors, nothing to close)."""

    games: list[PreviewGame] = field(default_factory=list)
    changes: list[ExpectedChange] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def preview(engine: Engine, submission_id: int, *, today: dt.date | None = None) -> Preview:
    """The effect of accepting submission ``submission_id`` with every warning ticked (its
    checked overrides), computed and rolled back. Raises ``NotFound`` for no such submission;
    a file that the import refuses gives no games and a note."""
    day = today or clock.today()
    found = Preview()
    with transaction(engine, dry_run=True) as session:
        row = session.get(Submission, submission_id)
        if row is None:
            raise NotFound(f"submission {submission_id}: no such submission")
        flags = set(json.loads(row.findings or "{}").get("flags", []))
        name = row.filename or "upload"
        with stored_file(name, row.content) as path:
            try:
                done = run_file(session, path, name, row.format,
                                json.loads(row.options or "{}"), flags, today=day,
                                replacing=replacing(row.replaces))
            except ImportRejected:
                found.notes.append("the file has errors: no games to preview")
                return found
            except LedgerError as exc:
                found.notes.append(str(exc))
                return found
        which = (Game.event_id == done.event_id if isinstance(done, ReplaceReport)
                 else Game.change_id == written_by(session))
        found.games = _games(session, which)
        players = {i for g in session.scalars(select(Game).where(which, Game.status == "valid"))
                   for i in (g.white_id, g.black_id)}
        for pool in POOLS:
            if not any(g.pool == pool for g in found.games):
                continue
            try:
                report = preview_close(session, pool, today=day)
            except LedgerError as exc:
                found.notes.append(f"{pool}: {exc}")
                continue
            found.changes.extend(
                ExpectedChange(p.player_id, p.name, pool, report.period, p.result.rating_before,
                               p.result.change, p.result.rating_after, p.result.n)
                for p in sorted(report.players, key=lambda p: p.name)
                if p.player_id in players)
    return found


def _games(session: Session, which: ColumnElement[bool]) -> list[PreviewGame]:
    white, black = aliased(Player), aliased(Player)
    rows = session.execute(
        select(Game.date, white.name, black.name, Game.result, Event.name, Game.period,
               Game.pool)
        .join(white, white.id == Game.white_id).join(black, black.id == Game.black_id)
        .outerjoin(Event, Event.id == Game.event_id)
        .where(which, Game.status == "valid").order_by(Game.date, Game.id))
    return [PreviewGame(*r) for r in rows]
