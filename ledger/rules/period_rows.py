"""Rating one period from integer rows: FIDE B.02 §8.3 on tuples, for the period close.

The same rules as ``rules.period.rate_period`` (the reference, kept for ``db check --reference``
and the tests that compare both), on plain rows: each game is a tuple of ints, each player's
game sides eight ints each in one ``array`` (``SIDE_FIELDS``; ``SideAudit`` tuples are built
from it only when asked for), each sum a whole number of hundredths. Table 8.1.2 PD lookups
(``rules.expected.pd_hundredths``), the 400-point rule by edition (the 2650 exemption in the
standard pool only, one game per event in 2022-01), the rapid and blitz 600-point rule from
2024-12, K from the player's state (``rules.pools.k_in_pool``), the K x n <= 700 cap, the
carried corrections added before the one rounding half away from zero (§8.3.4), games
against an unrated opponent ignored, a player rated on the period's list but unrated at an
event's start rated with the list's rating (§8.2.4).

Pure: no database, no I/O. ``PlayerState`` comes from ``ledger.domain``.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Mapping

from ledger.domain import STANDARD, Period, PlayerState, RatingPool
from ledger.rules.editions import Edition
from ledger.rules.expected import cap_difference, pd_hundredths, rule_400_applies_to
from ledger.rules.kfactor import cap_k
from ledger.rules.pools import exempt_from_400_rule, gap_rule_excludes, k_in_pool
from ledger.rules.row_results import (
    GameRow,
    GameRowColumns,
    RowResult,
    round_hundredths,
)

#: One game side while rating: (game id, event key, opponent id, own rating, opponent's
#: rating, score halves).
_Side = tuple[int, int | str | None, int, int, int, int]


def _sides(games: Iterable[GameRow], current: Mapping[int, int | None], pool: RatingPool,
           period: Period) -> dict[int, list[_Side]]:
    """Each rated player's rated game sides, in the order of ``games`` (as
    ``rules.period.player_games``)."""
    by_player: dict[int, list[_Side]] = {}
    gap_rule = pool != STANDARD
    for game_id, event, white, black, white_rating, black_rating, halves in games:
        if halves is None:
            continue
        if gap_rule and gap_rule_excludes(white_rating, black_rating, pool, period):
            continue
        if black_rating is not None:
            own = white_rating if white_rating is not None else current.get(white)
            if own is not None:
                side = (game_id, event, black, own, black_rating, halves)
                if white in by_player:
                    by_player[white].append(side)
                else:
                    by_player[white] = [side]
        if white_rating is not None:
            own = black_rating if black_rating is not None else current.get(black)
            if own is not None:
                side = (game_id, event, white, own, white_rating, 2 - halves)
                if black in by_player:
                    by_player[black].append(side)
                else:
                    by_player[black] = [side]
    return by_player


def _counted_2022(sides: list[_Side]) -> list[int]:
    """Counted D per side under 2022-01: in each event only the game with the largest |D| (the
    first such) is limited to +-400; a game with no event is a tournament of its own."""
    real = [s[3] - s[4] for s in sides]
    largest: dict[object, int] = {}
    for i, s in enumerate(sides):
        event: object = s[1] if s[1] is not None else ("game", s[0])
        j = largest.get(event)
        if j is None or abs(real[i]) > abs(real[j]):
            largest[event] = i
    chosen = set(largest.values())
    return [cap_difference(d) if i in chosen else d for i, d in enumerate(real)]


def rate_rows(states: Mapping[int, PlayerState], games: Iterable[GameRow] | GameRowColumns,
              period: Period,
              edition: Edition, carried: Mapping[int, int] | None = None,
              pool: RatingPool = STANDARD) -> dict[int, RowResult]:
    """Rate every rated player of ``period`` in ``pool`` by ``edition`` from ``games``
    (``GameRow`` tuples, or held as ``GameRowColumns``: rated on views of them), exactly as
    ``rules.period.rate_period`` does: on numpy columns (``rules.period_arrays.rate_columns``,
    imported here only), or for ``Edition.E2022_01`` (one capped game per event) on the rows
    (``rate_rows_in_python``).

    ``states``: player id -> ``PlayerState`` on the list in force at the period's start (every
    player of a rated game side must be present: ``KeyError`` otherwise). ``carried``: player id
    -> hundredths carried into the period (docs/CORRECTIONS.md §5), added before the rounding.
    Returns player id -> ``RowResult`` for each player rated at the period's start with at
    least one rated game or a carried correction, players in order of their first game, then
    the carried-only players.
    """
    if edition is Edition.E2022_01:
        rows_of = games.rows() if isinstance(games, GameRowColumns) else games
        return rate_rows_in_python(states, rows_of, period, edition, carried, pool)
    from ledger.rules.period_arrays import columns_of, columns_of_rows, rate_columns

    if isinstance(games, GameRowColumns):
        return rate_columns(states, columns_of(games), period, edition, carried, pool)
    rows = games if isinstance(games, list) else list(games)
    return rate_columns(states, columns_of_rows(rows), period, edition, carried, pool)


def rate_rows_in_python(states: Mapping[int, PlayerState], games: Iterable[GameRow],
                        period: Period, edition: Edition, carried: Mapping[int, int] | None = None,
                        pool: RatingPool = STANDARD) -> dict[int, RowResult]:
    """``rate_rows`` in plain Python on the rows, for every edition (the reference of the numpy
    path, and 2022-01's path), exactly as ``rules.period.rate_period`` does.

    ``states``: player id -> ``PlayerState`` on the list in force at the period's start (every
    player of a rated game side must be present: ``KeyError`` otherwise). ``carried``: player id
    -> hundredths carried into the period (docs/CORRECTIONS.md §5), added before the rounding.
    Returns player id -> ``RowResult`` for each player rated at the period's start with at
    least one rated game or a carried correction, players in order of their first game.
    """
    current = {pid: state.rating for pid, state in states.items()}
    extra = dict(carried or {})
    by_player = _sides(games, current, pool, period)
    exempt_pool = exempt_from_400_rule(pool)
    pd: dict[int, int] = {}  # counted D -> PD in hundredths (table 8.1.2)
    capped_at: dict[int, bool] = {}  # own rating -> whether the 400-point rule applies
    results: dict[int, RowResult] = {}
    for player_id in [*by_player, *(pid for pid in extra if pid not in by_player)]:
        state = states[player_id]
        if state.rating is None:
            continue
        sides = by_player.pop(player_id, [])  # dropped once rated: the audits replace them
        k, reason = k_in_pool(state, period, pool)
        k_used = cap_k(k, len(sides))
        if edition is Edition.E2022_01:
            counted = _counted_2022(sides)
        else:
            counted = []
            for s in sides:
                capped = capped_at.get(s[3])
                if capped is None:
                    capped = capped_at[s[3]] = (not exempt_pool
                                                or rule_400_applies_to(s[3], edition))
                counted.append(cap_difference(s[3] - s[4]) if capped else s[3] - s[4])
        flat = array("q")
        extend = flat.extend
        score = expected = 0
        for (game_id, _, opponent, own, opponent_rating, halves), c in zip(
                sides, counted, strict=True):
            e = pd.get(c)
            if e is None:
                e = pd[c] = pd_hundredths(c)
            score += halves
            expected += e
            extend((game_id, opponent, own, opponent_rating, own - opponent_rating, c, e, halves))
        carried_here = extra.get(player_id, 0)
        change = k_used * (score * 50 - expected) + carried_here
        results[player_id] = RowResult(player_id, state.rating, k_used, k, reason, score,
                                       expected, change, round_hundredths(change),
                                       carried_here, flat)
    return results
