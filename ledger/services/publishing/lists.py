"""The rating list a closed period publishes (a player's rating history: ``histories``)."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, replace

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ledger.db.models import PeriodRevision, RatingPeriod
from ledger.domain import STANDARD, Period, RatingPool
from ledger.errors import InvalidInput, NotFound, PeriodError
from ledger.rules.kfactor import is_junior
from ledger.services.close.periods import preview_close
from ledger.services.close.revisions import current_revision, revision_views
from ledger.services.close.snapshots import ListRow, ranked, read_rows
from ledger.services.close.state import last_closed_period
from ledger.services.core import clock
from ledger.services.core.session import Ledger, transaction
from ledger.services.register.player_refs import MAX_ID

__all__ = ["ListRow", "ListSelection", "RatingList", "preview_list", "published_period",
           "rating_list"]


@dataclass(frozen=True)
class RatingList:
    """The list published by closing ``period``, in force from ``in_force_from`` (YYYY-MM-DD),
    as ``revision`` of the period published it."""

    period: str
    in_force_from: str
    rows: list[ListRow]
    revision: int = 1
    #: The period's current revision: None when the period is reopened (not closed now).
    current: int | None = 1
    #: The rating pool of the list (docs/RULES.md §9).
    pool: RatingPool = STANDARD
    #: A list no close has published: the one closing ``period`` would publish today
    #: (``preview_list``); ``ended``: whether that period has ended (else games may still come).
    preview: bool = False
    ended: bool = True

    @property
    def superseded(self) -> bool:
        """Whether this is not the list the period stands with now (an earlier revision, or
        any revision of a reopened period)."""
        return self.current != self.revision

    def superseded_note(self) -> str | None:
        """What to tell a reader of a superseded list, or of a preview (None for the current
        one): which revision this is and where the current list is. Never part of the list
        itself, so the list stays byte for byte as it was published."""
        if self.preview:
            return (f"preview: the list closing {self.period} would publish today; nothing is "
                    "written" + ("" if self.ended else f" (the period has not ended: games "
                                                         f"still to come in {self.period} will "
                                                         "change it)"))
        if not self.superseded:
            return None
        now = (f"the current list is revision {self.current} (ledger list --period {self.period})"
               if self.current is not None else f"{self.period} is reopened: not closed now")
        return f"this is revision {self.revision} of the list of {self.period}, superseded; {now}"


@dataclass(frozen=True)
class ListSelection:
    """Which players a published list shows (``ledger list`` filters); None keeps everyone.

    - ``active``: leave out players flagged inactive (``rules.activity``);
    - ``federation``: three-letter code; ``sex``: "M" or "F" (unknown sex never matches);
    - ``junior``: 18 or under in the year of the list's date (born in or after that year - 18;
      unknown birth year: not a junior), as B.02 §8.3.3 counts a junior's age for K;
    - ``min_games``: at least this many rated games in the period;
    - ``top``: only ranks 1 to ``top`` after the other filters (a tie at the edge keeps everyone
      sharing that rank).
    """

    federation: str | None = None
    sex: str | None = None
    junior: bool = False
    min_games: int | None = None
    top: int | None = None
    active: bool = False

    def __post_init__(self) -> None:
        if self.sex is not None and self.sex not in ("M", "F"):
            raise InvalidInput(f"sex: {self.sex!r} must be M or F")
        if self.federation is not None and not re.fullmatch(r"[A-Z]{3}", self.federation):
            raise InvalidInput(f"federation: {self.federation!r} must be a three-letter code such as ENG")
        if self.min_games is not None and self.min_games < 0:
            raise InvalidInput(f"min-games: {self.min_games} must be 0 or more")
        if self.top is not None and self.top < 1:
            raise InvalidInput(f"top: {self.top} must be 1 or more")

    def keeps(self, row: ListRow, list_month: Period) -> bool:
        """Whether ``row`` passes every filter but ``top``, on the list in force in ``list_month``
        (junior: ``rules.kfactor.is_junior`` for that month, the K rules' own test)."""
        return ((self.federation is None or row.federation == self.federation)
                and (self.sex is None or row.sex == self.sex)
                and (not self.junior or is_junior(row.birth_year, list_month))
                and (self.min_games is None or row.games >= self.min_games)
                and not (self.active and row.inactive))


def published_period(session: Session, period: str | None,
                     pool: RatingPool = STANDARD) -> Period:
    """The closed period of ``pool`` whose list is asked for: ``period`` (YYYY-MM) or, for
    None, the latest closed. Raises ``PeriodError`` when none is closed, ``NotFound`` for a
    period not closed."""
    if period is None:
        last = last_closed_period(session, pool)
        if last is None:
            reopened = session.scalar(select(func.max(PeriodRevision.period))
                                      .where(PeriodRevision.pool == pool))
            if reopened is not None:
                earlier = [str(v.revision)
                           for v in revision_views(session, Period.parse(reopened), pool)]
                raise PeriodError(f"no period is closed now: {reopened} was reopened; the lists it "
                                  f"published before: ledger list --period {reopened} --revision "
                                  f"{' or '.join(earlier)}")
            raise PeriodError(f"no {pool} rating list yet: no period has been closed"
                              + ("" if pool == STANDARD else f" in the {pool} pool")
                              + " (`ledger period close`)")
        return last
    wanted = Period.parse(period)
    if session.get(RatingPeriod, (str(wanted), pool)) is None:
        last = last_closed_period(session, pool)
        if last is not None and wanted < last:
            raise NotFound(f"period: {wanted} published no rating list of its own (it had no "
                           f"games when a later period was closed); see `ledger period list`")
        earlier = [str(v.revision) for v in revision_views(session, wanted, pool)]
        if earlier:
            raise NotFound(f"period: {wanted} was reopened and is not closed now; the lists it "
                           f"published before: --revision {' or '.join(earlier)}")
        raise NotFound(f"period: {wanted} is not closed, so it has published no rating list")
    return wanted


def rating_list(engine: Ledger, period: str | None = None,
                selection: ListSelection | None = None, *, active_only: bool = False,
                revision: int | None = None, pool: RatingPool = STANDARD) -> RatingList:
    """``ledger list``: the list published by closing ``period`` (default: the latest closed),
    as its current revision published it, or as ``revision`` did (``--revision N``, any
    revision, superseded ones and those of a reopened period too): the snapshot stored by the
    close (``services.close.snapshots``), so the names, federations and flags are those that stood.

    Every player with a published rating (only those ``selection`` keeps), by rating then name;
    equal ratings share a rank, counted within the selection (ranks count the players shown).
    ``active_only`` is ``ListSelection(active=True)``: it leaves out players flagged inactive.
    ``pool``: the rating pool whose list it is (docs/RULES.md §9; each pool's list has its own
    ranks); ``revision``: that pool's revision N of the period (numbered per period and pool).
    Raises ``PeriodError`` when no period is closed, ``NotFound`` for a period not closed or a
    revision it does not have, ``InvalidInput`` for a revision below 1.
    """
    with transaction(engine, write=False) as session:
        closed, shown = list_revision(session, period, revision, pool)
        if active_only:
            selection = replace(selection or ListSelection(), active=True)
        rows = _selected(read_rows(session, closed, shown, pool), selection, closed.next())
        return RatingList(str(closed), str(closed.next().start), rows, shown,
                          current_revision(session, closed, pool), pool)


def _selected(rows: list[ListRow], selection: ListSelection | None,
              following: Period) -> list[ListRow]:
    """The ``rows`` of a list in force in ``following`` that ``selection`` keeps, ranked again
    among themselves, ``top`` last (None: every row as stored)."""
    if selection is None:
        return rows
    rows = ranked([r for r in rows if selection.keeps(r, following)])
    if selection.top is not None:
        rows = [r for r in rows if r.rank <= selection.top]
    return rows


def preview_list(engine: Ledger, selection: ListSelection | None = None, *,
                 pool: RatingPool = STANDARD, today: dt.date | None = None) -> RatingList:
    """``ledger list --preview``: the list closing the earliest open period of ``pool`` would
    publish on ``today`` (default ``core.clock.today``), as ``rating_list`` shows a published
    one (``selection`` the same filters), computed by the close itself in a transaction that is
    rolled back (``services.close.periods.preview_close``): nothing is written, not even to the
    audit log. ``RatingList.preview`` is True, ``ended`` False when the period has not ended.
    Raises ``PeriodError`` when nothing is open to close, ``ReadOnlyLedger`` for a ledger that
    cannot be written (the close writes, then rolls back)."""
    with transaction(engine, dry_run=True) as session:
        report = preview_close(session, pool, today=today or clock.today())
        period = Period.parse(report.period)
        rows = _selected(read_rows(session, period, report.revision, pool), selection, period.next())
        return RatingList(str(period), str(period.next().start), rows, report.revision,
                          report.revision, pool, preview=True, ended=not report.preview)


def list_revision(session: Session, period: str | None, revision: int | None,
                  pool: RatingPool = STANDARD) -> tuple[Period, int]:
    """The list asked for by ``--period`` (None: the latest closed) and ``--revision`` (None:
    the period's current revision) in ``pool``: (period, revision), checked (the errors of
    ``published_period``, and ``NotFound`` for a revision the period does not have)."""
    if revision is not None:
        return _period_revision(session, period, revision, pool)
    closed = published_period(session, period, pool)
    return closed, current_revision(session, closed, pool) or 1


def _period_revision(session: Session, period: str | None, revision: int,
                     pool: RatingPool = STANDARD) -> tuple[Period, int]:
    """The period (``period``, default the latest one closed, or reopened since) and
    ``revision`` asked for, checked."""
    if revision < 1:
        raise InvalidInput(f"revision: {revision} must be 1 or more")
    if period is not None:
        wanted = Period.parse(period)
    else:  # the latest period with a revision, closed now or reopened
        latest = session.scalar(select(func.max(PeriodRevision.period))
                                .where(PeriodRevision.pool == pool))
        if latest is None:
            raise PeriodError("no rating list yet: no period has been closed (`ledger period "
                              "close`)")
        wanted = Period.parse(latest)
    found = (session.get(PeriodRevision, (str(wanted), pool, revision)) if revision <= MAX_ID
             else None)
    if found is None:
        known = [v.revision for v in revision_views(session, wanted, pool)]
        have = (f"it has revision(s) {', '.join(map(str, known))}" if known
                else "it has never been closed")
        raise NotFound(f"revision: period {wanted} has no revision {revision} ({have})")
    return wanted, revision
