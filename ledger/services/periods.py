"""Closing a rating period (FIDE B.02 §7-§8) in one transaction, and listing closed periods.

Loading is set-based: the period's games with their events in one query, and the histories of
every player in them in three more, whatever the number of players.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal

from sqlalchemy import Engine, func, insert, select
from sqlalchemy.orm import Session

from ledger.db.models import (
    Game,
    InitialRatingGame,
    PeriodGame,
    Player,
    RatingAdjustment,
    RatingFloorDrop,
    RatingPeriod,
)
from ledger.db.models import InitialRating as InitialRatingRow
from ledger.db.models import PeriodResult as PeriodResultRow
from ledger.db.order import player_sort_key
from ledger.domain import Period, RatedGame
from ledger.errors import PeriodError
from ledger.rules.editions import RAISE_2024_PERIOD, Edition, edition_for, list_adjustment
from ledger.rules.initial import InitialRating, Pool, rate_pool
from ledger.rules.period import PeriodResult, rate_period
from ledger.services.pools import load_pools
from ledger.services.rated_games import load_rated_games
from ledger.services.session import transaction
from ledger.services.state import FIRST_RATED_PERIOD, last_closed_period, load_histories


@dataclass(frozen=True)
class RatedPlayer:
    """One line of a close: who, and the rules' ``PeriodResult`` (with its per-game audit)."""

    player_id: int
    name: str
    fide_id: int | None
    result: PeriodResult
    opponents: dict[int, str]


@dataclass(frozen=True)
class NewlyRated:
    """An unrated player whose pool reached 5 games at this close: the pool and the whole
    computation of Ru (``rating.published`` False: below the floor, the pool goes on)."""

    player_id: int
    name: str
    pool: Pool
    rating: InitialRating


@dataclass(frozen=True)
class FloorDrop:
    """A rating that fell below the floor at this close: unrated from the list it publishes."""

    player_id: int
    name: str
    rating: int
    floor: int


@dataclass
class CloseReport:
    """What closing a period did (or, with ``dry_run``, would do)."""

    period: str
    edition: str
    dry_run: bool
    players: list[RatedPlayer]
    games: int = 0
    not_rated: Counter[str] = field(default_factory=Counter)
    adjustments: int = 0
    initial: list[NewlyRated] = field(default_factory=list)
    dropped: list[FloorDrop] = field(default_factory=list)


@dataclass(frozen=True)
class PeriodView:
    """A closed period: edition, when, how many players were rated and games recorded."""

    period: str
    edition: str
    closed_at: dt.datetime
    players: int
    games: int


def _earliest_open(session: Session) -> Period | None:
    """The earliest open period with games from 2022-01 on, or None (periods before
    ``FIRST_RATED_PERIOD`` are recorded, never rated, and never block a close)."""
    last = last_closed_period(session)
    open_games = select(func.min(Game.period)).where(Game.period >= str(FIRST_RATED_PERIOD))
    if last is not None:
        open_games = open_games.where(Game.period > str(last))
    earliest = session.scalar(open_games)
    return Period.parse(earliest) if earliest is not None else None


def _target_period(session: Session, named: Period | None) -> Period:
    """The period to close: ``named``, or the earliest open one with games (``_earliest_open``)."""
    last = last_closed_period(session)
    earliest = _earliest_open(session)
    if named is None:
        if earliest is None:
            raise PeriodError("nothing to close: no games are recorded in open periods")
        return earliest
    if last is not None and named <= last:
        raise PeriodError(f"period {named} is already closed (periods up to {last} are closed)")
    if earliest is not None and earliest < named:
        raise PeriodError(f"period {earliest} has games and is not closed yet: "
                          f"close it before {named}")
    return named


def not_rated_reason(g: RatedGame) -> str | None:
    """Why a recorded game is not rated (``forfeit``, ``less than one move``, ``unrated player``:
    FIDE B.02 §5.1, §8.3.1), or None when it is rated."""
    if not g.result.is_played:
        return "forfeit"
    if not g.played:
        return "less than one move"
    if g.white_rating is None or g.black_rating is None:
        return "unrated player"
    return None


def close_period(engine: Engine, period: str | None = None, *, dry_run: bool = False,
                 edition: Edition | None = None, today: dt.date | None = None) -> CloseReport:
    """``ledger period close``: rate the earliest open period (or ``period``, which must be it).

    Writes the period with its edition, one result row per rated player and one audit row per
    game and player, the initial ratings of unrated players whose pool reached 5 games (with the
    pool's games) and the ratings that fell below the floor, all in one transaction; ``dry_run``
    computes everything and writes nothing.
    Raises ``PeriodError`` for a closed period, a later period while an earlier one has games, or a
    period before 2022-01, or a period that has not ended by ``today`` (default: the date today).
    ``edition`` overrides the edition in force (for tests only).
    """
    named = Period.parse(period) if period is not None else None
    with transaction(engine, dry_run=dry_run) as session:
        return _close(session, _target_period(session, named), dry_run=dry_run,
                      edition=edition, today=today or dt.date.today())


def close_through(engine: Engine, through: str, *, dry_run: bool = False,
                  today: dt.date | None = None) -> ThroughReport:
    """``ledger period close --through YYYY-MM``: close every open period with games up to
    ``through``, in order, each in its own transaction (as ``close_period`` would one by one),
    stopping at the first refusal. With ``dry_run`` they are computed in one transaction that is
    rolled back, so each later period sees the earlier ones closed and nothing is written.

    Returns the reports of the periods closed and, if one was refused, that period and why
    (``ThroughReport.refused``); the periods closed before it stay closed. Raises ``PeriodError``
    when no open period up to ``through`` has games, and ``InvalidInput`` for a malformed
    ``through``.
    """
    last = Period.parse(through)
    today = today or dt.date.today()
    report = ThroughReport(through=str(last))
    with contextlib.ExitStack() as stack:
        shared = stack.enter_context(transaction(engine, dry_run=True)) if dry_run else None
        while True:
            with contextlib.ExitStack() as own:
                session = shared or own.enter_context(transaction(engine))
                target = _earliest_open(session)
                if target is None or target > last:
                    break
                try:
                    with session.begin_nested():
                        report.closed.append(_close(session, target, dry_run=False,
                                                    today=today, shown_as_dry_run=dry_run))
                except PeriodError as exc:
                    report.refused = (str(target), str(exc))
                    break
    if not report.closed and report.refused is None:
        raise PeriodError(f"nothing to close through {last}: no games are recorded in open "
                          f"periods up to {last}")
    return report


@dataclass
class ThroughReport:
    """What ``close_through`` did: the ``closed`` periods' reports in order, and ``refused``:
    (period, reason) of the first period it could not close, or None."""

    through: str
    closed: list[CloseReport] = field(default_factory=list)
    refused: tuple[str, str] | None = None


def _close(session: Session, target: Period, *, dry_run: bool, today: dt.date,
           edition: Edition | None = None, shown_as_dry_run: bool = False) -> CloseReport:
    """Rate ``target`` inside ``session`` and, unless ``dry_run``, write its results
    (``close_period``). ``shown_as_dry_run``: written into a transaction the caller rolls back."""
    if target.end >= today:
        raise PeriodError(f"period {target} has not ended yet (its last day is {target.end}); "
                          f"it can be closed from {target.next().start}")
    used = edition or edition_for(target)
    loaded, histories = load_rated_games(session, Game.period == str(target),
                                         through=target.previous())
    rated_games = [g.rated for g in loaded]
    states = {pid: h.state(target) for pid, h in histories.items()}
    results = rate_period(states, rated_games, target, used)
    drops = {pid: r.rating_after for pid, r in results.items()
             if r.rating_after < used.rating_floor}
    initial = _initial_ratings(session, target, used,
                               [pid for pid, st in states.items() if st.rating is None])
    new_ratings = {pid: r.rating_after for pid, r in results.items() if pid not in drops}
    new_ratings |= {pid: ir.rating for pid, (_, ir) in initial.items() if ir.published}
    adjustments = _list_adjustments(session, target, new_ratings, set(drops))
    report = _report(session, target, used, results, rated_games, dry_run or shown_as_dry_run,
                     initial, drops)
    report.adjustments = len(adjustments)
    if not dry_run:
        _write(session, target, used, results, adjustments)
        _write_life(session, target, used, initial, drops)
    return report


def _initial_ratings(session: Session, target: Period, used: Edition,
                     unrated: list[int]) -> dict[int, tuple[Pool, InitialRating]]:
    """Ru for each player unrated at ``target``'s start whose pool gained a game in ``target``
    and holds at least 5 games (FIDE B.02 §8.2), by the edition ``used``."""
    pools = load_pools(session, unrated, target, ratings_through=target.previous())
    rated = {}
    for pid, pool in pools.items():
        if not any(g.period == target for g in pool.games):
            continue
        computed = rate_pool(pool, used)
        if computed is not None:
            rated[pid] = (pool, computed)
    return rated


def _list_adjustments(session: Session, target: Period, new_ratings: dict[int, int],
                      dropped: set[int]) -> list[dict[str, object]]:
    """Rows for the ratings the list published by closing ``target`` changes outside any game
    (only the 1 March 2024 raise: ``ledger.rules.editions.list_adjustment``). ``new_ratings``:
    ratings this close gives (period results and published initial ratings); ``dropped``:
    players this close makes unrated."""
    if target != RAISE_2024_PERIOD:
        return []
    histories = load_histories(session, None, through=target.previous())
    rows = []
    for pid, history in histories.items():
        rating = new_ratings[pid] if pid in new_ratings else history.rating(target)
        if rating is None or pid in dropped:
            continue
        raise_by = list_adjustment(target, rating)
        if raise_by:
            rows.append(dict(period=str(target), player_id=pid, rating_before=rating,
                             adjustment=raise_by, rating_after=rating + raise_by,
                             rule="1 March 2024 list: +0.4 x (2000 - R) below 2000"))
    return rows


def _report(session: Session, target: Period, used: Edition, results: dict[int, PeriodResult],
            games: list[RatedGame], dry_run: bool, initial: dict[int, tuple[Pool, InitialRating]],
            drops: dict[int, int]) -> CloseReport:
    wanted = set(results) | set(initial) | {a.opponent_id for r in results.values()
                                            for a in r.games}
    names = {pid: (name, fide) for pid, name, fide in session.execute(
        select(Player.id, Player.name, Player.fide_id).where(Player.id.in_(wanted)))}
    players = [RatedPlayer(pid, names[pid][0], names[pid][1], r,
                           {a.opponent_id: names[a.opponent_id][0] for a in r.games})
               for pid, r in results.items()]
    players.sort(key=lambda p: (-p.result.rating_after, *player_sort_key(p.name, p.player_id)))
    not_rated = Counter(reason for g in games if (reason := not_rated_reason(g)) is not None)
    report = CloseReport(str(target), used.value, dry_run, players, len(games), not_rated)
    report.initial = sorted((NewlyRated(pid, names[pid][0], pool, ir)
                             for pid, (pool, ir) in initial.items()),
                            key=lambda n: (-n.rating.rating, *player_sort_key(n.name, n.player_id)))
    report.dropped = sorted((FloorDrop(pid, names[pid][0], rating, used.rating_floor)
                             for pid, rating in drops.items()),
                           key=lambda d: player_sort_key(d.name, d.player_id))
    return report


def _write(session: Session, target: Period, used: Edition, results: dict[int, PeriodResult],
           adjustments: list[dict[str, object]]) -> None:
    session.add(RatingPeriod(period=str(target), edition=used.value))
    session.flush()
    if results:
        session.execute(insert(PeriodResultRow), [_result_row(target, r) for r in results.values()])
        session.execute(insert(PeriodGame), _audit_rows(target, results))
    if adjustments:
        session.execute(insert(RatingAdjustment), adjustments)


def _write_life(session: Session, target: Period, used: Edition,
                initial: dict[int, tuple[Pool, InitialRating]], drops: dict[int, int]) -> None:
    """Write what the close derived for unrated players and the floor (never updated)."""
    if initial:
        session.execute(insert(InitialRatingRow), [dict(
            period=str(target), player_id=pid, method=ir.method.value, games=ir.games,
            opponents_sum=ir.opponents_sum, score_halves=int(ir.points * 2),
            hypothetical=ir.hypothetical, p_hundredths=ir.p_hundredths, dp=ir.dp, bonus=ir.bonus,
            ru=ir.ru, cap=ir.cap, rating=ir.rating, floor=ir.floor, published=ir.published,
            disregarded=len(pool.disregarded)) for pid, (pool, ir) in initial.items()])
        session.execute(insert(InitialRatingGame), [dict(
            period=str(target), player_id=pid, game_id=g.game_id, opponent_id=g.opponent_id,
            opponent_rating=g.opponent_rating, score_halves=int(g.score * 2))
            for pid, (pool, _) in initial.items() for g in pool.games])
    if drops:
        session.execute(insert(RatingFloorDrop), [dict(
            period=str(target), player_id=pid, rating=rating, floor=used.rating_floor)
            for pid, rating in drops.items()])


def _hundredths(value: Decimal) -> int:
    scaled = value * 100
    if scaled != scaled.to_integral_value():
        raise ValueError(f"{value} is not a whole number of hundredths")
    return int(scaled)


def _result_row(target: Period, r: PeriodResult) -> dict[str, object]:
    return dict(period=str(target), player_id=r.player_id, rating_before=r.rating_before,
                games=r.n, score_halves=int(r.score * 2),
                expected_hundredths=_hundredths(r.expected), k=r.k, k_before_cap=r.k_before_cap,
                k_reason=r.k_reason.value, change_hundredths=_hundredths(r.change_exact),
                change=r.change, rating_after=r.rating_after)


def _audit_rows(target: Period, results: dict[int, PeriodResult]) -> list[dict[str, object]]:
    return [dict(game_id=a.game_id, player_id=r.player_id, period=str(target),
                 opponent_id=a.opponent_id, own_rating=a.own_rating,
                 opponent_rating=a.opponent_rating, difference=a.difference,
                 counted_difference=a.counted_difference,
                 expected_hundredths=_hundredths(a.expected), score_halves=int(a.score * 2))
            for r in results.values() for a in r.games]


def list_periods(engine: Engine) -> list[PeriodView]:
    """``ledger period list``: closed periods, oldest first."""
    with transaction(engine, write=False) as session:
        rated = dict(session.execute(select(PeriodResultRow.period, func.count())
                                     .group_by(PeriodResultRow.period)).all())
        games = dict(session.execute(select(Game.period, func.count())
                                     .group_by(Game.period)).all())
        return [PeriodView(p.period, p.edition, p.closed_at, rated.get(p.period, 0),
                           games.get(p.period, 0))
                for p in session.scalars(select(RatingPeriod).order_by(RatingPeriod.period))]
