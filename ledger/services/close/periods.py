"""Closing a rating period (FIDE B.02 §7-§8) in one transaction, and listing closed periods.

Loading is set-based: the period's games with their events in one query, and the histories of
every player in them in three more, whatever the number of players. What a close did is
reported by ``services.close.close_report``.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import Engine, func, or_, select
from sqlalchemy.orm import Session

from ledger.db.engine import SQLITE_CLOSE_CACHE_KIB, sqlite_cache
from ledger.db.models import Game
from ledger.db.models import PeriodResult as PeriodResultRow
from ledger.db.models.submissions import Submission
from ledger.domain import POOLS, STANDARD, Actor, Period, RatingPool, Result
from ledger.errors import PeriodError
from ledger.rules.editions import Edition, edition_for
from ledger.services.close.carried import first_owed
from ledger.services.close.close_report import CloseReport, ThroughReport, report_of
from ledger.services.close.rating import rate, write_revision
from ledger.services.close.revisions import RevisionView, current, next_revision, revision_views
from ledger.services.close.state import FIRST_RATED_PERIOD, last_closed_period
from ledger.services.core import clock
from ledger.services.core.audit import record_change, summarise
from ledger.services.core.bulk import paused_gc
from ledger.services.core.session import Ledger, transaction
from ledger.services.core.statistics import analyze_written


@dataclass(frozen=True)
class PeriodView:
    """A closed period: its current ``revision`` with edition and when it was computed, how
    many players it rated and games are recorded, and every revision of the period
    (``revisions``, oldest first, with reason, who and what superseded each)."""

    period: str
    edition: str
    closed_at: dt.datetime
    players: int
    games: int
    revision: int = 1
    revisions: tuple[RevisionView, ...] = ()
    #: The rating pool closed (docs/RULES.md §9).
    pool: RatingPool = STANDARD


#: The results a rule may rate (FIDE B.02 §5.1: forfeits are recorded, never rated).
_PLAYED_RESULTS = tuple(r.value for r in Result if r.is_played)


def _earliest_open(session: Session, pool: RatingPool = STANDARD) -> Period | None:
    """The earliest open period of ``pool`` with games of that pool from 2022-01 on, or with
    carried corrections waiting for it (``carried.first_owed``), or None (periods before
    ``FIRST_RATED_PERIOD`` are recorded, never rated, and never block a close). In rapid and
    blitz only games a rule may rate count (valid, played, not a forfeit, the players' times
    equal): an Armageddon of different times, a forfeit or a game of less than one move rates
    nobody, so it does not make ``period close`` close that pool and publish its list (empty,
    when nobody is rated there yet; docs/pools.md). A standard period with games closes
    whatever they are, as always."""
    return _earliest_opens(session, [pool])[pool]


def _earliest_opens(session: Session, pools: Sequence[RatingPool]
                    ) -> dict[RatingPool, Period | None]:
    """``_earliest_open`` of each of ``pools``, in their order: standard's by its own query
    (the first of ``ix_games_period``'s open periods), rapid's and blitz's by one query of
    both (no index has ``pool``: each reads every game of the open periods, 0.01 s at M)."""
    last = {p: last_closed_period(session, p) for p in pools}
    earliest: dict[str, str | None] = dict.fromkeys(pools)
    rated = Game.period >= str(FIRST_RATED_PERIOD)
    if STANDARD in pools:
        open_games = select(func.min(Game.period)).where(rated, Game.pool == STANDARD)
        if last[STANDARD] is not None:
            open_games = open_games.where(Game.period > str(last[STANDARD]))
        earliest[STANDARD] = session.scalar(open_games)
    others = [(Game.pool == p) & (Game.period > str(last[p])) if last[p] is not None
              else Game.pool == p for p in pools if p != STANDARD]
    if others:
        earliest.update({p: first for p, first in session.execute(
            select(Game.pool, func.min(Game.period))
            .where(rated, or_(*others), Game.status == "valid", Game.played.is_(True),
                   Game.unequal_times.is_(False), Game.result.in_(_PLAYED_RESULTS))
            .group_by(Game.pool))})
    found = {}
    for p in pools:
        owed = first_owed(session, last[p], p)
        games = [Period.parse(e)] if (e := earliest[p]) is not None else []
        found[p] = min([*games, *([owed] if owed is not None else [])], default=None)
    return found


def _named(pool: RatingPool) -> str:
    return "" if pool == STANDARD else f" in the {pool} pool"


def _target_period(session: Session, named: Period | None,
                   pool: RatingPool = STANDARD,
                   opened: Mapping[RatingPool, Period | None] | None = None) -> Period:
    """The period to close in ``pool``: ``named``, or the earliest open one with games
    (``_earliest_open``; ``opened``: each pool's when the caller has them)."""
    last = last_closed_period(session, pool)
    earliest = _earliest_open(session, pool) if opened is None else opened[pool]
    if named is None:
        if earliest is None:
            raise PeriodError(f"nothing to close{_named(pool)}: no games are recorded in open "
                              "periods")
        return earliest
    if last is not None and named <= last:
        raise PeriodError(f"period {named} is already closed{_named(pool)} (periods up to "
                          f"{last} are closed)")
    if earliest is not None and earliest < named:
        raise PeriodError(f"period {earliest} has games (or carried corrections){_named(pool)} "
                          f"and is not closed yet: close it before {named}")
    return named


def _pools_to_close(session: Session, named: Period | None,
                    pool: RatingPool | None) -> tuple[Period, list[RatingPool]]:
    """The period a close closes and its pools: ``pool`` alone when given; else every pool
    whose earliest open period is that period (``named``, or the earliest of every pool's),
    standard when none is (a named period without games: ``--empty``)."""
    if pool is not None:
        return _target_period(session, named, pool), [pool]
    opened = _earliest_opens(session, POOLS)
    earliest = {p: e for p, e in opened.items() if e is not None}
    if named is None:
        if not earliest:
            raise PeriodError("nothing to close: no games are recorded in open periods")
        named = min(earliest.values())
    pools = [p for p in POOLS if earliest.get(p) == named] or [STANDARD]
    for p in pools:
        _target_period(session, named, p, opened)
    return named, pools


def close_period(engine: Engine, period: str | None = None, *, dry_run: bool = False,
                 edition: Edition | None = None, today: dt.date | None = None,
                 actor: Actor | None = None, empty: bool = False,
                 pool: RatingPool | None = None, leave_pending: bool = False) -> CloseReport:
    """``ledger period close``: rate the earliest open period (or ``period``, which must be it).

    Refuses (``PeriodError``, not for a ``dry_run``) while a submission on the web dated in
    that period or before is pending review (``pending_submissions``), unless
    ``leave_pending``: accepted later, its games are late results.

    Pools (docs/RULES.md §9): without ``pool``, every pool with games (or carried corrections)
    in that period is closed, in the one transaction (all or nothing: a refusal in one pool
    closes none), each writing its own revision, ``period.close`` change and list with its own
    ranks; the report returned is the first pool's, the others in ``CloseReport.others``.
    With ``pool``, that pool alone (its own order of periods).

    Writes, in one transaction, revision 1 of the period (or the next one after a reopen:
    ``services.close.rating.write_revision``) with its edition and its ``period.close`` change by
    ``actor`` (None: called from code, ``Actor.from_code``): one result row per rated player and
    one audit row per game and player, the initial ratings of unrated players whose pool reached
    5 games (with the pool's games), the ratings that fell below the floor and the list it
    publishes (``list_entries``); ``dry_run`` computes everything and writes nothing.
    A ``dry_run`` of the period ``today`` is in is a preview (``CloseReport.preview``: the
    period has not ended; ``list --preview`` publishes nothing from it).
    Raises ``PeriodError`` for a closed period, a later period while an earlier one has games, a
    period before 2022-01, a period that has not ended by ``today`` (default: the date today,
    ``core.clock.today``) unless previewed, or
    a named period with no games unless ``empty`` (closing it publishes the list unchanged and
    locks it and every period before it: most often a typo or a file not imported yet).
    ``edition`` overrides the edition in force (for tests only). On PostgreSQL the results,
    audit rows and list lines written are analyzed after the commit when they were many
    (``_analyze_results``: what is read next is planned with their statistics).
    """
    named = Period.parse(period) if period is not None else None
    with paused_gc(), transaction(engine, dry_run=dry_run) as session:
        target, pools = _pools_to_close(session, named, pool)
        _closable(target, today or clock.today(), dry_run=dry_run)
        _refuse_pending(session, target, dry_run or leave_pending)
        if not empty and named is not None and _earliest_open(session, pools[0]) != named:
            raise PeriodError(
                f"period {named} has no games to rate{_named(pools[0])}: closing it would "
                f"publish the list unchanged and lock {named} and every period before it (a "
                "game of it reported later would then be late); give --empty to close it anyway")
        reports = [_close(session, target, dry_run=dry_run,
                          edition=edition, today=today or clock.today(),
                          actor=actor or Actor.from_code("close_period"), pool=p)
                   for p in pools]
        reports[0].others = reports[1:]
    if not dry_run:
        _analyze_results(engine, reports)
    return reports[0]


def _analyze_results(engine: Engine, reports: list[CloseReport]) -> None:
    """On PostgreSQL, after the commit, the tables a close of ``reports`` filled (a result, an
    audit row and a list line a rated player) analyzed when it wrote many rows into them
    (``core.statistics.analyze_written``)."""
    rated = sum(len(r.players) for r in reports)
    analyze_written(engine, dict.fromkeys(("period_results", "period_audits", "list_entries"),
                                          rated))


def close_through(engine: Engine, through: str, *, dry_run: bool = False,
                  today: dt.date | None = None, actor: Actor | None = None,
                  leave_pending: bool = False) -> ThroughReport:
    """``ledger period close --through YYYY-MM``: close every open period with games up to
    ``through``, in order, each in its own transaction (as ``close_period`` would one by one),
    stopping at the first refusal (a period with pending submissions too, unless
    ``leave_pending``: ``close_period``). With ``dry_run`` they are computed in one transaction that is
    rolled back, so each later period sees the earlier ones closed and nothing is written.
    Each period closed writes its own ``period.close`` change by ``actor``.

    Returns the reports of the periods closed and, if one was refused, that period and why
    (``ThroughReport.refused``); the periods closed before it stay closed. Raises ``PeriodError``
    when no open period up to ``through`` has games, and ``InvalidInput`` for a malformed
    ``through``.
    """
    last = Period.parse(through)
    today = today or clock.today()
    report = ThroughReport(through=str(last))
    with contextlib.ExitStack() as stack:
        shared = stack.enter_context(transaction(engine, dry_run=True)) if dry_run else None
        while True:
            with contextlib.ExitStack() as own:
                own.enter_context(paused_gc())
                session = shared or own.enter_context(transaction(engine))
                opened = [e for e in _earliest_opens(session, POOLS).values() if e is not None]
                target = min(opened, default=None)
                if target is None or target > last:
                    break
                try:
                    with session.begin_nested():
                        _refuse_pending(session, target, dry_run or leave_pending)
                        _, pools = _pools_to_close(session, target, None)
                        reports = [_close(session, target, dry_run=False, today=today,
                                          actor=actor or Actor.from_code("close_through"),
                                          shown_as_dry_run=dry_run, pool=p) for p in pools]
                        reports[0].others = reports[1:]
                        report.closed.append(reports[0])
                except PeriodError as exc:
                    report.refused = (str(target), str(exc))
                    break
    if not dry_run and report.closed:
        _analyze_results(engine, [r for first in report.closed for r in (first, *first.others)])
    if not report.closed and report.refused is None:
        raise PeriodError(f"nothing to close through {last}: no games are recorded in open "
                          f"periods up to {last}")
    return report


def pending_submissions(session: Session, target: Period) -> list[int]:
    """The ids of the pending submissions (``ledger serve``) whose games fall in ``target`` or
    a period before it (their checked ``periods``: ``services.submissions.checking``), in
    order. A submission whose file has errors names no period and holds no close."""
    rows = session.execute(select(Submission.id, Submission.findings)
                           .where(Submission.state == "pending").order_by(Submission.id))
    return [sid for sid, findings in rows
            if any(p <= str(target) for p in json.loads(findings or "{}").get("periods", []))]


def _refuse_pending(session: Session, target: Period, leave: bool) -> None:
    """``PeriodError`` when submissions dated in ``target`` or before are pending (unless
    ``leave``)."""
    waiting = [] if leave else pending_submissions(session, target)
    if waiting:
        raise PeriodError(
            f"period {target}: submission{'' if len(waiting) == 1 else 's'} "
            f"{', '.join(map(str, waiting))} dated in it or before "
            f"{'is' if len(waiting) == 1 else 'are'} pending review; accept or reject them "
            "first, or give --leave-pending (accepted later, their games are late results)")


def preview_close(session: Session, pool: RatingPool, *, today: dt.date) -> CloseReport:
    """Inside the caller's transaction, which must be rolled back (``list --preview``: a
    ``transaction(..., dry_run=True)``): close the earliest open period of ``pool`` as
    ``period close --dry-run`` would rate it (a preview when ``today`` is in it), writing its
    revision and list so that they can be read back before the rollback. Returns the report
    (``dry_run`` True, ``revision`` the one its list is written as). Raises ``PeriodError`` as
    ``close_period`` does: nothing to close, a period before 2022-01."""
    target = _target_period(session, None, pool)
    return _close(session, target, dry_run=False, today=today,
                  actor=Actor.from_code("preview_close"), shown_as_dry_run=True, pool=pool)


def _closable(target: Period, today: dt.date, *, dry_run: bool = False) -> bool:
    """Whether closing ``target`` on ``today`` is a preview: True for a ``dry_run`` of the
    period ``today`` is in (it has not ended: games may still come), False for a period that
    has ended. Raises ``PeriodError`` when ``target`` cannot be closed whatever its games: it
    has not ended by ``today`` (and is not previewed), or no rule edition the ledger implements
    covers it (before 2022-01). FIDE B.02 §7.1: a rating period is a calendar month, rated
    once it is over."""
    current = target.start <= today <= target.end
    if target.end >= today and not (dry_run and current):
        hint = "; `period close --dry-run` previews it" if current else ""
        raise PeriodError(f"period {target} has not ended yet (its last day is {target.end}); "
                          f"it can be closed from {target.next().start}{hint}")
    edition_for(target)
    return current


def _close(session: Session, target: Period, *, dry_run: bool, today: dt.date,
           actor: Actor, edition: Edition | None = None,
           shown_as_dry_run: bool = False, pool: RatingPool = STANDARD) -> CloseReport:
    """Rate ``target`` of ``pool`` inside ``session`` and, unless ``dry_run``, write its next
    revision with its change (``close_period``). ``shown_as_dry_run``: written into a
    transaction the caller rolls back. A dry run of several pools numbers each pool's revision
    in the order written."""
    preview = _closable(target, today, dry_run=dry_run or shown_as_dry_run)
    with sqlite_cache(session.connection(), SQLITE_CLOSE_CACHE_KIB):  # one pass: a small cache
        rated = rate(session, target, edition or edition_for(target), pool=pool)
        report = report_of(session, rated, dry_run or shown_as_dry_run)
        report.preview = preview
        report.revision = next_revision(session, target, pool)
        if not dry_run:
            change = record_change(session, actor, "period.close", "period", target)
            written = write_revision(session, rated, report.revision, change.id, None)
            summarise(change, {"revision": report.revision, "edition": rated.edition.value,
                               "pool": pool, "games": rated.game_count,
                               "players_rated": len(rated.results),
                               "initial_ratings": len(rated.initial),
                               "floor_drops": len(rated.drops),
                               "list_entries": written["list_entries"]})
    return report


def list_periods(engine: Ledger) -> list[PeriodView]:
    """``ledger period list``: closed periods, oldest first, each pool's close of a period
    (standard, rapid, blitz) with its current revision and every revision it has had in that
    pool (a reopened period, open now, is not listed)."""
    with transaction(engine, write=False) as session:
        views = []
        for pool in POOLS:
            rated = dict(session.execute(select(PeriodResultRow.period, func.count())
                                         .where(current(PeriodResultRow, pool))
                                         .group_by(PeriodResultRow.period)).all())
            games = dict(session.execute(select(Game.period, func.count())
                                         .where(Game.status == "valid", Game.pool == pool)
                                         .group_by(Game.period)).all())
            by_period: dict[str, list[RevisionView]] = {}
            for view in revision_views(session, None, pool):
                by_period.setdefault(view.period, []).append(view)
            for period, revisions in by_period.items():
                now = next((r for r in revisions if r.current), None)
                if now is not None:
                    views.append(PeriodView(period, now.edition, now.closed_at,
                                            rated.get(period, 0), games.get(period, 0),
                                            now.revision, tuple(revisions), pool))
        return sorted(views, key=lambda v: (v.period, POOLS.index(v.pool)))
