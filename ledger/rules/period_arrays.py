"""Rating one period from integer column arrays: FIDE B.02 §8.3 vectorised with numpy.

The same rules and the same ``RowResult`` values as the row path (``rules.period_rows``), for
the editions from 2024-03 (2022-01's one capped game per event stays on the row path): each game
side's own rating (at the event's start, else the player's list rating, §8.2.4), sides against
an unrated opponent dropped, the rapid and blitz 600-point rule from 2024-12
(``rules.pools.gap_rule_excludes``), the 400-point rule by own rating (the 2650 exemption in
the standard pool only, ``rules.expected.rule_400_applies_to`` on the distinct own ratings),
table 8.1.2 PD (``rules.expected.pd_hundredths`` on the distinct counted differences), the
per-player sums in int64 hundredths, K (``rules.pools.k_in_pool``) and the K x n <= 700 cap
(``rules.kfactor.cap_k``) per player, the carried corrections added before the one rounding
half away from zero (§8.3.4). Integers only: no float ever holds a score, a PD or a sum.

Pure: no database, no I/O. numpy is imported here only (``ledger --help`` never loads it).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Mapping
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ledger.domain import STANDARD, Period, PlayerState, RatingPool
from ledger.rules.editions import Edition
from ledger.rules.expected import MAX_COUNTED_DIFFERENCE, pd_hundredths, rule_400_applies_to
from ledger.rules.kfactor import cap_k
from ledger.rules.pools import GAP, GAP_ABOVE, GAP_RULE_FROM, exempt_from_400_rule, k_in_pool
from ledger.rules.row_results import NONE, SIDE_FIELDS, GameRowColumns, RowResult, round_hundredths

Ints = npt.NDArray[np.int64]
#: An int64 column, or int32 once narrowed (``_narrow``).
Narrow = npt.NDArray[np.int32] | Ints
_WIDTH = len(SIDE_FIELDS)


class GameColumns(NamedTuple):
    """A period's games as equal-length int64 arrays, one value a game in the order of the
    games: ``game_id``; ``white``, ``black`` (player ids); ``white_rating``, ``black_rating``
    (each player's rating at the event's start, ``NONE`` = -1 when unrated); ``halves``
    (White's score in halves: 2, 1, 0; ``NONE`` when the game cannot be rated: a forfeit, less
    than one move each, different times). The event is not a column: only 2022-01 needs it
    and 2022-01 is rated on rows."""

    game_id: Ints
    white: Ints
    black: Ints
    white_rating: Ints
    black_rating: Ints
    halves: Ints


def _nullable(values: tuple[int | None, ...]) -> Ints:
    return np.array([NONE if v is None else v for v in values], dtype=np.int64)


def columns_of_rows(rows: list[tuple[int, object, int, int, int | None, int | None,
                                     int | None]]) -> GameColumns:
    """``rules.row_results.GameRow`` tuples as ``GameColumns`` (None -> ``NONE``; the event
    dropped). Empty rows give empty columns."""
    if not rows:
        empty = np.zeros(0, dtype=np.int64)
        return GameColumns(empty, empty, empty, empty, empty, empty)
    game_id, _, white, black, white_rating, black_rating, halves = zip(*rows, strict=True)
    return GameColumns(np.array(game_id, dtype=np.int64), np.array(white, dtype=np.int64),
                       np.array(black, dtype=np.int64), _nullable(white_rating),
                       _nullable(black_rating), _nullable(halves))


def columns_of(columns: GameRowColumns) -> GameColumns:
    """``GameRowColumns`` as ``GameColumns``: views of the same memory, read-only (the event
    dropped)."""
    def view(column: array[int]) -> Ints:
        return np.frombuffer(column, dtype=np.int64) if len(column) else np.zeros(0, np.int64)

    return GameColumns(view(columns.game_id), view(columns.white), view(columns.black),
                       view(columns.white_rating), view(columns.black_rating),
                       view(columns.halves))


#: Players turned into ``RowResult`` a slice at a time (their ids, bounds and sums as Python
#: ints for that slice only: 200,000 players' would be 36 MB).
_PLAYERS_AT_ONCE = 8192

#: ``RowResult.sides``' array type code -> its numpy dtype.
_DTYPES = {"i": np.int32, "q": np.int64}
_INT32 = np.iinfo(np.int32)


def _fits_int32(values: Ints) -> bool:
    """Whether every one of ``values`` is an int32 (``db.audit_pack`` packs sides as int32)."""
    return not len(values) or (int(values.min()) >= _INT32.min
                               and int(values.max()) <= _INT32.max)


def _narrow(values: Ints) -> Narrow:
    """``values`` as int32 when every one fits (``_fits_int32``), else as they are."""
    return values.astype(np.int32) if _fits_int32(values) else values


def _list_ratings(states: Mapping[int, PlayerState], players: Ints) -> Ints:
    """Each of ``players``' rating on the list in force (``NONE`` when unrated or absent)."""
    ids = np.fromiter(states.keys(), dtype=np.int64, count=len(states))
    ratings = np.fromiter((NONE if s.rating is None else s.rating for s in states.values()),
                          dtype=np.int64, count=len(states))
    order = np.argsort(ids, kind="stable")
    ids, ratings = ids[order], ratings[order]
    if not len(ids):
        return np.full(len(players), NONE, dtype=np.int64)
    at = np.minimum(np.searchsorted(ids, players), len(ids) - 1)
    return np.where(ids[at] == players, ratings[at], NONE)


def _interleaved(white: Ints, black: Ints) -> Ints:
    """White's value of game i at 2i, Black's at 2i + 1 (the sides in the order of the games)."""
    both = np.empty(2 * len(white), dtype=np.int64)
    both[0::2] = white
    both[1::2] = black
    return both


def _by_player(player: Ints) -> tuple[npt.NDArray[np.intp], Ints]:
    """(the indices that sort ``player``, equal ids in the order they are in, as
    ``np.argsort(player, kind="stable")``; ``player`` so sorted). The order is found as the one
    order of the unique keys id x 2^b + index (b the bits of the largest index) by numpy's
    default sort (200,000 sides: 13 -> 3.6 ms), the keys made in ``player``'s own array (an
    int64 array the caller gives up: overwritten), the indices added a slice at a time (no
    array of keys or indices beside it); the stable sort itself when an id is negative or a key
    would not fit in 63 bits."""
    bits = max(len(player) - 1, 1).bit_length()
    if not len(player) or int(player.min()) < 0 or int(player.max()) >= 1 << (63 - bits):
        order = np.argsort(player, kind="stable")
        return order, player[order]
    player <<= bits
    for at in range(0, len(player), _INDICES_AT_ONCE):
        upto = min(at + _INDICES_AT_ONCE, len(player))
        player[at:upto] |= np.arange(at, upto, dtype=np.int64)
    order = np.argsort(player)
    grouped = player[order]
    grouped >>= bits
    return order, grouped


#: How many indices ``_by_player`` adds to its keys at once (0.5 MB of int64).
_INDICES_AT_ONCE = 65536


def _by_table(values: Narrow, rule: Callable[[int], int]) -> Ints:
    """``rule`` on each of ``values`` (non-empty), by a table of ``rule`` over the values' range
    (a few thousand calls at most: ratings and rating differences)."""
    low = int(values.min())
    table = np.array([rule(v) for v in range(low, int(values.max()) + 1)], dtype=np.int64)
    return table[values - low]


def rate_columns(states: Mapping[int, PlayerState], columns: GameColumns, period: Period,
                 edition: Edition, carried: Mapping[int, int] | None = None,
                 pool: RatingPool = STANDARD) -> dict[int, RowResult]:
    """Rate every rated player of ``period`` in ``pool`` by ``edition`` from ``columns``,
    exactly as ``rules.period_rows.rate_rows`` does (the same ``RowResult`` values, Python ints
    only, the same dict order: players in order of their first rated game side, White's side
    of a game first, then carried-only players in the order of ``carried``).

    ``states``: player id -> ``PlayerState`` on the list in force at the period's start (every
    player of a rated game side must be present: ``KeyError`` otherwise). ``carried``: player id
    -> hundredths carried into the period (docs/CORRECTIONS.md §5), added before the rounding.
    ``ValueError`` for ``Edition.E2022_01`` (its per-event rule needs the events: rate it with
    ``rules.period_rows.rate_rows``) or columns of unequal lengths."""
    if edition is Edition.E2022_01:
        raise ValueError("edition 2022-01 is rated on rows (rules.period_rows.rate_rows)")
    if len({len(c) for c in columns}) > 1:
        raise ValueError("GameColumns: the columns are not of the same length")
    extra = dict(carried or {})
    game_id, white, black, white_rating, black_rating, halves = columns
    rated_game = halves != NONE
    if pool != STANDARD and period >= GAP_RULE_FROM:  # the 600-point rule (§9)
        both = (white_rating != NONE) & (black_rating != NONE)
        rated_game &= ~(both & (np.abs(white_rating - black_rating) >= GAP)
                        & (np.maximum(white_rating, black_rating) > GAP_ABOVE))
    player = _interleaved(white, black)
    event_rating = _interleaved(white_rating, black_rating)
    own: Narrow = event_rating.copy()
    unrated = np.flatnonzero(event_rating == NONE)
    if len(unrated):  # rated on the list but not at the event's start: the list's rating
        own[unrated] = _list_ratings(states, player[unrated])
    opponent_rating: Narrow = _interleaved(black_rating, white_rating)
    keep = np.repeat(rated_game, 2) & (opponent_rating != NONE) & (own != NONE)
    # each side's values int32 from here when they fit (as period_audits packs them)
    player, own, opponent_rating = player[keep], _narrow(own[keep]), _narrow(opponent_rating[keep])
    opponent = _narrow(_interleaved(black, white)[keep])
    games = _narrow(np.repeat(game_id, 2)[keep])
    score = _narrow(_interleaved(halves, 2 - halves)[keep])
    del event_rating, unrated, keep, rated_game
    difference = _narrow(np.subtract(own, opponent_rating, dtype=np.int64))
    limited = np.clip(difference, -MAX_COUNTED_DIFFERENCE, MAX_COUNTED_DIFFERENCE)
    if exempt_from_400_rule(pool) and len(own):
        applies = _by_table(own, lambda r: int(rule_400_applies_to(r, edition))) == 1
        counted = np.where(applies, limited, difference)
    else:
        counted = limited
    del limited
    expected = _narrow(_by_table(counted, pd_hundredths)) if len(counted) else counted
    # group the sides by player, each player's in the order of the games
    order, grouped = _by_player(player)  # ``player`` overwritten: not used after this
    del player
    values = (games, opponent, own, opponent_rating, difference, counted, expected, score)
    code = "i" if all(v.dtype == np.int32 for v in values) else "q"  # int64 if one is not
    block = np.empty((len(order), _WIDTH), dtype=_DTYPES[code])  # C order: a player's sides in a row
    for j, column in enumerate(values):
        block[:, j] = column[order]
    del values, games, opponent, own, opponent_rating, difference, counted, expected, score
    starts = (np.flatnonzero(np.r_[True, grouped[1:] != grouped[:-1]]) if len(grouped)
              else np.zeros(0, dtype=np.intp))
    ends = np.r_[starts[1:], len(grouped)]
    first = order[starts]  # each player's first side, in the order of the sides
    by_first = np.argsort(first, kind="stable")
    ids = grouped[starts][by_first]
    begin, end = starts[by_first], ends[by_first]
    empty = np.zeros(0, dtype=np.int64)
    scores = np.add.reduceat(block[:, 7], starts, dtype=np.int64)[by_first] if len(starts) else empty
    expecteds = (np.add.reduceat(block[:, 6], starts, dtype=np.int64)[by_first] if len(starts)
                 else empty)
    del order, grouped
    # each player's sides copied out of the block once (no whole copy of it besides)
    flat = block.data.cast("B") if len(block) else memoryview(b"")
    size = _WIDTH * block.itemsize
    results: dict[int, RowResult] = {}
    for at in range(0, len(ids), _PLAYERS_AT_ONCE):  # as Python ints a slice at a time
        part = slice(at, at + _PLAYERS_AT_ONCE)
        for player_id, b, e, s, x in zip(ids[part].tolist(), begin[part].tolist(),
                                         end[part].tolist(), scores[part].tolist(),
                                         expecteds[part].tolist(), strict=True):
            state = states[player_id]
            if state.rating is None:
                continue
            k, reason = k_in_pool(state, period, pool)
            k_used = cap_k(k, e - b)
            sides = array(code)
            sides.frombytes(flat[b * size:e * size])
            carried_here = extra.get(player_id, 0)
            change = k_used * (s * 50 - x) + carried_here
            results[player_id] = RowResult(player_id, state.rating, k_used, k, reason, s, x,
                                           change, round_hundredths(change), carried_here, sides)
    flat.release()
    del block
    with_sides = set(ids[np.isin(ids, np.fromiter(extra, dtype=np.int64, count=len(extra)))]
                     .tolist()) if extra else set()
    for player_id, carried_here in extra.items():
        if player_id in with_sides:
            continue
        state = states[player_id]
        if state.rating is None:
            continue
        k, reason = k_in_pool(state, period, pool)
        results[player_id] = RowResult(player_id, state.rating, k, k, reason, 0, 0,
                                       carried_here, round_hundredths(carried_here),
                                       carried_here, array("i"))
    return results
