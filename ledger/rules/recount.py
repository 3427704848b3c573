"""A published rating list recounted from its facts alone (issue 24, ``ledger verify``): the
period's rated games, each player's state in force at its start, the carried corrections and the
unrated players' pools, rated by the reference rules (``rules.period.rate_period``,
``rules.initial.rate_pool``, the rating floor, the 1 March 2024 raise, the 1 October 2022 raise
of rapid and blitz), then the list as the close builds it (``services.close.rating.rate`` and
``services.close.snapshots.list_rows``: the state on the list by ``rules.closing.closed_state``,
K for the next period by ``rules.pools.k_in_pool``, the inactive flag by
``rules.activity.is_inactive``, ranks by rating). No database, no clock, no I/O.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from ledger.domain import Period, PlayerState, RatedGame, RatingPool
from ledger.rules.activity import is_inactive
from ledger.rules.closing import ClosedResult, closed_state, competition_ranks
from ledger.rules.editions import Edition, list_adjustment
from ledger.rules.initial import Pool, rate_pool
from ledger.rules.period import rate_period
from ledger.rules.pools import k_in_pool, raise_2022


@dataclass(frozen=True)
class ListFacts:
    """One player as the close of a period read them.

    - ``state``: the ``PlayerState`` in force at the period's start, in the list's pool (its
      ``birth_year`` is the player's);
    - the identity the list prints (``name``, ``fide_id``, ``federation``, ``title``, ``sex``);
      ``listed``: False for a player merged into another or withdrawn (never on a list);
    - ``seeded``: in rapid and blitz from 2024-03, the standard rating an unrated player is rated
      with (docs/RULES.md §9; None: not seeded);
    - ``standard``: for the rapid or blitz list of 2022-09 only, the player's rating on the
      standard list of the same date (the 1 October 2022 raise; None otherwise);
    - ``listed_since`` / ``last_rated``: the inactivity clock's start and the latest period
      before this one with a rated game (``History.activity`` before the close; None: none);
    - ``pool``: an unrated player's pool of games for an initial rating when it gained a game
      in the period (None: no pool to rate).
    """

    state: PlayerState
    name: str
    fide_id: int | None = None
    federation: str | None = None
    title: str | None = None
    sex: str | None = None
    listed: bool = True
    seeded: int | None = None
    standard: int | None = None
    listed_since: Period | None = None
    last_rated: Period | None = None
    pool: Pool | None = None


#: The fields of a list row, in the order ``ListRow`` (``services.close.snapshots``) has them.
ROW_FIELDS = ("rank", "player_id", "name", "fide_id", "federation", "title", "rating", "games",
              "k", "k_reason", "birth_year", "inactive", "sex")


def recount(period: Period, pool: RatingPool, edition: Edition, games: Sequence[RatedGame],
            players: Mapping[int, ListFacts], carried: Mapping[int, int],
            ) -> list[dict[str, object]]:
    """The rows of the list published by closing ``period`` in ``pool`` by ``edition``: one
    dict per listed player with ``ROW_FIELDS`` (``k_reason`` its string value), by rank then
    player id. ``games``: the period's games of that pool (every player in them must be in
    ``players``, else ``KeyError``); ``carried``: player id -> hundredths carried into the period
    (docs/CORRECTIONS.md §5)."""
    before = {pid: f.state for pid, f in players.items()}
    states = {pid: replace(f.state, rating=f.seeded) if f.seeded is not None else f.state
              for pid, f in players.items()}
    results = rate_period(states, games, period, edition,
                          {pid: Decimal(h).scaleb(-2) for pid, h in carried.items()}, pool)
    floor = edition.rating_floor
    drops = {pid for pid, r in results.items() if r.rating_after < floor}
    initial = {pid: (f.pool, computed) for pid, f in players.items()
               if f.pool is not None and (computed := rate_pool(f.pool, edition)) is not None}
    outcome: dict[int, list[ClosedResult]] = defaultdict(list)
    games_in: dict[int, int] = {}
    for pid, r in results.items():
        outcome[pid].append(ClosedResult(period, r.n, r.rating_after))
        games_in[pid] = r.n
    for pid, (pool_of, ir) in initial.items():
        if ir.published:
            outcome[pid].append(ClosedResult(period, ir.games, ir.rating))
            games_in[pid] = sum(1 for g in pool_of.games if g.period == period)
    for pid, f in players.items():
        if pid in drops:
            continue
        gained = outcome.get(pid)
        rating = gained[0].rating_after if gained else f.state.rating
        if rating is None:
            continue
        raise_by = (raise_2022(period, pool, rating, f.standard) if f.standard is not None
                    else list_adjustment(period, rating))
        if raise_by:
            outcome[pid].append(ClosedResult(period, 0, rating + raise_by, order=1))
    for pid in drops:
        outcome[pid].append(ClosedResult(period, 0, None, order=2))
    following = period.next()
    lines: list[tuple[int, int, dict[str, object]]] = []
    for pid, f in players.items():
        state = closed_state(before[pid], outcome.get(pid, ()))
        if state.rating is None or not f.listed:
            continue
        k, reason = k_in_pool(state, following, pool)
        rated_now = any(r.games > 0 for r in outcome.get(pid, ()))
        since = f.listed_since
        if rated_now and (since is None or period < since):
            since = period
        last = period if rated_now else f.last_rated
        lines.append((-state.rating, pid, {"player_id": pid, "name": f.name, "fide_id": f.fide_id,
                      "federation": f.federation, "title": f.title, "rating": state.rating,
                      "games": games_in.get(pid, 0), "k": k, "k_reason": reason.value,
                      "birth_year": f.state.birth_year,
                      "inactive": since is not None and is_inactive(period, last, since),
                      "sex": f.sex}))
    lines.sort(key=lambda line: line[:2])
    return [{"rank": rank, **line} for rank, (_, _, line) in
            zip(competition_ranks([-line[0] for line in lines]), lines, strict=True)]
