"""Unrated players' pools (FIDE B.02 §8.2): their games against rated opponents, loaded set-based.

Shared by the period close (which rates a pool of 5 or more games) and by ``player show`` and
``history`` (which show a pool in progress). Three queries for any number of players.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from ledger.db.models import Event
from ledger.domain import STANDARD, Period, RatingPool, Result
from ledger.rules.activity import months_before
from ledger.rules.initial import POOL_MONTHS, Pool, PoolGame, build_pool
from ledger.services.close.rated_games import ratings_in_pool
from ledger.services.close.state import load_histories, ratings_period
from ledger.services.core.facts import NOW, Facts


def load_pools(session: Session, players: Collection[int], period: Period, *,
               ratings_through: Period, facts: Facts = NOW,
               pool: RatingPool = STANDARD) -> dict[int, Pool]:
    """The pool of each of ``players`` as of ``period`` (the period being closed, or the one a
    pool in progress is shown for), by ``ledger.rules.initial.build_pool``.

    A game is a pool game of a player when it is valid (not voided) and played (no forfeit, a
    move each), the player was unrated at its event's start and the opponent had a published
    rating then; in rapid and blitz from 2024-03 a player unrated there who holds a standard
    rating is rated with it (``rated_games.rating_in_pool``, R&B 2024 7.2.1: "considered to be
    rated"): a rated opponent, and no pool of their own (``rated_games.ratings_in_pool``). Ratings come from
    entries and from the results of periods up to ``ratings_through``; ``facts``: the games and
    players now or as of a change. Players without a pool game get an empty pool. Returns player
    id -> ``Pool``. ``pool``: the rating pool (docs/RULES.md §9): its games and its ratings only.
    """
    if not players:
        return {}
    ids = list(players)
    first = months_before(period, POOL_MONTHS - 1)
    g = facts.games()
    rows = session.execute(
        select(g, Event.start_date.label("event_start"))
        .outerjoin(Event, g.c.event_id == Event.id)
        .where(g.c.period >= str(first), g.c.period <= str(period), g.c.status == "valid",
               g.c.pool == pool, g.c.unequal_times.is_(False),
               or_(g.c.white_id.in_(ids), g.c.black_id.in_(ids)))
        .order_by(g.c.date, g.c.id)).all()
    everyone = set(ids) | {r.white_id for r in rows} | {r.black_id for r in rows}
    histories = load_histories(session, sorted(everyone), through=ratings_through, facts=facts,
                               pool=pool)
    rating = ratings_in_pool(session, histories, pool, through=ratings_through, facts=facts,
                             asked=bool(rows))

    games: dict[int, list[PoolGame]] = defaultdict(list)
    wanted = set(ids)
    for game in rows:
        event_start = game.event_start
        result = Result(game.result)
        if not (result.is_played and game.played):
            continue
        start = ratings_period(event_start, game.date)
        sides = ((game.white_id, game.black_id, result.white_score),
                 (game.black_id, game.white_id, result.black_score))
        for pid, opponent, score in sides:
            if pid not in wanted or rating(pid, start) is not None:
                continue
            opponent_rating = rating(opponent, start)
            if opponent_rating is not None:
                games[pid].append(PoolGame(game.id, game.event_id, Period.parse(game.period),
                                           opponent, opponent_rating, score))
    return {pid: build_pool(games.get(pid, []), period, starts=histories[pid].pool_starts(period))
            for pid in ids}
