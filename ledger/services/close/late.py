"""Late results (docs/RULES.md §1, docs/CORRECTIONS.md §5): a game dated in a closed period.

A game belongs to the period its event ended in (a game without an event: its own date's): its
*natural* period. When that period is closed, the game is late: by default (FIDE's way) it goes
into the earliest open period, keeping its real date, and is rated there with the ratings in
force at its event's start (the rating code reads them from the event's start date, wherever
the game is rated); the closed list stays as published. With ``--rerate`` it goes into its
natural period instead, and the closed periods are re-rated from there.

The earliest open period is the month after the last closed one (every period up to the last
closed one is closed, with or without games): also when no open period has a game yet. A ledger
that has closed no period (of the game's pool) has no earliest open period: every period is
open, nothing is late, and a new ledger records last year's tournament in its own period. A game
is marked late wherever it is listed when its ``period`` is after its natural period.

A date more than ``LATE_PERIODS`` periods before the earliest open period is far more likely a
year typed wrong (2025-12-02 for 2026-12-02) than a result reported so late: ``game add`` and an
import refuse it (``too_late``) unless ``--late`` (or ``--rerate``) says it is meant.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy.orm import Session

from ledger.domain import STANDARD, Period, RatingPool
from ledger.errors import PeriodError
from ledger.services.close.revisions import current_revision
from ledger.services.close.state import FIRST_RATED_PERIOD, is_closed, last_closed_period


def natural_period(event_end: dt.date | None, date: dt.date) -> Period:
    """The period a game belongs to by its dates: its event's end (a game without an event: its
    own ``date``), RULES.md §1."""
    return Period.of(event_end or date)


def is_late(period: str | Period, event_end: dt.date | None, date: dt.date) -> bool:
    """True when a game recorded in ``period`` is a late result: ``period`` is after its
    natural period."""
    rated_in = Period.parse(period) if isinstance(period, str) else period
    return rated_in > natural_period(event_end, date)


def earliest_open(session: Session, pool: RatingPool = STANDARD) -> Period | None:
    """The earliest open period of ``pool``: the month after the last one that pool closed;
    None when it has closed none (then no result of the pool is late). Each pool closes its own
    periods (docs/RULES.md §9)."""
    last = last_closed_period(session, pool)
    return last.next() if last is not None else None


#: How many periods before the earliest open one a game may be dated and taken as a late result
#: without ``--late``: a result reported a month or two late is common; a year off is a typo.
LATE_PERIODS = 2


def too_late(day: dt.date, earliest: Period | None) -> str | None:
    """Why a game dated ``day`` is refused without ``--late`` when ``earliest`` (None: nothing
    closed, nothing refused) is its pool's earliest open period: its period lies more than
    ``LATE_PERIODS`` periods before ``earliest`` (``earliest`` 2026-12: 2026-10 is taken as a
    late result, 2026-09 is refused). None when it is not, and for a period before
    ``FIRST_RATED_PERIOD``: never closed, its games are recorded there, never late."""
    dated = Period.of(day)
    if earliest is None or dated < FIRST_RATED_PERIOD:
        return None
    behind = (earliest.year - dated.year) * 12 + earliest.month - dated.month
    if behind <= LATE_PERIODS:
        return None
    return (f"{day} is {behind} periods before the earliest open period {earliest} (periods up "
            f"to {earliest.previous()} are closed): is the year or month wrong? If the date is "
            f"right, say so with --late: the game is a late result, rated in {earliest}")


def placement(session: Session, natural: Period, *, rerate: bool,
              pool: RatingPool = STANDARD) -> tuple[Period, bool]:
    """Where a game (or an event's games) of ``natural`` period in ``pool`` goes, and whether it
    is late (``place`` with the last closed period of that pool: each pool closes its own
    periods, docs/RULES.md §9)."""
    return place(natural, last_closed_period(session, pool), rerate=rerate)


def place(natural: Period, last_closed: Period | None, *, rerate: bool) -> tuple[Period, bool]:
    """Where a game of ``natural`` period goes when periods up to ``last_closed`` are closed, and
    whether it is late: its natural period while that is open; when it is closed, the earliest
    open period (the month after ``last_closed``), or with ``rerate`` its natural period still
    (the caller re-rates from there)."""
    if not is_closed(natural, last_closed):
        return natural, False
    if rerate:
        return natural, True
    assert last_closed is not None  # natural is closed, so some period is
    return last_closed.next(), True


def check_own_list(session: Session, period: Period, pool: RatingPool = STANDARD) -> None:
    """Refuse (``PeriodError``) to put a late result into closed ``period`` of ``pool`` with
    ``--rerate`` when the period published no list of its own in that pool (it had no game of
    the pool when a later period was closed): there is no revision to re-rate, so its late games
    go into the pool's earliest open period."""
    if current_revision(session, period, pool) is None:
        named = "" if pool == STANDARD else f" in the {pool} pool"
        raise PeriodError(f"rerate: period {period} is closed{named} but published no list of "
                          "its own (it had no game when a later period was closed), so it "
                          "cannot be re-rated: drop --rerate and the game goes into the "
                          "earliest open period")
