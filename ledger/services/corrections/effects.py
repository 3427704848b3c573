"""How a correction of the facts takes effect (docs/CORRECTIONS.md §5).

A correction (``game void``, ``game correct``, ``import --replace``, a late ``game add`` or
import with ``--rerate``) changes facts inside one transaction. When every period it touches is
open, that is all: nothing derived exists yet. When it touches a closed period it must be told
how the correction takes effect (``Mode``):

- ``--in-next-period`` (FIDE's way: the published list stands): for each closed period it
  touches (the *origin*) and each player, the exact change (hundredths) the origin gives with
  today's facts after the correction, less the one it gives with today's facts just before it,
  is carried into the earliest open period (``carried_corrections``), where the close adds it
  before the one rounding. When nothing else changed since the origin was rated, the "before" is
  exactly the stored change. It cannot express a change to an initial rating, a floor drop or a
  list adjustment, nor correct a player unrated in the earliest open period: those are refused
  (use ``--rerate``).
- ``--rerate``: every closed period from the earliest one it touches is re-rated with today's
  facts (``rerate.rerate_in``), each as its next revision.

``Effects`` is used in that order: ``touch`` the periods before the facts change, ``carry`` after
each change, ``finish`` at the end.

Pools (docs/RULES.md §9, docs/CORRECTIONS.md §5 "In each pool"): a correction takes effect in
the pool of the games it touches: whether a period is closed, its current revision, the rating
compared, the earliest open period a carried correction applies in and the closes re-rated are
that pool's; the other pools' closes stand. Closed periods of two pools in one correction are
refused.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from ledger.db.models import (
    CarriedCorrection,
    InitialRating,
    PeriodResult,
    PeriodRevision,
    Player,
)
from ledger.domain import STANDARD, Actor, Period, RatingPool, parse_pool
from ledger.errors import PeriodError, UsageError
from ledger.rules.editions import Edition
from ledger.services.close.late import earliest_open
from ledger.services.close.rating import Rated, derived_rows, rate
from ledger.services.close.rerate import PeriodRerate, rerate_in
from ledger.services.close.revisions import current, current_revision
from ledger.services.close.state import is_closed, last_closed_period, load_histories


class Mode(enum.Enum):
    """How a correction of a closed period takes effect."""

    NEXT_PERIOD = "in-next-period"
    RERATE = "rerate"


def mode_of(in_next_period: bool, rerate: bool) -> Mode | None:
    """The mode ``--in-next-period`` / ``--rerate`` ask for (None: neither). Raises
    ``UsageError`` (exit 2) for both."""
    if in_next_period and rerate:
        raise UsageError("--in-next-period and --rerate: give one of them, not both")
    if in_next_period:
        return Mode.NEXT_PERIOD
    return Mode.RERATE if rerate else None


@dataclass(frozen=True)
class CarriedView:
    """One carried correction: ``hundredths`` added to ``name``'s exact change in
    ``applies_in`` before its one rounding, because ``origin_period`` (as ``origin_revision``
    rated it) gives ``gives`` hundredths with the corrected facts where it gave ``gave`` (both
    with today's facts; ``stored``: the exact change that revision stored, None: no result)."""

    player_id: int
    name: str
    origin_period: str
    origin_revision: int
    applies_in: str
    hundredths: int
    gave: int
    gives: int
    stored: int | None


@dataclass
class Effect:
    """How a correction took effect: ``mode`` (``open``: only open periods touched;
    ``in-next-period``; ``rerate``), the closed periods it touched, the carried corrections
    written (``in-next-period``) and the periods re-rated (``rerate``), all of ``pool`` (the
    rating pool whose closed periods it touched; docs/RULES.md §9)."""

    mode: str
    closed: list[str] = field(default_factory=list)
    carried: list[CarriedView] = field(default_factory=list)
    rerated: list[PeriodRerate] = field(default_factory=list)
    pool: RatingPool = STANDARD


#: What the refusal of a closed-period correction without a mode says.
CHOOSE = ("say how the correction takes effect: --in-next-period (FIDE's way: the published "
          "list stands and the difference is carried into {next}, before its one rounding) or "
          "--rerate (re-rate {period} and every later closed period)")


class Effects:
    """The effect of one correction (one or more changes) inside ``session``, in ``mode``."""

    def __init__(self, session: Session, mode: Mode | None, what: str) -> None:
        self.session, self.mode, self.what = session, mode, what
        self.effect = Effect("open")
        self._before: dict[Period, tuple[int, Rated]] = {}
        self._players: set[int] = set()
        #: The pool whose closed periods the correction touches (None: none touched yet).
        self.pool: RatingPool | None = None
        #: Players to whom nothing is carried (withdrawn by the correction: registered by
        #: mistake, ``imports revert``).
        self.leave_out: set[int] = set()

    @property
    def _pool(self) -> RatingPool:
        return self.pool or STANDARD

    def touch(self, periods: Iterable[Period], players: Iterable[int] = (),
              pool: str = STANDARD) -> None:
        """Before the facts change: the periods the change touches (the game's period before and
        after), the players it touches and the game's ``pool`` (docs/RULES.md §9: whether a
        period is closed, its list and its revision are the pool's own). A period the pool has
        closed, without a mode, is refused (``PeriodError``, naming it and the choice); with
        ``--in-next-period`` it is rated now in the pool, as it stands, for ``carry`` to
        compare; a closed period with no list of its own in the pool (it had no game of the
        pool when a later one closed) cannot take a correction (``PeriodError``).

        One correction takes effect in one pool: touching closed periods of a second pool is
        refused (``PeriodError`` naming both)."""
        periods = list(periods)
        rating_pool = parse_pool(pool)
        last = last_closed_period(self.session, rating_pool)
        closed = sorted({p for p in periods if is_closed(p, last)})
        if self.pool is None:
            self.effect.pool = rating_pool
        if not closed:
            return
        if self.pool is not None and self.pool != rating_pool:
            raise PeriodError(f"{self.what} touches closed periods of two pools, {self.pool} "
                              f"({', '.join(self.effect.closed)}) and {rating_pool} "
                              f"({', '.join(map(str, closed))}): correct each pool's games "
                              "on their own")
        if self.mode is None:
            named = "" if rating_pool == STANDARD else f" of the {rating_pool} pool"
            raise PeriodError(f"{self.what} is in closed period {closed[0]}{named}, whose list "
                              "is published: " + CHOOSE.format(
                                  next=last.next() if last else "-", period=closed[0]))
        self.pool = self.effect.pool = rating_pool
        self._players |= set(players)
        for period in closed:
            if str(period) not in self.effect.closed:
                self.effect.closed.append(str(period))
            revision = current_revision(self.session, period, rating_pool)
            if revision is None:
                named = "" if rating_pool == STANDARD else f" in the {rating_pool} pool"
                raise PeriodError(f"{self.what}: period {period} is closed{named} but published "
                                  "no list of its own (it had no game when a later period was "
                                  "closed), so no correction can be rated in it")
            if self.mode is Mode.NEXT_PERIOD and period not in self._before:
                self._before[period] = (revision, self._rate(period, revision))
        self.effect.closed.sort()
        self.effect.mode = self.mode.value

    def _rate(self, period: Period, revision: int) -> Rated:
        edition = self.session.get_one(PeriodRevision,
                                       (str(period), self._pool, revision)).edition
        return rate(self.session, period, Edition(edition), pool=self._pool)

    def carry(self, change_id: int) -> None:
        """After change ``change_id`` wrote its facts (flushed): with ``--in-next-period``, the
        carried corrections of every closed period touched, written by that change. Raises
        ``PeriodError`` when the change alters what a carried correction cannot express."""
        if self.mode is not Mode.NEXT_PERIOD or not self._before:
            return
        self.session.flush()
        applies_in = earliest_open(self.session, self._pool)
        assert applies_in is not None  # a period is closed
        found: list[tuple[Period, int, int, int, int, int | None]] = []
        for period, (revision, before) in sorted(self._before.items()):
            after = self._rate(period, revision)
            self._refuse_what_cannot_be_carried(period, before, after)
            stored = {r["player_id"]: r["change_hundredths"]
                      for r in _stored_results(self.session, period, revision, self._pool)}
            gave = {pid: r.change_hundredths for pid, r in before.results.items()}
            gives = {pid: r.change_hundredths for pid, r in after.results.items()}
            for pid in sorted((gave.keys() | gives.keys()) - self.leave_out):
                amount = gives.get(pid, 0) - gave.get(pid, 0)
                if amount:
                    found.append((period, revision, pid, amount, gave.get(pid, 0),
                                  stored.get(pid)))
            self._before[period] = (revision, after)
        self._check_rated_in(applies_in, {pid for _, _, pid, *_ in found})
        names = dict(self.session.execute(select(Player.id, Player.name).where(
            Player.id.in_({pid for _, _, pid, *_ in found}))).all())
        for period, revision, pid, amount, gave_h, stored_h in found:
            self.session.add(CarriedCorrection(
                change_id=change_id, player_id=pid, origin_period=str(period),
                origin_pool=self._pool, origin_revision=revision, applies_in=str(applies_in),
                hundredths=amount))
            self.effect.carried.append(CarriedView(
                pid, names[pid], str(period), revision, str(applies_in), amount, gave_h,
                gave_h + amount, stored_h))
        self.session.flush()

    def _refuse_what_cannot_be_carried(self, period: Period, before: Rated,
                                       after: Rated) -> None:
        old, new = derived_rows(before, 0), derived_rows(after, 0)
        for table, what in (("initial_ratings", "an initial rating"),
                            ("initial_rating_games", "an initial rating's pool"),
                            ("rating_floor_drops", "a drop below the rating floor"),
                            ("rating_adjustments", "a list adjustment")):
            if _keyed(old[table]) != _keyed(new[table]):
                raise PeriodError(f"{self.what}: the correction changes {what} of {period}, "
                                  "which a carried correction cannot express: use --rerate")
        later = self.session.scalar(
            select(InitialRating.player_id).where(
                InitialRating.period > str(period), current(InitialRating, self._pool),
                InitialRating.player_id.in_(self._players)).limit(1))
        if later is not None:
            raise PeriodError(f"{self.what}: player #{later} has an initial rating computed in a "
                              f"closed period after {period}, which may count this game: a "
                              "carried correction cannot change it: use --rerate")

    def _check_rated_in(self, applies_in: Period, players: set[int]) -> None:
        """Refuse a carried correction for a player unrated on the list in force for
        ``applies_in`` (no rating to correct)."""
        if not players:
            return
        histories = load_histories(self.session, sorted(players), through=applies_in.previous(),
                                   pool=self._pool)
        unrated = sorted(pid for pid, h in histories.items() if h.rating(applies_in) is None)
        if unrated:
            raise PeriodError(f"{self.what}: player #{unrated[0]} is unrated on the list in "
                              f"force for {applies_in}, so no correction can be carried to "
                              "them: use --rerate")

    def finish(self, why: str, who: Actor) -> Effect:
        """After every change: with ``--rerate``, re-rate every closed period from the earliest
        one touched (one ``period.rerate`` change each). Returns the ``Effect``."""
        if self.mode is Mode.RERATE and self.effect.closed:
            self.session.flush()
            self.effect.rerated = rerate_in(self.session, Period.parse(self.effect.closed[0]),
                                            why, who, self._pool)
        return self.effect


def _keyed(rows: list[dict[str, object]]) -> list[tuple[object, ...]]:
    return sorted(tuple(sorted((k, str(v)) for k, v in r.items())) for r in rows)


def _stored_results(session: Session, period: Period, revision: int,
                    pool: RatingPool) -> list[dict[str, int]]:
    return [{"player_id": pid, "change_hundredths": h} for pid, h in session.execute(
        select(PeriodResult.player_id, PeriodResult.change_hundredths).where(
            PeriodResult.period == str(period), PeriodResult.pool == pool,
            PeriodResult.revision == revision))]
