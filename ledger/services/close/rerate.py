"""Reopening the latest closed period and re-rating closed periods (docs/CORRECTIONS.md §3-§4).

``reopen_period`` removes the pointer of the latest closed period: it is open again, its
revision stays (superseded by the reopen) and ``list --revision`` still shows it; closing it
again writes the next revision. ``rerate`` rates every closed period from one on with today's
facts, in order, in one transaction, each as its next revision (the one it replaces superseded),
through the rating code of the close (``services.close.rating``); without ``yes`` it only reports.
Each period reopened or re-rated is one change of the audit log, with its reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import Engine, delete, func, select
from sqlalchemy.orm import Session

from ledger.db.models import PeriodResult, PeriodRevision, RatingPeriod
from ledger.domain import (
    STANDARD,
    Actor,
    Period,
    RatingPool,
    described_character,
    find_control_character,
)
from ledger.errors import InvalidInput, PeriodError
from ledger.rules.editions import Edition
from ledger.services.close.rating import rate, write_revision
from ledger.services.close.revisions import next_revision, supersede
from ledger.services.close.snapshots import read_rows
from ledger.services.close.state import last_closed_period
from ledger.services.core.audit import record_change, summarise
from ledger.services.core.session import transaction

#: The longest ``--reason``.
MAX_REASON = 2000


def check_reason(reason: str | None) -> str:
    """The reason a correction gives, trimmed; ``InvalidInput`` naming ``reason`` when it is
    missing, blank, longer than ``MAX_REASON`` characters, or holding what no one-line text
    field may (``domain.find_control_character``: an escape, a line break, a direction
    override ...), which ``ledger audit`` would print on the officer's terminal as it is."""
    text = (reason or "").strip()
    if not text:
        raise InvalidInput("reason: say why (--reason TEXT); it goes into the audit log")
    if len(text) > MAX_REASON:
        raise InvalidInput(f"reason: {len(text)} characters; at most {MAX_REASON}")
    control = find_control_character(text)
    if control is not None:
        raise InvalidInput(f"reason: holds {described_character(control.group())} at character "
                           f"{control.start() + 1}: it is one line of visible text")
    return text


@dataclass(frozen=True)
class ReopenReport:
    """``period reopen``: the ``period`` reopened, the ``revision`` it leaves (superseded, still
    shown by ``list --revision``), the players it had rated, and whether it was a dry run;
    ``pool`` the pool reopened and ``next`` the revision closing it again writes (revision
    numbers are per period and pool: docs/DESIGN.md "Rating pools")."""

    period: str
    revision: int
    players_rated: int
    reason: str
    dry_run: bool
    pool: RatingPool = STANDARD
    next: int | None = None


def reopen_period(engine: Engine, period: str, *, reason: str | None, dry_run: bool = False,
                  actor: Actor | None = None, pool: RatingPool = STANDARD) -> ReopenReport:
    """``ledger period reopen``: reopen ``period`` (YYYY-MM), which must be the latest closed
    one, in one transaction with one ``period.reopen`` change by ``actor`` (None: called from
    code) giving ``reason``; ``dry_run`` says what it would do and writes nothing.

    Raises ``InvalidInput`` for a malformed period or a missing reason, ``PeriodError`` when no
    period is closed or ``period`` is not the latest closed (naming it). ``pool``: the pool
    whose close is reopened (docs/RULES.md §9; each pool closes its own periods).
    """
    wanted = Period.parse(period)
    why = check_reason(reason)
    with transaction(engine, dry_run=dry_run) as session:
        last = last_closed_period(session, pool)
        if last is None:
            raise PeriodError(f"no period is closed in the {pool} pool, so none can be reopened")
        if wanted != last:
            raise PeriodError(f"period {wanted}: only the latest closed period can be reopened, "
                              f"and that is {last}")
        pointer = session.get_one(RatingPeriod, (str(wanted), pool))
        revision = pointer.revision
        rated = session.scalar(select(func.count()).select_from(PeriodResult).where(
            PeriodResult.period == str(wanted), PeriodResult.pool == pool,
            PeriodResult.revision == revision)) or 0
        change = record_change(session, actor or Actor.from_code("reopen_period"),
                               "period.reopen", "period", wanted, before={"revision": revision},
                               after={"open": True}, reason=why)
        supersede(session, wanted, revision, change.id, pool)
        session.execute(delete(RatingPeriod).where(RatingPeriod.period == str(wanted),
                                                   RatingPeriod.pool == pool))
        return ReopenReport(str(wanted), revision, rated, why, dry_run, pool,
                            next_revision(session, wanted, pool))


@dataclass(frozen=True)
class RatingMove:
    """A player whose published rating on a period's list differs between the revision replaced
    (``before``) and the new one (``after``); None: not on that list."""

    player_id: int
    name: str
    before: int | None
    after: int | None


@dataclass(frozen=True)
class PeriodRerate:
    """One period re-rated: the revision replaced, the new one, and every ``RatingMove``."""

    period: str
    old_revision: int
    new_revision: int
    moves: tuple[RatingMove, ...]


@dataclass
class RerateReport:
    """``period rerate``: each period re-rated in order; ``written`` False when it only
    reported (no ``--yes``)."""

    start: str
    reason: str
    written: bool
    periods: list[PeriodRerate] = field(default_factory=list)


def rerate(engine: Engine, start: str, *, reason: str | None, yes: bool = False,
           actor: Actor | None = None, pool: RatingPool = STANDARD) -> RerateReport:
    """``ledger period rerate --from``: rate every closed period from ``start`` on with today's
    facts and the rule edition its current revision used, in order, in one transaction; each
    gets its next revision (by one ``period.rerate`` change by ``actor`` giving ``reason``) and
    the revision it replaces is superseded. Reports every player whose rating on a list changes,
    period by period; without ``yes`` nothing is written.

    Raises ``InvalidInput`` for a malformed period or a missing reason, ``PeriodError`` when
    ``start`` is not a closed period. ``pool``: the pool whose closes are re-rated (docs/RULES.md
    §9); the other pools' stand.
    """
    first = Period.parse(start)
    why = check_reason(reason)
    who = actor or Actor.from_code("rerate")
    report = RerateReport(str(first), why, yes)
    with transaction(engine, dry_run=not yes) as session:
        report.periods = rerate_in(session, first, why, who, pool)
    return report


def rerate_in(session: Session, first: Period, why: str, who: Actor,
              pool: RatingPool = STANDARD) -> list[PeriodRerate]:
    """Inside the caller's transaction: rate every closed period from ``first`` on with today's
    facts, each as its next revision written by its own ``period.rerate`` change (by ``who``,
    giving ``why``), the revision it replaces superseded; returns each period's
    ``PeriodRerate`` in order. ``rerate`` and the corrections made with ``--rerate``
    (``services.corrections.effects``) use it. Raises ``PeriodError`` when ``first`` is not a closed period
    with a list of its own. ``pool``: only that pool's closes (docs/RULES.md §9)."""
    closed = [(Period.parse(p), r) for p, r in session.execute(
        select(RatingPeriod.period, RatingPeriod.revision)
        .where(RatingPeriod.period >= str(first), RatingPeriod.pool == pool)
        .order_by(RatingPeriod.period))]
    if not closed or closed[0][0] != first:
        last = last_closed_period(session, pool)
        raise PeriodError(f"from: period {first} is not a closed period with a list of its "
                          f"own (closed: up to {last or 'none'}; see `ledger period list`)")
    done = []
    for period, old in closed:
        edition = Edition(session.get_one(PeriodRevision, (str(period), pool, old)).edition)
        before = {r.player_id: (r.name, r.rating) for r in read_rows(session, period, old, pool)}
        rated = rate(session, period, edition, pool=pool)
        new = next_revision(session, period, pool)
        change = record_change(session, who, "period.rerate", "period", period,
                               before={"revision": old}, reason=why)
        write_revision(session, rated, new, change.id, why)
        supersede(session, period, old, change.id, pool)
        after = {r.player_id: (r.name, r.rating) for r in rated.listed}
        moves = tuple(sorted(
            (RatingMove(pid, (after.get(pid) or before[pid])[0],
                        before[pid][1] if pid in before else None,
                        after[pid][1] if pid in after else None)
             for pid in before.keys() | after.keys()
             if before.get(pid, (None, None))[1] != after.get(pid, (None, None))[1]),
            key=lambda m: (m.name, m.player_id)))
        summarise(change, {"revision": new, "replaces": old, "ratings_changed": len(moves)})
        done.append(PeriodRerate(str(period), old, new, moves))
    return done
