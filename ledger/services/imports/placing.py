"""Placing an import's games, batch by batch: grouped by event and pool, checked
(``services.imports.checks``) and written (``services.imports.writing``) in the order the file
first gives each group. Driven by ``services.imports.games``."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from operator import attrgetter, itemgetter

from sqlalchemy import select
from sqlalchemy.orm import Session

from ledger.db.models import Event, Game
from ledger.domain import Period, RatingPool, Result
from ledger.errors import CloseEventName, PeriodError, Problem
from ledger.formats.records import FileGame
from ledger.services.close.late import earliest_open, too_late
from ledger.services.imports.checks import (
    FileKeys,
    likely_duplicates,
    one_game_a_round,
    skip_recorded,
)
from ledger.services.imports.game_files import FIRST_LIST
from ledger.services.imports.game_pools import GamePool
from ledger.services.imports.report import ImportReport, Matched, Paired, Progress
from ledger.services.imports.writing import add_games
from ledger.services.imports.written import PairDays, pair_days, recall
from ledger.services.register.events import find_event, place_in_event
from ledger.services.register.game_keys import RoundSeats, existing_games
from ledger.services.register.lookalikes import Lookalike, Lookalikes

#: The games of one event of a file (None: the games without an event) in one pool.
_Group = tuple[str | None, RatingPool]
#: A paired game's ``FileGame``, and a ``FileGame``'s round label (C-level getters).
_GAME, _ROUND = itemgetter(0), attrgetter("round")
#: ``Placing.refusals``' answer for a day and pool not asked yet (None: asked, not refused).
_UNASKED = "not asked yet"


class Placing:
    """Places the file's games, batch by batch (``batch``), then ``finish``: the games of each
    event (and pool) are checked together (``import_checks``) and written (``add_games``),
    the groups in the order the file first gives each. The first group, when it is the games
    without an event, is checked and written batch by batch (a month's file of a federation:
    nothing held); the others are held until ``finish`` (an event's games belong together: its
    dates are the first and last of them all). The recorded games the checks compare with are
    those recorded before the import (``before_id``) and the file's own seen so far: those of
    earlier batches read back from the ledger when a batch's games may meet them
    (``import_written``: nothing per game held). ``expected``: the games the file may hold
    (sizes the filter of ``import_written.PairDays``); ``new_event``: the file's event names
    that may be misspellings of recorded ones name new events (``place_in_event``)."""

    def __init__(self, session: Session, name: str, report: ImportReport, rerate: bool,
                 before_id: int, expected: int = 0, *, late: bool = False,
                 new_event: bool = False) -> None:
        self.session, self.name, self.report, self.rerate = session, name, report, rerate
        self.new_event = new_event
        self.before_id = before_id
        self.late = late or rerate  # dates far before the earliest open period are meant
        self.earliest: dict[RatingPool, Period | None] = {}
        self.refusals: dict[tuple[dt.date, RatingPool], str | None] = {}  # ``_too_late``'s
        self.first: _Group | None = None
        self.held: dict[_Group, list[Paired]] = {}
        self.held_pools: dict[int, GamePool] = {}
        self.lookalikes: Lookalikes | None = None
        self.keys = FileKeys()
        self.seats = RoundSeats([])
        self.written = PairDays(expected)  # the pair-days of the games the batches wrote
        self.span: tuple[dt.date, dt.date] | None = None  # the dates loaded into keys, seats

    def _look(self, days: list[dt.date]) -> Lookalikes:
        """The likely-duplicate check, its recorded games loaded for ``days`` as well."""
        first, last = min(days, default=FIRST_LIST), max(days, default=FIRST_LIST)
        if self.lookalikes is None:
            self.lookalikes = Lookalikes(self.session, first, last, before_id=self.before_id)
        else:
            self.lookalikes.extend(first, last)
        return self.lookalikes

    def batch(self, paired: list[Matched], undatable: set[int],
              pools: dict[int, GamePool]) -> list[Paired]:
        """Group a batch's games (``pools``: each game's pool, by ``id(FileGame)``, from
        ``game_pools.game_pool``; a game without one was refused), check and write those of the
        first group when it has no event; returns the games written."""
        name, report = self.name, self.report
        streamed: list[Paired] = []
        every_date: list[dt.date] = []
        # ``_too_late`` asked of a game without an event unless ``--late`` or its day and pool
        # were answered "not refused" already (a call a game fewer)
        asking, refusals = not self.late, self.refusals
        for g, w, b in paired:
            found = pools.get(id(g))
            if found is None:
                continue
            if w is None or b is None or id(g) in undatable:
                continue
            if (g.event is None and asking
                    and refusals.get((g.date, found.pool), _UNASKED) is not None
                    and self._too_late(g.date, found.pool, g)):
                continue
            if w.id == b.id:
                line, where = g.black.where("name")
                report.problems.append(Problem(name, line, where, f"White and Black are the "
                                               f"same ledger player, {b.name} (#{b.id})"))
                continue
            key = (g.event, found.pool)
            if self.first is None:
                self.first = key
            every_date.append(g.date)
            if g.event_start is not None:
                every_date.append(g.event_start)
            if g.event_end is not None:
                every_date.append(g.event_end)
            if key == self.first and key[0] is None:
                streamed.append((g, w, b))
            else:
                self.held.setdefault(key, []).append((g, w, b))
                self.held_pools[id(g)] = found
        if not streamed:
            if every_date:
                self._look(every_date)
            return []
        assert self.first is not None
        lookalikes = self._look(every_date)
        dates = [g.date for g, _, _ in streamed]
        ends = [g.event_end for g, _, _ in streamed if g.event_end is not None]
        self._know(min(dates), max(dates + ends))
        pool = self.first[1]
        days = pair_days(streamed)  # each game's once
        wanted = set(days.values())
        recalled = self._recall(wanted, pool)
        written: Iterable[tuple[int, int, int]]  # the pair-days of the games written
        if self._all_new(streamed, wanted, lookalikes):
            # what the three checks would keep: every game, no problem; none of the batch's
            # lines was taken into ``keys`` or ``seats``, so only the recalled are forgotten
            fresh, written, lines = streamed, days.values(), recalled
        else:
            fresh = self.keys.fresh(name, None, streamed, report)
            fresh = one_game_a_round(self.session, name, self.seats, fresh, report, False)
            if fresh:
                # two games without an event are never alike: taken when an event comes
                fresh = likely_duplicates(name, None, None, fresh, lookalikes, report, pool,
                                          take=False)
            written = [days[id(g)] for g, _, _ in fresh]
            lines = {g.line for g, _, _ in fresh} | recalled
        if fresh:
            add_games(self.session, name, None, None, fresh, report, self.rerate, pools=pools,
                      pool=pool)
        # the games written are read back when a later batch needs them: nothing held
        self.written.add_all(written)
        if lines:
            self.keys.forget(lines)
            self.seats.forget(lines)
        return fresh

    def _all_new(self, games: list[Paired], days: set[tuple[int, int, int]],
                 lookalikes: Lookalikes) -> bool:
        """Whether the three checks of a batch's games without an event (``keys.fresh``,
        ``one_game_a_round``, ``likely_duplicates`` without taking) would keep every game of
        ``games`` and report nothing, asked of the batch at once (set operations, no call a
        game; ``days``: the games' ``pair_day`` values): no game has a round, no two share a
        pair-day (the same players, either colours, on one date) and none's pair-day, natural
        key or pair is held by ``seats``, ``keys`` or ``lookalikes`` (each asked only when it
        holds any). Then the checks' only effect would be the keys and seats they take, which
        ``batch`` forgets as soon as the games are written: nothing to do. When not, the
        caller runs the checks game by game (the same problems, in the same order)."""
        if len(days) != len(games) or set(map(_ROUND, map(_GAME, games))) != {None}:
            return False
        return not (self.seats.holds_any_day((w.id, b.id, g.date) if w.id < b.id
                                             else (b.id, w.id, g.date) for g, w, b in games)
                    or self.keys.holds_any((None, None, w.id, b.id, g.date)
                                           for g, w, b in games)
                    or lookalikes.holds_any_pair(day[:2] for day in days))

    def _too_late(self, day: dt.date, pool: RatingPool, g: FileGame) -> bool:
        """Whether a game of ``pool`` whose period ends on ``day`` (its event's end, else its
        date) is refused as a date a year off (``late.too_late``, an error naming ``g``'s date
        line), unless ``--late`` or ``--rerate``."""
        if self.late:
            return False
        if pool not in self.earliest:
            self.earliest[pool] = earliest_open(self.session, pool)
        asked = (day, pool)  # each day of a pool asked once (a month's file has about 30)
        refusal = self.refusals[asked] if asked in self.refusals else self.refusals.setdefault(
            asked, too_late(day, self.earliest[pool]))
        if refusal is not None:
            line, where = g.where("date")
            self.report.problems.append(Problem(self.name, line, where, refusal))
        return refusal is not None

    def _recall(self, wanted: set[tuple[int, int, int]], pool: RatingPool) -> set[int]:
        """Take the games of earlier batches (written, ``import_written``) that games on
        ``wanted`` (``import_written.pair_day`` values of a batch's games) may repeat or
        meet on a day into ``keys`` and ``seats``; returns their lines."""
        days = self.written.holding(wanted)
        if not days:
            return set()
        rows = recall(self.session, self.before_id, pool, days)
        for r in rows:
            self.keys.recall(None, r.round, r.white_id, r.black_id, r.date, r.result,
                             r.played, r.line)
            self.seats.take(r.round, (r.white_id, r.black_id), r.date, r.line)
        for white_id, black_id, date in {(r.white_id, r.black_id, r.date) for r in rows}:
            self.seats.in_order((white_id, black_id), date)  # once a pair and day
        return {r.line for r in rows}

    def _know(self, first: dt.date, last: dt.date) -> None:
        """Load the games without an event recorded before the import on ``first``..``last``
        (the days not loaded yet) into ``keys`` and ``seats``."""
        spans = [(first, last)]
        if self.span is not None:
            low, high = self.span
            spans = [(a, b) for a, b in ((first, low - dt.timedelta(days=1)),
                                         (high + dt.timedelta(days=1), last)) if a <= b]
            first, last = min(first, low), max(last, high)
        self.span = (first, last)
        for span in spans:
            known = existing_games(self.session, None, span, before_id=self.before_id)
            self.keys.know(known)
            for g in known.values():
                if g.status == "valid":
                    self.seats.take(g.round, (g.white_id, g.black_id), g.date, g)

    def _take_written(self, lookalikes: Lookalikes, pool: RatingPool) -> None:
        """Take the games the batches wrote (the first group's, without an event, of ``pool``)
        into ``lookalikes``, in the order written, as the file's games (by line)."""
        rows = self.session.execute(
            select(Game.white_id, Game.black_id, Game.result, Game.round, Game.date, Game.source)
            .where(Game.id > self.before_id, Game.event_id.is_(None), Game.pool == pool)
            .order_by(Game.id))
        for white_id, black_id, result, round_, date, source in rows:
            line = int(str(source).rsplit(":", 1)[1])  # written as FILE:LINE (add_games)
            lookalikes.take(white_id, black_id, Result(result),
                            Lookalike(None, None, None, round_, date, None, line, pool))

    def finish(self, progress: Progress | None) -> list[Paired]:
        """Check and write the held groups, in the order the file first gives each; returns the
        games written."""
        session, name, report, rerate = self.session, self.name, self.report, self.rerate
        recorded: list[Paired] = []
        if not self.held:
            return recorded
        lookalikes = self._look([day for event_games in self.held.values()
                                 for g, _, _ in event_games
                                 for day in (g.date, g.event_start, g.event_end)
                                 if day is not None])
        if self.first is not None and self.first[0] is None:
            self._take_written(lookalikes, self.first[1])
        pools = self.held_pools
        total = sum(len(games) for games in self.held.values())
        for (event_name, game_pool_), event_games in self.held.items():
            dates = [g.date for g, _, _ in event_games]
            starts = [g.event_start for g, _, _ in event_games if g.event_start is not None]
            ends = [g.event_end for g, _, _ in event_games if g.event_end is not None]
            start, end = (min(starts) if starts else min(dates)), max(dates + ends)
            if event_name is not None and self._too_late(
                    end, game_pool_, max(event_games, key=lambda p: p[0].date)[0]):
                continue  # one error for the event, on the line of its last game
            event = None
            if event_name is not None:
                event = find_event(session, event_name, start, end, exact_start=bool(starts))
            known = existing_games(session, event.id if event else None, (min(dates), end))
            fresh = skip_recorded(name, event.id if event else None, known, event_games, report)
            fresh = one_game_a_round(session, name, RoundSeats(
                g for g in known.values() if g.status == "valid"), fresh, report,
                event_name is not None)
            if not fresh:
                continue
            if event_name is None:
                fresh = likely_duplicates(name, None, None, fresh, lookalikes, report,
                                          game_pool_)
                add_games(session, name, None, None, fresh, report, rerate, pools=pools,
                          pool=game_pool_)
                recorded.extend(fresh)
                continue
            try:
                event, period = place_in_event(session, event_name, start, end,
                                               site=event_games[0][0].site, source=name[-500:],
                                               exact_start=bool(starts), notes=report.notes,
                                               rerate=rerate, pool=game_pool_,
                                               new_event=self.new_event)
            except CloseEventName as exc:
                line, where = fresh[0][0].where("event")
                report.problems.append(Problem(name, line, where, str(exc)))
                continue
            except PeriodError as exc:
                line, where = fresh[0][0].where("start")
                report.problems.append(Problem(name, line, where, str(exc)))
                continue
            fresh = likely_duplicates(name, event.id, (start, end), fresh, lookalikes, report,
                                      game_pool_)
            _describe(event, event_games[0][0])
            add_games(session, name, event.id, period, fresh, report, rerate, event.end_date,
                      pools=pools, pool=game_pool_)
            recorded.extend(fresh)
            if progress is not None:
                progress(total // 2 + len(recorded) // 2, total)
        return recorded


def _describe(event: Event, g: FileGame) -> None:
    """Fill the event's details from the file where the ledger has none yet."""
    d = g.details
    if d is None:
        return
    for attr, value in (("city", d.city), ("federation", d.federation), ("arbiter", d.arbiter),
                        ("time_control", d.time_control), ("rounds", d.rounds)):
        if getattr(event, attr) is None and value is not None:
            setattr(event, attr, value[:200] if isinstance(value, str) else value)
