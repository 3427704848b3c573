"""Tournament rating reports (``ledger event show``, the site's tournament pages), from the
game lines of ``game_lines`` (every recorded game from each player's side with its D and PD).

A rating report is FIDE's: for each player of an event, the published rating at the event's
start, the games rated in it, the score, the expected score (sum of PD), K, and the change this
event contributes before the period's single rounding, K x (score - expected), exact; beside it
the period's final change, rounded once over every game of the period (B.02 §8.3.4), and why
the two differ (the period's other games, corrections carried into it, the rounding). The
performance rating Rp (Title Regs §1.4.7-1.4.8) counts the games played over the board against
opponents rated at the event's start, as ``ledger performance`` does without a norm.

The games and the ratings used come from ``services.close.rated_games``; the D and PD of each rated
game are the ones its period's close stored (``period_audits``, packed per player:
``services.close.period_audits``); K and the final change the period results. Set-based: a fixed
number of queries per period, whatever the number of players.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from sqlalchemy import select
from sqlalchemy.orm import Session

from ledger.db.models import Event, Game, Player
from ledger.db.models import PeriodResult as PeriodResultRow
from ledger.db.order import player_sort_key
from ledger.domain import POOLS, STANDARD, Period, RatingPool, parse_pool
from ledger.rules.performance import Performance, performance
from ledger.services.close.carried import CarriedLine, carried_lines
from ledger.services.close.period_audits import current_sides
from ledger.services.close.revisions import current
from ledger.services.close.state import is_closed, last_closed_period
from ledger.services.core.session import Ledger, transaction
from ledger.services.publishing.game_lines import GameLine, game_lines
from ledger.services.register.events import resolve_event


@dataclass(frozen=True)
class LateGame:
    """A late result of an event from one player's side (docs/RULES.md §1): a game dated in the
    event's period but rated in a later one (``line.period``), with that period's ``k`` and
    its own exact change, K x (S - PD), a part of that later period's change (None: not rated
    for the player, or the period not closed yet)."""

    line: GameLine
    k: int | None
    #: whether ``line.period`` is closed (else nothing of it is rated yet)
    closed: bool = True

    @property
    def change(self) -> Decimal | None:
        """K x (score - expected) of this one game, exact (None: not rated)."""
        line = self.line
        return self.k * (line.score - line.expected) \
            if self.k is not None and line.expected is not None else None

    @property
    def text(self) -> str:
        """The game in words: ``late: game 22 of 2026-10-13 v Gallagher, Tom, score 0.5, rated
        in 2026-11: K 40 x (0.5 - 0.25) = +10.00``."""
        line, change = self.line, self.change
        head = (f"late: game {line.game_id} of {line.date} v {line.opponent}, score "
                f"{line.score}, rated in {line.period}")
        if change is None:
            return head + (": not rated for them" if self.closed else ": not rated yet")
        return head + f": K {self.k} x ({line.score} - {line.expected}) = {change:+.2f}"


@dataclass(frozen=True)
class EventPlayer:
    """One player's line of a tournament rating report.

    ``rating``: published rating at the event's start (None: unrated); ``games``/``points``:
    every game recorded for them in the event and their points (standings: a forfeit win
    counts); ``rated_games``, ``score``, ``expected`` (sum of PD): the games rated for them;
    ``k``: the K of the period (after the 700 cap), ``change``: K x (score - expected), exact,
    the part of the period's change this event contributes, and ``period_change`` the period's
    one rounded change over all its games (``period_games`` of them); the three are None when
    no game was rated for them. ``performance``: Rp over the games played over the board
    against opponents rated at the event's start (None: no such game). ``lines``: the games.
    ``period_exact``: the period's exact change before its rounding (None with ``k``),
    ``carried``: the corrections carried into the period that its close added (exact, 0 for
    none; docs/CORRECTIONS.md §5), each explained by a line of ``carried_lines``.
    ``others``/``others_exact``: the player's games rated in the event's period outside it,
    counted from that period's stored audit, and K x sum(S - PD) over them. ``late``: the late
    results (rated in a later period), each with its own change; ``rated_games``, ``score``,
    ``expected`` and ``change`` count only the games rated in the event's own period."""

    player_id: int
    name: str
    fide_id: int | None
    federation: str | None
    title: str | None
    rating: int | None
    games: int
    points: Decimal
    rated_games: int
    score: Decimal
    expected: Decimal
    k: int | None
    change: Decimal | None
    period_change: int | None
    period_games: int | None
    performance: Performance | None
    lines: tuple[GameLine, ...]
    period_exact: Decimal | None = None
    carried: Decimal = Decimal(0)
    carried_lines: tuple[CarriedLine, ...] = ()
    others: int = 0
    others_exact: Decimal = Decimal(0)
    late: tuple[LateGame, ...] = ()

    @property
    def other_games(self) -> int:
        """The player's games of the period rated outside this event (0 with no result)."""
        return self.others if self.k is not None else 0

    @property
    def why(self) -> str | None:
        """Why this event's exact change and the period's change differ, in words (None when
        they are equal): the period's exact change is this event's, plus the period's other
        games (K x sum(S - PD) over them), plus the corrections carried into it, rounded once
        (B.02 §8.3.4; docs/CORRECTIONS.md §5)."""
        if self.change is None or self.period_exact is None or self.period_change is None:
            return None
        if self.change == self.period_change:
            return None
        others = self.others_exact
        parts = [f"this event {self.change:+.2f}"]
        if self.other_games or others:
            n = self.other_games
            parts.append(f"{n} other game{'s' if n != 1 else ''} of {self._period} "
                         f"{others:+.2f}")
        if self.carried:
            named = "; ".join(c.label.split(", ", 1)[1] + f" in {c.origin_period}"
                              for c in self.carried_lines)
            parts.append(f"carried {self.carried:+.2f}" + (f" ({named})" if named else ""))
        return (f"period change {self.period_change:+d} = " + " + ".join(parts)
                + f" = {self.period_exact:+.2f}, rounded once")

    @property
    def _period(self) -> str:
        own = [line.period for line in self.lines if line.rated and not self._is_late(line)]
        return own[0] if own else "the period"

    def _is_late(self, line: GameLine) -> bool:
        return any(late.line is line for late in self.late)


@dataclass(frozen=True)
class EventReport:
    """An event and its rating report: ``period`` (that of its end date) and whether it is
    ``closed`` (rated; otherwise only the games and performances are known), ``players`` by
    points (most first), then rating (highest first, unrated last), then name."""

    id: int
    name: str
    site: str | None
    city: str | None
    start_date: dt.date
    end_date: dt.date
    period: str
    closed: bool
    source: str | None
    rounds: int | None
    time_control: str | None
    arbiter: str | None
    games: int
    players: tuple[EventPlayer, ...]
    #: The rating pool of this report's games and ratings (docs/RULES.md §9), and every pool
    #: the event has a valid game in (its own pool first, then standard, rapid, blitz).
    pool: RatingPool = STANDARD
    pools: tuple[RatingPool, ...] = ()
    #: How many of ``games`` are late results (rated in a later period, docs/RULES.md §1).
    late_games: int = 0


def _performance(lines: Sequence[GameLine]) -> Performance | None:
    counted = [(line.opponent_rating, Fraction(line.score)) for line in lines
               if line.over_the_board and line.opponent_rating is not None]
    if not counted:
        return None
    return performance([r for r, _ in counted if r is not None], [s for _, s in counted])


def _player(who: Player, lines: Sequence[GameLine], period: str,
            results: dict[tuple[str, int], PeriodResultRow], carried: Sequence[CarriedLine],
            others: tuple[int, int], last: Period | None) -> EventPlayer:
    """``who``'s line of the report of an event of ``period``: ``lines`` its games (late
    results too), ``others`` (games, sum of S - PD in hundredths) their games rated in
    ``period`` outside the event."""
    result = results.get((period, who.id))
    rated = [line for line in lines if line.rated and line.period == period]
    late = tuple(LateGame(line, _late_k(results.get((line.period, who.id)), line),
                          is_closed(Period.parse(line.period), last))
                 for line in lines if line.period != period)
    score = sum((line.score for line in rated), Decimal(0))
    expected = sum((line.expected or Decimal(0) for line in rated), Decimal(0))
    k = result.k if result is not None and rated else None
    found = k is not None and result is not None
    return EventPlayer(
        who.id, who.name, who.fide_id, who.federation, who.title,
        next((line.own_rating for line in lines), None), len(lines),
        sum((line.score for line in lines), Decimal(0)), len(rated), score, expected, k,
        k * (score - expected) if k is not None else None,
        result.change if found and result is not None else None,
        result.games if found and result is not None else None,
        _performance(lines), tuple(lines),
        Decimal(result.change_hundredths).scaleb(-2) if found and result else None,
        Decimal(result.carried_hundredths).scaleb(-2) if found and result else Decimal(0),
        tuple(carried) if found and result and result.carried_hundredths else (),
        others[0], (k or 0) * Decimal(others[1]).scaleb(-2), late)


def _late_k(result: PeriodResultRow | None, line: GameLine) -> int | None:
    return result.k if result is not None and line.rated else None


def _others(session: Session, period: str, pool: RatingPool, players: set[int],
            own: set[int]) -> dict[int, tuple[int, int]]:
    """Player -> (games, sum of S - PD in hundredths) over their games rated in ``period``
    (its stored audit) that are not among ``own`` (the event's game ids). One query."""
    found: dict[int, tuple[int, int]] = {}
    for (game_id, pid), side in current_sides(session, period, pool, players).items():
        if game_id not in own:
            n, total = found.get(pid, (0, 0))
            found[pid] = (n + 1, total + side.score_halves * 50 - side.expected_hundredths)
    return found


def event_reports(session: Session, event_ids: Sequence[int],
                  lines: Iterable[GameLine], pool: RatingPool = STANDARD) -> list[EventReport]:
    """The rating report of each event of ``event_ids`` from ``lines`` (``game_lines`` of the
    periods their games are rated in: their own and, for late results, later ones; lines of
    other events are ignored), in the order given, inside the caller's session, with the
    period results of ``pool``. Three queries (events, players, period results), one per
    closed event period (the audit of the players' other games), and the carried corrections
    when a period result holds one."""
    found = {e.id: e for e in session.scalars(select(Event).where(Event.id.in_(event_ids)))}
    events = [found[i] for i in event_ids]
    wanted = set(event_ids)
    by_event: dict[int, dict[int, list[GameLine]]] = defaultdict(lambda: defaultdict(list))
    periods = {str(Period.of(e.end_date)) for e in events}
    for line in lines:
        if line.event_id in wanted:
            by_event[line.event_id][line.player_id].append(line)
            periods.add(line.period)
    pids = {pid for players in by_event.values() for pid in players}
    players = {p.id: p for p in session.scalars(select(Player).where(Player.id.in_(pids)))} \
        if pids else {}
    results = {(r.period, r.player_id): r for r in session.scalars(
        select(PeriodResultRow).where(PeriodResultRow.period.in_(periods),
                                      PeriodResultRow.player_id.in_(pids),
                                      current(PeriodResultRow, pool)))} if pids else {}
    last = last_closed_period(session, pool)
    carried = carried_lines(session, sorted(pids), pool, last) if any(
        r.carried_hundredths for r in results.values()) else {}
    in_pools = event_pools(session, event_ids)
    reports = []
    for e in events:
        period = str(Period.of(e.end_date))
        closed = is_closed(Period.of(e.end_date), last)
        mine = by_event.get(e.id, {})
        own = {line.game_id for found in mine.values() for line in found if line.period == period}
        others = _others(session, period, pool, set(mine), own) if closed and mine else {}
        rows = [_player(players[pid], found, period, results,
                        [c for c in carried.get(pid, ()) if c.applies_in == period and c.added],
                        others.get(pid, (0, 0)), last)
                for pid, found in mine.items()]
        rows.sort(key=lambda r: (-r.points, r.rating is None, -(r.rating or 0),
                                 *player_sort_key(r.name, r.player_id)))
        games = len({line.game_id for r in rows for line in r.lines})
        reports.append(EventReport(
            e.id, e.name, e.site, e.city, e.start_date, e.end_date, period, closed, e.source,
            e.rounds, e.time_control, e.arbiter, games, tuple(rows), pool,
            in_pools.get(e.id, ()),
            len({line.game_id for r in rows for line in r.lines if line.period != period})))
    return reports


def event_pools(session: Session, event_ids: Sequence[int]) -> dict[int, tuple[RatingPool, ...]]:
    """Event id -> every rating pool it has a valid game in (rapid rounds and a blitz play-off:
    ``('rapid', 'blitz')``), its own pool (``events.pool``) first, then in ``POOLS`` order;
    an event without a valid game is left out. One query."""
    found: dict[int, set[str]] = defaultdict(set)
    own: dict[int, str] = {}
    for event_id, pool, event_pool in session.execute(
            select(Event.id, Game.pool, Event.pool).join(Event, Game.event_id == Event.id)
            .where(Game.event_id.in_(event_ids), Game.status == "valid").distinct()):
        found[event_id].add(pool)
        own[event_id] = event_pool
    return {i: tuple(parse_pool(p) for p in sorted(
        pools, key=lambda p: (p != own[i], POOLS.index(parse_pool(p)))))
            for i, pools in found.items()}


def event_report(engine: Ledger, ref: str, pool: str | None = None) -> EventReport:
    """``ledger event show``: the event ``ref`` names (``#ID`` or a name, as
    ``events.resolve_event``) and its rating report. Raises ``NotFound``/``Ambiguous`` for the
    event, ``InvalidInput`` for an empty reference or a ``pool`` that is none. The games and
    ratings are those of ``pool`` (``event show --pool``: an event with rapid rounds and a
    blitz play-off has a report in each), by default the event's own pool (``events.pool``,
    docs/RULES.md §9); the report's ``pools`` names every pool it has games in."""
    wanted = parse_pool(pool) if pool is not None else None
    with transaction(engine, write=False) as session:
        event = resolve_event(session, ref)
        rating_pool = wanted or parse_pool(event.pool)
        periods = {Period.of(event.end_date)} | {Period.parse(p) for p in session.scalars(
            select(Game.period).where(Game.event_id == event.id).distinct())}
        lines = [line for period in sorted(periods)
                 for line in game_lines(session, period, event.id, rating_pool)]
        return event_reports(session, [event.id], lines, rating_pool)[0]
