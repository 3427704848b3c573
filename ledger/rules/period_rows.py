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
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import NamedTuple

from ledger.domain import STANDARD, KReason, Period, PlayerState, RatingPool
from ledger.rules.editions import Edition
from ledger.rules.expected import cap_difference, pd_hundredths, rule_400_applies_to
from ledger.rules.kfactor import cap_k
from ledger.rules.period import GameAudit, PeriodResult
from ledger.rules.pools import exempt_from_400_rule, gap_rule_excludes, k_in_pool

#: One recorded game: (game id, event key or None, white id, black id, white's rating at the
#: event's start or None, black's or None, white's score in halves: 2, 1 or 0; None when the
#: game cannot be rated at all: a forfeit, less than one move each, different times).
GameRow = tuple[int, int | str | None, int, int, int | None, int | None, int | None]

_HALF = Decimal("0.5")
_HUNDREDTH = Decimal("0.01")


class SideAudit(NamedTuple):
    """How one game entered one player's change (``period_audits.sides`` packs them without
    the player id, ``db.audit_pack``): ``difference`` the real D (own - opponent),
    ``counted_difference`` the D after the 400-point rule, ``expected_hundredths`` PD x 100,
    ``score_halves`` S x 2."""

    game_id: int
    player_id: int
    opponent_id: int
    own_rating: int
    opponent_rating: int
    difference: int
    counted_difference: int
    expected_hundredths: int
    score_halves: int


#: The values of one game side in ``RowResult.sides``, in order: a ``SideAudit`` without the
#: player id (the ``RowResult``'s own).
SIDE_FIELDS = ("game_id", "opponent_id", "own_rating", "opponent_rating", "difference",
               "counted_difference", "expected_hundredths", "score_halves")
_WIDTH = len(SIDE_FIELDS)


def side_values(audits: Iterable[SideAudit]) -> array[int]:
    """``SideAudit`` rows as ``RowResult.sides``: their values but the player id, flat, in
    ``SIDE_FIELDS`` order (64-bit ints)."""
    flat = array("q")
    for a in audits:
        flat.extend((a.game_id, a.opponent_id, a.own_rating, a.opponent_rating, a.difference,
                     a.counted_difference, a.expected_hundredths, a.score_halves))
    return flat


class RowResult:
    """One player's period in integers: the ``period_results`` values and the per-game audit.

    ``score_halves`` = 2 x sum(S); ``expected_hundredths`` = 100 x sum(PD);
    ``change_hundredths`` = K x (50 x score_halves - expected_hundredths) + carried_hundredths
    (exact); ``change`` its one rounding half away from zero; ``sides``: the per-game audit,
    ``SIDE_FIELDS`` for each game side in the order of the games, flat in one ``array`` of
    64-bit ints (36 bytes less a side than a tuple, and no object per side: a federation month
    has 2,000,000 sides); ``audits``: the same as ``SideAudit`` rows, built on each call. The
    ``Decimal`` properties and ``games`` (``GameAudit`` objects, built on demand) give the same
    view as the reference ``rules.period.PeriodResult``.
    """

    __slots__ = ("player_id", "rating_before", "k", "k_before_cap", "k_reason", "n",
                 "score_halves", "expected_hundredths", "change_hundredths", "change",
                 "rating_after", "carried_hundredths", "sides")

    def __init__(self, player_id: int, rating_before: int, k: int, k_before_cap: int,
                 k_reason: KReason, score_halves: int, expected_hundredths: int,
                 change_hundredths: int, change: int, carried_hundredths: int,
                 sides: array[int]) -> None:
        self.player_id = player_id
        self.rating_before = rating_before
        self.k = k
        self.k_before_cap = k_before_cap
        self.k_reason = k_reason
        self.n = len(sides) // _WIDTH
        self.score_halves = score_halves
        self.expected_hundredths = expected_hundredths
        self.change_hundredths = change_hundredths
        self.change = change
        self.rating_after = rating_before + change
        self.carried_hundredths = carried_hundredths
        self.sides = sides

    @property
    def audits(self) -> list[SideAudit]:
        """The per-game audit as ``SideAudit`` rows, in the order of the games (built on each
        call from ``sides``)."""
        v, pid = self.sides, self.player_id
        return [SideAudit(v[i], pid, v[i + 1], v[i + 2], v[i + 3], v[i + 4], v[i + 5], v[i + 6],
                          v[i + 7]) for i in range(0, len(v), _WIDTH)]

    @property
    def opponent_ids(self) -> Sequence[int]:
        """The opponent of each game side, in the order of the games."""
        return self.sides[1::_WIDTH]

    def __repr__(self) -> str:
        return (f"RowResult(player_id={self.player_id}, rating_before={self.rating_before}, "
                f"k={self.k}, n={self.n}, change_hundredths={self.change_hundredths}, "
                f"change={self.change})")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RowResult) and self.values() == other.values()

    __hash__ = None  # type: ignore[assignment]

    def values(self) -> tuple[object, ...]:
        """The ``period_results`` values after (period, revision), then the audits."""
        return (*self.totals(), tuple(self.audits))

    def totals(self) -> tuple[int, int, int, int, int, int, int, str, int, int, int, int]:
        """(player id, rating before, games, score halves, expected hundredths, K, K before the
        cap, K reason, change hundredths, change, rating after, carried hundredths): the
        ``period_results`` columns after (period, revision)."""
        return (self.player_id, self.rating_before, self.n, self.score_halves,
                self.expected_hundredths, self.k, self.k_before_cap, self.k_reason.value,
                self.change_hundredths, self.change, self.rating_after, self.carried_hundredths)

    @property
    def k_capped(self) -> bool:
        """True when K x n > 700 cut K."""
        return self.k != self.k_before_cap

    @property
    def score(self) -> Decimal:
        """Sum of S (exact)."""
        return self.score_halves * _HALF

    @property
    def expected(self) -> Decimal:
        """Sum of PD (exact, two decimals)."""
        return Decimal(self.expected_hundredths).scaleb(-2)

    @property
    def surplus(self) -> Decimal:
        """Sum of S - PD (exact)."""
        return self.score - self.expected

    @property
    def change_exact(self) -> Decimal:
        """K x sum(S - PD) + carried (exact)."""
        return Decimal(self.change_hundredths).scaleb(-2)

    @property
    def carried(self) -> Decimal:
        """The carried corrections added before the rounding (exact)."""
        return Decimal(self.carried_hundredths).scaleb(-2)

    @property
    def games(self) -> tuple[GameAudit, ...]:
        """The audit as ``rules.period.GameAudit`` objects (built on each call)."""
        return tuple(GameAudit(a.game_id, a.opponent_id, a.own_rating, a.opponent_rating,
                               a.difference, a.counted_difference,
                               a.counted_difference != a.difference,
                               Decimal(a.expected_hundredths).scaleb(-2), a.score_halves * _HALF)
                     for a in self.audits)


def round_hundredths(hundredths: int) -> int:
    """A whole number of hundredths rounded to a whole number, halves away from zero (§8.3.4):
    450 -> 5, -250 -> -3, 449 -> 4, -449 -> -4."""
    whole, rest = divmod(abs(hundredths), 100)
    rounded = whole + (1 if rest >= 50 else 0)
    return rounded if hundredths >= 0 else -rounded


def exact_hundredths(value: Decimal) -> int:
    """An exact value as a whole number of hundredths; ``ValueError`` when it is not one."""
    scaled = value * 100
    if scaled != scaled.to_integral_value():
        raise ValueError(f"{value} is not a whole number of hundredths")
    return int(scaled)


def from_reference(result: PeriodResult) -> RowResult:
    """The reference ``PeriodResult`` as a ``RowResult`` (the same values in integers);
    ``ValueError`` when a value is not a whole number of hundredths (it always is)."""
    audits = [SideAudit(a.game_id, result.player_id, a.opponent_id, a.own_rating,
                        a.opponent_rating, a.difference, a.counted_difference,
                        exact_hundredths(a.expected), int(a.score * 2)) for a in result.games]
    return RowResult(result.player_id, result.rating_before, result.k, result.k_before_cap,
                     result.k_reason, int(result.score * 2), exact_hundredths(result.expected),
                     exact_hundredths(result.change_exact), result.change,
                     exact_hundredths(result.carried), side_values(audits))


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


def rate_rows(states: Mapping[int, PlayerState], games: Iterable[GameRow], period: Period,
              edition: Edition, carried: Mapping[int, int] | None = None,
              pool: RatingPool = STANDARD) -> dict[int, RowResult]:
    """Rate every rated player of ``period`` in ``pool`` by ``edition`` from ``games``
    (``GameRow`` tuples), exactly as ``rules.period.rate_period`` does: on numpy columns
    (``rules.period_arrays.rate_columns``, imported here only), or for ``Edition.E2022_01``
    (one capped game per event) on the rows (``rate_rows_in_python``).

    ``states``: player id -> ``PlayerState`` on the list in force at the period's start (every
    player of a rated game side must be present: ``KeyError`` otherwise). ``carried``: player id
    -> hundredths carried into the period (docs/CORRECTIONS.md §5), added before the rounding.
    Returns player id -> ``RowResult`` for each player rated at the period's start with at
    least one rated game or a carried correction, players in order of their first game, then
    the carried-only players.
    """
    if edition is Edition.E2022_01:
        return rate_rows_in_python(states, games, period, edition, carried, pool)
    from ledger.rules.period_arrays import columns_of_rows, rate_columns

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
