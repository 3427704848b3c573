"""Unrated players' pools (FIDE B.02 §8.2): their games against rated opponents, loaded set-based.

Shared by the period close (which rates a pool of 5 or more games) and by ``player show`` and
``history`` (which show a pool in progress). Three queries for any number of players.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from ledger.db.models import Event, Game
from ledger.domain import Period, Result
from ledger.rules.activity import months_before
from ledger.rules.initial import POOL_MONTHS, Pool, PoolGame, build_pool
from ledger.services.state import load_histories, ratings_period


def load_pools(session: Session, players: Collection[int], period: Period, *,
               ratings_through: Period) -> dict[int, Pool]:
    """The pool of each of ``players`` as of ``period`` (the period being closed, or the one a
    pool in progress is shown for), by ``ledger.rules.initial.build_pool``.

    A game is a pool game of a player when it is played (no forfeit, a move each), the player was
    unrated at its event's start and the opponent had a published rating then. Ratings come from
    entries and from the results of periods up to ``ratings_through``. Players without a pool game
    get an empty pool. Returns player id -> ``Pool``.
    """
    if not players:
        return {}
    ids = list(players)
    first = months_before(period, POOL_MONTHS - 1)
    rows = session.execute(
        select(Game, Event.start_date).outerjoin(Event, Game.event_id == Event.id)
        .where(Game.period >= str(first), Game.period <= str(period),
               or_(Game.white_id.in_(ids), Game.black_id.in_(ids)))
        .order_by(Game.date, Game.id)).all()
    everyone = set(ids) | {g.white_id for g, _ in rows} | {g.black_id for g, _ in rows}
    histories = load_histories(session, sorted(everyone), through=ratings_through)
    games: dict[int, list[PoolGame]] = defaultdict(list)
    wanted = set(ids)
    for game, event_start in rows:
        result = Result(game.result)
        if not (result.is_played and game.played):
            continue
        start = ratings_period(event_start, game.date)
        sides = ((game.white_id, game.black_id, result.white_score),
                 (game.black_id, game.white_id, result.black_score))
        for pid, opponent, score in sides:
            if pid not in wanted or histories[pid].rating(start) is not None:
                continue
            opponent_rating = histories[opponent].rating(start)
            if opponent_rating is not None:
                games[pid].append(PoolGame(game.id, game.event_id, Period.parse(game.period),
                                           opponent, opponent_rating, score))
    return {pid: build_pool(games.get(pid, []), period, starts=histories[pid].pool_starts(period))
            for pid in ids}
