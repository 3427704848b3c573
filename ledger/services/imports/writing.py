"""Writing what an import keeps: ``add_games`` inserts the games of one event (or the games
without one) through the driver's executemany, placing each in its period (late results:
``services.close.late``), and ``RatingChecks`` counts the games a close will rate and warns of
ratings that differ from the ledger's. Driven by ``services.imports.games``."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, cast

from sqlalchemy import Table
from sqlalchemy.orm import Session

from ledger.db.models import Game
from ledger.db.models.base import utcnow
from ledger.db.models.games import IMPORTED_GAME_COLUMNS
from ledger.db.rows import binders, id_rows, insert_rows
from ledger.domain import STANDARD, Period, RatedGame, RatingPool, round_key
from ledger.errors import Problem
from ledger.formats.records import FileGame
from ledger.rules.pools import GAP_REASON, gap_rule_applies, gap_rule_excludes
from ledger.services.close.close_report import not_rated_reason
from ledger.services.close.in_force import ratings_at
from ledger.services.close.late import natural_period, place
from ledger.services.close.state import (
    FIRST_RATED_PERIOD,
    is_closed,
    last_closed_period,
    ratings_period,
)
from ledger.services.core.audit import written_by
from ledger.services.imports.game_pools import GamePool
from ledger.services.imports.report import (
    NEVER_RATED,
    ImportReport,
    LateRecord,
    Paired,
    Who,
)
from ledger.services.register.game_keys import PlayerRef


def add_games(session: Session, name: str, event_id: int | None, event_period: Period | None,
              games: Sequence[tuple[FileGame, PlayerRef, PlayerRef]], report: ImportReport,
              rerate: bool = False,
              event_end: dt.date | None = None, *, pools: dict[int, GamePool] | None = None,
              pool: RatingPool = STANDARD) -> None:
    """Insert new games of ``pool`` (one multi-row INSERT): in the event's period, or (no
    event) each in its own date's period; a game whose dates are in a closed period of the
    pool is a late result (``late.placement``: the earliest open period, or with ``rerate`` its
    own), in ``report.late``. ``pools``: ``id(FileGame)`` -> its ``GamePool`` (different
    times)."""
    rows = []
    change_id = written_by(session)
    last = last_closed_period(session, pool)
    source = name[-480:]
    table = cast(Table, Game.__table__)
    # each distinct value made the driver's once (db.rows.binders), not once per row
    bind = dict(zip(IMPORTED_GAME_COLUMNS, binders(session, table, IMPORTED_GAME_COLUMNS),
                    strict=True))
    # per date: (its driver's value, the period it goes into, its natural period when that is
    # closed: late)
    placed: dict[dt.date, tuple[object, str, str | None]] = {}
    by_pool = pools or {}
    played = {flag: _bound(bind["played"], flag) for flag in (True, False)}
    unequal = {flag: _bound(bind["unequal_times"], flag) for flag in (True, False)}
    usual = unequal[GamePool(pool).unequal_times]
    now = _bound(bind["recorded_at"], utcnow())  # the games of one insert: recorded at one time
    keys: dict[str | None, str | None] = {}  # each round label's sort key found once
    periods: Counter[str] = Counter()
    for g, w, b in games:
        where = placed.get(g.date)
        if where is None:
            period = event_period or place(Period.of(g.date), last, rerate=rerate)[0]
            natural = natural_period(event_end, g.date)
            where = placed[g.date] = (_bound(bind["date"], g.date), str(period),
                                      str(natural) if is_closed(natural, last) else None)
        day, period_text, late = where
        if late is not None:
            report.late.append(LateRecord(g.line, w.name, b.name, g.date, late, period_text,
                                          pool))
        label = g.round
        key = keys[label] if label in keys else keys.setdefault(label, round_key(label))
        found = by_pool.get(id(g))
        rows.append((event_id, label, key, day, period_text, w.id, b.id,
                     g.result._value_, played[g.played], f"{source}:{g.line}", now, "valid",
                     change_id, pool, usual if found is None else unequal[found.unequal_times]))
        periods[period_text] += 1
    report.periods.update(periods)
    report.recorded += len(rows)
    # the driver's executemany of tuples of the driver's values (db.rows): no ORM objects, no
    # per-row dicts, no per-row bind processing
    insert_rows(session, table, IMPORTED_GAME_COLUMNS, rows, bound=True)


def _bound(processor: Callable[[Any], Any] | None, value: Any) -> Any:
    """``value`` as the driver takes it (``processor``: its column's, from ``db.rows.binders``)."""
    return value if processor is None or value is None else processor(value)


class RatingChecks:
    """Count the recorded games a close will rate (and why the others are not rated: with each
    game's pool's ratings, a rapid or blitz player unrated there rated from their standard
    rating as the close rates them, R&B 2024 7.2.1, and the 600-point rule), and warn where the
    file's rating differs from the ledger's published rating in the game's pool (the ledger's
    is used): ``count`` and ``warn`` once per batch of the file's games, ``finish`` at the end.

    What is kept across batches is a rating per player, pool and ratings period (``known``),
    never a history: each batch's players not known yet have the rows that set their ratings
    read (only theirs, one query: ``close.in_force.ratings_at``) and their ratings taken from
    them, so that the memory held is a few ints a player of the file, whatever the size of
    their histories. Each date's period is found once."""

    def __init__(self, session: Session, name: str, report: ImportReport) -> None:
        self.session, self.name, self.report = session, name, report
        # (pool, ratings period) -> player -> rating: each looked up once; periods by date once
        self.known: dict[tuple[RatingPool, Period], dict[int, int | None]] = {}
        self.periods: dict[tuple[dt.date | None, dt.date], Period] = {}
        self.ended: dict[dt.date, Period] = {}
        self.warned: set[tuple[int, RatingPool, int]] = set()
        #: The pools whose recorded games were counted (standard always): ``finish`` drops the
        #: warnings of the others (a pool whose games were all refused).
        self.counted: set[RatingPool] = {STANDARD}
        #: The warnings ``warn`` found, with the player's name and the game's pool, until
        #: ``finish`` knows every player registered and every pool counted.
        self.warnings: list[tuple[str, RatingPool, Problem]] = []

    def _period(self, event_start: dt.date | None, date: dt.date) -> Period:
        """``ratings_period``, found once per (event start, date)."""
        at = self.periods.get((event_start, date))
        if at is None:
            at = self.periods[event_start, date] = ratings_period(event_start, date)
        return at

    def _fill(self, asked: dict[tuple[RatingPool, Period], set[int]]) -> None:
        """Put into ``known`` the rating of each player ``asked`` (per pool and ratings period,
        the players whose rating is not known yet), as the close reads it
        (``rated_games.rating_in_pool``: in rapid or blitz, unrated there, their standard rating
        from 2024-03): per pool, the rows that set these players' ratings only, by one query
        (``close.in_force.ratings_at``: a second for rapid or blitz's standard ratings), no
        history built."""
        by_pool: dict[RatingPool, set[int]] = {}
        for (pool, _), ids in asked.items():
            if ids:
                by_pool.setdefault(pool, set()).update(ids)
        session = self.session
        for pool, ids in by_pool.items():
            players = sorted(ids)
            periods = [at for (of_pool, at), wanted in asked.items()
                       if of_pool == pool and wanted]
            # one parameter, not one a player; one query (a second for rapid and blitz's
            # standard ratings), no History objects
            found = ratings_at(session, id_rows(session, players), players, pool, periods)
            for at in periods:
                ratings, now = self.known[pool, at], found[at]
                for pid in asked[pool, at]:
                    ratings[pid] = now[pid]

    def count(self, recorded: list[Paired], pools: dict[int, GamePool] | None = None) -> None:
        """Count ``recorded`` (games written) in ``report.to_rate`` and ``report.not_rated`` by
        the pool of each (``pools``, by ``id(FileGame)``; else standard)."""
        report, known = self.report, self.known
        by_pool = pools or {}
        usual = GamePool(STANDARD)
        # per (pool, event start, date, event end): that pool's ratings in the game's ratings
        # period (player -> rating, each looked up once), the players whose rating is to be
        # read, whether its period is before 2022, and whether the 600-point rule can apply
        # (``gap_rule_excludes`` asked only then: never in standard, not a call a game)
        dated: dict[tuple[object, ...],
                    tuple[dict[int, int | None], set[int], Period, bool, bool]] = {}
        asked: dict[tuple[RatingPool, Period], set[int]] = {}
        placed = []
        for g, w, b in recorded:
            found = by_pool.get(id(g), usual)
            pool = found.pool
            when = (pool, g.event_start, g.date, g.event_end)
            place_ = dated.get(when)
            if place_ is None:
                self.counted.add(pool)
                at = self._period(g.event_start, g.date)
                ended = self.ended.get(g.event_end or g.date)
                if ended is None:
                    ended = self.ended[g.event_end or g.date] = Period.of(g.event_end or g.date)
                place_ = dated[when] = (known.setdefault((pool, at), {}),
                                        asked.setdefault((pool, at), set()), ended,
                                        ended < FIRST_RATED_PERIOD,
                                        gap_rule_applies(pool, ended))
            ratings, wanted, ended, early, gapped = place_
            if w.id not in ratings:
                wanted.add(w.id)
            if b.id not in ratings:
                wanted.add(b.id)
            placed.append((g, w.id, b.id, found, ratings, ended, early, gapped))
        self._fill(asked)
        reasons: dict[tuple[object, ...], str | None] = {}
        to_rate, not_rated = 0, report.not_rated
        for g, white_id, black_id, found, ratings, ended, early, gapped in placed:
            white_rating, black_rating = ratings[white_id], ratings[black_id]
            # not_rated_reason without a period reads only these (no gap rule): once each, and
            # looked up once a game (the key holds the result's text, ``_value_``: a
            # ``Result``'s own hash is a Python call, an enum's ``__hash__``)
            asked_ = (g.result._value_, g.played, found.unequal_times, white_rating is None,
                      black_rating is None)
            reason = reasons.get(asked_, _UNASKED)
            if reason is _UNASKED:
                reason = reasons[asked_] = not_rated_reason(RatedGame(
                    game_id=0, event_key=None, white_id=white_id, black_id=black_id,
                    white_rating=white_rating, black_rating=black_rating, result=g.result,
                    played=g.played, unequal_times=found.unequal_times))
            if reason is None and early:
                reason = NEVER_RATED
            elif reason is None and gapped and gap_rule_excludes(white_rating, black_rating,
                                                                 found.pool, ended):
                reason = GAP_REASON
            if reason is None:
                to_rate += 1
            else:
                not_rated[reason] += 1
        report.to_rate += to_rate

    def warn(self, paired: list[tuple[FileGame, Who | None, Who | None, RatingPool]]) -> None:
        """Find the sides of ``paired`` (a batch's games, with their pools) whose rating in the
        file differs from the ledger's published rating in the game's pool and ratings period
        (once per player, pool and rating), for ``finish``."""
        sides = []
        asked: dict[tuple[RatingPool, Period], set[int]] = {}
        for g, maybe_white, maybe_black, pool in paired:
            for someone, side in ((maybe_white, g.white), (maybe_black, g.black)):
                if someone is None or side.rating is None:
                    continue
                at = self._period(g.event_start, g.date)
                if someone.id not in self.known.setdefault((pool, at), {}):
                    asked.setdefault((pool, at), set()).add(someone.id)
                sides.append((someone, side, side.rating, pool, at))
        self._fill(asked)
        warned = self.warned
        for someone, side, rating, pool, at in sides:
            ledger_rating = self.known[pool, at][someone.id]
            if ledger_rating != rating and (someone.id, pool, rating) not in warned:
                warned.add((someone.id, pool, rating))
                line, where = side.where("rating")
                self.warnings.append((someone.name, pool, Problem(
                    self.name, line, where, f"{someone.name}: the file says {rating}, the "
                    f"ledger's published {_pool_word(pool)}rating is "
                    f"{ledger_rating or 'unrated'}; the ledger's is used", severity="warning")))

    def finish(self) -> None:
        """Give the warnings ``warn`` found, but those of players the import registered (not
        compared) and of pools none of whose games was counted (all refused)."""
        fresh_names = set(self.report.players_registered)
        self.report.problems.extend(problem for name, pool, problem in self.warnings
                                    if name not in fresh_names and pool in self.counted)


#: ``RatingChecks.count``'s reasons: a question not asked yet (None is an answer: rated; no
#: reason ``not_rated_reason`` gives is this text).
_UNASKED = "not asked yet"


def _pool_word(pool: RatingPool) -> str:
    """``"blitz "`` before "rating" in a message of a rapid or blitz game; nothing in standard
    (the messages as they always were)."""
    return "" if pool == STANDARD else f"{pool} "
